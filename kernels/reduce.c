/* SPDX-License-Identifier: BSD-3-Clause */
/* Host side of the split-K reduction (kernels/reduce.cl). */
#include "reduce.h"

gpublas3Status g3_reduce_launch(const g3_device *d, const g3_kset *ks, int dbl, size_t M, size_t N, int splits,
                                double alpha, double beta, cl_mem P, cl_mem C, size_t offc, size_t ldc, int tri,
                                int cplx, g3_chain *chain)
{
    /* A large output (512 work-items a compute unit even so) takes 4
     * columns a work-item (rn) in work-groups of 64 x 4: at one element a
     * work-item in 16 x 4, the S 1024^2 reduction of two slices was 16384
     * work-groups and took 14 us on the H100, 8 this way.  A small output
     * keeps one element a work-item in 16 x 4: it has few elements and
     * many slices, and needs every work-item it can get (D 256^2 x 16384,
     * 32 slices: 9 us against 20 at 4 columns; docs/performance.md, Split-K). */
    const int wide = M * N >= (size_t)d->compute_units * 2048 && d->max_wg >= 256;
    cl_int m = (cl_int)M, n = (cl_int)N, s = splits, t = tri, cs = cplx, rn = wide ? 4 : 1;
    g3_scalar_val al, be;
    cl_long pslice = (cl_long)(M * N), oc = (cl_long)offc, lc = (cl_long)ldc;
    g3_arg args[] = { G3_ARG(m), G3_ARG(n), G3_ARG(s), g3_scalar_arg(dbl, 0, alpha, 0, &al),
        g3_scalar_arg(dbl, 0, beta, 0, &be),
        G3_ARG(P), G3_ARG(pslice), G3_ARG(C), G3_ARG(oc), G3_ARG(lc), G3_ARG(t), G3_ARG(cs), G3_ARG(rn) };
    size_t lx = wide ? 64 : 16;
    size_t local[2] = { lx, 4 }, global[2] = { g3_roundup(M, lx), g3_roundup((N + rn - 1) / rn, 4) };
    return g3_launch(chain, d, g3_src_reduce, "reduce", ks->reduce_defines, sizeof args / sizeof args[0], args, 2,
                     global, local);
}

gpublas3Status g3_reduce_transposed(const g3_device *d, const g3_kset *ks, int dbl, size_t M, size_t N,
                                    double alpha, double beta, cl_mem T, cl_mem C, size_t offc, size_t ldc,
                                    g3_chain *chain)
{
    cl_int m = (cl_int)M, n = (cl_int)N;
    g3_scalar_val al, be;
    cl_long oc = (cl_long)offc, lc = (cl_long)ldc;
    g3_arg args[] = { G3_ARG(m), G3_ARG(n), g3_scalar_arg(dbl, 0, alpha, 0, &al),
        g3_scalar_arg(dbl, 0, beta, 0, &be),
                      G3_ARG(T), G3_ARG(C), G3_ARG(oc), G3_ARG(lc) };
    size_t local[2] = { 64, 4 }, global[2] = { g3_roundup(M, 64), g3_roundup(N, 4) };
    return g3_launch(chain, d, g3_src_reduce, "reduce_t", ks->reduce_defines, sizeof args / sizeof args[0], args, 2,
                     global, local);
}

gpublas3Status g3_reduce_sym(const g3_device *d, const g3_kset *ks, int dbl, size_t M, size_t N, double beta,
                             cl_mem X, cl_mem C, size_t offc, size_t ldc, int tri, int cplx, g3_chain *chain)
{
    cl_int m = (cl_int)M, n = (cl_int)N, t = tri, cs = cplx;
    g3_scalar_val be;
    cl_long oc = (cl_long)offc, lc = (cl_long)ldc;
    g3_arg args[] = { G3_ARG(m), G3_ARG(n), g3_scalar_arg(dbl, 0, beta, 0, &be), G3_ARG(X), G3_ARG(C),
                      G3_ARG(oc), G3_ARG(lc), G3_ARG(t), G3_ARG(cs) };
    size_t local[2] = { 64, 4 }, global[2] = { g3_roundup(M, 64), g3_roundup(N, 4) };
    return g3_launch(chain, d, g3_src_reduce, "reduce_sym", ks->reduce_defines, sizeof args / sizeof args[0], args,
                     2, global, local);
}

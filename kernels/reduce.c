/* Host side of the split-K reduction (kernels/reduce.cl): one work-item
 * per element of C. */
#include "reduce.h"

gpublas3Status g3_reduce_launch(const g3_device *d, const g3_kset *ks, int dbl, size_t M, size_t N, int splits,
                                double alpha, double beta, cl_mem P, cl_mem C, size_t offc, size_t ldc, int tri,
                                int cplx, g3_chain *chain)
{
    cl_int m = (cl_int)M, n = (cl_int)N, s = splits, t = tri, cs = cplx ? 1 : 0;
    cl_float fa = (cl_float)alpha, fb = (cl_float)beta;
    cl_double da = alpha, db = beta;
    cl_long pslice = (cl_long)(M * N), oc = (cl_long)offc, lc = (cl_long)ldc;
    g3_arg args[] = { G3_ARG(m), G3_ARG(n), G3_ARG(s), dbl ? G3_ARG(da) : G3_ARG(fa), dbl ? G3_ARG(db) : G3_ARG(fb),
        G3_ARG(P), G3_ARG(pslice), G3_ARG(C), G3_ARG(oc), G3_ARG(lc), G3_ARG(t), G3_ARG(cs) };
    /* 16 x 4: a work-group every OpenCL device allows, rows contiguous */
    size_t local[2] = { 16, 4 }, global[2] = { g3_roundup(M, 16), g3_roundup(N, 4) };
    return g3_launch(chain, d, g3_src_reduce, "reduce", ks->reduce_defines, sizeof args / sizeof args[0], args, 2,
                     global, local);
}

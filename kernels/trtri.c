/* Host side of kernels/trtri.cl: one work-group per diagonal block. */
#include <stdio.h>
#include "trtri.h"

extern const char g3_src_trtri[];

gpublas3Status g3_trtri_launch(const g3_device *d, int dbl, int cplx, cl_mem A, size_t off, size_t ld,
                               int trans, int conj, int upper, int unit, size_t n, size_t nb, cl_mem W,
                               g3_chain *chain)
{
    char options[64];
    snprintf(options, sizeof options, "-DPRECISION=%d -DCOMPLEX=%d -DNB=%zu", dbl ? 64 : 32, cplx ? 1 : 0, nb);
    cl_long offa = (cl_long)off, lda = (cl_long)ld;
    cl_int tr = trans, cj = conj, up = upper, un = unit, nn = (cl_int)n, nbl = (cl_int)nb;
    g3_arg args[] = { G3_ARG(A), G3_ARG(offa), G3_ARG(lda), G3_ARG(tr), G3_ARG(cj), G3_ARG(up), G3_ARG(un),
                      G3_ARG(nn), G3_ARG(nbl), G3_ARG(W) };
    /* one work-item per column of a block, at most 128 (more columns loop) */
    size_t local = nb < 128 ? nb : 128, global = (n + nb - 1) / nb * local;
    return g3_launch(chain, d, g3_src_trtri, "trtri", options,
                     sizeof args / sizeof args[0], args, 1, &global, &local);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Host side of kernels/trtri.cl: trsm_cols (the set's) picks the kernel,
 * one work-group per diagonal block and trsm_cols columns of its inverse,
 * or (0) one work-group per block, one work-item per column (row-major
 * inverses only, no dense copy of the blocks). */
#include <stdio.h>
#include "trtri.h"

extern const char g3_src_trtri[];

gpublas3Status g3_trtri_launch(const g3_device *d, int dbl, int cplx, cl_mem A, size_t off, size_t ld,
                               int trans, int conj, int upper, int unit, size_t n, size_t nb, int rm, cl_mem W,
                               cl_mem D, g3_chain *chain)
{
    size_t cols = (size_t)d->sets[dbl][G3_SHAPE_LARGE].p.trsm_cols;
    char options[96];
    snprintf(options, sizeof options, "-DPRECISION=%d -DCOMPLEX=%d -DNB=%zu -DCOLS=%zu", dbl ? 64 : 32,
             cplx ? 1 : 0, nb, cols);
    cl_long offa = (cl_long)off, lda = (cl_long)ld;
    cl_int tr = trans, cj = conj, up = upper, un = unit, nn = (cl_int)n, nbl = (cl_int)nb;
    cl_int rmi = cols ? rm : 1, dense = cols && D;
    cl_mem dd = dense ? D : W;
    g3_arg args[] = { G3_ARG(A), G3_ARG(offa), G3_ARG(lda), G3_ARG(tr), G3_ARG(cj), G3_ARG(up), G3_ARG(un),
                      G3_ARG(nn), G3_ARG(nbl), G3_ARG(W), G3_ARG(rmi), G3_ARG(dense), G3_ARG(dd) };
    /* cols: the kernel's LS work-items (one per row, at most 256) per group of
     * columns; 0: one work-item per column, at most 128 (more columns loop) */
    size_t blocks = (n + nb - 1) / nb, local = cols ? (nb < 256 ? nb : 256) : nb < 128 ? nb : 128;
    size_t global = blocks * (cols ? (nb + cols - 1) / cols : 1) * local;
    return g3_launch(chain, d, g3_src_trtri, "trtri", options,
                     sizeof args / sizeof args[0], args, 1, &global, &local);
}

int g3_trtri_layouts(const g3_params *p)
{
    return p->trsm_cols > 0;
}

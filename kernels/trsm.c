/* SPDX-License-Identifier: BSD-3-Clause */
/* Host side of kernels/trsm.cl: one work-group of G3_LEAF_LS work-items per
 * G3_LEAF_W columns of B, compiled for the rows each work-item holds. */
#include <stdio.h>
#include "trsm.h"

extern const char g3_src_trsm[];

/* The build options of a leaf of n rows (leaf_transpose shares its program). */
static void leaf_options(char *options, size_t size, int dbl, int cplx, size_t n, int refine)
{
    snprintf(options, size, "-DPRECISION=%d -DCOMPLEX=%d -DTB=%d -DW=%d -DSLOTS=%zu -DREFINE=%d", dbl ? 64 : 32,
             cplx, G3_LEAF_TB, G3_LEAF_W, (n + G3_LEAF_LS - 1) / G3_LEAF_LS, refine);
}

gpublas3Status g3_leaf_transpose(const g3_device *d, int dbl, const g3_leaf_args *a, cl_mem E, size_t eoff,
                                 size_t ld, g3_chain *chain)
{
    char options[112];
    leaf_options(options, sizeof options, dbl, a->cplx, a->n, a->refine);
    cl_int n = (cl_int)a->n;
    cl_long off = (cl_long)eoff, l = (cl_long)ld;
    g3_arg args[] = { G3_ARG(n), G3_ARG(E), G3_ARG(off), G3_ARG(l), G3_ARG(a->E) };
    size_t local[2] = { 16, 16 }, global[2] = { g3_roundup(a->n, 16), g3_roundup(a->n, 16) };
    return g3_launch(chain, d, g3_src_trsm, "leaf_transpose", options, sizeof args / sizeof args[0], args, 2,
                     global, local);
}

gpublas3Status g3_leaf_launch(const g3_device *d, int dbl, const g3_leaf_args *a, g3_chain *chain)
{
    char options[112];
    leaf_options(options, sizeof options, dbl, a->cplx, a->n, a->refine);
    cl_int n = (cl_int)a->n, rhs = (cl_int)a->rhs, fwd = a->fwd, cj = a->conj;
    g3_scalar_val al;
    g3_arg alpha = g3_scalar_arg(dbl, a->cplx, a->alpha[0], a->alpha[1], &al);
    cl_long eoff = (cl_long)a->eoff, eq = (cl_long)a->eq, woff = (cl_long)a->woff,
            boff = (cl_long)a->boff, bp = (cl_long)a->bp, bc = (cl_long)a->bc;
    /* without refinement T is not read: any buffer stands in */
    cl_mem T = a->refine ? a->T : a->I;
    g3_arg args[] = { G3_ARG(n), G3_ARG(rhs), G3_ARG(fwd), alpha, G3_ARG(a->E), G3_ARG(eoff), G3_ARG(eq),
                      G3_ARG(cj), G3_ARG(a->I), G3_ARG(T), G3_ARG(woff), G3_ARG(a->B),
                      G3_ARG(boff), G3_ARG(bp), G3_ARG(bc) };
    size_t local = G3_LEAF_LS, global = (a->rhs + G3_LEAF_W - 1) / G3_LEAF_W * local;
    return g3_launch(chain, d, g3_src_trsm, "trsm_leaf", options, sizeof args / sizeof args[0], args, 1,
                     &global, &local);
}

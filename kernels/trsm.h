/* SPDX-License-Identifier: BSD-3-Clause */
/* Host side of the leaf kernel (kernels/trsm.cl) that TRSM's solve
 * (routines/plan/solve.c) runs for each leaf of at most trsm_leaf rows. */
#ifndef G3_TRSM_H
#define G3_TRSM_H
#include "core.h"

/* The kernel's geometry (G3_LEAF_TB, G3_LEAF_W, G3_LEAF_LS, G3_LEAF_LOCAL)
 * is in lib/params.h, which checks a device for it. */

typedef struct {
    size_t n, rhs;
    int fwd, refine;
    int cplx;       /* CTRSM, ZTRSM: complex elements, offsets and strides in them */
    double alpha[2];
    cl_mem E;       /* L(p, q) = E[eoff + p + q eq] off the diagonal blocks, conjugated with conj */
    size_t eoff, eq;
    int conj;
    cl_mem I, T;    /* trtri's inverses and (refine) blocks, block 0 of the leaf at woff */
    size_t woff;
    cl_mem B;       /* B(p, c) = B[boff + p bp + c bc] */
    size_t boff, bp, bc;
} g3_leaf_args;

/* Solves L X = alpha B in place as the chain's next step (kernels/trsm.cl
 * says what each argument is). */
gpublas3Status g3_leaf_launch(const g3_device *d, int dbl, const g3_leaf_args *a, g3_chain *chain);
/* Copies the leaf's L, stored across (L(p, q) = E[eoff + p ld + q]), into
 * a->E tight (eq = a->n) as the chain's next step. */
gpublas3Status g3_leaf_transpose(const g3_device *d, int dbl, const g3_leaf_args *a, cl_mem E, size_t eoff,
                                 size_t ld, g3_chain *chain);
#endif

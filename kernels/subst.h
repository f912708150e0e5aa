/* SPDX-License-Identifier: BSD-3-Clause */
/* Host side of the substitution kernel (kernels/subst.cl) that TRSM's
 * blocked solve (routines/plan/solve.c) runs for each diagonal block where
 * the set's trsm_subst is 1, and that TRMM's blocks multiply with there. */
#ifndef G3_SUBST_H
#define G3_SUBST_H
#include "core.h"

typedef struct {
    size_t len, rhs;
    int mul;         /* B <- alpha L B instead of the solve */
    int fwd, unit, conj;
    double alpha_re, alpha_im;
    cl_mem A;        /* L(i, k) = A[aoff + i li + k lk] */
    size_t aoff, li, lk;
    cl_mem B;        /* B(p, c) = B[boff + p bp + c bc] */
    size_t boff, bp, bc;
} g3_subst_args;

/* Solves L X = alpha B (mul: multiplies, B = alpha L B) in place for one block of at most nb rows (nb the
 * kernel's private rows: the set's trsm_nb), as the chain's next step;
 * one work-item per v right-hand sides (the set's vwm). */
gpublas3Status g3_subst_launch(const g3_device *d, int dbl, int cplx, size_t nb, const g3_subst_args *a,
                               g3_chain *chain);
#endif

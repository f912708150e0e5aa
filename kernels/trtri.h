/* SPDX-License-Identifier: BSD-3-Clause */
/* Host side of the diagonal-block inversion kernel (kernels/trtri.cl) that
 * TRSM's solve (routines/plan/solve.c) multiplies by. */
#ifndef G3_TRTRI_H
#define G3_TRTRI_H
#include "core.h"

/* Inverts the diagonal blocks of nb of the n x n triangular T = op(A)
 * (A at buf, off, ld; trans, upper: T's triangle, unit; complex elements
 * with cplx, conjugated with conj) into W, which holds ceil(n/nb) blocks
 * of nb x nb, block g at g nb^2, each the inverse stored column-major with
 * leading dimension nb, or (rm) its transpose.  D, when not NULL, gets
 * T's diagonal blocks the same way, as general matrices (the other
 * triangle zero, a unit diagonal as 1).  rm and D are honoured only where
 * g3_trtri_layouts says so; else W is row-major and D not written. */
gpublas3Status g3_trtri_launch(const g3_device *d, int dbl, int cplx, cl_mem A, size_t off, size_t ld,
                               int trans, int conj, int upper, int unit, size_t n, size_t nb, int rm, cl_mem W,
                               cl_mem D, g3_chain *chain);
/* 1 when the trtri kernel of a device whose large set of its precision is
 * p takes rm and D (trsm_cols > 0). */
int g3_trtri_layouts(const g3_params *p);
#endif

/* Host side of the diagonal-block inversion kernel (kernels/trtri.cl) that
 * TRSM's solve (routines/plan/solve.c) multiplies by. */
#ifndef G3_TRTRI_H
#define G3_TRTRI_H
#include "core.h"

/* Inverts the diagonal blocks of nb of the n x n triangular T = op(A)
 * (A at buf, off, ld; trans, upper: T's triangle, unit; complex elements
 * with cplx, conjugated with conj) into W, which holds
 * ceil(n/nb) blocks of nb x nb, each the transpose of the inverse stored
 * column-major with leading dimension nb. */
gpublas3Status g3_trtri_launch(const g3_device *d, int dbl, int cplx, cl_mem A, size_t off, size_t ld,
                               int trans, int conj, int upper, int unit, size_t n, size_t nb, cl_mem W,
                               g3_chain *chain);
#endif

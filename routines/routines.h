/* SPDX-License-Identifier: BSD-3-Clause */
/* The routines' internal entries, for the host drop-ins above them: the
 * cl_mem routine of any type (G3_S, G3_D, G3_C, G3_Z; scalars as
 * g3_scalar), with a series' shared operand (g3_reuse, plan.h; NULL: none)
 * so that the drop-ins' panels pack it once.  The public gpublas3<T>gemm
 * etc. are these with reuse NULL.  Internal only. */
#ifndef G3_ROUTINES_H
#define G3_ROUTINES_H
#include "plan.h"

/* GEMM's column-major call (a row-major call is the one on the transposes),
 * for g3_gemm and the batched forms' one product. */
g3_call g3_gemm_call(int type, gpublas3Order order, gpublas3Transpose transA, gpublas3Transpose transB,
    size_t M, size_t N, size_t K, g3_scalar alpha, cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB,
    size_t ldb, g3_scalar beta, cl_mem C, size_t offC, size_t ldc);
gpublas3Status g3_gemm(g3_reuse *reuse, int type, gpublas3Order order, gpublas3Transpose transA,
    gpublas3Transpose transB, size_t M, size_t N, size_t K, g3_scalar alpha,
    cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb,
    g3_scalar beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS);
/* herm: HEMM (complex types) */
gpublas3Status g3_symm(g3_reuse *reuse, int type, int herm, gpublas3Order order, gpublas3Side side,
    gpublas3Uplo uplo, size_t M, size_t N, g3_scalar alpha, cl_mem A, size_t offA, size_t lda,
    cl_mem B, size_t offB, size_t ldb, g3_scalar beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS);
gpublas3Status g3_trmm(g3_reuse *reuse, int type, gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
    gpublas3Transpose trans, gpublas3Diag diag, size_t M, size_t N, g3_scalar alpha,
    cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb, GPUBLAS3_QUEUE_ARGS);
#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* TRSM: B <- alpha*inv(op(A))*B (side Left) or alpha*B*inv(op(A)) (side
 * Right), A triangular: X solves op(A)*X = alpha*B or X*op(A) = alpha*B and
 * overwrites B.  The plan's solve (routines/plan/solve.c) inverts op(A)'s
 * diagonal blocks and runs the rest as GEMM-shaped calls.  alpha = 0 is one
 * call that writes B = 0 without reading A or B.  Row-major maps as in TRMM:
 * side and A's stored triangle flip, M and N swap, trans stays (and
 * conjugation with it, as in TRMM).  Complex types as the real ones, with
 * complex alpha; ConjTrans conjugates op(A). */
#include "plan.h"

static gpublas3Status trsm(int type, gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
    gpublas3Transpose trans, gpublas3Diag diag, size_t M, size_t N, g3_scalar alpha,
    cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb, GPUBLAS3_QUEUE_ARGS)
{
    gpublas3Status st = g3_check_triangular("trsm", g3_type_letter(type), g3_type_size(type), order, side, uplo,
                                            trans, diag, M, N, A, offA, lda, B, offB, ldb, numCommandQueues,
                                            commandQueues, numEventsInWaitList, eventWaitList);
    if (st != gpublas3Success)
        return st;
    g3_solve s = g3_solve_of(type, order, side, uplo, trans, diag, M, N, alpha, A, offA, lda, B, offB, ldb);
    if (alpha.re == 0 && alpha.im == 0) {
        g3_call zero = { .dbl = s.dbl, .cplx = s.cplx, .M = s.M, .N = s.N, .nterms = 1, .c = B, .offc = offB,
                         .ldc = ldb };
        return g3_run(&zero, G3_QUEUE_PASS);
    }
    return g3_solve_run(&s, G3_QUEUE_PASS);
}

gpublas3Status gpublas3Strsm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
    gpublas3Transpose transA, gpublas3Diag diag, size_t M, size_t N, cl_float alpha,
    const cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb, GPUBLAS3_QUEUE_ARGS)
{
    return trsm(G3_S, order, side, uplo, transA, diag, M, N, g3_real(alpha), A, offA, lda, B, offB, ldb,
                G3_QUEUE_PASS);
}

gpublas3Status gpublas3Dtrsm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
    gpublas3Transpose transA, gpublas3Diag diag, size_t M, size_t N, cl_double alpha,
    const cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb, GPUBLAS3_QUEUE_ARGS)
{
    return trsm(G3_D, order, side, uplo, transA, diag, M, N, g3_real(alpha), A, offA, lda, B, offB, ldb,
                G3_QUEUE_PASS);
}

gpublas3Status gpublas3Ctrsm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
    gpublas3Transpose transA, gpublas3Diag diag, size_t M, size_t N, cl_float2 alpha,
    const cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb, GPUBLAS3_QUEUE_ARGS)
{
    return trsm(G3_C, order, side, uplo, transA, diag, M, N, g3_cfloat(alpha), A, offA, lda, B, offB, ldb,
                G3_QUEUE_PASS);
}

gpublas3Status gpublas3Ztrsm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
    gpublas3Transpose transA, gpublas3Diag diag, size_t M, size_t N, cl_double2 alpha,
    const cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb, GPUBLAS3_QUEUE_ARGS)
{
    return trsm(G3_Z, order, side, uplo, transA, diag, M, N, g3_cdouble(alpha), A, offA, lda, B, offB, ldb,
                G3_QUEUE_PASS);
}

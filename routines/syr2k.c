/* SYR2K: C <- alpha*op(A)*op(B)^T + alpha*op(B)*op(A)^T + beta*C on the
 * `uplo` triangle.  SYRK's launch with two terms: the driver packs op(A) and
 * op(B) once each and runs two GEMM launches chained by events, the second
 * accumulating with beta = 1.  Row-major flips uplo and trans, as SYRK. */
#include "plan.h"

static gpublas3Status syr2k(int dbl, gpublas3Order order, gpublas3Uplo uplo, gpublas3Transpose trans,
    size_t N, size_t K, double alpha, cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB,
    size_t ldb, double beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    int t = trans != gpublas3NoTrans;
    g3_matrix a = { A, offA, lda, t ? K : N, t ? N : K }, b = { B, offB, ldb, t ? K : N, t ? N : K };
    g3_matrix c = { C, offC, ldc, N, N };
    const g3_matrix *mats[3] = { &a, &b, &c };
    gpublas3Status st = g3_check_call(order, g3_valid_uplo(uplo) && g3_valid_trans(trans), dbl ? 8 : 4,
                                      numCommandQueues, commandQueues, numEventsInWaitList, eventWaitList, mats);
    if (st != gpublas3Success)
        return st;
    int row = order == gpublas3RowMajor;
    int tr = t != row, upper = (uplo == gpublas3Upper) != row;
    g3_operand opa = { A, offA, lda, tr, G3_GENERAL, 0 }, opb = { B, offB, ldb, tr, G3_GENERAL, 0 };
    g3_operand opat = { A, offA, lda, !tr, G3_GENERAL, 0 }, opbt = { B, offB, ldb, !tr, G3_GENERAL, 0 };
    g3_call p = { .dbl = dbl, .M = N, .N = N, .K = K, .alpha = alpha, .beta = beta, .nterms = 2,
                       .a = { opa, opb }, .b = { opbt, opat },
                       .c = C, .offc = offC, .ldc = ldc, .tri = upper ? 1 : 2 };
    return g3_run(&p, numCommandQueues, commandQueues, numEventsInWaitList, eventWaitList, events);
}

gpublas3Status gpublas3Ssyr2k(gpublas3Order order, gpublas3Uplo uplo, gpublas3Transpose transAB, size_t N,
    size_t K, cl_float alpha, const cl_mem A, size_t offA, size_t lda, const cl_mem B, size_t offB,
    size_t ldb, cl_float beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    return syr2k(0, order, uplo, transAB, N, K, alpha, A, offA, lda, B, offB, ldb, beta, C, offC, ldc,
                 G3_QUEUE_PASS);
}

gpublas3Status gpublas3Dsyr2k(gpublas3Order order, gpublas3Uplo uplo, gpublas3Transpose transAB, size_t N,
    size_t K, cl_double alpha, const cl_mem A, size_t offA, size_t lda, const cl_mem B, size_t offB,
    size_t ldb, cl_double beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    return syr2k(1, order, uplo, transAB, N, K, alpha, A, offA, lda, B, offB, ldb, beta, C, offC, ldc,
                 G3_QUEUE_PASS);
}

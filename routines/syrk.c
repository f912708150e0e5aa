/* SYRK: C <- alpha*op(A)*op(A)^T + beta*C on the `uplo` triangle of C.
 * GEMM with both operands packed from A (once: the driver sees that they are
 * the same data); the launch skips blocks wholly in the other triangle and
 * the store writes only the stored one.
 * Row-major: the column-major view of C is C^T (the other triangle) and of A
 * is A^T, so uplo and trans both flip. */
#include "plan.h"

static gpublas3Status syrk(int dbl, gpublas3Order order, gpublas3Uplo uplo, gpublas3Transpose trans,
    size_t N, size_t K, double alpha, cl_mem A, size_t offA, size_t lda, double beta,
    cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    int t = trans != gpublas3NoTrans;
    g3_matrix a = { A, offA, lda, t ? K : N, t ? N : K }, c = { C, offC, ldc, N, N };
    const g3_matrix *mats[3] = { &a, NULL, &c };
    gpublas3Status st = g3_check_call(order, g3_valid_uplo(uplo) && g3_valid_trans(trans), dbl ? 8 : 4,
                                      numCommandQueues, commandQueues, numEventsInWaitList, eventWaitList, mats);
    if (st != gpublas3Success)
        return st;
    int row = order == gpublas3RowMajor;
    int tr = t != row, upper = (uplo == gpublas3Upper) != row;
    g3_call p = { .dbl = dbl, .M = N, .N = N, .K = K, .alpha = alpha, .beta = beta, .nterms = 1,
                       .a = { { A, offA, lda, tr, G3_GENERAL, 0 } }, .b = { { A, offA, lda, !tr, G3_GENERAL, 0 } },
                       .c = C, .offc = offC, .ldc = ldc, .tri = upper ? 1 : 2 };
    return g3_run(&p, numCommandQueues, commandQueues, numEventsInWaitList, eventWaitList, events);
}

gpublas3Status gpublas3Ssyrk(gpublas3Order order, gpublas3Uplo uplo, gpublas3Transpose transA, size_t N,
    size_t K, cl_float alpha, const cl_mem A, size_t offA, size_t lda, cl_float beta, cl_mem C,
    size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    return syrk(0, order, uplo, transA, N, K, alpha, A, offA, lda, beta, C, offC, ldc, G3_QUEUE_PASS);
}

gpublas3Status gpublas3Dsyrk(gpublas3Order order, gpublas3Uplo uplo, gpublas3Transpose transA, size_t N,
    size_t K, cl_double alpha, const cl_mem A, size_t offA, size_t lda, cl_double beta, cl_mem C,
    size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    return syrk(1, order, uplo, transA, N, K, alpha, A, offA, lda, beta, C, offC, ldc, G3_QUEUE_PASS);
}

/* GEMM: C <- alpha*op(A)*op(B) + beta*C.
 * A row-major call is the column-major call on the transposes,
 * C^T = op(B)^T * op(A)^T: A and B swap places, M and N swap, and the
 * transpose flags stay as they are. */
#include "plan.h"

static gpublas3Status gemm(int dbl, gpublas3Order order, gpublas3Transpose transA,
    gpublas3Transpose transB, size_t M, size_t N, size_t K, double alpha,
    cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb,
    double beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    int ta = transA != gpublas3NoTrans, tb = transB != gpublas3NoTrans;
    g3_matrix a = { A, offA, lda, ta ? K : M, ta ? M : K };
    g3_matrix b = { B, offB, ldb, tb ? N : K, tb ? K : N };
    g3_matrix c = { C, offC, ldc, M, N };
    const g3_matrix *mats[3] = { &a, &b, &c };
    gpublas3Status st = g3_check_call(order, g3_valid_trans(transA) && g3_valid_trans(transB), dbl ? 8 : 4,
                                      numCommandQueues, commandQueues, numEventsInWaitList, eventWaitList, mats);
    if (st != gpublas3Success)
        return st;
    g3_operand opa = { A, offA, lda, ta, G3_GENERAL, 0 }, opb = { B, offB, ldb, tb, G3_GENERAL, 0 };
    int row = order == gpublas3RowMajor;
    g3_call p = { .dbl = dbl, .M = row ? N : M, .N = row ? M : N, .K = K, .alpha = alpha, .beta = beta,
                       .nterms = 1, .a = { row ? opb : opa }, .b = { row ? opa : opb },
                       .c = C, .offc = offC, .ldc = ldc };
    return g3_run(&p, numCommandQueues, commandQueues, numEventsInWaitList, eventWaitList, events);
}

gpublas3Status gpublas3Sgemm(gpublas3Order order, gpublas3Transpose transA, gpublas3Transpose transB,
    size_t M, size_t N, size_t K, cl_float alpha, const cl_mem A, size_t offA, size_t lda,
    const cl_mem B, size_t offB, size_t ldb, cl_float beta, cl_mem C, size_t offC, size_t ldc,
    GPUBLAS3_QUEUE_ARGS)
{
    return gemm(0, order, transA, transB, M, N, K, alpha, A, offA, lda, B, offB, ldb, beta, C, offC, ldc,
                G3_QUEUE_PASS);
}

gpublas3Status gpublas3Dgemm(gpublas3Order order, gpublas3Transpose transA, gpublas3Transpose transB,
    size_t M, size_t N, size_t K, cl_double alpha, const cl_mem A, size_t offA, size_t lda,
    const cl_mem B, size_t offB, size_t ldb, cl_double beta, cl_mem C, size_t offC, size_t ldc,
    GPUBLAS3_QUEUE_ARGS)
{
    return gemm(1, order, transA, transB, M, N, K, alpha, A, offA, lda, B, offB, ldb, beta, C, offC, ldc,
                G3_QUEUE_PASS);
}

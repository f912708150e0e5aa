/* SYMM: C <- alpha*A*B + beta*C (side Left) or alpha*B*A + beta*C (side
 * Right), A symmetric with only its `uplo` triangle read.  The copy kernel
 * mirrors the stored triangle while packing, then it is GEMM.
 * Row-major: C^T = B^T*A (A = A^T), so the side flips, the stored triangle
 * of A seen column-major flips, and M and N swap. */
#include "plan.h"

static gpublas3Status symm(int dbl, gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
    size_t M, size_t N, double alpha, cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB,
    size_t ldb, double beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    size_t ka = side == gpublas3Left ? M : N;
    g3_matrix a = { A, offA, lda, ka, ka }, b = { B, offB, ldb, M, N }, c = { C, offC, ldc, M, N };
    const g3_matrix *mats[3] = { &a, &b, &c };
    gpublas3Status st = g3_check_call(order, g3_valid_side(side) && g3_valid_uplo(uplo), dbl ? 8 : 4,
                                      numCommandQueues, commandQueues, numEventsInWaitList, eventWaitList, mats);
    if (st != gpublas3Success)
        return st;
    int row = order == gpublas3RowMajor;
    int left = (side == gpublas3Left) != row, upper = (uplo == gpublas3Upper) != row;
    g3_operand sa = { A, offA, lda, 0, upper ? G3_SYM_UPPER : G3_SYM_LOWER, 0 };
    g3_operand gb = { B, offB, ldb, 0, G3_GENERAL, 0 };
    g3_call p = { .dbl = dbl, .M = row ? N : M, .N = row ? M : N, .alpha = alpha, .beta = beta,
                       .nterms = 1, .a = { left ? sa : gb }, .b = { left ? gb : sa },
                       .c = C, .offc = offC, .ldc = ldc };
    p.K = left ? p.M : p.N;
    return g3_run(&p, numCommandQueues, commandQueues, numEventsInWaitList, eventWaitList, events);
}

gpublas3Status gpublas3Ssymm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo, size_t M, size_t N,
    cl_float alpha, const cl_mem A, size_t offA, size_t lda, const cl_mem B, size_t offB, size_t ldb,
    cl_float beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    return symm(0, order, side, uplo, M, N, alpha, A, offA, lda, B, offB, ldb, beta, C, offC, ldc, G3_QUEUE_PASS);
}

gpublas3Status gpublas3Dsymm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo, size_t M, size_t N,
    cl_double alpha, const cl_mem A, size_t offA, size_t lda, const cl_mem B, size_t offB, size_t ldb,
    cl_double beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    return symm(1, order, side, uplo, M, N, alpha, A, offA, lda, B, offB, ldb, beta, C, offC, ldc, G3_QUEUE_PASS);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* SYMM: C <- alpha*A*B + beta*C (side Left) or alpha*B*A + beta*C (side
 * Right), A symmetric with only its `uplo` triangle read; HEMM the same
 * with A Hermitian (the imaginary part of its diagonal never read).  The
 * copy kernel mirrors the stored triangle while packing (conjugated for
 * HEMM), then it is GEMM.
 * Row-major: C^T = B^T*A^T, and the column-major view of A is A^T, itself
 * symmetric (Hermitian), so the side flips, the stored triangle of A seen
 * column-major flips, and M and N swap. */
#include "routines.h"

gpublas3Status g3_symm(g3_reuse *reuse, int type, int herm, gpublas3Order order, gpublas3Side side,
    gpublas3Uplo uplo, size_t M, size_t N, g3_scalar alpha, cl_mem A, size_t offA, size_t lda,
    cl_mem B, size_t offB, size_t ldb, g3_scalar beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    size_t ka = side == gpublas3Left ? M : N;
    g3_matrix a = { A, offA, lda, ka, ka }, b = { B, offB, ldb, M, N }, c = { C, offC, ldc, M, N };
    g3_args args = { herm ? "hemm" : "symm", g3_type_letter(type), g3_type_size(type), order,
                     { { "side", side, g3_valid_side(side) }, { "uplo", uplo, g3_valid_uplo(uplo) } },
                     { { "M", M }, { "N", N } }, { &a, &b, &c } };
    gpublas3Status st = g3_check_call(&args, numCommandQueues, commandQueues, numEventsInWaitList, eventWaitList);
    if (st != gpublas3Success)
        return st;
    int row = order == gpublas3RowMajor;
    int left = (side == gpublas3Left) != row, upper = (uplo == gpublas3Upper) != row;
    int shape = herm ? (upper ? G3_HERM_UPPER : G3_HERM_LOWER) : upper ? G3_SYM_UPPER : G3_SYM_LOWER;
    g3_operand sa = { .buf = A, .off = offA, .ld = lda, .shape = shape };
    g3_operand gb = { .buf = B, .off = offB, .ld = ldb };
    g3_call p = { .dbl = type & 1, .cplx = type >> 1, .M = row ? N : M, .N = row ? M : N,
                  .alpha = alpha.re, .alpha_im = alpha.im, .beta = beta.re, .beta_im = beta.im,
                  .nterms = 1, .a = { left ? sa : gb }, .b = { left ? gb : sa },
                  .c = C, .offc = offC, .ldc = ldc };
    p.K = left ? p.M : p.N;
    p.reuse = reuse;
    return g3_run(&p, G3_QUEUE_PASS);
}

gpublas3Status gpublas3Ssymm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo, size_t M, size_t N,
    cl_float alpha, const cl_mem A, size_t offA, size_t lda, const cl_mem B, size_t offB, size_t ldb,
    cl_float beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    return g3_symm(NULL, G3_S, 0, order, side, uplo, M, N, g3_real(alpha), A, offA, lda, B, offB, ldb, g3_real(beta),
                C, offC, ldc, G3_QUEUE_PASS);
}

gpublas3Status gpublas3Dsymm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo, size_t M, size_t N,
    cl_double alpha, const cl_mem A, size_t offA, size_t lda, const cl_mem B, size_t offB, size_t ldb,
    cl_double beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    return g3_symm(NULL, G3_D, 0, order, side, uplo, M, N, g3_real(alpha), A, offA, lda, B, offB, ldb, g3_real(beta),
                C, offC, ldc, G3_QUEUE_PASS);
}

gpublas3Status gpublas3Csymm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo, size_t M, size_t N,
    cl_float2 alpha, const cl_mem A, size_t offA, size_t lda, const cl_mem B, size_t offB, size_t ldb,
    cl_float2 beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    return g3_symm(NULL, G3_C, 0, order, side, uplo, M, N, g3_cfloat(alpha), A, offA, lda, B, offB, ldb,
                g3_cfloat(beta), C, offC, ldc, G3_QUEUE_PASS);
}

gpublas3Status gpublas3Zsymm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo, size_t M, size_t N,
    cl_double2 alpha, const cl_mem A, size_t offA, size_t lda, const cl_mem B, size_t offB, size_t ldb,
    cl_double2 beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    return g3_symm(NULL, G3_Z, 0, order, side, uplo, M, N, g3_cdouble(alpha), A, offA, lda, B, offB, ldb,
                g3_cdouble(beta), C, offC, ldc, G3_QUEUE_PASS);
}

gpublas3Status gpublas3Chemm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo, size_t M, size_t N,
    cl_float2 alpha, const cl_mem A, size_t offA, size_t lda, const cl_mem B, size_t offB, size_t ldb,
    cl_float2 beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    return g3_symm(NULL, G3_C, 1, order, side, uplo, M, N, g3_cfloat(alpha), A, offA, lda, B, offB, ldb,
                g3_cfloat(beta), C, offC, ldc, G3_QUEUE_PASS);
}

gpublas3Status gpublas3Zhemm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo, size_t M, size_t N,
    cl_double2 alpha, const cl_mem A, size_t offA, size_t lda, const cl_mem B, size_t offB, size_t ldb,
    cl_double2 beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    return g3_symm(NULL, G3_Z, 1, order, side, uplo, M, N, g3_cdouble(alpha), A, offA, lda, B, offB, ldb,
                g3_cdouble(beta), C, offC, ldc, G3_QUEUE_PASS);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* SYRK: C <- alpha*op(A)*op(A)^T + beta*C on the `uplo` triangle of C;
 * HERK: C <- alpha*op(A)*op(A)^H + beta*C with real alpha and beta, the
 * imaginary parts of C's diagonal taken as 0 and written as 0.
 * GEMM with both operands packed from A (once, for real types: the driver
 * sees that they are the same data); the launch skips blocks wholly in the
 * other triangle and the store writes only the stored one.
 * Valid trans: any for real SYRK (C acts as T), N or T for complex SYRK,
 * N or C for HERK (reference BLAS).
 * Row-major: the column-major view of C is C^T (the other triangle) and of A
 * is A^T, so uplo and trans both flip (HERK: C = A*A^H gives C^T = V^H*V
 * with V = A^T, trans C on the view). */
#include "plan.h"

static gpublas3Status syrk(int type, int herm, gpublas3Order order, gpublas3Uplo uplo, gpublas3Transpose trans,
    size_t N, size_t K, g3_scalar alpha, cl_mem A, size_t offA, size_t lda, g3_scalar beta,
    cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    int t = trans != gpublas3NoTrans;
    g3_matrix a = { A, offA, lda, t ? K : N, t ? N : K }, c = { C, offC, ldc, N, N };
    g3_args args = { herm ? "herk" : "syrk", g3_type_letter(type), g3_type_size(type), order,
                     { { "uplo", uplo, g3_valid_uplo(uplo) }, { "transA", trans, g3_valid_rank_trans(type, herm, trans) } },
                     { { "N", N }, { "K", K } }, { &a, NULL, &c } };
    gpublas3Status st = g3_check_call(&args, numCommandQueues, commandQueues, numEventsInWaitList, eventWaitList);
    if (st != gpublas3Success)
        return st;
    int row = order == gpublas3RowMajor;
    int tr = t != row, upper = (uplo == gpublas3Upper) != row;
    g3_call p = { .dbl = type & 1, .cplx = herm ? G3_HERMITIAN : type >> 1, .M = N, .N = N, .K = K,
                  .alpha = alpha.re, .alpha_im = alpha.im, .beta = beta.re, .beta_im = beta.im, .nterms = 1,
                  .a = { { A, offA, lda, tr, G3_GENERAL, 0, .conj = herm && tr } },
                  .b = { { A, offA, lda, !tr, G3_GENERAL, 0, .conj = herm && !tr } },
                  .c = C, .offc = offC, .ldc = ldc, .tri = upper ? 1 : 2 };
    return g3_run(&p, G3_QUEUE_PASS);
}

gpublas3Status gpublas3Ssyrk(gpublas3Order order, gpublas3Uplo uplo, gpublas3Transpose transA, size_t N,
    size_t K, cl_float alpha, const cl_mem A, size_t offA, size_t lda, cl_float beta, cl_mem C,
    size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    return syrk(G3_S, 0, order, uplo, transA, N, K, g3_real(alpha), A, offA, lda, g3_real(beta), C, offC, ldc,
                G3_QUEUE_PASS);
}

gpublas3Status gpublas3Dsyrk(gpublas3Order order, gpublas3Uplo uplo, gpublas3Transpose transA, size_t N,
    size_t K, cl_double alpha, const cl_mem A, size_t offA, size_t lda, cl_double beta, cl_mem C,
    size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    return syrk(G3_D, 0, order, uplo, transA, N, K, g3_real(alpha), A, offA, lda, g3_real(beta), C, offC, ldc,
                G3_QUEUE_PASS);
}

gpublas3Status gpublas3Csyrk(gpublas3Order order, gpublas3Uplo uplo, gpublas3Transpose transA, size_t N,
    size_t K, cl_float2 alpha, const cl_mem A, size_t offA, size_t lda, cl_float2 beta, cl_mem C,
    size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    return syrk(G3_C, 0, order, uplo, transA, N, K, g3_cfloat(alpha), A, offA, lda, g3_cfloat(beta), C, offC,
                ldc, G3_QUEUE_PASS);
}

gpublas3Status gpublas3Zsyrk(gpublas3Order order, gpublas3Uplo uplo, gpublas3Transpose transA, size_t N,
    size_t K, cl_double2 alpha, const cl_mem A, size_t offA, size_t lda, cl_double2 beta, cl_mem C,
    size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    return syrk(G3_Z, 0, order, uplo, transA, N, K, g3_cdouble(alpha), A, offA, lda, g3_cdouble(beta), C,
                offC, ldc, G3_QUEUE_PASS);
}

gpublas3Status gpublas3Cherk(gpublas3Order order, gpublas3Uplo uplo, gpublas3Transpose transA, size_t N,
    size_t K, cl_float alpha, const cl_mem A, size_t offA, size_t lda, cl_float beta, cl_mem C,
    size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    return syrk(G3_C, 1, order, uplo, transA, N, K, g3_real(alpha), A, offA, lda, g3_real(beta), C, offC, ldc,
                G3_QUEUE_PASS);
}

gpublas3Status gpublas3Zherk(gpublas3Order order, gpublas3Uplo uplo, gpublas3Transpose transA, size_t N,
    size_t K, cl_double alpha, const cl_mem A, size_t offA, size_t lda, cl_double beta, cl_mem C,
    size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    return syrk(G3_Z, 1, order, uplo, transA, N, K, g3_real(alpha), A, offA, lda, g3_real(beta), C, offC, ldc,
                G3_QUEUE_PASS);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* SYR2K: C <- alpha*op(A)*op(B)^T + alpha*op(B)*op(A)^T + beta*C on the
 * `uplo` triangle; HER2K: C <- alpha*op(A)*op(B)^H + conj(alpha)*op(B)*op(A)^H
 * + beta*C with real beta, the imaginary parts of C's diagonal taken as 0
 * and written as 0.  SYRK's launch with two terms: the driver packs op(A)
 * and op(B) once each (real types) and runs two GEMM launches chained by
 * events, the second accumulating with beta = 1.  Row-major flips uplo and
 * trans, as SYRK; for HER2K it also swaps the roles of alpha and conj(alpha)
 * (C^T = alpha*V_B^H*V_A + conj(alpha)*V_A^H*V_B on the views V = A^T, B^T),
 * so the column-major call takes conj(alpha). */
#include "plan.h"

static gpublas3Status syr2k(int type, int herm, gpublas3Order order, gpublas3Uplo uplo,
    gpublas3Transpose trans, size_t N, size_t K, g3_scalar alpha, cl_mem A, size_t offA, size_t lda,
    cl_mem B, size_t offB, size_t ldb, g3_scalar beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    int t = trans != gpublas3NoTrans;
    g3_matrix a = { A, offA, lda, t ? K : N, t ? N : K }, b = { B, offB, ldb, t ? K : N, t ? N : K };
    g3_matrix c = { C, offC, ldc, N, N };
    g3_args args = { herm ? "her2k" : "syr2k", g3_type_letter(type), g3_type_size(type), order,
                     { { "uplo", uplo, g3_valid_uplo(uplo) }, { "transAB", trans, g3_valid_rank_trans(type, herm, trans) } },
                     { { "N", N }, { "K", K } }, { &a, &b, &c } };
    gpublas3Status st = g3_check_call(&args, numCommandQueues, commandQueues, numEventsInWaitList, eventWaitList);
    if (st != gpublas3Success)
        return st;
    int row = order == gpublas3RowMajor;
    int tr = t != row, upper = (uplo == gpublas3Upper) != row;
    g3_operand opa = { A, offA, lda, tr, G3_GENERAL, 0, .conj = herm && tr };
    g3_operand opb = { B, offB, ldb, tr, G3_GENERAL, 0, .conj = herm && tr };
    g3_operand opat = { A, offA, lda, !tr, G3_GENERAL, 0, .conj = herm && !tr };
    g3_operand opbt = { B, offB, ldb, !tr, G3_GENERAL, 0, .conj = herm && !tr };
    g3_call p = { .dbl = type & 1, .cplx = herm ? G3_HERMITIAN : type >> 1, .M = N, .N = N, .K = K,
                  .alpha = alpha.re, .alpha_im = herm && row ? -alpha.im : alpha.im, .alpha_conj2 = herm,
                  .beta = beta.re, .beta_im = beta.im, .nterms = 2, .a = { opa, opb }, .b = { opbt, opat },
                  .c = C, .offc = offC, .ldc = ldc, .tri = upper ? 1 : 2 };
    return g3_run(&p, G3_QUEUE_PASS);
}

gpublas3Status gpublas3Ssyr2k(gpublas3Order order, gpublas3Uplo uplo, gpublas3Transpose transAB, size_t N,
    size_t K, cl_float alpha, const cl_mem A, size_t offA, size_t lda, const cl_mem B, size_t offB,
    size_t ldb, cl_float beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    return syr2k(G3_S, 0, order, uplo, transAB, N, K, g3_real(alpha), A, offA, lda, B, offB, ldb, g3_real(beta),
                 C, offC, ldc, G3_QUEUE_PASS);
}

gpublas3Status gpublas3Dsyr2k(gpublas3Order order, gpublas3Uplo uplo, gpublas3Transpose transAB, size_t N,
    size_t K, cl_double alpha, const cl_mem A, size_t offA, size_t lda, const cl_mem B, size_t offB,
    size_t ldb, cl_double beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    return syr2k(G3_D, 0, order, uplo, transAB, N, K, g3_real(alpha), A, offA, lda, B, offB, ldb, g3_real(beta),
                 C, offC, ldc, G3_QUEUE_PASS);
}

gpublas3Status gpublas3Csyr2k(gpublas3Order order, gpublas3Uplo uplo, gpublas3Transpose transAB, size_t N,
    size_t K, cl_float2 alpha, const cl_mem A, size_t offA, size_t lda, const cl_mem B, size_t offB,
    size_t ldb, cl_float2 beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    return syr2k(G3_C, 0, order, uplo, transAB, N, K, g3_cfloat(alpha), A, offA, lda, B, offB, ldb,
                 g3_cfloat(beta), C, offC, ldc, G3_QUEUE_PASS);
}

gpublas3Status gpublas3Zsyr2k(gpublas3Order order, gpublas3Uplo uplo, gpublas3Transpose transAB, size_t N,
    size_t K, cl_double2 alpha, const cl_mem A, size_t offA, size_t lda, const cl_mem B, size_t offB,
    size_t ldb, cl_double2 beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    return syr2k(G3_Z, 0, order, uplo, transAB, N, K, g3_cdouble(alpha), A, offA, lda, B, offB, ldb,
                 g3_cdouble(beta), C, offC, ldc, G3_QUEUE_PASS);
}

gpublas3Status gpublas3Cher2k(gpublas3Order order, gpublas3Uplo uplo, gpublas3Transpose transAB, size_t N,
    size_t K, cl_float2 alpha, const cl_mem A, size_t offA, size_t lda, const cl_mem B, size_t offB,
    size_t ldb, cl_float beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    return syr2k(G3_C, 1, order, uplo, transAB, N, K, g3_cfloat(alpha), A, offA, lda, B, offB, ldb,
                 g3_real(beta), C, offC, ldc, G3_QUEUE_PASS);
}

gpublas3Status gpublas3Zher2k(gpublas3Order order, gpublas3Uplo uplo, gpublas3Transpose transAB, size_t N,
    size_t K, cl_double2 alpha, const cl_mem A, size_t offA, size_t lda, const cl_mem B, size_t offB,
    size_t ldb, cl_double beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    return syr2k(G3_Z, 1, order, uplo, transAB, N, K, g3_cdouble(alpha), A, offA, lda, B, offB, ldb,
                 g3_real(beta), C, offC, ldc, G3_QUEUE_PASS);
}

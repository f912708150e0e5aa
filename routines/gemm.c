/* SPDX-License-Identifier: BSD-3-Clause */
/* GEMM: C <- alpha*op(A)*op(B) + beta*C, in the four types (complex:
 * op is a transpose or a conjugate transpose).
 * A row-major call is the column-major call on the transposes,
 * C^T = op(B)^T * op(A)^T: A and B swap places, M and N swap, and the
 * transpose (and conjugation) flags stay as they are. */
#include "routines.h"

g3_call g3_gemm_call(int type, gpublas3Order order, gpublas3Transpose transA, gpublas3Transpose transB,
    size_t M, size_t N, size_t K, g3_scalar alpha, cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB,
    size_t ldb, g3_scalar beta, cl_mem C, size_t offC, size_t ldc)
{
    int cplx = type >> 1, ta = transA != gpublas3NoTrans, tb = transB != gpublas3NoTrans;
    g3_operand opa = { A, offA, lda, ta, G3_GENERAL, 0, .conj = cplx && transA == gpublas3ConjTrans };
    g3_operand opb = { B, offB, ldb, tb, G3_GENERAL, 0, .conj = cplx && transB == gpublas3ConjTrans };
    int row = order == gpublas3RowMajor;
    return (g3_call){ .dbl = type & 1, .cplx = cplx, .M = row ? N : M, .N = row ? M : N, .K = K,
                      .alpha = alpha.re, .alpha_im = alpha.im, .beta = beta.re, .beta_im = beta.im,
                      .nterms = 1, .a = { row ? opb : opa }, .b = { row ? opa : opb },
                      .c = C, .offc = offC, .ldc = ldc };
}

gpublas3Status g3_gemm(g3_reuse *reuse, int type, gpublas3Order order, gpublas3Transpose transA,
    gpublas3Transpose transB, size_t M, size_t N, size_t K, g3_scalar alpha,
    cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb,
    g3_scalar beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS)
{
    int ta = transA != gpublas3NoTrans, tb = transB != gpublas3NoTrans;
    g3_matrix a = { A, offA, lda, ta ? K : M, ta ? M : K };
    g3_matrix b = { B, offB, ldb, tb ? N : K, tb ? K : N };
    g3_matrix c = { C, offC, ldc, M, N };
    g3_args args = { "gemm", g3_type_letter(type), g3_type_size(type), order,
                     { { "transA", transA, g3_valid_trans(transA) }, { "transB", transB, g3_valid_trans(transB) } },
                     { { "M", M }, { "N", N }, { "K", K } }, { &a, &b, &c } };
    gpublas3Status st = g3_check_call(&args, numCommandQueues, commandQueues, numEventsInWaitList, eventWaitList);
    if (st != gpublas3Success)
        return st;
    g3_call p = g3_gemm_call(type, order, transA, transB, M, N, K, alpha, A, offA, lda, B, offB, ldb, beta, C,
                             offC, ldc);
    p.reuse = reuse;
    return g3_run(&p, G3_QUEUE_PASS);
}

gpublas3Status gpublas3Sgemm(gpublas3Order order, gpublas3Transpose transA, gpublas3Transpose transB,
    size_t M, size_t N, size_t K, cl_float alpha, const cl_mem A, size_t offA, size_t lda,
    const cl_mem B, size_t offB, size_t ldb, cl_float beta, cl_mem C, size_t offC, size_t ldc,
    GPUBLAS3_QUEUE_ARGS)
{
    return g3_gemm(NULL, G3_S, order, transA, transB, M, N, K, g3_real(alpha), A, offA, lda, B, offB, ldb,
                   g3_real(beta), C, offC, ldc, G3_QUEUE_PASS);
}

gpublas3Status gpublas3Dgemm(gpublas3Order order, gpublas3Transpose transA, gpublas3Transpose transB,
    size_t M, size_t N, size_t K, cl_double alpha, const cl_mem A, size_t offA, size_t lda,
    const cl_mem B, size_t offB, size_t ldb, cl_double beta, cl_mem C, size_t offC, size_t ldc,
    GPUBLAS3_QUEUE_ARGS)
{
    return g3_gemm(NULL, G3_D, order, transA, transB, M, N, K, g3_real(alpha), A, offA, lda, B, offB, ldb,
                   g3_real(beta), C, offC, ldc, G3_QUEUE_PASS);
}

gpublas3Status gpublas3Cgemm(gpublas3Order order, gpublas3Transpose transA, gpublas3Transpose transB,
    size_t M, size_t N, size_t K, cl_float2 alpha, const cl_mem A, size_t offA, size_t lda,
    const cl_mem B, size_t offB, size_t ldb, cl_float2 beta, cl_mem C, size_t offC, size_t ldc,
    GPUBLAS3_QUEUE_ARGS)
{
    return g3_gemm(NULL, G3_C, order, transA, transB, M, N, K, g3_cfloat(alpha), A, offA, lda, B, offB, ldb,
                g3_cfloat(beta), C, offC, ldc, G3_QUEUE_PASS);
}

gpublas3Status gpublas3Zgemm(gpublas3Order order, gpublas3Transpose transA, gpublas3Transpose transB,
    size_t M, size_t N, size_t K, cl_double2 alpha, const cl_mem A, size_t offA, size_t lda,
    const cl_mem B, size_t offB, size_t ldb, cl_double2 beta, cl_mem C, size_t offC, size_t ldc,
    GPUBLAS3_QUEUE_ARGS)
{
    return g3_gemm(NULL, G3_Z, order, transA, transB, M, N, K, g3_cdouble(alpha), A, offA, lda, B, offB, ldb,
                g3_cdouble(beta), C, offC, ldc, G3_QUEUE_PASS);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Batched GEMM, in the four types and two forms (DESIGN.md, Batched GEMM):
 * C_b <- alpha*op(A_b)*op(B_b) + beta*C_b for b in [0, batchCount), X_b
 * at offX + b*strideX (strided) or at offsX[b] with alphas[b] and betas[b]
 * (offset arrays, host arrays read before the call returns).  The checks
 * are GEMM's on the products that reach furthest into each buffer, then
 * the batch's own: NULL arrays, and outputs that overlap (each C_b's
 * stored extent is ldc*N column-major, ldc*M row-major; found by sorting
 * the offsets).  A row-major batch is the column-major batch of the
 * transposes, as in gemm.c.  routines/plan/batched.c runs it. */
#include <stdint.h>
#include <stdlib.h>
#include "routines.h"

/* a dimension no buffer could hold: a negative int passed as size_t */
static int bad_dim(size_t x) { return x > SIZE_MAX / 2; }

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* off + (n - 1) * stride, clamped far beyond any buffer where it overflows */
static size_t last_offset(size_t off, size_t stride, size_t n)
{
    size_t far = SIZE_MAX / 4;
    if (n <= 1)
        return off;
    if (stride && n - 1 > (far - (off < far ? off : far)) / stride)
        return far;
    return off + (n - 1) * stride;
}

static size_t max_of(const size_t *x, size_t n)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        m = x[i] > m ? x[i] : m;
    return m;
}

/* Strided (offs NULL: off, stride, alpha, beta) or offset arrays (offs,
 * alphas, betas). */
static gpublas3Status batched(int type, gpublas3Order order, gpublas3Transpose transA, gpublas3Transpose transB,
    size_t M, size_t N, size_t K, g3_scalar alpha, const g3_scalar *alphas, cl_mem A, cl_mem B, g3_scalar beta,
    const g3_scalar *betas, cl_mem C, const size_t off[3], const size_t stride[3], const size_t *const offs[3],
    size_t lda, size_t ldb, size_t ldc, size_t count, GPUBLAS3_QUEUE_ARGS)
{
    /* the products reaching furthest into each buffer (batchCount 0: the
     * first, whose leading dimensions are checked all the same) */
    int arrays = !offs || count == 0 || (offs[0] && offs[1] && offs[2] && alphas && betas);
    size_t far[3];
    for (int i = 0; i < 3; i++)
        far[i] = offs ? (count && arrays && !bad_dim(count) ? max_of(offs[i], count) : 0) : last_offset(off[i], stride[i], count);
    int ta = transA != gpublas3NoTrans, tb = transB != gpublas3NoTrans;
    g3_matrix a = { A, far[0], lda, ta ? K : M, ta ? M : K };
    g3_matrix b = { B, far[1], ldb, tb ? N : K, tb ? K : N };
    g3_matrix c = { C, far[2], ldc, M, N };
    g3_args args = { offs ? "gemmBatched" : "gemmStridedBatched", g3_type_letter(type), g3_type_size(type), order,
                     { { "transA", transA, g3_valid_trans(transA) }, { "transB", transB, g3_valid_trans(transB) } },
                     { { "M", M }, { "N", N }, { "K", K } }, { &a, &b, &c } };
    if (!g3_initialized())
        return gpublas3NotInitialized;
    if (bad_dim(count))
        return g3_refuse(&args, gpublas3InvalidDim, "batchCount = %zu", count);
    if (!arrays)
        return g3_refuse(&args, gpublas3InvalidValue, "a NULL offset, alpha or beta array with batchCount = %zu", count);
    gpublas3Status st = g3_check_call(&args, numCommandQueues, commandQueues, numEventsInWaitList, eventWaitList);
    if (st != gpublas3Success)
        return st;
    int row = order == gpublas3RowMajor;
    if (count > 1 && M && N) {
        /* every C_b's extent is ldc * its outer dimension */
        size_t outer = row ? M : N;
        size_t ext = outer > SIZE_MAX / ldc ? SIZE_MAX : ldc * outer;
        if (!offs && stride[2] < ext)
            return g3_refuse(&args, gpublas3InvalidValue, "strideC = %zu, below one output's extent %zu", stride[2], ext);
        if (offs) {
            size_t *sorted = malloc(count * sizeof *sorted);
            if (!sorted)
                return gpublas3OutOfHostMemory;
            for (size_t i = 0; i < count; i++)
                sorted[i] = offs[2][i];
            qsort(sorted, count, sizeof *sorted, cmp_size);
            int overlap = 0;
            for (size_t i = 1; i < count && !overlap; i++)
                overlap = sorted[i] - sorted[i - 1] < ext;
            free(sorted);
            if (overlap)
                return g3_refuse(&args, gpublas3InvalidValue, "offsC: two outputs overlap");
        }
    }
    g3_batch bt = { .one = g3_gemm_call(type, order, transA, transB, M, N, K, alpha, A, off[0], lda, B, off[1], ldb,
                                        beta, C, off[2], ldc),
                    .count = count, .stride = { stride[row], stride[!row], stride[2] },
                    .alphas = alphas, .betas = betas };
    if (offs) {
        bt.offs[0] = offs[row];
        bt.offs[1] = offs[!row];
        bt.offs[2] = offs[2];
    }
    return g3_batch_run(&bt, G3_QUEUE_PASS);
}

static gpublas3Status strided(int type, gpublas3Order order, gpublas3Transpose transA, gpublas3Transpose transB,
    size_t M, size_t N, size_t K, g3_scalar alpha, cl_mem A, size_t offA, size_t lda, size_t strideA,
    cl_mem B, size_t offB, size_t ldb, size_t strideB, g3_scalar beta, cl_mem C, size_t offC, size_t ldc,
    size_t strideC, size_t batchCount, GPUBLAS3_QUEUE_ARGS)
{
    const size_t off[3] = { offA, offB, offC }, stride[3] = { strideA, strideB, strideC };
    return batched(type, order, transA, transB, M, N, K, alpha, NULL, A, B, beta, NULL, C, off, stride, NULL,
                   lda, ldb, ldc, batchCount, G3_QUEUE_PASS);
}

/* The offset-array form with the scalars as g3_scalar (host copies). */
static gpublas3Status arrays(int type, gpublas3Order order, gpublas3Transpose transA, gpublas3Transpose transB,
    size_t M, size_t N, size_t K, const void *alphas, cl_mem A, const size_t *offsA, size_t lda,
    cl_mem B, const size_t *offsB, size_t ldb, const void *betas, cl_mem C, const size_t *offsC, size_t ldc,
    size_t count, GPUBLAS3_QUEUE_ARGS)
{
    const size_t zero[3] = { 0, 0, 0 };
    const size_t *const offs[3] = { offsA, offsB, offsC };
    g3_scalar *al = NULL, *be = NULL;
    if (alphas && betas && count > 0 && count <= SIZE_MAX / 2 / sizeof *al) {
        al = malloc(count * sizeof *al);
        be = malloc(count * sizeof *be);
        if (!al || !be) {
            free(al);
            free(be);
            return gpublas3OutOfHostMemory;
        }
        for (size_t i = 0; i < count; i++) {
            switch (type) {
            case G3_S: al[i] = g3_real(((const cl_float *)alphas)[i]); be[i] = g3_real(((const cl_float *)betas)[i]); break;
            case G3_D: al[i] = g3_real(((const cl_double *)alphas)[i]); be[i] = g3_real(((const cl_double *)betas)[i]); break;
            case G3_C: al[i] = g3_cfloat(((const cl_float2 *)alphas)[i]); be[i] = g3_cfloat(((const cl_float2 *)betas)[i]); break;
            default: al[i] = g3_cdouble(((const cl_double2 *)alphas)[i]); be[i] = g3_cdouble(((const cl_double2 *)betas)[i]);
            }
        }
    }
    gpublas3Status st = batched(type, order, transA, transB, M, N, K, g3_real(0), al, A, B, g3_real(0), be, C, zero,
                                zero, offs, lda, ldb, ldc, count, G3_QUEUE_PASS);
    free(al);
    free(be);
    return st;
}

gpublas3Status gpublas3SgemmStridedBatched(gpublas3Order order, gpublas3Transpose transA,
    gpublas3Transpose transB, size_t M, size_t N, size_t K, cl_float alpha, const cl_mem A, size_t offA, size_t lda,
    size_t strideA, const cl_mem B, size_t offB, size_t ldb, size_t strideB, cl_float beta, cl_mem C, size_t offC,
    size_t ldc, size_t strideC, size_t batchCount, GPUBLAS3_QUEUE_ARGS)
{
    return strided(G3_S, order, transA, transB, M, N, K, g3_real(alpha), A, offA, lda, strideA, B, offB, ldb, strideB,
                   g3_real(beta), C, offC, ldc, strideC, batchCount, G3_QUEUE_PASS);
}

gpublas3Status gpublas3DgemmStridedBatched(gpublas3Order order, gpublas3Transpose transA,
    gpublas3Transpose transB, size_t M, size_t N, size_t K, cl_double alpha, const cl_mem A, size_t offA, size_t lda,
    size_t strideA, const cl_mem B, size_t offB, size_t ldb, size_t strideB, cl_double beta, cl_mem C, size_t offC,
    size_t ldc, size_t strideC, size_t batchCount, GPUBLAS3_QUEUE_ARGS)
{
    return strided(G3_D, order, transA, transB, M, N, K, g3_real(alpha), A, offA, lda, strideA, B, offB, ldb, strideB,
                   g3_real(beta), C, offC, ldc, strideC, batchCount, G3_QUEUE_PASS);
}

gpublas3Status gpublas3CgemmStridedBatched(gpublas3Order order, gpublas3Transpose transA,
    gpublas3Transpose transB, size_t M, size_t N, size_t K, cl_float2 alpha, const cl_mem A, size_t offA, size_t lda,
    size_t strideA, const cl_mem B, size_t offB, size_t ldb, size_t strideB, cl_float2 beta, cl_mem C, size_t offC,
    size_t ldc, size_t strideC, size_t batchCount, GPUBLAS3_QUEUE_ARGS)
{
    return strided(G3_C, order, transA, transB, M, N, K, g3_cfloat(alpha), A, offA, lda, strideA, B, offB, ldb, strideB,
                   g3_cfloat(beta), C, offC, ldc, strideC, batchCount, G3_QUEUE_PASS);
}

gpublas3Status gpublas3ZgemmStridedBatched(gpublas3Order order, gpublas3Transpose transA,
    gpublas3Transpose transB, size_t M, size_t N, size_t K, cl_double2 alpha, const cl_mem A, size_t offA, size_t lda,
    size_t strideA, const cl_mem B, size_t offB, size_t ldb, size_t strideB, cl_double2 beta, cl_mem C, size_t offC,
    size_t ldc, size_t strideC, size_t batchCount, GPUBLAS3_QUEUE_ARGS)
{
    return strided(G3_Z, order, transA, transB, M, N, K, g3_cdouble(alpha), A, offA, lda, strideA, B, offB, ldb, strideB,
                   g3_cdouble(beta), C, offC, ldc, strideC, batchCount, G3_QUEUE_PASS);
}

gpublas3Status gpublas3SgemmBatched(gpublas3Order order, gpublas3Transpose transA, gpublas3Transpose transB,
    size_t M, size_t N, size_t K, const cl_float *alphas, const cl_mem A, const size_t *offsA, size_t lda,
    const cl_mem B, const size_t *offsB, size_t ldb, const cl_float *betas, cl_mem C, const size_t *offsC,
    size_t ldc, size_t batchCount, GPUBLAS3_QUEUE_ARGS)
{
    return arrays(G3_S, order, transA, transB, M, N, K, alphas, A, offsA, lda, B, offsB, ldb, betas, C, offsC, ldc,
                  batchCount, G3_QUEUE_PASS);
}

gpublas3Status gpublas3DgemmBatched(gpublas3Order order, gpublas3Transpose transA, gpublas3Transpose transB,
    size_t M, size_t N, size_t K, const cl_double *alphas, const cl_mem A, const size_t *offsA, size_t lda,
    const cl_mem B, const size_t *offsB, size_t ldb, const cl_double *betas, cl_mem C, const size_t *offsC,
    size_t ldc, size_t batchCount, GPUBLAS3_QUEUE_ARGS)
{
    return arrays(G3_D, order, transA, transB, M, N, K, alphas, A, offsA, lda, B, offsB, ldb, betas, C, offsC, ldc,
                  batchCount, G3_QUEUE_PASS);
}

gpublas3Status gpublas3CgemmBatched(gpublas3Order order, gpublas3Transpose transA, gpublas3Transpose transB,
    size_t M, size_t N, size_t K, const cl_float2 *alphas, const cl_mem A, const size_t *offsA, size_t lda,
    const cl_mem B, const size_t *offsB, size_t ldb, const cl_float2 *betas, cl_mem C, const size_t *offsC,
    size_t ldc, size_t batchCount, GPUBLAS3_QUEUE_ARGS)
{
    return arrays(G3_C, order, transA, transB, M, N, K, alphas, A, offsA, lda, B, offsB, ldb, betas, C, offsC, ldc,
                  batchCount, G3_QUEUE_PASS);
}

gpublas3Status gpublas3ZgemmBatched(gpublas3Order order, gpublas3Transpose transA, gpublas3Transpose transB,
    size_t M, size_t N, size_t K, const cl_double2 *alphas, const cl_mem A, const size_t *offsA, size_t lda,
    const cl_mem B, const size_t *offsB, size_t ldb, const cl_double2 *betas, cl_mem C, const size_t *offsC,
    size_t ldc, size_t batchCount, GPUBLAS3_QUEUE_ARGS)
{
    return arrays(G3_Z, order, transA, transB, M, N, K, alphas, A, offsA, lda, B, offsB, ldb, betas, C, offsC, ldc,
                  batchCount, G3_QUEUE_PASS);
}

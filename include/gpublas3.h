/* SPDX-License-Identifier: BSD-3-Clause */
/* gpublas3 — Level-3 BLAS (GEMM, SYMM, SYRK, SYR2K, TRMM, TRSM in S, D, C, Z; HEMM, HERK, HER2K
 * in C, Z) on OpenCL devices, with clBLAS's argument lists.
 *
 * Every routine takes the caller's cl_mem buffers and command queue(s),
 * enqueues its work after eventWaitList, returns at once without waiting on
 * the device, and, when `events` is not NULL, stores in events[0] an event
 * that completes once the result is in the output matrix (with one queue).
 * Offsets and leading dimensions count elements.
 *
 * Several command queues (numCommandQueues > 1, all of the buffers'
 * context, possibly of different devices): every queue waits on the whole
 * wait list, `events` (when not NULL) has numCommandQueues entries and
 * events[i] is queue i's event, and the result is in the output matrix
 * when all of them have completed.  The call cuts the output into one
 * block of columns or rows per queue and each queue computes its block,
 * when the queues are all on one device or on devices that share the
 * host's memory (CPU devices, sub-devices, integrated GPUs).  When they
 * span devices with memory of their own (discrete GPUs), the call runs
 * whole on commandQueues[0] and the other queues' events complete after
 * the wait list: moving a buffer between GPUs costs more than one GPU's
 * whole call.  To use several discrete GPUs, give each its own context.
 *
 * A refused call returns a status naming the fault and enqueues nothing;
 * with the environment variable GPUBLAS3_VERBOSE=1 it also prints one
 * line on stderr naming the routine, the argument and its value. */
#ifndef GPUBLAS3_H
#define GPUBLAS3_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(GPUBLAS3_BUILDING)
#define GPUBLAS3_API __attribute__((visibility("default")))
#else
#define GPUBLAS3_API
#endif

/* Numeric values are clBLAS's, so clBLAS programs port by renaming. */
typedef enum gpublas3Order_ { gpublas3RowMajor = 0, gpublas3ColumnMajor = 1 } gpublas3Order;
typedef enum gpublas3Transpose_ {
    gpublas3NoTrans = 0, gpublas3Trans = 1, gpublas3ConjTrans = 2
} gpublas3Transpose;
typedef enum gpublas3Uplo_ { gpublas3Upper = 0, gpublas3Lower = 1 } gpublas3Uplo;
typedef enum gpublas3Diag_ { gpublas3Unit = 0, gpublas3NonUnit = 1 } gpublas3Diag;
typedef enum gpublas3Side_ { gpublas3Left = 0, gpublas3Right = 1 } gpublas3Side;

typedef enum gpublas3Status_ {
    gpublas3Success = CL_SUCCESS,
    gpublas3InvalidValue = CL_INVALID_VALUE,
    gpublas3InvalidCommandQueue = CL_INVALID_COMMAND_QUEUE,
    gpublas3InvalidContext = CL_INVALID_CONTEXT,
    gpublas3InvalidMemObject = CL_INVALID_MEM_OBJECT,
    gpublas3InvalidDevice = CL_INVALID_DEVICE,
    gpublas3InvalidEventWaitList = CL_INVALID_EVENT_WAIT_LIST,
    gpublas3OutOfResources = CL_OUT_OF_RESOURCES,
    gpublas3OutOfHostMemory = CL_OUT_OF_HOST_MEMORY,
    gpublas3InvalidOperation = CL_INVALID_OPERATION,
    gpublas3CompilerNotAvailable = CL_COMPILER_NOT_AVAILABLE,
    gpublas3BuildProgramFailure = CL_BUILD_PROGRAM_FAILURE,
    /* extended codes, as clBLAS numbers them */
    gpublas3NotImplemented = -1024,
    gpublas3NotInitialized,      /* -1023: called before gpublas3Setup */
    gpublas3InvalidMatA,         /* -1022: A is NULL or not a valid buffer (another context: InvalidContext) */
    gpublas3InvalidMatB,
    gpublas3InvalidMatC,
    gpublas3InvalidVecX,
    gpublas3InvalidVecY,
    gpublas3InvalidDim,          /* -1017: M, N or K no buffer could hold (over 2^62 bytes of elements),
                                  * e.g. a negative int passed as size_t */
    gpublas3InvalidLeadDimA,     /* -1016: lda smaller than A's stored rows */
    gpublas3InvalidLeadDimB,
    gpublas3InvalidLeadDimC,
    gpublas3InvalidIncX,
    gpublas3InvalidIncY,
    gpublas3InsufficientMemMatA, /* -1011: offA + extent exceeds A's CL_MEM_SIZE */
    gpublas3InsufficientMemMatB,
    gpublas3InsufficientMemMatC,
    gpublas3InsufficientMemVecX,
    gpublas3InsufficientMemVecY
} gpublas3Status;

#define GPUBLAS3_QUEUE_ARGS cl_uint numCommandQueues, cl_command_queue *commandQueues, \
    cl_uint numEventsInWaitList, const cl_event *eventWaitList, cl_event *events

/* Reference-counted and thread-safe: each Setup needs one Teardown. */
GPUBLAS3_API gpublas3Status gpublas3Setup(void);
GPUBLAS3_API void gpublas3Teardown(void);
/* Both work without Setup. */
GPUBLAS3_API gpublas3Status gpublas3GetVersion(cl_uint *major, cl_uint *minor, cl_uint *patch);
GPUBLAS3_API const char *gpublas3StatusString(gpublas3Status status);

/* C <- alpha*op(A)*op(B) + beta*C */
GPUBLAS3_API gpublas3Status gpublas3Sgemm(gpublas3Order order, gpublas3Transpose transA,
    gpublas3Transpose transB, size_t M, size_t N, size_t K, cl_float alpha,
    const cl_mem A, size_t offA, size_t lda, const cl_mem B, size_t offB, size_t ldb,
    cl_float beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS);
GPUBLAS3_API gpublas3Status gpublas3Dgemm(gpublas3Order order, gpublas3Transpose transA,
    gpublas3Transpose transB, size_t M, size_t N, size_t K, cl_double alpha,
    const cl_mem A, size_t offA, size_t lda, const cl_mem B, size_t offB, size_t ldb,
    cl_double beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS);

/* C <- alpha*A*B + beta*C (side Left) or alpha*B*A + beta*C (side Right),
 * A symmetric, only its `uplo` triangle read; C is M x N. */
GPUBLAS3_API gpublas3Status gpublas3Ssymm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
    size_t M, size_t N, cl_float alpha, const cl_mem A, size_t offA, size_t lda,
    const cl_mem B, size_t offB, size_t ldb, cl_float beta, cl_mem C, size_t offC, size_t ldc,
    GPUBLAS3_QUEUE_ARGS);
GPUBLAS3_API gpublas3Status gpublas3Dsymm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
    size_t M, size_t N, cl_double alpha, const cl_mem A, size_t offA, size_t lda,
    const cl_mem B, size_t offB, size_t ldb, cl_double beta, cl_mem C, size_t offC, size_t ldc,
    GPUBLAS3_QUEUE_ARGS);

/* C <- alpha*op(A)*op(A)^T + beta*C on the `uplo` triangle of the N x N C;
 * op(A) is N x K. */
GPUBLAS3_API gpublas3Status gpublas3Ssyrk(gpublas3Order order, gpublas3Uplo uplo,
    gpublas3Transpose transA, size_t N, size_t K, cl_float alpha, const cl_mem A, size_t offA,
    size_t lda, cl_float beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS);
GPUBLAS3_API gpublas3Status gpublas3Dsyrk(gpublas3Order order, gpublas3Uplo uplo,
    gpublas3Transpose transA, size_t N, size_t K, cl_double alpha, const cl_mem A, size_t offA,
    size_t lda, cl_double beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS);

/* C <- alpha*op(A)*op(B)^T + alpha*op(B)*op(A)^T + beta*C on one triangle. */
GPUBLAS3_API gpublas3Status gpublas3Ssyr2k(gpublas3Order order, gpublas3Uplo uplo,
    gpublas3Transpose transAB, size_t N, size_t K, cl_float alpha, const cl_mem A, size_t offA,
    size_t lda, const cl_mem B, size_t offB, size_t ldb, cl_float beta, cl_mem C, size_t offC,
    size_t ldc, GPUBLAS3_QUEUE_ARGS);
GPUBLAS3_API gpublas3Status gpublas3Dsyr2k(gpublas3Order order, gpublas3Uplo uplo,
    gpublas3Transpose transAB, size_t N, size_t K, cl_double alpha, const cl_mem A, size_t offA,
    size_t lda, const cl_mem B, size_t offB, size_t ldb, cl_double beta, cl_mem C, size_t offC,
    size_t ldc, GPUBLAS3_QUEUE_ARGS);

/* B <- alpha*op(A)*B (side Left) or alpha*B*op(A) (side Right), A triangular. */
GPUBLAS3_API gpublas3Status gpublas3Strmm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
    gpublas3Transpose transA, gpublas3Diag diag, size_t M, size_t N, cl_float alpha,
    const cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb,
    GPUBLAS3_QUEUE_ARGS);
GPUBLAS3_API gpublas3Status gpublas3Dtrmm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
    gpublas3Transpose transA, gpublas3Diag diag, size_t M, size_t N, cl_double alpha,
    const cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb,
    GPUBLAS3_QUEUE_ARGS);

/* B <- alpha*inv(op(A))*B (side Left) or alpha*B*inv(op(A)) (side Right), A
 * triangular: the solution X of op(A)*X = alpha*B or X*op(A) = alpha*B.  A
 * singular A gives infinities or NaN, as reference BLAS does. */
GPUBLAS3_API gpublas3Status gpublas3Strsm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
    gpublas3Transpose transA, gpublas3Diag diag, size_t M, size_t N, cl_float alpha,
    const cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb,
    GPUBLAS3_QUEUE_ARGS);
GPUBLAS3_API gpublas3Status gpublas3Dtrsm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
    gpublas3Transpose transA, gpublas3Diag diag, size_t M, size_t N, cl_double alpha,
    const cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb,
    GPUBLAS3_QUEUE_ARGS);

/* Complex precisions (C: cl_float2, Z: cl_double2; {real, imaginary}
 * interleaved, offsets and leading dimensions counting complex elements).
 * The argument lists are the real routines'; ConjTrans is the conjugate
 * transpose.  HEMM reads the real part of A's diagonal only; HERK and HER2K
 * take the imaginary parts of C's diagonal as 0 and write them as 0. */
/* C <- alpha*op(A)*op(B) + beta*C */
GPUBLAS3_API gpublas3Status gpublas3Cgemm(gpublas3Order order, gpublas3Transpose transA,
    gpublas3Transpose transB, size_t M, size_t N, size_t K, cl_float2 alpha,
    const cl_mem A, size_t offA, size_t lda, const cl_mem B, size_t offB, size_t ldb,
    cl_float2 beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS);
GPUBLAS3_API gpublas3Status gpublas3Zgemm(gpublas3Order order, gpublas3Transpose transA,
    gpublas3Transpose transB, size_t M, size_t N, size_t K, cl_double2 alpha,
    const cl_mem A, size_t offA, size_t lda, const cl_mem B, size_t offB, size_t ldb,
    cl_double2 beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS);

/* SYMM: A complex symmetric; HEMM: A Hermitian (only its `uplo` triangle read) */
GPUBLAS3_API gpublas3Status gpublas3Csymm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
    size_t M, size_t N, cl_float2 alpha, const cl_mem A, size_t offA, size_t lda,
    const cl_mem B, size_t offB, size_t ldb, cl_float2 beta, cl_mem C, size_t offC, size_t ldc,
    GPUBLAS3_QUEUE_ARGS);
GPUBLAS3_API gpublas3Status gpublas3Zsymm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
    size_t M, size_t N, cl_double2 alpha, const cl_mem A, size_t offA, size_t lda,
    const cl_mem B, size_t offB, size_t ldb, cl_double2 beta, cl_mem C, size_t offC, size_t ldc,
    GPUBLAS3_QUEUE_ARGS);
GPUBLAS3_API gpublas3Status gpublas3Chemm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
    size_t M, size_t N, cl_float2 alpha, const cl_mem A, size_t offA, size_t lda,
    const cl_mem B, size_t offB, size_t ldb, cl_float2 beta, cl_mem C, size_t offC, size_t ldc,
    GPUBLAS3_QUEUE_ARGS);
GPUBLAS3_API gpublas3Status gpublas3Zhemm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
    size_t M, size_t N, cl_double2 alpha, const cl_mem A, size_t offA, size_t lda,
    const cl_mem B, size_t offB, size_t ldb, cl_double2 beta, cl_mem C, size_t offC, size_t ldc,
    GPUBLAS3_QUEUE_ARGS);

/* SYRK: C <- alpha*op(A)*op(A)^T + beta*C (trans N or T); HERK: alpha*op(A)*op(A)^H + beta*C
 * with real alpha and beta (trans N or C) */
GPUBLAS3_API gpublas3Status gpublas3Csyrk(gpublas3Order order, gpublas3Uplo uplo,
    gpublas3Transpose transA, size_t N, size_t K, cl_float2 alpha, const cl_mem A, size_t offA,
    size_t lda, cl_float2 beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS);
GPUBLAS3_API gpublas3Status gpublas3Zsyrk(gpublas3Order order, gpublas3Uplo uplo,
    gpublas3Transpose transA, size_t N, size_t K, cl_double2 alpha, const cl_mem A, size_t offA,
    size_t lda, cl_double2 beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS);
GPUBLAS3_API gpublas3Status gpublas3Cherk(gpublas3Order order, gpublas3Uplo uplo,
    gpublas3Transpose transA, size_t N, size_t K, cl_float alpha, const cl_mem A, size_t offA,
    size_t lda, cl_float beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS);
GPUBLAS3_API gpublas3Status gpublas3Zherk(gpublas3Order order, gpublas3Uplo uplo,
    gpublas3Transpose transA, size_t N, size_t K, cl_double alpha, const cl_mem A, size_t offA,
    size_t lda, cl_double beta, cl_mem C, size_t offC, size_t ldc, GPUBLAS3_QUEUE_ARGS);

/* SYR2K: C <- alpha*op(A)*op(B)^T + alpha*op(B)*op(A)^T + beta*C (trans N or T);
 * HER2K: alpha*op(A)*op(B)^H + conj(alpha)*op(B)*op(A)^H + beta*C, real beta (trans N or C) */
GPUBLAS3_API gpublas3Status gpublas3Csyr2k(gpublas3Order order, gpublas3Uplo uplo,
    gpublas3Transpose transAB, size_t N, size_t K, cl_float2 alpha, const cl_mem A, size_t offA,
    size_t lda, const cl_mem B, size_t offB, size_t ldb, cl_float2 beta, cl_mem C, size_t offC,
    size_t ldc, GPUBLAS3_QUEUE_ARGS);
GPUBLAS3_API gpublas3Status gpublas3Zsyr2k(gpublas3Order order, gpublas3Uplo uplo,
    gpublas3Transpose transAB, size_t N, size_t K, cl_double2 alpha, const cl_mem A, size_t offA,
    size_t lda, const cl_mem B, size_t offB, size_t ldb, cl_double2 beta, cl_mem C, size_t offC,
    size_t ldc, GPUBLAS3_QUEUE_ARGS);
GPUBLAS3_API gpublas3Status gpublas3Cher2k(gpublas3Order order, gpublas3Uplo uplo,
    gpublas3Transpose transAB, size_t N, size_t K, cl_float2 alpha, const cl_mem A, size_t offA,
    size_t lda, const cl_mem B, size_t offB, size_t ldb, cl_float beta, cl_mem C, size_t offC,
    size_t ldc, GPUBLAS3_QUEUE_ARGS);
GPUBLAS3_API gpublas3Status gpublas3Zher2k(gpublas3Order order, gpublas3Uplo uplo,
    gpublas3Transpose transAB, size_t N, size_t K, cl_double2 alpha, const cl_mem A, size_t offA,
    size_t lda, const cl_mem B, size_t offB, size_t ldb, cl_double beta, cl_mem C, size_t offC,
    size_t ldc, GPUBLAS3_QUEUE_ARGS);

/* B <- alpha*op(A)*B or alpha*B*op(A), A triangular */
GPUBLAS3_API gpublas3Status gpublas3Ctrmm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
    gpublas3Transpose transA, gpublas3Diag diag, size_t M, size_t N, cl_float2 alpha,
    const cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb,
    GPUBLAS3_QUEUE_ARGS);
GPUBLAS3_API gpublas3Status gpublas3Ztrmm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
    gpublas3Transpose transA, gpublas3Diag diag, size_t M, size_t N, cl_double2 alpha,
    const cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb,
    GPUBLAS3_QUEUE_ARGS);

/* B <- alpha*inv(op(A))*B or alpha*B*inv(op(A)), A triangular (TRSM) */
GPUBLAS3_API gpublas3Status gpublas3Ctrsm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
    gpublas3Transpose transA, gpublas3Diag diag, size_t M, size_t N, cl_float2 alpha,
    const cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb,
    GPUBLAS3_QUEUE_ARGS);
GPUBLAS3_API gpublas3Status gpublas3Ztrsm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
    gpublas3Transpose transA, gpublas3Diag diag, size_t M, size_t N, cl_double2 alpha,
    const cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb,
    GPUBLAS3_QUEUE_ARGS);

/* Batched GEMM: C_b <- alpha * op(A_b) * op(B_b) + beta * C_b for b in [0, batchCount).
 * Strided: X_b at offX + b*strideX (a stride of 0 for A or B: one matrix
 * shared by every product).  Offset arrays: X_b at offsX[b], scalars
 * alphas[b], betas[b] (host arrays of batchCount entries, read before the
 * call returns).  The outputs must not overlap (gpublas3InvalidValue; each
 * C_b's extent is ldc*N column-major, ldc*M row-major).  One event per
 * queue however many products; several queues share out the products. */

GPUBLAS3_API gpublas3Status gpublas3SgemmStridedBatched(gpublas3Order order, gpublas3Transpose transA,
    gpublas3Transpose transB, size_t M, size_t N, size_t K, cl_float alpha,
    const cl_mem A, size_t offA, size_t lda, size_t strideA,
    const cl_mem B, size_t offB, size_t ldb, size_t strideB,
    cl_float beta, cl_mem C, size_t offC, size_t ldc, size_t strideC,
    size_t batchCount, GPUBLAS3_QUEUE_ARGS);

GPUBLAS3_API gpublas3Status gpublas3DgemmStridedBatched(gpublas3Order order, gpublas3Transpose transA,
    gpublas3Transpose transB, size_t M, size_t N, size_t K, cl_double alpha,
    const cl_mem A, size_t offA, size_t lda, size_t strideA,
    const cl_mem B, size_t offB, size_t ldb, size_t strideB,
    cl_double beta, cl_mem C, size_t offC, size_t ldc, size_t strideC,
    size_t batchCount, GPUBLAS3_QUEUE_ARGS);

GPUBLAS3_API gpublas3Status gpublas3CgemmStridedBatched(gpublas3Order order, gpublas3Transpose transA,
    gpublas3Transpose transB, size_t M, size_t N, size_t K, cl_float2 alpha,
    const cl_mem A, size_t offA, size_t lda, size_t strideA,
    const cl_mem B, size_t offB, size_t ldb, size_t strideB,
    cl_float2 beta, cl_mem C, size_t offC, size_t ldc, size_t strideC,
    size_t batchCount, GPUBLAS3_QUEUE_ARGS);

GPUBLAS3_API gpublas3Status gpublas3ZgemmStridedBatched(gpublas3Order order, gpublas3Transpose transA,
    gpublas3Transpose transB, size_t M, size_t N, size_t K, cl_double2 alpha,
    const cl_mem A, size_t offA, size_t lda, size_t strideA,
    const cl_mem B, size_t offB, size_t ldb, size_t strideB,
    cl_double2 beta, cl_mem C, size_t offC, size_t ldc, size_t strideC,
    size_t batchCount, GPUBLAS3_QUEUE_ARGS);

GPUBLAS3_API gpublas3Status gpublas3SgemmBatched(gpublas3Order order, gpublas3Transpose transA,
    gpublas3Transpose transB, size_t M, size_t N, size_t K, const cl_float *alphas,
    const cl_mem A, const size_t *offsA, size_t lda,
    const cl_mem B, const size_t *offsB, size_t ldb,
    const cl_float *betas, cl_mem C, const size_t *offsC, size_t ldc,
    size_t batchCount, GPUBLAS3_QUEUE_ARGS);

GPUBLAS3_API gpublas3Status gpublas3DgemmBatched(gpublas3Order order, gpublas3Transpose transA,
    gpublas3Transpose transB, size_t M, size_t N, size_t K, const cl_double *alphas,
    const cl_mem A, const size_t *offsA, size_t lda,
    const cl_mem B, const size_t *offsB, size_t ldb,
    const cl_double *betas, cl_mem C, const size_t *offsC, size_t ldc,
    size_t batchCount, GPUBLAS3_QUEUE_ARGS);

GPUBLAS3_API gpublas3Status gpublas3CgemmBatched(gpublas3Order order, gpublas3Transpose transA,
    gpublas3Transpose transB, size_t M, size_t N, size_t K, const cl_float2 *alphas,
    const cl_mem A, const size_t *offsA, size_t lda,
    const cl_mem B, const size_t *offsB, size_t ldb,
    const cl_float2 *betas, cl_mem C, const size_t *offsC, size_t ldc,
    size_t batchCount, GPUBLAS3_QUEUE_ARGS);

GPUBLAS3_API gpublas3Status gpublas3ZgemmBatched(gpublas3Order order, gpublas3Transpose transA,
    gpublas3Transpose transB, size_t M, size_t N, size_t K, const cl_double2 *alphas,
    const cl_mem A, const size_t *offsA, size_t lda,
    const cl_mem B, const size_t *offsB, size_t ldb,
    const cl_double2 *betas, cl_mem C, const size_t *offsC, size_t ldc,
    size_t batchCount, GPUBLAS3_QUEUE_ARGS);

#ifdef __cplusplus
}
#endif
#endif

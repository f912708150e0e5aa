/* SPDX-License-Identifier: BSD-3-Clause */
/* TRMM: B <- alpha*op(A)*B (side Left) or alpha*B*op(A) (side Right), A
 * triangular.  The copy kernel packs op(A) with the other triangle zeroed
 * (and the diagonal taken as 1 for a unit diagonal, never read); B is
 * snapshotted to scratch because it is also the output; the GEMM launch
 * writes into B with beta = 0 and skips the k-tiles where op(A) is zero.
 * Row-major: B^T = alpha*B^T*op(A)^T, so the side flips, the stored
 * triangle of A seen column-major flips, M and N swap, trans stays
 * (conjugation too: A^H transposed is conj(A), the view's conjugate
 * transpose).  Complex types as the real ones (ConjTrans conjugates).
 * Where the device's set solves TRSM's blocks by substitution (CPUs:
 * g3_solve_mul), TRMM on the queues of one device is that solve's product
 * instead: blocks multiplied in place by kernels/subst.cl and GEMM updates
 * between them, no snapshot of B and no band launch (docs/performance.md,
 * TRSM by substitution, has the figures); queues on several devices keep
 * the band launch, each with its share of B (routines/plan/split.c), as the
 * solve gives other devices none. */
#include "routines.h"

gpublas3Status g3_trmm(g3_reuse *reuse, int type, gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
    gpublas3Transpose trans, gpublas3Diag diag, size_t M, size_t N, g3_scalar alpha,
    cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb, GPUBLAS3_QUEUE_ARGS)
{
    gpublas3Status st = g3_check_triangular("trmm", g3_type_letter(type), g3_type_size(type), order, side, uplo,
                                            trans, diag, M, N, A, offA, lda, B, offB, ldb, numCommandQueues,
                                            commandQueues, numEventsInWaitList, eventWaitList);
    if (st != gpublas3Success)
        return st;
    int row = order == gpublas3RowMajor, t = trans != gpublas3NoTrans;
    int left = (side == gpublas3Left) != row, upper = (uplo == gpublas3Upper) != row;
    g3_operand ta = { A, offA, lda, t, upper ? G3_TRI_UPPER : G3_TRI_LOWER, diag == gpublas3Unit,
                      .conj = trans == gpublas3ConjTrans };
    g3_operand gb = { .buf = B, .off = offB, .ld = ldb }; /* replaced by the snapshot */
    /* op(A) is upper triangular when A is upper and not transposed, or lower and transposed */
    int op_upper = upper != t;
    const g3_device *d;
    cl_uint shares;
    if ((alpha.re != 0 || alpha.im != 0) &&
        g3_solve_queues(numCommandQueues, commandQueues, &d, &shares, NULL) == gpublas3Success &&
        shares == numCommandQueues && g3_solve_mul(&d->sets[type & 1][G3_SHAPE_LARGE].p)) {
        g3_solve s = g3_solve_of(type, order, side, uplo, trans, diag, M, N, alpha, A, offA, lda, B, offB, ldb);
        s.mul = 1;
        return g3_solve_run(&s, G3_QUEUE_PASS);
    }
    g3_call p = { .dbl = type & 1, .cplx = type >> 1, .M = row ? N : M, .N = row ? M : N,
                  .alpha = alpha.re, .alpha_im = alpha.im, .beta = 0, .nterms = 1, .a = { left ? ta : gb }, .b = { left ? gb : ta },
                       .c = B, .offc = offB, .ldc = ldb, .snapshot = left ? 2 : 1 };
    p.K = left ? p.M : p.N;
    /* nonzero k-range of op(A): left, C(m,n) needs op(A)(m,k): upper k >= m, lower k <= m;
     * right, op(A)(k,n): upper k <= n, lower k >= n */
    p.band = left ? (op_upper ? 2 : 1) : (op_upper ? 3 : 4);
    p.reuse = reuse;
    return g3_run(&p, G3_QUEUE_PASS);
}

gpublas3Status gpublas3Strmm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
    gpublas3Transpose transA, gpublas3Diag diag, size_t M, size_t N, cl_float alpha,
    const cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb, GPUBLAS3_QUEUE_ARGS)
{
    return g3_trmm(NULL, G3_S, order, side, uplo, transA, diag, M, N, g3_real(alpha), A, offA, lda, B, offB, ldb,
                   G3_QUEUE_PASS);
}

gpublas3Status gpublas3Dtrmm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
    gpublas3Transpose transA, gpublas3Diag diag, size_t M, size_t N, cl_double alpha,
    const cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb, GPUBLAS3_QUEUE_ARGS)
{
    return g3_trmm(NULL, G3_D, order, side, uplo, transA, diag, M, N, g3_real(alpha), A, offA, lda, B, offB, ldb,
                   G3_QUEUE_PASS);
}

gpublas3Status gpublas3Ctrmm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
    gpublas3Transpose transA, gpublas3Diag diag, size_t M, size_t N, cl_float2 alpha,
    const cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb, GPUBLAS3_QUEUE_ARGS)
{
    return g3_trmm(NULL, G3_C, order, side, uplo, transA, diag, M, N, g3_cfloat(alpha), A, offA, lda, B, offB, ldb,
                G3_QUEUE_PASS);
}

gpublas3Status gpublas3Ztrmm(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
    gpublas3Transpose transA, gpublas3Diag diag, size_t M, size_t N, cl_double2 alpha,
    const cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb, GPUBLAS3_QUEUE_ARGS)
{
    return g3_trmm(NULL, G3_Z, order, side, uplo, transA, diag, M, N, g3_cdouble(alpha), A, offA, lda, B, offB, ldb,
                G3_QUEUE_PASS);
}

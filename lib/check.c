/* SPDX-License-Identifier: BSD-3-Clause */
/* The one argument checker: every routine describes its matrices as stored
 * and calls g3_check before enqueuing anything, so a bad call changes
 * nothing and returns a status that names what is wrong. */
#include "core.h"

int g3_valid_order(gpublas3Order o) { return o == gpublas3RowMajor || o == gpublas3ColumnMajor; }
int g3_valid_trans(gpublas3Transpose t) { return t == gpublas3NoTrans || t == gpublas3Trans || t == gpublas3ConjTrans; }
int g3_valid_uplo(gpublas3Uplo u) { return u == gpublas3Upper || u == gpublas3Lower; }
int g3_valid_side(gpublas3Side s) { return s == gpublas3Left || s == gpublas3Right; }
int g3_valid_diag(gpublas3Diag d) { return d == gpublas3Unit || d == gpublas3NonUnit; }

/* Elements from the buffer's start to one past the matrix's last element;
 * 0 when the matrix is empty; SIZE_MAX when that overflows. */
static size_t extent(gpublas3Order order, const g3_matrix *m)
{
    size_t inner = order == gpublas3ColumnMajor ? m->rows : m->cols;
    size_t outer = order == gpublas3ColumnMajor ? m->cols : m->rows;
    if (inner == 0 || outer == 0)
        return 0;
    if (outer - 1 > (SIZE_MAX - inner - m->off) / m->ld)
        return SIZE_MAX;
    return m->off + (outer - 1) * m->ld + inner;
}

static gpublas3Status check_matrix(gpublas3Order order, const g3_matrix *m, int which,
                                   cl_context ctx, size_t esize)
{
    size_t inner = order == gpublas3ColumnMajor ? m->rows : m->cols;
    if (m->ld < (inner > 1 ? inner : 1))
        return gpublas3InvalidLeadDimA + which;
    size_t n = extent(order, m);
    if (n == 0)
        return gpublas3Success; /* not referenced: the buffer is never touched */
    cl_context mctx;
    size_t bytes;
    if (!m->buf || clGetMemObjectInfo(m->buf, CL_MEM_CONTEXT, sizeof mctx, &mctx, NULL) != CL_SUCCESS ||
        clGetMemObjectInfo(m->buf, CL_MEM_SIZE, sizeof bytes, &bytes, NULL) != CL_SUCCESS)
        return gpublas3InvalidMatA + which;
    if (mctx != ctx)
        return gpublas3InvalidContext;
    if (n == SIZE_MAX || n > bytes / esize)
        return gpublas3InsufficientMemMatA + which;
    return gpublas3Success;
}

gpublas3Status g3_check_call(gpublas3Order order, int enums_ok, size_t esize, cl_uint nq,
                             const cl_command_queue *qs, cl_uint nwait, const cl_event *wait,
                             const g3_matrix *mats[3])
{
    if (!g3_initialized())
        return gpublas3NotInitialized;
    cl_context ctx = NULL, qctx;
    if (nq == 0 || !qs)
        return gpublas3InvalidCommandQueue;
    /* Every queue of a split call (routines/plan/split.c) runs a share on
     * the same buffers, so all must be valid and of one context. */
    for (cl_uint i = 0; i < nq; i++) {
        if (!qs[i] || clGetCommandQueueInfo(qs[i], CL_QUEUE_CONTEXT, sizeof qctx, &qctx, NULL) != CL_SUCCESS)
            return gpublas3InvalidCommandQueue;
        if (i == 0)
            ctx = qctx;
        else if (qctx != ctx)
            return gpublas3InvalidContext;
    }
    if ((nwait > 0) != (wait != NULL))
        return gpublas3InvalidEventWaitList;
    for (cl_uint i = 0; i < nwait; i++)
        if (!wait[i])
            return gpublas3InvalidEventWaitList;
    if (!enums_ok || !g3_valid_order(order))
        return gpublas3InvalidValue;
    for (int i = 0; i < 3; i++) {
        gpublas3Status st = mats[i] ? check_matrix(order, mats[i], i, ctx, esize) : gpublas3Success;
        if (st != gpublas3Success)
            return st;
    }
    return gpublas3Success;
}

gpublas3Status g3_check_triangular(gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo,
                                   gpublas3Transpose trans, gpublas3Diag diag, size_t M, size_t N,
                                   cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb,
                                   size_t esize, cl_uint nq, const cl_command_queue *qs, cl_uint nwait,
                                   const cl_event *wait)
{
    size_t ka = side == gpublas3Left ? M : N;
    g3_matrix a = { A, offA, lda, ka, ka }, b = { B, offB, ldb, M, N };
    const g3_matrix *mats[3] = { &a, &b, NULL };
    int enums_ok = g3_valid_side(side) && g3_valid_uplo(uplo) && g3_valid_trans(trans) && g3_valid_diag(diag);
    return g3_check_call(order, enums_ok, esize, nq, qs, nwait, wait, mats);
}

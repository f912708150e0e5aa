/* SPDX-License-Identifier: BSD-3-Clause */
/* The one argument checker: every routine describes its call (g3_args) and
 * calls g3_check_call before enqueuing anything, so a bad call changes
 * nothing and returns a status that names what is wrong.  With
 * GPUBLAS3_VERBOSE set, each refusal also prints one line naming the
 * routine, the argument and its value, e.g.
 *   gpublas3: gpublas3Sgemm refused: M = 18446744073709551611 (gpublas3InvalidDim) */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "core.h"

int g3_valid_order(gpublas3Order o) { return o == gpublas3RowMajor || o == gpublas3ColumnMajor; }
int g3_valid_trans(gpublas3Transpose t) { return t == gpublas3NoTrans || t == gpublas3Trans || t == gpublas3ConjTrans; }
int g3_valid_uplo(gpublas3Uplo u) { return u == gpublas3Upper || u == gpublas3Lower; }
int g3_valid_side(gpublas3Side s) { return s == gpublas3Left || s == gpublas3Right; }
int g3_valid_diag(gpublas3Diag d) { return d == gpublas3Unit || d == gpublas3NonUnit; }

/* The statuses this file returns, by their names in gpublas3.h. */
static const char *status_name(gpublas3Status s)
{
    switch (s) {
    case gpublas3InvalidValue: return "gpublas3InvalidValue";
    case gpublas3InvalidCommandQueue: return "gpublas3InvalidCommandQueue";
    case gpublas3InvalidContext: return "gpublas3InvalidContext";
    case gpublas3InvalidEventWaitList: return "gpublas3InvalidEventWaitList";
    case gpublas3NotInitialized: return "gpublas3NotInitialized";
    case gpublas3InvalidMatA: return "gpublas3InvalidMatA";
    case gpublas3InvalidMatB: return "gpublas3InvalidMatB";
    case gpublas3InvalidMatC: return "gpublas3InvalidMatC";
    case gpublas3InvalidDim: return "gpublas3InvalidDim";
    case gpublas3InvalidLeadDimA: return "gpublas3InvalidLeadDimA";
    case gpublas3InvalidLeadDimB: return "gpublas3InvalidLeadDimB";
    case gpublas3InvalidLeadDimC: return "gpublas3InvalidLeadDimC";
    case gpublas3InsufficientMemMatA: return "gpublas3InsufficientMemMatA";
    case gpublas3InsufficientMemMatB: return "gpublas3InsufficientMemMatB";
    case gpublas3InsufficientMemMatC: return "gpublas3InsufficientMemMatC";
    default: return "gpublas3 status";
    }
}

/* Returns st; under GPUBLAS3_VERBOSE first says why, in one line.  Read
 * here, on the refusal only, so that a good call never pays for it. */
gpublas3Status g3_refuse(const g3_args *a, gpublas3Status st, const char *fmt, ...)
{
    const char *v = getenv("GPUBLAS3_VERBOSE");
    if (!v || !*v || *v == '0')
        return st;
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    fprintf(stderr, "gpublas3: gpublas3%c%s refused: %s (%s)\n", a->type, a->routine, what, status_name(st));
    return st;
}

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

static gpublas3Status check_matrix(const g3_args *a, int which, cl_context ctx)
{
    const g3_matrix *m = a->mats[which];
    const char name = "ABC"[which], lower = "abc"[which];
    size_t inner = a->order == gpublas3ColumnMajor ? m->rows : m->cols;
    if (m->ld < (inner > 1 ? inner : 1))
        return g3_refuse(a, gpublas3InvalidLeadDimA + which, "ld%c = %zu, below %c's %zu stored %s", lower, m->ld,
                      name, inner, a->order == gpublas3ColumnMajor ? "rows" : "columns");
    size_t n = extent(a->order, m);
    if (n == 0)
        return gpublas3Success; /* not referenced: the buffer is never touched */
    cl_context mctx;
    size_t bytes;
    if (!m->buf)
        return g3_refuse(a, gpublas3InvalidMatA + which, "%c = NULL", name);
    if (clGetMemObjectInfo(m->buf, CL_MEM_CONTEXT, sizeof mctx, &mctx, NULL) != CL_SUCCESS ||
        clGetMemObjectInfo(m->buf, CL_MEM_SIZE, sizeof bytes, &bytes, NULL) != CL_SUCCESS)
        return g3_refuse(a, gpublas3InvalidMatA + which, "%c = %p, not a buffer", name, (void *)m->buf);
    if (mctx != ctx)
        return g3_refuse(a, gpublas3InvalidContext, "%c = %p, of another context than the queues", name,
                      (void *)m->buf);
    if (n == SIZE_MAX || n > bytes / a->esize)
        return g3_refuse(a, gpublas3InsufficientMemMatA + which,
                      "%c = %p holds %zu elements, off%c + extent needs %zu", name, (void *)m->buf,
                      bytes / a->esize, lower, n);
    return gpublas3Success;
}

gpublas3Status g3_check_call(const g3_args *a, cl_uint nq, const cl_command_queue *qs, cl_uint nwait,
                             const cl_event *wait)
{
    if (!g3_initialized())
        return g3_refuse(a, gpublas3NotInitialized, "gpublas3Setup has not been called");
    cl_context ctx = NULL, qctx;
    if (nq == 0)
        return g3_refuse(a, gpublas3InvalidCommandQueue, "numCommandQueues = 0");
    if (!qs)
        return g3_refuse(a, gpublas3InvalidCommandQueue, "commandQueues = NULL");
    /* Every queue of a split call (routines/plan/split.c) runs a share on
     * the same buffers, so all must be valid and of one context. */
    for (cl_uint i = 0; i < nq; i++) {
        if (!qs[i])
            return g3_refuse(a, gpublas3InvalidCommandQueue, "commandQueues[%u] = NULL", i);
        if (clGetCommandQueueInfo(qs[i], CL_QUEUE_CONTEXT, sizeof qctx, &qctx, NULL) != CL_SUCCESS)
            return g3_refuse(a, gpublas3InvalidCommandQueue, "commandQueues[%u] = %p, not a command queue", i,
                          (void *)qs[i]);
        if (i == 0)
            ctx = qctx;
        else if (qctx != ctx)
            return g3_refuse(a, gpublas3InvalidContext, "commandQueues[%u] = %p, of another context than commandQueues[0]",
                          i, (void *)qs[i]);
    }
    if ((nwait > 0) != (wait != NULL))
        return g3_refuse(a, gpublas3InvalidEventWaitList, "numEventsInWaitList = %u with eventWaitList = %p", nwait,
                      (const void *)wait);
    for (cl_uint i = 0; i < nwait; i++)
        if (!wait[i])
            return g3_refuse(a, gpublas3InvalidEventWaitList, "eventWaitList[%u] = NULL", i);
    if (!g3_valid_order(a->order))
        return g3_refuse(a, gpublas3InvalidValue, "order = %d", (int)a->order);
    for (int i = 0; i < 4 && a->enums[i].name; i++)
        if (!a->enums[i].ok)
            return g3_refuse(a, gpublas3InvalidValue, "%s = %d", a->enums[i].name, a->enums[i].value);
    /* A dimension no buffer could hold: a negative int passed as size_t,
     * say.  Said as such, before the leading dimensions and buffers that it
     * would make look wrong. */
    for (int i = 0; i < 3 && a->dims[i].name; i++)
        if (a->dims[i].value > ((size_t)1 << 62) / a->esize)
            return g3_refuse(a, gpublas3InvalidDim, "%s = %zu", a->dims[i].name, a->dims[i].value);
    for (int i = 0; i < 3; i++) {
        gpublas3Status st = a->mats[i] ? check_matrix(a, i, ctx) : gpublas3Success;
        if (st != gpublas3Success)
            return st;
    }
    return gpublas3Success;
}

gpublas3Status g3_check_triangular(const char *routine, char type, size_t esize, gpublas3Order order,
                                   gpublas3Side side, gpublas3Uplo uplo, gpublas3Transpose trans,
                                   gpublas3Diag diag, size_t M, size_t N, cl_mem A, size_t offA, size_t lda,
                                   cl_mem B, size_t offB, size_t ldb, cl_uint nq, const cl_command_queue *qs,
                                   cl_uint nwait, const cl_event *wait)
{
    size_t ka = side == gpublas3Left ? M : N;
    g3_matrix a = { A, offA, lda, ka, ka }, b = { B, offB, ldb, M, N };
    g3_args args = { routine, type, esize, order,
                     { { "side", side, g3_valid_side(side) }, { "uplo", uplo, g3_valid_uplo(uplo) },
                       { "transA", trans, g3_valid_trans(trans) }, { "diag", diag, g3_valid_diag(diag) } },
                     { { "M", M }, { "N", N } }, { &a, &b, NULL } };
    return g3_check_call(&args, nq, qs, nwait, wait);
}

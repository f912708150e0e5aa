/* SPDX-License-Identifier: BSD-3-Clause */
/* Argument fuzzing: thousands of random argument tuples for every routine
 * in both precisions (sizes, leading dimensions, offsets, buffer sizes,
 * enum values, NULL and foreign buffers, queue lists, wait lists, events,
 * calls before Setup), each checked against a model of which status must
 * come back.  The model below is written from the BLAS and OpenCL rules
 * (DESIGN.md's contract), not from lib/check.c:
 *
 *   1. before Setup (or after the last Teardown): NotInitialized;
 *   2. no queue (count 0, NULL list, NULL first queue): InvalidCommandQueue;
 *   3. a wait list whose count and pointer disagree, or holding NULL:
 *      InvalidEventWaitList;
 *   4. an enum argument the routine takes out of range: InvalidValue;
 *   5. for A, B, C in turn (those the routine takes): a leading dimension
 *      below max(1, length of a stored line) -> InvalidLeadDim; then, unless
 *      the matrix is empty: NULL buffer -> InvalidMat, a buffer of another
 *      context -> InvalidContext, fewer bytes than offset + extent (computed
 *      without overflow) -> InsufficientMem;
 *   6. otherwise success.
 * On an error status nothing may be enqueued, no buffer may change, and
 * no events[i] may be written; on success the result must be OpenBLAS's,
 * with nothing outside the output matrix changed. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "rel.h"
#include "shim.h"

static rel_dev dev;
static cl_context other_ctx;
static cl_command_queue q2;
static int setup_done;

typedef struct {
    const char *name;
    int status_base;   /* 0, 1, 2: A, B, C */
    size_t rows, cols; /* as stored */
    size_t off, ld;
} mat;

/* The stored shapes, from the BLAS argument lists. */
static int matrices(const spec_case *c, mat m[3])
{
    int t = c->transA != gpublas3NoTrans, tb = c->transB != gpublas3NoTrans, n = 0;
    size_t ka = c->side == gpublas3Left ? c->M : c->N;
    switch (c->routine) {
    case SPEC_GEMM:
        m[n++] = (mat){ "A", 0, t ? c->K : c->M, t ? c->M : c->K, c->offA, c->lda };
        m[n++] = (mat){ "B", 1, tb ? c->N : c->K, tb ? c->K : c->N, c->offB, c->ldb };
        m[n++] = (mat){ "C", 2, c->M, c->N, c->offC, c->ldc };
        break;
    case SPEC_SYMM:
        m[n++] = (mat){ "A", 0, ka, ka, c->offA, c->lda };
        m[n++] = (mat){ "B", 1, c->M, c->N, c->offB, c->ldb };
        m[n++] = (mat){ "C", 2, c->M, c->N, c->offC, c->ldc };
        break;
    case SPEC_SYRK:
    case SPEC_SYR2K:
        m[n++] = (mat){ "A", 0, t ? c->K : c->N, t ? c->N : c->K, c->offA, c->lda };
        if (c->routine == SPEC_SYR2K)
            m[n++] = (mat){ "B", 1, t ? c->K : c->N, t ? c->N : c->K, c->offB, c->ldb };
        m[n++] = (mat){ "C", 2, c->N, c->N, c->offC, c->ldc };
        break;
    case SPEC_TRMM:
    case SPEC_TRSM:
        m[n++] = (mat){ "A", 0, ka, ka, c->offA, c->lda };
        m[n++] = (mat){ "B", 1, c->M, c->N, c->offB, c->ldb };
        break;
    default:
        break;
    }
    return n;
}

/* One tuple: the case and everything around it. */
typedef struct {
    spec_case c;
    int initialized;
    cl_uint nq;
    cl_command_queue *qs;
    cl_uint nwait;
    const cl_event *wait;
    int want_event;
    cl_mem buf[3];       /* as passed */
    size_t bytes[3];     /* CL_MEM_SIZE of buf[i] */
    int foreign[3];      /* buf[i] belongs to other_ctx */
} tuple;

static int enum_ok(int v, int n) { return v >= 0 && v < n; }

static gpublas3Status model(const tuple *t)
{
    const spec_case *c = &t->c;
    if (!t->initialized) return gpublas3NotInitialized;
    if (t->nq == 0 || !t->qs || !t->qs[0]) return gpublas3InvalidCommandQueue;
    if ((t->nwait == 0) != (t->wait == NULL)) return gpublas3InvalidEventWaitList;
    for (cl_uint i = 0; i < t->nwait; i++)
        if (!t->wait[i]) return gpublas3InvalidEventWaitList;
    int ok = enum_ok(c->order, 2);
    switch (c->routine) {
    case SPEC_GEMM: ok &= enum_ok(c->transA, 3) && enum_ok(c->transB, 3); break;
    case SPEC_SYMM: ok &= enum_ok(c->side, 2) && enum_ok(c->uplo, 2); break;
    case SPEC_SYRK:
    case SPEC_SYR2K: ok &= enum_ok(c->uplo, 2) && enum_ok(c->transA, 3); break;
    case SPEC_TRMM:
    case SPEC_TRSM:
        ok &= enum_ok(c->side, 2) && enum_ok(c->uplo, 2) && enum_ok(c->transA, 3) && enum_ok(c->diag, 2);
        break;
    default: break;
    }
    if (!ok) return gpublas3InvalidValue;
    /* a dimension of more than 2^62 bytes of elements, before any matrix */
    const size_t dim_max = ((size_t)1 << 62) / (c->dbl ? 8 : 4);
    int uses_m = c->routine != SPEC_SYRK && c->routine != SPEC_SYR2K, uses_k = c->routine == SPEC_GEMM ||
        c->routine == SPEC_SYRK || c->routine == SPEC_SYR2K;
    if ((uses_m && c->M > dim_max) || c->N > dim_max || (uses_k && c->K > dim_max)) return gpublas3InvalidDim;
    mat m[3];
    int n = matrices(c, m);
    size_t es = c->dbl ? 8 : 4;
    for (int i = 0; i < n; i++) {
        int row = c->order == gpublas3RowMajor;
        size_t line = row ? m[i].cols : m[i].rows, lines = row ? m[i].rows : m[i].cols;
        if (m[i].ld < (line > 1 ? line : 1)) return gpublas3InvalidLeadDimA + m[i].status_base;
        if (!m[i].rows || !m[i].cols) continue;
        int k = m[i].status_base;
        if (!t->buf[k]) return gpublas3InvalidMatA + k;
        if (t->foreign[k]) return gpublas3InvalidContext;
        unsigned __int128 need = (unsigned __int128)m[i].off + (unsigned __int128)(lines - 1) * m[i].ld + line;
        if (need * es > t->bytes[k]) return gpublas3InsufficientMemMatA + k;
    }
    return gpublas3Success;
}

/* ---- the generator ---- */
static uint64_t seed;
static int chance(int percent) { return (int)rel_below(&seed, 100) < percent; }

static size_t rand_dim(void)
{
    static const size_t huge[] = { (size_t)1 << 31, (size_t)1 << 40, SIZE_MAX / 4, SIZE_MAX };
    if (chance(6)) return 0;
    if (chance(2)) return huge[rel_below(&seed, 4)];
    if (chance(5)) return 1;
    return 1 + rel_below(&seed, 40);
}

static int rand_enum(int n)
{
    static const int bad[] = { -1, 3, 7, 100, INT_MAX, INT_MIN };
    if (chance(3)) return chance(50) ? n : bad[rel_below(&seed, 6)];
    return (int)rel_below(&seed, (size_t)n);
}

/* A leading dimension near the tight one for this matrix. */
static size_t rand_ld(size_t line)
{
    size_t tight = line > 1 ? line : 1;
    if (chance(5)) return 0;
    if (chance(6)) return tight > 1 ? tight - 1 : 0;
    if (chance(2)) return SIZE_MAX / 2;
    if (chance(4)) return rel_below(&seed, 50);
    return tight + (chance(50) ? 0 : rel_below(&seed, 4));
}

static size_t rand_off(void)
{
    if (chance(1)) return SIZE_MAX / 2;
    if (chance(50)) return 0;
    return rel_below(&seed, 9);
}

static double rand_scalar(void)
{
    static const double v[] = { 0, 1, -1, 2.5, -0.75 };
    return v[rel_below(&seed, 5)];
}

/* Every element a buffer holds before the call: a pattern that no result
 * would give. */
static void pattern(void *p, size_t n, size_t es, int k)
{
    for (size_t x = 0; x < n; x++) {
        double v = 3000 + 100 * k + (double)(x % 97);
        if (es == 8) ((double *)p)[x] = v;
        else ((float *)p)[x] = (float)v;
    }
}

static int events_balanced(const shim_counts *a, const shim_counts *b)
{
    return a->events == b->events && a->mems == b->mems && a->kernels == b->kernels;
}

/* Runs one tuple whose model status is an error (or a success that changes
 * nothing): the status, no enqueue, no change anywhere. */
static void run_plain(tuple *t, gpublas3Status want, const char *desc)
{
    size_t es = t->c.dbl ? 8 : 4;
    void *host[3] = { 0 };
    for (int k = 0; k < 3; k++)
        if (t->buf[k]) {
            host[k] = malloc(t->bytes[k]);
            pattern(host[k], t->bytes[k] / es, es, k);
            clEnqueueWriteBuffer(t->foreign[k] ? q2 : dev.q, t->buf[k], CL_TRUE, 0, t->bytes[k], host[k], 0, NULL,
                                 NULL);
        }
    /* events[i] for each queue i (clBLAS): nq <= 2 here */
    cl_event unset = (cl_event)&unset, ev[2] = { unset, unset };
    shim_counts before, after;
    shim_reset_calls();
    shim_get(&before);
    gpublas3Status st = spec_run_queues(&t->c, t->nq, t->qs, t->buf[0], t->buf[1], t->buf[2], t->nwait, t->wait,
                                        t->want_event ? ev : NULL);
    shim_get(&after);
    rel_expect(st == want, "%s: status %d, the model says %d", desc, st, want);
    if (st == gpublas3Success && t->want_event) {
        for (cl_uint i = 0; i < t->nq; i++) {
            rel_expect(ev[i] != unset, "%s: no events[%u]", desc, i);
            if (ev[i] != unset) {
                clWaitForEvents(1, &ev[i]);
                clReleaseEvent(ev[i]);
            }
        }
        shim_get(&after);
    } else if (st != gpublas3Success) {
        rel_expect(ev[0] == unset && ev[1] == unset, "%s: failed with %d but wrote events", desc, st);
        rel_expect(after.calls[SHIM_ENQUEUE_ANY] == 0, "%s: failed with %d but enqueued %ld commands", desc, st,
                   after.calls[SHIM_ENQUEUE_ANY]);
        rel_expect(events_balanced(&before, &after), "%s: failed with %d and leaked OpenCL objects", desc, st);
    }
    for (int k = 0; k < 3; k++)
        if (t->buf[k]) {
            void *got = malloc(t->bytes[k]);
            cl_command_queue q = t->foreign[k] ? q2 : dev.q;
            clEnqueueReadBuffer(q, t->buf[k], CL_TRUE, 0, t->bytes[k], got, 0, NULL, NULL);
            rel_expect(!memcmp(got, host[k], t->bytes[k]), "%s: status %d, buffer %c changed", desc, st, "ABC"[k]);
            free(got);
            free(host[k]);
        }
}

/* Small enough to compute: every matrix the routine takes. */
static int moderate(const spec_case *c)
{
    mat m[3];
    int n = matrices(c, m);
    for (int i = 0; i < n; i++)
        if (m[i].rows > 64 || m[i].cols > 64) return 0;
    return 1;
}

int main(int argc, char **argv)
{
    long iterations = argc > 1 ? atol(argv[1]) : 3000;
    seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 20240601;
    setenv("OPENBLAS_NUM_THREADS", "1", 1);
    rel_open(&dev);
    cl_int err;
    other_ctx = clCreateContext(NULL, 1, &dev.dev, NULL, NULL, &err);
    q2 = clCreateCommandQueue(other_ctx, dev.dev, 0, &err);
    cl_command_queue qsame = rel_queue(&dev, 0);
    gpublas3Setup();
    setup_done = 1;
    shim_counts start;
    shim_get(&start);
    long counts[2] = { 0, 0 };
    static long by_status[2048];

    for (long it = 0; it < iterations; it++) {
        tuple t;
        memset(&t, 0, sizeof t);
        spec_case *c = &t.c;
        c->routine = (spec_routine)rel_below(&seed, SPEC_NROUTINES);
        c->dbl = chance(50);
        c->order = chance(3) ? (gpublas3Order)rand_enum(2) : (chance(50) ? gpublas3RowMajor : gpublas3ColumnMajor);
        c->transA = (gpublas3Transpose)rand_enum(3);
        c->transB = (gpublas3Transpose)rand_enum(3);
        c->side = (gpublas3Side)rand_enum(2);
        c->uplo = (gpublas3Uplo)rand_enum(2);
        c->diag = (gpublas3Diag)rand_enum(2);
        c->M = rand_dim();
        c->N = rand_dim();
        c->K = rand_dim();
        c->alpha = rand_scalar();
        c->beta = rand_scalar();
        c->offA = rand_off();
        c->offB = rand_off();
        c->offC = rand_off();
        /* leading dimensions near the tight ones of the shapes drawn */
        mat m[3];
        int n = matrices(c, m);
        size_t *lds[3] = { &c->lda, &c->ldb, &c->ldc };
        for (int i = 0; i < n; i++) {
            size_t line = c->order == gpublas3RowMajor ? m[i].cols : m[i].rows;
            *lds[m[i].status_base] = rand_ld(line);
        }
        n = matrices(c, m);

        /* queues, wait list, event */
        cl_command_queue qlist[2] = { dev.q, chance(50) ? qsame : dev.q };
        t.initialized = !chance(3);
        t.nq = chance(20) ? 2 : 1;
        t.qs = qlist;
        if (chance(3)) t.nq = 0;
        else if (chance(3)) t.qs = NULL;
        else if (chance(3)) qlist[0] = NULL;
        cl_event uev[2] = { clCreateUserEvent(dev.ctx, &err), NULL };
        clSetUserEventStatus(uev[0], CL_COMPLETE);
        t.nwait = (cl_uint)rel_below(&seed, 2);
        t.wait = t.nwait ? uev : NULL;
        if (chance(3)) { t.nwait = 1; t.wait = NULL; }
        else if (chance(3)) { t.nwait = 0; t.wait = uev; }
        else if (chance(3)) { t.nwait = 2; t.wait = uev; } /* uev[1] is NULL */
        t.want_event = chance(60);

        /* buffers: the right size give or take, or none, or foreign */
        size_t es = c->dbl ? 8 : 4;
        for (int i = 0; i < n; i++) {
            int k = m[i].status_base;
            int row = c->order == gpublas3RowMajor;
            size_t line = row ? m[i].cols : m[i].rows, lines = row ? m[i].rows : m[i].cols;
            unsigned __int128 need = 0;
            if (line && lines) need = (unsigned __int128)m[i].off + (unsigned __int128)(lines - 1) * m[i].ld + line;
            long delta = chance(8) ? -(long)rel_below(&seed, 3) - 1 : (long)rel_below(&seed, 4);
            unsigned __int128 want = need + (unsigned __int128)(delta < 0 ? 0 : delta);
            if (delta < 0) want = need > (unsigned __int128)-delta ? need + delta : 0;
            if (want * es > 1 << 20 || want == 0) want = 1 + rel_below(&seed, 64);
            if (chance(4)) continue; /* NULL */
            t.foreign[k] = chance(4);
            t.bytes[k] = (size_t)want * es;
            t.buf[k] = clCreateBuffer(t.foreign[k] ? other_ctx : dev.ctx, CL_MEM_READ_WRITE, t.bytes[k], NULL, &err);
        }

        gpublas3Status want = model(&t);
        by_status[want <= 0 && want > -2048 ? -want : 2047]++;
        char desc[640], cdesc[256];
        spec_describe(c, cdesc, sizeof cdesc);
        snprintf(desc, sizeof desc, "tuple %ld: %s init=%d nq=%u qs=%s q0=%s nwait=%u wait=%s bufs=%s%s%s/%s%s%s", it,
                 cdesc, t.initialized, t.nq, t.qs ? "set" : "NULL", t.qs && t.qs[0] ? "set" : "NULL", t.nwait,
                 t.wait ? "set" : "NULL", t.buf[0] ? "A" : "-", t.buf[1] ? "B" : "-", t.buf[2] ? "C" : "-",
                 t.foreign[0] ? "a" : "", t.foreign[1] ? "b" : "", t.foreign[2] ? "c" : "");

        if (!t.initialized) gpublas3Teardown();
        int full = want == gpublas3Success && moderate(c);
        if (full) {
            /* a legal call on data: judged against OpenBLAS */
            /* the offset and leading dimension of an empty matrix, and the
             * leading dimension of a single line, are never used: the
             * buffers and the reference (OpenBLAS takes int) see 0 and a
             * tight one, the call gets the drawn ones */
            spec_case fillc = *c, callc;
            size_t *offs[3] = { &fillc.offA, &fillc.offB, &fillc.offC };
            size_t *fill_lds[3] = { &fillc.lda, &fillc.ldb, &fillc.ldc };
            for (int i = 0; i < n; i++) {
                size_t lines = c->order == gpublas3RowMajor ? m[i].rows : m[i].cols;
                if (!m[i].rows || !m[i].cols) *offs[m[i].status_base] = 0;
                if (!m[i].rows || !m[i].cols || lines == 1) *fill_lds[m[i].status_base] = 0;
            }
            rel_case r;
            rel_fill(&r, &fillc, (uint64_t)it, 3);
            rel_upload(&r, dev.ctx, dev.q);
            callc = r.c;
            callc.offA = c->offA;
            callc.offB = c->offB;
            callc.offC = c->offC;
            callc.lda = c->lda;
            callc.ldb = c->ldb;
            callc.ldc = c->ldc;
            cl_event ev[2] = { NULL, NULL };
            gpublas3Status st = spec_run_queues(&callc, t.nq, t.qs, r.buf[0], r.buf[1], r.buf[2], t.nwait, t.wait,
                                                t.want_event ? ev : NULL);
            rel_expect(st == gpublas3Success, "%s: status %d on a legal call", desc, st);
            if (st == gpublas3Success) {
                for (cl_uint i = 0; i < t.nq; i++)
                    if (ev[i]) { clWaitForEvents(1, &ev[i]); clReleaseEvent(ev[i]); }
                for (cl_uint i = 0; i < t.nq; i++) clFinish(t.qs[i]);
                if (rel_judge(&r, dev.q, "fuzz")) rel_expect(0, "%s: wrong result", desc);
            }
            rel_free(&r);
        } else {
            run_plain(&t, want, desc);
        }
        if (!t.initialized) gpublas3Setup();
        counts[full]++;
        for (int k = 0; k < 3; k++)
            if (t.buf[k]) clReleaseMemObject(t.buf[k]);
        clReleaseEvent(uev[0]);
        if (rel_failures > 20) break;
    }
    clFinish(dev.q);
    gpublas3Teardown();
    char left[128];
    rel_expect(!shim_left(&start, left, sizeof left), "leaked OpenCL objects over the run: %s", left);
    printf("%ld tuples: %ld computed and judged, %ld checked for status and no change\n", counts[0] + counts[1],
           counts[1], counts[0]);
    printf("statuses expected: success %ld", by_status[0]);
    for (int s = 1; s < 2048; s++)
        if (by_status[s]) printf(", %d: %ld", -s, by_status[s]);
    printf("\n");
    clReleaseCommandQueue(qsame);
    clReleaseCommandQueue(q2);
    clReleaseContext(other_ctx);
    rel_close(&dev);
    return rel_finish("test_fuzz");
}

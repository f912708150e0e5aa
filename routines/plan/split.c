/* SPDX-License-Identifier: BSD-3-Clause */
/* One call over several command queues (clBLAS's numCommandQueues > 1):
 * C is cut into blocks of columns or of rows, one block per queue, and each
 * queue runs its block as a call of its own (g3_enqueue: its own plan, its
 * own packing of what the block reads, scratch from its own device's pool)
 * after the caller's wait list.  Nothing waits on the host.
 *
 * The cut runs along the dimension whose operand is general, so that a
 * block's operands are plain sub-matrices of the caller's:
 *   columns: b[t] general (GEMM, SYMM and TRMM with A on the left, SYRK,
 *            SYR2K); A on the left is read whole by every queue;
 *   rows:    a[t] general (SYMM and TRMM with A on the right; GEMM when M > N).
 * TRMM's output is its own input, but output column n (A on the left) or
 * row m (A on the right) needs only that column or row of B, so each
 * queue's block reads only what it writes itself: no queue can overwrite
 * what another has still to read.  Blocks are balanced by their work: equal
 * widths, except SYRK's and SYR2K's triangle (column j of an upper triangle
 * holds j + 1 elements).  A triangular block (columns [n0, n1) of an upper
 * C) runs as two pieces: the diagonal block, a small SYRK, and the
 * rectangle above it, a GEMM.
 *
 * Queues on several devices: C is written only on the device of queue 0
 * ("home").  A driver that keeps one valid copy of a buffer moves the whole
 * buffer to the device of each command that writes it (NVIDIA's does), so
 * two devices writing blocks of one C, in several launches each, sent C
 * back and forth between them many times per call (0.13x of one queue on
 * two H200s with sub-buffers of C; docs/performance.md, Multi-queue and multi-GPU).  A share on
 * another device ("remote") computes its pieces into scratch of its own
 * device, tight, one after another (the triangle first), starting from C's
 * block copied in on its own queue when the call reads C (beta != 0, or
 * TRMM's input); then queue 0 copies what the share wrote into C: the
 * rectangles by clEnqueueCopyBufferRect, a diagonal block's stored
 * triangle by the split-K reduction kernel (one slice, alpha 1, beta 0),
 * so C's other triangle stays untouched.  A remote device only reads C's
 * buffer, and only its own block; A and B are only read, so after the
 * first call they are valid on every device.  events[i] of a remote share
 * is its last copy into C (a command of queue 0); other shares' events are
 * their own queue's last command, a marker after the wait list when the
 * share is empty.  The scratch goes back to the remote device's pool with
 * that copy's event and queue 0, so no later call reuses it before the copy
 * has read it (that pool serves only the remote device's queues).
 * Only devices that share the host's memory (g3_device's host_memory:
 * CPU devices and their sub-devices, integrated GPUs) split a call among
 * them: between discrete GPUs NVIDIA's driver (580) moved buffers at 1.2
 * GB/s (one 1 GB block from one H200 to the other on queue 0: 0.92 s,
 * NVLink or not), so even one copy of the remote block back costs more
 * than the whole call on one GPU (0.20 s for DGEMM n = 16384; the split
 * took 8.7 s, A and B moving too; docs/performance.md, Multi-queue and multi-GPU).  A call over
 * devices with memory of their own runs whole on queue 0, the other queues'
 * events markers after the wait list; two contexts (one per GPU, as MPI
 * ranks have) are the way to use several discrete GPUs.
 * A call on several devices runs whole on queue 0 also when one of its inputs
 * lives in C's storage (C's buffer, its parent or a sibling sub-buffer),
 * TRMM's own output excepted: a remote device would read a buffer that
 * home writes, which OpenCL leaves undefined for sub-buffers and which
 * would move C between the devices again; and when a remote share's scratch
 * cannot be had, or would take over half the remote device's scratch limit
 * (C is then still untouched). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "plan.h"

/* Rows [m0, m1) x columns [n0, n1) of C, storing triangle tri of it. */
typedef struct {
    size_t m0, m1, n0, n1;
    int tri;
} rect;

typedef struct {
    size_t lo, hi;      /* the block: columns or rows [lo, hi) of C */
    int n;              /* its non-empty pieces */
    rect piece[2];
    int remote;         /* on a device other than queue 0's */
    cl_mem scratch;     /* remote: the pieces, tight, piece k at element at[k] */
    size_t at[2], bytes; /* (bytes: the scratch's, held while the pieces run) */
    g3_chain chain;
} share;

/* Bytes per element of C (complex calls are cut before complex.c maps
 * them to real ones: their blocks and offsets count complex elements). */
static size_t elem_bytes(const g3_call *c)
{
    return (size_t)(c->dbl ? 8 : 4) << (c->cplx ? 1 : 0);
}

static size_t rows(const rect *r) { return r->m1 - r->m0; }
static size_t cols(const rect *r) { return r->n1 - r->n0; }
/* r's first element in C's buffer */
static size_t in_c(const g3_call *c, const rect *r) { return c->offc + r->m0 + r->n0 * c->ldc; }

/* op(o) from row r0 and column k0 on (o general). */
static g3_operand shift(g3_operand o, size_t r0, size_t k0)
{
    o.off += o.trans ? r0 * o.ld + k0 : r0 + k0 * o.ld;
    return o;
}

/* The part of call c that writes piece r of C. */
static g3_call window(const g3_call *c, const rect *r)
{
    g3_call w = *c;
    w.M = rows(r);
    w.N = cols(r);
    w.tri = r->tri;
    for (int t = 0; t < c->nterms; t++) {
        if (r->m0)
            w.a[t] = shift(c->a[t], r->m0, 0);
        if (r->n0)
            w.b[t] = shift(c->b[t], 0, r->n0);
    }
    w.offc = in_c(c, r);
    /* a rectangle off the diagonal holds none of a Hermitian C's diagonal,
     * whose imaginary parts the kernel would zero at the window's own */
    if (!r->tri && w.cplx == G3_HERMITIAN)
        w.cplx = G3_CPLX;
    return w;
}

/* The same part writing remote share s's scratch instead of C, reading its
 * TRMM input (the output itself, copied in) there too. */
static g3_call in_scratch(const g3_call *c, const share *s, int k)
{
    g3_call w = window(c, &s->piece[k]);
    for (int t = 0; t < w.nterms; t++) {
        g3_operand *o[2] = { &w.a[t], &w.b[t] };
        for (int x = 0; x < 2; x++)
            if (o[x]->buf == c->c) { /* TRMM's output: the window of C itself, not transposed */
                o[x]->buf = s->scratch;
                o[x]->off = s->at[k];
                o[x]->ld = w.M;
            }
    }
    w.c = s->scratch;
    w.offc = s->at[k];
    w.ldc = w.M;
    w.held = c->held + s->bytes;
    return w;
}

/* Does a share start from C's block (beta * C, or TRMM's input)? */
static int reads_c(const g3_call *c)
{
    return c->beta != 0 || c->beta_im != 0 || c->snapshot;
}

/* The non-empty pieces of block s (the diagonal block first). */
static void pieces(const g3_call *c, int by_cols, share *s)
{
    size_t lo = s->lo, hi = s->hi;
    rect r[2] = { { lo, hi, 0, c->N, 0 }, { 0, 0, 0, 0, 0 } };
    if (by_cols && c->tri) {
        r[0] = (rect){ lo, hi, lo, hi, c->tri };
        r[1] = c->tri == 1 ? (rect){ 0, lo, lo, hi, 0 } : (rect){ hi, c->M, lo, hi, 0 };
    } else if (by_cols) {
        r[0] = (rect){ 0, c->M, lo, hi, 0 };
    }
    s->n = 0;
    for (int k = 0; k < 2; k++)
        if (rows(&r[k]) && cols(&r[k]))
            s->piece[s->n++] = r[k];
}

/* Where the first fraction f of the work ends, along the cut. */
static double cut_at(const g3_call *c, size_t X, double f)
{
    if (c->tri == 1)
        return X * sqrt(f);
    if (c->tri == 2)
        return X * (1 - sqrt(1 - f));
    return X * f;
}

/* Does an input other than TRMM's output live in C's storage? */
static int input_in_c(const g3_call *c)
{
    size_t at = 0;
    cl_mem home = g3_storage(c->c, &at);
    for (int t = 0; t < c->nterms; t++) {
        if (c->a[t].buf && g3_storage(c->a[t].buf, &at) == home && !(c->snapshot == 1 && t == 0))
            return 1;
        if (c->b[t].buf && g3_storage(c->b[t].buf, &at) == home && !(c->snapshot == 2 && t == 0))
            return 1;
    }
    return 0;
}

/* The block boundaries along X (rows or columns) for nq queues: multiples
 * of the tile gran, balanced by work; with whole, all of X on queue 0. */
static void boundaries(const g3_call *c, size_t X, size_t gran, int whole, cl_uint nq, share *s)
{
    size_t prev = 0;
    for (cl_uint i = 0; i < nq; i++) {
        size_t b = X;
        if (i + 1 < nq && !whole) {
            b = (size_t)(cut_at(c, X, (double)(i + 1) / nq) / gran + 0.5) * gran;
            b = b < prev ? prev : b > X ? X : b;
        }
        s[i].lo = prev;
        s[i].hi = b;
        prev = b;
    }
}

/* Cuts c among the queues: fills each share's block, pieces and whether
 * it is remote.  whole: all on queue 0. */
static void plan_split(const g3_call *c, cl_uint nq, const g3_device **dev, int whole, share *s)
{
    int cols_ok = 1, rows_ok = !c->tri, several = 0, apart = 0;
    for (int t = 0; t < c->nterms; t++) {
        cols_ok &= c->b[t].shape == G3_GENERAL;
        rows_ok &= c->a[t].shape == G3_GENERAL;
    }
    int by_cols = cols_ok && (!rows_ok || c->N >= c->M);
    size_t gran = 1;
    for (cl_uint i = 0; i < nq; i++) {
        const g3_params *p = &dev[i]->sets[c->dbl][G3_SHAPE_LARGE].p;
        size_t tile = (size_t)(by_cols ? p->nwg : p->mwg);
        if (tile > gran)
            gran = tile;
        several |= dev[i] != dev[0];
        apart |= dev[i] != dev[0] && !(dev[i]->host_memory && dev[0]->host_memory);
    }
    whole |= apart || (several && input_in_c(c));
    boundaries(c, by_cols ? c->N : c->M, gran, whole, nq, s);
    for (cl_uint i = 0; i < nq; i++) {
        pieces(c, by_cols, &s[i]);
        s[i].remote = dev[i] != dev[0] && s[i].n;
    }
}

static gpublas3Status queue_devices(const g3_call *c, cl_uint nq, cl_command_queue *qs, const g3_device **dev)
{
    for (cl_uint i = 0; i < nq; i++) {
        gpublas3Status st = g3_device_of(qs[i], &dev[i]);
        if (st != gpublas3Success)
            return st;
        if (c->dbl && !dev[i]->has_fp64)
            return gpublas3InvalidDevice;
    }
    return gpublas3Success;
}

/* Scratch for every remote share, from its device's pool, before anything
 * writes C, where the device's limit lets the share's own GEMM run beside
 * it (g3_hold_fits). */
static gpublas3Status acquire_scratch(const g3_call *c, cl_uint nq, const g3_device **dev, share *s)
{
    for (cl_uint i = 0; i < nq; i++) {
        if (!s[i].remote)
            continue;
        size_t total = 0;
        for (int k = 0; k < s[i].n; k++) {
            s[i].at[k] = total;
            total += rows(&s[i].piece[k]) * cols(&s[i].piece[k]);
        }
        s[i].bytes = total * elem_bytes(c);
        if (!g3_hold_fits(dev[i], c, s[i].bytes))
            return gpublas3OutOfResources;
        gpublas3Status st = g3_scratch_acquire(dev[i], &s[i].chain, 1, &s[i].bytes, &s[i].scratch);
        if (st != gpublas3Success)
            return st;
    }
    return gpublas3Success;
}

static void release_scratch(cl_uint nq, const g3_device **dev, share *s)
{
    for (cl_uint i = 0; i < nq; i++)
        if (s[i].scratch) {
            g3_scratch_release(dev[i], &s[i].chain, 1, &s[i].scratch);
            s[i].scratch = NULL;
        }
}

/* Share s's pieces on its own queue: into C, or (remote) into its scratch
 * after C's block when the call reads it. */
static gpublas3Status enqueue_share(const g3_call *c, share *s)
{
    /* the scratch is overwritten whole (a triangle's other half is never
     * copied out); queue 0 read it last */
    gpublas3Status st = s->remote ? g3_scratch_resident(&s->chain, 1, &s->scratch) : gpublas3Success;
    for (int k = 0; k < s->n && st == gpublas3Success; k++) {
        const rect *r = &s->piece[k];
        if (s->remote && reads_c(c))
            st = g3_copy_matrix(&s->chain, c->c, in_c(c, r), c->ldc, s->scratch, s->at[k], rows(r), rows(r),
                                cols(r), elem_bytes(c));
        g3_call w = s->remote ? in_scratch(c, s, k) : window(c, r);
        if (st == gpublas3Success)
            st = g3_enqueue(&w, &s->chain);
    }
    return st;
}

/* Remote share s's pieces into C on queue 0, after the share: the chain
 * moves to queue 0 (its scratch is released with that queue, and
 * events[i] is the last copy). */
static gpublas3Status copy_back(const g3_call *c, const g3_device *home, cl_command_queue q0, share *s)
{
    s->chain.q = q0;
    gpublas3Status st = gpublas3Success;
    int cs = c->cplx ? 1 : 0;
    for (int k = 0; k < s->n && st == gpublas3Success; k++) {
        const rect *r = &s->piece[k];
        if (r->tri) /* the stored triangle only (at[k] is 0: the triangle comes first) */
            st = g3_reduce_launch(home, &home->sets[c->dbl][G3_SHAPE_LARGE], c->dbl, rows(r) << cs, cols(r), 1,
                                  1.0, 0.0, s->scratch, c->c, in_c(c, r) << cs, c->ldc << cs, r->tri, cs,
                                  &s->chain);
        else
            st = g3_copy_matrix(&s->chain, s->scratch, s->at[k], rows(r), c->c, in_c(c, r), c->ldc, rows(r),
                                cols(r), elem_bytes(c));
    }
    return st;
}

/* One line per share for GPUBLAS3_VERBOSE (before each piece's plan). */
static void describe(cl_uint nq, const share *s)
{
    for (cl_uint i = 0; i < nq; i++) {
        char line[256];
        int n = snprintf(line, sizeof line, "gpublas3: split: queue %u:", i);
        for (int k = 0; k < s[i].n && n > 0 && (size_t)n < sizeof line; k++) {
            const rect *r = &s[i].piece[k];
            n += snprintf(line + n, sizeof line - n, " rows %zu-%zu x cols %zu-%zu%s", r->m0, r->m1, r->n0, r->n1,
                          r->tri ? " (triangle)" : "");
        }
        fprintf(stderr, "%s%s\n", line,
                !s[i].n ? " nothing" : s[i].remote ? ", on another device: in its scratch, copied by queue 0" : "");
    }
}

/* Enqueues everything: the remote shares' scratch (else all on queue 0),
 * every share on its queue, then the remote blocks' copies into C. */
static gpublas3Status enqueue_all(const g3_call *c, cl_uint nq, cl_command_queue *qs, const g3_device **dev,
                                  share *s)
{
    gpublas3Status st = acquire_scratch(c, nq, dev, s);
    if (st == gpublas3OutOfResources) {
        release_scratch(nq, dev, s);
        for (cl_uint i = 0; i < nq; i++) {
            g3_chain_abandon(&s[i].chain);
            g3_chain_init(&s[i].chain, qs[i], s[i].chain.nwait, s[i].chain.wait);
        }
        plan_split(c, nq, dev, 1, s);
        st = gpublas3Success;
    }
    if (st == gpublas3Success && g3_plan_verbose())
        describe(nq, s);
    for (cl_uint i = 0; i < nq && st == gpublas3Success; i++)
        st = enqueue_share(c, &s[i]);
    for (cl_uint i = 0; i < nq && st == gpublas3Success; i++)
        if (s[i].remote)
            st = copy_back(c, dev[0], qs[0], &s[i]);
    release_scratch(nq, dev, s);
    return st;
}

gpublas3Status g3_split_run(const g3_call *c, cl_uint nq, cl_command_queue *qs, cl_uint nwait,
                            const cl_event *wait, cl_event *events)
{
    const g3_device **dev = malloc(nq * sizeof *dev);
    share *s = calloc(nq, sizeof *s);
    gpublas3Status st = dev && s ? gpublas3Success : gpublas3OutOfHostMemory;
    if (st == gpublas3Success)
        st = queue_devices(c, nq, qs, dev);
    if (st == gpublas3Success) {
        for (cl_uint i = 0; i < nq; i++)
            g3_chain_init(&s[i].chain, qs[i], nwait, wait);
        plan_split(c, nq, dev, 0, s);
        st = enqueue_all(c, nq, qs, dev, s);
    }
    cl_uint done = 0;
    for (; done < nq && st == gpublas3Success; done++)
        st = g3_chain_finish(&s[done].chain, events ? &events[done] : NULL);
    if (st != gpublas3Success && events)
        for (cl_uint i = 0; i + 1 < done; i++)
            clReleaseEvent(events[i]);
    for (cl_uint i = 0; s && i < nq; i++)
        g3_chain_abandon(&s[i].chain);
    free(dev);
    free(s);
    return st;
}

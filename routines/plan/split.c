/* One call over several command queues (clBLAS's numCommandQueues > 1):
 * C is cut into blocks of columns or of rows, one block per queue, and each
 * queue runs its block as a call of its own (g3_enqueue: its own plan, its
 * own packing of what the block reads, scratch from its own device's pool)
 * after the caller's wait list; events[i] is queue i's share, a marker
 * after the wait list when the share is empty.  Nothing waits on the host.
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
 * C) runs as two pieces: the rectangle above its diagonal block, a GEMM,
 * and the diagonal block, a small SYRK.
 *
 * Queues on different devices of one context write C through
 * non-overlapping sub-buffers, the one way OpenCL defines for several
 * devices to write one buffer at once; that needs column blocks (contiguous
 * in memory) starting at the devices' base-address alignment.  A call that
 * cannot be cut so (rows, an input in C's own buffer, a C that is itself a
 * sub-buffer, an ldc that no aligned column starts) runs whole on queue 0. */
#include <math.h>
#include <stdlib.h>
#include "plan.h"

typedef struct {
    size_t lo, hi;   /* the block: columns or rows [lo, hi) of C */
    cl_mem sub;      /* several devices: C's block as a sub-buffer */
    size_t origin;   /* its first element in C's buffer */
} share;

/* Bytes per element of C (complex calls are cut before complex.c maps
 * them to real ones: their blocks, offsets and sub-buffers count complex
 * elements). */
static size_t elem_bytes(const g3_call *c)
{
    return (size_t)(c->dbl ? 8 : 4) << (c->cplx ? 1 : 0);
}

/* op(o) from row r0 and column k0 on (o general). */
static g3_operand shift(g3_operand o, size_t r0, size_t k0)
{
    o.off += o.trans ? r0 * o.ld + k0 : r0 + k0 * o.ld;
    return o;
}

/* The part of call c that writes rows [m0, m1) x columns [n0, n1) of C,
 * storing triangle tri of it. */
static g3_call window(const g3_call *c, size_t m0, size_t m1, size_t n0, size_t n1, int tri)
{
    g3_call w = *c;
    w.M = m1 - m0;
    w.N = n1 - n0;
    w.tri = tri;
    for (int t = 0; t < c->nterms; t++) {
        if (m0)
            w.a[t] = shift(c->a[t], m0, 0);
        if (n0)
            w.b[t] = shift(c->b[t], 0, n0);
    }
    w.offc += m0 + n0 * c->ldc;
    /* a rectangle off the diagonal holds none of a Hermitian C's diagonal,
     * whose imaginary parts the kernel would zero at the window's own */
    if (!tri && w.cplx == G3_HERMITIAN)
        w.cplx = G3_CPLX;
    return w;
}

/* The pieces of block s (1 or 2), with C's buffer replaced by the block's
 * sub-buffer when there is one. */
static int pieces(const g3_call *c, int cols, const share *s, g3_call out[2])
{
    int n = 0;
    if (!cols)
        out[n++] = window(c, s->lo, s->hi, 0, c->N, 0);
    else if (c->tri == 1) {
        if (s->lo)
            out[n++] = window(c, 0, s->lo, s->lo, s->hi, 0);
        out[n++] = window(c, s->lo, s->hi, s->lo, s->hi, 1);
    } else if (c->tri == 2) {
        out[n++] = window(c, s->lo, s->hi, s->lo, s->hi, 2);
        if (s->hi < c->M)
            out[n++] = window(c, s->hi, c->M, s->lo, s->hi, 0);
    } else
        out[n++] = window(c, 0, c->M, s->lo, s->hi, 0);
    for (int i = 0; s->sub && i < n; i++) {
        g3_call *w = &out[i];
        for (int t = 0; t < w->nterms; t++) {
            g3_operand *o[2] = { &w->a[t], &w->b[t] };
            for (int k = 0; k < 2; k++)
                if (o[k]->buf == c->c) { /* TRMM's B, the output itself */
                    o[k]->buf = s->sub;
                    o[k]->off -= s->origin;
                }
        }
        w->c = s->sub;
        w->offc -= s->origin;
    }
    return n;
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

/* Can C's buffer be written by several devices at once, through one
 * sub-buffer per column block?  Inputs must live elsewhere (TRMM's B, the
 * output itself, excepted). */
static int subbuffers_possible(const g3_call *c)
{
    cl_mem parent = NULL;
    if (clGetMemObjectInfo(c->c, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL) != CL_SUCCESS ||
        parent)
        return 0;
    for (int t = 0; t < c->nterms; t++) {
        if (c->a[t].buf == c->c && !(c->snapshot == 1 && t == 0))
            return 0;
        if (c->b[t].buf == c->c && !(c->snapshot == 2 && t == 0))
            return 0;
    }
    return 1;
}

/* The block boundaries along X (rows or columns) for nq queues: multiples
 * of the tile gran, balanced by work; with align (bytes, several devices),
 * every inner boundary's column starts on an aligned address.  0 when no
 * such boundaries exist. */
static int boundaries(const g3_call *c, size_t X, size_t gran, size_t align, cl_uint nq, share *s)
{
    size_t es = elem_bytes(c), prev = 0;
    for (cl_uint i = 0; i < nq; i++) {
        size_t b = X;
        if (i + 1 < nq) {
            double at = cut_at(c, X, (double)(i + 1) / nq);
            b = (size_t)(at / gran + 0.5) * gran;
            if (b < prev)
                b = prev;
            size_t tries = 0;
            while (align && b < X && ((c->offc + b * c->ldc) * es) % align && tries++ < align)
                b++;
            if (align && b < X && ((c->offc + b * c->ldc) * es) % align)
                return 0;
            if (b > X)
                b = X;
        }
        s[i] = (share){ .lo = prev, .hi = b };
        prev = b;
    }
    return 1;
}

/* Sub-buffers of C, one per non-empty column block; 0 if one cannot be made. */
static int make_subbuffers(const g3_call *c, size_t align, cl_uint nq, share *s)
{
    size_t es = elem_bytes(c);
    for (cl_uint i = 0; i < nq; i++) {
        if (s[i].lo == s[i].hi)
            continue;
        size_t start = (c->offc + s[i].lo * c->ldc) * es;
        size_t end = (c->offc + (s[i].hi - 1) * c->ldc + c->M) * es;
        cl_buffer_region r = { start - start % align, end - (start - start % align) };
        cl_int err;
        s[i].sub = clCreateSubBuffer(c->c, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
        s[i].origin = r.origin / es;
        if (err != CL_SUCCESS)
            return 0;
    }
    return 1;
}

static void release_subbuffers(cl_uint nq, share *s)
{
    for (cl_uint i = 0; i < nq; i++)
        if (s[i].sub)
            clReleaseMemObject(s[i].sub);
}

/* Devices of the queues; fills align with the largest base-address
 * alignment (bytes) when they are not all one device, else 0. */
static gpublas3Status queue_devices(const g3_call *c, cl_uint nq, cl_command_queue *qs,
                                    const g3_device **dev, size_t *align)
{
    *align = 0;
    int several = 0;
    for (cl_uint i = 0; i < nq; i++) {
        gpublas3Status st = g3_device_of(qs[i], &dev[i]);
        if (st != gpublas3Success)
            return st;
        if (c->dbl && !dev[i]->has_fp64)
            return gpublas3InvalidDevice;
        several |= dev[i] != dev[0];
    }
    for (cl_uint i = 0; several && i < nq; i++) {
        cl_uint bits = 0;
        clGetDeviceInfo(dev[i]->dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL);
        size_t bytes = bits >= 64 ? bits / 8 : 8;
        if (bytes > *align)
            *align = bytes;
    }
    return gpublas3Success;
}

/* Cuts c among the queues: fills s and says whether the cut is by columns. */
static int plan_split(const g3_call *c, cl_uint nq, const g3_device **dev, size_t align, share *s)
{
    int cols_ok = 1, rows_ok = !c->tri;
    for (int t = 0; t < c->nterms; t++) {
        cols_ok &= c->b[t].shape == G3_GENERAL;
        rows_ok &= c->a[t].shape == G3_GENERAL;
    }
    int cols = cols_ok && (!rows_ok || align || c->N >= c->M);
    size_t gran = 1;
    for (cl_uint i = 0; i < nq; i++) {
        const g3_params *p = &dev[i]->sets[c->dbl][G3_SHAPE_LARGE].p;
        size_t tile = (size_t)(cols ? p->nwg : p->mwg);
        if (tile > gran)
            gran = tile;
    }
    size_t X = cols ? c->N : c->M;
    int whole = align && (!cols || !subbuffers_possible(c));
    if (whole || !boundaries(c, X, gran, align, nq, s)) {
        for (cl_uint i = 0; i < nq; i++)
            s[i] = (share){ .lo = i ? X : 0, .hi = X };
        return cols;
    }
    if (align && !make_subbuffers(c, align, nq, s)) {
        release_subbuffers(nq, s);
        for (cl_uint i = 0; i < nq; i++)
            s[i] = (share){ .lo = i ? X : 0, .hi = X };
    }
    return cols;
}

gpublas3Status g3_split_run(const g3_call *c, cl_uint nq, cl_command_queue *qs, cl_uint nwait,
                            const cl_event *wait, cl_event *events)
{
    const g3_device **dev = malloc(nq * sizeof *dev);
    share *s = calloc(nq, sizeof *s);
    gpublas3Status st = dev && s ? gpublas3Success : gpublas3OutOfHostMemory;
    size_t align = 0;
    if (st == gpublas3Success)
        st = queue_devices(c, nq, qs, dev, &align);
    int cols = st == gpublas3Success ? plan_split(c, nq, dev, align, s) : 0;
    cl_uint done = 0;
    for (; done < nq && st == gpublas3Success; done++) {
        g3_chain chain;
        g3_chain_init(&chain, qs[done], nwait, wait);
        g3_call piece[2];
        int n = s[done].lo < s[done].hi ? pieces(c, cols, &s[done], piece) : 0;
        for (int i = 0; i < n && st == gpublas3Success; i++)
            st = g3_enqueue(&piece[i], &chain);
        if (st != gpublas3Success)
            g3_chain_abandon(&chain);
        else
            st = g3_chain_finish(&chain, events ? &events[done] : NULL);
    }
    if (st != gpublas3Success && events)
        for (cl_uint i = 0; i + 1 < done; i++)
            clReleaseEvent(events[i]);
    if (s)
        release_subbuffers(nq, s);
    free(dev);
    free(s);
    return st;
}

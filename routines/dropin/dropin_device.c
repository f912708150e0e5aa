/* SPDX-License-Identifier: BSD-3-Clause */
/* Runs a planned host call (dropin_plan.c) on one device slot, as a
 * pipeline over three in-order queues of the slot:
 *
 *   up:    the shared operand, in chunks through two pinned buffers; then
 *          each panel's part of B (or A) and of C, packed into pinned memory
 *   run:   the panel's sub-calls through the cl_mem routines, after its
 *          upload; GEMM's, SYMM's and TRMM's through their internal entries
 *          with the call's g3_reuse, so that the shared operand is packed
 *          on the device by the first whole panel and read by the others
 *   down:  the panel's C back into pinned memory, after its sub-calls
 *
 * The host thread packs panel p while the device works on p-1 and p-2 and
 * unpacks a panel once its download is done; with RING panels in flight,
 * each has its own device and pinned buffers.  GEMM does not wait for the
 * whole shared matrix: its first panel is sent before it, and each chunk
 * of it, once sent, starts the slice of that panel's product it allows
 * (along K, or along M or N), so the device computes from the first chunk.  Copies between the caller's
 * arrays and pinned memory run on several threads, with streaming stores
 * and their sources prefetched from 1 MiB (host_copy.h).
 * Only the output's referenced part is written back (for SYRK and SYR2K
 * only the stored triangle), so ld padding and the other triangle keep
 * their bits.  With beta != 0 (all but TRMM), C never travels up: the
 * device computes alpha op(A) op(B) alone and the host adds beta C as it
 * writes each panel back, which saves a quarter of a square GEMM's
 * transfers and a copy of C into pinned memory.  A failure stops at a panel boundary: panels before it are
 * complete in the caller's array, later ones untouched, so the call can go
 * on elsewhere from there.
 *
 * GPUBLAS3_VERBOSE=1 prints one line per call: the plan and the host time
 * spent packing, unpacking and waiting.  For tests of the fallbacks,
 * GPUBLAS3_TEST_FAIL=n makes the n-th device sub-call of the process fail
 * as if the device had refused it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dropin.h"
#include "host.h"
#include "host_copy.h"
#include "routines.h"

enum { RING = 3 };
enum { DB_SHARED = 0, DB_X = 2, DB_Y = DB_X + RING };  /* device buffer indices */
enum { PIN_CHUNK = 0, PIN_PANEL = 2 };                   /* pinned buffer indices */

typedef struct {
    g3d_panel pn;
    cl_mem dx, dy;
    char *hy;          /* the panel's C in pinned memory */
    cl_event done;     /* its download */
    int active;
} stage;

typedef struct {
    g3h_slot *s;
    const g3d_call *c;   /* the call as the device runs it (beta 0 when the host adds beta C) */
    const g3d_plan *pl;
    double host_beta, host_beta_im; /* beta the host applies to C when it writes a panel back; 0: none */
    size_t es;
    cl_command_queue qup, qrun, qdown;
    cl_mem shared[2];
    int shared_ld[2];
    cl_event shared_ev, chunk_ev[2];
    stage st[RING];
    g3_reuse reuse;    /* the shared operand's packed copy, for GEMM, SYMM and TRMM panels */
    int reusing;
    double t_pack, t_unpack, t_wait;  /* host time spent, for GPUBLAS3_VERBOSE */
    size_t b_pack, b_unpack;
} engine;

/* ---- copies between the caller's arrays and tight images ---- */

typedef struct {
    char *img, *user;
    size_t col_bytes, ld_bytes, es;
    int cols, to_user;
    const g3d_call *c;
    const g3d_region *keep;  /* when writing back: keep only these rows' kept part */
    double beta, beta_im;    /* when writing back: user = img + beta * user (0: a copy) */
    int stream;              /* copies with streaming stores (host_copy.c) */
    size_t ahead;            /* bytes ahead the sources are prefetched (0: none) */
} copy_job;

static int scales(const copy_job *j)
{
    return j->beta != 0 || j->beta_im != 0;
}

static void copy_bytes(const copy_job *j, char *dst, const char *src, size_t len)
{
    if (j->stream)
        g3h_stream_copy(dst, src, len, j->ahead);
    else
        memcpy(dst, src, len);
}

/* Writes len bytes back (a column, or whole columns): a copy, or img + beta * user. */
static void put_column(const copy_job *j, char *usr, const char *img, size_t len)
{
    if (scales(j))
        g3h_add_scaled(usr, img, len, j->c->dbl, j->c->cplx, j->beta, j->beta_im, j->ahead);
    else
        copy_bytes(j, usr, img, len);
}

static void copy_columns(void *arg, int t, int n)
{
    copy_job *j = arg;
    int q0 = (int)((long long)j->cols * t / n), q1 = (int)((long long)j->cols * (t + 1) / n);
    /* whole columns, contiguous: one copy, whose prefetch runs on across them */
    if (!j->keep && j->ld_bytes == j->col_bytes) {
        size_t off = (size_t)q0 * j->col_bytes, len = (size_t)(q1 - q0) * j->col_bytes;
        if (j->to_user) put_column(j, j->user + off, j->img + off, len);
        else copy_bytes(j, j->img + off, j->user + off, len);
        return;
    }
    for (int q = q0; q < q1; q++) {
        char *img = j->img + (size_t)q * j->col_bytes, *usr = j->user + (size_t)q * j->ld_bytes;
        if (!j->to_user) {
            copy_bytes(j, img, usr, j->col_bytes);
        } else if (!j->keep) {
            put_column(j, usr, img, j->col_bytes);
        } else {
            int r0, r1;
            g3d_kept_rows(j->c, j->keep, j->keep->c0 + q, &r0, &r1);
            size_t skip = (size_t)(r0 - j->keep->r0) * j->es;
            if (r1 > r0)
                put_column(j, usr + skip, img + skip, (size_t)(r1 - r0) * j->es);
        }
    }
}

static size_t region_bytes(const g3d_region *r, size_t es)
{
    return (size_t)(r->r1 - r->r0) * (size_t)(r->c1 - r->c0) * es;
}

/* Region r of matrix mat <-> the tight image img. */
static void copy_region(engine *e, char mat, const g3d_region *r, char *img, int to_user)
{
    double t0 = g3h_seconds();
    const g3d_call *c = e->c;
    const char *base = mat == 'A' ? c->a : mat == 'B' ? c->b : c->c;
    int ld = mat == 'A' ? c->lda : mat == 'B' ? c->ldb : c->ldc;
    size_t bytes = region_bytes(r, e->es);
    copy_job j = { img, (char *)base + ((size_t)r->r0 + (size_t)r->c0 * (size_t)ld) * e->es,
                   (size_t)(r->r1 - r->r0) * e->es, (size_t)ld * e->es, e->es, r->c1 - r->c0, to_user,
                   c, to_user && (c->routine == G3D_SYRK || c->routine == G3D_SYR2K) ? r : NULL,
                   to_user && mat == 'C' ? e->host_beta : 0, to_user && mat == 'C' ? e->host_beta_im : 0,
                   bytes >= G3H_STREAM_MIN, bytes >= G3H_STREAM_MIN ? G3H_PREFETCH_AHEAD : 0 };
    g3h_parallel(copy_columns, &j, bytes >= ((size_t)4 << 20) ? j.cols : 1);
    *(to_user ? &e->t_unpack : &e->t_pack) += g3h_seconds() - t0;
    *(to_user ? &e->b_unpack : &e->b_pack) += bytes;
}

/* ---- sub-calls through the cl_mem routines ---- */

typedef struct { cl_mem buf; size_t off, ld; } place;

static place locate(const engine *e, const stage *st, g3d_at at)
{
    for (int k = 0; k < 2; k++)
        if (e->pl->shared[k] && at.mat == e->pl->shared[k])
            return (place){ e->shared[k], (size_t)at.r + (size_t)at.c * e->shared_ld[k], (size_t)e->shared_ld[k] };
    const g3d_region *r = at.mat == 'C' ? &st->pn.y : &st->pn.x;
    size_t ld = (size_t)(r->r1 - r->r0);
    return (place){ at.mat == 'C' ? st->dy : st->dx, (size_t)(at.r - r->r0) + (size_t)(at.c - r->c0) * ld, ld };
}

static int injected_failure(void)
{
    static long target = -1, count;
    long t = __atomic_load_n(&target, __ATOMIC_RELAXED);
    if (t < 0) {
        const char *env = getenv("GPUBLAS3_TEST_FAIL");
        t = env ? atol(env) : 0;
        __atomic_store_n(&target, t, __ATOMIC_RELAXED);
    }
    return t > 0 && __atomic_add_fetch(&count, 1, __ATOMIC_SEQ_CST) == t;
}

static gpublas3Transpose op_trans(char t)
{
    return t == 'N' ? gpublas3NoTrans : t == 'C' ? gpublas3ConjTrans : gpublas3Trans;
}

/* A complex sub-call of SYRK, SYR2K or TRSM: the C or Z routine, with
 * HERK and HER2K where the call is Hermitian. */
static cl_int run_complex(const engine *e, const g3d_op *o, place a, place b, place c, cl_uint nw,
                          const cl_event *w, cl_event *ev)
{
    const gpublas3Order cm = gpublas3ColumnMajor;
    gpublas3Transpose ta = op_trans(o->trans);
    gpublas3Uplo ul = o->uplo == 'U' ? gpublas3Upper : gpublas3Lower;
    gpublas3Side sd = o->side == 'L' ? gpublas3Left : gpublas3Right;
    gpublas3Diag dg = o->diag == 'U' ? gpublas3Unit : gpublas3NonUnit;
    cl_command_queue q = e->qrun;
    size_t m = (size_t)o->m, n = (size_t)o->n, k = (size_t)o->k;
    int herm = e->c->herm;
    if (e->c->dbl) {
        cl_double2 al = { { o->alpha, o->alpha_im } }, be = { { o->beta, o->beta_im } };
        switch (o->routine) {
        case G3D_SYRK: return herm ? gpublas3Zherk(cm, ul, ta, n, k, o->alpha, a.buf, a.off, a.ld, o->beta,
                                                   c.buf, c.off, c.ld, 1, &q, nw, w, ev)
                                   : gpublas3Zsyrk(cm, ul, ta, n, k, al, a.buf, a.off, a.ld, be,
                                                   c.buf, c.off, c.ld, 1, &q, nw, w, ev);
        case G3D_SYR2K: return herm ? gpublas3Zher2k(cm, ul, ta, n, k, al, a.buf, a.off, a.ld, b.buf, b.off, b.ld,
                                                     o->beta, c.buf, c.off, c.ld, 1, &q, nw, w, ev)
                                    : gpublas3Zsyr2k(cm, ul, ta, n, k, al, a.buf, a.off, a.ld, b.buf, b.off, b.ld,
                                                     be, c.buf, c.off, c.ld, 1, &q, nw, w, ev);
        case G3D_TRSM: return gpublas3Ztrsm(cm, sd, ul, ta, dg, m, n, al, a.buf, a.off, a.ld, c.buf, c.off, c.ld,
                                            1, &q, nw, w, ev);
        default: return CL_INVALID_VALUE;
        }
    }
    cl_float2 al = { { (float)o->alpha, (float)o->alpha_im } }, be = { { (float)o->beta, (float)o->beta_im } };
    float fa = (float)o->alpha, fb = (float)o->beta;
    switch (o->routine) {
    case G3D_SYRK: return herm ? gpublas3Cherk(cm, ul, ta, n, k, fa, a.buf, a.off, a.ld, fb,
                                               c.buf, c.off, c.ld, 1, &q, nw, w, ev)
                               : gpublas3Csyrk(cm, ul, ta, n, k, al, a.buf, a.off, a.ld, be,
                                               c.buf, c.off, c.ld, 1, &q, nw, w, ev);
    case G3D_SYR2K: return herm ? gpublas3Cher2k(cm, ul, ta, n, k, al, a.buf, a.off, a.ld, b.buf, b.off, b.ld,
                                                 fb, c.buf, c.off, c.ld, 1, &q, nw, w, ev)
                                : gpublas3Csyr2k(cm, ul, ta, n, k, al, a.buf, a.off, a.ld, b.buf, b.off, b.ld,
                                                 be, c.buf, c.off, c.ld, 1, &q, nw, w, ev);
    case G3D_TRSM: return gpublas3Ctrsm(cm, sd, ul, ta, dg, m, n, al, a.buf, a.off, a.ld, c.buf, c.off, c.ld,
                                        1, &q, nw, w, ev);
    default: return CL_INVALID_VALUE;
    }
}

/* One sub-call.  GEMM, SYMM (HEMM) and TRMM, of any type, go through the
 * routines' internal entries (routines.h), which take the call's series:
 * r, its shared operand packed once (NULL for a sub-call that uses only
 * part of it); the others through the cl_mem API. */
static cl_int run_op(const engine *e, const stage *st, const g3d_op *o, g3_reuse *r, cl_uint nw,
                     const cl_event *w, cl_event *ev)
{
    if (injected_failure())
        return CL_INVALID_OPERATION;
    const gpublas3Order cm = gpublas3ColumnMajor;
    gpublas3Transpose ta = op_trans(o->trans), tb = op_trans(o->transb);
    gpublas3Uplo ul = o->uplo == 'U' ? gpublas3Upper : gpublas3Lower;
    gpublas3Side sd = o->side == 'L' ? gpublas3Left : gpublas3Right;
    gpublas3Diag dg = o->diag == 'U' ? gpublas3Unit : gpublas3NonUnit;
    place a = locate(e, st, o->a), b = locate(e, st, o->b), c = locate(e, st, o->c);
    cl_command_queue q = e->qrun;
    size_t m = (size_t)o->m, n = (size_t)o->n, k = (size_t)o->k;
    int type = e->c->dbl | e->c->cplx << 1;
    g3_scalar al = { o->alpha, o->alpha_im }, be = { o->beta, o->beta_im };
    switch (o->routine) {
    case G3D_GEMM:
        return g3_gemm(r, type, cm, ta, tb, m, n, k, al, a.buf, a.off, a.ld, b.buf, b.off, b.ld, be,
                       c.buf, c.off, c.ld, 1, &q, nw, w, ev);
    case G3D_SYMM:
        return g3_symm(r, type, e->c->herm, cm, sd, ul, m, n, al, a.buf, a.off, a.ld, b.buf, b.off, b.ld, be,
                       c.buf, c.off, c.ld, 1, &q, nw, w, ev);
    case G3D_TRMM:
        return g3_trmm(r, type, cm, sd, ul, ta, dg, m, n, al, a.buf, a.off, a.ld, c.buf, c.off, c.ld,
                       1, &q, nw, w, ev);
    default:
        break;
    }
    if (e->c->cplx)
        return run_complex(e, o, a, b, c, nw, w, ev);
    double d_al = o->alpha, d_be = o->beta;
    float fa = (float)d_al, fb = (float)d_be;
    int d = e->c->dbl;
    switch (o->routine) {
    case G3D_SYRK:
        return d ? gpublas3Dsyrk(cm, ul, ta, n, k, d_al, a.buf, a.off, a.ld, d_be, c.buf, c.off, c.ld, 1, &q, nw, w, ev)
                 : gpublas3Ssyrk(cm, ul, ta, n, k, fa, a.buf, a.off, a.ld, fb, c.buf, c.off, c.ld, 1, &q, nw, w, ev);
    case G3D_SYR2K:
        return d ? gpublas3Dsyr2k(cm, ul, ta, n, k, d_al, a.buf, a.off, a.ld, b.buf, b.off, b.ld, d_be,
                                  c.buf, c.off, c.ld, 1, &q, nw, w, ev)
                 : gpublas3Ssyr2k(cm, ul, ta, n, k, fa, a.buf, a.off, a.ld, b.buf, b.off, b.ld, fb,
                                  c.buf, c.off, c.ld, 1, &q, nw, w, ev);
    case G3D_TRSM:
        return d ? gpublas3Dtrsm(cm, sd, ul, ta, dg, m, n, d_al, a.buf, a.off, a.ld, c.buf, c.off, c.ld,
                                 1, &q, nw, w, ev)
                 : gpublas3Strsm(cm, sd, ul, ta, dg, m, n, fa, a.buf, a.off, a.ld, c.buf, c.off, c.ld,
                                 1, &q, nw, w, ev);
    default:
        return CL_INVALID_VALUE;
    }
}

/* ---- the pipeline ---- */

static void drop(cl_event *ev)
{
    if (*ev)
        clReleaseEvent(*ev);
    *ev = NULL;
}

/* Columns of shared matrix k per chunk sent, and the number of chunks. */
static int chunk_columns(const engine *e, int k)
{
    int rows, cols;
    g3d_stored(e->c, e->pl->shared[k], &rows, &cols);
    size_t per = g3h_panel_bytes() / ((size_t)rows * e->es);
    return per < 1 ? 1 : per > (size_t)cols ? cols : (int)per;
}

static int shared_chunks(const engine *e, int k)
{
    int rows, cols;
    if (!e->pl->shared[k])
        return 0;
    g3d_stored(e->c, e->pl->shared[k], &rows, &cols);
    return (cols + chunk_columns(e, k) - 1) / chunk_columns(e, k);
}

/* The part of a panel's GEMM that needs only columns [c0, c1) of the
 * shared matrix: those columns run along K (a slice of the sum, beta only
 * in the first), along M (rows of C) or along N (columns of C). */
static g3d_op slice(const g3d_op *o, char mat, int c0, int c1)
{
    g3d_op s = *o;
    int tr = mat == 'A' ? o->trans != 'N' : o->transb == 'N';  /* the columns run along M or N */
    if (tr && mat == 'A') {
        s.m = c1 - c0;
        s.a.c += c0;
        s.c.r += c0;
    } else if (tr) {
        s.n = c1 - c0;
        s.b.c += c0;
        s.c.c += c0;
    } else {
        s.k = c1 - c0;
        if (o->trans == 'N') s.a.c += c0; else s.a.r += c0;
        if (o->transb == 'N') s.b.r += c0; else s.b.c += c0;
        if (c0 > 0) s.beta = 1, s.beta_im = 0;
    }
    return s;
}

/* Enqueues ops on the run queue, the first after *ready (consumed); *ready
 * becomes the last one's event. */
static cl_int run_ops(const engine *e, const stage *st, const g3d_op *ops, int n, g3_reuse *r, cl_event *ready)
{
    cl_int err = CL_SUCCESS;
    for (int i = 0; i < n && err == CL_SUCCESS; i++) {
        cl_event ev = NULL;
        err = run_op(e, st, &ops[i], r, *ready ? 1 : 0, *ready ? ready : NULL, &ev);
        if (err == CL_SUCCESS) {
            drop(ready);
            *ready = ev;
        }
    }
    if (err == CL_SUCCESS)
        err = clFlush(e->qrun);
    return err;
}

/* Packs panel p's parts of the streamed matrix and of C into pinned memory
 * and sends them; *ready becomes the last send's event (NULL if none). */
static cl_int send_panel(engine *e, int p, cl_event *ready)
{
    stage *st = &e->st[p % RING];
    g3d_plan_panel(e->c, e->pl, p, &st->pn);
    size_t xb = region_bytes(&st->pn.x, e->es), yb = region_bytes(&st->pn.y, e->es);
    size_t yoff = (xb + 4095) & ~(size_t)4095;
    cl_int err = CL_SUCCESS;
    char *pin = g3h_pinned_get(e->s, PIN_PANEL + p % RING, yoff + yb, &err);
    st->dx = xb ? g3h_devbuf_get(e->s, DB_X + p % RING, xb, &err) : NULL;
    if (err == CL_SUCCESS)
        st->dy = g3h_devbuf_get(e->s, DB_Y + p % RING, yb, &err);
    if (!pin || err != CL_SUCCESS)
        return err != CL_SUCCESS ? err : CL_OUT_OF_HOST_MEMORY;
    st->hy = pin + yoff;
    *ready = NULL;
    if (xb) {
        copy_region(e, e->pl->xmat, &st->pn.x, pin, 0);
        err = clEnqueueWriteBuffer(e->qup, st->dx, CL_FALSE, 0, xb, pin, 0, NULL, ready);
    }
    if (err == CL_SUCCESS && e->pl->reads_c) {
        cl_event ev = NULL;
        copy_region(e, 'C', &st->pn.y, st->hy, 0);
        err = clEnqueueWriteBuffer(e->qup, st->dy, CL_FALSE, 0, yb, st->hy, 0, NULL, &ev);
        drop(ready);
        *ready = ev;
    }
    if (err == CL_SUCCESS)
        err = clFlush(e->qup);
    return err;
}

/* Enqueues the panel's C back into pinned memory after `ready` (consumed). */
static cl_int fetch_panel(const engine *e, stage *st, cl_event ready)
{
    size_t yb = region_bytes(&st->pn.y, e->es);
    cl_int err = clEnqueueReadBuffer(e->qdown, st->dy, CL_FALSE, 0, yb, st->hy, ready ? 1 : 0,
                                     ready ? &ready : NULL, &st->done);
    if (err == CL_SUCCESS)
        err = clFlush(e->qdown);
    if (ready)
        clReleaseEvent(ready);
    st->active = err == CL_SUCCESS;
    return err;
}

/* Sends the shared matrices whole, column chunks alternating between two
 * pinned buffers so that packing one overlaps sending the other.  With
 * `early` (a GEMM panel already sent), each chunk of the first shared
 * matrix starts that panel's slice of the product that needs only it, so
 * the device computes while the rest of the matrix is still on its way;
 * *early_ready chains those slices. */
static cl_int send_shared(engine *e, stage *early, cl_event *early_ready)
{
    cl_int err = CL_SUCCESS;
    int n = 0;
    for (int k = 0; k < 2 && e->pl->shared[k] && err == CL_SUCCESS; k++) {
        int rows, cols;
        char mat = e->pl->shared[k];
        g3d_stored(e->c, mat, &rows, &cols);
        size_t col = (size_t)rows * e->es;
        e->shared_ld[k] = rows;
        e->shared[k] = g3h_devbuf_get(e->s, DB_SHARED + k, col * (size_t)cols, &err);
        int step = chunk_columns(e, k);
        for (int c0 = 0; c0 < cols && err == CL_SUCCESS; c0 += step, n++) {
            int c1 = c0 + step < cols ? c0 + step : cols, i = n % 2;
            g3d_region r = { 0, rows, c0, c1 };
            if (e->chunk_ev[i] && (err = clWaitForEvents(1, &e->chunk_ev[i])) != CL_SUCCESS)
                break;
            drop(&e->chunk_ev[i]);
            char *pin = g3h_pinned_get(e->s, PIN_CHUNK + i, region_bytes(&r, e->es), &err);
            if (!pin)
                break;
            copy_region(e, mat, &r, pin, 0);
            err = clEnqueueWriteBuffer(e->qup, e->shared[k], CL_FALSE, (size_t)c0 * col, region_bytes(&r, e->es),
                                       pin, 0, NULL, &e->chunk_ev[i]);
            if (err == CL_SUCCESS)
                err = clFlush(e->qup);
            if (err == CL_SUCCESS && early && k == 0) {
                /* In-order sends: this chunk's arrival implies the panel's. */
                g3d_op piece = slice(&early->pn.op[0], mat, c0, c1);
                drop(early_ready);
                *early_ready = e->chunk_ev[i];
                clRetainEvent(*early_ready);
                err = run_ops(e, early, &piece, 1, NULL, early_ready);
            }
        }
    }
    if (err == CL_SUCCESS && n > 0) {
        e->shared_ev = e->chunk_ev[(n - 1) % 2];
        clRetainEvent(e->shared_ev);
    }
    return err;
}

/* Packs, sends, runs and fetches panel p (all enqueued, nothing waited on). */
static cl_int start_panel(engine *e, int p)
{
    stage *st = &e->st[p % RING];
    cl_event ready = NULL;
    cl_int err = send_panel(e, p, &ready);
    if (err == CL_SUCCESS && !ready && e->shared_ev) {
        ready = e->shared_ev;
        clRetainEvent(ready);
    }
    /* In-order sends: the panel's last send arriving means the shared
     * matrices (sent before) have too. */
    if (err == CL_SUCCESS)
        err = run_ops(e, st, st->pn.op, st->pn.nops, e->reusing ? &e->reuse : NULL, &ready);
    if (err == CL_SUCCESS) {
        err = fetch_panel(e, st, ready);
        ready = NULL;
    }
    drop(&ready);
    return err;
}

/* Waits for a panel's download and writes its kept part to the caller's C. */
static cl_int finish_panel(engine *e, stage *st)
{
    double t0 = g3h_seconds();
    cl_int err = clWaitForEvents(1, &st->done);
    e->t_wait += g3h_seconds() - t0;
    drop(&st->done);
    st->active = 0;
    if (err == CL_SUCCESS)
        copy_region(e, 'C', &st->pn.y, st->hy, 1);
    return err;
}

/* Grows every buffer the panels will need before anything is enqueued, so
 * that a device too small fails before the call has started, and no buffer
 * is swapped while the pipeline runs. */
static cl_int reserve(engine *e, int first)
{
    size_t xb = 0, yb = 0;
    for (int p = first; p < e->pl->npanels; p++) {
        g3d_panel pn;
        g3d_plan_panel(e->c, e->pl, p, &pn);
        size_t x = region_bytes(&pn.x, e->es), y = region_bytes(&pn.y, e->es);
        xb = x > xb ? x : xb;
        yb = y > yb ? y : yb;
    }
    cl_int err = CL_SUCCESS;
    int ring = e->pl->npanels - first < RING ? e->pl->npanels - first : RING;
    for (int i = 0; i < ring && err == CL_SUCCESS; i++) {
        if (!g3h_pinned_get(e->s, PIN_PANEL + (first + i) % RING, ((xb + 4095) & ~(size_t)4095) + yb, &err))
            break;
        if (xb && !g3h_devbuf_get(e->s, DB_X + (first + i) % RING, xb, &err))
            break;
        g3h_devbuf_get(e->s, DB_Y + (first + i) % RING, yb, &err);
    }
    return err;
}

/* GPUBLAS3_VERBOSE: one line per call on where its time went. */
static void report(const engine *e, const char *name, int early, double t, cl_int err)
{
    const g3d_call *c = e->c;
    char once[96] = "";
    if (e->reusing)
        snprintf(once, sizeof once, ", %c packed %d time(s) for %d panel(s)", e->pl->shared[0], e->reuse.packs,
                 e->reuse.packs + e->reuse.reads);
    fprintf(stderr, "gpublas3: %.*s m=%d n=%d k=%d on %s: %d panel(s) of %d (%s%s%s), %s %.4f s; host packing "
            "%.4f s (%.3f GB), unpacking %.4f s (%.3f GB), waiting %.4f s\n", (int)strcspn(name, " "), name, c->m,
            c->n, c->k, g3h_device_name(e->s), e->pl->npanels, e->pl->width,
            early ? "early start" : "whole shared first",
            e->host_beta != 0 || e->host_beta_im != 0 ? ", beta C on the host" : "", once,
            err == CL_SUCCESS ? "done in" : "FAILED after", t, e->t_pack, 1e-9 * (double)e->b_pack, e->t_unpack,
            1e-9 * (double)e->b_unpack, e->t_wait);
}

int g3d_device_run(g3h_slot *s, const g3d_call *call, const g3d_plan *plan, int *first, const char *name)
{
    /* beta C on the host: the device runs the call with beta 0 and never
     * reads C.  Not where C must travel: TRMM's and TRSM's output is their
     * operand B, and HERK's and HER2K's diagonal comes back with imaginary
     * part 0, which img + beta C would not keep. */
    g3d_call dc = *call;
    g3d_plan dpl = *plan;
    int c_travels = call->routine == G3D_TRMM || call->routine == G3D_TRSM ||
                    (call->herm && (call->routine == G3D_SYRK || call->routine == G3D_SYR2K));
    double host_beta = c_travels ? 0 : call->beta, host_beta_im = c_travels ? 0 : call->beta_im;
    if (!c_travels) {
        dc.beta = dc.beta_im = 0;
        dpl.reads_c = 0;
    }
    const g3d_call *c = &dc;
    const g3d_plan *pl = &dpl;
    engine e = { .s = s, .c = c, .pl = pl, .host_beta = host_beta, .host_beta_im = host_beta_im,
                 .es = g3d_elem_size(c) };
    double t0 = g3h_seconds();
    int chunks = shared_chunks(&e, 0);
    /* GEMM's first panel can start on the first chunk of the shared matrix. */
    int early = c->routine == G3D_GEMM && chunks > 1;
    /* One panel and one chunk gain nothing from three queues: keep one. */
    int one = pl->npanels - *first <= 1 && chunks <= 1;
    e.qup = s->q[one ? G3H_RUN : G3H_UP];
    e.qrun = s->q[G3H_RUN];
    e.qdown = s->q[one ? G3H_RUN : G3H_DOWN];
    /* GEMM's, SYMM's and TRMM's panels each multiply by the whole shared
     * operand: it is packed on the device once, by the first panel, and
     * the others read that copy (SYRK's and SYR2K's panels use parts of
     * it; TRSM's solve reads its inverted diagonal blocks). */
    e.reusing = pl->shared[0] && pl->npanels - *first > 1 &&
                (c->routine == G3D_GEMM || c->routine == G3D_SYMM || c->routine == G3D_TRMM);

    int p = *first;
    cl_int err = reserve(&e, p);
    if (err == CL_SUCCESS && early) {
        cl_event ready = NULL;
        err = send_panel(&e, p, &ready);
        if (err == CL_SUCCESS)
            err = send_shared(&e, &e.st[p % RING], &ready);
        g3_reuse_init(&e.reuse, e.shared[0]);
        if (err == CL_SUCCESS) {
            err = fetch_panel(&e, &e.st[p % RING], ready);
            ready = NULL;
        }
        drop(&ready);
        p++;
    } else if (err == CL_SUCCESS) {
        err = send_shared(&e, NULL, NULL);
        g3_reuse_init(&e.reuse, e.shared[0]);
    }
    for (; p < pl->npanels && err == CL_SUCCESS; p++) {
        stage *st = &e.st[p % RING];
        if (st->active) {
            if ((err = finish_panel(&e, st)) != CL_SUCCESS)
                break;
            (*first)++;
        }
        err = start_panel(&e, p);
    }
    /* The panels in flight are independent of any that failed to start:
     * bring them back, in order. */
    for (int q = *first; q < pl->npanels && e.st[q % RING].active; q++) {
        cl_int done = finish_panel(&e, &e.st[q % RING]);
        if (done != CL_SUCCESS) {
            err = err != CL_SUCCESS ? err : done;
            break;
        }
        (*first)++;
    }
    if (err != CL_SUCCESS) {
        /* Let everything in flight end before its buffers are reused. */
        for (int i = 0; i < G3H_NQUEUES; i++)
            clFinish(s->q[i]);
        for (int i = 0; i < RING; i++)
            drop(&e.st[i].done);
    }
    drop(&e.shared_ev);
    drop(&e.chunk_ev[0]);
    drop(&e.chunk_ev[1]);
    if (g3h_verbose())
        report(&e, name, early, g3h_seconds() - t0, err);
    g3_reuse_release(&e.reuse);
    return err;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* The one launch helper, the one matrix copy (buffer to buffer, as a
 * command) and the event chain.  Steps of one call are chained by events,
 * never by a host wait, so a call only enqueues and returns; the chain also
 * works on out-of-order queues. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core.h"

static int trace_on;
static pthread_once_t env_once = PTHREAD_ONCE_INIT;
static void read_env(void)
{
    const char *e = getenv("GPUBLAS3_TRACE");
    trace_on = e && *e && *e != '0';
}

/* GPUBLAS3_TRACE=1, on a queue made with profiling on (gpublas3-bench
 * under GPUBLAS3_BENCH_PROFILE=1): each call waits for its steps and prints
 * each one's device time, the gap before it, and when the host enqueued it
 * (from the first), from the events' profiling times; and the host's own
 * time: since the previous step's enqueue returned, setting the kernel's
 * arguments, and the enqueue call.  It says whether a short call's time is
 * its kernels or the gaps between its launches, and whose the gaps are,
 * which a wall-clock time cannot (docs/performance.md).  A measuring
 * tool: it makes every call wait. */
#define TRACE_MAX 64
static _Thread_local struct {
    cl_event ev;
    char name[24];
    double before, args, enqueue; /* host µs */
} trace[TRACE_MAX];
static _Thread_local int ntrace;
static _Thread_local double trace_mark; /* host µs when the last traced enqueue returned */

static double host_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* t0: the step began (before its kernel's lookup and arguments), t1: its
 * enqueue call began; now: that call returned */
static void trace_step(cl_event ev, const char *name, double t0, double t1)
{
    const double now = host_us();
    if (ntrace == TRACE_MAX || clRetainEvent(ev) != CL_SUCCESS)
        return;
    trace[ntrace].ev = ev;
    snprintf(trace[ntrace].name, sizeof trace[ntrace].name, "%s", name);
    trace[ntrace].before = ntrace ? t0 - trace_mark : 0;
    trace[ntrace].args = t1 - t0;
    trace[ntrace].enqueue = now - t1;
    trace_mark = now;
    ntrace++;
}

static void trace_print(void)
{
    cl_ulong first = 0, prev = 0, busy = 0;
    for (int i = 0; i < ntrace; i++) {
        cl_ulong q = 0, s = 0, e = 0;
        clWaitForEvents(1, &trace[i].ev);
        clGetEventProfilingInfo(trace[i].ev, CL_PROFILING_COMMAND_QUEUED, sizeof q, &q, NULL);
        clGetEventProfilingInfo(trace[i].ev, CL_PROFILING_COMMAND_START, sizeof s, &s, NULL);
        clGetEventProfilingInfo(trace[i].ev, CL_PROFILING_COMMAND_END, sizeof e, &e, NULL);
        if (i == 0)
            first = prev = q;
        fprintf(stderr,
                "gpublas3: trace: step %d %-20s queued %8.1f gap %8.1f run %8.1f us; host: before %6.1f args %6.1f"
                " enqueue %6.1f us\n", i, trace[i].name, (q - first) / 1e3, (s > prev ? s - prev : 0) / 1e3,
                (e - s) / 1e3, trace[i].before, trace[i].args, trace[i].enqueue);
        busy += e - s;
        prev = e;
        clReleaseEvent(trace[i].ev);
    }
    if (ntrace)
        fprintf(stderr, "gpublas3: trace: %d steps, first queued to last end %.1f us, running %.1f us\n", ntrace,
                (prev - first) / 1e3, busy / 1e3);
    ntrace = 0;
}

/* PoCL's CPU device (3.1) loads a kernel's code once more for each grid
 * wider than it has loaded the code for: a launch takes a reference on the
 * copy that fits its grid, but gives one back on whichever copy was loaded
 * last, in any context or device of the process.  With two launches of a
 * kernel running side by side when a wider one loads a new copy, that
 * copy's count falls below zero and PoCL aborts
 * (pocl_release_dlhandle_cache: "ref_count > 0"; tests/cl/test_inflight.c
 * makes it happen).  So there (g3_device.one_launch) a kernel's launch
 * waits for its previous launch while that may still run: a dependency on
 * the device in the same context (its queue flushed, as a wait across
 * queues needs), a wait on the host across contexts, where no dependency
 * can be stated.
 *
 * Except a call gated by its caller (on a user event not yet set, or on a
 * gated call's event): no later launch waits for its launches, which would
 * hold up calls that do not wait for it (tests/reliability/test_pool.c
 * checks that they finish).  Its launches still wait for the ones before.
 * What this leaves: gated calls opened together may run side by side, and
 * a call behind the caller's own gated commands on an in-order queue,
 * which the library does not see, still holds up the later launches of
 * its kernels. */
static int pending(cl_event e)
{
    cl_int status = CL_COMPLETE;
    return e && clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL) == CL_SUCCESS &&
           status > CL_COMPLETE; /* not done, nor failed */
}

/* The events that gated calls gave their callers, while pending. */
typedef struct gated_ev {
    cl_event ev;
    struct gated_ev *next;
} gated_ev;
static gated_ev *gated_evs;
static pthread_mutex_t gated_lock = PTHREAD_MUTEX_INITIALIZER;

static int gated_call(const g3_chain *c)
{
    int gated = 0;
    pthread_mutex_lock(&gated_lock);
    for (gated_ev **g = &gated_evs; *g;) /* drop the finished */
        if (pending((*g)->ev))
            g = &(*g)->next;
        else {
            gated_ev *done = *g;
            *g = done->next;
            clReleaseEvent(done->ev);
            free(done);
        }
    for (cl_uint i = 0; i < c->nwait && !gated; i++) {
        cl_command_type type = 0;
        if (!pending(c->wait[i]))
            continue;
        gated = clGetEventInfo(c->wait[i], CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL) == CL_SUCCESS &&
                type == CL_COMMAND_USER;
        for (gated_ev *g = gated_evs; g && !gated; g = g->next)
            gated = g->ev == c->wait[i];
    }
    pthread_mutex_unlock(&gated_lock);
    return gated;
}

static void note_gated(cl_event ev)
{
    gated_ev *g = malloc(sizeof *g);
    if (!g) /* then a call waiting on it may wait for more than it asked */
        return;
    clRetainEvent(ev);
    pthread_mutex_lock(&gated_lock);
    *g = (gated_ev){ ev, gated_evs };
    gated_evs = g;
    pthread_mutex_unlock(&gated_lock);
}

void g3_launch_release_all(void)
{
    pthread_mutex_lock(&gated_lock);
    while (gated_evs) {
        gated_ev *g = gated_evs;
        gated_evs = g->next;
        clReleaseEvent(g->ev);
        free(g);
    }
    pthread_mutex_unlock(&gated_lock);
}

/* The launch itself, under k's lock; where one at a time (one: k's
 * launches), after and under the lock of its kernel's launches. */
static cl_int enqueue_after(g3_chain *c, const g3_device *d, g3_kern *k, g3_launches *one, cl_uint dims,
                            const size_t *global, const size_t *local, cl_event *ev)
{
    const cl_event *deps;
    cl_uint ndeps = g3_chain_deps(c, &deps);
    cl_event *more = NULL;
    if (one && c->gated < 0)
        c->gated = gated_call(c);
    if (one && pending(one->last)) {
        cl_context ctx = NULL;
        cl_command_queue q = NULL;
        clGetEventInfo(one->last, CL_EVENT_CONTEXT, sizeof ctx, &ctx, NULL);
        if (ctx != d->ctx)
            clWaitForEvents(1, &one->last);
        else if ((more = malloc((ndeps + 1) * sizeof *more))) {
            if (ndeps)
                memcpy(more, deps, ndeps * sizeof *deps);
            more[ndeps++] = one->last;
            deps = more;
            if (clGetEventInfo(one->last, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, NULL) == CL_SUCCESS)
                clFlush(q);
        } else
            return CL_OUT_OF_HOST_MEMORY;
    }
    cl_int err = clEnqueueNDRangeKernel(c->q, k->kernel, dims, NULL, global, local, ndeps, deps, ev);
    free(more);
    if (err == CL_SUCCESS && one && !c->gated) {
        if (one->last)
            clReleaseEvent(one->last);
        clRetainEvent(*ev);
        one->last = *ev;
    }
    return err;
}

static cl_int enqueue(g3_chain *c, const g3_device *d, g3_kern *k, cl_uint dims, const size_t *global,
                      const size_t *local, cl_event *ev)
{
    g3_launches *one = d->one_launch ? k->launches : NULL;
    if (one)
        pthread_mutex_lock(&one->lock);
    cl_int err = enqueue_after(c, d, k, one, dims, global, local, ev);
    if (one)
        pthread_mutex_unlock(&one->lock);
    return err;
}

void g3_chain_init(g3_chain *c, cl_command_queue q, cl_uint nwait, const cl_event *wait)
{
    pthread_once(&env_once, read_env);
    *c = (g3_chain){ q, nwait, wait, NULL, 0, 0, 0, -1 };
}

cl_uint g3_chain_deps(const g3_chain *c, const cl_event **deps)
{
    if (c->last) {
        *deps = &c->last;
        return 1;
    }
    *deps = c->nwait ? c->wait : NULL;
    return c->nwait;
}

void g3_chain_push(g3_chain *c, cl_event ev)
{
    if (c->last)
        clReleaseEvent(c->last);
    c->last = ev;
    c->steps++;
}

gpublas3Status g3_chain_finish(g3_chain *c, cl_event *events)
{
    if (ntrace)
        trace_print();
    if (!events) {
        g3_chain_abandon(c);
        return gpublas3Success;
    }
    if (!c->last) {
        /* Nothing enqueued (a quick return): the caller still gets an event
         * that completes after its wait list. */
        cl_int err = clEnqueueMarkerWithWaitList(c->q, c->nwait, c->nwait ? c->wait : NULL, &c->last);
        if (err != CL_SUCCESS)
            return (gpublas3Status)err;
    }
    if (c->gated == 1)
        note_gated(c->last);
    events[0] = c->last;
    c->last = NULL;
    return gpublas3Success;
}

void g3_chain_abandon(g3_chain *c)
{
    for (; ntrace > 0; ntrace--)
        clReleaseEvent(trace[ntrace - 1].ev);
    if (c->last)
        clReleaseEvent(c->last);
    c->last = NULL;
}

g3_arg g3_scalar_arg(int dbl, int cplx, double re, double im, g3_scalar_val *s)
{
    if (cplx && dbl) {
        s->z = (cl_double2){ { re, im } };
        return G3_ARG(s->z);
    }
    if (cplx) {
        s->c = (cl_float2){ { (cl_float)re, (cl_float)im } };
        return G3_ARG(s->c);
    }
    if (dbl) {
        s->d = re;
        return G3_ARG(s->d);
    }
    s->f = (cl_float)re;
    return G3_ARG(s->f);
}

gpublas3Status g3_launch(g3_chain *c, const g3_device *d, const char *src, const char *name,
                         const char *options, cl_uint nargs, const g3_arg *args, cl_uint dims,
                         const size_t *global, const size_t *local)
{
    const double t0 = trace_on ? host_us() : 0;
    g3_kern *k;
    gpublas3Status st = g3_kernel(d, src, name, options, &k);
    if (st != gpublas3Success)
        return st;
    cl_int err = CL_SUCCESS;
    pthread_mutex_lock(&k->lock);
    for (cl_uint i = 0; i < nargs && err == CL_SUCCESS; i++)
        err = clSetKernelArg(k->kernel, i, args[i].size, args[i].value);
    if (err == CL_SUCCESS) {
        cl_event ev = NULL;
        int keep = !c->eventless;
        const double t1 = trace_on ? host_us() : 0;
        err = enqueue(c, d, k, dims, global, local, keep || trace_on || d->one_launch ? &ev : NULL);
        if (err == CL_SUCCESS && trace_on)
            trace_step(ev, name, t0, t1);
        if (err == CL_SUCCESS && keep)
            g3_chain_push(c, ev);
        else if (err == CL_SUCCESS) {
            c->steps++;
            if (ev)
                clReleaseEvent(ev);
        }
    }
    pthread_mutex_unlock(&k->lock);
    return (gpublas3Status)err;
}

cl_mem g3_storage(cl_mem m, size_t *at)
{
    cl_mem parent = NULL;
    size_t origin = 0;
    if (clGetMemObjectInfo(m, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL) != CL_SUCCESS || !parent ||
        clGetMemObjectInfo(m, CL_MEM_OFFSET, sizeof origin, &origin, NULL) != CL_SUCCESS)
        return m;
    *at += origin;
    return parent;
}

/* Contiguous on both sides: one plain copy.  Else rectangles between the
 * buffers' storage (PoCL 3.1 crashes on a rectangle copy from or to a
 * sub-buffer; a plain copy is fine), the last
 * column one of its own, one row high: NVIDIA's driver (580) refuses a
 * rectangle whose origin + region[1] * row_pitch runs past the buffer's
 * end even when its last row does not (a block of a matrix's last columns
 * with ld > rows). */
gpublas3Status g3_copy_matrix(g3_chain *c, cl_mem src, size_t soff, size_t sld, cl_mem dst, size_t doff,
                              size_t dld, size_t rows, size_t cols, size_t es)
{
    size_t w = rows * es, sat = soff * es, dat = doff * es;
    int plain = sld == rows && dld == rows;
    if (!plain) {
        src = g3_storage(src, &sat);
        dst = g3_storage(dst, &dat);
    }
    for (size_t j0 = 0; w && j0 < cols;) {
        size_t n = plain ? cols : j0 + 1 < cols ? cols - 1 - j0 : 1;
        size_t spitch = n > 1 ? sld * es : w, dpitch = n > 1 ? dld * es : w; /* one column: its own width */
        size_t s0 = sat + j0 * sld * es, d0 = dat + j0 * dld * es;
        size_t src_o[3] = { s0 % spitch, s0 / spitch, 0 }, dst_o[3] = { d0 % dpitch, d0 / dpitch, 0 };
        size_t region[3] = { w, n, 1 };
        const cl_event *deps;
        cl_uint ndeps = g3_chain_deps(c, &deps);
        cl_event ev;
        const double t1 = trace_on ? host_us() : 0;
        cl_int err = plain ? clEnqueueCopyBuffer(c->q, src, dst, sat, dat, w * cols, ndeps, deps, &ev)
                           : clEnqueueCopyBufferRect(c->q, src, dst, src_o, dst_o, region, spitch, 0, dpitch, 0,
                                                     ndeps, deps, &ev);
        if (err != CL_SUCCESS)
            return (gpublas3Status)err;
        if (trace_on)
            trace_step(ev, "copy_rect", t1, t1);
        g3_chain_push(c, ev);
        j0 += n;
    }
    return gpublas3Success;
}

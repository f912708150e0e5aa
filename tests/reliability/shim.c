/* SPDX-License-Identifier: BSD-3-Clause */
/* The OpenCL layer of the reliability tests (see shim.h).  Each wrapper
 * finds the real function with dlsym(RTLD_NEXT) and keeps its counters
 * with atomics, so the concurrency test can use it too. */
#define _GNU_SOURCE
#include "shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ADD(x, v) __atomic_add_fetch(&(x), (v), __ATOMIC_SEQ_CST)
#define GET(x) __atomic_load_n(&(x), __ATOMIC_SEQ_CST)

static shim_counts counts;
static long fail_at[SHIM_NFUNCS];   /* countdown: fail when it reaches 0 */
static cl_int fail_err[SHIM_NFUNCS];
static size_t create_above, migrate_above;
static long create_from; /* countdown: clCreateBuffer fails from when it reaches 0 on */
static cl_ulong fake_max_alloc;
static int fake_discrete;
static int injected;
static cl_mem watched;
static int writer;

/* Buffer sizes by handle, for bytes_live. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
typedef struct { cl_mem m; size_t bytes; long refs; } memrec;
static memrec *mems;
static size_t nmems, capmems;
/* cl_mem kernel arguments by kernel, for the writer check. */
typedef struct { cl_kernel k; cl_mem args[32]; } kargs;
static kargs *kas;
static size_t nkas, capkas;

/* The real function, looked up once (atomically: any thread may be first). */
#define REAL(name) \
    static __typeof__(&name) real_##name##_; \
    __typeof__(&name) real_##name = __atomic_load_n(&real_##name##_, __ATOMIC_ACQUIRE); \
    if (!real_##name) { \
        real_##name = (__typeof__(&name))dlsym(RTLD_NEXT, #name); \
        if (!real_##name) { fprintf(stderr, "shim: no real " #name "\n"); abort(); } \
        __atomic_store_n(&real_##name##_, real_##name, __ATOMIC_RELEASE); \
    }

static int holding, faking, tracing, marking;
static cl_event *held;
static size_t nheld, capheld;

#define TRACE(name) do { if (GET(tracing)) printf("shim: %s\n", name); } while (0)

/* Every field of `counts` is only touched atomically. */
void shim_get(shim_counts *out)
{
    out->mems = GET(counts.mems);
    out->events = GET(counts.events);
    out->kernels = GET(counts.kernels);
    out->programs = GET(counts.programs);
    out->contexts = GET(counts.contexts);
    out->build_us = GET(counts.build_us);
    for (int f = 0; f < SHIM_NFUNCS; f++) out->calls[f] = GET(counts.calls[f]);
    pthread_mutex_lock(&lock);
    out->bytes_live = GET(counts.bytes_live);
    out->bytes_peak = GET(counts.bytes_peak);
    pthread_mutex_unlock(&lock);
}

int shim_left(const shim_counts *start, char *out, size_t len)
{
    shim_counts now;
    shim_get(&now);
    long d[5] = { now.mems - start->mems, now.events - start->events, now.kernels - start->kernels,
                  now.programs - start->programs, now.contexts - start->contexts };
    snprintf(out, len, "mems %ld events %ld kernels %ld programs %ld contexts %ld", d[0], d[1], d[2], d[3], d[4]);
    return d[0] || d[1] || d[2] || d[3] || d[4];
}

void shim_reset_calls(void)
{
    for (int f = 0; f < SHIM_NFUNCS; f++) __atomic_store_n(&counts.calls[f], 0, __ATOMIC_SEQ_CST);
    pthread_mutex_lock(&lock);
    __atomic_store_n(&counts.bytes_peak, GET(counts.bytes_live), __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&lock);
}

void shim_fail_nth(shim_func f, long n, cl_int err)
{
    __atomic_store_n(&fail_err[f], err, __ATOMIC_SEQ_CST);
    __atomic_store_n(&fail_at[f], n, __ATOMIC_SEQ_CST);
}
void shim_fail_create_above(size_t bytes) { create_above = bytes; }
void shim_fail_create_from(long n) { __atomic_store_n(&create_from, n, __ATOMIC_SEQ_CST); }
void shim_fail_migrate_above(size_t bytes) { migrate_above = bytes; }
void shim_fake_max_alloc(cl_ulong bytes) { fake_max_alloc = bytes; }
void shim_fake_discrete(void) { fake_discrete = 1; }
void shim_clear_faults(void)
{
    for (int f = 0; f < SHIM_NFUNCS; f++) __atomic_store_n(&fail_at[f], 0, __ATOMIC_SEQ_CST);
    create_above = migrate_above = 0;
    __atomic_store_n(&create_from, 0, __ATOMIC_SEQ_CST);
    fake_max_alloc = 0;
    fake_discrete = 0;
    __atomic_store_n(&injected, 0, __ATOMIC_SEQ_CST);
}
int shim_injected(void) { return GET(injected); }
void shim_watch(cl_mem buf) { watched = buf; __atomic_store_n(&writer, 0, __ATOMIC_SEQ_CST); }
int shim_writer_launched(void) { return GET(writer); }

/* Should this call of f fail?  Counts down the n-th-call trigger. */
static cl_int fault(shim_func f)
{
    if (GET(fail_at[f]) > 0 && ADD(fail_at[f], -1) == 0) {
        __atomic_store_n(&injected, 1, __ATOMIC_SEQ_CST);
        return GET(fail_err[f]);
    }
    return CL_SUCCESS;
}
static cl_int enqueue_fault(shim_func f)
{
    cl_int e = fault(SHIM_ENQUEUE_ANY);
    return e != CL_SUCCESS ? e : fault(f);
}

static void counted(shim_func f, cl_event *ev)
{
    ADD(counts.calls[f], 1);
    if (f == SHIM_NDRANGE || f == SHIM_MIGRATE || f == SHIM_MARKER || f == SHIM_COPY_RECT)
        ADD(counts.calls[SHIM_ENQUEUE_ANY], 1);
    if (ev) ADD(counts.events, 1);
}

static memrec *find_mem(cl_mem m)
{
    for (size_t i = 0; i < nmems; i++)
        if (mems[i].m == m) return &mems[i];
    return NULL;
}

/* ---- buffers ---- */
/* Is this clCreateBuffer past shim_fail_create_from's point?  (The count
 * stays at 1 from there on.) */
static int creates_refused(void)
{
    if (GET(create_from) == 1)
        return 1;
    if (GET(create_from) > 1)
        ADD(create_from, -1);
    return 0;
}

cl_mem clCreateBuffer(cl_context ctx, cl_mem_flags flags, size_t size, void *host, cl_int *errret)
{
    REAL(clCreateBuffer);
    TRACE("clCreateBuffer");
    cl_int e = fault(SHIM_CREATE_BUFFER);
    if (e == CL_SUCCESS && ((create_above && size > create_above) || creates_refused())) {
        e = CL_MEM_OBJECT_ALLOCATION_FAILURE;
        __atomic_store_n(&injected, 1, __ATOMIC_SEQ_CST);
    }
    if (e != CL_SUCCESS) {
        if (errret) *errret = e;
        return NULL;
    }
    cl_int err;
    cl_mem m = real_clCreateBuffer(ctx, flags, size, host, &err);
    if (errret) *errret = err;
    if (m) {
        ADD(counts.calls[SHIM_CREATE_BUFFER], 1);
        ADD(counts.mems, 1);
        pthread_mutex_lock(&lock);
        if (nmems == capmems) {
            capmems = capmems ? 2 * capmems : 64;
            mems = realloc(mems, capmems * sizeof *mems);
        }
        mems[nmems++] = (memrec){ m, size, 1 };
        long live = ADD(counts.bytes_live, (long)size);
        if (live > GET(counts.bytes_peak)) __atomic_store_n(&counts.bytes_peak, live, __ATOMIC_SEQ_CST);
        pthread_mutex_unlock(&lock);
    }
    return m;
}

cl_int clRetainMemObject(cl_mem m)
{
    REAL(clRetainMemObject);
    TRACE("clRetainMemObject");
    cl_int e = real_clRetainMemObject(m);
    if (e == CL_SUCCESS) {
        ADD(counts.mems, 1);
        pthread_mutex_lock(&lock);
        memrec *r = find_mem(m);
        if (r) r->refs++;
        pthread_mutex_unlock(&lock);
    }
    return e;
}

cl_int clReleaseMemObject(cl_mem m)
{
    REAL(clReleaseMemObject);
    TRACE("clReleaseMemObject");
    pthread_mutex_lock(&lock);
    memrec *r = find_mem(m);
    if (r && --r->refs == 0) {
        ADD(counts.bytes_live, -(long)r->bytes);
        *r = mems[--nmems];
    }
    pthread_mutex_unlock(&lock);
    ADD(counts.mems, -1);
    return real_clReleaseMemObject(m);
}

/* ---- kernels ---- */
cl_kernel clCreateKernel(cl_program p, const char *name, cl_int *errret)
{
    REAL(clCreateKernel);
    TRACE("clCreateKernel");
    cl_int e = fault(SHIM_CREATE_KERNEL);
    if (e != CL_SUCCESS) {
        if (errret) *errret = e;
        return NULL;
    }
    cl_kernel k = real_clCreateKernel(p, name, errret);
    if (k) {
        ADD(counts.kernels, 1);
        ADD(counts.calls[SHIM_CREATE_KERNEL], 1);
    }
    return k;
}

cl_int clRetainKernel(cl_kernel k)
{
    REAL(clRetainKernel);
    TRACE("clRetainKernel");
    cl_int e = real_clRetainKernel(k);
    if (e == CL_SUCCESS) ADD(counts.kernels, 1);
    return e;
}

cl_int clReleaseKernel(cl_kernel k)
{
    REAL(clReleaseKernel);
    TRACE("clReleaseKernel");
    cl_uint refs = 0;
    clGetKernelInfo(k, CL_KERNEL_REFERENCE_COUNT, sizeof refs, &refs, NULL);
    ADD(counts.kernels, -1);
    pthread_mutex_lock(&lock);
    if (refs == 1)
        for (size_t i = 0; i < nkas; i++)
            if (kas[i].k == k) { kas[i] = kas[--nkas]; break; }
    pthread_mutex_unlock(&lock);
    return real_clReleaseKernel(k);
}

/* shim_capture_launches: the arguments last set per kernel and index
 * (values up to 16 bytes), and the launches captured. */
enum { CAP_ARGS = 64, CAP_LAUNCHES = 4 };
typedef struct {
    cl_kernel k;
    size_t size[CAP_ARGS];
    unsigned char value[CAP_ARGS][16];
    int set[CAP_ARGS];
} cap_args;
static struct {
    int want, have;
    cap_args args[CAP_LAUNCHES]; /* per kernel object seen since arming */
    int nargs;
    struct {
        cap_args a;
        cl_uint dim;
        size_t global[3], local[3];
        int has_local;
    } l[CAP_LAUNCHES];
} cap;

void shim_capture_launches(int n)
{
    pthread_mutex_lock(&lock);
    memset(&cap, 0, sizeof cap);
    cap.want = n < CAP_LAUNCHES ? n : CAP_LAUNCHES;
    pthread_mutex_unlock(&lock);
}

cl_int shim_replay(cl_command_queue q, cl_uint nwait, const cl_event *wait, cl_event *ev)
{
    if (!cap.have)
        return CL_INVALID_KERNEL;
    cap.want = cap.have; /* the replay's own launches are not captured */
    cl_event prev = NULL;
    cl_int e = CL_SUCCESS;
    for (int j = 0; j < cap.have && e == CL_SUCCESS; j++) {
        const cap_args *a = &cap.l[j].a;
        for (cl_uint i = 0; i < CAP_ARGS; i++)
            if (a->set[i])
                clSetKernelArg(a->k, i, a->size[i], a->size[i] ? a->value[i] : NULL);
        cl_event next;
        e = clEnqueueNDRangeKernel(q, a->k, cap.l[j].dim, NULL, cap.l[j].global,
                                   cap.l[j].has_local ? cap.l[j].local : NULL, prev ? 1 : nwait,
                                   prev ? &prev : wait, &next);
        if (prev)
            clReleaseEvent(prev);
        prev = e == CL_SUCCESS ? next : NULL;
    }
    *ev = prev;
    return e;
}

int shim_captured(void) { return cap.have; }

void shim_replay_done(void)
{
    for (int j = 0; j < cap.have; j++)
        clReleaseKernel(cap.l[j].a.k);
    memset(&cap, 0, sizeof cap);
}

cl_int clSetKernelArg(cl_kernel k, cl_uint index, size_t size, const void *value)
{
    REAL(clSetKernelArg);
    TRACE("clSetKernelArg");
    cl_int e = real_clSetKernelArg(k, index, size, value);
    if (e == CL_SUCCESS && index < CAP_ARGS && size <= 16) {
        pthread_mutex_lock(&lock);
        if (cap.want > cap.have) {
            int i = 0;
            while (i < cap.nargs && cap.args[i].k != k) i++;
            if (i == cap.nargs && cap.nargs < CAP_LAUNCHES)
                cap.args[cap.nargs++].k = k;
            if (i < cap.nargs) {
                cap.args[i].set[index] = 1;
                cap.args[i].size[index] = value ? size : 0;
                if (value)
                    memcpy(cap.args[i].value[index], value, size);
            }
        }
        pthread_mutex_unlock(&lock);
    }
    if (e == CL_SUCCESS && index < 32) {
        pthread_mutex_lock(&lock);
        size_t i = 0;
        while (i < nkas && kas[i].k != k) i++;
        if (i == nkas) {
            if (nkas == capkas) {
                capkas = capkas ? 2 * capkas : 64;
                kas = realloc(kas, capkas * sizeof *kas);
            }
            memset(&kas[nkas], 0, sizeof kas[nkas]);
            kas[nkas++].k = k;
        }
        /* Only pointer-sized values can be buffers; others are recorded as NULL. */
        kas[i].args[index] = size == sizeof(cl_mem) && value ? *(const cl_mem *)value : NULL;
        pthread_mutex_unlock(&lock);
    }
    return e;
}

static int may_write_watched(cl_kernel k)
{
    char name[64] = "";
    int hit = 0;
    if (!watched) return 0;
    clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < nkas; i++)
        if (kas[i].k == k)
            for (int a = 0; a < 32; a++)
                if (kas[i].args[a] == watched) hit = 1;
    pthread_mutex_unlock(&lock);
    return hit && strcmp(name, "pack") != 0;
}

/* A command that may write buffers was enqueued (writes: it may write the
 * watched one). */
static void wrote(shim_func f, cl_event *ev, int writes)
{
    counted(f, ev);
    if (writes) __atomic_store_n(&writer, 1, __ATOMIC_SEQ_CST);
}

cl_int clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *off,
                              const size_t *global, const size_t *local, cl_uint nwait,
                              const cl_event *wait, cl_event *ev)
{
    REAL(clEnqueueNDRangeKernel);
    TRACE("clEnqueueNDRangeKernel");
    cl_int e = enqueue_fault(SHIM_NDRANGE);
    if (e != CL_SUCCESS) return e;
    e = real_clEnqueueNDRangeKernel(q, k, dim, off, global, local, nwait, wait, ev);
    if (e == CL_SUCCESS) wrote(SHIM_NDRANGE, ev, may_write_watched(k));
    pthread_mutex_lock(&lock);
    for (int i = 0; e == CL_SUCCESS && cap.want > cap.have && dim <= 3 && i < cap.nargs; i++)
        if (cap.args[i].k == k) {
            int j = cap.have++;
            cap.l[j].a = cap.args[i];
            cap.l[j].dim = dim;
            cap.l[j].has_local = local != NULL;
            for (cl_uint d = 0; d < dim; d++) {
                cap.l[j].global[d] = global[d];
                cap.l[j].local[d] = local ? local[d] : 0;
            }
            clRetainKernel(k);
            break;
        }
    pthread_mutex_unlock(&lock);
    return e;
}

cl_int clEnqueueMigrateMemObjects(cl_command_queue q, cl_uint n, const cl_mem *m, cl_mem_migration_flags fl,
                                  cl_uint nwait, const cl_event *wait, cl_event *ev)
{
    REAL(clEnqueueMigrateMemObjects);
    TRACE("clEnqueueMigrateMemObjects");
    cl_int e = enqueue_fault(SHIM_MIGRATE);
    if (e == CL_SUCCESS && migrate_above) {
        size_t total = 0;
        for (cl_uint i = 0; i < n; i++) {
            size_t b = 0;
            clGetMemObjectInfo(m[i], CL_MEM_SIZE, sizeof b, &b, NULL);
            total += b;
        }
        if (total > migrate_above) {
            e = CL_MEM_OBJECT_ALLOCATION_FAILURE;
            __atomic_store_n(&injected, 1, __ATOMIC_SEQ_CST);
        }
    }
    if (e != CL_SUCCESS) return e;
    if (GET(marking)) {
        REAL(clEnqueueMarkerWithWaitList);
        e = real_clEnqueueMarkerWithWaitList(q, nwait, wait, ev);
    } else {
        e = real_clEnqueueMigrateMemObjects(q, n, m, fl, nwait, wait, ev);
    }
    if (e == CL_SUCCESS) counted(SHIM_MIGRATE, ev);
    return e;
}

/* Does a rectangle fit its buffer by NVIDIA's reading (driver 580): whole
 * slices of region[1] rows of `pitch` from the origin, not just up to the
 * last row's end as the specification has it?  The shim applies the
 * stricter rule everywhere, so PoCL runs catch what the H100 would refuse. */
static int rect_fits(cl_mem m, const size_t *origin, const size_t *region, size_t pitch, size_t slice)
{
    size_t size = 0;
    clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL);
    if (!pitch) pitch = region[0];
    if (!slice) slice = region[1] * pitch;
    return origin[2] * slice + origin[1] * pitch + origin[0] + region[2] * slice <= size;
}

cl_int clEnqueueCopyBufferRect(cl_command_queue q, cl_mem src, cl_mem dst, const size_t *so, const size_t *dO,
                               const size_t *region, size_t srp, size_t ssp, size_t drp, size_t dsp,
                               cl_uint nwait, const cl_event *wait, cl_event *ev)
{
    REAL(clEnqueueCopyBufferRect);
    TRACE("clEnqueueCopyBufferRect");
    if (!rect_fits(src, so, region, srp, ssp) || !rect_fits(dst, dO, region, drp, dsp))
        return CL_INVALID_VALUE;
    cl_int e = enqueue_fault(SHIM_COPY_RECT);
    if (e != CL_SUCCESS) return e;
    e = real_clEnqueueCopyBufferRect(q, src, dst, so, dO, region, srp, ssp, drp, dsp, nwait, wait, ev);
    if (e == CL_SUCCESS) wrote(SHIM_COPY_RECT, ev, watched && dst == watched);
    return e;
}

cl_int clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst, size_t so, size_t dO, size_t n,
                           cl_uint nwait, const cl_event *wait, cl_event *ev)
{
    REAL(clEnqueueCopyBuffer);
    TRACE("clEnqueueCopyBuffer");
    cl_int e = enqueue_fault(SHIM_COPY_RECT);
    if (e != CL_SUCCESS) return e;
    e = real_clEnqueueCopyBuffer(q, src, dst, so, dO, n, nwait, wait, ev);
    if (e == CL_SUCCESS) wrote(SHIM_COPY_RECT, ev, watched && dst == watched);
    return e;
}

cl_int clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint nwait, const cl_event *wait, cl_event *ev)
{
    REAL(clEnqueueMarkerWithWaitList);
    TRACE("clEnqueueMarkerWithWaitList");
    cl_int e = enqueue_fault(SHIM_MARKER);
    if (e != CL_SUCCESS) return e;
    e = real_clEnqueueMarkerWithWaitList(q, nwait, wait, ev);
    if (e == CL_SUCCESS) counted(SHIM_MARKER, ev);
    return e;
}

/* The tests' own transfers: counted as events only. */
cl_int clEnqueueReadBuffer(cl_command_queue q, cl_mem m, cl_bool block, size_t off, size_t n, void *p,
                           cl_uint nwait, const cl_event *wait, cl_event *ev)
{
    REAL(clEnqueueReadBuffer);
    TRACE("clEnqueueReadBuffer");
    cl_int e = real_clEnqueueReadBuffer(q, m, block, off, n, p, nwait, wait, ev);
    if (e == CL_SUCCESS && ev) ADD(counts.events, 1);
    return e;
}

cl_int clEnqueueWriteBuffer(cl_command_queue q, cl_mem m, cl_bool block, size_t off, size_t n, const void *p,
                            cl_uint nwait, const cl_event *wait, cl_event *ev)
{
    REAL(clEnqueueWriteBuffer);
    TRACE("clEnqueueWriteBuffer");
    cl_int e = real_clEnqueueWriteBuffer(q, m, block, off, n, p, nwait, wait, ev);
    if (e == CL_SUCCESS && ev) ADD(counts.events, 1);
    return e;
}

/* ---- events ---- */
cl_event clCreateUserEvent(cl_context ctx, cl_int *errret)
{
    REAL(clCreateUserEvent);
    TRACE("clCreateUserEvent");
    cl_event ev = real_clCreateUserEvent(ctx, errret);
    if (ev) ADD(counts.events, 1);
    return ev;
}

cl_int clRetainEvent(cl_event ev)
{
    REAL(clRetainEvent);
    TRACE("clRetainEvent");
    cl_int e = real_clRetainEvent(ev);
    if (e == CL_SUCCESS) ADD(counts.events, 1);
    return e;
}

void shim_trace(int on) { __atomic_store_n(&tracing, on, __ATOMIC_SEQ_CST); }
void shim_migrate_as_marker(int on) { __atomic_store_n(&marking, on, __ATOMIC_SEQ_CST); }
void shim_fake_pending(int on) { __atomic_store_n(&faking, on, __ATOMIC_SEQ_CST); }

void shim_hold_events(int on)
{
    pthread_mutex_lock(&lock);
    holding = on;
    cl_event *evs = on ? NULL : held;
    size_t n = on ? 0 : nheld;
    if (!on) {
        held = NULL;
        nheld = capheld = 0;
    }
    pthread_mutex_unlock(&lock);
    for (size_t i = 0; i < n; i++)
        clReleaseEvent(evs[i]);
    free(evs);
}

cl_int clGetEventInfo(cl_event ev, cl_event_info what, size_t size, void *value, size_t *ret)
{
    REAL(clGetEventInfo);
    TRACE("clGetEventInfo");
    if (GET(faking) && what == CL_EVENT_COMMAND_EXECUTION_STATUS && value && size >= sizeof(cl_int)) {
        *(cl_int *)value = CL_QUEUED;
        if (ret) *ret = sizeof(cl_int);
        return CL_SUCCESS;
    }
    return real_clGetEventInfo(ev, what, size, value, ret);
}

cl_int clReleaseEvent(cl_event ev)
{
    REAL(clReleaseEvent);
    TRACE("clReleaseEvent");
    pthread_mutex_lock(&lock);
    if (holding && ev) {
        if (nheld == capheld) {
            capheld = capheld ? 2 * capheld : 64;
            held = realloc(held, capheld * sizeof *held);
        }
        held[nheld++] = ev;
        pthread_mutex_unlock(&lock);
        return CL_SUCCESS;
    }
    pthread_mutex_unlock(&lock);
    cl_int e = real_clReleaseEvent(ev);
    if (e == CL_SUCCESS) ADD(counts.events, -1);
    return e;
}

/* ---- programs ---- */
cl_program clCreateProgramWithSource(cl_context ctx, cl_uint n, const char **src, const size_t *len,
                                     cl_int *errret)
{
    REAL(clCreateProgramWithSource);
    TRACE("clCreateProgramWithSource");
    cl_int e = fault(SHIM_CREATE_PROGRAM_SOURCE);
    if (e != CL_SUCCESS) {
        if (errret) *errret = e;
        return NULL;
    }
    cl_program p = real_clCreateProgramWithSource(ctx, n, src, len, errret);
    if (p) {
        ADD(counts.programs, 1);
        ADD(counts.calls[SHIM_CREATE_PROGRAM_SOURCE], 1);
    }
    return p;
}

cl_program clCreateProgramWithBinary(cl_context ctx, cl_uint n, const cl_device_id *devs, const size_t *len,
                                     const unsigned char **bin, cl_int *status, cl_int *errret)
{
    REAL(clCreateProgramWithBinary);
    TRACE("clCreateProgramWithBinary");
    cl_int e = fault(SHIM_CREATE_PROGRAM_BINARY);
    if (e != CL_SUCCESS) {
        if (errret) *errret = e;
        return NULL;
    }
    cl_program p = real_clCreateProgramWithBinary(ctx, n, devs, len, bin, status, errret);
    if (p) {
        ADD(counts.programs, 1);
        ADD(counts.calls[SHIM_CREATE_PROGRAM_BINARY], 1);
    }
    return p;
}

cl_int clBuildProgram(cl_program p, cl_uint n, const cl_device_id *devs, const char *opts,
                      void (CL_CALLBACK *notify)(cl_program, void *), void *user)
{
    REAL(clBuildProgram);
    TRACE("clBuildProgram");
    cl_int e = fault(SHIM_BUILD_PROGRAM);
    if (e != CL_SUCCESS) return e;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    e = real_clBuildProgram(p, n, devs, opts, notify, user);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    ADD(counts.build_us, (t1.tv_sec - t0.tv_sec) * 1000000L + (t1.tv_nsec - t0.tv_nsec) / 1000);
    if (e == CL_SUCCESS) ADD(counts.calls[SHIM_BUILD_PROGRAM], 1);
    return e;
}

cl_int clRetainProgram(cl_program p)
{
    REAL(clRetainProgram);
    TRACE("clRetainProgram");
    cl_int e = real_clRetainProgram(p);
    if (e == CL_SUCCESS) ADD(counts.programs, 1);
    return e;
}

cl_int clReleaseProgram(cl_program p)
{
    REAL(clReleaseProgram);
    TRACE("clReleaseProgram");
    cl_int e = real_clReleaseProgram(p);
    if (e == CL_SUCCESS) ADD(counts.programs, -1);
    return e;
}

/* ---- contexts and device queries ---- */
cl_context clCreateContext(const cl_context_properties *props, cl_uint n, const cl_device_id *devs,
                           void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
                           void *user, cl_int *errret)
{
    REAL(clCreateContext);
    TRACE("clCreateContext");
    cl_context c = real_clCreateContext(props, n, devs, notify, user, errret);
    if (c) ADD(counts.contexts, 1);
    return c;
}

cl_int clRetainContext(cl_context c)
{
    REAL(clRetainContext);
    TRACE("clRetainContext");
    cl_int e = real_clRetainContext(c);
    if (e == CL_SUCCESS) ADD(counts.contexts, 1);
    return e;
}

cl_int clReleaseContext(cl_context c)
{
    REAL(clReleaseContext);
    TRACE("clReleaseContext");
    cl_int e = real_clReleaseContext(c);
    if (e == CL_SUCCESS) ADD(counts.contexts, -1);
    return e;
}

cl_int clGetDeviceInfo(cl_device_id d, cl_device_info what, size_t size, void *value, size_t *ret)
{
    REAL(clGetDeviceInfo);
    TRACE("clGetDeviceInfo");
    cl_int e = real_clGetDeviceInfo(d, what, size, value, ret);
    if (e == CL_SUCCESS && fake_max_alloc && what == CL_DEVICE_MAX_MEM_ALLOC_SIZE && value &&
        size >= sizeof(cl_ulong))
        *(cl_ulong *)value = fake_max_alloc;
    if (e == CL_SUCCESS && fake_discrete && what == CL_DEVICE_HOST_UNIFIED_MEMORY && value && size >= sizeof(cl_bool))
        *(cl_bool *)value = CL_FALSE;
    return e;
}


/* ---- traced only (the hang's bisection: every call the library makes) ---- */
cl_int clGetCommandQueueInfo(cl_command_queue q, cl_command_queue_info what, size_t size, void *value, size_t *ret)
{
    REAL(clGetCommandQueueInfo);
    TRACE("clGetCommandQueueInfo");
    return real_clGetCommandQueueInfo(q, what, size, value, ret);
}

cl_int clFlush(cl_command_queue q)
{
    REAL(clFlush);
    TRACE("clFlush");
    return real_clFlush(q);
}

cl_int clWaitForEvents(cl_uint n, const cl_event *evs)
{
    REAL(clWaitForEvents);
    TRACE("clWaitForEvents");
    return real_clWaitForEvents(n, evs);
}

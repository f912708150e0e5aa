/* SPDX-License-Identifier: BSD-3-Clause */
/* The scratch pool: repeated calls do not allocate; a buffer in use by a
 * call whose commands have not run is never handed to a call that could
 * run before them (another queue, an out-of-order queue), and sharing it
 * never makes one call wait for another the caller did not order (a call
 * gated on an unset user event does not hold up a call on another queue);
 * on the same in-order queue it is shared; pools of different contexts
 * stay apart; the pool keeps at most the scratch cap between calls; and
 * Teardown releases everything, even while commands using the buffers are
 * still pending.  The stages that take apart its out-of-order case on
 * NVIDIA are in pool_bisect.c. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "rel.h"
#include "shim.h"
#include "pool_bisect.h"

rel_dev pool_dev;

static long creates(void)
{
    shim_counts c;
    shim_get(&c);
    return c.calls[SHIM_CREATE_BUFFER];
}

/* Waits for ev at most `seconds`; 0 when it completed (a test must fail,
 * not hang, when the library made a call depend on another). */
int wait_bounded(cl_event ev, double seconds)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        cl_int status = CL_QUEUED;
        clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
        if (status <= CL_COMPLETE) return status == CL_COMPLETE ? 0 : -1;
        clock_gettime(CLOCK_MONOTONIC, &t);
        if ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 > seconds) return -1;
        struct timespec nap = { 0, 2000000 };
        nanosleep(&nap, NULL);
    }
}

static void stage(const char *what) { rel_stage("test_pool", what); }

const spec_case pool_base = { .routine = SPEC_GEMM, .order = gpublas3ColumnMajor, .M = 90, .N = 70, .K = 80,
                                .alpha = 1, .beta = 0.5 };

static void repeated(void)
{
    enum { CALLS = 40 };
    rel_case r[CALLS];
    cl_event ev[CALLS];
    gpublas3Setup();
    /* warm: the first call fills the pool */
    rel_fill(&r[0], &pool_base, 1, 1);
    rel_upload(&r[0], pool_dev.ctx, pool_dev.q);
    rel_expect(rel_run(&r[0], pool_dev.q, "first call") == 0, "first call");
    rel_free(&r[0]);
    for (int i = 0; i < CALLS; i++) {
        rel_fill(&r[i], &pool_base, 10 + i, 1);
        rel_upload(&r[i], pool_dev.ctx, pool_dev.q);
    }
    shim_reset_calls();
    /* back to back, no wait: each call's scratch is still busy when the
     * next comes, on the same in-order queue */
    for (int i = 0; i < CALLS; i++)
        rel_expect(spec_run(&r[i].c, pool_dev.q, r[i].buf[0], r[i].buf[1], r[i].buf[2], 0, NULL, &ev[i]) ==
                       gpublas3Success, "call %d", i);
    long made = creates();
    clWaitForEvents(CALLS, ev);
    for (int i = 0; i < CALLS; i++) {
        clReleaseEvent(ev[i]);
        rel_expect(rel_judge(&r[i], pool_dev.q, "repeated") == 0, "repeated call %d wrong", i);
        rel_free(&r[i]);
    }
    rel_expect(made == 0, "%d repeated calls on one queue created %ld buffers", CALLS, made);

    /* smaller shapes fit the buffers already there */
    shim_reset_calls();
    for (int i = 0; i < 10; i++) {
        spec_case c = pool_base;
        c.M = 90 - 7 * (size_t)i;
        c.N = 13 + (size_t)i;
        c.K = 80 - 5 * (size_t)i;
        c.transA = i % 2 ? gpublas3Trans : gpublas3NoTrans;
        rel_case s;
        rel_fill(&s, &c, 50 + i, 1);
        shim_reset_calls();
        rel_upload(&s, pool_dev.ctx, pool_dev.q);
        long own = creates();
        rel_expect(rel_run(&s, pool_dev.q, "smaller") == 0, "smaller call %d", i);
        rel_expect(creates() == own, "a smaller call (%d) created scratch", i);
        rel_free(&s);
    }
    gpublas3Teardown();
}

/* The control for gated(): whether the driver itself runs a plain copy on
 * qy while a copy on qx waits for an unset user event.  NVIDIA's (580)
 * does not on one out-of-order queue; there no library could, and only
 * gated()'s scratch check applies. */
int driver_runs_past(cl_command_queue qx, cl_command_queue qy)
{
    cl_int err;
    cl_mem src = clCreateBuffer(pool_dev.ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
    cl_mem dst = clCreateBuffer(pool_dev.ctx, CL_MEM_READ_WRITE, 8192, NULL, &err);
    cl_event gate = clCreateUserEvent(pool_dev.ctx, &err), ex, ey;
    clEnqueueCopyBuffer(qx, src, dst, 0, 0, 4096, 1, &gate, &ex);
    clFlush(qx);
    clEnqueueCopyBuffer(qy, src, dst, 0, 4096, 4096, 0, NULL, &ey);
    clFlush(qy);
    int ran = wait_bounded(ey, 10) == 0;
    clSetUserEventStatus(gate, CL_COMPLETE);
    clWaitForEvents(1, &ex);
    clWaitForEvents(1, &ey);
    clReleaseEvent(ex);
    clReleaseEvent(ey);
    clReleaseEvent(gate);
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
    return ran;
}

/* Changes to gated() (TEST_POOL_OMIT, a sum of these): the steps of
 * bisecting NVIDIA's context hang after the out-of-order case; 0, the whole case, in every normal run.  Parts left out: the
 * driver control, the warm-up, call Y, X's gate; WARM_TWICE: the warm-up
 * leaves two sets of scratch in the pool, so that Y takes pooled buffers
 * instead of fresh ones (no migration).  Changes under the library's
 * calls X and Y (shim.h): HOLD_EVENTS, no event released until both
 * completed; FAKE_PENDING, the pool's status queries answered "queued"
 * without the driver; FINISH_QUEUES, clFinish on every queue before
 * Teardown; TRACE_XY, X's and Y's OpenCL calls printed.  SAME_BUFFERS: Y
 * on X's own A, B and C (Y's result not judged); PAUSE_Y: a second's
 * sleep before Y; REPLAY_Y: Y is X's own kernel launches replayed by the
 * shim (no library call around them, X's buffers).  WARM_APART: the
 * warm-up leaves two sets made on two in-order queues, the first call
 * gated (the pool holds two sets before X; nothing is made while X is
 * gated); NO_MIGRATE: markers in place of the migrations of fresh
 * scratch. */
enum { OMIT_CONTROL = 1, OMIT_WARMUP = 2, OMIT_Y = 4, OMIT_GATE = 8, WARM_TWICE = 16, RAW_Y = 32, RAW_X = 64,
       Y_AFTER_X = 128, HOLD_EVENTS = 256, FAKE_PENDING = 512, FINISH_QUEUES = 1024, TRACE_XY = 2048,
       SAME_BUFFERS = 4096, PAUSE_Y = 8192, REPLAY_Y = 16384, WARM_APART = 32768, NO_MIGRATE = 65536 };
static unsigned omit;

/* RAW_X, RAW_Y: a trivial kernel of the test's own instead of the library's
 * call X or Y (its program and buffer made once, released by raw_done). */
static cl_program raw_prog;
static cl_kernel raw_kernel;
static cl_mem raw_buf;
static void raw_launch(cl_command_queue q, cl_uint nwait, const cl_event *wait, cl_event *ev)
{
    static const char *src = "kernel void put(global int *p) { p[get_global_id(0)] += 1; }";
    cl_int err;
    if (!raw_prog) {
        raw_prog = clCreateProgramWithSource(pool_dev.ctx, 1, &src, NULL, &err);
        clBuildProgram(raw_prog, 1, &pool_dev.dev, "", NULL, NULL);
        raw_kernel = clCreateKernel(raw_prog, "put", &err);
        raw_buf = clCreateBuffer(pool_dev.ctx, CL_MEM_READ_WRITE, 256, NULL, &err);
    }
    size_t n = 64;
    clSetKernelArg(raw_kernel, 0, sizeof raw_buf, &raw_buf);
    clEnqueueNDRangeKernel(q, raw_kernel, 1, NULL, &n, NULL, nwait, wait, ev);
}
static void raw_done(void)
{
    if (!raw_prog) return;
    clReleaseKernel(raw_kernel);
    clReleaseProgram(raw_prog);
    clReleaseMemObject(raw_buf);
    raw_prog = NULL;
}

/* Call X is gated on an unset user event; call Y comes on `qy`. */
static void gated(cl_command_queue qx, cl_command_queue qy, int expect_new, const char *what)
{
    char line[96];
    snprintf(line, sizeof line, "gated, %s", what);
    stage(line);
    shim_counts start;
    shim_get(&start);
    gpublas3Setup();
    rel_case x, y, w;
    rel_fill(&x, &pool_base, 1, 1);
    rel_fill(&y, &pool_base, 2, 1);
    rel_fill(&w, &pool_base, 3, 1);
    rel_upload(&x, pool_dev.ctx, pool_dev.q);
    rel_upload(&y, pool_dev.ctx, pool_dev.q);
    rel_upload(&w, pool_dev.ctx, pool_dev.q);
    const int driver_runs = expect_new && !(omit & OMIT_CONTROL) && driver_runs_past(qx, qy);
    if (expect_new && !driver_runs && !(omit & OMIT_CONTROL))
        printf("note: %s: the driver holds a plain command behind a gated one here; "
               "only the scratch check applies\n", what);
    /* fill the pool first, so that X takes pooled buffers */
    cl_int err;
    shim_migrate_as_marker(!!(omit & NO_MIGRATE));
    if (omit & (WARM_TWICE | WARM_APART)) {
        /* two calls at once, the first gated: two sets (on the out-of-order
         * queue, or on two in-order ones) */
        rel_case w2;
        rel_fill(&w2, &pool_base, 4, 1);
        rel_upload(&w2, pool_dev.ctx, pool_dev.q);
        cl_event g2 = clCreateUserEvent(pool_dev.ctx, &err), e[2];
        cl_command_queue q2 = omit & WARM_APART ? rel_queue(&pool_dev, 0) : qx;
        spec_run(&w.c, omit & WARM_APART ? pool_dev.q : qx, w.buf[0], w.buf[1], w.buf[2], 1, &g2, &e[0]);
        spec_run(&w2.c, q2, w2.buf[0], w2.buf[1], w2.buf[2], 0, NULL, &e[1]);
        if (q2 != qx)
            clReleaseCommandQueue(q2);
        clSetUserEventStatus(g2, CL_COMPLETE);
        clWaitForEvents(2, e);
        clReleaseEvent(e[0]);
        clReleaseEvent(e[1]);
        clReleaseEvent(g2);
        rel_free(&w2);
    } else if (!(omit & OMIT_WARMUP)) {
        rel_expect(rel_run(&w, pool_dev.q, what) == 0, "%s: warm-up", what);
    }
    rel_free(&w);
    cl_event gate = clCreateUserEvent(pool_dev.ctx, &err), ex, ey = NULL;
    const int gate_x = !(omit & OMIT_GATE);
    shim_hold_events(!!(omit & HOLD_EVENTS));
    shim_fake_pending(!!(omit & FAKE_PENDING));
    shim_trace(!!(omit & TRACE_XY));
    if (omit & TRACE_XY)
        printf("note: call X\n");
    if (omit & REPLAY_Y)
        shim_capture_launches(3);
    if (omit & RAW_X)
        raw_launch(qx, gate_x, gate_x ? &gate : NULL, &ex);
    else
        rel_expect(spec_run(&x.c, qx, x.buf[0], x.buf[1], x.buf[2], gate_x, gate_x ? &gate : NULL, &ex) ==
                       gpublas3Success, "%s: X", what);
    clFlush(qx);
    shim_reset_calls();
    if (omit & OMIT_Y) {
        shim_trace(0);
        shim_fake_pending(0);
        clSetUserEventStatus(gate, CL_COMPLETE);
        clWaitForEvents(1, &ex);
        shim_hold_events(0);
        shim_migrate_as_marker(0);
        rel_expect(rel_judge(&x, pool_dev.q, what) == 0, "%s: X wrong", what);
        clReleaseEvent(ex);
        clReleaseEvent(gate);
        rel_free(&x);
        rel_free(&y);
        gpublas3Teardown();
        return;
    }
    const int after = (omit & Y_AFTER_X) != 0;
    if (omit & TRACE_XY)
        printf("note: call Y\n");
    if (omit & PAUSE_Y)
        sleep(1);
    const rel_case *yb = omit & SAME_BUFFERS ? &x : &y;
    if (omit & RAW_Y)
        raw_launch(qy, after, after ? &ex : NULL, &ey);
    else if (omit & REPLAY_Y)
        rel_expect(shim_replay(qy, after, after ? &ex : NULL, &ey) == CL_SUCCESS, "%s: Y replayed", what);
    else
        rel_expect(spec_run(&y.c, qy, yb->buf[0], yb->buf[1], yb->buf[2], after, after ? &ex : NULL, &ey) ==
                       gpublas3Success, "%s: Y", what);
    long made = creates();
    clFlush(qy);
    shim_trace(0);
    shim_fake_pending(0);
    if (omit)
        printf("note: %s, parts omitted (TEST_POOL_OMIT=%u): Y made %ld buffers\n", what, omit, made);
    else if (expect_new) {
        /* Y must run now, while X waits for its gate (where the driver lets it) */
        if (driver_runs)
            rel_expect(wait_bounded(ey, 30) == 0, "%s: Y did not complete while X was gated", what);
        rel_expect(made > 0, "%s: Y took X's busy scratch", what);
    } else {
        rel_expect(made == 0, "%s: Y created %ld buffers instead of sharing behind X", what, made);
    }
    clSetUserEventStatus(gate, CL_COMPLETE);
    clWaitForEvents(1, &ex);
    clWaitForEvents(1, &ey);
    shim_hold_events(0);
    shim_migrate_as_marker(0);
    if (omit & FINISH_QUEUES) {
        clFinish(qx);
        clFinish(qy);
        clFinish(pool_dev.q);
    }
    raw_done();
    if (omit & REPLAY_Y)
        shim_replay_done();
    const int judge_x = !(omit & (RAW_X | SAME_BUFFERS | REPLAY_Y)), judge_y = !(omit & (RAW_Y | SAME_BUFFERS | REPLAY_Y));
    if (judge_x)
        rel_expect(rel_judge(&x, pool_dev.q, what) == 0, "%s: X wrong", what);
    if (judge_y)
        rel_expect(rel_judge(&y, pool_dev.q, what) == 0, "%s: Y wrong", what);
    clReleaseEvent(ex);
    clReleaseEvent(ey);
    clReleaseEvent(gate);
    rel_free(&x);
    rel_free(&y);
    gpublas3Teardown();
    char left[128];
    rel_expect(!shim_left(&start, left, sizeof left), "%s: left OpenCL objects: %s", what, left);
}

/* Alternating contexts: each has its own pool. */
static void contexts(void)
{
    cl_int err;
    cl_context ctx2 = clCreateContext(NULL, 1, &pool_dev.dev, NULL, NULL, &err);
    cl_command_queue q2 = clCreateCommandQueue(ctx2, pool_dev.dev, 0, &err);
    gpublas3Setup();
    for (int i = 0; i < 6; i++) {
        cl_context ctx = i % 2 ? ctx2 : pool_dev.ctx;
        cl_command_queue q = i % 2 ? q2 : pool_dev.q;
        rel_case r;
        rel_fill(&r, &pool_base, 70 + i, 1);
        rel_upload(&r, ctx, q);
        rel_expect(rel_run(&r, q, "two contexts") == 0, "call %d alternating contexts", i);
        rel_free(&r);
    }
    gpublas3Teardown();
    clReleaseCommandQueue(q2);
    clReleaseContext(ctx2);
}

/* Between calls the pool keeps at most the cap. */
static long base_bytes; /* buffer bytes alive before any call */

static void bounded(void)
{
    setenv("GPUBLAS3_SCRATCH_LIMIT", "300000", 1);
    gpublas3Setup();
    for (int i = 0; i < 12; i++) {
        spec_case c = pool_base;
        c.routine = (spec_routine)(i % SPEC_NROUTINES);
        c.M = 20 + 13 * (size_t)i;
        c.N = 150 - 9 * (size_t)i;
        c.K = 30 + 7 * (size_t)i;
        c.dbl = i % 2;
        rel_case r;
        rel_fill(&r, &c, 90 + i, 1);
        rel_upload(&r, pool_dev.ctx, pool_dev.q);
        rel_expect(rel_run(&r, pool_dev.q, "capped pool") == 0, "capped call %d", i);
        rel_free(&r);
        shim_counts b;
        shim_get(&b);
        rel_expect(b.bytes_live - base_bytes <= 300000, "after call %d the pool holds %ld bytes (cap 300000)", i,
                   b.bytes_live - base_bytes);
    }
    gpublas3Teardown();
    unsetenv("GPUBLAS3_SCRATCH_LIMIT");
}

/* A function run on its own thread, so that a test can tell "returned"
 * from "blocked" without hanging. */
typedef struct {
    pthread_mutex_t m;
    pthread_cond_t cv;
    int done;
    void (*fn)(void *);
    void *arg;
    pthread_t t;
} side_run;

static void *side_main(void *p)
{
    side_run *r = p;
    r->fn(r->arg);
    pthread_mutex_lock(&r->m);
    r->done = 1;
    pthread_cond_signal(&r->cv);
    pthread_mutex_unlock(&r->m);
    return NULL;
}

static void side_start(side_run *r, void (*fn)(void *), void *arg)
{
    *r = (side_run){ .m = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER, .fn = fn, .arg = arg };
    pthread_create(&r->t, NULL, side_main, r);
}

/* 1 when fn returned within `seconds` */
static int side_returned(side_run *r, int seconds)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += seconds;
    pthread_mutex_lock(&r->m);
    while (!r->done && pthread_cond_timedwait(&r->cv, &r->m, &until) == 0)
        ;
    int done = r->done;
    pthread_mutex_unlock(&r->m);
    return done;
}

typedef struct { cl_kernel k; cl_program p; cl_mem buf; } cl_objects;

static void release_objects(void *arg)
{
    cl_objects *o = arg;
    clReleaseKernel(o->k);
    clReleaseProgram(o->p);
    clReleaseMemObject(o->buf);
}

static void release_context(void *arg)
{
    (void)arg;
    clReleaseContext(pool_dev.ctx);
}

static void teardown(void *arg)
{
    (void)arg;
    gpublas3Teardown();
}

/* The control for teardown_pending(): whether the driver's own release of
 * a kernel, its program and a buffer returns while a launch using them
 * waits for an unset user event (the specification says the objects live
 * on until the commands ran; a driver that waits for them instead makes
 * any such release block until the gate opens). */
static int driver_release_blocks(void)
{
    static const char *src = "kernel void one(global int *p) { p[0] = 1; }";
    cl_int err;
    cl_command_queue q = rel_queue(&pool_dev, 0);
    cl_objects o;
    o.p = clCreateProgramWithSource(pool_dev.ctx, 1, &src, NULL, &err);
    clBuildProgram(o.p, 1, &pool_dev.dev, "", NULL, NULL);
    o.k = clCreateKernel(o.p, "one", &err);
    o.buf = clCreateBuffer(pool_dev.ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
    clSetKernelArg(o.k, 0, sizeof o.buf, &o.buf);
    cl_event gate = clCreateUserEvent(pool_dev.ctx, &err), ev;
    size_t one = 1;
    clEnqueueNDRangeKernel(q, o.k, 1, NULL, &one, &one, 1, &gate, &ev);
    clFlush(q);
    side_run r;
    side_start(&r, release_objects, &o);
    int blocks = !side_returned(&r, 10);
    clSetUserEventStatus(gate, CL_COMPLETE);
    pthread_join(r.t, NULL);
    clWaitForEvents(1, &ev);
    clReleaseEvent(ev);
    clReleaseEvent(gate);
    clReleaseCommandQueue(q);
    return blocks;
}

/* Teardown while a call's commands wait on a gate: Teardown returns (where
 * the driver's own releases do), the buffers stay alive until the commands
 * ran, the result is right and nothing is left. */
static void teardown_pending(void)
{
    const int driver_blocks = driver_release_blocks();
    if (driver_blocks)
        printf("note: the driver's release of objects in use by a gated launch waits for the gate here; "
               "Teardown may too\n");
    shim_counts start;
    shim_get(&start);
    gpublas3Setup();
    rel_case x;
    rel_fill(&x, &pool_base, 3, 1);
    rel_upload(&x, pool_dev.ctx, pool_dev.q);
    cl_int err;
    cl_event gate = clCreateUserEvent(pool_dev.ctx, &err), ex;
    rel_expect(spec_run(&x.c, pool_dev.q, x.buf[0], x.buf[1], x.buf[2], 1, &gate, &ex) == gpublas3Success, "gated call");
    clFlush(pool_dev.q);
    side_run r;
    side_start(&r, teardown, NULL);
    int returned = side_returned(&r, 10);
    stage(returned ? "teardown_pending: Teardown returned while the call was gated"
                   : "teardown_pending: Teardown blocked while the call was gated");
    rel_expect(returned || driver_blocks, "Teardown blocked while a call was gated (the driver's releases do not)");
    clSetUserEventStatus(gate, CL_COMPLETE);
    pthread_join(r.t, NULL);
    rel_expect(wait_bounded(ex, 30) == 0, "the gated call did not complete after Teardown");
    rel_expect(rel_judge(&x, pool_dev.q, "teardown while pending") == 0, "result after Teardown while pending");
    clReleaseEvent(ex);
    clReleaseEvent(gate);
    rel_free(&x);
    char left[128];
    rel_expect(!shim_left(&start, left, sizeof left), "Teardown left OpenCL objects: %s", left);
}

/* The three gated cases, each on queues of its own kind. */
static void gated_all(void)
{
    cl_command_queue q1 = rel_queue(&pool_dev, 0), q2 = rel_queue(&pool_dev, 0);
    cl_command_queue ooo = rel_queue(&pool_dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    gated(q1, q2, 1, "two queues of one context");
    gated(q1, q1, 0, "one in-order queue");
    gated(ooo, ooo, 1, "one out-of-order queue");
    clReleaseCommandQueue(q1);
    clReleaseCommandQueue(q2);
    clReleaseCommandQueue(ooo);
}

/* The out-of-order case alone, and its driver control alone: after them
 * NVIDIA's clReleaseContext did not return (H100, driver 580.159.04,
 * 2026-11-22). */
static void gated_ooo(void)
{
    cl_command_queue ooo = rel_queue(&pool_dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    gated(ooo, ooo, 1, "one out-of-order queue");
    clReleaseCommandQueue(ooo);
}

static void release_control(void)
{
    printf("test_pool: the driver's releases %s while a launch is gated\n",
           driver_release_blocks() ? "block" : "return");
}

/* test_pool [STAGE...]: the named stages only (default: those marked 1,
 * the whole test; the others are parts of them and controls, run alone to
 * find which one leaves a driver unable to release the context at the
 * end). */
int main(int argc, char **argv)
{
    static const struct { const char *name; void (*fn)(void); int whole; } stages[] = {
        { "repeated", repeated, 1 }, { "gated", gated_all, 1 }, { "contexts", contexts, 1 },
        { "bounded", bounded, 1 }, { "teardown_pending", teardown_pending, 1 },
        { "release_control", release_control, 0 }, { "gated_ooo", gated_ooo, 0 }, { "ooo_control", ooo_control, 0 },
        { "ooo_migrate_control", ooo_migrate_control, 0 }, { "ooo_kernel_control", ooo_kernel_control, 0 },
        { "ooo_single_gated", ooo_single_gated, 0 }, { "ooo_single_ungated", ooo_single_ungated, 0 },
        { "ooo_replica", ooo_replica, 0 }, { "ooo_replay", ooo_replay, 0 },
    };
    const size_t nstages = sizeof stages / sizeof stages[0];
    /* unbuffered, so that a stage line shows even if the next one hangs */
    setvbuf(stdout, NULL, _IONBF, 0);
    const char *om = getenv("TEST_POOL_OMIT");
    omit = om ? (unsigned)atoi(om) : 0;
    setenv("OPENBLAS_NUM_THREADS", "1", 1);
    unsetenv("GPUBLAS3_SCRATCH_LIMIT");
    /* the pool serves the packed path; these calls would go direct on a
     * GPU (direct_max 128) and take no scratch at all (a GPUBLAS3_PLAN of
     * the caller's wins: the bisection's direct runs) */
    setenv("GPUBLAS3_PLAN", "packed", 0);
    rel_open(&pool_dev);
    rel_watchdog(20);
    shim_counts c0;
    shim_get(&c0);
    base_bytes = c0.bytes_live;
    for (size_t i = 0; i < nstages; i++) {
        int run = argc == 1 && stages[i].whole;
        for (int a = 1; a < argc; a++)
            run |= !strcmp(argv[a], stages[i].name);
        if (run) {
            stage(stages[i].name);
            stages[i].fn();
        }
    }
    stage("release the queue");
    clReleaseCommandQueue(pool_dev.q);
    /* bounded: on the H100 (NVIDIA 580) clReleaseContext has not returned
     * after the out-of-order gated case, though every object was released
     * and neither driver-only control of that case's pattern hangs
     * (docs/performance.md): a failure to report, not a hang to time out */
    cl_uint refs = 0;
    clGetContextInfo(pool_dev.ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, NULL);
    printf("test_pool: the context's reference count before its release: %u\n", refs);
    stage("release the context");
    side_run r;
    side_start(&r, release_context, NULL);
    if (!side_returned(&r, 20)) {
        rel_expect(0, "clReleaseContext did not return within 20 s");
        rel_finish("test_pool");
        fflush(stdout);
        _exit(1);
    }
    pthread_join(r.t, NULL);
    stage("done");
    return rel_finish("test_pool");
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* One call over several command queues (routines/plan/split.c), for every
 * routine and option (the complex ones in complex_routines): two and three
 * queues on one device, and queues on two devices of one context (two root
 * devices when the platform has them, as with POCL_DEVICES="pthread
 * pthread", else two sub-devices of the test device).  On two devices a
 * queue on the second device computes its block into scratch and queue 0
 * copies it into C (PoCL shares memory between them, so this checks
 * correctness only).  Each call is judged as the one-queue tests judge it
 * (OpenBLAS, canaries in ld padding, offsets, tails and the other triangle,
 * inputs unchanged, NaN in C with beta = 0), and its events: one per queue,
 * each on its own queue, except that a share on the second device ends
 * with its copy into C on queue 0; that share must really run (not a
 * marker) whenever the call can be cut.  Calls gated on user events must
 * return before the gates open and leave the output untouched until then.
 * Bad queue lists (a NULL or foreign queue past the first) return their
 * status and enqueue nothing. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include "harness.h"

#define MAXQ 3

/* Queues of one call, all of one context. */
typedef struct {
    const char *name;
    cl_context ctx;
    cl_uint nq;
    cl_command_queue q[MAXQ];
    int devices;              /* distinct devices among the queues */
    cl_command_queue reader;  /* of the same context, not among q */
    int remote[MAXQ];         /* queue i is on another device than queue 0 */
} qset;

static qset one2, one3, two2, two3;
static cl_device_id subdev[2];
static int have_subdevs;

static cl_command_queue queue_on(cl_context ctx, cl_device_id dev)
{
    cl_int err;
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    assert_int_equal(err, CL_SUCCESS);
    return q;
}

/* Two devices of one context: the test device and another root device of
 * its platform, else two sub-devices of the test device. */
static int two_devices(cl_device_id out[2])
{
    cl_platform_id plat;
    cl_device_id devs[8];
    cl_uint n = 0;
    clGetDeviceInfo(env.device, CL_DEVICE_PLATFORM, sizeof plat, &plat, NULL);
    clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 8, devs, &n);
    for (cl_uint i = 0; i < n && i < 8; i++)
        if (devs[i] != env.device) {
            out[0] = env.device;
            out[1] = devs[i];
            fprintf(stderr, "two devices: two root devices of the platform\n");
            return 1;
        }
    cl_device_partition_property props[] = { CL_DEVICE_PARTITION_EQUALLY, 1, 0 };
    cl_uint ns = 0;
    if (clCreateSubDevices(env.device, props, 2, subdev, &ns) != CL_SUCCESS || ns < 2) {
        fprintf(stderr, "two devices: none (no second device, no sub-devices)\n");
        return 0;
    }
    have_subdevs = 1;
    out[0] = subdev[0];
    out[1] = subdev[1];
    fprintf(stderr, "two devices: two sub-devices of the test device\n");
    return 1;
}

static int open_all(void **state)
{
    if (env_open(state)) return -1;
    one2 = (qset){ "2 queues, 1 device", env.ctx, 2, { env.q, queue_on(env.ctx, env.device) }, 1, env.q2, { 0 } };
    one3 = (qset){ "3 queues, 1 device", env.ctx, 3,
                   { env.q, one2.q[1], queue_on(env.ctx, env.device) }, 1, env.q2, { 0 } };
    cl_device_id d[2];
    if (two_devices(d)) {
        cl_int err;
        cl_context ctx = clCreateContext(NULL, 2, d, NULL, NULL, &err);
        if (err) return -1;
        two2 = (qset){ "2 queues, 2 devices", ctx, 2, { queue_on(ctx, d[0]), queue_on(ctx, d[1]) }, 2,
                       queue_on(ctx, d[0]), { 0, 1, 0 } };
        two3 = (qset){ "3 queues, 2 devices", ctx, 3, { two2.q[0], two2.q[1], queue_on(ctx, d[0]) }, 2,
                       two2.reader, { 0, 1, 0 } };
    }
    return 0;
}

static int close_all(void **state)
{
    clReleaseCommandQueue(one2.q[1]);
    clReleaseCommandQueue(one3.q[2]);
    if (two2.ctx) {
        for (int i = 0; i < 2; i++) clReleaseCommandQueue(two2.q[i]);
        clReleaseCommandQueue(two3.q[2]);
        clReleaseCommandQueue(two2.reader);
        clReleaseContext(two2.ctx);
    }
    for (int i = 0; have_subdevs && i < 2; i++) clReleaseDevice(subdev[i]);
    return env_close(state);
}

static cl_int event_info_int(cl_event e, cl_event_info what)
{
    cl_int v = 0;
    assert_int_equal(clGetEventInfo(e, what, sizeof v, &v, NULL), CL_SUCCESS);
    return v;
}

/* The largest base-address alignment (bytes) of the context's devices. */
static size_t base_align(cl_context ctx)
{
    cl_device_id devs[4];
    size_t n = 0, align = 8;
    clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof devs, devs, &n);
    for (size_t i = 0; i < n / sizeof devs[0]; i++) {
        cl_uint bits = 0;
        clGetDeviceInfo(devs[i], CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL);
        if (bits / 8 > align) align = bits / 8;
    }
    return align;
}

/* The operands in mask (bit k: A, B, C) moved into sub-buffers of one
 * parent (written through q), each at an aligned origin; the parent is
 * returned (released by the caller after the judge has released the
 * sub-buffers). */
static cl_mem in_one_parent(test_call *t, cl_context ctx, cl_command_queue q, int mask)
{
    size_t es = spec_elem_size(&t->d.c), align = base_align(ctx), at[3], total = 0;
    for (int k = 0; k < 3; k++) {
        at[k] = total;
        if ((mask >> k & 1) && t->d.host[k]) total += (t->d.n[k] * es + align - 1) / align * align;
    }
    cl_int err;
    cl_mem parent = clCreateBuffer(ctx, CL_MEM_READ_WRITE, total, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    for (int k = 0; k < 3; k++) {
        if (!(mask >> k & 1) || !t->d.host[k]) continue;
        cl_buffer_region r = { at[k], t->d.n[k] * es };
        clReleaseMemObject(t->m[k]);
        t->m[k] = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
        assert_int_equal(err, CL_SUCCESS);
        assert_int_equal(clEnqueueWriteBuffer(q, t->m[k], CL_TRUE, 0, r.size, t->d.host[k], 0, NULL, NULL),
                         CL_SUCCESS);
    }
    return parent;
}

/* Starts case c on the queues of s (buffers in s's context; with a
 * parent_mask, those operands in sub-buffers of *parent). */
static void start_in(test_call *t, const qset *s, const spec_case *c, uint64_t seed, cl_uint nwait,
                     const cl_event *wait, cl_event *events, int parent_mask, cl_mem *parent)
{
    memset(t, 0, sizeof *t);
    t->seed = seed;
    data_fill(&t->d, c, seed, 0);
    for (int k = 0; k < 3; k++) t->m[k] = data_buffer(&t->d, k, s->ctx);
    if (parent_mask)
        *parent = in_one_parent(t, s->ctx, s->reader, parent_mask);
    cl_command_queue q[MAXQ];
    memcpy(q, s->q, sizeof q);
    t->status = spec_run_queues(&t->d.c, s->nq, q, t->m[0], t->m[1], t->m[2], nwait, wait, events);
}

static void start(test_call *t, const qset *s, const spec_case *c, uint64_t seed, cl_uint nwait,
                  const cl_event *wait, cl_event *events)
{
    start_in(t, s, c, seed, nwait, wait, events, 0, NULL);
}

/* Checks events[i] (one per queue, on queue i; a share on the second
 * device may end on queue 0, with its copy into C: then not a marker);
 * kernels counts the shares that ran a command rather than a marker. */
static int check_events(const qset *s, const cl_event *ev, int *kernels)
{
    int bad = 0;
    *kernels = 0;
    for (cl_uint i = 0; i < s->nq; i++) {
        cl_command_queue q = NULL;
        if (!ev[i]) {
            print_error("%s: events[%u] not set\n", s->name, i);
            bad = 1;
            continue;
        }
        clGetEventInfo(ev[i], CL_EVENT_COMMAND_QUEUE, sizeof q, &q, NULL);
        int marker = event_info_int(ev[i], CL_EVENT_COMMAND_TYPE) == CL_COMMAND_MARKER;
        if (q != s->q[i] && !(s->remote[i] && q == s->q[0] && !marker)) {
            print_error("%s: events[%u] is not on queue %u%s\n", s->name, i, i, s->remote[i] ? " nor a copy on 0" : "");
            bad = 1;
        }
        *kernels += !marker;
    }
    return bad;
}

/* Runs c on s, waits for every event, judges the result; share_on_1: the
 * share of queue 1 must (1) or must not (0) run, -1: either; parent_mask:
 * those operands (bit k: A, B, C) in sub-buffers of one buffer. */
static int run_case_in(const qset *s, const spec_case *c, uint64_t seed, int share_on_1, int parent_mask)
{
    test_call t;
    cl_event ev[MAXQ] = { 0 };
    cl_mem parent = NULL;
    start_in(&t, s, c, seed, 0, NULL, ev, parent_mask, &parent);
    int bad = 0, kernels = 0;
    if (t.status == gpublas3Success) {
        bad |= check_events(s, ev, &kernels);
        assert_int_equal(clWaitForEvents(s->nq, ev), CL_SUCCESS);
        if (share_on_1 >= 0 && (event_info_int(ev[1], CL_EVENT_COMMAND_TYPE) != CL_COMMAND_MARKER) != share_on_1) {
            print_error("%s: queue 1's share %s\n", s->name, share_on_1 ? "is empty" : "is not empty");
            bad = 1;
        }
        for (cl_uint i = 0; i < s->nq; i++) if (ev[i]) clReleaseEvent(ev[i]);
    }
    /* read through a queue of none of the shares: ordered after nothing but the waits */
    bad |= case_judge(&t, s->reader);
    if (bad) {
        char desc[256];
        spec_describe(c, desc, sizeof desc);
        print_error("  on %s: %s\n", s->name, desc);
    }
    for (cl_uint i = 0; i < s->nq; i++) clFinish(s->q[i]);
    if (parent) clReleaseMemObject(parent);
    return bad;
}

static int run_case(const qset *s, const spec_case *c, uint64_t seed, int share_on_1)
{
    return run_case_in(s, c, seed, share_on_1, 0);
}

/* Shapes that cut into several blocks on the CI device (its tiles are 4 to
 * 64 wide), with offsets; padded() adds ld padding once the shape is set. */
static spec_case base(spec_routine r, int dbl, size_t m, size_t n, size_t k)
{
    spec_case c = { .routine = r, .dbl = dbl, .M = m, .N = n, .K = k, .alpha = 1.5, .beta = -0.75,
                    .offA = 3, .offB = 2, .offC = 5 };
    return c;
}

/* Every option of routine r in both precisions on s. */
static int sweep(const qset *s, spec_routine r)
{
    int fails = 0;
    uint64_t seed = 100 * r;
    for (int dbl = 0; dbl < 2; dbl++)
        for (int o = 0; o < 2; o++)
            for (int x = 0; x < 4; x++)
                for (int y = 0; y < 2; y++)
                    for (int z = 0; z < (r == SPEC_TRMM ? 4 : 2); z++) {
                        /* both cuts: N > M (columns) and M > N (rows) */
                        spec_case c = z & 1 ? base(r, dbl, 150, 70, 40) : base(r, dbl, 70, 150, 40);
                        c.order = orders[o];
                        c.side = sides[x & 1];
                        c.uplo = uplos[x >> 1];
                        c.transA = transposes[y];
                        c.transB = transposes[z & 1];
                        c.diag = diags[z >> 1];
                        if ((r == SPEC_SYRK || r == SPEC_SYR2K) && (x & 1))
                            continue; /* no side */
                        if (r == SPEC_SYRK || r == SPEC_SYR2K)
                            c.N = z & 1 ? 130 : 97;
                        if (r == SPEC_GEMM && x) continue; /* neither side nor uplo */
                        if (z & 1) c.beta = 0; /* C NaN: never read */
                        c = padded(c, 3);
                        fails += run_case(s, &c, seed++, -1);
                    }
    return fails;
}

static void each_routine(const qset *s)
{
    if (!s->ctx) { skip(); return; }
    int fails = 0;
    for (int r = 0; r < SPEC_NROUTINES; r++) fails += sweep(s, r);
    assert_int_equal(fails, 0);
}

static void routines_2_queues_1_device(void **state) { (void)state; each_routine(&one2); }
static void routines_3_queues_1_device(void **state) { (void)state; each_routine(&one3); }
static void routines_2_queues_2_devices(void **state) { (void)state; each_routine(&two2); }
static void routines_3_queues_2_devices(void **state) { (void)state; each_routine(&two3); }

/* Complex calls are cut in complex elements before complex.c maps each
 * block to a real call: every complex routine, both cuts, complex scalars,
 * conjugate transposes, on one device and on two (TRSM on two: on queue
 * 0, the other device's events markers). */
static void complex_routines(void **state)
{
    (void)state;
    static const spec_routine rs[] = { SPEC_GEMM, SPEC_SYMM, SPEC_HEMM, SPEC_SYRK, SPEC_HERK,
                                       SPEC_SYR2K, SPEC_HER2K, SPEC_TRMM, SPEC_TRSM };
    const qset *sets[] = { &one3, &two2 };
    int fails = 0;
    for (int i = 0; i < 2; i++) {
        if (!sets[i]->ctx) continue;
        for (size_t k = 0; k < sizeof rs / sizeof rs[0]; k++)
            for (int z = 0; z < 2; z++) {
                spec_routine r = rs[k];
                int rank = r == SPEC_SYRK || r == SPEC_HERK || r == SPEC_SYR2K || r == SPEC_HER2K;
                int herm = r == SPEC_HERK || r == SPEC_HER2K;
                spec_case c = z ? base(r, (int)(k + z) % 2, 150, 70, 40) : base(r, (int)(k + z) % 2, 70, 150, 40);
                c.cplx = 1;
                c.alpha_im = 0.5;
                c.beta_im = -1;
                c.order = orders[z];
                c.side = sides[z];
                c.uplo = uplos[k % 2];
                c.transA = !z ? gpublas3NoTrans : rank && !herm ? gpublas3Trans : gpublas3ConjTrans;
                c.transB = gpublas3ConjTrans;
                c.diag = diags[z];
                if (z) c.beta = c.beta_im = 0; /* C NaN: never read */
                if (rank) c.N = z ? 130 : 97;
                c = padded(c, 3);
                fails += run_case(sets[i], &c, 700 + 10 * k + z, -1);
            }
    }
    assert_int_equal(fails, 0);
}

/* Quick returns, scale-only calls and calls with fewer blocks than queues:
 * every queue still returns its event, and the result is right. */
static void edges(void **state)
{
    (void)state;
    const qset *sets[] = { &one3, &two3 };
    int fails = 0;
    for (int i = 0; i < 2; i++) {
        if (!sets[i]->ctx) continue;
        for (int r = 0; r < SPEC_NROUTINES; r++) {
            spec_case tiny = base(r, 1, 5, 3, 4), empty = base(r, 0, 0, 40, 7), noK = base(r, 0, 90, 90, 0);
            if (r == SPEC_SYRK || r == SPEC_SYR2K) empty.N = 0;
            spec_case zero_alpha = base(r, 1, 90, 90, 30);
            zero_alpha.alpha = 0;
            fails += run_case(sets[i], &tiny, 1, -1) + run_case(sets[i], &empty, 2, 0)
                   + run_case(sets[i], &noK, 3, -1) + run_case(sets[i], &zero_alpha, 4, -1);
        }
    }
    assert_int_equal(fails, 0);
}

/* On two devices the second device must get its share (computed in its
 * scratch, copied into C by queue 0) however C is laid out: any offset and
 * ld, column and row cuts, both triangles, complex, C a sub-buffer; and the
 * whole call must run on queue 0 (right all the same) when an input lives
 * in C's storage (here: sibling sub-buffers of one buffer). */
static void second_device_gets_its_share(void **state)
{
    (void)state;
    if (!two2.ctx) { skip(); return; }
    int fails = 0;
    for (int dbl = 0; dbl < 2; dbl++) {
        spec_case g = base(SPEC_GEMM, dbl, 64, 200, 50);
        g.order = gpublas3ColumnMajor;
        g = padded(g, 7);
        fails += run_case(&two2, &g, 10 + dbl, 1);
        fails += run_case_in(&two2, &g, 20 + dbl, 1, 4);  /* C a sub-buffer */
        fails += run_case_in(&two2, &g, 22 + dbl, 0, 5);  /* A beside C in one buffer */
        for (int u = 0; u < 2; u++) {
            spec_case syrk = base(SPEC_SYR2K, dbl, 0, 200, 50);
            syrk.uplo = uplos[u];
            syrk.order = gpublas3ColumnMajor;
            spec_case p = padded(syrk, 3);
            fails += run_case(&two2, &p, 12 + dbl + 2 * u, 1);
            syrk.cplx = 1;
            syrk.routine = SPEC_HERK;
            syrk.beta = u ? 0 : syrk.beta; /* NaN in C */
            p = padded(syrk, 3);
            fails += run_case(&two2, &p, 30 + dbl + 2 * u, 1);
        }
        spec_case trmm = base(SPEC_TRMM, dbl, 64, 200, 0);
        trmm.order = gpublas3ColumnMajor;
        spec_case right = trmm;                              /* cut by rows */
        right.side = gpublas3Right;
        right.M = 200;
        right.N = 64;
        trmm = padded(trmm, 5);
        right = padded(right, 5);
        fails += run_case(&two2, &trmm, 16 + dbl, 1);
        fails += run_case_in(&two2, &trmm, 24 + dbl, 0, 3); /* A beside B (the output) */
        fails += run_case(&two2, &right, 18 + dbl, 1);
    }
    assert_int_equal(fails, 0);
}

/* TRSM, and TRMM where the device multiplies TRSM's blocks (PoCL's rows:
 * trsm_subst 1), share out the right-hand sides among the queues of one
 * device, columns of B on the left and rows on the right, each queue's run
 * solved on it alone; on two devices TRSM runs on queue 0 (queue 1's event
 * a marker) and TRMM keeps split.c's shares.  GPUs' rows (trsm_subst 0)
 * multiply TRMM by the band launch, whose blocks split.c shares out by
 * tiles, so queue 1's share of 70 rows may be empty there (H200,
 * 2026-12-07). */
static void solves_share_the_right_hand_sides(void **state)
{
    (void)state;
    if (!one3.ctx) { skip(); return; }
    int fails = 0;
    const int solved = env_cpu(); /* TRMM as the solve's product */
    for (int dbl = 0; dbl < 2; dbl++)
        for (int r = 0; r < 2; r++)
            for (int x = 0; x < 4; x++) {
                spec_case c = base(r ? SPEC_TRMM : SPEC_TRSM, dbl, 70, 150, 0);
                c.order = orders[x >> 1];
                c.side = sides[x & 1];
                c.uplo = uplos[x & 1];
                c.transA = transposes[x >> 1];
                c.cplx = x == 3;
                c.alpha_im = c.cplx ? 0.5 : 0;
                c = padded(c, 3);
                fails += run_case(&one3, &c, 800 + 10 * dbl + 4 * r + x, r && !solved ? -1 : 1);
                fails += run_case(&one2, &c, 900 + 10 * dbl + 4 * r + x, r && !solved ? -1 : 1);
                if (two2.ctx)
                    fails += run_case(&two2, &c, 1000 + 10 * dbl + 4 * r + x, r);
            }
    assert_int_equal(fails, 0);
}

static void pause_briefly(void)
{
    struct timespec t = { 0, 100 * 1000 * 1000 };
    nanosleep(&t, NULL);
}

/* Gated on two user events: the call returns at once, no queue's share
 * runs (the output, read through another queue, is unchanged and no event
 * completes) until both are set, and then the result is right. */
static int gated(const qset *s, const spec_case *c, uint64_t seed)
{
    cl_int err;
    cl_event gate[2], ev[MAXQ] = { 0 };
    for (int i = 0; i < 2; i++) {
        gate[i] = clCreateUserEvent(s->ctx, &err);
        assert_int_equal(err, CL_SUCCESS);
    }
    test_call t;
    start(&t, s, c, seed, 2, gate, ev);
    assert_int_equal(t.status, gpublas3Success);
    int kernels, fails = check_events(s, ev, &kernels);
    for (cl_uint i = 0; i < s->nq; i++) clFlush(s->q[i]);
    int k = spec_output(&t.d.c) == 'B' ? 1 : 2;
    size_t bytes = t.d.n[k] * spec_elem_size(&t.d.c);
    for (int open = 0; open < 2; open++) {
        pause_briefly();
        for (cl_uint i = 0; i < s->nq; i++)
            if (event_info_int(ev[i], CL_EVENT_COMMAND_EXECUTION_STATUS) == CL_COMPLETE) {
                print_error("%s: queue %u's share completed with a gate shut\n", s->name, i);
                fails++;
            }
        void *now = read_back(s->reader, t.m[k], bytes);
        if (memcmp(now, t.d.host[k], bytes)) {
            print_error("%s: output changed with a gate shut\n", s->name);
            fails++;
        }
        free(now);
        clSetUserEventStatus(gate[open], CL_COMPLETE);
    }
    assert_int_equal(clWaitForEvents(s->nq, ev), CL_SUCCESS);
    for (cl_uint i = 0; i < s->nq; i++) clReleaseEvent(ev[i]);
    fails += case_judge(&t, s->reader);
    for (int i = 0; i < 2; i++) clReleaseEvent(gate[i]);
    for (cl_uint i = 0; i < s->nq; i++) clFinish(s->q[i]);
    return fails;
}

static void gated_on_user_events(void **state)
{
    (void)state;
    const qset *sets[] = { &one3, &two2 };
    int fails = 0;
    for (int i = 0; i < 2; i++) {
        if (!sets[i]->ctx) continue;
        for (int r = 0; r < SPEC_NROUTINES; r++) {
            spec_case c = padded(base(r, r & 1, 90, 120, 33), 1);
            fails += gated(sets[i], &c, 50 + r);
        }
    }
    assert_int_equal(fails, 0);
}

/* A NULL queue or one of another context past the first: its status,
 * nothing enqueued (the output unchanged), no event. */
static void bad_queue_lists(void **state)
{
    (void)state;
    cl_command_queue foreign = clCreateCommandQueue(env.other_ctx, env.device, 0, NULL);
    cl_command_queue lists[2][3] = { { env.q, NULL, env.q2 }, { env.q, env.q2, foreign } };
    gpublas3Status want[2] = { gpublas3InvalidCommandQueue, gpublas3InvalidContext };
    int fails = 0;
    for (int r = 0; r < SPEC_NROUTINES; r++)
        for (int l = 0; l < 2; l++) {
            spec_case c = padded(base(r, 0, 40, 50, 20), 1);
            test_data d;
            data_fill(&d, &c, 7, 0);
            cl_mem m[3];
            for (int k = 0; k < 3; k++) m[k] = data_buffer(&d, k, env.ctx);
            cl_event ev[3] = { 0 };
            gpublas3Status st = spec_run_queues(&d.c, 3, lists[l], m[0], m[1], m[2], 0, NULL, ev);
            clFinish(env.q);
            int k = spec_output(&d.c) == 'B' ? 1 : 2;
            void *now = read_back(env.q2, m[k], d.n[k] * spec_elem_size(&d.c));
            if (st != want[l] || ev[0] || ev[1] || ev[2] || memcmp(now, d.host[k], d.n[k] * spec_elem_size(&d.c))) {
                print_error("%s with a bad queue %d: status %d, wanted %d\n", spec_routine_name(r), l, st, want[l]);
                fails++;
            }
            free(now);
            for (int x = 0; x < 3; x++) if (m[x]) clReleaseMemObject(m[x]);
            data_free(&d);
        }
    clReleaseCommandQueue(foreign);
    assert_int_equal(fails, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_queue_lists),
        cmocka_unit_test(routines_2_queues_1_device),
        cmocka_unit_test(routines_3_queues_1_device),
        cmocka_unit_test(routines_2_queues_2_devices),
        cmocka_unit_test(routines_3_queues_2_devices),
        cmocka_unit_test(complex_routines),
        cmocka_unit_test(edges),
        cmocka_unit_test(second_device_gets_its_share),
        cmocka_unit_test(solves_share_the_right_hand_sides),
        cmocka_unit_test(gated_on_user_events),
    };
    return cmocka_run_group_tests_name("multiqueue", tests, open_all, close_all);
}

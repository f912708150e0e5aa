/* SPDX-License-Identifier: BSD-3-Clause */
/* Memory limits: scratch never makes a legal call fail.  Every routine, in
 * both precisions, runs under ever smaller scratch caps
 * (GPUBLAS3_SCRATCH_LIMIT, as fractions of what the call takes uncapped)
 * and on a device that refuses large buffers at creation, refuses them when
 * they are made resident (lazy allocation), or reports a small
 * CL_DEVICE_MAX_MEM_ALLOC_SIZE.  Each call must either give OpenBLAS's
 * answer, having used no more scratch than allowed, or return
 * gpublas3OutOfResources with every buffer and events[0] untouched; the
 * caps must make the work split (more launches), TRMM's snapshot of B must
 * be split too, and a tiny cap must fail.  Run twice: with the tuned
 * parameters, and with small tiles (GPUBLAS3_PARAMS) so that modest sizes
 * split into many panels. */
#include <stdlib.h>
#include <string.h>
#include "rel.h"
#include "shim.h"

static rel_dev dev;

/* Small tiles, staged through local memory (the CPU rows of the tuned
 * table do not stage): many panels at modest sizes, and the other path of
 * the kernel.  An override the library cannot use is reported and ignored. */
#define SMALL_TILES "mwg=16,nwg=16,kwg=8,mdimc=4,ndimc=4,vwm=2,vwn=2,kwi=2,sa=1,sb=1,db=1,pad=2,mma=0," \
                    "copy_ts=8,copy_rs=4"
/* Tiles of different widths (MWG != NWG), as the H100's rows have: the
 * panel shrinking once looped for ever on them under a cap.  And SYR2K in
 * its square form, as there: X's scratch and its GEMM's together once
 * went over the cap. */
#define LOPSIDED_TILES "mwg=16,nwg=32,kwg=8,mdimc=8,ndimc=8,vwm=2,vwn=1,kwi=2,sa=1,sb=0,db=0,pad=2,wtm=8,mma=0," \
                       "copy_ts=8,copy_rs=2,square2k=65536"

/* Parameters override (NULL: none); the device state reads them again at
 * the first call after a restart.  trsm_subst=0 always: TRMM's snapshot in
 * scratch, whose caps these cases check (CPUs' rows multiply TRMM's
 * blocks in place by kernels/subst.cl, with no scratch of its own). */
static void restart(void);
static void use_params(const char *params)
{
    char with[512];
    snprintf(with, sizeof with, "trsm_subst=0%s%s", params ? "," : "", params ? params : "");
    setenv("GPUBLAS3_PARAMS", with, 1);
    restart();
}

static void set_limit(size_t bytes)
{
    char v[32];
    snprintf(v, sizeof v, "%zu", bytes);
    if (bytes) setenv("GPUBLAS3_SCRATCH_LIMIT", v, 1);
    else unsetenv("GPUBLAS3_SCRATCH_LIMIT");
}

/* What the run cost: restarts and the programs they made the library
 * build again (from source, or from the disk cache's binaries). */
static long restarts, from_source, from_binary;

/* A fresh library state: empty pool, device state read again.  Teardown
 * releases the compiled programs too, so the next call builds its kernels
 * again: from the disk cache (GPUBLAS3_CACHE_DIR) after the first time. */
static void restart(void)
{
    gpublas3Teardown();
    gpublas3Setup();
    restarts++;
}

typedef struct {
    gpublas3Status st;
    long launches;       /* kernels enqueued */
    long scratch_peak;   /* bytes of buffers alive at once beyond the test's own */
    int untouched;       /* on failure: all buffers as before, events[0] not written */
} outcome;

static void creates_from(size_t n) { shim_fail_create_from((long)n); }

/* Runs c with the fault `arm` (if any) armed for the call only. */
static outcome run_armed(const spec_case *c, uint64_t seed, const char *what, int *bad, void (*arm)(size_t),
                         size_t arg)
{
    rel_case r;
    outcome o = { 0 };
    rel_fill(&r, c, seed, 3);
    rel_upload(&r, dev.ctx, dev.q);
    if (arm) arm(arg);
    shim_reset_calls();
    shim_counts before, after;
    shim_get(&before);
    cl_event ev = (cl_event)&o; /* a sentinel the call must not overwrite on failure */
    o.st = spec_run(&r.c, dev.q, r.buf[0], r.buf[1], r.buf[2], 0, NULL, &ev);
    shim_clear_faults();
    shim_get(&after);
    from_source += after.calls[SHIM_CREATE_PROGRAM_SOURCE];
    from_binary += after.calls[SHIM_CREATE_PROGRAM_BINARY];
    o.launches = after.calls[SHIM_NDRANGE];
    o.scratch_peak = after.bytes_peak - before.bytes_live;
    if (o.st == gpublas3Success) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
        *bad |= rel_judge(&r, dev.q, what);
    } else {
        clFinish(dev.q);
        o.untouched = ev == (cl_event)&o && rel_unchanged(&r, dev.q);
    }
    rel_free(&r);
    return o;
}

static outcome run_one(const spec_case *c, uint64_t seed, const char *what, int *bad)
{
    return run_armed(c, seed, what, bad, NULL, 0);
}

/* An empty pool without a restart, which would make the library build its
 * programs again (on NVIDIA's driver a JIT compilation each time: 566
 * restarts took over 300 s on the H100).  A call whose scratch no pooled
 * buffer holds, with every clCreateBuffer refused, makes the pool give back
 * everything idle and try again (lib/pool.c), then fails; what is left
 * alive must be what was before any call. */
static long live_at_start;

static void drain(void)
{
    spec_case big = { .routine = SPEC_GEMM, .order = gpublas3ColumnMajor, .dbl = 1, .M = 512, .N = 512, .K = 512,
                      .alpha = 1 };
    int bad = 0;
    set_limit(0);
    outcome o = run_armed(&big, 1, "drain", &bad, shim_fail_create_above, 1);
    shim_counts now;
    shim_get(&now);
    rel_expect(o.st == gpublas3OutOfResources && now.bytes_live == live_at_start,
               "drain: status %d, %ld bytes still alive", o.st, now.bytes_live - live_at_start);
}

/* The cases: odd sizes, both triangles, K panels with beta != 1, beta = 0
 * (NaN in C), row and column major. */
static int make_cases(spec_case *out)
{
    int n = 0;
    for (int dbl = 0; dbl < 2; dbl++) {
        spec_case c = { .dbl = dbl, .alpha = 1.5, .beta = 2.5, .offA = 3, .offB = 1, .offC = 2 };
        /* GEMM */
        c.routine = SPEC_GEMM; c.order = gpublas3ColumnMajor; c.M = 77; c.N = 53; c.K = 91;
        c.transA = gpublas3NoTrans; c.transB = gpublas3NoTrans; out[n++] = c;
        c.order = gpublas3RowMajor; c.transA = gpublas3Trans; c.beta = 0; c.lda = 100; out[n++] = c;
        c.lda = 0; c.beta = 2.5;
        /* M between one and two tiles of a lopsided set, under N: the case
         * whose shrinking once looped (LOPSIDED_TILES; on the H100, M = 53
         * and N = 77 with its small set's 32 x 64 tiles) */
        c.order = gpublas3ColumnMajor; c.transA = gpublas3NoTrans; c.M = 24; c.N = 50; c.K = 40; out[n++] = c;
        c.M = 77; c.N = 53; c.K = 91;
        /* SYMM */
        c.routine = SPEC_SYMM; c.order = gpublas3ColumnMajor; c.side = gpublas3Left; c.uplo = gpublas3Upper;
        c.M = 77; c.N = 53; out[n++] = c;
        c.side = gpublas3Right; c.uplo = gpublas3Lower; c.order = gpublas3RowMajor; out[n++] = c;
        /* SYRK, SYR2K: both triangles, both trans */
        c.routine = SPEC_SYRK; c.order = gpublas3ColumnMajor; c.uplo = gpublas3Upper; c.transA = gpublas3NoTrans;
        c.N = 77; c.K = 91; out[n++] = c;
        c.uplo = gpublas3Lower; c.transA = gpublas3Trans; c.beta = 0; out[n++] = c;
        c.routine = SPEC_SYR2K; c.uplo = gpublas3Upper; c.transA = gpublas3NoTrans; c.beta = -1; out[n++] = c;
        c.uplo = gpublas3Lower; c.transA = gpublas3Trans; c.order = gpublas3RowMajor; out[n++] = c;
        /* TRMM: B is snapshotted; N (left) or M (right) large enough to split it */
        c.routine = SPEC_TRMM; c.order = gpublas3ColumnMajor; c.side = gpublas3Left; c.uplo = gpublas3Upper;
        c.transA = gpublas3NoTrans; c.diag = gpublas3NonUnit; c.M = 77; c.N = 150; out[n++] = c;
        c.side = gpublas3Right; c.uplo = gpublas3Lower; c.transA = gpublas3Trans; c.diag = gpublas3Unit;
        c.M = 150; c.N = 61; out[n++] = c;
        c.order = gpublas3RowMajor; c.side = gpublas3Left; c.M = 45; c.N = 140; out[n++] = c;
    }
    return n;
}

static const double fractions[] = { 0.7, 0.45, 0.3, 0.2, 0.12, 0.07, 0.03 };
static size_t nfrac = sizeof fractions / sizeof fractions[0];

/* peak[i]: the scratch case i took uncapped (device_refuses reuses the
 * tuned run's rather than run it again after another restart). */
static void caps(const char *params, long peak[])
{
    spec_case cases[32];
    int n = make_cases(cases);
    for (int i = 0; i < n; i++) {
        const spec_case *c = &cases[i];
        char what[160], desc[200];
        spec_describe(c, desc, sizeof desc);
        rel_stage("test_memlimits: caps", desc);
        int bad = 0;
        drain();
        set_limit(0);
        outcome whole = run_one(c, i, "uncapped", &bad);
        rel_expect(whole.st == gpublas3Success && !bad, "uncapped %s: status %d", desc, whole.st);
        peak[i] = whole.scratch_peak;
        int split = 0;
        for (size_t f = 0; f < nfrac; f++) {
            size_t cap = (size_t)(fractions[f] * (double)whole.scratch_peak);
            drain();
            set_limit(cap);
            snprintf(what, sizeof what, "cap %zu bytes (%s)", cap, params);
            outcome o = run_one(c, 100 + i, what, &bad);
            if (o.st == gpublas3Success) {
                rel_expect(o.scratch_peak <= (long)cap, "%s: %s used %ld bytes of scratch", what, desc,
                           o.scratch_peak);
                split |= o.launches > whole.launches;
            } else {
                rel_expect(o.st == gpublas3OutOfResources, "%s: %s: status %d", what, desc, o.st);
                rel_expect(o.untouched, "%s: %s failed but changed a buffer or events[0]", what, desc);
            }
        }
        rel_expect(!bad, "%s: wrong results under caps (%s)", desc, params);
        rel_expect(split, "%s: no cap made the work split (%s)", desc, params);
        /* far below one tile: must fail cleanly */
        drain();
        set_limit(64);
        outcome o = run_one(c, 200 + i, "cap 64 bytes", &bad);
        rel_expect(o.st == gpublas3OutOfResources && o.untouched, "cap 64: %s: status %d untouched %d", desc,
                   o.st, o.untouched);
    }
    set_limit(0);
}

/* TRMM's snapshot of B counts against the cap and is split: a cap under
 * the size of B alone still succeeds. */
static void trmm_snapshot(void)
{
    spec_case c = { .routine = SPEC_TRMM, .order = gpublas3ColumnMajor, .side = gpublas3Left,
                    .uplo = gpublas3Lower, .transA = gpublas3NoTrans, .diag = gpublas3NonUnit,
                    .M = 40, .N = 300, .alpha = -2 };
    for (int dbl = 0; dbl < 2; dbl++) {
        c.dbl = dbl;
        size_t bbytes = c.M * c.N * (dbl ? 8 : 4);
        int bad = 0, ok = 0;
        for (size_t cap = bbytes * 9 / 10; cap > bbytes / 8; cap = cap * 3 / 4) {
            drain();
            set_limit(cap);
            outcome o = run_one(&c, 7, "trmm snapshot cap", &bad);
            if (o.st == gpublas3Success) {
                ok++;
                rel_expect(o.scratch_peak <= (long)cap, "trmm: %ld bytes of scratch under cap %zu", o.scratch_peak,
                           cap);
            } else {
                rel_expect(o.st == gpublas3OutOfResources && o.untouched, "trmm cap %zu: status %d", cap, o.st);
            }
        }
        rel_expect(ok && !bad, "trmm: no cap below the size of B succeeded (%d) or wrong results", ok);
    }
    set_limit(0);
}

/* GPUBLAS3_SCRATCH_LIMIT's syntax: bytes or k/M/G; anything else ignored. */
static void limit_syntax(void)
{
    static const struct { const char *v; int ok; } t[] = {
        { "1k", 0 }, { "1024", 0 }, { "2K", 0 }, { "64M", 1 }, { "1G", 1 }, { "1g", 1 },
        { "abc", 1 }, { "-5", 1 }, { "12kb", 1 }, { "", 1 },
    };
    spec_case c = { .routine = SPEC_GEMM, .order = gpublas3ColumnMajor, .M = 50, .N = 40, .K = 30, .alpha = 1 };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        int bad = 0;
        drain();
        setenv("GPUBLAS3_SCRATCH_LIMIT", t[i].v, 1);
        outcome o = run_one(&c, i, "limit syntax", &bad);
        rel_expect((o.st == gpublas3Success) == t[i].ok && !bad, "GPUBLAS3_SCRATCH_LIMIT=\"%s\": status %d", t[i].v,
                   o.st);
    }
    set_limit(0);
}

/* The device, not the cap, says no; peak[i]: case i's scratch uncapped. */
static void device_refuses(const long peak[])
{
    spec_case cases[32];
    int n = make_cases(cases);
    for (int i = 0; i < n; i++) {
        const spec_case *c = &cases[i];
        char desc[200];
        spec_describe(c, desc, sizeof desc);
        rel_stage("test_memlimits: refusals", desc);
        int bad = 0;
        size_t small = (size_t)peak[i] / 3;

        drain();
        outcome o = run_armed(c, 300 + i, "clCreateBuffer refuses large buffers", &bad, shim_fail_create_above, small);
        rel_expect(o.st == gpublas3Success, "create refuses > %zu: %s: status %d", small, desc, o.st);

        drain();
        o = run_armed(c, 400 + i, "lazy allocation fails at enqueue", &bad, shim_fail_migrate_above, small);
        rel_expect(o.st == gpublas3Success, "migrate refuses > %zu: %s: status %d", small, desc, o.st);

        shim_fake_max_alloc(small);
        restart(); /* the device state reads CL_DEVICE_MAX_MEM_ALLOC_SIZE again */
        o = run_armed(c, 500 + i, "small CL_DEVICE_MAX_MEM_ALLOC_SIZE", &bad, shim_fail_create_above, small);
        rel_expect(o.st == gpublas3Success, "max alloc %zu: %s: status %d", small, desc, o.st);

        /* nothing at all: a clear status, nothing changed */
        restart(); /* the device state forgets the small size */
        o = run_armed(c, 600 + i, "no buffer at all", &bad, shim_fail_create_above, 1);
        rel_expect(o.st == gpublas3OutOfResources && o.untouched, "create always fails: %s: status %d", desc, o.st);

        drain();
        o = run_armed(c, 700 + i, "no resident buffer at all", &bad, shim_fail_migrate_above, 1);
        rel_expect(o.st == gpublas3OutOfResources && o.untouched, "migrate always fails: %s: status %d", desc,
                   o.st);
        rel_expect(!bad, "%s: wrong results when the device refuses memory", desc);
    }
}

/* SYR2K's and HER2K's square form (square2k, the triangle split) where its
 * N x N scratch X is refused: the call runs as the triangle and is right;
 * where nothing can be had, a clear status and nothing changed. */
static void square_refused(void)
{
    setenv("GPUBLAS3_PLAN", "splitk", 1);
    use_params("square2k=1");
    spec_case c = { .routine = SPEC_SYR2K, .order = gpublas3ColumnMajor, .uplo = gpublas3Upper, .N = 77, .K = 91,
                    .alpha = 1.5, .beta = -1 };
    for (int i = 0; i < 2; i++) {
        if (i) {
            c.routine = SPEC_HER2K; c.cplx = 1; c.dbl = 1; c.uplo = gpublas3Lower; c.transA = gpublas3ConjTrans;
            c.alpha_im = 0.5;
        }
        char desc[200];
        spec_describe(&c, desc, sizeof desc);
        rel_stage("test_memlimits: square form refused", desc);
        int bad = 0;
        size_t x = c.N * c.N * (c.dbl ? 8 : 4) * (c.cplx ? 2 : 1);
        drain();
        outcome o = run_armed(&c, 800 + i, "the square's scratch refused", &bad, shim_fail_create_above, x - 1);
        rel_expect(o.st == gpublas3Success, "create refuses > %zu: %s: status %d", x - 1, desc, o.st);
        drain();
        o = run_armed(&c, 810 + i, "no buffer at all", &bad, shim_fail_create_above, 1);
        rel_expect(o.st == gpublas3OutOfResources && o.untouched, "create always fails: %s: status %d", desc, o.st);
        rel_expect(!bad, "%s: wrong results when the square's scratch is refused", desc);
    }
    setenv("GPUBLAS3_PLAN", "packed", 1);
    use_params(NULL);
}

/* Scratch a form holds while its GEMM runs counts against the cap: the
 * square form's X (SYR2K, its GEMM's panels about 2.8 times X whole),
 * capped at twice X and a little, and the transposed form's T (a skinny
 * TN product on a CPU's rows, which transposes where the plan is not
 * forced), capped between T and T with its GEMM's panels.  Either call
 * stays under the cap, right. */
static void held_scratch(void)
{
    use_params("square2k=65536");
    spec_case sq = { .routine = SPEC_SYR2K, .order = gpublas3ColumnMajor, .uplo = gpublas3Upper, .N = 77, .K = 91,
                     .alpha = 1.5, .beta = -1 };
    spec_case tn = { .routine = SPEC_GEMM, .order = gpublas3ColumnMajor, .transA = gpublas3Trans, .M = 1024, .N = 64,
                     .K = 512, .alpha = 1.5, .beta = 2.5 };
    const size_t x = sq.N * sq.N * 4, t = tn.M * tn.N * 4;
    const struct { const spec_case *c; size_t cap; int forced; } runs[] = { { &sq, 2 * x + 64, 1 },
                                                                            { &tn, t + t / 4, 0 } };
    for (int i = 0; i < 2; i++) {
        if (!runs[i].forced) {
            unsetenv("GPUBLAS3_PLAN");
            use_params("square2k=65536"); /* (the restart reads GPUBLAS3_PLAN again) */
        }
        char desc[200];
        spec_describe(runs[i].c, desc, sizeof desc);
        rel_stage("test_memlimits: held scratch", desc);
        int bad = 0;
        drain();
        set_limit(runs[i].cap);
        outcome o = run_one(runs[i].c, 820 + i, "held scratch", &bad);
        rel_expect(o.st == gpublas3Success && o.scratch_peak <= (long)runs[i].cap && !bad,
                   "%s under a cap of %zu bytes: status %d, %ld bytes of scratch", desc, runs[i].cap, o.st,
                   o.scratch_peak);
    }
    set_limit(0);
    /* T had, then no other buffer: a clear status and nothing changed
     * (the untransposed call would pack more, so it is not tried) */
    char desc[200];
    spec_describe(&tn, desc, sizeof desc);
    rel_stage("test_memlimits: held scratch, then nothing", desc);
    int bad = 0;
    drain();
    outcome o = run_armed(&tn, 822, "T, then no buffer", &bad, creates_from, 2);
    rel_expect(o.st == gpublas3OutOfResources && o.untouched && !bad, "%s with every buffer after T refused: "
               "status %d, untouched %d", desc, o.st, o.untouched);
    setenv("GPUBLAS3_PLAN", "packed", 1);
    use_params(NULL);
}

/* Two devices of one context (two sub-devices of the test device; skipped
 * where it has none): a share on the second device computes its block of
 * C into scratch of its own (routines/plan/split.c).  When that block
 * cannot be had, the whole call runs on queue 0 (events[1] a marker) and is
 * right; without the fault the second device's share runs (its event, the
 * copy into C, is no marker).  K = 1 keeps the packed operands well under
 * the refused size, the block (M/2 x N) over it.  Mode 2: the devices
 * report memory of their own (as discrete GPUs do): the call runs whole on
 * queue 0 without any fault.  Modes 3 and 4, K = 512, under a scratch cap
 * that each device keeps to: a block over half the cap runs the call
 * whole on queue 0 (mode 3); one within it runs on the second device,
 * its GEMM within the rest of the cap (mode 4: the two devices' scratch
 * together at most two caps; the held block lowered it from 2.0 to 1.75
 * caps in S, 1.76 to 1.52 in D). */
static void two_devices_refuse_block(void)
{
    cl_device_partition_property props[] = { CL_DEVICE_PARTITION_EQUALLY, 1, 0 };
    cl_device_id sd[2];
    cl_uint ns = 0;
    if (clCreateSubDevices(dev.dev, props, 2, sd, &ns) != CL_SUCCESS || ns < 2) {
        printf("test_memlimits: no sub-devices: two-device case skipped\n");
        return;
    }
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 2, sd, NULL, NULL, &err);
    cl_command_queue q[2] = { clCreateCommandQueue(ctx, sd[0], 0, &err), clCreateCommandQueue(ctx, sd[1], 0, &err) };
    for (int dbl = 0; dbl < 2; dbl++)
        for (int mode = 0; mode < 5; mode++) {
            const int refuse = mode == 1, whole = mode > 0 && mode < 4;
            spec_case c = { .routine = SPEC_GEMM, .dbl = dbl, .order = gpublas3ColumnMajor, .M = 1024, .N = 256,
                            .K = mode < 3 ? 1 : 512, .alpha = 1.5, .beta = 2.5, .offA = 3, .offB = 1, .offC = 2 };
            const size_t block = c.M / 2 * c.N * (dbl ? 8 : 4), cap = mode == 3 ? block * 3 / 2 : 2 * block;
            rel_case r;
            rel_fill(&r, &c, 800 + 5 * dbl + mode, 3);
            rel_upload(&r, ctx, q[0]);
            restart(); /* an empty pool: the block is a new buffer */
            if (refuse)
                shim_fail_create_above(block * 3 / 4);
            if (mode == 2)
                shim_fake_discrete();
            set_limit(mode >= 3 ? cap : 0);
            shim_reset_calls();
            shim_counts before, after;
            shim_get(&before);
            cl_event ev[2] = { 0 };
            gpublas3Status st = spec_run_queues(&r.c, 2, q, r.buf[0], r.buf[1], r.buf[2], 0, NULL, ev);
            int injected = shim_injected();
            shim_clear_faults();
            shim_get(&after);
            set_limit(0);
            /* each device within the cap (two pools: sub-devices count apart) */
            long peak = after.bytes_peak - before.bytes_live;
            rel_expect(mode < 3 || peak <= 2 * (long)cap, "two devices, mode %d: %ld bytes of scratch, cap %zu "
                       "a device", mode, peak, cap);
            rel_expect(st == gpublas3Success, "two devices, mode %d: status %d", mode, st);
            if (st != gpublas3Success) {
                rel_free(&r);
                continue;
            }
            clWaitForEvents(2, ev);
            cl_command_type type = 0;
            clGetEventInfo(ev[1], CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL);
            rel_expect(refuse == injected, "two devices, mode %d: injected %d", mode, injected);
            rel_expect((type == CL_COMMAND_MARKER) == whole, "two devices, mode %d: events[1] has type %#x",
                       mode, (unsigned)type);
            for (int i = 0; i < 2; i++) clReleaseEvent(ev[i]);
            rel_expect(!rel_judge(&r, q[0], "two devices"), "two devices, mode %d: wrong result", mode);
            rel_free(&r);
        }
    for (int i = 0; i < 2; i++) {
        clReleaseCommandQueue(q[i]);
        clReleaseDevice(sd[i]);
    }
    restart(); /* the pools and programs of ctx go before it does */
    clReleaseContext(ctx);
}

/* `quick` (the sanitizer build): tuned parameters only, fewer caps. */
int main(int argc, char **argv)
{
    int quick = argc > 1 && !strcmp(argv[1], "quick");
    setvbuf(stdout, NULL, _IONBF, 0);
    setenv("OPENBLAS_NUM_THREADS", "1", 1);
    /* the scratch limits are the packed path's: the plan would run these
     * sizes on the direct kernel, which takes no scratch */
    setenv("GPUBLAS3_PLAN", "packed", 1);
    rel_open(&dev);
    rel_watchdog(20);
    if (quick) nfrac = 4;
    gpublas3Setup();
    shim_counts start;
    shim_get(&start);
    live_at_start = start.bytes_live;

    setenv("GPUBLAS3_PARAMS", "trsm_subst=0", 1); /* as use_params(NULL) sets it */
    long peak[32], small_peak[32];
    caps("tuned parameters", peak);
    rel_stage("test_memlimits", "limit_syntax");
    limit_syntax();
    rel_stage("test_memlimits", "trmm_snapshot");
    trmm_snapshot();
    rel_stage("test_memlimits", "device_refuses");
    device_refuses(peak);
    rel_stage("test_memlimits", "square_refused");
    square_refused();
    rel_stage("test_memlimits", "held_scratch");
    held_scratch();
    rel_stage("test_memlimits", "two_devices_refuse_block");
    two_devices_refuse_block();
    if (!quick) {
        use_params(SMALL_TILES);
        caps("small tiles", small_peak);
        trmm_snapshot();
        use_params(LOPSIDED_TILES);
        caps("lopsided tiles", small_peak);
        use_params(NULL);
    }

    gpublas3Teardown();
    shim_counts end;
    shim_get(&end);
    char left[128];
    rel_expect(!shim_left(&start, left, sizeof left), "OpenCL objects leaked: %s", left);
    printf("test_memlimits: %ld restarts; programs built %ld from source, %ld from cached binaries, %.1f s in"
           " clBuildProgram\n", restarts, from_source, from_binary, (end.build_us - start.build_us) / 1e6);
    rel_close(&dev);
    return rel_finish("test_memlimits");
}

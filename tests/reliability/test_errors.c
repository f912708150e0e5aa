/* SPDX-License-Identifier: BSD-3-Clause */
/* Error paths: every OpenCL call the library makes during a routine can
 * fail, and each failure must come back as a status without a crash or a
 * leak.  For each case (every routine; some split into many panels by a
 * small scratch cap; quick returns that only enqueue a marker) and each
 * OpenCL function the library calls, the test makes the n-th call of that
 * function fail, for n from 1 to the number of calls the case makes, and
 * checks:
 *   - success is allowed only where the library can retry (scratch), and
 *     then the result must be right;
 *   - otherwise the status is an error, events[0] is not written, and, as
 *     long as no kernel that may write C had been enqueued before the
 *     failure, every buffer is unchanged; A and B (inputs) never change;
 *   - after the last Teardown every OpenCL object the library made has
 *     been released (the shim's counts are back where they started); host
 *     memory is LeakSanitizer's job (this test runs in the sanitizer build).
 * Program builds are covered by restarting the library (Teardown, Setup)
 * before each run, with the disk cache off (source builds) and on (binary
 * loads). */
#include <stdlib.h>
#include <string.h>
#include "rel.h"
#include "shim.h"

static rel_dev dev;

typedef struct { shim_func f; cl_int err; const char *name; int needs_restart; } fault;
static const fault faults[] = {
    { SHIM_CREATE_BUFFER, CL_MEM_OBJECT_ALLOCATION_FAILURE, "clCreateBuffer", 0 },
    { SHIM_MIGRATE, CL_MEM_OBJECT_ALLOCATION_FAILURE, "clEnqueueMigrateMemObjects", 0 },
    { SHIM_MIGRATE, CL_OUT_OF_HOST_MEMORY, "clEnqueueMigrateMemObjects (host)", 0 },
    { SHIM_NDRANGE, CL_OUT_OF_RESOURCES, "clEnqueueNDRangeKernel", 0 },
    { SHIM_MARKER, CL_OUT_OF_HOST_MEMORY, "clEnqueueMarkerWithWaitList", 0 },
    { SHIM_COPY_RECT, CL_OUT_OF_RESOURCES, "clEnqueueCopyBuffer(Rect)", 0 },
    { SHIM_CREATE_KERNEL, CL_OUT_OF_HOST_MEMORY, "clCreateKernel", 0 },
    { SHIM_CREATE_PROGRAM_SOURCE, CL_OUT_OF_HOST_MEMORY, "clCreateProgramWithSource", 1 },
    { SHIM_CREATE_PROGRAM_BINARY, CL_OUT_OF_HOST_MEMORY, "clCreateProgramWithBinary", 1 },
    { SHIM_BUILD_PROGRAM, CL_BUILD_PROGRAM_FAILURE, "clBuildProgram", 1 },
};
#define NFAULTS (sizeof faults / sizeof faults[0])

static char cache_dir[256];

static void restart(int cache_on)
{
    gpublas3Teardown();
    setenv("GPUBLAS3_CACHE_DIR", cache_on ? cache_dir : "off", 1);
    gpublas3Setup();
}

/* Failures the library may recover from: scratch (smaller panels), and a
 * cached binary that cannot be loaded (built from source instead). */
static int recoverable(const fault *fl, int cache_on)
{
    return fl->f == SHIM_CREATE_BUFFER || fl->f == SHIM_MIGRATE || fl->f == SHIM_CREATE_PROGRAM_BINARY ||
           (fl->f == SHIM_BUILD_PROGRAM && cache_on);
}

static long peak; /* scratch bytes of the last run */
static long runs, failed, recovered, partial;

/* One run of c with the n-th call of fault fl failing (n = 0: none).
 * Returns how many calls of fl the run made (when n = 0). */
static long run(const spec_case *c, const fault *fl, long n, int cache_on, uint64_t seed, const char *label)
{
    rel_case r;
    char desc[256];
    spec_describe(c, desc, sizeof desc);
    rel_fill(&r, c, seed, 2);
    rel_upload(&r, dev.ctx, dev.q);
    int out = rel_out(&r);
    shim_watch(r.buf[out]);
    shim_reset_calls();
    shim_counts before;
    shim_get(&before);
    if (n) shim_fail_nth(fl->f, n, fl->err);
    cl_event ev = (cl_event)&r;
    gpublas3Status st = spec_run(&r.c, dev.q, r.buf[0], r.buf[1], r.buf[2], 0, NULL, &ev);
    int injected = shim_injected(), writer = shim_writer_launched();
    shim_clear_faults();
    shim_watch(NULL);
    shim_counts calls;
    shim_get(&calls);
    peak = calls.bytes_peak - before.bytes_live;
    runs++;
    if (n && injected) {
        if (st == gpublas3Success) recovered++;
        else failed++;
        if (st != gpublas3Success && writer) partial++;
    }
    if (st == gpublas3Success) {
        rel_expect(ev != (cl_event)&r, "%s: success without an event", desc);
        if (ev != (cl_event)&r) {
            clWaitForEvents(1, &ev);
            clReleaseEvent(ev);
        }
        /* only scratch can be retried; any other failure must be reported */
        rel_expect(!injected || recoverable(fl, cache_on),
                   "%s: %s failure #%ld was injected but the call reported success", desc, fl->name, n);
        rel_expect(rel_judge(&r, dev.q, label) == 0, "%s: wrong result after %s failure #%ld", desc, fl->name, n);
    } else {
        clFinish(dev.q);
        rel_expect(injected, "%s: status %d without an injected failure", desc, st);
        rel_expect(ev == (cl_event)&r, "%s: %s failure #%ld: status %d but events[0] written", desc, fl->name, n,
                   st);
        size_t es = spec_elem_size(&r.c);
        for (int k = 0; k < 3; k++) {
            if (!r.buf[k] || (k == out && writer)) continue;
            void *p = rel_read(&r, dev.q, k);
            rel_expect(!memcmp(p, r.host[k], r.n[k] * es),
                       "%s: %s failure #%ld (status %d, before any write of C): buffer %c changed", desc, fl->name,
                       n, st, "ABC"[k]);
            free(p);
        }
    }
    rel_free(&r);
    return calls.calls[fl->f];
}

static void cases(spec_case *cs, int *n)
{
    int k = 0;
    spec_case c = { .order = gpublas3ColumnMajor, .alpha = 1.25, .beta = -0.5, .offA = 1, .offB = 2, .offC = 3 };
    /* a few tiles in each direction, so that caps split M, N and K */
    c.routine = SPEC_GEMM; c.M = 150; c.N = 130; c.K = 140; c.transA = gpublas3Trans; cs[k++] = c;
    c.routine = SPEC_SYMM; c.side = gpublas3Right; c.uplo = gpublas3Lower; c.dbl = 1; cs[k++] = c;
    c.routine = SPEC_SYRK; c.N = 140; c.K = 100; c.uplo = gpublas3Upper; c.dbl = 0; cs[k++] = c;
    c.routine = SPEC_SYR2K; c.transA = gpublas3NoTrans; c.order = gpublas3RowMajor; c.dbl = 1; cs[k++] = c;
    c.routine = SPEC_TRMM; c.side = gpublas3Left; c.M = 100; c.N = 200; c.diag = gpublas3Unit; c.dbl = 0;
    c.order = gpublas3ColumnMajor; cs[k++] = c;
    c.side = gpublas3Right; c.M = 200; c.N = 100; c.transA = gpublas3Trans; c.dbl = 1; cs[k++] = c;
    /* TRSM: inversion, refined block products, updates; two blocks of 64 at the default trsm_nb */
    c.routine = SPEC_TRSM; c.side = gpublas3Left; c.uplo = gpublas3Lower; c.M = 100; c.N = 90; c.dbl = 0;
    c.diag = gpublas3NonUnit; cs[k++] = c;
    /* quick returns: the marker behind events[0] */
    c.routine = SPEC_GEMM; c.M = 0; c.N = 5; c.K = 5; c.dbl = 0; cs[k++] = c;
    c.M = 5; c.alpha = 0; c.beta = 1; cs[k++] = c;
    *n = k;
}

/* `quick` (the sanitizer build, where each run costs more): three cases
 * (GEMM, SYRK, TRMM), and n sampled more sparsely. */
int main(int argc, char **argv)
{
    int quick = argc > 1 && !strcmp(argv[1], "quick");
    setenv("OPENBLAS_NUM_THREADS", "1", 1);
    const char *base = getenv("GPUBLAS3_CACHE_DIR");
    snprintf(cache_dir, sizeof cache_dir, "%s-errors", base && *base && strcmp(base, "off") ? base : "/tmp/gpublas3");
    rel_open(&dev);
    spec_case cs[16];
    int ncases;
    cases(cs, &ncases);
    /* Second round: the smallest cap (of a geometric series below what
     * the case takes) under which it still runs, so that calls split into
     * panels (and TRMM into slabs) and failures land between the writes of
     * C. */
    long caps[16];
    for (int i = 0; i < ncases; i++) {
        if (quick && i != 0 && i != 2 && i != 4) continue;
        unsetenv("GPUBLAS3_SCRATCH_LIMIT");
        restart(1);
        run(&cs[i], &faults[0], 0, 0, i, "uncapped");
        caps[i] = peak;
        for (int k = 0; k < 12 && peak > 0; k++) {
            char cap[32];
            long next = caps[i] * 3 / 4;
            snprintf(cap, sizeof cap, "%ld", next);
            setenv("GPUBLAS3_SCRATCH_LIMIT", cap, 1);
            restart(1);
            rel_case r;
            rel_fill(&r, &cs[i], 1, 0);
            rel_upload(&r, dev.ctx, dev.q);
            gpublas3Status st = spec_run(&r.c, dev.q, r.buf[0], r.buf[1], r.buf[2], 0, NULL, NULL);
            clFinish(dev.q);
            rel_free(&r);
            if (st != gpublas3Success) break;
            caps[i] = next;
        }
    }
    gpublas3Teardown();
    for (int capped = 0; capped < 2; capped++) {
        for (size_t f = 0; f < NFAULTS; f++) {
            const fault *fl = &faults[f];
            /* program faults restart the library for each run (a build
             * costs a few hundred ms on PoCL): two cases, uncapped only */
            if (fl->needs_restart && capped) continue;
            shim_counts start;
            shim_get(&start);
            gpublas3Setup();
            for (int cache_on = 0; cache_on < 1 + fl->needs_restart; cache_on++)
                for (int i = 0; i < ncases; i++) {
                    if (fl->needs_restart && i != 0 && i != 4) continue;
                    if (quick && i != 0 && i != 2 && i != 4) continue;
                    char cap[32];
                    snprintf(cap, sizeof cap, "%ld", caps[i]);
                    if (capped) setenv("GPUBLAS3_SCRATCH_LIMIT", cap, 1);
                    else unsetenv("GPUBLAS3_SCRATCH_LIMIT");
                    if (fl->needs_restart) restart(cache_on);
                    long total = run(&cs[i], fl, 0, cache_on, i, "no fault");
                    /* every n up to 8 (quick: 3), then a sample up to the last call */
                    int dense = quick ? 3 : 8;
                    for (long n = 1; n <= total; n = n < dense ? n + 1 : n + 1 + total / dense) {
                        if (fl->needs_restart) restart(cache_on);
                        char label[128];
                        snprintf(label, sizeof label, "%s failure #%ld (cap %d)", fl->name, n, capped);
                        run(&cs[i], fl, n, cache_on, 100 * i + n, label);
                    }
                }
            gpublas3Teardown();
            char left[128];
            rel_expect(!shim_left(&start, left, sizeof left), "%s failures (cap %d) leaked OpenCL objects: %s",
                       fl->name, capped, left);
        }
    }
    printf("%ld runs: %ld injected failures reported, %ld recovered from; %ld failed after C was being written\n",
           runs, failed, recovered, partial);
    rel_close(&dev);
    return rel_finish("test_errors");
}

/* Setup/Teardown cycles leak nothing: after each cycle (Setup, calls of
 * every routine on a context made for the cycle, Teardown) every OpenCL
 * object the library made or retained is released (the shim's counts;
 * every piece of library state hangs on such an object: device entries on
 * a retained context, program entries on programs, pool entries on
 * buffers).  In the sanitizer build LeakSanitizer checks after every cycle
 * that no host memory became unreachable.  In the plain build, host memory
 * in use may only grow by what PoCL itself keeps per program build (about
 * 1 KB; measured with a plain OpenCL loop), checked with a coarse bound of
 * 8 KB per cycle.  Also: Setup nests (the state lives until the last Teardown),
 * an extra Teardown is harmless, and calls between cycles say
 * NotInitialized. */
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include "rel.h"
#include "shim.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define HEAP_CHECK 0
#define LEAK_CHECK() rel_expect(__lsan_do_recoverable_leak_check() == 0, "cycle %d: LeakSanitizer found leaks", i)
#elif defined(__SANITIZE_THREAD__)
#define HEAP_CHECK 0
#define LEAK_CHECK() (void)0
#else
#define HEAP_CHECK 1
#define LEAK_CHECK() (void)0
#endif

static rel_dev dev;

static int calls(cl_context ctx, cl_command_queue q, uint64_t seed)
{
    int bad = 0;
    for (int r = 0; r < SPEC_NROUTINES; r++) {
        spec_case c = { .routine = (spec_routine)r, .dbl = r % 2, .order = gpublas3ColumnMajor, .M = 21, .N = 34,
                        .K = 13, .alpha = 0.5, .beta = 2 };
        rel_case rc;
        rel_fill(&rc, &c, seed + (uint64_t)r, 1);
        rel_upload(&rc, ctx, q);
        bad |= rel_run(&rc, q, "cycle");
        rel_free(&rc);
    }
    return bad;
}

static int same(const shim_counts *a, const shim_counts *b)
{
    return a->mems == b->mems && a->events == b->events && a->kernels == b->kernels &&
           a->programs == b->programs && a->contexts == b->contexts;
}

int main(int argc, char **argv)
{
    int cycles = argc > 1 ? atoi(argv[1]) : 25;
    setenv("OPENBLAS_NUM_THREADS", "1", 1);
    rel_open(&dev);
    size_t heap[64] = { 0 };
    for (int i = 0; i < cycles; i++) {
        cl_int err;
        cl_context ctx = clCreateContext(NULL, 1, &dev.dev, NULL, NULL, &err);
        cl_command_queue q = clCreateCommandQueue(ctx, dev.dev, 0, &err);
        shim_counts before, after;
        shim_get(&before);
        gpublas3Setup();
        rel_expect(calls(ctx, q, 10 * (uint64_t)i) == 0, "cycle %d: wrong results", i);
        if (i % 5 == 1) {
            /* nested: the inner Teardown keeps the state */
            gpublas3Setup();
            gpublas3Teardown();
            rel_expect(calls(ctx, q, 7) == 0, "cycle %d: calls after a nested Teardown", i);
        }
        gpublas3Teardown();
        if (i % 5 == 2) gpublas3Teardown(); /* one too many: harmless */
        clFinish(q);
        shim_get(&after);
        rel_expect(same(&before, &after),
                   "cycle %d left OpenCL objects: mems %ld events %ld kernels %ld programs %ld contexts %ld", i,
                   after.mems - before.mems, after.events - before.events, after.kernels - before.kernels,
                   after.programs - before.programs, after.contexts - before.contexts);
        /* between cycles: not initialized, nothing enqueued */
        spec_case c = { .routine = SPEC_GEMM, .order = gpublas3ColumnMajor, .M = 2, .N = 2, .K = 2, .alpha = 1 };
        rel_case rc;
        rel_fill(&rc, &c, 1, 0);
        rel_upload(&rc, ctx, q);
        gpublas3Status st = spec_run(&rc.c, q, rc.buf[0], rc.buf[1], rc.buf[2], 0, NULL, NULL);
        rel_expect(st == gpublas3NotInitialized, "cycle %d: a call after Teardown returned %d", i, st);
        rel_free(&rc);
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
        LEAK_CHECK();
#if HEAP_CHECK
        if (i < 64) heap[i] = mallinfo2().uordblks;
#endif
    }
#if HEAP_CHECK
    /* the first cycles warm up the driver */
    if (cycles >= 10) {
        int last = (cycles < 64 ? cycles : 64) - 1;
        size_t from = heap[4], to = heap[last];
        printf("host heap in use after cycle 5: %zu bytes, after cycle %d: %zu bytes\n", from, last + 1, to);
        rel_expect(to <= from + 8192 * (size_t)(last - 4), "host heap grew by %zu bytes over %d cycles", to - from,
                   last - 4);
    }
#else
    (void)heap;
#endif
    rel_close(&dev);
    return rel_finish("test_cycles");
}

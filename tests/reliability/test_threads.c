/* SPDX-License-Identifier: BSD-3-Clause */
/* Concurrency: 8 threads make 50 mixed calls each (every routine, both
 * precisions, random options, sizes, offsets, leading dimensions), each
 * thread on its own queue: four threads share one context, two share a
 * second, and two have a context each, so that the device state, program
 * cache and scratch pools are shared and not shared.  Some calls chain on
 * the thread's previous call through the wait list.  Every result is
 * checked against OpenBLAS.  Round 1 holds one Setup in the main thread
 * while each worker does its own Setup/Teardown around its calls; round 2
 * runs under a small scratch cap (calls split into panels); round 3 has no
 * Setup held by the main thread, and workers do Setup/Teardown around
 * every few calls, so the library state is torn down and rebuilt while
 * other threads call.  Built with ThreadSanitizer in the sanitizer build
 * (tests/reliability/sanitizers.cmake). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "rel.h"

enum { THREADS = 8, CALLS = 50 };

static rel_dev dev;
static cl_context ctxs[4];

typedef struct {
    int id, round;
    cl_context ctx;
    cl_command_queue q;
    int calls, computed;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    uint64_t s = 1000003u * (uint64_t)(w->id + 1) + 17u * (uint64_t)w->round;
    cl_event prev = NULL;
    if (w->round < 3) gpublas3Setup();
    for (int i = 0; i < CALLS; i++) {
        if (w->round == 3 && i % 5 == 0) gpublas3Setup();
        spec_case c = { 0 };
        c.routine = (spec_routine)rel_below(&s, SPEC_NROUTINES);
        c.dbl = (int)rel_below(&s, 2);
        rel_random_options(&c, &s);
        c.M = 1 + rel_below(&s, 48);
        c.N = 1 + rel_below(&s, 48);
        c.K = rel_below(&s, 48);
        if (w->round == 2) { c.M += 60; c.N += 40; c.K += 50; } /* several tiles: the cap splits them */
        c.alpha = rel_below(&s, 4) ? 1.5 : 0;
        c.beta = (double)rel_below(&s, 3) - 1; /* -1, 0, 1 */
        c.offA = rel_below(&s, 3);
        c.offB = rel_below(&s, 3);
        c.offC = rel_below(&s, 3);
        rel_case r;
        rel_fill(&r, &c, s, 2);
        rel_upload(&r, w->ctx, w->q);
        /* half the calls wait on the thread's previous call */
        int chain = prev && rel_below(&s, 2);
        cl_event ev;
        gpublas3Status st = spec_run(&r.c, w->q, r.buf[0], r.buf[1], r.buf[2], chain, chain ? &prev : NULL, &ev);
        char what[64];
        snprintf(what, sizeof what, "round %d thread %d call %d", w->round, w->id, i);
        if (st != gpublas3Success) {
            rel_expect(0, "%s: status %d (%s)", what, st, gpublas3StatusString(st));
        } else {
            clWaitForEvents(1, &ev);
            rel_expect(rel_judge(&r, w->q, what) == 0, "%s: wrong result", what);
            if (prev) clReleaseEvent(prev);
            prev = ev;
            w->computed++;
        }
        w->calls++;
        rel_free(&r);
        if (w->round == 3 && i % 5 == 4) gpublas3Teardown();
    }
    if (prev) clReleaseEvent(prev);
    if (w->round < 3) gpublas3Teardown();
    return NULL;
}

static void round_of(int round)
{
    pthread_t th[THREADS];
    worker w[THREADS];
    /* threads 0-3: context 0; 4-5: context 1; 6: context 2; 7: context 3 */
    static const int ctx_of[THREADS] = { 0, 0, 0, 0, 1, 1, 2, 3 };
    for (int i = 0; i < THREADS; i++) {
        cl_int err;
        w[i] = (worker){ .id = i, .round = round, .ctx = ctxs[ctx_of[i]] };
        w[i].q = clCreateCommandQueue(w[i].ctx, dev.dev, 0, &err);
        if (err) { fprintf(stderr, "clCreateCommandQueue: %d\n", err); exit(2); }
    }
    for (int i = 0; i < THREADS; i++) pthread_create(&th[i], NULL, work, &w[i]);
    int calls = 0, computed = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
        calls += w[i].calls;
        computed += w[i].computed;
        clReleaseCommandQueue(w[i].q);
    }
    printf("round %d: %d threads, %d calls, %d checked\n", round, THREADS, calls, computed);
}

int main(void)
{
    setenv("OPENBLAS_NUM_THREADS", "1", 1);
    rel_open(&dev);
    ctxs[0] = dev.ctx;
    for (int i = 1; i < 4; i++) {
        cl_int err;
        ctxs[i] = clCreateContext(NULL, 1, &dev.dev, NULL, NULL, &err);
    }
    /* load OpenBLAS once before the threads (spec.c loads it lazily) */
    {
        spec_case c = { .routine = SPEC_GEMM, .order = gpublas3ColumnMajor, .M = 1, .N = 1, .K = 1, .alpha = 1 };
        rel_case r;
        rel_fill(&r, &c, 1, 0);
        spec_reference(&r.c, r.host[0], r.host[1], r.host[2]);
        rel_free(&r);
    }
    gpublas3Setup();
    round_of(1);
    setenv("GPUBLAS3_SCRATCH_LIMIT", "100000", 1);
    round_of(2);
    unsetenv("GPUBLAS3_SCRATCH_LIMIT");
    gpublas3Teardown();
    round_of(3);
    for (int i = 1; i < 4; i++) clReleaseContext(ctxs[i]);
    rel_close(&dev);
    return rel_finish("test_threads");
}

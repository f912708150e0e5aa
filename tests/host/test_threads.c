/* SPDX-License-Identifier: BSD-3-Clause */
/* Several threads calling the drop-ins at once: each thread runs its own
 * mix of Fortran and CBLAS calls (every routine, both precisions,
 * several shapes) on its own arrays, all threads released together; every
 * result is then checked against OpenBLAS in the main thread (so the
 * reference never runs concurrently).  ctest runs it again with tiny panels,
 * so that concurrent calls also go through the pipelined path. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>
#include "dropin_test.h"

enum { THREADS = 6, PER_THREAD = 6, ROUNDS = 2 };

typedef struct {
    dcase cases[PER_THREAD];
    int cblas[PER_THREAD];
} work;

static work jobs[THREADS];
static pthread_barrier_t start;

static void *worker(void *arg)
{
    work *w = arg;
    pthread_barrier_wait(&start);
    for (int i = 0; i < PER_THREAD; i++) {
        if (w->cblas[i]) dcase_cblas(&w->cases[i]);
        else dcase_fortran(&w->cases[i], i % 2);
    }
    return NULL;
}

static spec_case make(int t, int i)
{
    static const gpublas3Transpose tr[] = { gpublas3NoTrans, gpublas3Trans, gpublas3ConjTrans };
    int k = t * PER_THREAD + i;
    spec_case c = { .routine = (spec_routine)(k % SPEC_NROUTINES), .dbl = (k / SPEC_NROUTINES) % 2,
                    .order = (k % 3 == 0) ? gpublas3RowMajor : gpublas3ColumnMajor,
                    .side = k % 2 ? gpublas3Right : gpublas3Left, .uplo = (k / 2) % 2 ? gpublas3Lower : gpublas3Upper,
                    .transA = tr[k % 3], .transB = tr[(k / 3) % 3], .diag = (k / 4) % 2 ? gpublas3Unit : gpublas3NonUnit,
                    .M = 17 + (size_t)(7 * k) % 40, .N = 11 + (size_t)(13 * k) % 50, .K = 5 + (size_t)(5 * k) % 30,
                    .alpha = 0.5 + k % 3, .beta = k % 4 == 0 ? 0 : -1.0 + k % 3 };
    return c;
}

static void test_concurrent_calls(void **state)
{
    (void)state;
    int bad = 0;
    for (int round = 0; round < ROUNDS; round++) {
        pthread_t th[THREADS];
        pthread_barrier_init(&start, NULL, THREADS);
        for (int t = 0; t < THREADS; t++)
            for (int i = 0; i < PER_THREAD; i++) {
                spec_case c = make(t, i + round);
                /* The Fortran names are column-major only. */
                jobs[t].cblas[i] = c.order == gpublas3RowMajor || i % 2;
                dcase_init(&jobs[t].cases[i], &c, (unsigned)(1000 * round + 10 * t + i));
            }
        for (int t = 0; t < THREADS; t++)
            assert_int_equal(pthread_create(&th[t], NULL, worker, &jobs[t]), 0);
        for (int t = 0; t < THREADS; t++)
            pthread_join(th[t], NULL);
        pthread_barrier_destroy(&start);
        for (int t = 0; t < THREADS; t++)
            for (int i = 0; i < PER_THREAD; i++) {
                char msg[256], desc[256];
                if (dcase_check(&jobs[t].cases[i], msg, sizeof msg)) {
                    spec_describe(&jobs[t].cases[i].c, desc, sizeof desc);
                    fprintf(stderr, "thread %d call %d (%s): %s\n", t, i, desc, msg);
                    bad++;
                }
                dcase_free(&jobs[t].cases[i]);
            }
    }
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_concurrent_calls) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

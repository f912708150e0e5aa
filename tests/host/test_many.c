/* SPDX-License-Identifier: BSD-3-Clause */
/* Tens of thousands of small calls in one process: the drop-ins must keep
 * their device state (no context, queue or program made per call) and
 * their buffers (no allocation per call), so the time per call stays small
 * and the resident memory does not grow with the number of calls.  A few
 * calls along the way are checked against a plain loop. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "gpublas3_blas.h"

enum { CALLS = 20000, WARMUP = 2000, N = 6 };

static long resident_kib(void)
{
    long pages = 0, size = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &size, &pages) != 2) pages = 0;
        fclose(f);
    }
    return pages * (sysconf(_SC_PAGESIZE) / 1024);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void test_many_small_calls(void **state)
{
    (void)state;
    double a[N * N], b[N * N], c[N * N], ref[N * N];
    float fa[N * N], fc[N * N];
    int n = N, bad = 0;
    double one = 1, zero = 0;
    float fone = 1, fzero = 0;
    for (int i = 0; i < N * N; i++) {
        a[i] = (i % 7) - 3;
        b[i] = (i % 5) - 2;
        fa[i] = (float)a[i];
    }
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) {
            double s = 0;
            for (int l = 0; l < N; l++) s += a[i + l * N] * b[l + j * N];
            ref[i + j * N] = s;
        }
    long rss_warm = 0;
    double t0 = 0;
    for (int call = 0; call < CALLS; call++) {
        if (call == WARMUP) {
            rss_warm = resident_kib();
            t0 = now();
        }
        switch (call % 4) {
        case 3: ssyrk_("U", "N", &n, &n, &fone, fa, &n, &fzero, fc, &n); break;
        case 2: cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, a, n, b, n, 0, c, n); break;
        default: dgemm_("N", "N", &n, &n, &n, &one, a, &n, b, &n, &zero, c, &n); break;
        }
        if (call % 1000 == 0 || call == CALLS - 2)
            for (int i = 0; i < N * N; i++)
                bad += fabs(c[i] - ref[i]) > 1e-12;
    }
    double per = (now() - t0) / (CALLS - WARMUP);
    long grown = resident_kib() - rss_warm;
    printf("%d calls of n=%d: %.1f us per call; resident memory grew %ld KiB after the first %d calls\n",
           CALLS, N, 1e6 * per, grown, WARMUP);
    assert_int_equal(bad, 0);
    /* A leak of even one small buffer or event per call would pass this. */
    assert_true(grown < 16 * 1024);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_many_small_calls) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

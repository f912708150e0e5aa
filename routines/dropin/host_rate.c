/* SPDX-License-Identifier: BSD-3-Clause */
/* The host BLAS's rate, at which the crossover model (crossover.c) prices
 * a call kept on the host: its flops over this many GFLOP/s, per precision
 * and size (complex calls count real flops and share their precision's).
 *
 * It starts timed, at the first drop-in call, before the OpenCL driver is
 * loaded (crossover.c and dropin.c see to the order, test_host_rate checks
 * it): the best of GEMMs of HOST_N, at least MIN_RUNS and as many more as
 * fit in WINDOW, after an untimed one that starts the host BLAS's threads.
 * One timing proved fragile: in four of sixteen processes of one workload
 * on the H100 machine it read 6 to 17 GFLOP/s against 66 to 168 in the
 * others (H100 machine, 2026-11-23), and those processes sent small calls
 * to the device.  (Those timings, and others of 2 to 13, came after
 * the driver was loaded after all: GPUBLAS3_VERBOSE's check, made before
 * the crossover's, opened it.  Timed before it, every process on that
 * machine read 147 to 195 GFLOP/s single and 94 to 107 double: docs/performance.md, Drop-in crossover.)
 * So the rate also learns from what the host does: every call the
 * drop-ins run on the host BLAS is timed (two clock reads), and the rate
 * for calls of its size (its octave of flops) rises to what the call
 * showed.  A ratchet: the most ever observed, never lowered by a slow call
 * (a slow call says the cores were busy, not that the host BLAS got
 * slower).  Per size, because one ratchet for all sizes priced SPOTRF's
 * big skinny SGEMMs at n = 16384 at what smaller calls of other shapes had
 * shown, and kept them on the host (10.5 s against 6.4 per size, H100 machine,
 * 2026-11-23).  A
 * call counts when it took at least MIN_SECONDS, so that the clock's reads
 * (tens of ns) are lost in it; calls that do no arithmetic never get here
 * (dropin.c does the quick returns and alpha = 0 itself); g3x_flops counts
 * the work a dense host BLAS does (TRMM's and TRSM's triangle, SYRK's and
 * SYR2K's half of C).  A host BLAS that skips zeros (reference BLAS's TRSM
 * and TRMM skip zero elements of B) can show more than it does on dense
 * data: that errs toward the host, the side of the drop-ins' target (never
 * slower than the host BLAS alone).
 *
 * A call too small to show more than the timed rate in MIN_SECONDS (its
 * flops under rate x MIN_SECONDS) is not timed at all: whatever it showed
 * could neither count nor start a second timing, and its two clock reads
 * were most of the drop-ins' own cost on the thousands of tiny TRSMs and
 * SYRKs of reference LAPACK's recursive panels (docs/performance.md,
 * Drop-ins: LAPACK on a CPU-only host).
 *
 * A size's learned rate counts only where it beats the timed one, so a
 * size no host call has shown is priced at the timed rate.  When a
 * host call shows twice the first timing or more, that timing was
 * disturbed (a GEMM of HOST_N runs faster than the small calls the model
 * keeps on the host), and the host BLAS is timed again, once per
 * precision, so that the rate need not climb call by call.
 *
 * GPUBLAS3_HOST_GFLOPS=<s>,<d> (or one number for both) fixes the rates:
 * no timing, no learning. */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "dropin.h"
#include "host.h"

enum { HOST_N = 256, MIN_RUNS = 3, MAX_RUNS = 40, SIZES = 64 };
static const double WINDOW = 4e-3;       /* seconds the timed GEMMs go on (MIN_RUNS to MAX_RUNS of them) */
static const double MIN_SECONDS = 5e-6;  /* a shorter host call teaches nothing */

typedef enum { TIMED, LEARNED, RETIMED, FIXED } source;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static double rate[2];      /* GFLOP/s, per precision: the timed rate (or fixed); read and raised atomically */
static double learned[2][SIZES]; /* GFLOP/s, per precision and octave of flops: the most a host call showed */
static double first[2];     /* the first timing's */
static int from[2];         /* the source of rate[] (for the verbose line: may lag a racing raise) */
static long samples[2];     /* host calls that counted */
static int retimed[2], learning;

/* The best rate of the host BLAS's GEMMs of HOST_N (1 if it has none, or the clock read none). */
static double time_host(int dbl)
{
    size_t n = HOST_N, es = dbl ? 8 : 4;
    char *m = calloc(3 * n * n, es);
    double best = 0;
    g3d_call c = { .routine = G3D_GEMM, .dbl = dbl, .trans = 'N', .transb = 'N', .m = (int)n, .n = (int)n,
                   .k = (int)n, .alpha = 1, .beta = 0, .a = m, .lda = (int)n, .ldb = (int)n, .ldc = (int)n };
    if (!m || !g3b_have(&c)) {
        free(m);
        return 1;  /* a slow host */
    }
    c.b = m + n * n * es;
    c.c = m + 2 * n * n * es;
    for (size_t i = 0; i < 2 * n * n; i++)
        if (dbl) ((double *)m)[i] = (double)(i % 7) - 3;
        else ((float *)m)[i] = (float)(i % 7) - 3;
    g3b_run(&c);  /* untimed: the host BLAS starts its threads */
    /* The best of several, spread over WINDOW: other work may share the cores for a while. */
    double start = g3h_seconds();
    for (int r = 0; r < MAX_RUNS && (r < MIN_RUNS || g3h_seconds() - start < WINDOW); r++) {
        double t0 = g3h_seconds();
        g3b_run(&c);
        double t = g3h_seconds() - t0, x = t > 0 ? 2e-9 * (double)n * (double)n * (double)n / t : 0;
        best = x > best ? x : best;
    }
    free(m);
    return best > 0 ? best : 1;
}

/* Raises *at to x if x is more (a compare-and-swap loop: threads may race); 1 when it did. */
static int raise_to(double *at, double x)
{
    double now;
    __atomic_load(at, &now, __ATOMIC_RELAXED);
    while (x > now)
        if (__atomic_compare_exchange(at, &now, &x, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            return 1;
    return 0;
}

/* GPUBLAS3_HOST_GFLOPS's rates into r; 0 when unset or invalid (said on stderr). */
static int fixed_rates(double r[2])
{
    const char *env = getenv("GPUBLAS3_HOST_GFLOPS");
    if (!env || !*env)
        return 0;
    char *end, *end2;
    r[0] = r[1] = strtod(env, &end);
    if (end != env && *end == ',') {
        r[1] = strtod(end + 1, &end2);
        end = end2 == end + 1 ? end : end2;
    }
    if (end == env || *end || !(r[0] > 0 && r[1] > 0 && isfinite(r[0]) && isfinite(r[1]))) {
        fprintf(stderr, "gpublas3: GPUBLAS3_HOST_GFLOPS=%s is not a rate in GFLOP/s (or two: single,double); "
                "timing the host BLAS\n", env);
        return 0;
    }
    return 1;
}

static void start(void)
{
    if (fixed_rates(rate)) {
        from[0] = from[1] = FIXED;
        return;
    }
    double t0 = g3h_seconds();
    for (int dbl = 0; dbl < 2; dbl++)
        rate[dbl] = first[dbl] = time_host(dbl);
    double t = g3h_seconds() - t0;
    __atomic_store_n(&learning, 1, __ATOMIC_RELEASE);
    if (g3h_verbose())  /* only now: it opens the OpenCL driver */
        fprintf(stderr, "gpublas3: host BLAS timed: %.3g GFLOP/s single, %.3g double (GEMMs of %d, %.1f ms)\n",
                rate[0], rate[1], HOST_N, 1e3 * t);
}

void g3r_start(void) { pthread_once(&once, start); }

double g3r_gflops(int dbl, double flops, char *why, size_t len)
{
    g3r_start();
    double r, l;
    __atomic_load(&rate[dbl], &r, __ATOMIC_RELAXED);
    __atomic_load(&learned[dbl][g3x_octave(flops, SIZES)], &l, __ATOMIC_RELAXED);
    int src = l > r ? LEARNED : __atomic_load_n(&from[dbl], __ATOMIC_RELAXED);
    if (why) {
        long n = __atomic_load_n(&samples[dbl], __ATOMIC_RELAXED);
        switch (src) {
        case TIMED: snprintf(why, len, "timed"); break;
        case LEARNED: snprintf(why, len, "learned from %ld host calls", n); break;
        case RETIMED: snprintf(why, len, "timed again"); break;
        default: snprintf(why, len, "GPUBLAS3_HOST_GFLOPS"); break;
        }
    }
    return l > r ? l : r;
}

void g3r_run(const g3d_call *c)
{
    int dbl = c->dbl != 0;
    double flops = g3x_flops(c), r = HUGE_VAL;  /* not learning: no call is timed */
    if (__atomic_load_n(&learning, __ATOMIC_ACQUIRE))
        __atomic_load(&rate[dbl], &r, __ATOMIC_RELAXED);
    /* Too small to show more than rate[] in MIN_SECONDS: rate[] only rises,
     * and until the second timing it is the first, half that timing's trigger. */
    if (1e-9 * flops <= r * MIN_SECONDS) {
        g3b_run(c);
        return;
    }
    double t0 = g3h_seconds();
    g3b_run(c);
    double t = g3h_seconds() - t0;
    if (t < MIN_SECONDS)
        return;
    double x = 1e-9 * flops / t;
    __atomic_add_fetch(&samples[dbl], 1, __ATOMIC_RELAXED);
    raise_to(&learned[dbl][g3x_octave(flops, SIZES)], x);
    if (x >= 2 * first[dbl] && !__atomic_exchange_n(&retimed[dbl], 1, __ATOMIC_RELAXED)) {
        double again = time_host(dbl);
        if (raise_to(&rate[dbl], again))
            __atomic_store_n(&from[dbl], (int)RETIMED, __ATOMIC_RELAXED);
        if (g3h_verbose())
            fprintf(stderr, "gpublas3: a host BLAS call ran at %.3g GFLOP/s, twice the first timing's %.3g or "
                    "more: timed again, %.3g GFLOP/s\n", x, first[dbl], again);
    }
}

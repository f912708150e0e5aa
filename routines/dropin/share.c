/* SPDX-License-Identifier: BSD-3-Clause */
/* A drop-in call cut in two, one part on the host BLAS and the other on
 * the device at the same time (dropin.c runs them): the host's share.
 *
 * When the model's two predictions for a call are close (crossover.c: the
 * host BLAS's time, and the device's with its learned correction), the
 * all-or-nothing choice leaves one side idle: LAPACK's update calls at
 * n = 8192 on the H100 are link-bound on the device and about as fast on
 * 16 cores (docs/performance.md, Drop-in crossover).  NVBLAS's answer is a CPU ratio; here
 * the share comes from the model: with the call's rates on each side,
 * r_h = flops / T_host and r_d = flops / T_dev, both parts end together
 * when the host takes f = r_h / (r_h + r_d) of the output (= T_dev /
 * (T_host + T_dev)), and the call takes flops / (r_h + r_d).  The call is
 * cut only when that gains at least MIN_GAIN on the better side alone,
 * both shares are at least MIN_SHARE, and the better side alone takes at
 * least MIN_SECONDS (a thread is started and the two sides share the
 * cores: small calls lose more than they gain).
 *
 * The two sides compete for the host's cores (the host BLAS's threads, the
 * pipeline's copy threads) and for its memory bandwidth, which neither
 * prediction knows.  So each split call times both parts (dropin.c) and
 * the rates they showed side by side replace the model's for the next
 * call of the same kind (TRSM or not), precision and octave of flops: the
 * share balances what the sides did, and the gain is judged on those
 * rates against the model's time for the better side alone, so that a
 * size where running both sides at once is slower than one side stops
 * being cut.  The latest split call counts, not the best: the share must
 * follow where the cores went; but not the first of a size, whose device
 * part may have compiled kernels for a shape the whole calls never had (on
 * the H100 the first cut SGEMM of an 8192 SGETRF took 0.21 s on the
 * device for 0.02 expected, and its rates kept every later call of its
 * size whole).  GPUBLAS3_LEARN=0 keeps the model's rates.
 *
 * Who owns the cores: by default the host BLAS keeps its threads (one per
 * core, OpenBLAS's) and the device's part its copy threads
 * (GPUBLAS3_COPY_THREADS), the kernel sharing the cores between them while
 * both run; what that costs each side is in the rates learned.
 * GPUBLAS3_SPLIT_HOST_THREADS=<n> runs the host's part on n threads
 * instead, where the host BLAS lets its count be set (OpenBLAS), so that
 * the copies have cores of their own (the H100 measurement compares).
 *
 * Off by default: on the H100 (2026-11-23, docs/performance.md, Drop-in crossover) the two
 * sides slowed each other so much (a device part at 170-344 GFLOP/s where
 * the whole call ran at about 560, the host part at 118 where the host
 * alone ran at 163) that LAPACK end to end came out faster in three cases
 * and slower in three, DPOTRF 8192 slower than reference LAPACK alone.
 * GPUBLAS3_SPLIT=1 lets the model cut calls; GPUBLAS3_SPLIT_SHARE=<f>
 * (0 < f < 1) cuts every call that can be cut, the host taking f, whatever
 * the model says (for tests and measurements); GPUBLAS3_SPLIT=0 wins over
 * both.  What is cut: GEMM along the larger
 * dimension of C (columns, or rows when m > n), SYMM, TRMM and TRSM along
 * B's columns (side L) or rows (side R), each part an independent call of
 * the same routine (dropin_plan.c's g3d_cut).  SYRK and SYR2K are not: a
 * cut of a triangle is a SYRK and a GEMM on each side, parts whose costs
 * are not proportional to their widths, and reference LAPACK's SYRKs have
 * small outputs (SPOTRF's are 64 x 64 x j). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dropin.h"

enum { OCTAVES = 64 };
static const double MIN_SHARE = 0.1, MIN_GAIN = 0.1, MIN_SECONDS = 1e-3;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int on;               /* GPUBLAS3_SPLIT=1 (the model's cuts), or a forced share */
static double forced;        /* GPUBLAS3_SPLIT_SHARE, 0 when unset */
static int host_threads;     /* GPUBLAS3_SPLIT_HOST_THREADS, 0 when unset */

/* What the last split call of a kind, precision and octave of flops showed
 * (the first of them not kept): each side's rate, GFLOP/s, while the
 * other ran; calls counts them all. */
typedef struct {
    int calls;
    double host, dev;
} split_seen;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static split_seen seen[2][2][OCTAVES];

static void init(void)
{
    const char *env = getenv("GPUBLAS3_SPLIT");
    on = env && strcmp(env, "1") == 0;
    int never = env && strcmp(env, "0") == 0;
    env = getenv("GPUBLAS3_SPLIT_HOST_THREADS");
    host_threads = env && atoi(env) > 0 ? atoi(env) : 0;
    env = getenv("GPUBLAS3_SPLIT_SHARE");
    if (env && *env) {
        char *end;
        double f = strtod(env, &end);
        if (end != env && *end == 0 && f > 0 && f < 1)
            forced = never ? 0 : f;
        else
            fprintf(stderr, "gpublas3: GPUBLAS3_SPLIT_SHARE=%s is not a share between 0 and 1; using the model\n",
                    env);
    }
}

int g3x_split_host_threads(void)
{
    pthread_once(&once, init);
    return host_threads;
}

int g3x_can_split(const g3d_call *c)
{
    return c->routine == G3D_GEMM || c->routine == G3D_SYMM || c->routine == G3D_TRMM || c->routine == G3D_TRSM;
}

static split_seen *seen_for(const g3d_call *c)
{
    return &seen[c->dbl != 0][c->routine == G3D_TRSM][g3x_octave(g3x_flops(c), OCTAVES)];
}

double g3x_split_share(const g3d_call *c, const double t[2], char *why, size_t len)
{
    pthread_once(&once, init);
    if (why)
        *why = 0;
    if ((!on && forced == 0) || !g3x_can_split(c))
        return 0;
    if (forced > 0) {
        if (why)
            snprintf(why, len, "GPUBLAS3_SPLIT_SHARE=%g", forced);
        return forced;
    }
    double best = t[0] < t[1] ? t[0] : t[1], flops = g3x_flops(c);
    if (!(t[0] > 0 && t[1] > 0) || best < MIN_SECONDS)
        return 0;  /* GPUBLAS3_CROSSOVER's threshold (no times), or too small to pay */
    pthread_mutex_lock(&lock);
    split_seen o = *seen_for(c);
    pthread_mutex_unlock(&lock);
    int learned = o.calls >= 2 && g3x_learning();
    double rh = learned ? 1e9 * o.host : flops / t[0], rd = learned ? 1e9 * o.dev : flops / t[1];
    double f = rh / (rh + rd), both = flops / (rh + rd);
    int cut = f >= MIN_SHARE && f <= 1 - MIN_SHARE && both <= (1 - MIN_GAIN) * best;
    if (why) {
        char from[96];
        if (learned)
            snprintf(from, sizeof from, "rates of the last split call of its size: host %.3g, device %.3g GFLOP/s",
                     o.host, o.dev);
        else
            snprintf(from, sizeof from, "the model's times");
        snprintf(why, len, "%s: host share %.2f, both sides %.3g s against %.3g s on the %s alone (%s)",
                 cut ? "split" : "not split", f, both, best, t[0] < t[1] ? "host" : "device", from);
    }
    return cut ? f : 0;
}

void g3x_split_took(const g3d_call *host, double host_s, const g3d_call *dev, double dev_s, const g3d_call *whole)
{
    if (!(host_s > 0 && dev_s > 0) || !g3x_learning())
        return;
    pthread_mutex_lock(&lock);
    split_seen *o = seen_for(whole);
    if (o->calls++ == 0) {  /* the first may have compiled the device part's kernels */
        pthread_mutex_unlock(&lock);
        return;
    }
    o->host = 1e-9 * g3x_flops(host) / host_s;
    o->dev = 1e-9 * g3x_flops(dev) / dev_s;
    pthread_mutex_unlock(&lock);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Which way a drop-in call goes when there is a host BLAS to defer to: to
 * the device when the trip pays for itself, else to the host BLAS.
 *
 * The model: on the device a call costs a fixed time per call, plus its
 * bytes (every operand from the caller's arrays, C back) over the link's
 * bandwidth, plus its flops over the device's rate; on the host, its flops
 * over the host BLAS's rate.  A TRSM costs the device more than a GEMM of
 * its flops, priced by the way the device's tuned set solves it
 * (routines/plan/solve.c, g3h_solve_leaves):
 * - in blocks (where the set has no leaves, trsm_leaf 0: CPUs, or a
 *   complex leaf does not fit the device's local memory): trtri and a chain of GEMM calls per
 *   diagonal block come before and between its products, so a fixed part
 *   and a part per TRSM_BLOCK rows of its triangle, paid by each panel
 *   (each is a solve of its own, dropin_plan.c);
 * - in leaves (GPUs): one launch per leaf walks its
 *   diagonal blocks of LEAF_BLOCK one after another, so a fixed part and
 *   a part per LEAF_BLOCK rows, paid by each panel, and parts per element
 *   of B and per flop, for the leaf kernel's reads and writes of B and its
 *   arithmetic, slower than the GEMM's; no part for the leaves' size,
 *   which the fit did not need (docs/performance.md, Drop-in crossover).
 *   The fit is the real solves'; a complex solve is priced as its real
 *   twin with twice the bytes of B and four times the arithmetic.
 * The device's constants come from the table below, by device name
 * (tests/host/crossover_measure prints a row for the device it runs on);
 * the host BLAS's rate is timed at the first call and learned from the
 * calls run there (host_rate.c).
 * The device's side is then corrected by what its calls took: each call
 * the model sent there is timed (dropin.c) against the model's time, and
 * the median ratio of the latest RECENT calls, per kind (TRSM or not) and
 * per octave of the predicted time, multiplies later predictions of that
 * octave.  On the H100 the drop-ins' skinny DGEMMs of a 2048 DPOTRF took
 * 2 to 3 times the model's time (staging, several commands and a wait per
 * call that a square call's fit does not see), which made reference LAPACK
 * slower with gpublas3 than without (docs/performance.md, Drop-in
 * crossover).  The median, not the least ratio: on the H200 the calls of
 * one octave ranged from 0.8 to 2.5 times the model, so the least ratio
 * kept sending calls that took longer there than on the host, and LAPACK
 * at n = 1024 and 2048 ran up to 1.5 times slower than without gpublas3.
 * From the second call of an octave on: the first call of a process or of
 * a kernel set pays for compiling programs (up to a second), which no
 * later call repeats.  An octave whose calls the correction sends to the
 * host is not timed again: the host BLAS is what the program would have
 * had.
 * GPUBLAS3_DEVICE_COST replaces the device row's constants (override_row).
 * GPUBLAS3_CROSSOVER=<flops> replaces the model by a plain threshold:
 * calls of at least that many flops go to the device (0: every call). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "dropin.h"
#include "host.h"
#include "names.h"

typedef struct {
    const char *match;        /* lib/names.h's "A|B"; NULL: any device of `type` */
    cl_device_type type;
    double link_gbs;          /* host array -> device -> host array, GB/s */
    double fixed_us;          /* per call */
    double gflops[2];         /* device rate on large calls, single / double */
    double trsm_us[2];        /* a TRSM in blocks, beyond the GEMM model: per panel, per TRSM_BLOCK rows
                               * of its triangle */
    double leaf_us[2][4];     /* a real TRSM in leaves, S and D: per panel, per LEAF_BLOCK rows of its
                               * triangle, per million elements of B, per GFLOP */
} device_row;

/* First match wins.  The H100 row serves the H200 too, as the tuned sets
 * do (tuned-params/nvidia-h100.csv: the same Hopper SM); unmeasured there,
 * it is a far closer guess than the GPU row's.  The H100 row is crossover_measure's on the lent H100
 * (2026-11-22, driver 580.159.04:
 * fixed 30 us, link 18.5 GB/s for D and 14.0 for S, the smaller kept; its
 * fit left the device's rate unresolved, the transfers dominating every
 * measured shape, so the rate is the measured GEMM rate at n = 8192, 45
 * TFLOP/s).  Its TRSM terms are what each solve took beyond this row's
 * GEMM model (30 us + flops at 45 TFLOP/s), fitted by least squares on
 * relative errors, with no transfers (cl_mem calls):
 * - blocks: real solves on the blocked path (trtri's column groups,
 *   trsm_nb 256; H100, 2026-11-26, STRSM and DTRSM n = 128, 1024, 4096 in
 *   133/166 us, 628/667 us, 3.97/3.93 ms): 43 us + 71 us per block of
 *   128, each time within 11 % (docs/performance.md, Drop-in crossover).
 *   It prices the solves where GPUBLAS3_PARAMS sets trsm_leaf=0.
 * - leaves: real solves on the leaf path (H100 80GB HBM3, driver
 *   580.159.04, 2026-11-27; left lower N non-unit squares n = 128 to 4096,
 *   two runs; LAPACK's shapes 64 and 256 x 8192 left lower N unit and
 *   8192 x 64 and 256 right lower T non-unit): S 20 us at n = 128 to 1476 at 4096, D 28 to 2128,
 *   fitted per precision by bench/trsm_price.py; with the constants as
 *   rounded here the worst point is off by 16.1 % (S) and 15.8 % (D), and
 *   the 16 side/uplo/trans cases at 1024 (not fitted) by -22 to +7 %
 *   (docs/performance.md, Drop-in crossover).  The
 *   blocks term gave those squares 114 to 2315 us.
 * The last row is crossover_measure's run on PoCL 3.1 (2 shared cores, under
 * load: rough; its blocks term, 2026-11-23, the medians of 12 runs' fits;
 * its leaves term, read only where GPUBLAS3_PARAMS gives a CPU leaves,
 * 2026-11-27, seven runs with trsm_leaf=1024 fitted together, device times
 * within 52 %).  The GPU row is a cautious
 * guess for GPUs never measured (the TRSM terms twice the H100's: erring
 * that way keeps small solves on the host). */
static const device_row rows[] = {
    /*  match               type                link  fixed  GFLOP/s S, D     blocks: fixed, per block
     *      leaves, S then D: fixed, per block, per M elements of B, per GFLOP */
    { "H100|H200",        CL_DEVICE_TYPE_GPU,   14,    30,  { 45000, 45000 }, { 43, 71 },
          { { 7, 3.1, 42, 6.2 }, { 9, 4.2, 69, 6.8 } } },
    { NULL,               CL_DEVICE_TYPE_GPU,   10,   100,  { 5000, 1000 },   { 86, 142 },
          { { 14, 6.2, 84, 12.4 }, { 18, 8.4, 138, 13.6 } } },
    { NULL,               CL_DEVICE_TYPE_ALL,  3.5,    65,  { 115, 60 },      { 10, 250 },
          { { 30, 16, 133000, 68000 }, { 200, 0, 177000, 15000 } } },
};

enum { TRSM_BLOCK = 128, LEAF_BLOCK = 32, OCTAVES = 32, RECENT = 8 };

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const device_row *dev;
static int leaves[2][2];        /* [dbl][cplx]: the device solves such a TRSM in leaves */
static double threshold = -1;   /* GPUBLAS3_CROSSOVER, -1 when unset */

/* The device's correction: per kind (0: not TRSM, 1: TRSM) and octave of
 * the predicted time (1 us << i), the calls timed and, in a ring, the
 * ratios of measured to predicted time of the latest calls after the
 * first. */
typedef struct {
    int calls;
    int kept;
    double recent[RECENT];
} octave_seen;
static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;
static octave_seen seen[2][OCTAVES];
static int any_kept[2];  /* per kind: some octave has a ratio, so a correction may not be 1 */

/* GPUBLAS3_DEVICE_COST=<fixed us>,<link GB/s>[,<S GFLOP/s>,<D GFLOP/s>]
 * replaces the matched row's constants (crossover_measure prints them for
 * a device this table lacks); the TRSM part stays the row's. */
static void override_row(void)
{
    static device_row own;
    const char *env = getenv("GPUBLAS3_DEVICE_COST");
    if (!env || !*env || !dev)
        return;
    double fixed, link, gs = dev->gflops[0], gd = dev->gflops[1];
    char tail;
    int n = sscanf(env, "%lf,%lf,%lf,%lf%c", &fixed, &link, &gs, &gd, &tail);
    if ((n != 2 && n != 4) || fixed < 0 || link <= 0 || gs <= 0 || gd <= 0) {
        fprintf(stderr, "gpublas3: GPUBLAS3_DEVICE_COST=%s is not <fixed us>,<link GB/s>[,<S GFLOP/s>,<D GFLOP/s>]; "
                "using the table's row\n", env);
        return;
    }
    own = *dev;
    own.fixed_us = fixed;
    own.link_gbs = link;
    own.gflops[0] = gs;
    own.gflops[1] = gd;
    dev = &own;
}

static void init(void)
{
    const char *env = getenv("GPUBLAS3_CROSSOVER");
    char *end;
    if (env && *env) {
        double x = strtod(env, &end);
        if (end != env && *end == 0 && x >= 0)
            threshold = x;
        else
            fprintf(stderr, "gpublas3: GPUBLAS3_CROSSOVER=%s is not a count of flops; using the model\n", env);
    }
    if (threshold < 0)
        g3r_start();  /* before the OpenCL driver opens */
    cl_device_type type = 0;
    const char *name = g3h_chosen_device(&type);
    for (size_t i = 0; name && i < sizeof rows / sizeof rows[0] && !dev; i++)
        if ((rows[i].type & type) && (!rows[i].match || g3_names_device(name, rows[i].match)))
            dev = &rows[i];
    for (int i = 0; i < 4 && dev; i++)
        leaves[i / 2][i % 2] = g3h_solve_leaves(i / 2, i % 2);
    override_row();
}

/* Real flops: a complex multiply-add is four real ones (ZGEMM's 8mnk). */
double g3x_flops(const g3d_call *c)
{
    double m = c->m, n = c->n, k = c->k, f = 0;
    switch (c->routine) {
    case G3D_GEMM: f = 2 * m * n * k; break;
    case G3D_SYMM: f = 2 * m * n * (c->side == 'L' ? m : n); break;
    case G3D_SYRK: f = n * (n + 1) * k; break;
    case G3D_SYR2K: f = 2 * n * (n + 1) * k; break;
    case G3D_TRMM:
    case G3D_TRSM: f = m * n * (c->side == 'L' ? m : n); break;
    }
    return c->cplx ? 4 * f : f;
}

/* Bytes that travel: every operand there and the output back (TRMM's and
 * TRSM's output, their operand B, there too; the others' beta C is added on the
 * host, dropin_device.c). */
static double travel_bytes(const g3d_call *c)
{
    int r, k;
    double b = 0;
    g3d_stored(c, 'A', &r, &k);
    b += (double)r * k;
    if (c->routine == G3D_GEMM || c->routine == G3D_SYMM || c->routine == G3D_SYR2K) {
        g3d_stored(c, 'B', &r, &k);
        b += (double)r * k;
    }
    g3d_stored(c, 'C', &r, &k);
    b += (double)r * k * (c->routine == G3D_TRMM || c->routine == G3D_TRSM ? 2 : 1);
    return b * (double)g3d_elem_size(c);
}

/* What a TRSM costs the device beyond its GEMM-priced time; *blocks: of
 * TRSM_BLOCK rows, or of LEAF_BLOCK (*leaf: priced as leaves).  The panels'
 * right-hand sides add up to B's columns (side L) or rows (side R). */
static double trsm_extra(const g3d_call *c, int *blocks, int *leaf)
{
    g3d_plan pl;
    g3d_plan_make(c, g3h_panel_bytes(), &pl);
    double order = c->side == 'L' ? c->m : c->n, rhs = c->side == 'L' ? c->n : c->m;
    *leaf = leaves[c->dbl != 0][c->cplx != 0];
    int rows = *leaf ? LEAF_BLOCK : TRSM_BLOCK;
    *blocks = ((int)order + rows - 1) / rows;
    if (!*leaf)
        return 1e-6 * pl.npanels * (dev->trsm_us[0] + *blocks * dev->trsm_us[1]);
    const double *l = dev->leaf_us[c->dbl != 0], cf = c->cplx ? 2 : 1;
    return 1e-6 * (pl.npanels * (l[0] + *blocks * l[1]) + 1e-6 * cf * order * rhs * l[2] +
                   1e-9 * cf * cf * order * order * rhs * l[3]);
}

/* The model's device time for c as a GEMM of its flops: without a TRSM's part, or correction. */
static double gemm_time(const g3d_call *c)
{
    return 1e-6 * dev->fixed_us + travel_bytes(c) / (1e9 * dev->link_gbs) +
           g3x_flops(c) / (1e9 * dev->gflops[c->dbl != 0]);
}

/* The model's device time for c (no correction); *trsm, *blocks, *leaf: its TRSM part. */
static double device_time(const g3d_call *c, double *trsm, int *blocks, int *leaf)
{
    *blocks = *leaf = 0;
    *trsm = c->routine == G3D_TRSM ? trsm_extra(c, blocks, leaf) : 0;
    return gemm_time(c) + *trsm;
}

int g3x_octave(double x, int n)
{
    int e = 0;
    frexp(x, &e); /* x = f 2^e, f in [1/2, 1): floor(log2 x) = e - 1 */
    return e < 1 ? 0 : e > n ? n - 1 : e - 1;
}

void g3x_device_took(const g3d_call *c, double seconds)
{
    pthread_once(&once, init);
    if (threshold >= 0 || !dev)
        return;
    double trsm;
    int blocks, leaf;
    double predicted = device_time(c, &trsm, &blocks, &leaf), r = seconds / predicted;
    pthread_mutex_lock(&seen_lock);
    octave_seen *o = &seen[c->routine == G3D_TRSM][g3x_octave(predicted / 1e-6, OCTAVES)];
    if (o->calls++ > 0) {
        o->recent[(o->calls - 2) % RECENT] = r;
        o->kept += o->kept < RECENT;
        __atomic_store_n(&any_kept[c->routine == G3D_TRSM], 1, __ATOMIC_RELAXED);
    }
    pthread_mutex_unlock(&seen_lock);
}

/* The correction for a prediction of t_dev: 1 until an octave has seen two
 * calls, then the median of its kept ratios (of an even count, the upper
 * middle one: the side of the host BLAS). */
static double correction(const g3d_call *c, double t_dev, int *calls)
{
    pthread_mutex_lock(&seen_lock);
    octave_seen o = seen[c->routine == G3D_TRSM][g3x_octave(t_dev / 1e-6, OCTAVES)];
    pthread_mutex_unlock(&seen_lock);
    *calls = o.calls;
    for (int i = 1; i < o.kept; i++)  /* insertion sort: at most RECENT */
        for (int j = i; j > 0 && o.recent[j] < o.recent[j - 1]; j--) {
            double x = o.recent[j];
            o.recent[j] = o.recent[j - 1];
            o.recent[j - 1] = x;
        }
    return o.kept ? o.recent[o.kept / 2] : 1;
}

int g3x_to_device(const g3d_call *c, double t[2], char *why, size_t len)
{
    pthread_once(&once, init);
    if (!g3h_verbose())  /* only now: it opens the OpenCL driver, which the host's timing must precede */
        why = NULL;
    double flops = g3x_flops(c);
    t[0] = t[1] = 0;
    if (threshold >= 0) {
        if (why)
            snprintf(why, len, "%.3g flops %s GPUBLAS3_CROSSOVER=%.3g", flops, flops >= threshold ? ">=" : "<",
                     threshold);
        return flops >= threshold;
    }
    if (!dev) {
        if (why)
            snprintf(why, len, "no device");
        return 0;
    }
    char from[48];
    double host = g3r_gflops(c->dbl != 0, flops, why ? from : NULL, sizeof from), t_host = flops / (1e9 * host);
    /* Host for sure, and cheaply (a TRSM's plan, the correction's lock and
     * sort cost the host calls of LAPACK's recursive panels more than the
     * calls themselves): no correction yet (1 in every octave) and the
     * device slower even without a TRSM's part, which only adds. */
    if (!why && !__atomic_load_n(&any_kept[c->routine == G3D_TRSM], __ATOMIC_RELAXED)) {
        t[0] = t_host;
        t[1] = gemm_time(c);
        if (t[1] >= t_host)
            return 0;
    }
    int blocks, leaf, calls;
    double trsm, t_model = device_time(c, &trsm, &blocks, &leaf), f = correction(c, t_model, &calls);
    if (why) {
        char part[80] = "", fix[64] = "";
        if (trsm > 0)
            snprintf(part, sizeof part, " (%.3g s of it TRSM's %d blocks of %d%s)", trsm, blocks,
                     leaf ? LEAF_BLOCK : TRSM_BLOCK, leaf ? ", in leaves" : "");
        if (f != 1)
            snprintf(fix, sizeof fix, " x %.3g learned from %d call(s)", f, calls);
        snprintf(why, len, "model: device %.3g s%s%s, host BLAS %.3g s (%.3g flops, %.3g GFLOP/s on the host, %s)",
                 t_model, part, fix, t_host, flops, host, from);
    }
    t[0] = t_host;
    t[1] = f * t_model;
    return f * t_model < t_host;
}

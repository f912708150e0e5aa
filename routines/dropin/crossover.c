/* Which way a drop-in call goes when there is a host BLAS to defer to: to
 * the device when the trip pays for itself, else to the host BLAS.
 *
 * The model: on the device a call costs a fixed time per call, plus its
 * bytes (every operand from the caller's arrays, C back) over the link's
 * bandwidth, plus its flops over the device's rate; on the host, its flops
 * over the host BLAS's rate.  A TRSM costs the device more than a GEMM of
 * its flops: trtri and a chain of launches per diagonal block
 * (routines/plan/solve.c) come before and between its products, so its
 * device time gains a fixed part and a part per TRSM_BLOCK rows of its
 * triangle, paid by each panel (each is a solve of its own,
 * dropin_plan.c).  The device's constants come from the table below, by
 * device name (tests/host/crossover_measure prints a row for the device it
 * runs on); the host BLAS's rate is timed at the first call and learned
 * from the calls run there (host_rate.c).
 * The device's side is then corrected by what its calls took: each call
 * the model sent there is timed (dropin.c) against the model's time, and
 * the least ratio seen so far, per kind (TRSM or not) and per octave of
 * the predicted time, multiplies later predictions of that octave.  On
 * the H100 the drop-ins' skinny DGEMMs of a 2048 DPOTRF took 2 to 3 times
 * the model's time (staging, several commands and a wait per call that a
 * square call's fit does not see), which made reference LAPACK slower
 * with gpublas3 than without (bench/NOTES.md 19).  The least ratio, from
 * the second call of an octave on: the first call of a process or of a
 * kernel set pays for compiling programs (up to a second), which no later
 * call repeats.  An octave whose calls the correction sends to the host is
 * not timed again: the host BLAS is what the program would have had.
 * GPUBLAS3_LEARN=0 turns the correction off; GPUBLAS3_DEVICE_COST replaces
 * the device row's constants (override_row).
 * GPUBLAS3_CROSSOVER=<flops> replaces the model by a plain threshold:
 * calls of at least that many flops go to the device (0: every call). */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "dropin.h"
#include "host.h"

typedef struct {
    const char *match;        /* part of the device name; NULL: any device of `type` */
    cl_device_type type;
    double link_gbs;          /* host array -> device -> host array, GB/s */
    double fixed_us;          /* per call */
    double gflops[2];         /* device rate on large calls, single / double */
    double trsm_us[2];        /* TRSM's extra: per call, and per TRSM_BLOCK rows of its triangle */
} device_row;

/* First match wins.  The H100 row is crossover_measure's on the lent H100
 * (2026-11-22, driver 580.159.04, bench/results/h100/session4/run4a/:
 * fixed 30 us, link 18.5 GB/s for D and 14.0 for S, the smaller kept; its
 * fit left the device's rate unresolved, the transfers dominating every
 * measured shape, so the rate is the measured GEMM rate at n = 8192, 45
 * TFLOP/s).  Its TRSM part is fitted to the square solves of session 10's
 * call on the tuned rows (trtri's column groups, trsm_nb 256; bench/results/
 * h100/session10/trsm10/, cl_mem calls, no transfers: STRSM and DTRSM
 * n = 128, 1024, 4096 in 133/166 us, 628/667 us, 3.97/3.93 ms): what each
 * took beyond this row's GEMM model (30 us + n^3 at 45 TFLOP/s), fitted as
 * fixed + blocks x per block by least squares on relative errors, gives
 * 43 us + 71 us per block of 128, each time within 11 % (bench/NOTES.md
 * section 32; session 4's kernel had 162 + 131, section 15).  The last
 * row is crossover_measure's run on PoCL 3.1 (2 shared cores, under load:
 * rough; its TRSM part, 2026-11-23, the medians of 12 runs' fits).  The GPU row is a cautious guess for GPUs never
 * measured (the TRSM part twice the H100's: erring that way keeps small
 * solves on the host). */
static const device_row rows[] = {
    /*  match  type                link  fixed  GFLOP/s S, D     TRSM us: fixed, per block */
    { "H100", CL_DEVICE_TYPE_GPU,   14,    30,  { 45000, 45000 }, { 43, 71 } },
    { NULL,   CL_DEVICE_TYPE_GPU,   10,   100,  { 5000, 1000 },   { 86, 142 } },
    { NULL,   CL_DEVICE_TYPE_ALL,  3.5,    65,  { 115, 60 },      { 10, 250 } },
};

enum { TRSM_BLOCK = 128, OCTAVES = 32 };

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const device_row *dev;
static double threshold = -1;   /* GPUBLAS3_CROSSOVER, -1 when unset */
static int learn = 1;           /* GPUBLAS3_LEARN */

/* The device's correction: per kind (0: not TRSM, 1: TRSM) and octave of
 * the predicted time (1 us << i), the calls timed and the least ratio of
 * measured to predicted time. */
typedef struct {
    int calls;
    double ratio;
} octave_seen;
static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;
static octave_seen seen[2][OCTAVES];

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
    const char *l = getenv("GPUBLAS3_LEARN");
    learn = !(l && strcmp(l, "0") == 0);
    cl_device_type type = 0;
    const char *name = g3h_chosen_device(&type);
    for (size_t i = 0; name && i < sizeof rows / sizeof rows[0] && !dev; i++)
        if ((rows[i].type & type) && (!rows[i].match || strcasestr(name, rows[i].match)))
            dev = &rows[i];
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

/* What a TRSM costs the device beyond its GEMM-priced time. */
static double trsm_extra(const g3d_call *c, int *blocks)
{
    g3d_plan pl;
    g3d_plan_make(c, g3h_panel_bytes(), &pl);
    int order = c->side == 'L' ? c->m : c->n;
    *blocks = (order + TRSM_BLOCK - 1) / TRSM_BLOCK;
    return 1e-6 * pl.npanels * (dev->trsm_us[0] + *blocks * dev->trsm_us[1]);
}

/* The model's device time for c (no correction); *trsm and *blocks: its TRSM part. */
static double device_time(const g3d_call *c, double *trsm, int *blocks)
{
    *blocks = 0;
    *trsm = c->routine == G3D_TRSM ? trsm_extra(c, blocks) : 0;
    return 1e-6 * dev->fixed_us + travel_bytes(c) / (1e9 * dev->link_gbs) +
           g3x_flops(c) / (1e9 * dev->gflops[c->dbl != 0]) + *trsm;
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
    if (threshold >= 0 || !dev || !learn)
        return;
    double trsm;
    int blocks;
    double predicted = device_time(c, &trsm, &blocks), r = seconds / predicted;
    pthread_mutex_lock(&seen_lock);
    octave_seen *o = &seen[c->routine == G3D_TRSM][g3x_octave(predicted / 1e-6, OCTAVES)];
    if (o->calls++ == 0 || r < o->ratio)
        o->ratio = r;
    pthread_mutex_unlock(&seen_lock);
}

int g3x_learning(void)
{
    pthread_once(&once, init);
    return threshold < 0 && dev && learn;
}

/* The correction for a prediction of t_dev: 1 until an octave has seen two calls. */
static double correction(const g3d_call *c, double t_dev, int *calls)
{
    pthread_mutex_lock(&seen_lock);
    octave_seen o = seen[c->routine == G3D_TRSM][g3x_octave(t_dev / 1e-6, OCTAVES)];
    pthread_mutex_unlock(&seen_lock);
    *calls = o.calls;
    return learn && o.calls >= 2 ? o.ratio : 1;
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
    int blocks, calls;
    double trsm, t_model = device_time(c, &trsm, &blocks), f = correction(c, t_model, &calls);
    char from[48];
    double host = g3r_gflops(c->dbl != 0, flops, why ? from : NULL, sizeof from), t_host = flops / (1e9 * host);
    if (why) {
        char part[48] = "", fix[64] = "";
        if (trsm > 0)
            snprintf(part, sizeof part, " (%.3g s of it TRSM's %d blocks)", trsm, blocks);
        if (f != 1)
            snprintf(fix, sizeof fix, " x %.3g learned from %d call(s)", f, calls);
        snprintf(why, len, "model: device %.3g s%s%s, host BLAS %.3g s (%.3g flops, %.3g GFLOP/s on the host, %s)",
                 t_model, part, fix, t_host, flops, host, from);
    }
    t[0] = t_host;
    t[1] = f * t_model;
    return f * t_model < t_host;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Measures the constants of the drop-ins' crossover model
 * (routines/dropin/crossover.c) on the device the drop-ins choose, and
 * prints the table row to paste there.  For each precision it times the
 * drop-in GEMM (every call sent to the device: GPUBLAS3_CROSSOVER=0) and the
 * host BLAS's GEMM on the same host arrays, over square shapes and thin
 * (k = 16, transfer-bound) ones, then fits
 *
 *     t_device = fixed + bytes / link + flops / rate
 *
 * by least squares on relative errors (no negative constant), and prints,
 * shape by shape, both times, the model's, and which side wins, then the
 * square n from which the device wins, measured and modelled.  Then the
 * TRSM terms, from drop-in TRSMs (side L, lower, N, non-unit, a diagonally
 * dominant triangle) of orders 128 to 1024, what each took beyond the GEMM
 * model just fitted, fitted the same way:
 *
 *     leaves: fixed + ceil(order / 32) x per block + order x rhs x per
 *             element + order^2 x rhs x per flop
 *
 * on the real solves (STRSM, DTRSM) with 16 and `order` right-hand sides,
 * and
 *
 *     blocks: fixed + ceil(order / 128) x per block
 *
 * on ZTRSM with 16 (complex solves always take blocks; on a device whose
 * real solves take blocks too, trsm_leaf 0, the row's leaves term is not
 * read).  The real solves take whichever path the device's tuned set
 * gives them: set GPUBLAS3_PARAMS=trsm_leaf=1024 (or 0) to choose.
 *
 * Usage: crossover_measure [MAXN [HOSTBLAS]]; MAXN (default 1024; 8192 on a
 * GPU) bounds the shapes, HOSTBLAS (default libopenblas.so.0) is dlopen'd
 * RTLD_LOCAL, as GPUBLAS3_CPU_BLAS would be. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gpublas3_blas.h"

typedef void gemm_fn(const char *, const char *, const int *, const int *, const int *, const void *,
                     const void *, const int *, const void *, const int *, const void *, void *, const int *,
                     size_t, size_t);
typedef void trsm_fn(const char *, const char *, const char *, const char *, const int *, const int *,
                     const void *, const void *, const int *, void *, const int *, size_t, size_t, size_t, size_t);

enum { MAXSHAPES = 64, REPS = 5, RHS = 16, BLOCK = 128, LEAF = 32, MAXORDER = 1024, NC = 4 };

/* A GEMM of m x n x k, or (k = 0) a TRSM of order m with n right-hand sides */
typedef struct { int m, n, k; double flops, bytes, t_dev, t_host; } shape;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median of REPS timed calls after one untimed one. */
static double timed(void *f, int dbl, const shape *s, void *a, void *b, void *c)
{
    double al[2] = { 1, 0 }, be = 1, t[REPS];
    float fal = 1, fbe = 1;
    const void *pa = dbl ? (void *)al : (void *)&fal, *pb = dbl ? (void *)&be : (void *)&fbe;
    for (int r = 0; r <= REPS; r++) {
        double t0 = now();
        if (s->k)
            ((gemm_fn *)f)("N", "N", &s->m, &s->n, &s->k, pa, a, &s->m, b, &s->k, pb, c, &s->m, 1, 1);
        else
            ((trsm_fn *)f)("L", "L", "N", "N", &s->m, &s->n, pa, a, &s->m, c, &s->m, 1, 1, 1, 1);
        if (r > 0)
            t[r - 1] = now() - t0;
    }
    qsort(t, REPS, sizeof t[0], cmp);
    return t[REPS / 2];
}

/* One measured time t, to fit as y ~ x . row */
typedef struct { double row[NC], y, t; } point;

/* Solves the normal equations on the constants in `use` (a mask), the
 * others 0, weighting each point by 1 / t (relative errors); returns the
 * weighted squared residual, or HUGE_VAL if a constant came out negative
 * or the points cannot tell the constants apart. */
static double fit_subset(const point *pt, int np, int use, double x[NC])
{
    double g[NC][NC] = { { 0 } }, h[NC] = { 0 }, diag[NC];
    for (int i = 0; i < np; i++) {
        double w = 1 / pt[i].t;
        for (int p = 0; p < NC; p++) {
            h[p] += w * w * pt[i].row[p] * pt[i].y;
            for (int q = 0; q < NC; q++)
                g[p][q] += w * w * pt[i].row[p] * pt[i].row[q];
        }
    }
    for (int p = 0; p < NC; p++) {
        if (!(use >> p & 1)) {
            for (int q = 0; q < NC; q++)
                g[p][q] = g[q][p] = 0;
            g[p][p] = 1;
            h[p] = 0;
        }
        diag[p] = g[p][p];
    }
    for (int p = 0; p < NC; p++) {  /* Gauss-Jordan, pivoting on the diagonal (g is SPD) */
        if (!(g[p][p] > 1e-9 * diag[p]))
            return HUGE_VAL;
        for (int q = 0; q < NC; q++) {
            if (q == p) continue;
            double f = g[q][p] / g[p][p];
            for (int r = 0; r < NC; r++) g[q][r] -= f * g[p][r];
            h[q] -= f * h[p];
        }
    }
    double res = 0;
    for (int p = 0; p < NC; p++) {
        x[p] = h[p] / g[p][p];
        if (x[p] < 0) return HUGE_VAL;
    }
    for (int i = 0; i < np; i++) {
        double e = -pt[i].y;
        for (int p = 0; p < NC; p++)
            e += x[p] * pt[i].row[p];
        res += e * e / (pt[i].t * pt[i].t);
    }
    return res;
}

/* The best fit of the first `nc` constants (all 0 if none fits). */
static void fit(const point *pt, int np, int nc, double x[NC])
{
    double best = HUGE_VAL, y[NC];
    memset(x, 0, NC * sizeof x[0]);
    for (int use = 1; use < 1 << nc; use++) {
        double r = fit_subset(pt, np, use, y);
        if (r < best) {
            best = r;
            memcpy(x, y, sizeof y);
        }
    }
}

static double gemm_model(const double f[3], const shape *x) { return f[0] + f[1] * x->bytes + f[2] * x->flops; }

/* A's triangle for TRSMs of order m: ones on the diagonal, the rest small,
 * so that solves keep B's size (complex: real entries). */
static void triangle(char *a, int m, int dbl, int cplx)
{
    for (int j = 0; j < m; j++)
        for (int i = j; i < m; i++) {
            double v = i == j ? 1 : ((double)((i + 3 * j) % 13) / 13 - 0.5) / m;
            size_t at = (size_t)j * m + i;
            if (cplx) { ((double *)a)[2 * at] = v; ((double *)a)[2 * at + 1] = 0; }
            else if (dbl) ((double *)a)[at] = v;
            else ((float *)a)[at] = (float)v;
        }
}

/* Times TRSMs of orders 128.. on the device and the host and fits their
 * time beyond the GEMM model f: the real ones (`cplx` 0, the precision
 * dbl) with RHS and `order` right-hand sides as the leaves term, ZTRSM
 * (`cplx` 1) with RHS as the blocks term; prints both and the shapes. */
static void measure_trsm(void *dev, void *host, int dbl, int cplx, int maxn, const double f[NC], char *a,
                         char *c, double tr[NC])
{
    shape s[MAXSHAPES];
    point pt[MAXSHAPES];
    int ns = 0;
    size_t es = (dbl ? 8 : 4) * (cplx ? 2 : 1);
    for (int m = BLOCK; m <= maxn && m <= MAXORDER; m *= 2) {
        triangle(a, m, dbl, cplx);
        for (int k = 0; k < (cplx ? 1 : 2); k++, ns++) {
            shape *x = &s[ns];
            *x = (shape){ .m = m, .n = k ? m : RHS };
            x->flops = (double)m * m * x->n * (cplx ? 4 : 1);
            x->bytes = ((double)m * m + 2.0 * m * x->n) * (double)es;  /* A up, B up and back */
            x->t_dev = timed(dev, dbl, x, a, NULL, c);
            x->t_host = timed(host, dbl, x, a, NULL, c);
            double y = x->t_dev - gemm_model(f, x);
            if (cplx)
                pt[ns] = (point){ { 1, (m + BLOCK - 1) / BLOCK }, y, x->t_dev };
            else
                pt[ns] = (point){ { 1, (m + LEAF - 1) / LEAF, 1e-6 * m * x->n, 1e-9 * m * (double)m * x->n }, y,
                                  x->t_dev };
        }
    }
    fit(pt, ns, cplx ? 2 : 4, tr);
    if (cplx)
        printf("ZTRSM beyond the GEMM model (blocks): fixed %.0f us, %.0f us per block of %d\n", 1e6 * tr[0],
               1e6 * tr[1], BLOCK);
    else
        printf("%cTRSM beyond the GEMM model (leaves): fixed %.1f us, %.2f us per block of %d, %.1f us per million "
               "elements of B, %.2f us per GFLOP\n", dbl ? 'D' : 'S', 1e6 * tr[0], 1e6 * tr[1], LEAF, 1e6 * tr[2],
               1e6 * tr[3]);
    printf("%6s %6s %12s %12s %12s %12s  %s\n", "order", "n", "device s", "GEMM model", "TRSM model", "host s",
           "faster");
    for (int i = 0; i < ns; i++) {
        double model = gemm_model(f, &s[i]);
        for (int p = 0; p < NC; p++)
            model += tr[p] * pt[i].row[p];
        printf("%6d %6d %12.6f %12.6f %12.6f %12.6f  %s\n", s[i].m, s[i].n, s[i].t_dev, gemm_model(f, &s[i]),
               model, s[i].t_host, s[i].t_dev < s[i].t_host ? "device" : "host");
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    int maxn = argc > 1 ? atoi(argv[1]) : 1024;
    const char *hostlib = argc > 2 ? argv[2] : "libopenblas.so.0";
    setenv("GPUBLAS3_CROSSOVER", "0", 1);
    void *lib = dlopen(hostlib, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "cannot load the host BLAS %s: %s\n", hostlib, dlerror());
        return 2;
    }
    double fit_d[2][NC], trsm_d[2][NC], blocks[NC];
    for (int dbl = 1; dbl >= 0; dbl--) {
        void *host = dlsym(lib, dbl ? "dgemm_" : "sgemm_"), *host_trsm = dlsym(lib, dbl ? "dtrsm_" : "strsm_");
        void *dev = dbl ? (void *)dgemm_ : (void *)sgemm_, *dev_trsm = dbl ? (void *)dtrsm_ : (void *)strsm_;
        shape s[MAXSHAPES];
        point pt[MAXSHAPES];
        int ns = 0;
        for (int n = 8; n <= maxn && ns < MAXSHAPES; n *= 2)
            s[ns++] = (shape){ .m = n, .n = n, .k = n };
        for (int n = 256; n <= maxn && ns < MAXSHAPES; n *= 2)
            s[ns++] = (shape){ .m = n, .n = n, .k = 16 };
        size_t es = dbl ? 8 : 4, most = (size_t)maxn * maxn;
        char *a = malloc(most * es), *b = malloc(most * es), *c = malloc(most * es);
        if (!a || !b || !c || !host || !host_trsm)
            return 2;
        for (size_t i = 0; i < most; i++) {
            double v = (double)(i % 13) / 13 - 0.5;
            if (dbl) ((double *)a)[i] = ((double *)b)[i] = ((double *)c)[i] = v;
            else ((float *)a)[i] = ((float *)b)[i] = ((float *)c)[i] = (float)v;
        }
        for (int i = 0; i < ns; i++) {
            shape *x = &s[i];
            x->flops = 2.0 * x->m * x->n * x->k;
            /* A and B up, C down (beta C is added on the host) */
            x->bytes = ((double)x->m * x->k + (double)x->k * x->n + (double)x->m * x->n) * (double)es;
            x->t_dev = timed(dev, dbl, x, a, b, c);
            x->t_host = timed(host, dbl, x, a, b, c);
            pt[i] = (point){ { 1, x->bytes, x->flops }, x->t_dev, x->t_dev };
        }
        double *f = fit_d[dbl];
        fit(pt, ns, 3, f);
        printf("%cGEMM: fixed %.1f us, link %.2f GB/s, device %.1f GFLOP/s\n", dbl ? 'D' : 'S', 1e6 * f[0],
               f[1] > 0 ? 1e-9 / f[1] : INFINITY, f[2] > 0 ? 1e-9 / f[2] : INFINITY);
        printf("%6s %6s %6s %12s %12s %12s  %s\n", "m", "n", "k", "device s", "model s", "host s", "faster");
        int cross = 0, cross_model = 0;
        for (int i = 0; i < ns; i++) {
            shape *x = &s[i];
            double model = gemm_model(f, x);
            printf("%6d %6d %6d %12.6f %12.6f %12.6f  %s\n", x->m, x->n, x->k, x->t_dev, model, x->t_host,
                   x->t_dev < x->t_host ? "device" : "host");
            if (x->k == x->n && x->t_dev < x->t_host && !cross) cross = x->n;
            if (x->k == x->n && x->t_dev >= x->t_host) cross = 0;
            if (x->k == x->n && model < x->t_host && !cross_model) cross_model = x->n;
            if (x->k == x->n && model >= x->t_host) cross_model = 0;
        }
        int sq = 0;  /* the largest square shape */
        for (int i = 0; i < ns; i++)
            if (s[i].k == s[i].n) sq = i;
        printf("%cGEMM square crossover: measured n = %d, model n = %d (0: the host wins up to n = %d); "
               "host BLAS %.1f GFLOP/s at n = %d\n\n", dbl ? 'D' : 'S', cross, cross_model, s[sq].n,
               1e-9 * s[sq].flops / s[sq].t_host, s[sq].n);
        measure_trsm(dev_trsm, host_trsm, dbl, 0, maxn, f, a, c, trsm_d[dbl]);
        free(a);
        free(b);
        free(c);
        if (dbl) {  /* the blocks term, from ZTRSM on D's GEMM model */
            size_t mz = maxn < MAXORDER ? (size_t)maxn : MAXORDER;
            char *za = malloc(mz * mz * 16), *zc = malloc(mz * mz * 16);
            void *zhost = dlsym(lib, "ztrsm_");
            if (!za || !zc || !zhost)
                return 2;
            for (size_t i = 0; i < 2 * mz * mz; i++)
                ((double *)zc)[i] = (double)(i % 13) / 13 - 0.5;
            measure_trsm((void *)ztrsm_, zhost, 1, 1, maxn, f, za, zc, blocks);
            free(za);
            free(zc);
        }
    }
    /* The table row (crossover.c): link and fixed cost from double precision. */
    double *d = fit_d[1], *sg = fit_d[0], *ls = trsm_d[0], *ld = trsm_d[1];
    printf("row for routines/dropin/crossover.c:\n    { { \"<part of the device name>\" }, CL_DEVICE_TYPE_..., "
           "%.1f, %.0f, { %.0f, %.0f }, { %.0f, %.0f },\n          { { %.1f, %.2f, %.1f, %.2f }, "
           "{ %.1f, %.2f, %.1f, %.2f } } },\n", d[1] > 0 ? 1e-9 / d[1] : 1e3, 1e6 * d[0],
           sg[2] > 0 ? 1e-9 / sg[2] : 1e6, d[2] > 0 ? 1e-9 / d[2] : 1e6, 1e6 * blocks[0], 1e6 * blocks[1],
           1e6 * ls[0], 1e6 * ls[1], 1e6 * ls[2], 1e6 * ls[3], 1e6 * ld[0], 1e6 * ld[1], 1e6 * ld[2], 1e6 * ld[3]);
    return 0;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* LAPACK end to end: times one LAPACK library's Cholesky (xPOTRF), LU
 * (xGETRF) and QR (xGEQRF) on n x n matrices from host memory, and checks
 * every factorization by a residual before its time counts.  It links no
 * BLAS or LAPACK: the library is dlopen'd RTLD_GLOBAL from the path given,
 * so the same program times reference LAPACK over whatever BLAS the
 * process has (the system BLAS alone, gpublas3 or NVBLAS preloaded) and
 * OpenBLAS's own LAPACK; bench/lapack_e2e.sh runs the configurations side
 * by side.
 *
 * Residuals, O(n^2) each, on a random vector x (the factors times x against
 * the original matrix times x), scaled by n * eps * |A|_F * |x|:
 *   POTRF  |A x - L (L' x)|    GETRF  |P A x - L (U x)|    GEQRF  |A x - Q (R x)|
 * A result passes under 10 (LAPACK's own testers use 30).
 *
 * Usage: lapack_e2e LAPACK_LIB LABEL ROUTINES SIZES REPS
 *   ROUTINES: comma list of dpotrf,dgetrf,dgeqrf,spotrf,sgetrf,sgeqrf
 *   SIZES: comma list of n.  Prints one CSV row per case:
 *   label,routine,n,seconds (best of REPS),gflops,residual,ok */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void potrf_fn(const char *, const int *, void *, const int *, int *, size_t);
typedef void getrf_fn(const int *, const int *, void *, const int *, int *, int *);
typedef void geqrf_fn(const int *, const int *, void *, const int *, void *, void *, const int *, int *);
typedef void ormqr_fn(const char *, const char *, const int *, const int *, const int *, const void *,
                      const int *, const void *, void *, const int *, void *, const int *, int *, size_t, size_t);

static void *lib;

static void *sym(const char *name)
{
    void *f = dlsym(lib, name);
    if (!f) {
        fprintf(stderr, "lapack_e2e: the library has no %s\n", name);
        exit(2);
    }
    return f;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Element i of an array of doubles (dbl) or floats. */
static double get(const void *p, int dbl, size_t i) { return dbl ? ((const double *)p)[i] : ((const float *)p)[i]; }
static void put(void *p, int dbl, size_t i, double v)
{
    if (dbl) ((double *)p)[i] = v;
    else ((float *)p)[i] = (float)v;
}

/* y = op(T) x for the n x n triangle of a (upper/lower, unit diagonal or
 * not, transposed or not), in double. */
static void trmv(const void *a, int dbl, int n, char uplo, int unit, int trans, const double *x, double *y)
{
    for (int i = 0; i < n; i++)
        y[i] = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            int in = uplo == 'U' ? i <= j : i >= j;
            if (!in) continue;
            double t = i == j && unit ? 1 : get(a, dbl, (size_t)i + (size_t)j * n);
            if (trans) y[j] += t * x[i];
            else y[i] += t * x[j];
        }
}

static void matvec(const void *a, int dbl, int n, const double *x, double *y)
{
    for (int i = 0; i < n; i++)
        y[i] = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            y[i] += get(a, dbl, (size_t)i + (size_t)j * n) * x[j];
}

static double norm(const double *v, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += v[i] * v[i];
    return sqrt(s);
}

/* The residual of the factors in f against the original a, scaled as the
 * top says. */
static double residual(const char *kind, int dbl, int n, const void *a, const void *f, const int *ipiv,
                       const void *tau)
{
    double *x = malloc(3 * (size_t)n * sizeof *x), *ax = x + n, *fx = x + 2 * n, anorm = 0;
    for (int i = 0; i < n; i++) x[i] = (double)rand() / RAND_MAX - 0.5;
    double xnorm = norm(x, n);
    for (size_t i = 0; i < (size_t)n * n; i++) anorm += get(a, dbl, i) * get(a, dbl, i);
    anorm = sqrt(anorm);
    matvec(a, dbl, n, x, ax);
    if (strcmp(kind, "potrf") == 0) {
        trmv(f, dbl, n, 'L', 0, 1, x, fx);         /* L' x */
        trmv(f, dbl, n, 'L', 0, 0, fx, x);         /* L (L' x), into x's place */
        memcpy(fx, x, (size_t)n * sizeof *x);
    } else if (strcmp(kind, "getrf") == 0) {
        for (int i = 0; i < n; i++) {              /* P A x: LAPACK's row swaps, in order */
            int p = ipiv[i] - 1;
            double t = ax[i]; ax[i] = ax[p]; ax[p] = t;
        }
        trmv(f, dbl, n, 'U', 0, 0, x, fx);
        trmv(f, dbl, n, 'L', 1, 0, fx, x);
        memcpy(fx, x, (size_t)n * sizeof *x);
    } else {
        trmv(f, dbl, n, 'U', 0, 0, x, fx);         /* R x, then Q (R x) by xORMQR */
        void *c = malloc((size_t)n * 8), *work;
        for (int i = 0; i < n; i++) put(c, dbl, (size_t)i, fx[i]);
        int one = 1, lwork = -1, info = 0;
        double q[2];
        ormqr_fn *ormqr = (ormqr_fn *)sym(dbl ? "dormqr_" : "sormqr_");
        ormqr("L", "N", &n, &one, &n, f, &n, tau, c, &n, q, &lwork, &info, 1, 1);
        lwork = (int)get(q, dbl, 0);
        work = malloc((size_t)(lwork > 1 ? lwork : 1) * 8);
        ormqr("L", "N", &n, &one, &n, f, &n, tau, c, &n, work, &lwork, &info, 1, 1);
        for (int i = 0; i < n; i++) fx[i] = get(c, dbl, (size_t)i);
        free(work);
        free(c);
    }
    for (int i = 0; i < n; i++)
        fx[i] -= ax[i];
    double r = norm(fx, n);
    free(x);
    return r / (anorm * xnorm * n * (dbl ? DBL_EPSILON : FLT_EPSILON));
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: %s LAPACK_LIB LABEL ROUTINES SIZES REPS\n", argv[0]);
        return 2;
    }
    if (!(lib = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL))) {
        fprintf(stderr, "lapack_e2e: %s\n", dlerror());
        return 2;
    }
    const char *label = argv[2];
    int reps = atoi(argv[5]) > 0 ? atoi(argv[5]) : 1, failures = 0;
    char routines[256];
    snprintf(routines, sizeof routines, "%s", argv[3]);
    for (char *rt = strtok(routines, ","); rt; rt = strtok(NULL, ",")) {
        int dbl = rt[0] == 'd';
        const char *kind = rt + 1;
        size_t es = dbl ? 8 : 4;
        char sizes[256], *save;
        snprintf(sizes, sizeof sizes, "%s", argv[4]);
        for (char *sz = strtok_r(sizes, ",", &save); sz; sz = strtok_r(NULL, ",", &save)) {
            int n = atoi(sz), info = 0;
            size_t nn = (size_t)n * n;
            void *a = malloc(nn * es), *f = malloc(nn * es), *tau = malloc((size_t)n * es);
            int *ipiv = malloc((size_t)n * sizeof *ipiv);
            if (!a || !f || !tau || !ipiv) {
                fprintf(stderr, "lapack_e2e: out of memory at n = %d\n", n);
                return 2;
            }
            srand(1);
            for (size_t i = 0; i < nn; i++) put(a, dbl, i, (double)rand() / RAND_MAX - 0.5);
            if (strcmp(kind, "potrf") == 0)  /* symmetric, diagonally dominant: positive definite */
                for (int j = 0; j < n; j++)
                    for (int i = 0; i <= j; i++) {
                        double v = i == j ? n : get(a, dbl, (size_t)i + (size_t)j * n);
                        put(a, dbl, (size_t)i + (size_t)j * n, v);
                        put(a, dbl, (size_t)j + (size_t)i * n, v);
                    }
            double best = HUGE_VAL, flops = strcmp(kind, "potrf") == 0 ? nn * (double)n / 3 :
                                            strcmp(kind, "getrf") == 0 ? 2 * nn * (double)n / 3 :
                                            4 * nn * (double)n / 3;
            void *work = NULL;
            int lwork = -1;
            if (strcmp(kind, "geqrf") == 0) {
                double q[2];
                ((geqrf_fn *)sym(dbl ? "dgeqrf_" : "sgeqrf_"))(&n, &n, f, &n, tau, q, &lwork, &info);
                lwork = (int)get(q, dbl, 0);
                work = malloc((size_t)(lwork > 1 ? lwork : 1) * es);
            }
            for (int r = 0; r < reps && info == 0; r++) {
                memcpy(f, a, nn * es);
                double t0 = now();
                if (strcmp(kind, "potrf") == 0)
                    ((potrf_fn *)sym(dbl ? "dpotrf_" : "spotrf_"))("L", &n, f, &n, &info, 1);
                else if (strcmp(kind, "getrf") == 0)
                    ((getrf_fn *)sym(dbl ? "dgetrf_" : "sgetrf_"))(&n, &n, f, &n, ipiv, &info);
                else
                    ((geqrf_fn *)sym(dbl ? "dgeqrf_" : "sgeqrf_"))(&n, &n, f, &n, tau, work, &lwork, &info);
                double t = now() - t0;
                best = t < best ? t : best;
            }
            double scaled = info == 0 ? residual(kind, dbl, n, a, f, ipiv, tau) : HUGE_VAL;
            int ok = info == 0 && scaled < 10;
            failures += !ok;
            printf("%s,%s,%d,%.4f,%.1f,%.3g,%s\n", label, rt, n, best, 1e-9 * flops / best, scaled,
                   ok ? "ok" : info ? "INFO" : "FAILED");
            fflush(stdout);
            free(work);
            free(a);
            free(f);
            free(tau);
            free(ipiv);
        }
    }
    return failures ? 3 : 0;
}

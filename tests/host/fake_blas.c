/* SPDX-License-Identifier: BSD-3-Clause */
/* A counting stand-in for a host BLAS, for the crossover tests: it defines
 * the Fortran names gpublas3 defers to, counts each call, and forwards it
 * to OpenBLAS (dlopen'd RTLD_LOCAL, so that its names never meet
 * gpublas3's).  Tests name it with GPUBLAS3_CPU_BLAS, or link it so that
 * it is the library after a preloaded gpublas3, and read fake_blas_calls()
 * to see which calls came here rather than to the device, and
 * fake_blas_driver_first() to see whether PoCL's OpenCL driver was loaded
 * before the first call came (the model must time the host before it).
 *
 * FAKE_BLAS_GFLOPS=<rate> makes its GEMMs take at least their flops at that
 * rate (sleeping out the rest, the last millisecond spun, so that a short
 * GEMM is not stretched by the timer's slack): the crossover model times
 * the host BLAS's rate through them and learns it from them, so a test can
 * fix that rate however loaded the machine is.  A program linking this
 * library can change the rate as it goes: fake_blas_gflops(). */
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef const char ch;
typedef const int in;
typedef const void cv;

static int calls;

static double pace_rate = -1;  /* GFLOP/s; 0: not paced; -1: FAKE_BLAS_GFLOPS's, when first needed */

static void *pocl;  /* PoCL (an OpenCL driver) was loaded at the first call */

int fake_blas_calls(void) { return __atomic_load_n(&calls, __ATOMIC_SEQ_CST); }
int fake_blas_driver_first(void) { return pocl != NULL; }
void fake_blas_gflops(double rate) { __atomic_store(&pace_rate, &rate, __ATOMIC_SEQ_CST); }

/* OpenBLAS's definition of `name`; aborts the test if there is none. */
static void *real(const char *name)
{
    static void *lib;
    if (!lib && !(lib = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL)))
        lib = dlopen("libopenblas.so", RTLD_NOW | RTLD_LOCAL);
    void *f = lib ? dlsym(lib, name) : NULL;
    if (!f) {
        fprintf(stderr, "fake_blas: no OpenBLAS %s\n", name);
        abort();
    }
    if (__atomic_fetch_add(&calls, 1, __ATOMIC_SEQ_CST) == 0 &&
        (pocl = dlopen("libpocl.so.2", RTLD_LAZY | RTLD_NOLOAD)))
        dlclose(pocl);
    return f;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Sleeps until a GEMM of m x n x k begun at t0 has taken FAKE_BLAS_GFLOPS's time. */
static void pace(double t0, in *m, in *n, in *k)
{
    double rate;
    __atomic_load(&pace_rate, &rate, __ATOMIC_SEQ_CST);
    if (rate < 0) {
        const char *e = getenv("FAKE_BLAS_GFLOPS");
        rate = e ? atof(e) : 0;
        __atomic_store(&pace_rate, &rate, __ATOMIC_SEQ_CST);
    }
    double end = rate > 0 ? t0 + 2e-9 * *m * *n * *k / rate : 0, left;
    while ((left = end - now()) > 1e-3) {
        left -= 1e-3;
        struct timespec d = { (time_t)left, (long)(1e9 * (left - (double)(time_t)left)) };
        nanosleep(&d, NULL);
    }
    while (now() < end)
        ;
}

typedef void gemm(ch *, ch *, in *, in *, in *, cv *, cv *, in *, cv *, in *, cv *, void *, in *, size_t, size_t);
typedef void symm(ch *, ch *, in *, in *, cv *, cv *, in *, cv *, in *, cv *, void *, in *, size_t, size_t);
typedef void syrk(ch *, ch *, in *, in *, cv *, cv *, in *, cv *, void *, in *, size_t, size_t);
typedef void syr2k(ch *, ch *, in *, in *, cv *, cv *, in *, cv *, in *, cv *, void *, in *, size_t, size_t);
typedef void trxm(ch *, ch *, ch *, ch *, in *, in *, cv *, cv *, in *, void *, in *, size_t, size_t, size_t, size_t);

void sgemm_(ch *ta, ch *tb, in *m, in *n, in *k, cv *al, cv *a, in *lda, cv *b, in *ldb, cv *be, void *c, in *ldc,
            size_t l1, size_t l2)
{
    double t0 = now();
    ((gemm *)real("sgemm_"))(ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc, l1, l2);
    pace(t0, m, n, k);
}
void dgemm_(ch *ta, ch *tb, in *m, in *n, in *k, cv *al, cv *a, in *lda, cv *b, in *ldb, cv *be, void *c, in *ldc,
            size_t l1, size_t l2)
{
    double t0 = now();
    ((gemm *)real("dgemm_"))(ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc, l1, l2);
    pace(t0, m, n, k);
}
void ssymm_(ch *sd, ch *ul, in *m, in *n, cv *al, cv *a, in *lda, cv *b, in *ldb, cv *be, void *c, in *ldc,
            size_t l1, size_t l2)
{ ((symm *)real("ssymm_"))(sd, ul, m, n, al, a, lda, b, ldb, be, c, ldc, l1, l2); }
void dsymm_(ch *sd, ch *ul, in *m, in *n, cv *al, cv *a, in *lda, cv *b, in *ldb, cv *be, void *c, in *ldc,
            size_t l1, size_t l2)
{ ((symm *)real("dsymm_"))(sd, ul, m, n, al, a, lda, b, ldb, be, c, ldc, l1, l2); }
void ssyrk_(ch *ul, ch *tr, in *n, in *k, cv *al, cv *a, in *lda, cv *be, void *c, in *ldc, size_t l1, size_t l2)
{ ((syrk *)real("ssyrk_"))(ul, tr, n, k, al, a, lda, be, c, ldc, l1, l2); }
void dsyrk_(ch *ul, ch *tr, in *n, in *k, cv *al, cv *a, in *lda, cv *be, void *c, in *ldc, size_t l1, size_t l2)
{ ((syrk *)real("dsyrk_"))(ul, tr, n, k, al, a, lda, be, c, ldc, l1, l2); }
void ssyr2k_(ch *ul, ch *tr, in *n, in *k, cv *al, cv *a, in *lda, cv *b, in *ldb, cv *be, void *c, in *ldc,
             size_t l1, size_t l2)
{ ((syr2k *)real("ssyr2k_"))(ul, tr, n, k, al, a, lda, b, ldb, be, c, ldc, l1, l2); }
void dsyr2k_(ch *ul, ch *tr, in *n, in *k, cv *al, cv *a, in *lda, cv *b, in *ldb, cv *be, void *c, in *ldc,
             size_t l1, size_t l2)
{ ((syr2k *)real("dsyr2k_"))(ul, tr, n, k, al, a, lda, b, ldb, be, c, ldc, l1, l2); }
void strmm_(ch *sd, ch *ul, ch *ta, ch *dg, in *m, in *n, cv *al, cv *a, in *lda, void *b, in *ldb, size_t l1,
            size_t l2, size_t l3, size_t l4)
{ ((trxm *)real("strmm_"))(sd, ul, ta, dg, m, n, al, a, lda, b, ldb, l1, l2, l3, l4); }
void dtrmm_(ch *sd, ch *ul, ch *ta, ch *dg, in *m, in *n, cv *al, cv *a, in *lda, void *b, in *ldb, size_t l1,
            size_t l2, size_t l3, size_t l4)
{ ((trxm *)real("dtrmm_"))(sd, ul, ta, dg, m, n, al, a, lda, b, ldb, l1, l2, l3, l4); }
void strsm_(ch *sd, ch *ul, ch *ta, ch *dg, in *m, in *n, cv *al, cv *a, in *lda, void *b, in *ldb, size_t l1,
            size_t l2, size_t l3, size_t l4)
{ ((trxm *)real("strsm_"))(sd, ul, ta, dg, m, n, al, a, lda, b, ldb, l1, l2, l3, l4); }
void dtrsm_(ch *sd, ch *ul, ch *ta, ch *dg, in *m, in *n, cv *al, cv *a, in *lda, void *b, in *ldb, size_t l1,
            size_t l2, size_t l3, size_t l4)
{ ((trxm *)real("dtrsm_"))(sd, ul, ta, dg, m, n, al, a, lda, b, ldb, l1, l2, l3, l4); }

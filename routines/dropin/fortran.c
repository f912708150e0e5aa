/* SPDX-License-Identifier: BSD-3-Clause */
/* The Fortran-style drop-ins (sgemm_ ... dtrmm_, strsm_, dtrsm_, cgemm_ ... ztrmm_, ctrsm_, ztrsm_): reference BLAS's
 * signatures, every argument by reference and read once into a g3d_call.
 * The hidden character lengths are left out of the signatures: they are
 * never needed, and C callers often do not pass them. */
#include "gpublas3.h"
#include "gpublas3_blas.h"
#include "dropin.h"

static void run(g3d_call *c)
{
    int info = g3d_check(c);
    if (info) {
        xerbla_(g3d_name(c), &info, 6);
        return;
    }
    g3d_run(c);
}

void sgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
            const float *alpha, const float *a, const int *lda, const float *b, const int *ldb,
            const float *beta, float *c, const int *ldc)
{
    g3d_call x = { .routine = G3D_GEMM, .dbl = 0, .trans = *transa, .transb = *transb, .m = *m, .n = *n,
                   .k = *k, .alpha = *alpha, .beta = *beta, .a = a, .lda = *lda, .b = b, .ldb = *ldb,
                   .c = c, .ldc = *ldc };
    run(&x);
}

void dgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b, const int *ldb,
            const double *beta, double *c, const int *ldc)
{
    g3d_call x = { .routine = G3D_GEMM, .dbl = 1, .trans = *transa, .transb = *transb, .m = *m, .n = *n,
                   .k = *k, .alpha = *alpha, .beta = *beta, .a = a, .lda = *lda, .b = b, .ldb = *ldb,
                   .c = c, .ldc = *ldc };
    run(&x);
}

void ssymm_(const char *side, const char *uplo, const int *m, const int *n, const float *alpha,
            const float *a, const int *lda, const float *b, const int *ldb, const float *beta, float *c,
            const int *ldc)
{
    g3d_call x = { .routine = G3D_SYMM, .dbl = 0, .side = *side, .uplo = *uplo, .m = *m, .n = *n,
                   .alpha = *alpha, .beta = *beta, .a = a, .lda = *lda, .b = b, .ldb = *ldb, .c = c,
                   .ldc = *ldc };
    run(&x);
}

void dsymm_(const char *side, const char *uplo, const int *m, const int *n, const double *alpha,
            const double *a, const int *lda, const double *b, const int *ldb, const double *beta,
            double *c, const int *ldc)
{
    g3d_call x = { .routine = G3D_SYMM, .dbl = 1, .side = *side, .uplo = *uplo, .m = *m, .n = *n,
                   .alpha = *alpha, .beta = *beta, .a = a, .lda = *lda, .b = b, .ldb = *ldb, .c = c,
                   .ldc = *ldc };
    run(&x);
}

void ssyrk_(const char *uplo, const char *trans, const int *n, const int *k, const float *alpha,
            const float *a, const int *lda, const float *beta, float *c, const int *ldc)
{
    g3d_call x = { .routine = G3D_SYRK, .dbl = 0, .uplo = *uplo, .trans = *trans, .n = *n, .k = *k,
                   .alpha = *alpha, .beta = *beta, .a = a, .lda = *lda, .c = c, .ldc = *ldc };
    run(&x);
}

void dsyrk_(const char *uplo, const char *trans, const int *n, const int *k, const double *alpha,
            const double *a, const int *lda, const double *beta, double *c, const int *ldc)
{
    g3d_call x = { .routine = G3D_SYRK, .dbl = 1, .uplo = *uplo, .trans = *trans, .n = *n, .k = *k,
                   .alpha = *alpha, .beta = *beta, .a = a, .lda = *lda, .c = c, .ldc = *ldc };
    run(&x);
}

void ssyr2k_(const char *uplo, const char *trans, const int *n, const int *k, const float *alpha,
             const float *a, const int *lda, const float *b, const int *ldb, const float *beta, float *c,
             const int *ldc)
{
    g3d_call x = { .routine = G3D_SYR2K, .dbl = 0, .uplo = *uplo, .trans = *trans, .n = *n, .k = *k,
                   .alpha = *alpha, .beta = *beta, .a = a, .lda = *lda, .b = b, .ldb = *ldb, .c = c,
                   .ldc = *ldc };
    run(&x);
}

void dsyr2k_(const char *uplo, const char *trans, const int *n, const int *k, const double *alpha,
             const double *a, const int *lda, const double *b, const int *ldb, const double *beta,
             double *c, const int *ldc)
{
    g3d_call x = { .routine = G3D_SYR2K, .dbl = 1, .uplo = *uplo, .trans = *trans, .n = *n, .k = *k,
                   .alpha = *alpha, .beta = *beta, .a = a, .lda = *lda, .b = b, .ldb = *ldb, .c = c,
                   .ldc = *ldc };
    run(&x);
}

void strmm_(const char *side, const char *uplo, const char *transa, const char *diag, const int *m,
            const int *n, const float *alpha, const float *a, const int *lda, float *b, const int *ldb)
{
    g3d_call x = { .routine = G3D_TRMM, .dbl = 0, .side = *side, .uplo = *uplo, .trans = *transa,
                   .diag = *diag, .m = *m, .n = *n, .alpha = *alpha, .a = a, .lda = *lda, .c = b, .ldc = *ldb };
    run(&x);
}

void dtrmm_(const char *side, const char *uplo, const char *transa, const char *diag, const int *m,
            const int *n, const double *alpha, const double *a, const int *lda, double *b, const int *ldb)
{
    g3d_call x = { .routine = G3D_TRMM, .dbl = 1, .side = *side, .uplo = *uplo, .trans = *transa,
                   .diag = *diag, .m = *m, .n = *n, .alpha = *alpha, .a = a, .lda = *lda, .c = b, .ldc = *ldb };
    run(&x);
}

/* ---- complex (C, Z): scalars and arrays are {re, im} pairs ---- */

/* Reads a complex scalar. */
static void cscalar(int dbl, const void *p, double *re, double *im)
{
    *re = dbl ? ((const double *)p)[0] : ((const float *)p)[0];
    *im = dbl ? ((const double *)p)[1] : ((const float *)p)[1];
}
/* Reads a real scalar of the precision. */
static double rscalar(int dbl, const void *p) { return dbl ? *(const double *)p : *(const float *)p; }

static void xgemm(int dbl, const char *transa, const char *transb, const int *m, const int *n, const int *k,
                  const void *alpha, const void *a, const int *lda, const void *b, const int *ldb,
                  const void *beta, void *c, const int *ldc)
{
    g3d_call x = { .routine = G3D_GEMM, .dbl = dbl, .cplx = 1, .trans = *transa, .transb = *transb, .m = *m,
                   .n = *n, .k = *k, .a = a, .lda = *lda, .b = b, .ldb = *ldb, .c = c, .ldc = *ldc };
    cscalar(dbl, alpha, &x.alpha, &x.alpha_im);
    cscalar(dbl, beta, &x.beta, &x.beta_im);
    run(&x);
}

static void xsymm(int dbl, int herm, const char *side, const char *uplo, const int *m, const int *n,
                  const void *alpha, const void *a, const int *lda, const void *b, const int *ldb,
                  const void *beta, void *c, const int *ldc)
{
    g3d_call x = { .routine = G3D_SYMM, .dbl = dbl, .cplx = 1, .herm = herm, .side = *side, .uplo = *uplo,
                   .m = *m, .n = *n, .a = a, .lda = *lda, .b = b, .ldb = *ldb, .c = c, .ldc = *ldc };
    cscalar(dbl, alpha, &x.alpha, &x.alpha_im);
    cscalar(dbl, beta, &x.beta, &x.beta_im);
    run(&x);
}

/* SYRK, HERK, SYR2K, HER2K (ldb == NULL: the rank-k ones); HERK's alpha and
 * the Hermitian ones' beta are real. */
static void xrank(int dbl, int herm, const char *uplo, const char *trans, const int *n, const int *k,
                  const void *alpha, const void *a, const int *lda, const void *b, const int *ldb,
                  const void *beta, void *c, const int *ldc)
{
    g3d_call x = { .routine = ldb ? G3D_SYR2K : G3D_SYRK, .dbl = dbl, .cplx = 1, .herm = herm, .uplo = *uplo,
                   .trans = *trans, .n = *n, .k = *k, .a = a, .lda = *lda, .b = b, .ldb = ldb ? *ldb : 0,
                   .c = c, .ldc = *ldc };
    if (herm && !ldb)
        x.alpha = rscalar(dbl, alpha);
    else
        cscalar(dbl, alpha, &x.alpha, &x.alpha_im);
    if (herm)
        x.beta = rscalar(dbl, beta);
    else
        cscalar(dbl, beta, &x.beta, &x.beta_im);
    run(&x);
}

/* TRMM and TRSM (the same arguments) */
static void xtrmm(g3d_routine r, int dbl, const char *side, const char *uplo, const char *transa, const char *diag,
                  const int *m, const int *n, const void *alpha, const void *a, const int *lda, void *b,
                  const int *ldb)
{
    g3d_call x = { .routine = r, .dbl = dbl, .cplx = 1, .side = *side, .uplo = *uplo, .trans = *transa,
                   .diag = *diag, .m = *m, .n = *n, .a = a, .lda = *lda, .c = b, .ldc = *ldb };
    cscalar(dbl, alpha, &x.alpha, &x.alpha_im);
    run(&x);
}

void cgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k, const void *alpha,
            const void *a, const int *lda, const void *b, const int *ldb, const void *beta, void *c, const int *ldc)
{
    xgemm(0, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void zgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k, const void *alpha,
            const void *a, const int *lda, const void *b, const int *ldb, const void *beta, void *c, const int *ldc)
{
    xgemm(1, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void csymm_(const char *side, const char *uplo, const int *m, const int *n, const void *alpha, const void *a,
            const int *lda, const void *b, const int *ldb, const void *beta, void *c, const int *ldc)
{
    xsymm(0, 0, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}

void zsymm_(const char *side, const char *uplo, const int *m, const int *n, const void *alpha, const void *a,
            const int *lda, const void *b, const int *ldb, const void *beta, void *c, const int *ldc)
{
    xsymm(1, 0, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}

void chemm_(const char *side, const char *uplo, const int *m, const int *n, const void *alpha, const void *a,
            const int *lda, const void *b, const int *ldb, const void *beta, void *c, const int *ldc)
{
    xsymm(0, 1, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}

void zhemm_(const char *side, const char *uplo, const int *m, const int *n, const void *alpha, const void *a,
            const int *lda, const void *b, const int *ldb, const void *beta, void *c, const int *ldc)
{
    xsymm(1, 1, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}

void csyrk_(const char *uplo, const char *trans, const int *n, const int *k, const void *alpha, const void *a,
            const int *lda, const void *beta, void *c, const int *ldc)
{
    xrank(0, 0, uplo, trans, n, k, alpha, a, lda, NULL, NULL, beta, c, ldc);
}

void zsyrk_(const char *uplo, const char *trans, const int *n, const int *k, const void *alpha, const void *a,
            const int *lda, const void *beta, void *c, const int *ldc)
{
    xrank(1, 0, uplo, trans, n, k, alpha, a, lda, NULL, NULL, beta, c, ldc);
}

void cherk_(const char *uplo, const char *trans, const int *n, const int *k, const float *alpha, const void *a,
            const int *lda, const float *beta, void *c, const int *ldc)
{
    xrank(0, 1, uplo, trans, n, k, alpha, a, lda, NULL, NULL, beta, c, ldc);
}

void zherk_(const char *uplo, const char *trans, const int *n, const int *k, const double *alpha, const void *a,
            const int *lda, const double *beta, void *c, const int *ldc)
{
    xrank(1, 1, uplo, trans, n, k, alpha, a, lda, NULL, NULL, beta, c, ldc);
}

void csyr2k_(const char *uplo, const char *trans, const int *n, const int *k, const void *alpha, const void *a,
             const int *lda, const void *b, const int *ldb, const void *beta, void *c, const int *ldc)
{
    xrank(0, 0, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void zsyr2k_(const char *uplo, const char *trans, const int *n, const int *k, const void *alpha, const void *a,
             const int *lda, const void *b, const int *ldb, const void *beta, void *c, const int *ldc)
{
    xrank(1, 0, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void cher2k_(const char *uplo, const char *trans, const int *n, const int *k, const void *alpha, const void *a,
             const int *lda, const void *b, const int *ldb, const float *beta, void *c, const int *ldc)
{
    xrank(0, 1, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void zher2k_(const char *uplo, const char *trans, const int *n, const int *k, const void *alpha, const void *a,
             const int *lda, const void *b, const int *ldb, const double *beta, void *c, const int *ldc)
{
    xrank(1, 1, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void ctrmm_(const char *side, const char *uplo, const char *transa, const char *diag, const int *m, const int *n,
            const void *alpha, const void *a, const int *lda, void *b, const int *ldb)
{
    xtrmm(G3D_TRMM, 0, side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}

void ztrmm_(const char *side, const char *uplo, const char *transa, const char *diag, const int *m, const int *n,
            const void *alpha, const void *a, const int *lda, void *b, const int *ldb)
{
    xtrmm(G3D_TRMM, 1, side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}

void ctrsm_(const char *side, const char *uplo, const char *transa, const char *diag, const int *m, const int *n,
            const void *alpha, const void *a, const int *lda, void *b, const int *ldb)
{
    xtrmm(G3D_TRSM, 0, side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}

void ztrsm_(const char *side, const char *uplo, const char *transa, const char *diag, const int *m, const int *n,
            const void *alpha, const void *a, const int *lda, void *b, const int *ldb)
{
    xtrmm(G3D_TRSM, 1, side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}
void strsm_(const char *side, const char *uplo, const char *transa, const char *diag, const int *m,
            const int *n, const float *alpha, const float *a, const int *lda, float *b, const int *ldb)
{
    g3d_call x = { .routine = G3D_TRSM, .dbl = 0, .side = *side, .uplo = *uplo, .trans = *transa,
                   .diag = *diag, .m = *m, .n = *n, .alpha = *alpha, .a = a, .lda = *lda, .c = b, .ldc = *ldb };
    run(&x);
}

void dtrsm_(const char *side, const char *uplo, const char *transa, const char *diag, const int *m,
            const int *n, const double *alpha, const double *a, const int *lda, double *b, const int *ldb)
{
    g3d_call x = { .routine = G3D_TRSM, .dbl = 1, .side = *side, .uplo = *uplo, .trans = *transa,
                   .diag = *diag, .m = *m, .n = *n, .alpha = *alpha, .a = a, .lda = *lda, .c = b, .ldc = *ldb };
    run(&x);
}

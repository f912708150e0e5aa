/* SPDX-License-Identifier: BSD-3-Clause */
/* Argument errors, seen through the application's own xerbla_ and
 * cblas_xerbla (defined here, so they must replace the library's): every
 * argument position each Fortran routine checks, in both precisions, with
 * the six-character blank-padded name, the hidden length 6, reference
 * BLAS's order when several arguments are bad, and no array touched; legal
 * corner cases (sizes 0 with leading dimension 1, lower-case and 'C'
 * letters) report nothing.  Then every position of the CBLAS names,
 * column- and row-major, with the positions reference CBLAS passes (a
 * row-major call's size and leading dimension errors as in the
 * column-major call it maps to).  TRSM has TRMM's arguments and checks:
 * every TRMM case runs again as TRSM. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "gpublas3_blas.h"

static struct { int count, info; char name[8]; size_t len; } fx;
static struct { int count, p; char rout[32]; } cx;

void xerbla_(const char *srname, const int *info, size_t len)
{
    fx.count++;
    fx.info = *info;
    fx.len = len;
    memcpy(fx.name, srname, 6);
    fx.name[6] = 0;
}

void cblas_xerbla(int p, const char *rout, const char *form, ...)
{
    (void)form;
    cx.count++;
    cx.p = p;
    snprintf(cx.rout, sizeof cx.rout, "%s", rout);
}

enum { GEMM, SYMM, SYRK, SYR2K, TRMM, TRSM };
static const char *const fnames[2][6] = { { "SGEMM ", "SSYMM ", "SSYRK ", "SSYR2K", "STRMM ", "STRSM " },
                                          { "DGEMM ", "DSYMM ", "DSYRK ", "DSYR2K", "DTRMM ", "DTRSM " } };

/* opts: the option letters in argument order; expect: the position, 0 = legal */
typedef struct { int routine; const char *opts; int m, n, k, lda, ldb, ldc, expect; } fcase;

static const fcase fcases[] = {
    { GEMM, "XN", 0, 0, 0, 1, 1, 1, 1 }, { GEMM, "NX", 0, 0, 0, 1, 1, 1, 2 },
    { GEMM, "NN", -1, 0, 0, 1, 1, 1, 3 }, { GEMM, "NN", 0, -1, 0, 1, 1, 1, 4 },
    { GEMM, "NN", 0, 0, -1, 1, 1, 1, 5 }, { GEMM, "NN", 2, 0, 0, 1, 1, 2, 8 },
    { GEMM, "TN", 0, 0, 2, 1, 2, 1, 8 }, { GEMM, "NN", 0, 0, 2, 1, 1, 1, 10 },
    { GEMM, "NT", 0, 2, 0, 1, 1, 1, 10 }, { GEMM, "NN", 2, 0, 0, 2, 1, 1, 13 },
    { GEMM, "XN", -1, 0, 0, 0, 0, 0, 1 }, { GEMM, "NN", -1, -1, -1, 0, 0, 0, 3 },
    { GEMM, "CC", 0, 0, 0, 1, 1, 1, 0 }, { GEMM, "tc", 2, 0, 3, 3, 1, 2, 0 },
    { SYMM, "XU", 0, 0, 0, 1, 1, 1, 1 }, { SYMM, "LX", 0, 0, 0, 1, 1, 1, 2 },
    { SYMM, "LU", -1, 0, 0, 1, 1, 1, 3 }, { SYMM, "LU", 0, -1, 0, 1, 1, 1, 4 },
    { SYMM, "LU", 2, 0, 0, 1, 2, 2, 7 }, { SYMM, "RU", 0, 2, 0, 1, 1, 1, 7 },
    { SYMM, "LU", 2, 0, 0, 2, 1, 2, 9 }, { SYMM, "rl", 2, 0, 0, 1, 2, 1, 12 },
    { SYMM, "XX", -1, -1, 0, 0, 0, 0, 1 }, { SYMM, "rl", 0, 0, 0, 1, 1, 1, 0 },
    { SYRK, "XN", 0, 0, 0, 1, 1, 1, 1 }, { SYRK, "UX", 0, 0, 0, 1, 1, 1, 2 },
    { SYRK, "UN", 0, -1, 0, 1, 1, 1, 3 }, { SYRK, "UN", 0, 0, -1, 1, 1, 1, 4 },
    { SYRK, "UN", 0, 2, 0, 1, 1, 2, 7 }, { SYRK, "LT", 0, 0, 2, 1, 1, 1, 7 },
    { SYRK, "uc", 0, 2, 0, 2, 1, 1, 10 }, { SYRK, "LC", 0, 0, 0, 1, 1, 1, 0 },
    { SYR2K, "XN", 0, 0, 0, 1, 1, 1, 1 }, { SYR2K, "UX", 0, 0, 0, 1, 1, 1, 2 },
    { SYR2K, "UN", 0, -1, 0, 1, 1, 1, 3 }, { SYR2K, "UN", 0, 0, -1, 1, 1, 1, 4 },
    { SYR2K, "UN", 0, 2, 0, 1, 2, 2, 7 }, { SYR2K, "LT", 0, 0, 2, 2, 1, 1, 9 },
    { SYR2K, "UN", 0, 2, 0, 2, 1, 2, 9 }, { SYR2K, "lc", 0, 2, 0, 2, 2, 1, 12 },
    { SYR2K, "Uc", 0, 0, 0, 1, 1, 1, 0 },
    { TRMM, "XUNN", 0, 0, 0, 1, 1, 1, 1 }, { TRMM, "LXNN", 0, 0, 0, 1, 1, 1, 2 },
    { TRMM, "LUXN", 0, 0, 0, 1, 1, 1, 3 }, { TRMM, "LUNX", 0, 0, 0, 1, 1, 1, 4 },
    { TRMM, "LUNN", -1, 0, 0, 1, 1, 1, 5 }, { TRMM, "LUNN", 0, -1, 0, 1, 1, 1, 6 },
    { TRMM, "LUNN", 2, 0, 0, 1, 2, 1, 9 }, { TRMM, "RUNN", 0, 2, 0, 1, 1, 1, 9 },
    { TRMM, "LUNN", 2, 0, 0, 2, 1, 1, 11 }, { TRMM, "rlcu", 2, 0, 0, 1, 1, 1, 11 },
    { TRMM, "LUXX", -1, -1, 0, 0, 0, 0, 3 }, { TRMM, "rlcu", 0, 0, 0, 1, 1, 1, 0 },
};

enum { LEN = 64 };
static double A[LEN], B[LEN], C[LEN], A0[LEN], B0[LEN], C0[LEN];

static void fill(void)
{
    for (int i = 0; i < LEN; i++)
        A[i] = A0[i] = i + 0.5, B[i] = B0[i] = -i - 0.25, C[i] = C0[i] = 3.0 * i;
}

static void call_fortran(const fcase *f, int routine, int dbl)
{
    const char *o = f->opts;
    double da = 2, db = 3;
    float sa = 2, sb = 3;
    float *fa = (float *)A, *fb = (float *)B, *fc = (float *)C;
    switch (routine) {
    case GEMM:
        if (dbl) dgemm_(&o[0], &o[1], &f->m, &f->n, &f->k, &da, A, &f->lda, B, &f->ldb, &db, C, &f->ldc);
        else sgemm_(&o[0], &o[1], &f->m, &f->n, &f->k, &sa, fa, &f->lda, fb, &f->ldb, &sb, fc, &f->ldc);
        break;
    case SYMM:
        if (dbl) dsymm_(&o[0], &o[1], &f->m, &f->n, &da, A, &f->lda, B, &f->ldb, &db, C, &f->ldc);
        else ssymm_(&o[0], &o[1], &f->m, &f->n, &sa, fa, &f->lda, fb, &f->ldb, &sb, fc, &f->ldc);
        break;
    case SYRK:
        if (dbl) dsyrk_(&o[0], &o[1], &f->n, &f->k, &da, A, &f->lda, &db, C, &f->ldc);
        else ssyrk_(&o[0], &o[1], &f->n, &f->k, &sa, fa, &f->lda, &sb, fc, &f->ldc);
        break;
    case SYR2K:
        if (dbl) dsyr2k_(&o[0], &o[1], &f->n, &f->k, &da, A, &f->lda, B, &f->ldb, &db, C, &f->ldc);
        else ssyr2k_(&o[0], &o[1], &f->n, &f->k, &sa, fa, &f->lda, fb, &f->ldb, &sb, fc, &f->ldc);
        break;
    case TRMM:
        if (dbl) dtrmm_(&o[0], &o[1], &o[2], &o[3], &f->m, &f->n, &da, A, &f->lda, B, &f->ldb);
        else strmm_(&o[0], &o[1], &o[2], &o[3], &f->m, &f->n, &sa, fa, &f->lda, fb, &f->ldb);
        break;
    case TRSM:
        if (dbl) dtrsm_(&o[0], &o[1], &o[2], &o[3], &f->m, &f->n, &da, A, &f->lda, B, &f->ldb);
        else strsm_(&o[0], &o[1], &o[2], &o[3], &f->m, &f->n, &sa, fa, &f->lda, fb, &f->ldb);
        break;
    }
}

static void test_fortran_positions(void **state)
{
    (void)state;
    int bad = 0;
    for (size_t i = 0; i < sizeof fcases / sizeof fcases[0]; i++)
        for (int run = 0; run < (fcases[i].routine == TRMM ? 4 : 2); run++) {
            const fcase *f = &fcases[i];
            int dbl = run % 2, routine = run < 2 ? f->routine : TRSM;
            memset(&fx, 0, sizeof fx);
            fill();
            call_fortran(f, routine, dbl);
            int want = f->expect ? 1 : 0;
            int ok = fx.count == want && (!want || (fx.info == f->expect && fx.len == 6 &&
                                                    strcmp(fx.name, fnames[dbl][routine]) == 0));
            int untouched = !memcmp(A, A0, sizeof A) && !memcmp(B, B0, sizeof B) && !memcmp(C, C0, sizeof C);
            if (!ok || !untouched) {
                bad++;
                fprintf(stderr, "case %zu (%s %s m=%d n=%d k=%d ld=%d/%d/%d): want %d, got %d call(s), "
                        "info %d, name \"%s\", len %zu%s\n", i, fnames[dbl][routine], f->opts, f->m, f->n,
                        f->k, f->lda, f->ldb, f->ldc, f->expect, fx.count, fx.info, fx.name, fx.len,
                        untouched ? "" : ", arrays touched");
            }
        }
    assert_int_equal(bad, 0);
}

/* ---- CBLAS ---- */

enum { BAD = 0 };  /* an invalid value for any enum */
typedef struct {
    int routine, layout, e1, e2, e3, e4;  /* enums in argument order after the layout */
    int m, n, k, lda, ldb, ldc, expect;   /* expect: the p cblas_xerbla gets */
} ccase;

#define R CblasRowMajor
#define K CblasColMajor
#define NT CblasNoTrans
#define UP CblasUpper
#define LE CblasLeft
#define NU CblasNonUnit
static const ccase ccases[] = {
    /* GEMM: layout 1, TransA 2, TransB 3, M 4, N 5, K 6, lda 9, ldb 11, ldc 14 */
    { GEMM, BAD, NT, NT, 0, 0, 0, 0, 0, 1, 1, 1, 1 },
    { GEMM, K, BAD, NT, 0, 0, 0, 0, 0, 1, 1, 1, 2 }, { GEMM, R, BAD, NT, 0, 0, 0, 0, 0, 1, 1, 1, 2 },
    { GEMM, K, NT, BAD, 0, 0, 0, 0, 0, 1, 1, 1, 3 }, { GEMM, R, NT, BAD, 0, 0, 0, 0, 0, 1, 1, 1, 3 },
    { GEMM, K, NT, NT, 0, 0, -1, 0, 0, 1, 1, 1, 4 }, { GEMM, K, NT, NT, 0, 0, 0, -1, 0, 1, 1, 1, 5 },
    { GEMM, K, NT, NT, 0, 0, 0, 0, -1, 1, 1, 1, 6 }, { GEMM, K, NT, NT, 0, 0, 2, 0, 0, 1, 1, 2, 9 },
    { GEMM, K, NT, NT, 0, 0, 0, 0, 2, 1, 1, 1, 11 }, { GEMM, K, NT, NT, 0, 0, 2, 0, 0, 2, 1, 1, 14 },
    /* row-major: M and N, lda and ldb trade places */
    { GEMM, R, NT, NT, 0, 0, -1, 0, 0, 1, 1, 1, 5 }, { GEMM, R, NT, NT, 0, 0, 0, -1, 0, 1, 1, 1, 4 },
    { GEMM, R, NT, NT, 0, 0, 0, 0, -1, 1, 1, 1, 6 }, { GEMM, R, NT, NT, 0, 0, 0, 0, 2, 1, 1, 1, 11 },
    { GEMM, R, NT, NT, 0, 0, 0, 2, 0, 1, 1, 2, 9 }, { GEMM, R, NT, NT, 0, 0, 0, 2, 0, 1, 2, 1, 14 },
    /* SYMM: Side 2, Uplo 3, M 4, N 5, lda 8, ldb 10, ldc 13 */
    { SYMM, BAD, LE, UP, 0, 0, 0, 0, 0, 1, 1, 1, 1 },
    { SYMM, K, BAD, UP, 0, 0, 0, 0, 0, 1, 1, 1, 2 }, { SYMM, R, LE, BAD, 0, 0, 0, 0, 0, 1, 1, 1, 3 },
    { SYMM, K, LE, UP, 0, 0, -1, 0, 0, 1, 1, 1, 4 }, { SYMM, K, LE, UP, 0, 0, 0, -1, 0, 1, 1, 1, 5 },
    { SYMM, K, LE, UP, 0, 0, 2, 0, 0, 1, 2, 2, 8 }, { SYMM, K, LE, UP, 0, 0, 2, 0, 0, 2, 1, 2, 10 },
    { SYMM, K, LE, UP, 0, 0, 2, 0, 0, 2, 2, 1, 13 },
    { SYMM, R, LE, UP, 0, 0, -1, 0, 0, 1, 1, 1, 5 }, { SYMM, R, LE, UP, 0, 0, 0, -1, 0, 1, 1, 1, 4 },
    { SYMM, R, LE, UP, 0, 0, 2, 0, 0, 1, 1, 1, 8 }, { SYMM, R, LE, UP, 0, 0, 0, 2, 0, 1, 1, 2, 10 },
    { SYMM, R, LE, UP, 0, 0, 0, 2, 0, 1, 2, 1, 13 },
    /* SYRK: Uplo 2, Trans 3, N 4, K 5, lda 8, ldc 11 */
    { SYRK, BAD, UP, NT, 0, 0, 0, 0, 0, 1, 1, 1, 1 },
    { SYRK, K, BAD, NT, 0, 0, 0, 0, 0, 1, 1, 1, 2 }, { SYRK, R, UP, BAD, 0, 0, 0, 0, 0, 1, 1, 1, 3 },
    { SYRK, K, UP, NT, 0, 0, 0, -1, 0, 1, 1, 1, 4 }, { SYRK, R, UP, NT, 0, 0, 0, 0, -1, 1, 1, 1, 5 },
    { SYRK, K, UP, NT, 0, 0, 0, 2, 0, 1, 1, 2, 8 }, { SYRK, R, UP, NT, 0, 0, 0, 0, 2, 1, 1, 1, 8 },
    { SYRK, K, UP, NT, 0, 0, 0, 2, 0, 2, 1, 1, 11 }, { SYRK, R, UP, NT, 0, 0, 0, 2, 0, 1, 1, 1, 11 },
    /* SYR2K: as SYRK, ldb 10, ldc 13 */
    { SYR2K, K, UP, BAD, 0, 0, 0, 0, 0, 1, 1, 1, 3 }, { SYR2K, R, UP, NT, 0, 0, 0, -1, 0, 1, 1, 1, 4 },
    { SYR2K, K, UP, NT, 0, 0, 0, 2, 0, 1, 2, 2, 8 }, { SYR2K, K, UP, NT, 0, 0, 0, 2, 0, 2, 1, 2, 10 },
    { SYR2K, R, UP, NT, 0, 0, 0, 0, 2, 2, 1, 1, 10 }, { SYR2K, K, UP, NT, 0, 0, 0, 2, 0, 2, 2, 1, 13 },
    /* TRMM: Side 2, Uplo 3, TransA 4, Diag 5, M 6, N 7, lda 10, ldb 12 */
    { TRMM, BAD, LE, UP, NT, NU, 0, 0, 0, 1, 1, 1, 1 },
    { TRMM, K, BAD, UP, NT, NU, 0, 0, 0, 1, 1, 1, 2 }, { TRMM, K, LE, BAD, NT, NU, 0, 0, 0, 1, 1, 1, 3 },
    { TRMM, R, LE, UP, BAD, NU, 0, 0, 0, 1, 1, 1, 4 }, { TRMM, R, LE, UP, NT, BAD, 0, 0, 0, 1, 1, 1, 5 },
    { TRMM, K, LE, UP, NT, NU, -1, 0, 0, 1, 1, 1, 6 }, { TRMM, K, LE, UP, NT, NU, 0, -1, 0, 1, 1, 1, 7 },
    { TRMM, K, LE, UP, NT, NU, 2, 0, 0, 1, 2, 1, 10 }, { TRMM, K, LE, UP, NT, NU, 2, 0, 0, 2, 1, 1, 12 },
    { TRMM, R, LE, UP, NT, NU, -1, 0, 0, 1, 1, 1, 7 }, { TRMM, R, LE, UP, NT, NU, 0, -1, 0, 1, 1, 1, 6 },
    { TRMM, R, LE, UP, NT, NU, 2, 0, 0, 1, 1, 1, 10 }, { TRMM, R, LE, UP, NT, NU, 0, 2, 0, 1, 1, 1, 12 },
    /* legal: sizes 0, leading dimension 1, ConjTrans */
    { GEMM, R, CblasConjTrans, NT, 0, 0, 0, 0, 0, 1, 1, 1, 0 },
    { SYRK, R, CblasLower, CblasConjTrans, 0, 0, 0, 0, 0, 1, 1, 1, 0 },
    { TRMM, K, CblasRight, CblasLower, CblasConjTrans, CblasUnit, 0, 0, 0, 1, 1, 1, 0 },
};

static const char *const cnames[2][6] = {
    { "cblas_sgemm", "cblas_ssymm", "cblas_ssyrk", "cblas_ssyr2k", "cblas_strmm", "cblas_strsm" },
    { "cblas_dgemm", "cblas_dsymm", "cblas_dsyrk", "cblas_dsyr2k", "cblas_dtrmm", "cblas_dtrsm" } };

static void call_cblas(const ccase *c, int routine, int dbl)
{
    float *fa = (float *)A, *fb = (float *)B, *fc = (float *)C;
    switch (routine) {
    case GEMM:
        if (dbl) cblas_dgemm(c->layout, c->e1, c->e2, c->m, c->n, c->k, 2, A, c->lda, B, c->ldb, 3, C, c->ldc);
        else cblas_sgemm(c->layout, c->e1, c->e2, c->m, c->n, c->k, 2, fa, c->lda, fb, c->ldb, 3, fc, c->ldc);
        break;
    case SYMM:
        if (dbl) cblas_dsymm(c->layout, c->e1, c->e2, c->m, c->n, 2, A, c->lda, B, c->ldb, 3, C, c->ldc);
        else cblas_ssymm(c->layout, c->e1, c->e2, c->m, c->n, 2, fa, c->lda, fb, c->ldb, 3, fc, c->ldc);
        break;
    case SYRK:
        if (dbl) cblas_dsyrk(c->layout, c->e1, c->e2, c->n, c->k, 2, A, c->lda, 3, C, c->ldc);
        else cblas_ssyrk(c->layout, c->e1, c->e2, c->n, c->k, 2, fa, c->lda, 3, fc, c->ldc);
        break;
    case SYR2K:
        if (dbl) cblas_dsyr2k(c->layout, c->e1, c->e2, c->n, c->k, 2, A, c->lda, B, c->ldb, 3, C, c->ldc);
        else cblas_ssyr2k(c->layout, c->e1, c->e2, c->n, c->k, 2, fa, c->lda, fb, c->ldb, 3, fc, c->ldc);
        break;
    case TRMM:
        if (dbl) cblas_dtrmm(c->layout, c->e1, c->e2, c->e3, c->e4, c->m, c->n, 2, A, c->lda, B, c->ldb);
        else cblas_strmm(c->layout, c->e1, c->e2, c->e3, c->e4, c->m, c->n, 2, fa, c->lda, fb, c->ldb);
        break;
    case TRSM:
        if (dbl) cblas_dtrsm(c->layout, c->e1, c->e2, c->e3, c->e4, c->m, c->n, 2, A, c->lda, B, c->ldb);
        else cblas_strsm(c->layout, c->e1, c->e2, c->e3, c->e4, c->m, c->n, 2, fa, c->lda, fb, c->ldb);
        break;
    }
}

static void test_cblas_positions(void **state)
{
    (void)state;
    int bad = 0;
    for (size_t i = 0; i < sizeof ccases / sizeof ccases[0]; i++)
        for (int run = 0; run < (ccases[i].routine == TRMM ? 4 : 2); run++) {
            const ccase *c = &ccases[i];
            int dbl = run % 2, routine = run < 2 ? c->routine : TRSM;
            memset(&cx, 0, sizeof cx);
            memset(&fx, 0, sizeof fx);
            fill();
            call_cblas(c, routine, dbl);
            int want = c->expect ? 1 : 0;
            int ok = cx.count == want && fx.count == 0 &&
                     (!want || (cx.p == c->expect && strcmp(cx.rout, cnames[dbl][routine]) == 0));
            int untouched = !memcmp(A, A0, sizeof A) && !memcmp(B, B0, sizeof B) && !memcmp(C, C0, sizeof C);
            if (!ok || !untouched) {
                bad++;
                fprintf(stderr, "cblas case %zu (%s %s m=%d n=%d k=%d ld=%d/%d/%d): want %d, got %d call(s) "
                        "p=%d rout \"%s\" (xerbla_ %d)%s\n", i, cnames[dbl][routine],
                        c->layout == R ? "row" : c->layout == K ? "col" : "bad-layout", c->m, c->n, c->k,
                        c->lda, c->ldb, c->ldc, c->expect, cx.count, cx.p, cx.rout, fx.count,
                        untouched ? "" : ", arrays touched");
            }
        }
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fortran_positions),
        cmocka_unit_test(test_cblas_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

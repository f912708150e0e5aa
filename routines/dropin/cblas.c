/* SPDX-License-Identifier: BSD-3-Clause */
/* The CBLAS drop-ins (cblas_sgemm ... cblas_dtrmm, cblas_strsm,
 * cblas_dtrsm, cblas_cgemm ... cblas_ztrmm, cblas_ctrsm, cblas_ztrsm), as reference CBLAS
 * builds them: the layout and the enums are checked here (the layout is
 * argument 1), a row-major call becomes the column-major call on the
 * transposes, and that call's checks report through cblas_xerbla with
 * their Fortran position plus one, so a row-major call's size and leading
 * dimension errors carry their column-major positions, as in reference
 * CBLAS.  Each helper takes the call's type and scalars in `t` (a g3d_call
 * with only those set); row-major HERK flips N and C, and row-major HER2K
 * takes conj(alpha) (C^T = conj(alpha) V_A^H V_B + alpha V_B^H V_A on the
 * views V = A^T, B^T), as reference CBLAS does. */
#include "gpublas3.h"
#include "gpublas3_blas.h"
#include "dropin.h"

void g3d_cblas_report(int row, int pos, const char *rout, const char *form, int value)
{
    g3d_cblas_rowmajor = row;
    cblas_xerbla(pos, rout, form, value);
    g3d_cblas_rowmajor = 0;
}

static void run(g3d_call *c, int row, const char *rout)
{
    int info = g3d_check(c);
    if (info)
        g3d_cblas_report(row, info + 1, rout, "", 0);
    else
        g3d_run(c);
}

char g3d_cblas_trans(int t)
{
    return t == CblasNoTrans ? 'N' : t == CblasTrans ? 'T' : t == CblasConjTrans ? 'C' : 0;
}
static char uplo_letter(int u, int row)
{
    return u == CblasUpper ? (row ? 'L' : 'U') : u == CblasLower ? (row ? 'U' : 'L') : 0;
}
static char side_letter(int s, int row)
{
    return s == CblasLeft ? (row ? 'R' : 'L') : s == CblasRight ? (row ? 'L' : 'R') : 0;
}

int g3d_cblas_layout(int layout, const char *rout)
{
    if (layout == CblasRowMajor || layout == CblasColMajor)
        return layout == CblasRowMajor;
    g3d_cblas_report(0, 1, rout, "Illegal layout setting, %d\n", layout);
    return -1;
}

g3d_call g3d_cblas_gemm(g3d_call t, int row, char a, char b, int M, int N, int K, const void *A, int lda,
                        const void *B, int ldb, void *C, int ldc)
{
    /* Row-major: C^T = op(B)^T op(A)^T. */
    g3d_call c = t;
    c.routine = G3D_GEMM;
    c.trans = row ? b : a;
    c.transb = row ? a : b;
    c.m = row ? N : M;
    c.n = row ? M : N;
    c.k = K;
    c.a = row ? B : A;
    c.lda = row ? ldb : lda;
    c.b = row ? A : B;
    c.ldb = row ? lda : ldb;
    c.c = C;
    c.ldc = ldc;
    return c;
}

static void gemm(g3d_call t, const char *rout, int layout, int ta, int tb, int M, int N, int K,
                 const void *A, int lda, const void *B, int ldb, void *C, int ldc)
{
    int row = g3d_cblas_layout(layout, rout);
    if (row < 0) return;
    char a = g3d_cblas_trans(ta), b = g3d_cblas_trans(tb);
    if (!a) { g3d_cblas_report(row, 2, rout, "Illegal TransA setting, %d\n", ta); return; }
    if (!b) { g3d_cblas_report(row, 3, rout, "Illegal TransB setting, %d\n", tb); return; }
    g3d_call c = g3d_cblas_gemm(t, row, a, b, M, N, K, A, lda, B, ldb, C, ldc);
    run(&c, row, rout);
}

static void symm(g3d_call t, const char *rout, int layout, int side, int uplo, int M, int N,
                 const void *A, int lda, const void *B, int ldb, void *C, int ldc)
{
    int row = g3d_cblas_layout(layout, rout);
    if (row < 0) return;
    char s = side_letter(side, row), u = uplo_letter(uplo, row);
    if (!s) { g3d_cblas_report(row, 2, rout, "Illegal Side setting, %d\n", side); return; }
    if (!u) { g3d_cblas_report(row, 3, rout, "Illegal Uplo setting, %d\n", uplo); return; }
    g3d_call c = t;
    c.routine = G3D_SYMM;
    c.side = s;
    c.uplo = u;
    c.m = row ? N : M;
    c.n = row ? M : N;
    c.a = A, c.lda = lda, c.b = B, c.ldb = ldb, c.c = C, c.ldc = ldc;
    run(&c, row, rout);
}

/* SYRK and SYR2K (B == NULL for SYRK): row-major flips the triangle and
 * the transpose, ConjTrans going to 'N' as for Trans. */
static void syrk(g3d_call t, const char *rout, int layout, int uplo, int trans, int N, int K,
                 const void *A, int lda, const void *B, int ldb, void *C, int ldc)
{
    int row = g3d_cblas_layout(layout, rout);
    if (row < 0) return;
    char u = uplo_letter(uplo, row), tr = g3d_cblas_trans(trans);
    if (!u) { g3d_cblas_report(row, 2, rout, "Illegal Uplo setting, %d\n", uplo); return; }
    if (!tr) { g3d_cblas_report(row, 3, rout, "Illegal Trans setting, %d\n", trans); return; }
    if (row)
        tr = tr == 'N' ? (t.herm ? 'C' : 'T') : 'N';
    g3d_call c = t; /* its routine: SYRK or SYR2K */
    c.uplo = u;
    c.trans = tr;
    c.n = N, c.k = K, c.a = A, c.lda = lda, c.b = B, c.ldb = ldb, c.c = C, c.ldc = ldc;
    if (row && t.herm)
        c.alpha_im = -c.alpha_im;
    run(&c, row, rout);
}

/* TRMM and TRSM (the same arguments; t names the routine) */
static void trmm(g3d_call t, const char *rout, int layout, int side, int uplo, int ta, int diag, int M, int N,
                 const void *A, int lda, void *B, int ldb)
{
    int row = g3d_cblas_layout(layout, rout);
    if (row < 0) return;
    char s = side_letter(side, row), u = uplo_letter(uplo, row), tr = g3d_cblas_trans(ta);
    char d = diag == CblasUnit ? 'U' : diag == CblasNonUnit ? 'N' : 0;
    if (!s) { g3d_cblas_report(row, 2, rout, "Illegal Side setting, %d\n", side); return; }
    if (!u) { g3d_cblas_report(row, 3, rout, "Illegal Uplo setting, %d\n", uplo); return; }
    if (!tr) { g3d_cblas_report(row, 4, rout, "Illegal Trans setting, %d\n", ta); return; }
    if (!d) { g3d_cblas_report(row, 5, rout, "Illegal Diag setting, %d\n", diag); return; }
    g3d_call c = t;
    c.side = s, c.uplo = u, c.trans = tr, c.diag = d;
    c.m = row ? N : M;
    c.n = row ? M : N;
    c.a = A, c.lda = lda, c.c = B, c.ldc = ldb;
    run(&c, row, rout);
}

void cblas_sgemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE TransA, CBLAS_TRANSPOSE TransB, const int M, const int N,
                 const int K, const float alpha, const float *A, const int lda, const float *B, const int ldb,
                 const float beta, float *C, const int ldc)
{
    gemm((g3d_call){ .dbl = 0, .alpha = alpha, .beta = beta }, "cblas_sgemm",
         layout, TransA, TransB, M, N, K, A, lda, B, ldb, C, ldc);
}

void cblas_dgemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE TransA, CBLAS_TRANSPOSE TransB, const int M, const int N,
                 const int K, const double alpha, const double *A, const int lda, const double *B, const int ldb,
                 const double beta, double *C, const int ldc)
{
    gemm((g3d_call){ .dbl = 1, .alpha = alpha, .beta = beta }, "cblas_dgemm",
         layout, TransA, TransB, M, N, K, A, lda, B, ldb, C, ldc);
}

void cblas_ssymm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo, const int M, const int N,
                 const float alpha, const float *A, const int lda, const float *B, const int ldb,
                 const float beta, float *C, const int ldc)
{
    symm((g3d_call){ .dbl = 0, .alpha = alpha, .beta = beta }, "cblas_ssymm", layout, Side, Uplo, M, N, A, lda, B, ldb,
         C, ldc);
}

void cblas_dsymm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo, const int M, const int N,
                 const double alpha, const double *A, const int lda, const double *B, const int ldb,
                 const double beta, double *C, const int ldc)
{
    symm((g3d_call){ .dbl = 1, .alpha = alpha, .beta = beta }, "cblas_dsymm", layout, Side, Uplo, M, N, A, lda, B, ldb,
         C, ldc);
}

void cblas_ssyrk(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans, const int N, const int K,
                 const float alpha, const float *A, const int lda, const float beta, float *C, const int ldc)
{
    syrk((g3d_call){ .routine = G3D_SYRK, .dbl = 0, .alpha = alpha, .beta = beta }, "cblas_ssyrk",
         layout, Uplo, Trans, N, K, A, lda, NULL, 0, C, ldc);
}

void cblas_dsyrk(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans, const int N, const int K,
                 const double alpha, const double *A, const int lda, const double beta, double *C, const int ldc)
{
    syrk((g3d_call){ .routine = G3D_SYRK, .dbl = 1, .alpha = alpha, .beta = beta }, "cblas_dsyrk",
         layout, Uplo, Trans, N, K, A, lda, NULL, 0, C, ldc);
}

void cblas_ssyr2k(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans, const int N, const int K,
                  const float alpha, const float *A, const int lda, const float *B, const int ldb,
                  const float beta, float *C, const int ldc)
{
    syrk((g3d_call){ .routine = G3D_SYR2K, .dbl = 0, .alpha = alpha, .beta = beta }, "cblas_ssyr2k",
         layout, Uplo, Trans, N, K, A, lda, B, ldb, C, ldc);
}

void cblas_dsyr2k(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans, const int N, const int K,
                  const double alpha, const double *A, const int lda, const double *B, const int ldb,
                  const double beta, double *C, const int ldc)
{
    syrk((g3d_call){ .routine = G3D_SYR2K, .dbl = 1, .alpha = alpha, .beta = beta }, "cblas_dsyr2k",
         layout, Uplo, Trans, N, K, A, lda, B, ldb, C, ldc);
}

void cblas_strmm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag,
                 const int M, const int N, const float alpha, const float *A, const int lda, float *B,
                 const int ldb)
{
    trmm((g3d_call){ .routine = G3D_TRMM, .dbl = 0, .alpha = alpha }, "cblas_strmm", layout, Side, Uplo, TransA, Diag, M, N, A, lda,
         B, ldb);
}

void cblas_dtrmm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag,
                 const int M, const int N, const double alpha, const double *A, const int lda, double *B,
                 const int ldb)
{
    trmm((g3d_call){ .routine = G3D_TRMM, .dbl = 1, .alpha = alpha }, "cblas_dtrmm", layout, Side, Uplo, TransA, Diag, M, N, A, lda,
         B, ldb);
}

void cblas_strsm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag,
                 const int M, const int N, const float alpha, const float *A, const int lda, float *B,
                 const int ldb)
{
    trmm((g3d_call){ .routine = G3D_TRSM, .dbl = 0, .alpha = alpha }, "cblas_strsm", layout, Side, Uplo, TransA,
         Diag, M, N, A, lda, B, ldb);
}

void cblas_dtrsm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag,
                 const int M, const int N, const double alpha, const double *A, const int lda, double *B,
                 const int ldb)
{
    trmm((g3d_call){ .routine = G3D_TRSM, .dbl = 1, .alpha = alpha }, "cblas_dtrsm", layout, Side, Uplo, TransA,
         Diag, M, N, A, lda, B, ldb);
}

/* ---- complex: scalars by pointer ---- */

/* The type and scalars of a complex call; beta NULL: none (TRMM);
 * real_alpha / real_beta: HERK's and HER2K's real scalars. */
static g3d_call ctype(g3d_routine r, int dbl, int herm, const void *alpha, const void *beta, double real_alpha,
                      double real_beta)
{
    g3d_call t = { .routine = r, .dbl = dbl, .cplx = 1, .herm = herm, .alpha = real_alpha, .beta = real_beta };
    if (alpha) {
        t.alpha = dbl ? ((const double *)alpha)[0] : ((const float *)alpha)[0];
        t.alpha_im = dbl ? ((const double *)alpha)[1] : ((const float *)alpha)[1];
    }
    if (beta) {
        t.beta = dbl ? ((const double *)beta)[0] : ((const float *)beta)[0];
        t.beta_im = dbl ? ((const double *)beta)[1] : ((const float *)beta)[1];
    }
    return t;
}

void cblas_cgemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE TransA, CBLAS_TRANSPOSE TransB, const int M, const int N,
                 const int K, const void *alpha, const void *A, const int lda, const void *B, const int ldb,
                 const void *beta, void *C, const int ldc)
{
    gemm(ctype(G3D_GEMM, 0, 0, alpha, beta, 0, 0), "cblas_cgemm",
         layout, TransA, TransB, M, N, K, A, lda, B, ldb, C, ldc);
}

void cblas_csymm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo, const int M, const int N,
                 const void *alpha, const void *A, const int lda, const void *B, const int ldb,
                 const void *beta, void *C, const int ldc)
{
    symm(ctype(G3D_SYMM, 0, 0, alpha, beta, 0, 0), "cblas_csymm", layout, Side, Uplo, M, N, A, lda, B, ldb, C, ldc);
}

void cblas_chemm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo, const int M, const int N,
                 const void *alpha, const void *A, const int lda, const void *B, const int ldb,
                 const void *beta, void *C, const int ldc)
{
    symm(ctype(G3D_SYMM, 0, 1, alpha, beta, 0, 0), "cblas_chemm", layout, Side, Uplo, M, N, A, lda, B, ldb, C, ldc);
}

void cblas_csyrk(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans, const int N, const int K,
                 const void *alpha, const void *A, const int lda, const void *beta, void *C, const int ldc)
{
    syrk(ctype(G3D_SYRK, 0, 0, alpha, beta, 0, 0), "cblas_csyrk", layout, Uplo, Trans, N, K, A, lda, NULL, 0, C, ldc);
}

void cblas_cherk(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans, const int N, const int K,
                 const float alpha, const void *A, const int lda, const float beta, void *C, const int ldc)
{
    syrk(ctype(G3D_SYRK, 0, 1, NULL, NULL, alpha, beta), "cblas_cherk",
         layout, Uplo, Trans, N, K, A, lda, NULL, 0, C, ldc);
}

void cblas_csyr2k(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans, const int N, const int K,
                  const void *alpha, const void *A, const int lda, const void *B, const int ldb,
                  const void *beta, void *C, const int ldc)
{
    syrk(ctype(G3D_SYR2K, 0, 0, alpha, beta, 0, 0), "cblas_csyr2k", layout, Uplo, Trans, N, K, A, lda, B, ldb, C, ldc);
}

void cblas_cher2k(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans, const int N, const int K,
                  const void *alpha, const void *A, const int lda, const void *B, const int ldb,
                  const float beta, void *C, const int ldc)
{
    syrk(ctype(G3D_SYR2K, 0, 1, alpha, NULL, 0, beta), "cblas_cher2k",
         layout, Uplo, Trans, N, K, A, lda, B, ldb, C, ldc);
}

void cblas_ctrmm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag,
                 const int M, const int N, const void *alpha, const void *A, const int lda, void *B,
                 const int ldb)
{
    trmm(ctype(G3D_TRMM, 0, 0, alpha, NULL, 0, 0), "cblas_ctrmm",
         layout, Side, Uplo, TransA, Diag, M, N, A, lda, B, ldb);
}

void cblas_zgemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE TransA, CBLAS_TRANSPOSE TransB, const int M, const int N,
                 const int K, const void *alpha, const void *A, const int lda, const void *B, const int ldb,
                 const void *beta, void *C, const int ldc)
{
    gemm(ctype(G3D_GEMM, 1, 0, alpha, beta, 0, 0), "cblas_zgemm",
         layout, TransA, TransB, M, N, K, A, lda, B, ldb, C, ldc);
}

void cblas_zsymm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo, const int M, const int N,
                 const void *alpha, const void *A, const int lda, const void *B, const int ldb,
                 const void *beta, void *C, const int ldc)
{
    symm(ctype(G3D_SYMM, 1, 0, alpha, beta, 0, 0), "cblas_zsymm", layout, Side, Uplo, M, N, A, lda, B, ldb, C, ldc);
}

void cblas_zhemm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo, const int M, const int N,
                 const void *alpha, const void *A, const int lda, const void *B, const int ldb,
                 const void *beta, void *C, const int ldc)
{
    symm(ctype(G3D_SYMM, 1, 1, alpha, beta, 0, 0), "cblas_zhemm", layout, Side, Uplo, M, N, A, lda, B, ldb, C, ldc);
}

void cblas_zsyrk(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans, const int N, const int K,
                 const void *alpha, const void *A, const int lda, const void *beta, void *C, const int ldc)
{
    syrk(ctype(G3D_SYRK, 1, 0, alpha, beta, 0, 0), "cblas_zsyrk", layout, Uplo, Trans, N, K, A, lda, NULL, 0, C, ldc);
}

void cblas_zherk(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans, const int N, const int K,
                 const double alpha, const void *A, const int lda, const double beta, void *C, const int ldc)
{
    syrk(ctype(G3D_SYRK, 1, 1, NULL, NULL, alpha, beta), "cblas_zherk",
         layout, Uplo, Trans, N, K, A, lda, NULL, 0, C, ldc);
}

void cblas_zsyr2k(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans, const int N, const int K,
                  const void *alpha, const void *A, const int lda, const void *B, const int ldb,
                  const void *beta, void *C, const int ldc)
{
    syrk(ctype(G3D_SYR2K, 1, 0, alpha, beta, 0, 0), "cblas_zsyr2k", layout, Uplo, Trans, N, K, A, lda, B, ldb, C, ldc);
}

void cblas_zher2k(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans, const int N, const int K,
                  const void *alpha, const void *A, const int lda, const void *B, const int ldb,
                  const double beta, void *C, const int ldc)
{
    syrk(ctype(G3D_SYR2K, 1, 1, alpha, NULL, 0, beta), "cblas_zher2k",
         layout, Uplo, Trans, N, K, A, lda, B, ldb, C, ldc);
}

void cblas_ztrmm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag,
                 const int M, const int N, const void *alpha, const void *A, const int lda, void *B,
                 const int ldb)
{
    trmm(ctype(G3D_TRMM, 1, 0, alpha, NULL, 0, 0), "cblas_ztrmm",
         layout, Side, Uplo, TransA, Diag, M, N, A, lda, B, ldb);
}

void cblas_ctrsm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag,
                 const int M, const int N, const void *alpha, const void *A, const int lda, void *B,
                 const int ldb)
{
    trmm(ctype(G3D_TRSM, 0, 0, alpha, NULL, 0, 0), "cblas_ctrsm",
         layout, Side, Uplo, TransA, Diag, M, N, A, lda, B, ldb);
}

void cblas_ztrsm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag,
                 const int M, const int N, const void *alpha, const void *A, const int lda, void *B,
                 const int ldb)
{
    trmm(ctype(G3D_TRSM, 1, 0, alpha, NULL, 0, 0), "cblas_ztrsm",
         layout, Side, Uplo, TransA, Diag, M, N, A, lda, B, ldb);
}

/* The CBLAS drop-ins (cblas_sgemm ... cblas_dtrmm, cblas_strsm, cblas_dtrsm), as reference CBLAS
 * builds them: the layout and the enums are checked here (the layout is
 * argument 1), a row-major call becomes the column-major call on the
 * transposes, and that call's checks report through cblas_xerbla with
 * their Fortran position plus one, so a row-major call's size and leading
 * dimension errors carry their column-major positions, as in reference
 * CBLAS. */
#include "gpublas3.h"
#include "gpublas3_blas.h"
#include "dropin.h"

static void report(int row, int pos, const char *rout, const char *form, int value)
{
    g3d_cblas_rowmajor = row;
    cblas_xerbla(pos, rout, form, value);
    g3d_cblas_rowmajor = 0;
}

static void run(g3d_call *c, int row, const char *rout)
{
    int info = g3d_check(c);
    if (info)
        report(row, info + 1, rout, "", 0);
    else
        g3d_run(c);
}

/* The Fortran letter of an enum value, 0 if the value is not one of them. */
static char trans_letter(int t)
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

/* Checks the layout; returns 1 for row-major, 0 for column-major, -1 (and
 * reports) for anything else. */
static int layout_of(int layout, const char *rout)
{
    if (layout == CblasRowMajor || layout == CblasColMajor)
        return layout == CblasRowMajor;
    report(0, 1, rout, "Illegal layout setting, %d\n", layout);
    return -1;
}

static void gemm(int dbl, const char *rout, int layout, int ta, int tb, int M, int N, int K, double alpha,
                 const void *A, int lda, const void *B, int ldb, double beta, void *C, int ldc)
{
    int row = layout_of(layout, rout);
    if (row < 0) return;
    char a = trans_letter(ta), b = trans_letter(tb);
    if (!a) { report(row, 2, rout, "Illegal TransA setting, %d\n", ta); return; }
    if (!b) { report(row, 3, rout, "Illegal TransB setting, %d\n", tb); return; }
    /* Row-major: C^T = op(B)^T op(A)^T. */
    g3d_call c = row ? (g3d_call){ .routine = G3D_GEMM, .dbl = dbl, .trans = b, .transb = a, .m = N, .n = M,
                                   .k = K, .alpha = alpha, .beta = beta, .a = B, .lda = ldb, .b = A,
                                   .ldb = lda, .c = C, .ldc = ldc }
                     : (g3d_call){ .routine = G3D_GEMM, .dbl = dbl, .trans = a, .transb = b, .m = M, .n = N,
                                   .k = K, .alpha = alpha, .beta = beta, .a = A, .lda = lda, .b = B,
                                   .ldb = ldb, .c = C, .ldc = ldc };
    run(&c, row, rout);
}

static void symm(int dbl, const char *rout, int layout, int side, int uplo, int M, int N, double alpha,
                 const void *A, int lda, const void *B, int ldb, double beta, void *C, int ldc)
{
    int row = layout_of(layout, rout);
    if (row < 0) return;
    char s = side_letter(side, row), u = uplo_letter(uplo, row);
    if (!s) { report(row, 2, rout, "Illegal Side setting, %d\n", side); return; }
    if (!u) { report(row, 3, rout, "Illegal Uplo setting, %d\n", uplo); return; }
    g3d_call c = { .routine = G3D_SYMM, .dbl = dbl, .side = s, .uplo = u, .m = row ? N : M, .n = row ? M : N,
                   .alpha = alpha, .beta = beta, .a = A, .lda = lda, .b = B, .ldb = ldb, .c = C, .ldc = ldc };
    run(&c, row, rout);
}

/* SYRK and SYR2K (B == NULL for SYRK): row-major flips the triangle and
 * the transpose, ConjTrans going to 'N' as for Trans. */
static void syrk(g3d_routine r, int dbl, const char *rout, int layout, int uplo, int trans, int N, int K,
                 double alpha, const void *A, int lda, const void *B, int ldb, double beta, void *C, int ldc)
{
    int row = layout_of(layout, rout);
    if (row < 0) return;
    char u = uplo_letter(uplo, row), t = trans_letter(trans);
    if (!u) { report(row, 2, rout, "Illegal Uplo setting, %d\n", uplo); return; }
    if (!t) { report(row, 3, rout, "Illegal Trans setting, %d\n", trans); return; }
    if (row)
        t = t == 'N' ? 'T' : 'N';
    g3d_call c = { .routine = r, .dbl = dbl, .uplo = u, .trans = t, .n = N, .k = K, .alpha = alpha,
                   .beta = beta, .a = A, .lda = lda, .b = B, .ldb = ldb, .c = C, .ldc = ldc };
    run(&c, row, rout);
}

/* TRMM and TRSM (the same arguments) */
static void trmm(g3d_routine r, int dbl, const char *rout, int layout, int side, int uplo, int ta, int diag, int M, int N,
                 double alpha, const void *A, int lda, void *B, int ldb)
{
    int row = layout_of(layout, rout);
    if (row < 0) return;
    char s = side_letter(side, row), u = uplo_letter(uplo, row), t = trans_letter(ta);
    char d = diag == CblasUnit ? 'U' : diag == CblasNonUnit ? 'N' : 0;
    if (!s) { report(row, 2, rout, "Illegal Side setting, %d\n", side); return; }
    if (!u) { report(row, 3, rout, "Illegal Uplo setting, %d\n", uplo); return; }
    if (!t) { report(row, 4, rout, "Illegal Trans setting, %d\n", ta); return; }
    if (!d) { report(row, 5, rout, "Illegal Diag setting, %d\n", diag); return; }
    g3d_call c = { .routine = r, .dbl = dbl, .side = s, .uplo = u, .trans = t, .diag = d,
                   .m = row ? N : M, .n = row ? M : N, .alpha = alpha, .a = A, .lda = lda, .c = B, .ldc = ldb };
    run(&c, row, rout);
}

void cblas_sgemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE TransA, CBLAS_TRANSPOSE TransB, const int M, const int N,
                 const int K, const float alpha, const float *A, const int lda, const float *B, const int ldb,
                 const float beta, float *C, const int ldc)
{
    gemm(0, "cblas_sgemm", layout, TransA, TransB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void cblas_dgemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE TransA, CBLAS_TRANSPOSE TransB, const int M, const int N,
                 const int K, const double alpha, const double *A, const int lda, const double *B, const int ldb,
                 const double beta, double *C, const int ldc)
{
    gemm(1, "cblas_dgemm", layout, TransA, TransB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void cblas_ssymm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo, const int M, const int N,
                 const float alpha, const float *A, const int lda, const float *B, const int ldb,
                 const float beta, float *C, const int ldc)
{
    symm(0, "cblas_ssymm", layout, Side, Uplo, M, N, alpha, A, lda, B, ldb, beta, C, ldc);
}

void cblas_dsymm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo, const int M, const int N,
                 const double alpha, const double *A, const int lda, const double *B, const int ldb,
                 const double beta, double *C, const int ldc)
{
    symm(1, "cblas_dsymm", layout, Side, Uplo, M, N, alpha, A, lda, B, ldb, beta, C, ldc);
}

void cblas_ssyrk(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans, const int N, const int K,
                 const float alpha, const float *A, const int lda, const float beta, float *C, const int ldc)
{
    syrk(G3D_SYRK, 0, "cblas_ssyrk", layout, Uplo, Trans, N, K, alpha, A, lda, NULL, 0, beta, C, ldc);
}

void cblas_dsyrk(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans, const int N, const int K,
                 const double alpha, const double *A, const int lda, const double beta, double *C, const int ldc)
{
    syrk(G3D_SYRK, 1, "cblas_dsyrk", layout, Uplo, Trans, N, K, alpha, A, lda, NULL, 0, beta, C, ldc);
}

void cblas_ssyr2k(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans, const int N, const int K,
                  const float alpha, const float *A, const int lda, const float *B, const int ldb,
                  const float beta, float *C, const int ldc)
{
    syrk(G3D_SYR2K, 0, "cblas_ssyr2k", layout, Uplo, Trans, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void cblas_dsyr2k(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans, const int N, const int K,
                  const double alpha, const double *A, const int lda, const double *B, const int ldb,
                  const double beta, double *C, const int ldc)
{
    syrk(G3D_SYR2K, 1, "cblas_dsyr2k", layout, Uplo, Trans, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void cblas_strmm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag,
                 const int M, const int N, const float alpha, const float *A, const int lda, float *B,
                 const int ldb)
{
    trmm(G3D_TRMM, 0, "cblas_strmm", layout, Side, Uplo, TransA, Diag, M, N, alpha, A, lda, B, ldb);
}

void cblas_dtrmm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag,
                 const int M, const int N, const double alpha, const double *A, const int lda, double *B,
                 const int ldb)
{
    trmm(G3D_TRMM, 1, "cblas_dtrmm", layout, Side, Uplo, TransA, Diag, M, N, alpha, A, lda, B, ldb);
}

void cblas_strsm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag,
                 const int M, const int N, const float alpha, const float *A, const int lda, float *B,
                 const int ldb)
{
    trmm(G3D_TRSM, 0, "cblas_strsm", layout, Side, Uplo, TransA, Diag, M, N, alpha, A, lda, B, ldb);
}

void cblas_dtrsm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag,
                 const int M, const int N, const double alpha, const double *A, const int lda, double *B,
                 const int ldb)
{
    trmm(G3D_TRSM, 1, "cblas_dtrsm", layout, Side, Uplo, TransA, Diag, M, N, alpha, A, lda, B, ldb);
}

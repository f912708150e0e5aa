/* SPDX-License-Identifier: BSD-3-Clause */
/* The host drop-in tests' shared case: filling, calling through the
 * Fortran or CBLAS names, judging (see dropin_test.h). */
#include "dropin_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gpublas3_blas.h"

static int index_of(char which) { return which == 'A' ? 0 : which == 'B' ? 1 : 2; }

/* Real number k of an array (complex elements are two). */
static void put(const spec_case *c, void *p, size_t k, double v)
{
    if (c->dbl) ((double *)p)[k] = v;
    else ((float *)p)[k] = (float)v;
}
static size_t reals(const spec_case *c) { return c->cplx ? 2 : 1; }

void dcase_init(dcase *d, const spec_case *c, unsigned seed)
{
    memset(d, 0, sizeof *d);
    d->c = *c;
    spec_complete(&d->c);
    size_t es = spec_elem_size(&d->c);
    srand(seed);
    for (const char *w = "ABC"; *w; w++) {
        int i = index_of(*w);
        if (!spec_uses(&d->c, *w))
            continue;
        d->n[i] = spec_elements(&d->c, *w) + DCASE_TAIL;
        d->before[i] = malloc(d->n[i] * es);
        d->work[i] = malloc(d->n[i] * es);
        if (!d->before[i] || !d->work[i]) abort();
        for (size_t k = 0; k < d->n[i] * reals(&d->c); k++)
            put(&d->c, d->before[i], k, 2.0 * rand() / RAND_MAX - 1.0);
        size_t r, q;
        spec_dims(&d->c, *w, &r, &q);
        /* Never read: C when beta = 0; the inputs when alpha = 0. */
        int is_out = *w == spec_output(&d->c);
        int poison = is_out ? *w == 'C' && d->c.beta == 0 && d->c.beta_im == 0
                            : d->c.alpha == 0 && d->c.alpha_im == 0;
        size_t nr = reals(&d->c);
        for (size_t col = 0; col < q; col++)
            for (size_t row = 0; row < r; row++) {
                int ref = spec_referenced(&d->c, *w, row, col);
                size_t x = spec_index(&d->c, *w, row, col) * nr;
                if ((*w == 'A' && !ref) || (poison && ref))
                    for (size_t t = 0; t < nr; t++)
                        put(&d->c, d->before[i], x + t, NAN);
                else if (spec_imag_unread(&d->c, *w, row, col)) /* Hermitian diagonals */
                    put(&d->c, d->before[i], x + 1, NAN);
            }
        if (*w == 'A') spec_condition(&d->c, d->before[i]);
        memcpy(d->work[i], d->before[i], d->n[i] * es);
    }
}

void dcase_free(dcase *d)
{
    for (int i = 0; i < 3; i++) {
        free(d->before[i]);
        free(d->work[i]);
    }
}

static char letter(char upper, int lower) { return lower ? (char)(upper - 'A' + 'a') : upper; }
static char trans_letter(gpublas3Transpose t, int lower)
{
    return letter(t == gpublas3NoTrans ? 'N' : t == gpublas3Trans ? 'T' : 'C', lower);
}

void dcase_fortran(dcase *d, int lower)
{
    const spec_case *c = &d->c;
    char ta = trans_letter(c->transA, lower), tb = trans_letter(c->transB, lower);
    char side = letter(c->side == gpublas3Left ? 'L' : 'R', lower);
    char uplo = letter(c->uplo == gpublas3Upper ? 'U' : 'L', lower);
    char diag = letter(c->diag == gpublas3Unit ? 'U' : 'N', lower);
    int m = (int)c->M, n = (int)c->N, k = (int)c->K, lda = (int)c->lda, ldb = (int)c->ldb, ldc = (int)c->ldc;
    void *A = d->work[0], *B = d->work[1], *C = d->work[2];
    if (c->dbl) {
        double al = c->alpha, be = c->beta;
        switch (c->routine) {
        case SPEC_GEMM: dgemm_(&ta, &tb, &m, &n, &k, &al, A, &lda, B, &ldb, &be, C, &ldc); break;
        case SPEC_SYMM: dsymm_(&side, &uplo, &m, &n, &al, A, &lda, B, &ldb, &be, C, &ldc); break;
        case SPEC_SYRK: dsyrk_(&uplo, &ta, &n, &k, &al, A, &lda, &be, C, &ldc); break;
        case SPEC_SYR2K: dsyr2k_(&uplo, &ta, &n, &k, &al, A, &lda, B, &ldb, &be, C, &ldc); break;
        case SPEC_TRMM: dtrmm_(&side, &uplo, &ta, &diag, &m, &n, &al, A, &lda, B, &ldb); break;
        case SPEC_TRSM: dtrsm_(&side, &uplo, &ta, &diag, &m, &n, &al, A, &lda, B, &ldb); break;
        default: break;
        }
    } else {
        float al = (float)c->alpha, be = (float)c->beta;
        switch (c->routine) {
        case SPEC_GEMM: sgemm_(&ta, &tb, &m, &n, &k, &al, A, &lda, B, &ldb, &be, C, &ldc); break;
        case SPEC_SYMM: ssymm_(&side, &uplo, &m, &n, &al, A, &lda, B, &ldb, &be, C, &ldc); break;
        case SPEC_SYRK: ssyrk_(&uplo, &ta, &n, &k, &al, A, &lda, &be, C, &ldc); break;
        case SPEC_SYR2K: ssyr2k_(&uplo, &ta, &n, &k, &al, A, &lda, B, &ldb, &be, C, &ldc); break;
        case SPEC_TRMM: strmm_(&side, &uplo, &ta, &diag, &m, &n, &al, A, &lda, B, &ldb); break;
        case SPEC_TRSM: strsm_(&side, &uplo, &ta, &diag, &m, &n, &al, A, &lda, B, &ldb); break;
        default: break;
        }
    }
}

static CBLAS_TRANSPOSE cb_trans(gpublas3Transpose t)
{
    return t == gpublas3NoTrans ? CblasNoTrans : t == gpublas3Trans ? CblasTrans : CblasConjTrans;
}

/* Complex: scalars by pointer, HERK's and HER2K's real ones by value. */
static void cblas_complex(const dcase *d, CBLAS_LAYOUT o, CBLAS_SIDE s, CBLAS_UPLO u, CBLAS_DIAG g,
                          CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb)
{
    const spec_case *c = &d->c;
    int m = (int)c->M, n = (int)c->N, k = (int)c->K, lda = (int)c->lda, ldb = (int)c->ldb, ldc = (int)c->ldc;
    void *A = d->work[0], *B = d->work[1], *C = d->work[2];
    double za[2] = { c->alpha, c->alpha_im }, zb[2] = { c->beta, c->beta_im };
    float ca[2] = { (float)za[0], (float)za[1] }, cb[2] = { (float)zb[0], (float)zb[1] };
    if (c->dbl) {
        switch (c->routine) {
        case SPEC_GEMM: cblas_zgemm(o, ta, tb, m, n, k, za, A, lda, B, ldb, zb, C, ldc); break;
        case SPEC_SYMM: cblas_zsymm(o, s, u, m, n, za, A, lda, B, ldb, zb, C, ldc); break;
        case SPEC_HEMM: cblas_zhemm(o, s, u, m, n, za, A, lda, B, ldb, zb, C, ldc); break;
        case SPEC_SYRK: cblas_zsyrk(o, u, ta, n, k, za, A, lda, zb, C, ldc); break;
        case SPEC_HERK: cblas_zherk(o, u, ta, n, k, za[0], A, lda, zb[0], C, ldc); break;
        case SPEC_SYR2K: cblas_zsyr2k(o, u, ta, n, k, za, A, lda, B, ldb, zb, C, ldc); break;
        case SPEC_HER2K: cblas_zher2k(o, u, ta, n, k, za, A, lda, B, ldb, zb[0], C, ldc); break;
        case SPEC_TRMM: cblas_ztrmm(o, s, u, ta, g, m, n, za, A, lda, B, ldb); break;
        case SPEC_TRSM: cblas_ztrsm(o, s, u, ta, g, m, n, za, A, lda, B, ldb); break;
        default: break;
        }
        return;
    }
    switch (c->routine) {
    case SPEC_GEMM: cblas_cgemm(o, ta, tb, m, n, k, ca, A, lda, B, ldb, cb, C, ldc); break;
    case SPEC_SYMM: cblas_csymm(o, s, u, m, n, ca, A, lda, B, ldb, cb, C, ldc); break;
    case SPEC_HEMM: cblas_chemm(o, s, u, m, n, ca, A, lda, B, ldb, cb, C, ldc); break;
    case SPEC_SYRK: cblas_csyrk(o, u, ta, n, k, ca, A, lda, cb, C, ldc); break;
    case SPEC_HERK: cblas_cherk(o, u, ta, n, k, ca[0], A, lda, cb[0], C, ldc); break;
    case SPEC_SYR2K: cblas_csyr2k(o, u, ta, n, k, ca, A, lda, B, ldb, cb, C, ldc); break;
    case SPEC_HER2K: cblas_cher2k(o, u, ta, n, k, ca, A, lda, B, ldb, cb[0], C, ldc); break;
    case SPEC_TRMM: cblas_ctrmm(o, s, u, ta, g, m, n, ca, A, lda, B, ldb); break;
    case SPEC_TRSM: cblas_ctrsm(o, s, u, ta, g, m, n, ca, A, lda, B, ldb); break;
    default: break;
    }
}

void dcase_cblas(dcase *d)
{
    const spec_case *c = &d->c;
    CBLAS_LAYOUT o = c->order == gpublas3RowMajor ? CblasRowMajor : CblasColMajor;
    CBLAS_SIDE s = c->side == gpublas3Left ? CblasLeft : CblasRight;
    CBLAS_UPLO u = c->uplo == gpublas3Upper ? CblasUpper : CblasLower;
    CBLAS_DIAG g = c->diag == gpublas3Unit ? CblasUnit : CblasNonUnit;
    CBLAS_TRANSPOSE ta = cb_trans(c->transA), tb = cb_trans(c->transB);
    if (c->cplx) {
        cblas_complex(d, o, s, u, g, ta, tb);
        return;
    }
    int m = (int)c->M, n = (int)c->N, k = (int)c->K, lda = (int)c->lda, ldb = (int)c->ldb, ldc = (int)c->ldc;
    void *A = d->work[0], *B = d->work[1], *C = d->work[2];
    if (c->dbl) {
        double al = c->alpha, be = c->beta;
        switch (c->routine) {
        case SPEC_GEMM: cblas_dgemm(o, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc); break;
        case SPEC_SYMM: cblas_dsymm(o, s, u, m, n, al, A, lda, B, ldb, be, C, ldc); break;
        case SPEC_SYRK: cblas_dsyrk(o, u, ta, n, k, al, A, lda, be, C, ldc); break;
        case SPEC_SYR2K: cblas_dsyr2k(o, u, ta, n, k, al, A, lda, B, ldb, be, C, ldc); break;
        case SPEC_TRMM: cblas_dtrmm(o, s, u, ta, g, m, n, al, A, lda, B, ldb); break;
        case SPEC_TRSM: cblas_dtrsm(o, s, u, ta, g, m, n, al, A, lda, B, ldb); break;
        default: break;
        }
    } else {
        float al = (float)c->alpha, be = (float)c->beta;
        switch (c->routine) {
        case SPEC_GEMM: cblas_sgemm(o, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc); break;
        case SPEC_SYMM: cblas_ssymm(o, s, u, m, n, al, A, lda, B, ldb, be, C, ldc); break;
        case SPEC_SYRK: cblas_ssyrk(o, u, ta, n, k, al, A, lda, be, C, ldc); break;
        case SPEC_SYR2K: cblas_ssyr2k(o, u, ta, n, k, al, A, lda, B, ldb, be, C, ldc); break;
        case SPEC_TRMM: cblas_strmm(o, s, u, ta, g, m, n, al, A, lda, B, ldb); break;
        case SPEC_TRSM: cblas_strsm(o, s, u, ta, g, m, n, al, A, lda, B, ldb); break;
        default: break;
        }
    }
}

size_t dcase_check(const dcase *d, char *msg, size_t n)
{
    const spec_case *c = &d->c;
    int o = index_of(spec_output(c));
    size_t es = spec_elem_size(c);
    for (int i = 0; i < 3; i++)
        if (i != o && d->n[i] && memcmp(d->before[i], d->work[i], d->n[i] * es) != 0) {
            snprintf(msg, n, "input %c was written", "ABC"[i]);
            return 1;
        }
    void *ref = malloc(d->n[o] * es);
    if (!ref) abort();
    memcpy(ref, d->before[o], d->n[o] * es);
    spec_reference(c, d->before[0], d->before[1], ref);
    size_t bad = spec_check_n(c, d->before[0], d->before[1], d->before[o], d->work[o], ref, d->n[o], msg, n);
    free(ref);
    return bad;
}

int dcase_run(const spec_case *c, int cblas, int lower, unsigned seed)
{
    dcase d;
    char msg[256], desc[256];
    dcase_init(&d, c, seed);
    if (cblas) dcase_cblas(&d);
    else dcase_fortran(&d, lower);
    size_t bad = dcase_check(&d, msg, sizeof msg);
    if (bad) {
        spec_describe(&d.c, desc, sizeof desc);
        fprintf(stderr, "FAIL %s %s: %zu bad elements; first: %s\n", cblas ? "cblas" : "fortran", desc, bad, msg);
    }
    dcase_free(&d);
    return bad != 0;
}

static FILE *captured;
static int saved_stderr = -1;

int stderr_capture(void)
{
    fflush(stderr);
    if (!(captured = tmpfile()) || (saved_stderr = dup(2)) < 0 || dup2(fileno(captured), 2) < 0) {
        perror("redirecting stderr");
        return -1;
    }
    return 0;
}

int stderr_release(char *text, size_t n)
{
    fflush(stderr);
    if (saved_stderr < 0 || dup2(saved_stderr, 2) < 0) {
        perror("restoring stderr");
        return -1;
    }
    rewind(captured);
    size_t len = fread(text, 1, n - 1, captured);
    text[len] = 0;
    fputs(text, stderr);
    fclose(captured);
    close(saved_stderr);
    saved_stderr = -1;
    return 0;
}

int text_count(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

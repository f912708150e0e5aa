/* SPDX-License-Identifier: BSD-3-Clause */
/* The one description of each routine that tests and benchmark share (see
 * spec.h): operand shapes and extents, the gpublas3 call, the OpenBLAS
 * reference and the judgement of a result.
 *
 * OpenBLAS is reached through dlopen/dlsym with RTLD_DEEPBIND: gpublas3
 * exports cblas_* and sgemm_-style drop-ins itself, so linking OpenBLAS (or
 * letting its internal calls bind to the first global definition) could make
 * the "reference" call our own code.  The CBLAS enum values are spelled out
 * here for the same reason: no OpenBLAS header meets gpublas3's. */
#define _GNU_SOURCE
#include "spec.h"

#include <ctype.h>
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Tolerance multiplier: the reference and gpublas3 each make at most
 * (K_eff+2) roundings per element, in whatever order they sum. */
#define SPEC_GAMMA 3.0

enum { CB_ROW = 101, CB_COL = 102, CB_NOTRANS = 111, CB_TRANS = 112, CB_CONJTRANS = 113,
       CB_UPPER = 121, CB_LOWER = 122, CB_NONUNIT = 131, CB_UNIT = 132,
       CB_LEFT = 141, CB_RIGHT = 142 };

static const char *const names[SPEC_NALL] = { [SPEC_GEMM] = "gemm", [SPEC_SYMM] = "symm", [SPEC_SYRK] = "syrk",
                                               [SPEC_SYR2K] = "syr2k", [SPEC_TRMM] = "trmm", [SPEC_TRSM] = "trsm",
                                               [SPEC_HEMM] = "hemm", [SPEC_HERK] = "herk", [SPEC_HER2K] = "her2k" };

/* The Hermitian routines have the shapes and structure of their symmetric twins. */
static spec_routine base(spec_routine r)
{
    return r == SPEC_HEMM ? SPEC_SYMM : r == SPEC_HERK ? SPEC_SYRK : r == SPEC_HER2K ? SPEC_SYR2K : r;
}
/* Real numbers per element. */
static size_t ncomp(const spec_case *c) { return c->cplx ? 2 : 1; }

const char *spec_routine_name(spec_routine r)
{
    return (unsigned)r < SPEC_NALL && names[r] ? names[r] : "?";
}

int spec_parse_routine(const char *name)
{
    for (int r = 0; r < SPEC_NALL; r++) {
        const char *a = names[r], *b = name;
        if (!a) continue;
        while (*a && tolower((unsigned char)*b) == *a) a++, b++;
        if (!*a && !*b) return r;
    }
    return -1;
}

static int is_trans(gpublas3Transpose t) { return t != gpublas3NoTrans; }
/* TRMM and TRSM: A triangular, B the output */
static int triangular(const spec_case *c) { return c->routine == SPEC_TRMM || c->routine == SPEC_TRSM; }

int spec_uses(const spec_case *c, char which)
{
    switch (which) {
    case 'A': return 1;
    case 'B': return base(c->routine) != SPEC_SYRK;
    case 'C': return !triangular(c);
    default: return 0;
    }
}

char spec_output(const spec_case *c) { return triangular(c) ? 'B' : 'C'; }

size_t spec_elem_size(const spec_case *c) { return (c->dbl ? 8 : 4) * ncomp(c); }

char spec_precision(const spec_case *c) { return "sdcz"[!!c->dbl + 2 * !!c->cplx]; }

/* Order of the square A of SYMM, TRMM and TRSM. */
static size_t side_dim(const spec_case *c) { return c->side == gpublas3Left ? c->M : c->N; }

void spec_dims(const spec_case *c, char which, size_t *rows, size_t *cols)
{
    size_t r = 0, k = 0;
    switch (base(c->routine)) {
    case SPEC_GEMM:
        if (which == 'A') { r = c->M; k = c->K; if (is_trans(c->transA)) { r = c->K; k = c->M; } }
        if (which == 'B') { r = c->K; k = c->N; if (is_trans(c->transB)) { r = c->N; k = c->K; } }
        if (which == 'C') { r = c->M; k = c->N; }
        break;
    case SPEC_SYMM:
    case SPEC_TRMM:
    case SPEC_TRSM:
        if (which == 'A') r = k = side_dim(c);
        if (which == 'B' || (which == 'C' && base(c->routine) == SPEC_SYMM)) { r = c->M; k = c->N; }
        break;
    case SPEC_SYRK:
    case SPEC_SYR2K:
        if (which == 'A' || (which == 'B' && base(c->routine) == SPEC_SYR2K)) {
            r = c->N; k = c->K;
            if (is_trans(c->transA)) { r = c->K; k = c->N; }
        }
        if (which == 'C') r = k = c->N;
        break;
    default:
        break;
    }
    *rows = r;
    *cols = k;
}

static size_t *ld_of(spec_case *c, char which)
{
    return which == 'A' ? &c->lda : which == 'B' ? &c->ldb : &c->ldc;
}
static size_t ld_get(const spec_case *c, char which) { return *ld_of((spec_case *)c, which); }
static size_t off_get(const spec_case *c, char which)
{
    return which == 'A' ? c->offA : which == 'B' ? c->offB : c->offC;
}

/* Lines are columns in column-major storage and rows in row-major; the
 * leading dimension is the distance between lines. */
static void lines_of(const spec_case *c, char which, size_t *nlines, size_t *linelen)
{
    size_t r, k;
    spec_dims(c, which, &r, &k);
    if (c->order == gpublas3RowMajor) { *nlines = r; *linelen = k; }
    else { *nlines = k; *linelen = r; }
}

void spec_complete(spec_case *c)
{
    for (const char *w = "ABC"; *w; w++) {
        size_t nlines, linelen;
        if (!spec_uses(c, *w) || *ld_of(c, *w)) continue;
        lines_of(c, *w, &nlines, &linelen);
        *ld_of(c, *w) = linelen ? linelen : 1;
    }
}

size_t spec_batch_stride(const spec_case *c, char which)
{
    size_t nlines, linelen;
    lines_of(c, which, &nlines, &linelen);
    return nlines * ld_get(c, which);
}

size_t spec_elements(const spec_case *c, char which)
{
    size_t nlines, linelen;
    if (!spec_uses(c, which)) return 0;
    lines_of(c, which, &nlines, &linelen);
    if (!nlines || !linelen) return off_get(c, which);
    size_t more = c->batch > 1 ? (c->batch - 1) * spec_batch_stride(c, which) : 0;
    return off_get(c, which) + more + (nlines - 1) * ld_get(c, which) + linelen;
}

size_t spec_index(const spec_case *c, char which, size_t i, size_t j)
{
    size_t ld = ld_get(c, which);
    return off_get(c, which) + (c->order == gpublas3RowMajor ? i * ld + j : i + j * ld);
}

int spec_referenced(const spec_case *c, char which, size_t i, size_t j)
{
    size_t r, k;
    spec_dims(c, which, &r, &k);
    if (i >= r || j >= k || !spec_uses(c, which)) return 0;
    int in_upper = i <= j, in_lower = i >= j;
    int in_uplo = c->uplo == gpublas3Upper ? in_upper : in_lower;
    switch (base(c->routine)) {
    case SPEC_SYMM: return which != 'A' || in_uplo;
    case SPEC_TRMM:
    case SPEC_TRSM: return which != 'A' || (in_uplo && (i != j || c->diag == gpublas3NonUnit));
    case SPEC_SYRK:
    case SPEC_SYR2K: return which != 'C' || in_uplo;
    default: return 1;
    }
}

static double alpha_im(const spec_case *c);

/* HERK and HER2K return at once, touching nothing, when alpha = 0 or K = 0
 * and beta = 1 (reference BLAS): then C's diagonal keeps its imaginary part. */
int spec_imag_unread(const spec_case *c, char which, size_t i, size_t j)
{
    int r = c->routine;
    int quick = (c->K == 0 || (c->alpha == 0 && alpha_im(c) == 0)) && c->beta == 1;
    return i == j && spec_referenced(c, which, i, j) &&
           ((r == SPEC_HEMM && which == 'A') || ((r == SPEC_HERK || r == SPEC_HER2K) && which == 'C' && !quick));
}

/* Complex: four real multiply-adds per complex one (8mnk for GEMM). */
double spec_flops(const spec_case *c)
{
    double m = (double)c->M, n = (double)c->N, k = (double)c->K, x = c->cplx ? 4 : 1;
    if (c->batch > 1)
        x *= (double)c->batch;
    switch (base(c->routine)) {
    case SPEC_GEMM: return x * 2 * m * n * k;
    case SPEC_SYMM: return x * 2 * m * n * (double)side_dim(c);
    case SPEC_SYRK: return x * n * (n + 1) * k;
    case SPEC_SYR2K: return x * 2 * n * (n + 1) * k;
    case SPEC_TRMM:
    case SPEC_TRSM: return x * m * n * (double)side_dim(c);
    default: return 0;
    }
}

static const char *trans_name(gpublas3Transpose t)
{
    return t == gpublas3NoTrans ? "N" : t == gpublas3Trans ? "T" : t == gpublas3ConjTrans ? "C" : "?";
}

void spec_describe(const spec_case *c, char *buf, size_t n)
{
    char opts[64] = "";
    const char *side = c->side == gpublas3Left ? "L" : c->side == gpublas3Right ? "R" : "?";
    const char *uplo = c->uplo == gpublas3Upper ? "U" : c->uplo == gpublas3Lower ? "L" : "?";
    switch (base(c->routine)) {
    case SPEC_GEMM: snprintf(opts, sizeof opts, "%s%s", trans_name(c->transA), trans_name(c->transB)); break;
    case SPEC_SYMM: snprintf(opts, sizeof opts, "side=%s uplo=%s", side, uplo); break;
    case SPEC_SYRK:
    case SPEC_SYR2K: snprintf(opts, sizeof opts, "uplo=%s trans=%s", uplo, trans_name(c->transA)); break;
    case SPEC_TRMM:
    case SPEC_TRSM:
        snprintf(opts, sizeof opts, "side=%s uplo=%s trans=%s diag=%s", side, uplo,
                 trans_name(c->transA), c->diag == gpublas3Unit ? "U" : "N");
        break;
    default: break;
    }
    char scal[96];
    if (c->cplx)
        snprintf(scal, sizeof scal, "alpha=%g%+gi beta=%g%+gi", c->alpha, c->alpha_im, c->beta, c->beta_im);
    else
        snprintf(scal, sizeof scal, "alpha=%g beta=%g", c->alpha, c->beta);
    int used = snprintf(buf, n, "%c%s %s %s M=%zu N=%zu K=%zu %s off=%zu/%zu/%zu ld=%zu/%zu/%zu",
                        spec_precision(c), spec_routine_name(c->routine),
                        c->order == gpublas3RowMajor ? "row" : "col", opts, c->M, c->N, c->K,
                        scal, c->offA, c->offB, c->offC, c->lda, c->ldb, c->ldc);
    if (c->batch > 1 && used >= 0 && (size_t)used < n)
        snprintf(buf + used, n - used, " batch=%zu", c->batch);
}

gpublas3Status spec_run(const spec_case *c, cl_command_queue q, cl_mem A, cl_mem B, cl_mem C,
                        cl_uint nwait, const cl_event *wait, cl_event *event)
{
    cl_command_queue qs[1] = { q };
    return spec_run_queues(c, 1, qs, A, B, C, nwait, wait, event);
}

static gpublas3Status run_complex(const spec_case *c, cl_uint nqueues, cl_command_queue *qs,
                                  cl_mem A, cl_mem B, cl_mem C,
                                  cl_uint nwait, const cl_event *wait, cl_event *event)
{
#define TAIL nqueues, qs, nwait, wait, event
#define ARGS_A A, c->offA, c->lda
#define ARGS_B B, c->offB, c->ldb
#define ARGS_C C, c->offC, c->ldc
    if (!c->dbl) {
        cl_float2 al = { { (cl_float)c->alpha, (cl_float)c->alpha_im } };
        cl_float2 be = { { (cl_float)c->beta, (cl_float)c->beta_im } };
        cl_float ra = (cl_float)c->alpha, rb = (cl_float)c->beta;
        switch (c->routine) {
        case SPEC_GEMM: return gpublas3Cgemm(c->order, c->transA, c->transB, c->M, c->N, c->K, al, ARGS_A, ARGS_B,
                                             be, ARGS_C, TAIL);
        case SPEC_SYMM: return gpublas3Csymm(c->order, c->side, c->uplo, c->M, c->N, al, ARGS_A, ARGS_B, be, ARGS_C,
                                             TAIL);
        case SPEC_HEMM: return gpublas3Chemm(c->order, c->side, c->uplo, c->M, c->N, al, ARGS_A, ARGS_B, be, ARGS_C,
                                             TAIL);
        case SPEC_SYRK: return gpublas3Csyrk(c->order, c->uplo, c->transA, c->N, c->K, al, ARGS_A, be, ARGS_C, TAIL);
        case SPEC_HERK: return gpublas3Cherk(c->order, c->uplo, c->transA, c->N, c->K, ra, ARGS_A, rb, ARGS_C, TAIL);
        case SPEC_SYR2K: return gpublas3Csyr2k(c->order, c->uplo, c->transA, c->N, c->K, al, ARGS_A, ARGS_B, be,
                                               ARGS_C, TAIL);
        case SPEC_HER2K: return gpublas3Cher2k(c->order, c->uplo, c->transA, c->N, c->K, al, ARGS_A, ARGS_B, rb,
                                               ARGS_C, TAIL);
        case SPEC_TRMM: return gpublas3Ctrmm(c->order, c->side, c->uplo, c->transA, c->diag, c->M, c->N, al,
                                             ARGS_A, ARGS_B, TAIL);
        case SPEC_TRSM: return gpublas3Ctrsm(c->order, c->side, c->uplo, c->transA, c->diag, c->M, c->N, al,
                                             ARGS_A, ARGS_B, TAIL);
        default: return gpublas3NotImplemented;
        }
    }
    cl_double2 al = { { c->alpha, c->alpha_im } }, be = { { c->beta, c->beta_im } };
    switch (c->routine) {
    case SPEC_GEMM: return gpublas3Zgemm(c->order, c->transA, c->transB, c->M, c->N, c->K, al, ARGS_A, ARGS_B,
                                         be, ARGS_C, TAIL);
    case SPEC_SYMM: return gpublas3Zsymm(c->order, c->side, c->uplo, c->M, c->N, al, ARGS_A, ARGS_B, be, ARGS_C,
                                         TAIL);
    case SPEC_HEMM: return gpublas3Zhemm(c->order, c->side, c->uplo, c->M, c->N, al, ARGS_A, ARGS_B, be, ARGS_C,
                                         TAIL);
    case SPEC_SYRK: return gpublas3Zsyrk(c->order, c->uplo, c->transA, c->N, c->K, al, ARGS_A, be, ARGS_C, TAIL);
    case SPEC_HERK: return gpublas3Zherk(c->order, c->uplo, c->transA, c->N, c->K, c->alpha, ARGS_A, c->beta,
                                         ARGS_C, TAIL);
    case SPEC_SYR2K: return gpublas3Zsyr2k(c->order, c->uplo, c->transA, c->N, c->K, al, ARGS_A, ARGS_B, be,
                                           ARGS_C, TAIL);
    case SPEC_HER2K: return gpublas3Zher2k(c->order, c->uplo, c->transA, c->N, c->K, al, ARGS_A, ARGS_B, c->beta,
                                           ARGS_C, TAIL);
    case SPEC_TRMM: return gpublas3Ztrmm(c->order, c->side, c->uplo, c->transA, c->diag, c->M, c->N, al,
                                         ARGS_A, ARGS_B, TAIL);
    case SPEC_TRSM: return gpublas3Ztrsm(c->order, c->side, c->uplo, c->transA, c->diag, c->M, c->N, al,
                                         ARGS_A, ARGS_B, TAIL);
    default: return gpublas3NotImplemented;
    }
#undef ARGS_A
#undef ARGS_B
#undef ARGS_C
#undef TAIL
}

gpublas3Status spec_run_queues(const spec_case *c, cl_uint nqueues, cl_command_queue *qs,
                               cl_mem A, cl_mem B, cl_mem C,
                               cl_uint nwait, const cl_event *wait, cl_event *event)
{
#define TAIL nqueues, qs, nwait, wait, event
    if (c->batch > 1 && c->routine == SPEC_GEMM) {
        size_t sa = spec_batch_stride(c, 'A'), sb = spec_batch_stride(c, 'B'), sc = spec_batch_stride(c, 'C');
#define STRIDED(T, al, be) gpublas3##T##gemmStridedBatched(c->order, c->transA, c->transB, c->M, c->N, c->K, al, \
            A, c->offA, c->lda, sa, B, c->offB, c->ldb, sb, be, C, c->offC, c->ldc, sc, c->batch, TAIL)
        if (c->cplx && c->dbl)
            return STRIDED(Z, ((cl_double2){ { c->alpha, c->alpha_im } }), ((cl_double2){ { c->beta, c->beta_im } }));
        if (c->cplx)
            return STRIDED(C, ((cl_float2){ { (cl_float)c->alpha, (cl_float)c->alpha_im } }),
                           ((cl_float2){ { (cl_float)c->beta, (cl_float)c->beta_im } }));
        if (c->dbl)
            return STRIDED(D, c->alpha, c->beta);
        return STRIDED(S, (cl_float)c->alpha, (cl_float)c->beta);
#undef STRIDED
    }
    if (c->cplx)
        return run_complex(c, nqueues, qs, A, B, C, nwait, wait, event);
    if (!c->dbl) {
        cl_float al = (cl_float)c->alpha, be = (cl_float)c->beta;
        switch (c->routine) {
        case SPEC_GEMM: return gpublas3Sgemm(c->order, c->transA, c->transB, c->M, c->N, c->K, al,
                                             A, c->offA, c->lda, B, c->offB, c->ldb, be, C, c->offC, c->ldc, TAIL);
        case SPEC_SYMM: return gpublas3Ssymm(c->order, c->side, c->uplo, c->M, c->N, al,
                                             A, c->offA, c->lda, B, c->offB, c->ldb, be, C, c->offC, c->ldc, TAIL);
        case SPEC_SYRK: return gpublas3Ssyrk(c->order, c->uplo, c->transA, c->N, c->K, al,
                                             A, c->offA, c->lda, be, C, c->offC, c->ldc, TAIL);
        case SPEC_SYR2K: return gpublas3Ssyr2k(c->order, c->uplo, c->transA, c->N, c->K, al,
                                               A, c->offA, c->lda, B, c->offB, c->ldb, be, C, c->offC, c->ldc, TAIL);
        case SPEC_TRMM: return gpublas3Strmm(c->order, c->side, c->uplo, c->transA, c->diag, c->M, c->N, al,
                                             A, c->offA, c->lda, B, c->offB, c->ldb, TAIL);
        case SPEC_TRSM: return gpublas3Strsm(c->order, c->side, c->uplo, c->transA, c->diag, c->M, c->N, al,
                                             A, c->offA, c->lda, B, c->offB, c->ldb, TAIL);
        default: return gpublas3NotImplemented;
        }
    }
    switch (c->routine) {
    case SPEC_GEMM: return gpublas3Dgemm(c->order, c->transA, c->transB, c->M, c->N, c->K, c->alpha,
                                         A, c->offA, c->lda, B, c->offB, c->ldb, c->beta, C, c->offC, c->ldc, TAIL);
    case SPEC_SYMM: return gpublas3Dsymm(c->order, c->side, c->uplo, c->M, c->N, c->alpha,
                                         A, c->offA, c->lda, B, c->offB, c->ldb, c->beta, C, c->offC, c->ldc, TAIL);
    case SPEC_SYRK: return gpublas3Dsyrk(c->order, c->uplo, c->transA, c->N, c->K, c->alpha,
                                         A, c->offA, c->lda, c->beta, C, c->offC, c->ldc, TAIL);
    case SPEC_SYR2K: return gpublas3Dsyr2k(c->order, c->uplo, c->transA, c->N, c->K, c->alpha,
                                           A, c->offA, c->lda, B, c->offB, c->ldb, c->beta, C, c->offC, c->ldc, TAIL);
    case SPEC_TRMM: return gpublas3Dtrmm(c->order, c->side, c->uplo, c->transA, c->diag, c->M, c->N, c->alpha,
                                         A, c->offA, c->lda, B, c->offB, c->ldb, TAIL);
    case SPEC_TRSM: return gpublas3Dtrsm(c->order, c->side, c->uplo, c->transA, c->diag, c->M, c->N, c->alpha,
                                         A, c->offA, c->lda, B, c->offB, c->ldb, TAIL);
    default: return gpublas3NotImplemented;
    }
#undef TAIL
}

/* ---- OpenBLAS, loaded privately ------------------------------------------ */

typedef void (*sgemm_fn)(int, int, int, int, int, int, float, const float *, int,
                         const float *, int, float, float *, int);
typedef void (*dgemm_fn)(int, int, int, int, int, int, double, const double *, int,
                         const double *, int, double, double *, int);
typedef void (*ssymm_fn)(int, int, int, int, int, float, const float *, int,
                         const float *, int, float, float *, int);
typedef void (*dsymm_fn)(int, int, int, int, int, double, const double *, int,
                         const double *, int, double, double *, int);
typedef void (*ssyrk_fn)(int, int, int, int, int, float, const float *, int, float, float *, int);
typedef void (*dsyrk_fn)(int, int, int, int, int, double, const double *, int, double, double *, int);
typedef void (*ssyr2k_fn)(int, int, int, int, int, float, const float *, int,
                          const float *, int, float, float *, int);
typedef void (*dsyr2k_fn)(int, int, int, int, int, double, const double *, int,
                          const double *, int, double, double *, int);
typedef void (*strmm_fn)(int, int, int, int, int, int, int, float, const float *, int, float *, int);
typedef void (*dtrmm_fn)(int, int, int, int, int, int, int, double, const double *, int, double *, int);

/* Complex: scalars by pointer, except HERK's and HER2K's real ones. */
typedef void (*xgemm_fn)(int, int, int, int, int, int, const void *, const void *, int, const void *, int,
                         const void *, void *, int);
typedef void (*xsymm_fn)(int, int, int, int, int, const void *, const void *, int, const void *, int,
                         const void *, void *, int);
typedef void (*xsyrk_fn)(int, int, int, int, int, const void *, const void *, int, const void *, void *, int);
typedef void (*xsyr2k_fn)(int, int, int, int, int, const void *, const void *, int, const void *, int,
                          const void *, void *, int);
typedef void (*xtrmm_fn)(int, int, int, int, int, int, int, const void *, const void *, int, void *, int);
typedef void (*cherk_fn)(int, int, int, int, int, float, const void *, int, float, void *, int);
typedef void (*zherk_fn)(int, int, int, int, int, double, const void *, int, double, void *, int);
typedef void (*cher2k_fn)(int, int, int, int, int, const void *, const void *, int, const void *, int,
                          float, void *, int);
typedef void (*zher2k_fn)(int, int, int, int, int, const void *, const void *, int, const void *, int,
                          double, void *, int);

static struct {
    sgemm_fn sgemm; dgemm_fn dgemm; ssymm_fn ssymm; dsymm_fn dsymm;
    ssyrk_fn ssyrk; dsyrk_fn dsyrk; ssyr2k_fn ssyr2k; dsyr2k_fn dsyr2k;
    strmm_fn strmm; dtrmm_fn dtrmm; strmm_fn strsm; dtrmm_fn dtrsm; /* TRSM: TRMM's argument list */
    struct { xgemm_fn gemm; xsymm_fn symm, hemm; xsyrk_fn syrk; xsyr2k_fn syr2k; xtrmm_fn trmm, trsm; } x[2]; /* c, z */
    cherk_fn cherk; zherk_fn zherk; cher2k_fn cher2k; zher2k_fn zher2k;
} ob;

static void *need(void *lib, const char *name)
{
    void *f = dlsym(lib, name);
    if (!f) { fprintf(stderr, "spec: OpenBLAS lacks %s\n", name); exit(2); }
    /* The whole point of dlopen: the reference must not be gpublas3's drop-in. */
    if (f == dlsym(RTLD_DEFAULT, name)) {
        fprintf(stderr, "spec: %s resolves to the global definition, not OpenBLAS's\n", name);
        exit(2);
    }
    return f;
}

/* The sanitizers refuse RTLD_DEEPBIND; there the library stays RTLD_LOCAL
 * and `need` still proves each symbol is OpenBLAS's own, not gpublas3's. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define OPENBLAS_DLOPEN_FLAGS (RTLD_NOW | RTLD_LOCAL)
#else
#define OPENBLAS_DLOPEN_FLAGS (RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND)
#endif

static void load_openblas(void)
{
    if (ob.sgemm) return;
    const char *libs[] = { "libopenblas.so.0", "libopenblas.so" };
    void *lib = NULL;
    for (size_t i = 0; i < 2 && !lib; i++) lib = dlopen(libs[i], OPENBLAS_DLOPEN_FLAGS);
    if (!lib) { fprintf(stderr, "spec: cannot load OpenBLAS: %s\n", dlerror()); exit(2); }
    ob.dgemm = (dgemm_fn)need(lib, "cblas_dgemm");
    ob.ssymm = (ssymm_fn)need(lib, "cblas_ssymm");
    ob.dsymm = (dsymm_fn)need(lib, "cblas_dsymm");
    ob.ssyrk = (ssyrk_fn)need(lib, "cblas_ssyrk");
    ob.dsyrk = (dsyrk_fn)need(lib, "cblas_dsyrk");
    ob.ssyr2k = (ssyr2k_fn)need(lib, "cblas_ssyr2k");
    ob.dsyr2k = (dsyr2k_fn)need(lib, "cblas_dsyr2k");
    ob.strmm = (strmm_fn)need(lib, "cblas_strmm");
    ob.dtrmm = (dtrmm_fn)need(lib, "cblas_dtrmm");
    for (int z = 0; z < 2; z++) {
        char name[32];
#define LOAD(field, type, routine) \
        snprintf(name, sizeof name, "cblas_%c%s", "cz"[z], routine); ob.x[z].field = (type)need(lib, name)
        LOAD(gemm, xgemm_fn, "gemm");
        LOAD(symm, xsymm_fn, "symm");
        LOAD(hemm, xsymm_fn, "hemm");
        LOAD(syrk, xsyrk_fn, "syrk");
        LOAD(syr2k, xsyr2k_fn, "syr2k");
        LOAD(trmm, xtrmm_fn, "trmm");
        LOAD(trsm, xtrmm_fn, "trsm");
#undef LOAD
    }
    ob.cherk = (cherk_fn)need(lib, "cblas_cherk");
    ob.zherk = (zherk_fn)need(lib, "cblas_zherk");
    ob.cher2k = (cher2k_fn)need(lib, "cblas_cher2k");
    ob.zher2k = (zher2k_fn)need(lib, "cblas_zher2k");
    ob.strsm = (strmm_fn)need(lib, "cblas_strsm");
    ob.dtrsm = (dtrmm_fn)need(lib, "cblas_dtrsm");
    ob.sgemm = (sgemm_fn)need(lib, "cblas_sgemm");
}

static double get(const spec_case *c, const void *p, size_t k)
{
    return c->dbl ? ((const double *)p)[k] : ((const float *)p)[k];
}
static void put(const spec_case *c, void *p, size_t k, double v)
{
    if (c->dbl) ((double *)p)[k] = v;
    else ((float *)p)[k] = (float)v;
}

/* The scalars as the routine takes them: HERK's alpha and beta and
 * HER2K's beta are real. */
static double alpha_im(const spec_case *c) { return c->cplx && c->routine != SPEC_HERK ? c->alpha_im : 0; }
static double beta_im(const spec_case *c)
{
    return c->cplx && c->routine != SPEC_HERK && c->routine != SPEC_HER2K ? c->beta_im : 0;
}

/* Element x of a buffer, component q (real part 0, imaginary part 1). */
static void put_elem(const spec_case *c, void *p, size_t x, double re, double im)
{
    put(c, p, x * ncomp(c), re);
    if (c->cplx) put(c, p, x * ncomp(c) + 1, im);
}

/* A copy of `which` with every element the routine must not read replaced,
 * so the reference follows BLAS's rules whatever OpenBLAS's kernels touch:
 * SYMM's, HEMM's, TRMM's and TRSM's other triangle of A by 0 and the unit diagonal
 * by 1; the unread imaginary parts of Hermitian diagonals by 0; with
 * beta = 0 the output region by 0; with alpha = 0 the inputs by 0.
 * With `absval`, the absolute values (complex: |re| + |im|, as a real
 * number) for the error bound. */
static void *clean_copy(const spec_case *c, char which, const void *src, int absval)
{
    size_t n = spec_elements(c, which), es = spec_elem_size(c), nc = ncomp(c), r, k;
    void *p = malloc(n ? n * es : 1);
    if (!p) { fprintf(stderr, "spec: out of memory\n"); exit(2); }
    memcpy(p, src, n * es);
    spec_dims(c, which, &r, &k);
    int zero_out = which == 'C' && c->beta == 0 && beta_im(c) == 0;
    int no_inputs = c->alpha == 0 && alpha_im(c) == 0 && which != spec_output(c);
    spec_routine b = base(c->routine);
    /* a real GEMM reads every element of its region and nothing needs
     * zeroing: the copy as it is (elements outside the region, never
     * read, may take their absolute value too); a whole pass of function
     * calls per element costs seconds on the bench's largest operands */
    if (b == SPEC_GEMM && nc == 1 && !zero_out && !no_inputs) {
        for (size_t x = 0; absval && x < n; x++)
            put(c, p, x, fabs(get(c, p, x)));
        return p;
    }
    for (size_t j = 0; j < k; j++)
        for (size_t i = 0; i < r; i++) {
            size_t x = spec_index(c, which, i, j);
            if (!spec_referenced(c, which, i, j)) {
                if (which == 'A' && (b == SPEC_SYMM || triangular(c)))
                    put_elem(c, p, x, i == j ? 1.0 : 0.0, 0);
            } else if (zero_out || no_inputs) {
                put_elem(c, p, x, 0, 0); /* never read: C when beta = 0, A and B when alpha = 0 */
            } else {
                if (spec_imag_unread(c, which, i, j))
                    put(c, p, x * nc + 1, 0);
                if (absval)
                    put_elem(c, p, x, fabs(get(c, p, x * nc)) + (nc == 2 ? fabs(get(c, p, x * nc + 1)) : 0), 0);
            }
        }
    return p;
}

static int cb_order(const spec_case *c) { return c->order == gpublas3RowMajor ? CB_ROW : CB_COL; }
static int cb_uplo(const spec_case *c) { return c->uplo == gpublas3Upper ? CB_UPPER : CB_LOWER; }
static int cb_side(const spec_case *c) { return c->side == gpublas3Left ? CB_LEFT : CB_RIGHT; }
static int cb_diag(const spec_case *c) { return c->diag == gpublas3Unit ? CB_UNIT : CB_NONUNIT; }
/* ConjTrans is Trans for real matrices: the reference states it so itself. */
static int cb_trans(gpublas3Transpose t) { return t == gpublas3NoTrans ? CB_NOTRANS : CB_TRANS; }
static int cb_ctrans(gpublas3Transpose t) { return t == gpublas3ConjTrans ? CB_CONJTRANS : cb_trans(t); }

/* The complex reference: scalars by pointer in the element type. */
static void call_complex(const spec_case *c, const char *a, const char *b, char *y,
                         const double alpha[2], const double beta[2])
{
    int o = cb_order(c), M = (int)c->M, N = (int)c->N, K = (int)c->K, z = c->dbl;
    int lda = (int)c->lda, ldb = (int)c->ldb, ldc = (int)c->ldc;
    float fa[2] = { (float)alpha[0], (float)alpha[1] }, fb[2] = { (float)beta[0], (float)beta[1] };
    const void *al = z ? (const void *)alpha : fa, *be = z ? (const void *)beta : fb;
    switch (c->routine) {
    case SPEC_GEMM:
        ob.x[z].gemm(o, cb_ctrans(c->transA), cb_ctrans(c->transB), M, N, K, al, a, lda, b, ldb, be, y, ldc);
        break;
    case SPEC_SYMM: ob.x[z].symm(o, cb_side(c), cb_uplo(c), M, N, al, a, lda, b, ldb, be, y, ldc); break;
    case SPEC_HEMM: ob.x[z].hemm(o, cb_side(c), cb_uplo(c), M, N, al, a, lda, b, ldb, be, y, ldc); break;
    case SPEC_SYRK: ob.x[z].syrk(o, cb_uplo(c), cb_ctrans(c->transA), N, K, al, a, lda, be, y, ldc); break;
    case SPEC_SYR2K:
        ob.x[z].syr2k(o, cb_uplo(c), cb_ctrans(c->transA), N, K, al, a, lda, b, ldb, be, y, ldc);
        break;
    case SPEC_HERK:
        if (z) ob.zherk(o, cb_uplo(c), cb_ctrans(c->transA), N, K, alpha[0], a, lda, beta[0], y, ldc);
        else ob.cherk(o, cb_uplo(c), cb_ctrans(c->transA), N, K, fa[0], a, lda, fb[0], y, ldc);
        break;
    case SPEC_HER2K:
        if (z) ob.zher2k(o, cb_uplo(c), cb_ctrans(c->transA), N, K, al, a, lda, b, ldb, beta[0], y, ldc);
        else ob.cher2k(o, cb_uplo(c), cb_ctrans(c->transA), N, K, al, a, lda, b, ldb, fb[0], y, ldc);
        break;
    case SPEC_TRMM:
        ob.x[z].trmm(o, cb_side(c), cb_uplo(c), cb_ctrans(c->transA), cb_diag(c), M, N, al, a, lda, y, ldb);
        break;
    case SPEC_TRSM:
        ob.x[z].trsm(o, cb_side(c), cb_uplo(c), cb_ctrans(c->transA), cb_diag(c), M, N, al, a, lda, y, ldb);
        break;
    default:
        break;
    }
}

/* The reference on raw arrays (offsets applied here), with given scalars. */
static void call_reference(const spec_case *c, const void *A, const void *B, void *out,
                           const double alphas[2], const double betas[2])
{
    double alpha = alphas[0], beta = betas[0];
    load_openblas();
    int o = cb_order(c), M = (int)c->M, N = (int)c->N, K = (int)c->K;
    int lda = (int)c->lda, ldb = (int)c->ldb, ldc = (int)c->ldc;
    size_t es = spec_elem_size(c);
    const char *a = (const char *)A + c->offA * es;
    const char *b = B ? (const char *)B + c->offB * es : NULL;
    char *y = (char *)out + (triangular(c) ? c->offB : c->offC) * es;
    if (!M && base(c->routine) != SPEC_SYRK && base(c->routine) != SPEC_SYR2K) return;
    if (!N) return;
    if (c->cplx) {
        call_complex(c, a, b, y, alphas, betas);
        return;
    }
    switch (c->routine) {
    case SPEC_GEMM:
        if (c->dbl) ob.dgemm(o, cb_trans(c->transA), cb_trans(c->transB), M, N, K, alpha,
                             (const double *)a, lda, (const double *)b, ldb, beta, (double *)y, ldc);
        else ob.sgemm(o, cb_trans(c->transA), cb_trans(c->transB), M, N, K, (float)alpha,
                      (const float *)a, lda, (const float *)b, ldb, (float)beta, (float *)y, ldc);
        break;
    case SPEC_SYMM:
        if (c->dbl) ob.dsymm(o, cb_side(c), cb_uplo(c), M, N, alpha, (const double *)a, lda,
                             (const double *)b, ldb, beta, (double *)y, ldc);
        else ob.ssymm(o, cb_side(c), cb_uplo(c), M, N, (float)alpha, (const float *)a, lda,
                      (const float *)b, ldb, (float)beta, (float *)y, ldc);
        break;
    case SPEC_SYRK:
        if (c->dbl) ob.dsyrk(o, cb_uplo(c), cb_trans(c->transA), N, K, alpha, (const double *)a, lda,
                             beta, (double *)y, ldc);
        else ob.ssyrk(o, cb_uplo(c), cb_trans(c->transA), N, K, (float)alpha, (const float *)a, lda,
                      (float)beta, (float *)y, ldc);
        break;
    case SPEC_SYR2K:
        if (c->dbl) ob.dsyr2k(o, cb_uplo(c), cb_trans(c->transA), N, K, alpha, (const double *)a, lda,
                              (const double *)b, ldb, beta, (double *)y, ldc);
        else ob.ssyr2k(o, cb_uplo(c), cb_trans(c->transA), N, K, (float)alpha, (const float *)a, lda,
                       (const float *)b, ldb, (float)beta, (float *)y, ldc);
        break;
    case SPEC_TRMM:
        if (c->dbl) ob.dtrmm(o, cb_side(c), cb_uplo(c), cb_trans(c->transA), cb_diag(c), M, N, alpha,
                             (const double *)a, lda, (double *)y, ldb);
        else ob.strmm(o, cb_side(c), cb_uplo(c), cb_trans(c->transA), cb_diag(c), M, N, (float)alpha,
                      (const float *)a, lda, (float *)y, ldb);
        break;
    case SPEC_TRSM:
        if (c->dbl) ob.dtrsm(o, cb_side(c), cb_uplo(c), cb_trans(c->transA), cb_diag(c), M, N, alpha,
                             (const double *)a, lda, (double *)y, ldb);
        else ob.strsm(o, cb_side(c), cb_uplo(c), cb_trans(c->transA), cb_diag(c), M, N, (float)alpha,
                      (const float *)a, lda, (float *)y, ldb);
        break;
    default:
        break;
    }
}

/* Runs the reference on cleaned (and, for the bound, absolute) copies of the
 * operands; the output array is updated in place. */
static void reference(const spec_case *c, const void *A, const void *B, void *out, int absval)
{
    if (c->batch > 1) { /* product by product, each on its own part of the arrays */
        size_t es = spec_elem_size(c), sa = spec_batch_stride(c, 'A'), sb = spec_batch_stride(c, 'B');
        size_t sc = spec_batch_stride(c, 'C');
        spec_case one = *c;
        one.batch = 0;
        for (size_t p = 0; p < c->batch; p++)
            reference(&one, (const char *)A + p * sa * es, (const char *)B + p * sb * es, (char *)out + p * sc * es,
                      absval);
        return;
    }
    char o = spec_output(c);
    void *a = clean_copy(c, 'A', A, absval);
    void *b = spec_uses(c, 'B') && o != 'B' ? clean_copy(c, 'B', B, absval) : NULL;
    void *y = clean_copy(c, o, out, absval);
    double alpha[2] = { c->alpha, alpha_im(c) }, beta[2] = { c->beta, beta_im(c) };
    if (absval) {
        alpha[0] = fabs(alpha[0]) + fabs(alpha[1]);
        beta[0] = fabs(beta[0]) + fabs(beta[1]);
        alpha[1] = beta[1] = 0;
    }
    call_reference(c, a, b, y, alpha, beta);
    memcpy(out, y, spec_elements(c, o) * spec_elem_size(c));
    free(a);
    free(b);
    free(y);
}

void spec_reference(const spec_case *c, const void *A, const void *B, void *out)
{
    reference(c, A, B, out, 0);
}

/* The inner dimension each output element sums over. */
static size_t k_eff(const spec_case *c)
{
    switch (base(c->routine)) {
    case SPEC_GEMM: case SPEC_SYRK: return c->K;
    case SPEC_SYR2K: return 2 * c->K;
    default: return side_dim(c);
    }
}

static int same_bits(const spec_case *c, const void *x, const void *y, size_t k)
{
    size_t es = spec_elem_size(c);
    return !memcmp((const char *)x + k * es, (const char *)y + k * es, es);
}

/* Complex: the off-diagonal parts are divided by twice the order, so
 * that their moduli (at most sqrt 2 / (2 order) each) still sum below 1. */
void spec_condition(const spec_case *c, void *A)
{
    size_t r, k, nc = ncomp(c), order = side_dim(c) * nc;
    if (c->routine != SPEC_TRSM) return;
    spec_dims(c, 'A', &r, &k);
    for (size_t j = 0; j < k; j++)
        for (size_t i = 0; i < r; i++) {
            if (!spec_referenced(c, 'A', i, j)) continue;
            size_t x = spec_index(c, 'A', i, j) * nc;
            for (size_t q = 0; q < nc; q++) {
                double v = get(c, A, x + q);
                put(c, A, x + q, i == j && q == 0 ? copysign(1 + fabs(v), v) : v / (double)order);
            }
        }
}

/* x (n elements of the case's precision) as doubles, or their absolute values. */
static double *widen(const spec_case *c, const void *x, size_t n, int absval)
{
    double *w = malloc(n ? n * sizeof *w : 1);
    if (!w) { fprintf(stderr, "spec: out of memory\n"); exit(2); }
    for (size_t i = 0; i < n; i++) w[i] = absval ? fabs(get(c, x, i)) : get(c, x, i);
    return w;
}

/* TRSM's residual op(A) X - alpha B and its bound |op(A)||X| + |alpha||B|
 * (spec.h), both from double-precision TRMMs on the stored X = got; the
 * output region of `res` (complex: {re, im} pairs) and `bound` (one real
 * per element, |re| + |im| as everywhere) holds them on return. */
static void trsm_residual(const spec_case *c, const void *A, const void *before, const void *got,
                          double *res, double *bound)
{
    spec_case t = *c;
    t.routine = SPEC_TRMM;
    t.dbl = 1;
    t.alpha = 1;
    t.alpha_im = 0;
    size_t nc = ncomp(c), na = spec_elements(c, 'A') * nc, nb = spec_elements(c, 'B') * nc, r, k;
    double *a = widen(c, A, na, 0), *x = widen(c, got, nb, 0), *ax = widen(c, got, nb, 1);
    reference(&t, a, NULL, x, 0);
    reference(&t, a, NULL, ax, 1);
    double ar = c->alpha, ai = alpha_im(c);
    spec_dims(c, 'B', &r, &k);
    for (size_t j = 0; j < k; j++)
        for (size_t i = 0; i < r; i++) {
            size_t e = spec_index(c, 'B', i, j);
            double br = get(c, before, e * nc), bi = nc == 2 ? get(c, before, e * nc + 1) : 0;
            res[e * nc] = x[e * nc] - (ar * br - ai * bi);
            if (nc == 2) res[e * nc + 1] = x[e * nc + 1] - (ar * bi + ai * br);
            bound[e] = ax[e * nc] + (fabs(ar) + fabs(ai)) * (fabs(br) + fabs(bi));
        }
    free(a);
    free(x);
    free(ax);
}

/* worst = max(worst, err / bound); an error over a zero bound, or a
 * non-finite one, is infinite. */
static void note_worst(double *worst, double err, double bound)
{
    if (!worst || err == 0) return;
    double r = bound > 0 && isfinite(err) ? err / bound : INFINITY;
    if (r > *worst) *worst = r;
}

size_t spec_judge(const spec_case *c, const void *A, const void *B, const void *before,
                  const void *got, const void *ref, size_t nelem, double *worst, char *msg, size_t n)
{
    char o = spec_output(c);
    size_t es = spec_elem_size(c), r, k, bad = 0, need = spec_elements(c, o);
    double eps = c->dbl ? DBL_EPSILON : FLT_EPSILON;
    if (msg && n) msg[0] = 0;
    if (worst) *worst = 0;
    if (nelem < need) {
        if (msg) snprintf(msg, n, "output buffer of %zu elements, the call needs %zu", nelem, need);
        return 1;
    }
    /* bound = the routine on |A|, |B|, |C| with |alpha|, |beta| */
    void *bound = malloc(need ? need * es : 1);
    unsigned char *inside = calloc(nelem ? nelem : 1, 1);
    if (!bound || !inside) { fprintf(stderr, "spec: out of memory\n"); exit(2); }
    memcpy(bound, before, need * es);
    reference(c, A, B, bound, 1);
    spec_dims(c, o, &r, &k);
    /* complex: each part sums two real products per term */
    size_t nc = ncomp(c);
    double scale = SPEC_GAMMA * (double)(nc * k_eff(c) + 2) * eps;
    double *res = NULL, *rbound = NULL;
    if (c->routine == SPEC_TRSM && (c->alpha != 0 || alpha_im(c) != 0)) {
        res = malloc(need ? need * nc * sizeof *res : 1);
        rbound = malloc(need ? need * sizeof *rbound : 1);
        if (!res || !rbound) { fprintf(stderr, "spec: out of memory\n"); exit(2); }
        trsm_residual(c, A, before, got, res, rbound);
    }

    /* (a batch: every product's elements, spec_batch_stride apart) */
    size_t nprod = c->batch > 1 ? c->batch : 1, pstride = c->batch > 1 ? spec_batch_stride(c, o) : 0;
    for (size_t prod = 0; prod < nprod; prod++)
    for (size_t j = 0; j < k; j++)
        for (size_t i = 0; i < r; i++) {
            if (!spec_referenced(c, o, i, j)) continue;
            size_t x = spec_index(c, o, i, j) + prod * pstride;
            inside[x] = 1;
            for (size_t q = 0; q < nc; q++) {
                double g = get(c, got, x * nc + q), e = get(c, ref, x * nc + q);
                double tol = scale * get(c, bound, x * nc);
                int ok;
                if (res) {
                    tol = scale * rbound[x];
                    ok = isfinite(g) && fabs(res[x * nc + q]) <= tol;
                    note_worst(worst, fabs(res[x * nc + q]), rbound[x]);
                    if (!ok && bad++ == 0 && msg)
                        snprintf(msg, n, "%c(%zu,%zu)%s [element %zu]: got %.9g, residual %.3g over tolerance %.3g",
                                 o, i, j, nc == 1 ? "" : q ? ".im" : ".re", x, g, res[x * nc + q], tol);
                    continue;
                }
                if (q == 1 && spec_imag_unread(c, o, i, j)) ok = g == 0; /* HERK, HER2K: exactly 0 */
                else if (isnan(e)) ok = isnan(g);
                else if (isinf(e)) ok = g == e;
                else ok = isfinite(g) && fabs(g - e) <= tol;
                if (isfinite(e)) note_worst(worst, fabs(g - e), get(c, bound, x * nc));
                if (!ok && bad++ == 0 && msg)
                    snprintf(msg, n, "%c(%zu,%zu)%s [element %zu]: got %.9g, expected %.9g, tolerance %.3g",
                             o, i, j, nc == 1 ? "" : q ? ".im" : ".re", x, g, e, tol);
            }
        }
    for (size_t x = 0; x < nelem; x++) {
        if (inside[x] || same_bits(c, got, before, x)) continue;
        if (bad++ == 0 && msg)
            snprintf(msg, n, "%c element %zu lies outside the referenced region but changed: %.9g -> %.9g",
                     o, x, get(c, before, x * nc), get(c, got, x * nc));
    }
    free(bound);
    free(res);
    free(rbound);
    free(inside);
    return bad;
}

size_t spec_check_n(const spec_case *c, const void *A, const void *B, const void *before,
                    const void *got, const void *ref, size_t nelem, char *msg, size_t n)
{
    return spec_judge(c, A, B, before, got, ref, nelem, NULL, msg, n);
}

size_t spec_check(const spec_case *c, const void *A, const void *B, const void *before,
                  const void *got, const void *ref, char *msg, size_t n)
{
    return spec_check_n(c, A, B, before, got, ref, spec_elements(c, spec_output(c)), msg, n);
}

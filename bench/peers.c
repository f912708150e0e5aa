/* SPDX-License-Identifier: BSD-3-Clause */
/* The implementations the benchmark compares, behind one small interface:
 * gpublas3 (through the shared routine description, spec_run), CLBlast on
 * the same OpenCL queue and buffers, and OpenBLAS on host memory.  OpenBLAS
 * is reached through dlopen/dlsym (RTLD_DEEPBIND): gpublas3 exports its own
 * cblas_* drop-ins, so linking OpenBLAS could silently measure ourselves. */
#define _GNU_SOURCE   /* RTLD_DEEPBIND */
#include <dlfcn.h>
#include <string.h>
#include "bench.h"
#ifdef G3B_HAVE_CLBLAST
#include <clblast_c.h>
#endif

/* CBLAS and CLBlast share these enum values (101 ... 142). */
static int layout(const spec_case *c) { return c->order == gpublas3RowMajor ? 101 : 102; }
static int trans(gpublas3Transpose t) { return t == gpublas3NoTrans ? 111 : t == gpublas3Trans ? 112 : 113; }
static int uplo(const spec_case *c) { return c->uplo == gpublas3Upper ? 121 : 122; }
static int diag(const spec_case *c) { return c->diag == gpublas3NonUnit ? 131 : 132; }
static int side(const spec_case *c) { return c->side == gpublas3Left ? 141 : 142; }

/* --- gpublas3 ------------------------------------------------------------ */
static int ours_init(const bench_device *dev, char *version, size_t vn, char *err, size_t en)
{
    gpublas3Status s = gpublas3Setup();
    snprintf(version, vn, "%s", dev->library);
    if (s != gpublas3Success) {
        snprintf(err, en, "gpublas3Setup: %s", gpublas3StatusString(s));
        return -1;
    }
    return 0;
}

static int ours_enqueue(const spec_case *c, cl_command_queue q, cl_mem A, cl_mem B, cl_mem C,
                        char *err, size_t en)
{
    gpublas3Status s = spec_run(c, q, A, B, C, 0, NULL, NULL);
    if (s == gpublas3Success) return 0;
    snprintf(err, en, "%s (%d)", gpublas3StatusString(s), (int)s);
    return -1;
}

/* A batch as a host loop of single gpublas3 calls, one per product, for
 * comparison with the batched call (the same as "gpublas3" otherwise). */
static int loop_enqueue(const spec_case *c, cl_command_queue q, cl_mem A, cl_mem B, cl_mem C, char *err, size_t en)
{
    spec_case one = *c;
    one.batch = 0;
    size_t n = c->batch > 1 ? c->batch : 1;
    for (size_t p = 0; p < n; p++) {
        one.offA = c->offA + p * spec_batch_stride(c, 'A');
        one.offB = c->offB + p * spec_batch_stride(c, 'B');
        one.offC = c->offC + p * spec_batch_stride(c, 'C');
        if (ours_enqueue(&one, q, A, B, C, err, en))
            return -1;
    }
    return 0;
}

/* --- CLBlast ------------------------------------------------------------- */
#ifdef G3B_HAVE_CLBLAST
static int clblast_init(const bench_device *dev, char *version, size_t vn, char *err, size_t en)
{
    snprintf(version, vn, "%d.%d.%d", CLBLAST_VERSION_MAJOR, CLBLAST_VERSION_MINOR, CLBLAST_VERSION_PATCH);
    return 0;
}

/* Complex: the same calls with cl_float2 / cl_double2 scalars (HERK's and
 * HER2K's beta, HERK's alpha real). */
static CLBlastStatusCode clblast_complex(const spec_case *c, cl_command_queue *q, cl_mem A, cl_mem B,
                                         cl_mem C, cl_event *ev)
{
    cl_float2 ca = { { (float)c->alpha, (float)c->alpha_im } }, cb = { { (float)c->beta, (float)c->beta_im } };
    cl_double2 za = { { c->alpha, c->alpha_im } }, zb = { { c->beta, c->beta_im } };
    float fa = (float)c->alpha, fb = (float)c->beta;
    int z = c->dbl;
#define LA layout(c)
#define AA A, c->offA, c->lda
#define BB B, c->offB, c->ldb
#define CC C, c->offC, c->ldc
    switch (c->routine) {
    case SPEC_GEMM:
        return z ? CLBlastZgemm(LA, trans(c->transA), trans(c->transB), c->M, c->N, c->K, za, AA, BB, zb, CC, q, ev)
                 : CLBlastCgemm(LA, trans(c->transA), trans(c->transB), c->M, c->N, c->K, ca, AA, BB, cb, CC, q, ev);
    case SPEC_SYMM:
        return z ? CLBlastZsymm(LA, side(c), uplo(c), c->M, c->N, za, AA, BB, zb, CC, q, ev)
                 : CLBlastCsymm(LA, side(c), uplo(c), c->M, c->N, ca, AA, BB, cb, CC, q, ev);
    case SPEC_HEMM:
        return z ? CLBlastZhemm(LA, side(c), uplo(c), c->M, c->N, za, AA, BB, zb, CC, q, ev)
                 : CLBlastChemm(LA, side(c), uplo(c), c->M, c->N, ca, AA, BB, cb, CC, q, ev);
    case SPEC_SYRK:
        return z ? CLBlastZsyrk(LA, uplo(c), trans(c->transA), c->N, c->K, za, AA, zb, CC, q, ev)
                 : CLBlastCsyrk(LA, uplo(c), trans(c->transA), c->N, c->K, ca, AA, cb, CC, q, ev);
    case SPEC_HERK:
        return z ? CLBlastZherk(LA, uplo(c), trans(c->transA), c->N, c->K, c->alpha, AA, c->beta, CC, q, ev)
                 : CLBlastCherk(LA, uplo(c), trans(c->transA), c->N, c->K, fa, AA, fb, CC, q, ev);
    case SPEC_SYR2K:
        return z ? CLBlastZsyr2k(LA, uplo(c), trans(c->transA), c->N, c->K, za, AA, BB, zb, CC, q, ev)
                 : CLBlastCsyr2k(LA, uplo(c), trans(c->transA), c->N, c->K, ca, AA, BB, cb, CC, q, ev);
    case SPEC_HER2K:
        return z ? CLBlastZher2k(LA, uplo(c), trans(c->transA), c->N, c->K, za, AA, BB, c->beta, CC, q, ev)
                 : CLBlastCher2k(LA, uplo(c), trans(c->transA), c->N, c->K, ca, AA, BB, fb, CC, q, ev);
    case SPEC_TRMM:
        return z ? CLBlastZtrmm(LA, side(c), uplo(c), trans(c->transA), diag(c), c->M, c->N, za, AA, BB, q, ev)
                 : CLBlastCtrmm(LA, side(c), uplo(c), trans(c->transA), diag(c), c->M, c->N, ca, AA, BB, q, ev);
    case SPEC_TRSM:
        return z ? CLBlastZtrsm(LA, side(c), uplo(c), trans(c->transA), diag(c), c->M, c->N, za, AA, BB, q, ev)
                 : CLBlastCtrsm(LA, side(c), uplo(c), trans(c->transA), diag(c), c->M, c->N, ca, AA, BB, q, ev);
    default:
        return CLBlastNotImplemented;
    }
#undef LA
#undef AA
#undef BB
#undef CC
}

/* A strided batch: CLBlast's ?gemmStridedBatched. */
static CLBlastStatusCode clblast_batched(const spec_case *c, cl_command_queue *q, cl_mem A, cl_mem B, cl_mem C,
                                         cl_event *ev)
{
    size_t sa = spec_batch_stride(c, 'A'), sb = spec_batch_stride(c, 'B'), sc = spec_batch_stride(c, 'C');
    cl_float2 ca = { { (float)c->alpha, (float)c->alpha_im } }, cb = { { (float)c->beta, (float)c->beta_im } };
    cl_double2 za = { { c->alpha, c->alpha_im } }, zb = { { c->beta, c->beta_im } };
#define ARGS(al, be) layout(c), trans(c->transA), trans(c->transB), c->M, c->N, c->K, al, A, c->offA, c->lda, sa, \
        B, c->offB, c->ldb, sb, be, C, c->offC, c->ldc, sc, c->batch, q, ev
    if (c->cplx)
        return c->dbl ? CLBlastZgemmStridedBatched(ARGS(za, zb)) : CLBlastCgemmStridedBatched(ARGS(ca, cb));
    return c->dbl ? CLBlastDgemmStridedBatched(ARGS(c->alpha, c->beta))
                  : CLBlastSgemmStridedBatched(ARGS((float)c->alpha, (float)c->beta));
#undef ARGS
}

static CLBlastStatusCode clblast_call(const spec_case *c, cl_command_queue *q, cl_mem A, cl_mem B,
                                      cl_mem C, cl_event *ev)
{
    if (c->batch > 1 && c->routine == SPEC_GEMM)
        return clblast_batched(c, q, A, B, C, ev);
    if (c->cplx)
        return clblast_complex(c, q, A, B, C, ev);
    float as = (float)c->alpha, bs = (float)c->beta;
    double ad = c->alpha, bd = c->beta;
    switch (c->routine) {
    case SPEC_GEMM:
        return c->dbl
            ? CLBlastDgemm(layout(c), trans(c->transA), trans(c->transB), c->M, c->N, c->K, ad,
                           A, c->offA, c->lda, B, c->offB, c->ldb, bd, C, c->offC, c->ldc, q, ev)
            : CLBlastSgemm(layout(c), trans(c->transA), trans(c->transB), c->M, c->N, c->K, as,
                           A, c->offA, c->lda, B, c->offB, c->ldb, bs, C, c->offC, c->ldc, q, ev);
    case SPEC_SYMM:
        return c->dbl
            ? CLBlastDsymm(layout(c), side(c), uplo(c), c->M, c->N, ad, A, c->offA, c->lda,
                           B, c->offB, c->ldb, bd, C, c->offC, c->ldc, q, ev)
            : CLBlastSsymm(layout(c), side(c), uplo(c), c->M, c->N, as, A, c->offA, c->lda,
                           B, c->offB, c->ldb, bs, C, c->offC, c->ldc, q, ev);
    case SPEC_SYRK:
        return c->dbl
            ? CLBlastDsyrk(layout(c), uplo(c), trans(c->transA), c->N, c->K, ad, A, c->offA, c->lda,
                           bd, C, c->offC, c->ldc, q, ev)
            : CLBlastSsyrk(layout(c), uplo(c), trans(c->transA), c->N, c->K, as, A, c->offA, c->lda,
                           bs, C, c->offC, c->ldc, q, ev);
    case SPEC_SYR2K:
        return c->dbl
            ? CLBlastDsyr2k(layout(c), uplo(c), trans(c->transA), c->N, c->K, ad, A, c->offA, c->lda,
                            B, c->offB, c->ldb, bd, C, c->offC, c->ldc, q, ev)
            : CLBlastSsyr2k(layout(c), uplo(c), trans(c->transA), c->N, c->K, as, A, c->offA, c->lda,
                            B, c->offB, c->ldb, bs, C, c->offC, c->ldc, q, ev);
    case SPEC_TRMM:
        return c->dbl
            ? CLBlastDtrmm(layout(c), side(c), uplo(c), trans(c->transA), diag(c), c->M, c->N, ad,
                           A, c->offA, c->lda, B, c->offB, c->ldb, q, ev)
            : CLBlastStrmm(layout(c), side(c), uplo(c), trans(c->transA), diag(c), c->M, c->N, as,
                           A, c->offA, c->lda, B, c->offB, c->ldb, q, ev);
    case SPEC_TRSM:
        return c->dbl
            ? CLBlastDtrsm(layout(c), side(c), uplo(c), trans(c->transA), diag(c), c->M, c->N, ad,
                           A, c->offA, c->lda, B, c->offB, c->ldb, q, ev)
            : CLBlastStrsm(layout(c), side(c), uplo(c), trans(c->transA), diag(c), c->M, c->N, as,
                           A, c->offA, c->lda, B, c->offB, c->ldb, q, ev);
    default:
        return CLBlastNotImplemented;
    }
}

static int clblast_enqueue(const spec_case *c, cl_command_queue q, cl_mem A, cl_mem B, cl_mem C,
                           char *err, size_t en)
{
    cl_event ev = NULL;
    CLBlastStatusCode s = clblast_call(c, &q, A, B, C, &ev);
    if (ev) clReleaseEvent(ev);
    if (s == CLBlastSuccess) return 0;
    snprintf(err, en, "CLBlast status %d", (int)s);
    return -1;
}
#else
static int clblast_init(const bench_device *dev, char *version, size_t vn, char *err, size_t en)
{
    snprintf(err, en, "not built in (CLBlast was not found at configure time)");
    return -1;
}
#define clblast_enqueue NULL
#endif

/* --- OpenBLAS, on the host ----------------------------------------------- */
typedef void (*sgemm_fn)(int, int, int, int, int, int, float, const float *, int, const float *, int,
                         float, float *, int);
typedef void (*dgemm_fn)(int, int, int, int, int, int, double, const double *, int, const double *,
                         int, double, double *, int);
typedef void (*ssymm_fn)(int, int, int, int, int, float, const float *, int, const float *, int,
                         float, float *, int);
typedef void (*dsymm_fn)(int, int, int, int, int, double, const double *, int, const double *, int,
                         double, double *, int);
typedef void (*ssyrk_fn)(int, int, int, int, int, float, const float *, int, float, float *, int);
typedef void (*dsyrk_fn)(int, int, int, int, int, double, const double *, int, double, double *, int);
typedef ssymm_fn ssyr2k_fn;   /* (order, uplo, trans, N, K, alpha, A, lda, B, ldb, beta, C, ldc) */
typedef dsymm_fn dsyr2k_fn;
typedef void (*strmm_fn)(int, int, int, int, int, int, int, float, const float *, int, float *, int);
typedef void (*dtrmm_fn)(int, int, int, int, int, int, int, double, const double *, int, double *, int);

/* Complex: scalars by pointer, except HERK's and HER2K's real ones. */
typedef void (*xgemm_fn)(int, int, int, int, int, int, const void *, const void *, int, const void *, int,
                         const void *, void *, int);
typedef void (*xsymm_fn)(int, int, int, int, int, const void *, const void *, int, const void *, int,
                         const void *, void *, int);
typedef xsymm_fn xsyr2k_fn;
typedef void (*xsyrk_fn)(int, int, int, int, int, const void *, const void *, int, const void *, void *, int);
typedef void (*xtrmm_fn)(int, int, int, int, int, int, int, const void *, const void *, int, void *, int);
typedef void (*cherk_fn)(int, int, int, int, int, float, const void *, int, float, void *, int);
typedef void (*zherk_fn)(int, int, int, int, int, double, const void *, int, double, void *, int);
typedef void (*cher2k_fn)(int, int, int, int, int, const void *, const void *, int, const void *, int, float,
                          void *, int);
typedef void (*zher2k_fn)(int, int, int, int, int, const void *, const void *, int, const void *, int, double,
                          void *, int);

static struct {
    void *lib;
    void *fn[4][SPEC_NALL];  /* [s, d, c, z][routine] */
} ob;

static int openblas_init(const bench_device *dev, char *version, size_t vn, char *err, size_t en)
{
    static const char *names[4][SPEC_NALL] = {
        { "cblas_sgemm", "cblas_ssymm", "cblas_ssyrk", "cblas_ssyr2k", "cblas_strmm", "cblas_strsm" },
        { "cblas_dgemm", "cblas_dsymm", "cblas_dsyrk", "cblas_dsyr2k", "cblas_dtrmm", "cblas_dtrsm" },
        { "cblas_cgemm", "cblas_csymm", "cblas_csyrk", "cblas_csyr2k", "cblas_ctrmm", "cblas_ctrsm",
          [SPEC_HEMM] = "cblas_chemm", [SPEC_HERK] = "cblas_cherk", [SPEC_HER2K] = "cblas_cher2k" },
        { "cblas_zgemm", "cblas_zsymm", "cblas_zsyrk", "cblas_zsyr2k", "cblas_ztrmm", "cblas_ztrsm",
          [SPEC_HEMM] = "cblas_zhemm", [SPEC_HERK] = "cblas_zherk", [SPEC_HER2K] = "cblas_zher2k" } };
    ob.lib = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (!ob.lib) ob.lib = dlopen("libopenblas.so", RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (!ob.lib) {
        snprintf(err, en, "cannot load libopenblas.so.0: %s", dlerror());
        return -1;
    }
    for (int d = 0; d < 4; d++)
        for (int r = 0; r < SPEC_NALL; r++)
            if (!names[d][r])
                continue;
            else if (!(ob.fn[d][r] = dlsym(ob.lib, names[d][r]))) {
                snprintf(err, en, "libopenblas lacks %s", names[d][r]);
                return -1;
            } else if (ob.fn[d][r] == dlsym(RTLD_DEFAULT, names[d][r])) {
                snprintf(err, en, "%s resolves to the global definition (gpublas3's?), not OpenBLAS's",
                         names[d][r]);
                return -1;
            }
    const char *(*config)(void) = (const char *(*)(void))dlsym(ob.lib, "openblas_get_config");
    int (*threads)(void) = (int (*)(void))dlsym(ob.lib, "openblas_get_num_threads");
    snprintf(version, vn, "%s", config ? config() : "OpenBLAS");
    if (threads) {
        size_t l = strlen(version);
        snprintf(version + l, vn - l, " threads=%d", threads());
    }
    return 0;
}

static int openblas_complex(const spec_case *c, const void *A, const void *B, void *out)
{
    void *f = ob.fn[2 + c->dbl][c->routine];
    int M = (int)c->M, N = (int)c->N, K = (int)c->K, z = c->dbl;
    int lda = (int)c->lda, ldb = (int)c->ldb, ldc = (int)c->ldc;
    size_t es = spec_elem_size(c);
    const char *a = (const char *)A + c->offA * es, *b = B ? (const char *)B + c->offB * es : NULL;
    char *y = (char *)out + (spec_output(c) == 'B' ? c->offB : c->offC) * es;
    double za[2] = { c->alpha, c->alpha_im }, zb[2] = { c->beta, c->beta_im };
    float ca[2] = { (float)za[0], (float)za[1] }, cb[2] = { (float)zb[0], (float)zb[1] };
    const void *al = z ? (const void *)za : ca, *be = z ? (const void *)zb : cb;
    switch (c->routine) {
    case SPEC_GEMM:
        ((xgemm_fn)f)(layout(c), trans(c->transA), trans(c->transB), M, N, K, al, a, lda, b, ldb, be, y, ldc);
        return 0;
    case SPEC_SYMM:
    case SPEC_HEMM: ((xsymm_fn)f)(layout(c), side(c), uplo(c), M, N, al, a, lda, b, ldb, be, y, ldc); return 0;
    case SPEC_SYRK: ((xsyrk_fn)f)(layout(c), uplo(c), trans(c->transA), N, K, al, a, lda, be, y, ldc); return 0;
    case SPEC_SYR2K:
        ((xsyr2k_fn)f)(layout(c), uplo(c), trans(c->transA), N, K, al, a, lda, b, ldb, be, y, ldc);
        return 0;
    case SPEC_HERK:
        if (z) ((zherk_fn)f)(layout(c), uplo(c), trans(c->transA), N, K, za[0], a, lda, zb[0], y, ldc);
        else ((cherk_fn)f)(layout(c), uplo(c), trans(c->transA), N, K, ca[0], a, lda, cb[0], y, ldc);
        return 0;
    case SPEC_HER2K:
        if (z) ((zher2k_fn)f)(layout(c), uplo(c), trans(c->transA), N, K, al, a, lda, b, ldb, zb[0], y, ldc);
        else ((cher2k_fn)f)(layout(c), uplo(c), trans(c->transA), N, K, al, a, lda, b, ldb, cb[0], y, ldc);
        return 0;
    case SPEC_TRMM:   /* TRSM has TRMM's arguments */
    case SPEC_TRSM:
        ((xtrmm_fn)f)(layout(c), side(c), uplo(c), trans(c->transA), diag(c), M, N, al, a, lda, y, ldb);
        return 0;
    default:
        return -1;
    }
}

static int openblas_call(const spec_case *c, const void *A, const void *B, void *out,
                         char *err, size_t en)
{
    if (c->batch > 1) { /* a batch: a loop of the single calls */
        spec_case one = *c;
        one.batch = 0;
        for (size_t p = 0; p < c->batch; p++) {
            one.offA = c->offA + p * spec_batch_stride(c, 'A');
            one.offB = c->offB + p * spec_batch_stride(c, 'B');
            one.offC = c->offC + p * spec_batch_stride(c, 'C');
            if (openblas_call(&one, A, B, out, err, en))
                return -1;
        }
        return 0;
    }
    if (c->cplx) {
        if (openblas_complex(c, A, B, out) == 0) return 0;
        snprintf(err, en, "unknown routine");
        return -1;
    }
    void *f = ob.fn[c->dbl][c->routine];
    int M = (int)c->M, N = (int)c->N, K = (int)c->K;
    int lda = (int)c->lda, ldb = (int)c->ldb, ldc = (int)c->ldc;
    const float *as = (const float *)A + c->offA, *bs = (const float *)B + c->offB;
    const double *ad = (const double *)A + c->offA, *bd = (const double *)B + c->offB;
    float *cs = (float *)out + c->offC;
    double *cd = (double *)out + c->offC;
    float fa = (float)c->alpha, fb = (float)c->beta;
    switch (c->routine) {
    case SPEC_GEMM:
        if (c->dbl) ((dgemm_fn)f)(layout(c), trans(c->transA), trans(c->transB), M, N, K, c->alpha, ad, lda, bd, ldb, c->beta, cd, ldc);
        else        ((sgemm_fn)f)(layout(c), trans(c->transA), trans(c->transB), M, N, K, fa, as, lda, bs, ldb, fb, cs, ldc);
        return 0;
    case SPEC_SYMM:
        if (c->dbl) ((dsymm_fn)f)(layout(c), side(c), uplo(c), M, N, c->alpha, ad, lda, bd, ldb, c->beta, cd, ldc);
        else        ((ssymm_fn)f)(layout(c), side(c), uplo(c), M, N, fa, as, lda, bs, ldb, fb, cs, ldc);
        return 0;
    case SPEC_SYRK:
        if (c->dbl) ((dsyrk_fn)f)(layout(c), uplo(c), trans(c->transA), N, K, c->alpha, ad, lda, c->beta, cd, ldc);
        else        ((ssyrk_fn)f)(layout(c), uplo(c), trans(c->transA), N, K, fa, as, lda, fb, cs, ldc);
        return 0;
    case SPEC_SYR2K:
        if (c->dbl) ((dsyr2k_fn)f)(layout(c), uplo(c), trans(c->transA), N, K, c->alpha, ad, lda, bd, ldb, c->beta, cd, ldc);
        else        ((ssyr2k_fn)f)(layout(c), uplo(c), trans(c->transA), N, K, fa, as, lda, bs, ldb, fb, cs, ldc);
        return 0;
    case SPEC_TRMM:   /* the output is B: `out` holds it; TRSM has TRMM's arguments */
    case SPEC_TRSM:
        if (c->dbl) ((dtrmm_fn)f)(layout(c), side(c), uplo(c), trans(c->transA), diag(c), M, N, c->alpha, ad, lda, (double *)out + c->offB, ldb);
        else        ((strmm_fn)f)(layout(c), side(c), uplo(c), trans(c->transA), diag(c), M, N, fa, as, lda, (float *)out + c->offB, ldb);
        return 0;
    default:
        snprintf(err, en, "unknown routine");
        return -1;
    }
}

static const bench_peer peers[] = {
    { "gpublas3", 1, ours_init, ours_enqueue, NULL },
    { "gpublas3-loop", 1, ours_init, loop_enqueue, NULL },
    { "clblast", 1, clblast_init, clblast_enqueue, NULL },
    { "openblas", 0, openblas_init, NULL, openblas_call },
};

const bench_peer *bench_find_peer(const char *name)
{
    for (size_t i = 0; i < sizeof peers / sizeof peers[0]; i++)
        if (strcmp(peers[i].name, name) == 0) return &peers[i];
    return NULL;
}

const char *bench_peer_names(void) { return "gpublas3, gpublas3-loop, clblast, openblas"; }

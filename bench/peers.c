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

/* --- CLBlast ------------------------------------------------------------- */
#ifdef G3B_HAVE_CLBLAST
static int clblast_init(const bench_device *dev, char *version, size_t vn, char *err, size_t en)
{
    snprintf(version, vn, "%d.%d.%d", CLBLAST_VERSION_MAJOR, CLBLAST_VERSION_MINOR, CLBLAST_VERSION_PATCH);
    return 0;
}

static CLBlastStatusCode clblast_call(const spec_case *c, cl_command_queue *q, cl_mem A, cl_mem B,
                                      cl_mem C, cl_event *ev)
{
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

static struct {
    void *lib;
    void *fn[2][SPEC_NROUTINES];  /* [dbl][routine] */
} ob;

static int openblas_init(const bench_device *dev, char *version, size_t vn, char *err, size_t en)
{
    static const char *names[2][SPEC_NROUTINES] = {
        { "cblas_sgemm", "cblas_ssymm", "cblas_ssyrk", "cblas_ssyr2k", "cblas_strmm", "cblas_strsm" },
        { "cblas_dgemm", "cblas_dsymm", "cblas_dsyrk", "cblas_dsyr2k", "cblas_dtrmm", "cblas_dtrsm" } };
    ob.lib = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (!ob.lib) ob.lib = dlopen("libopenblas.so", RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (!ob.lib) {
        snprintf(err, en, "cannot load libopenblas.so.0: %s", dlerror());
        return -1;
    }
    for (int d = 0; d < 2; d++)
        for (int r = 0; r < SPEC_NROUTINES; r++)
            if (!(ob.fn[d][r] = dlsym(ob.lib, names[d][r]))) {
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

static int openblas_call(const spec_case *c, const void *A, const void *B, void *out,
                         char *err, size_t en)
{
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
    { "clblast", 1, clblast_init, clblast_enqueue, NULL },
    { "openblas", 0, openblas_init, NULL, openblas_call },
};

const bench_peer *bench_find_peer(const char *name)
{
    for (size_t i = 0; i < sizeof peers / sizeof peers[0]; i++)
        if (strcmp(peers[i].name, name) == 0) return &peers[i];
    return NULL;
}

const char *bench_peer_names(void) { return "gpublas3, clblast, openblas"; }

/* SPDX-License-Identifier: BSD-3-Clause */
/* The host BLAS the drop-ins defer to for calls too small to pay for the
 * trip to the device (and for calls no device can run), the first of:
 *  1. the library GPUBLAS3_CPU_BLAS names, dlopen'd RTLD_LOCAL so that its
 *     names never shadow ours (`none`: no host BLAS, every call to the
 *     device);
 *  2. the next library in the process that defines the same Fortran name
 *     (dlsym(RTLD_NEXT)), as under LD_PRELOAD, where the program's own
 *     libblas.so.3 is still loaded;
 *  3. the system's BLAS by its usual sonames, libopenblas.so.0 then
 *     libblas.so.3, dlopen'd RTLD_LOCAL: a program linked
 *     `-lgpublas3 -lopenblas` under the linker's default --as-needed has
 *     no OpenBLAS loaded (it calls nothing only OpenBLAS defines).
 * gpublas3 never links a CPU BLAS.  GPUBLAS3_VERBOSE says which was taken.
 *
 * Only Fortran names are looked up: a cblas_ call has become a
 * column-major g3d_call by the time it gets here, which is a Fortran call.
 * A name that resolves to gpublas3 itself (this copy, or another copy of
 * the library loaded under another name, e.g. as libblas.so.3) is no host
 * BLAS: calling it would come back here. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dropin.h"

/* The Fortran name of each routine in each of its types: S, D, C, Z, then
 * the Hermitian C, Z (HEMM, HERK, HER2K on the SYMM, SYRK, SYR2K rows). */
enum { NTYPES = 6 };
static const char *const fortran_names[][NTYPES] = {
    [G3D_GEMM] = { "sgemm_", "dgemm_", "cgemm_", "zgemm_" },
    [G3D_SYMM] = { "ssymm_", "dsymm_", "csymm_", "zsymm_", "chemm_", "zhemm_" },
    [G3D_SYRK] = { "ssyrk_", "dsyrk_", "csyrk_", "zsyrk_", "cherk_", "zherk_" },
    [G3D_SYR2K] = { "ssyr2k_", "dsyr2k_", "csyr2k_", "zsyr2k_", "cher2k_", "zher2k_" },
    [G3D_TRMM] = { "strmm_", "dtrmm_", "ctrmm_", "ztrmm_" },
    [G3D_TRSM] = { "strsm_", "dtrsm_", "ctrsm_", "ztrsm_" },
};
enum { NROUTINES = sizeof fortran_names / sizeof fortran_names[0] };

/* c's column of fortran_names. */
static int type_of(const g3d_call *c)
{
    return (c->dbl != 0) + (c->cplx ? (c->herm ? 4 : 2) : 0);
}

/* Reference BLAS's signatures with the hidden lengths of the option
 * letters (size_t, one per letter), which gfortran-built BLAS may read. */
typedef void gemm_fn(const char *, const char *, const int *, const int *, const int *, const void *,
                     const void *, const int *, const void *, const int *, const void *, void *, const int *,
                     size_t, size_t);
typedef void symm_fn(const char *, const char *, const int *, const int *, const void *, const void *,
                     const int *, const void *, const int *, const void *, void *, const int *, size_t, size_t);
typedef void syrk_fn(const char *, const char *, const int *, const int *, const void *, const void *,
                     const int *, const void *, void *, const int *, size_t, size_t);
typedef void syr2k_fn(const char *, const char *, const int *, const int *, const void *, const void *,
                      const int *, const void *, const int *, const void *, void *, const int *, size_t, size_t);
/* TRMM's, and TRSM's */
typedef void trmm_fn(const char *, const char *, const char *, const char *, const int *, const int *,
                     const void *, const void *, const int *, void *, const int *, size_t, size_t, size_t, size_t);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static void *fns[NROUTINES][NTYPES];
static char where[512];

/* Is the function at f part of gpublas3 (this copy or another)? */
static int ours(void *f)
{
    Dl_info at, self;
    if (!dladdr(f, &at) || !dladdr((void *)ours, &self))
        return 1;
    if (at.dli_fbase == self.dli_fbase)
        return 1;
    void *h = at.dli_fname ? dlopen(at.dli_fname, RTLD_LAZY | RTLD_NOLOAD) : NULL;
    int copy = h && dlsym(h, "gpublas3GetVersion") != NULL;
    if (h)
        dlclose(h);
    return copy;
}

/* Takes every routine lib (or, NULL, the next library) defines and that
 * is not ours; the number taken. */
static int take(void *lib)
{
    int n = 0;
    for (int r = 0; r < NROUTINES; r++)
        for (int d = 0; d < NTYPES; d++) {
            if (!fortran_names[r][d])
                continue;
            void *f = lib ? dlsym(lib, fortran_names[r][d]) : dlsym(RTLD_NEXT, fortran_names[r][d]);
            fns[r][d] = f && !ours(f) ? f : NULL;
            Dl_info at;
            if (fns[r][d] && !n++ && dladdr(f, &at) && at.dli_fname)
                snprintf(where, sizeof where, "%s", at.dli_fname);
        }
    return n;
}

static void find(void)
{
    static const char *const sonames[] = { "libopenblas.so.0", "libblas.so.3" };
    const char *path = getenv("GPUBLAS3_CPU_BLAS"), *how = NULL;
    if (path && strcmp(path, "none") == 0) {
        how = "GPUBLAS3_CPU_BLAS=none";
    } else if (path && *path) {
        void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (!lib)
            fprintf(stderr, "gpublas3: GPUBLAS3_CPU_BLAS=%s cannot be loaded (%s); no host BLAS\n", path, dlerror());
        else if (!take(lib))
            fprintf(stderr, "gpublas3: GPUBLAS3_CPU_BLAS=%s defines no BLAS routine gpublas3 has\n", path);
        else
            how = "GPUBLAS3_CPU_BLAS";
    } else if (take(NULL)) {
        how = "the next library defining the same names";
    } else {
        for (size_t i = 0; i < sizeof sonames / sizeof sonames[0] && !how; i++) {
            void *lib = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
            if (lib && take(lib))
                how = sonames[i];
            else if (lib)
                dlclose(lib); /* gpublas3 itself under that soname, or no BLAS routine */
        }
    }
    /* read here, not through host.c, which would open OpenCL before the
     * host BLAS's rate is timed (host_rate.c) */
    const char *verbose = getenv("GPUBLAS3_VERBOSE");
    if (verbose && *verbose && strcmp(verbose, "0") != 0) {
        if (how && where[0])
            fprintf(stderr, "gpublas3: host BLAS for small calls: %s (%s)\n", where, how);
        else
            fprintf(stderr, "gpublas3: host BLAS for small calls: none (%s): every call to the device\n",
                    how ? how : path && *path ? "GPUBLAS3_CPU_BLAS unusable" : "none found");
    }
}

int g3b_have(const g3d_call *c)
{
    pthread_once(&once, find);
    return (unsigned)c->routine < NROUTINES && fns[c->routine][type_of(c)] != NULL;
}

const char *g3b_name(void)
{
    pthread_once(&once, find);
    return where[0] ? where : "none";
}

void g3b_run(const g3d_call *c)
{
    void *f = fns[c->routine][type_of(c)];
    /* Scalars by pointer in the routine's type: {re, im} pairs for complex
     * ones; a real scalar (every real type's, HERK's alpha and beta, HER2K's
     * beta) is the first of its pair. */
    float fa[2] = { (float)c->alpha, (float)c->alpha_im }, fb[2] = { (float)c->beta, (float)c->beta_im };
    double da[2] = { c->alpha, c->alpha_im }, db[2] = { c->beta, c->beta_im };
    const void *al = c->dbl ? (const void *)da : (const void *)fa;
    const void *be = c->dbl ? (const void *)db : (const void *)fb;
    switch (c->routine) {
    case G3D_GEMM:
        ((gemm_fn *)f)(&c->trans, &c->transb, &c->m, &c->n, &c->k, al, c->a, &c->lda, c->b, &c->ldb, be, c->c,
                       &c->ldc, 1, 1);
        break;
    case G3D_SYMM:
        ((symm_fn *)f)(&c->side, &c->uplo, &c->m, &c->n, al, c->a, &c->lda, c->b, &c->ldb, be, c->c, &c->ldc, 1, 1);
        break;
    case G3D_SYRK:
        ((syrk_fn *)f)(&c->uplo, &c->trans, &c->n, &c->k, al, c->a, &c->lda, be, c->c, &c->ldc, 1, 1);
        break;
    case G3D_SYR2K:
        ((syr2k_fn *)f)(&c->uplo, &c->trans, &c->n, &c->k, al, c->a, &c->lda, c->b, &c->ldb, be, c->c, &c->ldc,
                        1, 1);
        break;
    case G3D_TRMM:
    case G3D_TRSM:
        ((trmm_fn *)f)(&c->side, &c->uplo, &c->trans, &c->diag, &c->m, &c->n, al, c->a, &c->lda, c->c, &c->ldc,
                       1, 1, 1, 1);
        break;
    }
}

/* The Fortran-style drop-ins (sgemm_ ... dtrmm_, strsm_, dtrsm_): reference BLAS's
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

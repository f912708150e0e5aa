/* SPDX-License-Identifier: BSD-3-Clause */
/* Batched GEMM drop-ins under oneMKL's names: {s,d,c,z}gemm_batch_strided_
 * (every argument by reference) and cblas_{s,d,c,z}gemm_batch_strided.
 * Checks: GEMM's (g3d_check) on one product, then the strides (stridea,
 * strideb >= 0, stridec >= ldc*n when batch_size > 1, so that the outputs
 * do not overlap) and batch_size >= 0; the first bad argument by position
 * goes to xerbla_ ("SGEMM_BATCH_STRIDED") or cblas_xerbla (layout 1, the
 * rest one further), as for the other drop-ins.
 * The crossover (crossover.c) decides for the whole batch, priced as one
 * GEMM of its total flops (n * batch_size columns): the host BLAS runs it
 * as a loop of its ?gemm, the device as one gpublas3?gemmStridedBatched on
 * the spans of A, B and C copied in and C copied back (elements between
 * products go back as they came).  No device, or a device that fails:
 * the loop, product by product through the single drop-in's run. */
#include <limits.h>
#include <stdio.h>
#include "gpublas3.h"
#include "gpublas3_blas.h"
#include "dropin.h"
#include "host.h"

/* product p of the batch (strides in elements) */
static g3d_call product(const g3d_call *c, const long long s[3], int p)
{
    g3d_call x = *c;
    size_t es = g3d_elem_size(c);
    x.a = (const char *)c->a + (size_t)(s[0] * p) * es;
    x.b = (const char *)c->b + (size_t)(s[1] * p) * es;
    x.c = (char *)c->c + (size_t)(s[2] * p) * es;
    return x;
}

/* elements from the first of count matrices (rows x cols, ld) `stride` apart to past the last */
static size_t span(int rows, int cols, int ld, long long stride, int count)
{
    if (rows == 0 || cols == 0 || count == 0)
        return 0;
    return (size_t)stride * (size_t)(count - 1) + (size_t)(cols - 1) * (size_t)ld + (size_t)rows;
}

static gpublas3Transpose trans_of(char t) { return t == 'N' ? gpublas3NoTrans : t == 'T' ? gpublas3Trans : gpublas3ConjTrans; }

static gpublas3Status strided(const g3d_call *c, cl_mem A, cl_mem B, cl_mem C, const long long s[3], int count,
                              cl_command_queue q)
{
    gpublas3Order o = gpublas3ColumnMajor;
    gpublas3Transpose ta = trans_of(c->trans), tb = trans_of(c->transb);
    size_t m = (size_t)c->m, n = (size_t)c->n, k = (size_t)c->k, lda = (size_t)c->lda, ldb = (size_t)c->ldb;
    size_t ldc = (size_t)c->ldc, sa = (size_t)s[0], sb = (size_t)s[1], sc = (size_t)s[2], b = (size_t)count;
    if (c->cplx && c->dbl)
        return gpublas3ZgemmStridedBatched(o, ta, tb, m, n, k, (cl_double2){ { c->alpha, c->alpha_im } }, A, 0, lda, sa,
                                           B, 0, ldb, sb, (cl_double2){ { c->beta, c->beta_im } }, C, 0, ldc, sc, b, 1,
                                           &q, 0, NULL, NULL);
    if (c->cplx)
        return gpublas3CgemmStridedBatched(o, ta, tb, m, n, k,
                                           (cl_float2){ { (cl_float)c->alpha, (cl_float)c->alpha_im } }, A, 0, lda, sa,
                                           B, 0, ldb, sb, (cl_float2){ { (cl_float)c->beta, (cl_float)c->beta_im } }, C,
                                           0, ldc, sc, b, 1, &q, 0, NULL, NULL);
    if (c->dbl)
        return gpublas3DgemmStridedBatched(o, ta, tb, m, n, k, c->alpha, A, 0, lda, sa, B, 0, ldb, sb, c->beta, C, 0,
                                           ldc, sc, b, 1, &q, 0, NULL, NULL);
    return gpublas3SgemmStridedBatched(o, ta, tb, m, n, k, (cl_float)c->alpha, A, 0, lda, sa, B, 0, ldb, sb,
                                       (cl_float)c->beta, C, 0, ldc, sc, b, 1, &q, 0, NULL, NULL);
}

/* The whole batch on the device; 0 when no device could finish it (C untouched). */
static int on_device(const g3d_call *c, const long long s[3], int count, const char *name)
{
    int ra, ca, rb, cb;
    g3d_stored(c, 'A', &ra, &ca);
    g3d_stored(c, 'B', &rb, &cb);
    size_t es = g3d_elem_size(c);
    size_t bytes[3] = { span(ra, ca, c->lda, s[0], count) * es, span(rb, cb, c->ldb, s[1], count) * es,
                        span(c->m, c->n, c->ldc, s[2], count) * es };
    const void *host[3] = { c->a, c->b, c->c };
    unsigned skip = 0;
    for (;;) {
        g3h_slot *slot = g3h_acquire(c->dbl, skip, name);
        if (!slot)
            return 0;
        cl_command_queue q = slot->q[G3H_RUN];
        cl_mem m[3] = { NULL, NULL, NULL };
        cl_int err = CL_SUCCESS;
        for (int i = 0; i < 3 && err == CL_SUCCESS; i++) {
            m[i] = g3h_devbuf_get(slot, i, bytes[i] ? bytes[i] : es, &err);
            if (err == CL_SUCCESS && bytes[i])
                err = clEnqueueWriteBuffer(q, m[i], CL_FALSE, 0, bytes[i], host[i], 0, NULL, NULL);
        }
        if (err == CL_SUCCESS)
            err = strided(c, m[0], m[1], m[2], s, count, q);
        if (err == CL_SUCCESS)
            err = clEnqueueReadBuffer(q, m[2], CL_TRUE, 0, bytes[2], c->c, 0, NULL, NULL);
        if (err == CL_SUCCESS) {
            g3h_release(slot);
            return 1;
        }
        clFinish(q);
        skip |= g3h_failed(slot, c->dbl, name, err);
    }
}

static void run(const g3d_call *c, const long long s[3], int count, const char *name)
{
    if (count == 0 || c->m == 0 || c->n == 0 || ((c->k == 0 || (c->alpha == 0 && c->alpha_im == 0)) &&
                                                    c->beta == 1 && c->beta_im == 0))
        return;
    if (c->k == 0 || (c->alpha == 0 && c->alpha_im == 0)) { /* C <- beta*C on the host, as reference BLAS */
        for (int p = 0; p < count; p++) {
            g3d_call x = product(c, s, p);
            g3d_host_scale(&x);
        }
        return;
    }
    int to_device = 1;
    if (g3b_have(c)) {
        /* the crossover on the batch's total flops: n * count columns */
        g3d_call whole = *c;
        whole.n = (long long)c->n * count > INT_MAX ? INT_MAX : c->n * count;
        double t[2];
        char why[640];
        to_device = g3x_to_device(&whole, t, why, sizeof why);
        if (g3h_verbose())
            fprintf(stderr, "gpublas3: %s m=%d n=%d k=%d batch=%d to the %s: %s\n", name, c->m, c->n, c->k, count,
                    to_device ? "device" : "host BLAS", why);
        if (!to_device) {
            for (int p = 0; p < count; p++) {
                g3d_call x = product(c, s, p);
                g3b_run(&x);
            }
            return;
        }
    } else if (g3h_verbose()) {
        fprintf(stderr, "gpublas3: %s m=%d n=%d k=%d batch=%d to the device: no host BLAS\n", name, c->m, c->n, c->k,
                count);
    }
    if (on_device(c, s, count, name))
        return;
    for (int p = 0; p < count; p++) { /* no device: product by product, wherever the single call runs */
        g3d_call x = product(c, s, p);
        g3d_run(&x);
    }
}

/* GEMM's check, then the batch's; the first bad position (Fortran numbering), 0 if none. */
static int check(g3d_call *c, int stridea, int strideb, int stridec, int count)
{
    static const int pos[14] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 11, 12, 15 }; /* GEMM's -> the batch's */
    int info = g3d_check(c), p = info > 0 && info < 14 ? pos[info] : info;
    int q = stridea < 0 ? 9 : strideb < 0 ? 12 : 0;
    if (!q && count > 1 && !p && (long long)stridec < (long long)c->ldc * c->n)
        q = 16;
    if (!q && count < 0)
        q = 17;
    return p && (!q || p < q) ? p : q;
}

static void fortran(g3d_call x, const char *name, int stridea, int strideb, int stridec, int count)
{
    int info = check(&x, stridea, strideb, stridec, count);
    if (info) {
        xerbla_(name, &info, 19);
        return;
    }
    run(&x, (const long long[3]){ stridea, strideb, stridec }, count, name);
}

void sgemm_batch_strided_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
                          const float *alpha, const float *a, const int *lda, const int *stridea, const float *b,
                          const int *ldb, const int *strideb, const float *beta, float *c, const int *ldc,
                          const int *stridec, const int *batch_size)
{
    g3d_call x = { .routine = G3D_GEMM, .trans = *transa, .transb = *transb, .m = *m, .n = *n, .k = *k,
                   .alpha = *alpha, .beta = *beta, .a = a, .lda = *lda, .b = b, .ldb = *ldb, .c = c, .ldc = *ldc };
    fortran(x, "SGEMM_BATCH_STRIDED", *stridea, *strideb, *stridec, *batch_size);
}

void dgemm_batch_strided_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
                          const double *alpha, const double *a, const int *lda, const int *stridea, const double *b,
                          const int *ldb, const int *strideb, const double *beta, double *c, const int *ldc,
                          const int *stridec, const int *batch_size)
{
    g3d_call x = { .routine = G3D_GEMM, .dbl = 1, .trans = *transa, .transb = *transb, .m = *m, .n = *n, .k = *k,
                   .alpha = *alpha, .beta = *beta, .a = a, .lda = *lda, .b = b, .ldb = *ldb, .c = c, .ldc = *ldc };
    fortran(x, "DGEMM_BATCH_STRIDED", *stridea, *strideb, *stridec, *batch_size);
}

void cgemm_batch_strided_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
                          const void *alpha, const void *a, const int *lda, const int *stridea, const void *b,
                          const int *ldb, const int *strideb, const void *beta, void *c, const int *ldc,
                          const int *stridec, const int *batch_size)
{
    const float *al = alpha, *be = beta;
    g3d_call x = { .routine = G3D_GEMM, .cplx = 1, .trans = *transa, .transb = *transb, .m = *m, .n = *n, .k = *k,
                   .alpha = al[0], .alpha_im = al[1], .beta = be[0], .beta_im = be[1], .a = a, .lda = *lda, .b = b,
                   .ldb = *ldb, .c = c, .ldc = *ldc };
    fortran(x, "CGEMM_BATCH_STRIDED", *stridea, *strideb, *stridec, *batch_size);
}

void zgemm_batch_strided_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
                          const void *alpha, const void *a, const int *lda, const int *stridea, const void *b,
                          const int *ldb, const int *strideb, const void *beta, void *c, const int *ldc,
                          const int *stridec, const int *batch_size)
{
    const double *al = alpha, *be = beta;
    g3d_call x = { .routine = G3D_GEMM, .dbl = 1, .cplx = 1, .trans = *transa, .transb = *transb, .m = *m, .n = *n,
                   .k = *k, .alpha = al[0], .alpha_im = al[1], .beta = be[0], .beta_im = be[1], .a = a, .lda = *lda,
                   .b = b, .ldb = *ldb, .c = c, .ldc = *ldc };
    fortran(x, "ZGEMM_BATCH_STRIDED", *stridea, *strideb, *stridec, *batch_size);
}

/* CBLAS: a row-major batch is the column-major batch of the transposes
 * (A and B swap with their strides, m and n swap), as cblas.c does. */
static void cblas(g3d_call t, const char *rout, int layout, int ta, int tb, int m, int n, int k, const void *a,
                  int lda, int stridea, const void *b, int ldb, int strideb, void *c, int ldc, int stridec, int count)
{
    int row = g3d_cblas_layout(layout, rout);
    if (row < 0)
        return;
    char la = g3d_cblas_trans(ta), lb = g3d_cblas_trans(tb);
    if (!la) {
        g3d_cblas_report(row, 2, rout, "Illegal transa setting, %d\n", ta);
        return;
    }
    if (!lb) {
        g3d_cblas_report(row, 3, rout, "Illegal transb setting, %d\n", tb);
        return;
    }
    g3d_call x = g3d_cblas_gemm(t, row, la, lb, m, n, k, a, lda, b, ldb, c, ldc);
    int sa = row ? strideb : stridea, sb = row ? stridea : strideb, info = check(&x, sa, sb, stridec, count);
    if (info) {
        g3d_cblas_report(row, info + 1, rout, "", 0);
        return;
    }
    run(&x, (const long long[3]){ sa, sb, stridec }, count, rout);
}

void cblas_sgemm_batch_strided(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE transa, CBLAS_TRANSPOSE transb, const int m,
                               const int n, const int k, const float alpha, const float *a, const int lda,
                               const int stridea, const float *b, const int ldb, const int strideb, const float beta,
                               float *c, const int ldc, const int stridec, const int batch_size)
{
    cblas((g3d_call){ .alpha = alpha, .beta = beta }, "cblas_sgemm_batch_strided", layout, transa, transb, m, n, k,
          a, lda, stridea, b, ldb, strideb, c, ldc, stridec, batch_size);
}

void cblas_dgemm_batch_strided(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE transa, CBLAS_TRANSPOSE transb, const int m,
                               const int n, const int k, const double alpha, const double *a, const int lda,
                               const int stridea, const double *b, const int ldb, const int strideb,
                               const double beta, double *c, const int ldc, const int stridec, const int batch_size)
{
    cblas((g3d_call){ .dbl = 1, .alpha = alpha, .beta = beta }, "cblas_dgemm_batch_strided", layout, transa, transb,
          m, n, k, a, lda, stridea, b, ldb, strideb, c, ldc, stridec, batch_size);
}

void cblas_cgemm_batch_strided(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE transa, CBLAS_TRANSPOSE transb, const int m,
                               const int n, const int k, const void *alpha, const void *a, const int lda,
                               const int stridea, const void *b, const int ldb, const int strideb, const void *beta,
                               void *c, const int ldc, const int stridec, const int batch_size)
{
    const float *al = alpha, *be = beta;
    cblas((g3d_call){ .cplx = 1, .alpha = al[0], .alpha_im = al[1], .beta = be[0], .beta_im = be[1] },
          "cblas_cgemm_batch_strided", layout, transa, transb, m, n, k, a, lda, stridea, b, ldb, strideb, c, ldc,
          stridec, batch_size);
}

void cblas_zgemm_batch_strided(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE transa, CBLAS_TRANSPOSE transb, const int m,
                               const int n, const int k, const void *alpha, const void *a, const int lda,
                               const int stridea, const void *b, const int ldb, const int strideb, const void *beta,
                               void *c, const int ldc, const int stridec, const int batch_size)
{
    const double *al = alpha, *be = beta;
    cblas((g3d_call){ .dbl = 1, .cplx = 1, .alpha = al[0], .alpha_im = al[1], .beta = be[0], .beta_im = be[1] },
          "cblas_zgemm_batch_strided", layout, transa, transb, m, n, k, a, lda, stridea, b, ldb, strideb, c, ldc,
          stridec, batch_size);
}

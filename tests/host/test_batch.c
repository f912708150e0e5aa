/* SPDX-License-Identifier: BSD-3-Clause */
/* The batched GEMM drop-ins (cblas_?gemm_batch_strided, ?gemm_batch_strided_)
 * against OpenBLAS product by product, in S, D, C, Z, both layouts, several
 * op pairs, a shared A (stride 0), batch sizes 0, 1 and 5; everything
 * between the products must keep its bits.  argv[1] names the side the
 * crossover must choose ("device" under GPUBLAS3_CROSSOVER=0, "host BLAS"
 * under a huge value), read from GPUBLAS3_VERBOSE's lines.  Then bad
 * arguments: xerbla_ gets the batch's position, nothing is touched. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "gpublas3_blas.h"
#include "dropin_test.h"

static const char *side;

static double rnd(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (double)(*s >> 8 & 0xffff) / 32768.0 - 1;
}

static size_t es(const spec_case *c) { return spec_elem_size(c); }
static double get(const spec_case *c, const void *p, size_t k)
{
    return c->dbl ? ((const double *)p)[k] : ((const float *)p)[k];
}
static void put(const spec_case *c, void *p, size_t k, double v)
{
    if (c->dbl) ((double *)p)[k] = v;
    else ((float *)p)[k] = (float)v;
}

static int lines(const spec_case *c, char w)
{
    size_t r, k;
    spec_dims(c, w, &r, &k);
    return (int)(c->order == gpublas3RowMajor ? r : k);
}

/* One batch through cblas (or Fortran: column-major only), judged; returns failures. */
static int run_case(spec_case c, int count, int shared_a, int fortran, unsigned seed)
{
    spec_complete(&c);
    const int ld[3] = { (int)c.lda, (int)c.ldb, (int)c.ldc };
    int stride[3], n[3];
    for (int i = 0; i < 3; i++) {
        stride[i] = lines(&c, "ABC"[i]) * ld[i] + 2;
        n[i] = (count ? count : 1) * stride[i] + 5;
    }
    if (shared_a)
        stride[0] = 0;
    size_t cc = c.cplx ? 2 : 1;
    void *h[3], *before = malloc(n[2] * es(&c)), *ref = malloc(n[2] * es(&c));
    for (int i = 0; i < 3; i++) {
        h[i] = malloc(n[i] * es(&c));
        for (size_t k = 0; k < n[i] * cc; k++)
            put(&c, h[i], k, rnd(&seed));
    }
    memcpy(before, h[2], n[2] * es(&c));
    memcpy(ref, h[2], n[2] * es(&c));
    for (int p = 0; p < count; p++) {
        spec_case q = c;
        q.offA = (size_t)(p * stride[0]);
        q.offB = (size_t)(p * stride[1]);
        q.offC = (size_t)(p * stride[2]);
        spec_reference(&q, h[0], h[1], ref);
    }
    int lay = c.order == gpublas3RowMajor ? CblasRowMajor : CblasColMajor;
    int ta = c.transA == gpublas3NoTrans ? CblasNoTrans : c.transA == gpublas3Trans ? CblasTrans : CblasConjTrans;
    int tb = c.transB == gpublas3NoTrans ? CblasNoTrans : c.transB == gpublas3Trans ? CblasTrans : CblasConjTrans;
    char fa = "NTC"[c.transA - gpublas3NoTrans], fb = "NTC"[c.transB - gpublas3NoTrans];
    int M = (int)c.M, N = (int)c.N, K = (int)c.K;
    float sal[2] = { (float)c.alpha, (float)c.alpha_im }, sbe[2] = { (float)c.beta, (float)c.beta_im };
    double dal[2] = { c.alpha, c.alpha_im }, dbe[2] = { c.beta, c.beta_im };
    int t = c.dbl + 2 * c.cplx;
    if (fortran) {
        if (t == 0) sgemm_batch_strided_(&fa, &fb, &M, &N, &K, sal, h[0], &ld[0], &stride[0], h[1], &ld[1], &stride[1], sbe, h[2], &ld[2], &stride[2], &count);
        if (t == 1) dgemm_batch_strided_(&fa, &fb, &M, &N, &K, dal, h[0], &ld[0], &stride[0], h[1], &ld[1], &stride[1], dbe, h[2], &ld[2], &stride[2], &count);
        if (t == 2) cgemm_batch_strided_(&fa, &fb, &M, &N, &K, sal, h[0], &ld[0], &stride[0], h[1], &ld[1], &stride[1], sbe, h[2], &ld[2], &stride[2], &count);
        if (t == 3) zgemm_batch_strided_(&fa, &fb, &M, &N, &K, dal, h[0], &ld[0], &stride[0], h[1], &ld[1], &stride[1], dbe, h[2], &ld[2], &stride[2], &count);
    } else {
        if (t == 0) cblas_sgemm_batch_strided(lay, ta, tb, M, N, K, sal[0], h[0], ld[0], stride[0], h[1], ld[1], stride[1], sbe[0], h[2], ld[2], stride[2], count);
        if (t == 1) cblas_dgemm_batch_strided(lay, ta, tb, M, N, K, dal[0], h[0], ld[0], stride[0], h[1], ld[1], stride[1], dbe[0], h[2], ld[2], stride[2], count);
        if (t == 2) cblas_cgemm_batch_strided(lay, ta, tb, M, N, K, sal, h[0], ld[0], stride[0], h[1], ld[1], stride[1], sbe, h[2], ld[2], stride[2], count);
        if (t == 3) cblas_zgemm_batch_strided(lay, ta, tb, M, N, K, dal, h[0], ld[0], stride[0], h[1], ld[1], stride[1], dbe, h[2], ld[2], stride[2], count);
    }
    double eps = c.dbl ? DBL_EPSILON : FLT_EPSILON;
    double tol = 4 * (K + 2) * eps * (4 * (fabs(c.alpha) + fabs(c.alpha_im)) * K + 4 * (fabs(c.beta) + fabs(c.beta_im)) + 1);
    int bad = 0;
    for (size_t k = 0; k < n[2] * cc && !bad; k++) {
        double g = get(&c, h[2], k), r = get(&c, ref, k);
        if (!(fabs(g - r) <= tol)) {
            char desc[200];
            spec_describe(&c, desc, sizeof desc);
            fprintf(stderr, "%s batch %d (%s): C[%zu] = %g, expected %g\n", desc, count, fortran ? "Fortran" : "CBLAS",
                    k, g, r);
            bad = 1;
        }
    }
    for (int i = 0; i < 3; i++) free(h[i]);
    free(before);
    free(ref);
    return bad;
}

static void batches(void **state)
{
    (void)state;
    int fails = 0, n = 0;
    assert_int_equal(stderr_capture(), 0);
    for (int t = 0; t < 4; t++)
        for (int o = 0; o < 2; o++)
            for (int op = 0; op < 3; op++, n++) {
                gpublas3Transpose ops[3] = { gpublas3NoTrans, gpublas3Trans, gpublas3ConjTrans };
                spec_case c = { .routine = SPEC_GEMM, .dbl = t & 1, .cplx = t >> 1,
                                .order = o ? gpublas3RowMajor : gpublas3ColumnMajor, .transA = ops[op],
                                .transB = ops[(op + 1) % 3], .M = 23, .N = 17, .K = 19, .alpha = 1.5, .beta = -0.5,
                                .alpha_im = t >> 1 ? 0.25 : 0, .beta_im = t >> 1 ? 0.5 : 0 };
                fails += run_case(c, 5, op == 2, 0, n);
                if (!o)
                    fails += run_case(c, 5, op == 1, 1, n + 50);
                if (op == 0) {
                    fails += run_case(c, 1, 0, 0, n + 100);
                    fails += run_case(c, 0, 0, 0, n + 150);
                }
            }
    char text[1 << 16];
    assert_int_equal(stderr_release(text, sizeof text), 0);
    char want[64];
    snprintf(want, sizeof want, "to the %s", side);
    int lines_batch = text_count(text, "batch="), lines_side = 0;
    for (const char *p = text; (p = strstr(p, "batch=")); p++) {
        const char *end = strchr(p, '\n'), *w = strstr(p, want);
        lines_side += w && (!end || w < end);
    }
    fprintf(stderr, "%d batched calls reported, %d %s\n", lines_batch, lines_side, want);
    assert_true(lines_batch > 0);
    assert_int_equal(lines_side, lines_batch);
    assert_int_equal(fails, 0);
}

/* xerbla_ gets the batch's positions; C is untouched. */
static void bad_arguments(void **state)
{
    (void)state;
    float a[64] = { 0 }, b[64] = { 0 }, c[64], c0[64];
    for (int i = 0; i < 64; i++) c[i] = c0[i] = (float)i;
    int m = 4, n = 4, k = 4, ld = 4, s = 16, small = 15, neg = -1, cnt = 2, bad = -2;
    float one = 1;
    struct { const int *lda, *sa, *sc, *cnt; const char *want; } cases[] = {
        { &ld, &s, &small, &cnt, "number 16" },
        { &ld, &neg, &s, &cnt, "number  9" },
        { &ld, &s, &s, &bad, "number 17" },
        { &bad, &s, &s, &cnt, "number  8" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[4096];
        assert_int_equal(stderr_capture(), 0);
        sgemm_batch_strided_("N", "N", &m, &n, &k, &one, a, cases[i].lda, cases[i].sa, b, &ld, &s, &one, c, &ld,
                             cases[i].sc, cases[i].cnt);
        assert_int_equal(stderr_release(text, sizeof text), 0);
        assert_non_null(strstr(text, "SGEMM_BATCH_STRIDED"));
        assert_non_null(strstr(text, cases[i].want));
        assert_memory_equal(c, c0, sizeof c);
    }
}

int main(int argc, char **argv)
{
    side = argc > 1 ? argv[1] : "device";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(batches),
        cmocka_unit_test(bad_arguments),
    };
    return cmocka_run_group_tests_name("host batch", tests, NULL, NULL);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Tests of the judge itself, no device needed: spec_reference (OpenBLAS
 * through dlopen) must agree with plain loops written from the BLAS
 * definitions for every routine, option and order, and spec_check_n must
 * catch a wrong element, a NaN, and a write into the offset prefix, the ld
 * padding, the tail, or the other triangle of C.  If these pass, a green
 * routine test means something. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "harness.h"

static const spec_case *cur;
static const void *cur_A, *cur_B, *cur_out;

static double at(char which, size_t i, size_t j)
{
    const void *p = which == 'A' ? cur_A : which == 'B' ? cur_B : cur_out;
    size_t x = spec_index(cur, which, i, j);
    return cur->dbl ? ((const double *)p)[x] : ((const float *)p)[x];
}

/* op(A)(i, l) for each routine, read straight from the BLAS definitions. */
static double opA(size_t i, size_t l)
{
    const spec_case *c = cur;
    int t = c->transA != gpublas3NoTrans;
    switch (c->routine) {
    case SPEC_SYMM:
        return (c->uplo == gpublas3Upper) == (i <= l) ? at('A', i, l) : at('A', l, i);
    case SPEC_TRMM:
    case SPEC_TRSM: {
        size_t r = t ? l : i, k = t ? i : l;
        if (r == k && c->diag == gpublas3Unit) return 1;
        return (c->uplo == gpublas3Upper) == (r <= k) || r == k ? at('A', r, k) : 0;
    }
    default:
        return t ? at('A', l, i) : at('A', i, l);
    }
}
static double opB(size_t i, size_t l)
{
    int t = cur->routine == SPEC_GEMM ? cur->transB != gpublas3NoTrans : cur->transA != gpublas3NoTrans;
    return t ? at('B', l, i) : at('B', i, l);
}

static double naive(size_t i, size_t j)
{
    const spec_case *c = cur;
    double s = 0, beta_c = c->beta == 0 ? 0 : c->beta * at('C', i, j);
    switch (c->routine) {
    case SPEC_GEMM:
        for (size_t l = 0; l < c->K; l++) s += opA(i, l) * opB(l, j);
        return c->alpha * s + beta_c;
    case SPEC_SYMM:
        if (c->side == gpublas3Left) for (size_t l = 0; l < c->M; l++) s += opA(i, l) * at('B', l, j);
        else for (size_t l = 0; l < c->N; l++) s += at('B', i, l) * opA(l, j);
        return c->alpha * s + beta_c;
    case SPEC_SYRK:
        for (size_t l = 0; l < c->K; l++) s += opA(i, l) * opA(j, l);
        return c->alpha * s + beta_c;
    case SPEC_SYR2K:
        for (size_t l = 0; l < c->K; l++) s += opA(i, l) * opB(j, l) + opB(i, l) * opA(j, l);
        return c->alpha * s + beta_c;
    case SPEC_TRMM:
    case SPEC_TRSM: /* TRSM: op(A) X or X op(A), X the reference given as B */
        if (c->side == gpublas3Left) for (size_t l = 0; l < c->M; l++) s += opA(i, l) * at('B', l, j);
        else for (size_t l = 0; l < c->N; l++) s += at('B', i, l) * opA(l, j);
        return c->routine == SPEC_TRSM ? s : c->alpha * s;
    default:
        return NAN;
    }
}

/* Reference and loops must agree to a few ulps of the magnitude involved.
 * TRSM's reference X is checked by the definition: op(A) X = alpha B. */
static int compare_with_loops(const spec_case *c0, uint64_t seed)
{
    test_data d;
    data_fill(&d, c0, seed, FILL_NAN_TRIANGLE);
    const spec_case *c = &d.c;
    int k = spec_output(c) == 'B' ? 1 : 2, bad = 0;
    size_t es = spec_elem_size(c), r, n;
    void *ref = malloc(d.n[k] * es);
    memcpy(ref, d.host[k], d.n[k] * es);
    spec_reference(c, d.host[0], d.host[1], ref);
    cur = c; cur_A = d.host[0]; cur_B = d.host[1]; cur_out = d.host[k];
    int solve = c->routine == SPEC_TRSM;
    if (solve) cur_B = ref;
    spec_dims(c, spec_output(c), &r, &n);
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < r; i++) {
            if (!spec_referenced(c, spec_output(c), i, j)) continue;
            size_t x = spec_index(c, spec_output(c), i, j);
            double want = naive(i, j), got = c->dbl ? ((double *)ref)[x] : ((float *)ref)[x];
            if (solve) got = c->alpha * (c->dbl ? ((const double *)cur_out)[x] : ((const float *)cur_out)[x]);
            if (!(fabs(got - want) <= 1e-4 * (1 + fabs(want)))) {
                char desc[256];
                spec_describe(c, desc, sizeof desc);
                print_error("%s: (%zu,%zu) reference %g, loops %g\n", desc, i, j, got, want);
                bad = 1;
                goto out;
            }
        }
out:
    free(ref);
    data_free(&d);
    return bad;
}

static void reference_matches_loops(void **state)
{
    (void)state;
    int fails = 0, n = 0;
    for (int o = 0; o < 2; o++)
        for (int t = 0; t < 3; t++)
            for (int u = 0; u < 2; u++, n++) {
                spec_case g = { SPEC_GEMM, n % 2, orders[o], .transA = transposes[t], .transB = transposes[(t + u) % 3],
                                .M = 7, .N = 5, .K = 3, .alpha = 2.5, .beta = -1, .offA = 2, .offC = 1 };
                spec_case sy = { SPEC_SYMM, 1, orders[o], sides[t % 2], uplos[u], .M = 6, .N = 5,
                                 .alpha = -1, .beta = 2.5, .offB = 3 };
                spec_case rk = { SPEC_SYRK, 0, orders[o], .uplo = uplos[u], .transA = transposes[t],
                                 .N = 6, .K = 4, .alpha = 2.5, .beta = 1 };
                spec_case r2 = rk;
                r2.routine = SPEC_SYR2K;
                r2.dbl = 1;
                fails += compare_with_loops(&g, n) + compare_with_loops(&sy, n)
                       + compare_with_loops(&rk, n) + compare_with_loops(&r2, n);
                for (int s = 0; s < 2; s++)
                    for (int dg = 0; dg < 2; dg++) {
                        spec_case tr = { SPEC_TRMM, dg, orders[o], sides[s], uplos[u], transposes[t], .diag = diags[dg],
                                         .M = 5, .N = 4, .alpha = -1, .offA = 3 };
                        fails += compare_with_loops(&tr, n);
                        tr.routine = SPEC_TRSM;
                        fails += compare_with_loops(&tr, n);
                    }
            }
    assert_int_equal(fails, 0);
}

/* Perturbs one real of a correct result (`x` indexes the output buffer's
 * reals: complex parts count apart) and judges it; the worst error over
 * its bound in *worst. */
static size_t judge_worst(const spec_case *c0, size_t x, double delta, double *worst)
{
    test_data d;
    data_fill(&d, c0, 5, 0);
    const spec_case *c = &d.c;
    int k = spec_output(c) == 'B' ? 1 : 2;
    size_t es = spec_elem_size(c), bad;
    void *ref = malloc(d.n[k] * es), *got = malloc(d.n[k] * es);
    char msg[256];
    memcpy(ref, d.host[k], d.n[k] * es);
    spec_reference(c, d.host[0], d.host[1], ref);
    memcpy(got, ref, d.n[k] * es);
    if (x != (size_t)-1) {
        if (c->dbl) ((double *)got)[x] += delta;
        else ((float *)got)[x] += (float)delta;
    }
    bad = spec_judge(c, d.host[0], d.host[1], d.host[k], got, ref, d.n[k], worst, msg, sizeof msg);
    free(ref);
    free(got);
    data_free(&d);
    return bad;
}

/* The verdict alone. */
static size_t judge_with_change(const spec_case *c0, size_t x, double delta)
{
    return judge_worst(c0, x, delta, NULL);
}

static void check_catches_faults(void **state)
{
    (void)state;
    spec_case g = { SPEC_GEMM, 0, gpublas3ColumnMajor, .transA = gpublas3NoTrans, .transB = gpublas3NoTrans,
                    .M = 5, .N = 4, .K = 30, .alpha = 1, .beta = 1, .offC = 3 };
    g = padded(g, 2); /* ldc = 7: rows 5 and 6 of each column are padding */
    assert_int_equal(judge_with_change(&g, (size_t)-1, 0), 0);        /* the reference itself passes */
    assert_int_equal(judge_with_change(&g, 3 + 7 + 2, 1e-7), 0);      /* within rounding: fine */
    assert_int_equal(judge_with_change(&g, 3 + 7 + 2, 1e-3), 1);      /* a real error */
    assert_int_equal(judge_with_change(&g, 3 + 7 + 2, NAN), 1);       /* NaN */
    assert_int_equal(judge_with_change(&g, 0, 1), 1);                 /* offset prefix */
    assert_int_equal(judge_with_change(&g, 3 + 7 + 5, 1), 1);         /* ld padding */
    assert_int_equal(judge_with_change(&g, 3 + 3 * 7 + 5, 1), 1);     /* tail after the last column */

    spec_case r = { SPEC_SYRK, 1, gpublas3RowMajor, .uplo = gpublas3Lower, .transA = gpublas3NoTrans,
                    .N = 4, .K = 3, .alpha = 1, .beta = 0 };
    spec_complete(&r);
    assert_int_equal(judge_with_change(&r, 2 * 4 + 1, 1), 1);         /* C(2,1): stored, must be right */
    assert_int_equal(judge_with_change(&r, 1 * 4 + 2, 1), 1);         /* C(1,2): upper, must not change */

    /* TRSM is judged by its residual: B(1,2) of a 6 x 4 left solve, ldb 8 */
    spec_case t = { SPEC_TRSM, 0, gpublas3ColumnMajor, gpublas3Left, gpublas3Lower, gpublas3Trans,
                    .diag = gpublas3NonUnit, .M = 6, .N = 4, .alpha = 2.5, .offB = 1 };
    t = padded(t, 2);
    assert_int_equal(judge_with_change(&t, (size_t)-1, 0), 0);
    assert_int_equal(judge_with_change(&t, 1 + 2 * 8 + 1, 1e-7), 0);
    /* an error in X(1,2) shows in the residual of every row op(A)(:,1) reaches */
    assert_true(judge_with_change(&t, 1 + 2 * 8 + 1, 1e-3) >= 1);
    assert_true(judge_with_change(&t, 1 + 2 * 8 + 1, INFINITY) >= 1);
    assert_int_equal(judge_with_change(&t, 1 + 2 * 8 + 6, 1), 1);     /* ld padding */
}

/* The worst error the bench reports: near 0 for the reference itself, and
 * growing with an error in either part of a complex element, for TRSM's
 * residual too (its bound is a sum of magnitudes, never a signed sum that
 * can vanish and make the ratio infinite). */
static void worst_error_scales(void **state)
{
    (void)state;
    spec_case g = { SPEC_GEMM, 0, gpublas3ColumnMajor, .cplx = 1, .transA = gpublas3NoTrans,
                    .transB = gpublas3ConjTrans, .M = 6, .N = 5, .K = 8, .alpha = 1.5, .alpha_im = -0.5,
                    .beta = 0.75, .beta_im = 0.25 };
    spec_case t = { SPEC_TRSM, 1, gpublas3RowMajor, gpublas3Right, gpublas3Upper, gpublas3NoTrans,
                    .diag = gpublas3NonUnit, .M = 5, .N = 7, .alpha = 2.5 };
    spec_case tz = t;
    tz.cplx = 1;
    tz.alpha_im = 1;
    spec_case *cs[] = { &g, &t, &tz };
    for (int i = 0; i < 3; i++) {
        spec_complete(cs[i]);
        double eps = cs[i]->dbl ? DBL_EPSILON : FLT_EPSILON, w0, w1, w2;
        assert_int_equal(judge_worst(cs[i], (size_t)-1, 0, &w0), 0);
        assert_true(w0 < eps);
        for (size_t part = 0; part < (cs[i]->cplx ? 2u : 1u); part++) {
            size_t x = 2 * (cs[i]->cplx ? 2 : 1) + part; /* element 2, that part */
            assert_int_equal(judge_worst(cs[i], x, 16 * eps, &w1), 0);
            assert_int_equal(judge_worst(cs[i], x, 32 * eps, &w2), 0);
            assert_true(isfinite(w2) && w1 > 2 * w0 && w2 > 1.5 * w1 && w2 < 2.5 * w1);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reference_matches_loops),
        cmocka_unit_test(check_catches_faults),
        cmocka_unit_test(worst_error_scales),
    };
    return cmocka_run_group_tests_name("spec", tests, NULL, NULL);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* TRSM: every option (side x uplo x trans, ConjTrans acting as Trans, x
 * diag x order x precision) at sizes 1, 7, 33 and 130 (over tiles of 16,
 * 32 or 64 and over the default trsm_nb of 64), offsets, padded leading
 * dimensions, alpha in {0, 1, -1, 2.5}.  Results are judged by their
 * residual (spec.h): data_fill's A is well-conditioned (spec_condition).
 * A's unread triangle (and, for a unit diagonal, its diagonal) holds
 * canaries, and in its own test NaN, which must not reach B; alpha = 0
 * must write zeros without reading NaN in A and B (these sweeps are
 * harness.c's, shared with TRMM).  Then the accuracy the
 * README promises on moderately ill-conditioned A (entries of every size),
 * judged like LAPACK's xTRT02 (normwise backward error / (n eps) < 30), and
 * a singular A, which must give infinities or NaN and nothing worse.
 * CMake runs this file again with other trsm_nb (GPUBLAS3_PARAMS). */
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

static spec_case trsm(int n, size_t M, size_t N, double alpha)
{
    return triangular_case(SPEC_TRSM, n, M, N, alpha);
}

static void all_options(void **state) { (void)state; assert_int_equal(triangular_all_options(SPEC_TRSM), 0); }
static void nan_in_unread_triangle(void **state)
{
    (void)state;
    assert_int_equal(triangular_nan_triangle(SPEC_TRSM), 0);
}
static void alpha_zero(void **state) { (void)state; assert_int_equal(triangular_alpha_zero(SPEC_TRSM), 0); }

static void larger(void **state)
{
    (void)state;
    spec_case s = padded(trsm(40, 300, 100, 2.5), 3); /* s, col, left, lower, non-unit, T */
    spec_case d = trsm(87, 61, 257, -1);              /* d, row, right, upper, unit, C */
    d.offA = 5; d.offB = 3;
    spec_case e = trsm(9, 0, 5, 1);                    /* M = 0: a quick return */
    /* kernels/trsm.cl's leaves of 769..1024 rows (4 per work-item), few
     * right-hand sides */
    spec_case l = padded(trsm(40, 1000, 9, -1), 2);    /* s, col, left, lower, non-unit, T */
    spec_case r = trsm(5, 11, 777, 2.5);               /* d, col, right, upper, non-unit, N */
    r.offA = 2;
    assert_int_equal(check_case(&s, 1, FILL_NAN_TRIANGLE) + check_case(&d, 2, FILL_NAN_TRIANGLE) +
                     check_case(&e, 3, 0) + check_case(&l, 4, FILL_NAN_TRIANGLE) + check_case(&r, 5, 0), 0);
}

/* ---- accuracy on harder matrices, and a singular one ---------------------- */

static double get(const spec_case *c, const void *p, size_t k)
{
    return c->dbl ? ((const double *)p)[k] : ((const float *)p)[k];
}
static void put(const spec_case *c, void *p, size_t k, double v)
{
    if (c->dbl) ((double *)p)[k] = v;
    else ((float *)p)[k] = (float)v;
}

/* op(A)(i, k) with the unread parts as BLAS defines them */
static double op_a(const spec_case *c, const void *A, size_t i, size_t k)
{
    size_t r = c->transA == gpublas3NoTrans ? i : k, s = c->transA == gpublas3NoTrans ? k : i;
    if (r == s && c->diag == gpublas3Unit) return 1;
    return spec_referenced(c, 'A', r, s) ? get(c, A, spec_index(c, 'A', r, s)) : 0;
}

/* Runs c on A and B (host arrays laid out as spec says) and returns LAPACK
 * xTRT02's ratio ||op(A) X - alpha B||_1 / ((||op(A)||_1 ||X||_1 + |alpha| ||B||_1) n eps),
 * every column of the left solve (row of the right one) taken alone as
 * xTRT02 does; X is left in B. */
static double backward_error(const spec_case *c, const void *A, void *B)
{
    size_t es = spec_elem_size(c), na = spec_elements(c, 'A'), nb = spec_elements(c, 'B');
    size_t n = c->side == gpublas3Left ? c->M : c->N, rhs = c->side == gpublas3Left ? c->N : c->M;
    cl_int err;
    cl_mem a = clCreateBuffer(env.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, na * es, (void *)A, &err);
    cl_mem b = clCreateBuffer(env.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, nb * es, B, &err);
    void *before = malloc(nb * es);
    memcpy(before, B, nb * es);
    cl_event ev;
    assert_int_equal(spec_run(c, env.q, a, b, NULL, 0, NULL, &ev), gpublas3Success);
    assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
    clReleaseEvent(ev);
    assert_int_equal(clEnqueueReadBuffer(env.q, b, CL_TRUE, 0, nb * es, B, 0, NULL, NULL), CL_SUCCESS);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    double anorm = 0, worst = 0;
    for (size_t k = 0; k < n; k++) {
        double s = 0;
        for (size_t i = 0; i < n; i++) s += fabs(op_a(c, A, i, k));
        anorm = s > anorm ? s : anorm;
    }
    /* left: op(A) x_j = alpha b_j for each column j; right: x_i op(A) = alpha b_i for each row */
    int left = c->side == gpublas3Left;
    for (size_t j = 0; j < rhs; j++) {
        double rnorm = 0, xnorm = 0, bnorm = 0;
        for (size_t i = 0; i < n; i++) {
            long double r = 0;
            for (size_t k = 0; k < n; k++) {
                size_t xe = left ? spec_index(c, 'B', k, j) : spec_index(c, 'B', j, k);
                r += (long double)(left ? op_a(c, A, i, k) : op_a(c, A, k, i)) * get(c, B, xe);
            }
            size_t e = left ? spec_index(c, 'B', i, j) : spec_index(c, 'B', j, i);
            r -= (long double)c->alpha * get(c, before, e);
            rnorm += fabsl(r);
            xnorm += fabs(get(c, B, e));
            bnorm += fabs(c->alpha * get(c, before, e));
        }
        double eps = c->dbl ? DBL_EPSILON : FLT_EPSILON, den = (anorm * xnorm + bnorm) * (double)n * eps;
        double ratio = isfinite(rnorm) ? rnorm / (den > 0 ? den : 1) : INFINITY;
        worst = ratio > worst ? ratio : worst;
    }
    free(before);
    return worst;
}

/* splitmix64, as the harness's data */
static double uniform(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0 * 2 - 1;
}

/* The kinds of A: 0: off-diagonal uniform in [-1, 1], |diagonal| in [1, 2]
 * (ill-conditioned: X grows along the substitution); 1: entries of every
 * size, off-diagonal u * 10^(2u') / n, diagonal 10^u'; 2: LU's L, unit
 * diagonal, |l| <= 1 (what GETRF's and GETRS's TRSMs see). */
static void make_a(const spec_case *c, void *A, int kind, uint64_t seed)
{
    size_t n = c->side == gpublas3Left ? c->M : c->N;
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < n; i++) {
            if (!spec_referenced(c, 'A', i, j)) continue;
            double u = uniform(&seed), v = uniform(&seed);
            double x = i == j ? (kind == 1 ? pow(10, v) : 1 + fabs(v)) * (u < 0 ? -1 : 1)
                              : (kind == 1 ? u * pow(10, 2 * v) / (double)n : u);
            put(c, A, spec_index(c, 'A', i, j), x);
        }
}

static void ill_conditioned(void **state)
{
    (void)state;
    int fails = 0;
    for (int n = 0; n < TRIANGULAR_COMBINATIONS; n += 5) {
        int kind = n % 3;
        spec_case c = padded(trsm(n, 200, 37, 1.5), 1);
        if (kind == 2) c.diag = gpublas3Unit;
        test_data d;
        data_fill(&d, &c, n, 0);
        make_a(&d.c, d.host[0], kind, n);
        double ratio = backward_error(&d.c, d.host[0], d.host[1]);
        if (!(ratio < 30)) {
            char desc[256];
            spec_describe(&d.c, desc, sizeof desc);
            print_error("FAIL %s, A of kind %d: backward error ratio %.3g (LAPACK's threshold 30)\n", desc, kind,
                        ratio);
            fails++;
        }
        data_free(&d);
    }
    assert_int_equal(fails, 0);
}

/* A zero on the diagonal: reference BLAS divides by it; so may we. */
static void singular(void **state)
{
    (void)state;
    for (int n = 0; n < 16; n++) {
        spec_case c = trsm(n, 90, 20, 1); /* non-unit */
        test_data d;
        data_fill(&d, &c, n, 0);
        size_t k = (c.side == gpublas3Left ? c.M : c.N) / 3;
        put(&d.c, d.host[0], spec_index(&d.c, 'A', k, k), 0);
        size_t nb = d.n[1], es = spec_elem_size(&d.c);
        cl_mem a = data_buffer(&d, 0, env.ctx), b = data_buffer(&d, 1, env.ctx);
        cl_event ev;
        assert_int_equal(spec_run(&d.c, env.q, a, b, NULL, 0, NULL, &ev), gpublas3Success);
        assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
        clReleaseEvent(ev);
        void *got = read_back(env.q, b, nb * es);
        size_t nonfinite = 0;
        for (size_t x = 0; x < nb; x++) nonfinite += !isfinite(get(&d.c, got, x));
        assert_true(nonfinite > 0);
        /* the tail past B is still the canaries */
        assert_memory_equal((char *)got + spec_elements(&d.c, 'B') * es,
                            (char *)d.host[1] + spec_elements(&d.c, 'B') * es, TEST_TAIL * es);
        free(got);
        clReleaseMemObject(a);
        clReleaseMemObject(b);
        data_free(&d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(all_options),
        cmocka_unit_test(nan_in_unread_triangle),
        cmocka_unit_test(alpha_zero),
        cmocka_unit_test(larger),
        cmocka_unit_test(ill_conditioned),
        cmocka_unit_test(singular),
    };
    return cmocka_run_group_tests_name("trsm", tests, env_open, env_close);
}

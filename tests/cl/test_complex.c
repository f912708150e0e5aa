/* SPDX-License-Identifier: BSD-3-Clause */
/* The complex routines (C, Z) against OpenBLAS's cblas_c* / cblas_z*:
 * GEMM (transA x transB with ConjTrans), SYMM and HEMM (side x uplo),
 * SYRK, HERK, SYR2K, HER2K (uplo x their valid trans: N/T symmetric, N/C
 * Hermitian), TRMM and TRSM (side x uplo x trans x diag; TRSM judged by
 * its residual, on the well-conditioned A spec_condition makes), each in both orders
 * and precisions; sizes 1, 7, 33 and across tile edges; offsets, padded
 * leading dimensions; real and complex alpha and beta, beta = 0 with NaN in
 * C, alpha = 0 with NaN in A and B, K = 0.  The harness puts NaN in the
 * imaginary part of Hermitian diagonals (HEMM's A, HERK's and HER2K's C:
 * never read) and spec_check wants it back exactly 0 in HERK's and HER2K's
 * C; NaN in the unread triangles; canaries everywhere the call must not
 * write (padding, the other triangle of C), and A and B unchanged. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "harness.h"

/* (re, im) pairs: real ones, and complex ones that exercise the folding of
 * alpha into the pack and the beta pre-pass. */
static const double alphas[4][2] = { { 1, 0 }, { -1, 0.5 }, { 2.5, -1 }, { 0, 1 } };
static const double betas[5][2] = { { 0, 0 }, { 1, 0 }, { 0.5, -1.5 }, { -1, 0 }, { 0, 2 } };

static spec_case scalars(spec_case c, int ia, int ib)
{
    c.alpha = alphas[ia % 4][0];
    c.alpha_im = c.routine == SPEC_HERK ? 0 : alphas[ia % 4][1];
    c.beta = betas[ib % 5][0];
    c.beta_im = c.routine == SPEC_HERK || c.routine == SPEC_HER2K ? 0 : betas[ib % 5][1];
    return c;
}

/* Combination n of each family. */
static spec_case gemm(int n, size_t M, size_t N, size_t K)
{
    return (spec_case){ .routine = SPEC_GEMM, .cplx = 1, .dbl = n % 2, .order = orders[n / 2 % 2],
                        .transA = transposes[n / 4 % 3], .transB = transposes[n / 12], .M = M, .N = N, .K = K };
}
static spec_case symm(int n, size_t M, size_t N)
{
    return (spec_case){ .routine = n % 2 ? SPEC_HEMM : SPEC_SYMM, .cplx = 1, .dbl = n / 2 % 2,
                        .order = orders[n / 4 % 2], .side = sides[n / 8 % 2], .uplo = uplos[n / 16], .M = M, .N = N };
}
static spec_case rank(int n, size_t N, size_t K)
{
    static const spec_routine r[4] = { SPEC_SYRK, SPEC_HERK, SPEC_SYR2K, SPEC_HER2K };
    spec_routine routine = r[n % 4];
    int herm = routine == SPEC_HERK || routine == SPEC_HER2K;
    gpublas3Transpose t = n / 32 ? (herm ? gpublas3ConjTrans : gpublas3Trans) : gpublas3NoTrans;
    return (spec_case){ .routine = routine, .cplx = 1, .dbl = n / 4 % 2, .order = orders[n / 8 % 2],
                        .uplo = uplos[n / 16 % 2], .transA = t, .N = N, .K = K };
}
static spec_case triangular(spec_routine r, int n, size_t M, size_t N)
{
    return (spec_case){ .routine = r, .cplx = 1, .dbl = n % 2, .order = orders[n / 2 % 2],
                        .side = sides[n / 4 % 2], .uplo = uplos[n / 8 % 2], .diag = diags[n / 16 % 2],
                        .transA = transposes[n / 32], .M = M, .N = N };
}
static spec_case trmm(int n, size_t M, size_t N) { return triangular(SPEC_TRMM, n, M, N); }

/* Small, padded with offsets, lopsided and over two tiles of the kernel
 * (real rows count twice: 37 complex rows are 74 real ones). */
static int sweep(spec_case (*make)(int, size_t, size_t, size_t), int combinations)
{
    int fails = 0;
    for (int n = 0; n < combinations; n++) {
        spec_case c = scalars(make(n, 1, 1, 1), n, n + 1);
        fails += check_case(&c, n, 0);
        c = padded(scalars(make(n, 7, 33, 9), n + 1, n + 2), 3);
        c.offA = 4; c.offB = 9; c.offC = 2;
        fails += check_case(&c, n + 100, 0);
        c = scalars(make(n, 33, 7, 20), n + 2, n);
        fails += check_case(&c, n + 200, 0);
        c = padded(scalars(make(n, 37, 41, 35), n + 3, n + 3), 2);
        c.offA = 3; c.offB = 5; c.offC = 1;
        fails += check_case(&c, n + 300, FILL_NAN_TRIANGLE);
    }
    return fails;
}

static spec_case gemm3(int n, size_t a, size_t b, size_t k) { return gemm(n, a, b, k); }
static spec_case symm3(int n, size_t a, size_t b, size_t k) { (void)k; return symm(n, a, b); }
static spec_case rank3(int n, size_t a, size_t b, size_t k) { (void)a; return rank(n, b, k); }
static spec_case trmm3(int n, size_t a, size_t b, size_t k) { (void)k; return trmm(n, a, b); }
/* TRSM: every third of the 96 combinations (each solve is many calls) */
static spec_case trsm3(int n, size_t a, size_t b, size_t k) { (void)k; return triangular(SPEC_TRSM, 3 * n, a, b); }

static void gemm_all(void **state) { (void)state; assert_int_equal(sweep(gemm3, 36), 0); }
static void symm_hemm_all(void **state) { (void)state; assert_int_equal(sweep(symm3, 32), 0); }
static void rank_k_all(void **state) { (void)state; assert_int_equal(sweep(rank3, 64), 0); }
static void trmm_all(void **state) { (void)state; assert_int_equal(sweep(trmm3, 96), 0); }
static void trsm_all(void **state) { (void)state; assert_int_equal(sweep(trsm3, 32), 0); }

/* alpha = 0 (A and B NaN, not read) and K = 0 with every beta: C <- beta*C
 * alone, on the triangle for the rank-k routines; HERK's and HER2K's
 * diagonal comes out real unless the call returns at once (beta = 1). */
static void scale_only(void **state)
{
    (void)state;
    int fails = 0;
    for (int n = 0; n < 64; n += 3) {
        for (int ib = 0; ib < 5; ib++) {
            spec_case c = scalars(rank(n, 13, 5), 0, ib);
            c.alpha = c.alpha_im = 0;
            fails += check_case(&c, n + ib, FILL_NAN_AB);
            c = padded(scalars(rank(n, 11, 0), n, ib), 2);
            fails += check_case(&c, n + ib + 100, 0);
            c = scalars(gemm(n % 36, 9, 6, 0), n, ib);
            fails += check_case(&c, n + ib + 200, 0);
        }
    }
    for (int n = 0; n < 96; n += 7) {
        spec_case c = scalars(trmm(n, 8, 5), 0, 0);
        c.alpha = c.alpha_im = 0;
        fails += check_case(&c, n, FILL_NAN_AB);
        c.routine = SPEC_TRSM;
        fails += check_case(&c, n + 1000, FILL_NAN_AB);
    }
    assert_int_equal(fails, 0);
}

/* Bigger than one panel of most tile sets, both precisions. */
static void larger(void **state)
{
    (void)state;
    spec_case a = padded(scalars(gemm(23, 130, 70, 90), 1, 2), 3); /* z, row, C, T */
    spec_case b = scalars(rank(55, 100, 60), 2, 3);                 /* her2k z, row, lower, C */
    spec_case c = scalars(symm(29, 90, 70), 2, 4);                  /* hemm z, col, right, lower */
    spec_case d = scalars(trmm(82, 70, 100), 1, 0);                 /* c, row, left, lower, non-unit, C */
    /* over several of TRSM's diagonal blocks (trsm_nb 64): updates and refinement */
    spec_case e = padded(scalars(triangular(SPEC_TRSM, 87, 150, 70), 2, 0), 3); /* z, row, right, lower, unit, C */
    spec_case f = scalars(triangular(SPEC_TRSM, 36, 140, 60), 1, 0);             /* c, col, left, lower, non-unit, T */
    /* kernels/trsm.cl's leaves: Z in four of 250 rows (ZTRSM's leaves stop
     * at one row a work-item, routines/plan/solve.c), its triangle read
     * across its storage (copied transposed) and conjugated (g); C in one
     * of 1000 rows (4 per work-item), along it (h) */
    spec_case g = padded(scalars(triangular(SPEC_TRSM, 73, 1000, 9), 3, 0), 2);  /* z, col, left, lower, non-unit, C */
    spec_case h = scalars(triangular(SPEC_TRSM, 44, 9, 1000), 2, 0);             /* c, col, right, lower, non-unit, T */
    assert_int_equal(check_case(&a, 1, 0) + check_case(&b, 2, 0) + check_case(&c, 3, FILL_NAN_TRIANGLE) +
                     check_case(&d, 4, FILL_NAN_TRIANGLE) + check_case(&e, 5, FILL_NAN_TRIANGLE) +
                     check_case(&f, 6, FILL_NAN_TRIANGLE) + check_case(&g, 7, FILL_NAN_TRIANGLE) +
                     check_case(&h, 8, FILL_NAN_TRIANGLE), 0);
}

/* Transposes reference BLAS refuses: ConjTrans for complex SYRK/SYR2K,
 * Trans for HERK/HER2K; and the argument checks in complex elements. */
static void bad_arguments(void **state)
{
    (void)state;
    for (int n = 0; n < 4; n++) {
        spec_case c = scalars(rank(n, 8, 4), 0, 0);
        int herm = c.routine == SPEC_HERK || c.routine == SPEC_HER2K;
        c.transA = herm ? gpublas3Trans : gpublas3ConjTrans;
        test_call t;
        case_start(&t, &c, n, 0, env.q, 0, NULL, 0);
        assert_int_equal(t.status, gpublas3InvalidValue);
        for (int k = 0; k < 3; k++)
            if (t.m[k]) clReleaseMemObject(t.m[k]);
        data_free(&t.d);
    }
    /* a buffer sized in real elements is too small for as many complex ones */
    spec_case c = scalars(gemm(1, 6, 5, 4), 1, 1);
    spec_complete(&c);
    cl_int err;
    size_t na = spec_elements(&c, 'A'), nb = spec_elements(&c, 'B'), nc = spec_elements(&c, 'C');
    cl_mem A = clCreateBuffer(env.ctx, CL_MEM_READ_WRITE, na * 8, NULL, &err);
    cl_mem B = clCreateBuffer(env.ctx, CL_MEM_READ_WRITE, nb * 16, NULL, &err);
    cl_mem C = clCreateBuffer(env.ctx, CL_MEM_READ_WRITE, nc * 16, NULL, &err);
    assert_int_equal(spec_run(&c, env.q, A, B, C, 0, NULL, NULL), gpublas3InsufficientMemMatA);
    c.ldc = c.M - 1;
    assert_int_equal(spec_run(&c, env.q, C, C, C, 0, NULL, NULL), gpublas3InvalidLeadDimC);
    clReleaseMemObject(A);
    clReleaseMemObject(B);
    clReleaseMemObject(C);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gemm_all),
        cmocka_unit_test(symm_hemm_all),
        cmocka_unit_test(rank_k_all),
        cmocka_unit_test(trmm_all),
        cmocka_unit_test(trsm_all),
        cmocka_unit_test(scale_only),
        cmocka_unit_test(larger),
        cmocka_unit_test(bad_arguments),
    };
    return cmocka_run_group_tests_name("complex", tests, env_open, env_close);
}

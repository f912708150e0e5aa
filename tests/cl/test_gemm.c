/* SPDX-License-Identifier: BSD-3-Clause */
/* GEMM results against OpenBLAS: every order x transA x transB (ConjTrans
 * included, which must act as Trans) in both precisions, sizes 1, primes and
 * non-multiples of any tile (7, 13, 33, 127, 300), offsets, leading
 * dimensions beyond the rows, alpha and beta in {0, 1, -1, 2.5}, K = 0,
 * alpha = 0 with NaN in A and B, and NaN in C with beta = 0.  Every case also
 * proves, through check_case, that the canaries around and between the
 * columns of C and the whole of A and B come back bit-identical. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "harness.h"

static spec_case gemm(int dbl, gpublas3Order o, gpublas3Transpose ta, gpublas3Transpose tb,
                      size_t M, size_t N, size_t K, double alpha, double beta)
{
    spec_case c = { .routine = SPEC_GEMM, .dbl = dbl, .order = o, .transA = ta, .transB = tb,
                    .M = M, .N = N, .K = K, .alpha = alpha, .beta = beta };
    return c;
}

static const double scalars[4] = { 0, 1, -1, 2.5 };

/* Seven shapes per option combination: the smallest, two whose dimensions
 * are primes or 2^k +- 1 (offsets and padded ld on one), one a little
 * over two tiles of every common size (16, 32, 64) in every dimension, and
 * the calls a CPU's direct tile (32 x 8 since docs/performance.md)
 * is shaped for: 32^3 in whole tiles (offsets, padded ld, beta = 0 with
 * NaN in C), one row and column past them, and less than one tile.  Under
 * the automatic plan the last three run direct on PoCL (32^3 <=
 * direct_max^3); cl_gemm_direct forces it everywhere. */
static void all_options(void **state)
{
    (void)state;
    int fails = 0, n = 0;
    for (int dbl = 0; dbl < 2; dbl++)
        for (int o = 0; o < 2; o++)
            for (int ta = 0; ta < 3; ta++)
                for (int tb = 0; tb < 3; tb++, n++) {
                    double alpha = scalars[1 + n % 3], beta = scalars[(n + 1) % 4];
                    spec_case c = gemm(dbl, orders[o], transposes[ta], transposes[tb], 1, 1, 1, alpha, beta);
                    fails += check_case(&c, n, 0);
                    c = padded(gemm(dbl, orders[o], transposes[ta], transposes[tb], 7, 33, 13, 2.5, -1), 3);
                    c.offA = 5; c.offB = 2; c.offC = 11;
                    fails += check_case(&c, n + 100, 0);
                    c = gemm(dbl, orders[o], transposes[ta], transposes[tb], 127, 7, 33, alpha, beta);
                    fails += check_case(&c, n + 200, 0);
                    c = gemm(dbl, orders[o], transposes[ta], transposes[tb], 130, 70, 40, beta, alpha);
                    fails += check_case(&c, n + 300, 0);
                    c = padded(gemm(dbl, orders[o], transposes[ta], transposes[tb], 32, 32, 32, 1.25, 0), 3);
                    c.offA = 1; c.offB = 6; c.offC = 5;
                    fails += check_case(&c, n + 400, 0);
                    c = gemm(dbl, orders[o], transposes[ta], transposes[tb], 33, 9, 31, -1, 0.75);
                    fails += check_case(&c, n + 500, 0);
                    c = gemm(dbl, orders[o], transposes[ta], transposes[tb], 31, 7, 32, 2.5, 1);
                    fails += check_case(&c, n + 600, 0);
                }
    assert_int_equal(fails, 0);
}

static void alpha_beta(void **state)
{
    (void)state;
    int fails = 0;
    for (int dbl = 0; dbl < 2; dbl++)
        for (int a = 0; a < 4; a++)
            for (int b = 0; b < 4; b++) {
                spec_case c = padded(gemm(dbl, orders[b % 2], gpublas3NoTrans, gpublas3Trans,
                                          33, 7, 13, scalars[a], scalars[b]), 1);
                c.offC = 3;
                fails += check_case(&c, 16 * a + b, 0);
            }
    assert_int_equal(fails, 0);
}

/* K = 0: C <- beta*C, with A and B empty (their buffers hold only canaries). */
static void k_zero(void **state)
{
    (void)state;
    int fails = 0;
    for (int dbl = 0; dbl < 2; dbl++)
        for (int o = 0; o < 2; o++)
            for (int b = 0; b < 4; b++) {
                spec_case c = padded(gemm(dbl, orders[o], transposes[b % 3], gpublas3NoTrans,
                                          7, 33, 0, 2.5, scalars[b]), 2);
                c.offA = 1; c.offB = 4; c.offC = 9;
                fails += check_case(&c, 40 + b, 0);
            }
    assert_int_equal(fails, 0);
}

/* DESIGN.md: "alpha = 0 or K = 0 scales C only" -- A and B are not read, so
 * NaN there must not reach C. */
static void alpha_zero_ignores_a_and_b(void **state)
{
    (void)state;
    int fails = 0;
    for (int dbl = 0; dbl < 2; dbl++)
        for (int b = 0; b < 4; b++) {
            spec_case c = gemm(dbl, orders[b % 2], gpublas3NoTrans, gpublas3NoTrans, 33, 7, 13, 0, scalars[b]);
            fails += check_case(&c, 60 + b, FILL_NAN_AB);
        }
    assert_int_equal(fails, 0);
}

/* beta = 0: C is filled with NaN by the harness and must not be read. */
static void nan_in_c_with_beta_zero(void **state)
{
    (void)state;
    int fails = 0;
    for (int dbl = 0; dbl < 2; dbl++)
        for (int a = 0; a < 4; a++) {
            spec_case c = padded(gemm(dbl, orders[a % 2], transposes[a % 3], gpublas3Trans,
                                      127, 33, 7, scalars[a], 0), 5);
            fails += check_case(&c, 80 + a, 0);
        }
    assert_int_equal(fails, 0);
}

/* Leading dimensions far beyond the rows and large offsets, both orders. */
static void wide_ld_and_offsets(void **state)
{
    (void)state;
    int fails = 0;
    for (int dbl = 0; dbl < 2; dbl++)
        for (int o = 0; o < 2; o++) {
            spec_case c = padded(gemm(dbl, orders[o], gpublas3Trans, gpublas3NoTrans, 33, 13, 7, -1, 2.5), 40);
            c.offA = 1000; c.offB = 333; c.offC = 777;
            fails += check_case(&c, 90 + o, 0);
        }
    assert_int_equal(fails, 0);
}

/* The two ~300 cases: many work-groups and several k-steps per tile. */
static void large(void **state)
{
    (void)state;
    spec_case s = gemm(0, gpublas3ColumnMajor, gpublas3NoTrans, gpublas3NoTrans, 300, 300, 300, 1, 1);
    spec_case d = padded(gemm(1, gpublas3RowMajor, gpublas3Trans, gpublas3ConjTrans, 300, 127, 300, -1, 2.5), 3);
    d.offA = 7; d.offC = 1;
    assert_int_equal(check_case(&s, 1, 0) + check_case(&d, 2, 0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(all_options),
        cmocka_unit_test(alpha_beta),
        cmocka_unit_test(k_zero),
        cmocka_unit_test(alpha_zero_ignores_a_and_b),
        cmocka_unit_test(nan_in_c_with_beta_zero),
        cmocka_unit_test(wide_ld_and_offsets),
        cmocka_unit_test(large),
    };
    return cmocka_run_group_tests_name("gemm", tests, env_open, env_close);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* SYRK and SYR2K against OpenBLAS: uplo x trans (ConjTrans acting as Trans)
 * x order in both precisions, N and K in 1, 7, 33 and 127, K = 0 (C <- beta*C
 * on the triangle), offsets, padded leading dimensions, alpha and beta in
 * {0, 1, -1, 2.5}, NaN in C with beta = 0.  The other triangle of C holds
 * canaries that must come back bit-identical (spec_check_n treats it like
 * padding), as must C's padding and all of A and B. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "harness.h"

static const double scalars[4] = { 0, 1, -1, 2.5 };
static const spec_routine routines[2] = { SPEC_SYRK, SPEC_SYR2K };

/* Combination n of 48: routine, precision, order, uplo, trans. */
#define COMBINATIONS 48
static spec_case rk(int n, size_t N, size_t K, double alpha, double beta)
{
    spec_case c = { .routine = routines[n % 2], .dbl = n / 2 % 2, .order = orders[n / 4 % 2],
                    .uplo = uplos[n / 8 % 2], .transA = transposes[n / 16], .N = N, .K = K,
                    .alpha = alpha, .beta = beta };
    return c;
}

static void all_options(void **state)
{
    (void)state;
    int fails = 0;
    for (int n = 0; n < COMBINATIONS; n++) {
        spec_case c = rk(n, 1, 1, scalars[1 + n % 3], scalars[n % 4]);
        fails += check_case(&c, n, 0);
        c = padded(rk(n, 7, 33, 2.5, -1), 3);
        c.offA = 4; c.offB = 9; c.offC = 2;
        fails += check_case(&c, n + 100, 0);
        c = rk(n, 33, 7, scalars[1 + n % 3], scalars[(n + 1) % 4]);
        fails += check_case(&c, n + 200, 0);
        /* over two tiles of 16, 32 or 64 each way: whole tiles off the
         * diagonal take the copy kernel's fast path */
        c = padded(rk(n, 130, 40, -1, 2.5), 2);
        c.offA = 3; c.offB = 5; c.offC = 2;
        fails += check_case(&c, n + 300, 0);
    }
    assert_int_equal(fails, 0);
}

static void k_zero(void **state)
{
    (void)state;
    int fails = 0;
    for (int n = 0; n < COMBINATIONS; n++) {
        spec_case c = padded(rk(n, 13, 0, 2.5, scalars[n % 4]), 2);
        c.offC = 3;
        fails += check_case(&c, n, 0);
    }
    assert_int_equal(fails, 0);
}

/* The alpha x beta grid; alpha = 0 with NaN in A (and B): not read then. */
static void alpha_beta(void **state)
{
    (void)state;
    int fails = 0;
    for (int n = 0; n < 64; n++) { /* each (alpha, beta) with four option combinations */
        double alpha = scalars[n / 4 % 4], beta = scalars[n % 4];
        spec_case c = rk((7 * n) % COMBINATIONS, 17, 11, alpha, beta);
        fails += check_case(&c, n, alpha == 0 ? FILL_NAN_AB : 0);
    }
    assert_int_equal(fails, 0);
}

static void larger(void **state)
{
    (void)state;
    int fails = 0;
    for (int n = 0; n < 2; n++) { /* ssyrk column-major, dsyr2k row-major */
        spec_case c = padded(rk(n == 0 ? 8 : 23, 127, 61, -1, 2.5), 5);
        c.offA = 1; c.offB = 2; c.offC = 3;
        fails += check_case(&c, n, 0);
    }
    /* SYR2K's two terms as one product along k (routines/plan/packed.c):
     * on CPUs' sets only up to K = 128, so 100 takes it there and 200 the
     * two launches; both over several tiles, K not whole k-tiles, every
     * uplo and trans */
    static const size_t ks[2] = { 100, 200 };
    for (int n = 0; n < 16; n++) {
        spec_case c = { .routine = SPEC_SYR2K, .dbl = n % 2, .order = orders[n / 2 % 2], .uplo = uplos[n / 4 % 2],
                        .transA = transposes[n / 8], .N = 140, .K = ks[(n + n / 4) % 2], .alpha = 1.5,
                        .beta = n % 3 ? -0.5 : 0, .offA = 2, .offB = 1, .offC = 4 };
        c = padded(c, 1);
        fails += check_case(&c, 10 + n, 0);
    }
    assert_int_equal(fails, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(all_options),
        cmocka_unit_test(k_zero),
        cmocka_unit_test(alpha_beta),
        cmocka_unit_test(larger),
    };
    return cmocka_run_group_tests_name("syrk and syr2k", tests, env_open, env_close);
}

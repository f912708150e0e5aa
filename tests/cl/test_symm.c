/* SPDX-License-Identifier: BSD-3-Clause */
/* SYMM against OpenBLAS: side x uplo x order in both precisions, sizes 1, 7,
 * 33 and 127, offsets, padded leading dimensions, alpha and beta in
 * {0, 1, -1, 2.5}, NaN in C with beta = 0.  A's other triangle holds finite
 * canaries (a kernel reading it gives a wrong result) and, in its own test,
 * NaN (which must not reach C even multiplied by zero).  check_case also
 * proves C's padding and all of A and B come back bit-identical. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "harness.h"

static const double scalars[4] = { 0, 1, -1, 2.5 };

/* Option combination n of 16: precision, order, side, uplo. */
#define COMBINATIONS 16
static spec_case symm(int n, size_t M, size_t N, double alpha, double beta)
{
    spec_case c = { .routine = SPEC_SYMM, .dbl = n % 2, .order = orders[n / 2 % 2], .side = sides[n / 4 % 2],
                    .uplo = uplos[n / 8 % 2], .M = M, .N = N, .alpha = alpha, .beta = beta };
    return c;
}

static void all_options(void **state)
{
    (void)state;
    int fails = 0;
    for (int n = 0; n < COMBINATIONS; n++) {
        spec_case c = symm(n, 1, 1, scalars[1 + n % 3], scalars[n % 4]);
        fails += check_case(&c, n, 0);
        c = padded(symm(n, 7, 33, 2.5, -1), 3);
        c.offA = 4; c.offB = 1; c.offC = 6;
        fails += check_case(&c, n + 100, 0);
        c = symm(n, 33, 7, scalars[1 + n % 3], scalars[(n + 1) % 4]);
        fails += check_case(&c, n + 200, 0);
        /* over two tiles of 16, 32 or 64 each way: whole tiles off the
         * diagonal take the copy kernel's fast path */
        c = padded(symm(n, 130, 70, -1, 2.5), 2);
        c.offA = 3; c.offB = 5; c.offC = 2;
        fails += check_case(&c, n + 300, 0);
    }
    assert_int_equal(fails, 0);
}

static void nan_in_unread_triangle(void **state)
{
    (void)state;
    int fails = 0;
    for (int n = 0; n < COMBINATIONS; n++) {
        spec_case c = padded(symm(n, 13, 9, -1, 2.5), 1);
        c.offA = 2;
        fails += check_case(&c, n, FILL_NAN_TRIANGLE);
        c = symm(n, 130, 70, -1, 2.5); /* whole tiles in the NaN triangle */
        fails += check_case(&c, n + 100, FILL_NAN_TRIANGLE);
    }
    assert_int_equal(fails, 0);
}

/* The alpha x beta grid, beta = 0 with NaN in C, alpha = 0 with NaN in A
 * and B (neither may be read then). */
static void alpha_beta(void **state)
{
    (void)state;
    int fails = 0;
    for (int n = 0; n < 32; n++) { /* each (alpha, beta) with two option combinations */
        double alpha = scalars[n / 4 % 4], beta = scalars[n % 4];
        spec_case c = symm((5 * n) % COMBINATIONS, 17, 11, alpha, beta);
        fails += check_case(&c, n, alpha == 0 ? FILL_NAN_AB : 0);
    }
    assert_int_equal(fails, 0);
}

static void larger(void **state)
{
    (void)state;
    spec_case s = padded(symm(12, 127, 100, 1, 1), 3);
    spec_case d = symm(3, 127, 61, -1, 0);
    d.offA = 5; d.offB = 3; d.offC = 7;
    assert_int_equal(check_case(&s, 1, FILL_NAN_TRIANGLE) + check_case(&d, 2, FILL_NAN_TRIANGLE), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(all_options),
        cmocka_unit_test(nan_in_unread_triangle),
        cmocka_unit_test(alpha_beta),
        cmocka_unit_test(larger),
    };
    return cmocka_run_group_tests_name("symm", tests, env_open, env_close);
}

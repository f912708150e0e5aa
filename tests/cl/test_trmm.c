/* TRMM against OpenBLAS: side x uplo x trans (ConjTrans acting as Trans) x
 * diag x order in both precisions, sizes 1, 7, 33 and 127, offsets, padded
 * leading dimensions, alpha in {0, 1, -1, 2.5}.  B is input and output.
 * A's unread triangle (and, for a unit diagonal, its diagonal) holds finite
 * canaries, and in its own test NaN, which must not reach B.  check_case
 * proves B's padding and all of A come back bit-identical. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "harness.h"

static const double scalars[4] = { 0, 1, -1, 2.5 };

/* Combination n of 96: precision, order, side, uplo, diag, trans. */
#define COMBINATIONS 96
static spec_case trmm(int n, size_t M, size_t N, double alpha)
{
    spec_case c = { .routine = SPEC_TRMM, .dbl = n % 2, .order = orders[n / 2 % 2], .side = sides[n / 4 % 2],
                    .uplo = uplos[n / 8 % 2], .diag = diags[n / 16 % 2], .transA = transposes[n / 32],
                    .M = M, .N = N, .alpha = alpha };
    return c;
}

static void all_options(void **state)
{
    (void)state;
    int fails = 0;
    for (int n = 0; n < COMBINATIONS; n++) {
        spec_case c = trmm(n, 1, 1, scalars[1 + n % 3]);
        fails += check_case(&c, n, 0);
        c = padded(trmm(n, 7, 33, 2.5), 3);
        c.offA = 4; c.offB = 1;
        fails += check_case(&c, n + 100, 0);
        c = trmm(n, 33, 7, scalars[1 + (n + 1) % 3]);
        fails += check_case(&c, n + 200, 0);
        /* over two tiles of 16, 32 or 64 each way: whole tiles off the
         * diagonal take the copy kernel's fast path */
        c = padded(trmm(n, 130, 70, 2.5), 2);
        c.offA = 3; c.offB = 5;
        fails += check_case(&c, n + 300, 0);
    }
    assert_int_equal(fails, 0);
}

static void nan_in_unread_triangle(void **state)
{
    (void)state;
    int fails = 0;
    for (int n = 0; n < COMBINATIONS; n++) {
        spec_case c = padded(trmm(n, 13, 9, -1), 1);
        c.offA = 2;
        fails += check_case(&c, n, FILL_NAN_TRIANGLE);
        c = trmm(n, 130, 70, -1); /* whole tiles in the NaN triangle */
        fails += check_case(&c, n + 100, FILL_NAN_TRIANGLE);
    }
    assert_int_equal(fails, 0);
}

/* alpha = 0 sets B to zero without reading A (NaN there). */
static void alpha_zero(void **state)
{
    (void)state;
    int fails = 0;
    for (int n = 0; n < COMBINATIONS; n += 13) {
        spec_case c = trmm(n, 17, 11, 0);
        fails += check_case(&c, n, FILL_NAN_AB);
    }
    assert_int_equal(fails, 0);
}

static void larger(void **state)
{
    (void)state;
    spec_case s = padded(trmm(40, 127, 100, 2.5), 3);  /* s, col, left, lower, non-unit, T */
    spec_case d = trmm(87, 61, 127, -1);              /* d, row, right, upper, unit, C */
    d.offA = 5; d.offB = 3;
    assert_int_equal(check_case(&s, 1, FILL_NAN_TRIANGLE) + check_case(&d, 2, FILL_NAN_TRIANGLE), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(all_options),
        cmocka_unit_test(nan_in_unread_triangle),
        cmocka_unit_test(alpha_zero),
        cmocka_unit_test(larger),
    };
    return cmocka_run_group_tests_name("trmm", tests, env_open, env_close);
}

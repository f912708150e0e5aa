/* SPDX-License-Identifier: BSD-3-Clause */
/* TRMM against OpenBLAS: side x uplo x trans (ConjTrans acting as Trans) x
 * diag x order in both precisions, sizes 1, 7, 33 and 127, offsets, padded
 * leading dimensions, alpha in {0, 1, -1, 2.5}.  B is input and output.
 * A's unread triangle (and, for a unit diagonal, its diagonal) holds finite
 * canaries, and in its own test NaN, which must not reach B.  check_case
 * proves B's padding and all of A come back bit-identical.  The sweeps are
 * harness.c's, shared with TRSM. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "harness.h"

static spec_case trmm(int n, size_t M, size_t N, double alpha)
{
    return triangular_case(SPEC_TRMM, n, M, N, alpha);
}

static void all_options(void **state) { (void)state; assert_int_equal(triangular_all_options(SPEC_TRMM), 0); }
static void nan_in_unread_triangle(void **state)
{
    (void)state;
    assert_int_equal(triangular_nan_triangle(SPEC_TRMM), 0);
}
/* alpha = 0 sets B to zero without reading A (NaN there). */
static void alpha_zero(void **state) { (void)state; assert_int_equal(triangular_alpha_zero(SPEC_TRMM), 0); }

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

/* SPDX-License-Identifier: BSD-3-Clause */
/* Problems larger than the scratch the library may use: with
 * GPUBLAS3_SCRATCH_LIMIT at 256 KiB (README: "Larger problems are split
 * into panels; results are the same"), every routine here needs several
 * times that unsplit, so it runs as panels in K (later panels accumulating
 * with beta = 1), M and N, TRMM's snapshot of B by slabs (TRSM's too), and SYRK/SYR2K
 * skipping panels outside the triangle.  The limit still leaves room for
 * tiles up to 128 wide, so a correct library can always do the call.
 * check_case judges results, canaries and inputs as everywhere else. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>
#include "harness.h"

static void gemm_in_panels(void **state)
{
    (void)state;
    int fails = 0;
    for (int n = 0; n < 4; n++) { /* s/d, col/row, NN/TC */
        spec_case c = { .routine = SPEC_GEMM, .dbl = n % 2, .order = orders[n / 2],
                        .transA = transposes[n / 2 ? 1 : 0], .transB = transposes[n / 2 ? 2 : 0],
                        .M = 301, .N = 250, .K = 411, .alpha = 2.5, .beta = n ? -1 : 0 };
        c = padded(c, 3);
        c.offA = 7; c.offB = 1; c.offC = 5;
        fails += check_case(&c, n, 0);
    }
    assert_int_equal(fails, 0);
}

static void symm_in_panels(void **state)
{
    (void)state;
    int fails = 0;
    for (int n = 0; n < 8; n++) { /* side x uplo x (s col, d row) */
        spec_case c = { .routine = SPEC_SYMM, .dbl = n / 4, .order = orders[n / 4], .side = sides[n % 2],
                        .uplo = uplos[n / 2 % 2], .M = 230, .N = 170, .alpha = -1, .beta = 2.5, .offA = 3 };
        fails += check_case(&c, n, FILL_NAN_TRIANGLE);
    }
    assert_int_equal(fails, 0);
}

static void syrk_syr2k_in_panels(void **state)
{
    (void)state;
    int fails = 0;
    for (int n = 0; n < 8; n++) { /* syrk/syr2k x uplo x (s col N, d row T) */
        spec_case c = { .routine = n % 2 ? SPEC_SYR2K : SPEC_SYRK, .dbl = n / 4, .order = orders[n / 4],
                        .uplo = uplos[n / 2 % 2], .transA = transposes[n / 4], .N = 300, .K = 220,
                        .alpha = 2.5, .beta = n % 3 ? 1 : 0 };
        c = padded(c, 2);
        c.offC = 4;
        fails += check_case(&c, n, 0);
    }
    assert_int_equal(fails, 0);
}

/* TRMM, and TRSM's calls (the products with inverted blocks, which read
 * the B block they write, and the updates) */
static void trmm_trsm_in_panels(void **state)
{
    (void)state;
    int fails = 0;
    for (int n = 0; n < 32; n++) { /* side x uplo x diag x (s col N, d row T) x routine */
        spec_case c = { .routine = n < 16 ? SPEC_TRMM : SPEC_TRSM, .dbl = n / 8 % 2, .order = orders[n / 8 % 2],
                        .side = sides[n % 2], .uplo = uplos[n / 2 % 2], .diag = diags[n / 4 % 2],
                        .transA = transposes[n / 8 % 2], .M = n < 16 ? 150 : 230, .N = n < 16 ? 140 : 210,
                        .alpha = -1, .offA = 2, .offB = 9 };
        fails += check_case(&c, n, FILL_NAN_TRIANGLE);
    }
    assert_int_equal(fails, 0);
}

/* The complex routines run as real calls of twice the rows and depth
 * (routines/plan/complex.c): panels cut through them at real indices. */
static void complex_in_panels(void **state)
{
    (void)state;
    int fails = 0;
    for (int n = 0; n < 4; n++) { /* c col, z row */
        int z = n / 2;
        spec_case g = { .routine = SPEC_GEMM, .cplx = 1, .dbl = z, .order = orders[z],
                        .transA = transposes[n % 2 ? 2 : 0], .transB = transposes[n % 2 ? 1 : 2],
                        .M = 151, .N = 130, .K = 203, .alpha = 2.5, .alpha_im = -1, .beta = 0.5, .beta_im = 1 };
        fails += check_case(&g, n, 0);
        spec_case h = { .routine = n % 2 ? SPEC_HER2K : SPEC_HERK, .cplx = 1, .dbl = z, .order = orders[z],
                        .uplo = uplos[n % 2], .transA = n % 2 ? gpublas3ConjTrans : gpublas3NoTrans,
                        .N = 170, .K = 110, .alpha = -1, .alpha_im = 0.5, .beta = 2 };
        fails += check_case(&h, n + 10, 0);
        spec_case t = { .routine = SPEC_TRMM, .cplx = 1, .dbl = z, .order = orders[z], .side = sides[n % 2],
                        .uplo = uplos[z], .diag = diags[n % 2], .transA = transposes[n % 2 ? 2 : 0],
                        .M = 90, .N = 80, .alpha = -1, .alpha_im = 2, .offA = 2, .offB = 9 };
        fails += check_case(&t, n + 20, FILL_NAN_TRIANGLE);
        spec_case m = { .routine = SPEC_HEMM, .cplx = 1, .dbl = z, .order = orders[z], .side = sides[n % 2],
                        .uplo = uplos[z], .M = 120, .N = 90, .alpha = 1, .alpha_im = 1, .beta = -1 };
        fails += check_case(&m, n + 30, FILL_NAN_TRIANGLE);
    }
    assert_int_equal(fails, 0);
}

int main(void)
{
    /* Set before the library's first call: the limit is the library's
     * to read whenever it likes. */
    setenv("GPUBLAS3_SCRATCH_LIMIT", "262144", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gemm_in_panels),
        cmocka_unit_test(symm_in_panels),
        cmocka_unit_test(syrk_syr2k_in_panels),
        cmocka_unit_test(trmm_trsm_in_panels),
        cmocka_unit_test(complex_in_panels),
    };
    return cmocka_run_group_tests_name("panels", tests, env_open, env_close);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* The CBLAS drop-ins (cblas_sgemm ... cblas_dtrsm) against OpenBLAS's,
 * row- and column-major, every option of every routine in both
 * precisions, odd sizes, padded leading dimensions checked bit-identical;
 * ConjTrans stands for Trans, SYRK and SYR2K included.  The complex ones
 * (cblas_cgemm ... cblas_ztrmm) likewise with their valid transposes (N/T
 * symmetric, N/C Hermitian, all three for GEMM and TRMM), complex alpha and
 * beta, and NaN in the imaginary parts of Hermitian diagonals (never
 * read).  (Their Fortran names face the netlib testers.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "dropin_test.h"

static const gpublas3Transpose transposes[] = { gpublas3NoTrans, gpublas3Trans, gpublas3ConjTrans };
static int failures;
static unsigned seed = 100;

/* Leading dimensions a little beyond the stored lines (columns in
 * column-major, rows in row-major). */
static void run(spec_case c)
{
    spec_case t = c;
    t.lda = t.ldb = t.ldc = 0;
    spec_complete(&t);
    c.lda = t.lda + 1;
    c.ldb = t.ldb + 2;
    c.ldc = t.ldc + 3;
    failures += dcase_run(&c, 1, 0, seed++);
}

static spec_case base(spec_routine r, int dbl, int row)
{
    return (spec_case){ .routine = r, .dbl = dbl, .order = row ? gpublas3RowMajor : gpublas3ColumnMajor,
                        .M = 23, .N = 31, .K = 19, .alpha = -1.5, .beta = 0.25 };
}

static void test_gemm(void **state)
{
    (void)state;
    for (int row = 0; row < 2; row++)
        for (int dbl = 0; dbl < 2; dbl++)
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) {
                    spec_case c = base(SPEC_GEMM, dbl, row);
                    c.transA = transposes[a];
                    c.transB = transposes[b];
                    run(c);
                }
    assert_int_equal(failures, 0);
}

/* TRMM and TRSM at c's side and uplo: every trans and diag. */
static void run_triangular(spec_case c)
{
    for (int t = 0; t < 3; t++)
        for (int unit = 0; unit < 2; unit++) {
            c.transA = transposes[t];
            c.diag = unit ? gpublas3Unit : gpublas3NonUnit;
            c.routine = SPEC_TRMM;
            run(c);
            c.routine = SPEC_TRSM;
            run(c);
        }
}

static void test_symm_trmm(void **state)
{
    (void)state;
    for (int row = 0; row < 2; row++)
        for (int dbl = 0; dbl < 2; dbl++)
            for (int side = 0; side < 2; side++)
                for (int up = 0; up < 2; up++) {
                    spec_case c = base(SPEC_SYMM, dbl, row);
                    c.side = side ? gpublas3Right : gpublas3Left;
                    c.uplo = up ? gpublas3Lower : gpublas3Upper;
                    run(c);
                    run_triangular(c);
                }
    assert_int_equal(failures, 0);
}

static void test_syrk_syr2k(void **state)
{
    (void)state;
    for (int row = 0; row < 2; row++)
        for (int dbl = 0; dbl < 2; dbl++)
            for (int up = 0; up < 2; up++)
                for (int t = 0; t < 3; t++)
                    for (int two = 0; two < 2; two++) {
                        spec_case c = base(two ? SPEC_SYR2K : SPEC_SYRK, dbl, row);
                        c.uplo = up ? gpublas3Lower : gpublas3Upper;
                        c.transA = transposes[t];
                        run(c);
                    }
    assert_int_equal(failures, 0);
}

/* beta = 0 with NaN in C and alpha = 0 with NaN in the inputs, row-major. */
static void test_special_values(void **state)
{
    (void)state;
    for (int r = 0; r < SPEC_NROUTINES; r++) {
        spec_case c = base((spec_routine)r, 1, 1);
        c.beta = 0;
        run(c);
        c.alpha = 0;
        c.beta = 3;
        run(c);
    }
    assert_int_equal(failures, 0);
}

static spec_case cbase(spec_routine r, int dbl, int row)
{
    /* HERK's alpha and beta and HER2K's beta are real */
    int herk = r == SPEC_HERK, herm = herk || r == SPEC_HER2K;
    return (spec_case){ .routine = r, .cplx = 1, .dbl = dbl, .order = row ? gpublas3RowMajor : gpublas3ColumnMajor,
                        .M = 23, .N = 31, .K = 19, .alpha = -1.5, .alpha_im = herk ? 0 : 0.5, .beta = 0.25,
                        .beta_im = herm ? 0 : -1 };
}

/* Complex: every routine and valid option, complex scalars. */
static void test_complex(void **state)
{
    (void)state;
    for (int row = 0; row < 2; row++)
        for (int dbl = 0; dbl < 2; dbl++) {
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) {
                    spec_case c = cbase(SPEC_GEMM, dbl, row);
                    c.transA = transposes[a];
                    c.transB = transposes[b];
                    run(c);
                }
            for (int side = 0; side < 2; side++)
                for (int up = 0; up < 2; up++) {
                    spec_case c = cbase(SPEC_SYMM, dbl, row);
                    c.side = side ? gpublas3Right : gpublas3Left;
                    c.uplo = up ? gpublas3Lower : gpublas3Upper;
                    run(c);
                    c.routine = SPEC_HEMM;
                    run(c);
                    run_triangular(c);
                    static const spec_routine rk[4] = { SPEC_SYRK, SPEC_SYR2K, SPEC_HERK, SPEC_HER2K };
                    for (int r = 0; r < 4; r++)
                        for (int t = 0; t < 2; t++) {
                            spec_case k = cbase(rk[r], dbl, row);
                            k.uplo = c.uplo;
                            k.transA = t ? (r >= 2 ? gpublas3ConjTrans : gpublas3Trans) : gpublas3NoTrans;
                            run(k);
                        }
                }
        }
    assert_int_equal(failures, 0);
}

static void test_complex_special_values(void **state)
{
    (void)state;
    static const spec_routine all[9] = { SPEC_GEMM, SPEC_SYMM, SPEC_HEMM, SPEC_SYRK, SPEC_HERK,
                                         SPEC_SYR2K, SPEC_HER2K, SPEC_TRMM, SPEC_TRSM };
    for (int r = 0; r < 9; r++) {
        spec_case c = cbase(all[r], 1, 1);
        c.beta = c.beta_im = 0;
        run(c);
        c.alpha = c.alpha_im = 0;
        c.beta = 3;
        run(c);
    }
    assert_int_equal(failures, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gemm),
        cmocka_unit_test(test_symm_trmm),
        cmocka_unit_test(test_syrk_syr2k),
        cmocka_unit_test(test_special_values),
        cmocka_unit_test(test_complex),
        cmocka_unit_test(test_complex_special_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

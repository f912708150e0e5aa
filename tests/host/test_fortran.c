/* SPDX-License-Identifier: BSD-3-Clause */
/* The Fortran-style drop-ins (sgemm_ ... dtrmm_, strsm_, dtrsm_) against OpenBLAS: every
 * option of every routine in both precisions, on odd sizes with padded
 * leading dimensions (the padding, the tail and SYRK's/SYR2K's other
 * triangle must keep their bits), option letters in either case, 'C' as a
 * transpose everywhere it is legal, and the special values reference BLAS
 * treats apart: beta = 0 (C holds NaN and must not be read), beta = 1,
 * alpha = 0 (A and B hold NaN: never read), k = 0, and sizes of 0 with
 * leading dimension 1.  Run twice by ctest: as is, and with tiny panels
 * (GPUBLAS3_PANEL_KB=8) so that every routine goes through the pipelined,
 * many-panel path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>
#include "dropin_test.h"
#include "gpublas3_blas.h"

static const gpublas3Transpose transposes[] = { gpublas3NoTrans, gpublas3Trans, gpublas3ConjTrans };
/* Two shapes: taller than wide, and wider than tall (GEMM cuts them into
 * row and column panels respectively). */
static const size_t shapes[2][3] = { { 67, 45, 33 }, { 29, 71, 40 } };

static spec_case base(spec_routine r, int dbl, int shape)
{
    return (spec_case){ .routine = r, .dbl = dbl, .order = gpublas3ColumnMajor, .M = shapes[shape][0],
                        .N = shapes[shape][1], .K = shapes[shape][2], .alpha = 1.25, .beta = -0.75 };
}

/* Leading dimensions `pad` (and pad+1, pad+2) beyond the stored rows. */
static void pad_lds(spec_case *c, size_t pad)
{
    size_t cols;
    c->lda = c->ldb = c->ldc = 0;
    spec_dims(c, 'A', &c->lda, &cols);
    spec_dims(c, 'B', &c->ldb, &cols);
    if (spec_output(c) != 'B')
        spec_dims(c, 'C', &c->ldc, &cols);
    c->lda = (c->lda ? c->lda : 1) + pad;
    c->ldb = (c->ldb ? c->ldb : 1) + pad + 1;
    c->ldc = (c->ldc ? c->ldc : 1) + pad + 2;
}

static int failures;
static unsigned seed = 1;

static void run(const spec_case *c, int lower)
{
    failures += dcase_run(c, 0, lower, seed++);
}

static void test_gemm(void **state)
{
    (void)state;
    for (int dbl = 0; dbl < 2; dbl++)
        for (int s = 0; s < 2; s++)
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) {
                    spec_case c = base(SPEC_GEMM, dbl, s);
                    c.transA = transposes[a];
                    c.transB = transposes[b];
                    pad_lds(&c, 3);
                    run(&c, (a + b) % 2);
                }
    assert_int_equal(failures, 0);
}

static void test_symm(void **state)
{
    (void)state;
    for (int dbl = 0; dbl < 2; dbl++)
        for (int s = 0; s < 2; s++)
            for (int side = 0; side < 2; side++)
                for (int up = 0; up < 2; up++) {
                    spec_case c = base(SPEC_SYMM, dbl, s);
                    c.side = side ? gpublas3Right : gpublas3Left;
                    c.uplo = up ? gpublas3Lower : gpublas3Upper;
                    pad_lds(&c, 2);
                    run(&c, side ^ up);
                }
    assert_int_equal(failures, 0);
}

static void test_syrk_syr2k(void **state)
{
    (void)state;
    for (int two = 0; two < 2; two++)
        for (int dbl = 0; dbl < 2; dbl++)
            for (int s = 0; s < 2; s++)
                for (int up = 0; up < 2; up++)
                    for (int t = 0; t < 3; t++) {
                        spec_case c = base(two ? SPEC_SYR2K : SPEC_SYRK, dbl, s);
                        c.uplo = up ? gpublas3Lower : gpublas3Upper;
                        c.transA = transposes[t];
                        pad_lds(&c, (size_t)t);
                        run(&c, t == 1);
                    }
    assert_int_equal(failures, 0);
}

static void test_trmm_trsm(void **state)
{
    (void)state;
    for (int r = 0; r < 2; r++)
    for (int dbl = 0; dbl < 2; dbl++)
        for (int s = 0; s < 2; s++)
            for (int side = 0; side < 2; side++)
                for (int up = 0; up < 2; up++)
                    for (int t = 0; t < 3; t++)
                        for (int unit = 0; unit < 2; unit++) {
                            spec_case c = base(r ? SPEC_TRSM : SPEC_TRMM, dbl, s);
                            c.side = side ? gpublas3Right : gpublas3Left;
                            c.uplo = up ? gpublas3Lower : gpublas3Upper;
                            c.transA = transposes[t];
                            c.diag = unit ? gpublas3Unit : gpublas3NonUnit;
                            pad_lds(&c, 1);
                            run(&c, unit);
                        }
    assert_int_equal(failures, 0);
}

/* alpha = 0, beta = 0 or 1, k = 0, in every routine; then the sizes of 0. */
static void test_special_values(void **state)
{
    (void)state;
    const double ab[][2] = { { 0, 0 }, { 0, 2.5 }, { 1.5, 0 }, { 1.5, 1 }, { 0, 1 } };
    for (int r = 0; r < SPEC_NROUTINES; r++)
        for (int dbl = 0; dbl < 2; dbl++)
            for (size_t v = 0; v < sizeof ab / sizeof ab[0]; v++) {
                spec_case c = base((spec_routine)r, dbl, 0);
                c.side = gpublas3Right;
                c.uplo = gpublas3Lower;
                c.transA = gpublas3Trans;
                pad_lds(&c, 1);
                c.alpha = ab[v][0];
                c.beta = ab[v][1];
                run(&c, 0);
                if (r == SPEC_GEMM || r == SPEC_SYRK || r == SPEC_SYR2K) {
                    c.K = 0;
                    run(&c, 1);
                }
            }
    /* Sizes of 0 with leading dimensions as small as legal (1 where the
     * stored matrix is empty): nothing is read or written. */
    for (int r = 0; r < SPEC_NROUTINES; r++)
        for (int zero = 0; zero < 3; zero++) {
            if (zero == 2 && r != SPEC_GEMM && r != SPEC_SYRK && r != SPEC_SYR2K)
                continue;
            spec_case c = { .routine = (spec_routine)r, .dbl = 1, .order = gpublas3ColumnMajor,
                            .M = zero == 0 ? 0 : 3, .N = zero == 1 ? 0 : 3, .K = zero == 2 ? 0 : 3,
                            .alpha = 2, .beta = 0.5 };
            pad_lds(&c, 0);
            c.ldb -= 1;
            c.ldc -= 2;
            run(&c, 0);
        }
    assert_int_equal(failures, 0);
}

/* Long calls: larger than one default panel (32 MiB of C and B), so the
 * default pipeline cuts them too; very wide and very tall ones, whose
 * last panel is cut in halves under tiny panels; a long SYR2K. */
static void test_long_calls(void **state)
{
    (void)state;
    spec_case big = { .routine = SPEC_GEMM, .dbl = 1, .order = gpublas3ColumnMajor, .M = 1001, .N = 4097,
                      .K = 37, .alpha = -1, .beta = 0.5, .lda = 1003, .ldb = 38, .ldc = 1002 };
    spec_case wide = { .routine = SPEC_GEMM, .dbl = 1, .order = gpublas3ColumnMajor, .M = 3, .N = 2048,
                       .K = 4, .alpha = 2, .beta = -1, .transB = gpublas3Trans, .lda = 5, .ldb = 2049, .ldc = 4 };
    spec_case tall = { .routine = SPEC_GEMM, .dbl = 0, .order = gpublas3ColumnMajor, .M = 2048, .N = 3,
                       .K = 4, .alpha = 2, .beta = 0, .transA = gpublas3Trans, .lda = 4, .ldb = 4, .ldc = 2050 };
    spec_case syr2k = { .routine = SPEC_SYR2K, .dbl = 1, .order = gpublas3ColumnMajor, .N = 300, .K = 5,
                        .alpha = 0.5, .beta = 2, .uplo = gpublas3Lower, .lda = 301, .ldb = 300, .ldc = 303 };
    run(&big, 0);
    run(&wide, 1);
    run(&tall, 0);
    run(&syr2k, 1);
    assert_int_equal(failures, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gemm),
        cmocka_unit_test(test_symm),
        cmocka_unit_test(test_syrk_syr2k),
        cmocka_unit_test(test_trmm_trsm),
        cmocka_unit_test(test_special_values),
        cmocka_unit_test(test_long_calls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

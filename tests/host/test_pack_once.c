/* SPDX-License-Identifier: BSD-3-Clause */
/* The drop-ins' panels pack their shared operand once (routines/plan's
 * g3_reuse): GEMM with A shared (wide
 * calls, cut into column panels) and with B shared (tall calls, row
 * panels) under every transpose of both operands, SYMM (HEMM) and TRMM on
 * both sides with both triangles, in S, D, C and Z, on odd sizes with
 * padded leading dimensions, beta = 0 (C holds NaN) and not, against
 * OpenBLAS; and a call whose last panels fall into another shape class
 * than the first, which must keep the first panel's parameter set (the
 * packed copy's layout).  ctest runs it with tiny panels
 * (GPUBLAS3_PANEL_KB=8), so that every call is several panels, where each
 * call must say (GPUBLAS3_VERBOSE) that it packed its shared operand once
 * for all its whole-operand panels; and again with a scratch limit (GPUBLAS3_SCRATCH_LIMIT) too small for a whole packed
 * operand, where the sub-calls split it and pack as usual: results only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "dropin_test.h"

static const gpublas3Transpose transposes[] = { gpublas3NoTrans, gpublas3Trans, gpublas3ConjTrans };
static int limited, failures;
static unsigned seed = 1;

/* Runs one case (Fortran names for real types, CBLAS for complex ones)
 * with stderr captured; returns what the library said, to be freed. */
static char *run_captured(const spec_case *c)
{
    fflush(stderr);
    FILE *log = tmpfile();
    int saved = dup(2);
    if (!log || saved < 0 || dup2(fileno(log), 2) < 0)
        abort();
    int bad = dcase_run(c, c->cplx, 0, seed++);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    long len = ftell(log);
    char *text = calloc(1, (size_t)len + 1);
    if (!text)
        abort();
    rewind(log);
    if (fread(text, 1, (size_t)len, log) != (size_t)len)
        abort();
    fclose(log);
    if (bad) {
        fputs(text, stderr);
        failures++;
    }
    return text;
}

/* The call's report: its shared operand packed once for at least two
 * panels. */
static void expect_once(const spec_case *c, const char *text)
{
    if (limited)
        return;
    const char *at = strstr(text, " time(s) for ");
    int packs = 0, panels = 0;
    char desc[256];
    if (at)
        while (at > text && at[-1] != ' ')
            at--;
    int said = at && sscanf(at, "%d time(s) for %d panel", &packs, &panels) == 2;
    spec_describe(c, desc, sizeof desc);
    if (!said || packs != 1 || panels < 2) {
        fprintf(stderr, "FAIL %s: the shared operand was not packed once for several panels:\n%s", desc, text);
        failures++;
    }
}

static void check(spec_case c, size_t pad)
{
    spec_complete(&c);
    c.lda += pad;
    c.ldb += pad + 1;
    c.ldc += pad + 2;
    char *text = run_captured(&c);
    expect_once(&c, text);
    free(text);
}

/* Sizes over the panels and the tiles: wide (A shared) or tall (B shared). */
static spec_case base(spec_routine r, int type, int tall)
{
    return (spec_case){ .routine = r, .dbl = type & 1, .cplx = type >> 1, .order = gpublas3ColumnMajor,
                        .M = tall ? 150 : 37, .N = tall ? 29 : 150, .K = 41, .alpha = 1.25,
                        .alpha_im = type >> 1 ? -0.5 : 0, .beta = -0.75, .beta_im = type >> 1 ? 0.25 : 0,
                        .diag = gpublas3NonUnit };
}

static void test_gemm(void **state)
{
    (void)state;
    for (int type = 0; type < 4; type++)
        for (int tall = 0; tall < 2; tall++)
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) {
                    spec_case c = base(SPEC_GEMM, type, tall);
                    c.transA = transposes[a];
                    c.transB = transposes[b];
                    if ((a == 2 || b == 2) && !c.cplx && (a + b) % 2)
                        continue; /* real ConjTrans is Trans: test_fortran has it */
                    check(c, (size_t)(a + b) % 3);
                    if (a == b) { /* beta = 0: C holds NaN, never read */
                        c.beta = c.beta_im = 0;
                        check(c, 1);
                    }
                }
    assert_int_equal(failures, 0);
}

static void test_symm_trmm(void **state)
{
    (void)state;
    for (int type = 0; type < 4; type++)
        for (int side = 0; side < 2; side++)
            for (int up = 0; up < 2; up++) {
                spec_case c = base(SPEC_SYMM, type, side);
                c.side = side ? gpublas3Right : gpublas3Left;
                c.uplo = up ? gpublas3Lower : gpublas3Upper;
                check(c, 2);
                if (c.cplx) {
                    c.routine = SPEC_HEMM;
                    check(c, 1);
                }
                c.routine = SPEC_TRMM;
                for (int t = 0; t < (c.cplx ? 3 : 2); t++) {
                    c.transA = transposes[t];
                    c.diag = t == 1 ? gpublas3Unit : gpublas3NonUnit;
                    check(c, (size_t)t);
                }
            }
    assert_int_equal(failures, 0);
}

/* DGEMM 1100 x 1600 x 24: panels of 192 columns (the large shape class),
 * then of 32 and 16 (the skinny class, M >= 1024 and N <= 128), which
 * keep the large set of the panel that packed A. */
static void test_set_kept(void **state)
{
    (void)state;
    spec_case c = { .routine = SPEC_GEMM, .dbl = 1, .order = gpublas3ColumnMajor, .M = 1100, .N = 1600, .K = 24,
                    .alpha = 0.5, .beta = 2 };
    spec_complete(&c);
    char *text = run_captured(&c);
    expect_once(&c, text);
    int skinny = strstr(text, "N=16 K=24 terms=1 tri=0 band=0: packed, skinny set") != NULL;
    if (!limited && skinny) {
        fprintf(stderr, "FAIL: the 16-column panels took the skinny set:\n%s", text);
        failures++;
    }
    free(text);
    assert_int_equal(failures, 0);
}

int main(void)
{
    limited = getenv("GPUBLAS3_SCRATCH_LIMIT") != NULL;
    setenv("GPUBLAS3_VERBOSE", "1", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gemm),
        cmocka_unit_test(test_symm_trmm),
        cmocka_unit_test(test_set_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

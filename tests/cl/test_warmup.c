/* SPDX-License-Identifier: BSD-3-Clause */
/* The suite's warm-up (ctest fixture g3_kernels): every routine of one real
 * precision and its complex form, both orders, each side, triangle and
 * transpose, at a size under one tile and one over several, under the
 * automatic plan and with each path forced, so that the kernels most tests
 * use (the device's own parameter sets) are compiled once, into the disk
 * caches (gpublas3's and the driver's), before the tests that run side by
 * side start; otherwise each of them compiles the same programs at the same
 * time.  The calls are judged like any other (check_case), but the routine
 * tests are where the options are checked.  argv[1]: s (S and C) or d (D
 * and Z): the two share no program, so ctest runs them side by side. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "harness.h"

static int dbl;

static void every_path(void **state)
{
    (void)state;
    static const char *const plans[] = { NULL, "packed", "splitk", "direct" };
    static const char *const var[] = { "GPUBLAS3_PLAN" };
    static const size_t sizes[2][3] = { { 9, 13, 7 }, { 130, 70, 40 } };
    int fails = 0, n = 0;
    for (int p = 0; p < 4; p++) {
        restart_with(1, var, &plans[p]);
        for (int r = 0; r < SPEC_NALL; r++)
            for (int cplx = r >= SPEC_NROUTINES; cplx < 2; cplx++)
                for (int s = 0; s < 2; s++)
                    for (int o = 0; o < 8; o++, n++) {
                        spec_case c = { .routine = (spec_routine)r, .dbl = dbl, .cplx = cplx,
                                        .order = orders[o >> 2], .side = sides[o & 1], .uplo = uplos[(o >> 1) & 1],
                                        .transA = (o >> 1) & 1 ? (r == SPEC_HERK || r == SPEC_HER2K
                                                                  ? gpublas3ConjTrans : gpublas3Trans)
                                                               : gpublas3NoTrans,
                                        .transB = transposes[o & 1], .diag = diags[o & 1],
                                        .M = sizes[s][0], .N = sizes[s][1], .K = sizes[s][2],
                                        .alpha = 1.5, .beta = 0.5 };
                        fails += check_case(&c, (uint64_t)n, 0);
                    }
    }
    assert_int_equal(fails, 0);
}

int main(int argc, char **argv)
{
    if (argc != 2 || (strcmp(argv[1], "s") && strcmp(argv[1], "d"))) {
        fprintf(stderr, "usage: test_warmup s|d\n");
        return 2;
    }
    dbl = argv[1][0] == 'd';
    const struct CMUnitTest tests[] = { cmocka_unit_test(every_path) };
    return cmocka_run_group_tests_name("warm-up", tests, env_open, env_close);
}

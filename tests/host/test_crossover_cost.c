/* SPDX-License-Identifier: BSD-3-Clause */
/* What the crossover (routines/dropin/crossover.c) and the host rate
 * (host_rate.c) cost a call they keep on the host, built into this test
 * from source: the device is PoCL on the host's CPU (its table row), the
 * host BLAS and the clock are the test's (a fake clock that advances a step
 * at each read, so that the first timing reads 100 GFLOP/s), and the TRSM
 * plan is counted (the link's --wrap).
 *   cheap     the tiny TRSMs and SYRKs of reference LAPACK's recursive
 *             panels are kept on the host without a TRSM plan and run
 *             there without a clock read; a call that can show more than
 *             the timed rate is still timed;
 *   same_way  without GPUBLAS3_VERBOSE (the short way) every call goes
 *             where the whole model, verbose, sends it, before and after
 *             the device's calls have taught it a correction. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "dropin.h"
#include "host.h"

/* ---- what crossover.c and host_rate.c ask of their neighbours ---- */
static int verbose, runs, clock_reads, plans;
static double clock_now, clock_step = 2.0 * 256 * 256 * 256 / 100e9;  /* a GEMM of 256 at 100 GFLOP/s */

const char *g3h_chosen_device(cl_device_type *type)
{
    *type = CL_DEVICE_TYPE_CPU;
    return "pthread-skylake-avx512-Intel(R) Xeon(R) Processor";
}
int g3h_solve_leaves(int dbl, int cplx) { return 0; }
int g3h_verbose(void) { return verbose; }
size_t g3h_panel_bytes(void) { return (size_t)32 << 20; }
double g3h_seconds(void)
{
    clock_reads++;
    return clock_now += clock_step;
}
int g3b_have(const g3d_call *c) { return 1; }
void g3b_run(const g3d_call *c) { runs++; }
void __real_g3d_plan_make(const g3d_call *c, size_t panel_bytes, g3d_plan *pl);
void __wrap_g3d_plan_make(const g3d_call *c, size_t panel_bytes, g3d_plan *pl)
{
    plans++;
    __real_g3d_plan_make(c, panel_bytes, pl);
}

static g3d_call trsm(int dbl, char side, int m, int n)
{
    return (g3d_call){ .routine = G3D_TRSM, .dbl = dbl, .side = side, .uplo = 'L', .trans = 'T', .transb = 'N',
                       .diag = 'N', .m = m, .n = n, .alpha = 1, .lda = side == 'L' ? m : n, .ldb = m, .ldc = m };
}
static g3d_call syrk(int dbl, int n, int k)
{
    return (g3d_call){ .routine = G3D_SYRK, .dbl = dbl, .uplo = 'L', .trans = 'N', .transb = 'N', .n = n, .k = k,
                       .alpha = -1, .beta = 1, .lda = n, .ldc = n };
}
static g3d_call gemm(int dbl, int m, int n, int k)
{
    return (g3d_call){ .routine = G3D_GEMM, .dbl = dbl, .trans = 'N', .transb = 'N', .m = m, .n = n, .k = k,
                       .alpha = 1, .beta = 1, .lda = m, .ldb = k, .ldc = m };
}

/* The way of c without verbose (the host BLAS run as dropin.c runs it:
 * timed where it teaches) and the clock reads and plans it took. */
static int way(const g3d_call *c, int *reads, int *planned)
{
    double t[2];
    clock_reads = plans = 0;
    int dev = g3x_to_device(c, t, NULL, 0);
    if (!dev)
        g3r_run(c);
    *reads = clock_reads;
    *planned = plans;
    return dev;
}

static void cheap(void **state)
{
    (void)state;
    int reads, planned;
    g3r_start();  /* the first timing, on the fake clock */
    for (int dbl = 0; dbl < 2; dbl++)
        for (int n = 1; n <= 32; n *= 2) {
            g3d_call small[] = { trsm(dbl, 'R', n, n), syrk(dbl, n, n), gemm(dbl, n, n, n) };
            for (int i = 0; i < 3; i++) {
                runs = 0;
                assert_int_equal(way(&small[i], &reads, &planned), 0);
                assert_int_equal(runs, 1);
                assert_int_equal(planned, 0);
                assert_int_equal(reads, 0);
            }
        }
    /* 34 MFLOP, 5 us at 6.7 TFLOP/s: it could show more than 100 GFLOP/s */
    g3d_call big = gemm(1, 256, 256, 256);
    assert_int_equal(way(&big, &reads, &planned), 0);
    assert_int_equal(reads, 2);
}

static void same_way(void **state)
{
    (void)state;
    g3r_start();
    for (int round = 0; round < 2; round++) {
        int checked = 0, to_device = 0;
        for (int dbl = 0; dbl < 2; dbl++)
            for (int m = 1; m <= 16384; m *= 4)
                for (int n = 1; n <= 16384; n *= 4) {
                    g3d_call c[] = { trsm(dbl, 'L', m, n), trsm(dbl, 'R', m, n), syrk(dbl, m, n),
                                     gemm(dbl, m, n, 64), gemm(dbl, m, m, n) };
                    for (int i = 0; i < 5; i++) {
                        double t[2];
                        char why[640];
                        verbose = 1;
                        int full = g3x_to_device(&c[i], t, why, sizeof why);
                        verbose = 0;
                        int dev = g3x_to_device(&c[i], t, NULL, 0);
                        if (dev != full)
                            print_message("FAIL: routine %d m=%d n=%d k=%d: %d, the whole model %d (%s)\n", (int)c[i].routine,
                                          c[i].m, c[i].n, c[i].k, dev, full, why);
                        assert_int_equal(dev, full);
                        checked++;
                        to_device += dev;
                    }
                }
        print_message("round %d: %d calls the same way, %d of them to the device\n", round, checked, to_device);
        assert_true(to_device > 0 && to_device < checked);
        /* The device's calls of every size ran at a tenth of the model's time:
         * from the second on, each octave's correction is 0.1. */
        for (int dbl = 0; dbl < 2; dbl++)
            for (int n = 1; n <= 16384; n *= 2) {
                g3d_call c[] = { trsm(dbl, 'L', n, n), gemm(dbl, n, n, n) };
                for (int i = 0; i < 2; i++) {
                    double t[2];
                    char why[640];
                    verbose = 1;
                    g3x_to_device(&c[i], t, why, sizeof why);
                    for (int k = 0; k < 3; k++)
                        g3x_device_took(&c[i], 0.1 * t[1]);
                }
            }
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    const struct CMUnitTest cheap_tests[] = { cmocka_unit_test(cheap) };
    const struct CMUnitTest way_tests[] = { cmocka_unit_test(same_way) };
    if (strcmp(mode, "cheap") == 0)
        return cmocka_run_group_tests(cheap_tests, NULL, NULL);
    if (strcmp(mode, "same_way") == 0)
        return cmocka_run_group_tests(way_tests, NULL, NULL);
    fprintf(stderr, "usage: %s cheap|same_way\n", argv[0]);
    return 2;
}

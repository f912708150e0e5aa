/* SPDX-License-Identifier: BSD-3-Clause */
/* The crossover model's TRSM price (routines/dropin/crossover.c), built
 * into this test from source with dropin_plan.c; what crossover.c asks of
 * the drop-ins' device state and of the host rate is answered here: the
 * device is the H100 (its table row), the host BLAS's rate is the test's,
 * and whether the device solves TRSMs in leaves is argv[1]:
 *   leaves  (the H100's tuned sets) solves are priced as leaves, below
 *           the blocks term, which priced them before, so a
 *           DTRSM or STRSM whose host time falls between the two goes to
 *           the device; complex solves as their real twins with twice the
 *           bytes of B and four times the arithmetic; the row
 *           prices the H100's measured solves within the fit's error;
 *   blocks  (a set with trsm_leaf 0) every solve, real or complex, costs
 *           the blocks term;
 *   h200    an H200 (whose tuned sets are the H100's) takes the H100's
 *           row: the measured solves priced as there.
 * Every time is read from the model's own verbose reason. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "dropin.h"
#include "host.h"

/* ---- what crossover.c asks of its neighbours ---- */
static int leaves_set;                       /* argv[1] */
static const char *device_name = "NVIDIA H100 80GB HBM3";
static double host_gflops = 100;
static size_t panel_bytes = (size_t)32 << 20;  /* the drop-ins' default */

const char *g3h_chosen_device(cl_device_type *type)
{
    *type = CL_DEVICE_TYPE_GPU;
    return device_name;
}
int g3h_solve_leaves(int dbl, int cplx) { return leaves_set; }
int g3h_verbose(void) { return 1; }
size_t g3h_panel_bytes(void) { return panel_bytes; }
void g3r_start(void) {}
double g3r_gflops(int dbl, double flops, char *why, size_t len)
{
    if (why)
        snprintf(why, len, "the test's");
    return host_gflops;
}

/* The H100 row's blocks term (crossover.c: its fit, kept for the
 * solves that take blocks): us per panel, and per block of 128. */
static const double BLOCKS_US[2] = { 43, 71 };
/* and its leaves' terms, S and D: per panel, per block of 32, per million
 * elements of B, per GFLOP */
static const double LEAF_US[2][4] = { { 7, 3.1, 42, 6.2 }, { 9, 4.2, 69, 6.8 } };
/* The reason prints times to 3 significant digits. */
#define DIGITS 5e-3

typedef struct {
    double t[2];       /* the model's host and device times */
    int dev;           /* its choice */
    double part;       /* the TRSM's part of the device time */
    int blocks, rows;  /* its blocks and their rows */
    int leaves;        /* priced as leaves */
    char why[640];
} priced;

static g3d_call trsm(int dbl, int cplx, char side, int m, int n)
{
    return (g3d_call){ .routine = G3D_TRSM, .dbl = dbl, .cplx = cplx, .side = side, .uplo = 'L', .trans = 'N',
                       .transb = 'N', .diag = 'N', .m = m, .n = n, .alpha = 1, .lda = side == 'L' ? m : n,
                       .ldb = m, .ldc = m };
}

static priced price(const g3d_call *c)
{
    priced p;
    p.dev = g3x_to_device(c, p.t, p.why, sizeof p.why);
    const char *s = strstr(p.why, " s of it TRSM's");
    assert_non_null(s);
    while (s > p.why && s[-1] != '(')
        s--;
    int used = 0;
    assert_int_equal(sscanf(s, "%lg s of it TRSM's %d blocks of %d%n", &p.part, &p.blocks, &p.rows, &used), 3);
    p.leaves = strncmp(s + used, ", in leaves)", 12) == 0;
    assert_true(p.leaves || s[used] == ')');
    return p;
}

static int panels(const g3d_call *c)
{
    g3d_plan pl;
    g3d_plan_make(c, panel_bytes, &pl);
    return pl.npanels;
}

/* The blocks term's price of c: per panel, fixed and per block of 128. */
static double blocks_term(const g3d_call *c)
{
    int order = c->side == 'L' ? c->m : c->n;
    return 1e-6 * panels(c) * (BLOCKS_US[0] + (order + 127) / 128 * BLOCKS_US[1]);
}

/* Real solves of these shapes cost less as leaves than the blocks term;
 * with the host's rate set so that its time lies between the two device
 * times, the call goes to the device, where the blocks term would have
 * kept it on the host.  Several panels for the widest. */
static void leaves_cheaper(void **state)
{
    static const int shapes[][3] = { { 'L', 128, 128 }, { 'L', 256, 256 }, { 'L', 64, 8192 },
                                     { 'R', 8192, 64 }, { 'L', 1024, 1024 }, { 'L', 512, 40000 } };
    for (int dbl = 0; dbl < 2; dbl++)
        for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
            g3d_call c = trsm(dbl, 0, (char)shapes[i][0], shapes[i][1], shapes[i][2]);
            priced r = price(&c);
            assert_true(r.leaves);
            double blocks = blocks_term(&c), t_old = r.t[1] - r.part + blocks; /* priced without leaves */
            print_message("%cTRSM %c %d x %d, %d panel(s): leaves %.3g s, blocks %.3g s; device %.3g s, was %.3g s\n",
                          dbl ? 'D' : 'S', c.side, c.m, c.n, panels(&c), r.part, blocks, r.t[1], t_old);
            assert_true(r.part < blocks * (1 - 2 * DIGITS));
            host_gflops = g3x_flops(&c) / sqrt(r.t[1] * t_old) / 1e9;  /* host time between the two */
            priced h = price(&c);
            host_gflops = 100;
            assert_true(h.t[1] < h.t[0] && h.t[0] < t_old);
            assert_true(h.dev);
        }
}

/* Solves priced by the blocks term, fixed and per block of 128 paid by
 * each panel, in both precisions, the reason saying blocks of 128. */
static void expect_blocks(int cplx, const int (*shapes)[2], size_t count)
{
    for (int dbl = 0; dbl < 2; dbl++)
        for (size_t i = 0; i < count; i++) {
            g3d_call c = trsm(dbl, cplx, 'L', shapes[i][0], shapes[i][1]);
            priced p = price(&c);
            assert_false(p.leaves);
            assert_int_equal(p.rows, 128);
            assert_int_equal(p.blocks, (shapes[i][0] + 127) / 128);
            assert_true(fabs(p.part - blocks_term(&c)) <= DIGITS * p.part);
        }
}

static const int complex_shapes[][2] = { { 64, 300 }, { 128, 300 }, { 129, 300 }, { 1000, 20000 }, { 4096, 300 } };

/* Without leaves complex solves pay the blocks term too. */
static void complex_blocks(void **state)
{
    expect_blocks(1, complex_shapes, sizeof complex_shapes / sizeof complex_shapes[0]);
}

/* In leaves a complex solve costs its real twin's price plus once more
 * the term per element of B, three times more the term per flop, and the
 * per-panel terms of the panels its larger elements add. */
static void complex_leaves(void **state)
{
    for (int dbl = 0; dbl < 2; dbl++)
        for (size_t i = 0; i < sizeof complex_shapes / sizeof complex_shapes[0]; i++) {
            g3d_call r = trsm(dbl, 0, 'L', complex_shapes[i][0], complex_shapes[i][1]);
            g3d_call z = trsm(dbl, 1, 'L', r.m, r.n);
            priced pr = price(&r), pz = price(&z);
            assert_true(pr.leaves && pz.leaves);
            const double *l = LEAF_US[dbl], order = r.m, rhs = r.n;
            double more = 1e-6 * (panels(&z) - panels(&r)) * (l[0] + (r.m + 31) / 32 * l[1]) +
                          1e-12 * order * rhs * l[2] + 3e-15 * order * order * rhs * l[3];
            print_message("%cTRSM %d x %d: real %.3g s, complex %.3g s\n", dbl ? 'Z' : 'C', r.m, r.n, pr.part,
                          pz.part);
            assert_true(fabs(pz.part - pr.part - more) <= DIGITS * (pz.part + pr.part));
        }
}

/* The reason names the leaves' blocks of 32: ceil(order / 32) of them. */
static void reason(void **state)
{
    g3d_call c = trsm(1, 0, 'R', 100, 1000);
    priced p = price(&c);
    assert_true(p.leaves);
    assert_int_equal(p.rows, 32);
    assert_int_equal(p.blocks, 32);
    assert_non_null(strstr(p.why, " s of it TRSM's 32 blocks of 32, in leaves), host BLAS "));
}

/* The H100 row prices its measured solves (one cl_mem call each: one
 * panel) within the fit's worst error with its constants as rounded in
 * the table (16.1 %, crossover.c), plus the reason's rounding: us beyond
 * the row's GEMM model (H100, 2026-11-27: squares, left lower N, and
 * LAPACK's LU and Cholesky panels). */
static void measured(void **state)
{
    static const struct { int dbl; char side; int m, n; double us; } pts[] = {
        { 0, 'L', 128, 128, 20 },     { 0, 'L', 256, 256, 34 },     { 0, 'L', 512, 512, 60 },
        { 0, 'L', 1024, 1024, 160 },  { 0, 'L', 2048, 2048, 460 },  { 0, 'L', 4096, 4096, 1476 },
        { 1, 'L', 128, 128, 28 },     { 1, 'L', 256, 256, 45 },     { 1, 'L', 512, 512, 92 },
        { 1, 'L', 1024, 1024, 235 },  { 1, 'L', 2048, 2048, 622 },  { 1, 'L', 4096, 4096, 2128 },
        { 0, 'L', 64, 8192, 31 },     { 0, 'L', 256, 8192, 115 },   { 1, 'L', 64, 8192, 48 },
        { 1, 'L', 256, 8192, 172 },   { 0, 'R', 8192, 64, 39 },     { 0, 'R', 8192, 256, 145 },
        { 1, 'R', 8192, 64, 64 },     { 1, 'R', 8192, 256, 212 },
    };
    panel_bytes = (size_t)1 << 30;
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        g3d_call c = trsm(pts[i].dbl, 0, pts[i].side, pts[i].m, pts[i].n);
        assert_int_equal(panels(&c), 1);
        priced p = price(&c);
        double e = p.part * 1e6 / pts[i].us - 1;
        print_message("%cTRSM %c %d x %d: measured %.0f us, priced %.0f (%+.1f %%)\n", pts[i].dbl ? 'D' : 'S',
                      pts[i].side, pts[i].m, pts[i].n, pts[i].us, p.part * 1e6, 100 * e);
        assert_true(fabs(e) <= 0.161 + 2 * DIGITS);
    }
    panel_bytes = (size_t)32 << 20;
}

/* A set without leaves: real solves pay the blocks term. */
static void real_blocks(void **state)
{
    static const int shapes[][2] = { { 128, 16 }, { 256, 256 }, { 1000, 3000 }, { 64, 8192 } };
    expect_blocks(0, shapes, sizeof shapes / sizeof shapes[0]);
}

/* The device's correction: the median of an octave's latest ratios of
 * measured to predicted time, from its second call on.  One fast call
 * among slow ones does not set it (the least ratio did, and sent calls
 * that the device ran slower than the host BLAS to the device); a ratio
 * older than the latest eight drops out. */
static void correction(void **state)
{
    g3d_call c = { .routine = G3D_GEMM, .dbl = 1, .trans = 'N', .transb = 'N', .m = 768, .n = 64, .k = 192,
                   .alpha = 1, .beta = 1, .lda = 768, .ldb = 192, .ldc = 768 };
    double t[2], t0;
    char why[640];
    g3x_to_device(&c, t, why, sizeof why);
    t0 = t[1];
    host_gflops = g3x_flops(&c) / (2 * t0) / 1e9;  /* the host takes twice the model's device time */
    static const struct { double ratio, want; int dev; } steps[] = {
        { 40, 1, 1 },  /* the first call compiles: not kept */
        { 0.5, 0.5, 1 }, { 2, 2, 0 }, { 2.5, 2, 0 }, { 3, 2.5, 0 },  /* kept 0.5 2 2.5 3: upper middle */
    };
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        g3x_device_took(&c, steps[i].ratio * t0);
        int dev = g3x_to_device(&c, t, why, sizeof why);
        print_message("took %.3g x the model: corrected %.3g x, %s (%s)\n", steps[i].ratio, t[1] / t0,
                      dev ? "device" : "host", why);
        assert_true(fabs(t[1] / t0 - steps[i].want) <= 1e-9);
        assert_int_equal(dev, steps[i].dev);
    }
    for (int i = 0; i < 8; i++)
        g3x_device_took(&c, 1.5 * t0);
    assert_int_equal(g3x_to_device(&c, t, why, sizeof why), 1);
    assert_true(fabs(t[1] / t0 - 1.5) <= 1e-9);
    host_gflops = 100;
}

int main(int argc, char **argv)
{
    if (argc != 2 || (strcmp(argv[1], "leaves") != 0 && strcmp(argv[1], "blocks") != 0 &&
                      strcmp(argv[1], "h200") != 0)) {
        fprintf(stderr, "usage: %s leaves|blocks|h200\n", argv[0]);
        return 2;
    }
    leaves_set = strcmp(argv[1], "blocks") != 0;
    if (strcmp(argv[1], "h200") == 0)
        device_name = "NVIDIA H200";
    const struct CMUnitTest leaves[] = {
        cmocka_unit_test(leaves_cheaper),
        cmocka_unit_test(complex_leaves),
        cmocka_unit_test(reason),
        cmocka_unit_test(measured),
        cmocka_unit_test(correction),
    };
    const struct CMUnitTest blocks[] = {
        cmocka_unit_test(real_blocks),
        cmocka_unit_test(complex_blocks),
    };
    return leaves_set ? cmocka_run_group_tests(leaves, NULL, NULL) : cmocka_run_group_tests(blocks, NULL, NULL);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* The plan (routines/plan/plan.c): which path it chooses on representative
 * shapes, read from its GPUBLAS3_VERBOSE line, and split-K's determinism
 * (the same call twice gives bit-identical results), and the knobs that
 * force a class and split-K's slices (GPUBLAS3_SHAPE, GPUBLAS3_SPLITS:
 * right results, and the plan line shows them), and the boundaries of the
 * fields the H100's rows set (splitk_wgs, deepk_max).  Every path's
 * correctness over every routine and option is the routine tests' job,
 * rerun with GPUBLAS3_PLAN forcing each path (tests/cl/CMakeLists.txt).
 *
 * The thresholds are fixed here with GPUBLAS3_PARAMS (direct_max = 32,
 * splitk_k = 256, for every shape class; TRSM's trsm_nb = 16 and
 * trsm_direct = 32), so the expected choices hold on
 * any device: a 2 x 2 output is one tile of any parameter set, and the
 * device has at least two compute units or split-K is never wanted --
 * test_plan then accepts packed for the deep case. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "harness.h"

#define BASE_PARAMS "direct_max=32,splitk_k=256,trsm_leaf=0,trsm_subst=0,trsm_nb=16,trsm_direct=32"

static cl_uint compute_units(void)
{
    cl_uint cu = 0;
    clGetDeviceInfo(env.device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL);
    return cu;
}

static const char *const paths[] = { ": direct,", ": split-k,", ": packed," };

/* Runs case c (judged as everywhere) with stderr captured into text (n
 * bytes), which is also passed on to stderr. */
static void run_logged(const spec_case *c, uint64_t seed, int *fails, char *text, size_t n)
{
    *fails += check_case_logged(c, seed, 0, text, n);
}

/* Runs case c as run_logged; returns the path named by its last plan line
 * ("direct", "split-k", "packed"), or "none"; counts[i], when asked, the
 * plan lines naming paths[i]. */
static const char *path_of(const spec_case *c, uint64_t seed, int *fails, int counts[3])
{
    char text[16384];
    run_logged(c, seed, fails, text, sizeof text);
    const char *line = NULL;
    for (const char *p = strstr(text, "plan: "); p; p = strstr(p + 1, "plan: ")) {
        line = p;
        for (int i = 0; counts && i < 3; i++) {
            const char *hit = strstr(line, paths[i]), *eol = strchr(line, '\n');
            counts[i] += hit && (!eol || hit < eol);
        }
    }
    for (int i = 0; line && i < 3; i++) {
        const char *hit = strstr(line, paths[i]);
        const char *eol = strchr(line, '\n');
        if (hit && (!eol || hit < eol))
            return paths[i] + 2;
    }
    return "none";
}

static void expect_path(const spec_case *c, const char *want, uint64_t seed, int *fails)
{
    const char *got = path_of(c, seed, fails, NULL);
    if (strncmp(got, want, strlen(want)) != 0) {
        char desc[256];
        spec_describe(c, desc, sizeof desc);
        print_error("FAIL %s: plan %s, expected %s\n", desc, got, want);
        (*fails)++;
    }
}

/* A fresh device state with GPUBLAS3_PLAN, _SHAPE and _SPLITS set as
 * given (NULL: unset); they are read when it is made. */
static void restart_forced(const char *plan, const char *shape, const char *splits)
{
    static const char *const vars[] = { "GPUBLAS3_PLAN", "GPUBLAS3_SHAPE", "GPUBLAS3_SPLITS" };
    const char *const values[] = { plan, shape, splits };
    restart_with(3, vars, values);
}

static void restart_with_plan(const char *plan) { restart_forced(plan, NULL, NULL); }

static spec_case gemm(int dbl, size_t M, size_t N, size_t K)
{
    spec_case c = { .routine = SPEC_GEMM, .dbl = dbl, .order = gpublas3ColumnMajor, .transA = gpublas3Trans,
                    .M = M, .N = N, .K = K, .alpha = 1.5, .beta = 0 };
    return c;
}

static void automatic_choice(void **state)
{
    (void)state;
    restart_with_plan(NULL);
    int fails = 0;
    const char *deep = compute_units() >= 2 ? "split-k" : "packed";
    for (int dbl = 0; dbl < 2; dbl++) {
        spec_case c = gemm(dbl, 8, 8, 8);
        expect_path(&c, "direct", 1, &fails);
        c = gemm(dbl, 30, 20, 0); /* K = 0: C scaled, in place */
        c.beta = 2;
        expect_path(&c, "direct", 2, &fails);
        c = gemm(dbl, 300, 300, 300);
        expect_path(&c, "packed", 3, &fails);
        c = gemm(dbl, 2, 2, 16384);
        expect_path(&c, deep, 4, &fails);
        spec_case s = { .routine = SPEC_SYRK, .dbl = dbl, .order = gpublas3RowMajor, .uplo = gpublas3Lower,
                        .N = 16, .K = 5, .alpha = 1, .beta = -1 };
        expect_path(&s, "direct", 5, &fails);
        s.routine = SPEC_SYR2K;
        s.N = 6;
        s.K = 4000;
        expect_path(&s, deep, 6, &fails);
        spec_case t = { .routine = SPEC_TRMM, .dbl = dbl, .order = gpublas3ColumnMajor, .side = gpublas3Left,
                        .uplo = gpublas3Upper, .diag = gpublas3Unit, .M = 8, .N = 3, .alpha = 2 };
        expect_path(&t, "direct", 7, &fails);
    }
    assert_int_equal(fails, 0);
}

/* Forced direct never writes TRMM's B in place where one work-group cannot
 * hold every element its reads touch: 100 rows exceed any direct tile. */
static void trmm_direct_only_in_place(void **state)
{
    (void)state;
    restart_with_plan("direct");
    int fails = 0;
    for (int n = 0; n < 4; n++) {
        spec_case t = { .routine = SPEC_TRMM, .dbl = n % 2, .order = gpublas3ColumnMajor,
                        .side = n / 2 ? gpublas3Right : gpublas3Left, .uplo = gpublas3Lower,
                        .transA = gpublas3Trans, .diag = gpublas3NonUnit, .M = n / 2 ? 3 : 100,
                        .N = n / 2 ? 100 : 3, .alpha = -1 };
        expect_path(&t, "packed", 10 + n, &fails);
    }
    restart_with_plan(NULL);
    assert_int_equal(fails, 0);
}

/* The output of case c run twice from the same data. */
static int same_twice(const spec_case *c, uint64_t seed)
{
    void *out[2];
    size_t bytes = 0;
    int bad = 0, k = spec_output(c) == 'B' ? 1 : 2;
    for (int r = 0; r < 2; r++) {
        test_call t;
        case_start(&t, c, seed, 0, env.q, 0, NULL, 1);
        assert_int_equal(t.status, gpublas3Success);
        assert_int_equal(clWaitForEvents(1, &t.ev), CL_SUCCESS);
        bytes = t.d.n[k] * spec_elem_size(c);
        out[r] = read_back(env.q2, t.m[k], bytes);
        bad |= case_finish(&t); /* also judged against OpenBLAS */
    }
    if (memcmp(out[0], out[1], bytes)) {
        char desc[256];
        spec_describe(c, desc, sizeof desc);
        print_error("FAIL %s: two runs differ\n", desc);
        bad = 1;
    }
    free(out[0]);
    free(out[1]);
    return bad;
}

static void splitk_deterministic(void **state)
{
    (void)state;
    int fails = 0;
    for (int forced = 0; forced < 2; forced++) {
        restart_with_plan(forced ? "splitk" : NULL);
        for (int dbl = 0; dbl < 2; dbl++) {
            spec_case c = gemm(dbl, 2, 2, 16384);
            c.beta = -0.5;
            fails += same_twice(&c, 20 + dbl);
            spec_case s = { .routine = SPEC_SYR2K, .dbl = dbl, .order = gpublas3ColumnMajor,
                            .uplo = gpublas3Upper, .transA = gpublas3Trans, .N = 6, .K = 4000, .alpha = 1,
                            .beta = 1 };
            fails += same_twice(&s, 30 + dbl);
            spec_case t = { .routine = SPEC_TRMM, .dbl = dbl, .order = gpublas3ColumnMajor, .side = gpublas3Right,
                            .uplo = gpublas3Upper, .diag = gpublas3NonUnit, .M = 5, .N = 700, .alpha = 2 };
            fails += same_twice(&t, 40 + dbl);
        }
    }
    restart_with_plan(NULL);
    assert_int_equal(fails, 0);
}

/* The plan's fields from lib/params.h that the H100's rows set, overridden
 * here (GPUBLAS3_PARAMS, read when the device state is made) on top of
 * main's list. */
static void restart_params(const char *extra, const char *shape)
{
    char params[256];
    snprintf(params, sizeof params, "%s,%s", BASE_PARAMS, extra);
    setenv("GPUBLAS3_PARAMS", params, 1);
    restart_forced(NULL, shape, NULL);
}

/* TRSM's blocked path with trsm_direct = 32 (trsm_nb = 16, set in main): M = 100 is 7
 * blocks, each a copy and three products, all direct, and 6 updates, of
 * K = 64 (packed: over direct_max), 32, 32, 16, 16, 16 (direct); complex
 * solves packed but for the update by the last block of 4 rows, which
 * fits direct_max^3 real multiply-adds (the direct kernel's complex mode).
 * Solved by substitution (trsm_subst=1), the blocks are no calls
 * (kernels/subst.cl's launches) and the updates as before.  The same
 * solve twice is bit-identical. */
static void trsm_direct_products(void **state)
{
    (void)state;
    int fails = 0;
    for (int subst = 0; subst < 2; subst++) {
        restart_params(subst ? "trsm_subst=1" : "trsm_subst=0", NULL);
        for (int cplx = 0; cplx < 2; cplx++)
            for (int dbl = 0; dbl < 2; dbl++) {
                spec_case t = { .routine = SPEC_TRSM, .dbl = dbl, .cplx = cplx, .order = gpublas3ColumnMajor,
                                .side = gpublas3Left, .uplo = gpublas3Lower, .transA = gpublas3Trans,
                                .diag = gpublas3NonUnit, .M = 100, .N = 40, .alpha = 1.5,
                                .alpha_im = cplx ? 0.5 : 0 };
                int counts[3] = { 0, 0, 0 }, blocks = subst ? 0 : 7 * 3;
                path_of(&t, 50 + dbl, &fails, counts);
                int want_direct = cplx ? 1 : blocks + 5, want_packed = cplx ? blocks + 5 : 1;
                if (counts[0] != want_direct || counts[1] != 0 || counts[2] != want_packed) {
                    print_error("FAIL %ctrsm M=100 N=40 nb=16 subst=%d: %d direct, %d split-k, %d packed calls; "
                                "expected %d, 0, %d\n", "sdcz"[dbl + 2 * cplx], subst, counts[0], counts[1],
                                counts[2], want_direct, want_packed);
                    fails++;
                }
                fails += same_twice(&t, 52 + dbl);
            }
    }
    restart_params("trsm_subst=0", NULL);
    assert_int_equal(fails, 0);
}

/* The cases a forced class or slice count runs (i < FORCED_CASES): GEMM
 * over tile edges with offsets and padded leading dimensions (TN, then
 * NT), SYR2K (C's upper triangle, two terms), TRMM on the right (B read
 * and overwritten), and a GEMM the automatic plan runs direct. */
#define FORCED_CASES 5
static spec_case forced_case(int i, int dbl)
{
    spec_case c = gemm(dbl, 70, 33, 300);
    c.beta = 0.75;
    if (i < 2) {
        if (i == 1) {
            c.transA = gpublas3NoTrans;
            c.transB = gpublas3Trans;
            c.order = gpublas3RowMajor;
        }
        c.offA = 5; c.offB = 2; c.offC = 11;
        return padded(c, 3);
    }
    if (i == 2)
        return (spec_case){ .routine = SPEC_SYR2K, .dbl = dbl, .order = gpublas3ColumnMajor, .uplo = gpublas3Upper,
                            .transA = gpublas3Trans, .N = 45, .K = 200, .alpha = 1, .beta = -1, .offC = 3 };
    if (i == 3)
        return (spec_case){ .routine = SPEC_TRMM, .dbl = dbl, .order = gpublas3ColumnMajor, .side = gpublas3Right,
                            .uplo = gpublas3Upper, .diag = gpublas3NonUnit, .M = 37, .N = 130, .alpha = 2 };
    return gemm(dbl, 9, 7, 13);
}

/* Every plan line in text must name the class `shape` (NULL: any), as
 * forced, and when `splits` slices are forced, show split-K's choice:
 * min(splits, k-tiles) slices of whole k-tiles, rounded to equal depths
 * (packed where that leaves one).  Returns the lines seen, or -1 after
 * printing the first wrong one. */
static int check_forced_lines(const char *text, const char *shape, int splits)
{
    int lines = 0;
    for (const char *p = strstr(text, "plan: "); p; p = strstr(p + 1, "plan: ")) {
        char line[512], set[48], forced[48];
        snprintf(line, sizeof line, "%.*s", (int)strcspn(p, "\n"), p);
        snprintf(set, sizeof set, ", %s set (", shape ? shape : "");
        snprintf(forced, sizeof forced, " shape=%s", shape ? shape : "");
        size_t K = 0, kslice = 0;
        int kwg = 0, got = 0;
        const char *k = strstr(line, " K="), *w = strstr(line, "kwg=");
        int ok = k && sscanf(k, " K=%zu", &K) == 1 && (!shape || (strstr(line, set) && strstr(line, forced)));
        if (ok && splits) {
            ok = w && sscanf(w, "kwg=%d, splits=%d of k=%zu", &kwg, &got, &kslice) == 3 && kwg > 0;
            size_t tiles = ok ? (K + kwg - 1) / kwg : 0, want = tiles < (size_t)splits ? tiles : (size_t)splits;
            size_t depth = want ? (tiles + want - 1) / want : 1, n = (tiles + depth - 1) / depth;
            ok = ok && (n >= 2 ? strstr(line, ": split-k,") && (size_t)got == n && kslice == depth * kwg
                               : strstr(line, ": packed,") && got == 1);
        }
        if (!ok) {
            print_error("FAIL: %s: expected the %s set, %d slices forced\n", line, shape ? shape : "any", splits);
            return -1;
        }
        lines++;
    }
    return lines;
}

/* Runs forced case i and checks its plan lines; 1 if anything failed. */
static int forced_run(int i, int dbl, const char *shape, int splits, uint64_t seed)
{
    char text[16384];
    int fails = 0;
    spec_case c = forced_case(i, dbl);
    run_logged(&c, seed, &fails, text, sizeof text);
    if (check_forced_lines(text, shape, splits) < 1) {
        print_error("FAIL case %d %s: no plan line, or a wrong one\n", i, dbl ? "double" : "single");
        fails++;
    }
    return fails != 0;
}

static const char *const classes[] = { "large", "small", "skinny", "deepk", "medium" };

/* GPUBLAS3_SHAPE: every call runs on the class's set, on every path. */
static void forced_class(void **state)
{
    (void)state;
    int fails = 0;
    for (int s = 0; s < 5; s++) {
        restart_forced(NULL, classes[s], NULL);
        for (int i = 0; i < FORCED_CASES; i++)
            for (int dbl = 0; dbl < 2; dbl++)
                fails += forced_run(i, dbl, classes[s], 0, 60 + i);
    }
    restart_forced(NULL, NULL, NULL);
    assert_int_equal(fails, 0);
}

/* GPUBLAS3_SPLITS: split-K with that many slices where K has as many
 * k-tiles (each class's kwg differs), else fewer, else packed; with a
 * class forced too. */
static void forced_splits(void **state)
{
    (void)state;
    static const struct { const char *splits, *shape; } runs[] = {
        { "2", NULL }, { "4", "deepk" }, { "16", "skinny" }, { "64", "large" }
    };
    int fails = 0;
    for (int r = 0; r < 4; r++) {
        restart_forced(NULL, runs[r].shape, runs[r].splits);
        for (int i = 0; i < FORCED_CASES; i++)
            for (int dbl = 0; dbl < 2; dbl++)
                fails += forced_run(i, dbl, runs[r].shape, atoi(runs[r].splits), 70 + i);
    }
    restart_forced(NULL, NULL, NULL);
    assert_int_equal(fails, 0);
}

/* Values that cannot apply are said on stderr and change nothing. */
static void forced_refused(void **state)
{
    (void)state;
    static const struct { const char *plan, *shape, *splits, *said, *path; } runs[] = {
        { "packed", NULL, "4", "GPUBLAS3_SPLITS ignored: GPUBLAS3_PLAN=packed", ": packed," },
        { NULL, "huge", "1", "GPUBLAS3_SHAPE=\"huge\" ignored: not large, small, skinny, deepk, medium", ": packed," },
        { NULL, NULL, "65", "GPUBLAS3_SPLITS=\"65\" ignored: not from 2 to 64", ": packed," },
    };
    int fails = 0;
    for (int r = 0; r < 3; r++) {
        restart_forced(runs[r].plan, runs[r].shape, runs[r].splits);
        char text[16384];
        spec_case c = forced_case(0, 0);
        run_logged(&c, 80 + r, &fails, text, sizeof text);
        if (!strstr(text, runs[r].said) || !strstr(text, runs[r].path) || strstr(text, "splits=4;") ||
            check_forced_lines(text, NULL, 0) < 1) {
            print_error("FAIL: expected \"%s\" and the %s path\n", runs[r].said, runs[r].path + 2);
            fails++;
        }
    }
    restart_forced(NULL, NULL, NULL);
    assert_int_equal(fails, 0);
}


/* splitk_wgs: a call splits when splitk_wgs x compute units work-groups
 * make two or more per output tile, into that many over its tiles: one
 * tile, then the boundary (half of them, then one tile more), with 2 and
 * 4 work-groups per unit.  The class is forced (its set's tile is read
 * from the plan line), so that any M keeps the same set. */
static void split_target(void **state)
{
    (void)state;
    int fails = 0;
    const size_t cu = compute_units();
    for (int wgs = 2; wgs <= 4; wgs *= 2) {
        char extra[32], text[16384];
        snprintf(extra, sizeof extra, "splitk_wgs=%d", wgs);
        restart_params(extra, "small");
        for (int dbl = 0; dbl < 2; dbl++) {
            spec_case c = gemm(dbl, 64, 2, 4096); /* over direct_max^3 */
            int mwg = 0;
            run_logged(&c, 90, &fails, text, sizeof text);
            const char *m = strstr(text, "mwg=");
            assert_true(m && sscanf(m, "mwg=%d", &mwg) == 1);
            const size_t half = wgs * cu / 2, tiles[3] = { 1, half, half + 1 };
            for (int t = 0; t < 3; t++) {
                c = gemm(dbl, mwg * tiles[t], 1, 4096);
                size_t want = tiles[t] >= wgs * cu ? 1 : wgs * cu / tiles[t];
                want = want < 4096 / 256 ? want : 4096 / 256;
                run_logged(&c, 91 + t, &fails, text, sizeof text);
                if (check_forced_lines(text, "small", (int)want) != 1) {
                    print_error("FAIL splitk_wgs=%d, %zu tiles: expected %zu slices\n", wgs, tiles[t], want);
                    fails++;
                }
            }
        }
    }
    setenv("GPUBLAS3_PARAMS", BASE_PARAMS, 1);
    restart_forced(NULL, NULL, NULL);
    assert_int_equal(fails, 0);
}

/* A class boundary: under the plan's field `extra` (GPUBLAS3_PARAMS), an
 * M x N x K GEMM in both precisions must take the set named `set`; the
 * failures. */
static int expect_set(const char *extra, size_t M, size_t N, size_t K, const char *set, int seed)
{
    int fails = 0;
    restart_params(extra, NULL);
    for (int dbl = 0; dbl < 2; dbl++) {
        char text[16384];
        spec_case c = gemm(dbl, M, N, K);
        run_logged(&c, seed, &fails, text, sizeof text);
        if (!strstr(text, set)) {
            print_error("FAIL %s, %zu x %zu x %zu: expected%s...)\n", extra, M, N, K, set);
            fails++;
        }
    }
    return fails;
}

/* deepk_max: deep-K calls with sides over it take the small class's set,
 * up to sides of 512 (then large); by default (512) all of them are deepk.
 * With no medium class (medium_wgs 0): deepk_widest tests the rule where
 * there is one. */
static void deepk_boundary(void **state)
{
    (void)state;
    static const struct { const char *extra; size_t hi; const char *set; } runs[] = {
        { "deepk_max=128,medium_wgs=0", 128, ", deepk set (" }, { "deepk_max=128,medium_wgs=0", 129, ", small set (" },
        { "deepk_max=128,medium_wgs=0", 512, ", small set (" }, { "deepk_max=128,medium_wgs=0", 513, ", large set (" },
        { "deepk_max=512,medium_wgs=0", 129, ", deepk set (" }, { "deepk_max=512,medium_wgs=0", 512, ", deepk set (" },
    };
    int fails = 0;
    for (int r = 0; r < 6; r++)
        fails += expect_set(runs[r].extra, runs[r].hi, 3, 8192, runs[r].set, 95 + r);
    setenv("GPUBLAS3_PARAMS", BASE_PARAMS, 1);
    restart_forced(NULL, NULL, NULL);
    assert_int_equal(fails, 0);
}

/* skinny_max: an output of one side at most it (the other large) takes
 * the skinny class's set, one side wider the large class's; both sides
 * (M and N) and the default (128); the other side 1040, over the small
 * class's 1024.  With no medium class (medium_wgs 0; the H100's rows have
 * one): skinny_medium tests where there is one. */
static void skinny_boundary(void **state)
{
    (void)state;
    static const struct { const char *extra; size_t lo; const char *set; } runs[] = {
        { "skinny_max=64,medium_wgs=0", 64, ", skinny set (" }, { "skinny_max=64,medium_wgs=0", 65, ", large set (" },
        { "skinny_max=64,medium_wgs=0", 128, ", large set (" }, { "skinny_max=128,medium_wgs=0", 128, ", skinny set (" },
        { "skinny_max=128,medium_wgs=0", 129, ", large set (" },
    };
    int fails = 0;
    for (int r = 0; r < 5; r++) {
        fails += expect_set(runs[r].extra, runs[r].lo, 1040, 8, runs[r].set, 101 + r);
        fails += expect_set(runs[r].extra, 1040, runs[r].lo, 8, runs[r].set, 101 + r);
    }
    setenv("GPUBLAS3_PARAMS", BASE_PARAMS, 1);
    restart_forced(NULL, NULL, NULL);
    assert_int_equal(fails, 0);
}

/* The work-group tile of class shape's set in each precision, read from
 * a forced call's plan line (GPUBLAS3_PARAMS as the caller set it). */
static void tiles_of(const char *shape, int mwg[2], int nwg[2])
{
    restart_forced(NULL, shape, NULL);
    for (int dbl = 0; dbl < 2; dbl++) {
        char text[16384];
        int fails = 0;
        spec_case c = gemm(dbl, 64, 64, 64); /* over direct_max^3 */
        run_logged(&c, 110 + dbl, &fails, text, sizeof text);
        const char *m = strstr(text, "mwg=");
        assert_int_equal(fails, 0);
        assert_true(m && sscanf(m, "mwg=%d nwg=%d", &mwg[dbl], &nwg[dbl]) == 2);
    }
}

/* The class whose set an M x N x K GEMM took (its plan line), or -1. */
static int class_of(int dbl, size_t M, size_t N, size_t K, int seed, int *fails)
{
    char text[16384];
    spec_case c = gemm(dbl, M, N, K);
    run_logged(&c, seed, fails, text, sizeof text);
    const char *line = strstr(text, "plan: ");
    for (int s = 0; line && s < 5; s++) {
        char set[32];
        snprintf(set, sizeof set, ", %s set (", classes[s]);
        const char *hit = strstr(line, set), *eol = strchr(line, '\n');
        if (hit && (!eol || hit < eol))
            return s;
    }
    return -1;
}

/* 0 if an M x N x K GEMM took class want's set, else 1 (and why, after
 * `what`: the case's settings); class_of's own failures are added. */
static int expect_class(const char *what, int dbl, size_t M, size_t N, size_t K, int want, int seed)
{
    int fails = 0, got = class_of(dbl, M, N, K, seed, &fails);
    if (got != want) {
        print_error("FAIL %s%c %zu x %zu x %zu: the %s set, expected %s\n", what, "sd"[dbl], M, N, K,
                    got < 0 ? "no" : classes[got], classes[want]);
        fails++;
    }
    return fails;
}

static size_t tiles(size_t M, size_t N, int mwg, int nwg)
{
    return ((M + mwg - 1) / mwg) * ((N + nwg - 1) / nwg);
}

/* The device's sets with field `extra` on all of them, and a medium class
 * (the medium set's medium_wgs 2) or none (0). */
static void medium_class(const char *extra, int on)
{
    char params[256];
    snprintf(params, sizeof params, "%s,%s;medium:medium_wgs=%d", BASE_PARAMS, extra, 2 * on);
    setenv("GPUBLAS3_PARAMS", params, 1);
    restart_forced(NULL, NULL, NULL);
}

/* A skinny output whose narrow side is at least the medium set's tile
 * across it takes the medium set where the device has a medium class
 * (medium_wgs > 0), the skinny set where it is narrower or there is none;
 * M and N narrow, both precisions. */
static void skinny_medium(void **state)
{
    (void)state;
    int mm[2], mn[2], fails = 0;
    setenv("GPUBLAS3_PARAMS", BASE_PARAMS, 1);
    tiles_of("medium", mm, mn);
    for (int on = 0; on < 2; on++) {
        medium_class("skinny_max=256", on);
        for (int dbl = 0; dbl < 2; dbl++)
            for (int nside = 0; nside < 2; nside++)
                for (int narrower = 0; narrower < 2; narrower++) {
                    size_t lo = (size_t)(nside ? mn[dbl] : mm[dbl]) - narrower;
                    size_t M = nside ? 1040 : lo, N = nside ? lo : 1040;
                    int want = on && !narrower ? 4 : 2; /* medium, skinny */
                    fails += expect_class(on ? "medium_wgs 2: " : "medium_wgs 0: ", dbl, M, N, 8, want,
                                          170 + 8 * on + 4 * dbl + 2 * nside + narrower);
                }
    }
    setenv("GPUBLAS3_PARAMS", BASE_PARAMS, 1);
    restart_forced(NULL, NULL, NULL);
    assert_int_equal(fails, 0);
}

/* Deep K where the device has a medium class (medium_wgs > 0): the
 * first of the large, medium and small sets of which the output has 4
 * tiles or more (plan.c's G3_DEEP_TILES), else the deepk set; outputs of
 * 4 tiles and of one row or column less of each set's, the tiles read
 * from the device, K = 2048 (deep for any side up to 512), both
 * precisions; and with no medium class the rule of deepk_boundary. */
static void deepk_widest(void **state)
{
    (void)state;
    static const int order[] = { 0, 4, 1 }; /* large, medium, small (classes[]) */
    int tm[5][2], tn[5][2], fails = 0;
    setenv("GPUBLAS3_PARAMS", BASE_PARAMS, 1);
    for (int s = 0; s < 5; s++)
        if (s != 2)
            tiles_of(classes[s], tm[s], tn[s]);
    for (int on = 0; on < 2; on++) {
        medium_class("deepk_max=512", on);
        for (int dbl = 0; dbl < 2; dbl++)
            for (int s = 0; s < 3; s++)
                for (int less = 0; less < 3; less++) {
                    const int *mw = tm[order[s]], *nw = tn[order[s]];
                    size_t M = 2 * (size_t)mw[dbl] - (less == 1 ? (size_t)mw[dbl] : 0);
                    size_t N = 2 * (size_t)nw[dbl] - (less == 2 ? (size_t)nw[dbl] : 0);
                    if (M > 512 || N > 512)
                        continue;
                    int want = 3; /* deepk */
                    for (int w = 0; on && w < 3 && want == 3; w++)
                        if (tiles(M, N, tm[order[w]][dbl], tn[order[w]][dbl]) >= 4)
                            want = order[w];
                    fails += expect_class(on ? "medium_wgs 2: " : "medium_wgs 0: ", dbl, M, N, 2048, want,
                                          190 + 18 * on + 9 * dbl + 3 * s + less);
                }
    }
    setenv("GPUBLAS3_PARAMS", BASE_PARAMS, 1);
    restart_forced(NULL, NULL, NULL);
    assert_int_equal(fails, 0);
}

/* medium_wgs: an output the large set's tiles leave under medium_wgs
 * work-groups per compute unit to the nearest whole (2 tiles < (2 W - 1)
 * compute units), and the medium set's tiles give one or more per compute
 * unit, with K under 4x its smaller side, takes the medium set; each side
 * of the four boundaries (along M and along N for the tiles), both
 * precisions, with the sets read from the device (skinny_max = 1 keeps
 * the narrow outputs out of the skinny class).  The field is the medium
 * set's own ("medium:"); 0 (a device without a medium row) or set on
 * another class: no call is medium.  medium_k = 0: its own rule (the
 * H100's S row's 128 would take these K = 3 calls, shallow_medium). */
static void medium_boundary(void **state)
{
    (void)state;
    const size_t cu = compute_units(), K = 3; /* under 4x any side: not deep */
    int lm[2], ln[2], mm[2], mn[2], fails = 0;
    setenv("GPUBLAS3_PARAMS", BASE_PARAMS ",skinny_max=1", 1);
    tiles_of("large", lm, ln);
    tiles_of("medium", mm, mn);
    /* W: the lower boundary's outputs stay under the upper one */
    size_t W = 2;
    for (int dbl = 0; dbl < 2; dbl++) {
        size_t low = tiles(mm[dbl] * cu, mn[dbl], lm[dbl], ln[dbl]) / cu + 2;
        W = low > W ? low : W;
    }
    assert_true(W <= 64);
    for (int off = 0; off < 2; off++) {
        char params[256];
        snprintf(params, sizeof params, off ? "%s,skinny_max=1,medium_k=0,medium_wgs=0;large:medium_wgs=%zu"
                                            : "%s,skinny_max=1,medium_k=0;medium:medium_wgs=%zu", BASE_PARAMS, W);
        setenv("GPUBLAS3_PARAMS", params, 1);
        restart_forced(NULL, NULL, NULL);
        for (int dbl = 0; dbl < 2; dbl++) {
            const size_t l = lm[dbl], n = ln[dbl], a = mm[dbl], b = mn[dbl];
            /* pairs one tile (or one of K) apart: the large set's t and t + 1 tiles, the
             * medium set's cu and cu - 1, and an r x r block of medium tiles (r^2 >= cu)
             * and cu of them in a row, each with K = 4 x its smaller side - 1 and 4 x it
             * (depth counts against the smaller side: docs/performance.md) */
            const size_t t = ((2 * W - 1) * cu - 1) / 2;
            size_t r = 1;
            while (r * r < cu)
                r++;
            const size_t side = a * r < b * r ? a * r : b * r, thin = a * cu < b ? a * cu : b;
            const size_t shapes[12][3] = {
                { l * t, n, K }, { l * (t + 1), n, K }, { l, n * t, K }, { l, n * (t + 1), K },
                { a * cu, b, K }, { a * (cu - 1), b, K }, { a, b * cu, K }, { a, b * (cu - 1), K },
                { a * r, b * r, 4 * side - 1 }, { a * r, b * r, 4 * side },
                { a * cu, b, 4 * thin - 1 }, { a * cu, b, 4 * thin },
            };
            for (int i = 0; i < 12; i++) {
                size_t M = shapes[i][0], N = shapes[i][1], Ki = shapes[i][2], hi = M > N ? M : N, lo = M + N - hi;
                if (M == 0 || N == 0)
                    continue; /* one compute unit: no output has fewer tiles */
                int on = 2 * tiles(M, N, l, n) < (2 * W - 1) * cu && tiles(M, N, a, b) >= cu && Ki < 4 * lo;
                int want = on && !off ? 4 : hi <= 1024 && Ki <= 1024 ? 1 : 0; /* medium, small, large */
                if ((i % 2 == 0 && !on) || (hi <= 512 && Ki >= 4 * hi && Ki >= 2048)) {
                    print_error("FAIL: the sets' tiles (%zux%zu, %zux%zu) put %zu x %zu x %zu outside the medium "
                                "class, or in deepk\n", l, n, a, b, M, N, Ki);
                    fails++;
                }
                char what[sizeof params + 2];
                snprintf(what, sizeof what, "%s: ", params);
                fails += expect_class(what, dbl, M, N, Ki, want, 120 + i);
            }
        }
    }
    setenv("GPUBLAS3_PARAMS", BASE_PARAMS, 1);
    restart_forced(NULL, NULL, NULL);
    assert_int_equal(fails, 0);
}

/* medium_k: with a medium class, a call the large set would take goes to
 * the medium set when K is at most the medium set's medium_k (both sides
 * of it, both precisions); without a medium class, or with medium_k 0, it
 * stays large; small calls stay small.  skinny_max = 1 keeps the 1040-wide
 * outputs out of the skinny class; 8192 x 1040 has too many of the large
 * set's tiles, and 100 x 1000 too few of the medium set's, for medium_wgs
 * to take them on a GPU (the H100: 132 compute units). */
static void shallow_medium(void **state)
{
    (void)state;
    static const struct { const char *extra; int on; size_t m, n, k; int want; } runs[] = {
        { "skinny_max=1,medium_k=48", 1, 8192, 1040, 48, 4 }, { "skinny_max=1,medium_k=48", 1, 8192, 1040, 49, 0 },
        { "skinny_max=1,medium_k=48", 0, 8192, 1040, 48, 0 }, { "skinny_max=1,medium_k=0", 1, 8192, 1040, 1, 0 },
        { "skinny_max=1,medium_k=48", 1, 100, 1000, 48, 1 },
    };
    int fails = 0;
    for (int r = 0; r < 5; r++) {
        medium_class(runs[r].extra, runs[r].on);
        for (int dbl = 0; dbl < 2; dbl++) {
            char what[96];
            snprintf(what, sizeof what, "%s, medium_wgs %d: ", runs[r].extra, 2 * runs[r].on);
            fails += expect_class(what, dbl, runs[r].m, runs[r].n, runs[r].k, runs[r].want, 230 + 2 * r + dbl);
        }
    }
    setenv("GPUBLAS3_PARAMS", BASE_PARAMS, 1);
    restart_forced(NULL, NULL, NULL);
    assert_int_equal(fails, 0);
}

/* The device is an H100 or H200, whose rows (tuned-params/nvidia-h100.csv)
 * the H100-only tests check. */
static int on_h100(void)
{
    char name[256] = "";
    clGetDeviceInfo(env.device, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    return strstr(name, "H100") || strstr(name, "H200");
}

/* The H100's medium rows as the library reads them (on an H100 or H200
 * only; elsewhere nothing to check): S squares to 1792^2 and D to 1600^2
 * medium, one tile of the large set more large (tuned-params/nvidia-h100.csv,
 * docs/performance.md); K = 16 keeps the calls cheap and K shallow
 * (129 past the medium set's boundary: the S row's medium_k is 128);
 * 16384 x 128 medium below K = 512, large from it; 64-wide
 * skinny outputs medium, 32-wide skinny. */
static void h100_rows(void **state)
{
    (void)state;
    if (!on_h100())
        skip();
    static const struct { int dbl; size_t m, n, k; int want; } runs[] = {
        { 0, 1024, 1024, 16, 4 }, { 0, 1792, 1792, 16, 4 }, { 0, 1793, 1793, 129, 0 }, { 0, 2048, 2048, 129, 0 },
        { 1, 1024, 1024, 16, 4 }, { 1, 1600, 1600, 16, 4 }, { 1, 1601, 1601, 16, 0 }, { 1, 2048, 2048, 16, 0 },
        /* 128-wide outputs: medium only while K is under 4 x 128 */
        { 0, 16384, 128, 511, 4 }, { 0, 16384, 128, 512, 0 }, { 1, 16384, 128, 511, 4 }, { 1, 16384, 128, 512, 0 },
        /* 64-wide outputs on the medium set, 32-wide on the skinny set */
        { 0, 64, 8192, 8192, 4 }, { 1, 8192, 64, 8192, 4 }, { 0, 32, 8192, 8192, 2 }, { 1, 8192, 32, 8192, 2 },
        /* S updates of K <= 128 medium, D large (medium_k) */
        { 0, 4096, 4096, 128, 4 }, { 0, 4096, 4096, 129, 0 }, { 1, 4096, 4096, 64, 0 },
        /* deep K: the widest set with 4 tiles */
        { 0, 64, 64, 65536, 3 }, { 0, 128, 128, 32768, 4 }, { 0, 256, 256, 16384, 0 }, { 1, 128, 128, 32768, 4 },
        { 1, 512, 512, 8192, 0 },
    };
    int fails = 0;
    setenv("GPUBLAS3_PARAMS", BASE_PARAMS, 1);
    restart_forced(NULL, NULL, NULL);
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++)
        fails += expect_class("", runs[r].dbl, runs[r].m, runs[r].n, runs[r].k, runs[r].want, 140 + (int)r);
    assert_int_equal(fails, 0);
}

/* GPUBLAS3_PARAMS lists for one class ("medium:", "d:medium:") change that
 * class's set only, whatever their length (one list of over 1024
 * characters here: a cut list would leave the tile unset, or be refused);
 * an unknown class cannot be parsed, and a list its set cannot take is
 * said with the class (a list for every class without it: a leaf size
 * TRSM's kernel cannot hold). */
static void class_params(void **state)
{
    (void)state;
    static const char lopsided[] = "mwg=16,nwg=32,kwg=8,mdimc=8,ndimc=8,vwm=2,vwn=1,kwi=2,sa=1,sb=0,db=0,pad=2,wtm=8,mma=0";
    int m0[2], n0[2], lm[2], ln[2], mm[2], mn[2], fails = 0;
    char params[2048];
    setenv("GPUBLAS3_PARAMS", BASE_PARAMS, 1);
    tiles_of("medium", m0, n0);
    int len = snprintf(params, sizeof params, "%s;d:medium:", BASE_PARAMS);
    for (int i = 0; i < 200; i++) /* (the field the list sets last wins) */
        len += snprintf(params + len, sizeof params - len, "mma=0,");
    snprintf(params + len, sizeof params - len, "%s", lopsided);
    assert_true(strlen(params) > 1024 && strlen(params) < sizeof params - 1);
    setenv("GPUBLAS3_PARAMS", params, 1);
    tiles_of("medium", mm, mn);
    tiles_of("large", lm, ln);
    assert_true(mm[0] == m0[0] && mn[0] == n0[0]); /* single precision: untouched */
    assert_true(mm[1] == 16 && mn[1] == 32);
    assert_false(lm[1] == 16 && ln[1] == 32);
    static const struct { const char *list, *said; } bad[] = {
        { "huge:mwg=16", "ignored: cannot be parsed" },
        { "medium:mwg=0", "ignored for the set of class medium: tile sizes must be positive" },
        { "trsm_leaf=48", "ignored: trsm_leaf must be 0 or a multiple of 32 up to 1024" },
    };
    for (int r = 0; r < 3; r++) {
        char text[16384];
        snprintf(params, sizeof params, "%s;%s", BASE_PARAMS, bad[r].list);
        setenv("GPUBLAS3_PARAMS", params, 1);
        restart_forced(NULL, NULL, NULL);
        spec_case c = gemm(0, 64, 64, 64);
        run_logged(&c, 130 + r, &fails, text, sizeof text);
        if (!strstr(text, bad[r].said)) {
            print_error("FAIL GPUBLAS3_PARAMS=%s: expected \"%s\"\n", params, bad[r].said);
            fails++;
        }
    }
    setenv("GPUBLAS3_PARAMS", BASE_PARAMS, 1);
    restart_forced(NULL, NULL, NULL);
    assert_int_equal(fails, 0);
}

/* On the H100, where a launch prefetches C (beta != 0, K <= 512, on the
 * large rows and the S medium row), B' is not read in place along n
 * (op(B) = B^T), and A' not along m where a copy launch runs anyway
 * (here B' packed); A' is where nothing else is copied (S 64 x 8192 x 256:
 * B read in place with k contiguous), and both are where nothing is
 * prefetched (beta 0; K over 512): docs/performance.md. */
static void h100_prefetch_packs_b(void **state)
{
    (void)state;
    if (!on_h100())
        skip();
    static const struct { int dbl; size_t m, n, k; int tb; double beta; const char *want; } runs[] = {
        { 1, 2048, 2048, 256, 1, 0.75, NULL }, { 1, 2048, 2048, 256, 1, 0, "in place: A B" },
        { 1, 2048, 2048, 640, 1, 0.75, "in place: A B" }, { 0, 64, 8192, 256, 0, 0.75, "in place: A B(k)" },
    };
    int fails = 0;
    setenv("GPUBLAS3_PARAMS", BASE_PARAMS, 1);
    restart_forced(NULL, NULL, NULL);
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        spec_case c = { .routine = SPEC_GEMM, .dbl = runs[r].dbl, .order = gpublas3ColumnMajor,
                        .transA = gpublas3NoTrans, .transB = runs[r].tb ? gpublas3Trans : gpublas3NoTrans,
                        .M = runs[r].m, .N = runs[r].n, .K = runs[r].k, .alpha = 1.5, .beta = runs[r].beta };
        char text[16384];
        run_logged(&c, 160 + r, &fails, text, sizeof text);
        const char *want = runs[r].want ? runs[r].want : "nothing in place";
        if (runs[r].want ? !strstr(text, want) : strstr(text, "in place:") != NULL) {
            print_error("FAIL %c %zu x %zu x %zu N%c beta %g: expected %s\n", "sd"[runs[r].dbl], runs[r].m,
                        runs[r].n, runs[r].k, runs[r].tb ? 'T' : 'N', runs[r].beta, want);
            fails++;
        }
    }
    assert_int_equal(fails, 0);
}

/* kreuse: the H100's D large set reads an operand with k contiguous in
 * place only where at most 2 tiles read it (docs/performance.md):
 * D 256 x 256 x 16384 NN (split-K on that set) packs B, which 4 tiles
 * read, and still reads A in place along m; S keeps the default 4. */
static void h100_kreuse(void **state)
{
    (void)state;
    if (!on_h100())
        skip();
    int fails = 0;
    setenv("GPUBLAS3_PARAMS", BASE_PARAMS, 1);
    restart_forced(NULL, NULL, NULL);
    for (int dbl = 0; dbl < 2; dbl++) {
        spec_case c = { .routine = SPEC_GEMM, .dbl = dbl, .order = gpublas3ColumnMajor, .transA = gpublas3NoTrans,
                        .transB = gpublas3NoTrans, .M = 256, .N = 256, .K = 16384, .alpha = 1.5, .beta = 0.75 };
        char text[16384];
        run_logged(&c, 170 + dbl, &fails, text, sizeof text);
        const char *want = dbl ? "A in place, B packed" : "A and B(k) in place";
        int bkin = strstr(text, "in place: A B(k)") != NULL;
        if (!strstr(text, "large set") || !strstr(text, "in place: A") || bkin == dbl) {
            print_error("FAIL %cgemm 256 x 256 x 16384 NN: expected the large set, %s\n", "sd"[dbl], want);
            fails++;
        }
    }
    assert_int_equal(fails, 0);
}

/* TRMM's B on the left side is read in place (k contiguous) from a copy
 * of it on CPUs (packed.c's snapshot_in_place: the CPU rows' copy_direct),
 * and packed on other devices; on the right side (m contiguous) packed
 * everywhere.  64 rows: a tile or two of any CPU set, and whole k-tiles. */
static void trmm_snapshot_in_place(void **state)
{
    (void)state;
    const int cpu = env_cpu();
    restart_forced("packed", NULL, NULL);
    int fails = 0;
    for (int n = 0; n < 4; n++) {
        const int right = n / 2;
        spec_case t = { .routine = SPEC_TRMM, .dbl = n % 2, .order = gpublas3ColumnMajor,
                        .side = right ? gpublas3Right : gpublas3Left, .uplo = gpublas3Lower,
                        .transA = right ? gpublas3Trans : gpublas3NoTrans, .diag = gpublas3Unit,
                        .M = right ? 256 : 64, .N = right ? 64 : 256, .alpha = 1.5 };
        char text[16384];
        run_logged(&t, 180 + n, &fails, text, sizeof text);
        const int want = cpu && !right, got = strstr(text, "in place: B(k)") != NULL;
        if (!strstr(text, ": packed,") || got != want || (right && strstr(text, "in place"))) {
            print_error("FAIL %ctrmm %s: expected B %s\n", "sd"[n % 2], right ? "RLTU 256 x 64" : "LLNU 64 x 256",
                        want ? "read in place from its snapshot" : "packed");
            fails++;
        }
    }
    restart_forced(NULL, NULL, NULL);
    assert_int_equal(fails, 0);
}

/* On CPUs an operand read in place along m walks K rows ld apart, and is
 * read so only where they touch at most 64 pages (packed.c's
 * G3_INPLACE_CPU_PAGES): A of 256 x 64 x 64 NN (16 or 32 pages of 4 KB)
 * in place, of 256 x 64 x 512 (128 or 256) packed. */
static void cpu_inplace_span(void **state)
{
    (void)state;
    if (!env_cpu())
        skip();
    restart_forced("packed", NULL, NULL);
    int fails = 0;
    for (int r = 0; r < 4; r++) {
        const int dbl = r % 2, deep = r / 2;
        spec_case c = gemm(dbl, 256, 64, deep ? 512 : 64);
        c.transA = gpublas3NoTrans;
        char text[16384];
        run_logged(&c, 190 + r, &fails, text, sizeof text);
        const int packed_a = strstr(text, "in place: A") == NULL;
        if (!strstr(text, ": packed,") || packed_a != deep) {
            print_error("FAIL %cgemm 256 x 64 x %d NN: expected A %s\n", "sd"[dbl], deep ? 512 : 64,
                        deep ? "packed" : "read in place");
            fails++;
        }
    }
    restart_forced(NULL, NULL, NULL);
    assert_int_equal(fails, 0);
}

/* On CPUs a skinny call's packed operand larger than 16 MB is packed and
 * multiplied in panels that stay in cache (packed.c's G3_CPU_SKINNY_PANEL):
 * A of S 4096 x 64 x 2048 NN and of D 2048 x 64 x 2048 NT, 32 MB each, in
 * panels of K with the later ones accumulating, judged as everywhere;
 * on GPUs the same calls run whole. */
static void cpu_skinny_panels(void **state)
{
    (void)state;
    restart_forced(NULL, NULL, NULL);
    int fails = 0;
    for (int dbl = 0; dbl < 2; dbl++) {
        spec_case c = gemm(dbl, dbl ? 2048 : 4096, 64, 2048);
        c.transA = gpublas3NoTrans;
        c.transB = dbl ? gpublas3Trans : gpublas3NoTrans;
        c.beta = 0.75;
        char text[16384];
        run_logged(&c, 230 + dbl, &fails, text, sizeof text);
    }
    assert_int_equal(fails, 0);
}

/* On CPUs a GEMM whose op(A) has k contiguous and is the long side runs
 * as its transpose, C^T = op(B)^T op(A)^T, reading A in place with k
 * contiguous, then C <- T^T + beta*C (plan.c's transposed_wins): TN and
 * TT of 1152 x 64 x 512 (whole tiles of every CPU row) with beta 0 (NaN
 * in C) and 0.75, offsets and ld padding, and row-major; A at an offset
 * of one element (not whole 16 bytes) cannot be read in place and is
 * packed as planned, as is 1152 x 8 x 512 (8 columns: the transpose's
 * tiles would multiply more padding).  GPUs never. */
static void cpu_transposed_product(void **state)
{
    (void)state;
    const int cpu = env_cpu();
    restart_forced(NULL, NULL, NULL);
    int fails = 0;
    for (int r = 0; r < 16; r++) {
        /* kind 0 tight, 1 padded, 2 A unaligned, 3 eight columns */
        const int dbl = r % 2, tt = r / 2 % 2, kind = r / 4;
        spec_case c = gemm(dbl, 1152, kind == 3 ? 8 : 64, 512);
        c.transB = tt ? gpublas3Trans : gpublas3NoTrans;
        c.beta = kind ? 0.75 : 0;
        if (kind == 1 || kind == 2) {
            c = padded(c, 8);
            c.offA = kind == 1 ? 4 : 1;
            c.offB = 3;
            c.offC = 5;
        }
        char text[16384];
        run_logged(&c, 200 + r, &fails, text, sizeof text);
        const int want = cpu && kind < 2, got = strstr(text, "as C^T") != NULL;
        if (got != want) {
            print_error("FAIL %cgemm 1152 x %zu x 512 T%c (%s): expected %s\n", "sd"[dbl], c.N, tt ? 'T' : 'N',
                        kind == 0 ? "tight" : kind == 1 ? "padded" : kind == 2 ? "A unaligned" : "narrow",
                        want ? "the transposed product" : "the product as planned");
            fails++;
        }
    }
    for (int dbl = 0; dbl < 2; dbl++) { /* row-major NT: the column-major view's A is B, k contiguous */
        spec_case c = gemm(dbl, 64, 1152, 512);
        c.order = gpublas3RowMajor;
        c.transA = gpublas3NoTrans;
        c.transB = gpublas3Trans;
        c.beta = 0.75;
        char text[16384];
        run_logged(&c, 220 + dbl, &fails, text, sizeof text);
        if ((strstr(text, "as C^T") != NULL) != cpu) {
            print_error("FAIL %cgemm row-major 64 x 1152 x 512 NT: expected %s\n", "sd"[dbl],
                        cpu ? "the transposed product" : "the product as planned");
            fails++;
        }
    }
    assert_int_equal(fails, 0);
}

/* swz 2: the set's launches swizzled but a band's (TRMM's), whose build
 * the swizzle's registers cost more than it gains on the H100's S large
 * set (docs/performance.md).  The builds' options say which layout each
 * kernel has: TRMM's run builds the set's kernel SWZ=0, GEMM's run then
 * builds it SWZ=1 and nothing SWZ=0, and both are checked on the same
 * data.  With the disk cache off, so that the kernels are built here and
 * reported. */
static void band_unswizzled(void **state)
{
    (void)state;
    static const char set[] = "mwg=64,nwg=64,kwg=16,mdimc=8,ndimc=8,vwm=4,vwn=4,kwi=4,sa=1,sb=1,db=1,pad=0,wtm=0,mma=0";
    const char *cache = getenv("GPUBLAS3_CACHE_DIR");
    char saved[1024] = "", params[512], text[65536];
    if (cache)
        snprintf(saved, sizeof saved, "%s", cache);
    snprintf(params, sizeof params, "%s;s:%s,swz=2", BASE_PARAMS, set);
    setenv("GPUBLAS3_PARAMS", params, 1);
    setenv("GPUBLAS3_BUILD_LOG", "1", 1);
    setenv("GPUBLAS3_CACHE_DIR", "off", 1);
    restart_forced("packed", NULL, NULL);
    int fails = 0, band = 0, plain = 0;
    spec_case t = { .routine = SPEC_TRMM, .order = gpublas3ColumnMajor, .side = gpublas3Left, .uplo = gpublas3Upper,
                    .transA = gpublas3NoTrans, .diag = gpublas3NonUnit, .M = 200, .N = 130, .alpha = 1.5 };
    spec_case g = gemm(0, 200, 130, 96);
    for (int r = 0; r < 2; r++) {
        run_logged(r ? &g : &t, 150 + r, &fails, text, sizeof text);
        for (const char *l = strstr(text, "kernel build done"); l; l = strstr(l + 1, "kernel build done")) {
            const char *eol = strchr(l, '\n'), *swz = strstr(l, "-DSWZ=");
            if (!strstr(l, "-DMWG=64 ") || !swz || (eol && swz > eol))
                continue; /* not the set's GEMM kernel */
            band += !r && swz[6] == '0';
            plain += r && swz[6] == '1';
            if (r && swz[6] != '1') {
                print_error("FAIL swz=2: a GEMM build with SWZ=%c\n", swz[6]);
                fails++;
            }
        }
    }
    unsetenv("GPUBLAS3_BUILD_LOG");
    if (cache)
        setenv("GPUBLAS3_CACHE_DIR", saved, 1);
    else
        unsetenv("GPUBLAS3_CACHE_DIR");
    setenv("GPUBLAS3_PARAMS", BASE_PARAMS, 1);
    restart_forced(NULL, NULL, NULL);
    assert_true(band > 0 && plain > 0);
    assert_int_equal(fails, 0);
}

/* SYR2K's and HER2K's square form (routines/plan/square.c): with square2k
 * a call whose triangle the plan splits in K (forced here) runs as term 0
 * over the whole square (the next plan line: one term, no triangle) and
 * C <- X + X^T + beta C; not with square2k 0 (the H100's rows set it),
 * nor for a call that only scales C (K = 0, alpha = 0) or that the plan
 * does not split unless square2k, above 1, takes its N and K.  Every
 * result checked, the other triangle's canaries too; C SYR2K's complex
 * beta takes the pre-pass, Z HER2K's diagonal comes out real. */
static int square_run(const spec_case *c, int want, int seed)
{
    char text[16384], desc[256];
    int fails = 0;
    run_logged(c, seed, &fails, text, sizeof text);
    const char *sq = strstr(text, "as X + X^T");
    const char *next = sq ? strstr(sq, "plan: ") : NULL;
    int got = sq != NULL, gemm_after = next && strstr(next, "terms=1 tri=0 ") != NULL;
    if (got != want || (got && !gemm_after)) {
        spec_describe(c, desc, sizeof desc);
        print_error("FAIL %s: %s\n", desc, got != want ? (want ? "not run as its square" : "run as its square")
                                                         : "no GEMM of term 0 after the square's line");
        fails++;
    }
    return fails;
}

static void square_form(void **state)
{
    (void)state;
    int fails = 0;
    static const spec_case cases[4] = {
        { .routine = SPEC_SYR2K, .order = gpublas3ColumnMajor, .uplo = gpublas3Upper, .transA = gpublas3NoTrans,
          .N = 100, .K = 300, .alpha = 1.5, .beta = 0.75, .offA = 3, .offB = 1, .offC = 2 },
        { .routine = SPEC_SYR2K, .dbl = 1, .order = gpublas3RowMajor, .uplo = gpublas3Lower,
          .transA = gpublas3Trans, .N = 77, .K = 260, .alpha = -0.5, .beta = 0 },
        { .routine = SPEC_SYR2K, .cplx = 1, .order = gpublas3ColumnMajor, .uplo = gpublas3Lower,
          .transA = gpublas3Trans, .N = 70, .K = 200, .alpha = 1, .alpha_im = -0.5, .beta = 0.5, .beta_im = 2 },
        { .routine = SPEC_HER2K, .cplx = 1, .dbl = 1, .order = gpublas3RowMajor, .uplo = gpublas3Upper,
          .transA = gpublas3ConjTrans, .N = 65, .K = 150, .alpha = -1, .alpha_im = 2, .beta = 1.5 } };
    for (int on = 0; on < 2; on++) {
        setenv("GPUBLAS3_PARAMS", on ? BASE_PARAMS ",square2k=1" : BASE_PARAMS ",square2k=0", 1);
        restart_forced("splitk", NULL, NULL);
        for (int i = 0; i < 4; i++) {
            spec_case c = padded(cases[i], 2);
            fails += square_run(&c, on, 10 * on + i);
            if (on) {
                c.K = i % 2 ? 0 : c.K; /* only C <- beta C: not the square */
                c.alpha = c.alpha_im = i % 2 ? c.alpha : 0;
                fails += square_run(&c, 0, 20 + i);
            }
        }
    }
    /* unforced: a triangle the plan does not split stays one with square2k
     * 1; with square2k above 1 one of N up to it and K at least N/2 runs
     * as its square, but not one of K under N/2 nor of N over it */
    static const struct { const char *sq; size_t k; int want; } unsplit[] = {
        { "1", 60, 0 }, { "128", 60, 1 }, { "128", 50, 1 }, { "128", 40, 0 }, { "64", 60, 0 } };
    for (size_t u = 0; u < sizeof unsplit / sizeof unsplit[0]; u++) {
        char with[256];
        snprintf(with, sizeof with, BASE_PARAMS ",square2k=%s", unsplit[u].sq);
        setenv("GPUBLAS3_PARAMS", with, 1);
        restart_forced(NULL, NULL, NULL);
        for (int i = 0; i < 4; i += 3) {
            spec_case c = cases[i];
            c.N = 100;
            c.K = unsplit[u].k;
            c = padded(c, 1);
            fails += square_run(&c, unsplit[u].want, 30 + 2 * (int)u + i / 3);
        }
    }
    setenv("GPUBLAS3_PARAMS", BASE_PARAMS, 1);
    restart_forced(NULL, NULL, NULL);
    assert_int_equal(fails, 0);
}

int main(void)
{
    /* before the library's first call: both are read once */
    setenv("GPUBLAS3_VERBOSE", "1", 1);
    setenv("GPUBLAS3_PARAMS", BASE_PARAMS, 1);
    unsetenv("GPUBLAS3_PLAN");
    unsetenv("GPUBLAS3_SHAPE");
    unsetenv("GPUBLAS3_SPLITS");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(automatic_choice),
        cmocka_unit_test(trmm_direct_only_in_place),
        cmocka_unit_test(trmm_snapshot_in_place),
        cmocka_unit_test(cpu_inplace_span),
        cmocka_unit_test(cpu_transposed_product),
        cmocka_unit_test(cpu_skinny_panels),
        cmocka_unit_test(splitk_deterministic),
        cmocka_unit_test(trsm_direct_products),
        cmocka_unit_test(forced_class),
        cmocka_unit_test(forced_splits),
        cmocka_unit_test(forced_refused),
        cmocka_unit_test(split_target),
        cmocka_unit_test(deepk_boundary),
        cmocka_unit_test(skinny_boundary),
        cmocka_unit_test(skinny_medium),
        cmocka_unit_test(deepk_widest),
        cmocka_unit_test(medium_boundary),
        cmocka_unit_test(shallow_medium),
        cmocka_unit_test(class_params),
        cmocka_unit_test(h100_rows),
        cmocka_unit_test(h100_prefetch_packs_b),
        cmocka_unit_test(h100_kreuse),
        cmocka_unit_test(band_unswizzled),
        cmocka_unit_test(square_form),
    };
    return cmocka_run_group_tests_name("plan", tests, env_open, env_close);
}

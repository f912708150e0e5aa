/* SPDX-License-Identifier: BSD-3-Clause */
/* A drop-in call cut in two, the host BLAS taking one part while the
 * device runs the other (routines/dropin/share.c, dropin.c), seen from a
 * program with gpublas3 preloaded and the counting fake host BLAS
 * (fake_blas.c) linked.  Every call is checked against OpenBLAS with the
 * spec's bound, NaN in C with beta = 0 and canaries past the arrays
 * (dropin_test.c); the fake BLAS's counter and the library's
 * GPUBLAS3_VERBOSE lines tell that both sides ran.  ctest runs it with
 * the environment of each mode (argv[1]):
 *   cases   GPUBLAS3_SPLIT_SHARE forces a share: GEMM in every transpose
 *           pair cut by columns and by rows, SYMM, TRMM and TRSM on both
 *           sides, odd sizes, ld padding, row-major CBLAS calls, calls too
 *           narrow to cut, and the device's part rounded to whole tiles
 *   off     GPUBLAS3_SPLIT=0 wins over a forced share: nothing is cut
 *   fail    the device fails on its part: the call still ends right, the
 *           part finished on the host BLAS after the host's own
 *   model   argv[2] = split|host|device: with the model's costs fixed
 *           (GPUBLAS3_DEVICE_COST, GPUBLAS3_HOST_GFLOPS), what it does
 *           with three 384^3 DGEMMs: cut them when the two sides' times
 *           are close (GPUBLAS3_SPLIT=1), the third call's share from the
 *           rates the second showed (the first of a size teaches nothing:
 *           it may have compiled kernels); or keep each whole on the side
 *           much faster, or on the faster side when the split is off (the
 *           default). */
#include <stdio.h>
#include <string.h>
#include "dropin_test.h"

int fake_blas_calls(void);

static char text[1 << 20];

static int count(const char *what)
{
    return text_count(text, what);
}

/* One case that must be cut (cut = 1) or not: right answer, and the host
 * BLAS called once for its part (or not at all). */
static int one(const spec_case *c, int cblas, int cut, unsigned seed)
{
    int before = fake_blas_calls(), failures = dcase_run(c, cblas, 0, seed);
    int took = fake_blas_calls() - before;
    if (took != cut) {
        char desc[256];
        spec_describe(c, desc, sizeof desc);
        fprintf(stderr, "FAIL %s: %d host BLAS call(s), want %d\n", desc, took, cut);
        failures++;
    }
    return failures;
}

static int cases(void)
{
    static const gpublas3Transpose tr[] = { gpublas3NoTrans, gpublas3Trans, gpublas3ConjTrans };
    int failures = 0, cuts = 0, seed = 1;
    if (stderr_capture() != 0)
        return 1;
    for (int dbl = 0; dbl < 2; dbl++) {
        for (int t = 0; t < 9; t++)
            for (int tall = 0; tall < 2; tall++) {
                /* wide: cut by columns; tall: by rows.  ld padding on odd t;
                 * beta = 0 (C full of NaN) on every third. */
                spec_case c = { .routine = SPEC_GEMM, .dbl = dbl, .order = gpublas3ColumnMajor,
                                .transA = tr[t / 3], .transB = tr[t % 3], .M = tall ? 101 : 67,
                                .N = tall ? 45 : 93, .K = 41, .alpha = t % 2 ? -0.75 : 1.25,
                                .beta = t % 3 == 0 ? 0 : 1.5 };
                if (t % 2) {
                    spec_complete(&c);
                    c.lda += 3, c.ldb += 5, c.ldc += 2;
                }
                failures += one(&c, 0, 1, (unsigned)seed++);
                cuts++;
            }
        for (int s = 0; s < 2; s++)
            for (int u = 0; u < 2; u++) {
                gpublas3Side side = s ? gpublas3Right : gpublas3Left;
                gpublas3Uplo uplo = u ? gpublas3Lower : gpublas3Upper;
                spec_case y = { .routine = SPEC_SYMM, .dbl = dbl, .order = gpublas3ColumnMajor, .side = side,
                                .uplo = uplo, .M = 77, .N = 58, .alpha = 0.5, .beta = u ? 0 : -1 };
                failures += one(&y, 0, 1, (unsigned)seed++);
                cuts++;
                for (int t = 0; t < 3; t++)
                    for (int d = 0; d < 2; d++) {
                        spec_case m = { .routine = SPEC_TRMM, .dbl = dbl, .order = gpublas3ColumnMajor,
                                        .side = side, .uplo = uplo, .transA = tr[t],
                                        .diag = d ? gpublas3Unit : gpublas3NonUnit, .M = 53, .N = 70, .alpha = 0.75 };
                        if (d) {
                            spec_complete(&m);
                            m.lda += 1, m.ldb += 4;
                        }
                        spec_case v = m;
                        v.routine = SPEC_TRSM;
                        failures += one(&m, 0, 1, (unsigned)seed);
                        failures += one(&v, 0, 1, (unsigned)seed + 1);
                        seed += 2;
                        cuts += 2;
                    }
            }
    }
    /* Row-major CBLAS: the library sees the column-major transpose, so a
     * wide row-major C is cut by rows, a tall one by columns. */
    for (int tall = 0; tall < 2; tall++) {
        spec_case c = { .routine = SPEC_GEMM, .dbl = 1, .order = gpublas3RowMajor, .transA = gpublas3Trans,
                        .transB = gpublas3NoTrans, .M = tall ? 90 : 31, .N = tall ? 31 : 90, .K = 17, .alpha = 1,
                        .beta = 0.5 };
        failures += one(&c, 1, 1, (unsigned)seed++);
        cuts++;
    }
    /* Edges: one column of 5 rows (cut by rows, 3 and 2 at this share);
     * a single element, nothing to cut (all on the device, as
     * GPUBLAS3_CROSSOVER=0 says). */
    spec_case e = { .routine = SPEC_GEMM, .dbl = 1, .order = gpublas3ColumnMajor, .transA = gpublas3NoTrans,
                    .transB = gpublas3Trans, .M = 5, .N = 1, .K = 3, .alpha = 1, .beta = 0 };
    failures += one(&e, 0, 1, (unsigned)seed++);
    cuts++;
    e.M = 1;
    failures += one(&e, 0, 0, (unsigned)seed++);
    /* 300 columns: the device's share, 0.63 of them (189), rounded to
     * whole tiles of 64 (192). */
    spec_case w = { .routine = SPEC_GEMM, .dbl = 0, .order = gpublas3ColumnMajor, .transA = gpublas3NoTrans,
                    .transB = gpublas3NoTrans, .M = 40, .N = 300, .K = 20, .alpha = 1, .beta = 1 };
    failures += one(&w, 0, 1, (unsigned)seed++);
    cuts++;
    if (stderr_release(text, sizeof text) != 0)
        return failures + 1;
    int said = count(" split by "), done = count(" split done in "), failed = count("FAILED");
    printf("%d calls cut: %d said so, %d joined\n", cuts, said, done);
    if (said != cuts || done != cuts || failed) {
        printf("FAIL: %d calls should have been cut and joined\n", cuts);
        failures++;
    }
    if (!strstr(text, "SGEMM m=40 n=300 k=20 split by columns: 192 to the device, 108 on the host BLAS") ||
        !strstr(text, "DGEMM m=5 n=1 k=3 split by rows: 3 to the device, 2 on the host BLAS")) {
        printf("FAIL: the cuts of 300 columns (192 + 108) and 5 rows (3 + 2) are not as they should be\n");
        failures++;
    }
    return failures;
}

static spec_case dgemm(int n)
{
    return (spec_case){ .routine = SPEC_GEMM, .dbl = 1, .order = gpublas3ColumnMajor, .transA = gpublas3NoTrans,
                        .transB = gpublas3NoTrans, .M = (size_t)n, .N = (size_t)n, .K = (size_t)n, .alpha = 0.5,
                        .beta = 1 };
}

/* GPUBLAS3_SPLIT=0 with a forced share: nothing cut, nothing on the host. */
static int off(void)
{
    int failures = 0;
    if (stderr_capture() != 0)
        return 1;
    for (int i = 0; i < 3; i++) {
        spec_case c = dgemm(60 + i);
        failures += one(&c, 0, 0, (unsigned)i);
    }
    if (stderr_release(text, sizeof text) != 0)
        return failures + 1;
    if (count(" split by ")) {
        printf("FAIL: a call was cut with GPUBLAS3_SPLIT=0\n");
        failures++;
    }
    return failures;
}

/* The device fails on its part (GPUBLAS3_TEST_FAIL=1): the host BLAS takes
 * that part too, once its own is done. */
static int fail(void)
{
    if (stderr_capture() != 0)
        return 1;
    spec_case c = dgemm(70);
    int before = fake_blas_calls(), failures = dcase_run(&c, 0, 0, 7), took = fake_blas_calls() - before;
    if (stderr_release(text, sizeof text) != 0)
        return failures + 1;
    if (took != 2 || !count("no device can run it") || !count("(failed there: finished on the host)")) {
        printf("FAIL: %d host BLAS calls (want 2: the host's part, then the device's), or no word of it\n", took);
        failures++;
    }
    return failures;
}

static int model(const char *want)
{
    int failures = 0;
    if (stderr_capture() != 0)
        return 1;
    for (int i = 0; i < 3; i++) {
        spec_case c = dgemm(384);
        failures += dcase_run(&c, 0, 0, (unsigned)i);
    }
    if (stderr_release(text, sizeof text) != 0)
        return failures + 1;
    int cut = count("DGEMM m=384 n=384 k=384 split by columns"), host = count("DGEMM m=384 n=384 k=384 on the host BLAS");
    int dev = count("DGEMM m=384 n=384 k=384 to the device"), first = count("host share");
    int learned = count("rates of the last split call of its size");
    printf("384^3 DGEMMs: %d cut, %d whole on the host BLAS, %d whole to the device; %d weighed, the 3rd from "
           "the 2nd's rates: %s (want %s)\n", cut, host, dev, first, learned ? "yes" : "no", want);
    int ok = strcmp(want, "split") == 0 ? cut >= 2 && strstr(text, "split: host share") && learned == 1
           : strcmp(want, "host") == 0 ? host == 3 && cut == 0 && dev == 0
           : dev == 3 && cut == 0 && host == 0;
    if (!ok) {
        printf("FAIL: the model did not do what it should\n");
        fputs(text, stdout);
        failures++;
    }
    return failures;
}

int main(int argc, char **argv)
{
    int failures;
    if (argc == 2 && strcmp(argv[1], "cases") == 0) failures = cases();
    else if (argc == 2 && strcmp(argv[1], "off") == 0) failures = off();
    else if (argc == 2 && strcmp(argv[1], "fail") == 0) failures = fail();
    else if (argc == 3 && strcmp(argv[1], "model") == 0) failures = model(argv[2]);
    else {
        fprintf(stderr, "usage: %s cases|off|fail|model split|host|device\n", argv[0]);
        return 2;
    }
    printf("%s %s: %d failure(s)\n", argv[0], argv[1], failures);
    return failures != 0;
}

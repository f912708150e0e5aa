/* SPDX-License-Identifier: BSD-3-Clause */
/* The crossover between the host BLAS and the device, seen from a program:
 * every routine in both precisions, once small (a few thousand flops) and
 * once big (about a million), each call checked against OpenBLAS; the
 * counting fake host BLAS (fake_blas.c, linked here) tells which calls it
 * took.  ctest runs it with GPUBLAS3_CROSSOVER, GPUBLAS3_CPU_BLAS and
 * LD_PRELOAD set per case; argv[1] and argv[2] say where the small and the
 * big calls must go:
 *   host    every call of the group reached the host BLAS (model runs may
 *           add the host BLAS's one-time timing calls)
 *   device  none did
 *   some    at least one did (a fallback)
 *   any     not checked (the model's choice)
 * With the one argument `trsm` it checks the model's TRSM term instead
 * (trsm_term below); with `learn`, the device's correction (learned
 * below); with `path leaves` or `path blocks`, how the model
 * prices each type's TRSM (trsm_path below). */
#include <stdio.h>
#include <string.h>
#include "dropin_test.h"

int fake_blas_calls(void);

static int group(int big, const char *want)
{
    static const gpublas3Transpose tr[] = { gpublas3NoTrans, gpublas3Trans, gpublas3ConjTrans };
    int failures = 0, before = fake_blas_calls(), ncalls = 0;
    for (int k = 0; k < 2 * SPEC_NROUTINES; k++) {
        spec_case c = { .routine = (spec_routine)(k % SPEC_NROUTINES), .dbl = k < SPEC_NROUTINES,
                        .order = gpublas3ColumnMajor, .side = k % 2 ? gpublas3Right : gpublas3Left,
                        .uplo = k % 3 ? gpublas3Lower : gpublas3Upper, .transA = tr[k % 3],
                        .transB = tr[(k + 1) % 3], .diag = gpublas3NonUnit, .M = big ? 100 : 12,
                        .N = big ? 99 : 11, .K = big ? 98 : 10, .alpha = 0.75, .beta = k % 4 ? 1.5 : 0 };
        failures += dcase_run(&c, k % 2, 0, (unsigned)k);
        ncalls++;
    }
    int took = fake_blas_calls() - before;
    int ok = strcmp(want, "host") == 0 ? took >= ncalls : strcmp(want, "device") == 0 ? took == 0 :
             strcmp(want, "some") == 0 ? took > 0 : 1;
    printf("%s calls: %d of %d on the host BLAS (want %s)\n", big ? "big" : "small", took, ncalls, want);
    if (!ok)
        printf("FAIL: the %s calls went the wrong way\n", big ? "big" : "small");
    return failures + !ok;
}

/* DTRSM and STRSM of order 128 with 16 right-hand sides, the host BLAS's
 * rate fixed by FAKE_BLAS_GFLOPS (fake_blas.c) so that their host time falls
 * between the model's device time without its TRSM term and with it:
 * priced like a GEMM they would go to the device; the term must keep them
 * on the host.  The times are the library's own, from its GPUBLAS3_VERBOSE
 * line; on another device row than PoCL's the window moves (the test
 * names PoCL's platform). */
static int trsm_term(void)
{
    int failures = 0;
    char text[4096];
    if (stderr_capture() != 0)
        return 1;
    for (int dbl = 1; dbl >= 0; dbl--) {
        spec_case c = { .routine = SPEC_TRSM, .dbl = dbl, .order = gpublas3ColumnMajor, .side = gpublas3Left,
                        .uplo = gpublas3Lower, .transA = gpublas3NoTrans, .diag = gpublas3NonUnit, .M = 128,
                        .N = 16, .alpha = 0.75 };
        failures += dcase_run(&c, 0, 0, (unsigned)dbl);
    }
    if (stderr_release(text, sizeof text) != 0)
        return 1;
    for (const char *p = "DS"; *p; p++) {
        char head[64];
        snprintf(head, sizeof head, "gpublas3: %cTRSM m=128 n=16 k=0 on the host BLAS", *p);
        const char *line = strstr(text, head), *model = line ? strstr(line, "model: device") : NULL;
        double dev, extra, host;
        int blocks;
        if (!model || sscanf(model, "model: device %lg s (%lg s of it TRSM's %d blocks of 128), host BLAS %lg s",
                             &dev, &extra, &blocks, &host) != 4) {
            printf("FAIL: no line \"%s ...: model: device ... TRSM's ...\"\n", head);
            failures++;
            continue;
        }
        printf("%cTRSM: device %.3g s priced like a GEMM, %.3g s with the TRSM term; host BLAS %.3g s\n", *p,
               dev - extra, dev, host);
        if (!(dev - extra < host && host < dev)) {
            printf("FAIL: the host time is not between the two: FAKE_BLAS_GFLOPS must change with the PoCL row\n");
            failures++;
        }
    }
    return failures;
}

/* How the model prices each type's TRSM: as the device solves it
 * (crossover.c asks the device's tuned sets, routines/plan/solve.c).
 * STRSM, DTRSM, CTRSM and ZTRSM of order 128 with 16 right-hand sides,
 * each line's reason read back: in leaves (4 blocks of 32) when `leaves`
 * (ctest gives PoCL's sets trsm_leaf through GPUBLAS3_PARAMS; its rows
 * have none), else in blocks (1 of 128). */
static int trsm_path(int leaves)
{
    char text[16384];
    int failures = 0;
    if (stderr_capture() != 0)
        return 1;
    for (int k = 0; k < 4; k++) {
        spec_case c = { .routine = SPEC_TRSM, .dbl = k % 2, .cplx = k / 2, .order = gpublas3ColumnMajor,
                        .side = gpublas3Left, .uplo = gpublas3Lower, .transA = gpublas3NoTrans,
                        .diag = gpublas3NonUnit, .M = 128, .N = 16, .alpha = 0.75, .alpha_im = k / 2 * 0.25 };
        failures += dcase_run(&c, k / 2, 0, (unsigned)k);  /* complex: through CBLAS (dropin_test.c) */
    }
    if (stderr_release(text, sizeof text) != 0)
        return 1;
    for (int k = 0; k < 4; k++) {
        char head[64], line[1024] = "";
        const char *want = leaves ? " TRSM's 4 blocks of 32, in leaves)" : " TRSM's 1 blocks of 128)";
        snprintf(head, sizeof head, "gpublas3: %cTRSM m=128 n=16 k=0 ", "SDCZ"[k]);
        const char *at = strstr(text, head);
        if (at)
            snprintf(line, sizeof line, "%.*s", (int)strcspn(at, "\n"), at);
        printf("%cTRSM: %s\n", "SDCZ"[k], at ? line : "no line");
        if (!strstr(line, want)) {
            printf("FAIL: %cTRSM's reason does not say \"%s\"\n", "SDCZ"[k], want);
            failures++;
        }
    }
    return failures;
}

/* Six DGEMMs of 48^3, the device's cost set far too low
 * (GPUBLAS3_DEVICE_COST: 1 us per call, 100 GB/s, about 5 us in all) and
 * the host BLAS's rate fixed (FAKE_BLAS_GFLOPS) so that the model's host
 * time is about 4 times that: the first calls go to the device, which takes
 * tens of times longer on PoCL; from the third on, the model corrected by
 * the least ratio of the first two keeps them on the host. */
static int learned(void)
{
    char text[16384];
    int failures = 0;
    if (stderr_capture() != 0)
        return 1;
    for (int i = 0; i < 6; i++) {
        spec_case c = { .routine = SPEC_GEMM, .dbl = 1, .order = gpublas3ColumnMajor, .transA = gpublas3NoTrans,
                        .transB = gpublas3NoTrans, .M = 48, .N = 48, .K = 48, .alpha = 0.75, .beta = 1.5 };
        failures += dcase_run(&c, 0, 0, (unsigned)i);
    }
    if (stderr_release(text, sizeof text) != 0)
        return 1;
    int dev = text_count(text, "DGEMM m=48 n=48 k=48 to the device");
    int host = text_count(text, "DGEMM m=48 n=48 k=48 on the host BLAS");
    int told = text_count(text, " call(s), host BLAS"); /* the device's correction, not the host rate's label */
    printf("48^3 DGEMMs: %d to the device, %d on the host BLAS, %d corrected (want 2, 4, 4)\n", dev, host, told);
    if (dev != 2 || host != 4 || told != 4) {
        printf("FAIL: the device's correction did not keep the later calls on the host\n");
        fputs(text, stdout);
        failures++;
    }
    return failures;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "learn") == 0) {
        int failures = learned();
        printf("%s %s: %d failure(s)\n", argv[0], argv[1], failures);
        return failures != 0;
    }
    if (argc == 3 && strcmp(argv[1], "path") == 0) {
        int failures = trsm_path(strcmp(argv[2], "leaves") == 0);
        printf("%s path %s: %d failure(s)\n", argv[0], argv[2], failures);
        return failures != 0;
    }
    if (argc == 2 && strcmp(argv[1], "trsm") == 0) {
        int failures = trsm_term();
        printf("%s trsm: %d failure(s)\n", argv[0], failures);
        return failures != 0;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: %s host|device|some|any host|device|some|any, or %s trsm|learn, "
                "or %s path leaves|blocks\n", argv[0], argv[0], argv[0]);
        return 2;
    }
    int failures = group(0, argv[1]) + group(1, argv[2]);
    printf("%s: %d failure(s)\n", argv[0], failures);
    return failures != 0;
}

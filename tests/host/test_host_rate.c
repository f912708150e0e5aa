/* SPDX-License-Identifier: BSD-3-Clause */
/* The host BLAS's rate the crossover model learns (routines/dropin/
 * host_rate.c), seen from a program with gpublas3 preloaded over the
 * counting fake host BLAS (fake_blas.c, linked here), its rate set as the
 * program goes (fake_blas_gflops: it sleeps its GEMMs out to that rate):
 *
 *   1. the host is slow (SLOW GFLOP/s) for the first drop-in call, at
 *      which the model times it;
 *   2. then it runs at TEACH GFLOP/s: a PROBE DGEMM that the slow rate
 *      sends to the device, then TEACHERS small DGEMMs that stay on the
 *      host at any rate (rank-1 updates: more bytes than flops), then the
 *      PROBE again.
 *
 * argv: TEACH, then where each PROBE must go (host|device), before and
 * after the teachers.  The ways are read from the library's
 * GPUBLAS3_VERBOSE lines; the program prints the model's line for each
 * PROBE (with the rate's source) and how many host BLAS calls the first
 * call made (1: no timing), for ctest's expressions; the timing must come
 * before the OpenCL driver is loaded (PoCL's, here).  On PoCL's row of
 * crossover.c (the test names PoCL's platform): PROBE's device time is
 * about 70 us and its host time 88 us at SLOW, so a rate above about 0.65
 * GFLOP/s keeps it on the host; a TEACHER's host time at SLOW is 83 us
 * against 113 on the device. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dropin_test.h"

int fake_blas_calls(void);
int fake_blas_driver_first(void);
void fake_blas_gflops(double rate);

enum { PROBE = 28, TEACHER = 144, TEACHERS = 12 };
static const double SLOW = 0.5;

static int gemm(int m, int n, int k, unsigned seed)
{
    spec_case c = { .routine = SPEC_GEMM, .dbl = 1, .order = gpublas3ColumnMajor, .transA = gpublas3NoTrans,
                    .transB = gpublas3NoTrans, .M = m, .N = n, .K = k, .alpha = 0.75, .beta = 0 };
    return dcase_run(&c, 0, 0, seed);
}

/* The way of the `nth` (0, 1, ...) DGEMM of m x n x k in text, from its
 * decision line (not the device run's): 1 host, 0 device, -1 none; the
 * line's model part is printed. */
static int way(const char *text, int m, int n, int k, int nth)
{
    char head[96];
    snprintf(head, sizeof head, "gpublas3: DGEMM m=%d n=%d k=%d ", m, n, k);
    size_t len = strlen(head);
    int seen = 0;
    for (const char *line = strstr(text, head); line; line = strstr(line + len, head)) {
        int host = strncmp(line + len, "on the host BLAS", 16) == 0;
        if ((!host && strncmp(line + len, "to the device", 13) != 0) || seen++ < nth)
            continue;
        const char *eol = strchr(line, '\n'), *model = strstr(line, "model:");
        if (model && (!eol || model < eol))
            printf("DGEMM %dx%dx%d #%d: %.*s\n", m, n, k, nth, eol ? (int)(eol - model) : (int)strlen(model), model);
        return host;
    }
    return -1;
}

static int expect(const char *what, int got, const char *want)
{
    int ok = got == (strcmp(want, "host") == 0);
    printf("%s: %s (want %s)\n", what, got < 0 ? "no line" : got ? "host" : "device", want);
    if (got < 0 || !ok)
        printf("FAIL: %s went the wrong way\n", what);
    return got < 0 || !ok;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s TEACH host|device host|device\n", argv[0]);
        return 2;
    }
    static char text[1 << 16];
    int failures = 0;
    fake_blas_gflops(SLOW);
    failures += gemm(2, 2, 2, 1);  /* the first drop-in call: the model times the host */
    int timing = fake_blas_calls();
    printf("host BLAS calls at the first call: %d\n", timing);
    if (timing > 1 && fake_blas_driver_first()) {
        printf("FAIL: PoCL's driver was loaded before the host BLAS was timed\n");
        failures++;
    }
    fake_blas_gflops(atof(argv[1]));
    if (stderr_capture() != 0)
        return 1;
    failures += gemm(PROBE, PROBE, PROBE, 2);
    for (int i = 0; i < TEACHERS; i++)
        failures += gemm(TEACHER, TEACHER, 1, 3 + (unsigned)i);
    failures += gemm(PROBE, PROBE, PROBE, 99);
    if (stderr_release(text, sizeof text) != 0)
        return 1;
    failures += expect("the probe before the teachers", way(text, PROBE, PROBE, PROBE, 0), argv[2]);
    for (int i = 0; i < TEACHERS; i++)
        if (way(text, TEACHER, TEACHER, 1, i) != 1) {
            printf("FAIL: teacher %d did not stay on the host BLAS (the PoCL row changed?)\n", i);
            failures++;
        }
    failures += expect("the probe after the teachers", way(text, PROBE, PROBE, PROBE, 1), argv[3]);
    printf("%s: %d failure(s)\n", argv[0], failures);
    return failures != 0;
}

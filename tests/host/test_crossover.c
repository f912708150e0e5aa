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
 *   any     not checked (the model's choice) */
#include <stdio.h>
#include <string.h>
#include "dropin_test.h"

int fake_blas_calls(void);

/* The routines fake_blas.c defines (a routine it lacks goes to the device). */
enum { NROUTINES = SPEC_TRMM + 1 };

static int group(int big, const char *want)
{
    static const gpublas3Transpose tr[] = { gpublas3NoTrans, gpublas3Trans, gpublas3ConjTrans };
    int failures = 0, before = fake_blas_calls(), ncalls = 0;
    for (int k = 0; k < 2 * NROUTINES; k++) {
        spec_case c = { .routine = (spec_routine)(k % NROUTINES), .dbl = k < NROUTINES,
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

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s host|device|some|any host|device|some|any\n", argv[0]);
        return 2;
    }
    int failures = group(0, argv[1]) + group(1, argv[2]);
    printf("%s: %d failure(s)\n", argv[0], failures);
    return failures != 0;
}

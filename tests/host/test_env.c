/* SPDX-License-Identifier: BSD-3-Clause */
/* One process per device setting (ctest sets GPUBLAS3_DEVICE,
 * GPUBLAS3_TEST_FAIL, GPUBLAS3_PANEL_KB; GPUBLAS3_DEVICE=@name makes the
 * program name the default device itself, by the first six letters of its
 * name in mixed case, so the test holds on any device): a few checked calls of every
 * routine, then one bad Fortran and one bad CBLAS call, which the
 * library's own xerbla_ and cblas_xerbla must report on stderr in
 * reference BLAS's words and return from.  The program reads back its own
 * stderr: argv[1] is a phrase it must contain, or "-" for a run that must
 * say nothing of devices (no "gpublas3:" line). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dropin_test.h"
#include "gpublas3_blas.h"

/* GPUBLAS3_DEVICE=@name: the first GPU's name (else the first device's),
 * cut to six letters and case mixed, for the library's name match */
static void name_the_device(void)
{
    const char *e = getenv("GPUBLAS3_DEVICE");
    if (!e || strcmp(e, "@name") != 0)
        return;
    cl_platform_id plats[8];
    cl_uint np = 0;
    char name[256] = "", first[256] = "";
    clGetPlatformIDs(8, plats, &np);
    for (cl_uint p = 0; p < np && p < 8 && !name[0]; p++) {
        cl_device_id dev;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) == CL_SUCCESS)
            clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
        if (!first[0] && clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) == CL_SUCCESS)
            clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof first, first, NULL);
    }
    if (!name[0])
        memcpy(name, first, sizeof name);
    name[6] = 0;
    for (int i = 0; name[i]; i++)
        name[i] = i % 2 ? (char)tolower((unsigned char)name[i]) : (char)toupper((unsigned char)name[i]);
    setenv("GPUBLAS3_DEVICE", name, 1);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s PHRASE|-\n", argv[0]);
        return 2;
    }
    name_the_device();
    if (stderr_capture() != 0)
        return 2;

    int failures = 0;
    static const gpublas3Transpose tr[] = { gpublas3NoTrans, gpublas3Trans, gpublas3ConjTrans };
    for (int k = 0; k < 10; k++) {
        spec_case c = { .routine = (spec_routine)(k % SPEC_NROUTINES), .dbl = k < 5,
                        .order = gpublas3ColumnMajor, .side = k % 2 ? gpublas3Right : gpublas3Left,
                        .uplo = k % 3 ? gpublas3Lower : gpublas3Upper, .transA = tr[k % 3], .transB = tr[(k + 1) % 3],
                        .diag = gpublas3NonUnit, .M = 67, .N = 45, .K = 33, .alpha = 0.75, .beta = k % 4 ? 1.5 : 0 };
        failures += dcase_run(&c, 0, k % 2, (unsigned)k);
    }
    double x[4] = { 0 };
    int two = 2, one = 1;
    dgemm_("N", "N", &two, &two, &two, &x[0], x, &one, x, &two, &x[1], x, &two);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, -1, 2, 2, 1, x, 2, x, 2, 0, x, 2);

    char text[8192] = "";
    if (stderr_release(text, sizeof text) != 0)
        return 2;

    const char *must[] = { " ** On entry to DGEMM parameter number  8 had an illegal value",
                           "Parameter 4 to routine cblas_dgemm was incorrect", argv[1] };
    for (int i = 0; i < 3; i++)
        if (strcmp(must[i], "-") != 0 && !strstr(text, must[i])) {
            fprintf(stderr, "FAIL: stderr lacks \"%s\"\n", must[i]);
            failures++;
        }
    if (strcmp(argv[1], "-") == 0 && strstr(text, "gpublas3:")) {
        fprintf(stderr, "FAIL: a device message where none was expected\n");
        failures++;
    }
    printf("%s: %d failure(s)\n", argv[0], failures);
    return failures != 0;
}

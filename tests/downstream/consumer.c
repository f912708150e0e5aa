/* SPDX-License-Identifier: BSD-3-Clause */
/* Downstream proof: a C program that knows gpublas3 only through what was
 * installed (headers, library, and pkg-config or the CMake package).  It
 * checks that the library reports the version it was packaged as (argv[1])
 * and runs one call of each interface: dgemm_, cblas_dsyrk, and the cl_mem
 * API's setup. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <gpublas3.h>
#include <gpublas3_blas.h>

int main(int argc, char **argv)
{
    int bad = 0;
    cl_uint major, minor, patch;
    char version[64];
    gpublas3GetVersion(&major, &minor, &patch);
    snprintf(version, sizeof version, "%u.%u.%u", major, minor, patch);
    if (argc > 1 && strcmp(version, argv[1]) != 0) {
        printf("library version %s, packaged as %s\n", version, argv[1]);
        bad++;
    }

    /* C = A*B with A = [1 2; 3 4] and B = [5 6; 7 8], column-major. */
    double a[4] = { 1, 3, 2, 4 }, b[4] = { 5, 7, 6, 8 }, c[4] = { 0 }, want[4] = { 19, 43, 22, 50 };
    double one = 1, zero = 0;
    int two = 2;
    dgemm_("N", "N", &two, &two, &two, &one, a, &two, b, &two, &zero, c, &two);
    for (int i = 0; i < 4; i++)
        bad += fabs(c[i] - want[i]) > 1e-12;

    /* Upper triangle of A*A^T, row-major (A's memory read by rows is
     * [1 3; 2 4]); the lower element stays. */
    double s[4] = { -1, -1, -1, -1 };
    cblas_dsyrk(CblasRowMajor, CblasUpper, CblasNoTrans, 2, 2, 1.0, a, 2, 0.0, s, 2);
    bad += fabs(s[0] - 10) > 1e-12 || fabs(s[1] - 14) > 1e-12 || s[2] != -1 || fabs(s[3] - 20) > 1e-12;

    if (gpublas3Setup() != gpublas3Success)
        bad++;
    gpublas3Teardown();
    printf("gpublas3 %s consumer: %s\n", version, bad ? "FAILED" : "OK");
    return bad != 0;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* ctest bench_h100_rows: every row of tuned-params/nvidia-h100.csv is a set
 * the H100 can run.  lib/device.c passes over a row the device cannot run
 * and takes a less specific one, so a bad row would cost speed silently
 * (the H100 suite would pass on the `any` row).  The limits are NVIDIA's
 * OpenCL on the H100: 1024 work-items and 48 KB of local memory.  NVIDIA's
 * compiler adds 16 bytes of its own to every GEMM kernel (25616 for 25600),
 * and builds a set of exactly 48 KB as 49168 bytes: S large tiles in a
 * ring of 3 and D large 16-deep tiles in a ring of 2 or
 * double-buffered in registers (H100, 2026-11-27, every result checked). */
#include <stdio.h>
#include <string.h>
#include "params.h"

int main(void)
{
    int seen = 0, bad = 0;
    for (int i = 0; i < g3_tuned_count; i++) {
        g3_params p = g3_tuned_table[i];
        if (!strstr(p.match, "H100")) continue;
        seen++;
        /* the plan's fields left at 0 take lib/device.c's defaults: any
         * valid value will do, they are not the kernels' */
        if (!p.direct_dm) p.direct_dm = 16;
        if (!p.direct_dn) p.direct_dn = 16;
        if (!p.direct_wm) p.direct_wm = 1;
        if (!p.direct_wn) p.direct_wn = 1;
        if (!p.direct_kb) p.direct_kb = 1;
        if (!p.splitk_k) p.splitk_k = 256;
        if (!p.splitk_wgs) p.splitk_wgs = 1;
        if (!p.deepk_max) p.deepk_max = 512;
        if (!p.skinny_max) p.skinny_max = 128;
        const char *why = g3_params_invalid(&p, 1024, 48 * 1024);
        printf("%s %d %s: %s\n", p.match, p.precision, p.shape < 0 ? "any" : g3_shape_names[p.shape],
               why ? why : "runs");
        bad += why != NULL;
        /* async and swz are preferences: with A' unstaged (an override
         * such as the kernel-variant tests' sa=0) the set runs through
         * registers and unswizzled, refused only where it would be
         * without them (mma needs A' staged) */
        g3_params q = p, plain;
        q.sa = 0;
        plain = q;
        plain.async = plain.swz = 0;
        if ((p.async || p.swz) && (g3_params_ring(&q) || g3_params_swizzled(&q) ||
                                   !g3_params_invalid(&q, 1024, 48 * 1024) != !g3_params_invalid(&plain, 1024, 48 * 1024))) {
            printf("%s %d: async or swz refuses sa=0\n", p.match, p.precision);
            bad++;
        }
    }
    if (!seen) printf("no H100 rows in the table\n");
    return !seen || bad;
}

/* ctest bench_h100_rows: every row of tuned-params/nvidia-h100.csv is a set
 * the H100 can run.  lib/device.c passes over a row the device cannot run
 * and takes a less specific one, so a bad row would cost speed silently
 * (the H100 suite would pass on the `any` row).  The limits are NVIDIA's
 * OpenCL on the H100: 1024 work-items, and 48 KB of local memory less the
 * 16 bytes NVIDIA's compiler adds to every GEMM kernel (25616 for 25600:
 * bench/NOTES.md sections 25, 26), so a set at exactly 48 KB, which
 * lib/params.c alone accepts, fails here as it fails NVIDIA's build.
 * (Session 15 saw NVIDIA build a 48 KB ring of S large tiles, async 3:
 * 49168 bytes; the rows keep the margin.) */
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
        if (!p.splitk_k) p.splitk_k = 256;
        if (!p.splitk_wgs) p.splitk_wgs = 1;
        if (!p.deepk_max) p.deepk_max = 512;
        if (!p.skinny_max) p.skinny_max = 128;
        const char *why = g3_params_invalid(&p, 1024, 48 * 1024 - 16);
        printf("%s %d %s: %s\n", p.match, p.precision, p.shape < 0 ? "any" : g3_shape_names[p.shape],
               why ? why : "runs");
        bad += why != NULL;
        /* async is a preference: with A' unstaged (an override such as
         * the kernel-variant tests' sa=0) the set still runs, through
         * registers, rather than being refused */
        g3_params q = p;
        q.sa = 0;
        if (p.async && (g3_params_ring(&q) || g3_params_invalid(&q, 1024, 48 * 1024 - 16))) {
            printf("%s %d: async refuses sa=0\n", p.match, p.precision);
            bad++;
        }
    }
    if (!seen) printf("no H100 rows in the table\n");
    return !seen || bad;
}

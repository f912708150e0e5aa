/* SPDX-License-Identifier: BSD-3-Clause */
/* Shape lists and the named suites (shapes.h).  The suites are the calls
 * the library aims at, in groups: `update`, the trailing updates of blocked
 * LU (NN), Cholesky (NT) and QR (NN, and its TN product W = V'C), and
 * `skinny`, outputs with one side <= 128, both in every pair of transposes;
 * `deepk`, deep K under a small output; `small` squares (64^3 is the
 * small-call target: its time is enqueue to completion) and `large` ones;
 * `rank-k`, the SYRK of right-looking Cholesky's trailing matrix (lower
 * NoTrans; upper Trans as DPOTRF's upper form) and DSYTRD's SYR2K (lower
 * NoTrans); `panel`, a triangle of 256-512 against a long panel: DGETRF's
 * row panel (TRSM left lower unit) and DPOTRF's column panel (TRSM right
 * lower transposed), and TRMM on the same shapes, the product such a solve
 * costs at least.  No GPU output exceeds 8192^2 elements: the host's
 * reference and check of every element are most of a run's time.
 * "shapes-cpu" keeps the groups at sizes a 2-core PoCL host
 * affords (most shapes at least 0.25 GFLOP, the PoCL target's floor). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "shapes.h"

/* The suites, group by group; `pairs`: each shape runs with every pair of
 * transposes (NN, NT, TN, TT). */
static const struct { const char *suite, *group; int pairs; const char *shapes; } suites[] = {
    { "shapes", "update", 1, "4096x4096x64,4096x4096x256,8192x8192x256" },
    { "shapes", "skinny", 1, "8192x64x8192,64x8192x8192,16384x128x4096,128x8192x8192" },
    { "shapes", "deepk", 0, "64x64x65536,128x128x32768:TN,256x256x16384,512x512x8192:TN" },
    { "shapes", "small", 0, "32x32x32,64x64x64,128x128x128,256x256x256,512x512x512" },
    { "shapes", "large", 0, "1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192" },
    { "shapes", "rank-k", 0, "syrk:4096x64:LN,syrk:4096x128:LN,syrk:4096x256:LN,syrk:8192x256:LN,syrk:4096x256:UT,"
                             "syr2k:4096x64:LN,syr2k:4096x128:LN,syr2k:4096x256:LN" },
    { "shapes", "panel", 0, "trsm:256x8192:LLNU,trsm:512x16384:LLNU,trsm:8192x256:RLTN,trsm:16384x256:RLTN,"
                            "trmm:256x8192:LLNU,trmm:512x16384:LLNU,trmm:8192x256:RLTN,trmm:16384x256:RLTN" },
    { "shapes-cpu", "update", 1, "2048x2048x64,2048x2048x256,4096x4096x128,4096x4096x256" },
    { "shapes-cpu", "skinny", 1, "4096x64x4096,64x4096x4096,4096x128x2048" },
    { "shapes-cpu", "deepk", 0, "64x64x32768,256x256x8192:TN" },
    { "shapes-cpu", "small", 0, "32x32x32,64x64x64,128x128x128,256x256x256,512x512x512" },
    { "shapes-cpu", "large", 0, "1024x1024x1024,2048x2048x2048" },
    { "shapes-cpu", "rank-k", 0, "syrk:2048x64:LN,syrk:2048x256:LN,syrk:4096x256:LN,syrk:4096x256:UT,"
                                 "syr2k:2048x64:LN,syr2k:2048x256:LN" },
    { "shapes-cpu", "panel", 0, "trsm:256x4096:LLNU,trsm:512x4096:LLNU,trsm:4096x256:RLTN,"
                                "trmm:256x4096:LLNU,trmm:512x4096:LLNU,trmm:4096x256:RLTN" },
};

/* Each routine's shape as the bench's table writes it: its dimensions
 * (MNK; NK: N x K, M = N; MN: M x N, K = A's order) and its options'
 * letters in order (a, b: op(A), op(B); s: side; u: uplo; d: diag). */
static const struct { const char *routine, *dims, *opts; } forms[] = {
    { "gemm", "MNK", "ab" }, { "symm", "MN", "su" }, { "hemm", "MN", "su" },
    { "syrk", "NK", "ua" }, { "syr2k", "NK", "ua" }, { "herk", "NK", "ua" }, { "her2k", "NK", "ua" },
    { "trmm", "MN", "suad" }, { "trsm", "MN", "suad" } };

static int parse_one(const char *s, const char *group, bench_shape *out)
{
    const int nforms = (int)(sizeof forms / sizeof forms[0]);
    const char *colon = strchr(s, ':');
    size_t len = colon ? (size_t)(colon - s) : 0;
    int f = 0, named = isalpha((unsigned char)*s);   /* a plain shape is GEMM's */
    while (named && f < nforms && (strlen(forms[f].routine) != len || strncmp(s, forms[f].routine, len))) f++;
    if (f == nforms) return -1;
    if (named) s = colon + 1;
    unsigned long long d[3] = { 0, 0, 1 };
    int used = 0, three = strlen(forms[f].dims) == 3;
    int got = three ? sscanf(s, "%llux%llux%llu%n", &d[0], &d[1], &d[2], &used)
                    : sscanf(s, "%llux%llu%n", &d[0], &d[1], &used);
    if (got != 2 + three || !d[0] || !d[1] || !d[2]) return -1;
    *out = (bench_shape){ named ? forms[f].routine : NULL, 0, 0, 0, 'N', 'N', 'L', 'U', 'N', group };
    s += used;
    if (*s && (*s != ':' || strlen(s + 1) != strlen(forms[f].opts))) return -1;
    for (const char *o = forms[f].opts; *s && *o; o++) {
        char *x = *o == 'a' ? &out->ta : *o == 'b' ? &out->tb : *o == 's' ? &out->side
                : *o == 'u' ? &out->uplo : &out->diag;
        *x = *++s;
        if (!strchr(*o == 's' ? "LR" : *o == 'u' ? "UL" : *o == 'd' ? "NU" : "NTC", *x)) return -1;
    }
    out->M = (size_t)d[0];
    out->N = (size_t)(forms[f].dims[0] == 'N' ? d[0] : d[1]);
    out->K = (size_t)(three ? d[2] : forms[f].dims[0] == 'N' ? d[1] : out->side == 'L' ? out->M : out->N);
    return 0;
}

int bench_shapes_parse(const char *list, bench_shape *out, int max, char *err, size_t n)
{
    char buf[2048];
    int count = 0;
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (count == max) {
            snprintf(err, n, "more than %d shapes", max);
            return -1;
        }
        if (parse_one(t, "list", &out[count])) {
            snprintf(err, n, "bad shape \"%s\" (MxNxK[:TT], T one of N T C; or ROUTINE:DIMS[:OPTIONS] as the "
                             "table writes them: gemm:MxNxK:NT, syrk:NxK:LN, symm:MxN:LU, trsm:MxN:LLNU)", t);
            return -1;
        }
        count++;
    }
    return count;
}

int bench_suite(const char *name, bench_shape *out, int max)
{
    static const char *const pairs[] = { "NN", "NT", "TN", "TT" };
    int count = 0, known = 0;
    for (size_t g = 0; g < sizeof suites / sizeof suites[0]; g++) {
        char list[1024], one[64];
        if (strcmp(suites[g].suite, name)) continue;
        known = 1;
        snprintf(list, sizeof list, "%s", suites[g].shapes);
        for (char *save = NULL, *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save))
            for (int p = 0; p < (suites[g].pairs ? 4 : 1) && count < max; p++) {
                snprintf(one, sizeof one, "%s%s%s", t, suites[g].pairs ? ":" : "", suites[g].pairs ? pairs[p] : "");
                if (parse_one(one, suites[g].group, &out[count]) == 0) count++;
            }
    }
    return known ? count : -1;
}

const char *bench_suite_names(void) { return "shapes, shapes-cpu"; }

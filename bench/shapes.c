/* SPDX-License-Identifier: BSD-3-Clause */
/* Shape lists and the named suites (shapes.h).  The suites are the calls
 * the library aims at: the trailing updates of blocked LU (NN), Cholesky (NT) and
 * QR (the NN update and its TN product W = V'C, a skinny output), outputs
 * with one side <= 128, deep K under a small output, small squares (64^3
 * is the small-call target: its time is enqueue to completion) and large
 * squares.  "shapes-cpu" keeps the same groups at sizes a 2-core PoCL host
 * can afford (most shapes at least 0.25 GFLOP, the PoCL target's floor). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "shapes.h"

static const char *const gpu_suite[] = {
    "update:4096x4096x64", "update:4096x4096x256", "update:8192x8192x128", "update:8192x8192x256",
    "update:8192x8192x512", "update:16384x16384x256", "update:8192x8192x256:NT",
    "skinny:8192x64x8192", "skinny:64x8192x8192", "skinny:16384x128x4096", "skinny:128x8192x8192:TN",
    "deepk:64x64x65536", "deepk:128x128x32768:TN", "deepk:256x256x16384", "deepk:512x512x8192:TN",
    "small:32x32x32", "small:64x64x64", "small:128x128x128", "small:256x256x256", "small:512x512x512",
    "large:1024x1024x1024", "large:2048x2048x2048", "large:4096x4096x4096", "large:8192x8192x8192",
    NULL };
static const char *const cpu_suite[] = {
    "update:2048x2048x64", "update:2048x2048x256", "update:4096x4096x128", "update:4096x4096x256:NT",
    "skinny:4096x64x4096", "skinny:64x4096x4096:TN", "skinny:4096x128x2048",
    "deepk:64x64x32768", "deepk:256x256x8192:TN",
    "small:32x32x32", "small:64x64x64", "small:128x128x128", "small:256x256x256", "small:512x512x512",
    "large:1024x1024x1024", "large:2048x2048x2048",
    NULL };

static int parse_one(const char *s, const char *group, bench_shape *out)
{
    unsigned long long m, nn, k;
    char tt[3] = "NN";
    int used = 0;
    if (sscanf(s, "%llux%llux%llu%n", &m, &nn, &k, &used) != 3 || !m || !nn || !k) return -1;
    if (s[used] == ':') {
        if (strlen(s + used + 1) != 2) return -1;
        memcpy(tt, s + used + 1, 2);
    } else if (s[used]) {
        return -1;
    }
    for (int i = 0; i < 2; i++)
        if (tt[i] != 'N' && tt[i] != 'T') return -1;
    *out = (bench_shape){ (size_t)m, (size_t)nn, (size_t)k, tt[0], tt[1], group };
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
            snprintf(err, n, "bad shape \"%s\" (MxNxK or MxNxK:TT, T one of N T)", t);
            return -1;
        }
        count++;
    }
    return count;
}

int bench_suite(const char *name, bench_shape *out, int max)
{
    const char *const *s = strcmp(name, "shapes") == 0 ? gpu_suite : strcmp(name, "shapes-cpu") == 0 ? cpu_suite : NULL;
    int count = 0;
    for (; s && *s && count < max; s++) {
        const char *colon = strchr(*s, ':');
        static char groups[8][16];   /* the suites' group names, kept for the shapes' lifetime */
        size_t len = (size_t)(colon - *s);
        const char *group = NULL;
        for (int g = 0; g < 8 && !group; g++)
            if (!groups[g][0] || (strlen(groups[g]) == len && strncmp(groups[g], *s, len) == 0)) {
                snprintf(groups[g], sizeof groups[g], "%.*s", (int)len, *s);
                group = groups[g];
            }
        if (parse_one(colon + 1, group, &out[count]) == 0) count++;
    }
    return s ? count : -1;
}

const char *bench_suite_names(void) { return "shapes, shapes-cpu"; }

void bench_shape_string(const bench_shape *s, char *buf, size_t n)
{
    snprintf(buf, n, "%zux%zux%zu:%c%c", s->M, s->N, s->K, s->ta, s->tb);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* The tuner's search spaces (one per kind of device and kernel path) and
 * the writer of tuned-params rows.  A space lists, per parameter, the
 * values worth trying in increasing order, so that "neighbour" means the
 * next value up or down; lib/params.c decides which combinations can run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tune.h"

static const tune_space spaces[] = {
    /* GPUs, portable kernel: big work-group tiles through local memory */
    { "gpu", 14, {
        { "wtm", 5, { 0, 2, 4, 8, 16 } },
        { "mwg", 5, { 32, 64, 96, 128, 256 } },
        { "nwg", 5, { 32, 64, 96, 128, 256 } },
        { "kwg", 4, { 8, 16, 32, 64 } },
        { "mdimc", 4, { 4, 8, 16, 32 } },
        { "ndimc", 4, { 4, 8, 16, 32 } },
        { "vwm", 4, { 1, 2, 4, 8 } },
        { "vwn", 4, { 1, 2, 4, 8 } },
        { "kwi", 6, { 1, 2, 4, 8, 16, 32 } },
        { "sa", 2, { 0, 1 } },
        { "sb", 2, { 0, 1 } },
        { "db", 2, { 0, 1 } },
        { "async", 3, { 0, 2, 3 } },   /* NVIDIA only: bench/tune.c's valid() */
        { "swz", 2, { 0, 1 } },
    } },
    /* NVIDIA fp64 tensor cores: MDIMC x NDIMC warps of 32 */
    { "mma", 13, {
        { "mma", 4, { 1, 2, 3, 4 } },
        { "vwm", 2, { 1, 2 } },
        { "vwn", 2, { 1, 2 } },
        { "mwg", 4, { 32, 64, 128, 256 } },
        { "nwg", 4, { 32, 64, 128, 256 } },
        { "kwg", 3, { 8, 16, 32 } },
        { "mdimc", 4, { 1, 2, 4, 8 } },
        { "ndimc", 4, { 1, 2, 4, 8 } },
        { "kwi", 4, { 1, 2, 4, 8 } },
        { "db", 2, { 0, 1 } },
        { "pad", 4, { 0, 2, 4, 8 } },
        { "async", 3, { 0, 2, 3 } },
        { "swz", 2, { 0, 1 } },
    } },
    /* CPUs: one register tile per work-item, vectors along M, no barriers */
    { "cpu", 12, {
        { "nfirst", 2, { 0, 1 } },
        { "mwg", 8, { 8, 16, 24, 32, 48, 64, 96, 128 } },
        { "nwg", 10, { 2, 4, 6, 8, 12, 16, 24, 32, 48, 64 } },
        { "kwg", 5, { 2, 4, 8, 16, 32 } },
        { "mdimc", 3, { 1, 2, 4 } },
        { "ndimc", 4, { 1, 2, 4, 8 } },
        { "vwm", 4, { 2, 4, 8, 16 } },
        { "vwn", 3, { 1, 2, 4 } },
        { "kwi", 5, { 1, 2, 4, 8, 16 } },
        { "sa", 2, { 0, 1 } },
        { "sb", 2, { 0, 1 } },
        { "db", 2, { 0, 1 } },
    } },
    /* the copy kernel, tuned after the GEMM kernel */
    { "copy", 3, {
        { "copy_ts", 5, { 4, 8, 16, 32, 64 } },
        { "copy_rs", 7, { 1, 2, 4, 8, 16, 32, 64 } },
        { "copy_direct", 2, { 0, 1 } },
    } },
};

const tune_space *tune_space_for(const char *name)
{
    for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
        if (strcmp(spaces[i].name, name) == 0) return &spaces[i];
    return NULL;
}

static int by_value(const void *a, const void *b)
{
    return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

int tune_axis_limit(tune_space *s, const char *spec)
{
    const char *eq = strchr(spec, '=');
    for (int i = 0; eq && i < s->naxes; i++) {
        tune_axis *a = &s->axes[i];
        if (strlen(a->name) != (size_t)(eq - spec) || strncmp(a->name, spec, (size_t)(eq - spec))) continue;
        int n = 0;
        const char *v = eq + 1;
        while (*v && n < 12) {
            char *end;
            long x = strtol(v, &end, 10);
            if (end == v || (*end && *end != ',')) return 1;
            a->values[n++] = (int)x;
            v = *end ? end + 1 : end;
        }
        if (!n || *v) return 1;   /* none, or more than an axis holds */
        a->count = n;
        qsort(a->values, (size_t)n, sizeof(int), by_value);
        return 0;
    }
    return 1;
}

int *tune_field(g3_params *p, const char *name)
{
    return g3_params_field(p, name);
}

/* What the tuner searches and writes, in this order after device,
 * precision and shape. */
static const char *columns[] = { "mwg", "nwg", "kwg", "mdimc", "ndimc", "vwm", "vwn", "kwi", "sa", "sb",
                                 "db", "pad", "wtm", "nfirst", "mma", "async", "swz", "copy_ts", "copy_rs", "copy_direct" };
#define NCOL (sizeof columns / sizeof columns[0])

void tune_params_string(const g3_params *p, char *buf, size_t n)
{
    g3_params q = g3_params_effective(p);
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < NCOL && used < n; i++)
        used += snprintf(buf + used, n - used, "%s%s=%d", i ? "," : "", columns[i], *tune_field(&q, columns[i]));
}

/* Writes the file again with every line kept in its place, except this
 * row and its comment ("# match,precision,shape: ..."), which go last;
 * rows are rewritten under the current header (device, precision, shape,
 * `columns`, then the other parameter columns the old header had: TRSM's
 * and the plan's fields, kept), so a table written before the shape
 * column gains it (`any`) and its rows mean what they meant.  The new
 * row's other columns come from the row it replaces, else from the
 * device's `any` row of that precision, else their defaults (lib/params.h:
 * TRSM's G3_ defaults, 0 for the plan's). */
#define MAXF 48
static int fields(char *line, char **f)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = 0;
    for (char *save = NULL, *t = strtok_r(line, ",", &save); t && n < MAXF; t = strtok_r(NULL, ",", &save)) f[n++] = t;
    return n;
}

static size_t row_out(char *out, size_t cap, const char *dev, const char *prec, const char *shape, g3_params *q,
                      const char **cols, int ncols)
{
    size_t used = (size_t)snprintf(out, cap, "%s,%s,%s", dev, prec, shape);
    for (int i = 0; i < ncols && used < cap; i++) used += snprintf(out + used, cap - used, ",%d", *tune_field(q, cols[i]));
    return used + (used < cap ? (size_t)snprintf(out + used, cap - used, "\n") : 0);
}

int tune_write_row(const char *path, const char *match, const char *shape, const g3_params *p, const char *comment)
{
    size_t cap = 1 << 20, used = 0;
    char *out = calloc(1, cap), line[1024], copy[1024], tag[300], oldtag[300], prec[8];
    char *head[MAXF], hline[1024] = "";
    const char *cols[MAXF];
    int nhead = 0, ncols = NCOL, have_base = 0;
    g3_params base = { .trsm_nb = G3_TRSM_NB, .trsm_refine = G3_TRSM_REFINE, .trsm_cols = G3_TRSM_COLS };
    if (!out) return -1;
    for (size_t i = 0; i < NCOL; i++) cols[i] = columns[i];
    snprintf(tag, sizeof tag, "# %s,%d,%s:", match, p->precision, shape);
    snprintf(oldtag, sizeof oldtag, "# %s,%d:", match, p->precision);
    snprintf(prec, sizeof prec, "%d", p->precision);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') {
            if (strncmp(line, tag, strlen(tag)) && !(strcmp(shape, "any") == 0 && strncmp(line, oldtag, strlen(oldtag)) == 0))
                used += snprintf(out + used, cap - used, "%s", line);
            continue;
        }
        if (!nhead) {   /* the header: the new one goes in its place */
            snprintf(hline, sizeof hline, "%s", line);
            nhead = fields(hline, head);
            g3_params probe;
            for (int i = 0; i < nhead; i++) {
                int known = tune_field(&probe, head[i]) != NULL;
                for (int c = 0; c < ncols && known; c++) known = strcmp(cols[c], head[i]) != 0;
                if (known && ncols < MAXF) cols[ncols++] = head[i];
            }
            used += snprintf(out + used, cap - used, "device,precision,shape");
            for (int i = 0; i < ncols; i++) used += snprintf(out + used, cap - used, ",%s", cols[i]);
            used += snprintf(out + used, cap - used, "\n");
            continue;
        }
        char *v[MAXF];
        snprintf(copy, sizeof copy, "%s", line);
        int nv = fields(copy, v);
        const char *dev = "", *pr = "", *shp = "any";
        g3_params q = { 0 };
        for (int i = 0; i < nv && i < nhead; i++) {
            if (strcmp(head[i], "device") == 0) dev = v[i];
            else if (strcmp(head[i], "precision") == 0) pr = v[i];
            else if (strcmp(head[i], "shape") == 0) shp = v[i];
            else if (tune_field(&q, head[i])) *tune_field(&q, head[i]) = atoi(v[i]);
        }
        int mine = strcmp(dev, match) == 0 && strcmp(pr, prec) == 0;
        if (mine && (strcmp(shp, shape) == 0 || (strcmp(shp, "any") == 0 && !have_base))) {
            base = q;
            have_base = strcmp(shp, shape) == 0;
        }
        if (mine && strcmp(shp, shape) == 0) continue;
        used += row_out(out + used, cap - used, dev, pr, shp, &q, cols, ncols);
    }
    if (f) fclose(f);
    if (!nhead) {
        used += snprintf(out + used, cap - used, "device,precision,shape");
        for (int i = 0; i < ncols; i++) used += snprintf(out + used, cap - used, ",%s", cols[i]);
        used += snprintf(out + used, cap - used, "\n");
    }
    used += snprintf(out + used, cap - used, "%s %s\n", tag, comment);
    g3_params q = g3_params_effective(p);
    for (int i = NCOL; i < ncols; i++) *tune_field(&q, cols[i]) = *tune_field(&base, cols[i]);
    used += row_out(out + used, cap - used, match, prec, shape, &q, cols, ncols);
    f = fopen(path, "w");
    int rc = f && fwrite(out, 1, used, f) == used ? 0 : -1;
    if (f && fclose(f)) rc = -1;
    free(out);
    return rc;
}

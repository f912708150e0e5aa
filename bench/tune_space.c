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
    { "gpu", 12, {
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
    } },
    /* NVIDIA fp64 tensor cores: MDIMC x NDIMC warps of 32 */
    { "mma", 11, {
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

int *tune_field(g3_params *p, const char *name)
{
#define F(x) if (strcmp(name, #x) == 0) return &p->x
    F(mwg); F(nwg); F(kwg); F(mdimc); F(ndimc); F(vwm); F(vwn); F(kwi); F(sa); F(sb); F(db); F(pad); F(wtm); F(nfirst); F(copy_direct);
    F(mma); F(copy_ts); F(copy_rs);
#undef F
    return NULL;
}

static const char *columns[] = { "mwg", "nwg", "kwg", "mdimc", "ndimc", "vwm", "vwn", "kwi", "sa", "sb",
                                 "db", "pad", "wtm", "nfirst", "mma", "copy_ts", "copy_rs", "copy_direct" };
#define NCOL (sizeof columns / sizeof columns[0])

void tune_params_string(const g3_params *p, char *buf, size_t n)
{
    g3_params q = *p;
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < NCOL && used < n; i++)
        used += snprintf(buf + used, n - used, "%s%s=%d", i ? "," : "", columns[i], *tune_field(&q, columns[i]));
}

/* Writes the file again with every line kept in its place, except this
 * row and its comment ("# match,precision,shape: ..."), which go last;
 * rows are rewritten under the current header (device, precision, shape,
 * then `columns`), so a table written before the shape column gains it
 * (`any`) and its rows mean what they meant. */
#define MAXF 40
static int fields(char *line, char **f)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = 0;
    for (char *save = NULL, *t = strtok_r(line, ",", &save); t && n < MAXF; t = strtok_r(NULL, ",", &save)) f[n++] = t;
    return n;
}

int tune_write_row(const char *path, const char *match, const char *shape, const g3_params *p, const char *comment)
{
    size_t cap = 1 << 20, used = 0;
    char *out = calloc(1, cap), line[1024], copy[1024], tag[300], oldtag[300];
    char *head[MAXF];
    int nhead = 0;
    if (!out) return -1;
    snprintf(tag, sizeof tag, "# %s,%d,%s:", match, p->precision, shape);
    snprintf(oldtag, sizeof oldtag, "# %s,%d:", match, p->precision);
    char hline[1024] = "";
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
            used += snprintf(out + used, cap - used, "device,precision,shape");
            for (size_t i = 0; i < NCOL; i++) used += snprintf(out + used, cap - used, ",%s", columns[i]);
            used += snprintf(out + used, cap - used, "\n");
            continue;
        }
        char *v[MAXF];
        snprintf(copy, sizeof copy, "%s", line);
        int nv = fields(copy, v);
        const char *dev = "", *prec = "", *shp = "any";
        g3_params q = { 0 };
        for (int i = 0; i < nv && i < nhead; i++) {
            if (strcmp(head[i], "device") == 0) dev = v[i];
            else if (strcmp(head[i], "precision") == 0) prec = v[i];
            else if (strcmp(head[i], "shape") == 0) shp = v[i];
            else if (tune_field(&q, head[i])) *tune_field(&q, head[i]) = atoi(v[i]);
        }
        if (strcmp(dev, match) == 0 && atoi(prec) == p->precision && strcmp(shp, shape) == 0) continue;
        used += snprintf(out + used, cap - used, "%s,%s,%s", dev, prec, shp);
        for (size_t i = 0; i < NCOL; i++) used += snprintf(out + used, cap - used, ",%d", *tune_field(&q, columns[i]));
        used += snprintf(out + used, cap - used, "\n");
    }
    if (f) fclose(f);
    if (!nhead) {
        used += snprintf(out + used, cap - used, "device,precision,shape");
        for (size_t i = 0; i < NCOL; i++) used += snprintf(out + used, cap - used, ",%s", columns[i]);
        used += snprintf(out + used, cap - used, "\n");
    }
    used += snprintf(out + used, cap - used, "%s %s\n%s,%d,%s", tag, comment, match, p->precision, shape);
    g3_params q = *p;
    for (size_t i = 0; i < NCOL; i++) used += snprintf(out + used, cap - used, ",%d", *tune_field(&q, columns[i]));
    used += snprintf(out + used, cap - used, "\n");
    f = fopen(path, "w");
    int rc = f && fwrite(out, 1, used, f) == used ? 0 : -1;
    if (f && fclose(f)) rc = -1;
    free(out);
    return rc;
}

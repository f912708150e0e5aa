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

/* Keeps every line of the file except the header, comments about this row,
 * and the row itself; writes the header, the other lines, then this row. */
int tune_write_row(const char *path, const char *match, const g3_params *p, const char *comment)
{
    char *keep = calloc(1, 1 << 20), line[1024], prefix[300], tag[300];
    size_t used = 0;
    if (!keep) return -1;
    snprintf(prefix, sizeof prefix, "%s,%d,", match, p->precision);
    snprintf(tag, sizeof tag, "# %s,%d:", match, p->precision);
    FILE *f = fopen(path, "r");
    if (f) {
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "device,", 7) == 0 || strncmp(line, prefix, strlen(prefix)) == 0 ||
                strncmp(line, tag, strlen(tag)) == 0)
                continue;
            used += snprintf(keep + used, (1 << 20) - used, "%s", line);
        }
        fclose(f);
    }
    f = fopen(path, "w");
    if (!f) { free(keep); return -1; }
    /* leading comments first, then the header, then the rows */
    char *rest = keep;
    while (*rest == '#') {
        char *nl = strchr(rest, '\n');
        if (!nl) break;
        /* a row's own comment ("# match,32: ...") stays with its row */
        char *colon = memchr(rest, ':', (size_t)(nl - rest));
        if (colon && colon - rest > 4 && (strncmp(colon - 3, ",32", 3) == 0 || strncmp(colon - 3, ",64", 3) == 0))
            break;
        fwrite(rest, 1, (size_t)(nl + 1 - rest), f);
        rest = nl + 1;
    }
    fprintf(f, "device,precision");
    for (size_t i = 0; i < NCOL; i++) fprintf(f, ",%s", columns[i]);
    fprintf(f, "\n%s", rest);
    fprintf(f, "%s %s\n%s", tag, comment, prefix);
    g3_params q = *p;
    for (size_t i = 0; i < NCOL; i++) fprintf(f, "%s%d", i ? "," : "", *tune_field(&q, columns[i]));
    fprintf(f, "\n");
    fclose(f);
    free(keep);
    return 0;
}

// SPDX-License-Identifier: BSD-3-Clause
/* The user's own tuned rows, read at run time, so that a row made with
 * gpublas3-tune serves from the next process on without a rebuild: every
 * *.csv in GPUBLAS3_TUNED_DIR, else in $XDG_CONFIG_HOME/gpublas3, else in
 * ~/.config/gpublas3, in the format of tuned-params/ (which
 * lib/cmake/params.cmake turns into the built-in table; docs/tuning.md
 * describes it).  Read once per process, files in name order; lib/device.c
 * looks at these rows before the built-in ones, so that of two rows of the
 * same rank the user's wins.  A file or row that cannot be read is said on
 * stderr and passed over. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "params.h"

enum { MAX_COLUMNS = 64, LINE = 4096 };

int g3_user_dir(char *buf, size_t n)
{
    const char *dir = getenv("GPUBLAS3_TUNED_DIR"), *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    int used = dir && *dir ? snprintf(buf, n, "%s", dir)
             : xdg && *xdg ? snprintf(buf, n, "%s/gpublas3", xdg)
             : home && *home ? snprintf(buf, n, "%s/.config/gpublas3", home) : -1;
    return used > 0 && (size_t)used < n;
}

static g3_params *rows;
static int nrows;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static char *strip(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && strchr(" \t\r\n", s[n - 1]))
        s[--n] = 0;
    return s;
}

/* Splits line at commas into at most MAX_COLUMNS stripped fields; their count. */
static int split(char *line, char **field)
{
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(line, ",", &save); tok && n < MAX_COLUMNS;
         tok = strtok_r(NULL, ",", &save))
        field[n++] = strip(tok);
    return n;
}

/* Parses one data row under the header; NULL on success, else why not. */
static const char *parse_row(char **head, char **field, int n, g3_params *p)
{
    *p = (g3_params){ .shape = G3_SHAPE_ANY, .trsm_nb = G3_TRSM_NB, .trsm_refine = G3_TRSM_REFINE,
                      .trsm_cols = G3_TRSM_COLS, .trsm_leaf = G3_TRSM_LEAF };
    for (int i = 0; i < n; i++) {
        if (strcmp(head[i], "device") == 0) {
            p->match = field[i];
            continue;
        }
        if (strcmp(head[i], "shape") == 0) {
            int s = 0;
            while (s < G3_NSHAPES && strcmp(field[i], g3_shape_names[s]))
                s++;
            if (s == G3_NSHAPES && strcmp(field[i], "any"))
                return "shape is not any, large, small, skinny, deepk, medium, batch or tiny";
            p->shape = s == G3_NSHAPES ? G3_SHAPE_ANY : s;
            continue;
        }
        char *end;
        long v = strtol(field[i], &end, 10);
        if (!*field[i] || *end || v < 0 || v > 1 << 16)
            return "a parameter is not a number";
        int *f = strcmp(head[i], "precision") == 0 ? &p->precision : g3_params_field(p, head[i]);
        if (!f)
            return "a column names no parameter";
        *f = (int)v;
    }
    if (!p->match || !*p->match || (p->precision != 32 && p->precision != 64))
        return "no device, or precision not 32 or 64";
    return NULL;
}

static void read_file(const char *path, const char *name, int verbose)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "gpublas3: tuned rows: cannot read %s\n", path);
        return;
    }
    char line[LINE], header[LINE], *head[MAX_COLUMNS], *field[MAX_COLUMNS];
    int nhead = 0, lineno = 0, taken = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *s = strip(line);
        if (!*s || *s == '#')
            continue;
        if (!nhead) {
            snprintf(header, sizeof header, "%s", s);
            nhead = split(header, head);
            continue;
        }
        int n = split(s, field);
        g3_params p;
        const char *why = n != nhead ? "not as many fields as the header" : parse_row(head, field, n, &p);
        g3_params *grown = why ? NULL : realloc(rows, (size_t)(nrows + 1) * sizeof *rows);
        if (!why && !grown)
            why = "out of memory";
        if (why) {
            fprintf(stderr, "gpublas3: tuned rows: %s:%d passed over: %s\n", path, lineno, why);
            continue;
        }
        rows = grown;
        p.match = strdup(p.match);
        p.table = strdup(name);
        if (!p.match || !p.table)
            continue;
        rows[nrows++] = p;
        taken++;
    }
    fclose(f);
    if (verbose)
        fprintf(stderr, "gpublas3: tuned rows: %d from %s\n", taken, path);
}

static int csv(const struct dirent *e)
{
    size_t n = strlen(e->d_name);
    return n > 4 && strcmp(e->d_name + n - 4, ".csv") == 0;
}

static void read_all(void)
{
    char dir[1024], path[2048];
    const char *v = getenv("GPUBLAS3_VERBOSE");
    int verbose = v && *v && strcmp(v, "0") != 0;
    struct dirent **names = NULL;
    int n = g3_user_dir(dir, sizeof dir) ? scandir(dir, &names, csv, alphasort) : -1;
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        read_file(path, names[i]->d_name, verbose);
        free(names[i]);
    }
    free(names);
}

const g3_params *g3_user_rows(int *count)
{
    pthread_once(&once, read_all);
    *count = nrows;
    return rows;
}

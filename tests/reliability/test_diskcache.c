/* SPDX-License-Identifier: BSD-3-Clause */
/* The compile cache on disk: a second process (here: a Setup after the
 * last Teardown, which drops the in-memory programs) loads binaries instead
 * of compiling; truncated, corrupt, foreign (stale) and padded entries are
 * detected, rebuilt and rewritten; an unusable folder or
 * GPUBLAS3_CACHE_DIR=off only costs compile time; the default folder
 * follows XDG_CACHE_HOME, then HOME, and is not used on PoCL unless its own
 * cache is off (POCL_KERNEL_CACHE=0); several processes filling one empty
 * folder at once leave only whole, valid entries and no temporary files.
 * The shim counts programs created from source and from binary. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "rel.h"
#include "shim.h"

extern char **environ;
static rel_dev dev;

/* One SGEMM and one DGEMM (every program the library builds), checked. */
static int run_calls(void)
{
    int bad = 0;
    for (int dbl = 0; dbl < 2; dbl++) {
        spec_case c = { .routine = SPEC_GEMM, .dbl = dbl, .order = gpublas3ColumnMajor, .M = 19, .N = 23,
                        .K = 17, .alpha = 1, .beta = 0.5 };
        rel_case r;
        rel_fill(&r, &c, 5 + dbl, 2);
        rel_upload(&r, dev.ctx, dev.q);
        bad |= rel_run(&r, dev.q, "disk cache");
        rel_free(&r);
    }
    return bad;
}

typedef struct { long source, binary; } builds;

/* A fresh library state (nothing in memory), the calls, and what was built. */
static builds session(void)
{
    shim_reset_calls();
    gpublas3Setup();
    rel_expect(run_calls() == 0, "wrong result with cache dir %s", getenv("GPUBLAS3_CACHE_DIR"));
    gpublas3Teardown();
    shim_counts c;
    shim_get(&c);
    return (builds){ c.calls[SHIM_CREATE_PROGRAM_SOURCE], c.calls[SHIM_CREATE_PROGRAM_BINARY] };
}

/* Files in dir: entries (*.bin) and leftovers (anything else). */
static int list(const char *dir, char names[][512], int max, int *others)
{
    int n = 0;
    *others = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        size_t len = strlen(e->d_name);
        if (len > 4 && !strcmp(e->d_name + len - 4, ".bin") && n < max)
            snprintf(names[n++], 512, "%s/%s", dir, e->d_name);
        else
            ++*others;
    }
    if (d) closedir(d);
    return n;
}

static void *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    void *p = malloc(*n + 1);
    if (fread(p, 1, *n, f) != *n) *n = 0;
    fclose(f);
    return p;
}

static void spit(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fwrite(p, 1, n, f);
    fclose(f);
}

typedef enum { TRUNCATE, FLIP_PAYLOAD, FLIP_KEY, EMPTY, GARBAGE, FOREIGN, PADDED, NDAMAGE } damage;
static const char *damage_names[NDAMAGE] = { "truncated", "payload byte flipped", "key byte flipped", "empty",
                                             "garbage", "another entry (stale key)", "bytes appended" };

static void spoil(const char *path, const char *other, damage how)
{
    size_t n, m;
    unsigned char *p = slurp(path, &n);
    if (!p) return;
    switch (how) {
    case TRUNCATE: spit(path, p, n / 2); break;
    case FLIP_PAYLOAD: p[n - 10] ^= 0x55; spit(path, p, n); break;
    case FLIP_KEY: p[40] ^= 0x01; spit(path, p, n); break;
    case EMPTY: spit(path, p, 0); break;
    case GARBAGE: memset(p, 0xa5, n); spit(path, p, n); break;
    case FOREIGN: {
        unsigned char *q = slurp(other, &m);
        if (q) spit(path, q, m);
        free(q);
        break;
    }
    case PADDED: p = realloc(p, n + 7); memset(p + n, 0, 7); spit(path, p, n + 7); break;
    default: break;
    }
    free(p);
}

static char *make_tmpdir(void)
{
    char tmpl[] = "/tmp/gpublas3-diskcache-XXXXXX";
    char *d = mkdtemp(tmpl);
    if (!d) { perror("mkdtemp"); exit(2); }
    return strdup(d);
}

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[1024];
    struct stat sb;
    while (d && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (lstat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) remove_tree(path);
        else unlink(path);
    }
    if (d) closedir(d);
    rmdir(dir);
}

static void fill_and_reuse(const char *dir)
{
    char names[16][512];
    int others;
    setenv("GPUBLAS3_CACHE_DIR", dir, 1);
    builds b = session();
    int n = list(dir, names, 16, &others);
    rel_expect(b.source >= 2 && n == b.source && others == 0,
               "empty cache: %ld built from source, %d entries, %d other files", b.source, n, others);
    b = session();
    rel_expect(b.source == 0 && b.binary == n, "warm cache: %ld from source, %ld from binary, %d entries", b.source,
               b.binary, n);

    for (int how = 0; how < NDAMAGE && n >= 2; how++) {
        for (int i = 0; i < n; i++) spoil(names[i], names[(i + 1) % n], (damage)how);
        b = session();
        rel_expect(b.source == n, "%s entries: %ld rebuilt from source of %d", damage_names[how], b.source, n);
        b = session();
        rel_expect(b.source == 0 && b.binary == n, "after %s entries were rewritten: %ld from source, %ld binary",
                   damage_names[how], b.source, b.binary);
    }
    int n2 = list(dir, names, 16, &others);
    rel_expect(n2 == n && others == 0, "after the damage rounds: %d entries (was %d), %d other files", n2, n, others);
}

/* A failed build is not stored. */
static void failed_build(const char *dir)
{
    char names[16][512];
    int others;
    setenv("GPUBLAS3_CACHE_DIR", dir, 1);
    gpublas3Setup();
    rel_case r;
    spec_case c = { .routine = SPEC_GEMM, .order = gpublas3ColumnMajor, .M = 5, .N = 5, .K = 5, .alpha = 1 };
    rel_fill(&r, &c, 1, 0);
    rel_upload(&r, dev.ctx, dev.q);
    shim_fail_nth(SHIM_BUILD_PROGRAM, 1, CL_BUILD_PROGRAM_FAILURE);
    gpublas3Status st = spec_run(&r.c, dev.q, r.buf[0], r.buf[1], r.buf[2], 0, NULL, NULL);
    shim_clear_faults();
    rel_expect(st == gpublas3BuildProgramFailure, "injected build failure: status %d", st);
    rel_expect(rel_unchanged(&r, dev.q), "a failed build changed a buffer");
    rel_free(&r);
    gpublas3Teardown();
    rel_expect(list(dir, names, 16, &others) == 0 && others == 0, "a failed build left a cache entry");
}

static int child_main(void)
{
    gpublas3Setup();
    int bad = run_calls();
    gpublas3Teardown();
    return bad;
}

/* Several processes fill one empty folder at once. */
static void concurrent_writers(const char *dir)
{
    enum { NPROC = 4 };
    pid_t pids[NPROC];
    setenv("GPUBLAS3_CACHE_DIR", dir, 1);
    for (int i = 0; i < NPROC; i++) {
        char *argv[] = { "test_diskcache", "--child", NULL };
        if (posix_spawn(&pids[i], "/proc/self/exe", NULL, NULL, argv, environ)) pids[i] = -1;
    }
    for (int i = 0; i < NPROC; i++) {
        int status = -1;
        if (pids[i] > 0) waitpid(pids[i], &status, 0);
        rel_expect(pids[i] > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0, "writer process %d failed", i);
    }
    char names[16][512];
    int others;
    int n = list(dir, names, 16, &others);
    rel_expect(n >= 2 && others == 0, "concurrent writers left %d entries and %d other files", n, others);
    builds b = session();
    rel_expect(b.source == 0 && b.binary == n, "after concurrent writers: %ld from source, %ld from binary",
               b.source, b.binary);
}

static void locations(const char *root)
{
    char path[600], names[16][512];
    int others;
    /* off: nothing written under HOME or XDG_CACHE_HOME */
    snprintf(path, sizeof path, "%s/home", root);
    mkdir(path, 0700);
    setenv("HOME", path, 1);
    snprintf(path, sizeof path, "%s/xdg", root);
    mkdir(path, 0700);
    setenv("XDG_CACHE_HOME", path, 1);
    setenv("GPUBLAS3_CACHE_DIR", "off", 1);
    builds b = session();
    b = session();
    rel_expect(b.binary == 0 && b.source >= 2, "cache off: %ld from binary", b.binary);
    snprintf(path, sizeof path, "%s/xdg/gpublas3", root);
    rel_expect(list(path, names, 16, &others) == 0, "cache off wrote to XDG_CACHE_HOME");
    snprintf(path, sizeof path, "%s/home/.cache/gpublas3", root);
    rel_expect(list(path, names, 16, &others) == 0, "cache off wrote to HOME");

    /* default on PoCL, which caches its own builds: no entries, none loaded
     * (lib/diskcache.c says why) */
    unsetenv("GPUBLAS3_CACHE_DIR");
    char version[256] = "";
    clGetDeviceInfo(dev.dev, CL_DEVICE_VERSION, sizeof version - 1, version, NULL);
    if (strstr(version, "PoCL")) {
        unsetenv("POCL_KERNEL_CACHE");
        b = session();
        b = session();
        rel_expect(b.binary == 0, "PoCL's own cache on: %ld programs from gpublas3's binaries", b.binary);
        snprintf(path, sizeof path, "%s/xdg/gpublas3", root);
        rel_expect(list(path, names, 16, &others) == 0, "PoCL's own cache on: gpublas3 wrote its cache too");
        /* with PoCL's cache off, gpublas3's default folders below */
        setenv("POCL_KERNEL_CACHE", "0", 1);
    }
    /* default: XDG_CACHE_HOME/gpublas3 */
    session();
    snprintf(path, sizeof path, "%s/xdg/gpublas3", root);
    rel_expect(list(path, names, 16, &others) >= 2, "no entries under XDG_CACHE_HOME/gpublas3");
    /* without XDG_CACHE_HOME: HOME/.cache/gpublas3 */
    unsetenv("XDG_CACHE_HOME");
    session();
    snprintf(path, sizeof path, "%s/home/.cache/gpublas3", root);
    rel_expect(list(path, names, 16, &others) >= 2, "no entries under HOME/.cache/gpublas3");
    if (strstr(version, "PoCL"))
        unsetenv("POCL_KERNEL_CACHE");

    /* a folder that cannot be made (under a regular file): calls still work */
    snprintf(path, sizeof path, "%s/file", root);
    spit(path, "x", 1);
    snprintf(path, sizeof path, "%s/file/cache", root);
    setenv("GPUBLAS3_CACHE_DIR", path, 1);
    b = session();
    rel_expect(b.source >= 2, "unusable cache folder: %ld built from source", b.source);
}

int main(int argc, char **argv)
{
    setenv("OPENBLAS_NUM_THREADS", "1", 1);
    /* the packed path builds two programs per precision: the damage rounds
     * (each entry overwritten by the next) need more than two entries */
    setenv("GPUBLAS3_PLAN", "packed", 1);
    rel_open(&dev);
    if (argc > 1 && !strcmp(argv[1], "--child")) {
        int bad = child_main();
        rel_close(&dev);
        return bad;
    }
    char *root = make_tmpdir();
    char dir[600];
    snprintf(dir, sizeof dir, "%s/a/b", root); /* made by the library, parents included */
    fill_and_reuse(dir);
    snprintf(dir, sizeof dir, "%s/failed", root);
    failed_build(dir);
    snprintf(dir, sizeof dir, "%s/concurrent", root);
    concurrent_writers(dir);
    locations(root);
    remove_tree(root);
    free(root);
    rel_close(&dev);
    return rel_finish("test_diskcache");
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* gpublas3-tune: searches the GEMM kernel's parameters (kernels/gemm.cl)
 * and then the copy kernel's (copy/pack.cl) on one OpenCL device and
 * precision, and writes the best set into a tuned-params CSV row.
 *
 * Search: the space's seed points first, then simulated annealing over
 * neighbouring values (one or two parameters moved one step), with random
 * restarts; impossible sets are refused by lib/params.c before anything
 * runs.  Each candidate runs in a fresh child process (the library reads
 * GPUBLAS3_PARAMS per process; a crash or hang costs one candidate): first
 * at a small odd size, where one slower than --prune times the best so far
 * is dropped, then at the main size.  Every result is checked
 * (tune_eval.c) before it counts.  The search stops at --budget seconds;
 * the best few are measured again at --final size, and the winner's copy
 * kernel is tuned on its own (GB/s of packing, checked).
 *
 * --class large|small|skinny|deepk|medium tunes the set of one shape class of the
 * plan (routines/plan/plan.c) on representative shapes of that class
 * (class_shapes below: the first prunes, the score is the geometric mean of
 * the others' GFLOP/s) and writes the row with that `shape`; without it the
 * search runs on squares and writes a row for any class. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "shapes.h"
#include "tune.h"

typedef struct {
    const char *device, *space, *out, *match, *copy_src, *start, *klass, *shapes;
    int dbl, reps, timeout, copy, copy_only;
    size_t size, small, final;
    double budget, prune;
    unsigned long long seed;
    tune_space copy_grid;   /* the copy kernel's grid, as --copy-grid narrows it */
} options;

typedef struct {
    g3_params p;
    double gflops;
} entry;

static double t_start;
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static unsigned long long rs = 0x9E3779B97F4A7C15ULL;
static double urand(void)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return (double)(rs >> 11) / 9007199254740992.0;
}

/* Runs fn in a child with a time limit; the child writes a tune_result. */
typedef void (*child_fn)(void *arg, tune_result *r);
static void in_child(child_fn fn, void *arg, int timeout, tune_result *r)
{
    int fd[2];
    memset(r, 0, sizeof *r);
    fflush(stdout);
    fflush(stderr);
    if (pipe(fd)) { snprintf(r->why, sizeof r->why, "pipe failed"); return; }
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        alarm((unsigned)timeout);
        tune_result res;
        fn(arg, &res);
        ssize_t w = write(fd[1], &res, sizeof res);
        _exit(w == (ssize_t)sizeof res ? 0 : 1);
    }
    close(fd[1]);
    ssize_t got = 0, n;
    while (got < (ssize_t)sizeof *r && (n = read(fd[0], (char *)r + got, sizeof *r - (size_t)got)) > 0) got += n;
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (got != (ssize_t)sizeof *r) {
        memset(r, 0, sizeof *r);
        if (WIFSIGNALED(status))
            snprintf(r->why, sizeof r->why, "child died: signal %d%s", WTERMSIG(status),
                     WTERMSIG(status) == SIGALRM ? " (time limit)" : "");
        else
            snprintf(r->why, sizeof r->why, "child exited %d without a result", WEXITSTATUS(status));
    }
}

typedef struct {
    const options *o;
    const tune_problem *small, *big;
    int nbig;
    char params[512];
    double prune;
    int reps;
    tune_device *dev;
    g3_params p;
} job;

static void gemm_child(void *arg, tune_result *r)
{
    job *j = arg;
    tune_eval_gemm(j->o->device, j->params, j->small, j->big, j->nbig, j->prune, j->reps, r);
}
static void copy_child(void *arg, tune_result *r)
{
    job *j = arg;
    tune_eval_copy(j->o->device, j->o->copy_src, &j->p, j->o->final, j->reps, r);
}
static void query_child(void *arg, tune_result *r)
{
    job *j = arg;
    memset(r, 0, sizeof *r);
    /* the device record does not fit a tune_result: write it to a file */
    tune_device d;
    if (tune_query_device(j->o->device, &d, r->why, sizeof r->why)) return;
    FILE *f = fopen(j->params, "wb");
    if (f && fwrite(&d, sizeof d, 1, f) == 1) r->ok = 1;
    if (f) fclose(f);
}

/* ---- the search ---------------------------------------------------------- */
#define MAX_SEEN 4096
static char *seen[MAX_SEEN];
static int nseen;
static int was_seen(const char *s)
{
    for (int i = 0; i < nseen; i++)
        if (strcmp(seen[i], s) == 0) return 1;
    if (nseen < MAX_SEEN) seen[nseen++] = strdup(s);
    return 0;
}

/* Seeds: hand-picked starting points, updated with what earlier searches
 * found (docs/performance.md), so that a short search refines rather than
 * rediscovers. */
static const char *seeds_gpu32[] = {
    "mwg=128,nwg=128,kwg=16,mdimc=16,ndimc=16,vwm=4,vwn=4,kwi=16,sa=1,sb=1,db=1,pad=0,wtm=0",
    "mwg=128,nwg=128,kwg=16,mdimc=16,ndimc=16,vwm=4,vwn=4,kwi=16,sa=1,sb=1,db=1,pad=0,wtm=4",
    "mwg=128,nwg=128,kwg=16,mdimc=16,ndimc=16,vwm=4,vwn=4,kwi=16,sa=1,sb=1,db=1,pad=0,wtm=8",
    "mwg=128,nwg=128,kwg=16,mdimc=16,ndimc=16,vwm=4,vwn=4,kwi=16,sa=1,sb=1,db=1,pad=0,wtm=2",
    "mwg=128,nwg=128,kwg=16,mdimc=16,ndimc=8,vwm=4,vwn=4,kwi=16,sa=1,sb=1,db=1,pad=0,wtm=4",
    "mwg=128,nwg=128,kwg=16,mdimc=8,ndimc=16,vwm=4,vwn=4,kwi=16,sa=1,sb=1,db=1,pad=0,wtm=4",
    "mwg=128,nwg=256,kwg=16,mdimc=16,ndimc=16,vwm=4,vwn=4,kwi=16,sa=1,sb=1,db=0,pad=0,wtm=4",
    "mwg=128,nwg=256,kwg=32,mdimc=8,ndimc=32,vwm=4,vwn=4,kwi=16,sa=1,sb=1,db=0,pad=0,wtm=2",
    NULL };
static const char *seeds_gpu64[] = {
    "mwg=64,nwg=96,kwg=8,mdimc=8,ndimc=16,vwm=2,vwn=2,kwi=2,sa=1,sb=1,db=1,pad=0,wtm=0",
    "mwg=64,nwg=96,kwg=8,mdimc=8,ndimc=16,vwm=2,vwn=2,kwi=2,sa=1,sb=1,db=1,pad=0,wtm=4",
    "mwg=64,nwg=64,kwg=16,mdimc=16,ndimc=16,vwm=2,vwn=2,kwi=16,sa=1,sb=1,db=1,pad=0,wtm=0",
    "mwg=64,nwg=128,kwg=8,mdimc=8,ndimc=16,vwm=2,vwn=2,kwi=8,sa=1,sb=1,db=1,pad=0,wtm=4",
    NULL };
static const char *seeds_mma[] = {
    "mwg=64,nwg=128,kwg=16,mdimc=2,ndimc=4,vwm=1,vwn=1,kwi=4,sa=1,sb=1,db=0,pad=4,mma=2",
    "mwg=64,nwg=128,kwg=16,mdimc=2,ndimc=4,vwm=2,vwn=2,kwi=4,sa=1,sb=1,db=0,pad=4,mma=2",
    "mwg=64,nwg=128,kwg=32,mdimc=2,ndimc=4,vwm=2,vwn=2,kwi=4,sa=1,sb=1,db=0,pad=4,mma=2",
    "mwg=128,nwg=128,kwg=16,mdimc=2,ndimc=4,vwm=2,vwn=2,kwi=4,sa=1,sb=1,db=0,pad=4,mma=2",
    "mwg=64,nwg=128,kwg=16,mdimc=2,ndimc=4,vwm=2,vwn=2,kwi=2,sa=1,sb=1,db=0,pad=4,mma=3",
    "mwg=64,nwg=128,kwg=16,mdimc=2,ndimc=4,vwm=2,vwn=2,kwi=1,sa=1,sb=1,db=0,pad=4,mma=4",
    "mwg=64,nwg=64,kwg=16,mdimc=2,ndimc=2,vwm=2,vwn=2,kwi=4,sa=1,sb=1,db=1,pad=4,mma=2",
    "mwg=128,nwg=64,kwg=16,mdimc=4,ndimc=2,vwm=2,vwn=2,kwi=4,sa=1,sb=1,db=0,pad=4,mma=2",
    NULL };
static const char *seeds_cpu32[] = {
    "mwg=32,nwg=8,kwg=16,mdimc=1,ndimc=1,vwm=8,vwn=1,kwi=4,sa=0,sb=0,db=0,pad=0",
    "mwg=32,nwg=12,kwg=8,mdimc=1,ndimc=2,vwm=16,vwn=1,kwi=4,sa=0,sb=0,db=0,pad=0",
    "mwg=48,nwg=8,kwg=8,mdimc=1,ndimc=2,vwm=16,vwn=2,kwi=8,sa=0,sb=0,db=0,pad=0",
    "mwg=64,nwg=6,kwg=4,mdimc=1,ndimc=1,vwm=16,vwn=2,kwi=4,sa=0,sb=0,db=0,pad=0",
    NULL };
static const char *seeds_cpu64[] = {
    "mwg=16,nwg=8,kwg=16,mdimc=1,ndimc=1,vwm=4,vwn=1,kwi=4,sa=0,sb=0,db=0,pad=0",
    "mwg=16,nwg=12,kwg=8,mdimc=1,ndimc=2,vwm=8,vwn=1,kwi=4,sa=0,sb=0,db=0,pad=0",
    "mwg=24,nwg=8,kwg=8,mdimc=1,ndimc=2,vwm=8,vwn=2,kwi=8,sa=0,sb=0,db=0,pad=0",
    "mwg=32,nwg=6,kwg=4,mdimc=1,ndimc=1,vwm=8,vwn=2,kwi=4,sa=0,sb=0,db=0,pad=0",
    NULL };

/* The representative shapes of each class, "prune,main,main...": GPU and
 * CPU sizes (a CPU call must stay affordable).  They follow plan.c's
 * classes: skinny = one output side <= 128, the other >= 1024; deepk =
 * output sides <= 512 with K >= 4x them and >= 2048; medium = outputs the
 * large set's tiles leave under one to three work-groups per compute unit,
 * K under 4x the larger side (on the H100: squares of about 700 to 1800,
 * and 1536^2 with a short K: a mid-size factorization's update); small =
 * every side <= 1024; large = the rest (the blocked factorizations'
 * updates, K = 64 to 512 under a big output, are large calls).  The H100's
 * medium rows were searched on 1024^3, 2048^3, 1024^2 x 4096 and 1536^2 x
 * 512, before the class's boundary was set from the run (docs/performance.md);
 * the list is now the class's. */
static const char *class_shapes(const char *klass, int gpu)
{
    static const struct { const char *klass, *gpu, *cpu; } t[] = {
        { "large", "2047x2047x2047,8192x8192x8192,8192x8192x256",
                   "1025x1025x1025,2048x2048x2048,2048x2048x256" },
        { "small", "255x255x255,256x256x256,512x512x512,1024x1024x1024",
                   "129x129x129,256x256x256,512x512x512" },
        { "skinny", "4095x63x4095,8192x64x8192,64x8192x8192,16384x128x4096",
                    "2047x63x2047,4096x64x4096,64x4096x4096,4096x128x2048" },
        { "deepk", "255x255x8191,64x64x65536,256x256x16384,512x512x8192",
                   "127x127x4097,64x64x32768,256x256x8192" },
        { "medium", "1023x1023x1023,768x768x768,1024x1024x1024,1536x1536x1536,1536x1536x512",
                    "383x383x383,512x512x512,768x768x768,768x768x256" },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(t[i].klass, klass) == 0) return gpu ? t[i].gpu : t[i].cpu;
    return NULL;
}

/* The starting set: --start's copy-kernel parameters carry over, so a
 * search without copy tuning keeps those of the row it refines. */
/* Small-tile starting points for the classes with a small output side. */
static const char *seeds_gpu32_narrow[] = {
    "mwg=64,nwg=64,kwg=16,mdimc=16,ndimc=16,vwm=4,vwn=4,kwi=16,sa=1,sb=1,db=1,pad=0,wtm=4",
    "mwg=64,nwg=64,kwg=32,mdimc=8,ndimc=8,vwm=4,vwn=4,kwi=8,sa=1,sb=1,db=0,pad=0,wtm=0",
    "mwg=128,nwg=64,kwg=16,mdimc=16,ndimc=8,vwm=4,vwn=4,kwi=16,sa=1,sb=1,db=1,pad=0,wtm=4",
    "mwg=64,nwg=128,kwg=16,mdimc=8,ndimc=16,vwm=4,vwn=4,kwi=16,sa=1,sb=1,db=1,pad=0,wtm=4",
    "mwg=32,nwg=32,kwg=16,mdimc=8,ndimc=8,vwm=4,vwn=4,kwi=16,sa=1,sb=1,db=0,pad=0,wtm=0",
    NULL };
/* The medium class: tiles that give a 1024^2 output 256 work-groups
 * (64 x 64) or 128 (128 x 64), 256 work-items each (docs/performance.md),
 * and the small and large sets' tiles for comparison. */
static const char *seeds_gpu32_medium[] = {
    "mwg=64,nwg=64,kwg=16,mdimc=16,ndimc=16,vwm=4,vwn=4,kwi=16,sa=1,sb=1,db=1,pad=0,wtm=4",
    "mwg=64,nwg=64,kwg=32,mdimc=16,ndimc=16,vwm=4,vwn=4,kwi=16,sa=1,sb=1,db=1,pad=0,wtm=4",
    "mwg=128,nwg=64,kwg=16,mdimc=16,ndimc=16,vwm=4,vwn=4,kwi=16,sa=1,sb=1,db=1,pad=0,wtm=4",
    "mwg=64,nwg=128,kwg=16,mdimc=16,ndimc=16,vwm=4,vwn=4,kwi=16,sa=1,sb=1,db=1,pad=0,wtm=4",
    "mwg=128,nwg=64,kwg=16,mdimc=16,ndimc=8,vwm=4,vwn=4,kwi=16,sa=1,sb=1,db=1,pad=0,wtm=4",
    "mwg=64,nwg=64,kwg=32,mdimc=8,ndimc=8,vwm=4,vwn=4,kwi=8,sa=1,sb=1,db=0,pad=0,wtm=0",
    "mwg=32,nwg=64,kwg=16,mdimc=16,ndimc=8,vwm=2,vwn=4,kwi=8,sa=1,sb=1,db=0,pad=0,wtm=4",
    NULL };
static const char *seeds_mma_medium[] = {
    "mwg=64,nwg=64,kwg=16,mdimc=2,ndimc=2,vwm=2,vwn=2,kwi=4,sa=1,sb=1,db=1,pad=4,mma=2",
    "mwg=64,nwg=64,kwg=16,mdimc=2,ndimc=4,vwm=2,vwn=2,kwi=4,sa=1,sb=1,db=1,pad=4,mma=2",
    "mwg=64,nwg=64,kwg=16,mdimc=2,ndimc=2,vwm=2,vwn=2,kwi=4,sa=1,sb=1,db=0,pad=4,mma=2",
    "mwg=64,nwg=64,kwg=16,mdimc=2,ndimc=2,vwm=2,vwn=2,kwi=2,sa=1,sb=1,db=1,pad=4,mma=3",
    "mwg=128,nwg=64,kwg=16,mdimc=4,ndimc=2,vwm=2,vwn=2,kwi=4,sa=1,sb=1,db=0,pad=4,mma=2",
    "mwg=32,nwg=64,kwg=16,mdimc=1,ndimc=2,vwm=2,vwn=2,kwi=4,sa=1,sb=1,db=1,pad=4,mma=2",
    "mwg=64,nwg=128,kwg=16,mdimc=2,ndimc=4,vwm=2,vwn=2,kwi=4,sa=1,sb=1,db=0,pad=4,mma=2",
    NULL };
static const char *seeds_mma_narrow[] = {
    "mwg=64,nwg=64,kwg=16,mdimc=2,ndimc=2,vwm=2,vwn=2,kwi=4,sa=1,sb=1,db=1,pad=4,mma=2",
    "mwg=32,nwg=64,kwg=16,mdimc=1,ndimc=2,vwm=2,vwn=2,kwi=4,sa=1,sb=1,db=1,pad=4,mma=2",
    "mwg=64,nwg=32,kwg=16,mdimc=2,ndimc=1,vwm=2,vwn=2,kwi=4,sa=1,sb=1,db=1,pad=4,mma=2",
    "mwg=32,nwg=32,kwg=32,mdimc=1,ndimc=1,vwm=2,vwn=2,kwi=4,sa=1,sb=1,db=1,pad=4,mma=2",
    NULL };

static g3_params base_params(int dbl, const char *space, const char *start)
{
    /* the plan's and TRSM's fields are not searched, and a candidate's
     * GPUBLAS3_PARAMS leaves them out (tune_params_string), so the device's
     * rows keep theirs: here values every device accepts, for
     * g3_params_invalid */
    g3_params p = { .table = "tune", .match = "tune", .precision = dbl ? 64 : 32,
                    .mwg = 64, .nwg = 64, .kwg = 16, .mdimc = 16, .ndimc = 16, .vwm = 1, .vwn = 1, .kwi = 1,
                    .sa = 1, .sb = 1, .copy_ts = 16, .copy_rs = 16, .trsm_nb = G3_TRSM_NB,
                    .trsm_refine = G3_TRSM_REFINE, .trsm_cols = G3_TRSM_COLS, .direct_dm = 1, .direct_dn = 1, .direct_wm = 1, .direct_wn = 1, .direct_kb = 1,
                    .splitk_k = 1, .splitk_wgs = 1, .deepk_max = 1, .skinny_max = 1 };
    if (strcmp(space, "cpu") == 0) {   /* the CPU rows' copy kernel (tuned-params/pocl-cpu.csv) */
        p.copy_ts = 64;
        p.copy_direct = 1;
    }
    g3_params s = p;
    if (start && g3_params_override(&s, start) == 0) {
        p.copy_ts = s.copy_ts;
        p.copy_rs = s.copy_rs;
        p.copy_direct = s.copy_direct;
    }
    return p;
}

static int valid(const g3_params *p, const tune_device *d)
{
    return !g3_params_invalid(p, d->max_wg, d->local_mem) && (!g3_params_nvidia_only(p) || d->nvidia);
}

static int axis_index(const tune_axis *a, int v)
{
    int best = 0;
    for (int i = 0; i < a->count; i++)
        if (abs(a->values[i] - v) < abs(a->values[best] - v)) best = i;
    return best;
}

static g3_params random_point(const tune_space *sp, g3_params base, const tune_device *d)
{
    for (int tries = 0; tries < 20000; tries++) {
        g3_params p = base;
        for (int i = 0; i < sp->naxes; i++) {
            const tune_axis *a = &sp->axes[i];
            *tune_field(&p, a->name) = a->values[(int)(urand() * a->count) % a->count];
        }
        if (valid(&p, d)) return p;
    }
    return base;
}

static int neighbour(const tune_space *sp, const g3_params *from, const tune_device *d, g3_params *out)
{
    for (int tries = 0; tries < 500; tries++) {
        g3_params p = *from;
        int moves = urand() < 0.35 ? 2 : 1;
        for (int m = 0; m < moves; m++) {
            const tune_axis *a = &sp->axes[(int)(urand() * sp->naxes) % sp->naxes];
            int *f = tune_field(&p, a->name);
            int i = axis_index(a, *f) + (urand() < 0.5 ? -1 : 1) * (urand() < 0.2 ? 2 : 1);
            if (i < 0 || i >= a->count) continue;
            *f = a->values[i];
        }
        char s[512];
        tune_params_string(&p, s, sizeof s);
        if (valid(&p, d) && !was_seen(s)) {
            *out = p;
            return 1;
        }
    }
    return 0;
}

static void usage(void)
{
    puts("usage: gpublas3-tune [options]\n"
         "  --device SEL      gpu | cpu | device-name substring (default: first GPU, else first device)\n"
         "  --precision s|d   (default s)\n"
         "  --space NAME      gpu | cpu | mma (default: by device type)\n"
         "  --class C         tune shape class C (large|small|skinny|deepk|medium) on its shapes; the row\n"
         "                    gets shape=C (default: squares, shape=any)\n"
         "  --shapes LIST     the shapes instead: MxNxK,... (the first prunes, the rest score)\n"
         "  --size N          main size of the search (default 4096 on a GPU, 1024 on a CPU)\n"
         "  --small N         pruning size, odd to test the edges (default 2047 / 385)\n"
         "  --final N         size of the final comparison and copy tuning (default --size)\n"
         "  --budget S        seconds of search (default 300)\n"
         "  --prune F         drop a candidate slower than F x best at the small size (default 0.5)\n"
         "  --reps R          timed calls per size, the fastest counts (default 3)\n"
         "  --start P         extra seed point, GPUBLAS3_PARAMS syntax\n"
         "  --timeout S       per-candidate limit (default 120)\n"
         "  --no-copy         skip the copy-kernel tuning\n"
         "  --copy-only       tune only the copy kernel, for --start (or the first seed); with\n"
         "                    --no-copy, write that set's row as it takes effect, nothing timed\n"
         "  --copy-src FILE   the copy kernel to tune (default: pack.cl in share/gpublas3 beside the tool)\n"
         "  --copy-grid A=V,V one axis of the copy grid (copy_ts, copy_rs, copy_direct) limited to these\n"
         "                    values; repeat for several axes\n"
         "  --out FILE|user   tuned-params CSV to update (default: print the row only); user: tuned.csv in\n"
         "                    the folder the library reads your rows from (GPUBLAS3_TUNED_DIR, else\n"
         "                    $XDG_CONFIG_HOME/gpublas3, else ~/.config/gpublas3), made if missing\n"
         "  --match STR       the row's device match (default: the device name)\n"
         "  --seed S");
}

static int parse(int argc, char **argv, options *o)
{
    static struct option lo[] = {
        { "device", 1, 0, 'd' }, { "precision", 1, 0, 'p' }, { "space", 1, 0, 'S' }, { "size", 1, 0, 'n' },
        { "small", 1, 0, 's' }, { "final", 1, 0, 'f' }, { "budget", 1, 0, 'b' }, { "prune", 1, 0, 'P' },
        { "reps", 1, 0, 'r' }, { "start", 1, 0, 'a' }, { "timeout", 1, 0, 't' }, { "no-copy", 0, 0, 'C' },
        { "copy-src", 1, 0, 'c' }, { "out", 1, 0, 'o' }, { "match", 1, 0, 'm' }, { "seed", 1, 0, 'x' },
        { "copy-only", 0, 0, 'O' }, { "help", 0, 0, 'h' }, { "class", 1, 0, 'K' }, { "shapes", 1, 0, 'L' },
        { "copy-grid", 1, 0, 'G' }, { 0, 0, 0, 0 } };
    *o = (options){ .reps = 3, .timeout = 120, .copy = 1, .budget = 300, .prune = 0.5, .seed = 1,
                    .copy_grid = *tune_space_for("copy") };
    int c;
    while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        switch (c) {
        case 'd': o->device = optarg; break;
        case 'p': o->dbl = optarg[0] == 'd'; break;
        case 'S': o->space = optarg; break;
        case 'n': o->size = strtoul(optarg, NULL, 10); break;
        case 's': o->small = strtoul(optarg, NULL, 10); break;
        case 'f': o->final = strtoul(optarg, NULL, 10); break;
        case 'b': o->budget = atof(optarg); break;
        case 'P': o->prune = atof(optarg); break;
        case 'r': o->reps = atoi(optarg); break;
        case 'a': o->start = optarg; break;
        case 't': o->timeout = atoi(optarg); break;
        case 'C': o->copy = 0; break;
        case 'O': o->copy_only = 1; break;
        case 'c': o->copy_src = optarg; break;
        case 'o': o->out = optarg; break;
        case 'm': o->match = optarg; break;
        case 'x': o->seed = strtoull(optarg, NULL, 10); break;
        case 'K': o->klass = optarg; break;
        case 'L': o->shapes = optarg; break;
        case 'G':
            if (tune_axis_limit(&o->copy_grid, optarg)) {
                fprintf(stderr, "gpublas3-tune: --copy-grid %s: want AXIS=V,V,... with an axis of the copy grid\n", optarg);
                return -1;
            }
            break;
        default: usage(); return -1;
        }
    }
    /* the copy kernel installed with the tool (bench/CMakeLists.txt puts
     * it at the same place relative to the tool in the build tree) */
    static char copy_src[4096], out[4096];
    if (!o->copy_src) {
        char exe[2048];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        exe[n > 0 ? n : 0] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) *slash = 0;
        snprintf(copy_src, sizeof copy_src, "%s/%s/pack.cl", slash ? exe : ".", G3_TUNE_DATA);
        o->copy_src = copy_src;
    }
    if (o->out && strcmp(o->out, "user") == 0) {
        char dir[2048];
        if (!g3_user_dir(dir, sizeof dir)) {
            fprintf(stderr, "gpublas3-tune: --out user: no folder (set GPUBLAS3_TUNED_DIR or HOME)\n");
            return -1;
        }
        for (char *p = dir + 1;; p++) /* mkdir -p */
            if (*p == '/' || !*p) {
                char c = *p;
                *p = 0;
                mkdir(dir, 0755);
                if (!(*p = c)) break;
            }
        snprintf(out, sizeof out, "%s/tuned.csv", dir);
        o->out = out;
    }
    return 0;
}

static void print_params(const char *label, const g3_params *p)
{
    char s[512];
    tune_params_string(p, s, sizeof s);
    printf("%s%s\n", label, s);
}

int main(int argc, char **argv)
{
    options o;
    if (parse(argc, argv, &o)) return 2;
    setvbuf(stdout, NULL, _IOLBF, 0);
    t_start = now();
    rs ^= o.seed * 0x2545F4914F6CDD1DULL;

    /* the device, found by a child so that this process never opens OpenCL */
    tune_device dev;
    job j = { .o = &o, .dev = &dev };
    snprintf(j.params, sizeof j.params, "/tmp/gpublas3-tune-%d.dev", (int)getpid());
    tune_result r;
    in_child(query_child, &j, 120, &r);
    FILE *f = r.ok ? fopen(j.params, "rb") : NULL;
    if (!f || fread(&dev, sizeof dev, 1, f) != 1) {
        fprintf(stderr, "gpublas3-tune: no device: %s\n", r.why);
        return 1;
    }
    fclose(f);
    remove(j.params);
    if (o.dbl && !dev.fp64) { fprintf(stderr, "gpublas3-tune: %s has no fp64\n", dev.name); return 1; }
    if (!o.space) o.space = dev.gpu ? "gpu" : "cpu";
    const tune_space *sp = tune_space_for(o.space);
    if (!sp) { fprintf(stderr, "gpublas3-tune: no space \"%s\"\n", o.space); return 2; }
    if (!o.size) o.size = dev.gpu ? 4096 : 1024;
    if (!o.small) o.small = dev.gpu ? 2047 : 385;
    if (!o.final) o.final = o.size;
    if (!o.match) o.match = dev.name;
    /* the shapes: --shapes, the class's, or squares (prune, main; final) */
    char squares[128], err[256];
    snprintf(squares, sizeof squares, "%zux%zux%zu,%zux%zux%zu", o.small, o.small, o.small, o.size, o.size, o.size);
    const char *list = o.shapes ? o.shapes : o.klass ? class_shapes(o.klass, dev.gpu) : squares;
    if (!list) { fprintf(stderr, "gpublas3-tune: no class \"%s\" (large|small|skinny|deepk|medium)\n", o.klass); return 2; }
    bench_shape shp[1 + TUNE_MAX_MAIN];
    int nshp = bench_shapes_parse(list, shp, 1 + TUNE_MAX_MAIN, err, sizeof err);
    if (nshp < 2) { fprintf(stderr, "gpublas3-tune: --shapes: %s\n", nshp < 0 ? err : "need a prune and a main shape"); return 2; }
    const int squares_only = !o.shapes && !o.klass, nmain = nshp - 1;
    char described[512];
    snprintf(described, sizeof described, "%s", list);
    printf("gpublas3-tune: %s (%s; %s; %s), %s precision, space %s, class %s\n", dev.name, dev.vendor, dev.driver,
           dev.platform, o.dbl ? "double" : "single", o.space, o.klass ? o.klass : "any");
    printf("  shapes %s (the first prunes below %.2f x best)%s; budget %.0f s; copy bandwidth %.1f GB/s\n",
           described, o.prune, squares_only && o.final != o.size ? ", final at the --final square" : "", o.budget,
           dev.copy_gbs);

    /* operands for all children, made once */
    tune_problem small, big[TUNE_MAX_MAIN], fin[TUNE_MAX_MAIN];
    tune_problem_make(&small, o.dbl, shp[0].M, shp[0].N, shp[0].K, o.seed);
    for (int i = 0; i < nmain; i++) {
        tune_problem_make(&big[i], o.dbl, shp[i + 1].M, shp[i + 1].N, shp[i + 1].K, o.seed + 1 + (unsigned)i);
        fin[i] = big[i];
    }
    if (squares_only && o.final != o.size) tune_problem_make(&fin[0], o.dbl, o.final, o.final, o.final, o.seed + 9);
    printf("  references ready after %.1f s\n", now() - t_start);

    /* seeds */
    const char **seeds = strcmp(o.space, "mma") == 0 ? seeds_mma
                       : strcmp(o.space, "cpu") == 0 ? (o.dbl ? seeds_cpu64 : seeds_cpu32)
                       : (o.dbl ? seeds_gpu64 : seeds_gpu32);
    /* classes of small outputs start from small tiles too, the medium
     * class from its own */
    const int mma = strcmp(o.space, "mma") == 0;
    const char **narrow = !o.klass || !strcmp(o.klass, "large") || !dev.gpu ? NULL
                        : !strcmp(o.klass, "medium") ? (mma ? seeds_mma_medium : o.dbl ? seeds_gpu64 : seeds_gpu32_medium)
                        : (mma ? seeds_mma_narrow : o.dbl ? seeds_gpu64 : seeds_gpu32_narrow);
    g3_params base = base_params(o.dbl, o.space, o.start);
    g3_params queue[24];
    int nq = 0;
    if (o.start) {
        g3_params p = base;
        if (g3_params_override(&p, o.start) == 0) queue[nq++] = p;
    }
    for (int i = 0; narrow && narrow[i] && nq < 9; i++) {
        g3_params p = base;
        g3_params_override(&p, narrow[i]);
        queue[nq++] = p;
    }
    for (int i = 0; seeds[i] && nq < 16; i++) {
        g3_params p = base;
        g3_params_override(&p, seeds[i]);
        queue[nq++] = p;
    }

#define TOP 4
    entry top[TOP];
    int ntop = 0, evaluated = 0, pruned = 0, failed = 0, invalid_seeds = 0;
    if (o.copy_only) {
        top[ntop++] = (entry){ queue[0], 0 };
        o.budget = 0;
    }
    double best_small = 0, cur_gf = 0;
    g3_params cur = base;
    int have_cur = 0, qi = 0;
    /* the budget is the search's: on a busy host the references alone took
     * a whole 1 s budget, and a search of no candidate fails */
    const double t_search = now();
    while (!o.copy_only && now() - t_search < o.budget) {
        g3_params cand;
        char s[512];
        if (qi < nq) {
            cand = queue[qi++];
            tune_params_string(&cand, s, sizeof s);
            if (!valid(&cand, &dev)) { invalid_seeds++; continue; }
            if (was_seen(s)) continue;
        } else if (!have_cur || urand() < 0.15) {
            cand = random_point(sp, base, &dev);
            tune_params_string(&cand, s, sizeof s);
            if (was_seen(s)) continue;
        } else if (!neighbour(sp, &cur, &dev, &cand)) {
            have_cur = 0;
            continue;
        }
        tune_params_string(&cand, j.params, sizeof j.params);
        j.small = &small;
        j.big = big;
        j.nbig = nmain;
        j.prune = best_small * o.prune;
        j.reps = o.reps;
        in_child(gemm_child, &j, o.timeout, &r);
        evaluated++;
        printf("[%6.1fs #%3d] %s: ", now() - t_start, evaluated, j.params);
        if (r.ok == 2) {
            pruned++;
            printf("pruned (%.1f GFLOP/s at %zux%zux%zu)\n", r.gflops_small, shp[0].M, shp[0].N, shp[0].K);
            continue;
        }
        if (r.ok != 1) {
            failed++;
            printf("FAILED: %s\n", r.why);
            continue;
        }
        if (r.gflops_small > best_small) best_small = r.gflops_small;
        /* keep the best few */
        int fresh = ntop < TOP, at = fresh ? ntop++ : TOP - 1;
        if (fresh || r.gflops > top[at].gflops) {
            top[at] = (entry){ cand, r.gflops };
            for (int i = at; i > 0 && top[i].gflops > top[i - 1].gflops; i--) {
                entry t = top[i]; top[i] = top[i - 1]; top[i - 1] = t;
            }
        }
        /* annealing: accept worse with a probability that cools over the budget */
        double temp = 0.10 * (1 - (now() - t_search) / o.budget) + 1e-3;
        int accept = !have_cur || r.gflops > cur_gf || urand() < exp((r.gflops - cur_gf) / (temp * cur_gf));
        if (accept) { cur = cand; cur_gf = r.gflops; have_cur = 1; }
        printf("%.1f / %.1f GFLOP/s (err %.2g)%s  best %.1f\n", r.gflops_small, r.gflops, r.max_err,
               accept ? " *" : "", top[0].gflops);
    }
    printf("search: %d candidates in %.0f s: %d measured, %d pruned, %d failed%s\n", evaluated,
           now() - t_start, evaluated - pruned - failed, pruned, failed,
           invalid_seeds ? " (some seeds invalid here)" : "");
    if (!ntop) { fprintf(stderr, "gpublas3-tune: nothing passed\n"); return 1; }

    /* the best few again, at the final size, more repetitions */
    int win = 0;
    double win_gf = o.copy_only ? 1 : 0;
    for (int i = 0; i < ntop && !o.copy_only; i++) {
        tune_params_string(&top[i].p, j.params, sizeof j.params);
        j.small = &small;
        j.big = fin;
        j.nbig = squares_only ? 1 : nmain;
        j.prune = 0;
        j.reps = o.reps + 2;
        in_child(gemm_child, &j, o.timeout * 2, &r);
        printf("final: %s: %s %.1f GFLOP/s\n", j.params, r.ok == 1 ? "" : r.why,
               r.ok == 1 ? r.gflops : 0.0);
        if (r.ok == 1 && r.gflops > win_gf) { win = i; win_gf = r.gflops; }
    }
    if (win_gf <= 0) { fprintf(stderr, "gpublas3-tune: the final comparison failed\n"); return 1; }
    g3_params best = top[win].p;

    /* the copy kernel for the winner: a small grid, every point checked */
    double copy_gbs = 0;
    if (o.copy) {
        const tune_space *cs = &o.copy_grid;
        g3_params cb = best;
        for (int c = 0; c < cs->axes[2].count; c++)
        for (int a = 0; a < cs->axes[0].count; a++)
            for (int b = 0; b < cs->axes[1].count; b++) {
                g3_params p = best;
                p.copy_ts = cs->axes[0].values[a];
                p.copy_rs = cs->axes[1].values[b];
                p.copy_direct = cs->axes[2].values[c];
                if (!valid(&p, &dev)) continue;
                j.p = p;
                j.reps = o.reps;
                in_child(copy_child, &j, o.timeout, &r);
                printf("copy ts=%d rs=%d direct=%d: ", p.copy_ts, p.copy_rs, p.copy_direct);
                if (r.ok != 1) { printf("FAILED: %s\n", r.why); continue; }
                printf("%.1f GB/s (%.0f%% of copy)\n", r.gflops, 100 * r.gflops / dev.copy_gbs);
                if (r.gflops > copy_gbs) { copy_gbs = r.gflops; cb = p; }
            }
        best.copy_ts = cb.copy_ts;
        best.copy_rs = cb.copy_rs;
        best.copy_direct = cb.copy_direct;
    }

    /* what the score was taken on, for the log and the row's comment */
    char on[600];
    if (squares_only) snprintf(on, sizeof on, "n=%zu", o.final);
    else snprintf(on, sizeof on, "geomean of %s", strchr(described, ',') + 1);
    print_params("best: ", &best);
    if (o.copy_only)
        printf("best: no GEMM timed");
    else
        printf("best: %.1f GFLOP/s, %s", win_gf, on);
    if (copy_gbs > 0) printf(", copy %.1f GB/s (%.0f%% of %.1f)", copy_gbs, 100 * copy_gbs / dev.copy_gbs, dev.copy_gbs);
    printf("\n");
    if (o.out) {
        char comment[1024], date[32];
        time_t t = time(NULL);
        strftime(date, sizeof date, "%Y-%m-%d", gmtime(&t));
        /* --copy-only times no GEMM: its row says what was measured, if anything */
        if (o.copy_only)
            snprintf(comment, sizeof comment, "gpublas3-tune %s, driver %s: the --start set, %s", date, dev.driver,
                     copy_gbs > 0 ? "copy kernel tuned" : "nothing timed");
        else
            snprintf(comment, sizeof comment, "gpublas3-tune %s, driver %s: %.0f GFLOP/s %cGEMM %s%s", date,
                     dev.driver, win_gf, o.dbl ? 'D' : 'S', on, o.budget < 600 ? " (short search)" : "");
        const char *shape = o.klass ? o.klass : "any";
        if (tune_write_row(o.out, o.match, shape, &best, comment)) {
            fprintf(stderr, "gpublas3-tune: cannot write %s\n", o.out);
            return 1;
        }
        printf("wrote %s row \"%s\",%d,%s\n", o.out, o.match, best.precision, shape);
    }
    return 0;
}

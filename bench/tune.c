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
 * kernel is tuned on its own (GB/s of packing, checked). */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tune.h"

typedef struct {
    const char *device, *space, *out, *match, *copy_src, *start;
    int dbl, reps, timeout, copy, copy_only;
    size_t size, small, final;
    double budget, prune;
    unsigned long long seed;
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
    char params[512];
    double prune;
    int reps;
    tune_device *dev;
    g3_params p;
} job;

static void gemm_child(void *arg, tune_result *r)
{
    job *j = arg;
    tune_eval_gemm(j->o->device, j->params, j->small, j->big, j->prune, j->reps, r);
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
 * found (bench/NOTES.md), so that a short search refines rather than
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

static g3_params base_params(int dbl, const char *space)
{
    g3_params p = { .table = "tune", .match = "tune", .precision = dbl ? 64 : 32,
                    .mwg = 64, .nwg = 64, .kwg = 16, .mdimc = 16, .ndimc = 16, .vwm = 1, .vwn = 1, .kwi = 1,
                    .sa = 1, .sb = 1, .copy_ts = 16, .copy_rs = 16 };
    if (strcmp(space, "cpu") == 0) p.copy_rs = 4;
    return p;
}

static int valid(const g3_params *p, const tune_device *d)
{
    return !g3_params_invalid(p, d->max_wg, d->local_mem) && (!p->mma || d->nvidia);
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
        g3_params_string(&p, s, sizeof s);
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
         "  --size N          main size of the search (default 4096 on a GPU, 1024 on a CPU)\n"
         "  --small N         pruning size, odd to test the edges (default 2047 / 385)\n"
         "  --final N         size of the final comparison and copy tuning (default --size)\n"
         "  --budget S        seconds of search (default 300)\n"
         "  --prune F         drop a candidate slower than F x best at the small size (default 0.5)\n"
         "  --reps R          timed calls per size, the fastest counts (default 3)\n"
         "  --start P         extra seed point, GPUBLAS3_PARAMS syntax\n"
         "  --timeout S       per-candidate limit (default 120)\n"
         "  --no-copy         skip the copy-kernel tuning\n"
         "  --copy-only       tune only the copy kernel, for --start (or the first seed)\n"
         "  --copy-src FILE   copy/pack.cl to tune (default copy/pack.cl)\n"
         "  --out FILE        tuned-params CSV to update (default: print the row only)\n"
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
        { "copy-only", 0, 0, 'O' }, { "help", 0, 0, 'h' }, { 0, 0, 0, 0 } };
    *o = (options){ .reps = 3, .timeout = 120, .copy = 1, .budget = 300, .prune = 0.5, .seed = 1,
                    .copy_src = "copy/pack.cl" };
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
        default: usage(); return -1;
        }
    }
    return 0;
}

static void print_params(const char *label, const g3_params *p)
{
    char s[512];
    g3_params_string(p, s, sizeof s);
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
    printf("gpublas3-tune: %s (%s; %s; %s), %s precision, space %s\n", dev.name, dev.vendor, dev.driver,
           dev.platform, o.dbl ? "double" : "single", o.space);
    printf("  sizes %zu (prune below %.2f x best) / %zu, final %zu; budget %.0f s; copy bandwidth %.1f GB/s\n",
           o.small, o.prune, o.size, o.final, o.budget, dev.copy_gbs);

    /* operands for all children, made once */
    tune_problem small, big, fin;
    tune_problem_make(&small, o.dbl, o.small, o.seed);
    tune_problem_make(&big, o.dbl, o.size, o.seed + 1);
    if (o.final != o.size) tune_problem_make(&fin, o.dbl, o.final, o.seed + 2);
    else fin = big;
    printf("  references ready after %.1f s\n", now() - t_start);

    /* seeds */
    const char **seeds = strcmp(o.space, "mma") == 0 ? seeds_mma
                       : strcmp(o.space, "cpu") == 0 ? (o.dbl ? seeds_cpu64 : seeds_cpu32)
                       : (o.dbl ? seeds_gpu64 : seeds_gpu32);
    g3_params base = base_params(o.dbl, o.space);
    g3_params queue[16];
    int nq = 0;
    if (o.start) {
        g3_params p = base;
        if (g3_params_override(&p, o.start) == 0) queue[nq++] = p;
    }
    for (int i = 0; seeds[i] && nq < 12; i++) {
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
    while (!o.copy_only && now() - t_start < o.budget) {
        g3_params cand;
        char s[512];
        if (qi < nq) {
            cand = queue[qi++];
            g3_params_string(&cand, s, sizeof s);
            if (!valid(&cand, &dev)) { invalid_seeds++; continue; }
            if (was_seen(s)) continue;
        } else if (!have_cur || urand() < 0.15) {
            cand = random_point(sp, base, &dev);
            g3_params_string(&cand, s, sizeof s);
            if (was_seen(s)) continue;
        } else if (!neighbour(sp, &cur, &dev, &cand)) {
            have_cur = 0;
            continue;
        }
        g3_params_string(&cand, j.params, sizeof j.params);
        j.small = &small;
        j.big = &big;
        j.prune = best_small * o.prune;
        j.reps = o.reps;
        in_child(gemm_child, &j, o.timeout, &r);
        evaluated++;
        printf("[%6.1fs #%3d] %s: ", now() - t_start, evaluated, j.params);
        if (r.ok == 2) {
            pruned++;
            printf("pruned (%.1f GFLOP/s at %zu)\n", r.gflops_small, o.small);
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
        double temp = 0.10 * (1 - (now() - t_start) / o.budget) + 1e-3;
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
        g3_params_string(&top[i].p, j.params, sizeof j.params);
        j.small = &small;
        j.big = &fin;
        j.prune = 0;
        j.reps = o.reps + 2;
        in_child(gemm_child, &j, o.timeout * 2, &r);
        printf("final %zu: %s: %s %.1f GFLOP/s\n", o.final, j.params, r.ok == 1 ? "" : r.why,
               r.ok == 1 ? r.gflops : 0.0);
        if (r.ok == 1 && r.gflops > win_gf) { win = i; win_gf = r.gflops; }
    }
    if (win_gf <= 0) { fprintf(stderr, "gpublas3-tune: the final comparison failed\n"); return 1; }
    g3_params best = top[win].p;

    /* the copy kernel for the winner: a small grid, every point checked */
    double copy_gbs = 0;
    if (o.copy) {
        const tune_space *cs = tune_space_for("copy");
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

    print_params("best: ", &best);
    printf("best: %.1f GFLOP/s at n=%zu", win_gf, o.final);
    if (copy_gbs > 0) printf(", copy %.1f GB/s (%.0f%% of %.1f)", copy_gbs, 100 * copy_gbs / dev.copy_gbs, dev.copy_gbs);
    printf("\n");
    if (o.out) {
        char comment[512], date[32];
        time_t t = time(NULL);
        strftime(date, sizeof date, "%Y-%m-%d", gmtime(&t));
        snprintf(comment, sizeof comment, "gpublas3-tune %s, driver %s: %.0f GFLOP/s %cGEMM n=%zu%s", date,
                 dev.driver, win_gf, o.dbl ? 'D' : 'S', o.final, copy_gbs > 0 ? "" : "");
        if (tune_write_row(o.out, o.match, &best, comment)) {
            fprintf(stderr, "gpublas3-tune: cannot write %s\n", o.out);
            return 1;
        }
        printf("wrote %s row \"%s\",%d\n", o.out, o.match, best.precision);
    }
    return 0;
}

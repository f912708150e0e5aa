/* SPDX-License-Identifier: BSD-3-Clause */
/* gpublas3-bench: GFLOP/s of gpublas3 next to its peers, measured in one run
 * on one OpenCL device.  For each routine, precision, option set and size it
 * draws random operands and computes the OpenBLAS reference; every peer makes
 * one call whose result is checked (it is also the warm-up); the peers that
 * pass are then timed, `reps` rounds of one call per device peer, then the
 * host peers' calls.  A device call is timed by the monotonic wall clock
 * between clFinish before and clFinish after it, so transfers are excluded;
 * the output operand is restored before each call so every call does the
 * same work.  Usage: bench/README.md or --help. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench.h"

/* Idle worker threads spin for a while before they sleep: OpenBLAS's about
 * 2^28 cycles (0.1 s), PoCL's too.  Each phase of timing waits this long
 * after the other's last call, or the spinning steals its cores. */
#define SETTLE_NS 200000000L

/* A GPU lowers its clocks while it idles (the settle pause, the host's
 * checks), and a case of a few calls of 0.1 ms would be timed before they
 * rise again (H100, 2026-11-23: DGEMM 1024^3 at 6.9 TFLOP/s after the pause,
 * 18 in the plan sweep).  So the device phase first runs untimed rounds,
 * WARM_S of them in all (at most WARM_ROUNDS); cublas_peer does the same.
 * On a CPU device both phases (PoCL's, then the host peers') WARM_CPU_S:
 * PoCL's first launches after the pause ran at half speed for about 50 ms
 * (2-vCPU Xeon, 2026-12-07: CGEMM 512's GEMM launch 5.6-6.4 ms for its
 * first 8 calls, 2.8-3.2 after; the median of 3 timed calls at 147-158
 * GFLOP/s against 274-294 of 30), where OpenBLAS's calls did not slow. */
#define WARM_S 0.02
#define WARM_CPU_S 0.1
#define WARM_ROUNDS 256

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* splitmix64: reproducible from --seed, uniform in [-1, 1], never zero. */
static double next_value(unsigned long long *s)
{
    unsigned long long z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    double v = 2.0 * ((double)(z >> 11) * 0x1.0p-53) - 1.0;
    return v == 0.0 ? 0.5 : v;
}

static void put(void *p, size_t i, int dbl, double v)
{
    if (dbl) ((double *)p)[i] = v;
    else ((float *)p)[i] = (float)v;
}

static void *random_array(size_t n, int dbl, unsigned long long *seed)
{
    void *p = malloc((n ? n : 1) * (dbl ? 8 : 4));
    for (size_t i = 0; p && i < n; i++) put(p, i, dbl, next_value(seed));
    return p;
}

/* Host data of one case: operands, the output before the call, the
 * reference result, and the result the peer gave. */
typedef struct {
    void *A, *B, *C, *before, *ref, *got;
    size_t nA, nB, nC, nout;
    char out;
    spec_case checked;   /* the case whose output is checked: the call's, or its leading part (--sample) */
} case_data;

static void free_case(case_data *h)
{
    free(h->A); free(h->B); free(h->C); free(h->ref); free(h->got);
    memset(h, 0, sizeof *h);
}

/* The leading part of case c that the check covers with --sample S:
 * GEMM, SYRK-like and left-side routines keep the first S columns of
 * their output (N = S), right-side ones the first S rows (M = S).  It is a
 * call of the same routine on the same buffers with the same leading
 * dimensions, whose result is part of the whole call's, so spec.h's
 * reference and judgement apply to it unchanged, at S/N of the cost
 * ((S/N)^2 for SYRK-like routines: their leading S x S block). */
static spec_case leading_part(const spec_case *c, size_t S)
{
    spec_case p = *c;
    int right = c->side == gpublas3Right && (c->routine == SPEC_SYMM || c->routine == SPEC_HEMM ||
                                             c->routine == SPEC_TRMM || c->routine == SPEC_TRSM);
    size_t *dim = right ? &p.M : &p.N;
    if (S && *dim > S) *dim = S;
    return p;
}

static int prepare_case(const spec_case *c, size_t sample, unsigned long long *seed, case_data *h)
{
    int dbl = c->dbl;
    size_t es = spec_elem_size(c), nc = c->cplx ? 2 : 1; /* reals per element */
    memset(h, 0, sizeof *h);
    h->out = spec_output(c);
    h->nA = spec_uses(c, 'A') ? spec_elements(c, 'A') : 0;
    h->nB = spec_uses(c, 'B') ? spec_elements(c, 'B') : 0;
    h->nC = spec_uses(c, 'C') ? spec_elements(c, 'C') : 0;
    h->A = h->nA ? random_array(h->nA * nc, dbl, seed) : NULL;
    if (h->A) spec_condition(c, h->A);
    h->B = h->nB ? random_array(h->nB * nc, dbl, seed) : NULL;
    h->C = h->nC ? random_array(h->nC * nc, dbl, seed) : NULL;
    h->before = h->out == 'B' ? h->B : h->C;
    h->nout = h->out == 'B' ? h->nB : h->nC;
    h->ref = malloc(h->nout * es);
    h->got = malloc(h->nout * es);
    if (!h->before || !h->ref || !h->got || (h->nA && !h->A)) return -1;
    h->checked = leading_part(c, sample);
    memcpy(h->ref, h->before, h->nout * es);
    spec_reference(&h->checked, h->A, h->B, h->ref);

    return 0;
}

/* spec_check of the checked case.  When that is the leading part of the
 * call, the rest of what the call may write is compared with itself (its
 * `before` is the result there), and everything the call must not touch
 * with the data before the call, as in a whole check. */
static size_t check_result(const spec_case *c, const case_data *h, double *worst, char *msg, size_t n)
{
    if (h->checked.M == c->M && h->checked.N == c->N)
        return spec_judge(c, h->A, h->B, h->before, h->got, h->ref, h->nout, worst, msg, n);
    size_t es = spec_elem_size(c), rows, cols;
    char *before = malloc(h->nout * es);
    if (!before) {
        snprintf(msg, n, "out of memory for the check");
        return 1;
    }
    memcpy(before, h->before, h->nout * es);
    spec_dims(c, h->out, &rows, &cols);
    for (size_t j = 0; j < cols; j++)
        for (size_t i = 0; i < rows; i++)
            if (spec_referenced(c, h->out, i, j) && !spec_referenced(&h->checked, h->out, i, j)) {
                size_t x = spec_index(c, h->out, i, j) * es;
                memcpy(before + x, (const char *)h->got + x, es);
            }
    size_t bad = spec_judge(&h->checked, h->A, h->B, before, h->got, h->ref, h->nout, worst, msg, n);
    free(before);
    return bad;
}

/* Device buffers of one case, shared by every device peer. */
typedef struct { cl_mem A, B, C; } case_buffers;

static cl_mem make_buffer(cl_context ctx, const void *host, size_t bytes)
{
    cl_int e;
    if (!host) return NULL;
    return clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, (void *)host, &e);
}

static int write_buffer(cl_command_queue q, cl_mem m, const void *host, size_t bytes)
{
    if (!m) return 0;
    return clEnqueueWriteBuffer(q, m, CL_TRUE, 0, bytes, host, 0, NULL, NULL) == CL_SUCCESS ? 0 : -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The checked call, which is also the warm-up.  Returns 1 if the peer may
 * be timed; otherwise res->status says why not. */
static int check(const bench_peer *p, const spec_case *c, const bench_device *dev, case_data *h,
                 case_buffers *d, bench_result *res)
{
    size_t es = spec_elem_size(c), outbytes = h->nout * es;
    cl_command_queue q = dev->queue;
    cl_mem out = h->out == 'B' ? d->B : d->C;
    char err[256] = "", msg[512] = "";
    int fail;

    if (p->on_device) {
        fail = write_buffer(q, d->A, h->A, h->nA * es) || write_buffer(q, d->B, h->B, h->nB * es) ||
               write_buffer(q, d->C, h->C, h->nC * es);
        if (!fail) fail = p->enqueue(c, q, d->A, d->B, d->C, err, sizeof err);
        if (!fail && clFinish(q) != CL_SUCCESS) fail = snprintf(err, sizeof err, "clFinish failed");
        if (!fail && clEnqueueReadBuffer(q, out, CL_TRUE, 0, outbytes, h->got, 0, NULL, NULL) != CL_SUCCESS)
            fail = snprintf(err, sizeof err, "reading the result failed");
    } else {
        memcpy(h->got, h->before, outbytes);
        fail = p->host_call(c, h->A, h->B, h->got, err, sizeof err);
    }
    if (fail) {
        snprintf(res->status, sizeof res->status, "ERROR: %s", err[0] ? err : "call failed");
        clFinish(q);
        return 0;
    }
    size_t bad = check_result(c, h, &res->max_rel_err, msg, sizeof msg);
    if (bad) {
        snprintf(res->status, sizeof res->status, "FAIL: %zu bad elements; %s", bad, msg);
        return 0;
    }
    return 1;
}

/* One timed call, the output restored first; seconds, or -1 with res->status set. */
static double time_once(const bench_peer *p, const spec_case *c, const bench_device *dev, case_data *h,
                        case_buffers *d, bench_result *res)
{
    size_t outbytes = h->nout * spec_elem_size(c);
    cl_command_queue q = dev->queue;
    char err[256] = "";
    double t0, t1;
    if (p->on_device) {
        cl_mem out = h->out == 'B' ? d->B : d->C;
        if (write_buffer(q, out, h->before, outbytes) || clFinish(q) != CL_SUCCESS) {
            snprintf(res->status, sizeof res->status, "ERROR: restoring the output failed");
            return -1;
        }
        t0 = now_s();
        int fail = p->enqueue(c, q, d->A, d->B, d->C, err, sizeof err);
        if (clFinish(q) != CL_SUCCESS || fail) {
            snprintf(res->status, sizeof res->status, "ERROR: a timed call failed: %s", err);
            return -1;
        }
        t1 = now_s();
    } else {
        memcpy(h->got, h->before, outbytes);   /* the checked result is no longer needed */
        t0 = now_s();
        p->host_call(c, h->A, h->B, h->got, err, sizeof err);
        t1 = now_s();
    }
    return t1 - t0;
}

static void statistics(const spec_case *c, bench_result *res)
{
    double sorted[64];
    int n = res->reps;
    memcpy(sorted, res->times, (size_t)n * sizeof(double));
    qsort(sorted, (size_t)n, sizeof(double), cmp_double);
    res->min_s = sorted[0];
    res->median_s = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    res->gflops = spec_flops(c) / res->median_s * 1e-9;
    snprintf(res->status, sizeof res->status, "ok");
}

/* Every peer's checked call, then `reps` rounds of one timed call per device
 * peer that passed: interleaving puts the peers under the same background
 * load, so their ratio survives a busy host better than their rates do.
 * Then the host peers' timed calls.  Times add up in row[] over --rounds. */
static void measure_case(const bench_config *cfg, int reps, const bench_peer **peer, const int *ok,
                         const char **why, const bench_device *dev, const spec_case *c, case_data *h,
                         case_buffers *d, int prepared, bench_result *row)
{
    int timing[BENCH_MAX_LIST];
    for (int i = 0; i < cfg->npeers; i++) {
        bench_result *res = &row[i];
        timing[i] = 0;
        if (res->status[0])
            continue;  /* failed in an earlier round */
        if (!ok[i])
            snprintf(res->status, sizeof res->status, "ERROR: unavailable: %s", why[i]);
        else if (!prepared || (peer[i]->on_device && (!d->A || (h->nB && !d->B) || (h->nC && !d->C))))
            snprintf(res->status, sizeof res->status, "ERROR: out of memory for this size");
        else
            timing[i] = check(peer[i], c, dev, h, d, res);
    }
    /* The device peers first, then the host peers, each phase after the
     * other's threads have fallen asleep (SETTLE_NS); the checks above use
     * OpenBLAS too. */
    for (int on_device = 1; on_device >= 0; on_device--) {
        int any = 0;
        for (int i = 0; i < cfg->npeers; i++) any |= timing[i] && peer[i]->on_device == on_device;
        if (!any) continue;
        nanosleep(&(struct timespec){ .tv_nsec = SETTLE_NS }, NULL);
        /* host peers warm up only beside a CPU device, so that both phases match */
        const int cpu = strcmp(dev->type, "cpu") == 0;
        double warm = 0, warm_s = cpu ? WARM_CPU_S : on_device ? WARM_S : 0;
        for (int r = 0; warm < warm_s && r < WARM_ROUNDS; r++)
            for (int i = 0; i < cfg->npeers; i++) {
                if (!timing[i] || peer[i]->on_device != on_device) continue;
                double t = time_once(peer[i], c, dev, h, d, &row[i]);
                if (t < 0) timing[i] = 0;
                else warm += t;
            }
        for (int r = 0; r < reps; r++)
            for (int i = 0; i < cfg->npeers; i++) {
                if (!timing[i] || peer[i]->on_device != on_device) continue;
                double t = time_once(peer[i], c, dev, h, d, &row[i]);
                if (t < 0) timing[i] = 0;
                else row[i].times[row[i].reps++] = t;
            }
    }
}

/* --probe: one call per device peer on zero-filled buffers, neither
 * checked nor timed, then "probe <precision> <shape> ok|<why>" on stdout,
 * flushed, so that GPUBLAS3_VERBOSE's plan lines (stderr) come before the
 * line of their case: bench/plan_sweep.py learns each case's plan from it
 * without paying for the host's data, reference and checks.  1 if a call
 * failed. */
static int probe_case(const bench_config *cfg, const bench_peer **peer, const int *ok,
                      const bench_device *dev, const spec_case *c)
{
    cl_mem m[3] = { 0 };
    char err[256] = "";
    int bad = 0;
    fflush(stdout);
    for (int k = 0; k < 3; k++) {
        size_t bytes = spec_uses(c, "ABC"[k]) ? spec_elements(c, "ABC"[k]) * spec_elem_size(c) : 0;
        cl_int e = CL_SUCCESS, zero = 0;
        if (bytes && !(m[k] = clCreateBuffer(dev->context, CL_MEM_READ_WRITE, bytes, NULL, &e)))
            bad = snprintf(err, sizeof err, "no buffer of %zu bytes", bytes);
        else if (bytes && clEnqueueFillBuffer(dev->queue, m[k], &zero, sizeof zero, 0, bytes, 0, NULL, NULL))
            bad = snprintf(err, sizeof err, "filling a buffer failed");
    }
    for (int i = 0; !bad && i < cfg->npeers; i++)
        if (ok[i] && peer[i]->on_device && peer[i]->enqueue(c, dev->queue, m[0], m[1], m[2], err, sizeof err))
            bad = 1;
    if (clFinish(dev->queue) != CL_SUCCESS && !bad)
        bad = snprintf(err, sizeof err, "clFinish failed");
    for (int k = 0; k < 3; k++)
        if (m[k]) clReleaseMemObject(m[k]);
    printf("probe %c %zux%zux%zu:%c%c %s\n", spec_precision(c), c->M, c->N, c->K,
           c->transA == gpublas3NoTrans ? 'N' : 'T', c->transB == gpublas3NoTrans ? 'N' : 'T', bad ? err : "ok");
    fflush(stdout);
    return bad != 0;
}

/* --- command line ---------------------------------------------------------- */
static void usage(FILE *out)
{
    fprintf(out,
        "usage: gpublas3-bench [options]\n"
        "  --routines LIST    gemm,symm,syrk,syr2k,trmm,trsm,hemm,herk,her2k (default: all);\n"
        "                     gemm_batched: gemm with --batch 1000 unless given\n"
        "  --batch B          gemm as strided batches of B products (gpublas3?gemmStridedBatched;\n"
        "                     CLBlast's ?gemmStridedBatched, OpenBLAS a loop; gpublas3-loop:\n"
        "                     a host loop of single gpublas3 calls)\n"
        "  --precisions LIST  s,d,c,z (default: s,d; hemm, herk, her2k run in c and z only)\n"
        "  --sizes LIST       square sizes n, M=N=K=n (default: 256,1024)\n"
        "  --shapes LIST      shapes MxNxK[:TT] instead (TT: op(A) op(B), N, T or C; default NN),\n"
        "                     e.g. 8192x64x8192:NN,512x512x512, each run by every routine it fits;\n"
        "                     or a routine's own, ROUTINE:DIMS[:OPTIONS] as the table writes them:\n"
        "                     syrk:8192x256:LN (N x K, uplo trans), trsm:256x8192:LLNU (M x N,\n"
        "                     side uplo transA diag), symm:MxN:LU, gemm:MxNxK:NT; routines\n"
        "                     default to the shapes' own (gemm for MxNxK)\n"
        "  --suite NAME       a named shape list: %s (see bench/README.md)\n"
        "  --reps R           timed calls per case, median reported (default: 3, max 64)\n"
        "  --rounds W         run the whole sweep W times, pooling each case's times\n"
        "                     (default: 1; reps x rounds <= 64)\n"
        "  --device SEL       gpu | cpu | P:D | name substring (default: $GPUBLAS3_DEVICE,\n"
        "                     else the first GPU, else the first OpenCL device)\n"
        "  --peers LIST       %s (default: all)\n"
        "  --csv FILE, --json FILE   write results with full metadata\n"
        "  --order col,row  --transA N,T,C  --transB N,T,C  --side L,R  --uplo U,L  --diag N,U\n"
        "                     option sets to run (default: col N N L U N); each routine\n"
        "                     runs every combination of the options it takes (C: conjugate\n"
        "                     transpose; real routines run it as T, and not again when T is\n"
        "                     listed; complex syrk, syr2k take N,T and herk, her2k N,C)\n"
        "  --alpha A --beta B  scalars (default: 1.25 0.75)   --seed S (default: 1)\n"
        "  --probe            one unchecked, untimed call per case on zeroed buffers (with\n"
        "                     GPUBLAS3_VERBOSE=1: each case's plan; bench/plan_sweep.py)\n"
        "  --sample S         check only the leading S columns of each output (S rows on the\n"
        "                     right side; syrk-like: the leading S x S block), not all of it:\n"
        "                     large sizes, whose host reference costs more than the timing\n"
        "  --ld-extra E       every leading dimension E elements past the tight one (default 0),\n"
        "                     e.g. to see what a power-of-two stride costs\n"
        "  --list             list OpenCL devices and exit\n", bench_suite_names(), bench_peer_names());
}

/* Splits option `what`'s comma-separated list into at most `max` items;
 * more than that, or none, is refused with a message (-1). */
static int split(char *s, char **items, int max, const char *what)
{
    int n = 0;
    for (char *t = strtok(s, ","); t; t = strtok(NULL, ","), n++) {
        if (n == max) {
            fprintf(stderr, "gpublas3-bench: %s takes at most %d items\n", what, max);
            return -1;
        }
        items[n] = t;
    }
    if (n == 0) fprintf(stderr, "gpublas3-bench: %s: empty list\n", what);
    return n ? n : -1;
}

/* Parses a list of one-letter choices, each at most once; `letters` maps
 * position to value.  Returns the count, or -1 after saying why. */
static int parse_choices(char *arg, const char *letters, const int *values, int *out, const char *what)
{
    char *items[4];
    int n = split(arg, items, (int)strlen(letters), what), seen[4] = { 0 };
    for (int i = 0; i < n; i++) {
        const char *hit = strchr(letters, items[i][0]);   /* the first letter: "col" is c */
        if (!hit || !*hit) {
            fprintf(stderr, "gpublas3-bench: %s: bad item \"%s\" (one of %s)\n", what, items[i], letters);
            return -1;
        }
        if (seen[hit - letters]++) {
            fprintf(stderr, "gpublas3-bench: %s: \"%s\" given twice\n", what, items[i]);
            return -1;
        }
        out[i] = values[hit - letters];
    }
    return n;
}

static int parse_args(int argc, char **argv, bench_config *cfg)
{
    static const struct option longopts[] = {
        { "routines", 1, 0, 'r' }, { "precisions", 1, 0, 'p' }, { "sizes", 1, 0, 'n' },
        { "reps", 1, 0, 'R' }, { "device", 1, 0, 'D' }, { "peers", 1, 0, 'P' },
        { "csv", 1, 0, 'c' }, { "json", 1, 0, 'j' }, { "seed", 1, 0, 's' },
        { "alpha", 1, 0, 'a' }, { "beta", 1, 0, 'b' }, { "order", 1, 0, 'o' },
        { "transA", 1, 0, 'A' }, { "transB", 1, 0, 'B' }, { "side", 1, 0, 'S' },
        { "uplo", 1, 0, 'U' }, { "diag", 1, 0, 'G' }, { "list", 0, 0, 'l' },
        { "help", 0, 0, 'h' }, { "rounds", 1, 0, 'W' }, { "shapes", 1, 0, 'L' }, { "suite", 1, 0, 'Y' },
        { "sample", 1, 0, 'K' }, { "probe", 0, 0, 'Q' }, { "ld-extra", 1, 0, 'X' }, { "batch", 1, 0, 'T' },
        { 0, 0, 0, 0 } };
    static const int orders[] = { gpublas3ColumnMajor, gpublas3RowMajor };
    static const int transes[] = { gpublas3NoTrans, gpublas3Trans, gpublas3ConjTrans };
    static const int sides[] = { gpublas3Left, gpublas3Right };
    static const int uplos[] = { gpublas3Upper, gpublas3Lower };
    static const int diags[] = { gpublas3NonUnit, gpublas3Unit };
    static char *default_peers[] = { "gpublas3", "clblast", "openblas" };
    int tmp[4], opt, n, routines_given = 0;
    char *items[BENCH_MAX_LIST], err[256];

    memset(cfg, 0, sizeof *cfg);
    for (int r = 0; r < SPEC_NALL; r++) cfg->routines[r] = r;
    cfg->nroutines = SPEC_NALL;
    cfg->precisions[0] = 0; cfg->precisions[1] = 1; cfg->nprecisions = 2;
    cfg->sizes[0] = 256; cfg->sizes[1] = 1024; cfg->nsizes = 2;
    cfg->reps = 3;
    cfg->rounds = 1;
    for (int i = 0; i < 3; i++) cfg->peers[i] = default_peers[i];
    cfg->npeers = 3;
    cfg->seed = 1;
    cfg->alpha = 1.25;
    cfg->beta = 0.75;
    cfg->orders[0] = gpublas3ColumnMajor; cfg->norders = 1;
    cfg->transA[0] = cfg->transB[0] = gpublas3NoTrans; cfg->ntransA = cfg->ntransB = 1;
    cfg->sides[0] = gpublas3Left; cfg->nsides = 1;
    cfg->uplos[0] = gpublas3Upper; cfg->nuplos = 1;
    cfg->diags[0] = gpublas3NonUnit; cfg->ndiags = 1;

    while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (opt) {
        case 'L':
            if ((cfg->nshapes = bench_shapes_parse(optarg, cfg->shapes, BENCH_MAX_SHAPES, err, sizeof err)) < 1) {
                fprintf(stderr, "gpublas3-bench: --shapes: %s\n", cfg->nshapes < 0 ? err : "empty");
                return -1;
            }
            break;
        case 'Y':
            cfg->suite = optarg;
            if ((cfg->nshapes = bench_suite(optarg, cfg->shapes, BENCH_MAX_SHAPES)) < 1) {
                fprintf(stderr, "gpublas3-bench: unknown suite \"%s\" (%s)\n", optarg, bench_suite_names());
                return -1;
            }
            break;
        case 'r':
            routines_given = 1;
            if ((n = split(optarg, items, SPEC_NALL, "--routines")) < 0) return -1;
            cfg->nroutines = 0;
            for (int i = 0; i < n; i++) {
                /* gemm_batched: gemm with --batch (1000 unless given) */
                int r = strcmp(items[i], "gemm_batched") ? spec_parse_routine(items[i]) : SPEC_GEMM;
                if (!strcmp(items[i], "gemm_batched") && !cfg->batch)
                    cfg->batch = 1000;
                if (r < 0) { fprintf(stderr, "gpublas3-bench: unknown routine \"%s\"\n", items[i]); return -1; }
                cfg->routines[cfg->nroutines++] = r;
            }
            break;
        case 'p':
            if ((n = split(optarg, items, 4, "--precisions")) < 0) return -1;
            cfg->nprecisions = 0;
            for (int i = 0; i < n; i++) {
                const char *p = strchr("sdcz", items[i][0]);
                if (!p || !items[i][0] || items[i][1]) {
                    fprintf(stderr, "gpublas3-bench: precision must be s, d, c or z\n");
                    return -1;
                }
                cfg->precisions[cfg->nprecisions++] = (int)(p - "sdcz");
            }
            break;
        case 'n':
            if ((n = split(optarg, items, BENCH_MAX_LIST, "--sizes")) < 0) return -1;
            cfg->nsizes = 0;
            for (int i = 0; i < n; i++) {
                char *end;
                long v = strtol(items[i], &end, 10);
                if (*end || v < 1) { fprintf(stderr, "gpublas3-bench: bad size \"%s\"\n", items[i]); return -1; }
                cfg->sizes[cfg->nsizes++] = (size_t)v;
            }
            break;
        case 'R':
            cfg->reps = atoi(optarg);
            if (cfg->reps < 1 || cfg->reps > 64) { fprintf(stderr, "gpublas3-bench: --reps 1..64\n"); return -1; }
            break;
        case 'W':
            cfg->rounds = atoi(optarg);
            if (cfg->rounds < 1 || cfg->rounds > 64) { fprintf(stderr, "gpublas3-bench: --rounds 1..64\n"); return -1; }
            break;
        case 'K': {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (*end || v < 1) { fprintf(stderr, "gpublas3-bench: --sample wants a positive count\n"); return -1; }
            cfg->sample = (size_t)v;
            break;
        }
        case 'X': {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (*end || v < 0 || v > 1 << 20) { fprintf(stderr, "gpublas3-bench: --ld-extra wants 0..1048576\n"); return -1; }
            cfg->ld_extra = (size_t)v;
            break;
        }
        case 'Q': cfg->probe = 1; break;
        case 'T': {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (*end || v < 1) { fprintf(stderr, "gpublas3-bench: --batch wants a positive count\n"); return -1; }
            cfg->batch = (size_t)v;
            break;
        }
        case 'D': cfg->device = optarg; break;
        case 'P':
            if ((n = split(optarg, items, BENCH_MAX_LIST, "--peers")) < 0) return -1;
            for (int i = 0; i < n; i++)
                if (!bench_find_peer(items[i])) {
                    fprintf(stderr, "gpublas3-bench: unknown peer \"%s\" (%s)\n", items[i], bench_peer_names());
                    return -1;
                }
            memcpy(cfg->peers, items, (size_t)n * sizeof(char *));
            cfg->npeers = n;
            break;
        case 'c': cfg->csv = optarg; break;
        case 'j': cfg->json = optarg; break;
        case 's': cfg->seed = strtoull(optarg, NULL, 10); break;
        case 'a': cfg->alpha = atof(optarg); break;
        case 'b': cfg->beta = atof(optarg); break;
        case 'o':
            if ((n = parse_choices(optarg, "cr", orders, tmp, "--order")) < 0) return -1;
            for (int i = 0; i < n; i++) cfg->orders[i] = (gpublas3Order)tmp[i];
            cfg->norders = n;
            break;
        case 'A': case 'B':
            if ((n = parse_choices(optarg, "NTC", transes, tmp, opt == 'A' ? "--transA" : "--transB")) < 0) return -1;
            for (int i = 0; i < n; i++) (opt == 'A' ? cfg->transA : cfg->transB)[i] = (gpublas3Transpose)tmp[i];
            *(opt == 'A' ? &cfg->ntransA : &cfg->ntransB) = n;
            break;
        case 'S':
            if ((n = parse_choices(optarg, "LR", sides, tmp, "--side")) < 0) return -1;
            for (int i = 0; i < n; i++) cfg->sides[i] = (gpublas3Side)tmp[i];
            cfg->nsides = n;
            break;
        case 'U':
            if ((n = parse_choices(optarg, "UL", uplos, tmp, "--uplo")) < 0) return -1;
            for (int i = 0; i < n; i++) cfg->uplos[i] = (gpublas3Uplo)tmp[i];
            cfg->nuplos = n;
            break;
        case 'G':
            if ((n = parse_choices(optarg, "NU", diags, tmp, "--diag")) < 0) return -1;
            for (int i = 0; i < n; i++) cfg->diags[i] = (gpublas3Diag)tmp[i];
            cfg->ndiags = n;
            break;
        case 'l': exit(bench_list_devices(stdout) > 0 ? 0 : 1);
        case 'h': usage(stdout); exit(0);
        default: usage(stderr); return -1;
        }
    }
    if (optind < argc) { fprintf(stderr, "gpublas3-bench: unexpected \"%s\"\n", argv[optind]); return -1; }
    if (cfg->nshapes && !routines_given) {   /* each shape runs for its own routine, MxNxK for GEMM */
        for (int i = 0; i < cfg->nshapes; i++)
            if (!cfg->shapes[i].routine) cfg->shapes[i].routine = "gemm";
        cfg->nroutines = 0;
        for (int r = 0; r < SPEC_NALL; r++)
            for (int i = 0; i < cfg->nshapes; i++)
                if (spec_parse_routine(cfg->shapes[i].routine) == r) {
                    cfg->routines[cfg->nroutines++] = r;
                    break;
                }
    }
    if (cfg->reps * cfg->rounds > 64) { fprintf(stderr, "gpublas3-bench: --reps x --rounds must be <= 64\n"); return -1; }
    return 0;
}

/* Which options each routine takes: order, transA, transB, side, uplo, diag. */
static const int takes[SPEC_NALL][6] = {
    [SPEC_GEMM] = { 1, 1, 1, 0, 0, 0 }, [SPEC_SYMM] = { 1, 0, 0, 1, 1, 0 },
    [SPEC_SYRK] = { 1, 1, 0, 0, 1, 0 }, [SPEC_SYR2K] = { 1, 1, 0, 0, 1, 0 },
    [SPEC_TRMM] = { 1, 1, 0, 1, 1, 1 }, [SPEC_TRSM] = { 1, 1, 0, 1, 1, 1 },
    [SPEC_HEMM] = { 1, 0, 0, 1, 1, 0 }, [SPEC_HERK] = { 1, 1, 0, 0, 1, 0 }, [SPEC_HER2K] = { 1, 1, 0, 0, 1, 0 } };

static gpublas3Transpose trans_of(char t)
{
    return t == 'T' ? gpublas3Trans : t == 'C' ? gpublas3ConjTrans : gpublas3NoTrans;
}

/* The dimensions of case `si` for a routine: a square of --sizes, or a
 * shape.  A routine's shape (shapes.h) runs for its routine only, with its
 * options; a plain one wherever it has a meaning, with the run's side, uplo
 * and diag: GEMM M x N x K with its transposes; SYRK-like N x K (M = N),
 * trans = op(A); SYMM/TRMM/TRSM M x N where K is A's side (M on the left, N
 * on the right), TRMM's and TRSM's transA = op(A).  Returns 0 when the
 * shape does not apply. */
static int case_dims(const bench_config *cfg, int si, spec_case *c, const char **group)
{
    if (!cfg->nshapes) {
        c->M = c->N = c->K = cfg->sizes[si];
        *group = "";
        return 1;
    }
    const bench_shape *s = &cfg->shapes[si];
    *group = s->group;
    c->M = s->M;
    c->N = s->N;
    c->K = s->K;
    c->transA = trans_of(s->ta);
    c->transB = trans_of(s->tb);
    if (s->routine) {
        if (spec_parse_routine(s->routine) != (int)c->routine) return 0;
        c->side = s->side == 'R' ? gpublas3Right : gpublas3Left;
        c->uplo = s->uplo == 'L' ? gpublas3Lower : gpublas3Upper;
        c->diag = s->diag == 'U' ? gpublas3Unit : gpublas3NonUnit;
    }
    switch (c->routine) {
    case SPEC_GEMM: return 1;
    case SPEC_SYRK:
    case SPEC_SYR2K:
    case SPEC_HERK:
    case SPEC_HER2K: return s->M == s->N;
    default: return s->K == (c->side == gpublas3Left ? s->M : s->N);
    }
}

/* Whether case c's transposes make a call worth running: complex SYRK and
 * SYR2K take N or T, HERK and HER2K N or C (reference BLAS refuses the
 * other); for real matrices C means T, so a real case with C runs only
 * when T is not in the same list (it would be the same call again). */
static int runs_trans(const bench_config *cfg, const spec_case *c)
{
    int r = c->routine;
    if (c->cplx)
        return !((r == SPEC_SYRK || r == SPEC_SYR2K) && c->transA == gpublas3ConjTrans) &&
               !((r == SPEC_HERK || r == SPEC_HER2K) && c->transA == gpublas3Trans);
    for (int i = 0; takes[r][1] && c->transA == gpublas3ConjTrans && i < cfg->ntransA; i++)
        if (cfg->transA[i] == gpublas3Trans) return 0;
    for (int i = 0; takes[r][2] && c->transB == gpublas3ConjTrans && i < cfg->ntransB; i++)
        if (cfg->transB[i] == gpublas3Trans) return 0;
    return 1;
}

/* Timed calls of a case: --reps, and in shape runs 8 times as many
 * (within the 64 a case holds) for calls under 0.1 GFLOP, whose times are
 * microseconds and jitter most.  (--sizes runs, the default among them,
 * keep --reps.) */
static int reps_for(const bench_config *cfg, const spec_case *c)
{
    int r = cfg->nshapes && spec_flops(c) < 1e8 ? 8 * cfg->reps : cfg->reps;
    return r * cfg->rounds > 64 ? 64 / cfg->rounds : r;
}

int main(int argc, char **argv)
{
    bench_config cfg;
    bench_device dev;
    char err[512];
    if (parse_args(argc, argv, &cfg)) return 2;
    if (bench_open_device(cfg.device, &dev, err, sizeof err)) {
        fprintf(stderr, "gpublas3-bench: %s\n", err);
        return 1;
    }

    const bench_peer *peer[BENCH_MAX_LIST];
    char version[BENCH_MAX_LIST][256], why[BENCH_MAX_LIST][256];
    const char *versions[BENCH_MAX_LIST], *whys[BENCH_MAX_LIST];
    int ok[BENCH_MAX_LIST];
    for (int i = 0; i < cfg.npeers; i++) {
        peer[i] = bench_find_peer(cfg.peers[i]);
        version[i][0] = why[i][0] = 0;
        ok[i] = peer[i]->init(&dev, version[i], sizeof version[i], why[i], sizeof why[i]) == 0;
        versions[i] = version[i];
        whys[i] = why[i];
        if (!ok[i]) fprintf(stderr, "gpublas3-bench: peer %s unavailable: %s\n", cfg.peers[i], why[i]);
    }

    FILE *csv = NULL;
    if (cfg.csv && !(csv = report_csv_open(cfg.csv))) {
        fprintf(stderr, "gpublas3-bench: cannot write %s\n", cfg.csv);
        return 1;
    }
    report_header(stdout, &cfg, &dev, cfg.peers, versions, cfg.npeers);
    bench_cpu_sample cpu0, cpu1;
    bench_cpu_sample_now(&cpu0);

    /* With --rounds, the whole sweep runs again and each case's times join
     * those of the earlier rounds, so that a drifting background load
     * spreads over every routine instead of falling on whichever ran then:
     * the routines' ratios to GEMM then compare like with like. */
    bench_result *all = NULL;
    size_t nall = 0;
    int probes_failed = 0;
    for (int round = 0; round < cfg.rounds; round++) {
    const int last = round == cfg.rounds - 1;
    unsigned long long seed = cfg.seed;
    size_t at = 0;  /* this case's rows in all[] */
    for (int ri = 0; ri < cfg.nroutines; ri++)
    for (int pi = 0; pi < cfg.nprecisions; pi++) {
        int r = cfg.routines[ri], prec = cfg.precisions[pi];
        const int *t = takes[r];
        if (r >= SPEC_HEMM && !(prec >> 1))
            continue; /* the Hermitian routines are complex only */
        const int shaped = cfg.nshapes > 0;
        for (int o = 0; o < (t[0] ? cfg.norders : 1); o++)
        for (int ta = 0; ta < (t[1] && !shaped ? cfg.ntransA : 1); ta++)
        for (int tb = 0; tb < (t[2] && !shaped ? cfg.ntransB : 1); tb++)
        for (int s = 0; s < (t[3] ? cfg.nsides : 1); s++)
        for (int u = 0; u < (t[4] ? cfg.nuplos : 1); u++)
        for (int g = 0; g < (t[5] ? cfg.ndiags : 1); g++)
        for (int si = 0; si < (shaped ? cfg.nshapes : cfg.nsizes); si++) {
            spec_case c = { .routine = (spec_routine)r, .dbl = prec & 1, .cplx = prec >> 1,
                .order = cfg.orders[o], .side = cfg.sides[s], .uplo = cfg.uplos[u],
                .transA = cfg.transA[ta], .transB = cfg.transB[tb], .diag = cfg.diags[g],
                .alpha = cfg.alpha, .beta = cfg.beta, .batch = r == SPEC_GEMM ? cfg.batch : 0 };
            const char *group;
            if (shaped && cfg.shapes[si].routine && (s || u || g)) continue;   /* it brings its own options */
            if (!case_dims(&cfg, si, &c, &group)) continue;
            if (!runs_trans(&cfg, &c)) continue;
            spec_complete(&c);
            /* past the tight leading dimensions, e.g. off a power of two */
            for (const char *w = "ABC"; cfg.ld_extra && *w; w++)
                if (spec_uses(&c, *w))
                    *(*w == 'A' ? &c.lda : *w == 'B' ? &c.ldb : &c.ldc) += cfg.ld_extra;
            if (cfg.probe) {
                probes_failed += probe_case(&cfg, peer, ok, &dev, &c);
                continue;
            }
            case_data h;
            case_buffers d = { 0 };
            size_t es = spec_elem_size(&c);
            int prepared = prepare_case(&c, cfg.sample, &seed, &h) == 0;
            if (prepared) {
                d.A = make_buffer(dev.context, h.A, h.nA * es);
                d.B = make_buffer(dev.context, h.B, h.nB * es);
                d.C = make_buffer(dev.context, h.C, h.nC * es);
            }
            if (round == 0) {
                bench_result *grown = realloc(all, (nall + (size_t)cfg.npeers) * sizeof *all);
                if (!grown) { fprintf(stderr, "gpublas3-bench: out of memory\n"); return 1; }
                all = grown;
                for (int i = 0; i < cfg.npeers; i++) {
                    bench_result *res = &all[nall + (size_t)i];
                    memset(res, 0, sizeof *res);
                    res->peer = cfg.peers[i];
                    res->peer_version = version[i];
                    res->c = c;
                    res->group = group;
                    bench_options_string(&c, res->options, sizeof res->options);
                }
                nall += (size_t)cfg.npeers;
            }
            bench_result *row = all + at;
            at += (size_t)cfg.npeers;
            measure_case(&cfg, reps_for(&cfg, &c), peer, ok, whys, &dev, &c, &h, &d, prepared, row);
            if (last) {
                for (int i = 0; i < cfg.npeers; i++)
                    if (!row[i].status[0] && row[i].reps) statistics(&c, &row[i]);
                for (int i = 0; csv && i < cfg.npeers; i++) report_csv_row(csv, &dev, &row[i]);
                report_row(stdout, row, cfg.npeers);
            }
            if (d.A) clReleaseMemObject(d.A);
            if (d.B) clReleaseMemObject(d.B);
            if (d.C) clReleaseMemObject(d.C);
            free_case(&h);
        }
    }
    }

    if (nall == 0 && !cfg.probe)
        fprintf(stderr, "gpublas3-bench: no case to run: hemm, herk and her2k run in c and z only, herk and\n"
                        "her2k take transA N or C, complex syrk and syr2k N or T, shapes apply as --help says\n");
    bench_cpu_sample_now(&cpu1);
    bench_cpu_others(&cpu0, &cpu1, dev.host_cpus, &dev.others, &dev.steal);
    int rc = cfg.probe ? probes_failed != 0 : nall ? 0 : 2;   /* nothing ran: said above */
    if (csv) fclose(csv);
    if (cfg.json && report_json(cfg.json, &cfg, &dev, cfg.peers, versions, cfg.npeers, all, nall)) {
        fprintf(stderr, "gpublas3-bench: cannot write %s\n", cfg.json);
        rc = 1;
    }
    report_footer(stdout, &cfg, &dev, all, nall);
    for (size_t i = 0; i < nall; i++)
        if (strncmp(all[i].status, "FAIL", 4) == 0) rc = 3;
    for (int i = 0; i < cfg.npeers; i++)
        if (ok[i] && strcmp(cfg.peers[i], "gpublas3") == 0) gpublas3Teardown();
    free(all);
    bench_close_device(&dev);
    return rc;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared declarations of the benchmark: the run's settings, the OpenCL
 * device it measures on (with the metadata a reader needs to trust a
 * number), the peers it compares, one measured result, and the reports.
 * bench.c drives a run; device.c, peers.c and report.c fill in the parts. */
#ifndef GPUBLAS3_BENCH_H
#define GPUBLAS3_BENCH_H
#include <stddef.h>
#include <stdio.h>
#include "shapes.h"
#include "spec.h"

#define BENCH_MAX_LIST 32

/* What to run, as the command line asked. */
typedef struct {
    int routines[SPEC_NALL], nroutines;
    int precisions[4], nprecisions;             /* 0: s, 1: d, 2: c, 3: z (bit 1: complex) */
    size_t sizes[BENCH_MAX_LIST];
    int nsizes;
    /* --shapes / --suite: M x N x K with transposes, instead of sizes */
    bench_shape shapes[BENCH_MAX_SHAPES];
    int nshapes;
    const char *suite;
    int reps, rounds;                           /* timed calls per case per round */
    size_t sample;                              /* --sample: check the output's leading part; 0: all */
    size_t ld_extra;                            /* --ld-extra: elements added to every leading dimension */
    size_t batch;                               /* --batch: GEMM as strided batches of this many products */
    int probe;                                  /* --probe: one unchecked call per case, for its plan */
    const char *device;                         /* selector, NULL: default */
    const char *peers[BENCH_MAX_LIST];
    int npeers;
    const char *csv, *json;
    unsigned long long seed;
    double alpha, beta;
    /* option lists; each routine iterates over the ones it takes */
    gpublas3Order orders[2]; int norders;
    gpublas3Transpose transA[3]; int ntransA;         /* N, T, C */
    gpublas3Transpose transB[3]; int ntransB;
    gpublas3Side sides[2]; int nsides;
    gpublas3Uplo uplos[2]; int nuplos;
    gpublas3Diag diags[2]; int ndiags;
} bench_config;

/* The OpenCL device every device peer runs on, and who we are. */
typedef struct {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    char name[256], vendor[256], driver[256], cl_version[256], type[16];
    char platform_name[256], platform_version[256];
    cl_uint compute_units, clock_mhz;
    cl_ulong global_mem;
    char date[32], host[256], os[256], library[32];
    char load[64];                              /* /proc/loadavg at the start */
    long host_cpus;
    double others, steal;                       /* bench_cpu_others over the run */
} bench_device;

/* How busy the host was with other work during the run: a 2-core machine
 * shared with builds and tests gives numbers worth little, and says so. */
typedef struct { double wall, own, busy, steal; } bench_cpu_sample;
void bench_cpu_sample_now(bench_cpu_sample *s);
/* Fractions of all CPUs' time between a and b used by other processes, and
 * stolen by the hypervisor. */
void bench_cpu_others(const bench_cpu_sample *a, const bench_cpu_sample *b, long cpus,
                      double *others, double *steal);

int bench_list_devices(FILE *out);
/* Picks the device named by `selector` (gpu, cpu, P:D, or a substring of
 * the platform or device name), or GPUBLAS3_DEVICE, or the first GPU, or
 * the first device; creates its context and in-order queue. */
int bench_open_device(const char *selector, bench_device *dev, char *err, size_t n);
void bench_close_device(bench_device *dev);

/* A peer: either enqueues on the OpenCL queue (device buffers) or calls
 * on host memory.  Returns 0 on success, else writes a reason to err. */
typedef struct {
    const char *name;
    int on_device;
    int (*init)(const bench_device *dev, char *version, size_t vn, char *err, size_t en);
    int (*enqueue)(const spec_case *c, cl_command_queue q, cl_mem A, cl_mem B, cl_mem C,
                   char *err, size_t en);
    int (*host_call)(const spec_case *c, const void *A, const void *B, void *out,
                     char *err, size_t en);
} bench_peer;

const bench_peer *bench_find_peer(const char *name);
const char *bench_peer_names(void);   /* for --help */

/* One measured (peer, case). */
typedef struct {
    const char *peer;
    const char *peer_version;
    spec_case c;
    char options[96];
    const char *group;                /* the suite group, "list", or "" for --sizes */
    int reps;
    double times[64];
    double min_s, median_s, gflops, max_rel_err;
    char status[160];                 /* "ok", "FAIL: ...", "ERROR: ..." */
} bench_result;

void bench_options_string(const spec_case *c, char *buf, size_t n);

/* Reports: the table streams one line per case (one result per peer), the
 * CSV one line per result as it comes, the JSON everything at the end. */
void report_header(FILE *out, const bench_config *cfg, const bench_device *dev,
                   const char *peers[], const char *versions[], int npeers);
void report_row(FILE *out, const bench_result *row, int npeers);
void report_footer(FILE *out, const bench_config *cfg, const bench_device *dev, const bench_result *all,
                   size_t nall);
FILE *report_csv_open(const char *path);
void report_csv_row(FILE *f, const bench_device *dev, const bench_result *res);
int report_json(const char *path, const bench_config *cfg, const bench_device *dev,
                const char *peers[], const char *versions[], int npeers,
                const bench_result *all, size_t nall);
#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* Timing of DGEMM from host memory: dgemm_ on n x n host
 * arrays against what bounds it, all measured in this one run on the
 * device the drop-ins choose by default (the first GPU, else the first
 * device):
 *
 *   h2d, d2h   the pinned-memory bandwidth (CL_MEM_ALLOC_HOST_PTR, mapped),
 *              for the 3 n^2 doubles that go up (A, B, C) and the n^2 that
 *              come back; the two directions may overlap
 *   compute    gpublas3Dgemm on device buffers
 *   bound      max(h2d time, d2h time, compute time)
 *   floor      the pinned-transfer floor of what dgemm_ moves: A and B up
 *              (2 n^2 doubles; C never goes up, beta C is added on the
 *              host), then C down, one after the other
 *   host copy  what the drop-ins' staging costs the host at best: A and B
 *              copied from malloc'd memory into pinned memory, C written
 *              back (C = image + beta C), on as many threads as the
 *              library's default (one per CPU, at most 16); by memcpy,
 *              and by the library's streaming copy (its default,
 *              routines/dropin/host_copy.c, built in from source), which
 *              prefetches its sources as the library does
 *   nvblas     NVBLAS's dgemm_ (libnvblas.so, dlopened; its configuration
 *              from NVBLAS_CONFIG_FILE, else a file written here that
 *              names OpenBLAS as its CPU BLAS and every GPU), when it can
 *              be loaded; its answer is checked before its time counts
 *
 * Usage: host_timing N [REPS [BETA [-]]] ("-": no NVBLAS).  Prints one line
 * per measurement and the ratios dgemm_/bound, dgemm_/floor (the
 * target: <= 1.2) and dgemm_/nvblas (target <= 1). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "gpublas3.h"
#include "gpublas3_blas.h"
#include "host_copy.h"

typedef void (*dgemm_fn)(const char *, const char *, const int *, const int *, const int *, const double *,
                         const double *, const int *, const double *, const int *, const double *, double *,
                         const int *);

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static cl_device_id pick_device(char *name, size_t n)
{
    cl_platform_id p[16];
    cl_uint np = 0;
    cl_device_id first = NULL, gpu = NULL;
    if (clGetPlatformIDs(16, p, &np) != CL_SUCCESS)
        return NULL;
    for (cl_uint i = 0; i < np && !gpu; i++) {
        cl_device_id d[16];
        cl_uint nd = 0;
        if (clGetDeviceIDs(p[i], CL_DEVICE_TYPE_ALL, 16, d, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint j = 0; j < nd && !gpu; j++) {
            cl_device_type t;
            clGetDeviceInfo(d[j], CL_DEVICE_TYPE, sizeof t, &t, NULL);
            if (!first) first = d[j];
            if (t & CL_DEVICE_TYPE_GPU) gpu = d[j];
        }
    }
    cl_device_id d = gpu ? gpu : first;
    if (d)
        clGetDeviceInfo(d, CL_DEVICE_NAME, n, name, NULL);
    return d;
}

/* Best time of `reps` blocking copies of `bytes` between pinned memory and
 * the device, in the given direction. */
static double copy_time(cl_context ctx, cl_command_queue q, size_t bytes, int up, int pinned, int reps)
{
    cl_int err;
    cl_mem dev = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    cl_mem host = NULL;
    void *p;
    if (pinned) {
        host = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
        p = clEnqueueMapBuffer(q, host, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, NULL, &err);
    } else {
        p = malloc(bytes);
    }
    memset(p, 1, bytes);
    double best = 1e30;
    for (int r = 0; r < reps + 1; r++) {
        double t = now();
        if (up) clEnqueueWriteBuffer(q, dev, CL_TRUE, 0, bytes, p, 0, NULL, NULL);
        else clEnqueueReadBuffer(q, dev, CL_TRUE, 0, bytes, p, 0, NULL, NULL);
        t = now() - t;
        if (r > 0 && t < best) best = t;
    }
    if (pinned) {
        clEnqueueUnmapMemObject(q, host, p, 0, NULL, NULL);
        clFinish(q);
        clReleaseMemObject(host);
    } else {
        free(p);
    }
    clReleaseMemObject(dev);
    return best;
}

typedef struct {
    double *dst;
    const double *src;
    size_t len;
    double beta;  /* dst = src + beta * dst; a copy when 0, as the drop-ins do */
    int stream;   /* the copy with streaming stores */
    size_t ahead; /* their prefetch distance, as the library's */
} copy_part;

static void *copy_worker(void *arg)
{
    copy_part *p = arg;
    if (p->beta != 0)
        g3h_add_scaled(p->dst, p->src, p->len * sizeof(double), 1, 0, p->beta, 0, p->stream ? p->ahead : 0);
    else if (p->stream)
        g3h_stream_copy(p->dst, p->src, p->len * sizeof(double), p->ahead);
    else
        memcpy(p->dst, p->src, p->len * sizeof(double));
    return NULL;
}

/* Best time of `reps` copies of n2 doubles on `threads` threads between
 * user memory and a pinned buffer: into it (`in`), or out of it with
 * user = pinned + beta * user. */
static double host_copy_time(cl_context ctx, cl_command_queue q, double *user, size_t n2, int in, double beta,
                             int stream, int threads, int reps)
{
    cl_int err;
    size_t bytes = n2 * sizeof(double);
    cl_mem host = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
    double *pin = clEnqueueMapBuffer(q, host, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return NAN;
    memset(pin, 0, bytes);
    pthread_t th[16];
    copy_part part[16];
    double best = 1e30;
    const size_t ahead = G3H_PREFETCH_AHEAD;
    for (int r = 0; r < reps + 1; r++) {
        double t = now();
        for (int i = 0; i < threads; i++) {
            size_t lo = n2 * i / threads, hi = n2 * (i + 1) / threads;
            part[i] = (copy_part){ in ? pin + lo : user + lo, in ? user + lo : pin + lo, hi - lo, in ? 0 : beta,
                                   stream, ahead };
            pthread_create(&th[i], NULL, copy_worker, &part[i]);
        }
        for (int i = 0; i < threads; i++)
            pthread_join(th[i], NULL);
        t = now() - t;
        if (r > 0 && t < best) best = t;
    }
    clEnqueueUnmapMemObject(q, host, pin, 0, NULL, NULL);
    clFinish(q);
    clReleaseMemObject(host);
    return best;
}

static double compute_time(cl_context ctx, cl_command_queue q, int n, double beta, int reps)
{
    size_t bytes = (size_t)n * n * sizeof(double);
    cl_int err;
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    cl_mem c = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    double *h = malloc(bytes);
    for (size_t i = 0; i < (size_t)n * n; i++) h[i] = 1.0 / (double)(1 + i % 17);
    clEnqueueWriteBuffer(q, a, CL_TRUE, 0, bytes, h, 0, NULL, NULL);
    clEnqueueWriteBuffer(q, b, CL_TRUE, 0, bytes, h, 0, NULL, NULL);
    clEnqueueWriteBuffer(q, c, CL_TRUE, 0, bytes, h, 0, NULL, NULL);
    double best = 1e30;
    for (int r = 0; r < reps + 1; r++) {
        double t = now();
        gpublas3Status st = gpublas3Dgemm(gpublas3ColumnMajor, gpublas3NoTrans, gpublas3NoTrans, n, n, n, 1.0,
                                          a, 0, n, b, 0, n, beta, c, 0, n, 1, &q, 0, NULL, NULL);
        clFinish(q);
        t = now() - t;
        if (st != gpublas3Success) {
            printf("compute: gpublas3Dgemm failed: %s\n", gpublas3StatusString(st));
            best = NAN;
            break;
        }
        if (r > 0 && t < best) best = t;
    }
    free(h);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(c);
    return best;
}

/* Best time of `reps` calls after one warm-up; 0 if f is NULL. */
static double dgemm_time(dgemm_fn f, int n, const double *a, const double *b, double *c, double beta, int reps)
{
    double one = 1, best = 1e30;
    for (int r = 0; r < reps + 1; r++) {
        double t = now();
        f("N", "N", &n, &n, &n, &one, a, &n, b, &n, &beta, c, &n);
        t = now() - t;
        if (r > 0 && t < best) best = t;
    }
    return best;
}

/* C = A*B by f, checked on a few entries against a plain dot product:
 * the worst error in units of sqrt(n)*1e-14. */
static double check(dgemm_fn f, int n, const double *a, const double *b, double *c)
{
    double zero = 0, one = 1, worst = 0;
    f("N", "N", &n, &n, &n, &one, a, &n, b, &n, &zero, c, &n);
    for (int s = 0; s < 16; s++) {
        size_t i = (size_t)rand() % n, j = (size_t)rand() % n;
        double ref = 0;
        for (size_t l = 0; l < (size_t)n; l++) ref += a[i + l * n] * b[l + j * n];
        worst = fmax(worst, fabs(c[i + j * n] - ref) / (sqrt((double)n) * 1e-14));
    }
    return isnan(worst) ? INFINITY : worst;
}

static dgemm_fn load_nvblas(void)
{
    if (!getenv("NVBLAS_CONFIG_FILE")) {
        const char *path = "/tmp/gpublas3-nvblas.conf";
        FILE *f = fopen(path, "w");
        if (!f) return NULL;
        fprintf(f, "NVBLAS_CPU_BLAS_LIB libopenblas.so.0\nNVBLAS_GPU_LIST ALL\n");
        fclose(f);
        setenv("NVBLAS_CONFIG_FILE", path, 1);
    }
    const char *names[] = { "libnvblas.so", "libnvblas.so.12", "libnvblas.so.11" };
    for (int i = 0; i < 3; i++) {
        void *lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
        if (lib) {
            void *f = dlsym(lib, "dgemm_");
            if (f && f != (void *)dgemm_)
                return (dgemm_fn)f;
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 8192, reps = argc > 2 ? atoi(argv[2]) : 3;
    double beta = argc > 3 ? atof(argv[3]) : 1.0;
    int peers = !(argc > 4 && strcmp(argv[4], "-") == 0);
    if (n <= 0 || reps <= 0) {
        fprintf(stderr, "usage: %s N [REPS [BETA]]\n", argv[0]);
        return 2;
    }
    char name[256] = "";
    cl_device_id dev = pick_device(name, sizeof name);
    if (!dev) {
        printf("no OpenCL device\n");
        return 1;
    }
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    gpublas3Setup();

    size_t nn = (size_t)n * n, bytes = nn * sizeof(double);
    double *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
    if (!a || !b || !c) {
        printf("out of host memory for n=%d\n", n);
        return 1;
    }
    srand(1);
    for (size_t i = 0; i < nn; i++) {
        a[i] = 2.0 * rand() / RAND_MAX - 1;
        b[i] = 2.0 * rand() / RAND_MAX - 1;
        c[i] = 2.0 * rand() / RAND_MAX - 1;
    }

    double t_up = copy_time(ctx, q, 3 * bytes, 1, 1, reps), t_down = copy_time(ctx, q, bytes, 0, 1, reps);
    double t_up_pageable = copy_time(ctx, q, 3 * bytes, 1, 0, reps);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = cpus < 1 ? 1 : cpus > 16 ? 16 : (int)cpus;
    /* on c's copy: dgemm_ runs on c afterwards */
    double t_pack = host_copy_time(ctx, q, c, nn, 1, 0, 0, threads, reps);
    double t_back = host_copy_time(ctx, q, c, nn, 0, beta, 0, threads, reps);
    double t_pack_nt = host_copy_time(ctx, q, c, nn, 1, 0, 1, threads, reps);
    double t_back_nt = host_copy_time(ctx, q, c, nn, 0, beta, 1, threads, reps);
    double t_compute = compute_time(ctx, q, n, beta, reps);
    double t_ours = dgemm_time(dgemm_, n, a, b, c, beta, reps);

    double worst = check(dgemm_, n, a, b, c);
    dgemm_fn nv = peers ? load_nvblas() : NULL;
    double t_nv = nv ? dgemm_time(nv, n, a, b, c, beta, reps) : 0;
    double nv_worst = nv ? check(nv, n, a, b, c) : 0;

    double flops = 2.0 * n * (double)n * n, bound = fmax(fmax(t_up, t_down), t_compute);
    printf("device           %s\n", name);
    printf("n                %d (beta %g), best of %d\n", n, beta, reps);
    printf("h2d pinned       %.4f s for 3 n^2 doubles (%.1f GB/s); pageable %.4f s (%.1f GB/s)\n", t_up,
           3 * bytes / t_up / 1e9, t_up_pageable, 3 * bytes / t_up_pageable / 1e9);
    printf("d2h pinned       %.4f s for n^2 doubles (%.1f GB/s)\n", t_down, bytes / t_down / 1e9);
    printf("compute          %.4f s (%.1f GFLOP/s), gpublas3Dgemm on device buffers\n", t_compute,
           flops / t_compute / 1e9);
    printf("bound            %.4f s = max(h2d, d2h, compute)\n", bound);
    /* t_up moved 3 n^2 doubles */
    double floor_up = t_up * 2 / 3, floor = floor_up + t_down;
    printf("floor            %.4f s = pinned A, B up %.4f s + C down %.4f s (overlapped: %.4f s)\n", floor, floor_up,
           t_down, fmax(floor_up, t_down));
    printf("host copy        %.4f s = A, B into pinned memory %.4f s (%.1f GB/s) + C back %.4f s (%.1f GB/s), "
           "%d threads\n", 2 * t_pack + t_back, 2 * t_pack, bytes / t_pack / 1e9, t_back, bytes / t_back / 1e9,
           threads);
    printf("host copy stream %.4f s = A, B into pinned memory %.4f s (%.1f GB/s) + C back %.4f s (%.1f GB/s), "
           "streaming stores, prefetch %zu bytes ahead\n", 2 * t_pack_nt + t_back_nt, 2 * t_pack_nt,
           bytes / t_pack_nt / 1e9, t_back_nt, bytes / t_back_nt / 1e9, (size_t)G3H_PREFETCH_AHEAD);
    printf("dgemm_           %.4f s (%.1f GFLOP/s), ratio to bound %.2f, to floor %.2f (target <= 1.2)\n", t_ours,
           flops / t_ours / 1e9, t_ours / bound, t_ours / floor);
    if (nv)
        printf("nvblas config    %s\n", getenv("NVBLAS_CONFIG_FILE"));
    if (nv && nv_worst < 10)
        printf("nvblas dgemm_    %.4f s (%.1f GFLOP/s), ours/nvblas %.2f (target <= 1)\n", t_nv, flops / t_nv / 1e9,
               t_ours / t_nv);
    else if (nv)
        printf("nvblas dgemm_    loaded, but its result is wrong (no GPU for it?): not timed\n");
    else if (peers)
        printf("nvblas dgemm_    not loaded (libnvblas.so not found)\n");
    printf("check            worst sampled error %.2g x sqrt(n)*1e-14 (want < 10)\n", worst);
    gpublas3Teardown();
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return worst < 10 ? 0 : 1;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* The tuner's measurements, run in a child process per candidate (the
 * library reads GPUBLAS3_PARAMS once per process and device, and a crashing
 * or hanging candidate must not take the search with it).  Every result is
 * checked before it counts: C is poisoned with NaN, the call runs with
 * beta = 0, C*x is compared with the host's A*(B*x) (Freivalds) within
 * 2*K*eps*|A|*|B|*|x|, and three whole rows and columns of C element by
 * element (tune.h says why both). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <gpublas3.h>
#include "tune.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* device time of a finished command (the copy kernels are timed this way,
 * without host round trips; GEMM calls by the wall clock, as users see them) */
static double event_seconds(cl_event ev)
{
    cl_ulong a = 0, b = 0;
    clWaitForEvents(1, &ev);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof a, &a, NULL);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof b, &b, NULL);
    clReleaseEvent(ev);
    return b > a ? 1e-9 * (double)(b - a) : 1e-9;
}

static void info(cl_device_id d, cl_device_info what, char *buf, size_t n)
{
    buf[0] = 0;
    clGetDeviceInfo(d, what, n - 1, buf, NULL);
    buf[n - 1] = 0;
}

int tune_open_device(const char *sel, cl_device_id *out, char *err, size_t n)
{
    cl_platform_id ps[16];
    cl_uint np = 0;
    int found = 0;
    if (clGetPlatformIDs(16, ps, &np) != CL_SUCCESS || np == 0) {
        snprintf(err, n, "no OpenCL platform");
        return -1;
    }
    /* pass 0: the selector (gpu, cpu or a name substring); default: a GPU, then anything */
    for (int pass = 0; pass < 2 && !found; pass++)
        for (cl_uint p = 0; p < np && !found; p++) {
            cl_device_id ds[16];
            cl_uint nd = 0;
            if (clGetDeviceIDs(ps[p], CL_DEVICE_TYPE_ALL, 16, ds, &nd) != CL_SUCCESS) continue;
            for (cl_uint i = 0; i < nd && !found; i++) {
                char name[256];
                cl_device_type t = 0;
                info(ds[i], CL_DEVICE_NAME, name, sizeof name);
                clGetDeviceInfo(ds[i], CL_DEVICE_TYPE, sizeof t, &t, NULL);
                int gpu = (t & CL_DEVICE_TYPE_GPU) != 0;
                if (sel && *sel)
                    found = pass == 0 && (strcasecmp(sel, "gpu") == 0 ? gpu
                                          : strcasecmp(sel, "cpu") == 0 ? (t & CL_DEVICE_TYPE_CPU) != 0
                                          : strstr(name, sel) != NULL);
                else
                    found = pass == 0 ? gpu : 1;
                if (found) *out = ds[i];
            }
        }
    if (!found) snprintf(err, n, "no OpenCL device matches \"%s\"", sel ? sel : "");
    return found ? 0 : -1;
}

int tune_query_device(const char *sel, tune_device *o, char *err, size_t n)
{
    cl_device_id d;
    if (tune_open_device(sel, &d, err, n)) return -1;
    memset(o, 0, sizeof *o);
    info(d, CL_DEVICE_NAME, o->name, sizeof o->name);
    info(d, CL_DEVICE_VENDOR, o->vendor, sizeof o->vendor);
    info(d, CL_DRIVER_VERSION, o->driver, sizeof o->driver);
    info(d, CL_DEVICE_VERSION, o->version, sizeof o->version);
    cl_platform_id p;
    clGetDeviceInfo(d, CL_DEVICE_PLATFORM, sizeof p, &p, NULL);
    clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof o->platform - 1, o->platform, NULL);
    cl_device_type t = 0;
    cl_ulong lm = 0;
    cl_device_fp_config fp64 = 0;
    clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof t, &t, NULL);
    clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof o->max_wg, &o->max_wg, NULL);
    clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL);
    clGetDeviceInfo(d, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL);
    o->gpu = (t & CL_DEVICE_TYPE_GPU) != 0;
    o->local_mem = (size_t)lm;
    o->fp64 = fp64 != 0;
    o->nvidia = strstr(o->vendor, "NVIDIA") != NULL;

    /* the copy ceiling: a device-to-device copy of 256 MiB (64 MiB on a CPU) */
    size_t bytes = (size_t)(o->gpu ? 256 : 64) << 20;
    cl_int e;
    cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
    cl_command_queue q = clCreateCommandQueue(ctx, d, CL_QUEUE_PROFILING_ENABLE, &e);
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &e);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &e);
    int zero = 0;
    clEnqueueFillBuffer(q, a, &zero, sizeof zero, 0, bytes, 0, NULL, NULL);
    clEnqueueFillBuffer(q, b, &zero, sizeof zero, 0, bytes, 0, NULL, NULL);
    clFinish(q);
    double best = 1e30;
    for (int r = 0; r < 6; r++) {
        cl_event ev;
        clEnqueueCopyBuffer(q, a, b, 0, 0, bytes, 0, NULL, &ev);
        double dt = event_seconds(ev);
        if (r && dt < best) best = dt;
    }
    o->copy_gbs = 2.0 * (double)bytes / best * 1e-9;
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return 0;
}

static unsigned long long rng(unsigned long long *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* y = X * v (or |X| * v), X rows x cols column-major, float or double */
static void matvec(int dbl, const void *X, size_t rows, size_t cols, const double *v, double *y, int absval)
{
    for (size_t i = 0; i < rows; i++) y[i] = 0;
    for (size_t k = 0; k < cols; k++) {
        double vk = v[k];
        if (dbl) {
            const double *col = (const double *)X + k * rows;
            for (size_t i = 0; i < rows; i++) y[i] += (absval ? fabs(col[i]) : col[i]) * vk;
        } else {
            const float *col = (const float *)X + k * rows;
            for (size_t i = 0; i < rows; i++) y[i] += (absval ? fabs((double)col[i]) : (double)col[i]) * vk;
        }
    }
}

/* zeroed (calloc): GCC's -Wmaybe-uninitialized took malloc's memory,
 * filled by a loop, for unset where matvec reads it */
static double *doubles(size_t n)
{
    double *p = calloc(n ? n : 1, sizeof(double));
    if (!p) {
        fprintf(stderr, "gpublas3-tune: out of host memory\n");
        exit(1);
    }
    return p;
}

#define ELEM(X, i) (p->dbl ? ((const double *)(X))[i] : (double)((const float *)(X))[i])

void tune_problem_make(tune_problem *p, int dbl, size_t M, size_t N, size_t K, unsigned long long seed)
{
    size_t es = dbl ? 8 : 4;
    memset(p, 0, sizeof *p);
    p->dbl = dbl;
    p->M = M;
    p->N = N;
    p->K = K;
    p->A = malloc(M * K * es);
    p->B = malloc(K * N * es);
    if (!p->A || !p->B) {
        fprintf(stderr, "gpublas3-tune: out of host memory\n");
        exit(1);
    }
    unsigned long long s = seed * 2654435761ULL + 88172645463325252ULL;
    for (int which = 0; which < 2; which++) {
        void *X = which ? p->B : p->A;
        size_t count = which ? K * N : M * K;
        for (size_t i = 0; i < count; i++) {
            double v = (double)(rng(&s) >> 11) / 9007199254740992.0 * 2 - 1;
            if (dbl) ((double *)X)[i] = v;
            else ((float *)X)[i] = (float)v;
        }
    }
    p->x = doubles(N);
    p->ref = doubles(M);
    p->bound = doubles(M);
    double *t = doubles(K), *ax = doubles(N);
    for (size_t i = 0; i < N; i++) p->x[i] = (double)(rng(&s) >> 11) / 9007199254740992.0 * 2 - 1;
    matvec(dbl, p->B, K, N, p->x, t, 0);
    matvec(dbl, p->A, M, K, t, p->ref, 0);
    for (size_t i = 0; i < N; i++) ax[i] = fabs(p->x[i]);
    matvec(dbl, p->B, K, N, ax, t, 1);
    matvec(dbl, p->A, M, K, t, p->bound, 1);
    p->row_at[0] = 0;
    p->row_at[1] = M - 1;
    p->row_at[2] = rng(&s) % M;
    p->col_at[0] = 0;
    p->col_at[1] = N - 1;
    p->col_at[2] = rng(&s) % N;
    double *arow = doubles(K), *bcol = doubles(K);
    for (int l = 0; l < TUNE_LINES; l++) {
        size_t i = p->row_at[l], j0 = p->col_at[l];
        p->row[l] = doubles(N);
        p->rowabs[l] = doubles(N);
        p->col[l] = doubles(M);
        p->colabs[l] = doubles(M);
        for (size_t k = 0; k < K; k++) {
            arow[k] = ELEM(p->A, i + k * M);
            bcol[k] = ELEM(p->B, k + j0 * K);
        }
        for (size_t j = 0; j < N; j++) {
            double sr = 0, ar = 0;
            for (size_t k = 0; k < K; k++) {
                double b = ELEM(p->B, k + j * K);
                sr += arow[k] * b;
                ar += fabs(arow[k] * b);
            }
            p->row[l][j] = sr;
            p->rowabs[l][j] = ar;
        }
        matvec(dbl, p->A, M, K, bcol, p->col[l], 0);
        for (size_t k = 0; k < K; k++) bcol[k] = fabs(bcol[k]);
        matvec(dbl, p->A, M, K, bcol, p->colabs[l], 1);
    }
    free(arow);
    free(bcol);
    free(t);
    free(ax);
}

/* Residual of C (host copy) over its tolerance, the worst of all checks:
 * < 1 passes; NaN anywhere fails. */
static double check(const tune_problem *p, const void *C)
{
    size_t M = p->M, N = p->N;
    double eps = p->dbl ? 1.1e-16 : 6e-8, worst = 0;
    double *y = doubles(M);
    matvec(p->dbl, C, M, N, p->x, y, 0);
    for (size_t i = 0; i < M; i++) {
        double r = fabs(y[i] - p->ref[i]) / (2.0 * (double)p->K * eps * p->bound[i] + 1e-300);
        if (!(r <= worst)) worst = r; /* NaN sticks */
    }
    free(y);
    /* exact elements: a practical bound, 16 sqrt(K) eps sum|a||b| (the
     * worst case, K eps, would hide a missing k-tile at large K) */
    double f = 16.0 * sqrt((double)p->K) * eps;
    for (int l = 0; l < TUNE_LINES; l++) {
        for (size_t j = 0; j < N; j++) {
            double r = fabs(ELEM(C, p->row_at[l] + j * M) - p->row[l][j]) / (f * p->rowabs[l][j] + 1e-300);
            if (!(r <= worst)) worst = r;
        }
        for (size_t i = 0; i < M; i++) {
            double r = fabs(ELEM(C, i + p->col_at[l] * M) - p->col[l][i]) / (f * p->colabs[l][i] + 1e-300);
            if (!(r <= worst)) worst = r;
        }
    }
    return worst;
}
#undef ELEM

typedef struct {
    cl_context ctx;
    cl_command_queue q;
    cl_device_id dev;
} session;

static int open_session(const char *sel, session *s, char *err, size_t n)
{
    cl_int e;
    if (tune_open_device(sel, &s->dev, err, n)) return -1;
    s->ctx = clCreateContext(NULL, 1, &s->dev, NULL, NULL, &e);
    if (e == CL_SUCCESS) s->q = clCreateCommandQueue(s->ctx, s->dev, CL_QUEUE_PROFILING_ENABLE, &e);
    if (e != CL_SUCCESS) snprintf(err, n, "context/queue: error %d", e);
    return e == CL_SUCCESS ? 0 : -1;
}

/* One problem: upload, checked call, timed calls.  Returns GFLOP/s, or -1
 * with r->why set. */
static double run_gemm(session *s, const tune_problem *p, int reps, double *max_err, char *why, size_t wn)
{
    size_t M = p->M, N = p->N, K = p->K, es = p->dbl ? 8 : 4, bytes = M * N * es;
    cl_int e1, e2, e3;
    cl_mem A = clCreateBuffer(s->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, M * K * es, p->A, &e1);
    cl_mem B = clCreateBuffer(s->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, K * N * es, p->B, &e2);
    cl_mem C = clCreateBuffer(s->ctx, CL_MEM_READ_WRITE, bytes, NULL, &e3);
    void *host = malloc(bytes);
    double result = -1;
    if (e1 != CL_SUCCESS || e2 != CL_SUCCESS || e3 != CL_SUCCESS || !host) {
        snprintf(why, wn, "buffers of %zu bytes: error %d %d %d", bytes, e1, e2, e3);
        goto done;
    }
    if (p->dbl) { double nan = NAN; clEnqueueFillBuffer(s->q, C, &nan, 8, 0, bytes, 0, NULL, NULL); }
    else { float nan = NAN; clEnqueueFillBuffer(s->q, C, &nan, 4, 0, bytes, 0, NULL, NULL); }
    gpublas3Status st = gpublas3Success;
#define CALL() (p->dbl ? gpublas3Dgemm(gpublas3ColumnMajor, gpublas3NoTrans, gpublas3NoTrans, M, N, K, 1.0, \
                                       A, 0, M, B, 0, K, 0.0, C, 0, M, 1, &s->q, 0, NULL, NULL)        \
                       : gpublas3Sgemm(gpublas3ColumnMajor, gpublas3NoTrans, gpublas3NoTrans, M, N, K, 1.0f, \
                                       A, 0, M, B, 0, K, 0.0f, C, 0, M, 1, &s->q, 0, NULL, NULL))
    st = CALL();
    cl_int fin = clFinish(s->q);
    if (st != gpublas3Success || fin != CL_SUCCESS) {
        snprintf(why, wn, "call failed: %s (finish %d)", gpublas3StatusString(st), fin);
        goto done;
    }
    if (clEnqueueReadBuffer(s->q, C, CL_TRUE, 0, bytes, host, 0, NULL, NULL) != CL_SUCCESS) {
        snprintf(why, wn, "read-back failed");
        goto done;
    }
    double worst = check(p, host);
    *max_err = worst;
    if (!(worst < 1)) {
        snprintf(why, wn, "WRONG result at %zux%zux%zu: residual %.3g of the bound", M, N, K, worst);
        goto done;
    }
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        st = CALL();
        fin = clFinish(s->q);
        double dt = now() - t0;
        if (st != gpublas3Success || fin != CL_SUCCESS) {
            snprintf(why, wn, "timed call failed: %s", gpublas3StatusString(st));
            goto done;
        }
        if (dt < best) best = dt;
    }
#undef CALL
    result = 2.0 * (double)M * N * K / best * 1e-9;
done:
    free(host);
    if (A) clReleaseMemObject(A);
    if (B) clReleaseMemObject(B);
    if (C) clReleaseMemObject(C);
    return result;
}

void tune_eval_gemm(const char *sel, const char *params, const tune_problem *small,
                    const tune_problem *big, int nbig, double prune_gflops, int reps, tune_result *r)
{
    session s;
    memset(r, 0, sizeof *r);
    /* for the candidate's precision only: the other's sets, refusing a
     * list of the wrong precision, would say so */
    char mine[600];
    snprintf(mine, sizeof mine, "%c:%s", small->dbl ? 'd' : 's', params);
    setenv("GPUBLAS3_PARAMS", mine, 1);
    setenv("GPUBLAS3_PLAN", "packed", 1);   /* the rows are the packed path's, whatever the plan prefers */
    if (open_session(sel, &s, r->why, sizeof r->why) || gpublas3Setup() != gpublas3Success) return;
    double err = 0;
    r->gflops_small = run_gemm(&s, small, 2, &err, r->why, sizeof r->why);
    r->max_err = err;
    if (r->gflops_small < 0) return;
    if (r->gflops_small < prune_gflops) {
        r->ok = 2;
        return;
    }
    double logsum = 0;
    for (int i = 0; i < nbig; i++) {
        double g = run_gemm(&s, &big[i], reps, &err, r->why, sizeof r->why);
        if (err > r->max_err) r->max_err = err;
        if (g <= 0) return;
        logsum += log(g);
    }
    r->gflops = exp(logsum / nbig);
    r->ok = 1;
    gpublas3Teardown();
}

/* The copy kernel on its own: pack an n x n matrix as A' (not transposed,
 * blocks of mwg) and as B' (transposed, blocks of nwg), checked. */
void tune_eval_copy(const char *sel, const char *src_path, const g3_params *p, size_t n, int reps,
                    tune_result *r)
{
    session s;
    memset(r, 0, sizeof *r);
    FILE *f = fopen(src_path, "rb");
    if (!f) { snprintf(r->why, sizeof r->why, "cannot read %s", src_path); return; }
    static char src[1 << 16];
    size_t len = fread(src, 1, sizeof src - 1, f);
    fclose(f);
    src[len] = 0;
    if (open_session(sel, &s, r->why, sizeof r->why)) return;
    char opts[512];
    g3_params_copy_defines(p, opts, sizeof opts);
    cl_int e;
    const char *sp = src;
    cl_program prog = clCreateProgramWithSource(s.ctx, 1, &sp, NULL, &e);
    if (e == CL_SUCCESS) e = clBuildProgram(prog, 1, &s.dev, opts, NULL, NULL);
    cl_kernel k = e == CL_SUCCESS ? clCreateKernel(prog, "pack", &e) : NULL;
    if (e != CL_SUCCESS) { snprintf(r->why, sizeof r->why, "pack build: error %d", e); return; }
    int dbl = p->precision == 64;
    size_t es = dbl ? 8 : 4;
    void *host = malloc(n * n * es), *back = malloc(n * n * es);
    for (size_t i = 0; i < n * n; i++) {
        if (dbl) ((double *)host)[i] = (double)i;
        else ((float *)host)[i] = (float)(i % 16777216);
    }
    cl_mem X = clCreateBuffer(s.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * n * es, host, &e);
    double total = 0;
    for (int side = 0; side < 2 && !r->why[0]; side++) {
        int xb = side ? p->nwg : p->mwg;
        size_t xpad = (n + xb - 1) / xb * xb, kpad = (n + p->kwg - 1) / p->kwg * p->kwg;
        cl_mem P = clCreateBuffer(s.ctx, CL_MEM_READ_WRITE, xpad * kpad * es, NULL, &e);
        cl_long off = 0, ld = (cl_long)n, z = 0;
        cl_int tr = side, shape = 0, unit = 0, xl = (cl_int)n, kl = (cl_int)n, xbi = xb;
        cl_int xp = (cl_int)xpad, kp = (cl_int)kpad, noskip = 0;
        const void *args[] = { &X, &off, &ld, &tr, &shape, &unit, &z, &z, &xl, &kl, &P, &xbi, &xp, &kp,
                               &noskip, &noskip, &kp, &noskip };
        size_t sizes[] = { sizeof X, 8, 8, 4, 4, 4, 8, 8, 4, 4, sizeof P, 4, 4, 4, 4, 4, 4, 4 };
        for (int a = 0; a < 18; a++) clSetKernelArg(k, a, sizes[a], args[a]);
        size_t global[3], local[3];
        g3_params_copy_grid(p, xpad, kpad, 1, global, local);
        double best = 1e30;
        for (int rep = 0; rep <= reps; rep++) {
            cl_event ev;
            e = clEnqueueNDRangeKernel(s.q, k, 2, NULL, global, local, 0, NULL, &ev);
            if (e != CL_SUCCESS) { snprintf(r->why, sizeof r->why, "pack launch: error %d", e); break; }
            double dt = event_seconds(ev);
            if (rep && dt < best) best = dt;
        }
        /* check: element (x, k) of Y = op(X) at its block position */
        if (!r->why[0]) {
            void *pk = malloc(xpad * kpad * es);
            clEnqueueReadBuffer(s.q, P, CL_TRUE, 0, xpad * kpad * es, pk, 0, NULL, NULL);
            for (size_t kk = 0; kk < kpad && !r->why[0]; kk++)
                for (size_t x = 0; x < xpad; x++) {
                    size_t at = (x / xb) * kpad * xb + kk * xb + x % xb;
                    size_t src_i = side ? kk + x * n : x + kk * n;
                    double want = x < n && kk < n ? (dbl ? ((double *)host)[src_i] : ((float *)host)[src_i]) : 0;
                    double got = dbl ? ((double *)pk)[at] : ((float *)pk)[at];
                    if (got != want) {
                        snprintf(r->why, sizeof r->why, "pack WRONG at (%zu,%zu) side %d", x, kk, side);
                        break;
                    }
                }
            free(pk);
        }
        total += best;
        clReleaseMemObject(P);
    }
    if (!r->why[0]) {
        r->gflops = 2.0 * 2.0 * (double)n * n * es / total * 1e-9;
        r->ok = 1;
    }
    free(host);
    free(back);
}

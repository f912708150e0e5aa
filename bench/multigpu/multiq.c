/* SPDX-License-Identifier: BSD-3-Clause */
/* One SGEMM or DGEMM call (C <- A*B, n x n, column-major) on one queue, on
 * two queues of one device, and on two queues on two devices of one
 * context: what a call split over queues or devices gains.  Devices: the first
 * platform with two GPUs, else (to try the program without GPUs, as on the
 * CI machine) two sub-devices of the first device.  Every result is
 * checked before it is timed: a residual |C x - A (B x)| over random x,
 * against n * eps * |A| |B| |x|, and the split results against the
 * one-queue result.  Prints one RESULT line per mode:
 *
 *   multiq s|d N [REPS]    RESULT prec=d n=16384 mode=2dev first_s=... median_s=... tflops=... check=ok
 *   multiq --list          P:D, type and name of every OpenCL device
 *
 * The first call of a mode is timed apart (it moves A and B to the second
 * device); the median is over REPS later calls, each timed from enqueue to
 * the end of every queue's event.  Last, what the two-device split pays
 * besides its half of the work: one copy, on the first device's queue, of
 * half of C's bytes from a buffer the second device has just written into
 * C (routines/plan/split.c's copy of the second block), as
 *
 *   RESULT prec=d n=16384 mode=xcopy bytes=... median_s=... gbps=... */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <gpublas3.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void die(const char *what, int code)
{
    fprintf(stderr, "multiq: %s failed (%d)\n", what, code);
    exit(1);
}

static int list(void)
{
    cl_platform_id p[16];
    cl_uint np = 0;
    clGetPlatformIDs(16, p, &np);
    for (cl_uint i = 0; i < np && i < 16; i++) {
        cl_device_id d[16];
        cl_uint nd = 0;
        clGetDeviceIDs(p[i], CL_DEVICE_TYPE_ALL, 16, d, &nd);
        for (cl_uint j = 0; j < nd && j < 16; j++) {
            char name[256] = "";
            cl_device_type t = 0;
            clGetDeviceInfo(d[j], CL_DEVICE_NAME, sizeof name, name, NULL);
            clGetDeviceInfo(d[j], CL_DEVICE_TYPE, sizeof t, &t, NULL);
            printf("%u:%u %s %s\n", i, j, t & CL_DEVICE_TYPE_GPU ? "gpu" : "other", name);
        }
    }
    return 0;
}

/* Two devices of one platform (see the file's comment). */
static void two_devices(cl_device_id dev[2])
{
    cl_platform_id p[16];
    cl_uint np = 0;
    clGetPlatformIDs(16, p, &np);
    for (cl_uint i = 0; i < np && i < 16; i++) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(p[i], CL_DEVICE_TYPE_GPU, 2, dev, &nd) == CL_SUCCESS && nd >= 2)
            return;
    }
    cl_device_id root;
    if (clGetDeviceIDs(p[0], CL_DEVICE_TYPE_ALL, 1, &root, NULL) != CL_SUCCESS)
        die("finding a device", 0);
    cl_device_partition_property props[] = { CL_DEVICE_PARTITION_EQUALLY, 1, 0 };
    cl_uint ns = 0;
    cl_int err = clCreateSubDevices(root, props, 2, dev, &ns);
    if (err != CL_SUCCESS || ns < 2)
        die("two GPUs or two sub-devices", err);
    fprintf(stderr, "multiq: no platform with two GPUs: two sub-devices of the first device\n");
}

static int dbl;
static size_t n, es;

static void put(void *p, size_t i, double v)
{
    if (dbl) ((double *)p)[i] = v;
    else ((float *)p)[i] = (float)v;
}
static double get(const void *p, size_t i) { return dbl ? ((const double *)p)[i] : ((const float *)p)[i]; }

static gpublas3Status gemm(cl_mem A, cl_mem B, cl_mem C, cl_uint nq, cl_command_queue *q, cl_event *ev)
{
    if (dbl)
        return gpublas3Dgemm(gpublas3ColumnMajor, gpublas3NoTrans, gpublas3NoTrans, n, n, n, 1.0, A, 0, n, B, 0, n,
                             0.0, C, 0, n, nq, q, 0, NULL, ev);
    return gpublas3Sgemm(gpublas3ColumnMajor, gpublas3NoTrans, gpublas3NoTrans, n, n, n, 1.0f, A, 0, n, B, 0, n,
                         0.0f, C, 0, n, nq, q, 0, NULL, ev);
}

/* One timed call on the queues: enqueue to the end of every share. */
static double timed(cl_mem A, cl_mem B, cl_mem C, cl_uint nq, cl_command_queue *q)
{
    cl_event ev[2];
    double t0 = now();
    gpublas3Status st = gemm(A, B, C, nq, q, ev);
    if (st != gpublas3Success)
        die(gpublas3StatusString(st), st);
    clWaitForEvents(nq, ev);
    double t = now() - t0;
    for (cl_uint i = 0; i < nq; i++)
        clReleaseEvent(ev[i]);
    return t;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* |C x - A (B x)|_inf / (n eps |A| |B| |x|) with |.| the max-abs norms and
 * x in [-1, 1]: below 1 for a right product. */
static double residual(const void *a, const void *b, const void *c)
{
    double *x = malloc(n * sizeof *x), *y = calloc(n, sizeof *y), *z = calloc(n, sizeof *z), *w = calloc(n, sizeof *w);
    double amax = 0, bmax = 0;
    for (size_t i = 0; i < n; i++) x[i] = cos(1.0 + i);
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < n; i++) {
            double bv = get(b, i + j * n), av = get(a, i + j * n);
            y[i] += bv * x[j];            /* y = B x */
            w[i] += get(c, i + j * n) * x[j]; /* w = C x */
            if (fabs(av) > amax) amax = fabs(av);
            if (fabs(bv) > bmax) bmax = fabs(bv);
        }
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < n; i++) z[i] += get(a, i + j * n) * y[j]; /* z = A y */
    double r = 0;
    for (size_t i = 0; i < n; i++) r = fmax(r, fabs(w[i] - z[i]));
    free(x); free(y); free(z); free(w);
    double eps = dbl ? 2.2e-16 : 1.2e-7;
    return r / ((double)n * n * eps * amax * bmax);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--list"))
        return list();
    if (argc < 3) {
        fprintf(stderr, "usage: multiq s|d N [REPS] | multiq --list\n");
        return 2;
    }
    dbl = argv[1][0] == 'd';
    n = strtoul(argv[2], NULL, 10);
    int reps = argc > 3 ? atoi(argv[3]) : 5;
    es = dbl ? 8 : 4;
    cl_device_id dev[2];
    two_devices(dev);
    char name[2][256];
    for (int i = 0; i < 2; i++) clGetDeviceInfo(dev[i], CL_DEVICE_NAME, sizeof name[i], name[i], NULL);
    printf("devices: %s | %s\n", name[0], name[1]);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 2, dev, NULL, NULL, &err);
    if (err) die("clCreateContext", err);
    cl_command_queue q0 = clCreateCommandQueue(ctx, dev[0], 0, &err), q0b = clCreateCommandQueue(ctx, dev[0], 0, &err);
    cl_command_queue q1 = clCreateCommandQueue(ctx, dev[1], 0, &err);
    if (err) die("clCreateCommandQueue", err);
    if (gpublas3Setup() != gpublas3Success) die("gpublas3Setup", 0);

    size_t bytes = n * n * es;
    void *a = malloc(bytes), *b = malloc(bytes), *ref = malloc(bytes), *got = malloc(bytes);
    if (!a || !b || !ref || !got) die("host memory", 0);
    uint64_t s = 12345;
    for (size_t i = 0; i < n * n; i++) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        put(a, i, (double)(s >> 11) / 9007199254740992.0 * 2 - 1);
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        put(b, i, (double)(s >> 11) / 9007199254740992.0 * 2 - 1);
    }
    cl_mem A = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, a, &err);
    cl_mem B = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, b, &err);
    cl_mem C = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err) die("clCreateBuffer", err);

    struct { const char *name; cl_uint nq; cl_command_queue q[2]; } modes[] = {
        { "1q", 1, { q0 } }, { "2q1dev", 2, { q0, q0b } }, { "2dev", 2, { q0, q1 } } };
    double t1 = 0;
    int failed = 0;
    for (int m = 0; m < 3; m++) {
        double first = timed(A, B, C, modes[m].nq, modes[m].q);
        clEnqueueReadBuffer(q0, C, CL_TRUE, 0, bytes, m ? got : ref, 0, NULL, NULL);
        const char *check = "ok";
        double r = 0, diff = 0;
        if (m == 0) {
            r = residual(a, b, ref);
            if (!(r < 1)) check = "BAD-residual";
        } else {
            /* the same kernels on the same data: within rounding of the one-queue result */
            double cmax = 0;
            for (size_t i = 0; i < n * n; i++) {
                diff = fmax(diff, fabs(get(got, i) - get(ref, i)));
                cmax = fmax(cmax, fabs(get(ref, i)));
            }
            diff /= cmax * (dbl ? 2.2e-16 : 1.2e-7) * n;
            if (!(diff < 1)) check = "BAD-vs-1q";
        }
        failed |= strcmp(check, "ok") != 0;
        double *t = malloc(reps * sizeof *t);
        for (int i = 0; i < reps; i++) t[i] = timed(A, B, C, modes[m].nq, modes[m].q);
        qsort(t, reps, sizeof *t, cmp);
        double med = reps ? t[reps / 2] : first;
        if (m == 0) t1 = med;
        printf("RESULT prec=%c n=%zu mode=%s first_s=%.4f median_s=%.4f tflops=%.2f vs_1q=%.2f check=%s%s%.2g\n",
               dbl ? 'd' : 's', n, modes[m].name, first, med, 2.0 * n * n * n / med / 1e12, t1 / med, check,
               m ? " diff/(n*eps*|C|)=" : " residual=", m ? diff : r);
        fflush(stdout);
        free(t);
    }
    /* the cross-device copy: S written on device 1 (a fill), then copied into C on queue 0 */
    size_t half = bytes / 2;
    cl_mem S = clCreateBuffer(ctx, CL_MEM_READ_WRITE, half, NULL, &err);
    if (err) die("clCreateBuffer", err);
    double *t = malloc((reps + 1) * sizeof *t);
    for (int i = 0; i <= reps; i++) {
        double zero = 0;
        cl_event filled, copied;
        clEnqueueFillBuffer(q1, S, &zero, es, 0, half, 0, NULL, &filled);
        clWaitForEvents(1, &filled);
        double t0 = now();
        clEnqueueCopyBuffer(q0, S, C, 0, half, half, 1, &filled, &copied);
        clWaitForEvents(1, &copied);
        t[i] = now() - t0;
        clReleaseEvent(filled);
        clReleaseEvent(copied);
    }
    qsort(t + 1, reps, sizeof *t, cmp); /* the first apart: it may allocate */
    double med = reps ? t[1 + reps / 2] : t[0];
    printf("RESULT prec=%c n=%zu mode=xcopy bytes=%zu first_s=%.4f median_s=%.4f gbps=%.1f\n", dbl ? 'd' : 's', n,
           half, t[0], med, half / med / 1e9);
    free(t);
    clReleaseMemObject(S);
    clReleaseMemObject(A); clReleaseMemObject(B); clReleaseMemObject(C);
    clReleaseCommandQueue(q0); clReleaseCommandQueue(q0b); clReleaseCommandQueue(q1);
    gpublas3Teardown();
    clReleaseContext(ctx);
    free(a); free(b); free(ref); free(got);
    return failed;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* The launch probe: what one OpenCL command costs the caller on this
 * device and driver, the floor under a small call (a 64x64x64 GEMM's,
 * docs/performance.md).  Times, after warm-up, a one-work-item kernel
 * that writes one int: enqueue alone, and enqueue then clFinish (the
 * bench's "enqueue to completion"), without and with an event returned;
 * then three launches, each waiting on the previous one's event, as a
 * call's chained steps do.  Each result
 * is checked (the kernel counts its launches).  Median and 10th percentile
 * in microseconds.
 * Usage: gpublas3-launch-probe [calls (default 2000)]; the first GPU,
 * else the first device. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include "probe.h"

static void report(const char *what, double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, probe_cmp);
    printf("%-34s median %7.1f us, p10 %7.1f us\n", what, 1e6 * t[n / 2], 1e6 * t[n / 10]);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2000;
    if (n < 10) n = 10;
    cl_device_id d = pick();
    if (!d) { fprintf(stderr, "launch probe: no OpenCL device\n"); return 1; }
    char name[256] = "";
    clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof name, name, NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueue(ctx, d, 0, &err);
    const char *src = "kernel void tick(global int *p) { p[0] += 1; }";
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    if (clBuildProgram(prog, 1, &d, "", NULL, NULL) != CL_SUCCESS) { fprintf(stderr, "build failed\n"); return 1; }
    cl_kernel k = clCreateKernel(prog, "tick", &err);
    int zero = 0;
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, &zero, &err);
    clSetKernelArg(k, 0, sizeof buf, &buf);
    size_t one = 1;
    double *t = malloc((size_t)n * sizeof *t);
    long launched = 0;
    for (int i = 0; i < 100; i++, launched++) clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL);
    clFinish(q);
    printf("launch probe: %s, %d launches per row\n", name, n);
    for (int i = 0; i < n; i++, launched++) {
        double t0 = now();
        clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL);
        t[i] = now() - t0;
        clFinish(q);
    }
    report("enqueue alone", t, n);
    for (int i = 0; i < n; i++, launched++) {
        double t0 = now();
        clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL);
        clFinish(q);
        t[i] = now() - t0;
    }
    report("enqueue + clFinish", t, n);
    for (int i = 0; i < n; i++, launched++) {
        cl_event e;
        double t0 = now();
        clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, &e);
        clFinish(q);
        t[i] = now() - t0;
        clReleaseEvent(e);
    }
    report("enqueue with its event + clFinish", t, n);
    for (int i = 0; i < n; i++, launched += 3) {
        cl_event e[3];
        double t0 = now();
        for (int j = 0; j < 3; j++)
            clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, j ? 1 : 0, j ? &e[j - 1] : NULL, &e[j]);
        clFinish(q);
        t[i] = now() - t0;
        for (int j = 0; j < 3; j++) clReleaseEvent(e[j]);
    }
    report("3 chained by events + clFinish", t, n);
    int got = -1;
    clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL);
    int ok = got == (int)launched;
    printf("check: %d launches counted, %ld made: %s\n", got, launched, ok ? "ok" : "FAILED");
    free(t);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return ok ? 0 : 1;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* What the standalone probes share (link_probe.c, launch_probe.c,
 * leaf_probe.c): the clock, the order qsort sorts times in, and the device
 * they run on (the first GPU of any platform, else the first device).
 * Include after <CL/cl.h>. */
#ifndef G3_BENCH_PROBE_H
#define G3_BENCH_PROBE_H
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* qsort's order for doubles, smallest first. */
static inline int probe_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static cl_device_id pick(void)
{
    cl_platform_id ps[8];
    cl_uint np = 0;
    clGetPlatformIDs(8, ps, &np);
    cl_device_id d = NULL;
    for (cl_uint i = 0; i < np && !d; i++)
        clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_GPU, 1, &d, NULL);
    for (cl_uint i = 0; i < np && !d; i++)
        clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 1, &d, NULL);
    return d;
}
#endif

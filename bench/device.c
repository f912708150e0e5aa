/* SPDX-License-Identifier: BSD-3-Clause */
/* Device choice and run metadata for the benchmark: finds the OpenCL device
 * the user named (or the default one, as the library picks it), opens a
 * context and an in-order queue on it, and records what a reader of the
 * results needs to reproduce them: device, vendor, driver, OpenCL version,
 * host, OS, date and library version, and how busy the host was. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "bench.h"

#define MAX_PLATFORMS 16
#define MAX_DEVICES 64

static int all_devices(cl_platform_id *plat, cl_device_id *dev, int *pidx, int *didx)
{
    cl_platform_id ps[MAX_PLATFORMS];
    cl_uint np = 0, n = 0;
    if (clGetPlatformIDs(MAX_PLATFORMS, ps, &np) != CL_SUCCESS) return 0;
    for (cl_uint p = 0; p < np && p < MAX_PLATFORMS; p++) {
        cl_device_id ds[MAX_DEVICES];
        cl_uint nd = 0;
        if (clGetDeviceIDs(ps[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES, ds, &nd) != CL_SUCCESS) continue;
        for (cl_uint d = 0; d < nd && d < MAX_DEVICES && n < MAX_DEVICES; d++, n++) {
            plat[n] = ps[p];
            dev[n] = ds[d];
            pidx[n] = (int)p;
            didx[n] = (int)d;
        }
    }
    return (int)n;
}

static void dev_string(cl_device_id d, cl_device_info what, char *buf, size_t n)
{
    buf[0] = 0;
    if (clGetDeviceInfo(d, what, n, buf, NULL) != CL_SUCCESS) snprintf(buf, n, "?");
    buf[n - 1] = 0;
}

static cl_device_type dev_type(cl_device_id d)
{
    cl_device_type t = 0;
    clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof t, &t, NULL);
    return t;
}

void bench_cpu_sample_now(bench_cpu_sample *s)
{
    struct timespec t;
    unsigned long long v[8] = { 0 };
    double tick = (double)sysconf(_SC_CLK_TCK);
    clock_gettime(CLOCK_MONOTONIC, &t);
    s->wall = (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);   /* all our threads: PoCL's and OpenBLAS's too */
    s->own = (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
    FILE *f = fopen("/proc/stat", "r");
    /* cpu  user nice system idle iowait irq softirq steal */
    if (f && fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
                    &v[5], &v[6], &v[7]) == 8) {
        s->busy = (double)(v[0] + v[1] + v[2] + v[5] + v[6]) / tick;
        s->steal = (double)v[7] / tick;
    } else {
        s->busy = s->steal = -1;
    }
    if (f) fclose(f);
}

void bench_cpu_others(const bench_cpu_sample *a, const bench_cpu_sample *b, long cpus,
                      double *others, double *steal)
{
    double span = (b->wall - a->wall) * (double)(cpus > 0 ? cpus : 1);
    *others = *steal = -1;
    if (a->busy < 0 || b->busy < 0 || span <= 0) return;
    *others = ((b->busy - a->busy) - (b->own - a->own)) / span;
    if (*others < 0) *others = 0;
    *steal = (b->steal - a->steal) / span;
}

int bench_list_devices(FILE *out)
{
    cl_platform_id plat[MAX_DEVICES];
    cl_device_id dev[MAX_DEVICES];
    int pi[MAX_DEVICES], di[MAX_DEVICES];
    int n = all_devices(plat, dev, pi, di);
    for (int i = 0; i < n; i++) {
        char name[256], pname[256];
        dev_string(dev[i], CL_DEVICE_NAME, name, sizeof name);
        clGetPlatformInfo(plat[i], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
        pname[sizeof pname - 1] = 0;
        fprintf(out, "%d:%d  %-4s %s (%s)\n", pi[i], di[i],
                (dev_type(dev[i]) & CL_DEVICE_TYPE_GPU) ? "gpu" :
                (dev_type(dev[i]) & CL_DEVICE_TYPE_CPU) ? "cpu" : "acc", name, pname);
    }
    if (n == 0) fprintf(out, "no OpenCL device found\n");
    return n;
}

static int contains_nocase(const char *hay, const char *needle)
{
    size_t ln = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, ln) == 0) return 1;
    return 0;
}

/* Index into the device list for `sel`, or -1. */
static int pick(const char *sel, cl_platform_id *plat, cl_device_id *dev, int *pi, int *di, int n)
{
    int p, d;
    char tail;
    if (n == 0) return -1;
    if (!sel || !*sel) {
        for (int i = 0; i < n; i++)
            if (dev_type(dev[i]) & CL_DEVICE_TYPE_GPU) return i;
        return 0;
    }
    if (strcasecmp(sel, "gpu") == 0 || strcasecmp(sel, "cpu") == 0) {
        cl_device_type want = tolower((unsigned char)sel[0]) == 'g' ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_CPU;
        for (int i = 0; i < n; i++)
            if (dev_type(dev[i]) & want) return i;
        return -1;
    }
    if (sscanf(sel, "%d:%d%c", &p, &d, &tail) == 2) {
        for (int i = 0; i < n; i++)
            if (pi[i] == p && di[i] == d) return i;
        return -1;
    }
    for (int i = 0; i < n; i++) {
        char name[512], pname[256];
        dev_string(dev[i], CL_DEVICE_NAME, name, sizeof name);
        clGetPlatformInfo(plat[i], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
        pname[sizeof pname - 1] = 0;
        if (contains_nocase(name, sel) || contains_nocase(pname, sel)) return i;
    }
    return -1;
}

static void fill_metadata(bench_device *d)
{
    cl_device_type t = dev_type(d->device);
    dev_string(d->device, CL_DEVICE_NAME, d->name, sizeof d->name);
    dev_string(d->device, CL_DEVICE_VENDOR, d->vendor, sizeof d->vendor);
    dev_string(d->device, CL_DRIVER_VERSION, d->driver, sizeof d->driver);
    dev_string(d->device, CL_DEVICE_VERSION, d->cl_version, sizeof d->cl_version);
    snprintf(d->type, sizeof d->type, "%s", (t & CL_DEVICE_TYPE_GPU) ? "gpu" :
             (t & CL_DEVICE_TYPE_CPU) ? "cpu" : "accelerator");
    clGetPlatformInfo(d->platform, CL_PLATFORM_NAME, sizeof d->platform_name, d->platform_name, NULL);
    clGetPlatformInfo(d->platform, CL_PLATFORM_VERSION, sizeof d->platform_version,
                      d->platform_version, NULL);
    d->platform_name[sizeof d->platform_name - 1] = 0;
    d->platform_version[sizeof d->platform_version - 1] = 0;
    clGetDeviceInfo(d->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof d->compute_units, &d->compute_units, NULL);
    clGetDeviceInfo(d->device, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof d->clock_mhz, &d->clock_mhz, NULL);
    clGetDeviceInfo(d->device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof d->global_mem, &d->global_mem, NULL);

    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(d->date, sizeof d->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (gethostname(d->host, sizeof d->host) != 0) snprintf(d->host, sizeof d->host, "?");
    d->host[sizeof d->host - 1] = 0;
    struct utsname u;
    if (uname(&u) == 0) snprintf(d->os, sizeof d->os, "%s %s %s", u.sysname, u.release, u.machine);
    /* A busy host disturbs every timing here: say so in the results. */
    FILE *f = fopen("/proc/loadavg", "r");
    double l1 = 0, l5 = 0, l15 = 0;
    if (f && fscanf(f, "%lf %lf %lf", &l1, &l5, &l15) == 3)
        snprintf(d->load, sizeof d->load, "%.2f %.2f %.2f", l1, l5, l15);
    else
        snprintf(d->load, sizeof d->load, "?");
    if (f) fclose(f);
    d->host_cpus = sysconf(_SC_NPROCESSORS_ONLN);
    cl_uint ma = 0, mi = 0, pa = 0;
    gpublas3GetVersion(&ma, &mi, &pa);
    snprintf(d->library, sizeof d->library, "%u.%u.%u", ma, mi, pa);
}

int bench_open_device(const char *selector, bench_device *d, char *err, size_t n)
{
    cl_platform_id plat[MAX_DEVICES];
    cl_device_id dev[MAX_DEVICES];
    int pi[MAX_DEVICES], di[MAX_DEVICES];
    int count = all_devices(plat, dev, pi, di);
    memset(d, 0, sizeof *d);
    if (!selector || !*selector) selector = getenv("GPUBLAS3_DEVICE");
    int i = pick(selector, plat, dev, pi, di, count);
    if (i < 0) {
        snprintf(err, n, count ? "no OpenCL device matches \"%s\" (see --list)" : "no OpenCL device found",
                 selector ? selector : "");
        return -1;
    }
    d->platform = plat[i];
    d->device = dev[i];
    cl_int e;
    cl_context_properties props[] = { CL_CONTEXT_PLATFORM, (cl_context_properties)plat[i], 0 };
    d->context = clCreateContext(props, 1, &d->device, NULL, NULL, &e);
    if (e != CL_SUCCESS) {
        snprintf(err, n, "clCreateContext failed (%d)", e);
        return -1;
    }
    /* GPUBLAS3_BENCH_PROFILE=1: a profiling queue, so that a driver's trace
     * (PoCL's POCL_TRACING=text) carries each kernel's start and end; the
     * timing itself never uses it (docs/performance.md shows the use) */
    const char *prof = getenv("GPUBLAS3_BENCH_PROFILE");
    cl_command_queue_properties qp = prof && prof[0] == '1' ? CL_QUEUE_PROFILING_ENABLE : 0;
    d->queue = clCreateCommandQueue(d->context, d->device, qp, &e);
    if (e != CL_SUCCESS) {
        snprintf(err, n, "clCreateCommandQueue failed (%d)", e);
        clReleaseContext(d->context);
        return -1;
    }
    fill_metadata(d);
    return 0;
}

void bench_close_device(bench_device *d)
{
    if (d->queue) clReleaseCommandQueue(d->queue);
    if (d->context) clReleaseContext(d->context);
    d->queue = NULL;
    d->context = NULL;
}

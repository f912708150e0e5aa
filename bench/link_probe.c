/* SPDX-License-Identifier: BSD-3-Clause */
/* The link probe: how fast a host array the caller allocated with malloc
 * reaches a device buffer, and comes back, by each way OpenCL offers
 * (docs/performance.md, Drop-in crossover):
 *   pageable   clEnqueueWriteBuffer / ReadBuffer straight from the array;
 *   staged     memcpy into a pinned (ALLOC_HOST_PTR, mapped) buffer, then
 *              its DMA (what the drop-ins do today), the two timed apart;
 *   host-ptr   a CL_MEM_USE_HOST_PTR buffer over the array itself (the
 *              driver may pin its pages: creation timed apart, then a copy
 *              to a device buffer; twice, to see whether a second buffer
 *              over the same pages is cheaper), and back (copy into it,
 *              then a map, which makes the array current);
 *   host-ptr in T pieces: T threads each create such a buffer over its
 *              T-th of the array at once, the pieces are copied to the
 *              device buffer, then released by the T threads at once:
 *              whether the driver's pinning runs in parallel (one thread
 *              pins at 25-30 GB/s, docs/performance.md, Drop-in crossover, too slow for a call).
 * Every transfer is checked (a sample of elements) before it is reported.
 * Usage: gpublas3-link-probe [MiB (default 512)] [repetitions (3)]
 * [T (8)]; the first device of the first GPU platform, else the first
 * device. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "probe.h"

static int bad;

/* Compares a sample of n words of got against want. */
static void check(const char *what, const unsigned *got, const unsigned *want, size_t n)
{
    for (size_t i = 0; i < n; i += 4099)
        if (got[i] != want[i]) {
            printf("%-34s WRONG at word %zu\n", what, i);
            bad = 1;
            return;
        }
}

/* What each best[] holds, in its order. */
static const char *const ways[] = {
    "pageable write", "pageable read", "staged: memcpy into pinned", "staged: pinned write (DMA)",
    "staged: pinned read (DMA)", "host-ptr: create", "host-ptr: copy to device", "host-ptr: release",
    "host-ptr again: create", "host-ptr again: copy to device", "host-ptr again: release",
    "host-ptr back: create+copy+map", "host-ptr in T pieces: create", "host-ptr in T pieces: copy",
    "host-ptr in T pieces: release",
};
enum { NWAYS = sizeof ways / sizeof ways[0] };

/* One thread's piece of "host-ptr in T pieces": create its buffer, or
 * release it (mem already set). */
typedef struct {
    cl_context ctx;
    char *base;
    size_t bytes;
    cl_mem mem;
    cl_int err;
} piece;

static void *piece_run(void *arg)
{
    piece *p = arg;
    if (p->mem) {
        clReleaseMemObject(p->mem);
        p->mem = NULL;
    } else {
        p->mem = clCreateBuffer(p->ctx, CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY, p->bytes, p->base, &p->err);
    }
    return NULL;
}

/* Runs piece_run on every piece at once; its wall time. */
static double on_threads(piece *ps, int t)
{
    pthread_t th[64];
    double t0 = now();
    for (int i = 0; i < t; i++)
        pthread_create(&th[i], NULL, piece_run, &ps[i]);
    for (int i = 0; i < t; i++)
        pthread_join(th[i], NULL);
    return now() - t0;
}

static void report(const char *what, size_t bytes, double s)
{
    printf("%-34s %8.2f ms  %6.1f GB/s\n", what, 1e3 * s, bytes / s / 1e9);
}

int main(int argc, char **argv)
{
    size_t bytes = (size_t)(argc > 1 ? atoi(argv[1]) : 512) << 20, n = bytes / 4;
    int reps = argc > 2 ? atoi(argv[2]) : 3, nt = argc > 3 ? atoi(argv[3]) : 8;
    nt = nt < 1 ? 1 : nt > 64 ? 64 : nt;
    cl_device_id dev = pick();
    if (!dev) {
        printf("no OpenCL device\n");
        return 1;
    }
    char name[256];
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    printf("device: %s; %zu MiB per transfer, best of %d\n", name, bytes >> 20, reps);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    unsigned *src = NULL, *back = NULL;
    if (posix_memalign((void **)&src, 4096, bytes) || posix_memalign((void **)&back, 4096, bytes))
        return 1;
    for (size_t i = 0; i < n; i++) src[i] = (unsigned)(i * 2654435761u);
    memset(back, 0, bytes);
    cl_mem dbuf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    cl_mem pin = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
    unsigned *pinp = clEnqueueMapBuffer(q, pin, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        printf("setup failed: %d\n", err);
        return 1;
    }
    clEnqueueWriteBuffer(q, dbuf, CL_TRUE, 0, bytes, src, 0, NULL, NULL); /* first touch of dbuf */
    double best[NWAYS];
    for (int i = 0; i < NWAYS; i++) best[i] = 1e30;
#define KEEP(i, t) do { double t_ = (t); if (t_ < best[i]) best[i] = t_; } while (0)
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        clEnqueueWriteBuffer(q, dbuf, CL_TRUE, 0, bytes, src, 0, NULL, NULL);
        KEEP(0, now() - t0);
        t0 = now();
        clEnqueueReadBuffer(q, dbuf, CL_TRUE, 0, bytes, back, 0, NULL, NULL);
        KEEP(1, now() - t0);
        check("pageable, there and back", back, src, n);
        memset(back, 0, bytes);

        t0 = now();
        memcpy(pinp, src, bytes);
        KEEP(2, now() - t0);
        t0 = now();
        clEnqueueWriteBuffer(q, dbuf, CL_TRUE, 0, bytes, pinp, 0, NULL, NULL);
        KEEP(3, now() - t0);
        memset(pinp, 0, bytes);
        t0 = now();
        clEnqueueReadBuffer(q, dbuf, CL_TRUE, 0, bytes, pinp, 0, NULL, NULL);
        KEEP(4, now() - t0);
        check("pinned, there and back", pinp, src, n);

        /* host-ptr there: creation, then a copy (twice over the same pages) */
        clEnqueueFillBuffer(q, dbuf, &(unsigned){ 0 }, 4, 0, bytes, 0, NULL, NULL);
        clFinish(q);
        for (int again = 0; again < 2; again++) {
            t0 = now();
            cl_mem hb = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY, bytes, src, &err);
            double t1 = now();
            clEnqueueCopyBuffer(q, hb, dbuf, 0, 0, bytes, 0, NULL, NULL);
            clFinish(q);
            double t2 = now();
            clReleaseMemObject(hb);
            double t3 = now();
            KEEP(5 + 3 * again, t1 - t0);
            KEEP(6 + 3 * again, t2 - t1);
            KEEP(7 + 3 * again, t3 - t2);
        }
        clEnqueueReadBuffer(q, dbuf, CL_TRUE, 0, bytes, back, 0, NULL, NULL);
        check("host-ptr there", back, src, n);
        memset(back, 0, bytes);

        /* host-ptr back: copy into a buffer over `back`, map to make it current */
        t0 = now();
        cl_mem hb = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR | CL_MEM_WRITE_ONLY, bytes, back, &err);
        clEnqueueCopyBuffer(q, dbuf, hb, 0, 0, bytes, 0, NULL, NULL);
        void *m = clEnqueueMapBuffer(q, hb, CL_TRUE, CL_MAP_READ, 0, bytes, 0, NULL, NULL, &err);
        clEnqueueUnmapMemObject(q, hb, m, 0, NULL, NULL);
        clFinish(q);
        clReleaseMemObject(hb);
        KEEP(11, now() - t0);
        check("host-ptr back (mapped)", back, src, n); /* the map made the array current */
        if (m != back)
            printf("note: the map of a host-ptr buffer returned another address than the array\n");
        memset(back, 0, bytes);

        /* host-ptr in T pieces: pages pinned by T threads at once */
        clEnqueueFillBuffer(q, dbuf, &(unsigned){ 0 }, 4, 0, bytes, 0, NULL, NULL);
        clFinish(q);
        piece ps[64];
        size_t step = (bytes / nt + 4095) & ~(size_t)4095;
        int made = 0;
        for (int i = 0; i < nt && (size_t)i * step < bytes; i++, made++) {
            size_t at = (size_t)i * step, len = bytes - at < step ? bytes - at : step;
            ps[i] = (piece){ ctx, (char *)src + at, len, NULL, CL_SUCCESS };
        }
        KEEP(12, on_threads(ps, made));
        t0 = now();
        for (int i = 0; i < made; i++)
            if (ps[i].err == CL_SUCCESS)
                clEnqueueCopyBuffer(q, ps[i].mem, dbuf, 0, (size_t)i * step, ps[i].bytes, 0, NULL, NULL);
            else
                bad = 1, printf("host-ptr piece %d: error %d\n", i, ps[i].err);
        clFinish(q);
        KEEP(13, now() - t0);
        KEEP(14, on_threads(ps, made));
        clEnqueueReadBuffer(q, dbuf, CL_TRUE, 0, bytes, back, 0, NULL, NULL);
        check("host-ptr in T pieces", back, src, n);
        memset(back, 0, bytes);
    }
    for (int i = 0; i < NWAYS; i++)
        report(ways[i], bytes, best[i]);
    report("host-ptr there, all of it", bytes, best[5] + best[6] + best[7]);
    printf("(T = %d)\n", nt);
    report("host-ptr in T pieces, all of it", bytes, best[12] + best[13] + best[14]);
    printf("%s\n", bad ? "SOME TRANSFERS WRONG" : "every transfer checked");
    return bad;
}

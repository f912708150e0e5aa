/* SPDX-License-Identifier: BSD-3-Clause */
/* How fast this host makes the copies a host call stages (
 * docs/performance.md, Drop-in crossover), on N threads: the memory's read rate (the floor any
 * copy shares) and each copy the drop-ins make, at the sizes their
 * pipeline uses, with the library's own code (routines/dropin/host_copy.c):
 *
 *   read        sum of the caller's array: 1 stream over the memory bus
 *   memset      fill of the caller's array: 1 or 2 (a line read first)
 *   in_memcpy   caller's array -> staging, memcpy: 2 or 3 streams
 *   in_stream   the same with streaming stores: 2
 *   out_memcpy  staging -> caller's array (beta = 0), memcpy: 2 or 3
 *   out_stream  the same with streaming stores: 2
 *   out_beta    caller's = staging + beta caller's (beta = 1): 3
 *   out_beta_nt the same with streaming stores (here only, to compare:
 *               the lines were just read, so no traffic should be saved)
 *
 * Each copy runs as the pipeline's do: jobs of BLOCK bytes, each cut over
 * the threads by contiguous parts and ended by a barrier, walking through
 * a caller's array of TOTAL bytes (cold in the cache, like a big call's
 * operands) while the staging side cycles through three BLOCK buffers
 * (the pipeline's ring).  The variants take turns round by round and each
 * prints the median (and the spread) of its rounds, in GB/s of data
 * copied; the streams counted above turn that into memory traffic.
 * in_stream, out_stream and out_beta prefetch their sources as the
 * library does, G3H_PREFETCH_AHEAD (4096) bytes ahead; the other
 * variants never do.
 *
 * Usage: gpublas3-copy-probe [TOTAL_MB [BLOCK_MB [ROUNDS [THREADS...]]]]
 * (defaults 512 32 7 and one thread count: the CPUs, at most 16). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "host_copy.h"
#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
#endif

enum { READ, MEMSET, IN_MEMCPY, IN_STREAM, OUT_MEMCPY, OUT_STREAM, OUT_BETA, OUT_BETA_NT, NVARIANTS,
       MAXT = 64, MAXR = 101 };
static const char *const names[NVARIANTS] = { "read", "memset", "in_memcpy", "in_stream", "out_memcpy",
                                              "out_stream", "out_beta", "out_beta_nt" };

static struct {
    pthread_barrier_t start, end;
    int variant, threads, quit;
    char *user, *stage;  /* this job's parts: user and stage, block bytes each */
    size_t block, ahead;
    uint64_t sink[MAXT];
} job;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* u = m + beta u (doubles; u 16-byte aligned) with streaming stores. */
static void add_scaled_nt(double *u, const double *m, double beta, size_t n)
{
#if defined(__x86_64__) && defined(__SSE2__)
    __m128d b = _mm_set1_pd(beta);
    size_t i = 0;
    for (; i + 2 <= n; i += 2)
        _mm_stream_pd(u + i, _mm_add_pd(_mm_loadu_pd(m + i), _mm_mul_pd(b, _mm_load_pd(u + i))));
    _mm_sfence();
    for (; i < n; i++)
        u[i] = m[i] + beta * u[i];
#else
    g3h_add_scaled(u, m, n * sizeof(double), 1, 0, beta, 0, 0);
#endif
}

static void part(int t)
{
    /* contiguous parts in whole cache lines */
    size_t lines = job.block / 64, lo = lines * (size_t)t / (size_t)job.threads * 64,
           hi = lines * (size_t)(t + 1) / (size_t)job.threads * 64;
    char *u = job.user + lo, *s = job.stage + lo;
    size_t len = hi - lo;
    switch (job.variant) {
    case READ: {
        const uint64_t *p = (const uint64_t *)u;
        uint64_t x = 0;
        for (size_t i = 0; i < len / 8; i++)
            x ^= p[i];
        job.sink[t] ^= x;
        break;
    }
    case MEMSET: memset(u, t + 1, len); break;
    case IN_MEMCPY: memcpy(s, u, len); break;
    case IN_STREAM: g3h_stream_copy(s, u, len, job.ahead); break;
    case OUT_MEMCPY: memcpy(u, s, len); break;
    case OUT_STREAM: g3h_stream_copy(u, s, len, job.ahead); break;
    case OUT_BETA: g3h_add_scaled(u, s, len, 1, 0, 1.0, 0.0, job.ahead); break;
    case OUT_BETA_NT: add_scaled_nt((double *)u, (const double *)s, 1.0, len / 8); break;
    }
}

static void *worker(void *arg)
{
    int t = (int)(intptr_t)arg;
    for (;;) {
        pthread_barrier_wait(&job.start);
        if (job.quit)
            return NULL;
        part(t);
        pthread_barrier_wait(&job.end);
    }
}

/* Seconds for one pass of a variant over the whole caller's array. */
static double pass(int variant, char *user, size_t total, char *stage, size_t block)
{
    double t0 = now();
    for (size_t off = 0, i = 0; off + block <= total; off += block, i++) {
        job.variant = variant;
        job.user = user + off;
        job.stage = stage + (i % 3) * block;
        job.block = block;
        pthread_barrier_wait(&job.start);
        part(0);
        pthread_barrier_wait(&job.end);
    }
    return now() - t0;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void run(int threads, char *user, size_t total, char *stage, size_t block, int rounds)
{
    pthread_t th[MAXT];
    job.threads = threads;
    job.quit = 0;
    pthread_barrier_init(&job.start, NULL, (unsigned)threads);
    pthread_barrier_init(&job.end, NULL, (unsigned)threads);
    for (int t = 1; t < threads; t++)
        pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t);
    double secs[NVARIANTS][MAXR];
    size_t moved = total / block * block;
    for (int r = 0; r < rounds + 1; r++)  /* round 0 warms up */
        for (int v = 0; v < NVARIANTS; v++) {
            double s = pass(v, user, total, stage, block);
            if (r > 0)
                secs[v][r - 1] = s;
        }
    job.quit = 1;
    pthread_barrier_wait(&job.start);
    for (int t = 1; t < threads; t++)
        pthread_join(th[t], NULL);
    pthread_barrier_destroy(&job.start);
    pthread_barrier_destroy(&job.end);
    for (int v = 0; v < NVARIANTS; v++) {
        qsort(secs[v], (size_t)rounds, sizeof(double), by_value);
        printf("threads %2d  %-11s  %6.1f GB/s  (rounds %.1f-%.1f)\n", threads, names[v],
               1e-9 * (double)moved / secs[v][rounds / 2], 1e-9 * (double)moved / secs[v][rounds - 1],
               1e-9 * (double)moved / secs[v][0]);
    }
}

int main(int argc, char **argv)
{
    size_t total = (size_t)(argc > 1 ? atol(argv[1]) : 512) << 20;
    size_t block = (size_t)(argc > 2 ? atol(argv[2]) : 32) << 20;
    int rounds = argc > 3 ? atoi(argv[3]) : 7;
    if (total < block || block < 64 || rounds < 1 || rounds > MAXR - 1) {
        fprintf(stderr, "usage: %s [TOTAL_MB [BLOCK_MB [ROUNDS [THREADS...]]]]\n", argv[0]);
        return 2;
    }
    char *user, *stage;
    if (posix_memalign((void **)&user, 4096, total) || posix_memalign((void **)&stage, 4096, 3 * block)) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    /* pages faulted in and values that are numbers (out_beta reads them) */
    for (size_t i = 0; i < total / 8; i++)
        ((double *)user)[i] = (double)(i % 1000);
    for (size_t i = 0; i < 3 * block / 8; i++)
        ((double *)stage)[i] = 1.0;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    job.ahead = G3H_PREFETCH_AHEAD;
    printf("copy probe: %zu MB caller's array, jobs of %zu MB, median of %d rounds, %ld CPUs, prefetch %zu bytes "
           "ahead\n", total >> 20, block >> 20, rounds, cpus, job.ahead);
    if (argc <= 4)
        run(cpus < 1 ? 1 : cpus > 16 ? 16 : (int)cpus, user, total, stage, block, rounds);
    for (int i = 4; i < argc; i++) {
        int t = atoi(argv[i]);
        run(t < 1 ? 1 : t > MAXT ? MAXT : t, user, total, stage, block, rounds);
    }
    uint64_t x = 0;
    for (int t = 0; t < MAXT; t++)
        x ^= job.sink[t];
    printf("(checksum %llu)\n", (unsigned long long)x);
    free(user);
    free(stage);
    return 0;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* gpublas3-cachetime: what the compile cache on disk saves.  Measures, in
 * fresh processes, the time from gpublas3Setup to the completed first
 * SGEMM call and then to the completed first DGEMM call (together they
 * build every program the library has), with
 *   cold: an empty cache folder (the programs are compiled and stored),
 *   warm: the folder the cold run filled (the programs are loaded),
 *   off:  GPUBLAS3_CACHE_DIR=off (compiled, nothing stored).
 * Context and buffer creation are outside the timing.  Driver-side caches
 * stay as the environment sets them (PoCL: POCL_KERNEL_CACHE=0 turns its
 * own off; NVIDIA: CUDA_CACHE_DISABLE=1).
 *
 *   gpublas3-cachetime [--runs N] [--n SIZE] [--single]   (defaults: 5 runs, n = 64)
 * prints one line per mode: median and minimum milliseconds; --single
 * times the SGEMM alone (half the compiles, for a smoke test). */
#define _GNU_SOURCE
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <gpublas3.h>

extern char **environ;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* The first GPU of any platform, else the first device (the library's
 * and the tests' default). */
static cl_device_id pick_device(void)
{
    cl_platform_id plats[16];
    cl_uint np = 0;
    cl_device_id dev = NULL;
    clGetPlatformIDs(16, plats, &np);
    for (int pass = 0; pass < 2 && !dev; pass++)
        for (cl_uint p = 0; p < np && p < 16 && !dev; p++)
            if (clGetDeviceIDs(plats[p], pass ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU, 1, &dev, NULL))
                dev = NULL;
    return dev;
}

/* The child: prints "first_sgemm_ms first_dgemm_ms" (0 for a DGEMM not run). */
static int child(size_t n, int single)
{
    cl_device_id dev = pick_device();
    if (!dev) {
        fprintf(stderr, "no OpenCL device\n");
        return 2;
    }
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    size_t bytes = n * n * sizeof(double);
    double *host = calloc(n * n, sizeof(double));
    cl_mem buf[3];
    for (int i = 0; i < 3; i++) {
        buf[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, host, &err);
        if (err) {
            fprintf(stderr, "clCreateBuffer: %d\n", err);
            return 2;
        }
    }
    clFinish(q);
    double t0 = now_ms();
    gpublas3Setup();
    cl_event ev;
    gpublas3Status st = gpublas3Sgemm(gpublas3ColumnMajor, gpublas3NoTrans, gpublas3NoTrans, n, n, n, 1.0f,
                                      buf[0], 0, n, buf[1], 0, n, 0.0f, buf[2], 0, n, 1, &q, 0, NULL, &ev);
    if (st == gpublas3Success) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
    }
    double t1 = now_ms();
    gpublas3Status st2 = single ? gpublas3Success
                                : gpublas3Dgemm(gpublas3ColumnMajor, gpublas3NoTrans, gpublas3NoTrans, n, n, n, 1.0,
                                                buf[0], 0, n, buf[1], 0, n, 0.0, buf[2], 0, n, 1, &q, 0, NULL, &ev);
    if (st2 == gpublas3Success && !single) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
    }
    double t2 = now_ms();
    if (st != gpublas3Success || st2 != gpublas3Success) {
        fprintf(stderr, "gemm failed: %d %d\n", st, st2);
        return 2;
    }
    printf("%.1f %.1f\n", t1 - t0, single ? 0 : t2 - t1);
    gpublas3Teardown();
    for (int i = 0; i < 3; i++)
        clReleaseMemObject(buf[i]);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(host);
    return 0;
}

/* Runs the child with GPUBLAS3_CACHE_DIR=dir; 0 and its two times on success. */
static int run_child(const char *dir, size_t n, int single, double *ts, double *td)
{
    char arg[32], out[256] = "";
    snprintf(arg, sizeof arg, "%zu%s", n, single ? "s" : "");
    int fds[2];
    if (pipe(fds))
        return -1;
    setenv("GPUBLAS3_CACHE_DIR", dir, 1);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    char *argv[] = { "gpublas3-cachetime", "--child", arg, NULL };
    pid_t pid;
    int err = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (err) {
        close(fds[0]);
        return -1;
    }
    size_t got = 0;
    ssize_t r;
    while (got < sizeof out - 1 && (r = read(fds[0], out + got, sizeof out - 1 - got)) > 0)
        got += (size_t)r;
    out[got] = 0;
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) || sscanf(out, "%lf %lf", ts, td) != 2)
        return -1;
    return 0;
}

/* Removes a cache folder (files only). */
static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[1024];
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.') {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    if (d) closedir(d);
    rmdir(dir);
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int runs = 5, single = 0;
    size_t n = 64;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--child") && i + 1 < argc)
            return child((size_t)atol(argv[i + 1]), strchr(argv[i + 1], 's') != NULL);
        if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--n") && i + 1 < argc) n = (size_t)atol(argv[++i]);
        else if (!strcmp(argv[i], "--single")) single = 1;
        else {
            fprintf(stderr, "usage: %s [--runs N] [--n SIZE] [--single]\n", argv[0]);
            return 2;
        }
    }
    if (runs < 1 || runs > 100) runs = 5;
    const char *modes[3] = { "cold", "warm", "off" };
    double t[3][2][100];
    char tmpl[] = "/tmp/gpublas3-cachetime-XXXXXX";
    char *root = mkdtemp(tmpl);
    if (!root) {
        perror("mkdtemp");
        return 2;
    }
    for (int r = 0; r < runs; r++) {
        char dir[512];
        snprintf(dir, sizeof dir, "%s/run%d", root, r);
        /* cold fills dir (created by the library), warm reads it */
        if (run_child(dir, n, single, &t[0][0][r], &t[0][1][r]) || run_child(dir, n, single, &t[1][0][r], &t[1][1][r]) ||
            run_child("off", n, single, &t[2][0][r], &t[2][1][r])) {
            fprintf(stderr, "a timing run failed\n");
            return 1;
        }
        remove_dir(dir);
    }
    rmdir(root);
    char name[256] = "?", driver[256] = "?";
    cl_device_id dev = pick_device();
    if (dev) {
        clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
        clGetDeviceInfo(dev, CL_DRIVER_VERSION, sizeof driver, driver, NULL);
    }
    printf("device: %s, driver %s\n", name, driver);
    printf("first calls after gpublas3Setup, n = %zu, %d runs (ms: median / min)\n", n, runs);
    printf("%-5s %22s %22s\n", "cache", "first SGEMM", single ? "" : "then first DGEMM");
    for (int m = 0; m < 3; m++) {
        printf("%-5s", modes[m]);
        for (int k = 0; k < 2 - single; k++) {
            qsort(t[m][k], (size_t)runs, sizeof(double), cmp);
            printf(" %12.1f / %7.1f", t[m][k][runs / 2], t[m][k][0]);
        }
        printf("\n");
    }
    return 0;
}

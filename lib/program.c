/* The program cache: each (context, device, source, options) is compiled
 * once and kept until the last Teardown; lib/diskcache.c keeps the binaries
 * across processes.  Kernels are made per launch from
 * the cached program, because a cl_kernel's arguments are state that two
 * threads must not share. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core.h"

typedef struct prog {
    cl_context ctx;
    cl_device_id dev;
    const char *src;
    char *options;
    cl_program program;
    struct prog *next;
} prog;
static prog *programs;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void report_build_failure(cl_program p, cl_device_id dev, const char *options)
{
    size_t n = 0;
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    char *log = malloc(n + 1);
    if (log && clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, n, log, NULL) == CL_SUCCESS) {
        log[n] = 0;
        fprintf(stderr, "gpublas3: kernel build failed with options \"%s\":\n%s\n", options, log);
    }
    free(log);
}

static gpublas3Status build(const g3_device *d, const char *src, const char *options, cl_program *out)
{
    if ((*out = g3_diskcache_load(d, src, options)))
        return gpublas3Success;
    cl_int err;
    cl_program p = clCreateProgramWithSource(d->ctx, 1, &src, NULL, &err);
    if (err != CL_SUCCESS)
        return (gpublas3Status)err;
    err = clBuildProgram(p, 1, &d->dev, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        if (err == CL_BUILD_PROGRAM_FAILURE)
            report_build_failure(p, d->dev, options);
        clReleaseProgram(p);
        return (gpublas3Status)err;
    }
    g3_diskcache_store(d, src, options, p);
    *out = p;
    return gpublas3Success;
}

gpublas3Status g3_kernel(const g3_device *d, const char *src, const char *name,
                         const char *options, cl_kernel *out)
{
    gpublas3Status st = gpublas3Success;
    pthread_mutex_lock(&lock);
    prog *e = programs;
    while (e && !(e->ctx == d->ctx && e->dev == d->dev && e->src == src && strcmp(e->options, options) == 0))
        e = e->next;
    if (!e) {
        /* Built under the lock: two threads asking for the same program
         * compile it once. */
        cl_program p = NULL;
        st = build(d, src, options, &p);
        if (st == gpublas3Success) {
            e = calloc(1, sizeof *e);
            char *opt = strdup(options);
            if (!e || !opt) {
                free(e);
                free(opt);
                clReleaseProgram(p);
                e = NULL;
                st = gpublas3OutOfHostMemory;
            } else {
                *e = (prog){ d->ctx, d->dev, src, opt, p, programs };
                programs = e;
            }
        }
    }
    cl_program program = e ? e->program : NULL;
    pthread_mutex_unlock(&lock);
    if (st != gpublas3Success)
        return st;
    cl_int err;
    *out = clCreateKernel(program, name, &err);
    return (gpublas3Status)err;
}

void g3_program_release_all(void)
{
    pthread_mutex_lock(&lock);
    while (programs) {
        prog *e = programs;
        programs = e->next;
        clReleaseProgram(e->program);
        free(e->options);
        free(e);
    }
    pthread_mutex_unlock(&lock);
}

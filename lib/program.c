/* SPDX-License-Identifier: BSD-3-Clause */
/* The program cache: each (context, device, source, options) is compiled
 * once and kept until the last Teardown; lib/diskcache.c keeps the binaries
 * across processes.  Each kernel of a program is made once too and kept
 * with its lock (lib/core.h's g3_kern). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core.h"

typedef struct kern {
    g3_kern k;
    const char *name;
    struct kern *next;
} kern;
typedef struct prog {
    cl_context ctx;
    cl_device_id dev;
    const char *src;
    char *options;
    cl_program program;
    kern *kernels;
    struct prog *next;
} prog;
static prog *programs;
/* One g3_launches per (source, options, kernel name), shared by its
 * cl_kernels of every context and device. */
typedef struct cell {
    g3_launches l;
    struct cell *next;
} cell;
static cell *cells;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void report_build(cl_program p, cl_device_id dev, const char *what, const char *options)
{
    size_t n = 0;
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    char *log = malloc(n + 1);
    if (log && clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, n, log, NULL) == CL_SUCCESS) {
        log[n] = 0;
        fprintf(stderr, "gpublas3: kernel build %s with options \"%s\":\n%s\n", what, options, log);
    }
    free(log);
}

static gpublas3Status build_with(const g3_device *d, const char *src, const char *options, cl_program *out)
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
            report_build(p, d->dev, "failed", options);
        clReleaseProgram(p);
        return (gpublas3Status)err;
    }
    /* the compiler's own report (NVIDIA: -cl-nv-verbose in GPUBLAS3_CL_OPTIONS
     * gives registers and spills) */
    if (getenv("GPUBLAS3_BUILD_LOG"))
        report_build(p, d->dev, "done", options);
    g3_diskcache_store(d, src, options, p);
    *out = p;
    return gpublas3Success;
}

/* GPUBLAS3_CL_OPTIONS, a diagnostic: more compiler options for every
 * kernel (e.g. NVIDIA's -cl-nv-verbose), part of the disk cache's key. */
static gpublas3Status build(const g3_device *d, const char *src, const char *options, cl_program *out)
{
    const char *extra = getenv("GPUBLAS3_CL_OPTIONS");
    if (!extra || !*extra)
        return build_with(d, src, options, out);
    size_t n = strlen(options) + strlen(extra) + 2;
    char *full = malloc(n);
    if (!full)
        return gpublas3OutOfHostMemory;
    snprintf(full, n, "%s %s", options, extra);
    gpublas3Status st = build_with(d, src, full, out);
    free(full);
    return st;
}

/* The launches of e's kernel `name`: those of another context's or
 * device's copy of it, else new.  Under the cache lock. */
static g3_launches *launches_of(const prog *e, const char *name)
{
    for (const prog *o = programs; o; o = o->next)
        if (o->src == e->src && strcmp(o->options, e->options) == 0)
            for (const kern *k = o->kernels; k; k = k->next)
                if (strcmp(k->name, name) == 0)
                    return k->k.launches;
    cell *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    pthread_mutex_init(&c->l.lock, NULL);
    c->next = cells;
    cells = c;
    return &c->l;
}

/* The program's kernel `name`, made on first use; under the cache lock. */
static gpublas3Status kernel_of(prog *e, const char *name, kern **out)
{
    kern *k = e->kernels;
    while (k && strcmp(k->name, name))
        k = k->next;
    if (!k) {
        cl_int err;
        cl_kernel kernel = clCreateKernel(e->program, name, &err);
        if (err != CL_SUCCESS)
            return (gpublas3Status)err;
        g3_launches *l = launches_of(e, name);
        if (!l || !(k = calloc(1, sizeof *k))) {
            clReleaseKernel(kernel);
            return gpublas3OutOfHostMemory;
        }
        *k = (kern){ .k.kernel = kernel, .k.launches = l, .name = name, .next = e->kernels };
        pthread_mutex_init(&k->k.lock, NULL);
        e->kernels = k;
    }
    *out = k;
    return gpublas3Success;
}

gpublas3Status g3_kernel(const g3_device *d, const char *src, const char *name, const char *options,
                         g3_kern **out)
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
                *e = (prog){ d->ctx, d->dev, src, opt, p, NULL, programs };
                programs = e;
            }
        }
    }
    kern *k = NULL;
    if (st == gpublas3Success)
        st = kernel_of(e, name, &k);
    pthread_mutex_unlock(&lock);
    if (st != gpublas3Success)
        return st;
    *out = &k->k;
    return gpublas3Success;
}

void g3_program_release_all(void)
{
    pthread_mutex_lock(&lock);
    while (programs) {
        prog *e = programs;
        programs = e->next;
        while (e->kernels) {
            kern *k = e->kernels;
            e->kernels = k->next;
            clReleaseKernel(k->k.kernel);
            pthread_mutex_destroy(&k->k.lock);
            free(k);
        }
        clReleaseProgram(e->program);
        free(e->options);
        free(e);
    }
    while (cells) {
        cell *c = cells;
        cells = c->next;
        if (c->l.last)
            clReleaseEvent(c->l.last);
        pthread_mutex_destroy(&c->l.lock);
        free(c);
    }
    pthread_mutex_unlock(&lock);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* The host drop-ins' device state (see host.h): the device table and the
 * choice GPUBLAS3_DEVICE makes, one context per device made on first use,
 * the pool of per-call slots, failure bookkeeping, pinned staging and the
 * copy threads, and the release of it all at exit. */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include "host.h"
#include "host_copy.h"
#include "names.h"
#include "plan.h"

enum { MAXDEV = 32 };

typedef struct {
    cl_platform_id plat;
    cl_device_id id;
    int pi, di;
    cl_device_type type;
    int fp64;
    char name[128];
    cl_context ctx;
    int bad[2];         /* passed over for single [0] / double [1] precision */
    int announced[2];   /* "now runs on this device" said */
    int warned_memory;
    g3h_slot *pool;
    int live;           /* slots in existence, pooled or in use */
} device;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static device devs[MAXDEV];
static int ndev, order[MAXDEV], norder;
static int closed, setup_done, host_warned, copy_threads, verbose;
static size_t panel_bytes;

static const char *type_name(cl_device_type t)
{
    return (t & CL_DEVICE_TYPE_GPU) ? "GPU" : (t & CL_DEVICE_TYPE_CPU) ? "CPU" :
           (t & CL_DEVICE_TYPE_ACCELERATOR) ? "accelerator" : "other";
}

static const char *error_text(cl_int err, char *buf, size_t n)
{
    const char *s = gpublas3StatusString((gpublas3Status)err);
    if (strcmp(s, "unknown status") == 0)
        snprintf(buf, n, "OpenCL error %d", (int)err);
    else
        snprintf(buf, n, "%s, %d", s, (int)err);
    return buf;
}

static void list_devices(void)
{
    for (int i = 0; i < ndev; i++)
        fprintf(stderr, "gpublas3:   %d:%d  %s (%s)\n", devs[i].pi, devs[i].di, devs[i].name,
                type_name(devs[i].type));
}

/* The index GPUBLAS3_DEVICE names, -1 if it names none, -2 for "host". */
static int parse_choice(const char *s)
{
    int p, d, used = 0;
    if (strcasecmp(s, "host") == 0)
        return -2;
    if (sscanf(s, "%d:%d%n", &p, &d, &used) == 2 && s[used] == 0) {
        for (int i = 0; i < ndev; i++)
            if (devs[i].pi == p && devs[i].di == d)
                return i;
        return -1;
    }
    cl_device_type want = strcasecmp(s, "gpu") == 0 ? CL_DEVICE_TYPE_GPU :
                          strcasecmp(s, "cpu") == 0 ? CL_DEVICE_TYPE_CPU : 0;
    for (int i = 0; i < ndev; i++)
        if (want ? (devs[i].type & want) != 0 : g3_contains_nocase(devs[i].name, s))
            return i;
    return -1;
}

/* Under MPI, ranks of one node each take their own device: the local
 * rank (MPICH, Open MPI or Slurm's variable) modulo the count of devices
 * of the default's kind (the GPUs; with none, the devices of the first
 * device's type, so that PoCL's devices stand in for GPUs in tests). */
static int rank_device(int dflt)
{
    static const char *const vars[] = { "MPI_LOCALRANKID", "OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID" };
    const char *var = NULL, *val = NULL;
    for (int i = 0; i < 3 && !val; i++)
        if ((val = getenv(vars[i])) != NULL && *val)
            var = vars[i];
        else
            val = NULL;
    if (!val || atoi(val) < 0)
        return dflt;
    cl_device_type kind = (devs[dflt].type & CL_DEVICE_TYPE_GPU) ? CL_DEVICE_TYPE_GPU : devs[dflt].type;
    int same[MAXDEV], n = 0;
    for (int i = 0; i < ndev; i++)
        if ((devs[i].type & kind) == kind)
            same[n++] = i;
    int pick = n ? same[atoi(val) % n] : dflt;
    if (verbose)
        fprintf(stderr, "gpublas3: local rank %d (%s): device %d:%d %s, %d of %d\n", atoi(val), var,
                devs[pick].pi, devs[pick].di, devs[pick].name, atoi(val) % (n ? n : 1), n);
    return pick;
}

static void read_tuning(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    /* One per CPU: on the H100 host (16 CPUs), dgemm_ from host arrays
     * took 49 ms with 16 copy threads against 62-71 ms with 8. */
    copy_threads = n > 1 ? (int)n : 1;
    if (copy_threads > 16)
        copy_threads = 16;
    const char *env = getenv("GPUBLAS3_VERBOSE");
    verbose = env && *env && strcmp(env, "0") != 0;
    env = getenv("GPUBLAS3_PANEL_KB");
    panel_bytes = (size_t)32 << 20;
    if (env && atol(env) > 0)
        panel_bytes = (size_t)atol(env) << 10;
}

static void release_all(void);
static void pool_stop(void);

static void init(void)
{
    read_tuning();
    cl_platform_id plats[16];
    cl_uint np = 0;
    cl_int err = clGetPlatformIDs(16, plats, &np);
    if (err != CL_SUCCESS)
        np = 0;
    for (cl_uint p = 0; p < np && p < 16; p++) {
        cl_device_id ids[MAXDEV];
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, MAXDEV, ids, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < nd && d < MAXDEV && ndev < MAXDEV; d++) {
            device *v = &devs[ndev++];
            cl_device_fp_config fp64 = 0;
            *v = (device){ .plat = plats[p], .id = ids[d], .pi = (int)p, .di = (int)d };
            clGetDeviceInfo(ids[d], CL_DEVICE_TYPE, sizeof v->type, &v->type, NULL);
            clGetDeviceInfo(ids[d], CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL);
            v->fp64 = fp64 != 0;
            if (clGetDeviceInfo(ids[d], CL_DEVICE_NAME, sizeof v->name - 1, v->name, NULL) != CL_SUCCESS)
                strcpy(v->name, "unnamed device");
        }
    }
    if (ndev == 0) {
        fprintf(stderr, "gpublas3: no OpenCL device found (%s); BLAS calls run on plain host loops, slowly\n",
                np == 0 && err != CL_SUCCESS ? "no OpenCL platform" : "no device on any platform");
        host_warned = 1;
        return;
    }

    int first = 0;
    for (int i = ndev - 1; i >= 0; i--)
        if (devs[i].type & CL_DEVICE_TYPE_GPU)
            first = i;
    const char *env = getenv("GPUBLAS3_DEVICE");
    if (!env || !*env || strcasecmp(env, "gpu") == 0) {
        if (env && *env && !(devs[first].type & CL_DEVICE_TYPE_GPU))
            fprintf(stderr, "gpublas3: GPUBLAS3_DEVICE=gpu: no GPU; using %d:%d %s\n", devs[first].pi,
                    devs[first].di, devs[first].name);
        first = rank_device(first);
    } else {
        int c = parse_choice(env);
        if (c == -2) {
            fprintf(stderr, "gpublas3: GPUBLAS3_DEVICE=host: BLAS calls run on the host BLAS if there is one, else on plain host loops, slowly\n");
            host_warned = 1;
            return;
        }
        if (c >= 0) {
            first = c;
        } else {
            fprintf(stderr, "gpublas3: GPUBLAS3_DEVICE=\"%s\" names no OpenCL device; using %d:%d %s. "
                    "Devices (give `gpu`, `cpu`, P:D or part of a name):\n", env, devs[first].pi,
                    devs[first].di, devs[first].name);
            list_devices();
        }
    }
    /* The chosen device first, then the others as fallbacks, in platform order. */
    order[norder++] = first;
    for (int i = 0; i < ndev; i++)
        if (i != first)
            order[norder++] = i;
    if (gpublas3Setup() == gpublas3Success)
        setup_done = 1;
    atexit(release_all);
}

/* Gives back a staging buffer: pinned (mapped OpenCL memory) or plain. */
static void release_pinned(g3h_slot *s, g3h_pinned *p)
{
    if (p->mem) {
        clEnqueueUnmapMemObject(s->q[G3H_UP], p->mem, p->ptr, 0, NULL, NULL);
        clFinish(s->q[G3H_UP]);
        clReleaseMemObject(p->mem);
    } else {
        free(p->ptr);
    }
}

static void destroy_slot(g3h_slot *s)
{
    for (int i = 0; i < G3H_NPINNED; i++)
        release_pinned(s, &s->pin[i]);
    for (int i = 0; i < G3H_NDEVBUF; i++)
        if (s->buf[i].mem)
            clReleaseMemObject(s->buf[i].mem);
    for (int i = 0; i < G3H_NQUEUES; i++)
        if (s->q[i])
            clReleaseCommandQueue(s->q[i]);
    free(s);
}

/* Runs at exit: every pooled slot and every context no slot still uses.
 * A call still running in another thread keeps its slot and context. */
static void release_all(void)
{
    pthread_mutex_lock(&lock);
    closed = 1;
    for (int i = 0; i < ndev; i++) {
        device *v = &devs[i];
        while (v->pool) {
            g3h_slot *s = v->pool;
            v->pool = s->next;
            destroy_slot(s);
            v->live--;
        }
        if (v->ctx && v->live == 0) {
            clReleaseContext(v->ctx);
            v->ctx = NULL;
        }
    }
    pthread_mutex_unlock(&lock);
    pool_stop();
    if (setup_done)
        gpublas3Teardown();
}

static g3h_slot *make_slot(int d, cl_int *err)
{
    g3h_slot *s = calloc(1, sizeof *s);
    if (!s) {
        *err = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    s->dev = d;
    s->ctx = devs[d].ctx;
    *err = CL_SUCCESS;
    for (int i = 0; i < G3H_NQUEUES && *err == CL_SUCCESS; i++)
        s->q[i] = clCreateCommandQueue(s->ctx, devs[d].id, 0, err);
    if (*err != CL_SUCCESS) {
        destroy_slot(s);
        return NULL;
    }
    return s;
}

static void mark_bad(int d, int dbl, const char *why)
{
    device *v = &devs[d];
    if (v->bad[dbl])
        return;
    v->bad[dbl] = 1;
    fprintf(stderr, "gpublas3: %s precision will not run on %d:%d %s: %s\n",
            dbl ? "double" : "single", v->pi, v->di, v->name, why);
}

g3h_slot *g3h_acquire(int dbl, unsigned skip, const char *routine)
{
    pthread_once(&once, init);
    if (!setup_done)
        return NULL;
    g3h_slot *s = NULL;
    pthread_mutex_lock(&lock);
    for (int k = 0; k < norder && !s && !closed; k++) {
        int d = order[k];
        device *v = &devs[d];
        if ((skip >> d & 1) || v->bad[dbl])
            continue;
        if (dbl && !v->fp64) {
            mark_bad(d, 1, "the device has no double precision (cl_khr_fp64)");
            continue;
        }
        cl_int err = CL_SUCCESS;
        if (!v->ctx) {
            cl_context_properties props[] = { CL_CONTEXT_PLATFORM, (cl_context_properties)v->plat, 0 };
            v->ctx = clCreateContext(props, 1, &v->id, NULL, NULL, &err);
            if (err != CL_SUCCESS) {
                char buf[96];
                v->ctx = NULL;
                mark_bad(d, 0, error_text(err, buf, sizeof buf));
                mark_bad(d, 1, buf);
                continue;
            }
        }
        if (v->pool) {
            s = v->pool;
            v->pool = s->next;
        } else if ((s = make_slot(d, &err)) != NULL) {
            v->live++;
        } else {
            char buf[96];
            mark_bad(d, dbl, error_text(err, buf, sizeof buf));
            continue;
        }
        if (k > 0 && !v->announced[dbl]) {
            v->announced[dbl] = 1;
            fprintf(stderr, "gpublas3: %s runs on %d:%d %s instead\n", routine, v->pi, v->di, v->name);
        }
    }
    pthread_mutex_unlock(&lock);
    return s;
}

void g3h_release(g3h_slot *s)
{
    pthread_mutex_lock(&lock);
    s->next = devs[s->dev].pool;
    devs[s->dev].pool = s;
    pthread_mutex_unlock(&lock);
}

unsigned g3h_failed(g3h_slot *s, int dbl, const char *routine, cl_int err)
{
    int d = s->dev;
    char buf[96], why[160];
    error_text(err, buf, sizeof buf);
    int memory = err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES ||
                 err == CL_OUT_OF_HOST_MEMORY || err == CL_INVALID_BUFFER_SIZE;
    pthread_mutex_lock(&lock);
    device *v = &devs[d];
    if (memory) {
        /* Perhaps only this call is too big for the device: the next call
         * tries it again. */
        if (!v->warned_memory) {
            v->warned_memory = 1;
            fprintf(stderr, "gpublas3: %s ran short of memory on %d:%d %s (%s); "
                    "such calls go to the next device\n", routine, v->pi, v->di, v->name, buf);
        }
    } else {
        snprintf(why, sizeof why, "%s failed there (%s)", routine, buf);
        mark_bad(d, dbl, why);
    }
    destroy_slot(s);
    v->live--;
    pthread_mutex_unlock(&lock);
    return 1u << d;
}

void g3h_note_host_fallback(const char *routine)
{
    pthread_mutex_lock(&lock);
    if (!host_warned) {
        host_warned = 1;
        fprintf(stderr, "gpublas3: no usable OpenCL device left for %s; computing on plain host loops, slowly\n",
                routine);
    }
    pthread_mutex_unlock(&lock);
}

static size_t grown(size_t have, size_t need)
{
    size_t n = have + have / 2;
    n = n > need ? n : need;
    return (n + 65535) & ~(size_t)65535;
}

cl_mem g3h_devbuf_get(g3h_slot *s, int i, size_t bytes, cl_int *err)
{
    g3h_devbuf *b = &s->buf[i];
    *err = CL_SUCCESS;
    if (b->mem && b->size >= bytes)
        return b->mem;
    if (b->mem)
        clReleaseMemObject(b->mem);
    size_t size = grown(b->size, bytes);
    b->mem = clCreateBuffer(s->ctx, CL_MEM_READ_WRITE, size, NULL, err);
    if (*err != CL_SUCCESS) {
        size = bytes ? bytes : 1;
        b->mem = clCreateBuffer(s->ctx, CL_MEM_READ_WRITE, size, NULL, err);
    }
    if (*err != CL_SUCCESS) {
        b->mem = NULL;
        size = 0;
    }
    b->size = size;
    return b->mem;
}

void *g3h_pinned_get(g3h_slot *s, int i, size_t bytes, cl_int *err)
{
    g3h_pinned *p = &s->pin[i];
    *err = CL_SUCCESS;
    if (p->ptr && p->size >= bytes)
        return p->ptr;
    release_pinned(s, p);
    size_t size = grown(p->size, bytes);
    *p = (g3h_pinned){ NULL, NULL, 0 };
    cl_int e;
    p->mem = clCreateBuffer(s->ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, size, NULL, &e);
    if (e == CL_SUCCESS) {
        p->ptr = clEnqueueMapBuffer(s->q[G3H_UP], p->mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, size,
                                    0, NULL, NULL, &e);
        if (e != CL_SUCCESS) {
            clReleaseMemObject(p->mem);
            p->mem = NULL;
            p->ptr = NULL;
        }
    } else {
        p->mem = NULL;
    }
    if (!p->ptr && posix_memalign(&p->ptr, 4096, size) != 0) {
        /* Pinned memory is a speed-up; ordinary memory does the same job. */
        p->ptr = NULL;
        *err = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    p->size = size;
    return p->ptr;
}

int g3h_copy_threads(void)
{
    pthread_once(&once, init);
    return copy_threads;
}

int g3h_verbose(void)
{
    pthread_once(&once, init);
    return verbose;
}

const char *g3h_chosen_device(cl_device_type *type)
{
    pthread_once(&once, init);
    if (!setup_done || norder == 0)
        return NULL;
    *type = devs[order[0]].type;
    return devs[order[0]].name;
}

int g3h_solve_leaves(int dbl, int cplx)
{
    g3_params p;
    cl_ulong local_mem = 0;
    pthread_once(&once, init);
    return setup_done && norder > 0 &&
           g3_device_params(devs[order[0]].id, dbl, G3_SHAPE_LARGE, &p) == gpublas3Success &&
           clGetDeviceInfo(devs[order[0]].id, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_mem, &local_mem, NULL) ==
               CL_SUCCESS &&
           g3_solve_leaves(&p, cplx, local_mem);
}

const char *g3h_device_name(const g3h_slot *s)
{
    return devs[s->dev].name;
}

double g3h_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

size_t g3h_panel_bytes(void)
{
    pthread_once(&once, init);
    return panel_bytes;
}

/* The copy threads: started on the first parallel copy, kept, stopped at
 * exit.  One job at a time; a caller that finds them busy (another thread's
 * call is copying) does its copy alone rather than wait. */
static struct {
    pthread_mutex_t lock, busy;
    pthread_cond_t go, done;
    pthread_t th[64];
    int started, quit;
    unsigned long generation;
    void (*fn)(void *, int, int);
    void *arg;
    int n, pending;
} pool = { .lock = PTHREAD_MUTEX_INITIALIZER, .busy = PTHREAD_MUTEX_INITIALIZER,
           .go = PTHREAD_COND_INITIALIZER, .done = PTHREAD_COND_INITIALIZER };

static void *pool_worker(void *p)
{
    int t = (int)(size_t)p;
    unsigned long seen = 0;
    pthread_mutex_lock(&pool.lock);
    for (;;) {
        while (!pool.quit && pool.generation == seen)
            pthread_cond_wait(&pool.go, &pool.lock);
        if (pool.quit)
            break;
        seen = pool.generation;
        if (t < pool.n) {
            pthread_mutex_unlock(&pool.lock);
            pool.fn(pool.arg, t, pool.n);
            pthread_mutex_lock(&pool.lock);
            if (--pool.pending == 0)
                pthread_cond_signal(&pool.done);
        }
    }
    pthread_mutex_unlock(&pool.lock);
    return NULL;
}

static void pool_stop(void)
{
    pthread_mutex_lock(&pool.lock);
    pool.quit = 1;
    pthread_cond_broadcast(&pool.go);
    pthread_mutex_unlock(&pool.lock);
    for (int t = 1; t < pool.started; t++)
        pthread_join(pool.th[t], NULL);
    pool.started = 0;
}

void g3h_parallel(void (*fn)(void *arg, int t, int n), void *arg, int want)
{
    int n = want < g3h_copy_threads() ? want : g3h_copy_threads();
    if (n <= 1 || pthread_mutex_trylock(&pool.busy) != 0) {
        fn(arg, 0, 1);
        return;
    }
    pthread_mutex_lock(&pool.lock);
    while (!pool.quit && pool.started < n) {
        int t = pool.started ? pool.started : 1;
        if (pthread_create(&pool.th[t], NULL, pool_worker, (void *)(size_t)t) != 0)
            break;
        pool.started = t + 1;
    }
    if (pool.quit || pool.started < n)
        n = pool.started > 1 && !pool.quit ? pool.started : 1;
    pool.fn = fn;
    pool.arg = arg;
    pool.n = n;
    pool.pending = n - 1;
    pool.generation++;
    pthread_cond_broadcast(&pool.go);
    pthread_mutex_unlock(&pool.lock);
    fn(arg, 0, n);
    pthread_mutex_lock(&pool.lock);
    while (pool.pending > 0)
        pthread_cond_wait(&pool.done, &pool.lock);
    pthread_mutex_unlock(&pool.lock);
    pthread_mutex_unlock(&pool.busy);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-device state, made on first use of a (context, device) pair and kept
 * until the last Teardown: what the device can do and the tuned parameters
 * chosen for it. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core.h"
#include "names.h"

typedef struct entry { g3_device d; struct entry *next; } entry;
static entry *devices;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void info_string(cl_device_id dev, cl_device_info what, char *buf, size_t n)
{
    buf[0] = 0;
    if (clGetDeviceInfo(dev, what, n - 1, buf, NULL) != CL_SUCCESS)
        buf[0] = 0;
    buf[n - 1] = 0;
}

/* The plan's fields a table row leaves 0, and cvec and rtmap, which no row sets.  Measured on PoCL (docs/performance.md,
 * PoCL); the GPU values are starting points for the H100
 * rows to set. */
static void plan_defaults(g3_params *p, int cpu)
{
    /* CPU: one column of 4 work-items, each with an 8 x 8 register tile
     * (a 32 x 8 tile: a 32^3 call is 4 work-groups, none of them past the
     * edge); on PoCL work-groups of 5 to 8 work-items along M ran the same
     * tiles 2-3x slower than 1, 2 or 4 (docs/performance.md).
     * GPU: 32 x 8 work-items, one element each: a warp along one column of
     * C, whose reads and writes are then whole lines (the H100: 256^3 1.1x
     * faster than on 16 x 16, docs/performance.md) */
    if (!p->direct_dm) p->direct_dm = cpu ? 4 : 32;
    if (!p->direct_dn) p->direct_dn = cpu ? 1 : 8;
    if (!p->direct_wm) p->direct_wm = cpu ? 8 : 1;
    if (!p->direct_wn) p->direct_wn = cpu ? 8 : 1;
    /* complex direct products staged in k-blocks of 8 on GPUs (kernels/direct.cl
     * says why; H200: C 32^3 batches 1.4x faster than blocks of 16 or 32,
     * Z within 8 %, docs/performance.md, Batched GEMM) */
    if (!p->direct_kb) p->direct_kb = cpu ? 1 : 8;
    if (!p->direct_max) p->direct_max = cpu ? (p->precision == 64 ? 56 : 40) : 128;
    /* a batch's tiny products: on PoCL a work-group costs microseconds
     * whatever it computes (docs/performance.md, Batched GEMM); GPUs: one
     * product a work-group, not measured otherwise */
    if (!p->direct_nb) p->direct_nb = cpu ? 16384 : 1;
    if (!p->splitk_k) p->splitk_k = cpu ? 512 : 256;
    /* one work-group per compute unit; the H100's rows set more
     * (docs/performance.md) */
    if (!p->splitk_wgs) p->splitk_wgs = 1;
    if (!p->deepk_max) p->deepk_max = 512;
    if (!p->skinny_max) p->skinny_max = 128;
    /* C's vectors stored whole: on PoCL an update of K = 64 ran 2-3x
     * faster (docs/performance.md); on GPUs not measured yet */
    p->cvec = cpu;
    /* the map of ids to tiles and the operands' strides from arguments on
     * CPUs, one build for nearly all launches: PoCL compiles each GEMM
     * build 11-18 s (docs/testing.md); GPUs keep them constants (H200 S
     * SYRK 4096 1.2x slower from arguments) */
    p->rtmap = cpu;
}

/* The most specific table row for this device and shape class: its name,
 * then its vendor, then its type, then the default, and at each of those a
 * row for the class before one for any class; of two such rows the user's
 * (lib/usertable.c, looked at first) before the built-in one.  A row the
 * device cannot run is passed over, so a bad table entry costs speed,
 * never a failed call.
 * GPUBLAS3_PARAMS applies on top; `say`: a list it refuses is reported. */
static void choose_params(cl_device_id dev, int precision, int shape, size_t max_wg, size_t local_mem,
                          g3_params *out, int say)
{
    char name[256], vendor[256];
    cl_device_type type = 0;
    info_string(dev, CL_DEVICE_NAME, name, sizeof name);
    info_string(dev, CL_DEVICE_VENDOR, vendor, sizeof vendor);
    clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    const int nvidia = g3_contains_nocase(vendor, "NVIDIA");
    const char *typestr = (type & CL_DEVICE_TYPE_GPU) ? "type:gpu" : (type & CL_DEVICE_TYPE_CPU) ? "type:cpu" : "type:other";
    const g3_params *best = NULL;
    int best_rank = 0;
    const int cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
    int nuser;
    const g3_params *user = g3_user_rows(&nuser);
    for (int i = 0; i < nuser + g3_tuned_count; i++) {
        const g3_params *p = i < nuser ? &user[i] : &g3_tuned_table[i - nuser];
        g3_params full = *p;
        plan_defaults(&full, cpu);
        int rank = 0;
        if (p->precision != precision || g3_params_invalid(&full, max_wg, local_mem) || (g3_params_nvidia_only(p) && !nvidia) ||
            (p->shape != G3_SHAPE_ANY && p->shape != shape))
            continue;
        if (strcmp(p->match, "default") == 0) rank = 1;
        else if (strncmp(p->match, "type:", 5) == 0) rank = strcmp(p->match, typestr) == 0 ? 2 : 0;
        else if (strncmp(p->match, "vendor:", 7) == 0) rank = g3_contains_nocase(vendor, p->match + 7) ? 3 : 0;
        else rank = g3_names_device(name, p->match) ? 4 : 0;
        rank = rank * 2 + (p->shape == shape);
        if (rank > 1 && rank > best_rank) { best = p; best_rank = rank; }
    }
    if (best) *out = *best;
    else *out = (g3_params){ .table = "built-in", .match = "default", .precision = precision,
        .mwg = 16, .nwg = 16, .kwg = 8, .mdimc = 8, .ndimc = 8, .vwm = 1, .vwn = 1, .kwi = 1,
        .sa = 1, .sb = 1, .copy_ts = 16, .copy_rs = 4, .trsm_nb = G3_TRSM_NB,
        .trsm_refine = G3_TRSM_REFINE, .trsm_cols = G3_TRSM_COLS, .trsm_leaf = G3_TRSM_LEAF };
    plan_defaults(out, cpu);
    const char *env = getenv("GPUBLAS3_PARAMS");
    if (env && *env) {
        g3_params trial = *out;
        const int named = g3_params_override_env(&trial, shape, env);
        const char *why = named < 0 ? "cannot be parsed"
                          : g3_params_nvidia_only(&trial) && !nvidia ? "mma, cpref and async need an NVIDIA device"
                          : g3_params_invalid(&trial, max_wg, local_mem);
        /* said once per precision, not once per class, unless a list names the class */
        if (why && say && (shape == G3_SHAPE_LARGE || named > 0))
            fprintf(stderr, "gpublas3: GPUBLAS3_PARAMS=\"%s\" ignored%s%s: %s\n", env,
                    named > 0 ? " for the set of class " : "", named > 0 ? g3_shape_names[shape] : "", why);
        else if (!why)
            *out = trial;
    }
}

/* The index of GPUBLAS3_<var>'s value among names (a number from 2 to
 * G3_MAX_SPLITS when names is NULL), else -1, said on stderr when the
 * variable is set. */
static int env_choice(const char *var, const char *const *names, int n)
{
    char full[32];
    snprintf(full, sizeof full, "GPUBLAS3_%s", var);
    const char *v = getenv(full);
    if (!v || !*v)
        return -1;
    char *end;
    long k = strtol(v, &end, 10);
    if (!names && !*end && k >= 2 && k <= G3_MAX_SPLITS)
        return (int)k;
    for (int i = 0; names && i < n; i++)
        if (strcmp(v, names[i]) == 0)
            return i;
    char list[64] = "";
    for (int i = 0; names && i < n; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", names[i]);
    if (!names)
        snprintf(list, sizeof list, "from 2 to %d", G3_MAX_SPLITS);
    fprintf(stderr, "gpublas3: %s=\"%s\" ignored: not %s\n", full, v, list);
    return -1;
}

/* What the plan is forced to choose, for tests and the plan sweep
 * (bench/plan_sweep.sh): GPUBLAS3_PLAN a path where it can run,
 * GPUBLAS3_SHAPE the class whose set runs every call, GPUBLAS3_SPLITS
 * split-K's slices (the split-K path with them, unless GPUBLAS3_PLAN names
 * another).  Read here, once per device state (a Teardown and Setup read
 * them again). */
static void read_forcing(g3_device *d)
{
    static const char *const paths[] = { "packed", "direct", "splitk" }; /* g3_path's order */
    const int splitk = 2;
    d->plan_force = env_choice("PLAN", paths, 3);
    d->shape_force = env_choice("SHAPE", g3_shape_names, G3_NSHAPES);
    int splits = env_choice("SPLITS", NULL, 0);
    if (splits > 0 && d->plan_force >= 0 && d->plan_force != splitk)
        fprintf(stderr, "gpublas3: GPUBLAS3_SPLITS ignored: GPUBLAS3_PLAN=%s\n", paths[d->plan_force]);
    else if (splits > 0)
        d->plan_force = splitk;
    d->splits_force = d->plan_force != splitk ? 0 : splits > 0 ? splits : 3;
}

/* PoCL's CPU device, whose launches of one kernel must not overlap
 * (lib/launch.c).  Every version: later ones than 3.1 were not tried. */
static int pocl_cpu(cl_device_id dev)
{
    cl_device_type type = 0;
    char version[256] = "";
    clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_VERSION, sizeof version - 1, version, NULL);
    return (type & CL_DEVICE_TYPE_CPU) && strstr(version, "PoCL");
}

void g3_kset_defines(g3_kset *k)
{
    for (int c = 0; c < 2; c++)
        for (int b = 0; b < 2; b++) {
            g3_params v = k->p;
            v.cpref = c ? v.cpref : 0;
            v.swz = b && v.swz == 2 ? 0 : v.swz;
            g3_params_defines(&v, k->gemm_defines[c][b], sizeof k->gemm_defines[c][b]);
        }
    g3_params_copy_defines(&k->p, k->copy_defines, sizeof k->copy_defines);
    g3_params_direct_defines(&k->p, k->direct_defines, sizeof k->direct_defines);
    snprintf(k->reduce_defines, sizeof k->reduce_defines, "-DPRECISION=%d", k->p.precision);
}

static gpublas3Status make(cl_context ctx, cl_device_id dev, g3_device *d)
{
    memset(d, 0, sizeof *d);
    d->ctx = ctx;
    d->dev = dev;
    cl_device_fp_config fp64 = 0;
    size_t max_wg = 0;
    cl_ulong local_mem = 0;
    if (clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof d->max_alloc, &d->max_alloc, NULL) != CL_SUCCESS ||
        clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof d->global_mem, &d->global_mem, NULL) != CL_SUCCESS ||
        clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_wg, &max_wg, NULL) != CL_SUCCESS ||
        clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_mem, &local_mem, NULL) != CL_SUCCESS)
        return gpublas3InvalidDevice;
    clGetDeviceInfo(dev, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL);
    d->has_fp64 = fp64 != 0;
    cl_bool unified = CL_FALSE;
    clGetDeviceInfo(dev, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, NULL);
    d->host_memory = unified == CL_TRUE;
    clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof d->compute_units, &d->compute_units, NULL);
    d->max_wg = max_wg;
    d->local_mem = local_mem;
    d->one_launch = pocl_cpu(dev);
    const char *pocl_cache = getenv("POCL_KERNEL_CACHE");
    d->driver_cache = d->one_launch && !(pocl_cache && strcmp(pocl_cache, "0") == 0);
    for (int i = 0; i < 2; i++)
        for (int s = 0; s < G3_NSHAPES; s++) {
            g3_kset *k = &d->sets[i][s];
            choose_params(dev, i ? 64 : 32, s, max_wg, local_mem, &k->p, 1);
            g3_kset_defines(k);
        }
    read_forcing(d);
    return gpublas3Success;
}

gpublas3Status g3_device_params(cl_device_id dev, int dbl, int shape, g3_params *out)
{
    size_t max_wg = 0;
    cl_ulong local_mem = 0;
    if (clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_wg, &max_wg, NULL) != CL_SUCCESS ||
        clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_mem, &local_mem, NULL) != CL_SUCCESS)
        return gpublas3InvalidDevice;
    choose_params(dev, dbl ? 64 : 32, shape, max_wg, local_mem, out, 0);
    return gpublas3Success;
}

gpublas3Status g3_device_of(cl_command_queue q, const g3_device **out)
{
    cl_context ctx;
    cl_device_id dev;
    if (clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL) != CL_SUCCESS ||
        clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL) != CL_SUCCESS)
        return gpublas3InvalidCommandQueue;
    gpublas3Status st = gpublas3Success;
    pthread_mutex_lock(&lock);
    entry *e = devices;
    while (e && (e->d.ctx != ctx || e->d.dev != dev))
        e = e->next;
    if (!e) {
        e = malloc(sizeof *e);
        if (!e)
            st = gpublas3OutOfHostMemory;
        else if ((st = make(ctx, dev, &e->d)) != gpublas3Success) {
            free(e);
            e = NULL;
        } else {
            clRetainContext(ctx);
            e->next = devices;
            devices = e;
        }
    }
    pthread_mutex_unlock(&lock);
    *out = e ? &e->d : NULL;
    return st;
}

void g3_device_release_all(void)
{
    pthread_mutex_lock(&lock);
    while (devices) {
        entry *e = devices;
        devices = e->next;
        clReleaseContext(e->d.ctx);
        free(e);
    }
    pthread_mutex_unlock(&lock);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/'s core, the floor every other one stands on: per-device state, the
 * program cache, the argument checker, the event chain and launch helper,
 * the scratch pool.  Internal only: nothing here is exported from the
 * library.  Above it: copy/ and kernels/ (host sides of the .cl files),
 * then routines/plan/ (which composes them), then routines/. */
#ifndef G3_CORE_H
#define G3_CORE_H
#include <pthread.h>
#include <stddef.h>
#include "gpublas3.h"
#include "params.h"

/* ---- library state (lib/setup.c) ---- */
int g3_initialized(void);

/* ---- one device of one context (lib/device.c) ---- */
/* One tuned parameter set, ready to compile: the -D options of the GEMM,
 * copy, direct and reduction kernels made once.  The GEMM's come four
 * ways, [cpref][band]: with C's prefetch or without (for the launches
 * kernels/gemm.c gives none), and for a band's launch, unswizzled where
 * the set's swz is 2. */
typedef struct {
    g3_params p;
    char gemm_defines[2][2][256], copy_defines[256], direct_defines[128], reduce_defines[32];
} g3_kset;
/* Makes k's -D options from k->p (lib/device.c). */
void g3_kset_defines(g3_kset *k);
/* Split-K's most slices (routines/plan/splitk.c). */
#define G3_MAX_SPLITS 64
typedef struct {
    cl_context ctx;
    cl_device_id dev;
    int has_fp64;
    int host_memory;  /* CL_DEVICE_HOST_UNIFIED_MEMORY: its buffers live in the host's memory */
    cl_ulong max_alloc, global_mem;
    cl_uint compute_units;
    size_t max_wg;    /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
    cl_ulong local_mem; /* CL_DEVICE_LOCAL_MEM_SIZE */
    /* [0] single, [1] double; one set per shape class (lib/params.h) */
    g3_kset sets[2][G3_NSHAPES];
    /* what the plan is forced to choose (lib/device.c reads the variables) */
    int plan_force;   /* GPUBLAS3_PLAN: -1 none, else the g3_path (routines/plan/plan.h) */
    int shape_force;  /* GPUBLAS3_SHAPE: -1 none, else the G3_SHAPE_* whose set runs every call */
    int splits_force; /* GPUBLAS3_SPLITS (GPUBLAS3_PLAN=splitk alone: 3): slices asked of split-K, else 0 */
    int one_launch;   /* a kernel's launches run one at a time (PoCL's CPU device: lib/launch.c says why) */
    int driver_cache; /* the driver caches compiled programs itself (PoCL: lib/diskcache.c says why) */
} g3_device;
/* The state of the queue's device, made on first use; NULL only when out of memory. */
gpublas3Status g3_device_of(cl_command_queue q, const g3_device **out);
/* The parameter set a device's calls of that precision and shape class
 * get (GPUBLAS3_PARAMS applied), as its state would hold it, without a
 * context (the drop-ins' crossover model asks before any call has made one). */
gpublas3Status g3_device_params(cl_device_id dev, int dbl, int shape, g3_params *out);
void g3_device_release_all(void);

/* ---- programs (lib/program.c): built once per (context, device, source, options) ---- */
extern const char g3_src_gemm[], g3_src_pack[], g3_src_direct[], g3_src_reduce[];
/* The launches of one kernel (source, options, name) in every context and
 * device, where they must run one at a time (g3_device.one_launch,
 * lib/launch.c says why): the last one not gated by its caller. */
typedef struct {
    pthread_mutex_t lock;
    cl_event last;
} g3_launches;
/* Kernel `name` of that program, made once and kept until Teardown.  Its
 * arguments are state two threads must not share: its user holds `lock`
 * from the first clSetKernelArg to the enqueue (which captures them). */
typedef struct {
    cl_kernel kernel;
    pthread_mutex_t lock;
    g3_launches *launches;
} g3_kern;
gpublas3Status g3_kernel(const g3_device *d, const char *src, const char *name, const char *options,
                         g3_kern **out);
void g3_program_release_all(void);
/* The compiled-program cache on disk (lib/diskcache.c): a program built from
 * the stored binary, or NULL (none, stale, corrupt: build from source); and
 * storing a program just built from source.  Failures only cost time. */
cl_program g3_diskcache_load(const g3_device *d, const char *src, const char *options);
void g3_diskcache_store(const g3_device *d, const char *src, const char *options, cl_program p);

/* ---- argument checks (lib/check.c) ---- */
typedef struct {
    cl_mem buf;
    size_t off, ld;
    size_t rows, cols;  /* the matrix as stored, in the call's order */
} g3_matrix;
/* A call's arguments as the checker sees them; each routine fills one in. */
typedef struct {
    const char *routine;  /* "gemm", "hemm", ...: "gpublas3" + type + routine names the call */
    char type;            /* 'S', 'D', 'C' or 'Z' */
    size_t esize;         /* bytes per element */
    gpublas3Order order;
    struct { const char *name; int value, ok; } enums[4]; /* the other enum arguments; a NULL name ends */
    struct { const char *name; size_t value; } dims[3];   /* M, N, K as the routine names them */
    const g3_matrix *mats[3]; /* A, B, C; NULL for a matrix the routine does not take */
} g3_args;
/* Checks, in this order: Setup done, every queue (valid, and all of one
 * context: gpublas3InvalidContext otherwise), wait list, enum values, the
 * dimensions (gpublas3InvalidDim where one times the element size exceeds
 * 2^62: no buffer holds that, so it is a negative int passed as size_t or
 * the like), then for A, B, C in turn the leading dimension, the buffer,
 * its context and its size.  GPUBLAS3_VERBOSE prints each refusal. */
gpublas3Status g3_check_call(const g3_args *a, cl_uint nq, const cl_command_queue *qs, cl_uint nwait,
                             const cl_event *wait);
/* Returns st; under GPUBLAS3_VERBOSE first prints the one line naming the
 * refused argument (printf-style), for a routine's checks of its own. */
gpublas3Status g3_refuse(const g3_args *a, gpublas3Status st, const char *fmt, ...);
/* The checks of TRMM and TRSM, which take the same arguments: A is the
 * side's square, B the M x N in-out matrix. */
gpublas3Status g3_check_triangular(const char *routine, char type, size_t esize, gpublas3Order order,
                                   gpublas3Side side, gpublas3Uplo uplo, gpublas3Transpose trans,
                                   gpublas3Diag diag, size_t M, size_t N, cl_mem A, size_t offA, size_t lda,
                                   cl_mem B, size_t offB, size_t ldb, cl_uint nq, const cl_command_queue *qs,
                                   cl_uint nwait, const cl_event *wait);
int g3_valid_order(gpublas3Order o);
int g3_valid_trans(gpublas3Transpose t);
int g3_valid_uplo(gpublas3Uplo u);
int g3_valid_side(gpublas3Side s);
int g3_valid_diag(gpublas3Diag d);

/* ---- the event chain (lib/launch.c): every step waits for the previous
 * one (the first for the caller's wait list), and the caller's events[0]
 * gets the last.  `steps` counts the commands enqueued (GPUBLAS3_VERBOSE prints it
 * for TRSM, whose cost on a GPU is mostly their number).  `quiet`: the
 * caller takes no event (g3_run); `eventless`: the next step is the
 * call's last and nothing needs its event, so it is enqueued without one
 * (the direct path's one launch when quiet: an event costs NVIDIA's
 * driver 2 µs of a 20 µs call, docs/performance.md). */
typedef struct {
    cl_command_queue q;
    cl_uint nwait;
    const cl_event *wait;
    cl_event last;
    unsigned steps;
    int quiet, eventless;
    int gated; /* where one_launch: the call waits on an event the caller has yet to set (-1: not yet asked) */
} g3_chain;
void g3_chain_init(g3_chain *c, cl_command_queue q, cl_uint nwait, const cl_event *wait);
/* The wait list for the next step. */
cl_uint g3_chain_deps(const g3_chain *c, const cl_event **deps);
/* Records the step just enqueued with event ev. */
void g3_chain_push(g3_chain *c, cl_event ev);
/* Hands the last event to events[0] (a marker when nothing was enqueued),
 * or releases it. */
gpublas3Status g3_chain_finish(g3_chain *c, cl_event *events);
/* Teardown: forget the gated calls' events (lib/launch.c). */
void g3_launch_release_all(void);
void g3_chain_abandon(g3_chain *c);

/* The buffer whose storage m is: a sub-buffer's parent, with *at (bytes)
 * moved by the sub-buffer's origin; else m itself. */
cl_mem g3_storage(cl_mem m, size_t *at);
/* Copies the rows x cols column-major matrix at element soff (leading
 * dimension sld) of src to element doff (dld) of dst, es bytes per element,
 * as the chain's next step(s) (clEnqueueCopyBufferRect). */
gpublas3Status g3_copy_matrix(g3_chain *c, cl_mem src, size_t soff, size_t sld, cl_mem dst, size_t doff,
                              size_t dld, size_t rows, size_t cols, size_t es);

typedef struct { size_t size; const void *value; } g3_arg;
#define G3_ARG(v) ((g3_arg){ sizeof(v), &(v) })
/* A scalar argument as a kernel of precision dbl takes it: real (re), or
 * complex {re, im} where cplx; its value is kept in *s, which must live
 * until the launch. */
typedef union { cl_float f; cl_double d; cl_float2 c; cl_double2 z; } g3_scalar_val;
g3_arg g3_scalar_arg(int dbl, int cplx, double re, double im, g3_scalar_val *s);
/* Enqueues kernel `name` of the program (src, options) on d, with the
 * arguments, over dims (1..3) dimensions, as the chain's next step. */
gpublas3Status g3_launch(g3_chain *c, const g3_device *d, const char *src, const char *name,
                         const char *options, cl_uint nargs, const g3_arg *args, cl_uint dims,
                         const size_t *global, const size_t *local);

/* ---- scratch buffers (lib/pool.c): a bounded pool per (context, device) ---- */
#define G3_SCRATCH_MAX 5
/* Scratch bytes one call may use on d: GPUBLAS3_SCRATCH_LIMIT, at most half
 * the device memory.  Also what the pool keeps per device between calls. */
size_t g3_scratch_limit(const g3_device *d);
/* Is err a device allocation failure (worth retrying with less)? */
int g3_alloc_failure(cl_int err);
/* n (<= G3_SCRATCH_MAX) buffers of bytes[i] (0: none, out[i] = NULL) for a
 * call on chain->q, resident on the device before anything else of the call
 * runs.  gpublas3OutOfResources when they cannot be had; nothing is held then. */
gpublas3Status g3_scratch_acquire(const g3_device *d, g3_chain *chain, int n, const size_t bytes[],
                                  cl_mem out[]);
/* Makes n buffers just acquired resident on chain->q's device, their
 * contents undefined, as the chain's next step: for scratch that the call
 * overwrites whole on a device other than the one its last user read it
 * on, so that a driver keeping one valid copy does not move the old
 * contents back (routines/plan/split.c). */
gpublas3Status g3_scratch_resident(g3_chain *chain, int n, cl_mem bufs[]);
/* Gives them back once the call is enqueued: reused after chain->last. */
void g3_scratch_release(const g3_device *d, const g3_chain *chain, int n, cl_mem bufs[]);
void g3_pool_release_all(void);

/* Passes a public routine's queue arguments on. */
#define G3_QUEUE_PASS numCommandQueues, commandQueues, numEventsInWaitList, eventWaitList, events

static inline size_t g3_roundup(size_t x, size_t m) { return (x + m - 1) / m * m; }
#endif

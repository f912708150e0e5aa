/* SPDX-License-Identifier: BSD-3-Clause */
/* A test-only layer over the OpenCL API, linked into the reliability test
 * programs: their definitions of clCreateBuffer, clEnqueueNDRangeKernel,
 * ... take precedence over libOpenCL's for every caller in the process,
 * libgpublas3 included, and forward to the real functions.  It
 *   - counts live references of buffers, events, kernels, programs and
 *     contexts, so a test can prove that a call or a Setup/Teardown cycle
 *     leaks no OpenCL object;
 *   - counts buffer creations, program builds from source and from binary,
 *     and enqueued commands;
 *   - injects faults: the n-th call of a chosen function fails, buffers
 *     above a size fail to be created or made resident, and the device can
 *     report a smaller CL_DEVICE_MAX_MEM_ALLOC_SIZE;
 *   - notes whether a kernel that may write a watched buffer was enqueued
 *     (any kernel taking it as an argument, except the copy kernel "pack",
 *     which only reads the buffers it is given as its source).
 * The library knows nothing of it: no switch in the library is needed. */
#ifndef REL_SHIM_H
#define REL_SHIM_H
#include <stddef.h>
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

typedef enum {
    SHIM_CREATE_BUFFER, SHIM_MIGRATE, SHIM_NDRANGE, SHIM_MARKER, SHIM_CREATE_KERNEL,
    SHIM_BUILD_PROGRAM, SHIM_CREATE_PROGRAM_SOURCE, SHIM_CREATE_PROGRAM_BINARY,
    SHIM_COPY_RECT,   /* clEnqueueCopyBufferRect and clEnqueueCopyBuffer (lib/launch.c g3_copy_matrix) */
    SHIM_ENQUEUE_ANY, /* every clEnqueue* above together */
    SHIM_NFUNCS
} shim_func;

typedef struct {
    long mems, events, kernels, programs, contexts; /* live references */
    long calls[SHIM_NFUNCS];                        /* successful calls */
    long bytes_live, bytes_peak;                    /* of buffers made through clCreateBuffer */
    long build_us;                                  /* microseconds spent in clBuildProgram */
} shim_counts;

void shim_get(shim_counts *out);
/* The OpenCL objects alive now beyond `start`'s, as "mems 0 events 1 ..."
 * in `out`; 0 when none is left (every test's check that a run or a
 * Teardown left nothing behind). */
int shim_left(const shim_counts *start, char *out, size_t len);
/* Resets calls[] and bytes_peak (to bytes_live); live counts stay. */
void shim_reset_calls(void);

/* Fault injection; all cleared by shim_clear_faults. */
void shim_fail_nth(shim_func f, long n, cl_int err);        /* the n-th call from now (n >= 1) */
void shim_fail_create_above(size_t bytes);                  /* clCreateBuffer > bytes: allocation failure */
void shim_fail_create_from(long n);                         /* clCreateBuffer from the n-th call from now on */
void shim_fail_migrate_above(size_t bytes);                 /* migrating > bytes in one command fails */
void shim_fake_max_alloc(cl_ulong bytes);                   /* CL_DEVICE_MAX_MEM_ALLOC_SIZE reported */
void shim_fake_discrete(void);                              /* CL_DEVICE_HOST_UNIFIED_MEMORY: false */
void shim_clear_faults(void);
/* Did a failure get injected since the last shim_clear_faults? */
int shim_injected(void);

/* Watches buf: shim_writer_launched() says whether a kernel (or a copy)
 * that may write it was enqueued successfully since. */
void shim_watch(cl_mem buf);
int shim_writer_launched(void);

/* Records the next n kernel launches (at most 4: each kernel object, every
 * argument set on it since arming, the geometry); shim_replay launches them
 * again in order on q, chained by events, the first after the wait list
 * (test_pool's bisection of a driver hang: the library's own kernels
 * without the library's calls around them). */
void shim_capture_launches(int n);
cl_int shim_replay(cl_command_queue q, cl_uint nwait, const cl_event *wait, cl_event *ev);
int shim_captured(void);     /* launches captured */
void shim_replay_done(void); /* releases the captured kernels */

/* The hang's bisection, the library's own calls changed under it:
 * shim_hold_events(1) defers every clReleaseEvent until
 * shim_hold_events(0), which releases the held ones (no event of a pending
 * command is released early); shim_fake_pending(1) answers every query of
 * an event's execution status with CL_QUEUED without asking the driver
 * (the scratch pool's query of a gated call's event); shim_trace(1) prints
 * each OpenCL call the shim sees, by name, to stdout;
 * shim_migrate_as_marker(1) enqueues a marker with the same wait list in
 * place of every migration. */
void shim_hold_events(int on);
void shim_migrate_as_marker(int on);
void shim_fake_pending(int on);
void shim_trace(int on);
#endif

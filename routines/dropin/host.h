/* SPDX-License-Identifier: BSD-3-Clause */
/* The host drop-ins' device state: which OpenCL device they run on
 * (GPUBLAS3_DEVICE), its context, and a pool of "slots", each the queues,
 * device buffers and pinned staging that one call needs.  A call takes a
 * slot, so calls from several threads run side by side, each on its own
 * queues; buffers stay with the slot and only grow, so many small calls
 * allocate nothing.  A device that fails is reported once on stderr and
 * passed over; everything is released at exit.  Internal only. */
#ifndef G3_HOST_H
#define G3_HOST_H
#include <stddef.h>
#include "gpublas3.h"

enum { G3H_UP, G3H_RUN, G3H_DOWN, G3H_NQUEUES };   /* host->device, compute, device->host */
enum { G3H_NDEVBUF = 8, G3H_NPINNED = 6 };

typedef struct { cl_mem mem; size_t size; } g3h_devbuf;
/* Host memory the device copies from at full speed: a CL_MEM_ALLOC_HOST_PTR
 * buffer kept mapped (plain malloc'd memory if the driver refuses). */
typedef struct { cl_mem mem; void *ptr; size_t size; } g3h_pinned;

typedef struct g3h_slot {
    int dev;                             /* index into the device table */
    cl_context ctx;
    cl_command_queue q[G3H_NQUEUES];
    g3h_devbuf buf[G3H_NDEVBUF];
    g3h_pinned pin[G3H_NPINNED];
    struct g3h_slot *next;
} g3h_slot;

/* A slot on the most preferred device that can run this precision and is
 * not in `skip` (a mask of device indices that already failed this call);
 * NULL when none is left: the caller computes on the host.  `routine`
 * ("DGEMM") is for messages. */
g3h_slot *g3h_acquire(int dbl, unsigned skip, const char *routine);
void g3h_release(g3h_slot *s);
/* The call failed on s's device with err: reports it once, passes the device
 * over from now on for this precision (unless err says memory ran short),
 * and destroys the slot.  Returns the bit to add to the call's skip mask. */
unsigned g3h_failed(g3h_slot *s, int dbl, const char *routine, cl_int err);
/* Reports once that a routine runs on the plain host loops. */
void g3h_note_host_fallback(const char *routine);

/* s->buf[i] with at least `bytes`, grown geometrically; NULL on failure. */
cl_mem g3h_devbuf_get(g3h_slot *s, int i, size_t bytes, cl_int *err);
/* s->pin[i] with at least `bytes`; NULL on failure. */
void *g3h_pinned_get(g3h_slot *s, int i, size_t bytes, cl_int *err);

/* Runs fn(arg, t, n) for t = 0..n-1 on n threads (the caller's one among
 * them), n = min(want, one per CPU, at most 16); for the host-side copies
 * to and from pinned memory. */
int g3h_copy_threads(void);
void g3h_parallel(void (*fn)(void *arg, int t, int n), void *arg, int want);

/* Bytes of C (and B) per pipelined panel: GPUBLAS3_PANEL_KB, default 32 MiB. */
size_t g3h_panel_bytes(void);
/* GPUBLAS3_VERBOSE is set: report each call's plan and timing on stderr. */
int g3h_verbose(void);
const char *g3h_device_name(const g3h_slot *s);
/* The device calls go to first (GPUBLAS3_DEVICE's or the MPI rank's
 * choice) and its type; NULL when there is none (no device, or "host"). */
const char *g3h_chosen_device(cl_device_type *type);
/* 1 when that device solves a TRSM of this type in leaves of one launch
 * (its tuned set, GPUBLAS3_PARAMS applied, and its local memory:
 * routines/plan/solve.c), 0 when in blocks of GEMM calls or there is no
 * device. */
int g3h_solve_leaves(int dbl, int cplx);
double g3h_seconds(void);  /* a monotonic clock */
#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* What every cl_mem API test shares: the OpenCL device, context and queues
 * the tests run on, the filling of operand buffers (random data where the
 * call reads, canaries where it must not look), and check_case, which runs
 * one spec_case on the device and judges everything it can see: the result
 * against OpenBLAS, the canaries in the output, the inputs left unchanged. */
#ifndef GPUBLAS3_TEST_HARNESS_H
#define GPUBLAS3_TEST_HARNESS_H
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include "spec.h"

/* The device: the first GPU of any platform, else the first device. */
typedef struct {
    cl_device_id device;
    cl_context ctx;
    cl_command_queue q, q2; /* two in-order queues on the same context */
    cl_context other_ctx;   /* a second context on the same device */
    int did_setup;          /* env_close tears gpublas3 down only if so */
} test_env;

extern test_env env;

/* CMocka group setup/teardown: open/close `env`, with and without
 * gpublas3Setup (the NotInitialized test must run before Setup). */
int env_open(void **state);
int env_open_no_setup(void **state);
int env_close(void **state);

/* Elements past the call's extent in every test buffer, all canaries. */
#define TEST_TAIL 5

/* Host copies of one case's operands; index 0, 1, 2 = A, B, C. */
typedef struct {
    spec_case c;
    size_t n[3];    /* elements of each buffer (0: operand not used) */
    void *host[3];  /* contents before the call */
} test_data;

enum {
    FILL_NAN_TRIANGLE = 1, /* SYMM/TRMM: A's unread triangle (and unit diagonal) NaN */
    FILL_NO_TAIL = 2,      /* buffers exactly spec_elements long */
    FILL_NAN_AB = 4        /* every referenced element of A and B NaN (alpha = 0 tests) */
};

/* Fills `d` for case `c` (spec_complete applied): uniform random values in
 * [-1, 1] where the call reads, NaN in the output when beta = 0 (never
 * read), canaries (1000 + small integers) everywhere else. */
void data_fill(test_data *d, const spec_case *c, uint64_t seed, int flags);
void data_free(test_data *d);
/* A buffer of `ctx` holding d->host[k]; NULL when operand k is unused. */
cl_mem data_buffer(const test_data *d, int k, cl_context ctx);
/* The first `bytes` of m, read (blocking) through q into a malloc'd array. */
void *read_back(cl_command_queue q, cl_mem m, size_t bytes);

/* Runs case `c` on env.q, waits for its event, and judges it.  Returns 0 if
 * everything is right; otherwise prints the case and the first fault. */
int check_case(const spec_case *c, uint64_t seed, int flags);

/* Is env.device a CPU (whose tuned rows set copy_direct: PoCL)? */
int env_cpu(void);

/* A fresh library state (Teardown, Setup) with the n variables vars set
 * to values (NULL: unset): those the device state reads when it is made. */
void restart_with(int n, const char *const vars[], const char *const values[]);

/* stderr captured from capture_stderr to release_stderr, which puts it in
 * text (n bytes; the library's GPUBLAS3_VERBOSE lines: the plan) and also
 * passes it on to stderr. */
typedef struct {
    FILE *log;
    int saved;
} stderr_capture;
stderr_capture capture_stderr(void);
void release_stderr(stderr_capture *c, char *text, size_t n);
/* check_case with stderr captured into text. */
int check_case_logged(const spec_case *c, uint64_t seed, int flags, char *text, size_t n);

/* The same in two halves, for calls kept in flight or gated: case_start
 * fills and enqueues (on q after the wait list; events[0] asked for when
 * want_event);
 * case_finish waits for the event if there is one (else the caller has
 * finished q), judges the buffers read through env.q2, and frees. */
typedef struct {
    test_data d;
    cl_mem m[3];
    cl_event ev;
    gpublas3Status status;
    uint64_t seed;
} test_call;
void case_start(test_call *t, const spec_case *c, uint64_t seed, int flags, cl_command_queue q,
                cl_uint nwait, const cl_event *wait, int want_event);
int case_finish(test_call *t);
/* The same with the buffers in ctx and the call's queue of that context,
 * in halves: the data, then the call; and case_finish judging through q
 * (of ctx). */
void case_fill(test_call *t, const spec_case *c, uint64_t seed, int flags, cl_context ctx);
void case_run(test_call *t, cl_command_queue q, cl_uint nwait, const cl_event *wait, int want_event);
int case_finish_on(test_call *t, cl_command_queue q);
/* case_finish's judging alone, reading the buffers through q once the
 * caller has waited for the call (and frees). */
int case_judge(test_call *t, cl_command_queue q);

/* `c` with every leading dimension `pad` elements beyond the tight one. */
spec_case padded(spec_case c, size_t pad);

/* Shorthand for the option sweeps of each routine's test file. */
extern const gpublas3Order orders[2];
extern const gpublas3Transpose transposes[3]; /* N, T, and C which must act as T */
extern const gpublas3Side sides[2];
extern const gpublas3Uplo uplos[2];
extern const gpublas3Diag diags[2];

/* TRMM's and TRSM's shared sweeps (r is SPEC_TRMM or SPEC_TRSM).  Case n
 * of the 96 option combinations: precision, order, side, uplo, diag, trans. */
#define TRIANGULAR_COMBINATIONS 96
spec_case triangular_case(spec_routine r, int n, size_t M, size_t N, double alpha);
/* Each returns the number of failed cases: every combination at 1 x 1,
 * 7 x 33 (padded, offsets), 33 x 7 and 130 x 70 (over tiles of 16, 32, 64
 * and TRSM's default block order); NaN in A's unread triangle (and unit
 * diagonal), small and in whole tiles; alpha = 0 with NaN in A and B, and
 * M = 0. */
int triangular_all_options(spec_routine r);
int triangular_nan_triangle(spec_routine r);
int triangular_alpha_zero(spec_routine r);
#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* What the reliability tests share: the OpenCL device they run on, one
 * case's operands in host memory and on the device, running a case and
 * judging it against OpenBLAS (tests/common's spec), and a seeded random
 * generator.  A failed check prints what went wrong and the test exits
 * non-zero; the programs are plain C (no framework) so that they run the
 * same under the sanitizers, Oclgrind and valgrind. */
#ifndef REL_H
#define REL_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "spec.h"

typedef struct {
    cl_platform_id platform;
    cl_device_id dev;
    cl_context ctx;
    cl_command_queue q;
} rel_dev;

/* The first GPU of any platform, else the first device; a context and an
 * in-order queue on it.  Exits when there is none. */
void rel_open(rel_dev *d);
void rel_close(rel_dev *d);
cl_command_queue rel_queue(const rel_dev *d, cl_command_queue_properties props);

/* One case's operands: host copies (before the call) and device buffers,
 * `tail` canary elements beyond each extent. */
typedef struct {
    spec_case c;
    size_t n[3];     /* elements of the A, B, C buffers; 0: unused */
    void *host[3];
    cl_mem buf[3];
} rel_case;

void rel_fill(rel_case *r, const spec_case *c, uint64_t seed, size_t tail);
void rel_upload(rel_case *r, cl_context ctx, cl_command_queue q);
void rel_free(rel_case *r);
/* The buffer gpublas3 writes (C, or B for TRMM), as an index 0..2. */
int rel_out(const rel_case *r);
/* Reads buffer k back; the caller frees. */
void *rel_read(const rel_case *r, cl_command_queue q, int k);
/* Reads everything back after the call finished and judges: the output
 * against OpenBLAS (spec_check_n, canaries included), the inputs unchanged.
 * 0 when right; otherwise a message on stderr naming `what`. */
int rel_judge(const rel_case *r, cl_command_queue q, const char *what);
/* 1 when every buffer still holds exactly what rel_fill put there. */
int rel_unchanged(const rel_case *r, cl_command_queue q);
/* Runs the case on q, waits for its event and judges it; also fails on a
 * status other than success.  0 when right. */
int rel_run(const rel_case *r, cl_command_queue q, const char *what);

/* Random cases: a routine, precision and options drawn from the seed. */
uint64_t rel_rand(uint64_t *s);
size_t rel_below(uint64_t *s, size_t n);       /* uniform in [0, n) */
void rel_random_options(spec_case *c, uint64_t *s);

/* Failure accounting: every check calls rel_expect (any thread). */
extern int rel_failures;
#define rel_expect(cond, ...) \
    do { if (!(cond)) { __atomic_add_fetch(&rel_failures, 1, __ATOMIC_SEQ_CST); \
         flockfile(stderr); fprintf(stderr, "%s:%d: ", __FILE__, __LINE__); \
         fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); funlockfile(stderr); } } while (0)
/* Prints "<test>: <seconds since the first call> s: <what>", unbuffered
 * output assumed: a line per stage shows where a run that hangs stopped. */
void rel_stage(const char *test, const char *what);
/* From then on, a stage that lasts over `seconds` gets the calling
 * thread's backtrace printed on stderr (once per stage): where a driver
 * hangs, the test says in which call. */
void rel_watchdog(int seconds);
int rel_finish(const char *name); /* prints a summary; the exit status */
#endif

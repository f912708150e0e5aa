/* SPDX-License-Identifier: BSD-3-Clause */
/* Asynchrony and event chaining, for every routine: a call gated on user
 * events must return before they are set, must not run until all of them
 * are set (its output read through another queue is still untouched), and
 * its events[0] must complete only once the output holds the result (read
 * through another queue right after waiting on it).  Two GEMMs on two
 * queues chained only by a wait list (the second call's A is the first's C)
 * must run in order.  A call that blocked on the device would hang here;
 * ctest's timeout turns that into a failure. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include "harness.h"

/* Long enough for a device that ignored the gate to have started. */
static void pause_briefly(void)
{
    struct timespec t = { 0, 100 * 1000 * 1000 };
    nanosleep(&t, NULL);
}

static cl_int event_status(cl_event e)
{
    cl_int s;
    assert_int_equal(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL), CL_SUCCESS);
    return s;
}

/* Judges the output of `d`'s case, read through env.q2 (ordered with
 * nothing on env.q), against the reference; 0 if right. */
static int output_right(const test_data *d, cl_mem out, const char *what)
{
    const spec_case *c = &d->c;
    int k = spec_output(c) == 'B' ? 1 : 2;
    size_t bytes = d->n[k] * spec_elem_size(c);
    char msg[256], desc[256];
    void *got = read_back(env.q2, out, bytes), *ref = malloc(bytes);
    memcpy(ref, d->host[k], bytes);
    spec_reference(c, d->host[0], d->host[1], ref);
    size_t bad = spec_check_n(c, d->host[0], d->host[1], d->host[k], got, ref, d->n[k], msg, sizeof msg);
    if (bad) {
        spec_describe(c, desc, sizeof desc);
        print_error("%s: %s: %s\n", what, desc, msg);
    }
    free(got);
    free(ref);
    return bad != 0;
}

static int gated(const spec_case *c, uint64_t seed)
{
    test_call t;
    cl_int err;
    cl_event gate[2];
    int fails = 0;
    for (int i = 0; i < 2; i++) {
        gate[i] = clCreateUserEvent(env.ctx, &err);
        assert_int_equal(err, CL_SUCCESS);
    }
    /* Returning at all, with the gate shut, shows the call does not wait. */
    case_start(&t, c, seed, 0, env.q, 2, gate, 1);
    assert_int_equal(t.status, gpublas3Success);
    assert_non_null(t.ev);
    clFlush(env.q);
    int k = spec_output(&t.d.c) == 'B' ? 1 : 2;
    size_t bytes = t.d.n[k] * spec_elem_size(&t.d.c);
    for (int open = 0; open < 2; open++) {
        pause_briefly();
        void *now = read_back(env.q2, t.m[k], bytes);
        if (event_status(t.ev) == CL_COMPLETE || memcmp(now, t.d.host[k], bytes)) {
            print_error("%s ran with %d of its 2 wait-list events still unset\n",
                        spec_routine_name(t.d.c.routine), 2 - open);
            fails++;
        }
        free(now);
        clSetUserEventStatus(gate[open], CL_COMPLETE);
    }
    fails += case_finish(&t); /* waits for events[0], reads through env.q2 */
    for (int i = 0; i < 2; i++) clReleaseEvent(gate[i]);
    clFinish(env.q);
    return fails;
}

static spec_case any(spec_routine r, int dbl, size_t n)
{
    spec_case c = { .routine = r, .dbl = dbl, .order = dbl ? gpublas3RowMajor : gpublas3ColumnMajor,
                    .side = gpublas3Left, .uplo = gpublas3Upper, .transA = gpublas3Trans,
                    .transB = gpublas3NoTrans, .diag = gpublas3NonUnit,
                    .M = n, .N = n - 2, .K = n + 2, .alpha = 2.5, .beta = -1, .offA = 1, .offC = 2 };
    return c;
}

static void gated_on_user_events(void **state)
{
    (void)state;
    int fails = 0;
    for (int r = 0; r < SPEC_NROUTINES; r++)
        for (int dbl = 0; dbl < 2; dbl++) {
            spec_case c = any(r, dbl, 33);
            fails += gated(&c, 10 * r + dbl);
        }
    assert_int_equal(fails, 0);
}

/* With ~300-sized work the last kernel runs long enough that an event of an
 * earlier step (a copy kernel, the first of two launches) would complete
 * visibly before the output is final. */
static void event_marks_the_result(void **state)
{
    (void)state;
    int fails = 0;
    for (int r = 0; r < SPEC_NROUTINES; r++) {
        spec_case c = any(r, 0, 300);
        test_call t;
        case_start(&t, &c, r, 0, env.q, 0, NULL, 1);
        assert_non_null(t.ev);
        fails += case_finish(&t); /* reads through env.q2 right after events[0] */
        clFinish(env.q);
    }
    assert_int_equal(fails, 0);
}

/* C1 <- A1*B1 on env.q behind a user event, then C2 <- C1*B2 + beta*C2 on
 * env.q2 behind C1's event only.  C1 starts as NaN (beta = 0), so a second
 * call that ran early would leave NaN in C2. */
static void chain(int dbl, gpublas3Order order)
{
    spec_case c1 = { .routine = SPEC_GEMM, .dbl = dbl, .order = order, .transA = gpublas3NoTrans,
                     .transB = gpublas3Trans, .M = 33, .N = 13, .K = 7, .alpha = 1, .beta = 0, .offC = 4 };
    c1 = padded(c1, 2);
    spec_case c2 = { .routine = SPEC_GEMM, .dbl = dbl, .order = order, .transA = gpublas3NoTrans,
                     .transB = gpublas3NoTrans, .M = 33, .N = 9, .K = 13, .alpha = -1, .beta = 2.5,
                     .offA = c1.offC, .lda = c1.ldc, .offB = 1, .offC = 3 };
    test_data d1, d2;
    cl_int err;
    cl_event gate = clCreateUserEvent(env.ctx, &err), e1, e2;
    assert_int_equal(err, CL_SUCCESS);
    data_fill(&d1, &c1, 1, 0);
    data_fill(&d2, &c2, 2, 0);
    assert_int_equal(d1.n[2], d2.n[0]); /* C1's buffer serves as A2 */
    cl_mem a1 = data_buffer(&d1, 0, env.ctx), b1 = data_buffer(&d1, 1, env.ctx), c1m = data_buffer(&d1, 2, env.ctx);
    cl_mem b2 = data_buffer(&d2, 1, env.ctx), c2m = data_buffer(&d2, 2, env.ctx);

    assert_int_equal(spec_run(&d1.c, env.q, a1, b1, c1m, 1, &gate, &e1), gpublas3Success);
    assert_int_equal(spec_run(&d2.c, env.q2, c1m, b2, c2m, 1, &e1, &e2), gpublas3Success);
    clFlush(env.q);
    clFlush(env.q2);
    pause_briefly();
    assert_int_not_equal(event_status(e2), CL_COMPLETE);
    clSetUserEventStatus(gate, CL_COMPLETE);
    assert_int_equal(clWaitForEvents(1, &e2), CL_SUCCESS);

    /* C1 must be right, and C2 right for the C1 the device holds (so C1's
     * rounding does not count against C2). */
    int fails = output_right(&d1, c1m, "first call of a chain");
    void *c1_now = read_back(env.q2, c1m, d1.n[2] * spec_elem_size(&d1.c));
    memcpy(d2.host[0], c1_now, d1.n[2] * spec_elem_size(&d1.c));
    free(c1_now);
    fails += output_right(&d2, c2m, "second call of a chain");
    clFinish(env.q);
    clFinish(env.q2);
    clReleaseEvent(gate);
    clReleaseEvent(e1);
    clReleaseEvent(e2);
    cl_mem all[] = { a1, b1, c1m, b2, c2m };
    for (int i = 0; i < 5; i++) clReleaseMemObject(all[i]);
    data_free(&d1);
    data_free(&d2);
    assert_int_equal(fails, 0);
}

static void wait_list_chains_two_calls(void **state)
{
    (void)state;
    chain(0, gpublas3ColumnMajor);
    chain(1, gpublas3RowMajor);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gated_on_user_events),
        cmocka_unit_test(event_marks_the_result),
        cmocka_unit_test(wait_list_chains_two_calls),
    };
    return cmocka_run_group_tests_name("async", tests, env_open, env_close);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Many calls in flight at once, none waited for until all are enqueued: on
 * one in-order queue, spread over two queues, on an out-of-order queue
 * (where only the library's own event chain orders its copy and GEMM
 * steps -- PoCL runs ready commands first come, first served, so there
 * this part only bites on devices that really reorder), and without asking
 * for events at all.  Every routine and both
 * precisions in each batch, so scratch reused or shared between calls, or
 * steps of one call left unordered, would show up as a wrong result.
 *
 * And one kernel in flight on three queues at once: two long calls on a
 * small grid, then a short one on a wider grid, all through the direct
 * kernel; the third queue in the same context, then in another.  PoCL 3.1
 * aborts on that (pocl_release_dlhandle_cache's "ref_count > 0") when its
 * workers run them side by side: a launch takes a reference on the loaded
 * kernel that fits its grid, but gives back one on whichever was loaded
 * last.  ctest runs this file again with four PoCL workers
 * (cl_inflight_pocl4), where both cases aborted every time before
 * lib/launch.c ran a kernel's launches on PoCL one at a time. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <time.h>
#include <cmocka.h>
#include "harness.h"

#define BATCH (2 * SPEC_NROUTINES)

/* Call i of a batch: routine i % SPEC_NROUTINES, precision i / SPEC_NROUTINES, assorted options. */
static spec_case call(int i)
{
    spec_case c = { .routine = (spec_routine)(i % SPEC_NROUTINES), .dbl = i / SPEC_NROUTINES,
                    .order = orders[i % 2], .side = sides[i / 2 % 2], .uplo = uplos[i / 3 % 2],
                    .transA = transposes[i % 3], .transB = transposes[(i + 1) % 3], .diag = diags[i / 4 % 2],
                    .M = 97 + 7 * i, .N = 131 - 5 * i, .K = 89 + 3 * i, .alpha = i % 2 ? -1 : 2.5,
                    .beta = i % 3 ? 2.5 : 0, .offA = i, .offB = 2 * i, .offC = 3 };
    return padded(c, i % 4);
}

static int batch(cl_command_queue q0, cl_command_queue q1, int want_events)
{
    test_call t[BATCH];
    int fails = 0;
    for (int i = 0; i < BATCH; i++) {
        spec_case c = call(i);
        case_start(&t[i], &c, 100 + i, 0, i % 2 ? q1 : q0, 0, NULL, want_events);
    }
    clFlush(q0);
    clFlush(q1);
    if (!want_events) {
        clFinish(q0);
        clFinish(q1);
    }
    for (int i = 0; i < BATCH; i++) fails += case_finish(&t[i]);
    clFinish(q0);
    clFinish(q1);
    return fails;
}

static void many_calls_on_one_queue(void **state) { (void)state; assert_int_equal(batch(env.q, env.q, 1), 0); }
static void calls_on_two_queues(void **state) { (void)state; assert_int_equal(batch(env.q, env.q2, 1), 0); }
static void calls_without_events(void **state) { (void)state; assert_int_equal(batch(env.q, env.q, 0), 0); }

static void out_of_order_queue(void **state)
{
    (void)state;
    cl_command_queue_properties props = 0;
    cl_int err;
    clGetDeviceInfo(env.device, CL_DEVICE_QUEUE_PROPERTIES, sizeof props, &props, NULL);
    /* PoCL and NVIDIA's driver both have them; a device without cannot be
     * handed such a queue, so there is nothing to test there. */
    if (!(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
        print_message("device has no out-of-order queues\n");
        return;
    }
    cl_command_queue ooo = clCreateCommandQueue(env.ctx, env.device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    assert_int_equal(err, CL_SUCCESS);
    int fails = batch(ooo, ooo, 1);
    clReleaseCommandQueue(ooo);
    assert_int_equal(fails, 0);
}

/* The first two calls (long, small grid) on env.q and env.q2; the third (short,
 * its grid of width n2 wider than any launch of the kernel before it in
 * the process, so that PoCL loads the kernel anew) on a queue of ctx2,
 * gated until they run.  A small call in ctx2 first builds the kernel
 * there. */
static int one_kernel_three_queues(cl_context ctx2, size_t n2)
{
    const char *vars[] = { "GPUBLAS3_PLAN" }, *values[] = { "direct" };
    restart_with(1, vars, values);
    cl_int err;
    cl_command_queue q2 = clCreateCommandQueue(ctx2, env.device, 0, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_event gate = clCreateUserEvent(ctx2, &err);
    assert_int_equal(err, CL_SUCCESS);
    const size_t m[4] = { 32, 32, 8, 8 }, n[4] = { 32, 32, n2, 8 }, k[4] = { 200000, 200000, 2, 2 };
    const cl_context ctx[4] = { env.ctx, env.ctx, ctx2, ctx2 };
    const cl_command_queue q[4] = { env.q, env.q2, q2, q2 };
    test_call t[4];
    for (int i = 0; i < 4; i++) {
        spec_case c = { .routine = SPEC_GEMM, .order = gpublas3ColumnMajor, .transA = gpublas3NoTrans,
                        .transB = gpublas3NoTrans, .M = m[i], .N = n[i], .K = k[i], .alpha = 1.5, .beta = -1 };
        case_fill(&t[i], &c, 300 + i, 0, ctx[i]);
    }
    case_run(&t[3], q2, 0, NULL, 1);
    int fails = case_finish_on(&t[3], q2);
    for (int i = 0; i < 3; i++) {
        case_run(&t[i], q[i], i == 2, i == 2 ? &gate : NULL, 1);
        clFlush(q[i]);
    }
    nanosleep(&(struct timespec){ .tv_nsec = 5000000 }, NULL);
    clSetUserEventStatus(gate, CL_COMPLETE);
    for (int i = 0; i < 3; i++) fails += case_finish_on(&t[i], i == 2 ? q2 : env.q2);
    clReleaseEvent(gate);
    clReleaseCommandQueue(q2);
    restart_with(0, NULL, NULL);
    return fails;
}

/* (Both first: each widens the grid beyond the ones before.) */
static void one_kernel_on_three_queues(void **state) { (void)state; assert_int_equal(one_kernel_three_queues(env.ctx, 16384), 0); }
static void one_kernel_in_two_contexts(void **state) { (void)state; assert_int_equal(one_kernel_three_queues(env.other_ctx, 32768), 0); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_kernel_on_three_queues),
        cmocka_unit_test(one_kernel_in_two_contexts),
        cmocka_unit_test(many_calls_on_one_queue),
        cmocka_unit_test(calls_on_two_queues),
        cmocka_unit_test(calls_without_events),
        cmocka_unit_test(out_of_order_queue),
    };
    return cmocka_run_group_tests_name("in flight", tests, env_open, env_close);
}

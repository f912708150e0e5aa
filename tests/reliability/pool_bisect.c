/* SPDX-License-Identifier: BSD-3-Clause */
/* test_pool's bisection of a driver hang (docs/performance.md): on the
 * H100 (NVIDIA 580) the test's own final clReleaseContext does not return
 * after the out-of-order gated case.  These stages, each run alone in its
 * own process (`test_pool STAGE`), take that case apart: driver-only
 * controls and replicas of its patterns, one library call gated or not,
 * and the library's own launches replayed by the test through the shim. */
#include <stdio.h>
#include <stdlib.h>
#include "pool_bisect.h"
#include "shim.h"

void ooo_control(void)
{
    cl_command_queue ooo = rel_queue(&pool_dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    printf("test_pool: on one out-of-order queue the driver %s a plain copy past a gated one\n",
           driver_runs_past(ooo, ooo) ? "runs" : "holds");
    clReleaseCommandQueue(ooo);
}

/* The library's pattern on an out-of-order queue without the library: a
 * copy gated on a user event, then a fresh buffer migrated (no wait list)
 * and a marker joining the migration with the gate (lib/pool.c,
 * make_resident), a copy after the marker. */
void ooo_migrate_control(void)
{
    cl_int err;
    cl_command_queue q = rel_queue(&pool_dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    cl_mem a = clCreateBuffer(pool_dev.ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
    cl_mem b = clCreateBuffer(pool_dev.ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
    cl_event gate = clCreateUserEvent(pool_dev.ctx, &err), ev[4];
    clEnqueueCopyBuffer(q, a, b, 0, 0, 1024, 1, &gate, &ev[0]);
    clEnqueueMigrateMemObjects(q, 1, &b, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, NULL, &ev[1]);
    cl_event both[2] = { gate, ev[1] };
    clEnqueueMarkerWithWaitList(q, 2, both, &ev[2]);
    clEnqueueCopyBuffer(q, a, b, 1024, 1024, 1024, 1, &ev[2], &ev[3]);
    clFlush(q);
    clSetUserEventStatus(gate, CL_COMPLETE);
    clWaitForEvents(4, ev);
    for (int i = 0; i < 4; i++) clReleaseEvent(ev[i]);
    clReleaseEvent(gate);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseCommandQueue(q);
}

/* The other half of the library's pattern there, without the library: one
 * kernel object launched gated on a user event, then again with other
 * arguments, ungated, on the same out-of-order queue (the library keeps one
 * kernel object per program and sets its arguments per launch). */
void ooo_kernel_control(void)
{
    static const char *src = "kernel void put(global int *p, int v) { p[get_global_id(0)] = v; }";
    cl_int err;
    cl_command_queue q = rel_queue(&pool_dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    cl_program prog = clCreateProgramWithSource(pool_dev.ctx, 1, &src, NULL, &err);
    clBuildProgram(prog, 1, &pool_dev.dev, "", NULL, NULL);
    cl_kernel k = clCreateKernel(prog, "put", &err);
    cl_mem buf[2] = { clCreateBuffer(pool_dev.ctx, CL_MEM_READ_WRITE, 256, NULL, &err),
                      clCreateBuffer(pool_dev.ctx, CL_MEM_READ_WRITE, 256, NULL, &err) };
    cl_event gate = clCreateUserEvent(pool_dev.ctx, &err), ev[2];
    size_t n = 64;
    for (int i = 0; i < 2; i++) {
        clSetKernelArg(k, 0, sizeof buf[i], &buf[i]);
        clSetKernelArg(k, 1, sizeof i, &i);
        clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, i ? 0 : 1, i ? NULL : &gate, &ev[i]);
    }
    clFlush(q);
    clSetUserEventStatus(gate, CL_COMPLETE);
    clWaitForEvents(2, ev);
    int got[2];
    for (int i = 0; i < 2; i++)
        clEnqueueReadBuffer(q, buf[i], CL_TRUE, 0, sizeof got[i], &got[i], 0, NULL, NULL);
    printf("test_pool: one kernel object, gated launch then another: they wrote %d and %d (want 0 and 1)\n",
           got[0], got[1]);
    for (int i = 0; i < 2; i++) {
        clReleaseEvent(ev[i]);
        clReleaseMemObject(buf[i]);
    }
    clReleaseEvent(gate);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
}

/* One library call on an out-of-order queue, gated on a user event or
 * not, nothing else: the first steps of bisecting the context hang after
 * gated_ooo (docs/performance.md). */
static void ooo_single(int gate_it)
{
    cl_command_queue q = rel_queue(&pool_dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    gpublas3Setup();
    rel_case x;
    rel_fill(&x, &pool_base, 5, 1);
    rel_upload(&x, pool_dev.ctx, pool_dev.q);
    cl_int err;
    cl_event gate = clCreateUserEvent(pool_dev.ctx, &err), ex;
    rel_expect(spec_run(&x.c, q, x.buf[0], x.buf[1], x.buf[2], gate_it, gate_it ? &gate : NULL, &ex) ==
                   gpublas3Success, "out-of-order call");
    clFlush(q);
    clSetUserEventStatus(gate, CL_COMPLETE);
    rel_expect(wait_bounded(ex, 30) == 0, "the out-of-order call did not complete");
    rel_expect(rel_judge(&x, pool_dev.q, "out-of-order call") == 0, "out-of-order call wrong");
    clReleaseEvent(ex);
    clReleaseEvent(gate);
    rel_free(&x);
    gpublas3Teardown();
    clReleaseCommandQueue(q);
}

/* The library's gated case without the library (TEST_POOL_REPLICA, a sum
 * of: 1 Y first migrates fresh buffers, 2 Y launches X's kernel objects,
 * else its own, 4 a flush after X, 8 the program made from its binary (as
 * the library's disk cache does), 16 one launch each instead of three, 32
 * a kernel with a work-group size, local memory and a barrier, 64 the same
 * with 40 KB of local memory, 128 the status of X's last event queried
 * before Y (as the pool's take does), 256 that event retained and released
 * at the end (as the pool keeps it)): on
 * one out-of-order queue, X (two launches of one kernel object, one of
 * another, chained by events) gated on a user event, then Y's three
 * launches; then the gate opens. */
void ooo_replica(void)
{
    /* 32: a kernel more like the library's, with a work-group size, local
     * memory and a barrier (the same sums) */
    static const char *plain = "kernel void put(global int *p, int v) { p[get_global_id(0)] += v; }";
    static const char *tiled =
        "kernel __attribute__((reqd_work_group_size(64, 1, 1))) void put(global int *p, int v) {\n"
        "  local int t[64]; int l = get_local_id(0); t[l] = p[get_global_id(0)] + v;\n"
        "  barrier(CLK_LOCAL_MEM_FENCE); p[get_global_id(0)] = t[l]; }";
    /* 64: the same with 40 KB of local memory, near the library's tiles
     * (NVIDIA sizes each SM's shared-memory carve-out by the kernel) */
    static const char *big =
        "kernel __attribute__((reqd_work_group_size(64, 1, 1))) void put(global int *p, int v) {\n"
        "  local int t[10240]; int l = get_local_id(0);\n"
        "  for (int i = l; i < 10240; i += 64) t[i] = i;\n"
        "  barrier(CLK_LOCAL_MEM_FENCE); p[get_global_id(0)] += v + t[(l * 160 + 7) % 10240] - (l * 160 + 7) % 10240; }";
    const char *e = getenv("TEST_POOL_REPLICA");
    const unsigned mode = e ? (unsigned)atoi(e) : 3;
    const char *src = mode & 64 ? big : mode & 32 ? tiled : plain;
    size_t wg = 64;
    cl_int err;
    cl_command_queue q = rel_queue(&pool_dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    cl_program prog = clCreateProgramWithSource(pool_dev.ctx, 1, &src, NULL, &err);
    clBuildProgram(prog, 1, &pool_dev.dev, "", NULL, NULL);
    if (mode & 8) {
        size_t size = 0;
        clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL);
        unsigned char *bin = malloc(size);
        clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL);
        clReleaseProgram(prog);
        prog = clCreateProgramWithBinary(pool_dev.ctx, 1, &pool_dev.dev, &size, (const unsigned char **)&bin, NULL, &err);
        clBuildProgram(prog, 1, &pool_dev.dev, "", NULL, NULL);
        free(bin);
    }
    const int launches = mode & 16 ? 1 : 3;
    cl_kernel k[4];
    for (int i = 0; i < 4; i++)
        k[i] = clCreateKernel(prog, "put", &err);
    cl_mem buf[6];
    for (int i = 0; i < 6; i++) {
        buf[i] = clCreateBuffer(pool_dev.ctx, CL_MEM_READ_WRITE, 256, NULL, &err);
        if (i < 3 || !(mode & 1))
            clEnqueueFillBuffer(pool_dev.q, buf[i], &(int){ 0 }, sizeof(int), 0, 256, 0, NULL, NULL);
    }
    clFinish(pool_dev.q);
    cl_event gate = clCreateUserEvent(pool_dev.ctx, &err), ev[10], prev = gate, kept = NULL;
    size_t n = 64;
    int nev = 0;
    for (int c = 0; c < 2; c++) { /* c = 0: X, 1: Y */
        cl_kernel *ks = c && !(mode & 2) ? k + 2 : k;
        if (c) {
            if (mode & 128) { /* the pool's check of X's last event before Y takes scratch */
                cl_int status;
                clGetEventInfo(prev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
                printf("test_pool: replica: X's last event status %d before Y\n", status);
            }
            if (mode & 256) /* the pool keeps X's last event with its scratch */
                clRetainEvent(kept = prev);
            prev = NULL;
            if (mode & 1) { /* fresh buffers made resident, then zeroed (the library's pack writes them) */
                clEnqueueMigrateMemObjects(q, 3, buf + 3, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, NULL,
                                           &ev[nev]);
                prev = ev[nev++];
                for (int i = 3; i < 6; i++) {
                    clEnqueueFillBuffer(q, buf[i], &(int){ 0 }, sizeof(int), 0, 256, 1, &prev, &ev[nev]);
                    prev = ev[nev++];
                }
            }
        }
        for (int l = 0; l < launches; l++) {
            cl_kernel kk = ks[l == 2];
            clSetKernelArg(kk, 0, sizeof buf[3 * c + l], &buf[3 * c + l]);
            clSetKernelArg(kk, 1, sizeof l, &l);
            clEnqueueNDRangeKernel(q, kk, 1, NULL, &n, mode & 96 ? &wg : NULL, prev ? 1 : 0, prev ? &prev : NULL,
                                   &ev[nev]);
            prev = ev[nev++];
        }
        if (c == 0 && (mode & 4))
            clFlush(q);
    }
    clFlush(q);
    clSetUserEventStatus(gate, CL_COMPLETE);
    clWaitForEvents(nev, ev);
    int got[6];
    for (int i = 0; i < 6; i++)
        clEnqueueReadBuffer(pool_dev.q, buf[i], CL_TRUE, 0, sizeof got[i], &got[i], 0, NULL, NULL);
    printf("test_pool: replica %u wrote %d %d %d and %d %d %d (want 0 1 2 twice; 0 0 0 twice with one launch each)\n", mode, got[0], got[1], got[2],
           got[3], got[4], got[5]);
    for (int i = 0; i < nev; i++)
        clReleaseEvent(ev[i]);
    for (int i = 0; i < 6; i++)
        clReleaseMemObject(buf[i]);
    for (int i = 0; i < 4; i++)
        clReleaseKernel(k[i]);
    if (kept)
        clReleaseEvent(kept);
    clReleaseEvent(gate);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
}

/* The library's own kernels launched twice by the test on one out-of-order
 * queue, the first time gated (the shim records the launches of one
 * ungated library call, three on the packed path: pack A, pack B, GEMM,
 * and replays them): whether the library's kernels alone, without the
 * library's calls around them, leave NVIDIA's context unable to go
 * (docs/performance.md). */
void ooo_replay(void)
{
    cl_command_queue q = rel_queue(&pool_dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    gpublas3Setup();
    rel_case x;
    rel_fill(&x, &pool_base, 6, 1);
    rel_upload(&x, pool_dev.ctx, pool_dev.q);
    cl_int err;
    cl_event ez, ev[2], gate = clCreateUserEvent(pool_dev.ctx, &err);
    shim_capture_launches(3);
    rel_expect(spec_run(&x.c, q, x.buf[0], x.buf[1], x.buf[2], 0, NULL, &ez) == gpublas3Success, "replay: the call");
    clWaitForEvents(1, &ez);
    clReleaseEvent(ez);
    rel_expect(shim_replay(q, 1, &gate, &ev[0]) == CL_SUCCESS, "replay: gated launch");
    clFlush(q);
    rel_expect(shim_replay(q, 0, NULL, &ev[1]) == CL_SUCCESS, "replay: second launch");
    clFlush(q);
    clSetUserEventStatus(gate, CL_COMPLETE);
    clWaitForEvents(2, ev);
    printf("test_pool: the library's %d kernel launch(es) replayed twice on an out-of-order queue, the first time "
           "gated\n", shim_captured());
    clReleaseEvent(ev[0]);
    clReleaseEvent(ev[1]);
    clReleaseEvent(gate);
    shim_replay_done();
    rel_free(&x);
    gpublas3Teardown();
    clReleaseCommandQueue(q);
}

void ooo_single_gated(void) { ooo_single(1); }
void ooo_single_ungated(void) { ooo_single(0); }


/* SPDX-License-Identifier: BSD-3-Clause */
/* A first gpublas3 program: it makes its own OpenCL context, queue and
 * buffers, computes C = A * B with gpublas3Sgemm, waits for the call's
 * event, and checks C against a plain host loop.  Exit status 0 when every
 * element agrees, 1 otherwise (2 when no OpenCL device is found).
 *
 *   cc first.c $(pkg-config --cflags --libs gpublas3) -lm -o first && ./first */
#define CL_TARGET_OPENCL_VERSION 120
#include <gpublas3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    enum { M = 200, N = 150, K = 100 };   /* column-major, lda = M, ldb = K, ldc = M */
    float *a = malloc(sizeof(float) * M * K), *b = malloc(sizeof(float) * K * N);
    float *c = malloc(sizeof(float) * M * N);
    for (int i = 0; i < M * K; i++) a[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
    for (int i = 0; i < K * N; i++) b[i] = (float)((i * 5) % 11) / 11.0f - 0.5f;

    /* The first device of the first platform: a GPU if there is one. */
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS) {
        fprintf(stderr, "no OpenCL platform\n");
        return 2;
    }
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS &&
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
        fprintf(stderr, "no OpenCL device\n");
        return 2;
    }
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);

    cl_mem bufA = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(float) * M * K, a, &err);
    cl_mem bufB = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(float) * K * N, b, &err);
    cl_mem bufC = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(float) * M * N, NULL, &err);

    /* C <- 1 * A * B + 0 * C: with beta = 0, C is not read. */
    gpublas3Setup();
    cl_event done;
    gpublas3Status st = gpublas3Sgemm(gpublas3ColumnMajor, gpublas3NoTrans, gpublas3NoTrans,
                                      M, N, K, 1.0f, bufA, 0, M, bufB, 0, K, 0.0f, bufC, 0, M,
                                      1, &queue, 0, NULL, &done);
    if (st != gpublas3Success) {
        fprintf(stderr, "gpublas3Sgemm: %s\n", gpublas3StatusString(st));
        return 1;
    }
    clWaitForEvents(1, &done);   /* the call only enqueued; wait for its event */
    clReleaseEvent(done);
    clEnqueueReadBuffer(queue, bufC, CL_TRUE, 0, sizeof(float) * M * N, c, 0, NULL, NULL);

    int bad = 0;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < M; i++) {
            double ref = 0;
            for (int p = 0; p < K; p++) ref += (double)a[i + p * M] * b[p + j * K];
            if (fabs(c[i + j * M] - ref) > 1e-4 * K) bad++;
        }
    printf("%s: %d of %d elements differ from the host loop\n", bad ? "FAILED" : "ok", bad, M * N);

    gpublas3Teardown();
    clReleaseMemObject(bufA);
    clReleaseMemObject(bufB);
    clReleaseMemObject(bufC);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(a); free(b); free(c);
    return bad ? 1 : 0;
}

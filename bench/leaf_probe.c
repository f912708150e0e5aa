/* SPDX-License-Identifier: BSD-3-Clause */
/* The leaf probe: where TRSM's leaf kernel (kernels/trsm.cl) spends its
 * time (the H100 took ~6 us a block of 32 where the count gave ~1.5:
 * docs/performance.md, TRSM).  Builds the kernel from the source tree as the library
 * does (real.cl, then trsm.cl) and times it alone by OpenCL profiling
 * events, no trtri and no other command: leaves of 32 ... 1024 rows, one
 * work-group (W right-hand sides: the chain's latency) and one per W of
 * 1024 (the device full), with and without the refinement, S and D.  The
 * slope over the number of blocks at one work-group is the per-block
 * latency.  The inverses and T's blocks come from the host; every result is
 * checked by its residual |L X - B| <= 100 n eps (|L||X| + |B|).
 * Usage: gpublas3-leaf-probe [largest leaf (1024)] [reps (20)] [W (8)]
 * [build options]; the first GPU, else the first device.  W is the kernel's
 * columns per work-group; the options are added to the build's, e.g.
 * -DPROBE_SKIP=1 (the kernel's ablations: results then unchecked) or NVIDIA's
 * -cl-nv-verbose (the compiler's report, printed for the largest leaf);
 * LEAF_PROBE_PTX=DIR writes each largest leaf's program binary there;
 * LEAF_PROBE_KERNEL=FILE builds FILE (a variant of the kernel) instead. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "probe.h"

enum { TB = 32 };
static int W = 8;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = calloc((size_t)n + 1, 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) { free(s); s = NULL; }
    fclose(f);
    return s;
}

/* A well-conditioned lower L (n x n, column-major), each diagonal block's
 * inverse and the block itself (column-major, block g at g TB^2), B. */
static void problem(int n, int rhs, double *L, double *I, double *T, double *B)
{
    srand(7);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            L[i + (size_t)j * n] = i < j ? 0 : i == j ? 2 + rand() / (double)RAND_MAX
                                                       : (rand() / (double)RAND_MAX - 0.5) / 8;
    for (size_t k = 0; k < (size_t)n * rhs; k++) B[k] = rand() / (double)RAND_MAX - 0.5;
    for (int g = 0; g * TB < n; g++) {
        int g0 = g * TB, len = n - g0 < TB ? n - g0 : TB;
        double *ig = I + (size_t)g * TB * TB, *tg = T + (size_t)g * TB * TB;
        for (int l = 0; l < len; l++) {                 /* column l of the inverse: substitution on e_l */
            for (int i = 0; i < len; i++) {
                double s = i == l ? 1 : 0;
                for (int k = l; k < i; k++) s -= L[g0 + i + (size_t)(g0 + k) * n] * ig[k + l * TB];
                ig[i + l * TB] = i < l ? 0 : s / L[g0 + i + (size_t)(g0 + i) * n];
                tg[i + l * TB] = L[g0 + i + (size_t)(g0 + l) * n];
            }
        }
    }
}

typedef struct {
    cl_context ctx;
    cl_command_queue q;
    cl_device_id d;
    const char *src[2];
    const char *extra; /* more build options */
    int most;          /* the largest leaf: its build's report and binary */
} probe;

/* The compiler's report and (LEAF_PROBE_PTX) the program's binary. */
static void report(const probe *p, cl_program prog, const char *opts, int dbl, int refine)
{
    size_t len = 0;
    clGetProgramBuildInfo(prog, p->d, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
    char *log = malloc(len + 1);
    clGetProgramBuildInfo(prog, p->d, CL_PROGRAM_BUILD_LOG, len, log, NULL);
    log[len] = 0;
    if (strspn(log, " \n") < strlen(log)) printf("build log (%s):\n%s\n", opts, log);
    free(log);
    const char *dir = getenv("LEAF_PROBE_PTX");
    size_t size = 0;
    if (!dir || clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS || !size)
        return;
    unsigned char *bin = malloc(size);
    char path[512];
    snprintf(path, sizeof path, "%s/leaf-%c-refine%d-w%d-n%d.bin", dir, "sd"[dbl], refine, W, p->most);
    FILE *f = fopen(path, "wb");
    if (f && clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) == CL_SUCCESS)
        fwrite(bin, 1, size, f);
    if (f) fclose(f);
    free(bin);
}

/* The median kernel time in us of `reps` launches, or -1 (and why) when it
 * cannot run or its result is wrong. */
static double run(probe *p, int dbl, int refine, int n, int rhs, int reps)
{
    size_t es = dbl ? 8 : 4, nb = (size_t)(n + TB - 1) / TB;
    double *L = calloc((size_t)n * n, 8), *I = calloc(nb * TB * TB, 8), *T = calloc(nb * TB * TB, 8);
    double *B = malloc((size_t)n * rhs * 8), *X = malloc((size_t)n * rhs * 8);
    void *h = malloc((size_t)n * n * es + nb * TB * TB * es * 2 + (size_t)n * rhs * es);
    problem(n, rhs, L, I, T, B);
    char opts[512];
    snprintf(opts, sizeof opts, "-DPRECISION=%d -DTB=%d -DW=%d -DSLOTS=%d -DREFINE=%d %s", dbl ? 64 : 32, TB, W,
             (n + TB * W - 1) / (TB * W), refine, p->extra);
    cl_int err;
    cl_program prog = clCreateProgramWithSource(p->ctx, 2, p->src, NULL, &err);
    if (clBuildProgram(prog, 1, &p->d, opts, NULL, NULL) != CL_SUCCESS) {
        printf("FAILED: the build with %s\n", opts);
        clReleaseProgram(prog);
        free(L); free(I); free(T); free(B); free(X); free(h);
        return -1;
    }
    if (n == p->most && rhs == W) report(p, prog, opts, dbl, refine);
    cl_kernel k = clCreateKernel(prog, "trsm_leaf", &err);
    /* the host's doubles in the kernel's precision, into one buffer each */
    cl_mem buf[4];
    const double *from[4] = { L, I, T, B };
    size_t count[4] = { (size_t)n * n, nb * TB * TB, nb * TB * TB, (size_t)n * rhs };
    for (int b = 0; b < 4; b++) {
        for (size_t i = 0; i < count[b]; i++)
            if (dbl) ((double *)h)[i] = from[b][i];
            else ((float *)h)[i] = (float)from[b][i];
        buf[b] = clCreateBuffer(p->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, count[b] * es, h, &err);
    }
    cl_int nn = n, rr = rhs, fwd = 1, cj = 0;
    cl_long zero = 0, ld = n, one = 1;
    float fa = 1;
    double da = 1;
    int a = 0;
    clSetKernelArg(k, a++, sizeof nn, &nn);
    clSetKernelArg(k, a++, sizeof rr, &rr);
    clSetKernelArg(k, a++, sizeof fwd, &fwd);
    clSetKernelArg(k, a++, dbl ? sizeof da : sizeof fa, dbl ? (void *)&da : (void *)&fa);
    clSetKernelArg(k, a++, sizeof buf[0], &buf[0]);
    clSetKernelArg(k, a++, sizeof zero, &zero);
    clSetKernelArg(k, a++, sizeof ld, &ld);
    clSetKernelArg(k, a++, sizeof cj, &cj);
    clSetKernelArg(k, a++, sizeof buf[1], &buf[1]);
    clSetKernelArg(k, a++, sizeof buf[2], &buf[2]);
    clSetKernelArg(k, a++, sizeof zero, &zero);
    clSetKernelArg(k, a++, sizeof buf[3], &buf[3]);
    clSetKernelArg(k, a++, sizeof zero, &zero);
    clSetKernelArg(k, a++, sizeof one, &one);
    clSetKernelArg(k, a++, sizeof ld, &ld);
    size_t local = TB * W, global = (size_t)(rhs + W - 1) / W * local;
    /* once to check (B overwritten by X), then timed on the solved B */
    clEnqueueNDRangeKernel(p->q, k, 1, NULL, &global, &local, 0, NULL, NULL);
    clEnqueueReadBuffer(p->q, buf[3], CL_TRUE, 0, count[3] * es, h, 0, NULL, NULL);
    for (size_t i = 0; i < count[3]; i++) X[i] = dbl ? ((double *)h)[i] : ((float *)h)[i];
    double worst = 0;
    for (int c = 0; c < rhs; c++)
        for (int i = 0; i < n; i++) {
            double r = -B[i + (size_t)c * n], s = fabs(B[i + (size_t)c * n]);
            for (int j = 0; j <= i; j++) {
                r += L[i + (size_t)j * n] * X[j + (size_t)c * n];
                s += fabs(L[i + (size_t)j * n] * X[j + (size_t)c * n]);
            }
            worst = fmax(worst, fabs(r) / s);
        }
    double bound = 100.0 * n * (dbl ? DBL_EPSILON : FLT_EPSILON), med = -1;
    if (!(worst <= bound) && !strstr(p->extra, "PROBE_SKIP")) {
        printf("FAILED: %c n=%d rhs=%d refine=%d residual %.2e over %.2e\n", "sd"[dbl], n, rhs, refine, worst, bound);
    } else {
        double *t = malloc((size_t)reps * sizeof *t);
        for (int r = 0; r < reps; r++) {
            cl_event e;
            cl_ulong t0 = 0, t1 = 0;
            clEnqueueNDRangeKernel(p->q, k, 1, NULL, &global, &local, 0, NULL, &e);
            clWaitForEvents(1, &e);
            clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
            clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
            t[r] = 1e-3 * (double)(t1 - t0);
            clReleaseEvent(e);
        }
        qsort(t, (size_t)reps, sizeof *t, probe_cmp);
        med = t[reps / 2];
        free(t);
    }
    for (int b = 0; b < 4; b++) clReleaseMemObject(buf[b]);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    free(L); free(I); free(T); free(B); free(X); free(h);
    return med;
}

int main(int argc, char **argv)
{
    int most = argc > 1 ? atoi(argv[1]) : 1024, reps = argc > 2 ? atoi(argv[2]) : 20;
    most = most < TB ? TB : most > 1024 ? 1024 : most;
    reps = reps < 1 ? 1 : reps;
    W = argc > 3 ? atoi(argv[3]) : 8;
    W = W < 1 ? 1 : W > 32 ? 32 : W;
    const char *kernel = getenv("LEAF_PROBE_KERNEL");
    char *real = slurp(G3_SOURCE_DIR "/kernels/real.cl");
    char *trsm = slurp(kernel && *kernel ? kernel : G3_SOURCE_DIR "/kernels/trsm.cl");
    if (!real || !trsm) { fprintf(stderr, "leaf probe: kernels/ not found under %s\n", G3_SOURCE_DIR); return 1; }
    char *inc = strstr(trsm, "#include \"real.cl\"");
    if (inc) memset(inc, ' ', strlen("#include \"real.cl\""));
    probe p = { .d = pick(), .src = { real, trsm }, .extra = argc > 4 ? argv[4] : "", .most = TB };
    while (p.most * 2 <= most) p.most *= 2;
    if (!p.d) { fprintf(stderr, "leaf probe: no OpenCL device\n"); return 1; }
    cl_int err;
    char name[256] = "";
    cl_bool fp64 = 0;
    cl_ulong ext = 0;
    clGetDeviceInfo(p.d, CL_DEVICE_NAME, sizeof name, name, NULL);
    clGetDeviceInfo(p.d, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof ext, &ext, NULL);
    fp64 = ext != 0;
    p.ctx = clCreateContext(NULL, 1, &p.d, NULL, NULL, &err);
    p.q = clCreateCommandQueue(p.ctx, p.d, CL_QUEUE_PROFILING_ENABLE, &err);
    printf("leaf probe: %s; W %d, options \"%s\"; kernel time per launch (profiling events), median of %d, us%s\n",
           name, W, p.extra, reps, strstr(p.extra, "PROBE_SKIP") ? "; ablated: results not checked" : "");
    printf("%-3s %-7s %6s %10s %10s\n", "", "refine", "n", "1 group", "rhs 1024");
    int fails = 0;
    double start = now();
    for (int dbl = 0; dbl <= (fp64 ? 1 : 0); dbl++)
        for (int refine = 1; refine >= 0; refine--)
            for (int n = TB; n <= most; n *= 2) {
                double one = run(&p, dbl, refine, n, W, reps), full = run(&p, dbl, refine, n, 1024, reps);
                fails += one < 0 || full < 0;
                printf("%-3c %-7d %6d %10.1f %10.1f\n", "sd"[dbl], refine, n, one, full);
            }
    printf("check: %s (%.1f s)\n", fails ? "FAILED" : "every leaf solved: ok", now() - start);
    clReleaseCommandQueue(p.q);
    clReleaseContext(p.ctx);
    free(real);
    free(trsm);
    return fails != 0;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared declarations of the tuner (gpublas3-tune): tune.c searches,
 * tune_eval.c measures one candidate in a child process, tune_space.c holds
 * the search spaces and the tuned-params CSV writer. */
#ifndef GPUBLAS3_TUNE_H
#define GPUBLAS3_TUNE_H
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stddef.h>
#include "params.h"

/* The device as the parent knows it (found by a child: the parent itself
 * never touches OpenCL, so that it can fork a fresh process per candidate). */
typedef struct {
    char name[256], vendor[256], driver[256], version[256], platform[256];
    int gpu, nvidia, fp64;
    size_t max_wg, local_mem;
    double copy_gbs;   /* clEnqueueCopyBuffer bandwidth, bytes read + written */
} tune_device;

/* Host data of one GEMM shape C = A*B (M x N x K, NN), shared with every
 * child through fork: operands, x and the reference A*(B*x) with its bound
 * (Freivalds: catches NaN, unwritten and grossly wrong elements anywhere),
 * and three whole rows and columns of C computed exactly, with sum |a||b|
 * for their tolerance (catches a small error, such as one missing k-tile,
 * in those). */
#define TUNE_LINES 3
typedef struct {
    int dbl;
    size_t M, N, K;
    void *A, *B;          /* M x K and K x N, column-major, tight */
    double *x, *ref, *bound;                     /* x: N; ref, bound: M */
    size_t row_at[TUNE_LINES], col_at[TUNE_LINES]; /* first, last and a random index */
    double *row[TUNE_LINES], *rowabs[TUNE_LINES]; /* C(row_at, :), N each */
    double *col[TUNE_LINES], *colabs[TUNE_LINES]; /* C(:, col_at), M each */
} tune_problem;

typedef struct {
    int ok;                /* 1 measured and checked, 0 failed, 2 pruned */
    double gflops_small, gflops;
    double max_err;        /* Freivalds residual / bound, must be < 1 */
    char why[200];
} tune_result;

/* Child side (tune_eval.c). */
int tune_open_device(const char *selector, cl_device_id *dev, char *err, size_t n);
int tune_query_device(const char *selector, tune_device *out, char *err, size_t n);
void tune_problem_make(tune_problem *p, int dbl, size_t M, size_t N, size_t K, unsigned long long seed);
/* Measures GEMM with params (GPUBLAS3_PARAMS syntax, packed path) on the
 * small problem, gives up when it is slower than prune_gflops, then on the
 * nbig main ones: r->gflops is their geometric mean. */
#define TUNE_MAX_MAIN 4
void tune_eval_gemm(const char *selector, const char *params, const tune_problem *small,
                    const tune_problem *big, int nbig, double prune_gflops, int reps, tune_result *r);
/* Measures the copy kernel (copy/pack.cl read from src_path) packing an
 * n x n matrix, transposed and not; r->gflops holds GB/s (read + written). */
void tune_eval_copy(const char *selector, const char *src_path, const g3_params *p, size_t n,
                    int reps, tune_result *r);

/* Search spaces (tune_space.c). */
typedef struct { const char *name; int count; int values[12]; } tune_axis;
typedef struct { const char *name; int naxes; tune_axis axes[16]; } tune_space;
const tune_space *tune_space_for(const char *name);
/* Limits one axis of s to the values of spec ("name=v,v,..."), in
 * increasing order; nonzero when spec names no axis of s, lists none or
 * more than an axis holds (12). */
int tune_axis_limit(tune_space *s, const char *spec);
/* Reads parameter `name` of p / writes it. */
int *tune_field(g3_params *p, const char *name);
/* The kernels' parameters of p that the tuner searches and writes (the
 * rows' columns), in GPUBLAS3_PARAMS syntax, async and swz as they take
 * effect (0 where the set cannot use them): a candidate's set leaves the
 * plan's fields to the device's rows. */
void tune_params_string(const g3_params *p, char *buf, size_t n);
/* Replaces (or adds) the row (match, precision, shape) of the CSV at path,
 * with p's async and swz as they take effect (as tune_params_string);
 * shape is a class name of lib/params.h or "any". */
int tune_write_row(const char *path, const char *match, const char *shape, const g3_params *p,
                   const char *comment);
#endif

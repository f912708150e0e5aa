/* SPDX-License-Identifier: BSD-3-Clause */
/* Call shapes for the benchmark, its cuBLAS peer and the tuner: lists as
 * the command line writes them ("8192x64x8192:NN,512x512x512") and the
 * named suites of the shapes real programs call (blocked LU/Cholesky/QR
 * updates, skinny outputs, deep K, small and large squares).  C and C++
 * (cublas_peer.cu includes it). */
#ifndef GPUBLAS3_BENCH_SHAPES_H
#define GPUBLAS3_BENCH_SHAPES_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

#define BENCH_MAX_SHAPES 64

/* One shape: M x N x K as GEMM names them, op(A) and op(B) ('N' or 'T'),
 * and the suite group it belongs to ("list" for --shapes). */
typedef struct {
    size_t M, N, K;
    char ta, tb;
    const char *group;
} bench_shape;

/* Parses "MxNxK[:TT],..." into out (at most max); the count, or -1 with a
 * reason in err. */
int bench_shapes_parse(const char *list, bench_shape *out, int max, char *err, size_t n);
/* The named suite ("shapes", "shapes-cpu"): its count, or -1 if unknown. */
int bench_suite(const char *name, bench_shape *out, int max);
const char *bench_suite_names(void);
/* "8192x64x8192:NN" */
void bench_shape_string(const bench_shape *s, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif

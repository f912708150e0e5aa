/* SPDX-License-Identifier: BSD-3-Clause */
/* Call shapes for the benchmark, its cuBLAS peer and the tuner: lists as
 * the command line writes them ("8192x64x8192:NN,512x512x512",
 * "syrk:8192x256:LN,trsm:256x8192:LLNU") and the named suites of the calls
 * real programs make (blocked LU/Cholesky/QR updates, skinny outputs, deep
 * K, small and large squares, and the rank-k updates and triangular panels
 * of LAPACK's blocked factorizations).  C and C++ (cublas_peer.cu includes
 * it). */
#ifndef GPUBLAS3_BENCH_SHAPES_H
#define GPUBLAS3_BENCH_SHAPES_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

#define BENCH_MAX_SHAPES 64

/* One shape: the routine it is for ("syrk"; NULL for a plain MxNxK, which
 * runs for every routine of the run it fits), M x N x K as spec.h names
 * them (a routine shape fills in the one its call does not take: SYRK's
 * M = N, TRMM's K = A's order), its options as letters (op(A), op(B): N, T
 * or C; side L or R; uplo U or L; diag N or U), and the suite group it
 * belongs to ("list" for --shapes). */
typedef struct {
    const char *routine;
    size_t M, N, K;
    char ta, tb, side, uplo, diag;
    const char *group;
} bench_shape;

/* Parses "[ROUTINE:]DIMS[:OPTIONS],..." into out (at most max): DIMS and
 * OPTIONS as the bench's table writes them, MxNxK and op(A) op(B) for GEMM
 * (and a plain shape), NxK and uplo trans for SYRK, SYR2K, HERK, HER2K, MxN
 * and side uplo for SYMM, HEMM, MxN and side uplo transA diag for TRMM,
 * TRSM; options left out are the bench's defaults (N N L U N).  The count,
 * or -1 with a reason in err. */
int bench_shapes_parse(const char *list, bench_shape *out, int max, char *err, size_t n);
/* The named suite ("shapes", "shapes-cpu"): its count, or -1 if unknown. */
int bench_suite(const char *name, bench_shape *out, int max);
const char *bench_suite_names(void);

#ifdef __cplusplus
}
#endif
#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* Host side of the GEMM kernel (kernels/gemm.cl): one launch over a block
 * of C from packed A' and B', or operands read in place. */
#ifndef G3_GEMM_H
#define G3_GEMM_H
#include "core.h"

/* What one launch needs; kernels/gemm.cl says what tri and band mean. */
typedef struct {
    size_t M, N, K;        /* the block of C, and the padded depth of A', B' */
    double alpha, beta;
    cl_mem A, B;
    int bxb;               /* B' column-block width: NWG, or MWG when B' is A' */
    size_t ald, bld;       /* 0: A' (B') packed; else read in place with this leading */
    size_t aoff, boff;     /* dimension from this offset (elements; multiples of VWM, VWN), */
    int ak, bk;            /* with k contiguous when set (multiples of 16 bytes; staged sets) */
    int ac;                /* A' the 2x2 form of the complex matrix read in place (AIP 3; aoff, ald
                            * in reals of its real view: k-row k of A' is its column k / 2) */
    cl_mem C;
    size_t offc, ldc;      /* the block's first element and C's leading dimension */
    int tri, tri_off;      /* triangle of C stored, and the block's diagonal offset */
    int band, band_off;    /* nonzero k-range of A' or B' */
    int trimap;            /* tri, when the ids cover only the triangle's tiles (tri_off 0, M == N, MWG == NWG) */
    int snake;             /* a band's ids in rounds of this many, alternating direction (0: none) */
    int cplx;              /* C is a complex matrix's real view (2: Hermitian output) */
    int splits;            /* split-K: slices of K (0 or 1: none), each kslice deep (a multiple of */
    size_t kslice, cslice; /* KWG), slice s storing to C + s*cslice */
    /* batched GEMM (routines/plan/batched.c; batch 0: one call): product z
     * of the third dimension reads A', B' abatch, bbatch elements further
     * (whole vectors: VWM, VWN, or 16 bytes with k contiguous) and stores
     * C cslice further, or at
     * the offsets of the device table offs (cl_long, 4 a product), with
     * alpha and beta from scal (real, 6 a product) when given */
    size_t batch, abatch, bbatch;
    cl_mem offs, scal;
} g3_gemm_args;

/* 1 when a launch with set p prefetches its tile of C into L2 (the set's
 * cpref): it reads C (beta != 0), unsplit, K at most 512 (gemm.c). */
int g3_gemm_prefetches_c(const g3_params *p, double beta, int splits, size_t K);

gpublas3Status g3_gemm_launch(const g3_device *d, const g3_kset *ks, int dbl, const g3_gemm_args *a,
                              g3_chain *chain);
#endif

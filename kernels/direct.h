/* SPDX-License-Identifier: BSD-3-Clause */
/* Host side of the direct kernel (kernels/direct.cl): one launch that
 * reads the operands in place, no copy kernels, no scratch.  Operands are
 * described as the copy kernel's (copy/pack.h's g3_operand), whose
 * element fetch the direct kernel shares. */
#ifndef G3_DIRECT_H
#define G3_DIRECT_H
#include "core.h"
#include "pack.h"

typedef struct {
    size_t M, N, K;
    double alpha, beta;
    /* complex (kernels/direct.cl's COMPLEX): M, N, K, offsets and leading
     * dimensions in complex elements, the operands general, conjugated
     * where their `conj` is set, and complex alpha and beta */
    int cplx;
    double alpha_im, beta_im;
    int nterms;               /* 1 or 2 */
    const g3_operand *a[2], *b[2]; /* term t: op(a[t]) (M x K) times op(b[t]) (K x N) */
    cl_mem C;
    size_t offc, ldc;
    int tri;                  /* 1 / 2: store only the upper / lower triangle of C */
    int inplace;              /* C is an operand too (TRMM): see kernels/direct.cl */
    /* batched GEMM (routines/plan/batched.c; 0 / NULL: one call): `batch`
     * products, term 0's A, B and C `stride` elements apart, or at the
     * offsets of the device table `offs` (cl_long, 4 a product), with
     * alpha and beta from `scal` (real, 6 a product: entries 0 and 1, or
     * complex 2 and 3, 4 and 5) when given */
    size_t batch, stride[3];
    cl_mem offs, scal;
    size_t per_group;         /* products each work-group computes in turn (0: 1) */
} g3_direct_args;

/* The work-group tile of C with set ks: TILE_M x TILE_N elements. */
size_t g3_direct_tile_m(const g3_kset *ks);
size_t g3_direct_tile_n(const g3_kset *ks);
gpublas3Status g3_direct_launch(const g3_device *d, const g3_kset *ks, int dbl, const g3_direct_args *a,
                                g3_chain *chain);
#endif

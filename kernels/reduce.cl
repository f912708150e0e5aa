/* SPDX-License-Identifier: BSD-3-Clause */
/* The split-K reduction (routines/plan/splitk.c): the GEMM kernel has left
 * `splits` partial products of C, P[s*pslice + m + n*M] = sum over slice s
 * of K, with alpha = 1 and beta = 0; this sums them in slice order -- a
 * fixed order, so the same call gives bit-identical results every time --
 * and stores C <- alpha * sum + beta * C with the triangle mask and
 * beta == 0 honoured (kernels/store.cl).  Partials outside the stored
 * triangle were never written and are never read.  With cs = 1 the rows
 * are a complex matrix's real view (row m holds complex row m / 2: the
 * triangle compares m >> 1 with n), cs = 2 the same with the imaginary
 * parts of the diagonal stored as 0 (HERK, HER2K); split.c copies a
 * diagonal block's triangle with it (one slice, alpha 1, beta 0).
 * reduce_t, at the end, stores the product a CPU computes transposed;
 * reduce_sym adds a square product and its transpose into a triangle.
 * Parameters: PRECISION. */
#include "real.cl"
#include "store.cl"

/* Each work-item sums rn (1 or REDUCE_RN) columns of one row, their reads
 * issued together (kernels/reduce.c chooses rn by the output's size).  rn
 * 1 has a loop of its own: the 4-wide loop's predicated reads, at one
 * column, took deep K's reductions from 7 to 13 us on the H100 (64^2, 64
 * slices: docs/performance.md, Split-K). */
#define REDUCE_RN 4
__kernel void reduce(const int M, const int N, const int splits, const real alpha, const real beta,
                     __global const real *P, const long pslice,
                     __global real *C, const long offc, const long ldc, const int tri, const int cs,
                     const int rn)
{
    const int m = get_global_id(0), n0 = get_global_id(1) * rn, mc = cs ? m >> 1 : m;
    if (m >= M) return;
    __global const real *p = P + m + (long)n0 * M;
    if (rn == 1) {
        if (n0 >= N || !in_tri(tri, 0, mc, n0)) return;
        real sum = p[0];
        for (int s = 1; s < splits; s++)
            sum += p[s * pslice];
        store(C, offc, ldc, M, N, tri, 0, cs, m, n0, alpha, beta, sum);
        return;
    }
    bool in[REDUCE_RN];
    real sum[REDUCE_RN];
    UNROLL_ALL for (int j = 0; j < REDUCE_RN; j++) {
        const int n = n0 + j;
        in[j] = n < N && in_tri(tri, 0, mc, n);
        sum[j] = in[j] ? p[(long)j * M] : 0;
    }
    for (int s = 1; s < splits; s++)
        UNROLL_ALL for (int j = 0; j < REDUCE_RN; j++)
            if (in[j])
                sum[j] += p[s * pslice + (long)j * M];
    UNROLL_ALL for (int j = 0; j < REDUCE_RN; j++)
        if (in[j])
            store(C, offc, ldc, M, N, tri, 0, cs, m, n0 + j, alpha, beta, sum[j]);
}

/* C <- alpha * T^T + beta * C from T, N x M tight (ld N): the product a
 * CPU computes transposed (routines/plan/packed.c) lands there as C^T. */
__kernel void reduce_t(const int M, const int N, const real alpha, const real beta, __global const real *T,
                       __global real *C, const long offc, const long ldc)
{
    const int m = get_global_id(0), n = get_global_id(1);
    if (m < M && n < N)
        store(C, offc, ldc, M, N, 0, 0, 0, m, n, alpha, beta, T[n + (long)m * N]);
}

/* C <- X + X^T + beta * C on triangle tri (cs 2: X + X^H, the diagonal's
 * imaginary parts 0), X M x N tight, N = M (cs 0) or M / 2: SYR2K's and
 * HER2K's square form (routines/plan/square.c), whose second term is the
 * first's transpose.  With cs, row m of the real view is part m & 1 of
 * complex row m / 2, so X^T's element there is part m & 1 of complex
 * element (n, m / 2): real row 2n + (m & 1), column m / 2. */
__kernel void reduce_sym(const int M, const int N, const real beta, __global const real *X,
                         __global real *C, const long offc, const long ldc, const int tri, const int cs)
{
    const int m = get_global_id(0), n = get_global_id(1), mc = cs ? m >> 1 : m;
    if (m >= M || n >= N || !in_tri(tri, 0, mc, n)) return;
    const real xt = X[(cs ? 2 * n + (m & 1) : n) + (long)mc * M];
    store(C, offc, ldc, M, N, tri, 0, cs, m, n, 1, beta, X[m + (long)n * M] + (cs == 2 && (m & 1) ? -xt : xt));
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* One launch solves one leaf of TRSM (routines/plan/solve.c): L X = B for
 * the n x n triangular L of at most SLOTS * LS rows, every column of B at
 * once, W columns a work-group.  L is the effective matrix of the solve
 * (op(T) on the left, op(T)^T on the right, routines/plan/solve.c); `fwd`
 * when it is lower (its blocks are taken first to last), else upper (last
 * to first).
 *
 * Why one launch: a blocked solve built of GEMM calls costs mostly its
 * commands on a GPU (on the H100 this kernel is 2.3-3.9x faster than the
 * blocked path at n <= 1024: docs/performance.md, TRSM).  Here
 * the whole chain of diagonal blocks runs inside one work-group per W
 * columns, its barriers the only steps between them.
 *
 * Layouts (element offsets, column-major):
 * - L(p, q) off its diagonal blocks = E[eoff + p + q * eq], conjugated
 *   with `cj` (ConjTrans): where T's storage puts q, not p, contiguous, the
 *   plan copies L transposed first (leaf_transpose below for complex
 *   leaves), so that neighbouring work-items read neighbouring rows;
 * - the diagonal block g (rows and columns [g TB, g TB + len)) comes from
 *   kernels/trtri.cl: its inverse at I[woff + g TB^2 + l TB + i] = inv(i, l)
 *   and (REFINE) the block itself, a general matrix, the same way in T;
 * - B(p, c) = B[boff + p * bp + c * bc], p < n, c < rhs.
 *
 * COMPLEX=1 (CTRSM, ZTRSM): elements are {re, im} pairs, alpha is
 * complex, and every product is complex; the steps are the same.
 *
 * Work-item lid holds rows p = s LS + lid (s < SLOTS) of its group's W
 * columns in registers, alpha B scaled in.  Block g, in order:
 * 1. its rows go to local memory (Bl), the block's inverse (and T) too;
 * 2. work-item (r, q) = (lid % TB, lid / TB) finds X(r, q) = inv Bl, and
 *    with REFINE once more X += inv (Bl - T X): a product with an inverse
 *    leaves a residual that grows with the block's condition number, one
 *    refinement brings it to substitution's (docs/performance.md, TRSM);
 * 3. the block's owners take X; every row still to solve subtracts
 *    L(p, block) X (lower: the rows below; upper: the rows above).
 * Four barriers a block (two without REFINE); every B element is read and
 * written once.
 *
 * Measured on the H100 (docs/performance.md, TRSM): one work-group takes as long as
 * one per SM, so the time is each work-group's latency, the update ~60 % of
 * it.  NVIDIA's compiler keeps acc in local memory (it indexes the owners'
 * slot at run time); owners found by row keep it in registers and were no
 * faster, nor were the update taken across every slot at once or the
 * diagonal work on 64 work-items of 4 columns (docs/performance.md, TRSM has the figures). */
#include "real.cl"

#ifndef COMPLEX
#define COMPLEX 0
#endif
#if COMPLEX
typedef real2 elem;
/* c + a b */
static elem emac(elem a, elem b, elem c)
{
    return (elem)(MAC(a.x, b.x, MAC(-a.y, b.y, c.x)), MAC(a.x, b.y, MAC(a.y, b.x, c.y)));
}
#define EMUL(a, b) emac(a, b, (elem)0)
#define ECONJ(a, cj) ((cj) ? (elem)((a).x, -(a).y) : (a))
#else
typedef real elem;
#define emac(a, b, c) MAC(a, b, c)
#define EMUL(a, b) ((a) * (b))
#define ECONJ(a, cj) (a)
#endif

#define LS (TB * W)
/* L(p, q), rows contiguous: with a run-time stride p * ep the real kernel
 * took 148 registers (S) and 240 (D) against 111 and 174 (clang 15 to
 * PTX, ptxas for sm_90), one work-group of 256 an SM instead of two, and
 * STRSM 1024 ran 1.37x slower on the H200 (2026-12-07) */
#define EAT(p, q) (eoff + (p) + (long)(q) * eq)
/* bench/leaf_probe.c's ablations, to time the kernel's parts (the library
 * never sets it; its results are then wrong): bit 1 drops the update, 2
 * the diagonal work (X = B), 4 the loads of the inverse and T. */
#ifndef PROBE_SKIP
#define PROBE_SKIP 0
#endif

__kernel __attribute__((reqd_work_group_size(LS, 1, 1)))
void trsm_leaf(const int n, const int rhs, const int fwd, const elem alpha,
               __global const elem *restrict E, const long eoff, const long eq, const int cj,
               __global const elem *restrict I, __global const elem *restrict T, const long woff,
               __global elem *restrict B, const long boff, const long bp, const long bc)
{
    const int lid = get_local_id(0), c0 = get_group_id(0) * W;
    const int r = lid % TB, q = lid / TB; /* the element of a block's X this work-item finds */
    const int nblk = (n + TB - 1) / TB;
    __local elem Il[TB][TB], Bl[TB][W], Xl[TB][W]; /* Il[l][i] = inv(i, l) */
#if REFINE
    __local elem Tl[TB][TB], Rl[TB][W];
#endif
    elem acc[SLOTS][W];
    UNROLL_ALL
    for (int s = 0; s < SLOTS; s++) {
        const int p = s * LS + lid;
        UNROLL_ALL
        for (int c = 0; c < W; c++)
            acc[s][c] = p < n && c0 + c < rhs ? EMUL(alpha, B[boff + p * bp + (c0 + c) * bc]) : (elem)0;
    }
    for (int step = 0; step < nblk; step++) {
        const int g = fwd ? step : nblk - 1 - step, g0 = g * TB, len = min(TB, n - g0);
        const int own = g0 % LS, slot = g0 / LS; /* the block's rows: work-items own.., slot `slot` */
        const long wo = woff + (long)g * TB * TB;
        /* outside len x len the blocks are not written: zeros keep X's
         * unused rows zero (and NaN-free) */
#if !(PROBE_SKIP & 4)
        for (int e = lid; e < TB * TB; e += LS) {
            const int i = e % TB, l = e / TB, in = i < len && l < len;
            Il[l][i] = in ? I[wo + e] : (elem)0;
#if REFINE
            Tl[l][i] = in ? T[wo + e] : (elem)0;
#endif
        }
#endif
        UNROLL_ALL
        for (int s = 0; s < SLOTS; s++)
            if (s == slot && lid >= own && lid < own + len)
                UNROLL_ALL
                for (int c = 0; c < W; c++)
                    Bl[lid - own][c] = acc[s][c];
        barrier(CLK_LOCAL_MEM_FENCE);
        const elem b = r < len ? Bl[r][q] : (elem)0;
#if PROBE_SKIP & 2
        elem x = b;
#else
        elem x = 0;
        UNROLL_ALL
        for (int l = 0; l < TB; l++)
            x = emac(Il[l][r], l < len ? Bl[l][q] : (elem)0, x);
#endif
        Xl[r][q] = x;
        barrier(CLK_LOCAL_MEM_FENCE);
#if REFINE && !(PROBE_SKIP & 2)
        elem res = b;
        UNROLL_ALL
        for (int l = 0; l < TB; l++)
            res = emac(-Tl[l][r], Xl[l][q], res);
        Rl[r][q] = res;
        barrier(CLK_LOCAL_MEM_FENCE);
        UNROLL_ALL
        for (int l = 0; l < TB; l++)
            x = emac(Il[l][r], Rl[l][q], x);
        Xl[r][q] = x;
        barrier(CLK_LOCAL_MEM_FENCE);
#endif
        UNROLL_ALL
        for (int s = 0; s < SLOTS; s++) {
            const int p = s * LS + lid;
            if (s == slot && lid >= own && lid < own + len) {
                UNROLL_ALL
                for (int c = 0; c < W; c++)
                    acc[s][c] = Xl[lid - own][c];
            } else if (fwd ? p >= g0 + len && p < n : p < g0) {
#if !(PROBE_SKIP & 1)
                elem e[TB];
                UNROLL_ALL
                for (int l = 0; l < TB; l++)
                    e[l] = l < len ? ECONJ(E[EAT(p, g0 + l)], cj) : (elem)0;
                UNROLL_ALL
                for (int l = 0; l < TB; l++)
                    UNROLL_ALL
                    for (int c = 0; c < W; c++)
                        acc[s][c] = emac(-e[l], Xl[l][c], acc[s][c]);
#endif
            }
        }
        /* the next block writes Il, Tl and Bl, which nothing reads after
         * this block's last barrier, and Xl only after its own first one */
    }
    UNROLL_ALL
    for (int s = 0; s < SLOTS; s++) {
        const int p = s * LS + lid;
        UNROLL_ALL
        for (int c = 0; c < W; c++)
            if (p < n && c0 + c < rhs)
                B[boff + p * bp + (c0 + c) * bc] = acc[s][c];
    }
}

/* L transposed, tight: T[p + q n] = E[eoff + p ld + q] for p, q < n, through
 * tiles of 16 x 16 in local memory so that both sides are read and written
 * along their storage.  Complex leaves whose L runs across T's storage
 * take it (real ones take the copy kernel, whose complex forms are the
 * GEMM's, not a plain transpose): read in place, such a leaf ran 1.2-1.3x
 * slower than the other layouts (CTRSM 1024 on the H200, 2026-12-07). */
#define TT 16
__kernel __attribute__((reqd_work_group_size(TT, TT, 1)))
void leaf_transpose(const int n, __global const elem *restrict E, const long eoff, const long ld,
                    __global elem *restrict T)
{
    __local elem t[TT][TT + 1];
    const int i = get_local_id(0), j = get_local_id(1), p0 = get_group_id(1) * TT, q0 = get_group_id(0) * TT;
    if (p0 + j < n && q0 + i < n)
        t[j][i] = E[eoff + (long)(p0 + j) * ld + q0 + i];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (p0 + i < n && q0 + j < n)
        T[p0 + i + (long)(q0 + j) * n] = t[i][j];
}

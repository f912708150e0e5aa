/* SPDX-License-Identifier: BSD-3-Clause */
/* Inverts the diagonal blocks of a triangular matrix T = op(A) for TRSM
 * (routines/plan/solve.c): block g covers rows and columns [g*nb, g*nb+len)
 * of T, len = min(nb, n - g*nb), and its inverse X goes to W as
 *   W[g*nb*nb + i*nb + j] = X(i, j)   (i, j < len; rm, row-major), or
 *   W[g*nb*nb + j*nb + i] = X(i, j)   (!rm, column-major),
 * the other triangle of X written as zero; the plan reads it back as an
 * nb x nb column-major matrix or its transpose (rm), each the layout its
 * GEMM reads in place (routines/plan/solve.c).  With `dense`, T_gg goes to
 * D in the same layout, its other triangle zero and a unit diagonal
 * written as 1: a general operand, so that the refinement's product with
 * T_gg needs no pack of its triangle.  (The per-column kernel below writes
 * rm only and no D.)
 *
 * T(i, k) = tr ? A(k, i) : A(i, k), A column-major at X[offa + i + k*lda];
 * only T's triangle (`upper` or lower) is read, and with `unit` not its
 * diagonal (taken as 1).  Column j of X is T's substitution applied to e_j,
 * as reference BLAS's TRSM runs it (lower: for k = j, j+1, ..: x_k /= T(k,
 * k), then x_i -= T(i, k) x_k below k); a zero diagonal element gives
 * infinities and NaN.  The grouped kernel does not skip a zero x_k as
 * reference BLAS does: PoCL 3.1 (LLVM 15) compiled that test wrongly for
 * a Haswell target (real blocks of COLS >= 8 came out wrong, 2026-11-29),
 * and the product with the inverse does not keep reference BLAS's NaN
 * pattern anyway.  Complex T (CTRSM,
 * ZTRSM) is inverted in complex arithmetic (COMPLEX=1): inverting its real
 * 2 x 2 representation instead would not fit (that matrix is not
 * triangular: each diagonal element becomes a full 2 x 2 block).
 *
 * Two kernels (COLS, the tuned trsm_cols, picks; docs/performance.md, TRSM
 * has their figures):
 * - COLS > 0: one work-group per block and COLS columns of X, one work-item
 *   per row (LS of them, each RPW rows when nb > LS), the group's COLS
 *   columns of its rows in registers.  Step k: the owner of row k divides
 *   it and puts it in local memory, one barrier, every later row subtracts
 *   T(i, k) times it.  nb steps of a few operations each: the inversion's
 *   chain is nb barriers long, not nb^2/2 dependent multiply-adds.
 * - COLS = 0: one work-item per column j of X, its nb-long substitution in
 *   dot form (x_i from the x_k already found), the column in private
 *   memory: ~150 us a block of 128 on the
 *   H100 (its chain is nb^2/2 loads and multiply-adds long). */
#include "real.cl"

/* COMPLEX: elements are {re, im} pairs and `cj` conjugates T (ConjTrans).
 * The substitution is the same; only the arithmetic changes. */
#if COMPLEX
typedef real2 elem;
#define ONE ((elem)((real)1, (real)0))
static elem mul(elem a, elem b) { return (elem)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
/* a / b, b scaled first (b's parts may be near the range's ends) */
static elem quot(elem a, elem b)
{
    const real s = fmax(fabs(b.x), fabs(b.y)), x = b.x / s, y = b.y / s, d = x * x + y * y;
    return (elem)((a.x * x + a.y * y) / d, (a.y * x - a.x * y) / d) / s;
}
static elem tel(__global const elem *T, long k, int cj) { elem v = T[k]; return cj ? (elem)(v.x, -v.y) : v; }
#else
typedef real elem;
#define ONE ((real)1)
#define mul(a, b) ((a) * (b))
#define quot(a, b) ((a) / (b))
#define tel(T, k, cj) ((T)[k])
#endif

#if COLS > 0
#define LS (NB < 256 ? NB : 256)
/* blocks of at most 16 KB are staged in local memory first */
#define STAGE (NB * NB * PRECISION / 8 * (COMPLEX + 1) <= 16384)
#define RPW ((NB + LS - 1) / LS)
__kernel __attribute__((reqd_work_group_size(LS, 1, 1)))
void trtri(__global const elem *restrict A, const long offa, const long lda, const int tr, const int cj,
           const int upper, const int unit, const int n, const int nb, __global elem *restrict W,
           const int rm, const int dense, __global elem *restrict D)
{
    const int groups = (NB + COLS - 1) / COLS, g = get_group_id(0) / groups;
    const int j0 = get_group_id(0) % groups * COLS, b0 = g * nb, len = min(nb, n - b0), lid = get_local_id(0);
    if (j0 >= len)
        return; /* the whole group: the short last block's missing columns */
    __global const elem *T = A + offa + (long)b0 * (lda + 1);
    const long si = tr ? lda : 1, sk = tr ? 1 : lda; /* T(i, k) = T[i*si + k*sk] */
#if STAGE
    /* the steps' loads then wait on local memory only, not on a global
     * load's latency each (kernels/trsm.cl's blocks of 32) */
    __local elem Ts[NB][NB]; /* Ts[k][i] = T(i, k) on T's triangle, else 0 */
    for (int e = lid; e < len * len; e += LS) {
        const int i = e % len, k = e / len;
        Ts[k][i] = (upper ? i <= k : i >= k) ? tel(T, i * si + k * sk, cj) : (elem)0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#define TEL(i, k) Ts[k][i]
#else
#define TEL(i, k) tel(T, (i) * si + (k) * sk, cj)
#endif
    __local elem piv[2][COLS];                       /* row k of the columns, by step parity */
    elem x[RPW][COLS];                               /* rows lid + r*LS of the columns j0.. */
#pragma unroll
    for (int r = 0; r < RPW; r++)
#pragma unroll
        for (int c = 0; c < COLS; c++)
            x[r][c] = lid + r * LS == j0 + c ? ONE : (elem)0;
    /* lower: k = j0, .., len-1; upper: k = min(j0+COLS, len)-1, .., 0 (rows past a column's diagonal are 0) */
    const int steps = upper ? min(j0 + COLS, len) : len - j0;
    /* the loads wait on nothing: each row's diagonal first, and step s+1's
     * T(i, k) before step s's barrier, so that none is on the chain */
    elem dg[RPW], t[RPW], tn[RPW];
#pragma unroll
    for (int r = 0; r < RPW; r++) {
        const int i = lid + r * LS, k = upper ? steps - 1 : j0;
        dg[r] = unit || i >= len ? ONE : TEL(i, i);
        t[r] = i < len && (upper ? i < k : i > k) ? TEL(i, k) : (elem)0;
    }
    for (int s = 0; s < steps; s++) {
        const int k = upper ? steps - 1 - s : j0 + s, kn = upper ? k - 1 : k + 1;
        int later[RPW];
#pragma unroll
        for (int r = 0; r < RPW; r++) {
            const int i = lid + r * LS;
            later[r] = i < len && (upper ? i < k : i > k);
            tn[r] = s + 1 < steps && i < len && (upper ? i < kn : i > kn) ? TEL(i, kn) : (elem)0;
        }
#pragma unroll
        for (int r = 0; r < RPW; r++)
            if (lid + r * LS == k) {
#pragma unroll
                for (int c = 0; c < COLS; c++) {
                    const int j = j0 + c;
                    const elem v = (upper ? j >= k : j <= k) ? (unit ? x[r][c] : quot(x[r][c], dg[r])) : (elem)0;
                    x[r][c] = v;
                    piv[s & 1][c] = v;
                }
            }
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int c = 0; c < COLS; c++) {
            const elem p = piv[s & 1][c];
#pragma unroll
            for (int r = 0; r < RPW; r++)
                if (later[r])
                    x[r][c] -= mul(t[r], p);
        }
#pragma unroll
        for (int r = 0; r < RPW; r++)
            t[r] = tn[r];
    }
#pragma unroll
    for (int r = 0; r < RPW; r++) {
        const int i = lid + r * LS;
#pragma unroll
        for (int c = 0; c < COLS; c++) {
            const int j = j0 + c;
            if (i < len && j < len) {
                const long at = (long)g * nb * nb + (rm ? i * nb + j : j * nb + i);
                W[at] = x[r][c];
                if (dense)
                    D[at] = i == j ? (unit ? ONE : TEL(i, i)) : (upper ? i < j : i > j) ? TEL(i, j) : (elem)0;
            }
        }
    }
}
#else
__kernel void trtri(__global const elem *restrict A, const long offa, const long lda, const int tr,
                    const int cj, const int upper, const int unit, const int n, const int nb,
                    __global elem *restrict W, const int rm, const int dense, __global elem *restrict D)
{
    const int g = get_group_id(0), b0 = g * nb, len = min(nb, n - b0);
    __global const elem *T = A + offa + (long)b0 * (lda + 1);
    const long si = tr ? lda : 1, sk = tr ? 1 : lda; /* T(i, k) = T[i*si + k*sk] */
    __global elem *X = W + (long)g * nb * nb;
    for (int j = get_local_id(0); j < len; j += get_local_size(0)) {
        elem x[NB]; /* column j of X: x[k] = X(k, j), set before it is read */
        for (int s = 0; s < len; s++) {
            const int i = upper ? len - 1 - s : s;
            elem v = 0;
            if (i == j) {
                v = unit ? ONE : quot(ONE, tel(T, i * si + i * sk, cj));
            } else if (upper ? i < j : i > j) {
                const int k0 = upper ? i + 1 : j, k1 = upper ? j : i - 1;
                elem sum = 0;
                for (int k = k0; k <= k1; k++)
                    sum += mul(tel(T, i * si + k * sk, cj), x[k]);
                v = unit ? -sum : quot(-sum, tel(T, i * si + i * sk, cj));
            }
            x[i] = v;
            X[i * nb + j] = v;
        }
    }
}
#endif

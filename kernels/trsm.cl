/* One launch solves one leaf of TRSM (routines/plan/solve.c): L X = B for
 * the n x n triangular L of at most SLOTS * LS rows, every column of B at
 * once, W columns a work-group.  L is the effective matrix of the solve
 * (op(T) on the left, op(T)^T on the right, routines/plan/solve.c); `fwd`
 * when it is lower (its blocks are taken first to last), else upper (last
 * to first).
 *
 * Why one launch: a blocked solve built of GEMM calls costs mostly its
 * commands on a GPU (bench/NOTES.md sections 29 and 32: 38 commands,
 * 0.61 ms at n = 1024 on the H100, where GEMM's arithmetic is 25 us).  Here
 * the whole chain of diagonal blocks runs inside one work-group per W
 * columns, its barriers the only steps between them.
 *
 * Layouts (element offsets, column-major):
 * - L(p, q) off its diagonal blocks = E[eoff + p + q * lde] (the plan
 *   copies L there when T's storage would put q, not p, contiguous);
 * - the diagonal block g (rows and columns [g TB, g TB + len)) comes from
 *   kernels/trtri.cl: its inverse at I[woff + g TB^2 + l TB + i] = inv(i, l)
 *   and (REFINE) the block itself, a general matrix, the same way in T;
 * - B(p, c) = B[boff + p * bp + c * bc], p < n, c < rhs.
 *
 * Work-item lid holds rows p = s LS + lid (s < SLOTS) of its group's W
 * columns in registers, alpha B scaled in.  Block g, in order:
 * 1. its rows go to local memory (Bl), the block's inverse (and T) too;
 * 2. work-item (r, q) = (lid % TB, lid / TB) finds X(r, q) = inv Bl, and
 *    with REFINE once more X += inv (Bl - T X): a product with an inverse
 *    leaves a residual that grows with the block's condition number, one
 *    refinement brings it to substitution's (bench/NOTES.md, README TRSM);
 * 3. the block's owners take X; every row still to solve subtracts
 *    L(p, block) X (lower: the rows below; upper: the rows above).
 * Four barriers a block (two without REFINE); every B element is read and
 * written once.  The next block's inverse and T are loaded during this
 * block's update, so that their latency is off the chain; X is read as
 * vectors of W; the diagonal products are four partial sums
 * (bench/NOTES.md section 36). */
#include "real.cl"

#if W != 8
#error "kernels/trsm.cl holds a work-item's columns in one 8-vector"
#endif
#if PRECISION == 64
typedef double8 real8;
#else
typedef float8 real8;
#endif
#define LS (TB * W)
#define NE (TB * TB / LS) /* elements of a diagonal block each work-item stages */

/* Block g's inverse and T, this work-item's NE elements (loaded a block
 * ahead: their latency then hides behind the current block's update). */
#define STAGE_LOAD(g)                                                          \
    do {                                                                       \
        const int g0_ = (g) * TB, len_ = min(TB, n - g0_);                     \
        UNROLL_ALL                                                             \
        for (int i = 0; i < NE; i++) {                                         \
            const int e = lid + i * LS, in = e % TB < len_ && e / TB < len_;   \
            pi[i] = in ? I[woff + (long)(g) * TB * TB + e] : 0;                \
            pt[i] = in && REFINE ? T[woff + (long)(g) * TB * TB + e] : 0;      \
        }                                                                      \
    } while (0)

__kernel __attribute__((reqd_work_group_size(LS, 1, 1)))
void trsm_leaf(const int n, const int rhs, const int fwd, const real alpha,
               __global const real *restrict E, const long eoff, const long lde,
               __global const real *restrict I, __global const real *restrict T, const long woff,
               __global real *restrict B, const long boff, const long bp, const long bc)
{
    const int lid = get_local_id(0), c0 = get_group_id(0) * W;
    const int r = lid % TB, q = lid / TB; /* the element of a block's X this work-item finds */
    const int nblk = (n + TB - 1) / TB;
    /* Il[l][i] = inv(i, l), Tl[l][i] = T(i, l); Bv, Xv, Rv: rows of the block's B, X, residual */
    __local real Il[TB][TB], Tl[TB][TB];
    __local real8 Bv[TB], Xv[TB], Rv[TB];
    __local real *const Bl = (__local real *)Bv, *const Xl = (__local real *)Xv, *const Rl = (__local real *)Rv;
    real8 acc[SLOTS];
    UNROLL_ALL
    for (int s = 0; s < SLOTS; s++) {
        const int p = s * LS + lid;
        real v[W];
        UNROLL_ALL
        for (int c = 0; c < W; c++)
            v[c] = p < n && c0 + c < rhs ? alpha * B[boff + p * bp + (c0 + c) * bc] : 0;
        acc[s] = (real8)(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
    }
    real pi[NE], pt[NE];
    STAGE_LOAD(fwd ? 0 : nblk - 1);
    for (int step = 0; step < nblk; step++) {
        const int g = fwd ? step : nblk - 1 - step, g0 = g * TB, len = min(TB, n - g0);
        const int own = g0 % LS, slot = g0 / LS; /* the block's rows: work-items own.., slot `slot` */
        UNROLL_ALL
        for (int i = 0; i < NE; i++) {
            const int e = lid + i * LS;
            Il[e / TB][e % TB] = pi[i];
            Tl[e / TB][e % TB] = pt[i];
        }
        UNROLL_ALL
        for (int s = 0; s < SLOTS; s++)
            if (s == slot && lid >= own && lid < own + len)
                Bv[lid - own] = acc[s];
        if (r >= len)
            Bl[r * W + q] = 0; /* a short block's missing rows */
        barrier(CLK_LOCAL_MEM_FENCE);
        /* X = inv B: four partial sums, a chain of TB / 4 */
        real x0 = 0, x1 = 0, x2 = 0, x3 = 0;
        UNROLL_ALL
        for (int l = 0; l < TB; l += 4) {
            x0 = MAC(Il[l][r], Bl[l * W + q], x0);
            x1 = MAC(Il[l + 1][r], Bl[(l + 1) * W + q], x1);
            x2 = MAC(Il[l + 2][r], Bl[(l + 2) * W + q], x2);
            x3 = MAC(Il[l + 3][r], Bl[(l + 3) * W + q], x3);
        }
        real x = (x0 + x1) + (x2 + x3);
        Xl[r * W + q] = x;
        barrier(CLK_LOCAL_MEM_FENCE);
#if REFINE
        /* R = B - T X, then X += inv R */
        x0 = Bl[r * W + q], x1 = 0, x2 = 0, x3 = 0;
        UNROLL_ALL
        for (int l = 0; l < TB; l += 4) {
            x0 = MAC(-Tl[l][r], Xl[l * W + q], x0);
            x1 = MAC(-Tl[l + 1][r], Xl[(l + 1) * W + q], x1);
            x2 = MAC(-Tl[l + 2][r], Xl[(l + 2) * W + q], x2);
            x3 = MAC(-Tl[l + 3][r], Xl[(l + 3) * W + q], x3);
        }
        Rl[r * W + q] = (x0 + x1) + (x2 + x3);
        barrier(CLK_LOCAL_MEM_FENCE);
        x0 = 0, x1 = 0, x2 = 0, x3 = 0;
        UNROLL_ALL
        for (int l = 0; l < TB; l += 4) {
            x0 = MAC(Il[l][r], Rl[l * W + q], x0);
            x1 = MAC(Il[l + 1][r], Rl[(l + 1) * W + q], x1);
            x2 = MAC(Il[l + 2][r], Rl[(l + 2) * W + q], x2);
            x3 = MAC(Il[l + 3][r], Rl[(l + 3) * W + q], x3);
        }
        Xl[r * W + q] = x + ((x0 + x1) + (x2 + x3));
        barrier(CLK_LOCAL_MEM_FENCE);
#endif
        /* the next block's inverse and T, during this block's update */
        if (step + 1 < nblk)
            STAGE_LOAD(fwd ? g + 1 : g - 1);
        UNROLL_ALL
        for (int s = 0; s < SLOTS; s++)
            if (s == slot && lid >= own && lid < own + len)
                acc[s] = Xv[lid - own];
        /* the rows still to solve: acc -= L(rows, block) X.  A slot none
         * of whose rows the block updates is skipped by the whole group;
         * in the slot that holds the block, rows not updated keep their
         * values (0 times an infinite X would not). */
        UNROLL_ALL
        for (int s = 0; s < SLOTS; s++) {
            if (fwd ? (s + 1) * LS <= g0 + len || s * LS >= n : s * LS >= g0)
                continue;
            const int p = s * LS + lid, act = fwd ? p >= g0 + len && p < n : p < g0;
            real e[TB];
            UNROLL_ALL
            for (int l = 0; l < TB; l++)
                e[l] = act && l < len ? E[eoff + p + (long)(g0 + l) * lde] : 0;
            if (act)
                UNROLL_ALL
                for (int l = 0; l < TB; l++)
                    acc[s] = MAC((real8)(-e[l]), Xv[l], acc[s]);
        }
        /* the next block writes Il, Tl and Bv, which nothing reads after
         * this block's last barrier, and Xv only after its own first one */
    }
    UNROLL_ALL
    for (int s = 0; s < SLOTS; s++) {
        const int p = s * LS + lid;
        const real v[W] = { acc[s].s0, acc[s].s1, acc[s].s2, acc[s].s3, acc[s].s4, acc[s].s5, acc[s].s6,
                            acc[s].s7 };
        UNROLL_ALL
        for (int c = 0; c < W; c++)
            if (p < n && c0 + c < rhs)
                B[boff + p * bp + (c0 + c) * bc] = v[c];
    }
}

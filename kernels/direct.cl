/* SPDX-License-Identifier: BSD-3-Clause */
/* The direct kernel: C <- alpha * sum_t op(A_t) * op(B_t) + beta * C in one
 * launch, reading A, B and C where they are (any transpose, offsets and
 * leading dimensions, every edge checked), for calls too small to pay for
 * the copy kernels and scratch of the packed path (routines/plan/plan.c
 * chooses).  Operands are structured as the copy kernel's (copy/fetch.cl):
 * SYMM's mirror, TRMM's zero triangle and unit diagonal are decided per
 * element by the same fetch(), so the other triangle is never read.
 *
 * Work-group (DIRECT_DM, DIRECT_DN); each work-item owns DIRECT_WM x
 * DIRECT_WN elements of C, m = m0 + lx + i*DIRECT_DM and n = n0 + ly +
 * j*DIRECT_DN, so that neighbouring work-items read neighbouring rows of A
 * and store neighbouring rows of C.
 *   tri 1 / 2: store only the upper / lower triangle of C (SYRK, SYR2K);
 *   inplace:   C is also an operand (TRMM's B): the host launches it only
 *              when one work-group holds every element of C that its own
 *              work-items read, and the barrier makes every read of the
 *              group happen before any store.
 * Batched GEMM (routines/plan/batched.c): layer l of work-groups (the
 * third dimension) computes products z = l*per_group to l*per_group +
 * per_group - 1 (below nprod) one after the other, term 0's A and B and C at
 * offa0 + z*sa, offb0 + z*sb, offc + z*sc, or, with `offs`, at offs[4z],
 * offs[4z+1], offs[4z+2], with alpha and beta scal[6z], scal[6z+1] when
 * `scal` is given; a product whose alpha is 0 does not read A and B.  A
 * single call is a build without BATCHED, which has none of this.
 * COMPLEX: the operands and C are complex (interleaved {re, im}, offsets
 * and leading dimensions in complex elements), alpha and beta complex,
 * tr's bit 1 conjugates the operand (ConjTrans); general operands only,
 * one triangle-free output (GEMM).  Each work-item keeps complex
 * accumulators, each multiply-add the four real ones of the packed path's
 * real view (routines/plan/complex.c) in its k order, the classical
 * rounding; a batch takes alpha and beta from scal[6z + 2 .. 6z + 5].
 * STAGED, COMPLEX with DIRECT_KB > 1 (GPUs): general operands are staged
 * through local memory DIRECT_KB k-steps at a time, every work-item loading
 * its share of both tiles at once, so that a work-group waits for memory
 * once per block rather than once per k (H200: batches of complex 32^3 and
 * 64^3 1.6-1.8x faster; real products gained nothing, 16^3 lost 1.3x:
 * docs/performance.md, Batched GEMM); else every element is read where it is.
 * Parameters: PRECISION, DIRECT_DM, DIRECT_DN, DIRECT_WM, DIRECT_WN, DIRECT_KB. */
#ifndef BATCHED
#define BATCHED 0
#endif
#ifndef COMPLEX
#define COMPLEX 0
#endif
#ifndef DIRECT_KB
#define DIRECT_KB 1
#endif
#define STAGED (COMPLEX && DIRECT_KB > 1)
#include "real.cl"
#include "fetch.cl"
#include "store.cl"
#if COMPLEX
typedef real2 scalar;
/* acc + a*b, a and b conjugated where ca / cb is -1 */
inline real2 emac(real2 a, real2 b, real2 acc, real ca, real cb)
{
    const real ai = ca * a.y, bi = cb * b.y;
    acc.x = MAC(a.x, b.x, acc.x);
    acc.x = MAC(-ai, bi, acc.x);
    acc.y = MAC(ai, b.x, acc.y);
    acc.y = MAC(a.x, bi, acc.y);
    return acc;
}
inline real2 cmul(real2 a, real2 b) { return (real2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
/* one element of complex C (beta 0: C not read) */
inline void estore(__global real2 *C, const long offc, const long ldc, const int M, const int N, const int tri,
                   const int m, const int n, const real2 alpha, const real2 beta, const real2 acc)
{
    if (m >= M || n >= N) return;
    __global real2 *c = C + offc + m + n * ldc;
    if (beta.x == 0 && beta.y == 0)
        *c = cmul(alpha, acc);
    else
        *c = cmul(alpha, acc) + cmul(beta, *c);
}
#else
typedef real scalar;
#define emac(a, b, acc, ca, cb) MAC(a, b, acc)
#define estore(C, offc, ldc, M, N, tri, m, n, alpha, beta, acc) store(C, offc, ldc, M, N, tri, 0, 0, m, n, alpha, beta, acc)
#endif
#define TILE_M (DIRECT_DM * DIRECT_WM)
#define TILE_N (DIRECT_DN * DIRECT_WN)

/* Y(x, k) of an operand seen x-by-k: S(k, x) when tr, else S(x, k) */
inline real elem(__global const real *X, long off, long ld, int tr, int shape, int unit, int x, int k)
{
    return tr ? fetch(X, off, ld, shape, unit, k, x) : fetch(X, off, ld, shape, unit, x, k);
}

__kernel __attribute__((reqd_work_group_size(DIRECT_DM, DIRECT_DN, 1)))
void direct(const int M, const int N, const int K0, const scalar alpha0, const scalar beta0, const int nterms,
            __global const scalar *A0, const long offa00, const long lda0, const int tra0, const int sa0, const int ua0,
            __global const scalar *B0, const long offb00, const long ldb0, const int trb0, const int sb0, const int ub0,
            __global const scalar *A1, const long offa1, const long lda1, const int tra1, const int sa1, const int ua1,
            __global const scalar *B1, const long offb1, const long ldb1, const int trb1, const int sb1, const int ub1,
            __global scalar *C, const long offc0, const long ldc, const int tri, const int inplace
#if BATCHED
            , const long bsa, const long bsb, const long bsc, __global const long *offs, __global const real *scal,
            const int nprod, const int per_group
#endif
            )
{
    const int m0 = get_group_id(0) * TILE_M, n0 = get_group_id(1) * TILE_N;
    const int lx = get_local_id(0), ly = get_local_id(1);
#if STAGED
    /* the staged tiles, k-major; a row's extra element keeps a column's
     * stores (k contiguous in the operand) off one bank */
    __local scalar As[DIRECT_KB][TILE_M + 1], Bs[DIRECT_KB][TILE_N + 1];
#endif
    /* a whole group off the stored triangle (never with inplace: TRMM has no tri) */
    if (tri == 1 && m0 - (n0 + TILE_N - 1) > 0) return;
    if (tri == 2 && (m0 + TILE_M - 1) - n0 < 0) return;
#if BATCHED
    const int z0 = get_group_id(2) * per_group, z1 = min(z0 + per_group, nprod);
#else
    const int z0 = 0, z1 = 1;
#endif
    for (int z = z0; z < z1; z++) {
#if BATCHED
        const long offa0 = offs ? offs[4 * z] : offa00 + z * bsa, offb0 = offs ? offs[4 * z + 1] : offb00 + z * bsb;
        const long offc = offs ? offs[4 * z + 2] : offc0 + z * bsc;
#if COMPLEX
        const real2 alpha = scal ? (real2)(scal[6 * z + 2], scal[6 * z + 3]) : alpha0;
        const real2 beta = scal ? (real2)(scal[6 * z + 4], scal[6 * z + 5]) : beta0;
        const int K = alpha.x == 0 && alpha.y == 0 ? 0 : K0;
#else
        const real alpha = scal ? scal[6 * z] : alpha0, beta = scal ? scal[6 * z + 1] : beta0;
        const int K = alpha == 0 ? 0 : K0;
#endif
#else
        const long offa0 = offa00, offb0 = offb00, offc = offc0;
        const scalar alpha = alpha0, beta = beta0;
        const int K = K0;
#endif
        scalar acc[DIRECT_WN][DIRECT_WM];
        UNROLL_ALL for (int j = 0; j < DIRECT_WN; j++)
            UNROLL_ALL for (int i = 0; i < DIRECT_WM; i++)
                acc[j][i] = 0;
        for (int t = 0; t < nterms; t++) {
            /* B is K x N: seen n-by-k it is its transpose, hence !trb */
            __global const scalar *A = t ? A1 : A0, *B = t ? B1 : B0;
            const long offa = t ? offa1 : offa0, lda = t ? lda1 : lda0, offb = t ? offb1 : offb0, ldb = t ? ldb1 : ldb0;
            const int tra = (t ? tra1 : tra0) & 1, sa = t ? sa1 : sa0, ua = t ? ua1 : ua0;
            const int trb = !((t ? trb1 : trb0) & 1), sb = t ? sb1 : sb0, ub = t ? ub1 : ub0;
            /* (complex: -1 conjugates) */
            const real ca = (t ? tra1 : tra0) & 2 ? -1 : 1, cb = (t ? trb1 : trb0) & 2 ? -1 : 1;
            if (sa == 0 && sb == 0) {
                /* general operands: strides instead of fetch()'s tests, rows and
                 * columns past the edge clamped to the last one (read, never
                 * stored), so the loop has no branch */
                const long am = tra ? lda : 1, ak = tra ? 1 : lda, bn = trb ? ldb : 1, bk = trb ? 1 : ldb;
#if STAGED
                /* element e of a tile: consecutive work-items along the
                 * operand's contiguous index, for whole-line loads */
                const int lid = lx + ly * DIRECT_DM, nt = DIRECT_DM * DIRECT_DN;
                for (int k0 = 0; k0 < K; k0 += DIRECT_KB) {
                    barrier(CLK_LOCAL_MEM_FENCE);
                    UNROLL_ALL for (int r = 0; r < (TILE_M * DIRECT_KB + nt - 1) / nt; r++) {
                        const int e = lid + r * nt;
                        const int x = tra ? e / DIRECT_KB : e % TILE_M, k = tra ? e % DIRECT_KB : e / TILE_M;
                        if (e < TILE_M * DIRECT_KB)
                            As[k][x] = k0 + k < K ? A[offa + min(m0 + x, M - 1) * am + (k0 + k) * ak] : (scalar)0;
                    }
                    UNROLL_ALL for (int r = 0; r < (TILE_N * DIRECT_KB + nt - 1) / nt; r++) {
                        const int e = lid + r * nt;
                        const int x = trb ? e / DIRECT_KB : e % TILE_N, k = trb ? e % DIRECT_KB : e / TILE_N;
                        if (e < TILE_N * DIRECT_KB)
                            Bs[k][x] = k0 + k < K ? B[offb + min(n0 + x, N - 1) * bn + (k0 + k) * bk] : (scalar)0;
                    }
                    barrier(CLK_LOCAL_MEM_FENCE);
                    UNROLL_ALL for (int k = 0; k < DIRECT_KB; k++) {
                        scalar a[DIRECT_WM], b[DIRECT_WN];
                        UNROLL_ALL for (int i = 0; i < DIRECT_WM; i++)
                            a[i] = As[k][lx + i * DIRECT_DM];
                        UNROLL_ALL for (int j = 0; j < DIRECT_WN; j++)
                            b[j] = Bs[k][ly + j * DIRECT_DN];
                        UNROLL_ALL for (int j = 0; j < DIRECT_WN; j++)
                            UNROLL_ALL for (int i = 0; i < DIRECT_WM; i++)
                                acc[j][i] = emac(a[i], b[j], acc[j][i], ca, cb);
                    }
                }
#else
                long ai[DIRECT_WM], bj[DIRECT_WN];
                UNROLL_ALL for (int i = 0; i < DIRECT_WM; i++)
                    ai[i] = offa + min(m0 + lx + i * DIRECT_DM, M - 1) * am;
                UNROLL_ALL for (int j = 0; j < DIRECT_WN; j++)
                    bj[j] = offb + min(n0 + ly + j * DIRECT_DN, N - 1) * bn;
                for (int k = 0; k < K; k++) {
                    scalar a[DIRECT_WM], b[DIRECT_WN];
                    UNROLL_ALL for (int i = 0; i < DIRECT_WM; i++)
                        a[i] = A[ai[i] + k * ak];
                    UNROLL_ALL for (int j = 0; j < DIRECT_WN; j++)
                        b[j] = B[bj[j] + k * bk];
                    UNROLL_ALL for (int j = 0; j < DIRECT_WN; j++)
                        UNROLL_ALL for (int i = 0; i < DIRECT_WM; i++)
                            acc[j][i] = emac(a[i], b[j], acc[j][i], ca, cb);
                }
#endif
                continue;
            }
#if !COMPLEX
            for (int k = 0; k < K; k++) {
                real a[DIRECT_WM], b[DIRECT_WN];
                UNROLL_ALL for (int i = 0; i < DIRECT_WM; i++) {
                    const int m = m0 + lx + i * DIRECT_DM;
                    a[i] = m < M ? elem(A, offa, lda, tra, sa, ua, m, k) : 0;
                }
                UNROLL_ALL for (int j = 0; j < DIRECT_WN; j++) {
                    const int n = n0 + ly + j * DIRECT_DN;
                    b[j] = n < N ? elem(B, offb, ldb, trb, sb, ub, n, k) : 0;
                }
                UNROLL_ALL for (int j = 0; j < DIRECT_WN; j++)
                    UNROLL_ALL for (int i = 0; i < DIRECT_WM; i++)
                        acc[j][i] = MAC(a[i], b[j], acc[j][i]);
            }
#endif
        }
        if (inplace)
            barrier(CLK_GLOBAL_MEM_FENCE);
        UNROLL_ALL for (int j = 0; j < DIRECT_WN; j++)
            UNROLL_ALL for (int i = 0; i < DIRECT_WM; i++)
                estore(C, offc, ldc, M, N, tri, m0 + lx + i * DIRECT_DM, n0 + ly + j * DIRECT_DN, alpha, beta,
                       acc[j][i]);
    }
}

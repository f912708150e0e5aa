/* SPDX-License-Identifier: BSD-3-Clause */
/* The copy kernel: packs one operand of the GEMM kernel into its scratch
 * buffer in column-block layout: blocks of xb consecutive x, each stored
 * k-major and contiguous,
 *   P[(x / xb) * kblk * xb + (kat + k) * xb + x % xb] = Y(x, k)
 * for x < xpad, k < kpad, zero outside Y's xlen x klen extent (kblk =
 * kpad and kat = 0 for an operand alone; SYR2K's two terms go to rows 0..
 * and kpad0.. of blocks kpad0 + kpad1 deep, routines/plan/packed.c) (xb = MWG for
 * A', NWG for B', the GEMM kernel's tiles; xb = xpad gives the plain
 * column-major matrix with leading dimension xpad).  Y is the operand seen as x-by-k (op(A) for the
 * A side, op(B)^T for the B side), taken from the stored matrix S by
 *   Y(x, k) = S(i, j),  (i, j) = tr ? (k, x) : (x, k)   (global indices),
 * and S is read from X (column-major: X[offx + i + j*ldx]) by its structure:
 *   shape 0: general;
 *   shape 1/2: symmetric, stored upper/lower: the other triangle is mirrored,
 *              never read (SYMM);
 *   shape 3/4: triangular upper/lower: the other triangle is zero, and with
 *              `unit` the diagonal is 1 and never read (TRMM).
 * x0, k0 place a panel of Y inside the whole operand, so that the structure
 * is decided on global indices.
 *
 * A work-group moves one TS x TS tile through local memory: it reads with
 * consecutive work-items on consecutive i (contiguous in X) and writes with
 * consecutive work-items on consecutive x (contiguous in P), so both sides
 * coalesce whether or not the tile is transposed.
 * Parameters: PRECISION, COPY_TS (tile edge), COPY_RS (rows of work-items),
 * COPY_KWG (the GEMM kernel's KWG),
 * COPY_DIRECT (1: no local tile, one work-item for the whole tile, which
 * suits CPUs, where a barrier costs more than a strided read). */
#include "real.cl"
#include "fetch.cl"
#define TS COPY_TS
#define RS COPY_RS

/* The kernels' arguments for one operand (pack takes one set, pack2 two). */
#define PACK_ARGS(v) __global const real *restrict X##v, const long offx##v, const long ldx##v, \
    const int tr##v, const int shape##v, const int unit##v, const long x0##v, const long k0##v, \
    const int xlen##v, const int klen##v, __global real *restrict P##v, const int xb##v, const int xpad##v, \
    const int kpad##v, const int skip##v, const int skip_off##v, const int kblk##v, const int kat##v
#define PACK_PASS(v) X##v, offx##v, ldx##v, tr##v, shape##v, unit##v, x0##v, k0##v, xlen##v, klen##v, P##v, \
    xb##v, xpad##v, kpad##v, skip##v, skip_off##v, kblk##v, kat##v
/* The local tile lives in the kernel (OpenCL 1.2), passed to the tile's code. */
#if COPY_DIRECT
#define TILE_DECL
#define TILE_PARAM
#define TILE_PASS
#define WG 1, 1, 1
#define TV 4    /* the edge of the blocks transposed in registers */
#else
#define WG TS, RS, 1
#define TILE_DECL __local real tile[TS][TS + 1];
#define TILE_PARAM , __local real (*tile)[TS + 1]
#define TILE_PASS , tile
#endif

/* The tile at bx, bk of P (its work-group's share of one operand). */
inline void pack_tile(PACK_ARGS(), const int bx, const int bk TILE_PARAM)
{
    /* Tiles the GEMM kernel will never read are not written (TRMM: its
     * band).  skip 1 / 2: the block of x (blk = x - x % xb) is read only at
     * k < kend / k >= kbeg, computed exactly as kernels/gemm.cl computes
     * them from band 1|3 / 2|4 and band_off = skip_off. */
    if (skip == 1) {
        const int xl = min(bx + TS, xpad) - 1, kend = xl - xl % xb + xb + skip_off;
        if (bk >= (kend + COPY_KWG - 1) / COPY_KWG * COPY_KWG) return;
    } else if (skip == 2) {
        if (bk + TS <= max(bx - bx % xb + skip_off, 0) / COPY_KWG * COPY_KWG) return;
    }
#if COPY_DIRECT
    /* CPUs: no local tile, no barrier, and one work-item for the whole tile,
     * whose loops run along a block of P (or along X's columns for a
     * mirror) innermost, which the compiler vectorizes.  PoCL vectorizes
     * across work-items only a body without loops of its own: with a
     * work-item per column of the tile it moved D 4096 x 4096 at about 7
     * GB/s (docs/performance.md, Copy kernels).  Most tiles lie wholly
     * inside Y and wholly on one side of S's diagonal: they read one stored
     * matrix (S, or its mirror for SYMM's other triangle) or are all zero
     * (TRMM's other triangle), and take loops with no test per element.
     * Edge and diagonal tiles take the general path. */
    /* the tile's first and last row (i) and column (j) of S */
    const long ilo = tr ? k0 + bk : x0 + bx, jlo = tr ? x0 + bx : k0 + bk;
    const long ihi = ilo + TS - 1, jhi = jlo + TS - 1;
    const bool upper = shape == 1 || shape == 3;
    const bool stored = shape == 0 || (upper ? ihi < jlo : ilo > jhi);
    const bool other = shape != 0 && (upper ? ilo > jhi : ihi < jlo);
    const int xe = min(bx + TS, xpad), ke = min(bk + TS, kpad);
    const bool whole = bx + TS <= xlen && bk + TS <= klen && (stored || other);
    const bool zero = whole && other && shape >= 3, mirror = other ? !tr : tr;
    /* each block of xb along x that the tile touches */
    for (int b = bx; b < xe; b = b - b % xb + xb) {
        const int n = min(b - b % xb + xb, xe) - b;
        __global real *restrict p = P + (long)(b / xb) * kblk * xb + (long)kat * xb + b % xb;
        const long xg = x0 + b;
        if (zero) {
            for (int k = bk; k < ke; k++)
                for (int x = 0; x < n; x++)
                    p[(long)k * xb + x] = 0;
        } else if (whole && !mirror) {  /* Y(x, k) = X[xg + x + k*ldx]: rows contiguous on both sides */
            for (int k = bk; k < ke; k++) {
                __global const real *restrict s = X + offx + xg + (k0 + k) * ldx;
                for (int x = 0; x < n; x++)
                    p[(long)k * xb + x] = s[x];
            }
        } else if (whole) {             /* Y(x, k) = X[k + (xg + x)*ldx]: columns contiguous in X */
            int x = 0;
            /* TV x TV blocks transposed in registers: reads along k,
             * vector writes along x */
            for (; x + TV <= n && (ke - bk) % TV == 0; x += TV) {
                __global const real *restrict s = X + offx + k0 + (xg + x) * ldx;
                for (int k = bk; k < ke; k += TV) {
                    real t[TV][TV];
                    UNROLL_ALL for (int j = 0; j < TV; j++)
                        UNROLL_ALL for (int i = 0; i < TV; i++)
                            t[i][j] = s[j * ldx + k + i];
                    UNROLL_ALL for (int i = 0; i < TV; i++)
                        vstore4(vload4(0, t[i]), 0, p + (long)(k + i) * xb + x);
                }
            }
            for (; x < n; x++) {
                __global const real *restrict s = X + offx + k0 + (xg + x) * ldx;
                for (int k = bk; k < ke; k++)
                    p[(long)k * xb + x] = s[k];
            }
        } else {
            for (int k = bk; k < ke; k++)
                for (int x = 0; x < n; x++) {
                    real v = 0;
                    if (b + x < xlen && k < klen) {
                        const long gx = xg + x, gk = k0 + k;
                        v = tr ? fetch(X, offx, ldx, shape, unit, gk, gx)
                               : fetch(X, offx, ldx, shape, unit, gx, gk);
                    }
                    p[(long)k * xb + x] = v;
                }
        }
    }
#else
    /* rows kat.. of each block: P moves there first, since PoCL 3.1
     * miscompiled kat in the store's index below (a heap overrun, the
     * cl_gemm_narrowcopy test's set, 2026-12-07) */
    P += (long)kat * xb;
    const int lx = get_local_id(0), ly = get_local_id(1);
    /* Every read is issued before the first write to the tile: with each
     * value stored as it came, the reads of a work-item waited for one
     * another, one memory latency each (docs/performance.md, Copy kernels). */
    real v[TS / RS];
    UNROLL_ALL for (int i = 0; i < TS / RS; i++) {
        const int r = ly + i * RS;
        const int x = tr ? bx + r : bx + lx;
        const int k = tr ? bk + lx : bk + r;
        v[i] = 0;
        if (x < xlen && k < klen) {
            const long gx = x0 + x, gk = k0 + k;
            v[i] = tr ? fetch(X, offx, ldx, shape, unit, gk, gx)
                      : fetch(X, offx, ldx, shape, unit, gx, gk);
        }
    }
    UNROLL_ALL for (int i = 0; i < TS / RS; i++) {
        const int r = ly + i * RS;
        if (tr)
            tile[r][lx] = v[i];
        else
            tile[lx][r] = v[i];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* The bounds are the loop's, not a test around the store: PoCL 3.1
     * (CPU) compiled `if (x < xpad && k < kpad) P[..] = ..` inside this
     * loop into a store without the x test, writing the block past xpad
     * (a heap overrun whenever xpad is not a multiple of TS; Oclgrind finds
     * no such write in this source).  No barrier follows, so returning is
     * legal. */
    const int x = bx + lx;
    if (x >= xpad)
        return;
    for (int r = ly; r < TS && bk + r < kpad; r += RS)
        P[(long)(x / xb) * kblk * xb + (long)(bk + r) * xb + x % xb] = tile[lx][r];
#endif
}

__kernel __attribute__((reqd_work_group_size(WG)))
void pack(PACK_ARGS())
{
    TILE_DECL
    pack_tile(PACK_PASS(), get_group_id(0) * TS, get_group_id(1) * TS TILE_PASS);
}

/* Two operands in one launch (routines/plan/packed.c: one command where
 * there would be two, 7-8 us each on the H100, docs/performance.md, Copy
 * kernels): layer z of work-groups packs operand z; the launch covers the
 * larger of the two grids, and a work-group past its operand's grid does
 * nothing (uniformly: it reaches no barrier). */
__kernel __attribute__((reqd_work_group_size(WG)))
void pack2(PACK_ARGS(0), PACK_ARGS(1))
{
    TILE_DECL
    const int bx = get_group_id(0) * TS, bk = get_group_id(1) * TS;
    if (get_group_id(2) == 0) {
        if (bx < xpad0 && bk < kpad0)
            pack_tile(PACK_PASS(0), bx, bk TILE_PASS);
    } else if (bx < xpad1 && bk < kpad1) {
        pack_tile(PACK_PASS(1), bx, bk TILE_PASS);
    }
}

/* Batched GEMM (routines/plan/batched.c): one launch packs the same panel
 * of every product, layer z of work-groups product z, read from offx +
 * z*sx (or offs[4z + oi]: the offset-array form's table) into P + z*ps. */
__kernel __attribute__((reqd_work_group_size(WG)))
void packb(PACK_ARGS(), const long sx, __global const long *offs, const int oi, const long ps)
{
    TILE_DECL
    const int z = get_group_id(2);
    const long off = offs ? offs[4 * z + oi] : offx + z * sx;
    pack_tile(X, off, ldx, tr, shape, unit, x0, k0, xlen, klen, P + z * ps, xb, xpad, kpad, skip, skip_off, kblk,
              kat, get_group_id(0) * TS, get_group_id(1) * TS TILE_PASS);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* The complex copy kernels: they put a complex operand into the layout the
 * real GEMM kernel multiplies (routines/plan/complex.c describes the
 * mapping), so the real kernel does all the arithmetic of CGEMM, ZHERK...
 *
 * cpack writes the same column-block layout as copy/pack.cl,
 *   P[(x / xb) * kblk * xb + (kat + k) * xb + x % xb] = Y(x, k),
 * zero outside xlen x klen, where x and k are real indices (x0 and k0 place
 * the panel) and Y is one of two real forms of a complex operand Z = op(S):
 *   A side (bside 0): the 2x2 real representation, Y(2m+r, 2k+s) =
 *       [[Re z, -Im z], [Im z, Re z]][r][s] with z = Z(m, k);
 *   B side (bside 1): Z's rows split into real and imaginary parts,
 *       Y(n, 2k+s) = s ? Im Z(k, n) : Re Z(k, n)  (Y = that K' x N matrix^T).
 * op(S) is S, S^T (tr) and conjugated (conj); the B side may be multiplied
 * by the complex scale (sr, si) as it is copied: alpha folded in, in the
 * order reference BLAS uses (alpha * b first, then the product).
 * S is read from X (complex, column-major) by its structure, as pack.cl:
 *   0 general; 1/2 symmetric upper/lower (mirrored); 3/4 triangular
 *   upper/lower (zero, `unit`: diagonal 1 and never read); 5/6 Hermitian
 *   upper/lower (mirrored conjugated, imaginary part of the diagonal 0 and
 *   never read).
 * One work-item per element of P: O(n^2) work beside the O(n^3) product;
 * it has no local-memory tile yet (pack.cl's fast paths are real only).
 * cpackc (wherever the panel's real bounds are even, so cpack is left
 * the odd edges): one work-item per complex element, writing its whole
 * 2x2 block (A side: two {re, im} pairs, contiguous across lanes) or its
 * two rows (B side), so a lane reads each element once, where cpack read
 * it two or four times with a gather (docs/performance.md, Copy kernels).
 *
 * cscale: C <- beta * C for complex beta on one triangle (tri 1 upper, 2
 * lower, 0 all), the pre-pass of a call whose beta is not real. */
#include "real.cl"

real2 cfetch(__global const real2 *X, long offx, long ldx, int shape, int unit, long i, long j)
{
    if (shape == 0)
        return X[offx + i + j * ldx];
    if (i == j) {
        if (shape >= 5)
            return (real2)(X[offx + i + i * ldx].x, 0);
        if (shape >= 3 && unit)
            return (real2)(1, 0);
        return X[offx + i + i * ldx];
    }
    const bool upper = shape & 1;
    if (upper ? i < j : i > j)
        return X[offx + i + j * ldx];
    if (shape == 3 || shape == 4)
        return (real2)(0, 0);
    const real2 v = X[offx + j + i * ldx];
    return shape >= 5 ? (real2)(v.x, -v.y) : v;
}

/* Batched GEMM (routines/plan/batched.c): layer z of the launch is
 * product z, read from offx + z*sx (or offs[4z + oi]: the offset-array
 * form's table) into P + z*ps, its scale (sr, si) from scal[6z + 2],
 * scal[6z + 3] when given; cscale's beta from scal[6z + 4], scal[6z + 5],
 * C at offc + z*sc or offs[4z + 3].  A single call is layer 0 with zero
 * strides and no tables.  (cscale with beta 0 writes 0: C is not read.) */
/* Z(row, col) of X as the copy writes it: op's element, conjugated where
 * asked, times (sr, si) where scaled */
inline real2 celem(__global const real2 *restrict X, const long offx, const long ldx, const int tr, const int conj,
                   const int shape, const int unit, const long row, const long col, const int scaled, const real sr,
                   const real si)
{
    real2 z = tr ? cfetch(X, offx, ldx, shape, unit, col, row) : cfetch(X, offx, ldx, shape, unit, row, col);
    if (conj)
        z.y = -z.y;
    return scaled ? (real2)(sr * z.x - si * z.y, sr * z.y + si * z.x) : z;
}

/* cpack's and cpackc's arguments (copy/pack.c sets them alike) */
#define CPACK_ARGS __global const real2 *restrict X, const long offx0, const long ldx, const int tr, \
    const int conj, const int shape, const int unit, const int bside, const long x0, const long k0, \
    const int xlen, const int klen, __global real *restrict P, const int xb, const int xpad, const int kpad, \
    const int kblk, const int kat, const int scaled, const real sr0, const real si0, const long sx, \
    __global const long *offs, const int oi, const long ps, __global const real *scal

/* Y(x, k) of the panel, 0 outside its xlen x klen */
inline real cvalue(__global const real2 *restrict X, const long offx, const long ldx, const int tr, const int conj,
                   const int shape, const int unit, const int bside, const long x0, const long k0, const int xlen,
                   const int klen, const int scaled, const real sr, const real si, const int x, const int k)
{
    if (x >= xlen || k >= klen)
        return 0;
    const long gx = x0 + x, gk = k0 + k;
    /* Z(row, col), and which component of which block */
    const long row = bside ? gk >> 1 : gx >> 1, col = bside ? gx : gk >> 1;
    const int r = bside ? 0 : gx & 1, s = gk & 1;
    const real2 z = celem(X, offx, ldx, tr, conj, shape, unit, row, col, scaled, sr, si);
    if (bside)
        return s ? z.y : z.x;
    return r == s ? z.x : r ? z.y : -z.y;
}

__kernel void cpack(CPACK_ARGS)
{
    const int x = get_global_id(0), k = get_global_id(1), z = get_global_id(2);
    const long offx = offs ? offs[4 * z + oi] : offx0 + z * sx;
    const real sr = scal ? scal[6 * z + 2] : sr0, si = scal ? scal[6 * z + 3] : si0;
    P += z * ps;
    if (x >= xpad || k >= kpad)
        return;
    P[(long)(x / xb) * kblk * xb + (long)(kat + k) * xb + x % xb] =
        cvalue(X, offx, ldx, tr, conj, shape, unit, bside, x0, k0, xlen, klen, scaled, sr, si, x, k);
}

__kernel void cpackc(CPACK_ARGS)
{
    const int u = get_global_id(0), z = get_global_id(2);
    const int x = bside ? u : 2 * u, k = 2 * get_global_id(1);
    const long offx = offs ? offs[4 * z + oi] : offx0 + z * sx;
    const real sr = scal ? scal[6 * z + 2] : sr0, si = scal ? scal[6 * z + 3] : si0;
    if (x >= xpad || k >= kpad)
        return;
    real2 v = 0;
    if (x < xlen && k < klen) {
        const long gx = x0 + x, gk = k0 + k;
        const long row = bside ? gk >> 1 : gx >> 1, col = bside ? gx : gk >> 1;
        v = celem(X, offx, ldx, tr, conj, shape, unit, row, col, scaled, sr, si);
    }
    __global real *p = P + z * ps + (long)(x / xb) * kblk * xb + (long)(kat + k) * xb + x % xb;
    if (bside) {
        p[0] = v.x;
        p[xb] = v.y;
    } else {
        vstore2(v, 0, p);
        vstore2((real2)(-v.y, v.x), 0, p + xb);
    }
}

#if COPY_DIRECT
/* CPUs (the copy_direct sets), a general operand: one work-item a COPY_TS
 * x COPY_TS tile of P, as copy/pack.cl's.  Where op's complex elements lie
 * along x in X (the A side in place, the B side transposed) the loops run
 * down a column of X innermost, which the compiler vectorizes; where they
 * lie along k, down a column of X too, writing across the tile's rows,
 * which stays in the caches.  cpackc's work-item a complex element moved
 * 6-10 GB/s on a Xeon (C 512^2, A side).  A tile wholly inside the panel
 * with every bound even takes the loops; the rest goes element by element
 * (cvalue). */
__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void cpackt(CPACK_ARGS)
{
    const int bx = get_group_id(0) * COPY_TS, bk = get_group_id(1) * COPY_TS, z = get_group_id(2);
    const long offx = offs ? offs[4 * z + oi] : offx0 + z * sx;
    const real sr = scal ? scal[6 * z + 2] : sr0, si = scal ? scal[6 * z + 3] : si0;
    P += z * ps + (long)kat * xb;
    const int xe = min(bx + COPY_TS, xpad), ke = min(bk + COPY_TS, kpad);
    const bool whole = xe <= xlen && ke <= klen && ((x0 | k0 | xb | bx | bk | xe | ke) & 1) == 0;
    const bool along = bside == tr; /* op's elements along x in X */
    const real cs = conj ? -1 : 1;
    for (int b = bx; b < xe; b = b - b % xb + xb) {
        const int n = min(b - b % xb + xb, xe) - b;
        __global real *restrict p = P + (long)(b / xb) * kblk * xb + b % xb;
        if (!whole) {
            for (int k = bk; k < ke; k++)
                for (int x = 0; x < n; x++)
                    p[(long)k * xb + x] = cvalue(X, offx, ldx, tr, conj, shape, unit, bside, x0, k0, xlen, klen,
                                                 scaled, sr, si, b + x, k);
            continue;
        }
        /* op's first element of the tile: (x0 + b) / 2 (A side) or x0 + b
         * (B side) along x, (k0 + bk) / 2 along k */
        const long fx = bside ? x0 + b : (x0 + b) >> 1, fk = (k0 + bk) >> 1;
        const int nx = bside ? n : n / 2, nk = (ke - bk) / 2;
        for (int i = 0; i < (along ? nk : nx); i++) {
            /* one column of X: op's elements along x at k pair i (along),
             * or along k at x element i */
            __global const real *restrict src =
                (__global const real *)(X + offx + (along ? fx + (fk + i) * ldx : fk + (fx + i) * ldx));
            for (int j = 0; j < (along ? nx : nk); j++) {
                const int e = along ? j : i, kk = along ? i : j; /* element e along x, k pair kk */
                const real a = src[2 * j], c = cs * src[2 * j + 1];
                const real re = scaled ? sr * a - si * c : a, im = scaled ? sr * c + si * a : c;
                __global real *restrict pe = p + (long)(bk + 2 * kk) * xb, *restrict po = pe + xb;
                if (bside) {   /* Y(n, 2k) = Re Z(k, n), Y(n, 2k + 1) = Im Z(k, n) */
                    pe[e] = re;
                    po[e] = im;
                } else {       /* the 2x2 block [[re, -im], [im, re]] of each element */
                    pe[2 * e] = re;
                    pe[2 * e + 1] = im;
                    po[2 * e] = -im;
                    po[2 * e + 1] = re;
                }
            }
        }
    }
}
#endif

__kernel void cscale(__global real2 *C, const long offc0, const long ldc, const int M, const int N,
                     const int tri, const real br0, const real bi0,
                     const long sc, __global const long *offs, __global const real *scal)
{
    const int m = get_global_id(0), n = get_global_id(1), z = get_global_id(2);
    if (m >= M || n >= N || (tri == 1 && m > n) || (tri == 2 && m < n))
        return;
    const long offc = offs ? offs[4 * z + 3] : offc0 + z * sc;
    const real br = scal ? scal[6 * z + 4] : br0, bi = scal ? scal[6 * z + 5] : bi0;
    __global real2 *c = C + offc + m + (long)n * ldc;
    if (br == 0 && bi == 0) {
        *c = (real2)(0, 0);
        return;
    }
    const real2 v = *c;
    *c = (real2)(br * v.x - bi * v.y, br * v.y + bi * v.x);
}

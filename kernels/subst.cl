/* SPDX-License-Identifier: BSD-3-Clause */
/* One diagonal block of TRSM's blocked solve by substitution, in place
 * (routines/plan/solve.c, trsm_subst: the CPUs' rows): X = alpha inv(L) B
 * for the len x len triangular L, len <= NB, every right-hand side at once;
 * with MUL=1 the same loop multiplies instead, B = alpha L B (TRMM's blocks
 * on those rows: the sums run over the same rows, of B as it was).
 *
 * Why: the blocked path's other way multiplies by inverted blocks, which
 * needs one refinement for accuracy (docs/performance.md, TRSM): trtri plus
 * three block products of nb^2 multiply-adds a right-hand side, where
 * substitution does nb^2/2 and needs neither, with reference BLAS's
 * accuracy.  On a GPU it is a chain of nb^2/2 dependent steps a work-item;
 * on a CPU each step is one vector multiply-add.
 *
 * A work-item takes V right-hand sides, one vector lane each (real: W
 * such vectors side by side), so that L(i, k) is a scalar broadcast to
 * every lane; work-items never meet (no local memory, no barriers: PoCL
 * turns a barrier into a loop over work-items).  Row i, in order (first
 * to last when L is lower, `fwd`):
 *   x_i = (alpha b_i - sum over the rows k solved before i of L(i, k) x_k) / L(i, i),
 * without the division where `unit`; MUL: x_k = alpha b_k, all loaded
 * first, and b_i = L(i, i) x_i + sum over those rows of L(i, k) x_k.
 * R rows at a time: their sums over the rows solved before them are R
 * independent chains sharing each x_k (one chain ran at a quarter of the
 * multiply-adds' rate: each waited on the last), then the R x R triangle
 * among them in order.  A zero x_k is not skipped as reference BLAS skips
 * it, so an infinity in L meets it as NaN.
 *
 * Layouts (elements; complex elements are {re, im} pairs, COMPLEX=1):
 * L(i, k) = A[aoff + i li + k lk], conjugated where CONJ; only the triangle
 * and (unless unit) the diagonal are read.  B(p, c) = B[boff + p bp + c bc],
 * p < len, c < rhs.  Lanes one vector load apart (bc 1, the right side)
 * load as vectors; blocks on the left (bp 1) go by subst_left, which
 * loads and stores R rows of a work-item's V lanes as V vectors of rows. */
#include "real.cl"

#define VTYPE_(t, n) t##n
#define VTYPE(t, n) VTYPE_(t, n)
#if V == 1
typedef real realv;
#elif PRECISION == 64
typedef VTYPE(double, V) realv;
#else
typedef VTYPE(float, V) realv;
#endif
typedef union { real s[V]; realv v; } lanes;

/* V reals of B from `at`, lane l at at + l bc (cload passes a complex
 * part's: 2 bc), zero past nc lanes; one vector load where they are
 * contiguous. */
static realv load(__global const real *B, long at, long bc, int nc)
{
#if V > 1
    if (bc == 1 && nc == V)
        return VTYPE(vload, V)(0, B + at);
#endif
    lanes u;
    for (int l = 0; l < V; l++)
        u.s[l] = l < nc ? B[at + l * bc] : 0;
    return u.v;
}

static void store(__global real *B, long at, long bc, int nc, realv x)
{
#if V > 1
    if (bc == 1 && nc == V) {
        VTYPE(vstore, V)(x, 0, B + at);
        return;
    }
#endif
    lanes u;
    u.v = x;
    for (int l = 0; l < V; l++)
        if (l < nc)
            B[at + l * bc] = u.s[l];
}

/* The row in place t of the solve order: first to last when L is lower. */
#define ROW(t) (fwd ? (t) : len - 1 - (t))
/* a sum's term: subtracted by a solve, added by a product */
#if MUL
#define SGN(v) (v)
#else
#define SGN(v) (-(v))
#endif

#if COMPLEX
#define R 4
/* re and im of V right-hand sides: contiguous complex lanes (bc 1) are
 * two vector loads split into their parts */
static void cload(__global const real *B, long at, long bc, int nc, realv *re, realv *im)
{
#if V > 1
    if (bc == 1 && nc == V) {
        const realv lo = VTYPE(vload, V)(0, B + 2 * at), hi = VTYPE(vload, V)(0, B + 2 * at + V);
        *re = (realv)(lo.even, hi.even);
        *im = (realv)(lo.odd, hi.odd);
        return;
    }
#endif
    *re = load(B, 2 * at, 2 * bc, nc);
    *im = load(B, 2 * at + 1, 2 * bc, nc);
}

static void cstore(__global real *B, long at, long bc, int nc, realv re, realv im)
{
#if V > 1
    if (bc == 1 && nc == V) {
        lanes r, i, lo, hi;
        r.v = re;
        i.v = im;
        for (int l = 0; l < V; l++) {
            (l < V / 2 ? lo.s : hi.s)[2 * l % V] = r.s[l];
            (l < V / 2 ? lo.s : hi.s)[2 * l % V + 1] = i.s[l];
        }
        VTYPE(vstore, V)(lo.v, 0, B + 2 * at);
        VTYPE(vstore, V)(hi.v, 0, B + 2 * at + V);
        return;
    }
#endif
    store(B, 2 * at, 2 * bc, nc, re);
    store(B, 2 * at + 1, 2 * bc, nc, im);
}

#if PRECISION == 64
typedef double8 realc; /* R complex elements */
#else
typedef float8 realc;
#endif
typedef union { real s[2 * R]; realc v; } crows;

/* Left-side blocks (bp 1), as the real ones' load_rows: the R rows at + 0
 * .. R - 1 of all V lanes as V loads of R complex elements, split into
 * their parts in registers; re[j], im[j] are the row t0 + j of the solve
 * order.  Each element alone (cload across lanes ldb apart) took the
 * blocks 1.6x the time of contiguous loads (Xeon, 2026-12-07, C TRMM/TRSM
 * 1024 left, the subst kernel's median 1978-2041 against 1260 us). */
static void cload_rows(__global const real *B, long at, long bc, int fwd, realv *re, realv *im)
{
    crows c[V];
    UNROLL_ALL
    for (int l = 0; l < V; l++)
        c[l].v = VTYPE(vload, 8)(0, B + 2 * (at + l * bc));
    UNROLL_ALL
    for (int j = 0; j < R; j++) {
        const int q = fwd ? j : R - 1 - j;
        lanes r, i;
        UNROLL_ALL
        for (int l = 0; l < V; l++) {
            r.s[l] = c[l].s[2 * q];
            i.s[l] = c[l].s[2 * q + 1];
        }
        re[j] = r.v;
        im[j] = i.v;
    }
}

static void cstore_rows(__global real *B, long at, long bc, int fwd, const realv *re, const realv *im)
{
    lanes r[R], i[R];
    UNROLL_ALL
    for (int j = 0; j < R; j++) {
        r[j].v = re[fwd ? j : R - 1 - j];
        i[j].v = im[fwd ? j : R - 1 - j];
    }
    UNROLL_ALL
    for (int l = 0; l < V; l++) {
        crows c;
        UNROLL_ALL
        for (int q = 0; q < R; q++) {
            c.s[2 * q] = r[q].s[l];
            c.s[2 * q + 1] = i[q].s[l];
        }
        VTYPE(vstore, 8)(c.v, 0, B + 2 * (at + l * bc));
    }
}

/* (sr, si) -= l (xr, xi) (MUL: +=), l = L's element at e,
 * conjugated where CONJ: a build option rather than an argument, as a
 * test on every element took the blocks 1.15-1.3x the kernel time (Xeon,
 * 2026-12-07: CTRMM/CTRSM 512 883-917 against 1053-1146 us) */
#define CMAC(e, xr, xi, sr, si)                                         \
    do {                                                                \
        const real lr_ = (e)[0], li_ = CONJ ? -(e)[1] : (e)[1];         \
        sr = MAC((realv)(SGN(lr_)), xr, sr);                            \
        sr = MAC((realv)(SGN(-li_)), xi, sr);                           \
        si = MAC((realv)(SGN(lr_)), xi, si);                            \
        si = MAC((realv)(SGN(li_)), xr, si);                            \
    } while (0)

/* (xr, xi) = alpha (br, bi), alpha = (ar, ai) */
#define CALPHA(xr, xi, br, bi)                                          \
    do {                                                                \
        xr = ar * (br) - ai * (bi);                                     \
        xi = ar * (bi) + ai * (br);                                     \
    } while (0)

/* `left`: bp is 1 (subst_left), and work-items with all V lanes take
 * whole groups of R rows by cload_rows and cstore_rows. */
__attribute__((always_inline)) static void csolve(const int len, const int rhs, const int fwd, const int unit,
                                                  const real ar, const real ai, __global const real *restrict A,
                                                  const long aoff, const long li, const long lk,
                                                  __global real *restrict B, const long boff, const long bp,
                                                  const long bc, const int left)
{
    const int c0 = get_global_id(0) * V, nc = min(V, rhs - c0);
    const long b0 = boff + c0 * bc;
    realv xr[NB], xi[NB]; /* x by solve order */
    const int tiled = left && nc == V;
    /* the lowest of the R rows from t0 on in the solve order */
#define LOW(t0) (fwd ? (t0) : len - (t0) - R)
#if MUL
    for (int t = 0; t < len; t++) {
        if (tiled && t % R == 0 && t + R <= len) {
            realv br[R], bi[R];
            cload_rows(B, b0 + LOW(t), bc, fwd, br, bi);
            UNROLL_ALL
            for (int j = 0; j < R; j++)
                CALPHA(xr[t + j], xi[t + j], br[j], bi[j]);
            t += R - 1;
            continue;
        }
        realv br, bi;
        cload(B, b0 + ROW(t) * bp, bc, nc, &br, &bi);
        CALPHA(xr[t], xi[t], br, bi);
    }
#endif
    for (int t0 = 0; t0 < len; t0 += R) {
        realv sr[R], si[R];
        __global const real *Lr[R]; /* each row's L(row, 0), complex: two reals an element */
        const int whole = tiled && t0 + R <= len;
#if !MUL
        if (whole) {
            realv br[R], bi[R];
            cload_rows(B, b0 + LOW(t0), bc, fwd, br, bi);
            UNROLL_ALL
            for (int j = 0; j < R; j++)
                CALPHA(sr[j], si[j], br[j], bi[j]);
        }
#endif
        UNROLL_ALL
        for (int j = 0; j < R; j++) {
            const int i = ROW(min(t0 + j, len - 1));
#if MUL
            sr[j] = si[j] = 0;
#else
            if (!whole) {
                realv br, bi;
                cload(B, b0 + i * bp, bc, nc, &br, &bi);
                CALPHA(sr[j], si[j], br, bi);
            }
#endif
            Lr[j] = A + 2 * (aoff + i * li);
        }
        for (int t = 0; t < t0; t++) {
            const long at = 2 * ROW(t) * lk;
            UNROLL_ALL
            for (int j = 0; j < R; j++)
                CMAC(Lr[j] + at, xr[t], xi[t], sr[j], si[j]);
        }
        UNROLL_ALL
        for (int j = 0; j < R; j++) {
            const int t = t0 + j;
            if (t < len) {
                for (int u = t0; u < t; u++)
                    CMAC(Lr[j] + 2 * ROW(u) * lk, xr[u], xi[u], sr[j], si[j]);
#if MUL
                if (unit) {
                    sr[j] += xr[t];
                    si[j] += xi[t];
                } else {
                    CMAC(Lr[j] + 2 * ROW(t) * lk, xr[t], xi[t], sr[j], si[j]);
                }
#else
                if (!unit) {
                    /* (sr + i si) / d, d scaled first (its parts may be near the range's ends) */
                    __global const real *e = Lr[j] + 2 * ROW(t) * lk;
                    const real dr = e[0], di = CONJ ? -e[1] : e[1];
                    const real sc = fmax(fabs(dr), fabs(di)), x = dr / sc, y = di / sc, den = (x * x + y * y) * sc;
                    const realv qr = (sr[j] * x + si[j] * y) / den, qi = (si[j] * x - sr[j] * y) / den;
                    sr[j] = qr;
                    si[j] = qi;
                }
                xr[t] = sr[j];
                xi[t] = si[j];
#endif
                if (!whole)
                    cstore(B, b0 + ROW(t) * bp, bc, nc, sr[j], si[j]);
            }
        }
        if (whole)
            cstore_rows(B, b0 + LOW(t0), bc, fwd, sr, si);
    }
}

__kernel void subst(const int len, const int rhs, const int fwd, const int unit, const real ar,
                    const real ai, __global const real *restrict A, const long aoff, const long li, const long lk,
                    __global real *restrict B, const long boff, const long bp, const long bc)
{
    csolve(len, rhs, fwd, unit, ar, ai, A, aoff, li, lk, B, boff, bp, bc, 0);
}

__kernel void subst_left(const int len, const int rhs, const int fwd, const int unit, const real ar,
                         const real ai, __global const real *restrict A, const long aoff, const long li,
                         const long lk, __global real *restrict B, const long boff, const long bp, const long bc)
{
    csolve(len, rhs, fwd, unit, ar, ai, A, aoff, li, lk, B, boff, 1, bc, 1);
}
#else
#define R 8
#if PRECISION == 64
typedef double8 realr; /* R reals */
#else
typedef float8 realr;
#endif
typedef union { real s[R]; realr v; } rows;

/* Left-side blocks (bp 1: a lane's rows contiguous, lanes bc apart): the R
 * rows at + 0 .. R - 1 of all V lanes as V loads of R reals, transposed in
 * registers; x[j] is the row t0 + j of the solve order, so those rows
 * upwards (fwd) or downwards.  Loading each lane alone instead took
 * 1.2-1.3x the kernel time (Xeon, 2026-12-07: S TRMM 256x4096 LLNU 2.10
 * against 1.60 ms; docs/performance.md, Findings: PoCL). */
static void load_rows(__global const real *B, long at, long bc, int fwd, realv *x)
{
    rows c[V];
    UNROLL_ALL
    for (int l = 0; l < V; l++)
        c[l].v = vload8(0, B + at + l * bc);
    UNROLL_ALL
    for (int j = 0; j < R; j++) {
        lanes u;
        UNROLL_ALL
        for (int l = 0; l < V; l++)
            u.s[l] = c[l].s[fwd ? j : R - 1 - j];
        x[j] = u.v;
    }
}

static void store_rows(__global real *B, long at, long bc, int fwd, const realv *x)
{
    lanes u[R];
    UNROLL_ALL
    for (int j = 0; j < R; j++)
        u[j].v = x[fwd ? j : R - 1 - j];
    UNROLL_ALL
    for (int l = 0; l < V; l++) {
        rows c;
        UNROLL_ALL
        for (int j = 0; j < R; j++)
            c.s[j] = u[j].s[l];
        vstore8(c.v, 0, B + at + l * bc);
    }
}

/* `left`: bp is 1 (subst_left), and a work-item's vectors with all V lanes
 * take whole groups of R rows by load_rows and store_rows; a kernel of its
 * own, so that the other layouts' loop has no such branches.  A work-item
 * holds W vectors of right-hand sides side by side, so that each L(i, k)
 * it loads serves W multiply-adds. */
__attribute__((always_inline)) static void solve(const int len, const int rhs, const int fwd, const int unit,
                                                 const real ar, __global const real *restrict A, const long aoff,
                                                 const long li, const long lk, __global real *restrict B,
                                                 const long boff, const long bp, const long bc, const int left)
{
    const int c0 = get_global_id(0) * V * W;
    int nc[W], tiled[W];
    long b0[W];
    UNROLL_ALL
    for (int w = 0; w < W; w++) {
        nc[w] = clamp(rhs - c0 - w * V, 0, V);
        b0[w] = boff + (c0 + w * V) * bc;
        tiled[w] = left && nc[w] == V;
    }
    realv x[NB][W]; /* x by solve order */
    realv rw[R];    /* R rows of one vector, for load_rows and store_rows */
    /* the lowest of the R rows from t0 on in the solve order */
#define LOW(t0) (fwd ? (t0) : len - (t0) - R)
    /* alpha times row i of vector w, loaded alone */
#define ROW_ALONE(i, w) (ar * load(B, b0[w] + (i) * bp, bc, nc[w]))
#if MUL
    for (int t = 0; t < len; t++) {
        if (t % R == 0 && t + R <= len) {
            UNROLL_ALL
            for (int w = 0; w < W; w++) {
                if (tiled[w]) {
                    load_rows(B, b0[w] + LOW(t), bc, fwd, rw);
                    UNROLL_ALL
                    for (int j = 0; j < R; j++)
                        x[t + j][w] = ar * rw[j];
                } else {
                    for (int j = 0; j < R; j++)
                        x[t + j][w] = ROW_ALONE(ROW(t + j), w);
                }
            }
            t += R - 1;
            continue;
        }
        UNROLL_ALL
        for (int w = 0; w < W; w++)
            x[t][w] = ROW_ALONE(ROW(t), w);
    }
#endif
    for (int t0 = 0; t0 < len; t0 += R) {
        realv acc[R][W];
        __global const real *Lr[R]; /* each row's L(row, 0) */
        int whole[W];
        UNROLL_ALL
        for (int w = 0; w < W; w++) {
            whole[w] = tiled[w] && t0 + R <= len;
#if !MUL
            if (whole[w]) {
                load_rows(B, b0[w] + LOW(t0), bc, fwd, rw);
                UNROLL_ALL
                for (int j = 0; j < R; j++)
                    acc[j][w] = ar * rw[j];
            }
#endif
        }
        UNROLL_ALL
        for (int j = 0; j < R; j++) {
            const int i = ROW(min(t0 + j, len - 1));
            UNROLL_ALL
            for (int w = 0; w < W; w++) {
                if (MUL)
                    acc[j][w] = 0;
                else if (!whole[w])
                    acc[j][w] = ROW_ALONE(i, w);
            }
            Lr[j] = A + aoff + i * li;
        }
        for (int t = 0; t < t0; t++) {
            const long at = ROW(t) * lk;
            UNROLL_ALL
            for (int j = 0; j < R; j++) {
                const realv l = (realv)(SGN(Lr[j][at]));
                UNROLL_ALL
                for (int w = 0; w < W; w++)
                    acc[j][w] = MAC(l, x[t][w], acc[j][w]);
            }
        }
        UNROLL_ALL
        for (int j = 0; j < R; j++) {
            const int t = t0 + j;
            if (t < len) {
                for (int u = t0; u < t; u++) {
                    const realv l = (realv)(SGN(Lr[j][ROW(u) * lk]));
                    UNROLL_ALL
                    for (int w = 0; w < W; w++)
                        acc[j][w] = MAC(l, x[u][w], acc[j][w]);
                }
                const real d = unit ? 1 : Lr[j][ROW(t) * lk];
                UNROLL_ALL
                for (int w = 0; w < W; w++) {
#if MUL
                    acc[j][w] = MAC((realv)(d), x[t][w], acc[j][w]);
#else
                    if (!unit)
                        acc[j][w] = acc[j][w] / d;
                    x[t][w] = acc[j][w];
#endif
                    if (!whole[w])
                        store(B, b0[w] + ROW(t) * bp, bc, nc[w], acc[j][w]);
                }
            }
        }
        UNROLL_ALL
        for (int w = 0; w < W; w++) {
            if (whole[w]) {
                UNROLL_ALL
                for (int j = 0; j < R; j++)
                    rw[j] = acc[j][w];
                store_rows(B, b0[w] + LOW(t0), bc, fwd, rw);
            }
        }
    }
}

__kernel void subst(const int len, const int rhs, const int fwd, const int unit, const real ar,
                    const real ai, __global const real *restrict A, const long aoff, const long li, const long lk,
                    __global real *restrict B, const long boff, const long bp, const long bc)
{
    solve(len, rhs, fwd, unit, ar, A, aoff, li, lk, B, boff, bp, bc, 0);
}

__kernel void subst_left(const int len, const int rhs, const int fwd, const int unit, const real ar,
                         const real ai, __global const real *restrict A, const long aoff, const long li,
                         const long lk, __global real *restrict B, const long boff, const long bp, const long bc)
{
    solve(len, rhs, fwd, unit, ar, A, aoff, li, lk, B, boff, 1, bc, 1);
}
#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* TRSM by the method: the diagonal blocks of nb (the tuned trsm_nb) of the
 * triangular T = op(A) are inverted by one launch of kernels/trtri.cl into
 * scratch, then the solve is a recursion of g3_calls through the plan:
 * T is halved at a multiple of nb, the half that does not depend on the
 * other is solved first, the other half of B is updated by one GEMM-shaped
 * call, B2 <- alpha*B2 - T21*X1 (left; right: X1*T12), and the second half is
 * solved with alpha = 1.  A block of at most nb is
 * X_i <- alpha * inv(T_ii) * B_i: unrefined, one call reading the B block
 * it writes (the packed path's snapshot); refined, below.  So the updates
 * are few and large (K = n/2, n/4, ...): ceil(n/nb) - 1 updates and
 * ceil(n/nb) blocks, all chained by events, no host wait (n = 8192,
 * nb = 64: 127 updates, 128 blocks).
 *
 * Accuracy: a product with inv(T_ii) instead of substitution leaves a
 * residual that grows with cond(T_ii) (nb bounds it), which LAPACK's own
 * tests notice (README, TRSM).  With trsm_refine (the default) each block
 * is refined once, in GEMM-shaped calls too, after one copy S <- B_i into
 * scratch: B_i <- alpha inv(T_ii) S (X0), S <- alpha S - T_ii B_i (the
 * residual), B_i <- B_i + inv(T_ii) S.  No call reads what it writes, so
 * each can run on the direct path, and the result lands in B_i.
 *
 * Launches: on a GPU a TRSM costs mostly its number of commands (each
 * packed call is two packs and a GEMM launch; docs/performance.md, TRSM).
 * Products whose inner dimension is at most trsm_direct (the blocks' and
 * the smallest updates') ask the plan for the direct path: one launch each
 * reading its operands in place.  trtri (trsm_cols > 0) writes the inverses
 * as the products read them in place (column-major on the left,
 * transposed on the right) and T's diagonal blocks as general matrices the
 * same way, so that the residual's product packs no triangle either; the
 * per-column kernel (trsm_cols 0) writes transposes only, and the direct
 * kernel then reads them through one transposing copy made after the
 * inversion, so that its work-items read neighbouring rows.
 *
 * Leaves in one launch (trsm_leaf > 0, where trtri writes the layouts): T
 * is halved at multiples of trsm_leaf instead, trtri inverts blocks of
 * G3_LEAF_TB for kernels/trsm.cl, and each leaf is one launch of it
 * (refined inside when trsm_refine), after a copy of the leaf's T
 * transposed where T's storage does not run along the leaf's rows; leaves
 * are smaller where B is wide (leaf_rows).  A solve of n <= trsm_leaf
 * with up to 1024 right-hand sides is then 2 or 3 commands, not 4 a block
 * and 1 an update (docs/performance.md, TRSM).
 *
 * Substitution (trsm_subst, the CPUs' rows): each block of nb is one
 * launch of kernels/subst.cl solving it in place, so no trtri, no scratch
 * and no refinement (substitution is reference BLAS's arithmetic); the
 * updates are as above.  The same recursion multiplies (`mul`, TRMM on
 * those rows): the second half first, B2 <- alpha T22 B2, while B1 is as it
 * was, then B2 += alpha T21 B1 and B1 <- alpha T11 B1, each block the
 * kernel's product.
 *
 * Complex solves (CTRSM, ZTRSM) are the same calls, complex (complex.c maps
 * them), with complex alpha (the updates' beta = alpha is then complex too)
 * and T conjugated for ConjTrans; trtri inverts the blocks, and the leaf
 * kernel solves leaves, in complex arithmetic (leaves only where the
 * device's local memory holds a complex leaf: g3_solve_leaves); complex
 * calls take the packed path, whatever trsm_direct, but for updates
 * within direct_max^3 real multiply-adds, which plan.c runs on the direct
 * kernel's complex mode. */
#include <stdio.h>
#include <stdlib.h>
#include "plan.h"
#include "subst.h"
#include "trsm.h"
#include "trtri.h"

typedef struct {
    const g3_solve *s;
    const g3_device *d;
    size_t nb;
    int refine;
    size_t direct;     /* trsm_direct: products with K up to it ask for the direct path */
    g3_operand inv;    /* the inverted blocks: block 0's operand */
    size_t inv_step;   /* block i's offset in inv: its first row lo times this */
    cl_mem dense;      /* T's diagonal blocks as general matrices, block i at i nb^2, or NULL */
    int rm;            /* trtri's blocks are transposes (row-major) */
    int kernel;        /* leaves are launches of kernels/trsm.cl (nb is trsm_leaf) */
    int subst;         /* blocks are launches of kernels/subst.cl: no inverses, no refinement */
    cl_mem work;       /* S, a copy of B_i; with kernel, a leaf's L where T's storage needs one */
    g3_chain *chain;
} solver;

/* T(r0.., c0..) as an operand: T(r, c) = trans ? A(c, r) : A(r, c) */
static g3_operand tblock(const g3_solve *s, size_t r0, size_t c0)
{
    size_t off = s->trans ? s->offa + c0 + r0 * s->lda : s->offa + r0 + c0 * s->lda;
    return (g3_operand){ .buf = s->a, .off = off, .ld = s->lda, .trans = s->trans, .conj = s->conj };
}

/* B's rows (left) or columns (right) from x0 on. */
static g3_operand bpart(const g3_solve *s, size_t x0)
{
    return (g3_operand){ .buf = s->b, .off = s->offb + (s->left ? x0 : x0 * s->ldb), .ld = s->ldb };
}

/* One call: out <- alpha * t * x + beta * out (left), alpha * x * t + beta
 * * out (right), where out and x have len rows (left) or columns (right)
 * and t is len x k; `snapshot` when x is out; `tri` when t is triangular
 * like T (the launch then skips its zero k-tiles). */
static gpublas3Status step(const solver *v, size_t len, size_t k, g3_operand t, g3_operand x, g3_scalar alpha,
                           g3_scalar beta, g3_operand out, int snapshot, int tri)
{
    const g3_solve *s = v->s;
    g3_call c = { .dbl = s->dbl, .cplx = s->cplx, .M = s->left ? len : s->M, .N = s->left ? s->N : len, .K = k,
                  .alpha = alpha.re, .alpha_im = alpha.im, .beta = beta.re, .beta_im = beta.im, .nterms = 1,
                  .a = { s->left ? t : x }, .b = { s->left ? x : t }, .c = out.buf, .offc = out.off,
                  .ldc = out.ld, .direct = k <= v->direct };
    if (snapshot)
        c.snapshot = s->left ? 2 : 1;
    if (tri)
        c.band = s->left ? (s->upper ? 2 : 1) : (s->upper ? 3 : 4);
    return g3_enqueue(&c, v->chain);
}

/* Block i's inverse (len x len from row and column lo) as an operand. */
static g3_operand inverse(const solver *v, size_t lo)
{
    g3_operand o = v->inv;
    o.off += lo * v->inv_step;
    return o;
}

/* The next step of the chain: S <- B_i (rows x cols), tight (complex: as
 * real pairs). */
static gpublas3Status copy_block(const solver *v, g3_operand b, size_t rows, size_t cols)
{
    size_t c = v->s->cplx ? 2 : 1;
    return g3_copy_tight(v->d, &v->d->sets[v->s->dbl][G3_SHAPE_LARGE], b.buf, b.off * c, b.ld * c, rows * c, cols,
                         v->work, v->chain);
}

/* A leaf's L is op(T) (left) or op(T)^T (right): 1 where T's storage puts
 * L's columns, not its rows, contiguous. */
static int leaf_transposed(const g3_solve *s)
{
    return s->left ? s->trans : !s->trans;
}

/* Leaf lo (of len <= trsm_leaf) by one launch of kernels/trsm.cl.  An L
 * stored across (leaf_transposed) is copied transposed first, so that the
 * kernel's work-items read neighbouring rows: by the copy kernel when
 * real, by the leaf's own transpose when complex (the copy kernel's
 * complex forms are the GEMM's, not a plain transpose). */
static gpublas3Status kernel_leaf(const solver *v, size_t lo, size_t len, g3_scalar alpha)
{
    const g3_solve *s = v->s;
    const int tr = leaf_transposed(s);
    g3_operand l = { .buf = s->a, .off = s->offa + lo * (s->lda + 1), .ld = s->lda, .trans = tr };
    g3_leaf_args a = { .n = len, .rhs = s->left ? s->N : s->M, .fwd = s->left != s->upper, .refine = v->refine,
                       .cplx = s->cplx, .alpha = { alpha.re, alpha.im }, .E = l.buf, .eoff = l.off, .eq = s->lda,
                       .conj = s->conj, .I = v->inv.buf, .T = v->dense, .woff = lo * G3_LEAF_TB, .B = s->b,
                       .boff = s->offb + (s->left ? lo : lo * s->ldb), .bp = s->left ? 1 : s->ldb,
                       .bc = s->left ? s->ldb : 1 };
    gpublas3Status st = gpublas3Success;
    if (tr) {
        a.E = v->work;
        a.eoff = 0;
        a.eq = len;
        if (s->cplx) {
            st = g3_leaf_transpose(v->d, s->dbl, &a, l.buf, l.off, l.ld, v->chain);
        } else {
            const g3_pack_job j = { .o = &l, .xlen = len, .klen = len, .P = v->work, .xb = len, .xpad = len,
                                    .kpad = len };
            st = g3_pack(v->d, &v->d->sets[s->dbl][G3_SHAPE_LARGE], &j, v->chain);
        }
    }
    return st != gpublas3Success ? st : g3_leaf_launch(v->d, s->dbl, &a, v->chain);
}

/* Block lo (of len <= nb) by one launch of kernels/subst.cl, which reads
 * T_ii and B_i in place: L is op(T) (left) or op(T)^T (right), so L(i, k)
 * is A(i, k) where exactly one of those flips applies. */
static gpublas3Status subst_block(const solver *v, size_t lo, size_t len, g3_scalar alpha)
{
    const g3_solve *s = v->s;
    int ik = s->left != s->trans;
    const g3_subst_args a = { .len = len, .rhs = s->left ? s->N : s->M, .mul = s->mul, .fwd = s->left != s->upper,
                              .unit = s->unit, .conj = s->conj, .alpha_re = alpha.re, .alpha_im = alpha.im,
                              .A = s->a, .aoff = s->offa + lo * (s->lda + 1), .li = ik ? 1 : s->lda,
                              .lk = ik ? s->lda : 1, .B = s->b, .boff = s->offb + (s->left ? lo : lo * s->ldb),
                              .bp = s->left ? 1 : s->ldb, .bc = s->left ? s->ldb : 1 };
    return g3_subst_launch(v->d, s->dbl, s->cplx, v->nb, &a, v->chain);
}

/* Block lo (of len <= nb): B_i <- alpha inv(T_ii) B_i, refined once when asked. */
static gpublas3Status leaf(const solver *v, size_t lo, size_t len, g3_scalar alpha)
{
    const g3_solve *s = v->s;
    if (v->kernel)
        return kernel_leaf(v, lo, len, alpha);
    if (v->subst)
        return subst_block(v, lo, len, alpha);
    g3_operand b = bpart(s, lo), inv = inverse(v, lo);
    const g3_scalar zero = g3_real(0), one = g3_real(1), minus = g3_real(-1);
    /* the packed path reads B_i in place through its pack (the snapshot) */
    if (!v->refine && len > v->direct)
        return step(v, len, len, inv, b, alpha, zero, b, 1, 1);
    /* T_ii as stored (its triangle: op(A)'s, flipped by trans), or trtri's
     * general copy of it (laid out as the inverses), and S */
    g3_operand t = { .buf = s->a, .off = s->offa + lo * (s->lda + 1), .ld = s->lda, .trans = s->trans,
                     .shape = s->upper != s->trans ? G3_TRI_UPPER : G3_TRI_LOWER, .unit = s->unit,
                     .conj = s->conj };
    if (v->dense)
        t = (g3_operand){ .buf = v->dense, .off = lo * v->nb, .ld = v->nb, .trans = v->rm };
    size_t rows = s->left ? len : s->M, cols = s->left ? s->N : len;
    g3_operand w = { .buf = v->work, .ld = rows };
    gpublas3Status st = copy_block(v, b, rows, cols);                                  /* S <- B_i */
    if (st == gpublas3Success)
        st = step(v, len, len, inv, w, alpha, zero, b, 0, 1);                          /* B_i <- alpha inv S */
    if (st != gpublas3Success || !v->refine)
        return st;
    st = step(v, len, len, t, b, minus, alpha, w, 0, 1);                               /* S <- alpha S - T_ii B_i */
    return st != gpublas3Success ? st : step(v, len, len, inv, w, one, one, b, 0, 1); /* B_i <- B_i + inv S */
}

/* X(lo..lo+len) <- alpha * solve, rows (left) or columns (right) of B. */
static gpublas3Status solve(const solver *v, size_t lo, size_t len, g3_scalar alpha)
{
    const g3_solve *s = v->s;
    if (len <= v->nb)
        return leaf(v, lo, len, alpha);
    size_t h = g3_roundup((len + 1) / 2, v->nb);
    /* left lower and right upper run forward (the first half first) */
    int forward = s->left != s->upper;
    size_t f0 = forward ? lo : lo + h, flen = forward ? h : len - h;
    size_t s0 = forward ? lo + h : lo, slen = len - flen;
    g3_operand t = s->left ? tblock(s, s0, f0) : tblock(s, f0, s0);
    if (s->mul) {
        /* B2 <- alpha T22 B2 first, while B1 is as it was; then B2 +=
         * alpha T21 B1 (right: alpha B1 T12), then B1 <- alpha T11 B1 */
        gpublas3Status st = solve(v, s0, slen, alpha);
        if (st == gpublas3Success)
            st = step(v, slen, flen, t, bpart(s, f0), alpha, g3_real(1), bpart(s, s0), 0, 0);
        return st != gpublas3Success ? st : solve(v, f0, flen, alpha);
    }
    gpublas3Status st = solve(v, f0, flen, alpha);
    if (st != gpublas3Success)
        return st;
    /* B2 <- alpha B2 - T21 X1 (left), alpha B2 - X1 T12 (right) */
    st = step(v, slen, flen, t, bpart(s, f0), g3_real(-1), alpha, bpart(s, s0), 0, 0);
    return st != gpublas3Success ? st : solve(v, s0, slen, g3_real(1));
}

/* Rows of a leaf: trsm_leaf, fewer where B is wide.  A leaf's launch is one
 * work-group per G3_LEAF_W columns, each running the leaf's whole chain of
 * blocks; with more than a wave or two of them, smaller leaves and the GEMM
 * updates between them are faster (the H100, 2026-11-27: n = 2048 with
 * 2048 columns 1.07-1.5x faster in leaves of 512 than of 1024, n = 4096 1.1-1.5x
 * in leaves of 256; docs/performance.md, TRSM).  So a leaf holds at most
 * G3_LEAF_AREA rows x columns, and never fewer than 256 rows.  A ZTRSM
 * leaf holds one row a work-item (G3_LEAF_LS rows): at more its kernel
 * needs 248-255 registers and a stack (sm_90) against 210, and ZTRSM 1024
 * ran 1.35x faster in leaves of 256 than of 1024 (H100, 2026-12-07: 622-629
 * against 839-840 us; 512: 647); CTRSM keeps 1024 (389-393 against 477 at
 * 256). */
#define G3_LEAF_AREA ((size_t)1 << 20)
static size_t leaf_rows(size_t most, size_t rhs, int zleaf)
{
    size_t rows = G3_LEAF_AREA / rhs / G3_LEAF_TB * G3_LEAF_TB;
    rows = rows < 256 ? 256 : rows;
    rows = zleaf && rows > G3_LEAF_LS ? G3_LEAF_LS : rows;
    return rows < most ? rows : most;
}

/* Only where trtri writes the layouts the kernel reads, and a complex
 * solve only where the device's local memory holds its complex elements
 * (the set's check, lib/params.c, is for real ones: 45 KB for ZTRSM). */
int g3_solve_leaves(const g3_params *p, int cplx, cl_ulong local_mem)
{
    const size_t es = g3_type_size((p->precision == 64) | (cplx ? 2 : 0));
    return g3_trtri_layouts(p) && p->trsm_leaf > 0 && G3_LEAF_LOCAL(es) <= local_mem;
}

int g3_solve_mul(const g3_params *p)
{
    return p->trsm_subst;
}

g3_solve g3_solve_of(int type, gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo, gpublas3Transpose trans,
                     gpublas3Diag diag, size_t M, size_t N, g3_scalar alpha, cl_mem A, size_t offA, size_t lda,
                     cl_mem B, size_t offB, size_t ldb)
{
    int row = order == gpublas3RowMajor, t = trans != gpublas3NoTrans;
    int upper = (uplo == gpublas3Upper) != row;
    /* op(A) is upper triangular when A is upper and not transposed, or lower and transposed */
    return (g3_solve){ .dbl = type & 1, .cplx = type >> 1, .left = (side == gpublas3Left) != row,
                       .upper = upper != t, .trans = t, .conj = trans == gpublas3ConjTrans,
                       .unit = diag == gpublas3Unit, .M = row ? N : M, .N = row ? M : N, .alpha = alpha, .a = A,
                       .offa = offA, .lda = lda, .b = B, .offb = offB, .ldb = ldb };
}

gpublas3Status g3_solve_queues(cl_uint nq, cl_command_queue *qs, const g3_device **d0, cl_uint *shares,
                                unsigned char *on)
{
    *shares = 0;
    for (cl_uint i = 0; i < nq; i++) {
        const g3_device *d;
        gpublas3Status st = g3_device_of(qs[i], i ? &d : d0);
        if (st != gpublas3Success)
            return st;
        int share = !i || d == *d0;
        *shares += share;
        if (on)
            on[i] = (unsigned char)share;
    }
    return gpublas3Success;
}

/* One queue's share of the solve, s whole, as the chain's next steps on d. */
static gpublas3Status solve_share(const g3_solve *s, const g3_device *d, g3_chain *chain)
{
    gpublas3Status st = gpublas3Success;
    size_t n = s->left ? s->M : s->N;
    if (s->M && s->N) {
        const g3_kset *ks = &d->sets[s->dbl][G3_SHAPE_LARGE];
        /* trtri lays the inverses (and T's blocks) out as the products read
         * them in place: column-major on the left (op(T) an A operand, m
         * contiguous), transposed on the right (a B operand, n contiguous);
         * the per-column kernel (trsm_cols 0) writes transposes only */
        int layouts = g3_trtri_layouts(&ks->p), rm = layouts ? !s->left : 1;
        int kernel = !s->mul && g3_solve_leaves(&ks->p, s->cplx, d->local_mem);
        size_t rhs = s->left ? s->N : s->M;
        size_t nb = kernel ? leaf_rows((size_t)ks->p.trsm_leaf, rhs, s->cplx && s->dbl) : (size_t)ks->p.trsm_nb;
        solver v = { .s = s, .d = d, .nb = nb,
                     .refine = ks->p.trsm_refine, .direct = s->cplx ? 0 : (size_t)ks->p.trsm_direct,
                     .rm = rm, .kernel = kernel, .subst = !kernel && ks->p.trsm_subst, .chain = chain };
        /* trtri's blocks: the kernel's, else nb */
        size_t tb = kernel ? G3_LEAF_TB : v.nb;
        size_t es = g3_type_size(s->dbl + 2 * s->cplx), nbl = v.nb < n ? v.nb : n, nr = g3_roundup(n, tb);
        int dense = layouts && v.refine, transpose = !kernel && v.direct && !layouts;
        /* the inverted blocks; S (kernel: a leaf's L); their transposes when products go direct; T's blocks */
        size_t work = kernel ? (leaf_transposed(s) ? nbl * nbl * es : 0) : v.refine || v.direct ? nbl * rhs * es : 0;
        size_t bytes[4] = { nr * tb * es, work, transpose ? nr * tb * es : 0, dense ? nr * tb * es : 0 };
        cl_mem bufs[4];
        st = v.subst ? solve(&v, 0, n, s->alpha) : g3_scratch_acquire(d, chain, 4, bytes, bufs);
        if (st == gpublas3Success && !v.subst) {
            /* block g's inverse (or its transpose: rm) column-major at g tb^2 */
            g3_operand w = { .buf = bufs[0], .ld = tb, .trans = rm };
            v.inv = w;
            v.inv_step = tb;
            v.work = bufs[1];
            v.dense = dense ? bufs[3] : NULL;
            st = g3_trtri_launch(d, s->dbl, s->cplx, s->a, s->offa, s->lda, s->trans, s->conj, s->upper,
                                 s->unit, n, tb, rm, bufs[0], v.dense, chain);
            /* direct: the blocks as one nr x nb column-major matrix, block g from row g nb */
            if (st == gpublas3Success && transpose) {
                v.inv = (g3_operand){ .buf = bufs[2], .ld = nr };
                v.inv_step = 1;
                const g3_pack_job j = { .o = &w, .xlen = nr, .klen = tb, .P = bufs[2], .xb = nr, .xpad = nr,
                                        .kpad = tb };
                st = g3_pack(d, ks, &j, chain);
            }
            if (st == gpublas3Success)
                st = solve(&v, 0, n, s->alpha);
            g3_scratch_release(d, chain, 4, bufs);
        }
        if (st == gpublas3Success && g3_plan_verbose())
            fprintf(stderr, "gpublas3: %s: %c%s %s n=%zu rhs=%zu %s=%zu refine=%d direct=%zu: %u commands\n",
                    s->mul ? "trmm" : "trsm", "sdcz"[s->dbl + 2 * s->cplx], s->mul ? "trmm" : "trsm",
                    s->left ? "left" : "right", n, rhs,
                    kernel ? "leaf" : v.subst ? "subst nb" : "nb", v.nb, v.subst ? 0 : v.refine, v.direct,
                    chain->steps);
    }
    return st;
}

/* The queues on queue 0's device share B: each solves its own run of the
 * right-hand sides (columns of B on the left, rows on the right), which
 * needs no other's, on its own chain after the wait list.  Queues on other
 * devices get a marker after the wait list as their events[i], so that
 * clBLAS's contract (B is done when every event is) holds: their share
 * would have to be solved in scratch of their own device and copied back
 * by queue 0, as split.c does for GEMM's blocks. */
gpublas3Status g3_solve_run(const g3_solve *s, cl_uint nq, cl_command_queue *qs, cl_uint nwait,
                            const cl_event *wait, cl_event *events)
{
    g3_chain *chains = malloc(nq * (sizeof *chains + 1));
    if (!chains)
        return gpublas3OutOfHostMemory;
    unsigned char *on = (unsigned char *)(chains + nq);   /* queue i shares B */
    const g3_device *d;
    cl_uint shares;
    gpublas3Status st = g3_solve_queues(nq, qs, &d, &shares, on);
    if (st == gpublas3Success && s->dbl && !d->has_fp64)
        st = gpublas3InvalidDevice;
    if (st == gpublas3Success && s->mul && !g3_solve_mul(&d->sets[s->dbl][G3_SHAPE_LARGE].p))
        st = gpublas3InvalidValue; /* the caller asks g3_solve_mul first */
    if (st != gpublas3Success) {
        free(chains);
        return st;
    }
    size_t rhs = s->left ? s->N : s->M;
    /* every share enqueued before any event is handed back, so that a
     * failure leaves the caller's events unwritten (split.c does the same) */
    for (cl_uint i = 0, k = 0; i < nq; i++) {
        g3_chain_init(&chains[i], qs[i], nwait, wait);
        if (st == gpublas3Success && on[i]) {
            size_t lo = rhs * k / shares, hi = rhs * (k + 1) / shares;
            k++;
            g3_solve part = *s;
            *(s->left ? &part.N : &part.M) = hi - lo;
            part.offb += s->left ? lo * s->ldb : lo;
            st = solve_share(&part, d, &chains[i]);
        }
    }
    cl_uint done = 0;
    for (; done < nq && st == gpublas3Success; done++)
        st = g3_chain_finish(&chains[done], events ? &events[done] : NULL);
    if (st != gpublas3Success && events)
        for (cl_uint i = 0; i + 1 < done; i++)
            clReleaseEvent(events[i]);
    for (cl_uint i = 0; i < nq; i++)
        g3_chain_abandon(&chains[i]);
    free(chains);
    return st;
}

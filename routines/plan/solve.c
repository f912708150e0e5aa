/* TRSM by the method: the diagonal blocks of nb (the tuned trsm_nb) of the
 * triangular T = op(A) are inverted by one launch of kernels/trtri.cl into
 * scratch, then the solve is a recursion of g3_calls through the plan:
 * T is halved at a multiple of nb, the half that does not depend on the
 * other is solved first, the other half of B is updated by one GEMM-shaped
 * call, B2 <- alpha*B2 - T21*X1 (left; right: X1*T12), and the second half is
 * solved with alpha = 1.  A block of at most nb is one call, X_i <- alpha *
 * inv(T_ii) * B_i, which reads the B block it writes (the packed path's
 * snapshot).  So the updates are few and large (K = n/2, n/4, ...):
 * 2*ceil(n/nb) - 1 calls in all, all chained by events, no host wait.
 *
 * Accuracy: a product with inv(T_ii) instead of substitution leaves a
 * residual that grows with cond(T_ii) (nb bounds it), which LAPACK's own
 * tests notice (README, TRSM).  With trsm_refine (the default) each block
 * is refined once, in GEMM-shaped calls too: S = alpha inv(T_ii) B_i into
 * scratch, B_i <- alpha B_i - T_ii S (the residual), S <- S + inv(T_ii) B_i,
 * then S is copied back into B_i. */
#include "plan.h"
#include "trtri.h"

typedef struct {
    const g3_solve *s;
    size_t nb;
    int refine;
    cl_mem inv, work;  /* inverted blocks; S of the refinement */
    g3_chain *chain;
} solver;

/* T(r0.., c0..) as an operand: T(r, c) = trans ? A(c, r) : A(r, c) */
static g3_operand tblock(const g3_solve *s, size_t r0, size_t c0)
{
    size_t off = s->trans ? s->offa + c0 + r0 * s->lda : s->offa + r0 + c0 * s->lda;
    return (g3_operand){ s->a, off, s->lda, s->trans, G3_GENERAL, 0 };
}

/* B's rows (left) or columns (right) from x0 on, as an operand and as C. */
static size_t boff(const g3_solve *s, size_t x0) { return s->offb + (s->left ? x0 : x0 * s->ldb); }

/* The next step of the chain: S (len x N or M x len, tight) into B's block at lo. */
static gpublas3Status copy_back(const solver *v, size_t lo, size_t rows, size_t cols)
{
    const g3_solve *s = v->s;
    size_t es = s->dbl ? 8 : 4, off = boff(s, lo);
    size_t src[3] = { 0, 0, 0 }, dst[3] = { off % s->ldb * es, off / s->ldb, 0 }, region[3] = { rows * es, cols, 1 };
    const cl_event *deps;
    cl_uint ndeps = g3_chain_deps(v->chain, &deps);
    cl_event ev;
    cl_int err = clEnqueueCopyBufferRect(v->chain->q, v->work, s->b, src, dst, region, rows * es, 0,
                                         s->ldb * es, 0, ndeps, deps, &ev);
    if (err == CL_SUCCESS)
        g3_chain_push(v->chain, ev);
    return (gpublas3Status)err;
}

/* Block lo (of len <= nb): B_i <- alpha inv(T_ii) B_i, refined once when asked. */
static gpublas3Status leaf(const solver *v, size_t lo, size_t len, double alpha)
{
    const g3_solve *s = v->s;
    size_t rows = s->left ? len : s->M, cols = s->left ? s->N : len;
    g3_call c = { .dbl = s->dbl, .M = rows, .N = cols, .K = len, .alpha = alpha, .nterms = 1, .c = s->b,
                  .offc = boff(s, lo), .ldc = s->ldb };
    g3_operand b = { s->b, boff(s, lo), s->ldb, 0, G3_GENERAL, 0 }, w = { v->work, 0, rows, 0, G3_GENERAL, 0 };
    /* the stored block is inv(T_ii)^T: read it transposed */
    g3_operand inv = { v->inv, lo / v->nb * v->nb * v->nb, v->nb, 1, G3_GENERAL, 0 };
    /* T_ii as stored (its triangle: op(A)'s, flipped by trans) */
    g3_operand t = { s->a, s->offa + lo * (s->lda + 1), s->lda, s->trans,
                     s->upper != s->trans ? G3_TRI_UPPER : G3_TRI_LOWER, s->unit };
    /* inv(T_ii) and T_ii are triangular like T: the launches skip their zero k-tiles */
    c.band = s->left ? (s->upper ? 2 : 1) : (s->upper ? 3 : 4);
#define PRODUCT(x, y) (c.a[0] = s->left ? (x) : (y), c.b[0] = s->left ? (y) : (x))
    if (!v->refine) {
        PRODUCT(inv, b);
        c.snapshot = s->left ? 2 : 1;
        return g3_enqueue(&c, v->chain);
    }
    gpublas3Status st;
    g3_call sc = c; /* output S */
    sc.c = v->work;
    sc.offc = 0;
    sc.ldc = rows;
    c = sc;
    PRODUCT(inv, b);                       /* S = alpha inv(T_ii) B_i */
    if ((st = g3_enqueue(&c, v->chain)) != gpublas3Success)
        return st;
    c = (g3_call){ .dbl = s->dbl, .M = rows, .N = cols, .K = len, .alpha = -1, .beta = alpha, .nterms = 1,
                   .c = s->b, .offc = boff(s, lo), .ldc = s->ldb, .band = sc.band };
    PRODUCT(t, w);                         /* B_i <- alpha B_i - T_ii S */
    if ((st = g3_enqueue(&c, v->chain)) != gpublas3Success)
        return st;
    c = sc;
    c.alpha = c.beta = 1;
    PRODUCT(inv, b);                       /* S <- S + inv(T_ii) B_i */
#undef PRODUCT
    if ((st = g3_enqueue(&c, v->chain)) != gpublas3Success)
        return st;
    return copy_back(v, lo, rows, cols);
}

/* X(lo..lo+len) <- alpha * solve, rows (left) or columns (right) of B. */
static gpublas3Status solve(const solver *v, size_t lo, size_t len, double alpha)
{
    const g3_solve *s = v->s;
    if (len <= v->nb)
        return leaf(v, lo, len, alpha);
    g3_call c = { .dbl = s->dbl, .M = s->left ? len : s->M, .N = s->left ? s->N : len, .K = len,
                  .alpha = alpha, .nterms = 1, .c = s->b, .offc = boff(s, lo), .ldc = s->ldb };
    size_t h = g3_roundup((len + 1) / 2, v->nb);
    /* left lower and right upper run forward (the first half first) */
    int forward = s->left != s->upper;
    size_t f0 = forward ? lo : lo + h, flen = forward ? h : len - h;
    size_t s0 = forward ? lo + h : lo, slen = len - flen;
    gpublas3Status st = solve(v, f0, flen, alpha);
    if (st != gpublas3Success)
        return st;
    g3_operand x = { s->b, boff(s, f0), s->ldb, 0, G3_GENERAL, 0 };
    c.M = s->left ? slen : s->M;
    c.N = s->left ? s->N : slen;
    c.K = flen;
    c.alpha = -1;
    c.beta = alpha;
    c.offc = boff(s, s0);
    c.a[0] = s->left ? tblock(s, s0, f0) : x;
    c.b[0] = s->left ? x : tblock(s, f0, s0);
    st = g3_enqueue(&c, v->chain);
    return st != gpublas3Success ? st : solve(v, s0, slen, 1);
}

gpublas3Status g3_solve_run(const g3_solve *s, cl_uint nq, cl_command_queue *qs, cl_uint nwait,
                            const cl_event *wait, cl_event *events)
{
    (void)nq;
    const g3_device *d;
    gpublas3Status st = g3_device_of(qs[0], &d);
    if (st != gpublas3Success)
        return st;
    if (s->dbl && !d->has_fp64)
        return gpublas3InvalidDevice;
    g3_chain chain;
    g3_chain_init(&chain, qs[0], nwait, wait);
    size_t n = s->left ? s->M : s->N;
    if (s->M && s->N) {
        const g3_params *pr = &d->sets[s->dbl][G3_SHAPE_LARGE].p;
        solver v = { s, (size_t)pr->trsm_nb, pr->trsm_refine, NULL, NULL, &chain };
        size_t es = s->dbl ? 8 : 4, nbl = v.nb < n ? v.nb : n;
        size_t bytes[2] = { g3_roundup(n, v.nb) * v.nb * es, v.refine ? nbl * (s->left ? s->N : s->M) * es : 0 };
        cl_mem bufs[2];
        st = g3_scratch_acquire(d, &chain, 2, bytes, bufs);
        if (st == gpublas3Success) {
            v.inv = bufs[0];
            v.work = bufs[1];
            st = g3_trtri_launch(d, s->dbl, s->a, s->offa, s->lda, s->trans, s->upper, s->unit, n, v.nb,
                                 v.inv, &chain);
            if (st == gpublas3Success)
                st = solve(&v, 0, n, s->alpha);
            g3_scratch_release(d, &chain, 2, bufs);
        }
    }
    if (st != gpublas3Success) {
        g3_chain_abandon(&chain);
        return st;
    }
    return g3_chain_finish(&chain, events);
}

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
 * Accuracy: a product with inv(T_ii) instead of substitution makes the
 * residual grow with cond(T_ii), not cond(T); nb bounds it (README, TRSM). */
#include "plan.h"
#include "trtri.h"

typedef struct {
    const g3_solve *s;
    size_t nb;
    cl_mem inv;
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

/* X(lo..lo+len) <- alpha * solve, rows (left) or columns (right) of B. */
static gpublas3Status solve(const solver *v, size_t lo, size_t len, double alpha)
{
    const g3_solve *s = v->s;
    g3_call c = { .dbl = s->dbl, .M = s->left ? len : s->M, .N = s->left ? s->N : len, .K = len,
                  .alpha = alpha, .nterms = 1, .c = s->b, .offc = boff(s, lo), .ldc = s->ldb };
    g3_operand b = { s->b, boff(s, lo), s->ldb, 0, G3_GENERAL, 0 };
    if (len <= v->nb) {
        /* the stored block is inv(T_ii)^T: read it transposed */
        g3_operand inv = { v->inv, lo / v->nb * v->nb * v->nb, v->nb, 1, G3_GENERAL, 0 };
        c.a[0] = s->left ? inv : b;
        c.b[0] = s->left ? b : inv;
        c.snapshot = s->left ? 2 : 1;
        /* inv(T_ii) is triangular like T: the launch skips its zero k-tiles */
        c.band = s->left ? (s->upper ? 2 : 1) : (s->upper ? 3 : 4);
        return g3_enqueue(&c, v->chain);
    }
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
        solver v = { s, (size_t)d->sets[s->dbl][G3_SHAPE_LARGE].p.trsm_nb, NULL, &chain };
        size_t bytes = g3_roundup(n, v.nb) * v.nb * (s->dbl ? 8 : 4);
        st = g3_scratch_acquire(d, &chain, 1, &bytes, &v.inv);
        if (st == gpublas3Success) {
            st = g3_trtri_launch(d, s->dbl, s->a, s->offa, s->lda, s->trans, s->upper, s->unit, n, v.nb,
                                 v.inv, &chain);
            if (st == gpublas3Success)
                st = solve(&v, 0, n, s->alpha);
            g3_scratch_release(d, &chain, 1, &v.inv);
        }
    }
    if (st != gpublas3Success) {
        g3_chain_abandon(&chain);
        return st;
    }
    return g3_chain_finish(&chain, events);
}

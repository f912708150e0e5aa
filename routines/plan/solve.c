/* TRSM by the method: the diagonal blocks of nb (the tuned trsm_nb) of the
 * triangular T = op(A) are inverted by one launch of kernels/trtri.cl into
 * scratch, then the solve is a recursion of g3_calls through the plan:
 * T is halved at a multiple of nb, the half that does not depend on the
 * other is solved first, the other half of B is updated by one GEMM-shaped
 * call, B2 <- alpha*B2 - T21*X1 (left; right: X1*T12), and the second half is
 * solved with alpha = 1.  A block of at most nb is one call, X_i <- alpha *
 * inv(T_ii) * B_i, which reads the B block it writes (the packed path's
 * snapshot).  So the updates are few and large (K = n/2, n/4, ...):
 * ceil(n/nb) - 1 updates and ceil(n/nb) blocks, all chained by events, no
 * host wait (n = 8192, nb = 64: 127 updates, 128 blocks).
 *
 * Accuracy: a product with inv(T_ii) instead of substitution leaves a
 * residual that grows with cond(T_ii) (nb bounds it), which LAPACK's own
 * tests notice (README, TRSM).  With trsm_refine (the default) each block
 * is refined once, in GEMM-shaped calls too: S = alpha inv(T_ii) B_i into
 * scratch, B_i <- alpha B_i - T_ii S (the residual), S <- S + inv(T_ii) B_i,
 * then S is copied back into B_i: three calls and a copy per block.
 *
 * Complex solves (CTRSM, ZTRSM) are the same calls, complex (complex.c maps
 * them), with complex alpha (the updates' beta = alpha is then complex too)
 * and T conjugated for ConjTrans; trtri inverts the blocks in complex
 * arithmetic. */
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
                  .alpha = alpha.re, .alpha_im = alpha.im, .beta = beta.re, .beta_im = beta.im, .nterms = 1, .a = { s->left ? t : x }, .b = { s->left ? x : t }, .c = out.buf,
                  .offc = out.off, .ldc = out.ld };
    if (snapshot)
        c.snapshot = s->left ? 2 : 1;
    if (tri)
        c.band = s->left ? (s->upper ? 2 : 1) : (s->upper ? 3 : 4);
    return g3_enqueue(&c, v->chain);
}

/* Block lo (of len <= nb): B_i <- alpha inv(T_ii) B_i, refined once when asked. */
static gpublas3Status leaf(const solver *v, size_t lo, size_t len, g3_scalar alpha)
{
    const g3_solve *s = v->s;
    g3_operand b = bpart(s, lo);
    /* the stored block is inv(T_ii)^T: read it transposed */
    g3_operand inv = { .buf = v->inv, .off = lo / v->nb * v->nb * v->nb, .ld = v->nb, .trans = 1 };
    const g3_scalar zero = g3_real(0), one = g3_real(1), minus = g3_real(-1);
    if (!v->refine)
        return step(v, len, len, inv, b, alpha, zero, b, 1, 1);
    /* T_ii as stored (its triangle: op(A)'s, flipped by trans), and S */
    g3_operand t = { .buf = s->a, .off = s->offa + lo * (s->lda + 1), .ld = s->lda, .trans = s->trans,
                     .shape = s->upper != s->trans ? G3_TRI_UPPER : G3_TRI_LOWER, .unit = s->unit,
                     .conj = s->conj };
    size_t rows = s->left ? len : s->M, cols = s->left ? s->N : len;
    g3_operand w = { .buf = v->work, .ld = rows };
    gpublas3Status st;
    if ((st = step(v, len, len, inv, b, alpha, zero, w, 0, 1)) != gpublas3Success ||  /* S = alpha inv B_i */
        (st = step(v, len, len, t, w, minus, alpha, b, 0, 1)) != gpublas3Success ||   /* B_i <- alpha B_i - T_ii S */
        (st = step(v, len, len, inv, b, one, one, w, 0, 1)) != gpublas3Success)       /* S <- S + inv B_i */
        return st;
    return g3_copy_matrix(v->chain, v->work, 0, rows, b.buf, b.off, b.ld, rows, cols,
                          g3_type_size(s->dbl + 2 * s->cplx));
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
    gpublas3Status st = solve(v, f0, flen, alpha);
    if (st != gpublas3Success)
        return st;
    /* B2 <- alpha B2 - T21 X1 (left), alpha B2 - X1 T12 (right) */
    g3_operand t = s->left ? tblock(s, s0, f0) : tblock(s, f0, s0);
    st = step(v, slen, flen, t, bpart(s, f0), g3_real(-1), alpha, bpart(s, s0), 0, 0);
    return st != gpublas3Success ? st : solve(v, s0, slen, g3_real(1));
}

/* The whole solve runs on queue 0; each other queue the caller gave gets a
 * marker after the wait list as its events[i], so that clBLAS's contract
 * (B is done when every event is) holds.  (Cutting B into column blocks
 * (left) or row blocks (right) per queue would be sound too: each block's
 * solve is independent.) */
gpublas3Status g3_solve_run(const g3_solve *s, cl_uint nq, cl_command_queue *qs, cl_uint nwait,
                            const cl_event *wait, cl_event *events)
{
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
        size_t es = g3_type_size(s->dbl + 2 * s->cplx), nbl = v.nb < n ? v.nb : n;
        size_t bytes[2] = { g3_roundup(n, v.nb) * v.nb * es, v.refine ? nbl * (s->left ? s->N : s->M) * es : 0 };
        cl_mem bufs[2];
        st = g3_scratch_acquire(d, &chain, 2, bytes, bufs);
        if (st == gpublas3Success) {
            v.inv = bufs[0];
            v.work = bufs[1];
            st = g3_trtri_launch(d, s->dbl, s->cplx, s->a, s->offa, s->lda, s->trans, s->conj, s->upper,
                                 s->unit, n, v.nb, v.inv, &chain);
            if (st == gpublas3Success)
                st = solve(&v, 0, n, s->alpha);
            g3_scratch_release(d, &chain, 2, bufs);
        }
    }
    if (st != gpublas3Success) {
        g3_chain_abandon(&chain);
        return st;
    }
    for (cl_uint i = 1; i < nq && events; i++) {
        cl_int err = clEnqueueMarkerWithWaitList(qs[i], nwait, nwait ? wait : NULL, &events[i]);
        if (err != CL_SUCCESS) {
            g3_chain_abandon(&chain);
            while (--i > 0)
                clReleaseEvent(events[i]);
            return (gpublas3Status)err;
        }
    }
    return g3_chain_finish(&chain, events);
}

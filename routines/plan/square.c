/* SPDX-License-Identifier: BSD-3-Clause */
/* SYR2K's and HER2K's square form.  Their second term is the first's
 * transpose (conjugate transpose for HER2K): alpha op(B) op(A)^T =
 * (alpha op(A) op(B)^T)^T.  So X = alpha op(A) op(B)^T over the whole
 * N x N square, one GEMM call into scratch with as many multiply-adds as
 * the triangle's two terms, then C <- X + X^T + beta C on the stored
 * triangle (kernels/reduce.cl's reduce_sym), give the same result.  A
 * triangle too small to fill the device splits K (splitk.c), in two
 * launches of half-full tiles; the square's GEMM has twice the tiles of
 * each.  Taken where the triangle's plan splits K and the set's square2k
 * asks for it, and, where square2k is above 1, for unsplit triangles of N
 * up to it and K at least N/2, which fill the device little better (H100,
 * 2026-12-07, us, triangle against the square: ZSYR2K 1024 407-410 / 276,
 * 2048 2011-2013 / 1609-1631, CSYR2K 2048 2241-2254 / 1531-1537, DSYR2K
 * 2048 664-688 / 426-429; at 4096 within 1.06x); the cost is X's N x N
 * scratch (within the scratch limit with its GEMM's: g3_call.held) and
 * one pass over it. */
#include "plan.h"

static size_t square_bytes(const g3_call *call)
{
    return call->N * call->N * (call->dbl ? 8 : 4) * (call->cplx ? 2 : 1);
}

int g3_square_wins(const g3_device *d, const g3_call *call, const g3_plan *p)
{
    return call->nterms == 2 && call->tri && !call->band && !call->snapshot && !call->reuse && call->K > 0 &&
           (call->alpha != 0 || call->alpha_im != 0) && p->ks->p.square2k &&
           (p->path == G3_PATH_SPLITK || (p->path == G3_PATH_PACKED && call->N <= (size_t)p->ks->p.square2k &&
                                          2 * call->K >= call->N)) &&
           g3_hold_fits(d, call, square_bytes(call));
}

gpublas3Status g3_square_enqueue(const g3_device *d, const g3_call *call, const g3_plan *p, g3_chain *chain)
{
    size_t bytes[1] = { square_bytes(call) };
    cl_mem X[1];
    gpublas3Status st = g3_scratch_acquire(d, chain, 1, bytes, X);
    if (st != gpublas3Success)
        return st; /* (OutOfResources: nothing enqueued, the caller runs the triangle) */
    /* term 0 alone into X (tight, N x N), alpha as the call's */
    g3_call g = *call;
    g.nterms = 1;
    g.tri = 0;
    g.alpha_conj2 = 0;
    g.beta = 0;
    g.beta_im = 0;
    g.c = X[0];
    g.offc = 0;
    g.ldc = call->N;
    g.held = call->held + bytes[0];
    st = g3_enqueue(&g, chain);
    if (st == gpublas3OutOfResources) { /* its scratch could not be had either: nothing enqueued */
        g3_scratch_release(d, chain, 1, X);
        return st;
    }
    double beta = call->beta;
    if (st == gpublas3Success && call->beta_im != 0) { /* complex beta: C <- beta C first (complex.c) */
        const double b[2] = { call->beta, call->beta_im };
        st = g3_cscale(d, p->ks, call->c, call->offc, call->ldc, call->N, call->N, call->tri, b, chain);
        beta = 1;
    }
    int cs = call->cplx ? 1 : 0;
    if (st == gpublas3Success)
        st = g3_reduce_sym(d, p->ks, call->dbl, call->N << cs, call->N, beta, X[0], call->c, call->offc << cs,
                           call->ldc << cs, call->tri, call->cplx, chain);
    g3_scratch_release(d, chain, 1, X);
    return st;
}

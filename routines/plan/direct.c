/* SPDX-License-Identifier: BSD-3-Clause */
/* The direct path: one launch of the direct kernel (kernels/direct.cl)
 * reading the call's operands where they are, for calls too small to pay
 * for packing.  TRMM's output is also its input: the kernel runs it only
 * when one work-group covers every element of C that its reads touch
 * (side Left: a column of C reads only that column of B, so all M rows in
 * one group; side Right: all N columns), and a barrier orders the group's
 * reads before its stores; otherwise the plan does not choose direct. */
#include "plan.h"

int g3_direct_fits(const g3_call *c, const g3_kset *ks)
{
    if (c->snapshot == 2) return c->M <= g3_direct_tile_m(ks);
    if (c->snapshot == 1) return c->N <= g3_direct_tile_n(ks);
    return 1;
}

gpublas3Status g3_direct_enqueue(const g3_device *d, const g3_call *c, const g3_plan *p, g3_chain *chain)
{
    g3_direct_args a = { .M = c->M, .N = c->N, .K = c->K, .alpha = c->alpha, .beta = c->beta, .cplx = c->cplx,
                         .alpha_im = c->alpha_im, .beta_im = c->beta_im,
                         .nterms = c->nterms, .a = { &c->a[0], &c->a[1] }, .b = { &c->b[0], &c->b[1] },
                         .C = c->c, .offc = c->offc, .ldc = c->ldc, .tri = c->tri, .inplace = c->snapshot != 0 };
    chain->eventless = chain->quiet; /* the launch is the whole call */
    gpublas3Status st = g3_direct_launch(d, p->ks, c->dbl, &a, chain);
    chain->eventless = 0;
    return st;
}

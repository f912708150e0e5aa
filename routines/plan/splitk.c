/* SPDX-License-Identifier: BSD-3-Clause */
/* Split-K, for calls whose output has too few tiles to fill the device:
 * the packed path packs the operands once (one panel), then one GEMM
 * launch per term runs a layer of work-groups per slice of K, each layer
 * writing its partial sum (alpha = 1; the first term beta = 0, the second
 * adds) to its own scratch matrix; the reduction (kernels/reduce.cl) adds
 * the slices in a fixed order and applies alpha, beta and the triangle.
 * No atomics: the same call gives bit-identical results every time.
 *
 * Aim: splitk_wgs work-groups per compute unit (the set's field, 1 unless
 * its row says more).  When: that is two or more per output tile.  How
 * many slices: as many as make that many work-groups, no slice shallower
 * than the set's splitk_k (the partials and the reduction must stay small
 * next to the product), at most G3_MAX_SPLITS (64).  The H100's rows aim
 * at 2 to 16 work-groups per compute unit by class and precision, from
 * its plan sweep (docs/performance.md, Split-K): a deep-K call with 16
 * tiles ran 1.25x faster in 16 slices than in the 8 of one per compute
 * unit.  Forced (GPUBLAS3_SPLITS): the count asked, in whole k-tiles, at
 * most one slice per k-tile. */
#include "plan.h"

size_t g3_splitk_bytes(const g3_call *c, int splits)
{
    return (size_t)splits * c->M * c->N * (c->dbl ? 8 : 4);
}

int g3_splitk_slices(const g3_device *d, const g3_call *c, const g3_kset *ks, int forced, size_t *kslice)
{
    const g3_params *pr = &ks->p;
    if (c->K == 0 || c->alpha == 0)
        return 0;
    size_t kwg = (size_t)pr->kwg, ktiles = (c->K + kwg - 1) / kwg, want;
    if (forced) {
        want = ktiles < (size_t)forced ? ktiles : (size_t)forced;
    } else {
        size_t tiles = g3_tiles(pr, c);
        if (c->tri)
            tiles = (tiles + 1) / 2;
        size_t deep = c->K / (size_t)pr->splitk_k;
        size_t target = (size_t)pr->splitk_wgs * d->compute_units;
        want = target / tiles;
        want = want < deep ? want : deep;
        want = want < G3_MAX_SPLITS ? want : G3_MAX_SPLITS;
    }
    if (want < 2)
        return 0;
    /* whole k-tiles per slice; the last may be shorter */
    *kslice = (ktiles + want - 1) / want * kwg;
    int splits = (int)((ktiles * kwg + *kslice - 1) / *kslice);
    size_t bytes = g3_splitk_bytes(c, splits);
    if (bytes > d->max_alloc || !g3_packed_whole_fits(d, c, ks, splits, bytes))
        return 0;
    return splits;
}

gpublas3Status g3_splitk_reduce(const g3_device *d, const g3_call *c, const g3_plan *p, int splits, cl_mem P,
                                g3_chain *chain)
{
    return g3_reduce_launch(d, p->ks, c->dbl, c->M, c->N, splits, c->alpha, c->beta, P, c->c, c->offc, c->ldc,
                            c->tri, c->cplx, chain);
}

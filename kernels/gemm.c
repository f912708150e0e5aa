/* SPDX-License-Identifier: BSD-3-Clause */
/* Host side of the GEMM kernel (kernels/gemm.cl): sets the arguments and
 * the launch geometry of one launch with parameter set ks (a third
 * dimension of one layer of work-groups per slice of K). */
#include <stdio.h>
#include "gemm.h"

/* C's prefetch (the set's cpref) only where it was measured to pay: the
 * updates of K = 64 to 512 it was tuned on (docs/performance.md).
 * Deeper, C's traffic is a small part of the call, and the prefetch's code
 * costs registers, which the D large set has none to spare of (docs/performance.md). */
#define CPREF_MAX_K 512

int g3_gemm_prefetches_c(const g3_params *p, double beta, int splits, size_t K)
{
    return p->cpref && beta != 0 && splits <= 1 && K <= CPREF_MAX_K;
}

gpublas3Status g3_gemm_launch(const g3_device *d, const g3_kset *ks, int dbl, const g3_gemm_args *a,
                              g3_chain *chain)
{
    const g3_params *pr = &ks->p;
    size_t mp = g3_roundup(a->M, pr->mwg), np = g3_roundup(a->N, pr->nwg);
    cl_int M = (cl_int)a->M, N = (cl_int)a->N, K = (cl_int)a->K;
    cl_long offc = (cl_long)a->offc, ldc = (cl_long)a->ldc;
    cl_int tri = a->tri, tri_off = a->tri_off, band = a->band, band_off = a->band_off, bxb = a->bxb, cplx = a->cplx;
    cl_int trimap = a->trimap, snake = a->snake;
    size_t splits = a->splits > 1 ? (size_t)a->splits : 1;
    cl_int kslice = splits > 1 ? (cl_int)a->kslice : 0;
    cl_long cslice = (cl_long)a->cslice;
    cl_long abatch = (cl_long)a->abatch, bbatch = (cl_long)a->bbatch;
    /* in place: offsets and strides in vectors (VWM, VWN along m, n; 16
     * bytes along k), the kernel's AIP and BIP 1 (m, n contiguous) or 2 (k),
     * AIP 3 a complex A's 2x2 form (m contiguous) */
    size_t vk = 16 / (dbl ? 8 : 4), va = a->ak ? vk : (size_t)pr->vwm, vb = a->bk ? vk : (size_t)pr->vwn;
    cl_long aoff = (cl_long)(a->aoff / va), boff = (cl_long)(a->boff / vb);
    cl_int ars = (cl_int)(a->ald / va), brs = (cl_int)(a->bld / vb);
    /* with rtmap, packed and m (n) contiguous share a build (AIP, BIP -1),
     * whose strides say which: one column block (ablk, bblk vectors) after
     * another, k-rows ars (brs) apart */
    cl_long ablk = 0, bblk = 0;
    if (pr->rtmap) {
        const cl_int am = (cl_int)(pr->mwg / pr->vwm), bn = bxb / (cl_int)pr->vwn; /* a block's vectors */
        if (!a->ak) {
            ablk = a->ald ? am : (cl_long)K * am;
            if (!a->ald)
                ars = am;
        }
        if (!a->bk) {
            bblk = a->bld ? bn : (cl_long)K * bn;
            if (!a->bld)
                brs = bn;
        }
    }
    char options[sizeof ks->gemm_defines[0][0] + 100];
    /* nor where C is not read: beta 0, split-K's slices (their partial sums store with beta 0) */
    const int cpref = g3_gemm_prefetches_c(pr, a->beta, (int)splits, a->K);
    /* a band's build unswizzled where the set's swz is 2: S TRMM 4096 ran 12 % slower swizzled
     * (the H100, docs/performance.md) */
    const char *defines = ks->gemm_defines[cpref][a->band != 0];
    const char *opts = defines;
    /* operands read in place, a band's or a triangle's map of ids to tiles
     * and a batch are builds of their own; with rtmap (CPUs) every launch
     * but those reading an operand k contiguous shares one, whose map,
     * strides and batch the arguments give (kernels/gemm.cl) */
    const int batched = a->batch || pr->rtmap;
    if (pr->rtmap || a->ald || a->bld || a->band || a->trimap || a->batch) {
        const int rt = pr->rtmap;
        int n = snprintf(options, sizeof options, "%s -DAIP=%d -DBIP=%d -DLPT=%d -DSNAKE=%d -DTRIMAP=%d", defines,
                         a->ac ? 3 : a->ak ? 2 : rt ? -1 : !!a->ald, a->bk ? 2 : rt ? -1 : !!a->bld, rt ? -1 : a->band,
                         rt ? -1 : a->snake, rt ? -1 : a->trimap);
        if (batched)
            snprintf(options + n, sizeof options - n, " -DBATCHED=1");
        opts = options;
    }
    g3_scalar_val al, be;
    g3_arg args[] = { G3_ARG(M), G3_ARG(N), G3_ARG(K),
        g3_scalar_arg(dbl, 0, a->alpha, 0, &al), g3_scalar_arg(dbl, 0, a->beta, 0, &be),
        G3_ARG(a->A), G3_ARG(a->B), G3_ARG(aoff), G3_ARG(ars), G3_ARG(ablk), G3_ARG(boff), G3_ARG(brs), G3_ARG(bblk),
        G3_ARG(a->C), G3_ARG(offc), G3_ARG(ldc),
        G3_ARG(tri), G3_ARG(tri_off), G3_ARG(band), G3_ARG(band_off), G3_ARG(trimap), G3_ARG(snake),
        G3_ARG(bxb), G3_ARG(cplx),
        G3_ARG(kslice), G3_ARG(cslice), G3_ARG(abatch), G3_ARG(bbatch), G3_ARG(a->offs), G3_ARG(a->scal) };
    /* the last four only in a batch's build */
    cl_uint nargs = sizeof args / sizeof args[0] - (batched ? 0 : 4);
    /* one work-item per MDIMC unit, or one warp of 32 for the tensor-core path */
    size_t wx = pr->mdimc * (pr->mma ? 32 : 1), gm = mp / pr->mwg, gn = np / pr->nwg;
    size_t global[3] = { (pr->nfirst ? gn : gm) * wx, (pr->nfirst ? gm : gn) * pr->ndimc,
                         a->batch ? a->batch : splits };
    if (a->trimap) { /* one dimension of ids: the triangle's gn (gn + 1) / 2 tiles, of pairs of rows (complex) */
        global[0] = gn * (gn + 1) / (a->cplx ? 1 : 2) * wx;
        global[1] = pr->ndimc;
    }
    size_t local[3] = { wx, pr->ndimc, 1 };
    return g3_launch(chain, d, g3_src_gemm, "gemm", opts, nargs, args, 3,
                     global, local);
}

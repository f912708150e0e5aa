/* SPDX-License-Identifier: BSD-3-Clause */
/* Host side of kernels/subst.cl: one work-item a group (the kernel never
 * shares anything between work-items), each w vectors of the set's vwm
 * right-hand sides, the vector width the CPU rows' GEMM kernels run at. */
#include <stdio.h>
#include "subst.h"

extern const char g3_src_subst[];

gpublas3Status g3_subst_launch(const g3_device *d, int dbl, int cplx, size_t nb, const g3_subst_args *a,
                               g3_chain *chain)
{
    size_t v = (size_t)d->sets[dbl][G3_SHAPE_LARGE].p.vwm;
    /* real blocks: 2 vectors a work-item, each L(i, k) loaded serving both
     * (Xeon, 2026-12-07: S TRMM 4096x256 RLTN 1538-1792 -> 1033-1131 us;
     * 3 vectors level, 4 slower: docs/performance.md, Findings: PoCL) */
    size_t w = cplx ? 1 : 2;
    char options[112];
    snprintf(options, sizeof options, "-DPRECISION=%d -DCOMPLEX=%d -DNB=%zu -DV=%zu -DW=%zu -DMUL=%d -DCONJ=%d",
             dbl ? 64 : 32, cplx, nb, v, w, a->mul, cplx && a->conj);
    cl_int len = (cl_int)a->len, rhs = (cl_int)a->rhs, fwd = a->fwd, unit = a->unit;
    g3_scalar_val ar, ai;
    cl_long aoff = (cl_long)a->aoff, li = (cl_long)a->li, lk = (cl_long)a->lk, boff = (cl_long)a->boff,
            bp = (cl_long)a->bp, bc = (cl_long)a->bc;
    g3_arg args[] = { G3_ARG(len), G3_ARG(rhs), G3_ARG(fwd), G3_ARG(unit),
                      g3_scalar_arg(dbl, 0, a->alpha_re, 0, &ar), g3_scalar_arg(dbl, 0, a->alpha_im, 0, &ai),
                      G3_ARG(a->A), G3_ARG(aoff), G3_ARG(li), G3_ARG(lk), G3_ARG(a->B), G3_ARG(boff), G3_ARG(bp),
                      G3_ARG(bc) };
    size_t local = 1, global = (a->rhs + v * w - 1) / (v * w);
    /* left-side blocks (a lane's rows contiguous) load whole tiles: subst_left */
    const char *kernel = a->bp == 1 ? "subst_left" : "subst";
    return g3_launch(chain, d, g3_src_subst, kernel, options, sizeof args / sizeof args[0], args, 1, &global,
                     &local);
}

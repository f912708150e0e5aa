/* SPDX-License-Identifier: BSD-3-Clause */
/* Host side of the direct kernel (kernels/direct.cl): sets the arguments
 * and the launch geometry. */
#include <stdio.h>
#include "direct.h"

size_t g3_direct_tile_m(const g3_kset *ks) { return (size_t)ks->p.direct_dm * ks->p.direct_wm; }
size_t g3_direct_tile_n(const g3_kset *ks) { return (size_t)ks->p.direct_dn * ks->p.direct_wn; }

/* One operand's six arguments, in the kernel's order. */
typedef struct {
    cl_long off, ld;
    cl_int tr, shape, unit;
} operand_args;

/* (tr's bit 1: conjugated, complex only) */
static operand_args operand(const g3_operand *o)
{
    return (operand_args){ (cl_long)o->off, (cl_long)o->ld, o->trans | o->conj << 1, o->shape, o->unit };
}

gpublas3Status g3_direct_launch(const g3_device *d, const g3_kset *ks, int dbl, const g3_direct_args *a,
                                g3_chain *chain)
{
    /* alpha = 0: A and B are not read (NaN there must not reach C) */
    int zero = a->alpha == 0 && (!a->cplx || a->alpha_im == 0);
    cl_int M = (cl_int)a->M, N = (cl_int)a->N, K = zero ? 0 : (cl_int)a->K, nterms = a->nterms;
    g3_scalar_val al, be;
    cl_long offc = (cl_long)a->offc, ldc = (cl_long)a->ldc;
    cl_int tri = a->tri, inplace = a->inplace;
    cl_long bs[3] = { (cl_long)a->stride[0], (cl_long)a->stride[1], (cl_long)a->stride[2] };
    size_t per = a->per_group ? a->per_group : 1;
    cl_int nprod = a->batch ? (cl_int)a->batch : 1, per_group = (cl_int)per;
    /* term 1 repeats term 0 when there is none (never read) */
    const g3_operand *op[4] = { a->a[0], a->b[0], a->a[a->nterms > 1], a->b[a->nterms > 1] };
    operand_args o[4];
    for (int i = 0; i < 4; i++)
        o[i] = operand(op[i]);
#define OPERAND(i) G3_ARG(op[i]->buf), G3_ARG(o[i].off), G3_ARG(o[i].ld), G3_ARG(o[i].tr), \
                   G3_ARG(o[i].shape), G3_ARG(o[i].unit)
    g3_arg args[] = { G3_ARG(M), G3_ARG(N), G3_ARG(K),
        g3_scalar_arg(dbl, a->cplx, a->alpha, a->alpha_im, &al),
        g3_scalar_arg(dbl, a->cplx, a->beta, a->beta_im, &be), G3_ARG(nterms),
        OPERAND(0), OPERAND(1), OPERAND(2), OPERAND(3),
        G3_ARG(a->C), G3_ARG(offc), G3_ARG(ldc), G3_ARG(tri), G3_ARG(inplace), G3_ARG(bs[0]), G3_ARG(bs[1]),
        G3_ARG(bs[2]), G3_ARG(a->offs), G3_ARG(a->scal), G3_ARG(nprod), G3_ARG(per_group) };
#undef OPERAND
    const g3_params *pr = &ks->p;
    /* a batch: the last seven arguments, a third dimension of per_group
     * products a layer; a build of its own on GPUs, on CPUs (rtmap, where
     * a build costs seconds) every call's, a single call one product */
    const int batched = a->batch || pr->rtmap;
    size_t tm = g3_direct_tile_m(ks), tn = g3_direct_tile_n(ks);
    size_t global[3] = { (a->M + tm - 1) / tm * pr->direct_dm, (a->N + tn - 1) / tn * pr->direct_dn,
                         ((size_t)nprod + per - 1) / per };
    size_t local[3] = { pr->direct_dm, pr->direct_dn, 1 };
    /* complex: a build of its own (COMPLEX) */
    char options[sizeof ks->direct_defines + 32];
    snprintf(options, sizeof options, "%s%s%s", ks->direct_defines, batched ? " -DBATCHED=1" : "",
             a->cplx ? " -DCOMPLEX=1" : "");
    return g3_launch(chain, d, g3_src_direct, "direct", options,
                     sizeof args / sizeof args[0] - (batched ? 0 : 7), args, batched ? 3 : 2, global, local);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* The host side of the drop-ins that needs no device: C <- beta*C for
 * alpha = 0 (done exactly as reference BLAS does it, so the result is
 * bit-identical), and the last resort when no OpenCL device can run a call:
 * plain loops over the same panels and sub-calls the device would have run,
 * summing in double (complex double for every type: a real element is one
 * with imaginary part 0, and products of those are the real products).
 * Slow (no blocking, no vectors) but always right. */
#include <complex.h>
#include <stdlib.h>
#include "dropin.h"

typedef double complex cx;

static cx get(const g3d_call *c, g3d_at at, int i, int j)
{
    const void *p = at.mat == 'A' ? c->a : at.mat == 'B' ? c->b : c->c;
    int ld = at.mat == 'A' ? c->lda : at.mat == 'B' ? c->ldb : c->ldc;
    size_t k = (size_t)(at.r + i) + (size_t)(at.c + j) * (size_t)ld;
    if (!c->cplx)
        return c->dbl ? ((const double *)p)[k] : ((const float *)p)[k];
    return c->dbl ? CMPLX(((const double *)p)[2 * k], ((const double *)p)[2 * k + 1])
                  : CMPLX(((const float *)p)[2 * k], ((const float *)p)[2 * k + 1]);
}

static void put(const g3d_call *c, g3d_at at, int i, int j, cx v)
{
    size_t k = (size_t)(at.r + i) + (size_t)(at.c + j) * (size_t)c->ldc, n = c->cplx ? 2 : 1;
    if (c->dbl) {
        ((double *)c->c)[n * k] = creal(v);
        if (c->cplx) ((double *)c->c)[n * k + 1] = cimag(v);
    } else {
        ((float *)c->c)[n * k] = (float)creal(v);
        if (c->cplx) ((float *)c->c)[n * k + 1] = (float)cimag(v);
    }
}

/* beta*C as reference BLAS computes it, in the routine's precision. */
static cx scaled(const g3d_call *c, cx beta, cx old)
{
    if (beta == 0) return 0;
    if (c->dbl) return beta * old;
    float complex fb = (float complex)beta, fo = (float complex)old;
    return fb * fo;
}

/* op(X)(i, l): transposed for 'T', conjugate-transposed for 'C'. */
static cx op_elem(const g3d_call *c, g3d_at at, char trans, int i, int l)
{
    return trans == 'N' ? get(c, at, i, l) : trans == 'C' ? conj(get(c, at, l, i)) : get(c, at, l, i);
}

/* Symmetric A, or Hermitian (the mirror conjugated, the diagonal real). */
static cx sym_elem(const g3d_call *c, const g3d_op *o, int i, int l)
{
    int stored = o->uplo == 'U' ? i <= l : i >= l;
    if (!c->herm)
        return stored ? get(c, o->a, i, l) : get(c, o->a, l, i);
    if (i == l) return creal(get(c, o->a, i, i));
    return stored ? get(c, o->a, i, l) : conj(get(c, o->a, l, i));
}

static cx tri_elem(const g3d_call *c, const g3d_op *o, int i, int l)
{
    int cj = o->trans == 'C';
    if (o->trans != 'N') { int t = i; i = l; l = t; }
    if (i == l && o->diag == 'U') return 1;
    if (o->uplo == 'U' ? i > l : i < l) return 0;
    return cj ? conj(get(c, o->a, i, l)) : get(c, o->a, i, l);
}

static void host_trmm(const g3d_call *c, const g3d_op *o)
{
    int left = o->side == 'L', len = left ? o->m : o->n, lines = left ? o->n : o->m;
    cx *t = malloc((size_t)(len ? len : 1) * sizeof *t), alpha = CMPLX(o->alpha, o->alpha_im);
    if (!t) abort();
    for (int q = 0; q < lines; q++) {  /* a column (left) or a row (right) of B */
        for (int i = 0; i < len; i++) {
            cx s = 0;
            for (int l = 0; l < len; l++)
                s += left ? tri_elem(c, o, i, l) * get(c, o->c, l, q) : get(c, o->c, q, l) * tri_elem(c, o, l, i);
            t[i] = alpha * s;
        }
        for (int i = 0; i < len; i++) {
            if (left) put(c, o->c, i, q, t[i]);
            else put(c, o->c, q, i, t[i]);
        }
    }
    free(t);
}

/* Substitution on each column (left) or row (right) of B, as reference
 * BLAS orders it: op(A) x = alpha b, or x op(A) = alpha b. */
static void host_trsm(const g3d_call *c, const g3d_op *o)
{
    int left = o->side == 'L', len = left ? o->m : o->n, lines = left ? o->n : o->m;
    int upper = (o->uplo == 'U') == (o->trans == 'N');  /* op(A) upper */
    /* left: op(A) upper solves from the last row; right: from the first column */
    int down = left != upper;
    cx *t = malloc((size_t)(len ? len : 1) * sizeof *t), alpha = CMPLX(o->alpha, o->alpha_im);
    if (!t) abort();
    for (int q = 0; q < lines; q++) {
        for (int s = 0; s < len; s++) {
            int i = down ? s : len - 1 - s;
            cx v = alpha * (left ? get(c, o->c, i, q) : get(c, o->c, q, i));
            for (int r = 0; r < s; r++) {
                int l = down ? r : len - 1 - r;
                v -= (left ? tri_elem(c, o, i, l) : tri_elem(c, o, l, i)) * t[l];
            }
            t[i] = v / tri_elem(c, o, i, i);
        }
        for (int i = 0; i < len; i++) {
            if (left) put(c, o->c, i, q, t[i]);
            else put(c, o->c, q, i, t[i]);
        }
    }
    free(t);
}

static void host_op(const g3d_call *c, const g3d_op *o)
{
    if (o->routine == G3D_TRMM) {
        host_trmm(c, o);
        return;
    }
    if (o->routine == G3D_TRSM) {
        host_trsm(c, o);
        return;
    }
    int tri = o->routine == G3D_SYRK || o->routine == G3D_SYR2K, m = tri ? o->n : o->m;
    /* HERK/HER2K: op(A)^H where SYRK has op(A)^T; HER2K's second term takes conj(alpha) */
    cx alpha = CMPLX(o->alpha, o->alpha_im), beta = CMPLX(o->beta, o->beta_im);
    cx alpha2 = c->herm ? conj(alpha) : alpha;
    for (int j = 0; j < o->n; j++)
        for (int i = tri && o->uplo == 'L' ? j : 0; i < (tri && o->uplo == 'U' ? j + 1 : m); i++) {
            cx s = 0, s2 = 0;
            switch (o->routine) {
            case G3D_GEMM:
                for (int l = 0; l < o->k; l++)
                    s += op_elem(c, o->a, o->trans, i, l) * op_elem(c, o->b, o->transb, l, j);
                break;
            case G3D_SYMM:
                if (o->side == 'L')
                    for (int l = 0; l < o->m; l++) s += sym_elem(c, o, i, l) * get(c, o->b, l, j);
                else
                    for (int l = 0; l < o->n; l++) s += get(c, o->b, i, l) * sym_elem(c, o, l, j);
                break;
            case G3D_SYRK: /* op(A)(i, l) op(A)(j, l), conjugated for HERK */
                for (int l = 0; l < o->k; l++) {
                    cx y = op_elem(c, o->a, o->trans, j, l);
                    s += op_elem(c, o->a, o->trans, i, l) * (c->herm ? conj(y) : y);
                }
                break;
            default: /* SYR2K */
                for (int l = 0; l < o->k; l++) {
                    cx yb = op_elem(c, o->b, o->trans, j, l), ya = op_elem(c, o->a, o->trans, j, l);
                    s += op_elem(c, o->a, o->trans, i, l) * (c->herm ? conj(yb) : yb);
                    s2 += op_elem(c, o->b, o->trans, i, l) * (c->herm ? conj(ya) : ya);
                }
                break;
            }
            cx old = beta == 0 ? 0 : get(c, o->c, i, j);
            if (c->herm && tri && i == j) old = creal(old);
            cx v = alpha * s + alpha2 * s2 + (beta == 0 ? 0 : beta * old);
            put(c, o->c, i, j, c->herm && tri && i == j ? creal(v) : v);
        }
}

void g3d_host_run(const g3d_call *c, const g3d_plan *pl, int first)
{
    for (int p = first; p < pl->npanels; p++) {
        g3d_panel pn;
        g3d_plan_panel(c, pl, p, &pn);
        for (int i = 0; i < pn.nops; i++)
            host_op(c, &pn.op[i]);
    }
}

void g3d_host_scale(const g3d_call *c)
{
    int tri = c->routine == G3D_SYRK || c->routine == G3D_SYR2K;
    cx beta = c->routine == G3D_TRMM || c->routine == G3D_TRSM ? 0 : CMPLX(c->beta, c->beta_im);
    g3d_at at = { 'C', 0, 0 };
    for (int j = 0; j < c->n; j++) {
        int i0 = tri && c->uplo == 'L' ? j : 0, i1 = tri ? (c->uplo == 'U' ? j + 1 : c->n) : c->m;
        for (int i = i0; i < i1; i++) {
            cx old = beta == 0 ? 0 : get(c, at, i, j);
            if (c->herm && tri && i == j) /* HERK, HER2K: the diagonal is real */
                old = creal(old);
            put(c, at, i, j, scaled(c, beta, old));
        }
    }
}

/* The host side of the drop-ins that needs no device: C <- beta*C for
 * alpha = 0 (done exactly as reference BLAS does it, so the result is
 * bit-identical), and the last resort when no OpenCL device can run a call:
 * plain loops over the same panels and sub-calls the device would have run,
 * summing in double.  Slow (no blocking, no vectors) but always right. */
#include <stdlib.h>
#include "dropin.h"

static double get(const g3d_call *c, g3d_at at, int i, int j)
{
    const void *p = at.mat == 'A' ? c->a : at.mat == 'B' ? c->b : c->c;
    int ld = at.mat == 'A' ? c->lda : at.mat == 'B' ? c->ldb : c->ldc;
    size_t k = (size_t)(at.r + i) + (size_t)(at.c + j) * (size_t)ld;
    return c->dbl ? ((const double *)p)[k] : ((const float *)p)[k];
}

static void put(const g3d_call *c, g3d_at at, int i, int j, double v)
{
    size_t k = (size_t)(at.r + i) + (size_t)(at.c + j) * (size_t)c->ldc;
    if (c->dbl) ((double *)c->c)[k] = v;
    else ((float *)c->c)[k] = (float)v;
}

/* beta*C as reference BLAS computes it, in the routine's precision. */
static double scaled(const g3d_call *c, double beta, double old)
{
    if (beta == 0) return 0;
    return c->dbl ? beta * old : (double)((float)beta * (float)old);
}

static double op_elem(const g3d_call *c, g3d_at at, char trans, int i, int l)
{
    return trans == 'N' ? get(c, at, i, l) : get(c, at, l, i);
}

static double sym_elem(const g3d_call *c, const g3d_op *o, int i, int l)
{
    int stored = o->uplo == 'U' ? i <= l : i >= l;
    return stored ? get(c, o->a, i, l) : get(c, o->a, l, i);
}

static double tri_elem(const g3d_call *c, const g3d_op *o, int i, int l)
{
    if (o->trans != 'N') { int t = i; i = l; l = t; }
    if (i == l && o->diag == 'U') return 1;
    if (o->uplo == 'U' ? i > l : i < l) return 0;
    return get(c, o->a, i, l);
}

static void host_trmm(const g3d_call *c, const g3d_op *o)
{
    int left = o->side == 'L', len = left ? o->m : o->n, lines = left ? o->n : o->m;
    double *t = malloc((size_t)(len ? len : 1) * sizeof *t);
    if (!t) abort();
    for (int q = 0; q < lines; q++) {  /* a column (left) or a row (right) of B */
        for (int i = 0; i < len; i++) {
            double s = 0;
            for (int l = 0; l < len; l++)
                s += left ? tri_elem(c, o, i, l) * get(c, o->c, l, q) : get(c, o->c, q, l) * tri_elem(c, o, l, i);
            t[i] = o->alpha * s;
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
    double *t = malloc((size_t)(len ? len : 1) * sizeof *t);
    if (!t) abort();
    for (int q = 0; q < lines; q++) {
        for (int s = 0; s < len; s++) {
            int i = down ? s : len - 1 - s;
            double v = o->alpha * (left ? get(c, o->c, i, q) : get(c, o->c, q, i));
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
    for (int j = 0; j < o->n; j++)
        for (int i = tri && o->uplo == 'L' ? j : 0; i < (tri && o->uplo == 'U' ? j + 1 : m); i++) {
            double s = 0;
            switch (o->routine) {
            case G3D_GEMM:
                for (int l = 0; l < o->k; l++)
                    s += op_elem(c, o->a, o->trans, i, l) * op_elem(c, o->b, o->transb == 'N' ? 'T' : 'N', j, l);
                break;
            case G3D_SYMM:
                if (o->side == 'L')
                    for (int l = 0; l < o->m; l++) s += sym_elem(c, o, i, l) * get(c, o->b, l, j);
                else
                    for (int l = 0; l < o->n; l++) s += get(c, o->b, i, l) * sym_elem(c, o, l, j);
                break;
            case G3D_SYRK:
                for (int l = 0; l < o->k; l++)
                    s += op_elem(c, o->a, o->trans, i, l) * op_elem(c, o->a, o->trans, j, l);
                break;
            default: /* SYR2K */
                for (int l = 0; l < o->k; l++)
                    s += op_elem(c, o->a, o->trans, i, l) * op_elem(c, o->b, o->trans, j, l) +
                         op_elem(c, o->b, o->trans, i, l) * op_elem(c, o->a, o->trans, j, l);
                break;
            }
            double old = o->beta == 0 ? 0 : get(c, o->c, i, j);
            put(c, o->c, i, j, o->alpha * s + (o->beta == 0 ? 0 : o->beta * old));
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
    double beta = c->routine == G3D_TRMM || c->routine == G3D_TRSM ? 0 : c->beta;
    g3d_at at = { 'C', 0, 0 };
    for (int j = 0; j < c->n; j++) {
        int i0 = tri && c->uplo == 'L' ? j : 0, i1 = tri ? (c->uplo == 'U' ? j + 1 : c->n) : c->m;
        for (int i = i0; i < i1; i++)
            put(c, at, i, j, scaled(c, beta, beta == 0 ? 0 : get(c, at, i, j)));
    }
}

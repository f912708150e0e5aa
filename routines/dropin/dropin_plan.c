/* SPDX-License-Identifier: BSD-3-Clause */
/* How a host call is cut for streaming: the output is split into panels
 * of columns (or rows) of about GPUBLAS3_PANEL_KB each (32 MiB by default), so that while the
 * device computes one panel the next is sent and the last is brought back.
 * One operand is sent whole first (the "shared" one, A mostly); the other
 * is sent with each panel.
 *
 * Panels are at least GPUBLAS3_PANEL_KB (32 MiB by default) and at most
 * MAX_BULK of them cover the call, so big calls get big panels: every panel
 * is one more sub-call (GEMM's, SYMM's and TRMM's read the shared operand
 * packed once, dropin_device.c; SYRK's, SYR2K's and TRSM's pack what they
 * use of it again).  The last panel's share is cut in halves (1/2, 1/4, 1/8, the
 * rest), so that little computing and fetching is left once the last data
 * has arrived.  Each panel is one or a few sub-calls: *
 *   GEMM   C(:,J) = op(A) op(B)(:,J), or by row blocks C(I,:) when M > N
 *   SYMM   C(:,J) = A B(:,J) (side L),  C(I,:) = B(I,:) A (side R)
 *   TRMM   B(:,J) = op(A) B(:,J) (L),   B(I,:) = B(I,:) op(A) (R)
 *   TRSM   B(:,J) = op(A)^-1 B(:,J) (L), B(I,:) = B(I,:) op(A)^-1 (R)
 *   SYRK   C(:,J) on the stored triangle: a SYRK of the diagonal block
 *          and a GEMM of the block above (upper) or below (lower) it;
 *          SYR2K likewise, with two GEMMs.
 * Complex calls the same, with conjugate transposes where HERK and HER2K
 * have them and conj(alpha) in HER2K's second GEMM. */
#include "dropin.h"

enum { MAX_BULK = 8, MIN_WIDTH = 16 };

void g3d_stored(const g3d_call *c, char mat, int *rows, int *cols)
{
    int r = c->m, k = c->n;  /* the output: m x n */
    if (mat != 'C') {
        switch (c->routine) {
        case G3D_GEMM:
            if (mat == 'A') { r = c->m; k = c->k; if (c->trans != 'N') { r = c->k; k = c->m; } }
            else { r = c->k; k = c->n; if (c->transb != 'N') { r = c->n; k = c->k; } }
            break;
        case G3D_SYMM:
        case G3D_TRMM:
        case G3D_TRSM:
            if (mat == 'A') r = k = c->side == 'L' ? c->m : c->n;
            break;
        case G3D_SYRK:
        case G3D_SYR2K:
            r = c->n; k = c->k;
            if (c->trans != 'N') { r = c->k; k = c->n; }
            break;
        }
    } else if (c->routine == G3D_SYRK || c->routine == G3D_SYR2K) {
        r = k = c->n;
    }
    *rows = r;
    *cols = k;
}

void g3d_plan_make(const g3d_call *c, size_t panel_bytes, g3d_plan *pl)
{
    size_t es = g3d_elem_size(c), per = 0;
    int extent = 0;
    *pl = (g3d_plan){ .shared = { 'A', 0 } };
    pl->reads_c = c->routine == G3D_TRMM || c->routine == G3D_TRSM || c->beta != 0 || c->beta_im != 0;
    switch (c->routine) {
    case G3D_GEMM:
        if (c->n >= c->m) {
            pl->xmat = 'B';
            per = (size_t)(c->k + c->m) * es;
            extent = c->n;
        } else {  /* tall: stream A by row blocks, keep B */
            pl->by_rows = 1;
            pl->shared[0] = 'B';
            pl->xmat = 'A';
            per = (size_t)(c->k + c->n) * es;
            extent = c->m;
        }
        break;
    case G3D_SYMM:
    case G3D_TRMM:
    case G3D_TRSM:
        pl->by_rows = c->side == 'R';
        pl->xmat = c->routine == G3D_SYMM ? 'B' : 0;
        per = (size_t)(pl->by_rows ? c->n : c->m) * es * (c->routine == G3D_SYMM ? 2 : 1);
        extent = pl->by_rows ? c->m : c->n;
        break;
    case G3D_SYRK:
    case G3D_SYR2K:
        pl->shared[1] = c->routine == G3D_SYR2K ? 'B' : 0;
        per = (size_t)c->n * es;
        extent = c->n;
        break;
    }
    size_t total = per * (size_t)extent, bytes = total / MAX_BULK > panel_bytes ? total / MAX_BULK : panel_bytes;
    size_t w = per ? bytes / per : (size_t)extent;
    if (w >= 128)
        w -= w % 64;
    if (w < MIN_WIDTH)
        w = MIN_WIDTH;
    if (w >= (size_t)extent || (size_t)extent <= w + w / 2)
        w = (size_t)extent;
    pl->extent = extent;
    pl->width = (int)w;
    pl->nbulk = (int)(((size_t)extent + w - 1) / w) - 1;
    int last = extent - pl->nbulk * pl->width;
    while (pl->nbulk >= 2 && pl->ntail < 3 && last >> (pl->ntail + 1) >= MIN_WIDTH)
        pl->ntail++;
    pl->npanels = pl->nbulk + pl->ntail + 1;
}

void g3d_plan_span(const g3d_plan *pl, int p, int *lo, int *hi)
{
    if (p < pl->nbulk) {
        *lo = p * pl->width;
        *hi = *lo + pl->width;
        return;
    }
    int last = pl->extent - pl->nbulk * pl->width, t = p - pl->nbulk;
    *lo = pl->nbulk * pl->width;
    for (int i = 0; i < t; i++)
        *lo += last >> (i + 1);
    *hi = t < pl->ntail ? *lo + (last >> (t + 1)) : pl->extent;
}

/* Row r of op(X) for SYRK's and SYR2K's A and B (n x k after op). */
static g3d_at op_row(const g3d_call *c, char mat, int r)
{
    return c->trans == 'N' ? (g3d_at){ mat, r, 0 } : (g3d_at){ mat, 0, r };
}

static void triangle_panel(const g3d_call *c, int lo, int hi, g3d_panel *out)
{
    int upper = c->uplo == 'U', w = hi - lo;
    int r0 = upper ? 0 : hi, r1 = upper ? lo : c->n;  /* the block off the diagonal */
    out->y = upper ? (g3d_region){ 0, hi, lo, hi } : (g3d_region){ lo, c->n, lo, hi };
    g3d_op d = { c->routine, 0, c->uplo, c->trans, 0, 0, 0, w, c->k, c->alpha, c->beta,
                 op_row(c, 'A', lo), op_row(c, 'B', lo), { 'C', lo, lo }, c->alpha_im, c->beta_im };
    out->op[out->nops++] = d;
    if (r1 > r0) {
        /* the block off the diagonal: op(A) op(B)^T, or ^H for HERK, HER2K */
        char tb = c->trans == 'N' ? (c->herm ? 'C' : 'T') : 'N';
        g3d_op g = { G3D_GEMM, 0, 0, c->trans, tb, 0, r1 - r0, w, c->k, c->alpha, c->beta,
                     op_row(c, 'A', r0), op_row(c, c->routine == G3D_SYR2K ? 'B' : 'A', lo),
                     { 'C', r0, lo }, c->alpha_im, c->beta_im };
        out->op[out->nops++] = g;
        if (c->routine == G3D_SYR2K) {
            g.a = op_row(c, 'B', r0);
            g.b = op_row(c, 'A', lo);
            g.beta = 1;
            g.beta_im = 0;
            if (c->herm)
                g.alpha_im = -g.alpha_im;
            out->op[out->nops++] = g;
        }
    }
}

void g3d_plan_panel(const g3d_call *c, const g3d_plan *pl, int p, g3d_panel *out)
{
    int lo, hi;
    g3d_plan_span(pl, p, &lo, &hi);
    int w = hi - lo;
    *out = (g3d_panel){ .nops = 0 };
    if (c->routine == G3D_SYRK || c->routine == G3D_SYR2K) {
        triangle_panel(c, lo, hi, out);
        return;
    }
    g3d_op op = { c->routine, c->side, c->uplo, c->trans, c->transb, c->diag, c->m, c->n, c->k,
                  c->alpha, c->beta, { 'A', 0, 0 }, { 'B', 0, 0 }, { 'C', 0, 0 }, c->alpha_im, c->beta_im };
    if (pl->by_rows) {
        op.m = w;
        op.c = (g3d_at){ 'C', lo, 0 };
        out->y = (g3d_region){ lo, hi, 0, c->n };
    } else {
        op.n = w;
        op.c = (g3d_at){ 'C', 0, lo };
        out->y = (g3d_region){ 0, c->m, lo, hi };
    }
    if (c->routine == G3D_GEMM && pl->by_rows) {
        out->x = c->trans == 'N' ? (g3d_region){ lo, hi, 0, c->k } : (g3d_region){ 0, c->k, lo, hi };
        op.a = c->trans == 'N' ? (g3d_at){ 'A', lo, 0 } : (g3d_at){ 'A', 0, lo };
    } else if (c->routine == G3D_GEMM) {
        out->x = c->transb == 'N' ? (g3d_region){ 0, c->k, lo, hi } : (g3d_region){ lo, hi, 0, c->k };
        op.b = c->transb == 'N' ? (g3d_at){ 'B', 0, lo } : (g3d_at){ 'B', lo, 0 };
    } else if (c->routine == G3D_SYMM) {
        out->x = out->y;
        op.b = (g3d_at){ 'B', out->y.r0, out->y.c0 };
    }
    out->op[out->nops++] = op;
}

void g3d_kept_rows(const g3d_call *c, const g3d_region *y, int j, int *r0, int *r1)
{
    *r0 = y->r0;
    *r1 = y->r1;
    if (c->routine != G3D_SYRK && c->routine != G3D_SYR2K)
        return;
    if (c->uplo == 'U' && *r1 > j + 1)
        *r1 = j + 1;
    if (c->uplo == 'L' && *r0 < j)
        *r0 = j;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* The host drop-ins' common path: reference BLAS's argument checks (the
 * order and the positions of DGEMM, DSYMM, DSYRK, DSYR2K, DTRMM, DTRSM, and of
 * their complex twins with ZHEMM, ZHERK, ZHER2K), its quick
 * returns, alpha = 0 done on the host exactly as reference BLAS does it,
 * then the way the call goes: to the host BLAS when it is too small to pay
 * for the trip (crossover.c), else to the device, falling back device by
 * device, then to the host BLAS, and at last to plain host loops, so that
 * a call always ends with the right answer.  This file is the top of the
 * drop-ins: it calls the files below it (cpu_blas.c, crossover.c,
 * dropin_device.c, dropin_host.c, dropin_plan.c, host.c, host_rate.c),
 * none calls it. */
#include <ctype.h>
#include <stdio.h>
#include "dropin.h"
#include "host.h"

static int is(char x, char want) { return toupper((unsigned char)x) == want; }
static int max1(int x) { return x > 1 ? x : 1; }
static int trans_ok(char t) { return is(t, 'N') || is(t, 'T') || is(t, 'C'); }
/* SYRK's and SYR2K's TRANS: any for real types, N or T complex symmetric, N or C Hermitian. */
static int rank_trans_ok(const g3d_call *c, char t)
{
    if (!c->cplx) return trans_ok(t);
    return is(t, 'N') || is(t, c->herm ? 'C' : 'T');
}
/* Real types read C as T; complex ones keep the conjugate transpose. */
static char trans_norm(const g3d_call *c, char t)
{
    return is(t, 'N') ? 'N' : c->cplx && is(t, 'C') ? 'C' : 'T';
}

int g3d_check(g3d_call *c)
{
    int info = 0;
    switch (c->routine) {
    case G3D_GEMM: {
        int nrowa = is(c->trans, 'N') ? c->m : c->k, nrowb = is(c->transb, 'N') ? c->k : c->n;
        if (!trans_ok(c->trans)) info = 1;
        else if (!trans_ok(c->transb)) info = 2;
        else if (c->m < 0) info = 3;
        else if (c->n < 0) info = 4;
        else if (c->k < 0) info = 5;
        else if (c->lda < max1(nrowa)) info = 8;
        else if (c->ldb < max1(nrowb)) info = 10;
        else if (c->ldc < max1(c->m)) info = 13;
        c->trans = trans_norm(c, c->trans);
        c->transb = trans_norm(c, c->transb);
        break;
    }
    case G3D_SYMM: {
        int nrowa = is(c->side, 'L') ? c->m : c->n;
        if (!is(c->side, 'L') && !is(c->side, 'R')) info = 1;
        else if (!is(c->uplo, 'U') && !is(c->uplo, 'L')) info = 2;
        else if (c->m < 0) info = 3;
        else if (c->n < 0) info = 4;
        else if (c->lda < max1(nrowa)) info = 7;
        else if (c->ldb < max1(c->m)) info = 9;
        else if (c->ldc < max1(c->m)) info = 12;
        break;
    }
    case G3D_SYRK:
    case G3D_SYR2K: {
        int nrowa = is(c->trans, 'N') ? c->n : c->k, two = c->routine == G3D_SYR2K;
        if (!is(c->uplo, 'U') && !is(c->uplo, 'L')) info = 1;
        else if (!rank_trans_ok(c, c->trans)) info = 2;
        else if (c->n < 0) info = 3;
        else if (c->k < 0) info = 4;
        else if (c->lda < max1(nrowa)) info = 7;
        else if (two && c->ldb < max1(nrowa)) info = 9;
        else if (c->ldc < max1(c->n)) info = two ? 12 : 10;
        c->trans = trans_norm(c, c->trans);
        break;
    }
    case G3D_TRMM:
    case G3D_TRSM: {
        int nrowa = is(c->side, 'L') ? c->m : c->n;
        if (!is(c->side, 'L') && !is(c->side, 'R')) info = 1;
        else if (!is(c->uplo, 'U') && !is(c->uplo, 'L')) info = 2;
        else if (!trans_ok(c->trans)) info = 3;
        else if (!is(c->diag, 'U') && !is(c->diag, 'N')) info = 4;
        else if (c->m < 0) info = 5;
        else if (c->n < 0) info = 6;
        else if (c->lda < max1(nrowa)) info = 9;
        else if (c->ldc < max1(c->m)) info = 11;
        c->trans = trans_norm(c, c->trans);
        break;
    }
    }
    c->side = (char)toupper((unsigned char)c->side);
    c->uplo = (char)toupper((unsigned char)c->uplo);
    c->diag = (char)toupper((unsigned char)c->diag);
    return info;
}

const char *g3d_name(const g3d_call *c)
{
    static const char *const names[4][6] = {
        { "SGEMM ", "SSYMM ", "SSYRK ", "SSYR2K", "STRMM ", "STRSM " },
        { "DGEMM ", "DSYMM ", "DSYRK ", "DSYR2K", "DTRMM ", "DTRSM " },
        { "CGEMM ", "CSYMM ", "CSYRK ", "CSYR2K", "CTRMM ", "CTRSM " },
        { "ZGEMM ", "ZSYMM ", "ZSYRK ", "ZSYR2K", "ZTRMM ", "ZTRSM " } };
    static const char *const herm[2][6] = { { "", "CHEMM ", "CHERK ", "CHER2K", "", "" },
                                            { "", "ZHEMM ", "ZHERK ", "ZHER2K", "", "" } };
    if (c->herm)
        return herm[c->dbl != 0][c->routine];
    return names[(c->dbl != 0) + 2 * (c->cplx != 0)][c->routine];
}

/* Nothing to do at all, as reference BLAS decides it. */
static int alpha_zero(const g3d_call *c) { return c->alpha == 0 && c->alpha_im == 0; }

static int quick_return(const g3d_call *c)
{
    int no_product = alpha_zero(c) || c->k == 0, beta_one = c->beta == 1 && c->beta_im == 0;
    switch (c->routine) {
    case G3D_GEMM: return c->m == 0 || c->n == 0 || (no_product && beta_one);
    case G3D_SYMM: return c->m == 0 || c->n == 0 || (alpha_zero(c) && beta_one);
    case G3D_SYRK:
    case G3D_SYR2K: return c->n == 0 || (no_product && beta_one);
    case G3D_TRMM:
    case G3D_TRSM: return c->m == 0 || c->n == 0;
    }
    return 1;
}

/* Only C <- beta*C (TRMM, TRSM: B <- 0) is left: no operand is read. */
static int scale_only(const g3d_call *c)
{
    if (c->routine == G3D_SYMM || c->routine == G3D_TRMM || c->routine == G3D_TRSM)
        return alpha_zero(c);
    return alpha_zero(c) || c->k == 0;
}

/* The device, device by device; 0 when the call could not be finished
 * there (panels before *first are done). */
static int on_devices(const g3d_call *c, const char *name, int *first, const g3d_plan *pl)
{
    unsigned skip = 0;
    for (;;) {
        struct g3h_slot *s = g3h_acquire(c->dbl, skip, name);
        if (!s)
            return 0;
        int err = g3d_device_run(s, c, pl, first, name);
        if (err == 0) {
            g3h_release(s);
            return 1;
        }
        skip |= g3h_failed(s, c->dbl, name, err);
    }
}

/* The host BLAS (a small call, or no device left); 0 when there is none. */
static int on_host_blas(const g3d_call *c, const char *name, const char *why)
{
    if (!g3b_have(c))
        return 0;
    if (g3h_verbose())
        fprintf(stderr, "gpublas3: %s m=%d n=%d k=%d on the host BLAS %s: %s\n", name, c->m, c->n, c->k,
                g3b_name(), why);
    g3r_run(c);  /* timed: what the host does teaches the model its rate */
    return 1;
}

/* The device; 1 when it finished the call, else panels before *first are
 * done.  `timed`: what it took teaches the crossover's device correction. */
static int device_try(const g3d_call *c, const char *name, const g3d_plan *pl, int *first, int timed)
{
    *first = 0;
    double t0 = g3h_seconds();
    if (!on_devices(c, name, first, pl))
        return 0;
    if (timed)
        g3x_device_took(c, g3h_seconds() - t0);
    return 1;
}

/* No device left: the host BLAS can only take the call whole, so only if
 * no panel has changed C yet; else the host loops from panel `first`. */
static void device_rest(const g3d_call *c, const char *name, const g3d_plan *pl, int first)
{
    if (first == 0 && on_host_blas(c, name, "no device can run it"))
        return;
    g3h_note_host_fallback(name);
    g3d_host_run(c, pl, first);
}

void g3d_run(const g3d_call *c)
{
    if (quick_return(c))
        return;
    if (scale_only(c)) {
        g3d_host_scale(c);
        return;
    }
    char name[7], why[640];
    int len = 0;
    for (const char *s = g3d_name(c); *s && *s != ' '; s++)
        name[len++] = *s;
    name[len] = 0;
    int modelled = g3b_have(c);
    if (modelled) {
        double t[2];
        if (!g3x_to_device(c, t, why, sizeof why)) {
            on_host_blas(c, name, why);
            return;
        }
        if (g3h_verbose())
            fprintf(stderr, "gpublas3: %s m=%d n=%d k=%d to the device: %s\n", name, c->m, c->n, c->k, why);
    } else if (g3h_verbose()) {
        fprintf(stderr, "gpublas3: %s m=%d n=%d k=%d to the device: no host BLAS\n", name, c->m, c->n, c->k);
    }
    g3d_plan pl;
    g3d_plan_make(c, g3h_panel_bytes(), &pl);
    int first;
    if (!device_try(c, name, &pl, &first, modelled))
        device_rest(c, name, &pl, first);
}

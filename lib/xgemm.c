/* The GEMM driver every routine ends in: plans scratch panels that fit the
 * device, enqueues the copy kernel for each operand panel and the GEMM
 * kernel for each block of C, all chained by events.
 *
 * Normally the whole problem is one panel: each operand is packed once and
 * one GEMM launch per term covers C.  When the packed operands (and TRMM's
 * snapshot of its output) would not fit (GPUBLAS3_SCRATCH_LIMIT, half the
 * device memory, the largest single allocation, or what the device actually
 * gives), K, M and N are halved, largest first, until they do; later K
 * panels accumulate with beta = 1.  Scratch comes from lib/pool.c. */
#include <limits.h>
#include <stdlib.h>
#include "core.h"

typedef struct {
    const g3_device *d;
    const g3_gemm_plan *p;
    const g3_params *pr;
    size_t es;
} job;

/* Two operands pack to the same buffer when they read the same stored data
 * the same way (SYRK's A and A^T, SYR2K's pairs). */
static int same_source(const g3_operand *a, int atr, const g3_operand *b, int btr)
{
    return a->buf == b->buf && a->off == b->off && a->ld == b->ld && a->shape == b->shape &&
           a->unit == b->unit && atr == btr;
}

/* Bytes of scratch for panels of mb x nb x kb, and whether each buffer fits
 * one allocation and int indexing. */
static int panels_fit(const job *j, size_t mb, size_t nb, size_t kb, size_t budget)
{
    size_t mp = g3_roundup(mb, j->pr->mwg), np = g3_roundup(nb, j->pr->nwg), kp = g3_roundup(kb, j->pr->kwg);
    size_t big = mp > np ? mp : np;
    if (kp && big > (size_t)INT_MAX / kp)
        return 0;
    if (kp * big * j->es > j->d->max_alloc)
        return 0;
    return j->p->nterms * kp * (mp + np) * j->es <= budget;
}

static size_t halve(size_t x, size_t tile) { return g3_roundup((x + 1) / 2, tile); }

/* bxb: the block width of B' (NWG, or MWG when B' is A') */
static gpublas3Status launch_gemm(const job *j, double beta, cl_mem A, cl_mem B, cl_int bxb,
                                  size_t m0, size_t n0, size_t k0, size_t ml, size_t nl, size_t kp,
                                  g3_chain *chain)
{
    const g3_params *pr = j->pr;
    cl_kernel k;
    gpublas3Status st = g3_kernel(j->d, g3_src_gemm, "gemm", j->d->gemm_defines[j->p->dbl], &k);
    if (st != gpublas3Success)
        return st;
    size_t mp = g3_roundup(ml, pr->mwg), np = g3_roundup(nl, pr->nwg);
    cl_int M = (cl_int)ml, N = (cl_int)nl, K = (cl_int)kp;
    cl_long offc = (cl_long)(j->p->offc + m0 + n0 * j->p->ldc), ldc = (cl_long)j->p->ldc;
    cl_int tri = j->p->tri, tri_off = (cl_int)n0 - (cl_int)m0, band = j->p->band;
    cl_int band_off = (band <= 2 ? (cl_int)m0 : (cl_int)n0) - (cl_int)k0;
    double alpha = kp ? j->p->alpha : 0;
    cl_float fa = (cl_float)alpha, fb = (cl_float)beta;
    cl_double da = alpha, db = beta;
    g3_arg args[] = { G3_ARG(M), G3_ARG(N), G3_ARG(K),
        j->p->dbl ? G3_ARG(da) : G3_ARG(fa), j->p->dbl ? G3_ARG(db) : G3_ARG(fb),
        G3_ARG(A), G3_ARG(B), G3_ARG(j->p->c), G3_ARG(offc), G3_ARG(ldc),
        G3_ARG(tri), G3_ARG(tri_off), G3_ARG(band), G3_ARG(band_off), G3_ARG(bxb) };
    /* one work-item per MDIMC unit, or one warp of 32 for the tensor-core path */
    size_t wx = pr->mdimc * (pr->mma ? 32 : 1), gm = mp / pr->mwg, gn = np / pr->nwg;
    size_t global[2] = { (pr->nfirst ? gn : gm) * wx, (pr->nfirst ? gm : gn) * pr->ndimc };
    size_t local[2] = { wx, pr->ndimc };
    return g3_launch(chain, k, sizeof args / sizeof args[0], args, global, local);
}

/* Does block [m0, m0+ml) x [n0, n0+nl) of C hold any element of the stored triangle? */
static int touches_triangle(int tri, size_t m0, size_t n0, size_t ml, size_t nl)
{
    if (tri == 1) return m0 <= n0 + nl - 1;
    if (tri == 2) return m0 + ml - 1 >= n0;
    return 1;
}

static gpublas3Status run_panels(const job *j, size_t mb, size_t nb, size_t kb, cl_mem abuf[2],
                                 cl_mem bbuf[2], const int bshare[2], g3_chain *chain)
{
    const g3_gemm_plan *p = j->p;
    const int scale_only = p->K == 0 || p->alpha == 0;
    const size_t K = scale_only ? 0 : p->K;
    gpublas3Status st = gpublas3Success;
    for (size_t k0 = 0; k0 == 0 || k0 < K; k0 += kb) {
        size_t kl = K - k0 < kb ? K - k0 : kb, kp = g3_roundup(kl, j->pr->kwg);
        double beta = k0 == 0 ? p->beta : 1.0;
        for (size_t m0 = 0; m0 < p->M; m0 += mb) {
            size_t ml = p->M - m0 < mb ? p->M - m0 : mb, mp = g3_roundup(ml, j->pr->mwg);
            for (int t = 0; t < p->nterms && kl && st == gpublas3Success; t++)
                st = g3_pack(j->d, p->dbl, &p->a[t], 0, m0, k0, ml, kl, abuf[t], j->pr->mwg, mp, kp,
                             p->band == 1 || p->band == 2 ? p->band : 0, (long)m0 - (long)k0, chain);
            for (size_t n0 = 0; n0 < p->N && st == gpublas3Success; n0 += nb) {
                size_t nl = p->N - n0 < nb ? p->N - n0 : nb, np = g3_roundup(nl, j->pr->nwg);
                if (!touches_triangle(p->tri, m0, n0, ml, nl))
                    continue;
                if (nb < p->N || m0 == 0)
                    for (int t = 0; t < p->nterms && kl && st == gpublas3Success; t++)
                        if (bshare[t] < 0)
                            st = g3_pack(j->d, p->dbl, &p->b[t], 1, n0, k0, nl, kl, bbuf[t], j->pr->nwg, np, kp,
                                         p->band >= 3 ? p->band - 2 : 0, (long)n0 - (long)k0, chain);
                for (int t = 0; t < p->nterms && st == gpublas3Success; t++) {
                    cl_mem A = kl ? abuf[t] : p->c;
                    cl_mem B = kl ? (bshare[t] >= 0 ? abuf[bshare[t]] : bbuf[t]) : p->c;
                    cl_int bxb = kl && bshare[t] >= 0 ? j->pr->mwg : j->pr->nwg;
                    st = launch_gemm(j, t == 0 ? beta : 1.0, A, B, bxb, m0, n0, k0, ml, nl, kp, chain);
                }
            }
            if (st != gpublas3Success)
                return st;
        }
        if (K == 0)
            break;
    }
    return st;
}

/* Copies C (M x N) to the tight scratch matrix snap with the copy kernel
 * and points the operand that reads C at it. */
static gpublas3Status snapshot_output(const job *j, g3_gemm_plan *q, cl_mem snap, g3_chain *chain)
{
    g3_operand c = { q->c, q->offc, q->ldc, 0, G3_GENERAL, 0 };
    g3_operand *o = q->snapshot == 1 ? &q->a[0] : &q->b[0];
    *o = (g3_operand){ snap, 0, q->M, 0, G3_GENERAL, 0 };
    return g3_pack(j->d, q->dbl, &c, 0, 0, 0, q->M, q->N, snap, q->M, q->M, q->N, 0, 0, chain);
}

/* TRMM's snapshot of its output is taken by slabs that match the panels:
 * column slabs of nb when B is the right operand (side Left: output column
 * n needs only column n of B), row slabs of mb when it is the left one.
 * With one panel there is none: both packs are enqueued before the one
 * launch that writes C, so the pack of the output is the snapshot. */
static size_t snapshot_bytes(const job *j, size_t mb, size_t nb, size_t kb)
{
    const g3_gemm_plan *p = j->p;
    if (!p->snapshot || p->K == 0 || p->alpha == 0)
        return 0;
    if (mb >= p->M && nb >= p->N && kb >= p->K)
        return 0;
    return (p->snapshot == 1 ? mb * p->N : p->M * nb) * j->es;
}

/* Do panels of mb x nb x kb, with the snapshot slab, fit the budget and
 * the largest allocation? */
static int plan_fits(const job *j, size_t mb, size_t nb, size_t kb, size_t budget)
{
    size_t snap = snapshot_bytes(j, mb, nb, kb);
    if (snap > j->d->max_alloc || snap > budget)
        return 0;
    return !kb || panels_fit(j, mb, nb, kb, budget - snap);
}

/* Halves the largest panel dimension; 0 when all are one tile already. */
static int shrink(const job *j, size_t *mb, size_t *nb, size_t *kb)
{
    const g3_params *pr = j->pr;
    if (*kb <= (size_t)pr->kwg && *mb <= (size_t)pr->mwg && *nb <= (size_t)pr->nwg)
        return 0;
    if (*kb >= *mb && *kb >= *nb && *kb > (size_t)pr->kwg) *kb = halve(*kb, pr->kwg);
    else if (*mb >= *nb && *mb > (size_t)pr->mwg) *mb = halve(*mb, pr->mwg);
    else if (*nb > (size_t)pr->nwg) *nb = halve(*nb, pr->nwg);
    else *kb = halve(*kb, pr->kwg);
    return 1;
}

/* Scratch of one panel plan, in the order abuf[0], bbuf[0], abuf[1],
 * bbuf[1], snapshot; bshare[t] >= 0 when B' of term t is A' of that term. */
static void scratch_sizes(const job *j, size_t mb, size_t nb, size_t kb, int bshare[2],
                          size_t bytes[G3_SCRATCH_MAX])
{
    const g3_gemm_plan *p = j->p;
    size_t mp = g3_roundup(mb, j->pr->mwg), np = g3_roundup(nb, j->pr->nwg), kp = g3_roundup(kb, j->pr->kwg);
    /* B' can be A' when both are cut into the same column blocks, or when
     * the kernel reads B' directly (no SB) in A's blocks of MWG, which
     * hold whole blocks of NWG */
    const g3_params *pr = j->pr;
    int blocks_fit = pr->mwg == pr->nwg || (!pr->sb && pr->mwg % pr->nwg == 0);
    int single = mb == p->M && nb == p->N && p->M == p->N && blocks_fit;
    bshare[0] = bshare[1] = -1;
    for (int t = 0; t < p->nterms && kb; t++)
        for (int u = 0; u < p->nterms && single; u++)
            if (bshare[t] < 0 && same_source(&p->b[t], !p->b[t].trans, &p->a[u], p->a[u].trans))
                bshare[t] = u;
    for (int t = 0; t < 2; t++) {
        bytes[2 * t] = t < p->nterms && kb ? kp * mp * j->es : 0;
        bytes[2 * t + 1] = t < p->nterms && kb && bshare[t] < 0 ? kp * np * j->es : 0;
    }
    bytes[4] = snapshot_bytes(j, mb, nb, kb);
}

/* Runs the panels; with a snapshot, slab by slab, each slab's part of C
 * copied to scratch just before the launches that overwrite it. */
static gpublas3Status run_slabs(const job *j, size_t mb, size_t nb, size_t kb, cl_mem s[G3_SCRATCH_MAX],
                                const int bshare[2], g3_chain *chain)
{
    const g3_gemm_plan *p = j->p;
    cl_mem abuf[2] = { s[0], s[2] }, bbuf[2] = { s[1], s[3] };
    if (!s[4])
        return run_panels(j, mb, nb, kb, abuf, bbuf, bshare, chain);
    int rows = p->snapshot == 1;
    size_t whole = rows ? p->M : p->N, step = rows ? mb : nb;
    gpublas3Status st = gpublas3Success;
    for (size_t x0 = 0; x0 < whole && st == gpublas3Success; x0 += step) {
        size_t len = whole - x0 < step ? whole - x0 : step;
        g3_gemm_plan slab = *p;
        if (rows) {
            slab.M = len;
            slab.offc += x0;
        } else {
            slab.N = len;
            slab.offc += x0 * p->ldc;
        }
        job js = *j;
        js.p = &slab;
        st = snapshot_output(&js, &slab, s[4], chain);
        if (st == gpublas3Success)
            st = run_panels(&js, mb, nb, kb, abuf, bbuf, bshare, chain);
    }
    return st;
}

gpublas3Status g3_gemm_enqueue(const g3_gemm_plan *plan, g3_chain *chain)
{
    g3_gemm_plan copy = *plan;
    const g3_gemm_plan *p = &copy;
    job j = { .p = p, .es = p->dbl ? 8 : 4 };
    gpublas3Status st = g3_device_of(chain->q, &j.d);
    if (st != gpublas3Success)
        return st;
    if (p->dbl && !j.d->has_fp64)
        return gpublas3InvalidDevice;
    if (p->M == 0 || p->N == 0 || ((p->K == 0 || p->alpha == 0) && p->beta == 1))
        return gpublas3Success;
    j.pr = &j.d->params[p->dbl];

    /* Panel sizes: whole when it fits, else halve the largest dimension. */
    const int scale_only = p->K == 0 || p->alpha == 0;
    size_t budget = g3_scratch_limit(j.d), limit = (size_t)1 << 30;
    size_t mb = p->M < limit ? p->M : limit, nb = p->N < limit ? p->N : limit;
    size_t kb = scale_only ? 0 : p->K;
    while ((kb || p->snapshot) && !plan_fits(&j, mb, nb, kb, budget))
        if (!shrink(&j, &mb, &nb, &kb))
            return gpublas3OutOfResources;

    /* All scratch is secured (and resident) before anything is enqueued
     * that writes C: when the device cannot give it, smaller panels are
     * tried, and if even one tile cannot be had, C is left untouched. */
    cl_mem scratch[G3_SCRATCH_MAX];
    size_t bytes[G3_SCRATCH_MAX];
    int bshare[2];
    for (;;) {
        scratch_sizes(&j, mb, nb, kb, bshare, bytes);
        st = g3_scratch_acquire(j.d, chain, G3_SCRATCH_MAX, bytes, scratch);
        if (st != gpublas3OutOfResources)
            break;
        if (!shrink(&j, &mb, &nb, &kb))
            return st;
    }
    if (st != gpublas3Success)
        return st;
    st = run_slabs(&j, mb, nb, kb, scratch, bshare, chain);
    g3_scratch_release(j.d, chain, G3_SCRATCH_MAX, scratch);
    return st;
}

gpublas3Status g3_run(const g3_gemm_plan *p, cl_command_queue q, cl_uint nwait,
                      const cl_event *wait, cl_event *events)
{
    g3_chain chain;
    g3_chain_init(&chain, q, nwait, wait);
    gpublas3Status st = g3_gemm_enqueue(p, &chain);
    if (st != gpublas3Success) {
        g3_chain_abandon(&chain);
        return st;
    }
    return g3_chain_finish(&chain, events);
}

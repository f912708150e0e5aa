/* SPDX-License-Identifier: BSD-3-Clause */
/* The plan of a call: which path runs it and with which parameter set,
 * decided from its shape (M, N, K) and routine before anything is
 * enqueued.  Shape classes (lib/params.h) each have their own tuned set:
 *   skinny: one output dimension at most the skinny set's skinny_max
 *           (default 128) and the other large, so the large set's tiles
 *           would leave most of the device idle (the H100's rows: 64; its
 *           128-wide outputs ran 1.1-1.3x faster on the large set, split
 *           in 2 to 4, docs/performance.md); where the device has a
 *           medium class and its set's tile is no wider than the narrow
 *           side (no tile rows wasted), the medium set instead (the H100's
 *           64-wide outputs ran 1.06-1.8x faster on it, its 32-wide ones
 *           1.25-1.5x slower: docs/performance.md);
 *   deepk:  a small output (sides at most 512) with a deep K; sides over
 *           the deepk set's deepk_max go to the small class (docs/performance.md,
 *           Split-K).  Where the device has a medium class (only the
 *           H100's rows), the set with the largest tiles of which the
 *           output has at least G3_DEEP_TILES instead, in the order large,
 *           medium, small, else the deepk set: split-K's 64 slices then
 *           still make 256 work-groups, about two per SM, each with the
 *           most reuse per staged element (the H100's sweep of 16-64
 *           slices: 256^2 and 512^2 S outputs 1.3x faster on the large
 *           set, D 128^2 1.7x on the medium set, docs/performance.md,
 *           Split-K);
 *   medium: the rest of the outputs that the large set's tiles would
 *           leave under the medium set's medium_wgs work-groups per
 *           compute unit, to the nearest whole (a last round nearly full
 *           counts as full), while the medium set's own tiles give every
 *           compute unit one or more, K not deep (under 4x the smaller
 *           output side: deeper, the large set's split-K fills the device,
 *           as for deepk; the larger side, as deepk measures, left the
 *           H100's 128-wide outputs on the medium set, S 16384x128x4096
 *           588 us against 473 on the large set split in 2, docs/performance.md):
 *           between the calls
 *           launches dominate and those that fill the device with large
 *           tiles (the H100's rows: S 1536^2 is 144 tiles of 128^2 for
 *           132 SMs, 1.09 each, and ran 1.15x faster on 576 of 64^2; S
 *           2048^2 is 256, 1.94 each, and stays large; docs/performance.md).
 *           medium_wgs 0, the default: no medium class,
 *           such calls are small or large as below;
 *   small:  every dimension at most 1024;
 *   medium: also, where the device has a medium class, the large class's
 *           calls with K at most the medium set's medium_k: a blocked
 *           factorization's shallow updates, whose 128^2 tiles each run a
 *           few k-tiles between two long fixed costs (the H100's S row:
 *           128; S 4096^2 and 8192^2 with K = 64 and 128 1.02-1.08x
 *           faster on the medium set, pooled over three calls, each
 *           call's difference within the calls' spread; K = 256 level;
 *           docs/performance.md);
 *   large:  the rest.
 * The path, for calls that scale C (K = 0 or alpha = 0) too:
 *   direct:  calls of at most direct_max^3 multiply-adds per term (the
 *            set's field), where one launch with no copies and no scratch
 *            costs less than packing, and calls that ask for it (`direct`:
 *            TRSM's products, routines/plan/solve.c) (TRMM only when the
 *            direct kernel can write B in place: routines/plan/direct.c);
 *   split-K: calls where splitk_wgs work-groups per compute unit make
 *            two or more per output tile and whose K gives each slice
 *            splitk_k or more
 *            (routines/plan/splitk.c);
 *   packed:  the rest.
 * Complex calls take the packed path (split-K too, on the real view's
 * counts), but for GEMMs (g3_complex_direct)
 * of at most direct_max^3 real multiply-adds (four a complex one) or under
 * GPUBLAS3_PLAN=direct, which run on the direct kernel's complex mode (H200,
 * C and Z from 2^3 to 64^3: 17-26 us against 37-53 packed; PoCL, 2^3 to
 * 24^3: geomean 0.89x the packed time, 2^3 and 4^3 0.6-0.9x); calls of a
 * series that packs its shared operand once (g3_reuse, plan.h) take the
 * packed path with the set its first call chose, whose layout the packed
 * copy has.
 * GPUBLAS3_PLAN=packed|direct|splitk forces a path where it can run,
 * GPUBLAS3_SHAPE=large|small|skinny|deepk|medium the class of every call (a
 * series keeps its first call's), GPUBLAS3_SPLITS=n split-K with n slices
 * where K has that many k-tiles, else fewer (read with the device state,
 * lib/device.c).  GPUBLAS3_VERBOSE=1 prints each call's plan on stderr,
 * with what was forced.
 * The packed and split-K paths read in place, unpacked, the operands that
 * already have the GEMM kernel's layout (routines/plan/packed.c); on CPUs
 * a call whose op(A) has k contiguous and is the long side runs as its
 * transpose (transposed_wins below). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plan.h"

/* Deep K on a device with a medium class: the fewest tiles a set must
 * give the output (64 slices of 4 tiles: 256 work-groups). */
#define G3_DEEP_TILES 4

static int shape_class(const g3_device *d, const g3_call *c)
{
    const g3_kset *sets = d->sets[c->dbl];
    size_t lo = c->M < c->N ? c->M : c->N, hi = c->M < c->N ? c->N : c->M;
    const g3_params *m = &sets[G3_SHAPE_MEDIUM].p;
    if (lo <= (size_t)sets[G3_SHAPE_SKINNY].p.skinny_max && hi >= 1024)
        return m->medium_wgs > 0 && (size_t)(lo == c->M ? m->mwg : m->nwg) <= lo ? G3_SHAPE_MEDIUM
                                                                                   : G3_SHAPE_SKINNY;
    if (hi <= 512 && c->K >= 4 * hi && c->K >= 2048) {
        if (m->medium_wgs > 0) {
            static const int widest[] = { G3_SHAPE_LARGE, G3_SHAPE_MEDIUM, G3_SHAPE_SMALL };
            for (int i = 0; i < 3; i++)
                if (g3_tiles(&sets[widest[i]].p, c) >= G3_DEEP_TILES)
                    return widest[i];
            return G3_SHAPE_DEEPK;
        }
        return hi <= (size_t)sets[G3_SHAPE_DEEPK].p.deepk_max ? G3_SHAPE_DEEPK : G3_SHAPE_SMALL;
    }
    if (m->medium_wgs > 0 && c->K < 4 * lo &&
        2 * g3_tiles(&sets[G3_SHAPE_LARGE].p, c) < (2 * (size_t)m->medium_wgs - 1) * d->compute_units &&
        g3_tiles(m, c) >= d->compute_units)
        return G3_SHAPE_MEDIUM;
    if (hi <= 1024 && c->K <= 1024)
        return G3_SHAPE_SMALL;
    if (m->medium_wgs > 0 && c->K <= (size_t)m->medium_k)
        return G3_SHAPE_MEDIUM;
    return G3_SHAPE_LARGE;
}

/* Small enough for the direct kernel: at most direct_max^3 multiply-adds
 * per term (the set's field; lib/device.c has the defaults and why). */
int g3_direct_wanted(const g3_call *c, const g3_kset *ks)
{
    double edge = ks->p.direct_max;
    return (double)c->M * c->N * c->K * c->nterms <= edge * edge * edge;
}

int g3_complex_direct(const g3_call *c)
{
    const g3_operand *a = &c->a[0], *b = &c->b[0];
    return c->cplx == G3_CPLX && c->nterms == 1 && !c->tri && !c->band && !c->snapshot && !c->reuse &&
           a->shape == G3_GENERAL && b->shape == G3_GENERAL && !a->scaled && !b->scaled;
}

void g3_plan_choose(const g3_device *d, const g3_call *c, g3_plan *out)
{
    const g3_reuse *r = c->reuse && c->reuse->ks && c->reuse->d == d ? c->reuse : NULL;
    int shape = r ? r->shape : d->shape_force >= 0 ? d->shape_force : shape_class(d, c);
    const g3_kset *ks = r ? r->ks : &d->sets[c->dbl][shape];
    *out = (g3_plan){ .path = G3_PATH_PACKED, .shape = shape, .ks = ks, .splits = 1,
                      .inplace = g3_packed_inplace(c, ks, 1) };
    const int force = d->plan_force;
    if (force == G3_PATH_PACKED || c->reuse)
        return;
    /* complex calls (complex.c's real view) are packed, where the copy
     * kernels make their real layout (g3_enqueue picks the direct
     * kernel's complex mode) */
    if (!c->cplx && (force == G3_PATH_DIRECT || (force < 0 && (c->direct || g3_direct_wanted(c, ks)))) &&
        g3_direct_fits(c, ks)) {
        out->path = G3_PATH_DIRECT;
        out->inplace = 0; /* (the direct kernel reads every operand in place anyway) */
        return;
    }
    if (force == G3_PATH_DIRECT)
        return;
    int splits = g3_splitk_slices(d, c, ks, d->splits_force, &out->kslice);
    if (splits > 1) {
        out->path = G3_PATH_SPLITK;
        out->splits = splits;
        /* split-K's products write partial sums, and C only the reduction
         * after them: an output that is also an operand (TRMM's B) needs
         * no snapshot, and is read in place where its layout allows it;
         * two terms stay two (packed.c) */
        g3_call read = *c;
        read.snapshot = 0;
        out->inplace = g3_packed_inplace(&read, ks, splits);
    }
}

/* On CPUs (the copy_direct sets) an op(A) with k contiguous (A^T) is
 * packed through the copy kernel's transposing path, while the GEMM
 * kernel reads a B with k contiguous in place (each work-item one stream
 * along k).  The call's transpose, C^T = op(B)^T op(A)^T, reads that A so
 * and packs op(B) instead; it computes into tight scratch T (N x M), and
 * a last launch stores C <- T^T + beta*C.  It runs so where that packs
 * under half the elements (counting T twice, written and read back),
 * saves at least G3_TRANSPOSED_MIN and multiplies no more padding (the
 * short side is whole tiles of the transpose's MWG): the skinny TN and
 * TT products with the long side on A.  PoCL 3.1, 2 vCPUs of an Intel
 * Xeon (AVX-512), 2026-12-07: S 4096x64x4096 TN 0.46 -> 1.39x OpenBLAS,
 * D 0.43 -> 1.02x (docs/performance.md, PoCL). */
#define G3_TRANSPOSED_MIN ((size_t)1 << 18)

static g3_call transposed_call(const g3_call *c)
{
    g3_call s = *c;
    s.M = c->N;
    s.N = c->M;
    s.a[0] = c->b[0];
    s.a[0].trans = !c->b[0].trans;
    s.b[0] = c->a[0];
    s.b[0].trans = !c->a[0].trans;
    s.c = NULL;
    s.offc = 0;
    s.ldc = c->N;
    s.beta = 0;
    return s;
}

/* Elements a packed plan copies (operands not read in place). */
static size_t packed_elems(const g3_call *c, int inplace)
{
    return (inplace & G3_INPLACE_A ? 0 : c->M * c->K) + (inplace & G3_INPLACE_B ? 0 : c->N * c->K);
}

static int transposed_wins(const g3_device *d, const g3_call *c, const g3_plan *p, g3_call *s, g3_plan *ps)
{
    const g3_operand *a = &c->a[0], *b = &c->b[0];
    if (!p->ks->p.copy_direct || p->path != G3_PATH_PACKED || c->nterms != 1 || c->cplx || c->tri || c->band ||
        c->snapshot || c->reuse || c->direct || c->K == 0 || c->alpha == 0 || a->shape != G3_GENERAL ||
        b->shape != G3_GENERAL || a->scaled || b->scaled || !a->trans || p->inplace & G3_INPLACE_A)
        return 0;
    const size_t before = packed_elems(c, p->inplace), tmoves = 2 * c->M * c->N;
    if (4 * tmoves > before || before - tmoves < G3_TRANSPOSED_MIN)
        return 0;
    *s = transposed_call(c);
    g3_plan_choose(d, s, ps);
    const size_t after = packed_elems(s, ps->inplace) + tmoves;
    const g3_params *pc = &p->ks->p, *pt = &ps->ks->p;
    return ps->path == G3_PATH_PACKED && (ps->inplace & (G3_INPLACE_B | G3_INPLACE_KB)) ==
           (G3_INPLACE_B | G3_INPLACE_KB) && 2 * after <= before && before - after >= G3_TRANSPOSED_MIN &&
           g3_tiles(pt, s) * pt->mwg * pt->nwg <= g3_tiles(pc, c) * pc->mwg * pc->nwg;
}

void g3_plan_describe(const g3_device *d, const g3_call *c, const g3_plan *p, char *buf, size_t n)
{
    static const char *const paths[] = { "packed", "direct", "split-k" };
    const g3_params *pr = &p->ks->p;
    int used = snprintf(buf, n, "%cgemm-like M=%zu N=%zu K=%zu terms=%d tri=%d band=%d: %s, %s set (%s, %s) ",
                        "sdcz"[c->dbl + 2 * !!c->cplx], c->M, c->N, c->K, c->nterms, c->tri, c->band, paths[p->path],
                        g3_shape_names[p->shape], pr->table, pr->match);
    if (used >= 0 && (size_t)used < n) {
        if (p->path == G3_PATH_DIRECT)
            used += snprintf(buf + used, n - used, "work-group %dx%d, %dx%d per work-item%s", pr->direct_dm,
                             pr->direct_dn, pr->direct_wm, pr->direct_wn,
                             c->cplx && pr->direct_kb > 1 ? ", k staged" : "");
        else
            used += snprintf(buf + used, n - used, "mwg=%d nwg=%d kwg=%d, splits=%d of k=%zu%s", pr->mwg, pr->nwg,
                             pr->kwg, p->splits, p->path == G3_PATH_SPLITK ? p->kslice : c->K,
                             g3_gemm_prefetches_c(pr, c->beta, p->splits, c->K) ? ", C prefetched" : "");
    }
    /* the operands read in place (packed.c): "A B", or "A0 B0 A1 B1" for
     * two terms; "(k)" after those read with k contiguous, "(c)" after a
     * complex A read as its 2x2 form */
    char list[40] = "", name[4];
    for (int t = 0; t < c->nterms; t++)
        for (int side = 0; side < 2; side++)
            if (p->inplace & (side ? G3_INPLACE_B : G3_INPLACE_A) << t) {
                snprintf(name, sizeof name, "%c%c", "AB"[side], c->nterms > 1 ? '0' + t : 0);
                snprintf(list + strlen(list), sizeof list - strlen(list), " %s%s", name,
                         p->inplace & (side ? G3_INPLACE_KB : G3_INPLACE_KA) << t ? "(k)"
                         : !side && p->inplace & G3_INPLACE_CA << t          ? "(c)"
                                                                              : "");
            }
    if (p->square && used >= 0 && (size_t)used < n)
        used += snprintf(buf + used, n - used, ", as X + X^T, X term 0 over the square (the call below)");
    if (p->transposed && used >= 0 && (size_t)used < n)
        used += snprintf(buf + used, n - used, ", as C^T = op(B)^T op(A)^T");
    if (*list && used >= 0 && (size_t)used < n)
        used += snprintf(buf + used, n - used, ", in place:%s", list);
    if (p->path != G3_PATH_DIRECT && g3_packed_cat(c, p->ks, p->splits) && used >= 0 && (size_t)used < n)
        used += snprintf(buf + used, n - used, ", terms along k");
    /* how the launches' work-group ids map to tiles (packed.c) */
    if (used >= 0 && (size_t)used < n && p->path != G3_PATH_DIRECT) {
        if (g3_trimap(c, c->M, c->N, pr))
            used += snprintf(buf + used, n - used, "; ids on the triangle");
        else if (c->band)
            used += snprintf(buf + used, n - used, "; ids snake by %u", d->compute_units);
    }
    /* what GPUBLAS3_PLAN, _SPLITS and _SHAPE forced (lib/device.c) */
    if (used >= 0 && (size_t)used < n && d->plan_force >= 0)
        used += snprintf(buf + used, n - used, "; forced path=%s", paths[d->plan_force]);
    if (used >= 0 && (size_t)used < n && d->splits_force)
        used += snprintf(buf + used, n - used, " splits=%d", d->splits_force);
    if (used >= 0 && (size_t)used < n && d->shape_force >= 0)
        snprintf(buf + used, n - used, "%s shape=%s", d->plan_force >= 0 ? "" : "; forced",
                 g3_shape_names[d->shape_force]);
}

/* Read once, by whichever thread calls first (pthread_once: calls from
 * several threads must not race on it). */
static int verbose_on;
static pthread_once_t verbose_once = PTHREAD_ONCE_INIT;
static void read_verbose(void)
{
    const char *e = getenv("GPUBLAS3_VERBOSE");
    verbose_on = e && *e && *e != '0';
}

int g3_plan_verbose(void)
{
    pthread_once(&verbose_once, read_verbose);
    return verbose_on;
}

gpublas3Status g3_enqueue(const g3_call *call, g3_chain *chain)
{
    const g3_device *d;
    gpublas3Status st = g3_device_of(chain->q, &d);
    if (st != gpublas3Success)
        return st;
    if (call->dbl && !d->has_fp64)
        return gpublas3InvalidDevice;
    if (call->M == 0 || call->N == 0)
        return gpublas3Success;
    /* a complex call runs as the real call complex.c maps it to */
    g3_call real;
    const g3_call *c = call;
    if (call->cplx) {
        g3_complex_map(call, &real);
        c = &real;
    }
    if ((c->K == 0 || c->alpha == 0) && c->beta == 1 && c->beta_im == 0)
        return gpublas3Success;
    g3_plan p;
    g3_plan_choose(d, c, &p);
    /* a complex GEMM of at most direct_max^3 real multiply-adds (four a
     * complex one), or any under GPUBLAS3_PLAN=direct, on the direct
     * kernel's complex mode, the call as it is (with the direct set of the
     * real call's class): one launch instead of copies and a GEMM */
    if (g3_complex_direct(call) &&
        (d->plan_force == G3_PATH_DIRECT || (d->plan_force < 0 && g3_direct_wanted(c, p.ks)))) {
        p.path = G3_PATH_DIRECT;
        p.inplace = 0;
        c = call;
    }
    if (p.path != G3_PATH_DIRECT && c->cplx && p.ks->p.mwg % 2)
        return gpublas3NotImplemented; /* the mapping needs whole 2 x 2 blocks in a tile */
    g3_call s;
    g3_plan ps;
    p.square = g3_square_wins(d, call, &p);
    p.transposed = d->plan_force < 0 && d->shape_force < 0 && transposed_wins(d, c, &p, &s, &ps);
    if (g3_plan_verbose()) {
        char line[384];
        g3_plan_describe(d, c, &p, line, sizeof line);
        fprintf(stderr, "gpublas3: plan: %s\n", line);
        if (p.transposed) {
            g3_plan_describe(d, &s, &ps, line, sizeof line);
            fprintf(stderr, "gpublas3: plan:   transposed: %s\n", line);
        }
    }
    if (p.square) {
        st = g3_square_enqueue(d, call, &p, chain);
        if (st != gpublas3OutOfResources)
            return st; /* (else X or the GEMM's scratch could not be had, nothing was enqueued: the triangle) */
    }
    if (p.transposed)
        return g3_packed_transposed(d, c, &p, &s, &ps, chain);
    return p.path == G3_PATH_DIRECT ? g3_direct_enqueue(d, c, &p, chain) : g3_packed_enqueue(d, c, &p, chain);
}

gpublas3Status g3_run(const g3_call *c, cl_uint nq, cl_command_queue *qs, cl_uint nwait,
                      const cl_event *wait, cl_event *events)
{
    if (nq > 1) {
        g3_call whole = *c;
        whole.reuse = NULL; /* a series runs on one queue */
        return g3_split_run(&whole, nq, qs, nwait, wait, events);
    }
    g3_chain chain;
    g3_chain_init(&chain, qs[0], nwait, wait);
    chain.quiet = events == NULL;
    gpublas3Status st = g3_enqueue(c, &chain);
    if (st != gpublas3Success) {
        g3_chain_abandon(&chain);
        return st;
    }
    return g3_chain_finish(&chain, events);
}

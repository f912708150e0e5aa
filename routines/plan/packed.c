/* SPDX-License-Identifier: BSD-3-Clause */
/* The packed path: plans scratch panels that fit the device, enqueues the
 * copy kernel for each operand panel and the GEMM kernel for each block of
 * C, all chained by events, with the parameter set the plan chose.
 *
 * Normally the whole problem is one panel: each operand is packed once and
 * one GEMM launch per term covers C.  When the packed operands (and TRMM's
 * snapshot of its output) would not fit (GPUBLAS3_SCRATCH_LIMIT, half the
 * device memory, the largest single allocation, or what the device actually
 * gives), K, M and N are halved, largest first, until they do; later K
 * panels accumulate with beta = 1.  Scratch comes from lib/pool.c.
 * Split-K (routines/plan/splitk.c) runs here too, as one panel whose GEMM
 * launches write partial sums to scratch.
 * A call of a series (g3_call.reuse, plan.h) whose shared operand is one
 * panel packs it into scratch that the series keeps (the first call) or
 * reads the copy kept (the others).
 * An operand already laid out as the kernel reads it is not packed at all:
 * the GEMM launches read it in place (g3_packed_inplace below).
 * A call of two terms (SYR2K, HER2K) is one product of twice the depth:
 * A' holds both terms' A operands one after the other along k in each
 * block, B' both B operands, and one GEMM launch reads C once where two
 * would each read and write it (g3_packed_cat). */
#include <limits.h>
#include <stdlib.h>
#include "plan.h"

typedef struct {
    const g3_device *d;
    const g3_call *p;
    const g3_kset *ks;
    const g3_params *pr;
    size_t es;
    cl_mem part;        /* split-K: the partial sums (routines/plan/splitk.c), else NULL */
    int splits;
    size_t kslice;
    int prepacked;      /* 0: A' of term 0 is the series' kept copy, 1: B' is; -1: neither */
    int inplace;        /* operands read in place (g3_plan.inplace) */
    int cat;            /* the two terms concatenated along k (g3_packed_cat) */
} job;

/* SYR2K's and HER2K's two terms, [A0 A1] [B0; B1]: one launch over C's
 * triangle instead of two, each of which read and wrote it, for two more
 * packs (every operand packed: none read in place).  On GPUs, where a pack
 * costs little beside a launch, always: H200, 2026-12-07, us two launches
 * -> one, S SYR2K 4096x64 177-187 -> 133-137, 4096x256 339-342 -> 295-298,
 * D 4096x64 244-256 -> 159-169, 8192x64 705-706 -> 467-508, ZHER2K 1024
 * 531-533 -> 423-429 (docs/performance.md, Triangles and bands).
 * On CPUs (copy_direct sets) only up to G3_CAT_CPU_K, where C's traffic
 * weighs: PoCL, Intel Xeon (AVX-512), 2026-12-07, GFLOP/s two launches ->
 * one, D 4096x64 60-67 -> 82-95, D 2048x128 LT 96-100 -> 112-128, but S
 * 4096x256 242-243 -> 225-227 (its two GEMM launches 17.0 + 18.0 ms, the
 * one 35.2: the arithmetic bounds it, and two more packs cost 0.9 ms).
 * Not on the split-K path: its slices of the two terms fill the device
 * as two launches (H200, 2026-12-07: D SYR2K 1024, split, 115 us as two
 * launches, 125-127 as one of slices twice as deep). */
#define G3_CAT_CPU_K 128
int g3_packed_cat(const g3_call *c, const g3_kset *ks, int splits)
{
    return c->nterms == 2 && !c->band && !c->snapshot && !c->reuse && splits <= 1 &&
           (!ks->p.copy_direct || c->K <= G3_CAT_CPU_K);
}

/* An operand with k contiguous is read in place (by default) when at
 * most this many work-group tiles along the other side of C read it: its
 * staged loads (16 bytes per column) cost more than a pack where many
 * tiles repeat them.  H100 (docs/performance.md, In-place operands), k contiguous read
 * in place against not: 64x8192x8192 NN (B read by 2 tiles) 1.26-1.67x,
 * 128x8192x8192 TN (B by 1-2) 1.14-1.33x, 64x64x65536 NN (2) 1.26-1.36x,
 * 128x128x32768 TN (4) 1.01-1.04x; but 256x256x16384 NN (8) 0.86-0.90x,
 * 512^3 (16) level to 1.1x, and 1024^3 and larger outputs (32 to 256
 * tiles) 0.66-1.0x.  A set's kreuse says otherwise where its build reads
 * them at a cost of its own (the H100's D large set: 2, docs/performance.md). */
#define G3_INPLACE_REUSE 4

/* On CPUs (the copy_direct sets) an operand read in place along x (m of
 * A, n of B^T) walks K rows ld apart, and every work-group walks them
 * again: it is read in place only where those rows touch at most this
 * many pages of G3_PAGE bytes (K rows of up to a page each), else packed
 * into contiguous panels.  AMD EPYC, PoCL 3.1 AVX2, 2026-12-03, GFLOP/s,
 * in place against packed: S 2048^3 7.9 / 32.8, S 4096x64x4096 NN 6.0 /
 * 31.9, D 4096x128x2048 NT 4.5 / 15.0; at the line S 128^3 (16 pages)
 * 25-31 against 14-17 packed, and STRSM 4096x256 RLTN, whose updates of
 * K = 64 read 64 rows 16 KB apart, 15.0 in place against 10.5 packed
 * (docs/performance.md, In-place operands). */
#define G3_INPLACE_CPU_PAGES 64
#define G3_PAGE 4096.0

/* An operand's offset and ld whole vectors of vw elements, for aligned
 * vector loads, and a tile's kwg k-rows within int offsets. */
static int whole_vectors(size_t off, size_t ld, size_t vw, size_t kwg)
{
    return off % vw == 0 && ld % vw == 0 && ld / vw <= (size_t)INT_MAX / kwg;
}

/* A complex operand of the real call (complex.c) read in place: only op(A)
 * = A on the A side, general, whose 2x2 real form the kernel makes as it
 * stages A's tiles (kernels/gemm.cl, AIP 3), saving a pack that writes
 * twice A's bytes.  Its real view has k-rows 2 ld reals apart (two k-rows
 * of A' each).  Only with a set that stages A through registers: with
 * cp.async the kernel cannot turn values on the way, and a set that reads
 * A' in its inner loop (the CPU rows) would turn every value at every
 * multiply (PoCL, Xeon: C 64^3 x 256 at 89-102 against 167-178 GFLOP/s
 * packed).  Not for a triangle of C (SYRK, HERK, SYR2K, HER2K): H100,
 * CSYRK 1024 260-262 against 203-205 us packed, CHER2K 487-506 against
 * 384-404: with A so their split in 2 gains nothing.  CGEMM 1024 level
 * (254-269 either way), batches 1.1-1.3x faster, C 8192x64x8192 1.41x
 * (docs/performance.md, In-place operands).  General, whole tiles,
 * neither conjugated nor scaled: in_place has checked. */
static int complex_in_place(const g3_call *c, const g3_params *pr, const g3_operand *o, int bside)
{
    size_t vw = (size_t)pr->vwm;
    if (bside || c->tri || o->trans || !pr->sa || g3_params_ring(pr) || vw % 2 || pr->kwg % 2)
        return 0;
    return whole_vectors(2 * o->off, 2 * o->ld, vw, (size_t)pr->kwg) ? G3_INPLACE_A | G3_INPLACE_CA : 0;
}

/* How operand o (the B side: bside) of call c can be read in place by the
 * kernel with parameters pr: 0 not (packed), G3_INPLACE_A (1) with the
 * kernel's x index contiguous (m of op(A) = A, n of op(B) = B^T: the
 * column-block layout with k-rows ld apart), G3_INPLACE_A | G3_INPLACE_KA
 * (17) with k contiguous (op(A) = A^T, op(B) = B), which a set that
 * stages the operand through local memory reads (transposing it there),
 * and a set that does not stage B reads as one stream along k per column
 * of the work-item's (A: not, its vectors lie along m), only where at most
 * the set's kreuse, else G3_INPLACE_REUSE, tiles read it.  It must be
 * general (nothing to mirror, zero or conjugate; complex: complex_in_place),
 * with whole tiles along x and K (the kernel reads whole tiles and an
 * operand in place has no zero padding), its offset and ld whole vectors
 * (VWM, VWN along x; 16 bytes along k; whole_vectors), and with k
 * contiguous a tile's vectors shared evenly among the work-items
 * (kernels/gemm.cl). */
static int in_place(const g3_call *c, const g3_params *pr, const g3_operand *o, int bside)
{
    size_t x = bside ? c->N : c->M, xb = (size_t)(bside ? pr->nwg : pr->mwg), kwg = (size_t)pr->kwg;
    if (o->shape != G3_GENERAL || o->conj || o->scaled || x % xb || c->K % kwg)
        return 0;
    if (o->cplx)
        return complex_in_place(c, pr, o, bside);
    /* the tiles along the other side of C, each of which reads the operand */
    size_t reuse = bside ? (c->M + pr->mwg - 1) / pr->mwg : (c->N + pr->nwg - 1) / pr->nwg;
    size_t limit = pr->kreuse ? (size_t)pr->kreuse : G3_INPLACE_REUSE;
    int kmajor = reuse <= limit;
    if (!!o->trans == bside) {
        size_t vw = (size_t)(bside ? pr->vwn : pr->vwm);
        const double row = (double)o->ld * (c->dbl ? 8 : 4);
        if (pr->copy_direct && c->K * (row < G3_PAGE ? row : G3_PAGE) > G3_INPLACE_CPU_PAGES * G3_PAGE)
            return 0;
        return whole_vectors(o->off, o->ld, vw, kwg) ? G3_INPLACE_A : 0;
    }
    size_t vk = 16 / (c->dbl ? 8 : 4), nt = (size_t)pr->mdimc * pr->ndimc * (pr->mma ? 32 : 1);
    /* staged: the tile's vectors shared evenly by the work-items; B not
     * staged (the CPU rows): each work-item reads its own columns along k */
    int reads = (bside ? pr->sb : pr->sa) ? xb * kwg / vk % nt == 0 : bside;
    return kmajor && reads && kwg % vk == 0 && whole_vectors(o->off, o->ld, vk, 1) ? G3_INPLACE_A | G3_INPLACE_KA
                                                                                   : 0;
}

/* TRMM's output operand, on the left side (B, k contiguous), as its
 * snapshot (a plain copy of C, tight, ld M) holds it, where the set is a
 * CPU's (copy_direct): read in place from that copy rather than packed.
 * PoCL, S 256x4096 LLNU: the pack of B took 2.2-2.8 ms, the copy 0.2-0.4,
 * the band launch as fast either way (docs/performance.md, PoCL).  The
 * right side's operand (m contiguous) stays packed: S 4096x256 RLTN was
 * level so, D slower.  GPUs pack it, as measured there. */
static int snapshot_in_place(const g3_call *c, const g3_params *pr)
{
    if (!pr->copy_direct || c->snapshot != 2)
        return 0;
    g3_operand s = c->b[0];
    s.off = 0;
    s.ld = c->M;
    return in_place(c, pr, &s, 1) & G3_INPLACE_KA ? G3_INPLACE_A | G3_INPLACE_KA : 0;
}

int g3_packed_inplace(const g3_call *c, const g3_kset *ks, int splits)
{
    int mask = 0;
    if (c->K == 0 || c->alpha == 0 || g3_packed_cat(c, ks, splits))
        return 0;
    /* never TRMM's output itself (written by the launch that would read
     * it), only its snapshot, nor a series' shared operand (packed once
     * for all its calls) */
    const int prefetch = g3_gemm_prefetches_c(&ks->p, c->beta, 1, c->K);
    int copied = 0; /* an operand this call packs: a copy launch runs anyway */
    for (int t = 0; t < c->nterms; t++) {
        const g3_operand *a = &c->a[t], *b = &c->b[t];
        int ia = 0, ib = 0, sa = c->reuse && a->buf == c->reuse->src, sb = c->reuse && b->buf == c->reuse->src;
        if (!(t == 0 && c->snapshot == 1) && !sa)
            ia = in_place(c, &ks->p, a, 0);
        if (!sb)
            ib = t == 0 && c->snapshot == 2 ? snapshot_in_place(c, &ks->p) : in_place(c, &ks->p, b, 1);
        /* where the launch prefetches C, B' is packed along n: the H100's
         * D large set builds at 135 registers with it read so (one
         * work-group an SM, not two), and D 8192^2x256 NT ran 20.7-21.0
         * TFLOP/s against 27.3-27.4 with B' packed (docs/performance.md) */
        if (ib == G3_INPLACE_A && prefetch)
            ib = 0;
        mask |= ia << t | ib << 2 << t;
        copied |= (!ia && !sa) || (!ib && !sb);
    }
    /* and A' along m too where a copy launch runs anyway, for its bytes
     * alone: S updates ran 1-10 % faster so, D level (docs/performance.md, In-place operands) */
    for (int t = 0; prefetch && copied && t < c->nterms; t++)
        if ((mask >> t & (G3_INPLACE_A | G3_INPLACE_KA)) == G3_INPLACE_A)
            mask &= ~((G3_INPLACE_A | G3_INPLACE_CA) << t);
    return mask;
}

static int same_operand(const g3_operand *a, const g3_operand *b)
{
    return a->buf == b->buf && a->off == b->off && a->ld == b->ld && a->trans == b->trans && a->shape == b->shape &&
           a->unit == b->unit && a->cplx == b->cplx && a->conj == b->conj && a->scaled == b->scaled &&
           a->scale[0] == b->scale[0] && a->scale[1] == b->scale[1];
}

void g3_reuse_init(g3_reuse *r, cl_mem src)
{
    *r = (g3_reuse){ .src = src, .bside = -1 };
}

void g3_reuse_release(g3_reuse *r)
{
    if (r->buf) {
        g3_chain done = { .q = r->q, .last = r->last };
        g3_scratch_release(r->d, &done, 1, &r->buf);
    }
    if (r->last)
        clReleaseEvent(r->last);
    g3_reuse_init(r, r->src);
}

/* The side (0: a[0], 1: b[0]) of call p that is its series' shared
 * operand, packed whole by panels of mb x nb x kb; -1: none. */
static int reuse_side(const job *j, size_t mb, size_t nb, size_t kb)
{
    const g3_call *p = j->p;
    const g3_reuse *r = p->reuse;
    if (!r || p->nterms != 1 || !kb || kb < p->K || j->splits > 1)
        return -1;
    if (p->a[0].buf == r->src && mb >= p->M)
        return 0;
    if (p->b[0].buf == r->src && nb >= p->N)
        return 1;
    return -1;
}

/* Does the series' kept copy hold side `side` of call p, as this call
 * would pack it with set ks? */
static int reuse_holds(const g3_call *p, int side, const g3_kset *ks)
{
    const g3_reuse *r = p->reuse;
    return r->buf && r->bside == side && r->ks == ks && r->xlen == (side ? p->N : p->M) && r->klen == p->K &&
           same_operand(&r->op, side ? &p->b[0] : &p->a[0]);
}

/* After a call of the series: the first keeps its packed copy (taken out
 * of scratch[side]), every one records its last event. */
static void reuse_record(const job *j, int shape, int side, int fill, cl_mem scratch[], const g3_chain *chain)
{
    g3_reuse *r = j->p->reuse;
    if (fill) {
        r->buf = scratch[side];
        r->d = j->d;
        r->ks = j->ks;
        r->shape = shape;
        r->op = side ? j->p->b[0] : j->p->a[0];
        r->bside = side;
        r->xlen = side ? j->p->N : j->p->M;
        r->klen = j->p->K;
        r->packs++;
    } else {
        r->reads++;
    }
    scratch[side] = NULL;
    if (chain->last)
        clRetainEvent(chain->last);
    if (r->last)
        clReleaseEvent(r->last);
    r->last = chain->last;
    r->q = chain->q;
}

/* Two operands pack to the same buffer when they read the same stored data
 * the same way (SYRK's A and A^T, SYR2K's pairs). */
static int same_source(const g3_operand *a, int atr, const g3_operand *b, int btr)
{
    if (a->cplx || b->cplx) /* complex A' and B' have different forms (complex.c) */
        return 0;
    return a->buf == b->buf && a->off == b->off && a->ld == b->ld && a->shape == b->shape &&
           a->unit == b->unit && atr == btr;
}

/* Bytes of scratch for panels of mb x nb x kb, and whether each buffer fits
 * one allocation and int indexing. */
static int panels_fit(const job *j, size_t mb, size_t nb, size_t kb, size_t budget)
{
    size_t mp = g3_roundup(mb, j->pr->mwg), np = g3_roundup(nb, j->pr->nwg), kp = g3_roundup(kb, j->pr->kwg);
    size_t big = 0, all = 0;  /* the largest packed operand, and all of them (none in place) */
    if (j->cat) { /* one A' and one B' of both terms */
        big = mp > np ? mp : np;
        if (kp && big > (size_t)INT_MAX / (2 * kp))
            return 0;
        return 2 * kp * big * j->es <= j->d->max_alloc && 2 * kp * (mp + np) * j->es <= budget;
    }
    for (int t = 0; t < j->p->nterms; t++) {
        size_t a = j->inplace & G3_INPLACE_A << t ? 0 : mp, b = j->inplace & G3_INPLACE_B << t ? 0 : np;
        big = a > big ? a : big;
        big = b > big ? b : big;
        all += a + b;
    }
    if (kp && big > (size_t)INT_MAX / kp)
        return 0;
    if (kp * big * j->es > j->d->max_alloc)
        return 0;
    return kp * all * j->es <= budget;
}

void g3_inplace_at(const g3_operand *o, int bits, size_t x0, size_t k0, size_t *off, size_t *ld)
{
    if (bits & G3_INPLACE_CA) { /* a complex A's real view: k-row k of A' in column k / 2 */
        *off = 2 * o->off + x0 + k0 * o->ld;
        *ld = 2 * o->ld;
    } else {
        *off = o->off + (bits & G3_INPLACE_KA ? k0 + x0 * o->ld : x0 + k0 * o->ld);
        *ld = o->ld;
    }
}

static size_t halve(size_t x, size_t tile) { return g3_roundup((x + 1) / 2, tile); }

/* Term t's GEMM launch over the panel at m0, n0, k0: A and B packed (bxb:
 * the block width of B', NWG, or MWG when B' is A'), except operands read
 * in place, from their panel's first element. */
static gpublas3Status launch_gemm(const job *j, int t, double beta, cl_mem A, cl_mem B, int bxb,
                                  size_t m0, size_t n0, size_t k0, size_t ml, size_t nl, size_t kp,
                                  g3_chain *chain)
{
    const g3_call *p = j->p;
    /* complex: C's rows and B''s k count twice (complex.c) */
    int cs = p->cplx ? 1 : 0;
    g3_gemm_args a = { .M = ml, .N = nl, .K = kp, .alpha = kp ? p->alpha : 0, .beta = beta, .A = A, .B = B,
                       .bxb = bxb, .C = p->c, .offc = p->offc + m0 + n0 * p->ldc, .ldc = p->ldc,
                       .tri = p->tri, .tri_off = (int)n0 - (int)(m0 >> cs), .band = p->band,
                       .band_off = (p->band <= 2 ? (int)m0 : (int)n0 << cs) - (int)k0, .cplx = p->cplx };
    /* the ids of a square triangle's launch cover only its tiles, and a
     * band's rounds of ids alternate direction (kernels/gemm.cl:
     * round-robin placement then spreads the work evenly, docs/performance.md,
     * Triangles and bands) */
    if (!a.tri_off && g3_trimap(p, ml, nl, j->pr))
        a.trimap = p->tri;
    if (p->band)
        a.snake = (int)j->d->compute_units;
    const g3_operand *oa = &p->a[t], *ob = &p->b[t];
    if (kp && j->inplace & G3_INPLACE_A << t) {
        a.A = oa->buf;
        a.ak = !!(j->inplace & G3_INPLACE_KA << t);
        a.ac = !!(j->inplace & G3_INPLACE_CA << t);
        g3_inplace_at(oa, j->inplace >> t, m0, k0, &a.aoff, &a.ald);
    }
    if (kp && j->inplace & G3_INPLACE_B << t) {
        a.B = ob->buf;
        a.bk = !!(j->inplace & G3_INPLACE_KB << t);
        g3_inplace_at(ob, j->inplace >> t >> 2, n0, k0, &a.boff, &a.bld);
    }
    if (j->part) {
        /* one panel: slice s of every term sums into partial matrix s */
        a.C = j->part;
        a.offc = 0;
        a.ldc = p->M;
        a.alpha = 1;
        a.splits = j->splits;
        a.kslice = j->kslice;
        a.cslice = p->M * p->N;
    }
    return g3_gemm_launch(j->d, j->ks, p->dbl, &a, chain);
}

/* Does block [m0, m0+ml) x [n0, n0+nl) of C hold any element of the
 * stored triangle?  (complex: rows m / 2) */
static int touches_triangle(int tri, int cplx, size_t m0, size_t n0, size_t ml, size_t nl)
{
    int cs = cplx ? 1 : 0;
    if (tri == 1) return m0 >> cs <= n0 + nl - 1;
    if (tri == 2) return (m0 + ml - 1) >> cs >= n0;
    return 1;
}

/* The packs of a panel wait here until the GEMM launches that read them,
 * then go out two to a launch (copy/pack.cl's pack2: one command less
 * each time, 7-8 us on the H100, docs/performance.md), except with
 * the CPUs' copy kernel (copy_direct: on PoCL, where a command costs
 * little, the pair ran 8-25 % slower than two launches). */
typedef struct {
    g3_pack_job jobs[4];
    int n;
} pack_queue;

static gpublas3Status flush_packs(const job *j, pack_queue *q, g3_chain *chain)
{
    gpublas3Status st = gpublas3Success;
    for (int i = 0; i < q->n && st == gpublas3Success; i++) {
        if (i + 1 < q->n && !j->pr->copy_direct)
            st = g3_pack_pair(j->d, j->ks, &q->jobs[i], &q->jobs[i + 1], chain), i++;
        else
            st = g3_pack(j->d, j->ks, &q->jobs[i], chain);
    }
    q->n = 0;
    return st;
}

static gpublas3Status run_panels(const job *j, size_t mb, size_t nb, size_t kb, cl_mem abuf[2],
                                 cl_mem bbuf[2], const int bshare[2], g3_chain *chain)
{
    const g3_call *p = j->p;
    const int scale_only = p->K == 0 || p->alpha == 0;
    const size_t K = scale_only ? 0 : p->K;
    gpublas3Status st = gpublas3Success;
    pack_queue q = { .n = 0 };
    for (size_t k0 = 0; k0 == 0 || k0 < K; k0 += kb) {
        size_t kl = K - k0 < kb ? K - k0 : kb, kp = g3_roundup(kl, j->pr->kwg);
        double beta = k0 == 0 ? p->beta : 1.0;
        for (size_t m0 = 0; m0 < p->M; m0 += mb) {
            size_t ml = p->M - m0 < mb ? p->M - m0 : mb, mp = g3_roundup(ml, j->pr->mwg);
            for (int t = j->prepacked == 0; t < p->nterms && kl; t++)
                if (!(j->inplace & G3_INPLACE_A << t))
                    q.jobs[q.n++] = (g3_pack_job){ .o = &p->a[t], .x0 = m0, .k0 = k0, .xlen = ml, .klen = kl,
                        .P = abuf[j->cat ? 0 : t], .xb = j->pr->mwg, .xpad = mp, .kpad = kp,
                        .kblk = j->cat ? 2 * kp : 0, .kat = j->cat ? t * kp : 0,
                        .skip = p->band == 1 || p->band == 2 ? p->band : 0, .skip_off = (long)m0 - (long)k0 };
            for (size_t n0 = 0; n0 < p->N && st == gpublas3Success; n0 += nb) {
                size_t nl = p->N - n0 < nb ? p->N - n0 : nb, np = g3_roundup(nl, j->pr->nwg);
                if (!touches_triangle(p->tri, p->cplx, m0, n0, ml, nl))
                    continue;
                if (nb < p->N || m0 == 0)
                    for (int t = 0; t < p->nterms && kl; t++)
                        if (bshare[t] < 0 && !(t == 0 && j->prepacked == 1) && !(j->inplace & G3_INPLACE_B << t))
                            q.jobs[q.n++] = (g3_pack_job){ .o = &p->b[t], .bside = 1, .x0 = n0, .k0 = k0,
                                .xlen = nl, .klen = kl, .P = bbuf[j->cat ? 0 : t], .xb = j->pr->nwg, .xpad = np,
                                .kpad = kp, .kblk = j->cat ? 2 * kp : 0, .kat = j->cat ? t * kp : 0,
                                .skip = p->band >= 3 ? p->band - 2 : 0, .skip_off = (long)n0 - (long)k0 };
                st = flush_packs(j, &q, chain);
                if (j->cat && st == gpublas3Success) {
                    st = launch_gemm(j, 0, beta, kl ? abuf[0] : p->c, kl ? bbuf[0] : p->c,
                                     j->pr->nwg, m0, n0, k0, ml, nl, kl ? 2 * kp : 0, chain);
                    continue;
                }
                for (int t = 0; t < p->nterms && st == gpublas3Success; t++) {
                    cl_mem A = kl ? abuf[t] : p->c;
                    cl_mem B = kl ? (bshare[t] >= 0 ? abuf[bshare[t]] : bbuf[t]) : p->c;
                    int bxb = kl && bshare[t] >= 0 ? j->pr->mwg : j->pr->nwg;
                    double b0 = j->part ? 0 : beta;
                    st = launch_gemm(j, t, t == 0 ? b0 : 1.0, A, B, bxb, m0, n0, k0, ml, nl, kp, chain);
                }
            }
            if (st == gpublas3Success) /* (A' of a panel whose blocks of C were all skipped) */
                st = flush_packs(j, &q, chain);
            if (st != gpublas3Success)
                return st;
        }
        if (K == 0)
            break;
    }
    return st;
}

/* Copies C (M x N) to the tight scratch matrix snap and points the
 * operand that reads C at it. */
static gpublas3Status snapshot_output(const job *j, g3_call *q, cl_mem snap, g3_chain *chain)
{
    g3_operand *o = q->snapshot == 1 ? &q->a[0] : &q->b[0];
    /* (a complex operand keeps its form and scale; its ld counts complex elements) */
    o->buf = snap;
    o->off = 0;
    o->ld = o->cplx ? q->M / 2 : q->M;
    return g3_copy_tight(j->d, j->ks, q->c, q->offc, q->ldc, q->M, q->N, snap, chain);
}

/* TRMM's snapshot of its output is taken by slabs that match the panels:
 * column slabs of nb when B is the right operand (side Left: output column
 * n needs only column n of B), row slabs of mb when it is the left one.
 * With one panel there is none (both packs are enqueued before the one
 * launch that writes C, so the pack of the output is the snapshot) unless
 * the output operand is read in place from it (snapshot_in_place). */
static size_t snapshot_bytes(const job *j, size_t mb, size_t nb, size_t kb)
{
    const g3_call *p = j->p;
    if (!p->snapshot || p->K == 0 || p->alpha == 0 || j->splits > 1)
        return 0;
    const int read = j->inplace & (p->snapshot == 1 ? G3_INPLACE_A : G3_INPLACE_B);
    if (mb >= p->M && nb >= p->N && kb >= p->K && !read)
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

/* Halves the largest panel dimension still over one tile; 0 when all are
 * one tile already.  (Choosing among all three, as this once did, looped
 * for ever with MWG != NWG: with K within one tile and M over its tile
 * but under N, which was within its own, only K was "halved", up to its
 * tile again; seen on the H100 under a scratch cap, docs/performance.md.) */
static int shrink(const job *j, size_t *mb, size_t *nb, size_t *kb)
{
    const g3_params *pr = j->pr;
    const int k = *kb > (size_t)pr->kwg, m = *mb > (size_t)pr->mwg, n = *nb > (size_t)pr->nwg;
    if (!k && !m && !n)
        return 0;
    if (k && (!m || *kb >= *mb) && (!n || *kb >= *nb)) *kb = halve(*kb, pr->kwg);
    else if (m && (!n || *mb >= *nb)) *mb = halve(*mb, pr->mwg);
    else *nb = halve(*nb, pr->nwg);
    return 1;
}

/* Scratch of one panel plan, in the order abuf[0], bbuf[0], abuf[1],
 * bbuf[1], snapshot; bshare[t] >= 0 when B' of term t is A' of that term. */
static void scratch_sizes(const job *j, size_t mb, size_t nb, size_t kb, int bshare[2],
                          size_t bytes[G3_SCRATCH_MAX])
{
    const g3_call *p = j->p;
    size_t mp = g3_roundup(mb, j->pr->mwg), np = g3_roundup(nb, j->pr->nwg), kp = g3_roundup(kb, j->pr->kwg);
    /* B' can be A' when both are cut into the same column blocks, or when
     * the kernel reads B' directly (no SB) in A's blocks of MWG, which
     * hold whole blocks of NWG */
    const g3_params *pr = j->pr;
    int blocks_fit = pr->mwg == pr->nwg || (!pr->sb && pr->mwg % pr->nwg == 0);
    int single = mb == p->M && nb == p->N && p->M == p->N && blocks_fit;
    bshare[0] = bshare[1] = -1;
    if (j->cat) { /* A' and B' of both terms, twice as deep */
        bytes[0] = kb ? 2 * kp * mp * j->es : 0;
        bytes[1] = kb ? 2 * kp * np * j->es : 0;
        bytes[2] = bytes[3] = 0;
        bytes[4] = snapshot_bytes(j, mb, nb, kb);
        return;
    }
    /* (operands read in place have no scratch, and share none) */
    const int in = j->inplace;
    for (int t = 0; t < p->nterms && kb; t++)
        for (int u = 0; u < p->nterms && single; u++)
            if (bshare[t] < 0 && !(in & (G3_INPLACE_B << t | G3_INPLACE_A << u)) &&
                same_source(&p->b[t], !p->b[t].trans, &p->a[u], p->a[u].trans))
                bshare[t] = u;
    for (int t = 0; t < 2; t++) {
        bytes[2 * t] = t < p->nterms && kb && !(in & G3_INPLACE_A << t) ? kp * mp * j->es : 0;
        bytes[2 * t + 1] = t < p->nterms && kb && bshare[t] < 0 && !(in & G3_INPLACE_B << t) ? kp * np * j->es : 0;
    }
    bytes[4] = snapshot_bytes(j, mb, nb, kb);
}

/* Runs the panels; with a snapshot, slab by slab, each slab's part of C
 * copied to scratch just before the launches that overwrite it. */
static gpublas3Status run_slabs(const job *j, size_t mb, size_t nb, size_t kb, cl_mem s[G3_SCRATCH_MAX],
                                const int bshare[2], g3_chain *chain)
{
    const g3_call *p = j->p;
    cl_mem abuf[2] = { s[0], s[2] }, bbuf[2] = { s[1], s[3] };
    if (!s[4])
        return run_panels(j, mb, nb, kb, abuf, bbuf, bshare, chain);
    int rows = p->snapshot == 1;
    size_t whole = rows ? p->M : p->N, step = rows ? mb : nb;
    gpublas3Status st = gpublas3Success;
    for (size_t x0 = 0; x0 < whole && st == gpublas3Success; x0 += step) {
        size_t len = whole - x0 < step ? whole - x0 : step;
        g3_call slab = *p;
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

size_t g3_call_budget(const g3_device *d, const g3_call *c)
{
    const size_t limit = g3_scratch_limit(d);
    return limit > c->held ? limit - c->held : 0;
}

int g3_hold_fits(const g3_device *d, const g3_call *c, size_t bytes)
{
    return bytes <= g3_call_budget(d, c) / 2;
}

int g3_packed_whole_fits(const g3_device *d, const g3_call *c, const g3_kset *ks, int splits, size_t extra)
{
    job j = { .d = d, .p = c, .ks = ks, .pr = &ks->p, .es = c->dbl ? 8 : 4, .splits = splits,
              .inplace = g3_packed_inplace(c, ks, splits), .cat = g3_packed_cat(c, ks, splits) };
    size_t budget = g3_call_budget(d, c);
    return extra <= budget && plan_fits(&j, c->M, c->N, c->K, budget - extra);
}

/* CPUs: a skinny call's large operand packed in panels of at most this
 * many bytes, each multiplied while it is still in cache, rather than
 * whole in one pass over memory and read back from it.  Intel Xeon (2
 * vCPUs, AVX-512), 2026-12-07, three alternating rounds, GFLOP/s: S
 * 4096x64x4096 NN 152-164 -> 191-210, D 64-69 -> 90-95, D 64x4096x4096
 * NT 46-54 -> 80-83; calls packing nothing that large level.  The same
 * budget on every CPU call lost on D 2048^3 (149 -> 124-128). */
#define G3_CPU_SKINNY_PANEL ((size_t)16 << 20)

gpublas3Status g3_packed_enqueue(const g3_device *d, const g3_call *plan, const g3_plan *pl, g3_chain *chain)
{
    g3_call copy = *plan;
    const g3_call *p = &copy;
    job j = { .d = d, .p = p, .ks = pl->ks, .pr = &pl->ks->p, .es = p->dbl ? 8 : 4,
              .splits = pl->path == G3_PATH_SPLITK ? pl->splits : 0, .kslice = pl->kslice, .prepacked = -1,
              .inplace = pl->inplace };
    j.cat = g3_packed_cat(p, pl->ks, j.splits);
    gpublas3Status st;

    /* Panel sizes: whole when it fits, else halve the largest dimension. */
    const int scale_only = p->K == 0 || p->alpha == 0;
    size_t budget = g3_call_budget(j.d, p), limit = (size_t)1 << 30;
    if (j.pr->copy_direct && pl->shape == G3_SHAPE_SKINNY && budget > G3_CPU_SKINNY_PANEL)
        budget = G3_CPU_SKINNY_PANEL;
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
    int bshare[2], side = -1, fill = 0;
    for (;;) {
        scratch_sizes(&j, mb, nb, kb, bshare, bytes);
        side = reuse_side(&j, mb, nb, kb);
        fill = side >= 0 && !p->reuse->buf;
        j.prepacked = side >= 0 && reuse_holds(p, side, j.ks) ? side : -1;
        if (j.prepacked >= 0)
            bytes[side] = 0; /* scratch[side] is the kept copy */
        /* split-K (one panel, so no snapshot): the partials take the last slot */
        if (j.splits > 1)
            bytes[4] = g3_splitk_bytes(p, j.splits);
        st = g3_scratch_acquire(j.d, chain, G3_SCRATCH_MAX, bytes, scratch);
        if (st != gpublas3OutOfResources)
            break;
        if (j.splits > 1) {
            j.splits = 0; /* the device could not give the partials: no split, and */
            j.inplace = g3_packed_inplace(p, pl->ks, 0); /* the output read through its snapshot (plan.c) */
            j.cat = g3_packed_cat(p, pl->ks, 0);
        }
        else if (!shrink(&j, &mb, &nb, &kb))
            return st;
    }
    if (st != gpublas3Success)
        return st;
    if (j.prepacked >= 0)
        scratch[side] = p->reuse->buf;
    if (copy.beta_im != 0) { /* complex beta (complex.c): C <- beta*C first, in complex units */
        const double beta[2] = { copy.beta, copy.beta_im };
        st = g3_cscale(d, pl->ks, copy.c, copy.offc / 2, copy.ldc / 2, copy.M / 2, copy.N, copy.tri, beta, chain);
        copy.beta = 1;
        copy.beta_im = 0;
    }
    if (st == gpublas3Success && j.splits > 1) {
        j.part = scratch[4];
        st = run_panels(&j, mb, nb, kb, (cl_mem[2]){ scratch[0], scratch[2] }, (cl_mem[2]){ scratch[1], scratch[3] },
                        bshare, chain);
        if (st == gpublas3Success)
            st = g3_splitk_reduce(d, p, pl, j.splits, j.part, chain);
    } else if (st == gpublas3Success) {
        st = run_slabs(&j, mb, nb, kb, scratch, bshare, chain);
    }
    if (st == gpublas3Success && (fill || j.prepacked >= 0))
        reuse_record(&j, pl->shape, side, fill, scratch, chain);
    else if (j.prepacked >= 0)
        scratch[side] = NULL; /* the series' copy: not this call's to give back */
    g3_scratch_release(j.d, chain, G3_SCRATCH_MAX, scratch);
    return st;
}

gpublas3Status g3_packed_transposed(const g3_device *d, const g3_call *c, const g3_plan *p, const g3_call *s,
                                    const g3_plan *ps, g3_chain *chain)
{
    size_t bytes[1] = { c->M * c->N * (c->dbl ? 8 : 4) };
    cl_mem T[1];
    gpublas3Status st =
        g3_hold_fits(d, c, bytes[0]) ? g3_scratch_acquire(d, chain, 1, bytes, T) : gpublas3OutOfResources;
    if (st == gpublas3OutOfResources) /* (then as planned, untransposed) */
        return g3_packed_enqueue(d, c, p, chain);
    if (st != gpublas3Success)
        return st;
    g3_call into = *s;
    into.c = T[0];
    into.held = c->held + bytes[0];
    st = g3_packed_enqueue(d, &into, ps, chain); /* (OutOfResources: nothing enqueued) */
    if (st == gpublas3Success)
        st = g3_reduce_transposed(d, p->ks, c->dbl, c->M, c->N, 1, c->beta, T[0], c->c, c->offc, c->ldc, chain);
    g3_scratch_release(d, chain, 1, T);
    return st;
}

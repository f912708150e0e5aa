/* SPDX-License-Identifier: BSD-3-Clause */
/* Batched GEMM (routines/gemm_batched.c describes the call): the batch is
 * one more dimension of the launch grid, not a loop of calls.
 *
 * The plan of the batch (batch_plan) is not that of one product, which
 * sizes its launch for a product alone: the batch fills the device with
 * products.  A real product that fills one tile of the tiny set, else of
 * the batch set (where the device has such rows, products of at most
 * their batch_max rows and columns), else of the medium set (where the
 * device has a medium row),
 * else of the small set, else of the large set, runs
 * packed on that set, and so does a complex one whose real view (2M rows)
 * fits the batch set so and whose A that set reads in place, or one of
 * more than direct_max^3 real multiply-adds (its real view filling it); a
 * smaller one runs direct, complex ones on the direct
 * kernel's complex mode, with each work-item holding at least 2 x 2
 * elements of C, its register tile halved along M while the work-group's
 * tile holds the product's M twice, and each work-group running products
 * in turn up to the set's direct_nb multiply-adds (PoCL: 16384, where a
 * work-group costs microseconds; GPUs 1, one product each; docs/performance.md,
 * Findings, Batched GEMM).  H200, 2026-11-29
 * (docs/performance.md, Batched GEMM): one-product plans ran 64^3 to
 * 256^3 products direct, 3.5-5.5x slower than packed on the medium set,
 * and the GPU's direct set of one element a work-item ran batches of
 * 16^3 2.1x slower than 2 x 2.  GPUBLAS3_PLAN and GPUBLAS3_SHAPE force
 * path and set as for any call; split-K becomes packed.  Then:
 *   direct: one launch of the direct kernel, each layer of its grid a run
 *           of products;
 *   packed: per chunk of products, one launch of the copy kernel per
 *           operand packing that operand of every product of the chunk
 *           (packb, or cpack for complex operands, layer z product z; an
 *           operand of stride 0 is packed once for all), then one GEMM
 *           launch whose layer z multiplies product z's packed panels into
 *           its C; an operand the plan reads in place (packed.c) is read
 *           where it is, a stride further each product.  A chunk
 *           is as many products as the scratch limit holds
 *           (GPUBLAS3_SCRATCH_LIMIT, the largest allocation), all of them
 *           normally; a product too large for the limit alone runs as
 *           single calls, one per product (each with its own panels).
 * Complex batches on the packed path run as the real call complex.c maps
 * them to, through the same copy and GEMM kernels.  The offset-array form
 * passes each launch a small device table of the products' offsets
 * (cl_long, 4 a product: A, B, C as the GEMM kernel counts it, C in
 * complex elements; the complex direct kernel: all in complex elements)
 * and scalars (real, 6 a product: the GEMM kernel's alpha and beta, the
 * B copy's complex scale (the complex direct kernel's alpha), the complex
 * beta pre-pass's beta (its beta)), made with
 * CL_MEM_COPY_HOST_PTR: read before the call returns, nothing waits.
 * Several queues share out the products in equal runs, each queue after
 * the wait list with its own event, as split.c shares out C's blocks;
 * queues on devices with memory of their own (discrete GPUs) leave the
 * batch to queue 0, as split.c does, and return markers. */
#include <stdio.h>
#include <stdlib.h>
#include "plan.h"

/* Product p of batch b as a single call (not mapped to real). */
static g3_call product(const g3_batch *b, size_t p)
{
    g3_call c = b->one;
    if (b->offs[0]) {
        c.a[0].off = b->offs[0][p];
        c.b[0].off = b->offs[1][p];
        c.offc = b->offs[2][p];
        c.alpha = b->alphas[p].re;
        c.alpha_im = b->alphas[p].im;
        c.beta = b->betas[p].re;
        c.beta_im = b->betas[p].im;
    } else {
        c.a[0].off += p * b->stride[0];
        c.b[0].off += p * b->stride[1];
        c.offc += p * b->stride[2];
    }
    return c;
}

/* The batch's products [lo, lo + n) as a batch of their own. */
static g3_batch slice(const g3_batch *b, size_t lo, size_t n)
{
    g3_batch s = *b;
    s.count = n;
    if (b->offs[0]) {
        for (int i = 0; i < 3; i++)
            s.offs[i] = b->offs[i] + lo;
        s.alphas = b->alphas + lo;
        s.betas = b->betas + lo;
    }
    s.one = product(b, lo);
    return s;
}

/* Does the call change nothing (every product scales C by 1)? */
static int nothing_to_do(const g3_batch *b)
{
    if (!b->offs[0])
        return (b->one.K == 0 || (b->one.alpha == 0 && b->one.alpha_im == 0)) && b->one.beta == 1 &&
               b->one.beta_im == 0;
    for (size_t p = 0; p < b->count; p++)
        if (!((b->one.K == 0 || (b->alphas[p].re == 0 && b->alphas[p].im == 0)) && b->betas[p].re == 1 &&
              b->betas[p].im == 0))
            return 0;
    return 1;
}

/* The launches' view of the batch: product 0 as the real call the kernels
 * run, the strides in the units each kernel counts, and the tables. */
typedef struct {
    g3_call c;            /* product 0, mapped to real (complex.c) */
    size_t sa, sb, sc;    /* strides of a[0], b[0] and C as the kernels count them */
    size_t sc_cplx;       /* C's in complex elements (the beta pre-pass) */
    int prepass;          /* complex beta: C <- beta*C first (cscale), then beta 1 */
    int table;            /* the offset-array form: offs and scal hold its tables */
    cl_mem offs, scal;
} view;

/* Builds v for batch b on device d; with `tables`, the offset-array
 * form's device tables too.  `complex_direct`: the direct kernel's complex
 * mode runs a complex batch as it is (complex elements, the scalars at
 * 2 .. 5 of each product's six), not mapped to real. */
static gpublas3Status make_view(const g3_device *d, const g3_batch *b, int tables, int complex_direct, view *v)
{
    g3_call one = b->one;
    int cplx = one.cplx && !complex_direct, table = b->offs[0] != NULL;
    int prepass = 0;
    if (table) { /* the kernels take alpha and beta from the table */
        one.alpha = 1;
        one.beta = 1;
    }
    if (table && cplx) {
        /* every product's alpha folds into its B copy (scale from the
         * table), the kernel's alpha is 1 or 0 (alpha 0: A and B unread) */
        one.alpha = 1;
        one.alpha_im = 1;
        for (size_t p = 0; p < b->count; p++)
            prepass |= b->betas[p].im != 0;
        one.beta = 1;
        one.beta_im = prepass ? 1 : 0;
    } else if (cplx) {
        prepass = one.beta_im != 0;
    }
    *v = (view){ .sc_cplx = b->stride[2], .prepass = prepass, .table = table };
    if (cplx)
        g3_complex_map(&one, &v->c);
    else
        v->c = one;
    /* an operand the real copy kernel reads (real calls; complex B read as
     * its real view) counts real elements, a complex one complex elements */
    size_t ea = cplx && !v->c.a[0].cplx ? 2 : 1, eb = cplx && !v->c.b[0].cplx ? 2 : 1, ec = cplx ? 2 : 1;
    v->sa = b->stride[0] * ea;
    v->sb = b->stride[1] * eb;
    v->sc = b->stride[2] * ec;
    if (!table || !tables)
        return gpublas3Success;
    size_t n = b->count, es = v->c.dbl ? 8 : 4;
    cl_long *offs = malloc(n * 4 * sizeof *offs);
    unsigned char *scal = malloc(n * 6 * es);
    if (!offs || !scal) {
        free(offs);
        free(scal);
        return gpublas3OutOfHostMemory;
    }
    for (size_t p = 0; p < n; p++) {
        const g3_scalar al = b->alphas[p], be = b->betas[p];
        offs[4 * p] = (cl_long)(b->offs[0][p] * ea);
        offs[4 * p + 1] = (cl_long)(b->offs[1][p] * eb);
        offs[4 * p + 2] = (cl_long)(b->offs[2][p] * ec);
        offs[4 * p + 3] = (cl_long)b->offs[2][p];
        double s[6] = { al.re, be.re, al.re, al.im, be.re, be.im };
        if (cplx) {
            s[0] = al.re == 0 && al.im == 0 ? 0 : 1;
            s[1] = prepass ? 1 : be.re;
        }
        for (int i = 0; i < 6; i++) {
            if (es == 8)
                ((cl_double *)scal)[6 * p + i] = s[i];
            else
                ((cl_float *)scal)[6 * p + i] = (cl_float)s[i];
        }
    }
    cl_int e1, e2;
    v->offs = clCreateBuffer(d->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4 * sizeof *offs, offs, &e1);
    v->scal = clCreateBuffer(d->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 6 * es, scal, &e2);
    free(offs);
    free(scal);
    if (e1 != CL_SUCCESS || e2 != CL_SUCCESS) {
        if (v->offs) clReleaseMemObject(v->offs);
        if (v->scal) clReleaseMemObject(v->scal);
        return g3_alloc_failure(e1 != CL_SUCCESS ? e1 : e2) ? gpublas3OutOfResources
                                                            : (gpublas3Status)(e1 != CL_SUCCESS ? e1 : e2);
    }
    return gpublas3Success;
}

static void release_view(view *v)
{
    /* (the launches that read them hold them until they complete) */
    if (v->offs) clReleaseMemObject(v->offs);
    if (v->scal) clReleaseMemObject(v->scal);
}

/* Products each work-group of a direct batch of n runs in turn: as many as
 * keep it within the set's direct_nb real multiply-adds (at least 1). */
static size_t per_group(const g3_call *c, const g3_kset *ks, size_t n)
{
    size_t tm = g3_direct_tile_m(ks), tn = g3_direct_tile_n(ks);
    size_t work = (c->M < tm ? c->M : tm) * (c->N < tn ? c->N : tn) * (c->K ? c->K : 1) * (c->cplx ? 4 : 1);
    size_t per = (size_t)ks->p.direct_nb / work;
    return per < 1 ? 1 : per > n ? n : per;
}

static gpublas3Status run_direct(const g3_device *d, const g3_plan *pl, const view *v, size_t n, g3_chain *chain)
{
    const g3_call *c = &v->c;
    g3_direct_args a = { .M = c->M, .N = c->N, .K = c->K, .alpha = c->alpha, .beta = c->beta, .cplx = c->cplx,
                         .alpha_im = c->alpha_im, .beta_im = c->beta_im, .nterms = 1,
                         .a = { &c->a[0], &c->a[0] }, .b = { &c->b[0], &c->b[0] }, .C = c->c, .offc = c->offc,
                         .ldc = c->ldc, .batch = n, .stride = { v->sa, v->sb, v->sc }, .offs = v->offs,
                         .scal = v->scal, .per_group = per_group(c, pl->ks, n) };
    chain->eventless = chain->quiet; /* the launch is the whole call */
    gpublas3Status st = g3_direct_launch(d, pl->ks, c->dbl, &a, chain);
    chain->eventless = 0;
    return st;
}

/* A's stride from one product to the next as the kernel counts it: a
 * complex A read as its 2x2 form (G3_INPLACE_CA) in reals, v->sa counting
 * complex elements. */
static size_t astride(const view *v, int inplace)
{
    return inplace & G3_INPLACE_CA ? 2 * v->sa : v->sa;
}

/* The operands of a strided batch read in place (g3_plan.inplace's bits
 * for term 0), as packed.c reads those of one call, where the stride is
 * whole vectors too; the offset form packs every operand. */
static int batch_inplace(const g3_kset *ks, const view *v)
{
    if (v->table)
        return 0;
    int m = g3_packed_inplace(&v->c, ks, 1), es = v->c.dbl ? 8 : 4, vk = 16 / es;
    size_t va = m & G3_INPLACE_KA ? (size_t)vk : (size_t)ks->p.vwm, vb = m & G3_INPLACE_KB ? (size_t)vk : (size_t)ks->p.vwn;
    if (!(m & G3_INPLACE_A) || astride(v, m) % va)
        m &= ~(G3_INPLACE_A | G3_INPLACE_KA | G3_INPLACE_CA);
    if (!(m & G3_INPLACE_B) || v->sb % vb)
        m &= ~(G3_INPLACE_B | G3_INPLACE_KB);
    return m & (G3_INPLACE_A | G3_INPLACE_KA | G3_INPLACE_CA | G3_INPLACE_B | G3_INPLACE_KB);
}

/* Products per chunk of the packed path (0: one product alone exceeds the
 * limit), and the packed panels' sizes (elements; 0: shared, read in
 * place or none), the operands `in` (batch_inplace) read in place. */
static size_t chunk_size(const g3_device *d, const g3_kset *ks, const view *v, int in, size_t n, size_t *pa,
                         size_t *pb, int *shared_a, int *shared_b)
{
    const g3_call *c = &v->c;
    const g3_params *pr = &ks->p;
    size_t es = c->dbl ? 8 : 4, K = c->K == 0 || c->alpha == 0 ? 0 : c->K;
    size_t mp = g3_roundup(c->M, pr->mwg), np = g3_roundup(c->N, pr->nwg), kp = g3_roundup(K, pr->kwg);
    *pa = in & G3_INPLACE_A ? 0 : kp * mp;
    *pb = in & G3_INPLACE_B ? 0 : kp * np;
    *shared_a = !v->table && v->sa == 0;
    *shared_b = !v->table && v->sb == 0;
    size_t fixed = ((*shared_a ? *pa : 0) + (*shared_b ? *pb : 0)) * es;
    size_t per = ((*shared_a ? 0 : *pa) + (*shared_b ? 0 : *pb)) * es;
    size_t budget = g3_scratch_limit(d), big = (*pa > *pb ? *pa : *pb) * es;
    if (fixed > budget || big > d->max_alloc)
        return 0;
    size_t chunk = per ? (budget - fixed) / per : n;
    if (big && d->max_alloc / big < chunk)
        chunk = d->max_alloc / big;
    return chunk < n ? chunk : n;
}

static gpublas3Status run_packed(const g3_device *d, const g3_batch *b, const g3_plan *pl, view *v, size_t chunk,
                                 g3_chain *chain)
{
    const g3_params *pr = &pl->ks->p;
    const g3_call *c = &v->c;
    size_t es = c->dbl ? 8 : 4, pa, pb;
    int sh_a, sh_b, in = pl->inplace;
    chunk_size(d, pl->ks, v, in, b->count, &pa, &pb, &sh_a, &sh_b);
    int in_a = !!(in & G3_INPLACE_A), in_b = !!(in & G3_INPLACE_B);
    const size_t K = c->K == 0 || c->alpha == 0 ? 0 : c->K;
    size_t mp = g3_roundup(c->M, pr->mwg), np = g3_roundup(c->N, pr->nwg), kp = g3_roundup(K, pr->kwg);
    size_t bytes[G3_SCRATCH_MAX] = { K && pa ? pa * es * (sh_a ? 1 : chunk) : 0, K && pb ? pb * es * (sh_b ? 1 : chunk) : 0 };
    cl_mem s[G3_SCRATCH_MAX];
    gpublas3Status st = g3_scratch_acquire(d, chain, G3_SCRATCH_MAX, bytes, s);
    if (st != gpublas3Success)
        return st;
    if (v->prepass) { /* complex beta: C <- beta*C, every product, then beta 1 (complex.c) */
        const double beta[2] = { b->one.beta, b->one.beta_im };
        g3_pack_batch bt = { .batch = b->count, .stride = v->sc_cplx, .offs = v->offs, .scal = v->scal };
        st = g3_cscale_batch(d, pl->ks, c->c, c->offc / 2, c->ldc / 2, c->M / 2, c->N, beta, &bt, chain);
    }
    double beta = v->prepass ? 1 : c->beta;
    for (size_t p0 = 0; p0 < b->count && st == gpublas3Success; p0 += chunk) {
        size_t n = b->count - p0 < chunk ? b->count - p0 : chunk;
        view w = *v;
        g3_call *q = &w.c;
        /* (strided: the chunk's first product; tables: a chunk is one launch, p0 = 0) */
        q->a[0].off += p0 * v->sa;
        q->b[0].off += p0 * v->sb;
        q->offc += p0 * v->sc;
        if (K && !in_a && (!sh_a || p0 == 0)) {
            g3_pack_batch bt = { .batch = sh_a ? 1 : n, .stride = v->sa, .pstride = pa, .offs = v->offs, .col = 0,
                                 .scal = v->scal };
            g3_pack_job j = { .o = &q->a[0], .bt = &bt, .xlen = q->M, .klen = K, .P = s[0], .xb = pr->mwg,
                              .xpad = mp, .kpad = kp };
            st = g3_pack(d, pl->ks, &j, chain);
        }
        if (st == gpublas3Success && K && !in_b && (!sh_b || p0 == 0)) {
            g3_pack_batch bt = { .batch = sh_b ? 1 : n, .stride = v->sb, .pstride = pb, .offs = v->offs, .col = 1,
                                 .scal = v->scal };
            g3_pack_job j = { .o = &q->b[0], .bt = &bt, .bside = 1, .xlen = q->N, .klen = K, .P = s[1],
                              .xb = pr->nwg, .xpad = np, .kpad = kp };
            st = g3_pack(d, pl->ks, &j, chain);
        }
        if (st != gpublas3Success)
            break;
        g3_gemm_args a = { .M = q->M, .N = q->N, .K = kp, .alpha = K ? q->alpha : 0, .beta = beta,
                           .A = K ? s[0] : q->c, .B = K ? s[1] : q->c, .bxb = pr->nwg, .C = q->c, .offc = q->offc,
                           .ldc = q->ldc, .cplx = q->cplx, .batch = n, .abatch = K && !sh_a ? pa : 0,
                           .bbatch = K && !sh_b ? pb : 0, .cslice = v->offs ? 0 : v->sc, .offs = v->offs,
                           .scal = v->scal };
        /* operands read in place: from the chunk's first product on, a
         * stride further each (packed.c's launch_gemm, one panel) */
        if (K && in_a) {
            a.A = q->a[0].buf;
            a.ak = !!(in & G3_INPLACE_KA);
            a.ac = !!(in & G3_INPLACE_CA);
            g3_inplace_at(&q->a[0], in, 0, 0, &a.aoff, &a.ald);
            a.abatch = astride(v, in);
        }
        if (K && in_b) {
            a.B = q->b[0].buf;
            a.bk = !!(in & G3_INPLACE_KB);
            g3_inplace_at(&q->b[0], in >> 2, 0, 0, &a.boff, &a.bld);
            a.bbatch = v->sb;
        }
        st = g3_gemm_launch(d, pl->ks, c->dbl, &a, chain);
    }
    g3_scratch_release(d, chain, G3_SCRATCH_MAX, s);
    return st;
}

/* a batch's C prefetch (batch_plan): the k-tiles before the last where
 * the set has none, and the deepest products that get it */
#define BATCH_CPREF 4
#define BATCH_CPREF_K 256

/* Real products of c's shape within the batch_max of a batch class's set
 * p (tiny, batch), filling one of its tiles. */
static int fits_batch(const g3_params *p, const g3_call *c)
{
    const size_t bmax = (size_t)p->batch_max; /* 0..4096: g3_params_invalid */
    return c->M <= bmax && c->N <= bmax && c->M >= (size_t)p->mwg && c->N >= (size_t)p->nwg;
}

/* Whether complex products like c (real view) run packed on the batch set
 * bs, which own then holds: a real view of at most batch_max rows on its
 * tile, one of up to twice that on its tile doubled along M (mwg and
 * mdimc: each work-item keeps its register tile) where the doubled tile
 * is within batch_max, filling whole tiles within batch_max columns, A
 * read in place as its 2x2 form. */
static int complex_batch(const g3_device *d, const g3_kset *bs, const g3_call *c, const view *v, g3_kset *own)
{
    const size_t bmax = (size_t)bs->p.batch_max;
    *own = *bs;
    const int tall = c->M > bmax && 2 * (size_t)bs->p.mwg <= bmax;
    if (tall) {
        own->p.mwg *= 2;
        own->p.mdimc *= 2;
    }
    if (!bmax || c->M > (tall ? 2 : 1) * bmax || c->N > bmax || c->M % own->p.mwg || c->N % own->p.nwg ||
        own->p.mwg % 2 || (tall && g3_params_invalid(&own->p, d->max_wg, d->local_mem)))
        return 0;
    if (tall)
        g3_kset_defines(own);
    return (batch_inplace(own, v) & G3_INPLACE_CA) != 0;
}

/* The plan of a batch of products like c (the comment at the top), c as
 * the real call the packed path runs (complex: complex.c's map), v the
 * batch as the packed path would see it; the set it runs on is held in
 * own. */
static void batch_plan(const g3_device *d, const g3_call *c, const view *v, g3_plan *pl, g3_kset *own)
{
    g3_plan_choose(d, c, pl);
    if (pl->path == G3_PATH_SPLITK)
        pl->path = G3_PATH_PACKED;
    const g3_kset *sets = d->sets[c->dbl];
    /* real products of at most batch_max x batch_max try the tiny and then
     * the batch set first: on the H100's rows 16 x 16 and 32 x 32 tiles
     * without tensor cores, which outran the direct kernel and, in S, the
     * medium set's 64 x 64 tiles (H200, GFLOP/s: S 32^3 x 10000 5891-6304
     * against 3072-3373 direct, 64^3 x 4096 10415-11860 against 8466-9987
     * medium; D 32^3 3017-3335 against 1861-2116 direct; us, 16^3 x 20000
     * on the tiny set: S 52-64 against 93-96 direct, D 75-89 against
     * 122-125; tuned-params/nvidia-h100.csv) */
    const int order[] = { G3_SHAPE_TINY, G3_SHAPE_BATCH, G3_SHAPE_MEDIUM, G3_SHAPE_SMALL, G3_SHAPE_LARGE };
    const int forced = d->plan_force >= 0 || d->shape_force >= 0;
    /* complex products whose real view fills the batch set's tile within
     * its batch_max, where that set reads A in place as its 2x2 form, run
     * packed on it, ahead of the direct kernel's complex mode (H100,
     * 2026-12-07, C 32^3 x 10000, two rounds, us: 240-242 against 271-285
     * direct; Z's real view of 64 rows exceeds the D row's batch_max, 63:
     * forced there it ran 445-459 against 409-423 direct).  Of the C
     * products this takes on the H100's row (16 or 32 rows, 32 to 64
     * columns, K a multiple of 8) only 32^3 is measured: the others follow
     * the real products the batch set won on.  A real view that leaves a
     * tile part empty stays off it (H100, 2026-12-07, C 32 x 48 x 32 x
     * 10000, two rounds, us: 466-499 on the batch set against 347-351
     * direct; 16 x 32 x 32 137-142 against 201-223, 32 x 64 x 32 396-406
     * against 453-461).  A real view of up to twice batch_max rows takes
     * the tile doubled along M (H100, 2026-12-07, C 64^3 x 4096, two
     * rounds, us: 478-492 so against 583-598 direct, 501-538 on 32 x 32
     * tiles forced, CLBlast 542) */
    if (!forced && c->cplx && complex_batch(d, &sets[G3_SHAPE_BATCH], c, v, own)) {
        *pl = (g3_plan){ .path = G3_PATH_PACKED, .shape = G3_SHAPE_BATCH, .ks = own, .splits = 1 };
        return;
    }
    /* complex products of at most direct_max^3 real multiply-adds, as a
     * single complex GEMM (plan.c), on the direct kernel's complex mode,
     * whose staged operands (GPUs) outran the packed path's copies (H200:
     * C 64^3 x 4096 554 against 959 us, Z 804 against 1228); but those of
     * more than an eighth of that whose A the plan's own set reads in
     * place as its 2x2 form (G3_INPLACE_CA: no copy of A) run packed on
     * that set (H100, 2026-12-07, us: C 128^3 x 1024 802-821 against
     * 912-941 direct, Z 1023 against 1343-1389; at 64^3 x 4096 direct
     * stays ahead, C 553-580 against 593-605, Z 831-844 against 1026-1033,
     * the direct figures from an earlier call the same day) */
    const double e = pl->ks->p.direct_max;
    const int cpacked = c->cplx && pl->path == G3_PATH_PACKED && batch_inplace(pl->ks, v) & G3_INPLACE_CA &&
                        (double)c->M * c->N * c->K > e * e * e / 8;
    if (!forced && cpacked && g3_direct_wanted(c, pl->ks))
        return;
    const int cdirect = c->cplx && g3_direct_wanted(c, pl->ks);
    for (size_t i = 0; !forced && !cdirect && i < sizeof order / sizeof order[0]; i++) {
        const g3_params *p = &sets[order[i]].p;
        const int batch_class = order[i] == G3_SHAPE_TINY || order[i] == G3_SHAPE_BATCH;
        if (batch_class && (c->cplx || !fits_batch(p, c)))
            continue;
        if (order[i] == G3_SHAPE_MEDIUM && p->medium_wgs <= 0)
            continue;
        if (c->M >= (size_t)p->mwg && c->N >= (size_t)p->nwg && (!c->cplx || p->mwg % 2 == 0)) {
            *own = sets[order[i]];
            /* C prefetched into L2 (kernels/gemm.cl's CPREF) in real
             * batches of K <= 256 on an NVIDIA set, and not in deeper
             * ones, whatever the set does for single calls: every tile
             * of a batch reads a C of its own, which the epilogue would
             * wait for, and past K = 256 the k loop hides it (H200,
             * GFLOP/s, with against without: D medium set 64^3 x 4096
             * 8554-8814 / 6962-7030, 128^3 x 1024 15211-15382 /
             * 12081-12165, 256^3 x 256 22259-22577 / 19556-20212, 512^3 x
             * 64 27121-27710 / 30848-30989; S medium set 512^3 x 64
             * 26845-27110 / 28843-29441; single calls of the D medium set
             * up to 22 % slower with it: docs/performance.md) */
            if (!c->cplx && g3_params_nvidia_only(&own->p)) {
                int want = c->K > BATCH_CPREF_K ? 0 : own->p.cpref ? own->p.cpref : BATCH_CPREF;
                if (want != own->p.cpref) {
                    own->p.cpref = want;
                    g3_kset_defines(own);
                }
            }
            *pl = (g3_plan){ .path = G3_PATH_PACKED, .shape = order[i], .ks = own, .splits = 1 };
            return;
        }
    }
    /* (complex: the plan of one call is packed whatever is asked) */
    if ((!forced && g3_direct_fits(c, pl->ks)) || (c->cplx && d->plan_force == G3_PATH_DIRECT))
        pl->path = G3_PATH_DIRECT;
    if (pl->path != G3_PATH_DIRECT)
        return;
    /* each work-item at least 2 x 2 elements of C (a batch has work-groups
     * enough): for a set of one element a work-item (GPUs), products of at
     * most 16 x 16 on one 16 x 16 tile, real ones 4 x 8 work-items of 4 x 2
     * (H200, 16^3 x 20000, GFLOP/s, three runs: D 1176-1291 against 944-969
     * on 8 x 8 of 2 x 2, S level, 1384-1623 against 1182-1640), complex ones
     * 8 x 4 of 2 x 4 (C 4455 against 3805 on 4 x 8 of 4 x 2; microseconds,
     * against 16 x 8 of 2 x 2: S 88 / 135, D 150 / 177, C 130 / 224, Z 224 /
     * 341), real products of 32 x 32 and more 8 x 8 of 4 x 4 (H200, 32^3 x
     * 10000: S 3.6 against 2.9 TFLOP/s, D 2.2 against 1.6 with 16 x 8 of 2 x
     * 2), the rest the set's geometry halved along M; a larger register tile
     * halved along M while the work-group's tile holds the product's M twice
     * or more (no work-item only past the edge) */
    *own = *pl->ks;
    g3_params *p = &own->p;
    size_t M = c->cplx ? c->M / 2 : c->M; /* (complex: the direct kernel's rows are complex) */
    const int tiny = M <= 16 && c->N <= 16;
    /* products of at most 16 x 16 read in place, not staged (H200, 16^3 x
     * 20000, us: C 132-144 against 153-158 staged in blocks of 8, Z 224-237
     * against 285-293); from 32^3 staged (C 32^3 227-254 against 407) */
    if (tiny)
        p->direct_kb = 1;
    if (p->direct_wm * p->direct_wn < 4) {
        if (tiny) {
            p->direct_dm = c->cplx ? 8 : 4;
            p->direct_dn = c->cplx ? 4 : 8;
            p->direct_wm = c->cplx ? 2 : 4;
            p->direct_wn = c->cplx ? 4 : 2;
        } else if (!c->cplx && M >= 32 && c->N >= 32) {
            p->direct_dm = p->direct_dn = 8;
            p->direct_wm = p->direct_wn = 4;
        } else {
            p->direct_dm = p->direct_dm > 1 ? p->direct_dm / 2 : 1;
            p->direct_wm = p->direct_wn = 2;
        }
    }
    while (p->direct_wm > 2 && p->direct_wm * p->direct_wn > 4 && M <= g3_direct_tile_m(own) / 2)
        p->direct_wm /= 2;
    /* the set's staged k-blocks as deep as the batch's tile leaves room
     * for in 32 KB, the local memory every OpenCL GPU has */
    while (p->direct_kb > 1 && g3_params_direct_local(p) > 32768)
        p->direct_kb /= 2;
    g3_kset_defines(own);
    pl->ks = own;
}

/* The batch b (one queue's share) as the chain's next steps. */
static gpublas3Status enqueue(const g3_batch *b, g3_chain *chain)
{
    const g3_device *d;
    gpublas3Status st = g3_device_of(chain->q, &d);
    if (st != gpublas3Success)
        return st;
    if (b->one.dbl && !d->has_fp64)
        return gpublas3InvalidDevice;
    if (b->count == 0 || b->one.M == 0 || b->one.N == 0 || nothing_to_do(b))
        return gpublas3Success;
    view v;
    size_t chunk = b->count;
    /* the plan of the batch, as the real call the kernels run */
    g3_call one = b->one;
    g3_call real_one;
    if (one.cplx) {
        g3_complex_map(&one, &real_one);
        one = real_one;
    }
    view probe; /* (no tables yet) */
    st = make_view(d, b, 0, 0, &probe);
    if (st != gpublas3Success)
        return st;
    g3_plan pl;
    g3_kset own; /* the batch's set, where it is not the device's */
    batch_plan(d, &one, &probe, &pl, &own);
    pl.splits = 1;
    pl.inplace = 0; /* (direct: every operand read in place anyway; packed: below) */
    int direct = pl.path == G3_PATH_DIRECT;
    if (direct && one.cplx) /* the direct kernel's complex mode: the call as it is */
        one = b->one;
    if (!direct && one.cplx && pl.ks->p.mwg % 2)
        return gpublas3NotImplemented; /* (as g3_enqueue: whole 2 x 2 blocks in a tile) */
    if (!direct) {
        size_t pa, pb;
        int sa, sb;
        pl.inplace = batch_inplace(pl.ks, &probe);
        chunk = chunk_size(d, pl.ks, &probe, pl.inplace, b->count, &pa, &pb, &sa, &sb);
    }
    if (g3_plan_verbose()) {
        char line[384];
        g3_plan_describe(d, &one, &pl, line, sizeof line);
        char how[64];
        if (direct)
            snprintf(how, sizeof how, "one launch, %zu a work-group", per_group(&one, pl.ks, b->count));
        else if (chunk)
            snprintf(how, sizeof how, "chunks of %zu products", chunk);
        else
            snprintf(how, sizeof how, "one call per product (one exceeds the scratch limit)");
        fprintf(stderr, "gpublas3: plan: batch of %zu (%s), %s: %s\n", b->count, b->offs[0] ? "offsets" : "strided",
                how, line);
    }
    if (!direct && chunk == 0) {
        /* one product alone exceeds the scratch limit: single calls, each
         * with its panels (packed.c) */
        for (size_t p = 0; p < b->count && st == gpublas3Success; p++) {
            g3_call c = product(b, p);
            st = g3_enqueue(&c, chain);
        }
        return st;
    }
    if (!b->offs[0]) { /* strided: run_packed takes the chunks itself */
        st = make_view(d, b, 1, direct, &v);
        if (st == gpublas3Success)
            st = direct ? run_direct(d, &pl, &v, b->count, chain) : run_packed(d, b, &pl, &v, chunk, chain);
        return st;
    }
    /* a table serves one launch: the products of one chunk */
    for (size_t p0 = 0; p0 < b->count && st == gpublas3Success; p0 += chunk) {
        size_t n = b->count - p0 < chunk ? b->count - p0 : chunk;
        g3_batch part = slice(b, p0, n);
        st = make_view(d, &part, 1, direct, &v);
        if (st != gpublas3Success)
            return st;
        st = direct ? run_direct(d, &pl, &v, n, chain) : run_packed(d, &part, &pl, &v, n, chain);
        release_view(&v);
    }
    return st;
}

gpublas3Status g3_batch_run(const g3_batch *b, cl_uint nq, cl_command_queue *qs, cl_uint nwait,
                            const cl_event *wait, cl_event *events)
{
    /* queues that share the products: all where their devices are one or
     * share the host's memory, else queue 0 alone (split.c says why) */
    cl_uint used = nq;
    const g3_device *d0 = NULL, *di;
    for (cl_uint i = 0; i < nq; i++) {
        gpublas3Status st = g3_device_of(qs[i], i ? &di : &d0);
        if (st != gpublas3Success)
            return st;
        if (i && di != d0 && !(di->host_memory && d0->host_memory))
            used = 1;
    }
    gpublas3Status st = gpublas3Success;
    for (cl_uint i = 0; i < nq; i++) {
        size_t lo = i < used ? b->count * i / used : b->count, hi = i < used ? b->count * (i + 1) / used : b->count;
        g3_batch part = *b;
        part.count = 0;
        if (hi > lo) /* (slice reads product lo: only where it exists) */
            part = slice(b, lo, hi - lo);
        g3_chain chain;
        g3_chain_init(&chain, qs[i], nwait, wait);
        chain.quiet = events == NULL;
        if (st == gpublas3Success)
            st = enqueue(&part, &chain);
        if (st != gpublas3Success) {
            g3_chain_abandon(&chain);
            if (events)
                events[i] = NULL;
            continue;
        }
        st = g3_chain_finish(&chain, events ? &events[i] : NULL);
    }
    return st;
}

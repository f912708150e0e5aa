/* SPDX-License-Identifier: BSD-3-Clause */
/* Host side of the copy kernels (copy/pack.cl, and copy/cpack.cl for
 * complex operands): enqueues the packing of one operand panel into the
 * layout the GEMM kernel reads. */
#include "pack.h"

extern const char g3_src_cpack[];

/* The work-groups of the one-work-item-per-element kernels: 32 x 8
 * (halved while the device allows fewer), the grid rounded up to them.
 * PoCL always: left to the driver, it compiled the kernel once more for
 * every matrix shape, each with its own divisor of the grid.  Elsewhere
 * only where `fixed` (cpackc): on the H100 (2026-12-07) CGEMM 1024 took
 * 290-294 us against 299-303 with the driver's choice; cpack and cscale
 * keep the driver's, as on the H200 (2026-11-29) complex calls of 256 ran
 * up to 1.24x slower with cpack on 32 x 8. */
static const size_t *elementwise(const g3_device *d, int fixed, size_t global[3], size_t local[3])
{
    if (!d->one_launch && !fixed)
        return NULL;
    local[0] = 32, local[1] = 8, local[2] = 1;
    while (local[0] * local[1] > d->max_wg)
        local[local[1] > 1] /= 2;
    global[0] = g3_roundup(global[0], local[0]);
    global[1] = g3_roundup(global[1], local[1]);
    return local;
}

/* The depth of P's blocks: kblk, or kpad where the job leaves it 0. */
static cl_int block_depth(const g3_pack_job *j)
{
    return (cl_int)(j->kblk ? j->kblk : j->kpad);
}

/* A complex operand: one work-item per element of P (copy/cpack.cl); it
 * writes every tile, so `skip` needs nothing here. */
static gpublas3Status cpack(const g3_device *d, const g3_kset *ks, const g3_pack_job *j, g3_chain *chain)
{
    const g3_operand *o = j->o;
    const g3_pack_batch one = { .batch = 1 }, *bt = j->bt ? j->bt : &one;
    cl_long sx = (cl_long)bt->stride, ps = (cl_long)bt->pstride;
    cl_int oi = bt->col;
    int dbl = ks->p.precision == 64;
    cl_int tr = o->trans, cj = o->conj, shape = o->shape, unit = o->unit, bs = j->bside, sc = o->scaled;
    cl_long offx = (cl_long)o->off, ldx = (cl_long)o->ld, gx0 = (cl_long)j->x0, gk0 = (cl_long)j->k0;
    cl_int xl = (cl_int)j->xlen, kl = (cl_int)j->klen, xbl = (cl_int)j->xb, xp = (cl_int)j->xpad, kp = (cl_int)j->kpad;
    cl_int kb = block_depth(j), ka = (cl_int)j->kat;
    g3_scalar_val sr, si;
    g3_arg args[] = { G3_ARG(o->buf), G3_ARG(offx), G3_ARG(ldx), G3_ARG(tr), G3_ARG(cj), G3_ARG(shape),
        G3_ARG(unit), G3_ARG(bs), G3_ARG(gx0), G3_ARG(gk0), G3_ARG(xl), G3_ARG(kl), G3_ARG(j->P), G3_ARG(xbl),
        G3_ARG(xp), G3_ARG(kp), G3_ARG(kb), G3_ARG(ka), G3_ARG(sc),
        g3_scalar_arg(dbl, 0, o->scale[0], 0, &sr), g3_scalar_arg(dbl, 0, o->scale[1], 0, &si),
        G3_ARG(sx), G3_ARG(bt->offs), G3_ARG(oi), G3_ARG(ps), G3_ARG(bt->scal) };
    /* CPUs: a general operand a tile a work-item (cpackt); elsewhere one
     * work-item per complex element where every real bound is even
     * (cpackc): on the H100 (2026-12-07) CGEMM 1024's A took 18 us against
     * 38 one real element a work-item (cpack) */
    size_t global[3], local[3];
    if (ks->p.copy_direct && o->shape == 0) {
        g3_params_copy_grid(&ks->p, j->xpad, j->kpad, bt->batch, global, local);
        return g3_launch(chain, d, g3_src_cpack, "cpackt", ks->copy_defines, sizeof args / sizeof args[0], args,
                         3, global, local);
    }
    const int whole = (j->x0 | j->k0 | j->xlen | j->klen | j->kpad | j->kat) % 2 == 0 &&
                      (j->bside || (j->xpad | j->xb) % 2 == 0);
    global[0] = whole && !j->bside ? j->xpad / 2 : j->xpad;
    global[1] = whole ? j->kpad / 2 : j->kpad;
    global[2] = bt->batch;
    const size_t *wg = elementwise(d, whole, global, local);
    return g3_launch(chain, d, g3_src_cpack, whole ? "cpackc" : "cpack", ks->copy_defines,
                     sizeof args / sizeof args[0], args, 3, global, wg);
}

static gpublas3Status cscale(const g3_device *d, const g3_kset *ks, cl_mem C, size_t offc, size_t ldc,
                             size_t M, size_t N, int tri, const double beta[2], const g3_pack_batch *bt,
                             g3_chain *chain)
{
    int dbl = ks->p.precision == 64;
    cl_long off = (cl_long)offc, ld = (cl_long)ldc, sc = (cl_long)bt->stride;
    cl_int m = (cl_int)M, n = (cl_int)N, t = tri;
    g3_scalar_val br, bi;
    g3_arg args[] = { G3_ARG(C), G3_ARG(off), G3_ARG(ld), G3_ARG(m), G3_ARG(n), G3_ARG(t),
                      g3_scalar_arg(dbl, 0, beta[0], 0, &br), g3_scalar_arg(dbl, 0, beta[1], 0, &bi), G3_ARG(sc),
                      G3_ARG(bt->offs), G3_ARG(bt->scal) };
    size_t global[3] = { M, N, bt->batch }, local[3];
    const size_t *wg = elementwise(d, 0, global, local);
    return g3_launch(chain, d, g3_src_cpack, "cscale", ks->copy_defines, sizeof args / sizeof args[0], args, 3,
                     global, wg);
}

gpublas3Status g3_cscale(const g3_device *d, const g3_kset *ks, cl_mem C, size_t offc, size_t ldc,
                         size_t M, size_t N, int tri, const double beta[2], g3_chain *chain)
{
    const g3_pack_batch one = { .batch = 1 };
    return cscale(d, ks, C, offc, ldc, M, N, tri, beta, &one, chain);
}

gpublas3Status g3_cscale_batch(const g3_device *d, const g3_kset *ks, cl_mem C, size_t offc, size_t ldc,
                               size_t M, size_t N, const double beta[2], const g3_pack_batch *bt, g3_chain *chain)
{
    return cscale(d, ks, C, offc, ldc, M, N, 0, beta, bt, chain);
}

/* The copy kernel's 18 arguments for job j, held in v. */
typedef struct {
    cl_int tr, shape, unit, xl, kl, xbl, xp, kp, sk, so, kb, ka;
    cl_long offx, ldx, gx0, gk0;
} pack_values;
#define PACK_NARGS 18
static void pack_args(const g3_pack_job *j, pack_values *v, g3_arg *args)
{
    const g3_operand *o = j->o;
    /* The B side is K x N; seen x-by-k it is its transpose. */
    *v = (pack_values){ .tr = j->bside ? !o->trans : o->trans, .shape = o->shape, .unit = o->unit,
                        .xl = (cl_int)j->xlen, .kl = (cl_int)j->klen, .xbl = (cl_int)j->xb, .xp = (cl_int)j->xpad,
                        .kp = (cl_int)j->kpad, .sk = j->skip, .so = (cl_int)j->skip_off, .offx = (cl_long)o->off,
                        .ldx = (cl_long)o->ld, .gx0 = (cl_long)j->x0, .gk0 = (cl_long)j->k0,
                        .kb = block_depth(j), .ka = (cl_int)j->kat };
    const g3_arg list[PACK_NARGS] = { G3_ARG(o->buf), G3_ARG(v->offx), G3_ARG(v->ldx), G3_ARG(v->tr), G3_ARG(v->shape),
        G3_ARG(v->unit), G3_ARG(v->gx0), G3_ARG(v->gk0), G3_ARG(v->xl), G3_ARG(v->kl), G3_ARG(j->P), G3_ARG(v->xbl),
        G3_ARG(v->xp), G3_ARG(v->kp), G3_ARG(v->sk), G3_ARG(v->so), G3_ARG(v->kb), G3_ARG(v->ka) };
    for (int i = 0; i < PACK_NARGS; i++)
        args[i] = list[i];
}

/* One work-group per TS x TS tile of P (each of n jobs a layer of them). */
static gpublas3Status pack_launch(const g3_device *d, const g3_kset *ks, int n, const g3_pack_job *jobs,
                                  g3_chain *chain)
{
    const g3_params *pr = &ks->p;
    pack_values v[2];
    g3_arg args[2 * PACK_NARGS];
    size_t xmax = 0, kmax = 0;
    for (int i = 0; i < n; i++) {
        pack_args(&jobs[i], &v[i], args + i * PACK_NARGS);
        xmax = jobs[i].xpad > xmax ? jobs[i].xpad : xmax;
        kmax = jobs[i].kpad > kmax ? jobs[i].kpad : kmax;
    }
    size_t global[3], local[3];
    g3_params_copy_grid(pr, xmax, kmax, (size_t)n, global, local);
    return g3_launch(chain, d, g3_src_pack, n == 2 ? "pack2" : "pack", ks->copy_defines, (cl_uint)(n * PACK_NARGS),
                     args, n == 2 ? 3 : 2, global, local);
}

/* The same panel of a batch of products (packb): layer z product z. */
static gpublas3Status pack_batch(const g3_device *d, const g3_kset *ks, const g3_pack_job *j, g3_chain *chain)
{
    const g3_params *pr = &ks->p;
    const g3_pack_batch *bt = j->bt;
    pack_values v;
    g3_arg args[PACK_NARGS + 4];
    pack_args(j, &v, args);
    cl_long sx = (cl_long)bt->stride, ps = (cl_long)bt->pstride;
    cl_int oi = bt->col;
    args[PACK_NARGS] = G3_ARG(sx);
    args[PACK_NARGS + 1] = G3_ARG(bt->offs);
    args[PACK_NARGS + 2] = G3_ARG(oi);
    args[PACK_NARGS + 3] = G3_ARG(ps);
    size_t global[3], local[3];
    g3_params_copy_grid(pr, j->xpad, j->kpad, bt->batch, global, local);
    return g3_launch(chain, d, g3_src_pack, "packb", ks->copy_defines, PACK_NARGS + 4, args, 3, global, local);
}

gpublas3Status g3_pack(const g3_device *d, const g3_kset *ks, const g3_pack_job *j, g3_chain *chain)
{
    if (j->o->cplx)
        return cpack(d, ks, j, chain);
    return j->bt ? pack_batch(d, ks, j, chain) : pack_launch(d, ks, 1, j, chain);
}

gpublas3Status g3_pack_pair(const g3_device *d, const g3_kset *ks, const g3_pack_job *a, const g3_pack_job *b,
                            g3_chain *chain)
{
    if (a->o->cplx || b->o->cplx || a->bt || b->bt) {
        gpublas3Status st = g3_pack(d, ks, a, chain);
        return st != gpublas3Success ? st : g3_pack(d, ks, b, chain);
    }
    const g3_pack_job jobs[2] = { *a, *b };
    return pack_launch(d, ks, 2, jobs, chain);
}

/* On PoCL a buffer copy moves a matrix 4-6x faster than the copy kernel:
 * TRSM's D 4096x64 block (2 MB) in 0.16-0.24 ms against 0.9-1.1 ms
 * (docs/performance.md, PoCL).  GPUs keep the kernel, which their figures
 * were measured with. */
gpublas3Status g3_copy_tight(const g3_device *d, const g3_kset *ks, cl_mem X, size_t off, size_t ld, size_t rows,
                             size_t cols, cl_mem P, g3_chain *chain)
{
    if (ks->p.copy_direct)
        return g3_copy_matrix(chain, X, off, ld, P, 0, rows, rows, cols, ks->p.precision / 8);
    const g3_operand o = { .buf = X, .off = off, .ld = ld };
    const g3_pack_job j = { .o = &o, .xlen = rows, .klen = cols, .P = P, .xb = rows, .xpad = rows, .kpad = cols };
    return g3_pack(d, ks, &j, chain);
}

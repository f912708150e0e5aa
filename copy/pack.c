/* Host side of the copy kernels (copy/pack.cl, and copy/cpack.cl for
 * complex operands): enqueues the packing of one operand panel into the
 * layout the GEMM kernel reads. */
#include "pack.h"

extern const char g3_src_cpack[];

/* A complex operand: one work-item per element of P (copy/cpack.cl); it
 * writes every tile, so `skip` needs nothing here. */
static gpublas3Status cpack(const g3_device *d, const g3_kset *ks, const g3_operand *o, int bside,
                            size_t x0, size_t k0, size_t xlen, size_t klen,
                            cl_mem P, size_t xb, size_t xpad, size_t kpad, g3_chain *chain)
{
    int dbl = ks->p.precision == 64;
    cl_int tr = o->trans, cj = o->conj, shape = o->shape, unit = o->unit, bs = bside, sc = o->scaled;
    cl_long offx = (cl_long)o->off, ldx = (cl_long)o->ld, gx0 = (cl_long)x0, gk0 = (cl_long)k0;
    cl_int xl = (cl_int)xlen, kl = (cl_int)klen, xbl = (cl_int)xb, xp = (cl_int)xpad, kp = (cl_int)kpad;
    cl_float fr = (cl_float)o->scale[0], fi = (cl_float)o->scale[1];
    cl_double dr = o->scale[0], di = o->scale[1];
    g3_arg args[] = { G3_ARG(o->buf), G3_ARG(offx), G3_ARG(ldx), G3_ARG(tr), G3_ARG(cj), G3_ARG(shape),
        G3_ARG(unit), G3_ARG(bs), G3_ARG(gx0), G3_ARG(gk0), G3_ARG(xl), G3_ARG(kl), G3_ARG(P), G3_ARG(xbl),
        G3_ARG(xp), G3_ARG(kp), G3_ARG(sc), dbl ? G3_ARG(dr) : G3_ARG(fr), dbl ? G3_ARG(di) : G3_ARG(fi) };
    size_t global[2] = { xpad, kpad };
    return g3_launch(chain, d, g3_src_cpack, "cpack", ks->copy_defines, sizeof args / sizeof args[0], args, 2,
                     global, NULL);
}

gpublas3Status g3_cscale(const g3_device *d, const g3_kset *ks, cl_mem C, size_t offc, size_t ldc,
                         size_t M, size_t N, int tri, const double beta[2], g3_chain *chain)
{
    int dbl = ks->p.precision == 64;
    cl_long off = (cl_long)offc, ld = (cl_long)ldc;
    cl_int m = (cl_int)M, n = (cl_int)N, t = tri;
    cl_float fr = (cl_float)beta[0], fi = (cl_float)beta[1];
    cl_double dr = beta[0], di = beta[1];
    g3_arg args[] = { G3_ARG(C), G3_ARG(off), G3_ARG(ld), G3_ARG(m), G3_ARG(n), G3_ARG(t),
                      dbl ? G3_ARG(dr) : G3_ARG(fr), dbl ? G3_ARG(di) : G3_ARG(fi) };
    size_t global[2] = { M, N };
    return g3_launch(chain, d, g3_src_cpack, "cscale", ks->copy_defines, sizeof args / sizeof args[0], args, 2,
                     global, NULL);
}

gpublas3Status g3_pack(const g3_device *d, const g3_kset *ks, const g3_operand *o, int bside,
                       size_t x0, size_t k0, size_t xlen, size_t klen,
                       cl_mem P, size_t xb, size_t xpad, size_t kpad, int skip, long skip_off,
                       g3_chain *chain)
{
    if (o->cplx)
        return cpack(d, ks, o, bside, x0, k0, xlen, klen, P, xb, xpad, kpad, chain);
    const g3_params *pr = &ks->p;
    /* The B side is K x N; seen x-by-k it is its transpose. */
    cl_int tr = bside ? !o->trans : o->trans, shape = o->shape, unit = o->unit;
    cl_long offx = (cl_long)o->off, ldx = (cl_long)o->ld, gx0 = (cl_long)x0, gk0 = (cl_long)k0;
    cl_int xl = (cl_int)xlen, kl = (cl_int)klen, xbl = (cl_int)xb, xp = (cl_int)xpad, kp = (cl_int)kpad;
    cl_int sk = skip, so = (cl_int)skip_off;
    g3_arg args[] = { G3_ARG(o->buf), G3_ARG(offx), G3_ARG(ldx), G3_ARG(tr), G3_ARG(shape), G3_ARG(unit),
        G3_ARG(gx0), G3_ARG(gk0), G3_ARG(xl), G3_ARG(kl), G3_ARG(P), G3_ARG(xbl), G3_ARG(xp), G3_ARG(kp),
        G3_ARG(sk), G3_ARG(so) };
    size_t ts = pr->copy_ts;
    size_t global[2] = { g3_roundup(xpad, ts), g3_roundup(kpad, ts) / ts * pr->copy_rs };
    size_t local[2] = { ts, pr->copy_rs };
    return g3_launch(chain, d, g3_src_pack, "pack", ks->copy_defines, sizeof args / sizeof args[0], args, 2,
                     global, local);
}

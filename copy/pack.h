/* SPDX-License-Identifier: BSD-3-Clause */
/* Host side of the copy kernel (copy/pack.cl): how the plan describes an
 * operand, and the packing of one operand panel into the layout the GEMM
 * kernel reads. */
#ifndef G3_PACK_H
#define G3_PACK_H
#include "core.h"

/* Structure of a stored operand, as the copy kernel reads it (Hermitian:
 * complex only, the other triangle mirrored with conjugation and the
 * imaginary part of the diagonal taken as 0, never read). */
enum { G3_GENERAL = 0, G3_SYM_UPPER, G3_SYM_LOWER, G3_TRI_UPPER, G3_TRI_LOWER, G3_HERM_UPPER, G3_HERM_LOWER };
/* One operand: op(S) where S is stored at buf (column-major, offset, ld) with
 * the given structure; op transposes when trans is set.
 * Complex operands (`cplx`; offset and ld count complex elements) are
 * packed by copy/cpack.cl into the real layout that routines/plan/complex.c
 * describes: op(S) conjugated when `conj`, and multiplied by the complex
 * `scale` when `scaled` (alpha folded into a B operand). */
typedef struct {
    cl_mem buf;
    size_t off, ld;
    int trans, shape, unit;
    int cplx, conj, scaled;
    double scale[2];
} g3_operand;

/* One operand panel to pack: [x0, x0+xlen) x [k0, k0+klen) of operand o,
 * seen x-by-k (`bside`: o is a K x N B operand, so Y = o^T), into P (xpad
 * x kpad) in column blocks of xb (the layout of copy/pack.cl; xb = xpad:
 * plain column-major with leading dimension xpad), or with kblk into rows
 * kat.. of blocks kblk deep (kblk 0: kpad; SYR2K's two terms concatenated
 * along k, routines/plan/packed.c).  skip 1 / 2 with
 * skip_off: the GEMM launch reads P only inside its band (band 1|3 / 2|4,
 * band_off), so tiles outside it are not written; 0: all are. */
/* A batch of products whose panels one launch packs (routines/plan/batched.c):
 * `batch` of them, product z's operand at o->off + z*stride (or at entry
 * 4z + col of the device table offs, cl_long), its panel at P + z*pstride
 * elements; a complex B side scaled by scal[6z + 2], scal[6z + 3] when
 * scal is given (real). */
typedef struct {
    size_t batch, stride, pstride;
    cl_mem offs, scal;
    int col;
} g3_pack_batch;

typedef struct {
    const g3_operand *o;
    const g3_pack_batch *bt; /* NULL: one operand */
    int bside;
    size_t x0, k0, xlen, klen;
    cl_mem P;
    size_t xb, xpad, kpad;
    size_t kblk, kat;
    int skip;
    long skip_off;
} g3_pack_job;
/* Packs job j with the copy parameters of set ks. */
gpublas3Status g3_pack(const g3_device *d, const g3_kset *ks, const g3_pack_job *j, g3_chain *chain);
/* P (tight, ld rows) <- the general real rows x cols matrix at X[off], ld
 * ld: a buffer copy on CPUs (copy_direct sets), the copy kernel elsewhere
 * (pack.c says why). */
gpublas3Status g3_copy_tight(const g3_device *d, const g3_kset *ks, cl_mem X, size_t off, size_t ld, size_t rows,
                             size_t cols, cl_mem P, g3_chain *chain);
/* Packs two jobs in one launch (copy/pack.cl's pack2) when both operands
 * are real, else one launch each. */
gpublas3Status g3_pack_pair(const g3_device *d, const g3_kset *ks, const g3_pack_job *a, const g3_pack_job *b,
                            g3_chain *chain);
/* Complex C (M x N complex elements, column-major) <- beta * C on the
 * `tri` triangle (0: all): the pre-pass of a call whose beta is not real. */
gpublas3Status g3_cscale(const g3_device *d, const g3_kset *ks, cl_mem C, size_t offc, size_t ldc,
                         size_t M, size_t N, int tri, const double beta[2], g3_chain *chain);
/* The same over a batch of C (routines/plan/batched.c): bt->batch of them,
 * stride apart or at column 3 of bt->offs, beta from bt->scal when given. */
gpublas3Status g3_cscale_batch(const g3_device *d, const g3_kset *ks, cl_mem C, size_t offc, size_t ldc,
                               size_t M, size_t N, const double beta[2], const g3_pack_batch *bt, g3_chain *chain);
#endif

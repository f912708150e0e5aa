/* SPDX-License-Identifier: BSD-3-Clause */
/* Complex calls (C, Z: GEMM, SYMM, HEMM, SYRK, HERK, SYR2K, HER2K, TRMM)
 * as real ones, so the one real GEMM kernel and the packed path run them.
 *
 * The mapping.  Interleaved complex column-major C (M x N, ldc, offc) is
 * the real 2M x N matrix Cr with leading dimension 2 ldc at offset
 * 2 offc: Cr(2m, n) = Re C(m, n), Cr(2m+1, n) = Im C(m, n).  For one term
 * C += op(A) op(B) (op(A) M x K, op(B) K x N, complex):
 *   Ar (2M x 2K): each a = op(A)(m, k) = x + iy becomes the 2 x 2 block
 *                 [[x, -y], [y, x]] at rows 2m, 2m+1 and columns 2k, 2k+1;
 *   Br (2K x N):  Br(2k, n) = Re op(B)(k, n), Br(2k+1, n) = Im op(B)(k, n);
 * then Cr = Ar Br is exactly the complex product: row 2m of Cr sums
 * x Re b - y Im b = Re(ab), row 2m+1 sums y Re b + x Im b = Im(ab).  So
 * one real GEMM with M' = 2M, N' = N, K' = 2K does the classical product's
 * 8MNK real flops, four real products per complex multiply-add (the
 * classical rounding), and the tensor-core fp64 path serves ZGEMM.  The
 * copy kernel (copy/cpack.cl) builds Ar and Br while packing, conjugating
 * (ConjTrans) and mirroring (symmetric, Hermitian) or zeroing (triangular)
 * as it reads; an op(B) that is S itself (no transpose, no conjugation) is
 * already Br in memory (the real view of S), so the real copy kernel packs
 * it with its fast paths.
 *
 * Scalars.  Real alpha stays the kernel's alpha.  Complex alpha is folded
 * into the B-side pack (Br of alpha op(B)), which is where reference BLAS
 * applies it (temp = alpha*B(l,j), then C(i,j) += temp*A(i,l)), so the
 * kernel's alpha is 1; HER2K's second term takes conj(alpha).  Real beta is
 * the kernel's beta (beta = 0: C is never read); complex beta stays in the
 * real call (beta_im != 0), and the packed path, once its scratch is
 * secured, runs a pre-pass (cscale in copy/cpack.cl) that scales the stored
 * triangle of C, then accumulates with beta = 1.
 *
 * Triangles.  SYRK/HERK/SYR2K/HER2K store one triangle of C: the kernel
 * compares complex rows m' / 2 with n (its `cplx` argument), and for HERK
 * and HER2K (G3_HERMITIAN) writes 0 to the imaginary parts of the diagonal.
 * Its `band` (TRMM) holds as it is for A' (blocks of 2 x 2 align with the
 * even MWG) and counts complex columns k' / 2 of B'.  Both need MWG even. */
#include "plan.h"

/* op(S) is S itself, read as real: its real view is already Br. */
static int real_view(const g3_operand *o)
{
    return !o->trans && !o->conj && !o->scaled && o->shape == G3_GENERAL;
}

void g3_complex_map(const g3_call *c, g3_call *r)
{
    *r = *c;
    r->M = 2 * c->M;
    r->K = 2 * c->K;
    r->offc = 2 * c->offc;
    r->ldc = 2 * c->ldc;
    r->alpha_im = 0;
    int fold = c->alpha_im != 0;
    for (int t = 0; t < c->nterms; t++) {
        r->a[t].cplx = r->b[t].cplx = 1;
        if (fold) {
            r->b[t].scaled = 1;
            r->b[t].scale[0] = c->alpha;
            r->b[t].scale[1] = t == 1 && c->alpha_conj2 ? -c->alpha_im : c->alpha_im;
        }
        if (real_view(&r->b[t]))
            r->b[t] = (g3_operand){ .buf = c->b[t].buf, .off = 2 * c->b[t].off, .ld = 2 * c->b[t].ld };
    }
    if (fold)
        r->alpha = 1;
}

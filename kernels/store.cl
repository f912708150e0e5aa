/* SPDX-License-Identifier: BSD-3-Clause */
/* One element of C, with the triangle mask and beta == 0 honoured: C is
 * column-major at C[offc + m + n*ldc]; tri 1 / 2 stores only mc - n <= /
 * >= tri_off (upper / lower), where mc = m, or m / 2 with cplx: C is then
 * the real view of a complex matrix, two real rows per complex row
 * (routines/plan/complex.c), and cplx 2 (HERK, HER2K) writes the imaginary
 * parts of the diagonal as 0.  beta == 0 never reads C, so NaN there does
 * not survive.  Shared by the GEMM kernel (kernels/gemm.cl), the direct
 * kernel (kernels/direct.cl) and the split-K reduction (kernels/reduce.cl),
 * which include it (lib/cmake/embed.cmake inlines it) after real.cl. */
/* Whether row mc, column n lies in the stored triangle (tri 0: everywhere). */
inline bool in_tri(const int tri, const int tri_off, const int mc, const int n)
{
    return !(tri == 1 && mc - n > tri_off) && !(tri == 2 && mc - n < tri_off);
}

inline void store(__global real *C, const long offc, const long ldc, const int M, const int N,
                  const int tri, const int tri_off, const int cplx, const int m, const int n,
                  const real alpha, const real beta, const real acc)
{
    if (m >= M || n >= N) return;
    const int mc = cplx ? m >> 1 : m;
    if (!in_tri(tri, tri_off, mc, n)) return;
    __global real *c = C + offc + m + n * ldc;
    if (cplx == 2 && (m & 1) && mc - n == tri_off) {
        *c = 0;
        return;
    }
    if (beta == 0)
        *c = alpha * acc;
    else
        *c = alpha * acc + beta * *c;
}

/* The split-K reduction (routines/plan/splitk.c): the GEMM kernel has left
 * `splits` partial products of C, P[s*pslice + m + n*M] = sum over slice s
 * of K, with alpha = 1 and beta = 0; this sums them in slice order -- a
 * fixed order, so the same call gives bit-identical results every time --
 * and stores C <- alpha * sum + beta * C with the triangle mask and
 * beta == 0 honoured (kernels/store.cl).  Partials outside the stored
 * triangle were never written and are never read.  With cs = 1 the rows
 * are a complex matrix's real view (row m holds complex row m / 2: the
 * triangle compares m >> 1 with n); split.c copies a diagonal block's
 * triangle with it (one slice, alpha 1, beta 0).
 * Parameters: PRECISION. */
#include "real.cl"
#include "store.cl"

__kernel void reduce(const int M, const int N, const int splits, const real alpha, const real beta,
                     __global const real *P, const long pslice,
                     __global real *C, const long offc, const long ldc, const int tri, const int cs)
{
    const int m = get_global_id(0), n = get_global_id(1);
    if (m >= M || n >= N) return;
    if (tri == 1 && (m >> cs) > n) return;
    if (tri == 2 && (m >> cs) < n) return;
    __global const real *p = P + m + (long)n * M;
    real sum = p[0];
    for (int s = 1; s < splits; s++)
        sum += p[s * pslice];
    store(C, offc, ldc, M, N, tri, 0, cs, m, n, alpha, beta, sum);
}

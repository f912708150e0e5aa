/* One element of C, with the triangle mask and beta == 0 honoured: C is
 * column-major at C[offc + m + n*ldc]; tri 1 / 2 stores only m - n <= /
 * >= tri_off (upper / lower); beta == 0 never reads C, so NaN there does
 * not survive.  Shared by the direct kernel (kernels/direct.cl) and the
 * split-K reduction (kernels/reduce.cl), which include it
 * (lib/cmake/embed.cmake inlines it) after real.cl. */
inline void put(__global real *C, const long offc, const long ldc, const int M, const int N,
                const int tri, const int tri_off, const int m, const int n,
                const real alpha, const real beta, const real acc)
{
    if (m >= M || n >= N) return;
    if (tri == 1 && m - n > tri_off) return;
    if (tri == 2 && m - n < tri_off) return;
    __global real *c = C + offc + m + n * ldc;
    if (beta == 0)
        *c = alpha * acc;
    else
        *c = alpha * acc + beta * *c;
}

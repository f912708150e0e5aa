/* Elements of C, with the triangle mask and beta == 0 honoured: C is
 * column-major at C[offc + m + n*ldc]; tri 1 / 2 stores only mc - n <= /
 * >= tri_off (upper / lower), where mc = m, or m / 2 with cplx: C is then
 * the real view of a complex matrix, two real rows per complex row
 * (routines/plan/complex.c), and cplx 2 (HERK, HER2K) writes the imaginary
 * parts of the diagonal as 0.  beta == 0 never reads C, so NaN there does
 * not survive.  Shared by the GEMM kernel (kernels/gemm.cl), the direct
 * kernel (kernels/direct.cl) and the split-K reduction (kernels/reduce.cl),
 * which include it (lib/cmake/embed.cmake inlines it) after real.cl.
 *
 * A work-item that owns many elements updates them in two passes: every
 * c_new first (all of C's loads), then every store.  One store() per
 * element would put each load of C behind the previous element's store
 * (C may alias itself for all the compiler knows), a full memory latency
 * per element. */

/* Where C(m, n) is, or 0 when it is not stored (outside C or the triangle). */
inline __global real *c_at(__global real *C, const long offc, const long ldc, const int M, const int N,
                           const int tri, const int tri_off, const int cplx, const int m, const int n)
{
    if (m >= M || n >= N) return 0;
    const int mc = cplx ? m >> 1 : m;
    if (tri == 1 && mc - n > tri_off) return 0;
    if (tri == 2 && mc - n < tri_off) return 0;
    return C + offc + m + n * ldc;
}

/* The value a stored element c = C(m, n) takes. */
inline real c_new(const __global real *c, const int cplx, const int tri_off, const int m, const int n,
                  const real alpha, const real beta, const real acc)
{
    if (cplx == 2 && (m & 1) && (m >> 1) - n == tri_off) return 0;
    return beta == 0 ? alpha * acc : alpha * acc + beta * *c;
}

/* One element at once. */
inline void store(__global real *C, const long offc, const long ldc, const int M, const int N,
                  const int tri, const int tri_off, const int cplx, const int m, const int n,
                  const real alpha, const real beta, const real acc)
{
    __global real *c = c_at(C, offc, ldc, M, N, tri, tri_off, cplx, m, n);
    if (c) *c = c_new(c, cplx, tri_off, m, n, alpha, beta, acc);
}

/* The two passes over a work-item's element x at (m, n), as macros over
 * its accumulators: UPDATE turns x into the value C(m, n) takes (0 when not
 * stored), PUT stores it.  Each expects C, offc, ldc, M, N, tri, tri_off,
 * cplx, alpha and beta in scope. */
#define C_AT(m, n) c_at(C, offc, ldc, M, N, tri, tri_off, cplx, (m), (n))
#define UPDATE(x, m, n)                                                                 \
    do {                                                                                \
        __global real *c_ = C_AT(m, n);                                                 \
        (x) = c_ ? c_new(c_, cplx, tri_off, (m), (n), alpha, beta, (x)) : (real)0;      \
    } while (0)
#define PUT(x, m, n)                                                                    \
    do {                                                                                \
        __global real *c_ = C_AT(m, n);                                                 \
        if (c_) *c_ = (x);                                                              \
    } while (0)

/* The one GEMM kernel: C <- alpha * A'^T * B' + beta * C.
 *
 * A' (K x Mp) and B' (K x Np) come from the copy kernel (copy/pack.cl):
 * k-major rows, zero-padded to whole tiles, so the inner loop runs without
 * bounds checks and every load is contiguous.  The kernel never knows which
 * routine called it: a routine only chooses
 *   - `tri`:  store only one triangle of C (SYRK, SYR2K), and skip the
 *             work-groups that lie wholly in the other;
 *   - `band`: the k-range outside which A' or B' is known to be zero
 *             (TRMM's triangle), so those tiles are never loaded.
 * C is column-major at C[offc + m + n*ldc]; rows >= M, columns >= N and the
 * masked triangle are never read or written, and C is not read when
 * beta == 0, so NaN there does not survive.
 *
 * Parameters arrive as prepended #defines: PRECISION (32|64), MWG, NWG, KWG
 * (work-group tile), MDIMC, NDIMC (work-group shape), SA, SB (stage A', B'
 * through local memory). */
#if PRECISION == 64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
#else
typedef float real;
#endif

#define MWI (MWG / MDIMC)
#define NWI (NWG / NDIMC)
#define NTHREADS (MDIMC * NDIMC)

/* tri: 0 all of C; 1 only m - n <= tri_off (upper); 2 only m - n >= tri_off (lower).
 * band: 0 all k; 1 k <= m + band_off; 2 k >= m + band_off; 3 k <= n + band_off;
 *       4 k >= n + band_off (panel-local indices; band_off carries the panel shift). */
__kernel __attribute__((reqd_work_group_size(MDIMC, NDIMC, 1)))
void gemm(const int M, const int N, const int K, const real alpha, const real beta,
          __global const real *restrict A, const int lda,
          __global const real *restrict B, const int ldb,
          __global real *C, const long offc, const long ldc,
          const int tri, const int tri_off, const int band, const int band_off)
{
    const int tm = get_local_id(0), tn = get_local_id(1);
    const int m0 = get_group_id(0) * MWG, n0 = get_group_id(1) * NWG;
    if (tri == 1 && m0 - (n0 + NWG - 1) > tri_off) return;
    if (tri == 2 && (m0 + MWG - 1) - n0 < tri_off) return;

    int kbeg = 0, kend = K;
    if (band == 1) kend = m0 + MWG + band_off;
    if (band == 2) kbeg = m0 + band_off;
    if (band == 3) kend = n0 + NWG + band_off;
    if (band == 4) kbeg = n0 + band_off;
    kbeg = max(kbeg, 0) / KWG * KWG;
    kend = min((kend + KWG - 1) / KWG * KWG, K);

    real acc[MWI][NWI];
    for (int i = 0; i < MWI; i++)
        for (int j = 0; j < NWI; j++)
            acc[i][j] = 0;

#if SA
    __local real Al[KWG][MWG];
#endif
#if SB
    __local real Bl[KWG][NWG];
#endif
#if SA || SB
    const int tid = tm + tn * MDIMC;
#endif
    for (int k0 = kbeg; k0 < kend; k0 += KWG) {
#if SA
        for (int e = tid; e < KWG * MWG; e += NTHREADS)
            Al[e / MWG][e % MWG] = A[(k0 + e / MWG) * lda + m0 + e % MWG];
#endif
#if SB
        for (int e = tid; e < KWG * NWG; e += NTHREADS)
            Bl[e / NWG][e % NWG] = B[(k0 + e / NWG) * ldb + n0 + e % NWG];
#endif
#if SA || SB
        barrier(CLK_LOCAL_MEM_FENCE);
#endif
        for (int kk = 0; kk < KWG; kk++) {
            real a[MWI], b[NWI];
            /* strided ownership (tm + i*MDIMC): neighbouring work-items read
             * neighbouring addresses, for local banks and for global stores */
            for (int i = 0; i < MWI; i++)
#if SA
                a[i] = Al[kk][tm + i * MDIMC];
#else
                a[i] = A[(k0 + kk) * lda + m0 + tm + i * MDIMC];
#endif
            for (int j = 0; j < NWI; j++)
#if SB
                b[j] = Bl[kk][tn + j * NDIMC];
#else
                b[j] = B[(k0 + kk) * ldb + n0 + tn + j * NDIMC];
#endif
            for (int i = 0; i < MWI; i++)
                for (int j = 0; j < NWI; j++)
                    acc[i][j] += a[i] * b[j];
        }
#if SA || SB
        barrier(CLK_LOCAL_MEM_FENCE);
#endif
    }

    for (int j = 0; j < NWI; j++) {
        const int n = n0 + tn + j * NDIMC;
        for (int i = 0; i < MWI; i++) {
            const int m = m0 + tm + i * MDIMC;
            if (m >= M || n >= N) continue;
            if (tri == 1 && m - n > tri_off) continue;
            if (tri == 2 && m - n < tri_off) continue;
            __global real *c = C + offc + m + n * ldc;
            const real v = alpha * acc[i][j];
            if (beta == 0)
                *c = v;
            else
                *c = v + beta * *c;
        }
    }
}

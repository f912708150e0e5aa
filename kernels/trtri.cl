/* Inverts the diagonal blocks of a triangular matrix T = op(A) for TRSM
 * (routines/plan/solve.c): block g covers rows and columns [g*nb, g*nb+len)
 * of T, len = min(nb, n - g*nb), and its inverse X goes to W as
 *   W[g*nb*nb + i*nb + j] = X(i, j)   (i, j < len),
 * the other triangle of X written as zero: row-major, so that the work-items
 * of a group, one per column j of X, write consecutive addresses; the plan
 * reads it back as the transpose of a column-major nb x nb matrix.
 *
 * T(i, k) = tr ? A(k, i) : A(i, k), A column-major at X[offa + i + k*lda];
 * only T's triangle (`upper` or lower) is read, and with `unit` not its
 * diagonal (taken as 1).  Column j of X is T's substitution applied to e_j:
 * each element is found from the ones already found in the same column,
 * summing only over k where T(i, k) and X(k, j) may both be nonzero, as
 * reference BLAS's TRSM does; a zero diagonal element gives infinities and
 * NaN, as there.  Rows i run in the same order on every work-item, so the
 * group reads T's row i together.  A few work-groups of sequential work:
 * O(n nb^2) flops beside TRSM's O(n^2 m). */
#if PRECISION == 64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
#else
typedef float real;
#endif

__kernel void trtri(__global const real *restrict A, const long offa, const long lda, const int tr,
                    const int upper, const int unit, const int n, const int nb, __global real *restrict W)
{
    const int g = get_group_id(0), b0 = g * nb, len = min(nb, n - b0);
    __global const real *T = A + offa + (long)b0 * (lda + 1);
    const long si = tr ? lda : 1, sk = tr ? 1 : lda; /* T(i, k) = T[i*si + k*sk] */
    __global real *X = W + (long)g * nb * nb;
    for (int j = get_local_id(0); j < len; j += get_local_size(0))
        for (int s = 0; s < len; s++) {
            const int i = upper ? len - 1 - s : s;
            real v = 0;
            if (i == j) {
                v = unit ? (real)1 : 1 / T[i * si + i * sk];
            } else if (upper ? i < j : i > j) {
                const int k0 = upper ? i + 1 : j, k1 = upper ? j : i - 1;
                real sum = 0;
                for (int k = k0; k <= k1; k++)
                    sum += T[i * si + k * sk] * X[k * nb + j];
                v = unit ? -sum : -sum / T[i * si + i * sk];
            }
            X[i * nb + j] = v;
        }
}

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
 * group reads T's row i together.  Each work-item keeps its column of X in
 * private memory too (NB, the host's nb, bounds it) and reads it back from
 * there: the substitution's loads never wait on its own stores to W (on a
 * GPU those go to L2).  A few work-groups of sequential work: O(n nb^2)
 * flops beside TRSM's O(n^2 m).  Complex T (CTRSM, ZTRSM) is
 * inverted in complex arithmetic (COMPLEX=1): inverting its real 2 x 2
 * representation instead would not fit this kernel (that matrix is not
 * triangular: each diagonal element becomes a full 2 x 2 block). */
#include "real.cl"

/* COMPLEX: elements are {re, im} pairs and `cj` conjugates T (ConjTrans).
 * The substitution is the same; only the arithmetic changes. */
#if COMPLEX
typedef real2 elem;
#define ONE ((elem)((real)1, (real)0))
static elem mul(elem a, elem b) { return (elem)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
/* a / b, b scaled first (b's parts may be near the range's ends) */
static elem quot(elem a, elem b)
{
    const real s = fmax(fabs(b.x), fabs(b.y)), x = b.x / s, y = b.y / s, d = x * x + y * y;
    return (elem)((a.x * x + a.y * y) / d, (a.y * x - a.x * y) / d) / s;
}
static elem tel(__global const elem *T, long k, int cj) { elem v = T[k]; return cj ? (elem)(v.x, -v.y) : v; }
#else
typedef real elem;
#define ONE ((real)1)
#define mul(a, b) ((a) * (b))
#define quot(a, b) ((a) / (b))
#define tel(T, k, cj) ((T)[k])
#endif

__kernel void trtri(__global const elem *restrict A, const long offa, const long lda, const int tr,
                    const int cj, const int upper, const int unit, const int n, const int nb,
                    __global elem *restrict W)
{
    const int g = get_group_id(0), b0 = g * nb, len = min(nb, n - b0);
    __global const elem *T = A + offa + (long)b0 * (lda + 1);
    const long si = tr ? lda : 1, sk = tr ? 1 : lda; /* T(i, k) = T[i*si + k*sk] */
    __global elem *X = W + (long)g * nb * nb;
    for (int j = get_local_id(0); j < len; j += get_local_size(0)) {
        elem x[NB]; /* column j of X: x[k] = X(k, j), set before it is read */
        for (int s = 0; s < len; s++) {
            const int i = upper ? len - 1 - s : s;
            elem v = 0;
            if (i == j) {
                v = unit ? ONE : quot(ONE, tel(T, i * si + i * sk, cj));
            } else if (upper ? i < j : i > j) {
                const int k0 = upper ? i + 1 : j, k1 = upper ? j : i - 1;
                elem sum = 0;
                for (int k = k0; k <= k1; k++)
                    sum += mul(tel(T, i * si + k * sk, cj), x[k]);
                v = unit ? -sum : quot(-sum, tel(T, i * si + i * sk, cj));
            }
            x[i] = v;
            X[i * nb + j] = v;
        }
    }
}

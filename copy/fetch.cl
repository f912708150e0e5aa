/* SPDX-License-Identifier: BSD-3-Clause */
/* One element of a structured stored matrix S, read from X (column-major:
 * X[offx + i + j*ldx]) by its structure -- the one place that knows it,
 * shared by the copy kernel (copy/pack.cl) and the direct kernel
 * (kernels/direct.cl), which include this file (lib/cmake/embed.cmake
 * inlines it):
 *   shape 0: general;
 *   shape 1/2: symmetric, stored upper/lower: the other triangle is mirrored,
 *              never read;
 *   shape 3/4: triangular upper/lower: the other triangle is zero, and with
 *              `unit` the diagonal is 1 and never read.
 * The includer has included real.cl. */
real fetch(__global const real *X, long offx, long ldx, int shape, int unit, long i, long j)
{
    const bool upper = shape == 1 || shape == 3;
    const bool stored = upper ? i <= j : i >= j;
    if (shape == 0 || (shape <= 2 && stored) || (shape >= 3 && stored && i != j))
        return X[offx + i + j * ldx];
    if (shape <= 2)
        return X[offx + j + i * ldx];
    if (i == j)
        return unit ? (real)1 : X[offx + i + i * ldx];
    return 0;
}

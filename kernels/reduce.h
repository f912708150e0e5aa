/* SPDX-License-Identifier: BSD-3-Clause */
/* Host side of the split-K reduction (kernels/reduce.cl). */
#ifndef G3_REDUCE_H
#define G3_REDUCE_H
#include "core.h"

/* C (M x N at offc, ldc) <- alpha * (sum of the `splits` partial matrices
 * in P, M x N each, tight, one after another) + beta * C, on triangle tri
 * (cplx: M counts the real rows of a complex matrix, two per complex row). */
gpublas3Status g3_reduce_launch(const g3_device *d, const g3_kset *ks, int dbl, size_t M, size_t N, int splits,
                                double alpha, double beta, cl_mem P, cl_mem C, size_t offc, size_t ldc, int tri,
                                int cplx, g3_chain *chain);
/* C (M x N at offc, ldc) <- alpha * T^T + beta * C, T N x M tight
 * (routines/plan/packed.c's transposed product on CPUs). */
gpublas3Status g3_reduce_transposed(const g3_device *d, const g3_kset *ks, int dbl, size_t M, size_t N,
                                    double alpha, double beta, cl_mem T, cl_mem C, size_t offc, size_t ldc,
                                    g3_chain *chain);
/* C (M x N at offc, ldc) <- X + X^T + beta * C on triangle tri, X M x N
 * tight; cplx as g3_reduce_launch's (N = M / 2), 2 (Hermitian) adding
 * X^H (routines/plan/square.c). */
gpublas3Status g3_reduce_sym(const g3_device *d, const g3_kset *ks, int dbl, size_t M, size_t N, double beta,
                             cl_mem X, cl_mem C, size_t offc, size_t ldc, int tri, int cplx, g3_chain *chain);
#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* What every kernel shares (kernels/gemm.cl, copy/pack.cl, copy/cpack.cl,
 * kernels/direct.cl, kernels/reduce.cl, kernels/trtri.cl include it;
 * lib/cmake/embed.cmake inlines it): the element type from
 * -DPRECISION=32|64 (and real2, a complex element's {re, im}), the unroll pragma, and MAC, a fused
 * multiply-add where the device does it in hardware (exact either way). */
#if PRECISION == 64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
typedef double2 real2;
#else
typedef float real;
typedef float2 real2;
#endif
#define PRAGMA(x) _Pragma(#x)
#define UNROLL_ALL PRAGMA(unroll)
#if (PRECISION == 64 && defined(FP_FAST_FMA)) || (PRECISION == 32 && defined(FP_FAST_FMAF))
#define MAC(a, b, c) fma(a, b, c)
#else
#define MAC(a, b, c) ((a) * (b) + (c))
#endif

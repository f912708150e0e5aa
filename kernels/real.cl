/* What the kernels other than GEMM's share (copy/pack.cl, kernels/direct.cl,
 * kernels/reduce.cl include it; lib/cmake/embed.cmake inlines it): the
 * element type from -DPRECISION=32|64, the unroll pragma, and MAC, a fused
 * multiply-add where the device does it in hardware (exact either way). */
#if PRECISION == 64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
#else
typedef float real;
#endif
#define PRAGMA(x) _Pragma(#x)
#define UNROLL_ALL PRAGMA(unroll)
#if (PRECISION == 64 && defined(FP_FAST_FMA)) || (PRECISION == 32 && defined(FP_FAST_FMAF))
#define MAC(a, b, c) fma(a, b, c)
#else
#define MAC(a, b, c) ((a) * (b) + (c))
#endif

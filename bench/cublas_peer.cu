/* SPDX-License-Identifier: BSD-3-Clause */
/* cublas_peer: the cuBLAS peer of gpublas3-bench, for NVIDIA machines.  It
 * times cuBLAS's S/D GEMM, SYMM, SYRK, SYR2K and TRMM at the benchmark's
 * default options (column-major, NoTrans, Left, Upper, NonUnit), and TRSM Left,
 * Lower, NoTrans, NonUnit (run_trsm; gpublas3-bench with --uplo L), on squares
 * (--sizes) or on the benchmark's shapes (--shapes, --suite: bench/shapes.h;
 * a shape's transposes apply as gpublas3-bench applies them) with the same
 * method — random data in [-1,1], one checked warm-up call,
 * then the median of `reps` calls timed by the wall clock between
 * cudaDeviceSynchronize, output restored before each call, transfers
 * excluded — and writes the same CSV schema, so plot.py can put it next to
 * gpublas3-bench's results.  Full precision only: CUBLAS_DEFAULT_MATH (or
 * --pedantic) with NVIDIA_TF32_OVERRIDE=0, so FP32 never runs as TF32; FP64
 * may use the FP64 tensor cores, which are exact FP64.  The check samples
 * elements against a host dot product with the per-element bound
 * 3(K+2)eps(|alpha||op(A)||op(B)| + |beta||C|), which TF32 would fail.
 *
 * Complex (--precisions c,z): CGEMM/ZGEMM, C/Z SYMM, HEMM, SYRK, HERK,
 * SYR2K, HER2K and TRMM at the same options, flops counted 4x the real
 * routine's (8mnk for GEMM), checked the same way in complex arithmetic
 * (run_complex below); C/Z TRSM as the real one (run_trsm); squares only
 * (a shape run skips them).
 *
 * Batched GEMM (--batch B): GEMM cases run as cublas?gemmStridedBatched of B
 * products, each operand's products one after another (tight strides, as
 * gpublas3-bench --batch makes them), in all four precisions, flops B times
 * one product's, sampled elements of sampled products checked.
 *
 * Build: nvcc -O2 -o cublas_peer bench/cublas_peer.cu bench/shapes.c -lcublas
 * Run:   ./cublas_peer --sizes 1024,4096,8192 --reps 5 --csv cublas.csv
 *        ./cublas_peer --suite shapes --csv cublas-shapes.csv */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <complex>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>
#include <unistd.h>
#include "shapes.h"

enum { GEMM, SYMM, SYRK, SYR2K, TRMM, TRSM, HEMM, HERK, HER2K, NROUTINES };  /* the last three complex only */
static const char *names[NROUTINES] = { "gemm", "symm", "syrk", "syr2k", "trmm", "trsm", "hemm", "herk", "her2k" };

#define CUDA_OK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "cublas_peer: %s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

static double now_s()
{
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* The benchmark's generator: splitmix64, uniform in [-1, 1], never zero. */
static double next_value(unsigned long long *s)
{
    unsigned long long z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    double v = 2.0 * ((double)(z >> 11) * 0x1.0p-53) - 1.0;
    return v == 0.0 ? 0.5 : v;
}

/* One case: the routine's dimensions as its argument list names them
 * (GEMM M N K; SYMM, TRMM M N with A M x M, side Left; SYRK, SYR2K N K),
 * op(A) and op(B), and what the table and CSV call it. */
struct Case {
    int r;
    int M, N, K;
    cublasOperation_t ta, tb;
    std::string options, dims, group;
    /* rows x cols of A and B as stored, and of the output */
    int arows() const { return r == GEMM ? (ta == CUBLAS_OP_N ? M : K) : (r == SYMM || r == TRMM) ? M : (ta == CUBLAS_OP_N ? N : K); }
    int acols() const { return r == GEMM ? (ta == CUBLAS_OP_N ? K : M) : (r == SYMM || r == TRMM) ? M : (ta == CUBLAS_OP_N ? K : N); }
    int brows() const { return r == GEMM ? (tb == CUBLAS_OP_N ? K : N) : r == SYR2K ? arows() : M; }
    int bcols() const { return r == GEMM ? (tb == CUBLAS_OP_N ? N : K) : r == SYR2K ? acols() : N; }
    int crows() const { return r == SYRK || r == SYR2K ? N : M; }
    double flops() const
    {
        switch (r) {
        case GEMM: return 2.0 * M * N * K;
        case SYMM: return 2.0 * M * M * N;
        case SYRK: return (double)N * (N + 1) * K;
        case SYR2K: return 2.0 * N * (N + 1) * K;
        default: return (double)M * M * N;
        }
    }
};

/* cuBLAS's S and D entry points by precision, so the call is written once. */
template <typename T> struct Blas;
template <> struct Blas<float> {
    static constexpr auto gemm = cublasSgemm; static constexpr auto symm = cublasSsymm;
    static constexpr auto syrk = cublasSsyrk; static constexpr auto syr2k = cublasSsyr2k;
    static constexpr auto trmm = cublasStrmm;
};
template <> struct Blas<double> {
    static constexpr auto gemm = cublasDgemm; static constexpr auto symm = cublasDsymm;
    static constexpr auto syrk = cublasDsyrk; static constexpr auto syr2k = cublasDsyr2k;
    static constexpr auto trmm = cublasDtrmm;
};

template <typename T>
static cublasStatus_t call(cublasHandle_t h, const Case &c, T al, const T *A, const T *B, T be, T *C)
{
    int lda = c.arows(), ldb = c.brows(), ldc = c.crows();
    switch (c.r) {
    case GEMM: return Blas<T>::gemm(h, c.ta, c.tb, c.M, c.N, c.K, &al, A, lda, B, ldb, &be, C, ldc);
    case SYMM: return Blas<T>::symm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, c.M, c.N, &al, A, lda, B, ldb, &be, C, ldc);
    case SYRK: return Blas<T>::syrk(h, CUBLAS_FILL_MODE_UPPER, c.ta, c.N, c.K, &al, A, lda, &be, C, ldc);
    case SYR2K: return Blas<T>::syr2k(h, CUBLAS_FILL_MODE_UPPER, c.ta, c.N, c.K, &al, A, lda, B, ldb, &be, C, ldc);
    default:   /* in place, as BLAS: B <- alpha*op(A)*B */
        return Blas<T>::trmm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, c.ta, CUBLAS_DIAG_NON_UNIT, c.M, c.N,
                             &al, A, lda, C, ldc, C, ldc);
    }
}

/* Element (i, j) of op(X) for X stored rows x cols, column-major, tight. */
template <typename T>
static double op(const T *X, int rows, cublasOperation_t t, int i, int j)
{
    return t == CUBLAS_OP_N ? (double)X[i + (size_t)j * rows] : (double)X[j + (size_t)i * rows];
}

/* Element (i, j) of the result from the host operands, and its error scale
 * (the same sum on absolute values).  For TRMM, `C` is the original B. */
template <typename T>
static void element(const Case &c, double al, double be, const T *A, const T *B, const T *C, int i, int j,
                    double *val, double *scale)
{
    double s = 0, a = 0;
    int depth = c.r == GEMM || c.r == SYRK || c.r == SYR2K ? c.K : c.M, ar = c.arows(), br = c.brows();
    for (int k = 0; k < depth; k++) {
        double x, y, x2 = 0, y2 = 0;
        switch (c.r) {
        case GEMM: x = op(A, ar, c.ta, i, k); y = op(B, br, c.tb, k, j); break;
        case SYMM: x = i <= k ? A[i + (size_t)k * ar] : A[k + (size_t)i * ar]; y = B[k + (size_t)j * br]; break;
        case SYRK: x = op(A, ar, c.ta, i, k); y = op(A, ar, c.ta, j, k); break;
        case SYR2K:
            x = op(A, ar, c.ta, i, k); y = op(B, br, c.ta, j, k);
            x2 = op(B, br, c.ta, i, k); y2 = op(A, ar, c.ta, j, k);
            break;
        default:   /* upper A: op(A)(i, k) is stored where row <= column */
            x = (c.ta == CUBLAS_OP_N ? k >= i : k <= i) ? op(A, ar, c.ta, i, k) : 0.0;
            y = C[k + (size_t)j * c.M];
            break;
        }
        s += x * y + x2 * y2;
        a += fabs(x * y) + fabs(x2 * y2);
    }
    double cij = c.r == TRMM ? 0.0 : (double)C[i + (size_t)j * c.crows()];
    *val = al * s + (c.r == TRMM ? 0.0 : be * cij);
    *scale = fabs(al) * a + (c.r == TRMM ? 0.0 : fabs(be) * fabs(cij));
}

typedef std::complex<double> cd;   /* the checks' arithmetic */

struct Result { double min_s = 0, median_s = 0, gflops = 0, err = 0; int reps = 0; std::string status; };

/* TRSM, side Left, Lower, NoTrans, NonUnit (gpublas3-bench --uplo L's case), B <- alpha
 * inv(A) B in place, in all four precisions.  A as gpublas3-bench makes it
 * (tests/common/spec.c, spec_condition): diagonal sign(v)(1+|v|), every
 * other part v/order with order n (real) or 2n (complex: the diagonal's
 * imaginary part too), so it is well-conditioned; the check is the
 * residual of sampled elements, |(A X)(i,j) - alpha B(i,j)| <=
 * 3(order+2)eps(|A||X| + |alpha B|)(i,j). */
static cublasStatus_t trsm(cublasHandle_t h, int n, float al, const float *A, float *B)
{
    return cublasStrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, n, &al,
                       A, n, B, n);
}
static cublasStatus_t trsm(cublasHandle_t h, int n, double al, const double *A, double *B)
{
    return cublasDtrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, n, &al,
                       A, n, B, n);
}
static cublasStatus_t trsm(cublasHandle_t h, int n, std::complex<float> al, const std::complex<float> *A,
                           std::complex<float> *B)
{
    cuComplex a = make_cuComplex(al.real(), al.imag());
    return cublasCtrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, n, &a,
                       (const cuComplex *)A, n, (cuComplex *)B, n);
}
static cublasStatus_t trsm(cublasHandle_t h, int n, std::complex<double> al, const std::complex<double> *A,
                           std::complex<double> *B)
{
    cuDoubleComplex a = make_cuDoubleComplex(al.real(), al.imag());
    return cublasZtrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, n, &a,
                       (const cuDoubleComplex *)A, n, (cuDoubleComplex *)B, n);
}

/* An element from its parts: complex T takes both, real T the first. */
template <typename R> static void set(R &x, double re, double) { x = (R)re; }
template <typename R> static void set(std::complex<R> &x, double re, double im) { x = std::complex<R>((R)re, (R)im); }
template <typename T> struct Parts { typedef T R; enum { n = 1 }; };
template <typename R_> struct Parts<std::complex<R_>> { typedef R_ R; enum { n = 2 }; };

/* Times `reps` calls of `call`, each after `reset` restores the output and
 * the device is idle, and fills res with the median and min and the rate
 * of `flops` per call. */
template <typename Reset, typename Call>
static void time_calls(Result &res, int reps, double flops, Reset reset, Call call)
{
    std::vector<double> t;
    /* untimed calls for 20 ms first: the GPU's clocks fall while the host
     * checks (bench.c's WARM_S) */
    double warm0 = now_s();
    for (int k = 0; k < 256 && now_s() - warm0 < 0.02; k++) {
        reset();
        call();
        CUDA_OK(cudaDeviceSynchronize());
    }
    for (int k = 0; k < reps; k++) {
        reset();
        CUDA_OK(cudaDeviceSynchronize());
        double t0 = now_s();
        call();
        CUDA_OK(cudaDeviceSynchronize());
        t.push_back(now_s() - t0);
    }
    std::sort(t.begin(), t.end());
    res.reps = reps;
    res.min_s = t[0];
    res.median_s = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
    res.gflops = flops / res.median_s * 1e-9;
    res.status = "ok";
}

template <typename T>
static Result run_trsm(cublasHandle_t h, int n, int reps, double alpha, unsigned long long *seed)
{
    const int nc = Parts<T>::n;   /* reals per element */
    Result res;
    size_t nn = (size_t)n * n, bytes = nn * sizeof(T);
    double order = (double)nc * n;
    std::vector<T> A(nn), B(nn), X(nn);
    for (size_t j = 0; j < (size_t)n; j++)
        for (size_t i = 0; i < (size_t)n; i++) {
            double re = next_value(seed), im = nc == 2 ? next_value(seed) : 0.0;
            set(A[i + j * n], i == j ? copysign(1 + fabs(re), re) : re / order, im / order);
        }
    for (auto &x : B) {
        double re = next_value(seed);
        set(x, re, nc == 2 ? next_value(seed) : 0.0);
    }
    T *dA, *dB;
    CUDA_OK(cudaMalloc(&dA, bytes));
    CUDA_OK(cudaMalloc(&dB, bytes));
    CUDA_OK(cudaMemcpy(dA, A.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dB, B.data(), bytes, cudaMemcpyHostToDevice));
    cublasStatus_t st = trsm(h, n, (T)alpha, dA, dB);
    CUDA_OK(cudaDeviceSynchronize());
    if (st != CUBLAS_STATUS_SUCCESS) {
        res.status = "ERROR: cuBLAS status " + std::to_string((int)st);
    } else {
        CUDA_OK(cudaMemcpy(X.data(), dB, bytes, cudaMemcpyDeviceToHost));
        double bound = 3.0 * (order + 2) * (sizeof(typename Parts<T>::R) == 4 ? FLT_EPSILON : DBL_EPSILON);
        int bad = 0;
        for (int s = 0; s < 256; s++) {
            int i = (int)((next_value(seed) + 1) * 0.5 * n) % n, j = (int)((next_value(seed) + 1) * 0.5 * n) % n;
            cd r = -alpha * cd(B[i + (size_t)j * n]);
            double scale = std::abs(r);
            for (int k = 0; k <= i; k++) {
                cd p = cd(A[i + (size_t)k * n]) * cd(X[k + (size_t)j * n]);
                r += p;
                scale += std::abs(p);
            }
            double e = std::abs(r) / (scale > 0 ? scale : 1);
            bad += !(e <= bound);
            if (e > res.err || e != e) res.err = e;
        }
        if (bad)
            res.status = "FAIL: " + std::to_string(bad) + " of 256 sampled residuals over the bound";
        else
            time_calls(res, reps, (nc == 2 ? 4.0 : 1.0) * n * n * n,
                       [&] { CUDA_OK(cudaMemcpy(dB, B.data(), bytes, cudaMemcpyHostToDevice)); },
                       [&] { trsm(h, n, (T)alpha, dA, dB); });
    }
    cudaFree(dA);
    cudaFree(dB);
    return res;
}

template <typename T>
static Result run(cublasHandle_t h, const Case &c, int reps, double alpha, double beta, unsigned long long *seed)
{
    Result res;
    size_t na = (size_t)c.arows() * c.acols(), nb = (size_t)c.brows() * c.bcols(), nc = (size_t)c.crows() * c.N;
    int rows = c.crows(), cols = c.N;
    std::vector<T> A(na), B(nb), C(nc), got(nc);
    for (auto &x : A) x = (T)next_value(seed);
    for (auto &x : B) x = (T)next_value(seed);
    for (auto &x : C) x = (T)next_value(seed);
    const std::vector<T> &out0 = c.r == TRMM ? B : C;   /* the output operand before the call */
    size_t outbytes = out0.size() * sizeof(T);
    T *dA, *dB, *dC;
    CUDA_OK(cudaMalloc(&dA, na * sizeof(T)));
    CUDA_OK(cudaMalloc(&dB, nb * sizeof(T)));
    CUDA_OK(cudaMalloc(&dC, nc * sizeof(T)));
    CUDA_OK(cudaMemcpy(dA, A.data(), na * sizeof(T), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dB, B.data(), nb * sizeof(T), cudaMemcpyHostToDevice));
    T *dOut = c.r == TRMM ? dB : dC;

    /* checked warm-up call */
    CUDA_OK(cudaMemcpy(dOut, out0.data(), outbytes, cudaMemcpyHostToDevice));
    cublasStatus_t st = call(h, c, (T)alpha, dA, dB, (T)beta, dOut);
    CUDA_OK(cudaDeviceSynchronize());
    if (st != CUBLAS_STATUS_SUCCESS) {
        res.status = "ERROR: cuBLAS status " + std::to_string((int)st);
    } else {
        got.resize(out0.size());
        CUDA_OK(cudaMemcpy(got.data(), dOut, outbytes, cudaMemcpyDeviceToHost));
        double eps = sizeof(T) == 4 ? FLT_EPSILON : DBL_EPSILON;
        int depth = c.r == GEMM || c.r == SYRK || c.r == SYR2K ? c.K : c.M;
        double bound = 3.0 * ((c.r == SYR2K ? 2 * depth : depth) + 2) * eps;
        int bad = 0;
        char msg[256] = "";
        for (int s = 0; s < 256; s++) {
            int i = (int)((next_value(seed) + 1) * 0.5 * rows) % rows, j = (int)((next_value(seed) + 1) * 0.5 * cols) % cols;
            size_t at = i + (size_t)j * rows;
            if ((c.r == SYRK || c.r == SYR2K) && i > j) {   /* the lower triangle must come back untouched */
                if (memcmp(&got[at], &out0[at], sizeof(T)) && !bad++)
                    snprintf(msg, sizeof msg, "C(%d,%d) in the other triangle changed", i, j);
                continue;
            }
            double ref, scale;
            element(c, alpha, beta, A.data(), B.data(), c.r == TRMM ? B.data() : C.data(), i, j, &ref, &scale);
            double e = fabs((double)got[at] - ref) / (scale > 0 ? scale : 1);
            if (!(e <= bound) && !bad++)
                snprintf(msg, sizeof msg, "(%d,%d): got %.9g, expected %.9g", i, j, (double)got[at], ref);
            if (e > res.err || e != e) res.err = e;
        }
        if (bad) {
            res.status = "FAIL: " + std::to_string(bad) + " of 256 sampled elements; " + msg;
        } else {
            time_calls(res, reps, c.flops(),
                       [&] { CUDA_OK(cudaMemcpy(dOut, out0.data(), outbytes, cudaMemcpyHostToDevice)); },
                       [&] { call(h, c, (T)alpha, dA, dB, (T)beta, dOut); });
        }
    }
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    return res;
}

/* ---- complex ------------------------------------------------------------ */
static bool make_case(int r, const bench_shape *s, int n, struct Case *c);

static cublasStatus_t ccall(cublasHandle_t h, int r, int n, cd al, cd be, const std::complex<float> *hA,
                            const std::complex<float> *hB, std::complex<float> *hC)
{
    const cuComplex *A = (const cuComplex *)hA, *B = (const cuComplex *)hB;
    cuComplex *C = (cuComplex *)hC;
    cuComplex a = make_cuComplex((float)al.real(), (float)al.imag()), b = make_cuComplex((float)be.real(), (float)be.imag());
    float ra = (float)al.real(), rb = (float)be.real();
    const cublasFillMode_t U = CUBLAS_FILL_MODE_UPPER;
    switch (r) {
    case GEMM: return cublasCgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &a, A, n, B, n, &b, C, n);
    case SYMM: return cublasCsymm(h, CUBLAS_SIDE_LEFT, U, n, n, &a, A, n, B, n, &b, C, n);
    case HEMM: return cublasChemm(h, CUBLAS_SIDE_LEFT, U, n, n, &a, A, n, B, n, &b, C, n);
    case SYRK: return cublasCsyrk(h, U, CUBLAS_OP_N, n, n, &a, A, n, &b, C, n);
    case HERK: return cublasCherk(h, U, CUBLAS_OP_N, n, n, &ra, A, n, &rb, C, n);
    case SYR2K: return cublasCsyr2k(h, U, CUBLAS_OP_N, n, n, &a, A, n, B, n, &b, C, n);
    case HER2K: return cublasCher2k(h, U, CUBLAS_OP_N, n, n, &a, A, n, B, n, &rb, C, n);
    default: return cublasCtrmm(h, CUBLAS_SIDE_LEFT, U, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, n, &a, A, n, C, n, C, n);
    }
}
static cublasStatus_t ccall(cublasHandle_t h, int r, int n, cd al, cd be, const cd *hA, const cd *hB, cd *hC)
{
    const cuDoubleComplex *A = (const cuDoubleComplex *)hA, *B = (const cuDoubleComplex *)hB;
    cuDoubleComplex *C = (cuDoubleComplex *)hC;
    cuDoubleComplex a = make_cuDoubleComplex(al.real(), al.imag()), b = make_cuDoubleComplex(be.real(), be.imag());
    double ra = al.real(), rb = be.real();
    const cublasFillMode_t U = CUBLAS_FILL_MODE_UPPER;
    switch (r) {
    case GEMM: return cublasZgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &a, A, n, B, n, &b, C, n);
    case SYMM: return cublasZsymm(h, CUBLAS_SIDE_LEFT, U, n, n, &a, A, n, B, n, &b, C, n);
    case HEMM: return cublasZhemm(h, CUBLAS_SIDE_LEFT, U, n, n, &a, A, n, B, n, &b, C, n);
    case SYRK: return cublasZsyrk(h, U, CUBLAS_OP_N, n, n, &a, A, n, &b, C, n);
    case HERK: return cublasZherk(h, U, CUBLAS_OP_N, n, n, &ra, A, n, &rb, C, n);
    case SYR2K: return cublasZsyr2k(h, U, CUBLAS_OP_N, n, n, &a, A, n, B, n, &b, C, n);
    case HER2K: return cublasZher2k(h, U, CUBLAS_OP_N, n, n, &a, A, n, B, n, &rb, C, n);
    default: return cublasZtrmm(h, CUBLAS_SIDE_LEFT, U, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, n, &a, A, n, C, n, C, n);
    }
}

/* Element (i, j) of a complex result and its error scale, as element()
 * does it for the real routines; Hermitian A reads the real part of its
 * diagonal, HERK/HER2K take C's diagonal as real. */
template <typename T>
static void celement(int r, int n, cd al, cd be, const T *A, const T *B, const T *C, int i, int j, cd *val,
                     double *scale)
{
    auto at = [n](const T *M, int x, int y) { return cd(M[x + (size_t)y * n]); };
    cd s = 0, s2 = 0;
    double a = 0;
    for (int k = 0; k < n; k++) {
        cd x, y, x2 = 0, y2 = 0;
        switch (r) {
        case GEMM: x = at(A, i, k); y = at(B, k, j); break;
        case SYMM: x = i <= k ? at(A, i, k) : at(A, k, i); y = at(B, k, j); break;
        case HEMM: x = i < k ? at(A, i, k) : i > k ? std::conj(at(A, k, i)) : cd(at(A, i, i).real()); y = at(B, k, j); break;
        case SYRK: x = at(A, i, k); y = at(A, j, k); break;
        case HERK: x = at(A, i, k); y = std::conj(at(A, j, k)); break;
        case SYR2K: x = at(A, i, k); y = at(B, j, k); x2 = at(B, i, k); y2 = at(A, j, k); break;
        case HER2K: x = at(A, i, k); y = std::conj(at(B, j, k)); x2 = at(B, i, k); y2 = std::conj(at(A, j, k)); break;
        default: x = k >= i ? at(A, i, k) : 0.0; y = at(C, k, j); break;
        }
        s += x * y;
        s2 += x2 * y2;
        a += std::abs(x) * std::abs(y) + std::abs(x2) * std::abs(y2);
    }
    cd c = r == TRMM ? 0.0 : at(C, i, j);
    if ((r == HERK || r == HER2K) && i == j) c = c.real();
    *val = al * s + (r == HER2K ? std::conj(al) : al) * s2 + be * c;
    *scale = std::abs(al) * a + std::abs(be) * std::abs(c);
}

/* run<T>'s method for complex T = std::complex<float | double>. */
template <typename R>
static Result run_complex(cublasHandle_t h, int r, int n, int reps, double alpha, double beta, unsigned long long *seed)
{
    typedef std::complex<R> T;
    Result res;
    size_t nn = (size_t)n * n, bytes = nn * sizeof(T);
    std::vector<T> A(nn), B(nn), C(nn), got(nn);
    for (auto *v : { &A, &B, &C })
        for (auto &x : *v) {
            R re = (R)next_value(seed);
            x = T(re, (R)next_value(seed));
        }
    const std::vector<T> &out0 = r == TRMM ? B : C;
    T *dA, *dB, *dC;
    CUDA_OK(cudaMalloc(&dA, bytes));
    CUDA_OK(cudaMalloc(&dB, bytes));
    CUDA_OK(cudaMalloc(&dC, bytes));
    CUDA_OK(cudaMemcpy(dA, A.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dB, B.data(), bytes, cudaMemcpyHostToDevice));
    T *dOut = r == TRMM ? dB : dC;
    CUDA_OK(cudaMemcpy(dOut, out0.data(), bytes, cudaMemcpyHostToDevice));
    cublasStatus_t st = ccall(h, r, n, alpha, beta, dA, dB, dOut);
    CUDA_OK(cudaDeviceSynchronize());
    if (st != CUBLAS_STATUS_SUCCESS) {
        res.status = "ERROR: cuBLAS status " + std::to_string((int)st);
    } else {
        CUDA_OK(cudaMemcpy(got.data(), dOut, bytes, cudaMemcpyDeviceToHost));
        double eps = sizeof(R) == 4 ? FLT_EPSILON : DBL_EPSILON;
        int two = r == SYR2K || r == HER2K, tri = r == SYRK || r == HERK || two;
        double bound = 3.0 * (2 * (two ? 2 * n : n) + 2) * eps;
        int bad = 0;
        char msg[256] = "";
        for (int s = 0; s < 256; s++) {
            int i = (int)((next_value(seed) + 1) * 0.5 * n) % n, j = (int)((next_value(seed) + 1) * 0.5 * n) % n;
            size_t x = i + (size_t)j * n;
            if (tri && i > j) {
                if (memcmp(&got[x], &out0[x], sizeof(T)) && !bad++)
                    snprintf(msg, sizeof msg, "C(%d,%d) in the other triangle changed", i, j);
                continue;
            }
            cd ref;
            double scale;
            celement(r, n, alpha, beta, A.data(), B.data(), r == TRMM ? B.data() : C.data(), i, j, &ref, &scale);
            double e = std::abs(cd(got[x]) - ref) / (scale > 0 ? scale : 1);
            if ((r == HERK || r == HER2K) && i == j && got[x].imag() != 0) e = INFINITY;
            if (!(e <= bound) && !bad++)
                snprintf(msg, sizeof msg, "(%d,%d): got %.9g%+.9gi, expected %.9g%+.9gi", i, j, (double)got[x].real(),
                         (double)got[x].imag(), ref.real(), ref.imag());
            if (e > res.err || e != e) res.err = e;
        }
        if (bad) {
            res.status = "FAIL: " + std::to_string(bad) + " of 256 sampled elements; " + msg;
        } else {
            Case sq;
            make_case(r == HEMM ? SYMM : r == HERK ? SYRK : r == HER2K ? SYR2K : r, NULL, n, &sq);
            time_calls(res, reps, 4 * sq.flops(),
                       [&] { CUDA_OK(cudaMemcpy(dOut, out0.data(), bytes, cudaMemcpyHostToDevice)); },
                       [&] { ccall(h, r, n, alpha, beta, dA, dB, dOut); });
        }
    }
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    return res;
}

/* cuBLAS's strided batched GEMM by element type. */
static cublasStatus_t bgemm(cublasHandle_t h, const Case &c, float al, const float *A, long long sa, const float *B,
                            long long sb, float be, float *C, long long sc, int n)
{
    return cublasSgemmStridedBatched(h, c.ta, c.tb, c.M, c.N, c.K, &al, A, c.arows(), sa, B, c.brows(), sb, &be, C,
                                     c.crows(), sc, n);
}
static cublasStatus_t bgemm(cublasHandle_t h, const Case &c, double al, const double *A, long long sa,
                            const double *B, long long sb, double be, double *C, long long sc, int n)
{
    return cublasDgemmStridedBatched(h, c.ta, c.tb, c.M, c.N, c.K, &al, A, c.arows(), sa, B, c.brows(), sb, &be, C,
                                     c.crows(), sc, n);
}
static cublasStatus_t bgemm(cublasHandle_t h, const Case &c, std::complex<float> al, const std::complex<float> *A,
                            long long sa, const std::complex<float> *B, long long sb, std::complex<float> be,
                            std::complex<float> *C, long long sc, int n)
{
    cuComplex a = make_cuComplex(al.real(), al.imag()), b = make_cuComplex(be.real(), be.imag());
    return cublasCgemmStridedBatched(h, c.ta, c.tb, c.M, c.N, c.K, &a, (const cuComplex *)A, c.arows(), sa,
                                     (const cuComplex *)B, c.brows(), sb, &b, (cuComplex *)C, c.crows(), sc, n);
}
static cublasStatus_t bgemm(cublasHandle_t h, const Case &c, std::complex<double> al, const std::complex<double> *A,
                            long long sa, const std::complex<double> *B, long long sb, std::complex<double> be,
                            std::complex<double> *C, long long sc, int n)
{
    cuDoubleComplex a = make_cuDoubleComplex(al.real(), al.imag()), b = make_cuDoubleComplex(be.real(), be.imag());
    return cublasZgemmStridedBatched(h, c.ta, c.tb, c.M, c.N, c.K, &a, (const cuDoubleComplex *)A, c.arows(), sa,
                                     (const cuDoubleComplex *)B, c.brows(), sb, &b, (cuDoubleComplex *)C, c.crows(),
                                     sc, n);
}

/* A GEMM case as a strided batch of `batch` products, checked on 256
 * sampled elements of sampled products (complex T: real alpha and beta). */
template <typename T>
static Result run_batched(cublasHandle_t h, const Case &c, int batch, int reps, double alpha, double beta,
                          unsigned long long *seed)
{
    const int nc = Parts<T>::n;
    Result res;
    long long sa = (long long)c.arows() * c.acols(), sb = (long long)c.brows() * c.bcols(), sc = (long long)c.crows() * c.N;
    size_t na = sa * batch, nb = sb * batch, nn = sc * batch;
    std::vector<T> A(na), B(nb), C(nn), got(nn);
    for (auto *v : { &A, &B, &C })
        for (auto &x : *v) {
            double re = next_value(seed);
            set(x, re, nc == 2 ? next_value(seed) : 0.0);
        }
    T *dA, *dB, *dC;
    CUDA_OK(cudaMalloc(&dA, na * sizeof(T)));
    CUDA_OK(cudaMalloc(&dB, nb * sizeof(T)));
    CUDA_OK(cudaMalloc(&dC, nn * sizeof(T)));
    CUDA_OK(cudaMemcpy(dA, A.data(), na * sizeof(T), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dB, B.data(), nb * sizeof(T), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dC, C.data(), nn * sizeof(T), cudaMemcpyHostToDevice));
    T al, be;
    set(al, alpha, 0.0);
    set(be, beta, 0.0);
    cublasStatus_t st = bgemm(h, c, al, dA, sa, dB, sb, be, dC, sc, batch);
    CUDA_OK(cudaDeviceSynchronize());
    if (st != CUBLAS_STATUS_SUCCESS) {
        res.status = "ERROR: cuBLAS status " + std::to_string((int)st);
    } else {
        CUDA_OK(cudaMemcpy(got.data(), dC, nn * sizeof(T), cudaMemcpyDeviceToHost));
        double bound = 3.0 * (nc * c.K + 2) * (sizeof(typename Parts<T>::R) == 4 ? FLT_EPSILON : DBL_EPSILON);
        int ar = c.arows(), br = c.brows(), rows = c.crows(), bad = 0;
        for (int s = 0; s < 256; s++) {
            int p = (int)((next_value(seed) + 1) * 0.5 * batch) % batch;
            int i = (int)((next_value(seed) + 1) * 0.5 * rows) % rows, j = (int)((next_value(seed) + 1) * 0.5 * c.N) % c.N;
            const T *a = A.data() + p * sa, *b = B.data() + p * sb;
            cd sum = 0;
            double scale = 0;
            for (int k = 0; k < c.K; k++) {
                cd x = c.ta == CUBLAS_OP_N ? cd(a[i + (size_t)k * ar]) : cd(a[k + (size_t)i * ar]);
                cd y = c.tb == CUBLAS_OP_N ? cd(b[k + (size_t)j * br]) : cd(b[j + (size_t)k * br]);
                sum += x * y;
                scale += std::abs(x) * std::abs(y);
            }
            size_t at = p * sc + i + (size_t)j * rows;
            cd ref = alpha * sum + beta * cd(C[at]);
            scale = fabs(alpha) * scale + fabs(beta) * std::abs(cd(C[at]));
            double e = std::abs(cd(got[at]) - ref) / (scale > 0 ? scale : 1);
            bad += !(e <= bound);
            if (e > res.err || e != e) res.err = e;
        }
        if (bad)
            res.status = "FAIL: " + std::to_string(bad) + " of 256 sampled elements over the bound";
        else
            time_calls(res, reps, (nc == 2 ? 4.0 : 1.0) * batch * c.flops(),
                       [&] { CUDA_OK(cudaMemcpy(dC, C.data(), nn * sizeof(T), cudaMemcpyHostToDevice)); },
                       [&] { bgemm(h, c, al, dA, sa, dB, sb, be, dC, sc, batch); });
    }
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    return res;
}

/* The cases of a run: squares, or shapes where they apply (as in
 * gpublas3-bench's case_dims, Left side only). */
static bool make_case(int r, const bench_shape *s, int n, Case *c)
{
    const char *tn[] = { "N", "T" };
    bool shaped = s != NULL;
    c->r = r;
    c->M = shaped ? (int)s->M : n;
    c->N = shaped ? (int)s->N : n;
    c->K = shaped ? (int)s->K : n;
    c->ta = shaped && s->ta == 'T' ? CUBLAS_OP_T : CUBLAS_OP_N;
    c->tb = shaped && s->tb == 'T' ? CUBLAS_OP_T : CUBLAS_OP_N;
    const char *a = tn[c->ta == CUBLAS_OP_T], *b = tn[c->tb == CUBLAS_OP_T];
    char buf[96];
    switch (r) {
    case GEMM: snprintf(buf, sizeof buf, "col transA=%s transB=%s", a, b); break;
    case SYMM:
    case HEMM: snprintf(buf, sizeof buf, "col side=L uplo=U"); break;
    case TRMM: snprintf(buf, sizeof buf, "col side=L uplo=U transA=%s diag=N", a); break;
    case TRSM: snprintf(buf, sizeof buf, "col side=L uplo=L transA=N diag=N"); break;
    default: snprintf(buf, sizeof buf, "col uplo=U trans=%s", a); break;
    }
    c->options = buf;
    c->group = shaped ? s->group : "";
    if (!shaped) snprintf(buf, sizeof buf, "%d", n);
    else if (r == GEMM) snprintf(buf, sizeof buf, "%dx%dx%d", c->M, c->N, c->K);
    else if (r == SYRK || r == SYR2K) snprintf(buf, sizeof buf, "%dx%d", c->N, c->K);
    else snprintf(buf, sizeof buf, "%dx%d", c->M, c->N);
    c->dims = buf;
    if (!shaped) return true;
    if (r == TRSM) return false; /* squares only */
    if (r == SYRK || r == SYR2K) return s->M == s->N;
    return r == GEMM || s->K == s->M;
}

static std::vector<std::string> split(const char *s)
{
    std::vector<std::string> v;
    std::string cur;
    for (; *s; s++) {
        if (*s == ',') { v.push_back(cur); cur.clear(); }
        else cur += *s;
    }
    v.push_back(cur);
    return v;
}

int main(int argc, char **argv)
{
    std::vector<int> routines = { GEMM, SYMM, SYRK, SYR2K, TRMM, TRSM }, precisions = { 0, 1 }, sizes = { 256, 1024 };
    int reps = 3, device = 0, pedantic = 0, batch = 0;
    double alpha = 1.25, beta = 0.75;
    unsigned long long seed = 1;
    const char *csv = NULL;
    bench_shape shapes[BENCH_MAX_SHAPES];
    int nshapes = 0;
    bool routines_given = false;
    char err[256];
    for (int a = 1; a < argc; a++) {
        std::string o = argv[a];
        const char *v = a + 1 < argc ? argv[a + 1] : "";
        if (o == "--shapes" || o == "--suite") {
            nshapes = o == "--suite" ? bench_suite(v, shapes, BENCH_MAX_SHAPES)
                                     : bench_shapes_parse(v, shapes, BENCH_MAX_SHAPES, err, sizeof err);
            if (nshapes < 1) {
                fprintf(stderr, "cublas_peer: %s %s: %s\n", o.c_str(), v, o == "--suite" ? "unknown suite" : err);
                return 2;
            }
        } else if (o == "--routines") {
            routines_given = true;
            routines.clear();
            for (auto &s : split(v))
                for (int r = 0; r < NROUTINES; r++)
                    if (s == names[r]) routines.push_back(r);
        } else if (o == "--precisions") {
            precisions.clear();
            for (auto &s : split(v))   /* s, d, c, z: 0..3 */
                if (const char *p = s.size() == 1 ? strchr("sdcz", s[0]) : NULL) precisions.push_back((int)(p - "sdcz"));
        } else if (o == "--sizes") {
            sizes.clear();
            for (auto &s : split(v)) sizes.push_back(atoi(s.c_str()));
        } else if (o == "--reps") reps = std::max(1, atoi(v));
        else if (o == "--device") device = atoi(v);
        else if (o == "--batch") batch = atoi(v);
        else if (o == "--csv") csv = v;
        else if (o == "--seed") seed = strtoull(v, NULL, 10);
        else if (o == "--alpha") alpha = atof(v);
        else if (o == "--beta") beta = atof(v);
        else if (o == "--pedantic") { pedantic = 1; continue; }
        else {
            fprintf(stderr, "usage: cublas_peer [--routines gemm,symm,syrk,syr2k,trmm,trsm,hemm,herk,her2k]\n"
                            "  [--precisions s,d,c,z]\n"
                            "  [--sizes 256,1024 | --shapes MxNxK[:TT],... | --suite %s]\n"
                            "  [--reps 3] [--device N] [--csv FILE] [--seed S] [--batch B]\n"
                            "  [--alpha 1.25] [--beta 0.75] [--pedantic]\n", bench_suite_names());
            return o == "--help" ? 0 : 2;
        }
        a++;
    }
    if (nshapes && !routines_given) routines = { GEMM };   /* as gpublas3-bench */
    setenv("NVIDIA_TF32_OVERRIDE", "0", 1);   /* before CUDA starts: never TF32 */
    CUDA_OK(cudaSetDevice(device));
    cudaDeviceProp prop;
    CUDA_OK(cudaGetDeviceProperties(&prop, device));
    int drv = 0, rt = 0, ma = 0, mi = 0, pa = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    cublasGetProperty(MAJOR_VERSION, &ma);
    cublasGetProperty(MINOR_VERSION, &mi);
    cublasGetProperty(PATCH_LEVEL, &pa);
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) { fprintf(stderr, "cublas_peer: cublasCreate failed\n"); return 1; }
    cublasSetMathMode(h, pedantic ? CUBLAS_PEDANTIC_MATH : CUBLAS_DEFAULT_MATH);

    char date[32], host[256] = "?", driver[96], api[64], version[96];
    time_t now = time(NULL);
    tm t;
    gmtime_r(&now, &t);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &t);
    gethostname(host, sizeof host - 1);
    /* the kernel module's version, as nvidia-smi shows it, when readable */
    char module[32] = "";
    if (FILE *v = fopen("/proc/driver/nvidia/version", "r")) {
        char line[256];
        if (fgets(line, sizeof line, v))
            if (const char *p = strstr(line, "Kernel Module"))   /* "... Module for x86_64  580.159.04 ..." */
                for (p += strlen("Kernel Module"); *p && !module[0]; p++)
                    if (p[-1] == ' ' && *p >= '0' && *p <= '9') sscanf(p, "%31s", module);
        fclose(v);
    }
    if (module[0])
        snprintf(driver, sizeof driver, "NVIDIA %s (CUDA driver %d.%d)", module, drv / 1000, drv % 1000 / 10);
    else
        snprintf(driver, sizeof driver, "CUDA driver %d.%d", drv / 1000, drv % 1000 / 10);
    snprintf(api, sizeof api, "CUDA runtime %d.%d sm_%d%d", rt / 1000, rt % 1000 / 10, prop.major, prop.minor);
    snprintf(version, sizeof version, "cuBLAS %d.%d.%d math=%s no-TF32", ma, mi, pa, pedantic ? "pedantic" : "default");

    printf("cublas_peer: %s, host %s\ndevice   %s (%s; %s)\npeer     %s\n"
           "method   median of %d timed calls after 1 checked warm-up call and 20 ms of untimed ones; wall clock between\n"
           "         cudaDeviceSynchronize, transfers excluded; alpha=%g beta=%g; seed %llu\n\n",
           date, host, prop.name, driver, api, version, reps, alpha, beta, seed);
    printf("%-7s %-34s %15s %11s %10s  status\n", "routine", "options", nshapes ? "shape" : "n", "cublas", "max_err");
    FILE *f = csv ? fopen(csv, "w") : NULL;
    if (csv && !f) { fprintf(stderr, "cublas_peer: cannot write %s\n", csv); return 1; }
    if (f)
        fprintf(f, "date,host,device,vendor,driver,opencl,gpublas3,peer,peer_version,routine,precision,"
                   "options,m,n,k,alpha,beta,reps,min_s,median_s,gflops,max_rel_err,status,shape,group\n");
    for (int r : routines)
        for (int d : precisions)
            for (int si = 0; si < (nshapes ? nshapes : (int)sizes.size()); si++) {
                if ((r >= HEMM && d < 2) || (d >= 2 && nshapes && !(batch > 1 && r == GEMM)))
                    continue;  /* Hermitian: complex only; complex: squares (batches: any shape) */
                Case c;
                if (!make_case(r, nshapes ? &shapes[si] : NULL, nshapes ? 0 : sizes[si], &c)) continue;
                if (batch > 1 && r == GEMM)
                    c.options += " batch=" + std::to_string(batch);
                /* as gpublas3-bench: 8x the calls under 0.1 GFLOP, at most 64 */
                int creps = c.flops() < 1e8 ? std::min(64, 8 * reps) : reps;
                Result res = batch > 1 && r == GEMM
                                 ? (d == 3 ? run_batched<std::complex<double>>(h, c, batch, creps, alpha, beta, &seed)
                                    : d == 2 ? run_batched<std::complex<float>>(h, c, batch, creps, alpha, beta, &seed)
                                    : d ? run_batched<double>(h, c, batch, creps, alpha, beta, &seed)
                                        : run_batched<float>(h, c, batch, creps, alpha, beta, &seed))
                           : r == TRSM ? (d == 3 ? run_trsm<std::complex<double>>(h, c.M, creps, alpha, &seed)
                                          : d == 2 ? run_trsm<std::complex<float>>(h, c.M, creps, alpha, &seed)
                                          : d ? run_trsm<double>(h, c.M, creps, alpha, &seed)
                                              : run_trsm<float>(h, c.M, creps, alpha, &seed))
                           : d == 3 ? run_complex<double>(h, r, c.M, creps, alpha, beta, &seed)
                           : d == 2 ? run_complex<float>(h, r, c.M, creps, alpha, beta, &seed)
                           : d ? run<double>(h, c, creps, alpha, beta, &seed)
                               : run<float>(h, c, creps, alpha, beta, &seed);
                printf("%c%-6s %-34s %15s %11.2f %10.2g  %s\n", "sdcz"[d], names[r], c.options.c_str(),
                       c.dims.c_str(), res.gflops, res.err, res.status.c_str());
                fflush(stdout);
                if (f) {
                    std::string st = res.status;
                    std::replace(st.begin(), st.end(), '"', '\'');
                    fprintf(f, "%s,%s,\"%s\",NVIDIA,%s,%s,-,cublas,%s,%s,%c,%s,%d,%d,%d,%.17g,%.17g,%d,%.9g,%.9g,%.6g,%.3g,\"%s\",%s,%s\n",
                            date, host, prop.name, driver, api, version, names[r], "sdcz"[d], c.options.c_str(),
                            c.M, c.N, c.K, alpha, beta, res.reps, res.min_s, res.median_s, res.gflops, res.err,
                            st.c_str(), c.dims.c_str(), c.group.c_str());
                    fflush(f);
                }
            }
    if (f) fclose(f);
    cublasDestroy(h);
    return 0;
}

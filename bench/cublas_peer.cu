/* SPDX-License-Identifier: BSD-3-Clause */
/* cublas_peer: the cuBLAS peer of gpublas3-bench, for NVIDIA machines.  It
 * times cuBLAS's GEMM, SYMM, SYRK, SYR2K, TRMM and TRSM (S, D, C, Z) and
 * HEMM, HERK and HER2K (C, Z) on the cases gpublas3-bench makes: squares
 * (--sizes) at column-major, NoTrans, Left, Upper, NonUnit (TRSM Lower:
 * gpublas3-bench --uplo L), or the benchmark's shapes (--shapes, --suite:
 * bench/shapes.h), a routine's shape with its own options, a plain MxNxK
 * with the squares' where it fits, as gpublas3-bench applies them.  Its
 * method is the bench's: random data in [-1,1], one checked warm-up call,
 * then the median of `reps` calls timed by the wall clock between
 * cudaDeviceSynchronize, output restored before each call, transfers
 * excluded; and it writes the bench's CSV schema with the same routine,
 * precision, options, m, n and k, so plot.py joins the two.  Full precision
 * only: CUBLAS_DEFAULT_MATH (or --pedantic) with NVIDIA_TF32_OVERRIDE=0, so
 * FP32 never runs as TF32; FP64 may use the FP64 tensor cores, which are
 * exact FP64.
 *
 * The check samples 256 output elements against a host sum in complex
 * double arithmetic, with the per-element bound 3(K'+2)eps(|alpha||op(A)||
 * op(B)| + |beta||C|), K' the terms of one element (twice for SYR2K and
 * HER2K, and again for complex), which TF32 would fail; the other triangle
 * of SYRK-like outputs must come back untouched, and HERK's and HER2K's
 * diagonal real.  TRSM is judged by its residual |op(A) X - alpha B| with
 * the same bound, its A made well-conditioned as the bench makes it
 * (spec_condition: diagonal sign(v)(1+|v|), the rest v over its order).
 * Flops as the bench counts them (complex: 4x the real routine's).
 *
 * Batched GEMM (--batch B): GEMM cases run as cublas?gemmStridedBatched of B
 * products, each operand's products one after another (tight strides, as
 * gpublas3-bench --batch makes them), sampled elements of sampled products
 * checked.
 *
 * Build: nvcc -O2 -Ibench -o cublas_peer bench/cublas_peer.cu bench/shapes.c -lcublas
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

/* A random index in [0, n). */
static int pick(int n, unsigned long long *seed) { return (int)((next_value(seed) + 1) * 0.5 * n) % n; }

/* One case: the routine, its dimensions as spec.h names them (M, N, K;
 * SYRK-like M = N, SYMM-like and TRMM-like K = A's order), its options,
 * and what the table and CSV call it. */
struct Case {
    int r, M, N, K;
    cublasSideMode_t side = CUBLAS_SIDE_LEFT;
    cublasFillMode_t uplo = CUBLAS_FILL_MODE_UPPER;
    cublasOperation_t ta = CUBLAS_OP_N, tb = CUBLAS_OP_N;
    cublasDiagType_t diag = CUBLAS_DIAG_NON_UNIT;
    std::string options, dims, group;
    bool sym() const { return r == SYMM || r == HEMM; }
    bool tri() const { return r == TRMM || r == TRSM; }
    bool rk() const { return r == SYRK || r == SYR2K || r == HERK || r == HER2K; }
    bool two() const { return r == SYR2K || r == HER2K; }
    bool herm() const { return r == HERK || r == HER2K; }
    int order() const { return side == CUBLAS_SIDE_LEFT ? M : N; }   /* A's, SYMM-like and TRMM-like */
    int depth() const { return r == GEMM || rk() ? K : order(); }    /* terms of one output element */
    /* rows x cols of 'A', 'B' or 'C' as stored (tests/common/spec.c's
     * spec_dims; 0 x 0 where the call takes none: TRMM's output is B) */
    void shape(char w, int *rows, int *cols) const
    {
        int x = M, y = N;   /* then stored transposed where t */
        bool t = false;
        if (w == 'C') {
            x = tri() ? 0 : rk() ? N : M;
            y = tri() ? 0 : N;
        } else if (r == GEMM) {
            x = w == 'A' ? M : K;
            y = w == 'A' ? K : N;
            t = (w == 'A' ? ta : tb) != CUBLAS_OP_N;
        } else if (rk()) {
            x = w == 'A' || two() ? N : 0;
            y = w == 'A' || two() ? K : 0;
            t = ta != CUBLAS_OP_N;
        } else if (w == 'A') {
            x = y = order();
        }
        *rows = t ? y : x;
        *cols = t ? x : y;
    }
    double flops() const   /* one real call's: spec_flops */
    {
        double m = M, n = N, k = K;
        return r == GEMM ? 2 * m * n * k : sym() ? 2 * m * n * order() : tri() ? m * n * order()
                                                : (two() ? 2 : 1) * n * (n + 1) * k;
    }
};

/* cuBLAS by element type, so each call is written once.  Real HEMM, HERK
 * and HER2K are SYMM, SYRK and SYR2K (the driver runs them in C and Z only). */
template <typename T> struct Blas;
template <> struct Blas<float> {
    typedef float E;
    static constexpr auto gemm = cublasSgemm; static constexpr auto gemmb = cublasSgemmStridedBatched;
    static constexpr auto symm = cublasSsymm; static constexpr auto hemm = cublasSsymm;
    static constexpr auto syrk = cublasSsyrk; static constexpr auto herk = cublasSsyrk;
    static constexpr auto syr2k = cublasSsyr2k; static constexpr auto her2k = cublasSsyr2k;
    static constexpr auto trmm = cublasStrmm; static constexpr auto trsm = cublasStrsm;
};
template <> struct Blas<double> {
    typedef double E;
    static constexpr auto gemm = cublasDgemm; static constexpr auto gemmb = cublasDgemmStridedBatched;
    static constexpr auto symm = cublasDsymm; static constexpr auto hemm = cublasDsymm;
    static constexpr auto syrk = cublasDsyrk; static constexpr auto herk = cublasDsyrk;
    static constexpr auto syr2k = cublasDsyr2k; static constexpr auto her2k = cublasDsyr2k;
    static constexpr auto trmm = cublasDtrmm; static constexpr auto trsm = cublasDtrsm;
};
template <> struct Blas<std::complex<float>> {
    typedef cuComplex E;
    static constexpr auto gemm = cublasCgemm; static constexpr auto gemmb = cublasCgemmStridedBatched;
    static constexpr auto symm = cublasCsymm; static constexpr auto hemm = cublasChemm;
    static constexpr auto syrk = cublasCsyrk; static constexpr auto herk = cublasCherk;
    static constexpr auto syr2k = cublasCsyr2k; static constexpr auto her2k = cublasCher2k;
    static constexpr auto trmm = cublasCtrmm; static constexpr auto trsm = cublasCtrsm;
};
template <> struct Blas<std::complex<double>> {
    typedef cuDoubleComplex E;
    static constexpr auto gemm = cublasZgemm; static constexpr auto gemmb = cublasZgemmStridedBatched;
    static constexpr auto symm = cublasZsymm; static constexpr auto hemm = cublasZhemm;
    static constexpr auto syrk = cublasZsyrk; static constexpr auto herk = cublasZherk;
    static constexpr auto syr2k = cublasZsyr2k; static constexpr auto her2k = cublasZher2k;
    static constexpr auto trmm = cublasZtrmm; static constexpr auto trsm = cublasZtrsm;
};

/* An element from its parts: complex T takes both, real T the first. */
template <typename R> static void set(R &x, double re, double) { x = (R)re; }
template <typename R> static void set(std::complex<R> &x, double re, double im) { x = std::complex<R>((R)re, (R)im); }
template <typename T> struct Parts { typedef T R; enum { n = 1 }; };
template <typename R_> struct Parts<std::complex<R_>> { typedef R_ R; enum { n = 2 }; };

/* The case's call on device operands A, B, C (`batch` products of GEMM,
 * tight strides); TRMM in place, as BLAS: B <- alpha op(A) B. */
template <typename T>
static cublasStatus_t call(cublasHandle_t h, const Case &c, int batch, T al, T be, const T *dA, T *dB, T *dC)
{
    typedef Blas<T> X;
    typedef typename X::E E;
    typedef typename Parts<T>::R R;
    const E *A = (const E *)dA, *a = (const E *)&al, *b = (const E *)&be;
    E *B = (E *)dB, *C = (E *)dC;
    R ra = (R)std::real(al), rb = (R)std::real(be);   /* HERK's alpha and beta, HER2K's beta */
    int ar, ac, br, bc, cr, cc;
    c.shape('A', &ar, &ac);
    c.shape('B', &br, &bc);
    c.shape('C', &cr, &cc);
    switch (c.r) {
    case GEMM:
        if (batch > 1)
            return X::gemmb(h, c.ta, c.tb, c.M, c.N, c.K, a, A, ar, (long long)ar * ac, B, br, (long long)br * bc, b,
                            C, cr, (long long)cr * cc, batch);
        return X::gemm(h, c.ta, c.tb, c.M, c.N, c.K, a, A, ar, B, br, b, C, cr);
    case SYMM: return X::symm(h, c.side, c.uplo, c.M, c.N, a, A, ar, B, br, b, C, cr);
    case HEMM: return X::hemm(h, c.side, c.uplo, c.M, c.N, a, A, ar, B, br, b, C, cr);
    case SYRK: return X::syrk(h, c.uplo, c.ta, c.N, c.K, a, A, ar, b, C, cr);
    case HERK: return X::herk(h, c.uplo, c.ta, c.N, c.K, &ra, A, ar, &rb, C, cr);
    case SYR2K: return X::syr2k(h, c.uplo, c.ta, c.N, c.K, a, A, ar, B, br, b, C, cr);
    case HER2K: return X::her2k(h, c.uplo, c.ta, c.N, c.K, a, A, ar, B, br, &rb, C, cr);
    case TRMM: return X::trmm(h, c.side, c.uplo, c.ta, c.diag, c.M, c.N, a, A, ar, B, br, B, br);
    default: return X::trsm(h, c.side, c.uplo, c.ta, c.diag, c.M, c.N, a, A, ar, B, br);
    }
}

typedef std::complex<double> cd;   /* the checks' arithmetic */

/* op(X)(i, j) of X stored with `rows` rows, column-major, tight. */
template <typename T>
static cd op(const T *X, int rows, cublasOperation_t t, int i, int j)
{
    cd x = t == CUBLAS_OP_N ? cd(X[i + (size_t)j * rows]) : cd(X[j + (size_t)i * rows]);
    return t == CUBLAS_OP_C ? std::conj(x) : x;
}

/* A(i, k) as SYMM and HEMM read it (the stored triangle mirrored, HEMM's
 * conjugated and its diagonal real), and op(A)(i, k) as TRMM and TRSM do
 * (the stored triangle only; a unit diagonal reads 1). */
template <typename T>
static cd structured(const Case &c, const T *A, int i, int k)
{
    int n = c.order();
    bool upper = c.uplo == CUBLAS_FILL_MODE_UPPER;
    if (c.sym()) {
        bool in = upper ? i <= k : i >= k;
        cd x = in ? cd(A[i + (size_t)k * n]) : cd(A[k + (size_t)i * n]);
        return c.r == SYMM ? x : i == k ? cd(x.real()) : in ? x : std::conj(x);
    }
    int p = c.ta == CUBLAS_OP_N ? i : k, q = c.ta == CUBLAS_OP_N ? k : i;   /* where it is stored */
    if (upper ? p > q : p < q) return 0.0;
    if (p == q && c.diag == CUBLAS_DIAG_UNIT) return 1.0;
    return op(A, n, c.ta, i, k);
}

/* Element (i, j) of the result from the host operands, and its error scale
 * (the same sums on absolute values).  Y is the operand A multiplies in
 * SYMM, HEMM and TRMM (B) and TRSM (its solution X: then the element is
 * (op(A) X)(i, j) or (X op(A))(i, j), which the check holds against
 * alpha B(i, j)). */
template <typename T>
static void element(const Case &c, cd al, cd be, const T *A, const T *B, const T *C, const T *Y, int i, int j,
                    cd *val, double *scale)
{
    int ar, ac, br, bc, cr, cc;
    c.shape('A', &ar, &ac);
    c.shape('B', &br, &bc);
    c.shape('C', &cr, &cc);
    cd s = 0, s2 = 0;
    double a = 0;
    for (int k = 0; k < c.depth(); k++) {
        cd x, y, x2 = 0, y2 = 0;
        if (c.r == GEMM) {
            x = op(A, ar, c.ta, i, k);
            y = op(B, br, c.tb, k, j);
        } else if (c.rk()) {   /* op(A) op(A)' or op(A) op(B)' + op(B) op(A)', ' conjugating for HERK, HER2K */
            x = op(A, ar, c.ta, i, k);
            y = op(c.two() ? B : A, ar, c.ta, j, k);
            if (c.two()) {
                x2 = op(B, br, c.ta, i, k);
                y2 = op(A, ar, c.ta, j, k);
            }
            if (c.herm()) {
                y = std::conj(y);
                y2 = std::conj(y2);
            }
        } else if (c.side == CUBLAS_SIDE_LEFT) {
            x = structured(c, A, i, k);
            y = cd(Y[k + (size_t)j * br]);
        } else {
            x = cd(Y[i + (size_t)k * br]);
            y = structured(c, A, k, j);
        }
        s += x * y;
        s2 += x2 * y2;
        a += std::abs(x) * std::abs(y) + std::abs(x2) * std::abs(y2);
    }
    cd cij = c.tri() ? 0.0 : cd(C[i + (size_t)j * cr]);
    if (c.herm() && i == j) cij = cij.real();
    *val = c.r == TRSM ? s : al * s + (c.herm() ? std::conj(al) : al) * s2 + be * cij;
    *scale = c.r == TRSM ? a : std::abs(al) * a + std::abs(be) * std::abs(cij);
}

struct Result { double min_s = 0, median_s = 0, gflops = 0, err = 0; int reps = 0; std::string status; };

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

/* One case in element type T (`batch` products of GEMM): operands, the
 * checked warm-up call, then the timed ones. */
template <typename T>
static Result run(cublasHandle_t h, const Case &c, int batch, int reps, double alpha, double beta,
                  unsigned long long *seed)
{
    const int nc = Parts<T>::n;   /* reals per element */
    const int out = c.tri() ? 1 : 2;   /* the output: B or C */
    Result res;
    std::vector<T> host[3];
    T *dev[3];
    size_t per[3];   /* elements of one product */
    for (int w = 0; w < 3; w++) {
        int rows, cols;
        c.shape("ABC"[w], &rows, &cols);
        per[w] = (size_t)rows * cols;
        host[w].resize(per[w] * batch);
        for (size_t x = 0; x < host[w].size(); x++) {
            double re = next_value(seed), im = nc == 2 ? next_value(seed) : 0.0;
            if (w == 0 && c.r == TRSM) {   /* well-conditioned, as spec_condition makes it */
                double order = (double)nc * c.order();
                bool diagonal = x % c.order() == x / c.order();
                re = diagonal ? copysign(1 + fabs(re), re) : re / order;
                im /= order;
            }
            set(host[w][x], re, im);
        }
        CUDA_OK(cudaMalloc(&dev[w], std::max<size_t>(host[w].size(), 1) * sizeof(T)));
        CUDA_OK(cudaMemcpy(dev[w], host[w].data(), host[w].size() * sizeof(T), cudaMemcpyHostToDevice));
    }
    const std::vector<T> &A = host[0], &B = host[1], &C = host[2], &out0 = host[out];
    size_t outbytes = out0.size() * sizeof(T);
    T al, be;
    set(al, alpha, 0.0);
    set(be, beta, 0.0);
    cublasStatus_t st = call(h, c, batch, al, be, dev[0], dev[1], dev[2]);
    CUDA_OK(cudaDeviceSynchronize());
    if (st != CUBLAS_STATUS_SUCCESS) {
        res.status = "ERROR: cuBLAS status " + std::to_string((int)st);
    } else {
        std::vector<T> got(out0.size());
        CUDA_OK(cudaMemcpy(got.data(), dev[out], outbytes, cudaMemcpyDeviceToHost));
        double eps = sizeof(typename Parts<T>::R) == 4 ? FLT_EPSILON : DBL_EPSILON;
        double bound = 3.0 * (nc * (c.two() ? 2 : 1) * c.depth() + 2) * eps;
        int rows, cols, bad = 0;
        c.shape("ABC"[out], &rows, &cols);
        char msg[256] = "";
        for (int s = 0; s < 256; s++) {
            int p = pick(batch, seed), i = pick(rows, seed), j = pick(cols, seed);
            size_t at = p * per[out] + i + (size_t)j * rows;
            if (c.rk() && (c.uplo == CUBLAS_FILL_MODE_UPPER ? i > j : i < j)) {   /* must come back untouched */
                if (memcmp(&got[at], &out0[at], sizeof(T)) && !bad++)
                    snprintf(msg, sizeof msg, "C(%d,%d) in the other triangle changed", i, j);
                continue;
            }
            cd val, want, have = cd(got[at]);
            double scale;
            const T *b = B.data() + p * per[1];
            element(c, alpha, beta, A.data() + p * per[0], b, C.data() + p * per[2], c.r == TRSM ? got.data() : b, i,
                    j, &val, &scale);
            if (c.r == TRSM) {   /* the residual */
                have = val;
                want = alpha * cd(B[at]);
                scale += fabs(alpha) * std::abs(cd(B[at]));
            } else {
                want = val;
            }
            double e = std::abs(have - want) / (scale > 0 ? scale : 1);
            if (c.herm() && i == j && cd(got[at]).imag() != 0) e = INFINITY;
            if (!(e <= bound) && !bad++)
                snprintf(msg, sizeof msg, "(%d,%d): got %.9g%+.9gi, expected %.9g%+.9gi", i, j, have.real(),
                         have.imag(), want.real(), want.imag());
            if (e > res.err || e != e) res.err = e;
        }
        if (bad)
            res.status = "FAIL: " + std::to_string(bad) + " of 256 sampled elements; " + msg;
        else
            time_calls(res, reps, (nc == 2 ? 4.0 : 1.0) * batch * c.flops(),
                       [&] { CUDA_OK(cudaMemcpy(dev[out], out0.data(), outbytes, cudaMemcpyHostToDevice)); },
                       [&] { call(h, c, batch, al, be, dev[0], dev[1], dev[2]); });
    }
    for (T *d : dev) cudaFree(d);
    return res;
}

/* Case r of a run: a square, or a shape where it applies (as gpublas3-bench's
 * case_dims does it: a routine's shape for its routine, with its options; a
 * plain one where it fits). */
static bool make_case(int r, const bench_shape *s, int n, Case *c)
{
    auto op_of = [](char t) { return t == 'T' ? CUBLAS_OP_T : t == 'C' ? CUBLAS_OP_C : CUBLAS_OP_N; };
    c->r = r;
    c->M = s ? (int)s->M : n;
    c->N = s ? (int)s->N : n;
    c->K = s ? (int)s->K : n;
    if (s) {
        c->ta = op_of(s->ta);
        c->tb = op_of(s->tb);
    }
    if (s && s->routine) {
        c->side = s->side == 'R' ? CUBLAS_SIDE_RIGHT : CUBLAS_SIDE_LEFT;
        c->uplo = s->uplo == 'L' ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
        c->diag = s->diag == 'U' ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
    } else if (r == TRSM) {
        c->uplo = CUBLAS_FILL_MODE_LOWER;
    }
    const char *tn = "NTC";
    char a = tn[c->ta == CUBLAS_OP_T ? 1 : c->ta == CUBLAS_OP_C ? 2 : 0];
    char b = tn[c->tb == CUBLAS_OP_T ? 1 : c->tb == CUBLAS_OP_C ? 2 : 0];
    char sd = c->side == CUBLAS_SIDE_LEFT ? 'L' : 'R', ul = c->uplo == CUBLAS_FILL_MODE_UPPER ? 'U' : 'L';
    char dg = c->diag == CUBLAS_DIAG_NON_UNIT ? 'N' : 'U', buf[96];
    /* the options and shape as bench/report.c writes them */
    if (r == GEMM) snprintf(buf, sizeof buf, "col transA=%c transB=%c", a, b);
    else if (c->sym()) snprintf(buf, sizeof buf, "col side=%c uplo=%c", sd, ul);
    else if (c->rk()) snprintf(buf, sizeof buf, "col uplo=%c trans=%c", ul, a);
    else snprintf(buf, sizeof buf, "col side=%c uplo=%c transA=%c diag=%c", sd, ul, a, dg);
    c->options = buf;
    c->group = s ? s->group : "";
    if (!s) snprintf(buf, sizeof buf, "%d", n);
    else if (r == GEMM) snprintf(buf, sizeof buf, "%dx%dx%d", c->M, c->N, c->K);
    else if (c->rk()) snprintf(buf, sizeof buf, "%dx%d", c->N, c->K);
    else snprintf(buf, sizeof buf, "%dx%d", c->M, c->N);
    c->dims = buf;
    if (!s) return true;
    if (s->routine) return !strcmp(s->routine, names[r]);
    return r == GEMM || (c->rk() ? c->M == c->N : c->K == c->order());
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
    std::vector<int> routines = { GEMM, SYMM, SYRK, SYR2K, TRMM, TRSM, HEMM, HERK, HER2K }, precisions = { 0, 1 },
                     sizes = { 256, 1024 };
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
                            "  [--sizes 256,1024 | --shapes LIST (as gpublas3-bench's) | --suite %s]\n"
                            "  [--reps 3] [--device N] [--csv FILE] [--seed S] [--batch B]\n"
                            "  [--alpha 1.25] [--beta 0.75] [--pedantic]\n", bench_suite_names());
            return o == "--help" ? 0 : 2;
        }
        a++;
    }
    if (nshapes && !routines_given) {   /* as gpublas3-bench: each shape's own routine, MxNxK GEMM's */
        routines.clear();
        for (int i = 0; i < nshapes; i++)
            if (!shapes[i].routine) shapes[i].routine = "gemm";
        for (int r = 0; r < NROUTINES; r++)
            for (int i = 0; i < nshapes; i++)
                if (!strcmp(shapes[i].routine, names[r])) {
                    routines.push_back(r);
                    break;
                }
    }
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
                Case c;
                if ((r >= HEMM && d < 2) || !make_case(r, nshapes ? &shapes[si] : NULL, nshapes ? 0 : sizes[si], &c))
                    continue;   /* Hermitian: complex only */
                if (d >= 2 && c.rk() && c.ta == (c.herm() ? CUBLAS_OP_T : CUBLAS_OP_C))
                    continue;   /* complex SYRK, SYR2K take N or T, HERK, HER2K N or C */
                int b = r == GEMM && batch > 1 ? batch : 1;
                if (b > 1) c.options += " batch=" + std::to_string(b);
                /* as gpublas3-bench: in shape runs 8x the calls under 0.1 GFLOP, at most 64 */
                int creps = nshapes && (d >= 2 ? 4 : 1) * b * c.flops() < 1e8 ? std::min(64, 8 * reps) : reps;
                Result res = d == 3 ? run<std::complex<double>>(h, c, b, creps, alpha, beta, &seed)
                           : d == 2 ? run<std::complex<float>>(h, c, b, creps, alpha, beta, &seed)
                           : d ? run<double>(h, c, b, creps, alpha, beta, &seed)
                               : run<float>(h, c, b, creps, alpha, beta, &seed);
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

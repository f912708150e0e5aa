/* cublas_peer: the cuBLAS peer of gpublas3-bench, for NVIDIA machines.  It
 * times cuBLAS's S/D GEMM, SYMM, SYRK, SYR2K and TRMM at the benchmark's
 * default options (column-major, NoTrans, Left, Upper, NonUnit; M=N=K=n),
 * and TRSM Left, Lower, NoTrans, NonUnit (run_trsm)
 * with the same method — random data in [-1,1], one checked warm-up call,
 * then the median of `reps` calls timed by the wall clock between
 * cudaDeviceSynchronize, output restored before each call, transfers
 * excluded — and writes the same CSV schema, so plot.py can put it next to
 * gpublas3-bench's results.  Full precision only: CUBLAS_DEFAULT_MATH (or
 * --pedantic) with NVIDIA_TF32_OVERRIDE=0, so FP32 never runs as TF32; FP64
 * may use the FP64 tensor cores, which are exact FP64.  The check samples
 * elements against a host dot product with the per-element bound
 * 3(K+2)eps(|alpha||op(A)||op(B)| + |beta||C|), which TF32 would fail.
 *
 * Build: nvcc -O2 -o cublas_peer bench/cublas_peer.cu -lcublas
 * Run:   ./cublas_peer --sizes 1024,4096,8192 --reps 5 --csv cublas.csv */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>
#include <unistd.h>

enum { GEMM, SYMM, SYRK, SYR2K, TRMM, TRSM, NROUTINES };
static const char *names[NROUTINES] = { "gemm", "symm", "syrk", "syr2k", "trmm", "trsm" };
static const char *options[NROUTINES] = { "col transA=N transB=N", "col side=L uplo=U", "col uplo=U trans=N",
                                          "col uplo=U trans=N", "col side=L uplo=U transA=N diag=N",
                                          "col side=L uplo=L transA=N diag=N" };

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

/* One overload per precision, so the driver below is written once. */
static cublasStatus_t call(cublasHandle_t h, int r, int n, float al, const float *A, const float *B, float be, float *C)
{
    switch (r) {
    case GEMM: return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &al, A, n, B, n, &be, C, n);
    case SYMM: return cublasSsymm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, n, n, &al, A, n, B, n, &be, C, n);
    case SYRK: return cublasSsyrk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, n, n, &al, A, n, &be, C, n);
    case SYR2K: return cublasSsyr2k(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, n, n, &al, A, n, B, n, &be, C, n);
    default:   /* in place, as BLAS: B <- alpha*A*B */
        return cublasStrmm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, n,
                           &al, A, n, C, n, C, n);
    }
}
static cublasStatus_t call(cublasHandle_t h, int r, int n, double al, const double *A, const double *B, double be,
                           double *C)
{
    switch (r) {
    case GEMM: return cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &al, A, n, B, n, &be, C, n);
    case SYMM: return cublasDsymm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, n, n, &al, A, n, B, n, &be, C, n);
    case SYRK: return cublasDsyrk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, n, n, &al, A, n, &be, C, n);
    case SYR2K: return cublasDsyr2k(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, n, n, &al, A, n, B, n, &be, C, n);
    default:
        return cublasDtrmm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, n,
                           &al, A, n, C, n, C, n);
    }
}

static double flops(int r, double n)
{
    switch (r) {
    case GEMM: case SYMM: return 2 * n * n * n;
    case SYRK: return n * (n + 1) * n;
    case SYR2K: return 2 * n * (n + 1) * n;
    default: return n * n * n;
    }
}

/* Element (i, j) of the result from the host operands, and its error scale
 * (the same sum on absolute values).  Column-major, ld = n.  For TRMM, `C`
 * is the original B. */
template <typename T>
static void element(int r, int n, double al, double be, const T *A, const T *B, const T *C, int i, int j,
                    double *val, double *scale)
{
    double s = 0, a = 0;
    for (int k = 0; k < n; k++) {
        double x, y, x2 = 0, y2 = 0;
        switch (r) {
        case GEMM: x = A[i + (size_t)k * n]; y = B[k + (size_t)j * n]; break;
        case SYMM: x = i <= k ? A[i + (size_t)k * n] : A[k + (size_t)i * n]; y = B[k + (size_t)j * n]; break;
        case SYRK: x = A[i + (size_t)k * n]; y = A[j + (size_t)k * n]; break;
        case SYR2K:
            x = A[i + (size_t)k * n]; y = B[j + (size_t)k * n];
            x2 = B[i + (size_t)k * n]; y2 = A[j + (size_t)k * n];
            break;
        default: x = k >= i ? A[i + (size_t)k * n] : 0.0; y = C[k + (size_t)j * n]; break;
        }
        s += x * y + x2 * y2;
        a += fabs(x * y) + fabs(x2 * y2);
    }
    double c = r == TRMM ? 0.0 : (double)C[i + (size_t)j * n];
    *val = al * s + (r == TRMM ? 0.0 : be * c);
    *scale = fabs(al) * a + (r == TRMM ? 0.0 : fabs(be) * fabs(c));
}

struct Result { double min_s = 0, median_s = 0, gflops = 0, err = 0; int reps = 0; std::string status; };

/* TRSM, side Left, Lower, NoTrans, NonUnit (issue 11's case), B <- alpha
 * inv(A) B in place.  A as gpublas3-bench makes it (tests/common/spec.c,
 * spec_condition): diagonal sign(v)(1+|v|), below it v/n, so it is
 * well-conditioned; the check is the residual of sampled elements,
 * |(A X)(i,j) - alpha B(i,j)| <= 3(n+2)eps(|A||X| + |alpha B|)(i,j). */
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

template <typename T>
static Result run_trsm(cublasHandle_t h, int n, int reps, double alpha, unsigned long long *seed)
{
    Result res;
    size_t nn = (size_t)n * n, bytes = nn * sizeof(T);
    std::vector<T> A(nn), B(nn), X(nn);
    for (size_t j = 0; j < (size_t)n; j++)
        for (size_t i = 0; i < (size_t)n; i++) {
            double v = next_value(seed);
            A[i + j * n] = (T)(i == j ? copysign(1 + fabs(v), v) : v / n);
        }
    for (auto &x : B) x = (T)next_value(seed);
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
        double bound = 3.0 * (n + 2) * (sizeof(T) == 4 ? FLT_EPSILON : DBL_EPSILON);
        int bad = 0;
        for (int s = 0; s < 256; s++) {
            int i = (int)((next_value(seed) + 1) * 0.5 * n) % n, j = (int)((next_value(seed) + 1) * 0.5 * n) % n;
            double r = -alpha * B[i + (size_t)j * n], scale = fabs(r);
            for (int k = 0; k <= i; k++) {
                double p = (double)A[i + (size_t)k * n] * X[k + (size_t)j * n];
                r += p;
                scale += fabs(p);
            }
            double e = fabs(r) / (scale > 0 ? scale : 1);
            bad += !(e <= bound);
            if (e > res.err || e != e) res.err = e;
        }
        std::vector<double> t;
        for (int k = 0; k < reps && !bad; k++) {
            CUDA_OK(cudaMemcpy(dB, B.data(), bytes, cudaMemcpyHostToDevice));
            CUDA_OK(cudaDeviceSynchronize());
            double t0 = now_s();
            trsm(h, n, (T)alpha, dA, dB);
            CUDA_OK(cudaDeviceSynchronize());
            t.push_back(now_s() - t0);
        }
        if (bad) {
            res.status = "FAIL: " + std::to_string(bad) + " of 256 sampled residuals over the bound";
        } else {
            std::sort(t.begin(), t.end());
            res.reps = reps;
            res.min_s = t[0];
            res.median_s = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
            res.gflops = (double)n * n * n / res.median_s * 1e-9;
            res.status = "ok";
        }
    }
    cudaFree(dA);
    cudaFree(dB);
    return res;
}

template <typename T>
static Result run(cublasHandle_t h, int r, int n, int reps, double alpha, double beta, unsigned long long *seed)
{
    Result res;
    size_t nn = (size_t)n * n, bytes = nn * sizeof(T);
    std::vector<T> A(nn), B(nn), C(nn), got(nn);
    for (auto &x : A) x = (T)next_value(seed);
    for (auto &x : B) x = (T)next_value(seed);
    for (auto &x : C) x = (T)next_value(seed);
    const std::vector<T> &out0 = r == TRMM ? B : C;   /* the output operand before the call */
    T *dA, *dB, *dC;
    CUDA_OK(cudaMalloc(&dA, bytes));
    CUDA_OK(cudaMalloc(&dB, bytes));
    CUDA_OK(cudaMalloc(&dC, bytes));
    CUDA_OK(cudaMemcpy(dA, A.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dB, B.data(), bytes, cudaMemcpyHostToDevice));
    T *dOut = r == TRMM ? dB : dC;

    /* checked warm-up call */
    CUDA_OK(cudaMemcpy(dOut, out0.data(), bytes, cudaMemcpyHostToDevice));
    cublasStatus_t st = call(h, r, n, (T)alpha, dA, dB, (T)beta, dOut);
    CUDA_OK(cudaDeviceSynchronize());
    if (st != CUBLAS_STATUS_SUCCESS) {
        res.status = "ERROR: cuBLAS status " + std::to_string((int)st);
    } else {
        CUDA_OK(cudaMemcpy(got.data(), dOut, bytes, cudaMemcpyDeviceToHost));
        double eps = sizeof(T) == 4 ? FLT_EPSILON : DBL_EPSILON;
        double bound = 3.0 * ((r == SYR2K ? 2 * n : n) + 2) * eps;
        int bad = 0;
        char msg[256] = "";
        for (int s = 0; s < 256; s++) {
            int i = (int)((next_value(seed) + 1) * 0.5 * n) % n, j = (int)((next_value(seed) + 1) * 0.5 * n) % n;
            if ((r == SYRK || r == SYR2K) && i > j) {   /* the lower triangle must come back untouched */
                if (memcmp(&got[i + (size_t)j * n], &out0[i + (size_t)j * n], sizeof(T)) && !bad++)
                    snprintf(msg, sizeof msg, "C(%d,%d) in the other triangle changed", i, j);
                continue;
            }
            double ref, scale;
            element(r, n, alpha, beta, A.data(), B.data(), r == TRMM ? B.data() : C.data(), i, j, &ref, &scale);
            double e = fabs((double)got[i + (size_t)j * n] - ref) / (scale > 0 ? scale : 1);
            if (!(e <= bound) && !bad++)
                snprintf(msg, sizeof msg, "(%d,%d): got %.9g, expected %.9g", i, j, (double)got[i + (size_t)j * n], ref);
            if (e > res.err || e != e) res.err = e;
        }
        if (bad) {
            res.status = "FAIL: " + std::to_string(bad) + " of 256 sampled elements; " + msg;
        } else {
            std::vector<double> t;
            for (int k = 0; k < reps; k++) {
                CUDA_OK(cudaMemcpy(dOut, out0.data(), bytes, cudaMemcpyHostToDevice));
                CUDA_OK(cudaDeviceSynchronize());
                double t0 = now_s();
                call(h, r, n, (T)alpha, dA, dB, (T)beta, dOut);
                CUDA_OK(cudaDeviceSynchronize());
                t.push_back(now_s() - t0);
            }
            std::sort(t.begin(), t.end());
            res.reps = reps;
            res.min_s = t[0];
            res.median_s = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
            res.gflops = flops(r, n) / res.median_s * 1e-9;
            res.status = "ok";
        }
    }
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    return res;
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
    int reps = 3, device = 0, pedantic = 0;
    double alpha = 1.25, beta = 0.75;
    unsigned long long seed = 1;
    const char *csv = NULL;
    for (int a = 1; a < argc; a++) {
        std::string o = argv[a];
        const char *v = a + 1 < argc ? argv[a + 1] : "";
        if (o == "--routines") {
            routines.clear();
            for (auto &s : split(v))
                for (int r = 0; r < NROUTINES; r++)
                    if (s == names[r]) routines.push_back(r);
        } else if (o == "--precisions") {
            precisions.clear();
            for (auto &s : split(v)) precisions.push_back(s == "d");
        } else if (o == "--sizes") {
            sizes.clear();
            for (auto &s : split(v)) sizes.push_back(atoi(s.c_str()));
        } else if (o == "--reps") reps = std::max(1, atoi(v));
        else if (o == "--device") device = atoi(v);
        else if (o == "--csv") csv = v;
        else if (o == "--seed") seed = strtoull(v, NULL, 10);
        else if (o == "--alpha") alpha = atof(v);
        else if (o == "--beta") beta = atof(v);
        else if (o == "--pedantic") { pedantic = 1; continue; }
        else {
            fprintf(stderr, "usage: cublas_peer [--routines gemm,symm,syrk,syr2k,trmm,trsm] [--precisions s,d]\n"
                            "  [--sizes 256,1024] [--reps 3] [--device N] [--csv FILE] [--seed S]\n"
                            "  [--alpha 1.25] [--beta 0.75] [--pedantic]\n");
            return o == "--help" ? 0 : 2;
        }
        a++;
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
            if (const char *p = strstr(line, "Kernel Module"))
                sscanf(p + strlen("Kernel Module"), "%31s", module);
        fclose(v);
    }
    if (module[0])
        snprintf(driver, sizeof driver, "NVIDIA %s (CUDA driver %d.%d)", module, drv / 1000, drv % 1000 / 10);
    else
        snprintf(driver, sizeof driver, "CUDA driver %d.%d", drv / 1000, drv % 1000 / 10);
    snprintf(api, sizeof api, "CUDA runtime %d.%d sm_%d%d", rt / 1000, rt % 1000 / 10, prop.major, prop.minor);
    snprintf(version, sizeof version, "cuBLAS %d.%d.%d math=%s no-TF32", ma, mi, pa, pedantic ? "pedantic" : "default");

    printf("cublas_peer: %s, host %s\ndevice   %s (%s; %s)\npeer     %s\n"
           "method   median of %d timed calls after 1 checked warm-up call; wall clock between\n"
           "         cudaDeviceSynchronize, transfers excluded; alpha=%g beta=%g; seed %llu\n\n",
           date, host, prop.name, driver, api, version, reps, alpha, beta, seed);
    printf("%-7s %6s %11s %10s  status\n", "routine", "n", "cublas", "max_err");
    FILE *f = csv ? fopen(csv, "w") : NULL;
    if (csv && !f) { fprintf(stderr, "cublas_peer: cannot write %s\n", csv); return 1; }
    if (f)
        fprintf(f, "date,host,device,vendor,driver,opencl,gpublas3,peer,peer_version,routine,precision,"
                   "options,m,n,k,alpha,beta,reps,min_s,median_s,gflops,max_rel_err,status\n");
    for (int r : routines)
        for (int d : precisions)
            for (int n : sizes) {
                Result res = r == TRSM ? (d ? run_trsm<double>(h, n, reps, alpha, &seed)
                                            : run_trsm<float>(h, n, reps, alpha, &seed))
                           : d ? run<double>(h, r, n, reps, alpha, beta, &seed)
                               : run<float>(h, r, n, reps, alpha, beta, &seed);
                printf("%c%-6s %6d %11.2f %10.2g  %s\n", d ? 'd' : 's', names[r], n, res.gflops, res.err,
                       res.status.c_str());
                fflush(stdout);
                if (f) {
                    std::string st = res.status;
                    std::replace(st.begin(), st.end(), '"', '\'');
                    fprintf(f, "%s,%s,\"%s\",NVIDIA,%s,%s,-,cublas,%s,%s,%c,%s,%d,%d,%d,%.17g,%.17g,%d,%.9g,%.9g,%.6g,%.3g,\"%s\"\n",
                            date, host, prop.name, driver, api, version, names[r], d ? 'd' : 's', options[r], n, n, n,
                            alpha, beta, res.reps, res.min_s, res.median_s, res.gflops, res.err, st.c_str());
                    fflush(f);
                }
            }
    if (f) fclose(f);
    cublasDestroy(h);
    return 0;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* gpublas3's host drop-ins: the Level-3 routines with the reference BLAS
 * (Fortran) and CBLAS interfaces, on host arrays, column-major for the
 * Fortran names.  Link -lgpublas3 instead of a CPU BLAS and these run on the
 * OpenCL device chosen by GPUBLAS3_DEVICE (`gpu`, `cpu`, `P:D` platform and
 * device indices, or part of the device's name; default: the first GPU,
 * else the first device).  Calls return when the result is in C (B for
 * TRMM and TRSM); several threads may call at once.
 *
 * Fortran names take every argument by reference, as reference BLAS does;
 * the hidden lengths of the character arguments are never read, so C
 * callers may leave them out.  A bad argument calls xerbla_ (the first bad
 * one, numbered as reference BLAS numbers it) and the routine returns with
 * nothing touched; an application that defines xerbla_ or cblas_xerbla gets
 * its own called.
 *
 * The CBLAS names and enums are the standard ones.  A unit that needs a
 * CPU BLAS's cblas.h as well includes that first: this header then keeps
 * its enums and declarations. */
#ifndef GPUBLAS3_BLAS_H
#define GPUBLAS3_BLAS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(GPUBLAS3_BUILDING)
#define GPUBLAS3_BLAS_API __attribute__((visibility("default")))
#else
#define GPUBLAS3_BLAS_API
#endif

/* ---- Fortran (reference BLAS) interface: column-major, all by reference ---- */
GPUBLAS3_BLAS_API void sgemm_(const char *transa, const char *transb, const int *m, const int *n,
    const int *k, const float *alpha, const float *a, const int *lda, const float *b, const int *ldb,
    const float *beta, float *c, const int *ldc);
GPUBLAS3_BLAS_API void dgemm_(const char *transa, const char *transb, const int *m, const int *n,
    const int *k, const double *alpha, const double *a, const int *lda, const double *b,
    const int *ldb, const double *beta, double *c, const int *ldc);
GPUBLAS3_BLAS_API void ssymm_(const char *side, const char *uplo, const int *m, const int *n,
    const float *alpha, const float *a, const int *lda, const float *b, const int *ldb,
    const float *beta, float *c, const int *ldc);
GPUBLAS3_BLAS_API void dsymm_(const char *side, const char *uplo, const int *m, const int *n,
    const double *alpha, const double *a, const int *lda, const double *b, const int *ldb,
    const double *beta, double *c, const int *ldc);
GPUBLAS3_BLAS_API void ssyrk_(const char *uplo, const char *trans, const int *n, const int *k,
    const float *alpha, const float *a, const int *lda, const float *beta, float *c, const int *ldc);
GPUBLAS3_BLAS_API void dsyrk_(const char *uplo, const char *trans, const int *n, const int *k,
    const double *alpha, const double *a, const int *lda, const double *beta, double *c,
    const int *ldc);
GPUBLAS3_BLAS_API void ssyr2k_(const char *uplo, const char *trans, const int *n, const int *k,
    const float *alpha, const float *a, const int *lda, const float *b, const int *ldb,
    const float *beta, float *c, const int *ldc);
GPUBLAS3_BLAS_API void dsyr2k_(const char *uplo, const char *trans, const int *n, const int *k,
    const double *alpha, const double *a, const int *lda, const double *b, const int *ldb,
    const double *beta, double *c, const int *ldc);
GPUBLAS3_BLAS_API void strmm_(const char *side, const char *uplo, const char *transa,
    const char *diag, const int *m, const int *n, const float *alpha, const float *a,
    const int *lda, float *b, const int *ldb);
GPUBLAS3_BLAS_API void dtrmm_(const char *side, const char *uplo, const char *transa,
    const char *diag, const int *m, const int *n, const double *alpha, const double *a,
    const int *lda, double *b, const int *ldb);
GPUBLAS3_BLAS_API void strsm_(const char *side, const char *uplo, const char *transa,
    const char *diag, const int *m, const int *n, const float *alpha, const float *a,
    const int *lda, float *b, const int *ldb);
GPUBLAS3_BLAS_API void dtrsm_(const char *side, const char *uplo, const char *transa,
    const char *diag, const int *m, const int *n, const double *alpha, const double *a,
    const int *lda, double *b, const int *ldb);
/* Complex (C, Z): arrays and scalars are {re, im} pairs of float / double;
 * HERK's alpha and beta and HER2K's beta are real. */
GPUBLAS3_BLAS_API void cgemm_(const char *transa, const char *transb, const int *m, const int *n,
    const int *k, const void *alpha, const void *a, const int *lda, const void *b, const int *ldb,
    const void *beta, void *c, const int *ldc);
GPUBLAS3_BLAS_API void zgemm_(const char *transa, const char *transb, const int *m, const int *n,
    const int *k, const void *alpha, const void *a, const int *lda, const void *b, const int *ldb,
    const void *beta, void *c, const int *ldc);
GPUBLAS3_BLAS_API void csymm_(const char *side, const char *uplo, const int *m, const int *n,
    const void *alpha, const void *a, const int *lda, const void *b, const int *ldb, const void *beta,
    void *c, const int *ldc);
GPUBLAS3_BLAS_API void chemm_(const char *side, const char *uplo, const int *m, const int *n,
    const void *alpha, const void *a, const int *lda, const void *b, const int *ldb, const void *beta,
    void *c, const int *ldc);
GPUBLAS3_BLAS_API void zsymm_(const char *side, const char *uplo, const int *m, const int *n,
    const void *alpha, const void *a, const int *lda, const void *b, const int *ldb, const void *beta,
    void *c, const int *ldc);
GPUBLAS3_BLAS_API void zhemm_(const char *side, const char *uplo, const int *m, const int *n,
    const void *alpha, const void *a, const int *lda, const void *b, const int *ldb, const void *beta,
    void *c, const int *ldc);
GPUBLAS3_BLAS_API void csyrk_(const char *uplo, const char *trans, const int *n, const int *k,
    const void *alpha, const void *a, const int *lda, const void *beta, void *c, const int *ldc);
GPUBLAS3_BLAS_API void cherk_(const char *uplo, const char *trans, const int *n, const int *k,
    const float *alpha, const void *a, const int *lda, const float *beta, void *c, const int *ldc);
GPUBLAS3_BLAS_API void csyr2k_(const char *uplo, const char *trans, const int *n, const int *k,
    const void *alpha, const void *a, const int *lda, const void *b, const int *ldb, const void *beta,
    void *c, const int *ldc);
GPUBLAS3_BLAS_API void cher2k_(const char *uplo, const char *trans, const int *n, const int *k,
    const void *alpha, const void *a, const int *lda, const void *b, const int *ldb, const float *beta,
    void *c, const int *ldc);
GPUBLAS3_BLAS_API void ctrmm_(const char *side, const char *uplo, const char *transa,
    const char *diag, const int *m, const int *n, const void *alpha, const void *a, const int *lda,
    void *b, const int *ldb);
GPUBLAS3_BLAS_API void zsyrk_(const char *uplo, const char *trans, const int *n, const int *k,
    const void *alpha, const void *a, const int *lda, const void *beta, void *c, const int *ldc);
GPUBLAS3_BLAS_API void zherk_(const char *uplo, const char *trans, const int *n, const int *k,
    const double *alpha, const void *a, const int *lda, const double *beta, void *c, const int *ldc);
GPUBLAS3_BLAS_API void zsyr2k_(const char *uplo, const char *trans, const int *n, const int *k,
    const void *alpha, const void *a, const int *lda, const void *b, const int *ldb, const void *beta,
    void *c, const int *ldc);
GPUBLAS3_BLAS_API void zher2k_(const char *uplo, const char *trans, const int *n, const int *k,
    const void *alpha, const void *a, const int *lda, const void *b, const int *ldb, const double *beta,
    void *c, const int *ldc);
GPUBLAS3_BLAS_API void ztrmm_(const char *side, const char *uplo, const char *transa,
    const char *diag, const int *m, const int *n, const void *alpha, const void *a, const int *lda,
    void *b, const int *ldb);
GPUBLAS3_BLAS_API void ctrsm_(const char *side, const char *uplo, const char *transa,
    const char *diag, const int *m, const int *n, const void *alpha, const void *a, const int *lda,
    void *b, const int *ldb);
GPUBLAS3_BLAS_API void ztrsm_(const char *side, const char *uplo, const char *transa,
    const char *diag, const int *m, const int *n, const void *alpha, const void *a, const int *lda,
    void *b, const int *ldb);

/* Batched GEMM under oneMKL's names: C_p <- alpha*op(A_p)*op(B_p) + beta*C_p
 * for p < batch_size, X_p at x + p*stridex (elements; a stride of 0 for a
 * or b shares one matrix among the products), column-major.  A bad
 * argument calls xerbla_ with "SGEMM_BATCH_STRIDED" and its position. */
GPUBLAS3_BLAS_API void sgemm_batch_strided_(const char *transa, const char *transb, const int *m,
    const int *n, const int *k, const float *alpha, const float *a, const int *lda, const int *stridea,
    const float *b, const int *ldb, const int *strideb, const float *beta, float *c, const int *ldc,
    const int *stridec, const int *batch_size);
GPUBLAS3_BLAS_API void dgemm_batch_strided_(const char *transa, const char *transb, const int *m,
    const int *n, const int *k, const double *alpha, const double *a, const int *lda, const int *stridea,
    const double *b, const int *ldb, const int *strideb, const double *beta, double *c, const int *ldc,
    const int *stridec, const int *batch_size);
GPUBLAS3_BLAS_API void cgemm_batch_strided_(const char *transa, const char *transb, const int *m,
    const int *n, const int *k, const void *alpha, const void *a, const int *lda, const int *stridea,
    const void *b, const int *ldb, const int *strideb, const void *beta, void *c, const int *ldc,
    const int *stridec, const int *batch_size);
GPUBLAS3_BLAS_API void zgemm_batch_strided_(const char *transa, const char *transb, const int *m,
    const int *n, const int *k, const void *alpha, const void *a, const int *lda, const int *stridea,
    const void *b, const int *ldb, const int *strideb, const void *beta, void *c, const int *ldc,
    const int *stridec, const int *batch_size);

/* Reports a bad argument: srname is the routine's name, six characters,
 * upper case, blank-padded ("DGEMM "), info its position (1 = first),
 * srname_len the hidden Fortran length (6).  The library's own prints
 * reference BLAS's message on stderr and returns (it does not stop the
 * program); define xerbla_ in the application to replace it. */
GPUBLAS3_BLAS_API void xerbla_(const char *srname, const int *info, size_t srname_len);

/* ---- CBLAS ---- */
#ifndef CBLAS_H
typedef enum CBLAS_LAYOUT { CblasRowMajor = 101, CblasColMajor = 102 } CBLAS_LAYOUT;
typedef enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112, CblasConjTrans = 113 } CBLAS_TRANSPOSE;
typedef enum CBLAS_UPLO { CblasUpper = 121, CblasLower = 122 } CBLAS_UPLO;
typedef enum CBLAS_DIAG { CblasNonUnit = 131, CblasUnit = 132 } CBLAS_DIAG;
typedef enum CBLAS_SIDE { CblasLeft = 141, CblasRight = 142 } CBLAS_SIDE;
#define CBLAS_ORDER CBLAS_LAYOUT

GPUBLAS3_BLAS_API void cblas_sgemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE TransA, CBLAS_TRANSPOSE TransB,
    const int M, const int N, const int K, const float alpha, const float *A, const int lda,
    const float *B, const int ldb, const float beta, float *C, const int ldc);
GPUBLAS3_BLAS_API void cblas_dgemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE TransA, CBLAS_TRANSPOSE TransB,
    const int M, const int N, const int K, const double alpha, const double *A, const int lda,
    const double *B, const int ldb, const double beta, double *C, const int ldc);
GPUBLAS3_BLAS_API void cblas_ssymm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,
    const int M, const int N, const float alpha, const float *A, const int lda,
    const float *B, const int ldb, const float beta, float *C, const int ldc);
GPUBLAS3_BLAS_API void cblas_dsymm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,
    const int M, const int N, const double alpha, const double *A, const int lda,
    const double *B, const int ldb, const double beta, double *C, const int ldc);
GPUBLAS3_BLAS_API void cblas_ssyrk(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans,
    const int N, const int K, const float alpha, const float *A, const int lda,
    const float beta, float *C, const int ldc);
GPUBLAS3_BLAS_API void cblas_dsyrk(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans,
    const int N, const int K, const double alpha, const double *A, const int lda,
    const double beta, double *C, const int ldc);
GPUBLAS3_BLAS_API void cblas_ssyr2k(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans,
    const int N, const int K, const float alpha, const float *A, const int lda,
    const float *B, const int ldb, const float beta, float *C, const int ldc);
GPUBLAS3_BLAS_API void cblas_dsyr2k(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans,
    const int N, const int K, const double alpha, const double *A, const int lda,
    const double *B, const int ldb, const double beta, double *C, const int ldc);
GPUBLAS3_BLAS_API void cblas_strmm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,
    CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag, const int M, const int N, const float alpha,
    const float *A, const int lda, float *B, const int ldb);
GPUBLAS3_BLAS_API void cblas_dtrmm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,
    CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag, const int M, const int N, const double alpha,
    const double *A, const int lda, double *B, const int ldb);
GPUBLAS3_BLAS_API void cblas_strsm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,
    CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag, const int M, const int N, const float alpha,
    const float *A, const int lda, float *B, const int ldb);
GPUBLAS3_BLAS_API void cblas_dtrsm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,
    CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag, const int M, const int N, const double alpha,
    const double *A, const int lda, double *B, const int ldb);
/* Complex: scalars by pointer (HERK's and HER2K's real ones by value). */
GPUBLAS3_BLAS_API void cblas_cgemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE TransA, CBLAS_TRANSPOSE TransB,
    const int M, const int N, const int K, const void *alpha, const void *A, const int lda,
    const void *B, const int ldb, const void *beta, void *C, const int ldc);
GPUBLAS3_BLAS_API void cblas_csymm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,
    const int M, const int N, const void *alpha, const void *A, const int lda,
    const void *B, const int ldb, const void *beta, void *C, const int ldc);
GPUBLAS3_BLAS_API void cblas_chemm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,
    const int M, const int N, const void *alpha, const void *A, const int lda,
    const void *B, const int ldb, const void *beta, void *C, const int ldc);
GPUBLAS3_BLAS_API void cblas_csyrk(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans,
    const int N, const int K, const void *alpha, const void *A, const int lda,
    const void *beta, void *C, const int ldc);
GPUBLAS3_BLAS_API void cblas_cherk(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans,
    const int N, const int K, const float alpha, const void *A, const int lda,
    const float beta, void *C, const int ldc);
GPUBLAS3_BLAS_API void cblas_csyr2k(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans,
    const int N, const int K, const void *alpha, const void *A, const int lda,
    const void *B, const int ldb, const void *beta, void *C, const int ldc);
GPUBLAS3_BLAS_API void cblas_cher2k(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans,
    const int N, const int K, const void *alpha, const void *A, const int lda,
    const void *B, const int ldb, const float beta, void *C, const int ldc);
GPUBLAS3_BLAS_API void cblas_ctrmm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,
    CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag, const int M, const int N, const void *alpha,
    const void *A, const int lda, void *B, const int ldb);
GPUBLAS3_BLAS_API void cblas_zgemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE TransA, CBLAS_TRANSPOSE TransB,
    const int M, const int N, const int K, const void *alpha, const void *A, const int lda,
    const void *B, const int ldb, const void *beta, void *C, const int ldc);
GPUBLAS3_BLAS_API void cblas_zsymm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,
    const int M, const int N, const void *alpha, const void *A, const int lda,
    const void *B, const int ldb, const void *beta, void *C, const int ldc);
GPUBLAS3_BLAS_API void cblas_zhemm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,
    const int M, const int N, const void *alpha, const void *A, const int lda,
    const void *B, const int ldb, const void *beta, void *C, const int ldc);
GPUBLAS3_BLAS_API void cblas_zsyrk(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans,
    const int N, const int K, const void *alpha, const void *A, const int lda,
    const void *beta, void *C, const int ldc);
GPUBLAS3_BLAS_API void cblas_zherk(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans,
    const int N, const int K, const double alpha, const void *A, const int lda,
    const double beta, void *C, const int ldc);
GPUBLAS3_BLAS_API void cblas_zsyr2k(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans,
    const int N, const int K, const void *alpha, const void *A, const int lda,
    const void *B, const int ldb, const void *beta, void *C, const int ldc);
GPUBLAS3_BLAS_API void cblas_zher2k(CBLAS_LAYOUT layout, CBLAS_UPLO Uplo, CBLAS_TRANSPOSE Trans,
    const int N, const int K, const void *alpha, const void *A, const int lda,
    const void *B, const int ldb, const double beta, void *C, const int ldc);
GPUBLAS3_BLAS_API void cblas_ztrmm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,
    CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag, const int M, const int N, const void *alpha,
    const void *A, const int lda, void *B, const int ldb);
GPUBLAS3_BLAS_API void cblas_ctrsm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,
    CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag, const int M, const int N, const void *alpha,
    const void *A, const int lda, void *B, const int ldb);
GPUBLAS3_BLAS_API void cblas_ztrsm(CBLAS_LAYOUT layout, CBLAS_SIDE Side, CBLAS_UPLO Uplo,
    CBLAS_TRANSPOSE TransA, CBLAS_DIAG Diag, const int M, const int N, const void *alpha,
    const void *A, const int lda, void *B, const int ldb);

/* Batched GEMM, oneMKL's cblas_?gemm_batch_strided (the Fortran forms above, by value) */
GPUBLAS3_BLAS_API void cblas_sgemm_batch_strided(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE transa,
    CBLAS_TRANSPOSE transb, const int m, const int n, const int k, const float alpha, const float *a, const int lda,
    const int stridea, const float *b, const int ldb, const int strideb, const float beta, float *c, const int ldc,
    const int stridec, const int batch_size);
GPUBLAS3_BLAS_API void cblas_dgemm_batch_strided(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE transa,
    CBLAS_TRANSPOSE transb, const int m, const int n, const int k, const double alpha, const double *a, const int lda,
    const int stridea, const double *b, const int ldb, const int strideb, const double beta, double *c, const int ldc,
    const int stridec, const int batch_size);
GPUBLAS3_BLAS_API void cblas_cgemm_batch_strided(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE transa,
    CBLAS_TRANSPOSE transb, const int m, const int n, const int k, const void *alpha, const void *a, const int lda,
    const int stridea, const void *b, const int ldb, const int strideb, const void *beta, void *c, const int ldc,
    const int stridec, const int batch_size);
GPUBLAS3_BLAS_API void cblas_zgemm_batch_strided(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE transa,
    CBLAS_TRANSPOSE transb, const int m, const int n, const int k, const void *alpha, const void *a, const int lda,
    const int stridea, const void *b, const int ldb, const int strideb, const void *beta, void *c, const int ldc,
    const int stridec, const int batch_size);

/* Reports a bad argument of a cblas_ routine: p is its position (the layout
 * is 1), rout the routine's name ("cblas_dgemm"), form a printf format for
 * the rest of the message.  As in reference CBLAS, a size or leading
 * dimension error of a row-major call comes with the position it has in
 * the column-major call the routine maps it to (for GEMM, a bad M of a
 * row-major call is reported as 5, N's place).  The library's own prints
 * the message, with the position as the caller wrote it, and returns;
 * define cblas_xerbla in the application to replace it. */
GPUBLAS3_BLAS_API void cblas_xerbla(int p, const char *rout, const char *form, ...);
#endif /* CBLAS_H */

#ifdef __cplusplus
}
#endif
#endif

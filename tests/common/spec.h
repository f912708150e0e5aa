/* SPDX-License-Identifier: BSD-3-Clause */
/* One description of each routine, shared by the tests and the benchmark:
 * which operands a call uses and their shapes, how to call gpublas3, how to
 * compute the reference with OpenBLAS, how many flops it does, and how to
 * judge a result.  A new routine is one entry here away from being tested
 * and benchmarked. */
#ifndef GPUBLAS3_SPEC_H
#define GPUBLAS3_SPEC_H
#include <stddef.h>
#include <gpublas3.h>

/* SPEC_NROUTINES counts the routines of every type (tests loop over
 * them); the Hermitian ones, complex only, follow up to SPEC_NALL. */
typedef enum { SPEC_GEMM, SPEC_SYMM, SPEC_SYRK, SPEC_SYR2K, SPEC_TRMM, SPEC_TRSM, SPEC_NROUTINES,
               SPEC_HEMM = SPEC_NROUTINES, SPEC_HERK, SPEC_HER2K, SPEC_NALL } spec_routine;

typedef struct {
    spec_routine routine;
    int dbl;                      /* 0: single precision, 1: double */
    gpublas3Order order;
    gpublas3Side side;            /* SYMM, TRMM, TRSM */
    gpublas3Uplo uplo;            /* SYMM, SYRK, SYR2K, TRMM, TRSM */
    gpublas3Transpose transA;     /* GEMM; SYRK/SYR2K's trans; TRMM, TRSM */
    gpublas3Transpose transB;     /* GEMM */
    gpublas3Diag diag;            /* TRMM, TRSM */
    size_t M, N, K;               /* as the routine's argument list names them; others ignored */
    double alpha, beta;           /* beta ignored by TRMM and TRSM */
    size_t offA, offB, offC;      /* in elements */
    size_t lda, ldb, ldc;         /* 0 means tight: spec_complete fills them in */
    /* Complex (C, Z): elements are {re, im} pairs; the scalars' imaginary
     * parts (HERK's alpha and beta and HER2K's beta are real: *_im ignored). */
    int cplx;
    double alpha_im, beta_im;
    /* GEMM: more than 1 is a strided batch of that many products
     * (gpublas3?gemmStridedBatched), each operand's products one after
     * another, spec_batch_stride apart (0 or 1: one call) */
    size_t batch;
} spec_case;

const char *spec_routine_name(spec_routine r);         /* "gemm", "symm", ... */
size_t spec_batch_stride(const spec_case *c, char which); /* elements between a batch's products */
int spec_parse_routine(const char *name);               /* inverse; -1 if unknown */
void spec_complete(spec_case *c);                       /* tight leading dimensions where 0 */
int spec_uses(const spec_case *c, char which);          /* 'A','B','C': does the call take it */
char spec_output(const spec_case *c);                   /* 'C', or 'B' for TRMM and TRSM */
size_t spec_elements(const spec_case *c, char which);   /* elements its buffer must hold, offset included */
size_t spec_elem_size(const spec_case *c);              /* 4 or 8, twice that when complex */
char spec_precision(const spec_case *c);                /* 's', 'd', 'c' or 'z' */
double spec_flops(const spec_case *c);                  /* useful flops of one call */
void spec_describe(const spec_case *c, char *buf, size_t n); /* one line, for messages */

/* Calls gpublas3 on the caller's buffers (enqueue only). */
gpublas3Status spec_run(const spec_case *c, cl_command_queue q, cl_mem A, cl_mem B, cl_mem C,
                        cl_uint nwait, const cl_event *wait, cl_event *event);
/* The same with the whole queue argument list, as the routines take it
 * (argument-check tests pass no queue, NULL queues, ...). */
gpublas3Status spec_run_queues(const spec_case *c, cl_uint nqueues, cl_command_queue *queues,
                               cl_mem A, cl_mem B, cl_mem C,
                               cl_uint nwait, const cl_event *wait, cl_event *event);

/* OpenBLAS reference on host arrays laid out exactly as the device buffers
 * (offsets included); updates the output array in place.  OpenBLAS is
 * reached through dlopen/dlsym so that gpublas3's own BLAS symbols never
 * stand in for the reference. */
void spec_reference(const spec_case *c, const void *A, const void *B, void *out);

/* Makes the random A of case c (the whole buffer, as data_fill or the bench
 * made it, uniform in [-1, 1]) one the judgement below is meant for: TRSM's
 * triangle becomes well-conditioned (|diagonal| in [1, 2], off-diagonal
 * entries divided by A's order, so each row is diagonally dominant: a random
 * triangular matrix is otherwise ill-conditioned exponentially in its
 * order).  Other routines' A is left alone. */
void spec_condition(const spec_case *c, void *A);

/* Judges `got` (the whole output buffer after the call) against `ref` (the
 * reference) with a per-element bound gamma*K*eps*(|alpha||op(A)||op(B)| +
 * |beta||C|), computed by running the reference on absolute values
 * (complex: |re| + |im| of each element and scalar, on both parts; HERK's
 * and HER2K's diagonal must come back with imaginary part exactly 0); every
 * element the routine must not touch (ld padding, offset prefix, tail, the
 * other triangle) must equal `before` bit for bit.  Returns the number of
 * bad elements and describes the first in msg.
 * TRSM (alpha != 0) is judged by its residual instead, not against `ref`
 * (whose own error grows with cond(A)): with X = got and B = before,
 *   |op(A) X - alpha B| <= gamma*(n+2)*eps*(|op(A)||X| + |alpha||B|)
 * elementwise (n = A's order), the bound substitution meets (Higham,
 * Accuracy and Stability, Thm 8.5: (T + dT) x = b with |dT| <= gamma_n |T|);
 * the residual is computed in double precision from the stored X. */
size_t spec_check(const spec_case *c, const void *A, const void *B, const void *before,
                  const void *got, const void *ref, char *msg, size_t n);

/* Finer-grained pieces of the same description, for tests that build their
 * own buffers.  `which` is 'A', 'B' or 'C'; (i, j) index the matrix as
 * stored, before any transposition: rows x cols as spec_dims gives them. */
void spec_dims(const spec_case *c, char which, size_t *rows, size_t *cols);
size_t spec_index(const spec_case *c, char which, size_t i, size_t j); /* offset and ld applied */
/* Does the call read (inputs) or may it write (output) stored element (i, j)?
 * 0 for SYMM's/HEMM's/TRMM's/TRSM's other triangle of A, their unit diagonal, and
 * the other triangle of SYRK's/SYR2K's/HERK's/HER2K's C.  (The imaginary
 * part of HEMM's A diagonal and of HERK's/HER2K's C diagonal is not read
 * either: spec_imag_unread.) */
int spec_referenced(const spec_case *c, char which, size_t i, size_t j);
int spec_imag_unread(const spec_case *c, char which, size_t i, size_t j);

/* spec_check on an output buffer of `nelem` elements (at least
 * spec_elements(c, spec_output(c))): the tail beyond the call's extent must
 * also come back bit-identical. */
size_t spec_check_n(const spec_case *c, const void *A, const void *B, const void *before,
                    const void *got, const void *ref, size_t nelem, char *msg, size_t n);
/* spec_check_n that also gives the worst error relative to its bound (the
 * tolerance before its gamma*K*eps: for TRSM the residual over its bound)
 * in *worst, for reports. */
size_t spec_judge(const spec_case *c, const void *A, const void *B, const void *before,
                  const void *got, const void *ref, size_t nelem, double *worst, char *msg, size_t n);
#endif

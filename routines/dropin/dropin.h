/* SPDX-License-Identifier: BSD-3-Clause */
/* What the host drop-ins (fortran.c, cblas.c) share: one description of a
 * call on host arrays, reference BLAS's argument checks, and the run that
 * cuts the call into panels and streams them through the device (or, with
 * no device left, through plain host loops).  Internal only. */
#ifndef G3_DROPIN_H
#define G3_DROPIN_H
#include <stddef.h>

typedef enum { G3D_GEMM, G3D_SYMM, G3D_SYRK, G3D_SYR2K, G3D_TRMM, G3D_TRSM } g3d_routine;

/* One column-major call, arguments by value.  Option letters are as the
 * caller gave them until g3d_check accepts them, then upper case with 'C'
 * read as 'T' (real types; complex ones keep 'C', the conjugate
 * transpose).  c/ldc is the output: C, or TRMM's and TRSM's B.  Complex calls (C, Z:
 * `cplx`; `herm` for HEMM, HERK, HER2K, on the SYMM, SYRK, SYR2K routines)
 * have complex alpha and beta (*_im; HERK's and HER2K's beta, HERK's alpha
 * real) and arrays of {re, im} pairs. */
typedef struct {
    g3d_routine routine;
    int dbl, cplx, herm;
    char side, uplo, trans, transb, diag;  /* trans: GEMM's TRANSA, SYRK/SYR2K's TRANS, TRMM/TRSM's TRANSA */
    int m, n, k;                           /* SYRK/SYR2K: n and k */
    double alpha, beta, alpha_im, beta_im;
    const void *a;
    int lda;
    const void *b;
    int ldb;
    void *c;
    int ldc;
} g3d_call;

/* Reference BLAS's checks, in its order: 0, or the position of the first
 * bad argument as the Fortran routine numbers it. */
int g3d_check(g3d_call *c);
/* "DGEMM " etc.: the six-character name xerbla_ gets. */
const char *g3d_name(const g3d_call *c);
/* Everything after the checks: quick returns, alpha = 0 on the host, the
 * device, and the fallbacks. */
void g3d_run(const g3d_call *c);

/* Set while a row-major cblas_ call reports an error, so that the library's
 * own cblas_xerbla can name the argument as the caller wrote it. */
extern _Thread_local int g3d_cblas_rowmajor;
/* cblas.c's pieces that the batched CBLAS drop-ins (batch.c) share:
 * cblas_xerbla with g3d_cblas_rowmajor set; the layout's check (1 row-major,
 * 0 column-major, -1 reported); the Fortran letter of a transpose enum (0
 * if none); and the column-major GEMM of a call in either layout (row-major:
 * C^T = op(B)^T op(A)^T), its type and scalars from t. */
void g3d_cblas_report(int row, int pos, const char *rout, const char *form, int value);
int g3d_cblas_layout(int layout, const char *rout);
char g3d_cblas_trans(int t);
g3d_call g3d_cblas_gemm(g3d_call t, int row, char a, char b, int M, int N, int K, const void *A, int lda,
                        const void *B, int ldb, void *C, int ldc);

/* ---- the plan: panels of the output, each a few sub-calls (dropin_plan.c) ---- */

/* Element (r, c) of the call's matrix 'A', 'B' or 'C' (the output). */
typedef struct { char mat; int r, c; } g3d_at;

/* One sub-call, in the same terms as g3d_call but with its operands placed
 * inside the call's matrices. */
typedef struct {
    g3d_routine routine;
    char side, uplo, trans, transb, diag;
    int m, n, k;
    double alpha, beta;
    g3d_at a, b, c;
    double alpha_im, beta_im;  /* complex calls */
} g3d_op;

/* Bytes per element of the call's arrays. */
static inline size_t g3d_elem_size(const g3d_call *c) { return (size_t)(c->dbl ? 8 : 4) << (c->cplx ? 1 : 0); }

typedef struct { int r0, r1, c0, c1; } g3d_region;  /* rows [r0,r1) x columns [c0,c1) */

typedef struct {
    g3d_region x;  /* the part of the plan's xmat this panel brings (empty if none) */
    g3d_region y;  /* the part of the output it updates */
    int nops;
    g3d_op op[3];
} g3d_panel;

typedef struct {
    int npanels;
    int extent, width;   /* columns (rows) to cover, and the width of most panels */
    int nbulk, ntail;    /* panels of `width`, then the last one's share cut in halves */
    int by_rows;         /* panels are row blocks of the output, else column blocks */
    char shared[2];      /* matrices sent whole before the first panel ('A', 'B'; 0 = none) */
    char xmat;           /* the matrix sent in parts with each panel, 0 if none */
    int reads_c;         /* the output's old value is read (TRMM, TRSM, or beta != 0) */
} g3d_plan;

void g3d_plan_make(const g3d_call *c, size_t panel_bytes, g3d_plan *pl);
void g3d_plan_panel(const g3d_call *c, const g3d_plan *pl, int p, g3d_panel *out);
/* Columns (rows) [lo, hi) of panel p. */
void g3d_plan_span(const g3d_plan *pl, int p, int *lo, int *hi);
/* Rows and columns of matrix 'A', 'B' or 'C' as stored. */
void g3d_stored(const g3d_call *c, char mat, int *rows, int *cols);
/* The rows of column j of the output that panel y-region keeps: all, or for
 * SYRK/SYR2K only the stored triangle's. */
void g3d_kept_rows(const g3d_call *c, const g3d_region *y, int j, int *r0, int *r1);

/* ---- the host BLAS and the crossover (cpu_blas.c, host_rate.c, crossover.c) ---- */

/* A host BLAS defines the call's routine (GPUBLAS3_CPU_BLAS, else the next
 * library in the process with the same name, else the system's
 * libopenblas.so.0 or libblas.so.3: cpu_blas.c). */
int g3b_have(const g3d_call *c);
/* Runs the call there (g3b_have must have said yes). */
void g3b_run(const g3d_call *c);
/* The host BLAS's file, or "none". */
const char *g3b_name(void);
/* The host BLAS's rate the model prices host calls at (host_rate.c):
 * g3r_start times it once (or reads GPUBLAS3_HOST_GFLOPS), g3r_gflops
 * gives it in GFLOP/s for a precision and a call's flops (why, when not
 * NULL, gets where it came from), g3r_run runs a call on the host BLAS and
 * raises the rate for calls of its size to what the call showed. */
void g3r_start(void);
double g3r_gflops(int dbl, double flops, char *why, size_t len);
void g3r_run(const g3d_call *c);
/* The call's flops, as the crossover counts them. */
double g3x_flops(const g3d_call *c);
/* The octave of x (floor of log2 x) as an index from 0 to n - 1 (clamped):
 * the sizes by which the model learns, of calls' flops and of their
 * predicted times. */
int g3x_octave(double x, int n);
/* 1: the call pays for the trip to the device (model or
 * GPUBLAS3_CROSSOVER); t[0], t[1] get the model's host and (corrected)
 * device times (without a TRSM's part where that was not needed to keep the
 * call on the host), 0 under GPUBLAS3_CROSSOVER; why gets the reason under
 * GPUBLAS3_VERBOSE only (formatting costs as much as a tiny call). */
int g3x_to_device(const g3d_call *c, double t[2], char *why, size_t len);
/* What a call the model sent to the device took there, in seconds, whole
 * (crossover.c corrects later predictions by it). */
void g3x_device_took(const g3d_call *c, double seconds);

/* ---- executing a plan ---- */

/* On the device of the slot, from panel *first on; *first advances past
 * every panel whose result is back in the caller's array.  `name`
 * ("DGEMM") is for messages.  Returns an OpenCL/gpublas3 status. */
struct g3h_slot;
int g3d_device_run(struct g3h_slot *s, const g3d_call *c, const g3d_plan *pl, int *first, const char *name);
/* Plain host loops (the last resort), panels first.. on. */
void g3d_host_run(const g3d_call *c, const g3d_plan *pl, int first);
/* alpha = 0 (or k = 0 for GEMM, SYRK, SYR2K): C <- beta*C, exactly as
 * reference BLAS does it, on the host. */
void g3d_host_scale(const g3d_call *c);
#endif

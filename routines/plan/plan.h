/* SPDX-License-Identifier: BSD-3-Clause */
/* The plan floor: between the routines (which check their arguments and
 * describe the call as a g3_call) and the host sides of the kernels (copy/,
 * kernels/).  For each call it chooses how to run it, once, in one place
 * (plan.c), then composes the launches of the chosen path.
 *
 * A call is C <- alpha * sum_t a[t] * b[t] + beta * C with C M x N
 * column-major, a[t] M x K and b[t] K x N given as structured operands (the
 * copy kernel's g3_operand); `tri` stores one triangle of C (SYRK, SYR2K),
 * `band` marks the k-range where a triangular operand is nonzero (TRMM),
 * `snapshot` says that a[0] (1) or b[0] (2) is the output itself (TRMM: it
 * is read before it is overwritten); `direct` asks for the direct path
 * whatever the size, where the direct kernel can run the call (TRSM's
 * small products: solve.c).
 * A complex call (`cplx`, G3_CPLX or G3_HERMITIAN when C's diagonal must
 * come out real) counts M, N, K, offc and ldc in complex elements, has
 * complex alpha and beta, and complex operands; complex.c maps it to a real
 * call before it is planned.  With `alpha_conj2` the second term takes
 * conj(alpha) (HER2K). */
#ifndef G3_PLAN_H
#define G3_PLAN_H
#include "core.h"
#include "pack.h"
#include "gemm.h"
#include "direct.h"
#include "reduce.h"

enum { G3_REAL = 0, G3_CPLX = 1, G3_HERMITIAN = 2 };

/* How the routines pass their element type and scalars on: type is
 * G3_S, G3_D, G3_C or G3_Z (bit 0: double, bit 1: complex); real calls
 * have im = 0. */
enum { G3_S = 0, G3_D = 1, G3_C = 2, G3_Z = 3 };
typedef struct { double re, im; } g3_scalar;
static inline g3_scalar g3_real(double x) { return (g3_scalar){ x, 0 }; }
static inline g3_scalar g3_cfloat(cl_float2 x) { return (g3_scalar){ x.s[0], x.s[1] }; }
static inline g3_scalar g3_cdouble(cl_double2 x) { return (g3_scalar){ x.s[0], x.s[1] }; }
static inline size_t g3_type_size(int type) { return (size_t)4 << (type & 1) << (type >> 1); }
/* The type's letter in the public names (gpublas3Sgemm ...). */
static inline char g3_type_letter(int type) { return "SDCZ"[type & 3]; }
/* SYRK's and SYR2K's trans as reference BLAS takes it: any for real types
 * (C acts as T), N or T for complex symmetric, N or C for Hermitian. */
static inline int g3_valid_rank_trans(int type, int herm, gpublas3Transpose t)
{
    if (!(type >> 1))
        return g3_valid_trans(t);
    return t == gpublas3NoTrans || t == (herm ? gpublas3ConjTrans : gpublas3Trans);
}

/* An operand packed once and read by a series of calls: the host
 * drop-ins' panels all multiply by the same shared matrix (A, or B by
 * rows), which a call through the cl_mem API would pack again each time.
 * The caller names the buffer that holds it (src), passes the object to
 * every call of the series that uses that operand whole (g3_call.reuse),
 * and releases it after the last; it must not be shared between threads.
 * The first such call packs the operand into scratch it keeps, and fixes
 * the parameter set (its layout) for the rest; a later call reads the
 * packed copy when its operand is the same one (buffer, place, transpose,
 * structure, extent and set), else packs as usual, so a mismatch costs
 * time, never a wrong result.  Calls carrying it take the packed path. */
typedef struct {
    cl_mem src;            /* the shared operand's buffer */
    cl_mem buf;            /* its packed copy (pool scratch kept), NULL until the first call */
    const g3_device *d;
    const g3_kset *ks;     /* the set the copy is laid out for */
    int shape;
    g3_operand op;         /* what buf holds: op packed whole, xlen x klen */
    int bside;
    size_t xlen, klen;
    cl_command_queue q;    /* the queue and last event of the last call that used it */
    cl_event last;
    int packs, reads;      /* calls that packed it, calls that read it (GPUBLAS3_VERBOSE) */
} g3_reuse;
void g3_reuse_init(g3_reuse *r, cl_mem src);
/* Gives the packed copy back to the pool (reused once the last call that
 * read it has completed). */
void g3_reuse_release(g3_reuse *r);

typedef struct {
    int dbl, cplx;
    size_t M, N, K;
    double alpha, beta;
    double alpha_im, beta_im;
    int alpha_conj2;
    int nterms;
    g3_operand a[2], b[2];
    cl_mem c;
    size_t offc, ldc;
    int tri, band;
    int snapshot;
    g3_reuse *reuse;  /* NULL, or a series' shared operand (above) */
    int direct;
    size_t held;      /* scratch bytes its caller holds for it (the square form's X, the transposed form's T) */
} g3_call;

/* The ways to run a call. */
typedef enum {
    G3_PATH_PACKED,  /* copy kernels into scratch, then the tuned GEMM kernel */
    G3_PATH_DIRECT,  /* one launch reading A, B and C in place (tiny calls) */
    G3_PATH_SPLITK   /* K split among work-groups, then a deterministic reduction */
} g3_path;

typedef struct {
    g3_path path;
    int shape;            /* G3_SHAPE_*: the class whose parameter set runs it */
    const g3_kset *ks;    /* that set on this device */
    int splits;           /* G3_PATH_SPLITK: slices of K, each kslice deep */
    size_t kslice;
    int inplace;          /* packed and split-K: operands read in place, not packed (bits below) */
    int transposed;       /* packed, CPUs: run as C^T = op(B)^T op(A)^T into scratch (g3_enqueue decides) */
    int square;           /* SYR2K, HER2K: run as their square form instead (square.c; g3_enqueue decides) */
} g3_plan;
/* g3_plan.inplace: a[t] is G3_INPLACE_A << t, b[t] G3_INPLACE_B << t, and
 * with G3_INPLACE_KA << t (KB) it is read with k contiguous, with
 * G3_INPLACE_CA << t it is a complex A read as its 2x2 form (packed.c). */
enum { G3_INPLACE_A = 1, G3_INPLACE_B = 4, G3_INPLACE_KA = 16, G3_INPLACE_KB = 64, G3_INPLACE_CA = 256 };
/* Where an operand read in place with those bits starts for the panel
 * at x0 (m of A, n of B), k0, and its leading dimension, in the elements
 * the kernel counts (packed.c). */
void g3_inplace_at(const g3_operand *o, int bits, size_t x0, size_t k0, size_t *off, size_t *ld);

/* Work-group tiles of c's output under parameters p (plan.c's classes, splitk.c). */
static inline size_t g3_tiles(const g3_params *p, const g3_call *c)
{
    return ((c->M + p->mwg - 1) / p->mwg) * ((c->N + p->nwg - 1) / p->nwg);
}

/* Whether the launch of an m x n diagonal block of c's stored triangle
 * under parameters p has work-group ids on the triangle's tiles only
 * (kernels/gemm.cl's TRIMAP; complex: m counts two real rows a complex
 * row): the plan line (plan.c) and the launch (packed.c) ask the same
 * question. */
static inline int g3_trimap(const g3_call *c, size_t m, size_t n, const g3_params *p)
{
    return c->tri && m == (c->cplx ? 2 * n : n) && p->mwg == p->nwg;
}

/* Chooses the plan of call c on device d. */
void g3_plan_choose(const g3_device *d, const g3_call *c, g3_plan *out);
/* One line for GPUBLAS3_VERBOSE. */
void g3_plan_describe(const g3_device *d, const g3_call *c, const g3_plan *p, char *buf, size_t n);

/* GPUBLAS3_VERBOSE is set (read once). */
int g3_plan_verbose(void);
/* Plans and enqueues call c as the next steps of the chain. */
gpublas3Status g3_enqueue(const g3_call *c, g3_chain *chain);
/* Everything a routine does after its checks: runs c on the caller's
 * queues after the wait list and hands back events[i] for queue i. */
gpublas3Status g3_run(const g3_call *c, cl_uint nq, cl_command_queue *qs, cl_uint nwait,
                      const cl_event *wait, cl_event *events);

/* A complex call as the real call that computes it (complex.c).  That call
 * keeps a complex beta (beta_im != 0): the path scales C by it first. */
void g3_complex_map(const g3_call *c, g3_call *real);
/* Several queues: c cut into one block of C per queue (split.c). */
gpublas3Status g3_split_run(const g3_call *c, cl_uint nq, cl_command_queue *qs, cl_uint nwait,
                            const cl_event *wait, cl_event *events);

/* A triangular solve (TRSM), column-major: op(A) X = alpha B (left) or
 * X op(A) = alpha B (right), X overwriting the M x N B; `upper` is op(A)'s
 * triangle; complex (cplx) with complex alpha, `conj` for ConjTrans.
 * solve.c composes it from diagonal-block inversions and calls.  With
 * `mul`, the product (TRMM) B <- alpha op(A) B or alpha B op(A) by the same
 * blocks, where the device's set solves them by substitution
 * (g3_solve_mul). */
typedef struct {
    int dbl, cplx, left, upper, trans, conj, unit, mul;
    size_t M, N;
    g3_scalar alpha;
    cl_mem a, b;
    size_t offa, lda, offb, ldb;
} g3_solve;
gpublas3Status g3_solve_run(const g3_solve *s, cl_uint nq, cl_command_queue *qs, cl_uint nwait,
                            const cl_event *wait, cl_event *events);
/* The device of queue 0 (*d0), how many of the nq queues are on it (those
 * share a solve's right-hand sides, solve.c) and, where `on` is given,
 * which: on[i] 1 for queue i on it. */
gpublas3Status g3_solve_queues(cl_uint nq, cl_command_queue *qs, const g3_device **d0, cl_uint *shares,
                                unsigned char *on);
/* TRSM's or TRMM's arguments (type: G3_S..G3_Z) as the column-major solve
 * (mul 0): row-major flips the side and A's stored triangle and swaps M and
 * N; trans stays, and conjugation with it. */
g3_solve g3_solve_of(int type, gpublas3Order order, gpublas3Side side, gpublas3Uplo uplo, gpublas3Transpose trans,
                     gpublas3Diag diag, size_t M, size_t N, g3_scalar alpha, cl_mem A, size_t offA, size_t lda,
                     cl_mem B, size_t offB, size_t ldb);
/* 1 when a solve (complex: cplx) on a device whose large set of its
 * precision is p and whose local memory is local_mem bytes runs its leaves
 * as launches of kernels/trsm.cl, 0 when it takes trsm_nb's blocks as GEMM
 * calls (solve.c; the drop-ins' crossover prices the two apart). */
int g3_solve_leaves(const g3_params *p, int cplx, cl_ulong local_mem);
/* 1 when TRMM on a device whose large set of its precision is p runs as
 * g3_solve's product (the set's trsm_subst). */
int g3_solve_mul(const g3_params *p);

/* A batch of GEMM products (batched.c), column-major: `one` is product 0
 * as a single call (one term), the others like it with a[0], b[0] and C
 * `stride` elements of the call's type further each (0 for a or b: one
 * matrix shared by every product), or, with `offs`, at offs[0][p],
 * offs[1][p], offs[2][p] (host arrays) and scalars alphas[p], betas[p]. */
typedef struct {
    g3_call one;
    size_t count;
    size_t stride[3];
    const size_t *offs[3];
    const g3_scalar *alphas, *betas;
} g3_batch;
/* Runs the batch on the caller's queues after the wait list, the products
 * shared out among them, events[i] for queue i (batched.c). */
gpublas3Status g3_batch_run(const g3_batch *b, cl_uint nq, cl_command_queue *qs, cl_uint nwait,
                            const cl_event *wait, cl_event *events);

/* The paths (one file each).  Split-K is the packed path with its GEMM
 * launches writing partial sums to scratch, then splitk.c's reduction. */
gpublas3Status g3_packed_enqueue(const g3_device *d, const g3_call *c, const g3_plan *p, g3_chain *chain);
gpublas3Status g3_direct_enqueue(const g3_device *d, const g3_call *c, const g3_plan *p, g3_chain *chain);
/* The operands of c that the packed path with set ks, in that many
 * slices of K, reads in place (G3_INPLACE_* bits): those already laid out
 * as the GEMM kernel reads them, as packed.c says. */
int g3_packed_inplace(const g3_call *c, const g3_kset *ks, int splits);
/* c (planned as p.transposed) run as its transpose s, C^T = op(B)^T
 * op(A)^T, planned as ps: s's product into scratch, then C <- T^T +
 * beta*C (plan.c decides; packed.c). */
gpublas3Status g3_packed_transposed(const g3_device *d, const g3_call *c, const g3_plan *p, const g3_call *s,
                                    const g3_plan *ps, g3_chain *chain);
/* SYR2K's and HER2K's square form (square.c): does it run call (the
 * complex call itself, not its real view), planned as p, and then run it:
 * term 0 over the whole square into scratch X, C <- X + X^T + beta C;
 * gpublas3OutOfResources only where it enqueued nothing. */
int g3_square_wins(const g3_device *d, const g3_call *call, const g3_plan *p);
gpublas3Status g3_square_enqueue(const g3_device *d, const g3_call *call, const g3_plan *p, g3_chain *chain);
/* Does the packed path with set ks and that many slices of K (split-K,
 * else 0 or 1) run c's two terms as one product of twice the depth
 * (packed.c)? */
int g3_packed_cat(const g3_call *c, const g3_kset *ks, int splits);
/* The scratch a call may take: the limit less what its caller holds. */
size_t g3_call_budget(const g3_device *d, const g3_call *c);
/* May a form hold `bytes` of scratch of its own while c runs inside it
 * (g3_call.held)?  Within half c's budget, so that c keeps the rest. */
int g3_hold_fits(const g3_device *d, const g3_call *c, size_t bytes);
/* Does the packed path run c as one panel, in that many slices of K,
 * with `extra` bytes of scratch besides? */
int g3_packed_whole_fits(const g3_device *d, const g3_call *c, const g3_kset *ks, int splits, size_t extra);
/* Does the direct kernel's complex mode run complex call c as it is (one
 * term, general operands, every element of C: GEMM's calls; plan.c)? */
int g3_complex_direct(const g3_call *c);
/* Can the direct kernel with set ks run c (TRMM: only when no work-group
 * reads what another overwrites)? */
int g3_direct_fits(const g3_call *c, const g3_kset *ks);
/* Small enough to ask for the direct kernel: at most direct_max^3
 * multiply-adds per term (c a complex call's real view: four a complex one). */
int g3_direct_wanted(const g3_call *c, const g3_kset *ks);
/* Slices of K for c with set ks (0: do not split) and their depth; forced
 * (GPUBLAS3_SPLITS, or 3 for GPUBLAS3_PLAN=splitk; 0: the plan's choice):
 * that many where K has as many k-tiles, else one per k-tile. */
int g3_splitk_slices(const g3_device *d, const g3_call *c, const g3_kset *ks, int forced, size_t *kslice);
/* Bytes of partial sums of a split into `splits`. */
size_t g3_splitk_bytes(const g3_call *c, int splits);
/* Sums the partials in P into C with alpha, beta and c's triangle. */
gpublas3Status g3_splitk_reduce(const g3_device *d, const g3_call *c, const g3_plan *p, int splits, cl_mem P,
                                g3_chain *chain);
#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* Tuned parameters of the GEMM and copy kernels for one device and
 * precision.  The rows come from the CSV tables in tuned-params/ (turned into
 * g3_tuned_table by lib/cmake/params.cmake) and from the user's own
 * (lib/usertable.c, at run time); lib/params.c checks a set and
 * applies the GPUBLAS3_PARAMS override; kernels/gemm.cl says what each
 * parameter does to the kernel. */
#ifndef G3_PARAMS_H
#define G3_PARAMS_H
#include <stddef.h>

/* Classes of call shapes, each with its own parameter set: the plan
 * (routines/plan/plan.c) puts every call into one, and a batch's plan
 * (routines/plan/batched.c) its products, which alone take the batch
 * and tiny classes; a table row names the class it serves in its `shape` column, or
 * `any`. */
enum { G3_SHAPE_LARGE, G3_SHAPE_SMALL, G3_SHAPE_SKINNY, G3_SHAPE_DEEPK, G3_SHAPE_MEDIUM, G3_SHAPE_BATCH, G3_SHAPE_TINY, G3_NSHAPES };
#define G3_SHAPE_ANY (-1)
extern const char *const g3_shape_names[G3_NSHAPES]; /* "large", "small", ... */

typedef struct {
    const char *table;  /* CSV file the row came from, for messages */
    const char *match;  /* device-name substring, "vendor:..", "type:gpu|cpu" or "default" */
    int precision;      /* 32 or 64 */
    int shape;          /* G3_SHAPE_*, or G3_SHAPE_ANY */
    /* GEMM kernel (kernels/gemm.cl) */
    int mwg, nwg, kwg;  /* work-group tile in M, N, K */
    int mdimc, ndimc;   /* work-group shape (mma: warps); work-item tile mwg/mdimc x nwg/ndimc */
    int vwm, vwn;       /* vector widths of the A' and B' loads */
    int kwi;            /* unroll factor of the loop over a k-tile */
    int sa, sb;         /* stage A', B' through local memory */
    int db;             /* double-buffer the staged tiles */
    int pad;            /* elements added to each staged row */
    int wtm;            /* 0, or work-items of a 32-wide group along M (warp tiling) */
    int nfirst;         /* work-group ids enumerate N-blocks first */
    int mma;            /* 1..4: NVIDIA fp64 tensor-core path (inline PTX), its mma shape */
    int cpref;          /* k-tiles before its last at which a work-group prefetches its tile of C
                         * into L2 (beta != 0; 0: never); NVIDIA only (inline PTX) */
    int async;          /* 0, or 2..4: staged tiles copied by cp.async through a ring of that many buffers
                         * where the set stages both (g3_params_ring); NVIDIA only (inline PTX) */
    int swz;            /* 1: staged rows' 16-byte chunks XOR-swizzled by k % 4 (bank conflicts at pad 0)
                         * where the set's staging allows it (g3_params_swizzled); 2: the same in every
                         * launch but a band's (TRMM's, TRSM's triangles: kernels/gemm.c), whose build
                         * the swizzle's registers can cost more than it gains */
    int cvec;           /* 1: C stored a vector (VWM) at a time where one lies whole inside C and
                         * inside the stored triangle; no table column: lib/device.c sets it by device type */
    int rtmap;          /* 1: every GEMM launch takes its map of ids to tiles, and how it reads packed or
                         * m (n) contiguous operands, from arguments: one build for all but those reading
                         * an operand k contiguous (0: constants of each build, kernels/gemm.cl);
                         * no table column: lib/device.c sets it by device type */
    /* copy kernel (copy/pack.cl) */
    int copy_ts, copy_rs; /* tile edge, rows of work-items */
    int copy_direct;      /* 1: no local-memory tile (CPUs) */
    /* TRSM (routines/plan/solve.c) */
    int trsm_nb;          /* order of the diagonal blocks kernels/trtri.cl inverts */
    int trsm_refine;      /* 1: each product with an inverted block is refined once */
    int trsm_direct;      /* TRSM's products of inner dimension at most this ask for the direct path (0: none) */
    int trsm_cols;        /* kernels/trtri.cl: columns of an inverse per work-group (0: one work-item per column) */
    int trsm_leaf;        /* solves: leaves of at most this many rows are one launch of kernels/trsm.cl
                           * (a multiple of 32, at most 1024; 0: none, trsm_nb's blocks as GEMM calls) */
    int trsm_subst;       /* 1: the blocked path solves each block of trsm_nb by substitution (kernels/subst.cl)
                           * instead of multiplying by its inverse (0) */
    /* the plan (routines/plan/plan.c) and its direct kernel (kernels/direct.cl);
     * 0 in a table row: lib/device.c's default for the device type */
    int direct_dm, direct_dn; /* direct kernel: work-group shape */
    int direct_wm, direct_wn; /* direct kernel: elements of C per work-item, in M and N */
    int direct_kb;        /* direct kernel's complex mode: k-steps of general operands staged through local
                           * memory at a time (1: none, every element read where it is) */
    int direct_max;       /* calls of at most direct_max^3 multiply-adds per term run direct */
    int direct_nb;        /* a batch on the direct kernel: each work-group runs products of at most this many
                           * multiply-adds in all one after the other (routines/plan/batched.c; 1: one each) */
    int splitk_k;         /* split-K: the least depth one slice of K gets */
    int splitk_wgs;       /* split-K aims at this many work-groups per compute unit (splits where that is 2+ per tile) */
    int deepk_max;        /* the deepk class (its own set's field): outputs of sides at most this, else small */
    int skinny_max;       /* the skinny class (its own set's field): a small output side of at most this */
    int medium_wgs;       /* the medium class (its own set's field): outputs the large set's tiles leave under this
                           * many work-groups per compute unit, to the nearest whole (0: no medium class) */
    int medium_k;         /* the medium class (its own set's field): also the large class's calls with K at most
                           * this (0: none) */
    int batch_max;        /* the batch and tiny classes (each its own set's field): a batch's real products of at
                           * most this many rows and columns run on that set first (0: no such class) */
    int square2k;         /* nonzero: SYR2K and HER2K calls whose triangle the plan splits in K run as one GEMM
                           * of their first term over the whole square, then C <- X + X^T + beta C
                           * (routines/plan/square.c); above 1, also unsplit ones of N at most this and K at
                           * least N/2 */
    int kreuse;           /* an operand with k contiguous is read in place only where at most this many work-group
                           * tiles read it (routines/plan/packed.c; 0: its G3_INPLACE_REUSE) */
} g3_params;

/* kernels/trsm.cl's leaf: diagonal blocks of G3_LEAF_TB (the order
 * kernels/trtri.cl inverts for it), G3_LEAF_W columns of B a work-group of
 * G3_LEAF_LS work-items, a work-item at most 4 rows (trsm_leaf at most 4
 * LS, 1024); in local memory G3_LEAF_LOCAL(es) bytes for elements of es
 * bytes (Il and Tl, Bl, Xl and Rl), so complex solves need twice a real
 * one's (routines/plan/solve.c checks those per call). */
#define G3_LEAF_TB 32
#define G3_LEAF_W 8
#define G3_LEAF_LS (G3_LEAF_TB * G3_LEAF_W)
#define G3_LEAF_LOCAL(es) ((es) * (2 * G3_LEAF_TB * G3_LEAF_TB + 3 * G3_LEAF_TB * G3_LEAF_W))

/* trsm_nb and trsm_refine of a table without those columns: docs/performance.md,
 * TRSM, says why. */
#define G3_TRSM_NB 64
#define G3_TRSM_REFINE 1
#define G3_TRSM_COLS 8
#define G3_TRSM_LEAF 1024

extern const g3_params g3_tuned_table[];
extern const int g3_tuned_count;

/* The user's rows (lib/usertable.c): those of every *.csv in the folder
 * g3_user_dir names, read once per process; lib/device.c looks at them
 * before g3_tuned_table's.  g3_user_dir: GPUBLAS3_TUNED_DIR, else
 * $XDG_CONFIG_HOME/gpublas3, else $HOME/.config/gpublas3; 0 when none. */
const g3_params *g3_user_rows(int *count);
int g3_user_dir(char *buf, size_t n);

/* The ring of buffers cp.async fills (the set's async), or 0 where the set
 * cannot use it: A' and B' not both staged, or vectors over cp.async's 16
 * bytes.  A set asks for async as a preference, so that an override of
 * its other fields (sa=0, vwm=8) still runs, through registers. */
int g3_params_ring(const g3_params *p);

/* The set's swz (1, or 2: not in a band's launch) when the staged rows
 * can be swizzled: A' and B' both staged, unpadded, in vectors of 16
 * bytes, rows of whole groups of 8 of them; else 0.  A preference, as
 * async is, so that an override of the other fields (sa=0, pad=4) runs
 * the plain layout rather than being refused. */
int g3_params_swizzled(const g3_params *p);

/* p with async and swz as they take effect (g3_params_ring,
 * g3_params_swizzled): what the kernel is compiled with, and what the
 * tuner compares and writes. */
g3_params g3_params_effective(const g3_params *p);

/* 1 when the set uses inline PTX (mma, cpref, async), which only NVIDIA's
 * compiler takes: lib/device.c and the tuner refuse it elsewhere. */
int g3_params_nvidia_only(const g3_params *p);

/* Why a parameter set cannot run on a device, or NULL when it can (mma sets
 * also need an NVIDIA device: lib/device.c checks that). */
const char *g3_params_invalid(const g3_params *p, size_t max_wg, size_t local_mem_bytes);
/* Applies "name=value,..." to p; 0 on success.  GPUBLAS3_PARAMS holds
 * such lists separated by ';' or spaces, each optionally prefixed "s:" or
 * "d:" to apply to one precision only (p->precision picks), then
 * optionally by a class name and ':' ("medium:", "d:small:") to apply to
 * that class's set only (shape picks: the class p serves).  _env returns
 * -1 when env cannot be parsed, else 1 when a list named shape's class. */
int g3_params_override(g3_params *p, const char *spec);
int g3_params_override_env(g3_params *p, int shape, const char *env);
/* The -D options that compile the GEMM kernel / the copy kernel with p
 * (apart: the copy kernel sees only the copy parameters and the GEMM
 * kernel's KWG, so other GEMM changes do not rebuild it). */
void g3_params_defines(const g3_params *p, char *buf, size_t n);
void g3_params_copy_defines(const g3_params *p, char *buf, size_t n);
void g3_params_direct_defines(const g3_params *p, char *buf, size_t n);
/* The copy kernel's grid for an xlen x klen panel, `layers` deep: a
 * work-group per copy_ts x copy_ts tile, of copy_ts x copy_rs work-items,
 * or of one on CPUs (copy_direct: copy/pack.cl says why). */
void g3_params_copy_grid(const g3_params *p, size_t xlen, size_t klen, size_t layers, size_t global[3],
                         size_t local[3]);
/* The direct kernel's staged tiles with p's geometry, in bytes, counted
 * for complex doubles (the largest element); 0 where direct_kb stages none. */
size_t g3_params_direct_local(const g3_params *p);
/* The field of p named as in the override syntax, or NULL. */
int *g3_params_field(g3_params *p, const char *name);
/* p as "name=value,..." (the override syntax, for the tuner and messages). */
void g3_params_string(const g3_params *p, char *buf, size_t n);
#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* Every kernel at small sizes, for Oclgrind (run by oclgrind.cmake as
 * `oclgrind --data-races --uninitialized --check-api`; any report fails
 * the test).  The calls reach every shape the copy kernel packs (general,
 * symmetric upper/lower, triangular upper/lower with unit diagonal,
 * transposed or not, row and column major), the GEMM kernel's triangle
 * store (SYRK, SYR2K), its band skipping (TRMM, both sides), TRSM's
 * inversion kernel (kernels/trtri.cl, both triangles) and its leaf kernel
 * (kernels/trsm.cl, both directions), beta = 0 and
 * panels that accumulate (a scratch cap splits K, M and N), every routine
 * through the direct kernel (the plan's own choice at these sizes), the
 * packed path and split-K (the GEMM kernel's layers of K slices and the
 * reduction kernel; SYR2K's square form, its reduce_sym), forced by
 * GPUBLAS3_PLAN, in both precisions and the complex forms
 * (copy/cpack.cl, trtri's complex arithmetic; complex calls take the
 * packed path whatever is forced, but small GEMMs, which run on the
 * direct kernel's complex mode),
 * operands read in place by the GEMM kernel, the tile maps and the pairs
 * of packs, first with the parameters the library picks for the device,
 * then with every row of the tuned-parameter tables given as arguments (CSV
 * files; rows for NVIDIA's inline-PTX path are skipped: Oclgrind cannot
 * run them), one packed call each.  Results are checked against OpenBLAS too.
 * Each part can run alone (main() names them), so that ctest runs them
 * side by side.
 *
 * Buffers are released only at exit: Oclgrind 21.10's uninitialized-value
 * plugin keeps the shadow state of a released buffer at its address, so a
 * buffer later allocated there reads as uninitialized past the old one's
 * end (a false report; seen when the scratch pool trims).  This program's
 * clReleaseMemObject, which libgpublas3 calls too, only records them. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rel.h"

static rel_dev dev;

static cl_mem *graveyard;
static size_t ndead, capdead;

cl_int clReleaseMemObject(cl_mem m)
{
    if (!m) return CL_INVALID_MEM_OBJECT;
    if (ndead == capdead) {
        capdead = capdead ? 2 * capdead : 256;
        graveyard = realloc(graveyard, capdead * sizeof *graveyard);
    }
    graveyard[ndead++] = m;
    return CL_SUCCESS;
}

static void release_graveyard(void)
{
    cl_int (*real)(cl_mem) = (cl_int(*)(cl_mem))dlsym(RTLD_NEXT, "clReleaseMemObject");
    for (size_t i = 0; real && i < ndead; i++) real(graveyard[i]);
    free(graveyard);
}

/* tail: elements after each operand's last one (0: reading past it is a
 * read outside the buffer, which Oclgrind reports) */
static void call_tail(spec_case c, const char *what, size_t tail)
{
    rel_case r;
    rel_fill(&r, &c, 7, tail);
    rel_upload(&r, dev.ctx, dev.q);
    rel_expect(rel_run(&r, dev.q, what) == 0, "%s", what);
    rel_free(&r);
}

static void call(spec_case c, const char *what) { call_tail(c, what, 2); }

static void restart(void)
{
    gpublas3Teardown();
    gpublas3Setup();
}

/* The parts that check a path's logic rather than a tile run on a tile of
 * 16 x 16 (4 x 4 work-items): Oclgrind runs every work-item in turn, and
 * the default set's 64 x 64 tile made them 6x slower (every row's own tile
 * is checked by rows()). */
#define SMALL_TILE "mwg=16,nwg=16,kwg=8,mdimc=4,ndimc=4,vwm=1,vwn=1,kwi=8,sa=1,sb=1"

/* The library's own parameters: every routine, shape and path. */
static void chosen(void)
{
    spec_case c = { .order = gpublas3ColumnMajor, .alpha = 1.5, .beta = 0.5, .offA = 1, .offB = 2, .offC = 1 };
    c.routine = SPEC_GEMM; c.M = 9; c.N = 13; c.K = 7; call(c, "sgemm NN");
    c.dbl = 1; c.order = gpublas3RowMajor; c.transA = gpublas3Trans; c.transB = gpublas3Trans; c.beta = 0;
    call(c, "dgemm TT row-major, beta 0");
    c.routine = SPEC_SYMM; c.dbl = 0; c.order = gpublas3ColumnMajor; c.side = gpublas3Left; c.uplo = gpublas3Upper;
    c.beta = 0.5; call(c, "ssymm left upper");
    c.routine = SPEC_SYMM; c.dbl = 1; c.side = gpublas3Right; c.uplo = gpublas3Lower; call(c, "dsymm right lower");
    c.routine = SPEC_SYRK; c.dbl = 0; c.uplo = gpublas3Lower; c.transA = gpublas3NoTrans; call(c, "ssyrk lower");
    c.routine = SPEC_SYR2K; c.dbl = 1; c.uplo = gpublas3Upper; c.transA = gpublas3Trans; call(c, "dsyr2k upper T");
    c.routine = SPEC_TRMM; c.dbl = 0; c.side = gpublas3Left; c.uplo = gpublas3Upper; c.transA = gpublas3NoTrans;
    c.diag = gpublas3Unit; call(c, "strmm left upper unit");
    c.dbl = 1; c.side = gpublas3Right; c.uplo = gpublas3Lower; c.transA = gpublas3Trans; c.diag = gpublas3NonUnit;
    c.order = gpublas3RowMajor; call(c, "dtrmm right lower T row-major");
    /* TRSM: the inversion kernel (trtri) as well, both triangles */
    c.routine = SPEC_TRSM; call(c, "dtrsm right lower T row-major");
    c.dbl = 0; c.side = gpublas3Left; c.uplo = gpublas3Upper; c.transA = gpublas3NoTrans; c.diag = gpublas3Unit;
    c.order = gpublas3ColumnMajor; call(c, "strsm left upper unit");
    /* complex: the complex copy kernel's forms, complex alpha folded into
     * B', the beta pre-pass, the Hermitian store and TRMM's band in complex
     * columns */
    c = (spec_case){ .routine = SPEC_GEMM, .cplx = 1, .order = gpublas3ColumnMajor, .transA = gpublas3ConjTrans,
                     .transB = gpublas3Trans, .M = 9, .N = 13, .K = 7, .alpha = 1.5, .alpha_im = -1, .beta = 0.5,
                     .beta_im = 2, .offA = 1, .offB = 2, .offC = 1 };
    call(c, "cgemm CT, complex alpha and beta");
    c.routine = SPEC_HEMM; c.dbl = 1; c.side = gpublas3Left; c.uplo = gpublas3Lower; call(c, "zhemm left lower");
    c.routine = SPEC_HERK; c.dbl = 0; c.uplo = gpublas3Upper; c.transA = gpublas3ConjTrans; c.beta_im = 0;
    call(c, "cherk upper C");
    c.routine = SPEC_HER2K; c.dbl = 1; c.uplo = gpublas3Lower; c.transA = gpublas3NoTrans; c.beta = 0;
    call(c, "zher2k lower N, beta 0");
    c.routine = SPEC_TRMM; c.dbl = 1; c.side = gpublas3Right; c.uplo = gpublas3Upper; c.transA = gpublas3ConjTrans;
    c.diag = gpublas3Unit; call(c, "ztrmm right upper C unit");
    c.routine = SPEC_TRSM; call(c, "ztrsm right upper C unit (complex trtri)");
    c.dbl = 0; c.side = gpublas3Left; c.uplo = gpublas3Lower; c.diag = gpublas3NonUnit; c.alpha_im = 0.5;
    call(c, "ctrsm left lower C");
    /* K over two tiles of any set: split-K splits these */
    spec_case e = { .routine = SPEC_SYR2K, .order = gpublas3ColumnMajor, .uplo = gpublas3Lower, .N = 5,
                    .K = 40, .alpha = 2, .beta = 0 };
    call(e, "ssyr2k deeper K, beta 0");
    e.routine = SPEC_GEMM; e.dbl = 1; e.transA = gpublas3Trans; e.M = 5; e.N = 6; e.beta = 0.5;
    call(e, "dgemm TN deeper K");
    e.routine = SPEC_SYMM; e.dbl = 0; e.side = gpublas3Left; e.uplo = gpublas3Upper; e.M = 40; e.N = 3;
    call(e, "ssymm left upper deeper K");
    e.routine = SPEC_TRMM; e.dbl = 1; e.side = gpublas3Right; e.uplo = gpublas3Lower; e.diag = gpublas3Unit;
    e.M = 3; e.N = 40; call(e, "dtrmm right lower unit deeper K");
}

/* The same calls with the packed path and with split-K forced (the plan
 * runs most of chosen()'s calls on the direct kernel on its own). */
static void forced(const char *plan)
{
    setenv("GPUBLAS3_PLAN", plan, 1);
    setenv("GPUBLAS3_PARAMS", SMALL_TILE, 1);
    restart();
    chosen();
    unsetenv("GPUBLAS3_PLAN");
    unsetenv("GPUBLAS3_PARAMS");
    restart();
}
static void packed(void) { forced("packed"); }
static void splitk(void) { forced("splitk"); }

/* SYR2K's and HER2K's square form (routines/plan/square.c, the reduction
 * kernel's reduce_sym), where the plan splits the triangle: both
 * triangles, both orders, real and complex, complex beta's pre-pass */
static void square(void)
{
    setenv("GPUBLAS3_PLAN", "splitk", 1);
    setenv("GPUBLAS3_PARAMS", SMALL_TILE ",square2k=1", 1);
    restart();
    spec_case c = { .routine = SPEC_SYR2K, .order = gpublas3ColumnMajor, .uplo = gpublas3Lower, .N = 9, .K = 40,
                    .alpha = 2, .beta = 0, .offA = 1, .offB = 2, .offC = 1 };
    call_tail(c, "ssyr2k square lower, beta 0", 0);
    c.dbl = 1; c.order = gpublas3RowMajor; c.uplo = gpublas3Upper; c.transA = gpublas3Trans; c.beta = 0.5;
    call_tail(c, "dsyr2k square upper T row-major", 0);
    c.cplx = 1; c.dbl = 0; c.alpha_im = -1; c.beta_im = 2; call_tail(c, "csyr2k square, complex beta", 0);
    c.routine = SPEC_HER2K; c.dbl = 1; c.order = gpublas3ColumnMajor; c.uplo = gpublas3Lower;
    c.transA = gpublas3ConjTrans; c.beta_im = 0; call_tail(c, "zher2k square lower C", 0);
    unsetenv("GPUBLAS3_PLAN");
    unsetenv("GPUBLAS3_PARAMS");
    restart();
}

/* call_tail with no tail and `how` after the label */
static void call_how(spec_case c, const char *what, const char *how)
{
    char label[160];
    snprintf(label, sizeof label, "%s%s", what, how);
    call_tail(c, label, 0);
}

/* Operands read in place (routines/plan/packed.c): whole tiles of the
 * first set of tests/cl/test_inplace.c (staged, double-buffered: the
 * prefetch of the next tile too), buffers ending at the operands' last
 * elements, so that a read past a K or x edge is outside them; both
 * operands, one (row-major: A' is B), and split-K; then those with k
 * contiguous (one tile each: TN, both; NN, B).  Strides constants of
 * each build (GPUs), then from the launch's arguments (rtmap, CPUs).
 * (One set: each restart compiles the kernels again, slow under Oclgrind.) */
static void inplace(void)
{
    const size_t mwg = 32, nwg = 16;
    char params[160];
    for (int i = 0; i < 2; i++) {
        snprintf(params, sizeof params,
                 "mwg=32,nwg=16,kwg=8,mdimc=8,ndimc=4,vwm=4,vwn=2,kwi=2,sa=1,sb=1,db=1,pad=0,wtm=0,mma=0,rtmap=%d", i);
        const char *how = i ? ", strides from arguments" : "";
        setenv("GPUBLAS3_PARAMS", params, 1);
        setenv("GPUBLAS3_PLAN", "packed", 1);
        restart();
        spec_case c = { .routine = SPEC_GEMM, .order = gpublas3ColumnMajor, .transB = gpublas3Trans, .M = mwg,
                        .N = 2 * nwg, .K = 16, .alpha = 1.5, .beta = 0 };
        call_how(c, "sgemm NT, A and B in place", how);
        c.dbl = 1; c.order = gpublas3RowMajor; c.transB = gpublas3NoTrans; c.M = nwg; c.N = mwg; c.offB = 4;
        c.offC = 1; c.beta = 0.5;
        call_how(c, "dgemm NN row-major, B (A') in place", how);
        setenv("GPUBLAS3_PLAN", "splitk", 1);
        restart();
        c = (spec_case){ .routine = SPEC_GEMM, .order = gpublas3ColumnMajor, .M = mwg, .N = 5, .K = 24,
                         .alpha = -1, .beta = 2 };
        call_how(c, "sgemm NN split-K, A in place", how);
        setenv("GPUBLAS3_PLAN", "packed", 1);
        restart();
        c = (spec_case){ .routine = SPEC_GEMM, .order = gpublas3ColumnMajor, .transA = gpublas3Trans, .M = mwg,
                         .N = nwg, .K = 16, .alpha = 1.5, .beta = 0, .offA = 4 };
        call_how(c, "sgemm TN, A and B in place with k contiguous", how);
        c.dbl = 1; c.transA = gpublas3NoTrans; c.offA = 1; c.offB = 2; c.beta = -1;
        call_how(c, "dgemm NN, B in place with k contiguous", how);
    }
    unsetenv("GPUBLAS3_PARAMS");
    unsetenv("GPUBLAS3_PLAN");
    restart();
}

/* The tile maps and the pairs of packs (docs/performance.md) with a
 * square set and the GPUs' copy kernel: a triangle's launch with ids on
 * its tiles only (lower, upper, split-K's layers), a band's snake order
 * with TRMM's A and snapshot packed in one launch, and split-K's TRMM
 * reading B in place (right side, whole tiles). */
static void maps(void)
{
    static const char *const plans[] = { "packed", "splitk" };
    char params[256], what[128];
    for (int i = 0; i < 4; i++) {
        /* the maps constants of each build (GPUs), then from the launch's arguments (CPUs) */
        snprintf(params, sizeof params, "mwg=16,nwg=16,kwg=8,mdimc=4,ndimc=4,vwm=2,vwn=2,kwi=2,sa=1,sb=1,db=1,pad=2,"
                 "wtm=0,mma=0,copy_direct=0,copy_ts=16,copy_rs=4,rtmap=%d", i >= 2);
        setenv("GPUBLAS3_PARAMS", params, 1);
        setenv("GPUBLAS3_PLAN", plans[i % 2], 1);
        restart();
        const char *how = i == 0 ? "" : i == 1 ? ", split-K" : i == 2 ? ", map from arguments"
                                                                      : ", split-K, map from arguments";
        spec_case c = { .routine = SPEC_SYRK, .order = gpublas3ColumnMajor, .uplo = gpublas3Lower, .N = 40, .K = 24,
                        .alpha = 1.5, .beta = 0, .offA = 2, .offC = 1 };
        snprintf(what, sizeof what, "ssyrk lower, ids on the triangle%s", how);
        call(c, what);
        c.routine = SPEC_SYR2K; c.dbl = 1; c.uplo = gpublas3Upper; c.transA = gpublas3Trans; c.beta = -0.5;
        snprintf(what, sizeof what, "dsyr2k upper T, ids on the triangle%s", how);
        call(c, what);
        c = (spec_case){ .routine = SPEC_TRMM, .order = gpublas3ColumnMajor, .side = gpublas3Left,
                         .uplo = gpublas3Upper, .diag = gpublas3Unit, .M = 70, .N = 20, .alpha = 2, .offA = 1 };
        snprintf(what, sizeof what, "strmm left upper unit, snake, one pack launch%s", how);
        call(c, what);
        c.dbl = 1; c.side = gpublas3Right; c.uplo = gpublas3Lower; c.diag = gpublas3NonUnit; c.M = 32; c.N = 24;
        c.offB = 2; c.ldb = 34;
        snprintf(what, sizeof what, "%s%s", i % 2 ? "dtrmm right lower, B in place" : "dtrmm right lower, snake", how);
        call_tail(c, what, 0);
    }
    unsetenv("GPUBLAS3_PARAMS");
    unsetenv("GPUBLAS3_PLAN");
    restart();
}

/* Panels: the smallest cap (growing by half from 1 KB) under which the
 * call runs splits it the most; failed tries enqueue nothing, so only the
 * run that counts executes kernels. */
static void split(void)
{
    /* just over one tile where a split is wanted, small elsewhere */
    spec_case c = { .routine = SPEC_SYRK, .order = gpublas3ColumnMajor, .uplo = gpublas3Lower, .N = 70, .K = 20,
                    .alpha = 1, .beta = -1 };
    spec_case t = { .routine = SPEC_TRMM, .order = gpublas3ColumnMajor, .side = gpublas3Left,
                    .uplo = gpublas3Lower, .diag = gpublas3NonUnit, .M = 20, .N = 70, .alpha = 2 };
    spec_case s = t;
    s.routine = SPEC_TRSM;
    const spec_case *cs[3] = { &c, &t, &s };
    static const char *const whats[3] = { "ssyrk split into panels", "strmm split into slabs and panels",
                                          "strsm's calls split into slabs and panels" };
    setenv("GPUBLAS3_PLAN", "packed", 1); /* else the TRMM would run direct, in one piece */
    setenv("GPUBLAS3_PARAMS", SMALL_TILE, 1);
    restart();
    for (int i = 0; i < 3; i++) {
        const char *what = whats[i];
        rel_case r;
        rel_fill(&r, cs[i], 3, 2);
        rel_upload(&r, dev.ctx, dev.q);
        gpublas3Status st = gpublas3OutOfResources;
        cl_event ev = NULL;
        for (size_t cap = 1024; st == gpublas3OutOfResources && cap < ((size_t)1 << 30); cap += cap / 2) {
            char v[32];
            snprintf(v, sizeof v, "%zu", cap);
            setenv("GPUBLAS3_SCRATCH_LIMIT", v, 1);
            st = spec_run(&r.c, dev.q, r.buf[0], r.buf[1], r.buf[2], 0, NULL, &ev);
        }
        rel_expect(st == gpublas3Success, "%s: status %d", what, st);
        if (st == gpublas3Success) {
            clWaitForEvents(1, &ev);
            clReleaseEvent(ev);
            rel_expect(rel_judge(&r, dev.q, what) == 0, "%s", what);
        }
        rel_free(&r);
    }
    unsetenv("GPUBLAS3_SCRATCH_LIMIT");
    unsetenv("GPUBLAS3_PLAN");
    unsetenv("GPUBLAS3_PARAMS");
    restart();
}

/* One call per tuned-table row. */
static void rows(const char *const *files, int nfiles)
{
    setenv("GPUBLAS3_PLAN", "packed", 1); /* the row's GEMM kernel, not the direct one */
    for (int f = 0; f < nfiles; f++) {
        FILE *in = fopen(files[f], "r");
        if (!in) {
            rel_expect(0, "cannot read %s", files[f]);
            continue;
        }
        char line[1024], header[1024] = "";
        while (fgets(line, sizeof line, in)) {
            line[strcspn(line, "\r\n")] = 0;
            if (!line[0] || line[0] == '#') continue;
            if (!header[0]) {
                snprintf(header, sizeof header, "%s", line);
                continue;
            }
            /* "name=value" for every column after device and precision */
            char params[1024] = "", hcopy[1024], lcopy[1024], *hs, *ls;
            snprintf(hcopy, sizeof hcopy, "%s", header);
            snprintf(lcopy, sizeof lcopy, "%s", line);
            char *h = strtok_r(hcopy, ",", &hs), *v = strtok_r(lcopy, ",", &ls);
            int precision = 0, mma = 0, col = 0;
            for (; h && v; h = strtok_r(NULL, ",", &hs), v = strtok_r(NULL, ",", &ls), col++) {
                if (col == 0) continue;
                if (!strcmp(h, "precision")) { precision = atoi(v); continue; }
                if (!strcmp(h, "mma")) mma = atoi(v);
                size_t n = strlen(params);
                snprintf(params + n, sizeof params - n, "%s%s=%s", n ? "," : "", h, v);
            }
            if (mma || (precision != 32 && precision != 64)) continue;
            setenv("GPUBLAS3_PARAMS", params, 1);
            restart();
            char what[1200];
            snprintf(what, sizeof what, "%s row \"%s\"", files[f], line);
            spec_case c = { .routine = SPEC_GEMM, .dbl = precision == 64, .order = gpublas3ColumnMajor,
                            .transA = gpublas3Trans, .M = 11, .N = 6, .K = 9, .alpha = 1, .beta = 1 };
            call(c, what);
        }
        fclose(in);
    }
    unsetenv("GPUBLAS3_PARAMS");
    unsetenv("GPUBLAS3_PLAN");
    restart();
}

/* One TRSM case of a table: its options, its sizes and its name. */
typedef struct {
    int dbl, cplx;
    gpublas3Side side;
    gpublas3Uplo uplo;
    gpublas3Transpose trans;
    gpublas3Diag diag;
    size_t M, N;
    const char *name;
} solve_case;

/* Every case under each parameter list in turn (GPUBLAS3_PARAMS), alpha
 * 1.5 (complex: 1.5 - 0.5i), offsets into A and B. */
static void solves(const char *const *params, int np, const solve_case *cases, int nc)
{
    for (int i = 0; i < np; i++) {
        char list[256];
        snprintf(list, sizeof list, "%s,%s", SMALL_TILE, params[i]);
        setenv("GPUBLAS3_PARAMS", list, 1);
        restart();
        for (int j = 0; j < nc; j++) {
            const solve_case *k = &cases[j];
            spec_case c = { .routine = SPEC_TRSM, .dbl = k->dbl, .cplx = k->cplx, .order = gpublas3ColumnMajor,
                            .side = k->side, .uplo = k->uplo, .transA = k->trans, .diag = k->diag, .M = k->M,
                            .N = k->N, .alpha = 1.5, .alpha_im = k->cplx ? -0.5 : 0, .offA = 1, .offB = 2 };
            char what[160];
            snprintf(what, sizeof what, "%s, %s", k->name, params[i]);
            call(c, what);
        }
    }
    unsetenv("GPUBLAS3_PARAMS");
    restart();
}

/* trtri's kernels (trsm_cols) on the blocked path: groups of 3 columns
 * over blocks of 5 (three blocks, the last short, groups past a short
 * block's end), 256 work-items of two rows each (nb 300), and the
 * per-column kernel (0); each in both triangles, transposed or not, unit
 * or not, every precision, both sides. */
static void trtri(void)
{
    static const char *const params[] = { "trsm_leaf=0,trsm_nb=5,trsm_cols=3", "trsm_leaf=0,trsm_nb=300,trsm_cols=2",
                                          "trsm_leaf=0,trsm_cols=0" };
    static const solve_case cases[] = {
        { 0, 0, gpublas3Left, gpublas3Lower, gpublas3NoTrans, gpublas3NonUnit, 13, 3, "strsm left lower N" },
        { 1, 0, gpublas3Right, gpublas3Upper, gpublas3Trans, gpublas3Unit, 3, 13, "dtrsm right upper T unit" },
        { 0, 1, gpublas3Left, gpublas3Upper, gpublas3ConjTrans, gpublas3NonUnit, 13, 3, "ctrsm left upper C" },
        { 1, 1, gpublas3Right, gpublas3Lower, gpublas3NoTrans, gpublas3NonUnit, 3, 13, "ztrsm right lower N" },
    };
    solves(params, 3, cases, 4);
}

/* kernels/trsm.cl's leaves (the chosen() solves run it too, in one block):
 * several blocks and leaves (the last short) in each direction, L read in
 * place or copied, with and without refinement; complex ones (CTRSM: its
 * leaf's 22.5 KB of local memory fit Oclgrind's 32 KB, ZTRSM's 45 KB do
 * not, so ZTRSM takes the blocked path there), L read across its storage
 * and conjugated, and along it. */
static void leaves(void)
{
    static const char *const params[] = { "trsm_leaf=32", "trsm_leaf=64,trsm_refine=0" };
    static const solve_case cases[] = {
        { 0, 0, gpublas3Left, gpublas3Lower, gpublas3NoTrans, gpublas3NonUnit, 70, 3, "strsm left lower N" },
        { 1, 0, gpublas3Right, gpublas3Upper, gpublas3Trans, gpublas3Unit, 3, 70, "dtrsm right upper T unit" },
        { 0, 0, gpublas3Left, gpublas3Upper, gpublas3Trans, gpublas3Unit, 70, 9, "strsm left upper T unit" },
        { 1, 0, gpublas3Right, gpublas3Lower, gpublas3NoTrans, gpublas3NonUnit, 9, 70, "dtrsm right lower N" },
        { 0, 1, gpublas3Left, gpublas3Lower, gpublas3ConjTrans, gpublas3NonUnit, 70, 9, "ctrsm left lower C" },
        { 0, 1, gpublas3Right, gpublas3Upper, gpublas3NoTrans, gpublas3Unit, 9, 70, "ctrsm right upper N unit" },
    };
    solves(params, 2, cases, 6);
}

/* Batched GEMM on the direct kernel (its BATCHED builds, COMPLEX for C and
 * Z, several products a work-group): 3 products of 5 x 4 x 3, B shared
 * (stride 0), complex alpha and beta, then the offset-array form with the
 * products in reverse order, each against the same product as a single
 * call; and a complex GEMM forced direct (the single build of COMPLEX),
 * its operands staged through local memory in k-blocks of 2, as GPUs
 * stage complex ones (their barriers checked for races). */
static cl_mem upload(const void *host, size_t bytes)
{
    cl_int err;
    cl_mem m = clCreateBuffer(dev.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, (void *)host, &err);
    rel_expect(err == CL_SUCCESS, "buffer of %zu bytes", bytes);
    return m;
}

static void batched(void)
{
    enum { M = 5, N = 4, K = 3, P = 3 };
    setenv("GPUBLAS3_PARAMS", "direct_nb=4096", 1);
    restart();
    uint64_t s = 11;
    for (int type = 0; type < 4; type++) {
        int dbl = type & 1, cplx = type >> 1;
        size_t es = (size_t)(dbl ? 8 : 4) * (cplx ? 2 : 1), parts = cplx ? 2 : 1;
        size_t na = (size_t)M * K * P + 1, nb = (size_t)K * N + 1, nc = (size_t)M * N * P + 1;
        void *raw[3] = { malloc(na * es), malloc(nb * es), malloc(nc * es) };
        const size_t n[3] = { na, nb, nc };
        for (int i = 0; i < 3; i++)
            for (size_t k = 0; k < n[i] * parts; k++) {
                double v = (double)rel_below(&s, 2001) / 1000 - 1;
                if (dbl) ((double *)raw[i])[k] = v;
                else ((float *)raw[i])[k] = (float)v;
            }
        cl_mem A = upload(raw[0], na * es), B = upload(raw[1], nb * es), C = upload(raw[2], nc * es),
               C1 = upload(raw[2], nc * es);
        const size_t offa[P] = { 1 + 2 * M * K, 1 + M * K, 1 }, offb[P] = { 1, 1, 1 },
                     offc[P] = { 1 + 2 * M * N, 1 + M * N, 1 };
        const gpublas3Transpose ta = cplx ? gpublas3ConjTrans : gpublas3Trans;
        cl_float2 ca = { { 1.5f, -0.5f } }, cb = { { 0.5f, 0.25f } }, cas[P], cbs[P];
        cl_double2 za = { { 1.5, -0.5 } }, zb = { { 0.5, 0.25 } }, zas[P], zbs[P];
        float fas[P], fbs[P];
        double das[P], dbs[P];
        for (int p = 0; p < P; p++) {
            cas[p] = ca; cbs[p] = cb; zas[p] = za; zbs[p] = zb;
            fas[p] = das[p] = 1.5; fbs[p] = dbs[p] = 0.5;
        }
        gpublas3Status st[3];
        for (int form = 0; form < 2; form++) {
            cl_mem out = form ? C1 : C;
#define STR(T, al, be) gpublas3##T##gemmStridedBatched(gpublas3ColumnMajor, ta, gpublas3NoTrans, M, N, K, al, A, 1, K, \
                        M * K, B, 1, K, 0, be, out, 1, M, M * N, P, 1, &dev.q, 0, NULL, NULL)
#define ARR(T, al, be) gpublas3##T##gemmBatched(gpublas3ColumnMajor, ta, gpublas3NoTrans, M, N, K, al, A, offa, K, B, \
                        offb, K, be, out, offc, M, P, 1, &dev.q, 0, NULL, NULL)
            if (form == 0)
                st[0] = type == 0 ? STR(S, 1.5f, 0.5f) : type == 1 ? STR(D, 1.5, 0.5) : type == 2 ? STR(C, ca, cb) : STR(Z, za, zb);
            else
                st[1] = type == 0 ? ARR(S, fas, fbs) : type == 1 ? ARR(D, das, dbs) : type == 2 ? ARR(C, cas, cbs) : ARR(Z, zas, zbs);
#undef STR
#undef ARR
            rel_expect(st[form] == gpublas3Success, "batch of type %d, form %d: status %d", type, form, st[form]);
        }
        /* the singles, on the host copy's C, into a third buffer */
        cl_mem C2 = upload(raw[2], nc * es);
        for (int p = 0; p < P; p++) {
#define ONE(T, al, be) gpublas3##T##gemm(gpublas3ColumnMajor, ta, gpublas3NoTrans, M, N, K, al, A, 1 + p * M * K, K, B, \
                        1, K, be, C2, 1 + p * M * N, M, 1, &dev.q, 0, NULL, NULL)
            st[2] = type == 0 ? ONE(S, 1.5f, 0.5f) : type == 1 ? ONE(D, 1.5, 0.5) : type == 2 ? ONE(C, ca, cb) : ONE(Z, za, zb);
#undef ONE
            rel_expect(st[2] == gpublas3Success, "single of type %d: status %d", type, st[2]);
        }
        clFinish(dev.q);
        void *got[3] = { malloc(nc * es), malloc(nc * es), malloc(nc * es) };
        cl_mem outs[3] = { C, C1, C2 };
        for (int i = 0; i < 3; i++)
            clEnqueueReadBuffer(dev.q, outs[i], CL_TRUE, 0, nc * es, got[i], 0, NULL, NULL);
        double tol = 32 * K * (dbl ? 1e-16 : 1e-7) * 8;
        for (int form = 0; form < 2; form++)
            for (size_t k = 0; k < nc * parts; k++) {
                double g = dbl ? ((double *)got[form])[k] : ((float *)got[form])[k];
                double r = dbl ? ((double *)got[2])[k] : ((float *)got[2])[k];
                if (!(fabs(g - r) <= tol)) {
                    rel_expect(0, "batch of type %d, form %d: C[%zu] = %g, single call %g", type, form, k, g, r);
                    break;
                }
            }
        for (int i = 0; i < 3; i++) {
            free(raw[i]);
            free(got[i]);
        }
    }
    unsetenv("GPUBLAS3_PARAMS");
    /* one complex GEMM on the direct kernel's single build, staged */
    setenv("GPUBLAS3_PLAN", "direct", 1);
    setenv("GPUBLAS3_PARAMS", "direct_kb=2", 1);
    restart();
    spec_case c = { .routine = SPEC_GEMM, .cplx = 1, .order = gpublas3RowMajor, .transA = gpublas3NoTrans,
                    .transB = gpublas3ConjTrans, .M = 9, .N = 13, .K = 7, .alpha = 1.5, .alpha_im = -1, .beta = 0.5,
                    .beta_im = 2, .offA = 1, .offB = 2, .offC = 1 };
    call(c, "cgemm NC row-major forced direct, complex alpha and beta");
    c.dbl = 1; c.beta = 0; c.beta_im = 0; c.transA = gpublas3Trans;
    call(c, "zgemm TC row-major forced direct, beta 0");
    unsetenv("GPUBLAS3_PLAN");
    unsetenv("GPUBLAS3_PARAMS");
    restart();
}

/* The parts, each runnable alone so that ctest can run them side by side. */
static const struct { const char *name; void (*run)(void); } parts[] = {
    { "chosen", chosen }, { "trtri", trtri }, { "leaves", leaves }, { "packed", packed }, { "splitk", splitk },
    { "square", square }, { "split", split }, { "inplace", inplace }, { "maps", maps }, { "batched", batched },
};
#define NPARTS (sizeof parts / sizeof parts[0])

/* Arguments: part names and tuned-parameter tables (*.csv), in any order:
 * the parts named, then the tables' rows; with no argument, every part. */
int main(int argc, char **argv)
{
    setenv("OPENBLAS_NUM_THREADS", "1", 1);
    int want[NPARTS] = { 0 }, ntables = 0;
    const char **tables = calloc((size_t)argc, sizeof *tables);
    for (int i = 1; i < argc; i++) {
        size_t n = strlen(argv[i]);
        if (n > 4 && strcmp(argv[i] + n - 4, ".csv") == 0) {
            tables[ntables++] = argv[i];
            continue;
        }
        size_t p = 0;
        while (p < NPARTS && strcmp(parts[p].name, argv[i]) != 0)
            p++;
        if (p == NPARTS) {
            fprintf(stderr, "test_kernels: %s is neither a part nor a .csv table\n", argv[i]);
            return 2;
        }
        want[p] = 1;
    }
    rel_open(&dev);
    char name[256] = "";
    clGetDeviceInfo(dev.dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    printf("device: %s\n", name);
    gpublas3Setup();
    for (size_t p = 0; p < NPARTS; p++)
        if (argc == 1 || want[p])
            parts[p].run();
    rows(tables, ntables);
    free(tables);
    gpublas3Teardown();
    release_graveyard();
    rel_close(&dev);
    return rel_finish("test_kernels");
}

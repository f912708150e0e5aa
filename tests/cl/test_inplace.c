/* SPDX-License-Identifier: BSD-3-Clause */
/* Operands read in place by the packed path (routines/plan/packed.c): an
 * operand already laid out as the GEMM kernel reads it (op(A) = A, op(B) =
 * B^T, column-major view) is not packed when its x extent (M for A, N for
 * B) is whole tiles, K is whole k-tiles and its offset and ld are whole
 * vectors; also one with k contiguous (op(A) = A^T, op(B) = B) when at
 * most the set's kreuse (4 by default) work-group tiles along C's other
 * side read it, the set stages it through local memory (or it is B and
 * the set does not stage B), its offset and ld are whole vectors of 16
 * bytes and its tile's vectors share evenly among the work-items.  Each case is judged as everywhere (OpenBLAS, canaries around
 * C, inputs unchanged, NaN in C with beta = 0), and its verbose plan line
 * must list exactly the operands the rules above allow: computed here
 * independently from the case, so a case that should have been read in
 * place and was packed fails, and the other way round.
 *
 * Five parameter sets, fixed with GPUBLAS3_PARAMS for every class so the
 * tiles are known on any device (no tensor-core path, so the same on
 * NVIDIA): staged and double-buffered with vectors of 4 and 2; unstaged
 * with vectors of 8 and 4; staged with tiles of 24 x 12 whose rows
 * (12 and 6 vectors) neither divide nor are divided by the 8 work-items,
 * the kernel's general staging addresses; and two padded sets with
 * vectors of 1 and 2 (64 x 32 x 16 double-buffered, 32 x 32 x 8 not),
 * whose k-contiguous tiles span several or a fraction of the work-items'
 * loads (a block form of staging these measured no
 * faster on the H100 and was taken out: docs/performance.md, In-place operands).
 * Sweeps: every order and
 * transpose (ConjTrans acting as T) at whole tiles with aligned and
 * unaligned offsets and leading dimensions, and one tile-edge or
 * alignment condition broken at a time, by default and with a kreuse
 * that reads every k-contiguous operand in place; split-K; panels under a
 * scratch cap; SYRK, SYR2K, SYMM; calls never read in place (TRMM,
 * complex); the kreuse rule.  Buffers end where the call's extent does
 * (FILL_NO_TAIL) in the whole-tile sweeps, so a read past the last
 * element of an operand is outside its buffer (rel_oclgrind_kernels
 * reports such a read; here it may give a wrong result). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "harness.h"

typedef struct {
    const char *params;
    size_t mwg, nwg, kwg, vwm, vwn, nt; /* nt: work-items per work-group */
    int sa, sb;
    int variants; /* the sweep's first variants this set runs (below) */
} pset;

/* cpref 0 on every set: where a launch prefetches C (the H100's large
 * rows) B' and mostly A' are packed along x (packed.c; cl_plan's
 * h100_prefetch_packs_b), and the lists below are those of sets that do
 * not.  rtmap on every set, so that both ways of addressing an operand
 * run on every device: the strides constants of each build (GPUs, 0), or
 * the launch's arguments, one build for packed and in place (CPUs, 1) */
static const pset sets[] = {
    { "mwg=32,nwg=16,kwg=8,mdimc=8,ndimc=4,vwm=4,vwn=2,kwi=2,sa=1,sb=1,db=1,pad=0,wtm=0,mma=0,cpref=0,rtmap=0", 32, 16, 8, 4, 2, 32, 1, 1, 7 },
    { "mwg=16,nwg=8,kwg=4,mdimc=2,ndimc=2,vwm=8,vwn=4,kwi=2,sa=0,sb=0,db=0,pad=0,wtm=0,mma=0,cpref=0,rtmap=1", 16, 8, 4, 8, 4, 4, 0, 0, 7 },
    { "mwg=24,nwg=12,kwg=8,mdimc=4,ndimc=2,vwm=2,vwn=2,kwi=1,sa=1,sb=1,db=0,pad=0,wtm=0,mma=0,cpref=0,rtmap=1", 24, 12, 8, 2, 2, 8, 1, 1, 7 },
    /* padded sets of narrow vectors: whole tiles, tight and offset (the
     * conditions that break reading in place are the plan's, swept on the
     * sets above).  kwg 16: in double a kwg of 32 double-buffered is 52 KB
     * of local memory, which the H100 refuses (48 KB), and the test would
     * then run the device's own set, not this one */
    { "mwg=64,nwg=32,kwg=16,mdimc=8,ndimc=8,vwm=1,vwn=2,kwi=4,sa=1,sb=1,db=1,pad=4,wtm=0,mma=0,cpref=0,rtmap=1", 64, 32, 16, 1, 2, 64, 1, 1, 2 },
    { "mwg=32,nwg=32,kwg=8,mdimc=8,ndimc=8,vwm=1,vwn=1,kwi=2,sa=1,sb=1,db=0,pad=4,wtm=0,mma=0,cpref=0,rtmap=1", 32, 32, 8, 1, 1, 64, 1, 1, 2 },
};
#define NSETS (sizeof sets / sizeof sets[0])

/* Operands with k contiguous are read in place only where at most this
 * many work-group tiles along the other side of C read them: the
 * default's REUSE, or the kreuse the test gives the set (KMAJOR: every
 * one, at the sizes here) */
#define REUSE 4
#define KMAJOR 1000
static size_t reuse_limit = REUSE;

/* A fresh device state with these variables (NULL: unset), read when it
 * is made; kreuse (0: the set's own) appended to params. */
static void restart(const char *params, const char *plan, size_t kreuse)
{
    static const char *const vars[] = { "GPUBLAS3_PARAMS", "GPUBLAS3_PLAN" };
    static char with[512];
    /* trsm_subst=0: TRMM's snapshot read in place, which these cases check
     * (CPUs' rows multiply TRMM's blocks by kernels/subst.cl instead) */
    snprintf(with, sizeof with, "trsm_subst=0%s%s", params ? "," : "", params ? params : "");
    if (params && kreuse)
        snprintf(with + strlen(with), sizeof with - strlen(with), ",kreuse=%zu", kreuse);
    const char *const values[] = { with, plan };
    reuse_limit = kreuse ? kreuse : REUSE;
    restart_with(2, vars, values);
}

/* One operand in the column-major view, x-by-k side (bside) as the plan
 * sees it, `other` C's other side: 0 packed, 1 read in place with x
 * contiguous (x and K whole tiles, offset and ld whole vectors of VWM or
 * VWN), 2 with k contiguous (read by at most reuse_limit tiles, a staged set or B unstaged, x and K whole
 * tiles, offset and ld whole vectors of 16 bytes, the tile's vectors
 * shared evenly by the nt work-items). */
static int qualifies(const pset *s, int dbl, int bside, int trans, size_t x, size_t other, size_t K, size_t off,
                     size_t ld)
{
    size_t xb = bside ? s->nwg : s->mwg, vw = bside ? s->vwn : s->vwm, vk = dbl ? 2 : 4;
    size_t reuse = (other + (bside ? s->mwg : s->nwg) - 1) / (bside ? s->mwg : s->nwg);
    if (x % xb || K % s->kwg)
        return 0;
    if (trans == bside)
        return off % vw == 0 && ld % vw == 0;
    int kmajor = reuse <= reuse_limit;
    int reads = (bside ? s->sb : s->sa) ? xb * s->kwg / vk % s->nt == 0 : bside; /* B unstaged: per column */
    return kmajor && reads && s->kwg % vk == 0 && off % vk == 0 && ld % vk == 0 ? 2 : 0;
}

/* What the plan line of GEMM case c must list: "", " A", " B(k)", " A B"...
 * A row-major call is the column-major one on the transposes: A' = B. */
static const char *expected_gemm(const pset *s, spec_case c)
{
    spec_complete(&c);
    int ta = c.transA != gpublas3NoTrans, tb = c.transB != gpublas3NoTrans;
    int row = c.order == gpublas3RowMajor, d = c.dbl;
    int a = row ? qualifies(s, d, 0, tb, c.N, c.M, c.K, c.offB, c.ldb)
                : qualifies(s, d, 0, ta, c.M, c.N, c.K, c.offA, c.lda);
    int b = row ? qualifies(s, d, 1, ta, c.M, c.N, c.K, c.offA, c.lda)
                : qualifies(s, d, 1, tb, c.N, c.M, c.K, c.offB, c.ldb);
    static const char *const as[3] = { "", " A", " A(k)" }, *const bs[3] = { "", " B", " B(k)" };
    static char list[16];
    snprintf(list, sizeof list, "%s%s", as[a], bs[b]);
    return list;
}

/* Runs case c; 1 if it is wrong or any plan line's list of operands read
 * in place (", in place:...") is not `want`, or the path is not `path`. */
static int run(const spec_case *c, uint64_t seed, int flags, const char *want, const char *path)
{
    char text[16384];
    int bad = check_case_logged(c, seed, flags, text, sizeof text), lines = 0;
    for (const char *p = strstr(text, "plan: "); p; p = strstr(p + 1, "plan: ")) {
        char line[512], got[64] = "";
        snprintf(line, sizeof line, "%.*s", (int)strcspn(p, "\n"), p);
        const char *l = strstr(line, ", in place:");
        if (l)
            snprintf(got, sizeof got, "%.*s", (int)strcspn(l + 11, ";"), l + 11);
        if (strcmp(got, want) != 0 || !strstr(line, path)) {
            char desc[256];
            spec_describe(c, desc, sizeof desc);
            print_error("FAIL %s: %s\n  expected%s in place:%s\n", desc, line, path, *want ? want : " none");
            bad = 1;
        }
        lines++;
    }
    if (!lines) {
        print_error("FAIL: no plan line\n");
        bad = 1;
    }
    return bad;
}

static spec_case gemm(int dbl, gpublas3Order o, gpublas3Transpose ta, gpublas3Transpose tb, size_t M, size_t N,
                      size_t K, double alpha, double beta)
{
    return (spec_case){ .routine = SPEC_GEMM, .dbl = dbl, .order = o, .transA = ta, .transB = tb,
                        .M = M, .N = N, .K = K, .alpha = alpha, .beta = beta };
}

/* Variant v of the whole-tile case (M, N two tiles of each set's x
 * blocks for either operand, K three k-tiles): 0 tight, beta = 0 (NaN in
 * C); 1 offsets and ld padding of 8 (whole vectors); 2 offsets of 1 and 3;
 * 3 ld padded by 1; 4 M, 5 N one over whole tiles, 6 K half a k-tile over,
 * these three with every ld rounded up to whole vectors, so that only the
 * one condition fails. */
static spec_case variant(const pset *s, int v, int dbl, gpublas3Order o, gpublas3Transpose ta,
                         gpublas3Transpose tb)
{
    size_t x = 2 * (s->mwg > s->nwg ? s->mwg : s->nwg); /* whole tiles for both sides */
    size_t M = x + (v == 4), N = x + (v == 5), K = 3 * s->kwg + (v == 6 ? s->kwg / 2 : 0);
    spec_case c = gemm(dbl, o, ta, tb, M, N, K, 1.5, v ? 0.75 : 0);
    if (v == 1 || v == 3)
        c = padded(c, v == 1 ? 8 : 1);
    if (v == 1) {
        c.offA = 8; c.offB = 16; c.offC = 3;
    } else if (v == 2) {
        c.offA = 1; c.offB = 3; c.offC = 5;
    } else if (v >= 4) {
        spec_complete(&c);
        c.lda = (c.lda + 7) / 8 * 8;
        c.ldb = (c.ldb + 7) / 8 * 8;
    }
    return c;
}

/* Every order x transA x transB, each variant, every set, both
 * precisions; by default (at these sizes at most 4 tiles read most
 * operands: those with k contiguous are read in place), then with every
 * k-contiguous operand read in place (kreuse). */
static void sweep(size_t kreuse)
{
    int fails = 0, n = 0;
    for (size_t si = 0; si < NSETS; si++) {
        const pset *s = &sets[si];
        restart(s->params, "packed", kreuse);
        for (int dbl = 0; dbl < 2; dbl++)
            for (int o = 0; o < 2; o++)
                for (int ta = 0; ta < 3; ta++)
                    for (int tb = 0; tb < 3; tb++)
                        for (int v = 0; v < s->variants; v++, n++) {
                            if ((ta == 2 || tb == 2) && v) /* ConjTrans: the whole-tile case only */
                                continue;
                            spec_case c = variant(s, v, dbl, orders[o], transposes[ta], transposes[tb]);
                            fails += run(&c, n, FILL_NO_TAIL, expected_gemm(s, c), ": packed,");
                        }
    }
    assert_int_equal(fails, 0);
}

static void gemm_sweep(void **state)
{
    (void)state;
    sweep(0);
}

static void gemm_sweep_kmajor(void **state)
{
    (void)state;
    sweep(KMAJOR);
}

/* Split-K (3 slices forced) with operands in place: each slice reads its
 * k-range of them; several k-tiles per slice. */
static void splitk(void **state)
{
    (void)state;
    int fails = 0, n = 0;
    for (size_t si = 0; si < 2 * NSETS; si++) {
        const pset *s = &sets[si % NSETS];
        restart(s->params, "splitk", si < NSETS ? 0 : KMAJOR);
        for (int dbl = 0; dbl < 2; dbl++)
            for (int t = 0; t < 4; t++, n++) {
                spec_case c = gemm(dbl, orders[t / 2], transposes[t % 2], transposes[(t + t / 2) % 2], 2 * s->mwg,
                                   2 * s->nwg, 9 * s->kwg, -1, t % 2 ? 0 : 2.5);
                c = padded(c, 8);
                c.offA = 8; c.offB = 24; c.offC = 1;
                fails += run(&c, 100 + n, 0, expected_gemm(s, c), ": split-k,");
            }
    }
    assert_int_equal(fails, 0);
}

/* Panels (a scratch cap of 4 KiB): the operand that is packed is cut into
 * panels in K and x, the one in place is read from each panel's corner;
 * with both in place nothing is packed and the call is one panel. */
static void panels(void **state)
{
    (void)state;
    int fails = 0, n = 0;
    const pset *s = &sets[0];
    setenv("GPUBLAS3_SCRATCH_LIMIT", "4096", 1);
    for (int dbl = 0; dbl < 4; dbl++) {
        restart(s->params, "packed", dbl < 2 ? 0 : KMAJOR);
        for (int t = 0; t < 3; t++, n++) { /* NN (A in place), TT (B), NT (both) */
            spec_case c = gemm(dbl % 2, gpublas3ColumnMajor, transposes[t == 1], transposes[t > 0], 4 * s->mwg,
                               8 * s->nwg, 16 * s->kwg, 2.5, t == 2 ? 0 : -1);
            c = padded(c, 4);
            c.offA = 4; c.offB = 8; c.offC = 2;
            fails += run(&c, 200 + n, 0, expected_gemm(s, c), ": packed,");
        }
    }
    unsetenv("GPUBLAS3_SCRATCH_LIMIT");
    assert_int_equal(fails, 0);
}

/* The other routines: SYRK reads A and its transpose in place when trans
 * is N (C = A A^T: op(A) = A, op(B) = (A^T) with B^T = A), and with k
 * contiguous when it is T; SYR2K none (its two terms are one product,
 * [A B] [B A]^T, packed along k: packed.c); SYMM's general operand (on the
 * right side, C = B A: op(A) = B; on the left, op(B) = B with k
 * contiguous); TRMM's output on the left side, with k contiguous, from its
 * snapshot on CPUs (the CPU rows' copy_direct), else never; never a
 * symmetric or triangular operand, nor a complex one, except a complex B
 * whose real view is B' (op(B) = B, real alpha), with k contiguous, and a
 * complex A (op(A) = A, whole vectors, no triangle of C) that a set
 * staging A reads as its 2x2 form (A(c); this set stages it); a complex
 * op(A) = A^H, an odd offset, or CSYRK's A, packed. */
static void routines(void **state)
{
    (void)state;
    int fails = 0;
    const int cpu = env_cpu();
    const pset *s = &sets[0];
    const size_t n = 2 * s->mwg, k = 2 * s->kwg;
    restart(s->params, "packed", 0); /* (at most 4 tiles read each operand here) */
    for (int dbl = 0; dbl < 2; dbl++) {
        for (int t = 0; t < 2; t++) {
            spec_case c = { .routine = SPEC_SYRK, .dbl = dbl, .order = gpublas3ColumnMajor, .uplo = uplos[t],
                            .transA = transposes[t], .N = n, .K = k, .alpha = 1.5, .beta = t ? 0 : -1, .offC = 1 };
            fails += run(&c, 300 + t, 0, !t ? " A B" : " A(k) B(k)", ": packed,");
            c.routine = SPEC_SYR2K;
            c.offA = 4; c.offB = 8;
            fails += run(&c, 310 + t, 0, "", ", terms along k");
            c = (spec_case){ .routine = SPEC_SYMM, .dbl = dbl, .order = gpublas3ColumnMajor, .side = sides[t],
                             .uplo = uplos[t], .M = n, .N = k, .alpha = 2, .beta = 0.5 };
            fails += run(&c, 320 + t, FILL_NAN_TRIANGLE, t ? " A" : " B(k)", ": packed,");
            c = (spec_case){ .routine = SPEC_TRMM, .dbl = dbl, .order = gpublas3ColumnMajor, .side = sides[t],
                             .uplo = uplos[t], .transA = transposes[t], .diag = diags[t], .M = n, .N = k,
                             .alpha = 2 };
            fails += run(&c, 330 + t, FILL_NAN_TRIANGLE, cpu && !t ? " B(k)" : "", ": packed,");
            c = gemm(dbl, gpublas3ColumnMajor, gpublas3NoTrans, gpublas3Trans, n, n, k, 1, 0.5);
            c.cplx = 1;
            c.alpha_im = t ? 0 : 1;
            fails += run(&c, 340 + t, 0, " A(c)", ": packed,");
            /* op(B) = B, real alpha: B's real view is already the real
             * call's B' with k contiguous (complex.c) */
            c.transB = gpublas3NoTrans;
            fails += run(&c, 350 + t, 0, t ? " A(c) B(k)" : " A(c)", ": packed,");
            c.transA = gpublas3ConjTrans;
            fails += run(&c, 360 + t, 0, t ? " B(k)" : "", ": packed,");
            c.transA = gpublas3NoTrans;
            c.offA = 1; /* 2 reals: not a whole vector of 4 */
            fails += run(&c, 370 + t, 0, t ? " B(k)" : "", ": packed,");
            c = (spec_case){ .routine = SPEC_SYRK, .dbl = dbl, .cplx = 1, .order = gpublas3ColumnMajor,
                             .uplo = uplos[t], .transA = gpublas3NoTrans, .N = n, .K = k, .alpha = 1.5, .beta = -1 };
            fails += run(&c, 380 + t, 0, "", ": packed,");
        }
    }
    assert_int_equal(fails, 0);
}

/* The default's rule for operands with k contiguous: read in place where
 * at most 4 work-group tiles along the other side of C read them, packed
 * where 5; with the set's kreuse 2, where 2 and 3.  TN (A and B with k
 * contiguous) and NN (B) on both sides of the limit, each set that stages
 * its operands, both precisions. */
static void reuse_rule(void **state)
{
    (void)state;
    int fails = 0, n = 0;
    static const size_t limits[] = { REUSE, 2 }; /* the default, then a set's kreuse */
    for (size_t li = 0; li < 2; li++)
        for (size_t si = 0, limit = limits[li]; si < NSETS; si++) {
            const pset *s = &sets[si];
            if (!s->sa)
                continue;
            restart(s->params, "packed", limit == REUSE ? 0 : limit);
            const size_t tiles[][2] = { { limit, limit }, { limit + 1, limit }, { limit, limit + 1 },
                                        { limit + 1, limit + 1 }, { 1, 9 } };
            for (int dbl = 0; dbl < 2; dbl++)
                for (int t = 0; t < 5; t++, n++) {
                    spec_case c = gemm(dbl, gpublas3ColumnMajor, t % 2 ? gpublas3Trans : gpublas3NoTrans,
                                       gpublas3NoTrans, tiles[t][0] * s->mwg, tiles[t][1] * s->nwg, 2 * s->kwg, 1,
                                       t % 3 ? 0.5 : 0);
                    const char *want = expected_gemm(s, c);
                    fails += run(&c, 420 + n, FILL_NO_TAIL, want, ": packed,");
                }
        }
    restart(NULL, NULL, 0);
    assert_int_equal(fails, 0);
}

int main(void)
{
    /* before the library's first call: read once */
    setenv("GPUBLAS3_VERBOSE", "1", 1);
    unsetenv("GPUBLAS3_SHAPE");
    unsetenv("GPUBLAS3_SPLITS");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gemm_sweep),
        cmocka_unit_test(gemm_sweep_kmajor),
        cmocka_unit_test(splitk),
        cmocka_unit_test(panels),
        cmocka_unit_test(routines),
        cmocka_unit_test(reuse_rule),
    };
    return cmocka_run_group_tests_name("inplace", tests, env_open, env_close);
}

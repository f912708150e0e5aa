/* SPDX-License-Identifier: BSD-3-Clause */
/* How the GEMM launches' work-group ids map to tiles (kernels/gemm.cl,
 * routines/plan/packed.c): a square triangle's launch (SYRK, SYR2K: tri_off 0, MWG == NWG) covers
 * only the stored triangle's tiles, one dimension of ids (TRIMAP); a
 * band's launch (TRMM, TRSM) runs its rounds of ids, one per compute
 * unit, deepest first and shallowest first in turn (SNAKE).  And split-K's TRMM reads its
 * output in place, unsnapshotted, where the layout allows (plan.c).
 *
 * Every case is judged as everywhere (OpenBLAS, canaries, inputs
 * unchanged, NaN in C with beta = 0) and its verbose plan line must say
 * the map ("ids on the triangle", "ids snake by").  Two square parameter sets
 * (staged and double-buffered, N-first, with the GPUs' copy kernel, which
 * packs TRMM's two operands in one launch, its maps constants of each build
 * as on GPUs; unstaged with wide vectors, its maps from the launch's
 * arguments as on CPUs) and a lopsided one (MWG != NWG: no triangle map,
 * the device's own kind of map), fixed with GPUBLAS3_PARAMS
 * for every class; the packed and split-K paths forced; sizes of one tile,
 * several tiles with a short last one, offsets and padded leading
 * dimensions, every order, uplo and trans (SYRK, SYR2K) or side, uplo,
 * trans and diag (TRMM).  Complex SYRK, HERK, SYR2K and HER2K too, whose
 * triangle map runs on pairs of tile rows (two real rows a complex row),
 * the last pair's second tile past C where its rows end inside the pair. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "harness.h"

static const struct {
    const char *params;
    int square;
} sets[] = {
    { "mwg=16,nwg=16,kwg=8,mdimc=4,ndimc=4,vwm=2,vwn=2,kwi=2,sa=1,sb=1,db=1,pad=2,wtm=0,nfirst=1,mma=0,"
      "copy_direct=0,copy_ts=16,copy_rs=4,rtmap=0", 1 },
    { "mwg=8,nwg=8,kwg=4,mdimc=2,ndimc=2,vwm=4,vwn=4,kwi=1,sa=0,sb=0,db=0,pad=0,wtm=0,nfirst=0,mma=0,rtmap=1", 1 },
    { "mwg=16,nwg=8,kwg=8,mdimc=4,ndimc=4,vwm=2,vwn=2,kwi=2,sa=1,sb=0,db=0,pad=0,wtm=0,nfirst=0,mma=0", 0 },
};
#define NSETS (sizeof sets / sizeof sets[0])

/* trsm_subst=0 first: TRMM's band launch, whose maps these cases check
 * (CPUs' rows multiply TRMM's blocks by kernels/subst.cl instead, no map) */
static void restart(const char *params, const char *plan)
{
    static const char *const vars[] = { "GPUBLAS3_PARAMS", "GPUBLAS3_PLAN" };
    static char with[512];
    snprintf(with, sizeof with, "trsm_subst=0%s%s", params ? "," : "", params ? params : "");
    const char *values[] = { with, plan };
    restart_with(2, vars, values);
}

/* The cases: SYRK and SYR2K (every order, uplo, trans) over one tile,
 * several with a short last one, and offsets with padded leading
 * dimensions; the complex ones (every order and uplo, trans N and T or C
 * in turn, the precision alternating); TRMM's every combination over
 * several tiles. */
#define NSYR (2 * 2 * 2 * 2 * 3 * 3)
#define NCPLX (4 * 2 * 2 * 3)
#define NCASES (NSYR + NCPLX + TRIANGULAR_COMBINATIONS)
static spec_case case_at(int i)
{
    static const size_t ns[3] = { 8, 45, 37 }, ks[3] = { 8, 13, 20 };
    if (i >= NSYR + NCPLX)
        return padded(triangular_case(SPEC_TRMM, i - NSYR - NCPLX, 70, 45, 1.5), i % 3);
    int size = i % 3;
    spec_case c;
    if (i >= NSYR) {
        static const spec_routine r[4] = { SPEC_SYRK, SPEC_HERK, SPEC_SYR2K, SPEC_HER2K };
        int k = i - NSYR, uplo = k / 3 % 2, order = k / 6 % 2, routine = k / 12;
        int herm = r[routine] == SPEC_HERK || r[routine] == SPEC_HER2K;
        c = (spec_case){ .routine = r[routine], .cplx = 1, .dbl = k % 2, .order = orders[order],
                         .uplo = uplos[uplo], .transA = k / 2 % 2 ? (herm ? gpublas3ConjTrans : gpublas3Trans)
                                                                  : gpublas3NoTrans,
                         .N = ns[size], .K = ks[size], .alpha = 1.25, .alpha_im = r[routine] == SPEC_HERK ? 0 : -0.5,
                         .beta = size == 1 ? 0 : -0.5 };
    } else {
        int t = i / 3 % 3, uplo = i / 9 % 2, order = i / 18 % 2, dbl = i / 36 % 2, r2 = i / 72;
        c = (spec_case){ .routine = r2 ? SPEC_SYR2K : SPEC_SYRK, .dbl = dbl, .order = orders[order],
                         .uplo = uplos[uplo], .transA = transposes[t], .N = ns[size], .K = ks[size], .alpha = 1.25,
                         .beta = size == 1 ? 0 : -0.5 };
    }
    if (size == 2) {
        c.offA = 3;
        c.offB = 5;
        c.offC = 1;
        c = padded(c, 2);
    }
    return c;
}

/* Runs case i (judged); with `plan`, logged, and checks its plan line
 * for `mark` (NULL: no map named) and for a parameter set refused. */
static int run(int i, int plan, const char *mark)
{
    spec_case c = case_at(i);
    const int flags = i >= NSYR + NCPLX ? FILL_NAN_TRIANGLE : 0;
    if (!plan)
        return check_case(&c, 500 + i, flags);
    char text[16384];
    int bad = check_case_logged(&c, 500 + i, flags, text, sizeof text);
    const int named = strstr(text, "; ids on the triangle") || strstr(text, "; ids snake by");
    if ((mark ? !strstr(text, mark) : named) || strstr(text, "ignored")) {
        char desc[256];
        spec_describe(&c, desc, sizeof desc);
        print_error("FAIL %s: plan line %s \"%s\" (or a set refused)\n", desc,
                    mark ? "lacks" : "names a map, not", mark ? mark : "");
        bad = 1;
    }
    return bad;
}

/* Each set and path: the cases (the plan names the maps where they
 * apply; every third case logged).  TRMM's combinations alternate
 * between the sets (even ones on the first and third, odd ones on the
 * second). */
static void maps(void **state)
{
    (void)state;
    static const char *const plans[] = { "packed", "splitk" };
    int fails = 0;
    for (size_t s = 0; s < NSETS; s++)
        for (int p = 0; p < 2; p++) {
            restart(sets[s].params, plans[p]);
            for (int i = 0; i < NCASES; i++) {
                const int trmm = i >= NSYR + NCPLX;
                if (trmm && (i - NSYR - NCPLX) % 2 != (int)s % 2)
                    continue;
                const char *mark = trmm ? "; ids snake by" : sets[s].square ? "; ids on the triangle" : NULL;
                fails += run(i, i % 3 == 0, mark);
            }
        }
    restart(NULL, NULL);
    assert_int_equal(fails, 0);
}

/* Split-K's TRMM reads B in place on the right side, column-major (op(B)
 * = B is the call's A operand with m contiguous) when M is whole tiles, N
 * whole k-tiles and offset and ld whole vectors; packed (no map, the
 * packed path) it is snapshotted, never read in place. */
static void trmm_output_in_place(void **state)
{
    (void)state;
    int fails = 0;
    for (int p = 0; p < 2; p++) {
        restart(sets[0].params, p ? "splitk" : "packed");
        for (int n = 0; n < TRIANGULAR_COMBINATIONS; n++) {
            spec_case c = triangular_case(SPEC_TRMM, n, 32, 24, 2);
            if (c.side != gpublas3Right || c.order != gpublas3ColumnMajor)
                continue;
            c.offB = 2;
            c.ldb = 34;
            char text[16384];
            fails += check_case_logged(&c, 600 + n, FILL_NAN_TRIANGLE, text, sizeof text);
            if (!strstr(text, p ? "in place: A" : ": packed,") || (!p && strstr(text, "in place"))) {
                char desc[256];
                spec_describe(&c, desc, sizeof desc);
                print_error("FAIL %s (%s): B %s in place\n", desc, p ? "split-K" : "packed", p ? "not" : "read");
                fails++;
            }
        }
    }
    restart(NULL, NULL);
    assert_int_equal(fails, 0);
}

int main(void)
{
    setenv("GPUBLAS3_VERBOSE", "1", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(maps),
        cmocka_unit_test(trmm_output_in_place),
    };
    return cmocka_run_group_tests_name("tilemap", tests, env_open, env_close);
}

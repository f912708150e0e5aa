/* SPDX-License-Identifier: BSD-3-Clause */
/* Operands that share one cl_mem, as blocked algorithms use the API
 * (C <- C - A*B on blocks of one big matrix): A, B and C as disjoint row
 * blocks (column blocks, row-major) of one buffer with a common leading
 * dimension, so each matrix's "ld padding" is another matrix's data and
 * must come back bit-identical; and inputs that alias each other exactly
 * (GEMM's B = A, SYMM's B = A, SYR2K's B = A), which BLAS allows.  Every
 * routine, both precisions and orders. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "harness.h"

/* Lays the used operands of `c` out in one buffer: consecutive blocks of
 * lines (rows of a column-major buffer), one spare line between blocks, a
 * common ld.  With `b_is_a`, B takes A's place instead of its own. */
static void lay_out(spec_case *c, int b_is_a)
{
    size_t start = 1, off[3] = { 0, 0, 0 };
    for (int k = 0; k < 3; k++) {
        size_t r, n;
        if (!spec_uses(c, "ABC"[k]) || (k == 1 && b_is_a)) continue;
        spec_dims(c, "ABC"[k], &r, &n);
        off[k] = start;
        start += (c->order == gpublas3ColumnMajor ? r : n) + 1;
    }
    if (b_is_a) off[1] = off[0];
    c->offA = off[0]; c->offB = off[1]; c->offC = off[2];
    c->lda = c->ldb = c->ldc = start + 1;
}

static int run(const spec_case *c0, int b_is_a, uint64_t seed)
{
    spec_case c = *c0;
    lay_out(&c, b_is_a);
    test_data d;
    data_fill(&d, &c, seed, 0);
    size_t es = spec_elem_size(&c), n = 0;
    for (int k = 0; k < 3; k++) n = d.n[k] > n ? d.n[k] : n;

    /* One host image: canaries, then each operand's block from its own
     * array (A last, so that an aliased B reads exactly A's contents). */
    void *w = malloc(n * es), *ref = malloc(n * es);
    for (size_t x = 0; x < n; x++) {
        if (c.dbl) ((double *)w)[x] = 3000 + x % 11;
        else ((float *)w)[x] = 3000 + x % 11;
    }
    for (int k = 2; k >= 0; k--) {
        size_t r, cols;
        if (!d.host[k]) continue;
        spec_dims(&c, "ABC"[k], &r, &cols);
        for (size_t j = 0; j < cols; j++)
            for (size_t i = 0; i < r; i++) {
                size_t x = spec_index(&c, "ABC"[k], i, j);
                memcpy((char *)w + x * es, (char *)d.host[k] + x * es, es);
            }
    }
    cl_int err;
    cl_mem m = clCreateBuffer(env.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * es, w, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_event ev = NULL;
    char msg[256] = "", desc[256];
    size_t bad = 0;
    gpublas3Status st = spec_run(&c, env.q, m, spec_uses(&c, 'B') ? m : NULL, spec_uses(&c, 'C') ? m : NULL,
                                 0, NULL, &ev);
    if (st != gpublas3Success) {
        snprintf(msg, sizeof msg, "status %d (%s)", st, gpublas3StatusString(st));
        bad = 1;
    } else {
        assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
        clReleaseEvent(ev);
        void *got = read_back(env.q, m, n * es);
        memcpy(ref, w, n * es);
        spec_reference(&c, w, w, ref);
        /* everything but the output's own region -- the other operands
         * included -- must be as it was */
        bad = spec_check_n(&c, w, w, w, got, ref, n, msg, sizeof msg);
        free(got);
    }
    if (bad) {
        spec_describe(&c, desc, sizeof desc);
        print_error("FAIL %s%s: %s\n", desc, b_is_a ? " (B = A)" : "", msg);
    }
    clFinish(env.q);
    clReleaseMemObject(m);
    free(w);
    free(ref);
    data_free(&d);
    return bad != 0;
}

static void blocks_of_one_buffer(void **state)
{
    (void)state;
    int fails = 0;
    for (int n = 0; n < 4; n++) { /* (s col, d row) x two option sets */
        int dbl = n / 2, alt = n % 2;
        double beta = alt ? 0 : -1;
        spec_case g = { .routine = SPEC_GEMM, .dbl = dbl, .order = orders[dbl], .transA = transposes[alt],
                        .transB = transposes[2 * alt], .M = 37, .N = 29, .K = 70, .alpha = -1, .beta = beta };
        spec_case sy = { .routine = SPEC_SYMM, .dbl = dbl, .order = orders[dbl], .side = sides[alt],
                         .uplo = uplos[dbl], .M = 37, .N = 41, .alpha = 2.5, .beta = beta };
        spec_case rk = { .routine = SPEC_SYRK, .dbl = dbl, .order = orders[dbl], .uplo = uplos[alt],
                         .transA = transposes[dbl + alt], .N = 45, .K = 33, .alpha = 2.5, .beta = beta };
        spec_case r2 = rk;
        r2.routine = SPEC_SYR2K;
        spec_case tr = { .routine = SPEC_TRMM, .dbl = dbl, .order = orders[dbl], .side = sides[alt],
                         .uplo = uplos[dbl], .transA = transposes[alt], .diag = diags[alt],
                         .M = 37, .N = 41, .alpha = -1 };
        fails += run(&g, 0, n) + run(&sy, 0, n) + run(&rk, 0, n) + run(&r2, 0, n) + run(&tr, 0, n);
    }
    assert_int_equal(fails, 0);
}

/* B = A: same buffer, offset and ld.  GEMM needs op(B) to be A's storage
 * read as K x N (C = A*A^T here, or A*A with everything square). */
static void inputs_aliasing_each_other(void **state)
{
    (void)state;
    int fails = 0;
    for (int dbl = 0; dbl < 2; dbl++) {
        gpublas3Order o = orders[dbl];
        spec_case g1 = { .routine = SPEC_GEMM, .dbl = dbl, .order = o, .transA = gpublas3NoTrans,
                         .transB = gpublas3Trans, .M = 70, .N = 70, .K = 33, .alpha = 2.5, .beta = 1 };
        spec_case g2 = { .routine = SPEC_GEMM, .dbl = dbl, .order = o, .transA = gpublas3Trans,
                         .transB = gpublas3Trans, .M = 65, .N = 65, .K = 65, .alpha = -1, .beta = 0 };
        spec_case sy = { .routine = SPEC_SYMM, .dbl = dbl, .order = o, .side = sides[dbl], .uplo = uplos[1 - dbl],
                         .M = 66, .N = 66, .alpha = 1, .beta = 2.5 };
        spec_case r2 = { .routine = SPEC_SYR2K, .dbl = dbl, .order = o, .uplo = uplos[dbl],
                         .transA = transposes[2 * dbl], .N = 70, .K = 40, .alpha = -1, .beta = 2.5 };
        fails += run(&g1, 1, dbl) + run(&g2, 1, dbl) + run(&sy, 1, dbl) + run(&r2, 1, dbl);
    }
    assert_int_equal(fails, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(blocks_of_one_buffer),
        cmocka_unit_test(inputs_aliasing_each_other),
    };
    return cmocka_run_group_tests_name("one buffer", tests, env_open, env_close);
}

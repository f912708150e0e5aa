/* SPDX-License-Identifier: BSD-3-Clause */
/* Argument checks and quick returns of every routine, both precisions and
 * both orders: each bad argument (invalid enum, ld below the rows, NULL
 * buffer, buffer of another context, buffer too small for offset + extent,
 * no queue, NULL queue, wait-list count without a list) must return its own
 * status, enqueue nothing, return no event and leave every buffer as it was.
 * A buffer of exactly offset + extent must be accepted; M = 0 or N = 0 must
 * succeed touching nothing.  A dimension no buffer could hold (a negative
 * int passed as size_t) must be InvalidDim, said before the leading
 * dimensions and buffers it would make look wrong; under GPUBLAS3_VERBOSE
 * each refused call prints one line naming the routine, the argument and
 * its value.  The first group runs before gpublas3Setup: calls then return
 * NotInitialized, and Setup/Teardown count references. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "harness.h"

/* A valid call of each routine, odd sizes, offsets on every operand. */
static spec_case base(spec_routine r, int dbl, gpublas3Order o)
{
    spec_case c = { .routine = r, .dbl = dbl, .order = o, .side = gpublas3Right, .uplo = gpublas3Lower,
                    .transA = gpublas3NoTrans, .transB = gpublas3Trans, .diag = gpublas3NonUnit,
                    .M = 7, .N = 5, .K = 3, .alpha = 2.5, .beta = -1, .offA = 2, .offB = 3, .offC = 1 };
    spec_complete(&c);
    return c;
}

/* The queue arguments a call gets; the default is one good queue. */
typedef struct {
    cl_uint nq;
    cl_command_queue *qs;
    cl_uint nwait;
    const cl_event *wait;
} queue_args;

/* Calls `c` on the buffers of `d` (m[k] replaces buffer k when non-NULL,
 * `null_k` passes NULL for buffer k) and checks the status and that nothing
 * happened.  Returns 1 on a fault. */
static int expect(const test_data *d, const spec_case *c, cl_mem swap, int swap_k, int null_k,
                  const queue_args *qa, gpublas3Status want, const char *what)
{
    cl_mem m[3];
    cl_command_queue q[1] = { env.q };
    queue_args good = { 1, q, 0, NULL };
    cl_event ev = NULL;
    char desc[256];
    int bad = 0;
    if (!qa) qa = &good;
    for (int k = 0; k < 3; k++) m[k] = data_buffer(d, k, env.ctx);
    cl_mem arg[3] = { m[0], m[1], m[2] };
    if (swap) arg[swap_k] = swap;
    if (null_k >= 0) arg[null_k] = NULL;

    gpublas3Status st = spec_run_queues(c, qa->nq, qa->qs, arg[0], arg[1], arg[2], qa->nwait, qa->wait, &ev);
    spec_describe(c, desc, sizeof desc);
    if (st != want) {
        print_error("%s: %s: status %d (%s), expected %d (%s)\n", what, desc, st, gpublas3StatusString(st),
                    want, gpublas3StatusString(want));
        bad = 1;
    }
    if (want != gpublas3Success && ev) {
        print_error("%s: %s: a rejected call returned an event\n", what, desc);
        bad = 1;
    }
    if (want == gpublas3Success && ev) /* a quick return may give an event; it must complete */
        assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
    if (ev) clReleaseEvent(ev);
    assert_int_equal(clFinish(env.q), CL_SUCCESS);
    for (int k = 0; k < 3; k++) {
        if (!m[k]) continue;
        size_t bytes = d->n[k] * spec_elem_size(&d->c);
        void *got = read_back(env.q, m[k], bytes);
        if (memcmp(got, d->host[k], bytes)) {
            print_error("%s: %s: buffer %c changed\n", what, desc, "ABC"[k]);
            bad = 1;
        }
        free(got);
        clReleaseMemObject(m[k]);
    }
    return bad;
}

static cl_mem buffer_in(cl_context ctx, const test_data *d, int k, size_t elements)
{
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              elements * spec_elem_size(&d->c), d->host[k], &err);
    assert_int_equal(err, CL_SUCCESS);
    return m;
}

static int bad_enums(const test_data *d)
{
    const spec_case *b = &d->c;
    spec_case c;
    int fails = 0;
    c = *b; c.order = (gpublas3Order)7;
    fails += expect(d, &c, NULL, 0, -1, NULL, gpublas3InvalidValue, "order");
    if (b->routine != SPEC_SYMM) {
        c = *b; c.transA = (gpublas3Transpose)7;
        fails += expect(d, &c, NULL, 0, -1, NULL, gpublas3InvalidValue, "transA");
    }
    if (b->routine == SPEC_GEMM) {
        c = *b; c.transB = (gpublas3Transpose)-1;
        fails += expect(d, &c, NULL, 0, -1, NULL, gpublas3InvalidValue, "transB");
    }
    if (b->routine == SPEC_SYMM || spec_output(b) == 'B') {
        c = *b; c.side = (gpublas3Side)2;
        fails += expect(d, &c, NULL, 0, -1, NULL, gpublas3InvalidValue, "side");
    }
    if (b->routine != SPEC_GEMM) {
        c = *b; c.uplo = (gpublas3Uplo)2;
        fails += expect(d, &c, NULL, 0, -1, NULL, gpublas3InvalidValue, "uplo");
    }
    if (spec_output(b) == 'B') { /* TRMM, TRSM */
        c = *b; c.diag = (gpublas3Diag)9;
        fails += expect(d, &c, NULL, 0, -1, NULL, gpublas3InvalidValue, "diag");
    }
    return fails;
}

static int bad_operands(const test_data *d)
{
    static const gpublas3Status lead[3] = { gpublas3InvalidLeadDimA, gpublas3InvalidLeadDimB, gpublas3InvalidLeadDimC };
    static const gpublas3Status mat[3] = { gpublas3InvalidMatA, gpublas3InvalidMatB, gpublas3InvalidMatC };
    static const gpublas3Status mem[3] = { gpublas3InsufficientMemMatA, gpublas3InsufficientMemMatB,
                                           gpublas3InsufficientMemMatC };
    const spec_case *b = &d->c;
    int fails = 0;
    for (int k = 0; k < 3; k++) {
        char w = "ABC"[k];
        if (!spec_uses(b, w)) continue;
        spec_case c = *b;
        size_t *ld = k == 0 ? &c.lda : k == 1 ? &c.ldb : &c.ldc;
        *ld -= 1; /* the base is tight: one less is below the rows (columns, row-major) */
        fails += expect(d, &c, NULL, 0, -1, NULL, lead[k], "ld one below the rows");
        fails += expect(d, b, NULL, 0, k, NULL, mat[k], "NULL buffer");
        cl_mem foreign = buffer_in(env.other_ctx, d, k, d->n[k]);
        fails += expect(d, b, foreign, k, -1, NULL, gpublas3InvalidContext, "buffer of another context");
        clReleaseMemObject(foreign);
        cl_mem small = buffer_in(env.ctx, d, k, spec_elements(b, w) - 1);
        fails += expect(d, b, small, k, -1, NULL, mem[k], "buffer one element short of offset + extent");
        clReleaseMemObject(small);
    }
    return fails;
}

static int bad_queues(const test_data *d)
{
    cl_command_queue good[1] = { env.q }, none[1] = { NULL };
    queue_args zero = { 0, good, 0, NULL }, nullq = { 1, NULL, 0, NULL }, nullq0 = { 1, none, 0, NULL };
    queue_args nolist = { 1, good, 1, NULL };
    return expect(d, &d->c, NULL, 0, -1, &zero, gpublas3InvalidCommandQueue, "numCommandQueues = 0")
         + expect(d, &d->c, NULL, 0, -1, &nullq, gpublas3InvalidCommandQueue, "commandQueues = NULL")
         + expect(d, &d->c, NULL, 0, -1, &nullq0, gpublas3InvalidCommandQueue, "commandQueues[0] = NULL")
         + expect(d, &d->c, NULL, 0, -1, &nolist, gpublas3InvalidEventWaitList, "1 event, NULL list");
}

/* The routine's dimension arguments, as spec_case fields. */
static const char *dims_of(spec_routine r)
{
    return r == SPEC_GEMM ? "MNK" : r == SPEC_SYRK || r == SPEC_SYR2K || r == SPEC_HERK || r == SPEC_HER2K ? "NK" : "MN";
}

static size_t *dim_field(spec_case *c, char which) { return which == 'M' ? &c->M : which == 'N' ? &c->N : &c->K; }

/* M, N or K = -5 (as size_t), or just over 2^62 bytes of elements:
 * InvalidDim, though the tight leading dimensions and buffers no longer
 * fit.  2^62 bytes of elements exactly is no InvalidDim: what fails then
 * is the leading dimension or the buffer. */
static int huge_dims(const test_data *d)
{
    int fails = 0;
    const size_t limit = ((size_t)1 << 62) / spec_elem_size(&d->c);
    for (const char *w = dims_of(d->c.routine); *w; w++) {
        spec_case c = d->c;
        char what[32];
        snprintf(what, sizeof what, "%c = -5", *w);
        *dim_field(&c, *w) = (size_t)-5;
        fails += expect(d, &c, NULL, 0, -1, NULL, gpublas3InvalidDim, what);
        snprintf(what, sizeof what, "%c = 2^62 bytes + 1", *w);
        *dim_field(&c, *w) = limit + 1;
        fails += expect(d, &c, NULL, 0, -1, NULL, gpublas3InvalidDim, what);
        *dim_field(&c, *w) = limit;
        cl_command_queue q[1] = { env.q };
        cl_mem m[3];
        for (int k = 0; k < 3; k++) m[k] = data_buffer(d, k, env.ctx);
        gpublas3Status st = spec_run_queues(&c, 1, q, m[0], m[1], m[2], 0, NULL, NULL);
        for (int k = 0; k < 3; k++) if (m[k]) clReleaseMemObject(m[k]);
        if (st == gpublas3InvalidDim || st == gpublas3Success) {
            print_error("%c = 2^62 bytes: status %d (%s), expected a leading-dimension or buffer status\n", *w,
                        st, gpublas3StatusString(st));
            fails++;
        }
    }
    return fails;
}

static void each_case(int (*fn)(const test_data *))
{
    int fails = 0;
    for (int r = 0; r < SPEC_NROUTINES; r++)
        for (int dbl = 0; dbl < 2; dbl++)
            for (int o = 0; o < 2; o++) {
                spec_case c = base(r, dbl, orders[o]);
                test_data d;
                data_fill(&d, &c, 3 * r + o, 0);
                fails += fn(&d);
                data_free(&d);
            }
    assert_int_equal(fails, 0);
}

static void invalid_enums(void **state) { (void)state; each_case(bad_enums); }
static void invalid_operands(void **state) { (void)state; each_case(bad_operands); }
static void invalid_queues_and_wait_list(void **state) { (void)state; each_case(bad_queues); }

static void invalid_dims(void **state)
{
    (void)state;
    each_case(huge_dims);
    int fails = 0;
    for (int r = SPEC_HEMM; r < SPEC_NALL; r++) { /* the Hermitian names too */
        spec_case c = base(r, 1, gpublas3ColumnMajor);
        c.cplx = 1;
        spec_complete(&c);
        test_data d;
        data_fill(&d, &c, 40 + r, 0);
        fails += huge_dims(&d);
        data_free(&d);
    }
    assert_int_equal(fails, 0);
}

/* GPUBLAS3_VERBOSE=1: one line on stderr per refused call, naming the
 * routine, the argument and its value (lib/check.c). */
static void refused_calls_say_why(void **state)
{
    (void)state;
    spec_case c = base(SPEC_GEMM, 0, gpublas3ColumnMajor), herk = base(SPEC_HERK, 1, gpublas3RowMajor);
    herk.cplx = 1;
    spec_complete(&herk);
    test_data d, dh;
    data_fill(&d, &c, 50, 0);
    data_fill(&dh, &herk, 51, 0);
    cl_command_queue none[1] = { NULL };
    queue_args nullq0 = { 1, none, 0, NULL };
    FILE *captured = tmpfile();
    assert_non_null(captured);
    fflush(stderr);
    int saved = dup(2);
    assert_true(saved >= 0 && dup2(fileno(captured), 2) >= 0);
    setenv("GPUBLAS3_VERBOSE", "1", 1);
    int fails = 0;
    spec_case bad = c;
    bad.M = (size_t)-5;
    bad.lda = 1; /* the dimension is said first */
    fails += expect(&d, &bad, NULL, 0, -1, NULL, gpublas3InvalidDim, "M = -5");
    bad = c;
    bad.lda -= 1;
    fails += expect(&d, &bad, NULL, 0, -1, NULL, gpublas3InvalidLeadDimA, "lda one short");
    bad = c;
    bad.transB = (gpublas3Transpose)9;
    fails += expect(&d, &bad, NULL, 0, -1, NULL, gpublas3InvalidValue, "transB = 9");
    fails += expect(&d, &c, NULL, 0, -1, &nullq0, gpublas3InvalidCommandQueue, "commandQueues[0] = NULL");
    bad = herk;
    bad.N = (size_t)-1;
    fails += expect(&dh, &bad, NULL, 0, -1, NULL, gpublas3InvalidDim, "N = -1");
    unsetenv("GPUBLAS3_VERBOSE");
    fflush(stderr);
    assert_true(dup2(saved, 2) >= 0);
    close(saved);
    char text[4096];
    rewind(captured);
    size_t len = fread(text, 1, sizeof text - 1, captured);
    text[len] = 0;
    fclose(captured);
    fputs(text, stderr);
    data_free(&d);
    data_free(&dh);
    static const char *const want[] = {
        "gpublas3: gpublas3Sgemm refused: M = 18446744073709551611 (gpublas3InvalidDim)\n",
        "gpublas3: gpublas3Sgemm refused: lda = 6, below A's 7 stored rows (gpublas3InvalidLeadDimA)\n",
        "gpublas3: gpublas3Sgemm refused: transB = 9 (gpublas3InvalidValue)\n",
        "gpublas3: gpublas3Sgemm refused: commandQueues[0] = NULL (gpublas3InvalidCommandQueue)\n",
        "gpublas3: gpublas3Zherk refused: N = 18446744073709551615 (gpublas3InvalidDim)\n",
    };
    int lines = 0;
    for (const char *p = text; (p = strstr(p, "refused")); p++) lines++;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(text, want[i])) {
            print_error("stderr lacks: %s", want[i]);
            fails++;
        }
    if (lines != 5) {
        print_error("%d refusal lines for 5 refused calls\n", lines);
        fails++;
    }
    assert_int_equal(fails, 0);
}

/* A buffer holding exactly offset + extent is big enough: the size check
 * must not be off by one (check_case also verifies the result). */
static void exact_size_buffers_accepted(void **state)
{
    (void)state;
    int fails = 0;
    for (int r = 0; r < SPEC_NROUTINES; r++)
        for (int o = 0; o < 2; o++) {
            spec_case c = base(r, o, orders[o]);
            fails += check_case(&c, r, FILL_NO_TAIL);
        }
    assert_int_equal(fails, 0);
}

static int quick(const test_data *d)
{
    spec_case c = d->c;
    int fails = 0;
    c.N = 0;
    fails += expect(d, &c, NULL, 0, -1, NULL, gpublas3Success, "N = 0");
    if (c.routine == SPEC_GEMM || c.routine == SPEC_SYMM || spec_output(&c) == 'B') {
        c = d->c;
        c.M = 0;
        fails += expect(d, &c, NULL, 0, -1, NULL, gpublas3Success, "M = 0");
    }
    return fails;
}
static void empty_matrices_return_at_once(void **state) { (void)state; each_case(quick); }

static int not_initialized(const test_data *d)
{
    return expect(d, &d->c, NULL, 0, -1, NULL, gpublas3NotInitialized, "before gpublas3Setup");
}

/* Runs before any Setup: every routine refuses, and after Setup/Teardown
 * pairs the count decides whether the library is up. */
static void before_setup(void **state)
{
    (void)state;
    each_case(not_initialized);
    spec_case c = base(SPEC_GEMM, 0, gpublas3ColumnMajor);
    assert_int_equal(gpublas3Setup(), gpublas3Success);
    assert_int_equal(gpublas3Setup(), gpublas3Success);
    gpublas3Teardown();
    assert_int_equal(check_case(&c, 1, 0), 0); /* one Setup still outstanding */
    gpublas3Teardown();
    test_data d;
    data_fill(&d, &c, 1, 0);
    assert_int_equal(not_initialized(&d), 0); /* the last Teardown shut it down */
    data_free(&d);
}

/* Both work without Setup; the version is the project's (CMake passes it). */
static void version_and_status_strings(void **state)
{
    (void)state;
    cl_uint v[3] = { 99, 99, 99 };
    assert_int_equal(gpublas3GetVersion(&v[0], &v[1], &v[2]), gpublas3Success);
    assert_int_equal(v[0], GPUBLAS3_TEST_VERSION_MAJOR);
    assert_int_equal(v[1], GPUBLAS3_TEST_VERSION_MINOR);
    assert_int_equal(v[2], GPUBLAS3_TEST_VERSION_PATCH);
    static const gpublas3Status codes[] = {
        gpublas3Success, gpublas3InvalidValue, gpublas3InvalidCommandQueue, gpublas3InvalidContext,
        gpublas3InvalidMemObject, gpublas3InvalidEventWaitList, gpublas3OutOfResources,
        gpublas3NotInitialized, gpublas3InvalidMatA, gpublas3InvalidMatB, gpublas3InvalidMatC,
        gpublas3InvalidLeadDimA, gpublas3InvalidLeadDimB, gpublas3InvalidLeadDimC,
        gpublas3InsufficientMemMatA, gpublas3InsufficientMemMatB, gpublas3InsufficientMemMatC };
    size_t n = sizeof codes / sizeof codes[0];
    for (size_t i = 0; i < n; i++) {
        const char *s = gpublas3StatusString(codes[i]);
        assert_non_null(s);
        assert_true(s[0] != 0);
        for (size_t j = 0; j < i; j++) /* a message that names the fault, not a generic one */
            assert_string_not_equal(s, gpublas3StatusString(codes[j]));
    }
    assert_non_null(gpublas3StatusString((gpublas3Status)12345));
}

int main(void)
{
    const struct CMUnitTest before[] = {
        cmocka_unit_test(version_and_status_strings),
        cmocka_unit_test(before_setup),
    };
    const struct CMUnitTest after[] = {
        cmocka_unit_test(invalid_enums),
        cmocka_unit_test(invalid_operands),
        cmocka_unit_test(invalid_queues_and_wait_list),
        cmocka_unit_test(invalid_dims),
        cmocka_unit_test(refused_calls_say_why),
        cmocka_unit_test(exact_size_buffers_accepted),
        cmocka_unit_test(empty_matrices_return_at_once),
    };
    int fails = cmocka_run_group_tests_name("before setup", before, env_open_no_setup, env_close);
    return fails + cmocka_run_group_tests_name("arguments", after, env_open, env_close);
}

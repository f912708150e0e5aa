/* SPDX-License-Identifier: BSD-3-Clause */
/* The shared test harness (see harness.h).  Canaries are finite values far
 * outside the data's [-1, 1], so a kernel that reads padding as data gives a
 * visibly wrong result and one that writes padding is caught bit for bit. */
#include "harness.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

test_env env;

const gpublas3Order orders[2] = { gpublas3ColumnMajor, gpublas3RowMajor };
const gpublas3Transpose transposes[3] = { gpublas3NoTrans, gpublas3Trans, gpublas3ConjTrans };
const gpublas3Side sides[2] = { gpublas3Left, gpublas3Right };
const gpublas3Uplo uplos[2] = { gpublas3Upper, gpublas3Lower };
const gpublas3Diag diags[2] = { gpublas3NonUnit, gpublas3Unit };

static cl_device_id pick_device(void)
{
    cl_platform_id plats[16];
    cl_uint np = 0;
    cl_device_id dev = NULL;
    if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS || !np) return NULL;
    if (np > 16) np = 16;
    for (cl_uint p = 0; p < np; p++)
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) == CL_SUCCESS) return dev;
    for (cl_uint p = 0; p < np; p++)
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) == CL_SUCCESS) return dev;
    return NULL;
}

static int open_env(int setup)
{
    cl_int err;
    env.device = pick_device();
    if (!env.device) { fprintf(stderr, "no OpenCL device\n"); return -1; }
    env.ctx = clCreateContext(NULL, 1, &env.device, NULL, NULL, &err);
    if (err) return -1;
    env.other_ctx = clCreateContext(NULL, 1, &env.device, NULL, NULL, &err);
    if (err) return -1;
    env.q = clCreateCommandQueue(env.ctx, env.device, 0, &err);
    if (err) return -1;
    env.q2 = clCreateCommandQueue(env.ctx, env.device, 0, &err);
    if (err) return -1;
    if (setup && gpublas3Setup() != gpublas3Success) { fprintf(stderr, "gpublas3Setup failed\n"); return -1; }
    env.did_setup = setup;
    return 0;
}

int env_open(void **state) { (void)state; return open_env(1); }
int env_open_no_setup(void **state) { (void)state; return open_env(0); }

int env_close(void **state)
{
    (void)state;
    if (env.did_setup) gpublas3Teardown();
    clReleaseCommandQueue(env.q);
    clReleaseCommandQueue(env.q2);
    clReleaseContext(env.ctx);
    clReleaseContext(env.other_ctx);
    return 0;
}

/* splitmix64: fixed seeds give the same data on every machine. */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static double uniform(uint64_t *s) { return (double)(next(s) >> 11) / 9007199254740992.0 * 2 - 1; }

static void put_real(const spec_case *c, void *p, size_t k, double v)
{
    if (c->dbl) ((double *)p)[k] = v;
    else ((float *)p)[k] = (float)v;
}
/* Element k; a complex one gets `im` as its imaginary part. */
static void put(const spec_case *c, void *p, size_t k, double v, double im)
{
    size_t nc = c->cplx ? 2 : 1;
    put_real(c, p, k * nc, v);
    if (c->cplx) put_real(c, p, k * nc + 1, im);
}

void data_fill(test_data *d, const spec_case *c0, uint64_t seed, int flags)
{
    memset(d, 0, sizeof *d);
    d->c = *c0;
    spec_complete(&d->c);
    const spec_case *c = &d->c;
    uint64_t s = seed * 7919 + 17;
    for (int k = 0; k < 3; k++) {
        char w = "ABC"[k];
        if (!spec_uses(c, w)) continue;
        d->n[k] = spec_elements(c, w) + (flags & FILL_NO_TAIL ? 0 : TEST_TAIL);
        if (!d->n[k]) d->n[k] = 1; /* OpenCL has no empty buffers */
        d->host[k] = malloc(d->n[k] * spec_elem_size(c));
        for (size_t x = 0; x < d->n[k]; x++) put(c, d->host[k], x, 1000 + 100 * k + x % 13, 1050 + x % 11);
        size_t r, cols;
        spec_dims(c, w, &r, &cols);
        int is_out = spec_output(c) == w;
        for (size_t j = 0; j < cols; j++)
            for (size_t i = 0; i < r; i++) {
                size_t x = spec_index(c, w, i, j);
                if (spec_referenced(c, w, i, j)) {
                    double v = uniform(&s), im = c->cplx ? uniform(&s) : 0;
                    if (is_out && spec_output(c) != 'B' && c->beta == 0 && c->beta_im == 0) v = im = NAN;
                    if (!is_out && (flags & FILL_NAN_AB)) v = im = NAN;
                    /* Hermitian diagonals: the imaginary part is never read */
                    if (spec_imag_unread(c, w, i, j)) im = NAN;
                    put(c, d->host[k], x, v, im);
                } else if (w == 'A' && (flags & FILL_NAN_TRIANGLE)) {
                    put(c, d->host[k], x, NAN, NAN);
                }
            }
        if (w == 'A') spec_condition(c, d->host[k]);
    }
}

void data_free(test_data *d)
{
    for (int k = 0; k < 3; k++) free(d->host[k]);
}

cl_mem data_buffer(const test_data *d, int k, cl_context ctx)
{
    cl_int err;
    if (!d->host[k]) return NULL;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              d->n[k] * spec_elem_size(&d->c), d->host[k], &err);
    assert_int_equal(err, CL_SUCCESS);
    return m;
}

void *read_back(cl_command_queue q, cl_mem m, size_t bytes)
{
    void *p = malloc(bytes);
    assert_int_equal(clEnqueueReadBuffer(q, m, CL_TRUE, 0, bytes, p, 0, NULL, NULL), CL_SUCCESS);
    return p;
}

spec_case padded(spec_case c, size_t pad)
{
    c.lda = c.ldb = c.ldc = 0;
    spec_complete(&c);
    c.lda += pad;
    c.ldb += pad;
    c.ldc += pad;
    return c;
}

void case_fill(test_call *t, const spec_case *c, uint64_t seed, int flags, cl_context ctx)
{
    memset(t, 0, sizeof *t);
    t->seed = seed;
    data_fill(&t->d, c, seed, flags);
    for (int k = 0; k < 3; k++) t->m[k] = data_buffer(&t->d, k, ctx);
}

void case_run(test_call *t, cl_command_queue q, cl_uint nwait, const cl_event *wait, int want_event)
{
    t->status = spec_run(&t->d.c, q, t->m[0], t->m[1], t->m[2], nwait, wait, want_event ? &t->ev : NULL);
}

void case_start(test_call *t, const spec_case *c, uint64_t seed, int flags, cl_command_queue q,
                cl_uint nwait, const cl_event *wait, int want_event)
{
    case_fill(t, c, seed, flags, env.ctx);
    case_run(t, q, nwait, wait, want_event);
}

int case_finish_on(test_call *t, cl_command_queue q)
{
    if (t->ev) {
        assert_int_equal(clWaitForEvents(1, &t->ev), CL_SUCCESS);
        clReleaseEvent(t->ev);
    }
    return case_judge(t, q);
}

/* Read through env.q2: ordered after nothing but case_finish_on's wait (or
 * the caller's clFinish when no event was asked for). */
int case_finish(test_call *t) { return case_finish_on(t, env.q2); }

int case_judge(test_call *t, cl_command_queue q)
{
    test_data *d = &t->d;
    const spec_case *c = &d->c;
    char desc[256], msg[256] = "";
    int bad = 0;
    size_t es = spec_elem_size(c);
    int out = spec_output(c) == 'B' ? 1 : 2;
    if (t->status != gpublas3Success) {
        snprintf(msg, sizeof msg, "status %d (%s)", t->status, gpublas3StatusString(t->status));
        bad = 1;
    }
    for (int k = 0; k < 3 && !bad; k++) {
        if (!t->m[k]) continue;
        void *got = read_back(q, t->m[k], d->n[k] * es);
        if (k == out) {
            void *ref = malloc(d->n[k] * es);
            memcpy(ref, d->host[k], d->n[k] * es);
            spec_reference(c, d->host[0], d->host[1], ref);
            size_t nbad = spec_check_n(c, d->host[0], d->host[1], d->host[k], got, ref, d->n[k], msg, sizeof msg);
            if (nbad) {
                bad = 1;
                size_t len = strlen(msg);
                snprintf(msg + len, sizeof msg - len, " (%zu bad elements)", nbad);
            }
            free(ref);
        } else if (memcmp(got, d->host[k], d->n[k] * es)) {
            snprintf(msg, sizeof msg, "input %c was modified", "ABC"[k]);
            bad = 1;
        }
        free(got);
    }
    if (bad) {
        spec_describe(c, desc, sizeof desc);
        print_error("FAIL %s (seed %llu): %s\n", desc, (unsigned long long)t->seed, msg);
    }
    for (int k = 0; k < 3; k++)
        if (t->m[k]) clReleaseMemObject(t->m[k]);
    data_free(d);
    return bad;
}

int check_case(const spec_case *c, uint64_t seed, int flags)
{
    test_call t;
    case_start(&t, c, seed, flags, env.q, 0, NULL, 1);
    int bad = 0;
    if (t.status == gpublas3Success && !t.ev) {
        print_error("a call returned no event\n");
        bad = 1;
    }
    bad |= case_finish(&t);
    clFinish(env.q);
    return bad;
}

int env_cpu(void)
{
    cl_device_type type = 0;
    clGetDeviceInfo(env.device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    return (type & CL_DEVICE_TYPE_CPU) != 0;
}

void restart_with(int n, const char *const vars[], const char *const values[])
{
    gpublas3Teardown();
    for (int i = 0; i < n; i++)
        if (values[i])
            setenv(vars[i], values[i], 1);
        else
            unsetenv(vars[i]);
    assert_int_equal(gpublas3Setup(), gpublas3Success);
}

stderr_capture capture_stderr(void)
{
    fflush(stderr);
    stderr_capture c = { tmpfile(), dup(2) };
    assert_non_null(c.log);
    assert_true(c.saved >= 0 && dup2(fileno(c.log), 2) >= 0);
    return c;
}

void release_stderr(stderr_capture *c, char *text, size_t n)
{
    fflush(stderr);
    dup2(c->saved, 2);
    close(c->saved);
    rewind(c->log);
    text[fread(text, 1, n - 1, c->log)] = 0;
    fclose(c->log);
    fputs(text, stderr);
}

int check_case_logged(const spec_case *c, uint64_t seed, int flags, char *text, size_t n)
{
    stderr_capture cap = capture_stderr();
    int bad = check_case(c, seed, flags);
    release_stderr(&cap, text, n);
    return bad;
}

spec_case triangular_case(spec_routine r, int n, size_t M, size_t N, double alpha)
{
    spec_case c = { .routine = r, .dbl = n % 2, .order = orders[n / 2 % 2], .side = sides[n / 4 % 2],
                    .uplo = uplos[n / 8 % 2], .diag = diags[n / 16 % 2], .transA = transposes[n / 32],
                    .M = M, .N = N, .alpha = alpha };
    return c;
}

int triangular_all_options(spec_routine r)
{
    static const double scalars[3] = { 1, -1, 2.5 };
    int fails = 0;
    for (int n = 0; n < TRIANGULAR_COMBINATIONS; n++) {
        spec_case c = triangular_case(r, n, 1, 1, scalars[n % 3]);
        fails += check_case(&c, n, 0);
        c = padded(triangular_case(r, n, 7, 33, 2.5), 3);
        c.offA = 4; c.offB = 1;
        fails += check_case(&c, n + 100, 0);
        c = triangular_case(r, n, 33, 7, scalars[(n + 1) % 3]);
        fails += check_case(&c, n + 200, 0);
        /* over two tiles of 16, 32 or 64 each way: whole tiles off the
         * diagonal take the copy kernel's fast path */
        c = padded(triangular_case(r, n, 130, 70, 2.5), 2);
        c.offA = 3; c.offB = 5;
        fails += check_case(&c, n + 300, 0);
    }
    return fails;
}

int triangular_nan_triangle(spec_routine r)
{
    int fails = 0;
    for (int n = 0; n < TRIANGULAR_COMBINATIONS; n++) {
        spec_case c = padded(triangular_case(r, n, 13, 9, -1), 1);
        c.offA = 2;
        fails += check_case(&c, n, FILL_NAN_TRIANGLE);
        c = triangular_case(r, n, 130, 70, -1); /* whole tiles in the NaN triangle */
        fails += check_case(&c, n + 100, FILL_NAN_TRIANGLE);
    }
    return fails;
}

int triangular_alpha_zero(spec_routine r)
{
    int fails = 0;
    for (int n = 0; n < TRIANGULAR_COMBINATIONS; n += 13) {
        spec_case c = triangular_case(r, n, 17, 11, 0);
        fails += check_case(&c, n, FILL_NAN_AB);
        c = triangular_case(r, n, 0, 11, 0);
        fails += check_case(&c, n + 100, FILL_NAN_AB);
    }
    return fails;
}

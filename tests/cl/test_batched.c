/* SPDX-License-Identifier: BSD-3-Clause */
/* Batched GEMM (gpublas3?gemmStridedBatched, gpublas3?gemmBatched) against
 * OpenBLAS product by product: every order x transA x transB in S, D, C, Z,
 * offsets and padded leading dimensions, stride 0 for A or B, M, N, K = 0,
 * batchCount 0 and 1, alpha = 0 with NaN in A and B, beta = 0 with NaN in
 * C, per-product scalars (some alpha 0) and offsets in any order; every
 * element of C outside the products (between them, in ld padding, the
 * tail) must come back bit-identical.  Then the refusals (status, nothing
 * enqueued, C untouched), gating on a user event, two queues, and a batch
 * chunked under a small GPUBLAS3_SCRATCH_LIMIT, and the batch's own plan
 * (routines/plan/batched.c): products that fill a set's tile packed on such
 * a set, smaller ones direct with 2 x 2 or more elements a work-item.
 * ctest runs it under the automatic plan and with GPUBLAS3_PLAN=packed and
 * direct. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "harness.h"

#define GAP 3 /* canaries between consecutive products of the strided form */

typedef struct {
    spec_case c;          /* product 0's shape, ld, order, scalars; offsets of product 0 */
    size_t count;
    int shared_a, shared_b; /* stride 0 */
    int arrays;           /* the offset-array form: products in reverse order, scalars varied */
    int nan_ab;           /* A and B all NaN (alpha 0) */
    int tight;            /* strided products one after another, no canaries between */
} bcase;

typedef struct {
    size_t n[3];          /* elements of A, B, C */
    size_t *offs[3];      /* each product's offsets */
    double *alpha, *alpha_im, *beta, *beta_im;
    size_t stride[3];
    size_t cap;           /* products the arrays hold */
} layout;

static size_t comps(const spec_case *c) { return c->cplx ? 2 : 1; }
static size_t esize(const spec_case *c) { return spec_elem_size(c); }

static double get(const spec_case *c, const void *p, size_t k)
{
    return c->dbl ? ((const double *)p)[k] : ((const float *)p)[k];
}
static void put(const spec_case *c, void *p, size_t k, double v)
{
    if (c->dbl) ((double *)p)[k] = v;
    else ((float *)p)[k] = (float)v;
}

/* the stored rows x cols of operand w, its lines and their length */
static size_t lines(const spec_case *c, char w)
{
    size_t r, k;
    spec_dims(c, w, &r, &k);
    return c->order == gpublas3RowMajor ? r : k;
}
static size_t ldof(const spec_case *c, char w) { return w == 'A' ? c->lda : w == 'B' ? c->ldb : c->ldc; }

static void make_layout(const bcase *b, layout *L)
{
    const spec_case *c = &b->c;
    size_t n = b->count ? b->count : 1;
    L->cap = n;
    const size_t base[3] = { c->offA, c->offB, c->offC };
    for (int i = 0; i < 3; i++) {
        char w = "ABC"[i];
        size_t nl = lines(c, w), ext = nl * ldof(c, w) + (b->tight ? 0 : GAP);
        int shared = (i == 0 && b->shared_a) || (i == 1 && b->shared_b);
        L->stride[i] = shared ? 0 : ext;
        L->offs[i] = malloc(n * sizeof(size_t));
        for (size_t p = 0; p < n; p++) {
            size_t slot = b->arrays && !shared ? n - 1 - p : p; /* any order */
            L->offs[i][p] = base[i] + slot * L->stride[i];
        }
        L->n[i] = base[i] + (n - 1) * L->stride[i] + ext + TEST_TAIL;
    }
    L->alpha = malloc(n * sizeof(double));
    L->alpha_im = malloc(n * sizeof(double));
    L->beta = malloc(n * sizeof(double));
    L->beta_im = malloc(n * sizeof(double));
    for (size_t p = 0; p < n; p++) {
        int vary = b->arrays;
        L->alpha[p] = vary && p % 3 == 1 ? 0 : c->alpha * (vary ? 1 + 0.5 * (p % 2) : 1);
        L->alpha_im[p] = c->alpha_im;
        L->beta[p] = c->beta * (vary ? 1 + 0.25 * (p % 3) : 1);
        L->beta_im[p] = vary && p % 2 ? 0 : c->beta_im;
    }
}

static void free_layout(layout *L)
{
    for (int i = 0; i < 3; i++) free(L->offs[i]);
    free(L->alpha); free(L->alpha_im); free(L->beta); free(L->beta_im);
}

/* product p as a single case */
static spec_case product(const bcase *b, const layout *L, size_t p)
{
    spec_case q = b->c;
    q.offA = L->offs[0][p];
    q.offB = L->offs[1][p];
    q.offC = L->offs[2][p];
    q.alpha = L->alpha[p];
    q.alpha_im = L->alpha_im[p];
    q.beta = L->beta[p];
    q.beta_im = L->beta_im[p];
    return q;
}

static gpublas3Status call(const bcase *b, const layout *L, cl_mem A, cl_mem B, cl_mem C, cl_uint nq,
                           cl_command_queue *qs, cl_uint nwait, const cl_event *wait, cl_event *ev)
{
    const spec_case *c = &b->c;
    size_t n = b->count;
    if (b->arrays) {
        /* (a refused count beyond the layout's: the arrays it has) */
        void *al = calloc(L->cap, 16), *be = calloc(L->cap, 16);
        for (size_t p = 0; p < n && p < L->cap; p++) {
            double a2[2] = { L->alpha[p], L->alpha_im[p] }, b2[2] = { L->beta[p], L->beta_im[p] };
            for (size_t k = 0; k < comps(c); k++) {
                put(c, al, p * comps(c) + k, a2[k]);
                put(c, be, p * comps(c) + k, b2[k]);
            }
        }
        gpublas3Status st;
#define ARR(T, type) gpublas3##T##gemmBatched(c->order, c->transA, c->transB, c->M, c->N, c->K, (const type *)al, \
        A, L->offs[0], c->lda, B, L->offs[1], c->ldb, (const type *)be, C, L->offs[2], c->ldc, n, nq, qs, nwait, wait, ev)
        if (c->cplx) st = c->dbl ? ARR(Z, cl_double2) : ARR(C, cl_float2);
        else st = c->dbl ? ARR(D, cl_double) : ARR(S, cl_float);
#undef ARR
        free(al);
        free(be);
        return st;
    }
#define STR(T, al, be) gpublas3##T##gemmStridedBatched(c->order, c->transA, c->transB, c->M, c->N, c->K, al, A, \
        c->offA, c->lda, L->stride[0], B, c->offB, c->ldb, L->stride[1], be, C, c->offC, c->ldc, L->stride[2], n, \
        nq, qs, nwait, wait, ev)
    if (c->cplx && c->dbl)
        return STR(Z, ((cl_double2){ { c->alpha, c->alpha_im } }), ((cl_double2){ { c->beta, c->beta_im } }));
    if (c->cplx)
        return STR(C, ((cl_float2){ { (float)c->alpha, (float)c->alpha_im } }),
                   ((cl_float2){ { (float)c->beta, (float)c->beta_im } }));
    if (c->dbl)
        return STR(D, c->alpha, c->beta);
    return STR(S, (float)c->alpha, (float)c->beta);
#undef STR
}

/* Host data of a case: A, B random (NaN with nan_ab), C canaries (1000 +
 * i % 97) except the products' elements: random, NaN where beta = 0. */
typedef struct {
    bcase b;
    layout L;
    void *host[3];
    unsigned char *mine; /* per element of C: inside a product */
    cl_mem m[3];
} bdata;

static double rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / (double)(1ULL << 53) * 2 - 1;
}

static void fill(bdata *d, const bcase *b, uint64_t seed)
{
    d->b = *b;
    spec_complete(&d->b.c);
    const spec_case *c = &d->b.c;
    make_layout(&d->b, &d->L);
    size_t cc = comps(c);
    for (int i = 0; i < 3; i++) {
        d->host[i] = malloc(d->L.n[i] * esize(c));
        for (size_t k = 0; k < d->L.n[i] * cc; k++)
            put(c, d->host[i], k, i < 2 ? (b->nan_ab ? NAN : rnd(&seed)) : 1000 + (double)(k % 97));
    }
    d->mine = calloc(d->L.n[2], 1);
    for (size_t p = 0; p < b->count; p++) {
        spec_case q = product(&d->b, &d->L, p);
        for (size_t j = 0; j < c->N; j++)
            for (size_t i = 0; i < c->M; i++) {
                size_t k = spec_index(&q, 'C', i, j);
                d->mine[k] = 1;
                for (size_t r = 0; r < cc; r++)
                    put(c, d->host[2], k * cc + r, q.beta == 0 && q.beta_im == 0 ? NAN : rnd(&seed));
            }
    }
    for (int i = 0; i < 3; i++) {
        cl_int err;
        d->m[i] = clCreateBuffer(env.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, d->L.n[i] * esize(c), d->host[i],
                                 &err);
        assert_int_equal(err, CL_SUCCESS);
    }
}

static void release(bdata *d)
{
    for (int i = 0; i < 3; i++) {
        clReleaseMemObject(d->m[i]);
        free(d->host[i]);
    }
    free(d->mine);
    free_layout(&d->L);
}

/* Judges C (read back) against OpenBLAS product by product. */
static int judge(bdata *d, const char *what)
{
    const spec_case *c = &d->b.c;
    size_t cc = comps(c), n = d->L.n[2];
    void *got = read_back(env.q, d->m[2], n * esize(c));
    void *ref = malloc(n * esize(c));
    memcpy(ref, d->host[2], n * esize(c));
    for (size_t p = 0; p < d->b.count; p++) {
        spec_case q = product(&d->b, &d->L, p);
        spec_reference(&q, d->host[0], d->host[1], ref);
    }
    double eps = c->dbl ? DBL_EPSILON : FLT_EPSILON, amax = 0, bmax = 0;
    for (size_t p = 0; p < d->b.count; p++) {
        amax = fmax(amax, fabs(d->L.alpha[p]) + fabs(d->L.alpha_im[p]));
        bmax = fmax(bmax, fabs(d->L.beta[p]) + fabs(d->L.beta_im[p]));
    }
    /* |error| <= gamma K eps (|alpha| |A||B| + |beta| |C|), elements in [-1, 1] (complex: 2 parts) */
    double tol = 4 * (double)(c->K + 2) * eps * (amax * (double)c->K * 2 * cc + bmax * 2 * cc + 1);
    int bad = 0;
    for (size_t k = 0; k < n * cc && !bad; k++) {
        double g = get(c, got, k), r = get(c, ref, k);
        if (d->mine[k / cc]) {
            if (!(fabs(g - r) <= tol)) {
                char desc[256];
                spec_describe(c, desc, sizeof desc);
                fprintf(stderr, "%s: %s batch %zu: C[%zu] = %g, OpenBLAS %g (tol %g)\n", what, desc, d->b.count, k,
                        g, r, tol);
                bad = 1;
            }
        } else if (memcmp((char *)got + k * (c->dbl ? 8 : 4), (char *)d->host[2] + k * (c->dbl ? 8 : 4),
                          c->dbl ? 8 : 4)) {
            fprintf(stderr, "%s: canary C[%zu] changed to %g\n", what, k, g);
            bad = 1;
        }
    }
    free(got);
    free(ref);
    return bad;
}

/* Runs case b on env.q (waiting on its event) and judges it. */
static int check(const bcase *b, uint64_t seed)
{
    bdata d;
    fill(&d, b, seed);
    cl_event ev = NULL;
    gpublas3Status st = call(&d.b, &d.L, d.m[0], d.m[1], d.m[2], 1, &env.q, 0, NULL, &ev);
    int bad = st != gpublas3Success;
    if (bad)
        fprintf(stderr, "status %d\n", st);
    else {
        assert_non_null(ev);
        assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
        clReleaseEvent(ev);
        bad = judge(&d, "batch");
    }
    release(&d);
    return bad;
}

static bcase mk(int type, gpublas3Order o, gpublas3Transpose ta, gpublas3Transpose tb, size_t M, size_t N, size_t K,
                double alpha, double beta, size_t count)
{
    bcase b = { .c = { .routine = SPEC_GEMM, .dbl = type & 1, .cplx = type >> 1, .order = o, .transA = ta,
                       .transB = tb, .M = M, .N = N, .K = K, .alpha = alpha, .beta = beta },
                .count = count };
    if (b.c.cplx) {
        b.c.alpha_im = alpha ? 0.5 : 0;
        b.c.beta_im = beta ? -0.25 : 0;
    }
    return b;
}

/* every type x order x op pair, padded ld and offsets, both forms */
static void all_options(void **state)
{
    (void)state;
    int fails = 0, n = 0;
    for (int type = 0; type < 4; type++)
        for (int o = 0; o < 2; o++)
            for (int ta = 0; ta < 3; ta++)
                for (int tb = 0; tb < 3; tb++, n++) {
                    bcase b = mk(type, orders[o], transposes[ta], transposes[tb], 7, 5, 9, 1.5, -0.5, 3);
                    b.c = padded(b.c, 2);
                    b.c.offA = 3; b.c.offB = 1; b.c.offC = 4;
                    fails += check(&b, n);
                    b = mk(type, orders[o], transposes[ta], transposes[tb], 33, 17, 20, -1, n % 2 ? 0 : 2, 4);
                    b.arrays = 1;
                    fails += check(&b, n + 100);
                }
    assert_int_equal(fails, 0);
}

/* sizes over several tiles (the packed path under the automatic plan) */
static void larger(void **state)
{
    (void)state;
    int fails = 0;
    for (int type = 0; type < 4; type++) {
        bcase b = mk(type, gpublas3ColumnMajor, gpublas3NoTrans, gpublas3Trans, 100, 70, 90, 1, 1, 3);
        fails += check(&b, type);
        b = mk(type, gpublas3RowMajor, gpublas3Trans, gpublas3NoTrans, 130, 64, 64, -1, 0, 2);
        b.arrays = 1;
        fails += check(&b, type + 10);
    }
    assert_int_equal(fails, 0);
}

/* stride 0: one A (or B) for every product */
static void shared_operand(void **state)
{
    (void)state;
    int fails = 0;
    for (int type = 0; type < 4; type++)
        for (int s = 0; s < 3; s++) {
            bcase b = mk(type, orders[s % 2], gpublas3NoTrans, transposes[s], 19, 11, 13, 2, 1, 5);
            b.shared_a = s != 1;
            b.shared_b = s != 0;
            fails += check(&b, 20 + s);
            b = mk(type, orders[s % 2], gpublas3Trans, gpublas3NoTrans, 70, 65, 66, 1, 0.5, 3);
            b.shared_a = s != 1;
            b.shared_b = s != 0;
            fails += check(&b, 30 + s);
        }
    assert_int_equal(fails, 0);
}

/* Whole tiles and strides of whole vectors: the packed path reads operands
 * in place (as for one call), A or B shared or not. */
static void in_place(void **state)
{
    (void)state;
    int fails = 0;
    for (int type = 0; type < 4; type++)
        for (int t = 0; t < 4; t++) {
            bcase b = mk(type, orders[t / 2], transposes[t % 2], gpublas3NoTrans, 128, 64, 64, 1, 0.5, 3);
            b.tight = 1;
            fails += check(&b, 90 + t);
            b.shared_a = t == 1;
            b.shared_b = t == 2;
            fails += check(&b, 95 + t);
        }
    assert_int_equal(fails, 0);
}

/* M, N, K = 0, batchCount 0 and 1, alpha = 0 with NaN in A and B, beta = 0 */
static void edges(void **state)
{
    (void)state;
    int fails = 0;
    for (int type = 0; type < 4; type++)
        for (int arrays = 0; arrays < 2; arrays++) {
            const size_t dims[][4] = { { 0, 5, 3, 3 }, { 5, 0, 3, 3 }, { 6, 5, 0, 3 }, { 6, 5, 4, 0 }, { 6, 5, 4, 1 },
                                       { 40, 33, 35, 1 } };
            for (int i = 0; i < 6; i++) {
                bcase b = mk(type, orders[i % 2], gpublas3NoTrans, gpublas3NoTrans, dims[i][0], dims[i][1],
                             dims[i][2], 2, 0.5, dims[i][3]);
                b.arrays = arrays;
                fails += check(&b, 40 + i);
            }
            for (int beta = 0; beta < 2; beta++) {
                bcase b = mk(type, gpublas3ColumnMajor, gpublas3Trans, gpublas3NoTrans, 9, 7, 5, 0, beta, 4);
                b.nan_ab = 1;
                b.arrays = arrays;
                fails += check(&b, 50 + beta);
                b = mk(type, gpublas3RowMajor, gpublas3NoTrans, gpublas3Trans, 9, 7, 5, 1.5, 0, 4);
                b.arrays = arrays;
                fails += check(&b, 60 + beta);
            }
        }
    assert_int_equal(fails, 0);
}

/* A refused call returns its status, enqueues nothing and leaves C as it was. */
static void expect_refusal(bdata *d, gpublas3Status want, const char *what)
{
    cl_event ev = NULL;
    gpublas3Status st = call(&d->b, &d->L, d->m[0], d->m[1], d->m[2], 1, &env.q, 0, NULL, &ev);
    if (st != want)
        fprintf(stderr, "%s: status %d, expected %d\n", what, st, want);
    assert_int_equal(st, want);
    assert_null(ev);
    assert_int_equal(clFinish(env.q), CL_SUCCESS);
    void *got = read_back(env.q, d->m[2], d->L.n[2] * esize(&d->b.c));
    assert_memory_equal(got, d->host[2], d->L.n[2] * esize(&d->b.c));
    free(got);
}

static void refusals(void **state)
{
    (void)state;
    for (int type = 0; type < 4; type++)
        for (int arrays = 0; arrays < 2; arrays++) {
            bcase b = mk(type, orders[type % 2], gpublas3NoTrans, gpublas3NoTrans, 6, 5, 4, 1, 1, 4);
            b.arrays = arrays;
            bdata d;
            fill(&d, &b, 7);
            /* overlapping outputs: C_1 inside C_0's extent */
            size_t keep = d.L.offs[2][1], keep_stride = d.L.stride[2];
            d.L.offs[2][1] = d.L.offs[2][arrays ? 0 : 1] + 1;
            d.L.stride[2] = (lines(&d.b.c, 'C') * d.b.c.ldc) - 1;
            expect_refusal(&d, gpublas3InvalidValue, "overlap");
            d.L.stride[2] = 0;
            if (!arrays) expect_refusal(&d, gpublas3InvalidValue, "strideC 0");
            d.L.offs[2][1] = keep;
            d.L.stride[2] = keep_stride;
            if (arrays) { /* the same offset twice, far apart in the array */
                size_t k3 = d.L.offs[2][3];
                d.L.offs[2][3] = d.L.offs[2][0];
                expect_refusal(&d, gpublas3InvalidValue, "duplicate");
                d.L.offs[2][3] = k3;
                size_t *o = d.L.offs[1];
                d.L.offs[1] = NULL;
                expect_refusal(&d, gpublas3InvalidValue, "NULL offsB");
                d.L.offs[1] = o;
            }
            /* buffers too small for the last product */
            for (int w = 0; w < 3; w++) {
                size_t *o = &d.L.offs[w][0], save = *o;
                size_t *st = &d.L.stride[w], ssave = *st;
                if (arrays) *o = d.L.n[w];
                else *st = d.L.n[w];
                expect_refusal(&d, gpublas3InsufficientMemMatA + w, "too small");
                *o = save;
                *st = ssave;
            }
            /* leading dimension, dimension */
            size_t lda = d.b.c.lda;
            d.b.c.lda = 0;
            expect_refusal(&d, gpublas3InvalidLeadDimA, "lda");
            d.b.c.lda = lda;
            size_t M = d.b.c.M;
            d.b.c.M = (size_t)-3;
            expect_refusal(&d, gpublas3InvalidDim, "M < 0");
            d.b.c.M = M;
            size_t cnt = d.b.count;
            d.b.count = (size_t)-1;
            expect_refusal(&d, gpublas3InvalidDim, "batchCount < 0");
            d.b.count = cnt;
            release(&d);
        }
    /* NULL scalar arrays */
    bcase b = mk(0, gpublas3ColumnMajor, gpublas3NoTrans, gpublas3NoTrans, 4, 4, 4, 1, 1, 2);
    bdata d;
    fill(&d, &b, 9);
    cl_event ev = NULL;
    assert_int_equal(gpublas3SgemmBatched(gpublas3ColumnMajor, gpublas3NoTrans, gpublas3NoTrans, 4, 4, 4, NULL, d.m[0],
                                          d.L.offs[0], 4, d.m[1], d.L.offs[1], 4, NULL, d.m[2], d.L.offs[2], 4, 2, 1,
                                          &env.q, 0, NULL, &ev),
                     gpublas3InvalidValue);
    assert_null(ev);
    release(&d);
}

/* The call's event waits for a user event in the wait list; the host is not blocked. */
static void gated(void **state)
{
    (void)state;
    for (int arrays = 0; arrays < 2; arrays++) {
        bcase b = mk(arrays, gpublas3ColumnMajor, gpublas3NoTrans, gpublas3NoTrans, 40, 30, 20, 1, 1, 6);
        b.arrays = arrays;
        bdata d;
        fill(&d, &b, 11);
        cl_int err;
        cl_event gate = clCreateUserEvent(env.ctx, &err), ev = NULL;
        assert_int_equal(err, CL_SUCCESS);
        assert_int_equal(call(&d.b, &d.L, d.m[0], d.m[1], d.m[2], 1, &env.q, 1, &gate, &ev), gpublas3Success);
        assert_non_null(ev);
        usleep(100000);
        cl_int status;
        assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL),
                         CL_SUCCESS);
        assert_true(status != CL_COMPLETE);
        clSetUserEventStatus(gate, CL_COMPLETE);
        assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
        clReleaseEvent(ev);
        clReleaseEvent(gate);
        assert_int_equal(judge(&d, "gated"), 0);
        release(&d);
    }
}

/* Two queues share out the products, one event each. */
static void two_queues(void **state)
{
    (void)state;
    for (int type = 0; type < 4; type++)
        for (size_t count = 1; count <= 7; count += 6) {
            bcase b = mk(type, orders[type % 2], gpublas3Trans, gpublas3NoTrans, 21, 17, 9, 1, 0.5, count);
            b.arrays = type % 2;
            bdata d;
            fill(&d, &b, 13);
            cl_command_queue qs[2] = { env.q, env.q2 };
            cl_event ev[2] = { NULL, NULL };
            assert_int_equal(call(&d.b, &d.L, d.m[0], d.m[1], d.m[2], 2, qs, 0, NULL, ev), gpublas3Success);
            assert_non_null(ev[0]);
            assert_non_null(ev[1]);
            assert_int_equal(clWaitForEvents(2, ev), CL_SUCCESS);
            clReleaseEvent(ev[0]);
            clReleaseEvent(ev[1]);
            assert_int_equal(judge(&d, "two queues"), 0);
            release(&d);
        }
}

/* A batch whose packed scratch exceeds GPUBLAS3_SCRATCH_LIMIT runs in chunks. */
static void chunked(void **state)
{
    (void)state;
    static const char *const vars[] = { "GPUBLAS3_SCRATCH_LIMIT", "GPUBLAS3_PLAN", "GPUBLAS3_VERBOSE" };
    static const char *const on[] = { "200000", "packed", "1" };
    const char *plan = getenv("GPUBLAS3_PLAN");
    const char *off[] = { NULL, plan, NULL };
    restart_with(3, vars, on);
    int fails = 0;
    for (int type = 0; type < 4; type++)
        for (int arrays = 0; arrays < 2; arrays++) {
            bcase b = mk(type, gpublas3ColumnMajor, gpublas3NoTrans, gpublas3Trans, 64, 64, 64, 1, 1, 9);
            b.arrays = arrays;
            b.shared_b = !arrays && type == 1;
            fails += check(&b, 70 + type);
            /* one product alone over the limit: single calls with panels */
            b = mk(type, gpublas3RowMajor, gpublas3Trans, gpublas3Trans, 130, 150, 170, 1, 0.5, 2);
            b.arrays = arrays;
            fails += check(&b, 80 + type);
        }
    restart_with(3, vars, off);
    assert_int_equal(fails, 0);
}

/* check() with stderr (the GPUBLAS3_VERBOSE lines) captured into text. */
static int check_logged(const bcase *b, uint64_t seed, char *text, size_t n)
{
    stderr_capture cap = capture_stderr();
    int bad = check(b, seed);
    release_stderr(&cap, text, n);
    return bad;
}

/* Whether a batch's plan line says direct on work-groups of want[0] x
 * want[1] work-items of want[2] x want[3] elements each; got: the numbers
 * it says (0 where it says none). */
static int direct_on(const char *line, const int want[4], int got[4])
{
    const char *wi = line ? strstr(line, "work-group ") : NULL;
    got[0] = got[1] = got[2] = got[3] = 0;
    return wi && strstr(line, ": direct,") &&
           sscanf(wi, "work-group %dx%d, %dx%d", &got[0], &got[1], &got[2], &got[3]) == 4 &&
           memcmp(got, want, 4 * sizeof *got) == 0;
}

/* The automatic plan of a batch: tiny products direct, complex ones too
 * (the direct kernel's complex mode, the line in complex dimensions), real
 * ones of 4 x 4 on 4 x 8 work-items of 2 x 2 (those of 16 x 16 take 4 x 2
 * each, halved along M for a product under half the tile's rows),
 * complex ones on 8 x 4 of 2 x 4, each work-group several products in turn
 * (ctest sets direct_nb); products of 130 x 150 (larger than any set's
 * tile) packed on a set whose tile they fill, not the batch set (ctest
 * sets its batch_max 64), complex ones too (M counted real, 2M) where
 * they are deeper than direct_max^3 real multiply-adds (ctest sets 256:
 * K = 240), else direct on the complex mode; real products of 64 x 64 on
 * the batch set and of 16 x 16 on the tiny set (ctest: its batch_max 16,
 * 16 x 16 tiles), and neither with their batch_max 0. */
static void batch_plan(void **state)
{
    (void)state;
    static const char *const vars[] = { "GPUBLAS3_PLAN", "GPUBLAS3_SHAPE" };
    static const char *const on[] = { NULL, NULL };
    const char *off[] = { getenv("GPUBLAS3_PLAN"), getenv("GPUBLAS3_SHAPE") };
    restart_with(2, vars, on);
    int fails = 0;
    char text[8192], vendor[256] = "";
    /* real batches of K <= 256 read C prefetched on NVIDIA (the H100's
     * rows: S's sets have their own prefetch, D's gets the batch's),
     * deeper ones not (the S set's own dropped), and nowhere else (inline
     * PTX) */
    clGetDeviceInfo(env.device, CL_DEVICE_VENDOR, sizeof vendor - 1, vendor, NULL);
    const int nvidia = strstr(vendor, "NVIDIA") != NULL;
    for (int type = 0; type < 4; type++) {
        for (int big = 0; big < 2; big++) {
            size_t M = big ? 130 : 4, N = big ? 150 : 4;
            bcase b = mk(type, gpublas3ColumnMajor, gpublas3NoTrans, gpublas3Trans, M, N,
                         big ? (type >> 1 ? 240 : 40) : 4, 1, 0.5, 3);
            fails += check_logged(&b, 90 + type, text, sizeof text);
            const char *line = strstr(text, "plan: batch of 3");
            int mwg = 0, nwg = 0;
            const char *set = line ? strstr(line, "mwg=") : NULL;
            if (big && !(set && sscanf(set, "mwg=%d nwg=%d", &mwg, &nwg) == 2 && strstr(line, ": packed,") &&
                         mwg > 0 && (size_t)mwg <= (type >> 1 ? 2 : 1) * M && nwg > 0 && (size_t)nwg <= N)) {
                print_message("type %d, %zu x %zu: not packed on a set it fills (mwg %d, nwg %d)\n", type, M, N, mwg,
                              nwg);
                fails++;
            }
            if (big && type < 2 && line && strstr(line, "batch set")) {
                print_message("type %d, %zu x %zu: on the batch set\n", type, M, N);
                fails++;
            }
            if (big && type < 2 && line && !strstr(line, ", C prefetched") != !nvidia) {
                print_message("type %d, %zu x %zu x 40: C %sprefetched on %s\n", type, M, N, nvidia ? "not " : "",
                              vendor);
                fails++;
            }
            const char *turn = line ? strstr(line, "one launch, ") : NULL;
            char like[32];
            snprintf(like, sizeof like, "%cgemm-like M=4 N=4 K=4", "sdcz"[type]);
            size_t per = 0;
            const int cplx = type >> 1, want[4] = { cplx ? 8 : 4, cplx ? 4 : 8, 2, cplx ? 4 : 2 };
            int got[4];
            if (!big && !(direct_on(line, want, got) && strstr(line, like) && turn &&
                          sscanf(turn, "one launch, %zu a work-group", &per) == 1 && per == 3)) {
                print_message("type %d, 4 x 4: not direct (%s) on %d x %d work-items of 2 x %d (%d x %d, %d x %d), "
                              "the 3 products in one work-group (%zu)\n", type, like, want[0], want[1], want[3],
                              got[0], got[1], got[2], got[3], per);
                fails++;
            }
            if (big && type < 2) {
                bcase deep = mk(type, gpublas3ColumnMajor, gpublas3NoTrans, gpublas3Trans, M, N, 300, 1, 0.5, 3);
                fails += check_logged(&deep, 94 + type, text, sizeof text);
                const char *dline = strstr(text, "plan: batch of 3");
                if (!dline || strstr(dline, ", C prefetched")) {
                    print_message("type %d, %zu x %zu x 300: C prefetched, or no plan line\n", type, M, N);
                    fails++;
                }
            }
        }
    }
    /* real products of 32 x 32 on a set of one element a work-item (the
     * GPU's; ctest forces one): 8 x 8 work-items of 4 x 4 */
    for (int type = 0; type < 2; type++) {
        bcase b = mk(type, gpublas3ColumnMajor, gpublas3NoTrans, gpublas3NoTrans, 32, 40, 24, 1, 0.5, 3);
        fails += check_logged(&b, 96 + type, text, sizeof text);
        static const int want[4] = { 8, 8, 4, 4 };
        int got[4];
        if (!direct_on(strstr(text, "plan: batch of 3"), want, got)) {
            print_message("type %d, 32 x 40: not direct on 8 x 8 work-items of 4 x 4 (%d x %d, %d x %d)\n", type,
                          got[0], got[1], got[2], got[3]);
            fails++;
        }
    }
    /* real products of 64 x 64 (every set 64 rows tall here) on the batch
     * set and of 16 x 16 on the tiny set, and with their batch_max 0 (no
     * batch classes) on others */
    char orig[1024], params[3072];
    snprintf(orig, sizeof orig, "%s", getenv("GPUBLAS3_PARAMS") ? getenv("GPUBLAS3_PARAMS") : "");
    snprintf(params, sizeof params, "%s batch:batch_max=0 tiny:batch_max=0", orig);
    static const char *const pvar[] = { "GPUBLAS3_PARAMS" };
    const char *pnone[] = { params }, *pback[] = { orig };
    for (int none = 0; none < 2; none++) {
        if (none)
            restart_with(1, pvar, pnone);
        for (int type = 0; type < 4; type++) {
            const size_t n = type < 2 ? 64 : 16;
            const char *set = type < 2 ? "batch set" : "tiny set";
            bcase b = mk(type % 2, gpublas3ColumnMajor, gpublas3NoTrans, gpublas3Trans, n, n, 48, 1, 0.5, 3);
            fails += check_logged(&b, 102 + 4 * none + type, text, sizeof text);
            const char *line = strstr(text, "plan: batch of 3");
            const int on_set = line && strstr(line, set);
            if (!line || (!none && !strstr(line, ": packed,")) || on_set == none) {
                print_message("type %d, %zu x %zu, batch_max %s: not packed, or %son the %s\n", type % 2, n, n,
                              none ? "0" : "set", none ? "" : "not ", set);
                fails++;
            }
        }
    }
    restart_with(1, pvar, pback);
    /* complex products of 130 x 150 x 40: 4 x 130 x 150 x 40 real
     * multiply-adds, under direct_max^3, on the complex mode */
    for (int type = 2; type < 4; type++) {
        bcase b = mk(type, gpublas3ColumnMajor, gpublas3NoTrans, gpublas3ConjTrans, 130, 150, 40, 1, 0.5, 3);
        fails += check_logged(&b, 98 + type, text, sizeof text);
        const char *line = strstr(text, "plan: batch of 3");
        char like[32];
        snprintf(like, sizeof like, "%cgemm-like M=130 N=150 K=40", "sdcz"[type]);
        if (!(line && strstr(line, ": direct,") && strstr(line, like))) {
            print_message("type %d, 130 x 150 x 40: not direct on the complex mode (%s)\n", type, like);
            fails++;
        }
    }
    /* complex products of more than an eighth of direct_max^3 real
     * multiply-adds (128 x 128 x 64: 256 x 128 x 128 real; direct_max 256
     * here, as the H100's) run packed, their A read in place as its 2x2
     * form, where the plan's set stages A (GPU-like sets) and the stride is
     * whole vectors; Z's of 64 x 64 x 64 (an eighth), those on the same
     * sets with A unstaged (as the CPU rows), and C's with canaries between
     * products (a stride of an odd number of reals; Z's vectors of 2 take
     * it), direct; C's of 32 x 32 x 32, whose real view (64 x 32) fits the
     * batch set (32 x 32 tiles, batch_max 64, as the H100's), packed on it
     * with A so where it stages A, and C's of 64 x 64 x 64 (real 128 x 64)
     * so on its tile doubled along M (mwg 64), where Z's (the D row's
     * batch_max 63, under the doubled tile) stay direct, as do C's of 32 x
     * 48 x 32, whose 48 real columns leave the second tile part empty */
    static const char *const cl[] = { "small", "medium", "large" };
    for (int staged = 0; staged < 2; staged++) {
        int n = snprintf(params, sizeof params, "%s", orig);
        for (int i = 0; i < 6; i++)
            n += snprintf(params + n, sizeof params - n, " %s:%s:sa=%d,sb=1,mwg=64,nwg=64,mdimc=8,ndimc=8,kwg=16,"
                          "kwi=8,db=1,wtm=0,mma=0,async=0,cpref=0,direct_max=256,%s", i < 3 ? "s" : "d", cl[i % 3],
                          staged, i < 3 ? "vwm=4,vwn=4,pad=0" : "vwm=2,vwn=2,pad=4");
        for (int i = 0; i < 2; i++)
            n += snprintf(params + n, sizeof params - n, " %s:batch:sa=%d,sb=1,mwg=32,nwg=32,mdimc=8,ndimc=8,kwg=16,"
                          "kwi=4,db=0,wtm=0,mma=0,async=0,cpref=0,%s", i ? "d" : "s", staged,
                          i ? "vwm=2,vwn=2,pad=4,batch_max=63" : "vwm=4,vwn=4,pad=0,batch_max=64");
        restart_with(1, pvar, pnone);
        for (int type = 2; type < 4; type++)
            for (int big = 0; big < 5; big++) {
                const size_t m = big >= 3 ? 32 : big ? 128 : 64, k = big >= 3 ? 32 : 64, nn = big == 4 ? 48 : m;
                bcase b = mk(type, gpublas3ColumnMajor, gpublas3NoTrans, gpublas3NoTrans, m, nn, k, 1, 0.5, 3);
                b.tight = big != 2;
                fails += check_logged(&b, 110 + 10 * staged + 5 * type + big, text, sizeof text);
                const char *line = strstr(text, "plan: batch of 3");
                const int on_batch = staged && type == 2 && (big == 3 || big == 0),
                          packed = on_batch || (staged && (big == 1 || (big == 2 && type == 3)));
                const char *set = line ? strstr(line, "mwg=") : NULL;
                int mwg = 0;
                if (!line || !strstr(line, packed ? ": packed," : ": direct,") ||
                    !strstr(line, "A(c)") != !packed || !strstr(line, "batch set") != !on_batch ||
                    (on_batch && !(set && sscanf(set, "mwg=%d", &mwg) == 1 && mwg == (big ? 32 : 64)))) {
                    print_message("type %d, %zu x %zu x %zu%s, A %sstaged: not %s%s (mwg %d)\n", type, m, nn, k,
                                  b.tight ? "" : " with canaries", staged ? "" : "un",
                                  packed ? "packed with A(c)" : "direct", on_batch ? " on the batch set" : "", mwg);
                    fails++;
                }
            }
    }
    restart_with(1, pvar, pback);
    restart_with(2, vars, off);
    assert_int_equal(fails, 0);
}

/* argv[1] "plan": batch_plan alone, under GPUBLAS3_VERBOSE=1 (read once
 * per process, so ctest sets it: cl_batched_plan) */
int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(all_options),
        cmocka_unit_test(larger),
        cmocka_unit_test(shared_operand),
        cmocka_unit_test(in_place),
        cmocka_unit_test(edges),
        cmocka_unit_test(refusals),
        cmocka_unit_test(gated),
        cmocka_unit_test(two_queues),
        cmocka_unit_test(chunked),
    };
    const struct CMUnitTest plan[] = { cmocka_unit_test(batch_plan) };
    if (argc > 1 && strcmp(argv[1], "plan") == 0)
        return cmocka_run_group_tests_name("batched plan", plan, env_open, env_close);
    return cmocka_run_group_tests_name("batched", tests, env_open, env_close);
}

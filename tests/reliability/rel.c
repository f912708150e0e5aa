/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared pieces of the reliability tests (rel.h).  Canaries are finite
 * values far from the data in [-1, 1], so a kernel reading padding gives a
 * visibly wrong answer and one writing it is caught bit for bit. */
#include "rel.h"

#include <execinfo.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int rel_failures;

static void die(const char *what, cl_int err)
{
    fprintf(stderr, "%s failed: %d\n", what, err);
    exit(2);
}

/* A crash says where it happened (the frames of the crashing thread, with
 * libraries' offsets for addr2line), then dies of its signal as before. */
static void crashed(int sig)
{
    static const char head[] = "rel: crashed here:\n";
    void *frames[48];
    int n = backtrace(frames, 48);
    write(2, head, sizeof head - 1);
    backtrace_symbols_fd(frames, n, 2);
    signal(sig, SIG_DFL);
    raise(sig);
}

void rel_open(rel_dev *d)
{
    static const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
        signal(fatal[i], crashed);
    cl_platform_id plats[16];
    cl_uint np = 0;
    memset(d, 0, sizeof *d);
    if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS || !np) die("clGetPlatformIDs", -1);
    if (np > 16) np = 16;
    for (int pass = 0; pass < 2 && !d->dev; pass++)
        for (cl_uint p = 0; p < np && !d->dev; p++)
            if (clGetDeviceIDs(plats[p], pass ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU, 1, &d->dev, NULL) ==
                CL_SUCCESS)
                d->platform = plats[p];
    if (!d->dev) die("finding an OpenCL device", -1);
    cl_int err;
    d->ctx = clCreateContext(NULL, 1, &d->dev, NULL, NULL, &err);
    if (err) die("clCreateContext", err);
    d->q = rel_queue(d, 0);
}

cl_command_queue rel_queue(const rel_dev *d, cl_command_queue_properties props)
{
    cl_int err;
    cl_command_queue q = clCreateCommandQueue(d->ctx, d->dev, props, &err);
    if (err) die("clCreateCommandQueue", err);
    return q;
}

void rel_close(rel_dev *d)
{
    clReleaseCommandQueue(d->q);
    clReleaseContext(d->ctx);
}

uint64_t rel_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

size_t rel_below(uint64_t *s, size_t n) { return n ? (size_t)(rel_rand(s) % n) : 0; }

/* Element k; both parts of a complex one. */
static void put(const spec_case *c, void *p, size_t k, double v)
{
    size_t n = c->cplx ? 2 : 1;
    for (size_t t = 0; t < n; t++) {
        if (c->dbl) ((double *)p)[k * n + t] = t ? v / 2 : v;
        else ((float *)p)[k * n + t] = (float)(t ? v / 2 : v);
    }
}

int rel_out(const rel_case *r) { return spec_output(&r->c) == 'B' ? 1 : 2; }

void rel_fill(rel_case *r, const spec_case *c0, uint64_t seed, size_t tail)
{
    memset(r, 0, sizeof *r);
    r->c = *c0;
    spec_complete(&r->c);
    const spec_case *c = &r->c;
    uint64_t s = seed * 2654435761u + 1;
    size_t es = spec_elem_size(c);
    for (int k = 0; k < 3; k++) {
        char w = "ABC"[k];
        if (!spec_uses(c, w)) continue;
        r->n[k] = spec_elements(c, w) + tail;
        if (!r->n[k]) r->n[k] = 1;
        r->host[k] = malloc(r->n[k] * es);
        for (size_t x = 0; x < r->n[k]; x++) put(c, r->host[k], x, 1000 + 100 * k + (double)(x % 13));
        size_t rows, cols;
        spec_dims(c, w, &rows, &cols);
        int out = k == rel_out(r);
        for (size_t j = 0; j < cols; j++)
            for (size_t i = 0; i < rows; i++)
                if (spec_referenced(c, w, i, j)) {
                    double v = (double)(rel_rand(&s) >> 11) / 9007199254740992.0 * 2 - 1;
                    /* beta = 0: C is never read, and NaN there must not survive */
                    if (out && spec_output(c) != 'B' && c->beta == 0 && c->beta_im == 0) v = NAN;
                    put(c, r->host[k], spec_index(c, w, i, j), v);
                }
        if (w == 'A') spec_condition(c, r->host[k]);
    }
}

void rel_upload(rel_case *r, cl_context ctx, cl_command_queue q)
{
    size_t es = spec_elem_size(&r->c);
    for (int k = 0; k < 3; k++) {
        if (!r->host[k]) continue;
        cl_int err;
        r->buf[k] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, r->n[k] * es, NULL, &err);
        if (err) die("clCreateBuffer", err);
        err = clEnqueueWriteBuffer(q, r->buf[k], CL_TRUE, 0, r->n[k] * es, r->host[k], 0, NULL, NULL);
        if (err) die("clEnqueueWriteBuffer", err);
    }
}

void rel_free(rel_case *r)
{
    for (int k = 0; k < 3; k++) {
        if (r->buf[k]) clReleaseMemObject(r->buf[k]);
        free(r->host[k]);
        r->buf[k] = NULL;
        r->host[k] = NULL;
    }
}

void *rel_read(const rel_case *r, cl_command_queue q, int k)
{
    size_t bytes = r->n[k] * spec_elem_size(&r->c);
    void *p = malloc(bytes);
    cl_int err = clEnqueueReadBuffer(q, r->buf[k], CL_TRUE, 0, bytes, p, 0, NULL, NULL);
    if (err) die("clEnqueueReadBuffer", err);
    return p;
}

int rel_unchanged(const rel_case *r, cl_command_queue q)
{
    int same = 1;
    for (int k = 0; k < 3; k++) {
        if (!r->buf[k]) continue;
        void *p = rel_read(r, q, k);
        same &= memcmp(p, r->host[k], r->n[k] * spec_elem_size(&r->c)) == 0;
        free(p);
    }
    return same;
}

int rel_judge(const rel_case *r, cl_command_queue q, const char *what)
{
    const spec_case *c = &r->c;
    int o = rel_out(r), bad = 0;
    size_t es = spec_elem_size(c);
    char msg[512], desc[256];
    for (int k = 0; k < 3; k++)
        if (r->buf[k] && k != o) {
            void *p = rel_read(r, q, k);
            if (memcmp(p, r->host[k], r->n[k] * es)) {
                spec_describe(c, desc, sizeof desc);
                fprintf(stderr, "%s: %s: input %c was written\n", what, desc, "ABC"[k]);
                bad = 1;
            }
            free(p);
        }
    void *got = rel_read(r, q, o);
    void *ref = malloc(r->n[o] * es);
    memcpy(ref, r->host[o], r->n[o] * es);
    spec_reference(c, r->host[0], r->host[1], ref);
    size_t nbad = spec_check_n(c, r->host[0], r->host[1], r->host[o], got, ref, r->n[o], msg, sizeof msg);
    if (nbad) {
        spec_describe(c, desc, sizeof desc);
        fprintf(stderr, "%s: %s: %zu bad elements; first: %s\n", what, desc, nbad, msg);
        bad = 1;
    }
    free(got);
    free(ref);
    return bad;
}

int rel_run(const rel_case *r, cl_command_queue q, const char *what)
{
    cl_event ev = NULL;
    char desc[256];
    gpublas3Status st = spec_run(&r->c, q, r->buf[0], r->buf[1], r->buf[2], 0, NULL, &ev);
    if (st != gpublas3Success) {
        spec_describe(&r->c, desc, sizeof desc);
        fprintf(stderr, "%s: %s: status %d (%s)\n", what, desc, st, gpublas3StatusString(st));
        return 1;
    }
    cl_int err = clWaitForEvents(1, &ev);
    clReleaseEvent(ev);
    if (err) {
        spec_describe(&r->c, desc, sizeof desc);
        fprintf(stderr, "%s: %s: waiting for the event: %d\n", what, desc, err);
        return 1;
    }
    return rel_judge(r, q, what);
}

void rel_random_options(spec_case *c, uint64_t *s)
{
    static const gpublas3Transpose tr[3] = { gpublas3NoTrans, gpublas3Trans, gpublas3ConjTrans };
    c->order = rel_below(s, 2) ? gpublas3RowMajor : gpublas3ColumnMajor;
    c->side = rel_below(s, 2) ? gpublas3Right : gpublas3Left;
    c->uplo = rel_below(s, 2) ? gpublas3Lower : gpublas3Upper;
    c->transA = tr[rel_below(s, 3)];
    c->transB = tr[rel_below(s, 3)];
    c->diag = rel_below(s, 2) ? gpublas3Unit : gpublas3NonUnit;
}

static struct timespec stage_t0;
static volatile long stage_no;   /* bumped by each stage; the watchdog reads it */
static pthread_t stage_thread;

static double since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (t.tv_nsec - t0->tv_nsec) / 1e9;
}

void rel_stage(const char *test, const char *what)
{
    static struct timespec first;
    if (!first.tv_sec) clock_gettime(CLOCK_MONOTONIC, &first);
    printf("%s: %6.1f s: %s\n", test, since(&first), what);
    clock_gettime(CLOCK_MONOTONIC, &stage_t0);
    stage_thread = pthread_self();
    __atomic_add_fetch(&stage_no, 1, __ATOMIC_SEQ_CST);
}

static void print_backtrace(int sig)
{
    (void)sig;
    void *frames[48];
    int n = backtrace(frames, 48);
    static const char head[] = "rel: the stage is stuck here:\n";
    write(2, head, sizeof head - 1);
    backtrace_symbols_fd(frames, n, 2);
}

static void *watch(void *arg)
{
    int seconds = (int)(intptr_t)arg;
    long told = 0;
    for (;;) {
        sleep(1);
        long now = __atomic_load_n(&stage_no, __ATOMIC_SEQ_CST);
        if (now && now != told && since(&stage_t0) > seconds) {
            told = now;
            pthread_kill(stage_thread, SIGUSR1);
        }
    }
    return NULL;
}

void rel_watchdog(int seconds)
{
    signal(SIGUSR1, print_backtrace);
    pthread_t t;
    if (pthread_create(&t, NULL, watch, (void *)(intptr_t)seconds) == 0)
        pthread_detach(t);
}

int rel_finish(const char *name)
{
    if (rel_failures)
        fprintf(stderr, "%s: %d check(s) failed\n", name, rel_failures);
    else
        printf("%s: all checks passed\n", name);
    return rel_failures ? 1 : 0;
}

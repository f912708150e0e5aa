/* SPDX-License-Identifier: BSD-3-Clause */
/* The drop-ins' host copies (routines/dropin/host_copy.c), built into this
 * test from source: the streaming copy against memcpy for every size up to
 * a few lines past its switch to streaming stores and beyond, at every
 * alignment of source and destination within a line, with canaries on
 * both sides of the destination; the write-back usr = img + beta usr in
 * all four types against a plain loop, with odd lengths and offsets; both
 * again with their sources prefetched (at several distances, the library's
 * G3H_PREFETCH_AHEAD among them, and none), on sizes just past the
 * drop-ins' 1 MiB threshold (G3H_STREAM_MIN), checked byte for byte. */
#include <complex.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "host_copy.h"

enum { PAD = 128, CANARY = 0xA5 };

static unsigned char *lines(size_t n)
{
    void *p = NULL;
    assert_int_equal(posix_memalign(&p, 64, n), 0);
    return p;
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)((i * 2654435761u + seed) >> 7);
}

/* One copy of len bytes from src + so to dst + doff, checked byte for byte
 * and for writes outside [doff, doff + len). */
static void check_copy(unsigned char *src, unsigned char *dst, size_t len, size_t so, size_t doff, size_t ahead)
{
    memset(dst, CANARY, doff + len + PAD);
    g3h_stream_copy(dst + doff, src + so, len, ahead);
    if (memcmp(dst + doff, src + so, len) != 0)
        fail_msg("copy of %zu bytes, source offset %zu, destination offset %zu, prefetch %zu ahead: wrong bytes",
                 len, so, doff, ahead);
    for (size_t i = 0; i < doff; i++)
        if (dst[i] != CANARY)
            fail_msg("copy of %zu bytes at offset %zu wrote before its destination", len, doff);
    for (size_t i = doff + len; i < doff + len + PAD; i++)
        if (dst[i] != CANARY)
            fail_msg("copy of %zu bytes at offset %zu wrote past its destination", len, doff);
}

static void stream_copy_small(void **state)
{
    (void)state;
    size_t max = 1200;
    unsigned char *src = lines(max + 2 * PAD), *dst = lines(max + 2 * PAD);
    fill(src, max + 2 * PAD, 1);
    for (size_t len = 0; len <= max; len++)
        for (size_t so = 0; so < 16; so += 5)
            for (size_t doff = 0; doff < 64; doff += len < 400 ? 7 : 1)
                check_copy(src, dst, len, so, doff, len & 1 ? 64 : 0);
    free(src);
    free(dst);
}

static void stream_copy_large(void **state)
{
    (void)state;
    const size_t lens[] = { 4095, 4096, 4097, 65536 + 13, (size_t)1 << 20, ((size_t)3 << 20) + 71 };
    size_t max = ((size_t)3 << 20) + 71;
    unsigned char *src = lines(max + 2 * PAD), *dst = lines(max + 2 * PAD);
    fill(src, max + 2 * PAD, 7);
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++)
        for (size_t so = 0; so < 64; so += 13)
            for (size_t doff = 0; doff < 64; doff += 9)
                check_copy(src, dst, lens[i], so, doff, 0);
    free(src);
    free(dst);
}

/* usr = img + beta usr against a plain loop, within one rounding per
 * operation (a compiler may fuse the multiply and add in one of them). */
static void add_scaled(void **state)
{
    (void)state;
    enum { N = 1003 };
    double beta = -0.75, beta_im = 0.5;
    for (int type = 0; type < 4; type++) {
        int dbl = type & 1, cplx = type >> 1;
        size_t es = (size_t)(dbl ? 8 : 4) * (cplx ? 2 : 1), reals = (size_t)N * (cplx ? 2 : 1);
        for (size_t off = 0; off < 3; off++) {
            size_t count = N - off - 1, len = count * es;  /* the last element stays */
            double *u = calloc((size_t)2 * N + 8, sizeof(double)), *m = calloc((size_t)2 * N + 8, sizeof(double));
            double *want = calloc((size_t)2 * N + 8, sizeof(double));
            float *uf = (float *)u, *mf = (float *)m;
            for (size_t i = 0; i < reals; i++) {
                double x = sin(0.37 * (double)i), y = cos(0.11 * (double)i);
                if (dbl) u[i] = x, m[i] = y;
                else uf[i] = (float)x, mf[i] = (float)y;
            }
            /* the expected result, element by element, offset by off elements */
            for (size_t i = 0; i < count; i++) {
                size_t r = (i + off) * (cplx ? 2 : 1);
                double ur = dbl ? u[r] : uf[r], mr = dbl ? m[r] : mf[r];
                if (!cplx) {
                    want[i] = mr + beta * ur;
                } else {
                    double ui = dbl ? u[r + 1] : uf[r + 1], mi = dbl ? m[r + 1] : mf[r + 1];
                    want[2 * i] = mr + beta * ur - beta_im * ui;
                    want[2 * i + 1] = mi + beta * ui + beta_im * ur;
                }
            }
            char *ub = (char *)u + off * es, *mb = (char *)m + off * es;
            g3h_add_scaled(ub, mb, len, dbl, cplx, beta, cplx ? beta_im : 0, 0);
            double eps = dbl ? 2.3e-16 : 1.2e-7;
            for (size_t i = 0; i < count * (cplx ? 2 : 1); i++) {
                double got = dbl ? ((double *)ub)[i] : ((float *)ub)[i];
                if (fabs(got - want[i]) > 4 * eps * 3)
                    fail_msg("type %d offset %zu: element %zu is %.17g, want %.17g", type, off, i, got, want[i]);
            }
            /* nothing before the range, nor past it, changed */
            for (size_t i = 0; i < reals; i++) {
                if (i == off * (cplx ? 2 : 1))
                    i = (off + count) * (cplx ? 2 : 1);
                double kept = dbl ? u[i] : uf[i], x = sin(0.37 * (double)i);
                if (kept != (dbl ? x : (double)(float)x))
                    fail_msg("type %d offset %zu: element %zu outside the range changed", type, off, i);
            }
            free(u);
            free(m);
            free(want);
        }
    }
}

/* Prefetch distances: none, one line, the default (one page), one not a
 * whole number of lines, and ones as long as the copy or longer. */
static const size_t aheads[] = { 0, 64, G3H_PREFETCH_AHEAD, 4100, (size_t)1 << 20, (size_t)2 << 20 };
enum { NAHEAD = sizeof aheads / sizeof aheads[0], MIB = G3H_STREAM_MIN };

/* Packing (the caller's array into staging) and the write-back at
 * beta = 0 (staging into the caller's array) are the same streaming copy:
 * sizes just under, at and past the drop-ins' 1 MiB threshold, odd
 * lengths, offsets on and off lines, each prefetch distance. */
static void prefetched_copy(void **state)
{
    (void)state;
    const size_t lens[] = { MIB - 8, MIB, MIB + 1, MIB + 63, MIB + 4096 + 200 + 7, (size_t)MIB * 3 / 2 + 4033 };
    size_t max = (size_t)MIB * 3 / 2 + 4033 + 64;
    unsigned char *src = lines(max + 2 * PAD), *dst = lines(max + 2 * PAD);
    fill(src, max + 2 * PAD, 11);
    for (size_t a = 0; a < NAHEAD; a++)
        for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++)
            for (size_t so = 0; so < 64; so += 24)
                for (size_t doff = 0; doff < 64; doff += 40)
                    check_copy(src, dst, lens[i], so, doff, aheads[a]);
    free(src);
    free(dst);
}

/* The write-back at beta != 0 in each type with and without prefetch,
 * on integers and a beta whose products and sums are exact, so that every
 * byte must equal a plain loop's; elements before and after the range
 * (PAD bytes each side) must keep their bits. */
static void prefetched_write_back(void **state)
{
    (void)state;
    const double beta = -0.75, beta_im = 0.5;
    /* elements: bytes / es + more */
    const struct { size_t bytes, more; } sizes[] = { { 0, 3 }, { 0, 1001 }, { MIB, 1 }, { MIB, 3 }, { MIB + 4096, 5 } };
    size_t most = (size_t)MIB + 4096 + 5 * 16 + 8 * 16;
    unsigned char *u = lines(most + 2 * PAD), *m = lines(most + 2 * PAD), *want = lines(most + 2 * PAD);
    for (int type = 0; type < 4; type++) {
        int dbl = type & 1, cplx = type >> 1;
        size_t es = (size_t)(dbl ? 8 : 4) * (cplx ? 2 : 1), per = cplx ? 2 : 1;
        for (size_t a = 0; a < NAHEAD; a++)
            for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++)
                for (size_t off = 0; off < 8; off += 3) {
                    size_t count = sizes[c].bytes / es + sizes[c].more, len = count * es, at = PAD + off * es;
                    size_t reals = count * per;
                    memset(u, CANARY, at + len + PAD);
                    for (size_t i = 0; i < reals; i++) {
                        double x = (double)((long)((i * 7919 + (size_t)type) % 2001) - 1000);
                        double y = (double)((long)((i * 104729 + a) % 1999) - 999);
                        if (dbl) ((double *)(u + at))[i] = x, ((double *)(m + at))[i] = y;
                        else ((float *)(u + at))[i] = (float)x, ((float *)(m + at))[i] = (float)y;
                    }
                    memcpy(want, u, at + len + PAD);
                    for (size_t i = 0; i < count; i++) {
                        size_t r = i * per;
                        double ur = dbl ? ((double *)(u + at))[r] : ((float *)(u + at))[r];
                        double mr = dbl ? ((double *)(m + at))[r] : ((float *)(m + at))[r];
                        double res[2];
                        if (!cplx) {
                            res[0] = mr + beta * ur;
                        } else {
                            double ui = dbl ? ((double *)(u + at))[r + 1] : ((float *)(u + at))[r + 1];
                            double mi = dbl ? ((double *)(m + at))[r + 1] : ((float *)(m + at))[r + 1];
                            res[0] = mr + beta * ur - beta_im * ui;
                            res[1] = mi + beta * ui + beta_im * ur;
                        }
                        for (size_t k = 0; k < per; k++) {
                            if (dbl) ((double *)(want + at))[r + k] = res[k];
                            else ((float *)(want + at))[r + k] = (float)res[k];
                        }
                    }
                    g3h_add_scaled(u + at, m + at, len, dbl, cplx, beta, cplx ? beta_im : 0, aheads[a]);
                    for (size_t i = 0; i < at + len + PAD; i++)
                        if (u[i] != want[i])
                            fail_msg("type %d, %zu elements at offset %zu, prefetch %zu ahead: byte %zu is %#x, want "
                                     "%#x (%s)", type, count, off, aheads[a], i, u[i], want[i],
                                     i < at ? "before the range" : i >= at + len ? "past the range" : "in it");
                }
    }
    free(u);
    free(m);
    free(want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stream_copy_small),
        cmocka_unit_test(stream_copy_large),
        cmocka_unit_test(add_scaled),
        cmocka_unit_test(prefetched_copy),
        cmocka_unit_test(prefetched_write_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

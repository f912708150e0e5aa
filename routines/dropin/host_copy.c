/* SPDX-License-Identifier: BSD-3-Clause */
/* The host's copies between the caller's arrays and pinned staging memory
 * (host_copy.h).  A host call from malloc'd arrays moves every byte through
 * one of these (docs/performance.md, Drop-in crossover), so they run at the host memory's
 * speed or not at all.
 *
 * Why streaming stores: an ordinary store to a line not in the cache reads
 * the line from memory first (read for ownership), so a plain copy moves
 * three streams over the memory bus (source in, destination in, destination
 * out) where two carry the data.  glibc's memcpy switches to non-temporal
 * stores only above a threshold it derives from the L3's size (tens of MB
 * on a server's glibc 2.38+), far above the few MB each copy thread gets
 * of a panel.  On the H100's host (docs/performance.md, Drop-in crossover) this sped up writes
 * into cold memory (the caller's C at beta = 0: 46 -> 85 GB/s on 16
 * threads), not copies into staging the L3 still held, and lost 10-20 %
 * where both sides were in the cache (hence the drop-ins' 1 MiB
 * threshold).  SSE2's 16-byte streaming store is in every x86-64 CPU,
 * so no run-time check is needed; wider stores would not move the memory
 * any faster.  Elsewhere the copy is memcpy.
 *
 * The write-back usr = img + beta usr reads both streams and writes lines
 * it has just read (no extra read): ordinary stores, in loops GCC
 * vectorizes at -O3 (the restrict qualifiers spare it the overlap check).
 *
 * Why prefetch: the caller's arrays are cold, and on the H100's host a
 * copy from them ran at 55 GB/s on 16 threads where reading alone ran at
 * 79-87 (docs/performance.md, Drop-in crossover).  The L2's streamer stops at each 4 KiB
 * page and starts again only after a few misses in the next one, and in a
 * KVM guest on 4 KiB pages each new page also costs a two-level page
 * walk.  A prefetch `ahead` bytes (G3H_PREFETCH_AHEAD, 4096: always in the next page)
 * before each line is read starts both early.  Only the sources are
 * prefetched: the streaming stores need no line, and the write-back's
 * stores go to lines it has just read.  Prefetch is a hint: compilers
 * without __builtin_prefetch get none, and where the copy is memcpy (not
 * x86-64) only the write-back prefetches. */
#include <complex.h>
#include <stdint.h>
#include <string.h>
#include "host_copy.h"
#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
#define G3_STREAM_STORES 1
#endif
#if defined(__GNUC__) || defined(__clang__)
#define G3_PREFETCH(p) __builtin_prefetch((p), 0, 3)
#else
#define G3_PREFETCH(p) ((void)(p))
#endif

/* The write-back prefetches once per SPAN bytes of each source (its loops
 * stay whole loops over a span, which GCC vectorizes). */
enum { LINE = 64, SPAN = 512 };

void g3h_stream_copy(void *dst, const void *src, size_t len, size_t ahead)
{
#ifdef G3_STREAM_STORES
    char *d = dst;
    const char *s = src;
    size_t head = (size_t)(-(uintptr_t)d & 63);
    if (len < head + 256) {
        memcpy(d, s, len);
        return;
    }
    /* whole 64-byte lines of the destination get streaming stores */
    memcpy(d, s, head);
    d += head;
    s += head;
    len -= head;
    size_t body = len & ~(size_t)63;
    /* prefetches stop where they would pass the source's end */
    size_t stop = ahead && ahead < len ? len - ahead : 0;
    for (size_t i = 0; i < body; i += 64) {
        if (i < stop)
            G3_PREFETCH(s + i + ahead);
        __m128i x0 = _mm_loadu_si128((const __m128i *)(s + i));
        __m128i x1 = _mm_loadu_si128((const __m128i *)(s + i + 16));
        __m128i x2 = _mm_loadu_si128((const __m128i *)(s + i + 32));
        __m128i x3 = _mm_loadu_si128((const __m128i *)(s + i + 48));
        _mm_stream_si128((__m128i *)(d + i), x0);
        _mm_stream_si128((__m128i *)(d + i + 16), x1);
        _mm_stream_si128((__m128i *)(d + i + 32), x2);
        _mm_stream_si128((__m128i *)(d + i + 48), x3);
    }
    /* streaming stores are weakly ordered: visible before anyone is told */
    _mm_sfence();
    memcpy(d + body, s + body, len - body);
#else
    (void)ahead;
    memcpy(dst, src, len);
#endif
}

static void add_span(void *usr, const void *img, size_t len, int dbl, int cplx, double beta, double beta_im)
{
    if (cplx && dbl) {
        double complex *restrict u = usr, b = CMPLX(beta, beta_im);
        const double complex *restrict m = img;
        for (size_t i = 0; i < len / 16; i++)
            u[i] = m[i] + b * u[i];
    } else if (cplx) {
        float complex *restrict u = usr, b = CMPLXF((float)beta, (float)beta_im);
        const float complex *restrict m = img;
        for (size_t i = 0; i < len / 8; i++)
            u[i] = m[i] + b * u[i];
    } else if (dbl) {
        double *restrict u = usr, b = beta;
        const double *restrict m = img;
        for (size_t i = 0; i < len / 8; i++)
            u[i] = m[i] + b * u[i];
    } else {
        float *restrict u = usr, b = (float)beta;
        const float *restrict m = img;
        for (size_t i = 0; i < len / 4; i++)
            u[i] = m[i] + b * u[i];
    }
}

void g3h_add_scaled(void *usr, const void *img, size_t len, int dbl, int cplx, double beta, double beta_im,
                    size_t ahead)
{
    char *u = usr;
    const char *m = img;
    /* without prefetch, one span of the whole length: plain loops */
    size_t span = ahead ? SPAN : len, stop = ahead && ahead < len ? len - ahead : 0;
    for (size_t at = 0; at < len; at += span) {
        size_t n = len - at < span ? len - at : span;
        for (size_t p = at; p < at + n && p < stop; p += LINE) {
            G3_PREFETCH(u + p + ahead);
            G3_PREFETCH(m + p + ahead);
        }
        add_span(u + at, m + at, n, dbl, cplx, beta, beta_im);
    }
}

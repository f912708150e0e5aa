/* The host's copies between the caller's arrays and pinned staging memory
 * (host_copy.h).  A host call from malloc'd arrays moves every byte through
 * one of these (bench/NOTES.md 11, 20), so they run at the host memory's
 * speed or not at all.
 *
 * Why streaming stores: an ordinary store to a line not in the cache reads
 * the line from memory first (read for ownership), so a plain copy moves
 * three streams over the memory bus (source in, destination in, destination
 * out) where two carry the data.  glibc's memcpy switches to non-temporal
 * stores only above a threshold it derives from the L3's size (tens of MB
 * on a server's glibc 2.38+), far above the few MB each copy thread gets
 * of a panel.  On the H100's host (bench/NOTES.md 20) this sped up writes
 * into cold memory (the caller's C at beta = 0: 46 -> 85 GB/s on 16
 * threads), not copies into staging the L3 still held, and lost 10-20 %
 * where both sides were in the cache (hence the drop-ins' 1 MiB
 * threshold).  SSE2's 16-byte streaming store is in every x86-64 CPU,
 * so no run-time check is needed; wider stores would not move the memory
 * any faster.  Elsewhere the copy is memcpy.
 *
 * The write-back usr = img + beta usr reads both streams and writes lines
 * it has just read (no extra read): ordinary stores, in loops GCC
 * vectorizes at -O3 (the restrict qualifiers spare it the overlap check). */
#include <complex.h>
#include <stdint.h>
#include <string.h>
#include "host_copy.h"
#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
#define G3_STREAM_STORES 1
#endif

void g3h_stream_copy(void *dst, const void *src, size_t len)
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
    for (size_t i = 0; i < body; i += 64) {
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
    memcpy(dst, src, len);
#endif
}

void g3h_add_scaled(void *usr, const void *img, size_t len, int dbl, int cplx, double beta, double beta_im)
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

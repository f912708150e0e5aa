/* SPDX-License-Identifier: BSD-3-Clause */
/* The host's own copies for the drop-ins' staging (host_copy.c): a copy
 * with streaming stores, and the write-back that adds beta times the
 * caller's C, both prefetching their sources ahead.  Plain C with no
 * OpenCL, so that bench/copy_probe.c and the unit test build the same
 * code.  Internal only. */
#ifndef G3_HOST_COPY_H
#define G3_HOST_COPY_H
#include <stddef.h>

/* A staging copy (one region, all threads) of at least G3H_STREAM_MIN
 * bytes is made with streaming stores and prefetches its sources
 * G3H_PREFETCH_AHEAD bytes ahead; below, its lines may still be in the
 * cache and the caller may read them again soon: ordinary stores, nothing
 * prefetched. */
enum { G3H_STREAM_MIN = 1 << 20, G3H_PREFETCH_AHEAD = 4096 };

/* memcpy(dst, src, len), the bulk with non-temporal stores where the CPU
 * has them (x86-64), so that no destination line is read first, and each
 * source line prefetched `ahead` bytes before it is read (0: none); the
 * stores are fenced before it returns.  Regions must not overlap. */
void g3h_stream_copy(void *dst, const void *src, size_t len, size_t ahead);

/* usr = img + beta * usr over len bytes of elements of the given type
 * (dbl, cplx as in g3d_call; complex beta is beta + i beta_im), both
 * sources prefetched `ahead` bytes before they are read (0: none). */
void g3h_add_scaled(void *usr, const void *img, size_t len, int dbl, int cplx, double beta, double beta_im,
                    size_t ahead);
#endif

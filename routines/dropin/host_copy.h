/* SPDX-License-Identifier: BSD-3-Clause */
/* The host's own copies for the drop-ins' staging (host_copy.c): a copy
 * with streaming stores, and the write-back that adds beta times the
 * caller's C, both prefetching their sources ahead.  Plain C with no
 * OpenCL, so that bench/copy_probe.c and the unit test build the same
 * code.  Internal only. */
#ifndef G3_HOST_COPY_H
#define G3_HOST_COPY_H
#include <stddef.h>

/* How far ahead of its reads a large copy prefetches, in bytes, from the
 * value of GPUBLAS3_PREFETCH (NULL or empty: unset): 4096 by default, 0
 * for none, else the number given (at most 1 MiB). */
size_t g3h_prefetch_ahead(const char *env);

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

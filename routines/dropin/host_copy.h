/* The host's own copies for the drop-ins' staging (host_copy.c): a copy
 * with streaming stores, and the write-back that adds beta times the
 * caller's C.  Plain C with no OpenCL, so that bench/copy_probe.c and the
 * unit test build the same code.  Internal only. */
#ifndef G3_HOST_COPY_H
#define G3_HOST_COPY_H
#include <stddef.h>

/* memcpy(dst, src, len), the bulk with non-temporal stores where the CPU
 * has them (x86-64), so that no destination line is read first; the
 * stores are fenced before it returns.  Regions must not overlap. */
void g3h_stream_copy(void *dst, const void *src, size_t len);

/* usr = img + beta * usr over len bytes of elements of the given type
 * (dbl, cplx as in g3d_call; complex beta is beta + i beta_im). */
void g3h_add_scaled(void *usr, const void *img, size_t len, int dbl, int cplx, double beta, double beta_im);
#endif

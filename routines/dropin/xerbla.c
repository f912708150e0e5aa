/* SPDX-License-Identifier: BSD-3-Clause */
/* The library's default error handlers, xerbla_ and cblas_xerbla.  They
 * are exported with default visibility and called from other files through
 * the dynamic symbol table, so a definition in the application (or in a
 * library loaded before this one) replaces them.  Unlike reference BLAS
 * (which stops the program), both print and return: the routine then
 * returns without touching its arrays. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "gpublas3.h"
#include "gpublas3_blas.h"
#include "dropin.h"

_Thread_local int g3d_cblas_rowmajor;

void xerbla_(const char *srname, const int *info, size_t srname_len)
{
    /* C callers may leave the hidden length out: trust it only if sane. */
    size_t n = srname_len > 0 && srname_len <= 64 ? srname_len : 6;
    size_t len = 0;
    while (len < n && srname[len] && srname[len] != ' ')
        len++;
    fprintf(stderr, " ** On entry to %.*s parameter number %2d had an illegal value\n", (int)len, srname, *info);
}

/* As reference CBLAS's own: a row-major call's error comes in with its
 * position in the column-major call it maps to; the message gives the
 * position the caller wrote. */
void cblas_xerbla(int p, const char *rout, const char *form, ...)
{
    if (g3d_cblas_rowmajor) {
        if (strstr(rout, "gemm")) {
            if (p == 4 || p == 5) p = 9 - p;
            else if (p == 9 || p == 11) p = 20 - p;
        } else if (strstr(rout, "symm") || strstr(rout, "hemm")) {
            if (p == 4 || p == 5) p = 9 - p;
        } else if (strstr(rout, "trmm") || strstr(rout, "trsm")) {
            if (p == 6 || p == 7) p = 13 - p;
        }
    }
    if (p)
        fprintf(stderr, "Parameter %d to routine %s was incorrect\n", p, rout);
    va_list ap;
    va_start(ap, form);
    vfprintf(stderr, form, ap);
    va_end(ap);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* What the host drop-in tests share: one case (a spec_case, column-major for
 * the Fortran names) with its host arrays filled the way that catches the
 * most: random values everywhere, NaN where the routine must not read
 * (SYMM's, TRMM's and TRSM's other triangle of A, their unit diagonal, C when
 * beta = 0, the inputs when alpha = 0), and a tail past every array.  A case is called through the
 * Fortran or the CBLAS drop-in and judged against OpenBLAS (reached by
 * tests/common's spec through dlopen, never linked) with spec's per-element
 * bound; everything the call must not touch must keep its bits. */
#ifndef GPUBLAS3_DROPIN_TEST_H
#define GPUBLAS3_DROPIN_TEST_H
#include <stddef.h>
#include "spec.h"

enum { DCASE_TAIL = 7 };

typedef struct {
    spec_case c;
    size_t n[3];     /* elements allocated for A, B, C (0: not used) */
    void *before[3]; /* the arrays as filled */
    void *work[3];   /* the arrays the call gets */
} dcase;

/* Fills a case; c's leading dimensions of 0 become tight. */
void dcase_init(dcase *d, const spec_case *c, unsigned seed);
/* Calls the Fortran name on work[]; `lower` gives the option letters in lower case. */
void dcase_fortran(dcase *d, int lower);
/* Calls the cblas_ name on work[], in c.order's layout. */
void dcase_cblas(dcase *d);
/* 0 when the output is right and nothing else changed; else the count of
 * bad elements, the first described in msg. */
size_t dcase_check(const dcase *d, char *msg, size_t n);
void dcase_free(dcase *d);

/* Checks one case end to end through Fortran (cblas = 0) or CBLAS; on a
 * failure prints the case and returns nonzero. */
int dcase_run(const spec_case *c, int cblas, int lower, unsigned seed);

/* What the library says on stderr, read back by the program: from
 * stderr_capture on, stderr goes to a temporary file; stderr_release puts
 * it back, copies what came to the real stderr and into text (at most n - 1
 * bytes and a NUL).  Both return 0, or -1 on failure (perror says why). */
int stderr_capture(void);
int stderr_release(char *text, size_t n);
/* How many times what occurs in text (the library's lines of a kind). */
int text_count(const char *text, const char *what);
#endif

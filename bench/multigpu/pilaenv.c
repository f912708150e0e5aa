/* SPDX-License-Identifier: BSD-3-Clause */
/* PBLAS's logical block size, made settable: PBLAS cuts the inner
 * dimension of PDGEMM into slices of pilaenv_() columns, 32 in the
 * reference PILAENV, whatever the matrices' block size,
 * so every local DGEMM of a PDGEMM has K = 32: over a host-to-GPU link that
 * bounds a GPU node BLAS far below the GPU.  Preloaded with ScaLAPACK
 * (LD_PRELOAD=libpilaenv.so), this pilaenv_ returns PBLAS_NB (default 32)
 * instead; ScaLAPACK calls it through its PLT, so the override takes. */
#include <stdlib.h>

int pilaenv_(const int *ictxt, const char *prec)
{
    (void)ictxt;
    (void)prec;
    const char *e = getenv("PBLAS_NB");
    int nb = e ? atoi(e) : 0;
    return nb > 0 ? nb : 32;
}

/* Tuned parameters of the GEMM and copy kernels for one device and
 * precision.  The rows come from the CSV tables in tuned-params/ (turned into
 * g3_tuned_table by lib/cmake/params.cmake); lib/params.c picks one for a
 * device and applies the GPUBLAS3_PARAMS override. */
#ifndef G3_PARAMS_H
#define G3_PARAMS_H
#include <stddef.h>

typedef struct {
    const char *table;  /* CSV file the row came from, for messages */
    const char *match;  /* device-name substring, "vendor:..", "type:gpu|cpu" or "default" */
    int precision;      /* 32 or 64 */
    /* GEMM kernel (kernels/gemm.cl) */
    int mwg, nwg, kwg;  /* work-group tile in M, N, K */
    int mdimc, ndimc;   /* work-group shape; work-item tile is mwg/mdimc x nwg/ndimc */
    int sa, sb;         /* stage A', B' through local memory */
    /* copy kernel (copy/pack.cl) */
    int copy_ts, copy_rs; /* tile edge, rows of work-items */
} g3_params;

extern const g3_params g3_tuned_table[];
extern const int g3_tuned_count;

/* Why a parameter set cannot run on a device, or NULL when it can. */
const char *g3_params_invalid(const g3_params *p, size_t max_wg, size_t local_mem_bytes);
/* Applies "name=value,..." (GPUBLAS3_PARAMS syntax) to p; 0 on success. */
int g3_params_override(g3_params *p, const char *spec);
/* The -D options string that compiles the kernels with p. */
void g3_params_defines(const g3_params *p, char *buf, size_t n);
#endif

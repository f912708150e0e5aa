/* Checks, overrides and prints the tuned parameters (lib/params.h).
 * Impossible sets are refused here, before anything is compiled. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "params.h"

static int pow2(int x) { return x > 0 && (x & (x - 1)) == 0; }

const char *g3_params_invalid(const g3_params *p, size_t max_wg, size_t local_mem_bytes)
{
    size_t esize = p->precision == 64 ? 8 : 4;
    if (p->precision != 32 && p->precision != 64) return "precision must be 32 or 64";
    if (!pow2(p->mwg) || !pow2(p->nwg) || !pow2(p->kwg) || !pow2(p->mdimc) || !pow2(p->ndimc))
        return "tile sizes must be powers of two";
    if (p->mwg % p->mdimc || p->nwg % p->ndimc) return "mwg/nwg must be multiples of mdimc/ndimc";
    if ((size_t)p->mdimc * p->ndimc > max_wg) return "work-group larger than the device allows";
    if ((p->sa != 0 && p->sa != 1) || (p->sb != 0 && p->sb != 1)) return "sa/sb must be 0 or 1";
    size_t local = esize * p->kwg * ((size_t)p->sa * p->mwg + (size_t)p->sb * p->nwg);
    if (local > local_mem_bytes) return "local-memory tiles larger than the device has";
    if (!pow2(p->copy_ts) || !pow2(p->copy_rs) || p->copy_rs > p->copy_ts)
        return "copy_ts, copy_rs must be powers of two with copy_rs <= copy_ts";
    if ((size_t)p->copy_ts * p->copy_rs > max_wg) return "copy work-group larger than the device allows";
    if (esize * p->copy_ts * (p->copy_ts + 1) > local_mem_bytes) return "copy tile larger than local memory";
    return NULL;
}

int g3_params_override(g3_params *p, const char *spec)
{
    static const struct { const char *name; size_t offset; } fields[] = {
#define F(x) { #x, offsetof(g3_params, x) }
        F(mwg), F(nwg), F(kwg), F(mdimc), F(ndimc), F(sa), F(sb), F(copy_ts), F(copy_rs),
#undef F
    };
    char buf[512];
    snprintf(buf, sizeof buf, "%s", spec);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '='), *end;
        if (!eq) return -1;
        *eq = 0;
        long v = strtol(eq + 1, &end, 10);
        if (*end || v < 0 || v > 1 << 16) return -1;
        size_t i = 0;
        while (i < sizeof fields / sizeof fields[0] && strcmp(fields[i].name, tok)) i++;
        if (i == sizeof fields / sizeof fields[0]) return -1;
        *(int *)((char *)p + fields[i].offset) = (int)v;
    }
    return 0;
}

void g3_params_defines(const g3_params *p, char *buf, size_t n)
{
    snprintf(buf, n, "-DPRECISION=%d -DMWG=%d -DNWG=%d -DKWG=%d -DMDIMC=%d -DNDIMC=%d -DSA=%d -DSB=%d"
             " -DCOPY_TS=%d -DCOPY_RS=%d",
             p->precision, p->mwg, p->nwg, p->kwg, p->mdimc, p->ndimc, p->sa, p->sb, p->copy_ts, p->copy_rs);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Checks, overrides and prints the tuned parameters (lib/params.h).
 * Impossible sets are refused here, before anything is compiled, so a bad
 * table row or override costs speed, never a failed build. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "params.h"

const char *const g3_shape_names[G3_NSHAPES] = { "large", "small", "skinny", "deepk", "medium", "batch", "tiny" };

static int pow2(int x) { return x > 0 && (x & (x - 1)) == 0; }
static int vector_width(int v) { return v == 1 || v == 2 || v == 4 || v == 8 || v == 16; }

int g3_params_ring(const g3_params *p)
{
    const size_t esize = p->precision == 64 ? 8 : 4;
    const int staged = p->sa && p->sb && (size_t)p->vwm * esize <= 16 && (size_t)p->vwn * esize <= 16;
    return staged ? p->async : 0;
}

int g3_params_swizzled(const g3_params *p)
{
    const size_t esize = p->precision == 64 ? 8 : 4;
    /* rows of whole groups of 8 chunks of 16 bytes, unpadded: the XOR stays inside its row */
    return p->sa && p->sb && !p->pad && (size_t)p->vwm * esize == 16 && (size_t)p->vwn * esize == 16 &&
           p->mwg / p->vwm % 8 == 0 && p->nwg / p->vwn % 8 == 0 ? p->swz : 0;
}

g3_params g3_params_effective(const g3_params *p)
{
    g3_params q = *p;
    q.async = g3_params_ring(p);
    q.swz = g3_params_swizzled(p);
    return q;
}

int g3_params_nvidia_only(const g3_params *p)
{
    return p->mma || p->cpref || p->async;
}

const char *g3_params_invalid(const g3_params *p, size_t max_wg, size_t local_mem_bytes)
{
    if (p->precision != 32 && p->precision != 64) return "precision must be 32 or 64";
    size_t esize = p->precision == 64 ? 8 : 4;
    if (p->mwg < 1 || p->nwg < 1 || p->kwg < 1 || p->mdimc < 1 || p->ndimc < 1 || p->kwi < 1)
        return "tile sizes must be positive";
    if (p->mwg > 1024 || p->nwg > 1024 || p->kwg > 256) return "tiles larger than 1024 x 1024 x 256";
    if (!vector_width(p->vwm) || !vector_width(p->vwn)) return "vwm, vwn must be 1, 2, 4, 8 or 16";
    if ((p->sa | p->sb | p->db) & ~1) return "sa, sb, db must be 0 or 1";
    if (p->mma < 0 || p->mma > 4) return "mma must be 0 (portable) or 1..4 (m8n8k4, m16n8k4, m16n8k8, m16n8k16)";
    if (p->pad < 0 || p->pad > 64) return "pad must be 0..64";
    if (p->db && !p->sa && !p->sb) return "db needs sa or sb";
    if (p->nfirst & ~1) return "nfirst must be 0 or 1";
    if (p->wtm && (p->mma || (p->wtm & (p->wtm - 1)) || p->wtm > 32 || p->mdimc % p->wtm ||
                   p->ndimc % (32 / p->wtm)))
        return "wtm: a power of two <= 32 dividing mdimc, with 32/wtm dividing ndimc (not with mma)";
    size_t warp = p->mma ? 32 : 1;
    size_t nt = warp * p->mdimc * p->ndimc;
    if (nt > max_wg) return "work-group larger than the device allows";
    if (p->mma) {
        if (p->precision != 64) return "mma is fp64 only";
        if (p->vwm > 2 || p->vwn > 2 || !p->sa || !p->sb) return "mma needs vwm, vwn <= 2, sa = sb = 1";
        int mm = p->mma == 1 ? 8 : 16, mk = p->mma <= 2 ? 4 : p->mma == 3 ? 8 : 16;
        if (p->mwg % (mm * p->mdimc) || p->nwg % (8 * p->ndimc))
            return "mma: each warp's tile must be whole tensor-core blocks";
        if (p->kwg % mk || (p->kwg / mk) % p->kwi) return "mma: kwg a multiple of the mma k, kwg/k a multiple of kwi";
        if ((size_t)(p->mwg / p->mdimc) * (p->nwg / p->ndimc) > 64 * 32) return "mma: warp tile too large";
    } else {
        if (p->mwg % (p->mdimc * p->vwm) || p->nwg % (p->ndimc * p->vwn))
            return "mwg, nwg must be multiples of mdimc*vwm, ndimc*vwn";
        if (p->kwg % p->kwi) return "kwg must be a multiple of kwi";
        if ((size_t)(p->mwg / p->mdimc) * (p->nwg / p->ndimc) > 256) return "work-item tile over 256 elements";
    }
    if (p->sa && ((size_t)p->kwg * p->mwg / p->vwm % nt || p->pad % p->vwm))
        return "sa: the A' tile must split evenly over the work-group, pad a multiple of vwm";
    if (p->sb && ((size_t)p->kwg * p->nwg / p->vwn % nt || p->pad % p->vwn))
        return "sb: the B' tile must split evenly over the work-group, pad a multiple of vwn";
    if (p->async == 1 || p->async > 4) return "async must be 0 or 2..4";
    if (p->swz < 0 || p->swz > 2) return "swz must be 0, 1 or 2";
    const int ring = g3_params_ring(p);
    size_t local = esize * p->kwg * ((size_t)p->sa * (p->mwg + p->pad) + (size_t)p->sb * (p->nwg + p->pad));
    if (local * (size_t)(ring ? ring : p->db ? 2 : 1) > local_mem_bytes)
        return "local-memory tiles larger than the device has";
    if (p->copy_direct & ~1) return "copy_direct must be 0 or 1";
    if (!pow2(p->copy_ts) || !pow2(p->copy_rs) || p->copy_rs > p->copy_ts)
        return "copy_ts, copy_rs must be powers of two with copy_rs <= copy_ts";
    if ((size_t)p->copy_ts * p->copy_rs > max_wg) return "copy work-group larger than the device allows";
    if (p->direct_dm < 1 || p->direct_dn < 1 || (size_t)p->direct_dm * p->direct_dn > max_wg)
        return "direct_dm x direct_dn must be a work-group the device allows";
    if (p->direct_wm < 1 || p->direct_wm > 8 || p->direct_wn < 1 || p->direct_wn > 8)
        return "direct_wm, direct_wn must be 1..8";
    if (p->direct_kb < 1 || p->direct_kb > 64) return "direct_kb must be 1..64";
    if (g3_params_direct_local(p) > local_mem_bytes) return "direct_kb: staged tiles larger than local memory";
    if (p->direct_max > 4096 || p->splitk_k < 1) return "direct_max at most 4096, splitk_k at least 1";
    if (p->splitk_wgs < 1 || p->splitk_wgs > 64 || p->deepk_max < 1) return "splitk_wgs 1..64, deepk_max at least 1";
    if (p->skinny_max < 1 || p->skinny_max > 1024) return "skinny_max 1..1024";
    if (p->medium_wgs > 64) return "medium_wgs 0..64";
    if (p->medium_k < 0) return "medium_k at least 0";
    if (p->batch_max < 0 || p->batch_max > 4096) return "batch_max 0..4096";
    if (p->cvec & ~1) return "cvec must be 0 or 1";
    if (p->rtmap & ~1) return "rtmap must be 0 or 1";
    if (p->square2k < 0 || p->square2k > 65536) return "square2k must be 0..65536";
    if (p->cpref < 0 || p->cpref > 4096) return "cpref must be 0..4096";
    if (esize * p->copy_ts * (p->copy_ts + 1) > local_mem_bytes) return "copy tile larger than local memory";
    if (p->trsm_nb < 1 || p->trsm_nb > 1024) return "trsm_nb must be 1..1024";
    if (p->trsm_refine & ~1) return "trsm_refine must be 0 or 1";
    if (p->trsm_direct > 4096) return "trsm_direct at most 4096";
    if (p->trsm_cols > 64) return "trsm_cols at most 64";
    /* kernels/subst.cl keeps a block's rows of its right-hand sides in private memory */
    if (p->trsm_subst & ~1) return "trsm_subst must be 0 or 1";
    if (p->trsm_subst && p->trsm_nb > 256) return "trsm_subst needs trsm_nb at most 256";
    /* kernels/trsm.cl's leaf (params.h: G3_LEAF_*), real elements */
    if (p->trsm_leaf < 0 || p->trsm_leaf % G3_LEAF_TB || p->trsm_leaf > 4 * G3_LEAF_LS)
        return "trsm_leaf must be 0 or a multiple of 32 up to 1024";
    if (p->trsm_leaf && (max_wg < G3_LEAF_LS || G3_LEAF_LOCAL(esize) > local_mem_bytes))
        return "trsm_leaf needs 256 work-items a group and its local memory";
    return NULL;
}

static const struct { const char *name; size_t offset; } fields[] = {
#define F(x) { #x, offsetof(g3_params, x) }
    F(mwg), F(nwg), F(kwg), F(mdimc), F(ndimc), F(vwm), F(vwn), F(kwi), F(sa), F(sb), F(db), F(pad),
    F(wtm), F(nfirst), F(mma), F(cpref), F(async), F(swz), F(cvec), F(rtmap), F(copy_ts), F(copy_rs), F(copy_direct), F(trsm_nb), F(trsm_refine),
    F(trsm_direct), F(trsm_cols), F(trsm_leaf), F(trsm_subst), F(direct_dm), F(direct_dn), F(direct_wm), F(direct_wn),
    F(direct_kb), F(direct_max), F(direct_nb), F(splitk_k), F(splitk_wgs), F(deepk_max), F(skinny_max), F(medium_wgs), F(medium_k),
    F(batch_max), F(kreuse), F(square2k),
#undef F
};
#define NFIELDS (sizeof fields / sizeof fields[0])

int *g3_params_field(g3_params *p, const char *name)
{
    for (size_t i = 0; i < NFIELDS; i++)
        if (strcmp(fields[i].name, name) == 0)
            return (int *)((char *)p + fields[i].offset);
    return NULL;
}

int g3_params_override(g3_params *p, const char *spec)
{
    char *buf = strdup(spec); /* any length, as the env lists */
    if (!buf)
        return -1;
    int bad = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok && !bad; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '='), *end = NULL;
        if (eq)
            *eq = 0;
        int *f = eq ? g3_params_field(p, tok) : NULL;
        long v = f ? strtol(eq + 1, &end, 10) : -1;
        bad = !f || *end || v < 0 || v > 1 << 16;
        if (!bad)
            *f = (int)v;
    }
    free(buf);
    return bad ? -1 : 0;
}

int g3_params_override_env(g3_params *p, int shape, const char *env)
{
    char *buf = strdup(env); /* any length: a cut list would set half a set */
    int named = 0;
    if (!buf)
        return -1;
    for (char *save = NULL, *seg = strtok_r(buf, "; ", &save); seg; seg = strtok_r(NULL, "; ", &save)) {
        int other = 0;
        if ((seg[0] == 's' || seg[0] == 'd') && seg[1] == ':') {
            other = (seg[0] == 'd') != (p->precision == 64);
            seg += 2;
        }
        char *colon = strchr(seg, ':'), *eq = strchr(seg, '=');
        if (colon && (!eq || colon < eq)) {
            *colon = 0;
            int s = 0;
            while (s < G3_NSHAPES && strcmp(g3_shape_names[s], seg)) s++;
            if (s == G3_NSHAPES) {
                named = -1;
                break;
            }
            other |= s != shape;
            named |= !other;
            seg = colon + 1;
        }
        /* every list is parsed, so that a typo is said whichever set it names */
        g3_params trial = *p;
        if (g3_params_override(&trial, seg)) {
            named = -1;
            break;
        }
        if (!other)
            *p = trial;
    }
    free(buf);
    return named;
}

void g3_params_string(const g3_params *p, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < NFIELDS && used < n; i++)
        used += snprintf(buf + used, n - used, "%s%s=%d", i ? "," : "", fields[i].name,
                         *(const int *)((const char *)p + fields[i].offset));
}

void g3_params_defines(const g3_params *set, char *buf, size_t n)
{
    const g3_params e = g3_params_effective(set), *p = &e;
    snprintf(buf, n, "-DPRECISION=%d -DMWG=%d -DNWG=%d -DKWG=%d -DMDIMC=%d -DNDIMC=%d -DVWM=%d -DVWN=%d"
             " -DKWI=%d -DSA=%d -DSB=%d -DDB=%d -DPAD=%d -DWTM=%d -DNFIRST=%d -DMMA=%d -DCVEC=%d -DCPREF=%d"
             " -DASYNC=%d -DSWZ=%d",
             p->precision, p->mwg, p->nwg, p->kwg, p->mdimc, p->ndimc, p->vwm, p->vwn, p->kwi, p->sa,
             p->sb, p->db, p->pad, p->wtm, p->nfirst, p->mma, p->cvec, p->cpref, p->async, !!p->swz);
}

void g3_params_copy_defines(const g3_params *p, char *buf, size_t n)
{
    snprintf(buf, n, "-DPRECISION=%d -DCOPY_TS=%d -DCOPY_RS=%d -DCOPY_DIRECT=%d -DCOPY_KWG=%d",
             p->precision, p->copy_ts, p->copy_rs, p->copy_direct, p->kwg);
}

void g3_params_copy_grid(const g3_params *p, size_t xlen, size_t klen, size_t layers, size_t global[3],
                         size_t local[3])
{
    size_t ts = (size_t)p->copy_ts, wx = p->copy_direct ? 1 : ts, wy = p->copy_direct ? 1 : (size_t)p->copy_rs;
    global[0] = (xlen + ts - 1) / ts * wx, global[1] = (klen + ts - 1) / ts * wy, global[2] = layers;
    local[0] = wx, local[1] = wy, local[2] = 1;
}

void g3_params_direct_defines(const g3_params *p, char *buf, size_t n)
{
    snprintf(buf, n, "-DPRECISION=%d -DDIRECT_DM=%d -DDIRECT_DN=%d -DDIRECT_WM=%d -DDIRECT_WN=%d -DDIRECT_KB=%d",
             p->precision, p->direct_dm, p->direct_dn, p->direct_wm, p->direct_wn, p->direct_kb);
}

size_t g3_params_direct_local(const g3_params *p)
{
    if (p->direct_kb <= 1)
        return 0;
    return 16 * (size_t)p->direct_kb * ((size_t)p->direct_dm * p->direct_wm + 1 + (size_t)p->direct_dn * p->direct_wn + 1);
}

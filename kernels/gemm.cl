/* SPDX-License-Identifier: BSD-3-Clause */
/* The one GEMM kernel: C <- alpha * A'^T * B' + beta * C.
 *
 * A' and B' come from the copy kernel (copy/pack.cl) in column-block layout:
 * A' is cut into blocks of MWG columns (m), each block stored k-major and
 * contiguous, so element (k, m) sits at A'[m0*K + k*MWG + (m - m0)] with
 * m0 = m - m % MWG (B' likewise with NWG).  The K x MWG stripe one
 * work-group multiplies is therefore one contiguous run of memory, and both
 * are zero-padded to whole tiles, so the inner loop needs no bounds checks.
 * Or an operand is read in place (AIP, BIP 1): a column-major matrix whose
 * contiguous index is m (n for B') already has that layout, with its k-rows
 * ld apart instead of MWG, when its extents are whole tiles
 * (routines/plan/packed.c decides): element (k, m) at A[aoff + k*ars + m]
 * in vectors of VWM (aoff, ars: the offset and ld over VWM; B' with boff,
 * brs and VWN).  With k contiguous (AIP, BIP 2; staged sets only) element
 * (k, m) is at A[aoff + m*ars + k] in vectors of VK along k, and staging
 * transposes the tile.  A complex operand's 2 x 2 real form
 * (routines/plan/complex.c) is read so too (AIP 3), from the matrix itself:
 * k-row 2k of A' is complex column k as it lies ({re, im} along m), k-row
 * 2k + 1 the same values as {-im, re}, turned as the tile is staged
 * (SA), so it costs no pack of twice the matrix's bytes.  The strides of
 * packed operands stay compile-time constants: as arguments they cost the
 * H100's rows 10 to 50 registers (docs/performance.md).
 *
 * The kernel never knows which routine called it: a routine only chooses
 *   - `tri`:  store only one triangle of C (SYRK, SYR2K), and skip the
 *             work-groups that lie wholly in the other;
 *   - `band`: the k-range outside which A' or B' is known to be zero
 *             (TRMM's triangle), so those tiles are never loaded, and
 *             its ids run deepest tiles first (`snake`: in rounds of that
 *             many alternating direction);
 *   - `trimap`: a triangle's ids cover only its tiles (below);
 *   - `cplx`: C is the real view of a complex matrix (two real rows per
 *             complex row, routines/plan/complex.c): `tri` and `band` then
 *             count complex rows (m / 2) and complex columns of B' (k / 2),
 *             and with cplx 2 (HERK, HER2K) the imaginary parts of the
 *             diagonal are written as 0.
 * Without SB, B' may instead be A' itself, read in A's blocks (bxb = MWG).
 * Split-K (routines/plan/splitk.c) launches layers of work-groups, one per
 * slice of K (kslice, cslice below).
 * C is column-major at C[offc + m + n*ldc]; rows >= M, columns >= N and the
 * masked triangle are never read or written, and C is not read when
 * beta == 0, so NaN there does not survive.
 *
 * Parameters arrive as prepended #defines (lib/params.c checks them first):
 *   PRECISION  32 | 64
 *   MWG NWG KWG  work-group tile in M, N, K
 *   MDIMC NDIMC  work-group shape: work-items (MMA: warps) in M and N
 *   VWM VWN      vector width of the loads of A' and B' (and of the
 *                accumulators along M)
 *   KWI          unroll factor of the loop over one k-tile
 *   SA SB        stage A' / B' tiles through local memory
 *   DB           double-buffer the staged tiles (loads of tile t+1 are in
 *                flight while tile t is multiplied; one barrier per tile)
 *   PAD          elements added to each staged row (local-memory banks)
 *   AIP BIP      A' / B' read in place, 1: m / n contiguous, 2: k contiguous
 *                (set per launch by kernels/gemm.c; absent: packed); AIP 3:
 *                A' is the 2 x 2 real form of a complex matrix read in place
 *                (below); -1:
 *                packed or m / n contiguous, as the launch's strides say
 *                (below), one build for both (CPU devices)
 *   CVEC         1: C stored a vector (VWM) at a time where one lies inside C
 *                and inside the stored triangle
 *   NFIRST       0: work-group (x, y) computes block (x, y) of C; 1: (y, x)
 *   WTM          0: work-item (tm, tn) = local id (x, y).  Else groups of 32
 *                consecutive work-items form WTM x (32/WTM) blocks of the
 *                (tm, tn) grid (warp tiling on NVIDIA)
 *   ASYNC        0, or 2..4: staged tiles (SA and SB) travel from global to
 *                local memory by cp.async (NVIDIA sm_80+: inline PTX), in a
 *                ring of ASYNC buffers, ASYNC - 1 tiles in flight while one is
 *                multiplied, and never through registers (DB is then unused).
 *                Operands read k contiguous (AIP, BIP 2) travel so too on
 *                the tensor-core path, staged as they lie (KSTAGE below);
 *                elsewhere they are transposed while staged, so a kernel
 *                for them stages through registers, as one without SA or SB
 *                does (lib/params.c's g3_params_ring passes 0 for those,
 *                and for vectors over 16 bytes)
 *   SWZ          0, or 1: staged rows of 16-byte chunks, chunk c of row k at
 *                c ^ 2 * (k % 4), so that the four rows a warp's MMA fragment
 *                loads read (or a portable k-step's neighbours) fall on
 *                distinct banks at PAD 0, where a row of 64 or 128 doubles
 *                puts them all on the same ones.  lib/params.c's
 *                g3_params_swizzled passes 1 only for staged vectors of 16
 *                bytes (VWM, VWN), PAD 0 and rows of whole groups of 8
 *   CPREF        0, or the k-tiles before its last at which a work-group
 *                prefetches its tile of C into L2 (NVIDIA: inline PTX), so
 *                that the epilogue's reads of C hit L2 instead of waiting
 *                on memory after the last product (docs/performance.md);
 *                kernels/gemm.c passes 0 where it was not measured to pay
 *   MMA          0: portable code.  1..4: NVIDIA only, fp64 tensor cores
 *                via inline PTX mma.sync of shape m8n8k4, m16n8k4, m16n8k8
 *                or m16n8k16 (one warp of 32 work-items per MDIMC unit);
 *                lib/device.c never selects it on another vendor's device.
 *   LPT          a band's map of ids to tiles (1..4: its band; set per
 *                launch by kernels/gemm.c; absent: the plain map)
 *   SNAKE        with LPT: the compute units; rounds of that many ids
 *                alternate direction (0: none)
 *   TRIMAP       a triangle's map (1, 2: its tri) on a square grid of tiles
 *                with tri_off 0: ids cover only the stored triangle
 *                (LPT, SNAKE, TRIMAP all -1: the launch's band, snake and
 *                trimap arguments say, one build for all of them)
 *   BATCHED      1: the build with the batch's arguments (kernels/gemm.c:
 *                a batch's launches, and every launch with rtmap)
 *
 * Portable work-item tile: MWI = MWG/MDIMC rows, NWI = NWG/NDIMC columns, as
 * vectors of VWM along M; work-item (tm, tn) owns the vectors
 * tm + i*MDIMC and the B vectors tn + j*NDIMC, so neighbouring work-items
 * read neighbouring addresses. */
#ifndef BATCHED
#define BATCHED 0
#endif
#ifndef LPT
#define LPT 0
#endif
#ifndef TRIMAP
#define TRIMAP 0
#endif
#ifndef SNAKE
#define SNAKE 0
#endif
/* The map's inputs: constants of the build, so that each launch's branches
 * fold away (chosen at run time in one build, the H200's S SYRK 4096 ran
 * 16-20 % slower, docs/performance.md), or with LPT -1 the launch's
 * arguments, one build for every band and triangle (CPU devices, where
 * each build costs seconds and the map nothing: docs/testing.md) */
#if LPT < 0
#define MAP_BAND band
#define MAP_TRI trimap
#define MAP_SNAKE snake
#else
#define MAP_BAND LPT
#define MAP_TRI TRIMAP
#define MAP_SNAKE SNAKE
#endif
#include "real.cl"
#include "store.cl"
#if PRECISION == 64
#define RNAME double
#else
#define RNAME float
#endif
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define UNROLL(n) PRAGMA(unroll n)

#if VWM == 1
typedef real realM;
#else
typedef CAT(RNAME, VWM) realM;
#endif
#if VWN == 1
typedef real realN;
#else
typedef CAT(RNAME, VWN) realN;
#endif
/* operands read in place with k contiguous: loads of 16 bytes along k */
#if PRECISION == 64
#define VK 2
#else
#define VK 4
#endif
typedef CAT(RNAME, VK) realK;
#if AIP == 2 && !SA
#error "A with k contiguous is read through local memory only"
#endif

/* Component-wise access to a vector through .lo/.hi, never through a
 * private array (PoCL 3.1 was seen to lose such a store):
 * SPLITn(x, f, i) calls f(component, i + component index). */
#define SPLIT1(x, f, i) f(x, i)
#define SPLIT2(x, f, i) f((x).s0, i); f((x).s1, (i) + 1)
#define SPLIT4(x, f, i) SPLIT2((x).lo, f, i); SPLIT2((x).hi, f, (i) + 2)
#define SPLIT8(x, f, i) SPLIT4((x).lo, f, i); SPLIT4((x).hi, f, (i) + 4)
#define SPLIT16(x, f, i) SPLIT8((x).lo, f, i); SPLIT8((x).hi, f, (i) + 8)
#define SPLIT(n) CAT(SPLIT, n)

/* AIP 3: an odd k-row of a complex operand's 2 x 2 form, {re, im} pairs
 * as {-im, re} (exact: only signs and places change) */
#define CROT2(v) ((real2)(-(v).s1, (v).s0))
#define CROT4(v) ((CAT(RNAME, 4))(CROT2((v).lo), CROT2((v).hi)))
#define CROT8(v) ((CAT(RNAME, 8))(CROT4((v).lo), CROT4((v).hi)))
#define CROT16(v) ((CAT(RNAME, 16))(CROT8((v).lo), CROT8((v).hi)))
#define CROW(odd, v) ((odd) ? CAT(CROT, VWM)(v) : (v))

#if MMA
#define WARP 32
#else
#define WARP 1
#endif
#define MWI (MWG / MDIMC)
#define NWI (NWG / NDIMC)
#define NT (MDIMC * NDIMC * WARP)       /* work-items per work-group */
#define AV (MWG / VWM)                  /* vectors per k-row of an A' block */
#define BV (NWG / VWN)
#define LAV ((MWG + PAD) / VWM)         /* the same rows in local memory */
#define LBV ((NWG + PAD) / VWN)
/* KSTAGE: with cp.async on the tensor-core path, an operand read k
 * contiguous (AIP, BIP 2) is staged as it lies, XWG rows of KWG values (row
 * x: column x's k-values), its 16-byte chunks c at c ^ (x % KCH) so that the
 * 8 rows an MMA fragment reads fall on distinct banks.  No transpose, so no
 * registers between global and local memory: the H100's D medium set built
 * so reads a batch's B in place at 124 registers, against 203 transposing it
 * (docs/performance.md).  Elsewhere such an operand is transposed through
 * registers, and the kernel does not use cp.async. */
#define KCH (KWG / VK < 8 ? KWG / VK : 8)
#if ASYNC && MMA && SA && SB && KWG % VK == 0 && (KWG / VK & (KWG / VK - 1)) == 0
#define KSTAGE 1
#else
#define KSTAGE 0
#endif
#if ASYNC && (!SA || !SB || ((AIP == 2 || BIP == 2) && !KSTAGE))
#undef ASYNC
#define ASYNC 0
#endif
#if AIP == 3 && (ASYNC || !SA)
#error "AIP 3 turns A's values as it stages them: a set that stages A without cp.async (routines/plan/packed.c)"
#endif
/* element (k, x) of a staged tile of A' (B'), for the MMA fragments' reads
 * by lane (g, t) (below): x % 8 is g in every fragment, k % 4 is t */
#if AIP == 2 && KSTAGE
#define LOC_A(k, x) ((x) * KWG + ((((k) / VK) ^ (g % KCH)) * VK) + (k) % VK)
#else
#define LOC_A(k, x) ((k) * (MWG + PAD) + ((x) ^ SWZ_E(t)))
#endif
#if BIP == 2 && KSTAGE
#define LOC_B(k, x) ((x) * KWG + ((((k) / VK) ^ (g % KCH)) * VK) + (k) % VK)
#else
#define LOC_B(k, x) ((k) * (NWG + PAD) + ((x) ^ SWZ_E(t)))
#endif
#if ASYNC
#define NBUF ASYNC
#else
#define NBUF (DB ? 2 : 1)
#endif
#define LA (KWG * AV / NT)              /* vectors each work-item stages */
/* SWZ: a 16-byte chunk's (vector's) place in staged row k, and a value's
 * (ELEMS per chunk) */
#define SWZ_V(k) (SWZ ? 2 * ((k) & 3) : 0)
#define SWZ_E(k) (SWZ ? 32 / (PRECISION / 8) * ((k) & 3) : 0)
#define LB (KWG * BV / NT)

#if MMA
/* One warp multiplies an MMA_M x MMA_K block of A by an MMA_K x 8 block of
 * B into an MMA_M x 8 block of C, all exact fp64.  With g = lane / 4 and
 * t = lane % 4, lane holds
 *   a[i] = A(g + 8*(i % (MMA_M/8)), t + 4*(i / (MMA_M/8))),  i < MMA_M*MMA_K/32
 *   b[i] = B(t + 4*i, g),                                     i < MMA_K/4
 *   c[i] = C(g + 8*(i / 2), 2*t + i % 2),                     i < MMA_M/4. */
#if MMA == 1
#define MMA_M 8
#define MMA_K 4
inline void mma(double *c, const double *a, const double *b)
{
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
                 : "+d"(c[0]), "+d"(c[1]) : "d"(a[0]), "d"(b[0]));
}
#elif MMA == 2
#define MMA_M 16
#define MMA_K 4
inline void mma(double *c, const double *a, const double *b)
{
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                 : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3]) : "d"(a[0]), "d"(a[1]), "d"(b[0]));
}
#elif MMA == 3
#define MMA_M 16
#define MMA_K 8
inline void mma(double *c, const double *a, const double *b)
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9},"
                 " {%0,%1,%2,%3};"
                 : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
                 : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
}
#else
#define MMA_M 16
#define MMA_K 16
inline void mma(double *c, const double *a, const double *b)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3},"
                 " {%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%0,%1,%2,%3};"
                 : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
                 : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]),
                   "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]));
}
#endif
#define FA (MMA_M * MMA_K / 32)   /* fragment elements per lane */
#define FB (MMA_K / 4)
#define FC (MMA_M / 4)
#define TM (MWI / MMA_M)          /* tensor-core tiles per warp */
#define TN (NWI / 8)
#endif

#if ASYNC
/* One staged vector (4, 8 or 16 bytes) from global to local memory without
 * passing through registers.  The local address is the shared window's
 * (what a __local pointer holds); cp.async's bytes are an immediate. */
#define CPA_STR_(x) #x
#define CPA_STR(x) CPA_STR_(x)
#define CP_ASYNC(dst, src, bytes) \
    asm volatile("cp.async.ca.shared.global [%0], [%1], " CPA_STR(bytes) ";" ::"l"((ulong)(dst)), "l"(src) : "memory")
#define CP_COMMIT() asm volatile("cp.async.commit_group;" ::: "memory")
/* this work-item's copies are in local memory but for its newest ASYNC - 2 groups */
#define CP_WAIT() asm volatile("cp.async.wait_group " CPA_STR(ASYNC_WAIT) ";" ::: "memory")
#if ASYNC == 2
#define ASYNC_WAIT 0
#elif ASYNC == 3
#define ASYNC_WAIT 1
#else
#define ASYNC_WAIT 2
#endif
/* the copies' sizes as literals (an immediate of the PTX string); k
 * contiguous, 16 bytes along k */
#if VWM * PRECISION == 128 || AIP == 2
#define BYTES_A 16
#elif VWM * PRECISION == 64
#define BYTES_A 8
#else
#define BYTES_A 4
#endif
#if VWN * PRECISION == 128 || BIP == 2
#define BYTES_B 16
#elif VWN * PRECISION == 64
#define BYTES_B 8
#else
#define BYTES_B 4
#endif
#endif

#if CPREF
/* This work-group's tile of C into L2, a line of 128 bytes per work-item
 * (each column's lines, one more where the column starts off a line) */
inline void prefetch_c(__global const real *C, const long ldc, const int M, const int N, const int m0, const int n0)
{
    const int nwi = get_local_size(0) * get_local_size(1);
    const int me = get_local_id(0) + get_local_id(1) * get_local_size(0);
    const int rows = min(MWG, M - m0), cols = min(NWG, N - n0);
    const int per = (rows * (int)sizeof(real) + 127) / 128 + 1;
    for (int l = me; l < per * cols; l += nwi) {
        const int row = min(l % per * (128 / (int)sizeof(real)), rows - 1);
        asm volatile("prefetch.L2 [%0];" ::"l"(C + m0 + row + (long)(n0 + l / per) * ldc));
    }
}
#endif

__kernel __attribute__((reqd_work_group_size(MDIMC * WARP, NDIMC, 1)))
void gemm(const int M, const int N, const int K, const real alpha0, const real beta0,
          __global const realM *restrict A, __global const realN *restrict B,
          const long aoff, const int ars, const long ablk, const long boff, const int brs, const long bblk,
          __global real *C, const long offc0, const long ldc,
          const int tri, const int tri_off, const int band, const int band_off, const int trimap,
          const int snake, const int bxb,
          const int cplx, const int kslice, const long cslice
#if BATCHED
          , const long abatch, const long bbatch, __global const long *offs, __global const real *scal
#endif
          )
{
    const int z = get_group_id(2); /* a batch's product, or a slice of K */
#if BATCHED
    /* batched GEMM (routines/plan/batched.c): layer z of work-groups is
     * product z, its A' and B' (packed, or read in place) abatch and
     * bbatch elements further, whole vectors (0: one shared by every
     * product), its C cslice elements further or at offs[4 z + 2], alpha
     * and beta scal[6 z], scal[6 z + 1] when given; a product whose alpha
     * is 0 multiplies nothing.  A build of its own on GPUs, so that one
     * call's kernel carries none of this; on CPUs (rtmap) every launch's,
     * a single call's with no offs or scal and strides 0 */
    const long offc = offs ? offs[4 * z + 2] : offc0;
    const real alpha = scal ? scal[6 * z] : alpha0, beta = scal ? scal[6 * z + 1] : beta0;
    A = (__global const realM *)((__global const real *)A + z * abatch);
    B = (__global const realN *)((__global const real *)B + z * bbatch);
#else
    const long offc = offc0;
    const real alpha = alpha0, beta = beta0;
#endif
    /* which tile this work-group computes (MAP_*, above) */
    int m0, n0;
    if (MAP_BAND) {
        /* a band: the deepest tiles first.  Depth changes by up to K from
         * one row (band 1, 2) or column (3, 4) of tiles to the next, and a
         * GPU starts work-groups in the order of their linear id: launched
         * last, the deepest ran alone at the end (docs/performance.md).
         * Consecutive work-groups share a row (column) of tiles, so they
         * read the same stripe of A' (B').  snake = P (the compute units;
         * 0: none): rounds of P ids alternate direction, so that the unit
         * that got the deepest tile of the first round gets the shallowest
         * of the second rather than the next deepest, and so on: with
         * round-robin placement every unit then gets the same work where
         * all rounds are resident at once (at most 4 rounds: every odd one
         * reversed); in a longer launch only the second round is, and the
         * rest run deepest first as units free up (docs/performance.md). */
        const int lid_g = get_group_id(0) + get_group_id(1) * get_num_groups(0);
        const int nm = get_num_groups(NFIRST ? 1 : 0), nn = get_num_groups(NFIRST ? 0 : 1);
        int rank = lid_g;
        if (MAP_SNAKE) {
            const int round = lid_g / MAP_SNAKE, rlo = round * MAP_SNAKE, rhi = min(rlo + MAP_SNAKE, nm * nn);
            if (round % 2 && (round == 1 || nm * nn <= 4 * MAP_SNAKE))
                rank = rlo + rhi - 1 - lid_g;
        }
        if (MAP_BAND <= 2) {
            m0 = (MAP_BAND == 1 ? nm - 1 - rank / nn : rank / nn) * MWG;
            n0 = rank % nn * NWG;
        } else {
            n0 = (MAP_BAND == 3 ? nn - 1 - rank / nm : rank / nm) * NWG;
            m0 = rank % nm * MWG;
        }
    } else if (MAP_TRI) {
        /* a stored triangle of a square grid of nt x nt tiles, from
         * work-group ids of one dimension (trimap = tri: tri_off 0, MWG ==
         * NWG): id L is the L-th tile of the triangle by rows of C (upper:
         * counted from the last tile back), so that no id falls in the
         * other triangle and round-robin placement gives every compute unit
         * its share (the full grid's ids of the other triangle, returning
         * at once, left some units 6 tiles and others 2:
         * docs/performance.md); consecutive ids share a row of tiles, so
         * they read one stripe of A'.  Complex (cplx: two real rows a
         * complex row, M = 2N): the triangle of nt x nt pairs of tile rows,
         * ids 2l and 2l + 1 the two tiles of pair l (the second past M
         * where 2N stops inside a pair) */
        const int cp = cplx ? 1 : 0, nt = (N + NWG - 1) / NWG, L = get_group_id(0) >> cp;
        const int T = nt * (nt + 1) / 2, l = MAP_TRI == 1 ? T - 1 - L : L;
        int r = (int)((sqrt((float)(8 * l + 1)) - 1) / 2);
        r -= r * (r + 1) / 2 > l;      /* (float rounding: at most one off) */
        r += (r + 1) * (r + 2) / 2 <= l;
        const int c = l - r * (r + 1) / 2;
        m0 = (((MAP_TRI == 1 ? nt - 1 - r : r) << cp) + (get_group_id(0) & cp)) * MWG;
        n0 = (MAP_TRI == 1 ? nt - 1 - c : c) * NWG;
        if (m0 >= M) return;
    } else {
        /* NFIRST: consecutive work-groups walk along N, sharing one A'
         * stripe (kept in a CPU core's cache while B' stripes stream past) */
        m0 = get_group_id(NFIRST ? 1 : 0) * MWG;
        n0 = get_group_id(NFIRST ? 0 : 1) * NWG;
    }
    const int cs = cplx ? 1 : 0; /* complex: rows m / 2 of C, columns k / 2 of B' */
    if (tri == 1 && (m0 >> cs) - (n0 + NWG - 1) > tri_off) return;
    if (tri == 2 && ((m0 + MWG - 1) >> cs) - n0 < tri_off) return;

    int kbeg = 0, kend = K;
    if (band == 1) kend = m0 + MWG + band_off;
    if (band == 2) kbeg = m0 + band_off;
    if (band == 3) kend = ((n0 + NWG) << cs) + band_off;
    if (band == 4) kbeg = (n0 << cs) + band_off;
    kbeg = max(kbeg, 0) / KWG * KWG;
    kend = min((kend + KWG - 1) / KWG * KWG, K);
    /* split-K: layer z of work-groups takes k in [z*kslice, (z+1)*kslice)
     * (kslice a multiple of KWG) and stores into its own matrix, cslice
     * elements further; kslice 0: no split (one layer, or a batch) */
    if (kslice) {
        kbeg = max(kbeg, z * kslice);
        kend = min(kend, z * kslice + kslice);
    }
    C += z * cslice;
#if BATCHED
    if (alpha == 0)
        kend = kbeg;
#endif

    /* this work-group's stripes of A' and B', and the vectors from one
     * k-row to the next (ARS, BRS).  Packed B' comes in blocks of bxb
     * columns: NWG, or MWG when it is A' itself (SYRK, SYR2K: the driver
     * shares the pack only when B' is read directly, without SB) */
#if AIP == 2
    __global const realK *Ab = (__global const realK *)A + aoff + (long)m0 * ars;
#elif AIP < 0
    /* packed (ablk = K * AV, ars = AV) or in place (ablk = AV, ars the
     * ld): one form, the strides arguments */
    __global const realM *Ab = A + aoff + (long)(m0 / MWG) * ablk;
#define ARS ars
#elif AIP
    __global const realM *Ab = A + aoff + m0 / VWM;
#define ARS ars
#else
    __global const realM *Ab = A + (long)m0 * K / VWM;
#define ARS AV
#endif
#if BIP == 2
    __global const realK *Bb = (__global const realK *)B + boff + (long)n0 * brs;
#elif BIP < 0
    /* packed in blocks of bxb (bblk = K * bxb / VWN, brs = bxb / VWN) or in
     * place (bxb = NWG, bblk = BV, brs the ld) */
    __global const realN *Bb = B + boff + (long)(n0 / bxb) * bblk + n0 % bxb / VWN;
#define BRS brs
#elif BIP
    __global const realN *Bb = B + boff + n0 / VWN;
#define BRS brs
#elif SB
    __global const realN *Bb = B + (long)n0 * K / VWN;
#define BRS BV
#else
    __global const realN *Bb = B + ((long)(n0 / bxb) * bxb * K + n0 % bxb) / VWN;
    const int brow = bxb / VWN;  /* vectors per k-row of a B' block */
#define BRS brow
#endif
#if SA || SB
    const int tid = get_local_id(0) + get_local_id(1) * MDIMC * WARP;
#endif
#if SA
    __local realM Al[NBUF][KWG * LAV] __attribute__((aligned(16))); /* cp.async: 16 bytes (KSTAGE) */
#endif
#if SB
    __local realN Bl[NBUF][KWG * LBV] __attribute__((aligned(16)));
#endif

#if MMA
    const int lane = get_local_id(0) % WARP, g = lane / 4, t = lane % 4;
    const int wm = (get_local_id(0) / WARP) * MWI, wn = get_local_id(1) * NWI;
    double acc[TM][TN][FC];
    UNROLL_ALL for (int i = 0; i < TM; i++)
        UNROLL_ALL for (int j = 0; j < TN; j++)
            UNROLL_ALL for (int e = 0; e < FC; e++)
                acc[i][j][e] = 0;
#else
#if WTM
    /* each group of 32 work-items (an NVIDIA warp) takes a WTM x 32/WTM
     * block of (tm, tn), so that its local-memory reads of A' and B' are
     * few distinct addresses (broadcast) rather than a long strip */
    const int lid = get_local_id(0) + get_local_id(1) * MDIMC, lane = lid % 32, warp = lid / 32;
    const int tm = warp % (MDIMC / WTM) * WTM + lane % WTM;
    const int tn = warp / (MDIMC / WTM) * (32 / WTM) + lane / WTM;
#else
    const int tm = get_local_id(0), tn = get_local_id(1);
#endif
    realM acc[NWI][MWI / VWM];
    UNROLL_ALL for (int j = 0; j < NWI; j++)
        UNROLL_ALL for (int i = 0; i < MWI / VWM; i++)
            acc[j][i] = 0;
#endif

    /* Staging: NSA values of type stageA per work-item (B: NSB, stageB).
     * Packed or m contiguous, the tile's KWG rows of AV vectors are copied
     * flat, vector f = tid + r*NT from row f / AV (packed: one contiguous
     * run, written so, or the compiler spends registers on it).  k
     * contiguous (AIP, BIP 2), the tile is XWG columns of KWG values read as
     * vectors of VK along k (vector f is vector f / XWG of column f % XWG,
     * so that neighbouring work-items store to neighbouring banks) and
     * stored transposed, one value at a time. */
#if KSTAGE
/* k contiguous, staged as it lies (KSTAGE above): vector f is vector
 * f % (KWG / VK) of column f / (KWG / VK), so that neighbouring work-items
 * read one column's 16-byte vectors, and write one staged row */
#define KV (KWG / VK)
#define FETCH_K(P, rs, k0, r) P[(long)((tid + (r) * NT) / KV) * (rs) + (k0) / VK + (tid + (r) * NT) % KV]
#define STAGE_K_AT(L, r) ((__local realK *)(L))[(tid + (r) * NT) / KV * KV + \
                                               ((tid + (r) * NT) % KV ^ (tid + (r) * NT) / KV % KCH)]
#endif
#if AIP == 2 || BIP == 2
#define FETCH_T(P, rs, XWG, k0, r) P[(long)((tid + (r) * NT) % (XWG)) * (rs) + (k0) / VK + (tid + (r) * NT) / (XWG)]
#define PUT_T(x, i) l_[((k_ + (i)) * ls_) + (c_ ^ SWZ_E(k_ + (i)))] = (x)
#define STAGE_T(L, XWG, r, v) do { \
        const int ls_ = (XWG) + PAD, k_ = ((tid + (r) * NT) / (XWG)) * VK, c_ = (tid + (r) * NT) % (XWG); \
        __local real *l_ = (__local real *)(L); \
        SPLIT(VK)(v, PUT_T, 0); \
    } while (0)
#endif
#if AIP == 2 && KSTAGE
#define NSA (MWG * KWG / VK / NT)
#define FETCH_A(k0, r) FETCH_K(Ab, ars, k0, r)
#define STAGE_A_AT(buf, r) STAGE_K_AT(Al[buf], r)
#elif AIP == 2
#define NSA (MWG * KWG / VK / NT)
#define stageA realK
#define FETCH_A(k0, r) FETCH_T(Ab, ars, MWG, k0, r)
#define STAGE_A(buf, k0, r, v) STAGE_T(Al[buf], MWG, r, v)
#else
#define NSA LA
#define stageA realM
#define STAGE_A_AT(buf, r) Al[buf][((tid + (r) * NT) / AV) * LAV + ((tid + (r) * NT) % AV ^ SWZ_V((tid + (r) * NT) / AV))]
#define STAGE_A(buf, k0, r, v) STAGE_A_AT(buf, r) = (v)
#if AIP == 3
/* (staged sets only, k0 even: KWG is, routines/plan/packed.c) */
#define FETCH_A(k0, r) CROW((tid + (r) * NT) / AV % 2, \
                            (Ab + (long)(k0) / 2 * ars)[(tid + (r) * NT) / AV / 2 * ars + (tid + (r) * NT) % AV])
#elif AIP
#define FETCH_A(k0, r) (Ab + (long)(k0) * ars)[(tid + (r) * NT) / AV * ars + (tid + (r) * NT) % AV]
#else
#define FETCH_A(k0, r) Ab[(long)(k0) * AV + tid + (r) * NT]
#endif
#endif
#if BIP == 2 && KSTAGE
#define NSB (NWG * KWG / VK / NT)
#define FETCH_B(k0, r) FETCH_K(Bb, brs, k0, r)
#define STAGE_B_AT(buf, r) STAGE_K_AT(Bl[buf], r)
#elif BIP == 2
#define NSB (NWG * KWG / VK / NT)
#define stageB realK
#define FETCH_B(k0, r) FETCH_T(Bb, brs, NWG, k0, r)
#define STAGE_B(buf, k0, r, v) STAGE_T(Bl[buf], NWG, r, v)
#else
#define NSB LB
#define stageB realN
#define STAGE_B_AT(buf, r) Bl[buf][((tid + (r) * NT) / BV) * LBV + ((tid + (r) * NT) % BV ^ SWZ_V((tid + (r) * NT) / BV))]
#define STAGE_B(buf, k0, r, v) STAGE_B_AT(buf, r) = (v)
#if BIP
#define FETCH_B(k0, r) (Bb + (long)(k0) * brs)[(tid + (r) * NT) / BV * brs + (tid + (r) * NT) % BV]
#else
#define FETCH_B(k0, r) Bb[(long)(k0) * BV + tid + (r) * NT]
#endif
#endif

    /* With DB, tile t+1 is fetched into registers while tile t is being
     * multiplied, and stored to the other buffer at the top of the next
     * pass: the one barrier per tile then also guarantees that nobody still
     * reads that buffer (its last readers were two passes ago). */
#if SA && DB && !ASYNC
    stageA ra[NSA];
    UNROLL_ALL for (int r = 0; r < NSA; r++) ra[r] = FETCH_A(kbeg < kend ? kbeg : 0, r);
#endif
#if SB && DB && !ASYNC
    stageB rb[NSB];
    UNROLL_ALL for (int r = 0; r < NSB; r++) rb[r] = FETCH_B(kbeg < kend ? kbeg : 0, r);
#endif

#if ASYNC
    /* tile s of the ring in buffer s % ASYNC; the first ASYNC - 1 set out now.
     * Every pass commits a group, empty or not, so that the wait's count holds. */
#define ISSUE(buf, k0) do { \
        UNROLL_ALL for (int r = 0; r < NSA; r++) CP_ASYNC(&STAGE_A_AT(buf, r), &FETCH_A(k0, r), BYTES_A); \
        UNROLL_ALL for (int r = 0; r < NSB; r++) CP_ASYNC(&STAGE_B_AT(buf, r), &FETCH_B(k0, r), BYTES_B); \
    } while (0)
    UNROLL_ALL for (int s = 0; s < ASYNC - 1; s++) {
        if (kbeg + s * KWG < kend) ISSUE(s, kbeg + s * KWG);
        CP_COMMIT();
    }
#endif
#if CPREF
    const int kpref = kend - CPREF * KWG > kbeg ? kend - CPREF * KWG : kbeg;
#endif
    for (int k0 = kbeg; k0 < kend; k0 += KWG) {
#if CPREF
        if (beta != 0 && k0 <= kpref && k0 + KWG > kpref)
            prefetch_c(C + offc, ldc, M, N, m0, n0);
#endif
#if ASYNC
        /* this tile landed (this work-item's copies, then everyone's), and
         * every work-item is done with the last pass's buffer, which the
         * tile ASYNC - 1 ahead now refills */
        const int buf = (k0 - kbeg) / KWG % ASYNC;
        CP_WAIT();
        barrier(CLK_LOCAL_MEM_FENCE);
        if (k0 + (ASYNC - 1) * KWG < kend) ISSUE((buf + ASYNC - 1) % ASYNC, k0 + (ASYNC - 1) * KWG);
        CP_COMMIT();
#elif SA || SB
#if DB
        const int buf = (k0 - kbeg) / KWG % 2;
        /* the last pass re-fetches its own tile rather than branch around the loads */
        const int knext = k0 + KWG < kend ? k0 + KWG : k0;
#else
        const int buf = 0;
#endif
#if SA && DB
        UNROLL_ALL for (int r = 0; r < NSA; r++) STAGE_A(buf, k0, r, ra[r]);
#elif SA
        UNROLL_ALL for (int r = 0; r < NSA; r++) STAGE_A(buf, k0, r, FETCH_A(k0, r));
#endif
#if SB && DB
        UNROLL_ALL for (int r = 0; r < NSB; r++) STAGE_B(buf, k0, r, rb[r]);
#elif SB
        UNROLL_ALL for (int r = 0; r < NSB; r++) STAGE_B(buf, k0, r, FETCH_B(k0, r));
#endif
        barrier(CLK_LOCAL_MEM_FENCE);
#if SA && DB
        UNROLL_ALL for (int r = 0; r < NSA; r++) ra[r] = FETCH_A(knext, r);
#endif
#if SB && DB
        UNROLL_ALL for (int r = 0; r < NSB; r++) rb[r] = FETCH_B(knext, r);
#endif
#endif

#if MMA
        /* one warp: MWI x NWI of C as TM x TN tensor-core tiles */
        UNROLL(KWI) for (int kk = 0; kk < KWG; kk += MMA_K) {
            /* staged in vectors, read as doubles */
            __local const double *As = (__local const double *)Al[buf], *Bs = (__local const double *)Bl[buf];
            double a[TM][FA], b[TN][FB];
            UNROLL_ALL for (int i = 0; i < TM; i++)
                UNROLL_ALL for (int e = 0; e < FA; e++)
                    a[i][e] = As[LOC_A(kk + t + 4 * (e / (MMA_M / 8)), wm + i * MMA_M + g + 8 * (e % (MMA_M / 8)))];
            UNROLL_ALL for (int j = 0; j < TN; j++)
                UNROLL_ALL for (int e = 0; e < FB; e++)
                    b[j][e] = Bs[LOC_B(kk + t + 4 * e, wn + j * 8 + g)];
            UNROLL_ALL for (int i = 0; i < TM; i++)
                UNROLL_ALL for (int j = 0; j < TN; j++)
                    mma(acc[i][j], a[i], b[j]);
        }
#else
        UNROLL(KWI) for (int kk = 0; kk < KWG; kk++) {
            realM a[MWI / VWM];
            real b[NWI];
            UNROLL_ALL for (int i = 0; i < MWI / VWM; i++)
#if SA
                a[i] = Al[buf][kk * LAV + ((tm + i * MDIMC) ^ SWZ_V(kk))];
#else
                a[i] = Ab[(long)(k0 + kk) * ARS + tm + i * MDIMC];
#endif
            UNROLL_ALL for (int j = 0; j < NWI / VWN; j++) {
#if BIP == 2 && !SB
                /* k contiguous, not staged (the CPU rows): each of the
                 * work-item's columns is one stream along k */
                UNROLL_ALL for (int w = 0; w < VWN; w++)
                    b[j * VWN + w] = ((__global const real *)Bb)[(long)((tn + j * NDIMC) * VWN + w) * brs * VK +
                                                                 k0 + kk];
#else
#if SB
                const realN v = Bl[buf][kk * LBV + ((tn + j * NDIMC) ^ SWZ_V(kk))];
#else
                const realN v = Bb[(long)(k0 + kk) * BRS + tn + j * NDIMC];
#endif
#define SET_B(x, w) b[w] = (x)
                SPLIT(VWN)(v, SET_B, j * VWN);
#endif
            }
            UNROLL_ALL for (int j = 0; j < NWI; j++)
                UNROLL_ALL for (int i = 0; i < MWI / VWM; i++)
                    acc[j][i] = MAC(a[i], (realM)b[j], acc[j][i]);
        }
#endif

#if (SA || SB) && !DB && !ASYNC
        barrier(CLK_LOCAL_MEM_FENCE);
#endif
    }

#if MMA
    UNROLL_ALL for (int i = 0; i < TM; i++)
        UNROLL_ALL for (int j = 0; j < TN; j++)
            UNROLL_ALL for (int e = 0; e < FC; e++)
                store(C, offc, ldc, M, N, tri, tri_off, cplx, m0 + wm + i * MMA_M + g + 8 * (e / 2),
                      n0 + wn + j * 8 + 2 * t + e % 2, alpha, beta, acc[i][j][e]);
#else
    UNROLL_ALL for (int jv = 0; jv < NWI / VWN; jv++)
        UNROLL_ALL for (int jw = 0; jw < VWN; jw++) {
            const int j = jv * VWN + jw, n = n0 + (tn + jv * NDIMC) * VWN + jw;
            UNROLL_ALL for (int i = 0; i < MWI / VWM; i++) {
                const int m = m0 + (tm + i * MDIMC) * VWM;
#define STORE_C(x, mm) store(C, offc, ldc, M, N, tri, tri_off, cplx, mm, n, alpha, beta, x)
#if VWM > 1 && CVEC
                /* a whole vector inside C and inside the stored triangle (its
                 * first and last rows are): one load and one store (vloadn,
                 * vstoren need only the element's alignment).  Complex (cplx):
                 * the rows' complex rows m / 2, and with cplx 2 none of them on
                 * the diagonal, whose imaginary part store() zeroes */
                const int mc0 = m >> cs, mc1 = (m + VWM - 1) >> cs;
                if (n < N && m + VWM <= M && in_tri(tri, tri_off, mc0, n) && in_tri(tri, tri_off, mc1, n) &&
                    !(cplx == 2 && mc0 - n <= tri_off && mc1 - n >= tri_off)) {
                    __global real *c = C + offc + m + n * ldc;
                    realM v = alpha * acc[j][i];
                    if (beta != 0)
                        v += beta * CAT(vload, VWM)(0, c);
                    CAT(vstore, VWM)(v, 0, c);
                } else
#endif
                {
                    SPLIT(VWM)(acc[j][i], STORE_C, m);
                }
            }
        }
#endif
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GPU_MSM_RUN_CUH
#define CUZK_GPU_MSM_RUN_CUH

/*
 * Host side of the device MSM and batch addition, written once against an "executor" E so the
 * same driver runs the kernels on a device (gm_dev_exec in src/gpu/msm_dev.cuh) or as plain
 * loops on the host (gm_host_exec below: CPU emulation of every kernel with the device field
 * code, which src/gpu/fp.cuh makes host-callable; tests/gpu/msm_emu.cu uses it).
 *
 * E provides: ok(); alloc<T>(count) (NULL for count 0 or on failure, which ok() then reports);
 * release(p); zero(p, bytes); copy(dst, src, bytes) (device to device); d2h(dst, src, bytes);
 * compute_done() (marks the end of the kernels); mark(phase) (optional profile);
 * launch<Body>(args, count, rows); wave<Body>() (threads of Body resident at once, 0 = unknown)
 * and block() (threads per block); sort_pairs(k0, k1, v0, v1, n, bits) -> 0 when the sorted pairs
 * are in (k0, v0), 1 when in (k1, v1); budget() (bytes of working memory the call may use).
 *
 * The algorithm is described in src/gpu/msm_kernels.cuh. Window width, chunk lengths and the
 * number of windows processed at once (bounded by memory) are chosen here; the windows' sums
 * come back to the host, which combines them (Horner) with the host's group law.
 */

#include "gpu/msm_kernels.cuh"

#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

/* Level-0 chunk (points per thread), later levels, reduction segment, sums per thread. With the
 * grid in whole waves (gm_chunks), L0 = 256 beat 64 / 128 / 384 / 512 at 2^24 (H200, runs
 * W1-W6): the later levels' slots shrink 4x (accum1 3.4 -> 1.4 ms over precomputed bases) for
 * ~1.2 ms more level-0 time; L1 = 8 beat 4 / 16 / 32; S = 64 beat 24 ... 128 in one reduction
 * pass (two passes: gm_plan_window); K = 2 beat 4 / 8 / 16 (the sums' passes are latency-bound:
 * 15 passes of 2 additions are shorter than 5 of 8).
 * docs/PERFORMANCE.md "GPU MSM"; env CUZK_GPU_MSM_CHUNK, _L1, _SEG and _SUMK override. */
#define GM_L0 256
#define GM_L1 8
#define GM_SEG 64 /* G1 in one pass; G2, and G1 in two, use half */
#define GM_SUMK 2
#define GM_MAX_WINDOW 23
/* Widest window over precomputed rows: with few rows, c = 24 saves a window at 2^27 (11 of 24
 * bits instead of 12 of 22) for 2^23 buckets per set. */
#define GM_MAX_PRE_WINDOW 26
/* Up to GM_SMALL_N points (snarkjs-sized keys) an MSM is bound by the latency of its serial
 * chains (a thread's 64-point chunk, a 64-bucket segment's running sum), not by its additions:
 * windows of 8 bits and chunks and segments of 8 took G1 2^10 / 2^12 / 2^14 / 2^16 from 3.15 /
 * 3.26 / 3.95 / 4.45 ms to 0.96 / 1.10 / 1.80 / 2.68 ms and G2 from 7.63 / 7.91 / 9.06 / 10.15 to
 * 2.89 / 3.17 / 4.37 / 7.05 ms on the H200 (docs/PERFORMANCE.md, "Small device MSMs"). */
#define GM_SMALL_N ((size_t)1 << 16)
#define GM_SMALL_C 8
#define GM_SMALL_CHUNK 8

/* Phases of the optional profile (env CUZK_GPU_MSM_PROFILE=1, src/gpu/msm_dev.cuh). */
enum { GM_PH_DIGITS, GM_PH_SORT, GM_PH_ACCUM0, GM_PH_ACCUM1, GM_PH_REDUCE, GM_PH_END, GM_PH_COUNT };

typedef struct {
    unsigned c, nwin, group; /* window width, windows, windows per pass */
    size_t nb, nseg;         /* buckets per window, reduction segments per window */
    size_t nseg2;            /* segments of the second reduction pass (0: one pass) */
    uint32_t L0, L1, S, K;
    /* Doublings between consecutive windows in the combination: c, or c rows when a window is
     * a group of |rows| digit windows over precomputed rows (gm_plan_merged); |dwin| digit
     * windows in all (= nwin when not merged). */
    unsigned shift, dwin;
} gm_plan;

static inline size_t gm_div_up(size_t a, size_t b)
{
    return (a + b - 1) / b;
}

static inline unsigned gm_env_uint(const char *name, unsigned dflt)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return dflt;
    return (unsigned)strtoul(s, NULL, 10);
}

/*
 * Window width for |n| points: minimises windows x (n x A + buckets x R + O) with A = 10
 * (one mixed addition), R = 40 (running sum and segment combination per bucket, at lower
 * parallel efficiency) and O = 3e5 (per-window sort and launch overhead), all in field
 * multiplications. Gives c = 16 at 2^20, 20 at 2^24 and 2^26, 22 at 2^27 (measured there, H200:
 * kernels 1276.8 / 1283.3 / 1227.8 / 1264.9 ms for c = 20 / 21 / 22 / 23); up to GM_SMALL_N
 * points GM_SMALL_C instead (above). Env
 * CUZK_GPU_MSM_WINDOW overrides.
 */
static inline unsigned gm_window(size_t n)
{
    unsigned forced = gm_env_uint("CUZK_GPU_MSM_WINDOW", 0);
    if (forced >= 2 && forced <= GM_MAX_WINDOW)
        return forced;
    if (n <= GM_SMALL_N)
        return GM_SMALL_C;
    unsigned best = 2;
    double best_cost = -1;
    for (unsigned c = 2; c <= 22; c++) {
        double nwin = (double)((255 + c - 1) / c);
        double cost = nwin * ((double)n * 10.0 + (double)((size_t)1 << (c - 1)) * 40.0 + 3e5);
        if (best_cost < 0 || cost < best_cost) {
            best_cost = cost;
            best = c;
        }
    }
    return best;
}

/*
 * Chunks per row of a grid of |rows| rows over |m| items, about |L| items each: ceil(m / L),
 * lowered when the grid spans more than one |wave| of resident threads (blocks of |block|) so
 * that it ends on a whole wave instead of running a last partial wave with most SMs idle (G1
 * 2^24 over precomputed bases, L0 = 256: 15.5 waves of 50,688 threads on the H200; whole waves
 * took level 0 from 80.39 to 80.01 ms, run W2). The chunks become at most 1/waves longer, never
 * more numerous, so the slot lists' sizes (gm_level_out) stay upper bounds. Their lengths then
 * differ by one, and a warp runs as long as its longest lane: worth it for long chunks only (at
 * L0 = 64, 64 or 65 entries cost 1.1 ms more than the partial wave, run W1). Env
 * CUZK_GPU_MSM_WAVES=0 turns it off (A/B measurements).
 */
static inline size_t gm_chunks(size_t m, unsigned rows, uint32_t L, size_t wave, size_t block)
{
    size_t base = gm_div_up(m, L);
    if (!wave || !block || !rows || gm_env_uint("CUZK_GPU_MSM_WAVES", 1) == 0)
        return base;
    size_t waves = rows * (gm_div_up(base, block) * block) / wave;
    if (!waves)
        return base;
    size_t per = waves * wave / rows / block * block;
    if (!per)
        return base;
    return per < base ? per : base;
}

/* Entries per row of the slot list a level of |ch| chunks writes (0 for one chunk: it is the
 * last level). */
static inline size_t gm_slots(size_t ch)
{
    return ch > 1 ? 2 * ch : 0;
}

/* The same for chunks of |L| of |m| items. */
static inline size_t gm_level_out(size_t m, uint32_t L)
{
    return gm_slots(gm_div_up(m, L));
}

/* Results per window of the reduction's segment passes, which gm_sum adds up. */
static inline size_t gm_red_items(const gm_plan *p)
{
    return p->nseg + p->nseg2;
}

/* Device bytes one pass over |g| windows needs (keys/values twice, slot lists, buckets,
 * reduction), plus a margin for the sort's temporary storage. */
template <class G> static size_t gm_pass_bytes(const gm_plan *p, size_t n, unsigned g)
{
    typedef typename gm_pt<typename G::F>::X X;
    size_t om0 = gm_level_out(n, p->L0), om1 = gm_level_out(om0, p->L1);
    const size_t m0 = gm_red_items(p);
    size_t per = 16 * n + (om0 + om1) * (sizeof(X) + 4) + p->nb * sizeof(X) +
                 (m0 + (p->nseg2 ? p->nseg : 0) + 2 * gm_div_up(m0, p->K)) * sizeof(X);
    return per * g + n / 2 + (64u << 20);
}

/* Precomputed bases (gm_precompute): window width c, rows of stride bases each (row j: 2^(c j)
 * times row 0), rows <= ceil(255 / c). */
struct gm_pre {
    size_t stride;
    unsigned c, rows;
};

/* Window width c (bucket count, chunk lengths and reduction segments from it) of a plan; |small|
 * for the small-n chunks and segments (GM_SMALL_N). */
template <class G> static void gm_plan_window(gm_plan *p, unsigned c, bool small)
{
    p->c = c;
    p->shift = c;
    p->dwin = (255 + c - 1) / c;
    p->nb = (size_t)1 << (c - 1);
    p->L0 = gm_env_uint("CUZK_GPU_MSM_CHUNK", small ? GM_SMALL_CHUNK : GM_L0);
    if (p->L0 < 2)
        p->L0 = 2;
    p->L1 = gm_env_uint("CUZK_GPU_MSM_L1", GM_L1); /* env: tuning */
    p->L1 = p->L1 < 3 ? 3 : p->L1; /* a chunk of 2 would give 2 slots: no progress */
    /* The segments' lo R_t in a second pass (gm_bucket_seg) instead of by double-and-add in each
     * segment: G1 above GM_SMALL_N only, with segments of 32 (H100, run I2: the H MSM's shape,
     * 2^27 over 4 rows, reduction 38.4 -> 34.9 ms; G1 2^24 9.43 -> 9.08 ms). G2's second pass,
     * ~1,000 serial chains of its slower additions, cost more than it saved (2^21: 7.5 -> 10.0
     * ms at S = 16 or 32) and a small MSM's extra launch more than its few doublings. Env
     * CUZK_GPU_MSM_RED2=0/1 forces it off/on (A/B runs, tests). */
    const bool g2 = sizeof(typename G::F::T) > 48;
    const bool two = gm_env_uint("CUZK_GPU_MSM_RED2", !small && !g2) != 0;
    /* One pass: G2 keeps S = 32 (at 2^20 its reduction took 8.1 ms with 32 and 12.9 ms with 64),
     * G1 64; two passes: 32 (the first pass is the larger, and twice the threads hide more). */
    const uint32_t seg0 = small ? GM_SMALL_CHUNK : g2 || two ? GM_SEG / 2 : GM_SEG;
    uint32_t seg = gm_env_uint("CUZK_GPU_MSM_SEG", seg0);
    seg = seg < 1 ? 1 : seg;
    p->S = p->nb < seg ? (uint32_t)p->nb : seg;
    p->K = gm_env_uint("CUZK_GPU_MSM_SUMK", GM_SUMK); /* env: tuning */
    p->K = p->K < 2 ? 2 : p->K;
    p->nseg = gm_div_up(p->nb, p->S);
    p->nseg2 = two && p->nseg > 1 ? gm_div_up(p->nseg - 1, p->S) : 0;
}

/* The plan of an MSM over |rows| precomputed rows (gm_precompute) of c-bit windows: window k
 * of the plan is one bucket set over the entries (j, point) of digit windows k rows + j, j <
 * rows; ceil(nw / rows) such windows, combined with c rows doublings between them. All nw rows:
 * one window, one reduction, no doublings. */
template <class G> static void gm_plan_merged(gm_plan *p, unsigned c, unsigned rows)
{
    gm_plan_window<G>(p, c, false);
    if (rows < 1 || rows > p->dwin)
        rows = p->dwin;
    p->nwin = (p->dwin + rows - 1) / rows;
    p->shift = c * rows;
    p->group = 1;
}

/* Window width for |rows| precomputed rows over |n| points, between 8 and |cmax| bits:
 * minimises nw n A + sets R (gm_window's cost per entry A and per bucket set R), one bucket set
 * per group of |rows| digit windows (0: all rows, one set). All rows: c = 19 at 2^20, 20 at
 * 2^22, 22 at 2^24 and 2^26 with cmax 23 (the best of c = 20 .. 23 measured at 2^24,
 * docs/PERFORMANCE.md "Precomputed multiples of resident bases"). With few rows the best width
 * is the smallest that saves a window (2^27, 4 rows: c = 24, 11 windows in 3 sets of 2^23
 * buckets against c = 22's 12 windows in 12 sets of 2^21). */
static inline unsigned gm_window_rows(size_t n, unsigned rows, unsigned cmax)
{
    unsigned best = 8;
    double best_cost = -1;
    for (unsigned c = 8; c <= cmax; c++) {
        unsigned nw = (255 + c - 1) / c, sets = rows ? (nw + rows - 1) / rows : 1;
        double cost = (double)nw * (double)n * 10.0 +
                      (double)sets * ((double)((size_t)1 << (c - 1)) * 40.0 + 3e5);
        if (best_cost < 0 || cost < best_cost) {
            best_cost = cost;
            best = c;
        }
    }
    return best;
}

template <class G> static void gm_plan_make(gm_plan *p, size_t n, size_t budget)
{
    gm_plan_window<G>(p, gm_window(n), n <= GM_SMALL_N);
    p->nwin = (255 + p->c - 1) / p->c;
    unsigned g = p->nwin;
    while (g > 1 && gm_pass_bytes<G>(p, n, g) > budget)
        g--;
    p->group = g;
}

/*
 * The window sums of an MSM over device bases and device (Montgomery) scalars (|n| entries;
 * with |d_idx|, entry i is base d_idx[i] and scalar d_idx[i], or scalar i when |compact|; else
 * base and scalar i): on success
 * |wins| (host memory, nwin x 4 x F::LIMBS limbs, host XYZZ layout) holds window w's sum
 * sum_b (b+1) B_b at index w. Returns false on an executor failure.
 * With |merge| > 0 (precomputed bases: |merge| rows of |stride| bases in |d_bases|, a plan
 * from gm_plan_merged with the same rows): digit window k merge + j < p->dwin of scalar i is an
 * entry of the plan's window k, base i + j |stride|, and a window's (up to) merge n entries are
 * sorted, accumulated and reduced together.
 */
template <class G, class E>
static bool gm_msm_windows(E &ex, uint64_t *wins, const gm_plan *p, const uint8_t *d_bases,
                           const uint64_t *d_scalars, size_t ns, const uint32_t *d_idx = NULL,
                           bool compact = false, unsigned merge = 0, size_t stride = 0)
{
    typedef typename G::F F;
    typedef typename gm_pt<F>::X X;
    const unsigned G_ = merge ? 1 : p->group;
    const size_t n = merge ? (size_t)merge * ns : ns; /* entries per window, at most */
    const size_t om0 = gm_level_out(n, p->L0), om1 = gm_level_out(om0, p->L1);
    const size_t m0 = gm_red_items(p), tmpn = gm_div_up(m0, p->K);
    X *d_wins = ex.template alloc<X>(p->nwin);
    uint64_t *d_winh = ex.template alloc<uint64_t>((size_t)p->nwin * 4 * F::LIMBS);
    uint32_t *k0 = ex.template alloc<uint32_t>(G_ * n), *k1 = ex.template alloc<uint32_t>(G_ * n);
    uint32_t *v0 = ex.template alloc<uint32_t>(G_ * n), *v1 = ex.template alloc<uint32_t>(G_ * n);
    uint32_t *pk[2] = {ex.template alloc<uint32_t>(G_ * om0),
                       ex.template alloc<uint32_t>(G_ * om1)};
    X *pi[2] = {ex.template alloc<X>(G_ * om0), ex.template alloc<X>(G_ * om1)};
    X *bk = ex.template alloc<X>(G_ * p->nb);
    X *segs = p->nseg > 1 ? ex.template alloc<X>(G_ * m0) : NULL;
    X *runs = p->nseg2 ? ex.template alloc<X>(G_ * p->nseg) : NULL;
    X *tmp[2] = {NULL, NULL};
    if (p->nseg > 1) {
        tmp[0] = ex.template alloc<X>(G_ * tmpn);
        tmp[1] = ex.template alloc<X>(G_ * tmpn);
    }
    for (unsigned w0 = 0; w0 < p->nwin && ex.ok(); w0 += G_) {
        unsigned nw = p->nwin - w0 < G_ ? p->nwin - w0 : G_;
        /* merged: this window's digit windows (the last group may have fewer) */
        const unsigned dw0 = merge ? w0 * merge : w0,
                       dn = merge ? std::min(merge, p->dwin - dw0) : nw;
        const size_t nh = merge ? (size_t)dn * ns : n; /* entries of each window of the pass */
        /* 1. digits (merged: the dn windows of each scalar, rows of ns = one row of nh) */
        typename gm_digits<G>::Args da = {
            d_scalars, d_bases, ns, p->c, dw0, dn, k0, v0, d_idx, compact, merge ? stride : 0};
        ex.mark(GM_PH_DIGITS);
        ex.template launch<gm_digits<G>>(da, ns, 1);
        ex.mark(GM_PH_SORT);
        /* 2. sort each window's pairs by key */
        int sel = -1;
        for (unsigned g = 0; g < nw; g++) {
            size_t o = (size_t)g * n;
            int s = ex.sort_pairs(k0 + o, k1 + o, v0 + o, v1 + o, nh, p->c);
            if (sel < 0)
                sel = s;
            else if (s != sel) { /* keep every window in the same buffer */
                ex.copy(sel ? k1 + o : k0 + o, s ? k1 + o : k0 + o, nh * 4);
                ex.copy(sel ? v1 + o : v0 + o, s ? v1 + o : v0 + o, nh * 4);
            }
        }
        const uint32_t *ks = sel == 1 ? k1 : k0, *vs = sel == 1 ? v1 : v0;
        /* 3. accumulation, level 0 then slot lists until one chunk per window */
        ex.mark(GM_PH_ACCUM0);
        ex.zero(bk, (size_t)nw * p->nb * sizeof(X));
        size_t m;
        {
            size_t ch = gm_chunks(nh, nw, p->L0, ex.template wave<gm_accum<G, true>>(), ex.block());
            m = gm_slots(ch); /* <= om0 */
            typename gm_accum<G, true>::Args aa = {
                ks, vs, NULL, d_bases, nh, ch, bk, p->nb, m ? pk[0] : NULL, pi[0], m};
            ex.template launch<gm_accum<G, true>>(aa, ch, nw);
        }
        ex.mark(GM_PH_ACCUM1);
        int cur = 0;
        while (m > 0 && ex.ok()) {
            size_t ch = gm_div_up(m, p->L1), om = gm_slots(ch);
            typename gm_accum<G, false>::Args aa = {
                pk[cur],     NULL, pi[cur], NULL, m, ch, bk, p->nb, om ? pk[cur ^ 1] : NULL,
                pi[cur ^ 1], om};
            ex.template launch<gm_accum<G, false>>(aa, ch, nw);
            m = om;
            cur ^= 1;
        }
        /* 4. window sums: segments, then sums of K until one per window */
        ex.mark(GM_PH_REDUCE);
        X *out0 = p->nseg > 1 ? segs : d_wins + w0;
        typename gm_bucket_seg<G>::Args ba = {bk,   p->nb, p->nb,   p->S, out0, m0,
                                              runs, p->nseg, 1};
        ex.template launch<gm_bucket_seg<G>>(ba, p->nseg, nw);
        if (p->nseg2) { /* S sum_t t R_t: R_1 .. R_(nseg-1) as buckets 0 .. nseg-2 */
            typename gm_bucket_seg<G>::Args b2 = {
                runs, p->nseg - 1, p->nseg, p->S, segs + p->nseg, m0, NULL, 0, p->S};
            ex.template launch<gm_bucket_seg<G>>(b2, p->nseg2, nw);
        }
        const X *in = out0;
        m = m0;
        int t = 0;
        while (m > 1 && ex.ok()) {
            size_t om = gm_div_up(m, p->K);
            X *out = om == 1 ? d_wins + w0 : tmp[t];
            typename gm_sum<G>::Args sa = {in, m, p->K, out, om};
            ex.template launch<gm_sum<G>>(sa, om, nw);
            in = out;
            m = om;
            t ^= 1;
        }
    }
    ex.mark(GM_PH_END);
    typename gm_to_host<G>::Args ta = {d_wins, d_winh};
    ex.template launch<gm_to_host<G>>(ta, p->nwin, 1);
    ex.compute_done();
    ex.d2h(wins, d_winh, (size_t)p->nwin * 4 * F::LIMBS * 8);
    void *all[] = {d_wins, d_winh, k0, k1,   v0,   v1,     pk[0], pk[1],
                   pi[0],  pi[1],  bk, segs, runs, tmp[0], tmp[1]};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        ex.release(all[i]);
    return ex.ok();
}

/* Sum of the selected device bases (bitmap on the device), in host XYZZ layout in |out|. */
template <class G, class E>
static bool gm_batch_add(E &ex, uint64_t *out, const uint8_t *d_bases, const uint64_t *d_bitmap,
                         size_t n)
{
    typedef typename G::F F;
    typedef typename gm_pt<F>::X X;
    size_t nwords = gm_div_up(n, 64);
    /* Words per thread: enough threads to fill a large device, a few words each (env
     * CUZK_GPU_BADD_WORDS, 1 .. 64, overrides for tuning and tests). */
    uint32_t W = nwords >= (1u << 20) ? 4 : nwords >= (1u << 16) ? 2 : 1;
    unsigned we = gm_env_uint("CUZK_GPU_BADD_WORDS", 0);
    if (we >= 1 && we <= 64)
        W = we;
    /* W words per thread, not gm_chunks's whole waves: W or W + 1 words made most warps run
     * W + 1 words' bits (partition batch_add 68.7 -> 71.5 ms, msm_b_g2 82 -> 87 ms, run W7). */
    size_t nt = gm_div_up(nwords, W);
    /* Balanced (default; env CUZK_GPU_BADD_BALANCE=0: W words per thread): the same count of
     * set bits per thread, so the thread count can be whole waves again. */
    const bool bal = gm_env_uint("CUZK_GPU_BADD_BALANCE", 1) != 0;
    uint32_t *pre = NULL, *blk = NULL;
    if (bal) {
        size_t wave = ex.template wave<gm_badd_bal<G>>();
        size_t whole = wave && nt > wave ? (nt + wave / 2) / wave * wave : nt;
        if (whole <= nwords) /* the workspace holds nwords thread sums */
            nt = whole;
        size_t nblk = gm_div_up(nwords, GM_POPC_BLK);
        pre = ex.template alloc<uint32_t>(nwords + 1);
        blk = ex.template alloc<uint32_t>(nblk);
        gm_popc_pass::Args pa = {d_bitmap, n, nwords, blk, pre, 0};
        ex.template launch<gm_popc_pass>(pa, nblk, 1);
        gm_popc_scan::Args sa = {blk, nblk, pre + nwords};
        ex.template launch<gm_popc_scan>(sa, 1, 1);
        pa.pass = 2;
        ex.template launch<gm_popc_pass>(pa, nblk, 1);
    }
    X *a = ex.template alloc<X>(nt), *b = ex.template alloc<X>(gm_div_up(nt, GM_SUMK));
    uint64_t *h = ex.template alloc<uint64_t>(4 * F::LIMBS);
    if (bal) {
        typename gm_badd_bal<G>::Args ba = {d_bitmap, n, nwords, pre, nt, d_bases, a};
        ex.template launch<gm_badd_bal<G>>(ba, nt, 1);
    } else {
        typename gm_badd<G>::Args ba = {d_bitmap, n, nwords, W, d_bases, a};
        ex.template launch<gm_badd<G>>(ba, nt, 1);
    }
    X *in = a, *spare = b;
    size_t m = nt;
    while (m > 1 && ex.ok()) {
        size_t om = gm_div_up(m, GM_SUMK);
        typename gm_sum<G>::Args sa = {in, m, GM_SUMK, spare, om};
        ex.template launch<gm_sum<G>>(sa, om, 1);
        X *t = in;
        in = spare;
        spare = t;
        m = om;
    }
    typename gm_to_host<G>::Args ta = {in, h};
    ex.template launch<gm_to_host<G>>(ta, 1, 1);
    ex.compute_done();
    ex.d2h(out, h, 4 * F::LIMBS * 8);
    ex.release(a);
    ex.release(b);
    ex.release(h);
    ex.release(pre);
    ex.release(blk);
    return ex.ok();
}

/* ---- CPU emulation executor ------------------------------------------------------------- */

struct gm_host_exec {
    bool ok() const
    {
        return true;
    }
    template <class T> T *alloc(size_t count)
    {
        return count ? (T *)calloc(count, sizeof(T)) : NULL;
    }
    void release(void *p)
    {
        free(p);
    }
    void zero(void *p, size_t bytes)
    {
        if (bytes)
            memset(p, 0, bytes);
    }
    void copy(void *d, const void *s, size_t bytes)
    {
        memmove(d, s, bytes);
    }
    void compute_done()
    {
    }
    void mark(int)
    {
    }
    void d2h(void *d, const void *s, size_t bytes)
    {
        memcpy(d, s, bytes);
    }
    template <class B> void launch(const typename B::Args &a, size_t count, unsigned rows)
    {
        for (unsigned r = 0; r < rows; r++)
            for (size_t t = 0; t < count; t++)
                B::run(a, t, r);
    }
    /* Emulated waves (0: none), so that tests reach gm_chunks's uneven chunks on the host. */
    size_t host_wave = 0;
    template <class B> size_t wave() const
    {
        return host_wave;
    }
    size_t block() const
    {
        return 4;
    }
    int sort_pairs(uint32_t *k0, uint32_t *k1, uint32_t *v0, uint32_t *v1, size_t n, unsigned)
    {
        std::vector<size_t> idx(n);
        for (size_t i = 0; i < n; i++)
            idx[i] = i;
        std::stable_sort(idx.begin(), idx.end(), [&](size_t x, size_t y) { return k0[x] < k0[y]; });
        for (size_t i = 0; i < n; i++) {
            k1[i] = k0[idx[i]];
            v1[i] = v0[idx[i]];
        }
        return 1;
    }
    size_t budget() const
    {
        return (size_t)1 << 40;
    }
};

/* ---- host combination ------------------------------------------------------------------- */

/* out = sum_w 2^(w shift) W_w by Horner, with the host group law of |G| (HX: host XYZZ type). */
template <class HJ, class HX>
static void gm_combine(HJ *out, const uint64_t *wins, const gm_plan *p,
                       void (*xyzz_to_jac)(HJ *, const HX *), void (*dbl)(HJ *, const HJ *),
                       void (*add)(HJ *, const HJ *, const HJ *), void (*set_inf)(HJ *),
                       bool (*is_inf)(const HJ *))
{
    HJ acc, t;
    set_inf(&acc);
    for (unsigned w = p->nwin; w-- > 0;) {
        if (!is_inf(&acc))
            for (unsigned i = 0; i < p->shift; i++)
                dbl(&acc, &acc);
        HX x;
        memcpy(&x, wins + (size_t)w * (sizeof(HX) / 8), sizeof x);
        xyzz_to_jac(&t, &x);
        add(&acc, &acc, &t);
    }
    *out = acc;
}

#endif

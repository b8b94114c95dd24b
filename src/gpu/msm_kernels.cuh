/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GPU_MSM_KERNELS_CUH
#define CUZK_GPU_MSM_KERNELS_CUH

/*
 * The per-thread bodies of the device MSM and batch addition (src/gpu/msm_run.cuh drives them).
 * Each body is a struct with an Args type and run(args, t, row), called once per thread index
 * t < count and row < rows: on the device through k_gm_body (a row per blockIdx.y), and on the
 * host by a plain loop (CPU emulation of the kernels, used to test the algorithm without a
 * device). Template parameter G is a group: typedef F (field ops, src/gpu/fp2.cuh), AFF_BYTES
 * (stride of the host's affine struct) and INF_OFF (offset of its infinity flag).
 *
 * Pipeline of one MSM (facts/gpu-techniques.md section 1 and 6: signed digits, sort by bucket,
 * XYZZ buckets, running-sum reduction):
 *  0. (sparse scalars, src/gpu/msm_dev.cuh) the indices of the non-zero scalars are selected
 *     first when they are at most half of n; the steps below then run over that list only.
 *  1. gm_digits: scalar i -> canonical, flipped when above (r-1)/2, then for each window of the
 *     group a (key, value) pair: key = |digit| (0 = nothing to add, else bucket key - 1), value =
 *     i | sign << 31 (sign = digit sign xor flip). Bases at infinity get key 0 everywhere.
 *  2. CUB radix sort of each window's pairs by key (c bits).
 *  3. gm_accum (level 0, affine items): the sorted list of a window is cut into chunks of about
 *     L entries, one per thread (as many as make whole waves of resident threads: gm_chunks,
 *     src/gpu/msm_run.cuh). A thread sums the runs of equal keys inside its chunk. A run that
 *     lies wholly in the chunk (the neighbouring entries outside the chunk have other keys) is a
 *     complete bucket and is stored at once; a run touching a chunk edge is partial and goes to
 *     one of the chunk's two output slots (first run: slot 0, last run: slot 1; unused slots get
 *     (key, infinity), which keeps the slot list sorted by key). The slot list is the same
 *     problem again with XYZZ items, 2/L as long, and goes through gm_accum (level >= 1) until a
 *     window fits one chunk. A bucket is complete at exactly one level; at every other level its
 *     key carries only infinities, which are never stored, so every bucket is written once (the
 *     bucket array starts zeroed = infinity). Any bucket size works: all-equal scalars make one
 *     bucket of n points that is summed by n/L threads, then n/L^2, ...
 *  4. gm_bucket_seg: window sum  W = sum_b (b+1) B_b  over segments of S buckets: per segment the
 *     running sum from the top gives T_t = sum (b - lo + 1) B_b and R_t = sum B_b, lo = t S. The
 *     rest, sum_t lo R_t = S sum_t t R_t, is the same problem over the R_t: a second pass of
 *     gm_bucket_seg over them (its own segments few enough for double-and-add), times S; gm_sum
 *     then adds the T_t and the second pass's results (K per thread, a few passes).
 *  5. The host combines the window sums (Horner, c doublings per window).
 */

#include <stddef.h>
#include <stdint.h>

#include "gpu/fp_inv.cuh"
#include "gpu/msm_scalar.cuh"
#include "gpu/point.cuh"

#define GM_NONE 0xffffffffu
/* GM_PREFETCH = 1: G1 level 0 loads the next base during the current addition. Off by default
 * (src/gpu/msm_dev.cuh): its 24 registers are worth more as a third resident block per SM. */
#ifndef GM_PREFETCH
#define GM_PREFETCH 0
#endif

/* GM_PRE_INV_FERMAT = 1: gm_precompute inverts by exponentiation instead of the binary GCD. */
#ifndef GM_PRE_INV_FERMAT
#define GM_PRE_INV_FERMAT 0
#endif

/* GM_GATHER_CS = 1: the bases are gathered with the evict-first (streaming) cache hint. A
 * gathered point is read once per entry, while the sorted keys and values each thread walks
 * through are read sector by sector and should stay in L1 for its next entries. Measured on the
 * H200 (runs W1-W4): level 0 -0.4 ms at L0 = 64, -0.1 ms (within noise) at L0 = 256. */
#ifndef GM_GATHER_CS
#define GM_GATHER_CS 1
#endif

/* Affine base |i| of the host array (x then y, host limb layout), negated when |neg|. */
template <class G>
GM_HD void gm_load_base(gm_aff<typename G::F> &a, const uint8_t *bases, size_t i, uint32_t neg)
{
    typedef typename G::F F;
    const uint64_t *p = (const uint64_t *)(bases + i * G::AFF_BYTES);
#if defined(__CUDA_ARCH__) && GM_GATHER_CS
    uint64_t w[2 * F::LIMBS];
#pragma unroll
    for (unsigned j = 0; j < 2 * F::LIMBS; j++)
        w[j] = __ldcs((const unsigned long long *)p + j);
    p = w;
#endif
    F::load(a.x, p);
    F::load(a.y, p + F::LIMBS);
    if (neg)
        F::neg(a.y, a.y);
}

template <class G> GM_HD bool gm_base_is_inf(const uint8_t *bases, size_t i)
{
    return bases[i * G::AFF_BYTES + G::INF_OFF] != 0;
}

/* ---- 1. digits --------------------------------------------------------------------------- */

template <class G> struct gm_digits {
    struct Args {
        const uint64_t *scalars; /* Montgomery Fr, 4 limbs each */
        const uint8_t *bases;    /* for the infinity flags */
        size_t n;
        unsigned c, w0, nw;  /* window width, first window of the group, windows in the group */
        uint32_t *keys;      /* [nw][n] */
        uint32_t *vals;      /* [nw][n] */
        const uint32_t *idx; /* NULL, or entry e is base idx[e] (and scalar idx[e] ...) */
        bool compact;        /* ... unless compact: then scalar e */
        size_t stride;       /* precomputed bases: window g's base is i + g stride (else 0) */
    };
    static GM_HD void run(const Args &a, size_t e, unsigned)
    {
        size_t i = a.idx ? a.idx[e] : e;
        const uint64_t *sc = a.scalars + 4 * (a.compact ? e : i);
        uint64_t k[4];
        for (int j = 0; j < 4; j++)
            k[j] = sc[j];
        uint32_t flip = 0;
        if (gm_base_is_inf<G>(a.bases, i)) {
            k[0] = k[1] = k[2] = k[3] = 0;
        } else {
            gm_fr_canonical(k);
            flip = gm_fr_flip(k);
        }
        for (unsigned g = 0; g < a.nw; g++) {
            int32_t d = gm_digit(k, a.w0 + g, a.c);
            uint32_t neg = (d < 0) ^ flip;
            a.keys[g * a.n + e] = (uint32_t)(d < 0 ? -d : d);
            a.vals[g * a.n + e] = (uint32_t)(i + g * a.stride) | (neg << 31);
        }
    }
};

/* ---- 3. bucket accumulation -------------------------------------------------------------- */

/* AFF: level 0 (items are signed base indices), else items are XYZZ points. */
template <class G, bool AFF> struct gm_accum {
    typedef typename G::F F;
    typedef gm_pt<F> P;
    typedef typename P::X X;
    struct Args {
        const uint32_t *keys; /* [rows][m], sorted within a row */
        const uint32_t *vals; /* AFF: [rows][m] signed base indices */
        const X *items;       /* !AFF: [rows][m] */
        const uint8_t *bases; /* AFF */
        size_t m;
        size_t nch; /* chunks per row: chunk t is [t m / nch, (t + 1) m / nch), nch <= m */
        X *buckets; /* [rows][nb]: bucket key - 1 */
        size_t nb;
        uint32_t *okeys; /* [rows][om] slots, om = 2 * chunks; NULL when one chunk */
        X *oitems;
        size_t om;
    };

    static GM_HD void slot(const Args &a, unsigned row, size_t s, uint32_t key, const X &v)
    {
        a.okeys[row * a.om + s] = key;
        a.oitems[row * a.om + s] = v;
    }

    static GM_HD void slot_inf(const Args &a, unsigned row, size_t s, uint32_t key)
    {
        a.okeys[row * a.om + s] = key;
        X *o = &a.oitems[row * a.om + s];
        F::zero(o->zz);
        F::zero(o->zzz);
    }

    static GM_HD void run(const Args &a, size_t t, unsigned row)
    {
        size_t lo = t * a.m / a.nch, hi = (t + 1) * a.m / a.nch;
        const uint32_t *keys = a.keys + row * a.m;
        uint32_t prev = lo ? keys[lo - 1] : GM_NONE, next = hi < a.m ? keys[hi] : GM_NONE;
        bool wrote0 = false, wrote1 = false;
        X acc;
        P::set_inf(acc);
        uint32_t cur = keys[lo];
        size_t s = lo;
        /* G1 level 0: the base of entry j + 1 is loaded while entry j is added, so the random
         * read overlaps an addition (G2 has no registers to spare for it). */
        constexpr bool PREFETCH = GM_PREFETCH && AFF && sizeof(typename F::T) <= 48;
        gm_aff<F> qn;
        if constexpr (PREFETCH) {
            if (keys[lo]) {
                uint32_t v = a.vals[row * a.m + lo];
                gm_load_base<G>(qn, a.bases, v & 0x7fffffffu, v >> 31);
            }
        }
        for (size_t j = lo; j <= hi; j++) {
            uint32_t k = j < hi ? keys[j] : GM_NONE;
            if (k != cur) {
                /* Flush the run [s, j) of key cur. */
                bool head = s == lo, tail = j == hi;
                bool complete = (!head || prev != cur) && (!tail || next != cur);
                if (complete) {
                    if (cur != 0 && !P::is_inf(acc))
                        a.buckets[row * a.nb + cur - 1] = acc;
                } else if (head) {
                    slot(a, row, 2 * t, cur, acc);
                    wrote0 = true;
                } else {
                    slot(a, row, 2 * t + 1, cur, acc);
                    wrote1 = true;
                }
                if (j == hi)
                    break;
                cur = k;
                s = j;
                P::set_inf(acc);
            }
            if constexpr (PREFETCH) {
                gm_aff<F> q = qn;
                if (j + 1 < hi && keys[j + 1]) {
                    uint32_t v = a.vals[row * a.m + j + 1];
                    gm_load_base<G>(qn, a.bases, v & 0x7fffffffu, v >> 31);
                }
                if (k != 0)
                    P::add_aff(acc, q);
                continue;
            }
            if (k == 0)
                continue;
            if constexpr (AFF) {
                uint32_t v = a.vals[row * a.m + j];
                gm_aff<F> q;
                gm_load_base<G>(q, a.bases, v & 0x7fffffffu, v >> 31);
                P::add_aff(acc, q);
            } else {
                P::add(acc, a.items[row * a.m + j]);
            }
        }
        if (a.okeys) {
            if (!wrote0)
                slot_inf(a, row, 2 * t, keys[lo]);
            if (!wrote1)
                slot_inf(a, row, 2 * t + 1, keys[hi - 1]);
        }
    }
};

/* ---- 4. bucket reduction ----------------------------------------------------------------- */

template <class G> struct gm_bucket_seg {
    typedef gm_pt<typename G::F> P;
    typedef typename P::X X;
    struct Args {
        const X *buckets; /* [rows][bstride], nb of them used */
        size_t nb, bstride;
        uint32_t S;
        X *out; /* out[row * ostride + t] */
        size_t ostride;
        /* Two levels (non-NULL): segment t's run goes to runs[row * rstride + t - 1] (t >= 1)
         * and its lo * R is left to a second pass over the runs, which sums t R_t as buckets;
         * NULL: lo * R is added here by double-and-add. */
        X *runs;
        size_t rstride;
        uint32_t post; /* the segment's result times post (the second pass: S) when > 1 */
    };
    static GM_HD void run(const Args &a, size_t t, unsigned row)
    {
        size_t lo = t * a.S, hi = lo + a.S < a.nb ? lo + a.S : a.nb;
        const X *b = a.buckets + row * a.bstride;
        X run, tot, m;
        P::set_inf(run);
        P::set_inf(tot);
        for (size_t i = hi; i-- > lo;) {
            P::add(run, b[i]);
            P::add(tot, run);
        }
        if (a.runs) {
            if (t)
                a.runs[row * a.rstride + t - 1] = run;
        } else if (lo && !P::is_inf(run)) {
            P::mul_small(m, run, (uint32_t)lo);
            P::add(tot, m);
        }
        if (a.post > 1 && !P::is_inf(tot)) {
            P::mul_small(m, tot, a.post);
            tot = m;
        }
        a.out[row * a.ostride + t] = tot;
    }
};

/* out[row][t] = sum of in[row][tK .. tK + K). */
template <class G> struct gm_sum {
    typedef gm_pt<typename G::F> P;
    typedef typename P::X X;
    struct Args {
        const X *in;
        size_t m;
        uint32_t K;
        X *out;
        size_t om;
    };
    static GM_HD void run(const Args &a, size_t t, unsigned row)
    {
        size_t lo = t * a.K, hi = lo + a.K < a.m ? lo + a.K : a.m;
        X acc;
        P::set_inf(acc);
        for (size_t i = lo; i < hi; i++)
            P::add(acc, a.in[row * a.m + i]);
        a.out[row * a.om + t] = acc;
    }
};

/* Device points -> host XYZZ layout (x, y, zz, zzz, fully reduced limbs). */
template <class G> struct gm_to_host {
    typedef typename G::F F;
    typedef typename gm_pt<F>::X X;
    struct Args {
        const X *in;
        uint64_t *out;
    };
    static GM_HD void run(const Args &a, size_t t, unsigned)
    {
        uint64_t *o = a.out + t * 4 * F::LIMBS;
        const X &p = a.in[t];
        F::store(o, p.x);
        F::store(o + F::LIMBS, p.y);
        F::store(o + 2 * F::LIMBS, p.zz);
        F::store(o + 3 * F::LIMBS, p.zzz);
    }
};

/* ---- precomputed multiples of resident bases (G1) ----------------------------------------- */

/* Row j < nw of the table (rows of n entries, the host affine layout) holds 2^(c j) P for base
 * P = bases[t]; row 0 is P itself. With window g's digit of scalar i added to base (g, i), an
 * MSM over all windows becomes one window of nw n entries: one sort, one bucket set, one
 * reduction and no doublings between windows (facts/gpu-techniques.md section 6, item 2). An
 * infinity base is infinity in every row. */
template <class G> struct gm_precompute {
    typedef typename G::F F;
    typedef typename F::T E;
    typedef gm_pt<F> P;
    typedef typename P::X X;
    static_assert(sizeof(E) == 48, "gm_precompute: G1 only (the inversion is Fp's)");
    struct Args {
        const uint8_t *bases;
        uint8_t *table;
        size_t n;
        unsigned c, nw;
    };

    /* r = a^-1 for a != 0: the binary GCD of src/gpu/fp_inv.cuh (~68 products' time on an
     * H100), or with GM_PRE_INV_FERMAT (a variant build, for A/B runs) a^(p - 2) by square and
     * multiply from bit 380, p's top bit (~440 products); the exponentiation also takes over
     * should the GCD ever report that its rounds did not end at b = 1. */
    static GM_HD void inv(E &r, const E &a)
    {
#if !GM_PRE_INV_FERMAT
        if (gm_fp_inv::inv(r, a))
            return;
#endif
        r = a;
        for (int bit = 379; bit >= 0; bit--) {
            uint32_t w = fp_params::m(bit >> 5) - (bit < 32 ? 2u : 0u); /* p - 2: no borrow */
            F::sqr(r, r);
            if ((w >> (bit & 31)) & 1)
                F::mul(r, r, a);
        }
    }

    static GM_HD void put(const Args &a, unsigned j, size_t t, const E &x, const E &y, bool inf)
    {
        uint8_t *o = a.table + ((size_t)j * a.n + t) * G::AFF_BYTES;
        uint64_t *l = (uint64_t *)o;
        if (inf) {
            for (unsigned i = 0; i < 2 * F::LIMBS; i++)
                l[i] = 0;
        } else {
            F::store(l, x);
            F::store(l + F::LIMBS, y);
        }
        for (size_t b = G::INF_OFF; b < G::AFF_BYTES; b++)
            o[b] = 0;
        o[G::INF_OFF] = inf ? 1 : 0;
    }

    static GM_HD void run(const Args &a, size_t t, unsigned)
    {
        const bool inf = gm_base_is_inf<G>(a.bases, t);
        gm_aff<F> q;
        X acc;
        if (inf) {
            F::zero(q.x);
            F::zero(q.y);
            P::set_inf(acc);
        } else {
            gm_load_base<G>(q, a.bases, t, 0);
            P::from_aff(acc, q);
        }
        put(a, 0, t, q.x, q.y, inf);
        for (unsigned j = 1; j < a.nw; j++) {
            for (unsigned k = 0; k < a.c; k++)
                P::dbl(acc, acc);
            const bool pinf = P::is_inf(acc);
            E x, y;
            F::zero(x);
            F::zero(y);
            if (!pinf) { /* x = X / ZZ, y = Y / ZZZ with one inversion of ZZ ZZZ */
                E z, zi;
                F::mul(z, acc.zz, acc.zzz);
                inv(zi, z);
                F::mul(x, acc.x, zi);
                F::mul(x, x, acc.zzz);
                F::mul(y, acc.y, zi);
                F::mul(y, y, acc.zz);
            }
            put(a, j, t, x, y, pinf);
        }
    }
};

/* ---- batch addition over a bitmap -------------------------------------------------------- */

GM_HD unsigned gm_ctz64(uint64_t x)
{
#ifdef __CUDA_ARCH__
    return (unsigned)(__ffsll((long long)x) - 1);
#else
    return (unsigned)__builtin_ctzll(x);
#endif
}

/* Word |w| of the bitmap with the bits past n cleared. */
GM_HD uint64_t gm_bm_word(const uint64_t *bm, size_t w, size_t nwords, size_t n)
{
    uint64_t b = bm[w];
    if (w + 1 == nwords && (n & 63))
        b &= ((uint64_t)1 << (n & 63)) - 1;
    return b;
}

/* Thread t sums the selected bases of bitmap words [tW, tW + W). One loop over the thread's
 * set bits, not one per word: a warp then runs as many additions as its busiest lane has bits in
 * all W words, instead of the sum over words of the busiest lane's bits in each (at ~50 %
 * density, 64-bit words: ~14 % above the mean against ~27 % with W = 4). */
template <class G> struct gm_badd {
    typedef gm_pt<typename G::F> P;
    typedef typename P::X X;
    /* acc += base i, unless it is at infinity (also gm_badd_bal's step). */
    static GM_HD void add_base(X &acc, const uint8_t *bases, size_t i)
    {
        if (gm_base_is_inf<G>(bases, i))
            return;
        gm_aff<typename G::F> q;
        gm_load_base<G>(q, bases, i, 0);
        P::add_aff(acc, q);
    }
    struct Args {
        const uint64_t *bitmap;
        size_t n, nwords;
        uint32_t W;
        const uint8_t *bases;
        X *out;
    };
    static GM_HD void run(const Args &a, size_t t, unsigned)
    {
        size_t w0 = t * a.W, w1 = w0 + a.W < a.nwords ? w0 + a.W : a.nwords;
        X acc;
        P::set_inf(acc);
        size_t w = w0;
        uint64_t bits = 0;
        for (;;) {
            while (!bits && w < w1)
                bits = gm_bm_word(a.bitmap, w++, a.nwords, a.n);
            if (!bits)
                break;
            size_t i = (w - 1) * 64 + gm_ctz64(bits);
            bits &= bits - 1;
            add_base(acc, a.bases, i);
        }
        a.out[t] = acc;
    }
};

/* ---- balanced batch addition: every thread the same number of set bits --------------------- */

#define GM_POPC_BLK 256 /* bitmap words per block of the prefix count */

GM_HD unsigned gm_popc64(uint64_t x)
{
#ifdef __CUDA_ARCH__
    return (unsigned)__popcll(x);
#else
    return (unsigned)__builtin_popcountll(x);
#endif
}

/*
 * The exclusive prefix count of set bits per word, in three passes: gm_popc_pass (pass 0: each
 * thread sums the bits of its block of GM_POPC_BLK words into blk[t]; pass 2: each thread writes
 * pre[w] for its block's words from blk[t]), and gm_popc_scan between them (one thread turns blk
 * into its exclusive prefix and writes the total to pre[nwords]). Set-bit ranks fit 32 bits: n
 * is below 2^32 wherever the device MSMs run.
 */
struct gm_popc_pass {
    struct Args {
        const uint64_t *bitmap;
        size_t n, nwords;
        uint32_t *blk, *pre;
        unsigned pass;
    };
    static GM_HD void run(const Args &a, size_t t, unsigned)
    {
        size_t w0 = t * GM_POPC_BLK, w1 = w0 + GM_POPC_BLK < a.nwords ? w0 + GM_POPC_BLK : a.nwords;
        uint32_t s = a.pass ? a.blk[t] : 0;
        for (size_t w = w0; w < w1; w++) {
            if (a.pass)
                a.pre[w] = s;
            s += gm_popc64(gm_bm_word(a.bitmap, w, a.nwords, a.n));
        }
        if (!a.pass)
            a.blk[t] = s;
    }
};

struct gm_popc_scan {
    struct Args {
        uint32_t *blk;
        size_t nblk;
        uint32_t *total;
    };
    static GM_HD void run(const Args &a, size_t, unsigned)
    {
        uint32_t s = 0;
        for (size_t i = 0; i < a.nblk; i++) {
            uint32_t v = a.blk[i];
            a.blk[i] = s;
            s += v;
        }
        *a.total = s;
    }
};

/*
 * Thread t of nt sums the set bits of ranks [t T / nt, (t + 1) T / nt), T the total: the word
 * holding its first rank by binary search over pre, then bit by bit. With a fixed count of words
 * per thread (gm_badd) a warp waits for its busiest lane (at half density, 256 bits per thread:
 * ~13 % above the mean); here every lane has the same count of additions, bar bases at infinity.
 */
template <class G> struct gm_badd_bal {
    typedef gm_pt<typename G::F> P;
    typedef typename P::X X;
    struct Args {
        const uint64_t *bitmap;
        size_t n, nwords;
        const uint32_t *pre; /* [nwords + 1], pre[nwords] = total */
        size_t nt;
        const uint8_t *bases;
        X *out;
    };
    static GM_HD void run(const Args &a, size_t t, unsigned)
    {
        const uint64_t total = a.pre[a.nwords];
        uint64_t lo = t * total / a.nt, cnt = (t + 1) * total / a.nt - lo;
        X acc;
        P::set_inf(acc);
        if (cnt) {
            size_t l = 0, h = a.nwords; /* pre[l] <= lo < pre[h] */
            while (h - l > 1) {
                size_t mid = l + (h - l) / 2;
                if (a.pre[mid] <= lo)
                    l = mid;
                else
                    h = mid;
            }
            size_t w = l;
            uint64_t bits = gm_bm_word(a.bitmap, w, a.nwords, a.n);
            for (uint64_t k = lo - a.pre[w]; k; k--)
                bits &= bits - 1;
            for (; cnt; cnt--) {
                while (!bits)
                    bits = gm_bm_word(a.bitmap, ++w, a.nwords, a.n);
                size_t i = w * 64 + gm_ctz64(bits);
                bits &= bits - 1;
                gm_badd<G>::add_base(acc, a.bases, i);
            }
        }
        a.out[t] = acc;
    }
};

#endif

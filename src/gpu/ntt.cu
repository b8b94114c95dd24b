/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Fr NTT on the device: the same transforms as src/poly (bit-exact; both root families), built from
 * one kernel that runs a group of radix-2 stages of a recursive four-step in shared memory.
 *
 * Layout (the CPU's four-step of src/poly/poly_internal.h, applied recursively). A natural ->
 * bit-reversed DIF of n = 2^L is split into passes of k_0 + ... + k_{P-1} = L bits. Pass p works on
 * independent sub-problems of R = 2^(k_p + s_p) elements (s_p = L - k_0 - ... - k_p, the log of
 * the stride S): element (top, q, low) sits at top * R + q * S + low, q < 2^k_p, low < S. The
 * pass does a DIF of length 2^k_p over q for every (top, low), with the roots of order 2^k_p, then
 * multiplies (top, q, low) by omega_R^(low * bitrev_k(q)) (Bailey's twiddle "diagonal"; none when
 * S = 1). The last pass (S = 1) leaves every element at its radix-2 DIF position, i.e. the output
 * in bit-reversed order. The bit-reversed -> natural DIT is the transpose: the passes in reverse
 * order, each the diagonal first, then a DIT of length 2^k_p. A block holds 2^k_p x W elements
 * (W adjacent columns low, so that loads come in runs of W x 32 bytes) in shared memory:
 * 2^10 elements and at most 8 bits per pass by default (NTT_*_DEFAULT below), so 2^27 is
 * 7 + 7 + 7 + 6 bits: four passes over the data plus one bit reversal where the CPU API asks for
 * natural order. Inside a pass the stages run two at a time in registers (radix 4, ntt_round),
 * so the block's data crosses shared memory once per two stages; the bit reversal swaps 16 x 16
 * tiles through shared memory (k_bitrev_tiled) so that device memory sees 512-byte runs.
 *
 * Roots come from one table per domain, half[i] = omega^i for i < n/2 (omega^(i + n/2) =
 * -omega^i; inverse roots are omega^(n - i)); the butterflies of variant 6 read a second one, the
 * 2^11 roots of order 2^12 each way as plain values with their Shoup quotients; scalings by
 * K * s^i (coset shifts, 1/n, 1/Z) from two small tables lo[i mod 2^12] * hi[i >> 12] with K
 * folded into hi, applied at the load of a DIF's first pass or at the store of a DIT's last pass,
 * so they cost no extra pass. The H chain (cuzk_poly_h) runs a to-coset transform per vector
 * (DIF inverse, (1/n) g^bitrev(p) at position p, DIT forward: no bit reversal), computes
 * a*b - c in the store of c's last pass, and for bellperson finishes with a bit reversal and a DIT
 * inverse scaled by g^-i / (n Z).
 *
 * Cost: (n/2) L multiplications for the butterflies (stage h = 1 has none), n per diagonal, 2n per
 * scaling; memory: 2 x 32 n bytes per pass, plus 32 n for a diagonal's root reads.
 */
#include "gpu/fr_mul_r.cuh"
#include "gpu/fr_shoup.cuh"
#include "gpu/gpu_internal.cuh"

#include <stdlib.h>

/* Defaults of the pass kernels, from `cuzk-bench ntt --backend cuda --log-n 27 --filter=sweep` and
 * `--filter=sweepr` on the H200 (docs/PERFORMANCE.md, "GPU NTT (issue 4)", "Fr multiplication
 * specialised to r" and "Register rounds and a tiled bit reversal"): the multiplication
 * specialised to r in the even/odd form (variant 5, fr_mul_r.cuh; 46.0 ms against 58.4 ms for the
 * 64-bit CIOS of variant 1) for every product, except that the butterflies' products by the pass
 * twiddles use Shoup's method with precomputed quotients (variant 6, fr_shoup.cuh: 38.5 against
 * 40.7 ms, "Shoup's products by the twiddles"); 2^10-element blocks (32 KiB of shared memory) of
 * at most 8 bits per pass (2^27 = 7 + 7 + 7 + 6), 128 threads, stages in register rounds of 2
 * (40.6 against 41.8 ms for one stage per trip through shared memory; rounds of 3 need 160
 * registers and took 45 ms), twiddle-major order for one-stage trips (the first choice, variant 3
 * with 10 bits, 2^11 and 512 threads, took 69.1 ms). Each has an environment override read at
 * every call (CUZK_GPU_MONT, CUZK_GPU_NTT_KMAX, CUZK_GPU_NTT_LOGE, CUZK_GPU_NTT_THREADS,
 * CUZK_GPU_NTT_JMAJOR, CUZK_GPU_NTT_RADIX, and CUZK_GPU_NTT_BITREV=0 for the naive bit reversal)
 * for tuning; tests/unit/test_gpu_ntt.c checks that none changes a result. */
#define NTT_THREADS 512    /* the most threads a block may have (launch bound) */
#define NTT_THREADS_RX 128 /* the same for the register-round kernels */
#define NTT_MINB_RX2 7     /* blocks of NTT_THREADS_RX per SM for radix 4: <= 73 registers */
/* The same for variant 6: <= 85 registers (36 KiB of shared memory per block allow 6 anyway). */
#define NTT_MINB_RX2_V6 6
#define NTT_THREADS_DEFAULT 128
#define NTT_LOGE_DEFAULT 10
#define NTT_KMAX_DEFAULT 8
#define NTT_JMAJOR_DEFAULT 1
#define NTT_RADIX_DEFAULT 2
#define NTT_MONT_DEFAULT 6
#define SCALE_LO_BITS 12
#define SCALE_LO (1u << SCALE_LO_BITS)

/* ---- device helpers ------------------------------------------------------------------------ */

__device__ __forceinline__ fr_dev ld_fr(const fr_dev *p)
{
    const ulonglong2 *q = reinterpret_cast<const ulonglong2 *>(p);
    ulonglong2 a = q[0], b = q[1];
    fr_dev r;
    r.l[0] = a.x;
    r.l[1] = a.y;
    r.l[2] = b.x;
    r.l[3] = b.y;
    return r;
}

__device__ __forceinline__ void st_fr(fr_dev *p, const fr_dev &v)
{
    ulonglong2 *q = reinterpret_cast<ulonglong2 *>(p);
    q[0] = make_ulonglong2(v.l[0], v.l[1]);
    q[1] = make_ulonglong2(v.l[2], v.l[3]);
}

/* The multiplication of the pass kernels, by variant: 1..3 of mont.cuh, 4 and 5 the Fr-specific
 * ones of fr_mul_r.cuh (4: variant 1 without the q multiplication and one product of q * r per
 * row; 5: the same on 32-bit words in mont.cuh's even/odd form; 6: 5 here, Shoup's products in
 * twmul below); the kernels are instantiated for all six so that `cuzk-bench ntt --backend cuda`
 * can compare them (env CUZK_GPU_MONT). Every multiplication of the H chain but the butterflies'
 * (diagonals, the scalings by 1/n, g^i and 1/Z, the a*b - c epilogue) goes through this. */
template <int V> __device__ __forceinline__ void fmul(fr_dev *o, const fr_dev *a, const fr_dev *b)
{
    uint32_t x[8], y[8], r[8];
    fr_to_words_(x, a);
    fr_to_words_(y, b);
    if (V == 1)
        fr_mont::mul_u64(r, x, y);
    else if (V == 2)
        fr_mont::mul_wide(r, x, y);
    else if (V == 4)
        fr_mul_r(r, x, y);
    else if (V == 5 || V == 6)
        fr_mul_r_eo(r, x, y);
    else
        fr_mont::mul_chain(r, x, y);
    fr_from_words_(o, r);
}

/* v * w for a butterfly's twiddle w = tw[i]: variant 6 multiplies by Shoup's method (fr_shoup.cuh)
 * with the plain root at tw[i] and its companion at tw[i + hk]; the others by fmul<V>. */
template <int V>
__device__ __forceinline__ void twmul(fr_dev &v, const fr_dev *tw, unsigned i, unsigned hk)
{
    fr_dev w = ld_fr(tw + i);
    if constexpr (V == 6) {
        fr_dev wq = ld_fr(tw + hk + i);
        uint32_t x[8], y[8], z[8];
        fr_to_words_(x, &v);
        fr_to_words_(y, &w);
        fr_to_words_(z, &wq);
        fr_mul_shoup(x, x, y, z);
        fr_from_words_(&v, x);
    } else {
        (void)hk;
        fmul<V>(&v, &v, &w);
    }
}

/* omega^e (or omega^-e when |inv|) from half[i] = omega^i, i < n/2, n = 2^L, e < n. */
__device__ __forceinline__ fr_dev root_pow(const fr_dev *half, unsigned L, uint32_t e, int inv)
{
    const uint32_t n = 1u << L, hn = n >> 1;
    if (inv)
        e = (n - e) & (n - 1);
    if (e < hn)
        return ld_fr(half + e);
    fr_dev w = ld_fr(half + (e - hn));
    fr_neg_dev(&w, &w);
    return w;
}

__device__ __forceinline__ uint32_t brev_bits(uint32_t i, unsigned bits)
{
    return bits ? __brev(i) >> (32 - bits) : 0;
}

/* A scaling by K * s^i at index i: mode 1 constant K; mode 2 lo[i mod 2^12] * hi[i >> 12] at the
 * natural index; mode 3 the same at bitrev_L(index). */
struct scale_desc {
    int mode;
    fr_dev k;
    const fr_dev *lo, *hi;
};

template <int V>
__device__ __forceinline__ void apply_scale(fr_dev &v, const scale_desc &sc, uint32_t idx,
                                            unsigned L)
{
    if (sc.mode == 1) {
        fmul<V>(&v, &v, &sc.k);
        return;
    }
    uint32_t i = sc.mode == 3 ? brev_bits(idx, L) : idx;
    fr_dev f = ld_fr(sc.lo + (i & (SCALE_LO - 1)));
    fr_dev h = ld_fr(sc.hi + (i >> SCALE_LO_BITS));
    fmul<V>(&f, &f, &h);
    fmul<V>(&v, &v, &f);
}

struct pass_desc {
    unsigned L;  /* log n */
    unsigned k;  /* bits of this pass */
    unsigned s;  /* log stride */
    unsigned lw; /* log columns per block */
    int inv;     /* inverse roots */
    int jmajor;  /* butterfly order: 0 pairs in q order, 1 twiddle index slowest (see below) */
    const fr_dev *half;
    /* variant 6: the pass twiddles as (plain root, companion) pairs of order 2^shoup_log */
    const fr_dev *shoup;
    unsigned shoup_log;
    scale_desc in, out;
    /* Epilogue (DIT only): when |ea| is set, the store writes ea[i] * eb[i] - v to ea[i]. */
    fr_dev *ea;
    const fr_dev *eb;
};

/* Element q of column col of a pass: its address, and its transformation on the way in (the
 * scaling |in|; for a DIT the diagonal first) and out (for a DIF the diagonal last; the scaling
 * |out|; the a * b - v epilogue). */
__device__ __forceinline__ uint32_t pass_addr(const pass_desc &p, uint32_t q, uint32_t col)
{
    return ((col >> p.s) << (p.s + p.k)) | (q << p.s) | (col & ((1u << p.s) - 1));
}

template <bool DIT, int V>
__device__ __forceinline__ fr_dev pass_load(const fr_dev *x, const pass_desc &p, uint32_t q,
                                            uint32_t col)
{
    const uint32_t addr = pass_addr(p, q, col), low = col & ((1u << p.s) - 1);
    fr_dev v = ld_fr(x + addr);
    if (p.in.mode)
        apply_scale<V>(v, p.in, addr, p.L);
    if (DIT && low) {
        const unsigned dshift = p.L - p.s - p.k; /* omega_R = omega^(2^dshift) */
        fr_dev w = root_pow(p.half, p.L, (low * brev_bits(q, p.k)) << dshift, p.inv);
        fmul<V>(&v, &v, &w);
    }
    return v;
}

template <bool DIT, int V>
__device__ __forceinline__ void pass_store(fr_dev *x, const pass_desc &p, uint32_t q, uint32_t col,
                                           fr_dev v)
{
    const uint32_t addr = pass_addr(p, q, col), low = col & ((1u << p.s) - 1);
    if (!DIT && low) {
        const unsigned dshift = p.L - p.s - p.k;
        fr_dev w = root_pow(p.half, p.L, (low * brev_bits(q, p.k)) << dshift, p.inv);
        fmul<V>(&v, &v, &w);
    }
    if (p.out.mode)
        apply_scale<V>(v, p.out, addr, p.L);
    if (DIT && p.ea) {
        fr_dev a = ld_fr(p.ea + addr), b = ld_fr(p.eb + addr);
        fmul<V>(&a, &a, &b);
        fr_sub_dev(&v, &a, &v);
        st_fr(p.ea + addr, v);
    } else {
        st_fr(x + addr, v);
    }
}

/* Butterfly (u, v) of a stage with twiddle tw[j << nb] (j = 0: w = 1, no product): for a DIT
 * Cooley-Tukey, (u, v) -> (u + v w, u - v w); for a DIF Gentleman-Sande, (u + v, (u - v) w). */
template <bool DIT, int V>
__device__ __forceinline__ void butterfly(fr_dev &u, fr_dev &v, const fr_dev *tw, unsigned j,
                                          unsigned nb, unsigned hk)
{
    fr_dev s, d;
    if (DIT && j)
        twmul<V>(v, tw, j << nb, hk);
    fr_add_dev(&s, &u, &v);
    fr_sub_dev(&d, &u, &v);
    if (!DIT && j)
        twmul<V>(d, tw, j << nb, hk);
    u = s;
    v = d;
}

/* Stages [lo, lo + R) of a pass in registers (radix 2^R): a group is the 2^R elements
 * q = base + m 2^lo (m < 2^R) of one column, so R stages cost one trip through shared memory
 * instead of R, and each thread has 2^(R-1) independent products per stage to interleave. Groups
 * run column fastest, then the bits of base above the round, with jl = base mod 2^lo slowest: as
 * with jmajor, a warp shares jl, so the warps with jl = 0 skip the w = 1 products together. The
 * twiddle of stage hl for q is omega_(2h)^(q mod h) = tw[(jl + (m mod 2^(hl-lo)) 2^lo) << nb].
 * (Reading the first round from device memory and writing the last one there instead of through
 * shared memory was slower: 48.9 against 40.8 ms at 2^27, docs/PERFORMANCE.md.) */
template <bool DIT, int V, int R>
__device__ __forceinline__ void ntt_round(fr_dev *sh, const fr_dev *tw, unsigned k, unsigned lw,
                                          unsigned lo)
{
    const unsigned W = 1u << lw, G = 1u << (k + lw - R), nbh = k - R - lo;
    for (unsigned g = threadIdx.x; g < G; g += blockDim.x) {
        const unsigned wc = g & (W - 1), r = g >> lw;
        const unsigned jl = r >> nbh, base = ((r & ((1u << nbh) - 1)) << (lo + R)) | jl;
        fr_dev v[1 << R];
#pragma unroll
        for (int m = 0; m < (1 << R); m++)
            v[m] = ld_fr(sh + (((base + ((unsigned)m << lo)) << lw) | wc));
#pragma unroll
        for (int st = 0; st < R; st++) {
            const int hb = DIT ? st : R - 1 - st;
            const unsigned nb = k - 1 - (lo + hb);
#pragma unroll
            for (int m = 0; m < (1 << R); m++) {
                if (m & (1 << hb))
                    continue;
                const unsigned mlow = (unsigned)m & ((1u << hb) - 1);
                butterfly<DIT, V>(v[m], v[m + (1 << hb)], tw, jl + (mlow << lo), nb, 1u << (k - 1));
            }
        }
#pragma unroll
        for (int m = 0; m < (1 << R); m++)
            st_fr(sh + (((base + ((unsigned)m << lo)) << lw) | wc), v[m]);
    }
}

/* One radix-2 stage per trip through shared memory. */
template <bool DIT, int V>
__device__ __forceinline__ void ntt_stages(fr_dev *sh, const fr_dev *tw, unsigned k, unsigned lw,
                                           int jmajor)
{
    const unsigned W = 1u << lw, E = 1u << (k + lw);
    /* Butterfly b of a stage of half size h = 2^hl: column wc = b mod W, then either (jmajor 0)
     * pair index pi = b / W with twiddle index j = pi mod h, or (jmajor 1) block index first and
     * j slowest, so that a warp shares j when W * 2^(k-1-hl) >= 32 and the j = 0 (w = 1) warps
     * skip their multiplication. */
    for (unsigned st = 0; st < k; st++) {
        const unsigned hl = DIT ? st : k - 1 - st, h = 1u << hl, nb = k - 1 - hl;
        for (unsigned b = threadIdx.x; b < E / 2; b += blockDim.x) {
            const unsigned wc = b & (W - 1), r = b >> lw;
            const unsigned j = jmajor ? r >> nb : r & (h - 1);
            const unsigned q0 =
                jmajor ? ((r & ((1u << nb) - 1)) << (hl + 1)) | j : ((r >> hl) << (hl + 1)) | j;
            fr_dev *p0 = sh + ((q0 << lw) | wc), *p1 = p0 + (h << lw);
            fr_dev u = ld_fr(p0), v = ld_fr(p1);
            butterfly<DIT, V>(u, v, tw, j, nb, 1u << (k - 1));
            st_fr(p0, u);
            st_fr(p1, v);
        }
        __syncthreads();
    }
}

/* One pass (see the file comment). Shared memory: 2^(k + lw) elements, then 2^(k-1) twiddles
 * (variant 6: 2^(k-1) plain roots, then their companions, and a launch bound of 6 blocks).
 * RX > 1: rounds of up to RX stages in registers (ntt_round), in kernels of their own because
 * their 2^RX live elements need more registers than the one-stage form, whose occupancy must not
 * pay for them. RX = 2 needs 70 and is held to 73 (7 blocks of 128 per SM; shared memory
 * allows 6); RX = 3 needs 160 or so. */
template <bool DIT, int V, int RX>
__global__ void __launch_bounds__(RX > 1 ? NTT_THREADS_RX : NTT_THREADS,
                                  RX == 2 ? (V == 6 ? NTT_MINB_RX2_V6 : NTT_MINB_RX2) : 1)
    k_ntt_pass(fr_dev *x, const pass_desc p)
{
    extern __shared__ ulonglong2 ntt_smem_[];
    fr_dev *sh = reinterpret_cast<fr_dev *>(ntt_smem_);
    const unsigned k = p.k, lw = p.lw, W = 1u << lw, E = 1u << (k + lw), hk = 1u << (k - 1);
    const unsigned tid = threadIdx.x, T = blockDim.x;
    const uint32_t col0 = blockIdx.x << lw;
    fr_dev *tw = sh + E;
    if constexpr (V == 6) {
        for (unsigned j = tid; j < hk; j += T) {
            const fr_dev *e = p.shoup + 2 * ((size_t)j << (p.shoup_log - k));
            st_fr(tw + j, ld_fr(e));
            st_fr(tw + hk + j, ld_fr(e + 1));
        }
    } else {
        for (unsigned j = tid; j < hk; j += T)
            st_fr(tw + j, root_pow(p.half, p.L, j << (p.L - k), p.inv));
    }

    if constexpr (RX > 1) {
        for (unsigned e = tid; e < E; e += T)
            st_fr(sh + e, pass_load<DIT, V>(x, p, e >> lw, col0 + (e & (W - 1))));
        __syncthreads();
        /* DIF: rounds from the top bits down; DIT: from bit 0 up. */
        for (unsigned done = 0; done < k;) {
            const unsigned R = k - done < (unsigned)RX ? k - done : (unsigned)RX;
            const unsigned lo = DIT ? done : k - done - R;
            if (RX == 3 && R == 3) /* (no radix-8 round is instantiated in RX = 2 kernels) */
                ntt_round<DIT, V, RX == 3 ? 3 : 1>(sh, tw, k, lw, lo);
            else if (R == 2)
                ntt_round<DIT, V, 2>(sh, tw, k, lw, lo);
            else
                ntt_round<DIT, V, 1>(sh, tw, k, lw, lo);
            __syncthreads();
            done += R;
        }
        for (unsigned e = tid; e < E; e += T)
            pass_store<DIT, V>(x, p, e >> lw, col0 + (e & (W - 1)), ld_fr(sh + e));
    } else {
        for (unsigned e = tid; e < E; e += T)
            st_fr(sh + e, pass_load<DIT, V>(x, p, e >> lw, col0 + (e & (W - 1))));
        __syncthreads();
        ntt_stages<DIT, V>(sh, tw, k, lw, p.jmajor);
        for (unsigned e = tid; e < E; e += T)
            pass_store<DIT, V>(x, p, e >> lw, col0 + (e & (W - 1)), ld_fr(sh + e));
    }
}

/* x[i] <-> x[bitrev_L(i)]. */
__global__ void k_bitrev(fr_dev *x, unsigned L)
{
    const uint32_t n = 1u << L;
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        uint32_t j = brev_bits(i, L);
        if (i < j) {
            fr_dev a = ld_fr(x + i), b = ld_fr(x + j);
            st_fr(x + i, b);
            st_fr(x + j, a);
        }
    }
}

/* The same permutation as swaps of tiles, for L >= 2 BR_T: index (a, m, b), a and b of BR_T bits,
 * m of M = L - 2 BR_T, goes to (brev(b), brev(m), brev(a)). The block of m <= m' = brev_M(m)
 * reads tiles m and m' (2^BR_T rows a of 2^BR_T adjacent elements b, i.e. runs of 512 bytes) into
 * shared memory and writes each, transposed and reversed, over the other; the naive kernel above
 * reads and writes one 32-byte element per far address. Shared rows are padded by one 8-byte word
 * so that a warp's transposed reads (8 elements of 8 different rows) take the minimum two
 * wavefronts. */
#define BR_T 4
#define BR_N (1u << BR_T)
#define BR_PITCH (4 * BR_N + 1) /* 8-byte words per shared row */
__global__ void __launch_bounds__(256) k_bitrev_tiled(fr_dev *x, unsigned L)
{
    __shared__ uint64_t sh[2][BR_N * BR_PITCH];
    const unsigned M = L - 2 * BR_T;
    const uint32_t m = blockIdx.x, m2 = brev_bits(m, M);
    if (m > m2)
        return;
    const int tiles = m == m2 ? 1 : 2;
    uint64_t *xw = reinterpret_cast<uint64_t *>(x);
    for (int t = 0; t < tiles; t++) {
        const size_t mt = t ? m2 : m;
        for (unsigned w = threadIdx.x; w < 4 * BR_N * BR_N; w += blockDim.x) {
            const unsigned e = w >> 2, l = w & 3, a = e >> BR_T, b = e & (BR_N - 1);
            sh[t][a * BR_PITCH + 4 * b + l] = xw[(((((size_t)a << M) | mt) << BR_T) | b) * 4 + l];
        }
    }
    __syncthreads();
    for (int t = 0; t < tiles; t++) {
        const size_t md = t ? m : m2; /* tile t's elements land in tile brev(m_t) */
        for (unsigned w = threadIdx.x; w < 4 * BR_N * BR_N; w += blockDim.x) {
            const unsigned e = w >> 2, l = w & 3, a2 = e >> BR_T, b2 = e & (BR_N - 1);
            const unsigned a = brev_bits(b2, BR_T), b = brev_bits(a2, BR_T);
            xw[(((((size_t)a2 << M) | md) << BR_T) | b2) * 4 + l] = sh[t][a * BR_PITCH + 4 * b + l];
        }
    }
}

/* c[i] *= b[i] for i < n: c = a * b pointwise before the H step's transforms (cuzk_gpu_h_dev_
 * with c taken as a * b, which holds for every row of a satisfied constraint system). */
__global__ void k_mul_into(fr_dev *c, const fr_dev *b, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        fr_dev x = ld_fr(c + i), y = ld_fr(b + i), r;
        fmul<NTT_MONT_DEFAULT>(&r, &x, &y);
        st_fr(c + i, r);
    }
}

/* The pass twiddles of variant 6: for direction d (0 forward, 1 inverse) and j < 2^(K-1), entry
 * d 2^(K-1) + j is the root omega_(2^K)^(+-j) as a pair (plain value, companion) (fr_shoup.cuh). */
__global__ void k_shoup_table(fr_dev *out, const fr_dev *half, unsigned L, unsigned K)
{
    const uint32_t hk = 1u << (K - 1);
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < 2 * hk;
         i += gridDim.x * blockDim.x) {
        const uint32_t d = i / hk, j = i % hk;
        fr_dev m = root_pow(half, L, j << (L - K), (int)d), w, wq;
        uint32_t mw[8], ww[8], wqw[8];
        fr_to_words_(mw, &m);
        fr_shoup_companion(ww, wqw, mw);
        fr_from_words_(&w, ww);
        fr_from_words_(&wq, wqw);
        st_fr(out + 2 * i, w);
        st_fr(out + 2 * i + 1, wq);
    }
}

/* out[i] = K * base^i for i < count (square and multiply over the bits of i). */
__global__ void k_powers(fr_dev *out, const fr_dev base, const fr_dev K, uint32_t count)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    fr_dev acc = K, b = base;
    for (uint32_t e = i; e; e >>= 1) {
        if (e & 1)
            fr_mul_dev(&acc, &acc, &b);
        fr_mul_dev(&b, &b, &b);
    }
    st_fr(out + i, acc);
}

/* out[i] = lo[i mod 2^12] * hi[i >> 12] for i < count. */
__global__ void k_expand(fr_dev *out, const fr_dev *lo, const fr_dev *hi, uint32_t count)
{
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count;
         i += gridDim.x * blockDim.x) {
        fr_dev a = ld_fr(lo + (i & (SCALE_LO - 1))), b = ld_fr(hi + (i >> SCALE_LO_BITS));
        fr_mul_dev(&a, &a, &b);
        st_fr(out + i, a);
    }
}

/* ---- tables -------------------------------------------------------------------------------- */

/* Order (log) of the roots in the variant-6 twiddle table: passes have at most 12 bits. */
static unsigned shoup_log(unsigned L)
{
    return L < 12 ? L : 12;
}

/* Offsets (in elements) of the tables inside cuzk_gpu_domain_tables::scales. */
struct scale_layout {
    size_t nhi;                                /* entries of a hi table */
    size_t g_lo, gi_lo, w_lo;                  /* SCALE_LO entries each */
    size_t g_hi, gn_hi, gin_hi, ginz_hi, w_hi; /* nhi entries each */
    size_t total;
    explicit scale_layout(unsigned L)
    {
        nhi = L > SCALE_LO_BITS ? (size_t)1 << (L - SCALE_LO_BITS) : 1;
        g_lo = 0;
        gi_lo = SCALE_LO;
        w_lo = 2 * SCALE_LO;
        g_hi = 3 * SCALE_LO;
        gn_hi = g_hi + nhi;
        gin_hi = gn_hi + nhi;
        ginz_hi = gin_hi + nhi;
        w_hi = ginz_hi + nhi;
        total = w_hi + nhi;
    }
};

static fr_dev to_dev(const cuzk_fr_t &a)
{
    fr_dev r;
    for (int i = 0; i < 4; i++)
        r.l[i] = a.l[i];
    return r;
}

static void launch_powers(cudaStream_t st, fr_dev *out, const cuzk_fr_t &base, const cuzk_fr_t &k,
                          size_t count)
{
    k_powers<<<(unsigned)((count + 255) / 256), 256, 0, st>>>(out, to_dev(base), to_dev(k),
                                                              (uint32_t)count);
    CUZK_CUDA_LAUNCHED();
}

cuzk_gpu_domain_tables &cuzk_gpu_ntt_tables_(cuzk_gpu_device &dev, const cuzk_domain *d)
{
    /* The family is read back from the coset generator: 7 for bellperson domains. */
    cuzk_fr_t g, seven;
    cuzk_domain_coset_gen(d, &g);
    cuzk_fr_set_u64(&seven, 7);
    const int roots = cuzk_fr_eq(&g, &seven) ? CUZK_ROOTS_BELLPERSON : CUZK_ROOTS_SNARKJS;
    const unsigned L = cuzk_domain_log_size(d);
    cuzk_gpu_domain_tables &t = dev.tabs[roots];
    if (t.roots == roots && t.log_n == L)
        return t;
    t.roots = -1;
    if (L == 0)
        return t;
    const size_t n = (size_t)1 << L;
    scale_layout lay(L);
    t.half.reserve((n / 2) * sizeof(fr_dev));
    t.scales.reserve(lay.total * sizeof(fr_dev));
    fr_dev *sc = t.scales.as<fr_dev>();

    cuzk_fr_t one, omega, gi, nn, ninv, z, zinv, k, b;
    cuzk_fr_set_one(&one);
    cuzk_domain_omega(d, &omega);
    cuzk_fr_inv_vartime(&gi, &g);
    cuzk_fr_set_u64(&nn, n);
    cuzk_fr_inv_vartime(&ninv, &nn);
    cuzk_domain_coset_z(d, &z);
    cuzk_fr_inv_vartime(&zinv, &z);
    auto pow4096 = [](cuzk_fr_t *o, const cuzk_fr_t *a) {
        *o = *a;
        for (unsigned i = 0; i < SCALE_LO_BITS; i++)
            cuzk_fr_sqr(o, o);
    };
    cudaStream_t st = dev.stream;
    launch_powers(st, sc + lay.g_lo, g, one, SCALE_LO);
    launch_powers(st, sc + lay.gi_lo, gi, one, SCALE_LO);
    launch_powers(st, sc + lay.w_lo, omega, one, SCALE_LO);
    pow4096(&b, &g);
    launch_powers(st, sc + lay.g_hi, b, one, lay.nhi);
    launch_powers(st, sc + lay.gn_hi, b, ninv, lay.nhi);
    pow4096(&b, &gi);
    launch_powers(st, sc + lay.gin_hi, b, ninv, lay.nhi);
    cuzk_fr_mul(&k, &ninv, &zinv);
    launch_powers(st, sc + lay.ginz_hi, b, k, lay.nhi);
    pow4096(&b, &omega);
    launch_powers(st, sc + lay.w_hi, b, one, lay.nhi);
    k_expand<<<1024, 256, 0, st>>>(t.half.as<fr_dev>(), sc + lay.w_lo, sc + lay.w_hi,
                                   (uint32_t)(n / 2));
    CUZK_CUDA_LAUNCHED();
    const unsigned K = shoup_log(L);
    t.shoup.reserve(((size_t)2 << K) * sizeof(fr_dev));
    k_shoup_table<<<((1u << K) + 127) / 128, 128, 0, st>>>(t.shoup.as<fr_dev>(),
                                                           t.half.as<fr_dev>(), L, K);
    CUZK_CUDA_LAUNCHED();
    t.roots = roots;
    t.log_n = L;
    return t;
}

/* ---- plans and launches -------------------------------------------------------------------- */

static unsigned env_uint(const char *name, unsigned dflt, unsigned lo, unsigned hi)
{
    const char *e = getenv(name);
    if (!e || !*e)
        return dflt;
    unsigned long v = strtoul(e, nullptr, 10);
    return v >= lo && v <= hi ? (unsigned)v : dflt;
}

struct ntt_plan {
    unsigned L, P, loge, variant, threads, jmajor, radix;
    unsigned k[32];
    explicit ntt_plan(unsigned log_n)
    {
        L = log_n;
        loge = env_uint("CUZK_GPU_NTT_LOGE", NTT_LOGE_DEFAULT, 9, 12);
        variant = env_uint("CUZK_GPU_MONT", NTT_MONT_DEFAULT, 1, 6);
        threads = env_uint("CUZK_GPU_NTT_THREADS", NTT_THREADS_DEFAULT, 32, NTT_THREADS);
        jmajor = env_uint("CUZK_GPU_NTT_JMAJOR", NTT_JMAJOR_DEFAULT, 0, 1);
        radix = env_uint("CUZK_GPU_NTT_RADIX", NTT_RADIX_DEFAULT, 1, 3);
        unsigned kmax = env_uint("CUZK_GPU_NTT_KMAX", NTT_KMAX_DEFAULT, 1, 12);
        if (kmax > loge)
            kmax = loge;
        if (variant == 6 && kmax > 11)
            kmax = 11; /* 2^12 elements + 2 x 2^11 twiddle words would exceed shared memory */
        P = (L + kmax - 1) / kmax;
        for (unsigned i = 0; i < P; i++)
            k[i] = L / P + (i < L % P ? 1 : 0);
    }
    unsigned stride_log(unsigned p) const
    {
        unsigned used = 0;
        for (unsigned i = 0; i <= p; i++)
            used += k[i];
        return L - used;
    }
};

template <bool DIT, int V, int RX> static void configure_smem_k()
{
    /* 2^12 elements plus 2^11 twiddles at most */
    const int max = (int)(((1u << 12) + (1u << 11)) * sizeof(fr_dev));
    CUZK_CUDA(cudaFuncSetAttribute(k_ntt_pass<DIT, V, RX>,
                                   cudaFuncAttributeMaxDynamicSharedMemorySize, max));
    /* all of the unified memory as shared memory: six blocks of 34-36 KiB per SM */
    CUZK_CUDA(cudaFuncSetAttribute(k_ntt_pass<DIT, V, RX>,
                                   cudaFuncAttributePreferredSharedMemoryCarveout, 100));
}

template <int V> static void configure_smem_v()
{
    configure_smem_k<true, V, 1>();
    configure_smem_k<false, V, 1>();
    if constexpr (V >= 5) {
        configure_smem_k<true, V, 2>();
        configure_smem_k<false, V, 2>();
    }
    if constexpr (V == 5) {
        configure_smem_k<true, V, 3>();
        configure_smem_k<false, V, 3>();
    }
}

static void configure_smem(cuzk_gpu_device &dev)
{
    if (dev.smem_configured)
        return;
    configure_smem_v<1>();
    configure_smem_v<2>();
    configure_smem_v<3>();
    configure_smem_v<4>();
    configure_smem_v<5>();
    configure_smem_v<6>();
    dev.smem_configured = 1;
}

static void launch_pass(cuzk_gpu_device &dev, bool dit, fr_dev *x, const ntt_plan &pl, unsigned p,
                        pass_desc pd)
{
    pd.L = pl.L;
    pd.k = pl.k[p];
    pd.s = pl.stride_log(p);
    unsigned lw = pl.loge - pd.k;
    if (lw > pl.L - pd.k)
        lw = pl.L - pd.k;
    pd.lw = lw;
    const unsigned E = 1u << (pd.k + lw);
    unsigned threads = E / 4;
    if (threads > pl.threads)
        threads = pl.threads;
    if (threads < 32)
        threads = 32;
    /* register rounds: variants 5 and 6 (radix 8: 5 only; the others are kept for comparison) */
    unsigned rx = pl.variant >= 5 ? pl.radix : 1;
    if (pl.variant == 6 && rx > 2)
        rx = 2;
    if (rx > 1 && threads > NTT_THREADS_RX)
        threads = NTT_THREADS_RX;
    pd.jmajor = (int)pl.jmajor;
    const unsigned blocks = 1u << (pl.L - pd.k - lw);
    const size_t smem = (E + ((pl.variant == 6 ? 2u : 1u) << (pd.k - 1))) * sizeof(fr_dev);
#define NTT_LAUNCH_(V, RX)                                                                         \
    do {                                                                                           \
        if (dit)                                                                                   \
            k_ntt_pass<true, V, RX><<<blocks, threads, smem, dev.stream>>>(x, pd);                 \
        else                                                                                       \
            k_ntt_pass<false, V, RX><<<blocks, threads, smem, dev.stream>>>(x, pd);                \
    } while (0)
    if (rx == 3)
        NTT_LAUNCH_(5, 3);
    else if (rx == 2 && pl.variant == 6)
        NTT_LAUNCH_(6, 2);
    else if (rx == 2)
        NTT_LAUNCH_(5, 2);
    else if (pl.variant == 6)
        NTT_LAUNCH_(6, 1);
    else if (pl.variant == 1)
        NTT_LAUNCH_(1, 1);
    else if (pl.variant == 2)
        NTT_LAUNCH_(2, 1);
    else if (pl.variant == 4)
        NTT_LAUNCH_(4, 1);
    else if (pl.variant == 5)
        NTT_LAUNCH_(5, 1);
    else
        NTT_LAUNCH_(3, 1);
#undef NTT_LAUNCH_
    CUZK_CUDA_LAUNCHED();
}

static scale_desc no_scale()
{
    scale_desc s;
    memset(&s, 0, sizeof s);
    return s;
}

static scale_desc table_scale(int mode, const fr_dev *lo, const fr_dev *hi)
{
    scale_desc s = no_scale();
    s.mode = mode;
    s.lo = lo;
    s.hi = hi;
    return s;
}

static void set_shoup(pass_desc &pd, const cuzk_gpu_domain_tables &t, unsigned L, int inv)
{
    pd.shoup_log = shoup_log(L);
    pd.shoup = t.shoup.as<fr_dev>() + (inv ? (size_t)2 << (pd.shoup_log - 1) : 0);
}

/* Natural -> bit-reversed DIF; |in| at the first pass's load, |out| at the last pass's store. */
static void run_dif(cuzk_gpu_device &dev, const cuzk_gpu_domain_tables &t, fr_dev *x,
                    const ntt_plan &pl, int inv, const scale_desc &in, const scale_desc &out)
{
    for (unsigned p = 0; p < pl.P; p++) {
        pass_desc pd;
        memset(&pd, 0, sizeof pd);
        pd.inv = inv;
        pd.half = t.half.as<fr_dev>();
        set_shoup(pd, t, pl.L, inv);
        pd.in = p == 0 ? in : no_scale();
        pd.out = p == pl.P - 1 ? out : no_scale();
        launch_pass(dev, false, x, pl, p, pd);
    }
}

/* Bit-reversed -> natural DIT; |out| (and the a*b - v epilogue) at the last pass's store. */
static void run_dit(cuzk_gpu_device &dev, const cuzk_gpu_domain_tables &t, fr_dev *x,
                    const ntt_plan &pl, int inv, const scale_desc &out, fr_dev *ea = nullptr,
                    const fr_dev *eb = nullptr)
{
    for (unsigned p = pl.P; p-- > 0;) {
        pass_desc pd;
        memset(&pd, 0, sizeof pd);
        pd.inv = inv;
        pd.half = t.half.as<fr_dev>();
        set_shoup(pd, t, pl.L, inv);
        pd.in = no_scale();
        pd.out = p == 0 ? out : no_scale();
        if (p == 0) {
            pd.ea = ea;
            pd.eb = eb;
        }
        launch_pass(dev, true, x, pl, p, pd);
    }
}

/* Bit reversal: tiled from 2^(2 BR_T) elements; CUZK_GPU_NTT_BITREV=0 keeps the naive kernel
 * (for comparison). */
static void run_bitrev(cuzk_gpu_device &dev, fr_dev *x, unsigned L)
{
    if (L >= 2 * BR_T && env_uint("CUZK_GPU_NTT_BITREV", 1, 0, 1)) {
        k_bitrev_tiled<<<1u << (L - 2 * BR_T), 256, 0, dev.stream>>>(x, L);
        CUZK_CUDA_LAUNCHED();
        return;
    }
    const size_t n = (size_t)1 << L;
    unsigned blocks = (unsigned)((n + 255) / 256);
    if (blocks > 65536)
        blocks = 65536;
    k_bitrev<<<blocks, 256, 0, dev.stream>>>(x, L);
    CUZK_CUDA_LAUNCHED();
}

/* Bit-reversal permutation, then a DIT (bit-reversed -> natural): natural -> natural. */
static void run_bitrev_dit(cuzk_gpu_device &dev, const cuzk_gpu_domain_tables &t, fr_dev *x,
                           unsigned L, int inv, const scale_desc &out)
{
    run_bitrev(dev, x, L);
    run_dit(dev, t, x, ntt_plan(L), inv, out);
}

void cuzk_gpu_fr_mul_into_(cuzk_gpu_device &dev, fr_dev *c, const fr_dev *b, size_t n)
{
    size_t blocks = (n + 255) / 256;
    k_mul_into<<<(unsigned)(blocks > 65536 ? 65536 : blocks), 256, 0, dev.stream>>>(c, b, n);
    CUZK_CUDA_LAUNCHED();
}

void cuzk_gpu_ntt_run_(cuzk_gpu_device &dev, const cuzk_domain *d, fr_dev *x, cuzk_gpu_ntt_op op)
{
    const unsigned L = cuzk_domain_log_size(d);
    if (L == 0)
        return; /* n = 1: every transform is the identity (1/n = 1, g^0 = 1) */
    configure_smem(dev);
    const cuzk_gpu_domain_tables &t = cuzk_gpu_ntt_tables_(dev, d);
    const fr_dev *sc = t.scales.as<fr_dev>();
    scale_layout lay(L);
    ntt_plan pl(L);
    switch (op) {
    case CUZK_GPU_NTT:
        run_bitrev_dit(dev, t, x, L, 0, no_scale());
        break;
    case CUZK_GPU_INTT: {
        cuzk_fr_t nn, ninv;
        cuzk_fr_set_u64(&nn, (uint64_t)1 << L);
        cuzk_fr_inv_vartime(&ninv, &nn);
        scale_desc s = no_scale();
        s.mode = 1;
        s.k = to_dev(ninv);
        run_bitrev_dit(dev, t, x, L, 1, s);
        break;
    }
    case CUZK_GPU_COSET_NTT:
        run_dif(dev, t, x, pl, 0, table_scale(2, sc + lay.g_lo, sc + lay.g_hi), no_scale());
        run_bitrev(dev, x, L);
        break;
    case CUZK_GPU_COSET_INTT:
        run_bitrev_dit(dev, t, x, L, 1, table_scale(2, sc + lay.gi_lo, sc + lay.gin_hi));
        break;
    }
}

void cuzk_gpu_h_run_(cuzk_gpu_device &dev, const cuzk_domain *d, fr_dev *a, fr_dev *b, fr_dev *c,
                     void (*before)(void *, int), void *ctx)
{
    const unsigned L = cuzk_domain_log_size(d);
    configure_smem(dev);
    const cuzk_gpu_domain_tables &t = cuzk_gpu_ntt_tables_(dev, d);
    if (L == 0)
        cuzk_gpu_throw_(CUZK_ERR_INVALID_ARG, "the device H step needs a domain of 2 or more");
    const fr_dev *sc = t.scales.as<fr_dev>();
    scale_layout lay(L);
    ntt_plan pl(L);
    const scale_desc mid = table_scale(3, sc + lay.g_lo, sc + lay.gn_hi);
    fr_dev *v[3] = {a, b, c};
    for (int i = 0; i < 3; i++) {
        if (before)
            before(ctx, i);
        run_dif(dev, t, v[i], pl, 1, no_scale(), mid);
        if (i < 2)
            run_dit(dev, t, v[i], pl, 0, no_scale());
        else
            run_dit(dev, t, v[i], pl, 0, no_scale(), a, b); /* a := a * b - c */
    }
    if (t.roots == CUZK_ROOTS_SNARKJS)
        return; /* snarkjs keeps the coset values (formats.md 4.6) */
    run_bitrev_dit(dev, t, a, L, 1, table_scale(2, sc + lay.gi_lo, sc + lay.ginz_hi));
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The device side of src/gpu/ntt.cu (its header comment explains the algorithm): butterflies,
 * register rounds, the pass kernel, bit reversals and the small table and element-wise kernels.
 * Included by ntt.cu alone, after its NTT_* and SCALE_* definitions, so that every template is
 * instantiated in that one unit.
 */
#ifndef CUZK_GPU_NTT_KERNELS_CUH
#define CUZK_GPU_NTT_KERNELS_CUH

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
 * (diagonals, the scalings by 1/n, g^i, s^i and 1/(2n), the epilogues) goes through this. */
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
    /* Epilogue of the last pass: when |ea| is set, the store writes to ea[i] instead of x[i]:
     * EPI_MUL_SUB ea[i] * eb[i] - v, EPI_MUL ea[i] * v, EPI_ADD ea[i] + v (the H step). */
    fr_dev *ea;
    const fr_dev *eb;
    int emode;
};

enum { EPI_MUL_SUB = 0, EPI_MUL = 1, EPI_ADD = 2 };

/* Element q of column col of a pass: its address, and its transformation on the way in (the
 * scaling |in|; for a DIT the diagonal first) and out (for a DIF the diagonal last; the scaling
 * |out|; the epilogue). */
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
    if (p.ea) {
        fr_dev a = ld_fr(p.ea + addr);
        if (p.emode == EPI_ADD) {
            fr_add_dev(&v, &a, &v);
        } else if (p.emode == EPI_MUL) {
            fmul<V>(&v, &a, &v);
        } else {
            fr_dev b = ld_fr(p.eb + addr);
            fmul<V>(&a, &a, &b);
            fr_sub_dev(&v, &a, &v);
        }
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

#endif

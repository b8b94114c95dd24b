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
 * K * s^i (coset shifts, 1/n, 1/(2n)) from two small tables lo[i mod 2^12] * hi[i >> 12] with K
 * folded into hi, applied at the load of a DIF's first pass or at the store of a DIT's last pass,
 * so they cost no extra pass. The H chain (cuzk_poly_h, the same six transforms) runs a to-coset
 * transform (coset s<omega>, s = omega_2n) for a and b (DIF inverse, (1/n) s^bitrev(p) at
 * position p, DIT forward: no bit reversal), multiplies a by b in the store of b's last pass; for
 * snarkjs the same for c with a*b - c in its store; for bellperson a DIF inverse of a scaled by
 * s^-k (-1/(2n)) and one of c scaled by 1/(2n) that adds itself into a in its store, then a bit
 * reversal: h = (C - N) / 2.
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

#include "gpu/ntt_kernels.cuh"

/* ---- tables -------------------------------------------------------------------------------- */

/* Order (log) of the roots in the variant-6 twiddle table: passes have at most 12 bits. */
static unsigned shoup_log(unsigned L)
{
    return L < 12 ? L : 12;
}

/* Offsets (in elements) of the tables inside cuzk_gpu_domain_tables::scales: powers of the coset
 * shift g (the coset transforms), of s = omega_2n (the H step's coset, cuzk_poly_h) and of omega;
 * a hi table has the constant named after the base folded in (n: 1/n; k: -1/(2n)). */
struct scale_layout {
    size_t nhi;                                       /* entries of a hi table */
    size_t g_lo, gi_lo, s_lo, si_lo, w_lo;            /* SCALE_LO entries each */
    size_t g_hi, gin_hi, sn_hi, sink_hi, w_hi, total; /* nhi entries each */
    explicit scale_layout(unsigned L)
    {
        nhi = L > SCALE_LO_BITS ? (size_t)1 << (L - SCALE_LO_BITS) : 1;
        g_lo = 0;
        gi_lo = SCALE_LO;
        s_lo = 2 * SCALE_LO;
        si_lo = 3 * SCALE_LO;
        w_lo = 4 * SCALE_LO;
        g_hi = 5 * SCALE_LO;
        gin_hi = g_hi + nhi;
        sn_hi = gin_hi + nhi;
        sink_hi = sn_hi + nhi;
        w_hi = sink_hi + nhi;
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

    cuzk_fr_t one, omega, gi, s2n, si, nn, ninv, k, b;
    cuzk_fr_set_one(&one);
    cuzk_domain_omega(d, &omega);
    cuzk_fr_inv_vartime(&gi, &g);
    cuzk_domain_omega_2n(d, &s2n);
    cuzk_fr_inv_vartime(&si, &s2n);
    cuzk_fr_set_u64(&nn, n);
    cuzk_fr_inv_vartime(&ninv, &nn);
    auto pow4096 = [](cuzk_fr_t *o, const cuzk_fr_t *a) {
        *o = *a;
        for (unsigned i = 0; i < SCALE_LO_BITS; i++)
            cuzk_fr_sqr(o, o);
    };
    cudaStream_t st = dev.stream;
    launch_powers(st, sc + lay.g_lo, g, one, SCALE_LO);
    launch_powers(st, sc + lay.gi_lo, gi, one, SCALE_LO);
    launch_powers(st, sc + lay.s_lo, s2n, one, SCALE_LO);
    launch_powers(st, sc + lay.si_lo, si, one, SCALE_LO);
    launch_powers(st, sc + lay.w_lo, omega, one, SCALE_LO);
    pow4096(&b, &g);
    launch_powers(st, sc + lay.g_hi, b, one, lay.nhi);
    pow4096(&b, &gi);
    launch_powers(st, sc + lay.gin_hi, b, ninv, lay.nhi);
    pow4096(&b, &s2n);
    launch_powers(st, sc + lay.sn_hi, b, ninv, lay.nhi);
    cuzk_fr_add(&k, &nn, &nn);
    cuzk_fr_inv_vartime(&k, &k);
    cuzk_fr_neg(&k, &k); /* -1/(2n) */
    pow4096(&b, &si);
    launch_powers(st, sc + lay.sink_hi, b, k, lay.nhi);
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

/* The constant scaling by 1 / 2^|log| (1/n for an inverse transform, 1/(2n) in the H step). */
static scale_desc inv_pow2_scale(unsigned log)
{
    cuzk_fr_t p, inv;
    cuzk_fr_set_u64(&p, (uint64_t)1 << log);
    cuzk_fr_inv_vartime(&inv, &p);
    scale_desc s = no_scale();
    s.mode = 1;
    s.k = to_dev(inv);
    return s;
}

static void set_shoup(pass_desc &pd, const cuzk_gpu_domain_tables &t, unsigned L, int inv)
{
    pd.shoup_log = shoup_log(L);
    pd.shoup = t.shoup.as<fr_dev>() + (inv ? (size_t)2 << (pd.shoup_log - 1) : 0);
}

/* Natural -> bit-reversed DIF; |in| at the first pass's load, |out| (and the epilogue |emode| into
 * |ea|, pass_desc) at the last pass's store. */
static void run_dif(cuzk_gpu_device &dev, const cuzk_gpu_domain_tables &t, fr_dev *x,
                    const ntt_plan &pl, int inv, const scale_desc &in, const scale_desc &out,
                    fr_dev *ea = nullptr, int emode = EPI_MUL_SUB)
{
    for (unsigned p = 0; p < pl.P; p++) {
        pass_desc pd;
        memset(&pd, 0, sizeof pd);
        pd.inv = inv;
        pd.half = t.half.as<fr_dev>();
        set_shoup(pd, t, pl.L, inv);
        pd.in = p == 0 ? in : no_scale();
        pd.out = p == pl.P - 1 ? out : no_scale();
        if (p == pl.P - 1) {
            pd.ea = ea;
            pd.emode = emode;
        }
        launch_pass(dev, false, x, pl, p, pd);
    }
}

/* Bit-reversed -> natural DIT; |out| (and the epilogue |emode| into |ea|) at the last pass's
 * store. */
static void run_dit(cuzk_gpu_device &dev, const cuzk_gpu_domain_tables &t, fr_dev *x,
                    const ntt_plan &pl, int inv, const scale_desc &out, fr_dev *ea = nullptr,
                    const fr_dev *eb = nullptr, int emode = EPI_MUL_SUB)
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
            pd.emode = emode;
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
    case CUZK_GPU_INTT:
        run_bitrev_dit(dev, t, x, L, 1, inv_pow2_scale(L));
        break;
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
    /* A and B (and C for snarkjs) to the coset s<omega>, s = omega_2n: DIF inverse, (1/n)
     * s^bitrev(p) at position p, DIT forward (no bit reversal). */
    const scale_desc mid = table_scale(3, sc + lay.s_lo, sc + lay.sn_hi);
    fr_dev *v[3] = {a, b, c};
    const bool snarkjs = t.roots == CUZK_ROOTS_SNARKJS;
    for (int i = 0; i < (snarkjs ? 3 : 2); i++) {
        if (before)
            before(ctx, i);
        run_dif(dev, t, v[i], pl, 1, no_scale(), mid);
        if (i == 0)
            run_dit(dev, t, v[i], pl, 0, no_scale());
        else if (i == 1) /* bellperson: a := A B on the coset; snarkjs keeps b */
            run_dit(dev, t, v[i], pl, 0, no_scale(), snarkjs ? nullptr : a, nullptr, EPI_MUL);
        else /* snarkjs: a := a * b - c, the values on the odd coset (formats.md 4.6) */
            run_dit(dev, t, v[i], pl, 0, no_scale(), a, b, EPI_MUL_SUB);
    }
    if (snarkjs)
        return;
    /* bellperson, h = (C - N) / 2 (cuzk_poly_h): -N/2 = the coset iNTT of a times -1/2, as a DIF
     * whose store scales position p by s^-k (-1/(2n)), k = bitrev(p); then C/2 = iNTT(c) / 2 by
     * a DIF whose store adds it to a; one bit reversal puts h in natural order. */
    run_dif(dev, t, a, pl, 1, no_scale(), table_scale(3, sc + lay.si_lo, sc + lay.sink_hi));
    if (before)
        before(ctx, 2);
    run_dif(dev, t, c, pl, 1, no_scale(), inv_pow2_scale(L + 1), a, EPI_ADD);
    run_bitrev(dev, a, L);
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GPU_MONT_CUH
#define CUZK_GPU_MONT_CUH

/*
 * Montgomery arithmetic on the device, written once for Fp and Fr (fp.cuh, fr.cuh instantiate
 * it). Values are the host's: Montgomery form, R = 2^(32 N), stored as 64-bit limbs; here they are
 * worked as N 32-bit words (w[2i] = low half of limb i), which costs nothing in registers.
 *
 * Every function is __host__ __device__: on the host the PTX carry-chain primitives below are
 * emulated in C, so the exact device algorithms run in host tests too (tests compile this file
 * with nvcc only, so that emulation is checked on the device by the GPU-vs-CPU tests).
 *
 * Four multiplications, chosen at compile time by CUZK_GPU_MONT_MUL. Measured on the H200
 * (`cuzk-bench ntt --backend cuda --filter='f[rp]_mul*'`, docs/PERFORMANCE.md "GPU NTT (issue 4)"),
 * in 10^9 products/s: Fr 40.1 / 36.6 / 37.4, Fp 17.4 / 15.7 / 17.1 for variants 1 / 2 / 3; Fr
 * 51.1, Fp 26.5 for 7 ("Even/odd multiplication" in the "GPU MSM" section). The MSM kernels use
 * 7 (set in src/gpu/msm_dev.cuh), the NTT's pass kernels the Fr-specific even/odd form of
 * src/gpu/fr_mul_r.cuh (src/gpu/ntt.cu); the default here stays 3 for the other units:
 *   1  64-bit limbs, CIOS on unsigned __int128 (the host algorithm of src/field/mont.h);
 *   2  32-bit words, CIOS with 64-bit accumulators: (C,S) = t + a*b + C as one IMAD.WIDE chain;
 *   3  32-bit words, CIOS with PTX carry chains: per row a mad.lo.cc chain then a mad.hi.cc chain
 *      for t += a*b_i, the same for t += m*p, then a one-word shift;
 *   7  as 3, but each row's products split by word parity into two accumulators so that a
 *      product's low and high halves are adjacent in one chain, which ptxas fuses into one
 *      IMAD.WIDE.U32.X (2 IMAD slots) instead of IMAD + IMAD.HI (3): an unrolled lazy Fp product
 *      is 594 IMAD slots against 887 for 3 (sm_90 SASS, CUDA 13.0).
 * Compile-time knobs besides the variant: CUZK_GPU_MONT_ROLL (rows per loop iteration, below),
 * CUZK_GPU_MONT_SQR (the dedicated squarings: 1 sqr_u64, 2 the even/odd sqr_eo), and the lazy
 * [0, 2m) forms (add<2>, sub<2>, mul<false>, is_zero2) that src/gpu/fp.cuh uses under
 * CUZK_GPU_FP_LAZY. mul_sum / mul_diff (a b +- c d with one reduction) serve point.cuh's
 * CUZK_GPU_PT_FUSED.
 * Bounds (all variants): both moduli have their top word below 2^31 * 0.91, so with a, b < p the
 * running t stays below 2p between rows and t + a*b_i + m*p fits N + 1 words; one conditional
 * subtraction ends the product (the "no-carry" CIOS of src/field/mont.h).
 * add: a + b < 2p < 2^(32N), subtract p unless that borrows. sub: a - b, add p if it borrowed.
 */

#include <stdint.h>

#ifndef CUZK_GPU_MONT_MUL
#define CUZK_GPU_MONT_MUL 3
#endif
/* Rows of a multiplication unrolled per loop iteration (0: all). A rolled row loop trades a few
 * register moves per row for code that fits the instruction cache: the MSM's accumulation kernel
 * inlines ~20 multiplications, ~1,100 instructions each when unrolled. */
#ifndef CUZK_GPU_MONT_ROLL
#define CUZK_GPU_MONT_ROLL 0
#endif
/* 1: variant 7's products (mul) as Karatsuba products and one wide reduction (mul_ka,
 * src/gpu/mont_ka.cuh); 2: mul_diff too (mul_sum_ka). Off: fewer IMADs but slower on the H200 (G1
 * 2^24 MSM 105.8 -> 117.3 ms, docs/PERFORMANCE.md "Karatsuba products"). */
#ifndef CUZK_GPU_MONT_KARA
#define CUZK_GPU_MONT_KARA 0
#endif
#define CZ_PRAGMA_(x) _Pragma(#x)
#define CZ_UNROLL_(n) CZ_PRAGMA_(unroll n)
#if CUZK_GPU_MONT_ROLL
#define CZ_ROWS CZ_UNROLL_(CUZK_GPU_MONT_ROLL)
#else
#define CZ_ROWS _Pragma("unroll")
#endif

#if defined(__CUDACC__)
#define CUZK_MONT_FN __host__ __device__ __forceinline__
#else
#define CUZK_MONT_FN inline
#endif

/* ---- carry-chain primitives: PTX on the device, C emulation on the host ---------------------
 * Each function needs CZ_CC at its top (the emulated flag; nothing on the device). The asm
 * statements are volatile so the compiler keeps their order, which carries the CC.CF flag. */
#if defined(__CUDA_ARCH__)
#define CZ_CC
#define CZ_ADD_CC(d, a, b) asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b))
#define CZ_ADDC_CC(d, a, b) asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b))
#define CZ_ADDC(d, a, b) asm volatile("addc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b))
#define CZ_SUB_CC(d, a, b) asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b))
#define CZ_SUBC_CC(d, a, b) asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b))
#define CZ_SUBC(d, a, b) asm volatile("subc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b))
#define CZ_MADLO_CC(d, a, b, c)                                                                    \
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c))
#define CZ_MADCLO_CC(d, a, b, c)                                                                   \
    asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c))
#define CZ_MADHI_CC(d, a, b, c)                                                                    \
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c))
#define CZ_MADCHI_CC(d, a, b, c)                                                                   \
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c))
#define CZ_MADCHI(d, a, b, c)                                                                      \
    asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c))
#define CZ_MADCLO(d, a, b, c)                                                                      \
    asm volatile("madc.lo.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c))
#else
#define CZ_CC                                                                                      \
    uint32_t cz_cf_ = 0;                                                                           \
    (void)cz_cf_
#define CZ_SET_(d, expr, cf)                                                                       \
    do {                                                                                           \
        uint64_t s_ = (expr);                                                                      \
        (d) = (uint32_t)s_;                                                                        \
        cz_cf_ = (uint32_t)(cf);                                                                   \
    } while (0)
#define CZ_ADD_CC(d, a, b) CZ_SET_(d, (uint64_t)(a) + (b), s_ >> 32)
#define CZ_ADDC_CC(d, a, b) CZ_SET_(d, (uint64_t)(a) + (b) + cz_cf_, s_ >> 32)
#define CZ_ADDC(d, a, b) ((d) = (uint32_t)((a) + (b) + cz_cf_))
#define CZ_SUB_CC(d, a, b) CZ_SET_(d, (uint64_t)(a) - (b), s_ >> 63)
#define CZ_SUBC_CC(d, a, b) CZ_SET_(d, (uint64_t)(a) - (b)-cz_cf_, s_ >> 63)
#define CZ_SUBC(d, a, b) ((d) = (uint32_t)((a) - (b)-cz_cf_))
#define CZ_LO_(a, b) ((uint64_t)(uint32_t)((uint64_t)(a) * (b)))
#define CZ_HI_(a, b) (((uint64_t)(a) * (b)) >> 32)
#define CZ_MADLO_CC(d, a, b, c) CZ_SET_(d, CZ_LO_(a, b) + (c), s_ >> 32)
#define CZ_MADCLO_CC(d, a, b, c) CZ_SET_(d, CZ_LO_(a, b) + (c) + cz_cf_, s_ >> 32)
#define CZ_MADHI_CC(d, a, b, c) CZ_SET_(d, CZ_HI_(a, b) + (c), s_ >> 32)
#define CZ_MADCHI_CC(d, a, b, c) CZ_SET_(d, CZ_HI_(a, b) + (c) + cz_cf_, s_ >> 32)
#define CZ_MADCHI(d, a, b, c) ((d) = (uint32_t)(CZ_HI_(a, b) + (c) + cz_cf_))
#define CZ_MADCLO(d, a, b, c) ((d) = (uint32_t)(CZ_LO_(a, b) + (c) + cz_cf_))
#endif

/*
 * The field parameter F provides: static constexpr int N (32-bit words, even);
 * static CUZK_MONT_FN uint32_t m(int i) (modulus word i), one(int i) (R mod m word i);
 * static constexpr uint32_t n0 (-m^-1 mod 2^32).
 */
template <class F> struct mont_ka;

template <class F> struct mont_dev {
    static constexpr int N = F::N;
    typedef mont_ka<F> ka; /* the Karatsuba products (src/gpu/mont_ka.cuh) */

    /* Word i of K m (K = 1 or 2). */
    template <int K> static CUZK_MONT_FN uint32_t km(int i)
    {
        if (K == 1)
            return F::m(i);
        return (F::m(i) << 1) | (i ? F::m(i - 1) >> 31 : 0u);
    }

    /* r = t - K m if t >= K m, else t (t < 2 K m). */
    template <int K = 1> static CUZK_MONT_FN void reduce_once(uint32_t *r, const uint32_t *t)
    {
        CZ_CC;
        uint32_t d[N], mask;
        CZ_SUB_CC(d[0], t[0], km<K>(0));
#pragma unroll
        for (int i = 1; i < N; i++)
            CZ_SUBC_CC(d[i], t[i], km<K>(i));
        CZ_SUBC(mask, 0u, 0u); /* all ones when t < K m (the subtraction borrowed) */
#pragma unroll
        for (int i = 0; i < N; i++)
            r[i] = (t[i] & mask) | (d[i] & ~mask);
    }

    /* K = 2: the lazy forms, inputs and outputs in [0, 2m) (needs 4m < 2^(32N): Fp, not Fr). */
    template <int K = 1>
    static CUZK_MONT_FN void add(uint32_t *r, const uint32_t *a, const uint32_t *b)
    {
        CZ_CC;
        uint32_t t[N];
        CZ_ADD_CC(t[0], a[0], b[0]);
#pragma unroll
        for (int i = 1; i < N; i++)
            CZ_ADDC_CC(t[i], a[i], b[i]);
        reduce_once<K>(r, t);
    }

    template <int K = 1>
    static CUZK_MONT_FN void sub(uint32_t *r, const uint32_t *a, const uint32_t *b)
    {
        CZ_CC;
        uint32_t t[N], mask;
        CZ_SUB_CC(t[0], a[0], b[0]);
#pragma unroll
        for (int i = 1; i < N; i++)
            CZ_SUBC_CC(t[i], a[i], b[i]);
        CZ_SUBC(mask, 0u, 0u);
        CZ_ADD_CC(r[0], t[0], km<K>(0) & mask);
#pragma unroll
        for (int i = 1; i < N - 1; i++)
            CZ_ADDC_CC(r[i], t[i], km<K>(i) & mask);
        CZ_ADDC(r[N - 1], t[N - 1], km<K>(N - 1) & mask);
    }

    /* a == 0 mod m for a in [0, 2m). */
    static CUZK_MONT_FN bool is_zero2(const uint32_t *a)
    {
        uint32_t z = 0, e = 0;
#pragma unroll
        for (int i = 0; i < N; i++) {
            z |= a[i];
            e |= a[i] ^ F::m(i);
        }
        return z == 0 || e == 0;
    }

    /* r = -a (0 stays 0). */
    static CUZK_MONT_FN void neg(uint32_t *r, const uint32_t *a)
    {
        uint32_t z[N];
#pragma unroll
        for (int i = 0; i < N; i++)
            z[i] = 0;
        sub(r, z, a);
    }

    static CUZK_MONT_FN bool is_zero(const uint32_t *a)
    {
        uint32_t acc = 0;
#pragma unroll
        for (int i = 0; i < N; i++)
            acc |= a[i];
        return acc == 0;
    }

    /* Every multiplication: RED = false leaves the result in [0, 2m) without the final
     * subtraction. With a, b < 2m and 4m < 2^(32N) the Montgomery bound still holds:
     * (ab + qm) / 2^(32N) < m (4m / 2^(32N) + 1) < 2m, and the running t stays below 3m + 1, so
     * the no-carry top-word rule is unchanged. */

    /* Variant 2: 32-bit words, 64-bit accumulators. */
    template <bool RED = true>
    static CUZK_MONT_FN void mul_wide(uint32_t *r, const uint32_t *a, const uint32_t *b0)
    {
        uint32_t t[N + 2], b[N];
#pragma unroll
        for (int j = 0; j < N; j++)
            b[j] = b0[j];
#pragma unroll
        for (int j = 0; j < N + 2; j++)
            t[j] = 0;
        CZ_ROWS
        for (int i = 0; i < N; i++) {
            uint64_t c = 0;
            const uint32_t bi = b[0];
#pragma unroll
            for (int j = 0; j < N - 1; j++)
                b[j] = b[j + 1];
#pragma unroll
            for (int j = 0; j < N; j++) {
                c = (uint64_t)a[j] * bi + t[j] + (c >> 32);
                t[j] = (uint32_t)c;
            }
            c = (uint64_t)t[N] + (c >> 32);
            t[N] = (uint32_t)c;
            t[N + 1] = (uint32_t)(c >> 32);
            uint32_t q = t[0] * F::n0;
            c = (uint64_t)q * F::m(0) + t[0];
#pragma unroll
            for (int j = 1; j < N; j++) {
                c = (uint64_t)q * F::m(j) + t[j] + (c >> 32);
                t[j - 1] = (uint32_t)c;
            }
            c = (uint64_t)t[N] + (c >> 32);
            t[N - 1] = (uint32_t)c;
            t[N] = t[N + 1] + (uint32_t)(c >> 32);
        }
        finish<RED>(r, t);
    }

    template <bool RED> static CUZK_MONT_FN void finish(uint32_t *r, const uint32_t *t)
    {
        if (RED) {
            reduce_once(r, t);
        } else {
#pragma unroll
            for (int i = 0; i < N; i++)
                r[i] = t[i];
        }
    }

    /* Variant 3: PTX carry chains (see the header comment for the bounds). */
    template <bool RED = true>
    static CUZK_MONT_FN void mul_chain(uint32_t *r, const uint32_t *a, const uint32_t *b0)
    {
        CZ_CC;
        uint32_t t[N + 1], b[N];
#pragma unroll
        for (int j = 0; j < N; j++)
            b[j] = b0[j];
#pragma unroll
        for (int j = 0; j < N + 1; j++)
            t[j] = 0;
        CZ_ROWS
        for (int i = 0; i < N; i++) {
            const uint32_t bi = b[0];
#pragma unroll
            for (int j = 0; j < N - 1; j++)
                b[j] = b[j + 1];
            /* t += a * bi: low halves, carry into t[N]; then high halves one word up. */
            CZ_MADLO_CC(t[0], a[0], bi, t[0]);
#pragma unroll
            for (int j = 1; j < N; j++)
                CZ_MADCLO_CC(t[j], a[j], bi, t[j]);
            CZ_ADDC(t[N], t[N], 0u);
            CZ_MADHI_CC(t[1], a[0], bi, t[1]);
#pragma unroll
            for (int j = 1; j < N - 1; j++)
                CZ_MADCHI_CC(t[j + 1], a[j], bi, t[j + 1]);
            CZ_MADCHI(t[N], a[N - 1], bi, t[N]);
            /* t += q * m, which clears t[0]. */
            const uint32_t q = t[0] * F::n0;
            CZ_MADLO_CC(t[0], F::m(0), q, t[0]);
#pragma unroll
            for (int j = 1; j < N; j++)
                CZ_MADCLO_CC(t[j], F::m(j), q, t[j]);
            CZ_ADDC(t[N], t[N], 0u);
            CZ_MADHI_CC(t[1], F::m(0), q, t[1]);
#pragma unroll
            for (int j = 1; j < N - 1; j++)
                CZ_MADCHI_CC(t[j + 1], F::m(j), q, t[j + 1]);
            CZ_MADCHI(t[N], F::m(N - 1), q, t[N]);
            /* t /= 2^32 */
#pragma unroll
            for (int j = 0; j < N; j++)
                t[j] = t[j + 1];
            t[N] = 0;
        }
        finish<RED>(r, t);
    }

    /* Variant 7 (CUZK_GPU_MONT_MUL = 7; 4..6 are other codes of src/gpu/field.cu's test and bench
     * kernels): CIOS on 32-bit words with the row's products split by word parity into two
     * accumulators, so that the low and high halves of one product sit next to each other in one
     * carry chain (mad.lo.cc then madc.hi.cc on the same operands) instead of two chains.
     *   e: words 0..N of the running value, receives a[2k] bi and m[2k] q (lo at 2k, hi at 2k+1);
     *   o: words 1..N (o[j] is word j + 1), receives a[2k+1] bi and m[2k+1] q, zero at row start.
     * The row value is V = e + 2^32 o. Bound (why no chain loses a carry): every term added is
     * non-negative, so e <= V and 2^32 o <= V at every step, and V <= t + a bi + q m < 2^(32(N+1))
     * (the header's bound; with RED = false, a, b < 2m and t < 3m + 1 as stated above mul_wide).
     * Hence e fits N + 1 words (its chains carry into e[N] only) and o fits N words (its chains
     * end with a carry-less madc.hi into o[N-1]). The row ends with V / 2^32 = e[1..N] + o, added
     * into e with one add chain; that sum is the next t < 2^(32N), so it carries out nothing. */
    template <bool RED = true>
    static CUZK_MONT_FN void mul_eo(uint32_t *r, const uint32_t *a, const uint32_t *b0)
    {
        uint32_t e[N + 1], o[N], b[N];
#pragma unroll
        for (int j = 0; j < N; j++)
            b[j] = b0[j];
#pragma unroll
        for (int j = 0; j < N + 1; j++)
            e[j] = 0;
        CZ_ROWS
        for (int i = 0; i < N; i++) {
            const uint32_t bi = b[0];
#pragma unroll
            for (int j = 0; j < N - 1; j++)
                b[j] = b[j + 1];
#pragma unroll
            for (int j = 0; j < N; j++)
                o[j] = 0;
            row_prod_eo(e, o, a, bi); /* e += a_even bi, o += a_odd bi */
            row_redc_eo(e, o);        /* + m q, then t = V / 2^32 */
        }
        finish<RED>(r, e);
    }

    /* ---- Even/odd squaring and the fused sum of two products (CUZK_GPU_MONT_SQR = 2, and
     * mul_sum / mul_diff for src/gpu/point.cuh's CUZK_GPU_PT_FUSED), in mul_eo's style: every
     * chain holds products of one word parity, so ptxas fuses each product's halves into one
     * IMAD.WIDE. Counts for Fp (N = 12) in 32x32 products: mul_eo 2 N^2 = 288; sqr_eo
     * N(N-1)/2 + N = 78 for the square plus N^2 = 144 for the reduction (222); mul_sum 3 N^2 =
     * 432 for two products (576 as two mul_eo). In IMAD slots (sm_90 SASS, CUDA 13.0, unrolled,
     * lazy, one-operation kernels less their loads and stores): mul_eo 584, sqr_eo 473, mul_diff
     * 870 against 1,170 for two mul_eo and a sub. */

    /* e += x_even y (e: words 0..N), o += x_odd y (o[j] is word j + 1): mul_eo's row products. */
    static CUZK_MONT_FN void row_prod_eo(uint32_t *e, uint32_t *o, const uint32_t *x, uint32_t y)
    {
        CZ_CC;
        CZ_MADLO_CC(e[0], x[0], y, e[0]);
        CZ_MADCHI_CC(e[1], x[0], y, e[1]);
#pragma unroll
        for (int j = 2; j < N; j += 2) {
            CZ_MADCLO_CC(e[j], x[j], y, e[j]);
            CZ_MADCHI_CC(e[j + 1], x[j], y, e[j + 1]);
        }
        CZ_ADDC(e[N], e[N], 0u);
        CZ_MADLO_CC(o[0], x[1], y, o[0]);
        CZ_MADCHI_CC(o[1], x[1], y, o[1]);
#pragma unroll
        for (int j = 2; j < N - 2; j += 2) {
            CZ_MADCLO_CC(o[j], x[j + 1], y, o[j]);
            CZ_MADCHI_CC(o[j + 1], x[j + 1], y, o[j + 1]);
        }
        CZ_MADCLO_CC(o[N - 2], x[N - 1], y, o[N - 2]);
        CZ_MADCHI(o[N - 1], x[N - 1], y, o[N - 1]);
    }

    /* The row's reduction: q = e[0] n0, e += m_even q, o += m_odd q (clears word 0), then
     * e[0..N-1] = (e + 2^32 o) / 2^32 and e[N] = 0. The caller's bound on the row value
     * V = e + 2^32 o (V < 2^(32(N+1)) after the m q terms, next t = V / 2^32 < 2^(32N)) is what
     * lets e's chains stop at e[N], o's at o[N-1] and the final add chain at e[N-1] (mul_eo's
     * argument). */
    static CUZK_MONT_FN void row_redc_eo(uint32_t *e, uint32_t *o)
    {
        CZ_CC;
        const uint32_t q = row_redc_even_(e);
        CZ_MADLO_CC(o[0], F::m(1), q, o[0]);
        CZ_MADCHI_CC(o[1], F::m(1), q, o[1]);
#pragma unroll
        for (int j = 2; j < N - 2; j += 2) {
            CZ_MADCLO_CC(o[j], F::m(j + 1), q, o[j]);
            CZ_MADCHI_CC(o[j + 1], F::m(j + 1), q, o[j + 1]);
        }
        CZ_MADCLO_CC(o[N - 2], F::m(N - 1), q, o[N - 2]);
        CZ_MADCHI(o[N - 1], F::m(N - 1), q, o[N - 1]);
        row_shift_(e, o);
    }

    /* row_redc_eo for o = 0 (the squaring's reduction rows): o = m_odd q is then the products
     * themselves, side by side with no carries (m[2k+1] q fills words 2k and 2k + 1 of o). */
    static CUZK_MONT_FN void row_redc0_eo(uint32_t *e)
    {
        uint32_t o[N];
        const uint32_t q = row_redc_even_(e);
#pragma unroll
        for (int j = 0; j < N; j += 2) {
            const uint64_t p = (uint64_t)F::m(j + 1) * q;
            o[j] = (uint32_t)p;
            o[j + 1] = (uint32_t)(p >> 32);
        }
        row_shift_(e, o);
    }

    /* q = e[0] n0 and e += m_even q, which clears e[0]; returns q. */
    static CUZK_MONT_FN uint32_t row_redc_even_(uint32_t *e)
    {
        CZ_CC;
        const uint32_t q = e[0] * F::n0;
        CZ_MADLO_CC(e[0], F::m(0), q, e[0]);
        CZ_MADCHI_CC(e[1], F::m(0), q, e[1]);
#pragma unroll
        for (int j = 2; j < N; j += 2) {
            CZ_MADCLO_CC(e[j], F::m(j), q, e[j]);
            CZ_MADCHI_CC(e[j + 1], F::m(j), q, e[j + 1]);
        }
        CZ_ADDC(e[N], e[N], 0u);
        return q;
    }

    /* e[0..N-1] = (e + 2^32 o) / 2^32 (e[0] is 0), e[N] = 0. */
    static CUZK_MONT_FN void row_shift_(uint32_t *e, const uint32_t *o)
    {
        CZ_CC;
        CZ_ADD_CC(e[0], e[1], o[0]);
#pragma unroll
        for (int j = 1; j < N - 1; j++)
            CZ_ADDC_CC(e[j], e[j + 1], o[j]);
        CZ_ADDC(e[N - 1], e[N], o[N - 1]);
        e[N] = 0;
    }

    /* r = W R^-1 for a 2N-word W with floor(W / R) + m < 2m: N rows of row_redc0_eo on W mod R
     * leave t <= m, then t + floor(W / R), one add chain (sqr_eo's reduction, bounds below; also
     * mont_ka.cuh's). */
    template <bool RED> static CUZK_MONT_FN void redc_wide(uint32_t *r, const uint32_t *w)
    {
        CZ_CC;
        uint32_t e[N + 1];
#pragma unroll
        for (int j = 0; j < N; j++)
            e[j] = w[j];
        e[N] = 0;
        CZ_ROWS
        for (int i = 0; i < N; i++)
            row_redc0_eo(e);
        CZ_ADD_CC(e[0], e[0], w[N]);
#pragma unroll
        for (int j = 1; j < N - 1; j++)
            CZ_ADDC_CC(e[j], e[j], w[N + j]);
        CZ_ADDC(e[N - 1], e[N - 1], w[2 * N - 1]);
        finish<RED>(r, e);
    }

    /*
     * r = a^2 R^-1 (CUZK_GPU_MONT_SQR = 2): the 2N-word square W, then W_lo reduced by N rows of
     * row_redc0_eo and W_hi added. Same contract as mul: a < m, or a < 2m with 4m < 2^(32N) (the
     * lazy form); output below m (RED) or 2m.
     *
     * Square. Row i (i < N - 1) adds a_i a_j for j > i at word i + j in two chains split by the
     * parity of j, so that each chain's products occupy adjacent word pairs (lo, hi), all into
     * the one 2N-word array w:
     *   chain 1: j = N (mod 2), j <= N - 2: top hi word i + N - 1, carry into w[i + N];
     *   chain 2: j = N - 1 (mod 2), j <= N - 1: top hi word i + N, no carry out.
     * Rows before i write nothing above word i + N - 1 (row i - 1's chain 2 tops out there, its
     * chain 1 carries into w[i + N - 1]), so w[i + N] is still zero when chain 1 carries into it.
     * After row i, w holds S_i = sum_{k<=i} a_k 2^(32k) sum_{j>k} a_j 2^(32j) < 2^(32(i+1)) a
     * < 2^(32(N+i+1)) with nothing above word i + N, so chain 2, row i's last addition, cannot
     * carry out of word i + N. (Chain 1 goes first for this: the other order would carry into a
     * word holding a product's hi half, and that carry could travel on.) So
     * w = sum_{i<j} a_i a_j 2^(32(i+j)) = (a^2 - D) / 2 < 2^(64N - 1) exactly, with
     * D = sum a_i^2 2^(64i); doubling w cannot overflow, and adding D as one chain of a_i^2 at
     * words 2i, 2i + 1 leaves W = a^2 < 2^(64N) with no carry out of w[2N - 1].
     *
     * Reduction. t starts as W_lo = W mod R (R = 2^(32N)); each row makes t (t + q m) / 2^32:
     * V = t + q m < R + 2^32 m < 2^(32(N+1)) and the next t < R / 2^32 + m < R (row_redc_eo's
     * bound). After N rows t = (W_lo + Q m) / R < (R + R m) / R, so t <= m, and t R = W_lo + Q m.
     * Then r = t + W_hi = (W + Q m) / R == a^2 R^-1 (mod m), with W_hi = floor(W / R) < a^2 / R:
     * for a < 2m (Fp: m / R < 0.102) W_hi < 4m (m / R) < 0.41 m, and for a < m with Fr's
     * m / R < 0.454, W_hi < 0.46 m; so t + W_hi < 2m < R, one add chain with no carry out, and
     * finish<RED> ends as mul_eo does. Cross-product rows are unrolled (their lengths differ);
     * the reduction rows follow CUZK_GPU_MONT_ROLL.
     */
    template <bool RED = true> static CUZK_MONT_FN void sqr_eo(uint32_t *r, const uint32_t *a)
    {
        CZ_CC;
        uint32_t w[2 * N];
#pragma unroll
        for (int k = 0; k < 2 * N; k++)
            w[k] = 0;
#pragma unroll
        for (int i = 0; i < N - 1; i++) {
            const int j1 = ((i + 1) & 1) == (N & 1) ? i + 1 : i + 2;
            if (j1 <= N - 2) {
                CZ_MADLO_CC(w[i + j1], a[i], a[j1], w[i + j1]);
                CZ_MADCHI_CC(w[i + j1 + 1], a[i], a[j1], w[i + j1 + 1]);
#pragma unroll
                for (int j = j1 + 2; j <= N - 2; j += 2) {
                    CZ_MADCLO_CC(w[i + j], a[i], a[j], w[i + j]);
                    CZ_MADCHI_CC(w[i + j + 1], a[i], a[j], w[i + j + 1]);
                }
                CZ_ADDC(w[i + N], w[i + N], 0u);
            }
            const int j2 = ((i + 1) & 1) == ((N - 1) & 1) ? i + 1 : i + 2;
            if (j2 < N - 1) {
                CZ_MADLO_CC(w[i + j2], a[i], a[j2], w[i + j2]);
                CZ_MADCHI_CC(w[i + j2 + 1], a[i], a[j2], w[i + j2 + 1]);
#pragma unroll
                for (int j = j2 + 2; j < N - 1; j += 2) {
                    CZ_MADCLO_CC(w[i + j], a[i], a[j], w[i + j]);
                    CZ_MADCHI_CC(w[i + j + 1], a[i], a[j], w[i + j + 1]);
                }
                CZ_MADCLO_CC(w[i + N - 1], a[i], a[N - 1], w[i + N - 1]);
            } else {
                CZ_MADLO_CC(w[i + N - 1], a[i], a[N - 1], w[i + N - 1]);
            }
            CZ_MADCHI(w[i + N], a[i], a[N - 1], w[i + N]); /* no carry out (above) */
        }
        /* w += w as an add chain (the ALU pipe: a shift would partly go to IMAD.SHL); w[0] is 0 */
        CZ_ADD_CC(w[1], w[1], w[1]);
#pragma unroll
        for (int k = 2; k < 2 * N - 1; k++)
            CZ_ADDC_CC(w[k], w[k], w[k]);
        CZ_ADDC(w[2 * N - 1], w[2 * N - 1], w[2 * N - 1]);
        CZ_MADLO_CC(w[0], a[0], a[0], w[0]);
        CZ_MADCHI_CC(w[1], a[0], a[0], w[1]);
#pragma unroll
        for (int i = 1; i < N - 1; i++) {
            CZ_MADCLO_CC(w[2 * i], a[i], a[i], w[2 * i]);
            CZ_MADCHI_CC(w[2 * i + 1], a[i], a[i], w[2 * i + 1]);
        }
        CZ_MADCLO_CC(w[2 * N - 2], a[N - 1], a[N - 1], w[2 * N - 2]);
        CZ_MADCHI(w[2 * N - 1], a[N - 1], a[N - 1], w[2 * N - 1]);
        redc_wide<RED>(r, w);
    }

    /*
     * r = (a b + c d) R^-1: one CIOS with two products per row and one reduction (mul_eo's rows
     * with row_prod_eo twice). Inputs a, c < 2m and b, d <= 2m; needs 5m < 2^(32N), which holds
     * for Fp (m / R < 0.102) and not for Fr (0.454): Fp only (the static_assert's proxy is N).
     * Bounds, R = 2^(32N): after row i, t = sum_{k<=i} (a b_k + c d_k + q_k m) 2^(32k) /
     * 2^(32(i+1)) < a + c + m < 5m, so a row value V = t + a b_i + c d_i + q m < 2^32 (a + c + m)
     * < 2^32 5m < 2^(32(N+1)): e fits N + 1 words and 2^32 o <= V leaves o below 2^(32N), as in
     * mul_eo. The result t = (a b + c d + Q m) / R < (8m^2 + R m) / R = m (1 + 8m / R) < 1.82 m
     * for Fp: below 2m, the lazy form's bound, and one finish<RED> as mul_eo's.
     */
    template <bool RED = true>
    static CUZK_MONT_FN void mul_sum(uint32_t *r, const uint32_t *a, const uint32_t *b0,
                                     const uint32_t *c, const uint32_t *d0)
    {
        static_assert(N == 12, "mul_sum needs 5m < 2^(32N): Fp only");
        uint32_t e[N + 1], o[N], b[N], d[N];
#pragma unroll
        for (int j = 0; j < N; j++) {
            b[j] = b0[j];
            d[j] = d0[j];
        }
#pragma unroll
        for (int j = 0; j < N + 1; j++)
            e[j] = 0;
        CZ_ROWS
        for (int i = 0; i < N; i++) {
            const uint32_t bi = b[0], di = d[0];
#pragma unroll
            for (int j = 0; j < N - 1; j++) {
                b[j] = b[j + 1];
                d[j] = d[j + 1];
            }
#pragma unroll
            for (int j = 0; j < N; j++)
                o[j] = 0;
            row_prod_eo(e, o, a, bi);
            row_prod_eo(e, o, c, di);
            row_redc_eo(e, o);
        }
        finish<RED>(r, e);
    }

    /* r = (a b - c d) R^-1 as mul_sum(a, b, c, 2m - d): a, c, d < 2m (d = 0 gives 2m, allowed). */
    template <bool RED = true>
    static CUZK_MONT_FN void mul_diff(uint32_t *r, const uint32_t *a, const uint32_t *b,
                                      const uint32_t *c, const uint32_t *d)
    {
        uint32_t nd[N];
        two_m_minus(nd, d);
#if CUZK_GPU_MONT_KARA >= 2
        ka::template mul_sum_ka<RED>(r, a, b, c, nd);
#else
        mul_sum<RED>(r, a, b, c, nd);
#endif
    }

    /* r = 2m - d (d <= 2m) */
    static CUZK_MONT_FN void two_m_minus(uint32_t *r, const uint32_t *d)
    {
        CZ_CC;
        CZ_SUB_CC(r[0], km<2>(0), d[0]);
#pragma unroll
        for (int i = 1; i < N - 1; i++)
            CZ_SUBC_CC(r[i], km<2>(i), d[i]);
        CZ_SUBC(r[N - 1], km<2>(N - 1), d[N - 1]);
    }

    /* Variant 1: 64-bit limbs (the host's CIOS, src/field/mont.h). */
    template <bool RED = true>
    static CUZK_MONT_FN void mul_u64(uint32_t *r, const uint32_t *a32, const uint32_t *b32)
    {
        constexpr int L = N / 2;
        typedef unsigned __int128 u128;
        uint64_t a[L], b[L], m[L], t[L];
        const uint64_t n0 = n0_64();
#pragma unroll
        for (int i = 0; i < L; i++) {
            a[i] = a32[2 * i] | ((uint64_t)a32[2 * i + 1] << 32);
            b[i] = b32[2 * i] | ((uint64_t)b32[2 * i + 1] << 32);
            m[i] = F::m(2 * i) | ((uint64_t)F::m(2 * i + 1) << 32);
            t[i] = 0;
        }
        CZ_ROWS
        for (int i = 0; i < L; i++) {
            const uint64_t bi = b[0];
#pragma unroll
            for (int j = 0; j < L - 1; j++)
                b[j] = b[j + 1];
            u128 uv = (u128)a[0] * bi + t[0];
            uint64_t A = (uint64_t)(uv >> 64);
            t[0] = (uint64_t)uv;
            uint64_t q = t[0] * n0;
            uv = (u128)q * m[0] + t[0];
            uint64_t C = (uint64_t)(uv >> 64);
#pragma unroll
            for (int j = 1; j < L; j++) {
                uv = (u128)a[j] * bi + t[j] + A;
                A = (uint64_t)(uv >> 64);
                t[j] = (uint64_t)uv;
                uv = (u128)q * m[j] + t[j] + C;
                C = (uint64_t)(uv >> 64);
                t[j - 1] = (uint64_t)uv;
            }
            t[L - 1] = C + A;
        }
        uint32_t t32[N];
#pragma unroll
        for (int i = 0; i < L; i++) {
            t32[2 * i] = (uint32_t)t[i];
            t32[2 * i + 1] = (uint32_t)(t[i] >> 32);
        }
        finish<RED>(r, t32);
    }

    /* Squaring on 64-bit limbs (SOS): the L(L-1)/2 cross products once, doubled, plus the L
     * squares, then a separate REDC of the 2L-limb square: L(L+1)/2 + L^2 products instead of
     * 2 L^2 (57 against 72 for Fp). Same bounds as the multiplication. */
    template <bool RED = true> static CUZK_MONT_FN void sqr_u64(uint32_t *r, const uint32_t *a32)
    {
        constexpr int L = N / 2;
        typedef unsigned __int128 u128;
        uint64_t a[L], w[2 * L];
        const uint64_t n0 = n0_64();
#pragma unroll
        for (int i = 0; i < L; i++)
            a[i] = a32[2 * i] | ((uint64_t)a32[2 * i + 1] << 32);
#pragma unroll
        for (int i = 0; i < 2 * L; i++)
            w[i] = 0;
#pragma unroll
        for (int i = 0; i < L - 1; i++) {
            uint64_t c = 0;
#pragma unroll
            for (int j = i + 1; j < L; j++) {
                u128 uv = (u128)a[i] * a[j] + w[i + j] + c;
                w[i + j] = (uint64_t)uv;
                c = (uint64_t)(uv >> 64);
            }
            w[i + L] = c;
        }
        w[2 * L - 1] = w[2 * L - 2] >> 63;
#pragma unroll
        for (int i = 2 * L - 2; i > 0; i--)
            w[i] = (w[i] << 1) | (w[i - 1] >> 63);
        w[0] <<= 1;
        uint64_t c = 0;
#pragma unroll
        for (int i = 0; i < L; i++) {
            u128 sq = (u128)a[i] * a[i];
            u128 lo = (u128)w[2 * i] + (uint64_t)sq + c;
            w[2 * i] = (uint64_t)lo;
            u128 hi = (u128)w[2 * i + 1] + (uint64_t)(sq >> 64) + (uint64_t)(lo >> 64);
            w[2 * i + 1] = (uint64_t)hi;
            c = (uint64_t)(hi >> 64);
        }
        /* REDC: row i clears w[i]; hc carries into the next row's top word. */
        uint64_t hc = 0;
#pragma unroll
        for (int i = 0; i < L; i++) {
            const uint64_t q = w[i] * n0;
            uint64_t C = 0;
#pragma unroll
            for (int j = 0; j < L; j++) {
                const uint64_t mj = F::m(2 * j) | ((uint64_t)F::m(2 * j + 1) << 32);
                u128 uv = (u128)q * mj + w[i + j] + C;
                w[i + j] = (uint64_t)uv;
                C = (uint64_t)(uv >> 64);
            }
            u128 top = (u128)w[i + L] + C + hc;
            w[i + L] = (uint64_t)top;
            hc = (uint64_t)(top >> 64);
        }
        uint32_t t32[N];
#pragma unroll
        for (int i = 0; i < L; i++) {
            t32[2 * i] = (uint32_t)w[L + i];
            t32[2 * i + 1] = (uint32_t)(w[L + i] >> 32);
        }
        finish<RED>(r, t32);
    }

    /* -m^-1 mod 2^64 from the 32-bit n0 (one Newton step: x <- x (2 - m x) doubles the bits). */
    static CUZK_MONT_FN uint64_t n0_64()
    {
        const uint64_t m0 = F::m(0) | ((uint64_t)F::m(1) << 32);
        uint64_t inv = (uint64_t)(uint32_t)(0u - F::n0); /* m^-1 mod 2^32 */
        inv *= 2 - m0 * inv;
        return 0 - inv;
    }

    template <bool RED = true>
    static CUZK_MONT_FN void mul(uint32_t *r, const uint32_t *a, const uint32_t *b)
    {
#if CUZK_GPU_MONT_MUL == 1
        mul_u64<RED>(r, a, b);
#elif CUZK_GPU_MONT_MUL == 2
        mul_wide<RED>(r, a, b);
#elif CUZK_GPU_MONT_MUL == 7 && CUZK_GPU_MONT_KARA
        ka::template mul_ka<RED>(r, a, b);
#elif CUZK_GPU_MONT_MUL == 7
        mul_eo<RED>(r, a, b);
#else
        mul_chain<RED>(r, a, b);
#endif
    }

    /* CUZK_GPU_MONT_SQR = 1: the dedicated squaring on 64-bit limbs (sqr_u64); 2: the even/odd
     * squaring (sqr_eo); else a multiplication. */
    template <bool RED = true> static CUZK_MONT_FN void sqr(uint32_t *r, const uint32_t *a)
    {
#if defined(CUZK_GPU_MONT_SQR) && CUZK_GPU_MONT_SQR == 2
        sqr_eo<RED>(r, a);
#elif defined(CUZK_GPU_MONT_SQR) && CUZK_GPU_MONT_SQR
        sqr_u64<RED>(r, a);
#else
        mul<RED>(r, a, a);
#endif
    }
};

#include "gpu/mont_ka.cuh"

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GPU_FP_INV_CUH
#define CUZK_GPU_FP_INV_CUH

/*
 * Fp inversion on the device without an exponentiation: the binary GCD with approximations of
 * T. Pornin, "Optimized Binary GCD for Modular Inversion" (IACR ePrint 2020/972), in 32-bit
 * words. Invariants a = u y 4^i, b = v y 4^i (mod p) after i rounds, b odd, a, b >= 0. A round
 * runs 30 binary-GCD steps on 62-bit approximations of a and b (their low 30 bits and the 32
 * bits below the top bit of the longer one), which gives update factors f, g with |f| + |g| <=
 * 2^30; then a, b = (a f + b g) / 2^30 exactly (negated when below zero) and u, v = (u f + v g)
 * / 2^32 mod p (one Montgomery word step). Each round takes at least 30 bits off len(a) +
 * len(b) <= 762, so 26 rounds end with a = 0, b = 1 and v = y^-1 4^-26 (random values are done
 * after ~18: with 18 rounds msm-emu sees about two in three complete); inv reports b = 1, so a
 * caller can check the bound instead of trusting it. The steps are written
 * without branches, so the lanes of a warp never diverge. Measured on an H100 (`cuzk-bench ntt
 * --backend cuda --filter=pipe_fp_inv`): 0.387 G inversions/s against 26.4 G Fp products/s,
 * so one inversion costs ~68 products, against ~440 for y^(p - 2).
 *
 * The device twin of src/field/fp_inv.c (cuzk_fp_inv_vartime, the same algorithm on 64-bit limbs
 * with __int128, 31 steps a round, stopping once a = 0). Here: 32-bit words, 30 steps so that
 * the factors fit int32, a fixed count of rounds so that a warp's lanes stay together, and u
 * starts at 1 with one product at the end instead of the host's u = R^2 and exact 2^31 steps.
 *
 * Used where a thread inverts alone: gm_precompute's table rows (src/gpu/msm_kernels.cuh). The
 * batch-affine bucket accumulation it was written for lost (docs/experiments/
 * batch-affine-level0.patch). Variable time (the inputs are multiples of public bases).
 */

#include "gpu/fp.cuh"

#define GM_INV_ROUNDS 26

/* 4^26 R^3 mod p (R = 2^384), so that one Montgomery product turns v into y^-1 in Montgomery
 * form: python3 -c "p=...; print(hex(pow(4,26,p)*pow(2,1152,p)%p))". */
#define GM_INV_FIX                                                                                 \
    {                                                                                              \
        0x8c5d1a2eu, 0x42957fa8u, 0x24cc85b1u, 0xa6507a62u, 0x39990a58u, 0xd8ca1b85u, 0xac2f63fcu, \
            0xe65a054fu, 0xe1f35417u, 0x4ca0897au, 0xa0365c54u, 0x032748cbu                        \
    }

struct gm_fp_inv {
    static constexpr int N = CUZK_GPU_FP_WORDS;

    static CUZK_MONT_FN uint32_t clz32(uint32_t x)
    {
#ifdef __CUDA_ARCH__
        return (uint32_t)__clz((int)x);
#else
        return x ? (uint32_t)__builtin_clz(x) : 32u;
#endif
    }

    /* max(bit length of a, of b, 62) */
    static CUZK_MONT_FN uint32_t len2(const uint32_t *a, const uint32_t *b)
    {
        uint32_t len = 62;
#pragma unroll
        for (int i = 0; i < N; i++) {
            uint32_t w = a[i] | b[i];
            uint32_t l = 32u * (uint32_t)i + 32u - clz32(w);
            len = (w && l > len) ? l : len;
        }
        return len;
    }

    /* a's bits [n - 32, n) */
    static CUZK_MONT_FN uint32_t top32(const uint32_t *a, uint32_t n)
    {
        uint32_t s = n - 32, wi = s >> 5, sh = s & 31, lo = 0, hi = 0;
#pragma unroll
        for (int i = 0; i < N; i++) {
            lo = (uint32_t)i == wi ? a[i] : lo;
            hi = (uint32_t)i == wi + 1 ? a[i] : hi;
        }
        return sh ? (lo >> sh) | (hi << (32 - sh)) : lo;
    }

    /* |x| as an unsigned word and the mask of its sign */
    static CUZK_MONT_FN void split(int32_t x, uint32_t &mag, uint64_t &neg)
    {
        neg = 0 - (uint64_t)(x < 0);
        mag = x < 0 ? (uint32_t)0 - (uint32_t)x : (uint32_t)x;
    }

    /* a f + b g for a, b < 2^384 and |f| + |g| <= 2^30: its low 384 bits in t, the rest (signed,
     * below 2^31 in size) returned */
    static CUZK_MONT_FN int64_t lin(uint32_t *t, const uint32_t *a, const uint32_t *b, int32_t f,
                                    int32_t g)
    {
        uint32_t fm, gm;
        uint64_t fn, gn;
        split(f, fm, fn);
        split(g, gm, gn);
        int64_t c = 0;
#pragma unroll
        for (int i = 0; i < N; i++) {
            int64_t pa = (int64_t)((((uint64_t)a[i] * fm) ^ fn) - fn);
            int64_t pb = (int64_t)((((uint64_t)b[i] * gm) ^ gn) - gn);
            int64_t s = pa + pb + c; /* |s| < 2^62 + 2^32 */
            t[i] = (uint32_t)s;
            c = s >> 32;
        }
        return c;
    }

    /* r = (a f + b g) / 2^30 for a, b < 2^384, |f| + |g| <= 2^30 (exact division); r >= 0.
     * Returns true when the quotient was negative (r is then its negation). */
    static CUZK_MONT_FN bool lin_shift(uint32_t *r, const uint32_t *a, const uint32_t *b, int32_t f,
                                       int32_t g)
    {
        uint32_t t[N];
        int64_t c = lin(t, a, b, f, g);
#pragma unroll
        for (int i = 0; i < N - 1; i++)
            r[i] = (t[i] >> 30) | (t[i + 1] << 2);
        r[N - 1] = (t[N - 1] >> 30) | ((uint32_t)c << 2);
        bool neg = c < 0;
        uint32_t m = 0 - (uint32_t)neg, cy = neg ? 1u : 0u;
#pragma unroll
        for (int i = 0; i < N; i++) { /* r = neg ? -r : r */
            uint64_t s = (uint64_t)(r[i] ^ m) + cy;
            r[i] = (uint32_t)s;
            cy = (uint32_t)(s >> 32);
        }
        return neg;
    }

    /* r = (u f + v g) / 2^32 mod p for u, v < p, |f| + |g| <= 2^30; r < p. */
    static CUZK_MONT_FN void lin_mont(uint32_t *r, const uint32_t *u, const uint32_t *v, int32_t f,
                                      int32_t g)
    {
        uint32_t t[N];
        int64_t c = lin(t, u, v, f, g);
        /* s = t + c 2^384 in [-p 2^30, p 2^30]; add q p with q = -t / p mod 2^32, then / 2^32 */
        uint32_t q = t[0] * fp_params::n0;
        uint64_t acc = (uint64_t)q * fp_params::m(0) + t[0]; /* low word becomes 0 */
        uint32_t cy = (uint32_t)(acc >> 32);
#pragma unroll
        for (int i = 1; i < N; i++) {
            acc = (uint64_t)q * fp_params::m(i) + t[i] + cy;
            r[i - 1] = (uint32_t)acc;
            cy = (uint32_t)(acc >> 32);
        }
        /* top word: c (signed, small) + cy; the value is in (-p / 4, 1.25 p) */
        int64_t top = c + (int64_t)cy;
        r[N - 1] = (uint32_t)top;
        bool neg = top < 0 || (int32_t)r[N - 1] < 0;
        /* below zero: add p; at or above p: subtract p (p < 2^381, so bit 31 of the top word
         * is set only for negative values) */
        uint32_t d[N], k = 0;
        uint32_t bw = 0;
#pragma unroll
        for (int i = 0; i < N; i++) {
            uint64_t s = (uint64_t)r[i] - fp_params::m(i) - bw;
            d[i] = (uint32_t)s;
            bw = (uint32_t)(s >> 32) & 1u;
        }
        if (neg) {
#pragma unroll
            for (int i = 0; i < N; i++) {
                uint64_t s = (uint64_t)r[i] + fp_params::m(i) + k;
                r[i] = (uint32_t)s;
                k = (uint32_t)(s >> 32);
            }
        } else if (!bw) {
#pragma unroll
            for (int i = 0; i < N; i++)
                r[i] = d[i];
        }
    }

    /* out = in^-1 (Montgomery form in and out) for a non-zero residue below 2p. Returns whether
     * the rounds ended with b = 1 (always, by the bound above; a caller may check it and fall
     * back to an exponentiation rather than trust the bound). ROUNDS: fewer for tests only. */
    template <int ROUNDS = GM_INV_ROUNDS>
    static CUZK_MONT_FN bool inv(fp_dev &out, const fp_dev &in)
    {
        uint32_t a[N], b[N], u[N], v[N], t[N];
        fp_to_words_(a, &in);
        fp_mont::reduce_once(a, a);
#pragma unroll
        for (int i = 0; i < N; i++) {
            b[i] = fp_params::m(i);
            u[i] = i == 0;
            v[i] = 0;
        }
#pragma unroll 1
        for (int round = 0; round < ROUNDS; round++) {
            uint32_t n = len2(a, b);
            uint64_t ab = ((uint64_t)top32(a, n) << 30) | (a[0] & 0x3fffffffu);
            uint64_t bb = ((uint64_t)top32(b, n) << 30) | (b[0] & 0x3fffffffu);
            uint32_t f0 = 1, g0 = 0, f1 = 0, g1 = 1;
#pragma unroll 6
            for (int j = 0; j < 30; j++) {
                uint64_t odd = 0 - (ab & 1);
                uint64_t sw = odd & (0 - (uint64_t)(ab < bb));
                uint64_t x = (ab ^ bb) & sw;
                ab ^= x;
                bb ^= x;
                uint32_t s32 = (uint32_t)sw, o32 = (uint32_t)odd;
                uint32_t xf = (f0 ^ f1) & s32, xg = (g0 ^ g1) & s32;
                f0 ^= xf;
                f1 ^= xf;
                g0 ^= xg;
                g1 ^= xg;
                ab -= bb & odd;
                f0 -= f1 & o32;
                g0 -= g1 & o32;
                ab >>= 1;
                f1 <<= 1;
                g1 <<= 1;
            }
            int32_t F0 = (int32_t)f0, G0 = (int32_t)g0, F1 = (int32_t)f1, G1 = (int32_t)g1;
            if (lin_shift(t, a, b, F0, G0)) {
                F0 = -F0;
                G0 = -G0;
            }
            if (lin_shift(b, a, b, F1, G1)) {
                F1 = -F1;
                G1 = -G1;
            }
#pragma unroll
            for (int i = 0; i < N; i++)
                a[i] = t[i];
            lin_mont(t, u, v, F0, G0);
            lin_mont(v, u, v, F1, G1);
#pragma unroll
            for (int i = 0; i < N; i++)
                u[i] = t[i];
        }
        /* fewer rounds (tests): v / 4 for each round left out, as a round with a = 0 would */
#pragma unroll 1
        for (int i = 0; i < 2 * (GM_INV_ROUNDS - ROUNDS); i++) { /* v = v / 2 mod p */
            uint32_t odd = 0 - (v[0] & 1u), c = 0;
#pragma unroll
            for (int j = 0; j < N; j++) {
                uint64_t s = (uint64_t)v[j] + (fp_params::m(j) & odd) + c;
                t[j] = (uint32_t)s;
                c = (uint32_t)(s >> 32);
            }
#pragma unroll
            for (int j = 0; j < N - 1; j++)
                v[j] = (t[j] >> 1) | (t[j + 1] << 31);
            v[N - 1] = (t[N - 1] >> 1) | (c << 31);
        }
        /* b = 1: y^-1 = v 4^26; times R^2 for the Montgomery form, in one product */
        constexpr uint32_t FIX[N] = GM_INV_FIX;
        uint32_t fx[N];
#pragma unroll
        for (int i = 0; i < N; i++)
            fx[i] = FIX[i];
        fp_mont::mul<!CUZK_GPU_FP_LAZY>(t, v, fx);
        fp_from_words_(&out, t);
        uint32_t nz = b[0] ^ 1u;
#pragma unroll
        for (int i = 1; i < N; i++)
            nz |= b[i];
        return nz == 0;
    }
};

#endif

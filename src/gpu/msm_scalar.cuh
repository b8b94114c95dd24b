/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GPU_MSM_SCALAR_CUH
#define CUZK_GPU_MSM_SCALAR_CUH

/*
 * Scalar handling of the device MSM, the device twin of src/msm/msm_scalars.h: Montgomery Fr to
 * canonical limbs, the "k > (r-1)/2 -> r - k on -P" flip, and signed (Booth) c-bit digits.
 * Plain 64-bit integer code, callable on the host too (CPU emulation of the kernels).
 */

#include <stdint.h>

#ifndef GM_HD
#define GM_HD __host__ __device__ __forceinline__
#endif

GM_HD uint64_t gm_mulhi64(uint64_t a, uint64_t b)
{
#ifdef __CUDA_ARCH__
    return __umul64hi(a, b);
#else
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
#endif
}

/* r = 0x73eda753...00000001, little-endian limbs; -r^-1 mod 2^64; (r - 1) / 2. */
#define GM_FR_R0 0xffffffff00000001ULL
#define GM_FR_R1 0x53bda402fffe5bfeULL
#define GM_FR_R2 0x3339d80809a1d805ULL
#define GM_FR_R3 0x73eda753299d7d48ULL
#define GM_FR_N0 0xfffffffeffffffffULL
#define GM_FR_H0 0x7fffffff80000000ULL
#define GM_FR_H1 0xa9ded2017fff2dffULL
#define GM_FR_H2 0x199cec0404d0ec02ULL
#define GM_FR_H3 0x39f6d3a994cebea4ULL

/* t = t R^-1 mod r by four word-by-word Montgomery reduction steps (msm_fr_canonical). */
GM_HD void gm_fr_canonical(uint64_t t[4])
{
    const uint64_t r[4] = {GM_FR_R0, GM_FR_R1, GM_FR_R2, GM_FR_R3};
#pragma unroll
    for (int i = 0; i < 4; i++) {
        uint64_t m = t[0] * GM_FR_N0;
        /* m r0 + t0 = 0 mod 2^64: the carry is hi(m r0) + (t0 != 0). */
        uint64_t carry = gm_mulhi64(m, r[0]) + (t[0] != 0);
#pragma unroll
        for (int j = 1; j < 4; j++) {
            uint64_t lo = m * r[j], hi = gm_mulhi64(m, r[j]);
            uint64_t s = lo + t[j];
            hi += s < lo;
            uint64_t s2 = s + carry;
            hi += s2 < s;
            t[j - 1] = s2;
            carry = hi;
        }
        t[3] = carry;
    }
}

/* out = a - b over 4 limbs; returns the borrow. */
GM_HD uint64_t gm_sub4(uint64_t out[4], const uint64_t a[4], const uint64_t b[4])
{
    uint64_t borrow = 0;
#pragma unroll
    for (int j = 0; j < 4; j++) {
        uint64_t d = a[j] - b[j];
        uint64_t b1 = a[j] < b[j];
        uint64_t d2 = d - borrow;
        uint64_t b2 = d < borrow;
        out[j] = d2;
        borrow = b1 | b2;
    }
    return borrow;
}

/* Replaces a canonical k in ((r-1)/2, r) by r - k and returns 1 (the point is then negated),
 * else leaves k and returns 0: every scalar below r then has at most 254 bits. */
GM_HD uint32_t gm_fr_flip(uint64_t k[4])
{
    const uint64_t r[4] = {GM_FR_R0, GM_FR_R1, GM_FR_R2, GM_FR_R3};
    const uint64_t h[4] = {GM_FR_H0, GM_FR_H1, GM_FR_H2, GM_FR_H3};
    uint64_t t[4];
    uint64_t above_half = gm_sub4(t, h, k);
    uint64_t below_r = gm_sub4(t, k, r);
    if (above_half & below_r) {
        gm_sub4(t, r, k);
#pragma unroll
        for (int j = 0; j < 4; j++)
            k[j] = t[j];
        return 1;
    }
    return 0;
}

/* Limb |i| of |k| (0 from 4 on) by selects, not by an index: with a loop-variable index the
 * device compiler keeps k in local memory (the digits kernel's windows loop is not unrolled). */
GM_HD uint64_t gm_limb(const uint64_t k[4], unsigned i)
{
    return i == 0 ? k[0] : i == 1 ? k[1] : i == 2 ? k[2] : i == 3 ? k[3] : 0;
}

/* The signed digit of window |w| from bits [wc - 1, wc + c) of |k| (msm_digit): in
 * [-2^(c-1), 2^(c-1)]; the digits of all windows sum (times 2^(wc)) to k when
 * k < 2^(c * nwin - 1). */
GM_HD int32_t gm_digit(const uint64_t k[4], unsigned w, unsigned c)
{
    unsigned off = w * c;
    uint64_t v;
    if (off == 0) {
        v = k[0] << 1;
    } else {
        unsigned lo = off - 1, limb = lo / 64, sh = lo % 64;
        v = gm_limb(k, limb) >> sh;
        if (sh + c + 1 > 64) /* sh > 0 here: c < 64 */
            v |= gm_limb(k, limb + 1) << (64 - sh);
    }
    v &= ((uint64_t)2 << c) - 1;
    int32_t d = (int32_t)((v >> 1) + (v & 1));
    if (v >> c)
        d -= (int32_t)1 << c;
    return d;
}

#endif

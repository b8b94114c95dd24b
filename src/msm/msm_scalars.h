/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_MSM_MSM_SCALARS_H
#define CUZK_MSM_MSM_SCALARS_H
/*
 * Internal to src/msm (included by msm_common.h): the MSM's view of its scalars. Montgomery or
 * canonical input, an optional common factor, the fold of scalars above (r-1)/2 onto negated
 * points, reduction below r for the endomorphism split, and the signed window digits.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cuzk/field.h"
#include "field/fp_internal.h"

/*
 * Canonical limbs of a Montgomery Fr element: a R^-1 mod r by four word-by-word Montgomery
 * reduction steps (20 multiplications instead of the 32 of multiplying by one as
 * cuzk_fr_to_canonical does). For a < r the result is below r.
 */
#define MSM_FR_N0 0xfffffffeffffffffULL /* -r^-1 mod 2^64 */
static inline void msm_fr_canonical(uint64_t out[4], const cuzk_fr_t *a)
{
    typedef unsigned __int128 u128;
    uint64_t t[4] = {a->l[0], a->l[1], a->l[2], a->l[3]};
    for (int i = 0; i < 4; i++) {
        uint64_t m = t[0] * MSM_FR_N0;
        u128 acc = (u128)m * cuzk_fr_modulus[0] + t[0]; /* low word is zero by choice of m */
        uint64_t carry = (uint64_t)(acc >> 64);
        for (int j = 1; j < 4; j++) {
            acc = (u128)m * cuzk_fr_modulus[j] + t[j] + carry;
            t[j - 1] = (uint64_t)acc;
            carry = (uint64_t)(acc >> 64);
        }
        t[3] = carry;
    }
    memcpy(out, t, sizeof t);
}

typedef struct {
    const uint64_t *raw;   /* canonical scalars, 4 limbs each, or NULL */
    const cuzk_fr_t *mont; /* Montgomery scalars when |raw| and |small| are NULL */
    const uint64_t *small; /* endomorphism pieces, |limbs| limbs each, applied as they are */
    unsigned limbs;
    const cuzk_fr_t *factor; /* raw or mont scalars multiplied by it (Montgomery form), or NULL */
} msm_scalars;

/* (r - 1) / 2, little-endian limbs. */
static const uint64_t MSM_FR_HALF[4] = {0x7fffffff80000000ULL, 0xa9ded2017fff2dffULL,
                                        0x199cec0404d0ec02ULL, 0x39f6d3a994cebea4ULL};

/* out = a - b over 4 limbs; returns the borrow. */
static inline uint64_t msm_sub4(uint64_t out[4], const uint64_t a[4], const uint64_t b[4])
{
    typedef unsigned __int128 u128;
    uint64_t borrow = 0;
    for (int j = 0; j < 4; j++) {
        u128 d = (u128)a[j] - b[j] - borrow;
        out[j] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    return borrow;
}

/* k <- k * factor mod r, canonical (k any 256-bit integer, |factor| in Montgomery form): the
 * Montgomery product of the integer k with factor R is k factor. For MSMs whose scalars are a
 * vector times one number (the snarkjs prover's r B1, src/groth16/prove_zkey.c) without a
 * scaled copy of the vector. */
static inline void msm_scale(uint64_t k[4], const cuzk_fr_t *factor)
{
    uint64_t t[4];
    while (!msm_sub4(t, k, cuzk_fr_modulus))
        memcpy(k, t, sizeof t);
    cuzk_fr_t a, p;
    memcpy(a.l, k, sizeof a.l);
    cuzk_fr_mul(&p, &a, factor);
    memcpy(k, p.l, sizeof p.l);
}

/*
 * The scalar applied to point |i|, in |out|; returns 1 when the point is to be negated. A
 * scalar k in ((r-1)/2, r) is replaced by r - k on -P (k P = (r - k)(-P) for P of order r), so
 * every scalar below r becomes at most (r-1)/2 < 2^254 and needs one bit less: the "negate
 * scalar and point when the top bit is set" trick of facts/gpu-techniques.md section 6 item 1.
 * It saves a window when c divides 255 (c = 15 or 17: 17 instead of 18 windows, 15 instead of
 * 16). Raw values >= r are applied as they are (with a factor every scalar is reduced and
 * multiplied by it first). Branch-free: the comparison is unpredictable.
 */
static inline uint32_t msm_scalar(uint64_t out[4], const msm_scalars *s, size_t i)
{
    uint64_t k[4], t[4], neg[4];
    if (s->small) {
        out[0] = out[1] = out[2] = out[3] = 0;
        for (unsigned j = 0; j < s->limbs; j++)
            out[j] = s->small[(size_t)s->limbs * i + j];
        return 0;
    }
    if (s->raw)
        memcpy(k, s->raw + 4 * i, sizeof k);
    else
        msm_fr_canonical(k, &s->mont[i]);
    if (s->factor)
        msm_scale(k, s->factor);
    uint64_t above_half = msm_sub4(t, MSM_FR_HALF, k);
    uint64_t below_r = msm_sub4(t, k, cuzk_fr_modulus);
    msm_sub4(neg, cuzk_fr_modulus, k);
    uint64_t flip = above_half & below_r, mask = 0 - flip;
    for (int j = 0; j < 4; j++)
        out[j] = (k[j] & ~mask) | (neg[j] & mask);
    return (uint32_t)flip;
}

/* (hi:lo) / d for hi < d (so the quotient fits in 64 bits), remainder in *rem: one divq on
 * x86-64 instead of the library's 128-bit division call. */
static inline uint64_t msm_div128(uint64_t hi, uint64_t lo, uint64_t d, uint64_t *rem)
{
#if defined(__x86_64__)
    uint64_t q, r;
    __asm__("divq %4" : "=a"(q), "=d"(r) : "a"(lo), "d"(hi), "rm"(d));
    *rem = r;
    return q;
#else
    unsigned __int128 num = ((unsigned __int128)hi << 64) | lo;
    *rem = (uint64_t)(num % d);
    return (uint64_t)(num / d);
#endif
}

/* Scalar |i| as an integer below r (raw values >= r reduced: for a base of order r that is the
 * same multiple), for the endomorphism split. */
static inline void msm_scalar_mod_r(uint64_t out[4], const msm_scalars *s, size_t i)
{
    uint64_t t[4];
    if (!s->raw) {
        msm_fr_canonical(out, &s->mont[i]);
    } else {
        memcpy(out, s->raw + 4 * i, 4 * sizeof(uint64_t));
        while (!msm_sub4(t, out, cuzk_fr_modulus)) /* 2^256 < 3r: at most twice */
            memcpy(out, t, sizeof t);
    }
    if (s->factor)
        msm_scale(out, s->factor);
}

/* The signed digit of window |w| (Booth recoding, see src/msm/pippenger_impl.h), from bits
 * [wc - 1, wc + c) of |k|. */
static inline int32_t msm_digit(const uint64_t k[4], unsigned w, unsigned c)
{
    size_t off = (size_t)w * c;
    uint64_t v;
    if (off == 0) {
        v = k[0] << 1;
    } else {
        size_t lo = off - 1, limb = lo / 64;
        unsigned sh = (unsigned)(lo % 64);
        v = limb < 4 ? k[limb] >> sh : 0;
        if (sh + c + 1 > 64 && limb + 1 < 4)
            v |= k[limb + 1] << (64 - sh);
    }
    v &= ((uint64_t)2 << c) - 1;
    int32_t d = (int32_t)((v >> 1) + (v & 1));
    if (v >> c)
        d -= (int32_t)1 << c;
    return d;
}

#endif

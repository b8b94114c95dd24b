/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_FIELD_FP_IFMA_H
#define CUZK_FIELD_FP_IFMA_H

/*
 * Eight independent Fp operations at once with AVX-512 IFMA (vpmadd52luq / vpmadd52huq: eight
 * 52 x 52-bit products added to 64-bit accumulators per instruction). Built only when the
 * compiler targets AVX-512F + IFMA; CUZK_FP_HAVE_IFMA says whether it is.
 *
 * Layout ("vertical"): an fp52x8 holds 8 elements in radix 2^52, 8 limbs each (416 bits);
 * vector l[j] holds limb j of all 8 elements, so lane k is element k and no operation mixes
 * lanes. Limbs are normalised (< 2^52; IFMA reads only the low 52 bits of a multiplicand), except
 * in the "raw" results of *_raw_ functions, which only the *_lazy_ operations accept (their
 * carry pass normalises).
 *
 * Domain: the library's Montgomery form (x R mod p, R = 2^384), unchanged: load/store only
 * re-cut the 6 x 64 bits into 8 x 52, so no conversion multiplication is needed. The
 * multiplication therefore divides by 2^384, which is not a multiple of 52: seven 52-bit
 * Montgomery steps (2^364) and one 20-bit step (q masked to 20 bits) give 2^(7 * 52 + 20).
 *
 * Range: values inside an fp52x8 are in [0, 2p) ("lazy"); load gives [0, p) and store reduces
 * to canonical. Bounds (p < 2^381, so 4p < 2^383 < R; in fact p < 0.102 R):
 *  - mul: a, b < 2p; T = a b < 4p^2; Q = sum q_i 2^(52 i) < 2^364 * 2^20 = R;
 *    (T + Q p) / R < (4p^2 + R p) / R = p (4p / R + 1) < 2p. T + Q p < 2^766 fits in the 16
 *    accumulator limbs (832 bits); each 64-bit accumulator collects at most 16 product halves
 *    (< 2^52 each) of the product, 16 of the reduction and the carries: < 2^58.
 *  - the reduction alone (fp52x8_redc_) accepts any T in [0, 8p^2), p (8p / R + 1) < 2p, with
 *    signed limbs (|t_k| < 2^60): sums and differences of products reduced once (Fp2).
 *  - add: a + b < 4p, minus 2p when >= 2p. sub: a - b in (-2p, 2p), plus 2p when negative.
 *  - lazy operands: a multiplication accepts a, b up to the bound (a b < 9.8p^2, i.e. p R) and
 *    returns < a b / R + p; the batch additions keep every operand in [0, 2p] (2p itself
 *    included: -a - b + 2p for a = b = 0), so every result stays under 1.41p (Fp) or 2p (Fp2
 *    sums of two products). The *_lazy_ operations skip the comparison and correction of
 *    add/sub: their callers state the range of each result.
 *
 * Reduction step i (0..6): q = t_i m' mod 2^52 (m' = -1/p mod 2^52) makes t_i + q p_0 = 0 mod
 * 2^52, so the low half q p_0 mod 2^52 is never added: the carry out of limb i is
 * (t_i + 2^52 - 1) >> 52 (t_i >> 52, plus one unless t_i's low 52 bits are zero).
 */

#if defined(__x86_64__) && defined(__AVX512F__) && defined(__AVX512IFMA__) && defined(__AVX512DQ__)
#define CUZK_FP_HAVE_IFMA 1

#include "cuzk/field.h"

#include <immintrin.h>
#include <stdint.h>

typedef struct {
    __m512i l[8];
} fp52x8;

#define FP52_INLINE static inline __attribute__((always_inline))
#define FP52_MASK 0xfffffffffffffULL

/* p and 2p in radix 2^52; m' = -1/p mod 2^52. */
static const uint64_t fp52_p[8] = {0xeffffffffaaabULL, 0xfeb153ffffb9fULL, 0x6b0f6241eabffULL,
                                   0x12bf6730d2a0fULL, 0x764774b84f385ULL, 0x1ba7b6434bacdULL,
                                   0x1ea397fe69a4bULL, 0x000000001a011ULL};
static const uint64_t fp52_2p[8] = {0xdffffffff5556ULL, 0xfd62a7ffff73fULL, 0xd61ec483d57ffULL,
                                    0x257ece61a541eULL, 0xec8ee9709e70aULL, 0x374f6c869759aULL,
                                    0x3d472ffcd3496ULL, 0x0000000034022ULL};
#define FP52_MPRIME 0x3fffcfffcfffdULL
/* One in Montgomery form, R mod p, in radix 2^52. */
static const uint64_t fp52_one[8] = {0x900000002fffdULL, 0x0bc40c0002760ULL, 0x3c758baebf400ULL,
                                     0x57455f4898575ULL, 0xd77ce58537052ULL, 0x071a97a256ec6ULL,
                                     0xec3fa80e4935cULL, 0x0000000015f65ULL};

#define FP52_LO(acc, x, y) _mm512_madd52lo_epu64((acc), (x), (y))
#define FP52_HI(acc, x, y) _mm512_madd52hi_epu64((acc), (x), (y))
#define FP52_SET1(v) _mm512_set1_epi64((long long)(v))

/* 4p^2 in radix 2^52: added to a difference of two products of lazy values (each < 4p^2) to
 * keep it nonnegative without changing it mod p. */
static const uint64_t fp52_4p2[16] = {
    0x8000071c638e4ULL, 0x75d8e0baac9aaULL, 0x844f3f5f3b5acULL, 0xdd0c58b0ce0d8ULL,
    0x59afe47b4f9c6ULL, 0xba16a1c246812ULL, 0x672186171eca4ULL, 0x25e3bc0475a18ULL,
    0x729bbd4c524ccULL, 0x414298b3f45b7ULL, 0xb967924d27a2fULL, 0x439439c11ad19ULL,
    0xa88bc97a78b72ULL, 0x0d7f1d2f49e3aULL, 0x0000a90de92e3ULL, 0x0000000000000ULL};

/* 52-bit Montgomery step i (0..6) of the reduction of the 16-limb t (limbs signed, |t_k| <
 * 2^60; value in [0, 8p^2)): q = t_i m' mod 2^52, t += q p 2^(52 i), carry of limb i into limb
 * i + 1. The carries are arithmetic shifts, so a negative limb (a difference of products)
 * carries a borrow. */
FP52_INLINE void fp52x8_redc_step_(__m512i t[16], int i)
{
    __m512i q = FP52_LO(_mm512_setzero_si512(), t[i], FP52_SET1(FP52_MPRIME));
    t[i + 1] = FP52_HI(t[i + 1], q, FP52_SET1(fp52_p[0]));
#pragma GCC unroll 16
    for (int j = 1; j < 8; j++) {
        t[i + j] = FP52_LO(t[i + j], q, FP52_SET1(fp52_p[j]));
        t[i + j + 1] = FP52_HI(t[i + j + 1], q, FP52_SET1(fp52_p[j]));
    }
    t[i + 1] = _mm512_add_epi64(
        t[i + 1], _mm512_srai_epi64(_mm512_add_epi64(t[i], FP52_SET1(FP52_MASK)), 52));
}

/* The last, 20-bit step: t_7 + q p = 0 mod 2^20 only, so its low half is added for real. q p_7
 * < 2^37 has no high half. */
FP52_INLINE void fp52x8_redc_step20_(__m512i t[16])
{
    __m512i q = _mm512_and_si512(FP52_LO(_mm512_setzero_si512(), t[7], FP52_SET1(FP52_MPRIME)),
                                 FP52_SET1(0xfffffULL));
#pragma GCC unroll 16
    for (int j = 0; j < 8; j++) {
        t[7 + j] = FP52_LO(t[7 + j], q, FP52_SET1(fp52_p[j]));
        if (j < 7)
            t[8 + j] = FP52_HI(t[8 + j], q, FP52_SET1(fp52_p[j]));
    }
}

/* The eight steps: afterwards t_7 .. t_15 (t_7's low 20 bits zero) hold (t + Q p) 2^20 / 2^384
 * with signed, unnormalised limbs. */
FP52_INLINE void fp52x8_redc_steps_(__m512i t[16])
{
#pragma GCC unroll 16
    for (int i = 0; i < 7; i++)
        fp52x8_redc_step_(t, i);
    fp52x8_redc_step20_(t);
}

/* Two independent reductions, their steps interleaved: each step waits on the previous one's
 * q (a chain of ~13 cycles a step), so one reduction alone leaves the vector ports idle part of
 * the time; two in step fill them (two products: 63 ns each against 73 ns one at a time,
 * docs/PERFORMANCE.md). */
FP52_INLINE void fp52x8_redc_steps2_(__m512i t[16], __m512i u[16])
{
#pragma GCC unroll 16
    for (int i = 0; i < 7; i++) {
        fp52x8_redc_step_(t, i);
        fp52x8_redc_step_(u, i);
    }
    fp52x8_redc_step20_(t);
    fp52x8_redc_step20_(u);
}

/* After the steps: r = (t_7 .. t_15) / 2^20 with normalised limbs, r < t / R + p: under 2p for
 * t < 8p^2 (p (8p / R + 1)), under 1.41p for t <= 4p^2 (4p / R < 0.41). */
FP52_INLINE void fp52x8_redc_finish_(fp52x8 *r, __m512i t[16])
{
    const __m512i mask = FP52_SET1(FP52_MASK);
#pragma GCC unroll 16
    for (int j = 7; j < 15; j++) {
        t[j + 1] = _mm512_add_epi64(t[j + 1], _mm512_srai_epi64(t[j], 52));
        t[j] = _mm512_and_si512(t[j], mask);
    }
/* (t_7 .. t_15) / 2^20, re-cut into 52-bit limbs; the result is < 2p < 2^382. */
#pragma GCC unroll 16
    for (int j = 0; j < 8; j++)
        r->l[j] = _mm512_or_si512(_mm512_srli_epi64(t[7 + j], 20),
                                  _mm512_and_si512(_mm512_slli_epi64(t[8 + j], 32), mask));
}

/* The same with the carries left out: r holds the same value as fp52x8_redc_finish_'s result,
 * in signed limbs with |r_j| < 2^53 ((t_{7+j} >> 20) plus the low 20 bits of t_{8+j} at bit
 * 32; t_15 is a few bits at most). Not a multiplication operand (IFMA reads 52 bits): only for
 * the *_lazy_ operations below, whose one carry pass normalises it. Saves the 8-limb carry pass
 * (a third of the non-IFMA work of a reduction). */
FP52_INLINE void fp52x8_redc_finish_raw_(fp52x8 *r, __m512i t[16])
{
    const __m512i low20 = FP52_SET1(0xfffffULL);
#pragma GCC unroll 16
    for (int j = 0; j < 7; j++)
        r->l[j] = _mm512_add_epi64(_mm512_srai_epi64(t[7 + j], 20),
                                   _mm512_slli_epi64(_mm512_and_si512(t[8 + j], low20), 32));
    r->l[7] = _mm512_add_epi64(_mm512_srai_epi64(t[14], 20), _mm512_slli_epi64(t[15], 32));
}

/* Montgomery reduction of t into r: r = t / 2^384 mod p (bounds as above). */
FP52_INLINE void fp52x8_redc_(fp52x8 *r, __m512i t[16])
{
    fp52x8_redc_steps_(t);
    fp52x8_redc_finish_(r, t);
}

/* The reduction with a raw result (fp52x8_redc_finish_raw_). */
FP52_INLINE void fp52x8_redc_raw_(fp52x8 *r, __m512i t[16])
{
    fp52x8_redc_steps_(t);
    fp52x8_redc_finish_raw_(r, t);
}

/* t = a b, unreduced, in 16 accumulator limbs (each < 2^56); a, b with normalised limbs. */
FP52_INLINE void fp52x8_mul_wide_(__m512i t[16], const fp52x8 *a, const fp52x8 *b)
{
#pragma GCC unroll 16
    for (int k = 0; k < 16; k++)
        t[k] = _mm512_setzero_si512();
#pragma GCC unroll 16
    for (int i = 0; i < 8; i++)
#pragma GCC unroll 16
        for (int j = 0; j < 8; j++) {
            t[i + j] = FP52_LO(t[i + j], a->l[i], b->l[j]);
            t[i + j + 1] = FP52_HI(t[i + j + 1], a->l[i], b->l[j]);
        }
}

/* r = a b / R mod p; a, b, r in [0, 2p). r may alias a or b. */
FP52_INLINE void fp52x8_mul(fp52x8 *r, const fp52x8 *a, const fp52x8 *b)
{
    __m512i t[16];
    fp52x8_mul_wide_(t, a, b);
    fp52x8_redc_(r, t);
}

/* r = a b / R mod p and r2 = a2 b2 / R mod p, the two reductions interleaved; operands as for
 * fp52x8_mul; r and r2 may alias any operand (both products are taken first). */
FP52_INLINE void fp52x8_mul2_(fp52x8 *r, const fp52x8 *a, const fp52x8 *b, fp52x8 *r2,
                              const fp52x8 *a2, const fp52x8 *b2)
{
    __m512i t[16], u[16];
    fp52x8_mul_wide_(t, a, b);
    fp52x8_mul_wide_(u, a2, b2);
    fp52x8_redc_steps2_(t, u);
    fp52x8_redc_finish_(r, t);
    fp52x8_redc_finish_(r2, u);
}

/* fp52x8_mul2_ with raw results (fp52x8_redc_finish_raw_). */
FP52_INLINE void fp52x8_mul2_raw_(fp52x8 *r, const fp52x8 *a, const fp52x8 *b, fp52x8 *r2,
                                  const fp52x8 *a2, const fp52x8 *b2)
{
    __m512i t[16], u[16];
    fp52x8_mul_wide_(t, a, b);
    fp52x8_mul_wide_(u, a2, b2);
    fp52x8_redc_steps2_(t, u);
    fp52x8_redc_finish_raw_(r, t);
    fp52x8_redc_finish_raw_(r2, u);
}

/* t = a^2, unreduced: the 28 cross products once, doubled in the accumulators (a limb doubled
 * would exceed the 52 bits IFMA reads), then the 8 squares: 72 instead of 128 IFMAs. */
FP52_INLINE void fp52x8_sqr_wide_(__m512i t[16], const fp52x8 *a)
{
#pragma GCC unroll 16
    for (int k = 0; k < 16; k++)
        t[k] = _mm512_setzero_si512();
#pragma GCC unroll 16
    for (int i = 0; i < 8; i++)
#pragma GCC unroll 16
        for (int j = i + 1; j < 8; j++) {
            t[i + j] = FP52_LO(t[i + j], a->l[i], a->l[j]);
            t[i + j + 1] = FP52_HI(t[i + j + 1], a->l[i], a->l[j]);
        }
#pragma GCC unroll 16
    for (int k = 1; k < 16; k++)
        t[k] = _mm512_add_epi64(t[k], t[k]);
#pragma GCC unroll 16
    for (int i = 0; i < 8; i++) {
        t[2 * i] = FP52_LO(t[2 * i], a->l[i], a->l[i]);
        t[2 * i + 1] = FP52_HI(t[2 * i + 1], a->l[i], a->l[i]);
    }
}

/* r = a^2 / R mod p; a, r in [0, 2p). */
FP52_INLINE void fp52x8_sqr(fp52x8 *r, const fp52x8 *a)
{
    __m512i t[16];
    fp52x8_sqr_wide_(t, a);
    fp52x8_redc_(r, t);
}

/* fp52x8_mul / fp52x8_sqr with the result in raw limbs (fp52x8_redc_raw_), for a *_lazy_
 * operation to normalise. */
FP52_INLINE void fp52x8_mul_raw_(fp52x8 *r, const fp52x8 *a, const fp52x8 *b)
{
    __m512i t[16];
    fp52x8_mul_wide_(t, a, b);
    fp52x8_redc_raw_(r, t);
}

FP52_INLINE void fp52x8_sqr_raw_(fp52x8 *r, const fp52x8 *a)
{
    __m512i t[16];
    fp52x8_sqr_wide_(t, a);
    fp52x8_redc_raw_(r, t);
}

/* r = a^2 and r2 = a2^2 (Montgomery), raw results, the two reductions interleaved. */
FP52_INLINE void fp52x8_sqr2_raw_(fp52x8 *r, const fp52x8 *a, fp52x8 *r2, const fp52x8 *a2)
{
    __m512i t[16], u[16];
    fp52x8_sqr_wide_(t, a);
    fp52x8_sqr_wide_(u, a2);
    fp52x8_redc_steps2_(t, u);
    fp52x8_redc_finish_raw_(r, t);
    fp52x8_redc_finish_raw_(r2, u);
}

/* Normalises the signed limbs d (|d_j| < 2^62) by propagating carries/borrows; returns the
 * mask of lanes whose value is negative. */
FP52_INLINE __mmask8 fp52x8_carry_(__m512i d[8])
{
    const __m512i mask = FP52_SET1(FP52_MASK);
#pragma GCC unroll 16
    for (int j = 0; j < 7; j++) {
        d[j + 1] = _mm512_add_epi64(d[j + 1], _mm512_srai_epi64(d[j], 52));
        d[j] = _mm512_and_si512(d[j], mask);
    }
    __mmask8 neg = _mm512_movepi64_mask(d[7]);
    d[7] = _mm512_and_si512(d[7], mask);
    return neg;
}

/* r = a + b, not reduced: in [0, 4p) for a, b in [0, 2p), normalised limbs. Only an operand
 * of fp52x8_mul_wide_ may be that large. */
FP52_INLINE void fp52x8_add_wide_(fp52x8 *r, const fp52x8 *a, const fp52x8 *b)
{
#pragma GCC unroll 16
    for (int j = 0; j < 8; j++)
        r->l[j] = _mm512_add_epi64(a->l[j], b->l[j]);
    (void)fp52x8_carry_(r->l);
}

/* r = a + b mod p in [0, 2p). */
FP52_INLINE void fp52x8_add(fp52x8 *r, const fp52x8 *a, const fp52x8 *b)
{
    __m512i s[8], d[8];
#pragma GCC unroll 16
    for (int j = 0; j < 8; j++) {
        s[j] = _mm512_add_epi64(a->l[j], b->l[j]);
        d[j] = _mm512_sub_epi64(s[j], FP52_SET1(fp52_2p[j]));
    }
    (void)fp52x8_carry_(s);
    __mmask8 lt = fp52x8_carry_(d); /* a + b < 2p: keep the sum */
#pragma GCC unroll 16
    for (int j = 0; j < 8; j++)
        r->l[j] = _mm512_mask_blend_epi64(lt, d[j], s[j]);
}

/* r = a - b mod p in [0, 2p). */
FP52_INLINE void fp52x8_sub(fp52x8 *r, const fp52x8 *a, const fp52x8 *b)
{
    __m512i d[8], e[8];
#pragma GCC unroll 16
    for (int j = 0; j < 8; j++) {
        d[j] = _mm512_sub_epi64(a->l[j], b->l[j]);
        e[j] = _mm512_add_epi64(d[j], FP52_SET1(fp52_2p[j]));
    }
    (void)fp52x8_carry_(e);
    __mmask8 neg = fp52x8_carry_(d); /* a < b: take a - b + 2p */
#pragma GCC unroll 16
    for (int j = 0; j < 8; j++)
        r->l[j] = _mm512_mask_blend_epi64(neg, d[j], e[j]);
}

/* 4p in radix 2^52, for the lazy operations below. */
static const uint64_t fp52_4p[8] = {0xbfffffffeaaacULL, 0xfac54ffffee7fULL, 0xac3d8907aafffULL,
                                    0x4afd9cc34a83dULL, 0xd91dd2e13ce14ULL, 0x6e9ed90d2eb35ULL,
                                    0x7a8e5ff9a692cULL, 0x0000000068044ULL};

/*
 * Lazy subtraction: r = a - b + kp exactly (kp = fp52_p, fp52_2p or fp52_4p), one carry pass
 * and no comparison; half the vector work of fp52x8_sub. The caller picks k with b <= kp, so r
 * is in [a, a + kp] and nonnegative, and keeps a + kp below what r's consumer accepts (a
 * multiplication operand at most 2p: the product then stays within 4p^2 and the reduction's
 * result under 1.41p; a store through fp52x8_reduce_4p_ below 4p). a may be raw (signed limbs
 * under 2^53, fp52x8_redc_raw_); r is normalised.
 */
FP52_INLINE void fp52x8_sub_lazy_(fp52x8 *r, const fp52x8 *a, const fp52x8 *b, const uint64_t kp[8])
{
#pragma GCC unroll 16
    for (int j = 0; j < 8; j++)
        r->l[j] = _mm512_add_epi64(_mm512_sub_epi64(a->l[j], b->l[j]), FP52_SET1(kp[j]));
    (void)fp52x8_carry_(r->l);
}

/* r = a - b - c + kp exactly, one carry pass; the caller picks k with b + c <= kp. */
FP52_INLINE void fp52x8_sub2_lazy_(fp52x8 *r, const fp52x8 *a, const fp52x8 *b, const fp52x8 *c,
                                   const uint64_t kp[8])
{
#pragma GCC unroll 16
    for (int j = 0; j < 8; j++)
        r->l[j] = _mm512_sub_epi64(_mm512_add_epi64(a->l[j], FP52_SET1(kp[j])),
                                   _mm512_add_epi64(b->l[j], c->l[j]));
    (void)fp52x8_carry_(r->l);
}

/* r = (-a where bit k of neg is set, else a) - b + p, one carry pass: for a, b in [0, p), r is
 * in [0, 2p] (2p - a - b or a - b + p). */
FP52_INLINE void fp52x8_neg_sub_lazy_(fp52x8 *r, __mmask8 neg, const fp52x8 *a, const fp52x8 *b)
{
#pragma GCC unroll 16
    for (int j = 0; j < 8; j++) {
        __m512i pj = FP52_SET1(fp52_p[j]);
        /* -a + p - b + p = (p - a) - b + p: limbs in (-2^53, 2^53) */
        __m512i s = _mm512_mask_sub_epi64(a->l[j], neg, pj, a->l[j]);
        r->l[j] = _mm512_add_epi64(_mm512_sub_epi64(s, b->l[j]), pj);
    }
    (void)fp52x8_carry_(r->l);
}

/* r = a with every lane reduced into [0, p) (canonical). */
FP52_INLINE void fp52x8_reduce(fp52x8 *r, const fp52x8 *a)
{
    __m512i d[8];
#pragma GCC unroll 16
    for (int j = 0; j < 8; j++)
        d[j] = _mm512_sub_epi64(a->l[j], FP52_SET1(fp52_p[j]));
    __mmask8 lt = fp52x8_carry_(d);
#pragma GCC unroll 16
    for (int j = 0; j < 8; j++)
        r->l[j] = _mm512_mask_blend_epi64(lt, d[j], a->l[j]);
}

/* r = a mod p, canonical, for a in [0, 4p) with normalised limbs: minus 2p where a >= 2p,
 * then fp52x8_reduce. */
FP52_INLINE void fp52x8_reduce_4p_(fp52x8 *r, const fp52x8 *a)
{
    __m512i d[8];
#pragma GCC unroll 16
    for (int j = 0; j < 8; j++)
        d[j] = _mm512_sub_epi64(a->l[j], FP52_SET1(fp52_2p[j]));
    __mmask8 lt = fp52x8_carry_(d);
    fp52x8 h;
#pragma GCC unroll 16
    for (int j = 0; j < 8; j++)
        h.l[j] = _mm512_mask_blend_epi64(lt, d[j], a->l[j]);
    fp52x8_reduce(r, &h);
}

/* Every lane = 1 (Montgomery form). */
FP52_INLINE void fp52x8_set_one(fp52x8 *r)
{
#pragma GCC unroll 16
    for (int j = 0; j < 8; j++)
        r->l[j] = FP52_SET1(fp52_one[j]);
}

/* Lanes where a and b hold the same limbs (the same value when both are canonical, as loaded
 * values are). */
FP52_INLINE __mmask8 fp52x8_eq_mask(const fp52x8 *a, const fp52x8 *b)
{
    __mmask8 m = 0xff;
#pragma GCC unroll 16
    for (int j = 0; j < 8; j++)
        m &= _mm512_cmpeq_epi64_mask(a->l[j], b->l[j]);
    return m;
}

/* r = lane k of b where bit k of m is set, else of a. */
FP52_INLINE void fp52x8_blend(fp52x8 *r, __mmask8 m, const fp52x8 *a, const fp52x8 *b)
{
#pragma GCC unroll 16
    for (int j = 0; j < 8; j++)
        r->l[j] = _mm512_mask_blend_epi64(m, a->l[j], b->l[j]);
}

/* 6 x 64-bit words (w[0..5] of each lane) to 8 x 52-bit limbs. */
FP52_INLINE void fp52x8_from_words_(fp52x8 *r, const __m512i w[6])
{
    const __m512i mask = FP52_SET1(FP52_MASK);
#define FP52_CUT(lo, hi, s)                                                                        \
    _mm512_and_si512(                                                                              \
        _mm512_or_si512(_mm512_srli_epi64((lo), (s)), _mm512_slli_epi64((hi), 64 - (s))), mask)
    r->l[0] = _mm512_and_si512(w[0], mask);
    r->l[1] = FP52_CUT(w[0], w[1], 52);
    r->l[2] = FP52_CUT(w[1], w[2], 40);
    r->l[3] = FP52_CUT(w[2], w[3], 28);
    r->l[4] = FP52_CUT(w[3], w[4], 16);
    r->l[5] = _mm512_and_si512(_mm512_srli_epi64(w[4], 4), mask);
    r->l[6] = FP52_CUT(w[4], w[5], 56);
    r->l[7] = _mm512_srli_epi64(w[5], 44);
#undef FP52_CUT
}

/* 8 x 52-bit limbs (value < 2^384) to 6 x 64-bit words. */
FP52_INLINE void fp52x8_to_words_(__m512i w[6], const fp52x8 *a)
{
#define FP52_JOIN(lo, hi, s)                                                                       \
    _mm512_or_si512(_mm512_srli_epi64((lo), (s)), _mm512_slli_epi64((hi), 52 - (s)))
    w[0] = _mm512_or_si512(a->l[0], _mm512_slli_epi64(a->l[1], 52));
    w[1] = FP52_JOIN(a->l[1], a->l[2], 12);
    w[2] = FP52_JOIN(a->l[2], a->l[3], 24);
    w[3] = FP52_JOIN(a->l[3], a->l[4], 36);
    w[4] = _mm512_or_si512(FP52_JOIN(a->l[4], a->l[5], 48), _mm512_slli_epi64(a->l[6], 56));
    w[5] = _mm512_or_si512(_mm512_srli_epi64(a->l[6], 8), _mm512_slli_epi64(a->l[7], 44));
#undef FP52_JOIN
}

/* Lane k = a[k] (8 consecutive canonical elements). */
FP52_INLINE void fp52x8_load(fp52x8 *r, const cuzk_fp_t a[8])
{
    const __m512i idx = _mm512_setr_epi64(0, 6, 12, 18, 24, 30, 36, 42);
    __m512i w[6];
#pragma GCC unroll 16
    for (int i = 0; i < 6; i++)
        w[i] = _mm512_i64gather_epi64(idx, (const void *)&a[0].l[i], 8);
    fp52x8_from_words_(r, w);
}

/* Lane k = *ptr[k] (8 canonical elements anywhere; pointers as 64-bit lanes). */
FP52_INLINE void fp52x8_load_ptrs(fp52x8 *r, __m512i ptrs)
{
    __m512i w[6];
#pragma GCC unroll 16
    for (int i = 0; i < 6; i++)
        w[i] = _mm512_i64gather_epi64(_mm512_add_epi64(ptrs, FP52_SET1(8 * i)), (const void *)0, 1);
    fp52x8_from_words_(r, w);
}

/* out[k] = lane k, canonical. */
FP52_INLINE void fp52x8_store(cuzk_fp_t out[8], const fp52x8 *a)
{
    const __m512i idx = _mm512_setr_epi64(0, 6, 12, 18, 24, 30, 36, 42);
    fp52x8 c;
    __m512i w[6];
    fp52x8_reduce(&c, a);
    fp52x8_to_words_(w, &c);
#pragma GCC unroll 16
    for (int i = 0; i < 6; i++)
        _mm512_i64scatter_epi64((void *)&out[0].l[i], idx, w[i], 8);
}

/* *ptr[k] = lane k for the lanes in |m| (the pointers must differ); a already canonical. */
FP52_INLINE void fp52x8_store_ptrs_canon_(__m512i ptrs, __mmask8 m, const fp52x8 *a)
{
    __m512i w[6];
    fp52x8_to_words_(w, a);
#pragma GCC unroll 16
    for (int i = 0; i < 6; i++)
        _mm512_mask_i64scatter_epi64((void *)0, m, _mm512_add_epi64(ptrs, FP52_SET1(8 * i)), w[i],
                                     1);
}

/* *ptr[k] = lane k, canonical, for the lanes in |m| (the pointers must differ). */
FP52_INLINE void fp52x8_store_ptrs(__m512i ptrs, __mmask8 m, const fp52x8 *a)
{
    fp52x8 c;
    fp52x8_reduce(&c, a);
    fp52x8_store_ptrs_canon_(ptrs, m, &c);
}

/* out[k] = a[k] b[k] R^-1 mod p for k < 8 (src/field/fp_ifma.c); canonical in and out, out may
 * alias a or b. */
void cuzk__fp_mul_x8(cuzk_fp_t out[8], const cuzk_fp_t a[8], const cuzk_fp_t b[8]);
/* out[k] = a[k]^2 R^-1 mod p. */
void cuzk__fp_sqr_x8(cuzk_fp_t out[8], const cuzk_fp_t a[8]);

/* fp52x8_mul, fp52x8_sqr and their raw forms out of line (src/field/fp_ifma.c says why); r may
 * alias a or b. */
void cuzk__fp52x8_mul(fp52x8 *r, const fp52x8 *a, const fp52x8 *b);
void cuzk__fp52x8_sqr(fp52x8 *r, const fp52x8 *a);
void cuzk__fp52x8_mul_raw(fp52x8 *r, const fp52x8 *a, const fp52x8 *b);
void cuzk__fp52x8_sqr_raw(fp52x8 *r, const fp52x8 *a);
/* fp52x8_mul2_, fp52x8_mul2_raw_ and fp52x8_sqr2_raw_ out of line. */
void cuzk__fp52x8_mul2(fp52x8 *r, const fp52x8 *a, const fp52x8 *b, fp52x8 *r2, const fp52x8 *a2,
                       const fp52x8 *b2);
void cuzk__fp52x8_mul2_raw(fp52x8 *r, const fp52x8 *a, const fp52x8 *b, fp52x8 *r2,
                           const fp52x8 *a2, const fp52x8 *b2);
void cuzk__fp52x8_sqr2_raw(fp52x8 *r, const fp52x8 *a, fp52x8 *r2, const fp52x8 *a2);

#else
#define CUZK_FP_HAVE_IFMA 0
#endif

#endif

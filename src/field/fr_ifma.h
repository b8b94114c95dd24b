/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_FIELD_FR_IFMA_H
#define CUZK_FIELD_FR_IFMA_H

/*
 * Eight independent Fr operations at once with AVX-512 IFMA, for the NTT passes of src/poly (the
 * Fr counterpart of field/fp_ifma.h; same guard, so CUZK_FR_HAVE_IFMA == CUZK_FP_HAVE_IFMA).
 *
 * Layout ("vertical"): an fr52x8 holds 8 elements in radix 2^52, 5 limbs each (260 bits);
 * vector l[j] holds limb j of all 8 elements, lane k is element k, no operation mixes lanes.
 * Limbs are normalised (< 2^52; IFMA reads only the low 52 bits of a multiplicand).
 *
 * Domain: the library's Montgomery form (x R mod r, R = 2^256), unchanged: load/store re-cut
 * 4 x 64 bits into 5 x 52. The multiplication divides by 2^256 = 2^(4 * 52 + 48): four 52-bit
 * Montgomery steps and one 48-bit step (q masked to 48 bits), as fp_ifma.h does for 2^384.
 *
 * Range: values inside an fr52x8 are in [0, 2r) ("lazy"); load gives [0, r), store reduces to
 * canonical. r < 2^255 (r = 0.4528 R), so 2r < R fits 256 bits; 4r = 1.81 R does not fit 256
 * bits but fits the 5 limbs (a sum before its correction).
 *  - mul: T = a b, Q = sum q_i 2^(52 i) < 2^(4 * 52) * 2^48 = R; the result is
 *    (T + Q r) / R < T / R + r. Unlike Fp (p = 0.10 R) two lazy operands are too large: for
 *    a, b < 2r the bound is r (4r / R + 1) = 2.81 r. So fr52x8_mul requires a b < r R (one
 *    operand canonical, b < r, the other anything below R, in particular lazy a < 2r) and then
 *    returns < 2r. T + Q r < 2 r R < 2^512 fits the 10 accumulator limbs (520 bits); each 64-bit
 *    accumulator collects at most 10 product halves (< 2^52 each), 10 halves of the reduction
 *    and the carries: < 2^57.
 *  - add: a + b < 4r, minus 2r when >= 2r. sub: a - b in (-2r, 2r), plus 2r when negative.
 *  - reduce: [0, 2r) -> [0, r), minus r when >= r.
 *  - fr52x8_mul_p (the NTT's factor multiplication, R' = 2^260) and the lazy forms: see there.
 *
 * Reduction step i (0..3): q = t_i r' mod 2^52 (r' = -1/r mod 2^52) makes t_i + q r_0 = 0 mod
 * 2^52, so the low half q r_0 mod 2^52 is never added: the carry out of limb i is
 * (t_i + 2^52 - 1) >> 52 (t_i >> 52, plus one unless t_i's low 52 bits are zero). The last step
 * (48 bits): t_4 + q r = 0 mod 2^48 only, so its low half is added for real and the result is
 * (t_4 .. t_9) / 2^48.
 */

#include "field/fp_ifma.h"

#if CUZK_FP_HAVE_IFMA
#define CUZK_FR_HAVE_IFMA 1

#include "cuzk/field.h"

#include <immintrin.h>
#include <stdint.h>

typedef struct {
    __m512i l[5];
} fr52x8;

#define FR52_INLINE static inline __attribute__((always_inline))
#define FR52_MASK 0xfffffffffffffULL
#define FR52_MASK48 0xffffffffffffULL

/* r and 2r in radix 2^52; r' = -1/r mod 2^52. */
static const uint64_t fr52_r[5] = {0xfffff00000001ULL, 0x02fffe5bfefffULL, 0x9a1d80553bda4ULL,
                                   0x7d483339d8080ULL, 0x073eda753299dULL};
static const uint64_t fr52_2r[5] = {0xffffe00000002ULL, 0x05fffcb7fdfffULL, 0x343b00aa77b48ULL,
                                    0xfa906673b0101ULL, 0x0e7db4ea6533aULL};
#define FR52_RPRIME 0xffffeffffffffULL

#define FR52_LO(acc, x, y) _mm512_madd52lo_epu64((acc), (x), (y))
#define FR52_HI(acc, x, y) _mm512_madd52hi_epu64((acc), (x), (y))
#define FR52_SET1(v) _mm512_set1_epi64((long long)(v))

/* One 52-bit step i (0..3) of the reduction of the 10-limb t: q = t_i r' mod 2^52,
 * t += q r 2^(52 i), carry of limb i into limb i + 1 (all limbs nonnegative). */
FR52_INLINE void fr52x8_redc_step_(__m512i t[10], int i)
{
    __m512i q = FR52_LO(_mm512_setzero_si512(), t[i], FR52_SET1(FR52_RPRIME));
    t[i + 1] = FR52_HI(t[i + 1], q, FR52_SET1(fr52_r[0]));
#pragma GCC unroll 8
    for (int j = 1; j < 5; j++) {
        t[i + j] = FR52_LO(t[i + j], q, FR52_SET1(fr52_r[j]));
        t[i + j + 1] = FR52_HI(t[i + j + 1], q, FR52_SET1(fr52_r[j]));
    }
    t[i + 1] = _mm512_add_epi64(
        t[i + 1], _mm512_srli_epi64(_mm512_add_epi64(t[i], FR52_SET1(FR52_MASK)), 52));
}

/* The last, 48-bit step: q = t_4 r' mod 2^48, t += q r 2^(4 * 52) with every half added (t_4's
 * low 48 bits become zero). */
FR52_INLINE void fr52x8_redc_step48_(__m512i t[10])
{
    __m512i q = _mm512_and_si512(FR52_LO(_mm512_setzero_si512(), t[4], FR52_SET1(FR52_RPRIME)),
                                 FR52_SET1(FR52_MASK48));
#pragma GCC unroll 8
    for (int j = 0; j < 5; j++) {
        t[4 + j] = FR52_LO(t[4 + j], q, FR52_SET1(fr52_r[j]));
        t[5 + j] = FR52_HI(t[5 + j], q, FR52_SET1(fr52_r[j]));
    }
}

/* t = a b, unreduced, in 10 accumulator limbs; a, b with normalised limbs. */
FR52_INLINE void fr52x8_mul_wide_(__m512i t[10], const fr52x8 *a, const fr52x8 *b)
{
#pragma GCC unroll 10
    for (int k = 0; k < 10; k++)
        t[k] = _mm512_setzero_si512();
#pragma GCC unroll 8
    for (int i = 0; i < 5; i++)
#pragma GCC unroll 8
        for (int j = 0; j < 5; j++) {
            t[i + j] = FR52_LO(t[i + j], a->l[i], b->l[j]);
            t[i + j + 1] = FR52_HI(t[i + j + 1], a->l[i], b->l[j]);
        }
}

/* Montgomery reduction of t (T < r R) into o: o = T / 2^256 mod r, o < T / R + r < 2r. */
FR52_INLINE void fr52x8_redc_(fr52x8 *o, __m512i t[10])
{
#pragma GCC unroll 8
    for (int i = 0; i < 4; i++)
        fr52x8_redc_step_(t, i);
    fr52x8_redc_step48_(t);
    const __m512i mask = FR52_SET1(FR52_MASK);
#pragma GCC unroll 8
    for (int j = 4; j < 9; j++) {
        t[j + 1] = _mm512_add_epi64(t[j + 1], _mm512_srli_epi64(t[j], 52));
        t[j] = _mm512_and_si512(t[j], mask);
    }
    /* (t_4 .. t_9) / 2^48, re-cut into 52-bit limbs; the result is < 2r < 2^256, so the top
     * limb has 48 bits and t_9 (after the carries) fewer than 44. */
#pragma GCC unroll 8
    for (int j = 0; j < 5; j++)
        o->l[j] = _mm512_or_si512(_mm512_srli_epi64(t[4 + j], 48),
                                  _mm512_and_si512(_mm512_slli_epi64(t[5 + j], 4), mask));
}

/* o = a b / R mod r with a b < r R (b < r canonical, a < 2r lazy: see the range above);
 * o < 2r. o may alias a or b. */
FR52_INLINE void fr52x8_mul(fr52x8 *o, const fr52x8 *a, const fr52x8 *b)
{
    __m512i t[10];
    fr52x8_mul_wide_(t, a, b);
    fr52x8_redc_(o, t);
}

/*
 * The NTT's multiplication by a factor: Montgomery with R' = 2^260 = 2^(5 * 52), five full
 * 52-bit steps, so the result sits in t_5 .. t_9 with no re-cut. A factor w enters pre-scaled
 * by 16 (w' = 16 w R mod r, the library's form times 2^260 / 2^256; src/poly keeps its twiddle
 * tables so), and x R w' / R' = x w R stays in the library's form. Range: the result is
 * < T / R' + r, under 2r for T = a b < r R' = 16 r R: a, b both up to 4r (16 r^2 < 7.3 r R),
 * or one canonical and the other anything in the 5 limbs (< 2^260). The accumulator bounds are
 * fr52x8_mul's (T + Q r < 2 r R' < 2^518 fits the 10 limbs).
 */
FR52_INLINE void fr52x8_mul_p(fr52x8 *o, const fr52x8 *a, const fr52x8 *b)
{
    __m512i t[10];
    fr52x8_mul_wide_(t, a, b);
#pragma GCC unroll 8
    for (int i = 0; i < 5; i++)
        fr52x8_redc_step_(t, i);
    const __m512i mask = FR52_SET1(FR52_MASK);
#pragma GCC unroll 8
    for (int j = 5; j < 9; j++) {
        t[j + 1] = _mm512_add_epi64(t[j + 1], _mm512_srli_epi64(t[j], 52));
        t[j] = _mm512_and_si512(t[j], mask);
    }
#pragma GCC unroll 8
    for (int j = 0; j < 5; j++)
        o->l[j] = t[5 + j];
}

/* Normalises the signed limbs d (|d_j| < 2^62) by propagating carries / borrows; returns the
 * mask of lanes whose value is negative. */
FR52_INLINE __mmask8 fr52x8_carry_(__m512i d[5])
{
    const __m512i mask = FR52_SET1(FR52_MASK);
#pragma GCC unroll 8
    for (int j = 0; j < 4; j++) {
        d[j + 1] = _mm512_add_epi64(d[j + 1], _mm512_srai_epi64(d[j], 52));
        d[j] = _mm512_and_si512(d[j], mask);
    }
    __mmask8 neg = _mm512_movepi64_mask(d[4]);
    d[4] = _mm512_and_si512(d[4], mask);
    return neg;
}

/* o = a + b mod r in [0, 2r) for a, b in [0, 2r). */
FR52_INLINE void fr52x8_add(fr52x8 *o, const fr52x8 *a, const fr52x8 *b)
{
    __m512i s[5], d[5];
#pragma GCC unroll 8
    for (int j = 0; j < 5; j++) {
        s[j] = _mm512_add_epi64(a->l[j], b->l[j]);
        d[j] = _mm512_sub_epi64(s[j], FR52_SET1(fr52_2r[j]));
    }
    (void)fr52x8_carry_(s);
    __mmask8 lt = fr52x8_carry_(d); /* a + b < 2r: keep the sum */
#pragma GCC unroll 8
    for (int j = 0; j < 5; j++)
        o->l[j] = _mm512_mask_blend_epi64(lt, d[j], s[j]);
}

/* o = a - b mod r in [0, 2r) for a, b in [0, 2r). */
FR52_INLINE void fr52x8_sub(fr52x8 *o, const fr52x8 *a, const fr52x8 *b)
{
    __m512i d[5], e[5];
#pragma GCC unroll 8
    for (int j = 0; j < 5; j++) {
        d[j] = _mm512_sub_epi64(a->l[j], b->l[j]);
        e[j] = _mm512_add_epi64(d[j], FR52_SET1(fr52_2r[j]));
    }
    (void)fr52x8_carry_(e);
    __mmask8 neg = fr52x8_carry_(d); /* a < b: take a - b + 2r */
#pragma GCC unroll 8
    for (int j = 0; j < 5; j++)
        o->l[j] = _mm512_mask_blend_epi64(neg, d[j], e[j]);
}

/* o = a mod r, canonical, for a in [0, 2r). */
FR52_INLINE void fr52x8_reduce(fr52x8 *o, const fr52x8 *a)
{
    __m512i d[5];
#pragma GCC unroll 8
    for (int j = 0; j < 5; j++)
        d[j] = _mm512_sub_epi64(a->l[j], FR52_SET1(fr52_r[j]));
    __mmask8 lt = fr52x8_carry_(d);
#pragma GCC unroll 8
    for (int j = 0; j < 5; j++)
        o->l[j] = _mm512_mask_blend_epi64(lt, d[j], a->l[j]);
}

/* Lazy forms for the NTT's butterflies (src/poly/ntt.c states the range of each use): one carry
 * pass each, no comparison. */

/* o = a + b exactly, normalised limbs; a + b < 2^260. */
FR52_INLINE void fr52x8_add_lazy_(fr52x8 *o, const fr52x8 *a, const fr52x8 *b)
{
#pragma GCC unroll 8
    for (int j = 0; j < 5; j++)
        o->l[j] = _mm512_add_epi64(a->l[j], b->l[j]);
    (void)fr52x8_carry_(o->l);
}

/* o = a - b + 2r exactly, normalised limbs; b <= 2r, so o is in [a, a + 2r]. */
FR52_INLINE void fr52x8_sub_lazy_(fr52x8 *o, const fr52x8 *a, const fr52x8 *b)
{
#pragma GCC unroll 8
    for (int j = 0; j < 5; j++)
        o->l[j] = _mm512_add_epi64(_mm512_sub_epi64(a->l[j], b->l[j]), FR52_SET1(fr52_2r[j]));
    (void)fr52x8_carry_(o->l);
}

/* o = a - 2r where a >= 2r, else a: [0, 4r) -> [0, 2r), a with normalised limbs. */
FR52_INLINE void fr52x8_csub2r_(fr52x8 *o, const fr52x8 *a)
{
    __m512i d[5];
#pragma GCC unroll 8
    for (int j = 0; j < 5; j++)
        d[j] = _mm512_sub_epi64(a->l[j], FR52_SET1(fr52_2r[j]));
    __mmask8 lt = fr52x8_carry_(d);
#pragma GCC unroll 8
    for (int j = 0; j < 5; j++)
        o->l[j] = _mm512_mask_blend_epi64(lt, d[j], a->l[j]);
}

/* o = a mod r, canonical, for a in [0, 4r) with normalised limbs. */
FR52_INLINE void fr52x8_reduce4_(fr52x8 *o, const fr52x8 *a)
{
    fr52x8 h;
    fr52x8_csub2r_(&h, a);
    fr52x8_reduce(o, &h);
}

/* 4 x 64-bit words (w[0..3] of each lane) to 5 x 52-bit limbs. */
FR52_INLINE void fr52x8_from_words_(fr52x8 *o, const __m512i w[4])
{
    const __m512i mask = FR52_SET1(FR52_MASK);
#define FR52_CUT(lo, hi, s)                                                                        \
    _mm512_and_si512(                                                                              \
        _mm512_or_si512(_mm512_srli_epi64((lo), (s)), _mm512_slli_epi64((hi), 64 - (s))), mask)
    o->l[0] = _mm512_and_si512(w[0], mask);
    o->l[1] = FR52_CUT(w[0], w[1], 52);
    o->l[2] = FR52_CUT(w[1], w[2], 40);
    o->l[3] = FR52_CUT(w[2], w[3], 28);
    o->l[4] = _mm512_srli_epi64(w[3], 16);
#undef FR52_CUT
}

/* 5 x 52-bit limbs (value < 2^256) to 4 x 64-bit words. */
FR52_INLINE void fr52x8_to_words_(__m512i w[4], const fr52x8 *a)
{
#define FR52_JOIN(lo, hi, s)                                                                       \
    _mm512_or_si512(_mm512_srli_epi64((lo), (s)), _mm512_slli_epi64((hi), 52 - (s)))
    w[0] = _mm512_or_si512(a->l[0], _mm512_slli_epi64(a->l[1], 52));
    w[1] = FR52_JOIN(a->l[1], a->l[2], 12);
    w[2] = FR52_JOIN(a->l[2], a->l[3], 24);
    w[3] = FR52_JOIN(a->l[3], a->l[4], 36);
#undef FR52_JOIN
}

/* Lane k = a[k * stride] (canonical elements; stride in elements). */
FR52_INLINE void fr52x8_load_strided(fr52x8 *o, const cuzk_fr_t *a, size_t stride)
{
    const long long s = (long long)(4 * stride);
    const __m512i idx = _mm512_setr_epi64(0, s, 2 * s, 3 * s, 4 * s, 5 * s, 6 * s, 7 * s);
    __m512i w[4];
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++)
        w[i] = _mm512_i64gather_epi64(idx, (const void *)&a[0].l[i], 8);
    fr52x8_from_words_(o, w);
}

/* Lane k = a[k], 8 consecutive canonical elements: four loads and an 8 x 4 transpose of 64-bit
 * words (cheaper than four gathers). */
FR52_INLINE void fr52x8_load(fr52x8 *o, const cuzk_fr_t a[8])
{
    const __m512i *p = (const __m512i *)(const void *)a;
    __m512i v0 = _mm512_loadu_si512(p), v1 = _mm512_loadu_si512(p + 1),
            v2 = _mm512_loadu_si512(p + 2), v3 = _mm512_loadu_si512(p + 3);
    /* v0 = e0w0 e0w1 e0w2 e0w3 e1w0 .. e1w3, v1 = e2.., e3.., v2 = e4, e5, v3 = e6, e7.
     * Step 1: words 0,1 and 2,3 of e0..e3 (u0, u1) and of e4..e7 (u2, u3). */
    const __m512i i01 = _mm512_setr_epi64(0, 4, 8, 12, 1, 5, 9, 13);
    const __m512i i23 = _mm512_setr_epi64(2, 6, 10, 14, 3, 7, 11, 15);
    __m512i u0 = _mm512_permutex2var_epi64(v0, i01, v1); /* e0..e3 w0, e0..e3 w1 */
    __m512i u1 = _mm512_permutex2var_epi64(v0, i23, v1); /* e0..e3 w2, e0..e3 w3 */
    __m512i u2 = _mm512_permutex2var_epi64(v2, i01, v3); /* e4..e7 w0, w1 */
    __m512i u3 = _mm512_permutex2var_epi64(v2, i23, v3); /* e4..e7 w2, w3 */
    const __m512i lo = _mm512_setr_epi64(0, 1, 2, 3, 8, 9, 10, 11);
    const __m512i hi = _mm512_setr_epi64(4, 5, 6, 7, 12, 13, 14, 15);
    __m512i w[4];
    w[0] = _mm512_permutex2var_epi64(u0, lo, u2);
    w[1] = _mm512_permutex2var_epi64(u0, hi, u2);
    w[2] = _mm512_permutex2var_epi64(u1, lo, u3);
    w[3] = _mm512_permutex2var_epi64(u1, hi, u3);
    fr52x8_from_words_(o, w);
}

/* a[k * stride] = lane k, canonical (x in [0, 4r), normalised limbs). */
FR52_INLINE void fr52x8_store_strided(cuzk_fr_t *a, size_t stride, const fr52x8 *x)
{
    const long long s = (long long)(4 * stride);
    const __m512i idx = _mm512_setr_epi64(0, s, 2 * s, 3 * s, 4 * s, 5 * s, 6 * s, 7 * s);
    fr52x8 c;
    __m512i w[4];
    fr52x8_reduce4_(&c, x);
    fr52x8_to_words_(w, &c);
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++)
        _mm512_i64scatter_epi64((void *)&a[0].l[i], idx, w[i], 8);
}

/* a[k] = lane k for 8 consecutive elements, canonical (x in [0, 4r), normalised limbs): the
 * transpose back. */
FR52_INLINE void fr52x8_store(cuzk_fr_t a[8], const fr52x8 *x)
{
    fr52x8 c;
    __m512i w[4];
    fr52x8_reduce4_(&c, x);
    fr52x8_to_words_(w, &c);
    /* w[i] = word i of e0..e7. u0 = e0..e3 w0 | e0..e3 w1 (interleaved back below). */
    const __m512i lo = _mm512_setr_epi64(0, 1, 2, 3, 8, 9, 10, 11);
    const __m512i hi = _mm512_setr_epi64(4, 5, 6, 7, 12, 13, 14, 15);
    __m512i u0 = _mm512_permutex2var_epi64(w[0], lo, w[1]); /* e0..e3 w0, e0..e3 w1 */
    __m512i u2 = _mm512_permutex2var_epi64(w[0], hi, w[1]); /* e4..e7 w0, w1 */
    __m512i u1 = _mm512_permutex2var_epi64(w[2], lo, w[3]); /* e0..e3 w2, w3 */
    __m512i u3 = _mm512_permutex2var_epi64(w[2], hi, w[3]); /* e4..e7 w2, w3 */
    /* v0 = e0 w0..w3, e1 w0..w3: from u0 (w0 at 0..3, w1 at 4..7) and u1 (w2, w3). */
    const __m512i e01 = _mm512_setr_epi64(0, 4, 8, 12, 1, 5, 9, 13);
    const __m512i e23 = _mm512_setr_epi64(2, 6, 10, 14, 3, 7, 11, 15);
    __m512i *p = (__m512i *)(void *)a;
    _mm512_storeu_si512(p, _mm512_permutex2var_epi64(u0, e01, u1));
    _mm512_storeu_si512(p + 1, _mm512_permutex2var_epi64(u0, e23, u1));
    _mm512_storeu_si512(p + 2, _mm512_permutex2var_epi64(u2, e01, u3));
    _mm512_storeu_si512(p + 3, _mm512_permutex2var_epi64(u2, e23, u3));
}

/* One canonical element in radix 2^52 (o[0..4]), for tables of broadcast factors. */
static inline void fr52_from_fr(uint64_t o[5], const cuzk_fr_t *a)
{
    const uint64_t *w = a->l;
    o[0] = w[0] & FR52_MASK;
    o[1] = ((w[0] >> 52) | (w[1] << 12)) & FR52_MASK;
    o[2] = ((w[1] >> 40) | (w[2] << 24)) & FR52_MASK;
    o[3] = ((w[2] >> 28) | (w[3] << 36)) & FR52_MASK;
    o[4] = w[3] >> 16;
}

/* Every lane = the table element t[0..4]. */
FR52_INLINE void fr52x8_bcast(fr52x8 *o, const uint64_t t[5])
{
#pragma GCC unroll 8
    for (int j = 0; j < 5; j++)
        o->l[j] = FR52_SET1(t[j]);
}

#else
#define CUZK_FR_HAVE_IFMA 0
#endif

#endif

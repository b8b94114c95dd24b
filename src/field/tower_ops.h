/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_FIELD_TOWER_OPS_H
#define CUZK_FIELD_TOWER_OPS_H

/*
 * Inline Fp and Fp2 operations for the hot loops of the tower (fp6.c, fp12.c) and the pairing
 * (src/pairing/). They compute exactly what the public cuzk_fp_* / cuzk_fp2_* functions compute,
 * on canonical inputs (< p), but without a function call per addition: in Fp6/Fp12 code about
 * half of the calls are additions, and the call overhead there cost as much as the
 * multiplications. Multiplication goes straight to the library's fastest back end.
 * Outputs may alias inputs.
 */

#include "cuzk/field.h"
#include "field/fp_internal.h"
#include "field/mont.h"

#if defined(__x86_64__)
#include <x86intrin.h>
#define TOWER_HAVE_ADC 1
#else
#define TOWER_HAVE_ADC 0
#endif

#define TOWER_INLINE static inline __attribute__((always_inline))

/* out = a + b mod p. p < 2^382, so a + b never carries out of 6 limbs. */
TOWER_INLINE void fp_add(cuzk_fp_t *out, const cuzk_fp_t *a, const cuzk_fp_t *b)
{
#if TOWER_HAVE_ADC
    const uint64_t *m = cuzk_fp_modulus;
    unsigned long long t[6], d[6];
    unsigned char c = 0, bw = 0;
    for (int i = 0; i < 6; i++)
        c = _addcarry_u64(c, a->l[i], b->l[i], &t[i]);
    for (int i = 0; i < 6; i++)
        bw = _subborrow_u64(bw, t[i], m[i], &d[i]);
    uint64_t keep = 0 - (uint64_t)bw; /* all ones when t < p */
    for (int i = 0; i < 6; i++)
        out->l[i] = (t[i] & keep) | (d[i] & ~keep);
#else
    mont_add(out->l, a->l, b->l, cuzk_fp_modulus, 6);
#endif
}

/* out = a - b mod p. */
TOWER_INLINE void fp_sub(cuzk_fp_t *out, const cuzk_fp_t *a, const cuzk_fp_t *b)
{
#if TOWER_HAVE_ADC
    const uint64_t *m = cuzk_fp_modulus;
    unsigned long long t[6];
    unsigned char c = 0, bw = 0;
    for (int i = 0; i < 6; i++)
        bw = _subborrow_u64(bw, a->l[i], b->l[i], &t[i]);
    uint64_t mask = 0 - (uint64_t)bw; /* add p back when a < b */
    for (int i = 0; i < 6; i++)
        c = _addcarry_u64(c, t[i], m[i] & mask, (unsigned long long *)&out->l[i]);
#else
    mont_sub(out->l, a->l, b->l, cuzk_fp_modulus, 6);
#endif
}

TOWER_INLINE void fp_dbl(cuzk_fp_t *out, const cuzk_fp_t *a)
{
    fp_add(out, a, a);
}

TOWER_INLINE void fp_neg(cuzk_fp_t *out, const cuzk_fp_t *a)
{
    mont_neg(out->l, a->l, cuzk_fp_modulus, 6);
}

TOWER_INLINE void fp_mul(cuzk_fp_t *out, const cuzk_fp_t *a, const cuzk_fp_t *b)
{
    cuzk_fp_mul_impl(out->l, a->l, b->l);
}

TOWER_INLINE void fp_sqr(cuzk_fp_t *out, const cuzk_fp_t *a)
{
    cuzk_fp_sqr_impl(out->l, a->l);
}

TOWER_INLINE void fp2_add(cuzk_fp2_t *out, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    fp_add(&out->c0, &a->c0, &b->c0);
    fp_add(&out->c1, &a->c1, &b->c1);
}

TOWER_INLINE void fp2_sub(cuzk_fp2_t *out, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    fp_sub(&out->c0, &a->c0, &b->c0);
    fp_sub(&out->c1, &a->c1, &b->c1);
}

TOWER_INLINE void fp2_dbl(cuzk_fp2_t *out, const cuzk_fp2_t *a)
{
    fp_add(&out->c0, &a->c0, &a->c0);
    fp_add(&out->c1, &a->c1, &a->c1);
}

TOWER_INLINE void fp2_neg(cuzk_fp2_t *out, const cuzk_fp2_t *a)
{
    fp_neg(&out->c0, &a->c0);
    fp_neg(&out->c1, &a->c1);
}

/* out = a (1 + u) = (a0 - a1) + (a0 + a1) u. */
TOWER_INLINE void fp2_mul_by_nonresidue(cuzk_fp2_t *out, const cuzk_fp2_t *a)
{
    cuzk_fp_t t;
    fp_sub(&t, &a->c0, &a->c1);
    fp_add(&out->c1, &a->c0, &a->c1);
    out->c0 = t;
}

/* Karatsuba, 3M: c0 = a0 b0 - a1 b1, c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1. */
TOWER_INLINE void fp2_mul(cuzk_fp2_t *out, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    cuzk_fp_t t0, t1, s0, s1;
    fp_mul(&t0, &a->c0, &b->c0);
    fp_mul(&t1, &a->c1, &b->c1);
    fp_add(&s0, &a->c0, &a->c1);
    fp_add(&s1, &b->c0, &b->c1);
    fp_mul(&s0, &s0, &s1);
    fp_sub(&out->c0, &t0, &t1);
    fp_sub(&s0, &s0, &t0);
    fp_sub(&out->c1, &s0, &t1);
}

/* Complex squaring, 2M: c0 = (a0 + a1)(a0 - a1), c1 = 2 a0 a1. */
TOWER_INLINE void fp2_sqr(cuzk_fp2_t *out, const cuzk_fp2_t *a)
{
    cuzk_fp_t s, d, m;
    fp_add(&s, &a->c0, &a->c1);
    fp_sub(&d, &a->c0, &a->c1);
    fp_mul(&m, &a->c0, &a->c1);
    fp_mul(&out->c0, &s, &d);
    fp_add(&out->c1, &m, &m);
}

TOWER_INLINE void fp2_mul_fp(cuzk_fp2_t *out, const cuzk_fp2_t *a, const cuzk_fp_t *b)
{
    fp_mul(&out->c0, &a->c0, b);
    fp_mul(&out->c1, &a->c1, b);
}

#endif

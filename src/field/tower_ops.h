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

/* -DCUZK_TOWER_NO_ASM selects the portable C paths (tested that way too). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(CUZK_TOWER_NO_ASM)
#define TOWER_HAVE_ASM 1
#else
#define TOWER_HAVE_ASM 0
#endif

#define TOWER_INLINE static inline __attribute__((always_inline))

/*
 * out = a + b mod p. p < 2^382, so a + b never carries out of 6 limbs; the conditional
 * subtraction of p keeps t = a + b when t - p borrows (cmov, no branch). On x86-64 this is inline
 * assembly: GCC 12 turns the equivalent _addcarry_u64 chains into spills (measured 12 ns against
 * 5.5 ns for the asm, dependent chain).
 */
TOWER_INLINE void fp_add(cuzk_fp_t *out, const cuzk_fp_t *a, const cuzk_fp_t *b)
{
#if TOWER_HAVE_ASM
    const uint64_t *m = cuzk_fp_modulus;
    uint64_t t0, t1, t2, t3, t4, t5, s0, s1, s2, s3, s4, s5;
    __asm__("movq 0(%[a]), %[t0]\n\taddq 0(%[b]), %[t0]\n\t"
            "movq 8(%[a]), %[t1]\n\tadcq 8(%[b]), %[t1]\n\t"
            "movq 16(%[a]), %[t2]\n\tadcq 16(%[b]), %[t2]\n\t"
            "movq 24(%[a]), %[t3]\n\tadcq 24(%[b]), %[t3]\n\t"
            "movq 32(%[a]), %[t4]\n\tadcq 32(%[b]), %[t4]\n\t"
            "movq 40(%[a]), %[t5]\n\tadcq 40(%[b]), %[t5]\n\t"
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
              [t5] "=&r"(t5)
            : [a] "r"(a->l), [b] "r"(b->l), "m"(*a), "m"(*b)
            : "cc");
    __asm__("movq %[t0], %[s0]\n\tsubq 0(%[m]), %[s0]\n\t"
            "movq %[t1], %[s1]\n\tsbbq 8(%[m]), %[s1]\n\t"
            "movq %[t2], %[s2]\n\tsbbq 16(%[m]), %[s2]\n\t"
            "movq %[t3], %[s3]\n\tsbbq 24(%[m]), %[s3]\n\t"
            "movq %[t4], %[s4]\n\tsbbq 32(%[m]), %[s4]\n\t"
            "movq %[t5], %[s5]\n\tsbbq 40(%[m]), %[s5]\n\t"
            "cmovcq %[t0], %[s0]\n\tcmovcq %[t1], %[s1]\n\tcmovcq %[t2], %[s2]\n\t"
            "cmovcq %[t3], %[s3]\n\tcmovcq %[t4], %[s4]\n\tcmovcq %[t5], %[s5]\n\t"
            : [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3), [s4] "=&r"(s4),
              [s5] "=&r"(s5)
            : [t0] "r"(t0), [t1] "r"(t1), [t2] "r"(t2), [t3] "r"(t3), [t4] "r"(t4), [t5] "r"(t5),
              [m] "r"(m), "m"(*(const uint64_t(*)[6])m)
            : "cc");
    out->l[0] = s0;
    out->l[1] = s1;
    out->l[2] = s2;
    out->l[3] = s3;
    out->l[4] = s4;
    out->l[5] = s5;
#else
    mont_add(out->l, a->l, b->l, cuzk_fp_modulus, 6);
#endif
}

/* out = a - b mod p: t = a - b, then t + (p AND borrow mask). The masking happens between two
 * asm blocks because AND clears the carry flag the adc chain needs. */
TOWER_INLINE void fp_sub(cuzk_fp_t *out, const cuzk_fp_t *a, const cuzk_fp_t *b)
{
#if TOWER_HAVE_ASM
    const uint64_t *m = cuzk_fp_modulus;
    uint64_t t0, t1, t2, t3, t4, t5, mask;
    __asm__("movq 0(%[a]), %[t0]\n\tsubq 0(%[b]), %[t0]\n\t"
            "movq 8(%[a]), %[t1]\n\tsbbq 8(%[b]), %[t1]\n\t"
            "movq 16(%[a]), %[t2]\n\tsbbq 16(%[b]), %[t2]\n\t"
            "movq 24(%[a]), %[t3]\n\tsbbq 24(%[b]), %[t3]\n\t"
            "movq 32(%[a]), %[t4]\n\tsbbq 32(%[b]), %[t4]\n\t"
            "movq 40(%[a]), %[t5]\n\tsbbq 40(%[b]), %[t5]\n\t"
            "sbbq %[mask], %[mask]\n\t"
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
              [t5] "=&r"(t5), [mask] "=&r"(mask)
            : [a] "r"(a->l), [b] "r"(b->l), "m"(*a), "m"(*b)
            : "cc");
    uint64_t u0 = m[0] & mask, u1 = m[1] & mask, u2 = m[2] & mask, u3 = m[3] & mask,
             u4 = m[4] & mask, u5 = m[5] & mask;
    __asm__(
        "addq %[u0], %[t0]\n\tadcq %[u1], %[t1]\n\tadcq %[u2], %[t2]\n\t"
        "adcq %[u3], %[t3]\n\tadcq %[u4], %[t4]\n\tadcq %[u5], %[t5]\n\t"
        : [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [t4] "+r"(t4), [t5] "+r"(t5)
        : [u0] "r"(u0), [u1] "r"(u1), [u2] "r"(u2), [u3] "r"(u3), [u4] "r"(u4), [u5] "r"(u5)
        : "cc");
    out->l[0] = t0;
    out->l[1] = t1;
    out->l[2] = t2;
    out->l[3] = t3;
    out->l[4] = t4;
    out->l[5] = t5;
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
#if CUZK_FP_HAVE_ADX && TOWER_HAVE_ASM
    cuzk__fp2_mul_adx(out, a, b); /* two reductions instead of three */
#else
    cuzk_fp_t t0, t1, s0, s1;
    fp_mul(&t0, &a->c0, &b->c0);
    fp_mul(&t1, &a->c1, &b->c1);
    fp_add(&s0, &a->c0, &a->c1);
    fp_add(&s1, &b->c0, &b->c1);
    fp_mul(&s0, &s0, &s1);
    fp_sub(&out->c0, &t0, &t1);
    fp_sub(&s0, &s0, &t0);
    fp_sub(&out->c1, &s0, &t1);
#endif
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

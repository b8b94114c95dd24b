/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_R1CS_FR_FAST_H
#define CUZK_R1CS_FR_FAST_H

/*
 * Inline Fr arithmetic for the synthesis hot loops (LC evaluation, SpMV), where a call per
 * addition would cost as much as the addition. The same canonical results as cuzk_fr_*.
 */

#include "cuzk/field.h"
#include "field/fp_internal.h"
#include "field/fr_inline.h"
#include "field/mont.h"

MONT_INLINE void frf_add(cuzk_fr_t *r, const cuzk_fr_t *a, const cuzk_fr_t *b)
{
    mont_add(r->l, a->l, b->l, cuzk_fr_modulus, CUZK_FR_LIMBS);
}
MONT_INLINE void frf_sub(cuzk_fr_t *r, const cuzk_fr_t *a, const cuzk_fr_t *b)
{
    mont_sub(r->l, a->l, b->l, cuzk_fr_modulus, CUZK_FR_LIMBS);
}
MONT_INLINE void frf_mul(cuzk_fr_t *r, const cuzk_fr_t *a, const cuzk_fr_t *b)
{
    fri_mul(r, a, b); /* mulx asm where built (field/fr_inline.h), else mont_mul */
}
MONT_INLINE bool frf_is_zero(const cuzk_fr_t *a)
{
    return (a->l[0] | a->l[1] | a->l[2] | a->l[3]) == 0;
}
MONT_INLINE void frf_set_zero(cuzk_fr_t *r)
{
    r->l[0] = r->l[1] = r->l[2] = r->l[3] = 0;
}
MONT_INLINE bool frf_eq(const cuzk_fr_t *a, const cuzk_fr_t *b)
{
    return ((a->l[0] ^ b->l[0]) | (a->l[1] ^ b->l[1]) | (a->l[2] ^ b->l[2]) |
            (a->l[3] ^ b->l[3])) == 0;
}

/*
 * Unreduced accumulator for sums of many field elements: 5 limbs, one carry chain per addition,
 * a single reduction at the end. Summing k elements costs k 4-limb additions instead of k
 * modular additions (each a subtraction and a select more). Safe for up to 2^64 terms.
 */
typedef struct {
    uint64_t l[5];
} frf_acc;

MONT_INLINE void frf_acc_zero(frf_acc *a)
{
    a->l[0] = a->l[1] = a->l[2] = a->l[3] = a->l[4] = 0;
}

MONT_INLINE void frf_acc_add(frf_acc *a, const cuzk_fr_t *x)
{
    mont_u128 c = (mont_u128)a->l[0] + x->l[0];
    a->l[0] = (uint64_t)c;
    c = (c >> 64) + a->l[1] + x->l[1];
    a->l[1] = (uint64_t)c;
    c = (c >> 64) + a->l[2] + x->l[2];
    a->l[2] = (uint64_t)c;
    c = (c >> 64) + a->l[3] + x->l[3];
    a->l[3] = (uint64_t)c;
    a->l[4] += (uint64_t)(c >> 64);
}

/* out = a mod r. Folds the top limb with 2^256 = R (mod r), R < 2^253, until it is zero (each
 * fold divides it by about 10), then subtracts r at most twice. Variable time. */
MONT_INLINE void frf_acc_reduce_vartime(cuzk_fr_t *out, const frf_acc *a)
{
    static const uint64_t R[4] = {0x00000001fffffffeULL, 0x5884b7fa00034802ULL,
                                  0x998c4fefecbc4ff5ULL, 0x1824b159acc5056fULL};
    uint64_t l0 = a->l[0], l1 = a->l[1], l2 = a->l[2], l3 = a->l[3], hi = a->l[4];
    while (hi) {
        mont_u128 c = (mont_u128)hi * R[0] + l0;
        l0 = (uint64_t)c;
        c = (c >> 64) + (mont_u128)hi * R[1] + l1;
        l1 = (uint64_t)c;
        c = (c >> 64) + (mont_u128)hi * R[2] + l2;
        l2 = (uint64_t)c;
        c = (c >> 64) + (mont_u128)hi * R[3] + l3;
        l3 = (uint64_t)c;
        hi = (uint64_t)(c >> 64);
    }
    out->l[0] = l0;
    out->l[1] = l1;
    out->l[2] = l2;
    out->l[3] = l3;
    while (mont_geq_vartime(out->l, cuzk_fr_modulus, CUZK_FR_LIMBS))
        mont_sub_raw(out->l, out->l, cuzk_fr_modulus, CUZK_FR_LIMBS);
}

/* 1 and -1 in Montgomery form. */
extern const cuzk_fr_t cuzk__fr_one;
extern const cuzk_fr_t cuzk__fr_minus_one;

/* acc += coeff * x, skipping the multiplication when x is 0 or 1 (variable time). */
MONT_INLINE void frf_acc_madd_vartime(frf_acc *acc, const cuzk_fr_t *coeff, const cuzk_fr_t *x)
{
    if (frf_is_zero(x))
        return;
    if (frf_eq(x, &cuzk__fr_one)) {
        frf_acc_add(acc, coeff);
        return;
    }
    cuzk_fr_t t;
    frf_mul(&t, coeff, x);
    frf_acc_add(acc, &t);
}

/* out = pos - neg (mod r) from two accumulators. */
MONT_INLINE void frf_acc_finish_vartime(cuzk_fr_t *out, const frf_acc *pos, const frf_acc *neg)
{
    cuzk_fr_t p, n;
    frf_acc_reduce_vartime(&p, pos);
    if ((neg->l[0] | neg->l[1] | neg->l[2] | neg->l[3] | neg->l[4]) == 0) {
        *out = p;
        return;
    }
    frf_acc_reduce_vartime(&n, neg);
    frf_sub(out, &p, &n);
}

#endif

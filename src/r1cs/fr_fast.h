/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_R1CS_FR_FAST_H
#define CUZK_R1CS_FR_FAST_H

/*
 * Inline Fr arithmetic for the synthesis hot loops (LC evaluation, SpMV), where a call per
 * addition would cost as much as the addition. Same Montgomery code and constants as
 * src/field/fr.c (field/mont.h), so results are bit-identical to cuzk_fr_*.
 */

#include "cuzk/field.h"
#include "field/fp_internal.h"
#include "field/mont.h"

#define FRF_N0 0xfffffffeffffffffULL

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
    mont_mul(r->l, a->l, b->l, cuzk_fr_modulus, FRF_N0, CUZK_FR_LIMBS);
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

/* 1 and -1 in Montgomery form. */
extern const cuzk_fr_t cuzk__fr_one;
extern const cuzk_fr_t cuzk__fr_minus_one;

/* acc += coeff * x, skipping the multiplication when x is 0 or 1 (variable time: most witness
 * values of Filecoin circuits are bits). */
MONT_INLINE void frf_madd_vartime(cuzk_fr_t *acc, const cuzk_fr_t *coeff, const cuzk_fr_t *x)
{
    if (frf_is_zero(x))
        return;
    if (frf_eq(x, &cuzk__fr_one)) {
        frf_add(acc, acc, coeff);
        return;
    }
    cuzk_fr_t t;
    frf_mul(&t, coeff, x);
    frf_add(acc, acc, &t);
}

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_PAIRING_H
#define CUZK_PAIRING_H

/* Optimal ate pairing on BLS12-381 (x = -0xd201000000010000). GT elements are Fp12 values in
 * the cyclotomic subgroup. */

#include "cuzk/curve.h"

/* Miller loop f_{|x|,Q}(P) (conjugated for the negative x), no final exponentiation.
 * Either point at infinity gives 1. */
void cuzk_miller_loop(cuzk_fp12_t *out, const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q);
/* Product of |n| Miller loops sharing one accumulator (one squaring per step for all pairs);
 * pairs with a point at infinity contribute 1. */
void cuzk_miller_loop_multi(cuzk_fp12_t *out, const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q,
                            size_t n);
/* out = f^((p^12 - 1) / r): easy part (p^6 - 1)(p^2 + 1), hard part with cyclotomic squarings. */
void cuzk_final_exp(cuzk_fp12_t *out, const cuzk_fp12_t *f);
/* e(P, Q) = final_exp(miller_loop(P, Q)). */
void cuzk_pairing(cuzk_fp12_t *out, const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q);
/* prod_i e(P_i, Q_i) with one final exponentiation. */
void cuzk_multi_pairing(cuzk_fp12_t *out, const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q,
                        size_t n);
/* True when prod_i e(P_i, Q_i) = 1. */
bool cuzk_pairing_product_is_one(const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q, size_t n);

#endif

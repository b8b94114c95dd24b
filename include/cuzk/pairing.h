/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_PAIRING_H
#define CUZK_PAIRING_H

/*
 * Optimal ate pairing on BLS12-381 (x = -0xd201000000010000). GT elements are Fp12 values in
 * the cyclotomic subgroup (unitary: cuzk_fp12_conj is their inverse).
 *
 * e(P, Q) = f_{x,Q}(P)^(3 (p^12 - 1) / r): the same value as zkcrypto/bls12_381 and blst (the
 * cube of the textbook reduced pairing, still bilinear and non-degenerate since gcd(3, r) = 1);
 * e(G1, G2) is checked against zkcrypto's published Gt::generator() in tests/unit/test_pairing.c.
 *
 * Inputs are affine points assumed on their curves and in the prime-order subgroups (decoders
 * check that); nothing here validates them. No heap use; the running time depends only on |n| and
 * on which points are at infinity. Sources are cited in src/pairing/.
 */

#include "cuzk/curve.h"

/* Miller loop f_{|x|,Q}(P) (conjugated for the negative x), no final exponentiation.
 * Either point at infinity gives 1. */
void cuzk_miller_loop(cuzk_fp12_t *out, const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q);
/* Product of |n| Miller loops sharing one accumulator (one squaring per step for all pairs, in
 * stack chunks of 16 pairs); pairs with a point at infinity contribute 1; n = 0 gives 1. */
void cuzk_miller_loop_multi(cuzk_fp12_t *out, const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q,
                            size_t n);
/* out = f^(3 (p^12 - 1) / r): easy part (p^6 - 1)(p^2 + 1), then the hard part
 * 3 (p^4 - p^2 + 1) / r with cyclotomic squarings (Hayashida-Hayasaka-Teruya, eprint 2020/875).
 * f = 0 gives 0. */
void cuzk_final_exp(cuzk_fp12_t *out, const cuzk_fp12_t *f);
/* e(P, Q) = final_exp(miller_loop(P, Q)). */
void cuzk_pairing(cuzk_fp12_t *out, const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q);
/* prod_i e(P_i, Q_i) with one final exponentiation. */
void cuzk_multi_pairing(cuzk_fp12_t *out, const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q,
                        size_t n);
/* True when prod_i e(P_i, Q_i) = 1 (one multi-Miller loop, one final exponentiation); n = 0
 * gives true. */
bool cuzk_pairing_product_is_one(const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q, size_t n);

#endif

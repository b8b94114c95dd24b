/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Final exponentiation f^(3 (p^12 - 1) / r) and the pairing entry points.
 *
 * Easy part: f^((p^6 - 1)(p^2 + 1)) = (conj(f) / f)^(p^2 + 1), after which f is in the
 * cyclotomic subgroup (conjugation inverts, cyclotomic squaring applies).
 *
 * Hard part: Hayashida, Hayasaka and Teruya, "Efficient Final Exponentiation via Cyclotomic
 * Structure for Pairings over Families of Elliptic Curves", eprint 2020/875, for BLS12:
 *   3 (p^4 - p^2 + 1) / r = (x - 1)^2 (x + p) (x^2 + p^2 - 1) + 3,
 * five exponentiations by x. The result is the cube of f^((p^12 - 1)/r); since gcd(3, r) = 1 it is
 * still a non-degenerate bilinear pairing, and it is the value zkcrypto/bls12_381 returns (and
 * blst, whose final_exp is marked as an adaptation of zkcrypto's); checked against zkcrypto's
 * Gt::generator() in tests/unit/test_pairing.c.
 */
#include "cuzk/pairing.h"

#define BLS_X_ABS 0xd201000000010000ULL

/* out = a^x = conj(a^|x|) for a in the cyclotomic subgroup: 63 cyclotomic squarings and 5
 * multiplications (|x| has 6 bits set). */
static void cyclotomic_exp_x(cuzk_fp12_t *out, const cuzk_fp12_t *a)
{
    cuzk_fp12_t base = *a, acc = *a;
    for (int i = 62; i >= 0; i--) {
        cuzk_fp12_cyclotomic_sqr(&acc, &acc);
        if ((BLS_X_ABS >> i) & 1)
            cuzk_fp12_mul(&acc, &acc, &base);
    }
    cuzk_fp12_conj(out, &acc);
}

void cuzk_final_exp(cuzk_fp12_t *out, const cuzk_fp12_t *f)
{
    cuzk_fp12_t m, t0, t1, a, b;

    /* Easy part. */
    cuzk_fp12_inv(&t0, f);
    cuzk_fp12_conj(&m, f);
    cuzk_fp12_mul(&m, &m, &t0); /* f^(p^6 - 1) */
    cuzk_fp12_frobenius(&t0, &m, 2);
    cuzk_fp12_mul(&m, &t0, &m); /* ^(p^2 + 1) */

    /* Hard part (eprint 2020/875). */
    cyclotomic_exp_x(&t0, &m);
    cuzk_fp12_conj(&t1, &m);
    cuzk_fp12_mul(&t0, &t0, &t1); /* m^(x - 1) */
    cyclotomic_exp_x(&a, &t0);
    cuzk_fp12_conj(&t0, &t0);
    cuzk_fp12_mul(&a, &a, &t0); /* a = m^((x - 1)^2) */
    cyclotomic_exp_x(&b, &a);
    cuzk_fp12_frobenius(&t0, &a, 1);
    cuzk_fp12_mul(&b, &b, &t0); /* b = a^(x + p) */
    cyclotomic_exp_x(&t0, &b);
    cyclotomic_exp_x(&t0, &t0);
    cuzk_fp12_frobenius(&t1, &b, 2);
    cuzk_fp12_mul(&t0, &t0, &t1);
    cuzk_fp12_conj(&t1, &b);
    cuzk_fp12_mul(&t0, &t0, &t1); /* b^(x^2 + p^2 - 1) */
    cuzk_fp12_cyclotomic_sqr(&t1, &m);
    cuzk_fp12_mul(&t1, &t1, &m); /* m^3 */
    cuzk_fp12_mul(out, &t0, &t1);
}

void cuzk_pairing(cuzk_fp12_t *out, const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q)
{
    cuzk_fp12_t f;
    cuzk_miller_loop(&f, p, q);
    cuzk_final_exp(out, &f);
}

void cuzk_multi_pairing(cuzk_fp12_t *out, const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q,
                        size_t n)
{
    cuzk_fp12_t f;
    cuzk_miller_loop_multi(&f, p, q, n);
    cuzk_final_exp(out, &f);
}

bool cuzk_pairing_product_is_one(const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q, size_t n)
{
    cuzk_fp12_t e;
    cuzk_multi_pairing(&e, p, q, n);
    return cuzk_fp12_is_one(&e);
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Fp6 = Fp2[v] / (v^3 - xi), xi = 1 + u. Element c0 + c1*v + c2*v^2.
 *
 * Multiplication and squaring follow Devegili, O hEigeartaigh, Scott and Dahab, "Multiplication
 * and Squaring on Pairing-Friendly Fields", eprint 2006/471: Karatsuba (section 4, 6 Fp2
 * multiplications) and Chung-Hasan CH-SQR2 (2 multiplications + 3 squarings).
 */
#include "cuzk/field.h"
#include "field/fp12_internal.h"
#include "field/tower_ops.h"

/* Frobenius coefficients in Montgomery form, from scripts/gen_field_constants.py. */
static const cuzk_fp2_t FROB6_C1[6] = {
    /* k = 0 */
    {{{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL,
       0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
       0x0000000000000000ULL, 0x0000000000000000ULL}}},
    /* k = 1 */
    {{{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
       0x0000000000000000ULL, 0x0000000000000000ULL}},
     {{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL, 0x8eb60ebe01bacb9eULL,
       0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}}},
    /* k = 2 */
    {{{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL, 0xc26a2ff874fd029bULL,
       0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
       0x0000000000000000ULL, 0x0000000000000000ULL}}},
    /* k = 3 */
    {{{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
       0x0000000000000000ULL, 0x0000000000000000ULL}},
     {{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL,
       0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}}},
    /* k = 4 */
    {{{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL, 0x8eb60ebe01bacb9eULL,
       0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
       0x0000000000000000ULL, 0x0000000000000000ULL}}},
    /* k = 5 */
    {{{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
       0x0000000000000000ULL, 0x0000000000000000ULL}},
     {{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL, 0xc26a2ff874fd029bULL,
       0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}}},
};
static const cuzk_fp2_t FROB6_C2[6] = {
    /* k = 0 */
    {{{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL,
       0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
       0x0000000000000000ULL, 0x0000000000000000ULL}}},
    /* k = 1 */
    {{{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL, 0xa20d1b8c7e881024ULL,
       0x14e4f04fe2db9068ULL, 0x14e56d3f1564853aULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
       0x0000000000000000ULL, 0x0000000000000000ULL}}},
    /* k = 2 */
    {{{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL, 0x8eb60ebe01bacb9eULL,
       0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
       0x0000000000000000ULL, 0x0000000000000000ULL}}},
    /* k = 3 */
    {{{0x43f5fffffffcaaaeULL, 0x32b7fff2ed47fffdULL, 0x07e83a49a2e99d69ULL, 0xeca8f3318332bb7aULL,
       0xef148d1ea0f4c069ULL, 0x040ab3263eff0206ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
       0x0000000000000000ULL, 0x0000000000000000ULL}}},
    /* k = 4 */
    {{{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL, 0xc26a2ff874fd029bULL,
       0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
       0x0000000000000000ULL, 0x0000000000000000ULL}}},
    /* k = 5 */
    {{{0xecfb361b798dba3aULL, 0xc100ddb891865a2cULL, 0x0ec08ff1232bda8eULL, 0xd5c13cc6f1ca4721ULL,
       0x47222a47bf7b5c04ULL, 0x0110f184e51c5f59ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
       0x0000000000000000ULL, 0x0000000000000000ULL}}},
};

void cuzk_fp6_set_zero(cuzk_fp6_t *out)
{
    cuzk_fp2_set_zero(&out->c0);
    cuzk_fp2_set_zero(&out->c1);
    cuzk_fp2_set_zero(&out->c2);
}

void cuzk_fp6_set_one(cuzk_fp6_t *out)
{
    cuzk_fp2_set_one(&out->c0);
    cuzk_fp2_set_zero(&out->c1);
    cuzk_fp2_set_zero(&out->c2);
}

bool cuzk_fp6_is_zero(const cuzk_fp6_t *a)
{
    return cuzk_fp2_is_zero(&a->c0) & cuzk_fp2_is_zero(&a->c1) & cuzk_fp2_is_zero(&a->c2);
}

bool cuzk_fp6_eq(const cuzk_fp6_t *a, const cuzk_fp6_t *b)
{
    return cuzk_fp2_eq(&a->c0, &b->c0) & cuzk_fp2_eq(&a->c1, &b->c1) & cuzk_fp2_eq(&a->c2, &b->c2);
}

void cuzk_fp6_add(cuzk_fp6_t *out, const cuzk_fp6_t *a, const cuzk_fp6_t *b)
{
    fp2_add(&out->c0, &a->c0, &b->c0);
    fp2_add(&out->c1, &a->c1, &b->c1);
    fp2_add(&out->c2, &a->c2, &b->c2);
}

void cuzk_fp6_sub(cuzk_fp6_t *out, const cuzk_fp6_t *a, const cuzk_fp6_t *b)
{
    fp2_sub(&out->c0, &a->c0, &b->c0);
    fp2_sub(&out->c1, &a->c1, &b->c1);
    fp2_sub(&out->c2, &a->c2, &b->c2);
}

void cuzk_fp6_neg(cuzk_fp6_t *out, const cuzk_fp6_t *a)
{
    fp2_neg(&out->c0, &a->c0);
    fp2_neg(&out->c1, &a->c1);
    fp2_neg(&out->c2, &a->c2);
}

void cuzk_fp6_mul(cuzk_fp6_t *out, const cuzk_fp6_t *a, const cuzk_fp6_t *b)
{
    /* Karatsuba (eprint 2006/471, section 4): v_i = a_i b_i,
     * c0 = v0 + xi((a1 + a2)(b1 + b2) - v1 - v2), c1 = (a0 + a1)(b0 + b1) - v0 - v1 + xi v2,
     * c2 = (a0 + a2)(b0 + b2) - v0 - v2 + v1. 6M + 15A (Fp2). */
    cuzk_fp2_t v0, v1, v2, s, t, c0, c1, c2;
    fp2_mul(&v0, &a->c0, &b->c0);
    fp2_mul(&v1, &a->c1, &b->c1);
    fp2_mul(&v2, &a->c2, &b->c2);

    fp2_add(&s, &a->c1, &a->c2);
    fp2_add(&t, &b->c1, &b->c2);
    fp2_mul(&c0, &s, &t);
    fp2_sub(&c0, &c0, &v1);
    fp2_sub(&c0, &c0, &v2);
    fp2_mul_by_nonresidue(&c0, &c0);
    fp2_add(&c0, &c0, &v0);

    fp2_add(&s, &a->c0, &a->c1);
    fp2_add(&t, &b->c0, &b->c1);
    fp2_mul(&c1, &s, &t);
    fp2_sub(&c1, &c1, &v0);
    fp2_sub(&c1, &c1, &v1);
    fp2_mul_by_nonresidue(&s, &v2);
    fp2_add(&c1, &c1, &s);

    fp2_add(&s, &a->c0, &a->c2);
    fp2_add(&t, &b->c0, &b->c2);
    fp2_mul(&c2, &s, &t);
    fp2_sub(&c2, &c2, &v0);
    fp2_sub(&c2, &c2, &v2);
    fp2_add(&c2, &c2, &v1);

    out->c0 = c0;
    out->c1 = c1;
    out->c2 = c2;
}

void cuzk_fp6_sqr(cuzk_fp6_t *out, const cuzk_fp6_t *a)
{
    /* CH-SQR2 (eprint 2006/471, section 4): s0 = a0^2, s1 = 2 a0 a1, s2 = (a0 - a1 + a2)^2,
     * s3 = 2 a1 a2, s4 = a2^2; c0 = s0 + xi s3, c1 = s1 + xi s4, c2 = s1 + s2 + s3 - s0 - s4.
     * 2M + 3S (Fp2). */
    cuzk_fp2_t s0, s1, s2, s3, s4, t;
    fp2_sqr(&s0, &a->c0);
    fp2_mul(&s1, &a->c0, &a->c1);
    fp2_dbl(&s1, &s1);
    fp2_sub(&t, &a->c0, &a->c1);
    fp2_add(&t, &t, &a->c2);
    fp2_sqr(&s2, &t);
    fp2_mul(&s3, &a->c1, &a->c2);
    fp2_dbl(&s3, &s3);
    fp2_sqr(&s4, &a->c2);

    fp2_add(&out->c2, &s1, &s2);
    fp2_add(&out->c2, &out->c2, &s3);
    fp2_sub(&out->c2, &out->c2, &s0);
    fp2_sub(&out->c2, &out->c2, &s4);
    fp2_mul_by_nonresidue(&t, &s3);
    fp2_add(&out->c0, &s0, &t);
    fp2_mul_by_nonresidue(&t, &s4);
    fp2_add(&out->c1, &s1, &t);
}

void cuzk_fp6_mul_by_nonresidue(cuzk_fp6_t *out, const cuzk_fp6_t *a)
{
    /* (c0 + c1 v + c2 v^2) v = xi c2 + c0 v + c1 v^2. */
    cuzk_fp2_t t;
    fp2_mul_by_nonresidue(&t, &a->c2);
    out->c2 = a->c1;
    out->c1 = a->c0;
    out->c0 = t;
}

void cuzk__fp6_mul_by_01(cuzk_fp6_t *out, const cuzk_fp6_t *a, const cuzk_fp2_t *b0,
                         const cuzk_fp2_t *b1)
{
    /* a (b0 + b1 v) = (a0 b0 + xi a2 b1) + (a0 b1 + a1 b0) v + (a1 b1 + a2 b0) v^2, with the
     * Karatsuba terms of cuzk_fp6_mul for b2 = 0: 5M (Fp2). */
    cuzk_fp2_t v0, v1, s, t, c0, c1, c2;
    fp2_mul(&v0, &a->c0, b0);
    fp2_mul(&v1, &a->c1, b1);

    fp2_add(&s, &a->c1, &a->c2);
    fp2_mul(&c0, &s, b1);
    fp2_sub(&c0, &c0, &v1);
    fp2_mul_by_nonresidue(&c0, &c0);
    fp2_add(&c0, &c0, &v0);

    fp2_add(&s, &a->c0, &a->c1);
    fp2_add(&t, b0, b1);
    fp2_mul(&c1, &s, &t);
    fp2_sub(&c1, &c1, &v0);
    fp2_sub(&c1, &c1, &v1);

    fp2_add(&s, &a->c0, &a->c2);
    fp2_mul(&c2, &s, b0);
    fp2_sub(&c2, &c2, &v0);
    fp2_add(&c2, &c2, &v1);

    out->c0 = c0;
    out->c1 = c1;
    out->c2 = c2;
}

void cuzk__fp6_mul_by_1(cuzk_fp6_t *out, const cuzk_fp6_t *a, const cuzk_fp2_t *b1)
{
    /* a (b1 v) = xi a2 b1 + a0 b1 v + a1 b1 v^2: 3M (Fp2). */
    cuzk_fp2_t c0, c1, c2;
    fp2_mul(&c0, &a->c2, b1);
    fp2_mul_by_nonresidue(&c0, &c0);
    fp2_mul(&c1, &a->c0, b1);
    fp2_mul(&c2, &a->c1, b1);
    out->c0 = c0;
    out->c1 = c1;
    out->c2 = c2;
}

void cuzk_fp6_inv(cuzk_fp6_t *out, const cuzk_fp6_t *a)
{
    /* With A = a0^2 - xi a1 a2, B = xi a2^2 - a0 a1, C = a1^2 - a0 a2:
     * (a0 + a1 v + a2 v^2)(A + B v + C v^2) = a0 A + xi (a2 B + a1 C) =: F in Fp2, so
     * 1/a = (A + B v + C v^2) / F (Guide to Pairing-Based Cryptography, Algorithm 5.23).
     * 0 maps to 0 (F = 0 and the Fp2 inverse of 0 is 0). */
    cuzk_fp2_t A, B, C, F, t;
    fp2_sqr(&A, &a->c0);
    fp2_mul(&t, &a->c1, &a->c2);
    fp2_mul_by_nonresidue(&t, &t);
    fp2_sub(&A, &A, &t);

    fp2_sqr(&B, &a->c2);
    fp2_mul_by_nonresidue(&B, &B);
    fp2_mul(&t, &a->c0, &a->c1);
    fp2_sub(&B, &B, &t);

    fp2_sqr(&C, &a->c1);
    fp2_mul(&t, &a->c0, &a->c2);
    fp2_sub(&C, &C, &t);

    fp2_mul(&F, &a->c2, &B);
    fp2_mul(&t, &a->c1, &C);
    fp2_add(&F, &F, &t);
    fp2_mul_by_nonresidue(&F, &F);
    fp2_mul(&t, &a->c0, &A);
    fp2_add(&F, &F, &t);
    cuzk_fp2_inv(&F, &F);

    fp2_mul(&out->c0, &A, &F);
    fp2_mul(&out->c1, &B, &F);
    fp2_mul(&out->c2, &C, &F);
}

void cuzk_fp6_frobenius(cuzk_fp6_t *out, const cuzk_fp6_t *a, unsigned k)
{
    /* (sum c_i v^i)^(p^k) = sum c_i^(p^k) (v^i)^(p^k), and (v^i)^(p^k) = xi^(i(p^k - 1)/3) v^i,
     * Every element of Fp6 satisfies a^(p^6) = a, so only k mod 6 matters. */
    k %= 6;
    cuzk_fp2_frobenius(&out->c0, &a->c0, k);
    cuzk_fp2_frobenius(&out->c1, &a->c1, k);
    cuzk_fp2_frobenius(&out->c2, &a->c2, k);
    fp2_mul(&out->c1, &out->c1, &FROB6_C1[k]);
    fp2_mul(&out->c2, &out->c2, &FROB6_C2[k]);
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Fp12 = Fp6[w] / (w^2 - v). Element c0 + c1*w.
 *
 * Multiplication: Karatsuba over Fp6 (3 Fp6 products); squaring: the complex method (2 Fp6
 * products), both from Devegili et al., eprint 2006/471, section 5. Cyclotomic squaring:
 * Granger and Scott, "Faster Squaring in the Cyclotomic Subgroup of Sixth Degree Extensions",
 * eprint 2009/565, section 3.2 (9 Fp2 squarings).
 */
#include "cuzk/field.h"
#include "field/fp12_internal.h"
#include "field/tower_ops.h"

/* w^(p^k) = FROB12_C1[k mod 12] * w, Montgomery form, from scripts/gen_field_constants.py. */
static const cuzk_fp2_t FROB12_C1[12] = {
    /* k = 0 */
    {{{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL,
       0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
       0x0000000000000000ULL, 0x0000000000000000ULL}}},
    /* k = 1 */
    {{{0x07089552b319d465ULL, 0xc6695f92b50a8313ULL, 0x97e83cccd117228fULL, 0xa35baecab2dc29eeULL,
       0x1ce393ea5daace4dULL, 0x08f2220fb0fb66ebULL}},
     {{0xb2f66aad4ce5d646ULL, 0x5842a06bfc497cecULL, 0xcf4895d42599d394ULL, 0xc11b9cba40a8e8d0ULL,
       0x2e3813cbe5a0de89ULL, 0x110eefda88847fafULL}}},
    /* k = 2 */
    {{{0xecfb361b798dba3aULL, 0xc100ddb891865a2cULL, 0x0ec08ff1232bda8eULL, 0xd5c13cc6f1ca4721ULL,
       0x47222a47bf7b5c04ULL, 0x0110f184e51c5f59ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
       0x0000000000000000ULL, 0x0000000000000000ULL}}},
    /* k = 3 */
    {{{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL, 0x92ad2afd19103e18ULL,
       0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}},
     {{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL, 0xd1ca2087da74d4a7ULL,
       0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}}},
    /* k = 4 */
    {{{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL, 0xc26a2ff874fd029bULL,
       0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
       0x0000000000000000ULL, 0x0000000000000000ULL}}},
    /* k = 5 */
    {{{0x3726c30af242c66cULL, 0x7c2ac1aad1b6fe70ULL, 0xa04007fbba4b14a2ULL, 0xef517c3266341429ULL,
       0x0095ba654ed2226bULL, 0x02e370eccc86f7ddULL}},
     {{0x82d83cf50dbce43fULL, 0xa2813e53df9d018fULL, 0xc6f0caa53c65e181ULL, 0x7525cf528d50fe95ULL,
       0x4a85ed50f4798a6bULL, 0x171da0fd6cf8eebdULL}}},
    /* k = 6 */
    {{{0x43f5fffffffcaaaeULL, 0x32b7fff2ed47fffdULL, 0x07e83a49a2e99d69ULL, 0xeca8f3318332bb7aULL,
       0xef148d1ea0f4c069ULL, 0x040ab3263eff0206ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
       0x0000000000000000ULL, 0x0000000000000000ULL}}},
    /* k = 7 */
    {{{0xb2f66aad4ce5d646ULL, 0x5842a06bfc497cecULL, 0xcf4895d42599d394ULL, 0xc11b9cba40a8e8d0ULL,
       0x2e3813cbe5a0de89ULL, 0x110eefda88847fafULL}},
     {{0x07089552b319d465ULL, 0xc6695f92b50a8313ULL, 0x97e83cccd117228fULL, 0xa35baecab2dc29eeULL,
       0x1ce393ea5daace4dULL, 0x08f2220fb0fb66ebULL}}},
    /* k = 8 */
    {{{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL, 0x8eb60ebe01bacb9eULL,
       0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
       0x0000000000000000ULL, 0x0000000000000000ULL}}},
    /* k = 9 */
    {{{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL, 0xd1ca2087da74d4a7ULL,
       0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}},
     {{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL, 0x92ad2afd19103e18ULL,
       0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}}},
    /* k = 10 */
    {{{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL, 0xa20d1b8c7e881024ULL,
       0x14e4f04fe2db9068ULL, 0x14e56d3f1564853aULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
       0x0000000000000000ULL, 0x0000000000000000ULL}}},
    /* k = 11 */
    {{{0x82d83cf50dbce43fULL, 0xa2813e53df9d018fULL, 0xc6f0caa53c65e181ULL, 0x7525cf528d50fe95ULL,
       0x4a85ed50f4798a6bULL, 0x171da0fd6cf8eebdULL}},
     {{0x3726c30af242c66cULL, 0x7c2ac1aad1b6fe70ULL, 0xa04007fbba4b14a2ULL, 0xef517c3266341429ULL,
       0x0095ba654ed2226bULL, 0x02e370eccc86f7ddULL}}},
};

void cuzk_fp12_set_one(cuzk_fp12_t *out)
{
    cuzk_fp6_set_one(&out->c0);
    cuzk_fp6_set_zero(&out->c1);
}

bool cuzk_fp12_is_one(const cuzk_fp12_t *a)
{
    cuzk_fp12_t one;
    cuzk_fp12_set_one(&one);
    return cuzk_fp12_eq(a, &one);
}

bool cuzk_fp12_eq(const cuzk_fp12_t *a, const cuzk_fp12_t *b)
{
    return cuzk_fp6_eq(&a->c0, &b->c0) & cuzk_fp6_eq(&a->c1, &b->c1);
}

void cuzk_fp12_mul(cuzk_fp12_t *out, const cuzk_fp12_t *a, const cuzk_fp12_t *b)
{
    /* Karatsuba: t0 = a0 b0, t1 = a1 b1, c0 = t0 + v t1, c1 = (a0 + a1)(b0 + b1) - t0 - t1.
     * 18M (Fp2). */
    cuzk_fp6_t t0, t1, s, t;
    cuzk_fp6_mul(&t0, &a->c0, &b->c0);
    cuzk_fp6_mul(&t1, &a->c1, &b->c1);
    cuzk_fp6_add(&s, &a->c0, &a->c1);
    cuzk_fp6_add(&t, &b->c0, &b->c1);
    cuzk_fp6_mul(&s, &s, &t);
    cuzk_fp6_sub(&s, &s, &t0);
    cuzk_fp6_sub(&out->c1, &s, &t1);
    cuzk_fp6_mul_by_nonresidue(&t1, &t1);
    cuzk_fp6_add(&out->c0, &t0, &t1);
}

void cuzk_fp12_sqr(cuzk_fp12_t *out, const cuzk_fp12_t *a)
{
    /* Complex squaring: t = a0 a1, c0 = (a0 + a1)(a0 + v a1) - t - v t, c1 = 2t. 12M (Fp2). */
    cuzk_fp6_t t, s, r;
    cuzk_fp6_mul(&t, &a->c0, &a->c1);
    cuzk_fp6_add(&s, &a->c0, &a->c1);
    cuzk_fp6_mul_by_nonresidue(&r, &a->c1);
    cuzk_fp6_add(&r, &r, &a->c0);
    cuzk_fp6_mul(&s, &s, &r);
    cuzk_fp6_sub(&s, &s, &t);
    cuzk_fp6_mul_by_nonresidue(&r, &t);
    cuzk_fp6_sub(&out->c0, &s, &r);
    cuzk_fp6_add(&out->c1, &t, &t);
}

void cuzk_fp12_inv(cuzk_fp12_t *out, const cuzk_fp12_t *a)
{
    /* 1/(a0 + a1 w) = (a0 - a1 w) / (a0^2 - v a1^2). 0 maps to 0. */
    cuzk_fp6_t n, t;
    cuzk_fp6_sqr(&n, &a->c0);
    cuzk_fp6_sqr(&t, &a->c1);
    cuzk_fp6_mul_by_nonresidue(&t, &t);
    cuzk_fp6_sub(&n, &n, &t);
    cuzk_fp6_inv(&n, &n);
    cuzk_fp6_mul(&out->c0, &a->c0, &n);
    cuzk_fp6_mul(&t, &a->c1, &n);
    cuzk_fp6_neg(&out->c1, &t);
}

void cuzk_fp12_conj(cuzk_fp12_t *out, const cuzk_fp12_t *a)
{
    out->c0 = a->c0;
    cuzk_fp6_neg(&out->c1, &a->c1);
}

void cuzk_fp12_frobenius(cuzk_fp12_t *out, const cuzk_fp12_t *a, unsigned k)
{
    /* (c0 + c1 w)^(p^k) = c0^(p^k) + c1^(p^k) * xi^((p^k - 1)/6) w. */
    k %= 12;
    cuzk_fp6_frobenius(&out->c0, &a->c0, k);
    cuzk_fp6_frobenius(&out->c1, &a->c1, k);
    fp2_mul(&out->c1.c0, &out->c1.c0, &FROB12_C1[k]);
    fp2_mul(&out->c1.c1, &out->c1.c1, &FROB12_C1[k]);
    fp2_mul(&out->c1.c2, &out->c1.c2, &FROB12_C1[k]);
}

/* (a + b s)^2 in Fp4 = Fp2[s] / (s^2 - xi): (a^2 + xi b^2) + ((a + b)^2 - a^2 - b^2) s. 3S. */
static void fp4_sqr(cuzk_fp2_t *c0, cuzk_fp2_t *c1, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    cuzk_fp2_t t0, t1, t;
    fp2_sqr(&t0, a);
    fp2_sqr(&t1, b);
    fp2_add(&t, a, b);
    fp2_sqr(&t, &t);
    fp2_sub(&t, &t, &t0);
    fp2_sub(c1, &t, &t1);
    fp2_mul_by_nonresidue(&t1, &t1);
    fp2_add(c0, &t0, &t1);
}

/* out = 3 t - 2 z (sign = -1) or 3 t + 2 z (sign = +1). */
static void fp2_3t_2z(cuzk_fp2_t *out, const cuzk_fp2_t *t, const cuzk_fp2_t *z, int sign)
{
    cuzk_fp2_t r;
    if (sign < 0)
        fp2_sub(&r, t, z);
    else
        fp2_add(&r, t, z);
    fp2_dbl(&r, &r);
    fp2_add(out, &r, t);
}

void cuzk_fp12_cyclotomic_sqr(cuzk_fp12_t *out, const cuzk_fp12_t *a)
{
    /*
     * Granger-Scott (eprint 2009/565, section 3.2). Write Fp12 = Fp4[w] / (w^3 - s) with
     * Fp4 = Fp2[s] / (s^2 - xi), s = w^3, and a = A + B w + C w^2 with
     *   A = a.c0.c0 + a.c1.c1 s, B = a.c1.c0 + a.c0.c2 s, C = a.c0.c1 + a.c1.c2 s.
     * For a in the cyclotomic subgroup (order dividing p^4 - p^2 + 1, e.g. any value after the
     * easy part of the final exponentiation):
     *   A' = 3 A^2 - 2 conj(A), B' = 3 s C^2 + 2 conj(B), C' = 3 B^2 - 2 conj(C),
     * where conj(x0 + x1 s) = x0 - x1 s.
     */
    cuzk_fp2_t a0, a1, b0, b1, c0, c1, t;
    fp4_sqr(&a0, &a1, &a->c0.c0, &a->c1.c1);
    fp4_sqr(&b0, &b1, &a->c1.c0, &a->c0.c2); /* B^2 */
    fp4_sqr(&c0, &c1, &a->c0.c1, &a->c1.c2); /* C^2 */
    cuzk_fp12_t r;
    fp2_3t_2z(&r.c0.c0, &a0, &a->c0.c0, -1);
    fp2_3t_2z(&r.c1.c1, &a1, &a->c1.c1, +1);
    /* s C^2 = xi c1 + c0 s. */
    fp2_mul_by_nonresidue(&t, &c1);
    fp2_3t_2z(&r.c1.c0, &t, &a->c1.c0, +1);
    fp2_3t_2z(&r.c0.c2, &c0, &a->c0.c2, -1);
    fp2_3t_2z(&r.c0.c1, &b0, &a->c0.c1, -1);
    fp2_3t_2z(&r.c1.c2, &b1, &a->c1.c2, +1);
    *out = r;
}

void cuzk_fp12_pow(cuzk_fp12_t *out, const cuzk_fp12_t *a, const uint64_t *e, size_t n)
{
    /* Left-to-right square and multiply over the public exponent |e|. */
    cuzk_fp12_t acc, base = *a;
    cuzk_fp12_set_one(&acc);
    for (size_t i = n; i-- > 0;) {
        for (int bit = 63; bit >= 0; bit--) {
            cuzk_fp12_sqr(&acc, &acc);
            if ((e[i] >> bit) & 1)
                cuzk_fp12_mul(&acc, &acc, &base);
        }
    }
    *out = acc;
}

void cuzk__fp12_mul_by_014(cuzk_fp12_t *f, const cuzk_fp2_t *c0, const cuzk_fp2_t *c1,
                           const cuzk_fp2_t *c4)
{
    /* The line is l = l0 + l1 w with l0 = c0 + c1 v and l1 = c4 v. Karatsuba over Fp6:
     * t0 = f0 l0 (5M), t1 = f1 l1 (3M), (f0 + f1)(l0 + l1) (5M); 13M (Fp2) in all. */
    cuzk_fp6_t t0, t1, s;
    cuzk_fp2_t e1;
    cuzk__fp6_mul_by_01(&t0, &f->c0, c0, c1);
    cuzk__fp6_mul_by_1(&t1, &f->c1, c4);
    fp2_add(&e1, c1, c4);
    cuzk_fp6_add(&s, &f->c0, &f->c1);
    cuzk__fp6_mul_by_01(&s, &s, c0, &e1);
    cuzk_fp6_sub(&s, &s, &t0);
    cuzk_fp6_sub(&f->c1, &s, &t1);
    cuzk_fp6_mul_by_nonresidue(&t1, &t1);
    cuzk_fp6_add(&f->c0, &t0, &t1);
}

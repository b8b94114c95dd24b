/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Fp2 = Fp[u] / (u^2 + 1). */
#include "cuzk/field.h"
#include "field/fp_addsub.h"
#include "field/fp_internal.h"

void cuzk_fp2_set_zero(cuzk_fp2_t *out)
{
    cuzk_fp_set_zero(&out->c0);
    cuzk_fp_set_zero(&out->c1);
}

void cuzk_fp2_set_one(cuzk_fp2_t *out)
{
    cuzk_fp_set_one(&out->c0);
    cuzk_fp_set_zero(&out->c1);
}

bool cuzk_fp2_is_zero(const cuzk_fp2_t *a)
{
    return cuzk_fp_is_zero(&a->c0) & cuzk_fp_is_zero(&a->c1);
}

bool cuzk_fp2_eq(const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    return cuzk_fp_eq(&a->c0, &b->c0) & cuzk_fp_eq(&a->c1, &b->c1);
}

/* Additions inline (src/field/fp_addsub.h), not two calls each. */
void cuzk_fp2_add(cuzk_fp2_t *out, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    cuzk__fp_add_inline(out->c0.l, a->c0.l, b->c0.l);
    cuzk__fp_add_inline(out->c1.l, a->c1.l, b->c1.l);
}

void cuzk_fp2_sub(cuzk_fp2_t *out, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    cuzk__fp_sub_inline(out->c0.l, a->c0.l, b->c0.l);
    cuzk__fp_sub_inline(out->c1.l, a->c1.l, b->c1.l);
}

void cuzk_fp2_neg(cuzk_fp2_t *out, const cuzk_fp2_t *a)
{
    cuzk_fp_neg(&out->c0, &a->c0);
    cuzk_fp_neg(&out->c1, &a->c1);
}

void cuzk_fp2_dbl(cuzk_fp2_t *out, const cuzk_fp2_t *a)
{
    cuzk__fp_add_inline(out->c0.l, a->c0.l, a->c0.l);
    cuzk__fp_add_inline(out->c1.l, a->c1.l, a->c1.l);
}

void cuzk_fp2_conj(cuzk_fp2_t *out, const cuzk_fp2_t *a)
{
    out->c0 = a->c0;
    cuzk_fp_neg(&out->c1, &a->c1);
}

void cuzk_fp2_mul(cuzk_fp2_t *out, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
#if CUZK_FP_HAVE_ADX
    cuzk__fp2_mul_adx(out, a, b); /* the same, two reductions instead of three */
#else
    /* Karatsuba: 3M. c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1. */
    cuzk_fp_t t0, t1, s0, s1;
    cuzk_fp_mul(&t0, &a->c0, &b->c0);
    cuzk_fp_mul(&t1, &a->c1, &b->c1);
    cuzk_fp_add(&s0, &a->c0, &a->c1);
    cuzk_fp_add(&s1, &b->c0, &b->c1);
    cuzk_fp_mul(&s0, &s0, &s1);
    cuzk_fp_sub(&out->c0, &t0, &t1);
    cuzk_fp_sub(&s0, &s0, &t0);
    cuzk_fp_sub(&out->c1, &s0, &t1);
#endif
}

void cuzk_fp2_mul_fp(cuzk_fp2_t *out, const cuzk_fp2_t *a, const cuzk_fp_t *b)
{
    cuzk_fp_mul(&out->c0, &a->c0, b);
    cuzk_fp_mul(&out->c1, &a->c1, b);
}

void cuzk_fp2_sqr(cuzk_fp2_t *out, const cuzk_fp2_t *a)
{
    /* Complex squaring: 2M. c0 = (a0 + a1)(a0 - a1), c1 = 2 a0 a1. */
    cuzk_fp_t s, d, m;
    cuzk_fp_add(&s, &a->c0, &a->c1);
    cuzk_fp_sub(&d, &a->c0, &a->c1);
    cuzk_fp_mul(&m, &a->c0, &a->c1);
    cuzk_fp_mul(&out->c0, &s, &d);
    cuzk_fp_dbl(&out->c1, &m);
}

void cuzk_fp2_mul_by_nonresidue(cuzk_fp2_t *out, const cuzk_fp2_t *a)
{
    /* (a0 + a1 u)(1 + u) = (a0 - a1) + (a0 + a1) u. */
    cuzk_fp_t t;
    cuzk_fp_sub(&t, &a->c0, &a->c1);
    cuzk_fp_add(&out->c1, &a->c0, &a->c1);
    out->c0 = t;
}

static void fp2_inv_with(cuzk_fp2_t *out, const cuzk_fp2_t *a,
                         void (*fp_inv)(cuzk_fp_t *, const cuzk_fp_t *))
{
    /* 1/(a0 + a1 u) = (a0 - a1 u) / (a0^2 + a1^2). */
    cuzk_fp_t n, t;
    cuzk_fp_sqr(&n, &a->c0);
    cuzk_fp_sqr(&t, &a->c1);
    cuzk_fp_add(&n, &n, &t);
    fp_inv(&n, &n);
    cuzk_fp_mul(&out->c0, &a->c0, &n);
    cuzk_fp_mul(&t, &a->c1, &n);
    cuzk_fp_neg(&out->c1, &t);
}

void cuzk_fp2_inv(cuzk_fp2_t *out, const cuzk_fp2_t *a)
{
    fp2_inv_with(out, a, cuzk_fp_inv);
}

void cuzk_fp2_inv_vartime(cuzk_fp2_t *out, const cuzk_fp2_t *a)
{
    fp2_inv_with(out, a, cuzk_fp_inv_vartime);
}

void cuzk_fp2_pow(cuzk_fp2_t *out, const cuzk_fp2_t *a, const uint64_t *e, size_t n)
{
    cuzk_fp2_t acc, base = *a;
    cuzk_fp2_set_one(&acc);
    for (size_t w = n; w-- > 0;) {
        for (int bit = 63; bit >= 0; bit--) {
            cuzk_fp2_sqr(&acc, &acc);
            if ((e[w] >> bit) & 1)
                cuzk_fp2_mul(&acc, &acc, &base);
        }
    }
    *out = acc;
}

void cuzk_fp2_frobenius(cuzk_fp2_t *out, const cuzk_fp2_t *a, unsigned k)
{
    /* u^p = -u since p = 3 mod 4. */
    if (k & 1)
        cuzk_fp2_conj(out, a);
    else
        *out = *a;
}

bool cuzk_fp2_sqrt(cuzk_fp2_t *out, const cuzk_fp2_t *a)
{
    /* Adj and Rodriguez-Henriquez, "Square root computation over even extension fields",
     * eprint 2012/685, Algorithm 9 (p = 3 mod 4). The final squaring check guards every path. */
    if (cuzk_fp2_is_zero(a)) {
        cuzk_fp2_set_zero(out);
        return true;
    }
    cuzk_fp2_t a1, alpha, a0, x0, x, minus_one, t;
    cuzk_fp2_pow(&a1, a, cuzk_fp_p_minus_3_quarter, 6);
    cuzk_fp2_sqr(&alpha, &a1);
    cuzk_fp2_mul(&alpha, &alpha, a);
    cuzk_fp2_conj(&a0, &alpha); /* alpha^p */
    cuzk_fp2_mul(&a0, &a0, &alpha);
    cuzk_fp2_set_one(&minus_one);
    cuzk_fp2_neg(&minus_one, &minus_one);
    if (cuzk_fp2_eq(&a0, &minus_one))
        return false;
    cuzk_fp2_mul(&x0, &a1, a);
    if (cuzk_fp2_eq(&alpha, &minus_one)) {
        /* x = u * x0 */
        cuzk_fp_neg(&x.c0, &x0.c1);
        x.c1 = x0.c0;
    } else {
        cuzk_fp2_set_one(&t);
        cuzk_fp2_add(&t, &t, &alpha);
        cuzk_fp2_pow(&t, &t, cuzk_fp_p_minus_1_half, 6);
        cuzk_fp2_mul(&x, &t, &x0);
    }
    cuzk_fp2_sqr(&t, &x);
    if (!cuzk_fp2_eq(&t, a))
        return false;
    *out = x;
    return true;
}

bool cuzk_fp2_is_lexicographically_largest(const cuzk_fp2_t *a)
{
    if (!cuzk_fp_is_zero(&a->c1))
        return cuzk_fp_is_lexicographically_largest(&a->c1);
    return cuzk_fp_is_lexicographically_largest(&a->c0);
}

void cuzk_fp2_cmov(cuzk_fp2_t *out, const cuzk_fp2_t *a, bool flag)
{
    cuzk_fp_cmov(&out->c0, &a->c0, flag);
    cuzk_fp_cmov(&out->c1, &a->c1, flag);
}

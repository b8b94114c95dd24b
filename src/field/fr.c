/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Fr, the BLS12-381 scalar field. Constants from scripts/gen_field_constants.py. */
#include "cuzk/field.h"
#include "field/fp_internal.h"
#include "field/fr_inline.h"
#include "field/fr_internal.h"
#include "field/mont.h"

#include <string.h>

#define N CUZK_FR_LIMBS

const uint64_t cuzk_fr_modulus[N] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                     0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
static const uint64_t FR_ONE[N] = {0x00000001fffffffeULL, 0x5884b7fa00034802ULL,
                                   0x998c4fefecbc4ff5ULL, 0x1824b159acc5056fULL};
static const uint64_t FR_R2[N] = {0xc999e990f3f29c6dULL, 0x2b6cedcb87925c23ULL,
                                  0x05d314967254398fULL, 0x0748d9d99f59ff11ULL};
static const uint64_t FR_R3[N] = {0xc62c1807439b73afULL, 0x1b3e0d188cf06990ULL,
                                  0x73d13c71c7b5f418ULL, 0x6e2a5bb9c8db33e9ULL};
#define FR_N0 0xfffffffeffffffffULL
static const uint64_t FR_R_MINUS_2[N] = {0xfffffffeffffffffULL, 0x53bda402fffe5bfeULL,
                                         0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
static const uint64_t FR_R_MINUS_1_HALF[N] = {0x7fffffff80000000ULL, 0xa9ded2017fff2dffULL,
                                              0x199cec0404d0ec02ULL, 0x39f6d3a994cebea4ULL};
/* (t - 1) / 2 with r - 1 = 2^32 * t. */
static const uint64_t FR_T_MINUS_1_HALF[N] = {0x7fff2dff7fffffffULL, 0x04d0ec02a9ded201ULL,
                                              0x94cebea4199cec04ULL, 0x0000000039f6d3a9ULL};
/* 7^t in Montgomery form: a primitive 2^32-th root of unity. */
static const uint64_t FR_ROOT_OF_UNITY[N] = {0xb9b58d8c5f0e466aULL, 0x5b1b4c801819d7ecULL,
                                             0x0af53ae352a31e64ULL, 0x5bf3adda19e9b27bULL};
#define FR_TWO_ADICITY 32
#define R cuzk_fr_modulus

void cuzk_fr_set_zero(cuzk_fr_t *out)
{
    memset(out, 0, sizeof *out);
}

void cuzk_fr_set_one(cuzk_fr_t *out)
{
    memcpy(out->l, FR_ONE, sizeof out->l);
}

void cuzk_fr_set_u64(cuzk_fr_t *out, uint64_t v)
{
    uint64_t t[N] = {v};
    cuzk_fr_mul_impl(out->l, t, FR_R2);
}

bool cuzk_fr_is_zero(const cuzk_fr_t *a)
{
    return mont_is_zero(a->l, N);
}

bool cuzk_fr_is_one(const cuzk_fr_t *a)
{
    return mont_eq(a->l, FR_ONE, N);
}

bool cuzk_fr_eq(const cuzk_fr_t *a, const cuzk_fr_t *b)
{
    return mont_eq(a->l, b->l, N);
}

/* add, sub and mul: field/fr_inline.h's (asm carry chains and mulx product where built, else
 * the generic code of field/mont.h). */
void cuzk_fr_add(cuzk_fr_t *out, const cuzk_fr_t *a, const cuzk_fr_t *b)
{
    fri_add(out, a, b);
}

void cuzk_fr_sub(cuzk_fr_t *out, const cuzk_fr_t *a, const cuzk_fr_t *b)
{
    fri_sub(out, a, b);
}

void cuzk_fr_neg(cuzk_fr_t *out, const cuzk_fr_t *a)
{
    mont_neg(out->l, a->l, R, N);
}

void cuzk_fr_dbl(cuzk_fr_t *out, const cuzk_fr_t *a)
{
    fri_add(out, a, a);
}

void cuzk_fr_mul(cuzk_fr_t *out, const cuzk_fr_t *a, const cuzk_fr_t *b)
{
    fri_mul(out, a, b);
}

void cuzk_fr_sqr(cuzk_fr_t *out, const cuzk_fr_t *a)
{
    cuzk_fr_sqr_impl(out->l, a->l);
}

void cuzk_fr_mul_portable(uint64_t out[N], const uint64_t a[N], const uint64_t b[N])
{
    mont_mul(out, a, b, R, FR_N0, N);
}

void cuzk_fr_pow(cuzk_fr_t *out, const cuzk_fr_t *a, const uint64_t *e, size_t n)
{
    cuzk_fr_t acc, base = *a;
    cuzk_fr_set_one(&acc);
    for (size_t w = n; w-- > 0;) {
        for (int bit = 63; bit >= 0; bit--) {
            cuzk_fr_sqr(&acc, &acc);
            /* The exponent is public: branching on its bits leaks nothing about |a|. */
            if ((e[w] >> bit) & 1)
                cuzk_fr_mul(&acc, &acc, &base);
        }
    }
    *out = acc;
}

void cuzk_fr_inv(cuzk_fr_t *out, const cuzk_fr_t *a)
{
    cuzk_fr_pow(out, a, FR_R_MINUS_2, N);
}

void cuzk_fr_inv_vartime(cuzk_fr_t *out, const cuzk_fr_t *a)
{
    mont_inv_vartime(out->l, a->l, R, FR_R3, FR_N0, N);
}

void cuzk_fr_batch_inv(cuzk_fr_t *out, const cuzk_fr_t *in, size_t n)
{
    MONT_BATCH_INV(cuzk_fr_t, cuzk_fr_mul, cuzk_fr_inv_vartime, cuzk_fr_is_zero, cuzk_fr_set_one,
                   out, in, n);
}

int cuzk_fr_legendre(const cuzk_fr_t *a)
{
    cuzk_fr_t t;
    cuzk_fr_pow(&t, a, FR_R_MINUS_1_HALF, N);
    if (cuzk_fr_is_zero(&t))
        return 0;
    return cuzk_fr_is_one(&t) ? 1 : -1;
}

void cuzk_fr_root_of_unity(cuzk_fr_t *out)
{
    memcpy(out->l, FR_ROOT_OF_UNITY, sizeof out->l);
}

bool cuzk_fr_sqrt(cuzk_fr_t *out, const cuzk_fr_t *a)
{
    /* Tonelli-Shanks as in the Handbook of Applied Cryptography, Alg. 3.34, organised around
     * w = a^((t-1)/2) so that x = a*w = a^((t+1)/2) and b = x*w = a^t. Variable time. */
    if (cuzk_fr_is_zero(a)) {
        cuzk_fr_set_zero(out);
        return true;
    }
    cuzk_fr_t w, x, b, z;
    cuzk_fr_pow(&w, a, FR_T_MINUS_1_HALF, N);
    cuzk_fr_mul(&x, a, &w);
    cuzk_fr_mul(&b, &x, &w);
    cuzk_fr_root_of_unity(&z);
    unsigned v = FR_TWO_ADICITY;
    while (!cuzk_fr_is_one(&b)) {
        unsigned k = 0;
        cuzk_fr_t b2k = b;
        while (!cuzk_fr_is_one(&b2k)) {
            cuzk_fr_sqr(&b2k, &b2k);
            k++;
            if (k == v)
                return false; /* the order of b is 2^v: a is not a square */
        }
        cuzk_fr_t wz = z;
        for (unsigned j = 0; j + k + 1 < v; j++)
            cuzk_fr_sqr(&wz, &wz);
        cuzk_fr_sqr(&z, &wz);
        cuzk_fr_mul(&b, &b, &z);
        cuzk_fr_mul(&x, &x, &wz);
        v = k;
    }
    *out = x;
    return true;
}

void cuzk_fr_cmov(cuzk_fr_t *out, const cuzk_fr_t *a, bool flag)
{
    mont_cmov(out->l, a->l, flag, N);
}

bool cuzk_fr_from_canonical(cuzk_fr_t *out, const uint64_t in[N])
{
    if (mont_geq_vartime(in, R, N))
        return false;
    cuzk_fr_mul_impl(out->l, in, FR_R2);
    return true;
}

void cuzk_fr_to_canonical(uint64_t out[N], const cuzk_fr_t *a)
{
    static const uint64_t one[N] = {1};
    cuzk_fr_mul_impl(out, a->l, one);
}

cuzk_status cuzk_fr_from_bytes_le(cuzk_fr_t *out, const uint8_t in[32])
{
    uint64_t t[N];
    for (size_t i = 0; i < N; i++) {
        uint64_t w = 0;
        for (size_t j = 8; j-- > 0;)
            w = (w << 8) | in[i * 8 + j];
        t[i] = w;
    }
    if (!cuzk_fr_from_canonical(out, t))
        return cuzk_fail(CUZK_ERR_NOT_CANONICAL, "Fr element is not below the modulus r");
    return CUZK_OK;
}

void cuzk_fr_to_bytes_le(uint8_t out[32], const cuzk_fr_t *a)
{
    uint64_t t[N];
    cuzk_fr_to_canonical(t, a);
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < 8; j++)
            out[i * 8 + j] = (uint8_t)(t[i] >> (8 * j));
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Fp, the BLS12-381 base field. Constants from scripts/gen_field_constants.py. */
#include "cuzk/field.h"
#include "field/fp_addsub.h"
#include "field/fp_internal.h"
#include "field/mont.h"

#include <string.h>

#define N CUZK_FP_LIMBS

const uint64_t cuzk_fp_modulus[N] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL,
                                     0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
                                     0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
static const uint64_t FP_ONE[N] = {0x760900000002fffdULL, 0xebf4000bc40c0002ULL,
                                   0x5f48985753c758baULL, 0x77ce585370525745ULL,
                                   0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL};
const uint64_t cuzk_fp_r2[N] = {0xf4df1f341c341746ULL, 0x0a76e6a609d104f1ULL,
                                0x8de5476c4c95b6d5ULL, 0x67eb88a9939d83c0ULL,
                                0x9a793e85b519952dULL, 0x11988fe592cae3aaULL};
static const uint64_t FP_R3[N] = {0xed48ac6bd94ca1e0ULL, 0x315f831e03a7adf8ULL,
                                  0x9a53352a615e29ddULL, 0x34c04e5e921e1761ULL,
                                  0x2512d43565724728ULL, 0x0aa6346091755d4dULL};
#define FP_N0 0x89f3fffcfffcfffdULL
static const uint64_t FP_P_MINUS_2[N] = {0xb9feffffffffaaa9ULL, 0x1eabfffeb153ffffULL,
                                         0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
                                         0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
const uint64_t cuzk_fp_p_minus_1_half[N] = {0xdcff7fffffffd555ULL, 0x0f55ffff58a9ffffULL,
                                            0xb39869507b587b12ULL, 0xb23ba5c279c2895fULL,
                                            0x258dd3db21a5d66bULL, 0x0d0088f51cbff34dULL};
static const uint64_t FP_P_PLUS_1_QUARTER[N] = {0xee7fbfffffffeaabULL, 0x07aaffffac54ffffULL,
                                                0xd9cc34a83dac3d89ULL, 0xd91dd2e13ce144afULL,
                                                0x92c6e9ed90d2eb35ULL, 0x0680447a8e5ff9a6ULL};
const uint64_t cuzk_fp_p_minus_3_quarter[N] = {0xee7fbfffffffeaaaULL, 0x07aaffffac54ffffULL,
                                               0xd9cc34a83dac3d89ULL, 0xd91dd2e13ce144afULL,
                                               0x92c6e9ed90d2eb35ULL, 0x0680447a8e5ff9a6ULL};
#define P cuzk_fp_modulus

void cuzk_fp_set_zero(cuzk_fp_t *out)
{
    memset(out, 0, sizeof *out);
}

void cuzk_fp_set_one(cuzk_fp_t *out)
{
    memcpy(out->l, FP_ONE, sizeof out->l);
}

void cuzk_fp_set_u64(cuzk_fp_t *out, uint64_t v)
{
    uint64_t t[N] = {v};
    mont_mul(out->l, t, cuzk_fp_r2, P, FP_N0, N);
}

bool cuzk_fp_is_zero(const cuzk_fp_t *a)
{
    return mont_is_zero(a->l, N);
}

bool cuzk_fp_is_one(const cuzk_fp_t *a)
{
    return mont_eq(a->l, FP_ONE, N);
}

bool cuzk_fp_eq(const cuzk_fp_t *a, const cuzk_fp_t *b)
{
    return mont_eq(a->l, b->l, N);
}

void cuzk_fp_add(cuzk_fp_t *out, const cuzk_fp_t *a, const cuzk_fp_t *b)
{
    cuzk__fp_add_inline(out->l, a->l, b->l);
}

void cuzk_fp_sub(cuzk_fp_t *out, const cuzk_fp_t *a, const cuzk_fp_t *b)
{
    cuzk__fp_sub_inline(out->l, a->l, b->l);
}

void cuzk_fp_neg(cuzk_fp_t *out, const cuzk_fp_t *a)
{
    mont_neg(out->l, a->l, P, N);
}

void cuzk_fp_dbl(cuzk_fp_t *out, const cuzk_fp_t *a)
{
    cuzk__fp_add_inline(out->l, a->l, a->l);
}

void cuzk_fp_mul(cuzk_fp_t *out, const cuzk_fp_t *a, const cuzk_fp_t *b)
{
    cuzk_fp_mul_impl(out->l, a->l, b->l);
}

void cuzk_fp_sqr(cuzk_fp_t *out, const cuzk_fp_t *a)
{
    cuzk_fp_sqr_impl(out->l, a->l);
}

const char *cuzk__fp_mul_impl_name(void)
{
    return CUZK_FP_MUL_IMPL_NAME;
}

void cuzk_fp_mul_portable(uint64_t out[6], const uint64_t a[6], const uint64_t b[6])
{
    mont_mul(out, a, b, P, FP_N0, N);
}

void cuzk_fp_pow(cuzk_fp_t *out, const cuzk_fp_t *a, const uint64_t *e, size_t n)
{
    cuzk_fp_t acc, base = *a;
    cuzk_fp_set_one(&acc);
    for (size_t w = n; w-- > 0;) {
        for (int bit = 63; bit >= 0; bit--) {
            cuzk_fp_sqr(&acc, &acc);
            /* The exponent is public: branching on its bits leaks nothing about |a|. */
            if ((e[w] >> bit) & 1)
                cuzk_fp_mul(&acc, &acc, &base);
        }
    }
    *out = acc;
}

void cuzk_fp_inv(cuzk_fp_t *out, const cuzk_fp_t *a)
{
    cuzk_fp_pow(out, a, FP_P_MINUS_2, N);
}

void cuzk_fp_inv_vartime(cuzk_fp_t *out, const cuzk_fp_t *a)
{
    cuzk__fp_inv_bingcd(out->l, a->l);
}

/* The bit-at-a-time binary Euclid that cuzk_fp_inv_vartime used before src/field/fp_inv.c: kept
 * as an independent reference for the tests and the field benchmark. */
void cuzk__fp_inv_euclid(uint64_t out[6], const uint64_t in[6])
{
    mont_inv_vartime(out, in, P, FP_R3, FP_N0, N);
}

void cuzk_fp_batch_inv(cuzk_fp_t *out, const cuzk_fp_t *in, size_t n)
{
    MONT_BATCH_INV(cuzk_fp_t, cuzk_fp_mul, cuzk_fp_inv_vartime, cuzk_fp_is_zero, cuzk_fp_set_one,
                   out, in, n);
}

int cuzk_fp_legendre(const cuzk_fp_t *a)
{
    cuzk_fp_t t;
    cuzk_fp_pow(&t, a, cuzk_fp_p_minus_1_half, N);
    if (cuzk_fp_is_zero(&t))
        return 0;
    return cuzk_fp_is_one(&t) ? 1 : -1;
}

bool cuzk_fp_sqrt(cuzk_fp_t *out, const cuzk_fp_t *a)
{
    /* p = 3 mod 4: a^((p+1)/4) is a root whenever one exists. */
    cuzk_fp_t s, chk;
    cuzk_fp_pow(&s, a, FP_P_PLUS_1_QUARTER, N);
    cuzk_fp_sqr(&chk, &s);
    if (!cuzk_fp_eq(&chk, a))
        return false;
    *out = s;
    return true;
}

bool cuzk_fp_is_lexicographically_largest(const cuzk_fp_t *a)
{
    uint64_t c[N], d[N];
    cuzk_fp_to_canonical(c, a);
    /* c > (p-1)/2  <=>  (p-1)/2 - c borrows. */
    return mont_sub_raw(d, cuzk_fp_p_minus_1_half, c, N) != 0;
}

void cuzk_fp_cmov(cuzk_fp_t *out, const cuzk_fp_t *a, bool flag)
{
    mont_cmov(out->l, a->l, flag, N);
}

bool cuzk_fp_from_canonical(cuzk_fp_t *out, const uint64_t in[N])
{
    if (mont_geq_vartime(in, P, N))
        return false;
    mont_mul(out->l, in, cuzk_fp_r2, P, FP_N0, N);
    return true;
}

void cuzk_fp_to_canonical(uint64_t out[N], const cuzk_fp_t *a)
{
    static const uint64_t one[N] = {1};
    mont_mul(out, a->l, one, P, FP_N0, N);
}

cuzk_status cuzk_fp_from_bytes_be(cuzk_fp_t *out, const uint8_t in[48])
{
    uint64_t t[N];
    for (size_t i = 0; i < N; i++) {
        uint64_t w = 0;
        for (size_t j = 0; j < 8; j++)
            w = (w << 8) | in[(N - 1 - i) * 8 + j];
        t[i] = w;
    }
    if (!cuzk_fp_from_canonical(out, t))
        return cuzk_fail(CUZK_ERR_NOT_CANONICAL, "Fp coordinate is not below the modulus p");
    return CUZK_OK;
}

void cuzk_fp_to_bytes_be(uint8_t out[48], const cuzk_fp_t *a)
{
    uint64_t t[N];
    cuzk_fp_to_canonical(t, a);
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < 8; j++)
            out[(N - 1 - i) * 8 + j] = (uint8_t)(t[i] >> (56 - 8 * j));
}

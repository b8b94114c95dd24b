/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GPU_FR_CUH
#define CUZK_GPU_FR_CUH

/*
 * Fr (the 255-bit scalar field) on the device. API (stable; every function __host__ __device__
 * and force-inlined, output first, outputs may alias inputs):
 *   fr_dev                       4 x u64 limbs, Montgomery form (R = 2^256): the bytes of
 *                                cuzk_fr_t, so host arrays copy to the device unchanged
 *   fr_add_dev(o, a, b)  fr_sub_dev(o, a, b)  fr_neg_dev(o, a)  fr_dbl_dev(o, a)
 *   fr_mul_dev(o, a, b)  fr_sqr_dev(o, a)
 *   fr_set_zero_dev(o)   fr_set_one_dev(o)    fr_is_zero_dev(a)  fr_eq_dev(a, b)
 *   fr_cmov_dev(o, a, flag)   o = flag ? a : o
 * Word level (8 x u32, w[2i] = low half of limb i), for code that keeps values in registers:
 *   fr_mont::add / sub / neg / mul(uint32_t *r, const uint32_t *a, const uint32_t *b),
 *   fr_to_words_(w, a), fr_from_words_(o, w).
 * Inputs must be canonical (< r); outputs are canonical. The multiplication variant is
 * CUZK_GPU_MONT_MUL (mont.cuh); constants come from scripts/gen_gpu_constants.py.
 */

#include "gpu/field_constants.cuh"
#include "gpu/mont.cuh"

extern "C" {
#include "cuzk/field.h"
}

#define CUZK_GPU_FR_LIMBS 4
#define CUZK_GPU_FR_WORDS 8

struct fr_dev {
    uint64_t l[CUZK_GPU_FR_LIMBS];
};
static_assert(sizeof(fr_dev) == sizeof(cuzk_fr_t), "device and host Fr layouts differ");
static_assert(sizeof(fr_dev) == 32, "Fr is 32 bytes");

struct fr_params {
    static constexpr int N = CUZK_GPU_FR_WORDS;
    static constexpr uint32_t n0 = CUZK_GPU_FR_N0;
    static CUZK_MONT_FN uint32_t m(int i)
    {
        constexpr uint32_t M[CUZK_GPU_FR_WORDS] = CUZK_GPU_FR_MOD;
        return M[i];
    }
    static CUZK_MONT_FN uint32_t one(int i)
    {
        constexpr uint32_t O[CUZK_GPU_FR_WORDS] = CUZK_GPU_FR_ONE;
        return O[i];
    }
};
typedef mont_dev<fr_params> fr_mont;

CUZK_MONT_FN void fr_to_words_(uint32_t w[CUZK_GPU_FR_WORDS], const fr_dev *a)
{
#pragma unroll
    for (int i = 0; i < CUZK_GPU_FR_LIMBS; i++) {
        w[2 * i] = (uint32_t)a->l[i];
        w[2 * i + 1] = (uint32_t)(a->l[i] >> 32);
    }
}

CUZK_MONT_FN void fr_from_words_(fr_dev *o, const uint32_t w[CUZK_GPU_FR_WORDS])
{
#pragma unroll
    for (int i = 0; i < CUZK_GPU_FR_LIMBS; i++)
        o->l[i] = w[2 * i] | ((uint64_t)w[2 * i + 1] << 32);
}

CUZK_MONT_FN void fr_add_dev(fr_dev *o, const fr_dev *a, const fr_dev *b)
{
    uint32_t x[CUZK_GPU_FR_WORDS], y[CUZK_GPU_FR_WORDS];
    fr_to_words_(x, a);
    fr_to_words_(y, b);
    fr_mont::add(x, x, y);
    fr_from_words_(o, x);
}

CUZK_MONT_FN void fr_sub_dev(fr_dev *o, const fr_dev *a, const fr_dev *b)
{
    uint32_t x[CUZK_GPU_FR_WORDS], y[CUZK_GPU_FR_WORDS];
    fr_to_words_(x, a);
    fr_to_words_(y, b);
    fr_mont::sub(x, x, y);
    fr_from_words_(o, x);
}

CUZK_MONT_FN void fr_neg_dev(fr_dev *o, const fr_dev *a)
{
    uint32_t x[CUZK_GPU_FR_WORDS];
    fr_to_words_(x, a);
    fr_mont::neg(x, x);
    fr_from_words_(o, x);
}

CUZK_MONT_FN void fr_dbl_dev(fr_dev *o, const fr_dev *a)
{
    fr_add_dev(o, a, a);
}

CUZK_MONT_FN void fr_mul_dev(fr_dev *o, const fr_dev *a, const fr_dev *b)
{
    uint32_t x[CUZK_GPU_FR_WORDS], y[CUZK_GPU_FR_WORDS], r[CUZK_GPU_FR_WORDS];
    fr_to_words_(x, a);
    fr_to_words_(y, b);
    fr_mont::mul(r, x, y);
    fr_from_words_(o, r);
}

CUZK_MONT_FN void fr_sqr_dev(fr_dev *o, const fr_dev *a)
{
    fr_mul_dev(o, a, a);
}

CUZK_MONT_FN void fr_set_zero_dev(fr_dev *o)
{
#pragma unroll
    for (int i = 0; i < CUZK_GPU_FR_LIMBS; i++)
        o->l[i] = 0;
}

CUZK_MONT_FN void fr_set_one_dev(fr_dev *o)
{
    uint32_t w[CUZK_GPU_FR_WORDS];
#pragma unroll
    for (int i = 0; i < CUZK_GPU_FR_WORDS; i++)
        w[i] = fr_params::one(i);
    fr_from_words_(o, w);
}

CUZK_MONT_FN bool fr_is_zero_dev(const fr_dev *a)
{
    uint64_t acc = 0;
#pragma unroll
    for (int i = 0; i < CUZK_GPU_FR_LIMBS; i++)
        acc |= a->l[i];
    return acc == 0;
}

CUZK_MONT_FN bool fr_eq_dev(const fr_dev *a, const fr_dev *b)
{
    uint64_t acc = 0;
#pragma unroll
    for (int i = 0; i < CUZK_GPU_FR_LIMBS; i++)
        acc |= a->l[i] ^ b->l[i];
    return acc == 0;
}

CUZK_MONT_FN void fr_cmov_dev(fr_dev *o, const fr_dev *a, bool flag)
{
    uint64_t mask = 0 - (uint64_t)flag;
#pragma unroll
    for (int i = 0; i < CUZK_GPU_FR_LIMBS; i++)
        o->l[i] = (o->l[i] & ~mask) | (a->l[i] & mask);
}

#endif

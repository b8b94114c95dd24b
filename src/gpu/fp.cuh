/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GPU_FP_CUH
#define CUZK_GPU_FP_CUH

/*
 * Fp (the 381-bit base field) on the device. API (stable; every function __host__ __device__
 * and force-inlined, output first, outputs may alias inputs):
 *   fp_dev                       6 x u64 limbs, Montgomery form (R = 2^384): the bytes of
 *                                cuzk_fp_t, so host arrays copy to the device unchanged
 *   fp_add_dev(o, a, b)  fp_sub_dev(o, a, b)  fp_neg_dev(o, a)  fp_dbl_dev(o, a)
 *   fp_mul_dev(o, a, b)  fp_sqr_dev(o, a)  fp_mulsub_dev(o, a, b, c, d)   o = a b - c d
 *   fp_set_zero_dev(o)   fp_set_one_dev(o)    fp_is_zero_dev(a)  fp_eq_dev(a, b)
 *   fp_cmov_dev(o, a, flag)   o = flag ? a : o
 * Word level (12 x u32, w[2i] = low half of limb i), for code that keeps values in registers:
 *   fp_mont::add / sub / neg / mul(uint32_t *r, const uint32_t *a, const uint32_t *b),
 *   fp_to_words_(w, a), fp_from_words_(o, w).
 * Inputs must be canonical (< p); outputs are canonical. The multiplication variant is
 * CUZK_GPU_MONT_MUL (mont.cuh); constants come from scripts/gen_gpu_constants.py.
 */

#include "gpu/field_constants.cuh"
#include "gpu/mont.cuh"

extern "C" {
#include "cuzk/field.h"
}

/* CUZK_GPU_FP_LAZY = 1 (a compilation unit's choice, like CUZK_GPU_MONT_MUL): values live in
 * [0, 2p) instead of [0, p) (possible because 4p < 2^384), so multiplications skip their final
 * subtraction and additions subtract 2p. fp_is_zero_dev / fp_eq_dev compare residues, and
 * fp_canon_dev gives the canonical value (call it before anything leaves the device code). */
#ifndef CUZK_GPU_FP_LAZY
#define CUZK_GPU_FP_LAZY 0
#endif
#define CZ_FP_K (CUZK_GPU_FP_LAZY ? 2 : 1)

#define CUZK_GPU_FP_LIMBS 6
#define CUZK_GPU_FP_WORDS 12

struct fp_dev {
    uint64_t l[CUZK_GPU_FP_LIMBS];
};
static_assert(sizeof(fp_dev) == sizeof(cuzk_fp_t), "device and host Fp layouts differ");
static_assert(sizeof(fp_dev) == 48, "Fp is 48 bytes");

struct fp_params {
    static constexpr int N = CUZK_GPU_FP_WORDS;
    static constexpr uint32_t n0 = CUZK_GPU_FP_N0;
    static CUZK_MONT_FN uint32_t m(int i)
    {
        constexpr uint32_t M[CUZK_GPU_FP_WORDS] = CUZK_GPU_FP_MOD;
        return M[i];
    }
    static CUZK_MONT_FN uint32_t one(int i)
    {
        constexpr uint32_t O[CUZK_GPU_FP_WORDS] = CUZK_GPU_FP_ONE;
        return O[i];
    }
    static CUZK_MONT_FN uint32_t mm4(int i) /* 4 m^2 (mont_ka.cuh fp2_mul_wide) */
    {
        constexpr uint32_t K[2 * CUZK_GPU_FP_WORDS] = CUZK_GPU_FP_4MM;
        return K[i];
    }
};
typedef mont_dev<fp_params> fp_mont;

static CUZK_MONT_FN void fp_to_words_(uint32_t w[CUZK_GPU_FP_WORDS], const fp_dev *a)
{
#pragma unroll
    for (int i = 0; i < CUZK_GPU_FP_LIMBS; i++) {
        w[2 * i] = (uint32_t)a->l[i];
        w[2 * i + 1] = (uint32_t)(a->l[i] >> 32);
    }
}

static CUZK_MONT_FN void fp_from_words_(fp_dev *o, const uint32_t w[CUZK_GPU_FP_WORDS])
{
#pragma unroll
    for (int i = 0; i < CUZK_GPU_FP_LIMBS; i++)
        o->l[i] = w[2 * i] | ((uint64_t)w[2 * i + 1] << 32);
}

static CUZK_MONT_FN void fp_add_dev(fp_dev *o, const fp_dev *a, const fp_dev *b)
{
    uint32_t x[CUZK_GPU_FP_WORDS], y[CUZK_GPU_FP_WORDS];
    fp_to_words_(x, a);
    fp_to_words_(y, b);
    fp_mont::add<CZ_FP_K>(x, x, y);
    fp_from_words_(o, x);
}

static CUZK_MONT_FN void fp_sub_dev(fp_dev *o, const fp_dev *a, const fp_dev *b)
{
    uint32_t x[CUZK_GPU_FP_WORDS], y[CUZK_GPU_FP_WORDS];
    fp_to_words_(x, a);
    fp_to_words_(y, b);
    fp_mont::sub<CZ_FP_K>(x, x, y);
    fp_from_words_(o, x);
}

static CUZK_MONT_FN void fp_neg_dev(fp_dev *o, const fp_dev *a)
{
    uint32_t x[CUZK_GPU_FP_WORDS], z[CUZK_GPU_FP_WORDS] = {0};
    fp_to_words_(x, a);
    fp_mont::sub<CZ_FP_K>(x, z, x);
    fp_from_words_(o, x);
}

static CUZK_MONT_FN void fp_dbl_dev(fp_dev *o, const fp_dev *a)
{
    fp_add_dev(o, a, a);
}

static CUZK_MONT_FN void fp_mul_dev(fp_dev *o, const fp_dev *a, const fp_dev *b)
{
    uint32_t x[CUZK_GPU_FP_WORDS], y[CUZK_GPU_FP_WORDS], r[CUZK_GPU_FP_WORDS];
    fp_to_words_(x, a);
    fp_to_words_(y, b);
    fp_mont::mul<!CUZK_GPU_FP_LAZY>(r, x, y);
    fp_from_words_(o, r);
}

static CUZK_MONT_FN void fp_sqr_dev(fp_dev *o, const fp_dev *a)
{
    uint32_t x[CUZK_GPU_FP_WORDS], r[CUZK_GPU_FP_WORDS];
    fp_to_words_(x, a);
    fp_mont::sqr<!CUZK_GPU_FP_LAZY>(r, x);
    fp_from_words_(o, r);
}

/* o0 + o1 u = (a0 + a1 u)(b0 + b1 u) in Fp2 = Fp[u] / (u^2 + 1), from three wide products and
 * two reductions (mont_ka.cuh fp2_mul_wide; src/gpu/fp2.cuh's CUZK_GPU_FP2_KA). Inputs and
 * outputs as fp_mul_dev's; outputs may alias inputs. */
static CUZK_MONT_FN void fp2_mul_dev(fp_dev *o0, fp_dev *o1, const fp_dev *a0, const fp_dev *a1,
                                     const fp_dev *b0, const fp_dev *b1)
{
    uint32_t x0[CUZK_GPU_FP_WORDS], x1[CUZK_GPU_FP_WORDS], y0[CUZK_GPU_FP_WORDS],
        y1[CUZK_GPU_FP_WORDS];
    fp_to_words_(x0, a0);
    fp_to_words_(x1, a1);
    fp_to_words_(y0, b0);
    fp_to_words_(y1, b1);
    fp_mont::ka::fp2_mul_wide<!CUZK_GPU_FP_LAZY>(x0, x1, x0, x1, y0, y1);
    fp_from_words_(o0, x0);
    fp_from_words_(o1, x1);
}

/* o = a b - c d with one Montgomery reduction for both products (mont.cuh mul_diff; src/gpu/
 * point.cuh's CUZK_GPU_PT_FUSED). Inputs and output as fp_mul_dev's. */
static CUZK_MONT_FN void fp_mulsub_dev(fp_dev *o, const fp_dev *a, const fp_dev *b, const fp_dev *c,
                                       const fp_dev *d)
{
    uint32_t x[CUZK_GPU_FP_WORDS], y[CUZK_GPU_FP_WORDS], z[CUZK_GPU_FP_WORDS], w[CUZK_GPU_FP_WORDS],
        r[CUZK_GPU_FP_WORDS];
    fp_to_words_(x, a);
    fp_to_words_(y, b);
    fp_to_words_(z, c);
    fp_to_words_(w, d);
    fp_mont::mul_diff<!CUZK_GPU_FP_LAZY>(r, x, y, z, w);
    fp_from_words_(o, r);
}

/* The canonical representative (< p); the identity unless CUZK_GPU_FP_LAZY. */
static CUZK_MONT_FN void fp_canon_dev(fp_dev *o, const fp_dev *a)
{
    if (!CUZK_GPU_FP_LAZY) {
        *o = *a;
        return;
    }
    uint32_t x[CUZK_GPU_FP_WORDS];
    fp_to_words_(x, a);
    fp_mont::reduce_once(x, x);
    fp_from_words_(o, x);
}

static CUZK_MONT_FN void fp_set_zero_dev(fp_dev *o)
{
#pragma unroll
    for (int i = 0; i < CUZK_GPU_FP_LIMBS; i++)
        o->l[i] = 0;
}

static CUZK_MONT_FN void fp_set_one_dev(fp_dev *o)
{
    uint32_t w[CUZK_GPU_FP_WORDS];
#pragma unroll
    for (int i = 0; i < CUZK_GPU_FP_WORDS; i++)
        w[i] = fp_params::one(i);
    fp_from_words_(o, w);
}

static CUZK_MONT_FN bool fp_is_zero_dev(const fp_dev *a)
{
    if (CUZK_GPU_FP_LAZY) {
        uint32_t x[CUZK_GPU_FP_WORDS];
        fp_to_words_(x, a);
        return fp_mont::is_zero2(x);
    }
    uint64_t acc = 0;
#pragma unroll
    for (int i = 0; i < CUZK_GPU_FP_LIMBS; i++)
        acc |= a->l[i];
    return acc == 0;
}

static CUZK_MONT_FN bool fp_eq_dev(const fp_dev *a0, const fp_dev *b0)
{
    fp_dev ca, cb;
    fp_canon_dev(&ca, a0);
    fp_canon_dev(&cb, b0);
    const fp_dev *a = &ca, *b = &cb;
    uint64_t acc = 0;
#pragma unroll
    for (int i = 0; i < CUZK_GPU_FP_LIMBS; i++)
        acc |= a->l[i] ^ b->l[i];
    return acc == 0;
}

static CUZK_MONT_FN void fp_cmov_dev(fp_dev *o, const fp_dev *a, bool flag)
{
    uint64_t mask = 0 - (uint64_t)flag;
#pragma unroll
    for (int i = 0; i < CUZK_GPU_FP_LIMBS; i++)
        o->l[i] = (o->l[i] & ~mask) | (a->l[i] & mask);
}

#endif

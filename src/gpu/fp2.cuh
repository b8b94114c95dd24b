/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GPU_FP2_CUH
#define CUZK_GPU_FP2_CUH

/*
 * Fp2 = Fp[u] / (u^2 + 1) over any base-field "ops" type (the device Fp of src/gpu/fp.cuh, or a
 * host Fp for CPU emulation of the kernels), with the host layout: c0 then c1, each the base
 * field's limbs. Same formulas as the host's src/field (Karatsuba 3M multiplication, 2M
 * squaring), so results are bit-identical once both are fully reduced.
 *
 * An ops type B provides: typedef T (an element), LIMBS (64-bit limbs of one element in host
 * layout), and static functions zero, one, add, sub, dbl, neg, mul, sqr, is_zero, load (from
 * host-layout limbs), store (to host-layout limbs, fully reduced). Outputs may alias inputs.
 */

#include <stdint.h>

#ifndef GM_HD
#define GM_HD __host__ __device__ __forceinline__
#endif
/* CUZK_GPU_FP2_KA = 1 (a compilation unit's choice): products through B::mul2, which forms the
 * Karatsuba terms as wide products and reduces twice (src/gpu/mont_ka.cuh fp2_mul_wide) instead
 * of three Montgomery products; B must then provide mul2. 0: three B::mul. */
#ifndef CUZK_GPU_FP2_KA
#define CUZK_GPU_FP2_KA 0
#endif

template <class B> struct gm_fp2_ops {
    struct T {
        typename B::T c0, c1;
    };
    static const unsigned LIMBS = 2 * B::LIMBS;

    static GM_HD void zero(T &r)
    {
        B::zero(r.c0);
        B::zero(r.c1);
    }
    static GM_HD void one(T &r)
    {
        B::one(r.c0);
        B::zero(r.c1);
    }
    static GM_HD bool is_zero(const T &a)
    {
        return B::is_zero(a.c0) && B::is_zero(a.c1);
    }
    static GM_HD void add(T &r, const T &a, const T &b)
    {
        B::add(r.c0, a.c0, b.c0);
        B::add(r.c1, a.c1, b.c1);
    }
    static GM_HD void sub(T &r, const T &a, const T &b)
    {
        B::sub(r.c0, a.c0, b.c0);
        B::sub(r.c1, a.c1, b.c1);
    }
    static GM_HD void dbl(T &r, const T &a)
    {
        B::dbl(r.c0, a.c0);
        B::dbl(r.c1, a.c1);
    }
    static GM_HD void neg(T &r, const T &a)
    {
        B::neg(r.c0, a.c0);
        B::neg(r.c1, a.c1);
    }
    /* (a0 + a1 u)(b0 + b1 u) = a0 b0 - a1 b1 + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) u: 3M (three
     * Montgomery products, or three wide products and two reductions with CUZK_GPU_FP2_KA). */
    static GM_HD void mul(T &r, const T &a, const T &b)
    {
#if CUZK_GPU_FP2_KA
        B::mul2(r.c0, r.c1, a.c0, a.c1, b.c0, b.c1);
#else
        typename B::T t0, t1, s0, s1;
        B::mul(t0, a.c0, b.c0);
        B::mul(t1, a.c1, b.c1);
        B::add(s0, a.c0, a.c1);
        B::add(s1, b.c0, b.c1);
        B::mul(s0, s0, s1);
        B::sub(r.c0, t0, t1);
        B::sub(s0, s0, t0);
        B::sub(r.c1, s0, t1);
#endif
    }
    /* (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u: 2M. */
    static GM_HD void sqr(T &r, const T &a)
    {
        typename B::T s, d, m;
        B::add(s, a.c0, a.c1);
        B::sub(d, a.c0, a.c1);
        B::mul(m, a.c0, a.c1);
        B::mul(r.c0, s, d);
        B::dbl(r.c1, m);
    }
    /* r = a b - c d (src/gpu/point.cuh's CUZK_GPU_PT_FUSED): as two products and a
     * subtraction; B's mulsub is not used (it would not merge Karatsuba's reductions). */
    static GM_HD void mulsub(T &r, const T &a, const T &b, const T &c, const T &d)
    {
        T t, s;
        mul(t, a, b);
        mul(s, c, d);
        sub(r, t, s);
    }
    static GM_HD void load(T &r, const uint64_t *p)
    {
        B::load(r.c0, p);
        B::load(r.c1, p + B::LIMBS);
    }
    static GM_HD void store(uint64_t *p, const T &a)
    {
        B::store(p, a.c0);
        B::store(p + B::LIMBS, a.c1);
    }
};

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GPU_MSM_GROUPS_CUH
#define CUZK_GPU_MSM_GROUPS_CUH

/*
 * The two groups of the device MSM: field "ops" over src/gpu/fp.cuh (G1) and Fp2 over it (G2),
 * with the byte layout of the host's affine structs (coordinates, then the bool infinity flag,
 * padded to 8 bytes), so host base arrays are uploaded unchanged.
 */

#include "gpu/fp.cuh"
#include "gpu/fp2.cuh"
#include "gpu/point.cuh"

#include "cuzk/curve.h"

#include <stddef.h>

struct gm_fp_ops {
    typedef fp_dev T;
    static const unsigned LIMBS = CUZK_GPU_FP_LIMBS;
    static GM_HD void zero(T &r)
    {
        fp_set_zero_dev(&r);
    }
    static GM_HD void one(T &r)
    {
        fp_set_one_dev(&r);
    }
    static GM_HD bool is_zero(const T &a)
    {
        return fp_is_zero_dev(&a);
    }
    static GM_HD void add(T &r, const T &a, const T &b)
    {
        fp_add_dev(&r, &a, &b);
    }
    static GM_HD void sub(T &r, const T &a, const T &b)
    {
        fp_sub_dev(&r, &a, &b);
    }
    static GM_HD void dbl(T &r, const T &a)
    {
        fp_dbl_dev(&r, &a);
    }
    static GM_HD void neg(T &r, const T &a)
    {
        fp_neg_dev(&r, &a);
    }
    static GM_HD void mul(T &r, const T &a, const T &b)
    {
        fp_mul_dev(&r, &a, &b);
    }
    static GM_HD void sqr(T &r, const T &a)
    {
        fp_sqr_dev(&r, &a);
    }
    /* r = a b - c d, one reduction (point.cuh's CUZK_GPU_PT_FUSED) */
    static GM_HD void mulsub(T &r, const T &a, const T &b, const T &c, const T &d)
    {
        fp_mulsub_dev(&r, &a, &b, &c, &d);
    }
    /* r0 + r1 u = (a0 + a1 u)(b0 + b1 u) with two reductions (fp2.cuh's CUZK_GPU_FP2_KA) */
    static GM_HD void mul2(T &r0, T &r1, const T &a0, const T &a1, const T &b0, const T &b1)
    {
        fp2_mul_dev(&r0, &r1, &a0, &a1, &b0, &b1);
    }
    static GM_HD void load(T &r, const uint64_t *p)
    {
#pragma unroll
        for (unsigned i = 0; i < LIMBS; i++)
            r.l[i] = p[i];
    }
    static GM_HD void store(uint64_t *p, const T &a0)
    {
        T a;
        fp_canon_dev(&a, &a0);
#pragma unroll
        for (unsigned i = 0; i < LIMBS; i++)
            p[i] = a.l[i];
    }
};

struct gm_g1 {
    typedef gm_fp_ops F;
    typedef cuzk_g1_affine_t host_aff;
    typedef cuzk_g1_jac_t host_jac;
    typedef cuzk_g1_xyzz_t host_xyzz;
    static const size_t AFF_BYTES = sizeof(cuzk_g1_affine_t);
    static const size_t INF_OFF = offsetof(cuzk_g1_affine_t, infinity);
};

struct gm_g2 {
    typedef gm_fp2_ops<gm_fp_ops> F;
    typedef cuzk_g2_affine_t host_aff;
    typedef cuzk_g2_jac_t host_jac;
    typedef cuzk_g2_xyzz_t host_xyzz;
    static const size_t AFF_BYTES = sizeof(cuzk_g2_affine_t);
    static const size_t INF_OFF = offsetof(cuzk_g2_affine_t, infinity);
};

/* The kernels read coordinates as 64-bit limbs at the struct's start and the flag after them. */
static_assert(offsetof(cuzk_g1_affine_t, y) == 48 && offsetof(cuzk_g1_affine_t, infinity) == 96,
              "host G1 affine layout");
static_assert(offsetof(cuzk_g2_affine_t, y) == 96 && offsetof(cuzk_g2_affine_t, infinity) == 192,
              "host G2 affine layout");
static_assert(sizeof(cuzk_g1_affine_t) % 8 == 0 && sizeof(cuzk_g2_affine_t) % 8 == 0,
              "8-byte aligned affine stride");
static_assert(sizeof(cuzk_g1_xyzz_t) == 4 * 48 && sizeof(cuzk_g2_xyzz_t) == 4 * 96,
              "host XYZZ layout");

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * mont.cuh's even/odd squaring (sqr_eo, CUZK_GPU_MONT_SQR = 2), its sums of two products with
 * one reduction (mul_sum, mul_diff: point.cuh's CUZK_GPU_PT_FUSED) and the Karatsuba forms of
 * the product and the sums (mul_ka, mul_sum_ka, mul_diff_ka: CUZK_GPU_MONT_KARA), compiled for the
 * host (nvcc, carry chains emulated in C) so that tests/unit/test_gpu_sqr_eo_host.c can check them
 * against src/field without a GPU. Built only when nvcc is there (the Makefile takes every .cu
 * there). gpu_sqr_eo_host_roll.cu includes this file with the row loops rolled, as the MSM compiles
 * them.
 */
#ifndef CZ_SQ_HOST_FN
#define CZ_SQ_HOST_FN cuzk__test_sqr_eo_host
#endif
#include "gpu/fp.cuh"
#include "gpu/fr.cuh"

#include <stddef.h>
#include <string.h>

template <class M, class E>
static void run(int op, bool red, E *out, const E *a, const E *b, const E *c, const E *d, size_t n)
{
    constexpr int N = M::N;
    for (size_t i = 0; i < n; i++) {
        uint32_t x[N], y[N], z[N], w[N], r[N];
        memcpy(x, &a[i], sizeof x); /* 64-bit limbs, little-endian: w[2i] = low half of limb i */
        if (op == 0) {
            if (red)
                M::template sqr_eo<true>(r, x);
            else
                M::template sqr_eo<false>(r, x);
        } else if (op == 3) {
            memcpy(y, &b[i], sizeof y);
            if (red)
                M::ka::template mul_ka<true>(r, x, y);
            else
                M::ka::template mul_ka<false>(r, x, y);
        } else if constexpr (N == 12) { /* mul_sum / mul_diff are Fp only */
            memcpy(y, &b[i], sizeof y);
            memcpy(z, &c[i], sizeof z);
            memcpy(w, &d[i], sizeof w);
            if (op == 1 && red)
                M::template mul_sum<true>(r, x, y, z, w);
            else if (op == 1)
                M::template mul_sum<false>(r, x, y, z, w);
            else if (op == 2 && red)
                M::template mul_diff<true>(r, x, y, z, w);
            else if (op == 2)
                M::template mul_diff<false>(r, x, y, z, w);
            else if (op == 4 && red)
                M::ka::template mul_sum_ka<true>(r, x, y, z, w);
            else if (op == 4)
                M::ka::template mul_sum_ka<false>(r, x, y, z, w);
            else if (red)
                M::ka::template mul_diff_ka<true>(r, x, y, z, w);
            else
                M::ka::template mul_diff_ka<false>(r, x, y, z, w);
        } else {
            memset(r, 0, sizeof r);
        }
        memcpy(&out[i], r, sizeof r);
    }
}

/* Raw limbs in and out. |field| 0 Fr, 1 Fp; |op| 0 out = a^2 R^-1 (sqr_eo; b, c, d unused),
 * 1 out = (a b + c d) R^-1 (mul_sum, Fp only), 2 out = (a b - c d) R^-1 (mul_diff, Fp only),
 * 3 out = a b R^-1 (mul_ka, the Karatsuba product; c, d unused), 4 and 5 as 1 and 2 with the
 * Karatsuba products (mul_sum_ka, mul_diff_ka, Fp only);
 * |red| 1 the reduced form (output below m), 0 the lazy one (below 2m). */
extern "C" void CZ_SQ_HOST_FN(int field, int op, int red, void *out, const void *a, const void *b,
                              const void *c, const void *d, size_t n)
{
    if (field == 0)
        run<fr_mont>(op, red != 0, (cuzk_fr_t *)out, (const cuzk_fr_t *)a, (const cuzk_fr_t *)b,
                     (const cuzk_fr_t *)c, (const cuzk_fr_t *)d, n);
    else
        run<fp_mont>(op, red != 0, (cuzk_fp_t *)out, (const cuzk_fp_t *)a, (const cuzk_fp_t *)b,
                     (const cuzk_fp_t *)c, (const cuzk_fp_t *)d, n);
}

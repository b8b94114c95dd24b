/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * One lazy Fp product per kernel, between 12 loads and 12 stores, for SASS opcode counts
 * (scripts/gpu-sass.sh): mont.cuh's even/odd product, its Karatsuba product and its squaring.
 * Not part of any build.
 */
#include "gpu/fp.cuh"

#define CZ_SASS_KERNEL(name, call)                                                                 \
    extern "C" __global__ void name(uint32_t *o, const uint32_t *a, const uint32_t *b)             \
    {                                                                                              \
        uint32_t x[12], y[12], r[12];                                                              \
        for (int j = 0; j < 12; j++) {                                                             \
            x[j] = a[12 * threadIdx.x + j];                                                        \
            y[j] = b[12 * threadIdx.x + j];                                                        \
        }                                                                                          \
        call;                                                                                      \
        (void)y;                                                                                   \
        for (int j = 0; j < 12; j++)                                                               \
            o[12 * threadIdx.x + j] = r[j];                                                        \
    }

CZ_SASS_KERNEL(k_mul_eo, fp_mont::mul_eo<false>(r, x, y))
CZ_SASS_KERNEL(k_mul_ka, fp_mont::ka::mul_ka<false>(r, x, y))
CZ_SASS_KERNEL(k_sqr_eo, fp_mont::sqr_eo<false>(r, x))

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * mont.cuh's even/odd multiplication (variant 7, mul_eo) and the carry-chain one it replaces
 * (variant 3, mul_chain), compiled for the host (nvcc, host side only: the PTX carry chains are
 * emulated in C there), so that tests/unit/test_gpu_mul_eo_host.c can check them against
 * cuzk_fp_mul / cuzk_fr_mul on a machine without a GPU. Built only when nvcc is there (Makefile).
 * gpu_mul_eo_host_roll.cu includes this file with the row loop rolled (CUZK_GPU_MONT_ROLL=1).
 */
#ifndef CZ_EO_HOST_FN
#define CZ_EO_HOST_FN cuzk__test_mul_eo_host
#endif
#include "gpu/fp.cuh"
#include "gpu/fr.cuh"

#include <stddef.h>
#include <string.h>

template <class M, class E>
static void run(bool eo, bool red, E *out, const E *a, const E *b, size_t n)
{
    constexpr int N = M::N;
    for (size_t i = 0; i < n; i++) {
        uint32_t x[N], y[N], r[N];
        memcpy(x, &a[i], sizeof x); /* 64-bit limbs, little-endian: w[2i] = low half of limb i */
        memcpy(y, &b[i], sizeof y);
        if (eo && red)
            M::template mul_eo<true>(r, x, y);
        else if (eo)
            M::template mul_eo<false>(r, x, y);
        else if (red)
            M::template mul_chain<true>(r, x, y);
        else
            M::template mul_chain<false>(r, x, y);
        memcpy(&out[i], r, sizeof r);
    }
}

/* out[i] = a[i] b[i] R^-1 in Fr (|field| 0) or Fp (1) with mul_eo (|eo|) or mul_chain, with the
 * final subtraction (|red|) or lazily (output in [0, 2m): Fp only), raw limbs. */
extern "C" void CZ_EO_HOST_FN(int field, int eo, int red, void *out, const void *a, const void *b,
                              size_t n)
{
    if (field == 0)
        run<fr_mont>(eo != 0, red != 0, (cuzk_fr_t *)out, (const cuzk_fr_t *)a,
                     (const cuzk_fr_t *)b, n);
    else
        run<fp_mont>(eo != 0, red != 0, (cuzk_fp_t *)out, (const cuzk_fp_t *)a,
                     (const cuzk_fp_t *)b, n);
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The device Fr multiplications compiled for the host (nvcc, host side only: mont.cuh emulates
 * its PTX carry chains in C there), so tests/unit/test_gpu_fr_mul_host.c can check them against
 * cuzk_fr_mul on a machine without a GPU. Built only when nvcc is there (Makefile, TEST_CU_SRC).
 */
#include "gpu/fr_mul_r.cuh"
#include "gpu/fr_shoup.cuh"

#include <stddef.h>
#include <string.h>

/* out[i] = a[i] * b[i] with |variant| 1..3 (mont.cuh), 4 fr_mul_r or 5 fr_mul_r_eo (fr_mul_r.cuh;
 * the NTT's numbering), or 6 fr_mul_shoup by b[i] through its companion (fr_shoup.cuh; a[i] may
 * be any 256-bit value there). */
extern "C" void cuzk__test_fr_mul_host(int variant, cuzk_fr_t *out, const cuzk_fr_t *a,
                                       const cuzk_fr_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        fr_dev x, y;
        uint32_t wx[CUZK_GPU_FR_WORDS], wy[CUZK_GPU_FR_WORDS], wr[CUZK_GPU_FR_WORDS];
        memcpy(&x, &a[i], sizeof x);
        memcpy(&y, &b[i], sizeof y);
        fr_to_words_(wx, &x);
        fr_to_words_(wy, &y);
        if (variant == 1)
            fr_mont::mul_u64(wr, wx, wy);
        else if (variant == 2)
            fr_mont::mul_wide(wr, wx, wy);
        else if (variant == 3)
            fr_mont::mul_chain(wr, wx, wy);
        else if (variant == 4)
            fr_mul_r(wr, wx, wy);
        else if (variant == 5)
            fr_mul_r_eo(wr, wx, wy);
        else {
            uint32_t w[CUZK_GPU_FR_WORDS], wq[CUZK_GPU_FR_WORDS];
            fr_shoup_companion(w, wq, wy);
            fr_mul_shoup(wr, wx, w, wq);
        }
        fr_from_words_(&x, wr);
        memcpy(&out[i], &x, sizeof x);
    }
}

/* The plain value and the companion of fr_shoup_companion for Montgomery form m. */
extern "C" void cuzk__test_fr_shoup_companion_host(cuzk_fr_t *w, cuzk_fr_t *wq, const cuzk_fr_t *m)
{
    fr_dev x;
    uint32_t wm[CUZK_GPU_FR_WORDS], ww[CUZK_GPU_FR_WORDS], wwq[CUZK_GPU_FR_WORDS];
    memcpy(&x, m, sizeof x);
    fr_to_words_(wm, &x);
    fr_shoup_companion(ww, wwq, wm);
    fr_from_words_(&x, ww);
    memcpy(w, &x, sizeof x);
    fr_from_words_(&x, wwq);
    memcpy(wq, &x, sizeof x);
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_FIELD_FR_INTERNAL_H
#define CUZK_FIELD_FR_INTERNAL_H

#include <stdint.h>

#include "field/fp_internal.h"

/* Library-internal: the two Fr multiplication back ends (the Fr counterpart of fp_internal.h). */

/* Portable CIOS multiplication (field/mont.h, unsigned __int128 carry chains). */
void cuzk_fr_mul_portable(uint64_t out[4], const uint64_t a[4], const uint64_t b[4]);

/*
 * x86-64 back end (src/field/fr_x86_64.c): mulx/adcx/adox inline assembly, built under the same
 * condition as Fp's (CUZK_FP_HAVE_ADX: x86-64 with BMI2 and ADX). Inputs must be canonical
 * (< r); outputs are canonical, bit-identical to the portable code, and may alias inputs.
 */
#if CUZK_FP_HAVE_ADX
#define CUZK_FR_HAVE_ADX 1
void cuzk__fr_mul_adx(uint64_t out[4], const uint64_t a[4], const uint64_t b[4]);
/* Dedicated squaring: 10 products instead of 16 for the 8-word square, then REDC. */
void cuzk__fr_sqr_adx(uint64_t out[4], const uint64_t a[4]);
#else
#define CUZK_FR_HAVE_ADX 0
#endif

/* The fastest back end built in, for the out-of-line uses (conversions, squaring); cuzk_fr_mul
 * itself inlines field/fr_inline.h's product, which is the same asm. */
#if CUZK_FR_HAVE_ADX
#define cuzk_fr_mul_impl cuzk__fr_mul_adx
#define cuzk_fr_sqr_impl cuzk__fr_sqr_adx
#else
#define cuzk_fr_mul_impl cuzk_fr_mul_portable
#define cuzk_fr_sqr_impl(out, a) cuzk_fr_mul_portable((out), (a), (a))
#endif

#endif

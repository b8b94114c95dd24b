/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_FIELD_FP_INTERNAL_H
#define CUZK_FIELD_FP_INTERNAL_H

#include <stdint.h>

#include "cuzk/field.h"

/* Library-internal field constants and the two Fp multiplication back ends. */
extern const uint64_t cuzk_fp_modulus[6];
extern const uint64_t cuzk_fp_r2[6]; /* R^2 mod p, R = 2^384 */
extern const uint64_t cuzk_fp_p_minus_1_half[6];
extern const uint64_t cuzk_fp_p_minus_3_quarter[6];
extern const uint64_t cuzk_fr_modulus[4];

/* Portable CIOS multiplication (unsigned __int128 carry chains). */
void cuzk_fp_mul_portable(uint64_t out[6], const uint64_t a[6], const uint64_t b[6]);

/*
 * x86-64 back end (src/field/fp_x86_64.c): mulx/adcx/adox inline assembly, built only when the
 * compiler targets BMI2 and ADX (the default -march=native on such a machine). Inputs must be
 * canonical (< p); outputs may alias inputs.
 */
#if defined(__x86_64__) && defined(__ADX__) && defined(__BMI2__)
#define CUZK_FP_HAVE_ADX 1
void cuzk__fp_mul_adx(uint64_t out[6], const uint64_t a[6], const uint64_t b[6]);
/* Dedicated squaring: 21 products instead of 36 for the 12-word square, then REDC. */
void cuzk__fp_sqr_adx(uint64_t out[6], const uint64_t a[6]);
/* The pieces of a product with a late reduction: w = a b as 12 words (any 6-word a, b), and
 * out = w 2^-384 mod p (canonical) for w < p 2^384. */
void cuzk__fp_mul_wide_adx(uint64_t w[12], const uint64_t a[6], const uint64_t b[6]);
void cuzk__fp_redc_adx(uint64_t out[6], const uint64_t w[12]);
/* Fp2 product with one reduction per coordinate: Karatsuba's three products kept at 12 words,
 * two REDCs instead of three (src/field/fp_x86_64.c). Canonical inputs; out may alias a or b. */
void cuzk__fp2_mul_adx(cuzk_fp2_t *out, const cuzk_fp2_t *a, const cuzk_fp2_t *b);
#else
#define CUZK_FP_HAVE_ADX 0
#endif

/* The multiplication and squaring every Fp operation uses: the fastest back end built in
 * (measured in docs/PERFORMANCE.md, "Field arithmetic (issue 2)"). */
#if CUZK_FP_HAVE_ADX
#define cuzk_fp_mul_impl cuzk__fp_mul_adx
#define cuzk_fp_sqr_impl cuzk__fp_sqr_adx
#define CUZK_FP_MUL_IMPL_NAME "x86-64 asm (mulx/adcx/adox)"
#else
#define cuzk_fp_mul_impl cuzk_fp_mul_portable
#define cuzk_fp_sqr_impl(out, a) cuzk_fp_mul_portable((out), (a), (a))
#define CUZK_FP_MUL_IMPL_NAME "portable C (unsigned __int128 CIOS)"
#endif

/* out = x^-1 R for in = x R (canonical; 0 gives 0): variable-time binary GCD on 64-bit
 * approximations (src/field/fp_inv.c), what cuzk_fp_inv_vartime uses. */
void cuzk__fp_inv_bingcd(uint64_t out[6], const uint64_t in[6]);
/* The previous bit-at-a-time binary Euclid (mont.h), same contract: a reference for tests. */
void cuzk__fp_inv_euclid(uint64_t out[6], const uint64_t in[6]);

/* Which back end the library was built with, for `cuzk-bench info` (the tool may be compiled
 * with different flags from the library, so it must ask the library). */
const char *cuzk__fp_mul_impl_name(void);

#endif

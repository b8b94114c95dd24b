/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_FIELD_FP_INTERNAL_H
#define CUZK_FIELD_FP_INTERNAL_H

#include <stdint.h>

/* Library-internal field constants and the two Fp multiplication back ends. */
extern const uint64_t cuzk_fp_modulus[6];
extern const uint64_t cuzk_fp_p_minus_1_half[6];
extern const uint64_t cuzk_fp_p_minus_3_quarter[6];
extern const uint64_t cuzk_fr_modulus[4];

/* Portable CIOS multiplication (unsigned __int128 carry chains). */
void cuzk_fp_mul_portable(uint64_t out[6], const uint64_t a[6], const uint64_t b[6]);

/* The multiplication every Fp operation uses: the fastest back end built in. */
#define cuzk_fp_mul_impl cuzk_fp_mul_portable

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_FIELD_FP12_INTERNAL_H
#define CUZK_FIELD_FP12_INTERNAL_H

/*
 * Library-internal sparse tower multiplications used by the Miller loop (src/pairing/). Outputs
 * may alias inputs.
 */

#include "cuzk/field.h"

/* out = a * (b0 + b1 v): 5 Fp2 multiplications. */
void cuzk__fp6_mul_by_01(cuzk_fp6_t *out, const cuzk_fp6_t *a, const cuzk_fp2_t *b0,
                         const cuzk_fp2_t *b1);
/* out = a * (b1 v): 3 Fp2 multiplications. */
void cuzk__fp6_mul_by_1(cuzk_fp6_t *out, const cuzk_fp6_t *a, const cuzk_fp2_t *b1);

/*
 * f = f * (c0 + c1 v + c4 v w): the product by a line function of the M-twist, whose non-zero
 * coefficients sit at positions 0, 1 and 4 of the basis (1, v, v^2, w, v w, v^2 w) =
 * (w^0, w^2, w^4, w^1, w^3, w^5). 13 Fp2 multiplications instead of 18 for a full product.
 */
void cuzk__fp12_mul_by_014(cuzk_fp12_t *f, const cuzk_fp2_t *c0, const cuzk_fp2_t *c1,
                           const cuzk_fp2_t *c4);

#endif

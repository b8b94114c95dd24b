/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GROTH16_INPUT_MSM_H
#define CUZK_GROTH16_INPUT_MSM_H

#include "cuzk/curve.h"

/* out = ic[0] + sum_{i < n} inputs[i] * ic[i + 1] (public data: variable time). */
void cuzk_groth16_input_msm(cuzk_g1_jac_t *out, const cuzk_g1_affine_t *ic,
                            const cuzk_fr_t *inputs, size_t n);

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "groth16/input_msm.h"

void cuzk_groth16_input_msm(cuzk_g1_jac_t *out, const cuzk_g1_affine_t *ic,
                            const cuzk_fr_t *inputs, size_t n)
{
    cuzk_g1_jac_t acc, t;
    cuzk_g1_from_affine(&acc, &ic[0]);
    for (size_t i = 0; i < n; i++) {
        cuzk_g1_from_affine(&t, &ic[i + 1]);
        cuzk_g1_mul_vartime(&t, &t, &inputs[i]);
        cuzk_g1_add(&acc, &acc, &t);
    }
    *out = acc;
}

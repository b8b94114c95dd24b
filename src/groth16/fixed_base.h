/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GROTH16_FIXED_BASE_H
#define CUZK_GROTH16_FIXED_BASE_H

#include "cuzk/curve.h"
#include "cuzk/threadpool.h"

/*
 * Many multiples k_i * G of one fixed base (setup): a table of d * 2^(8w) * G for every byte
 * position w and byte value d turns each multiplication into at most 32 mixed additions.
 * Variable time: for the setup of test parameters only.
 */
cuzk_status cuzk_fixed_base_g1(cuzk_g1_affine_t *out, const cuzk_fr_t *k, size_t n,
                               cuzk_pool *pool) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_fixed_base_g2(cuzk_g2_affine_t *out, const cuzk_fr_t *k, size_t n,
                               cuzk_pool *pool) CUZK_WARN_UNUSED_RESULT;

#endif

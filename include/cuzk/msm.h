/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_MSM_H
#define CUZK_MSM_H

/*
 * Multi-scalar multiplication on the CPU (Pippenger with signed digits, threads from a pool).
 * Bases are affine (infinity allowed), scalars cuzk_fr_t in Montgomery form unless a function
 * says "raw" (canonical little-endian limbs, e.g. snarkjs's standard-form witness).
 * Public data: variable time.
 */

#include "cuzk/curve.h"
#include "cuzk/threadpool.h"

/* out = sum_{i<n} scalars[i] * bases[i]. |pool| may be NULL (one thread). */
cuzk_status cuzk_g1_msm(cuzk_g1_jac_t *out, const cuzk_g1_affine_t *bases, const cuzk_fr_t *scalars,
                        size_t n, cuzk_pool *pool) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_g2_msm(cuzk_g2_jac_t *out, const cuzk_g2_affine_t *bases, const cuzk_fr_t *scalars,
                        size_t n, cuzk_pool *pool) CUZK_WARN_UNUSED_RESULT;
/* Same with canonical scalars: scalars[4*i .. 4*i+3] little-endian 64-bit limbs. */
cuzk_status cuzk_g1_msm_raw(cuzk_g1_jac_t *out, const cuzk_g1_affine_t *bases,
                            const uint64_t *scalars, size_t n,
                            cuzk_pool *pool) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_g2_msm_raw(cuzk_g2_jac_t *out, const cuzk_g2_affine_t *bases,
                            const uint64_t *scalars, size_t n,
                            cuzk_pool *pool) CUZK_WARN_UNUSED_RESULT;

/* out = sum of bases[i] over the i < n whose bit is set in |bitmap| (bit i = word i/64, bit i%64):
 * the 0/1-scalar part of a Filecoin witness. */
cuzk_status cuzk_g1_batch_add(cuzk_g1_jac_t *out, const cuzk_g1_affine_t *bases,
                              const uint64_t *bitmap, size_t n,
                              cuzk_pool *pool) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_g2_batch_add(cuzk_g2_jac_t *out, const cuzk_g2_affine_t *bases,
                              const uint64_t *bitmap, size_t n,
                              cuzk_pool *pool) CUZK_WARN_UNUSED_RESULT;

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GROTH16_VERIFY_SPLIT_H
#define CUZK_GROTH16_VERIFY_SPLIT_H

/*
 * cuzk_groth16_verify in two halves, for a prover that verifies its own proof: the half that
 * needs no proof (the inputs' Miller loop) can run while the proof is still being computed, and
 * the rest runs its two Miller loops on two pool threads. Together they decide exactly what
 * cuzk_groth16_verify decides.
 */

#include "cuzk/groth16.h"
#include "cuzk/pairing.h"
#include "cuzk/threadpool.h"

/* *|f| = Miller loop of (ic[0] + sum_i inputs[i] ic[i + 1], -gamma). */
cuzk_status cuzk__groth16_verify_inputs(cuzk_fp12_t *f, const cuzk_groth16_vk *vk,
                                        const cuzk_fr_t *inputs,
                                        size_t n_inputs) CUZK_WARN_UNUSED_RESULT;
/* The check e(A, B) e(acc, -gamma) e(C, -delta) == e(alpha, beta) given |f_inputs| from
 * cuzk__groth16_verify_inputs; |pool| may be NULL (one thread). */
cuzk_status cuzk__groth16_verify_rest(const cuzk_groth16_vk *vk, const cuzk_groth16_proof *proof,
                                      const cuzk_fp12_t *f_inputs,
                                      cuzk_pool *pool) CUZK_WARN_UNUSED_RESULT;

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GADGETS_POSEIDON_CIRCUIT_H
#define CUZK_GADGETS_POSEIDON_CIRCUIT_H

/*
 * Poseidon in R1CS exactly as neptune's legacy circuit::poseidon_hash (the one Filecoin's
 * trusted setups were made with; not circuit2). See shared/facts/filecoin-circuits.md 4.9.
 */

#include "cuzk/poseidon.h"
#include "gadgets/num.h"

/*
 * out = Poseidon(preimage) in |cs|: |preimage| holds c->arity allocated numbers. Emits, in
 * neptune's order, 3 constraints per S-box (the first S-box, on the constant domain tag, is
 * folded), 1 allocation constraint per S-box input that is a linear combination, and 1 for the
 * digest: 3 (t R_F + R_P - 1) + (t R_F + R_P - arity) in all (311 / 377 / 505 / 598 / 761 for
 * arity 2 / 4 / 8 / 11 / 16). The R1CS coefficients are the optimised constants of |c|.
 * Returns: CUZK_OK; CUZK_ERR_NOMEM; any status of |cs|.
 */
cuzk_status cuzk_poseidon_circuit_hash(cuzk_cs *cs, cuzk_num *out, const cuzk_poseidon_constants *c,
                                       const cuzk_num *preimage) CUZK_WARN_UNUSED_RESULT;

/* The number of constraints cuzk_poseidon_circuit_hash emits for |c|. */
size_t cuzk_poseidon_circuit_num_constraints(const cuzk_poseidon_constants *c);

#endif

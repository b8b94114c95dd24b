/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_TESTS_FIL_POREP_UTIL_H
#define CUZK_TESTS_FIL_POREP_UTIL_H

#include "filecoin/porep_circuit.h"

/* The upstream anchor's shape (test_stacked_input_circuit_poseidon_base_8): 8 nodes, one base-8
 * level, 1 challenge, 2 layers; the smallest exact PoRep circuit (1,199,620 constraints). */
static inline cuzk_fil_porep_shape porep_anchor_shape(void)
{
    cuzk_fil_porep_shape sh = {.seal_proof_type = 0,
                               .sector_size = 8 * 32,
                               .nodes = 8,
                               .node_bits = 3,
                               .layers = 2,
                               .challenges = 1,
                               .partitions = 1,
                               .depth = 1,
                               .arities = {8}};
    return sh;
}

#endif

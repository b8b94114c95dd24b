/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_TEST_FIL_SNAP_UTIL_H
#define CUZK_TEST_FIL_SNAP_UTIL_H

#include "filecoin/snap_circuit.h"

/* A small SnapDeals shape the circuit accepts: 512 nodes (all with new data in a synthetic
 * partition), tree R 8-8-8, two partitions, 8 apex leaves, 3 challenges and six distinct h, so
 * that partition paths, the partition index and h_select all matter. */
static inline cuzk_fil_snap_shape test_snap_small_shape(void)
{
    cuzk_fil_snap_shape sh = {.update_proof_type = 0,
                              .sector_size = 512 * 32,
                              .partitions = 2,
                              .challenge_count = 3,
                              .apex_leaves = 8,
                              .challenge_bits = 9,
                              .partition_bits = 1,
                              .apex_bits = 3,
                              .hs = {1, 2, 3, 4, 5, 6},
                              .h_default = 4,
                              .depth = 3,
                              .arities = {8, 8, 8}};
    return sh;
}

#endif

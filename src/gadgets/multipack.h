/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GADGETS_MULTIPACK_H
#define CUZK_GADGETS_MULTIPACK_H

/*
 * Packing bits into public inputs (bellperson src/gadgets/multipack.rs): chunks of
 * Fr::CAPACITY = 254 bits, bit i of a chunk with coefficient 2^i; per chunk one new input and
 * the constraint (sum) * 1 = input.
 */

#include "gadgets/num.h"

/* Number of field elements |n_bits| bits pack into. */
static inline size_t cuzk_multipack_len(size_t n_bits)
{
    return (n_bits + CUZK_FR_CAPACITY - 1) / CUZK_FR_CAPACITY;
}

/* pack_into_inputs. */
cuzk_status cuzk_multipack_pack_into_inputs(cuzk_cs *cs, const cuzk_bool *bits,
                                            size_t n_bits) CUZK_WARN_UNUSED_RESULT;
/* multipack::pack_bits: a new aux |out| = sum 2^i b_i over the first min(|n_bits|, 254) bits and
 * (sum) * ONE = out (1 constraint, also for |n_bits| = 0). */
cuzk_status cuzk_multipack_pack_bits(cuzk_cs *cs, cuzk_num *out, const cuzk_bool *bits,
                                     size_t n_bits) CUZK_WARN_UNUSED_RESULT;
/* (sum 2^i b_i) * ONE = |var| over all |n_bits| bits (1 constraint): pack_bits' constraint, and
 * the bit decompositions of storage-proofs-update's gadgets (255 bits, unlike to_bits_le's
 * 0 * 0 = sum - var). */
cuzk_status cuzk_multipack_enforce_sum(cuzk_cs *cs, const cuzk_bool *bits, size_t n_bits,
                                       cuzk_var var) CUZK_WARN_UNUSED_RESULT;
/* compute_multipacking: the input values for |bits| (cuzk_multipack_len(n_bits) outputs). */
void cuzk_multipack_compute(cuzk_fr_t *out, const bool *bits, size_t n_bits);
/* bytes_to_bits (MSB first in each byte) and bytes_to_bits_le (LSB first). */
void cuzk_multipack_bytes_to_bits(bool *out, const uint8_t *bytes, size_t n);
void cuzk_multipack_bytes_to_bits_le(bool *out, const uint8_t *bytes, size_t n);

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GADGETS_SHA256_H
#define CUZK_GADGETS_SHA256_H

/*
 * SHA-256 with bellperson's constraint layout (bellperson src/gadgets/sha256.rs): message
 * schedule and rounds over UInt32 words, additions batched by one MultiEq per compression
 * (flushed at its end), a/e additions deferred into the next round's addmany. Bits are in
 * SHA-256 order: each 32-bit word most significant bit first.
 * Costs (constraints, excluding the allocation of input bits): one compression from the
 * constant IV 25,840; sha256() of a 512-bit message (two blocks) 44,874.
 */

#include "gadgets/uint32.h"

/* The constant initial hash value. */
void cuzk_sha256_iv(cuzk_u32 iv[8]);
/* One compression of the 512 bits |input| into the state |cur|; |out| may alias |cur|. */
cuzk_status cuzk_sha256_compression(cuzk_cs *cs, cuzk_u32 out[8], const cuzk_bool input[512],
                                    const cuzk_u32 cur[8]) CUZK_WARN_UNUSED_RESULT;
/* sha256_block_no_padding: one compression from the IV, 256 output bits. */
cuzk_status cuzk_sha256_block_no_padding(cuzk_cs *cs, cuzk_bool out[256],
                                         const cuzk_bool input[512]) CUZK_WARN_UNUSED_RESULT;
/* Full SHA-256 with padding of |n_bits| (a multiple of 8) input bits. */
cuzk_status cuzk_sha256(cuzk_cs *cs, cuzk_bool out[256], const cuzk_bool *input,
                        size_t n_bits) CUZK_WARN_UNUSED_RESULT;

/* Native compression (FIPS 180-4), the reference for tests and for circuits' public values. */
void cuzk_sha256_compress_native(uint32_t state[8], const uint8_t block[64]);

#endif

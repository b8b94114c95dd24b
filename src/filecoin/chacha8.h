/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_FILECOIN_CHACHA8_H
#define CUZK_FILECOIN_CHACHA8_H

/*
 * The ChaCha block function with a round count, and ChaCha8Rng as rand_chacha 0.3 defines it
 * (what storage-proofs-core drgraph.rs seeds per node). OpenSSL ships only the 20-round IETF
 * cipher, so the core is written here; tests check it against the 8-round vectors of
 * draft-strombergson-chacha-test-vectors and, built with 20 rounds, against OpenSSL's ChaCha20.
 */

#include <stdint.h>

/*
 * One 64-byte keystream block in Bernstein's original layout: words 0..3 the constant
 * "expand 32-byte k", 4..11 the key (|key| read as eight u32 LE), 12..13 the 64-bit block
 * |counter| (low word first), 14..15 the 64-bit |nonce|. |rounds| is even (8, 12, 20).
 * |out| receives the 16 output words (serialise little-endian for the byte stream).
 */
void cuzk__chacha_block(uint32_t out[16], const uint8_t key[32], uint64_t counter, uint64_t nonce,
                        unsigned rounds);

/*
 * rand_chacha's ChaCha8Rng::from_seed(seed): key = |seed|, stream (nonce) 0, counter from 0.
 * Output words are consumed in stream order; next_u64 = low word | high word << 32, the next two
 * words. No heap, no failure.
 */
typedef struct {
    uint8_t key[32];
    uint64_t counter; /* next block to generate */
    uint32_t buf[16];
    unsigned pos; /* next unread word of |buf| (16: empty) */
} cuzk__chacha8_rng;

void cuzk__chacha8_rng_init(cuzk__chacha8_rng *rng, const uint8_t seed[32]);
uint32_t cuzk__chacha8_rng_next_u32(cuzk__chacha8_rng *rng);
uint64_t cuzk__chacha8_rng_next_u64(cuzk__chacha8_rng *rng);

#endif

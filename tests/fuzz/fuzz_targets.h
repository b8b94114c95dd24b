/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_TESTS_FUZZ_TARGETS_H
#define CUZK_TESTS_FUZZ_TARGETS_H

#include <stddef.h>
#include <stdint.h>

/*
 * One function per parser: feed it any bytes; it must return (never crash, leak or read out of
 * bounds) and must leave its output empty on failure. Each returns 1 when the input parsed, 0
 * when it was rejected, and aborts on a broken contract. Used by the libFuzzer drivers
 * (tests/fuzz/fuzz_*.c, `make fuzz`) and by the mutation test in the unit suite.
 */
int cuzk_fuzz_vk(const uint8_t *data, size_t len);
int cuzk_fuzz_params(const uint8_t *data, size_t len);
int cuzk_fuzz_proof(const uint8_t *data, size_t len);
int cuzk_fuzz_g1(const uint8_t *data, size_t len);
int cuzk_fuzz_g2(const uint8_t *data, size_t len);
int cuzk_fuzz_cid(const uint8_t *data, size_t len);
int cuzk_fuzz_zkey(const uint8_t *data, size_t len);
int cuzk_fuzz_r1cs(const uint8_t *data, size_t len);
int cuzk_fuzz_wtns(const uint8_t *data, size_t len);
int cuzk_fuzz_pce(const uint8_t *data, size_t len);
/* A SnapDeals PartitionProof of RegisteredUpdateProof 0 (2 KiB), checked against the comms of
 * the synthetic partition of seed 1, whose encoding (cuzk_fuzz_snap_vanilla_seed) parses. */
int cuzk_fuzz_snap_vanilla(const uint8_t *data, size_t len);
/* That encoding (malloc'd) for seeding; NULL on failure. */
uint8_t *cuzk_fuzz_snap_vanilla_seed(size_t *len);
/* A PoRep C1 of RegisteredSealProof 0 (2 KiB) in bincode, checked; what parses encodes back to
 * the same bytes. The seed (cuzk_fuzz_porep_c1_seed, malloc'd) is a synthetic sector's C1. */
int cuzk_fuzz_porep_c1(const uint8_t *data, size_t len);
uint8_t *cuzk_fuzz_porep_c1_seed(size_t *len);
/* The same C1 as serde JSON. */
int cuzk_fuzz_porep_c1_json(const uint8_t *data, size_t len);
uint8_t *cuzk_fuzz_porep_c1_json_seed(size_t *len);

/* Curio's wrapper around that JSON (SectorNum 4242, base64 Phase1Out). */
int cuzk_fuzz_porep_c1_curio(const uint8_t *data, size_t len);
uint8_t *cuzk_fuzz_porep_c1_curio_seed(size_t *len);
/* One FallbackPoStSectorProof of a 2 KiB WindowPoSt partition (RegisteredPoStProof 5), checked
 * against the randomness of the synthetic partition of seed 1, whose first sector's encoding
 * (cuzk_fuzz_post_vanilla_seed) parses; what parses encodes back to the same bytes. */
int cuzk_fuzz_post_vanilla(const uint8_t *data, size_t len);
uint8_t *cuzk_fuzz_post_vanilla_seed(size_t *len);
/* snarkjs JSON: the first byte picks the reader (0 proof.json, 1 public.json, 2
 * verification_key.json), the rest is the text. What parses writes back (proof, public) to text
 * that parses to the same values. */
int cuzk_fuzz_snarkjs_json(const uint8_t *data, size_t len);
/* The daemon's TOML subset (src/common/toml.h): OK or FORMAT with a "name:line" message. */
int cuzk_fuzz_toml(const uint8_t *data, size_t len);

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_FILECOIN_H
#define CUZK_FILECOIN_H

/* Filecoin proof registry and public-input derivations (facts/filecoin-circuits.md). */

#include "cuzk/field.h"

typedef enum {
    CUZK_FIL_POST_WINNING = 0,
    CUZK_FIL_POST_WINDOW = 1,
} cuzk_fil_post_kind;

/* What a RegisteredPoStProof id means (rust-filecoin-proofs-api registry.rs). */
typedef struct {
    uint64_t id;
    cuzk_fil_post_kind kind;
    uint64_t sector_size;     /* bytes */
    unsigned api_minor;       /* API 1.<api_minor>: 0 for V1, 2 for V1_2 */
    uint64_t sector_count;    /* sectors per partition as the circuit sees them */
    uint64_t challenge_count; /* challenges per sector */
    const char *name;
} cuzk_fil_post_info;

cuzk_status cuzk_fil_post_info_get(cuzk_fil_post_info *out, uint64_t post_proof_type)
    CUZK_WARN_UNUSED_RESULT;

/* Sector size of a RegisteredSealProof id (0 .. 19). */
cuzk_status cuzk_fil_seal_sector_size(uint64_t *out, uint64_t seal_proof_type)
    CUZK_WARN_UNUSED_RESULT;

/*
 * Extracts comm_r (32-byte LE Fr repr) from the binary form of a sealed-sector CID: CIDv1,
 * codec fil-commitment-sealed (0xf102), multihash poseidon-bls12_381-a2-fc1 (0xb401), 32-byte
 * digest that must be a canonical Fr. Anything else is CUZK_ERR_FORMAT with a reason.
 */
cuzk_status cuzk_fil_comm_r_from_cid(uint8_t comm_r[32], const uint8_t *cid,
                                     size_t len) CUZK_WARN_UNUSED_RESULT;
/* Decodes a CID string in multibase base32 lower-case ('b' prefix) into bytes. */
cuzk_status cuzk_fil_cid_decode_string(uint8_t *out, size_t max, size_t *len,
                                       const char *s) CUZK_WARN_UNUSED_RESULT;

/* Leaf challenge of a PoSt (storage-proofs-post fallback vanilla.rs):
 * LE_u64(SHA256(randomness || sector_id LE || challenge_index LE)[0..8]) mod (sector_size / 32). */
uint64_t cuzk_fil_post_leaf_challenge(const uint8_t randomness[32], uint64_t sector_id,
                                      uint64_t challenge_index, uint64_t sector_size);

/*
 * Public inputs of a WinningPoSt proof for one challenged sector: the sector is repeated for
 * each of the circuit's sectors, each contributing [comm_r, leaf challenge]. Writes
 * 2 * info.sector_count inputs (132 for every published size) to |out| (room for |max|).
 * |randomness| must be a canonical Fr repr (as_safe_commitment), |comm_r| too.
 */
cuzk_status cuzk_fil_winning_post_inputs(cuzk_fr_t *out, size_t max, size_t *n,
                                         uint64_t post_proof_type, const uint8_t randomness[32],
                                         uint64_t sector_id,
                                         const uint8_t comm_r[32]) CUZK_WARN_UNUSED_RESULT;

/*
 * Shape of tree R (and C) of a published sector size (filecoin-circuits.md 1.1), leaves first:
 * 2 KiB, 8 MiB, 512 MiB are base-8 only (8-0-0); 32 GiB adds a sub level of 8 (8-8-0); 64 GiB a
 * sub level of 8 and a top level of 2 (8-8-2). Writes |*depth| arities (at most
 * CUZK_FIL_TREE_MAX_DEPTH). CUZK_ERR_UNSUPPORTED for any other size.
 */
#define CUZK_FIL_TREE_MAX_DEPTH 11
cuzk_status cuzk_fil_tree_r_shape(size_t arities[CUZK_FIL_TREE_MAX_DEPTH], size_t *depth,
                                  uint64_t sector_size) CUZK_WARN_UNUSED_RESULT;

/*
 * Public inputs of one WindowPoSt partition (fallback compound.rs): per sector of the partition
 * [comm_r, challenge_count leaf challenges]; when fewer than info.sector_count sectors are given,
 * the last one's inputs are copied until the partition is full. Sector i of partition |partition|
 * has challenge_index = (partition * sector_count + i) * challenge_count + n for API 1.0 and n for
 * API 1.2. sector_count * (1 + challenge_count) inputs (WinningPoSt ids are refused: their one
 * sector takes cuzk_fil_winning_post_inputs).
 * |comm_rs| holds |nsectors| 32-byte LE reprs; |randomness| and each comm_r must be canonical.
 */
cuzk_status cuzk_fil_window_post_inputs(cuzk_fr_t *out, size_t max, size_t *n,
                                        uint64_t post_proof_type, const uint8_t randomness[32],
                                        uint64_t partition, const uint64_t *sector_ids,
                                        const uint8_t (*comm_rs)[32],
                                        size_t nsectors) CUZK_WARN_UNUSED_RESULT;

#endif

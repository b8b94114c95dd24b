/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_FILECOIN_POST_CIRCUIT_H
#define CUZK_FILECOIN_POST_CIRCUIT_H

/*
 * The fallback PoSt circuit (storage-proofs-post src/fallback/circuit.rs), WinningPoSt and
 * WindowPoSt alike, exact to the allocation and the constraint so that the published v28
 * parameters fit (filecoin-circuits.md 4.4): per sector, comm_r_last, comm_c, comm_r allocated,
 * comm_r inputized, comm_r = Poseidon2(comm_c, comm_r_last); then per challenge a private PoR of
 * tree R whose root is the allocated comm_r_last. Per sector 1 + 312 + challenges * PoR.
 */

#include "cuzk/filecoin.h"
#include "cuzk/r1cs.h"

typedef struct {
    size_t sector_count;    /* sectors in the circuit */
    size_t challenge_count; /* challenges per sector */
    size_t depth;           /* tree R levels */
    size_t arities[CUZK_FIL_TREE_MAX_DEPTH];
} cuzk_fil_post_shape;

/* The shape of a RegisteredPoStProof id (WinningPoSt: 66 sectors of 1 challenge). */
cuzk_status cuzk_fil_post_shape_get(cuzk_fil_post_shape *out,
                                    uint64_t post_proof_type) CUZK_WARN_UNUSED_RESULT;

/* One sector as the circuit sees it (PublicSector + SectorProof). */
typedef struct {
    cuzk_fr_t comm_r, comm_c, comm_r_last;
    const cuzk_fr_t *leaves;    /* challenge_count leaf values */
    const uint64_t *challenges; /* challenge_count leaf indices */
    const cuzk_fr_t *siblings;  /* challenge_count paths of cuzk_merkle_path_len() each */
} cuzk_fil_post_sector;

/* Synthesises the circuit of |shape| into |cs|; |sectors| (shape->sector_count) may be NULL when
 * |cs| keeps no values (KEYGEN). Constraints: sector_count * (313 + challenge_count * (PoR)).
 * Returns: CUZK_OK; CUZK_ERR_INVALID_ARG (bad shape, values missing); any status of |cs|. */
cuzk_status cuzk_fil_post_circuit(cuzk_cs *cs, const cuzk_fil_post_shape *shape,
                                  const cuzk_fil_post_sector *sectors) CUZK_WARN_UNUSED_RESULT;

/*
 * A synthetic partition for tests and benchmarks, derived from |seed|: canonical randomness,
 * sector ids, for each real sector a tree R of the published shape whose leaves are all one fill
 * value except the challenged ones (cuzk_merkle_sparse_paths: any sector size), comm_c, comm_r =
 * Poseidon2(comm_c, comm_r_last); challenges derived as Filecoin derives them
 * (cuzk_fil_post_leaf_challenge). WinningPoSt: one real sector seen by the circuit as 66 sectors
 * of one challenge each (challenge index i); WindowPoSt: a full partition 0.
 */
typedef struct {
    uint64_t post_proof_type;
    cuzk_fil_post_shape shape;
    uint8_t randomness[32];
    size_t nreal;                  /* real sectors: 1 (Winning) or sector_count (Window) */
    uint64_t *sector_ids;          /* nreal */
    uint8_t (*comm_rs)[32];        /* nreal, LE reprs */
    cuzk_fil_post_sector *sectors; /* shape.sector_count, what the circuit takes */
    cuzk_fr_t *leaves, *siblings;  /* storage behind |sectors| */
    uint64_t *challenges;
} cuzk_fil_post_synthetic;

cuzk_status cuzk_fil_post_synthetic_create(cuzk_fil_post_synthetic **out, uint64_t post_proof_type,
                                           uint64_t seed) CUZK_WARN_UNUSED_RESULT;
void cuzk_fil_post_synthetic_destroy(cuzk_fil_post_synthetic *p);

/* Built-in circuit "fil-post:ID" (cuzk_circuit_fn): the PoSt circuit of RegisteredPoStProof ID
 * over cuzk_fil_post_synthetic(ID, seed); KEYGEN needs no witness. */
cuzk_status cuzk_circuit_fil_post(cuzk_cs *cs, const void *params) CUZK_WARN_UNUSED_RESULT;

#endif

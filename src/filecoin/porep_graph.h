/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_FILECOIN_POREP_GRAPH_H
#define CUZK_FILECOIN_POREP_GRAPH_H

/*
 * The PoRep (StackedDrg) graph and challenge derivation (filecoin-circuits.md 1.1-1.2, 3.4,
 * 3.5): porep_id and the per-id parameters, replica_id, the DRG (BucketGraph, degree 6) and
 * expander (Feistel, degree 8) parents of a node, and the per-partition challenge nodes of the
 * interactive, non-interactive and synthetic variants. Sources: rust-fil-proofs
 * storage-proofs-core/src/{drgraph.rs,crypto/feistel.rs,crypto/mod.rs},
 * storage-proofs-porep/src/stacked/vanilla/{graph.rs,challenges.rs,params.rs},
 * rust-filecoin-proofs-api src/registry.rs.
 */

#include "cuzk/status.h"

#include <stddef.h>
#include <stdint.h>

#define CUZK_FIL_DRG_DEGREE 6
#define CUZK_FIL_EXP_DEGREE 8
#define CUZK_FIL_PARENTS 14 /* DRG_DEGREE + EXP_DEGREE, the order of the parent cache */

typedef enum {
    CUZK_FIL_POREP_INTERACTIVE = 0, /* V1, V1_1: challenges from the chain's seed */
    CUZK_FIL_POREP_SYNTHETIC = 1,   /* V1_1_Feat_SyntheticPoRep */
    CUZK_FIL_POREP_NI = 2,          /* V1_2_Feat_NonInteractivePoRep */
} cuzk_fil_porep_kind;

/* What a RegisteredSealProof id (0 .. 19) means. */
typedef struct {
    uint64_t id;
    uint64_t sector_size; /* bytes */
    uint64_t nodes;       /* sector_size / 32 */
    /* API 1.<api_minor>: 0 for V1, 1 for V1_1, 2 for synthetic and NI (facts 1.2). The graph
     * distinguishes only 1.0 from later versions. */
    unsigned api_minor;
    cuzk_fil_porep_kind kind;
    unsigned layers;
    unsigned partitions;
    unsigned challenges_per_partition;
    uint8_t porep_id[32];
    const char *name;
} cuzk_fil_porep_info;

cuzk_status cuzk_fil_porep_info_get(cuzk_fil_porep_info *out,
                                    uint64_t seal_proof_type) CUZK_WARN_UNUSED_RESULT;

/* porep_id of a registered seal proof (registry.rs porep_id): id as u64 LE in bytes 0..8, the
 * nonce (0 for every id) as u64 LE in 8..16, zeros after. */
cuzk_status cuzk_fil_porep_id(uint8_t out[32], uint64_t seal_proof_type) CUZK_WARN_UNUSED_RESULT;

/*
 * replica_id = SHA256(prover_id || sector_id u64 BE || ticket || comm_d || porep_id) with the
 * top two bits of byte 31 cleared (params.rs generate_replica_id, bytes_into_fr_repr_safe).
 * Returns CUZK_ERR_INTERNAL only if OpenSSL fails.
 */
cuzk_status cuzk_fil_replica_id(uint8_t out[32], const uint8_t prover_id[32], uint64_t sector_id,
                                const uint8_t ticket[32], const uint8_t comm_d[32],
                                const uint8_t porep_id[32]) CUZK_WARN_UNUSED_RESULT;

/*
 * The graph of one (node count, porep_id, API version): the DRG seed and Feistel keys, derived
 * once. Immutable after init, so one graph serves any number of threads; each thread brings its
 * own cuzk_fil_porep_hasher for the Blake2b calls of the Feistel rounds.
 */
typedef struct {
    uint64_t nodes;
    unsigned api_minor;
    uint8_t drg_seed[28];     /* SHA256("Filecoin_DRSample" || porep_id)[0..28] */
    uint64_t feistel_keys[4]; /* SHA256("Filecoin_Feistel" || porep_id) as four u64 LE */
    uint64_t feistel_left_mask, feistel_right_mask;
    unsigned feistel_half_bits;
    void *blake2b; /* EVP_MD *, fetched once */
} cuzk_fil_porep_graph;

/* Per-thread hashing state (an EVP_MD_CTX); _init allocates it once, _clear frees it. Our code
 * allocates nothing per call, but OpenSSL 3.0 re-creates its BLAKE2B provider context inside every
 * EVP_DigestInit_ex2 (one malloc per Feistel round, about 0.4 us a round; measured, 3.0.19); a
 * parent computation is not on a proving hot path (14 parents per challenge). */
typedef struct {
    void *ctx;
} cuzk_fil_porep_hasher;

/*
 * Initialises |g| for |nodes| nodes (3 .. 2^32; the sector size / 32), |porep_id| and API
 * 1.|api_minor|. CUZK_ERR_INVALID_ARG for a node count out of range, CUZK_ERR_INTERNAL if
 * OpenSSL has no BLAKE2B-512. Free with cuzk_fil_porep_graph_clear (also after a failure).
 */
cuzk_status cuzk_fil_porep_graph_init(cuzk_fil_porep_graph *g, uint64_t nodes,
                                      const uint8_t porep_id[32],
                                      unsigned api_minor) CUZK_WARN_UNUSED_RESULT;
/* The graph of a RegisteredSealProof id (its nodes, porep_id and API version). */
cuzk_status cuzk_fil_porep_graph_init_id(cuzk_fil_porep_graph *g,
                                         uint64_t seal_proof_type) CUZK_WARN_UNUSED_RESULT;
void cuzk_fil_porep_graph_clear(cuzk_fil_porep_graph *g);

cuzk_status cuzk_fil_porep_hasher_init(cuzk_fil_porep_hasher *h) CUZK_WARN_UNUSED_RESULT;
void cuzk_fil_porep_hasher_clear(cuzk_fil_porep_hasher *h);

/*
 * Name stem of rust-fil-proofs' parent cache file of |g| (cache.rs cache_path): the hex of
 * SHA256("poseidon_hasher" || graph identifier || Feistel keys u64 LE || nodes u32 LE), as in
 * /var/tmp/filecoin-parents/v28-sdr-parent-<hex>.cache and the keys of parent_cache.json. Writes
 * 64 hex digits and a NUL. CUZK_ERR_INTERNAL only if OpenSSL fails.
 */
cuzk_status cuzk_fil_porep_parent_cache_id(char out[65],
                                           const cuzk_fil_porep_graph *g) CUZK_WARN_UNUSED_RESULT;

/* The 6 DRG parents of |node| (< nodes) in drgraph.rs order: nodes 0 and 1 have all parents 0;
 * otherwise node - 1 sits in slot 5 (API 1.0) or slot 0 (API >= 1.1). Pure, no failure. */
void cuzk_fil_porep_drg_parents(const cuzk_fil_porep_graph *g, uint32_t out[CUZK_FIL_DRG_DEGREE],
                                uint64_t node);

/* The Feistel permutation of graph.rs over [0, nodes * 8) with cycle walking; |index| must be in
 * range. Exposed for tests. */
cuzk_status cuzk_fil_porep_feistel_permute(const cuzk_fil_porep_graph *g, cuzk_fil_porep_hasher *h,
                                           uint64_t *out, uint64_t index) CUZK_WARN_UNUSED_RESULT;

/* The 8 expander parents of |node|: permute(node * 8 + i) / 8, the permuted value truncated to
 * u32 first under API 1.0. CUZK_ERR_INTERNAL if a Blake2b call fails. */
cuzk_status cuzk_fil_porep_exp_parents(const cuzk_fil_porep_graph *g, cuzk_fil_porep_hasher *h,
                                       uint32_t out[CUZK_FIL_EXP_DEGREE],
                                       uint64_t node) CUZK_WARN_UNUSED_RESULT;

/* All 14 parents of |node| as one parent-cache entry: 6 DRG then 8 expander. CUZK_ERR_INVALID_ARG
 * for node >= nodes. */
cuzk_status cuzk_fil_porep_parents(const cuzk_fil_porep_graph *g, cuzk_fil_porep_hasher *h,
                                   uint32_t out[CUZK_FIL_PARENTS],
                                   uint64_t node) CUZK_WARN_UNUSED_RESULT;

/* Challenge node of a 32-byte hash read as a little-endian integer: (h mod (nodes - 1)) + 1
 * (challenges.rs bigint_to_challenge; node 0 is never challenged). |nodes| >= 3. */
uint64_t cuzk_fil_porep_challenge_reduce(const uint8_t h[32], uint64_t nodes);

/* The |count| interactive challenges of partition |k|: SHA256(replica_id || seed || j u32 LE),
 * j = count * k + i. */
cuzk_status cuzk_fil_porep_challenges_interactive(uint64_t *out, size_t count, uint64_t nodes,
                                                  const uint8_t replica_id[32],
                                                  const uint8_t seed[32],
                                                  unsigned k) CUZK_WARN_UNUSED_RESULT;
/* The |count| NI-PoRep challenges of partition |k|:
 * SHA256("filecoin.io|PoRep|1|NonInteractive|1" || replica_id || comm_r || j u32 LE). */
cuzk_status cuzk_fil_porep_challenges_ni(uint64_t *out, size_t count, uint64_t nodes,
                                         const uint8_t replica_id[32], const uint8_t comm_r[32],
                                         unsigned k) CUZK_WARN_UNUSED_RESULT;

/* Synthetic challenges |first| .. |first| + |count| - 1: the ChaCha20 keystream (key = keyed
 * Blake2b-256 "…|Synthetic|1|Generation" over replica_id || comm_r, nonce "synth-porep\0")
 * at byte 32 * i, reduced with cuzk_fil_porep_challenge_reduce. */
cuzk_status cuzk_fil_porep_synth_challenges(uint64_t *out, uint64_t first, size_t count,
                                            uint64_t nodes, const uint8_t replica_id[32],
                                            const uint8_t comm_r[32]) CUZK_WARN_UNUSED_RESULT;
/* Indexes (into the synthetic challenges) selected for porep challenges |first| ..
 * |first| + |count| - 1: u32 LE words of the "…|Synthetic|1|Selection" ChaCha20 stream keyed over
 * replica_id || seed, each mod |num_synth|. */
cuzk_status cuzk_fil_porep_synth_select(uint64_t *out, uint64_t first, size_t count,
                                        uint64_t num_synth, const uint8_t replica_id[32],
                                        const uint8_t seed[32]) CUZK_WARN_UNUSED_RESULT;
/* Number of synthetic challenges of a sector: min(nodes, 2^18). */
uint64_t cuzk_fil_porep_num_synth(uint64_t nodes);

/*
 * The challenge nodes of partition |partition| of a RegisteredSealProof: interactive ids use
 * |seed| (the chain's interactive randomness), NI ids |comm_r|, synthetic ids |comm_r| for
 * generation and |seed| for selection. Writes info.challenges_per_partition nodes to |out| (room
 * for |max|); an argument the variant does not use may be NULL. CUZK_ERR_UNSUPPORTED for an
 * unknown id, CUZK_ERR_INVALID_ARG for a partition out of range, too little room or a NULL input
 * the variant needs.
 */
cuzk_status cuzk_fil_porep_challenges(uint64_t *out, size_t max, size_t *n,
                                      uint64_t seal_proof_type, const uint8_t replica_id[32],
                                      const uint8_t comm_r[32], const uint8_t seed[32],
                                      unsigned partition) CUZK_WARN_UNUSED_RESULT;

#endif

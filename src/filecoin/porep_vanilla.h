/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_FILECOIN_POREP_VANILLA_H
#define CUZK_FILECOIN_POREP_VANILLA_H

/*
 * PoRep C1 output (SealCommitPhase1Output): the vanilla proofs a PoRep C2 proves, read from the
 * forms they travel in (filecoin-circuits.md 7.1, 7.2):
 *   - serde_json, as filecoin-ffi hands it over, and Curio's wrapper around it
 *     ({"SectorNum", "Phase1Out": base64(serde_json C1), "SectorSize"}, what Curio puts in
 *     SubmitProofRequest.vanilla_proof for a PoRep);
 *   - bincode "raw C1" (storage-proofs level: partitions, proofs, comm_r, comm_d, replica_id,
 *     seed, ticket).
 * Each challenge's proof is kept as the circuit needs it: the tree D opening of the data leaf,
 * the tree R_last opening of the replica leaf, and 15 columns (the challenged node, 6 DRG and 8
 * expander parents) with their tree C openings, and the labeling and encoding proofs (which
 * the circuit does not take: it recomputes the labels from the columns).
 *
 * Every check that needs no graph is made on reading: counts and Merkle variants against the
 * published shape, canonical values, every path hashed to its root, one comm_d, one comm_c
 * (tree C root) and one comm_r_last for the whole sector, Poseidon2(comm_c, comm_r_last) =
 * comm_r, each column's leaf = the Poseidon hash of its rows, indices that agree (c_x, tree D,
 * tree R_last and every labeling proof name the challenge; a column's index is its opening's),
 * each labeling proof's parents equal to the parent columns' rows and its label
 * (create_label) equal to c_x's row, and replica leaf = last-layer label + data leaf. What
 * needs the graph (the challenges derived from replica_id and seed, the parent indices) is
 * cuzk_fil_porep_c1_check_graph's.
 */

#include "filecoin/porep_circuit.h"

/* What a RegisteredSealProof id fixes for its C1 output (cuzk_fil_porep_shape, plus the MerkleProof
 * layout). */
typedef struct {
    uint64_t seal_proof_type; /* 0 .. 19 */
    uint64_t sector_size, nodes;
    size_t layers;
    size_t partitions; /* interactive and synthetic; NI (15 .. 19) has its own count */
    size_t challenges; /* per partition */
    size_t depth_d;    /* tree D (binary SHA-256) levels: log2(nodes) */
    size_t depth;      /* tree R_last / C levels */
    size_t arities[CUZK_FIL_TREE_MAX_DEPTH];
    unsigned variant; /* MerkleProof of trees R_last / C: 0 Single, 1 Sub, 2 Top */
    size_t path_len;  /* siblings of one tree R_last / C path */
} cuzk_fil_porep_c1_shape;

/* Returns: CUZK_OK; CUZK_ERR_UNSUPPORTED (unknown id). */
cuzk_status cuzk_fil_porep_c1_shape_get(cuzk_fil_porep_c1_shape *out,
                                        uint64_t seal_proof_type) CUZK_WARN_UNUSED_RESULT;
/* The serde name of a RegisteredSealProof id ("StackedDrg2KiBV1_1", ...), and back. */
const char *cuzk_fil_seal_proof_name(uint64_t seal_proof_type);
cuzk_status cuzk_fil_seal_proof_from_name(uint64_t *out, const char *name) CUZK_WARN_UNUSED_RESULT;

/* A Merkle opening: leaf |index|, its value, the root, the siblings (leaf level first, arity - 1
 * per level; Sub / Top paths follow the base path). */
typedef struct {
    uint64_t index;
    cuzk_fr_t leaf, root;
    cuzk_fr_t *siblings;
} cuzk_fil_porep_opening;

/* A node's column: its label in every layer (rows[0] = layer 1), opened in tree C by the
 * Poseidon hash of the rows. */
typedef struct {
    uint32_t index;
    cuzk_fr_t *rows;
    cuzk_fil_porep_opening proof;
} cuzk_fil_porep_column;

typedef struct {
    cuzk_fil_porep_opening comm_d;      /* leaf: the data node (a Sha256 domain) */
    cuzk_fil_porep_opening comm_r_last; /* leaf: the replica node */
    cuzk_fil_porep_column c_x;
    cuzk_fil_porep_column drg[CUZK_FIL_POREP_DRG_PARENTS];
    cuzk_fil_porep_column exp[CUZK_FIL_POREP_EXP_PARENTS];
    /* Labeling proofs, one per layer: layer l's parents at label_parents[(l - 1) * 14] (6 at
     * layer 1, then 6 DRG parents in layer l and 8 expander parents in layer l - 1), its
     * layer_index and node. The encoding proof: the last layer's parents again. */
    cuzk_fr_t *label_parents;
    uint32_t label_layer[CUZK_FIL_POREP_MAX_LAYERS];
    uint64_t label_node[CUZK_FIL_POREP_MAX_LAYERS];
    cuzk_fr_t *enc_parents;
    uint32_t enc_layer;
    uint64_t enc_node;
} cuzk_fil_porep_challenge_proof;

typedef struct {
    cuzk_fil_porep_c1_shape shape;
    uint8_t comm_r[32], comm_d[32], replica_id[32], seed[32], ticket[32]; /* LE reprs */
    cuzk_fr_t comm_c, comm_r_last; /* the roots every opening agreed on */
    size_t npartitions;
    cuzk_fil_porep_challenge_proof *proofs; /* npartitions * shape.challenges, partition-major */
    cuzk_fr_t *storage;                     /* behind every siblings and rows pointer */
} cuzk_fil_porep_c1;

/* A C1 of |npartitions| partitions with every array allocated and zeroed. */
cuzk_status cuzk_fil_porep_c1_alloc(cuzk_fil_porep_c1 **out, const cuzk_fil_porep_c1_shape *shape,
                                    size_t npartitions) CUZK_WARN_UNUSED_RESULT;
void cuzk_fil_porep_c1_destroy(cuzk_fil_porep_c1 *c1);

/* The checks above on a filled-in C1 (every reader runs them; comm_c and comm_r_last are set
 * from the openings). The message names the partition, the challenge and what failed.
 * Returns: CUZK_OK; CUZK_ERR_FORMAT; CUZK_ERR_NOT_CANONICAL (comm_r, comm_d or replica_id);
 * CUZK_ERR_NOMEM. */
cuzk_status cuzk_fil_porep_c1_check(cuzk_fil_porep_c1 *c1) CUZK_WARN_UNUSED_RESULT;

/* Readers. Each fills a new C1 and runs cuzk_fil_porep_c1_check; nothing is returned on error.
 * Returns: CUZK_OK; CUZK_ERR_FORMAT (malformed, truncated, trailing bytes, a count or variant
 * against the shape, a failed check); CUZK_ERR_NOT_CANONICAL; CUZK_ERR_UNSUPPORTED (an unknown
 * registered proof); CUZK_ERR_INVALID_ARG (a wrapper's SectorSize against the proof's);
 * CUZK_ERR_NOMEM. */
/* serde_json SealCommitPhase1Output. */
cuzk_status cuzk_fil_porep_c1_from_json(cuzk_fil_porep_c1 **out, const char *json,
                                        size_t len) CUZK_WARN_UNUSED_RESULT;
/* Curio's wrapper; |sector_num| (may be NULL) gets SectorNum. */
cuzk_status cuzk_fil_porep_c1_from_curio(cuzk_fil_porep_c1 **out, uint64_t *sector_num,
                                         const char *json, size_t len) CUZK_WARN_UNUSED_RESULT;
/* bincode raw C1 of RegisteredSealProof |seal_proof_type| (the bytes do not name it). */
cuzk_status cuzk_fil_porep_c1_from_bincode(cuzk_fil_porep_c1 **out, uint64_t seal_proof_type,
                                           const uint8_t *bytes,
                                           size_t len) CUZK_WARN_UNUSED_RESULT;

/* Internal (tests): the readers with the checks skipped, and any count of whole partitions up
 * to the shape's taken, when |check| is false (layouts of sizes no synthetic sector reaches can
 * then be read back and compared). */
cuzk_status cuzk__fil_porep_c1_decode_json(cuzk_fil_porep_c1 **out, const char *json, size_t len,
                                           bool check) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk__fil_porep_c1_decode_bincode(cuzk_fil_porep_c1 **out, uint64_t seal_proof_type,
                                              const uint8_t *bytes, size_t len,
                                              bool check) CUZK_WARN_UNUSED_RESULT;

/* Writers, the inverses of the readers. *out is cuzk_alloc'd (the JSON forms NUL-terminated, |len|
 * without the NUL). Returns: CUZK_OK; CUZK_ERR_NOMEM. */
cuzk_status cuzk_fil_porep_c1_to_json(const cuzk_fil_porep_c1 *c1, char **out,
                                      size_t *len) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_fil_porep_c1_to_curio(const cuzk_fil_porep_c1 *c1, uint64_t sector_num, char **out,
                                       size_t *len) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_fil_porep_c1_to_bincode(const cuzk_fil_porep_c1 *c1, uint8_t **out,
                                         size_t *len) CUZK_WARN_UNUSED_RESULT;

/* The checks that need the graph (porep_c1_graph.c): each partition's challenges are the ones
 * Filecoin derives for the proof's variant (interactive: replica_id and seed; NI: replica_id and
 * comm_r; synthetic: both), in order, and each challenged node's 6 DRG and 8 expander parent
 * columns are the graph's parents of the node, in order. Partitions on |threads| threads.
 * Returns: CUZK_OK; CUZK_ERR_FORMAT (the message names the partition, challenge and parent);
 * CUZK_ERR_INTERNAL (OpenSSL); CUZK_ERR_NOMEM. */
cuzk_status cuzk_fil_porep_c1_check_graph(const cuzk_fil_porep_c1 *c1,
                                          unsigned threads) CUZK_WARN_UNUSED_RESULT;
/* prover_id of a miner actor id: unsigned LEB128, zero-padded to 32 bytes (filecoin-circuits.md
 * 3.2). */
void cuzk_fil_prover_id(uint8_t out[32], uint64_t miner_id);
/* replica_id = SHA256(prover_id || sector_id BE || ticket || comm_d || porep_id), Fr-safe: the
 * C1's replica_id must be the one of this miner's sector. CUZK_ERR_FORMAT otherwise. */
cuzk_status cuzk_fil_porep_c1_check_replica(const cuzk_fil_porep_c1 *c1, uint64_t miner_id,
                                            uint64_t sector_id) CUZK_WARN_UNUSED_RESULT;

/* Partition |k| of a checked C1 as the circuit's witness (its own storage).
 * Returns: CUZK_OK; CUZK_ERR_INVALID_ARG (k); CUZK_ERR_NOT_CANONICAL; CUZK_ERR_NOMEM. */
cuzk_status cuzk_fil_porep_partition_from_c1(cuzk_fil_porep_partition **out,
                                             const cuzk_fil_porep_c1 *c1,
                                             size_t k) CUZK_WARN_UNUSED_RESULT;

/*
 * A whole synthetic sector of a size with at most 2^18 nodes (2 KiB, 8 MiB), replicated for
 * real: random data (seeded by |seed|), tree D and comm_d, replica_id of miner
 * CUZK_FIL_POREP_SYNTH_MINER's sector |seed| mod 2^32 (with a random ticket and seed), every
 * node's label in every layer computed with cuzk_fil_porep_create_label from its parents, full
 * trees C and R_last, comm_r, and the C1 of |npartitions| partitions. |challenges|
 * (npartitions * shape.challenges nodes in 1 .. nodes - 1) or NULL: the ones Filecoin derives
 * for the proof's variant. |parents| or NULL: the PoRep graph of the proof (a hook of the same
 * form, cuzk__fil_porep_parents_synthetic, makes a sector consistent in itself for tests).
 * With both NULL the C1 passes every check, cuzk_fil_porep_c1_check_graph's and
 * cuzk_fil_porep_c1_check_replica's included.
 * Returns: CUZK_OK; CUZK_ERR_INVALID_ARG (size, a challenge or a parent out of range);
 * CUZK_ERR_NOMEM; CUZK_ERR_INTERNAL (OpenSSL).
 */
#define CUZK_FIL_POREP_SYNTH_MINER 1000
cuzk_status cuzk_fil_porep_c1_synthetic(cuzk_fil_porep_c1 **out, uint64_t seal_proof_type,
                                        uint64_t seed, size_t npartitions,
                                        const uint64_t *challenges,
                                        cuzk_fil_porep_parents_fn parents,
                                        void *ctx) CUZK_WARN_UNUSED_RESULT;

#endif

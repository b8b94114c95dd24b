/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GADGETS_MERKLE_H
#define CUZK_GADGETS_MERKLE_H

/*
 * Merkle inclusion as rust-fil-proofs builds it (storage-proofs-core/src/gadgets/{por.rs,
 * insertion.rs}), plus native trees to produce test data.
 *
 * A tree shape is a list of per-level arities, leaf level first (2, 4 or 8 each): a base-8 tree
 * of 64 leaves is {8, 8}; the 32 GiB shape (base 8, sub 8) is {8, ..., 8}; 64 GiB adds a top
 * level {..., 2}. Leaf index bits are consumed least significant first, log2(arity) per level,
 * so the packed path of a power-of-two tree equals the leaf index. Trees hash with Poseidon
 * (MerkleTree domain tag, arity of the level) or, for arity 2 only, SHA-256 of the two 32-byte
 * reprs with the top two bits of the digest cleared (filecoin-hashers Sha256Function).
 */

#include "cuzk/poseidon.h"
#include "gadgets/num.h"

typedef enum {
    CUZK_MERKLE_POSEIDON = 0,
    CUZK_MERKLE_SHA256 = 1,
} cuzk_merkle_hash;

#define CUZK_MERKLE_MAX_DEPTH 64

/* ---- native trees -------------------------------------------------------------------------- */

typedef struct {
    cuzk_merkle_hash hash;
    size_t depth;
    size_t arity[CUZK_MERKLE_MAX_DEPTH];         /* per level, leaves first */
    size_t n_leaves;                             /* product of the arities */
    cuzk_fr_t *level[CUZK_MERKLE_MAX_DEPTH + 1]; /* level[0] = leaves, level[depth][0] = root */
} cuzk_merkle_tree;

/* Hashes one node from its |arity| children. Returns: CUZK_ERR_INVALID_ARG for an arity the hash
 * does not support (Poseidon: 2, 4, 8, 11, 16, 24, 36; SHA-256: 2); CUZK_ERR_NOMEM. */
cuzk_status cuzk_merkle_hash_node(cuzk_fr_t *out, cuzk_merkle_hash hash, size_t arity,
                                  const cuzk_fr_t *children) CUZK_WARN_UNUSED_RESULT;

/* Builds the complete tree of |depth| levels with |arities| over |leaves| (product of arities
 * elements, at most 2^32). Free with cuzk_merkle_tree_destroy.
 * Returns: CUZK_OK; CUZK_ERR_INVALID_ARG (bad shape); CUZK_ERR_NOMEM. */
cuzk_status cuzk_merkle_tree_build(cuzk_merkle_tree **out, cuzk_merkle_hash hash,
                                   const size_t *arities, size_t depth,
                                   const cuzk_fr_t *leaves) CUZK_WARN_UNUSED_RESULT;
void cuzk_merkle_tree_destroy(cuzk_merkle_tree *t);
const cuzk_fr_t *cuzk_merkle_tree_root(const cuzk_merkle_tree *t);
/* Number of sibling elements of one path: sum of (arity - 1) over the levels. */
size_t cuzk_merkle_path_len(const size_t *arities, size_t depth);
/* The inclusion path of leaf |index|: per level, leaves first, the arity - 1 siblings in order
 * (the node itself left out). |siblings| has cuzk_merkle_path_len() elements. */
void cuzk_merkle_tree_path(const cuzk_merkle_tree *t, uint64_t index, cuzk_fr_t *siblings);
/* Recomputes the root from a leaf, its index and its path (what the circuit checks). */
cuzk_status cuzk_merkle_root_from_path(cuzk_fr_t *root, cuzk_merkle_hash hash,
                                       const size_t *arities, size_t depth, const cuzk_fr_t *leaf,
                                       uint64_t index,
                                       const cuzk_fr_t *siblings) CUZK_WARN_UNUSED_RESULT;

/*
 * A tree of any size whose leaves are all |fill| except the |n| given ones (indices[i] with value
 * leaves[i]; an index given twice must carry the same value): its root and the inclusion path of
 * each given leaf, path i at siblings + i * cuzk_merkle_path_len() in cuzk_merkle_tree_path's
 * order. The untouched subtrees of a level share one value, so the work is n * depth hashes:
 * test and benchmark witnesses for trees of 2^30 leaves (32 GiB sectors).
 * Returns: CUZK_OK; CUZK_ERR_INVALID_ARG (bad shape, no leaves, an index outside the tree, one
 * index with two values); CUZK_ERR_NOMEM.
 */
cuzk_status cuzk_merkle_sparse_paths(cuzk_fr_t *root, cuzk_fr_t *siblings, cuzk_merkle_hash hash,
                                     const size_t *arities, size_t depth, const cuzk_fr_t *fill,
                                     size_t n, const uint64_t *indices,
                                     const cuzk_fr_t *leaves) CUZK_WARN_UNUSED_RESULT;

/* ---- gadgets -------------------------------------------------------------------------------- */

/* insertion.rs pick: c = cond ? a : b, with (b - a) * cond = b - c (1 constraint). */
cuzk_status cuzk_merkle_pick(cuzk_cs *cs, cuzk_num *out, cuzk_bool cond, const cuzk_num *a,
                             const cuzk_num *b) CUZK_WARN_UNUSED_RESULT;

/* insertion.rs insert_2 / insert_4 / insert_8: |out| (arity elements) = |elements| (arity - 1)
 * with |element| inserted at the position whose bits are |bits| (log2 arity allocated bits,
 * least significant first). Constraints: 2 / 8 / 22 (insert_8 adds one nor and one and). */
cuzk_status cuzk_merkle_insert(cuzk_cs *cs, cuzk_num *out, size_t arity, const cuzk_num *element,
                               const cuzk_bool *bits,
                               const cuzk_num *elements) CUZK_WARN_UNUSED_RESULT;

/* The hash of one level (HashFunction::hash_multi_leaf_circuit): Poseidon-|arity| of |in|, or
 * for SHA-256 (arity 2) to_bits_le of both, byte-wise bit reversal, SHA-256, 254 bits packed. */
cuzk_status cuzk_merkle_hash_circuit(cuzk_cs *cs, cuzk_num *out, cuzk_merkle_hash hash,
                                     size_t arity, const cuzk_num *in) CUZK_WARN_UNUSED_RESULT;

/*
 * PoRCircuit::synthesize (por.rs): allocate the leaf; per level allocate log2(arity) index
 * bits and arity - 1 siblings, insert, hash; pack_into_inputs(all index bits) (one public input
 * per 254 bits); allocate the root and enforce computed * 1 = root; when !|private_root| also
 * inputize the root. Values (|leaf|, |siblings|, |root|) may be NULL in KEYGEN mode.
 * Per Poseidon level of arity 8: 3 + 22 + 505 = 530 constraints; overhead 2 (+1 public root).
 * Returns: CUZK_OK; CUZK_ERR_INVALID_ARG (bad shape); any status of |cs|.
 */
cuzk_status cuzk_merkle_por_circuit(cuzk_cs *cs, cuzk_merkle_hash hash, const size_t *arities,
                                    size_t depth, const cuzk_fr_t *leaf, uint64_t index,
                                    const cuzk_fr_t *siblings, const cuzk_fr_t *root,
                                    bool private_root) CUZK_WARN_UNUSED_RESULT;

/* The same with the root already allocated (Root::Var: nothing allocated for it) and private:
 * how the PoSt circuit checks each challenge against its sector's comm_r_last. */
cuzk_status cuzk_merkle_por_circuit_var_root(cuzk_cs *cs, cuzk_merkle_hash hash,
                                             const size_t *arities, size_t depth,
                                             const cuzk_fr_t *leaf, uint64_t index,
                                             const cuzk_fr_t *siblings,
                                             const cuzk_num *root) CUZK_WARN_UNUSED_RESULT;

/*
 * por_no_challenge_input (por.rs): the inclusion of the allocated |leaf| under the allocated
 * |root| with the caller's index bits (|challenge_bits|, least significant first, sum of
 * log2(arity) bits) and allocated |siblings| (cuzk_merkle_path_len elements); per level insert +
 * hash, then computed * 1 = root. No allocations of its own besides the gadgets'.
 */
cuzk_status cuzk_merkle_por_no_challenge_input(cuzk_cs *cs, cuzk_merkle_hash hash,
                                               const size_t *arities, size_t depth,
                                               const cuzk_bool *challenge_bits,
                                               const cuzk_num *leaf, const cuzk_num *siblings,
                                               const cuzk_num *root) CUZK_WARN_UNUSED_RESULT;

/*
 * Built-in circuit "poseidon-merkle:DEPTH" (cuzk_circuit_fn, registered in circuits.c): the
 * public PoRCircuit of a base-8 Poseidon tree of DEPTH levels (8^DEPTH leaves). Private: leaf,
 * 3 DEPTH index bits, 7 DEPTH siblings, all derived from params->seed. Public inputs (after ONE):
 * the packed leaf index, the root. Constraints: 530 DEPTH + 3 (+ 3 input constraints).
 */
#define CUZK_POSEIDON_MERKLE_MAX_DEPTH 21
cuzk_status cuzk_circuit_poseidon_merkle(cuzk_cs *cs, const void *params) CUZK_WARN_UNUSED_RESULT;

#endif

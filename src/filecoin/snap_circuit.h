/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_FILECOIN_SNAP_CIRCUIT_H
#define CUZK_FILECOIN_SNAP_CIRCUIT_H

/*
 * The SnapDeals (EmptySectorUpdate) circuit (storage-proofs-update src/circuit.rs and
 * gadgets.rs), exact to the allocation and the constraint so that the published v28 parameters
 * fit (filecoin-circuits.md 1.4, 3.3, 4.5, 4.8). One partition proves, for each of its
 * challenges c (derived in the circuit from comm_r_new and the partition index k), that
 * leaf_r_new = leaf_r_old + leaf_d_new * rho(c) and that the three leaves open tree R old, tree R
 * new and tree D new; tree D is opened up to the partition's apex leaves, whose apex tree is
 * opened once to comm_d_new. Public inputs: k | h_select << partition_bits, comm_r_old,
 * comm_d_new, comm_r_new.
 *
 * Synthesis may use several threads (cuzk_fil_snap_circuit_mt). The prefix (public inputs, phi,
 * the comm_r checks, the apex tree and partition path, gen_challenge_bits: 58 % of the
 * constraints at 8 MiB, 7.3 % at 32 GiB, nearly all of it the apex tree's 127 SHA-256 hash2)
 * runs on the caller's thread, except the apex tree's first row, whose hashes are independent;
 * the challenges, which only read the prefix's variables, run on threads. Each parallel part
 * is synthesised into a system of its own continuing a fork of the system so far
 * (cuzk_cs_fork_create / cuzk_cs_create_forked, include/cuzk/r1cs.h: the variables before the
 * fork keep their indices there, their values read from a copy) and appended in order with
 * cuzk_cs_extend, which renumbers only the part's own variables; the result is bit for bit the
 * one-thread system. The built-in "fil-snap:ID" and the engine's SnapDeals jobs synthesise on
 * cuzk_circuit_params.threads.
 */

#include "cuzk/filecoin.h"
#include "cuzk/r1cs.h"

#define CUZK_FIL_SNAP_NUM_HS 6

typedef struct {
    uint64_t update_proof_type; /* RegisteredUpdateProof id */
    uint64_t sector_size;       /* bytes */
    size_t partitions;          /* partition_count */
    size_t challenge_count;     /* challenges per partition */
    size_t apex_leaves;         /* apex leaves per partition */
    unsigned challenge_bits;    /* log2(nodes) */
    unsigned partition_bits;    /* log2(partitions) */
    unsigned apex_bits;         /* log2(apex_leaves) */
    unsigned hs[CUZK_FIL_SNAP_NUM_HS];
    unsigned h_default; /* hs[3] */
    size_t depth;       /* tree R levels */
    size_t arities[CUZK_FIL_TREE_MAX_DEPTH];
} cuzk_fil_snap_shape;

/* The shape of RegisteredUpdateProof |update_proof_type| (0 .. 4 = StackedDrg 2 KiB, 8 MiB,
 * 512 MiB, 32 GiB, 64 GiB V1; the registry has no other ids), from filecoin-circuits.md 1.4's
 * rules. Returns: CUZK_OK; CUZK_ERR_UNSUPPORTED (unknown id). */
cuzk_status cuzk_fil_snap_shape_get(cuzk_fil_snap_shape *out,
                                    uint64_t update_proof_type) CUZK_WARN_UNUSED_RESULT;

/* Internal, tests only: when set, the shape cuzk_fil_snap_shape_get gives for id 0 (so that an
 * engine test can prove whole SnapDeals jobs on a circuit of ~0.1 M constraints instead of 2 KiB's
 * 1.7 M, whose test setup takes minutes). Never set outside tests. */
extern const cuzk_fil_snap_shape *cuzk__fil_snap_test_shape;

/* Internal: whether |shape| is one the circuit can take (power-of-two counts, tree R's index
 * bits = challenge_bits, at most 16 partitions and 128 apex leaves, h_default in hs). */
bool cuzk__fil_snap_shape_valid(const cuzk_fil_snap_shape *shape);

/* Siblings of one tree R path, and of one tree D path from a challenged leaf to its apex leaf. */
size_t cuzk_fil_snap_path_len_r(const cuzk_fil_snap_shape *shape);
size_t cuzk_fil_snap_path_len_d(const cuzk_fil_snap_shape *shape);

/* Digests per partition: ceil(challenges / (254 / (challenge_bits - partition_bits))). */
size_t cuzk_fil_snap_digests(const cuzk_fil_snap_shape *shape);

/* The model of filecoin-circuits.md 4.8 (snap(), without the 5 input constraints). */
size_t cuzk_fil_snap_model_constraints(const cuzk_fil_snap_shape *shape);

/* The witness of one partition, as the circuit takes it (all values Montgomery Fr). */
typedef struct {
    cuzk_fr_t comm_r_old, comm_d_new, comm_r_new; /* public */
    unsigned h;                                   /* one of shape->hs */
    cuzk_fr_t comm_c, root_r_old, root_r_new;
    const cuzk_fr_t *apex_leaves;    /* shape->apex_leaves */
    const cuzk_fr_t *partition_path; /* partition_bits siblings, apex root's level first */
    const cuzk_fr_t *leaves_r_old;   /* challenge_count */
    const cuzk_fr_t *leaves_d_new;   /* challenge_count */
    const cuzk_fr_t *paths_r_old;    /* challenge_count * cuzk_fil_snap_path_len_r */
    const cuzk_fr_t *paths_r_new;    /* challenge_count * cuzk_fil_snap_path_len_r */
    const cuzk_fr_t *paths_d;        /* challenge_count * cuzk_fil_snap_path_len_d */
} cuzk_fil_snap_witness;

/*
 * Synthesises partition |k| of |shape| into |cs| in circuit.rs's order (filecoin-circuits.md
 * 4.5). |w| may be NULL when |cs| keeps no values (KEYGEN); the challenges are what the circuit
 * derives from w->comm_r_new and |k|, so the paths must be those of the challenges Filecoin
 * derives (cuzk_fil_snap_challenges). Constraints: cuzk_fil_snap_model_constraints.
 * Returns: CUZK_OK; CUZK_ERR_INVALID_ARG (bad shape, k, h, values missing); any status of |cs|.
 */
cuzk_status cuzk_fil_snap_circuit(cuzk_cs *cs, const cuzk_fil_snap_shape *shape, uint64_t k,
                                  const cuzk_fil_snap_witness *w) CUZK_WARN_UNUSED_RESULT;
/* The same on up to |threads| threads (0 or 1: this one), bit for bit the same system (variable
 * numbering, a, b, c, densities, CHECK's first unsatisfied row): the prefix before circuit.rs's
 * per-challenge loop on this thread but for the apex tree's first row (one system per hash,
 * continuing a fork of |cs|), then one such system per challenge; each part appended in order
 * with cuzk_cs_extend, at most threads + 1 parts ahead of the merge.
 * KEYGEN, which cuzk_cs_extend refuses, stays on this thread. Each fork copies the values so far
 * (PROVE, PROVE_AB, CHECK; 32 bytes a variable, up to ~0.19 GB: the challenges' fork) while its
 * parts run. Returns: as cuzk_fil_snap_circuit; the status of the first part that failed;
 * CUZK_ERR_INTERNAL (no thread could be started). */
cuzk_status cuzk_fil_snap_circuit_mt(cuzk_cs *cs, const cuzk_fil_snap_shape *shape, uint64_t k,
                                     const cuzk_fil_snap_witness *w,
                                     unsigned threads) CUZK_WARN_UNUSED_RESULT;

/* The challenges of partition |k| (challenges.rs; filecoin-circuits.md 3.3): |out| has
 * shape->challenge_count node indices. This and cuzk_fil_snap_rho hash with the Poseidon-2
 * Custom(1) constants, which the caller must have built (cuzk_poseidon_constants_get succeeded,
 * as computing phi does): they cannot report their allocation failing. */
void cuzk_fil_snap_challenges(uint64_t *out, const cuzk_fil_snap_shape *shape,
                              const cuzk_fr_t *comm_r_new, uint64_t k);

/* rho(c) = Poseidon2_Custom(1)(phi, c >> (challenge_bits - h)). */
void cuzk_fil_snap_rho(cuzk_fr_t *out, const cuzk_fil_snap_shape *shape, const cuzk_fr_t *phi,
                       unsigned h, uint64_t c);

/*
 * A synthetic partition: the witness with its storage. Derived from |seed|: comm_c, a set S of
 * nodes with random new data (tree D, SHA-256, 254-bit digests) and random old replica values
 * (tree R old, Poseidon, the published shape); every other node has data 0 and one random
 * replica fill value, so it encodes to itself and trees R old/new and D are sparse
 * (cuzk_merkle_sparse_paths: any sector size). S is every node of sectors up to 512 nodes, 16
 * random nodes in each partition above (challenged nodes then mostly hold data 0); S and the
 * trees depend on |seed| only, so the partitions of one seed are those of one sector. comm_r =
 * Poseidon2(comm_c, root) (MerkleTree tag), phi, rho and the challenges as Filecoin derives them,
 * label_r_new = label_r_old + label_d_new * rho on S. |k| is reduced modulo the partition count; h
 * = h_default.
 */
typedef struct {
    cuzk_fil_snap_shape shape;
    uint64_t k;
    uint64_t *challenges; /* challenge_count */
    cuzk_fil_snap_witness w;
    cuzk_fr_t *storage; /* behind w's arrays */
} cuzk_fil_snap_partition;

cuzk_status cuzk_fil_snap_partition_synthetic(cuzk_fil_snap_partition **out,
                                              uint64_t update_proof_type, uint64_t k, uint64_t seed,
                                              unsigned threads) CUZK_WARN_UNUSED_RESULT;
void cuzk_fil_snap_partition_destroy(cuzk_fil_snap_partition *p);
/* Internal: the same for any shape the circuit accepts (tests use small ones with several
 * partitions); shape->h_default is the h. */
cuzk_status cuzk__fil_snap_partition_synthetic_shape(cuzk_fil_snap_partition **out,
                                                     const cuzk_fil_snap_shape *shape, uint64_t k,
                                                     uint64_t seed) CUZK_WARN_UNUSED_RESULT;

/* Internal: the writable arrays of a partition's storage (w's pointers are the same). */
typedef struct {
    cuzk_fr_t *apex, *ppath, *leaves_r_old, *leaves_d, *paths_r_old, *paths_r_new, *paths_d;
} cuzk__fil_snap_arrays;

/* Internal: a partition of |shape| (k reduced modulo the partitions, h = h_default) with every
 * array allocated and zeroed, their writable views in |arrays|. */
cuzk_status cuzk__fil_snap_partition_alloc(cuzk_fil_snap_partition **out,
                                           const cuzk_fil_snap_shape *shape, uint64_t k,
                                           cuzk__fil_snap_arrays *arrays) CUZK_WARN_UNUSED_RESULT;

/*
 * SnapDeals vanilla proofs, bincode (filecoin-circuits.md 7.2; storage-proofs-update
 * vanilla.rs): one PartitionProof per partition = comm_c; u64 n + n apex leaves (TreeD domains);
 * u64 n + n ChallengeProofs, each proof_r_old (MerkleProof of tree R: Single, Sub or Top as the
 * sector size has it), proof_d_new (Single, binary SHA-256 tree D from the leaf to comm_d_new),
 * proof_r_new. Partition |k| of RegisteredUpdateProof |update_proof_type| is decoded against
 * the public |comm_r_old|, |comm_d_new|, |comm_r_new| (32-byte LE reprs) and |h| (0: h_default)
 * into the circuit's witness, with every check a prover can make before it spends a proof:
 * counts, MerkleProof variants and path lengths against the shape, every 32-byte value a
 * canonical field element (SHA-256 tree D domains too: the circuit reads them as Fr; computed
 * nodes are 254-bit by the truncation), each path's leaf index equal to the challenge the circuit
 * derives (cuzk_fil_snap_challenges), every tree R path hashed to challenge 0's root and
 * Poseidon2(comm_c, root) = comm_r (old and new), every tree D path hashed to comm_d_new through
 * the apex leaf its challenge selects, its apex-level siblings those of the apex tree and its top
 * partition_bits siblings the same for every challenge (the circuit's partition path), the apex
 * root hashed over that path to comm_d_new, label_r_new = label_r_old + label_d_new * rho(c),
 * no trailing bytes.
 * Returns: CUZK_OK; CUZK_ERR_FORMAT (truncated, malformed, or a check above failed; the message
 * names the partition and the challenge); CUZK_ERR_NOT_CANONICAL (a value, or a public comm, not
 * below r); CUZK_ERR_INVALID_ARG (k, h); CUZK_ERR_UNSUPPORTED (unknown id); CUZK_ERR_NOMEM.
 */
cuzk_status cuzk_fil_snap_partition_from_vanilla(
    cuzk_fil_snap_partition **out, uint64_t update_proof_type, uint64_t k,
    const uint8_t comm_r_old[32], const uint8_t comm_d_new[32], const uint8_t comm_r_new[32],
    unsigned h, const uint8_t *proof, size_t len) CUZK_WARN_UNUSED_RESULT;
/* Internal: the same for any shape the circuit accepts (tree R proofs Single unless the sector
 * size is 32 GiB (Sub) or 64 GiB (Top)). */
cuzk_status cuzk__fil_snap_partition_from_vanilla_shape(
    cuzk_fil_snap_partition **out, const cuzk_fil_snap_shape *shape, uint64_t k,
    const uint8_t comm_r_old[32], const uint8_t comm_d_new[32], const uint8_t comm_r_new[32],
    unsigned h, const uint8_t *proof, size_t len) CUZK_WARN_UNUSED_RESULT;

/* Writes |p| as a PartitionProof (the inverse of the above; tree D paths rebuilt from the
 * witness: the lower levels, the apex tree's, the partition path). *out is cuzk_alloc'd.
 * Returns: CUZK_OK; CUZK_ERR_NOMEM. */
cuzk_status cuzk_fil_snap_vanilla_encode(const cuzk_fil_snap_partition *p, uint8_t **out,
                                         size_t *len) CUZK_WARN_UNUSED_RESULT;

/* The 4 public inputs of |p| (k_and_h_select, comm_r_old, comm_d_new, comm_r_new). */
void cuzk_fil_snap_public_inputs(cuzk_fr_t out[4], const cuzk_fil_snap_partition *p);

/* Built-in circuit "fil-snap:ID" (cuzk_circuit_fn): the circuit of RegisteredUpdateProof ID over
 * the synthetic partition (ID, k = seed mod partitions, seed), or over params.data's partition;
 * KEYGEN needs no witness. Synthesised on params.threads (cuzk_fil_snap_circuit_mt). */
cuzk_status cuzk_circuit_fil_snap(cuzk_cs *cs, const void *params) CUZK_WARN_UNUSED_RESULT;

#endif

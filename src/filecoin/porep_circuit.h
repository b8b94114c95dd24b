/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_FILECOIN_POREP_CIRCUIT_H
#define CUZK_FILECOIN_POREP_CIRCUIT_H

/*
 * The PoRep C2 (StackedDrg) circuit, one partition (storage-proofs-porep src/stacked/circuit/
 * {proof.rs,params.rs,column.rs,column_proof.rs,create_label.rs,hash.rs}), exact to the
 * allocation and the constraint so that the published v28 parameters fit (filecoin-circuits.md
 * 1.1, 3.1, 3.5, 4.2, 4.3, 4.6-4.9). Per challenge the circuit opens the data leaf in tree D
 * (SHA-256, binary), the 6 DRG and 8 expander parents' columns in tree C, recomputes the
 * challenged node's L labels with create_label from the parents' rows, opens key + data in tree
 * R_last and the challenged node's column hash in tree C. Public inputs (after ONE): replica_id,
 * comm_d, comm_r, then per challenge [comm_d path, 6 DRG parents, 8 expander parents, challenge,
 * comm_r_last path, comm_c path] (3 + 18 c).
 */

#include "cuzk/filecoin.h"
#include "cuzk/r1cs.h"
#include "gadgets/num.h"

#define CUZK_FIL_POREP_DRG_PARENTS 6
#define CUZK_FIL_POREP_EXP_PARENTS 8
#define CUZK_FIL_POREP_PARENTS 14
#define CUZK_FIL_POREP_TOTAL_PARENTS 37 /* parents hashed by create_label */
#define CUZK_FIL_POREP_MAX_LAYERS 11

typedef struct {
    uint64_t seal_proof_type; /* RegisteredSealProof id */
    uint64_t sector_size;     /* bytes */
    uint64_t nodes;           /* sector_size / 32 */
    unsigned node_bits;       /* log2(nodes): tree D levels */
    size_t layers;            /* 2 (test sizes) or 11 */
    size_t challenges;        /* challenges per partition */
    size_t partitions;
    size_t depth; /* tree R_last / C levels */
    size_t arities[CUZK_FIL_TREE_MAX_DEPTH];
} cuzk_fil_porep_shape;

/* The shape of RegisteredSealProof |seal_proof_type| (0 .. 19: V1, V1_1, V1_1 synthetic, V1_2
 * non-interactive; filecoin-circuits.md 1.1, 1.2). Every id of one sector size has the same
 * circuit; only the partition count differs (non-interactive: 13 / 126).
 * Returns: CUZK_OK; CUZK_ERR_UNSUPPORTED (unknown id). */
cuzk_status cuzk_fil_porep_shape_get(cuzk_fil_porep_shape *out,
                                     uint64_t seal_proof_type) CUZK_WARN_UNUSED_RESULT;

/* Internal, tests only: when set, the shape cuzk_fil_porep_shape_get gives for id 0. */
extern const cuzk_fil_porep_shape *cuzk__fil_porep_test_shape;

/* Internal: whether the circuit takes |shape| (nodes = 2^node_bits = product of the arities,
 * arities 2/4/8, layers 2 or 11, 0 < challenges, node_bits <= 62). */
bool cuzk__fil_porep_shape_valid(const cuzk_fil_porep_shape *shape);

/* Siblings of one tree R_last / tree C path. */
size_t cuzk_fil_porep_path_len(const cuzk_fil_porep_shape *shape);
/* Public inputs after ONE: 3 + 18 challenges. */
size_t cuzk_fil_porep_num_inputs(const cuzk_fil_porep_shape *shape);
/* The model of filecoin-circuits.md 4.8 (porep(), without the input constraints). */
size_t cuzk_fil_porep_model_constraints(const cuzk_fil_porep_shape *shape);

/*
 * The witness of one partition (values Montgomery Fr). Per challenge i (shape->challenges of
 * them), with P = CUZK_FIL_POREP_PARENTS, L = shape->layers, lp = cuzk_fil_porep_path_len:
 * challenges[i], data_leaves[i], paths_d[i * node_bits ..] (tree D siblings, leaf level first),
 * parents[i * P ..] (6 DRG then 8 expander node indices), parent_rows[(i * P + j) * L + l]
 * (row l = layer l + 1 of parent j's column), parent_paths[(i * P + j) * lp ..] (tree C),
 * paths_c[i * lp ..] (the challenged node's column in tree C), paths_r[i * lp ..] (its replica
 * node key + data in tree R_last).
 */
typedef struct {
    cuzk_fr_t replica_id, comm_d, comm_r; /* public */
    cuzk_fr_t comm_r_last, comm_c;
    const uint64_t *challenges;
    const uint64_t *parents;
    const cuzk_fr_t *data_leaves;
    const cuzk_fr_t *paths_d;
    const cuzk_fr_t *parent_rows;
    const cuzk_fr_t *parent_paths;
    const cuzk_fr_t *paths_c;
    const cuzk_fr_t *paths_r;
} cuzk_fil_porep_witness;

/*
 * Synthesises one partition of |shape| into |cs| in proof.rs / params.rs order
 * (filecoin-circuits.md 4.2). |w| may be NULL when |cs| keeps no values (KEYGEN).
 * Constraints: cuzk_fil_porep_model_constraints; inputs: cuzk_fil_porep_num_inputs.
 * Returns: CUZK_OK; CUZK_ERR_INVALID_ARG (bad shape, witness missing); CUZK_ERR_NOMEM; any
 * status of |cs|.
 */
cuzk_status cuzk_fil_porep_circuit(cuzk_cs *cs, const cuzk_fil_porep_shape *shape,
                                   const cuzk_fil_porep_witness *w) CUZK_WARN_UNUSED_RESULT;
/* The same on |threads| threads: the prefix (replica_id, comm_d, comm_r, the comm_r check: 571
 * constraints) here, then each challenge in a system of its own continuing the prefix's fork
 * (cuzk_cs_create_forked), appended in order (cuzk__fil_synth_ranges): bit for bit the
 * sequential system. Sequential below 2 threads or 2 challenges and in KEYGEN mode. */
cuzk_status cuzk_fil_porep_circuit_mt(cuzk_cs *cs, const cuzk_fil_porep_shape *shape,
                                      const cuzk_fil_porep_witness *w,
                                      unsigned threads) CUZK_WARN_UNUSED_RESULT;

/* The public inputs of |w| (cuzk_fil_porep_num_inputs of them, ONE not included), as
 * generate_public_inputs in proof.rs computes them. */
void cuzk_fil_porep_public_inputs(cuzk_fr_t *out, const cuzk_fil_porep_shape *shape,
                                  const cuzk_fil_porep_witness *w);

/* ---- labels (porep_label.c) ---------------------------------------------------------------- */

/*
 * create_label (storage-proofs-porep vanilla create_label; filecoin-circuits.md 3.5): SHA-256 of
 * replica_id (32 B repr) || layer u32 BE || node u64 BE || zeros to 64 B || the 37 expanded
 * parent labels (32 B reprs), truncated to 254 bits; node 0 hashes the 64 header bytes alone.
 * |parents| holds the node's own 14 parent values for this layer (layer 1: the 6 DRG parents'
 * layer-1 labels, the other 8 ignored; layer l >= 2: 6 DRG parents' layer-l labels, then 8 expander
 * parents' layer-(l-1) labels).
 */
void cuzk_fil_porep_create_label(cuzk_fr_t *out, const cuzk_fr_t *replica_id, uint32_t layer,
                                 uint64_t node, const cuzk_fr_t parents[CUZK_FIL_POREP_PARENTS]);

/*
 * The create_label gadget (create_label.rs): the SHA-256 of |replica_id_bits| (256 booleans,
 * bytes in order, each most significant bit first), the constant layer, |node_bits| (64
 * booleans, least significant first), padding and the 37 |parents| (256 booleans each, same
 * order as the replica id), its digest's first 254 bits (little endian) packed into |out|.
 * 522,268 + 1 constraints for an allocated node. |parents| holds 37 pointers; |scratch| has
 * CUZK_FIL_POREP_LABEL_BITS booleans.
 */
cuzk_status cuzk__fil_porep_create_label_circuit(cuzk_cs *cs, cuzk_num *out,
                                                 const cuzk_bool replica_id_bits[256],
                                                 const cuzk_bool *const *parents, uint32_t layer,
                                                 const cuzk_bool node_bits[64],
                                                 cuzk_bool *scratch) CUZK_WARN_UNUSED_RESULT;
/* Booleans of |scratch| the gadget needs (the message). */
#define CUZK_FIL_POREP_LABEL_BITS ((2 + CUZK_FIL_POREP_TOTAL_PARENTS) * 256)

/* ---- synthetic partitions (porep_partition.c) ---------------------------------------------- */

/*
 * Parent hook: the 14 parents of |node| (6 DRG, then 8 expander). The real graph (DRG bucket
 * graph + Feistel expander, filecoin-circuits.md 3.5) plugs in here; until then synthetic
 * partitions use cuzk__fil_porep_parents_synthetic. A hook must give DRG parents below |node|
 * (challenged nodes are >= 1; node 1's are all 0) and expander parents below shape->nodes.
 */
typedef cuzk_status (*cuzk_fil_porep_parents_fn)(void *ctx,
                                                 uint64_t parents[CUZK_FIL_POREP_PARENTS],
                                                 const cuzk_fil_porep_shape *shape, uint64_t node);
/* Parents derived from (ctx = pointer to a uint64_t seed, node): DRG in [0, node), expander in
 * [0, nodes). */
cuzk_status cuzk__fil_porep_parents_synthetic(void *ctx, uint64_t parents[CUZK_FIL_POREP_PARENTS],
                                              const cuzk_fil_porep_shape *shape,
                                              uint64_t node) CUZK_WARN_UNUSED_RESULT;

typedef struct {
    cuzk_fil_porep_shape shape;
    uint64_t k;               /* partition index */
    cuzk_fil_porep_witness w; /* its arrays point into the storage below */
    cuzk_fr_t *labels;        /* challenges * layers: each challenged node's column */
    uint64_t *indices;        /* challenges + challenges * 14 */
    cuzk_fr_t *storage;
} cuzk_fil_porep_partition;

/*
 * A synthetic partition from |seed|: random replica_id and challenged nodes (distinct, in
 * [1, nodes)), their parents from |parents| (NULL: cuzk__fil_porep_parents_synthetic over the
 * seed), random columns for every parent that is not itself challenged, the challenged nodes'
 * labels computed with create_label layer by layer (layer-major, so a challenged parent's labels
 * are its own), random 254-bit data; sparse trees D (SHA-256 over the data), C (column hashes)
 * and R_last (label L + data), comm_r = Poseidon2(comm_c, comm_r_last). |k| is reduced modulo
 * the partitions and mixed into the challenge choice.
 * Returns: CUZK_OK; CUZK_ERR_INVALID_ARG (bad shape, more challenges than nodes - 1, a hook's
 * parent outside the sector or a DRG parent not below its node); CUZK_ERR_UNSUPPORTED;
 * CUZK_ERR_NOMEM; any status of the hook.
 */
cuzk_status cuzk_fil_porep_partition_synthetic(cuzk_fil_porep_partition **out,
                                               uint64_t seal_proof_type, uint64_t k,
                                               uint64_t seed) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk__fil_porep_partition_synthetic_shape(cuzk_fil_porep_partition **out,
                                                      const cuzk_fil_porep_shape *shape, uint64_t k,
                                                      uint64_t seed,
                                                      cuzk_fil_porep_parents_fn parents,
                                                      void *ctx) CUZK_WARN_UNUSED_RESULT;
void cuzk_fil_porep_partition_destroy(cuzk_fil_porep_partition *p);
/* Internal: a partition of |shape| (k reduced modulo the partitions) with every array allocated
 * and zeroed, w's pointers set. */
cuzk_status cuzk__fil_porep_partition_alloc(cuzk_fil_porep_partition **out,
                                            const cuzk_fil_porep_shape *shape,
                                            uint64_t k) CUZK_WARN_UNUSED_RESULT;

/* Built-in circuit "fil-porep:ID" (cuzk_circuit_fn): the circuit of RegisteredSealProof ID over
 * the partition given in params->data (the engine's PoRep jobs: one of a C1 output's, any id of
 * the same sector size), else over the synthetic partition (ID, k = seed, seed); KEYGEN needs no
 * witness. */
cuzk_status cuzk_circuit_fil_porep(cuzk_cs *cs, const void *params) CUZK_WARN_UNUSED_RESULT;

#endif

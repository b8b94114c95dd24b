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

/* The same on |threads| threads (rust-fil-proofs' synthesize_extendable): ranges of sectors are
 * synthesised into systems of their own and appended in order with cuzk_cs_extend, at most a
 * few ranges ahead of the merge (memory stays near one system's). The result is the sequential
 * one bit for bit. Sequential when |threads| < 2, in KEYGEN mode, or below 2 sectors per
 * thread. */
cuzk_status cuzk_fil_post_circuit_mt(cuzk_cs *cs, const cuzk_fil_post_shape *shape,
                                     const cuzk_fil_post_sector *sectors,
                                     unsigned threads) CUZK_WARN_UNUSED_RESULT;

/*
 * One PoSt partition as the circuit takes it, with the public values it was made from: from
 * vanilla proofs (cuzk_fil_post_partition_from_vanilla) or synthetic.
 *
 * Synthetic (cuzk_fil_post_partition_synthetic): derived from |seed|: canonical randomness, sector
 * ids, for each real sector a tree R of the published shape whose leaves are all one fill value
 * except the challenged ones (cuzk_merkle_sparse_paths: any sector size), comm_c, comm_r =
 * Poseidon2(comm_c, comm_r_last); challenges derived as Filecoin derives them
 * (cuzk_fil_post_leaf_challenge). WinningPoSt: one real sector seen by the circuit as 66 sectors
 * of one challenge each (challenge index i); WindowPoSt: a full partition 0.
 */
typedef struct {
    uint64_t post_proof_type;
    cuzk_fil_post_shape shape;
    uint8_t randomness[32];
    uint32_t partition;            /* WindowPoSt partition index (0 for WinningPoSt) */
    size_t nreal;                  /* real sectors: 1 (Winning), 1 .. sector_count (Window) */
    uint64_t *sector_ids;          /* nreal */
    uint8_t (*comm_rs)[32];        /* nreal, LE reprs */
    cuzk_fil_post_sector *sectors; /* shape.sector_count, what the circuit takes (a short
                                      WindowPoSt partition repeats its last sector) */
    cuzk_fr_t *leaves, *siblings;  /* storage behind |sectors| */
    uint64_t *challenges;
} cuzk_fil_post_partition;

cuzk_status cuzk_fil_post_partition_synthetic(cuzk_fil_post_partition **out,
                                              uint64_t post_proof_type, uint64_t seed,
                                              unsigned threads) CUZK_WARN_UNUSED_RESULT;
void cuzk_fil_post_partition_destroy(cuzk_fil_post_partition *p);

/*
 * Vanilla proofs, bincode (filecoin-circuits.md 7.2): one FallbackPoStSectorProof per real sector
 * as rust-fil-proofs writes them (u64 sector_id, comm_r, then Proof { Vec<SectorProof> } with
 * one SectorProof: the inclusion proofs of tree R, comm_c, comm_r_last). WinningPoSt takes one
 * sector with 66 inclusion proofs (the circuit's 66 sectors); WindowPoSt 1 .. sector_count
 * sectors of 10. Every proof is checked before it is accepted: the MerkleProof variant and path
 * lengths against the published tree shape, each path's leaf index against the challenge
 * Filecoin derives from |randomness|, the sector id and the partition, each path hashed up to its
 * root, root = comm_r_last, Poseidon2(comm_c, comm_r_last) = comm_r, no trailing bytes.
 * The path hashing runs per sector on |threads| threads (0 or 1: the caller's).
 * Returns: CUZK_OK; CUZK_ERR_FORMAT (truncated, malformed, or a check above failed: the message
 * names the proof, sector and challenge; the first proof in order when several fail);
 * CUZK_ERR_NOT_CANONICAL; CUZK_ERR_INVALID_ARG (count); CUZK_ERR_UNSUPPORTED (unknown id);
 * CUZK_ERR_NOMEM.
 */
cuzk_status cuzk_fil_post_partition_from_vanilla(cuzk_fil_post_partition **out,
                                                 uint64_t post_proof_type,
                                                 const uint8_t randomness[32], uint32_t partition,
                                                 const uint8_t *const *proofs, const size_t *lens,
                                                 size_t n,
                                                 unsigned threads) CUZK_WARN_UNUSED_RESULT;

/* Writes real sector |r| of |p| as a FallbackPoStSectorProof (the inverse of the above; a
 * synthetic partition's Merkle proofs are Single / Sub / Top as the shape asks). *out is
 * cuzk_alloc'd. Returns: CUZK_OK; CUZK_ERR_INVALID_ARG; CUZK_ERR_NOMEM. */
cuzk_status cuzk_fil_post_vanilla_encode(const cuzk_fil_post_partition *p, size_t r, uint8_t **out,
                                         size_t *len) CUZK_WARN_UNUSED_RESULT;

/* Internal: a partition of |post_proof_type| with room for |nreal| real sectors and every
 * challenge of the circuit (nothing filled in). */
cuzk_status cuzk__fil_post_partition_alloc(cuzk_fil_post_partition **out, uint64_t post_proof_type,
                                           size_t nreal) CUZK_WARN_UNUSED_RESULT;
/* Internal: fn(ctx, i) for i in [0, n) on up to |threads| threads (0 or 1: this one); the status
 * (and message) of the lowest i that failed, every i being run. */
cuzk_status cuzk__fil_par_for(size_t n, unsigned threads, cuzk_status (*fn)(void *ctx, size_t i),
                              void *ctx) CUZK_WARN_UNUSED_RESULT;
/* Internal: items [0, |n|) of a circuit (sectors, challenges) synthesised in ranges of |per| on
 * up to |threads| threads: |synth|(ctx, &sys, first, count) fills a system of its own for items
 * [first, first + count) (a plain one, or one continuing a fork of |cs|: cuzk_cs_create_forked),
 * sys holding on entry NULL or the system of a range already merged, which |synth| may reuse
 * (cuzk_cs_reset_forked) or must destroy; the systems are appended to |cs| in order with
 * cuzk_cs_extend as they complete, at most |window| ranges (0: 2 * threads) taken ahead of the
 * merge, synthesised or waiting for it (memory near that many ranges'). Returns: CUZK_OK; the
 * status (and message) of the first range in order that failed or of its merge; CUZK_ERR_NOMEM;
 * CUZK_ERR_INTERNAL (no thread started). |what| names the circuit in messages. */
cuzk_status
cuzk__fil_synth_ranges(cuzk_cs *cs, size_t n, size_t per, unsigned threads, size_t window,
                       cuzk_status (*synth)(void *ctx, cuzk_cs **out, size_t first, size_t count),
                       void *ctx, const char *what) CUZK_WARN_UNUSED_RESULT;
/* Internal: how many threads should take |n| items of equal cost on |threads| cores. Items run
 * in waves, one a thread; 18 PoRep challenges on 16 threads take two waves, the second of 2
 * items on 14 idle cores. A few more threads than cores, time-shared by the OS, finish in fewer
 * waves, each slowed in proportion (18 threads: 18/16 of one wave instead of 2). Returns the
 * count in [threads, 2 threads) and at most |n| with the least estimated time, the fewest on
 * ties; |threads| itself when |n| <= |threads| or |threads| < 2. */
unsigned cuzk__fil_balanced_threads(size_t n, unsigned threads);
/* Internal: the items [0, |n|) of a circuit (challenges) after a prefix already in |cs|, each
 * synthesised by |items|(ctx, sys, first, count) into |sys|: |cs| itself, in one call, below 2
 * threads or 2 items and in KEYGEN mode (which cuzk_cs_extend refuses); otherwise one item a
 * system continuing a fork of |cs| (the prefix's variables keep their indices there), sized
 * from the last system's own aux and rows, on cuzk__fil_balanced_threads(n, threads) threads
 * with one more system than threads ahead of the merge (equal items finish in turn, which keeps
 * every thread busy), appended in order by cuzk__fil_synth_ranges.
 * Bit for bit the sequential system. Returns as cuzk__fil_synth_ranges. */
cuzk_status cuzk__fil_forked_items(cuzk_cs *cs, size_t n, unsigned threads,
                                   cuzk_status (*items)(void *ctx, cuzk_cs *sys, size_t first,
                                                        size_t count),
                                   void *ctx, const char *what) CUZK_WARN_UNUSED_RESULT;
/* Internal: a system continuing |fork| for the next range: |*out| (a merged range's system,
 * handed back by cuzk__fil_synth_ranges) reset, else a new one. */
static inline cuzk_status cuzk__fil_forked_system(cuzk_cs **out, const cuzk_cs_fork *fork,
                                                  size_t hint_aux, size_t hint_rows)
{
    if (*out && cuzk_cs_reset_forked(*out) == CUZK_OK)
        return CUZK_OK;
    cuzk_cs_destroy(*out);
    *out = NULL;
    return cuzk_cs_create_forked(out, fork, hint_aux, hint_rows);
}
/* Internal: the leaf challenge of the circuit's sector |i|, challenge |n|, as Filecoin derives it
 * from p->randomness, the sector id and p->partition (filecoin-circuits.md 3.2). */
uint64_t cuzk__fil_post_challenge(const cuzk_fil_post_partition *p, size_t i, size_t n);

/* Built-in circuit "fil-post:ID" (cuzk_circuit_fn): the PoSt circuit of RegisteredPoStProof ID
 * over cuzk_fil_post_partition(ID, seed); KEYGEN needs no witness. */
cuzk_status cuzk_circuit_fil_post(cuzk_cs *cs, const void *params) CUZK_WARN_UNUSED_RESULT;

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_POSEIDON_H
#define CUZK_POSEIDON_H

/*
 * Poseidon over the BLS12-381 scalar field exactly as neptune 11 implements it for Filecoin
 * (Strength::Standard): width t = arity + 1, state[0] = domain tag, preimage in state[1..arity],
 * x^5 S-box, R_F = 8 full rounds (4 + 4), R_P partial rounds from neptune's round-number table,
 * Grain-LFSR round constants, Cauchy MDS matrix M[i][j] = 1/(i + j + t), digest = state[1].
 * See shared/facts/filecoin-circuits.md section 5 and neptune's spec/poseidon_spec.md.
 *
 * A constants object holds everything both evaluations need: the plain round constants and MDS
 * matrix, and the optimised ("static") representation that neptune's hash and its legacy circuit
 * use: compressed round constants, the pre-sparse matrix and one sparse matrix per partial round.
 * The R1CS coefficients of the Poseidon gadget are these optimised constants, so they must be
 * bit-exact with neptune's.
 */

#include <stddef.h>
#include <stdint.h>

#include "cuzk/field.h"
#include "cuzk/status.h"

/* Domain separation (neptune src/hash_type.rs). Only the two Filecoin uses are offered. */
typedef enum {
    /* MerkleTree: tag 2^arity - 1. Every Filecoin tree and column hash, comm_r. */
    CUZK_POSEIDON_MERKLE_TREE = 0,
    /* Custom(1): tag 1 * 2^40. SnapDeals phi, rho and challenge digests (arity 2). */
    CUZK_POSEIDON_CUSTOM_1 = 1,
} cuzk_poseidon_hash_type;

/* Largest arity supported (neptune's U36, used by hash_md). */
#define CUZK_POSEIDON_MAX_ARITY 36
#define CUZK_POSEIDON_MAX_WIDTH (CUZK_POSEIDON_MAX_ARITY + 1)

/*
 * Read-only constants of one (arity, hash type). Matrices are row-major t x t arrays
 * (m[i * t + j] = row i, column j). States are multiplied as row vectors (state x matrix), as
 * neptune does; M itself is symmetric.
 */
typedef struct cuzk_poseidon_constants {
    size_t arity;
    size_t width;            /* t = arity + 1 */
    size_t full_rounds;      /* R_F = 8 */
    size_t half_full_rounds; /* R_F / 2 */
    size_t partial_rounds;   /* R_P */
    cuzk_poseidon_hash_type hash_type;
    cuzk_fr_t domain_tag;
    /* (R_F + R_P) * t Grain-LFSR constants; round r uses [r*t, (r+1)*t). */
    const cuzk_fr_t *round_constants;
    size_t round_constants_len;
    const cuzk_fr_t *mds;              /* M, t x t */
    const cuzk_fr_t *mds_inv;          /* M^-1 */
    const cuzk_fr_t *mds_prime;        /* M' of M: [[1, 0], [0, M^]] */
    const cuzk_fr_t *mds_double_prime; /* M'' of M: sparse, M' x M'' = M */
    /* R_F * t + R_P constants (neptune preprocessing.rs, all partial rounds preprocessed):
     * t added before the first S-boxes, then the post-S-box constants of every round except
     * the last (t per full round, 1 per partial round). */
    const cuzk_fr_t *compressed_round_constants;
    size_t compressed_round_constants_len;
    /* Mixing matrix of the last first-half full round, t x t. */
    const cuzk_fr_t *pre_sparse;
    /* Sparse matrix of partial round k (0 <= k < R_P): w_hat[k*t .. k*t+t) is its first
     * column, v_rest[k*(t-1) .. (k+1)*(t-1)) its first row without the [0][0] entry; the rest
     * is the identity. */
    const cuzk_fr_t *sparse_w_hat;
    const cuzk_fr_t *sparse_v_rest;
} cuzk_poseidon_constants;

/*
 * The shared constants object of (|arity|, |hash_type|), built on first use (thread-safe) and kept
 * for the life of the process; callers never free it. Supported arities: 2, 4, 8, 11, 16, 24, 36
 * (Filecoin uses Custom(1) with arity 2 only; other arities accept it too).
 * Returns: the object, or NULL for an unsupported arity/type or out of memory (detail in
 * cuzk_last_error()).
 */
const cuzk_poseidon_constants *cuzk_poseidon_constants_get(size_t arity,
                                                           cuzk_poseidon_hash_type hash_type);

/* Number of partial rounds neptune uses for |arity| (Strength::Standard); 0 if unsupported. */
size_t cuzk_poseidon_partial_rounds(size_t arity);

/* The domain tag of |hash_type| for |arity| (neptune hash_type.rs). */
void cuzk_poseidon_domain_tag(cuzk_fr_t *out, size_t arity, cuzk_poseidon_hash_type hash_type);

/*
 * Grain-LFSR round constants as neptune's round_constants.rs / the Poseidon reference script
 * create_rcs_grain.sage (field = 1, sbox = 1, field_size = 255): writes |n| constants to |out|.
 * The Poseidon instance uses n = (|r_f| + |r_p|) * |t|; a shorter |n| yields a prefix.
 */
void cuzk_poseidon_grain_constants(cuzk_fr_t *out, size_t n, unsigned t, unsigned r_f,
                                   unsigned r_p);

/*
 * out = Poseidon(preimage) with the optimised constants (neptune's default HashMode
 * OptimizedStatic). |preimage| has c->arity elements. |out| may alias |preimage|.
 */
void cuzk_poseidon_hash(cuzk_fr_t *out, const cuzk_poseidon_constants *c,
                        const cuzk_fr_t *preimage);

/* The same digest computed the textbook way (neptune HashMode::Correct): per round add the
 * round constants, apply S-boxes, multiply by M. A reference for tests. */
void cuzk_poseidon_hash_plain(cuzk_fr_t *out, const cuzk_poseidon_constants *c,
                              const cuzk_fr_t *preimage);

/* Whole-state permutations (state has c->width elements, state[0] the domain tag). */
void cuzk_poseidon_permute(const cuzk_poseidon_constants *c, cuzk_fr_t *state);
void cuzk_poseidon_permute_plain(const cuzk_poseidon_constants *c, cuzk_fr_t *state);

/* Convenience for 32-byte little-endian reprs (Filecoin's domain encoding): |in| holds
 * c->arity consecutive 32-byte elements. Returns: CUZK_ERR_NOT_CANONICAL if one is >= r. */
cuzk_status cuzk_poseidon_hash_bytes(uint8_t out[32], const cuzk_poseidon_constants *c,
                                     const uint8_t *in) CUZK_WARN_UNUSED_RESULT;

#endif

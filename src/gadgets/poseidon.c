/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Native Poseidon permutation, two evaluations of the same function:
 *  - plain (neptune HashMode::Correct): per round add t round constants, S-boxes (all lanes in
 *    full rounds, lane 0 in partial rounds), multiply by M;
 *  - optimised (neptune HashMode::OptimizedStatic, the default and what the circuit mirrors):
 *    compressed round constants added after the S-boxes, the pre-sparse matrix in the last
 *    first-half full round and one sparse matrix per partial round.
 * States are row vectors multiplied on the right (state x matrix), as in neptune.
 */
#include "cuzk/poseidon.h"
#include "field/fr_inline.h" /* inline products and sums: a hash is ~2,000 of each */

#include <string.h>

static void sbox(cuzk_fr_t *x)
{
    cuzk_fr_t x2, x4;
    fri_mul(&x2, x, x);
    fri_mul(&x4, &x2, &x2);
    fri_mul(x, &x4, x);
}

/* state = state x m (t x t, row-major). */
static void mix_dense(cuzk_fr_t *state, const cuzk_fr_t *m, size_t t)
{
    cuzk_fr_t out[CUZK_POSEIDON_MAX_WIDTH], tmp;
    for (size_t j = 0; j < t; j++) {
        cuzk_fr_set_zero(&out[j]);
        for (size_t i = 0; i < t; i++) {
            fri_mul(&tmp, &state[i], &m[i * t + j]);
            fri_add(&out[j], &out[j], &tmp);
        }
    }
    memcpy(state, out, t * sizeof *state);
}

/* state = state x S for the sparse S of partial round |k|: lane 0 = <state, w_hat>,
 * lane j = state[j] + state[0] * v_rest[j - 1]. */
static void mix_sparse(cuzk_fr_t *state, const cuzk_poseidon_constants *c, size_t k)
{
    size_t t = c->width;
    const cuzk_fr_t *w = &c->sparse_w_hat[k * t];
    const cuzk_fr_t *v = &c->sparse_v_rest[k * (t - 1)];
    cuzk_fr_t lane0, tmp;
    cuzk_fr_set_zero(&lane0);
    for (size_t i = 0; i < t; i++) {
        fri_mul(&tmp, &state[i], &w[i]);
        fri_add(&lane0, &lane0, &tmp);
    }
    for (size_t j = 1; j < t; j++) {
        fri_mul(&tmp, &state[0], &v[j - 1]);
        fri_add(&state[j], &state[j], &tmp);
    }
    state[0] = lane0;
}

void cuzk_poseidon_permute(const cuzk_poseidon_constants *c, cuzk_fr_t *state)
{
    size_t t = c->width, half = c->half_full_rounds, rp = c->partial_rounds;
    const cuzk_fr_t *k = c->compressed_round_constants;

    for (size_t i = 0; i < t; i++)
        fri_add(&state[i], &state[i], &k[i]);
    k += t;
    for (size_t r = 0; r < half; r++) {
        for (size_t i = 0; i < t; i++) {
            sbox(&state[i]);
            fri_add(&state[i], &state[i], &k[i]);
        }
        k += t;
        if (r == half - 1)
            mix_dense(state, c->pre_sparse, t);
        else
            mix_dense(state, c->mds, t);
    }
    for (size_t r = 0; r < rp; r++) {
        sbox(&state[0]);
        fri_add(&state[0], &state[0], k++);
        mix_sparse(state, c, r);
    }
    for (size_t r = 1; r < half; r++) {
        for (size_t i = 0; i < t; i++) {
            sbox(&state[i]);
            fri_add(&state[i], &state[i], &k[i]);
        }
        k += t;
        mix_dense(state, c->mds, t);
    }
    /* Terminal full round: no constants after its S-boxes. */
    for (size_t i = 0; i < t; i++)
        sbox(&state[i]);
    mix_dense(state, c->mds, t);
}

void cuzk_poseidon_permute_plain(const cuzk_poseidon_constants *c, cuzk_fr_t *state)
{
    size_t t = c->width, half = c->half_full_rounds, rp = c->partial_rounds;
    size_t rounds = c->full_rounds + rp;
    for (size_t r = 0; r < rounds; r++) {
        const cuzk_fr_t *k = &c->round_constants[r * t];
        for (size_t i = 0; i < t; i++)
            fri_add(&state[i], &state[i], &k[i]);
        if (r < half || r >= half + rp)
            for (size_t i = 0; i < t; i++)
                sbox(&state[i]);
        else
            sbox(&state[0]);
        mix_dense(state, c->mds, t);
    }
}

static void load_state(cuzk_fr_t *state, const cuzk_poseidon_constants *c,
                       const cuzk_fr_t *preimage)
{
    state[0] = c->domain_tag;
    memcpy(&state[1], preimage, c->arity * sizeof *state);
}

void cuzk_poseidon_hash(cuzk_fr_t *out, const cuzk_poseidon_constants *c, const cuzk_fr_t *preimage)
{
    cuzk_fr_t state[CUZK_POSEIDON_MAX_WIDTH];
    load_state(state, c, preimage);
    cuzk_poseidon_permute(c, state);
    *out = state[1];
}

void cuzk_poseidon_hash_plain(cuzk_fr_t *out, const cuzk_poseidon_constants *c,
                              const cuzk_fr_t *preimage)
{
    cuzk_fr_t state[CUZK_POSEIDON_MAX_WIDTH];
    load_state(state, c, preimage);
    cuzk_poseidon_permute_plain(c, state);
    *out = state[1];
}

cuzk_status cuzk_poseidon_hash_bytes(uint8_t out[32], const cuzk_poseidon_constants *c,
                                     const uint8_t *in)
{
    cuzk_fr_t pre[CUZK_POSEIDON_MAX_ARITY], h;
    for (size_t i = 0; i < c->arity; i++) {
        cuzk_status s = cuzk_fr_from_bytes_le(&pre[i], in + 32 * i);
        if (s != CUZK_OK)
            return cuzk_fail(s, "Poseidon preimage element %zu is not below r", i);
    }
    cuzk_poseidon_hash(&h, c, pre);
    cuzk_fr_to_bytes_le(out, &h);
    return CUZK_OK;
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GROTH16_SPLIT_PAIRS_H
#define CUZK_GROTH16_SPLIT_PAIRS_H

#include "cuzk/r1cs.h"
#include "cuzk/status.h"
#include "cuzk/threadpool.h"

#include <stddef.h>
#include <stdint.h>

/*
 * The L, A and B scalar vectors of a proof split for a device backend in one pass over the aux
 * values: each query's ones go to a bitmap (the batch addition) and its values other than 0 and
 * 1 to (position, value) pairs in position order (the tail MSM); zeros go nowhere. Query L is
 * aux j at position j; A is every input, then the A-dense aux; B the B-dense inputs, then the
 * B-dense aux (as the bellperson prover orders them).
 *
 * Why one pass: building the A and B vectors first (gathers) and then splitting each vector with
 * a counting and a filling pass read and wrote ~30 GB at a PoRep partition (4 GiB of aux):
 * 0.75 s on 16 threads of the H200 host. Here the aux values are read once to classify them
 * (a ones bitmap and an "other" bitmap), and the queries are derived from those bitmaps and the
 * density bitmaps word by word; only the other values (5 % at a partition) are read again.
 */
enum { CUZK__SPLIT_L, CUZK__SPLIT_A, CUZK__SPLIT_B, CUZK__SPLIT_Q };

typedef struct {
    uint64_t *ones;  /* (n + 63) / 64 words, written whole (zero beyond n) */
    cuzk_fr_t *vals; /* room for n pairs */
    uint32_t *idx;
    size_t n; /* the query's positions (checked against |pd|) */
    size_t m; /* out: pairs written */
} cuzk__split_query;

/* Bytes of the classification bitmap (|other| below) for |n_aux| aux values. */
size_t cuzk__split_pairs_scratch(size_t n_aux);

/* Splits |pd|'s L, A and B scalars into |q| on |pool| (NULL: this thread); |other| holds
 * cuzk__split_pairs_scratch(pd->n_aux) bytes. CUZK_ERR_INVALID_ARG when a query's n does not
 * match |pd| or a position does not fit 32 bits; CUZK_ERR_NOMEM when the chunk table cannot be
 * allocated. */
cuzk_status cuzk__split_pairs(cuzk_pool *pool, const cuzk_prover_data *pd, uint64_t *other,
                              cuzk__split_query q[CUZK__SPLIT_Q]);

#endif

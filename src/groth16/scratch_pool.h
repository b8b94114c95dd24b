/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GROTH16_SCRATCH_POOL_H
#define CUZK_GROTH16_SCRATCH_POOL_H
/*
 * The snarkjs prover's MSM working memory (src/groth16/prove_zkey.c), passed from MSM to MSM: a
 * G1 job's goes back here when its last worker leaves it, the G2 MSM's when it ends, and later
 * jobs take a free buffer that is large enough before mapping a new one. Fresh pages are what
 * costs: on the development VM (a guest with free page reporting) a first touch of 4 KiB took
 * ~2 us, and a 2^16 proof touched 98 MiB of fresh scratch (four G1 jobs of 14 MiB, the G2 MSM's
 * 42 MiB, before its images came in slices), ~45 ms of its CPU time. With two lanes at most two
 * G1 jobs and the G2 MSM hold a buffer at once; one slot per MSM is room enough in any order.
 */
#include <stdbool.h>
#include <stddef.h>

#define CUZK__SCRATCH_SLOTS 5

typedef struct {
    void *p[CUZK__SCRATCH_SLOTS];
    size_t bytes[CUZK__SCRATCH_SLOTS];
    bool busy[CUZK__SCRATCH_SLOTS];
} cuzk__scratch_pool;

/* The smallest free buffer of at least |need| bytes, else a new one (NULL: out of memory or no
 * slot left; the MSM then allocates its own); its size in *|got|. Not thread-safe: the prover
 * calls these under its lanes' mutex. */
void *cuzk__scratch_take(cuzk__scratch_pool *sp, size_t need, size_t *got);
/* |p| (from take; NULL: nothing) is free for a later take. */
void cuzk__scratch_give(cuzk__scratch_pool *sp, const void *p);
/* Frees every buffer; the pool is empty again. */
void cuzk__scratch_free(cuzk__scratch_pool *sp);

#endif

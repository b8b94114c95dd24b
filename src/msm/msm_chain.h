/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_MSM_MSM_CHAIN_H
#define CUZK_MSM_MSM_CHAIN_H
/*
 * Internal: a chain of G1 MSM jobs (msm/msm_job.h) that add into one sum. Each bucket reduction
 * (the running sums of a window's buckets) costs as much whatever the points, so MSMs whose sums
 * are only ever added together can share one: the snarkjs prover's C term is the sum of the H
 * MSM, the C MSM and r times the B1 MSM (src/groth16/prove_zkey.c), three 2^16-point MSMs at
 * 2^16 whose reductions were ~7 % of their time. The links fill one bucket set per window group
 * in turn (link k's task for a group runs once link k - 1's has ended, in whichever thread), and
 * the last link's tasks reduce them; its finish gives the sum, the other links' finish give
 * infinity. Each link is a job of its own memory (its decoded bases, images and scalar pieces,
 * recycled by the caller once it is finished), so the links' points are never all in memory at
 * once.
 *
 * Use: chain_new with the links' total point count, then for each link (in any order, from any
 * thread) new_linked, work, finish, as for any job; finally chain_free, after every link's
 * finish (or free). Every link must be created and worked until no task is left, or the chain
 * aborted: a link's tasks wait for the links before it, so a link that never runs would hold
 * the ones after it forever; after an abort every task returns at once and every finish gives
 * infinity (the caller has failed anyway).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/curve.h"
#include "cuzk/field.h"
#include "cuzk/status.h"
#include "msm/msm_packed.h"

typedef struct cuzk__g1_msm_job_chain_state cuzk__g1_msm_chain;

/* A chain of |links| jobs over |total| points in all, each worked by up to |workers| threads. */
cuzk_status cuzk__g1_msm_job_chain_new(cuzk__g1_msm_chain **chain, size_t total, unsigned links,
                                       unsigned workers) CUZK_WARN_UNUSED_RESULT;
/* Every task of the chain, waiting or to come, returns at once (NULL: nothing). */
void cuzk__g1_msm_job_chain_abort(cuzk__g1_msm_chain *chain);
void cuzk__g1_msm_job_chain_free(cuzk__g1_msm_chain *chain);
/* Working memory of a link of |n| points (SIZE_MAX: its size overflows); packed: the bases are
 * given packed. */
size_t cuzk__g1_msm_job_chain_scratch_size(const cuzk__g1_msm_chain *chain, size_t n, bool packed);

/*
 * Link |link| of |chain|: sum (factor) scalars[i] bases[i], with exactly one of |bases| and
 * |packed| (as cuzk__g1_msm_job_new_packed) and of |mont| and |raw| scalars; |factor|
 * (Montgomery form) multiplies every scalar, or NULL. The job keeps pointers to all of them.
 * Working memory as for the other jobs (cuzk__g1_msm_job_chain_scratch_size, or NULL).
 */
cuzk_status cuzk__g1_msm_job_new_linked(cuzk__g1_msm_job **job, cuzk__g1_msm_chain *chain,
                                        unsigned link, const cuzk_g1_affine_t *bases,
                                        const cuzk__packed_bases *packed, const cuzk_fr_t *mont,
                                        const uint64_t *raw, const cuzk_fr_t *factor, size_t n,
                                        void *scratch,
                                        size_t scratch_bytes) CUZK_WARN_UNUSED_RESULT;

#endif

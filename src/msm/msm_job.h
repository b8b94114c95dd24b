/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_MSM_MSM_JOB_H
#define CUZK_MSM_MSM_JOB_H

/*
 * A G1 MSM that threads join whenever they are free (the snarkjs prover's two lanes,
 * src/groth16/prove_zkey.c): the same plan and results as a one-thread cuzk_g1_msm, whose tasks
 * (groups of windows over all points) the joined threads take from a shared counter, each with
 * its own bucket set. Threads that arrive late just take fewer tasks, so two lanes with
 * unequal fixed work (the G2 MSM on one, synthesis and the H step on the other) end within
 * one task of each other, with no extra running sums (which splitting the points would add);
 * and a thread left without tasks helps one still running (its points are taken in pieces of
 * MSM_HELP_PIECE), at the cost of one more running sum per window of the task it helps, so
 * that they end within a piece of each other.
 *
 * Use: new / new_raw (the scalar scan, plan, working memory and endomorphism split, on the
 * calling thread), then work from up to |workers| threads, each with its own |worker| index
 * (a thread that finds no task left and none to help returns at once), then, once every work
 * call has returned, finish (the window combination; frees the job) or free (drops it).
 */
#include <stddef.h>
#include <stdint.h>

#include "cuzk/curve.h"
#include "cuzk/field.h"
#include "cuzk/status.h"

typedef struct cuzk__g1_msm_job_state cuzk__g1_msm_job;

/* sum scalars[i] bases[i], scalars in Montgomery form (new) or as canonical 4-limb integers
 * (new_raw), as cuzk_g1_msm / cuzk_g1_msm_raw; the job keeps pointers to both arrays. |split|
 * (0 .. 64; 0 or 1: none): cut each window group's points into at least that many tasks, for
 * finer tasks at the cost of one running sum per window and extra piece (the prover's last
 * job, src/msm/msm_common.h msm_plan_split_chunks). Working memory: |scratch| of
 * |scratch_bytes| (at least cuzk__g1_msm_job_scratch_size with the same |split|; the caller
 * frees it after finish), or NULL: allocated and freed by the job. */
cuzk_status cuzk__g1_msm_job_new(cuzk__g1_msm_job **job, const cuzk_g1_affine_t *bases,
                                 const cuzk_fr_t *scalars, size_t n, unsigned workers,
                                 unsigned split, void *scratch, size_t scratch_bytes);
cuzk_status cuzk__g1_msm_job_new_raw(cuzk__g1_msm_job **job, const cuzk_g1_affine_t *bases,
                                     const uint64_t *scalars, size_t n, unsigned workers,
                                     unsigned split, void *scratch, size_t scratch_bytes);
/* Bytes of working memory a job of |n| points, |workers| workers and |split| may need
 * (SIZE_MAX: its size overflows, or |split| is out of range). */
size_t cuzk__g1_msm_job_scratch_size(size_t n, unsigned workers, unsigned split);
/* The job's task count (0: no scalar bits, the sum is infinity). */
size_t cuzk__g1_msm_job_tasks(const cuzk__g1_msm_job *job);
/* Takes tasks until none is left to take, then helps the tasks still running that have points
 * left (a job of two or more workers: a task's points are taken in pieces, and a worker without
 * tasks adds pieces of another's into its own buckets), so that the workers end within a piece
 * of each other (worker < workers; one thread per index at a time). */
void cuzk__g1_msm_job_work(cuzk__g1_msm_job *job, unsigned worker);
/* Tasks no worker has taken yet (for tests). */
size_t cuzk__g1_msm_job_untaken(const cuzk__g1_msm_job *job);
/* Tasks a helper took part in (after every work call has returned; for tests and traces). */
size_t cuzk__g1_msm_job_helped(const cuzk__g1_msm_job *job);
/* The sum, after every work call has returned; frees the job. */
void cuzk__g1_msm_job_finish(cuzk__g1_msm_job *job, cuzk_g1_jac_t *out);
/* Frees a job without its sum (NULL: nothing). */
void cuzk__g1_msm_job_free(cuzk__g1_msm_job *job);

#endif

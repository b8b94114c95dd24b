/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* G1 MSM jobs (src/msm/msm_job.h) against the one-call MSM. */
#include "test_msm_util.h"
#include "msm/msm_job.h"

#include <sched.h>

/* ---- G1 MSM jobs (src/msm/msm_job.h) ------------------------------------------------------- */

static void job_lane(void *ctx, size_t i)
{
    cuzk__g1_msm_job_work(ctx, (unsigned)i);
}

/*
 * A job gives the one-thread MSM's sum however its workers come: two at once on two threads,
 * one after the other (the second finds no task left) in either order, or one worker of three
 * alone (in caller-supplied memory); Montgomery and raw scalars; sizes from 0 to several tasks
 * (20,000 points: 40,000 endomorphism pieces, tasks of 1 to 3 windows), bases at infinity, zero
 * and 0/1-heavy scalars.
 */
CUZK_TEST(msm_g1_job_matches_msm)
{
    enum { N = SLOW_BUILD ? 2000 : 20000 };
    static const size_t sizes[] = {0, 1, 7, 300, N};
    static const int kinds[] = {SC_RANDOM, SC_ZERO, SC_BINARY_HEAVY};
    cuzk_g1_affine_t *pts = g1_points(N), *bases = cuzk_alloc_array(N, sizeof *bases);
    cuzk_fr_t *k = cuzk_alloc_array(N, sizeof *k);
    uint64_t *raw = cuzk_alloc_array(N, 4 * sizeof *raw);
    /* modes 3 and 5 (raw scalars, 3 workers; mode 5 split 3) in caller-supplied memory, sized
     * for the largest n */
    size_t scratch_bytes = cuzk__g1_msm_job_scratch_size(N, 3, 3);
    void *scratch = cuzk_alloc(scratch_bytes);
    cuzk_pool *pool;
    CHECK(bases && k && raw && scratch && cuzk_pool_create(&pool, 2) == CUZK_OK);
    CHECK(cuzk__g1_msm_job_scratch_size(0, 3, 0) == 0 &&
          cuzk__g1_msm_job_scratch_size(N, 1, 0) > 0 &&
          cuzk__g1_msm_job_scratch_size(N, 1, 0) < cuzk__g1_msm_job_scratch_size(N, 3, 0) &&
          cuzk__g1_msm_job_scratch_size(N, 3, 0) < scratch_bytes &&
          cuzk__g1_msm_job_scratch_size(N, 3, 65) == SIZE_MAX);
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        for (int lay = BASES_DISTINCT; lay <= BASES_SOME_INFINITY; lay += 2) {
            for (size_t ki = 0; ki < sizeof kinds / sizeof kinds[0]; ki++) {
                if (n == N && kinds[ki] != SC_RANDOM)
                    continue;
                g1_layout(bases, pts, n, lay);
                make_scalars(k, n, kinds[ki]);
                for (size_t i = 0; i < n; i++)
                    cuzk_fr_to_canonical(&raw[4 * i], &k[i]);
                cuzk_g1_jac_t want;
                CHECK(cuzk_g1_msm(&want, bases, k, n, NULL) == CUZK_OK);
                size_t tasks_whole = 0;
                for (int mode = 0; mode < 6; mode++) {
                    cuzk__g1_msm_job *job;
                    cuzk_g1_jac_t got = poisoned_g1();
                    unsigned split = mode == 4 ? 2 : mode == 5 ? 3 : 0;
                    if (mode < 3 || mode == 4)
                        CHECK(cuzk__g1_msm_job_new(&job, bases, k, n, 2, split, NULL, 0) ==
                              CUZK_OK);
                    else
                        CHECK(cuzk__g1_msm_job_new_raw(&job, bases, raw, n, 3, split, scratch,
                                                       scratch_bytes) == CUZK_OK);
                    /* a split cuts every window group's points (chunks of >= 64 points) */
                    size_t tasks = cuzk__g1_msm_job_tasks(job);
                    if (mode == 0)
                        tasks_whole = tasks;
                    else if (split && n >= 64 * 3 * split)
                        CHECK_MSG(tasks == split * tasks_whole && tasks > 0,
                                  "n=%zu split=%u: %zu tasks, %zu without", n, split, tasks,
                                  tasks_whole);
                    if (mode == 0 || mode == 4) {
                        cuzk_pool_run(pool, 2, job_lane, job);
                    } else if (mode == 3 || mode == 5) {
                        cuzk__g1_msm_job_work(job, 2);
                    } else {
                        cuzk__g1_msm_job_work(job, mode == 1 ? 0 : 1);
                        cuzk__g1_msm_job_work(job, mode == 1 ? 1 : 0);
                    }
                    cuzk__g1_msm_job_finish(job, &got);
                    CHECK_MSG(cuzk_g1_eq(&got, &want), "n=%zu bases=%s scalars=%s mode=%d", n,
                              BASES_NAME[lay], SC_NAME[kinds[ki]], mode);
                }
            }
        }
    }
    cuzk__g1_msm_job *job = (cuzk__g1_msm_job *)&job;
    CHECK(cuzk__g1_msm_job_new(&job, NULL, k, 5, 2, 0, NULL, 0) == CUZK_ERR_INVALID_ARG && !job);
    CHECK(cuzk__g1_msm_job_new(&job, bases, k, 5, 0, 0, NULL, 0) == CUZK_ERR_INVALID_ARG && !job);
    CHECK(cuzk__g1_msm_job_new(&job, bases, k, 5, 2, 65, NULL, 0) == CUZK_ERR_INVALID_ARG && !job);
    CHECK(cuzk__g1_msm_job_new(&job, bases, k, 5, 2, 0, scratch, 64) == CUZK_ERR_INVALID_ARG &&
          !job);
    cuzk__g1_msm_job_free(NULL);
    CHECK(cuzk__g1_msm_job_new(&job, bases, k, 5, 2, 0, NULL, 0) == CUZK_OK);
    cuzk__g1_msm_job_free(job); /* dropped unworked */
    cuzk_free(scratch);
    cuzk_pool_destroy(pool);
    cuzk_free(raw);
    cuzk_free(k);
    cuzk_free(bases);
    cuzk_free(pts);
}

/* Worker 1 comes once worker 0 has taken every task, so worker 0's last task has (almost) all
 * its points left to share. */
static void late_lane(void *ctx, size_t i)
{
    if (i == 1)
        while (cuzk__g1_msm_job_untaken(ctx) > 0)
            sched_yield();
    cuzk__g1_msm_job_work(ctx, (unsigned)i);
}

/*
 * Helpers: two workers on a job of a few large tasks (40,000 points: tasks of 80,000
 * endomorphism pieces); the worker left without tasks adds pieces of the other's running task
 * into its own buckets, and the sum stays the one-call MSM's. Two workers at once (help likely)
 * and one that comes after the other has taken every task (help certain but for a late
 * thread: up to 8 runs until one was helped, each run's sum checked); workers one after the
 * other never help (nothing left to take).
 */
CUZK_TEST(msm_g1_job_helpers)
{
    enum { N = SLOW_BUILD ? 20000 : 40000 };
    cuzk_g1_affine_t *bases = g1_points(N);
    cuzk_fr_t *k = cuzk_alloc_array(N, sizeof *k);
    cuzk_pool *pool;
    CHECK(k && cuzk_pool_create(&pool, 2) == CUZK_OK);
    make_scalars(k, N, SC_RANDOM);
    cuzk_g1_affine_set_infinity(&bases[N / 2]);
    cuzk_g1_jac_t want;
    CHECK(cuzk_g1_msm(&want, bases, k, N, NULL) == CUZK_OK);
    size_t helped_runs = 0;
    for (int run = 0; run < 9 && !helped_runs; run++) {
        cuzk__g1_msm_job *job;
        CHECK(cuzk__g1_msm_job_new(&job, bases, k, N, 2, 0, NULL, 0) == CUZK_OK);
        cuzk_pool_run(pool, 2, run ? late_lane : job_lane, job);
        helped_runs += run > 0 && cuzk__g1_msm_job_helped(job) > 0;
        cuzk_g1_jac_t got = poisoned_g1();
        cuzk__g1_msm_job_finish(job, &got);
        CHECK_MSG(cuzk_g1_eq(&got, &want), "run %d", run);
    }
    CHECK_MSG(helped_runs > 0, "no late worker of 8 helped");
    for (int mode = 0; mode < 2; mode++) {
        cuzk__g1_msm_job *job;
        CHECK(cuzk__g1_msm_job_new(&job, bases, k, N, 2, 0, NULL, 0) == CUZK_OK);
        cuzk__g1_msm_job_work(job, mode);
        cuzk__g1_msm_job_work(job, 1 - mode);
        CHECK(cuzk__g1_msm_job_helped(job) == 0);
        cuzk_g1_jac_t got = poisoned_g1();
        cuzk__g1_msm_job_finish(job, &got);
        CHECK(cuzk_g1_eq(&got, &want));
    }
    cuzk_pool_destroy(pool);
    cuzk_free(k);
    cuzk_free(bases);
}

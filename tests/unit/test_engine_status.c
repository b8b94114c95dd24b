/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Engine status: per-partition pipelines of partitioned jobs and per-worker state. */
#include "test_engine_util.h"

#include <unistd.h>

static const cuzk_engine_pipeline_status *pipeline_of(const cuzk_engine_status *st, const char *id)
{
    for (size_t i = 0; i < st->n_pipelines; i++)
        if (strcmp(st->pipelines[i].job_id, id) == 0)
            return &st->pipelines[i];
    return NULL;
}

/* One look at the pipeline of |id| while it runs: every partition's state is at least what it
 * was (|seen|), partitions_done counts the DONE ones, times are there once known. Returns the
 * number of partitions in a state between pending and done. */
static unsigned check_pipeline(const cuzk_engine_pipeline_status *p, uint32_t parts, uint8_t *seen,
                               unsigned *saw_proving)
{
    CHECK(p->total_partitions == parts && strcmp(p->kind, "circuit:pm") == 0);
    CHECK(p->started_secs_ago >= 0 && p->started_secs_ago < 600);
    uint32_t done = 0;
    unsigned between = 0;
    bool proving = false;
    for (uint32_t k = 0; k < parts; k++) {
        const cuzk_engine_partition_status *x = &p->partitions[k];
        CHECK_MSG(x->state >= seen[k] && x->state <= CUZK_PART_DONE,
                  "partition %u: state %s after %s", k, cuzk_partition_state_name(x->state),
                  cuzk_partition_state_name((cuzk_partition_state)seen[k]));
        seen[k] = (uint8_t)x->state;
        done += x->state == CUZK_PART_DONE;
        proving |= x->state == CUZK_PART_PROVING;
        between += x->state > CUZK_PART_PENDING && x->state < CUZK_PART_DONE;
        if (x->state >= CUZK_PART_SYNTH_DONE)
            CHECK_MSG(x->synth_ms > 0, "partition %u synthesised in %g ms", k, x->synth_ms);
        if (x->state == CUZK_PART_DONE)
            CHECK(x->prove_ms > 0);
        else
            CHECK(x->prove_ms == 0);
    }
    CHECK(p->partitions_done == done);
    *saw_proving += proving;
    return between;
}

CUZK_TEST(engine_status_pipelines)
{
    char *dir = eng_tmpdir();
    uint64_t live0 = cuzk_alloc_live_bytes();
    cuzk_engine_config c;
    eng_config(&c, dir);
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "pm", ENG_SMALL, NULL);
    const uint32_t parts = 3 + (uint32_t)(test_rand_u64() % 4);
    char one[CUZK_ENGINE_ID_MAX], many[CUZK_ENGINE_ID_MAX];
    eng_submit(e, "pm", NULL, CUZK_PRIORITY_NORMAL, 1, one);
    eng_submit(e, "pm", NULL, CUZK_PRIORITY_NORMAL, parts, many);
    uint8_t seen[8] = {0};
    unsigned looks = 0, mid = 0, busy = 0, proving = 0;
    for (;;) {
        cuzk_engine_status st;
        CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
        CHECK(!pipeline_of(&st, one)); /* one partition: not a pipeline */
        CHECK(st.n_workers >= 1);
        for (size_t i = 0; i < st.n_workers; i++) {
            const cuzk_engine_worker_status *w = &st.workers[i];
            CHECK(w->worker_id == i && w->device >= -1); /* -1: the CPU */
            if (strcmp(w->current_job, many) == 0) {
                CHECK(w->current_partition < parts && w->busy_secs >= 0);
                busy++;
            }
        }
        const cuzk_engine_pipeline_status *p = pipeline_of(&st, many);
        bool finished = false;
        if (p) {
            looks++;
            mid += check_pipeline(p, parts, seen, &proving) > 0;
            finished = p->outcome != CUZK_JOB_UNKNOWN;
            if (finished) {
                CHECK(p->outcome == CUZK_JOB_COMPLETED && p->partitions_done == parts);
                for (uint32_t k = 0; k < parts; k++)
                    CHECK(p->partitions[k].state == CUZK_PART_DONE);
            }
        }
        cuzk_engine_status_clear(&st);
        if (finished)
            break;
        usleep(500);
    }
    printf("# %u partitions: %u looks, %u with a partition under way, %u proving, %u with a "
           "busy worker\n",
           parts, looks, mid, proving, busy);
    CHECK(looks > 0 && mid > 0 && proving > 0 && busy > 0);
    cuzk_job_result r;
    CHECK(eng_await(e, one, &r) == CUZK_JOB_COMPLETED);
    cuzk_job_result_clear(&r);
    CHECK(eng_await(e, many, &r) == CUZK_JOB_COMPLETED);
    cuzk_job_result_clear(&r);

    /* A cancelled job: its partitions end done, cancelled or never started, none under way. */
    char can[CUZK_ENGINE_ID_MAX];
    eng_submit(e, "pm", NULL, CUZK_PRIORITY_NORMAL, 40, can);
    for (int i = 0; i < 20000; i++) { /* until a partition has started (at most ~10 s) */
        cuzk_engine_status st;
        CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
        bool started = pipeline_of(&st, can) != NULL;
        cuzk_engine_status_clear(&st);
        if (started)
            break;
        usleep(500);
    }
    bool running, cancelled;
    CHECK(cuzk_engine_cancel(e, can, &running, &cancelled) == CUZK_OK && cancelled);
    CHECK(eng_await(e, can, &r) == CUZK_JOB_CANCELLED);
    cuzk_job_result_clear(&r);
    unsigned under_way = 1;
    for (int i = 0; i < 20000 && under_way; i++) { /* in-flight partitions end as cancelled */
        cuzk_engine_status st;
        CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
        const cuzk_engine_pipeline_status *p = pipeline_of(&st, can);
        CHECK(p && p->outcome == CUZK_JOB_CANCELLED && p->total_partitions == 40);
        under_way = 0;
        for (uint32_t k = 0; p && k < 40; k++) {
            cuzk_partition_state s = p->partitions[k].state;
            under_way += s > CUZK_PART_PENDING && s < CUZK_PART_DONE;
            CHECK(s != CUZK_PART_FAILED);
        }
        cuzk_engine_status_clear(&st);
        if (under_way)
            usleep(500);
    }
    CHECK(under_way == 0);
    cuzk_engine_status st;
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    const cuzk_engine_pipeline_status *p = pipeline_of(&st, can);
    unsigned n_can = 0, n_pending = 0;
    for (uint32_t k = 0; p && k < 40; k++) {
        n_can += p->partitions[k].state == CUZK_PART_CANCELLED;
        n_pending += p->partitions[k].state == CUZK_PART_PENDING;
    }
    printf("# cancelled job: %u cancelled, %u never started, %u done\n", n_can, n_pending,
           p ? p->partitions_done : 0);
    CHECK(p && n_pending > 0 && n_can + n_pending + p->partitions_done == 40);
    CHECK(strcmp(cuzk_partition_state_name(CUZK_PART_PROVING), "gpu") == 0);
    cuzk_engine_status_clear(&st);
    cuzk_engine_destroy(e);
    CHECK_MSG(cuzk_alloc_live_bytes() == live0, "%llu bytes leaked",
              (unsigned long long)(cuzk_alloc_live_bytes() - live0));
    eng_rm_rf(dir);
}

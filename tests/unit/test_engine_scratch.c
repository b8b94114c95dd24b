/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Engine memory budget: the prover workers' backend scratch (the L/A/B split) is charged to the
 * total budget with the HOT sets and the partitions in flight. */
#include "test_engine_util.h"

#include <unistd.h>

/* HOT size, partition estimate and per-worker scratch of circuit |id| = |spec| in an engine of
 * config |c| (preloaded, so the file is read; the parameter cache is per circuit id), and the
 * scratch charged for it. */
typedef struct {
    uint64_t hot, part, per_worker, charged;
} set_sizes;

static set_sizes sizes_of(const cuzk_engine_config *c, const char *id, const char *spec)
{
    cuzk_engine *e = eng_create(c);
    eng_add(e, id, spec, NULL);
    bool already;
    uint64_t ms;
    CHECK_MSG(cuzk_engine_preload(e, id, &already, &ms) == CUZK_OK, "%s", cuzk_last_error());
    cuzk_engine_status st;
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    const cuzk_engine_srs_status *x = srs_of(&st, id);
    set_sizes z = {x->size_bytes, x->partition_bytes, x->scratch_bytes, st.memory_scratch};
    CHECK(st.memory_in_use == st.pinned_bytes + st.memory_scratch && st.memory_in_flight == 0);
    cuzk_engine_status_clear(&st);
    cuzk_engine_destroy(e);
    return z;
}

/* Partitions wait for the budget the workers' scratch leaves: with it counted only one
 * partition fits at a time (without it, three or more would), and what is charged never passes
 * the budget; each worker holds at most the set's scratch. */
CUZK_TEST(engine_scratch_partitions)
{
    char *dir = eng_tmpdir();
    uint64_t live0 = cuzk_alloc_live_bytes();
    cuzk_engine_config c;
    eng_config(&c, dir);
    c.prover_workers = 5;
    c.synthesis_workers = 3;
    const set_sizes z = sizes_of(&c, "pm", ENG_SMALL);
    printf("# hot %llu, partition %llu, scratch per worker %llu, charged %llu bytes\n",
           (unsigned long long)z.hot, (unsigned long long)z.part, (unsigned long long)z.per_worker,
           (unsigned long long)z.charged);
    CHECK(z.per_worker > 0 && z.charged == 5 * z.per_worker);
    CHECK_MSG(z.charged > 2 * z.part, "the scratch (%llu) must exceed two partitions (%llu)",
              (unsigned long long)z.charged, (unsigned long long)(2 * z.part));
    c.memory_budget = z.hot + z.charged + z.part + z.part / 2;
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "pm", ENG_SMALL, NULL);
    char ids[4][CUZK_ENGINE_ID_MAX];
    for (int i = 0; i < 4; i++)
        eng_submit(e, "pm", NULL, CUZK_PRIORITY_NORMAL, 2, ids[i]);
    /* watch the charge while the jobs run */
    uint64_t most_flight = 0;
    unsigned looks = 0;
    for (;;) {
        cuzk_engine_status st;
        CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
        looks++;
        CHECK_MSG(st.memory_in_use == st.pinned_bytes + st.memory_in_flight + st.memory_scratch &&
                      st.memory_in_use <= st.memory_budget,
                  "in use %llu (sets %llu, partitions %llu, scratch %llu) > budget %llu",
                  (unsigned long long)st.memory_in_use, (unsigned long long)st.pinned_bytes,
                  (unsigned long long)st.memory_in_flight, (unsigned long long)st.memory_scratch,
                  (unsigned long long)st.memory_budget);
        if (st.memory_in_flight > most_flight)
            most_flight = st.memory_in_flight;
        uint64_t held = 0;
        for (size_t i = 0; i < st.n_workers; i++) {
            CHECK(st.workers[i].scratch_bytes <= z.per_worker);
            held += st.workers[i].scratch_bytes;
        }
        CHECK(held <= st.memory_scratch);
        bool done = st.completed == 4;
        cuzk_engine_status_clear(&st);
        if (done)
            break;
        usleep(500);
    }
    CHECK_MSG(most_flight == z.part,
              "at most %llu bytes of partitions in flight, expected one "
              "partition (%llu) at a time",
              (unsigned long long)most_flight, (unsigned long long)z.part);
    printf("# %u looks at the status\n", looks);
    for (int i = 0; i < 4; i++) {
        cuzk_job_result r;
        CHECK_MSG(eng_await(e, ids[i], &r) == CUZK_JOB_COMPLETED, "%s", r.error);
        cuzk_job_result_clear(&r);
    }
    cuzk_engine_destroy(e);
    CHECK_MSG(cuzk_alloc_live_bytes() == live0, "%llu bytes leaked",
              (unsigned long long)(cuzk_alloc_live_bytes() - live0));
    eng_rm_rf(dir);
}

/* A set whose scratch outgrows what the others charged makes room for the growth too: an idle
 * HOT set of another circuit is evicted for it; and the charge is the per-slot maximum, kept
 * after the sets go. */
CUZK_TEST(engine_scratch_growth_evicts)
{
    char *dir = eng_tmpdir();
    uint64_t live0 = cuzk_alloc_live_bytes();
    cuzk_engine_config c;
    eng_config(&c, dir);
    c.prover_workers = 2;
    const set_sizes a = sizes_of(&c, "a", "poseidon-merkle:1");
    const set_sizes b = sizes_of(&c, "b", "poseidon-merkle:2");
    CHECK_MSG(b.per_worker > a.per_worker && a.charged == 2 * a.per_worker,
              "scratch per worker a %llu, b %llu; charged for a %llu",
              (unsigned long long)a.per_worker, (unsigned long long)b.per_worker,
              (unsigned long long)a.charged);
    /* b with its own scratch fits beside a with a's scratch, but not beside a with b's */
    c.memory_budget = a.hot + b.hot + b.charged - 1;
    CHECK(c.memory_budget >= a.hot + b.hot + a.charged);
    CHECK(c.memory_budget >= b.hot + b.part + b.charged);
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "a", "poseidon-merkle:1", NULL);
    eng_add(e, "b", "poseidon-merkle:2", NULL);
    bool already;
    uint64_t ms;
    cuzk_engine_status st;
    CHECK(cuzk_engine_preload(e, "a", &already, &ms) == CUZK_OK);
    CHECK(cuzk_engine_preload(e, "b", &already, &ms) == CUZK_OK);
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    CHECK_MSG(srs_of(&st, "b")->tier == CUZK_TIER_HOT && srs_of(&st, "a")->tier != CUZK_TIER_HOT,
              "a tier %d, b tier %d, in use %llu, budget %llu", (int)srs_of(&st, "a")->tier,
              (int)srs_of(&st, "b")->tier, (unsigned long long)st.memory_in_use,
              (unsigned long long)st.memory_budget);
    CHECK(st.memory_scratch == b.charged && st.memory_in_use <= st.memory_budget);
    cuzk_engine_status_clear(&st);
    /* a proves again (b is evicted for it), the charge stays b's */
    char id[CUZK_ENGINE_ID_MAX];
    cuzk_job_result r;
    eng_submit(e, "a", NULL, CUZK_PRIORITY_NORMAL, 1, id);
    CHECK_MSG(eng_await(e, id, &r) == CUZK_JOB_COMPLETED, "%s", r.error);
    cuzk_job_result_clear(&r);
    bool was;
    uint64_t freed;
    CHECK(cuzk_engine_evict(e, "a", &was, &freed) == CUZK_OK && was);
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    CHECK(st.pinned_bytes == 0 && st.memory_scratch == b.charged && st.memory_in_use == b.charged);
    cuzk_engine_status_clear(&st);
    cuzk_engine_destroy(e);
    CHECK_MSG(cuzk_alloc_live_bytes() == live0, "%llu bytes leaked",
              (unsigned long long)(cuzk_alloc_live_bytes() - live0));
    eng_rm_rf(dir);
}

/* An idle prover worker reserves the scratch a HOT set charges it for before any partition
 * (the first proof does not pay for the allocation): after a preload, with no job, every
 * worker's scratch reaches the set's per-worker figure within a few seconds, and the charge
 * is what it was. */
CUZK_TEST(engine_scratch_reserved_idle)
{
    char *dir = eng_tmpdir();
    cuzk_engine_config c;
    eng_config(&c, dir);
    c.prover_workers = 3;
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "ri", ENG_SMALL, NULL);
    bool already;
    uint64_t ms;
    CHECK_MSG(cuzk_engine_preload(e, "ri", &already, &ms) == CUZK_OK, "%s", cuzk_last_error());
    uint64_t per = 0, charged = 0;
    size_t ready = 0, workers = 0;
    for (int tries = 0; tries < 500; tries++) {
        cuzk_engine_status st;
        CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
        per = srs_of(&st, "ri")->scratch_bytes;
        charged = st.memory_scratch;
        workers = st.n_workers;
        ready = 0;
        for (size_t i = 0; i < st.n_workers; i++) {
            CHECK(st.workers[i].scratch_bytes <= per);
            ready += st.workers[i].scratch_bytes == per;
        }
        CHECK(st.completed == 0 && st.memory_in_flight == 0);
        cuzk_engine_status_clear(&st);
        if (per && ready == workers)
            break;
        usleep(10000);
    }
    printf("# %zu of %zu workers hold %llu bytes of scratch; %llu charged\n", ready, workers,
           (unsigned long long)per, (unsigned long long)charged);
    CHECK(workers == 3 && per > 0 && ready == workers);
    CHECK(charged == 3 * per);
    cuzk_engine_destroy(e);
    eng_rm_rf(dir);
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Engine: SRS tiers, pinned budget, corrupt files, zkey jobs, metrics. */
#include "test_engine_util.h"

#include "cuzk/snarkjs.h"
#include "engine/engine_internal.h"

#include <pthread.h>

CUZK_TEST(engine_srs_tiers)
{
    char *dir = eng_tmpdir();
    uint64_t live0 = cuzk_alloc_live_bytes();
    cuzk_engine_config c;
    eng_config(&c, dir);
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "pm", ENG_SMALL, NULL);
    cuzk_engine_status st;
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    CHECK(st.n_srs == 1 && st.srs[0].tier == CUZK_TIER_COLD && st.srs[0].size_bytes == 0);
    CHECK(st.pinned_bytes == 0 && st.pinned_limit > 0 && st.n_gpus == 0);
    cuzk_engine_status_clear(&st);
    bool already, was;
    uint64_t ms, freed;
    CHECK(cuzk_engine_preload(e, "nope", &already, &ms) == CUZK_ERR_NOT_FOUND);
    CHECK(cuzk_engine_preload(e, "pm", &already, &ms) == CUZK_OK && !already);
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    uint64_t hot = st.srs[0].size_bytes;
    CHECK(st.srs[0].tier == CUZK_TIER_HOT && hot > 0 && st.pinned_bytes == hot);
    cuzk_engine_status_clear(&st);
    CHECK(cuzk_engine_preload(e, "pm", &already, &ms) == CUZK_OK && already);
    CHECK(cuzk_engine_evict(e, "pm", &was, &freed) == CUZK_OK && was && freed == hot);
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    CHECK(st.srs[0].tier == CUZK_TIER_COLD && st.pinned_bytes == 0);
    cuzk_engine_status_clear(&st);
    CHECK(cuzk_engine_evict(e, "pm", &was, &freed) == CUZK_OK && !was && freed == 0);
    CHECK(cuzk_engine_evict(e, "nope", &was, &freed) == CUZK_ERR_NOT_FOUND);
    /* circuit info needs only the WARM tier (mapped file, key) */
    cuzk_engine_circuit_info info;
    CHECK(cuzk_engine_circuit_info_get(e, "pm", &info) == CUZK_OK);
    CHECK(info.n_public_inputs == 2 && info.n_constraints == 533);
    cuzk_engine_circuit_info_clear(&info);
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    CHECK(st.srs[0].tier == CUZK_TIER_WARM && st.srs[0].size_bytes > 0 && st.pinned_bytes == 0);
    cuzk_engine_status_clear(&st);
    /* a job makes it HOT; params were generated once and reused (same key file) */
    char id[CUZK_ENGINE_ID_MAX];
    eng_submit(e, "pm", NULL, CUZK_PRIORITY_NORMAL, 1, id);
    cuzk_job_result r;
    CHECK(eng_await(e, id, &r) == CUZK_JOB_COMPLETED);
    char vk[512];
    snprintf(vk, sizeof vk, "%s/pm.vk", dir);
    eng_verify(vk, &r);
    cuzk_job_result_clear(&r);
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    CHECK(st.srs[0].tier == CUZK_TIER_HOT && st.srs[0].ref_count == 0);
    cuzk_engine_status_clear(&st);
    cuzk_engine_destroy(e);
    CHECK_MSG(cuzk_alloc_live_bytes() == live0, "%llu bytes leaked",
              (unsigned long long)(cuzk_alloc_live_bytes() - live0));
    eng_rm_rf(dir);
}

/* The pinned budget fits one parameter set: loading B evicts idle A; with a long minimum idle
 * time nothing can be evicted and the preload fails NOMEM naming the budget. */
/* Circuits "a" (poseidon-merkle:1) and "b" (poseidon-merkle:2) preloaded in an engine of config
 * |c|: their HOT sizes, partition estimates, the pinned total and the prover scratch charged
 * with both HOT. */
typedef struct {
    uint64_t sa, sb, pa, pb, pinned, scratch;
} ab_sizes;

static ab_sizes preload_ab(const cuzk_engine_config *c)
{
    cuzk_engine *e = eng_create(c);
    eng_add(e, "a", "poseidon-merkle:1", NULL);
    eng_add(e, "b", "poseidon-merkle:2", NULL);
    bool already;
    uint64_t ms;
    CHECK(cuzk_engine_preload(e, "a", &already, &ms) == CUZK_OK);
    CHECK(cuzk_engine_preload(e, "b", &already, &ms) == CUZK_OK);
    cuzk_engine_status st;
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    ab_sizes z = {srs_of(&st, "a")->size_bytes, srs_of(&st, "b")->size_bytes,
                  srs_of(&st, "a")->partition_bytes, srs_of(&st, "b")->partition_bytes,
                  st.pinned_bytes, st.memory_scratch};
    cuzk_engine_status_clear(&st);
    cuzk_engine_destroy(e);
    return z;
}

CUZK_TEST(engine_pinned_eviction)
{
    char *dir = eng_tmpdir();
    uint64_t live0 = cuzk_alloc_live_bytes();
    cuzk_engine_config c;
    eng_config(&c, dir);
    const ab_sizes z = preload_ab(&c);
    const uint64_t sa = z.sa, sb = z.sb;
    CHECK(z.pinned == sa + sb);
    printf("# hot sizes: a %llu, b %llu bytes\n", (unsigned long long)sa,
           (unsigned long long)sb);

    c.pinned_budget = (sa > sb ? sa : sb) + (sa < sb ? sa : sb) / 2;
    cuzk_engine *e = eng_create(&c); /* same cache dir: the files exist now */
    bool already;
    uint64_t ms;
    cuzk_engine_status st;
    eng_add(e, "a", "poseidon-merkle:1", NULL);
    eng_add(e, "b", "poseidon-merkle:2", NULL);
    CHECK(cuzk_engine_preload(e, "a", &already, &ms) == CUZK_OK && !already);
    CHECK(cuzk_engine_preload(e, "b", &already, &ms) == CUZK_OK && !already);
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    CHECK(srs_of(&st, "a")->tier == CUZK_TIER_WARM && srs_of(&st, "b")->tier == CUZK_TIER_HOT);
    CHECK(st.pinned_bytes == sb);
    cuzk_engine_status_clear(&st);
    /* a job on A evicts idle B */
    char id[CUZK_ENGINE_ID_MAX];
    eng_submit(e, "a", NULL, CUZK_PRIORITY_NORMAL, 1, id);
    cuzk_job_result r;
    CHECK(eng_await(e, id, &r) == CUZK_JOB_COMPLETED);
    CHECK(r.srs_load_ms > 0 || r.phase_ms[CUZK_PHASE_SRS_LOAD] > 0);
    cuzk_job_result_clear(&r);
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    CHECK(srs_of(&st, "a")->tier == CUZK_TIER_HOT && srs_of(&st, "b")->tier == CUZK_TIER_WARM);
    CHECK(st.pinned_bytes == sa);
    cuzk_engine_status_clear(&st);
    cuzk_engine_destroy(e);

    c.eviction_min_idle_ms = 3600 * 1000;
    e = eng_create(&c);
    eng_add(e, "a", "poseidon-merkle:1", NULL);
    eng_add(e, "b", "poseidon-merkle:2", NULL);
    CHECK(cuzk_engine_preload(e, "a", &already, &ms) == CUZK_OK);
    CHECK(cuzk_engine_preload(e, "b", &already, &ms) == CUZK_ERR_NOMEM);
    CHECK_MSG(strstr(cuzk_last_error(), "pinned budget"), "%s", cuzk_last_error());
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    CHECK(srs_of(&st, "a")->tier == CUZK_TIER_HOT && srs_of(&st, "b")->tier == CUZK_TIER_COLD);
    cuzk_engine_status_clear(&st);
    cuzk_engine_destroy(e);

    /* larger than the whole budget */
    c.pinned_budget = (sa < sb ? sa : sb) / 2;
    e = eng_create(&c);
    eng_add(e, "a", "poseidon-merkle:1", NULL);
    CHECK(cuzk_engine_preload(e, "a", &already, &ms) == CUZK_ERR_NOMEM);
    CHECK(strstr(cuzk_last_error(), "whole pinned budget"));
    eng_submit(e, "a", NULL, CUZK_PRIORITY_NORMAL, 1, id);
    CHECK(eng_await(e, id, &r) == CUZK_JOB_FAILED && strstr(r.error, "pinned budget"));
    cuzk_job_result_clear(&r);
    cuzk_engine_destroy(e);
    CHECK_MSG(cuzk_alloc_live_bytes() == live0, "%llu bytes leaked",
              (unsigned long long)(cuzk_alloc_live_bytes() - live0));
    eng_rm_rf(dir);
}

/* What the drop hook saw while evicted set "b" was being freed. */
static struct {
    unsigned calls;
    bool lock_free;  /* the engine lock was not held */
    bool status_ok;  /* cuzk_engine_status_get answered meanwhile */
    bool b_not_hot;  /* b was no longer HOT */
    uint64_t pinned; /* pinned bytes reported meanwhile (b's still charged) */
} drop_seen;

static void drop_probe(cuzk_engine *e, const char *circuit_id)
{
    if (strcmp(circuit_id, "b") != 0)
        return;
    drop_seen.calls++;
    if (pthread_mutex_trylock(&e->mu) != 0)
        return; /* held (by this thread: a status call would deadlock) */
    drop_seen.lock_free = true;
    pthread_mutex_unlock(&e->mu);
    cuzk_engine_status st;
    if (cuzk_engine_status_get(e, &st) == CUZK_OK) {
        drop_seen.status_ok = true;
        drop_seen.b_not_hot = srs_of(&st, "b")->tier != CUZK_TIER_HOT;
        drop_seen.pinned = st.pinned_bytes;
        cuzk_engine_status_clear(&st);
    }
}

/* An evicted set is freed without the engine lock (tens of GB on a PoRep host), its bytes
 * charged until they are free; EvictSRS of an idle set takes the same path. */
CUZK_TEST(engine_evict_off_lock)
{
    char *dir = eng_tmpdir();
    uint64_t live0 = cuzk_alloc_live_bytes();
    cuzk_engine_config c;
    eng_config(&c, dir);
    const ab_sizes z = preload_ab(&c);
    c.pinned_budget = (z.sa > z.sb ? z.sa : z.sb) + (z.sa < z.sb ? z.sa : z.sb) / 2;
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "a", "poseidon-merkle:1", NULL);
    eng_add(e, "b", "poseidon-merkle:2", NULL);
    bool already;
    uint64_t ms;
    CHECK(cuzk_engine_preload(e, "b", &already, &ms) == CUZK_OK);
    memset(&drop_seen, 0, sizeof drop_seen);
    cuzk__srs_drop_hook = drop_probe;
    /* a job on A evicts idle B */
    char id[CUZK_ENGINE_ID_MAX];
    eng_submit(e, "a", NULL, CUZK_PRIORITY_NORMAL, 1, id);
    cuzk_job_result r;
    CHECK(eng_await(e, id, &r) == CUZK_JOB_COMPLETED);
    cuzk_job_result_clear(&r);
    CHECK(drop_seen.calls == 1 && drop_seen.lock_free && drop_seen.status_ok);
    CHECK(drop_seen.b_not_hot && drop_seen.pinned == z.sb);
    cuzk_engine_status st;
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    CHECK(srs_of(&st, "a")->tier == CUZK_TIER_HOT && srs_of(&st, "b")->tier == CUZK_TIER_WARM);
    CHECK(st.pinned_bytes == z.sa);
    cuzk_engine_status_clear(&st);
    /* EvictSRS on B (WARM now: its mapping goes, nothing held) and on A (HOT, idle) */
    memset(&drop_seen, 0, sizeof drop_seen);
    bool was;
    uint64_t freed;
    CHECK(cuzk_engine_evict(e, "b", &was, &freed) == CUZK_OK && !was && freed == 0);
    CHECK(drop_seen.calls == 1 && drop_seen.lock_free && drop_seen.pinned == z.sa);
    CHECK(cuzk_engine_evict(e, "a", &was, &freed) == CUZK_OK && was && freed == z.sa);
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    CHECK(srs_of(&st, "a")->tier == CUZK_TIER_COLD && srs_of(&st, "b")->tier == CUZK_TIER_COLD);
    /* the workers' scratch stays charged (their backends keep it) */
    CHECK(st.pinned_bytes == 0 && st.memory_in_use == st.memory_scratch);
    cuzk_engine_status_clear(&st);
    /* and it proves again after the drops */
    eng_submit(e, "b", NULL, CUZK_PRIORITY_NORMAL, 1, id);
    CHECK(eng_await(e, id, &r) == CUZK_JOB_COMPLETED);
    cuzk_job_result_clear(&r);
    cuzk__srs_drop_hook = NULL;
    cuzk_engine_destroy(e);
    CHECK_MSG(cuzk_alloc_live_bytes() == live0, "%llu bytes leaked",
              (unsigned long long)(cuzk_alloc_live_bytes() - live0));
    eng_rm_rf(dir);
}

/* A partition larger than the whole memory budget fails its job instead of waiting forever. */
CUZK_TEST(engine_memory_budget)
{
    char *dir = eng_tmpdir();
    uint64_t live0 = cuzk_alloc_live_bytes();
    cuzk_engine_config c;
    eng_config(&c, dir);
    c.memory_budget = 4096;
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "pm", ENG_SMALL, NULL);
    char id[CUZK_ENGINE_ID_MAX];
    eng_submit(e, "pm", NULL, CUZK_PRIORITY_NORMAL, 2, id);
    cuzk_job_result r;
    CHECK(eng_await(e, id, &r) == CUZK_JOB_FAILED);
    CHECK_MSG(strstr(r.error, "memory budget"), "%s", r.error);
    cuzk_job_result_clear(&r);
    cuzk_engine_destroy(e);
    /* a budget for exactly one partition still completes several jobs (they wait their turn) */
    c.memory_budget = 0;
    e = eng_create(&c);
    eng_add(e, "pm", ENG_SMALL, NULL);
    eng_submit(e, "pm", NULL, CUZK_PRIORITY_NORMAL, 1, id);
    CHECK(eng_await(e, id, &r) == CUZK_JOB_COMPLETED);
    cuzk_job_result_clear(&r);
    cuzk_engine_destroy(e);
    /* The total budget holds the HOT set too: one poseidon-merkle:1 partition is estimated at
     * 3 * 1024 * 32 + 542 * 32 + 152 bytes = 115,800, so this budget admits one at a time. */
    e = eng_create(&c);
    eng_add(e, "pm", ENG_SMALL, NULL);
    bool already;
    uint64_t ms;
    CHECK(cuzk_engine_preload(e, "pm", &already, &ms) == CUZK_OK);
    cuzk_engine_status st;
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    const uint64_t hot = srs_of(&st, "pm")->size_bytes;
    CHECK(srs_of(&st, "pm")->partition_bytes == 115800);
    /* and the prover workers' scratch, charged with the set: every worker may hold the set's */
    const uint64_t scr = st.memory_scratch;
    CHECK(scr > 0 && scr == st.n_workers * srs_of(&st, "pm")->scratch_bytes);
    cuzk_engine_status_clear(&st);
    cuzk_engine_destroy(e);
    /* the set alone fits, the set and one partition do not: a clear failure */
    c.memory_budget = hot + scr + 100000;
    e = eng_create(&c);
    eng_add(e, "pm", ENG_SMALL, NULL);
    eng_submit(e, "pm", NULL, CUZK_PRIORITY_NORMAL, 1, id);
    CHECK(eng_await(e, id, &r) == CUZK_JOB_FAILED);
    CHECK_MSG(strstr(r.error, "total memory budget"), "%s", r.error);
    cuzk_job_result_clear(&r);
    cuzk_engine_destroy(e);
    /* the set and one partition fit, but not with the workers' scratch: a failure naming it */
    CHECK(scr > 2000);
    c.memory_budget = hot + 115800 + scr - 1000;
    e = eng_create(&c);
    eng_add(e, "pm", ENG_SMALL, NULL);
    eng_submit(e, "pm", NULL, CUZK_PRIORITY_NORMAL, 1, id);
    CHECK(eng_await(e, id, &r) == CUZK_JOB_FAILED);
    CHECK_MSG(strstr(r.error, "total memory budget") && strstr(r.error, "scratch"), "%s", r.error);
    cuzk_job_result_clear(&r);
    cuzk_engine_destroy(e);
    c.memory_budget = hot + scr + 150000;
    c.synthesis_workers = 2;
    e = eng_create(&c);
    eng_add(e, "pm", ENG_SMALL, NULL);
    char ids[3][CUZK_ENGINE_ID_MAX];
    for (int i = 0; i < 3; i++)
        eng_submit(e, "pm", NULL, CUZK_PRIORITY_NORMAL, 2, ids[i]);
    for (int i = 0; i < 3; i++) {
        CHECK(eng_await(e, ids[i], &r) == CUZK_JOB_COMPLETED);
        cuzk_job_result_clear(&r);
    }
    cuzk_engine_destroy(e);
    CHECK_MSG(cuzk_alloc_live_bytes() == live0, "%llu bytes leaked",
              (unsigned long long)(cuzk_alloc_live_bytes() - live0));
    eng_rm_rf(dir);
}

/* The total budget is shared by HOT sets and partitions: a partition that does not fit beside
 * an idle set of another circuit evicts that set (with a per-set pinned budget that holds both). */
CUZK_TEST(engine_total_budget_evicts)
{
    char *dir = eng_tmpdir();
    uint64_t live0 = cuzk_alloc_live_bytes();
    cuzk_engine_config c;
    eng_config(&c, dir);
    const ab_sizes z = preload_ab(&c);
    const uint64_t sa = z.sa, sb = z.sb, pa = z.pa, pb = z.pb;
    CHECK(sa && sb && pa && pb);
    printf("# hot a %llu, b %llu; partition a %llu, b %llu bytes\n", (unsigned long long)sa,
           (unsigned long long)sb, (unsigned long long)pa, (unsigned long long)pb);

    /* both sets fit (so each loads beside the other, idle), a partition only without it; the
     * scratch charged for both sets is held throughout */
    c.memory_budget = sa + sb + (pa < pb ? pa : pb) - 1 + z.scratch;
    CHECK(z.scratch > 0);
    CHECK(c.memory_budget >= sa + pa + z.scratch && c.memory_budget >= sb + pb + z.scratch);
    cuzk_engine *e = eng_create(&c);
    cuzk_engine_status st;
    eng_add(e, "a", "poseidon-merkle:1", NULL);
    eng_add(e, "b", "poseidon-merkle:2", NULL);
    const char *order[] = {"a", "b", "a"};
    for (int i = 0; i < 3; i++) {
        char id[CUZK_ENGINE_ID_MAX];
        cuzk_job_result r;
        eng_submit(e, order[i], NULL, CUZK_PRIORITY_NORMAL, 2, id);
        CHECK_MSG(eng_await(e, id, &r) == CUZK_JOB_COMPLETED, "job on %s: %s", order[i], r.error);
        cuzk_job_result_clear(&r);
        CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
        const char *other = order[i][0] == 'a' ? "b" : "a";
        CHECK(srs_of(&st, order[i])->tier == CUZK_TIER_HOT);
        if (i > 0)
            CHECK_MSG(srs_of(&st, other)->tier != CUZK_TIER_HOT,
                      "after a job on %s, %s is still HOT: %llu bytes pinned, budget %llu",
                      order[i], other, (unsigned long long)st.pinned_bytes,
                      (unsigned long long)st.memory_budget);
        CHECK(st.memory_in_use == st.pinned_bytes + st.memory_in_flight + st.memory_scratch &&
              st.memory_in_use <= st.memory_budget);
        cuzk_engine_status_clear(&st);
    }
    cuzk_engine_destroy(e);
    CHECK_MSG(cuzk_alloc_live_bytes() == live0, "%llu bytes leaked",
              (unsigned long long)(cuzk_alloc_live_bytes() - live0));
    eng_rm_rf(dir);
}

static void write_file(const char *path, const uint8_t *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(b, 1, n, f) == n && fclose(f) == 0);
}

/* Corrupt and truncated parameter files: clear failures, the engine keeps proving. */
CUZK_TEST(engine_corrupt_params)
{
    char *dir = eng_tmpdir();
    uint64_t live0 = cuzk_alloc_live_bytes();
    cuzk_engine_config c;
    eng_config(&c, dir);
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "pm", ENG_SMALL, NULL);
    bool already;
    uint64_t ms;
    CHECK(cuzk_engine_preload(e, "pm", &already, &ms) == CUZK_OK);
    char good[512], cut[512], flip[512], junk[512], missing[512];
    snprintf(good, sizeof good, "%s/pm.params", dir);
    snprintf(cut, sizeof cut, "%s/cut.params", dir);
    snprintf(flip, sizeof flip, "%s/flip.params", dir);
    snprintf(junk, sizeof junk, "%s/junk.params", dir);
    snprintf(missing, sizeof missing, "%s/missing.params", dir);
    uint8_t *img;
    size_t len;
    CHECK(cuzk_read_file(good, &img, &len, 1 << 30) == CUZK_OK);
    size_t cut_at = 900 + (size_t)(test_rand_u64() % (len - 1000));
    printf("# truncating at %zu of %zu bytes\n", cut_at, len);
    write_file(cut, img, cut_at);
    /* a byte in the middle of the L query's points: not on the curve any more */
    size_t at = len - 100 - (size_t)(test_rand_u64() % 1000);
    img[at] ^= 0x5a;
    write_file(flip, img, len);
    img[at] ^= 0x5a;
    uint8_t rnd[4096];
    test_rand_bytes(rnd, sizeof rnd);
    write_file(junk, rnd, sizeof rnd);
    eng_add(e, "cut", ENG_SMALL, cut);
    eng_add(e, "flip", ENG_SMALL, flip);
    eng_add(e, "junk", ENG_SMALL, junk);
    eng_add(e, "missing", ENG_SMALL, missing);
    const char *bad[4] = {"cut", "flip", "junk", "missing"};
    for (int i = 0; i < 4; i++) {
        cuzk_status s = cuzk_engine_preload(e, bad[i], &already, &ms);
        printf("# preload %s: %s: %s\n", bad[i], cuzk_status_name(s), cuzk_last_error());
        CHECK(s != CUZK_OK && strstr(cuzk_last_error(), bad[i]) &&
              strstr(cuzk_last_error(), ".params"));
        char id[CUZK_ENGINE_ID_MAX];
        eng_submit(e, bad[i], NULL, CUZK_PRIORITY_NORMAL, 2, id);
        cuzk_job_result r;
        CHECK(eng_await(e, id, &r) == CUZK_JOB_FAILED);
        CHECK_MSG(strstr(r.error, bad[i]), "%s", r.error);
        cuzk_job_result_clear(&r);
        eng_submit(e, "pm", NULL, CUZK_PRIORITY_NORMAL, 1, id);
        CHECK(eng_await(e, id, &r) == CUZK_JOB_COMPLETED);
        cuzk_job_result_clear(&r);
    }
    cuzk_engine_status st;
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    for (int i = 0; i < 4; i++)
        CHECK(srs_of(&st, bad[i])->tier == CUZK_TIER_COLD);
    CHECK(st.failed == 4 && st.completed == 4 && st.pinned_bytes == srs_of(&st, "pm")->size_bytes);
    cuzk_engine_status_clear(&st);
    cuzk_free(img);
    cuzk_engine_destroy(e);
    CHECK_MSG(cuzk_alloc_live_bytes() == live0, "%llu bytes leaked",
              (unsigned long long)(cuzk_alloc_live_bytes() - live0));
    eng_rm_rf(dir);
}

static uint8_t *fixture(const char *name, size_t *len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/snarkjs/%s", test_fixtures_dir(), name);
    uint8_t *b = NULL;
    if (cuzk_read_file(path, &b, len, 1 << 30) != CUZK_OK)
        return NULL;
    return b;
}

/* A snarkjs key: the witness is checked at submit; the proof verifies with the key the engine
 * exports; a witness that does not satisfy the circuit fails the job. */
CUZK_TEST(engine_zkey)
{
    char *dir = eng_tmpdir();
    uint64_t live0 = cuzk_alloc_live_bytes();
    size_t wl, pl;
    uint8_t *w = fixture("multiplier.wtns", &wl), *other = fixture("poseidon.wtns", &pl);
    if (!w || !other)
        test_skip("fixtures/snarkjs/multiplier.wtns not available");
    char zkey[512];
    snprintf(zkey, sizeof zkey, "%s/snarkjs/multiplier.zkey", test_fixtures_dir());
    cuzk_engine_config c;
    eng_config(&c, dir);
    cuzk_engine *e = eng_create(&c);
    cuzk_engine_circuit zc = {.id = "mul", .source = CUZK_CIRCUIT_ZKEY, .zkey_path = zkey};
    CHECK(cuzk_engine_add_circuit(e, &zc) == CUZK_OK);
    cuzk_job_request r = {.circuit_id = "mul", .witness = w, .witness_len = wl};
    cuzk_submit_info si;
    CHECK_MSG(cuzk_engine_submit(e, &r, &si) == CUZK_OK, "%s", cuzk_last_error());
    cuzk_job_result res;
    CHECK(eng_await(e, si.job_id, &res) == CUZK_JOB_COMPLETED);
    CHECK(res.verified && res.partitions == 1 && res.gpu_compute_ms <= res.total_ms);
    cuzk_engine_circuit_info info;
    CHECK(cuzk_engine_circuit_info_get(e, "mul", &info) == CUZK_OK);
    CHECK(strcmp(info.source, "zkey") == 0 && info.n_public_inputs == res.n_public);
    char vk[512];
    snprintf(vk, sizeof vk, "%s/mul.vk", dir);
    eng_verify(vk, &res);
    cuzk_engine_circuit_info_clear(&info);
    cuzk_job_result_clear(&res);
    /* bad witnesses are refused at submit */
    r.witness_len = wl - 7;
    CHECK(cuzk_engine_submit(e, &r, &si) == CUZK_ERR_INVALID_ARG);
    r.witness = other;
    r.witness_len = pl;
    CHECK(cuzk_engine_submit(e, &r, &si) == CUZK_ERR_INVALID_ARG);
    CHECK_MSG(strstr(cuzk_last_error(), "wires"), "%s", cuzk_last_error());
    r.witness = NULL;
    r.witness_len = 0;
    CHECK(cuzk_engine_submit(e, &r, &si) == CUZK_ERR_INVALID_ARG);
    r.witness = w;
    r.witness_len = wl;
    r.partitions = 2;
    CHECK(cuzk_engine_submit(e, &r, &si) == CUZK_ERR_INVALID_ARG);
    r.partitions = 1;
    /* a value >= r (the field modulus) in the last wire */
    uint8_t *big = cuzk_alloc(wl);
    memcpy(big, w, wl);
    memset(big + wl - 32, 0xff, 32);
    r.witness = big;
    CHECK(cuzk_engine_submit(e, &r, &si) == CUZK_ERR_INVALID_ARG);
    /* an unsatisfying witness: the job fails the self-check */
    memcpy(big, w, wl);
    big[wl - 32] ^= 1;
    CHECK(cuzk_engine_submit(e, &r, &si) == CUZK_OK);
    CHECK(eng_await(e, si.job_id, &res) == CUZK_JOB_FAILED);
    printf("# unsatisfied witness: %s\n", res.error);
    cuzk_job_result_clear(&res);
    cuzk_free(big);
    cuzk_free(w);
    cuzk_free(other);
    cuzk_engine_destroy(e);
    CHECK_MSG(cuzk_alloc_live_bytes() == live0, "%llu bytes leaked",
              (unsigned long long)(cuzk_alloc_live_bytes() - live0));
    eng_rm_rf(dir);
}

static uint64_t metric(const char *text, const char *line_prefix)
{
    const char *p = text;
    size_t n = strlen(line_prefix);
    while (p && *p) {
        if (strncmp(p, line_prefix, n) == 0 && p[n] == ' ')
            return strtoull(p + n + 1, NULL, 10);
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    test_fail_at(__FILE__, __LINE__, "metric %s missing", line_prefix);
}

CUZK_TEST(engine_metrics)
{
    char *dir = eng_tmpdir();
    uint64_t live0 = cuzk_alloc_live_bytes();
    cuzk_engine_config c;
    eng_config(&c, dir);
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "pm", ENG_SMALL, NULL);
    eng_add(e, "bad", ENG_SMALL, "/nonexistent/bad.params");
    char ok[CUZK_ENGINE_ID_MAX], fail[CUZK_ENGINE_ID_MAX], can[CUZK_ENGINE_ID_MAX];
    unsigned parts = 1 + (unsigned)(test_rand_u64() % 3);
    eng_submit(e, "pm", NULL, CUZK_PRIORITY_NORMAL, parts, ok);
    eng_submit(e, "bad", NULL, CUZK_PRIORITY_NORMAL, 1, fail);
    eng_submit(e, "pm", NULL, CUZK_PRIORITY_LOW, 50, can);
    cuzk_job_result r;
    CHECK(eng_await(e, ok, &r) == CUZK_JOB_COMPLETED);
    cuzk_job_result_clear(&r);
    CHECK(eng_await(e, fail, &r) == CUZK_JOB_FAILED);
    cuzk_job_result_clear(&r);
    bool running, cancelled;
    CHECK(cuzk_engine_cancel(e, can, &running, &cancelled) == CUZK_OK && cancelled);
    CHECK(eng_await(e, can, &r) == CUZK_JOB_CANCELLED);
    cuzk_job_result_clear(&r);
    char *m = NULL;
    CHECK(cuzk_engine_metrics(e, &m) == CUZK_OK);
    CHECK(strstr(m, "# TYPE cuzk_proofs_completed_total counter\n"));
    CHECK(strstr(m, "# TYPE cuzk_phase_duration_seconds histogram\n"));
    CHECK(strstr(m, "# HELP cuzk_proof_duration_seconds "));
    CHECK(metric(m, "cuzk_proofs_completed_total") == 1);
    CHECK(metric(m, "cuzk_proofs_completed_total{circuit=\"pm\"}") == 1);
    CHECK(metric(m, "cuzk_proofs_failed_total") == 1);
    CHECK(metric(m, "cuzk_proofs_failed_total{circuit=\"bad\"}") == 1);
    CHECK(metric(m, "cuzk_proofs_cancelled_total") == 1);
    CHECK(metric(m, "cuzk_proof_duration_seconds_count") == 1);
    CHECK(metric(m, "cuzk_srs_bytes{circuit=\"pm\",tier=\"hot\"}") > 0);
    CHECK(metric(m, "cuzk_srs_bytes{circuit=\"bad\",tier=\"cold\"}") == 0);
    CHECK(metric(m, "cuzk_pinned_bytes") == metric(m, "cuzk_srs_bytes{circuit=\"pm\",tier=\"hot\"}"));
    /* the total budget holds the HOT set and the partitions in flight (the cancelled job's
     * may still be finishing) */
    CHECK(metric(m, "cuzk_memory_in_use_bytes") ==
          metric(m, "cuzk_pinned_bytes") + metric(m, "cuzk_memory_in_flight_bytes") +
              metric(m, "cuzk_memory_scratch_bytes"));
    CHECK(metric(m, "cuzk_memory_scratch_bytes") > 0);
    /* the device counters' family is there, with one sample per event and GPU the engine
     * proves on: none on a CPU engine (and never one without its gpu label) */
    CHECK(strstr(m, "# TYPE cuzk_gpu_events_total counter\n"));
    CHECK(!strstr(m, "\ncuzk_gpu_events_total{"));
    CHECK(!strstr(m, "cuzk_gpu_events_total{event="));
    /* so are the resident bytes and built rows per GPU */
    CHECK(strstr(m, "# TYPE cuzk_gpu_resident_bytes gauge\n"));
    CHECK(strstr(m, "# TYPE cuzk_gpu_h_precompute_rows gauge\n"));
    CHECK(!strstr(m, "\ncuzk_gpu_resident_bytes{") && !strstr(m, "\ncuzk_gpu_h_precompute_rows{"));
    /* every proved partition (the cancelled job's may add some) is in each phase histogram */
    uint64_t cnt = metric(m, "cuzk_phase_duration_seconds_count{phase=\"msm_h\"}");
    CHECK(cnt >= parts);
    CHECK(metric(m, "cuzk_phase_duration_seconds_count{phase=\"total\"}") == cnt);
    uint64_t prev = 0;
    const char *p = m;
    unsigned buckets = 0;
    while ((p = strstr(p, "cuzk_phase_duration_seconds_bucket{phase=\"msm_h\",le=\""))) {
        const char *v = strchr(p, '}') + 2;
        uint64_t x = strtoull(v, NULL, 10);
        CHECK(x >= prev);
        prev = x;
        buckets++;
        p = v;
    }
    CHECK(buckets > 5 && prev == cnt); /* +Inf bucket = count */
    cuzk_engine_status st;
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    CHECK(st.completed == 1 && st.failed == 1 && st.cancelled == 1);
    cuzk_engine_status_clear(&st);
    /* counters are monotonic across calls */
    char id[CUZK_ENGINE_ID_MAX];
    eng_submit(e, "pm", NULL, CUZK_PRIORITY_NORMAL, 1, id);
    CHECK(eng_await(e, id, &r) == CUZK_JOB_COMPLETED);
    cuzk_job_result_clear(&r);
    char *m2 = NULL;
    CHECK(cuzk_engine_metrics(e, &m2) == CUZK_OK);
    CHECK(metric(m2, "cuzk_proofs_completed_total") == 2);
    CHECK(metric(m2, "cuzk_phase_duration_seconds_count{phase=\"msm_h\"}") > cnt);
    CHECK(!strstr(m2, "\ncuzk_gpu_events_total{")); /* still no device samples */
    cuzk_free(m);
    cuzk_free(m2);
    cuzk_engine_destroy(e);
    CHECK_MSG(cuzk_alloc_live_bytes() == live0, "%llu bytes leaked",
              (unsigned long long)(cuzk_alloc_live_bytes() - live0));
    eng_rm_rf(dir);
}

/* The a/b/c pool filled ahead (warm.c cuzk__abc_prefill_locked): once a builtin set is HOT, an
 * idle prover worker makes one partition's a, b and c per worker, and the first partitions take
 * those (no new buffer); without a pool nothing is asked for. */
CUZK_TEST(engine_abc_prefill)
{
    char *dir = eng_tmpdir();
    for (int pool = 1; pool >= 0; pool--) {
        cuzk_engine_config c;
        eng_config(&c, dir);
        c.prover_workers = 2;
        c.host_pool_min_bytes = 4096; /* this small circuit's vectors are pooled */
        c.no_host_pool = !pool;
        cuzk_engine *e = eng_create(&c);
        eng_add(e, "ap", ENG_SMALL, NULL);
        bool already;
        uint64_t ms;
        CHECK_MSG(cuzk_engine_preload(e, "ap", &already, &ms) == CUZK_OK, "%s",
                  cuzk_last_error());
        size_t want = 0;
        bool done = false;
        for (int tries = 0; pool && tries < 500 && !done; tries++) {
            pthread_mutex_lock(&e->mu);
            want = e->abc_want;
            done = want && e->abc_done == want && !e->abc_filling;
            pthread_mutex_unlock(&e->mu);
            if (!done)
                usleep(10000);
        }
        cuzk_host_pool_stats hs;
        cuzk_host_pool_get_stats(e->abc_pool, &hs);
        printf("# pool %d: a/b/c of %zu bytes, %llu buffers made ahead\n", pool, want,
               (unsigned long long)hs.buffers);
        if (!pool) {
            CHECK(!done && want == 0 && e->abc_pool == NULL);
        } else {
            CHECK(done && want >= 4096 && (want & (want - 1)) == 0);
            CHECK(hs.buffers == 6 && hs.bytes_held == 6 * want && hs.requests == 0);
        }
        char id[CUZK_ENGINE_ID_MAX];
        eng_submit(e, "ap", NULL, CUZK_PRIORITY_NORMAL, 2, id);
        cuzk_job_result r;
        CHECK(eng_await(e, id, &r) == CUZK_JOB_COMPLETED);
        cuzk_job_result_clear(&r);
        cuzk_host_pool_get_stats(e->abc_pool, &hs);
        if (pool)
            CHECK_MSG(hs.requests >= 6 && hs.reused == hs.requests && hs.fallback == 0 &&
                          hs.buffers == 6,
                      "%llu requests, %llu reused, %llu fallbacks, %llu buffers",
                      (unsigned long long)hs.requests, (unsigned long long)hs.reused,
                      (unsigned long long)hs.fallback, (unsigned long long)hs.buffers);
        cuzk_engine_destroy(e);
    }
    eng_rm_rf(dir);
}

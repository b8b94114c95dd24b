/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Engine with pce on: the PCE is extracted after a circuit's first partition, later partitions
 * are synthesised through it (proofs verify against the written key, the same seed gives the
 * same public inputs as the direct path), it is charged to the budget, shown in status and
 * metrics, dropped with its set; without room in the budget it is not built and jobs go on. */
#include "test_engine_util.h"

#include "r1cs/pce_internal.h"

#include <unistd.h>

/* Polls the status until |id|'s PCE leaves "" / "building" (at most |ms|); returns a copy. */
static cuzk_engine_srs_status pce_wait(cuzk_engine *e, const char *id, double ms)
{
    double t0 = eng_now_ms();
    for (;;) {
        cuzk_engine_status st;
        CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
        cuzk_engine_srs_status s = *srs_of(&st, id);
        uint64_t pce = st.memory_pce;
        cuzk_engine_status_clear(&st);
        if (strcmp(s.pce, "ready") == 0 || strcmp(s.pce, "failed") == 0) {
            CHECK(pce == (strcmp(s.pce, "ready") == 0 ? s.pce_bytes : 0));
            return s;
        }
        CHECK_MSG(eng_now_ms() - t0 < ms, "PCE of %s still '%s' after %.0f ms", id, s.pce, ms);
        struct timespec d = {0, 20 * 1000 * 1000};
        nanosleep(&d, NULL);
    }
}

static void submit_seed(cuzk_engine *e, const char *circuit, const uint8_t seed[8], uint32_t parts,
                        cuzk_job_result *r)
{
    cuzk_job_request q = {
        .circuit_id = circuit, .witness = seed, .witness_len = 8, .partitions = parts};
    cuzk_submit_info si;
    CHECK_MSG(cuzk_engine_submit(e, &q, &si) == CUZK_OK, "submit: %s", cuzk_last_error());
    CHECK(eng_await(e, si.job_id, r) == CUZK_JOB_COMPLETED);
    CHECK(r->verified && r->partitions == parts);
}

static void pce_run(cuzk_backend_kind backend)
{
    char *dir = eng_tmpdir();
    uint64_t live0 = cuzk_alloc_live_bytes();
    cuzk_engine_config c;
    eng_config(&c, dir);
    CHECK(!c.pce); /* off by default in the library; the daemon turns it on */
    c.pce = true;
    c.threads = 2;
    c.backend = backend; /* CUDA: a and b from the PCE, c formed on the device */
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "demo", "sha256-chain:1", NULL);
    uint8_t seed[8];
    test_rand_bytes(seed, sizeof seed);
    cuzk_job_result r0, r1;
    submit_seed(e, "demo", seed, 1, &r0); /* direct; starts the extraction */
    cuzk_engine_srs_status s = pce_wait(e, "demo", 120000);
    CHECK_MSG(strcmp(s.pce, "ready") == 0, "PCE failed: %s", s.pce_error);
    CHECK(s.pce_bytes > 0 && s.pce_extract_ms > 0 && s.pce_partitions == 0);
    printf("# demo PCE: %llu bytes, extracted in %.1f ms\n", (unsigned long long)s.pce_bytes,
           s.pce_extract_ms);

    /* Through the PCE: every proof verifies against the key file; partition 0 of the same seed
     * has the direct path's public inputs. */
    submit_seed(e, "demo", seed, 3, &r1);
    char vk[512];
    snprintf(vk, sizeof vk, "%s/demo.vk", dir);
    eng_verify(vk, &r0);
    eng_verify(vk, &r1);
    CHECK(memcmp(r0.public_inputs, r1.public_inputs, r0.public_inputs_len) == 0);
    CHECK(r1.phase_ms[CUZK_PHASE_SYNTHESIS] > 0);
    cuzk_engine_status st;
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    const cuzk_engine_srs_status *sd = srs_of(&st, "demo");
    CHECK(sd->pce_partitions == 3 && st.memory_pce == sd->pce_bytes);
    CHECK(st.memory_in_use ==
          st.pinned_bytes + st.memory_in_flight + st.memory_scratch + st.memory_pce);
    CHECK(st.memory_in_flight == 0); /* nothing in flight; the PCE is not counted there */
    cuzk_engine_status_clear(&st);
    char *m = NULL;
    CHECK(cuzk_engine_metrics(e, &m) == CUZK_OK);
    char want[128];
    snprintf(want, sizeof want, "cuzk_memory_pce_bytes %llu\n", (unsigned long long)s.pce_bytes);
    CHECK(strstr(m, want) != NULL);
    CHECK(strstr(m, "cuzk_pce_partitions_total{circuit=\"demo\"} 3\n") != NULL);
    cuzk_free(m);

    /* Eviction drops it with the set; the next job builds it again. */
    bool was = false;
    uint64_t freed = 0;
    CHECK(cuzk_engine_evict(e, "demo", &was, &freed) == CUZK_OK);
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    CHECK(st.memory_pce == 0 && srs_of(&st, "demo")->pce[0] == 0);
    cuzk_engine_status_clear(&st);
    cuzk_job_result r2;
    submit_seed(e, "demo", seed, 1, &r2);
    CHECK(memcmp(r0.public_inputs, r2.public_inputs, r0.public_inputs_len) == 0);
    s = pce_wait(e, "demo", 120000);
    CHECK(strcmp(s.pce, "ready") == 0);
    cuzk_job_result_clear(&r0);
    cuzk_job_result_clear(&r1);
    cuzk_job_result_clear(&r2);
    cuzk_engine_destroy(e);
    CHECK_MSG(cuzk_alloc_live_bytes() == live0, "%llu bytes leaked",
              (unsigned long long)(cuzk_alloc_live_bytes() - live0));
    eng_rm_rf(dir);
}

CUZK_TEST(engine_pce)
{
    pce_run(CUZK_BACKEND_CPU);
}

CUZK_TEST(engine_pce_cuda)
{
    if (!cuzk_backend_cuda_usable())
        test_skip("no usable CUDA device");
    pce_run(CUZK_BACKEND_CUDA);
}

/* A budget with room for the set, a partition and the scratch but not for the extraction: no
 * PCE is built (the status says what it waits for), and jobs go on the direct way. */
CUZK_TEST(engine_pce_no_room)
{
    char *dir = eng_tmpdir();
    cuzk_engine_config c;
    eng_config(&c, dir);
    c.pce = true;
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "demo", ENG_SMALL, NULL);
    uint8_t seed[8];
    test_rand_bytes(seed, sizeof seed);
    cuzk_job_result r;
    submit_seed(e, "demo", seed, 1, &r);
    cuzk_job_result_clear(&r);
    cuzk_engine_status st;
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    const cuzk_engine_srs_status *sd = srs_of(&st, "demo");
    uint64_t need = sd->size_bytes + sd->partition_bytes + st.memory_scratch;
    cuzk_engine_status_clear(&st);
    cuzk_engine_destroy(e);

    eng_config(&c, dir);
    c.pce = true;
    c.memory_budget = need + 4096;
    e = eng_create(&c);
    eng_add(e, "demo", ENG_SMALL, NULL);
    for (int k = 0; k < 2; k++) {
        submit_seed(e, "demo", seed, 2, &r);
        cuzk_job_result_clear(&r);
    }
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    sd = srs_of(&st, "demo");
    CHECK_MSG(sd->pce[0] == 0 && strstr(sd->pce_error, "waiting for") &&
                  strstr(sd->pce_error, "memory budget"),
              "pce '%s' (%s)", sd->pce, sd->pce_error);
    CHECK(sd->pce_partitions == 0 && st.memory_pce == 0);
    cuzk_engine_status_clear(&st);
    cuzk_engine_destroy(e);
    eng_rm_rf(dir);
}

static cuzk_engine *file_engine(const char *dir, const char *tag)
{
    cuzk_engine_config c;
    eng_config(&c, dir);
    c.pce = true;
    c.pce_cache_tag = tag;
    c.threads = 2;
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "demo", "sha256-chain:1", NULL);
    return e;
}

/* One proof (which starts the extraction or the read) and the PCE once ready. */
static cuzk_engine_srs_status file_round(cuzk_engine *e, const uint8_t seed[8])
{
    cuzk_job_result r;
    submit_seed(e, "demo", seed, 1, &r);
    cuzk_job_result_clear(&r);
    cuzk_engine_srs_status s = pce_wait(e, "demo", 120000);
    CHECK_MSG(strcmp(s.pce, "ready") == 0, "PCE %s: %s", s.pce, s.pce_error);
    return s;
}

/* pce_cache_tag: an extracted PCE is written and a later engine with the tag reads it instead of
 * extracting; a damaged file is refused and written again; another tag does not read it; a file
 * that passes its checksum but gives wrong a/b/c is distrusted after the first proof through it
 * fails self-verification (removed; later partitions direct). */
CUZK_TEST(engine_pce_file)
{
    char *dir = eng_tmpdir();
    uint64_t live0 = cuzk_alloc_live_bytes();
    cuzk_engine_config c;
    cuzk_engine *e = NULL;
    static const char *const bad_tags[] = {"", "a/b", "x y",
                                           "0123456789012345678901234567890123456789012345678901"
                                           "234567890123"};
    for (size_t i = 0; i < sizeof bad_tags / sizeof bad_tags[0]; i++) {
        eng_config(&c, dir);
        c.pce_cache_tag = bad_tags[i];
        CHECK(cuzk_engine_create(&e, &c) == CUZK_ERR_INVALID_ARG && !e);
    }
    uint8_t seed[8];
    test_rand_bytes(seed, sizeof seed);
    char path[512];
    snprintf(path, sizeof path, "%s/pce/sha256-chain_1.t1.pce", dir);

    e = file_engine(dir, "t1");
    cuzk_engine_srs_status s = file_round(e, seed);
    CHECK(!s.pce_from_file && access(path, F_OK) == 0);
    cuzk_engine_destroy(e);

    e = file_engine(dir, "t1");
    s = file_round(e, seed);
    CHECK(s.pce_from_file);
    cuzk_job_result r;
    submit_seed(e, "demo", seed, 2, &r);
    char vk[512];
    snprintf(vk, sizeof vk, "%s/demo.vk", dir);
    eng_verify(vk, &r);
    cuzk_job_result_clear(&r);
    cuzk_engine_destroy(e);

    /* truncated: refused, extracted again and rewritten whole */
    CHECK(truncate(path, 1000) == 0);
    e = file_engine(dir, "t1");
    s = file_round(e, seed);
    CHECK(!s.pce_from_file);
    cuzk_engine_destroy(e);
    cuzk_pce *pce = NULL;
    CHECK(cuzk_pce_load(&pce, path) == CUZK_OK);

    /* another tag reads nothing */
    e = file_engine(dir, "t2");
    s = file_round(e, seed);
    CHECK(!s.pce_from_file);
    cuzk_engine_destroy(e);

    /* B's +1 / -1 entries negated (so b = -B z where B has only those: a b - c = -2c on rows
     * with c != 0), saved with a valid checksum */
    pce_matrix *b = &pce->m[1];
    for (uint64_t k = 0; k < b->unit_nnz; k++)
        b->unit_col[k] ^= PCE_NEG_BIT;
    CHECK(b->unit_nnz > 100);
    CHECK(cuzk_pce_save(pce, path) == CUZK_OK);
    cuzk_pce_destroy(pce);
    e = file_engine(dir, "t1");
    s = file_round(e, seed);
    CHECK(s.pce_from_file);
    cuzk_job_request q = {.circuit_id = "demo", .witness = seed, .witness_len = 8};
    cuzk_submit_info si;
    CHECK(cuzk_engine_submit(e, &q, &si) == CUZK_OK);
    CHECK(eng_await(e, si.job_id, &r) == CUZK_JOB_FAILED);
    CHECK_MSG(strstr(r.error, "verif") != NULL, "%s", r.error);
    cuzk_job_result_clear(&r);
    cuzk_engine_status st;
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    const cuzk_engine_srs_status *sd = srs_of(&st, "demo");
    CHECK_MSG(strcmp(sd->pce, "failed") == 0 && strstr(sd->pce_error, "self-verification"),
              "%s: %s", sd->pce, sd->pce_error);
    CHECK(st.memory_pce == sd->pce_bytes && sd->pce_bytes > 0); /* kept until the set goes */
    cuzk_engine_status_clear(&st);
    CHECK(access(path, F_OK) != 0);
    submit_seed(e, "demo", seed, 2, &r); /* direct again */
    eng_verify(vk, &r);
    cuzk_job_result_clear(&r);
    bool was;
    uint64_t freed;
    CHECK(cuzk_engine_evict(e, "demo", &was, &freed) == CUZK_OK);
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    CHECK(st.memory_pce == 0 && srs_of(&st, "demo")->pce[0] == 0);
    cuzk_engine_status_clear(&st);
    cuzk_engine_destroy(e);
    CHECK_MSG(cuzk_alloc_live_bytes() == live0, "%llu bytes leaked",
              (unsigned long long)(cuzk_alloc_live_bytes() - live0));
    eng_rm_rf(dir);
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Engine: jobs end to end, idempotency, priorities, cancellation, timeouts, shutdown. */
#include "test_engine_util.h"
#include "gpu/gpu_msm.h"

#include <fcntl.h>
#include <pthread.h>

/* "demo" = sha256-chain:1 with generated parameters: 2 partitions, each proof verifies against
 * the written .vk with the returned public inputs; timings are filled. */
CUZK_TEST(engine_roundtrip)
{
    char *dir = eng_tmpdir();
    uint64_t live0 = cuzk_alloc_live_bytes();
    cuzk_engine_config c;
    eng_config(&c, dir);
    c.threads = 2;
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "demo", "sha256-chain:1", NULL);
    char id[CUZK_ENGINE_ID_MAX];
    eng_submit(e, "demo", NULL, CUZK_PRIORITY_DEFAULT, 2, id);
    CHECK(strlen(id) == 36 && id[14] == '4'); /* UUIDv4 */
    cuzk_job_result r;
    CHECK(eng_await(e, id, &r) == CUZK_JOB_COMPLETED);
    CHECK(r.partitions == 2 && r.n_public == 2 && r.verified);
    CHECK(strcmp(r.circuit_id, "demo") == 0 && strcmp(r.backend, "cpu") == 0);
    char vk[512];
    snprintf(vk, sizeof vk, "%s/demo.vk", dir);
    eng_verify(vk, &r);
    /* different seeds per partition: different public inputs */
    CHECK(memcmp(r.public_inputs, r.public_inputs + 64, 64) != 0);
    CHECK(r.total_ms >= r.srs_load_ms && r.srs_load_ms > 0 && r.phase_ms[CUZK_PHASE_MSM_H] > 0);
    CHECK(r.phase_ms[CUZK_PHASE_GPU_COMPUTE] >= r.phase_ms[CUZK_PHASE_MSM_H]);
    CHECK(r.phase_ms[CUZK_PHASE_SYNTHESIS] > 0 && r.phase_ms[CUZK_PHASE_VERIFY] > 0);
    printf("# demo: total %llu ms, srs_load %llu, synthesis %llu, prover %llu\n",
           (unsigned long long)r.total_ms, (unsigned long long)r.srs_load_ms,
           (unsigned long long)r.synthesis_ms, (unsigned long long)r.gpu_compute_ms);
    /* circuit info returns the same key the file holds */
    cuzk_engine_circuit_info info;
    CHECK(cuzk_engine_circuit_info_get(e, "demo", &info) == CUZK_OK);
    uint8_t *file;
    size_t len;
    CHECK(cuzk_read_file(vk, &file, &len, 1 << 20) == CUZK_OK);
    CHECK(len == info.vk_len && memcmp(file, info.vk, len) == 0);
    CHECK(info.n_public_inputs == 2 && info.n_constraints == 26354);
    CHECK(strcmp(info.source, "builtin:sha256-chain:1") == 0);
    cuzk_free(file);
    cuzk_engine_circuit_info_clear(&info);
    /* A fixed seed gives the same public inputs (deterministic synthesis). */
    uint8_t seed[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    cuzk_job_request q = {.circuit_id = "demo", .witness = seed, .witness_len = 8};
    cuzk_submit_info s1, s2;
    CHECK(cuzk_engine_submit(e, &q, &s1) == CUZK_OK && cuzk_engine_submit(e, &q, &s2) == CUZK_OK);
    CHECK(strcmp(s1.job_id, s2.job_id) != 0);
    cuzk_job_result r1, r2;
    CHECK(eng_await(e, s1.job_id, &r1) == CUZK_JOB_COMPLETED);
    CHECK(eng_await(e, s2.job_id, &r2) == CUZK_JOB_COMPLETED);
    CHECK(memcmp(r1.public_inputs, r2.public_inputs, 64) == 0);
    CHECK(memcmp(r1.proof, r2.proof, 192) != 0); /* fresh r, s */
    cuzk_job_result_clear(&r1);
    cuzk_job_result_clear(&r2);
    cuzk_job_result_clear(&r);
    cuzk_engine_destroy(e);
    CHECK_MSG(cuzk_alloc_live_bytes() == live0, "%llu bytes leaked",
              (unsigned long long)(cuzk_alloc_live_bytes() - live0));
    eng_rm_rf(dir);
}

CUZK_TEST(engine_idempotent)
{
    char *dir = eng_tmpdir();
    uint64_t live0 = cuzk_alloc_live_bytes();
    cuzk_engine_config c;
    eng_config(&c, dir);
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "pm", ENG_SMALL, NULL);
    char req[40];
    snprintf(req, sizeof req, "porep-%016llx", (unsigned long long)test_rand_u64());
    cuzk_job_request r = {.request_id = req, .circuit_id = "pm", .partitions = 2};
    cuzk_submit_info a, b, d;
    CHECK(cuzk_engine_submit(e, &r, &a) == CUZK_OK && !a.existing);
    CHECK(strcmp(a.job_id, req) == 0);
    CHECK(cuzk_engine_submit(e, &r, &b) == CUZK_OK && b.existing);
    CHECK(strcmp(b.job_id, req) == 0);
    cuzk_job_result res;
    CHECK(eng_await(e, req, &res) == CUZK_JOB_COMPLETED);
    CHECK(cuzk_engine_submit(e, &r, &d) == CUZK_OK && d.existing);
    /* Same id for another circuit is refused. */
    eng_add(e, "pm2", ENG_SMALL, NULL);
    cuzk_job_request other = r;
    other.circuit_id = "pm2";
    CHECK(cuzk_engine_submit(e, &other, &d) == CUZK_ERR_INVALID_ARG);
    cuzk_engine_status st;
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    CHECK(st.completed == 1);
    cuzk_engine_status_clear(&st);
    cuzk_job_result res2;
    CHECK(eng_await(e, req, &res2) == CUZK_JOB_COMPLETED);
    CHECK(memcmp(res.proof, res2.proof, res.proof_len) == 0); /* the same proof, not a new one */
    cuzk_job_result_clear(&res);
    cuzk_job_result_clear(&res2);
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

/* A FAILED id resubmits as a new job; a CANCELLED one too. */
CUZK_TEST(engine_failed_id_resubmits)
{
    char *dir = eng_tmpdir();
    uint64_t live0 = cuzk_alloc_live_bytes();
    cuzk_engine_config c;
    eng_config(&c, dir);
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "pm", ENG_SMALL, NULL);
    bool already;
    uint64_t ms;
    CHECK(cuzk_engine_preload(e, "pm", &already, &ms) == CUZK_OK && !already);
    char good[512], bad[512];
    snprintf(good, sizeof good, "%s/pm.params", dir);
    snprintf(bad, sizeof bad, "%s/other.params", dir);
    uint8_t *img;
    size_t len;
    CHECK(cuzk_read_file(good, &img, &len, 1 << 30) == CUZK_OK);
    write_file(bad, img, len / 2); /* truncated */
    eng_add(e, "other", ENG_SMALL, bad);
    cuzk_job_request r = {.request_id = "retry-me", .circuit_id = "other"};
    cuzk_submit_info si;
    CHECK(cuzk_engine_submit(e, &r, &si) == CUZK_OK && !si.existing);
    cuzk_job_result res;
    CHECK(eng_await(e, "retry-me", &res) == CUZK_JOB_FAILED);
    printf("# failure message: %s\n", res.error);
    CHECK(strstr(res.error, "other.params") && strstr(res.error, "truncated"));
    cuzk_job_result_clear(&res);
    write_file(bad, img, len); /* repaired */
    CHECK(cuzk_engine_submit(e, &r, &si) == CUZK_OK && !si.existing);
    CHECK(eng_await(e, "retry-me", &res) == CUZK_JOB_COMPLETED);
    cuzk_job_result_clear(&res);
    /* cancelled id -> new job */
    cuzk_job_request r2 = {.request_id = "cancel-me", .circuit_id = "pm", .partitions = 30};
    CHECK(cuzk_engine_submit(e, &r2, &si) == CUZK_OK);
    bool running, cancelled;
    CHECK(cuzk_engine_cancel(e, "cancel-me", &running, &cancelled) == CUZK_OK && cancelled);
    CHECK(eng_await(e, "cancel-me", &res) == CUZK_JOB_CANCELLED);
    cuzk_job_result_clear(&res);
    r2.partitions = 1;
    CHECK(cuzk_engine_submit(e, &r2, &si) == CUZK_OK && !si.existing);
    CHECK(eng_await(e, "cancel-me", &res) == CUZK_JOB_COMPLETED);
    cuzk_job_result_clear(&res);
    cuzk_free(img);
    cuzk_engine_destroy(e);
    CHECK_MSG(cuzk_alloc_live_bytes() == live0, "%llu bytes leaked",
              (unsigned long long)(cuzk_alloc_live_bytes() - live0));
    eng_rm_rf(dir);
}

/* One synthesis and one prover worker: NORMAL multi-partition jobs, then a HIGH one; the HIGH
 * job overtakes at the next partition boundary and completes before the later NORMAL jobs. */
CUZK_TEST(engine_priority)
{
    char *dir = eng_tmpdir();
    uint64_t live0 = cuzk_alloc_live_bytes();
    cuzk_engine_config c;
    eng_config(&c, dir);
    c.queue_depth = 1;
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "pm", ENG_SMALL, NULL);
    bool already;
    uint64_t ms;
    CHECK(cuzk_engine_preload(e, "pm", &already, &ms) == CUZK_OK);
    char n[3][CUZK_ENGINE_ID_MAX], hi[CUZK_ENGINE_ID_MAX];
    for (int i = 0; i < 3; i++)
        eng_submit(e, "pm", NULL, CUZK_PRIORITY_NORMAL, 4, n[i]);
    uint8_t seed[8] = {0};
    cuzk_job_request r = {.circuit_id = "pm", .priority = CUZK_PRIORITY_HIGH, .witness = seed,
                          .witness_len = 8};
    cuzk_submit_info si;
    CHECK(cuzk_engine_submit(e, &r, &si) == CUZK_OK);
    CHECK(si.queue_position == 0); /* nothing of higher or equal priority queued ahead */
    snprintf(hi, sizeof hi, "%s", si.job_id);
    cuzk_job_result res;
    CHECK(eng_await(e, hi, &res) == CUZK_JOB_COMPLETED);
    cuzk_job_result_clear(&res);
    for (int i = 1; i < 3; i++) {
        CHECK(cuzk_engine_await(e, n[i], 1, &res) == CUZK_OK);
        CHECK_MSG(res.status == CUZK_JOB_TIMEOUT, "NORMAL job %d finished before the HIGH one", i);
        cuzk_job_result_clear(&res);
    }
    for (int i = 0; i < 3; i++) {
        CHECK(eng_await(e, n[i], &res) == CUZK_JOB_COMPLETED);
        cuzk_job_result_clear(&res);
    }
    /* queue_position counts partitions of equal or higher priority still queued */
    eng_submit(e, "pm", NULL, CUZK_PRIORITY_LOW, 3, n[0]);
    CHECK(cuzk_engine_submit(e, &r, &si) == CUZK_OK && si.queue_position == 0);
    cuzk_job_request low = {.circuit_id = "pm", .priority = CUZK_PRIORITY_LOW};
    CHECK(cuzk_engine_submit(e, &low, &si) == CUZK_OK && si.queue_position >= 1);
    cuzk_engine_destroy(e);
    CHECK_MSG(cuzk_alloc_live_bytes() == live0, "%llu bytes leaked",
              (unsigned long long)(cuzk_alloc_live_bytes() - live0));
    eng_rm_rf(dir);
}

CUZK_TEST(engine_cancel)
{
    char *dir = eng_tmpdir();
    uint64_t live0 = cuzk_alloc_live_bytes();
    cuzk_engine_config c;
    eng_config(&c, dir);
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "pm", ENG_SMALL, NULL);
    bool already, running, cancelled;
    uint64_t ms;
    CHECK(cuzk_engine_preload(e, "pm", &already, &ms) == CUZK_OK);
    char a[CUZK_ENGINE_ID_MAX], b[CUZK_ENGINE_ID_MAX];
    eng_submit(e, "pm", NULL, CUZK_PRIORITY_NORMAL, 40, a);
    eng_submit(e, "pm", NULL, CUZK_PRIORITY_NORMAL, 2, b);
    /* wait until |a| runs */
    double t0 = eng_now_ms();
    for (;;) {
        cuzk_engine_status st;
        CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
        bool go = st.n_queues == 1 && st.queues[0].in_progress == 1 && st.queues[0].pending == 1;
        CHECK(st.n_queues == 1 && strcmp(st.queues[0].kind, "circuit:pm") == 0);
        cuzk_engine_status_clear(&st);
        if (go)
            break;
        CHECK_MSG(eng_now_ms() - t0 < 20000, "job never started");
        usleep(2000);
    }
    CHECK(cuzk_engine_cancel(e, b, &running, &cancelled) == CUZK_OK && cancelled && !running);
    CHECK(cuzk_engine_cancel(e, a, &running, &cancelled) == CUZK_OK && cancelled && running);
    cuzk_job_result r;
    CHECK(eng_await(e, a, &r) == CUZK_JOB_CANCELLED && strstr(r.error, "cancel"));
    CHECK(r.proof == NULL);
    cuzk_job_result_clear(&r);
    CHECK(eng_await(e, b, &r) == CUZK_JOB_CANCELLED);
    cuzk_job_result_clear(&r);
    /* cancelling a finished job: cancelled = false */
    CHECK(cuzk_engine_cancel(e, a, &running, &cancelled) == CUZK_OK && !cancelled);
    CHECK(cuzk_engine_cancel(e, "no-such-job", &running, &cancelled) == CUZK_ERR_NOT_FOUND);
    /* the engine still proves; everything in flight was released */
    char d[CUZK_ENGINE_ID_MAX];
    eng_submit(e, "pm", NULL, CUZK_PRIORITY_NORMAL, 1, d);
    CHECK(eng_await(e, d, &r) == CUZK_JOB_COMPLETED);
    cuzk_job_result_clear(&r);
    cuzk_engine_status st;
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    CHECK(st.cancelled == 2 && st.completed == 1 && st.memory_in_flight == 0);
    /* what the budget holds once idle: the HOT set and the prover workers' scratch, each
     * worker's charge covering the set's split (what a worker holds is at most that) */
    CHECK(st.memory_in_use == st.pinned_bytes + st.memory_scratch && st.pinned_bytes > 0);
    CHECK_MSG(st.n_srs == 1 && st.srs[0].scratch_bytes > 0 &&
                  st.memory_scratch == st.n_workers * st.srs[0].scratch_bytes,
              "scratch charged %llu, %zu workers, set's scratch %llu",
              (unsigned long long)st.memory_scratch, st.n_workers,
              (unsigned long long)st.srs[0].scratch_bytes);
    uint64_t held = 0;
    for (size_t i = 0; i < st.n_workers; i++) {
        CHECK(st.workers[i].scratch_bytes <= st.srs[0].scratch_bytes);
        held += st.workers[i].scratch_bytes;
    }
    CHECK_MSG(held > 0, "no worker holds scratch after %llu proofs",
              (unsigned long long)st.completed);
    CHECK(st.n_srs == 1 && st.srs[0].ref_count == 0 && st.n_queues == 0);
    cuzk_engine_status_clear(&st);
    cuzk_engine_destroy(e);
    CHECK_MSG(cuzk_alloc_live_bytes() == live0, "%llu bytes leaked",
              (unsigned long long)(cuzk_alloc_live_bytes() - live0));
    eng_rm_rf(dir);
}

CUZK_TEST(engine_await_timeout)
{
    char *dir = eng_tmpdir();
    uint64_t live0 = cuzk_alloc_live_bytes();
    cuzk_engine_config c;
    eng_config(&c, dir);
    c.result_ttl_ms = 300;
    c.self_verify = false; /* benchmarks: no self-check, and the result says so */
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "pm", ENG_SMALL, NULL);
    char a[CUZK_ENGINE_ID_MAX];
    eng_submit(e, "pm", NULL, CUZK_PRIORITY_NORMAL, 3, a);
    cuzk_job_result r;
    double t0 = eng_now_ms();
    CHECK(cuzk_engine_await(e, a, 20, &r) == CUZK_OK);
    double dt = eng_now_ms() - t0;
    CHECK(r.status == CUZK_JOB_TIMEOUT && strcmp(r.job_id, a) == 0);
    CHECK(dt >= 15 && dt < 5000);
    cuzk_job_result_clear(&r);
    CHECK(eng_await(e, a, &r) == CUZK_JOB_COMPLETED);
    CHECK(!r.verified && r.phase_ms[CUZK_PHASE_VERIFY] == 0);
    char vk[512];
    snprintf(vk, sizeof vk, "%s/pm.vk", dir);
    eng_verify(vk, &r);
    cuzk_job_result_clear(&r);
    CHECK(cuzk_engine_await(e, "unknown", 10, &r) == CUZK_ERR_NOT_FOUND);
    /* results expire after result_ttl_ms */
    usleep(400 * 1000);
    CHECK(cuzk_engine_await(e, a, 10, &r) == CUZK_ERR_NOT_FOUND);
    cuzk_engine_destroy(e);
    CHECK_MSG(cuzk_alloc_live_bytes() == live0, "%llu bytes leaked",
              (unsigned long long)(cuzk_alloc_live_bytes() - live0));
    eng_rm_rf(dir);
}

CUZK_TEST(engine_shutdown_drains)
{
    char *dir = eng_tmpdir();
    uint64_t live0 = cuzk_alloc_live_bytes();
    cuzk_engine_config c;
    eng_config(&c, dir);
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "pm", ENG_SMALL, NULL);
    char id[4][CUZK_ENGINE_ID_MAX];
    for (int i = 0; i < 4; i++)
        eng_submit(e, "pm", NULL, CUZK_PRIORITY_NORMAL, 2, id[i]);
    cuzk_engine_shutdown(e, 120000);
    cuzk_job_request r = {.circuit_id = "pm"};
    cuzk_submit_info si;
    CHECK(cuzk_engine_submit(e, &r, &si) == CUZK_ERR_UNAVAILABLE);
    for (int i = 0; i < 4; i++) {
        cuzk_job_result res;
        CHECK(eng_await(e, id[i], &res) == CUZK_JOB_COMPLETED);
        cuzk_job_result_clear(&res);
    }
    cuzk_engine_shutdown(e, 0); /* idempotent */
    cuzk_engine_destroy(e);

    /* no grace: what is left is cancelled, awaiters get CANCELLED */
    e = eng_create(&c);
    eng_add(e, "pm", ENG_SMALL, NULL);
    for (int i = 0; i < 3; i++)
        eng_submit(e, "pm", NULL, CUZK_PRIORITY_NORMAL, 20, id[i]);
    cuzk_engine_shutdown(e, 0);
    for (int i = 0; i < 3; i++) {
        cuzk_job_result res;
        CHECK(eng_await(e, id[i], &res) == CUZK_JOB_CANCELLED);
        CHECK(strstr(res.error, "shut down"));
        cuzk_job_result_clear(&res);
    }
    cuzk_engine_destroy(e);
    CHECK_MSG(cuzk_alloc_live_bytes() == live0, "%llu bytes leaked",
              (unsigned long long)(cuzk_alloc_live_bytes() - live0));
    eng_rm_rf(dir);
}

typedef struct {
    cuzk_engine *e;
    const char *id;
    cuzk_job_outcome got;
} await_arg;

static void *await_thread(void *p)
{
    await_arg *a = p;
    cuzk_job_result r;
    if (cuzk_engine_await(a->e, a->id, 0, &r) == CUZK_OK)
        a->got = r.status;
    cuzk_job_result_clear(&r);
    return NULL;
}

/* destroy() while a caller waits: the waiter is released with CANCELLED and nothing leaks. */
CUZK_TEST(engine_destroy_releases_awaiters)
{
    char *dir = eng_tmpdir();
    uint64_t live0 = cuzk_alloc_live_bytes();
    cuzk_engine_config c;
    eng_config(&c, dir);
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "pm", ENG_SMALL, NULL);
    char id[CUZK_ENGINE_ID_MAX];
    eng_submit(e, "pm", NULL, CUZK_PRIORITY_NORMAL, 50, id);
    await_arg a = {.e = e, .id = id};
    pthread_t th;
    CHECK(pthread_create(&th, NULL, await_thread, &a) == 0);
    usleep(50 * 1000);
    cuzk_engine_shutdown(e, 0);
    pthread_join(th, NULL);
    CHECK(a.got == CUZK_JOB_CANCELLED);
    cuzk_engine_destroy(e);
    CHECK_MSG(cuzk_alloc_live_bytes() == live0, "%llu bytes leaked",
              (unsigned long long)(cuzk_alloc_live_bytes() - live0));
    eng_rm_rf(dir);
}

CUZK_TEST(engine_bad_requests)
{
    char *dir = eng_tmpdir();
    uint64_t live0 = cuzk_alloc_live_bytes();
    cuzk_engine_config c;
    eng_config(&c, dir);
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "pm", ENG_SMALL, NULL);
    cuzk_submit_info si;
    static const cuzk_proof_kind fil[4] = {CUZK_PROOF_POREP, CUZK_PROOF_SNAP,
                                           CUZK_PROOF_WINDOW_POST, CUZK_PROOF_WINNING_POST};
    for (int i = 0; i < 4; i++) {
        cuzk_job_request r = {.kind = fil[i]};
        if (i == 0) {
            /* PoRep: the C1 output is read before a circuit is chosen (tests/unit/
             * test_engine_porep.c has the rest). */
            CHECK(cuzk_engine_submit(e, &r, &si) == CUZK_ERR_INVALID_ARG);
            CHECK(strstr(cuzk_last_error(), "needs its C1 output"));
            continue;
        }
        if (i == 1) {
            /* SnapDeals: no comms, then well formed (2 KiB: one partition) with no circuit. */
            uint8_t comm[32] = {0}, junk[4] = {0};
            const uint8_t *vp[1] = {junk};
            size_t vl[1] = {4};
            CHECK(cuzk_engine_submit(e, &r, &si) == CUZK_ERR_INVALID_ARG);
            CHECK(strstr(cuzk_last_error(), "comm_r_old of 32 bytes"));
            r.comm_r_old = r.comm_d_new = r.comm_r_new = comm;
            r.comm_r_old_len = r.comm_d_new_len = r.comm_r_new_len = 32;
            CHECK(cuzk_engine_submit(e, &r, &si) == CUZK_ERR_INVALID_ARG);
            CHECK(strstr(cuzk_last_error(), "needs 1 vanilla partition proofs (got 0)"));
            r.vanilla_proofs = vp;
            r.vanilla_lens = vl;
            r.n_vanilla = 1;
            CHECK(cuzk_engine_submit(e, &r, &si) == CUZK_ERR_UNSUPPORTED);
            CHECK(strstr(cuzk_last_error(), "fil-snap:0"));
            continue;
        }
        /* PoSt: registered proof 0 is a WinningPoSt, and no randomness or vanilla proofs. */
        CHECK(cuzk_engine_submit(e, &r, &si) == CUZK_ERR_INVALID_ARG);
        r.registered_proof = i == 2 ? 5 : 0;
        CHECK(cuzk_engine_submit(e, &r, &si) == CUZK_ERR_INVALID_ARG);
        CHECK(strstr(cuzk_last_error(), "32 bytes of randomness"));
        uint8_t rnd[32] = {0}, junk[4] = {0};
        const uint8_t *vp[1] = {junk};
        size_t vl[1] = {4};
        r.randomness = rnd;
        r.randomness_len = 32;
        CHECK(cuzk_engine_submit(e, &r, &si) == CUZK_ERR_INVALID_ARG);
        CHECK(strstr(cuzk_last_error(), "needs its vanilla proofs"));
        r.vanilla_proofs = vp;
        r.vanilla_lens = vl;
        r.n_vanilla = 1;
        CHECK(cuzk_engine_submit(e, &r, &si) == CUZK_ERR_UNSUPPORTED);
        CHECK(strstr(cuzk_last_error(), "no circuit is registered"));
    }
    cuzk_job_request r = {.circuit_id = "nope"};
    CHECK(cuzk_engine_submit(e, &r, &si) == CUZK_ERR_INVALID_ARG);
    r.circuit_id = "pm";
    r.partitions = 1025;
    CHECK(cuzk_engine_submit(e, &r, &si) == CUZK_ERR_INVALID_ARG);
    r.partitions = 1;
    uint8_t w[5] = {0};
    r.witness = w;
    r.witness_len = 5;
    CHECK(cuzk_engine_submit(e, &r, &si) == CUZK_ERR_INVALID_ARG);
    r.witness = NULL;
    r.witness_len = 0;
    char longid[200];
    memset(longid, 'x', sizeof longid - 1);
    longid[sizeof longid - 1] = 0;
    r.request_id = longid;
    CHECK(cuzk_engine_submit(e, &r, &si) == CUZK_ERR_INVALID_ARG);
    /* circuits */
    cuzk_engine_circuit bad = {.id = "a b", .source = CUZK_CIRCUIT_BUILTIN, .spec = ENG_SMALL};
    CHECK(cuzk_engine_add_circuit(e, &bad) == CUZK_ERR_INVALID_ARG);
    bad.id = "pm";
    CHECK(cuzk_engine_add_circuit(e, &bad) == CUZK_ERR_INVALID_ARG); /* duplicate */
    bad.id = "x";
    bad.spec = "no-such-circuit:3";
    CHECK(cuzk_engine_add_circuit(e, &bad) == CUZK_ERR_INVALID_ARG);
    cuzk_engine_circuit zk = {.id = "z", .source = CUZK_CIRCUIT_ZKEY};
    CHECK(cuzk_engine_add_circuit(e, &zk) == CUZK_ERR_INVALID_ARG);
    char **ids;
    size_t n;
    CHECK(cuzk_engine_circuits(e, &ids, &n) == CUZK_OK && n == 1 && strcmp(ids[0], "pm") == 0);
    cuzk_free(ids[0]);
    cuzk_free(ids);
    CHECK(strcmp(cuzk_phase_name(CUZK_PHASE_MSM_B_G2), "msm_b_g2") == 0);
    CHECK(cuzk_phase_name(CUZK_PHASE_COUNT) == NULL);
    /* config validation and a CUDA demand without a device */
    cuzk_engine *e2 = NULL;
    c.prover_workers = 100000;
    CHECK(cuzk_engine_create(&e2, &c) == CUZK_ERR_INVALID_ARG && e2 == NULL);
    if (!cuzk_backend_cuda_usable()) {
        eng_config(&c, dir);
        c.backend = CUZK_BACKEND_CUDA;
        CHECK(cuzk_engine_create(&e2, &c) == CUZK_ERR_NO_DEVICE);
    }
    cuzk_engine_destroy(e);
    CHECK_MSG(cuzk_alloc_live_bytes() == live0, "%llu bytes leaked",
              (unsigned long long)(cuzk_alloc_live_bytes() - live0));
    eng_rm_rf(dir);
}

/* CUZK_TIMING=1: one whole JSON line per phase per partition on stderr. */
CUZK_TEST(engine_timing_lines)
{
    char *dir = eng_tmpdir();
    uint64_t live0 = cuzk_alloc_live_bytes();
    char log[512];
    snprintf(log, sizeof log, "%s/stderr.log", dir);
    setenv("CUZK_TIMING", "1", 1);
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644), saved = dup(2);
    CHECK(fd >= 0 && saved >= 0 && dup2(fd, 2) == 2);
    cuzk_engine_config c;
    eng_config(&c, dir);
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "pm", ENG_SMALL, NULL);
    char id[CUZK_ENGINE_ID_MAX];
    eng_submit(e, "pm", "trace\"job", CUZK_PRIORITY_NORMAL, 2, id);
    cuzk_job_result r;
    CHECK(eng_await(e, id, &r) == CUZK_JOB_COMPLETED);
    cuzk_job_result_clear(&r);
    cuzk_engine_destroy(e);
    dup2(saved, 2);
    close(saved);
    close(fd);
    uint8_t *buf;
    size_t len;
    CHECK(cuzk_read_file(log, &buf, &len, 1 << 20) == CUZK_OK);
    unsigned lines = 0, msm_h = 0;
    for (char *p = (char *)buf, *end = (char *)buf + len; p < end;) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        CHECK(nl);
        *nl = 0;
        if (strncmp(p, "{\"job\":", 7) == 0) {
            lines++;
            CHECK_MSG(strstr(p, "\"job\":\"trace\\\"job\"") && strstr(p, "\"backend\":\"cpu\"}") &&
                          strstr(p, "\"ms\":"),
                      "bad line %s", p);
            if (strstr(p, "\"phase\":\"msm_h\""))
                msm_h++;
        }
        p = nl + 1;
    }
    CHECK_MSG(lines == 2 * CUZK_PHASE_COUNT && msm_h == 2, "%u lines", lines);
    cuzk_free(buf);
    CHECK_MSG(cuzk_alloc_live_bytes() == live0, "%llu bytes leaked",
              (unsigned long long)(cuzk_alloc_live_bytes() - live0));
    eng_rm_rf(dir);
}

/* CUDA (skipped without a device): AUTO picks the device, two workers on it; proofs verify and
 * the status names the device; so do they with 3 precomputed rows of the H query
 * (h_precompute_rows), whose range (<= 16) is checked first on any machine. */
CUZK_TEST(engine_cuda)
{
    cuzk_engine_config c;
    cuzk_engine *e = NULL;
    eng_config(&c, "unused");
    c.h_precompute_rows = 17;
    CHECK(cuzk_engine_create(&e, &c) == CUZK_ERR_INVALID_ARG && !e);
    if (!cuzk_backend_cuda_usable())
        test_skip("no usable CUDA device");
    /* two workers without and with H rows; one worker, whose next partition's a and b are
     * prefetched under its H MSM when that partition is ready by then (pinned: from the pool,
     * which keeps vectors this small only when told to) */
    static const unsigned runs[][3] = {{0, 2, 6}, {3, 2, 6}, {0, 1, 12}}; /* rows, workers, parts */
    for (unsigned k = 0; k < 3; k++) {
        const unsigned rows = runs[k][0], parts = runs[k][2];
        char *dir = eng_tmpdir();
        uint64_t live0 = cuzk_alloc_live_bytes();
        eng_config(&c, dir);
        c.backend = CUZK_BACKEND_AUTO;
        c.threads = 0;
        c.prover_workers = runs[k][1];
        c.synthesis_workers = runs[k][1] == 1 ? 4 : 2;
        c.h_precompute_rows = rows;
        c.host_pool_min_bytes = runs[k][1] == 1 ? (uint64_t)64 << 10 : 0;
        e = eng_create(&c);
        eng_add(e, "demo", "sha256-chain:1", NULL);
        char id[CUZK_ENGINE_ID_MAX];
        size_t st0 = cuzk__gpu_event_count(CUZK__GPU_EV_H_STAGED, -1),
               pf0 = cuzk__gpu_event_count(CUZK__GPU_EV_H_PREFETCHED, -1);
        eng_submit(e, "demo", NULL, CUZK_PRIORITY_NORMAL, parts, id);
        cuzk_job_result r;
        CHECK(eng_await(e, id, &r) == CUZK_JOB_COMPLETED);
        CHECK_MSG(strncmp(r.backend, "cuda:", 5) == 0, "backend %s", r.backend);
        char vk[512];
        snprintf(vk, sizeof vk, "%s/demo.vk", dir);
        eng_verify(vk, &r);
        printf("# cuda demo x%u, %u worker(s), %u H rows: total %llu ms, srs_load %llu, "
               "synthesis %llu, prover %llu; %zu H calls staged, %zu prefetched\n",
               parts, runs[k][1], rows, (unsigned long long)r.total_ms,
               (unsigned long long)r.srs_load_ms, (unsigned long long)r.synthesis_ms,
               (unsigned long long)r.gpu_compute_ms,
               cuzk__gpu_event_count(CUZK__GPU_EV_H_STAGED, -1) - st0,
               cuzk__gpu_event_count(CUZK__GPU_EV_H_PREFETCHED, -1) - pf0);
        cuzk_job_result_clear(&r);
        cuzk_engine_status st;
        CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
        CHECK(st.n_gpus >= 1 && st.gpus[0].name[0] && st.gpus[0].vram_total > 0);
        /* the proved set stays on the device: at most its five arrays (H, L, A, B G1, B G2),
         * once however many workers hold them; the H query with rows when some were asked
         * (they fit in a small set, but a count that saves nothing over a smaller one is cut) */
        const unsigned hr = st.gpus[0].h_rows;
        CHECK_MSG(st.gpus[0].resident_copies >= 1 && st.gpus[0].resident_copies <= 5 &&
                      (rows ? hr >= 2 && hr <= rows : hr == 0) && st.gpus[0].resident_bytes > 0,
                  "%u copies, %u rows, %llu bytes", st.gpus[0].resident_copies, st.gpus[0].h_rows,
                  (unsigned long long)st.gpus[0].resident_bytes);
        printf("# gpu %u: %s, %llu bytes; %u resident arrays, %llu bytes, %u H rows\n",
               st.gpus[0].ordinal, st.gpus[0].name, (unsigned long long)st.gpus[0].vram_total,
               st.gpus[0].resident_copies, (unsigned long long)st.gpus[0].resident_bytes,
               st.gpus[0].h_rows);
        char *m = NULL, key[96];
        CHECK(cuzk_engine_metrics(e, &m) == CUZK_OK);
        snprintf(key, sizeof key, "\ncuzk_gpu_resident_bytes{gpu=\"%u\"} ", st.gpus[0].ordinal);
        const char *v = strstr(m, key);
        CHECK(v && strtoull(v + strlen(key), NULL, 10) == st.gpus[0].resident_bytes);
        snprintf(key, sizeof key, "\ncuzk_gpu_h_precompute_rows{gpu=\"%u\"} ", st.gpus[0].ordinal);
        v = strstr(m, key);
        CHECK(v && strtoull(v + strlen(key), NULL, 10) == hr);
        cuzk_free(m);
        cuzk_engine_status_clear(&st);
        cuzk_engine_destroy(e);
        CHECK_MSG(cuzk_alloc_live_bytes() == live0, "%llu bytes leaked",
                  (unsigned long long)(cuzk_alloc_live_bytes() - live0));
        eng_rm_rf(dir);
    }
}

/* One GPU worker whose queued partitions are prefetched (engine_cuda's one-worker setting),
 * with jobs cancelled while their partitions are queued: a cancelled partition's prefetch is
 * dropped with it, so the next job, whose a and b reuse the same pool buffers, never takes a
 * stale copy (its proofs would not verify). The cancels land at different points of a job. */
CUZK_TEST(engine_cuda_prefetch_cancel)
{
    if (!cuzk_backend_cuda_usable())
        test_skip("no usable CUDA device");
    char *dir = eng_tmpdir();
    uint64_t live0 = cuzk_alloc_live_bytes();
    cuzk_engine_config c;
    eng_config(&c, dir);
    c.backend = CUZK_BACKEND_CUDA;
    c.threads = 0;
    c.prover_workers = 1;
    c.synthesis_workers = 4;
    c.host_pool_min_bytes = (uint64_t)64 << 10; /* pooled, pinned: prefetched */
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "demo", "sha256-chain:1", NULL);
    char vk[512], id[CUZK_ENGINE_ID_MAX];
    snprintf(vk, sizeof vk, "%s/demo.vk", dir);
    cuzk_job_result r;
    eng_submit(e, "demo", NULL, CUZK_PRIORITY_NORMAL, 2, id); /* the set loaded and resident */
    CHECK(eng_await(e, id, &r) == CUZK_JOB_COMPLETED);
    cuzk_job_result_clear(&r);
    size_t st0 = cuzk__gpu_event_count(CUZK__GPU_EV_H_STAGED, -1),
           pf0 = cuzk__gpu_event_count(CUZK__GPU_EV_H_PREFETCHED, -1),
           dr0 = cuzk__gpu_event_count(CUZK__GPU_EV_H_PREFETCH_DROPPED, -1);
    static const unsigned wait_ms[] = {5, 20, 40, 80};
    for (unsigned k = 0; k < 4; k++) {
        char a[CUZK_ENGINE_ID_MAX];
        eng_submit(e, "demo", NULL, CUZK_PRIORITY_NORMAL, 24, a);
        usleep(wait_ms[k] * 1000);
        bool running, cancelled;
        CHECK(cuzk_engine_cancel(e, a, &running, &cancelled) == CUZK_OK);
        cuzk_job_outcome o = eng_await(e, a, &r);
        CHECK_MSG(o == CUZK_JOB_CANCELLED || o == CUZK_JOB_COMPLETED, "job a: outcome %d", (int)o);
        cuzk_job_result_clear(&r);
        eng_submit(e, "demo", NULL, CUZK_PRIORITY_NORMAL, 6, id);
        CHECK(eng_await(e, id, &r) == CUZK_JOB_COMPLETED);
        eng_verify(vk, &r);
        cuzk_job_result_clear(&r);
    }
    printf("# after the cancels: %zu H calls staged, %zu prefetched, %zu prefetches dropped\n",
           cuzk__gpu_event_count(CUZK__GPU_EV_H_STAGED, -1) - st0,
           cuzk__gpu_event_count(CUZK__GPU_EV_H_PREFETCHED, -1) - pf0,
           cuzk__gpu_event_count(CUZK__GPU_EV_H_PREFETCH_DROPPED, -1) - dr0);
    /* The counters per GPU: the engine's device has one sample per event in the metrics, equal
     * to its own count; every device's counts add up to the process's. */
    cuzk_engine_status est;
    CHECK(cuzk_engine_status_get(e, &est) == CUZK_OK);
    CHECK(est.n_gpus == 1);
    int ord = est.n_gpus ? (int)est.gpus[0].ordinal : 0;
    cuzk_engine_status_clear(&est);
    char *m = NULL;
    CHECK(cuzk_engine_metrics(e, &m) == CUZK_OK);
    for (int ev = 0; m && ev < CUZK__GPU_EV_COUNT; ev++) {
        char key[128];
        snprintf(key, sizeof key, "\ncuzk_gpu_events_total{gpu=\"%d\",event=\"%s\"} ", ord,
                 cuzk__gpu_event_name((cuzk__gpu_event)ev));
        const char *at = strstr(m, key);
        CHECK_MSG(at, "metrics lack %s", key + 1);
        size_t mine = cuzk__gpu_event_count((cuzk__gpu_event)ev, ord), all = 0;
        if (at)
            CHECK_MSG(strtoull(at + strlen(key), NULL, 10) == mine, "%s: not %zu", key + 1, mine);
        for (int d = 0; d < 64; d++)
            all += cuzk__gpu_event_count((cuzk__gpu_event)ev, d);
        CHECK(all == cuzk__gpu_event_count((cuzk__gpu_event)ev, -1));
    }
    cuzk_free(m);
    cuzk_engine_destroy(e);
    CHECK_MSG(cuzk_alloc_live_bytes() == live0, "%llu bytes leaked",
              (unsigned long long)(cuzk_alloc_live_bytes() - live0));
    eng_rm_rf(dir);
}

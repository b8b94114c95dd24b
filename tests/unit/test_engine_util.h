/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_TESTS_ENGINE_UTIL_H
#define CUZK_TESTS_ENGINE_UTIL_H

/* Helpers for the engine tests: a fresh cache directory per test, an engine on the CPU backend,
 * and verification of returned proofs against the .vk the engine wrote. */

#include "test.h"
#include "cuzk/alloc.h"
#include "cuzk/engine.h"
#include "cuzk/groth16.h"
#include "cuzk/r1cs.h"
#include "common/file.h"

#include <ftw.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

/* Small circuits: poseidon-merkle:1 (533 constraints, setup ~0.3 s), sha256-chain:1 (26k). */
#define ENG_SMALL "poseidon-merkle:1"

/* Poseidon constants are built on first use and kept for the process: build them before a
 * test takes its baseline of live bytes (every engine test checks that destroy frees all). */
static inline void eng_warm_caches(void)
{
    static const cuzk_cs_mode modes[3] = {CUZK_CS_PROVE, CUZK_CS_WITNESS, CUZK_CS_KEYGEN};
    for (int i = 0; i < 3; i++) {
        cuzk_circuit circ;
        cuzk_cs *cs = NULL;
        CHECK(cuzk_circuit_find(ENG_SMALL, &circ) == CUZK_OK);
        CHECK(cuzk_cs_create(&cs, modes[i], 0, 0) == CUZK_OK);
        CHECK(cuzk_circuit_synthesize(cs, &circ) == CUZK_OK);
        cuzk_cs_destroy(cs);
    }
}

static inline char *eng_tmpdir(void)
{
    eng_warm_caches();
    static char dir[64];
    snprintf(dir, sizeof dir, "/tmp/cuzk-engine-test-XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
    return dir;
}

static inline int eng_rm_one(const char *p, const struct stat *s, int f, struct FTW *w)
{
    (void)s, (void)f, (void)w;
    return remove(p);
}

static inline void eng_rm_rf(const char *dir)
{
    nftw(dir, eng_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static inline double eng_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static inline void eng_config(cuzk_engine_config *c, const char *dir)
{
    cuzk_engine_config_default(c);
    c->backend = CUZK_BACKEND_CPU;
    c->threads = 1;
    c->cache_dir = dir;
    c->eviction_min_idle_ms = 0;
}

/* Circuit |id|'s entry of a status (the test fails when it is missing). */
static inline const cuzk_engine_srs_status *srs_of(const cuzk_engine_status *st, const char *id)
{
    for (size_t i = 0; i < st->n_srs; i++)
        if (strcmp(st->srs[i].circuit_id, id) == 0)
            return &st->srs[i];
    test_fail_at(__FILE__, __LINE__, "circuit %s missing from status", id);
}

static inline cuzk_engine *eng_create(const cuzk_engine_config *c)
{
    cuzk_engine *e = NULL;
    CHECK_MSG(cuzk_engine_create(&e, c) == CUZK_OK, "engine_create: %s", cuzk_last_error());
    return e;
}

static inline void eng_add(cuzk_engine *e, const char *id, const char *spec, const char *params)
{
    cuzk_engine_circuit c = {.id = id, .source = CUZK_CIRCUIT_BUILTIN, .spec = spec,
                             .params_path = params};
    CHECK_MSG(cuzk_engine_add_circuit(e, &c) == CUZK_OK, "add_circuit %s: %s", id,
              cuzk_last_error());
}

/* Submits |parts| partitions of |circuit| with a random seed; returns the job id in |id|. */
static inline void eng_submit(cuzk_engine *e, const char *circuit, const char *req,
                              cuzk_priority prio, uint32_t parts, char id[CUZK_ENGINE_ID_MAX])
{
    uint8_t seed[8];
    test_rand_bytes(seed, sizeof seed);
    cuzk_job_request r = {.request_id = req, .circuit_id = circuit, .priority = prio,
                          .witness = seed, .witness_len = 8, .partitions = parts};
    cuzk_submit_info si;
    CHECK_MSG(cuzk_engine_submit(e, &r, &si) == CUZK_OK, "submit: %s", cuzk_last_error());
    CHECK(!si.existing);
    snprintf(id, CUZK_ENGINE_ID_MAX, "%s", si.job_id);
}

static inline cuzk_job_outcome eng_await(cuzk_engine *e, const char *id, cuzk_job_result *r)
{
    CHECK_MSG(cuzk_engine_await(e, id, 0, r) == CUZK_OK, "await: %s", cuzk_last_error());
    return r->status;
}

/* Checks every partition proof of |r| against the key file |vk_path| and its public inputs. */
static inline void eng_verify(const char *vk_path, const cuzk_job_result *r)
{
    cuzk_groth16_vk *vk = NULL;
    CHECK_MSG(cuzk_groth16_vk_load(&vk, vk_path) == CUZK_OK, "%s", cuzk_last_error());
    CHECK(r->status == CUZK_JOB_COMPLETED);
    CHECK(r->n_public + 1 == vk->ic_len);
    CHECK(r->proof_len == (size_t)r->partitions * CUZK_GROTH16_PROOF_BYTES);
    CHECK(r->public_inputs_len == (size_t)r->partitions * r->n_public * 32);
    for (uint32_t p = 0; p < r->partitions; p++) {
        cuzk_groth16_proof pr;
        CHECK(cuzk_groth16_proof_parse(&pr, r->proof + (size_t)p * CUZK_GROTH16_PROOF_BYTES) ==
              CUZK_OK);
        cuzk_fr_t in[400]; /* a 32 GiB PoRep partition has 327 */
        CHECK(r->n_public <= 400);
        for (uint32_t i = 0; i < r->n_public; i++)
            CHECK(cuzk_fr_from_bytes_le(&in[i], r->public_inputs +
                                                    ((size_t)p * r->n_public + i) * 32) == CUZK_OK);
        CHECK_MSG(cuzk_groth16_verify(vk, &pr, in, r->n_public) == CUZK_OK,
                  "partition %u does not verify: %s", p, cuzk_last_error());
        /* A wrong input must not verify (the check above can fail). */
        if (r->n_public) {
            cuzk_fr_t one;
            cuzk_fr_set_u64(&one, 1);
            cuzk_fr_add(&in[0], &in[0], &one);
            CHECK(cuzk_groth16_verify(vk, &pr, in, r->n_public) == CUZK_ERR_VERIFY_FAILED);
        }
    }
    cuzk_groth16_vk_free(vk);
}

#endif

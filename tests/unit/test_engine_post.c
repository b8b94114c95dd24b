/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * PoSt jobs in the engine: a WindowPoSt request (registered proof 5, a partition short of one
 * sector) from bincode vanilla proofs proves on the builtin fil-post:5 circuit registered under
 * any id, verifies with the set's key and the inputs derived apart from the engine; a request
 * naming that circuit explicitly too; refusals (vanilla proofs for another randomness, a circuit
 * named that is not the proof type's, two partitions) queue nothing.
 */
#include "test.h"
#include "test_engine_util.h"

#include "filecoin/post_circuit.h"

static void submit_post(cuzk_engine *e, const cuzk_fil_post_partition *p, uint8_t **bufs,
                        size_t *lens, size_t n, const char *circuit, const uint8_t *rnd,
                        uint32_t parts, cuzk_status want, char id[CUZK_ENGINE_ID_MAX])
{
    cuzk_job_request r = {.kind = CUZK_PROOF_WINDOW_POST,
                          .circuit_id = circuit,
                          .registered_proof = p->post_proof_type,
                          .randomness = rnd,
                          .randomness_len = 32,
                          .partitions = parts,
                          .vanilla_proofs = (const uint8_t *const *)bufs,
                          .vanilla_lens = lens,
                          .n_vanilla = n};
    cuzk_submit_info si;
    cuzk_status s = cuzk_engine_submit(e, &r, &si);
    CHECK_MSG(s == want, "submit: %d (want %d): %s", (int)s, (int)want, cuzk_last_error());
    if (id)
        snprintf(id, CUZK_ENGINE_ID_MAX, "%s", si.job_id);
}

CUZK_TEST(engine_post_window)
{
    char *dir = eng_tmpdir();
    cuzk_engine_config c;
    eng_config(&c, dir);
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "pm", ENG_SMALL, NULL);
    eng_add(e, "wpost", "fil-post:5", NULL);
    cuzk_fil_post_partition *p;
    CHECK(cuzk_fil_post_partition_synthetic(&p, 5, test_rand_u64(), 1) == CUZK_OK);
    uint8_t *bufs[1];
    size_t lens[1];
    CHECK(cuzk_fil_post_vanilla_encode(p, 0, &bufs[0], &lens[0]) == CUZK_OK);
    cuzk_fr_t want[22];
    size_t n = 0;
    CHECK(cuzk_fil_window_post_inputs(want, 22, &n, 5, p->randomness, 0, p->sector_ids,
                                      (const uint8_t(*)[32])p->comm_rs, 1) == CUZK_OK);
    char vk_path[600];
    snprintf(vk_path, sizeof vk_path, "%s/wpost.vk", dir);
    for (int named = 0; named < 2; named++) {
        char id[CUZK_ENGINE_ID_MAX];
        submit_post(e, p, bufs, lens, 1, named ? "wpost" : NULL, p->randomness, 0, CUZK_OK, id);
        cuzk_job_result r;
        CHECK(eng_await(e, id, &r) == CUZK_JOB_COMPLETED);
        CHECK(r.verified && r.n_public == 22 && strcmp(r.circuit_id, "wpost") == 0);
        cuzk_groth16_vk *vk;
        CHECK(cuzk_groth16_vk_load(&vk, vk_path) == CUZK_OK);
        cuzk_groth16_proof pr;
        CHECK(cuzk_groth16_proof_parse(&pr, r.proof) == CUZK_OK);
        for (size_t i = 0; i < 22; i++) {
            cuzk_fr_t x;
            CHECK(cuzk_fr_from_bytes_le(&x, r.public_inputs + 32 * i) == CUZK_OK);
            CHECK_MSG(cuzk_fr_eq(&x, &want[i]), "input %zu", i);
        }
        CHECK(cuzk_groth16_verify(vk, &pr, want, 22) == CUZK_OK);
        cuzk_fr_add(&want[3], &want[3], cuzk_r1cs_pow2(0)); /* another challenge: rejected */
        CHECK(cuzk_groth16_verify(vk, &pr, want, 22) != CUZK_OK);
        cuzk_fr_sub(&want[3], &want[3], cuzk_r1cs_pow2(0));
        cuzk_groth16_vk_free(vk);
        cuzk_job_result_clear(&r);
    }
    /* Refusals. */
    uint8_t rnd[32];
    memcpy(rnd, p->randomness, 32);
    rnd[1] ^= 1;
    submit_post(e, p, bufs, lens, 1, NULL, rnd, 0, CUZK_ERR_INVALID_ARG, NULL);
    CHECK(strstr(cuzk_last_error(), "the randomness asks for leaf"));
    submit_post(e, p, bufs, lens, 1, "pm", p->randomness, 0, CUZK_ERR_INVALID_ARG, NULL);
    CHECK(strstr(cuzk_last_error(), "not registered as builtin fil-post:5"));
    submit_post(e, p, bufs, lens, 1, NULL, p->randomness, 2, CUZK_ERR_INVALID_ARG, NULL);
    cuzk_engine_status st;
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    CHECK(st.completed == 2 && st.failed == 0);
    cuzk_engine_status_clear(&st);
    cuzk_free(bufs[0]);
    cuzk_fil_post_partition_destroy(p);
    cuzk_engine_destroy(e);
    eng_rm_rf(dir);
}

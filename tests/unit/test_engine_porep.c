/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * PoRep jobs in the engine. Refusals, each with its reason and nothing queued: a C1 output no
 * circuit is registered for (the message names the builtin to add), a named circuit that is not
 * a fil-porep one, a replica_id that is not the miner's sector's, a partition count the C1 does
 * not have, a truncated C1, bincode read under another proof's shape. The whole job (slow: a
 * 1.2 M-constraint test setup, so CUZK_TEST_SLOW=1 only): a C1 over the real graph in the anchor
 * shape proves on a registered fil-porep:0, sent as Curio's wrapper, serde JSON and bincode, and
 * verifies against the inputs derived apart from the engine.
 */
#include "test.h"
#include "test_engine_util.h"
#include "test_fil_porep_util.h"

#include "filecoin/porep_vanilla.h"

static cuzk_status submit_c1(cuzk_engine *e, const void *c1, size_t len, uint64_t registered,
                             const char *circuit, uint64_t miner, uint64_t sector, uint32_t parts,
                             char id[CUZK_ENGINE_ID_MAX])
{
    const uint8_t *bufs[1] = {c1};
    size_t lens[1] = {len};
    cuzk_job_request r = {.kind = CUZK_PROOF_POREP,
                          .circuit_id = circuit,
                          .registered_proof = registered,
                          .partitions = parts,
                          .vanilla_proofs = bufs,
                          .vanilla_lens = lens,
                          .n_vanilla = 1,
                          .miner_id = miner,
                          .sector_number = sector};
    cuzk_submit_info si;
    cuzk_status s = cuzk_engine_submit(e, &r, &si);
    if (id && s == CUZK_OK)
        snprintf(id, CUZK_ENGINE_ID_MAX, "%s", si.job_id);
    return s;
}

static void want(cuzk_status got, cuzk_status st, const char *msg)
{
    CHECK_MSG(got == st && strstr(cuzk_last_error(), msg), "want %d \"%s\", got %d \"%s\"", (int)st,
              msg, (int)got, cuzk_last_error());
}

CUZK_TEST(engine_porep_refusals)
{
    char *dir = eng_tmpdir();
    cuzk_engine_config c;
    eng_config(&c, dir);
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "pm", ENG_SMALL, NULL);
    uint64_t seed = test_rand_u64(), sector = seed & 0xffffffffu;
    cuzk_fil_porep_c1 *c1 = NULL;
    CHECK(cuzk_fil_porep_c1_synthetic(&c1, 5, seed, 1, NULL, NULL, NULL) == CUZK_OK);
    char *js;
    size_t jn;
    uint8_t *bin;
    size_t bn;
    CHECK(cuzk_fil_porep_c1_to_curio(c1, sector, &js, &jn) == CUZK_OK);
    CHECK(cuzk_fil_porep_c1_to_bincode(c1, &bin, &bn) == CUZK_OK);
    want(submit_c1(e, js, jn, 0, NULL, 1000, sector, 0, NULL), CUZK_ERR_UNSUPPORTED,
         "builtin = \"fil-porep:5\"");
    want(submit_c1(e, bin, bn, 5, NULL, 0, 0, 0, NULL), CUZK_ERR_UNSUPPORTED,
         "RegisteredSealProof 5");
    want(submit_c1(e, js, jn, 0, "pm", 1000, sector, 0, NULL), CUZK_ERR_INVALID_ARG,
         "not registered as builtin fil-porep:5");
    want(submit_c1(e, js, jn, 0, NULL, 1000, sector + 1, 0, NULL), CUZK_ERR_INVALID_ARG,
         "replica_id is not the one of miner 1000");
    want(submit_c1(e, js, jn, 0, NULL, 1001, sector, 0, NULL), CUZK_ERR_INVALID_ARG, "replica_id");
    want(submit_c1(e, js, jn, 0, NULL, 0, 0, 2, NULL), CUZK_ERR_INVALID_ARG, "has 1 partitions");
    want(submit_c1(e, js, jn / 2, 0, NULL, 0, 0, 0, NULL), CUZK_ERR_INVALID_ARG, "not valid JSON");
    want(submit_c1(e, bin, bn, 6, NULL, 0, 0, 0, NULL), CUZK_ERR_INVALID_ARG, "C1 output");
    want(submit_c1(e, bin, bn - 1, 5, NULL, 0, 0, 0, NULL), CUZK_ERR_INVALID_ARG, "truncated");
    cuzk_job_request none = {.kind = CUZK_PROOF_POREP};
    cuzk_submit_info si;
    want(cuzk_engine_submit(e, &none, &si), CUZK_ERR_INVALID_ARG, "needs its C1 output");
    cuzk_engine_status st;
    CHECK(cuzk_engine_status_get(e, &st) == CUZK_OK);
    CHECK(st.completed == 0 && st.failed == 0);
    for (size_t i = 0; i < st.n_queues; i++)
        CHECK(st.queues[i].pending == 0);
    cuzk_engine_status_clear(&st);
    cuzk_free(js);
    cuzk_free(bin);
    cuzk_fil_porep_c1_destroy(c1);
    cuzk_engine_destroy(e);
    eng_rm_rf(dir);
}

CUZK_TEST(engine_porep_job)
{
    if (!getenv("CUZK_TEST_SLOW"))
        test_skip("1.2 M-constraint test setup; set CUZK_TEST_SLOW=1");
    static cuzk_fil_porep_shape anchor;
    anchor = porep_anchor_shape();
    cuzk__fil_porep_test_shape = &anchor;
    char *dir = eng_tmpdir();
    cuzk_engine_config c;
    eng_config(&c, dir);
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "porep", "fil-porep:0", NULL);
    uint64_t seed = test_rand_u64(), sector = seed & 0xffffffffu;
    cuzk_fil_porep_c1 *c1 = NULL;
    CHECK_MSG(cuzk_fil_porep_c1_synthetic(&c1, 0, seed, 1, NULL, NULL, NULL) == CUZK_OK, "%s",
              cuzk_last_error());
    cuzk_fil_porep_partition *p = NULL;
    CHECK(cuzk_fil_porep_partition_from_c1(&p, c1, 0) == CUZK_OK);
    size_t ni = cuzk_fil_porep_num_inputs(&p->shape);
    cuzk_fr_t *in = cuzk_alloc_array(ni, sizeof *in);
    cuzk_fil_porep_public_inputs(in, &p->shape, &p->w);
    char *js, *sj;
    size_t jn, sn, bn;
    uint8_t *bin;
    CHECK(cuzk_fil_porep_c1_to_curio(c1, sector, &js, &jn) == CUZK_OK);
    CHECK(cuzk_fil_porep_c1_to_json(c1, &sj, &sn) == CUZK_OK);
    CHECK(cuzk_fil_porep_c1_to_bincode(c1, &bin, &bn) == CUZK_OK);
    const void *forms[3] = {js, sj, bin};
    size_t lens[3] = {jn, sn, bn};
    char vk_path[600];
    snprintf(vk_path, sizeof vk_path, "%s/porep.vk", dir);
    for (int f = 0; f < 3; f++) {
        char id[CUZK_ENGINE_ID_MAX];
        CHECK_MSG(submit_c1(e, forms[f], lens[f], 0, NULL, 1000, sector, 0, id) == CUZK_OK, "%s",
                  cuzk_last_error());
        cuzk_job_result r;
        CHECK(eng_await(e, id, &r) == CUZK_JOB_COMPLETED);
        CHECK(r.verified && r.partitions == 1 && r.n_public == ni);
        for (size_t i = 0; i < ni; i++) {
            cuzk_fr_t x;
            CHECK(cuzk_fr_from_bytes_le(&x, r.public_inputs + 32 * i) == CUZK_OK);
            CHECK_MSG(cuzk_fr_eq(&x, &in[i]), "form %d, input %zu", f, i);
        }
        eng_verify(vk_path, &r);
        cuzk_job_result_clear(&r);
    }
    cuzk_free(js);
    cuzk_free(sj);
    cuzk_free(bin);
    cuzk_free(in);
    cuzk_fil_porep_partition_destroy(p);
    cuzk_fil_porep_c1_destroy(c1);
    cuzk_engine_destroy(e);
    eng_rm_rf(dir);
    cuzk__fil_porep_test_shape = NULL;
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * SnapDeals jobs in the engine. The 2 KiB circuit (1.7 M constraints) needs minutes of test
 * setup on 2 cores, so RegisteredUpdateProof 0 is given a tiny shape here
 * (cuzk__fil_snap_test_shape: 4 nodes, 2 partitions, 1 challenge, ~0.1 M constraints); the
 * engine, the decoder and the builtin fil-snap:0 all take it. A request with one bincode
 * PartitionProof per partition proves both partitions from their decoded witnesses; each
 * 192-byte proof, in partition order, verifies against the inputs derived apart from the engine.
 * Refused at submit, queueing nothing: a flipped byte in partition 1's proof, the partitions
 * swapped, a wrong comm, a missing comm or proof, a partition count not the shape's, an unknown
 * RegisteredUpdateProof, a circuit named that is not fil-snap:0; a proof type without a
 * registered circuit is UNSUPPORTED.
 */
#include "test.h"
#include "test_engine_util.h"
#include "test_r1cs_util.h"

#include "filecoin/snap_circuit.h"

static const cuzk_fil_snap_shape tiny = {.update_proof_type = 0,
                                         .sector_size = 4 * 32,
                                         .partitions = 2,
                                         .challenge_count = 1,
                                         .apex_leaves = 1,
                                         .challenge_bits = 2,
                                         .partition_bits = 1,
                                         .apex_bits = 0,
                                         .hs = {1, 1, 1, 1, 1, 1},
                                         .h_default = 1,
                                         .depth = 1,
                                         .arities = {4}};

typedef struct {
    const uint8_t *bufs[2];
    size_t lens[2];
    uint8_t comm[3][32];
} snap_req;

static cuzk_status submit_snap(cuzk_engine *e, const snap_req *q, const char *circuit, uint64_t rp,
                               uint32_t parts, size_t n_vanilla, char id[CUZK_ENGINE_ID_MAX])
{
    cuzk_job_request r = {.kind = CUZK_PROOF_SNAP,
                          .circuit_id = circuit,
                          .registered_proof = rp,
                          .partitions = parts,
                          .vanilla_proofs = q->bufs,
                          .vanilla_lens = q->lens,
                          .n_vanilla = n_vanilla,
                          .comm_r_old = q->comm[0],
                          .comm_r_old_len = 32,
                          .comm_d_new = q->comm[1],
                          .comm_d_new_len = 32,
                          .comm_r_new = q->comm[2],
                          .comm_r_new_len = 32};
    cuzk_submit_info si;
    cuzk_status s = cuzk_engine_submit(e, &r, &si);
    if (id && s == CUZK_OK)
        snprintf(id, CUZK_ENGINE_ID_MAX, "%s", si.job_id);
    return s;
}

static void refused(cuzk_engine *e, const snap_req *q, const char *circuit, uint64_t rp,
                    uint32_t parts, size_t n, const char *needle)
{
    cuzk_status s = submit_snap(e, q, circuit, rp, parts, n, NULL);
    CHECK_MSG(s == CUZK_ERR_INVALID_ARG, "status %s (%s), want INVALID_ARG (%s)",
              cuzk_status_name(s), cuzk_last_error(), needle);
    CHECK_MSG(strstr(cuzk_last_error(), needle), "\"%s\" lacks \"%s\"", cuzk_last_error(), needle);
}

CUZK_TEST(engine_snap_job)
{
    cuzk__fil_snap_test_shape = &tiny;
    char *dir = eng_tmpdir();
    cuzk_engine_config c;
    eng_config(&c, dir);
    cuzk_engine *e = eng_create(&c);
    eng_add(e, "pm", ENG_SMALL, NULL);
    eng_add(e, "snap", "fil-snap:0", NULL);

    /* Two partitions of one synthetic sector (one seed: the same trees and comms). */
    uint64_t seed = test_rand_u64();
    cuzk_fil_snap_partition *p[2];
    uint8_t *bufs[2];
    snap_req q;
    for (uint64_t k = 0; k < 2; k++) {
        CHECK_OK(cuzk_fil_snap_partition_synthetic(&p[k], 0, k, seed, 1));
        CHECK(p[k]->k == k);
        CHECK_OK(cuzk_fil_snap_vanilla_encode(p[k], &bufs[k], &q.lens[k]));
        q.bufs[k] = bufs[k];
    }
    CHECK(cuzk_fr_eq(&p[0]->w.comm_r_new, &p[1]->w.comm_r_new));
    cuzk_fr_to_bytes_le(q.comm[0], &p[0]->w.comm_r_old);
    cuzk_fr_to_bytes_le(q.comm[1], &p[0]->w.comm_d_new);
    cuzk_fr_to_bytes_le(q.comm[2], &p[0]->w.comm_r_new);

    char id[CUZK_ENGINE_ID_MAX];
    CHECK_MSG(submit_snap(e, &q, "snap", 0, 2, 2, id) == CUZK_OK, "%s", cuzk_last_error());
    cuzk_job_result r;
    CHECK(eng_await(e, id, &r) == CUZK_JOB_COMPLETED);
    CHECK(r.verified && r.partitions == 2 && r.n_public == 4 && r.proof_len == 2 * 192);
    CHECK(strcmp(r.circuit_id, "snap") == 0);
    char vk_path[600];
    snprintf(vk_path, sizeof vk_path, "%s/snap.vk", dir);
    cuzk_groth16_vk *vk;
    CHECK_OK(cuzk_groth16_vk_load(&vk, vk_path));
    for (size_t k = 0; k < 2; k++) {
        cuzk_fr_t want[4];
        cuzk_fil_snap_public_inputs(want, p[k]);
        for (size_t i = 0; i < 4; i++) {
            cuzk_fr_t x;
            CHECK_OK(cuzk_fr_from_bytes_le(&x, r.public_inputs + 32 * (4 * k + i)));
            CHECK_MSG(cuzk_fr_eq(&x, &want[i]), "partition %zu input %zu", k, i);
        }
        cuzk_groth16_proof pr;
        CHECK_OK(cuzk_groth16_proof_parse(&pr, r.proof + 192 * k));
        CHECK(cuzk_groth16_verify(vk, &pr, want, 4) == CUZK_OK);
        /* The other partition's k: rejected. */
        cuzk_fr_t other[4];
        cuzk_fil_snap_public_inputs(other, p[1 - k]);
        want[0] = other[0];
        CHECK(cuzk_groth16_verify(vk, &pr, want, 4) != CUZK_OK);
    }
    cuzk_groth16_vk_free(vk);
    cuzk_job_result_clear(&r);

    /* Refusals, none queued. */
    snap_req bad = q;
    uint8_t *m = malloc(q.lens[1]);
    CHECK(m);
    memcpy(m, bufs[1], q.lens[1]);
    m[q.lens[1] - 40] ^= 1; /* the last sibling of the last challenge's tree R new path */
    bad.bufs[1] = m;
    refused(e, &bad, NULL, 0, 0, 2, "partition 1, challenge 0");
    bad = q;
    bad.bufs[0] = q.bufs[1];
    bad.bufs[1] = q.bufs[0];
    bad.lens[0] = q.lens[1];
    bad.lens[1] = q.lens[0];
    refused(e, &bad, NULL, 0, 0, 2, "partition 0, challenge 0");
    bad = q;
    bad.comm[1][3] ^= 1;
    refused(e, &bad, NULL, 0, 0, 2, "comm_d_new");
    refused(e, &q, NULL, 0, 0, 1, "needs 2 vanilla partition proofs (got 1)");
    refused(e, &q, NULL, 0, 3, 2, "has 2 partitions (got 3)");
    refused(e, &q, NULL, 5, 0, 2, "unknown RegisteredUpdateProof 5");
    refused(e, &q, "pm", 0, 0, 2, "not registered as builtin fil-snap:0");
    cuzk_job_request nocomm = {.kind = CUZK_PROOF_SNAP,
                               .vanilla_proofs = q.bufs,
                               .vanilla_lens = q.lens,
                               .n_vanilla = 2,
                               .comm_r_old = q.comm[0],
                               .comm_r_old_len = 32,
                               .comm_d_new = q.comm[1],
                               .comm_d_new_len = 31,
                               .comm_r_new = q.comm[2],
                               .comm_r_new_len = 32};
    cuzk_submit_info si;
    CHECK(cuzk_engine_submit(e, &nocomm, &si) == CUZK_ERR_INVALID_ARG);
    CHECK(strstr(cuzk_last_error(), "comm_d_new of 32 bytes (got 31)"));
    /* RegisteredUpdateProof 1 (8 MiB) has no circuit here: refused before any proof is read. */
    CHECK(submit_snap(e, &q, NULL, 1, 0, 4, NULL) == CUZK_ERR_UNSUPPORTED);
    CHECK(strstr(cuzk_last_error(), "builtin = \"fil-snap:1\""));
    cuzk_engine_status st;
    CHECK_OK(cuzk_engine_status_get(e, &st));
    CHECK(st.completed == 1 && st.failed == 0);
    cuzk_engine_status_clear(&st);

    free(m);
    for (int k = 0; k < 2; k++) {
        cuzk_free(bufs[k]);
        cuzk_fil_snap_partition_destroy(p[k]);
    }
    cuzk_engine_destroy(e);
    eng_rm_rf(dir);
    cuzk__fil_snap_test_shape = NULL;
}

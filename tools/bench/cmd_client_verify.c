/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The client does not take the daemon's word for a proof: it fetches the circuit's verifying
 * key (GetCircuitInfo) and checks every partition with the public inputs the daemon returned. */
#include "cmd_client.h"
#include "cuzk/alloc.h"
#include "cuzk/field.h"

#include <string.h>

void vk_cache_init(vk_cache *vc)
{
    memset(vc, 0, sizeof *vc);
    pthread_mutex_init(&vc->mu, NULL);
}

void vk_cache_clear(vk_cache *vc)
{
    for (int i = 0; i < VK_SLOTS; i++) {
        cuzk_groth16_vk_free(vc->e[i].vk);
        vc->e[i].vk = NULL;
        vc->e[i].circuit[0] = 0;
    }
    pthread_mutex_destroy(&vc->mu);
}

const char *verdict_name(verdict_state s)
{
    switch (s) {
    case VERDICT_VALID:
        return "valid";
    case VERDICT_INVALID:
        return "invalid";
    case VERDICT_ERROR:
        return "error";
    default:
        return "skipped";
    }
}

static void fetch(vk_entry *e, bench_client *c, const cli_common *cc)
{
    Cuzk__V1__GetCircuitInfoRequest req;
    cuzk__v1__get_circuit_info_request__init(&req);
    req.circuit_id = e->circuit;
    ProtobufCMessage *m = NULL;
    uint64_t deadline = cc->deadline_ms ? cc->deadline_ms : 60000;
    if (!client_call(c, "GetCircuitInfo", &req.base,
                     &cuzk__v1__get_circuit_info_response__descriptor, &m, deadline, NULL, NULL,
                     &e->st))
        return;
    Cuzk__V1__GetCircuitInfoResponse *r = (Cuzk__V1__GetCircuitInfoResponse *)m;
    if (cuzk_groth16_vk_parse(&e->vk, r->verifying_key.data, r->verifying_key.len) != CUZK_OK) {
        char why[256];
        snprintf(why, sizeof why, "the daemon's verifying key does not parse: %.150s",
                 cuzk_last_error());
        memcpy(e->err, why, sizeof e->err);
    }
    client_free_msg(m);
}

/* The key for |circuit| (fetched once); NULL with |v| filled when there is none. */
static const cuzk_groth16_vk *get_vk(vk_cache *vc, bench_client *c, const cli_common *cc,
                                     const char *circuit, verdict *v)
{
    pthread_mutex_lock(&vc->mu);
    vk_entry *e = NULL;
    for (int i = 0; i < VK_SLOTS && !e; i++)
        if (strcmp(vc->e[i].circuit, circuit) == 0)
            e = &vc->e[i];
    for (int i = 0; i < VK_SLOTS && !e; i++) {
        if (!vc->e[i].circuit[0]) {
            e = &vc->e[i];
            snprintf(e->circuit, sizeof e->circuit, "%s", circuit);
            fetch(e, c, cc);
        }
    }
    pthread_mutex_unlock(&vc->mu);
    if (!e) {
        v->state = VERDICT_ERROR;
        snprintf(v->why, sizeof v->why, "too many circuits to keep verifying keys for");
        return NULL;
    }
    if (e->vk)
        return e->vk;
    if (e->err[0]) {
        v->state = VERDICT_ERROR;
        snprintf(v->why, sizeof v->why, "%s", e->err);
    } else {
        /* A circuit without a key the daemon can hand out (Filecoin kinds today) is reported
         * as not checked; any other failure means we could not do our job. */
        bool absent = e->st.code == CLIENT_NOT_FOUND || e->st.code == CLIENT_UNIMPLEMENTED;
        v->state = absent ? VERDICT_SKIPPED : VERDICT_ERROR;
        snprintf(v->why, sizeof v->why, "no verifying key: GetCircuitInfo %s: %.240s",
                 client_status_name(e->st.code), e->st.details);
    }
    return NULL;
}

void verdict_check(verdict *v, vk_cache *vc, bench_client *c, const cli_common *cc,
                   const Cuzk__V1__AwaitProofResponse *r)
{
    memset(v, 0, sizeof *v);
    if (r->status != CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED) {
        snprintf(v->why, sizeof v->why, "no proof");
        return;
    }
    if (!r->circuit_id || !r->circuit_id[0]) {
        snprintf(v->why, sizeof v->why, "the daemon named no circuit");
        return;
    }
    double t0 = cli_now_ms();
    const cuzk_groth16_vk *vk = get_vk(vc, c, cc, r->circuit_id, v);
    if (!vk)
        return;
    size_t parts = r->partitions ? r->partitions : r->proof.len / CUZK_GROTH16_PROOF_BYTES;
    size_t n = r->num_public_inputs;
    v->total = (unsigned)parts;
    v->state = VERDICT_INVALID;
    if (parts == 0 || r->proof.len != parts * CUZK_GROTH16_PROOF_BYTES) {
        snprintf(v->why, sizeof v->why, "proof is %zu bytes, expected %zu x 192", r->proof.len,
                 parts);
        return;
    }
    if (n + 1 != vk->ic_len) {
        snprintf(v->why, sizeof v->why, "%zu public inputs per partition, the key takes %zu", n,
                 vk->ic_len - 1);
        return;
    }
    if (r->public_inputs.len != parts * n * 32) {
        snprintf(v->why, sizeof v->why, "public inputs are %zu bytes, expected %zu",
                 r->public_inputs.len, parts * n * 32);
        return;
    }
    cuzk_fr_t *in = cuzk_alloc_array(n ? n : 1, sizeof *in);
    if (!in) {
        v->state = VERDICT_ERROR;
        snprintf(v->why, sizeof v->why, "out of memory");
        return;
    }
    for (size_t p = 0; p < parts; p++) {
        cuzk_groth16_proof proof;
        const char *bad = NULL;
        if (cuzk_groth16_proof_parse(&proof, r->proof.data + p * CUZK_GROTH16_PROOF_BYTES) !=
            CUZK_OK)
            bad = "proof does not decode";
        for (size_t i = 0; !bad && i < n; i++)
            if (cuzk_fr_from_bytes_le(&in[i], r->public_inputs.data + (p * n + i) * 32) != CUZK_OK)
                bad = "public input is not a canonical field element";
        if (!bad && cuzk_groth16_verify(vk, &proof, in, n) != CUZK_OK)
            bad = "pairing check failed";
        if (bad) {
            if (!v->why[0])
                snprintf(v->why, sizeof v->why, "partition %zu: %s", p, bad);
        } else {
            v->valid++;
        }
    }
    cuzk_free(in);
    v->ms = cli_now_ms() - t0;
    if (v->valid == v->total)
        v->state = VERDICT_VALID;
}

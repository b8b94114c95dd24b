/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Request translation for the cuzk.v1 methods: ids checked, SubmitProofRequest mapped to the
 * engine's cuzk_job_request. Nothing is accepted that a reply or a log could not carry. */
#include <grpc/status.h>
#include <string.h>

#include "cuzk/alloc.h"
#include "daemon/rpc/handlers.h"

/* Strings go back to clients in replies and logs: proto3 requires UTF-8, so reject anything else
 * here rather than emit a message a strict client cannot decode. */
static bool utf8_valid(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned char c = *p;
        size_t n;
        uint32_t cp;
        if (c < 0x80) {
            p++;
            continue;
        } else if ((c & 0xe0) == 0xc0) {
            n = 1;
            cp = c & 0x1f;
        } else if ((c & 0xf0) == 0xe0) {
            n = 2;
            cp = c & 0x0f;
        } else if ((c & 0xf8) == 0xf0) {
            n = 3;
            cp = c & 0x07;
        } else {
            return false;
        }
        for (size_t i = 1; i <= n; i++) {
            if ((p[i] & 0xc0) != 0x80)
                return false;
            cp = cp << 6 | (p[i] & 0x3f);
        }
        if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
            cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return false;
        p += n + 1;
    }
    return true;
}

bool cuzk__rpc_check_id(cuzk_rpc_reply *r, const char *field, const char *s, bool required)
{
    size_t n = strlen(s);
    if (required && n == 0) {
        cuzk__rpc_reply_error(r, GRPC_STATUS_INVALID_ARGUMENT, "%s is required", field);
        return false;
    }
    if (n >= CUZK_ENGINE_ID_MAX) {
        cuzk__rpc_reply_error(r, GRPC_STATUS_INVALID_ARGUMENT,
                              "%s is %zu bytes; at most %d are allowed", field, n,
                              CUZK_ENGINE_ID_MAX - 1);
        return false;
    }
    if (!utf8_valid(s)) {
        cuzk__rpc_reply_error(r, GRPC_STATUS_INVALID_ARGUMENT, "%s is not valid UTF-8", field);
        return false;
    }
    for (const char *p = s; *p; p++) {
        if ((unsigned char)*p < 0x20 || *p == 0x7f) {
            cuzk__rpc_reply_error(r, GRPC_STATUS_INVALID_ARGUMENT,
                                  "%s contains a control character", field);
            return false;
        }
    }
    return true;
}

const char *cuzk__rpc_kind_name(int kind)
{
    switch (kind) {
    case CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT:
        return "porep-c2";
    case CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE:
        return "snap-update";
    case CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION:
        return "window-post";
    case CUZK__V1__PROOF_KIND__WINNING_POST:
        return "winning-post";
    default:
        return "circuit";
    }
}

bool cuzk__rpc_job_request_of(cuzk_rpc_reply *r, const Cuzk__V1__SubmitProofRequest *m,
                              cuzk_job_request *req)
{
    memset(req, 0, sizeof *req);
    if (!cuzk__rpc_check_id(r, "request_id", m->request_id, false) ||
        !cuzk__rpc_check_id(r, "circuit_id", m->circuit_id, false))
        return false;
    int kind = (int)m->proof_kind;
    if (kind < 0 || kind > CUZK__V1__PROOF_KIND__WINNING_POST) {
        cuzk__rpc_reply_error(r, GRPC_STATUS_INVALID_ARGUMENT, "invalid proof_kind %d", kind);
        return false;
    }
    if (kind == CUZK__V1__PROOF_KIND__PROOF_KIND_UNSPECIFIED && !m->circuit_id[0]) {
        cuzk__rpc_reply_error(
            r, GRPC_STATUS_INVALID_ARGUMENT,
            "invalid proof_kind: PROOF_KIND_UNSPECIFIED needs circuit_id (a circuit "
            "registered in the daemon)");
        return false;
    }
    int prio = (int)m->priority;
    if (prio < CUZK_PRIORITY_DEFAULT || prio > CUZK_PRIORITY_CRITICAL)
        prio = CUZK_PRIORITY_NORMAL; /* Curio: any other unknown value is NORMAL */
    req->request_id = m->request_id;
    req->kind = (cuzk_proof_kind)kind;
    req->circuit_id = m->circuit_id[0] ? m->circuit_id : NULL;
    req->priority = (cuzk_priority)prio;
    req->witness = m->witness.len ? m->witness.data : NULL;
    req->witness_len = m->witness.len;
    req->partitions = m->partitions;
    req->miner_id = m->miner_id;
    req->sector_number = m->sector_number;
    if (kind == CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT) {
        /* Curio sends the C1 output in vanilla_proof; one in vanilla_proofs is taken too. */
        if (m->vanilla_proof.len) {
            req->registered_proof = m->registered_proof;
            req->vanilla_proofs = cuzk_alloc_array(1, sizeof *req->vanilla_proofs);
            req->vanilla_lens = cuzk_alloc_array(1, sizeof *req->vanilla_lens);
            if (!req->vanilla_proofs || !req->vanilla_lens) {
                cuzk__rpc_job_request_clear(req);
                cuzk__rpc_reply_error(r, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
                return false;
            }
            ((const uint8_t **)req->vanilla_proofs)[0] = m->vanilla_proof.data;
            ((size_t *)req->vanilla_lens)[0] = m->vanilla_proof.len;
            req->n_vanilla = 1;
            return true;
        }
    }
    if (kind == CUZK__V1__PROOF_KIND__WINNING_POST ||
        kind == CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION ||
        kind == CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE ||
        kind == CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT) {
        /* The engine parses the vanilla proofs during submit; these arrays only point into |m|. */
        size_t n = m->n_vanilla_proofs;
        const uint8_t **ptrs = n ? cuzk_alloc_array(n, sizeof *ptrs) : NULL;
        size_t *lens = n ? cuzk_alloc_array(n, sizeof *lens) : NULL;
        if (n && (!ptrs || !lens)) {
            cuzk_free(ptrs);
            cuzk_free(lens);
            cuzk__rpc_reply_error(r, GRPC_STATUS_RESOURCE_EXHAUSTED,
                                  "out of memory for %zu vanilla proofs", n);
            return false;
        }
        for (size_t i = 0; i < n; i++) {
            ptrs[i] = m->vanilla_proofs[i].data;
            lens[i] = m->vanilla_proofs[i].len;
        }
        req->registered_proof = m->registered_proof;
        req->randomness = m->randomness.data;
        req->randomness_len = m->randomness.len;
        req->partition_index = m->partition_index;
        req->vanilla_proofs = ptrs;
        req->vanilla_lens = lens;
        req->n_vanilla = n;
        req->comm_r_old = m->comm_r_old.data;
        req->comm_r_old_len = m->comm_r_old.len;
        req->comm_d_new = m->comm_d_new.data;
        req->comm_d_new_len = m->comm_d_new.len;
        req->comm_r_new = m->comm_r_new.data;
        req->comm_r_new_len = m->comm_r_new.len;
    }
    return true;
}

void cuzk__rpc_job_request_clear(cuzk_job_request *req)
{
    cuzk_free((void *)req->vanilla_proofs);
    cuzk_free((void *)req->vanilla_lens);
    req->vanilla_proofs = NULL;
    req->vanilla_lens = NULL;
}

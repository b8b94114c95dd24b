/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_DAEMON_RPC_HANDLERS_H
#define CUZK_DAEMON_RPC_HANDLERS_H

/*
 * What the cuzk.v1 methods (handlers.c) share: replies (reply.c: gRPC codes, packed messages,
 * the counting allocator for protobuf-c) and request translation (request.c: id checks,
 * SubmitProofRequest -> cuzk_job_request).
 */

#include <stdbool.h>

#include "cuzk/engine.h"
#include "cuzk/v1/proving.pb-c.h"
#include "daemon/rpc/rpc.h"

/* protobuf-c allocations through cuzk_alloc, so they count in the daemon's memory figures. */
extern ProtobufCAllocator cuzk__rpc_pb_allocator;

void cuzk__rpc_reply_error(cuzk_rpc_reply *r, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The engine's status as a gRPC code with cuzk_last_error()'s message; call right after the
 * failing engine call (the message is per thread). */
void cuzk__rpc_reply_engine_error(cuzk_rpc_reply *r, cuzk_status st, const char *what);
/* Packs |m| as the OK reply (RESOURCE_EXHAUSTED when the buffer cannot be had). */
void cuzk__rpc_reply_message(cuzk_rpc_reply *r, const ProtobufCMessage *m);

/* An id field: at most CUZK_ENGINE_ID_MAX - 1 bytes of UTF-8 without control characters;
 * otherwise INVALID_ARGUMENT in |r| and false. */
bool cuzk__rpc_check_id(cuzk_rpc_reply *r, const char *field, const char *s, bool required);
/* The proof kind's name in logs ("porep-c2", ..., "circuit"). */
const char *cuzk__rpc_kind_name(int kind);
/* SubmitProofRequest -> cuzk_job_request, validated; |req| points into |m| and holds two arrays
 * that cuzk__rpc_job_request_clear frees. False with the reply set on a bad request. */
bool cuzk__rpc_job_request_of(cuzk_rpc_reply *r, const Cuzk__V1__SubmitProofRequest *m,
                              cuzk_job_request *req);
void cuzk__rpc_job_request_clear(cuzk_job_request *req);

#endif

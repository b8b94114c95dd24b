/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Replies of the cuzk.v1 methods: engine statuses as gRPC codes, packed response messages. */
#include <grpc/status.h>
#include <stdarg.h>
#include <stdio.h>

#include "cuzk/alloc.h"
#include "daemon/log.h"
#include "daemon/rpc/handlers.h"

/* ---- protobuf-c through the counting allocator --------------------------------------------- */

static void *pb_alloc(void *data, size_t size)
{
    (void)data;
    return cuzk_alloc(size ? size : 1);
}

static void pb_free(void *data, void *p)
{
    (void)data;
    cuzk_free(p);
}

ProtobufCAllocator cuzk__rpc_pb_allocator = {pb_alloc, pb_free, NULL};

/* ---- replies ------------------------------------------------------------------------------- */

void cuzk__rpc_reply_error(cuzk_rpc_reply *r, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->message, sizeof r->message, fmt, ap);
    va_end(ap);
    r->code = code;
}

/* The one mapping of engine statuses to gRPC codes (STYLE.md section 4). */
static int grpc_code_of(cuzk_status st)
{
    switch (st) {
    case CUZK_OK:
        return GRPC_STATUS_OK;
    case CUZK_ERR_INVALID_ARG:
    case CUZK_ERR_FORMAT:
        return GRPC_STATUS_INVALID_ARGUMENT;
    case CUZK_ERR_NOT_FOUND:
        return GRPC_STATUS_NOT_FOUND;
    case CUZK_ERR_UNSUPPORTED:
        return GRPC_STATUS_UNIMPLEMENTED;
    case CUZK_ERR_NOMEM:
        return GRPC_STATUS_RESOURCE_EXHAUSTED;
    case CUZK_ERR_UNAVAILABLE:
        return GRPC_STATUS_UNAVAILABLE;
    case CUZK_ERR_TIMEOUT:
        return GRPC_STATUS_DEADLINE_EXCEEDED;
    case CUZK_ERR_CANCELLED:
        return GRPC_STATUS_CANCELLED;
    default:
        return GRPC_STATUS_INTERNAL;
    }
}

void cuzk__rpc_reply_engine_error(cuzk_rpc_reply *r, cuzk_status st, const char *what)
{
    const char *msg = cuzk_last_error();
    if (!msg || !msg[0])
        msg = cuzk_status_str(st);
    cuzk__rpc_reply_error(r, grpc_code_of(st), "%s", msg);
    cuzk__log_debug("%s failed: %s: %s", what, cuzk_status_name(st), msg);
}

void cuzk__rpc_reply_message(cuzk_rpc_reply *r, const ProtobufCMessage *m)
{
    size_t n = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = n ? cuzk_alloc(n) : NULL;
    if (n && !buf) {
        cuzk__rpc_reply_error(r, GRPC_STATUS_RESOURCE_EXHAUSTED,
                              "out of memory packing a %zu-byte reply", n);
        return;
    }
    if (n)
        protobuf_c_message_pack(m, buf);
    r->code = GRPC_STATUS_OK;
    r->body = buf;
    r->body_len = n;
}

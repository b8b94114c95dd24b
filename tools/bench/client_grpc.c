/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The gRPC module of cuzk-bench (lib/cuzk-bench-grpc.so): unary calls over gRPC's C core behind
 * the byte-level table of client_transport.h. Built apart from cuzk-bench and loaded by client.c
 * only for the client commands. It links nothing of libcuzk, so its one allocation uses malloc
 * like gRPC itself. */
#include "client_transport.h"

#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/support/alloc.h>
#include <grpc/support/log.h>
#include <grpc/support/time.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MESSAGE (256 * 1024 * 1024) /* as Curio's Go client (formats.md 6) */
#define TICK_MS 100

typedef struct {
    grpc_channel *channel;
    grpc_completion_queue *cq;
} grpc_client;

static void fail(rpc_status *st, int code, const char *msg)
{
    st->code = code;
    snprintf(st->details, sizeof st->details, "%s", msg);
}

/* gRPC's own log lines (connection attempts and the like) would garble the commands' output;
 * the failure reaches the user through the call status. CUZK_GRPC_LOG=1 shows them. */
static void quiet_log(gpr_log_func_args *args)
{
    (void)args;
}

static void grpc_client_close(void *p)
{
    grpc_client *c = p;
    if (!c)
        return;
    if (c->channel)
        grpc_channel_destroy(c->channel);
    if (c->cq) {
        grpc_completion_queue_shutdown(c->cq);
        /* Every call has been plucked to completion, so the next event is the shutdown. */
        (void)grpc_completion_queue_pluck(c->cq, NULL, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
        grpc_completion_queue_destroy(c->cq);
    }
    grpc_shutdown();
    free(c);
}

static void *grpc_client_open(const char *target, rpc_status *st)
{
    grpc_client *c = calloc(1, sizeof *c);
    if (!c) {
        fail(st, 8, "out of memory");
        return NULL;
    }
    const char *log = getenv("CUZK_GRPC_LOG");
    if (!log || strcmp(log, "1") != 0)
        gpr_set_log_function(quiet_log);
    grpc_init();
    grpc_arg args[2];
    args[0].type = GRPC_ARG_INTEGER;
    args[0].key = GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH;
    args[0].value.integer = MAX_MESSAGE;
    args[1].type = GRPC_ARG_INTEGER;
    args[1].key = GRPC_ARG_MAX_SEND_MESSAGE_LENGTH;
    args[1].value.integer = MAX_MESSAGE;
    grpc_channel_args cargs = {2, args};
    grpc_channel_credentials *creds = grpc_insecure_credentials_create();
    c->channel = grpc_channel_create(target, creds, &cargs);
    grpc_channel_credentials_release(creds);
    c->cq = grpc_completion_queue_create_for_pluck(NULL);
    if (!c->channel || !c->cq) {
        fail(st, 13, "cannot create a gRPC channel");
        grpc_client_close(c);
        return NULL;
    }
    return c;
}

static bool deliver(grpc_byte_buffer *bb, client_reply_fn reply, void *reply_arg)
{
    grpc_byte_buffer_reader r;
    if (!grpc_byte_buffer_reader_init(&r, bb))
        return false;
    grpc_slice s = grpc_byte_buffer_reader_readall(&r);
    grpc_byte_buffer_reader_destroy(&r);
    bool ok = reply(reply_arg, GRPC_SLICE_START_PTR(s), GRPC_SLICE_LENGTH(s));
    grpc_slice_unref(s);
    return ok;
}

static bool grpc_client_call(void *p, const char *path, const uint8_t *req, size_t req_len,
                             uint64_t deadline_ms, client_tick_fn tick, void *tick_arg,
                             client_reply_fn reply, void *reply_arg, rpc_status *st)
{
    grpc_client *c = p;
    gpr_timespec deadline =
        deadline_ms ? gpr_time_add(gpr_now(GPR_CLOCK_MONOTONIC),
                                   gpr_time_from_millis((int64_t)deadline_ms, GPR_TIMESPAN))
                    : gpr_inf_future(GPR_CLOCK_MONOTONIC);
    grpc_slice method_slice = grpc_slice_from_copied_string(path);
    grpc_call *call = grpc_channel_create_call(c->channel, NULL, GRPC_PROPAGATE_DEFAULTS, c->cq,
                                               method_slice, NULL, deadline, NULL);
    grpc_slice_unref(method_slice);
    if (!call) {
        fail(st, 13, "cannot create a gRPC call");
        return false;
    }
    grpc_slice req_slice = grpc_slice_malloc(req_len);
    if (req_len)
        memcpy(GRPC_SLICE_START_PTR(req_slice), req, req_len);
    grpc_byte_buffer *send = grpc_raw_byte_buffer_create(&req_slice, 1);
    grpc_slice_unref(req_slice);
    grpc_byte_buffer *recv = NULL;
    grpc_metadata_array initial_md, trailing_md;
    grpc_metadata_array_init(&initial_md);
    grpc_metadata_array_init(&trailing_md);
    grpc_status_code code = GRPC_STATUS_UNKNOWN;
    grpc_slice details = grpc_empty_slice();
    const char *error_string = NULL;

    grpc_op ops[6];
    memset(ops, 0, sizeof ops);
    ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
    ops[1].op = GRPC_OP_SEND_MESSAGE;
    ops[1].data.send_message.send_message = send;
    ops[2].op = GRPC_OP_SEND_CLOSE_FROM_CLIENT;
    ops[3].op = GRPC_OP_RECV_INITIAL_METADATA;
    ops[3].data.recv_initial_metadata.recv_initial_metadata = &initial_md;
    ops[4].op = GRPC_OP_RECV_MESSAGE;
    ops[4].data.recv_message.recv_message = &recv;
    ops[5].op = GRPC_OP_RECV_STATUS_ON_CLIENT;
    ops[5].data.recv_status_on_client.trailing_metadata = &trailing_md;
    ops[5].data.recv_status_on_client.status = &code;
    ops[5].data.recv_status_on_client.status_details = &details;
    ops[5].data.recv_status_on_client.error_string = &error_string;

    bool ok = false;
    void *tag = (void *)call;
    grpc_call_error ce = grpc_call_start_batch(call, ops, 6, tag, NULL);
    if (ce != GRPC_CALL_OK) {
        snprintf(st->details, sizeof st->details, "grpc_call_start_batch failed (%d)", (int)ce);
        st->code = 13;
        goto out;
    }
    for (;;) {
        gpr_timespec wake = tick ? gpr_time_add(gpr_now(GPR_CLOCK_MONOTONIC),
                                                gpr_time_from_millis(TICK_MS, GPR_TIMESPAN))
                                 : gpr_inf_future(GPR_CLOCK_MONOTONIC);
        grpc_event ev = grpc_completion_queue_pluck(c->cq, tag, wake, NULL);
        if (ev.type == GRPC_QUEUE_TIMEOUT) {
            tick(tick_arg);
            continue;
        }
        break;
    }
    st->code = (int)code;
    if (GRPC_SLICE_LENGTH(details) > 0) {
        size_t n = GRPC_SLICE_LENGTH(details);
        if (n >= sizeof st->details)
            n = sizeof st->details - 1;
        memcpy(st->details, GRPC_SLICE_START_PTR(details), n);
        st->details[n] = 0;
    }
    if (code != GRPC_STATUS_OK)
        goto out;
    if (!recv) {
        fail(st, 13, "the daemon answered OK without a message");
        goto out;
    }
    if (!deliver(recv, reply, reply_arg)) {
        fail(st, 13, "the daemon's reply does not parse as the expected message");
        goto out;
    }
    ok = true;
out:
    if (error_string)
        gpr_free((void *)error_string);
    grpc_slice_unref(details);
    grpc_metadata_array_destroy(&initial_md);
    grpc_metadata_array_destroy(&trailing_md);
    grpc_byte_buffer_destroy(send);
    if (recv)
        grpc_byte_buffer_destroy(recv);
    grpc_call_unref(call);
    return ok;
}

/* The module's one exported symbol (everything else is static), looked up by client.c. */
__attribute__((visibility("default"))) const client_transport cuzk_bench_grpc_transport = {
    CLIENT_TRANSPORT_ABI,
    grpc_client_open,
    grpc_client_close,
    grpc_client_call,
};

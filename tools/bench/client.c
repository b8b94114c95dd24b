/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Unary calls over gRPC's C core; see client.h. */
#include "client.h"
#include "cuzk/alloc.h"

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
#include <unistd.h>

#define MAX_MESSAGE (256 * 1024 * 1024) /* as Curio's Go client (formats.md 6) */
#define TICK_MS 100

struct bench_client {
    grpc_channel *channel;
    grpc_completion_queue *cq;
    char target[512];
};

static const char *const status_names[] = {
    "OK",
    "CANCELLED",
    "UNKNOWN",
    "INVALID_ARGUMENT",
    "DEADLINE_EXCEEDED",
    "NOT_FOUND",
    "ALREADY_EXISTS",
    "PERMISSION_DENIED",
    "RESOURCE_EXHAUSTED",
    "FAILED_PRECONDITION",
    "ABORTED",
    "OUT_OF_RANGE",
    "UNIMPLEMENTED",
    "INTERNAL",
    "UNAVAILABLE",
    "DATA_LOSS",
    "UNAUTHENTICATED",
};

const char *client_status_name(int code)
{
    static __thread char buf[24];
    if (code >= 0 && (size_t)code < sizeof status_names / sizeof status_names[0])
        return status_names[code];
    snprintf(buf, sizeof buf, "CODE_%d", code);
    return buf;
}

const char *client_default_addr(char *buf, size_t n)
{
    const char *env = getenv("CUZK_ADDR");
    const char *xdg = getenv("XDG_RUNTIME_DIR");
    if (env && *env)
        snprintf(buf, n, "%s", env);
    else if (xdg && *xdg)
        snprintf(buf, n, "unix://%s/cuzk.sock", xdg);
    else
        snprintf(buf, n, "unix:///tmp/cuzk-%u/cuzk.sock", (unsigned)getuid());
    return buf;
}

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

bool client_open(bench_client **out, const char *addr, rpc_status *st)
{
    *out = NULL;
    memset(st, 0, sizeof *st);
    char target[512];
    if (!addr || !*addr) {
        fail(st, 3, "empty daemon address");
        return false;
    }
    /* Curio's tools write TCP addresses as http://host:port; gRPC wants host:port. */
    if (strncmp(addr, "http://", 7) == 0)
        addr += 7;
    int w;
    if (addr[0] == '/')
        w = snprintf(target, sizeof target, "unix://%s", addr);
    else
        w = snprintf(target, sizeof target, "%s", addr);
    if (w < 0 || (size_t)w >= sizeof target || !*addr) {
        fail(st, 3, "daemon address too long or empty");
        return false;
    }
    if (strncmp(target, "unix:", 5) == 0) {
        const char *path = target + 5;
        if (strncmp(path, "//", 2) == 0)
            path += 2;
        /* sun_path holds 108 bytes; gRPC would only say "failed to connect". */
        if (!*path || strlen(path) >= 108) {
            fail(st, 3, "unix socket path is empty or longer than 107 bytes");
            return false;
        }
    }
    bench_client *c = cuzk_alloc(sizeof *c);
    if (!c) {
        fail(st, 8, "out of memory");
        return false;
    }
    memset(c, 0, sizeof *c);
    snprintf(c->target, sizeof c->target, "%s", target);
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
    c->channel = grpc_channel_create(c->target, creds, &cargs);
    grpc_channel_credentials_release(creds);
    c->cq = grpc_completion_queue_create_for_pluck(NULL);
    if (!c->channel || !c->cq) {
        fail(st, 13, "cannot create a gRPC channel");
        client_close(c);
        return false;
    }
    *out = c;
    return true;
}

void client_close(bench_client *c)
{
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
    cuzk_free(c);
}

const char *client_target(const bench_client *c)
{
    return c->target;
}

/* protobuf-c allocations go through the counting allocator like everything else. */
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

static ProtobufCAllocator pb_allocator = {pb_alloc, pb_free, NULL};

void client_free_msg(ProtobufCMessage *m)
{
    if (m)
        protobuf_c_message_free_unpacked(m, &pb_allocator);
}

static grpc_byte_buffer *pack_message(const ProtobufCMessage *m)
{
    size_t n = protobuf_c_message_get_packed_size(m);
    grpc_slice s = grpc_slice_malloc(n);
    protobuf_c_message_pack(m, GRPC_SLICE_START_PTR(s));
    grpc_byte_buffer *bb = grpc_raw_byte_buffer_create(&s, 1);
    grpc_slice_unref(s);
    return bb;
}

static ProtobufCMessage *unpack_message(grpc_byte_buffer *bb, const ProtobufCMessageDescriptor *d)
{
    grpc_byte_buffer_reader r;
    if (!grpc_byte_buffer_reader_init(&r, bb))
        return NULL;
    grpc_slice s = grpc_byte_buffer_reader_readall(&r);
    grpc_byte_buffer_reader_destroy(&r);
    ProtobufCMessage *m =
        protobuf_c_message_unpack(d, &pb_allocator, GRPC_SLICE_LENGTH(s), GRPC_SLICE_START_PTR(s));
    grpc_slice_unref(s);
    return m;
}

bool client_call(bench_client *c, const char *method, const ProtobufCMessage *req,
                 const ProtobufCMessageDescriptor *resp_desc, ProtobufCMessage **resp,
                 uint64_t deadline_ms, client_tick_fn tick, void *tick_arg, rpc_status *st)
{
    *resp = NULL;
    memset(st, 0, sizeof *st);
    char path[128];
    snprintf(path, sizeof path, "/cuzk.v1.ProvingEngine/%s", method);
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
    grpc_byte_buffer *send = pack_message(req);
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
    *resp = unpack_message(recv, resp_desc);
    if (!*resp) {
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

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_DAEMON_RPC_RPC_H
#define CUZK_DAEMON_RPC_RPC_H

/*
 * The cuzk.v1 gRPC service on the gRPC C core (STYLE.md section 7, option A). server.c owns the
 * gRPC objects: listening, the accept loop, one worker thread per call (bounded), reading the
 * request and sending the reply, shutdown. handlers.c turns request bytes into engine calls and
 * engine results into reply bytes (protobuf-c), with request.c's translation and reply.c's
 * replies (handlers.h). Only files in this folder include gRPC or protobuf headers.
 */

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "daemon/addr.h"

/* ---- server (server.c) --------------------------------------------------------------------- */

typedef struct cuzk_rpc_server cuzk_rpc_server;

typedef struct {
    uint64_t max_message_size;  /* both directions */
    unsigned max_concurrent_calls;
} cuzk_rpc_options;

/* grpc_init + a server with its options. */
cuzk_status cuzk__rpc_server_create(cuzk_rpc_server **out,
                                    const cuzk_rpc_options *opt) CUZK_WARN_UNUSED_RESULT;
/* Binds |addr| (before start). A unix socket: parent directory created (0700), a stale socket
 * file removed (a live one is an error), the socket made mode 0600 and checked. |bound| gets the
 * address as logged (the real port for port 0). */
cuzk_status cuzk__rpc_server_listen(cuzk_rpc_server *s, const cuzk_listen_addr *addr, char *bound,
                                    size_t bound_len) CUZK_WARN_UNUSED_RESULT;
/* Starts serving calls on |engine| (borrowed until cuzk__rpc_server_run returns). Binding comes
 * first so that a busy address fails before the engine is built. */
cuzk_status cuzk__rpc_server_start(cuzk_rpc_server *s,
                                   cuzk_engine *engine) CUZK_WARN_UNUSED_RESULT;
/*
 * Serves until *|signals| (a count of SIGTERM/SIGINT) becomes non-zero, then shuts down: stops
 * accepting calls, cuzk_engine_shutdown(grace) (a second signal cuts the grace to 0), lets calls
 * in flight send their replies (cancelling those still open 5 s after the engine stopped), and
 * joins every worker. Returns 0 after a clean shutdown, 1 when a third signal forced an exit
 * before the calls were finished (the caller should then exit without destroying anything).
 */
int cuzk__rpc_server_run(cuzk_rpc_server *s, volatile sig_atomic_t *signals, uint64_t grace_ms);
/* Destroys the gRPC server and queues, removes the unix socket files, grpc_shutdown. */
void cuzk__rpc_server_destroy(cuzk_rpc_server *s);

/* ---- one call, as handlers see it ---------------------------------------------------------- */

typedef struct cuzk_rpc_call cuzk_rpc_call;

/* Whether the client is gone (cancelled, deadline passed, connection lost, server cancelling
 * every call). Long waits poll this so that a worker thread is released soon after. */
bool cuzk__rpc_call_gone(cuzk_rpc_call *c);
/* The daemon's own RPC counters in Prometheus text, appended to GetMetrics; cuzk_alloc'd. */
char *cuzk__rpc_call_server_metrics(cuzk_rpc_call *c);

typedef struct {
    int code;            /* grpc_status_code */
    char message[1024];  /* status details (non-OK) */
    uint8_t *body;       /* packed response message, cuzk_alloc'd (OK only; may be NULL if 0) */
    size_t body_len;
} cuzk_rpc_reply;

typedef void (*cuzk_rpc_handler)(cuzk_engine *e, cuzk_rpc_call *call, const uint8_t *req,
                                 size_t req_len, cuzk_rpc_reply *reply);

typedef struct {
    const char *path; /* "/cuzk.v1.ProvingEngine/SubmitProof" */
    const char *name; /* "SubmitProof" */
    cuzk_rpc_handler fn;
    /* Answers at once (never waits for a proof or a parameter load): may use the few slots
     * kept beyond max_concurrent_calls, so that status, metrics and cancel still work while
     * every regular slot holds a waiting Prove. */
    bool quick;
} cuzk_rpc_method;

/* Slots beyond max_concurrent_calls that only quick methods may use. */
#define CUZK_RPC_QUICK_RESERVE 8

/* The method for a full path, or NULL. */
const cuzk_rpc_method *cuzk__rpc_method_find(const char *path, size_t len);
/* Every method (for per-method counters); *n receives the count. */
const cuzk_rpc_method *cuzk__rpc_methods(size_t *n);

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_BENCH_CLIENT_TRANSPORT_H
#define CUZK_BENCH_CLIENT_TRANSPORT_H

/*
 * The boundary between cuzk-bench and its gRPC module (lib/cuzk-bench-grpc.so, built from
 * client_grpc.c). gRPC core pulls in ~50 shared libraries (abseil, re2, c-ares, ssl, libstdc++)
 * whose loading cost every process ~4.5 ms; only the client commands need them, so client.c
 * dlopen()s the module on their first connection and the in-process commands never load it.
 * The module moves bytes only: protobuf packing stays in cuzk-bench.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The outcome of a call: a gRPC status code (0 = OK) and its detail text. */
typedef struct {
    int code;
    char details[1024];
} rpc_status;

/* Called about every 100 ms while a call is in flight (progress displays). */
typedef void (*client_tick_fn)(void *arg);

/* Receives the reply's bytes (valid only during the call); false = they do not parse. */
typedef bool (*client_reply_fn)(void *arg, const uint8_t *data, size_t len);

/* Bumped whenever the table below changes, so a stale module is refused, not misused. */
#define CLIENT_TRANSPORT_ABI 1
#define CLIENT_TRANSPORT_SYMBOL "cuzk_bench_grpc_transport"

typedef struct {
    int abi;
    /* A channel to the normalised |target| ("unix:///path", "host:port"); NULL with |st| set. */
    void *(*open)(const char *target, rpc_status *st);
    void (*close)(void *channel);
    /* One unary call of |path| ("/cuzk.v1.ProvingEngine/Method"): sends |req|, waits at most
     * |deadline_ms| (0 = none), hands an OK reply's bytes to |reply|. True when the status is
     * OK and |reply| accepted the bytes. */
    bool (*call)(void *channel, const char *path, const uint8_t *req, size_t req_len,
                 uint64_t deadline_ms, client_tick_fn tick, void *tick_arg, client_reply_fn reply,
                 void *reply_arg, rpc_status *st);
} client_transport;

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_BENCH_CLIENT_H
#define CUZK_BENCH_CLIENT_H

/*
 * A thin unary-call client for the cuzk.v1 service on gRPC's C core (libgrpc 1.51): one channel
 * (insecure credentials, 256 MiB messages like Curio's Go client) and one completion queue per
 * client. A client is used by one thread at a time; open one per thread. gRPC itself lives in a
 * module loaded on the first client_open (client_transport.h says why).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "client_transport.h"
#include "cuzk/v1/proving.pb-c.h"

typedef struct bench_client bench_client;

/* The address used when no --addr is given: $CUZK_ADDR, else the daemon's default socket
 * unix://$XDG_RUNTIME_DIR/cuzk.sock, else unix:///tmp/cuzk-$UID/cuzk.sock. Written to |buf|. */
const char *client_default_addr(char *buf, size_t n);

/* Opens a channel to |addr|: "unix:///path", "unix:path", "/path", "host:port" or
 * "http://host:port". Nothing connects until the first call. Returns false (with |st| filled)
 * on a malformed address or when the gRPC module cannot be loaded. */
bool client_open(bench_client **out, const char *addr, rpc_status *st);
void client_close(bench_client *c);
const char *client_target(const bench_client *c);

/*
 * One unary call of cuzk.v1.ProvingEngine/|method|: packs |req|, waits at most |deadline_ms|
 * (0 = no deadline), unpacks the reply as |resp_desc| into *|resp| (free it with
 * client_free_msg). Returns true when the status is OK and the reply parsed; otherwise false
 * with st->code and st->details set (a reply that does not parse is reported as INTERNAL).
 */
bool client_call(bench_client *c, const char *method, const ProtobufCMessage *req,
                 const ProtobufCMessageDescriptor *resp_desc, ProtobufCMessage **resp,
                 uint64_t deadline_ms, client_tick_fn tick, void *tick_arg, rpc_status *st);
void client_free_msg(ProtobufCMessage *m);

/* "OK", "CANCELLED", ..., "UNAUTHENTICATED"; "CODE_<n>" beyond the table. */
const char *client_status_name(int code);

#define CLIENT_UNAVAILABLE 14
#define CLIENT_UNIMPLEMENTED 12
#define CLIENT_NOT_FOUND 5
#define CLIENT_INTERNAL 13

#endif

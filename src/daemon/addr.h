/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_DAEMON_ADDR_H
#define CUZK_DAEMON_ADDR_H

/* Listen addresses: `unix:///abs/path` (or gRPC's `unix:path`), `host:port`, `[v6]:port`,
 * `:port` or a bare port (loopback, 127.0.0.1). */

#include <stdbool.h>
#include <stddef.h>

#include "cuzk/status.h"

#define CUZK_ADDR_UNIX_MAX 108 /* sizeof sockaddr_un.sun_path on Linux, NUL included */

typedef struct {
    bool is_unix;
    char path[CUZK_ADDR_UNIX_MAX];  /* unix: the socket file */
    char target[CUZK_ADDR_UNIX_MAX + 300]; /* what grpc_server_add_http2_port gets */
    char display[CUZK_ADDR_UNIX_MAX + 300]; /* how logs name it (unix://path or host:port) */
    int port;                       /* TCP: the port asked for (0 = any) */
} cuzk_listen_addr;

/* Parses |text|. Returns CUZK_OK or INVALID_ARG with a message naming the problem. */
cuzk_status cuzk__addr_parse(cuzk_listen_addr *out, const char *text) CUZK_WARN_UNUSED_RESULT;

/* Unix sockets and TCP on 127.0.0.0/8, [::1] or localhost: reachable from this host only. */
bool cuzk__addr_is_local(const cuzk_listen_addr *a);

#endif

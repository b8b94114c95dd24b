/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_DAEMON_HTTP_STATUS_H
#define CUZK_DAEMON_HTTP_STATUS_H

/*
 * The HTTP status server of `daemon.status_listen` (Curio's cuzk serves the same): `GET /status`
 * answers the engine's state as JSON (docs/OPERATIONS.md lists the fields), any other path 404,
 * any method but GET/HEAD 405. GNU libmicrohttpd does the HTTP on its own polling thread.
 *
 * Life cycle (main.c): bind before the engine is built (a busy or bad address fails before
 * minutes of start-up), start once the engine runs, destroy before the engine is destroyed.
 */

#include <stddef.h>

#include "cuzk/engine.h"

typedef struct cuzk_http_status cuzk_http_status;

/* Checks that |text| is a TCP address the server can take: host:port, [v6]:port, :port or a
 * bare port (both loopback, as for daemon.listen); unix sockets are refused. Returns CUZK_OK or
 * INVALID_ARG with a message naming the problem (not the key: the caller knows it). */
cuzk_status cuzk__http_status_addr_check(const char *text) CUZK_WARN_UNUSED_RESULT;

/* Resolves |text| and binds a listening socket; nothing is served until _start. *out is NULL on
 * failure. Returns CUZK_OK; INVALID_ARG (bad address); IO (cannot resolve or bind: the message
 * names the address and why). */
cuzk_status cuzk__http_status_bind(cuzk_http_status **out,
                                   const char *text) CUZK_WARN_UNUSED_RESULT;

/* The address bound, as host:port with the port actually taken (":0" asks for any). */
const char *cuzk__http_status_address(const cuzk_http_status *s);

/* Serves |e| (borrowed: it must outlive _destroy) on libmicrohttpd's thread. Returns CUZK_OK or
 * INTERNAL (the library refused to start). */
cuzk_status cuzk__http_status_start(cuzk_http_status *s, cuzk_engine *e) CUZK_WARN_UNUSED_RESULT;

/* Stops the thread (a request being answered finishes first), closes the socket, frees |s|.
 * NULL: no-op. */
void cuzk__http_status_destroy(cuzk_http_status *s);

/* The /status body for |e|: *out is a NUL-terminated JSON text, freed with cJSON_free; *len is
 * its length. Returns CUZK_OK; NOMEM; or the engine's status error. */
cuzk_status cuzk__http_status_json(cuzk_engine *e, char **out, size_t *len) CUZK_WARN_UNUSED_RESULT;

#endif

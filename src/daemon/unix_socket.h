/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_DAEMON_UNIX_SOCKET_H
#define CUZK_DAEMON_UNIX_SOCKET_H

#include "cuzk/status.h"

#include "common/file.h" /* cuzk__make_dirs */

/*
 * Makes |path| ready for a new unix socket: the parent directory exists (created 0700) and is
 * not writable by other users unless sticky; an existing socket nobody accepts on (stale) is
 * removed; a live socket (another daemon: UNAVAILABLE) or any other file (IO) is refused.
 * gRPC would otherwise unlink whatever socket is there, a live one included.
 */
cuzk_status cuzk__unix_socket_prepare(const char *path) CUZK_WARN_UNUSED_RESULT;

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_DAEMON_RELOAD_H
#define CUZK_DAEMON_RELOAD_H

/*
 * SIGHUP: the configuration is read again (the same file and command-line overrides). Circuits
 * new in it are registered with the running engine, so a key can be added without a restart
 * (which would drop every loaded parameter set); logging.level applies at once; anything else
 * that changed (listen addresses, budgets, workers, a circuit's definition or removal) is
 * logged as needing a restart and left as it runs. A configuration that does not parse changes
 * nothing. The daemon must block SIGHUP in every thread (cuzk__reload_block_signal before any
 * thread starts); a thread of the reloader waits for it with sigwait.
 */
#include "cuzk/engine.h"
#include "daemon/config.h"

typedef struct cuzk_reloader cuzk_reloader;

/* Fills |cfg| from the file and the overrides as at start-up: -1 on success (the loader's
 * convention in main.c), else an exit code, with the reason logged. */
typedef int (*cuzk_reload_load_fn)(cuzk_daemon_config *cfg, const void *ctx);

/* Blocks SIGHUP in the calling thread, and so in every thread it starts afterwards. */
void cuzk__reload_block_signal(void);

/* Starts the SIGHUP thread. |running| (the configuration the daemon started with) and |e| must
 * outlive the reloader. */
cuzk_status cuzk__reloader_start(cuzk_reloader **out, cuzk_engine *e,
                                 const cuzk_daemon_config *running, cuzk_reload_load_fn load,
                                 const void *load_ctx);
/* Stops and joins the thread (a reload in progress finishes first); NULL: nothing. */
void cuzk__reloader_stop(cuzk_reloader *r);

#endif

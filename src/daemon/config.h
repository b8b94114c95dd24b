/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_DAEMON_CONFIG_H
#define CUZK_DAEMON_CONFIG_H

/*
 * The daemon configuration: one table of keys (config.c) drives the TOML file, command-line
 * overrides, validation, `--print-config` and `--help-config` (STYLE.md section 11). Keys that
 * mean the same as in Curio's cuzk.toml keep Curio's names; Curio keys with no effect here are
 * accepted with a warning; unknown keys are errors naming file:line.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/engine.h"

#define CUZK_CONFIG_LIST_MAX 64 /* entries in a list key (daemon.listen, gpus.devices) */

typedef struct {
    char **v;
    size_t n;
} cuzk_strlist;

typedef struct {
    int *v;
    size_t n;
} cuzk_intlist;

typedef struct {
    char *id;
    cuzk_circuit_source source;
    char *spec;   /* BUILTIN */
    char *params; /* BUILTIN, optional */
    char *zkey;   /* ZKEY */
    unsigned line;
} cuzk_daemon_circuit;

typedef struct {
    /* [daemon] */
    cuzk_strlist listen;
    uint64_t max_message_size;
    uint64_t max_concurrent_calls;
    uint64_t shutdown_grace_ms;
    char *status_listen; /* HTTP GET /status address; NULL = off */
    /* [engine] */
    int backend; /* cuzk_backend_kind */
    uint64_t prover_workers;
    uint64_t synthesis_workers;
    uint64_t queue_depth;
    uint64_t result_ttl_ms;
    bool self_verify;
    /* [memory] */
    uint64_t total_budget; /* 0 = auto */
    uint64_t safety_margin;
    uint64_t eviction_min_idle_ms;
    uint64_t pinned_budget; /* 0 = auto */
    bool abc_pool;
    uint64_t abc_pool_budget; /* 0 = auto */
    /* [gpus] */
    uint64_t h_precompute_rows;
    cuzk_intlist devices;
    /* [synthesis] */
    uint64_t threads;
    bool pce;
    /* [srs] */
    char *param_cache; /* the cache directory; NULL until cuzk__config_finish */
    bool check_zkey_subgroups;
    /* [logging] */
    int log_level; /* cuzk_log_level */
    /* [[circuits]] */
    cuzk_daemon_circuit *circuits;
    size_t n_circuits;

    char *file;       /* the config file read, or NULL */
    unsigned set_line[64]; /* per key: where it was set (line; 0 = default) */
    bool set_cli[64];      /* per key: set on the command line */
} cuzk_daemon_config;

/* Fills |c| with the defaults. */
cuzk_status cuzk__config_init(cuzk_daemon_config *c) CUZK_WARN_UNUSED_RESULT;
void cuzk__config_free(cuzk_daemon_config *c);

/* Reads |path| into |c| (over the defaults). Errors name path:line. Ignored Curio keys are
 * logged as warnings. Returns CUZK_OK; IO; FORMAT; INVALID_ARG. */
cuzk_status cuzk__config_load_file(cuzk_daemon_config *c, const char *path) CUZK_WARN_UNUSED_RESULT;

/* A command-line override: |key| (e.g. "engine.backend") gets |values| (text, as it would be
 * written inside a TOML string; n > 1 only for list keys). Returns CUZK_OK or INVALID_ARG. */
cuzk_status cuzk__config_set(cuzk_daemon_config *c, const char *key, const char *const *values,
                             size_t n, const char *origin) CUZK_WARN_UNUSED_RESULT;

/* Fills the defaults that depend on the environment (listen address, cache directory) and checks
 * the combination. Returns CUZK_OK or INVALID_ARG. */
cuzk_status cuzk__config_finish(cuzk_daemon_config *c) CUZK_WARN_UNUSED_RESULT;

/* The effective configuration as TOML that cuzk__config_load_file reads back. */
void cuzk__config_print(const cuzk_daemon_config *c, FILE *f);
/* Every key: type, default, Curio compatibility, meaning. */
void cuzk__config_help(FILE *f);

/* "256MiB" / "30s" style parsers shared with the command line. */
cuzk_status cuzk__parse_size(const char *s, uint64_t *out) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk__parse_duration_ms(const char *s, uint64_t *out) CUZK_WARN_UNUSED_RESULT;

#endif

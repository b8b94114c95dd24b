/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_DAEMON_CONFIG_KEYS_H
#define CUZK_DAEMON_CONFIG_KEYS_H

/* The configuration key table (config_keys.c), shared by the reader (config.c) and the printers
 * (config_print.c). */

#include <stddef.h>
#include <stdint.h>

#include "daemon/config.h"

typedef enum {
    K_STRING,   /* char * */
    K_STRINGS,  /* cuzk_strlist: a string or an array of strings */
    K_UINT,     /* uint64_t in [min, max] */
    K_BOOL,     /* bool */
    K_SIZE,     /* uint64_t bytes: integer or "256MiB"; F_AUTO: "auto" = 0 */
    K_DURATION, /* uint64_t ms: integer seconds or "5m" / "30s" / "250ms" */
    K_ENUM,     /* int: index into choices */
    K_INTS,     /* cuzk_intlist, each in [min, max] */
    K_IGNORED,  /* accepted for Curio compatibility, no effect */
} key_type;

enum {
    F_CURIO = 1,    /* same name and meaning as in Curio's cuzk.toml */
    F_CUZK = 2,     /* cuzk addition */
    F_AUTO = 4,     /* K_SIZE: "auto" allowed (stored as 0) */
    F_ALIAS = 8,    /* another name of the key before it in the table with the same field */
    F_DIFFERS = 16, /* Curio has the key but it means something else there (see help) */
    F_EMPTY = 32    /* K_STRING: "" allowed (stored as NULL: the feature is off) */
};

typedef struct {
    const char *name; /* "section.key" */
    key_type type;
    const char *def; /* default, written as in a TOML string; NULL = computed at finish */
    uint64_t min, max;
    unsigned flags;
    size_t off;
    const char *const *choices;
    const char *help;
} key_def;


extern const key_def cuzk__config_keys[];
extern const size_t cuzk__config_n_keys;
/* The tables a file may have besides [[circuits]], in printing order; NULL-terminated. */
extern const char *const cuzk__config_sections[];

/* The entry of |name| ("daemon.listen"), or NULL. */
const key_def *cuzk__config_find_key(const char *name);
/* The canonical key of entry |i|: itself, or for an alias the first entry with the same field. */
size_t cuzk__config_canonical(size_t i);

#endif

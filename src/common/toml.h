/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_COMMON_TOML_H
#define CUZK_COMMON_TOML_H

/*
 * A TOML subset, enough for cuzk.toml and Curio's cuzk.example.toml: comments, [table] and
 * [a.b] headers, [[array-of-tables]], `key = value` with bare or quoted keys, basic and literal
 * strings (single line), integers (decimal with `_`, 0x / 0o / 0b), booleans and arrays (which may
 * span lines). Not supported, each with a clear error: dotted keys, floats, dates, inline tables,
 * multi-line strings. Every value and key remembers its line so that callers can report
 * "file:line" in their own validation errors.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

typedef enum {
    CUZK_TOML_STRING,
    CUZK_TOML_INT,
    CUZK_TOML_BOOL,
    CUZK_TOML_ARRAY,
    CUZK_TOML_TABLE,
} cuzk_toml_type;

typedef struct cuzk_toml_value cuzk_toml_value;

typedef struct {
    char *key;
    cuzk_toml_value *value;
} cuzk_toml_entry;

struct cuzk_toml_value {
    cuzk_toml_type type;
    unsigned line;        /* where the value (or table header) starts; 0 for implicit tables */
    bool table_array;     /* ARRAY: made by [[name]] headers (items are tables) */
    bool header_defined;  /* TABLE: named by its own [header] (a second one is an error) */
    union {
        char *str; /* NUL-terminated; a string with an embedded NUL is rejected */
        int64_t i;
        bool b;
        struct {
            cuzk_toml_value **items;
            size_t n, cap;
        } array;
        struct {
            cuzk_toml_entry *entries; /* in file order */
            size_t n, cap;
        } table;
    } u;
};

/* Parses |len| bytes of |text|; |name| (a file name) prefixes error messages ("name:line: ...").
 * On success *out is the root table (free with cuzk_toml_free). Returns CUZK_OK; FORMAT with
 * a message naming the line; NOMEM. *out is NULL on failure. */
cuzk_status cuzk_toml_parse(cuzk_toml_value **out, const char *text, size_t len,
                            const char *name) CUZK_WARN_UNUSED_RESULT;
/* Reads and parses the file at |path| (at most 1 MiB). Adds IO to the errors above. */
cuzk_status cuzk_toml_parse_file(cuzk_toml_value **out, const char *path) CUZK_WARN_UNUSED_RESULT;
void cuzk_toml_free(cuzk_toml_value *v);

/* The value of |key| in |table|, or NULL (also when |table| is not a table). */
const cuzk_toml_value *cuzk_toml_get(const cuzk_toml_value *table, const char *key);
/* "string", "integer", "boolean", "array", "table". */
const char *cuzk_toml_type_name(cuzk_toml_type t);

#endif

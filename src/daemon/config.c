/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Reading the configuration: defaults, the TOML file, command-line overrides, validation. */
#include "daemon/config.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common/toml.h"
#include "cuzk/alloc.h"
#include "cuzk/r1cs.h"
#include "daemon/addr.h"
#include "daemon/config_keys.h"
#include "daemon/http_status.h"
#include "daemon/log.h"

/* ---- small helpers ------------------------------------------------------------------------- */

static void strlist_clear(cuzk_strlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        cuzk_free(l->v[i]);
    cuzk_free(l->v);
    l->v = NULL;
    l->n = 0;
}

static void *field(cuzk_daemon_config *c, const key_def *k)
{
    return (char *)c + k->off;
}

/* ---- setting one key ----------------------------------------------------------------------- */

/* Where a value came from, for messages: "file:line: key" or "--flag". */
typedef struct {
    char where[600];
} origin;

static cuzk_status bad(const origin *o, const key_def *k, const char *why)
{
    return cuzk_fail(CUZK_ERR_INVALID_ARG, "%s: %s: %s", o->where, k->name, why);
}

static cuzk_status set_scalar(cuzk_daemon_config *c, const key_def *k, const cuzk_toml_value *v,
                              const origin *o)
{
    char msg[400];
    cuzk_status st;
    uint64_t u = 0;
    switch (k->type) {
    case K_STRING: {
        if (v->type != CUZK_TOML_STRING)
            return bad(o, k, "expected a string");
        char **dst = field(c, k);
        if (!v->u.str[0] && (k->flags & F_EMPTY)) {
            cuzk_free(*dst);
            *dst = NULL;
            return CUZK_OK;
        }
        if (!v->u.str[0])
            return bad(o, k, "must not be empty");
        char *d = cuzk_strdup(v->u.str);
        if (!d)
            return cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
        cuzk_free(*dst);
        *dst = d;
        return CUZK_OK;
    }
    case K_BOOL:
        if (v->type == CUZK_TOML_BOOL) {
            *(bool *)field(c, k) = v->u.b;
        } else if (v->type == CUZK_TOML_STRING &&
                   (!strcmp(v->u.str, "true") || !strcmp(v->u.str, "false"))) {
            *(bool *)field(c, k) = v->u.str[0] == 't';
        } else {
            return bad(o, k, "expected true or false");
        }
        return CUZK_OK;
    case K_ENUM: {
        if (v->type != CUZK_TOML_STRING)
            return bad(o, k, "expected a string");
        for (int i = 0; k->choices[i]; i++) {
            if (strcasecmp(v->u.str, k->choices[i]) == 0) {
                *(int *)field(c, k) = i;
                return CUZK_OK;
            }
        }
        size_t off = (size_t)snprintf(msg, sizeof msg, "'%.60s' is not one of", v->u.str);
        for (int i = 0; k->choices[i] && off < sizeof msg; i++)
            off += (size_t)snprintf(msg + off, sizeof msg - off, "%s %s", i ? "," : "",
                                    k->choices[i]);
        return bad(o, k, msg);
    }
    case K_UINT:
        if (v->type == CUZK_TOML_INT) {
            if (v->u.i < 0)
                return bad(o, k, "must not be negative");
            u = (uint64_t)v->u.i;
        } else if (v->type == CUZK_TOML_STRING) {
            char *end;
            errno = 0;
            unsigned long long x = strtoull(v->u.str, &end, 10);
            if (!v->u.str[0] || *end || errno || v->u.str[0] == '-' || v->u.str[0] == '+')
                return bad(o, k, "expected a non-negative integer");
            u = x;
        } else {
            return bad(o, k, "expected an integer");
        }
        break;
    case K_SIZE:
        if (v->type == CUZK_TOML_INT) {
            if (v->u.i < 0)
                return bad(o, k, "must not be negative");
            u = (uint64_t)v->u.i;
        } else if (v->type == CUZK_TOML_STRING) {
            if ((k->flags & F_AUTO) && strcasecmp(v->u.str, "auto") == 0) {
                *(uint64_t *)field(c, k) = 0;
                return CUZK_OK;
            }
            if ((st = cuzk__parse_size(v->u.str, &u)) != CUZK_OK)
                return bad(o, k, cuzk_last_error());
        } else {
            return bad(o, k, (k->flags & F_AUTO) ? "expected \"auto\" or a size (\"64GiB\")"
                                                 : "expected a size (\"64GiB\") or bytes");
        }
        break;
    case K_DURATION:
        if (v->type == CUZK_TOML_INT) {
            if (v->u.i < 0)
                return bad(o, k, "must not be negative");
            if ((uint64_t)v->u.i > UINT64_MAX / 1000)
                return bad(o, k, "too large");
            u = (uint64_t)v->u.i * 1000;
        } else if (v->type == CUZK_TOML_STRING) {
            if ((st = cuzk__parse_duration_ms(v->u.str, &u)) != CUZK_OK)
                return bad(o, k, cuzk_last_error());
        } else {
            return bad(o, k, "expected a duration (\"30s\", \"5m\") or seconds");
        }
        break;
    default:
        return bad(o, k, "internal: not a scalar key");
    }
    if (u < k->min || u > k->max) {
        if (k->type == K_DURATION)
            snprintf(msg, sizeof msg, "%llu ms is outside [%llu ms, %llu ms]",
                     (unsigned long long)u, (unsigned long long)k->min,
                     (unsigned long long)k->max);
        else
            snprintf(msg, sizeof msg, "%llu is outside [%llu, %llu]", (unsigned long long)u,
                     (unsigned long long)k->min, (unsigned long long)k->max);
        return bad(o, k, msg);
    }
    *(uint64_t *)field(c, k) = u;
    return CUZK_OK;
}

static cuzk_status set_list(cuzk_daemon_config *c, const key_def *k, const cuzk_toml_value *v,
                            const origin *o)
{
    const cuzk_toml_value *one[1] = {v};
    const cuzk_toml_value *const *items = one;
    size_t n = 1;
    if (v->type == CUZK_TOML_ARRAY) {
        items = (const cuzk_toml_value *const *)v->u.array.items;
        n = v->u.array.n;
    }
    if (n > CUZK_CONFIG_LIST_MAX)
        return bad(o, k, "too many entries");
    if (k->type == K_STRINGS) {
        cuzk_strlist l = {NULL, 0};
        if (n && !(l.v = cuzk_calloc_array(n, sizeof *l.v)))
            return cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
        for (size_t i = 0; i < n; i++) {
            if (items[i]->type != CUZK_TOML_STRING || !items[i]->u.str[0]) {
                strlist_clear(&l);
                return bad(o, k, "expected a non-empty string or an array of them");
            }
            if (!(l.v[i] = cuzk_strdup(items[i]->u.str))) {
                strlist_clear(&l);
                return cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
            }
            l.n = i + 1;
        }
        cuzk_strlist *dst = field(c, k);
        strlist_clear(dst);
        *dst = l;
        return CUZK_OK;
    }
    /* K_INTS */
    if (v->type != CUZK_TOML_ARRAY)
        return bad(o, k, "expected an array of integers, like [0, 1]");
    int *iv = NULL;
    if (n && !(iv = cuzk_alloc_array(n, sizeof *iv)))
        return cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        if (items[i]->type != CUZK_TOML_INT || items[i]->u.i < (int64_t)k->min ||
            items[i]->u.i > (int64_t)k->max) {
            cuzk_free(iv);
            char msg[160];
            snprintf(msg, sizeof msg, "entry %zu must be an integer in [%llu, %llu]", i,
                     (unsigned long long)k->min, (unsigned long long)k->max);
            return bad(o, k, msg);
        }
        iv[i] = (int)items[i]->u.i;
        for (size_t j = 0; j < i; j++) {
            if (iv[j] == iv[i]) {
                cuzk_free(iv);
                return bad(o, k, "lists the same device twice");
            }
        }
    }
    cuzk_intlist *dst = field(c, k);
    cuzk_free(dst->v);
    dst->v = iv;
    dst->n = n;
    return CUZK_OK;
}

static cuzk_status set_value(cuzk_daemon_config *c, size_t ki, const cuzk_toml_value *v,
                             const origin *o)
{
    const key_def *k = &cuzk__config_keys[ki];
    if (k->type == K_STRINGS || k->type == K_INTS)
        return set_list(c, k, v, o);
    if (v->type == CUZK_TOML_ARRAY || v->type == CUZK_TOML_TABLE)
        return bad(o, k, "expected a single value");
    return set_scalar(c, k, v, o);
}

/* ---- defaults ------------------------------------------------------------------------------ */

cuzk_status cuzk__config_init(cuzk_daemon_config *c)
{
    memset(c, 0, sizeof *c);
    origin o = {"built-in default"};
    for (size_t i = 0; i < cuzk__config_n_keys; i++) {
        const key_def *k = &cuzk__config_keys[i];
        if (!k->def || k->type == K_IGNORED || (k->flags & F_ALIAS))
            continue;
        cuzk_toml_value v = {.type = CUZK_TOML_STRING};
        v.u.str = (char *)k->def;
        cuzk_status st;
        if (k->type == K_INTS && !k->def[0])
            continue; /* empty list */
        if ((st = set_value(c, i, &v, &o)) != CUZK_OK) {
            cuzk__config_free(c);
            return st;
        }
    }
    return CUZK_OK;
}

void cuzk__config_free(cuzk_daemon_config *c)
{
    if (!c)
        return;
    strlist_clear(&c->listen);
    cuzk_free(c->status_listen);
    cuzk_free(c->devices.v);
    cuzk_free(c->param_cache);
    for (size_t i = 0; i < c->n_circuits; i++) {
        cuzk_free(c->circuits[i].id);
        cuzk_free(c->circuits[i].spec);
        cuzk_free(c->circuits[i].params);
        cuzk_free(c->circuits[i].zkey);
    }
    cuzk_free(c->circuits);
    cuzk_free(c->file);
    memset(c, 0, sizeof *c);
}

/* ---- the file ------------------------------------------------------------------------------ */

static bool valid_circuit_id(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= CUZK_ENGINE_ID_MAX)
        return false;
    for (; *s; s++) {
        char ch = *s;
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '.' || ch == '_' || ch == ':' || ch == '-'))
            return false;
    }
    return true;
}

static cuzk_status load_circuit(cuzk_daemon_config *c, const char *path,
                                const cuzk_toml_value *t, cuzk_daemon_circuit *out)
{
    memset(out, 0, sizeof *out);
    out->line = t->line;
    const char *id = NULL, *builtin = NULL, *params = NULL, *zkey = NULL;
    for (size_t i = 0; i < t->u.table.n; i++) {
        const cuzk_toml_entry *e = &t->u.table.entries[i];
        const char **dst = !strcmp(e->key, "id")        ? &id
                           : !strcmp(e->key, "builtin") ? &builtin
                           : !strcmp(e->key, "params")  ? &params
                           : !strcmp(e->key, "zkey")    ? &zkey
                                                        : NULL;
        if (!dst)
            return cuzk_fail(CUZK_ERR_INVALID_ARG,
                             "%s:%u: unknown key '%s' in [[circuits]] (known: id, builtin, "
                             "params, zkey)", path, e->value->line, e->key);
        if (e->value->type != CUZK_TOML_STRING || !e->value->u.str[0])
            return cuzk_fail(CUZK_ERR_INVALID_ARG, "%s:%u: circuits.%s: expected a non-empty "
                             "string", path, e->value->line, e->key);
        *dst = e->value->u.str;
    }
    if (!id)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "%s:%u: [[circuits]] entry without an id", path,
                         t->line);
    if (!valid_circuit_id(id))
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "%s:%u: circuit id '%.60s' must be 1-%d characters of A-Z a-z 0-9 . _ "
                         ": -", path, t->line, id, CUZK_ENGINE_ID_MAX - 1);
    for (size_t i = 0; i < c->n_circuits; i++)
        if (!strcmp(c->circuits[i].id, id))
            return cuzk_fail(CUZK_ERR_INVALID_ARG,
                             "%s:%u: circuit id '%s' is already used at line %u", path, t->line,
                             id, c->circuits[i].line);
    if (!builtin == !zkey)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "%s:%u: circuit '%s' needs exactly one of builtin = \"<spec>\" or zkey "
                         "= \"<file>\"", path, t->line, id);
    if (zkey && params)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "%s:%u: circuit '%s': params goes with builtin circuits; a zkey holds "
                         "its own parameters", path, t->line, id);
    if (builtin) {
        cuzk_circuit probe;
        if (cuzk_circuit_find(builtin, &probe) != CUZK_OK)
            return cuzk_fail(CUZK_ERR_INVALID_ARG, "%s:%u: circuit '%s': builtin \"%.80s\": %s "
                             "(cuzk --help-config lists the built-in circuits)", path, t->line,
                             id, builtin, cuzk_last_error());
    }
    out->source = zkey ? CUZK_CIRCUIT_ZKEY : CUZK_CIRCUIT_BUILTIN;
    if (!(out->id = cuzk_strdup(id)) || (builtin && !(out->spec = cuzk_strdup(builtin))) ||
        (params && !(out->params = cuzk_strdup(params))) ||
        (zkey && !(out->zkey = cuzk_strdup(zkey)))) {
        cuzk_free(out->id);
        cuzk_free(out->spec);
        cuzk_free(out->params);
        cuzk_free(out->zkey);
        memset(out, 0, sizeof *out);
        return cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
    }
    return CUZK_OK;
}

static cuzk_status load_circuits(cuzk_daemon_config *c, const char *path,
                                 const cuzk_toml_value *v)
{
    if (v->type != CUZK_TOML_ARRAY || !v->table_array)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "%s:%u: 'circuits' must be written as [[circuits]] tables", path,
                         v->line);
    size_t n = v->u.array.n;
    if (n > 1024)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "%s: more than 1024 circuits", path);
    cuzk_daemon_circuit *arr = cuzk_calloc_array(n ? n : 1, sizeof *arr);
    if (!arr)
        return cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
    /* Replace whatever an earlier file set; validation of duplicates looks at c->circuits. */
    cuzk_daemon_config tmp = {0};
    tmp.circuits = arr;
    for (size_t i = 0; i < n; i++) {
        cuzk_status st = load_circuit(&tmp, path, v->u.array.items[i], &arr[i]);
        if (st != CUZK_OK) {
            cuzk__config_free(&tmp);
            return st;
        }
        tmp.n_circuits = i + 1;
    }
    for (size_t i = 0; i < c->n_circuits; i++) {
        cuzk_free(c->circuits[i].id);
        cuzk_free(c->circuits[i].spec);
        cuzk_free(c->circuits[i].params);
        cuzk_free(c->circuits[i].zkey);
    }
    cuzk_free(c->circuits);
    c->circuits = arr;
    c->n_circuits = n;
    return CUZK_OK;
}

static cuzk_status load_section(cuzk_daemon_config *c, const char *path, const char *section,
                                const cuzk_toml_value *t)
{
    for (size_t i = 0; i < t->u.table.n; i++) {
        const cuzk_toml_entry *e = &t->u.table.entries[i];
        char name[300];
        snprintf(name, sizeof name, "%s.%s", section, e->key);
        const key_def *k = cuzk__config_find_key(name);
        if (!k) {
            if (e->value->type == CUZK_TOML_TABLE)
                return cuzk_fail(CUZK_ERR_INVALID_ARG, "%s:%u: unknown table [%s]", path,
                                 e->value->line, name);
            return cuzk_fail(CUZK_ERR_INVALID_ARG,
                             "%s:%u: unknown key '%s' (cuzk --help-config lists every key)",
                             path, e->value->line, name);
        }
        size_t ki = (size_t)(k - cuzk__config_keys);
        if (k->type == K_IGNORED) {
            cuzk__log_warn("%s:%u: %s is accepted for Curio compatibility and %s", path,
                           e->value->line, name, k->help);
            continue;
        }
        size_t ci = cuzk__config_canonical(ki);
        for (size_t j = 0; j < cuzk__config_n_keys; j++) {
            if (j != ki && cuzk__config_canonical(j) == ci && c->set_line[j] && !c->set_cli[j])
                return cuzk_fail(CUZK_ERR_INVALID_ARG,
                                 "%s:%u: %s and %s (line %u) set the same thing; keep one",
                                 path, e->value->line, name, cuzk__config_keys[j].name,
                                 c->set_line[j]);
        }
        origin o;
        snprintf(o.where, sizeof o.where, "%s:%u", path, e->value->line);
        cuzk_status st = set_value(c, ki, e->value, &o);
        if (st != CUZK_OK)
            return st;
        c->set_line[ki] = e->value->line;
    }
    return CUZK_OK;
}

cuzk_status cuzk__config_load_file(cuzk_daemon_config *c, const char *path)
{
    cuzk_toml_value *root;
    cuzk_status st = cuzk_toml_parse_file(&root, path);
    if (st != CUZK_OK)
        return st;
    for (size_t i = 0; i < root->u.table.n && st == CUZK_OK; i++) {
        const cuzk_toml_entry *e = &root->u.table.entries[i];
        if (!strcmp(e->key, "circuits")) {
            st = load_circuits(c, path, e->value);
            continue;
        }
        bool known = false;
        for (size_t s = 0; cuzk__config_sections[s]; s++)
            known |= !strcmp(cuzk__config_sections[s], e->key);
        if (!known) {
            st = cuzk_fail(CUZK_ERR_INVALID_ARG,
                           e->value->type == CUZK_TOML_TABLE
                               ? "%s:%u: unknown table [%s] (cuzk --help-config lists every key)"
                               : "%s:%u: unknown key '%s' (keys belong in a table such as "
                                 "[daemon]; cuzk --help-config lists them)",
                           path, e->value->line, e->key);
        } else if (e->value->type != CUZK_TOML_TABLE) {
            st = cuzk_fail(CUZK_ERR_INVALID_ARG, "%s:%u: '%s' must be a table ([%s])", path,
                           e->value->line, e->key, e->key);
        } else {
            st = load_section(c, path, e->key, e->value);
        }
    }
    cuzk_toml_free(root);
    if (st == CUZK_OK) {
        char *f = cuzk_strdup(path);
        if (!f)
            return cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
        cuzk_free(c->file);
        c->file = f;
    }
    return st;
}

cuzk_status cuzk__config_set(cuzk_daemon_config *c, const char *key, const char *const *values,
                             size_t n, const char *from)
{
    const key_def *k = cuzk__config_find_key(key);
    if (!k || k->type == K_IGNORED)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "%s: unknown key %s", from, key);
    size_t ki = (size_t)(k - cuzk__config_keys);
    origin o;
    snprintf(o.where, sizeof o.where, "%s", from);
    cuzk_toml_value items[CUZK_CONFIG_LIST_MAX];
    cuzk_toml_value *ptrs[CUZK_CONFIG_LIST_MAX];
    if (n == 0 || n > CUZK_CONFIG_LIST_MAX)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "%s: %s needs 1 to %d values", from, key,
                         CUZK_CONFIG_LIST_MAX);
    if (n > 1 && k->type != K_STRINGS && k->type != K_INTS)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "%s: %s takes one value", from, key);
    for (size_t i = 0; i < n; i++) {
        memset(&items[i], 0, sizeof items[i]);
        items[i].type = CUZK_TOML_STRING;
        items[i].u.str = (char *)values[i];
        ptrs[i] = &items[i];
    }
    cuzk_toml_value arr = {.type = CUZK_TOML_ARRAY};
    arr.u.array.items = ptrs;
    arr.u.array.n = n;
    cuzk_status st = set_value(c, ki, (k->type == K_STRINGS) ? &arr : &items[0], &o);
    if (st == CUZK_OK) {
        c->set_cli[ki] = true;
        c->set_line[ki] = 0;
    }
    return st;
}

/* ---- environment-dependent defaults and cross-checks --------------------------------------- */

static char *path_join(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    char *p = cuzk_alloc(la + lb + 2);
    if (p) {
        memcpy(p, a, la);
        p[la] = '/';
        memcpy(p + la + 1, b, lb + 1);
    }
    return p;
}

/* Where |key| came from, as a message prefix: "FLAG: ", "file:line: " or "" (the default). */
static void key_origin(const cuzk_daemon_config *c, const char *key, const char *flag, char *out,
                       size_t n)
{
    size_t ki = (size_t)(cuzk__config_find_key(key) - cuzk__config_keys);
    out[0] = '\0';
    if (c->set_cli[ki])
        snprintf(out, n, "%s: ", flag);
    else if (c->set_line[ki])
        snprintf(out, n, "%s:%u: ", c->file ? c->file : "?", c->set_line[ki]);
}

/* daemon.status_listen: a TCP address (checked now, not after minutes of engine start-up) that
 * no daemon.listen entry takes too. */
static cuzk_status check_status_listen(const cuzk_daemon_config *c)
{
    if (!c->status_listen)
        return CUZK_OK;
    char where[600];
    key_origin(c, "daemon.status_listen", "--status-listen", where, sizeof where);
    if (cuzk__http_status_addr_check(c->status_listen) != CUZK_OK)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "%sdaemon.status_listen: %s", where,
                         cuzk_last_error());
    cuzk_listen_addr s, l;
    if (cuzk__addr_parse(&s, c->status_listen) != CUZK_OK)
        return CUZK_ERR_INVALID_ARG; /* cannot happen: checked above */
    for (size_t i = 0; i < c->listen.n && s.port != 0; i++)
        if (cuzk__addr_parse(&l, c->listen.v[i]) == CUZK_OK && !l.is_unix &&
            !strcmp(l.target, s.target))
            return cuzk_fail(CUZK_ERR_INVALID_ARG,
                             "%sdaemon.status_listen: '%s' is also a daemon.listen address "
                             "(gRPC and HTTP need a port each)", where, c->status_listen);
    return CUZK_OK;
}

cuzk_status cuzk__config_finish(cuzk_daemon_config *c)
{
    if (c->listen.n == 0) {
        const char *run = getenv("XDG_RUNTIME_DIR");
        char buf[CUZK_ADDR_UNIX_MAX + 16];
        if (run && run[0] == '/')
            snprintf(buf, sizeof buf, "unix://%s/cuzk.sock", run);
        else
            snprintf(buf, sizeof buf, "unix:///tmp/cuzk-%u/cuzk.sock", (unsigned)getuid());
        const char *one[1] = {buf};
        origin o = {"default listen address"};
        cuzk_toml_value v = {.type = CUZK_TOML_STRING};
        v.u.str = (char *)one[0];
        cuzk_status st = set_list(c, cuzk__config_find_key("daemon.listen"), &v, &o);
        if (st != CUZK_OK)
            return st;
    }
    char where[600];
    key_origin(c, "daemon.listen", "--listen", where, sizeof where);
    for (size_t i = 0; i < c->listen.n; i++) {
        cuzk_listen_addr a;
        if (cuzk__addr_parse(&a, c->listen.v[i]) != CUZK_OK)
            return cuzk_fail(CUZK_ERR_INVALID_ARG, "%sdaemon.listen: %s", where,
                             cuzk_last_error());
        for (size_t j = 0; j < i; j++)
            if (!strcmp(c->listen.v[i], c->listen.v[j]))
                return cuzk_fail(CUZK_ERR_INVALID_ARG, "%sdaemon.listen: '%s' is listed twice",
                                 where, c->listen.v[i]);
    }
    cuzk_status st = check_status_listen(c);
    if (st != CUZK_OK)
        return st;
    if (!c->param_cache) {
        const char *xdg = getenv("XDG_CACHE_HOME");
        const char *home = getenv("HOME");
        if (xdg && xdg[0] == '/')
            c->param_cache = path_join(xdg, "cuzk");
        else if (home && home[0] == '/')
            c->param_cache = path_join(home, ".cache/cuzk");
        else
            return cuzk_fail(CUZK_ERR_INVALID_ARG,
                             "neither XDG_CACHE_HOME nor HOME is set: give --cache-dir or "
                             "srs.param_cache");
        if (!c->param_cache)
            return cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
    }
    if (strlen(c->param_cache) >= PATH_MAX - 140)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "srs.param_cache: path too long");
    if (c->backend == CUZK_BACKEND_CPU && c->devices.n)
        cuzk__log_warn("gpus.devices is set but engine.backend = cpu: the devices are not used");
    return CUZK_OK;
}


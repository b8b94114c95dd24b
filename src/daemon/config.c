/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The key table and everything it drives: parsing, validation, defaults, printing, help. */
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
#include "daemon/log.h"

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
    F_CURIO = 1,   /* same name and meaning as in Curio's cuzk.toml */
    F_CUZK = 2,    /* cuzk addition */
    F_AUTO = 4,    /* K_SIZE: "auto" allowed (stored as 0) */
    F_ALIAS = 8,   /* another name of the key before it in the table with the same field */
    F_DIFFERS = 16 /* Curio has the key but it means something else there (see help) */
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

static const char *const backend_choices[] = {"auto", "cpu", "cuda", NULL};
static const char *const level_choices[] = {"error", "warn", "info", "debug", NULL};

#define OFF(field) offsetof(cuzk_daemon_config, field)
#define GiB (1ull << 30)
#define MiB (1ull << 20)
#define DAY_MS (24ull * 3600 * 1000)

static const key_def keys[] = {
    {"daemon.listen", K_STRINGS, NULL, 0, 0, F_CURIO, OFF(listen), NULL,
     "gRPC address(es): unix:///path (socket made mode 0600) or host:port (a bare port means "
     "127.0.0.1). A string or an array. Default: unix://$XDG_RUNTIME_DIR/cuzk.sock, or "
     "unix:///tmp/cuzk-$UID/cuzk.sock when XDG_RUNTIME_DIR is unset"},
    {"daemon.max_message_size", K_SIZE, "256MiB", 1 * MiB, 2 * GiB - 1, F_CUZK,
     OFF(max_message_size), NULL,
     "largest gRPC message received or sent (Curio's daemon: 128 MiB, its Go client 256 MiB)"},
    {"daemon.max_concurrent_calls", K_UINT, "128", 1, 65536, F_CUZK, OFF(max_concurrent_calls),
     NULL,
     "RPCs handled at once (each waiting Prove/AwaitProof holds one); beyond it a call gets "
     "RESOURCE_EXHAUSTED. Calls that answer at once (SubmitProof, CancelProof, GetStatus, "
     "GetMetrics, EvictSRS) may use 8 more"},
    {"daemon.shutdown_grace", K_DURATION, "30s", 0, DAY_MS, F_CUZK, OFF(shutdown_grace_ms), NULL,
     "on SIGTERM/SIGINT, how long accepted jobs may run before they are cancelled (a second "
     "signal cancels at once)"},
    {"daemon.status_listen", K_IGNORED, NULL, 0, 0, F_CURIO, 0, NULL,
     "ignored: cuzk has no HTTP status server; use the GetStatus and GetMetrics RPCs"},

    {"engine.backend", K_ENUM, "auto", 0, 0, F_CUZK, OFF(backend), backend_choices,
     "auto (CUDA when a device is usable, else CPU), cpu or cuda (fail without a device)"},
    {"engine.prover_workers", K_UINT, "0", 0, 1024, F_CUZK, OFF(prover_workers), NULL,
     "CUDA: prover workers per GPU; CPU backend: prover workers. 0 = 1"},
    {"gpus.gpu_workers_per_device", K_UINT, "0", 0, 1024, F_CURIO | F_ALIAS, OFF(prover_workers),
     NULL, "Curio name of engine.prover_workers (GPU workers sharing one device)"},
    {"engine.synthesis_workers", K_UINT, "0", 0, 1024, F_CUZK, OFF(synthesis_workers), NULL,
     "partitions synthesised at once. 0 = 1"},
    {"engine.queue_depth", K_UINT, "0", 0, 1024, F_CUZK, OFF(queue_depth), NULL,
     "synthesised partitions waiting for a prover. 0 = 2"},
    {"engine.result_ttl", K_DURATION, "10m", 1000, 30 * DAY_MS, F_CUZK, OFF(result_ttl_ms), NULL,
     "how long a finished job's result stays available to AwaitProof (and dedupes its "
     "request_id)"},
    {"engine.self_verify", K_BOOL, "true", 0, 0, F_CUZK, OFF(self_verify), NULL,
     "verify every proof before returning it; false is for benchmarks and is logged as a warning"},

    {"memory.total_budget", K_SIZE, "auto", 64 * MiB, UINT64_MAX, F_CURIO | F_AUTO,
     OFF(total_budget), NULL,
     "host memory for partitions in flight (a/b/c vectors, witnesses); auto = MemTotal - "
     "safety_margin (at least 1 GiB)"},
    {"memory.safety_margin", K_SIZE, "5GiB", 0, UINT64_MAX, F_CURIO, OFF(safety_margin), NULL,
     "subtracted from MemTotal when total_budget is auto"},
    {"memory.eviction_min_idle", K_DURATION, "5m", 0, 30 * DAY_MS, F_CURIO,
     OFF(eviction_min_idle_ms), NULL,
     "a HOT parameter set unused this long may be evicted to make room for another"},
    {"memory.pinned_budget", K_SIZE, "auto", 64 * MiB, UINT64_MAX, F_CUZK | F_AUTO | F_DIFFERS,
     OFF(pinned_budget), NULL,
     "bytes of HOT (decoded, pinned when CUDA is used) parameter sets; auto = half of MemTotal. "
     "Curio parses this key but ignores it"},
    {"memory.working_memory_budget", K_IGNORED, NULL, 0, 0, F_CURIO, 0, NULL,
     "ignored (deprecated in Curio too): see memory.total_budget"},

    {"gpus.devices", K_INTS, "", 0, 1023, F_CURIO, OFF(devices), NULL,
     "CUDA device ordinals to use; [] = every device present"},
    {"gpus.gpu_threads", K_IGNORED, NULL, 0, 0, F_CURIO, 0, NULL,
     "ignored: cuzk sizes its CPU pools from synthesis.threads"},

    {"synthesis.threads", K_UINT, "0", 0, 4096, F_CURIO, OFF(threads), NULL,
     "CPU threads per worker pool; 0 = all CPUs (or env CUZK_THREADS)"},
    {"synthesis.partition_workers", K_IGNORED, NULL, 0, 0, F_CURIO, 0, NULL,
     "ignored (deprecated in Curio too): use engine.synthesis_workers"},

    {"scheduler.max_batch_size", K_IGNORED, NULL, 0, 0, F_CURIO, 0, NULL,
     "ignored: cuzk does not batch sectors into one proof"},
    {"scheduler.max_batch_wait_ms", K_IGNORED, NULL, 0, 0, F_CURIO, 0, NULL,
     "ignored: cuzk does not batch sectors into one proof"},
    {"scheduler.sort_by_type", K_IGNORED, NULL, 0, 0, F_CURIO, 0, NULL,
     "ignored (never read by Curio either)"},
    {"pipeline.enabled", K_IGNORED, NULL, 0, 0, F_CURIO, 0, NULL,
     "ignored: cuzk always pipelines synthesis and proving"},
    {"pipeline.synthesis_lookahead", K_IGNORED, NULL, 0, 0, F_CURIO, 0, NULL,
     "ignored (no effect in Curio either): see engine.queue_depth"},
    {"pipeline.synthesis_concurrency", K_IGNORED, NULL, 0, 0, F_CURIO, 0, NULL,
     "ignored: see engine.synthesis_workers"},
    {"pipeline.max_parallel_synthesis", K_IGNORED, NULL, 0, 0, F_CURIO, 0, NULL,
     "ignored: see engine.synthesis_workers and memory.total_budget"},
    {"pipeline.slot_size", K_IGNORED, NULL, 0, 0, F_CURIO, 0, NULL, "ignored"},
    {"pipeline.max_gpu_queue_depth", K_IGNORED, NULL, 0, 0, F_CURIO, 0, NULL,
     "ignored: see engine.queue_depth"},

    {"srs.param_cache", K_STRING, NULL, 0, 0, F_CURIO | F_DIFFERS, OFF(param_cache), NULL,
     "directory of parameter files: <id>.params / <id>.vk of [[circuits]] without a params "
     "path (test parameters are generated there on first use). Default $XDG_CACHE_HOME/cuzk or "
     "~/.cache/cuzk. Curio reads Filecoin .params here; cuzk does not read those yet"},
    {"srs.preload", K_IGNORED, NULL, 0, 0, F_CURIO, 0, NULL,
     "ignored (deprecated in Curio too): use the PreloadSRS RPC"},

    {"logging.level", K_ENUM, "info", 0, 0, F_CURIO, OFF(log_level), level_choices,
     "error, warn, info or debug"},
    {"logging.format", K_IGNORED, NULL, 0, 0, F_CURIO, 0, NULL,
     "ignored (never read by Curio either): lines are always `<UTC time> <LEVEL> <message>`"},
};
#define N_KEYS (sizeof keys / sizeof keys[0])

_Static_assert(N_KEYS <= 64, "cuzk_daemon_config.set_line holds 64 keys");

static const char *const sections[] = {"daemon", "engine", "memory", "gpus", "synthesis",
                                       "scheduler", "pipeline", "srs", "logging", NULL};

/* ---- value parsers -------------------------------------------------------------------------- */

cuzk_status cuzk__parse_size(const char *s, uint64_t *out)
{
    static const struct {
        const char *unit;
        uint64_t mul;
    } units[] = {{"", 1},         {"b", 1},         {"bytes", 1},     {"kib", 1ull << 10},
                 {"mib", 1ull << 20}, {"gib", 1ull << 30}, {"tib", 1ull << 40}, {"kb", 1000},
                 {"mb", 1000000}, {"gb", 1000000000}, {"tb", 1000000000000ull}};
    const char *p = s;
    if (*p < '0' || *p > '9')
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "'%s' is not a size (like 512MiB, 5GiB, 4096)", s);
    uint64_t v = 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
            return cuzk_fail(CUZK_ERR_INVALID_ARG, "size '%s' is too large", s);
        v = v * 10 + (uint64_t)(*p - '0');
    }
    while (*p == ' ')
        p++;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcasecmp(p, units[i].unit) == 0) {
            if (v && units[i].mul > UINT64_MAX / v)
                return cuzk_fail(CUZK_ERR_INVALID_ARG, "size '%s' is too large", s);
            *out = v * units[i].mul;
            return CUZK_OK;
        }
    }
    return cuzk_fail(CUZK_ERR_INVALID_ARG,
                     "'%s': unknown size unit '%s' (use bytes, KiB, MiB, GiB, TiB, KB, MB, GB, TB)",
                     s, p);
}

cuzk_status cuzk__parse_duration_ms(const char *s, uint64_t *out)
{
    static const struct {
        const char *unit;
        uint64_t ms;
    } units[] = {{"", 1000},      {"ms", 1},         {"s", 1000},
                 {"m", 60 * 1000}, {"h", 3600 * 1000}, {"d", 24 * 3600 * 1000}};
    const char *p = s;
    if (*p < '0' || *p > '9')
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "'%s' is not a duration (like 30s, 5m, 250ms)", s);
    uint64_t v = 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
            return cuzk_fail(CUZK_ERR_INVALID_ARG, "duration '%s' is too large", s);
        v = v * 10 + (uint64_t)(*p - '0');
    }
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcmp(p, units[i].unit) == 0) {
            if (v && units[i].ms > UINT64_MAX / v)
                return cuzk_fail(CUZK_ERR_INVALID_ARG, "duration '%s' is too large", s);
            *out = v * units[i].ms;
            return CUZK_OK;
        }
    }
    return cuzk_fail(CUZK_ERR_INVALID_ARG,
                     "'%s': unknown duration unit '%s' (use ms, s, m, h or d; a bare number is "
                     "seconds)", s, p);
}

/* ---- small helpers ------------------------------------------------------------------------- */

static char *dup_str(const char *s)
{
    size_t n = strlen(s);
    char *d = cuzk_alloc(n + 1);
    if (d)
        memcpy(d, s, n + 1);
    return d;
}

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

static const void *cfield(const cuzk_daemon_config *c, const key_def *k)
{
    return (const char *)c + k->off;
}

static const key_def *find_key(const char *name)
{
    for (size_t i = 0; i < N_KEYS; i++)
        if (strcmp(keys[i].name, name) == 0)
            return &keys[i];
    return NULL;
}

/* The canonical key for a field: the first table entry with the same offset. */
static size_t canonical(size_t i)
{
    if (!(keys[i].flags & F_ALIAS))
        return i;
    for (size_t j = 0; j < i; j++)
        if (keys[j].type == keys[i].type && keys[j].off == keys[i].off && keys[j].type != K_IGNORED)
            return j;
    return i;
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
        if (!v->u.str[0])
            return bad(o, k, "must not be empty");
        char *d = dup_str(v->u.str);
        if (!d)
            return cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
        char **dst = field(c, k);
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
            if (!(l.v[i] = dup_str(items[i]->u.str))) {
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
    const key_def *k = &keys[ki];
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
    for (size_t i = 0; i < N_KEYS; i++) {
        const key_def *k = &keys[i];
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
    if (!(out->id = dup_str(id)) || (builtin && !(out->spec = dup_str(builtin))) ||
        (params && !(out->params = dup_str(params))) || (zkey && !(out->zkey = dup_str(zkey)))) {
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
        const key_def *k = find_key(name);
        if (!k) {
            if (e->value->type == CUZK_TOML_TABLE)
                return cuzk_fail(CUZK_ERR_INVALID_ARG, "%s:%u: unknown table [%s]", path,
                                 e->value->line, name);
            return cuzk_fail(CUZK_ERR_INVALID_ARG,
                             "%s:%u: unknown key '%s' (cuzk --help-config lists every key)",
                             path, e->value->line, name);
        }
        size_t ki = (size_t)(k - keys);
        if (k->type == K_IGNORED) {
            cuzk__log_warn("%s:%u: %s is accepted for Curio compatibility and %s", path,
                           e->value->line, name, k->help);
            continue;
        }
        size_t ci = canonical(ki);
        for (size_t j = 0; j < N_KEYS; j++) {
            if (j != ki && canonical(j) == ci && c->set_line[j] && !c->set_cli[j])
                return cuzk_fail(CUZK_ERR_INVALID_ARG,
                                 "%s:%u: %s and %s (line %u) set the same thing; keep one",
                                 path, e->value->line, name, keys[j].name, c->set_line[j]);
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
        for (size_t s = 0; sections[s]; s++)
            known |= !strcmp(sections[s], e->key);
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
        char *f = dup_str(path);
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
    const key_def *k = find_key(key);
    if (!k || k->type == K_IGNORED)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "%s: unknown key %s", from, key);
    size_t ki = (size_t)(k - keys);
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
        cuzk_status st = set_list(c, find_key("daemon.listen"), &v, &o);
        if (st != CUZK_OK)
            return st;
    }
    /* Where daemon.listen came from, for the messages below. */
    size_t li = (size_t)(find_key("daemon.listen") - keys);
    char where[600] = "";
    if (c->set_cli[li])
        snprintf(where, sizeof where, "--listen: ");
    else if (c->set_line[li])
        snprintf(where, sizeof where, "%s:%u: ", c->file ? c->file : "?", c->set_line[li]);
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

/* ---- printing ------------------------------------------------------------------------------ */

static void print_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20 || ch == 0x7f)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

static void print_size(FILE *f, uint64_t v)
{
    static const char *const u[] = {"TiB", "GiB", "MiB", "KiB"};
    for (int i = 0; i < 4; i++) {
        uint64_t m = 1ull << (10 * (4 - i));
        if (v && v % m == 0) {
            fprintf(f, "\"%llu%s\"", (unsigned long long)(v / m), u[i]);
            return;
        }
    }
    fprintf(f, "%llu", (unsigned long long)v);
}

static void print_duration(FILE *f, uint64_t ms)
{
    if (ms && ms % (3600 * 1000) == 0)
        fprintf(f, "\"%lluh\"", (unsigned long long)(ms / (3600 * 1000)));
    else if (ms && ms % 60000 == 0)
        fprintf(f, "\"%llum\"", (unsigned long long)(ms / 60000));
    else if (ms % 1000 == 0)
        fprintf(f, "\"%llus\"", (unsigned long long)(ms / 1000));
    else
        fprintf(f, "\"%llums\"", (unsigned long long)ms);
}

static void print_value(FILE *f, const cuzk_daemon_config *c, const key_def *k)
{
    const void *p = cfield(c, k);
    switch (k->type) {
    case K_STRING: {
        const char *s = *(char *const *)p;
        print_string(f, s ? s : "");
        break;
    }
    case K_STRINGS: {
        const cuzk_strlist *l = p;
        fputc('[', f);
        for (size_t i = 0; i < l->n; i++) {
            if (i)
                fputs(", ", f);
            print_string(f, l->v[i]);
        }
        fputc(']', f);
        break;
    }
    case K_INTS: {
        const cuzk_intlist *l = p;
        fputc('[', f);
        for (size_t i = 0; i < l->n; i++)
            fprintf(f, "%s%d", i ? ", " : "", l->v[i]);
        fputc(']', f);
        break;
    }
    case K_UINT:
        fprintf(f, "%llu", (unsigned long long)*(const uint64_t *)p);
        break;
    case K_BOOL:
        fputs(*(const bool *)p ? "true" : "false", f);
        break;
    case K_SIZE: {
        uint64_t v = *(const uint64_t *)p;
        if (v == 0 && (k->flags & F_AUTO))
            fputs("\"auto\"", f);
        else
            print_size(f, v);
        break;
    }
    case K_DURATION:
        print_duration(f, *(const uint64_t *)p);
        break;
    case K_ENUM:
        fprintf(f, "\"%s\"", k->choices[*(const int *)p]);
        break;
    case K_IGNORED:
        break;
    }
}

void cuzk__config_print(const cuzk_daemon_config *c, FILE *f)
{
    fprintf(f, "# effective cuzk configuration (%s)\n",
            c->file ? c->file : "no config file: built-in defaults");
    for (size_t s = 0; sections[s]; s++) {
        bool header = false;
        for (size_t i = 0; i < N_KEYS; i++) {
            const key_def *k = &keys[i];
            size_t sl = strlen(sections[s]);
            if (strncmp(k->name, sections[s], sl) != 0 || k->name[sl] != '.')
                continue;
            if (k->type == K_IGNORED || (k->flags & F_ALIAS))
                continue;
            if (!header) {
                fprintf(f, "\n[%s]\n", sections[s]);
                header = true;
            }
            fprintf(f, "%s = ", k->name + sl + 1);
            print_value(f, c, k);
            /* Where the value came from, when not the default. */
            for (size_t j = 0; j < N_KEYS; j++) {
                if (canonical(j) != i)
                    continue;
                if (c->set_cli[j])
                    fprintf(f, "  # command line");
                else if (c->set_line[j])
                    fprintf(f, "  # %s:%u%s%s", c->file ? c->file : "?", c->set_line[j],
                            j != i ? " as " : "", j != i ? keys[j].name : "");
            }
            fputc('\n', f);
        }
    }
    for (size_t i = 0; i < c->n_circuits; i++) {
        const cuzk_daemon_circuit *ci = &c->circuits[i];
        fprintf(f, "\n[[circuits]]\nid = ");
        print_string(f, ci->id);
        if (ci->spec) {
            fprintf(f, "\nbuiltin = ");
            print_string(f, ci->spec);
        }
        if (ci->params) {
            fprintf(f, "\nparams = ");
            print_string(f, ci->params);
        }
        if (ci->zkey) {
            fprintf(f, "\nzkey = ");
            print_string(f, ci->zkey);
        }
        fputc('\n', f);
    }
    if (c->n_circuits == 0)
        fprintf(f, "\n# no [[circuits]]: the built-in demo circuit is served "
                   "(id \"demo\" = builtin \"sha256-chain:1\")\n");
}

/* |text| in lines of at most |width| columns, each indented by |indent|. */
static void print_wrapped(FILE *f, const char *text, int indent, int width)
{
    const char *p = text;
    while (*p) {
        int room = width - indent;
        int n = (int)strlen(p);
        if (n > room) {
            n = room;
            while (n > 0 && p[n] != ' ')
                n--;
            if (n == 0)
                n = room;
        }
        fprintf(f, "%*s%.*s\n", indent, "", n, p);
        p += n;
        while (*p == ' ')
            p++;
    }
}

static const char *type_name(const key_def *k)
{
    switch (k->type) {
    case K_STRING:
        return "string";
    case K_STRINGS:
        return "string or [strings]";
    case K_UINT:
        return "integer";
    case K_BOOL:
        return "boolean";
    case K_SIZE:
        return (k->flags & F_AUTO) ? "\"auto\" or size" : "size";
    case K_DURATION:
        return "duration";
    case K_ENUM:
        return "string";
    case K_INTS:
        return "[integers]";
    case K_IGNORED:
        return "any";
    }
    return "?";
}

void cuzk__config_help(FILE *f)
{
    fprintf(f, "cuzk configuration keys (TOML; sizes: 4096, \"512MiB\", \"5GiB\", \"64GB\"; "
               "durations: seconds, \"250ms\", \"30s\", \"5m\", \"1h\")\n\n");
    for (size_t i = 0; i < N_KEYS; i++) {
        const key_def *k = &keys[i];
        const char *compat = (k->type == K_IGNORED)  ? "Curio key, ignored"
                             : (k->flags & F_DIFFERS) ? "Curio key, different meaning"
                             : (k->flags & F_CURIO)   ? "Curio key"
                                                      : "cuzk";
        const char *def = k->def ? (k->type == K_INTS && !k->def[0] ? "[]" : k->def)
                                 : (k->type == K_IGNORED ? "-" : "(computed)");
        fprintf(f, "%-32s %-20s default %-12s [%s]\n", k->name, type_name(k), def, compat);
        print_wrapped(f, k->help, 4, 96);
    }
    fprintf(f, "\n[[circuits]]  (repeatable)\n"
               "    id = \"name\"               the circuit id clients send as circuit_id\n"
               "    builtin = \"sha256-chain:4\" a built-in circuit, with\n"
               "    params = \"/path/x.params\"  bellperson parameters (default "
               "<srs.param_cache>/<id>.params,\n"
               "                                generated as test parameters on first use)\n"
               "    zkey = \"/path/x.zkey\"      or a snarkjs circuit (witnesses arrive as .wtns)\n"
               "\nbuilt-in circuits (builtin = \"NAME\" or \"NAME:ARG\"):\n");
    for (size_t i = 0; cuzk_circuit_registry_name(i); i++) {
        fprintf(f, "  %-20s\n", cuzk_circuit_registry_name(i));
        print_wrapped(f, cuzk_circuit_registry_description(i), 4, 96);
    }
}

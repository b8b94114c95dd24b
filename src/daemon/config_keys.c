/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The one table of configuration keys (STYLE.md section 11) and the size / duration parsers. */
#include "daemon/config_keys.h"

#include <string.h>
#include <strings.h>

static const char *const backend_choices[] = {"auto", "cpu", "cuda", NULL};
static const char *const level_choices[] = {"error", "warn", "info", "debug", NULL};

#define OFF(field) offsetof(cuzk_daemon_config, field)
#define GiB (1ull << 30)
#define MiB (1ull << 20)
#define DAY_MS (24ull * 3600 * 1000)

const key_def cuzk__config_keys[] = {
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
    {"daemon.status_listen", K_STRING, "", 0, 0, F_CURIO | F_EMPTY, OFF(status_listen), NULL,
     "HTTP status server: host:port, [v6]:port or :port (a bare port or :port means "
     "127.0.0.1) serving GET /status as JSON, for Curio's web UI and curl; \"\" = off. No TLS "
     "and no authentication: it shows job ids and memory use, so keep it on a private network"},

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
     "host memory for loaded (HOT) parameter sets and partitions in flight (a/b/c vectors, "
     "witnesses) together; auto = MemTotal - safety_margin (at least 1 GiB)"},
    {"memory.safety_margin", K_SIZE, "5GiB", 0, UINT64_MAX, F_CURIO, OFF(safety_margin), NULL,
     "subtracted from MemTotal when total_budget is auto"},
    {"memory.eviction_min_idle", K_DURATION, "5m", 0, 30 * DAY_MS, F_CURIO,
     OFF(eviction_min_idle_ms), NULL,
     "a HOT parameter set unused this long may be evicted to make room for another"},
    {"memory.pinned_budget", K_SIZE, "auto", 64 * MiB, UINT64_MAX, F_CUZK | F_AUTO | F_DIFFERS,
     OFF(pinned_budget), NULL,
     "bytes of HOT (decoded, pinned when CUDA is used) parameter sets, a cap inside "
     "total_budget; auto = half of MemTotal. Curio parses this key but ignores it"},
    {"memory.abc_pool", K_BOOL, "true", 0, 0, F_CUZK, OFF(abc_pool), NULL,
     "keep the partitions' a/b/c vectors in a pool of buffers reused from one partition to the "
     "next (pinned when CUDA is used): no page faults nor per-proof pinning"},
    {"memory.abc_pool_budget", K_SIZE, "auto", 64 * MiB, UINT64_MAX, F_CUZK | F_AUTO,
     OFF(abc_pool_budget), NULL,
     "most bytes the a/b/c pool keeps; auto = total_budget - pinned_budget (total_budget / 4 "
     "when that is not positive)"},
    {"memory.working_memory_budget", K_IGNORED, NULL, 0, 0, F_CURIO, 0, NULL,
     "ignored (deprecated in Curio too): see memory.total_budget"},

    {"gpus.devices", K_INTS, "", 0, 1023, F_CURIO, OFF(devices), NULL,
     "CUDA device ordinals to use; [] = every device present"},
    {"gpus.h_precompute_rows", K_UINT, "0", 0, 16, F_CUZK, OFF(h_precompute_rows), NULL,
     "precomputed rows 2^(c j) P of the H query of each parameter set kept on a device: each row "
     "costs the query's size in device memory again (12.9 GB for a 32 GiB PoRep set) and makes "
     "its MSM run fewer windows (4 rows: ~6 % faster H MSM on an H200); 0 = none"},
    {"gpus.gpu_threads", K_IGNORED, NULL, 0, 0, F_CURIO, 0, NULL,
     "ignored: cuzk sizes its CPU pools from synthesis.threads"},

    {"synthesis.threads", K_UINT, "0", 0, 4096, F_CURIO, OFF(threads), NULL,
     "CPU threads per worker pool; 0 = all CPUs (or env CUZK_THREADS)"},
    {"synthesis.pce", K_BOOL, "true", 0, 0, F_CUZK, OFF(pce), NULL,
     "builtin circuits (Filecoin proofs included): after a circuit's first partition, extract "
     "its constraint matrices once (PCE, kept in memory and charged to memory.total_budget) and "
     "synthesise later partitions as a witness plus sparse products: the same a/b/c, faster"},
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
    {"srs.check_zkey_subgroups", K_BOOL, "true", 0, 0, F_CUZK, OFF(check_zkey_subgroups), NULL,
     "test the bulk points of snarkjs keys for prime-order subgroup membership at load; each key "
     "once: the digests of tested keys are kept in <srs.param_cache>/checked-points. false "
     "trusts the files (builtin .params are always trusted)"},
    {"srs.preload", K_IGNORED, NULL, 0, 0, F_CURIO, 0, NULL,
     "ignored (deprecated in Curio too): use the PreloadSRS RPC"},

    {"logging.level", K_ENUM, "info", 0, 0, F_CURIO, OFF(log_level), level_choices,
     "error, warn, info or debug"},
    {"logging.format", K_IGNORED, NULL, 0, 0, F_CURIO, 0, NULL,
     "ignored (never read by Curio either): lines are always `<UTC time> <LEVEL> <message>`"},
};
const size_t cuzk__config_n_keys = sizeof cuzk__config_keys / sizeof cuzk__config_keys[0];
#define N_KEYS (sizeof cuzk__config_keys / sizeof cuzk__config_keys[0])

_Static_assert(N_KEYS <= 64, "cuzk_daemon_config.set_line holds 64 keys");

const char *const cuzk__config_sections[] = {"daemon", "engine", "memory", "gpus", "synthesis",
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

const key_def *cuzk__config_find_key(const char *name)
{
    for (size_t i = 0; i < N_KEYS; i++)
        if (strcmp(cuzk__config_keys[i].name, name) == 0)
            return &cuzk__config_keys[i];
    return NULL;
}

size_t cuzk__config_canonical(size_t i)
{
    if (!(cuzk__config_keys[i].flags & F_ALIAS))
        return i;
    const key_def *k = &cuzk__config_keys[i];
    for (size_t j = 0; j < i; j++) {
        const key_def *o = &cuzk__config_keys[j];
        if (o->type == k->type && o->off == k->off && o->type != K_IGNORED)
            return j;
    }
    return i;
}


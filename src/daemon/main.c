/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * cuzk: the proving daemon. Reads the configuration (config.c), starts the engine
 * (include/cuzk/engine.h), serves cuzk.v1 over gRPC (rpc/) until SIGTERM or SIGINT, then drains
 * (rpc/server.c). Exit codes: 0 clean stop or --check-config success; 1 runtime failure
 * (engine, listening); 2 usage or configuration error.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "cuzk/alloc.h"
#include "cuzk/cpu.h"
#include "cuzk/engine.h"
#include "daemon/addr.h"
#include "daemon/config.h"
#include "daemon/http_status.h"
#include "daemon/log.h"
#include "daemon/reload.h"
#include "daemon/rpc/rpc.h"
#include "version.h" /* CUZK_GIT_COMMIT (build/gen) */
#include "daemon/unix_socket.h"

#define EXIT_RUNTIME 1
#define EXIT_USAGE 2
#define MAX_CLI_LISTEN 16

static volatile sig_atomic_t signal_count;

/* Handlers only count; the main loop (cuzk__rpc_server_run) acts. */
static void on_signal(int sig)
{
    (void)sig;
    if (signal_count < 100)
        signal_count = signal_count + 1;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: cuzk [options]\n"
               "  --config FILE        TOML configuration (keys: --help-config). Without one the\n"
               "                       built-in demo circuit \"demo\" (sha256-chain:1) is served\n"
               "  --listen ADDR        unix:///path or host:port (a bare port = 127.0.0.1);\n"
               "                       repeatable; replaces daemon.listen\n"
               "  --status-listen ADDR host:port of the HTTP GET /status server\n"
               "                       (daemon.status_listen; \"\" = off)\n"
               "  --log-level LEVEL    error | warn | info | debug\n"
               "  --cache-dir DIR      parameter cache (srs.param_cache)\n"
               "  --backend KIND       auto | cpu | cuda (engine.backend)\n"
               "  --no-self-verify     return proofs without verifying them (benchmarks only)\n"
               "  --print-config       print the effective configuration and exit\n"
               "  --check-config       parse and validate, print the effective configuration,\n"
               "                       exit 0 (valid) or 2 (invalid)\n"
               "  --help-config        list every configuration key\n"
               "  --version, --help\n"
               "Signals: SIGTERM/SIGINT stop accepting calls and give running jobs\n"
               "daemon.shutdown_grace to finish; a second signal cancels them at once.\n"
               "SIGHUP reads the configuration again: new [[circuits]] are registered and\n"
               "logging.level applies; other changes are logged and need a restart.\n");
}

/* systemd Type=notify readiness, when started that way (sd_notify protocol, no libsystemd). */
static void notify_systemd(const char *msg)
{
    const char *path = getenv("NOTIFY_SOCKET");
    struct sockaddr_un sa;
    if (!path || (path[0] != '/' && path[0] != '@') || strlen(path) >= sizeof sa.sun_path)
        return;
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return;
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    size_t n = strlen(path);
    memcpy(sa.sun_path, path, n);
    if (path[0] == '@')
        sa.sun_path[0] = '\0'; /* abstract namespace */
    socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n);
    if (sendto(fd, msg, strlen(msg), MSG_NOSIGNAL, (struct sockaddr *)&sa, len) < 0)
        cuzk__log_debug("sd_notify: %s", strerror(errno));
    close(fd);
}

/* MemTotal from /proc/meminfo in bytes, 0 when unknown. */
static uint64_t mem_total(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    char line[256];
    unsigned long long kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
            break;
    fclose(f);
    return (uint64_t)kb * 1024;
}

typedef struct {
    const char *config;
    const char *listen[MAX_CLI_LISTEN];
    size_t n_listen;
    const char *log_level, *cache_dir, *backend, *status_listen;
    bool no_self_verify, print_config, check_config;
} cli;

/* Returns -1 to go on, else the exit code. */
static int parse_cli(cli *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        char name[64];
        const char *eq = strchr(a, '=');
        if (strncmp(a, "--", 2) == 0 && eq && (size_t)(eq - a) < sizeof name) {
            memcpy(name, a, (size_t)(eq - a));
            name[eq - a] = '\0';
            val = eq + 1;
        } else {
            snprintf(name, sizeof name, "%s", a);
        }
        bool takes = !strcmp(name, "--config") || !strcmp(name, "-c") ||
                     !strcmp(name, "--listen") || !strcmp(name, "-l") ||
                     !strcmp(name, "--log-level") || !strcmp(name, "--cache-dir") ||
                     !strcmp(name, "--backend") || !strcmp(name, "--status-listen");
        if (takes && !val) {
            if (i + 1 >= argc) {
                fprintf(stderr, "cuzk: %s needs a value\n", name);
                return EXIT_USAGE;
            }
            val = argv[++i];
        } else if (!takes && val) {
            fprintf(stderr, "cuzk: %s takes no value\n", name);
            return EXIT_USAGE;
        }
        if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(name, "--version") || !strcmp(name, "-V")) {
            printf("cuzk %s (CUDA backend %s)\n", CUZK_VERSION,
                   cuzk_backend_cuda_compiled() ? "compiled in" : "not compiled in");
            return 0;
        } else if (!strcmp(name, "--help-config")) {
            cuzk__config_help(stdout);
            return 0;
        } else if (!strcmp(name, "--config") || !strcmp(name, "-c")) {
            o->config = val;
        } else if (!strcmp(name, "--listen") || !strcmp(name, "-l")) {
            if (o->n_listen == MAX_CLI_LISTEN) {
                fprintf(stderr, "cuzk: at most %d --listen\n", MAX_CLI_LISTEN);
                return EXIT_USAGE;
            }
            o->listen[o->n_listen++] = val;
        } else if (!strcmp(name, "--status-listen")) {
            o->status_listen = val;
        } else if (!strcmp(name, "--log-level")) {
            o->log_level = val;
        } else if (!strcmp(name, "--cache-dir")) {
            o->cache_dir = val;
        } else if (!strcmp(name, "--backend")) {
            o->backend = val;
        } else if (!strcmp(name, "--no-self-verify")) {
            o->no_self_verify = true;
        } else if (!strcmp(name, "--print-config")) {
            o->print_config = true;
        } else if (!strcmp(name, "--check-config")) {
            o->check_config = true;
        } else {
            fprintf(stderr, "cuzk: unknown option '%s' (try --help)\n", a);
            return EXIT_USAGE;
        }
    }
    return -1;
}

/* Config file, then command-line overrides, then environment defaults. */
static int load_config(cuzk_daemon_config *cfg, const cli *o)
{
    if (cuzk__config_init(cfg) != CUZK_OK) {
        fprintf(stderr, "cuzk: %s\n", cuzk_last_error());
        return EXIT_RUNTIME;
    }
    cuzk_status st = CUZK_OK;
    if (o->config)
        st = cuzk__config_load_file(cfg, o->config);
    const char *no[1] = {"false"};
    if (st == CUZK_OK && o->n_listen)
        st = cuzk__config_set(cfg, "daemon.listen", o->listen, o->n_listen, "--listen");
    if (st == CUZK_OK && o->status_listen)
        st = cuzk__config_set(cfg, "daemon.status_listen", &o->status_listen, 1, "--status-listen");
    if (st == CUZK_OK && o->log_level)
        st = cuzk__config_set(cfg, "logging.level", &o->log_level, 1, "--log-level");
    if (st == CUZK_OK && o->cache_dir)
        st = cuzk__config_set(cfg, "srs.param_cache", &o->cache_dir, 1, "--cache-dir");
    if (st == CUZK_OK && o->backend)
        st = cuzk__config_set(cfg, "engine.backend", &o->backend, 1, "--backend");
    if (st == CUZK_OK && o->no_self_verify)
        st = cuzk__config_set(cfg, "engine.self_verify", no, 1, "--no-self-verify");
    if (st == CUZK_OK)
        st = cuzk__config_finish(cfg);
    if (st != CUZK_OK) {
        cuzk__log_error("configuration: %s", cuzk_last_error());
        return EXIT_USAGE;
    }
    cuzk__log_set_level((cuzk_log_level)cfg->log_level);
    return -1;
}

/* The check cache of srs.check_zkey_subgroups (include/cuzk/check_cache.h), or NULL: then every
 * load of a key tests it in full, and the log says why. Closed after the engine. */
static cuzk_check_cache *check_cache;

/* The tag of this build's PCE files: its commit, or NULL (no files) for a modified or unknown
 * tree, whose circuits may differ from any commit's. */
static const char *pce_tag(void)
{
    const char *c = CUZK_GIT_COMMIT;
    return strstr(c, "dirty") || strcmp(c, "unknown") == 0 ? NULL : c;
}

static cuzk_check_cache *open_check_cache(const cuzk_daemon_config *cfg)
{
    char path[PATH_MAX];
    cuzk_check_cache *c = NULL;
    snprintf(path, sizeof path, "%s/checked-points", cfg->param_cache);
    if (cuzk_check_cache_open(&c, path) != CUZK_OK) {
        cuzk__log_warn("snarkjs keys are tested in full at every load: check cache not used (%s)",
                       cuzk_last_error());
        return NULL;
    }
    cuzk__log_info("snarkjs keys' subgroups are tested once per key; tested keys in %s", path);
    return c;
}

static cuzk_status start_engine(cuzk_engine **out, const cuzk_daemon_config *cfg)
{
    cuzk_engine_config ec;
    cuzk_engine_config_default(&ec);
    ec.backend = (cuzk_backend_kind)cfg->backend;
    ec.devices = cfg->devices.v;
    ec.n_devices = cfg->devices.n;
    ec.prover_workers = (unsigned)cfg->prover_workers;
    ec.synthesis_workers = (unsigned)cfg->synthesis_workers;
    ec.threads = (unsigned)cfg->threads;
    ec.queue_depth = (unsigned)cfg->queue_depth;
    ec.memory_budget = cfg->total_budget;
    if (ec.memory_budget == 0) {
        /* Curio's auto: MemTotal - safety_margin (the engine's own auto uses a fixed 5 GiB). */
        uint64_t total = mem_total();
        if (total) {
            uint64_t floor = 1ull << 30;
            ec.memory_budget =
                total > cfg->safety_margin + floor ? total - cfg->safety_margin : floor;
        }
    }
    ec.pinned_budget = cfg->pinned_budget;
    ec.no_host_pool = !cfg->abc_pool;
    ec.host_pool_budget = cfg->abc_pool_budget;
    ec.eviction_min_idle_ms = cfg->eviction_min_idle_ms;
    ec.result_ttl_ms = cfg->result_ttl_ms;
    ec.self_verify = cfg->self_verify;
    ec.pce = cfg->pce;
    /* PCE files are read back only by the build that wrote them; a modified tree writes none. */
    ec.pce_cache_tag = pce_tag();
    ec.h_precompute_rows = (unsigned)cfg->h_precompute_rows;
    ec.cache_dir = cfg->param_cache;
    cuzk_status st = cuzk__make_dirs(cfg->param_cache);
    if (st != CUZK_OK)
        return st;
    ec.zkey_unchecked = !cfg->check_zkey_subgroups;
    if (cfg->check_zkey_subgroups && !check_cache)
        check_cache = open_check_cache(cfg);
    ec.check_cache = check_cache;
    if ((st = cuzk_engine_create(out, &ec)) != CUZK_OK)
        return st;
    cuzk_engine *e = *out;
    if (cfg->n_circuits == 0) {
        cuzk_engine_circuit demo = {"demo", CUZK_CIRCUIT_BUILTIN, "sha256-chain:1", NULL, NULL};
        st = cuzk_engine_add_circuit(e, &demo);
        if (st != CUZK_OK)
            cuzk_fail(st, "built-in demo circuit: %s", cuzk_last_error());
    }
    for (size_t i = 0; i < cfg->n_circuits && st == CUZK_OK; i++) {
        const cuzk_daemon_circuit *c = &cfg->circuits[i];
        cuzk_engine_circuit ci = {c->id, c->source, c->spec, c->params, c->zkey};
        st = cuzk_engine_add_circuit(e, &ci);
        if (st != CUZK_OK)
            cuzk_fail(st, "%s:%u: circuit '%s': %s", cfg->file ? cfg->file : "?", c->line, c->id,
                      cuzk_last_error());
    }
    if (st != CUZK_OK) {
        cuzk_engine_destroy(e);
        *out = NULL;
    }
    return st;
}

/* One line each: backend(s), memory, circuits. */
static void log_engine(cuzk_engine *e)
{
    cuzk_engine_status s;
    memset(&s, 0, sizeof s);
    if (cuzk_engine_status_get(e, &s) != CUZK_OK) {
        cuzk__log_warn("engine status: %s", cuzk_last_error());
        return;
    }
    if (s.n_gpus == 0)
        cuzk__log_info("backend: cpu (no GPU in use)");
    for (size_t i = 0; i < s.n_gpus; i++) {
        cuzk__log_info("backend: cuda:%u %s, %.1f GiB VRAM (%.1f GiB free)", s.gpus[i].ordinal,
                       s.gpus[i].name, (double)s.gpus[i].vram_total / (1 << 30),
                       (double)s.gpus[i].vram_free / (1 << 30));
        if (s.gpus[i].resident_copies)
            cuzk__log_info("cuda:%u holds %u resident parameter arrays, %.1f GiB, H query with "
                           "%u precomputed rows",
                           s.gpus[i].ordinal, s.gpus[i].resident_copies,
                           (double)s.gpus[i].resident_bytes / (1 << 30), s.gpus[i].h_rows);
    }
    cuzk__log_info("memory budget %.1f GiB, parameter (pinned) budget %.1f GiB",
                   (double)s.memory_budget / (1 << 30), (double)s.pinned_limit / (1 << 30));
    for (size_t i = 0; i < s.n_srs; i++)
        cuzk__log_info("circuit %s (%s)", s.srs[i].circuit_id,
                       s.srs[i].tier == CUZK_TIER_HOT    ? "hot"
                       : s.srs[i].tier == CUZK_TIER_WARM ? "warm"
                                                         : "cold: loads on first use");
    cuzk_engine_status_clear(&s);
}

/* The SIGHUP reloader's loader: the start-up one, with the same command line. */
static int reload_load(cuzk_daemon_config *cfg, const void *ctx)
{
    return load_config(cfg, ctx);
}

static int serve(const cuzk_daemon_config *cfg, const cli *o)
{
    /* SIGHUP goes to the reloader's sigwait only: blocked here, before any thread starts. */
    cuzk__reload_block_signal();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    cuzk__log_info("cuzk %s starting (%s)", CUZK_VERSION,
                   cfg->file ? cfg->file : "no config file: built-in defaults");
    if (!cfg->self_verify)
        cuzk__log_warn("self-verification is OFF (engine.self_verify = false / "
                       "--no-self-verify): every proof is returned unverified");

    /* Bind first: a busy or forbidden address fails before the engine is built. */
    cuzk_rpc_options ro = {cfg->max_message_size, (unsigned)cfg->max_concurrent_calls};
    cuzk_rpc_server *srv = NULL;
    cuzk_status st = cuzk__rpc_server_create(&srv, &ro);
    if (st != CUZK_OK) {
        cuzk__log_error("cannot create the gRPC server: %s", cuzk_last_error());
        return EXIT_RUNTIME;
    }
    char bound[CUZK_CONFIG_LIST_MAX][512];
    size_t n_bound = 0;
    for (size_t i = 0; i < cfg->listen.n && st == CUZK_OK; i++) {
        cuzk_listen_addr a;
        if ((st = cuzk__addr_parse(&a, cfg->listen.v[i])) == CUZK_OK)
            st = cuzk__rpc_server_listen(srv, &a, bound[n_bound++], sizeof bound[0]);
        if (st == CUZK_OK && !cuzk__addr_is_local(&a))
            cuzk__log_warn("%s is reachable from other hosts: gRPC here has no TLS and no "
                           "authentication, so keep it on a private network",
                           a.display);
    }
    cuzk_http_status *hs = NULL;
    if (st == CUZK_OK && cfg->status_listen)
        st = cuzk__http_status_bind(&hs, cfg->status_listen);
    if (st != CUZK_OK) {
        cuzk__log_error("%s", cuzk_last_error());
        cuzk__rpc_server_destroy(srv);
        return EXIT_RUNTIME;
    }
    cuzk_engine *engine = NULL;
    if ((st = start_engine(&engine, cfg)) != CUZK_OK) {
        cuzk__log_error("cannot start the engine: %s", cuzk_last_error());
        cuzk__http_status_destroy(hs);
        cuzk__rpc_server_destroy(srv);
        return st == CUZK_ERR_INVALID_ARG ? EXIT_USAGE : EXIT_RUNTIME;
    }
    if ((hs && (st = cuzk__http_status_start(hs, engine)) != CUZK_OK) ||
        (st = cuzk__rpc_server_start(srv, engine)) != CUZK_OK) {
        cuzk__log_error("%s", cuzk_last_error());
        cuzk__http_status_destroy(hs);
        cuzk__rpc_server_destroy(srv);
        cuzk_engine_destroy(engine);
        return EXIT_RUNTIME;
    }
    for (size_t i = 0; i < n_bound; i++)
        cuzk__log_info("listening on %s", bound[i]);
    if (hs)
        cuzk__log_info("status server on http://%s/status", cuzk__http_status_address(hs));
    if (hs && strncmp(cuzk__http_status_address(hs), "127.", 4) != 0 &&
        strncmp(cuzk__http_status_address(hs), "[::1]", 5) != 0)
        cuzk__log_warn("the status server (%s) is reachable from other hosts: it has no TLS and "
                       "no authentication and shows job ids",
                       cuzk__http_status_address(hs));
    log_engine(engine);
    cuzk__log_info("ready: max %llu concurrent calls, %llu-byte messages, shutdown grace %llu ms",
                   (unsigned long long)cfg->max_concurrent_calls,
                   (unsigned long long)cfg->max_message_size,
                   (unsigned long long)cfg->shutdown_grace_ms);
    cuzk_reloader *rl = NULL;
    if (cuzk__reloader_start(&rl, engine, cfg, reload_load, o) != CUZK_OK)
        cuzk__log_warn("%s: SIGHUP will be ignored", cuzk_last_error());
    notify_systemd("READY=1\nSTATUS=serving cuzk.v1");

    int rc = cuzk__rpc_server_run(srv, &signal_count, cfg->shutdown_grace_ms);
    if (rc != 0)
        _exit(EXIT_RUNTIME); /* a third signal: workers may still run; do not free under them */
    notify_systemd("STOPPING=1");
    cuzk__reloader_stop(rl);       /* it calls the engine */
    cuzk__http_status_destroy(hs); /* it reads the engine: gone before the engine is */
    cuzk__rpc_server_destroy(srv);
    cuzk_engine_destroy(engine);
    cuzk_check_cache_close(check_cache);
    check_cache = NULL;
    cuzk__log_info("stopped");
    return 0;
}

CUZK_CPU_GUARD("cuzk")

int main(int argc, char **argv)
{
    cli o;
    int rc = parse_cli(&o, argc, argv);
    if (rc >= 0)
        return rc;
    cuzk_daemon_config cfg;
    rc = load_config(&cfg, &o);
    if (rc < 0) {
        if (o.print_config || o.check_config) {
            cuzk__config_print(&cfg, stdout);
            rc = 0;
        } else {
            rc = serve(&cfg, &o);
        }
    } else if (o.check_config) {
        rc = EXIT_USAGE;
    }
    cuzk__config_free(&cfg);
    return rc;
}

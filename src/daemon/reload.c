/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* SIGHUP: re-read the configuration, register new circuits (daemon/reload.h). */
#include "daemon/reload.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/alloc.h"
#include "daemon/log.h"

struct cuzk_reloader {
    cuzk_engine *e;
    const cuzk_daemon_config *running;
    cuzk_reload_load_fn load;
    const void *load_ctx;
    pthread_t th;
    volatile sig_atomic_t stop;
    /* circuits registered by reloads (their definitions, for later comparisons) */
    cuzk_daemon_circuit *added;
    size_t n_added;
};

static void hup_set(sigset_t *s)
{
    sigemptyset(s);
    sigaddset(s, SIGHUP);
}

void cuzk__reload_block_signal(void)
{
    sigset_t s;
    hup_set(&s);
    pthread_sigmask(SIG_BLOCK, &s, NULL);
}

static bool str_eq(const char *a, const char *b)
{
    return (!a || !*a) ? (!b || !*b) : (b && strcmp(a, b) == 0);
}

static bool circuit_eq(const cuzk_daemon_circuit *a, const cuzk_daemon_circuit *b)
{
    return a->source == b->source && str_eq(a->spec, b->spec) && str_eq(a->params, b->params) &&
           str_eq(a->zkey, b->zkey);
}

static const cuzk_daemon_circuit *find_in(const cuzk_daemon_circuit *v, size_t n, const char *id)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i].id, id) == 0)
            return &v[i];
    return NULL;
}

/* The configuration as printed, without its first line (which names the file), its circuits
 * and its log level (applied by the loader); NULL when out of memory. */
static char *settings_text(const cuzk_daemon_config *c, int log_level)
{
    cuzk_daemon_config s = *c;
    s.circuits = NULL;
    s.n_circuits = 0;
    s.log_level = log_level;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    cuzk__config_print(&s, f);
    fclose(f);
    return buf;
}

static bool settings_differ(const cuzk_daemon_config *a, const cuzk_daemon_config *b)
{
    char *x = settings_text(a, a->log_level), *y = settings_text(b, a->log_level);
    const char *xs = x ? strchr(x, '\n') : NULL, *ys = y ? strchr(y, '\n') : NULL;
    bool differ = !xs || !ys || strcmp(xs, ys) != 0;
    free(x);
    free(y);
    return differ;
}

static void circuit_free(cuzk_daemon_circuit *c)
{
    cuzk_free(c->id);
    cuzk_free(c->spec);
    cuzk_free(c->params);
    cuzk_free(c->zkey);
}

/* Keeps a copy of |c| as registered by a reload (a failed copy only costs later comparisons). */
static void remember(cuzk_reloader *r, const cuzk_daemon_circuit *c)
{
    cuzk_daemon_circuit *v = cuzk_realloc(r->added, (r->n_added + 1) * sizeof *v);
    if (!v)
        return;
    r->added = v;
    cuzk_daemon_circuit d = {cuzk_strdup(c->id),   c->source,
                             cuzk_strdup(c->spec), cuzk_strdup(c->params),
                             cuzk_strdup(c->zkey), c->line};
    if (!d.id || (c->spec && !d.spec) || (c->params && !d.params) || (c->zkey && !d.zkey)) {
        circuit_free(&d);
        return;
    }
    v[r->n_added++] = d;
}

static void reload_once(cuzk_reloader *r)
{
    cuzk_daemon_config next;
    memset(&next, 0, sizeof next);
    cuzk__log_info("reload (SIGHUP): reading the configuration again");
    if (r->load(&next, r->load_ctx) >= 0) {
        cuzk__log_error("reload: the new configuration is not valid (above); nothing changed");
        cuzk__config_free(&next);
        return;
    }
    unsigned added = 0, kept = 0;
    if (settings_differ(r->running, &next))
        cuzk__log_warn("reload: settings outside [[circuits]] and logging.level changed; they "
                       "take effect after a restart (cuzk --print-config shows the new ones)");
    for (size_t i = 0; i < next.n_circuits; i++) {
        const cuzk_daemon_circuit *c = &next.circuits[i];
        const cuzk_daemon_circuit *old =
            find_in(r->running->circuits, r->running->n_circuits, c->id);
        if (!old)
            old = find_in(r->added, r->n_added, c->id);
        if (old) {
            if (!circuit_eq(old, c))
                cuzk__log_warn("reload: circuit %s (line %u) is defined differently now; the "
                               "running definition stays until a restart",
                               c->id, c->line);
            kept++;
            continue;
        }
        cuzk_engine_circuit ci = {c->id, c->source, c->spec, c->params, c->zkey};
        cuzk_status st = cuzk_engine_add_circuit(r->e, &ci);
        if (st != CUZK_OK) {
            cuzk__log_error("reload: circuit %s (line %u) not added: %s", c->id, c->line,
                            cuzk_last_error());
            continue;
        }
        remember(r, c);
        added++;
        cuzk__log_info("reload: circuit %s added (%s)", c->id,
                       c->source == CUZK_CIRCUIT_ZKEY ? c->zkey : c->spec);
    }
    char **ids = NULL;
    size_t n_ids = 0;
    if (cuzk_engine_circuits(r->e, &ids, &n_ids) == CUZK_OK) {
        for (size_t i = 0; i < n_ids; i++) {
            /* "demo" is what a configuration without circuits serves */
            bool demo = next.n_circuits == 0 && strcmp(ids[i], "demo") == 0;
            if (!demo && !find_in(next.circuits, next.n_circuits, ids[i]))
                cuzk__log_warn("reload: circuit %s is not in the configuration any more; it "
                               "stays registered until a restart",
                               ids[i]);
            cuzk_free(ids[i]);
        }
        cuzk_free(ids);
    }
    cuzk__log_info("reload: done: %u circuit(s) added, %u unchanged or kept", added, kept);
    cuzk__config_free(&next);
}

static void *reload_main(void *arg)
{
    cuzk_reloader *r = arg;
    sigset_t s;
    hup_set(&s);
    for (;;) {
        int sig = 0;
        if (sigwait(&s, &sig) != 0)
            continue;
        if (r->stop)
            break;
        reload_once(r);
    }
    return NULL;
}

cuzk_status cuzk__reloader_start(cuzk_reloader **out, cuzk_engine *e,
                                 const cuzk_daemon_config *running, cuzk_reload_load_fn load,
                                 const void *load_ctx)
{
    *out = NULL;
    cuzk_reloader *r = cuzk_alloc(sizeof *r);
    if (!r)
        return cuzk_fail(CUZK_ERR_NOMEM, "reload: out of memory");
    memset(r, 0, sizeof *r);
    r->e = e;
    r->running = running;
    r->load = load;
    r->load_ctx = load_ctx;
    if (pthread_create(&r->th, NULL, reload_main, r) != 0) {
        cuzk_free(r);
        return cuzk_fail(CUZK_ERR_INTERNAL, "reload: cannot start its thread");
    }
    *out = r;
    return CUZK_OK;
}

void cuzk__reloader_stop(cuzk_reloader *r)
{
    if (!r)
        return;
    r->stop = 1;
    pthread_kill(r->th, SIGHUP); /* wakes its sigwait */
    pthread_join(r->th, NULL);
    for (size_t i = 0; i < r->n_added; i++)
        circuit_free(&r->added[i]);
    cuzk_free(r->added);
    cuzk_free(r);
}

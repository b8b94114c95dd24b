/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Engine lifecycle: configuration, workers, shutdown and teardown. */
#include "engine/engine_internal.h"

#include "cuzk/alloc.h"
#include "gpu/gpu.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const phase_names[CUZK_PHASE_COUNT] = {
    "queue_wait", "srs_load", "synthesis", "ntt_h",    "msm_h",       "batch_add",
    "tail_msm",   "msm_b_g2", "assemble",  "verify",   "gpu_compute", "total",
};

const char *cuzk_phase_name(cuzk_phase p)
{
    return (unsigned)p < CUZK_PHASE_COUNT ? phase_names[p] : NULL;
}

double cuzk__engine_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void cuzk__engine_wait_ms(pthread_cond_t *cv, pthread_mutex_t *mu, unsigned ms)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t ns = (uint64_t)ts.tv_nsec + (uint64_t)ms * 1000000u;
    ts.tv_sec += (time_t)(ns / 1000000000u);
    ts.tv_nsec = (long)(ns % 1000000000u);
    pthread_cond_timedwait(cv, mu, &ts);
}

const double cuzk__engine_hist_bounds[ENGINE_HIST_BUCKETS] = {
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
    1,     2.5,    5,     10,   30,    60,   120, 300,  600,
};

void cuzk__engine_hist_observe(engine_hist *h, double seconds)
{
    size_t i = 0;
    while (i < ENGINE_HIST_BUCKETS && seconds > cuzk__engine_hist_bounds[i])
        i++;
    h->bucket[i]++;
    h->count++;
    h->sum += seconds;
}

const char *cuzk__engine_kind_name(cuzk_proof_kind k)
{
    switch (k) {
    case CUZK_PROOF_POREP:
        return "porep-c2";
    case CUZK_PROOF_SNAP:
        return "snap-update";
    case CUZK_PROOF_WINDOW_POST:
        return "window-post";
    case CUZK_PROOF_WINNING_POST:
        return "winning-post";
    default:
        return "generic";
    }
}

void cuzk_engine_config_default(cuzk_engine_config *c)
{
    if (!c)
        return;
    memset(c, 0, sizeof *c);
    c->backend = CUZK_BACKEND_AUTO;
    c->prover_workers = 1;
    c->synthesis_workers = 1;
    c->queue_depth = 2;
    c->eviction_min_idle_ms = 10000;
    c->result_ttl_ms = 600000;
    c->self_verify = true;
    c->cache_dir = NULL;
}

static uint64_t mem_total(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), sz = sysconf(_SC_PAGESIZE);
    return pages > 0 && sz > 0 ? (uint64_t)pages * (uint64_t)sz : (uint64_t)8 << 30;
}

static void stop_and_free(cuzk_engine *e)
{
    pthread_mutex_lock(&e->mu);
    e->stopping = true;
    e->accepting = false;
    pthread_cond_broadcast(&e->work_cv);
    pthread_cond_broadcast(&e->queue_cv);
    pthread_cond_broadcast(&e->space_cv);
    pthread_cond_broadcast(&e->srs_cv);
    pthread_cond_broadcast(&e->done_cv);
    pthread_mutex_unlock(&e->mu);
    for (unsigned i = 0; i < e->n_synth_started; i++)
        pthread_join(e->synth[i], NULL);
    cuzk__pce_join(e); /* an extraction cannot be interrupted: at most one KEYGEN synthesis */
    for (unsigned i = 0; i < e->n_provers; i++)
        if (e->provers[i].started)
            pthread_join(e->provers[i].th, NULL);
    pthread_mutex_lock(&e->mu);
    while (e->q_head) {
        item *it = e->q_head;
        e->q_head = it->next;
        e->q_len--;
        cuzk__item_discard_locked(e, it);
    }
    for (bool waiting = true; waiting;) {
        waiting = false;
        for (job *j = e->jobs_head; j && !waiting; j = j->next)
            waiting = j->waiters > 0;
        if (waiting)
            pthread_cond_wait(&e->done_cv, &e->mu);
    }
    cuzk__jobs_reap_locked(e, true);
    pthread_mutex_unlock(&e->mu);
    for (size_t i = 0; i < e->n_circs; i++)
        cuzk__srs_entry_free(e->circs[i]);
    cuzk_free(e->circs);
    for (unsigned i = 0; i < e->n_provers; i++)
        cuzk_backend_destroy(e->provers[i].be);
    cuzk_free(e->provers);
    cuzk_free(e->synth);
    cuzk_pool_destroy(e->load_pool);
    cuzk_host_pool_destroy(e->abc_pool); /* after the workers: every buffer is back */
    pthread_cond_destroy(&e->work_cv);
    pthread_cond_destroy(&e->queue_cv);
    pthread_cond_destroy(&e->space_cv);
    pthread_cond_destroy(&e->srs_cv);
    pthread_cond_destroy(&e->done_cv);
    pthread_mutex_destroy(&e->mu);
    cuzk_free(e->devices);
    cuzk_free(e->cache_dir);
    cuzk_free(e);
}

cuzk_status cuzk_engine_create(cuzk_engine **out, const cuzk_engine_config *cfg_in)
{
    if (!out)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "engine_create: out is required");
    *out = NULL;
    cuzk_engine_config cfg;
    if (cfg_in)
        cfg = *cfg_in;
    else
        cuzk_engine_config_default(&cfg);
    if (cfg.backend != CUZK_BACKEND_AUTO && cfg.backend != CUZK_BACKEND_CPU &&
        cfg.backend != CUZK_BACKEND_CUDA)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "unknown backend kind %d", (int)cfg.backend);
    if (cfg.prover_workers > 256 || cfg.synthesis_workers > 256 || cfg.queue_depth > 65536 ||
        cfg.n_devices > 256 || (cfg.n_devices && !cfg.devices) || cfg.h_precompute_rows > 16)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "engine config out of range (workers <= 256, "
                         "queue_depth <= 65536, devices <= 256, h_precompute_rows <= 16)");
    if (cfg.pce_cache_tag) {
        size_t n = strlen(cfg.pce_cache_tag);
        bool ok = n > 0 && n < 64;
        for (size_t i = 0; ok && i < n; i++) {
            char ch = cfg.pce_cache_tag[i];
            ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                 ch == '.' || ch == '_' || ch == '-';
        }
        if (!ok)
            return cuzk_fail(CUZK_ERR_INVALID_ARG,
                             "pce_cache_tag must be 1 to 63 bytes of [A-Za-z0-9._-]");
    }
    if (!cfg.prover_workers)
        cfg.prover_workers = 1;
    const bool auto_synth = !cfg.synthesis_workers;
    if (!cfg.queue_depth)
        cfg.queue_depth = 2;
    if (!cfg.result_ttl_ms)
        cfg.result_ttl_ms = 600000;
    uint64_t total = mem_total();
    if (!cfg.memory_budget) {
        uint64_t reserve = (uint64_t)5 << 30;
        cfg.memory_budget = total > reserve + ((uint64_t)1 << 30) ? total - reserve
                                                                  : (uint64_t)1 << 30;
    }
    if (!cfg.pinned_budget)
        cfg.pinned_budget = total / 2;

    cuzk_backend_kind kind = cfg.backend;
    if (kind == CUZK_BACKEND_AUTO)
        kind = cuzk_backend_cuda_usable() ? CUZK_BACKEND_CUDA : CUZK_BACKEND_CPU;
    if (kind == CUZK_BACKEND_CUDA && !cuzk_backend_cuda_usable())
        return cuzk_fail(CUZK_ERR_NO_DEVICE, "the CUDA backend was requested but %s",
                         cuzk_backend_cuda_compiled() ? "no CUDA device is usable"
                                                      : "this binary was built without CUDA");
    int n_dev = kind == CUZK_BACKEND_CUDA ? (cfg.n_devices ? (int)cfg.n_devices
                                                           : cuzk_gpu_device_count())
                                          : 0;
    if (kind == CUZK_BACKEND_CUDA && n_dev <= 0)
        return cuzk_fail(CUZK_ERR_NO_DEVICE, "no CUDA device found");

    cuzk_engine *e = cuzk_calloc_array(1, sizeof *e);
    if (!e)
        return cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
    const char *dir = cfg.cache_dir && cfg.cache_dir[0] ? cfg.cache_dir : "./cuzk-cache";
    size_t dl = strlen(dir);
    while (dl > 1 && dir[dl - 1] == '/')
        dl--;
    e->cache_dir = cuzk_alloc(dl + 1);
    if (n_dev > 0)
        e->devices = cuzk_alloc_array((size_t)n_dev, sizeof *e->devices);
    if (!e->cache_dir || (n_dev > 0 && !e->devices)) {
        cuzk_free(e->cache_dir);
        cuzk_free(e);
        return cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
    }
    memcpy(e->cache_dir, dir, dl);
    e->cache_dir[dl] = 0;
    if (cfg.pce_cache_tag)
        snprintf(e->pce_tag, sizeof e->pce_tag, "%s", cfg.pce_cache_tag);
    cfg.pce_cache_tag = NULL; /* not kept: e->pce_tag */
    for (int i = 0; i < n_dev; i++)
        e->devices[i] = cfg.n_devices ? cfg.devices[i] : i;
    cfg.cache_dir = e->cache_dir;
    cfg.devices = e->devices;
    cfg.n_devices = (size_t)n_dev;
    e->cfg = cfg;
    e->kind = kind;
    e->mem_budget = cfg.memory_budget;
    e->pinned_budget = cfg.pinned_budget;
    e->accepting = true;
    e->t_created = cuzk__engine_now_ms();
    pthread_mutex_init(&e->mu, NULL);
    pthread_cond_init(&e->work_cv, NULL);
    pthread_cond_init(&e->queue_cv, NULL);
    pthread_cond_init(&e->space_cv, NULL);
    pthread_cond_init(&e->srs_cv, NULL);
    pthread_cond_init(&e->done_cv, NULL);

    cuzk_status s = cuzk_pool_create(&e->load_pool, cfg.threads);
    if (s == CUZK_OK && !cfg.no_host_pool) {
        /* Auto: what the total budget leaves beside the HOT sets' cap, i.e. room for the a/b/c
         * of every partition the joint budget admits (MemTotal / 4 before: 2 of the 4 PoRep
         * partitions a 128 GiB host holds); a quarter of the total if the cap takes it all. */
        uint64_t pb = cfg.host_pool_budget;
        if (!pb)
            pb = cfg.memory_budget > cfg.pinned_budget ? cfg.memory_budget - cfg.pinned_budget
                                                       : cfg.memory_budget / 4;
        e->cfg.host_pool_budget = pb;
        s = cuzk_host_pool_create(&e->abc_pool, pb,
                                  cfg.host_pool_min_bytes ? (size_t)cfg.host_pool_min_bytes
                                                          : CUZK_HOST_POOL_MIN_BYTES,
                                  kind == CUZK_BACKEND_CUDA);
    }
    e->n_provers =
        kind == CUZK_BACKEND_CUDA ? (unsigned)n_dev * cfg.prover_workers : cfg.prover_workers;
    /* Auto: two synthesis workers per prover worker, at most one per CPU. One worker (the old
     * default) capped a 2-GPU host at 242-332 proofs/min of sha256-chain:32, synthesis-bound
     * (224 ms per partition on one thread); eight gave 1004 (docs/PERFORMANCE.md "Several GPUs").
     */
    if (auto_synth) {
        long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
        unsigned want = 2 * (e->n_provers ? e->n_provers : 1);
        if (ncpu > 0 && want > (unsigned long)ncpu)
            want = (unsigned)ncpu;
        cfg.synthesis_workers = e->cfg.synthesis_workers = want ? want : 1;
    }
    e->provers = cuzk_calloc_array(e->n_provers, sizeof *e->provers);
    e->synth = cuzk_calloc_array(cfg.synthesis_workers, sizeof *e->synth);
    if (s == CUZK_OK && (!e->provers || !e->synth))
        s = cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
    for (unsigned i = 0; s == CUZK_OK && i < e->n_provers; i++) {
        prover_worker *w = &e->provers[i];
        w->e = e;
        w->device = kind == CUZK_BACKEND_CUDA ? e->devices[i / cfg.prover_workers] : -1;
        s = cuzk_backend_create_on(&w->be, kind, cfg.threads, w->device);
        if (s != CUZK_OK)
            s = cuzk_fail(s, "prover worker %u: %s", i, cuzk_last_error());
        else
            cuzk_backend_set_h_rows(w->be, cfg.h_precompute_rows);
        if (kind == CUZK_BACKEND_CUDA)
            snprintf(w->name, sizeof w->name, "cuda:%d", w->device);
        else
            snprintf(w->name, sizeof w->name, "cpu");
    }
    for (unsigned i = 0; s == CUZK_OK && i < e->n_provers; i++) {
        if (pthread_create(&e->provers[i].th, NULL, cuzk__prover_main, &e->provers[i]) != 0)
            s = cuzk_fail(CUZK_ERR_INTERNAL, "cannot start a prover thread");
        else
            e->provers[i].started = true;
    }
    e->n_synth = cfg.synthesis_workers;
    for (unsigned i = 0; s == CUZK_OK && i < e->n_synth; i++) {
        if (pthread_create(&e->synth[i], NULL, cuzk__synth_main, e) != 0)
            s = cuzk_fail(CUZK_ERR_INTERNAL, "cannot start a synthesis thread");
        else
            e->n_synth_started++;
    }
    if (s != CUZK_OK) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", cuzk_last_error());
        stop_and_free(e);
        return cuzk_fail(s, "%s", msg);
    }
    *out = e;
    return CUZK_OK;
}

void cuzk_engine_shutdown(cuzk_engine *e, uint64_t grace_ms)
{
    if (!e)
        return;
    pthread_mutex_lock(&e->mu);
    if (e->shutdown_done) {
        pthread_mutex_unlock(&e->mu);
        return;
    }
    e->accepting = false;
    if (grace_ms > (uint64_t)1 << 40)
        grace_ms = (uint64_t)1 << 40;
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    uint64_t ns = (uint64_t)dl.tv_nsec + (grace_ms % 1000) * 1000000ull;
    dl.tv_sec += (time_t)(grace_ms / 1000 + ns / 1000000000ull);
    dl.tv_nsec = (long)(ns % 1000000000ull);
    for (;;) {
        bool busy = false;
        for (job *j = e->jobs_head; j && !busy; j = j->next)
            busy = j->outcome == CUZK_JOB_UNKNOWN;
        if (!busy || grace_ms == 0)
            break;
        if (pthread_cond_timedwait(&e->done_cv, &e->mu, &dl) != 0) {
            struct timespec now;
            clock_gettime(CLOCK_REALTIME, &now);
            if (now.tv_sec > dl.tv_sec || (now.tv_sec == dl.tv_sec && now.tv_nsec >= dl.tv_nsec))
                break;
        }
    }
    for (job *j = e->jobs_head; j; j = j->next)
        if (j->outcome == CUZK_JOB_UNKNOWN)
            cuzk__job_finish_locked(e, j, CUZK_JOB_CANCELLED,
                                    "cancelled: the engine shut down before the job finished");
    e->shutdown_done = true;
    pthread_cond_broadcast(&e->space_cv);
    pthread_cond_broadcast(&e->srs_cv);
    pthread_mutex_unlock(&e->mu);
}

void cuzk_engine_destroy(cuzk_engine *e)
{
    if (!e)
        return;
    cuzk_engine_shutdown(e, 0);
    stop_and_free(e);
}

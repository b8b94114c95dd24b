/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Status snapshot and Prometheus text exposition. */
#include "engine/engine_internal.h"

#include "cuzk/alloc.h"
#include "gpu/gpu.h"
#include "gpu/gpu_msm.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *tier_name(cuzk_srs_tier t)
{
    return t == CUZK_TIER_HOT ? "hot" : t == CUZK_TIER_WARM ? "warm" : "cold";
}

static uint64_t tier_bytes(const srs_entry *c)
{
    return c->tier == CUZK_TIER_HOT ? c->held_bytes : c->tier == CUZK_TIER_WARM ? c->map_len : 0;
}

/* Copies |src| into |dst| (|n| bytes), truncating: names are bounded, truncation is expected. */
static void copy_trunc(char *dst, size_t n, const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > n - 1)
        la = n - 1;
    memcpy(dst, a, la);
    if (lb > n - 1 - la)
        lb = n - 1 - la;
    memcpy(dst + la, b, lb);
    dst[la + lb] = 0;
}

static void queue_kind(char *out, size_t n, const job *j)
{
    if (j->kind == CUZK_PROOF_GENERIC)
        copy_trunc(out, n, "circuit:", j->circ->id);
    else
        copy_trunc(out, n, cuzk__engine_kind_name(j->kind), "");
}

const char *cuzk_partition_state_name(cuzk_partition_state s)
{
    static const char *const names[] = {"pending", "synthesizing", "synth_done", "gpu",
                                        "done",    "failed",       "cancelled"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "unknown";
}

const char *cuzk_pipeline_outcome_name(cuzk_job_outcome o)
{
    return o == CUZK_JOB_COMPLETED   ? "completed"
           : o == CUZK_JOB_FAILED    ? "failed"
           : o == CUZK_JOB_CANCELLED ? "cancelled"
                                     : "running";
}

/* Every prover worker and what it works on (e->mu held). */
static cuzk_status workers_locked(cuzk_engine *e, cuzk_engine_status *out, double now)
{
    if (!e->n_provers)
        return CUZK_OK;
    out->workers = cuzk_calloc_array(e->n_provers, sizeof *out->workers);
    if (!out->workers)
        return CUZK_ERR_NOMEM;
    for (unsigned i = 0; i < e->n_provers; i++) {
        const prover_worker *w = &e->provers[i];
        cuzk_engine_worker_status *o = &out->workers[i];
        o->worker_id = i;
        o->device = w->device;
        if (w->current) {
            snprintf(o->current_job, sizeof o->current_job, "%s", w->current->id);
            queue_kind(o->current_kind, sizeof o->current_kind, w->current);
            o->current_partition = w->current_part;
            o->busy_secs = (now - w->t_busy) / 1e3;
        }
        o->scratch_bytes = w->scratch_held;
    }
    out->n_workers = e->n_provers;
    return CUZK_OK;
}

static bool pipeline_listed(const job *j, double now)
{
    return j->n_parts > 1 && j->started &&
           (j->outcome == CUZK_JOB_UNKNOWN || now - j->t_end < CUZK_ENGINE_PIPELINE_KEEP_S * 1e3);
}

/* Partitioned jobs, running or finished recently, with each partition's state (e->mu held). */
static cuzk_status pipelines_locked(cuzk_engine *e, cuzk_engine_status *out, double now)
{
    size_t n = 0;
    for (const job *j = e->jobs_head; j; j = j->next)
        n += pipeline_listed(j, now);
    if (!n)
        return CUZK_OK;
    out->pipelines = cuzk_calloc_array(n, sizeof *out->pipelines);
    if (!out->pipelines)
        return CUZK_ERR_NOMEM;
    for (const job *j = e->jobs_head; j; j = j->next) {
        if (!pipeline_listed(j, now))
            continue;
        cuzk_engine_pipeline_status *p = &out->pipelines[out->n_pipelines++];
        p->partitions = cuzk_calloc_array(j->n_parts, sizeof *p->partitions);
        if (!p->partitions)
            return CUZK_ERR_NOMEM;
        snprintf(p->job_id, sizeof p->job_id, "%s", j->id);
        queue_kind(p->kind, sizeof p->kind, j);
        p->outcome = j->outcome;
        p->started_secs_ago = (now - j->t_start) / 1e3;
        p->total_partitions = j->n_parts;
        p->partitions_done = j->parts_done;
        for (uint32_t k = 0; k < j->n_parts; k++) {
            p->partitions[k].state = (cuzk_partition_state)j->parts[k].state;
            p->partitions[k].synth_ms = j->parts[k].synth_ms;
            p->partitions[k].prove_ms = j->parts[k].prove_ms;
        }
    }
    return CUZK_OK;
}

cuzk_status cuzk_engine_status_get(cuzk_engine *e, cuzk_engine_status *out)
{
    if (!e || !out)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "status: engine and output are required");
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(&e->mu);
    cuzk__jobs_reap_locked(e, false);
    /* GPUs: one entry per device in use. */
    size_t n_dev = e->kind == CUZK_BACKEND_CUDA ? e->cfg.n_devices : 0;
    out->gpus = n_dev ? cuzk_calloc_array(n_dev, sizeof *out->gpus) : NULL;
    out->srs = e->n_circs ? cuzk_calloc_array(e->n_circs, sizeof *out->srs) : NULL;
    /* Queues: at most one per circuit (generic) or kind. */
    out->queues = e->n_circs ? cuzk_calloc_array(e->n_circs, sizeof *out->queues) : NULL;
    if ((n_dev && !out->gpus) || (e->n_circs && (!out->srs || !out->queues))) {
        pthread_mutex_unlock(&e->mu);
        cuzk_engine_status_clear(out);
        return cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
    }
    for (size_t d = 0; d < n_dev; d++) {
        cuzk_engine_gpu_status *g = &out->gpus[d];
        g->ordinal = (uint32_t)e->devices[d];
        for (unsigned i = 0; i < e->n_provers; i++) {
            const prover_worker *w = &e->provers[i];
            if (w->device == e->devices[d] && w->current) {
                snprintf(g->current_job, sizeof g->current_job, "%s", w->current->id);
                queue_kind(g->current_kind, sizeof g->current_kind, w->current);
                break;
            }
        }
    }
    out->n_gpus = n_dev;
    for (size_t i = 0; i < e->n_circs; i++) {
        const srs_entry *c = e->circs[i];
        cuzk_engine_srs_status *s = &out->srs[i];
        snprintf(s->circuit_id, sizeof s->circuit_id, "%s", c->id);
        s->tier = c->tier;
        s->size_bytes = tier_bytes(c);
        s->ref_count = c->ref_count;
        s->partition_bytes = c->part_bytes;
        snprintf(s->subgroups, sizeof s->subgroups, "%s", cuzk__srs_subgroups_word(c));
        snprintf(s->pce, sizeof s->pce, "%s", cuzk__pce_state_word(c));
        snprintf(s->pce_error, sizeof s->pce_error, "%s", c->pce_error);
        s->pce_bytes = c->pce_bytes;
        s->pce_partitions = c->pce_partitions;
        s->pce_extract_ms = c->pce_extract_ms;
        s->pce_from_file = c->pce_from_file;
        for (unsigned k = 0; k < CUZK_BACKEND_SCRATCH_SLOTS; k++)
            s->scratch_bytes += c->scratch[k];
    }
    out->n_srs = e->n_circs;
    size_t nq = 0;
    for (const job *j = e->jobs_head; j; j = j->next) {
        if (j->outcome != CUZK_JOB_UNKNOWN)
            continue;
        char kind[CUZK_ENGINE_ID_MAX];
        queue_kind(kind, sizeof kind, j);
        size_t q = 0;
        while (q < nq && strcmp(out->queues[q].kind, kind) != 0)
            q++;
        if (q == nq) {
            if (nq == e->n_circs)
                continue; /* cannot happen: one kind per circuit */
            snprintf(out->queues[nq++].kind, sizeof out->queues[0].kind, "%s", kind);
        }
        if (j->in_flight > 0)
            out->queues[q].in_progress++;
        else
            out->queues[q].pending++;
    }
    out->n_queues = nq;
    out->completed = e->completed;
    out->failed = e->failed;
    out->cancelled = e->cancelled;
    out->uptime_s = (uint64_t)((cuzk__engine_now_ms() - e->t_created) / 1e3);
    out->pinned_bytes = e->pinned_in_use;
    out->pinned_limit = e->pinned_budget;
    out->memory_in_use = e->pinned_in_use + e->mem_in_use + e->scratch_in_use;
    out->memory_in_flight = e->mem_in_use - e->pce_in_use;
    out->memory_pce = e->pce_in_use;
    out->memory_scratch = e->scratch_in_use;
    out->memory_budget = e->mem_budget;
    double now = cuzk__engine_now_ms();
    if (workers_locked(e, out, now) != CUZK_OK || pipelines_locked(e, out, now) != CUZK_OK) {
        pthread_mutex_unlock(&e->mu);
        cuzk_engine_status_clear(out);
        return cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
    }
    pthread_mutex_unlock(&e->mu);
    /* Device queries outside the lock: they may take a while. */
    for (size_t d = 0; d < n_dev; d++) {
        cuzk_gpu_device_info info;
        if (cuzk_gpu_get_device_info((int)out->gpus[d].ordinal, &info) == CUZK_OK) {
            copy_trunc(out->gpus[d].name, sizeof out->gpus[d].name, info.name, "");
            out->gpus[d].vram_total = info.total_mem;
            out->gpus[d].vram_free = info.free_mem;
        }
        unsigned rows = 0;
        out->gpus[d].resident_copies = (uint32_t)cuzk_backend_device_resident(
            (int)out->gpus[d].ordinal, &out->gpus[d].resident_bytes, &rows);
        out->gpus[d].h_rows = rows;
    }
    return CUZK_OK;
}

void cuzk_engine_status_clear(cuzk_engine_status *s)
{
    if (!s)
        return;
    cuzk_free(s->gpus);
    cuzk_free(s->srs);
    cuzk_free(s->queues);
    cuzk_free(s->workers);
    for (size_t i = 0; i < s->n_pipelines; i++)
        cuzk_free(s->pipelines[i].partitions);
    cuzk_free(s->pipelines);
    memset(s, 0, sizeof *s);
}

/* ---- Prometheus text ----------------------------------------------------------------------- */

typedef struct {
    char *buf;
    size_t len, cap;
    bool oom;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->buf + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = true;
            return;
        }
        if ((size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = 2 * b->cap + (size_t)n + 1;
        char *nb = cuzk_alloc(cap);
        if (!nb) {
            b->oom = true;
            return;
        }
        memcpy(nb, b->buf, b->len + 1);
        cuzk_free(b->buf);
        b->buf = nb;
        b->cap = cap;
    }
}

static void family(sbuf *b, const char *name, const char *type, const char *help)
{
    sb_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void hist(sbuf *b, const char *name, const char *label, const engine_hist *h)
{
    uint64_t cum = 0;
    const char *sep = label[0] ? "," : "";
    for (size_t i = 0; i < ENGINE_HIST_BUCKETS; i++) {
        cum += h->bucket[i];
        sb_printf(b, "%s_bucket{%s%sle=\"%g\"} %llu\n", name, label, sep,
                  cuzk__engine_hist_bounds[i], (unsigned long long)cum);
    }
    cum += h->bucket[ENGINE_HIST_BUCKETS];
    sb_printf(b, "%s_bucket{%s%sle=\"+Inf\"} %llu\n", name, label, sep, (unsigned long long)cum);
    if (label[0]) {
        sb_printf(b, "%s_sum{%s} %.6f\n", name, label, h->sum);
        sb_printf(b, "%s_count{%s} %llu\n", name, label, (unsigned long long)h->count);
    } else {
        sb_printf(b, "%s_sum %.6f\n", name, h->sum);
        sb_printf(b, "%s_count %llu\n", name, (unsigned long long)h->count);
    }
}

cuzk_status cuzk_engine_metrics(cuzk_engine *e, char **out)
{
    if (!e || !out)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "metrics: engine and output are required");
    *out = NULL;
    sbuf b = {.buf = cuzk_alloc(4096), .cap = 4096};
    if (!b.buf)
        return cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
    b.buf[0] = 0;
    pthread_mutex_lock(&e->mu);
    cuzk__jobs_reap_locked(e, false);
    static const char *const counters[3][2] = {
        {"cuzk_proofs_completed_total", "Proofs completed."},
        {"cuzk_proofs_failed_total", "Proofs that failed."},
        {"cuzk_proofs_cancelled_total", "Proofs cancelled (by request or at shutdown)."},
    };
    const uint64_t totals[3] = {e->completed, e->failed, e->cancelled};
    for (int k = 0; k < 3; k++) {
        family(&b, counters[k][0], "counter", counters[k][1]);
        sb_printf(&b, "%s %llu\n", counters[k][0], (unsigned long long)totals[k]);
        for (size_t i = 0; i < e->n_circs; i++) {
            const srs_entry *c = e->circs[i];
            uint64_t v = k == 0 ? c->completed : k == 1 ? c->failed : c->cancelled;
            sb_printf(&b, "%s{circuit=\"%s\"} %llu\n", counters[k][0], c->id,
                      (unsigned long long)v);
        }
    }
    uint64_t waiting = 0, running = 0;
    for (const job *j = e->jobs_head; j; j = j->next) {
        if (j->outcome != CUZK_JOB_UNKNOWN)
            continue;
        waiting += j->n_parts - j->next_part;
        if (j->in_flight > 0)
            running++;
    }
    family(&b, "cuzk_uptime_seconds", "gauge", "Seconds since the engine started.");
    sb_printf(&b, "cuzk_uptime_seconds %.3f\n", (cuzk__engine_now_ms() - e->t_created) / 1e3);
    family(&b, "cuzk_queue_depth", "gauge", "Partitions accepted and not yet started.");
    sb_printf(&b, "cuzk_queue_depth %llu\n", (unsigned long long)waiting);
    family(&b, "cuzk_running_jobs", "gauge", "Jobs with a partition being worked on.");
    sb_printf(&b, "cuzk_running_jobs %llu\n", (unsigned long long)running);
    family(&b, "cuzk_partitions_in_flight", "gauge",
           "Partitions between the scheduler and the finalizer.");
    sb_printf(&b, "cuzk_partitions_in_flight %llu\n", (unsigned long long)e->partitions_in_flight);
    family(&b, "cuzk_srs_bytes", "gauge",
           "Bytes a parameter set holds in its tier (hot: decoded; warm: mapped file).");
    for (size_t i = 0; i < e->n_circs; i++) {
        const srs_entry *c = e->circs[i];
        sb_printf(&b, "cuzk_srs_bytes{circuit=\"%s\",tier=\"%s\"} %llu\n", c->id,
                  tier_name(c->tier), (unsigned long long)tier_bytes(c));
    }
    family(&b, "cuzk_pinned_bytes", "gauge", "Bytes of HOT parameter sets.");
    sb_printf(&b, "cuzk_pinned_bytes %llu\n", (unsigned long long)e->pinned_in_use);
    family(&b, "cuzk_pinned_limit_bytes", "gauge", "The pinned budget.");
    sb_printf(&b, "cuzk_pinned_limit_bytes %llu\n", (unsigned long long)e->pinned_budget);
    family(&b, "cuzk_memory_in_use_bytes", "gauge",
           "Bytes charged to the total memory budget: HOT parameter sets, partitions in flight, "
           "the prover workers' scratch and the PCEs kept.");
    sb_printf(&b, "cuzk_memory_in_use_bytes %llu\n",
              (unsigned long long)(e->pinned_in_use + e->mem_in_use + e->scratch_in_use));
    family(&b, "cuzk_memory_in_flight_bytes", "gauge",
           "Bytes of the total memory budget reserved by partitions in flight (and PCE "
           "extractions running).");
    sb_printf(&b, "cuzk_memory_in_flight_bytes %llu\n",
              (unsigned long long)(e->mem_in_use - e->pce_in_use));
    family(&b, "cuzk_memory_pce_bytes", "gauge",
           "Bytes of the total memory budget held by the PCEs (compiled constraint matrices) "
           "of builtin circuits (engine.pce).");
    sb_printf(&b, "cuzk_memory_pce_bytes %llu\n", (unsigned long long)e->pce_in_use);
    family(&b, "cuzk_pce_partitions_total", "counter",
           "Partitions synthesised as a witness plus the circuit's PCE products.");
    for (size_t i = 0; i < e->n_circs; i++) {
        const srs_entry *c = e->circs[i];
        if (c->source == CUZK_CIRCUIT_BUILTIN)
            sb_printf(&b, "cuzk_pce_partitions_total{circuit=\"%s\"} %llu\n", c->id,
                      (unsigned long long)c->pce_partitions);
    }
    family(&b, "cuzk_memory_scratch_bytes", "gauge",
           "Bytes of the total memory budget charged for the prover workers' scratch (the L/A/B "
           "split; never released).");
    sb_printf(&b, "cuzk_memory_scratch_bytes %llu\n", (unsigned long long)e->scratch_in_use);
    family(&b, "cuzk_memory_budget_bytes", "gauge",
           "memory.total_budget: HOT parameter sets, partitions in flight and prover scratch "
           "together.");
    sb_printf(&b, "cuzk_memory_budget_bytes %llu\n", (unsigned long long)e->mem_budget);
    cuzk_host_pool_stats hs;
    cuzk_host_pool_get_stats(e->abc_pool, &hs);
    family(&b, "cuzk_abc_pool_bytes", "gauge",
           "Bytes of a/b/c buffers the pool holds (in use by partitions, or kept for the next).");
    sb_printf(&b, "cuzk_abc_pool_bytes{state=\"in_use\"} %llu\n",
              (unsigned long long)hs.bytes_in_use);
    sb_printf(&b, "cuzk_abc_pool_bytes{state=\"kept\"} %llu\n",
              (unsigned long long)(hs.bytes_held - hs.bytes_in_use));
    family(&b, "cuzk_abc_pool_limit_bytes", "gauge", "The a/b/c pool's budget (0: no pool).");
    sb_printf(&b, "cuzk_abc_pool_limit_bytes %llu\n", (unsigned long long)hs.max_bytes);
    family(&b, "cuzk_abc_pool_requests_total", "counter",
           "a/b/c vectors asked of the pool, by how they were served.");
    sb_printf(&b, "cuzk_abc_pool_requests_total{served=\"reused\"} %llu\n",
              (unsigned long long)hs.reused);
    sb_printf(&b, "cuzk_abc_pool_requests_total{served=\"new\"} %llu\n",
              (unsigned long long)(hs.requests - hs.reused - hs.fallback));
    sb_printf(&b, "cuzk_abc_pool_requests_total{served=\"fallback\"} %llu\n",
              (unsigned long long)hs.fallback);
    family(&b, "cuzk_gpu_events_total", "counter",
           "Device work in this process that took a path worth watching, per GPU the engine "
           "proves on: calls on a device's side lane (beside the main lane's work), fused H "
           "calls whose a and b were on the device already when they got it (staged: uploaded "
           "while another partition held it, or prefetched), a and b prefetched under the "
           "previous partition's H MSM, prefetches dropped untaken, MSM chunks streamed from "
           "host memory, MSMs over precomputed rows that lacked the memory for them and ran "
           "plain windows.");
    for (size_t d = 0; e->kind == CUZK_BACKEND_CUDA && d < e->cfg.n_devices; d++)
        for (int ev = 0; ev < CUZK__GPU_EV_COUNT; ev++)
            sb_printf(&b, "cuzk_gpu_events_total{gpu=\"%d\",event=\"%s\"} %zu\n", e->devices[d],
                      cuzk__gpu_event_name((cuzk__gpu_event)ev),
                      cuzk__gpu_event_count((cuzk__gpu_event)ev, e->devices[d]));
    /* One reading per device for both gauges (a family's samples must stay together). */
    const size_t n_res = e->kind == CUZK_BACKEND_CUDA ? e->cfg.n_devices : 0;
    uint64_t res_bytes[256]; /* engine.c: at most 256 devices */
    unsigned res_rows[256];
    for (size_t d = 0; d < n_res; d++)
        cuzk_backend_device_resident(e->devices[d], &res_bytes[d], &res_rows[d]);
    family(&b, "cuzk_gpu_resident_bytes", "gauge",
           "Device bytes of the parameter arrays resident on each GPU the engine proves on "
           "(each copy its workers share counted once; precomputed rows included).");
    for (size_t d = 0; d < n_res; d++)
        sb_printf(&b, "cuzk_gpu_resident_bytes{gpu=\"%d\"} %llu\n", e->devices[d],
                  (unsigned long long)res_bytes[d]);
    family(&b, "cuzk_gpu_h_precompute_rows", "gauge",
           "Precomputed rows of the H query built on each GPU the engine proves on (the most "
           "of any resident copy; fewer than gpus.h_precompute_rows when the rest did not fit, "
           "0: none).");
    for (size_t d = 0; d < n_res; d++)
        sb_printf(&b, "cuzk_gpu_h_precompute_rows{gpu=\"%d\"} %u\n", e->devices[d], res_rows[d]);
    family(&b, "cuzk_phase_duration_seconds", "histogram",
           "Duration of each phase of every proved partition.");
    for (int p = 0; p < CUZK_PHASE_COUNT; p++) {
        char label[64];
        snprintf(label, sizeof label, "phase=\"%s\"", cuzk_phase_name((cuzk_phase)p));
        hist(&b, "cuzk_phase_duration_seconds", label, &e->phase_hist[p]);
    }
    family(&b, "cuzk_proof_duration_seconds", "histogram",
           "Submit-to-completion time of every completed job.");
    hist(&b, "cuzk_proof_duration_seconds", "", &e->proof_hist);
    pthread_mutex_unlock(&e->mu);
    if (b.oom) {
        cuzk_free(b.buf);
        return cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
    }
    *out = b.buf;
    return CUZK_OK;
}

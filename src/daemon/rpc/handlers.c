/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * cuzk.v1 methods: request bytes -> engine call -> reply bytes. Semantics follow
 * shared/facts/formats.md section 6.4 (Curio's daemon) plus the comments in proving.proto and
 * include/cuzk/engine.h. Every failure is a gRPC status with a message; nothing a client sends
 * can make a handler crash or change engine state before it is validated.
 */
#include <grpc/status.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cuzk/alloc.h"
#include "cuzk/v1/proving.pb-c.h"
#include "daemon/log.h"
#include "daemon/rpc/handlers.h"

/* How often a long wait checks whether its client is still there. */
#define AWAIT_SLICE_MS 250

/* ---- waiting for a job --------------------------------------------------------------------- */

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

typedef enum { WAIT_DONE, WAIT_TIMEOUT, WAIT_GONE, WAIT_ERROR } wait_result;

/*
 * cuzk_engine_await in slices so that a client that cancels, or whose deadline passes, frees its
 * worker thread within AWAIT_SLICE_MS instead of holding it until the job ends. |timeout_ms| 0 =
 * no limit. On WAIT_DONE |out| holds the result; on WAIT_ERROR *st is the engine status.
 */
static wait_result await_job(cuzk_engine *e, cuzk_rpc_call *call, const char *job_id,
                             uint64_t timeout_ms, cuzk_job_result *out, cuzk_status *st)
{
    uint64_t deadline = timeout_ms ? now_ms() + timeout_ms : 0;
    if (deadline && deadline < timeout_ms)
        deadline = UINT64_MAX;
    for (;;) {
        uint64_t slice = AWAIT_SLICE_MS;
        if (deadline) {
            uint64_t now = now_ms();
            if (now >= deadline)
                return WAIT_TIMEOUT;
            if (deadline - now < slice)
                slice = deadline - now;
        }
        memset(out, 0, sizeof *out);
        *st = cuzk_engine_await(e, job_id, slice, out);
        bool timed_out = *st == CUZK_ERR_TIMEOUT ||
                         (*st == CUZK_OK && out->status == CUZK_JOB_TIMEOUT);
        if (!timed_out)
            return *st == CUZK_OK ? WAIT_DONE : WAIT_ERROR;
        cuzk_job_result_clear(out);
        if (cuzk__rpc_call_gone(call))
            return WAIT_GONE;
    }
}

/* Fills |resp| from |res|; |phases| and |phase_ptrs| (CUZK_PHASE_COUNT each) hold the phase
 * list. Strings point into |res|. */
static void await_response_of(Cuzk__V1__AwaitProofResponse *resp, cuzk_job_result *res,
                              Cuzk__V1__PhaseTiming *phases, Cuzk__V1__PhaseTiming **phase_ptrs)
{
    cuzk__v1__await_proof_response__init(resp);
    resp->job_id = res->job_id;
    resp->circuit_id = res->circuit_id;
    switch (res->status) {
    case CUZK_JOB_COMPLETED:
        resp->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
        break;
    case CUZK_JOB_FAILED:
        resp->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED;
        break;
    case CUZK_JOB_CANCELLED:
        resp->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED;
        break;
    case CUZK_JOB_TIMEOUT:
        resp->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT;
        break;
    default:
        resp->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__UNKNOWN;
        break;
    }
    resp->error_message = res->error;
    if (res->status != CUZK_JOB_COMPLETED)
        return; /* Curio: proof empty and timings 0 unless COMPLETED */
    resp->proof.data = res->proof;
    resp->proof.len = res->proof_len;
    resp->queue_wait_ms = res->queue_wait_ms;
    resp->srs_load_ms = res->srs_load_ms;
    resp->synthesis_ms = res->synthesis_ms;
    resp->gpu_compute_ms = res->gpu_compute_ms;
    resp->total_ms = res->total_ms;
    resp->public_inputs.data = res->public_inputs;
    resp->public_inputs.len = res->public_inputs_len;
    resp->num_public_inputs = res->n_public;
    resp->partitions = res->partitions;
    resp->backend = res->backend;
    resp->verified = res->verified;
    size_t n = 0;
    for (int p = 0; p < CUZK_PHASE_COUNT; p++) {
        const char *name = cuzk_phase_name((cuzk_phase)p);
        if (!name)
            continue;
        cuzk__v1__phase_timing__init(&phases[n]);
        phases[n].phase = (char *)name;
        phases[n].ms = res->phase_ms[p];
        phase_ptrs[n] = &phases[n];
        n++;
    }
    resp->n_phases = n;
    resp->phases = phase_ptrs;
}

static void log_outcome(const cuzk_job_result *res)
{
    if (res->status == CUZK_JOB_COMPLETED)
        cuzk__log_info("job %s completed: circuit %s, %u partition(s), %zu-byte proof on %s, "
                       "total %llu ms (queue %llu, synthesis %llu, gpu %llu)%s",
                       res->job_id, res->circuit_id, res->partitions, res->proof_len,
                       res->backend, (unsigned long long)res->total_ms,
                       (unsigned long long)res->queue_wait_ms,
                       (unsigned long long)res->synthesis_ms,
                       (unsigned long long)res->gpu_compute_ms,
                       res->verified ? ", verified" : ", NOT verified");
    else
        cuzk__log_info("job %s not completed (%s): %s", res->job_id,
                       res->status == CUZK_JOB_FAILED ? "FAILED" : "CANCELLED", res->error);
}

/* Shared tail of AwaitProof and Prove: wait, then build the AwaitProofResponse and hand it to
 * |pack| (which wraps it for Prove). */
static void wait_and_reply(cuzk_engine *e, cuzk_rpc_call *call, const char *job_id,
                           uint64_t timeout_ms, bool wrap_prove, cuzk_rpc_reply *r)
{
    cuzk_job_result res;
    cuzk_status st = CUZK_OK;
    wait_result w = await_job(e, call, job_id, timeout_ms, &res, &st);
    if (w == WAIT_ERROR) {
        cuzk__rpc_reply_engine_error(r, st, "AwaitProof");
        return;
    }
    if (w == WAIT_GONE) {
        cuzk__rpc_reply_error(r, GRPC_STATUS_CANCELLED, "the client went away; job %s goes on",
                              job_id);
        return;
    }
    if (w == WAIT_TIMEOUT) {
        memset(&res, 0, sizeof res);
        snprintf(res.job_id, sizeof res.job_id, "%s", job_id);
        res.status = CUZK_JOB_TIMEOUT;
        snprintf(res.error, sizeof res.error,
                 "not finished after %llu ms; the job goes on (await it again)",
                 (unsigned long long)timeout_ms);
    } else {
        log_outcome(&res);
    }
    Cuzk__V1__AwaitProofResponse resp;
    Cuzk__V1__PhaseTiming phases[CUZK_PHASE_COUNT];
    Cuzk__V1__PhaseTiming *phase_ptrs[CUZK_PHASE_COUNT];
    await_response_of(&resp, &res, phases, phase_ptrs);
    if (wrap_prove) {
        Cuzk__V1__ProveResponse pr = CUZK__V1__PROVE_RESPONSE__INIT;
        pr.result = &resp;
        cuzk__rpc_reply_message(r, &pr.base);
    } else {
        cuzk__rpc_reply_message(r, &resp.base);
    }
    if (w == WAIT_DONE)
        cuzk_job_result_clear(&res);
}

/* ---- methods ------------------------------------------------------------------------------- */

/* Decodes the request into |var| or answers INVALID_ARGUMENT naming the expected message. */
#define UNPACK(type, prefix, var, data, len, r)                                                    \
    type *var = prefix##__unpack(&cuzk__rpc_pb_allocator, len, data);                              \
    if (!var) {                                                                                    \
        cuzk__rpc_reply_error(r, GRPC_STATUS_INVALID_ARGUMENT,                                     \
                              "the request is not a valid %s message", prefix##__descriptor.name); \
        return;                                                                                    \
    }

/* Submits |m|; on success |info| names the job. */
static bool submit(cuzk_engine *e, const Cuzk__V1__SubmitProofRequest *m, cuzk_submit_info *info,
                   cuzk_rpc_reply *r)
{
    cuzk_job_request req;
    if (!cuzk__rpc_job_request_of(r, m, &req))
        return false;
    memset(info, 0, sizeof *info);
    cuzk_status st = cuzk_engine_submit(e, &req, info);
    cuzk__rpc_job_request_clear(&req);
    if (st != CUZK_OK) {
        cuzk__rpc_reply_engine_error(r, st, "SubmitProof");
        return false;
    }
    cuzk__log_info("job %s %s: %s %s, %u partition(s), priority %d, queue position %u",
                   info->job_id, info->existing ? "already known" : "accepted",
                   cuzk__rpc_kind_name(req.kind), req.circuit_id ? req.circuit_id : "",
                   req.partitions ? req.partitions : 1, (int)req.priority, info->queue_position);
    return true;
}

static void h_submit(cuzk_engine *e, cuzk_rpc_call *call, const uint8_t *data, size_t len,
                     cuzk_rpc_reply *r)
{
    (void)call;
    UNPACK(Cuzk__V1__SubmitProofRequest, cuzk__v1__submit_proof_request, m, data, len, r);
    cuzk_submit_info info;
    if (submit(e, m, &info, r)) {
        Cuzk__V1__SubmitProofResponse resp = CUZK__V1__SUBMIT_PROOF_RESPONSE__INIT;
        resp.job_id = info.job_id;
        resp.queue_position = info.queue_position;
        resp.assigned_gpu = info.assigned_gpu;
        resp.existing_job = info.existing;
        cuzk__rpc_reply_message(r, &resp.base);
    }
    cuzk__v1__submit_proof_request__free_unpacked(m, &cuzk__rpc_pb_allocator);
}

static void h_await(cuzk_engine *e, cuzk_rpc_call *call, const uint8_t *data, size_t len,
                    cuzk_rpc_reply *r)
{
    UNPACK(Cuzk__V1__AwaitProofRequest, cuzk__v1__await_proof_request, m, data, len, r);
    if (cuzk__rpc_check_id(r, "job_id", m->job_id, true))
        wait_and_reply(e, call, m->job_id, m->timeout_ms, false, r);
    cuzk__v1__await_proof_request__free_unpacked(m, &cuzk__rpc_pb_allocator);
}

static void h_prove(cuzk_engine *e, cuzk_rpc_call *call, const uint8_t *data, size_t len,
                    cuzk_rpc_reply *r)
{
    UNPACK(Cuzk__V1__ProveRequest, cuzk__v1__prove_request, m, data, len, r);
    cuzk_submit_info info;
    if (!m->submit)
        cuzk__rpc_reply_error(r, GRPC_STATUS_INVALID_ARGUMENT, "Prove needs its submit field");
    else if (submit(e, m->submit, &info, r))
        wait_and_reply(e, call, info.job_id, 0, true, r);
    cuzk__v1__prove_request__free_unpacked(m, &cuzk__rpc_pb_allocator);
}

static void h_cancel(cuzk_engine *e, cuzk_rpc_call *call, const uint8_t *data, size_t len,
                     cuzk_rpc_reply *r)
{
    (void)call;
    UNPACK(Cuzk__V1__CancelProofRequest, cuzk__v1__cancel_proof_request, m, data, len, r);
    if (cuzk__rpc_check_id(r, "job_id", m->job_id, true)) {
        bool was_running = false, cancelled = false;
        cuzk_status st = cuzk_engine_cancel(e, m->job_id, &was_running, &cancelled);
        if (st != CUZK_OK) {
            cuzk__rpc_reply_engine_error(r, st, "CancelProof");
        } else {
            cuzk__log_info("job %s: cancel requested (%s)", m->job_id,
                           !cancelled ? "already finished"
                           : was_running ? "was running" : "was pending");
            Cuzk__V1__CancelProofResponse resp = CUZK__V1__CANCEL_PROOF_RESPONSE__INIT;
            resp.was_running = was_running;
            resp.cancelled = cancelled;
            cuzk__rpc_reply_message(r, &resp.base);
        }
    }
    cuzk__v1__cancel_proof_request__free_unpacked(m, &cuzk__rpc_pb_allocator);
}

static void free_strings(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        cuzk_free(v[i]);
    cuzk_free(v);
}

/* GetStatus's extension lists (workers, pipelines and their partitions), pointing into |s|. */
typedef struct {
    Cuzk__V1__WorkerStatus *w;
    Cuzk__V1__PipelineStatus *p;
    Cuzk__V1__PartitionStatus *q;
    void **ptrs;
} status_ext;

static void status_ext_free(status_ext *x)
{
    cuzk_free(x->w);
    cuzk_free(x->p);
    cuzk_free(x->q);
    cuzk_free(x->ptrs);
}

static bool status_ext_fill(status_ext *x, const cuzk_engine_status *s,
                            Cuzk__V1__GetStatusResponse *resp)
{
    size_t nq = 0;
    for (size_t i = 0; i < s->n_pipelines; i++)
        nq += s->pipelines[i].total_partitions;
    x->w = cuzk_calloc_array(s->n_workers + 1, sizeof *x->w);
    x->p = cuzk_calloc_array(s->n_pipelines + 1, sizeof *x->p);
    x->q = cuzk_calloc_array(nq + 1, sizeof *x->q);
    x->ptrs = cuzk_calloc_array(s->n_workers + s->n_pipelines + nq + 1, sizeof *x->ptrs);
    if (!x->w || !x->p || !x->q || !x->ptrs)
        return false;
    void **pp = x->ptrs;
    resp->workers = (Cuzk__V1__WorkerStatus **)pp;
    resp->n_workers = s->n_workers;
    for (size_t i = 0; i < s->n_workers; i++) {
        const cuzk_engine_worker_status *a = &s->workers[i];
        Cuzk__V1__WorkerStatus *o = &x->w[i];
        cuzk__v1__worker_status__init(o);
        o->worker_id = a->worker_id;
        o->gpu_ordinal = a->device;
        o->current_job_id = (char *)a->current_job;
        o->current_proof_kind = (char *)a->current_kind;
        o->current_partition = a->current_partition;
        o->busy_secs = a->busy_secs;
        o->scratch_bytes = a->scratch_bytes;
        *pp++ = o;
    }
    resp->pipelines = (Cuzk__V1__PipelineStatus **)pp;
    resp->n_pipelines = s->n_pipelines;
    pp += s->n_pipelines;
    Cuzk__V1__PartitionStatus *q = x->q;
    for (size_t i = 0; i < s->n_pipelines; i++) {
        const cuzk_engine_pipeline_status *a = &s->pipelines[i];
        Cuzk__V1__PipelineStatus *o = &x->p[i];
        cuzk__v1__pipeline_status__init(o);
        o->job_id = (char *)a->job_id;
        o->proof_kind = (char *)a->kind;
        o->outcome = (char *)cuzk_pipeline_outcome_name(a->outcome);
        o->started_secs_ago = a->started_secs_ago;
        o->total_partitions = a->total_partitions;
        o->partitions_done = a->partitions_done;
        o->partitions = (Cuzk__V1__PartitionStatus **)pp;
        o->n_partitions = a->total_partitions;
        for (uint32_t k = 0; k < a->total_partitions; k++, q++) {
            cuzk__v1__partition_status__init(q);
            q->index = k;
            q->state = (char *)cuzk_partition_state_name(a->partitions[k].state);
            q->synth_ms = a->partitions[k].synth_ms;
            q->prove_ms = a->partitions[k].prove_ms;
            *pp++ = q;
        }
        resp->pipelines[i] = o;
    }
    return true;
}

static void h_status(cuzk_engine *e, cuzk_rpc_call *call, const uint8_t *data, size_t len,
                     cuzk_rpc_reply *r)
{
    (void)call;
    UNPACK(Cuzk__V1__GetStatusRequest, cuzk__v1__get_status_request, m, data, len, r);
    cuzk__v1__get_status_request__free_unpacked(m, &cuzk__rpc_pb_allocator);

    cuzk_engine_status s;
    memset(&s, 0, sizeof s);
    cuzk_status st = cuzk_engine_status_get(e, &s);
    if (st != CUZK_OK) {
        cuzk__rpc_reply_engine_error(r, st, "GetStatus");
        return;
    }
    char **ids = NULL;
    size_t n_ids = 0;
    if ((st = cuzk_engine_circuits(e, &ids, &n_ids)) != CUZK_OK) {
        cuzk__rpc_reply_engine_error(r, st, "GetStatus");
        cuzk_engine_status_clear(&s);
        return;
    }
    size_t total = s.n_gpus + s.n_srs + s.n_queues;
    Cuzk__V1__GPUStatus *gpus = cuzk_calloc_array(s.n_gpus + 1, sizeof *gpus);
    Cuzk__V1__SRSStatus *srs = cuzk_calloc_array(s.n_srs + 1, sizeof *srs);
    Cuzk__V1__QueueStatus *qs = cuzk_calloc_array(s.n_queues + 1, sizeof *qs);
    void **ptrs = cuzk_calloc_array(total + 1, sizeof *ptrs);
    status_ext ext = {0};
    Cuzk__V1__GetStatusResponse resp = CUZK__V1__GET_STATUS_RESPONSE__INIT;
    if (!gpus || !srs || !qs || !ptrs || !status_ext_fill(&ext, &s, &resp)) {
        cuzk__rpc_reply_error(r, GRPC_STATUS_RESOURCE_EXHAUSTED,
                              "out of memory building the status");
        goto out;
    }
    void **pp = ptrs;
    resp.gpus = (Cuzk__V1__GPUStatus **)pp;
    resp.n_gpus = s.n_gpus;
    for (size_t i = 0; i < s.n_gpus; i++) {
        cuzk__v1__gpustatus__init(&gpus[i]);
        gpus[i].ordinal = s.gpus[i].ordinal;
        gpus[i].name = s.gpus[i].name;
        gpus[i].vram_total_bytes = s.gpus[i].vram_total;
        gpus[i].vram_free_bytes = s.gpus[i].vram_free;
        gpus[i].current_job_id = s.gpus[i].current_job;
        gpus[i].current_proof_kind = s.gpus[i].current_kind;
        *pp++ = &gpus[i];
    }
    resp.loaded_srs = (Cuzk__V1__SRSStatus **)pp;
    resp.n_loaded_srs = s.n_srs;
    for (size_t i = 0; i < s.n_srs; i++) {
        cuzk__v1__srsstatus__init(&srs[i]);
        srs[i].circuit_id = s.srs[i].circuit_id;
        srs[i].tier = (Cuzk__V1__SRSStatus__Tier)s.srs[i].tier;
        srs[i].size_bytes = s.srs[i].size_bytes;
        srs[i].ref_count = s.srs[i].ref_count;
        *pp++ = &srs[i];
    }
    resp.queues = (Cuzk__V1__QueueStatus **)pp;
    resp.n_queues = s.n_queues;
    for (size_t i = 0; i < s.n_queues; i++) {
        cuzk__v1__queue_status__init(&qs[i]);
        qs[i].proof_kind = s.queues[i].kind;
        qs[i].pending = s.queues[i].pending;
        qs[i].in_progress = s.queues[i].in_progress;
        *pp++ = &qs[i];
    }
    resp.total_proofs_completed = s.completed;
    resp.total_proofs_failed = s.failed;
    resp.total_proofs_cancelled = s.cancelled;
    resp.uptime_seconds = s.uptime_s;
    resp.pinned_memory_bytes = s.pinned_bytes;
    resp.pinned_memory_limit_bytes = s.pinned_limit;
    resp.memory_budget_bytes = s.memory_budget;
    resp.memory_in_use_bytes = s.memory_in_use;
    resp.memory_in_flight_bytes = s.memory_in_flight;
    resp.memory_scratch_bytes = s.memory_scratch;
    resp.version = (char *)CUZK_VERSION;
    resp.circuits = ids;
    resp.n_circuits = n_ids;
    cuzk__rpc_reply_message(r, &resp.base);
out:
    cuzk_free(gpus);
    cuzk_free(srs);
    cuzk_free(qs);
    cuzk_free(ptrs);
    status_ext_free(&ext);
    free_strings(ids, n_ids);
    cuzk_engine_status_clear(&s);
}

static void h_metrics(cuzk_engine *e, cuzk_rpc_call *call, const uint8_t *data, size_t len,
                      cuzk_rpc_reply *r)
{
    UNPACK(Cuzk__V1__GetMetricsRequest, cuzk__v1__get_metrics_request, m, data, len, r);
    cuzk__v1__get_metrics_request__free_unpacked(m, &cuzk__rpc_pb_allocator);
    char *text = NULL;
    cuzk_status st = cuzk_engine_metrics(e, &text);
    if (st != CUZK_OK) {
        cuzk__rpc_reply_engine_error(r, st, "GetMetrics");
        return;
    }
    char *ours = cuzk__rpc_call_server_metrics(call);
    size_t a = strlen(text), b = ours ? strlen(ours) : 0;
    char *all = cuzk_alloc(a + b + 1);
    if (!all) {
        cuzk__rpc_reply_error(r, GRPC_STATUS_RESOURCE_EXHAUSTED,
                              "out of memory building the metrics");
    } else {
        memcpy(all, text, a);
        if (b)
            memcpy(all + a, ours, b);
        all[a + b] = '\0';
        Cuzk__V1__GetMetricsResponse resp = CUZK__V1__GET_METRICS_RESPONSE__INIT;
        resp.prometheus_text = all;
        cuzk__rpc_reply_message(r, &resp.base);
    }
    cuzk_free(all);
    cuzk_free(ours);
    cuzk_free(text);
}

static void h_preload(cuzk_engine *e, cuzk_rpc_call *call, const uint8_t *data, size_t len,
                      cuzk_rpc_reply *r)
{
    (void)call;
    UNPACK(Cuzk__V1__PreloadSrsRequest, cuzk__v1__preload_srs_request, m, data, len, r);
    if (cuzk__rpc_check_id(r, "circuit_id", m->circuit_id, true)) {
        bool already = false;
        uint64_t ms = 0;
        cuzk_status st = cuzk_engine_preload(e, m->circuit_id, &already, &ms);
        if (st != CUZK_OK) {
            cuzk__rpc_reply_engine_error(r, st, "PreloadSRS");
        } else {
            cuzk__log_info("circuit %s: parameters %s (%llu ms)", m->circuit_id,
                           already ? "already loaded" : "loaded", (unsigned long long)ms);
            Cuzk__V1__PreloadSrsResponse resp = CUZK__V1__PRELOAD_SRS_RESPONSE__INIT;
            resp.already_loaded = already;
            resp.load_time_ms = ms;
            cuzk__rpc_reply_message(r, &resp.base);
        }
    }
    cuzk__v1__preload_srs_request__free_unpacked(m, &cuzk__rpc_pb_allocator);
}

static void h_evict(cuzk_engine *e, cuzk_rpc_call *call, const uint8_t *data, size_t len,
                    cuzk_rpc_reply *r)
{
    (void)call;
    UNPACK(Cuzk__V1__EvictSrsRequest, cuzk__v1__evict_srs_request, m, data, len, r);
    if (cuzk__rpc_check_id(r, "circuit_id", m->circuit_id, true)) {
        bool was_loaded = false;
        uint64_t freed = 0;
        cuzk_status st = cuzk_engine_evict(e, m->circuit_id, &was_loaded, &freed);
        if (st != CUZK_OK) {
            cuzk__rpc_reply_engine_error(r, st, "EvictSRS");
        } else {
            cuzk__log_info("circuit %s: parameters %s (%llu bytes freed)", m->circuit_id,
                           was_loaded ? "evicted" : "were not loaded",
                           (unsigned long long)freed);
            Cuzk__V1__EvictSrsResponse resp = CUZK__V1__EVICT_SRS_RESPONSE__INIT;
            resp.was_loaded = was_loaded;
            resp.freed_bytes = freed;
            cuzk__rpc_reply_message(r, &resp.base);
        }
    }
    cuzk__v1__evict_srs_request__free_unpacked(m, &cuzk__rpc_pb_allocator);
}

static void h_circuit_info(cuzk_engine *e, cuzk_rpc_call *call, const uint8_t *data, size_t len,
                           cuzk_rpc_reply *r)
{
    (void)call;
    UNPACK(Cuzk__V1__GetCircuitInfoRequest, cuzk__v1__get_circuit_info_request, m, data,
           len, r);
    if (cuzk__rpc_check_id(r, "circuit_id", m->circuit_id, true)) {
        cuzk_engine_circuit_info info;
        memset(&info, 0, sizeof info);
        cuzk_status st = cuzk_engine_circuit_info_get(e, m->circuit_id, &info);
        if (st != CUZK_OK) {
            cuzk__rpc_reply_engine_error(r, st, "GetCircuitInfo");
        } else {
            Cuzk__V1__GetCircuitInfoResponse resp = CUZK__V1__GET_CIRCUIT_INFO_RESPONSE__INIT;
            resp.circuit_id = info.id;
            resp.source = info.source;
            resp.verifying_key.data = info.vk;
            resp.verifying_key.len = info.vk_len;
            resp.num_public_inputs = info.n_public_inputs;
            resp.num_constraints = info.n_constraints;
            cuzk__rpc_reply_message(r, &resp.base);
            cuzk_engine_circuit_info_clear(&info);
        }
    }
    cuzk__v1__get_circuit_info_request__free_unpacked(m, &cuzk__rpc_pb_allocator);
}

#define SERVICE "/cuzk.v1.ProvingEngine/"
static const cuzk_rpc_method methods[] = {
    {SERVICE "SubmitProof", "SubmitProof", h_submit, true},
    {SERVICE "AwaitProof", "AwaitProof", h_await, false},
    {SERVICE "Prove", "Prove", h_prove, false},
    {SERVICE "CancelProof", "CancelProof", h_cancel, true},
    {SERVICE "GetStatus", "GetStatus", h_status, true},
    {SERVICE "GetMetrics", "GetMetrics", h_metrics, true},
    {SERVICE "PreloadSRS", "PreloadSRS", h_preload, false},
    {SERVICE "EvictSRS", "EvictSRS", h_evict, true},
    {SERVICE "GetCircuitInfo", "GetCircuitInfo", h_circuit_info, false}, /* may make params */
};

const cuzk_rpc_method *cuzk__rpc_method_find(const char *path, size_t len)
{
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
        if (strlen(methods[i].path) == len && memcmp(methods[i].path, path, len) == 0)
            return &methods[i];
    return NULL;
}

const cuzk_rpc_method *cuzk__rpc_methods(size_t *n)
{
    *n = sizeof methods / sizeof methods[0];
    return methods;
}

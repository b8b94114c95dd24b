/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* status, preload, evict, cancel, metrics and circuit-info against the daemon. */
#include "cmd_client.h"
#include "commands.h"
#include "cuzk/engine.h"

#include <cjson/cJSON.h>
#include <string.h>

#define QUICK_DEADLINE_MS 30000

/* Parses the common flags plus one required "--<name> VALUE" (|alias| also accepted). */
static int parse_one(cli_common *cc, int argc, char **argv, const char *name, const char *alias,
                     const char *alias2, const char **value, const char *opt_name,
                     const char **opt_value)
{
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int r = cli_common_opt(cc, argc, argv, &i);
        if (r < 0)
            return CLI_ERR;
        if (r > 0)
            continue;
        const char **slot = NULL;
        if (name && (strcmp(a, name) == 0 || (alias && strcmp(a, alias) == 0) ||
                     (alias2 && strcmp(a, alias2) == 0)))
            slot = value;
        else if (opt_name && strcmp(a, opt_name) == 0)
            slot = opt_value;
        if (!slot)
            return cli_unknown(cc->cmd, a);
        if (!(*slot = cli_value(cc->cmd, argc, argv, &i)))
            return CLI_ERR;
    }
    if (name && (!*value || !**value)) {
        fprintf(stderr, "cuzk-bench %s: %s is required\n", cc->cmd, name);
        return CLI_ERR;
    }
    return CLI_OK;
}

/* Connects and makes one call; CLI_OK with *m set, else the error is printed. */
static int call_once(const cli_common *cc, const char *method, const ProtobufCMessage *req,
                     const ProtobufCMessageDescriptor *desc, ProtobufCMessage **m)
{
    bench_client *c = NULL;
    if (!cli_connect(cc, &c))
        return CLI_ERR;
    rpc_status st;
    int rc = CLI_OK;
    if (!client_call(c, method, req, desc, m, cc->deadline_ms, NULL, NULL, &st))
        rc = cli_rpc_error(cc, method, &st);
    client_close(c);
    return rc;
}

static void print_json(cJSON *o)
{
    char *s = cJSON_Print(o);
    if (s)
        printf("%s\n", s);
    cJSON_free(s);
    cJSON_Delete(o);
}

static const char *tier_name(int t)
{
    return t == 0 ? "HOT" : t == 1 ? "WARM" : t == 2 ? "COLD" : "?";
}

static void status_json(const Cuzk__V1__GetStatusResponse *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "version", r->version);
    cJSON_AddNumberToObject(o, "uptime_seconds", (double)r->uptime_seconds);
    cJSON_AddNumberToObject(o, "total_proofs_completed", (double)r->total_proofs_completed);
    cJSON_AddNumberToObject(o, "total_proofs_failed", (double)r->total_proofs_failed);
    cJSON_AddNumberToObject(o, "total_proofs_cancelled", (double)r->total_proofs_cancelled);
    cJSON_AddNumberToObject(o, "pinned_memory_bytes", (double)r->pinned_memory_bytes);
    cJSON_AddNumberToObject(o, "pinned_memory_limit_bytes", (double)r->pinned_memory_limit_bytes);
    cJSON_AddNumberToObject(o, "memory_in_use_bytes", (double)r->memory_in_use_bytes);
    cJSON_AddNumberToObject(o, "memory_in_flight_bytes", (double)r->memory_in_flight_bytes);
    cJSON_AddNumberToObject(o, "memory_scratch_bytes", (double)r->memory_scratch_bytes);
    cJSON_AddNumberToObject(o, "memory_budget_bytes", (double)r->memory_budget_bytes);
    cJSON *g = cJSON_AddArrayToObject(o, "gpus");
    for (size_t i = 0; i < r->n_gpus; i++) {
        const Cuzk__V1__GPUStatus *x = r->gpus[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "ordinal", x->ordinal);
        cJSON_AddStringToObject(e, "name", x->name);
        cJSON_AddNumberToObject(e, "vram_total_bytes", (double)x->vram_total_bytes);
        cJSON_AddNumberToObject(e, "vram_free_bytes", (double)x->vram_free_bytes);
        cJSON_AddStringToObject(e, "current_job_id", x->current_job_id);
        cJSON_AddStringToObject(e, "current_proof_kind", x->current_proof_kind);
        cJSON_AddItemToArray(g, e);
    }
    cJSON *s = cJSON_AddArrayToObject(o, "loaded_srs");
    for (size_t i = 0; i < r->n_loaded_srs; i++) {
        const Cuzk__V1__SRSStatus *x = r->loaded_srs[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "circuit_id", x->circuit_id);
        cJSON_AddStringToObject(e, "tier", tier_name(x->tier));
        cJSON_AddNumberToObject(e, "size_bytes", (double)x->size_bytes);
        cJSON_AddNumberToObject(e, "ref_count", x->ref_count);
        cJSON_AddItemToArray(s, e);
    }
    cJSON *q = cJSON_AddArrayToObject(o, "queues");
    for (size_t i = 0; i < r->n_queues; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "proof_kind", r->queues[i]->proof_kind);
        cJSON_AddNumberToObject(e, "pending", r->queues[i]->pending);
        cJSON_AddNumberToObject(e, "in_progress", r->queues[i]->in_progress);
        cJSON_AddItemToArray(q, e);
    }
    cJSON *c = cJSON_AddArrayToObject(o, "circuits");
    for (size_t i = 0; i < r->n_circuits; i++)
        cJSON_AddItemToArray(c, cJSON_CreateString(r->circuits[i]));
    cJSON *w = cJSON_AddArrayToObject(o, "workers");
    for (size_t i = 0; i < r->n_workers; i++) {
        const Cuzk__V1__WorkerStatus *x = r->workers[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "worker_id", x->worker_id);
        cJSON_AddNumberToObject(e, "gpu_ordinal", x->gpu_ordinal);
        cJSON_AddStringToObject(e, "current_job_id", x->current_job_id);
        cJSON_AddStringToObject(e, "current_proof_kind", x->current_proof_kind);
        cJSON_AddNumberToObject(e, "current_partition", x->current_partition);
        cJSON_AddNumberToObject(e, "busy_secs", x->busy_secs);
        cJSON_AddNumberToObject(e, "scratch_bytes", (double)x->scratch_bytes);
        cJSON_AddItemToArray(w, e);
    }
    cJSON *pl = cJSON_AddArrayToObject(o, "pipelines");
    for (size_t i = 0; i < r->n_pipelines; i++) {
        const Cuzk__V1__PipelineStatus *x = r->pipelines[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "job_id", x->job_id);
        cJSON_AddStringToObject(e, "proof_kind", x->proof_kind);
        cJSON_AddStringToObject(e, "outcome", x->outcome);
        cJSON_AddNumberToObject(e, "started_secs_ago", x->started_secs_ago);
        cJSON_AddNumberToObject(e, "total_partitions", x->total_partitions);
        cJSON_AddNumberToObject(e, "partitions_done", x->partitions_done);
        cJSON *ps = cJSON_AddArrayToObject(e, "partitions");
        for (size_t k = 0; k < x->n_partitions; k++) {
            const Cuzk__V1__PartitionStatus *q = x->partitions[k];
            cJSON *pe = cJSON_CreateObject();
            cJSON_AddNumberToObject(pe, "index", q->index);
            cJSON_AddStringToObject(pe, "state", q->state);
            cJSON_AddNumberToObject(pe, "synth_ms", q->synth_ms);
            cJSON_AddNumberToObject(pe, "prove_ms", q->prove_ms);
            cJSON_AddItemToArray(ps, pe);
        }
        cJSON_AddItemToArray(pl, e);
    }
    print_json(o);
}

/* One letter per partition state, for the text status: a job's partitions at a glance. */
static char state_letter(const char *s)
{
    static const char letters[] = ".sqpdFc"; /* in cuzk_partition_state order */
    for (int i = CUZK_PART_PENDING; i <= CUZK_PART_CANCELLED; i++)
        if (strcmp(s, cuzk_partition_state_name((cuzk_partition_state)i)) == 0)
            return letters[i];
    return '?';
}

static void status_text(const Cuzk__V1__GetStatusResponse *r)
{
    char b1[32], b2[32];
    uint64_t up = r->uptime_seconds;
    printf("=== cuzk daemon status ===\n");
    if (r->version[0])
        printf("version:          %s\n", r->version);
    printf("uptime:           %llus (%lluh %02llum %02llus)\n", (unsigned long long)up,
           (unsigned long long)(up / 3600), (unsigned long long)(up / 60 % 60),
           (unsigned long long)(up % 60));
    printf("proofs completed: %llu\n", (unsigned long long)r->total_proofs_completed);
    printf("proofs failed:    %llu\n", (unsigned long long)r->total_proofs_failed);
    printf("proofs cancelled: %llu\n", (unsigned long long)r->total_proofs_cancelled);
    printf("pinned memory:    %llu / %llu bytes (%s / %s)\n",
           (unsigned long long)r->pinned_memory_bytes,
           (unsigned long long)r->pinned_memory_limit_bytes,
           cli_bytes(b1, sizeof b1, r->pinned_memory_bytes),
           cli_bytes(b2, sizeof b2, r->pinned_memory_limit_bytes));
    /* The budget holds the HOT sets (pinned), the partitions in flight and the prover workers'
     * scratch. */
    char b3[32], b4[32], b5[32];
    printf("memory:           in use %s (parameter sets %s, partitions %s, prover scratch %s) / "
           "budget %s\n",
           cli_bytes(b1, sizeof b1, r->memory_in_use_bytes),
           cli_bytes(b3, sizeof b3, r->pinned_memory_bytes),
           cli_bytes(b4, sizeof b4, r->memory_in_flight_bytes),
           cli_bytes(b5, sizeof b5, r->memory_scratch_bytes),
           cli_bytes(b2, sizeof b2, r->memory_budget_bytes));
    if (!r->n_gpus) {
        printf("\nGPUs:             none (CPU proving)\n");
    } else {
        printf("\nGPUs:\n");
        for (size_t i = 0; i < r->n_gpus; i++) {
            const Cuzk__V1__GPUStatus *g = r->gpus[i];
            printf("  [%u] %s — %llu MiB / %llu MiB VRAM — ", g->ordinal, g->name,
                   (unsigned long long)(g->vram_free_bytes >> 20),
                   (unsigned long long)(g->vram_total_bytes >> 20));
            if (g->current_job_id[0])
                printf("proving %s (%s)\n", g->current_proof_kind, g->current_job_id);
            else
                printf("idle\n");
        }
    }
    printf("\nLoaded SRS:%s\n", r->n_loaded_srs ? "" : "       none");
    for (size_t i = 0; i < r->n_loaded_srs; i++) {
        const Cuzk__V1__SRSStatus *s = r->loaded_srs[i];
        printf("  %-24s tier=%-4s size=%s refs=%u\n", s->circuit_id, tier_name(s->tier),
               cli_bytes(b1, sizeof b1, s->size_bytes), s->ref_count);
    }
    printf("\nQueues:%s\n", r->n_queues ? "" : "           empty");
    for (size_t i = 0; i < r->n_queues; i++)
        printf("  %s: pending=%u, in_progress=%u\n", r->queues[i]->proof_kind,
               r->queues[i]->pending, r->queues[i]->in_progress);
    bool busy = false;
    for (size_t i = 0; i < r->n_workers; i++)
        busy |= r->workers[i]->current_job_id[0] != '\0';
    printf("\nProver workers:   %zu%s\n", r->n_workers, busy ? "" : ", all idle");
    for (size_t i = 0; busy && i < r->n_workers; i++) {
        const Cuzk__V1__WorkerStatus *w = r->workers[i];
        printf("  [%u] %-7s ", w->worker_id, w->gpu_ordinal < 0 ? "cpu" : "gpu");
        if (w->current_job_id[0])
            printf("%s partition %u of %s, %.1f s\n", w->current_proof_kind, w->current_partition,
                   w->current_job_id, w->busy_secs);
        else
            printf("idle\n");
    }
    if (r->n_pipelines) {
        printf("\nPipelines (. pending, s synthesizing, q synthesised, p proving, d done, F failed,"
               " c cancelled):\n");
        for (size_t i = 0; i < r->n_pipelines; i++) {
            const Cuzk__V1__PipelineStatus *x = r->pipelines[i];
            printf("  %s %s %s %u/%u, started %.0f s ago: ", x->job_id, x->proof_kind, x->outcome,
                   x->partitions_done, x->total_partitions, x->started_secs_ago);
            for (size_t k = 0; k < x->n_partitions; k++)
                putchar(state_letter(x->partitions[k]->state));
            putchar('\n');
        }
    }
    printf("\nCircuits:        ");
    for (size_t i = 0; i < r->n_circuits; i++)
        printf("%s%s", i ? ", " : " ", r->circuits[i]);
    printf("%s\n", r->n_circuits ? "" : " none");
}

int cmd_client_status(int argc, char **argv)
{
    cli_common cc;
    cli_common_init(&cc, "status", QUICK_DEADLINE_MS);
    if (parse_one(&cc, argc, argv, NULL, NULL, NULL, NULL, NULL, NULL) != CLI_OK)
        return CLI_ERR;
    Cuzk__V1__GetStatusRequest req;
    cuzk__v1__get_status_request__init(&req);
    ProtobufCMessage *m = NULL;
    int rc = call_once(&cc, "GetStatus", &req.base, &cuzk__v1__get_status_response__descriptor, &m);
    if (rc == CLI_OK) {
        if (cc.json)
            status_json((Cuzk__V1__GetStatusResponse *)m);
        else
            status_text((Cuzk__V1__GetStatusResponse *)m);
    }
    client_free_msg(m);
    return rc;
}

int cmd_client_preload(int argc, char **argv)
{
    cli_common cc;
    const char *id = NULL;
    cli_common_init(&cc, "preload", 0); /* loading (or generating) parameters takes a while */
    if (parse_one(&cc, argc, argv, "--circuit", "--circuit-id", "-c", &id, NULL, NULL) != CLI_OK)
        return CLI_ERR;
    Cuzk__V1__PreloadSrsRequest req;
    cuzk__v1__preload_srs_request__init(&req);
    req.circuit_id = (char *)id;
    ProtobufCMessage *m = NULL;
    double t0 = cli_now_ms();
    int rc =
        call_once(&cc, "PreloadSRS", &req.base, &cuzk__v1__preload_srs_response__descriptor, &m);
    if (rc == CLI_OK) {
        Cuzk__V1__PreloadSrsResponse *r = (Cuzk__V1__PreloadSrsResponse *)m;
        if (cc.json) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "circuit_id", id);
            cJSON_AddBoolToObject(o, "already_loaded", r->already_loaded);
            cJSON_AddNumberToObject(o, "load_time_ms", (double)r->load_time_ms);
            cJSON_AddNumberToObject(o, "wall_ms", cli_r3(cli_now_ms() - t0));
            print_json(o);
        } else if (r->already_loaded) {
            printf("%s already loaded\n", id);
        } else {
            printf("%s loaded in %llu ms\n", id, (unsigned long long)r->load_time_ms);
        }
    }
    client_free_msg(m);
    return rc;
}

int cmd_client_evict(int argc, char **argv)
{
    cli_common cc;
    const char *id = NULL;
    cli_common_init(&cc, "evict", QUICK_DEADLINE_MS);
    if (parse_one(&cc, argc, argv, "--circuit", "--circuit-id", "-c", &id, NULL, NULL) != CLI_OK)
        return CLI_ERR;
    Cuzk__V1__EvictSrsRequest req;
    cuzk__v1__evict_srs_request__init(&req);
    req.circuit_id = (char *)id;
    ProtobufCMessage *m = NULL;
    int rc = call_once(&cc, "EvictSRS", &req.base, &cuzk__v1__evict_srs_response__descriptor, &m);
    if (rc == CLI_OK) {
        Cuzk__V1__EvictSrsResponse *r = (Cuzk__V1__EvictSrsResponse *)m;
        char b[32];
        if (cc.json) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "circuit_id", id);
            cJSON_AddBoolToObject(o, "was_loaded", r->was_loaded);
            cJSON_AddNumberToObject(o, "freed_bytes", (double)r->freed_bytes);
            print_json(o);
        } else if (r->was_loaded) {
            printf("%s evicted: was_loaded=true, freed %llu bytes (%s)\n", id,
                   (unsigned long long)r->freed_bytes, cli_bytes(b, sizeof b, r->freed_bytes));
        } else {
            printf("%s was not loaded (was_loaded=false)\n", id);
        }
    }
    client_free_msg(m);
    return rc;
}

int cmd_client_cancel(int argc, char **argv)
{
    cli_common cc;
    const char *id = NULL;
    cli_common_init(&cc, "cancel", QUICK_DEADLINE_MS);
    if (parse_one(&cc, argc, argv, "--job", "--job-id", NULL, &id, NULL, NULL) != CLI_OK)
        return CLI_ERR;
    Cuzk__V1__CancelProofRequest req;
    cuzk__v1__cancel_proof_request__init(&req);
    req.job_id = (char *)id;
    ProtobufCMessage *m = NULL;
    int rc =
        call_once(&cc, "CancelProof", &req.base, &cuzk__v1__cancel_proof_response__descriptor, &m);
    if (rc == CLI_OK) {
        Cuzk__V1__CancelProofResponse *r = (Cuzk__V1__CancelProofResponse *)m;
        if (cc.json) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "job_id", id);
            cJSON_AddBoolToObject(o, "was_running", r->was_running);
            cJSON_AddBoolToObject(o, "cancelled", r->cancelled);
            print_json(o);
        } else {
            printf("job_id:      %s\n", id);
            printf("was_running: %s\n", r->was_running ? "true" : "false");
            printf("cancelled:   %s%s\n", r->cancelled ? "true" : "false",
                   r->cancelled ? "" : " (the job had already finished)");
        }
    }
    client_free_msg(m);
    return rc;
}

int cmd_client_metrics(int argc, char **argv)
{
    cli_common cc;
    cli_common_init(&cc, "metrics", QUICK_DEADLINE_MS);
    if (parse_one(&cc, argc, argv, NULL, NULL, NULL, NULL, NULL, NULL) != CLI_OK)
        return CLI_ERR;
    Cuzk__V1__GetMetricsRequest req;
    cuzk__v1__get_metrics_request__init(&req);
    ProtobufCMessage *m = NULL;
    int rc =
        call_once(&cc, "GetMetrics", &req.base, &cuzk__v1__get_metrics_response__descriptor, &m);
    if (rc == CLI_OK) {
        const char *text = ((Cuzk__V1__GetMetricsResponse *)m)->prometheus_text;
        if (cc.json) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "prometheus_text", text);
            print_json(o);
        } else {
            fputs(text, stdout);
            if (*text && text[strlen(text) - 1] != '\n')
                putchar('\n');
        }
    }
    client_free_msg(m);
    return rc;
}

int cmd_client_circuit_info(int argc, char **argv)
{
    cli_common cc;
    const char *id = NULL, *vk_out = NULL;
    cli_common_init(&cc, "circuit-info", 0); /* the first call may generate test parameters */
    if (parse_one(&cc, argc, argv, "--circuit", "--circuit-id", "-c", &id, "--vk-out", &vk_out) !=
        CLI_OK)
        return CLI_ERR;
    Cuzk__V1__GetCircuitInfoRequest req;
    cuzk__v1__get_circuit_info_request__init(&req);
    req.circuit_id = (char *)id;
    ProtobufCMessage *m = NULL;
    int rc = call_once(&cc, "GetCircuitInfo", &req.base,
                       &cuzk__v1__get_circuit_info_response__descriptor, &m);
    if (rc != CLI_OK)
        return rc;
    Cuzk__V1__GetCircuitInfoResponse *r = (Cuzk__V1__GetCircuitInfoResponse *)m;
    /* The key must parse (points on the curve, in the subgroup) to be of any use. */
    cuzk_groth16_vk *vk = NULL;
    cuzk_status ps = cuzk_groth16_vk_parse(&vk, r->verifying_key.data, r->verifying_key.len);
    bool vk_ok = ps == CUZK_OK && vk->ic_len == (size_t)r->num_public_inputs + 1;
    char why[256];
    snprintf(why, sizeof why, "%s",
             ps != CUZK_OK ? cuzk_last_error()
             : vk_ok       ? ""
                           : "ic length disagrees with inputs");
    cuzk_groth16_vk_free(vk);
    if (cc.json) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "circuit_id", r->circuit_id);
        cJSON_AddStringToObject(o, "source", r->source);
        cJSON_AddNumberToObject(o, "num_public_inputs", r->num_public_inputs);
        cJSON_AddNumberToObject(o, "num_constraints", (double)r->num_constraints);
        cJSON_AddNumberToObject(o, "verifying_key_bytes", (double)r->verifying_key.len);
        cJSON_AddBoolToObject(o, "verifying_key_valid", vk_ok);
        print_json(o);
    } else {
        printf("circuit:           %s\n", r->circuit_id);
        printf("source:            %s\n", r->source);
        printf("public inputs:     %u\n", r->num_public_inputs);
        printf("constraints:       %llu\n", (unsigned long long)r->num_constraints);
        printf("verifying key:     %zu bytes, %s%s%s\n", r->verifying_key.len,
               vk_ok ? "parses (points checked)" : "INVALID", why[0] ? ": " : "", why);
    }
    if (!vk_ok)
        rc = CLI_FAIL;
    else if (vk_out && !cli_write_file(cc.cmd, vk_out, r->verifying_key.data, r->verifying_key.len))
        rc = CLI_ERR;
    client_free_msg(m);
    return rc;
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* How a proof result is shown: Curio's cuzk-bench layout (=== Proof Result ===, status, job_id,
 * the timings line, wall time, proof size and hex) plus cuzk's extensions: the per-phase table,
 * backend, the daemon's and the client's verification. */
#include "cmd_client.h"
#include "hexutil.h"
#include "cuzk/alloc.h"

#include <cjson/cJSON.h>
#include <string.h>

#define HEX_ALL_MAX 256 /* Curio: whole proof up to 256 bytes, else the first 128 */
#define HEX_HEAD 128

const char *job_status_name(int status)
{
    switch (status) {
    case 1:
        return "COMPLETED";
    case 2:
        return "FAILED";
    case 3:
        return "CANCELLED";
    case 4:
        return "TIMEOUT";
    default:
        return "UNKNOWN";
    }
}

/* COMPLETED and not contradicted by the client's own check. */
static int exit_code(const Cuzk__V1__AwaitProofResponse *r, const verdict *v)
{
    if (r->status != CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED)
        return CLI_FAIL;
    if (v->state == VERDICT_INVALID)
        return CLI_FAIL;
    if (v->state == VERDICT_ERROR)
        return CLI_ERR;
    return CLI_OK;
}

static char *proof_hex(const Cuzk__V1__AwaitProofResponse *r, size_t max)
{
    size_t n = r->proof.len <= max ? r->proof.len : HEX_HEAD;
    char *h = cuzk_alloc(2 * n + 4);
    if (!h)
        return NULL;
    hex_encode(h, r->proof.data, n);
    if (n < r->proof.len)
        strcat(h, "...");
    return h;
}

static int print_json(const Cuzk__V1__AwaitProofResponse *r, const verdict *v, double wall_ms)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "status", job_status_name(r->status));
    cJSON_AddStringToObject(o, "job_id", r->job_id);
    cJSON_AddStringToObject(o, "circuit_id", r->circuit_id);
    cJSON_AddNumberToObject(o, "partitions", r->partitions);
    cJSON_AddNumberToObject(o, "num_public_inputs", r->num_public_inputs);
    if (r->error_message && r->error_message[0])
        cJSON_AddStringToObject(o, "error", r->error_message);
    cJSON *t = cJSON_AddObjectToObject(o, "timings_ms");
    cJSON_AddNumberToObject(t, "total", (double)r->total_ms);
    cJSON_AddNumberToObject(t, "queue_wait", (double)r->queue_wait_ms);
    cJSON_AddNumberToObject(t, "srs_load", (double)r->srs_load_ms);
    cJSON_AddNumberToObject(t, "synthesis", (double)r->synthesis_ms);
    cJSON_AddNumberToObject(t, "gpu_compute", (double)r->gpu_compute_ms);
    cJSON *ph = cJSON_AddObjectToObject(o, "phases_ms");
    for (size_t i = 0; i < r->n_phases; i++)
        cJSON_AddNumberToObject(ph, r->phases[i]->phase, cli_r3(r->phases[i]->ms));
    cJSON_AddStringToObject(o, "backend", r->backend);
    cJSON_AddBoolToObject(o, "daemon_verified", r->verified);
    cJSON *cv = cJSON_AddObjectToObject(o, "client_verify");
    cJSON_AddStringToObject(cv, "result", verdict_name(v->state));
    cJSON_AddNumberToObject(cv, "valid_partitions", v->valid);
    cJSON_AddNumberToObject(cv, "ms", cli_r3(v->ms));
    if (v->why[0])
        cJSON_AddStringToObject(cv, "detail", v->why);
    cJSON_AddNumberToObject(o, "wall_ms", cli_r3(wall_ms));
    cJSON_AddNumberToObject(o, "proof_bytes", (double)r->proof.len);
    char *h = proof_hex(r, SIZE_MAX);
    cJSON_AddStringToObject(o, "proof_hex", h ? h : "");
    cuzk_free(h);
    char *s = cJSON_Print(o);
    if (s)
        printf("%s\n", s);
    cJSON_free(s);
    cJSON_Delete(o);
    return exit_code(r, v);
}

int print_proof_result(const cli_common *cc, const Cuzk__V1__AwaitProofResponse *r,
                       const verdict *v, double wall_ms)
{
    if (cc->json)
        return print_json(r, v, wall_ms);
    printf("\n=== Proof Result ===\n");
    printf("status:    %s\n", job_status_name(r->status));
    printf("job_id:    %s\n", r->job_id);
    if (r->circuit_id[0] && r->partitions)
        printf("circuit:   %s (%u partition%s, %u public input%s each)\n", r->circuit_id,
               r->partitions, r->partitions == 1 ? "" : "s", r->num_public_inputs,
               r->num_public_inputs == 1 ? "" : "s");
    else if (r->circuit_id[0])
        printf("circuit:   %s\n", r->circuit_id);
    if (r->status != CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED) {
        const char *why = r->error_message;
        if (!why[0])
            why = r->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT
                      ? "not finished within timeout_ms (the job goes on; await it again)"
                      : "(none given)";
        printf("error:     %s\n", why);
        printf("wall time: %.0f ms\n", wall_ms);
        return exit_code(r, v);
    }
    printf("timings:   total=%llu ms (queue=%llu ms, srs=%llu ms, synth=%llu ms, gpu=%llu ms)\n",
           (unsigned long long)r->total_ms, (unsigned long long)r->queue_wait_ms,
           (unsigned long long)r->srs_load_ms, (unsigned long long)r->synthesis_ms,
           (unsigned long long)r->gpu_compute_ms);
    if (r->n_phases) {
        printf("phases:    (ms, summed over %u partition%s)\n", r->partitions,
               r->partitions == 1 ? "" : "s");
        for (size_t i = 0; i < r->n_phases; i++)
            printf("  %-14s %10.2f\n", r->phases[i]->phase, r->phases[i]->ms);
    }
    printf("backend:   %s\n", r->backend[0] ? r->backend : "(not reported)");
    printf("daemon verified: %s\n", r->verified ? "yes" : "no");
    if (v->state == VERDICT_VALID)
        printf("client verify:   valid (%u/%u partitions, %.1f ms)\n", v->valid, v->total, v->ms);
    else
        printf("client verify:   %s%s%s\n", verdict_name(v->state), v->why[0] ? ": " : "", v->why);
    printf("wall time: %.0f ms\n", wall_ms);
    char *h = proof_hex(r, HEX_ALL_MAX);
    printf("proof:     %zu bytes (hex: %s)\n", r->proof.len, h ? h : "?");
    cuzk_free(h);
    return exit_code(r, v);
}

bool save_proof_outputs(const prove_opts *o, const char *cmd, const Cuzk__V1__AwaitProofResponse *r)
{
    if (r->status != CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED)
        return true;
    if (o->proof_out && !cli_write_file(cmd, o->proof_out, r->proof.data, r->proof.len))
        return false;
    if (!o->public_out)
        return true;
    /* One 32-byte little-endian element in hex per line: `cuzk-bench verify --inputs`. */
    size_t n = r->public_inputs.len / 32;
    char *text = cuzk_alloc(n * 65 + 1);
    if (!text)
        return false;
    for (size_t i = 0; i < n; i++) {
        hex_encode(text + 65 * i, r->public_inputs.data + 32 * i, 32);
        text[65 * i + 64] = '\n';
    }
    bool ok = cli_write_file(cmd, o->public_out, text, n * 65);
    cuzk_free(text);
    return ok;
}

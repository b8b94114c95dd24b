/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* single (Prove), submit (SubmitProof) and await (AwaitProof). */
#include "cmd_client.h"
#include "commands.h"

#include <cjson/cJSON.h>
#include <string.h>

/* Parses the flags of single / submit. */
static int parse_prove_args(cli_common *cc, prove_opts *po, int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        int r = cli_common_opt(cc, argc, argv, &i);
        if (r == 0)
            r = prove_opts_opt(po, cc->cmd, argc, argv, &i);
        if (r < 0)
            return CLI_ERR;
        if (r == 0)
            return cli_unknown(cc->cmd, argv[i]);
    }
    return prove_opts_load(po, cc->cmd) ? CLI_OK : CLI_ERR;
}

static void describe_request(const cli_common *cc, const prove_opts *po)
{
    if (cc->json)
        return;
    if (po->kind > 0)
        printf("request:   %s proof (Curio fields)", po->type_name);
    else
        printf("request:   circuit %s, %u partition%s", po->circuit,
               po->partitions ? po->partitions : 1, po->partitions > 1 ? "s" : "");
    if (po->have_seed)
        printf(", seed %llu", (unsigned long long)po->seed);
    if (po->priority)
        printf(", priority %d", po->priority);
    printf(" -> %s\n", cc->addr);
    fflush(stdout);
}

/* A Prove / SubmitProof failure, with a clearer word for the Filecoin kinds. */
static int prove_rpc_error(const cli_common *cc, const prove_opts *po, const char *method,
                           const rpc_status *st)
{
    int rc = cli_rpc_error(cc, method, st);
    if (st->code == CLIENT_UNIMPLEMENTED && po->kind > 0)
        fprintf(stderr, "note: this daemon does not prove Filecoin %s proofs yet\n", po->type_name);
    return rc;
}

int cmd_client_single(int argc, char **argv)
{
    cli_common cc;
    prove_opts po;
    cli_common_init(&cc, "single", 0);
    prove_opts_init(&po);
    int rc = parse_prove_args(&cc, &po, argc, argv);
    bench_client *c = NULL;
    if (rc != CLI_OK || !cli_connect(&cc, &c)) {
        prove_opts_clear(&po);
        return CLI_ERR;
    }
    describe_request(&cc, &po);
    Cuzk__V1__SubmitProofRequest sub;
    uint8_t seed_buf[8];
    prove_opts_request(&po, &sub, 0, seed_buf, NULL, 0);
    Cuzk__V1__ProveRequest req;
    cuzk__v1__prove_request__init(&req);
    req.submit = &sub;

    char label[160];
    snprintf(label, sizeof label, "proving %.120s", po.kind > 0 ? po.type_name : po.circuit);
    spinner sp;
    spinner_start(&sp, label);
    bool show = progress_wanted();
    double t0 = cli_now_ms();
    rpc_status st;
    ProtobufCMessage *m = NULL;
    bool ok = client_call(c, "Prove", &req.base, &cuzk__v1__prove_response__descriptor, &m,
                          cc.deadline_ms, show ? spinner_tick : NULL, &sp, &st);
    double wall = cli_now_ms() - t0;
    spinner_clear(&sp);
    Cuzk__V1__ProveResponse *resp = (Cuzk__V1__ProveResponse *)m;
    if (!ok) {
        rc = prove_rpc_error(&cc, &po, "Prove", &st);
    } else if (!resp->result) {
        st.code = CLIENT_INTERNAL;
        snprintf(st.details, sizeof st.details, "the daemon returned an empty ProveResponse");
        rc = cli_rpc_error(&cc, "Prove", &st);
    } else {
        vk_cache vc;
        vk_cache_init(&vc);
        verdict v;
        memset(&v, 0, sizeof v);
        if (po.no_verify)
            snprintf(v.why, sizeof v.why, "--no-verify");
        else
            verdict_check(&v, &vc, c, &cc, resp->result);
        rc = print_proof_result(&cc, resp->result, &v, wall);
        if (!save_proof_outputs(&po, cc.cmd, resp->result))
            rc = CLI_ERR;
        vk_cache_clear(&vc);
    }
    client_free_msg(m);
    client_close(c);
    prove_opts_clear(&po);
    return rc;
}

int cmd_client_submit(int argc, char **argv)
{
    cli_common cc;
    prove_opts po;
    cli_common_init(&cc, "submit", 60000);
    prove_opts_init(&po);
    int rc = parse_prove_args(&cc, &po, argc, argv);
    bench_client *c = NULL;
    if (rc != CLI_OK || !cli_connect(&cc, &c)) {
        prove_opts_clear(&po);
        return CLI_ERR;
    }
    Cuzk__V1__SubmitProofRequest sub;
    uint8_t seed_buf[8];
    prove_opts_request(&po, &sub, 0, seed_buf, NULL, 0);
    rpc_status st;
    ProtobufCMessage *m = NULL;
    if (!client_call(c, "SubmitProof", &sub.base, &cuzk__v1__submit_proof_response__descriptor, &m,
                     cc.deadline_ms, NULL, NULL, &st)) {
        rc = prove_rpc_error(&cc, &po, "SubmitProof", &st);
    } else {
        Cuzk__V1__SubmitProofResponse *r = (Cuzk__V1__SubmitProofResponse *)m;
        if (cc.json) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "job_id", r->job_id);
            cJSON_AddNumberToObject(o, "queue_position", r->queue_position);
            cJSON_AddBoolToObject(o, "existing_job", r->existing_job);
            cJSON_AddStringToObject(o, "assigned_gpu", r->assigned_gpu);
            char *s = cJSON_PrintUnformatted(o);
            if (s)
                printf("%s\n", s);
            cJSON_free(s);
            cJSON_Delete(o);
        } else {
            printf("job_id:         %s\n", r->job_id);
            printf("queue_position: %u\n", r->queue_position);
            printf("existing_job:   %s\n", r->existing_job ? "true" : "false");
            printf("assigned_gpu:   %s\n", r->assigned_gpu[0] ? r->assigned_gpu : "(none yet)");
        }
        rc = CLI_OK;
    }
    client_free_msg(m);
    client_close(c);
    prove_opts_clear(&po);
    return rc;
}

int cmd_client_await(int argc, char **argv)
{
    cli_common cc;
    prove_opts po; /* only its output and --no-verify flags are used */
    cli_common_init(&cc, "await", 0);
    prove_opts_init(&po);
    const char *job = NULL;
    uint64_t timeout_ms = 0;
    bool deadline_given = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int r = cli_common_opt(&cc, argc, argv, &i);
        if (r == 1 && strcmp(a, "--deadline-ms") == 0)
            deadline_given = true;
        if (r != 0) {
            if (r < 0)
                return CLI_ERR;
            continue;
        }
        const char *v = NULL;
        if (strcmp(a, "--job") == 0 || strcmp(a, "--job-id") == 0) {
            if (!(job = cli_value(cc.cmd, argc, argv, &i)))
                return CLI_ERR;
        } else if (strcmp(a, "--timeout-ms") == 0) {
            if (!(v = cli_value(cc.cmd, argc, argv, &i)) || !cli_u64(cc.cmd, a, v, &timeout_ms))
                return CLI_ERR;
        } else if (strcmp(a, "--no-verify") == 0 || strcmp(a, "--proof-out") == 0 ||
                   strcmp(a, "--public-out") == 0) {
            if (prove_opts_opt(&po, cc.cmd, argc, argv, &i) < 0)
                return CLI_ERR;
        } else {
            return cli_unknown(cc.cmd, a);
        }
    }
    if (!job || !*job) {
        fprintf(stderr, "cuzk-bench await: --job ID is required\n");
        return CLI_ERR;
    }
    /* The daemon answers TIMEOUT itself after timeout_ms; the gRPC deadline only guards
     * against a daemon that never answers. */
    if (!deadline_given && timeout_ms)
        cc.deadline_ms = timeout_ms + 30000;
    bench_client *c = NULL;
    if (!cli_connect(&cc, &c))
        return CLI_ERR;
    Cuzk__V1__AwaitProofRequest req;
    cuzk__v1__await_proof_request__init(&req);
    req.job_id = (char *)job;
    req.timeout_ms = timeout_ms;
    spinner sp;
    spinner_start(&sp, "waiting");
    double t0 = cli_now_ms();
    rpc_status st;
    ProtobufCMessage *m = NULL;
    int rc;
    bool ok = client_call(c, "AwaitProof", &req.base, &cuzk__v1__await_proof_response__descriptor,
                          &m, cc.deadline_ms, progress_wanted() ? spinner_tick : NULL, &sp, &st);
    double wall = cli_now_ms() - t0;
    spinner_clear(&sp);
    if (!ok) {
        rc = cli_rpc_error(&cc, "AwaitProof", &st);
    } else {
        Cuzk__V1__AwaitProofResponse *r = (Cuzk__V1__AwaitProofResponse *)m;
        vk_cache vc;
        vk_cache_init(&vc);
        verdict v;
        memset(&v, 0, sizeof v);
        if (po.no_verify)
            snprintf(v.why, sizeof v.why, "--no-verify");
        else
            verdict_check(&v, &vc, c, &cc, r);
        rc = print_proof_result(&cc, r, &v, wall);
        if (!save_proof_outputs(&po, cc.cmd, r))
            rc = CLI_ERR;
        vk_cache_clear(&vc);
    }
    client_free_msg(m);
    client_close(c);
    return rc;
}

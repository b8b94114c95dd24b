/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* batch: COUNT Prove calls spread over J threads, one channel each (Curio's cuzk-bench batch,
 * cuzk-reference.md section 3), every returned proof checked client-side; latency and
 * throughput summary. */
#include "cmd_client.h"
#include "commands.h"
#include "cuzk/alloc.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_COUNT 1000000u
#define MAX_THREADS 256u

typedef struct {
    int status; /* AwaitProofResponse.Status; -1 = the RPC failed; -2 = not sent */
    double wall_ms;
    uint64_t total_ms, gpu_ms, queue_ms, synth_ms;
    verdict_state verdict;
    char job_id[128];
    char error[256];
} proof_rec;

typedef struct {
    const cli_common *cc;
    const prove_opts *po;
    vk_cache vc;
    unsigned count, threads;
    proof_rec *recs;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned next, done, failed, live_threads;
    bool unreachable; /* a call found no daemon: stop sending the rest */
    char unreachable_why[256];
    bool tty;
    double t0;
} batch_ctx;

/* Keeps the start of "|a|: |b|" (or |b| alone) in pr->error; long details are cut. */
static void set_error(proof_rec *pr, const char *a, const char *b)
{
    size_t n = 0, cap = sizeof pr->error - 1;
    if (a) {
        size_t k = strlen(a);
        n = k < cap ? k : cap;
        memcpy(pr->error, a, n);
        if (n + 2 <= cap) {
            memcpy(pr->error + n, ": ", 2);
            n += 2;
        }
    }
    size_t k = strlen(b);
    if (k > cap - n)
        k = cap - n;
    memcpy(pr->error + n, b, k);
    pr->error[n + k] = 0;
}

static void set_job_id(proof_rec *pr, const char *id)
{
    size_t k = strlen(id);
    if (k >= sizeof pr->job_id)
        k = sizeof pr->job_id - 1;
    memcpy(pr->job_id, id, k);
    pr->job_id[k] = 0;
}

static void record(batch_ctx *b, unsigned i, const proof_rec *pr)
{
    pthread_mutex_lock(&b->mu);
    b->recs[i] = *pr;
    b->done++;
    if (pr->status != 1 || pr->verdict == VERDICT_INVALID || pr->verdict == VERDICT_ERROR)
        b->failed++;
    if (!b->cc->json) {
        if (b->tty)
            progress_clear();
        if (pr->status < 0)
            printf("  [%u/%u] RPC ERROR — %.1fs (%s)\n", i + 1, b->count, pr->wall_ms / 1e3,
                   pr->error);
        else
            printf("  [%u/%u] %s — %.1fs (prove=%llu ms, queue=%llu ms)%s%s%s%s\n", i + 1, b->count,
                   job_status_name(pr->status), pr->wall_ms / 1e3, (unsigned long long)pr->gpu_ms,
                   (unsigned long long)pr->queue_ms, pr->status == 1 ? " client verify: " : "",
                   pr->status == 1 ? verdict_name(pr->verdict) : "", pr->error[0] ? " — " : "",
                   pr->error);
        fflush(stdout);
    }
    pthread_cond_signal(&b->cv);
    pthread_mutex_unlock(&b->mu);
}

static void *worker(void *arg)
{
    batch_ctx *b = arg;
    bench_client *c = NULL;
    rpc_status st;
    bool open = client_open(&c, b->cc->addr, &st); /* the address was checked by main */
    for (;;) {
        pthread_mutex_lock(&b->mu);
        unsigned i = b->next < b->count && !b->unreachable ? b->next++ : b->count;
        pthread_mutex_unlock(&b->mu);
        if (i == b->count)
            break;
        proof_rec pr;
        memset(&pr, 0, sizeof pr);
        pr.status = -1;
        if (!open) {
            set_error(&pr, NULL, st.details);
            record(b, i, &pr);
            continue;
        }
        Cuzk__V1__SubmitProofRequest sub;
        uint8_t seed_buf[8];
        char rid[160];
        prove_opts_request(b->po, &sub, i, seed_buf, rid, sizeof rid);
        Cuzk__V1__ProveRequest req;
        cuzk__v1__prove_request__init(&req);
        req.submit = &sub;
        ProtobufCMessage *m = NULL;
        double t0 = cli_now_ms();
        bool ok = client_call(c, "Prove", &req.base, &cuzk__v1__prove_response__descriptor, &m,
                              b->cc->deadline_ms, NULL, NULL, &st);
        pr.wall_ms = cli_now_ms() - t0;
        const Cuzk__V1__AwaitProofResponse *r = ok ? ((Cuzk__V1__ProveResponse *)m)->result : NULL;
        if (!ok) {
            set_error(&pr, client_status_name(st.code), st.details);
            if (st.code == CLIENT_UNAVAILABLE) {
                pthread_mutex_lock(&b->mu);
                if (!b->unreachable)
                    memcpy(b->unreachable_why, pr.error, sizeof b->unreachable_why);
                b->unreachable = true;
                pthread_mutex_unlock(&b->mu);
            }
        } else if (!r) {
            snprintf(pr.error, sizeof pr.error, "empty ProveResponse");
        } else {
            pr.status = r->status;
            pr.total_ms = r->total_ms;
            pr.gpu_ms = r->gpu_compute_ms;
            pr.queue_ms = r->queue_wait_ms;
            pr.synth_ms = r->synthesis_ms;
            set_job_id(&pr, r->job_id);
            if (r->error_message[0])
                set_error(&pr, NULL, r->error_message);
            verdict v;
            memset(&v, 0, sizeof v);
            if (!b->po->no_verify)
                verdict_check(&v, &b->vc, c, b->cc, r);
            pr.verdict = v.state;
            if (v.state == VERDICT_INVALID || v.state == VERDICT_ERROR)
                set_error(&pr, NULL, v.why);
        }
        client_free_msg(m);
        record(b, i, &pr);
    }
    client_close(c);
    pthread_mutex_lock(&b->mu);
    b->live_threads--;
    pthread_cond_signal(&b->cv);
    pthread_mutex_unlock(&b->mu);
    return NULL;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct {
    unsigned completed, failed, rpc_errors, not_sent, valid, invalid, unchecked;
    double wall_min, wall_med, wall_max, wall_avg;
    double prove_min, prove_max, prove_avg;
    double elapsed_s, per_min;
} batch_stats;

static void summarise(const batch_ctx *b, batch_stats *s, double elapsed_ms)
{
    memset(s, 0, sizeof *s);
    double *walls = cuzk_alloc_array(b->count, sizeof *walls);
    for (unsigned i = 0; i < b->count; i++) {
        const proof_rec *p = &b->recs[i];
        s->not_sent += p->status == -2;
        s->rpc_errors += p->status == -1;
        if (p->status != 1) {
            s->failed++;
            continue;
        }
        s->completed++;
        s->valid += p->verdict == VERDICT_VALID;
        s->invalid += p->verdict == VERDICT_INVALID || p->verdict == VERDICT_ERROR;
        s->unchecked += p->verdict == VERDICT_SKIPPED;
        double g = (double)p->gpu_ms;
        if (walls)
            walls[s->completed - 1] = p->wall_ms;
        s->wall_avg += p->wall_ms;
        s->prove_avg += g;
        if (s->completed == 1 || g < s->prove_min)
            s->prove_min = g;
        if (g > s->prove_max)
            s->prove_max = g;
    }
    s->elapsed_s = elapsed_ms / 1e3;
    if (s->completed && walls) {
        qsort(walls, s->completed, sizeof *walls, cmp_double);
        s->wall_min = walls[0];
        s->wall_max = walls[s->completed - 1];
        s->wall_med = s->completed % 2
                          ? walls[s->completed / 2]
                          : (walls[s->completed / 2 - 1] + walls[s->completed / 2]) / 2;
        s->wall_avg /= s->completed;
        s->prove_avg /= s->completed;
        s->per_min = s->elapsed_s > 0 ? s->completed / s->elapsed_s * 60.0 : 0;
    }
    cuzk_free(walls);
}

static void print_summary_text(const batch_ctx *b, const batch_stats *s)
{
    printf("\n=== Batch Summary ===\n");
    printf("total time:    %.1fs\n", cli_r3(s->elapsed_s));
    printf("completed:     %u\n", s->completed);
    printf("failed:        %u", s->failed - s->not_sent);
    if (s->rpc_errors)
        printf(" (%u by RPC errors)", s->rpc_errors);
    printf("\n");
    if (s->not_sent)
        printf("not sent:      %u (the daemon became unreachable: %s)\n", s->not_sent,
               b->unreachable_why);
    if (b->po->no_verify)
        printf("client verify: off (--no-verify)\n");
    else
        printf("client verify: %u valid, %u invalid, %u not checked\n", s->valid, s->invalid,
               s->unchecked);
    if (!s->completed)
        return;
    printf("wall time:     min=%.2fs median=%.2fs max=%.2fs (avg=%.2fs)\n", s->wall_min / 1e3,
           s->wall_med / 1e3, s->wall_max / 1e3, s->wall_avg / 1e3);
    printf("prove time:    avg=%.0f ms min=%.0f ms max=%.0f ms (gpu_compute)\n", s->prove_avg,
           s->prove_min, s->prove_max);
    printf("throughput:    %.3f proofs/min (%.2fs/proof)\n", s->per_min,
           s->elapsed_s / s->completed);
}

static void print_summary_json(const batch_ctx *b, const batch_stats *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "circuit_id", b->po->circuit ? b->po->circuit : "");
    cJSON_AddStringToObject(o, "type", b->po->type_name ? b->po->type_name : "");
    cJSON_AddNumberToObject(o, "count", b->count);
    cJSON_AddNumberToObject(o, "concurrency", b->threads);
    cJSON_AddNumberToObject(o, "completed", s->completed);
    cJSON_AddNumberToObject(o, "failed", s->failed - s->not_sent);
    cJSON_AddNumberToObject(o, "rpc_errors", s->rpc_errors);
    cJSON_AddNumberToObject(o, "not_sent", s->not_sent);
    cJSON_AddNumberToObject(o, "client_valid", s->valid);
    cJSON_AddNumberToObject(o, "client_invalid", s->invalid);
    cJSON_AddNumberToObject(o, "client_unchecked", s->unchecked);
    cJSON_AddNumberToObject(o, "elapsed_s", cli_r3(s->elapsed_s));
    cJSON_AddNumberToObject(o, "wall_ms_min", cli_r3(s->wall_min));
    cJSON_AddNumberToObject(o, "wall_ms_median", cli_r3(s->wall_med));
    cJSON_AddNumberToObject(o, "wall_ms_max", cli_r3(s->wall_max));
    cJSON_AddNumberToObject(o, "wall_ms_avg", cli_r3(s->wall_avg));
    cJSON_AddNumberToObject(o, "prove_ms_avg", cli_r3(s->prove_avg));
    cJSON_AddNumberToObject(o, "prove_ms_min", s->prove_min);
    cJSON_AddNumberToObject(o, "prove_ms_max", s->prove_max);
    cJSON_AddNumberToObject(o, "proofs_per_min", cli_r3(s->per_min));
    cJSON *arr = cJSON_AddArrayToObject(o, "proofs");
    for (unsigned i = 0; i < b->count; i++) {
        const proof_rec *p = &b->recs[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "index", i + 1);
        /* A proof not sent because the daemon had become unreachable counts as refused with
         * UNAVAILABLE, like the calls that found it gone; "sent" tells them apart. */
        cJSON_AddStringToObject(e, "status",
                                p->status < 0 ? "RPC_ERROR" : job_status_name(p->status));
        cJSON_AddBoolToObject(e, "sent", p->status != -2);
        cJSON_AddStringToObject(e, "job_id", p->job_id);
        cJSON_AddNumberToObject(e, "wall_ms", cli_r3(p->wall_ms));
        cJSON_AddNumberToObject(e, "total_ms", (double)p->total_ms);
        cJSON_AddNumberToObject(e, "prove_ms", (double)p->gpu_ms);
        cJSON_AddNumberToObject(e, "queue_ms", (double)p->queue_ms);
        cJSON_AddNumberToObject(e, "synthesis_ms", (double)p->synth_ms);
        cJSON_AddStringToObject(e, "client_verify", verdict_name(p->verdict));
        if (p->status == -2)
            cJSON_AddStringToObject(e, "error",
                                    "UNAVAILABLE: not sent (the daemon became unreachable)");
        else if (p->error[0])
            cJSON_AddStringToObject(e, "error", p->error);
        cJSON_AddItemToArray(arr, e);
    }
    char *str = cJSON_Print(o);
    if (str)
        printf("%s\n", str);
    cJSON_free(str);
    cJSON_Delete(o);
}

int cmd_client_batch(int argc, char **argv)
{
    cli_common cc;
    prove_opts po;
    cli_common_init(&cc, "batch", 0);
    prove_opts_init(&po);
    uint64_t count = 3, conc = 1; /* Curio's defaults */
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int r = cli_common_opt(&cc, argc, argv, &i);
        if (r == 0)
            r = prove_opts_opt(&po, cc.cmd, argc, argv, &i);
        if (r == 0 && (strcmp(a, "-c") == 0 || strcmp(a, "--count") == 0 || strcmp(a, "-j") == 0 ||
                       strcmp(a, "--concurrency") == 0)) {
            const char *v = cli_value(cc.cmd, argc, argv, &i);
            bool is_count = a[1] == 'c' || strcmp(a, "--count") == 0;
            r = v && cli_u64(cc.cmd, a, v, is_count ? &count : &conc) ? 1 : -1;
        }
        if (r < 0)
            return CLI_ERR;
        if (r == 0)
            return cli_unknown(cc.cmd, a);
    }
    if (count < 1 || count > MAX_COUNT || conc < 1 || conc > MAX_THREADS) {
        fprintf(stderr, "cuzk-bench batch: -c must be 1..%u and -j 1..%u\n", MAX_COUNT,
                MAX_THREADS);
        return CLI_ERR;
    }
    if (po.proof_out || po.public_out) {
        fprintf(stderr, "cuzk-bench batch: --proof-out / --public-out are for single\n");
        return CLI_ERR;
    }
    if (!prove_opts_load(&po, cc.cmd))
        return CLI_ERR;
    if (conc > count)
        conc = count;

    bench_client *probe = NULL; /* checks the address once and keeps gRPC initialised */
    if (!cli_connect(&cc, &probe)) {
        prove_opts_clear(&po);
        return CLI_ERR;
    }
    batch_ctx b;
    memset(&b, 0, sizeof b);
    b.cc = &cc;
    b.po = &po;
    b.count = (unsigned)count;
    b.threads = (unsigned)conc;
    b.tty = progress_wanted();
    b.recs = cuzk_calloc_array(count, sizeof *b.recs);
    pthread_t *tids = cuzk_alloc_array(conc, sizeof *tids);
    if (!b.recs || !tids) {
        fprintf(stderr, "cuzk-bench batch: out of memory\n");
        cuzk_free(b.recs);
        cuzk_free(tids);
        client_close(probe);
        prove_opts_clear(&po);
        return CLI_ERR;
    }
    vk_cache_init(&b.vc);
    pthread_mutex_init(&b.mu, NULL);
    pthread_cond_init(&b.cv, NULL);
    if (!cc.json) {
        printf("=== Batch Benchmark ===\n");
        printf("proof type:  %s\n", po.kind > 0 ? po.type_name : "circuit");
        if (po.circuit)
            printf("circuit:     %s (%u partition%s per proof)\n", po.circuit,
                   po.partitions ? po.partitions : 1, po.partitions > 1 ? "s" : "");
        printf("count:       %u\n", b.count);
        printf("concurrency: %u\n", b.threads);
        printf("daemon:      %s\n\n", cc.addr);
        fflush(stdout);
    }
    b.t0 = cli_now_ms();
    unsigned started = 0;
    for (unsigned t = 0; t < b.threads; t++) {
        pthread_mutex_lock(&b.mu);
        b.live_threads++;
        pthread_mutex_unlock(&b.mu);
        if (pthread_create(&tids[t], NULL, worker, &b) != 0) {
            pthread_mutex_lock(&b.mu);
            b.live_threads--;
            pthread_mutex_unlock(&b.mu);
            break;
        }
        started++;
    }
    if (started == 0) { /* no thread could start: do the work here */
        b.live_threads = 1;
        worker(&b);
    }
    pthread_mutex_lock(&b.mu);
    while (b.live_threads > 0) {
        if (b.tty && !cc.json) {
            progress_bar(b.done, b.count, b.failed, cli_now_ms() - b.t0);
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += 200 * 1000000L;
            if (ts.tv_nsec >= 1000000000L) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&b.cv, &b.mu, &ts);
        } else {
            pthread_cond_wait(&b.cv, &b.mu);
        }
    }
    pthread_mutex_unlock(&b.mu);
    if (b.tty && !cc.json)
        progress_clear();
    for (unsigned t = 0; t < started; t++)
        pthread_join(tids[t], NULL);
    double elapsed = cli_now_ms() - b.t0;
    for (unsigned i = b.next; i < b.count; i++)
        b.recs[i].status = -2;

    batch_stats s;
    summarise(&b, &s, elapsed);
    if (cc.json)
        print_summary_json(&b, &s);
    else
        print_summary_text(&b, &s);
    int rc = s.rpc_errors || s.not_sent ? CLI_ERR : (s.failed || s.invalid) ? CLI_FAIL : CLI_OK;
    for (unsigned i = 0; i < b.count && rc == CLI_ERR; i++) {
        if (b.recs[i].status == -1) {
            fprintf(stderr, "error: Prove RPC failed: %s\n", b.recs[i].error);
            break;
        }
    }
    vk_cache_clear(&b.vc);
    pthread_mutex_destroy(&b.mu);
    pthread_cond_destroy(&b.cv);
    cuzk_free(b.recs);
    cuzk_free(tids);
    client_close(probe);
    prove_opts_clear(&po);
    return rc;
}

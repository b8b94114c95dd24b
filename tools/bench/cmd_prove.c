/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* setup and prove for built-in circuits with bellperson parameters. */
#include "commands.h"
#include "cuzk/alloc.h"
#include "cuzk/backend.h"
#include "cuzk/groth16.h"
#include "cuzk/r1cs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

typedef struct {
    const char *circuit, *out, *params, *proof, *public_out, *backend, *mode;
    unsigned threads, repeat;
    uint64_t seed;
    const char *check_cache;
    bool json, no_verify, check, params_checked, no_check_cache;
} prove_args;

static int parse(int argc, char **argv, const char *cmd, prove_args *a)
{
    memset(a, 0, sizeof *a);
    a->backend = "auto";
    a->mode = "full";
    a->repeat = 1;
    for (int i = 0; i < argc; i++) {
        const char *k = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(k, "--json") == 0) {
            a->json = true;
            continue;
        }
        if (strcmp(k, "--no-verify") == 0) {
            a->no_verify = true;
            continue;
        }
        if (strcmp(k, "--check") == 0) {
            a->check = true;
            continue;
        }
        if (strcmp(k, "--params-checked") == 0) {
            a->params_checked = true;
            continue;
        }
        if (strcmp(k, "--no-check-cache") == 0) {
            a->no_check_cache = true;
            continue;
        }
        if (!v) {
            fprintf(stderr, "cuzk-bench %s: %s needs a value\n", cmd, k);
            return 2;
        }
        i++;
        if (strcmp(k, "--circuit") == 0)
            a->circuit = v;
        else if (strcmp(k, "--out") == 0)
            a->out = v;
        else if (strcmp(k, "--params") == 0)
            a->params = v;
        else if (strcmp(k, "--check-cache") == 0)
            a->check_cache = v;
        else if (strcmp(k, "--proof") == 0)
            a->proof = v;
        else if (strcmp(k, "--public") == 0)
            a->public_out = v;
        else if (strcmp(k, "--backend") == 0)
            a->backend = v;
        else if (strcmp(k, "--mode") == 0)
            a->mode = v;
        else if (strcmp(k, "--threads") == 0)
            a->threads = (unsigned)strtoul(v, NULL, 10);
        else if (strcmp(k, "--repeat") == 0)
            a->repeat = (unsigned)strtoul(v, NULL, 10);
        else if (strcmp(k, "--seed") == 0)
            a->seed = strtoull(v, NULL, 0);
        else {
            fprintf(stderr, "cuzk-bench %s: unknown option %s\n", cmd, k);
            return 2;
        }
    }
    if (!a->circuit) {
        fprintf(stderr, "cuzk-bench %s: --circuit NAME is required (e.g. sha256-chain:4)\n", cmd);
        return 2;
    }
    if (a->repeat == 0)
        a->repeat = 1;
    return 0;
}

/* DIR/NAME.EXT with ':' in the circuit name turned into '-'. */
static void file_for(char *buf, size_t len, const char *dir, const char *circuit, const char *ext)
{
    snprintf(buf, len, "%s/%s.%s", dir, circuit, ext);
    for (char *p = buf + strlen(dir) + 1; *p; p++)
        if (*p == ':' || *p == '/')
            *p = '-';
}

int cmd_setup(int argc, char **argv)
{
    prove_args a;
    if (parse(argc, argv, "setup", &a) != 0)
        return 2;
    if (!a.out) {
        fprintf(stderr, "cuzk-bench setup: --out DIR is required\n");
        return 2;
    }
    cuzk_circuit c;
    if (cuzk_circuit_find(a.circuit, &c) != CUZK_OK) {
        fprintf(stderr, "error: %s\n", cuzk_last_error());
        return 2;
    }
    if (mkdir(a.out, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "error: cannot create %s: %s\n", a.out, strerror(errno));
        return 2;
    }
    cuzk_pool *pool = NULL;
    cuzk_cs *cs = NULL;
    cuzk_r1cs_matrices m;
    memset(&m, 0, sizeof m);
    cuzk_groth16_params *p = NULL;
    int rc = 2;
    double t0 = now_ms();
    cuzk_status s = cuzk_pool_create(&pool, a.threads);
    if (s == CUZK_OK)
        s = cuzk_cs_create(&cs, CUZK_CS_KEYGEN, 0, 0);
    if (s == CUZK_OK)
        s = cuzk_circuit_synthesize(cs, &c);
    if (s == CUZK_OK)
        s = cuzk_cs_take_matrices(cs, &m);
    double t1 = now_ms();
    if (s == CUZK_OK)
        s = cuzk_groth16_setup(&p, &m, pool);
    double t2 = now_ms();
    char path[4096];
    if (s == CUZK_OK) {
        file_for(path, sizeof path, a.out, a.circuit, "params");
        s = cuzk_groth16_params_write(p, path);
    }
    if (s == CUZK_OK) {
        file_for(path, sizeof path, a.out, a.circuit, "vk");
        s = cuzk_groth16_vk_write(p->vk, path);
    }
    if (s != CUZK_OK) {
        fprintf(stderr, "error: %s\n", cuzk_last_error());
    } else {
        printf("circuit %s: %zu constraints (+%zu input rows), %zu inputs, %zu aux, domain %zu\n",
               a.circuit, m.n_constraints, m.n_inputs, m.n_inputs, m.n_aux, p->n_h + 1);
        printf("keygen synthesis %.1f ms, setup %.1f ms, written %s (and .params)\n", t1 - t0,
               t2 - t1, path);
        rc = 0;
    }
    cuzk_groth16_params_free(p);
    cuzk_r1cs_matrices_free(&m);
    cuzk_cs_destroy(cs);
    cuzk_pool_destroy(pool);
    return rc;
}

static void print_timings(const prove_args *a, const cuzk_prove_timings *t, const char *backend,
                          unsigned threads, unsigned iter)
{
    if (a->json) {
        printf("{\"bench\":\"prove\",\"circuit\":\"%s\",\"backend\":\"%s\",\"threads\":%u,"
               "\"iter\":%u,\"synthesis_ms\":%.3f,\"ntt_h_ms\":%.3f,\"msm_h_ms\":%.3f,"
               "\"batch_add_ms\":%.3f,\"tail_msm_ms\":%.3f,\"msm_b_g2_ms\":%.3f,"
               "\"assemble_ms\":%.3f,\"verify_ms\":%.3f,\"total_ms\":%.3f,\"overlapped\":%s}\n",
               a->circuit, backend, threads, iter, t->synthesis, t->ntt_h, t->msm_h, t->batch_add,
               t->tail_msm, t->msm_b_g2, t->assemble, t->verify, t->total,
               t->overlapped ? "true" : "false");
        return;
    }
    printf("phase timings (ms), %s backend, %u threads:\n", backend, threads);
    printf("  synthesis %10.2f\n  ntt_h     %10.2f\n  msm_h     %10.2f\n  batch_add %10.2f\n"
           "  tail_msm  %10.2f\n  msm_b_g2  %10.2f\n  assemble  %10.2f\n  verify    %10.2f\n"
           "  total     %10.2f\n",
           t->synthesis, t->ntt_h, t->msm_h, t->batch_add, t->tail_msm, t->msm_b_g2, t->assemble,
           t->verify, t->total);
    if (t->overlapped)
        printf("  (batch_add, tail_msm and msm_b_g2 ran beside ntt_h and msm_h: the parameters "
               "are not resident on the device)\n");
}

/* Public inputs (ONE excluded), one 32-byte little-endian hex value per line: the format
 * `cuzk-bench verify --inputs` reads. Written to a temporary file, then renamed. */
static cuzk_status write_inputs(const char *path, const cuzk_prover_data *pd)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    bool ok = f != NULL;
    for (size_t i = 1; ok && i < pd->n_inputs; i++) {
        uint8_t b[32];
        cuzk_fr_to_bytes_le(b, &pd->input[i]);
        for (int j = 0; j < 32; j++)
            fprintf(f, "%02x", b[j]);
        ok = fputc('\n', f) != EOF;
    }
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        return cuzk_fail(CUZK_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    }
    return CUZK_OK;
}

/* Synthesises |c| into |pd| (PROVE or CHECK mode, or WITNESS + PCE; PROVE_AB for a device
 * backend, which forms c = a b itself, as the engine does). */
static cuzk_status synthesize(const prove_args *a, const cuzk_circuit *c, cuzk_pce *pce,
                              cuzk_pool *pool, bool on_device, cuzk_prover_data *pd)
{
    cuzk_cs *cs = NULL;
    cuzk_cs_mode mode = pce         ? CUZK_CS_WITNESS
                        : a->check  ? CUZK_CS_CHECK
                        : on_device ? CUZK_CS_PROVE_AB
                                    : CUZK_CS_PROVE;
    cuzk_status s = cuzk_cs_create(&cs, mode, 0, 0);
    if (s == CUZK_OK)
        s = cuzk_circuit_synthesize(cs, c);
    if (s == CUZK_OK && a->check) {
        size_t row;
        const char *where;
        if (!cuzk_cs_is_satisfied(cs, &row, &where))
            s = cuzk_fail(CUZK_ERR_UNSATISFIED, "constraint %zu (%s) is not satisfied", row,
                          where ? where : "no namespace");
    }
    if (s == CUZK_OK)
        s = cuzk_cs_take_prover_data(cs, pd);
    cuzk_cs_destroy(cs);
    if (s == CUZK_OK && pce)
        s = on_device ? cuzk_pce_eval_ab_into(pce, pool, pd) : cuzk_pce_eval_into(pce, pool, pd);
    return s;
}

int cmd_prove_params(int argc, char **argv)
{
    prove_args a;
    if (parse(argc, argv, "prove", &a) != 0)
        return 2;
    if (!a.params) {
        fprintf(stderr, "cuzk-bench prove: --params DIR (from cuzk-bench setup) or --zkey is "
                        "required\n");
        return 2;
    }
    bool use_pce = strcmp(a.mode, "pce") == 0;
    if (!use_pce && strcmp(a.mode, "full") != 0) {
        fprintf(stderr, "cuzk-bench prove: --mode is full or pce\n");
        return 2;
    }
    cuzk_backend_kind kind;
    cuzk_circuit c;
    if (cuzk_backend_parse_kind(a.backend, &kind) != CUZK_OK ||
        cuzk_circuit_find(a.circuit, &c) != CUZK_OK) {
        fprintf(stderr, "error: %s\n", cuzk_last_error());
        return 2;
    }
    c.params.seed = a.seed;
    cuzk_backend *be = NULL;
    cuzk_status s = cuzk_backend_create(&be, kind, a.threads);
    if (s != CUZK_OK && kind == CUZK_BACKEND_AUTO)
        s = cuzk_backend_create(&be, CUZK_BACKEND_CPU, a.threads);
    if (s != CUZK_OK) {
        fprintf(stderr, "error: %s\n", cuzk_last_error());
        return 2;
    }
    cuzk_pool *pool = cuzk_backend_pool(be);
    c.params.threads = pool ? cuzk_pool_threads(pool) : 1; /* circuits that split their synthesis */
    char path[4096];
    file_for(path, sizeof path, a.params, a.circuit, "params");
    cuzk_groth16_params *p = NULL;
    cuzk_pce *pce = NULL;
    cuzk_check_cache *cache = NULL;
    int rc = 2;
    double t0 = now_ms();
    /* Like Filecoin's tooling, trust our own parameter files by default (points are still checked
     * to be on the curve); --params-checked adds the subgroup check of every point, once per
     * parameter set with the check cache. */
    cache = bench_check_cache_open(a.check_cache, !a.params_checked || a.no_check_cache);
    s = cuzk_groth16_params_load_cached(
        &p, path, a.params_checked ? CUZK_PARAMS_CHECKED : CUZK_PARAMS_UNCHECKED, pool, cache);
    if (s != CUZK_OK) {
        fprintf(stderr, "error: %s\n", cuzk_last_error());
        goto out;
    }
    if (p->cache_error[0])
        fprintf(stderr, "note: parameters checked but not recorded in the check cache: %s\n",
                p->cache_error);
    if (!a.json)
        printf("params %s loaded in %.1f ms (curve checks, subgroups %s; domain %zu, %zu aux)\n",
               path, now_ms() - t0,
               bench_subgroups_text(p->subgroups, p->subgroups_recorded, cache), p->n_h + 1,
               p->n_l);
    if (use_pce) {
        t0 = now_ms();
        if ((s = cuzk_pce_extract(&pce, &c)) != CUZK_OK) {
            fprintf(stderr, "error: %s\n", cuzk_last_error());
            goto out;
        }
        if (!a.json)
            printf("pce extracted in %.1f ms\n", now_ms() - t0);
    }
    for (unsigned it = 0; it < a.repeat; it++) {
        cuzk_prover_data pd;
        memset(&pd, 0, sizeof pd);
        cuzk_prove_timings t;
        memset(&t, 0, sizeof t);
        t0 = now_ms();
        s = synthesize(&a, &c, pce, pool, cuzk_backend_device(be) >= 0, &pd);
        t.synthesis = now_ms() - t0;
        cuzk_groth16_proof proof;
        cuzk_prove_opts o = {.verify = !a.no_verify};
        if (s == CUZK_OK)
            s = cuzk_groth16_prove(&proof, p, &pd, be, &o, &t);
        if (s == CUZK_OK && a.public_out && it + 1 == a.repeat)
            s = write_inputs(a.public_out, &pd);
        cuzk_prover_data_free(&pd);
        if (s != CUZK_OK) {
            fprintf(stderr, "error: %s\n", cuzk_last_error());
            rc = s == CUZK_ERR_VERIFY_FAILED || s == CUZK_ERR_UNSATISFIED ? 1 : 2;
            goto out;
        }
        print_timings(&a, &t, cuzk_backend_name(be), cuzk_backend_threads(be), it);
        if (a.proof && it + 1 == a.repeat) {
            uint8_t bytes[CUZK_GROTH16_PROOF_BYTES];
            cuzk_groth16_proof_serialize(bytes, &proof);
            char tmp[4200];
            snprintf(tmp, sizeof tmp, "%s.tmp", a.proof);
            FILE *f = fopen(tmp, "wb");
            bool ok = f && fwrite(bytes, 1, sizeof bytes, f) == sizeof bytes;
            if (f && fclose(f) != 0)
                ok = false;
            if (!ok || rename(tmp, a.proof) != 0) {
                remove(tmp);
                fprintf(stderr, "error: cannot write %s: %s\n", a.proof, strerror(errno));
                goto out;
            }
        }
    }
    if (!a.json)
        printf("%s\n", a.no_verify ? "proof made (self-verification off)" : "proof verified");
    rc = 0;
out:
    cuzk_pce_destroy(pce);
    cuzk_groth16_params_free(p);
    cuzk_check_cache_close(cache);
    cuzk_backend_destroy(be);
    return rc;
}

int cmd_list_circuits(int argc, char **argv)
{
    (void)argv;
    if (argc != 0) {
        fprintf(stderr, "cuzk-bench circuits: takes no arguments\n");
        return 2;
    }
    for (size_t i = 0; cuzk_circuit_registry_name(i); i++)
        printf("%-18s %s\n", cuzk_circuit_registry_name(i), cuzk_circuit_registry_description(i));
    return 0;
}

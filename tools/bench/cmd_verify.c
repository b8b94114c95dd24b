/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* verify and verify-winning-post: exit 0 valid, 1 invalid, 2 usage or malformed input. */
#include "commands.h"
#include "hexutil.h"
#include "cuzk/alloc.h"
#include "cuzk/filecoin.h"
#include "cuzk/groth16.h"
#include "common/file.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define EXIT_VALID 0
#define EXIT_INVALID 1
#define EXIT_ERROR 2
#define MAX_PROOFS 64
#define MAX_VECTOR_BYTES (1u << 20)

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Parses "--key value" pairs into the named slots; returns false (after a message) on misuse. */
static bool parse_kv(int argc, char **argv, const char *cmd, const char **keys, const char **vals,
                     int nkeys)
{
    for (int i = 0; i < argc; i++) {
        int k = 0;
        while (k < nkeys && strcmp(argv[i], keys[k]) != 0)
            k++;
        if (k == nkeys || i + 1 >= argc) {
            fprintf(stderr, "cuzk-bench %s: %s '%s'\n", cmd,
                    k == nkeys ? "unknown option" : "missing value for", argv[i]);
            return false;
        }
        vals[k] = argv[++i];
    }
    for (int k = 0; k < nkeys; k++) {
        if (!vals[k]) {
            fprintf(stderr, "cuzk-bench %s: %s is required\n", cmd, keys[k]);
            return false;
        }
    }
    return true;
}

static const char *json_str(const cJSON *root, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Reads a non-negative integer that fits in 53 bits exactly (JSON numbers are doubles). */
static bool json_u64(const cJSON *root, const char *key, uint64_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
    if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 9007199254740991.0 ||
        v->valuedouble != (double)(uint64_t)v->valuedouble)
        return false;
    *out = (uint64_t)v->valuedouble;
    return true;
}

static int load_vk(cuzk_groth16_vk **vk, const char *path, double *ms)
{
    double t0 = now_ms();
    cuzk_status s = cuzk_groth16_vk_load(vk, path);
    *ms = now_ms() - t0;
    if (s != CUZK_OK) {
        fprintf(stderr, "error: verifying key: %s (%s)\n", cuzk_last_error(), cuzk_status_name(s));
        return EXIT_ERROR;
    }
    return EXIT_VALID;
}

static int report_invalid(const char *what)
{
    printf("invalid: %s\n", what);
    return EXIT_INVALID;
}

/* The verifier's status as the commands' output and exit code. */
static int report_verdict(cuzk_status s)
{
    if (s == CUZK_OK) {
        printf("valid\n");
        return EXIT_VALID;
    }
    if (s == CUZK_ERR_VERIFY_FAILED)
        return report_invalid(cuzk_last_error());
    fprintf(stderr, "error: %s\n", cuzk_last_error());
    return EXIT_ERROR;
}

int cmd_verify_winning_post(int argc, char **argv)
{
    const char *keys[2] = {"--vk", "--vector"}, *vals[2] = {NULL, NULL};
    if (!parse_kv(argc, argv, "verify-winning-post", keys, vals, 2))
        return EXIT_ERROR;
    int rc = EXIT_ERROR;
    cuzk_groth16_vk *vk = NULL;
    cJSON *root = NULL;
    uint8_t *text = NULL;
    size_t text_len = 0;
    double t_vk;
    if (load_vk(&vk, vals[0], &t_vk) != EXIT_VALID)
        return EXIT_ERROR;
    cuzk_status s = cuzk_read_file(vals[1], &text, &text_len, MAX_VECTOR_BYTES);
    if (s != CUZK_OK) {
        fprintf(stderr, "error: vector: %s\n", cuzk_last_error());
        goto out;
    }
    root = cJSON_ParseWithLength((const char *)text, text_len);
    if (!cJSON_IsObject(root)) {
        fprintf(stderr, "error: vector %s is not a JSON object\n", vals[1]);
        goto out;
    }
    uint64_t seal_type, post_type, miner_id, sector;
    const char *rand_hex = json_str(root, "randomness_hex");
    const char *proof_hex = json_str(root, "proof_bytes_hex");
    const char *cid_hex = json_str(root, "sealed_cid_bytes_hex");
    const char *cid_str = json_str(root, "sealed_cid");
    if (!json_u64(root, "seal_proof_type", &seal_type) ||
        !json_u64(root, "post_proof_type", &post_type) || !json_u64(root, "miner_id", &miner_id) ||
        !json_u64(root, "sector_number", &sector) || !rand_hex || !proof_hex ||
        (!cid_hex && !cid_str)) {
        fprintf(stderr, "error: vector %s lacks one of seal_proof_type, post_proof_type, "
                        "miner_id, sector_number (integers), randomness_hex, proof_bytes_hex, "
                        "sealed_cid_bytes_hex or sealed_cid (strings)\n",
                vals[1]);
        goto out;
    }
    cuzk_fil_post_info info;
    uint64_t seal_size;
    if (cuzk_fil_post_info_get(&info, post_type) != CUZK_OK ||
        cuzk_fil_seal_sector_size(&seal_size, seal_type) != CUZK_OK) {
        fprintf(stderr, "error: %s\n", cuzk_last_error());
        goto out;
    }
    if (info.kind != CUZK_FIL_POST_WINNING || seal_size != info.sector_size) {
        fprintf(stderr, "error: post_proof_type %llu (%s) is not a WinningPoSt for the sector "
                        "size of seal_proof_type %llu\n",
                (unsigned long long)post_type, info.name, (unsigned long long)seal_type);
        goto out;
    }
    uint8_t randomness[32], cid[128], proof_bytes[192];
    size_t n_rand, n_cid, n_proof;
    if (!hex_decode(randomness, sizeof randomness, &n_rand, rand_hex) || n_rand != 32) {
        fprintf(stderr, "error: randomness_hex must be 64 hex digits\n");
        goto out;
    }
    if (!hex_decode(proof_bytes, sizeof proof_bytes, &n_proof, proof_hex) || n_proof != 192) {
        fprintf(stderr, "error: proof_bytes_hex must be 384 hex digits (one 192-byte proof)\n");
        goto out;
    }
    if (cid_hex) {
        if (!hex_decode(cid, sizeof cid, &n_cid, cid_hex)) {
            fprintf(stderr, "error: sealed_cid_bytes_hex is not hex (at most %zu bytes)\n",
                    sizeof cid);
            goto out;
        }
    } else if (cuzk_fil_cid_decode_string(cid, sizeof cid, &n_cid, cid_str) != CUZK_OK) {
        fprintf(stderr, "error: sealed_cid: %s\n", cuzk_last_error());
        goto out;
    }
    if (vk->ic_len != 1 + info.sector_count * (1 + info.challenge_count)) {
        fprintf(stderr, "error: the verifying key has %zu public inputs; %s has %llu\n",
                vk->ic_len - 1, info.name,
                (unsigned long long)(info.sector_count * (1 + info.challenge_count)));
        goto out;
    }
    printf("post_proof_type: %llu (%s), sector %llu of miner %llu\n",
           (unsigned long long)post_type, info.name, (unsigned long long)sector,
           (unsigned long long)miner_id);
    /* From here on the vector is well formed: whatever fails is a statement that is false. */
    uint8_t comm_r[32];
    if (cuzk_fil_comm_r_from_cid(comm_r, cid, n_cid) != CUZK_OK) {
        rc = report_invalid(cuzk_last_error());
        goto out;
    }
    char hex[65];
    hex_encode(hex, comm_r, 32);
    printf("comm_r (LE): %s\n", hex);
    cuzk_fr_t inputs[2 * 66 * 1 + 64];
    size_t n_inputs;
    double t0 = now_ms();
    if (cuzk_fil_winning_post_inputs(inputs, sizeof inputs / sizeof inputs[0], &n_inputs,
                                     post_type, randomness, sector, comm_r) != CUZK_OK) {
        rc = report_invalid(cuzk_last_error());
        goto out;
    }
    double t_inputs = now_ms() - t0;
    printf("leaf challenges:");
    for (size_t i = 1; i < n_inputs; i += 1 + info.challenge_count) {
        uint64_t l[4];
        cuzk_fr_to_canonical(l, &inputs[i]);
        printf(" %llu", (unsigned long long)l[0]);
    }
    printf("\n");
    cuzk_groth16_proof proof;
    if (cuzk_groth16_proof_parse(&proof, proof_bytes) != CUZK_OK) {
        rc = report_invalid(cuzk_last_error());
        goto out;
    }
    t0 = now_ms();
    s = cuzk_groth16_verify(vk, &proof, inputs, n_inputs);
    double t_verify = now_ms() - t0;
    printf("timings: vk_load %.2f ms, inputs %.3f ms, verify %.2f ms\n", t_vk, t_inputs,
           t_verify);
    rc = report_verdict(s);
out:
    cJSON_Delete(root);
    cuzk_free(text);
    cuzk_groth16_vk_free(vk);
    return rc;
}

/* Reads public inputs: one Fr per line as 64 hex digits (32-byte little-endian repr). */
static int read_inputs(const char *path, cuzk_fr_t **out, size_t *n)
{
    uint8_t *text;
    size_t len;
    *out = NULL;
    *n = 0;
    if (cuzk_read_file(path, &text, &len, 64u << 20) != CUZK_OK) {
        fprintf(stderr, "error: inputs: %s\n", cuzk_last_error());
        return EXIT_ERROR;
    }
    size_t cap = len / 64 + 1, cnt = 0;
    cuzk_fr_t *v = cuzk_alloc_array(cap, sizeof *v);
    int rc = v ? EXIT_VALID : EXIT_ERROR;
    size_t line = 0;
    for (size_t i = 0; rc == EXIT_VALID && i < len;) {
        size_t j = i;
        while (j < len && text[j] != '\n')
            j++;
        line++;
        size_t e = j;
        while (e > i && (text[e - 1] == '\r' || text[e - 1] == ' '))
            e--;
        if (e > i) {
            char buf[80];
            uint8_t bytes[32];
            size_t nb;
            if (e - i >= sizeof buf || cnt >= cap) {
                rc = EXIT_ERROR;
            } else {
                memcpy(buf, text + i, e - i);
                buf[e - i] = 0;
                if (!hex_decode(bytes, 32, &nb, buf) || nb != 32 ||
                    cuzk_fr_from_bytes_le(&v[cnt], bytes) != CUZK_OK)
                    rc = EXIT_ERROR;
                else
                    cnt++;
            }
            if (rc != EXIT_VALID)
                fprintf(stderr, "error: %s line %zu: expected 64 hex digits of a canonical "
                                "32-byte little-endian field element\n",
                        path, line);
        }
        i = j + 1;
    }
    cuzk_free(text);
    if (rc != EXIT_VALID) {
        cuzk_free(v);
        return rc;
    }
    *out = v;
    *n = cnt;
    return EXIT_VALID;
}

int cmd_verify(int argc, char **argv)
{
    const char *keys[3] = {"--vk", "--proof", "--inputs"}, *vals[3] = {NULL, NULL, NULL};
    if (!parse_kv(argc, argv, "verify", keys, vals, 3))
        return EXIT_ERROR;
    cuzk_groth16_vk *vk = NULL;
    double t_vk;
    if (load_vk(&vk, vals[0], &t_vk) != EXIT_VALID)
        return EXIT_ERROR;
    int rc = EXIT_ERROR;
    uint8_t *pbytes = NULL;
    size_t plen = 0, n_inputs = 0, n_proofs = 0;
    cuzk_fr_t *inputs = NULL;
    cuzk_groth16_proof *proofs = NULL;
    if (cuzk_read_file(vals[1], &pbytes, &plen, MAX_PROOFS * 192) != CUZK_OK) {
        fprintf(stderr, "error: proof: %s\n", cuzk_last_error());
        goto out;
    }
    if (plen == 0 || plen % 192 != 0) {
        fprintf(stderr, "error: proof file is %zu bytes, not a multiple of 192\n", plen);
        goto out;
    }
    if (read_inputs(vals[2], &inputs, &n_inputs) != EXIT_VALID)
        goto out;
    n_proofs = plen / 192;
    size_t per = vk->ic_len - 1;
    if (n_inputs != per * n_proofs) {
        fprintf(stderr, "error: %zu proofs need %zu inputs each (%zu in all); the file has %zu\n",
                n_proofs, per, per * n_proofs, n_inputs);
        goto out;
    }
    proofs = cuzk_alloc_array(n_proofs, sizeof *proofs);
    size_t got;
    if (!proofs) {
        fprintf(stderr, "error: out of memory\n");
        goto out;
    }
    if (cuzk_groth16_proofs_parse(proofs, n_proofs, &got, pbytes, plen) != CUZK_OK) {
        rc = report_invalid(cuzk_last_error());
        goto out;
    }
    double t0 = now_ms();
    cuzk_status s = cuzk_groth16_verify_batch(vk, proofs, n_proofs, inputs, per);
    printf("timings: vk_load %.2f ms, verify %.2f ms (%zu proof%s)\n", t_vk, now_ms() - t0,
           n_proofs, n_proofs == 1 ? "" : "s");
    rc = report_verdict(s);
out:
    cuzk_free(proofs);
    cuzk_free(inputs);
    cuzk_free(pbytes);
    cuzk_groth16_vk_free(vk);
    return rc;
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * verify-snarkjs: verifies a snarkjs proof.json / public.json against a verification_key.json
 * with cuzk's verifier. Exit 0 valid; 1 invalid (the pairing check fails, or a proof point is
 * off the curve, outside the subgroup or the identity); 2 usage error or malformed files.
 */
#include "commands.h"
#include "cuzk/alloc.h"
#include "cuzk/snarkjs.h"
#include "common/file.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define EXIT_VALID 0
#define EXIT_INVALID 1
#define EXIT_ERROR 2
#define MAX_JSON_BYTES ((size_t)64 << 20)

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static bool read_text(const char *path, const char *what, char **text, size_t *len)
{
    uint8_t *buf;
    if (cuzk_read_file(path, &buf, len, MAX_JSON_BYTES) != CUZK_OK) {
        fprintf(stderr, "error: %s: %s\n", what, cuzk_last_error());
        return false;
    }
    *text = (char *)buf;
    return true;
}

int cmd_verify_snarkjs(int argc, char **argv)
{
    const char *keys[3] = {"--vk", "--proof", "--public"}, *vals[3] = {NULL, NULL, NULL};
    for (int i = 0; i < argc; i++) {
        int k = 0;
        while (k < 3 && strcmp(argv[i], keys[k]) != 0)
            k++;
        if (k == 3 || i + 1 >= argc) {
            fprintf(stderr, "cuzk-bench verify-snarkjs: %s '%s'\n",
                    k == 3 ? "unknown option" : "missing value for", argv[i]);
            return EXIT_ERROR;
        }
        vals[k] = argv[++i];
    }
    for (int k = 0; k < 3; k++) {
        if (!vals[k]) {
            fprintf(stderr, "cuzk-bench verify-snarkjs: %s is required\n", keys[k]);
            return EXIT_ERROR;
        }
    }
    int rc = EXIT_ERROR;
    char *vk_text = NULL, *proof_text = NULL, *pub_text = NULL;
    size_t vk_len, proof_len, pub_len, n_pub = 0;
    cuzk_groth16_vk *vk = NULL;
    cuzk_fr_t *pub = NULL;
    cuzk_groth16_proof proof;
    cuzk_status s;
    if (!read_text(vals[0], "verification key", &vk_text, &vk_len) ||
        !read_text(vals[1], "proof", &proof_text, &proof_len) ||
        !read_text(vals[2], "public signals", &pub_text, &pub_len))
        goto out;
    double t0 = now_ms();
    if ((s = cuzk_snarkjs_vk_from_json(&vk, vk_text, vk_len)) != CUZK_OK) {
        fprintf(stderr, "error: %s: %s (%s)\n", vals[0], cuzk_last_error(), cuzk_status_name(s));
        goto out;
    }
    double t_vk = now_ms() - t0;
    if ((s = cuzk_snarkjs_public_from_json(&pub, &n_pub, pub_text, pub_len)) != CUZK_OK) {
        fprintf(stderr, "error: %s: %s (%s)\n", vals[2], cuzk_last_error(), cuzk_status_name(s));
        goto out;
    }
    if (n_pub + 1 != vk->ic_len) {
        fprintf(stderr, "error: %s has %zu public signals; the verification key expects %zu\n",
                vals[2], n_pub, vk->ic_len - 1);
        goto out;
    }
    s = cuzk_snarkjs_proof_from_json(&proof, proof_text, proof_len);
    if (s == CUZK_ERR_NOT_ON_CURVE || s == CUZK_ERR_NOT_IN_SUBGROUP || s == CUZK_ERR_BAD_ENCODING) {
        printf("invalid: %s: %s\n", vals[1], cuzk_last_error());
        rc = EXIT_INVALID;
        goto out;
    }
    if (s != CUZK_OK) {
        fprintf(stderr, "error: %s: %s (%s)\n", vals[1], cuzk_last_error(), cuzk_status_name(s));
        goto out;
    }
    t0 = now_ms();
    s = cuzk_groth16_verify(vk, &proof, pub, n_pub);
    printf("timings: vk_load %.2f ms, verify %.2f ms\n", t_vk, now_ms() - t0);
    if (s == CUZK_OK) {
        printf("valid\n");
        rc = EXIT_VALID;
    } else if (s == CUZK_ERR_VERIFY_FAILED) {
        printf("invalid: %s\n", cuzk_last_error());
        rc = EXIT_INVALID;
    } else {
        fprintf(stderr, "error: %s\n", cuzk_last_error());
    }
out:
    cuzk_free(vk_text);
    cuzk_free(proof_text);
    cuzk_free(pub_text);
    cuzk_free(pub);
    cuzk_groth16_vk_free(vk);
    return rc;
}

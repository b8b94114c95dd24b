/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * gen-vanilla: synthetic PoSt and SnapDeals vanilla proofs for driving the daemon without a
 * sealed sector.
 * A partition of RegisteredPoStProof N is made from a seed (cuzk_fil_post_partition_synthetic:
 * Poseidon trees R of the real shape whose untouched leaves share one value, challenges derived
 * from the randomness as Filecoin derives them) and written the way Curio's cuzk-bench reads
 * --vanilla: a JSON array of base64 bincode FallbackPoStSectorProofs. The randomness it was
 * made for is printed (pass it as --randomness); --inputs writes the public inputs the proof
 * must verify with, derived independently of the daemon (cuzk_fil_{winning,window}_post_inputs).
 * --update-proof N writes SnapDeals instead: one bincode PartitionProof per partition of
 * RegisteredUpdateProof N, all from one synthetic sector (cuzk_fil_snap_partition_synthetic), and
 * prints the three comms to pass as --comm-r-old / --comm-d-new / --comm-r-new; --inputs then
 * holds 4 inputs per partition (k | h_select, comm_r_old, comm_d_new, comm_r_new).
 * --seal-proof N writes a PoRep C1 output (cmd_gen_vanilla_porep.c).
 * Exit codes: 0 written; 2 usage or I/O error.
 */
#include "cmd_client.h"
#include "commands.h"
#include "gen_vanilla.h"
#include "hexutil.h"
#include "cuzk/alloc.h"
#include "filecoin/post_circuit.h"
#include "filecoin/snap_circuit.h"

#include <cjson/cJSON.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#define EXIT_OK 0
#define EXIT_ERROR 2

static void usage(FILE *f)
{
    fprintf(f,
            "usage: cuzk-bench gen-vanilla --post-proof N --out FILE [--seed N] [--sectors K]\n"
            "                              [--inputs FILE] [--json]\n"
            "       cuzk-bench gen-vanilla --update-proof N --out FILE [--seed N] [--inputs FILE]\n"
            "                              [--json]\n"
            "  Synthetic PoSt vanilla proofs (JSON array of base64 bincode) for\n"
            "  RegisteredPoStProof N (0-4 WinningPoSt, 5-14 WindowPoSt) and the randomness\n"
            "  they answer; --sectors K < the partition's sectors writes the first K only\n"
            "  (the prover repeats the last); --inputs FILE: the public inputs, one 32-byte\n"
            "  LE hex per line (cuzk-bench verify --inputs).\n"
            "  --update-proof N: SnapDeals partition proofs of RegisteredUpdateProof N (0-4),\n"
            "  one per partition of one synthetic sector, and its comm_r_old, comm_d_new,\n"
            "  comm_r_new (hex, as single --comm-* takes them).\n"
            "       cuzk-bench gen-vanilla --seal-proof N --out FILE [--seed N] [--inputs FILE]\n"
            "                              [--bincode] [--json]\n"
            "  --seal-proof N: the C1 output of a sector of RegisteredSealProof N (2 KiB or\n"
            "  8 MiB) replicated over the PoRep graph, as Curio's wrapper JSON (single --c1)\n"
            "  or raw bincode; miner 1000, sector = seed mod 2^32.\n");
}

bool gen_vanilla_write(const char *path, const void *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "cuzk-bench gen-vanilla: cannot write %s\n", path);
        if (f)
            fclose(f);
        return false;
    }
    return true;
}

static bool write_file(const char *path, const char *text)
{
    return gen_vanilla_write(path, text, strlen(text));
}

char *gen_vanilla_hex_lines(char *o, const cuzk_fr_t *in, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t b[32];
        cuzk_fr_to_bytes_le(b, &in[i]);
        hex_encode(o, b, 32);
        o += 64;
        *o++ = '\n';
    }
    *o = 0;
    return o;
}

/* The partition's public inputs, one LE hex per line. */
static char *inputs_text(const cuzk_fil_post_partition *p, size_t nsectors)
{
    cuzk_fil_post_info info;
    if (cuzk_fil_post_info_get(&info, p->post_proof_type) != CUZK_OK)
        return NULL;
    size_t max = (size_t)(info.sector_count * (1 + info.challenge_count)), n = 0;
    cuzk_fr_t *in = cuzk_alloc_array(max, sizeof *in);
    char *text = cuzk_alloc_array(max, 66);
    cuzk_status s =
        !in || !text ? CUZK_ERR_NOMEM
        : info.kind == CUZK_FIL_POST_WINNING
            ? cuzk_fil_winning_post_inputs(in, max, &n, p->post_proof_type, p->randomness,
                                           p->sector_ids[0], p->comm_rs[0])
            : cuzk_fil_window_post_inputs(in, max, &n, p->post_proof_type, p->randomness,
                                          p->partition, p->sector_ids,
                                          (const uint8_t(*)[32])p->comm_rs, nsectors);
    if (s != CUZK_OK) {
        cuzk_free(in);
        cuzk_free(text);
        return NULL;
    }
    gen_vanilla_hex_lines(text, in, n);
    cuzk_free(in);
    return text;
}

/* The base64 of |len| bytes as a new JSON string in |arr|. */
static bool add_b64(cJSON *arr, const uint8_t *buf, size_t len)
{
    char *b64 = cuzk_alloc(4 * ((len + 2) / 3) + 1);
    if (b64)
        EVP_EncodeBlock((unsigned char *)b64, buf, (int)len);
    bool ok = b64 && cJSON_AddItemToArray(arr, cJSON_CreateString(b64));
    cuzk_free(b64);
    return ok;
}

/* --update-proof: every partition of one synthetic sector of RegisteredUpdateProof |id|. */
static int gen_snap(uint64_t id, uint64_t seed, unsigned threads, const char *out,
                    const char *inputs, bool json)
{
    cuzk_fil_snap_shape sh;
    if (cuzk_fil_snap_shape_get(&sh, id) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench gen-vanilla: %s\n", cuzk_last_error());
        return EXIT_ERROR;
    }
    int rc = EXIT_ERROR;
    cJSON *arr = cJSON_CreateArray();
    char *text = NULL, *in_text = cuzk_alloc_array(4 * sh.partitions, 66), *o = in_text;
    uint8_t comm[3][32];
    for (size_t k = 0; arr && in_text && k < sh.partitions; k++) {
        cuzk_fil_snap_partition *p = NULL;
        uint8_t *buf = NULL;
        size_t len = 0;
        if (cuzk_fil_snap_partition_synthetic(&p, id, k, seed, threads) != CUZK_OK ||
            cuzk_fil_snap_vanilla_encode(p, &buf, &len) != CUZK_OK) {
            fprintf(stderr, "cuzk-bench gen-vanilla: %s\n", cuzk_last_error());
            cuzk_fil_snap_partition_destroy(p);
            goto done;
        }
        cuzk_fr_t in[4];
        cuzk_fil_snap_public_inputs(in, p);
        for (int i = 0; i < 4; i++) {
            uint8_t b[32];
            cuzk_fr_to_bytes_le(b, &in[i]);
            hex_encode(o, b, 32);
            o += 64;
            *o++ = '\n';
            if (i > 0)
                memcpy(comm[i - 1], b, 32);
        }
        *o = 0;
        cuzk_fil_snap_partition_destroy(p);
        bool ok = add_b64(arr, buf, len);
        cuzk_free(buf);
        if (!ok)
            goto done;
    }
    text = arr ? cJSON_PrintUnformatted(arr) : NULL;
    if (!text || !in_text || !write_file(out, text))
        goto done;
    if (inputs && !write_file(inputs, in_text))
        goto done;
    char hex[3][65];
    for (int i = 0; i < 3; i++)
        hex_encode(hex[i], comm[i], 32);
    if (json)
        printf("{\"update_proof\":%llu,\"seed\":%llu,\"partitions\":%zu,\"comm_r_old\":\"%s\","
               "\"comm_d_new\":\"%s\",\"comm_r_new\":\"%s\"}\n",
               (unsigned long long)id, (unsigned long long)seed, sh.partitions, hex[0], hex[1],
               hex[2]);
    else
        printf("update proof %llu, seed %llu: %zu partition proof(s) written to %s\n"
               "comm_r_old %s\ncomm_d_new %s\ncomm_r_new %s\n",
               (unsigned long long)id, (unsigned long long)seed, sh.partitions, out, hex[0], hex[1],
               hex[2]);
    rc = EXIT_OK;
done:
    cJSON_free(text);
    cuzk_free(in_text);
    cJSON_Delete(arr);
    return rc;
}

int cmd_gen_vanilla(int argc, char **argv)
{
    uint64_t id = UINT64_MAX, update = UINT64_MAX, seal = UINT64_MAX, seed = 0, sectors = 0;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned threads = ncpu > 0 ? (unsigned)ncpu : 1;
    bool have_seed = false, json = false, bincode = false;
    const char *out = NULL, *inputs = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--json") == 0) {
            json = true;
            continue;
        }
        if (strcmp(a, "--bincode") == 0) {
            bincode = true;
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return EXIT_OK;
        }
        if (!v) {
            usage(stderr);
            return EXIT_ERROR;
        }
        i++;
        if (strcmp(a, "--post-proof") == 0) {
            if (!cli_u64("gen-vanilla", a, v, &id))
                return EXIT_ERROR;
        } else if (strcmp(a, "--update-proof") == 0) {
            if (!cli_u64("gen-vanilla", a, v, &update))
                return EXIT_ERROR;
        } else if (strcmp(a, "--seal-proof") == 0) {
            if (!cli_u64("gen-vanilla", a, v, &seal))
                return EXIT_ERROR;
        } else if (strcmp(a, "--seed") == 0) {
            if (!cli_u64("gen-vanilla", a, v, &seed))
                return EXIT_ERROR;
            have_seed = true;
        } else if (strcmp(a, "--sectors") == 0) {
            if (!cli_u64("gen-vanilla", a, v, &sectors))
                return EXIT_ERROR;
        } else if (strcmp(a, "--out") == 0) {
            out = v;
        } else if (strcmp(a, "--inputs") == 0) {
            inputs = v;
        } else {
            fprintf(stderr, "cuzk-bench gen-vanilla: unknown option %s\n", a);
            usage(stderr);
            return EXIT_ERROR;
        }
    }
    int kinds = (id != UINT64_MAX) + (update != UINT64_MAX) + (seal != UINT64_MAX);
    if (kinds != 1 || !out || (id == UINT64_MAX && sectors) || (seal == UINT64_MAX && bincode)) {
        usage(stderr);
        return EXIT_ERROR;
    }
    if (!have_seed && getrandom(&seed, sizeof seed, 0) != sizeof seed) {
        fprintf(stderr, "cuzk-bench gen-vanilla: no seed from the operating system\n");
        return EXIT_ERROR;
    }
    if (update != UINT64_MAX)
        return gen_snap(update, seed, threads, out, inputs, json);
    if (seal != UINT64_MAX)
        return gen_vanilla_porep(seal, seed, out, inputs, bincode, json);
    cuzk_fil_post_partition *p;
    if (cuzk_fil_post_partition_synthetic(&p, id, seed, threads) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench gen-vanilla: %s\n", cuzk_last_error());
        return EXIT_ERROR;
    }
    size_t k = sectors ? (size_t)sectors : p->nreal;
    if (k > p->nreal) {
        fprintf(stderr, "cuzk-bench gen-vanilla: --sectors %zu, the partition has %zu\n", k,
                p->nreal);
        cuzk_fil_post_partition_destroy(p);
        return EXIT_ERROR;
    }
    int rc = EXIT_ERROR;
    cJSON *arr = cJSON_CreateArray();
    char *text = NULL, *in_text = NULL;
    for (size_t r = 0; arr && r < k; r++) {
        uint8_t *buf;
        size_t len;
        if (cuzk_fil_post_vanilla_encode(p, r, &buf, &len) != CUZK_OK) {
            fprintf(stderr, "cuzk-bench gen-vanilla: %s\n", cuzk_last_error());
            goto done;
        }
        bool ok = add_b64(arr, buf, len);
        cuzk_free(buf);
        if (!ok)
            goto done;
    }
    text = cJSON_PrintUnformatted(arr);
    if (!text || !write_file(out, text))
        goto done;
    if (inputs && (!(in_text = inputs_text(p, k)) || !write_file(inputs, in_text)))
        goto done;
    char rnd[65];
    hex_encode(rnd, p->randomness, 32);
    if (json)
        printf("{\"post_proof\":%llu,\"seed\":%llu,\"sectors\":%zu,\"randomness\":\"%s\","
               "\"first_sector_id\":%llu}\n",
               (unsigned long long)id, (unsigned long long)seed, k, rnd,
               (unsigned long long)p->sector_ids[0]);
    else
        printf("post proof %llu, seed %llu: %zu vanilla proof(s) written to %s\nrandomness %s\n",
               (unsigned long long)id, (unsigned long long)seed, k, out, rnd);
    rc = EXIT_OK;
done:
    cJSON_free(text);
    cuzk_free(in_text);
    cJSON_Delete(arr);
    cuzk_fil_post_partition_destroy(p);
    return rc;
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Proof request flags of single / submit / batch, and the SubmitProofRequest they make. The
 * Filecoin flags (--type, --c1, --vanilla, ...) are sent the way Curio's cuzk-bench sends them
 * (cuzk-reference.md section 3): sector size 32 GiB unless told, randomness 32 zero bytes unless
 * given, the C1 file as vanilla_proof, a JSON array of base64 strings (else the whole file) as
 * vanilla_proofs. */
#include "cmd_client.h"
#include "hexutil.h"
#include "common/file.h"
#include "cuzk/alloc.h"

#include <cjson/cJSON.h>
#include <string.h>
#include <strings.h>

#define MAX_INPUT_FILE (256u << 20) /* the message limit */
#define MAX_PARTITIONS 1024         /* the engine's limit */

const char prove_opts_usage[] =
    "      [--circuit ID] [--seed N] [--partitions P] [--priority low|normal|high|critical]\n"
    "      [--request-id S] [--wtns FILE] [--no-verify] [--proof-out FILE] [--public-out FILE]\n"
    "      [--type porep|snap|wpost|winning --c1 FILE | --vanilla FILE [--registered-proof N]\n"
    "       [--sector-num N] [--miner-id N] [--sector-size BYTES] [--partition N]\n"
    "       [--randomness HEX32] [--comm-r-old HEX32] [--comm-r-new HEX32] [--comm-d-new HEX32]]\n";

void prove_opts_init(prove_opts *o)
{
    memset(o, 0, sizeof *o);
    o->sector_num = 1; /* Curio's defaults */
    o->miner_id = 1000;
    o->sector_size = 34359738368ull;
}

void prove_opts_clear(prove_opts *o)
{
    cuzk_free(o->witness);
    cuzk_free(o->vanilla);
    cuzk_free(o->vproofs);
    cuzk_free(o->vproof_store);
    o->witness = o->vanilla = o->vproof_store = NULL;
    o->vproofs = NULL;
}

/* Curio's names and aliases (cuzk-bench proof_kind_from_str). */
static int kind_from_name(const char *s)
{
    static const struct {
        const char *name;
        int kind;
    } names[] = {
        {"porep", 1},       {"porep-c2", 1},   {"seal-commit", 1}, {"snap", 2},
        {"snap-deals", 2},  {"update", 2},     {"snap-update", 2}, {"wpost", 3},
        {"window-post", 3}, {"windowpost", 3}, {"winning", 4},     {"winning-post", 4},
        {"winningpost", 4},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcasecmp(s, names[i].name) == 0)
            return names[i].kind;
    return -1;
}

static int priority_from_name(const char *s)
{
    static const char *const names[] = {"default", "low", "normal", "high", "critical"};
    for (int i = 0; i < 5; i++)
        if (strcasecmp(s, names[i]) == 0)
            return i;
    return -1;
}

static bool hex32(const char *cmd, const char *flag, const char *s, uint8_t out[32])
{
    size_t len = 0;
    if (!hex_decode(out, 32, &len, s) || len != 32) {
        fprintf(stderr, "cuzk-bench %s: %s needs 32 bytes in hex (64 digits)\n", cmd, flag);
        return false;
    }
    return true;
}

/* Sizes like 34359738368, 32GiB, 2KiB. */
static bool parse_size(const char *cmd, const char *flag, const char *s, uint64_t *out)
{
    static const struct {
        const char *suffix;
        unsigned shift;
    } units[] = {{"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"TiB", 40}};
    char num[32];
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
        size_t n = strlen(s), k = strlen(units[u].suffix);
        if (n > k && n - k < sizeof num && strcasecmp(s + n - k, units[u].suffix) == 0) {
            memcpy(num, s, n - k);
            num[n - k] = 0;
            uint64_t v;
            if (!cli_u64(cmd, flag, num, &v) || v > (UINT64_MAX >> units[u].shift))
                return false;
            *out = v << units[u].shift;
            return true;
        }
    }
    return cli_u64(cmd, flag, s, out);
}

int prove_opts_opt(prove_opts *o, const char *cmd, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    static const char *const with_value[] = {
        "--circuit",     "--seed",      "--partitions",       "--priority",   "--request-id",
        "--wtns",        "--proof-out", "--public-out",       "--type",       "-t",
        "--c1",          "--vanilla",   "--registered-proof", "--sector-num", "--miner-id",
        "--sector-size", "--partition", "--randomness",       "--comm-r-old", "--comm-r-new",
        "--comm-d-new",
    };
    if (strcmp(a, "--no-verify") == 0) {
        o->no_verify = true;
        return 1;
    }
    size_t k = 0, n = sizeof with_value / sizeof with_value[0];
    while (k < n && strcmp(a, with_value[k]) != 0)
        k++;
    if (k == n)
        return 0;
    const char *v = cli_value(cmd, argc, argv, i);
    if (!v)
        return -1;
    uint64_t u;
    if (strcmp(a, "--circuit") == 0) {
        o->circuit = v;
    } else if (strcmp(a, "--seed") == 0) {
        if (!cli_u64(cmd, a, v, &o->seed))
            return -1;
        o->have_seed = true;
    } else if (strcmp(a, "--partitions") == 0) {
        if (!cli_u64(cmd, a, v, &u))
            return -1;
        if (u < 1 || u > MAX_PARTITIONS) {
            fprintf(stderr, "cuzk-bench %s: --partitions must be 1..%d\n", cmd, MAX_PARTITIONS);
            return -1;
        }
        o->partitions = (uint32_t)u;
    } else if (strcmp(a, "--priority") == 0) {
        o->priority = priority_from_name(v);
        if (o->priority < 0) {
            fprintf(stderr, "cuzk-bench %s: --priority: low, normal, high or critical\n", cmd);
            return -1;
        }
    } else if (strcmp(a, "--request-id") == 0) {
        if (!*v || strlen(v) >= 100) {
            fprintf(stderr, "cuzk-bench %s: --request-id must be 1..99 bytes\n", cmd);
            return -1;
        }
        o->request_id = v;
    } else if (strcmp(a, "--wtns") == 0) {
        o->wtns_path = v;
    } else if (strcmp(a, "--proof-out") == 0) {
        o->proof_out = v;
    } else if (strcmp(a, "--public-out") == 0) {
        o->public_out = v;
    } else if (strcmp(a, "--type") == 0 || strcmp(a, "-t") == 0) {
        o->kind = kind_from_name(v);
        o->type_name = v;
        if (o->kind < 0) {
            fprintf(stderr,
                    "cuzk-bench %s: unknown proof type '%s' (porep, snap, wpost, "
                    "winning)\n",
                    cmd, v);
            return -1;
        }
    } else if (strcmp(a, "--c1") == 0) {
        o->c1_path = v;
    } else if (strcmp(a, "--vanilla") == 0) {
        o->vanilla_path = v;
    } else if (strcmp(a, "--registered-proof") == 0) {
        return cli_u64(cmd, a, v, &o->registered_proof) ? 1 : -1;
    } else if (strcmp(a, "--sector-num") == 0) {
        return cli_u64(cmd, a, v, &o->sector_num) ? 1 : -1;
    } else if (strcmp(a, "--miner-id") == 0) {
        return cli_u64(cmd, a, v, &o->miner_id) ? 1 : -1;
    } else if (strcmp(a, "--sector-size") == 0) {
        return parse_size(cmd, a, v, &o->sector_size) ? 1 : -1;
    } else if (strcmp(a, "--partition") == 0) {
        if (!cli_u64(cmd, a, v, &u))
            return -1;
        if (u > UINT32_MAX) {
            fprintf(stderr, "cuzk-bench %s: --partition is a 32-bit index\n", cmd);
            return -1;
        }
        o->partition_index = (uint32_t)u;
    } else if (strcmp(a, "--randomness") == 0) {
        return hex32(cmd, a, v, o->randomness) ? 1 : -1;
    } else if (strcmp(a, "--comm-r-old") == 0) {
        o->have_comm_r_old = true;
        return hex32(cmd, a, v, o->comm_r_old) ? 1 : -1;
    } else if (strcmp(a, "--comm-r-new") == 0) {
        o->have_comm_r_new = true;
        return hex32(cmd, a, v, o->comm_r_new) ? 1 : -1;
    } else if (strcmp(a, "--comm-d-new") == 0) {
        o->have_comm_d_new = true;
        return hex32(cmd, a, v, o->comm_d_new) ? 1 : -1;
    }
    return 1;
}

static int b64_digit(int c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

/* Standard base64 with padding (Go's json.Marshal of []byte); *len = bytes written. */
static bool b64_decode(uint8_t *out, size_t *len, const char *s)
{
    size_t n = strlen(s), o = 0;
    if (n % 4)
        return false;
    for (size_t i = 0; i < n; i += 4) {
        int d[4];
        for (int k = 0; k < 4; k++)
            d[k] = b64_digit((unsigned char)s[i + k]);
        bool last = i + 4 == n;
        /* '=' only at the end: "xx==" or "xxx=". */
        if (d[0] < 0 || d[1] < 0 || (d[2] < 0 && !(last && s[i + 2] == '=' && s[i + 3] == '=')) ||
            (d[3] < 0 && !(last && s[i + 3] == '=')))
            return false;
        out[o++] = (uint8_t)(d[0] << 2 | d[1] >> 4);
        if (d[2] >= 0)
            out[o++] = (uint8_t)(d[1] << 4 | d[2] >> 2);
        if (d[3] >= 0)
            out[o++] = (uint8_t)(d[2] << 6 | d[3]);
    }
    *len = o;
    return true;
}

static bool read_input(const char *cmd, const char *what, const char *path, uint8_t **buf,
                       size_t *len)
{
    if (cuzk_read_file(path, buf, len, MAX_INPUT_FILE) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench %s: %s: %s\n", cmd, what, cuzk_last_error());
        return false;
    }
    return true;
}

/* PoSt / SnapDeals inputs: a JSON array of base64 strings, else the file is one proof. */
static bool load_vanilla_proofs(prove_opts *o, const char *cmd)
{
    uint8_t *data;
    size_t len;
    if (!read_input(cmd, "--vanilla", o->vanilla_path, &data, &len))
        return false;
    cJSON *root = cJSON_ParseWithLength((const char *)data, len);
    bool strings = cJSON_IsArray(root) && cJSON_GetArraySize(root) > 0;
    for (cJSON *e = root ? root->child : NULL; strings && e; e = e->next)
        strings = cJSON_IsString(e);
    bool ok = false;
    if (!strings) {
        o->vproofs = cuzk_alloc(sizeof *o->vproofs);
        if (!o->vproofs)
            goto out;
        o->vproofs[0].data = data;
        o->vproofs[0].len = len;
        o->n_vproofs = 1;
        o->vproof_store = data;
        data = NULL;
        ok = true;
        goto out;
    }
    size_t n = (size_t)cJSON_GetArraySize(root), total = 0;
    for (cJSON *e = root->child; e; e = e->next)
        total += strlen(e->valuestring) / 4 * 3 + 3;
    o->vproofs = cuzk_alloc_array(n, sizeof *o->vproofs);
    o->vproof_store = cuzk_alloc(total ? total : 1);
    if (!o->vproofs || !o->vproof_store) {
        fprintf(stderr, "cuzk-bench %s: out of memory\n", cmd);
        goto out;
    }
    size_t at = 0, i = 0;
    for (cJSON *e = root->child; e; e = e->next, i++) {
        size_t got;
        if (!b64_decode(o->vproof_store + at, &got, e->valuestring)) {
            fprintf(stderr, "cuzk-bench %s: --vanilla %s: entry %zu is not valid base64\n", cmd,
                    o->vanilla_path, i);
            goto out;
        }
        o->vproofs[i].data = o->vproof_store + at;
        o->vproofs[i].len = got;
        at += got;
    }
    o->n_vproofs = n;
    ok = true;
out:
    cJSON_Delete(root);
    cuzk_free(data);
    return ok;
}

bool prove_opts_load(prove_opts *o, const char *cmd)
{
    bool filecoin = o->kind > 0;
    if (!o->circuit && !filecoin)
        o->circuit = "demo";
    if (o->have_seed && o->wtns_path) {
        fprintf(stderr, "cuzk-bench %s: --seed and --wtns exclude each other\n", cmd);
        return false;
    }
    if (!filecoin && (o->c1_path || o->vanilla_path)) {
        fprintf(stderr, "cuzk-bench %s: --c1 / --vanilla need --type\n", cmd);
        return false;
    }
    if (o->wtns_path && !read_input(cmd, "--wtns", o->wtns_path, &o->witness, &o->witness_len))
        return false;
    if (!filecoin)
        return true;
    if (o->kind == 1) {
        if (!o->c1_path) {
            fprintf(stderr, "cuzk-bench %s: --c1 FILE is required for PoRep\n", cmd);
            return false;
        }
        return read_input(cmd, "--c1", o->c1_path, &o->vanilla, &o->vanilla_len);
    }
    if (!o->vanilla_path) {
        fprintf(stderr, "cuzk-bench %s: --vanilla FILE is required for %s\n", cmd, o->type_name);
        return false;
    }
    return load_vanilla_proofs(o, cmd);
}

void prove_opts_request(const prove_opts *o, Cuzk__V1__SubmitProofRequest *req, unsigned index,
                        uint8_t seed_buf[8], char *suffix_buf, size_t suffix_len)
{
    cuzk__v1__submit_proof_request__init(req);
    req->proof_kind = (Cuzk__V1__ProofKind)(o->kind > 0 ? o->kind : 0);
    req->priority = (Cuzk__V1__Priority)o->priority;
    if (o->request_id) {
        if (suffix_buf) {
            snprintf(suffix_buf, suffix_len, "%s-%u", o->request_id, index);
            req->request_id = suffix_buf;
        } else {
            req->request_id = (char *)o->request_id;
        }
    }
    if (o->circuit)
        req->circuit_id = (char *)o->circuit;
    req->partitions = o->partitions;
    if (o->have_seed) {
        uint64_t s = o->seed + (uint64_t)index * (o->partitions ? o->partitions : 1);
        for (int k = 0; k < 8; k++)
            seed_buf[k] = (uint8_t)(s >> (8 * k));
        req->witness.data = seed_buf;
        req->witness.len = 8;
    } else if (o->witness) {
        req->witness.data = o->witness;
        req->witness.len = o->witness_len;
    }
    if (o->kind <= 0)
        return;
    req->sector_size = o->sector_size;
    req->registered_proof = o->registered_proof;
    req->sector_number = o->sector_num;
    req->miner_id = o->miner_id;
    req->partition_index = o->partition_index;
    req->randomness.data = (uint8_t *)o->randomness;
    req->randomness.len = 32;
    if (o->vanilla) {
        req->vanilla_proof.data = o->vanilla;
        req->vanilla_proof.len = o->vanilla_len;
    }
    req->n_vanilla_proofs = o->n_vproofs;
    req->vanilla_proofs = o->vproofs;
    if (o->have_comm_r_old) {
        req->comm_r_old.data = (uint8_t *)o->comm_r_old;
        req->comm_r_old.len = 32;
    }
    if (o->have_comm_r_new) {
        req->comm_r_new.data = (uint8_t *)o->comm_r_new;
        req->comm_r_new.len = 32;
    }
    if (o->have_comm_d_new) {
        req->comm_d_new.data = (uint8_t *)o->comm_d_new;
        req->comm_d_new.len = 32;
    }
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "fuzz_targets.h"
#include "cuzk/filecoin.h"
#include "cuzk/groth16.h"
#include "cuzk/r1cs.h"
#include "cuzk/snarkjs.h"
#include "cuzk/alloc.h"
#include "common/toml.h"
#include "filecoin/porep_vanilla.h"
#include "filecoin/post_circuit.h"
#include "filecoin/snap_circuit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CONTRACT(cond)                                                                             \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz contract broken: %s (%s:%d)\n", #cond, __FILE__, __LINE__);      \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

int cuzk_fuzz_vk(const uint8_t *data, size_t len)
{
    cuzk_groth16_vk *vk = (cuzk_groth16_vk *)(uintptr_t)1;
    cuzk_status s = cuzk_groth16_vk_parse(&vk, data, len);
    CONTRACT((s == CUZK_OK) == (vk != NULL));
    if (s != CUZK_OK)
        return 0;
    CONTRACT(vk->ic_len >= 1 && 868 + 96 * vk->ic_len == len);
    cuzk_groth16_vk_free(vk);
    return 1;
}

int cuzk_fuzz_params(const uint8_t *data, size_t len)
{
    cuzk_groth16_params *p = (cuzk_groth16_params *)(uintptr_t)1;
    cuzk_status s = cuzk_groth16_params_parse(&p, data, len, CUZK_PARAMS_UNCHECKED, NULL);
    CONTRACT((s == CUZK_OK) == (p != NULL));
    cuzk_groth16_params_free(p);
    return s == CUZK_OK;
}

int cuzk_fuzz_proof(const uint8_t *data, size_t len)
{
    cuzk_groth16_proof pr[4], snap[4];
    memset(pr, 0x3c, sizeof pr);
    memcpy(snap, pr, sizeof pr);
    size_t n = 99;
    cuzk_status s = cuzk_groth16_proofs_parse(pr, 4, &n, data, len);
    CONTRACT(s == CUZK_OK ? n == len / 192 : n == 0);
    if (len == 192) {
        cuzk_groth16_proof one;
        memset(&one, 0x3c, sizeof one);
        cuzk_status s1 = cuzk_groth16_proof_parse(&one, data);
        CONTRACT(s1 == s);
        CONTRACT(s1 == CUZK_OK || memcmp(&one, &snap[0], sizeof one) == 0);
        if (s1 == CUZK_OK) {
            uint8_t back[192];
            cuzk_groth16_proof_serialize(back, &one);
            CONTRACT(memcmp(back, data, 192) == 0); /* canonical encodings only */
        }
    }
    return s == CUZK_OK;
}

int cuzk_fuzz_g1(const uint8_t *data, size_t len)
{
    cuzk_g1_affine_t p, snap;
    memset(&p, 0x77, sizeof p);
    snap = p;
    cuzk_status s = cuzk_g1_decode(&p, data, len);
    if (s != CUZK_OK) {
        CONTRACT(memcmp(&p, &snap, sizeof p) == 0);
        return 0;
    }
    CONTRACT(p.infinity || (cuzk_g1_affine_is_on_curve(&p) && cuzk_g1_affine_in_subgroup(&p)));
    uint8_t back[96];
    if (len == 48)
        cuzk_g1_compress(back, &p);
    else
        cuzk_g1_serialize(back, &p);
    CONTRACT(memcmp(back, data, len) == 0);
    return 1;
}

int cuzk_fuzz_g2(const uint8_t *data, size_t len)
{
    cuzk_g2_affine_t p, snap;
    memset(&p, 0x77, sizeof p);
    snap = p;
    cuzk_status s = cuzk_g2_decode(&p, data, len);
    if (s != CUZK_OK) {
        CONTRACT(memcmp(&p, &snap, sizeof p) == 0);
        return 0;
    }
    CONTRACT(p.infinity || (cuzk_g2_affine_is_on_curve(&p) && cuzk_g2_affine_in_subgroup(&p)));
    uint8_t back[192];
    if (len == 96)
        cuzk_g2_compress(back, &p);
    else
        cuzk_g2_serialize(back, &p);
    CONTRACT(memcmp(back, data, len) == 0);
    return 1;
}

int cuzk_fuzz_cid(const uint8_t *data, size_t len)
{
    uint8_t comm_r[32];
    return cuzk_fil_comm_r_from_cid(comm_r, data, len) == CUZK_OK;
}

int cuzk_fuzz_zkey(const uint8_t *data, size_t len)
{
    cuzk_snarkjs_zkey *zk = (cuzk_snarkjs_zkey *)(uintptr_t)1;
    cuzk_status s = cuzk_snarkjs_zkey_parse(&zk, data, len, 0, NULL);
    CONTRACT((s == CUZK_OK) == (zk != NULL));
    cuzk_snarkjs_zkey_free(zk);
    return s == CUZK_OK;
}

int cuzk_fuzz_r1cs(const uint8_t *data, size_t len)
{
    cuzk_snarkjs_r1cs *r = (cuzk_snarkjs_r1cs *)(uintptr_t)1;
    cuzk_status s = cuzk_snarkjs_r1cs_parse(&r, data, len);
    CONTRACT((s == CUZK_OK) == (r != NULL));
    cuzk_snarkjs_r1cs_free(r);
    return s == CUZK_OK;
}

int cuzk_fuzz_wtns(const uint8_t *data, size_t len)
{
    cuzk_snarkjs_wtns *w = (cuzk_snarkjs_wtns *)(uintptr_t)1;
    cuzk_status s = cuzk_snarkjs_wtns_parse(&w, data, len);
    CONTRACT((s == CUZK_OK) == (w != NULL));
    cuzk_snarkjs_wtns_free(w);
    return s == CUZK_OK;
}

int cuzk_fuzz_pce(const uint8_t *data, size_t len)
{
    /* The PCE reader takes a path: go through a private temporary file. */
    char path[] = "/tmp/cuzk-fuzz-pce-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 0;
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    close(fd);
    cuzk_pce *pce = (cuzk_pce *)(uintptr_t)1;
    cuzk_status s = cuzk_pce_load(&pce, path);
    unlink(path);
    CONTRACT(s != CUZK_OK || pce != NULL);
    if (s == CUZK_OK)
        cuzk_pce_destroy(pce);
    return s == CUZK_OK;
}

/* The comms of the synthetic 2 KiB partition of seed 1 (made once). */
static bool snap_comms(uint8_t comm[3][32])
{
    static uint8_t c[3][32];
    static int state; /* 0 not made, 1 made, -1 failed */
    if (state == 0) {
        cuzk_fil_snap_partition *p;
        state = -1;
        if (cuzk_fil_snap_partition_synthetic(&p, 0, 0, 1, 1) == CUZK_OK) {
            cuzk_fr_to_bytes_le(c[0], &p->w.comm_r_old);
            cuzk_fr_to_bytes_le(c[1], &p->w.comm_d_new);
            cuzk_fr_to_bytes_le(c[2], &p->w.comm_r_new);
            cuzk_fil_snap_partition_destroy(p);
            state = 1;
        }
    }
    memcpy(comm, c, sizeof c);
    return state == 1;
}

int cuzk_fuzz_snap_vanilla(const uint8_t *data, size_t len)
{
    uint8_t comm[3][32];
    CONTRACT(snap_comms(comm));
    cuzk_fil_snap_partition *p = (cuzk_fil_snap_partition *)(uintptr_t)1;
    cuzk_status s =
        cuzk_fil_snap_partition_from_vanilla(&p, 0, 0, comm[0], comm[1], comm[2], 0, data, len);
    CONTRACT((s == CUZK_OK) == (p != NULL));
    CONTRACT(s == CUZK_OK || s == CUZK_ERR_FORMAT || s == CUZK_ERR_NOT_CANONICAL);
    if (s != CUZK_OK)
        return 0;
    /* What parsed encodes back to the same bytes. */
    uint8_t *buf = NULL;
    size_t n = 0;
    CONTRACT(cuzk_fil_snap_vanilla_encode(p, &buf, &n) == CUZK_OK);
    CONTRACT(n == len && memcmp(buf, data, len) == 0);
    cuzk_free(buf);
    cuzk_fil_snap_partition_destroy(p);
    return 1;
}

/* A writer's output |buf| (cuzk_alloc'd, freed here) as a seed: a malloc'd copy of its *|len|
 * bytes when |s| is CUZK_OK, else NULL. */
static uint8_t *seed_copy(cuzk_status s, void *buf, size_t *len)
{
    uint8_t *out = s == CUZK_OK ? malloc(*len ? *len : 1) : NULL;
    if (out)
        memcpy(out, buf, *len);
    cuzk_free(buf);
    return out;
}

uint8_t *cuzk_fuzz_snap_vanilla_seed(size_t *len)
{
    cuzk_fil_snap_partition *p;
    uint8_t *buf = NULL;
    *len = 0;
    if (cuzk_fil_snap_partition_synthetic(&p, 0, 0, 1, 1) != CUZK_OK)
        return NULL;
    cuzk_status s = cuzk_fil_snap_vanilla_encode(p, &buf, len);
    cuzk_fil_snap_partition_destroy(p);
    return seed_copy(s, buf, len);
}

/* ---- PoRep C1 ------------------------------------------------------------------------------ */

static int porep_c1_result(cuzk_status s, cuzk_fil_porep_c1 *c1, const uint8_t *data, size_t len,
                           bool json)
{
    CONTRACT((s == CUZK_OK) == (c1 != NULL));
    CONTRACT(s == CUZK_OK || s == CUZK_ERR_FORMAT || s == CUZK_ERR_NOT_CANONICAL ||
             (json && s == CUZK_ERR_UNSUPPORTED));
    if (s != CUZK_OK)
        return 0;
    /* What parsed encodes back to the same bytes (JSON: to the same C1, through bincode). */
    uint8_t *buf = NULL;
    size_t n = 0;
    CONTRACT(cuzk_fil_porep_c1_to_bincode(c1, &buf, &n) == CUZK_OK);
    if (!json)
        CONTRACT(n == len && memcmp(buf, data, len) == 0);
    cuzk_free(buf);
    cuzk_fil_porep_c1_destroy(c1);
    return 1;
}

int cuzk_fuzz_porep_c1(const uint8_t *data, size_t len)
{
    cuzk_fil_porep_c1 *c1 = (cuzk_fil_porep_c1 *)(uintptr_t)1;
    cuzk_status s = cuzk_fil_porep_c1_from_bincode(&c1, 0, data, len);
    return porep_c1_result(s, c1, data, len, false);
}

int cuzk_fuzz_porep_c1_json(const uint8_t *data, size_t len)
{
    cuzk_fil_porep_c1 *c1 = (cuzk_fil_porep_c1 *)(uintptr_t)1;
    cuzk_status s = cuzk_fil_porep_c1_from_json(&c1, (const char *)data, len);
    return porep_c1_result(s, c1, data, len, true);
}

static cuzk_fil_porep_c1 *porep_c1_sample(void)
{
    uint64_t ch[2] = {5, 63};
    uint64_t pseed = 1;
    cuzk_fil_porep_c1 *c1 = NULL;
    if (cuzk_fil_porep_c1_synthetic(&c1, 0, 1, 1, ch, cuzk__fil_porep_parents_synthetic, &pseed) !=
        CUZK_OK)
        return NULL;
    return c1;
}

uint8_t *cuzk_fuzz_porep_c1_seed(size_t *len)
{
    cuzk_fil_porep_c1 *c1 = porep_c1_sample();
    uint8_t *buf = NULL;
    *len = 0;
    cuzk_status s = c1 ? cuzk_fil_porep_c1_to_bincode(c1, &buf, len) : CUZK_ERR_INTERNAL;
    cuzk_fil_porep_c1_destroy(c1);
    return seed_copy(s, buf, len);
}

uint8_t *cuzk_fuzz_porep_c1_json_seed(size_t *len)
{
    cuzk_fil_porep_c1 *c1 = porep_c1_sample();
    char *buf = NULL;
    *len = 0;
    cuzk_status s = c1 ? cuzk_fil_porep_c1_to_json(c1, &buf, len) : CUZK_ERR_INTERNAL;
    cuzk_fil_porep_c1_destroy(c1);
    return seed_copy(s, buf, len);
}

int cuzk_fuzz_porep_c1_curio(const uint8_t *data, size_t len)
{
    cuzk_fil_porep_c1 *c1 = (cuzk_fil_porep_c1 *)(uintptr_t)1;
    uint64_t num = 7;
    cuzk_status s = cuzk_fil_porep_c1_from_curio(&c1, &num, (const char *)data, len);
    /* INVALID_ARG: a SectorSize that is not the proof's. */
    CONTRACT(s != CUZK_ERR_INVALID_ARG || c1 == NULL);
    if (s == CUZK_ERR_INVALID_ARG)
        return 0;
    return porep_c1_result(s, c1, data, len, true);
}

uint8_t *cuzk_fuzz_porep_c1_curio_seed(size_t *len)
{
    cuzk_fil_porep_c1 *c1 = porep_c1_sample();
    char *buf = NULL;
    *len = 0;
    cuzk_status s = c1 ? cuzk_fil_porep_c1_to_curio(c1, 4242, &buf, len) : CUZK_ERR_INTERNAL;
    cuzk_fil_porep_c1_destroy(c1);
    return seed_copy(s, buf, len);
}

/* ---- PoSt vanilla proofs -------------------------------------------------------------------- */

#define POST_FUZZ_ID 5 /* WindowPoSt 2 KiB: a short partition of one sector */

/* The synthetic partition of seed 1 (made once; NULL when that failed). */
static const cuzk_fil_post_partition *post_sample(void)
{
    static cuzk_fil_post_partition *p;
    static int state; /* 0 not made, 1 made, -1 failed */
    if (state == 0) {
        state = cuzk_fil_post_partition_synthetic(&p, POST_FUZZ_ID, 1, 1) == CUZK_OK ? 1 : -1;
    }
    return state == 1 ? p : NULL;
}

int cuzk_fuzz_post_vanilla(const uint8_t *data, size_t len)
{
    const cuzk_fil_post_partition *p = post_sample();
    CONTRACT(p != NULL);
    cuzk_fil_post_partition *q = (cuzk_fil_post_partition *)(uintptr_t)1;
    const uint8_t *one[1] = {data};
    size_t lens[1] = {len};
    cuzk_status s = cuzk_fil_post_partition_from_vanilla(&q, POST_FUZZ_ID, p->randomness,
                                                         p->partition, one, lens, 1, 1);
    CONTRACT((s == CUZK_OK) == (q != NULL));
    CONTRACT(s == CUZK_OK || s == CUZK_ERR_FORMAT || s == CUZK_ERR_NOT_CANONICAL);
    if (s != CUZK_OK)
        return 0;
    uint8_t *buf = NULL;
    size_t n = 0;
    CONTRACT(cuzk_fil_post_vanilla_encode(q, 0, &buf, &n) == CUZK_OK);
    CONTRACT(n == len && memcmp(buf, data, len) == 0);
    cuzk_free(buf);
    cuzk_fil_post_partition_destroy(q);
    return 1;
}

uint8_t *cuzk_fuzz_post_vanilla_seed(size_t *len)
{
    const cuzk_fil_post_partition *p = post_sample();
    uint8_t *buf = NULL;
    *len = 0;
    cuzk_status s = p ? cuzk_fil_post_vanilla_encode(p, 0, &buf, len) : CUZK_ERR_INTERNAL;
    return seed_copy(s, buf, len);
}

/* ---- snarkjs JSON, TOML ---------------------------------------------------------------------- */

/* |text| parsed by the reader of |kind| and written back; NULL when it does not parse. */
static char *snarkjs_json_back(unsigned kind, const char *text, size_t len, cuzk_status *st)
{
    char *back = NULL;
    if (kind == 0) {
        cuzk_groth16_proof pr;
        *st = cuzk_snarkjs_proof_from_json(&pr, text, len);
        if (*st == CUZK_OK)
            CONTRACT(cuzk_snarkjs_proof_to_json(&back, &pr) == CUZK_OK);
    } else {
        cuzk_fr_t *v = (cuzk_fr_t *)(uintptr_t)1;
        size_t n = 99;
        *st = cuzk_snarkjs_public_from_json(&v, &n, text, len);
        if (*st != CUZK_OK)
            CONTRACT(v == NULL && n == 0);
        else {
            CONTRACT((n == 0) == (v == NULL));
            CONTRACT(cuzk_snarkjs_public_to_json(&back, v, n) == CUZK_OK);
            cuzk_free(v);
        }
    }
    return back;
}

int cuzk_fuzz_snarkjs_json(const uint8_t *data, size_t len)
{
    if (len == 0)
        return 0;
    unsigned kind = data[0] % 3;
    const char *text = (const char *)data + 1;
    len--;
    cuzk_status s;
    if (kind == 2) {
        cuzk_groth16_vk *vk = (cuzk_groth16_vk *)(uintptr_t)1;
        s = cuzk_snarkjs_vk_from_json(&vk, text, len);
        CONTRACT((s == CUZK_OK) == (vk != NULL));
        if (s == CUZK_OK)
            cuzk_groth16_vk_free(vk);
        return s == CUZK_OK;
    }
    char *back = snarkjs_json_back(kind, text, len, &s);
    CONTRACT((s == CUZK_OK) == (back != NULL));
    if (!back)
        return 0;
    /* The written text reads back to the same values: written again, the same text. */
    cuzk_status s2;
    char *again = snarkjs_json_back(kind, back, strlen(back), &s2);
    CONTRACT(s2 == CUZK_OK && again && strcmp(again, back) == 0);
    cuzk_free(again);
    cuzk_free(back);
    return 1;
}

int cuzk_fuzz_toml(const uint8_t *data, size_t len)
{
    cuzk_toml_value *root = (cuzk_toml_value *)(uintptr_t)1;
    cuzk_status s = cuzk_toml_parse(&root, (const char *)data, len, "fuzz");
    CONTRACT((s == CUZK_OK) == (root != NULL));
    CONTRACT(s == CUZK_OK || s == CUZK_ERR_FORMAT);
    CONTRACT(s == CUZK_OK || strncmp(cuzk_last_error(), "fuzz:", 5) == 0);
    cuzk_toml_free(root);
    return s == CUZK_OK;
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The real WinningPoSt 2 KiB proof (filecoin-circuits.md 6.2) and its tampered variants. */
#include "test.h"
#include "cuzk/filecoin.h"
#include "cuzk/groth16.h"

#include <cjson/cJSON.h>

typedef struct {
    uint64_t post_type, sector;
    uint8_t randomness[32];
    uint8_t cid[40];
    uint8_t proof[192];
} wpost_vector;

static void load_vector(wpost_vector *v, cuzk_groth16_vk **vk)
{
    char path[512];
    snprintf(path, sizeof path, "%s/filecoin/winning-post-2kib.vk", test_fixtures_dir());
    cuzk_status s = cuzk_groth16_vk_load(vk, path);
    CHECK_MSG(s == CUZK_OK, "vk: %s", cuzk_last_error());
    CHECK((*vk)->ic_len == 133);
    snprintf(path, sizeof path, "%s/filecoin/winning-post-2kib-vector.json", test_fixtures_dir());
    FILE *f = fopen(path, "rb");
    CHECK_MSG(f, "cannot open %s", path);
    static char text[8192];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    cJSON *root = cJSON_Parse(text);
    CHECK(root);
    v->post_type = (uint64_t)cJSON_GetObjectItem(root, "post_proof_type")->valuedouble;
    v->sector = (uint64_t)cJSON_GetObjectItem(root, "sector_number")->valuedouble;
    CHECK(test_unhex(v->randomness, 32, cJSON_GetObjectItem(root, "randomness_hex")->valuestring));
    CHECK(test_unhex(v->cid, 40, cJSON_GetObjectItem(root, "sealed_cid_bytes_hex")->valuestring));
    CHECK(test_unhex(v->proof, 192, cJSON_GetObjectItem(root, "proof_bytes_hex")->valuestring));
    cJSON_Delete(root);
}

/* The whole check as cuzk-bench verify-winning-post does it: CUZK_OK only when valid. */
static cuzk_status verify_vector(const cuzk_groth16_vk *vk, const wpost_vector *v)
{
    uint8_t comm_r[32];
    cuzk_fr_t inputs[132];
    size_t n;
    cuzk_groth16_proof proof;
    cuzk_status s;
    if ((s = cuzk_fil_comm_r_from_cid(comm_r, v->cid, sizeof v->cid)) != CUZK_OK)
        return s;
    if ((s = cuzk_fil_winning_post_inputs(inputs, 132, &n, v->post_type, v->randomness, v->sector,
                                          comm_r)) != CUZK_OK)
        return s;
    if ((s = cuzk_groth16_proof_parse(&proof, v->proof)) != CUZK_OK)
        return s;
    return cuzk_groth16_verify(vk, &proof, inputs, n);
}

CUZK_TEST(vectors_winning_post_valid)
{
    wpost_vector v;
    cuzk_groth16_vk *vk;
    load_vector(&v, &vk);
    cuzk_status s = verify_vector(vk, &v);
    CHECK_MSG(s == CUZK_OK, "real proof rejected: %s", cuzk_last_error());
    /* The published leaf challenges (filecoin-circuits.md 6.2). */
    static const uint8_t leaves[66] = {
        16, 27, 26, 21, 25, 51, 53, 31, 45, 2,  52, 11, 3,  49, 31, 36, 62, 6,  35, 15, 2,  20,
        47, 53, 16, 33, 27, 12, 14, 30, 57, 6,  17, 49, 2,  61, 13, 28, 30, 11, 61, 23, 32, 17,
        14, 1,  33, 55, 32, 19, 5,  62, 43, 26, 54, 63, 44, 23, 41, 30, 26, 45, 20, 15, 19, 38};
    for (unsigned i = 0; i < 66; i++)
        CHECK(cuzk_fil_post_leaf_challenge(v.randomness, v.sector, i, 2048) == leaves[i]);
    /* Batch verification of the same proof twice agrees. */
    uint8_t comm_r[32];
    cuzk_fr_t inputs[2 * 132];
    size_t n;
    cuzk_groth16_proof proofs[2];
    CHECK(cuzk_fil_comm_r_from_cid(comm_r, v.cid, 40) == CUZK_OK);
    CHECK(cuzk_fil_winning_post_inputs(inputs, 132, &n, 0, v.randomness, v.sector, comm_r) ==
          CUZK_OK);
    memcpy(inputs + 132, inputs, 132 * sizeof inputs[0]);
    CHECK(cuzk_groth16_proof_parse(&proofs[0], v.proof) == CUZK_OK);
    proofs[1] = proofs[0];
    CHECK(cuzk_groth16_verify_batch(vk, proofs, 2, inputs, 132) == CUZK_OK);
    /* One wrong leaf makes the batch fail. */
    cuzk_fr_set_u64(&inputs[132 + 1], 17);
    CHECK(cuzk_groth16_verify_batch(vk, proofs, 2, inputs, 132) == CUZK_ERR_VERIFY_FAILED);
    /* Wrong input count is a usage error, not a verdict. */
    CHECK(cuzk_groth16_verify(vk, &proofs[0], inputs, 131) == CUZK_ERR_INVALID_ARG);
    cuzk_groth16_vk_free(vk);
}

CUZK_TEST(vectors_winning_post_every_bit_flip_rejected)
{
    wpost_vector v, t;
    cuzk_groth16_vk *vk;
    load_vector(&v, &vk);
    /* Every bit of the proof, the randomness and the sealed CID. */
    struct {
        uint8_t *base;
        size_t len;
        const char *name;
    } fields[3] = {{t.proof, 192, "proof"}, {t.randomness, 32, "randomness"}, {t.cid, 40, "cid"}};
    for (int fi = 0; fi < 3; fi++) {
        for (size_t bit = 0; bit < fields[fi].len * 8; bit++) {
            t = v;
            fields[fi].base[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            cuzk_status s = verify_vector(vk, &t);
            CHECK_MSG(s != CUZK_OK, "%s bit %zu flipped still verifies", fields[fi].name, bit);
        }
    }
    cuzk_groth16_vk_free(vk);
}

CUZK_TEST(vectors_winning_post_vk_rejections)
{
    char path[512];
    snprintf(path, sizeof path, "%s/filecoin/winning-post-2kib.vk", test_fixtures_dir());
    FILE *f = fopen(path, "rb");
    CHECK(f);
    static uint8_t buf[13636 + 96];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    CHECK(n == 13636);
    cuzk_groth16_vk *vk = (cuzk_groth16_vk *)(uintptr_t)1;
    /* Truncations at every section boundary and a few odd places. */
    static const size_t cuts[] = {0, 1, 95, 96, 383, 575, 864, 867, 868, 869, 13635};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        vk = (cuzk_groth16_vk *)(uintptr_t)1;
        CHECK(cuzk_groth16_vk_parse(&vk, buf, cuts[i]) == CUZK_ERR_FORMAT);
        CHECK(vk == NULL);
    }
    /* Trailing garbage. */
    CHECK(cuzk_groth16_vk_parse(&vk, buf, 13636 + 1) == CUZK_ERR_FORMAT);
    /* ic_len lying about the size. */
    buf[867] ^= 1;
    CHECK(cuzk_groth16_vk_parse(&vk, buf, 13636) == CUZK_ERR_FORMAT);
    buf[867] ^= 1;
    /* A coordinate >= p in alpha (top byte 0x1f keeps the flags clear but exceeds p). */
    uint8_t save = buf[0];
    buf[0] = 0x1f;
    CHECK(cuzk_groth16_vk_parse(&vk, buf, 13636) == CUZK_ERR_NOT_CANONICAL);
    /* Off-curve point: change the last byte of alpha's y. */
    buf[0] = save;
    buf[95] ^= 1;
    CHECK(cuzk_groth16_vk_parse(&vk, buf, 13636) == CUZK_ERR_NOT_ON_CURVE);
    buf[95] ^= 1;
    /* Compressed flag set on an uncompressed key point. */
    buf[96] |= 0x80;
    CHECK(cuzk_groth16_vk_parse(&vk, buf, 13636) == CUZK_ERR_BAD_ENCODING);
    buf[96] &= 0x7f;
    /* alpha at infinity is refused. */
    uint8_t alpha[96];
    memcpy(alpha, buf, 96);
    memset(buf, 0, 96);
    buf[0] = 0x40;
    CHECK(cuzk_groth16_vk_parse(&vk, buf, 13636) == CUZK_ERR_BAD_ENCODING);
    memcpy(buf, alpha, 96);
    CHECK(cuzk_groth16_vk_parse(&vk, buf, 13636) == CUZK_OK);
    cuzk_groth16_vk_free(vk);
    cuzk_groth16_vk_free(NULL);
}

CUZK_TEST(vectors_sealed_cid_parsing)
{
    wpost_vector v;
    cuzk_groth16_vk *vk;
    load_vector(&v, &vk);
    cuzk_groth16_vk_free(vk);
    uint8_t cid[64], comm_r[32];
    size_t n;
    CHECK(cuzk_fil_cid_decode_string(
              cid, sizeof cid, &n,
              "bagboea4b5abcasxfgafbxcdai3aee4o6w2ksm5pst23e6w56ans27bkheuvo7fis") == CUZK_OK);
    CHECK(n == 40 && memcmp(cid, v.cid, 40) == 0);
    CHECK(cuzk_fil_comm_r_from_cid(comm_r, cid, 40) == CUZK_OK);
    CHECK(memcmp(comm_r, v.cid + 8, 32) == 0);
    CHECK(cuzk_fil_comm_r_from_cid(comm_r, cid, 39) == CUZK_ERR_FORMAT);
    CHECK(cuzk_fil_comm_r_from_cid(comm_r, cid, 3) == CUZK_ERR_FORMAT);
    CHECK(cuzk_fil_cid_decode_string(cid, sizeof cid, &n, "Bagb") == CUZK_ERR_FORMAT);
    CHECK(cuzk_fil_cid_decode_string(cid, sizeof cid, &n, "bag1") == CUZK_ERR_FORMAT);
    /* A non-canonical comm_r (top byte 0xff) is refused. */
    memcpy(cid, v.cid, 40);
    cid[39] = 0xff;
    CHECK(cuzk_fil_comm_r_from_cid(comm_r, cid, 40) == CUZK_ERR_FORMAT);
}

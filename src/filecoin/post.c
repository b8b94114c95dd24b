/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* PoSt challenge derivation and public inputs (filecoin-circuits.md 3.2). */
#include "cuzk/filecoin.h"

#include <openssl/evp.h>
#include <string.h>

static void put_u64_le(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

uint64_t cuzk_fil_post_leaf_challenge(const uint8_t randomness[32], uint64_t sector_id,
                                      uint64_t challenge_index, uint64_t sector_size)
{
    uint8_t msg[48], md[32];
    unsigned int mdlen = 0;
    memcpy(msg, randomness, 32);
    put_u64_le(msg + 32, sector_id);
    put_u64_le(msg + 40, challenge_index);
    /* EVP_Digest cannot fail for SHA-256 on a valid buffer short of memory exhaustion; a
     * zeroed digest would still give a deterministic (and then rejected) challenge. */
    if (EVP_Digest(msg, sizeof msg, md, &mdlen, EVP_sha256(), NULL) != 1)
        memset(md, 0, sizeof md);
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | md[i];
    return v % (sector_size / 32);
}

cuzk_status cuzk_fil_winning_post_inputs(cuzk_fr_t *out, size_t max, size_t *n,
                                         uint64_t post_proof_type, const uint8_t randomness[32],
                                         uint64_t sector_id, const uint8_t comm_r[32])
{
    *n = 0;
    cuzk_fil_post_info info;
    cuzk_status s = cuzk_fil_post_info_get(&info, post_proof_type);
    if (s != CUZK_OK)
        return s;
    if (info.kind != CUZK_FIL_POST_WINNING)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "post proof type %llu (%s) is not a WinningPoSt",
                         (unsigned long long)post_proof_type, info.name);
    size_t count = (size_t)(info.sector_count * (1 + info.challenge_count));
    if (max < count)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "room for %zu inputs, %zu needed", max, count);
    cuzk_fr_t check, cr;
    if (cuzk_fr_from_bytes_le(&check, randomness) != CUZK_OK)
        return cuzk_fail(CUZK_ERR_NOT_CANONICAL, "randomness is not a canonical field element");
    if (cuzk_fr_from_bytes_le(&cr, comm_r) != CUZK_OK)
        return cuzk_fail(CUZK_ERR_NOT_CANONICAL, "comm_r is not a canonical field element");
    size_t k = 0;
    for (uint64_t i = 0; i < info.sector_count; i++) {
        out[k++] = cr;
        for (uint64_t j = 0; j < info.challenge_count; j++) {
            /* API 1.0/1.1: challenge_index = sector_index * challenge_count + j; API 1.2: j.
             * WinningPoSt is always API 1.0. */
            uint64_t index = info.api_minor < 2 ? i * info.challenge_count + j : j;
            uint64_t leaf =
                cuzk_fil_post_leaf_challenge(randomness, sector_id, index, info.sector_size);
            cuzk_fr_set_u64(&out[k++], leaf);
        }
    }
    *n = count;
    return CUZK_OK;
}

cuzk_status cuzk_fil_window_post_inputs(cuzk_fr_t *out, size_t max, size_t *n,
                                        uint64_t post_proof_type, const uint8_t randomness[32],
                                        uint64_t partition, const uint64_t *sector_ids,
                                        const uint8_t (*comm_rs)[32], size_t nsectors)
{
    *n = 0;
    cuzk_fil_post_info info;
    cuzk_status s = cuzk_fil_post_info_get(&info, post_proof_type);
    if (s != CUZK_OK)
        return s;
    if (info.kind != CUZK_FIL_POST_WINDOW)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "post proof type %llu (%s) is not a WindowPoSt",
                         (unsigned long long)post_proof_type, info.name);
    if (nsectors == 0 || nsectors > info.sector_count)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "%zu sectors for a partition of %llu (%s)", nsectors,
                         (unsigned long long)info.sector_count, info.name);
    size_t per = (size_t)(1 + info.challenge_count);
    size_t count = (size_t)info.sector_count * per;
    if (max < count)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "room for %zu inputs, %zu needed", max, count);
    cuzk_fr_t check;
    if (cuzk_fr_from_bytes_le(&check, randomness) != CUZK_OK)
        return cuzk_fail(CUZK_ERR_NOT_CANONICAL, "randomness is not a canonical field element");
    size_t k = 0;
    for (size_t i = 0; i < nsectors; i++) {
        if (cuzk_fr_from_bytes_le(&out[k++], comm_rs[i]) != CUZK_OK)
            return cuzk_fail(CUZK_ERR_NOT_CANONICAL,
                             "comm_r of sector %zu is not a canonical field element", i);
        for (uint64_t j = 0; j < info.challenge_count; j++) {
            uint64_t index = info.api_minor < 2
                                 ? (partition * info.sector_count + i) * info.challenge_count + j
                                 : j;
            uint64_t leaf =
                cuzk_fil_post_leaf_challenge(randomness, sector_ids[i], index, info.sector_size);
            cuzk_fr_set_u64(&out[k++], leaf);
        }
    }
    /* compound.rs: a partition short of sectors repeats the last sector's inputs verbatim. */
    for (; k < count; k += per)
        memcpy(&out[k], &out[k - per], per * sizeof *out);
    *n = count;
    return CUZK_OK;
}

cuzk_status cuzk_fil_tree_r_shape(size_t arities[CUZK_FIL_TREE_MAX_DEPTH], size_t *depth,
                                  uint64_t sector_size)
{
    size_t sub = 0, top = 0;
    switch (sector_size) {
    case 2048ULL:
    case 8ULL << 20:
    case 512ULL << 20:
        break;
    case 32ULL << 30:
        sub = 8;
        break;
    case 64ULL << 30:
        sub = 8;
        top = 2;
        break;
    default:
        return cuzk_fail(CUZK_ERR_UNSUPPORTED, "no published tree shape for sectors of %llu bytes",
                         (unsigned long long)sector_size);
    }
    uint64_t base_leaves = sector_size / 32 / (sub ? sub : 1) / (top ? top : 1);
    size_t d = 0;
    for (; base_leaves > 1; base_leaves /= 8)
        arities[d++] = 8;
    if (sub)
        arities[d++] = sub;
    if (top)
        arities[d++] = top;
    *depth = d;
    return CUZK_OK;
}

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

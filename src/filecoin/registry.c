/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Registered proof ids (rust-filecoin-proofs-api src/registry.rs; filecoin-circuits.md 1.1-1.2). */
#include "cuzk/filecoin.h"


static const uint64_t SIZES[5] = {2048ULL, 8ULL << 20, 512ULL << 20, 32ULL << 30, 64ULL << 30};
static const char *const POST_NAMES[15] = {
    "StackedDrgWinning2KiBV1",
    "StackedDrgWinning8MiBV1",
    "StackedDrgWinning512MiBV1",
    "StackedDrgWinning32GiBV1",
    "StackedDrgWinning64GiBV1",
    "StackedDrgWindow2KiBV1",
    "StackedDrgWindow8MiBV1",
    "StackedDrgWindow512MiBV1",
    "StackedDrgWindow32GiBV1",
    "StackedDrgWindow64GiBV1",
    "StackedDrgWindow2KiBV1_2",
    "StackedDrgWindow8MiBV1_2",
    "StackedDrgWindow512MiBV1_2",
    "StackedDrgWindow32GiBV1_2",
    "StackedDrgWindow64GiBV1_2",
};

cuzk_status cuzk_fil_seal_sector_size(uint64_t *out, uint64_t seal_proof_type)
{
    if (seal_proof_type >= 20)
        return cuzk_fail(CUZK_ERR_UNSUPPORTED, "unknown RegisteredSealProof %llu",
                         (unsigned long long)seal_proof_type);
    *out = SIZES[seal_proof_type % 5];
    return CUZK_OK;
}

cuzk_status cuzk_fil_post_info_get(cuzk_fil_post_info *out, uint64_t id)
{
    if (id >= 15)
        return cuzk_fail(CUZK_ERR_UNSUPPORTED, "unknown RegisteredPoStProof %llu",
                         (unsigned long long)id);
    unsigned size = (unsigned)(id % 5);
    out->id = id;
    out->sector_size = SIZES[size];
    if (id < 5) {
        /* WinningPoSt: 66 challenges of one sector, built as 66 one-challenge sectors. */
        out->kind = CUZK_FIL_POST_WINNING;
        out->api_minor = 0;
        out->sector_count = 66;
        out->challenge_count = 1;
    } else {
        out->kind = CUZK_FIL_POST_WINDOW;
        out->api_minor = id < 10 ? 0 : 2;
        out->challenge_count = 10;
        out->sector_count = size < 3 ? 2 : size == 3 ? 2349 : 2300;
    }
    out->name = POST_NAMES[id];
    return CUZK_OK;
}

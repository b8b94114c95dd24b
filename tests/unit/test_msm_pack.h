/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Points in the packed layout of src/msm/msm_packed.h, for the MSM tests. */
#ifndef CUZK_TEST_MSM_PACK_H
#define CUZK_TEST_MSM_PACK_H
#include <string.h>

#include "msm/msm_packed.h"
#include "test.h"
#include "test_msm_util.h"

/* The packed form of |n| points: each limb little-endian, x then y, infinity all zero. */
static inline void pack_limbs(uint8_t *dst, const uint64_t *l, size_t limbs)
{
    for (size_t k = 0; k < limbs; k++)
        for (int b = 0; b < 8; b++)
            dst[8 * k + (size_t)b] = (uint8_t)(l[k] >> (8 * b));
}

static inline uint8_t *g1_pack(const cuzk_g1_affine_t *p, size_t n)
{
    uint8_t *out = cuzk_alloc(n ? n * CUZK__G1_PACKED_BYTES : 1);
    CHECK(out != NULL);
    for (size_t i = 0; i < n; i++) {
        uint8_t *d = out + i * CUZK__G1_PACKED_BYTES;
        memset(d, 0, CUZK__G1_PACKED_BYTES);
        if (p[i].infinity)
            continue;
        pack_limbs(d, p[i].x.l, 6);
        pack_limbs(d + 48, p[i].y.l, 6);
    }
    return out;
}

static inline uint8_t *g2_pack(const cuzk_g2_affine_t *p, size_t n)
{
    uint8_t *out = cuzk_alloc(n ? n * CUZK__G2_PACKED_BYTES : 1);
    CHECK(out != NULL);
    for (size_t i = 0; i < n; i++) {
        uint8_t *d = out + i * CUZK__G2_PACKED_BYTES;
        memset(d, 0, CUZK__G2_PACKED_BYTES);
        if (p[i].infinity)
            continue;
        pack_limbs(d, p[i].x.c0.l, 6);
        pack_limbs(d + 48, p[i].x.c1.l, 6);
        pack_limbs(d + 96, p[i].y.c0.l, 6);
        pack_limbs(d + 144, p[i].y.c1.l, 6);
    }
    return out;
}

#endif

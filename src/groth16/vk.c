/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* bellperson verifying-key reader (facts/formats.md section 3.1). */
#include "cuzk/groth16.h"
#include "cuzk/alloc.h"
#include "cuzk/pairing.h"
#include "common/file.h"

#include <stdio.h>
#include <string.h>

#define VK_FIXED_BYTES 868 /* 96 * 3 (G1) + 192 * 3 (G2) + 4 (ic_len) */
/* No real circuit has more public inputs than this (WindowPoSt 32 GiB: 25,840); the bound
 * keeps a corrupt length field from asking for gigabytes. */
#define VK_MAX_IC (1u << 24)

static cuzk_status read_g1(cuzk_g1_affine_t *p, const uint8_t *buf, size_t off, const char *what,
                           bool allow_identity)
{
    cuzk_status s = cuzk_g1_deserialize(p, buf + off);
    if (s != CUZK_OK)
        return cuzk_fail(s, "vk %s at byte %zu: %s", what, off, cuzk_last_error());
    if (p->infinity && !allow_identity)
        return cuzk_fail(CUZK_ERR_BAD_ENCODING, "vk %s at byte %zu is the point at infinity",
                         what, off);
    return CUZK_OK;
}

static cuzk_status read_g2(cuzk_g2_affine_t *p, const uint8_t *buf, size_t off, const char *what)
{
    cuzk_status s = cuzk_g2_deserialize(p, buf + off);
    if (s != CUZK_OK)
        return cuzk_fail(s, "vk %s at byte %zu: %s", what, off, cuzk_last_error());
    if (p->infinity)
        return cuzk_fail(CUZK_ERR_BAD_ENCODING, "vk %s at byte %zu is the point at infinity",
                         what, off);
    return CUZK_OK;
}

void cuzk_groth16_vk_free(cuzk_groth16_vk *vk)
{
    if (!vk)
        return;
    cuzk_free(vk->ic);
    cuzk_free(vk);
}

cuzk_status cuzk_groth16_vk_parse(cuzk_groth16_vk **out, const uint8_t *buf, size_t len)
{
    *out = NULL;
    if (len < VK_FIXED_BYTES)
        return cuzk_fail(CUZK_ERR_FORMAT, "vk is %zu bytes; a bellperson vk has at least %d", len,
                         VK_FIXED_BYTES);
    uint32_t ic_len = (uint32_t)buf[864] << 24 | (uint32_t)buf[865] << 16 |
                      (uint32_t)buf[866] << 8 | buf[867];
    if (ic_len == 0 || ic_len > VK_MAX_IC)
        return cuzk_fail(CUZK_ERR_FORMAT, "vk ic_len %u is out of range (1 .. %u)", ic_len,
                         VK_MAX_IC);
    size_t want = VK_FIXED_BYTES + (size_t)96 * ic_len;
    if (len != want)
        return cuzk_fail(CUZK_ERR_FORMAT, "vk is %zu bytes but ic_len %u implies %zu", len,
                         ic_len, want);
    cuzk_groth16_vk *vk = cuzk_alloc(sizeof *vk);
    if (!vk)
        return cuzk_fail(CUZK_ERR_NOMEM, "cannot allocate a verifying key");
    memset(vk, 0, sizeof *vk);
    vk->ic = cuzk_alloc_array(ic_len, sizeof *vk->ic);
    if (!vk->ic) {
        cuzk_free(vk);
        return cuzk_fail(CUZK_ERR_NOMEM, "cannot allocate %u IC points", ic_len);
    }
    vk->ic_len = ic_len;
    cuzk_status s;
    if ((s = read_g1(&vk->alpha_g1, buf, 0, "alpha_g1", false)) != CUZK_OK ||
        (s = read_g1(&vk->beta_g1, buf, 96, "beta_g1", false)) != CUZK_OK ||
        (s = read_g2(&vk->beta_g2, buf, 192, "beta_g2")) != CUZK_OK ||
        (s = read_g2(&vk->gamma_g2, buf, 384, "gamma_g2")) != CUZK_OK ||
        (s = read_g1(&vk->delta_g1, buf, 576, "delta_g1", false)) != CUZK_OK ||
        (s = read_g2(&vk->delta_g2, buf, 672, "delta_g2")) != CUZK_OK)
        goto fail;
    for (uint32_t i = 0; i < ic_len; i++) {
        char what[32];
        snprintf(what, sizeof what, "ic[%u]", i);
        if ((s = read_g1(&vk->ic[i], buf, VK_FIXED_BYTES + (size_t)96 * i, what, true)) !=
            CUZK_OK)
            goto fail;
    }
    cuzk_pairing(&vk->alpha_beta, &vk->alpha_g1, &vk->beta_g2);
    vk->neg_gamma_g2 = vk->gamma_g2;
    cuzk_fp2_neg(&vk->neg_gamma_g2.y, &vk->gamma_g2.y);
    vk->neg_delta_g2 = vk->delta_g2;
    cuzk_fp2_neg(&vk->neg_delta_g2.y, &vk->delta_g2.y);
    *out = vk;
    return CUZK_OK;
fail:
    cuzk_groth16_vk_free(vk);
    return s;
}

cuzk_status cuzk_groth16_vk_load(cuzk_groth16_vk **out, const char *path)
{
    uint8_t *buf;
    size_t len;
    *out = NULL;
    cuzk_status s = cuzk_read_file(path, &buf, &len, VK_FIXED_BYTES + (size_t)96 * VK_MAX_IC);
    if (s != CUZK_OK)
        return s;
    s = cuzk_groth16_vk_parse(out, buf, len);
    cuzk_free(buf);
    if (s != CUZK_OK)
        return cuzk_fail(s, "%s: %s", path, cuzk_last_error());
    return CUZK_OK;
}

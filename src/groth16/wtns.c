/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * circom/snarkjs .wtns reader, version 2 (formats.md 4.4): section 1 = u32 n8, the prime r,
 * u32 nWitness; section 2 = nWitness standard-form values, n8 bytes little-endian each.
 */
#include "groth16/snarkjs_internal.h"
#include "groth16/binfile_map.h"
#include "cuzk/alloc.h"
#include "common/file.h"

#include <string.h>

#define WTNS_MAX_FILE ((size_t)1 << 40)

void cuzk_snarkjs_wtns_free(cuzk_snarkjs_wtns *w)
{
    if (!w)
        return;
    if (w->values) {
        cuzk_memclear(w->values, (size_t)w->n * 32);
        cuzk_free(w->values);
    }
    cuzk_free(w);
}

cuzk_status cuzk_snarkjs_wtns_parse(cuzk_snarkjs_wtns **out, const uint8_t *buf, size_t len)
{
    *out = NULL;
    cuzk__binfile bf;
    cuzk_status s = cuzk__binfile_open(&bf, buf, len, "wtns", 2, "wtns");
    if (s != CUZK_OK)
        return s;
    const cuzk__bin_section *hdr, *val;
    cuzk_snarkjs_wtns *w = NULL;
    if ((s = cuzk__binfile_section(&bf, 1, "header", &hdr)) != CUZK_OK ||
        (s = cuzk__binfile_section(&bf, 2, "values", &val)) != CUZK_OK)
        goto fail;
    const uint8_t *h = buf + hdr->offset;
    if (hdr->size < 4) {
        s = cuzk__binfile_expect_size(&bf, hdr, "header", 40);
        goto fail;
    }
    uint32_t n8 = cuzk__le32(h);
    if (n8 > 64 || hdr->size < 4 + (uint64_t)n8) {
        s = cuzk_fail(CUZK_ERR_UNSUPPORTED, "wtns: n8 = %u at offset %llu; BLS12-381 needs 32", n8,
                      (unsigned long long)hdr->offset);
        goto fail;
    }
    if ((s = cuzk__check_prime(&bf, hdr->offset, n8, h + 4, cuzk__bls_r, 4, "r")) != CUZK_OK ||
        (s = cuzk__binfile_expect_size(&bf, hdr, "header", 40)) != CUZK_OK)
        goto fail;
    uint32_t n = cuzk__le32(h + 36);
    if (n == 0) {
        s = cuzk_fail(CUZK_ERR_FORMAT, "wtns: nWitness = 0 at offset %llu",
                      (unsigned long long)hdr->offset + 36);
        goto fail;
    }
    if ((s = cuzk__binfile_expect_size(&bf, val, "values", (uint64_t)n * 32)) != CUZK_OK)
        goto fail;
    w = cuzk_alloc(sizeof *w);
    if (w) {
        w->n = n;
        w->values = cuzk_alloc_array(n, 32);
    }
    if (!w || !w->values) {
        s = cuzk_fail(CUZK_ERR_NOMEM, "wtns: cannot allocate %u values", n);
        goto fail;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint64_t *v = &w->values[4 * (size_t)i];
        cuzk__load_limbs(v, buf + val->offset + 32 * (uint64_t)i, 4);
        if (!cuzk__limbs_lt(v, cuzk__bls_r, 4)) {
            s = cuzk_fail(CUZK_ERR_NOT_CANONICAL, "wtns: value %u at offset %llu is >= r", i,
                          (unsigned long long)(val->offset + 32 * (uint64_t)i));
            goto fail;
        }
    }
    cuzk__binfile_close(&bf);
    *out = w;
    return CUZK_OK;
fail:
    cuzk__binfile_close(&bf);
    if (w && !w->values)
        w->n = 0;
    cuzk_snarkjs_wtns_free(w);
    return s;
}

cuzk_status cuzk_snarkjs_wtns_load(cuzk_snarkjs_wtns **out, const char *path)
{
    uint8_t *buf;
    size_t len = 0;
    *out = NULL;
    cuzk_status s;
    /* Mapped when it can be (binfile_map.h): a read copies ~2 MB into fresh pages at 2^16. The
     * file itself holds the witness, so only a copy of ours is worth clearing. */
    const uint8_t *map = cuzk__map_file(path, &len, WTNS_MAX_FILE, NULL);
    if (map) {
        s = cuzk_snarkjs_wtns_parse(out, map, len);
        cuzk__unmap_file(map, len);
    } else {
        if ((s = cuzk_read_file(path, &buf, &len, WTNS_MAX_FILE)) != CUZK_OK)
            return s;
        s = cuzk_snarkjs_wtns_parse(out, buf, len);
        cuzk_memclear(buf, len);
        cuzk_free(buf);
    }
    if (s != CUZK_OK)
        return cuzk_fail(s, "%s: %s", path, cuzk_last_error());
    return CUZK_OK;
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* bellperson proof encoding: A (48) || B (96) || C (48), compressed (formats.md section 3.2). */
#include "cuzk/groth16.h"

cuzk_status cuzk_groth16_proof_parse(cuzk_groth16_proof *out,
                                     const uint8_t in[CUZK_GROTH16_PROOF_BYTES])
{
    cuzk_groth16_proof p;
    cuzk_status s;
    if ((s = cuzk_g1_uncompress(&p.a, in)) != CUZK_OK)
        return cuzk_fail(s, "proof A: %s", cuzk_last_error());
    if ((s = cuzk_g2_uncompress(&p.b, in + 48)) != CUZK_OK)
        return cuzk_fail(s, "proof B: %s", cuzk_last_error());
    if ((s = cuzk_g1_uncompress(&p.c, in + 144)) != CUZK_OK)
        return cuzk_fail(s, "proof C: %s", cuzk_last_error());
    if (p.a.infinity || p.b.infinity || p.c.infinity)
        return cuzk_fail(CUZK_ERR_BAD_ENCODING, "proof %s is the point at infinity",
                         p.a.infinity ? "A" : p.b.infinity ? "B" : "C");
    *out = p;
    return CUZK_OK;
}

void cuzk_groth16_proof_serialize(uint8_t out[CUZK_GROTH16_PROOF_BYTES],
                                  const cuzk_groth16_proof *p)
{
    cuzk_g1_compress(out, &p->a);
    cuzk_g2_compress(out + 48, &p->b);
    cuzk_g1_compress(out + 144, &p->c);
}

cuzk_status cuzk_groth16_proofs_parse(cuzk_groth16_proof *out, size_t max, size_t *count,
                                      const uint8_t *buf, size_t len)
{
    *count = 0;
    if (len == 0 || len % CUZK_GROTH16_PROOF_BYTES != 0)
        return cuzk_fail(CUZK_ERR_FORMAT, "proof bytes: length %zu is not a positive multiple of %d",
                         len, CUZK_GROTH16_PROOF_BYTES);
    size_t n = len / CUZK_GROTH16_PROOF_BYTES;
    if (n > max)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "%zu proofs given, room for %zu", n, max);
    for (size_t i = 0; i < n; i++) {
        cuzk_status s = cuzk_groth16_proof_parse(&out[i], buf + i * CUZK_GROTH16_PROOF_BYTES);
        if (s != CUZK_OK)
            return cuzk_fail(s, "proof %zu of %zu: %s", i, n, cuzk_last_error());
    }
    *count = n;
    return CUZK_OK;
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Digests of decoded point sections for the check cache (check_digest.h). */
#include "common/check_digest.h"

#include <openssl/evp.h>
#include <string.h>

void cuzk__check_digest_chunk(cuzk__chunk_digest out, const void *p, size_t len)
{
    unsigned md_len = 0;
    if (!EVP_Digest(p, len, out, &md_len, EVP_sha256(), NULL) ||
        md_len != CUZK_CHECK_CACHE_DIGEST_BYTES)
        memset(out, 0, CUZK_CHECK_CACHE_DIGEST_BYTES);
}

bool cuzk__check_digest_key(uint8_t out[CUZK_CHECK_CACHE_DIGEST_BYTES], const char *tag,
                            size_t n_sections, const size_t *count,
                            const cuzk__chunk_digest *const *digests, size_t chunk)
{
    static const cuzk__chunk_digest zero;
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    bool ok = c && EVP_DigestInit_ex(c, EVP_sha256(), NULL) &&
              EVP_DigestUpdate(c, tag, strlen(tag) + 1);
    for (size_t k = 0; k < n_sections && ok; k++) {
        uint8_t n[8];
        for (int b = 0; b < 8; b++)
            n[b] = (uint8_t)((uint64_t)count[k] >> (8 * b));
        ok = EVP_DigestUpdate(c, n, sizeof n);
        for (size_t t = 0; ok && t < (count[k] + chunk - 1) / chunk; t++)
            ok = memcmp(digests[k][t], zero, sizeof zero) != 0 &&
                 EVP_DigestUpdate(c, digests[k][t], sizeof zero);
    }
    unsigned len = 0;
    ok = ok && EVP_DigestFinal_ex(c, out, &len) && len == CUZK_CHECK_CACHE_DIGEST_BYTES;
    EVP_MD_CTX_free(c);
    return ok;
}

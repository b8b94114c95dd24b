/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_COMMON_CHECK_DIGEST_H
#define CUZK_COMMON_CHECK_DIGEST_H

/*
 * The digests a key reader records in a check cache (include/cuzk/check_cache.h): each chunk of
 * a point section is hashed on the thread that decodes it, and the key's digest is SHA-256 over
 * a tag naming the format, then, per section, its point count (64-bit little endian) and its
 * chunks' digests in order. A chunk whose hash failed is left all zero and makes the key's
 * digest fail, so such a key is never recorded.
 */
#include "cuzk/check_cache.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t cuzk__chunk_digest[CUZK_CHECK_CACHE_DIGEST_BYTES];

/* SHA-256 of |len| bytes at |p| into |out| (all zero if OpenSSL fails). */
void cuzk__check_digest_chunk(cuzk__chunk_digest out, const void *p, size_t len);

/* The key's digest over |n_sections| sections: section k has |count[k]| points in chunks of
 * |chunk| points, whose digests are |digests[k]|. False if any chunk's hash had failed. */
bool cuzk__check_digest_key(uint8_t out[CUZK_CHECK_CACHE_DIGEST_BYTES], const char *tag,
                            size_t n_sections, const size_t *count,
                            const cuzk__chunk_digest *const *digests, size_t chunk);

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GROTH16_ZKEY_POINTS_H
#define CUZK_GROTH16_ZKEY_POINTS_H
/*
 * The zkey reader's bulk point sections (src/groth16/zkey_points.c), checked in parallel by
 * chunks of CUZK__ZKEY_CHUNK points: range, curve and (when asked) subgroup, decoded into the
 * key's arrays or, for a packed key, into per-chunk temporaries; optionally hashed for the check
 * cache. src/groth16/zkey.c runs the chunks as tasks of its load loop and reports the results.
 */
#include "groth16/snarkjs_internal.h"
#include "common/check_digest.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CUZK__ZKEY_CHUNK 256 /* points per task when checking in parallel */

typedef struct {
    const uint8_t *src; /* the section's bytes in memory */
    int fd;             /* >= 0: read them from this file at |off| instead (pread: see zkey.c) */
    uint64_t off;
    size_t n;
    bool g2;
    bool subgroup;
    void *dst;         /* the decoded points; NULL: kept packed, checked through temporaries */
    size_t *first_bad; /* per chunk: first bad point, SIZE_MAX, CHANGED or UNREADABLE */
    cuzk__chunk_digest *digest; /* per chunk, or NULL: not hashed */
} cuzk__points_job;

/* Chunk t of |ctx| (a cuzk__points_job): decoded and checked, hashed when j->digest is set. */
void cuzk__zkey_points_task(void *ctx, size_t t);
/* The subgroup tests alone over chunk t, after a cache miss (the section was hashed). */
void cuzk__zkey_points_subgroup_task(const cuzk__points_job *j, size_t t);
/* Allocates the destination of |n| points of section |sec| into *|out| (none when |packed|:
 * *|out| stays NULL) and the per-chunk results, and fills |j|; |fd| >= 0: the points are read
 * from that file (the one |bf| holds) rather than through bf->buf. */
cuzk_status cuzk__zkey_points_prepare(cuzk__points_job *j, void **out, const cuzk__binfile *bf,
                                      const cuzk__bin_section *sec, const char *name, size_t n,
                                      bool g2, bool subgroup, bool packed,
                                      int fd) CUZK_WARN_UNUSED_RESULT;
/* The first bad point of the section, named with its index and offset (CUZK_OK: none). */
cuzk_status cuzk__zkey_points_result(const cuzk__points_job *j, const cuzk__binfile *bf,
                                     const cuzk__bin_section *sec,
                                     const char *name) CUZK_WARN_UNUSED_RESULT;

#endif

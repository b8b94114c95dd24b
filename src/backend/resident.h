/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Device copies of parameter arrays shared by every backend of a device (resident.c). */
#ifndef CUZK_BACKEND_RESIDENT_H
#define CUZK_BACKEND_RESIDENT_H

#include "cuzk/status.h"
#include "gpu/gpu_msm.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct cuzk_shared_bases cuzk_shared_bases;

/* A reference to the device copy of host array |host| (|n| points of G1 or G2) on |device|:
 * the copy another backend holds, or a new upload. Two callers asking for the same array at
 * once upload it once (the second waits for the first); a failed upload leaves nothing. A new
 * G1 copy gets |rows| precomputed rows (cuzk_gpu_bases_precompute_rows, automatic width; 0:
 * none) when they fit; an existing copy is shared as it is. */
cuzk_status cuzk__resident_acquire(cuzk_shared_bases **out, int device, const void *host, size_t n,
                                   bool g2, unsigned rows);
/* Drops one reference; the last frees the device copy. The caller's calls over it are done. */
void cuzk__resident_release(cuzk_shared_bases *sb);
const cuzk_gpu_bases *cuzk__resident_bases(const cuzk_shared_bases *sb);
/* Device bytes of the copy (rows included). */
uint64_t cuzk__resident_device_bytes(const cuzk_shared_bases *sb);
/* Device copies the process holds, and their bytes (tests, cuzk-bench porep-shape). */
size_t cuzk__resident_copies(uint64_t *bytes);
/* The same for |device| (-1: every device), and the most precomputed rows a copy there holds
 * (0: plain points only); |bytes| and |rows| may be NULL. */
size_t cuzk__resident_on_device(int device, uint64_t *bytes, unsigned *rows);

#endif

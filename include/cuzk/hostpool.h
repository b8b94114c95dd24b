/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_HOSTPOOL_H
#define CUZK_HOSTPOOL_H

/*
 * A pool of large host buffers kept from one proof to the next, for the prover's a, b and c
 * (cuzk_cs_set_vec_alloc, cuzk_prover_data.abc_alloc). Fresh memory is expensive per proof: first
 * writes fault pages in (~0.5 s/GiB on the H200 host, a VM), and pinning a PoRep partition's
 * a and b for the device held the GPU worker 0.2-0.7 s per proof. Buffers from a pinned pool are
 * pinned once; later requests of about the same size reuse them. Thread-safe: synthesis threads
 * allocate while a prover thread frees.
 */

#include "cuzk/alloc.h"
#include "cuzk/status.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct cuzk_host_pool cuzk_host_pool;

/* The engine's |min_bytes|: smaller vectors are not worth keeping. */
#define CUZK_HOST_POOL_MIN_BYTES ((size_t)16 << 20)

/* |max_bytes|: the most the pool holds (buffers in use + kept); a request that does not fit after
 * dropping kept buffers is served by cuzk_alloc, as are requests below |min_bytes|. |pinned|:
 * buffers are page-locked for the CUDA devices (portable); needs one (CUZK_ERR_NO_DEVICE
 * otherwise). Returns: CUZK_OK; CUZK_ERR_INVALID_ARG; CUZK_ERR_NO_DEVICE; CUZK_ERR_NOMEM. */
cuzk_status cuzk_host_pool_create(cuzk_host_pool **out, uint64_t max_bytes, size_t min_bytes,
                                  bool pinned) CUZK_WARN_UNUSED_RESULT;
/* Frees the kept buffers. Every buffer must have come back (it is freed regardless). NULL: no-op.
 */
void cuzk_host_pool_destroy(cuzk_host_pool *hp);
/* The allocator over |hp| (valid while |hp| lives). */
cuzk_vec_alloc cuzk_host_pool_allocator(cuzk_host_pool *hp);

/* Allocates kept buffers of |bytes| until the pool holds |count| buffers (in use or kept) that a
 * request of |bytes| would take, or until the next would pass max_bytes; *|made| (may be NULL)
 * is how many it allocated. Unpinned buffers are written once, so that their pages are in too.
 * For work known ahead (a parameter set's a, b and c before its first partition): pinning costs
 * ~0.5 s/GiB, which the first partition would otherwise wait for. Sizes below min_bytes: no-op.
 * Returns: CUZK_OK (also when the budget stops it); CUZK_ERR_INVALID_ARG; CUZK_ERR_NOMEM. */
cuzk_status cuzk_host_pool_prefill(cuzk_host_pool *hp, size_t bytes, unsigned count,
                                   unsigned *made) CUZK_WARN_UNUSED_RESULT;

typedef struct {
    uint64_t requests; /* pool-sized allocations asked for */
    uint64_t reused;   /* ... served by a kept buffer */
    uint64_t fallback; /* ... served by cuzk_alloc (over max_bytes, or pinning failed) */
    uint64_t bytes_held, bytes_in_use, max_bytes;
    uint64_t buffers; /* held */
    double new_ms;    /* time spent allocating (and pinning) new buffers */
    bool pinned;
} cuzk_host_pool_stats;
void cuzk_host_pool_get_stats(cuzk_host_pool *hp, cuzk_host_pool_stats *out);

#endif

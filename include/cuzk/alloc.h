/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_ALLOC_H
#define CUZK_ALLOC_H

#include <stddef.h>
#include <stdint.h>

/* Counting allocator: every heap allocation of the library goes through these so that the
 * memory budget and metrics see it. Sizes are overflow-checked by cuzk_alloc_array. Blocks of
 * 64 MiB and more are mapped 2 MiB-aligned with transparent huge pages (env CUZK_THP=0: not;
 * CUZK_THP_MIN=<bytes>[k|m|g] moves the threshold; src/common/alloc.c). */
void *cuzk_alloc(size_t size);
void *cuzk_alloc_array(size_t count, size_t size);
void *cuzk_calloc_array(size_t count, size_t size);
/* Resizes memory from cuzk_alloc* like realloc (NULL |p|: cuzk_alloc); on failure returns NULL
 * and |p| stays valid. Large blocks move without a copy (mremap). */
void *cuzk_realloc(void *p, size_t size);
/* A cuzk_alloc copy of the string |s| (NULL for NULL |s| or out of memory). */
char *cuzk_strdup(const char *s);
/* Frees memory from cuzk_alloc*; cuzk_free(NULL) is a no-op. */
void cuzk_free(void *p);
/* Bytes currently allocated through cuzk_alloc* and not yet freed. */
uint64_t cuzk_alloc_live_bytes(void);
/* High-water mark of cuzk_alloc_live_bytes since start or the last cuzk_alloc_peak_reset, which
 * restarts it from the current live bytes (benchmarks measure one phase at a time). */
uint64_t cuzk_alloc_peak_bytes(void);
void cuzk_alloc_peak_reset(void);
/* Zeroes |n| bytes at |p| in a way the compiler cannot remove (for secrets). */
void cuzk_memclear(void *p, size_t n);

/* Where the prover's large vectors (a, b, c) live when not in cuzk_alloc memory: a pool of host
 * buffers kept between proofs (include/cuzk/hostpool.h), pinned for the device so that neither
 * pinning nor first-touch page faults recur per proof. |alloc| returns NULL on failure; |free|
 * takes a pointer from |alloc| (NULL: no-op). A zeroed struct means cuzk_alloc / cuzk_free. */
typedef struct {
    void *(*alloc)(void *ctx, size_t bytes);
    void (*free)(void *ctx, void *p);
    void *ctx;
} cuzk_vec_alloc;

/* Allocates / frees through |va| (NULL or zeroed: cuzk_alloc / cuzk_free). */
void *cuzk_vec_alloc_bytes(const cuzk_vec_alloc *va, size_t bytes);
void cuzk_vec_free(const cuzk_vec_alloc *va, void *p);

#endif

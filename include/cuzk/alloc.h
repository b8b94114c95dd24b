/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_ALLOC_H
#define CUZK_ALLOC_H

#include <stddef.h>
#include <stdint.h>

/* Counting allocator: every heap allocation of the library goes through these so that the
 * memory budget and metrics see it. Sizes are overflow-checked by cuzk_alloc_array. Blocks of
 * 64 MiB and more are advised to use transparent huge pages (env CUZK_THP=0: not). */
void *cuzk_alloc(size_t size);
void *cuzk_alloc_array(size_t count, size_t size);
void *cuzk_calloc_array(size_t count, size_t size);
/* Resizes memory from cuzk_alloc* like realloc (NULL |p|: cuzk_alloc); on failure returns NULL
 * and |p| stays valid. Large blocks move without a copy (mremap). */
void *cuzk_realloc(void *p, size_t size);
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

#endif

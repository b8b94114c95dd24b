/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_COMMON_ALLOC_INTERNAL_H
#define CUZK_COMMON_ALLOC_INTERNAL_H

#include <stddef.h>

/* The allocator's huge-page threshold (src/common/alloc.c): blocks of at least this many bytes
 * are mapped by the allocator, their data 2 MiB-aligned, with transparent huge pages; SIZE_MAX
 * when none are. Read from the environment once, on first use. */
size_t cuzk__alloc_huge_min(void);

/* The threshold the values of env CUZK_THP and CUZK_THP_MIN give (NULL: unset): CUZK_THP=0
 * maps nothing (SIZE_MAX); CUZK_THP_MIN=<n>[k|m|g] bytes, at least 4096; anything else (empty,
 * 0, a bad suffix, 2^40 or more) keeps the default of 64 MiB. Exposed for tests. */
size_t cuzk__alloc_parse_huge_min(const char *thp, const char *thp_min);

#endif

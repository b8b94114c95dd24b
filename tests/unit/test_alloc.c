/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The counting allocator's realloc: contents kept, live-byte count follows the size, small and
 * large (mmap'd, moved without a copy) blocks, growth and shrinkage, failure leaves |p| valid;
 * blocks from 64 MiB on are mapped 2 MiB-aligned (huge pages) unless CUZK_THP=0. */
#include "test.h"
#include "cuzk/alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

CUZK_TEST(alloc_realloc)
{
    uint64_t base = cuzk_alloc_live_bytes();
    static const size_t sizes[][2] = {{100, 300}, {300, 7}, {1 << 20, (size_t)80 << 20},
                                      {(size_t)80 << 20, (size_t)96 << 20},
                                      {(size_t)96 << 20, 4096},
                                      {(size_t)64 << 20, (size_t)300 << 20},
                                      {(size_t)300 << 20, (size_t)70 << 20},
                                      {(size_t)70 << 20, (size_t)1 << 20}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t from = sizes[i][0], to = sizes[i][1], keep = from < to ? from : to;
        uint8_t *p = cuzk_alloc(from);
        CHECK(p != NULL);
        const char *thp = getenv("CUZK_THP");
        if (from >= ((size_t)64 << 20) && !(thp && !strcmp(thp, "0")))
            CHECK_MSG(((uintptr_t)p - 16) % ((uintptr_t)2 << 20) == 0, "%zu-byte block at %p",
                      from, (void *)p);
        uint8_t seed = (uint8_t)test_rand_u64();
        for (size_t j = 0; j < from; j++)
            p[j] = (uint8_t)(seed + j * 131);
        CHECK(cuzk_alloc_live_bytes() == base + from);
        uint8_t *q = cuzk_realloc(p, to);
        CHECK(q != NULL);
        CHECK_MSG(cuzk_alloc_live_bytes() == base + to, "live bytes after %zu -> %zu", from, to);
        for (size_t j = 0; j < keep; j++)
            CHECK_MSG(q[j] == (uint8_t)(seed + j * 131), "byte %zu lost in %zu -> %zu", j, from,
                      to);
        memset(q, 0, to); /* the whole new size is writable */
        cuzk_free(q);
    }
    uint8_t *p = cuzk_realloc(NULL, 64);
    CHECK(p != NULL && cuzk_alloc_live_bytes() == base + 64);
    CHECK(cuzk_realloc(p, SIZE_MAX) == NULL); /* refused; p still owned */
    CHECK(cuzk_alloc_live_bytes() == base + 64);
    cuzk_free(p);
    CHECK(cuzk_alloc_live_bytes() == base);
}

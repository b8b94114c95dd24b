/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The counting allocator: realloc keeps the contents, the live-byte count follows the size,
 * small (malloc) and large (mapped, moved without a copy) blocks, growth and shrinkage across
 * the huge-page threshold, zero sizes, failure leaves |p| valid; blocks from the threshold
 * (1.875 MiB unless env CUZK_THP_MIN / CUZK_THP=0) have 2 MiB-aligned data; calloc'd blocks are
 * zero, fresh mappings or reused heap memory alike; the environment's parsing. Run it also with
 * CUZK_THP_MIN=64k and CUZK_THP=0 (the threshold is read once per process). */
#include "test.h"
#include "cuzk/alloc.h"
#include "common/alloc_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MiB ((size_t)1 << 20)
#define HUGE ((size_t)2 << 20)
#define DEF_MIN ((size_t)1920 << 10) /* HUGE_MIN_DEFAULT of src/common/alloc.c */

/* Fails unless a block of |size| bytes at |p| is aligned as the threshold says. */
static void check_layout(const void *p, size_t size)
{
    if (size >= cuzk__alloc_huge_min())
        CHECK_MSG((uintptr_t)p % HUGE == 0, "%zu-byte block at %p (threshold %zu)", size, p,
                  cuzk__alloc_huge_min());
    CHECK_MSG((uintptr_t)p % 16 == 0, "%zu-byte block at %p", size, p);
}

/* The test pattern's byte |j|; large blocks are filled and checked at a stride (and in full
 * near both ends) so that blocks of hundreds of MiB stay quick. */
static uint8_t pat(uint8_t seed, size_t j)
{
    return (uint8_t)(seed + j * 131 + (j >> 12));
}

static size_t next_index(size_t j, size_t n)
{
    return n <= MiB || j < 4096 || j + 4096 >= n ? j + 1 : j + 4093;
}

/* cuzk_realloc from |from| to |to| bytes: contents, counters, layout, the whole size writable. */
static void realloc_case(size_t from, size_t to)
{
    uint64_t base = cuzk_alloc_live_bytes();
    size_t keep = from < to ? from : to;
    uint8_t *p = cuzk_alloc(from);
    CHECK(p != NULL);
    check_layout(p, from);
    uint8_t seed = (uint8_t)test_rand_u64();
    for (size_t j = 0; j < from; j = next_index(j, from))
        p[j] = pat(seed, j);
    CHECK(cuzk_alloc_live_bytes() == base + from);
    CHECK(cuzk_alloc_peak_bytes() >= base + from);
    uint8_t *q = cuzk_realloc(p, to);
    CHECK(q != NULL);
    check_layout(q, to);
    CHECK_MSG(cuzk_alloc_live_bytes() == base + to, "live bytes after %zu -> %zu", from, to);
    for (size_t j = 0; j < keep; j = next_index(j, from))
        if (q[j] != pat(seed, j)) {
            CHECK_MSG(0, "byte %zu lost in %zu -> %zu", j, from, to);
            break;
        }
    memset(q, 0xa5, to); /* the whole new size is writable */
    cuzk_free(q);
    CHECK(cuzk_alloc_live_bytes() == base);
}

CUZK_TEST(alloc_realloc)
{
    size_t t = cuzk__alloc_huge_min();
    static const size_t sizes[][2] = {{100, 300},
                                      {300, 7},
                                      {1 << 20, (size_t)80 << 20},
                                      {(size_t)80 << 20, (size_t)96 << 20},
                                      {(size_t)96 << 20, 4096},
                                      {(size_t)64 << 20, (size_t)300 << 20},
                                      {(size_t)300 << 20, (size_t)70 << 20},
                                      {(size_t)70 << 20, (size_t)1 << 20},
                                      /* 128 MiB (whole huge pages), 70.1 MiB (rounded up to
                                       * 72: adds under 1/8), 2 MiB and a byte, 6.45 MiB */
                                      {(size_t)128 << 20, (size_t)73500000},
                                      {(size_t)73500000, HUGE + 1},
                                      {HUGE + 1, 6761000},
                                      {6761000, HUGE - 1}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        realloc_case(sizes[i][0], sizes[i][1]);
    /* Around the threshold (whatever the environment set): growth and shrinkage across it. */
    if (t < SIZE_MAX / 4) {
        size_t around[] = {t - 1, t, t + 4095, t + 4096};
        size_t n = sizeof around / sizeof around[0];
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++)
                realloc_case(around[i], around[j]);
        realloc_case(t / 2, t);
        realloc_case(t, t / 2);
        realloc_case(0, t);
        realloc_case(t, 0);
    }
    /* Zero sizes: a valid, freeable pointer, nothing counted. */
    realloc_case(0, 0);
    realloc_case(0, 16);
    realloc_case(16, 0);
    uint64_t base = cuzk_alloc_live_bytes();
    uint8_t *p = cuzk_realloc(NULL, 64);
    CHECK(p != NULL && cuzk_alloc_live_bytes() == base + 64);
    CHECK(cuzk_realloc(p, SIZE_MAX) == NULL); /* refused; p still owned */
    CHECK(cuzk_alloc(SIZE_MAX - 8) == NULL);
    CHECK(cuzk_alloc_array(SIZE_MAX / 2, 3) == NULL);
    CHECK(cuzk_alloc_live_bytes() == base + 64);
    cuzk_free(p);
    cuzk_free(NULL);
    CHECK(cuzk_alloc_live_bytes() == base);
}

/* cuzk_calloc_array is zero whether the block is a fresh mapping (not cleared again) or heap
 * memory a freed block leaves dirty; the peak counter follows. */
CUZK_TEST(alloc_calloc_zero)
{
    size_t t = cuzk__alloc_huge_min();
    size_t sizes[] = {24, 4000, 100000, 3 * MiB + 17, HUGE, t < SIZE_MAX ? t : 4 * MiB, 130 * MiB};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t n = sizes[i];
        for (int round = 0; round < 3; round++) {
            uint8_t *d = cuzk_alloc(n);
            CHECK(d != NULL);
            memset(d, 0xff, n);
            cuzk_free(d);
            cuzk_alloc_peak_reset();
            uint64_t live = cuzk_alloc_live_bytes();
            uint8_t *z = cuzk_calloc_array(n / 8, 8);
            CHECK(z != NULL);
            check_layout(z, n / 8 * 8);
            CHECK(cuzk_alloc_peak_bytes() == live + n / 8 * 8);
            size_t nz = 0;
            for (size_t j = 0; j < n / 8 * 8; j += 8) {
                uint64_t w;
                memcpy(&w, z + j, 8);
                nz += w != 0;
            }
            CHECK_MSG(nz == 0, "%zu nonzero words in a calloc'd block of %zu", nz, n / 8 * 8);
            cuzk_free(z);
        }
    }
    CHECK(cuzk_calloc_array(SIZE_MAX / 4, 8) == NULL);
}

CUZK_TEST(alloc_huge_min_env)
{
    static const struct {
        const char *thp, *min;
        size_t want;
    } cases[] = {{NULL, NULL, DEF_MIN},
                 {"1", "", DEF_MIN},
                 {"0", NULL, SIZE_MAX},
                 {"0", "4m", SIZE_MAX},
                 {"00", "4m", 4 * MiB},
                 {NULL, "4m", 4 * MiB},
                 {NULL, "4M", 4 * MiB},
                 {NULL, "64k", 64 << 10},
                 {NULL, "2g", (size_t)2 << 30},
                 {NULL, "3000000", 3000000},
                 {NULL, "1", 4096},
                 {NULL, "0", DEF_MIN},
                 {NULL, "4mb", DEF_MIN},
                 {NULL, "m", DEF_MIN},
                 {NULL, "-1", DEF_MIN},
                 {NULL, "1024g", DEF_MIN},
                 {NULL, "1023g", (size_t)1023 << 30},
                 {NULL, "99999999999999999999999", DEF_MIN}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t got = cuzk__alloc_parse_huge_min(cases[i].thp, cases[i].min);
        CHECK_MSG(got == cases[i].want, "CUZK_THP=%s CUZK_THP_MIN=%s: %zu, want %zu",
                  cases[i].thp ? cases[i].thp : "(unset)", cases[i].min ? cases[i].min : "(unset)",
                  got, cases[i].want);
    }
    /* The process's own threshold is what its environment says. */
    CHECK(cuzk__alloc_huge_min() ==
          cuzk__alloc_parse_huge_min(getenv("CUZK_THP"), getenv("CUZK_THP_MIN")));
}

CUZK_TEST(alloc_strdup)
{
    uint64_t live0 = cuzk_alloc_live_bytes();
    CHECK(cuzk_strdup(NULL) == NULL);
    char *e = cuzk_strdup(""), *s = cuzk_strdup("sha256-chain:16");
    CHECK(e && e[0] == '\0' && s && strcmp(s, "sha256-chain:16") == 0);
    CHECK(cuzk_alloc_live_bytes() > live0); /* counted like every cuzk_alloc block */
    cuzk_free(e);
    cuzk_free(s);
    CHECK(cuzk_alloc_live_bytes() == live0);
}

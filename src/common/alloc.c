/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "cuzk/alloc.h"
#include "common/alloc_internal.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static _Atomic uint64_t live_bytes;
static _Atomic uint64_t peak_bytes;

/* A 16-byte header keeps the size and the kind of block (and the 16-byte alignment malloc
 * gives) so that cuzk_free can count and release without the caller repeating anything. */
#define HDR 16
enum { KIND_MALLOC = 0, KIND_HUGE = 0x48554745 /* "HUGE" */ };

/*
 * Blocks from 1.875 MiB on (env CUZK_THP_MIN) are mapped by us, their data 2 MiB-aligned and
 * advised to use transparent huge pages: the prover's witness vectors are gigabytes, and with
 * 4 KiB pages their first touch and their pinning for device transfers (cudaHostRegister) walk
 * one page-table entry per 4 KiB. On the H200 host this took a PoRep partition's prove from 4.47
 * to 3.33 s. They are grown by moving whole 2 MiB entries to an aligned address: a move the
 * kernel must do 4 KiB at a time (glibc's mremap of a huge-page block) cost 1.3-6.7 s per 2 GiB on
 * the development VM.
 *
 * Why 1.875 MiB (the nVars-sized vectors of a 2^16 snarkjs proof are 1.98 MiB): on the 2-vCPU
 * development VM of 2026-12-03 (AMD EPYC guest, free page reporting on) a 2^16 snarkjs proof took
 * ~28,000 4 KiB faults with the earlier 64 MiB threshold and 1,100 with this one, and the whole
 * process 0.60 -> 0.41-0.47 s (2^12: 77 -> 67 ms), in the benchmark's order after snarkjs runs
 * too (docs/PERFORMANCE.md, "Huge pages from 1.875 MiB"). The Intel guest of 2026-12-01 had
 * measured no gain and dearer cold huge pages (helper-29); CUZK_THP_MIN=64m restores the old
 * threshold.
 *
 * Layout: one 4 KiB page whose last 16 bytes are the header, then the data from a 2 MiB
 * boundary, so that a vector of exactly 2^k bytes fills whole huge pages. The data is rounded up
 * to whole 2 MiB pages when that adds at most 1/8 of the size (the tail would otherwise fault
 * 4 KiB at a time). Env CUZK_THP=0 maps nothing ourselves (malloc, as for smaller blocks);
 * CUZK_THP_MIN=<bytes>[k|m|g] moves the threshold (cuzk__alloc_parse_huge_min).
 */
#define HUGE_MIN_DEFAULT ((size_t)1920 << 10)
#define HUGE_ALIGN ((size_t)2 << 20)
#define PAGE ((size_t)4096)

size_t cuzk__alloc_parse_huge_min(const char *thp, const char *thp_min)
{
    if (thp && thp[0] == '0' && thp[1] == 0)
        return SIZE_MAX;
    if (!thp_min || !*thp_min)
        return HUGE_MIN_DEFAULT;
    char *end;
    unsigned long long n = strtoull(thp_min, &end, 10);
    int shift = *end == 'k' || *end == 'K'   ? 10
                : *end == 'm' || *end == 'M' ? 20
                : *end == 'g' || *end == 'G' ? 30
                                             : 0;
    if (end == thp_min || (shift ? end[1] : end[0]) != 0 || n == 0 || n >= (1ULL << 40) >> shift)
        return HUGE_MIN_DEFAULT;
    size_t m = (size_t)n << shift;
    return m < PAGE ? PAGE : m;
}

size_t cuzk__alloc_huge_min(void)
{
    static _Atomic size_t v; /* 0: not read yet (racing first reads agree) */
    size_t m = atomic_load(&v);
    if (!m) {
        m = cuzk__alloc_parse_huge_min(getenv("CUZK_THP"), getenv("CUZK_THP_MIN"));
        atomic_store(&v, m);
    }
    return m;
}

static bool huge_wanted(size_t size)
{
    return size >= cuzk__alloc_huge_min();
}

/* Bytes of data mapped for |size|: whole pages, whole huge pages when that wastes <= 1/8. */
static size_t huge_data_len(size_t size)
{
    size_t pages = (size + PAGE - 1) & ~(PAGE - 1);
    size_t huge = (size + HUGE_ALIGN - 1) & ~(HUGE_ALIGN - 1);
    return huge - size <= size / 8 ? huge : pages;
}

/* The whole mapping: the header page and the data. */
static size_t huge_len(size_t size)
{
    return PAGE + huge_data_len(size);
}

/* An inaccessible reservation of |len| bytes whose second page starts on a HUGE_ALIGN boundary
 * (MAP_FAILED on failure). */
static unsigned char *reserve_aligned(size_t len, int prot)
{
    size_t span = len + HUGE_ALIGN;
    unsigned char *r = mmap(NULL, span, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (r == MAP_FAILED)
        return MAP_FAILED;
    unsigned char *b =
        (unsigned char *)(((uintptr_t)r + PAGE + HUGE_ALIGN - 1) & ~(HUGE_ALIGN - 1)) - PAGE;
    if (b > r)
        munmap(r, (size_t)(b - r));
    if (r + span > b + len)
        munmap(b + len, (size_t)(r + span - (b + len)));
    return b;
}

static void count_grow(size_t by)
{
    uint64_t now = atomic_fetch_add(&live_bytes, by) + by;
    uint64_t peak = atomic_load(&peak_bytes);
    while (now > peak && !atomic_compare_exchange_weak(&peak_bytes, &peak, now))
        ;
}

/* Writes the header just below |data| and returns |data|. */
static void *finish(unsigned char *data, size_t size, uint64_t kind)
{
    memcpy(data - HDR, &size, sizeof size);
    memcpy(data - HDR + 8, &kind, sizeof kind);
    return data;
}

/* The data of a block: after the header page of a mapping, after the header of a malloc. */
static unsigned char *data_of(unsigned char *base, uint64_t kind)
{
    return base + (kind == KIND_HUGE ? PAGE : HDR);
}

/* The start of a block's mapping or malloc from its data pointer. */
static unsigned char *base_of(unsigned char *data, uint64_t kind)
{
    return data - (kind == KIND_HUGE ? PAGE : HDR);
}

/* A new block; *|zeroed| tells whether its data is known to be zero (a fresh mapping). */
static void *alloc_block(size_t size, bool *zeroed)
{
    *zeroed = false;
    if (size > SIZE_MAX - PAGE - 2 * HUGE_ALIGN)
        return NULL;
    unsigned char *p;
    uint64_t kind = KIND_MALLOC;
    if (huge_wanted(size) &&
        (p = reserve_aligned(huge_len(size), PROT_READ | PROT_WRITE)) != MAP_FAILED) {
#ifdef MADV_HUGEPAGE
        (void)madvise(p + PAGE, huge_data_len(size), MADV_HUGEPAGE); /* failure is harmless */
#endif
        kind = KIND_HUGE;
        *zeroed = true;
    } else if (!(p = malloc(size + HDR))) {
        return NULL;
    }
    count_grow(size);
    return finish(data_of(p, kind), size, kind);
}

void *cuzk_alloc(size_t size)
{
    bool zeroed;
    return alloc_block(size, &zeroed);
}

void *cuzk_alloc_array(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    return cuzk_alloc(count * size);
}

char *cuzk_strdup(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = cuzk_alloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

void *cuzk_calloc_array(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    bool zeroed;
    void *p = alloc_block(count * size, &zeroed);
    /* A fresh mapping is zero already: a memset would only fault its pages in early. */
    if (p && !zeroed)
        memset(p, 0, count * size);
    return p;
}

/* Resizes a huge block (|base|: its mapping): in place, else moved to an aligned reservation
 * (whole 2 MiB entries move), else NULL (the caller copies). */
static unsigned char *huge_resize(unsigned char *base, size_t old, size_t size)
{
    size_t ol = huge_len(old), nl = huge_len(size);
    void *q = mremap(base, ol, nl, 0);
    if (q != MAP_FAILED)
        return q;
    unsigned char *r = reserve_aligned(nl, PROT_NONE);
    if (r == MAP_FAILED)
        return NULL;
    q = mremap(base, ol, nl, MREMAP_MAYMOVE | MREMAP_FIXED, r);
    if (q == MAP_FAILED) {
        munmap(r, nl);
        return NULL;
    }
#ifdef MADV_HUGEPAGE
    (void)madvise((unsigned char *)q + PAGE, nl - PAGE, MADV_HUGEPAGE);
#endif
    return q;
}

void *cuzk_realloc(void *p, size_t size)
{
    if (!p)
        return cuzk_alloc(size);
    if (size > SIZE_MAX - PAGE - 2 * HUGE_ALIGN)
        return NULL;
    unsigned char *data = p, *q;
    size_t old;
    uint64_t kind;
    memcpy(&old, data - HDR, sizeof old);
    memcpy(&kind, data - HDR + 8, sizeof kind);
    if (kind == KIND_HUGE) {
        q = huge_wanted(size) ? huge_resize(base_of(data, kind), old, size) : NULL;
        if (!q) { /* shrinking below the huge size, or no address space to move to */
            void *n = cuzk_alloc(size);
            if (!n)
                return NULL;
            memcpy(n, p, old < size ? old : size);
            cuzk_free(p);
            return n;
        }
    } else if (huge_wanted(size) && size > old) {
        /* Growing across the threshold: into a mapping of its own, like a new block. */
        void *n = cuzk_alloc(size);
        if (!n)
            return NULL;
        memcpy(n, p, old);
        cuzk_free(p);
        return n;
    } else if (!(q = realloc(base_of(data, kind), size + HDR))) {
        return NULL;
    }
    if (size >= old)
        count_grow(size - old);
    else
        atomic_fetch_sub(&live_bytes, old - size);
    return finish(data_of(q, kind), size, kind);
}

void cuzk_free(void *p)
{
    if (!p)
        return;
    unsigned char *data = p;
    size_t size;
    uint64_t kind;
    memcpy(&size, data - HDR, sizeof size);
    memcpy(&kind, data - HDR + 8, sizeof kind);
    atomic_fetch_sub(&live_bytes, size);
    if (kind == KIND_HUGE)
        munmap(base_of(data, kind), huge_len(size));
    else
        free(base_of(data, kind));
}

uint64_t cuzk_alloc_live_bytes(void)
{
    return atomic_load(&live_bytes);
}

uint64_t cuzk_alloc_peak_bytes(void)
{
    return atomic_load(&peak_bytes);
}

void cuzk_alloc_peak_reset(void)
{
    atomic_store(&peak_bytes, atomic_load(&live_bytes));
}

void cuzk_memclear(void *p, size_t n)
{
    /* memset at full speed (the prover wipes gigabytes); the barrier tells the compiler that the
     * zeroed memory is read afterwards, so the stores cannot be dropped as dead. */
    if (n)
        memset(p, 0, n);
    __asm__ volatile("" : : "r"(p) : "memory");
}

void *cuzk_vec_alloc_bytes(const cuzk_vec_alloc *va, size_t bytes)
{
    return va && va->alloc ? va->alloc(va->ctx, bytes) : cuzk_alloc(bytes);
}

void cuzk_vec_free(const cuzk_vec_alloc *va, void *p)
{
    if (!p)
        return;
    if (va && va->alloc)
        va->free(va->ctx, p);
    else
        cuzk_free(p);
}

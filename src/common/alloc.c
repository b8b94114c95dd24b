/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "cuzk/alloc.h"

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
 * Blocks from 64 MiB on are mapped by us, 2 MiB-aligned and advised to use transparent huge
 * pages: the prover's witness vectors are gigabytes, and with 4 KiB pages their first touch and
 * their pinning for device transfers (cudaHostRegister) walk one page-table entry per 4 KiB. On
 * the H200 host this took a PoRep partition's prove from 4.47 to 3.33 s (docs/PERFORMANCE.md).
 * They are grown by moving whole 2 MiB entries to an aligned address: a move the kernel must do
 * 4 KiB at a time (glibc's mremap of a huge-page block) cost 1.3-6.7 s per 2 GiB on the
 * development VM. Env CUZK_THP=0 maps nothing ourselves (malloc, as for smaller blocks).
 */
#define HUGE_MIN ((size_t)64 << 20)
#define HUGE_ALIGN ((size_t)2 << 20)

static bool huge_wanted(size_t size)
{
    static _Atomic int v = -1;
    if (size < HUGE_MIN)
        return false;
    int w = atomic_load(&v);
    if (w < 0) {
        const char *e = getenv("CUZK_THP");
        w = !(e && e[0] == '0' && e[1] == 0);
        atomic_store(&v, w);
    }
    return w != 0;
}

static size_t huge_len(size_t size)
{
    return (size + HDR + 4095) & ~(size_t)4095;
}

/* An inaccessible, HUGE_ALIGN-aligned reservation of |len| bytes (MAP_FAILED on failure). */
static unsigned char *reserve_aligned(size_t len, int prot)
{
    size_t span = len + HUGE_ALIGN;
    unsigned char *r = mmap(NULL, span, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (r == MAP_FAILED)
        return MAP_FAILED;
    unsigned char *b = (unsigned char *)(((uintptr_t)r + HUGE_ALIGN - 1) & ~(HUGE_ALIGN - 1));
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

static void *finish(unsigned char *base, size_t size, uint64_t kind)
{
    memcpy(base, &size, sizeof size);
    memcpy(base + 8, &kind, sizeof kind);
    return base + HDR;
}

void *cuzk_alloc(size_t size)
{
    if (size > SIZE_MAX - HDR - HUGE_ALIGN)
        return NULL;
    unsigned char *p;
    uint64_t kind = KIND_MALLOC;
    if (huge_wanted(size) &&
        (p = reserve_aligned(huge_len(size), PROT_READ | PROT_WRITE)) != MAP_FAILED) {
#ifdef MADV_HUGEPAGE
        (void)madvise(p, huge_len(size), MADV_HUGEPAGE); /* advice: failure is harmless */
#endif
        kind = KIND_HUGE;
    } else if (!(p = malloc(size + HDR))) {
        return NULL;
    }
    count_grow(size);
    return finish(p, size, kind);
}

void *cuzk_alloc_array(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    return cuzk_alloc(count * size);
}

void *cuzk_calloc_array(size_t count, size_t size)
{
    void *p = cuzk_alloc_array(count, size);
    if (p)
        memset(p, 0, count * size);
    return p;
}

/* Resizes a huge block: in place, else moved to an aligned reservation (whole 2 MiB entries
 * move), else NULL (the caller copies). */
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
    (void)madvise(q, nl, MADV_HUGEPAGE);
#endif
    return q;
}

void *cuzk_realloc(void *p, size_t size)
{
    if (!p)
        return cuzk_alloc(size);
    if (size > SIZE_MAX - HDR - HUGE_ALIGN)
        return NULL;
    unsigned char *base = (unsigned char *)p - HDR, *q;
    size_t old;
    uint64_t kind;
    memcpy(&old, base, sizeof old);
    memcpy(&kind, base + 8, sizeof kind);
    if (kind == KIND_HUGE) {
        q = size >= HUGE_MIN ? huge_resize(base, old, size) : NULL;
        if (!q) { /* shrinking below the huge size, or no address space to move to */
            void *n = cuzk_alloc(size);
            if (!n)
                return NULL;
            memcpy(n, p, old < size ? old : size);
            cuzk_free(p);
            return n;
        }
    } else if (!(q = realloc(base, size + HDR))) {
        return NULL;
    }
    if (size >= old)
        count_grow(size - old);
    else
        atomic_fetch_sub(&live_bytes, old - size);
    return finish(q, size, kind);
}

void cuzk_free(void *p)
{
    if (!p)
        return;
    unsigned char *base = (unsigned char *)p - HDR;
    size_t size;
    uint64_t kind;
    memcpy(&size, base, sizeof size);
    memcpy(&kind, base + 8, sizeof kind);
    atomic_fetch_sub(&live_bytes, size);
    if (kind == KIND_HUGE)
        munmap(base, huge_len(size));
    else
        free(base);
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

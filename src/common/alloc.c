/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "cuzk/alloc.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static _Atomic uint64_t live_bytes;
static _Atomic uint64_t peak_bytes;

/* A 16-byte header keeps the size (and the 16-byte alignment malloc gives) so that cuzk_free
 * can count without the caller repeating it. */
#define HDR 16

void *cuzk_alloc(size_t size)
{
    if (size > SIZE_MAX - HDR)
        return NULL;
    unsigned char *p = malloc(size + HDR);
    if (!p)
        return NULL;
    memcpy(p, &size, sizeof size);
    uint64_t now = atomic_fetch_add(&live_bytes, size) + size;
    uint64_t peak = atomic_load(&peak_bytes);
    while (now > peak && !atomic_compare_exchange_weak(&peak_bytes, &peak, now))
        ;
    return p + HDR;
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

void *cuzk_realloc(void *p, size_t size)
{
    if (!p)
        return cuzk_alloc(size);
    if (size > SIZE_MAX - HDR)
        return NULL;
    unsigned char *base = (unsigned char *)p - HDR;
    size_t old;
    memcpy(&old, base, sizeof old);
    unsigned char *q = realloc(base, size + HDR);
    if (!q)
        return NULL;
    memcpy(q, &size, sizeof size);
    if (size >= old) {
        uint64_t now = atomic_fetch_add(&live_bytes, size - old) + (size - old);
        uint64_t peak = atomic_load(&peak_bytes);
        while (now > peak && !atomic_compare_exchange_weak(&peak_bytes, &peak, now))
            ;
    } else {
        atomic_fetch_sub(&live_bytes, old - size);
    }
    return q + HDR;
}

void cuzk_free(void *p)
{
    if (!p)
        return;
    unsigned char *base = (unsigned char *)p - HDR;
    size_t size;
    memcpy(&size, base, sizeof size);
    atomic_fetch_sub(&live_bytes, size);
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
    volatile unsigned char *v = p;
    while (n--)
        *v++ = 0;
    __asm__ volatile("" : : "r"(p) : "memory");
}

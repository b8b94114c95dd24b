/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* bincode primitives of the vanilla-proof readers and writers (src/filecoin/bincode.h). */
#include "filecoin/bincode.h"

#include "cuzk/alloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

cuzk_status cuzk__bin_fail(const cuzk__bin_reader *r, cuzk_status st, const char *fmt, ...)
{
    char what[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return cuzk_fail(st, "%s: %s", r->where, what);
}

static cuzk_status truncated(const cuzk__bin_reader *r, const char *what)
{
    return cuzk__bin_fail(r, CUZK_ERR_FORMAT, "truncated in %s", what);
}

cuzk_status cuzk__bin_u64(cuzk__bin_reader *r, uint64_t *v, const char *what)
{
    if (r->left < 8)
        return truncated(r, what);
    *v = 0;
    for (int i = 7; i >= 0; i--)
        *v = (*v << 8) | r->p[i];
    r->p += 8;
    r->left -= 8;
    return CUZK_OK;
}

cuzk_status cuzk__bin_u32(cuzk__bin_reader *r, uint32_t *v, const char *what)
{
    if (r->left < 4)
        return truncated(r, what);
    *v = (uint32_t)r->p[0] | (uint32_t)r->p[1] << 8 | (uint32_t)r->p[2] << 16 |
         (uint32_t)r->p[3] << 24;
    r->p += 4;
    r->left -= 4;
    return CUZK_OK;
}

cuzk_status cuzk__bin_fr(cuzk__bin_reader *r, cuzk_fr_t *v, uint8_t raw[32], const char *what)
{
    if (r->left < 32)
        return truncated(r, what);
    if (raw)
        memcpy(raw, r->p, 32);
    if (cuzk_fr_from_bytes_le(v, r->p) != CUZK_OK)
        return cuzk__bin_fail(r, CUZK_ERR_NOT_CANONICAL, "%s is not a canonical field element",
                              what);
    r->p += 32;
    r->left -= 32;
    return CUZK_OK;
}

cuzk_status cuzk__bin_len(cuzk__bin_reader *r, uint64_t want, const char *what)
{
    uint64_t n = 0;
    cuzk_status s = cuzk__bin_u64(r, &n, what);
    if (s != CUZK_OK)
        return s;
    if (n != want)
        return cuzk__bin_fail(r, CUZK_ERR_FORMAT, "%llu %s, the shape has %llu",
                              (unsigned long long)n, what, (unsigned long long)want);
    return CUZK_OK;
}

void cuzk__bin_put(cuzk__bin_writer *w, const void *src, size_t n)
{
    if (w->nomem)
        return;
    if (w->len + n > w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 4096;
        while (cap < w->len + n)
            cap *= 2;
        uint8_t *q = cuzk_realloc(w->p, cap);
        if (!q) {
            w->nomem = true;
            return;
        }
        w->p = q;
        w->cap = cap;
    }
    memcpy(w->p + w->len, src, n);
    w->len += n;
}

void cuzk__bin_put_u64(cuzk__bin_writer *w, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    cuzk__bin_put(w, b, 8);
}

void cuzk__bin_put_u32(cuzk__bin_writer *w, uint32_t v)
{
    uint8_t b[4];
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    cuzk__bin_put(w, b, 4);
}

void cuzk__bin_put_fr(cuzk__bin_writer *w, const cuzk_fr_t *v)
{
    uint8_t b[32];
    cuzk_fr_to_bytes_le(b, v);
    cuzk__bin_put(w, b, 32);
}

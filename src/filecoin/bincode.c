/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* bincode primitives of the vanilla-proof readers and writers (src/filecoin/bincode.h). */
#include "filecoin/bincode.h"

#include "cuzk/alloc.h"
#include "cuzk/r1cs.h"

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

/* ---- Merkle proofs --------------------------------------------------------------------------- */

/* InclusionPath of the |nlev| levels |arities| (siblings to |sib|), positions folded into
 * |*index| from bit |*shift| up. */
static cuzk_status rd_path(cuzk__bin_reader *r, const size_t *arities, size_t nlev, cuzk_fr_t **sib,
                           uint64_t *index, unsigned *shift, const char *tree)
{
    char what[64];
    snprintf(what, sizeof what, "%s path levels", tree);
    CUZK_TRY(cuzk__bin_len(r, nlev, what));
    for (size_t l = 0; l < nlev; l++) {
        size_t a = arities[l];
        snprintf(what, sizeof what, "siblings of a %s path level", tree);
        CUZK_TRY(cuzk__bin_len(r, a - 1, what));
        snprintf(what, sizeof what, "a %s path sibling", tree);
        for (size_t j = 0; j + 1 < a; j++)
            CUZK_TRY(cuzk__bin_fr(r, (*sib)++, NULL, what));
        uint64_t pos = 0;
        snprintf(what, sizeof what, "a %s path index", tree);
        CUZK_TRY(cuzk__bin_u64(r, &pos, what));
        if (pos >= a)
            return cuzk__bin_fail(r, CUZK_ERR_FORMAT, "%s path index %llu at a level of arity %zu",
                                  tree, (unsigned long long)pos, a);
        *index |= pos << *shift;
        *shift += (unsigned)__builtin_ctzll(a);
    }
    return CUZK_OK;
}

cuzk_status cuzk__bin_merkle(cuzk__bin_reader *r, const size_t *arities, size_t depth,
                             unsigned variant, cuzk_fr_t *sib, cuzk_fr_t *root, cuzk_fr_t *leaf,
                             uint64_t *index, const char *tree)
{
    uint32_t v = 0;
    char what[64];
    snprintf(what, sizeof what, "the %s Merkle proof's variant", tree);
    CUZK_TRY(cuzk__bin_u32(r, &v, what));
    if (v != variant)
        return cuzk__bin_fail(r, CUZK_ERR_FORMAT, "%s Merkle proof variant %u, the shape takes %u",
                              tree, v, variant);
    *index = 0;
    unsigned shift = 0;
    char rw[64], lw[64];
    snprintf(rw, sizeof rw, "the %s root", tree);
    snprintf(lw, sizeof lw, "the %s leaf", tree);
    if (variant == 0) {
        CUZK_TRY(cuzk__bin_fr(r, root, NULL, rw));
        CUZK_TRY(cuzk__bin_fr(r, leaf, NULL, lw));
        return rd_path(r, arities, depth, &sib, index, &shift, tree);
    }
    size_t base = depth - variant;
    CUZK_TRY(rd_path(r, arities, base, &sib, index, &shift, tree));
    for (size_t l = base; l < depth; l++)
        CUZK_TRY(rd_path(r, &arities[l], 1, &sib, index, &shift, tree));
    CUZK_TRY(cuzk__bin_fr(r, root, NULL, rw));
    return cuzk__bin_fr(r, leaf, NULL, lw);
}

static void put_path(cuzk__bin_writer *w, const size_t *arities, size_t nlev, const cuzk_fr_t **sib,
                     uint64_t *index)
{
    cuzk__bin_put_u64(w, nlev);
    for (size_t l = 0; l < nlev; l++) {
        size_t a = arities[l];
        cuzk__bin_put_u64(w, a - 1);
        for (size_t j = 0; j + 1 < a; j++)
            cuzk__bin_put_fr(w, (*sib)++);
        cuzk__bin_put_u64(w, *index % a);
        *index /= a;
    }
}

void cuzk__bin_put_merkle(cuzk__bin_writer *w, const size_t *arities, size_t depth,
                          unsigned variant, const cuzk_fr_t *sib, const cuzk_fr_t *root,
                          const cuzk_fr_t *leaf, uint64_t index)
{
    cuzk__bin_put_u32(w, variant);
    if (variant == 0) {
        cuzk__bin_put_fr(w, root);
        cuzk__bin_put_fr(w, leaf);
        put_path(w, arities, depth, &sib, &index);
        return;
    }
    size_t base = depth - variant;
    put_path(w, arities, base, &sib, &index);
    for (size_t l = base; l < depth; l++)
        put_path(w, &arities[l], 1, &sib, &index);
    cuzk__bin_put_fr(w, root);
    cuzk__bin_put_fr(w, leaf);
}

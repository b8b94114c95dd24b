/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The distinct coefficients of a circuit's matrices, each stored once and named by index: an
 * open-addressing map from value to index over a growing table. A circuit repeats few values
 * (powers of two for bit packing, Poseidon's constants), so a PCE entry or a compact KEYGEN
 * record holds a u32 index instead of a 32-byte field element.
 */
#include "r1cs/cs_internal.h" /* cuzk__grow */
#include "r1cs/fr_fast.h"
#include "r1cs/pce_internal.h"

#include "cuzk/alloc.h"

#include <string.h>

static uint64_t coeff_hash(const cuzk_fr_t *c)
{
    uint64_t h = c->l[0] ^ (c->l[1] * 0x9e3779b97f4a7c15ULL) ^ (c->l[2] * 0xc2b2ae3d27d4eb4fULL) ^
                 (c->l[3] * 0x165667b19e3779f9ULL);
    return h ^ (h >> 29);
}

static bool rehash(cuzk__coeff_table *t, size_t slots)
{
    uint32_t *ns = cuzk_calloc_array(slots, sizeof *ns);
    if (!ns)
        return false;
    for (size_t i = 0; i < t->n; i++) {
        size_t h = coeff_hash(&t->v[i]) & (slots - 1);
        while (ns[h])
            h = (h + 1) & (slots - 1);
        ns[h] = (uint32_t)i + 1;
    }
    cuzk_free(t->slot);
    t->slot = ns;
    t->mask = slots - 1;
    return true;
}

bool cuzk__coeff_table_init(cuzk__coeff_table *t)
{
    memset(t, 0, sizeof *t);
    return rehash(t, 1024);
}

uint32_t cuzk__coeff_table_index(cuzk__coeff_table *t, const cuzk_fr_t *c)
{
    size_t h = coeff_hash(c) & t->mask;
    for (uint32_t s; (s = t->slot[h]) != 0; h = (h + 1) & t->mask)
        if (frf_eq(&t->v[s - 1], c))
            return s - 1;
    if (t->n >= CUZK__COEFF_MAX ||
        !cuzk__grow((void **)&t->v, &t->cap, t->n + 1, sizeof(cuzk_fr_t), false, false))
        return UINT32_MAX;
    uint32_t idx = (uint32_t)t->n;
    t->v[t->n++] = *c;
    t->slot[h] = idx + 1;
    if (2 * t->n > t->mask && !rehash(t, 2 * (t->mask + 1)))
        return UINT32_MAX;
    return idx;
}

void cuzk__coeff_table_free(cuzk__coeff_table *t)
{
    cuzk_free(t->v);
    cuzk_free(t->slot);
    memset(t, 0, sizeof *t);
}

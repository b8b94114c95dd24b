/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Merging duplicate variables of an LC and the density bitmaps. bellperson's LC merges terms of
 * the same variable on insert and its prover marks a variable dense only when the merged
 * coefficient is non-zero (eval_with_trackers); the keygen matrices use the same merged,
 * zero-free rows. We store terms unmerged and merge only where it can change the answer.
 */
#include "r1cs/cs_internal.h"
#include "r1cs/fr_fast.h"

#include "cuzk/alloc.h"

#include <stdlib.h>

lc_view *cuzk__cs_views(cuzk_cs *cs, const cuzk_lc *lc, size_t *n)
{
    size_t k = cuzk__lc_terms(lc);
    if (!cuzk__grow((void **)&cs->views, &cs->views_cap, k ? k : 1, sizeof(lc_view), false,
                    false))
        return NULL;
    cuzk__lc_gather(lc, cs->views);
    *n = k;
    return cs->views;
}

static void view_coeff(cuzk_fr_t *out, const lc_view *v)
{
    if (v->kind == LC_POS)
        *out = cuzk__fr_one;
    else if (v->kind == LC_NEG)
        *out = cuzk__fr_minus_one;
    else
        *out = *v->coeff;
}

static int cmp_view(const void *x, const void *y)
{
    const lc_view *a = x, *b = y;
    return (a->id > b->id) - (a->id < b->id);
}

static void sort_views(lc_view *v, size_t n)
{
    if (n <= 24) {
        for (size_t i = 1; i < n; i++) {
            lc_view t = v[i];
            size_t j = i;
            while (j > 0 && v[j - 1].id > t.id) {
                v[j] = v[j - 1];
                j--;
            }
            v[j] = t;
        }
        return;
    }
    qsort(v, n, sizeof *v, cmp_view);
}

size_t cuzk__merge_terms(lc_view *v, size_t n, uint32_t *ids, cuzk_fr_t *coeffs)
{
    sort_views(v, n);
    size_t out = 0;
    for (size_t i = 0; i < n;) {
        cuzk_fr_t sum;
        view_coeff(&sum, &v[i]);
        size_t j = i + 1;
        for (; j < n && v[j].id == v[i].id; j++) {
            cuzk_fr_t c;
            view_coeff(&c, &v[j]);
            frf_add(&sum, &sum, &c);
        }
        if (!frf_is_zero(&sum)) {
            ids[out] = v[i].id;
            coeffs[out] = sum;
            out++;
        }
        i = j;
    }
    return out;
}

/* Merged coefficient of |id| over all views is non-zero? (n small) */
static bool merged_nonzero(const lc_view *v, size_t n, uint32_t id)
{
    cuzk_fr_t sum;
    frf_set_zero(&sum);
    for (size_t j = 0; j < n; j++) {
        if (v[j].id == id) {
            cuzk_fr_t c;
            view_coeff(&c, &v[j]);
            frf_add(&sum, &sum, &c);
        }
    }
    return !frf_is_zero(&sum);
}

static inline bitvec *bits_for(uint32_t id, bitvec *in_bits, bitvec *aux_bits, size_t *idx)
{
    *idx = id & CUZK_VAR_MAX_INDEX;
    return (id & CUZK_VAR_AUX_BIT) ? aux_bits : in_bits;
}

cuzk_status cuzk__mark_density(cuzk_cs *cs, const cuzk_lc *lc, bitvec *in_bits, bitvec *aux_bits)
{
    size_t n;
    lc_view *v = cuzk__cs_views(cs, lc, &n);
    if (!v)
        return CUZK_ERR_NOMEM;
    /* Fast path: every variable already marked (the common case once a bit has passed its
     * booleanity constraint) needs no merging. */
    size_t cand = 0;
    for (size_t i = 0; i < n; i++) {
        size_t idx;
        bitvec *b = bits_for(v[i].id, in_bits, aux_bits, &idx);
        if (b && !cuzk__bit_get(b, idx))
            cand++;
    }
    if (!cand)
        return CUZK_OK;
    if (cand * n <= 1024) {
        for (size_t i = 0; i < n; i++) {
            size_t idx;
            bitvec *b = bits_for(v[i].id, in_bits, aux_bits, &idx);
            if (!b || cuzk__bit_get(b, idx))
                continue;
            bool dup = false;
            for (size_t j = 0; j < n && !dup; j++)
                dup = j != i && v[j].id == v[i].id;
            if (!dup || merged_nonzero(v, n, v[i].id))
                cuzk__bit_set(b, idx);
        }
        return CUZK_OK;
    }
    sort_views(v, n);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && v[j].id == v[i].id)
            j++;
        size_t idx;
        bitvec *b = bits_for(v[i].id, in_bits, aux_bits, &idx);
        if (b && !cuzk__bit_get(b, idx) && (j == i + 1 || merged_nonzero(v + i, j - i, v[i].id)))
            cuzk__bit_set(b, idx);
        i = j;
    }
    return CUZK_OK;
}

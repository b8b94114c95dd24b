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

lc_view *cuzk__cs_views(cuzk_cs *cs, const cuzk_lc *lc, size_t *n)
{
    size_t k = cuzk__lc_terms(lc);
    if (!cuzk__grow((void **)&cs->views, &cs->views_cap, k ? k : 1, sizeof(lc_view), false, false))
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

/* Sorts by id: insertion sort for short lists, Shell sort (Ciura's gaps) above; no recursion,
 * no allocation, fast for the few hundred terms of the largest LCs met during synthesis. */
static void sort_views(lc_view *v, size_t n)
{
    static const size_t gaps[] = {1750, 701, 301, 132, 57, 23, 10, 4, 1};
    if (n < 2)
        return;
    size_t g = 0;
    while (gaps[g] >= n)
        g++;
    for (; g < sizeof gaps / sizeof gaps[0]; g++) {
        size_t gap = gaps[g];
        for (size_t i = gap; i < n; i++) {
            lc_view t = v[i];
            size_t j = i;
            while (j >= gap && v[j - gap].id > t.id) {
                v[j] = v[j - gap];
                j -= gap;
            }
            v[j] = t;
        }
    }
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

/* Sum of the coefficients of v[0..n) (all of one variable) is non-zero? */
static bool sum_nonzero(const lc_view *v, size_t n)
{
    cuzk_fr_t sum, c;
    view_coeff(&sum, &v[0]);
    for (size_t j = 1; j < n; j++) {
        view_coeff(&c, &v[j]);
        frf_add(&sum, &sum, &c);
    }
    return !frf_is_zero(&sum);
}

/*
 * Only variables not yet marked can change a bitmap, and every occurrence of such a variable in
 * the LC is itself unmarked; so it suffices to merge the unmarked terms among themselves. Once a
 * bit has passed its booleanity constraint (A = 1 - b, B = b) it is marked in both A and B,
 * which makes the candidate list empty for most constraints.
 */
cuzk_status cuzk__mark_density(cuzk_cs *cs, const cuzk_lc *lc, bitvec *in_bits, bitvec *aux_bits)
{
    size_t n = cuzk__lc_terms(lc);
    if (!n)
        return CUZK_OK;
    if (n > cs->views_cap &&
        !cuzk__grow((void **)&cs->views, &cs->views_cap, n, sizeof(lc_view), false, false))
        return CUZK_ERR_NOMEM;
    lc_view *v = cs->views;
    size_t k = cuzk__lc_unmarked(lc, in_bits, aux_bits, v);
    if (k == 0)
        return CUZK_OK;
    if (k > 1)
        sort_views(v, k);
    for (size_t i = 0; i < k;) {
        size_t j = i + 1;
        while (j < k && v[j].id == v[i].id)
            j++;
        /* Stored coefficients are never zero, so a lone term is always non-zero. */
        if (j == i + 1 || sum_nonzero(v + i, j - i)) {
            uint32_t id = v[i].id;
            bitvec *b = (id & CUZK_VAR_AUX_BIT) ? aux_bits : in_bits;
            cuzk__bit_set(b, id & CUZK_VAR_MAX_INDEX);
        }
        i = j;
    }
    return CUZK_OK;
}

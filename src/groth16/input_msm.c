/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The verifier's public-input sum IC_0 + sum x_i IC_{i+1}. Filecoin inputs repeat values (a PoSt
 * lists comm_r once per sector, then small leaf indices), so equal scalars are merged first: the
 * points of a group are added and multiplied once. What remains goes through a small bucket
 * (Pippenger) sum sized by the longest scalar, or through single multiplications when few are
 * left. Public data only: variable time throughout.
 *
 * TODO(issue 3): use the threaded src/msm Pippenger here once it exists for large key sizes.
 */
#include "groth16/input_msm.h"
#include "cuzk/alloc.h"
#include "common/verify.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t k[4]; /* canonical scalar */
    uint32_t idx;  /* input index */
} term;

static int cmp_term(const void *a, const void *b)
{
    const term *x = a, *y = b;
    for (int i = 3; i >= 0; i--)
        if (x->k[i] != y->k[i])
            return x->k[i] < y->k[i] ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static unsigned bit_length(const uint64_t k[4])
{
    for (int i = 3; i >= 0; i--)
        if (k[i])
            return (unsigned)(64 * i + 64 - __builtin_clzll(k[i]));
    return 0;
}

static unsigned window_bits(const uint64_t k[4], unsigned off, unsigned c)
{
    unsigned limb = off / 64, sh = off % 64;
    uint64_t v = k[limb] >> sh;
    if (sh + c > 64 && limb < 3)
        v |= k[limb + 1] << (64 - sh);
    return (unsigned)(v & ((1u << c) - 1));
}

/* sum over |n| (point, scalar) pairs with scalars below 2^bits; Pippenger with c-bit windows. */
static bool bucket_sum(cuzk_g1_jac_t *out, const cuzk_g1_jac_t *pts, const term *t, size_t n,
                       unsigned bits)
{
    unsigned c = n < 32 ? 3 : n < 128 ? 4 : n < 512 ? 5 : n < 2048 ? 7 : n < 8192 ? 9 : 11;
    size_t nb = ((size_t)1 << c) - 1;
    cuzk_g1_affine_t *aff = cuzk_alloc_array(n, sizeof *aff);
    cuzk_g1_jac_t *buckets = cuzk_alloc_array(nb, sizeof *buckets);
    if (!aff || !buckets) {
        cuzk_free(aff);
        cuzk_free(buckets);
        return false;
    }
    cuzk_g1_batch_to_affine(aff, pts, n);
    cuzk_g1_jac_t acc;
    cuzk_g1_jac_set_infinity(&acc);
    unsigned nwin = (bits + c - 1) / c;
    for (unsigned w = nwin; w-- > 0;) {
        for (unsigned i = 0; i < c; i++)
            cuzk_g1_dbl(&acc, &acc);
        for (size_t b = 0; b < nb; b++)
            cuzk_g1_jac_set_infinity(&buckets[b]);
        for (size_t i = 0; i < n; i++) {
            unsigned d = window_bits(t[i].k, w * c, c);
            if (d)
                cuzk_g1_add_affine(&buckets[d - 1], &buckets[d - 1], &aff[i]);
        }
        /* sum_d d * B_d by running sums from the top bucket down. */
        cuzk_g1_jac_t run, tot;
        cuzk_g1_jac_set_infinity(&run);
        cuzk_g1_jac_set_infinity(&tot);
        for (size_t b = nb; b-- > 0;) {
            cuzk_g1_add(&run, &run, &buckets[b]);
            cuzk_g1_add(&tot, &tot, &run);
        }
        cuzk_g1_add(&acc, &acc, &tot);
    }
    *out = acc;
    cuzk_free(aff);
    cuzk_free(buckets);
    return true;
}

void cuzk_groth16_input_msm(cuzk_g1_jac_t *out, const cuzk_g1_affine_t *ic,
                            const cuzk_fr_t *inputs, size_t n)
{
    cuzk_g1_jac_t acc;
    cuzk_g1_from_affine(&acc, &ic[0]);
    term *t = cuzk_alloc_array(n, sizeof *t);
    cuzk_g1_jac_t *grp = cuzk_alloc_array(n, sizeof *grp);
    if (!t || !grp) {
        /* Out of memory: fall back to one multiplication per input (no allocation). */
        cuzk_free(t);
        cuzk_free(grp);
        for (size_t i = 0; i < n; i++) {
            cuzk_g1_jac_t p;
            cuzk_g1_from_affine(&p, &ic[i + 1]);
            cuzk_g1_mul_vartime(&p, &p, &inputs[i]);
            cuzk_g1_add(&acc, &acc, &p);
        }
        *out = acc;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        cuzk_fr_to_canonical(t[i].k, &inputs[i]);
        t[i].idx = (uint32_t)i;
    }
    qsort(t, n, sizeof *t, cmp_term);
    /* Merge runs of equal scalars; scalar 0 contributes nothing, scalar 1 adds directly. */
    size_t m = 0;
    unsigned bits = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        cuzk_g1_jac_t s;
        cuzk_g1_jac_set_infinity(&s);
        while (j < n && memcmp(t[j].k, t[i].k, sizeof t[i].k) == 0) {
            cuzk_g1_add_affine(&s, &s, &ic[t[j].idx + 1]);
            j++;
        }
        CUZK_VERIFY_CHECK(cuzk_g1_is_on_curve(&s));
        unsigned bl = bit_length(t[i].k);
        if (bl == 1) {
            cuzk_g1_add(&acc, &acc, &s);
        } else if (bl > 1) {
            grp[m] = s;
            t[m] = t[i];
            m++;
            bits = bl > bits ? bl : bits;
        }
        i = j;
    }
    cuzk_g1_jac_t sum;
    if (m < 8 || !bucket_sum(&sum, grp, t, m, bits)) {
        cuzk_g1_jac_set_infinity(&sum);
        for (size_t i = 0; i < m; i++) {
            cuzk_g1_jac_t p;
            cuzk_g1_mul_raw_vartime(&p, &grp[i], t[i].k, (bit_length(t[i].k) + 63) / 64);
            cuzk_g1_add(&sum, &sum, &p);
        }
    }
    CUZK_VERIFY_CHECK(cuzk_g1_is_on_curve(&sum));
    cuzk_g1_add(&acc, &acc, &sum);
    *out = acc;
    cuzk_free(t);
    cuzk_free(grp);
}

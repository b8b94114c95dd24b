/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Evaluation domains: roots of unity of both families (formats.md section 1), coset constants
 * and the O(sqrt n) twiddle tables of the four-step NTT (poly_internal.h). */
#include "poly/poly_internal.h"
#include "cuzk/alloc.h"

#include <stdint.h>
#include <string.h>

/* Default split above POLY_DIRECT_LOG (from POLY_X8_SPLIT_LOG with IFMA): 2^l_out rows with
 * l_out = min(l / 2, 12), and column groups of 16 columns (16 * 32 B = 512 B contiguous per row;
 * the group's copy is at most 2^12 * 16 * 32 B = 2 MiB). Measured at 2^24 (docs/PERFORMANCE.md,
 * "NTT (issue 3)"): 16 columns beat 2, 4, 8 and 32 by 10-25%, while the row/column balance
 * mattered little; with the IFMA passes at 2^16, 2^6..2^10 rows and 8..32 columns are within
 * noise of each other. */
#define POLY_ROWS_MAX_LOG 12
#define POLY_COLS 16

/* A primitive 2^32-th root of unity of the family: 7^t (blstrs ROOT_OF_UNITY) or 5^t
 * (ffjavascript), with r - 1 = 2^32 * t. */
static void root_2_32(cuzk_fr_t *out, cuzk_roots roots)
{
    if (roots == CUZK_ROOTS_BELLPERSON) {
        cuzk_fr_root_of_unity(out);
        return;
    }
    /* r is odd, so r - 1 only clears bit 0 and t = (r - 1) >> 32 reads straight off r. */
    const uint64_t *r = fri_r;
    uint64_t t[4] = {(r[0] >> 32) | (r[1] << 32), (r[1] >> 32) | (r[2] << 32),
                     (r[2] >> 32) | (r[3] << 32), r[3] >> 32};
    cuzk_fr_t five;
    cuzk_fr_set_u64(&five, 5);
    cuzk_fr_pow(out, &five, t, 4);
}

/* out = a^(2^k). */
static void sqr_n(cuzk_fr_t *out, const cuzk_fr_t *a, unsigned k)
{
    *out = *a;
    for (unsigned i = 0; i < k; i++)
        cuzk_fr_sqr(out, out);
}

/* out[i] = base^i for i < n. */
static void powers(cuzk_fr_t *out, const cuzk_fr_t *base, size_t n)
{
    if (n == 0)
        return;
    cuzk_fr_set_one(&out[0]);
    for (size_t i = 1; i < n; i++)
        fri_mul(&out[i], &out[i - 1], base);
}

/* out[bitrev_bits(i)] = base^i for i < 2^bits. */
static void powers_bitrev(cuzk_fr_t *out, const cuzk_fr_t *base, unsigned bits)
{
    size_t n = (size_t)1 << bits;
    cuzk_fr_t p;
    cuzk_fr_set_one(&p);
    for (size_t i = 0; i < n; i++) {
        out[poly_bitrev(i, bits)] = p;
        fri_mul(&p, &p, base);
    }
}

/* tw[h + j] = w_2h^j for every power of two h < 2^l_tw, where w_2h = root^(2^l_tw / 2h) and
 * |root| has order 2^l_tw. The top level is a run of powers; each lower level takes every
 * other entry of the one above (w_2h^j = w_4h^2j). tw[0] = 1 is unused. */
static void twiddles(cuzk_fr_t *tw, const cuzk_fr_t *root, unsigned l_tw)
{
    cuzk_fr_set_one(&tw[0]);
    if (l_tw == 0)
        return;
    size_t top = (size_t)1 << (l_tw - 1);
    powers(tw + top, root, top);
    for (size_t h = top >> 1; h >= 1; h >>= 1)
        for (size_t j = 0; j < h; j++)
            tw[h + j] = tw[2 * h + 2 * j];
}

cuzk_status cuzk__domain_create_split(cuzk_domain **out, unsigned log_n, cuzk_roots roots,
                                      unsigned l_out, size_t cols)
{
    if (!out)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "domain: NULL output");
    *out = NULL;
    if (roots != CUZK_ROOTS_BELLPERSON && roots != CUZK_ROOTS_SNARKJS)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "domain: unknown root family %d", (int)roots);
    if (log_n > CUZK_DOMAIN_MAX_LOG)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "domain: 2^%u is above the maximum 2^%u", log_n,
                         CUZK_DOMAIN_MAX_LOG);
    if (l_out >= log_n && l_out != 0)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "domain: split 2^%u rows of 2^%u is not valid",
                         l_out, log_n - l_out);
    unsigned l_in = log_n - l_out;
    if (cols == 0 || (cols & (cols - 1)) != 0 || cols > ((size_t)1 << l_in) ||
        (l_out == 0 && cols != 1))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "domain: %zu columns per group is not valid", cols);

    size_t n = (size_t)1 << log_n, n1 = (size_t)1 << l_out, b = (size_t)1 << l_in;
    unsigned l_tw = l_in > l_out ? l_in : l_out;
    size_t ntw = (size_t)1 << l_tw;
    size_t count = 2 * ntw + 3 * n1 + b;
    /* The radix-2^52 copies of tw and col_s: 5 words per element, 4 per cuzk_fr_t. */
    size_t count52 = CUZK_FR_HAVE_IFMA ? (5 * (2 * ntw + b) + 3) / 4 : 0;
    count += count52;
    cuzk_domain *d = cuzk_alloc(sizeof *d);
    if (!d)
        return cuzk_fail(CUZK_ERR_NOMEM, "domain: cannot allocate the domain");
    memset(d, 0, sizeof *d);
    d->mem = cuzk_alloc_array(count, sizeof(cuzk_fr_t));
    if (!d->mem) {
        cuzk_free(d);
        return cuzk_fail(CUZK_ERR_NOMEM, "domain: cannot allocate %zu twiddles", count);
    }
    d->log_n = log_n;
    d->n = n;
    d->roots = roots;
    d->l_in = l_in;
    d->l_out = l_out;
    d->l_tw = l_tw;
    d->cols = cols;
    cuzk_fr_t *p = d->mem;
    d->tw[POLY_FWD] = p, p += ntw;
    d->tw[POLY_INV] = p, p += ntw;
    d->diag[POLY_FWD] = p, p += n1;
    d->diag[POLY_INV] = p, p += n1;
    d->row_s = p, p += n1;
    d->col_s = p, p += b;
    if (count52) {
        uint64_t *q = (uint64_t *)(void *)p;
        d->tw52[POLY_FWD] = q, q += 5 * ntw;
        d->tw52[POLY_INV] = q, q += 5 * ntw;
        d->col_s52 = q;
    }

    /* omega_n = root^(2^(32 - log_n)); snarkjs's coset shift is omega_2n (formats.md 4.6). */
    cuzk_fr_t root, t;
    root_2_32(&root, roots);
    sqr_n(&d->omega, &root, 32 - log_n);
    cuzk_fr_inv_vartime(&d->omega_inv, &d->omega);
    cuzk_fr_set_u64(&t, n);
    cuzk_fr_inv_vartime(&d->n_inv, &t);
    sqr_n(&d->s, &root, 31 - log_n);
    cuzk_fr_inv_vartime(&d->s_inv, &d->s);
    if (roots == CUZK_ROOTS_BELLPERSON)
        cuzk_fr_set_u64(&d->g, 7);
    else
        d->g = d->s;
    cuzk_fr_inv_vartime(&d->g_inv, &d->g);
    cuzk_fr_t one;
    cuzk_fr_set_one(&one);
    sqr_n(&t, &d->g, log_n);
    cuzk_fr_sub(&d->z, &t, &one);
    cuzk_fr_inv_vartime(&d->z_inv, &d->z);

    /* Twiddles: roots of order 2^l_tw, i.e. omega^(n / 2^l_tw). */
    sqr_n(&t, &d->omega, log_n - l_tw);
    twiddles(d->tw[POLY_FWD], &t, l_tw);
    sqr_n(&t, &d->omega_inv, log_n - l_tw);
    twiddles(d->tw[POLY_INV], &t, l_tw);
    powers_bitrev(d->diag[POLY_FWD], &d->omega, l_out);
    powers_bitrev(d->diag[POLY_INV], &d->omega_inv, l_out);
    powers_bitrev(d->row_s, &d->s, l_out);
    sqr_n(&t, &d->s, l_out);
    powers_bitrev(d->col_s, &t, l_in);
#if CUZK_FR_HAVE_IFMA
    for (size_t i = 0; i < ntw; i++)
        for (int dir = 0; dir < 2; dir++) {
            poly_x16(&t, &d->tw[dir][i]);
            fr52_from_fr(d->tw52[dir] + 5 * i, &t);
        }
    for (size_t i = 0; i < b; i++) {
        poly_x16(&t, &d->col_s[i]);
        fr52_from_fr(d->col_s52 + 5 * i, &t);
    }
#endif
    *out = d;
    return CUZK_OK;
}

cuzk_status cuzk_domain_create(cuzk_domain **out, size_t min_size, cuzk_roots roots)
{
    if (!out)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "domain: NULL output");
    *out = NULL;
    unsigned l = 0;
    while (l <= CUZK_DOMAIN_MAX_LOG && ((size_t)1 << l) < min_size)
        l++;
    if (l > CUZK_DOMAIN_MAX_LOG)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "domain: %zu elements is above the maximum 2^%u",
                         min_size, CUZK_DOMAIN_MAX_LOG);
    unsigned l_out = 0;
    size_t cols = 1;
    /* With the 8-lane IFMA passes the four-step split pays from 2^7 (8 rows of 16 columns):
     * the direct path is scalar, the split runs both passes 8 lanes wide (H step at 2^12: 3.6 ->
     * 1.3 ms, at 2^7: 0.07 -> 0.03 ms). */
    unsigned direct_log = CUZK_FR_HAVE_IFMA ? POLY_X8_SPLIT_LOG - 1 : POLY_DIRECT_LOG;
    if (l > direct_log) {
        l_out = l / 2 < POLY_ROWS_MAX_LOG ? l / 2 : POLY_ROWS_MAX_LOG;
        cols = POLY_COLS; /* l_in >= l - l / 2 >= 4: a row holds at least 16 columns */
    }
    return cuzk__domain_create_split(out, l, roots, l_out, cols);
}

void cuzk_domain_destroy(cuzk_domain *d)
{
    if (!d)
        return;
    cuzk_free(d->mem);
    cuzk_free(d);
}

size_t cuzk_domain_size(const cuzk_domain *d)
{
    return d->n;
}

unsigned cuzk_domain_log_size(const cuzk_domain *d)
{
    return d->log_n;
}

void cuzk_domain_omega(const cuzk_domain *d, cuzk_fr_t *out)
{
    *out = d->omega;
}

void cuzk_domain_coset_gen(const cuzk_domain *d, cuzk_fr_t *out)
{
    *out = d->g;
}

void cuzk_domain_coset_z(const cuzk_domain *d, cuzk_fr_t *out)
{
    *out = d->z;
}

void cuzk_domain_omega_2n(const cuzk_domain *d, cuzk_fr_t *out)
{
    *out = d->s;
}

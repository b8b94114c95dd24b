/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Test setup from random toxic waste (bellperson generate_random_parameters). For the domain
 * <omega> of size n: the Lagrange basis at tau is L_j(tau) = Z(tau) omega^j / (n (tau - omega^j))
 * with Z(tau) = tau^n - 1; each column's a_i(tau) = sum_rows A[row][i] L_row(tau) (same for
 * b, c). Then IC_i = (beta a_i + alpha b_i + c_i)/gamma (inputs), L_j = (...)/delta (aux),
 * H_i = tau^i Z(tau)/delta (i < n - 1), and the A/B queries hold a_i(tau), b_i(tau) for the
 * columns present in A resp. B (formats.md 3.1).
 */
#include "cuzk/groth16.h"
#include "cuzk/alloc.h"
#include "cuzk/poly.h"
#include "groth16/fixed_base.h"

#include <string.h>
#include <sys/random.h>

static cuzk_status random_fr(cuzk_fr_t *out)
{
    uint64_t l[4];
    do {
        if (getrandom(l, sizeof l, 0) != sizeof l)
            return cuzk_fail(CUZK_ERR_INTERNAL, "setup: getrandom failed");
        l[3] &= 0x7fffffffffffffffULL;
    } while (!cuzk_fr_from_canonical(out, l) || cuzk_fr_is_zero(out));
    cuzk_memclear(l, sizeof l);
    return CUZK_OK;
}

/* at[col] += coeff * lag[row] over the CSR matrix |m|. */
static void eval_columns(cuzk_fr_t *at, const cuzk_csr *m, size_t n_rows, const cuzk_fr_t *lag)
{
    for (size_t r = 0; r < n_rows; r++) {
        for (uint64_t e = m->row_ptr[r]; e < m->row_ptr[r + 1]; e++) {
            cuzk_fr_t t;
            cuzk_fr_mul(&t, &m->coeff[e], &lag[r]);
            cuzk_fr_add(&at[m->col[e]], &at[m->col[e]], &t);
        }
    }
}

/* Marks the columns present in |m|. */
static void mark_columns(uint8_t *used, const cuzk_csr *m)
{
    for (uint64_t e = 0; e < m->nnz; e++)
        used[m->col[e]] = 1;
}

typedef struct {
    cuzk_fr_t alpha, beta, gamma, delta, tau;
} toxic;

cuzk_status cuzk_groth16_setup(cuzk_groth16_params **out, const cuzk_r1cs_matrices *m,
                               cuzk_pool *pool)
{
    *out = NULL;
    size_t ncols = m->n_inputs + m->n_aux;
    if (m->n_inputs == 0 || m->n_rows < m->n_inputs)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "setup: matrices are not finalised");
    cuzk_domain *d;
    cuzk_status s = cuzk_domain_create(&d, m->n_rows, CUZK_ROOTS_BELLPERSON);
    if (s != CUZK_OK)
        return s;
    size_t n = cuzk_domain_size(d);
    cuzk_fr_t omega;
    cuzk_domain_omega(d, &omega);
    cuzk_domain_destroy(d);

    toxic tw;
    cuzk_fr_t zt, one, t;
    cuzk_groth16_params *p = NULL;
    cuzk_fr_t *lag = cuzk_alloc_array(n, sizeof *lag);
    cuzk_fr_t *den = cuzk_alloc_array(n, sizeof *den);
    cuzk_fr_t *at = cuzk_calloc_array(ncols, sizeof *at);
    cuzk_fr_t *bt = cuzk_calloc_array(ncols, sizeof *bt);
    cuzk_fr_t *ct = cuzk_calloc_array(ncols, sizeof *ct);
    uint8_t *in_a = cuzk_calloc_array(ncols, 1), *in_b = cuzk_calloc_array(ncols, 1);
    cuzk_fr_t *k = cuzk_alloc_array(n > ncols ? n : ncols, sizeof *k);
    if (!lag || !den || !at || !bt || !ct || !in_a || !in_b || !k) {
        s = cuzk_fail(CUZK_ERR_NOMEM, "setup: out of memory for %zu columns, domain %zu", ncols, n);
        goto done;
    }
    if ((s = random_fr(&tw.alpha)) || (s = random_fr(&tw.beta)) || (s = random_fr(&tw.gamma)) ||
        (s = random_fr(&tw.delta)))
        goto done;
    /* tau must avoid the domain (then Z(tau) != 0 and every tau - omega^j is invertible). */
    cuzk_fr_set_one(&one);
    uint64_t ne[1] = {n};
    do {
        if ((s = random_fr(&tw.tau)) != CUZK_OK)
            goto done;
        cuzk_fr_pow(&zt, &tw.tau, ne, 1);
        cuzk_fr_sub(&zt, &zt, &one);
    } while (cuzk_fr_is_zero(&zt));

    /* Lagrange basis at tau. */
    cuzk_fr_t w, ninv, scale;
    cuzk_fr_set_u64(&ninv, n);
    cuzk_fr_inv(&ninv, &ninv);
    cuzk_fr_mul(&scale, &zt, &ninv);
    cuzk_fr_set_one(&w);
    for (size_t j = 0; j < n; j++) {
        lag[j] = w; /* omega^j for now */
        cuzk_fr_sub(&den[j], &tw.tau, &w);
        cuzk_fr_mul(&w, &w, &omega);
    }
    cuzk_fr_batch_inv(k, den, n);
    for (size_t j = 0; j < n; j++) {
        cuzk_fr_mul(&lag[j], &lag[j], &k[j]);
        cuzk_fr_mul(&lag[j], &lag[j], &scale);
    }
    eval_columns(at, &m->a, m->n_rows, lag);
    eval_columns(bt, &m->b, m->n_rows, lag);
    eval_columns(ct, &m->c, m->n_rows, lag);
    mark_columns(in_a, &m->a);
    mark_columns(in_b, &m->b);

    p = cuzk_alloc(sizeof *p);
    if (!p) {
        s = cuzk_fail(CUZK_ERR_NOMEM, "setup: out of memory");
        goto done;
    }
    memset(p, 0, sizeof *p);
    size_t na = 0, nb = 0;
    for (size_t i = 0; i < ncols; i++) {
        na += in_a[i];
        nb += in_b[i];
    }
    p->n_h = n - 1;
    p->n_l = m->n_aux;
    p->n_a = na;
    p->n_b_g1 = nb;
    p->n_b_g2 = nb;
    p->h = cuzk_alloc_array(n, sizeof *p->h);
    p->l = cuzk_alloc_array(m->n_aux + 1, sizeof *p->l);
    p->a = cuzk_alloc_array(na + 1, sizeof *p->a);
    p->b_g1 = cuzk_alloc_array(nb + 1, sizeof *p->b_g1);
    p->b_g2 = cuzk_alloc_array(nb + 1, sizeof *p->b_g2);
    cuzk_g1_affine_t *ic = cuzk_alloc_array(m->n_inputs, sizeof *ic);
    cuzk_g1_affine_t *hdr1 = cuzk_alloc_array(3, sizeof *hdr1);
    cuzk_g2_affine_t *hdr2 = cuzk_alloc_array(3, sizeof *hdr2);
    if (!p->h || !p->l || !p->a || !p->b_g1 || !p->b_g2 || !ic || !hdr1 || !hdr2) {
        cuzk_free(ic);
        cuzk_free(hdr1);
        cuzk_free(hdr2);
        s = cuzk_fail(CUZK_ERR_NOMEM, "setup: out of memory for the queries");
        goto done;
    }
    /* IC and L: (beta a + alpha b + c) / gamma resp. / delta. */
    cuzk_fr_t ginv, dinv;
    cuzk_fr_inv(&ginv, &tw.gamma);
    cuzk_fr_inv(&dinv, &tw.delta);
    for (size_t i = 0; i < ncols; i++) {
        cuzk_fr_mul(&k[i], &tw.beta, &at[i]);
        cuzk_fr_mul(&t, &tw.alpha, &bt[i]);
        cuzk_fr_add(&k[i], &k[i], &t);
        cuzk_fr_add(&k[i], &k[i], &ct[i]);
        cuzk_fr_mul(&k[i], &k[i], i < m->n_inputs ? &ginv : &dinv);
    }
    if ((s = cuzk_fixed_base_g1(ic, k, m->n_inputs, pool)) != CUZK_OK ||
        (s = cuzk_fixed_base_g1(p->l, k + m->n_inputs, m->n_aux, pool)) != CUZK_OK) {
        cuzk_free(ic);
        cuzk_free(hdr1);
        cuzk_free(hdr2);
        goto done;
    }
    /* H: tau^i Z(tau) / delta. */
    cuzk_fr_mul(&t, &zt, &dinv);
    for (size_t i = 0; i + 1 < n; i++) {
        k[i] = t;
        cuzk_fr_mul(&t, &t, &tw.tau);
    }
    s = cuzk_fixed_base_g1(p->h, k, n - 1, pool);
    /* A and B queries over the present columns, inputs first (column order). */
    size_t ia = 0, ib = 0;
    for (size_t i = 0; i < ncols; i++) {
        if (in_a[i])
            k[ia++] = at[i];
    }
    for (size_t i = 0; i < ncols && s == CUZK_OK; i++) {
        if (in_a[i] && cuzk_fr_is_zero(&at[i]))
            s = cuzk_fail(CUZK_ERR_INTERNAL, "setup: a_%zu(tau) = 0 by chance; run it again", i);
        if (in_b[i] && cuzk_fr_is_zero(&bt[i]))
            s = cuzk_fail(CUZK_ERR_INTERNAL, "setup: b_%zu(tau) = 0 by chance; run it again", i);
    }
    if (s == CUZK_OK)
        s = cuzk_fixed_base_g1(p->a, k, na, pool);
    for (size_t i = 0; i < ncols; i++) {
        if (in_b[i])
            k[ib++] = bt[i];
    }
    if (s == CUZK_OK)
        s = cuzk_fixed_base_g1(p->b_g1, k, nb, pool);
    if (s == CUZK_OK)
        s = cuzk_fixed_base_g2(p->b_g2, k, nb, pool);
    /* The verifying key, through its serialised form so that it is prepared and checked the
     * same way as a key read from disk. */
    cuzk_fr_t hk1[3] = {tw.alpha, tw.beta, tw.delta}, hk2[3] = {tw.beta, tw.gamma, tw.delta};
    if (s == CUZK_OK)
        s = cuzk_fixed_base_g1(hdr1, hk1, 3, pool);
    if (s == CUZK_OK)
        s = cuzk_fixed_base_g2(hdr2, hk2, 3, pool);
    cuzk_memclear(hk1, sizeof hk1);
    cuzk_memclear(hk2, sizeof hk2);
    if (s == CUZK_OK) {
        size_t len = 868 + 96 * m->n_inputs;
        uint8_t *img = cuzk_alloc(len);
        if (!img) {
            s = cuzk_fail(CUZK_ERR_NOMEM, "setup: out of memory");
        } else {
            cuzk_g1_serialize(img, &hdr1[0]);
            cuzk_g1_serialize(img + 96, &hdr1[1]);
            cuzk_g2_serialize(img + 192, &hdr2[0]);
            cuzk_g2_serialize(img + 384, &hdr2[1]);
            cuzk_g1_serialize(img + 576, &hdr1[2]);
            cuzk_g2_serialize(img + 672, &hdr2[2]);
            img[864] = (uint8_t)(m->n_inputs >> 24);
            img[865] = (uint8_t)(m->n_inputs >> 16);
            img[866] = (uint8_t)(m->n_inputs >> 8);
            img[867] = (uint8_t)m->n_inputs;
            for (size_t i = 0; i < m->n_inputs; i++)
                cuzk_g1_serialize(img + 868 + 96 * i, &ic[i]);
            s = cuzk_groth16_vk_parse(&p->vk, img, len);
            cuzk_free(img);
        }
    }
    cuzk_free(ic);
    cuzk_free(hdr1);
    cuzk_free(hdr2);
done:
    cuzk_memclear(&tw, sizeof tw);
    cuzk_memclear(&zt, sizeof zt);
    cuzk_memclear(&t, sizeof t);
    /* Everything below is derived from the toxic waste: wipe before release. */
    if (lag)
        cuzk_memclear(lag, n * sizeof *lag);
    if (den)
        cuzk_memclear(den, n * sizeof *den);
    if (k)
        cuzk_memclear(k, (n > ncols ? n : ncols) * sizeof *k);
    if (at)
        cuzk_memclear(at, ncols * sizeof *at);
    if (bt)
        cuzk_memclear(bt, ncols * sizeof *bt);
    if (ct)
        cuzk_memclear(ct, ncols * sizeof *ct);
    cuzk_free(lag);
    cuzk_free(den);
    cuzk_free(at);
    cuzk_free(bt);
    cuzk_free(ct);
    cuzk_free(in_a);
    cuzk_free(in_b);
    cuzk_free(k);
    if (s != CUZK_OK) {
        cuzk_groth16_params_free(p);
        return s;
    }
    *out = p;
    return CUZK_OK;
}

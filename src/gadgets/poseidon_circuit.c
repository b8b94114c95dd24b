/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * neptune's legacy Poseidon circuit (src/circuit.rs, circuit::poseidon_hash), rewritten in C.
 *
 * neptune keeps each state lane either as an allocated variable or as a linear combination
 * (Elt::Num) and only allocates a lane (1 constraint: lc * 1 = v) when it enters an S-box. Every
 * such combination lies in the span of a small basis: ONE, the t S-box outputs of the last full
 * round and the S-box outputs of the partial rounds so far. Its coefficients over that basis
 * depend only on the constants, so they are computed once per constants object (a "template":
 * one coefficient row per lane allocation, in synthesis order) and synthesis merely maps basis
 * slots to the variables just allocated. Terms arrive merged (one per variable), as bellpepper's
 * LinearCombination stores them. Lane values are tracked natively along the optimised
 * permutation.
 *
 * Per S-box (x an allocated lane, pk/rk the round keys of the optimised representation):
 *   first round (pre- and post-key):  (x + pk)^2 = x2,  x2 * x2 = x4,  (x + pk) * x4 = x5 - rk
 *   other rounds (post-key only):      x * x = x2,       x2 * x2 = x4,  x * x4 = x5 - rk
 *   terminal round:                    x * x = x2,       x2 * x2 = x4,  x * x4 = x5
 * The S-box of the domain tag in the first round is a constant and emits nothing.
 */
#include "gadgets/poseidon_circuit.h"
#include "common/verify.h"
#include "cuzk/alloc.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

/* Basis slots: 0 = ONE, 1 .. t = S-box outputs of the last full round (lane order), then the
 * partial-round S-box outputs in order. */
typedef struct {
    const cuzk_poseidon_constants *c;
    size_t n_rows;
    size_t *nb;  /* basis size of each row */
    size_t *off; /* start of each row in |coef| */
    cuzk_fr_t *coef;
} pc_template;

size_t cuzk_poseidon_circuit_num_constraints(const cuzk_poseidon_constants *c)
{
    size_t sboxes = c->width * c->full_rounds + c->partial_rounds;
    return 3 * (sboxes - 1) + (sboxes - c->arity);
}

static void fr_pow5(cuzk_fr_t *out, const cuzk_fr_t *x)
{
    cuzk_fr_t x2, x4;
    cuzk_fr_sqr(&x2, x);
    cuzk_fr_sqr(&x4, &x2);
    cuzk_fr_mul(out, &x4, x);
}

/* The folded S-box of the domain tag in the first round: (tag + k0)^5 + k_t. */
static void tag_sbox(cuzk_fr_t *out, const cuzk_poseidon_constants *c)
{
    const cuzk_fr_t *crc = c->compressed_round_constants;
    cuzk_fr_add(out, &c->domain_tag, &crc[0]);
    fr_pow5(out, out);
    cuzk_fr_add(out, out, &crc[c->width]);
}

/* ---- template -------------------------------------------------------------------------------- */

typedef struct {
    pc_template *tpl;
    size_t t, stride, nb, row;
    cuzk_fr_t *lanes; /* t rows of |stride| coefficients */
} tb_t;

#define LANE(b, i) (&(b)->lanes[(i) * (b)->stride])

static void tb_record(tb_t *b, size_t lane)
{
    pc_template *tpl = b->tpl;
    size_t r = b->row++;
    size_t off = r ? tpl->off[r - 1] + tpl->nb[r - 1] : 0;
    tpl->nb[r] = b->nb;
    tpl->off[r] = off;
    memcpy(&tpl->coef[off], LANE(b, lane), b->nb * sizeof(cuzk_fr_t));
}

/* Lanes after a full round mixed by |mat| (row vector x matrix); |const0| = the constant lane 0
 * of the first round, whose contribution lands on ONE. */
static void tb_mix_full(tb_t *b, const cuzk_fr_t *mat, const cuzk_fr_t *const0)
{
    size_t t = b->t;
    b->nb = 1 + t;
    for (size_t j = 0; j < t; j++) {
        cuzk_fr_t *row = LANE(b, j);
        cuzk_fr_set_zero(&row[0]);
        for (size_t i = 0; i < t; i++)
            row[1 + i] = mat[i * t + j];
        if (const0) {
            cuzk_fr_mul(&row[0], const0, &mat[j]);
            cuzk_fr_set_zero(&row[1]);
        }
    }
}

static void tb_full_round(tb_t *b, const cuzk_fr_t *mat)
{
    for (size_t i = 0; i < b->t; i++)
        tb_record(b, i);
    tb_mix_full(b, mat, NULL);
}

/* Partial round k: lane 0 is allocated (recorded), its S-box output y takes a new slot; then
 * lane 0 = w_hat[0] y + sum_{i>0} w_hat[i] lane_i, lane j += v_rest[j - 1] y. */
static void tb_partial_round(tb_t *b, const cuzk_poseidon_constants *c, size_t k)
{
    size_t t = b->t;
    const cuzk_fr_t *w = &c->sparse_w_hat[k * t];
    const cuzk_fr_t *v = &c->sparse_v_rest[k * (t - 1)];
    tb_record(b, 0);
    size_t y = b->nb++;
    cuzk_fr_t *row0 = LANE(b, 0), tmp;
    for (size_t s = 0; s < y; s++) {
        cuzk_fr_set_zero(&row0[s]);
        for (size_t i = 1; i < t; i++) {
            cuzk_fr_mul(&tmp, &LANE(b, i)[s], &w[i]);
            cuzk_fr_add(&row0[s], &row0[s], &tmp);
        }
    }
    row0[y] = w[0];
    for (size_t j = 1; j < t; j++)
        LANE(b, j)[y] = v[j - 1];
}

static void template_free(pc_template *tpl)
{
    if (!tpl)
        return;
    cuzk_free(tpl->nb);
    cuzk_free(tpl->coef);
    cuzk_free(tpl);
}

static pc_template *template_build(const cuzk_poseidon_constants *c)
{
    size_t t = c->width, half = c->half_full_rounds, rp = c->partial_rounds;
    size_t stride = 1 + t + rp;
    /* Lane allocations: t per full round after the first, 1 per partial round, the digest. */
    size_t n_rows = t * (c->full_rounds - 1) + rp + 1;
    tb_t b = {0};
    pc_template *tpl = cuzk_alloc(sizeof *tpl);
    if (tpl)
        memset(tpl, 0, sizeof *tpl);
    b.lanes = cuzk_alloc_array(t * stride, sizeof(cuzk_fr_t));
    if (tpl) {
        tpl->nb = cuzk_alloc_array(2 * n_rows, sizeof(size_t));
        tpl->coef = cuzk_alloc_array(n_rows * stride, sizeof(cuzk_fr_t));
    }
    if (!tpl || !b.lanes || !tpl->nb || !tpl->coef) {
        cuzk_free(b.lanes);
        template_free(tpl);
        return NULL;
    }
    tpl->c = c;
    tpl->n_rows = n_rows;
    tpl->off = tpl->nb + n_rows;
    b.tpl = tpl;
    b.t = t;
    b.stride = stride;

    cuzk_fr_t c0;
    tag_sbox(&c0, c);
    tb_mix_full(&b, half == 1 ? c->pre_sparse : c->mds, &c0);
    for (size_t r = 1; r < half; r++)
        tb_full_round(&b, r == half - 1 ? c->pre_sparse : c->mds);
    for (size_t k = 0; k < rp; k++)
        tb_partial_round(&b, c, k);
    for (size_t r = 0; r < half; r++)
        tb_full_round(&b, c->mds);
    tb_record(&b, 1);
    CUZK_VERIFY_CHECK(b.row == n_rows);
    cuzk_free(b.lanes);
    return tpl;
}

/* One shared template per shared constants object (keyed by arity and hash type, the key of
 * cuzk_poseidon_constants_get); built on first use, kept for the life of the process. */
static _Atomic(pc_template *) templates[CUZK_POSEIDON_MAX_ARITY + 1][2];
static pthread_mutex_t templates_lock = PTHREAD_MUTEX_INITIALIZER;

static const pc_template *template_get(const cuzk_poseidon_constants *c, pc_template **owned)
{
    *owned = NULL;
    size_t ht = (size_t)c->hash_type;
    if (c->arity > CUZK_POSEIDON_MAX_ARITY || ht > 1 ||
        c != cuzk_poseidon_constants_get(c->arity, c->hash_type)) {
        /* Not a shared object: a private template for this call. */
        *owned = template_build(c);
        return *owned;
    }
    _Atomic(pc_template *) *slot = &templates[c->arity][ht];
    pc_template *tpl = atomic_load_explicit(slot, memory_order_acquire);
    if (tpl)
        return tpl;
    pthread_mutex_lock(&templates_lock);
    tpl = atomic_load_explicit(slot, memory_order_relaxed);
    if (!tpl) {
        tpl = template_build(c);
        if (tpl)
            atomic_store_explicit(slot, tpl, memory_order_release);
    }
    pthread_mutex_unlock(&templates_lock);
    return tpl;
}

/* ---- synthesis ------------------------------------------------------------------------------- */

typedef struct {
    cuzk_cs *cs;
    const cuzk_poseidon_constants *c;
    const pc_template *tpl; /* NULL in WITNESS mode */
    size_t t;
    size_t row; /* next template row */
    size_t nb;  /* basis size in use */
    cuzk_var basis[1 + CUZK_POSEIDON_MAX_WIDTH + 64];
    cuzk_fr_t val[CUZK_POSEIDON_MAX_WIDTH];
    cuzk_num out[CUZK_POSEIDON_MAX_WIDTH]; /* S-box outputs of the current full round */
} pc_t;

/* Elt::ensure_allocated with enforce: v = lane value; (lane lc) * 1 = v. */
static cuzk_status alloc_lane(pc_t *s, size_t lane, cuzk_num *out)
{
    cuzk_lc *a, *b, *c;
    out->value = s->val[lane];
    CUZK_TRY(cuzk_cs_alloc_aux(s->cs, &out->var, &out->value));
    cuzk_cs_lcs(s->cs, &a, &b, &c);
    if (s->tpl) {
        size_t r = s->row++;
        CUZK_VERIFY_CHECK(r < s->tpl->n_rows && s->tpl->nb[r] == s->nb);
        const cuzk_fr_t *row = &s->tpl->coef[s->tpl->off[r]];
        for (size_t k = 0; k < s->nb; k++)
            if (!cuzk_fr_is_zero(&row[k]))
                cuzk_lc_add(a, s->basis[k], &row[k]);
        cuzk_lc_add_one(b);
        cuzk_lc_add_var(c, out->var);
    }
    return cuzk_cs_enforce(s->cs, a, b, c);
}

/* lc += x (+ pre * ONE). */
static void lc_add_shifted(cuzk_lc *lc, const cuzk_num *x, const cuzk_fr_t *pre)
{
    cuzk_lc_add_var(lc, x->var);
    if (pre)
        cuzk_lc_add_const(lc, pre);
}

/*
 * One S-box on the allocated |x| (neptune quintic_s_box / quintic_s_box_pre_add / square_sum /
 * mul_sum): out = (x + pre)^5 + post, three constraints. |pre| and |post| may be NULL.
 */
static cuzk_status sbox(pc_t *s, cuzk_num *out, const cuzk_num *x, const cuzk_fr_t *pre,
                        const cuzk_fr_t *post)
{
    cuzk_lc *a, *b, *c;
    cuzk_num x2, x4;
    cuzk_fr_t xs = x->value;
    if (pre)
        cuzk_fr_add(&xs, &xs, pre);

    cuzk_fr_sqr(&x2.value, &xs);
    CUZK_TRY(cuzk_cs_alloc_aux(s->cs, &x2.var, &x2.value));
    cuzk_cs_lcs(s->cs, &a, &b, &c);
    lc_add_shifted(a, x, pre);
    lc_add_shifted(b, x, pre);
    cuzk_lc_add_var(c, x2.var);
    CUZK_TRY(cuzk_cs_enforce(s->cs, a, b, c));

    cuzk_fr_sqr(&x4.value, &x2.value);
    CUZK_TRY(cuzk_cs_alloc_aux(s->cs, &x4.var, &x4.value));
    cuzk_cs_lcs(s->cs, &a, &b, &c);
    cuzk_lc_add_var(a, x2.var);
    cuzk_lc_add_var(b, x2.var);
    cuzk_lc_add_var(c, x4.var);
    CUZK_TRY(cuzk_cs_enforce(s->cs, a, b, c));

    cuzk_fr_mul(&out->value, &x4.value, &xs);
    if (post)
        cuzk_fr_add(&out->value, &out->value, post);
    CUZK_TRY(cuzk_cs_alloc_aux(s->cs, &out->var, &out->value));
    cuzk_cs_lcs(s->cs, &a, &b, &c);
    lc_add_shifted(a, x, pre);
    cuzk_lc_add_var(b, x4.var);
    cuzk_lc_add_var(c, out->var);
    if (post) {
        cuzk_fr_t neg;
        cuzk_fr_neg(&neg, post);
        cuzk_lc_add_const(c, &neg);
    }
    return cuzk_cs_enforce(s->cs, a, b, c);
}

/* After a full round (S-box outputs in s->out, or the constant |const0| in lane 0 of the first
 * round): lane values = outputs x |mat|; the basis becomes ONE and the outputs. */
static void mix_full(pc_t *s, const cuzk_fr_t *mat, const cuzk_fr_t *const0)
{
    size_t t = s->t;
    cuzk_fr_t in[CUZK_POSEIDON_MAX_WIDTH], tmp;
    for (size_t i = 0; i < t; i++)
        in[i] = (i == 0 && const0) ? *const0 : s->out[i].value;
    for (size_t j = 0; j < t; j++) {
        cuzk_fr_set_zero(&s->val[j]);
        for (size_t i = 0; i < t; i++) {
            cuzk_fr_mul(&tmp, &in[i], &mat[i * t + j]);
            cuzk_fr_add(&s->val[j], &s->val[j], &tmp);
        }
    }
    s->nb = 1 + t;
    s->basis[0] = cuzk_var_one();
    for (size_t i = 0; i < t; i++)
        s->basis[1 + i] = (i == 0 && const0) ? cuzk_var_one() : s->out[i].var;
}

/* A full round other than the first: allocate each lane, S-box with |post| keys (NULL in the
 * terminal round), then mix with |mat|. */
static cuzk_status full_round(pc_t *s, const cuzk_fr_t *post, const cuzk_fr_t *mat)
{
    for (size_t i = 0; i < s->t; i++) {
        cuzk_num x;
        CUZK_TRY(alloc_lane(s, i, &x));
        CUZK_TRY(sbox(s, &s->out[i], &x, NULL, post ? &post[i] : NULL));
    }
    mix_full(s, mat, NULL);
    return CUZK_OK;
}

/* Partial round |k|: S-box on lane 0 with one post key, then the sparse matrix of round k:
 * lane 0 = <lanes, w_hat>, lane j = lane j + lane 0 * v_rest[j - 1] (lane 0 = S-box output). */
static cuzk_status partial_round(pc_t *s, size_t k, const cuzk_fr_t *post)
{
    size_t t = s->t;
    const cuzk_fr_t *w = &s->c->sparse_w_hat[k * t];
    const cuzk_fr_t *v = &s->c->sparse_v_rest[k * (t - 1)];
    cuzk_num x, y;
    cuzk_fr_t tmp, lane0;

    CUZK_TRY(alloc_lane(s, 0, &x));
    CUZK_TRY(sbox(s, &y, &x, NULL, post));
    s->basis[s->nb++] = y.var;

    cuzk_fr_mul(&lane0, &y.value, &w[0]);
    for (size_t i = 1; i < t; i++) {
        cuzk_fr_mul(&tmp, &s->val[i], &w[i]);
        cuzk_fr_add(&lane0, &lane0, &tmp);
    }
    for (size_t j = 1; j < t; j++) {
        cuzk_fr_mul(&tmp, &y.value, &v[j - 1]);
        cuzk_fr_add(&s->val[j], &s->val[j], &tmp);
    }
    s->val[0] = lane0;
    return CUZK_OK;
}

static cuzk_status hash_rounds(pc_t *s, cuzk_num *out, const cuzk_num *preimage)
{
    const cuzk_poseidon_constants *c = s->c;
    size_t t = s->t, half = c->half_full_rounds, rp = c->partial_rounds;
    const cuzk_fr_t *crc = c->compressed_round_constants;
    size_t off;

    /* First full round: pre-keys crc[0..t), post-keys crc[t..2t); lane 0 is constant. */
    cuzk_fr_t tag;
    tag_sbox(&tag, c);
    for (size_t i = 1; i < t; i++)
        CUZK_TRY(sbox(s, &s->out[i], &preimage[i - 1], &crc[i], &crc[t + i]));
    mix_full(s, half == 1 ? c->pre_sparse : c->mds, &tag);
    off = 2 * t;

    for (size_t r = 1; r < half; r++) {
        CUZK_TRY(full_round(s, &crc[off], r == half - 1 ? c->pre_sparse : c->mds));
        off += t;
    }
    for (size_t k = 0; k < rp; k++)
        CUZK_TRY(partial_round(s, k, &crc[off++]));
    for (size_t r = 1; r < half; r++) {
        CUZK_TRY(full_round(s, &crc[off], c->mds));
        off += t;
    }
    CUZK_TRY(full_round(s, NULL, c->mds));
    CUZK_VERIFY_CHECK(off == c->compressed_round_constants_len);

    /* "hash result": the digest lane is a combination; allocate it. */
    CUZK_TRY(alloc_lane(s, 1, out));
    CUZK_VERIFY_CHECK(!s->tpl || s->row == s->tpl->n_rows);
    return CUZK_OK;
}

cuzk_status cuzk_poseidon_circuit_hash(cuzk_cs *cs, cuzk_num *out, const cuzk_poseidon_constants *c,
                                       const cuzk_num *preimage)
{
    if (c->width > CUZK_POSEIDON_MAX_WIDTH || c->partial_rounds > 64)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "Poseidon gadget: width %zu / %zu partial rounds",
                         c->width, c->partial_rounds);
    pc_t s;
    pc_template *owned = NULL;
    s.cs = cs;
    s.c = c;
    s.t = c->width;
    s.row = 0;
    s.nb = 0;
    s.tpl = NULL;
    if (cuzk_cs_has_constraints(cs)) {
        s.tpl = template_get(c, &owned);
        if (!s.tpl)
            return cuzk_fail(CUZK_ERR_NOMEM, "Poseidon gadget: cannot allocate its template");
    }
    cuzk_cs_push_ns(cs, "poseidon");
    cuzk_status st = hash_rounds(&s, out, preimage);
    cuzk_cs_pop_ns(cs);
    template_free(owned);
    return st;
}

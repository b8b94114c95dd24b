/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * neptune's legacy Poseidon circuit (src/circuit.rs, circuit::poseidon_hash), rewritten in C.
 *
 * neptune keeps each state lane either as an allocated variable or as a linear combination
 * (Elt::Num) and only allocates a lane (1 constraint: lc * 1 = v) when it enters an S-box. We keep
 * the same constraints but store each lane's linear combination densely over a small basis:
 * ONE, the t S-box outputs of the last full round and the S-box outputs of the partial rounds
 * so far. Every lane combination of the gadget lives in that span, so terms arrive merged (one
 * term per variable), as bellpepper's LinearCombination stores them. Lane values are tracked
 * natively along the optimised permutation. In WITNESS mode the basis is not built at all.
 *
 * Per S-box (x an allocated lane, pk/rk the round keys of the optimised representation):
 *   first round (pre- and post-key):  (x + pk)^2 = x2,  x2 * x2 = x4,  (x + pk) * x4 = x5 - rk
 *   other rounds (post-key only):      x * x = x2,       x2 * x2 = x4,  x * x4 = x5 - rk
 *   terminal round:                    x * x = x2,       x2 * x2 = x4,  x * x4 = x5
 * The S-box of the domain tag in the first round is a constant and emits nothing.
 */
#include "gadgets/poseidon_circuit.h"
#include "cuzk/alloc.h"
#include "common/verify.h"

#include <string.h>

typedef struct {
    cuzk_cs *cs;
    const cuzk_poseidon_constants *c;
    size_t t;
    bool lcs;          /* building linear combinations (not WITNESS mode) */
    size_t stride;     /* basis capacity: 1 + t + R_P */
    size_t nb;         /* basis size in use */
    cuzk_var *basis;   /* basis[0] = ONE */
    cuzk_fr_t *coef;   /* t rows of |stride| coefficients */
    cuzk_fr_t val[CUZK_POSEIDON_MAX_WIDTH];
    /* S-box outputs of the current full round (lane values are in |val| before mixing). */
    cuzk_num out[CUZK_POSEIDON_MAX_WIDTH];
} pc_t;

#define COEF(s, lane) (&(s)->coef[(lane) * (s)->stride])

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

/* Elt::ensure_allocated with enforce: v = lane value; (lane lc) * 1 = v. */
static cuzk_status alloc_lane(pc_t *s, size_t lane, cuzk_num *out)
{
    cuzk_lc *a, *b, *c;
    out->value = s->val[lane];
    CUZK_TRY(cuzk_cs_alloc_aux(s->cs, &out->var, &out->value));
    cuzk_cs_lcs(s->cs, &a, &b, &c);
    if (s->lcs) {
        const cuzk_fr_t *row = COEF(s, lane);
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

/*
 * After a full round: lane i holds the S-box output s->out[i] (or, when |const0| is given,
 * lane 0 holds that constant: the folded tag S-box of the first round). Mix with |mat| as a row
 * vector times matrix; the new basis is ONE and the t outputs.
 */
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
    if (!s->lcs)
        return;
    s->nb = 1 + t;
    s->basis[0] = cuzk_var_one();
    for (size_t i = 0; i < t; i++)
        s->basis[1 + i] = s->out[i].var;
    for (size_t j = 0; j < t; j++) {
        cuzk_fr_t *row = COEF(s, j);
        cuzk_fr_set_zero(&row[0]);
        for (size_t i = 0; i < t; i++)
            row[1 + i] = mat[i * t + j];
        if (const0) {
            /* Lane 0 was the constant: its contribution lands on ONE. */
            cuzk_fr_mul(&row[0], const0, &mat[j]);
            cuzk_fr_set_zero(&row[1]);
        }
    }
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

    if (!s->lcs)
        return CUZK_OK;
    size_t idx = s->nb++;
    s->basis[idx] = y.var;
    cuzk_fr_t *row0 = COEF(s, 0);
    /* New lane 0 over the old basis from the old lanes 1.., plus w_hat[0] on y. */
    for (size_t b = 0; b < idx; b++) {
        cuzk_fr_set_zero(&row0[b]);
        for (size_t i = 1; i < t; i++) {
            const cuzk_fr_t *ci = &COEF(s, i)[b];
            if (cuzk_fr_is_zero(ci))
                continue;
            cuzk_fr_mul(&tmp, ci, &w[i]);
            cuzk_fr_add(&row0[b], &row0[b], &tmp);
        }
    }
    row0[idx] = w[0];
    for (size_t j = 1; j < t; j++)
        COEF(s, j)[idx] = v[j - 1];
    return CUZK_OK;
}

static cuzk_status hash_rounds(pc_t *s, cuzk_num *out, const cuzk_num *preimage)
{
    const cuzk_poseidon_constants *c = s->c;
    size_t t = s->t, half = c->half_full_rounds, rp = c->partial_rounds;
    const cuzk_fr_t *crc = c->compressed_round_constants;
    size_t off;

    /* First full round: pre-keys crc[0..t), post-keys crc[t..2t). */
    cuzk_fr_t tag;
    cuzk_fr_add(&tag, &c->domain_tag, &crc[0]);
    fr_pow5(&tag, &tag);
    cuzk_fr_add(&tag, &tag, &crc[t]);
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
    return alloc_lane(s, 1, out);
}

cuzk_status cuzk_poseidon_circuit_hash(cuzk_cs *cs, cuzk_num *out, const cuzk_poseidon_constants *c,
                                       const cuzk_num *preimage)
{
    pc_t s;
    s.cs = cs;
    s.c = c;
    s.t = c->width;
    s.lcs = cuzk_cs_has_constraints(cs);
    s.stride = 1 + c->width + c->partial_rounds;
    s.nb = 0;
    s.basis = NULL;
    s.coef = NULL;
    void *mem = NULL;
    if (s.lcs) {
        size_t n = s.stride * (s.t + 1);
        mem = cuzk_alloc_array(n, sizeof(cuzk_fr_t));
        if (!mem)
            return cuzk_fail(CUZK_ERR_NOMEM, "Poseidon gadget: cannot allocate %zu lanes", s.t);
        s.coef = mem;
        /* The basis (u32 handles) shares the block after the t coefficient rows. */
        s.basis = (cuzk_var *)(s.coef + s.stride * s.t);
    }
    cuzk_cs_push_ns(cs, "poseidon");
    cuzk_status st = hash_rounds(&s, out, preimage);
    cuzk_cs_pop_ns(cs);
    cuzk_free(mem);
    return st;
}

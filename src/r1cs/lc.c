/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Linear combinations: term storage, the +-1 fast paths and evaluation. Terms are appended
 * unmerged (bellperson merges on insert; merging matters only for densities and matrices, where
 * merge.c does it); zero coefficients are dropped at once. Storage grows geometrically and is
 * kept across cuzk_lc_clear, so steady-state synthesis never touches the heap.
 */
#include "r1cs/cs_internal.h"
#include "r1cs/fr_fast.h"

#include "cuzk/alloc.h"

#include <string.h>

const cuzk_fr_t cuzk__fr_one = {
    {0x00000001fffffffeULL, 0x5884b7fa00034802ULL, 0x998c4fefecbc4ff5ULL, 0x1824b159acc5056fULL}};
/* r - R mod r. */
const cuzk_fr_t cuzk__fr_minus_one = {
    {0xfffffffd00000003ULL, 0xfb38ec08fffb13fcULL, 0x99ad88181ce5880fULL, 0x5bc8f5f97cd877d8ULL}};

static void lc_oom(cuzk_lc *lc)
{
    (void)cuzk__cs_fail(lc->cs, CUZK_ERR_NOMEM);
}

static inline const cuzk_fr_t *var_value(const cuzk_fr_t *input, const cuzk_fr_t *aux, uint32_t id)
{
    return (id & CUZK_VAR_AUX_BIT) ? &aux[id & CUZK_VAR_MAX_INDEX] : &input[id];
}

/* The value of |id| in a forked system (|fv|), or in a plain one (|fv| NULL: |input|, |aux|).
 * Inlined with a constant |fv|, so the plain path compiles to var_value alone. */
static inline __attribute__((always_inline)) const cuzk_fr_t *
any_value(const cs_vals *fv, const cuzk_fr_t *input, const cuzk_fr_t *aux, uint32_t id)
{
    if (!fv)
        return var_value(input, aux, id);
    size_t i = id & CUZK_VAR_MAX_INDEX;
    if (id & CUZK_VAR_AUX_BIT)
        return i < fv->aux_base ? &fv->aux_fork[i] : &fv->aux_own[i - fv->aux_base];
    return i < fv->in_base ? &fv->in_fork[i] : &fv->in_own[i - fv->in_base];
}

/* True when |id| has a bitmap here (inputs only with |in_bits|) and is not yet marked. */
static inline bool is_unmarked(uint32_t id, const bitvec *in_bits, const bitvec *aux_bits)
{
    const bitvec *b = (id & CUZK_VAR_AUX_BIT) ? aux_bits : in_bits;
    return b && !cuzk__bit_get(b, id & CUZK_VAR_MAX_INDEX);
}

#if CUZK_LC_LAYOUT <= 1
/* ---- AoS ------------------------------------------------------------------------------------ */

void cuzk__lc_init(cuzk_lc *lc, cuzk_cs *cs, bool off)
{
    memset(lc, 0, sizeof *lc);
    lc->cs = cs;
    lc->off = off;
}

void cuzk__lc_release(cuzk_lc *lc)
{
    cuzk_free(lc->t);
    lc->t = NULL;
    lc->len = lc->cap = 0;
}

void cuzk_lc_clear(cuzk_lc *lc)
{
    lc->len = 0;
}

size_t cuzk_lc_len(const cuzk_lc *lc)
{
    return lc->len;
}

size_t cuzk__lc_terms(const cuzk_lc *lc)
{
    return lc->len;
}

static lc_term *push(cuzk_lc *lc, size_t k)
{
    if (lc->len + k > lc->cap) {
        size_t cap = lc->cap;
        if (lc->len + k > UINT32_MAX || !cuzk__grow((void **)&lc->t, &cap, (size_t)lc->len + k,
                                                    sizeof(lc_term), false, false)) {
            lc_oom(lc);
            return NULL;
        }
        lc->cap = cap > UINT32_MAX ? UINT32_MAX : (uint32_t)cap;
    }
    lc_term *t = lc->t + lc->len;
    lc->len += (uint32_t)k;
    return t;
}

static inline void push_unit(cuzk_lc *lc, uint32_t id, uint32_t kind)
{
    lc_term *t = push(lc, 1);
    if (t) {
        t->id = id;
#if CUZK_LC_LAYOUT == 0
        /* Naive variant (measurement only): +-1 stored as field elements like any other. */
        t->kind = LC_GEN;
        t->coeff = kind == LC_POS ? cuzk__fr_one : cuzk__fr_minus_one;
#else
        t->kind = kind;
#endif
    }
}

static inline void push_gen(cuzk_lc *lc, uint32_t id, const cuzk_fr_t *c)
{
    lc_term *t = push(lc, 1);
    if (t) {
        t->id = id;
        t->kind = LC_GEN;
        t->coeff = *c;
    }
}

void cuzk__lc_gather(const cuzk_lc *lc, lc_view *out)
{
    for (uint32_t i = 0; i < lc->len; i++) {
        out[i].id = lc->t[i].id;
        out[i].kind = lc->t[i].kind;
        out[i].coeff = lc->t[i].kind == LC_GEN ? &lc->t[i].coeff : NULL;
    }
}

size_t cuzk__lc_unmarked(const cuzk_lc *lc, const bitvec *in_bits, const bitvec *aux_bits,
                         lc_view *out)
{
    size_t k = 0;
    for (uint32_t i = 0; i < lc->len; i++) {
        uint32_t id = lc->t[i].id;
        if (is_unmarked(id, in_bits, aux_bits)) {
            out[k].id = id;
            out[k].kind = lc->t[i].kind;
            out[k].coeff = lc->t[i].kind == LC_GEN ? &lc->t[i].coeff : NULL;
            k++;
        }
    }
    return k;
}

static inline __attribute__((always_inline)) void lc_eval(const cuzk_lc *lc, const cs_vals *fv,
                                                          const cuzk_fr_t *input,
                                                          const cuzk_fr_t *aux, cuzk_fr_t *out)
{
    frf_acc pos, neg;
    frf_acc_zero(&pos);
    frf_acc_zero(&neg);
    for (uint32_t i = 0; i < lc->len; i++) {
        const lc_term *t = &lc->t[i];
        const cuzk_fr_t *x = any_value(fv, input, aux, t->id);
#if CUZK_LC_LAYOUT == 0
        cuzk_fr_t p;
        frf_mul(&p, &t->coeff, x); /* naive: one multiplication per term */
        frf_acc_add(&pos, &p);
#else
        if (t->kind == LC_POS)
            frf_acc_add(&pos, x);
        else if (t->kind == LC_NEG)
            frf_acc_add(&neg, x);
        else
            frf_acc_madd_vartime(&pos, &t->coeff, x);
#endif
    }
    frf_acc_finish_vartime(out, &pos, &neg);
}

static void append_lc(cuzk_lc *dst, const cuzk_lc *src, int sign, const cuzk_fr_t *scale)
{
    lc_term *t = push(dst, src->len);
    if (!t)
        return;
    for (uint32_t i = 0; i < src->len; i++) {
        const lc_term *s = &src->t[i];
        t[i].id = s->id;
        if (scale) {
            t[i].kind = LC_GEN;
            if (s->kind == LC_POS)
                t[i].coeff = *scale;
            else if (s->kind == LC_NEG) {
                frf_set_zero(&t[i].coeff);
                frf_sub(&t[i].coeff, &t[i].coeff, scale);
            } else
                frf_mul(&t[i].coeff, &s->coeff, scale);
        } else if (sign > 0) {
            t[i].kind = s->kind;
            if (s->kind == LC_GEN)
                t[i].coeff = s->coeff;
        } else {
            t[i].kind = s->kind == LC_POS ? LC_NEG : s->kind == LC_NEG ? LC_POS : LC_GEN;
            if (s->kind == LC_GEN) {
                frf_set_zero(&t[i].coeff);
                frf_sub(&t[i].coeff, &t[i].coeff, &s->coeff);
            }
        }
    }
}

#else
/* ---- SoA ------------------------------------------------------------------------------------ */

void cuzk__lc_init(cuzk_lc *lc, cuzk_cs *cs, bool off)
{
    memset(lc, 0, sizeof *lc);
    lc->cs = cs;
    lc->off = off;
}

void cuzk__lc_release(cuzk_lc *lc)
{
    cuzk_free(lc->pos);
    cuzk_free(lc->neg);
    cuzk_free(lc->gid);
    cuzk_free(lc->gco);
    lc->pos = lc->neg = lc->gid = NULL;
    lc->gco = NULL;
    lc->npos = lc->nneg = lc->ngen = 0;
    lc->cap_pos = lc->cap_neg = lc->cap_gen = 0;
}

void cuzk_lc_clear(cuzk_lc *lc)
{
    lc->npos = lc->nneg = lc->ngen = 0;
}

size_t cuzk_lc_len(const cuzk_lc *lc)
{
    return (size_t)lc->npos + lc->nneg + lc->ngen;
}

size_t cuzk__lc_terms(const cuzk_lc *lc)
{
    return cuzk_lc_len(lc);
}

static bool grow32(cuzk_lc *lc, uint32_t **p, uint32_t *cap, size_t need)
{
    size_t c = *cap;
    if (need > UINT32_MAX || !cuzk__grow((void **)p, &c, need, sizeof **p, false, false)) {
        lc_oom(lc);
        return false;
    }
    *cap = c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
    return true;
}

static bool reserve_gen(cuzk_lc *lc, size_t k)
{
    size_t need = (size_t)lc->ngen + k;
    if (need <= lc->cap_gen)
        return true;
    size_t c1 = lc->cap_gen, c2 = lc->cap_gen;
    if (need > UINT32_MAX ||
        !cuzk__grow((void **)&lc->gid, &c1, need, sizeof *lc->gid, false, false) ||
        !cuzk__grow((void **)&lc->gco, &c2, need, sizeof *lc->gco, false, false)) {
        lc_oom(lc);
        return false;
    }
    size_t c = c1 < c2 ? c1 : c2;
    lc->cap_gen = c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
    return true;
}

static inline void push_unit(cuzk_lc *lc, uint32_t id, uint32_t kind)
{
    if (kind == LC_POS) {
        if (lc->npos == lc->cap_pos && !grow32(lc, &lc->pos, &lc->cap_pos, (size_t)lc->npos + 1))
            return;
        lc->pos[lc->npos++] = id;
    } else {
        if (lc->nneg == lc->cap_neg && !grow32(lc, &lc->neg, &lc->cap_neg, (size_t)lc->nneg + 1))
            return;
        lc->neg[lc->nneg++] = id;
    }
}

static inline void push_gen(cuzk_lc *lc, uint32_t id, const cuzk_fr_t *c)
{
    if (lc->ngen == lc->cap_gen && !reserve_gen(lc, 1))
        return;
    lc->gid[lc->ngen] = id;
    lc->gco[lc->ngen] = *c;
    lc->ngen++;
}

void cuzk__lc_gather(const cuzk_lc *lc, lc_view *out)
{
    size_t k = 0;
    for (uint32_t i = 0; i < lc->npos; i++, k++) {
        out[k].id = lc->pos[i];
        out[k].kind = LC_POS;
        out[k].coeff = NULL;
    }
    for (uint32_t i = 0; i < lc->nneg; i++, k++) {
        out[k].id = lc->neg[i];
        out[k].kind = LC_NEG;
        out[k].coeff = NULL;
    }
    for (uint32_t i = 0; i < lc->ngen; i++, k++) {
        out[k].id = lc->gid[i];
        out[k].kind = LC_GEN;
        out[k].coeff = &lc->gco[i];
    }
}

static size_t unmarked_ids(const uint32_t *ids, uint32_t n, uint32_t kind, const cuzk_fr_t *co,
                           const bitvec *in_bits, const bitvec *aux_bits, lc_view *out)
{
    size_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (is_unmarked(ids[i], in_bits, aux_bits)) {
            out[k].id = ids[i];
            out[k].kind = kind;
            out[k].coeff = co ? &co[i] : NULL;
            k++;
        }
    }
    return k;
}

size_t cuzk__lc_unmarked(const cuzk_lc *lc, const bitvec *in_bits, const bitvec *aux_bits,
                         lc_view *out)
{
    size_t k = unmarked_ids(lc->pos, lc->npos, LC_POS, NULL, in_bits, aux_bits, out);
    k += unmarked_ids(lc->neg, lc->nneg, LC_NEG, NULL, in_bits, aux_bits, out + k);
    k += unmarked_ids(lc->gid, lc->ngen, LC_GEN, lc->gco, in_bits, aux_bits, out + k);
    return k;
}

static inline __attribute__((always_inline)) void lc_eval(const cuzk_lc *lc, const cs_vals *fv,
                                                          const cuzk_fr_t *input,
                                                          const cuzk_fr_t *aux, cuzk_fr_t *out)
{
    frf_acc pos, neg;
    frf_acc_zero(&pos);
    frf_acc_zero(&neg);
    for (uint32_t i = 0; i < lc->npos; i++)
        frf_acc_add(&pos, any_value(fv, input, aux, lc->pos[i]));
    for (uint32_t i = 0; i < lc->nneg; i++)
        frf_acc_add(&neg, any_value(fv, input, aux, lc->neg[i]));
    for (uint32_t i = 0; i < lc->ngen; i++)
        frf_acc_madd_vartime(&pos, &lc->gco[i], any_value(fv, input, aux, lc->gid[i]));
    frf_acc_finish_vartime(out, &pos, &neg);
}

static void append_ids(cuzk_lc *dst, uint32_t **arr, uint32_t *n, uint32_t *cap,
                       const uint32_t *src, uint32_t k)
{
    if (!k)
        return;
    if ((size_t)*n + k > *cap && !grow32(dst, arr, cap, (size_t)*n + k))
        return;
    memcpy(*arr + *n, src, (size_t)k * sizeof *src);
    *n += k;
}

static void append_lc(cuzk_lc *dst, const cuzk_lc *src, int sign, const cuzk_fr_t *scale)
{
    if (!scale) {
        if (sign > 0) {
            append_ids(dst, &dst->pos, &dst->npos, &dst->cap_pos, src->pos, src->npos);
            append_ids(dst, &dst->neg, &dst->nneg, &dst->cap_neg, src->neg, src->nneg);
        } else {
            append_ids(dst, &dst->pos, &dst->npos, &dst->cap_pos, src->neg, src->nneg);
            append_ids(dst, &dst->neg, &dst->nneg, &dst->cap_neg, src->pos, src->npos);
        }
        if (!src->ngen || !reserve_gen(dst, src->ngen))
            return;
        memcpy(dst->gid + dst->ngen, src->gid, (size_t)src->ngen * sizeof *src->gid);
        if (sign > 0) {
            memcpy(dst->gco + dst->ngen, src->gco, (size_t)src->ngen * sizeof *src->gco);
        } else {
            for (uint32_t i = 0; i < src->ngen; i++) {
                cuzk_fr_t *c = &dst->gco[dst->ngen + i];
                frf_set_zero(c);
                frf_sub(c, c, &src->gco[i]);
            }
        }
        dst->ngen += src->ngen;
        return;
    }
    size_t k = cuzk_lc_len(src);
    if (!k || !reserve_gen(dst, k))
        return;
    cuzk_fr_t neg;
    frf_set_zero(&neg);
    frf_sub(&neg, &neg, scale);
    uint32_t o = dst->ngen;
    for (uint32_t i = 0; i < src->npos; i++, o++) {
        dst->gid[o] = src->pos[i];
        dst->gco[o] = *scale;
    }
    for (uint32_t i = 0; i < src->nneg; i++, o++) {
        dst->gid[o] = src->neg[i];
        dst->gco[o] = neg;
    }
    for (uint32_t i = 0; i < src->ngen; i++, o++) {
        dst->gid[o] = src->gid[i];
        frf_mul(&dst->gco[o], &src->gco[i], scale);
    }
    dst->ngen = o;
}
#endif

/* ---- layout-independent API ------------------------------------------------------------------ */

void cuzk_lc_add(cuzk_lc *lc, cuzk_var v, const cuzk_fr_t *coeff)
{
    if (lc->off || frf_is_zero(coeff))
        return;
    if (frf_eq(coeff, &cuzk__fr_one))
        push_unit(lc, v.id, LC_POS);
    else if (frf_eq(coeff, &cuzk__fr_minus_one))
        push_unit(lc, v.id, LC_NEG);
    else
        push_gen(lc, v.id, coeff);
}

void cuzk_lc_add_var(cuzk_lc *lc, cuzk_var v)
{
    if (!lc->off)
        push_unit(lc, v.id, LC_POS);
}

void cuzk_lc_sub_var(cuzk_lc *lc, cuzk_var v)
{
    if (!lc->off)
        push_unit(lc, v.id, LC_NEG);
}

void cuzk_lc_add_pow2(cuzk_lc *lc, cuzk_var v, unsigned k)
{
    if (lc->off)
        return;
    if (k == 0)
        push_unit(lc, v.id, LC_POS);
    else
        push_gen(lc, v.id, cuzk_r1cs_pow2(k));
}

void cuzk_lc_add_const(cuzk_lc *lc, const cuzk_fr_t *coeff)
{
    cuzk_lc_add(lc, cuzk_var_one(), coeff);
}

void cuzk_lc_add_one(cuzk_lc *lc)
{
    if (!lc->off)
        push_unit(lc, 0, LC_POS);
}

void cuzk_lc_add_lc(cuzk_lc *dst, const cuzk_lc *src)
{
    if (!dst->off && dst != src)
        append_lc(dst, src, 1, NULL);
}

void cuzk_lc_sub_lc(cuzk_lc *dst, const cuzk_lc *src)
{
    if (!dst->off && dst != src)
        append_lc(dst, src, -1, NULL);
}

void cuzk_lc_add_lc_scaled(cuzk_lc *dst, const cuzk_lc *src, const cuzk_fr_t *coeff)
{
    if (dst->off || dst == src || frf_is_zero(coeff))
        return;
    if (frf_eq(coeff, &cuzk__fr_one))
        append_lc(dst, src, 1, NULL);
    else if (frf_eq(coeff, &cuzk__fr_minus_one))
        append_lc(dst, src, -1, NULL);
    else
        append_lc(dst, src, 1, coeff);
}

void cuzk__lc_eval(const cuzk_lc *lc, const cuzk_fr_t *input, const cuzk_fr_t *aux, cuzk_fr_t *out)
{
    lc_eval(lc, NULL, input, aux, out);
}

void cuzk__lc_eval_forked(const cuzk_lc *lc, const cs_vals *v, cuzk_fr_t *out)
{
    lc_eval(lc, v, NULL, NULL, out);
}

void cuzk_lc_eval(const cuzk_lc *lc, cuzk_fr_t *out)
{
    const cuzk_cs *cs = lc->cs;
    if (!cs->values || lc->off) {
        frf_set_zero(out);
        return;
    }
    if (cs->fork) {
        cs_vals v;
        cuzk__cs_vals(cs, &v);
        cuzk__lc_eval_forked(lc, &v, out);
        return;
    }
    cuzk__lc_eval(lc, cs->input.v, cs->aux.v, out);
}

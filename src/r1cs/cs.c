/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The constraint system: variables, modes, enforce. ONE is input 0 and bellperson's order is
 * kept: inputs and aux numbered separately in allocation order, constraints in enforce order.
 */
#include "r1cs/cs_internal.h"
#include "r1cs/fr_fast.h"

#include "cuzk/alloc.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool cuzk__grow(void **p, size_t *cap, size_t need, size_t elem, bool zero, bool wipe)
{
    return cuzk__grow_va(NULL, p, cap, need, elem, zero, wipe);
}

bool cuzk__grow_va(const cuzk_vec_alloc *va, void **p, size_t *cap, size_t need, size_t elem,
                   bool zero, bool wipe)
{
    if (need <= *cap)
        return true;
    size_t ncap = *cap ? *cap : 16;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            return false;
        ncap *= 2;
    }
    if (elem && ncap > SIZE_MAX / elem)
        return false;
    void *np = cuzk_vec_alloc_bytes(va, ncap * elem);
    if (!np)
        return false;
    if (*p && *cap)
        memcpy(np, *p, *cap * elem);
    if (zero)
        memset((char *)np + *cap * elem, 0, (ncap - *cap) * elem);
    if (*p && wipe)
        cuzk__wipe(*p, *cap * elem);
    cuzk_vec_free(va, *p);
    *p = np;
    *cap = ncap;
    return true;
}

cuzk_status cuzk__cs_fail(cuzk_cs *cs, cuzk_status s)
{
    if (cs->sticky == CUZK_OK && s != CUZK_OK) {
        cs->sticky = s;
        if (s == CUZK_ERR_NOMEM)
            (void)cuzk_fail(s, "constraint system: out of memory after %zu constraints",
                            cs->n_constraints);
    }
    return cs->sticky;
}

/* ---- 2^k table ---------------------------------------------------------------------------- */

static cuzk_fr_t pow2_table[256];
static pthread_once_t pow2_once = PTHREAD_ONCE_INIT;

static void pow2_init(void)
{
    cuzk_fr_set_one(&pow2_table[0]);
    for (unsigned k = 1; k < 256; k++)
        cuzk_fr_dbl(&pow2_table[k], &pow2_table[k - 1]);
}

const cuzk_fr_t *cuzk_r1cs_pow2(unsigned k)
{
    pthread_once(&pow2_once, pow2_init);
    return &pow2_table[k & 255];
}

/* ---- create / destroy ------------------------------------------------------------------- */

/* A placed vector that must grow moves its values into memory of its own (the place it was
 * given ends where the next system's begins). */
static bool frvec_own(frvec *v, size_t n)
{
    cuzk_fr_t *p = NULL;
    size_t cap = 0;
    if (!cuzk__grow((void **)&p, &cap, n > 2 * v->cap ? n : 2 * v->cap, sizeof(cuzk_fr_t), false,
                    false))
        return false;
    if (v->len)
        memcpy(p, v->v, v->len * sizeof(cuzk_fr_t));
    v->v = p;
    v->cap = cap;
    v->placed = false;
    return true;
}

static bool frvec_reserve(frvec *v, size_t n)
{
    if (v->placed)
        return n <= v->cap || frvec_own(v, n);
    return cuzk__grow((void **)&v->v, &v->cap, n, sizeof(cuzk_fr_t), false, true);
}

static void frvec_free(frvec *v, bool wipe, const cuzk_vec_alloc *va)
{
    if (v->placed) { /* the other system's memory, wiped with it */
        *v = (frvec){0};
        return;
    }
    if (v->v && wipe)
        cuzk__wipe(v->v, v->cap * sizeof(cuzk_fr_t));
    cuzk_vec_free(va, v->v);
    v->v = NULL;
    v->len = v->cap = 0;
}

bool cuzk__cs_reserve_rows(cuzk_cs *cs, size_t rows)
{
    frvec *v[3] = {&cs->a, &cs->b, &cs->c};
    for (int i = 0; i < (cs->no_c ? 2 : 3); i++)
        if (!cuzk__grow_va(&cs->abc_va, (void **)&v[i]->v, &v[i]->cap, rows, sizeof(cuzk_fr_t),
                           false, true))
            return false;
    return true;
}

static bool bitvec_reserve(bitvec *b, size_t nbits)
{
    size_t words = (nbits + 63) / 64;
    if (words <= b->words)
        return true;
    return cuzk__grow((void **)&b->w, &b->words, words, sizeof(uint64_t), true, false);
}

/* A system in |mode|, continuing |fork| when it is not NULL (its variables numbered after the
 * fork's, no ONE of its own), else with ONE allocated as input 0. */
static cuzk_status cs_new(cuzk_cs **out, cuzk_cs_mode mode, const cuzk_cs_fork *fork,
                          size_t hint_aux, size_t hint_constraints)
{
    pthread_once(&pow2_once, pow2_init);
    cuzk_cs *cs = cuzk_alloc(sizeof *cs);
    if (!cs)
        return cuzk_fail(CUZK_ERR_NOMEM, "cuzk_cs_create: out of memory");
    memset(cs, 0, sizeof *cs);
    cs->mode = mode;
    if (fork) {
        cs->fork = fork;
        cs->n_inputs = cs->fork_inputs = fork->n_inputs;
        cs->n_aux = cs->fork_aux = fork->n_aux;
    }
    cs->values = mode != CUZK_CS_KEYGEN;
    cs->constraints = mode != CUZK_CS_WITNESS;
    cs->evaluate = mode == CUZK_CS_PROVE || mode == CUZK_CS_CHECK || mode == CUZK_CS_PROVE_AB;
    cs->no_c = mode == CUZK_CS_PROVE_AB;
    for (int i = 0; i < 3; i++)
        cuzk__lc_init(&cs->scratch[i], cs, !cs->constraints);
    cuzk__lc_init(&cs->dummy, cs, true);
    bool ok = true;
    if (cs->values) {
        /* The hint exactly, not rounded up as growth rounds: cuzk_cs_reserved then tells the
         * forked items their exact share (places, cuzk_cs_place_forked). */
        if (hint_aux > 64) {
            cs->aux.v = cuzk_alloc_array(hint_aux, sizeof(cuzk_fr_t));
            cs->aux.cap = cs->aux.v ? hint_aux : 0;
            ok = cs->aux.v != NULL;
        }
        ok = ok && frvec_reserve(&cs->aux, 64) && frvec_reserve(&cs->input, 16);
    }
    if (ok && cs->evaluate) {
        cs->rows_hint = hint_constraints ? hint_constraints : 64;
        /* Bitmaps are indexed by variable: a forked system's cover the fork's variables too,
         * whose marks cuzk_cs_extend adds to the target's. */
        size_t na = cs->n_aux + (hint_aux ? hint_aux : 64);
        ok = cuzk__cs_reserve_rows(cs, cs->rows_hint) && bitvec_reserve(&cs->a_aux, na) &&
             bitvec_reserve(&cs->b_aux, na) && bitvec_reserve(&cs->b_in, cs->n_inputs + 64);
    }
    if (!ok) {
        cuzk_cs_destroy(cs);
        return cuzk_fail(CUZK_ERR_NOMEM, "cuzk_cs_create: out of memory");
    }
    if (fork) {
        *out = cs;
        return CUZK_OK;
    }
    /* ONE = input 0. */
    cuzk_var one;
    cuzk_status s = cuzk_cs_alloc_input(cs, &one, &cuzk__fr_one);
    if (s != CUZK_OK) {
        cuzk_cs_destroy(cs);
        return s;
    }
    *out = cs;
    return CUZK_OK;
}

static bool valid_mode(cuzk_cs_mode mode)
{
    return mode == CUZK_CS_PROVE || mode == CUZK_CS_CHECK || mode == CUZK_CS_WITNESS ||
           mode == CUZK_CS_KEYGEN || mode == CUZK_CS_PROVE_AB;
}

cuzk_status cuzk_cs_create(cuzk_cs **out, cuzk_cs_mode mode, size_t hint_aux,
                           size_t hint_constraints)
{
    if (!out)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_cs_create: out is NULL");
    *out = NULL;
    if (!valid_mode(mode))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_cs_create: unknown mode %d", (int)mode);
    return cs_new(out, mode, NULL, hint_aux, hint_constraints);
}

/* ---- forks ------------------------------------------------------------------------------- */

cuzk_status cuzk_cs_fork_create(cuzk_cs_fork **out, const cuzk_cs *parent)
{
    if (!out)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_cs_fork_create: out is NULL");
    *out = NULL;
    if (!parent || !parent->values || parent->finalized || parent->fork)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "cuzk_cs_fork_create: needs an unfinalised system with values that is "
                         "not itself forked");
    if (parent->sticky != CUZK_OK)
        return parent->sticky;
    cuzk_cs_fork *f = cuzk_alloc(sizeof *f);
    if (!f)
        return cuzk_fail(CUZK_ERR_NOMEM, "cuzk_cs_fork_create: out of memory");
    memset(f, 0, sizeof *f);
    f->mode = parent->mode;
    f->n_inputs = parent->n_inputs;
    f->n_aux = parent->n_aux;
    if (parent->evaluate) {
        f->input = cuzk_alloc_array(f->n_inputs, sizeof(cuzk_fr_t));
        f->aux = cuzk_alloc_array(f->n_aux ? f->n_aux : 1, sizeof(cuzk_fr_t));
        if (!f->input || !f->aux) {
            cuzk_cs_fork_destroy(f);
            return cuzk_fail(CUZK_ERR_NOMEM, "cuzk_cs_fork_create: a copy of %zu values",
                             f->n_inputs + f->n_aux);
        }
        memcpy(f->input, parent->input.v, f->n_inputs * sizeof(cuzk_fr_t));
        memcpy(f->aux, parent->aux.v, f->n_aux * sizeof(cuzk_fr_t));
    }
    *out = f;
    return CUZK_OK;
}

void cuzk_cs_fork_destroy(cuzk_cs_fork *f)
{
    if (!f)
        return;
    if (f->input)
        cuzk__wipe(f->input, f->n_inputs * sizeof(cuzk_fr_t));
    if (f->aux)
        cuzk__wipe(f->aux, f->n_aux * sizeof(cuzk_fr_t));
    cuzk_free(f->input);
    cuzk_free(f->aux);
    cuzk_free(f);
}

cuzk_status cuzk_cs_create_forked(cuzk_cs **out, const cuzk_cs_fork *fork, size_t hint_aux,
                                  size_t hint_constraints)
{
    if (!out)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_cs_create_forked: out is NULL");
    *out = NULL;
    if (!fork)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_cs_create_forked: fork is NULL");
    return cs_new(out, fork->mode, fork, hint_aux, hint_constraints);
}

cuzk_status cuzk_cs_place_forked(cuzk_cs *cs, cuzk_cs *parent, size_t at, size_t count)
{
    if (!cs || !parent || !cs->fork || parent->fork || cs->mode != parent->mode || !cs->values)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_cs_place_forked: needs a forked system and "
                                               "its unforked parent, in one mode with values");
    if (cs->aux.len || cs->n_aux != cs->fork_aux)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_cs_place_forked: the system has variables");
    if (at < cs->fork_aux || count == 0 || at > parent->aux.cap || count > parent->aux.cap - at)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "cuzk_cs_place_forked: aux %zu .. %zu outside the parent's %zu reserved "
                         "after the fork's %zu",
                         at, at + count, parent->aux.cap, cs->fork_aux);
    if (cs->sticky != CUZK_OK)
        return cs->sticky;
    frvec_free(&cs->aux, true, NULL);
    cs->aux = (frvec){.v = parent->aux.v + at, .cap = count, .placed = true};
    return CUZK_OK;
}

bool cuzk_cs_is_placed(const cuzk_cs *cs)
{
    return cs && cs->aux.placed;
}

cuzk_status cuzk_cs_unplace(cuzk_cs *cs)
{
    if (!cs || !cs->aux.placed)
        return CUZK_OK;
    if (!frvec_own(&cs->aux, cs->aux.len ? cs->aux.len : 1))
        return cuzk__cs_fail(cs,
                             cuzk_fail(CUZK_ERR_NOMEM, "cuzk_cs_unplace: %zu values", cs->aux.len));
    return CUZK_OK;
}

cuzk_status cuzk_cs_reset_forked(cuzk_cs *cs)
{
    if (!cs || !cs->fork)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_cs_reset_forked: not a forked system");
    if (cs->sticky != CUZK_OK)
        return cs->sticky;
    cs->n_inputs = cs->fork_inputs;
    cs->n_aux = cs->fork_aux;
    cs->n_constraints = 0;
    cs->input.len = cs->aux.len = cs->a.len = cs->b.len = cs->c.len = 0;
    if (cs->aux.placed) /* its place now holds merged values: never write there again */
        cs->aux = (frvec){0};
    bitvec *bv[3] = {&cs->a_aux, &cs->b_in, &cs->b_aux};
    for (int i = 0; i < 3; i++) {
        if (bv[i]->w)
            memset(bv[i]->w, 0, bv[i]->words * sizeof(uint64_t));
        bv[i]->pop = 0;
    }
    cs->ns_depth = cs->ns_len = 0;
    if (cs->ns_buf)
        cs->ns_buf[0] = 0;
    cs->bad = false;
    cs->first_bad = 0;
    cuzk_free(cs->bad_where);
    cs->bad_where = NULL;
    return CUZK_OK;
}

cuzk_status cuzk_cs_set_vec_alloc(cuzk_cs *cs, const cuzk_vec_alloc *va)
{
    if (!cs)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_cs_set_vec_alloc: cs is NULL");
    if (va && (!va->alloc) != (!va->free))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_cs_set_vec_alloc: alloc and free go together");
    if (!cs->evaluate || cs->a.len || cs->finalized)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_cs_set_vec_alloc: needs a PROVE, PROVE_AB "
                                               "or CHECK system before its first constraint");
    frvec *v[3] = {&cs->a, &cs->b, &cs->c};
    for (int i = 0; i < 3; i++)
        frvec_free(v[i], false, &cs->abc_va);
    if (va)
        cs->abc_va = *va;
    else
        memset(&cs->abc_va, 0, sizeof cs->abc_va);
    /* The reservation moves into the new memory; a failure leaves no vector, and the next
     * constraint reports the lack of memory (the system is then sticky-failed). */
    if (!cuzk__cs_reserve_rows(cs, cs->rows_hint))
        return cuzk__cs_fail(cs, CUZK_ERR_NOMEM);
    return CUZK_OK;
}

void cuzk_cs_destroy(cuzk_cs *cs)
{
    if (!cs)
        return;
    frvec_free(&cs->input, true, NULL);
    frvec_free(&cs->aux, true, NULL);
    frvec_free(&cs->a, true, &cs->abc_va);
    frvec_free(&cs->b, true, &cs->abc_va);
    frvec_free(&cs->c, true, &cs->abc_va);
    cuzk_free(cs->a_aux.w);
    cuzk_free(cs->b_in.w);
    cuzk_free(cs->b_aux.w);
    cuzk__keygen_free(cs);
    for (int i = 0; i < 3; i++)
        cuzk__lc_release(&cs->scratch[i]);
    for (size_t i = 0; i < cs->pool_len; i++) {
        cuzk__lc_release(cs->pool[i]);
        cuzk_free(cs->pool[i]);
    }
    cuzk_free(cs->pool);
    cuzk_free(cs->views);
    cuzk_free(cs->ns_buf);
    cuzk_free(cs->ns_marks);
    cuzk_free(cs->bad_where);
    cuzk_free(cs);
}

cuzk_cs_mode cuzk_cs_get_mode(const cuzk_cs *cs)
{
    return cs->mode;
}
bool cuzk_cs_has_values(const cuzk_cs *cs)
{
    return cs->values;
}
bool cuzk_cs_has_constraints(const cuzk_cs *cs)
{
    return cs->constraints;
}
size_t cuzk_cs_num_inputs(const cuzk_cs *cs)
{
    return cs->n_inputs;
}
size_t cuzk_cs_num_aux(const cuzk_cs *cs)
{
    return cs->n_aux;
}
void cuzk_cs_reserved(const cuzk_cs *cs, size_t *aux, size_t *rows)
{
    if (aux) /* a forked system's vector holds its own variables, numbered after the fork's */
        *aux = cs->values ? cs->fork_aux + cs->aux.cap : 0;
    if (rows)
        *rows = cs->evaluate ? cs->a.cap : 0;
}

size_t cuzk_cs_num_constraints(const cuzk_cs *cs)
{
    return cs->n_constraints;
}
cuzk_status cuzk_cs_status(const cuzk_cs *cs)
{
    return cs->sticky;
}

/* ---- variables -------------------------------------------------------------------------- */

static cuzk_status alloc_var(cuzk_cs *cs, cuzk_var *out, const cuzk_fr_t *value, bool input)
{
    if (cs->sticky != CUZK_OK)
        return cs->sticky;
    if (cs->finalized)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_cs_alloc: system already finalised");
    size_t *n = input ? &cs->n_inputs : &cs->n_aux;
    if (*n >= CUZK_VAR_MAX_INDEX)
        return cuzk__cs_fail(cs,
                             cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_cs_alloc: too many variables"));
    if (cs->values) {
        if (!value)
            return cuzk_fail(CUZK_ERR_INVALID_ARG,
                             "cuzk_cs_alloc: value missing for %s %zu in a mode with values",
                             input ? "input" : "aux", *n);
        frvec *v = input ? &cs->input : &cs->aux;
        if (v->len == v->cap && !frvec_reserve(v, v->len + 1))
            return cuzk__cs_fail(cs, CUZK_ERR_NOMEM);
        v->v[v->len++] = *value;
    }
    if (cs->evaluate) {
        bool ok = input ? bitvec_reserve(&cs->b_in, *n + 1)
                        : bitvec_reserve(&cs->a_aux, *n + 1) && bitvec_reserve(&cs->b_aux, *n + 1);
        if (!ok)
            return cuzk__cs_fail(cs, CUZK_ERR_NOMEM);
    }
    *out = input ? cuzk_var_input((uint32_t)*n) : cuzk_var_aux((uint32_t)*n);
    (*n)++;
    return CUZK_OK;
}

cuzk_status cuzk_cs_alloc_aux(cuzk_cs *cs, cuzk_var *out, const cuzk_fr_t *value)
{
    return alloc_var(cs, out, value, false);
}

cuzk_status cuzk_cs_alloc_input(cuzk_cs *cs, cuzk_var *out, const cuzk_fr_t *value)
{
    return alloc_var(cs, out, value, true);
}

cuzk_status cuzk_cs_alloc_aux_bit(cuzk_cs *cs, cuzk_var *out, bool bit)
{
    static const cuzk_fr_t zero = {{0, 0, 0, 0}};
    return alloc_var(cs, out, bit ? &cuzk__fr_one : &zero, false);
}

void cuzk_cs_value(const cuzk_cs *cs, cuzk_fr_t *out, cuzk_var v)
{
    uint32_t i = cuzk_var_index(v);
    if (!cs->values) {
        frf_set_zero(out);
        return;
    }
    bool aux = cuzk_var_is_aux(v);
    const frvec *own = aux ? &cs->aux : &cs->input;
    size_t base = aux ? cs->fork_aux : cs->fork_inputs;
    const cuzk_fr_t *forked = !cs->fork ? NULL : aux ? cs->fork->aux : cs->fork->input;
    if (i < base)
        *out = forked ? forked[i] : (cuzk_fr_t){{0}};
    else
        *out = i - base < own->len ? own->v[i - base] : (cuzk_fr_t){{0}};
}

/* ---- namespaces --------------------------------------------------------------------------- */

/* CHECK mode only (cuzk_cs_push_nsf returns before this in the others). */
static void ns_push_text(cuzk_cs *cs, const char *fmt, va_list ap)
{
    cs->ns_depth++;
    if (!cuzk__grow((void **)&cs->ns_marks, &cs->ns_marks_cap, cs->ns_depth, sizeof(size_t), false,
                    false)) {
        (void)cuzk__cs_fail(cs, CUZK_ERR_NOMEM);
        return;
    }
    cs->ns_marks[cs->ns_depth - 1] = cs->ns_len;
    char tmp[256];
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    if (n < 0)
        n = 0;
    size_t len = (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1;
    if (!cuzk__grow((void **)&cs->ns_buf, &cs->ns_cap, cs->ns_len + len + 2, 1, false, false)) {
        (void)cuzk__cs_fail(cs, CUZK_ERR_NOMEM);
        return;
    }
    if (cs->ns_len)
        cs->ns_buf[cs->ns_len++] = '/';
    memcpy(cs->ns_buf + cs->ns_len, tmp, len);
    cs->ns_len += len;
    cs->ns_buf[cs->ns_len] = 0;
}

void cuzk_cs_push_ns(cuzk_cs *cs, const char *name)
{
    cuzk_cs_push_nsf(cs, "%s", name);
}

void cuzk_cs_push_nsf(cuzk_cs *cs, const char *fmt, ...)
{
    /* Names only matter to CHECK mode's messages; gadgets push one per few constraints, so the
     * other modes return before the formatting call and its frame. */
    if (cs->mode != CUZK_CS_CHECK) {
        cs->ns_depth++;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    ns_push_text(cs, fmt, ap);
    va_end(ap);
}

void cuzk_cs_pop_ns(cuzk_cs *cs)
{
    if (!cs->ns_depth)
        return;
    cs->ns_depth--;
    if (cs->mode == CUZK_CS_CHECK && cs->ns_marks && cs->ns_buf) {
        cs->ns_len = cs->ns_marks[cs->ns_depth];
        cs->ns_buf[cs->ns_len] = 0;
    }
}

/* ---- LC handles --------------------------------------------------------------------------- */

void cuzk_cs_lcs(cuzk_cs *cs, cuzk_lc **a, cuzk_lc **b, cuzk_lc **c)
{
    for (int i = 0; i < 3; i++)
        cuzk_lc_clear(&cs->scratch[i]);
    *a = &cs->scratch[0];
    *b = &cs->scratch[1];
    *c = &cs->scratch[2];
}

cuzk_lc *cuzk_cs_lc_new(cuzk_cs *cs)
{
    cuzk_lc *lc = cs->free_list;
    if (lc) {
        cs->free_list = lc->next_free;
    } else {
        if (!cuzk__grow((void **)&cs->pool, &cs->pool_cap, cs->pool_len + 1, sizeof *cs->pool,
                        false, false) ||
            !(lc = cuzk_alloc(sizeof *lc))) {
            (void)cuzk__cs_fail(cs, CUZK_ERR_NOMEM);
            return &cs->dummy;
        }
        cuzk__lc_init(lc, cs, !cs->constraints);
        cs->pool[cs->pool_len++] = lc;
    }
    lc->next_free = NULL;
    lc->in_use = true;
    cuzk_lc_clear(lc);
    return lc;
}

void cuzk_cs_lc_free(cuzk_cs *cs, cuzk_lc *lc)
{
    if (!lc || lc == &cs->dummy || !lc->in_use)
        return;
    lc->in_use = false;
    lc->next_free = cs->free_list;
    cs->free_list = lc;
}

/* ---- enforce ------------------------------------------------------------------------------ */

static bool grow_rows(cuzk_cs *cs)
{
    return cuzk__cs_reserve_rows(cs, cs->n_constraints + 1);
}

static void check_row(cuzk_cs *cs, size_t row)
{
    if (cs->bad)
        return;
    cuzk_fr_t ab;
    cuzk_fr_mul(&ab, &cs->a.v[row], &cs->b.v[row]);
    if (cuzk_fr_eq(&ab, &cs->c.v[row]))
        return;
    cs->bad = true;
    cs->first_bad = row;
    if (cs->ns_len && cs->ns_buf) {
        cs->bad_where = cuzk_alloc(cs->ns_len + 1);
        if (cs->bad_where)
            memcpy(cs->bad_where, cs->ns_buf, cs->ns_len + 1);
    }
}

cuzk_status cuzk_cs_enforce(cuzk_cs *cs, const cuzk_lc *a, const cuzk_lc *b, const cuzk_lc *c)
{
    if (cs->sticky != CUZK_OK)
        return cs->sticky;
    if (cs->finalized)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_cs_enforce: system already finalised");
    if (cs->evaluate) {
        size_t row = cs->n_constraints;
        if ((row >= cs->a.cap || row >= cs->b.cap || (!cs->no_c && row >= cs->c.cap)) &&
            !grow_rows(cs))
            return cuzk__cs_fail(cs, CUZK_ERR_NOMEM);
        if (cs->fork) {
            cs_vals v;
            cuzk__cs_vals(cs, &v);
            cuzk__lc_eval_forked(a, &v, &cs->a.v[row]);
            cuzk__lc_eval_forked(b, &v, &cs->b.v[row]);
            if (!cs->no_c)
                cuzk__lc_eval_forked(c, &v, &cs->c.v[row]);
        } else {
            const cuzk_fr_t *in = cs->input.v, *aux = cs->aux.v;
            cuzk__lc_eval(a, in, aux, &cs->a.v[row]);
            cuzk__lc_eval(b, in, aux, &cs->b.v[row]);
            if (!cs->no_c)
                cuzk__lc_eval(c, in, aux, &cs->c.v[row]);
        }
        if (!cs->no_c)
            cs->c.len = row + 1;
        cs->a.len = cs->b.len = row + 1;
        cuzk_status s = cuzk__mark_density(cs, a, NULL, &cs->a_aux);
        if (s == CUZK_OK)
            s = cuzk__mark_density(cs, b, &cs->b_in, &cs->b_aux);
        if (s != CUZK_OK)
            return cuzk__cs_fail(cs, s);
        if (cs->mode == CUZK_CS_CHECK)
            check_row(cs, row);
    } else if (cs->mode == CUZK_CS_KEYGEN) {
        /* An extraction someone stopped (cuzk_pce_extract_cancellable) ends at its next 4096th
         * row: the circuit's remaining calls return the sticky status at once. */
        if (cs->kg_cancel && (cs->n_constraints & 4095) == 0 &&
            __atomic_load_n(cs->kg_cancel, __ATOMIC_RELAXED)) {
            (void)cuzk_fail(CUZK_ERR_CANCELLED, "PCE extraction cancelled");
            return cuzk__cs_fail(cs, CUZK_ERR_CANCELLED);
        }
        cuzk_status s = cuzk__keygen_row(cs, 0, a);
        if (s == CUZK_OK)
            s = cuzk__keygen_row(cs, 1, b);
        if (s == CUZK_OK)
            s = cuzk__keygen_row(cs, 2, c);
        if (s != CUZK_OK)
            return cuzk__cs_fail(cs, s);
    }
    cs->n_constraints++;
    return cs->sticky;
}

cuzk_status cuzk_cs_enforce_none(cuzk_cs *cs)
{
    if (cs->constraints)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "cuzk_cs_enforce_none: this system keeps constraints (mode %d)",
                         (int)cs->mode);
    if (cs->sticky != CUZK_OK)
        return cs->sticky;
    if (cs->finalized)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_cs_enforce_none: system already finalised");
    cs->n_constraints++;
    return CUZK_OK;
}

/* ---- extend ------------------------------------------------------------------------------- */

/* dst bits [at, at + n) |= src bits [from, from + n). */
static void bits_append(bitvec *dst, size_t at, const bitvec *src, size_t from, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (cuzk__bit_get(src, from + i))
            cuzk__bit_set(dst, at + i);
}

/* dst bits [0, n) |= src bits [0, n), a word at a time (|dst| holds n bits). */
static void bits_or_prefix(bitvec *dst, const bitvec *src, size_t n)
{
    size_t full = n / 64;
    if (full > src->words)
        full = src->words;
    for (size_t w = 0; w < full; w++) {
        uint64_t add = src->w[w] & ~dst->w[w];
        if (add) {
            dst->w[w] |= add;
            dst->pop += (size_t)__builtin_popcountll(add);
        }
    }
    for (size_t i = full * 64; i < n && i / 64 < src->words; i++)
        if (cuzk__bit_get(src, i))
            cuzk__bit_set(dst, i);
}

cuzk_status cuzk_cs_extend(cuzk_cs *dst, const cuzk_cs *src)
{
    if (!dst || !src)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_cs_extend: NULL system");
    if (dst->mode != src->mode || dst->mode == CUZK_CS_KEYGEN)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "cuzk_cs_extend: modes %d and %d (one mode with "
                         "values, not KEYGEN)",
                         (int)dst->mode, (int)src->mode);
    if (dst->finalized || src->finalized)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_cs_extend: a system is already finalised");
    if (dst->fork)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_cs_extend: the target is a forked system");
    /* Shared with dst: ONE for a plain src (stored as its input 0), the fork's variables for a
     * forked one (stored nowhere in src). */
    size_t sh_i = src->fork ? src->fork_inputs : 1, sh_a = src->fork_aux;
    size_t own_i = src->fork ? 0 : 1;
    if (dst->n_inputs < sh_i || dst->n_aux < sh_a)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "cuzk_cs_extend: the target has %zu inputs and %zu aux, fewer than the "
                         "fork's %zu and %zu",
                         dst->n_inputs, dst->n_aux, sh_i, sh_a);
    if (dst->sticky != CUZK_OK)
        return dst->sticky;
    if (src->sticky != CUZK_OK)
        return cuzk__cs_fail(dst, src->sticky);
    size_t ni = src->n_inputs - sh_i, na = src->n_aux - sh_a, nr = src->n_constraints;
    size_t i0 = dst->n_inputs, a0 = dst->n_aux, r0 = dst->n_constraints;
    if (i0 + ni > CUZK_VAR_MAX_INDEX || a0 + na > CUZK_VAR_MAX_INDEX)
        return cuzk__cs_fail(dst,
                             cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_cs_extend: too many variables"));
    if (!frvec_reserve(&dst->input, i0 + ni) || !frvec_reserve(&dst->aux, a0 + na))
        return cuzk__cs_fail(dst, CUZK_ERR_NOMEM);
    memcpy(dst->input.v + i0, src->input.v + own_i, ni * sizeof(cuzk_fr_t));
    if (na && src->aux.v != dst->aux.v + a0) {
        /* A placed src lies in dst's vector (memmove), above a0 when a system before it used
         * less than its place: its old copy beyond the moved values is wiped. */
        memmove(dst->aux.v + a0, src->aux.v, na * sizeof(cuzk_fr_t));
        if (src->aux.placed && src->aux.v > dst->aux.v + a0) {
            cuzk_fr_t *end = dst->aux.v + a0 + na, *from = src->aux.v;
            cuzk_fr_t *w = from > end ? from : end;
            if (w < from + na)
                cuzk__wipe(w, (size_t)(from + na - w) * sizeof(cuzk_fr_t));
        }
    }
    dst->input.len = i0 + ni;
    dst->aux.len = a0 + na;
    if (dst->evaluate) {
        if (!cuzk__cs_reserve_rows(dst, r0 + nr) || !bitvec_reserve(&dst->b_in, i0 + ni) ||
            !bitvec_reserve(&dst->a_aux, a0 + na) || !bitvec_reserve(&dst->b_aux, a0 + na))
            return cuzk__cs_fail(dst, CUZK_ERR_NOMEM);
        memcpy(dst->a.v + r0, src->a.v, nr * sizeof(cuzk_fr_t));
        memcpy(dst->b.v + r0, src->b.v, nr * sizeof(cuzk_fr_t));
        dst->a.len = dst->b.len = r0 + nr;
        if (!dst->no_c) {
            memcpy(dst->c.v + r0, src->c.v, nr * sizeof(cuzk_fr_t));
            dst->c.len = r0 + nr;
        }
        /* Shared variables keep their index: their marks join dst's. */
        bits_or_prefix(&dst->b_in, &src->b_in, sh_i);
        bits_or_prefix(&dst->a_aux, &src->a_aux, sh_a);
        bits_or_prefix(&dst->b_aux, &src->b_aux, sh_a);
        bits_append(&dst->b_in, i0, &src->b_in, sh_i, ni);
        bits_append(&dst->a_aux, a0, &src->a_aux, sh_a, na);
        bits_append(&dst->b_aux, a0, &src->b_aux, sh_a, na);
        if (dst->mode == CUZK_CS_CHECK && !dst->bad && src->bad) {
            dst->bad = true;
            dst->first_bad = r0 + src->first_bad;
            if (src->bad_where) {
                size_t n = strlen(src->bad_where);
                dst->bad_where = cuzk_alloc(n + 1);
                if (dst->bad_where)
                    memcpy(dst->bad_where, src->bad_where, n + 1);
            }
        }
    }
    dst->n_inputs = i0 + ni;
    dst->n_aux = a0 + na;
    dst->n_constraints = r0 + nr;
    return CUZK_OK;
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Finalisation (bellperson appends input_i * 0 = 0 for every input after synthesis), the
 * satisfaction check and the hand-over of the prover's vectors.
 */
#include "r1cs/cs_internal.h"
#include "r1cs/fr_fast.h"

#include "cuzk/alloc.h"

#include <string.h>

cuzk_status cuzk_cs_finalize(cuzk_cs *cs)
{
    if (!cs)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_cs_finalize: cs is NULL");
    if (cs->sticky != CUZK_OK)
        return cs->sticky;
    if (cs->finalized)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_cs_finalize: called twice");
    if (cs->fork)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "cuzk_cs_finalize: a forked system is merged (cuzk_cs_extend), not "
                         "finalised");
    size_t rows = cs->n_constraints + cs->n_inputs;
    if (cs->evaluate) {
        if (!cuzk__cs_reserve_rows(cs, rows))
            return cuzk__cs_fail(cs, CUZK_ERR_NOMEM);
        for (size_t i = 0; i < cs->n_inputs; i++) {
            size_t r = cs->n_constraints + i;
            cs->a.v[r] = cs->input.v[i];
            frf_set_zero(&cs->b.v[r]);
            if (!cs->no_c)
                frf_set_zero(&cs->c.v[r]);
        }
        cs->a.len = cs->b.len = rows;
        if (!cs->no_c)
            cs->c.len = rows;
        cs->n_constraints = rows;
    } else if (cs->mode == CUZK_CS_KEYGEN) {
        for (size_t i = 0; i < cs->n_inputs; i++) {
            cuzk_status s = cuzk__keygen_input_row(cs, (uint32_t)i);
            if (s != CUZK_OK)
                return cuzk__cs_fail(cs, s);
            cs->n_constraints++;
        }
    } else {
        cs->n_constraints = rows;
    }
    cs->finalized = true;
    return CUZK_OK;
}

bool cuzk_cs_is_satisfied(const cuzk_cs *cs, size_t *first_row, const char **where)
{
    if (where)
        *where = NULL;
    if (first_row)
        *first_row = 0;
    if (!cs->evaluate || cs->no_c)
        return false;
    if (cs->mode == CUZK_CS_CHECK) {
        if (!cs->bad)
            return true;
        if (first_row)
            *first_row = cs->first_bad;
        if (where)
            *where = cs->bad_where;
        return false;
    }
    if (!cs->a.v)
        return false; /* already taken */
    for (size_t r = 0; r < cs->a.len; r++) {
        cuzk_fr_t ab;
        frf_mul(&ab, &cs->a.v[r], &cs->b.v[r]);
        if (!frf_eq(&ab, &cs->c.v[r])) {
            if (first_row)
                *first_row = r;
            return false;
        }
    }
    return true;
}

cuzk_status cuzk_cs_take_prover_data(cuzk_cs *cs, cuzk_prover_data *out)
{
    if (!cs || !out)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_cs_take_prover_data: NULL argument");
    memset(out, 0, sizeof *out);
    if (!cs->values || !cs->finalized || cs->taken)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "cuzk_cs_take_prover_data: needs a finalised "
                         "PROVE/PROVE_AB/CHECK/WITNESS system, not yet taken");
    out->n_inputs = cs->n_inputs;
    out->n_aux = cs->n_aux;
    out->n_rows = cs->n_constraints;
    out->n_constraints = cs->n_constraints - cs->n_inputs;
    out->input = cs->input.v;
    out->aux = cs->aux.v;
    cs->input.v = cs->aux.v = NULL;
    cs->input.cap = cs->aux.cap = 0;
    if (cs->evaluate) {
        out->a = cs->a.v;
        out->b = cs->b.v;
        out->c = cs->c.v;
        out->abc_alloc = cs->abc_va;
        size_t cap = cs->a.cap < cs->b.cap ? cs->a.cap : cs->b.cap;
        out->abc_cap = cs->no_c || cap < cs->c.cap ? cap : cs->c.cap;
        cs->a.v = cs->b.v = cs->c.v = NULL;
        cs->a.cap = cs->b.cap = cs->c.cap = 0;
        out->a_aux_density = cs->a_aux.w;
        out->b_input_density = cs->b_in.w;
        out->b_aux_density = cs->b_aux.w;
        out->a_aux_popcount = cs->a_aux.pop;
        out->b_input_popcount = cs->b_in.pop;
        out->b_aux_popcount = cs->b_aux.pop;
        cs->a_aux.w = cs->b_in.w = cs->b_aux.w = NULL;
        cs->a_aux.words = cs->b_in.words = cs->b_aux.words = 0;
    }
    cs->taken = true;
    return CUZK_OK;
}

static void free_wiped(cuzk_fr_t *p, size_t n, const cuzk_vec_alloc *va)
{
    if (p)
        cuzk__wipe(p, n * sizeof *p);
    cuzk_vec_free(va, p);
}

void cuzk_prover_data_release_abc(cuzk_prover_data *pd)
{
    if (!pd)
        return;
    cuzk_vec_free(&pd->abc_alloc, pd->a);
    cuzk_vec_free(&pd->abc_alloc, pd->b);
    cuzk_vec_free(&pd->abc_alloc, pd->c);
    pd->a = pd->b = pd->c = NULL;
}

/* Wipes of gigabytes (a PoRep partition's aux and a, b, c) run on the pool, in pieces of this. */
#define WIPE_PIECE ((size_t)16 << 20)

typedef struct {
    unsigned char *p;
    size_t bytes;
} wipe_job;

static void wipe_piece(void *ctx, size_t t)
{
    const wipe_job *j = ctx;
    size_t lo = t * WIPE_PIECE, n = j->bytes - lo < WIPE_PIECE ? j->bytes - lo : WIPE_PIECE;
    cuzk__wipe(j->p + lo, n);
}

static void free_wiped_on(cuzk_pool *pool, cuzk_fr_t *p, size_t n, const cuzk_vec_alloc *va)
{
    if (p && pool && n * sizeof *p > WIPE_PIECE) {
        wipe_job j = {(unsigned char *)p, n * sizeof *p};
        cuzk_pool_run(pool, (j.bytes + WIPE_PIECE - 1) / WIPE_PIECE, wipe_piece, &j);
        cuzk_vec_free(va, p);
        return;
    }
    free_wiped(p, n, va);
}

void cuzk_prover_data_free(cuzk_prover_data *pd)
{
    cuzk_prover_data_free_on(pd, NULL);
}

void cuzk_prover_data_free_on(cuzk_prover_data *pd, cuzk_pool *pool)
{
    if (!pd)
        return;
    free_wiped(pd->input, pd->n_inputs, NULL);
    free_wiped_on(pool, pd->aux, pd->n_aux, NULL);
    free_wiped_on(pool, pd->a, pd->n_rows, &pd->abc_alloc);
    free_wiped_on(pool, pd->b, pd->n_rows, &pd->abc_alloc);
    free_wiped_on(pool, pd->c, pd->n_rows, &pd->abc_alloc);
    cuzk_free(pd->a_aux_density);
    cuzk_free(pd->b_input_density);
    cuzk_free(pd->b_aux_density);
    memset(pd, 0, sizeof *pd);
}

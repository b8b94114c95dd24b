/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * a, b, c = A z, B z, C z for z = (inputs, aux): sparse matrix-vector products over the PCE's
 * unit and general parts, rows split into blocks run on a thread pool. Field addition is exact,
 * so the result is bit-identical to the PROVE path whatever the order of terms.
 */
#include "r1cs/pce_internal.h"
#include "r1cs/fr_fast.h"

#include "cuzk/alloc.h"

#include <string.h>

#define SPMV_BLOCK_ROWS 8192

typedef struct {
    const cuzk_pce *pce;
    const cuzk_fr_t *input, *aux;
    cuzk_fr_t *out[3];
} spmv_ctx;

static inline const cuzk_fr_t *zval(const spmv_ctx *x, uint32_t col)
{
    size_t ni = x->pce->n_inputs;
    return col < ni ? &x->input[col] : &x->aux[col - ni];
}

static void spmv_block(void *ctx, size_t blk)
{
    const spmv_ctx *x = ctx;
    const cuzk_fr_t *coeffs = x->pce->coeffs;
    size_t r0 = blk * SPMV_BLOCK_ROWS;
    size_t r1 = r0 + SPMV_BLOCK_ROWS;
    if (r1 > x->pce->n_rows)
        r1 = x->pce->n_rows;
    for (int mi = 0; mi < 3 && x->out[mi]; mi++) {
        const pce_matrix *m = &x->pce->m[mi];
        cuzk_fr_t *out = x->out[mi];
        for (size_t r = r0; r < r1; r++) {
            frf_acc pos, neg;
            frf_acc_zero(&pos);
            frf_acc_zero(&neg);
            for (uint32_t k = m->unit_ptr[r]; k < m->unit_ptr[r + 1]; k++) {
                uint32_t col = m->unit_col[k];
                if (col & PCE_NEG_BIT)
                    frf_acc_add(&neg, zval(x, col & ~PCE_NEG_BIT));
                else
                    frf_acc_add(&pos, zval(x, col));
            }
            for (uint32_t k = m->gen_ptr[r]; k < m->gen_ptr[r + 1]; k++)
                frf_acc_madd_vartime(&pos, &coeffs[m->gen_cidx[k]], zval(x, m->gen_col[k]));
            frf_acc_finish_vartime(&out[r], &pos, &neg);
        }
    }
}

/* |with_c| false: a and b only (cuzk_pce_eval_ab_into). */
static cuzk_status fill(const cuzk_pce *pce, cuzk_pool *pool, cuzk_prover_data *pd, bool with_c)
{
    size_t rows = pce->n_rows;
    /* a, b, c in the caller's memory (pd->abc_alloc, cuzk_pce_eval_into), with room for
     * pd->abc_cap entries when the caller asked for more than the rows (a prover pads them to
     * the domain in place). */
    const size_t cap = pd->abc_cap > rows ? pd->abc_cap : rows;
    const size_t bytes = (cap ? cap : 1) * sizeof(cuzk_fr_t);
    pd->a = cuzk_vec_alloc_bytes(&pd->abc_alloc, bytes);
    pd->b = cuzk_vec_alloc_bytes(&pd->abc_alloc, bytes);
    pd->c = with_c ? cuzk_vec_alloc_bytes(&pd->abc_alloc, bytes) : NULL;
    pd->abc_cap = cap;
    for (int i = 0; i < 3; i++) {
        uint64_t **dst = i == 0   ? &pd->a_aux_density
                         : i == 1 ? &pd->b_input_density
                                  : &pd->b_aux_density;
        size_t words = pce->density_words[i] ? pce->density_words[i] : 1;
        *dst = cuzk_alloc_array(words, 8);
        if (*dst)
            memcpy(*dst, pce->density[i], words * 8);
    }
    if (!pd->a || !pd->b || (with_c && !pd->c) || !pd->a_aux_density || !pd->b_input_density ||
        !pd->b_aux_density)
        return cuzk_fail(CUZK_ERR_NOMEM, "pce eval: out of memory for %zu rows", rows);
    pd->a_aux_popcount = pce->popcount[0];
    pd->b_input_popcount = pce->popcount[1];
    pd->b_aux_popcount = pce->popcount[2];
    pd->n_inputs = pce->n_inputs;
    pd->n_aux = pce->n_aux;
    pd->n_constraints = pce->n_constraints;
    pd->n_rows = rows;
    spmv_ctx x = {pce, pd->input, pd->aux, {pd->a, pd->b, pd->c}};
    cuzk_pool_run(pool, (rows + SPMV_BLOCK_ROWS - 1) / SPMV_BLOCK_ROWS, spmv_block, &x);
    return CUZK_OK;
}

static cuzk_status check_sizes(const cuzk_pce *pce, size_t n_inputs, size_t n_aux)
{
    if (n_inputs != pce->n_inputs || n_aux != pce->n_aux)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "pce eval: witness has %zu inputs / %zu aux, the PCE expects %zu / %zu",
                         n_inputs, n_aux, pce->n_inputs, pce->n_aux);
    return CUZK_OK;
}

cuzk_status cuzk_pce_eval(const cuzk_pce *pce, cuzk_pool *pool, const cuzk_fr_t *input,
                          size_t n_inputs, const cuzk_fr_t *aux, size_t n_aux,
                          cuzk_prover_data *out)
{
    if (!pce || !out || (n_inputs && !input) || (n_aux && !aux))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_pce_eval: NULL argument");
    memset(out, 0, sizeof *out);
    CUZK_TRY(check_sizes(pce, n_inputs, n_aux));
    out->input = cuzk_alloc_array(n_inputs ? n_inputs : 1, sizeof(cuzk_fr_t));
    out->aux = cuzk_alloc_array(n_aux ? n_aux : 1, sizeof(cuzk_fr_t));
    if (!out->input || !out->aux) {
        cuzk_prover_data_free(out);
        return cuzk_fail(CUZK_ERR_NOMEM, "pce eval: out of memory");
    }
    if (n_inputs)
        memcpy(out->input, input, n_inputs * sizeof *input);
    if (n_aux)
        memcpy(out->aux, aux, n_aux * sizeof *aux);
    out->n_inputs = n_inputs;
    out->n_aux = n_aux;
    cuzk_status s = fill(pce, pool, out, true);
    if (s != CUZK_OK)
        cuzk_prover_data_free(out);
    return s;
}

static cuzk_status eval_into(const cuzk_pce *pce, cuzk_pool *pool, cuzk_prover_data *w, bool with_c)
{
    const char *fn = with_c ? "cuzk_pce_eval_into" : "cuzk_pce_eval_ab_into";
    if (!pce || !w || !w->input || (w->n_aux && !w->aux))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "%s: missing witness", fn);
    if (w->a || w->b || w->c || w->a_aux_density || w->b_input_density || w->b_aux_density)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "%s: a/b/c already present", fn);
    CUZK_TRY(check_sizes(pce, w->n_inputs, w->n_aux));
    cuzk_status s = fill(pce, pool, w, with_c);
    if (s != CUZK_OK) {
        /* Leave the witness as it was. */
        cuzk_prover_data_release_abc(w);
        w->abc_cap = 0;
        cuzk_free(w->a_aux_density);
        cuzk_free(w->b_input_density);
        cuzk_free(w->b_aux_density);
        w->a_aux_density = w->b_input_density = w->b_aux_density = NULL;
    }
    return s;
}

cuzk_status cuzk_pce_eval_into(const cuzk_pce *pce, cuzk_pool *pool, cuzk_prover_data *w)
{
    return eval_into(pce, pool, w, true);
}

cuzk_status cuzk_pce_eval_ab_into(const cuzk_pce *pce, cuzk_pool *pool, cuzk_prover_data *w)
{
    return eval_into(pce, pool, w, false);
}

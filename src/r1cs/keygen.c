/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * KEYGEN mode: records A, B, C row by row (merged, zero-free, sorted by variable: inputs first,
 * then aux, which is also column order) and hands them out as CSR with columns = input index,
 * then n_inputs + aux index.
 */
#include "r1cs/cs_internal.h"
#include "r1cs/fr_fast.h"

#include "cuzk/alloc.h"

#include <string.h>

/* The id and coeff (compact: cidx) arrays share nnz_cap; grow them together. */
static bool kg_reserve_nnz(kg_matrix *m, size_t need, bool compact)
{
    if (need <= m->nnz_cap)
        return true;
    size_t c1 = m->nnz_cap, c2 = m->nnz_cap;
    if (!cuzk__grow((void **)&m->id, &c1, need, sizeof(uint32_t), false, false))
        return false;
    if (compact ? !cuzk__grow((void **)&m->cidx, &c2, need, sizeof(uint32_t), false, false)
                : !cuzk__grow((void **)&m->coeff, &c2, need, sizeof(cuzk_fr_t), false, false))
        return false;
    /* Both grow with the same doubling from the same capacity. */
    m->nnz_cap = c1 < c2 ? c1 : c2;
    return true;
}

static cuzk_status begin_row(cuzk_cs *cs, kg_matrix *m)
{
    size_t row = cs->n_constraints;
    if (!cuzk__grow((void **)&m->row_ptr, &m->rows_cap, row + 2, sizeof(uint64_t), false, false))
        return CUZK_ERR_NOMEM;
    if (row == 0)
        m->row_ptr[0] = 0;
    return CUZK_OK;
}

cuzk_status cuzk__keygen_row(cuzk_cs *cs, unsigned matrix, const cuzk_lc *lc)
{
    kg_matrix *m = &cs->m[matrix];
    if (begin_row(cs, m) != CUZK_OK)
        return CUZK_ERR_NOMEM;
    size_t n;
    lc_view *v = cuzk__cs_views(cs, lc, &n);
    if (!v || !kg_reserve_nnz(m, m->nnz + n, cs->kg_compact))
        return CUZK_ERR_NOMEM;
    if (!cs->kg_compact) {
        m->nnz += cuzk__merge_terms(v, n, m->id + m->nnz, m->coeff + m->nnz);
    } else {
        if (!cuzk__grow((void **)&cs->kg_tmp, &cs->kg_tmp_cap, n ? n : 1, sizeof(cuzk_fr_t), false,
                        false))
            return CUZK_ERR_NOMEM;
        size_t k = cuzk__merge_terms(v, n, m->id + m->nnz, cs->kg_tmp);
        for (size_t i = 0; i < k; i++) {
            const cuzk_fr_t *c = &cs->kg_tmp[i];
            uint32_t x;
            if (frf_eq(c, &cuzk__fr_one))
                x = CUZK__COEFF_ONE;
            else if (frf_eq(c, &cuzk__fr_minus_one))
                x = CUZK__COEFF_MINUS_ONE;
            else if ((x = cuzk__coeff_table_index(&cs->kg_coeffs, c)) == UINT32_MAX)
                return CUZK_ERR_NOMEM; /* (CUZK__COEFF_ONE is UINT32_MAX too) */
            m->cidx[m->nnz + i] = x;
        }
        m->nnz += k;
    }
    m->row_ptr[cs->n_constraints + 1] = m->nnz;
    return CUZK_OK;
}

cuzk_status cuzk__keygen_row_single(cuzk_cs *cs, unsigned matrix, uint32_t id)
{
    kg_matrix *m = &cs->m[matrix];
    if (begin_row(cs, m) != CUZK_OK || !kg_reserve_nnz(m, m->nnz + 1, cs->kg_compact))
        return CUZK_ERR_NOMEM;
    m->id[m->nnz] = id;
    if (cs->kg_compact)
        m->cidx[m->nnz] = CUZK__COEFF_ONE;
    else
        cuzk_fr_set_one(&m->coeff[m->nnz]);
    m->nnz++;
    m->row_ptr[cs->n_constraints + 1] = m->nnz;
    return CUZK_OK;
}

/* Empty row (B and C of input constraints). */
static cuzk_status empty_row(cuzk_cs *cs, unsigned matrix)
{
    kg_matrix *m = &cs->m[matrix];
    if (begin_row(cs, m) != CUZK_OK)
        return CUZK_ERR_NOMEM;
    m->row_ptr[cs->n_constraints + 1] = m->nnz;
    return CUZK_OK;
}

cuzk_status cuzk__keygen_input_row(cuzk_cs *cs, uint32_t input)
{
    cuzk_status s = cuzk__keygen_row_single(cs, 0, input);
    if (s == CUZK_OK)
        s = empty_row(cs, 1);
    if (s == CUZK_OK)
        s = empty_row(cs, 2);
    return s;
}

void cuzk__keygen_free(cuzk_cs *cs)
{
    for (int i = 0; i < 3; i++) {
        cuzk_free(cs->m[i].row_ptr);
        cuzk_free(cs->m[i].id);
        cuzk_free(cs->m[i].coeff);
        cuzk_free(cs->m[i].cidx);
        memset(&cs->m[i], 0, sizeof cs->m[i]);
    }
    cuzk__coeff_table_free(&cs->kg_coeffs);
    cuzk_free(cs->kg_tmp);
    cs->kg_tmp = NULL;
    cs->kg_tmp_cap = 0;
}

/* Hands the recorded arrays over without copying: ids become columns in place. */
static void to_csr(cuzk_csr *out, kg_matrix *m, size_t n_inputs)
{
    for (size_t i = 0; i < m->nnz; i++) {
        uint32_t id = m->id[i];
        m->id[i] = (id & CUZK_VAR_AUX_BIT) ? (uint32_t)(n_inputs + (id & CUZK_VAR_MAX_INDEX)) : id;
    }
    out->row_ptr = m->row_ptr;
    out->col = m->id;
    out->coeff = m->coeff;
    out->nnz = m->nnz;
    memset(m, 0, sizeof *m);
}

void cuzk_r1cs_matrices_free(cuzk_r1cs_matrices *m)
{
    if (!m)
        return;
    cuzk_csr *c[3] = {&m->a, &m->b, &m->c};
    for (int i = 0; i < 3; i++) {
        cuzk_free(c[i]->row_ptr);
        cuzk_free(c[i]->col);
        cuzk_free(c[i]->coeff);
    }
    memset(m, 0, sizeof *m);
}

cuzk_status cuzk_cs_take_matrices(cuzk_cs *cs, cuzk_r1cs_matrices *out)
{
    if (!cs || !out)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_cs_take_matrices: NULL argument");
    memset(out, 0, sizeof *out);
    if (cs->mode != CUZK_CS_KEYGEN || !cs->finalized || cs->taken || cs->kg_compact)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "cuzk_cs_take_matrices: needs a finalised KEYGEN system, not yet taken");
    if ((uint64_t)cs->n_inputs + cs->n_aux > UINT32_MAX)
        return cuzk_fail(CUZK_ERR_UNSUPPORTED, "cuzk_cs_take_matrices: more than 2^32 columns");
    out->n_inputs = cs->n_inputs;
    out->n_aux = cs->n_aux;
    out->n_rows = cs->n_constraints;
    out->n_constraints = cs->n_constraints - cs->n_inputs;
    cuzk_csr *c[3] = {&out->a, &out->b, &out->c};
    for (int i = 0; i < 3; i++) {
        /* Every matrix has its row pointers (the input constraints guarantee rows); an empty
         * matrix still needs non-NULL column and coefficient arrays. */
        if (!kg_reserve_nnz(&cs->m[i], 1, false))
            return cuzk_fail(CUZK_ERR_NOMEM, "cuzk_cs_take_matrices: out of memory");
    }
    for (int i = 0; i < 3; i++)
        to_csr(c[i], &cs->m[i], cs->n_inputs);
    cs->taken = true;
    return CUZK_OK;
}

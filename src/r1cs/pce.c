/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * PCE (pre-compiled constraint evaluation): the circuit's matrices extracted once by a KEYGEN
 * synthesis, compiled into unit / general CSR parts, with the densities they imply. Proving then
 * needs only a WITNESS synthesis and the SpMV of spmv.c (the approach of Curio's cuzk,
 * shared/facts/filecoin-circuits.md section 4.9).
 */
#include "r1cs/pce_internal.h"
#include "r1cs/cs_internal.h"
#include "r1cs/fr_fast.h"

#include "cuzk/alloc.h"

#include <string.h>

cuzk_status cuzk__pce_new(cuzk_pce **out, size_t n_inputs, size_t n_aux, size_t n_constraints,
                          size_t n_rows)
{
    *out = NULL;
    cuzk_pce *p = cuzk_alloc(sizeof *p);
    if (!p)
        return cuzk_fail(CUZK_ERR_NOMEM, "pce: out of memory");
    memset(p, 0, sizeof *p);
    p->n_inputs = n_inputs;
    p->n_aux = n_aux;
    p->n_constraints = n_constraints;
    p->n_rows = n_rows;
    size_t bits[3] = {n_aux, n_inputs, n_aux};
    for (int i = 0; i < 3; i++) {
        p->density_words[i] = (bits[i] + 63) / 64;
        p->density[i] = cuzk_calloc_array(p->density_words[i] ? p->density_words[i] : 1, 8);
        if (!p->density[i]) {
            cuzk_pce_destroy(p);
            return cuzk_fail(CUZK_ERR_NOMEM, "pce: out of memory");
        }
    }
    *out = p;
    return CUZK_OK;
}

void cuzk_pce_destroy(cuzk_pce *pce)
{
    if (!pce)
        return;
    for (int i = 0; i < 3; i++) {
        pce_matrix *m = &pce->m[i];
        cuzk_free(m->unit_ptr);
        cuzk_free(m->unit_col);
        cuzk_free(m->gen_ptr);
        cuzk_free(m->gen_col);
        cuzk_free(m->gen_cidx);
        cuzk_free(pce->density[i]);
    }
    cuzk_free(pce->coeffs);
    cuzk_free(pce);
}

static void set_bit(uint64_t *w, size_t i, size_t *pop)
{
    uint64_t m = (uint64_t)1 << (i & 63);
    if (!(w[i >> 6] & m)) {
        w[i >> 6] |= m;
        (*pop)++;
    }
}

void cuzk__pce_compute_density(cuzk_pce *pce)
{
    for (int i = 0; i < 3; i++) {
        memset(pce->density[i], 0, (pce->density_words[i] ? pce->density_words[i] : 1) * 8);
        pce->popcount[i] = 0;
    }
    size_t ni = pce->n_inputs;
    /* A: aux columns only. */
    const pce_matrix *a = &pce->m[0];
    for (uint64_t k = 0; k < a->unit_nnz; k++) {
        uint32_t col = a->unit_col[k] & ~PCE_NEG_BIT;
        if (col >= ni)
            set_bit(pce->density[0], col - ni, &pce->popcount[0]);
    }
    for (uint64_t k = 0; k < a->gen_nnz; k++)
        if (a->gen_col[k] >= ni)
            set_bit(pce->density[0], a->gen_col[k] - ni, &pce->popcount[0]);
    /* B: inputs and aux. */
    const pce_matrix *b = &pce->m[1];
    for (uint64_t k = 0; k < b->unit_nnz + b->gen_nnz; k++) {
        uint32_t col =
            k < b->unit_nnz ? b->unit_col[k] & ~PCE_NEG_BIT : b->gen_col[k - b->unit_nnz];
        if (col < ni)
            set_bit(pce->density[1], col, &pce->popcount[1]);
        else
            set_bit(pce->density[2], col - ni, &pce->popcount[2]);
    }
}

/* A matrix's arrays for |unit| +-1 entries and |gen| general ones over |rows| rows. */
static cuzk_status matrix_alloc(pce_matrix *out, uint64_t unit, uint64_t gen, size_t rows)
{
    if (unit > UINT32_MAX || gen > UINT32_MAX)
        return cuzk_fail(CUZK_ERR_UNSUPPORTED,
                         "pce: more than 2^32 - 1 entries in one matrix part");
    out->unit_nnz = unit;
    out->gen_nnz = gen;
    out->unit_ptr = cuzk_alloc_array(rows + 1, sizeof(uint32_t));
    out->gen_ptr = cuzk_alloc_array(rows + 1, sizeof(uint32_t));
    out->unit_col = cuzk_alloc_array(unit ? unit : 1, sizeof(uint32_t));
    out->gen_col = cuzk_alloc_array(gen ? gen : 1, sizeof(uint32_t));
    out->gen_cidx = cuzk_alloc_array(gen ? gen : 1, sizeof(uint32_t));
    if (!out->unit_ptr || !out->gen_ptr || !out->unit_col || !out->gen_col || !out->gen_cidx)
        return cuzk_fail(CUZK_ERR_NOMEM, "pce: out of memory");
    return CUZK_OK;
}

static cuzk_status compile_matrix(pce_matrix *out, const cuzk_csr *in, size_t rows,
                                  cuzk__coeff_table *t)
{
    uint64_t unit = 0, gen = 0;
    for (uint64_t k = 0; k < in->nnz; k++) {
        if (frf_eq(&in->coeff[k], &cuzk__fr_one) || frf_eq(&in->coeff[k], &cuzk__fr_minus_one))
            unit++;
        else
            gen++;
    }
    CUZK_TRY(matrix_alloc(out, unit, gen, rows));
    uint32_t u = 0, g = 0;
    for (size_t r = 0; r < rows; r++) {
        out->unit_ptr[r] = u;
        out->gen_ptr[r] = g;
        for (uint64_t k = in->row_ptr[r]; k < in->row_ptr[r + 1]; k++) {
            const cuzk_fr_t *c = &in->coeff[k];
            if (frf_eq(c, &cuzk__fr_one)) {
                out->unit_col[u++] = in->col[k];
            } else if (frf_eq(c, &cuzk__fr_minus_one)) {
                out->unit_col[u++] = in->col[k] | PCE_NEG_BIT;
            } else {
                uint32_t idx = cuzk__coeff_table_index(t, c);
                if (idx == UINT32_MAX)
                    return cuzk_fail(CUZK_ERR_NOMEM, "pce: out of memory (coefficient table)");
                out->gen_col[g] = in->col[k];
                out->gen_cidx[g++] = idx;
            }
        }
    }
    out->unit_ptr[rows] = u;
    out->gen_ptr[rows] = g;
    return CUZK_OK;
}

cuzk_status cuzk_pce_from_matrices(cuzk_pce **out, const cuzk_r1cs_matrices *m)
{
    if (!out || !m)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_pce_from_matrices: NULL argument");
    *out = NULL;
    if ((uint64_t)m->n_inputs + m->n_aux >= PCE_NEG_BIT)
        return cuzk_fail(CUZK_ERR_UNSUPPORTED, "pce: 2^31 or more variables");
    const cuzk_csr *csr[3] = {&m->a, &m->b, &m->c};
    size_t ncols = m->n_inputs + m->n_aux;
    for (int i = 0; i < 3; i++) {
        if (csr[i]->row_ptr[0] != 0 || csr[i]->row_ptr[m->n_rows] != csr[i]->nnz)
            return cuzk_fail(CUZK_ERR_INVALID_ARG, "pce: malformed CSR matrix %d", i);
        for (uint64_t k = 0; k < csr[i]->nnz; k++)
            if (csr[i]->col[k] >= ncols)
                return cuzk_fail(CUZK_ERR_INVALID_ARG, "pce: column out of range in matrix %d", i);
    }
    cuzk_pce *p;
    CUZK_TRY(cuzk__pce_new(&p, m->n_inputs, m->n_aux, m->n_constraints, m->n_rows));
    cuzk__coeff_table t;
    cuzk_status s =
        cuzk__coeff_table_init(&t) ? CUZK_OK : cuzk_fail(CUZK_ERR_NOMEM, "pce: out of memory");
    for (int i = 0; i < 3 && s == CUZK_OK; i++)
        s = compile_matrix(&p->m[i], csr[i], m->n_rows, &t);
    p->coeffs = t.v; /* the table's values become the PCE's */
    p->n_coeffs = t.n;
    cuzk_free(t.slot);
    if (s != CUZK_OK) {
        cuzk_pce_destroy(p);
        return s;
    }
    cuzk__pce_compute_density(p);
    *out = p;
    return CUZK_OK;
}

/* One matrix of a compact KEYGEN record (ids and coefficient indices) compiled, the record's
 * arrays freed as soon as they are read, so that the peak holds one matrix twice, not three. */
static cuzk_status compile_compact(pce_matrix *out, kg_matrix *m, size_t rows, size_t n_inputs)
{
    uint64_t unit = 0;
    for (size_t k = 0; k < m->nnz; k++)
        unit += m->cidx[k] >= CUZK__COEFF_MINUS_ONE;
    uint64_t gen = m->nnz - unit;
    CUZK_TRY(matrix_alloc(out, unit, gen, rows));
    uint32_t u = 0, g = 0;
    for (size_t r = 0; r < rows; r++) {
        out->unit_ptr[r] = u;
        out->gen_ptr[r] = g;
        for (uint64_t k = m->row_ptr[r]; k < m->row_ptr[r + 1]; k++) {
            uint32_t id = m->id[k];
            uint32_t col =
                (id & CUZK_VAR_AUX_BIT) ? (uint32_t)(n_inputs + (id & CUZK_VAR_MAX_INDEX)) : id;
            uint32_t x = m->cidx[k];
            if (x == CUZK__COEFF_ONE) {
                out->unit_col[u++] = col;
            } else if (x == CUZK__COEFF_MINUS_ONE) {
                out->unit_col[u++] = col | PCE_NEG_BIT;
            } else {
                out->gen_col[g] = col;
                out->gen_cidx[g++] = x;
            }
        }
    }
    out->unit_ptr[rows] = u;
    out->gen_ptr[rows] = g;
    cuzk_free(m->row_ptr);
    cuzk_free(m->id);
    cuzk_free(m->cidx);
    memset(m, 0, sizeof *m);
    return CUZK_OK;
}

/* The PCE straight from a finalised compact KEYGEN system: no 32-byte coefficient per non-zero
 * is ever stored (a 32 GiB PoRep partition has 722 M non-zeros). */
static cuzk_status take_compact(cuzk_cs *cs, cuzk_pce **out)
{
    if (!cs->finalized || cs->taken)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "pce: the KEYGEN synthesis did not finish");
    if ((uint64_t)cs->n_inputs + cs->n_aux >= PCE_NEG_BIT)
        return cuzk_fail(CUZK_ERR_UNSUPPORTED, "pce: 2^31 or more variables");
    cuzk_pce *p;
    CUZK_TRY(cuzk__pce_new(&p, cs->n_inputs, cs->n_aux, cs->n_constraints - cs->n_inputs,
                           cs->n_constraints));
    cuzk_status s = CUZK_OK;
    for (int i = 0; i < 3 && s == CUZK_OK; i++)
        s = compile_compact(&p->m[i], &cs->m[i], cs->n_constraints, cs->n_inputs);
    cs->taken = true;
    p->coeffs = cs->kg_coeffs.v; /* the table's values become the PCE's */
    p->n_coeffs = cs->kg_coeffs.n;
    cs->kg_coeffs.v = NULL;
    cs->kg_coeffs.n = cs->kg_coeffs.cap = 0;
    if (s != CUZK_OK) {
        cuzk_pce_destroy(p);
        return s;
    }
    cuzk__pce_compute_density(p);
    *out = p;
    return CUZK_OK;
}

cuzk_status cuzk_pce_extract(cuzk_pce **out, const cuzk_circuit *circuit)
{
    return cuzk_pce_extract_cancellable(out, circuit, NULL);
}

cuzk_status cuzk_pce_extract_cancellable(cuzk_pce **out, const cuzk_circuit *circuit,
                                         const int *cancel)
{
    if (!out || !circuit)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_pce_extract: NULL argument");
    *out = NULL;
    cuzk_cs *cs;
    CUZK_TRY(cuzk_cs_create(&cs, CUZK_CS_KEYGEN, 0, 0));
    cs->kg_compact = true;
    cs->kg_cancel = cancel;
    cuzk_status s = cuzk__coeff_table_init(&cs->kg_coeffs)
                        ? cuzk_circuit_synthesize(cs, circuit)
                        : cuzk_fail(CUZK_ERR_NOMEM, "pce: out of memory");
    if (s == CUZK_OK)
        s = take_compact(cs, out);
    cuzk_cs_destroy(cs);
    return s;
}

size_t cuzk_pce_num_inputs(const cuzk_pce *pce)
{
    return pce->n_inputs;
}
size_t cuzk_pce_num_aux(const cuzk_pce *pce)
{
    return pce->n_aux;
}
size_t cuzk_pce_num_constraints(const cuzk_pce *pce)
{
    return pce->n_constraints;
}
size_t cuzk_pce_num_rows(const cuzk_pce *pce)
{
    return pce->n_rows;
}

uint64_t cuzk_pce_nnz(const cuzk_pce *pce, unsigned matrix)
{
    if (matrix > 2)
        return 0;
    return pce->m[matrix].unit_nnz + pce->m[matrix].gen_nnz;
}

uint64_t cuzk_pce_memory_bytes(const cuzk_pce *pce)
{
    uint64_t b = sizeof *pce;
    for (int i = 0; i < 3; i++) {
        const pce_matrix *m = &pce->m[i];
        b += 2 * ((uint64_t)pce->n_rows + 1) * 4 + m->unit_nnz * 4 + m->gen_nnz * 8;
        b += pce->density_words[i] * 8;
    }
    return b + pce->n_coeffs * sizeof(cuzk_fr_t);
}

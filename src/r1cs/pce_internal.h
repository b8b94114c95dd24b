/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_R1CS_PCE_INTERNAL_H
#define CUZK_R1CS_PCE_INTERNAL_H

/*
 * PCE matrices. Per matrix, two CSR parts over the same rows:
 *   unit: columns with coefficient +1 or -1 (bit 31 of the column set = -1): no field element
 *         stored, an addition or subtraction in the SpMV;
 *   gen:  (column, coefficient index) for everything else; the distinct coefficients live once
 *         in a table shared by A, B and C (a circuit repeats a few constants: powers of two
 *         for bit packing, Poseidon's round constants), so an entry costs 8 bytes, not 36.
 * Row pointers are u32 (a matrix part with 2^32 or more entries is rejected); columns index
 * z = (inputs, aux), so n_inputs + n_aux < 2^31.
 */

#include "cuzk/r1cs.h"

#define PCE_NEG_BIT 0x80000000u

typedef struct {
    uint32_t *unit_ptr; /* n_rows + 1 */
    uint32_t *unit_col; /* unit_nnz */
    uint32_t *gen_ptr;  /* n_rows + 1 */
    uint32_t *gen_col;  /* gen_nnz */
    uint32_t *gen_cidx; /* gen_nnz indices into cuzk_pce.coeffs */
    uint64_t unit_nnz, gen_nnz;
} pce_matrix;

struct cuzk_pce {
    size_t n_inputs, n_aux, n_constraints, n_rows;
    pce_matrix m[3];
    cuzk_fr_t *coeffs; /* n_coeffs distinct general coefficients */
    size_t n_coeffs;
    uint64_t *density[3]; /* a_aux, b_input, b_aux */
    size_t density_words[3];
    size_t popcount[3];
};

/* Distinct coefficients by index (src/r1cs/coeff_table.c). Indices stay below
 * CUZK__COEFF_MAX, so a compact KEYGEN record keeps the values above it for +1 and -1. */
#define CUZK__COEFF_MAX 0xFFFFFFF0u
#define CUZK__COEFF_ONE 0xFFFFFFFFu
#define CUZK__COEFF_MINUS_ONE 0xFFFFFFFEu
typedef struct {
    cuzk_fr_t *v; /* n distinct values */
    size_t n, cap;
    uint32_t *slot; /* index + 1, 0 = empty */
    size_t mask;
} cuzk__coeff_table;
bool cuzk__coeff_table_init(cuzk__coeff_table *t);
/* Index of |c|, added when new; UINT32_MAX when out of memory or indices. */
uint32_t cuzk__coeff_table_index(cuzk__coeff_table *t, const cuzk_fr_t *c);
void cuzk__coeff_table_free(cuzk__coeff_table *t);

/* Allocates an empty PCE with the given sizes and zeroed density bitmaps (arrays of the
 * matrices are left NULL). */
cuzk_status cuzk__pce_new(cuzk_pce **out, size_t n_inputs, size_t n_aux, size_t n_constraints,
                          size_t n_rows);
/* Recomputes the density bitmaps from the matrix structure. */
void cuzk__pce_compute_density(cuzk_pce *pce);

#endif

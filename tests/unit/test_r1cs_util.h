/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_TESTS_R1CS_UTIL_H
#define CUZK_TESTS_R1CS_UTIL_H

/* Helpers for the r1cs and gadget tests. */

#include "test.h"

#include "cuzk/alloc.h"
#include "cuzk/r1cs.h"

#define CHECK_OK(expr)                                                                             \
    do {                                                                                           \
        cuzk_status s_ = (expr);                                                                   \
        CHECK_MSG(s_ == CUZK_OK, "%s -> %s (%s)", #expr, cuzk_status_name(s_), cuzk_last_error()); \
    } while (0)

static inline cuzk_fr_t tu_fr(uint64_t v)
{
    cuzk_fr_t r;
    cuzk_fr_set_u64(&r, v);
    return r;
}

static inline cuzk_fr_t tu_fr_rand(void)
{
    uint64_t l[4];
    for (;;) {
        test_rand_bytes(l, sizeof l);
        l[3] &= 0x7fffffffffffffffULL;
        cuzk_fr_t r;
        if (cuzk_fr_from_canonical(&r, l))
            return r;
    }
}

static inline cuzk_cs *tu_cs(cuzk_cs_mode mode)
{
    cuzk_cs *cs = NULL;
    CHECK_OK(cuzk_cs_create(&cs, mode, 0, 0));
    return cs;
}

/* (A z) * (B z) == (C z) for every row, z = (inputs, aux). Returns the first failing row or
 * SIZE_MAX. */
static inline size_t tu_first_unsat(const cuzk_r1cs_matrices *m, const cuzk_fr_t *z)
{
    const cuzk_csr *mats[3] = {&m->a, &m->b, &m->c};
    for (size_t r = 0; r < m->n_rows; r++) {
        cuzk_fr_t v[3];
        for (int i = 0; i < 3; i++) {
            cuzk_fr_set_zero(&v[i]);
            for (uint64_t k = mats[i]->row_ptr[r]; k < mats[i]->row_ptr[r + 1]; k++) {
                cuzk_fr_t t;
                cuzk_fr_mul(&t, &mats[i]->coeff[k], &z[mats[i]->col[k]]);
                cuzk_fr_add(&v[i], &v[i], &t);
            }
        }
        cuzk_fr_t ab;
        cuzk_fr_mul(&ab, &v[0], &v[1]);
        if (!cuzk_fr_eq(&ab, &v[2]))
            return r;
    }
    return SIZE_MAX;
}

/* Words of a density bitmap over |n| bits equal? (bits past |n| ignored). */
static inline bool tu_bits_eq(const uint64_t *x, const uint64_t *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (((x[i / 64] >> (i % 64)) & 1) != ((y[i / 64] >> (i % 64)) & 1))
            return false;
    return true;
}

static inline bool tu_bit(const uint64_t *w, size_t i)
{
    return (w[i / 64] >> (i % 64)) & 1;
}

/* Everything a prover takes from a finalised system: counts, assignments, a, b, c, densities. */
static inline void tu_prover_data_same(const cuzk_prover_data *x, const cuzk_prover_data *y, const char *what)
{
    CHECK_MSG(x->n_inputs == y->n_inputs && x->n_aux == y->n_aux && x->n_rows == y->n_rows &&
                  x->n_constraints == y->n_constraints,
              "%s: counts", what);
    CHECK_MSG(!memcmp(x->input, y->input, x->n_inputs * sizeof(cuzk_fr_t)), "%s: inputs", what);
    CHECK_MSG(!memcmp(x->aux, y->aux, x->n_aux * sizeof(cuzk_fr_t)), "%s: aux", what);
    CHECK((x->a == NULL) == (y->a == NULL) && (x->c == NULL) == (y->c == NULL));
    if (!x->a)
        return;
    CHECK_MSG(!memcmp(x->a, y->a, x->n_rows * sizeof(cuzk_fr_t)), "%s: a", what);
    CHECK_MSG(!memcmp(x->b, y->b, x->n_rows * sizeof(cuzk_fr_t)), "%s: b", what);
    if (x->c)
        CHECK_MSG(!memcmp(x->c, y->c, x->n_rows * sizeof(cuzk_fr_t)), "%s: c", what);
    CHECK_MSG(tu_bits_eq(x->a_aux_density, y->a_aux_density, x->n_aux), "%s: A aux", what);
    CHECK_MSG(tu_bits_eq(x->b_aux_density, y->b_aux_density, x->n_aux), "%s: B aux", what);
    CHECK_MSG(tu_bits_eq(x->b_input_density, y->b_input_density, x->n_inputs), "%s: B in", what);
    CHECK(x->a_aux_popcount == y->a_aux_popcount && x->b_aux_popcount == y->b_aux_popcount &&
          x->b_input_popcount == y->b_input_popcount);
}

/* Built-in circuit |spec| synthesised through the registry with |seed| and |threads| (so that
 * a built-in's use of params.threads is what is tested) into a system created with the hints
 * |hint_aux| and |hint_rows| (as an engine sizes it), its prover data in |out|. */
static inline void tu_spec_prover_data_hinted(cuzk_prover_data *out, const char *spec,
                                              cuzk_cs_mode mode, unsigned threads, uint64_t seed,
                                              size_t hint_aux, size_t hint_rows)
{
    cuzk_circuit c;
    CHECK_OK(cuzk_circuit_find(spec, &c));
    c.params.seed = seed;
    c.params.threads = threads;
    cuzk_cs *cs;
    CHECK_OK(cuzk_cs_create(&cs, mode, hint_aux, hint_rows));
    CHECK_MSG(cuzk_circuit_synthesize(cs, &c) == CUZK_OK, "%s, %u threads: %s", spec, threads,
              cuzk_last_error());
    CHECK_OK(cuzk_cs_take_prover_data(cs, out));
    cuzk_cs_destroy(cs);
}

static inline void tu_spec_prover_data(cuzk_prover_data *out, const char *spec, cuzk_cs_mode mode,
                                       unsigned threads, uint64_t seed)
{
    tu_spec_prover_data_hinted(out, spec, mode, threads, seed, 0, 0);
}

#endif

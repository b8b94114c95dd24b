/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Poseidon gadget (neptune legacy circuit): constraint counts 311/377/505/598/761 (and
 * 1009/1385 for arities 24/36), witness == native hash, modes agree, KEYGEN matrices satisfied by
 * the PROVE witness and broken by a tampered one. */
#include "test.h"
#include "cuzk/alloc.h"
#include "cuzk/poseidon.h"
#include "gadgets/poseidon_circuit.h"

static void rand_fr(cuzk_fr_t *x)
{
    uint64_t l[CUZK_FR_LIMBS];
    do {
        test_rand_bytes(l, sizeof l);
        l[3] &= 0x7fffffffffffffffULL;
    } while (!cuzk_fr_from_canonical(x, l));
}

static const cuzk_poseidon_constants *get(size_t arity)
{
    const cuzk_poseidon_constants *c =
        cuzk_poseidon_constants_get(arity, CUZK_POSEIDON_MERKLE_TREE);
    CHECK_MSG(c != NULL, "constants: %s", cuzk_last_error());
    return c;
}

/* Allocates the preimage and hashes it in |cs|; returns the digest. */
static cuzk_num synth(cuzk_cs *cs, const cuzk_poseidon_constants *c, const cuzk_fr_t *pre)
{
    cuzk_num in[CUZK_POSEIDON_MAX_ARITY], out;
    for (size_t i = 0; i < c->arity; i++) {
        CHECK(cuzk_cs_alloc_aux(cs, &in[i].var, &pre[i]) == CUZK_OK);
        in[i].value = pre[i];
    }
    CHECK(cuzk_poseidon_circuit_hash(cs, &out, c, in) == CUZK_OK);
    return out;
}

CUZK_TEST(poseidon_circuit_counts_and_values)
{
    static const struct {
        size_t arity, constraints;
    } V[] = {{2, 311}, {4, 377}, {8, 505}, {11, 598}, {16, 761}, {24, 1009}, {36, 1385}};
    for (size_t v = 0; v < sizeof V / sizeof V[0]; v++) {
        const cuzk_poseidon_constants *c = get(V[v].arity);
        CHECK(cuzk_poseidon_circuit_num_constraints(c) == V[v].constraints);
        cuzk_fr_t pre[CUZK_POSEIDON_MAX_ARITY], want;
        for (size_t i = 0; i < c->arity; i++)
            rand_fr(&pre[i]);
        cuzk_poseidon_hash_plain(&want, c, pre);

        cuzk_cs *cs;
        CHECK(cuzk_cs_create(&cs, CUZK_CS_CHECK, 0, 0) == CUZK_OK);
        cuzk_num out = synth(cs, c, pre);
        CHECK_MSG(cuzk_cs_num_constraints(cs) == V[v].constraints, "arity %zu: %zu constraints",
                  V[v].arity, cuzk_cs_num_constraints(cs));
        /* Allocations: the preimage, 3 per S-box, 1 per allocated combination. */
        CHECK(cuzk_cs_num_aux(cs) == c->arity + V[v].constraints);
        CHECK(cuzk_fr_eq(&out.value, &want));
        cuzk_fr_t got;
        cuzk_cs_value(cs, &got, out.var);
        CHECK(cuzk_fr_eq(&got, &want));
        size_t row = 0;
        const char *where = NULL;
        CHECK_MSG(cuzk_cs_is_satisfied(cs, &row, &where), "arity %zu: row %zu (%s) unsatisfied",
                  V[v].arity, row, where ? where : "-");
        cuzk_cs_destroy(cs);
    }
}

CUZK_TEST(poseidon_circuit_modes_agree)
{
    static const size_t A[] = {2, 8, 11};
    for (size_t k = 0; k < sizeof A / sizeof A[0]; k++) {
        const cuzk_poseidon_constants *c = get(A[k]);
        for (unsigned long it = 0; it < test_iters(2); it++) {
            cuzk_fr_t pre[16];
            for (size_t i = 0; i < c->arity; i++)
                rand_fr(&pre[i]);
            cuzk_cs *p, *w;
            CHECK(cuzk_cs_create(&p, CUZK_CS_PROVE, 0, 0) == CUZK_OK);
            CHECK(cuzk_cs_create(&w, CUZK_CS_WITNESS, 0, 0) == CUZK_OK);
            cuzk_num op = synth(p, c, pre), ow = synth(w, c, pre);
            CHECK(cuzk_fr_eq(&op.value, &ow.value));
            CHECK(cuzk_cs_num_constraints(p) == cuzk_cs_num_constraints(w));
            CHECK(cuzk_cs_finalize(p) == CUZK_OK);
            CHECK(cuzk_cs_finalize(w) == CUZK_OK);
            CHECK(cuzk_cs_is_satisfied(p, NULL, NULL));
            cuzk_prover_data dp, dw;
            CHECK(cuzk_cs_take_prover_data(p, &dp) == CUZK_OK);
            CHECK(cuzk_cs_take_prover_data(w, &dw) == CUZK_OK);
            CHECK(dp.n_aux == dw.n_aux && dp.n_inputs == dw.n_inputs);
            for (size_t i = 0; i < dp.n_aux; i++)
                CHECK(cuzk_fr_eq(&dp.aux[i], &dw.aux[i]));
            cuzk_prover_data_free(&dp);
            cuzk_prover_data_free(&dw);
            cuzk_cs_destroy(p);
            cuzk_cs_destroy(w);
        }
    }
}

/* Row r of |m| at z = (input, aux). */
static void csr_row(cuzk_fr_t *out, const cuzk_csr *m, size_t r, const cuzk_prover_data *pd)
{
    cuzk_fr_t t;
    cuzk_fr_set_zero(out);
    for (uint64_t k = m->row_ptr[r]; k < m->row_ptr[r + 1]; k++) {
        uint32_t col = m->col[k];
        const cuzk_fr_t *z = col < pd->n_inputs ? &pd->input[col] : &pd->aux[col - pd->n_inputs];
        cuzk_fr_mul(&t, &m->coeff[k], z);
        cuzk_fr_add(out, out, &t);
    }
}

/* First row of |m| not satisfied by |pd|, or n_rows. */
static size_t first_bad_row(const cuzk_r1cs_matrices *m, const cuzk_prover_data *pd)
{
    for (size_t r = 0; r < m->n_rows; r++) {
        cuzk_fr_t a, b, c, ab;
        csr_row(&a, &m->a, r, pd);
        csr_row(&b, &m->b, r, pd);
        csr_row(&c, &m->c, r, pd);
        cuzk_fr_mul(&ab, &a, &b);
        if (!cuzk_fr_eq(&ab, &c))
            return r;
    }
    return m->n_rows;
}

CUZK_TEST(poseidon_circuit_keygen_matrices)
{
    static const size_t A[] = {2, 8};
    for (size_t k = 0; k < sizeof A / sizeof A[0]; k++) {
        const cuzk_poseidon_constants *c = get(A[k]);
        cuzk_fr_t pre[8];
        for (size_t i = 0; i < c->arity; i++)
            rand_fr(&pre[i]);

        cuzk_cs *kg, *p;
        CHECK(cuzk_cs_create(&kg, CUZK_CS_KEYGEN, 0, 0) == CUZK_OK);
        CHECK(cuzk_cs_create(&p, CUZK_CS_PROVE, 0, 0) == CUZK_OK);
        cuzk_num in[8], out;
        for (size_t i = 0; i < c->arity; i++) {
            CHECK(cuzk_cs_alloc_aux(kg, &in[i].var, NULL) == CUZK_OK);
            cuzk_fr_set_zero(&in[i].value);
        }
        CHECK(cuzk_poseidon_circuit_hash(kg, &out, c, in) == CUZK_OK);
        (void)synth(p, c, pre);
        CHECK(cuzk_cs_num_constraints(kg) == cuzk_poseidon_circuit_num_constraints(c));
        CHECK(cuzk_cs_finalize(kg) == CUZK_OK);
        CHECK(cuzk_cs_finalize(p) == CUZK_OK);

        cuzk_r1cs_matrices m;
        cuzk_prover_data pd;
        CHECK(cuzk_cs_take_matrices(kg, &m) == CUZK_OK);
        CHECK(cuzk_cs_take_prover_data(p, &pd) == CUZK_OK);
        CHECK(m.n_aux == pd.n_aux && m.n_rows == pd.n_rows);
        CHECK(first_bad_row(&m, &pd) == m.n_rows);
        /* The recorded rows evaluate to the PROVE path's a, b, c. */
        for (size_t r = 0; r < m.n_rows; r++) {
            cuzk_fr_t a;
            csr_row(&a, &m.a, r, &pd);
            CHECK(cuzk_fr_eq(&a, &pd.a[r]));
        }
        /* Tamper with one intermediate (an S-box square): some row must fail. */
        cuzk_fr_t one;
        cuzk_fr_set_one(&one);
        size_t victim = c->arity + 5;
        cuzk_fr_add(&pd.aux[victim], &pd.aux[victim], &one);
        CHECK(first_bad_row(&m, &pd) < m.n_rows);
        cuzk_r1cs_matrices_free(&m);
        cuzk_prover_data_free(&pd);
        cuzk_cs_destroy(kg);
        cuzk_cs_destroy(p);
    }
}

/* SnapDeals' Poseidon2 with the Custom(1) domain tag (phi, rho, challenge digests). */
CUZK_TEST(poseidon_circuit_custom_tag)
{
    const cuzk_poseidon_constants *c = cuzk_poseidon_constants_get(2, CUZK_POSEIDON_CUSTOM_1);
    CHECK(c != NULL);
    cuzk_fr_t pre[2], want;
    rand_fr(&pre[0]);
    rand_fr(&pre[1]);
    cuzk_poseidon_hash_plain(&want, c, pre);
    cuzk_cs *cs;
    CHECK(cuzk_cs_create(&cs, CUZK_CS_CHECK, 0, 0) == CUZK_OK);
    cuzk_num out = synth(cs, c, pre);
    CHECK(cuzk_cs_num_constraints(cs) == 311);
    CHECK(cuzk_fr_eq(&out.value, &want));
    CHECK(cuzk_cs_is_satisfied(cs, NULL, NULL));
    cuzk_cs_destroy(cs);
}

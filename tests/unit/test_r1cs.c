/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Constraint system: a tiny circuit by hand in every mode, LC operations, CHECK mode. */
#include "test_r1cs_util.h"

#include <string.h>

/*
 * The tiny circuit: input x = 3, aux y = 4, z = 12, w = 54.
 *   r0: x * y = z
 *   r1: (z - x) * (y + 2) = w
 *   r2: 0 * 0 = y - y              (C cancels)
 *   r3: (y - y + z) * 1 = z        (y cancels in A: not A-dense through this row)
 *   r4, r5: input constraints for ONE and x.
 */
static void tiny(cuzk_cs *cs, bool corrupt_w)
{
    cuzk_fr_t v3 = tu_fr(3), v4 = tu_fr(4), v12 = tu_fr(12), v54 = tu_fr(corrupt_w ? 55 : 54);
    bool vals = cuzk_cs_has_values(cs);
    cuzk_var x, y, z, w;
    CHECK_OK(cuzk_cs_alloc_input(cs, &x, vals ? &v3 : NULL));
    CHECK_OK(cuzk_cs_alloc_aux(cs, &y, vals ? &v4 : NULL));
    CHECK_OK(cuzk_cs_alloc_aux(cs, &z, vals ? &v12 : NULL));
    CHECK_OK(cuzk_cs_alloc_aux(cs, &w, vals ? &v54 : NULL));
    cuzk_lc *a, *b, *c;
    cuzk_cs_push_ns(cs, "outer");
    cuzk_cs_lcs(cs, &a, &b, &c);
    cuzk_lc_add_var(a, x);
    cuzk_lc_add_var(b, y);
    cuzk_lc_add_var(c, z);
    CHECK_OK(cuzk_cs_enforce(cs, a, b, c));
    cuzk_cs_push_nsf(cs, "inner %d", 7);
    cuzk_cs_lcs(cs, &a, &b, &c);
    cuzk_lc_add_var(a, z);
    cuzk_lc_sub_var(a, x);
    cuzk_lc_add_var(b, y);
    cuzk_fr_t two = tu_fr(2);
    cuzk_lc_add_const(b, &two);
    cuzk_lc_add_var(c, w);
    CHECK_OK(cuzk_cs_enforce(cs, a, b, c));
    cuzk_cs_pop_ns(cs);
    cuzk_cs_pop_ns(cs);
    cuzk_cs_lcs(cs, &a, &b, &c);
    cuzk_lc_add_var(c, y);
    cuzk_lc_sub_var(c, y);
    CHECK_OK(cuzk_cs_enforce(cs, a, b, c));
    cuzk_cs_lcs(cs, &a, &b, &c);
    cuzk_lc_add_var(a, y);
    cuzk_lc_sub_var(a, y);
    cuzk_lc_add_var(a, z);
    cuzk_lc_add_one(b);
    cuzk_lc_add_var(c, z);
    CHECK_OK(cuzk_cs_enforce(cs, a, b, c));
    CHECK_OK(cuzk_cs_finalize(cs));
}

CUZK_TEST(r1cs_tiny_prove_by_hand)
{
    cuzk_cs *cs = tu_cs(CUZK_CS_PROVE);
    tiny(cs, false);
    CHECK(cuzk_cs_num_inputs(cs) == 2 && cuzk_cs_num_aux(cs) == 3);
    CHECK(cuzk_cs_num_constraints(cs) == 6);
    CHECK(cuzk_cs_is_satisfied(cs, NULL, NULL));
    cuzk_prover_data pd;
    CHECK_OK(cuzk_cs_take_prover_data(cs, &pd));
    CHECK(pd.n_rows == 6 && pd.n_constraints == 4 && pd.n_inputs == 2 && pd.n_aux == 3);
    const uint64_t ea[6] = {3, 9, 0, 12, 1, 3}, eb[6] = {4, 6, 0, 1, 0, 0},
                   ec[6] = {12, 54, 0, 12, 0, 0};
    for (int r = 0; r < 6; r++) {
        cuzk_fr_t x = tu_fr(ea[r]), y = tu_fr(eb[r]), z = tu_fr(ec[r]);
        CHECK_MSG(cuzk_fr_eq(&pd.a[r], &x), "a[%d]", r);
        CHECK_MSG(cuzk_fr_eq(&pd.b[r], &y), "b[%d]", r);
        CHECK_MSG(cuzk_fr_eq(&pd.c[r], &z), "c[%d]", r);
    }
    cuzk_fr_t one = tu_fr(1), three = tu_fr(3);
    CHECK(cuzk_fr_eq(&pd.input[0], &one) && cuzk_fr_eq(&pd.input[1], &three));
    /* a_aux = {z}; b_input = {ONE}; b_aux = {y}. */
    CHECK(pd.a_aux_popcount == 1 && tu_bit(pd.a_aux_density, 1) && !tu_bit(pd.a_aux_density, 0));
    CHECK(pd.b_input_popcount == 1 && tu_bit(pd.b_input_density, 0));
    CHECK(pd.b_aux_popcount == 1 && tu_bit(pd.b_aux_density, 0));
    /* A second take is refused; the system keeps its counts. */
    cuzk_prover_data again;
    CHECK(cuzk_cs_take_prover_data(cs, &again) == CUZK_ERR_INVALID_ARG);
    cuzk_prover_data_free(&pd);
    cuzk_cs_destroy(cs);
}

CUZK_TEST(r1cs_tiny_keygen_csr)
{
    cuzk_cs *cs = tu_cs(CUZK_CS_KEYGEN);
    tiny(cs, false);
    cuzk_r1cs_matrices m;
    CHECK_OK(cuzk_cs_take_matrices(cs, &m));
    CHECK(m.n_inputs == 2 && m.n_aux == 3 && m.n_rows == 6 && m.n_constraints == 4);
    /* Expected entries as (row, col, coeff) with coeff -1 written as -1. */
    struct e {
        int row, col;
        int64_t coeff;
    };
    const struct e ea[] = {{0, 1, 1}, {1, 1, -1}, {1, 3, 1}, {3, 3, 1}, {4, 0, 1}, {5, 1, 1}};
    const struct e eb[] = {{0, 2, 1}, {1, 0, 2}, {1, 2, 1}, {3, 0, 1}};
    const struct e ec[] = {{0, 3, 1}, {1, 4, 1}, {3, 3, 1}};
    const struct e *exp[3] = {ea, eb, ec};
    const size_t nexp[3] = {6, 4, 3};
    const cuzk_csr *mat[3] = {&m.a, &m.b, &m.c};
    for (int i = 0; i < 3; i++) {
        CHECK_MSG(mat[i]->nnz == nexp[i], "matrix %d nnz %llu", i, (unsigned long long)mat[i]->nnz);
        for (size_t k = 0; k < nexp[i]; k++) {
            const struct e *x = &exp[i][k];
            CHECK(mat[i]->row_ptr[x->row] <= k && k < mat[i]->row_ptr[x->row + 1]);
            CHECK_MSG(mat[i]->col[k] == (uint32_t)x->col, "matrix %d entry %zu col %u", i, k,
                      mat[i]->col[k]);
            cuzk_fr_t want = tu_fr((uint64_t)(x->coeff < 0 ? -x->coeff : x->coeff));
            if (x->coeff < 0)
                cuzk_fr_neg(&want, &want);
            CHECK(cuzk_fr_eq(&mat[i]->coeff[k], &want));
        }
        CHECK(mat[i]->row_ptr[6] == nexp[i]);
    }
    /* The matrices are satisfied by the witness, and not by a wrong w. */
    cuzk_fr_t z[5] = {tu_fr(1), tu_fr(3), tu_fr(4), tu_fr(12), tu_fr(54)};
    CHECK(tu_first_unsat(&m, z) == SIZE_MAX);
    z[4] = tu_fr(53);
    CHECK(tu_first_unsat(&m, z) == 1);
    cuzk_r1cs_matrices_free(&m);
    cuzk_cs_destroy(cs);
}

CUZK_TEST(r1cs_tiny_witness_mode)
{
    cuzk_cs *cs = tu_cs(CUZK_CS_WITNESS);
    tiny(cs, false);
    CHECK(cuzk_cs_num_constraints(cs) == 6);
    cuzk_prover_data pd;
    CHECK_OK(cuzk_cs_take_prover_data(cs, &pd));
    CHECK(pd.a == NULL && pd.b == NULL && pd.c == NULL && pd.a_aux_density == NULL);
    cuzk_fr_t v54 = tu_fr(54);
    CHECK(pd.n_aux == 3 && cuzk_fr_eq(&pd.aux[2], &v54));
    cuzk_prover_data_free(&pd);
    cuzk_cs_destroy(cs);
}

/* cuzk_cs_prefault touches the reserved tails only: values already written stay, and the system
 * then gives what one never prefaulted gives (a, b, c, assignments, counts). */
CUZK_TEST(r1cs_prefault_keeps_values)
{
    const size_t hint = (size_t)3 << 20; /* 96 MiB a vector: several chunks, several threads */
    cuzk_prover_data pd[2];
    for (int k = 0; k < 2; k++) {
        cuzk_cs *cs;
        CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_PROVE, hint, hint));
        cuzk_var v;
        cuzk_fr_t r[100];
        for (size_t i = 0; i < 100; i++) {
            r[i] = tu_fr(1000 + i);
            CHECK_OK(cuzk_cs_alloc_aux(cs, &v, &r[i]));
        }
        if (k) {
            cuzk_cs_prefault(cs, 4);
            cuzk_cs_prefault(cs, 1); /* one thread: nothing to do */
        }
        tiny(cs, false);
        CHECK(cuzk_cs_is_satisfied(cs, NULL, NULL));
        CHECK_OK(cuzk_cs_take_prover_data(cs, &pd[k]));
        cuzk_cs_destroy(cs);
        CHECK(pd[k].n_aux == 103 && pd[k].n_rows == 6 && pd[k].abc_cap >= hint);
    }
    CHECK(memcmp(pd[0].aux, pd[1].aux, 103 * sizeof(cuzk_fr_t)) == 0);
    CHECK(memcmp(pd[0].input, pd[1].input, 2 * sizeof(cuzk_fr_t)) == 0);
    CHECK(memcmp(pd[0].a, pd[1].a, 6 * sizeof(cuzk_fr_t)) == 0);
    CHECK(memcmp(pd[0].b, pd[1].b, 6 * sizeof(cuzk_fr_t)) == 0);
    CHECK(memcmp(pd[0].c, pd[1].c, 6 * sizeof(cuzk_fr_t)) == 0);
    cuzk_prover_data_free(&pd[0]);
    cuzk_prover_data_free(&pd[1]);
}

/* cuzk_cs_reserved: the room each mode reserves from its hints, a forked system counting the
 * fork's variables as cuzk_cs_num_aux does, and growth past a hint. */
CUZK_TEST(r1cs_reserved_room)
{
    size_t aux = 1, rows = 1;
    cuzk_cs *cs;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_PROVE, 1000, 500));
    cuzk_cs_reserved(cs, &aux, &rows);
    CHECK(aux >= 1000 && rows >= 500);
    cuzk_var v;
    cuzk_fr_t x = tu_fr(7);
    for (int i = 0; i < 1500; i++)
        CHECK_OK(cuzk_cs_alloc_aux(cs, &v, &x));
    cuzk_cs_reserved(cs, &aux, NULL);
    CHECK(aux >= 1500);
    cuzk_cs_fork *fork;
    CHECK_OK(cuzk_cs_fork_create(&fork, cs));
    cuzk_cs *child;
    CHECK_OK(cuzk_cs_create_forked(&child, fork, 300, 200));
    cuzk_cs_reserved(child, &aux, &rows);
    CHECK(aux >= 1500 + 300 && aux < 1500 + 300 + 1000 && rows >= 200);
    CHECK(cuzk_cs_num_aux(child) == 1500);
    cuzk_cs_destroy(child);
    cuzk_cs_fork_destroy(fork);
    cuzk_cs_destroy(cs);

    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_WITNESS, 1000, 500));
    cuzk_cs_reserved(cs, &aux, &rows);
    CHECK(aux >= 1000 && rows == 0); /* no a, b, c */
    cuzk_cs_destroy(cs);
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_KEYGEN, 1000, 500));
    cuzk_cs_reserved(cs, &aux, &rows);
    CHECK(aux == 0 && rows == 0); /* no values, no evaluations */
    cuzk_cs_reserved(cs, NULL, NULL);
    cuzk_cs_destroy(cs);
}

CUZK_TEST(r1cs_check_mode_names_first_unsatisfied)
{
    cuzk_cs *cs = tu_cs(CUZK_CS_CHECK);
    tiny(cs, false);
    size_t row = 99;
    const char *where = "x";
    CHECK(cuzk_cs_is_satisfied(cs, &row, &where));
    cuzk_cs_destroy(cs);

    cs = tu_cs(CUZK_CS_CHECK);
    tiny(cs, true);
    CHECK(!cuzk_cs_is_satisfied(cs, &row, &where));
    CHECK(row == 1);
    CHECK_MSG(where && strcmp(where, "outer/inner 7") == 0, "where = %s", where ? where : "NULL");
    cuzk_cs_destroy(cs);

    /* PROVE mode finds the row too (without a name). */
    cs = tu_cs(CUZK_CS_PROVE);
    tiny(cs, true);
    CHECK(!cuzk_cs_is_satisfied(cs, &row, &where));
    CHECK(row == 1 && where == NULL);
    cuzk_cs_destroy(cs);
}

CUZK_TEST(r1cs_misuse)
{
    cuzk_cs *cs = NULL;
    CHECK(cuzk_cs_create(&cs, (cuzk_cs_mode)9, 0, 0) == CUZK_ERR_INVALID_ARG && cs == NULL);
    cs = tu_cs(CUZK_CS_PROVE);
    cuzk_var v;
    CHECK(cuzk_cs_alloc_aux(cs, &v, NULL) == CUZK_ERR_INVALID_ARG); /* value required */
    CHECK_OK(cuzk_cs_finalize(cs));
    CHECK(cuzk_cs_finalize(cs) == CUZK_ERR_INVALID_ARG);
    cuzk_fr_t one = tu_fr(1);
    CHECK(cuzk_cs_alloc_aux(cs, &v, &one) == CUZK_ERR_INVALID_ARG);
    cuzk_lc *a, *b, *c;
    cuzk_cs_lcs(cs, &a, &b, &c);
    CHECK(cuzk_cs_enforce(cs, a, b, c) == CUZK_ERR_INVALID_ARG);
    cuzk_r1cs_matrices m;
    CHECK(cuzk_cs_take_matrices(cs, &m) == CUZK_ERR_INVALID_ARG);
    cuzk_cs_destroy(cs);
    cuzk_cs_destroy(NULL);
    cs = tu_cs(CUZK_CS_KEYGEN);
    CHECK_OK(cuzk_cs_alloc_aux(cs, &v, NULL)); /* no value needed */
    cuzk_prover_data pd;
    CHECK_OK(cuzk_cs_finalize(cs));
    CHECK(cuzk_cs_take_prover_data(cs, &pd) == CUZK_ERR_INVALID_ARG);
    cuzk_cs_destroy(cs);
}

/* LC algebra: add/sub/scaled/pow2/const against a direct computation. */
CUZK_TEST(r1cs_lc_operations)
{
    cuzk_cs *cs = tu_cs(CUZK_CS_PROVE);
    enum { NV = 6 };
    cuzk_var v[NV];
    cuzk_fr_t val[NV];
    for (int i = 0; i < NV; i++) {
        val[i] = tu_fr_rand();
        CHECK_OK(cuzk_cs_alloc_aux(cs, &v[i], &val[i]));
    }
    for (unsigned it = 0; it < test_iters(200); it++) {
        cuzk_lc *x = cuzk_cs_lc_new(cs), *y = cuzk_cs_lc_new(cs);
        cuzk_fr_t ex, ey, t;
        cuzk_fr_set_zero(&ex);
        cuzk_fr_set_zero(&ey);
        unsigned nt = (unsigned)(test_rand_u64() % 12);
        for (unsigned k = 0; k < nt; k++) {
            unsigned i = (unsigned)(test_rand_u64() % NV);
            cuzk_lc *dst = (test_rand_u64() & 1) ? x : y;
            cuzk_fr_t *e = dst == x ? &ex : &ey;
            switch (test_rand_u64() % 6) {
            case 0:
                cuzk_lc_add_var(dst, v[i]);
                cuzk_fr_add(e, e, &val[i]);
                break;
            case 1:
                cuzk_lc_sub_var(dst, v[i]);
                cuzk_fr_sub(e, e, &val[i]);
                break;
            case 2: {
                cuzk_fr_t c = tu_fr_rand();
                cuzk_lc_add(dst, v[i], &c);
                cuzk_fr_mul(&t, &c, &val[i]);
                cuzk_fr_add(e, e, &t);
                break;
            }
            case 3: {
                unsigned p = (unsigned)(test_rand_u64() % 256);
                cuzk_lc_add_pow2(dst, v[i], p);
                cuzk_fr_mul(&t, cuzk_r1cs_pow2(p), &val[i]);
                cuzk_fr_add(e, e, &t);
                break;
            }
            case 4: {
                cuzk_fr_t c = tu_fr_rand();
                cuzk_lc_add_const(dst, &c);
                cuzk_fr_add(e, e, &c);
                break;
            }
            default: {
                cuzk_fr_t c;
                cuzk_fr_set_one(&c);
                cuzk_fr_neg(&c, &c);
                cuzk_lc_add(dst, v[i], &c); /* -1 through the general entry point */
                cuzk_fr_sub(e, e, &val[i]);
                break;
            }
            }
        }
        cuzk_fr_t got;
        cuzk_lc_eval(x, &got);
        CHECK(cuzk_fr_eq(&got, &ex));
        cuzk_fr_t s = tu_fr_rand();
        switch (it % 3) {
        case 0:
            cuzk_lc_add_lc(x, y);
            cuzk_fr_add(&ex, &ex, &ey);
            break;
        case 1:
            cuzk_lc_sub_lc(x, y);
            cuzk_fr_sub(&ex, &ex, &ey);
            break;
        default:
            cuzk_lc_add_lc_scaled(x, y, &s);
            cuzk_fr_mul(&t, &s, &ey);
            cuzk_fr_add(&ex, &ex, &t);
            break;
        }
        cuzk_lc_eval(x, &got);
        CHECK(cuzk_fr_eq(&got, &ex));
        cuzk_cs_lc_free(cs, x);
        cuzk_cs_lc_free(cs, y);
    }
    cuzk_cs_destroy(cs);
}

/* Many general coefficients in one LC (Poseidon's MDS rows have ~10): coefficients and values
 * at r - 1 - small and random, 2 to 3000 terms, values 0 and 1 mixed in (skipped or added
 * without a product), against products and sums of cuzk_fr. */
CUZK_TEST(r1cs_lc_eval_general_sums)
{
    cuzk_cs *cs = tu_cs(CUZK_CS_PROVE);
    enum { NV = 64 };
    cuzk_var v[NV];
    cuzk_fr_t val[NV], m1;
    cuzk_fr_set_one(&m1);
    cuzk_fr_neg(&m1, &m1);
    for (int i = 0; i < NV; i++) {
        if (i == 0)
            cuzk_fr_set_zero(&val[i]);
        else if (i == 1)
            cuzk_fr_set_one(&val[i]);
        else if (i < 32)
            cuzk_fr_sub(&val[i], &m1, &(cuzk_fr_t){{(uint64_t)i, 0, 0, 0}}); /* near r */
        else
            val[i] = tu_fr_rand();
        CHECK_OK(cuzk_cs_alloc_aux(cs, &v[i], &val[i]));
    }
    const unsigned counts[] = {2, 3, 9, 10, 17, 100, 3000};
    for (unsigned it = 0; it < test_iters(60); it++) {
        unsigned n = counts[it % (sizeof counts / sizeof counts[0])];
        cuzk_lc *x = cuzk_cs_lc_new(cs);
        cuzk_fr_t ex, t;
        cuzk_fr_set_zero(&ex);
        for (unsigned k = 0; k < n; k++) {
            unsigned i = (unsigned)(test_rand_u64() % NV);
            cuzk_fr_t c;
            if (it & 1)
                cuzk_fr_sub(&c, &m1, &(cuzk_fr_t){{k, 0, 0, 0}}); /* largest representatives */
            else
                c = tu_fr_rand();
            cuzk_lc_add(x, v[i], &c);
            cuzk_fr_mul(&t, &c, &val[i]);
            cuzk_fr_add(&ex, &ex, &t);
        }
        if (it % 3 == 0) { /* linear terms beside the products */
            cuzk_lc_add_var(x, v[5]);
            cuzk_lc_sub_var(x, v[40]);
            cuzk_fr_add(&ex, &ex, &val[5]);
            cuzk_fr_sub(&ex, &ex, &val[40]);
        }
        cuzk_fr_t got;
        cuzk_lc_eval(x, &got);
        CHECK_MSG(cuzk_fr_eq(&got, &ex), "iteration %u, %u terms", it, n);
        cuzk_cs_lc_free(cs, x);
    }
    cuzk_cs_destroy(cs);
}

/* Density follows merged coefficients: x + x is dense, x - x is not, in A and in B. */
CUZK_TEST(r1cs_density_merges_duplicates)
{
    for (int mode = 0; mode < 2; mode++) {
        cuzk_cs *cs = tu_cs(mode ? CUZK_CS_KEYGEN : CUZK_CS_PROVE);
        cuzk_fr_t one = tu_fr(1);
        cuzk_var v[4], in;
        for (int i = 0; i < 4; i++)
            CHECK_OK(cuzk_cs_alloc_aux(cs, &v[i], mode ? NULL : &one));
        CHECK_OK(cuzk_cs_alloc_input(cs, &in, mode ? NULL : &one));
        cuzk_lc *a, *b, *c;
        cuzk_cs_lcs(cs, &a, &b, &c);
        cuzk_lc_add_var(a, v[0]); /* v0 + v0: dense */
        cuzk_lc_add_var(a, v[0]);
        cuzk_lc_add_var(a, v[1]); /* v1 - v1: not dense */
        cuzk_lc_sub_var(a, v[1]);
        cuzk_fr_t three = tu_fr(3), m3;
        cuzk_fr_neg(&m3, &three);
        cuzk_lc_add(b, v[2], &three); /* 3 v2 - 3 v2: not dense */
        cuzk_lc_add(b, v[2], &m3);
        cuzk_lc_add_var(b, in); /* in - in + in: dense */
        cuzk_lc_sub_var(b, in);
        cuzk_lc_add_var(b, in);
        cuzk_lc_add_var(b, v[3]);
        cuzk_lc_sub_var(b, v[3]);
        CHECK_OK(cuzk_cs_enforce(cs, a, b, c));
        CHECK_OK(cuzk_cs_finalize(cs));
        if (!mode) {
            cuzk_prover_data pd;
            CHECK_OK(cuzk_cs_take_prover_data(cs, &pd));
            CHECK(tu_bit(pd.a_aux_density, 0) && !tu_bit(pd.a_aux_density, 1));
            CHECK(pd.a_aux_popcount == 1);
            CHECK(!tu_bit(pd.b_aux_density, 2) && !tu_bit(pd.b_aux_density, 3));
            CHECK(pd.b_aux_popcount == 0);
            CHECK(tu_bit(pd.b_input_density, 1) && !tu_bit(pd.b_input_density, 0));
            CHECK(pd.b_input_popcount == 1);
            cuzk_prover_data_free(&pd);
        } else {
            cuzk_r1cs_matrices m;
            CHECK_OK(cuzk_cs_take_matrices(cs, &m));
            CHECK(m.a.row_ptr[1] == 1 && m.a.col[0] == 2 + 0); /* only v0, coefficient 2 */
            cuzk_fr_t two = tu_fr(2);
            CHECK(cuzk_fr_eq(&m.a.coeff[0], &two));
            CHECK(m.b.row_ptr[1] == 1 && m.b.col[0] == 1); /* only the input */
            cuzk_r1cs_matrices_free(&m);
        }
        cuzk_cs_destroy(cs);
    }
}

/* Large LCs take the sorting path of the density code. */
CUZK_TEST(r1cs_density_large_lc)
{
    cuzk_cs *cs = tu_cs(CUZK_CS_PROVE);
    enum { N = 300 };
    cuzk_var v[N];
    cuzk_fr_t one = tu_fr(1);
    for (int i = 0; i < N; i++)
        CHECK_OK(cuzk_cs_alloc_aux(cs, &v[i], &one));
    cuzk_lc *a, *b, *c;
    cuzk_cs_lcs(cs, &a, &b, &c);
    for (int i = N - 1; i >= 0; i--) {
        cuzk_lc_add_var(a, v[i]);
        if (i % 3 == 0)
            cuzk_lc_sub_var(a, v[i]); /* cancels every third */
    }
    CHECK_OK(cuzk_cs_enforce(cs, a, b, c));
    CHECK_OK(cuzk_cs_finalize(cs));
    cuzk_prover_data pd;
    CHECK_OK(cuzk_cs_take_prover_data(cs, &pd));
    for (int i = 0; i < N; i++)
        CHECK_MSG(tu_bit(pd.a_aux_density, (size_t)i) == (i % 3 != 0), "bit %d", i);
    CHECK(pd.a_aux_popcount == N - N / 3);
    cuzk_prover_data_free(&pd);
    cuzk_cs_destroy(cs);
}

CUZK_TEST(r1cs_circuit_registry)
{
    cuzk_circuit c;
    CHECK_OK(cuzk_circuit_find("sha256-chain:4", &c));
    CHECK(strcmp(c.name, "sha256-chain") == 0 && c.params.arg == 4 && c.synth && c.description);
    CHECK_OK(cuzk_circuit_find("sha256-chain", &c));
    CHECK(c.params.arg == 1);
    CHECK(cuzk_circuit_find("sha256-chain:0", &c) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_circuit_find("sha256-chain:x", &c) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_circuit_find("sha256-chain:", &c) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_circuit_find("sha256-chai:1", &c) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_circuit_find("nope", &c) == CUZK_ERR_INVALID_ARG);
    bool found = false;
    for (size_t i = 0; cuzk_circuit_registry_name(i); i++)
        found |= strcmp(cuzk_circuit_registry_name(i), "sha256-chain") == 0;
    CHECK(found);
}

/* Evaluation sums unreduced and reduces once: extreme values and long LCs. */
CUZK_TEST(r1cs_lc_eval_extremes)
{
    cuzk_cs *cs = tu_cs(CUZK_CS_PROVE);
    cuzk_fr_t m1, two = tu_fr(2);
    cuzk_fr_set_one(&m1);
    cuzk_fr_neg(&m1, &m1);
    cuzk_var v, w;
    CHECK_OK(cuzk_cs_alloc_aux(cs, &v, &m1));
    CHECK_OK(cuzk_cs_alloc_aux(cs, &w, &two));
    const size_t counts[] = {1, 2, 3, 10, 1000, 100000};
    for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
        size_t n = counts[ci];
        cuzk_lc *x = cuzk_cs_lc_new(cs), *y = cuzk_cs_lc_new(cs), *z = cuzk_cs_lc_new(cs);
        for (size_t i = 0; i < n; i++) {
            cuzk_lc_add_var(x, v);  /* n (r - 1) */
            cuzk_lc_sub_var(y, v);  /* -n (r - 1) = n */
            cuzk_lc_add(z, w, &m1); /* n (r - 1) 2 = -2n */
        }
        cuzk_fr_t got, want = tu_fr(n);
        cuzk_lc_eval(y, &got);
        CHECK(cuzk_fr_eq(&got, &want));
        cuzk_fr_neg(&want, &want);
        cuzk_lc_eval(x, &got);
        CHECK(cuzk_fr_eq(&got, &want));
        cuzk_fr_dbl(&want, &want);
        cuzk_lc_eval(z, &got);
        CHECK(cuzk_fr_eq(&got, &want));
        cuzk_lc_add_lc(x, y); /* 0 */
        cuzk_lc_eval(x, &got);
        CHECK(cuzk_fr_is_zero(&got));
        cuzk_cs_lc_free(cs, x);
        cuzk_cs_lc_free(cs, y);
        cuzk_cs_lc_free(cs, z);
    }
    cuzk_cs_destroy(cs);
}

/* WITNESS mode's hot gadgets count their constraints without LCs (cuzk_cs_enforce_none): the
 * same variables, values and constraint count as PROVE for SHA-256 and PoRep circuits; and
 * cuzk_cs_enforce_none refused where constraints are kept. */
CUZK_TEST(r1cs_witness_counts_as_prove)
{
    static const char *SPECS[] = {"sha256-chain:3", "fil-porep:0"};
    uint64_t seed = test_rand_u64();
    for (size_t k = 0; k < 2; k++) {
        cuzk_prover_data p, w;
        tu_spec_prover_data(&p, SPECS[k], CUZK_CS_PROVE, 1, seed);
        tu_spec_prover_data(&w, SPECS[k], CUZK_CS_WITNESS, 1, seed);
        CHECK_MSG(p.n_constraints == w.n_constraints && p.n_aux == w.n_aux &&
                      p.n_inputs == w.n_inputs,
                  "%s: %zu / %zu constraints, %zu / %zu aux", SPECS[k], p.n_constraints,
                  w.n_constraints, p.n_aux, w.n_aux);
        CHECK_MSG(!memcmp(p.aux, w.aux, p.n_aux * sizeof(cuzk_fr_t)), "%s: aux", SPECS[k]);
        CHECK_MSG(!memcmp(p.input, w.input, p.n_inputs * sizeof(cuzk_fr_t)), "%s: inputs",
                  SPECS[k]);
        cuzk_prover_data_free(&p);
        cuzk_prover_data_free(&w);
    }
    static const cuzk_cs_mode KEEP[] = {CUZK_CS_PROVE, CUZK_CS_PROVE_AB, CUZK_CS_CHECK,
                                        CUZK_CS_KEYGEN};
    for (size_t m = 0; m < 4; m++) {
        cuzk_cs *cs = tu_cs(KEEP[m]);
        CHECK(cuzk_cs_enforce_none(cs) == CUZK_ERR_INVALID_ARG);
        CHECK(cuzk_cs_num_constraints(cs) == 0 && cuzk_cs_status(cs) == CUZK_OK);
        cuzk_cs_destroy(cs);
    }
    cuzk_cs *cs = tu_cs(CUZK_CS_WITNESS);
    CHECK_OK(cuzk_cs_enforce_none(cs));
    CHECK_OK(cuzk_cs_enforce_none(cs));
    CHECK(cuzk_cs_num_constraints(cs) == 2);
    cuzk_cs_destroy(cs);
}

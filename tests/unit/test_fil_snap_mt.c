/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * SnapDeals synthesis on several threads (cuzk_fil_snap_circuit_mt) against the one-thread
 * system, bit for bit (PROVE, PROVE_AB, CHECK, WITNESS, and WITNESS + PCE against PROVE); the
 * forked systems it rests on (cuzk_cs_fork_create, cuzk_cs_create_forked, cuzk_cs_extend of a
 * forked system) on a hand-made circuit; the range driver's failure order
 * (cuzk__fil_synth_ranges).
 */
#include "test.h"
#include "test_fil_snap_util.h"
#include "test_r1cs_util.h"

#include "filecoin/post_circuit.h"
#include "filecoin/snap_circuit.h"

#include <stdio.h>
#include <string.h>

static const unsigned THREADS[] = {2, 3, 7};

CUZK_TEST(fil_snap_threads_match_sequential_2k)
{
    static const cuzk_cs_mode MODES[] = {CUZK_CS_PROVE, CUZK_CS_WITNESS};
    uint64_t seed = test_rand_u64();
    for (size_t m = 0; m < 2; m++) {
        cuzk_prover_data x, y;
        tu_spec_prover_data(&x, "fil-snap:0", MODES[m], 1, seed);
        CHECK(x.n_constraints == 1705039);
        for (size_t t = 0; t < 3; t++) {
            tu_spec_prover_data(&y, "fil-snap:0", MODES[m], THREADS[t], seed);
            char what[64];
            snprintf(what, sizeof what, "fil-snap:0 mode %d, %u threads", (int)MODES[m],
                     THREADS[t]);
            tu_prover_data_same(&x, &y, what);
            cuzk_prover_data_free(&y);
        }
        cuzk_prover_data_free(&x);
    }
    /* 8 MiB (10 M constraints, 128 apex leaves: a first row of 64 hashes), witness only. */
    cuzk_prover_data x, y;
    tu_spec_prover_data(&x, "fil-snap:1", CUZK_CS_WITNESS, 1, seed);
    tu_spec_prover_data(&y, "fil-snap:1", CUZK_CS_WITNESS, 3, seed);
    tu_prover_data_same(&x, &y, "fil-snap:1 witness, 3 threads");
    cuzk_prover_data_free(&x);
    cuzk_prover_data_free(&y);
}

/* The small shape's partition |p| in |mode| on |threads|; finalised. */
static cuzk_cs *small(const cuzk_fil_snap_partition *p, cuzk_cs_mode mode, unsigned threads)
{
    cuzk_cs *cs = tu_cs(mode);
    CHECK_MSG(cuzk_fil_snap_circuit_mt(cs, &p->shape, p->k, &p->w, threads) == CUZK_OK,
              "%u threads: %s", threads, cuzk_last_error());
    CHECK_OK(cuzk_cs_finalize(cs));
    return cs;
}

CUZK_TEST(fil_snap_threads_match_sequential_small)
{
    /* Both partitions of a 2-partition shape (3 challenges): PROVE on 2, 3 and 7 threads, the
     * other modes with values on 3 (partition 0). */
    cuzk_fil_snap_shape sh = test_snap_small_shape();
    static const cuzk_cs_mode MODES[] = {CUZK_CS_PROVE, CUZK_CS_PROVE_AB, CUZK_CS_CHECK,
                                         CUZK_CS_WITNESS};
    uint64_t seed = test_rand_u64();
    for (uint64_t k = 0; k < 2; k++) {
        cuzk_fil_snap_partition *p;
        CHECK_OK(cuzk__fil_snap_partition_synthetic_shape(&p, &sh, k, seed));
        for (size_t m = 0; m < (k == 0 ? 4 : 1); m++) {
            cuzk_cs *ref = small(p, MODES[m], 1);
            if (MODES[m] == CUZK_CS_CHECK)
                CHECK(cuzk_cs_is_satisfied(ref, NULL, NULL));
            cuzk_prover_data x;
            CHECK_OK(cuzk_cs_take_prover_data(ref, &x));
            for (size_t t = m == 0 ? 0 : 1; t < (m == 0 ? 3 : 2); t++) {
                cuzk_cs *cs = small(p, MODES[m], THREADS[t]);
                if (MODES[m] == CUZK_CS_CHECK)
                    CHECK(cuzk_cs_is_satisfied(cs, NULL, NULL));
                cuzk_prover_data y;
                CHECK_OK(cuzk_cs_take_prover_data(cs, &y));
                char what[64];
                snprintf(what, sizeof what, "k %llu mode %d, %u threads", (unsigned long long)k,
                         (int)MODES[m], THREADS[t]);
                tu_prover_data_same(&x, &y, what);
                cuzk_prover_data_free(&y);
                cuzk_cs_destroy(cs);
            }
            cuzk_prover_data_free(&x);
            cuzk_cs_destroy(ref);
        }
        if (k == 1) {
            cuzk_fil_snap_partition_destroy(p);
            break;
        }
        /* KEYGEN stays on one thread: the same matrices' counts whatever the threads. */
        cuzk_cs *k1 = tu_cs(CUZK_CS_KEYGEN), *k3 = tu_cs(CUZK_CS_KEYGEN);
        CHECK_OK(cuzk_fil_snap_circuit_mt(k1, &sh, k, NULL, 1));
        CHECK_OK(cuzk_fil_snap_circuit_mt(k3, &sh, k, NULL, 3));
        CHECK(cuzk_cs_num_constraints(k1) == cuzk_cs_num_constraints(k3) &&
              cuzk_cs_num_aux(k1) == cuzk_cs_num_aux(k3));
        cuzk_cs_destroy(k1);
        cuzk_cs_destroy(k3);

        /* CHECK mode: challenge 2's tree D sibling changed; the same first failing row and
         * namespace on any thread count. */
        size_t ld = cuzk_fil_snap_path_len_d(&sh);
        cuzk_fr_t *sib = (cuzk_fr_t *)&p->w.paths_d[2 * ld + 1], keep = *sib;
        cuzk_fr_add(sib, sib, cuzk_r1cs_pow2(0));
        size_t r1 = 0, r3 = 0;
        const char *w1 = NULL, *w3 = NULL;
        cuzk_cs *c1 = small(p, CUZK_CS_CHECK, 1), *c3 = small(p, CUZK_CS_CHECK, 3);
        CHECK(!cuzk_cs_is_satisfied(c1, &r1, &w1) && !cuzk_cs_is_satisfied(c3, &r3, &w3));
        CHECK_MSG(r1 == r3 && w1 && w3 && strcmp(w1, w3) == 0, "rows %zu / %zu, %s / %s", r1, r3,
                  w1 ? w1 : "-", w3 ? w3 : "-");
        CHECK(w1 && strstr(w1, "c_index=2") != NULL);
        cuzk_cs_destroy(c1);
        cuzk_cs_destroy(c3);
        *sib = keep;

        /* A failing challenge range fails the synthesis with its status and message. */
        const cuzk_fr_t *paths = p->w.paths_r_new;
        p->w.paths_r_new = NULL;
        for (unsigned t = 1; t <= 7; t += 6) {
            cuzk_cs *cs = tu_cs(CUZK_CS_PROVE);
            CHECK(cuzk_fil_snap_circuit_mt(cs, &sh, k, &p->w, t) == CUZK_ERR_INVALID_ARG);
            CHECK_MSG(strstr(cuzk_last_error(), "value missing") != NULL, "%s", cuzk_last_error());
            cuzk_cs_destroy(cs);
        }
        p->w.paths_r_new = paths;
        cuzk_fil_snap_partition_destroy(p);
    }
}

CUZK_TEST(fil_snap_threads_match_sequential_apex32)
{
    /* 32 apex leaves: the first row's 16 hashes split over 3 threads (more ranges than the
     * lookahead window), the other rows on the caller's thread; PROVE. */
    cuzk_fil_snap_shape sh = test_snap_small_shape();
    sh.apex_leaves = 32;
    sh.apex_bits = 5;
    cuzk_fil_snap_partition *p;
    CHECK_OK(cuzk__fil_snap_partition_synthetic_shape(&p, &sh, 1, test_rand_u64()));
    cuzk_cs *ref = small(p, CUZK_CS_PROVE, 1), *cs = small(p, CUZK_CS_PROVE, 3);
    cuzk_prover_data x, y;
    CHECK_OK(cuzk_cs_take_prover_data(ref, &x));
    CHECK_OK(cuzk_cs_take_prover_data(cs, &y));
    tu_prover_data_same(&x, &y, "32 apex leaves, 3 threads");
    cuzk_prover_data_free(&x);
    cuzk_prover_data_free(&y);
    cuzk_cs_destroy(ref);
    cuzk_cs_destroy(cs);
    cuzk_fil_snap_partition_destroy(p);
}

CUZK_TEST(fil_snap_threads_pce_matches_prove)
{
    /* The PCE path: a WITNESS synthesis on 3 threads evaluated through the matrices of a KEYGEN
     * synthesis gives the one-thread PROVE system's a, b, c and densities ("fil-snap:0" made the
     * small shape for the test, partition 1 = seed 1). */
    cuzk_fil_snap_shape sh = test_snap_small_shape();
    cuzk__fil_snap_test_shape = &sh;
    cuzk_circuit c;
    CHECK_OK(cuzk_circuit_find("fil-snap:0", &c));
    c.params.seed = 1;
    cuzk_pce *pce = NULL;
    CHECK_OK(cuzk_pce_extract(&pce, &c));
    cuzk_prover_data x, y;
    cuzk_cs *cs = tu_cs(CUZK_CS_PROVE);
    CHECK_OK(cuzk_circuit_synthesize(cs, &c));
    CHECK_OK(cuzk_cs_take_prover_data(cs, &x));
    cuzk_cs_destroy(cs);
    c.params.threads = 3;
    cs = tu_cs(CUZK_CS_WITNESS);
    CHECK_OK(cuzk_circuit_synthesize(cs, &c));
    CHECK_OK(cuzk_cs_take_prover_data(cs, &y));
    cuzk_cs_destroy(cs);
    CHECK_OK(cuzk_pce_eval_into(pce, NULL, &y));
    tu_prover_data_same(&x, &y, "PCE over a 3-thread witness");
    cuzk_prover_data_free(&x);
    cuzk_prover_data_free(&y);
    cuzk_pce_destroy(pce);
    cuzk__fil_snap_test_shape = NULL;
}

/* ---- forked systems ------------------------------------------------------------------------- */

/* The prefix: input x, aux y, z = x * y. */
static void prefix(cuzk_cs *cs, cuzk_var v[3], const cuzk_fr_t val[3])
{
    CHECK_OK(cuzk_cs_alloc_input(cs, &v[0], &val[0]));
    CHECK_OK(cuzk_cs_alloc_aux(cs, &v[1], &val[1]));
    CHECK_OK(cuzk_cs_alloc_aux(cs, &v[2], &val[2]));
    cuzk_lc *a, *b, *c;
    cuzk_cs_lcs(cs, &a, &b, &c);
    cuzk_lc_add_var(a, v[0]);
    cuzk_lc_add_var(b, v[1]);
    cuzk_lc_add_var(c, v[2]);
    CHECK_OK(cuzk_cs_enforce(cs, a, b, c));
}

/* Part |i| (uses the prefix's variables): input p = i, aux w = z + p, t = (w - 1) * (x + p) and
 * (w - ONE + y - y) * (x + p) = t: y's A terms cancel (no mark); part 1 adds z to B and
 * e = (w - 1) * z to C. */
static void part(cuzk_cs *cs, const cuzk_var v[3], const cuzk_fr_t val[3], uint64_t i)
{
    cuzk_var p, w, t;
    cuzk_fr_t pv = tu_fr(i), wv, tv, x1, w1;
    CHECK_OK(cuzk_cs_alloc_input(cs, &p, &pv));
    cuzk_fr_add(&wv, &val[2], &pv);
    CHECK_OK(cuzk_cs_alloc_aux(cs, &w, &wv));
    cuzk_fr_t one = tu_fr(1);
    cuzk_fr_sub(&w1, &wv, &one);
    cuzk_fr_add(&x1, &val[0], &pv);
    cuzk_fr_mul(&tv, &w1, &x1);
    CHECK_OK(cuzk_cs_alloc_aux(cs, &t, &tv));
    cuzk_lc *a, *b, *c;
    cuzk_cs_lcs(cs, &a, &b, &c);
    cuzk_lc_add_var(a, w);
    cuzk_lc_sub_var(a, cuzk_var_one());
    cuzk_lc_add_var(a, v[1]);
    cuzk_lc_sub_var(a, v[1]);
    cuzk_lc_add_var(b, v[0]);
    cuzk_lc_add_var(b, p);
    cuzk_lc_add_var(c, t);
    if (i == 1) {
        /* B gains z (terms +z -z +z: one mark) and C the product (w - 1) * z as aux e. */
        cuzk_lc_add_var(b, v[2]);
        cuzk_lc_sub_var(b, v[2]);
        cuzk_lc_add_var(b, v[2]);
        cuzk_fr_t ev;
        cuzk_fr_mul(&ev, &w1, &val[2]);
        cuzk_var e;
        CHECK_OK(cuzk_cs_alloc_aux(cs, &e, &ev));
        cuzk_lc_add_var(c, e);
    }
    CHECK_OK(cuzk_cs_enforce(cs, a, b, c));
}

CUZK_TEST(r1cs_fork_extend_matches_sequential)
{
    static const cuzk_cs_mode MODES[] = {CUZK_CS_PROVE, CUZK_CS_PROVE_AB, CUZK_CS_CHECK,
                                         CUZK_CS_WITNESS};
    cuzk_fr_t val[3] = {tu_fr_rand(), tu_fr_rand()};
    cuzk_fr_mul(&val[2], &val[0], &val[1]);
    for (size_t m = 0; m < 4; m++) {
        cuzk_cs *seq = tu_cs(MODES[m]), *par = tu_cs(MODES[m]);
        cuzk_var v[3], u[3];
        prefix(seq, v, val);
        for (uint64_t i = 0; i < 3; i++)
            part(seq, v, val, i);
        prefix(par, u, val);
        cuzk_cs_fork *f;
        CHECK_OK(cuzk_cs_fork_create(&f, par));
        cuzk_cs *kid[3];
        for (uint64_t i = 0; i < 3; i++) {
            CHECK_OK(cuzk_cs_create_forked(&kid[i], f, 0, 0));
            /* The fork's variables read from the copy, the system's own after them. */
            cuzk_fr_t got;
            cuzk_cs_value(kid[i], &got, u[1]);
            CHECK(MODES[m] == CUZK_CS_WITNESS || cuzk_fr_eq(&got, &val[1]));
            part(kid[i], u, val, i);
            CHECK(cuzk_cs_num_aux(kid[i]) == 2 + 2 + (i == 1));
            CHECK(cuzk_cs_finalize(kid[i]) == CUZK_ERR_INVALID_ARG);
            cuzk_cs_fork *g;
            CHECK(cuzk_cs_fork_create(&g, kid[i]) == CUZK_ERR_INVALID_ARG && g == NULL);
        }
        /* The parent changes after the fork (the first part merged) before the others. */
        for (uint64_t i = 0; i < 3; i++)
            CHECK_OK(cuzk_cs_extend(par, kid[i]));
        CHECK(cuzk_cs_extend(kid[0], kid[1]) == CUZK_ERR_INVALID_ARG); /* into a forked one */
        for (uint64_t i = 0; i < 3; i++)
            cuzk_cs_destroy(kid[i]);
        cuzk_cs_fork_destroy(f);
        CHECK_OK(cuzk_cs_finalize(seq));
        CHECK_OK(cuzk_cs_finalize(par));
        if (MODES[m] == CUZK_CS_CHECK)
            CHECK(cuzk_cs_is_satisfied(seq, NULL, NULL) && cuzk_cs_is_satisfied(par, NULL, NULL));
        cuzk_prover_data x, y;
        CHECK_OK(cuzk_cs_take_prover_data(seq, &x));
        CHECK_OK(cuzk_cs_take_prover_data(par, &y));
        CHECK(x.n_inputs == 5 && x.n_aux == 9);
        if (x.a)
            CHECK(x.b_aux_popcount > 0);
        char what[32];
        snprintf(what, sizeof what, "mode %d", (int)MODES[m]);
        tu_prover_data_same(&x, &y, what);
        cuzk_prover_data_free(&y);
        /* One forked system reused part after part (cuzk_cs_reset_forked). */
        cuzk_cs *par2 = tu_cs(MODES[m]), *one = NULL;
        prefix(par2, u, val);
        CHECK_OK(cuzk_cs_fork_create(&f, par2));
        CHECK_OK(cuzk_cs_create_forked(&one, f, 0, 0));
        for (uint64_t i = 0; i < 3; i++) {
            if (i)
                CHECK_OK(cuzk_cs_reset_forked(one));
            CHECK(cuzk_cs_num_aux(one) == 2 && cuzk_cs_num_constraints(one) == 0);
            part(one, u, val, i);
            CHECK_OK(cuzk_cs_extend(par2, one));
        }
        cuzk_cs_destroy(one);
        cuzk_cs_fork_destroy(f);
        CHECK(cuzk_cs_reset_forked(par2) == CUZK_ERR_INVALID_ARG); /* not forked */
        CHECK_OK(cuzk_cs_finalize(par2));
        CHECK_OK(cuzk_cs_take_prover_data(par2, &y));
        tu_prover_data_same(&x, &y, what);
        cuzk_cs_destroy(par2);
        cuzk_prover_data_free(&x);
        cuzk_prover_data_free(&y);
        cuzk_cs_destroy(seq);
        cuzk_cs_destroy(par);
    }
}

/* Parts 0, 1, 2 (2, 3 and 2 own aux) in forked systems placed in |par| at the given offsets
 * after the fork (sizes |cnt|), then merged in order; |unplace| systems are moved out first (the
 * caller's duty when an earlier one outgrew its place). Returns the merged prover data. */
static void placed_parts(cuzk_prover_data *out, cuzk_cs_mode mode, const cuzk_fr_t val[3],
                         const size_t off[3], const size_t cnt[3], const bool want_placed[3],
                         const bool unplace[3])
{
    cuzk_cs *par;
    CHECK_OK(cuzk_cs_create(&par, mode, 100, 0));
    size_t room;
    cuzk_cs_reserved(par, &room, NULL);
    CHECK(room == 100); /* the hint exactly */
    cuzk_var u[3];
    prefix(par, u, val);
    size_t fa = cuzk_cs_num_aux(par);
    cuzk_cs_fork *f;
    CHECK_OK(cuzk_cs_fork_create(&f, par));
    cuzk_cs *kid[3];
    for (uint64_t i = 0; i < 3; i++) {
        CHECK_OK(cuzk_cs_create_forked(&kid[i], f, 0, 0));
        CHECK_OK(cuzk_cs_place_forked(kid[i], par, fa + off[i], cnt[i]));
        CHECK(cuzk_cs_is_placed(kid[i]));
    }
    for (uint64_t i = 0; i < 3; i++) {
        part(kid[i], u, val, i);
        CHECK_MSG(cuzk_cs_is_placed(kid[i]) == want_placed[i], "part %llu placed: %d",
                  (unsigned long long)i, (int)cuzk_cs_is_placed(kid[i]));
        /* Its own values read back wherever they are. */
        cuzk_fr_t got, want = tu_fr(i);
        cuzk_fr_add(&want, &want, &val[2]);
        cuzk_cs_value(kid[i], &got, cuzk_var_aux((uint32_t)fa));
        CHECK(cuzk_fr_eq(&got, &want));
    }
    for (int i = 0; i < 3; i++)
        if (unplace[i]) {
            CHECK_OK(cuzk_cs_unplace(kid[i]));
            CHECK(!cuzk_cs_is_placed(kid[i]));
        }
    for (int i = 0; i < 3; i++)
        CHECK_OK(cuzk_cs_extend(par, kid[i]));
    /* A reset lets the place go: the merged values there are never written again. */
    CHECK_OK(cuzk_cs_reset_forked(kid[2]));
    CHECK(!cuzk_cs_is_placed(kid[2]));
    for (int i = 0; i < 3; i++)
        cuzk_cs_destroy(kid[i]);
    cuzk_cs_fork_destroy(f);
    CHECK_OK(cuzk_cs_finalize(par));
    CHECK_OK(cuzk_cs_take_prover_data(par, out));
    cuzk_cs_destroy(par);
}

CUZK_TEST(r1cs_place_forked)
{
    static const cuzk_cs_mode MODES[] = {CUZK_CS_PROVE, CUZK_CS_WITNESS};
    cuzk_fr_t val[3] = {tu_fr_rand(), tu_fr_rand()};
    cuzk_fr_mul(&val[2], &val[0], &val[1]);
    for (size_t m = 0; m < 2; m++) {
        cuzk_cs *seq = tu_cs(MODES[m]);
        cuzk_var v[3];
        prefix(seq, v, val);
        for (uint64_t i = 0; i < 3; i++)
            part(seq, v, val, i);
        CHECK_OK(cuzk_cs_finalize(seq));
        cuzk_prover_data x, y;
        CHECK_OK(cuzk_cs_take_prover_data(seq, &x));
        cuzk_cs_destroy(seq);
        static const bool all[3] = {true, true, true}, none[3] = {false, false, false};
        /* Exact places: each merged where it lies. */
        static const size_t exact_off[3] = {0, 2, 5}, exact_cnt[3] = {2, 3, 2};
        placed_parts(&y, MODES[m], val, exact_off, exact_cnt, all, none);
        tu_prover_data_same(&x, &y, "exact places");
        cuzk_prover_data_free(&y);
        /* Places of 3: parts 1 and 2 moved down at their merges. */
        static const size_t wide_off[3] = {0, 3, 6}, wide_cnt[3] = {3, 3, 3};
        placed_parts(&y, MODES[m], val, wide_off, wide_cnt, all, none);
        tu_prover_data_same(&x, &y, "wide places");
        cuzk_prover_data_free(&y);
        /* Places of 2: part 1 outgrows its place; part 2 is moved out before the merges. */
        static const size_t tight_off[3] = {0, 2, 4}, tight_cnt[3] = {2, 2, 2};
        static const bool tight_placed[3] = {true, false, true},
                          tight_unplace[3] = {false, false, true};
        placed_parts(&y, MODES[m], val, tight_off, tight_cnt, tight_placed, tight_unplace);
        tu_prover_data_same(&x, &y, "tight places");
        cuzk_prover_data_free(&y);
        cuzk_prover_data_free(&x);
    }
    /* Refusals: not forked, a forked parent, outside the reservation or before the fork's
     * aux, an empty place, a system with variables, another mode. */
    cuzk_cs *par, *kid, *kid2;
    CHECK_OK(cuzk_cs_create(&par, CUZK_CS_WITNESS, 100, 0));
    cuzk_var u[3];
    prefix(par, u, val);
    size_t fa = cuzk_cs_num_aux(par);
    cuzk_cs_fork *f;
    CHECK_OK(cuzk_cs_fork_create(&f, par));
    CHECK_OK(cuzk_cs_create_forked(&kid, f, 0, 0));
    CHECK_OK(cuzk_cs_create_forked(&kid2, f, 0, 0));
    CHECK(cuzk_cs_place_forked(par, par, fa, 2) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_cs_place_forked(kid, kid2, fa, 2) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_cs_place_forked(kid, par, fa, 101 - fa) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_cs_place_forked(kid, par, fa - 1, 2) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_cs_place_forked(kid, par, fa, 0) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_cs_place_forked(NULL, par, fa, 2) == CUZK_ERR_INVALID_ARG);
    CHECK(!cuzk_cs_is_placed(kid) && !cuzk_cs_is_placed(NULL));
    CHECK_OK(cuzk_cs_place_forked(kid, par, fa, 100 - fa));
    part(kid2, u, val, 0);
    CHECK(cuzk_cs_place_forked(kid2, par, fa, 2) == CUZK_ERR_INVALID_ARG); /* has variables */
    CHECK_OK(cuzk_cs_unplace(kid2));                                       /* not placed: no-op */
    cuzk_cs_destroy(kid);
    cuzk_cs_destroy(kid2);
    cuzk_cs_fork_destroy(f);
    cuzk_cs_destroy(par);
    cuzk_cs *k = tu_cs(CUZK_CS_KEYGEN), *w = tu_cs(CUZK_CS_WITNESS);
    CHECK(cuzk_cs_place_forked(k, w, 1, 1) == CUZK_ERR_INVALID_ARG);
    cuzk_cs_destroy(k);
    cuzk_cs_destroy(w);
}

CUZK_TEST(r1cs_fork_rejects)
{
    cuzk_cs_fork *f = (cuzk_cs_fork *)1;
    cuzk_cs *k = tu_cs(CUZK_CS_KEYGEN), *p = tu_cs(CUZK_CS_PROVE), *w = tu_cs(CUZK_CS_WITNESS);
    CHECK(cuzk_cs_fork_create(&f, k) == CUZK_ERR_INVALID_ARG && f == NULL); /* KEYGEN */
    CHECK(cuzk_cs_fork_create(&f, NULL) == CUZK_ERR_INVALID_ARG);
    cuzk_cs *kid = (cuzk_cs *)1;
    CHECK(cuzk_cs_create_forked(&kid, NULL, 0, 0) == CUZK_ERR_INVALID_ARG && kid == NULL);
    cuzk_var v;
    cuzk_fr_t one = tu_fr(1);
    CHECK_OK(cuzk_cs_alloc_aux(p, &v, &one));
    CHECK_OK(cuzk_cs_fork_create(&f, p));
    CHECK_OK(cuzk_cs_create_forked(&kid, f, 0, 0));
    CHECK(cuzk_cs_get_mode(kid) == CUZK_CS_PROVE && cuzk_cs_num_aux(kid) == 1);
    /* A target with fewer variables than the fork, or in another mode. */
    cuzk_cs *q = tu_cs(CUZK_CS_PROVE);
    CHECK(cuzk_cs_extend(q, kid) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_cs_extend(w, kid) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_cs_num_aux(q) == 0);
    CHECK_OK(cuzk_cs_extend(p, kid));
    CHECK(cuzk_cs_num_aux(p) == 1 && cuzk_cs_num_inputs(p) == 1);
    cuzk_cs_destroy(kid);
    cuzk_cs_fork_destroy(f);
    cuzk_cs_fork_destroy(NULL);
    /* A finalised parent. */
    CHECK_OK(cuzk_cs_finalize(p));
    CHECK(cuzk_cs_fork_create(&f, p) == CUZK_ERR_INVALID_ARG);
    cuzk_cs_destroy(q);
    cuzk_cs_destroy(p);
    cuzk_cs_destroy(w);
    cuzk_cs_destroy(k);
}

/* ---- the range driver ----------------------------------------------------------------------- */

typedef struct {
    int seen[40];
} ranges_ctx;

/* One aux a range (value = its first item); ranges at 10 and 18 fail. */
static cuzk_status one_range(void *ctx, cuzk_cs **out, size_t first, size_t count)
{
    ranges_ctx *c = ctx;
    for (size_t i = first; i < first + count; i++)
        __atomic_add_fetch(&c->seen[i], 1, __ATOMIC_RELAXED);
    cuzk_cs_destroy(*out); /* a merged range's, offered for reuse */
    *out = NULL;
    CUZK_TRY(cuzk_cs_create(out, CUZK_CS_WITNESS, 0, 0));
    if (first == 18 || first == 10)
        return cuzk_fail(first == 10 ? CUZK_ERR_FORMAT : CUZK_ERR_IO, "range %zu failed", first);
    cuzk_var v;
    cuzk_fr_t x = tu_fr(first);
    return cuzk_cs_alloc_aux(*out, &v, &x);
}

CUZK_TEST(fil_synth_ranges_order_and_failure)
{
    for (unsigned t = 1; t <= 7; t += 3) {
        ranges_ctx c = {{0}};
        cuzk_cs *cs = tu_cs(CUZK_CS_WITNESS);
        CHECK(cuzk__fil_synth_ranges(cs, 40, 2, t, 0, one_range, &c, "test") == CUZK_ERR_FORMAT);
        CHECK_MSG(strcmp(cuzk_last_error(), "range 10 failed") == 0, "%s", cuzk_last_error());
        /* The ranges before the failure were merged, in order. */
        CHECK(cuzk_cs_num_aux(cs) == 5);
        for (uint32_t i = 0; i < 5; i++) {
            cuzk_fr_t got, want = tu_fr(2 * i);
            cuzk_cs_value(cs, &got, cuzk_var_aux(i));
            CHECK(cuzk_fr_eq(&got, &want));
        }
        cuzk_cs_destroy(cs);
    }
    ranges_ctx c = {{0}};
    cuzk_cs *cs = tu_cs(CUZK_CS_WITNESS);
    CHECK_OK(cuzk__fil_synth_ranges(cs, 9, 4, 3, 1, one_range, &c, "test"));
    CHECK(cuzk_cs_num_aux(cs) == 3);
    for (size_t i = 0; i < 9; i++)
        CHECK(c.seen[i] == 1);
    cuzk_cs_destroy(cs);
}

/* The thread count for items in waves: more threads than cores only where the last wave is
 * short, and the count with the least estimated time (see the header's example). */
CUZK_TEST(fil_balanced_threads_choices)
{
    static const struct {
        size_t n;
        unsigned threads, want;
    } cases[] = {
        {18, 16, 18},  /* PoRep 32 GiB: one wave of 18 instead of 16 + 2 */
        {18, 8, 9},    /* 2 waves of 9 (2.25 units) instead of 3 */
        {18, 4, 6},    /* 3 waves of 6 (4.5 units) instead of 5 (5 threads: 4.75) */
        {32, 16, 16},  /* even waves: no more threads */
        {139, 16, 20}, /* 6 waves of 20 and 19 left (8.69 units) instead of 9 */
        {10, 3, 5},    /* fil-snap:0 on 3 threads */
        {10, 7, 10},   /* one wave of 10 instead of 7 + 3 */
        {2, 3, 3},     /* fewer items than threads: unchanged */
        {5, 1, 1},     /* one thread stays one */
        {100, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned got = cuzk__fil_balanced_threads(cases[i].n, cases[i].threads);
        CHECK_MSG(got == cases[i].want, "%zu items on %u threads: %u, want %u", cases[i].n,
                  cases[i].threads, got, cases[i].want);
    }
}

/* Items of chosen sizes for cuzk__fil_forked_items: item i allocates size[i] aux (values from
 * i and j) each tied to the prefix's z by one constraint, and notes whether it ran placed. */
typedef struct {
    const size_t *size;
    cuzk_var z;
    cuzk_fr_t zv;
    int placed; /* items that started placed */
} sized_items;

static cuzk_status sized_item(void *ctx, cuzk_cs *sys, size_t first, size_t count)
{
    sized_items *x = ctx;
    if (cuzk_cs_is_placed(sys))
        __atomic_add_fetch(&x->placed, 1, __ATOMIC_RELAXED);
    for (size_t i = first; i < first + count; i++)
        for (size_t j = 0; j < x->size[i]; j++) {
            cuzk_fr_t v = tu_fr(1000 * i + j), p;
            cuzk_fr_mul(&p, &v, &x->zv);
            cuzk_var a, b;
            CUZK_TRY(cuzk_cs_alloc_aux(sys, &a, &v));
            CUZK_TRY(cuzk_cs_alloc_aux(sys, &b, &p));
            cuzk_lc *la, *lb, *lc;
            cuzk_cs_lcs(sys, &la, &lb, &lc);
            cuzk_lc_add_var(la, a);
            cuzk_lc_add_var(lb, x->z);
            cuzk_lc_add_var(lc, b);
            CUZK_TRY(cuzk_cs_enforce(sys, la, lb, lc));
        }
    return CUZK_OK;
}

/* Items in their places, bit for bit the sequential system: all the same size in exact places;
 * the first larger than its place (the merge stops placing and moves the others out); the first
 * smaller (the others moved down). */
CUZK_TEST(fil_forked_items_places)
{
    /* Above 64 aux in all: smaller reservations are rounded up (cuzk_cs_create). */
    static const size_t same[6] = {30, 30, 30, 30, 30, 30}, big[6] = {50, 30, 30, 30, 30, 30},
                        small[6] = {20, 30, 30, 30, 30, 30};
    static const struct {
        const size_t *size;
        size_t place; /* aux per item reserved, in pairs */
        bool all_placed;
    } cases[] = {{same, 30, true}, {big, 40, false}, {small, 30, false}};
    static const cuzk_cs_mode MODES[] = {CUZK_CS_PROVE, CUZK_CS_WITNESS};
    cuzk_fr_t val[3] = {tu_fr_rand(), tu_fr_rand()};
    cuzk_fr_mul(&val[2], &val[0], &val[1]);
    for (size_t m = 0; m < 2; m++)
        for (size_t c = 0; c < 3; c++)
            for (unsigned t = 2; t <= 4; t += 2) {
                cuzk_prover_data x, y;
                cuzk_cs *cs[2];
                for (int k = 0; k < 2; k++) {
                    CHECK_OK(cuzk_cs_create(&cs[k], MODES[m], k ? 2 + 12 * cases[c].place : 0, 0));
                    cuzk_var v[3];
                    prefix(cs[k], v, val);
                    sized_items it = {.size = cases[c].size, .z = v[2], .zv = val[2]};
                    CHECK_MSG(cuzk__fil_forked_items(cs[k], 6, k ? t : 1, sized_item, &it,
                                                     "test") == CUZK_OK,
                              "%s", cuzk_last_error());
                    if (k && cases[c].all_placed)
                        CHECK_MSG(it.placed == 6, "case %zu, %u threads: %d placed", c, t,
                                  it.placed);
                    CHECK_OK(cuzk_cs_finalize(cs[k]));
                    CHECK_OK(cuzk_cs_take_prover_data(cs[k], k ? &y : &x));
                    cuzk_cs_destroy(cs[k]);
                }
                char what[64];
                snprintf(what, sizeof what, "mode %d, case %zu, %u threads", (int)MODES[m], c, t);
                tu_prover_data_same(&x, &y, what);
                cuzk_prover_data_free(&x);
                cuzk_prover_data_free(&y);
            }
}

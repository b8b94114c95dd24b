/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Merkle inclusion gadgets (rust-fil-proofs por.rs / insertion.rs): insertion, per-level and
 * whole-PoR constraint counts of storage-proofs-core/tests/por_circuit.rs, satisfaction with the
 * right witness, failure with a wrong path element or index, SHA-256 binary levels, the
 * built-in "poseidon-merkle:DEPTH" circuit. */
#include "test.h"
#include "gadgets/merkle.h"

static void rand_fr(cuzk_fr_t *x)
{
    uint64_t l[CUZK_FR_LIMBS];
    test_rand_bytes(l, sizeof l);
    l[3] &= 0x3fffffffffffffffULL;
    CHECK(cuzk_fr_from_canonical(x, l));
}

static cuzk_cs *new_cs(cuzk_cs_mode mode)
{
    cuzk_cs *cs;
    CHECK(cuzk_cs_create(&cs, mode, 0, 0) == CUZK_OK);
    return cs;
}

static void check_satisfied(cuzk_cs *cs, const char *what)
{
    size_t row = 0;
    const char *where = NULL;
    CHECK_MSG(cuzk_cs_is_satisfied(cs, &row, &where), "%s: row %zu (%s) unsatisfied", what, row,
              where ? where : "-");
}

static size_t leaves_of(const size_t *ar, size_t depth)
{
    size_t n = 1;
    for (size_t l = 0; l < depth; l++)
        n *= ar[l];
    return n;
}

static cuzk_merkle_tree *random_tree(cuzk_merkle_hash hash, const size_t *ar, size_t depth)
{
    size_t n = leaves_of(ar, depth);
    cuzk_fr_t *leaves = malloc(n * sizeof *leaves);
    CHECK(leaves != NULL);
    for (size_t i = 0; i < n; i++)
        rand_fr(&leaves[i]);
    cuzk_merkle_tree *t;
    CHECK(cuzk_merkle_tree_build(&t, hash, ar, depth, leaves) == CUZK_OK);
    free(leaves);
    return t;
}

CUZK_TEST(merkle_native_paths)
{
    static const size_t AR[] = {8, 4, 2};
    cuzk_merkle_tree *t = random_tree(CUZK_MERKLE_POSEIDON, AR, 3);
    CHECK(t->n_leaves == 64);
    CHECK(cuzk_merkle_path_len(AR, 3) == 7 + 3 + 1);
    /* The root by hand: level by level. */
    cuzk_fr_t l1[8], l2[2], root;
    for (int i = 0; i < 8; i++)
        CHECK(cuzk_merkle_hash_node(&l1[i], CUZK_MERKLE_POSEIDON, 8, &t->level[0][8 * i]) ==
              CUZK_OK);
    for (int i = 0; i < 2; i++)
        CHECK(cuzk_merkle_hash_node(&l2[i], CUZK_MERKLE_POSEIDON, 4, &l1[4 * i]) == CUZK_OK);
    CHECK(cuzk_merkle_hash_node(&root, CUZK_MERKLE_POSEIDON, 2, l2) == CUZK_OK);
    CHECK(cuzk_fr_eq(&root, cuzk_merkle_tree_root(t)));
    for (uint64_t i = 0; i < 64; i++) {
        cuzk_fr_t path[11], r;
        cuzk_merkle_tree_path(t, i, path);
        CHECK(cuzk_merkle_root_from_path(&r, CUZK_MERKLE_POSEIDON, AR, 3, &t->level[0][i], i,
                                         path) == CUZK_OK);
        CHECK(cuzk_fr_eq(&r, &root));
        /* Wrong index: another root. */
        CHECK(cuzk_merkle_root_from_path(&r, CUZK_MERKLE_POSEIDON, AR, 3, &t->level[0][i], i ^ 1,
                                         path) == CUZK_OK);
        CHECK(!cuzk_fr_eq(&r, &root));
    }
    cuzk_merkle_tree_destroy(t);

    /* SHA-256 nodes: the digest's top two bits are cleared. */
    static const size_t B[] = {2, 2};
    cuzk_merkle_tree *s = random_tree(CUZK_MERKLE_SHA256, B, 2);
    uint8_t bytes[32];
    cuzk_fr_to_bytes_le(bytes, cuzk_merkle_tree_root(s));
    CHECK((bytes[31] & 0xc0) == 0);
    cuzk_merkle_tree_destroy(s);
    static const size_t BAD[] = {4};
    CHECK(cuzk_merkle_tree_build(&s, CUZK_MERKLE_SHA256, BAD, 1, &root) == CUZK_ERR_INVALID_ARG);
}

CUZK_TEST(merkle_insert)
{
    static const size_t COST[9] = {0, 0, 2, 0, 8, 0, 0, 0, 22};
    for (size_t arity = 2; arity <= 8; arity *= 2) {
        unsigned nb = arity == 2 ? 1 : arity == 4 ? 2 : 3;
        for (size_t index = 0; index < arity; index++) {
            cuzk_cs *cs = new_cs(CUZK_CS_CHECK);
            cuzk_num el, els[7], out[8];
            cuzk_bool bits[3];
            cuzk_fr_t v;
            rand_fr(&v);
            CHECK(cuzk_num_alloc(cs, &el, &v) == CUZK_OK);
            for (size_t i = 0; i + 1 < arity; i++) {
                rand_fr(&v);
                CHECK(cuzk_num_alloc(cs, &els[i], &v) == CUZK_OK);
            }
            for (unsigned i = 0; i < nb; i++)
                CHECK(cuzk_bit_alloc(cs, &bits[i], (index >> i) & 1) == CUZK_OK);
            size_t before = cuzk_cs_num_constraints(cs);
            CHECK(cuzk_merkle_insert(cs, out, arity, &el, bits, els) == CUZK_OK);
            CHECK_MSG(cuzk_cs_num_constraints(cs) - before == COST[arity], "insert_%zu: %zu", arity,
                      cuzk_cs_num_constraints(cs) - before);
            for (size_t pos = 0, k = 0; pos < arity; pos++) {
                const cuzk_num *want = pos == index ? &el : &els[k++];
                CHECK(cuzk_fr_eq(&out[pos].value, &want->value));
                cuzk_cs_value(cs, &v, out[pos].var);
                CHECK(cuzk_fr_eq(&v, &want->value));
            }
            check_satisfied(cs, "insert");
            cuzk_cs_destroy(cs);
        }
    }
}

/* Synthesises a public or private PoR of leaf |index| of |t| in CHECK mode and checks the
 * counts; |tamper| = 1 corrupts one path element, 2 flips the claimed index, 3 the leaf. */
static void run_por(const cuzk_merkle_tree *t, uint64_t index, bool private_root, size_t want,
                    int tamper)
{
    cuzk_fr_t path[64 * 7], leaf = t->level[0][index], one;
    cuzk_merkle_tree_path(t, index, path);
    cuzk_fr_set_one(&one);
    uint64_t claimed = index;
    if (tamper == 1)
        cuzk_fr_add(&path[cuzk_merkle_path_len(t->arity, t->depth) / 2],
                    &path[cuzk_merkle_path_len(t->arity, t->depth) / 2], &one);
    if (tamper == 2)
        claimed ^= 1;
    if (tamper == 3)
        cuzk_fr_add(&leaf, &leaf, &one);
    cuzk_cs *cs = new_cs(CUZK_CS_CHECK);
    CHECK(cuzk_merkle_por_circuit(cs, t->hash, t->arity, t->depth, &leaf, claimed, path,
                                  cuzk_merkle_tree_root(t), private_root) == CUZK_OK);
    CHECK_MSG(cuzk_cs_num_constraints(cs) == want, "PoR: %zu constraints, want %zu",
              cuzk_cs_num_constraints(cs), want);
    CHECK(cuzk_cs_num_inputs(cs) == (private_root ? 2u : 3u));
    if (tamper)
        CHECK(!cuzk_cs_is_satisfied(cs, NULL, NULL));
    else
        check_satisfied(cs, "PoR");
    CHECK(cuzk_cs_finalize(cs) == CUZK_OK);
    cuzk_cs_destroy(cs);
}

/* storage-proofs-core/tests/por_circuit.rs: 64 leaves per base tree, public root: 3 inputs. */
CUZK_TEST(merkle_por_poseidon_counts)
{
    static const struct {
        size_t depth;
        size_t ar[6];
        size_t want;
    } V[] = {
        {2, {8, 8}, 1063},             /* base-8 */
        {3, {4, 4, 4}, 1164},          /* base-4 */
        {6, {2, 2, 2, 2, 2, 2}, 1887}, /* base-2 */
        {3, {8, 8, 8}, 1593},          /* sub 8-8 (32 GiB shape) */
        {4, {8, 8, 8, 2}, 1907},       /* top 8-8-2 (64 GiB shape) */
        {4, {8, 8, 4, 2}, 1764},       /* top 8-4-2 */
    };
    for (size_t v = 0; v < sizeof V / sizeof V[0]; v++) {
        cuzk_merkle_tree *t = random_tree(CUZK_MERKLE_POSEIDON, V[v].ar, V[v].depth);
        uint64_t idx[3] = {0, t->n_leaves - 1, test_rand_u64() % t->n_leaves};
        for (int i = 0; i < 3; i++)
            run_por(t, idx[i], false, V[v].want, 0);
        cuzk_merkle_tree_destroy(t);
    }
}

CUZK_TEST(merkle_por_octree_level_530)
{
    static const size_t AR[] = {8, 8, 8};
    cuzk_merkle_tree *t = random_tree(CUZK_MERKLE_POSEIDON, AR, 3);
    /* Private root (PoSt / PoRep trees R and C): 10 levels would be 5,302. */
    run_por(t, 77, true, 3 * 530 + 2, 0);
    cuzk_merkle_tree_destroy(t);
    static const size_t AR1[] = {8};
    t = random_tree(CUZK_MERKLE_POSEIDON, AR1, 1);
    run_por(t, 5, true, 530 + 2, 0);
    cuzk_merkle_tree_destroy(t);

    /* The level alone (por_no_challenge_input without the root check): 3 + 22 + 505. */
    cuzk_cs *cs = new_cs(CUZK_CS_CHECK);
    cuzk_num leaf, sib[7], root;
    cuzk_bool bits[3];
    cuzk_fr_t v[8], r;
    for (int i = 0; i < 8; i++)
        rand_fr(&v[i]);
    CHECK(cuzk_num_alloc(cs, &leaf, &v[0]) == CUZK_OK);
    for (int i = 0; i < 3; i++)
        CHECK(cuzk_bit_alloc(cs, &bits[i], false) == CUZK_OK);
    for (int i = 0; i < 7; i++)
        CHECK(cuzk_num_alloc(cs, &sib[i], &v[i + 1]) == CUZK_OK);
    CHECK(cuzk_merkle_hash_node(&r, CUZK_MERKLE_POSEIDON, 8, v) == CUZK_OK);
    CHECK(cuzk_num_alloc(cs, &root, &r) == CUZK_OK);
    size_t before = cuzk_cs_num_constraints(cs);
    CHECK(cuzk_merkle_por_no_challenge_input(cs, CUZK_MERKLE_POSEIDON, AR1, 1, bits, &leaf, sib,
                                             &root) == CUZK_OK);
    CHECK(cuzk_cs_num_constraints(cs) - before == 22 + 505 + 1);
    CHECK(cuzk_cs_num_constraints(cs) == 3 + 22 + 505 + 1);
    check_satisfied(cs, "por_no_challenge_input");
    cuzk_cs_destroy(cs);
}

CUZK_TEST(merkle_por_wrong_witness_unsatisfied)
{
    static const size_t AR[] = {8, 8};
    cuzk_merkle_tree *t = random_tree(CUZK_MERKLE_POSEIDON, AR, 2);
    run_por(t, 13, false, 1063, 1); /* wrong path element */
    run_por(t, 13, false, 1063, 2); /* wrong index */
    run_por(t, 13, false, 1063, 3); /* wrong leaf */
    cuzk_merkle_tree_destroy(t);
}

CUZK_TEST(merkle_por_modes_agree)
{
    static const size_t AR[] = {8, 8};
    cuzk_merkle_tree *t = random_tree(CUZK_MERKLE_POSEIDON, AR, 2);
    cuzk_fr_t path[14];
    uint64_t index = 42;
    cuzk_merkle_tree_path(t, index, path);
    cuzk_cs *p = new_cs(CUZK_CS_PROVE), *w = new_cs(CUZK_CS_WITNESS), *k = new_cs(CUZK_CS_KEYGEN);
    CHECK(cuzk_merkle_por_circuit(p, CUZK_MERKLE_POSEIDON, AR, 2, &t->level[0][index], index, path,
                                  cuzk_merkle_tree_root(t), false) == CUZK_OK);
    CHECK(cuzk_merkle_por_circuit(w, CUZK_MERKLE_POSEIDON, AR, 2, &t->level[0][index], index, path,
                                  cuzk_merkle_tree_root(t), false) == CUZK_OK);
    CHECK(cuzk_merkle_por_circuit(k, CUZK_MERKLE_POSEIDON, AR, 2, NULL, 0, NULL, NULL, false) ==
          CUZK_OK);
    CHECK(cuzk_cs_num_constraints(p) == 1063 && cuzk_cs_num_constraints(w) == 1063 &&
          cuzk_cs_num_constraints(k) == 1063);
    CHECK(cuzk_cs_num_aux(p) == cuzk_cs_num_aux(w) && cuzk_cs_num_aux(p) == cuzk_cs_num_aux(k));
    CHECK(cuzk_cs_finalize(p) == CUZK_OK && cuzk_cs_finalize(w) == CUZK_OK &&
          cuzk_cs_finalize(k) == CUZK_OK);
    CHECK(cuzk_cs_is_satisfied(p, NULL, NULL));
    cuzk_prover_data dp, dw;
    CHECK(cuzk_cs_take_prover_data(p, &dp) == CUZK_OK);
    CHECK(cuzk_cs_take_prover_data(w, &dw) == CUZK_OK);
    CHECK(dp.n_inputs == 3 && dw.n_inputs == 3);
    /* Public inputs: ONE, the packed index, the root. */
    cuzk_fr_t idx;
    cuzk_fr_set_u64(&idx, index);
    CHECK(cuzk_fr_is_one(&dp.input[0]));
    CHECK(cuzk_fr_eq(&dp.input[1], &idx));
    CHECK(cuzk_fr_eq(&dp.input[2], cuzk_merkle_tree_root(t)));
    for (size_t i = 0; i < dp.n_inputs; i++)
        CHECK(cuzk_fr_eq(&dp.input[i], &dw.input[i]));
    for (size_t i = 0; i < dp.n_aux; i++)
        CHECK(cuzk_fr_eq(&dp.aux[i], &dw.aux[i]));
    cuzk_prover_data_free(&dp);
    cuzk_prover_data_free(&dw);
    cuzk_cs_destroy(p);
    cuzk_cs_destroy(w);
    cuzk_cs_destroy(k);
    cuzk_merkle_tree_destroy(t);
}

/* Binary SHA-256 tree (tree D): 45,382 per level (1 bit + insert_2 + hash2 45,379). */
CUZK_TEST(merkle_por_sha256_levels)
{
    static const size_t AR[] = {2, 2};
    cuzk_merkle_tree *t = random_tree(CUZK_MERKLE_SHA256, AR, 2);
    run_por(t, 2, false, 2 * 45382 + 3, 0);
    run_por(t, 1, true, 2 * 45382 + 2, 1);
    cuzk_merkle_tree_destroy(t);
}

CUZK_TEST(merkle_builtin_poseidon_merkle)
{
    cuzk_circuit c;
    CHECK(cuzk_circuit_find("poseidon-merkle:3", &c) == CUZK_OK);
    CHECK(c.params.arg == 3);
    c.params.seed = test_rand_u64();
    cuzk_cs *cs = new_cs(CUZK_CS_CHECK);
    CHECK(cuzk_circuit_synthesize(cs, &c) == CUZK_OK);
    CHECK(cuzk_cs_num_inputs(cs) == 3);
    CHECK(cuzk_cs_num_constraints(cs) == 3 * 530 + 3 + 3);
    check_satisfied(cs, "poseidon-merkle:3");
    cuzk_cs_destroy(cs);
    CHECK(cuzk_circuit_find("poseidon-merkle:0", &c) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_circuit_find("poseidon-merkle:22", &c) == CUZK_ERR_INVALID_ARG);
}

/* The PCE path (KEYGEN matrices + WITNESS synthesis + SpMV) reproduces the PROVE path exactly. */
CUZK_TEST(merkle_builtin_pce_matches_prove)
{
    cuzk_circuit c;
    CHECK(cuzk_circuit_find("poseidon-merkle:2", &c) == CUZK_OK);
    c.params.seed = test_rand_u64();
    cuzk_pce *pce;
    CHECK(cuzk_pce_extract(&pce, &c) == CUZK_OK);
    CHECK(cuzk_pce_num_constraints(pce) == 2 * 530 + 3);
    CHECK(cuzk_pce_num_inputs(pce) == 3);

    cuzk_cs *p = new_cs(CUZK_CS_PROVE), *w = new_cs(CUZK_CS_WITNESS);
    CHECK(cuzk_circuit_synthesize(p, &c) == CUZK_OK);
    CHECK(cuzk_circuit_synthesize(w, &c) == CUZK_OK);
    cuzk_prover_data dp, dw;
    CHECK(cuzk_cs_take_prover_data(p, &dp) == CUZK_OK);
    CHECK(cuzk_cs_take_prover_data(w, &dw) == CUZK_OK);
    CHECK(cuzk_pce_eval_into(pce, NULL, &dw) == CUZK_OK);
    CHECK(dp.n_rows == dw.n_rows && dp.n_aux == dw.n_aux);
    for (size_t r = 0; r < dp.n_rows; r++) {
        CHECK(cuzk_fr_eq(&dp.a[r], &dw.a[r]));
        CHECK(cuzk_fr_eq(&dp.b[r], &dw.b[r]));
        CHECK(cuzk_fr_eq(&dp.c[r], &dw.c[r]));
    }
    CHECK(dp.a_aux_popcount == dw.a_aux_popcount && dp.b_aux_popcount == dw.b_aux_popcount &&
          dp.b_input_popcount == dw.b_input_popcount);
    cuzk_prover_data_free(&dp);
    cuzk_prover_data_free(&dw);
    cuzk_cs_destroy(p);
    cuzk_cs_destroy(w);
    cuzk_pce_destroy(pce);
}

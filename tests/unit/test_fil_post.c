/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The fallback PoSt circuit (src/filecoin/post_circuit.c): constraint and input counts of every
 * published WinningPoSt / WindowPoSt shape (filecoin-circuits.md 1.3) and of the upstream unit
 * tests' shapes (storage-proofs-post fallback circuit.rs: 16,869 / 22,674 / 27,384 / 11,246);
 * satisfaction over complete trees; the circuit's public inputs equal the independently derived
 * ones (cuzk_fil_{winning,window}_post_inputs); a wrong leaf, sibling, comm_r or challenge is
 * caught; the real WinningPoSt 2 KiB key has one IC point per input; sparse trees equal complete
 * ones; WindowPoSt inputs pad a short partition by copying the last sector.
 */
#include "test.h"
#include "test_r1cs_util.h"

#include "cuzk/alloc.h"
#include "cuzk/groth16.h"
#include "filecoin/post_circuit.h"
#include "gadgets/merkle.h"

#include <string.h>

/* Constraints of one PoR over |sh|'s tree (filecoin-circuits.md 4.8: lvl(a) + 2). */
static size_t por_cost(const cuzk_fil_post_shape *sh)
{
    size_t n = 2;
    for (size_t l = 0; l < sh->depth; l++)
        n += sh->arities[l] == 8 ? 3 + 22 + 505 : sh->arities[l] == 4 ? 2 + 8 + 377 : 1 + 2 + 311;
    return n;
}

CUZK_TEST(fil_post_published_counts)
{
    /* Constraints without the input constraints, filecoin-circuits.md 1.3 ([derived] rows agree
     * with the [fork] and [comment] anchors). The two large WindowPoSt partitions (125 M and 130
     * M constraints) are checked through the model only. */
    static const struct {
        uint64_t id;
        size_t constraints, inputs;
    } W[] = {
        {0, 90750, 133},  {1, 230670, 133}, {2, 300630, 133}, {3, 370590, 133},
        {4, 391314, 133}, {5, 21866, 23},   {6, 64266, 23},   {7, 85466, 23},
        {10, 21866, 23},  {11, 64266, 23},  {12, 85466, 23},
    };
    for (size_t i = 0; i < sizeof W / sizeof W[0]; i++) {
        cuzk_fil_post_shape sh;
        CHECK(cuzk_fil_post_shape_get(&sh, W[i].id) == CUZK_OK);
        cuzk_cs *cs = tu_cs(CUZK_CS_KEYGEN);
        CHECK_MSG(cuzk_fil_post_circuit(cs, &sh, NULL) == CUZK_OK, "%s", cuzk_last_error());
        CHECK_MSG(cuzk_cs_num_constraints(cs) == W[i].constraints, "id %llu: %zu, want %zu",
                  (unsigned long long)W[i].id, cuzk_cs_num_constraints(cs), W[i].constraints);
        CHECK(cuzk_cs_num_inputs(cs) == W[i].inputs);
        CHECK(sh.sector_count * (313 + sh.challenge_count * por_cost(&sh)) == W[i].constraints);
        cuzk_cs_destroy(cs);
    }
    /* Allocations: per sector comm_r_last, comm_c, comm_r, the Poseidon-2 hash's, and per
     * challenge a private PoR's less its root (Root::Var allocates nothing). */
    cuzk_fil_post_shape sh0;
    CHECK(cuzk_fil_post_shape_get(&sh0, 0) == CUZK_OK);
    cuzk_cs *hc = tu_cs(CUZK_CS_KEYGEN), *pc = tu_cs(CUZK_CS_KEYGEN);
    cuzk_num pre[2], h;
    CHECK(cuzk_num_alloc(hc, &pre[0], NULL) == CUZK_OK && cuzk_num_alloc(hc, &pre[1], NULL) == 0);
    CHECK(cuzk_merkle_hash_circuit(hc, &h, CUZK_MERKLE_POSEIDON, 2, pre) == CUZK_OK);
    CHECK(cuzk_merkle_por_circuit(pc, CUZK_MERKLE_POSEIDON, sh0.arities, sh0.depth, NULL, 0, NULL,
                                  NULL, true) == CUZK_OK);
    size_t want_aux = 66 * (3 + (cuzk_cs_num_aux(hc) - 2) + (cuzk_cs_num_aux(pc) - 1));
    cuzk_cs *cs0 = tu_cs(CUZK_CS_KEYGEN);
    CHECK(cuzk_fil_post_circuit(cs0, &sh0, NULL) == CUZK_OK);
    CHECK_MSG(cuzk_cs_num_aux(cs0) == want_aux, "aux %zu, want %zu", cuzk_cs_num_aux(cs0),
              want_aux);
    cuzk_cs_destroy(cs0);
    cuzk_cs_destroy(hc);
    cuzk_cs_destroy(pc);
    /* 32 / 64 GiB WindowPoSt: the shapes give the published totals (125,279,217 [comment],
     * 129,887,900 [comment]). */
    cuzk_fil_post_shape sh;
    CHECK(cuzk_fil_post_shape_get(&sh, 8) == CUZK_OK && sh.sector_count == 2349 && sh.depth == 10);
    CHECK(sh.sector_count * (313 + sh.challenge_count * por_cost(&sh)) == 125279217);
    CHECK(cuzk_fil_post_shape_get(&sh, 14) == CUZK_OK && sh.sector_count == 2300 && sh.depth == 11);
    CHECK(sh.arities[9] == 8 && sh.arities[10] == 2);
    CHECK(sh.sector_count * (313 + sh.challenge_count * por_cost(&sh)) == 129887900);
    CHECK(cuzk_fil_post_shape_get(&sh, 15) == CUZK_ERR_UNSUPPORTED);
}

/* Sectors over complete random trees of |sh| (|nreal| distinct, the rest copies of the last, as
 * compound.rs pads); free with free_sectors. */
typedef struct {
    cuzk_fil_post_sector *sec;
    cuzk_fr_t *lv, *sib;
    uint64_t *ch;
    size_t path_len, nch;
} sectors_data;

static sectors_data make_sectors(const cuzk_fil_post_shape *sh, size_t nreal)
{
    sectors_data d;
    size_t leaves = 1;
    d.path_len = cuzk_merkle_path_len(sh->arities, sh->depth);
    for (size_t l = 0; l < sh->depth; l++)
        leaves *= sh->arities[l];
    d.nch = sh->sector_count * sh->challenge_count;
    d.sec = calloc(sh->sector_count, sizeof *d.sec);
    d.lv = malloc(d.nch * sizeof *d.lv);
    d.sib = malloc(d.nch * d.path_len * sizeof *d.sib);
    d.ch = malloc(d.nch * sizeof *d.ch);
    cuzk_fr_t *data = malloc(leaves * sizeof *data);
    CHECK(d.sec && d.lv && d.sib && d.ch && data);
    for (size_t s = 0; s < nreal; s++) {
        for (size_t i = 0; i < leaves; i++)
            data[i] = tu_fr_rand();
        cuzk_merkle_tree *t;
        CHECK(cuzk_merkle_tree_build(&t, CUZK_MERKLE_POSEIDON, sh->arities, sh->depth, data) ==
              CUZK_OK);
        cuzk_fr_t pre[2];
        pre[0] = tu_fr_rand();
        pre[1] = *cuzk_merkle_tree_root(t);
        d.sec[s].comm_c = pre[0];
        d.sec[s].comm_r_last = pre[1];
        CHECK(cuzk_merkle_hash_node(&d.sec[s].comm_r, CUZK_MERKLE_POSEIDON, 2, pre) == CUZK_OK);
        for (size_t c = 0; c < sh->challenge_count; c++) {
            size_t k = s * sh->challenge_count + c;
            d.ch[k] = test_rand_u64() % leaves;
            d.lv[k] = data[d.ch[k]];
            cuzk_merkle_tree_path(t, d.ch[k], &d.sib[k * d.path_len]);
        }
        d.sec[s].leaves = &d.lv[s * sh->challenge_count];
        d.sec[s].challenges = &d.ch[s * sh->challenge_count];
        d.sec[s].siblings = &d.sib[s * sh->challenge_count * d.path_len];
        cuzk_merkle_tree_destroy(t);
    }
    for (size_t s = nreal; s < sh->sector_count; s++)
        d.sec[s] = d.sec[nreal - 1];
    free(data);
    return d;
}

static void free_sectors(sectors_data *d)
{
    free(d->sec);
    free(d->lv);
    free(d->sib);
    free(d->ch);
}

/* A partition of make_sectors checked in CHECK mode; |tamper| corrupts one witness value. */
static void run_complete(const cuzk_fil_post_shape *sh, size_t nreal, int tamper, size_t want)
{
    sectors_data d = make_sectors(sh, nreal);
    size_t path_len = d.path_len, nch = d.nch;
    cuzk_fil_post_sector *sec = d.sec;
    cuzk_fr_t *lv = d.lv, *sib = d.sib;
    uint64_t *ch = d.ch;
    size_t k = sh->challenge_count + 1; /* sector 1's second challenge (or sector 0's) */
    if (k >= nch)
        k = 1;
    switch (tamper) {
    case 1: /* a leaf */
        cuzk_fr_add(&lv[k], &lv[k], cuzk_r1cs_pow2(0));
        break;
    case 2: /* a sibling on the top level */
        cuzk_fr_add(&sib[k * path_len + path_len - 1], &sib[k * path_len + path_len - 1],
                    cuzk_r1cs_pow2(3));
        break;
    case 3: /* the claimed challenge: another leaf of the same path */
        ch[k] ^= 1;
        break;
    case 4: /* comm_r of the last sector */
        cuzk_fr_add(&sec[sh->sector_count - 1].comm_r, &sec[sh->sector_count - 1].comm_r,
                    cuzk_r1cs_pow2(0));
        break;
    }
    cuzk_cs *cs = tu_cs(CUZK_CS_CHECK);
    CHECK_MSG(cuzk_fil_post_circuit(cs, sh, sec) == CUZK_OK, "%s", cuzk_last_error());
    CHECK(cuzk_cs_finalize(cs) == CUZK_OK);
    CHECK(cuzk_cs_num_constraints(cs) == want + cuzk_cs_num_inputs(cs));
    CHECK(cuzk_cs_num_inputs(cs) == 1 + sh->sector_count * (1 + sh->challenge_count));
    size_t row = 0;
    const char *where = NULL;
    bool ok = cuzk_cs_is_satisfied(cs, &row, &where);
    if (tamper == 0)
        CHECK_MSG(ok, "row %zu (%s) unsatisfied", row, where ? where : "-");
    else
        CHECK_MSG(!ok, "tamper %d went unnoticed", tamper);
    cuzk_cs_destroy(cs);
    free_sectors(&d);
}

CUZK_TEST(fil_post_upstream_shapes)
{
    /* storage-proofs-post fallback circuit.rs tests: 5 challenges per sector, 64 leaves per base
     * tree, 3 sectors (1 partition) or 2 (two partitions). */
    cuzk_fil_post_shape sh = {
        .sector_count = 3, .challenge_count = 5, .depth = 2, .arities = {8, 8}};
    run_complete(&sh, 3, 0, 16869);
    run_complete(&sh, 2, 0, 16869); /* "smaller": the last sector repeated */
    sh.depth = 3;
    sh.arities[2] = 4;
    run_complete(&sh, 3, 0, 22674);
    sh.depth = 4;
    sh.arities[3] = 2;
    run_complete(&sh, 3, 0, 27384);
    sh = (cuzk_fil_post_shape){
        .sector_count = 2, .challenge_count = 5, .depth = 2, .arities = {8, 8}};
    run_complete(&sh, 2, 0, 11246);
}

CUZK_TEST(fil_post_tampered_witness_unsatisfied)
{
    cuzk_fil_post_shape sh = {
        .sector_count = 2, .challenge_count = 3, .depth = 3, .arities = {8, 4, 2}};
    size_t want = 2 * (313 + 3 * por_cost(&sh));
    run_complete(&sh, 2, 0, want);
    for (int t = 1; t <= 4; t++)
        run_complete(&sh, 2, t, want);
}

/* The circuit's input assignment (PROVE mode) against the Filecoin derivation of the inputs. */
static void check_inputs(uint64_t id, uint64_t seed)
{
    cuzk_fil_post_partition *p;
    CHECK_MSG(cuzk_fil_post_partition_synthetic(&p, id, seed, 2) == CUZK_OK, "%s",
              cuzk_last_error());
    cuzk_cs *cs = tu_cs(CUZK_CS_PROVE);
    CHECK(cuzk_fil_post_circuit(cs, &p->shape, p->sectors) == CUZK_OK);
    CHECK(cuzk_cs_finalize(cs) == CUZK_OK);
    size_t row = 0;
    CHECK_MSG(cuzk_cs_is_satisfied(cs, &row, NULL), "id %llu: row %zu", (unsigned long long)id,
              row);
    cuzk_prover_data pd;
    CHECK(cuzk_cs_take_prover_data(cs, &pd) == CUZK_OK);
    size_t max = pd.n_inputs, n = 0;
    cuzk_fr_t *want = malloc(max * sizeof *want);
    CHECK(want != NULL);
    cuzk_fil_post_info info;
    CHECK(cuzk_fil_post_info_get(&info, id) == CUZK_OK);
    cuzk_status s =
        info.kind == CUZK_FIL_POST_WINNING
            ? cuzk_fil_winning_post_inputs(want, max, &n, id, p->randomness, p->sector_ids[0],
                                           p->comm_rs[0])
            : cuzk_fil_window_post_inputs(want, max, &n, id, p->randomness, 0, p->sector_ids,
                                          (const uint8_t(*)[32])p->comm_rs, p->nreal);
    CHECK_MSG(s == CUZK_OK, "%s", cuzk_last_error());
    CHECK(n + 1 == pd.n_inputs);
    for (size_t i = 0; i < n; i++)
        CHECK_MSG(cuzk_fr_eq(&pd.input[i + 1], &want[i]), "id %llu: input %zu differs",
                  (unsigned long long)id, i + 1);
    free(want);
    cuzk_prover_data_free(&pd);
    cuzk_cs_destroy(cs);
    cuzk_fil_post_partition_destroy(p);
}

CUZK_TEST(fil_post_inputs_match_derivation)
{
    uint64_t seed = test_rand_u64();
    check_inputs(0, seed);  /* WinningPoSt 2 KiB */
    check_inputs(5, seed);  /* WindowPoSt 2 KiB, API 1.0: challenge index i * 10 + n */
    check_inputs(10, seed); /* the same, API 1.2: n */
    check_inputs(3, seed);  /* WinningPoSt 32 GiB: a sparse tree of 2^30 leaves, 8-8-0 */
    check_inputs(4, seed);  /* 64 GiB: 8-8-2 */
}

CUZK_TEST(fil_post_real_key_fits)
{
    /* The official WinningPoSt 2 KiB verifying key has one IC point per input of our circuit. */
    char path[1024];
    snprintf(path, sizeof path, "%s/filecoin/winning-post-2kib.vk", test_fixtures_dir());
    cuzk_groth16_vk *vk;
    CHECK_MSG(cuzk_groth16_vk_load(&vk, path) == CUZK_OK, "%s", cuzk_last_error());
    cuzk_circuit c;
    CHECK(cuzk_circuit_find("fil-post:0", &c) == CUZK_OK);
    cuzk_cs *cs = tu_cs(CUZK_CS_KEYGEN);
    CHECK(c.synth(cs, &c.params) == CUZK_OK);
    CHECK(cuzk_cs_num_inputs(cs) == vk->ic_len);
    cuzk_cs_destroy(cs);
    cuzk_groth16_vk_free(vk);
}

CUZK_TEST(merkle_sparse_matches_complete)
{
    static const size_t AR[] = {8, 4, 2, 8};
    const size_t depth = 4, leaves = 8 * 4 * 2 * 8, path_len = 7 + 3 + 1 + 7;
    cuzk_fr_t fill, *data = malloc(leaves * sizeof *data);
    CHECK(data != NULL);
    fill = tu_fr_rand();
    for (size_t i = 0; i < leaves; i++)
        data[i] = fill;
    enum { K = 9 };
    uint64_t idx[K];
    cuzk_fr_t val[K], root, sib[K * 18], want[18];
    for (size_t k = 0; k < K; k++) {
        idx[k] = k == K - 1 ? idx[0] : test_rand_u64() % leaves; /* one index twice */
        if (k == K - 1)
            val[k] = val[0];
        else if (cuzk_fr_eq(&data[idx[k]], &fill))
            val[k] = tu_fr_rand();
        else
            val[k] = data[idx[k]];
        data[idx[k]] = val[k];
    }
    CHECK(cuzk_merkle_sparse_paths(&root, sib, CUZK_MERKLE_POSEIDON, AR, depth, &fill, K, idx,
                                   val) == CUZK_OK);
    cuzk_merkle_tree *t;
    CHECK(cuzk_merkle_tree_build(&t, CUZK_MERKLE_POSEIDON, AR, depth, data) == CUZK_OK);
    CHECK(cuzk_fr_eq(&root, cuzk_merkle_tree_root(t)));
    for (size_t k = 0; k < K; k++) {
        cuzk_merkle_tree_path(t, idx[k], want);
        for (size_t j = 0; j < path_len; j++)
            CHECK_MSG(cuzk_fr_eq(&sib[k * path_len + j], &want[j]), "leaf %zu, sibling %zu", k, j);
    }
    /* Rejections: one index with two values, an index outside the tree, no leaves. */
    uint64_t bad_idx[2] = {idx[0], idx[0]};
    cuzk_fr_t bad_val[2] = {val[0], fill};
    if (cuzk_fr_eq(&val[0], &fill))
        bad_val[1] = tu_fr_rand();
    CHECK(cuzk_merkle_sparse_paths(&root, sib, CUZK_MERKLE_POSEIDON, AR, depth, &fill, 2, bad_idx,
                                   bad_val) == CUZK_ERR_INVALID_ARG);
    bad_idx[0] = leaves;
    CHECK(cuzk_merkle_sparse_paths(&root, sib, CUZK_MERKLE_POSEIDON, AR, depth, &fill, 1, bad_idx,
                                   val) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_merkle_sparse_paths(&root, sib, CUZK_MERKLE_POSEIDON, AR, depth, &fill, 0, idx,
                                   val) == CUZK_ERR_INVALID_ARG);
    cuzk_merkle_tree_destroy(t);
    free(data);
}

CUZK_TEST(fil_window_post_inputs_padding)
{
    uint8_t rnd[32] = {0}, comm[2][32] = {{0}};
    test_rand_bytes(rnd, 31);
    test_rand_bytes(comm[0], 31);
    test_rand_bytes(comm[1], 31);
    uint64_t ids[2] = {7, 9};
    cuzk_fr_t in[22], full[22];
    size_t n = 0;
    /* One sector of two: the second block is a copy of the first. */
    CHECK(cuzk_fil_window_post_inputs(in, 22, &n, 5, rnd, 0, ids, (const uint8_t(*)[32])comm, 1) ==
          CUZK_OK);
    CHECK(n == 22);
    for (size_t i = 0; i < 11; i++)
        CHECK(cuzk_fr_eq(&in[i], &in[11 + i]));
    /* Two sectors, partition 3, API 1.0: challenge index (3 * 2 + i) * 10 + j. */
    CHECK(cuzk_fil_window_post_inputs(full, 22, &n, 5, rnd, 3, ids, (const uint8_t(*)[32])comm,
                                      2) == CUZK_OK);
    for (size_t i = 0; i < 2; i++)
        for (size_t j = 0; j < 10; j++) {
            cuzk_fr_t v;
            cuzk_fr_set_u64(&v, cuzk_fil_post_leaf_challenge(rnd, ids[i], (6 + i) * 10 + j, 2048));
            CHECK(cuzk_fr_eq(&full[11 * i + 1 + j], &v));
        }
    /* API 1.2 (id 10): challenge index j, whatever the partition and sector. */
    CHECK(cuzk_fil_window_post_inputs(full, 22, &n, 10, rnd, 3, ids, (const uint8_t(*)[32])comm,
                                      2) == CUZK_OK);
    cuzk_fr_t v;
    cuzk_fr_set_u64(&v, cuzk_fil_post_leaf_challenge(rnd, ids[1], 4, 2048));
    CHECK(cuzk_fr_eq(&full[11 + 1 + 4], &v));
    /* Rejections. */
    CHECK(cuzk_fil_window_post_inputs(full, 22, &n, 0, rnd, 0, ids, (const uint8_t(*)[32])comm,
                                      1) == CUZK_ERR_INVALID_ARG); /* a WinningPoSt id */
    CHECK(cuzk_fil_window_post_inputs(full, 22, &n, 5, rnd, 0, ids, (const uint8_t(*)[32])comm,
                                      3) == CUZK_ERR_INVALID_ARG); /* 3 sectors of 2 */
    CHECK(cuzk_fil_window_post_inputs(full, 21, &n, 5, rnd, 0, ids, (const uint8_t(*)[32])comm,
                                      2) == CUZK_ERR_INVALID_ARG); /* no room */
    memset(comm[1], 0xff, 32);
    CHECK(cuzk_fil_window_post_inputs(full, 22, &n, 5, rnd, 0, ids, (const uint8_t(*)[32])comm,
                                      2) == CUZK_ERR_NOT_CANONICAL);
    CHECK(n == 0);
}

/* Encodes every real sector of |p|. */
static void encode_all(const cuzk_fil_post_partition *p, uint8_t **bufs, size_t *lens)
{
    for (size_t r = 0; r < p->nreal; r++)
        CHECK_MSG(cuzk_fil_post_vanilla_encode(p, r, &bufs[r], &lens[r]) == CUZK_OK, "%s",
                  cuzk_last_error());
}

static void same_partition(const cuzk_fil_post_partition *a, const cuzk_fil_post_partition *b)
{
    const cuzk_fil_post_shape *sh = &a->shape;
    size_t path_len = cuzk_merkle_path_len(sh->arities, sh->depth);
    CHECK(a->nreal == b->nreal && memcmp(a->randomness, b->randomness, 32) == 0);
    for (size_t r = 0; r < a->nreal; r++)
        CHECK(a->sector_ids[r] == b->sector_ids[r] && !memcmp(a->comm_rs[r], b->comm_rs[r], 32));
    for (size_t i = 0; i < sh->sector_count; i++) {
        const cuzk_fil_post_sector *x = &a->sectors[i], *y = &b->sectors[i];
        CHECK(cuzk_fr_eq(&x->comm_r, &y->comm_r) && cuzk_fr_eq(&x->comm_c, &y->comm_c) &&
              cuzk_fr_eq(&x->comm_r_last, &y->comm_r_last));
        for (size_t n = 0; n < sh->challenge_count; n++) {
            CHECK(x->challenges[n] == y->challenges[n]);
            CHECK(cuzk_fr_eq(&x->leaves[n], &y->leaves[n]));
            for (size_t j = 0; j < path_len; j++)
                CHECK(cuzk_fr_eq(&x->siblings[n * path_len + j], &y->siblings[n * path_len + j]));
        }
    }
}

static cuzk_status decode(const cuzk_fil_post_partition *p, uint8_t **bufs, size_t *lens, size_t n,
                          cuzk_fil_post_partition **out)
{
    return cuzk_fil_post_partition_from_vanilla(out, p->post_proof_type, p->randomness,
                                                p->partition, (const uint8_t *const *)bufs, lens, n,
                                                2);
}

CUZK_TEST(fil_post_vanilla_roundtrip)
{
    /* Every shape kind: 8-0-0 (Single), 8-8-0 (Sub), 8-8-2 (Top); WinningPoSt and WindowPoSt. */
    static const uint64_t IDS[] = {0, 3, 4, 5, 10};
    for (size_t t = 0; t < sizeof IDS / sizeof IDS[0]; t++) {
        cuzk_fil_post_partition *p, *q;
        CHECK(cuzk_fil_post_partition_synthetic(&p, IDS[t], test_rand_u64(), 1) == CUZK_OK);
        uint8_t *bufs[2];
        size_t lens[2];
        encode_all(p, bufs, lens);
        CHECK_MSG(decode(p, bufs, lens, p->nreal, &q) == CUZK_OK, "id %llu: %s",
                  (unsigned long long)IDS[t], cuzk_last_error());
        same_partition(p, q);
        /* The decoded partition proves through the built-in circuit's data path. */
        cuzk_circuit c;
        char spec[32];
        snprintf(spec, sizeof spec, "fil-post:%llu", (unsigned long long)IDS[t]);
        CHECK(cuzk_circuit_find(spec, &c) == CUZK_OK);
        c.params.data = q;
        cuzk_cs *cs = tu_cs(CUZK_CS_CHECK);
        CHECK(c.synth(cs, &c.params) == CUZK_OK);
        CHECK(cuzk_cs_finalize(cs) == CUZK_OK);
        CHECK(cuzk_cs_is_satisfied(cs, NULL, NULL));
        cuzk_cs_destroy(cs);
        c.params.arg ^= 1; /* a partition of another proof type is refused */
        cs = tu_cs(CUZK_CS_CHECK);
        CHECK(c.synth(cs, &c.params) == CUZK_ERR_INVALID_ARG);
        cuzk_cs_destroy(cs);
        cuzk_fil_post_partition_destroy(q);
        for (size_t r = 0; r < p->nreal; r++)
            cuzk_free(bufs[r]);
        cuzk_fil_post_partition_destroy(p);
    }
}

CUZK_TEST(fil_post_vanilla_short_window_partition)
{
    /* One sector of a WindowPoSt partition of two: the circuit repeats it, and its inputs are
     * cuzk_fil_window_post_inputs' padded ones. */
    cuzk_fil_post_partition *p, *q;
    CHECK(cuzk_fil_post_partition_synthetic(&p, 5, test_rand_u64(), 2) == CUZK_OK);
    uint8_t *bufs[2];
    size_t lens[2];
    encode_all(p, bufs, lens);
    CHECK(decode(p, bufs, lens, 1, &q) == CUZK_OK);
    CHECK(q->nreal == 1);
    cuzk_cs *cs = tu_cs(CUZK_CS_PROVE);
    CHECK(cuzk_fil_post_circuit(cs, &q->shape, q->sectors) == CUZK_OK);
    CHECK(cuzk_cs_finalize(cs) == CUZK_OK);
    CHECK(cuzk_cs_is_satisfied(cs, NULL, NULL));
    cuzk_prover_data pd;
    CHECK(cuzk_cs_take_prover_data(cs, &pd) == CUZK_OK);
    cuzk_fr_t want[22];
    size_t n = 0;
    CHECK(cuzk_fil_window_post_inputs(want, 22, &n, 5, q->randomness, 0, q->sector_ids,
                                      (const uint8_t(*)[32])q->comm_rs, 1) == CUZK_OK);
    CHECK(pd.n_inputs == 23);
    for (size_t i = 0; i < 22; i++)
        CHECK(cuzk_fr_eq(&pd.input[i + 1], &want[i]));
    cuzk_prover_data_free(&pd);
    cuzk_cs_destroy(cs);
    cuzk_fil_post_partition_destroy(q);
    /* The same sector as partition 1 of an API 1.0 proof: its challenges were drawn for
     * partition 0, so the proof is refused and the message names the challenge. */
    p->partition = 1;
    CHECK(decode(p, bufs, lens, 1, &q) == CUZK_ERR_FORMAT);
    CHECK(strstr(cuzk_last_error(), "the randomness asks for leaf") != NULL);
    for (size_t r = 0; r < p->nreal; r++)
        cuzk_free(bufs[r]);
    cuzk_fil_post_partition_destroy(p);
}

CUZK_TEST(fil_post_vanilla_rejects_bad_input)
{
    cuzk_fil_post_partition *p, *q = NULL;
    CHECK(cuzk_fil_post_partition_synthetic(&p, 3, test_rand_u64(), 1) == CUZK_OK); /* 8-8-0 */
    uint8_t *buf;
    size_t len;
    CHECK(cuzk_fil_post_vanilla_encode(p, 0, &buf, &len) == CUZK_OK);
    uint8_t *copy = malloc(len + 1);
    CHECK(copy != NULL);
    const uint8_t *one[1] = {copy};
    size_t lens[1];
    /* Every truncation is a clear FORMAT error (never a crash, never a partition). */
    size_t step = len / 97 + 1;
    for (size_t cut = 0; cut < len; cut += step) {
        memcpy(copy, buf, cut);
        lens[0] = cut;
        CHECK_MSG(cuzk_fil_post_partition_from_vanilla(&q, 3, p->randomness, 0, one, lens, 1, 2) ==
                      CUZK_ERR_FORMAT,
                  "cut at %zu", cut);
        CHECK(q == NULL);
    }
    /* A byte after the end. */
    memcpy(copy, buf, len);
    copy[len] = 0;
    lens[0] = len + 1;
    CHECK(cuzk_fil_post_partition_from_vanilla(&q, 3, p->randomness, 0, one, lens, 1, 2) ==
          CUZK_ERR_FORMAT);
    lens[0] = len;
    /* Offsets: sector_id 0, comm_r 8, sector proof count 40, inclusion count 48, the first
     * Merkle proof's variant 56 and its first base level's sibling count 72, first sibling 80. */
    struct {
        size_t at;
        uint8_t xor ;
        cuzk_status want;
        const char *msg;
    } M[] = {
        {0, 1, CUZK_ERR_FORMAT, "the randomness asks for leaf"}, /* another sector id */
        {8, 1, CUZK_ERR_FORMAT, "is not comm_r"},                /* comm_r */
        {39, 0xff, CUZK_ERR_NOT_CANONICAL, "comm_r is not a canonical"},
        {40, 2, CUZK_ERR_FORMAT, "sector proofs"},
        {48, 1, CUZK_ERR_FORMAT, "inclusion proofs"},
        {56, 1, CUZK_ERR_FORMAT, "variant"},
        {72, 1, CUZK_ERR_FORMAT, "siblings in a path level"},
        {80, 1, CUZK_ERR_FORMAT, "does not hash to comm_r_last"},
        {len - 33, 1, CUZK_ERR_FORMAT, "is not comm_r"}, /* comm_c (its top byte: canonical) */
    };
    for (size_t i = 0; i < sizeof M / sizeof M[0]; i++) {
        memcpy(copy, buf, len);
        copy[M[i].at] ^= M[i].xor ;
        cuzk_status s =
            cuzk_fil_post_partition_from_vanilla(&q, 3, p->randomness, 0, one, lens, 1, 2);
        CHECK_MSG(s == M[i].want && strstr(cuzk_last_error(), M[i].msg), "mutation %zu: %d %s", i,
                  (int)s, cuzk_last_error());
        CHECK(q == NULL);
    }
    /* Another randomness, counts and ids. */
    memcpy(copy, buf, len);
    uint8_t rnd[32];
    memcpy(rnd, p->randomness, 32);
    rnd[0] ^= 1;
    CHECK(cuzk_fil_post_partition_from_vanilla(&q, 3, rnd, 0, one, lens, 1, 2) == CUZK_ERR_FORMAT);
    rnd[31] = 0xff;
    CHECK(cuzk_fil_post_partition_from_vanilla(&q, 3, rnd, 0, one, lens, 1, 2) ==
          CUZK_ERR_NOT_CANONICAL);
    CHECK(cuzk_fil_post_partition_from_vanilla(&q, 3, p->randomness, 0, one, lens, 0, 2) ==
          CUZK_ERR_INVALID_ARG);
    const uint8_t *two[2] = {copy, copy};
    size_t lens2[2] = {len, len};
    CHECK(cuzk_fil_post_partition_from_vanilla(&q, 3, p->randomness, 0, two, lens2, 2, 2) ==
          CUZK_ERR_INVALID_ARG); /* WinningPoSt: one sector */
    CHECK(cuzk_fil_post_partition_from_vanilla(&q, 3, p->randomness, 1, one, lens, 1, 2) ==
          CUZK_ERR_INVALID_ARG); /* WinningPoSt: partition 0 only */
    CHECK(cuzk_fil_post_partition_from_vanilla(&q, 8, p->randomness, 0, one, lens, 1, 2) ==
          CUZK_ERR_FORMAT); /* a WindowPoSt id: 1 sector proof of 66 inclusion proofs, not 10 */
    CHECK(cuzk_fil_post_partition_from_vanilla(&q, 15, p->randomness, 0, one, lens, 1, 2) ==
          CUZK_ERR_UNSUPPORTED);
    /* Unchanged, it is accepted. */
    CHECK(cuzk_fil_post_partition_from_vanilla(&q, 3, p->randomness, 0, one, lens, 1, 2) ==
          CUZK_OK);
    cuzk_fil_post_partition_destroy(q);
    free(copy);
    cuzk_free(buf);
    cuzk_fil_post_partition_destroy(p);
}

/* Synthesises |sh| over |d| in |mode| on |threads| threads; finalised. */
static cuzk_cs *synth_mt(const cuzk_fil_post_shape *sh, const sectors_data *d, cuzk_cs_mode mode,
                         unsigned threads)
{
    cuzk_cs *cs = tu_cs(mode);
    CHECK_MSG(cuzk_fil_post_circuit_mt(cs, sh, d->sec, threads) == CUZK_OK, "%u threads: %s",
              threads, cuzk_last_error());
    CHECK(cuzk_cs_finalize(cs) == CUZK_OK);
    return cs;
}

CUZK_TEST(fil_post_threads_match_sequential)
{
    /* 11 sectors of 3 challenges, tree 8-4-2: ranges of one sector on 2..4 threads; every mode
     * with values gives the sequential run's inputs, aux, a, b, c and densities bit for bit. */
    cuzk_fil_post_shape sh = {
        .sector_count = 11, .challenge_count = 3, .depth = 3, .arities = {8, 4, 2}};
    sectors_data d = make_sectors(&sh, 10);
    static const cuzk_cs_mode MODES[] = {CUZK_CS_PROVE, CUZK_CS_PROVE_AB, CUZK_CS_WITNESS};
    for (size_t m = 0; m < 3; m++) {
        cuzk_cs *ref = synth_mt(&sh, &d, MODES[m], 1);
        cuzk_prover_data x;
        CHECK(cuzk_cs_take_prover_data(ref, &x) == CUZK_OK);
        for (unsigned t = 2; t <= 4; t++) {
            cuzk_cs *cs = synth_mt(&sh, &d, MODES[m], t);
            cuzk_prover_data y;
            CHECK(cuzk_cs_take_prover_data(cs, &y) == CUZK_OK);
            CHECK(x.n_inputs == y.n_inputs && x.n_aux == y.n_aux && x.n_rows == y.n_rows &&
                  x.n_constraints == y.n_constraints);
            CHECK(!memcmp(x.input, y.input, x.n_inputs * sizeof(cuzk_fr_t)));
            CHECK(!memcmp(x.aux, y.aux, x.n_aux * sizeof(cuzk_fr_t)));
            if (x.a) {
                CHECK(!memcmp(x.a, y.a, x.n_rows * sizeof(cuzk_fr_t)));
                CHECK(!memcmp(x.b, y.b, x.n_rows * sizeof(cuzk_fr_t)));
                CHECK((x.c == NULL) == (y.c == NULL));
                if (x.c)
                    CHECK(!memcmp(x.c, y.c, x.n_rows * sizeof(cuzk_fr_t)));
                CHECK(tu_bits_eq(x.a_aux_density, y.a_aux_density, x.n_aux));
                CHECK(tu_bits_eq(x.b_aux_density, y.b_aux_density, x.n_aux));
                CHECK(tu_bits_eq(x.b_input_density, y.b_input_density, x.n_inputs));
                CHECK(x.a_aux_popcount == y.a_aux_popcount &&
                      x.b_aux_popcount == y.b_aux_popcount &&
                      x.b_input_popcount == y.b_input_popcount);
            }
            cuzk_prover_data_free(&y);
            cuzk_cs_destroy(cs);
        }
        cuzk_prover_data_free(&x);
        cuzk_cs_destroy(ref);
    }
    /* CHECK mode: a leaf of sector 7 changed; the same first failing row and namespace. */
    cuzk_fr_add(&d.lv[7 * 3 + 1], &d.lv[7 * 3 + 1], cuzk_r1cs_pow2(0));
    size_t r1 = 0, r3 = 0;
    const char *w1 = NULL, *w3 = NULL;
    cuzk_cs *c1 = synth_mt(&sh, &d, CUZK_CS_CHECK, 1), *c3 = synth_mt(&sh, &d, CUZK_CS_CHECK, 3);
    CHECK(!cuzk_cs_is_satisfied(c1, &r1, &w1) && !cuzk_cs_is_satisfied(c3, &r3, &w3));
    CHECK_MSG(r1 == r3 && w1 && w3 && strcmp(w1, w3) == 0, "rows %zu / %zu, %s / %s", r1, r3,
              w1 ? w1 : "-", w3 ? w3 : "-");
    CHECK(strstr(w1, "sector_7") != NULL);
    cuzk_cs_destroy(c1);
    cuzk_cs_destroy(c3);
    /* A range that fails (a sector without its paths) fails the whole synthesis with its
     * message, on any thread count. */
    d.sec[9].siblings = NULL;
    d.sec[9].leaves = NULL;
    for (unsigned t = 1; t <= 3; t += 2) {
        cuzk_cs *cs = tu_cs(CUZK_CS_PROVE);
        CHECK(cuzk_fil_post_circuit_mt(cs, &sh, d.sec, t) == CUZK_ERR_INVALID_ARG);
        CHECK(strstr(cuzk_last_error(), "leaf, path and root are required") != NULL);
        cuzk_cs_destroy(cs);
    }
    free_sectors(&d);
}

CUZK_TEST(r1cs_extend_rejects)
{
    cuzk_cs *a = tu_cs(CUZK_CS_PROVE), *b = tu_cs(CUZK_CS_WITNESS), *k = tu_cs(CUZK_CS_KEYGEN);
    CHECK(cuzk_cs_extend(a, b) == CUZK_ERR_INVALID_ARG); /* modes differ */
    CHECK(cuzk_cs_extend(k, k) == CUZK_ERR_INVALID_ARG); /* KEYGEN */
    cuzk_cs *c = tu_cs(CUZK_CS_PROVE);
    CHECK(cuzk_cs_finalize(c) == CUZK_OK);
    CHECK(cuzk_cs_extend(a, c) == CUZK_ERR_INVALID_ARG); /* finalised */
    CHECK(cuzk_cs_extend(c, a) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_cs_num_inputs(a) == 1 && cuzk_cs_num_aux(a) == 0);
    cuzk_cs_destroy(a);
    cuzk_cs_destroy(b);
    cuzk_cs_destroy(c);
    cuzk_cs_destroy(k);
}

static cuzk_status visit(void *ctx, size_t i)
{
    int *seen = ctx;
    __atomic_add_fetch(&seen[i], 1, __ATOMIC_RELAXED);
    if (i == 9 || i == 5)
        return cuzk_fail(i == 5 ? CUZK_ERR_FORMAT : CUZK_ERR_IO, "item %zu failed", i);
    return CUZK_OK;
}

CUZK_TEST(fil_par_for_lowest_failure)
{
    for (unsigned t = 0; t <= 4; t++) {
        int seen[40] = {0};
        CHECK(cuzk__fil_par_for(40, t, visit, seen) == CUZK_ERR_FORMAT);
        CHECK(strcmp(cuzk_last_error(), "item 5 failed") == 0);
        for (size_t i = 0; i < 40; i++)
            CHECK_MSG(seen[i] == 1, "%u threads: item %zu run %d times", t, i, seen[i]);
    }
    int seen[3] = {0};
    CHECK(cuzk__fil_par_for(3, 8, visit, seen) == CUZK_OK && seen[2] == 1);
    CHECK(cuzk__fil_par_for(0, 8, visit, seen) == CUZK_OK);
}

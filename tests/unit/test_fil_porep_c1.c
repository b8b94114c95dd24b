/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * PoRep C1 output (src/filecoin/porep_vanilla.c, porep_c1_{bin,json,synth}.c): shapes and
 * names of the 20 RegisteredSealProof ids; create_label against a message assembled here the
 * long way; a 2 KiB sector replicated for real (cuzk__fil_porep_parents_synthetic's graph) whose C1
 * passes every check and survives bincode, serde JSON and Curio's wrapper byte for byte; the 13
 * partitions of an NI 2 KiB C1; the Sub (32 GiB) and Top (64 GiB) MerkleProof layouts read back
 * unchecked. Rejected, each with its status and message and nothing returned: truncation at every
 * offset (bincode), trailing bytes, bad JSON, missing keys, wrong counts, a non-byte, an unknown
 * proof name, bad base64, a SectorSize mismatch, and one tampered value of each kind the checks
 * cover.
 */
#include "test.h"
#include "test_r1cs_util.h"

#include "cuzk/alloc.h"
#include "filecoin/porep_graph.h"
#include "filecoin/porep_vanilla.h"
#include "gadgets/circuit_rand.h"

#include <openssl/evp.h>
#include <string.h>

/* With every challenge at node |at| when it is not 0. */
static cuzk_fil_porep_c1 *make_at(uint64_t id, uint64_t seed, uint64_t at)
{
    cuzk_fil_porep_c1_shape sh;
    CHECK(cuzk_fil_porep_c1_shape_get(&sh, id) == CUZK_OK);
    size_t n = sh.partitions * sh.challenges;
    uint64_t *ch = cuzk_alloc_array(n, sizeof *ch), s = seed;
    for (size_t i = 0; i < n; i++)
        ch[i] = at ? at : 1 + cuzk__splitmix64(&s) % (sh.nodes - 1);
    uint64_t pseed = seed;
    cuzk_fil_porep_c1 *c1 = NULL;
    cuzk_status st = cuzk_fil_porep_c1_synthetic(&c1, id, seed, sh.partitions, ch,
                                                 cuzk__fil_porep_parents_synthetic, &pseed);
    CHECK_MSG(st == CUZK_OK, "%s", cuzk_last_error());
    cuzk_free(ch);
    return c1;
}

static cuzk_fil_porep_c1 *make(uint64_t id, uint64_t seed)
{
    return make_at(id, seed, 0);
}

CUZK_TEST(fil_porep_c1_shapes)
{
    cuzk_fil_porep_c1_shape sh;
    CHECK(cuzk_fil_porep_c1_shape_get(&sh, 5) == CUZK_OK);
    CHECK(sh.nodes == 64 && sh.layers == 2 && sh.challenges == 2 && sh.partitions == 1);
    CHECK(sh.depth_d == 6 && sh.depth == 2 && sh.variant == 0 && sh.path_len == 14);
    CHECK(cuzk_fil_porep_c1_shape_get(&sh, 8) == CUZK_OK); /* 32 GiB V1_1 */
    CHECK(sh.layers == 11 && sh.challenges == 18 && sh.partitions == 10);
    CHECK(sh.depth_d == 30 && sh.depth == 10 && sh.variant == 1 && sh.path_len == 70);
    CHECK(cuzk_fil_porep_c1_shape_get(&sh, 4) == CUZK_OK); /* 64 GiB V1 */
    CHECK(sh.depth_d == 31 && sh.depth == 11 && sh.variant == 2 && sh.path_len == 71);
    CHECK(cuzk_fil_porep_c1_shape_get(&sh, 15) == CUZK_OK && sh.partitions == 13);
    CHECK(cuzk_fil_porep_c1_shape_get(&sh, 18) == CUZK_OK && sh.partitions == 126);
    CHECK(cuzk_fil_porep_c1_shape_get(&sh, 20) == CUZK_ERR_UNSUPPORTED);
    CHECK(strcmp(cuzk_fil_seal_proof_name(0), "StackedDrg2KiBV1") == 0);
    CHECK(strcmp(cuzk_fil_seal_proof_name(8), "StackedDrg32GiBV1_1") == 0);
    CHECK(strcmp(cuzk_fil_seal_proof_name(13), "StackedDrg32GiBV1_1_Feat_SyntheticPoRep") == 0);
    CHECK(strcmp(cuzk_fil_seal_proof_name(19), "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep") ==
          0);
    CHECK(cuzk_fil_seal_proof_name(20) == NULL);
    for (uint64_t i = 0; i < 20; i++) {
        uint64_t back = 99;
        CHECK(cuzk_fil_seal_proof_from_name(&back, cuzk_fil_seal_proof_name(i)) == CUZK_OK);
        CHECK(back == i);
    }
    uint64_t x;
    CHECK(cuzk_fil_seal_proof_from_name(&x, "StackedDrg2KiBV2") == CUZK_ERR_UNSUPPORTED);
    /* The circuit's registry (the C1 shape reads it) and the graph's agree on every id. */
    for (uint64_t i = 0; i < 20; i++) {
        cuzk_fil_porep_info info;
        CHECK(cuzk_fil_porep_c1_shape_get(&sh, i) == CUZK_OK);
        CHECK(cuzk_fil_porep_info_get(&info, i) == CUZK_OK);
        CHECK_MSG(sh.nodes == info.nodes && sh.layers == info.layers &&
                      sh.partitions == info.partitions &&
                      sh.challenges == info.challenges_per_partition &&
                      strcmp(info.name, cuzk_fil_seal_proof_name(i)) == 0,
                  "id %llu", (unsigned long long)i);
    }
}

/* create_label: the 1,248-byte message written out byte by byte. */
CUZK_TEST(fil_porep_c1_label)
{
    uint64_t s = 0x1abe1;
    uint8_t rid[32];
    for (int i = 0; i < 32; i++)
        rid[i] = (uint8_t)cuzk__splitmix64(&s);
    rid[31] &= 0x3f;
    cuzk_fr_t par[14], rid_fr;
    CHECK(cuzk_fr_from_bytes_le(&rid_fr, rid) == CUZK_OK);
    for (int j = 0; j < 14; j++)
        cuzk__rand_fr_254(&par[j], &s);
    for (int layer = 1; layer <= 3; layer++) {
        uint64_t node = 0x0102030405060708ULL + (uint64_t)layer;
        uint8_t msg[1248] = {0};
        memcpy(msg, rid, 32);
        msg[35] = (uint8_t)layer; /* u32 BE */
        for (int i = 0; i < 8; i++)
            msg[36 + i] = (uint8_t)(node >> (8 * (7 - i)));
        for (int k = 0; k < 37; k++) {
            /* layer 1: 6 parents, 6 times, then parents[0]; above: 14 twice, then the first 9 */
            int j = layer == 1 ? (k < 36 ? k % 6 : 0) : (k < 28 ? k % 14 : k - 28);
            cuzk_fr_to_bytes_le(msg + 64 + 32 * k, &par[j]);
        }
        uint8_t md[32];
        unsigned mdlen;
        CHECK(EVP_Digest(msg, sizeof msg, md, &mdlen, EVP_sha256(), NULL) == 1);
        md[31] &= 0x3f;
        cuzk_fr_t want, got;
        CHECK(cuzk_fr_from_bytes_le(&want, md) == CUZK_OK);
        cuzk_fil_porep_create_label(&got, &rid_fr, (uint32_t)layer, node, par);
        CHECK(cuzk_fr_eq(&got, &want));
    }
    /* node 0: the first block only */
    uint8_t msg[64] = {0}, md[32];
    unsigned mdlen;
    memcpy(msg, rid, 32);
    msg[35] = 1;
    CHECK(EVP_Digest(msg, sizeof msg, md, &mdlen, EVP_sha256(), NULL) == 1);
    md[31] &= 0x3f;
    cuzk_fr_t want, got;
    CHECK(cuzk_fr_from_bytes_le(&want, md) == CUZK_OK);
    cuzk_fil_porep_create_label(&got, &rid_fr, 1, 0, par);
    CHECK(cuzk_fr_eq(&got, &want));
}

static void bin_of(const cuzk_fil_porep_c1 *c1, uint8_t **b, size_t *n)
{
    CHECK_MSG(cuzk_fil_porep_c1_to_bincode(c1, b, n) == CUZK_OK, "%s", cuzk_last_error());
}

/* bincode, JSON and Curio's wrapper read back to the same C1 (compared through bincode). */
static void round_trips(const cuzk_fil_porep_c1 *c1)
{
    uint8_t *b0, *b1;
    size_t n0, n1;
    bin_of(c1, &b0, &n0);
    cuzk_fil_porep_c1 *back = NULL;
    CHECK_MSG(cuzk_fil_porep_c1_from_bincode(&back, c1->shape.seal_proof_type, b0, n0) == CUZK_OK,
              "%s", cuzk_last_error());
    CHECK(cuzk_fr_eq(&back->comm_c, &c1->comm_c) &&
          cuzk_fr_eq(&back->comm_r_last, &c1->comm_r_last));
    bin_of(back, &b1, &n1);
    CHECK(n0 == n1 && memcmp(b0, b1, n0) == 0);
    cuzk_free(b1);
    cuzk_fil_porep_c1_destroy(back);

    char *js;
    size_t jn;
    CHECK(cuzk_fil_porep_c1_to_json(c1, &js, &jn) == CUZK_OK && strlen(js) == jn);
    CHECK_MSG(cuzk_fil_porep_c1_from_json(&back, js, jn) == CUZK_OK, "%s", cuzk_last_error());
    bin_of(back, &b1, &n1);
    CHECK(n0 == n1 && memcmp(b0, b1, n0) == 0);
    cuzk_free(b1);
    cuzk_fil_porep_c1_destroy(back);
    cuzk_free(js);

    CHECK(cuzk_fil_porep_c1_to_curio(c1, 4242, &js, &jn) == CUZK_OK);
    uint64_t num = 0;
    CHECK_MSG(cuzk_fil_porep_c1_from_curio(&back, &num, js, jn) == CUZK_OK, "%s",
              cuzk_last_error());
    CHECK(num == 4242);
    bin_of(back, &b1, &n1);
    CHECK(n0 == n1 && memcmp(b0, b1, n0) == 0);
    cuzk_free(b1);
    cuzk_fil_porep_c1_destroy(back);
    cuzk_free(js);
    cuzk_free(b0);
}

CUZK_TEST(fil_porep_c1_round_trip_2k)
{
    uint64_t seed = test_rand_u64();
    cuzk_fil_porep_c1 *c1 = make(5, seed);
    if (!c1)
        return;
    round_trips(c1);
    cuzk_fil_porep_c1_destroy(c1);
    /* NI: 13 partitions of 2 challenges */
    c1 = make(15, seed + 1);
    if (!c1)
        return;
    CHECK(c1->npartitions == 13);
    round_trips(c1);
    cuzk_fil_porep_c1_destroy(c1);
}

/* Sub and Top MerkleProofs (32 / 64 GiB) read back unchecked, value for value. */
CUZK_TEST(fil_porep_c1_layouts_big)
{
    for (uint64_t id = 3; id <= 4; id++) {
        cuzk_fil_porep_c1_shape sh;
        CHECK(cuzk_fil_porep_c1_shape_get(&sh, id) == CUZK_OK);
        cuzk_fil_porep_c1 *c1;
        CHECK(cuzk_fil_porep_c1_alloc(&c1, &sh, 1) == CUZK_OK); /* one of 10 partitions */
        uint64_t s = 77 + id;
        size_t n = sh.challenges;
        cuzk_fr_t *v = c1->storage;
        for (cuzk_fr_t *e = v; e < (cuzk_fr_t *)c1->proofs[n - 1].enc_parents + 14; e++)
            cuzk__rand_fr_254(e, &s);
        for (size_t i = 0; i < n; i++) {
            cuzk_fil_porep_challenge_proof *cp = &c1->proofs[i];
            cp->comm_d.index = cuzk__splitmix64(&s) % sh.nodes;
            cp->comm_r_last.index = cuzk__splitmix64(&s) % sh.nodes;
            cp->c_x.index = (uint32_t)(cuzk__splitmix64(&s) % sh.nodes);
            cp->c_x.proof.index = cp->c_x.index;
            cuzk__rand_fr_254(&cp->comm_d.leaf, &s);
            cuzk__rand_fr_254(&cp->comm_r_last.root, &s);
            cp->enc_layer = 11;
            cp->enc_node = i;
        }
        uint8_t *b0, *b1;
        size_t n0, n1;
        bin_of(c1, &b0, &n0);
        cuzk_fil_porep_c1 *back = NULL;
        CHECK_MSG(cuzk__fil_porep_c1_decode_bincode(&back, id, b0, n0, false) == CUZK_OK, "%s",
                  cuzk_last_error());
        if (back) {
            bin_of(back, &b1, &n1);
            CHECK(n0 == n1 && memcmp(b0, b1, n0) == 0);
            cuzk_free(b1);
            cuzk_fil_porep_c1_destroy(back);
        }
        char *js = NULL;
        size_t jn;
        CHECK(cuzk_fil_porep_c1_to_json(c1, &js, &jn) == CUZK_OK);
        if (js)
            CHECK_MSG(cuzk__fil_porep_c1_decode_json(&back, js, jn, false) == CUZK_OK, "%s",
                      cuzk_last_error());
        if (js && back) {
            bin_of(back, &b1, &n1);
            CHECK(n0 == n1 && memcmp(b0, b1, n0) == 0);
            cuzk_free(b1);
            cuzk_fil_porep_c1_destroy(back);
        }
        /* checked, one partition of ten and random openings are refused */
        back = (cuzk_fil_porep_c1 *)1;
        CHECK(cuzk_fil_porep_c1_from_bincode(&back, id, b0, n0) == CUZK_ERR_FORMAT && !back);
        cuzk_free(js);
        cuzk_free(b0);
        cuzk_fil_porep_c1_destroy(c1);
    }
}

/* The witness of each partition of a C1 satisfies the circuit, its public inputs those the
 * circuit inputizes; the 2 KiB sector and the NI one (13 partitions, two of them proved here). */
static void satisfies(const cuzk_fil_porep_c1 *c1, size_t k)
{
    cuzk_fil_porep_partition *p = NULL;
    CHECK_MSG(cuzk_fil_porep_partition_from_c1(&p, c1, k) == CUZK_OK, "%s", cuzk_last_error());
    if (!p)
        return;
    cuzk_cs *cs = tu_cs(CUZK_CS_CHECK);
    CHECK_MSG(cuzk_fil_porep_circuit(cs, &p->shape, &p->w) == CUZK_OK, "%s", cuzk_last_error());
    CHECK(cuzk_cs_finalize(cs) == CUZK_OK);
    size_t row = 0;
    const char *where = NULL;
    CHECK_MSG(cuzk_cs_is_satisfied(cs, &row, &where), "partition %zu: row %zu (%s)", k, row,
              where ? where : "-");
    size_t ni = cuzk_fil_porep_num_inputs(&p->shape);
    cuzk_fr_t *want = cuzk_alloc_array(ni, sizeof *want), got;
    cuzk_fil_porep_public_inputs(want, &p->shape, &p->w);
    for (size_t i = 0; i < ni; i++) {
        cuzk_cs_value(cs, &got, cuzk_var_input((uint32_t)i + 1));
        CHECK_MSG(cuzk_fr_eq(&got, &want[i]), "public input %zu", i);
    }
    /* the challenge input is the C1's challenge */
    cuzk_fr_t x;
    cuzk_fr_set_u64(&x, c1->proofs[k * c1->shape.challenges].c_x.index);
    CHECK(cuzk_fr_eq(&want[3 + 15], &x));
    cuzk_free(want);
    cuzk_cs_destroy(cs);
    cuzk_fil_porep_partition_destroy(p);
}

CUZK_TEST(fil_porep_c1_witness_satisfies)
{
    uint64_t seed = test_rand_u64();
    cuzk_fil_porep_c1 *c1 = make(5, seed);
    if (c1)
        satisfies(c1, 0);
    cuzk_fil_porep_partition *p = (cuzk_fil_porep_partition *)1;
    CHECK(c1 && cuzk_fil_porep_partition_from_c1(&p, c1, 1) == CUZK_ERR_INVALID_ARG && !p);
    cuzk_fil_porep_c1_destroy(c1);
    c1 = make(15, seed + 1);
    if (c1) {
        satisfies(c1, 0);
        satisfies(c1, 12);
    }
    cuzk_fil_porep_c1_destroy(c1);
}

/* A sector replicated over the PoRep graph with the challenges Filecoin derives passes the
 * graph's checks for each variant (V1, V1_1, synthetic, NI) and replica_id's for its miner and
 * sector; a changed parent index, challenge, miner or sector is refused by name, and so is a
 * sector over the test graph. */
CUZK_TEST(fil_porep_c1_graph_checks)
{
    uint64_t seed = test_rand_u64();
    const uint64_t ids[4] = {0, 5, 10, 15};
    for (int t = 0; t < 4; t++) {
        cuzk_fil_porep_c1_shape sh;
        CHECK(cuzk_fil_porep_c1_shape_get(&sh, ids[t]) == CUZK_OK);
        cuzk_fil_porep_c1 *c1 = NULL;
        cuzk_status st = cuzk_fil_porep_c1_synthetic(&c1, ids[t], seed + (uint64_t)t, sh.partitions,
                                                     NULL, NULL, NULL);
        CHECK_MSG(st == CUZK_OK, "id %llu: %s", (unsigned long long)ids[t], cuzk_last_error());
        if (!c1)
            continue;
        CHECK_MSG(cuzk_fil_porep_c1_check_graph(c1, 2) == CUZK_OK, "id %llu: %s",
                  (unsigned long long)ids[t], cuzk_last_error());
        uint64_t sector = (seed + (uint64_t)t) & 0xffffffffu;
        CHECK_MSG(cuzk_fil_porep_c1_check_replica(c1, CUZK_FIL_POREP_SYNTH_MINER, sector) ==
                      CUZK_OK,
                  "%s", cuzk_last_error());
        CHECK(cuzk_fil_porep_c1_check_replica(c1, CUZK_FIL_POREP_SYNTH_MINER + 1, sector) ==
              CUZK_ERR_FORMAT);
        CHECK(cuzk_fil_porep_c1_check_replica(c1, CUZK_FIL_POREP_SYNTH_MINER, sector ^ 1) ==
              CUZK_ERR_FORMAT);
        if (t == 1)
            satisfies(c1, 0);
        cuzk_fil_porep_challenge_proof *cp = &c1->proofs[c1->npartitions * sh.challenges - 1];
        cp->exp[3].index ^= 1;
        CHECK(cuzk_fil_porep_c1_check_graph(c1, 1) == CUZK_ERR_FORMAT);
        CHECK_MSG(strstr(cuzk_last_error(), "expander parent 3") != NULL, "%s", cuzk_last_error());
        cp->exp[3].index ^= 1;
        cp->drg[0].index ^= 1;
        CHECK(cuzk_fil_porep_c1_check_graph(c1, 1) == CUZK_ERR_FORMAT);
        CHECK_MSG(strstr(cuzk_last_error(), "DRG parent 0") != NULL, "%s", cuzk_last_error());
        cp->drg[0].index ^= 1;
        c1->proofs[0].c_x.index ^= 1;
        CHECK(cuzk_fil_porep_c1_check_graph(c1, 1) == CUZK_ERR_FORMAT);
        CHECK_MSG(strstr(cuzk_last_error(), "derived challenge") != NULL, "%s", cuzk_last_error());
        cuzk_fil_porep_c1_destroy(c1);
    }
    cuzk_fil_porep_c1 *c1 = make(5, seed);
    CHECK(c1 && cuzk_fil_porep_c1_check_graph(c1, 1) == CUZK_ERR_FORMAT);
    cuzk_fil_porep_c1_destroy(c1);
}

/* |mutate| applied to a copy of |c1|, written as bincode and read back: |st| and |msg|. */
static void refused(const cuzk_fil_porep_c1 *c1, void (*mutate)(cuzk_fil_porep_c1 *),
                    cuzk_status st, const char *msg)
{
    uint8_t *b;
    size_t n;
    bin_of(c1, &b, &n);
    cuzk_fil_porep_c1 *m = NULL;
    CHECK(cuzk__fil_porep_c1_decode_bincode(&m, c1->shape.seal_proof_type, b, n, false) == CUZK_OK);
    cuzk_free(b);
    if (!m)
        return;
    mutate(m);
    bin_of(m, &b, &n);
    cuzk_fil_porep_c1_destroy(m);
    m = (cuzk_fil_porep_c1 *)1;
    cuzk_status got = cuzk_fil_porep_c1_from_bincode(&m, c1->shape.seal_proof_type, b, n);
    CHECK_MSG(got == st && !m, "%s: got %s (%s)", msg, cuzk_status_name(got), cuzk_last_error());
    CHECK_MSG(strstr(cuzk_last_error(), msg) != NULL, "want \"%s\" in \"%s\"", msg,
              cuzk_last_error());
    cuzk_free(b);
}

static void bump(cuzk_fr_t *v)
{
    cuzk_fr_t one;
    cuzk_fr_set_one(&one);
    cuzk_fr_add(v, v, &one);
}

static void m_data_leaf(cuzk_fil_porep_c1 *m)
{
    bump(&m->proofs[1].comm_d.leaf);
}
static void m_r_sibling(cuzk_fil_porep_c1 *m)
{
    bump(&m->proofs[0].comm_r_last.siblings[3]);
}
static void m_drg_row(cuzk_fil_porep_c1 *m)
{
    bump(&m->proofs[1].drg[2].rows[0]);
}
static void m_exp_sibling(cuzk_fil_porep_c1 *m)
{
    bump(&m->proofs[0].exp[7].proof.siblings[0]);
}
static void m_label_parent(cuzk_fil_porep_c1 *m)
{
    bump(&m->proofs[0].label_parents[14 + 9]);
}
static void m_label_node(cuzk_fil_porep_c1 *m)
{
    m->proofs[1].label_node[1] ^= 1;
}
static void m_label_layer(cuzk_fil_porep_c1 *m)
{
    m->proofs[0].label_layer[0] = 2;
}
static void m_enc_node(cuzk_fil_porep_c1 *m)
{
    m->proofs[0].enc_node++;
}
static void m_enc_parent(cuzk_fil_porep_c1 *m)
{
    bump(&m->proofs[1].enc_parents[13]);
}
static void m_exp_index(cuzk_fil_porep_c1 *m)
{
    m->proofs[0].exp[3].index = 64;
}
static void m_drg_index(cuzk_fil_porep_c1 *m)
{
    m->proofs[1].drg[4].index = (uint32_t)m->proofs[1].c_x.index;
}
static void m_cx_index(cuzk_fil_porep_c1 *m)
{
    m->proofs[0].c_x.index ^= 1;
}
static void m_comm_r(cuzk_fil_porep_c1 *m)
{
    m->comm_r[0] ^= 1;
}
static void m_comm_d(cuzk_fil_porep_c1 *m)
{
    m->comm_d[0] ^= 1;
}
static void m_replica_id(cuzk_fil_porep_c1 *m)
{
    memset(m->replica_id, 0xff, 32);
}
static void m_replica_id_bit(cuzk_fil_porep_c1 *m)
{
    m->replica_id[5] ^= 4;
}
static void m_challenge_zero(cuzk_fil_porep_c1 *m)
{
    m->proofs[0].comm_d.index = 0;
}

CUZK_TEST(fil_porep_c1_rejects)
{
    uint64_t seed = test_rand_u64() + 7;
    cuzk_fil_porep_c1 *c1 = make(0, seed);
    if (!c1)
        return;
    refused(c1, m_data_leaf, CUZK_ERR_FORMAT, "does not hash to its root in tree D");
    refused(c1, m_r_sibling, CUZK_ERR_FORMAT, "does not hash to its root in tree R_last");
    refused(c1, m_drg_row, CUZK_ERR_FORMAT, "leaf is not the hash of its rows: DRG parent 2");
    refused(c1, m_exp_sibling, CUZK_ERR_FORMAT, "does not hash to its root in expander parent 7");
    refused(c1, m_label_parent, CUZK_ERR_FORMAT, "parent is not the parent column's row: layer 2");
    refused(c1, m_label_node, CUZK_ERR_FORMAT, "names another layer or node: layer 2");
    refused(c1, m_label_layer, CUZK_ERR_FORMAT, "names another layer or node: layer 1");
    refused(c1, m_enc_node, CUZK_ERR_FORMAT, "the encoding proof");
    refused(c1, m_enc_parent, CUZK_ERR_FORMAT, "the encoding proof");
    refused(c1, m_exp_index, CUZK_ERR_FORMAT, "expander parent is outside the sector");
    refused(c1, m_drg_index, CUZK_ERR_FORMAT, "DRG parent is not below the challenge");
    refused(c1, m_cx_index, CUZK_ERR_FORMAT, "open different nodes");
    refused(c1, m_comm_r, CUZK_ERR_FORMAT, "is not comm_r");
    refused(c1, m_comm_d, CUZK_ERR_FORMAT, "tree D root is not comm_d");
    refused(c1, m_replica_id, CUZK_ERR_NOT_CANONICAL, "replica_id");
    refused(c1, m_replica_id_bit, CUZK_ERR_FORMAT, "create_label of the parents");
    refused(c1, m_challenge_zero, CUZK_ERR_FORMAT, "node 0");
    /* Challenges at node 1, whose DRG parents are all node 0: it passes, and a parent index
     * of 1 there is refused like any other not below its challenge. */
    cuzk_fil_porep_c1 *one = make_at(0, seed, 1);
    if (one) {
        refused(one, m_drg_index, CUZK_ERR_FORMAT, "DRG parent is not below the challenge");
        cuzk_fil_porep_c1_destroy(one);
    }

    /* bincode: every truncation, and trailing bytes */
    uint8_t *b;
    size_t n;
    bin_of(c1, &b, &n);
    for (size_t cut = 0; cut < n; cut += cut < 4096 ? 1 : 61) {
        cuzk_fil_porep_c1 *m = (cuzk_fil_porep_c1 *)1;
        cuzk_status st = cuzk_fil_porep_c1_from_bincode(&m, 0, b, cut);
        CHECK_MSG(st == CUZK_ERR_FORMAT && !m, "cut at %zu: %s", cut, cuzk_status_name(st));
    }
    uint8_t *longer = cuzk_alloc(n + 1);
    memcpy(longer, b, n);
    longer[n] = 0;
    cuzk_fil_porep_c1 *m = NULL;
    CHECK(cuzk_fil_porep_c1_from_bincode(&m, 0, longer, n + 1) == CUZK_ERR_FORMAT && !m);
    CHECK(strstr(cuzk_last_error(), "after the ticket") != NULL);
    /* another size's proof id */
    CHECK(cuzk_fil_porep_c1_from_bincode(&m, 1, b, n) == CUZK_ERR_FORMAT && !m);
    CHECK(cuzk_fil_porep_c1_from_bincode(&m, 20, b, n) == CUZK_ERR_UNSUPPORTED && !m);
    cuzk_free(longer);
    cuzk_free(b);

    /* JSON */
    char *js;
    size_t jn;
    CHECK(cuzk_fil_porep_c1_to_json(c1, &js, &jn) == CUZK_OK);
    CHECK(cuzk_fil_porep_c1_from_json(&m, js, jn - 1) == CUZK_ERR_FORMAT && !m);
    CHECK(strstr(cuzk_last_error(), "not valid JSON") != NULL);
    char *tail = cuzk_alloc(jn + 3);
    memcpy(tail, js, jn);
    memcpy(tail + jn, " \n{", 3);
    CHECK(cuzk_fil_porep_c1_from_json(&m, tail, jn + 2) == CUZK_OK && m);
    cuzk_fil_porep_c1_destroy(m);
    m = NULL;
    CHECK(cuzk_fil_porep_c1_from_json(&m, tail, jn + 3) == CUZK_ERR_FORMAT && !m);
    cuzk_free(tail);
    struct {
        const char *from, *to, *msg;
        cuzk_status st;
    } edits[] = {
        {"\"registered_proof\":\"StackedDrg2KiBV1\"", "\"registered_proof\":\"StackedDrg2KiBV9\"",
         "unknown RegisteredSealProof", CUZK_ERR_UNSUPPORTED},
        {"\"StackedDrg2KiBV1\":[[", "\"StackedDrg8MiBV1\":[[", "StackedDrg2KiBV1 is missing",
         CUZK_ERR_FORMAT},
        {"\"comm_d_proofs\"", "\"comm_d_proofz\"", "comm_d_proofs is missing", CUZK_ERR_FORMAT},
        {"\"layer_index\":1,", "\"layer_index\":1.5,", "layer_index is not an integer",
         CUZK_ERR_FORMAT},
        {"\"drg_parents\":[", "\"drg_parents\":[{},", "drg_parents has 7 elements",
         CUZK_ERR_FORMAT},
        {"\"Single\":{\"root\":[", "\"Single\":{\"root\":[300,", "is not an array of 32 bytes",
         CUZK_ERR_FORMAT},
        {"\"Single\"", "\"Sub\"", "Single is missing", CUZK_ERR_FORMAT},
        {"\"index\":", "\"index\":9,\"x\":", "", CUZK_ERR_FORMAT},
    };
    for (size_t e = 0; e < sizeof edits / sizeof edits[0]; e++) {
        const char *at = strstr(js, edits[e].from);
        CHECK_MSG(at != NULL, "edit %zu: \"%s\" not in the JSON", e, edits[e].from);
        if (!at)
            continue;
        size_t pre = (size_t)(at - js), fl = strlen(edits[e].from), tl = strlen(edits[e].to);
        char *j2 = cuzk_alloc(jn - fl + tl + 1);
        memcpy(j2, js, pre);
        memcpy(j2 + pre, edits[e].to, tl);
        memcpy(j2 + pre + tl, at + fl, jn - pre - fl + 1);
        m = NULL;
        cuzk_status st = cuzk_fil_porep_c1_from_json(&m, j2, strlen(j2));
        CHECK_MSG(st == edits[e].st && !m, "edit %zu: %s (%s)", e, cuzk_status_name(st),
                  cuzk_last_error());
        CHECK_MSG(strstr(cuzk_last_error(), edits[e].msg) != NULL, "edit %zu: \"%s\"", e,
                  cuzk_last_error());
        cuzk_free(j2);
    }
    cuzk_free(js);

    /* Curio's wrapper */
    const char *bad[] = {
        "{\"SectorNum\":1,\"SectorSize\":2048}",
        "{\"SectorNum\":1,\"Phase1Out\":\"!!!!\",\"SectorSize\":2048}",
        "{\"SectorNum\":-1,\"Phase1Out\":\"\",\"SectorSize\":2048}",
        "{\"SectorNum\":1,\"Phase1Out\":7,\"SectorSize\":2048}",
        "[]",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        m = NULL;
        CHECK_MSG(
            cuzk_fil_porep_c1_from_curio(&m, NULL, bad[i], strlen(bad[i])) == CUZK_ERR_FORMAT && !m,
            "%s: %s", bad[i], cuzk_last_error());
    }
    CHECK(cuzk_fil_porep_c1_to_curio(c1, 1, &js, &jn) == CUZK_OK);
    char *size = strstr(js, "\"SectorSize\":2048");
    CHECK(size != NULL);
    if (size) {
        memcpy(size, "\"SectorSize\":4096", 17);
        CHECK(cuzk_fil_porep_c1_from_curio(&m, NULL, js, jn) == CUZK_ERR_INVALID_ARG && !m);
        CHECK(strstr(cuzk_last_error(), "SectorSize 4096") != NULL);
    }
    cuzk_free(js);
    cuzk_fil_porep_c1_destroy(c1);
}

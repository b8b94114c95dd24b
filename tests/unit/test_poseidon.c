/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Native Poseidon: known-answer vectors (shared/facts/filecoin-circuits.md 6.1), neptune's
 * round-constant file, optimised == plain, domain tags, MDS derivations. */
#include "test.h"
#include "cuzk/poseidon.h"

static const size_t ARITIES[] = {2, 4, 8, 11, 16, 24, 36};
#define NUM_ARITIES (sizeof ARITIES / sizeof ARITIES[0])

static const cuzk_poseidon_constants *get(size_t arity, cuzk_poseidon_hash_type ht)
{
    const cuzk_poseidon_constants *c = cuzk_poseidon_constants_get(arity, ht);
    CHECK_MSG(c != NULL, "constants for arity %zu: %s", arity, cuzk_last_error());
    return c;
}

/* Fr from a 32-byte little-endian repr in hex. */
static cuzk_fr_t fr_le_hex(const char *hex)
{
    uint8_t b[32];
    cuzk_fr_t x;
    CHECK(test_unhex(b, 32, hex));
    CHECK(cuzk_fr_from_bytes_le(&x, b) == CUZK_OK);
    return x;
}

/* Fr from a big-endian integer in hex, "0x" + 64 digits (neptune's parameter file format). */
static cuzk_fr_t fr_be_hex(const char *hex)
{
    uint8_t b[32], le[32];
    cuzk_fr_t x;
    CHECK(hex[0] == '0' && hex[1] == 'x');
    CHECK(test_unhex(b, 32, hex + 2));
    for (int i = 0; i < 32; i++)
        le[i] = b[31 - i];
    CHECK(cuzk_fr_from_bytes_le(&x, le) == CUZK_OK);
    return x;
}

static void check_fr_le_hex(const cuzk_fr_t *x, const char *hex, const char *what)
{
    uint8_t got[32], want[32];
    char got_hex[65];
    cuzk_fr_to_bytes_le(got, x);
    CHECK(test_unhex(want, 32, hex));
    for (int i = 0; i < 32; i++)
        snprintf(got_hex + 2 * i, 3, "%02x", got[i]);
    CHECK_MSG(memcmp(got, want, 32) == 0, "%s: got %s, want %s", what, got_hex, hex);
}

static void rand_fr(cuzk_fr_t *x)
{
    uint64_t l[CUZK_FR_LIMBS];
    do {
        test_rand_bytes(l, sizeof l);
        l[3] &= 0x7fffffffffffffffULL;
    } while (!cuzk_fr_from_canonical(x, l));
}

/* Both evaluations, checked against each other and against |want_hex|. */
static void check_hash(size_t arity, const cuzk_fr_t *pre, const char *want_hex, const char *what)
{
    const cuzk_poseidon_constants *c = get(arity, CUZK_POSEIDON_MERKLE_TREE);
    cuzk_fr_t h, hp;
    cuzk_poseidon_hash(&h, c, pre);
    cuzk_poseidon_hash_plain(&hp, c, pre);
    check_fr_le_hex(&h, want_hex, what);
    check_fr_le_hex(&hp, want_hex, what);
}

CUZK_TEST(poseidon_kat_preimage_0_to_arity)
{
    static const struct {
        size_t arity;
        const char *hex;
    } V[] = {
        {2, "ffe7029a363c202e9da6059d33a9fba661e1ef02d90f9e736ba5765ed7086539"},
        {4, "5d076266ff149801ec2713bf05466bfb99932279653cdb008a84e5a9104ba558"},
        {8, "e6a5386df534992ad9aec49c9d2e684b777067114200011255dea5a31d619423"},
        {11, "6331692bc3bbe3cec18fb0ccd8dcf3097ae8eb32e237a56c287f22e5b2c10f0c"},
        {16, "376d266040c791126f0a68306dbc8d5b631e876f5afbc2c18aae813366e23a2d"},
    };
    for (size_t v = 0; v < sizeof V / sizeof V[0]; v++) {
        cuzk_fr_t pre[16];
        char what[64];
        for (size_t i = 0; i < V[v].arity; i++)
            cuzk_fr_set_u64(&pre[i], i);
        snprintf(what, sizeof what, "arity %zu on [0..%zu]", V[v].arity, V[v].arity - 1);
        check_hash(V[v].arity, pre, V[v].hex, what);
    }
}

CUZK_TEST(poseidon_kat_hasher_h2)
{
    const cuzk_poseidon_constants *c = get(2, CUZK_POSEIDON_MERKLE_TREE);
    cuzk_fr_t pre[2], a, b, ab;
    cuzk_fr_set_one(&pre[0]);
    cuzk_fr_set_zero(&pre[1]);
    check_hash(2, pre, "5e0b807960ff39b3af9430dcb30759ec264fa274cc03c093c36b78beff942f04",
               "H2(1, 0)");
    cuzk_poseidon_hash(&a, c, pre);
    cuzk_fr_set_zero(&pre[0]);
    cuzk_fr_set_one(&pre[1]);
    cuzk_poseidon_hash(&b, c, pre);
    pre[0] = a;
    pre[1] = b;
    check_hash(2, pre, "71e691e2e38bbbefd25a2bcbb872cc77ae746bae8563eb30ebd96ab2b7ebff1e",
               "H2(H2(1,0), H2(0,1))");
    cuzk_poseidon_hash(&ab, c, pre);
    (void)ab;
}

/* curio lib/proof/post_vproof_test.go TestPoseidonHashMulti: 8 nodes of a real tree R. */
CUZK_TEST(poseidon_kat_real_octree_nodes)
{
    static const char *IN[8] = {
        "f743111428ecda9b74a18826f1cc62d48ae1510de17e58645997559f86442f31",
        "197a6efa37086e3a37108f8460c52bc810e2781aff0091bfd7b74e3f6f752f02",
        "01c2c12f7930bbb59e3b36dae1c694b33ac6b3f199ec32a8665fadb8338f4f21",
        "bbe672a853f65cdb2563339ca61d6ad648473b4b4ce44bf3a48486424b865a2d",
        "937d57295f488cea8099f5525958f1af39c6241614b917835292e8e2314cf908",
        "3272570cd8ba38c1183629ca72d5e9149d76786ed22c1d591db3d2bccfa7d308",
        "2d3fc90e11aaf601bd1beae80fc3aba15a9e1f886d8140533ce36cda3dd9f936",
        "0a017e264d0728bfcd2edb3c6c60cc5a05a02af31a71cdd7bb2da27616f5f630",
    };
    static const char *OUT = "0737ca506df7d4544f8512df35aaa07ed8a40691e96ae868c23320220fec6866";
    cuzk_fr_t pre[8];
    uint8_t bytes[8 * 32], out[32], want[32];
    for (int i = 0; i < 8; i++) {
        pre[i] = fr_le_hex(IN[i]);
        CHECK(test_unhex(bytes + 32 * i, 32, IN[i]));
    }
    check_hash(8, pre, OUT, "arity-8 real nodes");
    CHECK(cuzk_poseidon_hash_bytes(out, get(8, CUZK_POSEIDON_MERKLE_TREE), bytes) == CUZK_OK);
    CHECK(test_unhex(want, 32, OUT));
    CHECK(memcmp(out, want, 32) == 0);
    /* A non-canonical element is refused. */
    memset(bytes, 0xff, 32);
    CHECK(cuzk_poseidon_hash_bytes(out, get(8, CUZK_POSEIDON_MERKLE_TREE), bytes) ==
          CUZK_ERR_NOT_CANONICAL);
}

/* neptune parameters/round_constants-1-1-255-9-8-57-<p>.txt: 585 constants for t = 9. */
CUZK_TEST(poseidon_round_constants_t9)
{
    const cuzk_poseidon_constants *c = get(8, CUZK_POSEIDON_MERKLE_TREE);
    CHECK(c->width == 9 && c->full_rounds == 8 && c->partial_rounds == 57);
    CHECK(c->round_constants_len == 585);
    cuzk_fr_t first =
        fr_be_hex("0x6ce90d12c4045fe08c3caddb776dd84ac52b4ae7e48cd49443984154f2f4c2f9");
    cuzk_fr_t second =
        fr_be_hex("0x0ccd9b480c84022b25a75b52c8e89d80b4fa6378d32e58f3a175504940bcec39");
    cuzk_fr_t ninth =
        fr_be_hex("0x5f2a741651a2e15ce1479c0409485bcc62fffb8f1c10d818f7e1ee309632904b");
    cuzk_fr_t last =
        fr_be_hex("0x3b3a75eb91b0f723bcc4ab7e449e4a011b8960063efe74670c05e545519d9a8c");
    CHECK(cuzk_fr_eq(&c->round_constants[0], &first));
    CHECK(cuzk_fr_eq(&c->round_constants[1], &second));
    CHECK(cuzk_fr_eq(&c->round_constants[8], &ninth));
    CHECK(cuzk_fr_eq(&c->round_constants[584], &last));

    /* The generator alone gives the same prefix. */
    cuzk_fr_t pre[9];
    cuzk_poseidon_grain_constants(pre, 9, 9, 8, 57);
    for (int i = 0; i < 9; i++)
        CHECK(cuzk_fr_eq(&pre[i], &c->round_constants[i]));
}

CUZK_TEST(poseidon_round_numbers)
{
    static const size_t RP[NUM_ARITIES] = {55, 56, 57, 57, 59, 59, 60};
    for (size_t i = 0; i < NUM_ARITIES; i++) {
        CHECK(cuzk_poseidon_partial_rounds(ARITIES[i]) == RP[i]);
        const cuzk_poseidon_constants *c = get(ARITIES[i], CUZK_POSEIDON_MERKLE_TREE);
        size_t t = ARITIES[i] + 1;
        CHECK(c->arity == ARITIES[i] && c->width == t);
        CHECK(c->partial_rounds == RP[i] && c->full_rounds == 8 && c->half_full_rounds == 4);
        CHECK(c->round_constants_len == (8 + RP[i]) * t);
        CHECK(c->compressed_round_constants_len == 8 * t + RP[i]);
    }
    CHECK(cuzk_poseidon_partial_rounds(3) == 0);
    CHECK(cuzk_poseidon_constants_get(3, CUZK_POSEIDON_MERKLE_TREE) == NULL);
    CHECK(cuzk_poseidon_constants_get(2, (cuzk_poseidon_hash_type)7) == NULL);
    /* One shared object per (arity, type). */
    CHECK(get(8, CUZK_POSEIDON_MERKLE_TREE) == get(8, CUZK_POSEIDON_MERKLE_TREE));
    CHECK(get(2, CUZK_POSEIDON_MERKLE_TREE) != get(2, CUZK_POSEIDON_CUSTOM_1));
}

CUZK_TEST(poseidon_domain_tags)
{
    cuzk_fr_t tag, want;
    static const struct {
        size_t arity;
        uint64_t tag;
    } M[] = {{2, 3}, {4, 15}, {8, 255}, {11, 2047}, {16, 65535}, {24, 16777215}};
    for (size_t i = 0; i < sizeof M / sizeof M[0]; i++) {
        cuzk_poseidon_domain_tag(&tag, M[i].arity, CUZK_POSEIDON_MERKLE_TREE);
        cuzk_fr_set_u64(&want, M[i].tag);
        CHECK(cuzk_fr_eq(&tag, &want));
        CHECK(cuzk_fr_eq(&get(M[i].arity, CUZK_POSEIDON_MERKLE_TREE)->domain_tag, &want));
    }
    /* Custom(1) = 2^40 = 0x0000010000000000 in the low limb. */
    uint8_t le[32] = {0};
    le[5] = 1;
    CHECK(cuzk_fr_from_bytes_le(&want, le) == CUZK_OK);
    cuzk_poseidon_domain_tag(&tag, 2, CUZK_POSEIDON_CUSTOM_1);
    CHECK(cuzk_fr_eq(&tag, &want));
    const cuzk_poseidon_constants *cc = get(2, CUZK_POSEIDON_CUSTOM_1);
    CHECK(cuzk_fr_eq(&cc->domain_tag, &want));

    /* Custom(1) hashes differ from MerkleTree hashes; both evaluations agree. */
    cuzk_fr_t pre[2], a, b, p;
    rand_fr(&pre[0]);
    rand_fr(&pre[1]);
    cuzk_poseidon_hash(&a, cc, pre);
    cuzk_poseidon_hash_plain(&p, cc, pre);
    cuzk_poseidon_hash(&b, get(2, CUZK_POSEIDON_MERKLE_TREE), pre);
    CHECK(cuzk_fr_eq(&a, &p));
    CHECK(!cuzk_fr_eq(&a, &b));
}

CUZK_TEST(poseidon_optimised_matches_plain)
{
    for (size_t k = 0; k < NUM_ARITIES; k++) {
        const cuzk_poseidon_constants *c = get(ARITIES[k], CUZK_POSEIDON_MERKLE_TREE);
        unsigned long iters = test_iters(ARITIES[k] <= 16 ? 8 : 2);
        for (unsigned long it = 0; it < iters; it++) {
            cuzk_fr_t s1[CUZK_POSEIDON_MAX_WIDTH], s2[CUZK_POSEIDON_MAX_WIDTH];
            for (size_t i = 0; i < c->width; i++) {
                rand_fr(&s1[i]);
                s2[i] = s1[i];
            }
            /* Whole permutation, not only the digest lane. */
            cuzk_poseidon_permute(c, s1);
            cuzk_poseidon_permute_plain(c, s2);
            for (size_t i = 0; i < c->width; i++)
                CHECK_MSG(cuzk_fr_eq(&s1[i], &s2[i]), "arity %zu lane %zu", ARITIES[k], i);
        }
    }
}

static void mat_mul(cuzk_fr_t *out, const cuzk_fr_t *a, const cuzk_fr_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            cuzk_fr_t acc, t;
            cuzk_fr_set_zero(&acc);
            for (size_t l = 0; l < n; l++) {
                cuzk_fr_mul(&t, &a[i * n + l], &b[l * n + j]);
                cuzk_fr_add(&acc, &acc, &t);
            }
            out[i * n + j] = acc;
        }
}

CUZK_TEST(poseidon_mds_derivations)
{
    static const size_t A[] = {2, 4, 8, 11, 16};
    for (size_t k = 0; k < sizeof A / sizeof A[0]; k++) {
        const cuzk_poseidon_constants *c = get(A[k], CUZK_POSEIDON_MERKLE_TREE);
        size_t t = c->width;
        cuzk_fr_t prod[17 * 17], one, zero, x;
        cuzk_fr_set_one(&one);
        cuzk_fr_set_zero(&zero);
        for (size_t i = 0; i < t; i++)
            for (size_t j = 0; j < t; j++) {
                /* Cauchy entry 1 / (i + j + t), symmetric. */
                cuzk_fr_set_u64(&x, i + j + t);
                cuzk_fr_mul(&x, &x, &c->mds[i * t + j]);
                CHECK(cuzk_fr_is_one(&x));
                CHECK(cuzk_fr_eq(&c->mds[i * t + j], &c->mds[j * t + i]));
            }
        mat_mul(prod, c->mds, c->mds_inv, t);
        for (size_t i = 0; i < t * t; i++)
            CHECK(cuzk_fr_eq(&prod[i], (i / t == i % t) ? &one : &zero));
        /* M' x M'' = M, M'' sparse with identity minor. */
        mat_mul(prod, c->mds_prime, c->mds_double_prime, t);
        for (size_t i = 0; i < t * t; i++)
            CHECK(cuzk_fr_eq(&prod[i], &c->mds[i]));
        for (size_t i = 1; i < t; i++)
            for (size_t j = 1; j < t; j++)
                CHECK(cuzk_fr_eq(&c->mds_double_prime[i * t + j], i == j ? &one : &zero));
        /* The last partial round's sparse matrix is M'' of M itself. */
        size_t last = c->partial_rounds - 1;
        for (size_t i = 0; i < t; i++)
            CHECK(cuzk_fr_eq(&c->sparse_w_hat[last * t + i], &c->mds_double_prime[i * t]));
        for (size_t j = 1; j < t; j++)
            CHECK(cuzk_fr_eq(&c->sparse_v_rest[last * (t - 1) + j - 1], &c->mds_double_prime[j]));
        /* The first t compressed constants are the first round's constants unchanged. */
        for (size_t i = 0; i < t; i++)
            CHECK(cuzk_fr_eq(&c->compressed_round_constants[i], &c->round_constants[i]));
    }
}

/* filecoin-hashers PoseidonFunction::hash_md (arity 36, MerkleTree tag): acc = x0, then
 * acc = H36(acc, next 35 elements) per chunk. test_hash_md: 71 x ONE. */
CUZK_TEST(poseidon_kat_hash_md_arity36)
{
    const cuzk_poseidon_constants *c = get(36, CUZK_POSEIDON_MERKLE_TREE);
    CHECK(c->partial_rounds == 60);
    cuzk_fr_t pre[36], acc;
    cuzk_fr_set_one(&acc);
    for (int chunk = 0; chunk < 2; chunk++) {
        pre[0] = acc;
        for (int i = 1; i < 36; i++)
            cuzk_fr_set_one(&pre[i]);
        cuzk_poseidon_hash(&acc, c, pre);
    }
    check_fr_le_hex(&acc, "902c333b13541c3595814e5f626d6fc22296ed433662d95ff7f69fe02022f459",
                    "hash_md(71 x ONE)");
}

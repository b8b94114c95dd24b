/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* SHA-256 circuit: the published constraint counts and agreement with OpenSSL. */
#include "test_r1cs_util.h"

#include "gadgets/multipack.h"
#include "gadgets/sha256.h"

#include <openssl/evp.h>

static void alloc_bits(cuzk_cs *cs, cuzk_bool *bits, const uint8_t *msg, size_t nbytes)
{
    for (size_t i = 0; i < nbytes * 8; i++)
        CHECK_OK(cuzk_bit_alloc(cs, &bits[i], (msg[i / 8] >> (7 - i % 8)) & 1));
}

static void check_digest(const cuzk_bool out[256], const uint8_t want[32])
{
    for (int i = 0; i < 256; i++)
        CHECK_MSG(out[i].value == ((want[i / 8] >> (7 - i % 8)) & 1), "digest bit %d", i);
}

/* bellperson test_full_block: 512 allocated bits, one compression from the IV. */
CUZK_TEST(gadgets_sha256_compression_count)
{
    const cuzk_cs_mode modes[3] = {CUZK_CS_CHECK, CUZK_CS_KEYGEN, CUZK_CS_WITNESS};
    for (int mi = 0; mi < 3; mi++) {
        cuzk_cs *cs = tu_cs(modes[mi]);
        uint8_t msg[64];
        test_rand_bytes(msg, sizeof msg);
        cuzk_bool in[512], out[256];
        alloc_bits(cs, in, msg, 64);
        CHECK(cuzk_cs_num_constraints(cs) == 512);
        CHECK_OK(cuzk_sha256_block_no_padding(cs, out, in));
        size_t n = cuzk_cs_num_constraints(cs) - 512;
        CHECK_MSG(n == 25840, "mode %d: %zu constraints, published 25,840", (int)modes[mi], n);
        if (modes[mi] == CUZK_CS_CHECK) {
            size_t row;
            const char *where;
            CHECK_MSG(cuzk_cs_is_satisfied(cs, &row, &where), "row %zu at %s", row,
                      where ? where : "?");
            uint32_t st[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                              0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
            cuzk_sha256_compress_native(st, msg);
            uint8_t want[32];
            for (int i = 0; i < 8; i++)
                for (int k = 0; k < 4; k++)
                    want[4 * i + k] = (uint8_t)(st[i] >> (24 - 8 * k));
            check_digest(out, want);
        }
        cuzk_cs_destroy(cs);
    }
}

/* bellperson test_full_hash: sha256 of 512 allocated bits (two blocks, padding constant). */
CUZK_TEST(gadgets_sha256_full_hash_count)
{
    cuzk_cs *cs = tu_cs(CUZK_CS_CHECK);
    uint8_t msg[64];
    test_rand_bytes(msg, sizeof msg);
    cuzk_bool in[512], out[256];
    alloc_bits(cs, in, msg, 64);
    CHECK_OK(cuzk_sha256(cs, out, in, 512));
    size_t n = cuzk_cs_num_constraints(cs) - 512;
    CHECK_MSG(n == 44874, "%zu constraints, published 44,874", n);
    CHECK(cuzk_cs_is_satisfied(cs, NULL, NULL));
    uint8_t want[32];
    unsigned wl;
    CHECK(EVP_Digest(msg, 64, want, &wl, EVP_sha256(), NULL) == 1 && wl == 32);
    check_digest(out, want);
    cuzk_cs_destroy(cs);
}

/* bellperson test_blank_hash: constant input folds to no constraint at all. */
CUZK_TEST(gadgets_sha256_constant_input_folds)
{
    cuzk_cs *cs = tu_cs(CUZK_CS_PROVE);
    cuzk_bool in[512], out[256];
    for (int i = 0; i < 512; i++)
        in[i] = cuzk_bool_const(i == 0);
    CHECK_OK(cuzk_sha256_block_no_padding(cs, out, in));
    CHECK(cuzk_cs_num_constraints(cs) == 0 && cuzk_cs_num_aux(cs) == 0);
    uint8_t want[32];
    unsigned wl;
    CHECK(EVP_Digest("", 0, want, &wl, EVP_sha256(), NULL) == 1);
    check_digest(out, want);
    for (int i = 0; i < 256; i++)
        CHECK(cuzk_bool_is_const(out[i]));
    cuzk_cs_destroy(cs);
}

/* Random messages of several lengths (1 to 3 blocks) against OpenSSL, in WITNESS mode (fast)
 * and once in CHECK mode. */
CUZK_TEST(gadgets_sha256_matches_openssl)
{
    const size_t lens[] = {0, 1, 3, 31, 32, 55, 56, 64, 100, 119};
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        size_t n = lens[li];
        uint8_t msg[128];
        test_rand_bytes(msg, n);
        cuzk_cs *cs = tu_cs(li == 3 ? CUZK_CS_CHECK : CUZK_CS_WITNESS);
        cuzk_bool in[1024], out[256];
        alloc_bits(cs, in, msg, n);
        CHECK_OK(cuzk_sha256(cs, out, in, n * 8));
        if (li == 3)
            CHECK(cuzk_cs_is_satisfied(cs, NULL, NULL));
        uint8_t want[32];
        unsigned wl;
        CHECK(EVP_Digest(msg, n, want, &wl, EVP_sha256(), NULL) == 1);
        check_digest(out, want);
        cuzk_cs_destroy(cs);
    }
}

/* sha256-chain: its public inputs are the multipacked native chain digest. */
CUZK_TEST(gadgets_sha256_chain_public_inputs)
{
    cuzk_circuit c;
    CHECK_OK(cuzk_circuit_find("sha256-chain:3", &c));
    c.params.seed = test_rand_u64();
    cuzk_cs *cs = tu_cs(CUZK_CS_WITNESS);
    CHECK_OK(cuzk_circuit_synthesize(cs, &c));
    cuzk_prover_data pd;
    CHECK_OK(cuzk_cs_take_prover_data(cs, &pd));
    CHECK(pd.n_inputs == 3);
    /* Recompute natively: the message bits are the first 512 aux values. */
    uint8_t block[64] = {0};
    cuzk_fr_t one = tu_fr(1);
    for (int i = 0; i < 512; i++)
        if (cuzk_fr_eq(&pd.aux[i], &one))
            block[i / 8] |= (uint8_t)(1u << (7 - i % 8));
    uint32_t st[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                      0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    for (int i = 0; i < 3; i++)
        cuzk_sha256_compress_native(st, block);
    uint8_t digest[32];
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 4; k++)
            digest[4 * i + k] = (uint8_t)(st[i] >> (24 - 8 * k));
    bool bits[256];
    cuzk_multipack_bytes_to_bits(bits, digest, 32);
    cuzk_fr_t want[2];
    cuzk_multipack_compute(want, bits, 256);
    CHECK(cuzk_fr_eq(&pd.input[1], &want[0]) && cuzk_fr_eq(&pd.input[2], &want[1]));
    cuzk_prover_data_free(&pd);
    cuzk_cs_destroy(cs);
}

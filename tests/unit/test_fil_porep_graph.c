/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * PoRep graph and challenges (src/filecoin/porep_graph.c, chacha8.c). Oracles from outside:
 * the 8-round ChaCha vectors of draft-strombergson-chacha-test-vectors (TC1, TC2, TC3, TC7, TC8,
 * 256-bit keys); OpenSSL's ChaCha20 against our core built with 20 rounds; the parent-cache
 * digests of rust-fil-proofs storage-proofs/porep/parent_cache.json (SHA-256 over the whole cache
 * file, per node 14 u32 LE parents: cache.rs generate), for 2 KiB and 8 MiB; the hard-coded
 * synthetic challenges of challenges.rs test_synth_challenges_against_hardcoded. Properties
 * ported from the upstream tests: drgraph.rs graph_bucket (predecessor slot by API version, no
 * self reference), feistel.rs (bijection, cycle walking), graph.rs
 * test_graph_distribution_pathology and test_high_parent_bits (API 1.0 u32 truncation).
 */
#include "test.h"

#include "filecoin/chacha8.h"
#include "filecoin/porep_graph.h"

#include <openssl/evp.h>
#include <time.h>

static void block_bytes(uint8_t out[64], const uint32_t w[16])
{
    for (int i = 0; i < 16; i++)
        for (int b = 0; b < 4; b++)
            out[4 * i + b] = (uint8_t)(w[i] >> (8 * b));
}

static uint64_t le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

CUZK_TEST(fil_porep_graph_chacha8_vectors)
{
    /* draft-strombergson-chacha-test-vectors-00, 8 rounds, 256-bit keys, keystream blocks 0 and
     * 1 (64-bit IV in words 14..15, 64-bit counter from 0). */
    static const struct {
        const char *key, *iv, *stream;
    } V[] = {
        {"0000000000000000000000000000000000000000000000000000000000000000", "0000000000000000",
         "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e984ce172b9216f419f445367"
         "456d5619314a42a3da86b001387bfdb80e0cfe42d2aefa0deaa5c151bf0adb6c01f2a5adc0fd581259f9a2aa"
         "dcf20f8fd566a26b5032ec38bbc5da98ee0c6f568b872a65a08abf251deb21bb4b56e5d8821e68aa"},
        {"0100000000000000000000000000000000000000000000000000000000000000", "0000000000000000",
         "cf5ee9a0494aa9613e05d5ed725b804b12f4a465ee635acc3a311de8740489ea289d04f43c7518db56eb4433"
         "e498a1238cd8464d3763ddbb9222ee3bd8fae3c8b4355a7d93dd8867089ee643558b95754efa2bd1a8a1e2d7"
         "5bcdb32015542638291941feb49965587c4fdfe219cf0ec132a6cd4dc067392e67982fe53278c0b4"},
        {"0000000000000000000000000000000000000000000000000000000000000000", "0100000000000000",
         "2b8f4bb3798306ca5130d47c4f8d4ed13aa0edccc1be6942090faeeca0d7599b7ff0fe616bb25aa0153ad6fd"
         "c88b954903c22426d478b97b22b8f9b1db00cf06470bdffbc488a8b7c701ebf4061d75c5969186497c953678"
         "09afa80bd843b040a79abc6e73a91757f1db73c8eacfa543b38f289d065ab2f3032d377b8c37fe46"},
        {"00112233445566778899aabbccddeeffffeeddccbbaa99887766554433221100", "0f1e2d3c4b596877",
         "60fdedbd1a280cb741d0593b6ea0309010acf18e1471f68968f4c9e311dca149b8e027b47c81e0353db01389"
         "1aa5f68ea3b13dd2f3b8dd0873bf3746e7d6c567fe882395601ce8aded444867fe62ed8741420002e5d28bb5"
         "73113a418c1f4008e954c188f38ec4f26bb8555e2b7c92bf4380e2ea9e553187fdd42821794416de"},
        {"c46ec1b18ce8a878725a37e780dfb7351f68ed2e194c79fbc6aebee1a667975d", "1ada31d5cf688221",
         "838751b42d8ddd8a3d77f48825a2ba752cf4047cb308a5978ef274973be374c96ad848065871417b08f034e6"
         "81fe46a93f7d5c61d1306614d4aaf257a7cff08b16f2fda170cc18a4b58a2667ed962774af792a6e7f3c7799"
         "2540711a7a136d7e8a2f8d3f93816709d45a3fa5f8ce72fde15be7b841acba3a2abd557228d9fe4f"},
    };
    for (size_t t = 0; t < sizeof V / sizeof V[0]; t++) {
        uint8_t key[32], iv[8], want[128], got[128];
        CHECK(test_unhex(key, 32, V[t].key) && test_unhex(iv, 8, V[t].iv));
        CHECK(test_unhex(want, 128, V[t].stream));
        for (uint64_t blk = 0; blk < 2; blk++) {
            uint32_t w[16];
            cuzk__chacha_block(w, key, blk, le64(iv), 8);
            block_bytes(got + 64 * blk, w);
        }
        CHECK_MSG(memcmp(got, want, 128) == 0, "ChaCha8 vector %zu", t);
    }
    /* ChaCha8Rng::from_seed(key) with stream 0 reads the same words: u64 k = words 2k, 2k+1. */
    uint8_t key[32], want[128];
    CHECK(test_unhex(key, 32, V[1].key) && test_unhex(want, 128, V[1].stream));
    cuzk__chacha8_rng rng;
    cuzk__chacha8_rng_init(&rng, key);
    for (int k = 0; k < 16; k++)
        CHECK(cuzk__chacha8_rng_next_u64(&rng) == le64(want + 8 * k));
    cuzk__chacha8_rng_init(&rng, key);
    CHECK(cuzk__chacha8_rng_next_u32(&rng) == 0xa0e95ecfu);
}

CUZK_TEST(fil_porep_graph_chacha20_matches_openssl)
{
    /* The same core with 20 rounds against OpenSSL's IETF ChaCha20: IV = counter u32 LE ||
     * 96-bit nonce, i.e. our 64-bit counter word pair is (counter, nonce[0..4]). */
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    CHECK(ctx);
    for (unsigned long it = 0; it < test_iters(64); it++) {
        uint8_t key[32], iv[16], zero[192] = {0}, ossl[192], ours[192];
        test_rand_bytes(key, 32);
        test_rand_bytes(iv, 16);
        if (it == 0)
            memset(iv, 0xff, 4); /* counter 2^32 - 1: OpenSSL carries into nonce word 0 */
        int n = 0;
        CHECK(EVP_EncryptInit_ex2(ctx, EVP_chacha20(), key, iv, NULL) == 1);
        CHECK(EVP_EncryptUpdate(ctx, ossl, &n, zero, sizeof zero) == 1 && n == sizeof zero);
        uint64_t ctr = (uint64_t)(iv[0] | iv[1] << 8 | iv[2] << 16 | (uint32_t)iv[3] << 24) |
                       (uint64_t)(iv[4] | iv[5] << 8 | iv[6] << 16 | (uint32_t)iv[7] << 24) << 32;
        for (uint64_t b = 0; b < 3; b++) {
            uint32_t w[16];
            cuzk__chacha_block(w, key, ctr + b, le64(iv + 8), 20);
            block_bytes(ours + 64 * b, w);
        }
        CHECK_MSG(memcmp(ours, ossl, sizeof ours) == 0, "iteration %lu", it);
    }
    EVP_CIPHER_CTX_free(ctx);
}

CUZK_TEST(fil_porep_graph_registry)
{
    cuzk_fil_porep_info in;
    CHECK(cuzk_fil_porep_info_get(&in, 3) == CUZK_OK);
    CHECK(in.sector_size == 32ULL << 30 && in.nodes == 1ULL << 30 && in.api_minor == 0);
    CHECK(in.layers == 11 && in.partitions == 10 && in.challenges_per_partition == 18);
    CHECK(in.kind == CUZK_FIL_POREP_INTERACTIVE && strcmp(in.name, "StackedDrg32GiBV1") == 0);
    CHECK(in.porep_id[0] == 3);
    for (int i = 1; i < 32; i++)
        CHECK(in.porep_id[i] == 0);
    CHECK(cuzk_fil_porep_info_get(&in, 5) == CUZK_OK);
    CHECK(in.nodes == 64 && in.api_minor == 1 && in.layers == 2 && in.partitions == 1 &&
          in.challenges_per_partition == 2);
    CHECK(cuzk_fil_porep_info_get(&in, 13) == CUZK_OK);
    CHECK(in.kind == CUZK_FIL_POREP_SYNTHETIC && in.partitions == 10 && in.porep_id[0] == 13);
    CHECK(cuzk_fil_porep_info_get(&in, 19) == CUZK_OK);
    CHECK(in.kind == CUZK_FIL_POREP_NI && in.partitions == 126 && in.api_minor == 2);
    CHECK(in.sector_size == 64ULL << 30 && in.porep_id[0] == 19);
    CHECK(cuzk_fil_porep_info_get(&in, 15) == CUZK_OK && in.partitions == 13);
    CHECK(cuzk_fil_porep_info_get(&in, 20) == CUZK_ERR_UNSUPPORTED);
    uint8_t id[32];
    CHECK(cuzk_fil_porep_id(id, 1ULL << 40) == CUZK_ERR_UNSUPPORTED);
}

CUZK_TEST(fil_porep_graph_replica_id)
{
    /* Layout check against a straight SHA-256 of the documented preimage (facts 3.5): sector id
     * big-endian, porep_id last, top two bits of byte 31 cleared. */
    uint8_t prover[32], ticket[32], comm_d[32], porep_id[32], got[32], want[32], msg[136];
    test_rand_bytes(prover, 32);
    test_rand_bytes(ticket, 32);
    test_rand_bytes(comm_d, 32);
    CHECK(cuzk_fil_porep_id(porep_id, 8) == CUZK_OK);
    CHECK(cuzk_fil_replica_id(got, prover, 0x0102030405060708ULL, ticket, comm_d, porep_id) ==
          CUZK_OK);
    memcpy(msg, prover, 32);
    for (int i = 0; i < 8; i++)
        msg[32 + i] = (uint8_t)(i + 1);
    memcpy(msg + 40, ticket, 32);
    memcpy(msg + 72, comm_d, 32);
    memcpy(msg + 104, porep_id, 32);
    unsigned int len = 0;
    CHECK(EVP_Digest(msg, sizeof msg, want, &len, EVP_sha256(), NULL) == 1);
    want[31] &= 0x3f;
    CHECK(memcmp(got, want, 32) == 0);
    CHECK((got[31] & 0xc0) == 0);
}

/* SHA-256 over the parent cache of |id|, written the way cache.rs generate lays it out. */
static void cache_digest(char hex[65], uint64_t id, double *seconds)
{
    cuzk_fil_porep_graph g;
    cuzk_fil_porep_hasher h;
    CHECK(cuzk_fil_porep_graph_init_id(&g, id) == CUZK_OK);
    CHECK(cuzk_fil_porep_hasher_init(&h) == CUZK_OK);
    EVP_MD_CTX *sha = EVP_MD_CTX_new();
    CHECK(sha && EVP_DigestInit_ex2(sha, EVP_sha256(), NULL) == 1);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint8_t entry[CUZK_FIL_PARENTS * 4 * 64];
    size_t fill = 0;
    for (uint64_t node = 0; node < g.nodes; node++) {
        uint32_t p[CUZK_FIL_PARENTS];
        CHECK(cuzk_fil_porep_parents(&g, &h, p, node) == CUZK_OK);
        for (int i = 0; i < CUZK_FIL_PARENTS; i++)
            for (int b = 0; b < 4; b++)
                entry[fill++] = (uint8_t)(p[i] >> (8 * b));
        if (fill == sizeof entry) {
            CHECK(EVP_DigestUpdate(sha, entry, fill) == 1);
            fill = 0;
        }
    }
    CHECK(EVP_DigestUpdate(sha, entry, fill) == 1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    *seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    uint8_t md[32];
    unsigned int len = 0;
    CHECK(EVP_DigestFinal_ex(sha, md, &len) == 1);
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", md[i]);
    EVP_MD_CTX_free(sha);
    cuzk_fil_porep_hasher_clear(&h);
    cuzk_fil_porep_graph_clear(&g);
}

/* parent_cache.json (rust-fil-proofs storage-proofs/porep/parent_cache.json, v28) lists two
 * caches per published size, keyed by a hash of the graph identifier and Feistel keys rather
 * than the proof id; the two are the V1 (porep_id 0..4) and V1_1 (5..9) graphs. */
static bool digest_listed(const char *hex, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(hex, list[i]) == 0)
            return true;
    return false;
}

CUZK_TEST(fil_porep_graph_parent_cache_2k)
{
    static const char *const D2K[] = {
        "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d",
        "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97",
    };
    char v1[65], v11[65];
    double s0, s1;
    cache_digest(v1, 0, &s0);
    cache_digest(v11, 5, &s1);
    printf("# 2 KiB parent cache: V1 %s, V1_1 %s\n", v1, v11);
    CHECK_MSG(digest_listed(v1, D2K, 2), "V1 2 KiB cache digest %s not published", v1);
    CHECK_MSG(digest_listed(v11, D2K, 2), "V1_1 2 KiB cache digest %s not published", v11);
    CHECK(strcmp(v1, v11) != 0);
}

CUZK_TEST(fil_porep_graph_parent_cache_8m)
{
    static const char *const D8M[] = {
        "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab",
        "a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce",
    };
    char v1[65], v11[65];
    double s0, s1;
    cache_digest(v1, 1, &s0);
    cache_digest(v11, 6, &s1);
    printf("# 8 MiB parent cache (262,144 nodes x 14 parents, one thread): V1 %.2f s, V1_1 %.2f "
           "s\n# V1 %s, V1_1 %s\n",
           s0, s1, v1, v11);
    CHECK_MSG(digest_listed(v1, D8M, 2), "V1 8 MiB cache digest %s not published", v1);
    CHECK_MSG(digest_listed(v11, D8M, 2), "V1_1 8 MiB cache digest %s not published", v11);
    CHECK(strcmp(v1, v11) != 0);
}

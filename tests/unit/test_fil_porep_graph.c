/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * PoRep graph and challenges (src/filecoin/porep_graph.c, chacha8.c). Oracles from outside:
 * the 8-round ChaCha vectors of draft-strombergson-chacha-test-vectors (TC1, TC2, TC3, TC7, TC8,
 * 256-bit keys); OpenSSL's ChaCha20 against our core built with 20 rounds; the parent-cache
 * digests of rust-fil-proofs storage-proofs/porep/parent_cache.json (SHA-256 over the whole cache
 * file, per node 14 u32 LE parents: cache.rs generate), for 2 KiB and 8 MiB (512 MiB and larger
 * opt-in), and the cache file names (the JSON keys) of all ten V1 / V1_1 graphs; the hard-coded
 * synthetic challenges of challenges.rs test_synth_challenges_against_hardcoded. Properties
 * ported from the upstream tests: drgraph.rs graph_bucket (predecessor slot by API version, no
 * self reference), feistel.rs (bijection, cycle walking), graph.rs
 * test_graph_distribution_pathology and test_high_parent_bits (API 1.0 u32 truncation).
 */
#include "test.h"

#include "filecoin/chacha8.h"
#include "filecoin/porep_graph.h"

#include <openssl/evp.h>
#include <math.h>
#include <pthread.h>
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

/*
 * rust-fil-proofs storage-proofs/porep/parent_cache.json (v28): per published graph, the cache
 * file's name stem (cache.rs cache_path) and the SHA-256 of its contents. The stems name the
 * graphs: SHA256("poseidon_hasher" || identifier || Feistel keys || nodes) pins each entry to
 * the porep_id of one RegisteredSealProof, the V1 (0..4) and V1_1 (5..9) ids.
 */
static const struct {
    uint64_t id;
    const char *stem, *digest;
} PARENT_CACHE_JSON[] = {
    {0, "3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899",
     "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d"},
    {5, "494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b",
     "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97"},
    {1, "dcdabb0fbe4364bf0ac28b6a18c66de246409fa1a9020a00f33fb3e3053da6dc",
     "a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce"},
    {6, "5eed212119fd91aa6220a27f31a8966444a9381842bceb3a1ea61525bd47a5b5",
     "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab"},
    {2, "2aa9c77c3e58259481351cc4be2079cc71e1c9af39700866545c043bfa30fb42",
     "3adcc092423aa76d6a7184016893406da44dd974b219a89cd3ece25e4e3018f5"},
    {7, "7ba215a1d2345774ab90b8cb1158d296e409d6068819d7b8c7baf0b25d63dc34",
     "b5877d1963793efebc261fd8fde4dd6bc59e6b5c7abf52617a4ee023b8dc173a"},
    {3, "e1fa5d5b811ddbd118be3412c4a8c329156b8b8acc72632bca459455b5a05a13",
     "3c4f9841fcc75aed8c695800e58d08480629f25af3a2aefd81904181d75cc0b6"},
    {8, "21981246c370f9d76c7a77ab273d94bde0ceb4e938292334960bce05585dc117",
     "93deeac5e3052b6927467d4b2641bb782f05491de18d510147c93eeedd8672da"},
    {4, "8a99e8d6b6be7ab87a56b632e6739ff201c23ea14e99737c74690f0e265574d6",
     "2778a732ad46a7dc18e0564dfdf59fd321dcde74ab476fd6d3c4e6735d7cd89c"},
    {9, "4905486b7af19558ac3649bc6261411858b6add534438878c4ee3b29d8b9de0b",
     "2698b74eb2606b55b98d8b095e18b6320b47f46e00075956d48640ccd1641b03"},
};

static const char *published_digest(uint64_t id)
{
    for (size_t i = 0; i < sizeof PARENT_CACHE_JSON / sizeof PARENT_CACHE_JSON[0]; i++)
        if (PARENT_CACHE_JSON[i].id == id)
            return PARENT_CACHE_JSON[i].digest;
    return "";
}

CUZK_TEST(fil_porep_graph_parent_cache_names)
{
    for (size_t i = 0; i < sizeof PARENT_CACHE_JSON / sizeof PARENT_CACHE_JSON[0]; i++) {
        cuzk_fil_porep_graph g;
        char stem[65];
        CHECK(cuzk_fil_porep_graph_init_id(&g, PARENT_CACHE_JSON[i].id) == CUZK_OK);
        CHECK(cuzk_fil_porep_parent_cache_id(stem, &g) == CUZK_OK);
        CHECK_MSG(strcmp(stem, PARENT_CACHE_JSON[i].stem) == 0, "id %llu: %s",
                  (unsigned long long)PARENT_CACHE_JSON[i].id, stem);
        cuzk_fil_porep_graph_clear(&g);
    }
}

CUZK_TEST(fil_porep_graph_parent_cache_2k)
{
    char v1[65], v11[65];
    double s0, s1;
    cache_digest(v1, 0, &s0);
    cache_digest(v11, 5, &s1);
    printf("# 2 KiB parent cache: V1 %s, V1_1 %s\n", v1, v11);
    CHECK_MSG(strcmp(v1, published_digest(0)) == 0, "V1 2 KiB cache digest %s", v1);
    CHECK_MSG(strcmp(v11, published_digest(5)) == 0, "V1_1 2 KiB cache digest %s", v11);
}

CUZK_TEST(fil_porep_graph_parent_cache_8m)
{
    char v1[65], v11[65];
    double s0, s1;
    cache_digest(v1, 1, &s0);
    cache_digest(v11, 6, &s1);
    printf("# 8 MiB parent cache (262,144 nodes x 14 parents, one thread): V1 %.2f s, V1_1 %.2f "
           "s\n# V1 %s, V1_1 %s\n",
           s0, s1, v1, v11);
    CHECK_MSG(strcmp(v1, published_digest(1)) == 0, "V1 8 MiB cache digest %s", v1);
    CHECK_MSG(strcmp(v11, published_digest(6)) == 0, "V1_1 8 MiB cache digest %s", v11);
}

/* Fr::from(v).to_repr(): |v| as a 32-byte little-endian integer. */
static void fr_small(uint8_t out[32], uint64_t v)
{
    memset(out, 0, 32);
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)(v >> (8 * i));
}

CUZK_TEST(fil_porep_graph_synth_hardcoded)
{
    /* challenges.rs test_synth_challenges_against_hardcoded: sector_nodes = 2^10, replica_id =
     * Fr(55), comm_r = Fr(101), 21 synthetic challenges, 10 porep challenges with rand = [1; 32].
     */
    static const uint64_t SYNTH[21] = {178, 297, 869, 211, 875, 477, 94,  781, 124, 332, 856,
                                       801, 176, 692, 429, 691, 290, 204, 986, 210, 973};
    static const uint64_t POREP[10] = {176, 781, 801, 986, 290, 211, 692, 856, 986, 332};
    uint8_t replica[32], comm_r[32], rand[32];
    fr_small(replica, 55);
    fr_small(comm_r, 101);
    memset(rand, 1, 32);
    uint64_t got[21];
    CHECK(cuzk_fil_porep_synth_challenges(got, 0, 21, 1024, replica, comm_r) == CUZK_OK);
    for (int i = 0; i < 21; i++)
        CHECK_MSG(got[i] == SYNTH[i], "synthetic %d: %llu, want %llu", i,
                  (unsigned long long)got[i], (unsigned long long)SYNTH[i]);
    /* One at a time, backwards (the upstream seek test). */
    for (int i = 20; i >= 0; i--) {
        uint64_t one;
        CHECK(cuzk_fil_porep_synth_challenges(&one, (uint64_t)i, 1, 1024, replica, comm_r) ==
              CUZK_OK);
        CHECK(one == SYNTH[i]);
    }
    uint64_t idx[10];
    CHECK(cuzk_fil_porep_synth_select(idx, 0, 10, 21, replica, rand) == CUZK_OK);
    for (int i = 0; i < 10; i++) {
        CHECK(idx[i] < 21);
        CHECK_MSG(SYNTH[idx[i]] == POREP[i], "porep %d: index %llu gives %llu, want %llu", i,
                  (unsigned long long)idx[i], (unsigned long long)SYNTH[idx[i]],
                  (unsigned long long)POREP[i]);
    }
    /* Selection of a later window equals the tail of a longer one (keystream seek). */
    uint64_t idx2[7];
    CHECK(cuzk_fil_porep_synth_select(idx2, 3, 7, 21, replica, rand) == CUZK_OK);
    CHECK(memcmp(idx2, idx + 3, sizeof idx2) == 0);
    CHECK(cuzk_fil_porep_num_synth(1024) == 1024);
    CHECK(cuzk_fil_porep_num_synth(1ULL << 30) == 1ULL << 18);
    CHECK(cuzk_fil_porep_synth_select(idx, 0, 1, 0, replica, rand) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fil_porep_synth_challenges(got, 0, 1, 2, replica, comm_r) == CUZK_ERR_INVALID_ARG);
}

CUZK_TEST(fil_porep_graph_challenge_reduce)
{
    uint8_t h[32];
    fr_small(h, 12345);
    CHECK(cuzk_fil_porep_challenge_reduce(h, 1ULL << 30) == 12346);
    CHECK(cuzk_fil_porep_challenge_reduce(h, 12346) == 1); /* 12345 mod 12345 = 0 */
    /* 2^256 - 1 mod (2^30 - 1): 2^30 = 1 there, so 2^256 = 2^(256 mod 30) = 2^16. */
    memset(h, 0xff, 32);
    CHECK(cuzk_fil_porep_challenge_reduce(h, 1ULL << 30) == (1ULL << 16) - 1 + 1);
    /* 2^256 - 1 mod (2^32 - 1) = 2^(256 mod 32) - 1 = 0. */
    CHECK(cuzk_fil_porep_challenge_reduce(h, 1ULL << 32) == 1);
}

CUZK_TEST(fil_porep_graph_challenges)
{
    uint8_t replica[32], seed[32], comm_r[32], msg[128], md[32];
    test_rand_bytes(replica, 32);
    test_rand_bytes(seed, 32);
    test_rand_bytes(comm_r, 32);
    replica[31] &= 0x3f;
    comm_r[31] &= 0x3f;
    const uint64_t nodes = 1ULL << 30;
    /* challenges.rs challenge_partition_equivalence: 5 partitions of 40 = one of 200. */
    uint64_t all[200], part[40];
    CHECK(cuzk_fil_porep_challenges_interactive(all, 200, nodes, replica, seed, 0) == CUZK_OK);
    for (unsigned k = 0; k < 5; k++) {
        CHECK(cuzk_fil_porep_challenges_interactive(part, 40, nodes, replica, seed, k) == CUZK_OK);
        CHECK(memcmp(part, all + 40 * k, sizeof part) == 0);
    }
    for (int i = 0; i < 200; i++)
        CHECK(all[i] >= 1 && all[i] < nodes);
    /* Layout: challenge 37 = reduce(SHA256(replica_id || seed || 37 u32 LE)). */
    memcpy(msg, replica, 32);
    memcpy(msg + 32, seed, 32);
    msg[64] = 37, msg[65] = msg[66] = msg[67] = 0;
    unsigned int len = 0;
    CHECK(EVP_Digest(msg, 68, md, &len, EVP_sha256(), NULL) == 1);
    CHECK(all[37] == cuzk_fil_porep_challenge_reduce(md, nodes));
    /* NI: the tag, replica_id, comm_r, then j. */
    uint64_t ni[18];
    CHECK(cuzk_fil_porep_challenges_ni(ni, 18, nodes, replica, comm_r, 125) == CUZK_OK);
    const char *tag = "filecoin.io|PoRep|1|NonInteractive|1";
    size_t tl = strlen(tag);
    memcpy(msg, tag, tl);
    memcpy(msg + tl, replica, 32);
    memcpy(msg + tl + 32, comm_r, 32);
    uint32_t j = 18 * 125 + 17;
    for (int b = 0; b < 4; b++)
        msg[tl + 64 + b] = (uint8_t)(j >> (8 * b));
    CHECK(EVP_Digest(msg, tl + 68, md, &len, EVP_sha256(), NULL) == 1);
    CHECK(ni[17] == cuzk_fil_porep_challenge_reduce(md, nodes));

    /* The per-id entry point. */
    uint64_t out[18];
    size_t n = 99;
    CHECK(cuzk_fil_porep_challenges(out, 18, &n, 3, replica, NULL, seed, 9) == CUZK_OK);
    CHECK(n == 18);
    uint64_t direct[18];
    CHECK(cuzk_fil_porep_challenges_interactive(direct, 18, nodes, replica, seed, 9) == CUZK_OK);
    CHECK(memcmp(out, direct, sizeof out) == 0);
    CHECK(cuzk_fil_porep_challenges(out, 18, &n, 3, replica, NULL, seed, 10) ==
          CUZK_ERR_INVALID_ARG);
    CHECK(n == 0);
    CHECK(cuzk_fil_porep_challenges(out, 17, &n, 3, replica, NULL, seed, 0) ==
          CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fil_porep_challenges(out, 18, &n, 3, replica, NULL, NULL, 0) ==
          CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fil_porep_challenges(out, 18, &n, 20, replica, comm_r, seed, 0) ==
          CUZK_ERR_UNSUPPORTED);
    CHECK(cuzk_fil_porep_challenges(out, 18, &n, 18, replica, comm_r, NULL, 125) == CUZK_OK);
    CHECK(n == 18 && memcmp(out, ni, sizeof ni) == 0);
    CHECK(cuzk_fil_porep_challenges(out, 18, &n, 18, replica, comm_r, NULL, 126) ==
          CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fil_porep_challenges(out, 18, &n, 18, replica, NULL, NULL, 0) ==
          CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fil_porep_challenges(out, 2, &n, 15, replica, comm_r, NULL, 12) == CUZK_OK);
    CHECK(n == 2);

    /* Synthetic 32 GiB (id 13): partition k selects porep challenges 18k .. 18k + 17 of one
     * stream (challenges.rs test_synth_challenges_32gib), each a synthetic challenge. */
    uint64_t idx[180];
    CHECK(cuzk_fil_porep_synth_select(idx, 0, 180, 1ULL << 18, replica, seed) == CUZK_OK);
    for (unsigned k = 0; k < 10; k += 3) {
        CHECK(cuzk_fil_porep_challenges(out, 18, &n, 13, replica, comm_r, seed, k) == CUZK_OK);
        for (int i = 0; i < 18; i++) {
            uint64_t want;
            CHECK(idx[18 * k + i] < (1ULL << 18));
            CHECK(cuzk_fil_porep_synth_challenges(&want, idx[18 * k + i], 1, nodes, replica,
                                                  comm_r) == CUZK_OK);
            CHECK(out[i] == want && want >= 1 && want < nodes);
        }
    }
    CHECK(cuzk_fil_porep_challenges(out, 18, &n, 13, replica, NULL, seed, 0) ==
          CUZK_ERR_INVALID_ARG);
}

CUZK_TEST(fil_porep_graph_drg_properties)
{
    /* drgraph.rs graph_bucket_aux: no self reference, the predecessor in slot 5 (API 1.0) or 0
     * (later); nodes 0 and 1 have all parents 0. The same porep_id under both versions draws the
     * same five random parents, only shifted. */
    uint8_t porep_id[32];
    CHECK(cuzk_fil_porep_id(porep_id, 6) == CUZK_OK);
    cuzk_fil_porep_graph g0, g1;
    CHECK(cuzk_fil_porep_graph_init(&g0, 1ULL << 18, porep_id, 0) == CUZK_OK);
    CHECK(cuzk_fil_porep_graph_init(&g1, 1ULL << 18, porep_id, 1) == CUZK_OK);
    for (uint64_t node = 0; node < 2; node++) {
        uint32_t p[6];
        cuzk_fil_porep_drg_parents(&g1, p, node);
        for (int i = 0; i < 6; i++)
            CHECK(p[i] == 0);
    }
    unsigned long iters = test_iters(20000);
    for (unsigned long it = 0; it < iters; it++) {
        uint64_t node = it < 100 ? 2 + it : 2 + test_rand_u64() % (g0.nodes - 2);
        uint32_t a[6], b[6], c[6];
        cuzk_fil_porep_drg_parents(&g0, a, node);
        cuzk_fil_porep_drg_parents(&g1, b, node);
        cuzk_fil_porep_drg_parents(&g1, c, node);
        CHECK(memcmp(b, c, sizeof b) == 0);
        CHECK(a[5] == node - 1 && b[0] == node - 1);
        for (int i = 0; i < 5; i++) {
            CHECK(a[i] == b[i + 1]);
            CHECK(a[i] < node);
        }
    }
    /* The integer ceil(log2(M)) the code uses equals upstream's f64 log2().ceil() for every
     * metagraph size of 64 GiB sectors around powers of two and at random. */
    for (unsigned e = 3; e < 35; e++)
        for (int d = -3; d <= 3; d++) {
            uint64_t m = (1ULL << e) + (uint64_t)(int64_t)d;
            CHECK((uint64_t)(64 - __builtin_clzll(m - 1)) == (uint64_t)ceil(log2((double)m)));
        }
    for (int i = 0; i < 100000; i++) {
        uint64_t m = 10 + test_rand_u64() % ((5ULL << 31) - 10);
        CHECK((uint64_t)(64 - __builtin_clzll(m - 1)) == (uint64_t)ceil(log2((double)m)));
    }
    cuzk_fil_porep_graph_clear(&g0);
    cuzk_fil_porep_graph_clear(&g1);
}

CUZK_TEST(fil_porep_graph_feistel_bijection)
{
    /* feistel.rs tests: over a power of four (128 nodes: 1,024 = 4^5 indexes) and over a domain
     * that needs cycle walking (100 nodes: 800 of 1,024), permute is a bijection into range. */
    uint8_t porep_id[32];
    CHECK(cuzk_fil_porep_id(porep_id, 5) == CUZK_OK);
    cuzk_fil_porep_hasher h;
    CHECK(cuzk_fil_porep_hasher_init(&h) == CUZK_OK);
    static const uint64_t NODES[] = {128, 100, 3};
    for (size_t t = 0; t < 3; t++) {
        cuzk_fil_porep_graph g;
        CHECK(cuzk_fil_porep_graph_init(&g, NODES[t], porep_id, 1) == CUZK_OK);
        uint64_t n = NODES[t] * 8;
        static uint8_t seen[1024];
        memset(seen, 0, sizeof seen);
        for (uint64_t i = 0; i < n; i++) {
            uint64_t p;
            CHECK(cuzk_fil_porep_feistel_permute(&g, &h, &p, i) == CUZK_OK);
            CHECK(p < n && !seen[p]);
            seen[p] = 1;
        }
        uint64_t p;
        CHECK(cuzk_fil_porep_feistel_permute(&g, &h, &p, n) == CUZK_ERR_INVALID_ARG);
        uint32_t par[14];
        CHECK(cuzk_fil_porep_parents(&g, &h, par, NODES[t]) == CUZK_ERR_INVALID_ARG);
        CHECK(cuzk_fil_porep_parents(&g, &h, par, NODES[t] - 1) == CUZK_OK);
        for (int i = 6; i < 14; i++)
            CHECK(par[i] < NODES[t]);
        cuzk_fil_porep_graph_clear(&g);
    }
    cuzk_fil_porep_graph g;
    CHECK(cuzk_fil_porep_graph_init(&g, 2, porep_id, 1) == CUZK_ERR_INVALID_ARG);
    cuzk_fil_porep_graph_clear(&g);
    CHECK(cuzk_fil_porep_graph_init(&g, (1ULL << 32) + 1, porep_id, 1) == CUZK_ERR_INVALID_ARG);
    cuzk_fil_porep_graph_clear(&g);
    cuzk_fil_porep_hasher_clear(&h);
}

/* graph.rs test_pathology_aux: do any of the first |test_n| nodes have an expander parent in the
 * upper half of the sector? */
static bool has_upper_half_parent(uint8_t id_byte, uint64_t nodes, unsigned api_minor,
                                  unsigned test_n)
{
    uint8_t porep_id[32] = {0};
    porep_id[0] = id_byte;
    cuzk_fil_porep_graph g;
    cuzk_fil_porep_hasher h;
    CHECK(cuzk_fil_porep_graph_init(&g, nodes, porep_id, api_minor) == CUZK_OK);
    CHECK(cuzk_fil_porep_hasher_init(&h) == CUZK_OK);
    bool found = false;
    for (unsigned v = 0; v < test_n && !found; v++) {
        uint32_t p[8];
        CHECK(cuzk_fil_porep_exp_parents(&g, &h, p, v) == CUZK_OK);
        for (int i = 0; i < 8; i++) {
            CHECK(p[i] < nodes);
            found |= p[i] >= nodes / 2;
        }
    }
    cuzk_fil_porep_hasher_clear(&h);
    cuzk_fil_porep_graph_clear(&g);
    return found;
}

CUZK_TEST(fil_porep_graph_api10_truncation)
{
    /* test_graph_distribution_pathology: API 1.0 truncates the permuted index to u32 before
     * dividing by 8, so 32 / 64 GiB V1 graphs never reach the upper half (the first 1,000 nodes
     * show it); API >= 1.1 graphs do. */
    CHECK(!has_upper_half_parent(3, 1ULL << 30, 0, 1000));
    CHECK(!has_upper_half_parent(4, 1ULL << 31, 0, 1000));
    CHECK(has_upper_half_parent(8, 1ULL << 30, 1, 1000));
    CHECK(has_upper_half_parent(9, 1ULL << 31, 1, 1000));
    CHECK(has_upper_half_parent(10, 1ULL << 30, 2, 1000));
    CHECK(has_upper_half_parent(11, 1ULL << 31, 2, 1000));
    /* test_high_parent_bits: 64 GiB, porep_id 5, API 1.1: one of the first 3 nodes has an
     * expander parent >= 2^29 (impossible after u32 truncation). */
    uint8_t porep_id[32] = {5};
    cuzk_fil_porep_graph g;
    cuzk_fil_porep_hasher h;
    CHECK(cuzk_fil_porep_graph_init(&g, 1ULL << 31, porep_id, 1) == CUZK_OK);
    CHECK(cuzk_fil_porep_hasher_init(&h) == CUZK_OK);
    bool high = false;
    for (uint64_t v = 0; v < 3; v++) {
        uint32_t p[8];
        CHECK(cuzk_fil_porep_exp_parents(&g, &h, p, v) == CUZK_OK);
        for (int i = 0; i < 8; i++)
            high |= p[i] >= (1u << 29);
    }
    CHECK(high);
    cuzk_fil_porep_hasher_clear(&h);
    cuzk_fil_porep_graph_clear(&g);
}

typedef struct {
    const cuzk_fil_porep_graph *g;
    uint8_t *buf;
    uint64_t first, count;
    int ok;
} cache_slice;

static void *cache_slice_run(void *arg)
{
    cache_slice *s = arg;
    cuzk_fil_porep_hasher h;
    s->ok = cuzk_fil_porep_hasher_init(&h) == CUZK_OK;
    for (uint64_t i = 0; i < s->count && s->ok; i++) {
        uint32_t p[CUZK_FIL_PARENTS];
        s->ok = cuzk_fil_porep_parents(s->g, &h, p, s->first + i) == CUZK_OK;
        uint8_t *e = s->buf + i * CUZK_FIL_PARENTS * 4;
        for (int k = 0; k < CUZK_FIL_PARENTS; k++)
            for (int b = 0; b < 4; b++)
                e[4 * k + b] = (uint8_t)(p[k] >> (8 * b));
    }
    cuzk_fil_porep_hasher_clear(&h);
    return NULL;
}

/* The larger published caches, opt-in since the default suite must stay quick on two cores:
 * CUZK_TEST_POREP_CACHE_THREADS=<threads> hashes the caches of the ids in
 * CUZK_TEST_POREP_CACHE_IDS (comma-separated among 0..9; default "2,7", the 512 MiB graphs, about
 * 3 CPU-minutes each here; 32 GiB ones take about 3 CPU-hours each, so raise --timeout). */
CUZK_TEST(fil_porep_graph_parent_cache_large)
{
    const char *e = getenv("CUZK_TEST_POREP_CACHE_THREADS");
    if (!e || atoi(e) <= 0)
        test_skip("set CUZK_TEST_POREP_CACHE_THREADS=<threads> (and CUZK_TEST_POREP_CACHE_IDS) to "
                  "hash the 512 MiB and larger parent caches");
    unsigned threads = (unsigned)atoi(e);
    if (threads > 64)
        threads = 64;
    const char *ids = getenv("CUZK_TEST_POREP_CACHE_IDS");
    if (!ids || !*ids)
        ids = "2,7";
    const uint64_t chunk = 1ULL << 20;
    uint8_t *buf = malloc(chunk * CUZK_FIL_PARENTS * 4);
    CHECK(buf);
    for (const char *p = ids; *p;) {
        char *end;
        uint64_t id = strtoull(p, &end, 10);
        CHECK_MSG(end != p && id < 10, "bad id list \"%s\"", ids);
        p = *end == ',' ? end + 1 : end;
        cuzk_fil_porep_graph g;
        CHECK(cuzk_fil_porep_graph_init_id(&g, id) == CUZK_OK);
        uint64_t span = g.nodes < chunk ? g.nodes : chunk;
        EVP_MD_CTX *sha = EVP_MD_CTX_new();
        CHECK(sha && EVP_DigestInit_ex2(sha, EVP_sha256(), NULL) == 1);
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (uint64_t base = 0; base < g.nodes; base += span) {
            pthread_t tid[64];
            cache_slice sl[64];
            uint64_t per = (span + threads - 1) / threads;
            for (unsigned t = 0; t < threads; t++) {
                uint64_t lo = t * per < span ? t * per : span;
                uint64_t hi = lo + per < span ? lo + per : span;
                sl[t] = (cache_slice){&g, buf + lo * CUZK_FIL_PARENTS * 4, base + lo, hi - lo, 0};
                CHECK(pthread_create(&tid[t], NULL, cache_slice_run, &sl[t]) == 0);
            }
            for (unsigned t = 0; t < threads; t++) {
                CHECK(pthread_join(tid[t], NULL) == 0);
                CHECK(sl[t].ok);
            }
            CHECK(EVP_DigestUpdate(sha, buf, span * CUZK_FIL_PARENTS * 4) == 1);
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        uint8_t md[32];
        unsigned int len = 0;
        char hex[65];
        CHECK(EVP_DigestFinal_ex(sha, md, &len) == 1);
        for (int i = 0; i < 32; i++)
            snprintf(hex + 2 * i, 3, "%02x", md[i]);
        printf("# parent cache id %llu (%llu nodes): %s (%.1f s, %u threads)\n",
               (unsigned long long)id, (unsigned long long)g.nodes, hex,
               (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9, threads);
        fflush(stdout);
        EVP_MD_CTX_free(sha);
        cuzk_fil_porep_graph_clear(&g);
        CHECK_MSG(strcmp(hex, published_digest(id)) == 0, "id %llu cache digest %s",
                  (unsigned long long)id, hex);
    }
    free(buf);
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* PoRep graph and challenges (filecoin-circuits.md 3.4, 3.5; sources in porep_graph.h). */
#include "filecoin/porep_graph.h"

#include "filecoin/chacha8.h"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const uint64_t SIZES[5] = {2048ULL, 8ULL << 20, 512ULL << 20, 32ULL << 30, 64ULL << 30};
static const char *const SEAL_NAMES[20] = {
    "StackedDrg2KiBV1",
    "StackedDrg8MiBV1",
    "StackedDrg512MiBV1",
    "StackedDrg32GiBV1",
    "StackedDrg64GiBV1",
    "StackedDrg2KiBV1_1",
    "StackedDrg8MiBV1_1",
    "StackedDrg512MiBV1_1",
    "StackedDrg32GiBV1_1",
    "StackedDrg64GiBV1_1",
    "StackedDrg2KiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg8MiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg512MiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg32GiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg64GiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep",
    "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep",
    "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep",
    "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep",
    "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep",
};

static const char NI_TAG[] = "filecoin.io|PoRep|1|NonInteractive|1";
static const char SYNTH_GEN_KEY[] = "filecoin.io|PoRep|1|Synthetic|1|Generation";
static const char SYNTH_SEL_KEY[] = "filecoin.io|PoRep|1|Synthetic|1|Selection";
static const uint8_t SYNTH_NONCE[12] = {'s', 'y', 'n', 't', 'h', '-', 'p', 'o', 'r', 'e', 'p', 0};

static void put_u64_le(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_u64_le(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

/* ---------------------------------------------------------------------------------------- */
/* Registry                                                                                  */

cuzk_status cuzk_fil_porep_id(uint8_t out[32], uint64_t seal_proof_type)
{
    if (seal_proof_type >= 20)
        return cuzk_fail(CUZK_ERR_UNSUPPORTED, "unknown RegisteredSealProof %llu",
                         (unsigned long long)seal_proof_type);
    memset(out, 0, 32);
    put_u64_le(out, seal_proof_type);
    put_u64_le(out + 8, 0); /* registry.rs nonce(): 0 for every id */
    return CUZK_OK;
}

cuzk_status cuzk_fil_porep_info_get(cuzk_fil_porep_info *out, uint64_t id)
{
    cuzk_status s = cuzk_fil_porep_id(out->porep_id, id);
    if (s != CUZK_OK)
        return s;
    unsigned size = (unsigned)(id % 5);
    unsigned group = (unsigned)(id / 5);
    bool big = size >= 3; /* 32 and 64 GiB */
    out->id = id;
    out->sector_size = SIZES[size];
    out->nodes = SIZES[size] / 32;
    out->api_minor = group == 0 ? 0 : group == 1 ? 1 : 2;
    out->kind = group == 2   ? CUZK_FIL_POREP_SYNTHETIC
                : group == 3 ? CUZK_FIL_POREP_NI
                             : CUZK_FIL_POREP_INTERACTIVE;
    out->layers = big ? 11 : 2;
    out->challenges_per_partition = big ? 18 : 2;
    /* NI-PoRep (FIP-0090): 26 / 2,253 minimum challenges in 13 / 126 partitions. */
    if (out->kind == CUZK_FIL_POREP_NI)
        out->partitions = big ? 126 : 13;
    else
        out->partitions = big ? 10 : 1;
    out->name = SEAL_NAMES[id];
    return CUZK_OK;
}

cuzk_status cuzk_fil_replica_id(uint8_t out[32], const uint8_t prover_id[32], uint64_t sector_id,
                                const uint8_t ticket[32], const uint8_t comm_d[32],
                                const uint8_t porep_id[32])
{
    uint8_t msg[136];
    memcpy(msg, prover_id, 32);
    for (int i = 0; i < 8; i++)
        msg[32 + i] = (uint8_t)(sector_id >> (56 - 8 * i)); /* big-endian, unlike PoSt */
    memcpy(msg + 40, ticket, 32);
    memcpy(msg + 72, comm_d, 32);
    memcpy(msg + 104, porep_id, 32);
    unsigned int len = 0;
    if (EVP_Digest(msg, sizeof msg, out, &len, EVP_sha256(), NULL) != 1 || len != 32) {
        memset(out, 0, 32);
        return cuzk_fail(CUZK_ERR_INTERNAL, "SHA-256 of the replica_id preimage failed");
    }
    out[31] &= 0x3f;
    return CUZK_OK;
}

/* ---------------------------------------------------------------------------------------- */
/* Graph                                                                                     */

static cuzk_status domain_seed(uint8_t out[32], const char *tag, const uint8_t porep_id[32])
{
    uint8_t msg[64];
    size_t tl = strlen(tag);
    memcpy(msg, tag, tl);
    memcpy(msg + tl, porep_id, 32);
    unsigned int len = 0;
    if (EVP_Digest(msg, tl + 32, out, &len, EVP_sha256(), NULL) != 1)
        return cuzk_fail(CUZK_ERR_INTERNAL, "SHA-256 of the %s domain seed failed", tag);
    return CUZK_OK;
}

cuzk_status cuzk_fil_porep_graph_init(cuzk_fil_porep_graph *g, uint64_t nodes,
                                      const uint8_t porep_id[32], unsigned api_minor)
{
    memset(g, 0, sizeof *g);
    if (nodes < 3 || nodes > (1ULL << 32))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "a PoRep graph needs 3 .. 2^32 nodes, not %llu",
                         (unsigned long long)nodes);
    g->nodes = nodes;
    g->api_minor = api_minor;
    uint8_t seed[32];
    cuzk_status s = domain_seed(seed, "Filecoin_DRSample", porep_id);
    if (s != CUZK_OK)
        return s;
    memcpy(g->drg_seed, seed, 28);
    if ((s = domain_seed(seed, "Filecoin_Feistel", porep_id)) != CUZK_OK)
        return s;
    for (int i = 0; i < 4; i++)
        g->feistel_keys[i] = get_u64_le(seed + 8 * i);
    /* feistel.rs precompute: the smallest power of four >= nodes * 8 (at least 4), split into two
     * halves of log4 bits each. */
    uint64_t n = nodes * CUZK_FIL_EXP_DEGREE, pow4 = 4;
    unsigned log4 = 1;
    while (pow4 < n) {
        pow4 *= 4;
        log4++;
    }
    g->feistel_half_bits = log4;
    g->feistel_right_mask = (1ULL << log4) - 1;
    g->feistel_left_mask = g->feistel_right_mask << log4;
    g->blake2b = EVP_MD_fetch(NULL, "BLAKE2B-512", NULL);
    if (!g->blake2b)
        return cuzk_fail(CUZK_ERR_INTERNAL, "OpenSSL has no BLAKE2B-512 digest");
    return CUZK_OK;
}

cuzk_status cuzk_fil_porep_graph_init_id(cuzk_fil_porep_graph *g, uint64_t seal_proof_type)
{
    memset(g, 0, sizeof *g);
    cuzk_fil_porep_info info;
    cuzk_status s = cuzk_fil_porep_info_get(&info, seal_proof_type);
    if (s != CUZK_OK)
        return s;
    return cuzk_fil_porep_graph_init(g, info.nodes, info.porep_id, info.api_minor);
}

void cuzk_fil_porep_graph_clear(cuzk_fil_porep_graph *g)
{
    if (!g)
        return;
    EVP_MD_free(g->blake2b);
    memset(g, 0, sizeof *g);
}

cuzk_status cuzk_fil_porep_hasher_init(cuzk_fil_porep_hasher *h)
{
    h->ctx = EVP_MD_CTX_new();
    if (!h->ctx)
        return cuzk_fail(CUZK_ERR_NOMEM, "EVP_MD_CTX_new failed");
    return CUZK_OK;
}

void cuzk_fil_porep_hasher_clear(cuzk_fil_porep_hasher *h)
{
    if (!h)
        return;
    EVP_MD_CTX_free(h->ctx);
    h->ctx = NULL;
}

cuzk_status cuzk_fil_porep_parent_cache_id(char out[65], const cuzk_fil_porep_graph *g)
{
    /* cache.rs cache_path hashes H::name(), StackedGraph::identifier() (which embeds
     * BucketGraph::identifier(); the DRG seed is not part of it), the four Feistel keys and the
     * entry count. The tree hasher of every published PoRep is Poseidon. */
    char ident[192];
    int il = snprintf(ident, sizeof ident,
                      "stacked_graph::StackedGraph{expansion_degree: %d base_graph: "
                      "drgraph::BucketGraph{size: %llu; degree: %d; hasher: poseidon_hasher} }",
                      CUZK_FIL_EXP_DEGREE, (unsigned long long)g->nodes, CUZK_FIL_DRG_DEGREE);
    uint8_t tail[36], md[32];
    for (int i = 0; i < 4; i++)
        put_u64_le(tail + 8 * i, g->feistel_keys[i]);
    for (int i = 0; i < 4; i++)
        tail[32 + i] = (uint8_t)(g->nodes >> (8 * i)); /* `as u32` upstream */
    unsigned int len = 0;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    bool ok = ctx && il > 0 && (size_t)il < sizeof ident &&
              EVP_DigestInit_ex2(ctx, EVP_sha256(), NULL) == 1 &&
              EVP_DigestUpdate(ctx, "poseidon_hasher", 15) == 1 &&
              EVP_DigestUpdate(ctx, ident, (size_t)il) == 1 &&
              EVP_DigestUpdate(ctx, tail, sizeof tail) == 1 &&
              EVP_DigestFinal_ex(ctx, md, &len) == 1;
    EVP_MD_CTX_free(ctx);
    out[0] = 0;
    if (!ok)
        return cuzk_fail(CUZK_ERR_INTERNAL, "SHA-256 of the parent cache identifier failed");
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", md[i]);
    return CUZK_OK;
}

void cuzk_fil_porep_drg_parents(const cuzk_fil_porep_graph *g, uint32_t out[CUZK_FIL_DRG_DEGREE],
                                uint64_t node)
{
    if (node < 2) {
        memset(out, 0, CUZK_FIL_DRG_DEGREE * sizeof *out);
        return;
    }
    /* drgraph.rs BucketGraph::parents: ChaCha8 seeded with drg_seed || node u32 LE; m' = 5
     * random parents over the metagraph of node * 5 nodes. */
    uint8_t seed[32];
    memcpy(seed, g->drg_seed, 28);
    for (int i = 0; i < 4; i++)
        seed[28 + i] = (uint8_t)(node >> (8 * i));
    cuzk__chacha8_rng rng;
    cuzk__chacha8_rng_init(&rng, seed);
    const uint64_t m_prime = CUZK_FIL_DRG_DEGREE - 1;
    uint64_t meta = node * m_prime;
    /* ceil(log2(meta)) as the integer bit length of meta - 1; upstream takes it through f64,
     * which is exact here: meta < 2^35 and is never within 2^-40 of a power of two without
     * being one. */
    uint64_t n_buckets = 64 - (uint64_t)__builtin_clzll(meta - 1);
    unsigned first = g->api_minor == 0 ? 0 : 1;
    for (unsigned k = 0; k < m_prime; k++) {
        uint64_t bucket = cuzk__chacha8_rng_next_u64(&rng) % n_buckets + 1;
        uint64_t hi = meta < (1ULL << bucket) ? meta : (1ULL << bucket);
        uint64_t lo = hi >> 1 > 2 ? hi >> 1 : 2;
        uint64_t dist = lo + cuzk__chacha8_rng_next_u64(&rng) % (hi - lo + 1);
        uint32_t parent = (uint32_t)((meta - dist) / m_prime);
        out[first + k] = parent == node ? (uint32_t)(node - 1) : parent;
    }
    /* The immediate predecessor: last DRG slot under API 1.0, first one after. */
    out[g->api_minor == 0 ? m_prime : 0] = (uint32_t)(node - 1);
}

/* F(R, K) = first 8 bytes (BE) of Blake2b-512(R u64 BE || K u64 BE), masked (feistel.rs). */
static cuzk_status feistel_round(const cuzk_fil_porep_graph *g, cuzk_fil_porep_hasher *h,
                                 uint64_t *out, uint64_t right, uint64_t key)
{
    uint8_t data[16], md[64];
    for (int i = 0; i < 8; i++) {
        data[i] = (uint8_t)(right >> (56 - 8 * i));
        data[8 + i] = (uint8_t)(key >> (56 - 8 * i));
    }
    unsigned int len = 0;
    if (EVP_DigestInit_ex2(h->ctx, g->blake2b, NULL) != 1 ||
        EVP_DigestUpdate(h->ctx, data, sizeof data) != 1 ||
        EVP_DigestFinal_ex(h->ctx, md, &len) != 1 || len != 64)
        return cuzk_fail(CUZK_ERR_INTERNAL, "Blake2b-512 of a Feistel round failed");
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = (v << 8) | md[i];
    *out = v & g->feistel_right_mask;
    return CUZK_OK;
}

static cuzk_status feistel_encode(const cuzk_fil_porep_graph *g, cuzk_fil_porep_hasher *h,
                                  uint64_t *out, uint64_t index)
{
    uint64_t left = (index & g->feistel_left_mask) >> g->feistel_half_bits;
    uint64_t right = index & g->feistel_right_mask;
    for (int r = 0; r < 3; r++) { /* FEISTEL_ROUNDS = 3, keys[0..3] */
        uint64_t f = 0;
        cuzk_status s = feistel_round(g, h, &f, right, g->feistel_keys[r]);
        if (s != CUZK_OK)
            return s;
        uint64_t nl = right;
        right = left ^ f;
        left = nl;
    }
    *out = (left << g->feistel_half_bits) | right;
    return CUZK_OK;
}

cuzk_status cuzk_fil_porep_feistel_permute(const cuzk_fil_porep_graph *g, cuzk_fil_porep_hasher *h,
                                           uint64_t *out, uint64_t index)
{
    uint64_t n = g->nodes * CUZK_FIL_EXP_DEGREE;
    if (index >= n)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "Feistel index %llu outside [0, %llu)",
                         (unsigned long long)index, (unsigned long long)n);
    /* Cycle walking: the cipher permutes [0, 4^log4), re-encrypt until inside [0, n). Since
     * 4^log4 < 4n the expected number of extra rounds is below 3; the walk ends because index
     * lies on the same cycle, after at most 4^log4 - n steps outside the range (the guard only
     * turns a broken cipher into an error instead of a hang). */
    uint64_t u, steps = 0, limit = (g->feistel_left_mask | g->feistel_right_mask) - n + 1;
    cuzk_status s = feistel_encode(g, h, &u, index);
    while (s == CUZK_OK && u >= n) {
        if (steps++ == limit)
            return cuzk_fail(CUZK_ERR_INTERNAL, "Feistel cycle walk from %llu did not return",
                             (unsigned long long)index);
        s = feistel_encode(g, h, &u, u);
    }
    *out = s == CUZK_OK ? u : 0;
    return s;
}

cuzk_status cuzk_fil_porep_exp_parents(const cuzk_fil_porep_graph *g, cuzk_fil_porep_hasher *h,
                                       uint32_t out[CUZK_FIL_EXP_DEGREE], uint64_t node)
{
    for (unsigned i = 0; i < CUZK_FIL_EXP_DEGREE; i++) {
        uint64_t t = 0;
        cuzk_status s = cuzk_fil_porep_feistel_permute(g, h, &t, node * CUZK_FIL_EXP_DEGREE + i);
        if (s != CUZK_OK)
            return s;
        /* graph.rs correspondent: API 1.0 computes `transformed as u32 / 8`, dropping the top
         * bits of 32 / 64 GiB indexes; later versions divide the u64. */
        out[i] = g->api_minor == 0 ? (uint32_t)t / CUZK_FIL_EXP_DEGREE
                                   : (uint32_t)(t / CUZK_FIL_EXP_DEGREE);
    }
    return CUZK_OK;
}

cuzk_status cuzk_fil_porep_parents(const cuzk_fil_porep_graph *g, cuzk_fil_porep_hasher *h,
                                   uint32_t out[CUZK_FIL_PARENTS], uint64_t node)
{
    if (node >= g->nodes)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "node %llu of a graph of %llu nodes",
                         (unsigned long long)node, (unsigned long long)g->nodes);
    cuzk_fil_porep_drg_parents(g, out, node);
    return cuzk_fil_porep_exp_parents(g, h, out + CUZK_FIL_DRG_DEGREE, node);
}

/* ---------------------------------------------------------------------------------------- */
/* Challenges                                                                                */

uint64_t cuzk_fil_porep_challenge_reduce(const uint8_t h[32], uint64_t nodes)
{
    /* Horner from the most significant byte; m < 2^32 keeps r * 256 + b inside u64. */
    uint64_t m = nodes - 1, r = 0;
    for (int i = 31; i >= 0; i--)
        r = ((r << 8) | h[i]) % m;
    return r + 1;
}

static cuzk_status check_nodes(uint64_t nodes)
{
    if (nodes < 3 || nodes > (1ULL << 32))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "challenges need 3 .. 2^32 sector nodes, not %llu",
                         (unsigned long long)nodes);
    return CUZK_OK;
}

static cuzk_status sha256_challenges(uint64_t *out, size_t count, uint64_t nodes,
                                     const uint8_t *prefix, size_t plen, unsigned k)
{
    cuzk_status s = check_nodes(nodes);
    if (s != CUZK_OK)
        return s;
    uint8_t msg[128], md[32];
    memcpy(msg, prefix, plen);
    for (size_t i = 0; i < count; i++) {
        uint32_t j = (uint32_t)(count * k + i); /* `as u32` upstream */
        for (int b = 0; b < 4; b++)
            msg[plen + b] = (uint8_t)(j >> (8 * b));
        unsigned int len = 0;
        if (EVP_Digest(msg, plen + 4, md, &len, EVP_sha256(), NULL) != 1)
            return cuzk_fail(CUZK_ERR_INTERNAL, "SHA-256 of a PoRep challenge failed");
        out[i] = cuzk_fil_porep_challenge_reduce(md, nodes);
    }
    return CUZK_OK;
}

cuzk_status cuzk_fil_porep_challenges_interactive(uint64_t *out, size_t count, uint64_t nodes,
                                                  const uint8_t replica_id[32],
                                                  const uint8_t seed[32], unsigned k)
{
    uint8_t prefix[64];
    memcpy(prefix, replica_id, 32);
    memcpy(prefix + 32, seed, 32);
    return sha256_challenges(out, count, nodes, prefix, sizeof prefix, k);
}

cuzk_status cuzk_fil_porep_challenges_ni(uint64_t *out, size_t count, uint64_t nodes,
                                         const uint8_t replica_id[32], const uint8_t comm_r[32],
                                         unsigned k)
{
    uint8_t prefix[sizeof NI_TAG - 1 + 64];
    memcpy(prefix, NI_TAG, sizeof NI_TAG - 1);
    memcpy(prefix + sizeof NI_TAG - 1, replica_id, 32);
    memcpy(prefix + sizeof NI_TAG - 1 + 32, comm_r, 32);
    return sha256_challenges(out, count, nodes, prefix, sizeof prefix, k);
}

uint64_t cuzk_fil_porep_num_synth(uint64_t nodes)
{
    return nodes < (1ULL << 18) ? nodes : (1ULL << 18);
}

/* Keyed Blake2b with a 32-byte output (blake2b_simd Params::key + hash_length(32)) over a || b:
 * OpenSSL's BLAKE2BMAC with its size parameter set to 32. */
static cuzk_status blake2b256_keyed(uint8_t out[32], const char *key, const uint8_t a[32],
                                    const uint8_t b[32])
{
    cuzk_status s = CUZK_OK;
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "BLAKE2BMAC", NULL);
    EVP_MAC_CTX *ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
    size_t outsize = 32, len = 0;
    OSSL_PARAM params[2] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &outsize),
                            OSSL_PARAM_construct_end()};
    if (!ctx || EVP_MAC_init(ctx, (const unsigned char *)key, strlen(key), params) != 1 ||
        EVP_MAC_update(ctx, a, 32) != 1 || EVP_MAC_update(ctx, b, 32) != 1 ||
        EVP_MAC_final(ctx, out, &len, 32) != 1 || len != 32)
        s = cuzk_fail(CUZK_ERR_INTERNAL, "keyed Blake2b-256 (%s) failed", key);
    EVP_MAC_CTX_free(ctx);
    EVP_MAC_free(mac);
    return s;
}

/* |len| bytes of the IETF ChaCha20 keystream (RustCrypto chacha20: 32-bit block counter,
 * 96-bit nonce) of |key| with the synth-porep nonce, from byte |offset|. */
static cuzk_status chacha20_keystream(EVP_CIPHER_CTX *ctx, uint8_t *out, size_t len,
                                      const uint8_t key[32], uint64_t offset)
{
    uint64_t block = offset / 64;
    if (block + (offset % 64 + len + 63) / 64 > (1ULL << 32))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "ChaCha20 keystream offset %llu past 256 GiB",
                         (unsigned long long)offset);
    uint8_t iv[16];
    for (int b = 0; b < 4; b++)
        iv[b] = (uint8_t)(block >> (8 * b));
    memcpy(iv + 4, SYNTH_NONCE, 12);
    uint8_t zero[64] = {0}, skip[64];
    int n = 0;
    if (EVP_EncryptInit_ex2(ctx, EVP_chacha20(), key, iv, NULL) != 1)
        return cuzk_fail(CUZK_ERR_INTERNAL, "ChaCha20 init failed");
    if (offset % 64 && EVP_EncryptUpdate(ctx, skip, &n, zero, (int)(offset % 64)) != 1)
        return cuzk_fail(CUZK_ERR_INTERNAL, "ChaCha20 seek failed");
    memset(out, 0, len);
    while (len) {
        int part = len > (1u << 30) ? (1 << 30) : (int)len;
        if (EVP_EncryptUpdate(ctx, out, &n, out, part) != 1 || n != part)
            return cuzk_fail(CUZK_ERR_INTERNAL, "ChaCha20 keystream failed");
        out += part;
        len -= (size_t)part;
    }
    return CUZK_OK;
}

cuzk_status cuzk_fil_porep_synth_challenges(uint64_t *out, uint64_t first, size_t count,
                                            uint64_t nodes, const uint8_t replica_id[32],
                                            const uint8_t comm_r[32])
{
    cuzk_status s = check_nodes(nodes);
    if (s != CUZK_OK)
        return s;
    if (first >= (1ULL << 32) || count >= (1ULL << 32) - first)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "synthetic challenges %llu + %zu exceed u32",
                         (unsigned long long)first, count);
    uint8_t key[32];
    if ((s = blake2b256_keyed(key, SYNTH_GEN_KEY, replica_id, comm_r)) != CUZK_OK)
        return s;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (!ctx)
        return cuzk_fail(CUZK_ERR_NOMEM, "EVP_CIPHER_CTX_new failed");
    /* Challenge i is the 32 keystream bytes at offset 32 * i (challenges.rs seek). Generated in
     * chunks so the stack stays small. */
    uint8_t buf[32 * 64];
    for (size_t done = 0; done < count && s == CUZK_OK;) {
        size_t part = count - done < 64 ? count - done : 64;
        s = chacha20_keystream(ctx, buf, 32 * part, key, 32 * (first + done));
        for (size_t i = 0; i < part && s == CUZK_OK; i++)
            out[done + i] = cuzk_fil_porep_challenge_reduce(buf + 32 * i, nodes);
        done += part;
    }
    EVP_CIPHER_CTX_free(ctx);
    return s;
}

cuzk_status cuzk_fil_porep_synth_select(uint64_t *out, uint64_t first, size_t count,
                                        uint64_t num_synth, const uint8_t replica_id[32],
                                        const uint8_t seed[32])
{
    if (num_synth == 0 || num_synth >= (1ULL << 32))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "%llu synthetic challenges (1 .. 2^32 - 1)",
                         (unsigned long long)num_synth);
    if (first >= (1ULL << 30) || count >= (1ULL << 30) - first)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "porep challenges %llu + %zu out of range",
                         (unsigned long long)first, count);
    uint8_t key[32];
    cuzk_status s = blake2b256_keyed(key, SYNTH_SEL_KEY, replica_id, seed);
    if (s != CUZK_OK)
        return s;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (!ctx)
        return cuzk_fail(CUZK_ERR_NOMEM, "EVP_CIPHER_CTX_new failed");
    /* Index of porep challenge c: u32 LE at keystream offset 4 * c, mod num_synth. */
    uint8_t buf[4 * 256];
    for (size_t done = 0; done < count && s == CUZK_OK;) {
        size_t part = count - done < 256 ? count - done : 256;
        s = chacha20_keystream(ctx, buf, 4 * part, key, 4 * (first + done));
        for (size_t i = 0; i < part && s == CUZK_OK; i++) {
            const uint8_t *p = buf + 4 * i;
            uint32_t v =
                (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
            out[done + i] = v % num_synth;
        }
        done += part;
    }
    EVP_CIPHER_CTX_free(ctx);
    return s;
}

cuzk_status cuzk_fil_porep_challenges(uint64_t *out, size_t max, size_t *n,
                                      uint64_t seal_proof_type, const uint8_t replica_id[32],
                                      const uint8_t comm_r[32], const uint8_t seed[32],
                                      unsigned partition)
{
    *n = 0;
    cuzk_fil_porep_info info;
    cuzk_status s = cuzk_fil_porep_info_get(&info, seal_proof_type);
    if (s != CUZK_OK)
        return s;
    size_t cpp = info.challenges_per_partition;
    if (partition >= info.partitions)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "partition %u of %s, which has %u", partition,
                         info.name, info.partitions);
    if (max < cpp)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "room for %zu challenges, %zu needed", max, cpp);
    if (!replica_id || (info.kind != CUZK_FIL_POREP_INTERACTIVE && !comm_r) ||
        (info.kind != CUZK_FIL_POREP_NI && !seed))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "%s challenges need replica_id%s%s", info.name,
                         info.kind != CUZK_FIL_POREP_INTERACTIVE ? ", comm_r" : "",
                         info.kind != CUZK_FIL_POREP_NI ? ", seed" : "");
    switch (info.kind) {
    case CUZK_FIL_POREP_INTERACTIVE:
        s = cuzk_fil_porep_challenges_interactive(out, cpp, info.nodes, replica_id, seed,
                                                  partition);
        break;
    case CUZK_FIL_POREP_NI:
        s = cuzk_fil_porep_challenges_ni(out, cpp, info.nodes, replica_id, comm_r, partition);
        break;
    case CUZK_FIL_POREP_SYNTHETIC: {
        uint64_t idx[18];
        uint64_t num = cuzk_fil_porep_num_synth(info.nodes);
        s = cuzk_fil_porep_synth_select(idx, (uint64_t)partition * cpp, cpp, num, replica_id, seed);
        for (size_t i = 0; i < cpp && s == CUZK_OK; i++)
            s = cuzk_fil_porep_synth_challenges(&out[i], idx[i], 1, info.nodes, replica_id, comm_r);
        break;
    }
    }
    if (s == CUZK_OK)
        *n = cpp;
    return s;
}

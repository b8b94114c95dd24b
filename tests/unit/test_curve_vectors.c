/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Known-answer tests: k*G1 and k*G2 encodings from the independent Python reference
 * (scripts/gen_curve_vectors.py -> tests/vectors/curve_vectors.h), plus a few values from a
 * second public source.
 */
#include "test_curve_util.h"
#include "../vectors/curve_vectors.h"

/* Big-endian hex (at most 64 digits) to 4 little-endian limbs. */
static void parse_scalar(uint64_t out[4], const char *hex)
{
    memset(out, 0, 4 * sizeof out[0]);
    size_t n = strlen(hex);
    CHECK(n <= 64);
    for (size_t i = 0; i < n; i++) {
        char c = hex[n - 1 - i];
        uint64_t v = (uint64_t)(c <= '9' ? c - '0' : c - 'a' + 10);
        out[i / 16] |= v << (4 * (i % 16));
    }
}

#define VECTOR_TEST(G, CB, UB)                                                                     \
    do {                                                                                           \
        size_t nv = sizeof curve_vectors_##G / sizeof curve_vectors_##G[0];                        \
        CHECK(nv >= 10);                                                                           \
        cuzk_##G##_affine_t g, a, d;                                                               \
        cuzk_##G##_jac_t gj, t, u, v;                                                              \
        cuzk_##G##_generator(&g);                                                                  \
        cuzk_##G##_from_affine(&gj, &g);                                                           \
        for (size_t i = 0; i < nv; i++) {                                                          \
            const curve_vector *cv = &curve_vectors_##G[i];                                        \
            uint8_t want_c[CB], want_u[UB], got_c[CB], got_u[UB];                                  \
            uint64_t raw[4];                                                                       \
            cuzk_fr_t k;                                                                           \
            CHECK(test_unhex(want_c, CB, cv->compressed));                                         \
            CHECK(test_unhex(want_u, UB, cv->uncompressed));                                       \
            parse_scalar(raw, cv->k);                                                              \
            CHECK(cuzk_fr_from_canonical(&k, raw));                                                \
            cuzk_##G##_mul(&t, &gj, &k);                                                           \
            cuzk_##G##_mul_vartime(&u, &gj, &k);                                                   \
            cuzk_##G##_mul_raw_vartime(&v, &gj, raw, 4);                                           \
            CHECK_MSG(cuzk_##G##_eq(&t, &u) && cuzk_##G##_eq(&t, &v), "%s: k = %s disagree", #G,   \
                      cv->k);                                                                      \
            cuzk_##G##_to_affine(&a, &t);                                                          \
            cuzk_##G##_compress(got_c, &a);                                                        \
            cuzk_##G##_serialize(got_u, &a);                                                       \
            CHECK_MSG(memcmp(got_c, want_c, CB) == 0, "%s: k = %s compressed mismatch", #G,        \
                      cv->k);                                                                      \
            CHECK_MSG(memcmp(got_u, want_u, UB) == 0, "%s: k = %s uncompressed mismatch", #G,      \
                      cv->k);                                                                      \
            CHECK(cuzk_##G##_uncompress(&d, want_c) == CUZK_OK);                                   \
            CHECK(cuzk_##G##_affine_eq(&d, &a));                                                   \
            CHECK(cuzk_##G##_deserialize(&d, want_u) == CUZK_OK);                                  \
            CHECK(cuzk_##G##_affine_eq(&d, &a));                                                   \
            CHECK(cuzk_##G##_decode(&d, want_c, CB) == CUZK_OK);                                   \
            CHECK(cuzk_##G##_affine_eq(&d, &a));                                                   \
            CHECK(cuzk_##G##_decode(&d, want_u, UB) == CUZK_OK);                                   \
            CHECK(cuzk_##G##_affine_eq(&d, &a));                                                   \
        }                                                                                          \
    } while (0)

CUZK_TEST(curve_g1_known_vectors)
{
    VECTOR_TEST(g1, 48, 96);
}

CUZK_TEST(curve_g2_known_vectors)
{
    VECTOR_TEST(g2, 96, 192);
}

/* Second source: the BLS public keys of the secret keys 1, 2, 3 (k*G1 compressed), as they
 * appear in many public Ethereum test fixtures, and the formats.md prefixes of the generators. */
CUZK_TEST(curve_known_public_values)
{
    static const char *pk[3] = {
        "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb"
        "22c6bb",
        "a572cbea904d67468808c8eb50a9450c9721db309128012543902d0ac358a62ae28f75bb8f1c7c42c39a8c5529"
        "bf0f4e",
        "89ece308f9d1f0131765212deca99697b112d61f9be9a5f1f3780a51335b3ff981747a0b2ca2179b96d2c0c902"
        "4e5224",
    };
    cuzk_g1_affine_t g, a, d;
    cuzk_g1_jac_t gj, t;
    cuzk_g1_generator(&g);
    cuzk_g1_from_affine(&gj, &g);
    for (uint64_t k = 1; k <= 3; k++) {
        uint8_t want[48], got[48];
        CHECK(test_unhex(want, 48, pk[k - 1]));
        cuzk_g1_mul_raw_vartime(&t, &gj, &k, 1);
        cuzk_g1_to_affine(&a, &t);
        cuzk_g1_compress(got, &a);
        CHECK(memcmp(got, want, 48) == 0);
        CHECK(cuzk_g1_uncompress(&d, want) == CUZK_OK);
        CHECK(cuzk_g1_affine_eq(&d, &a));
    }
    uint8_t c1[48], c2[96];
    static const uint8_t p1[4] = {0x97, 0xf1, 0xd3, 0xa7}, p2[4] = {0x93, 0xe0, 0x2b, 0x60};
    cuzk_g1_compress(c1, &g);
    CHECK(memcmp(c1, p1, 4) == 0);
    cuzk_g2_affine_t h, e;
    cuzk_g2_generator(&h);
    cuzk_g2_compress(c2, &h);
    CHECK(memcmp(c2, p2, 4) == 0);
    CHECK(cuzk_g1_uncompress(&a, c1) == CUZK_OK && cuzk_g1_affine_eq(&a, &g));
    CHECK(cuzk_g2_uncompress(&e, c2) == CUZK_OK && cuzk_g2_affine_eq(&e, &h));
}

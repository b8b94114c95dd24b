/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Verifier on simulated instances: valid proofs accepted, every kind of tampering rejected. */
#include "test.h"
#include "cuzk/groth16.h"

CUZK_TEST(groth16_verify_simulated)
{
    static const size_t sizes[] = {0, 1, 3, 5, 20};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        cuzk_groth16_vk *vk;
        cuzk_groth16_proof pr, bad;
        cuzk_fr_t x[20], y[20];
        uint64_t seed = test_rand_u64();
        CHECK_MSG(cuzk_groth16_simulate(&vk, &pr, x, n, seed) == CUZK_OK, "%s",
                  cuzk_last_error());
        CHECK_MSG(cuzk_groth16_verify(vk, &pr, x, n) == CUZK_OK, "n=%zu seed=%llx", n,
                  (unsigned long long)seed);
        /* Serialise and parse back: still valid. */
        uint8_t bytes[192];
        cuzk_groth16_proof_serialize(bytes, &pr);
        CHECK(cuzk_groth16_proof_parse(&bad, bytes) == CUZK_OK);
        CHECK(cuzk_groth16_verify(vk, &bad, x, n) == CUZK_OK);
        /* Each input changed by one. */
        for (size_t i = 0; i < n; i++) {
            memcpy(y, x, sizeof x);
            cuzk_fr_t one;
            cuzk_fr_set_one(&one);
            cuzk_fr_add(&y[i], &y[i], &one);
            CHECK(cuzk_groth16_verify(vk, &pr, y, n) == CUZK_ERR_VERIFY_FAILED);
        }
        /* A, B, C swapped for other valid points. */
        bad = pr;
        bad.a = pr.c;
        CHECK(cuzk_groth16_verify(vk, &bad, x, n) == CUZK_ERR_VERIFY_FAILED);
        bad = pr;
        bad.c = pr.a;
        CHECK(cuzk_groth16_verify(vk, &bad, x, n) == CUZK_ERR_VERIFY_FAILED);
        bad = pr;
        bad.b = vk->delta_g2;
        CHECK(cuzk_groth16_verify(vk, &bad, x, n) == CUZK_ERR_VERIFY_FAILED);
        /* Negated A. */
        bad = pr;
        cuzk_g1_affine_neg(&bad.a, &pr.a);
        CHECK(cuzk_groth16_verify(vk, &bad, x, n) == CUZK_ERR_VERIFY_FAILED);
        /* Wrong input count. */
        CHECK(cuzk_groth16_verify(vk, &pr, x, n + 1) == CUZK_ERR_INVALID_ARG);
        cuzk_groth16_vk_free(vk);
    }
}

CUZK_TEST(groth16_verify_batch_simulated)
{
    enum { N = 4, K = 5 };
    cuzk_groth16_vk *vk;
    cuzk_groth16_proof pr[K];
    cuzk_fr_t x[K * N];
    CHECK(cuzk_groth16_simulate(&vk, &pr[0], x, N, test_rand_u64()) == CUZK_OK);
    /* Re-randomise: (A, B, C) -> (A/t, tB, C) keeps e(A, B); easier: reuse the one proof with
     * its inputs K times and check the batch, then break one. */
    for (int i = 1; i < K; i++) {
        pr[i] = pr[0];
        memcpy(x + i * N, x, N * sizeof x[0]);
    }
    CHECK(cuzk_groth16_verify_batch(vk, pr, K, x, N) == CUZK_OK);
    cuzk_fr_t one;
    cuzk_fr_set_one(&one);
    cuzk_fr_add(&x[3 * N + 2], &x[3 * N + 2], &one);
    CHECK(cuzk_groth16_verify_batch(vk, pr, K, x, N) == CUZK_ERR_VERIFY_FAILED);
    memcpy(x + 3 * N, x, N * sizeof x[0]);
    cuzk_g1_affine_neg(&pr[4].c, &pr[4].c);
    CHECK(cuzk_groth16_verify_batch(vk, pr, K, x, N) == CUZK_ERR_VERIFY_FAILED);
    CHECK(cuzk_groth16_verify_batch(vk, pr, 0, x, N) == CUZK_ERR_INVALID_ARG);
    cuzk_groth16_vk_free(vk);
}

CUZK_TEST(groth16_proof_parse_rejections)
{
    cuzk_groth16_vk *vk;
    cuzk_groth16_proof pr, out;
    cuzk_fr_t x[1];
    CHECK(cuzk_groth16_simulate(&vk, &pr, x, 1, test_rand_u64()) == CUZK_OK);
    uint8_t b[192 * 2];
    cuzk_groth16_proof_serialize(b, &pr);
    memset(&out, 0xa5, sizeof out);
    cuzk_groth16_proof snap = out;
    /* A at infinity (valid encoding, refused by the proof reader like bellperson). */
    uint8_t t[192];
    memcpy(t, b, 192);
    memset(t, 0, 48);
    t[0] = 0xc0;
    CHECK(cuzk_groth16_proof_parse(&out, t) == CUZK_ERR_BAD_ENCODING);
    CHECK(memcmp(&out, &snap, sizeof out) == 0);
    /* Uncompressed flag on A. */
    memcpy(t, b, 192);
    t[0] &= 0x7f;
    CHECK(cuzk_groth16_proof_parse(&out, t) != CUZK_OK);
    CHECK(memcmp(&out, &snap, sizeof out) == 0);
    /* Lengths. */
    size_t cnt = 7;
    memcpy(b + 192, b, 192);
    CHECK(cuzk_groth16_proofs_parse(&out, 1, &cnt, b, 191) == CUZK_ERR_FORMAT && cnt == 0);
    CHECK(cuzk_groth16_proofs_parse(&out, 1, &cnt, b, 0) == CUZK_ERR_FORMAT);
    CHECK(cuzk_groth16_proofs_parse(&out, 1, &cnt, b, 384) == CUZK_ERR_INVALID_ARG);
    cuzk_groth16_proof two[2];
    CHECK(cuzk_groth16_proofs_parse(two, 2, &cnt, b, 384) == CUZK_OK && cnt == 2);
    cuzk_groth16_vk_free(vk);
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The snarkjs prover against snarkjs itself: for the fixture circuits and fixed prover randomness
 * (r, s) the proof.json and public.json must equal the files snarkjs wrote, byte for byte, and
 * the H scalars must equal snarkjs's. Random proofs verify; an unsatisfied witness gives no proof.
 */
#include "test_snarkjs_util.h"
#include "groth16/snarkjs_internal.h"
#include "groth16/verify_split.h"

static void fr_u64(cuzk_fr_t *out, uint64_t v)
{
    cuzk_fr_set_u64(out, v);
}

/* |be| (may be NULL) is the backend; without one, |pool| the CPU prover's pool. The key is
 * loaded with |flags| (packed points: its MSMs decode them). */
static void check_bitexact_flags(const char *name, cuzk_backend *be, cuzk_pool *pool,
                                 unsigned flags)
{
    static const uint64_t rs[2][2] = {{0, 0}, {12345, 67890}};
    cuzk_snarkjs_zkey *zk = snark_load_zkey_flags(name, flags);
    CHECK(!(flags & CUZK_SNARKJS_PACKED_POINTS) == !zk->b2_packed && !zk->b2 == !!zk->b2_packed);
    cuzk_snarkjs_wtns *w = snark_load_wtns(name);
    cuzk_fr_t *pub = cuzk_alloc_array(zk->n_public, sizeof *pub);
    cuzk_fr_t *h = cuzk_alloc_array(zk->domain_size, sizeof *h);
    CHECK(pub && h);
    for (int k = 0; k < 2; k++) {
        cuzk_fr_t r, s;
        fr_u64(&r, rs[k][0]);
        fr_u64(&s, rs[k][1]);
        cuzk_groth16_proof proof;
        cuzk_prove_timings tm;
        cuzk_status st = cuzk__snarkjs_prove_rs(&proof, pub, h, zk, w, &r, &s, be, pool, &tm);
        CHECK_MSG(st == CUZK_OK, "%s: %s", name, cuzk_last_error());
        CHECK(tm.total > 0 && tm.verify > 0);
        char *json, fname[96];
        CHECK(cuzk_snarkjs_proof_to_json(&json, &proof) == CUZK_OK);
        snprintf(fname, sizeof fname, "%s.proof_r%llu_s%llu.json", name,
                 (unsigned long long)rs[k][0], (unsigned long long)rs[k][1]);
        size_t len;
        uint8_t *want = snark_fixture(fname, &len);
        CHECK_MSG(strlen(json) == len && memcmp(json, want, len) == 0,
                  "%s differs from cuzk's proof:\n%s", fname, json);
        cuzk_free(want);
        cuzk_free(json);
        CHECK(cuzk_snarkjs_public_to_json(&json, pub, zk->n_public) == CUZK_OK);
        snprintf(fname, sizeof fname, "%s.public.json", name);
        want = snark_fixture(fname, &len);
        CHECK_MSG(strlen(json) == len && memcmp(json, want, len) == 0, "%s differs: %s", fname,
                  json);
        cuzk_free(want);
        cuzk_free(json);
        /* The H scalars, N x 32 bytes little-endian standard form. */
        snprintf(fname, sizeof fname, "%s.hscalars.bin", name);
        want = snark_fixture(fname, &len);
        CHECK(len == 32 * (size_t)zk->domain_size);
        for (uint32_t i = 0; i < zk->domain_size; i++) {
            uint8_t b[32];
            cuzk_fr_to_bytes_le(b, &h[i]);
            CHECK_MSG(memcmp(b, want + 32 * i, 32) == 0, "%s: h[%u] differs", name, i);
        }
        cuzk_free(want);
    }
    cuzk_free(h);
    cuzk_free(pub);
    cuzk_snarkjs_wtns_free(w);
    cuzk_snarkjs_zkey_free(zk);
}

/* Decoded and packed keys: the same bytes. */
static void check_bitexact(const char *name, cuzk_backend *be, cuzk_pool *pool)
{
    check_bitexact_flags(name, be, pool, 0);
    check_bitexact_flags(name, be, pool, CUZK_SNARKJS_PACKED_POINTS);
}

CUZK_TEST(snarkjs_prove_bitexact_multiplier)
{
    check_bitexact("multiplier", NULL, NULL);
}

CUZK_TEST(snarkjs_prove_bitexact_poseidon)
{
    check_bitexact("poseidon", NULL, NULL);
    cuzk_pool *pool;
    CHECK(cuzk_pool_create(&pool, 2) == CUZK_OK);
    check_bitexact("poseidon", NULL, pool); /* two lanes */
    /* splits of the last job (CUZK_LANE_SPLIT, read per proof): the same bytes */
    static const char *const splits[] = {"2", "1", "7"};
    for (size_t i = 0; i < sizeof splits / sizeof splits[0]; i++) {
        CHECK(setenv("CUZK_LANE_SPLIT", splits[i], 1) == 0);
        check_bitexact("poseidon", NULL, pool);
    }
    CHECK(unsetenv("CUZK_LANE_SPLIT") == 0);
    cuzk_pool_destroy(pool);
}

/* Proofs on a backend: random ones verify, fixed r, s give snarkjs's bytes, a bad witness gives
 * no proof. */
static void check_on_backend(cuzk_backend *be)
{
    check_bitexact("multiplier", be, NULL);
    check_bitexact("poseidon", be, NULL);
    cuzk_snarkjs_zkey *zk = snark_load_zkey("poseidon");
    cuzk_snarkjs_wtns *w = snark_load_wtns("poseidon");
    cuzk_groth16_proof p1, p2;
    cuzk_fr_t pub[1];
    cuzk_prove_timings tm;
    CHECK_MSG(cuzk_snarkjs_prove_on(&p1, pub, zk, w, be, &tm) == CUZK_OK, "%s", cuzk_last_error());
    CHECK(tm.ntt_h > 0 && tm.msm_h > 0 && tm.tail_msm > 0 && tm.msm_b_g2 > 0);
    CHECK(cuzk_snarkjs_prove_on(&p2, pub, zk, w, be, NULL) == CUZK_OK);
    CHECK(!cuzk_g1_affine_eq(&p1.a, &p2.a) && !cuzk_g1_affine_eq(&p1.c, &p2.c));
    CHECK(cuzk_groth16_verify(zk->vk, &p1, pub, 1) == CUZK_OK);
    CHECK(cuzk_groth16_verify(zk->vk, &p2, pub, 1) == CUZK_OK);
    snark_bump(w, w->n - 1, 1);
    memset(&p1, 0x5a, sizeof p1);
    CHECK(cuzk_snarkjs_prove_on(&p1, pub, zk, w, be, NULL) == CUZK_ERR_VERIFY_FAILED);
    cuzk_groth16_proof zero;
    memset(&zero, 0, sizeof zero);
    CHECK(memcmp(&p1, &zero, sizeof p1) == 0 && cuzk_fr_is_zero(&pub[0]));
    cuzk_snarkjs_wtns_free(w);
    cuzk_snarkjs_zkey_free(zk);
}

/* Fixed r, s with the keys |zk| (multiplier, poseidon) as loaded: snarkjs's proof bytes. */
static void check_resident(cuzk_backend *be, cuzk_snarkjs_zkey *zk[2])
{
    static const char *names[2] = {"multiplier", "poseidon"};
    for (int k = 0; k < 2; k++) {
        cuzk_snarkjs_wtns *w = snark_load_wtns(names[k]);
        cuzk_fr_t r, s, pub[1];
        fr_u64(&r, 12345);
        fr_u64(&s, 67890);
        cuzk_groth16_proof proof;
        CHECK_MSG(cuzk__snarkjs_prove_rs(&proof, pub, NULL, zk[k], w, &r, &s, be, NULL, NULL) ==
                      CUZK_OK,
                  "%s", cuzk_last_error());
        char *json, fname[96];
        CHECK(cuzk_snarkjs_proof_to_json(&json, &proof) == CUZK_OK);
        snprintf(fname, sizeof fname, "%s.proof_r12345_s67890.json", names[k]);
        size_t len;
        uint8_t *want = snark_fixture(fname, &len);
        CHECK_MSG(strlen(json) == len && memcmp(json, want, len) == 0, "%s (resident) differs",
                  fname);
        cuzk_free(want);
        cuzk_free(json);
        cuzk_snarkjs_wtns_free(w);
    }
}

/* Three or more threads: each G1 MSM over the whole pool (not pairs of one-thread MSMs). */
CUZK_TEST(snarkjs_prove_bitexact_threads)
{
    for (unsigned t = 3; t <= 5; t += 2) {
        cuzk_pool *pool;
        CHECK(cuzk_pool_create(&pool, t) == CUZK_OK);
        check_bitexact("poseidon", NULL, pool);
        check_bitexact("multiplier", NULL, pool);
        cuzk_pool_destroy(pool);
    }
}

CUZK_TEST(snarkjs_prove_cpu_backend)
{
    cuzk_backend *be;
    CHECK(cuzk_backend_create(&be, CUZK_BACKEND_CPU, 2) == CUZK_OK);
    check_on_backend(be);
    cuzk_snarkjs_zkey *zk[2] = {snark_load_zkey("multiplier"), snark_load_zkey("poseidon")};
    for (int k = 0; k < 2; k++) /* a no-op on the CPU backend */
        CHECK(cuzk_snarkjs_zkey_keep_resident(be, zk[k]) == CUZK_OK);
    CHECK(cuzk_backend_resident_bytes(be) == 0);
    check_resident(be, zk);
    for (int k = 0; k < 2; k++) {
        cuzk_snarkjs_zkey_drop_resident(be, zk[k]);
        cuzk_snarkjs_zkey_free(zk[k]);
    }
    cuzk_backend_destroy(be);
}

/* The device path: the H step of poseidon's 2^10 domain and all MSMs on the GPU. */
CUZK_TEST(gpu_snarkjs_prove)
{
    if (!cuzk_backend_cuda_usable())
        test_skip("no CUDA device");
    cuzk_backend *be;
    CHECK_MSG(cuzk_backend_create(&be, CUZK_BACKEND_CUDA, 0) == CUZK_OK, "%s", cuzk_last_error());
    check_on_backend(be);
    /* Again with the keys' points resident on the device (the daemon's GPU workers). */
    cuzk_snarkjs_zkey *zk[2] = {snark_load_zkey("multiplier"), snark_load_zkey("poseidon")};
    for (int k = 0; k < 2; k++)
        CHECK_MSG(cuzk_snarkjs_zkey_keep_resident(be, zk[k]) == CUZK_OK, "%s", cuzk_last_error());
    uint64_t held = cuzk_backend_resident_bytes(be);
    CHECK(held >= (uint64_t)zk[1]->domain_size * sizeof(cuzk_g1_affine_t));
    CHECK(cuzk_snarkjs_zkey_keep_resident(be, zk[1]) == CUZK_OK); /* idempotent */
    CHECK(cuzk_backend_resident_bytes(be) == held);
    check_resident(be, zk);
    for (int k = 0; k < 2; k++) {
        cuzk_snarkjs_zkey_drop_resident(be, zk[k]);
        cuzk_snarkjs_zkey_free(zk[k]);
    }
    CHECK(cuzk_backend_resident_bytes(be) == 0);
    cuzk_backend_destroy(be);
}

CUZK_TEST(snarkjs_prove_random)
{
    cuzk_snarkjs_zkey *zk = snark_load_zkey("poseidon");
    cuzk_snarkjs_wtns *w = snark_load_wtns("poseidon");
    cuzk_groth16_proof p1, p2;
    cuzk_fr_t pub[1];
    CHECK_MSG(cuzk_snarkjs_prove(&p1, pub, zk, w, NULL, NULL) == CUZK_OK, "%s", cuzk_last_error());
    CHECK(cuzk_snarkjs_prove(&p2, pub, zk, w, NULL, NULL) == CUZK_OK);
    CHECK(!cuzk_g1_affine_eq(&p1.a, &p2.a) && !cuzk_g1_affine_eq(&p1.c, &p2.c));
    CHECK(cuzk_groth16_verify(zk->vk, &p1, pub, 1) == CUZK_OK);
    CHECK(cuzk_groth16_verify(zk->vk, &p2, pub, 1) == CUZK_OK);
    /* A proof of the poseidon circuit does not verify with the multiplier key. */
    cuzk_snarkjs_zkey *other = snark_load_zkey("multiplier");
    CHECK(cuzk_groth16_verify(other->vk, &p1, pub, 1) == CUZK_ERR_VERIFY_FAILED);
    cuzk_snarkjs_zkey_free(other);
    cuzk_snarkjs_wtns_free(w);
    cuzk_snarkjs_zkey_free(zk);
}

CUZK_TEST(snarkjs_prove_unsatisfied)
{
    static const char *names[2] = {"multiplier", "poseidon"};
    for (int k = 0; k < 2; k++) {
        cuzk_snarkjs_zkey *zk = snark_load_zkey(names[k]);
        cuzk_snarkjs_wtns *w = snark_load_wtns(names[k]);
        cuzk_groth16_proof p;
        cuzk_fr_t pub[1];
        /* The public output changed (c = 34 for a = 3, b = 11), then an internal wire. */
        for (int which = 0; which < 2; which++) {
            uint32_t wire = which == 0 ? 1 : w->n - 1;
            snark_bump(w, wire, 1);
            memset(&p, 0x5a, sizeof p);
            memset(pub, 0x5a, sizeof pub);
            CHECK(cuzk_snarkjs_prove(&p, pub, zk, w, NULL, NULL) == CUZK_ERR_VERIFY_FAILED);
            CHECK(strstr(cuzk_last_error(), "does not satisfy"));
            /* Outputs are zeroed: nothing that looks like a proof escapes. */
            cuzk_groth16_proof zero;
            memset(&zero, 0, sizeof zero);
            CHECK(memcmp(&p, &zero, sizeof p) == 0);
            CHECK(cuzk_fr_is_zero(&pub[0]));
            snark_bump(w, wire, -1);
        }
        /* A witness of the wrong length. */
        w->n--;
        CHECK(cuzk_snarkjs_prove(&p, pub, zk, w, NULL, NULL) == CUZK_ERR_INVALID_ARG);
        CHECK(strstr(cuzk_last_error(), "nVars"));
        w->n++;
        cuzk_snarkjs_wtns_free(w);
        cuzk_snarkjs_zkey_free(zk);
    }
    /* The poseidon witness with the multiplier key. */
    cuzk_snarkjs_zkey *zk = snark_load_zkey("multiplier");
    cuzk_snarkjs_wtns *w = snark_load_wtns("poseidon");
    cuzk_groth16_proof p;
    cuzk_fr_t pub[1];
    CHECK(cuzk_snarkjs_prove(&p, pub, zk, w, NULL, NULL) == CUZK_ERR_INVALID_ARG);
    cuzk_snarkjs_wtns_free(w);
    cuzk_snarkjs_zkey_free(zk);
}

/* The self-verification in two halves (src/groth16/verify_split.h), serial and on two threads,
 * decides like cuzk_groth16_verify: a proof, the proof with each point changed, and wrong public
 * inputs. */
CUZK_TEST(snarkjs_verify_split)
{
    cuzk_snarkjs_zkey *zk = snark_load_zkey("poseidon");
    cuzk_snarkjs_wtns *w = snark_load_wtns("poseidon");
    cuzk_groth16_proof good;
    cuzk_fr_t pub_good[1];
    CHECK_MSG(cuzk_snarkjs_prove(&good, pub_good, zk, w, NULL, NULL) == CUZK_OK, "%s",
              cuzk_last_error());
    cuzk_pool *pool2;
    CHECK(cuzk_pool_create(&pool2, 2) == CUZK_OK);
    cuzk_g1_affine_t g1;
    cuzk_g2_affine_t g2;
    cuzk_g1_generator(&g1);
    cuzk_g2_generator(&g2);
    for (int v = 0; v < 6; v++) {
        cuzk_groth16_proof p = good;
        cuzk_fr_t pub[1] = {pub_good[0]}, one;
        cuzk_g1_jac_t j1;
        cuzk_g2_jac_t j2;
        cuzk_fr_set_u64(&one, 1);
        switch (v) {
        case 1: /* A + G1 */
            cuzk_g1_from_affine(&j1, &p.a);
            cuzk_g1_add_affine(&j1, &j1, &g1);
            cuzk_g1_to_affine(&p.a, &j1);
            break;
        case 2: /* -A */
            cuzk_g1_affine_neg(&p.a, &p.a);
            break;
        case 3: /* 2 B */
            cuzk_g2_from_affine(&j2, &p.b);
            cuzk_g2_dbl(&j2, &j2);
            cuzk_g2_to_affine(&p.b, &j2);
            break;
        case 4: /* C + G1 */
            cuzk_g1_from_affine(&j1, &p.c);
            cuzk_g1_add_affine(&j1, &j1, &g1);
            cuzk_g1_to_affine(&p.c, &j1);
            break;
        case 5: /* public input + 1 */
            cuzk_fr_add(&pub[0], &pub[0], &one);
            break;
        default:
            break;
        }
        cuzk_status want = v == 0 ? CUZK_OK : CUZK_ERR_VERIFY_FAILED;
        CHECK(cuzk_groth16_verify(zk->vk, &p, pub, 1) == want);
        for (int t = 0; t < 2; t++) {
            cuzk_fp12_t f;
            CHECK(cuzk__groth16_verify_inputs(&f, zk->vk, pub, 1) == CUZK_OK);
            CHECK_MSG(cuzk__groth16_verify_rest(zk->vk, &p, &f, t ? pool2 : NULL) == want,
                      "variant %d, %s", v, t ? "2 threads" : "serial");
        }
    }
    cuzk_fp12_t f;
    CHECK(cuzk__groth16_verify_inputs(&f, zk->vk, pub_good, 0) == CUZK_ERR_INVALID_ARG);
    cuzk_pool_destroy(pool2);
    cuzk_snarkjs_wtns_free(w);
    cuzk_snarkjs_zkey_free(zk);
}

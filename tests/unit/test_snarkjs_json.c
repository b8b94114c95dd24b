/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * snarkjs JSON: verification_key.json export equal to snarkjs's (vk_alphabeta_12 included),
 * cuzk verifying the fixture proofs with the fixture keys, round trips, decimal conversion, and
 * the readers' rejections.
 */
#include "test_snarkjs_util.h"
#include "groth16/snarkjs_internal.h"

static char *fixture_text(const char *name, size_t *len)
{
    return (char *)snark_fixture(name, len);
}

CUZK_TEST(snarkjs_vk_json_export)
{
    static const char *names[2] = {"multiplier", "poseidon"};
    for (int k = 0; k < 2; k++) {
        cuzk_snarkjs_zkey *zk = snark_load_zkey(names[k]);
        char *json, f[64];
        CHECK(cuzk_snarkjs_vk_to_json(&json, zk) == CUZK_OK);
        snprintf(f, sizeof f, "%s.vk.json", names[k]);
        size_t len;
        char *want = fixture_text(f, &len);
        CHECK_MSG(strlen(json) == len && memcmp(json, want, len) == 0, "%s differs:\n%s", f, json);
        /* Round trip: the key read back equals the zkey's. */
        cuzk_groth16_vk *vk;
        CHECK(cuzk_snarkjs_vk_from_json(&vk, json, strlen(json)) == CUZK_OK);
        CHECK(vk->ic_len == zk->n_public + 1);
        CHECK(cuzk_g1_affine_eq(&vk->alpha_g1, &zk->alpha_g1));
        CHECK(cuzk_g2_affine_eq(&vk->beta_g2, &zk->beta_g2));
        CHECK(cuzk_g2_affine_eq(&vk->gamma_g2, &zk->gamma_g2));
        CHECK(cuzk_g2_affine_eq(&vk->delta_g2, &zk->delta_g2));
        for (size_t i = 0; i < vk->ic_len; i++)
            CHECK(cuzk_g1_affine_eq(&vk->ic[i], &zk->ic[i]));
        CHECK(cuzk_fp12_eq(&vk->alpha_beta, &zk->vk->alpha_beta));
        cuzk_groth16_vk_free(vk);
        cuzk_free(want);
        cuzk_free(json);
        cuzk_snarkjs_zkey_free(zk);
    }
}

/* Parses the three texts and verifies; returns the first failing status. */
static cuzk_status verify_texts(const char *vk_text, const char *proof_text, const char *pub_text)
{
    cuzk_groth16_vk *vk;
    cuzk_groth16_proof p;
    cuzk_fr_t *pub;
    size_t n;
    cuzk_status s = cuzk_snarkjs_vk_from_json(&vk, vk_text, strlen(vk_text));
    CHECK_MSG(s == CUZK_OK, "%s", cuzk_last_error());
    s = cuzk_snarkjs_public_from_json(&pub, &n, pub_text, strlen(pub_text));
    if (s == CUZK_OK) {
        s = cuzk_snarkjs_proof_from_json(&p, proof_text, strlen(proof_text));
        if (s == CUZK_OK)
            s = cuzk_groth16_verify(vk, &p, pub, n);
        cuzk_free(pub);
    }
    cuzk_groth16_vk_free(vk);
    return s;
}

static char *load_z(const char *name)
{
    size_t len;
    char *t = fixture_text(name, &len);
    char *z = cuzk_alloc(len + 1);
    memcpy(z, t, len);
    z[len] = 0;
    cuzk_free(t);
    return z;
}

/* A new string: |s| with the first occurrence of |from| replaced by |to|. */
static char *replace(const char *s, const char *from, const char *to)
{
    const char *at = strstr(s, from);
    CHECK(at);
    size_t n = strlen(s) - strlen(from) + strlen(to);
    char *o = cuzk_alloc(n + 1);
    size_t pre = (size_t)(at - s);
    memcpy(o, s, pre);
    strcpy(o + pre, to);
    strcat(o, at + strlen(from));
    return o;
}

CUZK_TEST(snarkjs_verify_fixture_proofs)
{
    static const char *names[2] = {"multiplier", "poseidon"};
    static const char *proofs[2] = {"proof_r0_s0", "proof_r12345_s67890"};
    for (int k = 0; k < 2; k++) {
        char f[96];
        snprintf(f, sizeof f, "%s.vk.json", names[k]);
        char *vk = load_z(f);
        snprintf(f, sizeof f, "%s.public.json", names[k]);
        char *pub = load_z(f);
        for (int j = 0; j < 2; j++) {
            snprintf(f, sizeof f, "%s.%s.json", names[k], proofs[j]);
            char *pf = load_z(f);
            CHECK_MSG(verify_texts(vk, pf, pub) == CUZK_OK, "%s: %s", f, cuzk_last_error());
            /* Round trip through cuzk's types and writer: the same bytes. */
            cuzk_groth16_proof p;
            char *back;
            CHECK(cuzk_snarkjs_proof_from_json(&p, pf, strlen(pf)) == CUZK_OK);
            CHECK(cuzk_snarkjs_proof_to_json(&back, &p) == CUZK_OK);
            CHECK(strcmp(back, pf) == 0);
            cuzk_free(back);
            /* A changed public input. */
            const char *q1 = strchr(pub, '"');
            char other = q1[1] == '1' ? '2' : '1';
            char *pub2 = cuzk_alloc(strlen(pub) + 1);
            strcpy(pub2, pub);
            pub2[q1 - pub + 1] = other;
            CHECK(verify_texts(vk, pf, pub2) == CUZK_ERR_VERIFY_FAILED);
            cuzk_free(pub2);
            /* A changed coordinate: off the curve. */
            char *pf2 = cuzk_alloc(strlen(pf) + 1);
            strcpy(pf2, pf);
            char *x = strstr(pf2, "\"pi_c\"");
            x = strchr(x, '[');
            x = strchr(x, '"') + 5;
            *x = *x == '1' ? '2' : '1';
            CHECK(verify_texts(vk, pf2, pub) == CUZK_ERR_NOT_ON_CURVE);
            cuzk_free(pf2);
            cuzk_free(pf);
        }
        cuzk_free(pub);
        cuzk_free(vk);
    }
    /* A multiplier proof against the poseidon key. */
    char *vk = load_z("poseidon.vk.json"), *pub = load_z("multiplier.public.json");
    char *pf = load_z("multiplier.proof_r0_s0.json");
    CHECK(verify_texts(vk, pf, pub) == CUZK_ERR_VERIFY_FAILED);
    cuzk_free(vk);
    cuzk_free(pub);
    cuzk_free(pf);
}

CUZK_TEST(snarkjs_decimal)
{
    char d[120];
    uint64_t v[6], back[6];
    /* 0, 1, 2^64, q - 1 and random values below q. */
    memset(v, 0, sizeof v);
    cuzk__dec_from_limbs(d, v, 6);
    CHECK(strcmp(d, "0") == 0);
    CHECK(cuzk__dec_to_limbs(back, 6, d, cuzk__bls_q) && memcmp(back, v, sizeof v) == 0);
    v[1] = 1;
    cuzk__dec_from_limbs(d, v, 6);
    CHECK(strcmp(d, "18446744073709551616") == 0);
    v[1] = 0;
    v[0] = 10000000000000000000ULL;
    cuzk__dec_from_limbs(d, v, 2);
    CHECK(strcmp(d, "10000000000000000000") == 0);
    memcpy(v, cuzk__bls_q, sizeof v);
    v[0]--;
    cuzk__dec_from_limbs(d, v, 6);
    CHECK(strcmp(d, "4002409555221667393417789825735904156556882819939007885332058136124031650490"
                    "837864442687629129015664037894272559786") == 0);
    CHECK(cuzk__dec_to_limbs(back, 6, d, cuzk__bls_q) && memcmp(back, v, sizeof v) == 0);
    v[0]++;
    cuzk__dec_from_limbs(d, v, 6);
    CHECK(!cuzk__dec_to_limbs(back, 6, d, cuzk__bls_q)); /* q itself */
    for (unsigned long it = 0; it < test_iters(200); it++) {
        test_rand_bytes(v, sizeof v);
        v[5] &= 0x0fffffffffffffffULL;
        if (!cuzk__limbs_lt(v, cuzk__bls_q, 6))
            continue;
        cuzk__dec_from_limbs(d, v, 6);
        CHECK(d[0] != '0');
        CHECK(cuzk__dec_to_limbs(back, 6, d, cuzk__bls_q) && memcmp(back, v, sizeof v) == 0);
    }
    static const char *bad[] = {"",
                                "-1",
                                "01",
                                "1a",
                                " 1",
                                "1 ",
                                "0x10",
                                "+5",
                                "1000000000000000000000000000000000000000000000000000000000000000"
                                "0000000000000000000000000000000000000000000000000000000"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_MSG(!cuzk__dec_to_limbs(back, 6, bad[i], cuzk__bls_q), "accepted '%s'", bad[i]);
    /* 2^256 does not fit 4 limbs. */
    CHECK(!cuzk__dec_to_limbs(back, 4,
                              "115792089237316195423570985008687907853269984665640564039457584007"
                              "913129639936",
                              cuzk__bls_r));
}

CUZK_TEST(snarkjs_json_rejections)
{
    char *pf = load_z("multiplier.proof_r0_s0.json");
    char *vk = load_z("multiplier.vk.json");
    cuzk_groth16_proof p;
    cuzk_groth16_vk *k;
    cuzk_fr_t *pub;
    size_t n;
#define PROOF_FAILS(text, want, needle)                                                            \
    do {                                                                                           \
        const char *t_ = (text);                                                                   \
        cuzk_status s_ = cuzk_snarkjs_proof_from_json(&p, t_, strlen(t_));                         \
        CHECK_MSG(s_ == (want) && strstr(cuzk_last_error(), needle), "got %s '%s'",                \
                  cuzk_status_name(s_), cuzk_last_error());                                        \
    } while (0)
    PROOF_FAILS("{\"pi_a\": [", CUZK_ERR_FORMAT, "not valid JSON");
    PROOF_FAILS("[1, 2]", CUZK_ERR_FORMAT, "not a JSON object");
    PROOF_FAILS("{}", CUZK_ERR_FORMAT, "pi_a");
    char *t = replace(pf, "\"pi_b\"", "\"pi_x\"");
    PROOF_FAILS(t, CUZK_ERR_FORMAT, "pi_b");
    cuzk_free(t);
    t = replace(pf, "\"bls12381\"", "\"bn128\"");
    PROOF_FAILS(t, CUZK_ERR_UNSUPPORTED, "bn128");
    cuzk_free(t);
    t = replace(pf, "\"groth16\"", "\"plonk\"");
    PROOF_FAILS(t, CUZK_ERR_UNSUPPORTED, "groth16");
    cuzk_free(t);
    /* Coordinates >= q, not decimal, not strings, leading zeros. */
    const char *x = strchr(strstr(pf, "pi_a"), '"') + 1;
    x = strchr(x, '"') + 1;
    char xs[200];
    size_t xl = (size_t)(strchr(x, '"') - x);
    memcpy(xs, x, xl);
    xs[xl] = 0;
    t = replace(pf, xs,
                "4002409555221667393417789825735904156556882819939007885332058136124031650490837"
                "864442687629129015664037894272559787");
    PROOF_FAILS(t, CUZK_ERR_NOT_CANONICAL, "below q");
    cuzk_free(t);
    char lead[210] = "0";
    strcat(lead, xs);
    t = replace(pf, xs, lead);
    PROOF_FAILS(t, CUZK_ERR_NOT_CANONICAL, "pi_a");
    cuzk_free(t);
    t = replace(pf, xs, "12x4");
    PROOF_FAILS(t, CUZK_ERR_NOT_CANONICAL, "pi_a");
    cuzk_free(t);
    char quoted[210];
    snprintf(quoted, sizeof quoted, "\"%s\"", xs);
    t = replace(pf, quoted, "17");
    PROOF_FAILS(t, CUZK_ERR_FORMAT, "decimal string");
    cuzk_free(t);
    /* Infinity: rejected in a proof. */
    t = replace(pf, "\"1\"\n ],\n \"pi_b\"", "\"0\"\n ],\n \"pi_b\"");
    PROOF_FAILS(t, CUZK_ERR_BAD_ENCODING, "infinity");
    cuzk_free(t);
    /* G2 with a wrong shape. */
    t = replace(pf, "[\n   \"1\",\n   \"0\"\n  ]", "[\n   \"1\"\n  ]");
    PROOF_FAILS(t, CUZK_ERR_FORMAT, "pi_b");
    cuzk_free(t);

    /* public.json */
    CHECK(cuzk_snarkjs_public_from_json(&pub, &n, "[]", 2) == CUZK_OK && n == 0 && !pub);
    CHECK(cuzk_snarkjs_public_from_json(&pub, &n, "{}", 2) == CUZK_ERR_FORMAT);
    CHECK(cuzk_snarkjs_public_from_json(&pub, &n, "[1]", 3) == CUZK_ERR_FORMAT && !pub);
    const char *big = "[\"52435875175126190479447740508185965837690552500527637822603658699938581"
                      "184513\"]";
    CHECK(cuzk_snarkjs_public_from_json(&pub, &n, big, strlen(big)) == CUZK_ERR_NOT_CANONICAL);
    CHECK(strstr(cuzk_last_error(), "below r"));
    const char *ok = "[\"0\", \"7\", \"52435875175126190479447740508185965837690552500527637822603"
                     "658699938581184512\"]";
    CHECK(cuzk_snarkjs_public_from_json(&pub, &n, ok, strlen(ok)) == CUZK_OK && n == 3);
    char *back;
    CHECK(cuzk_snarkjs_public_to_json(&back, pub, n) == CUZK_OK);
    CHECK(strcmp(back,
                 "[\n \"0\",\n \"7\",\n \"5243587517512619047944774050818596583769055250052763"
                 "7822603658699938581184512\"\n]") == 0);
    cuzk_free(back);
    cuzk_free(pub);
    /* snarkjs (bfj) writes no public signals as "[\n]". */
    CHECK(cuzk_snarkjs_public_to_json(&back, NULL, 0) == CUZK_OK && strcmp(back, "[\n]") == 0);
    cuzk_free(back);

    /* verification_key.json */
#define VK_FAILS(text, want, needle)                                                               \
    do {                                                                                           \
        const char *t_ = (text);                                                                   \
        k = (cuzk_groth16_vk *)1;                                                                  \
        cuzk_status s_ = cuzk_snarkjs_vk_from_json(&k, t_, strlen(t_));                            \
        CHECK_MSG(s_ == (want) && !k && strstr(cuzk_last_error(), needle), "got %s '%s'",          \
                  cuzk_status_name(s_), cuzk_last_error());                                        \
    } while (0)
    VK_FAILS("nope", CUZK_ERR_FORMAT, "not valid JSON");
    t = replace(vk, "\"bls12381\"", "\"bn128\"");
    VK_FAILS(t, CUZK_ERR_UNSUPPORTED, "bn128");
    cuzk_free(t);
    t = replace(vk, "\"protocol\": \"groth16\"", "\"protocol\": \"plonk\"");
    VK_FAILS(t, CUZK_ERR_UNSUPPORTED, "plonk");
    cuzk_free(t);
    t = replace(vk, "\"nPublic\": 1", "\"nPublic\": 2");
    VK_FAILS(t, CUZK_ERR_FORMAT, "nPublic");
    cuzk_free(t);
    t = replace(vk, "\"IC\"", "\"ICX\"");
    VK_FAILS(t, CUZK_ERR_FORMAT, "IC");
    cuzk_free(t);
    t = replace(vk, "\"vk_delta_2\"", "\"vk_delta_3\"");
    VK_FAILS(t, CUZK_ERR_FORMAT, "vk_delta_2");
    cuzk_free(t);
    /* A changed digit in gamma: off the curve. */
    const char *g = strchr(strstr(vk, "vk_gamma_2"), '"');
    g = strchr(g + 1, '"') + 3;
    t = cuzk_alloc(strlen(vk) + 1);
    strcpy(t, vk);
    t[g - vk] = t[g - vk] == '1' ? '2' : '1';
    VK_FAILS(t, CUZK_ERR_NOT_ON_CURVE, "vk_gamma_2");
    cuzk_free(t);
    cuzk_free(pf);
    cuzk_free(vk);
#undef PROOF_FAILS
#undef VK_FAILS
}

CUZK_TEST(snarkjs_json_jacobian_points)
{
    /* ffjavascript reads [X, Y, Z] with Z != 1 as Jacobian: the same point scaled by Z = 2. */
    cuzk_snarkjs_zkey *zk = snark_load_zkey("multiplier");
    cuzk_groth16_proof p;
    char *json;
    size_t len;
    char *pf = (char *)snark_fixture("multiplier.proof_r0_s0.json", &len);
    CHECK(cuzk_snarkjs_proof_from_json(&p, pf, len) == CUZK_OK);
    cuzk_free(pf);
    cuzk_fp_t z, z2, z3;
    cuzk_fp_set_u64(&z, 2);
    cuzk_fp_sqr(&z2, &z);
    cuzk_fp_mul(&z3, &z2, &z);
    uint64_t lx[6], ly[6], lz[6];
    cuzk_fp_t X, Y;
    cuzk_fp_mul(&X, &p.a.x, &z2);
    cuzk_fp_mul(&Y, &p.a.y, &z3);
    cuzk_fp_to_canonical(lx, &X);
    cuzk_fp_to_canonical(ly, &Y);
    cuzk_fp_to_canonical(lz, &z);
    char dx[120], dy[120], dz[120], buf[2048];
    cuzk__dec_from_limbs(dx, lx, 6);
    cuzk__dec_from_limbs(dy, ly, 6);
    cuzk__dec_from_limbs(dz, lz, 6);
    CHECK(cuzk_snarkjs_proof_to_json(&json, &p) == CUZK_OK);
    const char *b_at = strstr(json, "\"pi_b\"");
    snprintf(buf, sizeof buf, "{\"pi_a\": [\"%s\", \"%s\", \"%s\"], %s", dx, dy, dz, b_at);
    cuzk_groth16_proof q;
    CHECK_MSG(cuzk_snarkjs_proof_from_json(&q, buf, strlen(buf)) == CUZK_OK, "%s",
              cuzk_last_error());
    CHECK(cuzk_g1_affine_eq(&q.a, &p.a) && cuzk_g2_affine_eq(&q.b, &p.b));
    /* Two coordinates are read as affine too. */
    snprintf(buf, sizeof buf, "{\"pi_a\": [\"%s\", \"%s\"], %s", dx, dy, b_at);
    CHECK(cuzk_snarkjs_proof_from_json(&q, buf, strlen(buf)) == CUZK_ERR_NOT_ON_CURVE);
    cuzk_free(json);
    /* Infinity in IC is allowed in a key (written and read back as ["0", "1", "0"]). */
    zk->ic[1].infinity = true;
    CHECK(cuzk_snarkjs_vk_to_json(&json, zk) == CUZK_OK);
    CHECK(strstr(json, "[\n   \"0\",\n   \"1\",\n   \"0\"\n  ]"));
    cuzk_groth16_vk *vk;
    CHECK(cuzk_snarkjs_vk_from_json(&vk, json, strlen(json)) == CUZK_OK && vk->ic[1].infinity);
    cuzk_groth16_vk_free(vk);
    cuzk_free(json);
    cuzk_snarkjs_zkey_free(zk);
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Optimal ate pairing: known answer, bilinearity, multi-pairing, infinity handling. */
#include "test.h"
#include "cuzk/pairing.h"

/* r, little-endian limbs. */
static const uint64_t R_LIMBS[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                    0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};

/* Generators from shared/facts/formats.md section 1 (independent of src/curve). */
static const char *G1_HEX[2] = {"17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c"
                                "55e83ff97a1aeffb3af00adb22c6bb",
                                "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd0"
                                "3cc744a2888ae40caa232946c5e7e1"};
static const char *G2_HEX[4] = {"024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770b"
                                "ac0326a805bbefd48056c8c121bdb8",
                                "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f504933"
                                "4cf11213945d57e5ac7d055d042b7e",
                                "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c92"
                                "3ac9cc3baca289e193548608b82801",
                                "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f"
                                "370d275cec1da1aaa9075ff05f79be"};

/*
 * e(G1, G2) as published by zkcrypto/bls12_381 (src/pairings.rs, Gt::generator(), asserted equal
 * to pairing(G1, G2) by its test_gt_generator): the 12 Fp coefficients in the order c0.c0.c0,
 * c0.c0.c1, c0.c1.c0, ..., c1.c2.c1 of the same tower (Fp2 = Fp[u]/(u^2 + 1), Fp6 = Fp2[v]/(v^3 -
 * (1 + u)), Fp12 = Fp6[w]/(w^2 - v)), each as Montgomery limbs with R = 2^384, least significant
 * first -- the representation cuzk uses. Like blst, zkcrypto's final exponentiation raises to
 * 3 (p^12 - 1) / r; an independent Python model (plain Fp[w]/(w^12 - 2w^6 + 2) arithmetic,
 * affine Miller loop, exponent 3 (p^12 - 1)/r) reproduces all 12 values.
 */
static const uint64_t GT_GEN[12][6] = {
    {0x1972e433a01f85c5ULL, 0x97d32b76fd772538ULL, 0xc8ce546fc96bcdf9ULL, 0xcef63e7366d40614ULL,
     0xa611342781843780ULL, 0x13f3448a3fc6d825ULL},
    {0xd26331b02e9d6995ULL, 0x9d68a482f7797e7dULL, 0x9c9b29248d39ea92ULL, 0xf4801ca2e13107aaULL,
     0xa16c0732bdbcb066ULL, 0x083ca4afba360478ULL},
    {0x59e261db0916b641ULL, 0x2716b6f4b23e960dULL, 0xc8e55b10a0bd9c45ULL, 0x0bdb0bd99c4deda8ULL,
     0x8cf89ebf57fdaac5ULL, 0x12d6b7929e777a5eULL},
    {0x5fc85188b0e15f35ULL, 0x34a06e3a8f096365ULL, 0xdb3126a6e02ad62cULL, 0xfc6f5aa97d9a990bULL,
     0xa12f55f5eb89c210ULL, 0x1723703a926f8889ULL},
    {0x93588f2971828778ULL, 0x43f65b8611ab7585ULL, 0x3183aaf5ec279fdfULL, 0xfa73d7e18ac99df6ULL,
     0x64e176a6a64c99b0ULL, 0x179fa78c58388f1fULL},
    {0x672a0a11ca2aef12ULL, 0x0d11b9b52aa3f16bULL, 0xa44412d0699d056eULL, 0xc01d0177221a5ba5ULL,
     0x66e0cede6c735529ULL, 0x05f5a71e9fddc339ULL},
    {0xd30a88a1b062c679ULL, 0x5ac56a5d35fc8304ULL, 0xd0c834a6a81f290dULL, 0xcd5430c2da3707c7ULL,
     0xf0c27ff780500af0ULL, 0x09245da6e2d72eaeULL},
    {0x9f2e0676791b5156ULL, 0xe2d1c8234918fe13ULL, 0x4c9e459f3c561bf4ULL, 0xa3e85e53b9d3e3c1ULL,
     0x820a121e21a70020ULL, 0x15af618341c59accULL},
    {0x7c95658c24993ab1ULL, 0x73eb38721ca886b9ULL, 0x5256d749477434bcULL, 0x8ba41902ea504a8bULL,
     0x04a3d3f80c86ce6dULL, 0x18a64a87fb686eaaULL},
    {0xbb83e71bb920cf26ULL, 0x2a5277ac92a73945ULL, 0xfc0ee59f94f046a0ULL, 0x7158cdf3786058f7ULL,
     0x7cc1061b82f945f6ULL, 0x03f847aa9fdbe567ULL},
    {0x8078dba56134e657ULL, 0x1cd7ec9a43998a6eULL, 0xb1aa599a1a993766ULL, 0xc9a0f62f0842ee44ULL,
     0x8e159be3b605dffaULL, 0x0c86ba0d4af13fc2ULL},
    {0xe80ff2a06a52ffb1ULL, 0x7694ca48721a906cULL, 0x7583183e03b08514ULL, 0xf567afdd40cee4e2ULL,
     0x9a6d96d2e526a5fcULL, 0x197e9f49861f2242ULL},
};

static void fp_from_hex(cuzk_fp_t *out, const char *hex)
{
    uint8_t b[48];
    CHECK(test_unhex(b, 48, hex));
    CHECK(cuzk_fp_from_bytes_be(out, b) == CUZK_OK);
}

static void g1_gen(cuzk_g1_affine_t *g)
{
    fp_from_hex(&g->x, G1_HEX[0]);
    fp_from_hex(&g->y, G1_HEX[1]);
    g->infinity = false;
}

static void g2_gen(cuzk_g2_affine_t *g)
{
    fp_from_hex(&g->x.c0, G2_HEX[0]);
    fp_from_hex(&g->x.c1, G2_HEX[1]);
    fp_from_hex(&g->y.c0, G2_HEX[2]);
    fp_from_hex(&g->y.c1, G2_HEX[3]);
    g->infinity = false;
}

static void gt_gen(cuzk_fp12_t *out)
{
    cuzk_fp_t *c[12] = {&out->c0.c0.c0, &out->c0.c0.c1, &out->c0.c1.c0, &out->c0.c1.c1,
                        &out->c0.c2.c0, &out->c0.c2.c1, &out->c1.c0.c0, &out->c1.c0.c1,
                        &out->c1.c1.c0, &out->c1.c1.c1, &out->c1.c2.c0, &out->c1.c2.c1};
    for (int i = 0; i < 12; i++)
        memcpy(c[i]->l, GT_GEN[i], sizeof c[i]->l);
}

static void rand_fr(cuzk_fr_t *out)
{
    uint64_t l[4];
    test_rand_bytes(l, sizeof l);
    l[3] &= 0x3fffffffffffffffULL; /* < r */
    CHECK(cuzk_fr_from_canonical(out, l));
}

/*
 * Test-local affine double-and-add (textbook chord and tangent, one inversion per step), an
 * oracle independent of src/curve. Variable time; scalars are canonical little-endian limbs.
 */
static void g1_affine_add(cuzk_g1_affine_t *r, const cuzk_g1_affine_t *a, const cuzk_g1_affine_t *b)
{
    if (a->infinity) {
        *r = *b;
        return;
    }
    if (b->infinity) {
        *r = *a;
        return;
    }
    cuzk_fp_t lam, t, x3, y3;
    if (cuzk_fp_eq(&a->x, &b->x)) {
        cuzk_fp_add(&t, &a->y, &b->y);
        if (cuzk_fp_is_zero(&t)) {
            r->infinity = true;
            cuzk_fp_set_zero(&r->x);
            cuzk_fp_set_zero(&r->y);
            return;
        }
        cuzk_fp_sqr(&lam, &a->x);
        cuzk_fp_t three;
        cuzk_fp_set_u64(&three, 3);
        cuzk_fp_mul(&lam, &lam, &three);
        cuzk_fp_dbl(&t, &a->y);
    } else {
        cuzk_fp_sub(&lam, &b->y, &a->y);
        cuzk_fp_sub(&t, &b->x, &a->x);
    }
    cuzk_fp_inv_vartime(&t, &t);
    cuzk_fp_mul(&lam, &lam, &t);
    cuzk_fp_sqr(&x3, &lam);
    cuzk_fp_sub(&x3, &x3, &a->x);
    cuzk_fp_sub(&x3, &x3, &b->x);
    cuzk_fp_sub(&y3, &a->x, &x3);
    cuzk_fp_mul(&y3, &y3, &lam);
    cuzk_fp_sub(&y3, &y3, &a->y);
    r->x = x3;
    r->y = y3;
    r->infinity = false;
}

static void g2_affine_add(cuzk_g2_affine_t *r, const cuzk_g2_affine_t *a, const cuzk_g2_affine_t *b)
{
    if (a->infinity) {
        *r = *b;
        return;
    }
    if (b->infinity) {
        *r = *a;
        return;
    }
    cuzk_fp2_t lam, t, x3, y3;
    if (cuzk_fp2_eq(&a->x, &b->x)) {
        cuzk_fp2_add(&t, &a->y, &b->y);
        if (cuzk_fp2_is_zero(&t)) {
            r->infinity = true;
            cuzk_fp2_set_zero(&r->x);
            cuzk_fp2_set_zero(&r->y);
            return;
        }
        cuzk_fp2_sqr(&lam, &a->x);
        cuzk_fp2_t l2;
        cuzk_fp2_dbl(&l2, &lam);
        cuzk_fp2_add(&lam, &lam, &l2);
        cuzk_fp2_dbl(&t, &a->y);
    } else {
        cuzk_fp2_sub(&lam, &b->y, &a->y);
        cuzk_fp2_sub(&t, &b->x, &a->x);
    }
    cuzk_fp2_inv_vartime(&t, &t);
    cuzk_fp2_mul(&lam, &lam, &t);
    cuzk_fp2_sqr(&x3, &lam);
    cuzk_fp2_sub(&x3, &x3, &a->x);
    cuzk_fp2_sub(&x3, &x3, &b->x);
    cuzk_fp2_sub(&y3, &a->x, &x3);
    cuzk_fp2_mul(&y3, &y3, &lam);
    cuzk_fp2_sub(&y3, &y3, &a->y);
    r->x = x3;
    r->y = y3;
    r->infinity = false;
}

static void g1_mul_local(cuzk_g1_affine_t *out, const cuzk_g1_affine_t *p, const uint64_t k[4])
{
    cuzk_g1_affine_t acc = {.infinity = true};
    for (int i = 255; i >= 0; i--) {
        g1_affine_add(&acc, &acc, &acc);
        if ((k[i / 64] >> (i % 64)) & 1)
            g1_affine_add(&acc, &acc, p);
    }
    *out = acc;
}

static void g2_mul_local(cuzk_g2_affine_t *out, const cuzk_g2_affine_t *p, const uint64_t k[4])
{
    cuzk_g2_affine_t acc = {.infinity = true};
    for (int i = 255; i >= 0; i--) {
        g2_affine_add(&acc, &acc, &acc);
        if ((k[i / 64] >> (i % 64)) & 1)
            g2_affine_add(&acc, &acc, p);
    }
    *out = acc;
}

/* Scalar multiples through src/curve (Jacobian, then affine). */
static void g1_mul_curve(cuzk_g1_affine_t *out, const cuzk_g1_affine_t *p, const cuzk_fr_t *k)
{
    cuzk_g1_jac_t j;
    cuzk_g1_from_affine(&j, p);
    cuzk_g1_mul(&j, &j, k);
    cuzk_g1_to_affine(out, &j);
}

static void g2_mul_curve(cuzk_g2_affine_t *out, const cuzk_g2_affine_t *p, const cuzk_fr_t *k)
{
    cuzk_g2_jac_t j;
    cuzk_g2_from_affine(&j, p);
    cuzk_g2_mul(&j, &j, k);
    cuzk_g2_to_affine(out, &j);
}

static void g1_neg(cuzk_g1_affine_t *out, const cuzk_g1_affine_t *p)
{
    *out = *p;
    cuzk_fp_neg(&out->y, &p->y);
}

static void g2_neg(cuzk_g2_affine_t *out, const cuzk_g2_affine_t *p)
{
    *out = *p;
    cuzk_fp2_neg(&out->y, &p->y);
}

CUZK_TEST(pairing_known_answer)
{
    cuzk_g1_affine_t p;
    cuzk_g2_affine_t q;
    cuzk_fp12_t e, want;
    g1_gen(&p);
    g2_gen(&q);
    gt_gen(&want);
    cuzk_pairing(&e, &p, &q);
    CHECK(cuzk_fp12_eq(&e, &want));
    /* The same through miller_loop + final_exp and the multi-pairing entry points. */
    cuzk_fp12_t f;
    cuzk_miller_loop(&f, &p, &q);
    cuzk_final_exp(&f, &f);
    CHECK(cuzk_fp12_eq(&f, &want));
    cuzk_multi_pairing(&f, &p, &q, 1);
    CHECK(cuzk_fp12_eq(&f, &want));
    /* src/curve's generators are the same points. */
    cuzk_g1_affine_t pc;
    cuzk_g2_affine_t qc;
    cuzk_g1_generator(&pc);
    cuzk_g2_generator(&qc);
    CHECK(cuzk_g1_affine_eq(&pc, &p));
    CHECK(cuzk_g2_affine_eq(&qc, &q));
}

CUZK_TEST(pairing_non_degenerate_order_r)
{
    cuzk_g1_affine_t p;
    cuzk_g2_affine_t q;
    cuzk_fp12_t e, t;
    g1_gen(&p);
    g2_gen(&q);
    cuzk_pairing(&e, &p, &q);
    CHECK(!cuzk_fp12_is_one(&e));
    cuzk_fp12_pow(&t, &e, R_LIMBS, 4);
    CHECK(cuzk_fp12_is_one(&t));
    /* Unitary: conj(e) e = 1, and cyclotomic squaring agrees with squaring on e. */
    cuzk_fp12_conj(&t, &e);
    cuzk_fp12_mul(&t, &t, &e);
    CHECK(cuzk_fp12_is_one(&t));
    cuzk_fp12_t s, c;
    cuzk_fp12_sqr(&s, &e);
    cuzk_fp12_cyclotomic_sqr(&c, &e);
    CHECK(cuzk_fp12_eq(&s, &c));
    CHECK(!cuzk_pairing_product_is_one(&p, &q, 1));
}

/* e(aP, Q) = e(P, aQ) = e(P, Q)^a with scalar multiples from the test-local oracle. */
CUZK_TEST(pairing_linear_local_oracle)
{
    cuzk_g1_affine_t p, ap;
    cuzk_g2_affine_t q, aq;
    cuzk_fp12_t e, e1, e2, ea;
    g1_gen(&p);
    g2_gen(&q);
    cuzk_pairing(&e, &p, &q);
    for (unsigned long it = 0; it < test_iters(2); it++) {
        cuzk_fr_t a;
        uint64_t ka[4];
        rand_fr(&a);
        cuzk_fr_to_canonical(ka, &a);
        g1_mul_local(&ap, &p, ka);
        g2_mul_local(&aq, &q, ka);
        cuzk_pairing(&e1, &ap, &q);
        cuzk_pairing(&e2, &p, &aq);
        cuzk_fp12_pow(&ea, &e, ka, 4);
        CHECK(cuzk_fp12_eq(&e1, &ea));
        CHECK(cuzk_fp12_eq(&e2, &ea));
    }
    /* Small scalars: e(2P, Q) = e(P, Q)^2. */
    uint64_t two[4] = {2, 0, 0, 0};
    g1_mul_local(&ap, &p, two);
    cuzk_pairing(&e1, &ap, &q);
    cuzk_fp12_sqr(&ea, &e);
    CHECK(cuzk_fp12_eq(&e1, &ea));
}

/* e(aP, bQ) = e(P, Q)^(ab) and e(aP, Q) = e(P, aQ) with scalar multiples from src/curve. */
CUZK_TEST(pairing_bilinear)
{
    cuzk_g1_affine_t p, ap, p2;
    cuzk_g2_affine_t q, bq, aq;
    cuzk_fp12_t e, e1, e2;
    g1_gen(&p);
    g2_gen(&q);
    cuzk_pairing(&e, &p, &q);
    for (unsigned long it = 0; it < test_iters(3); it++) {
        cuzk_fr_t a, b, ab;
        uint64_t kab[4];
        rand_fr(&a);
        rand_fr(&b);
        cuzk_fr_mul(&ab, &a, &b);
        cuzk_fr_to_canonical(kab, &ab);
        g1_mul_curve(&ap, &p, &a);
        g2_mul_curve(&bq, &q, &b);
        cuzk_pairing(&e1, &ap, &bq);
        cuzk_fp12_pow(&e2, &e, kab, 4);
        CHECK(cuzk_fp12_eq(&e1, &e2));
        g2_mul_curve(&aq, &q, &a);
        cuzk_pairing(&e1, &ap, &q);
        cuzk_pairing(&e2, &p, &aq);
        CHECK(cuzk_fp12_eq(&e1, &e2));
        /* A random point pair instead of the generators: e(bP', aQ) = e(aP', bQ). */
        g1_mul_curve(&p2, &ap, &b); /* abP */
        cuzk_pairing(&e1, &p2, &q);
        cuzk_pairing(&e2, &ap, &bq);
        CHECK(cuzk_fp12_eq(&e1, &e2));
    }
}

CUZK_TEST(pairing_negation)
{
    cuzk_g1_affine_t p[2];
    cuzk_g2_affine_t q[2];
    cuzk_fp12_t e, en, eqn, t;
    g1_gen(&p[0]);
    g2_gen(&q[0]);
    cuzk_fr_t a;
    rand_fr(&a);
    g1_mul_curve(&p[0], &p[0], &a);
    g1_neg(&p[1], &p[0]);
    q[1] = q[0];
    cuzk_pairing(&e, &p[0], &q[0]);
    cuzk_pairing(&en, &p[1], &q[1]);
    cuzk_fp12_mul(&t, &e, &en);
    CHECK(cuzk_fp12_is_one(&t));
    cuzk_fp12_conj(&t, &e);
    CHECK(cuzk_fp12_eq(&t, &en));
    cuzk_g2_affine_t qn;
    g2_neg(&qn, &q[0]);
    cuzk_pairing(&eqn, &p[0], &qn);
    CHECK(cuzk_fp12_eq(&eqn, &en));
    CHECK(cuzk_pairing_product_is_one(p, q, 2));
}

CUZK_TEST(pairing_infinity)
{
    cuzk_g1_affine_t p, pinf = {.infinity = true};
    cuzk_g2_affine_t q, qinf = {.infinity = true};
    cuzk_fp12_t e;
    g1_gen(&p);
    g2_gen(&q);
    cuzk_pairing(&e, &pinf, &q);
    CHECK(cuzk_fp12_is_one(&e));
    cuzk_pairing(&e, &p, &qinf);
    CHECK(cuzk_fp12_is_one(&e));
    cuzk_pairing(&e, &pinf, &qinf);
    CHECK(cuzk_fp12_is_one(&e));
    cuzk_miller_loop(&e, &pinf, &q);
    CHECK(cuzk_fp12_is_one(&e));
    cuzk_miller_loop(&e, &p, &qinf);
    CHECK(cuzk_fp12_is_one(&e));
    cuzk_multi_pairing(&e, &p, &q, 0);
    CHECK(cuzk_fp12_is_one(&e));
    CHECK(cuzk_pairing_product_is_one(&p, &q, 0));
    CHECK(cuzk_pairing_product_is_one(&pinf, &q, 1));
    cuzk_fp12_set_one(&e);
    cuzk_final_exp(&e, &e);
    CHECK(cuzk_fp12_is_one(&e));
}

/* multi_pairing = product of single pairings, n = 1..5, with points at infinity mixed in. */
CUZK_TEST(pairing_multi_matches_product)
{
    cuzk_g1_affine_t g1, p[5];
    cuzk_g2_affine_t g2, q[5];
    g1_gen(&g1);
    g2_gen(&g2);
    for (int i = 0; i < 5; i++) {
        cuzk_fr_t a, b;
        rand_fr(&a);
        rand_fr(&b);
        g1_mul_curve(&p[i], &g1, &a);
        g2_mul_curve(&q[i], &g2, &b);
    }
    p[2].infinity = true; /* pair 2: P at infinity */
    q[3].infinity = true; /* pair 3: Q at infinity */
    for (size_t n = 1; n <= 5; n++) {
        cuzk_fp12_t want, e, m;
        cuzk_fp12_set_one(&want);
        for (size_t i = 0; i < n; i++) {
            cuzk_pairing(&e, &p[i], &q[i]);
            cuzk_fp12_mul(&want, &want, &e);
        }
        cuzk_multi_pairing(&e, p, q, n);
        CHECK_MSG(cuzk_fp12_eq(&e, &want), "multi_pairing n=%zu", n);
        cuzk_miller_loop_multi(&m, p, q, n);
        cuzk_final_exp(&m, &m);
        CHECK(cuzk_fp12_eq(&m, &want));
    }
}

/* More pairs than one stack chunk (16): 2 x 9 pairs (a_i P, Q) and (-a_i P, Q) cancel; the
 * 17- and 18-pair products match products of smaller multi-pairings. */
CUZK_TEST(pairing_multi_chunks)
{
    enum { N = 18 };
    cuzk_g1_affine_t g1, p[N];
    cuzk_g2_affine_t g2, q[N];
    g1_gen(&g1);
    g2_gen(&g2);
    for (int i = 0; i < N / 2; i++) {
        cuzk_fr_t a, b;
        rand_fr(&a);
        rand_fr(&b);
        g1_mul_curve(&p[2 * i], &g1, &a);
        g1_neg(&p[2 * i + 1], &p[2 * i]);
        g2_mul_curve(&q[2 * i], &g2, &b);
        q[2 * i + 1] = q[2 * i];
    }
    CHECK(cuzk_pairing_product_is_one(p, q, N));
    CHECK(!cuzk_pairing_product_is_one(p, q, N - 1));
    cuzk_fp12_t e17, a, b;
    cuzk_multi_pairing(&e17, p, q, 17);
    cuzk_multi_pairing(&a, p, q, 16);
    cuzk_multi_pairing(&b, p + 16, q + 16, 1);
    cuzk_fp12_mul(&a, &a, &b);
    CHECK(cuzk_fp12_eq(&e17, &a));
    /* 17 pairs where the 17th is at infinity: the same as the first 16. */
    cuzk_g1_affine_t keep = p[16];
    p[16].infinity = true;
    cuzk_multi_pairing(&e17, p, q, 17);
    cuzk_multi_pairing(&a, p, q, 16);
    CHECK(cuzk_fp12_eq(&e17, &a));
    p[16] = keep;
}

/* The Groth16-shaped check e(A, B) = e(a P, b Q) e(c P, Q) with A = (ab + c) P, B = Q, and a
 * corrupted variant. */
CUZK_TEST(pairing_product_is_one)
{
    cuzk_g1_affine_t g1, p[3];
    cuzk_g2_affine_t g2, q[3];
    g1_gen(&g1);
    g2_gen(&g2);
    cuzk_fr_t a, b, c, s;
    rand_fr(&a);
    rand_fr(&b);
    rand_fr(&c);
    cuzk_fr_mul(&s, &a, &b);
    cuzk_fr_add(&s, &s, &c);
    cuzk_g1_affine_t A;
    g1_mul_curve(&A, &g1, &s);
    g1_neg(&p[0], &A);
    q[0] = g2;
    g1_mul_curve(&p[1], &g1, &a);
    g2_mul_curve(&q[1], &g2, &b);
    g1_mul_curve(&p[2], &g1, &c);
    q[2] = g2;
    CHECK(cuzk_pairing_product_is_one(p, q, 3));
    /* Order of the pairs does not matter. */
    cuzk_g1_affine_t pr[3] = {p[2], p[0], p[1]};
    cuzk_g2_affine_t qr[3] = {q[2], q[0], q[1]};
    CHECK(cuzk_pairing_product_is_one(pr, qr, 3));
    /* Corruptions: swap a G1 point, change a scalar, drop a pair. */
    cuzk_g1_affine_t bad = p[2];
    p[2] = g1;
    CHECK(!cuzk_pairing_product_is_one(p, q, 3));
    p[2] = bad;
    g2_neg(&q[1], &q[1]);
    CHECK(!cuzk_pairing_product_is_one(p, q, 3));
    g2_neg(&q[1], &q[1]);
    CHECK(cuzk_pairing_product_is_one(p, q, 3));
    CHECK(!cuzk_pairing_product_is_one(p, q, 2));
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* GMP checks, continued: Montgomery form, published constants, and Fp2 against a GMP model. */
#include "test_field_gmp_util.h"

/* ---- Montgomery form and published constants ---------------------------------------------- */

static void run_montgomery_form(const field *f)
{
    ctx c;
    ctx_init(&c, f);
    c.op = "montgomery form";
    /* GMP's R = 2^(64n) mod m equals the published constant. */
    mpz_t pub;
    mpz_init_set_str(pub, f->mont_r_hex, 16);
    CHECK(mpz_cmp(pub, c.r) == 0);
    mpz_clear(pub);
    /* one: raw limbs = R mod m; zero: raw zero. */
    elem e;
    memset(&e, 0xa5, sizeof e);
    if (f == &FP)
        cuzk_fp_set_one(&e.fp);
    else
        cuzk_fr_set_one(&e.fr);
    z_from_limbs(c.t0, e.l, f->n);
    CHECK(mpz_cmp(c.t0, c.r) == 0);
    mpz_set_ui(c.want, 1);
    EXPECT(&c, &e, c.want);
    CHECK(f == &FP ? cuzk_fp_is_one(&e.fp) : cuzk_fr_is_one(&e.fr));
    memset(&e, 0xa5, sizeof e);
    if (f == &FP)
        cuzk_fp_set_zero(&e.fp);
    else
        cuzk_fr_set_zero(&e.fr);
    mpz_set_ui(c.want, 0);
    EXPECT(&c, &e, c.want);
    CHECK(f == &FP ? cuzk_fp_is_zero(&e.fp) : cuzk_fr_is_zero(&e.fr));
    /* A few elements: the raw limbs written by from_canonical are exactly a*R mod m. */
    for (c.it = 0; c.it < c.nedge + 64; c.it++) {
        mpz_t a;
        mpz_init(a);
        if (c.it < c.nedge)
            mpz_set(a, c.edge[c.it]);
        else
            rand_below(a, c.m);
        mpz_set(c.in0, a);
        load(&c, &e, a);
        mpz_mul(c.t1, a, c.r);
        mpz_mod(c.t1, c.t1, c.m);
        z_from_limbs(c.t0, e.l, f->n);
        if (mpz_cmp(c.t0, c.t1) != 0)
            fail_value(&c, __LINE__, "raw limbs", c.t1, c.t0);
        mpz_clear(a);
    }
    ctx_clear(&c);
}

CUZK_TEST(field_gmp_fp_montgomery_form)
{
    run_montgomery_form(&FP);
}
CUZK_TEST(field_gmp_fr_montgomery_form)
{
    run_montgomery_form(&FR);
}

CUZK_TEST(field_gmp_fr_root_of_unity)
{
    ctx c;
    ctx_init(&c, &FR);
    c.op = "root of unity";
    elem w;
    cuzk_fr_root_of_unity(&w.fr);
    /* Published value, and 7^((r-1)/2^32) by GMP. */
    mpz_set_str(c.want, FR_ROOT_HEX, 16);
    EXPECT(&c, &w, c.want);
    mpz_t t, seven;
    mpz_inits(t, seven, NULL);
    mpz_sub_ui(t, c.m, 1);
    CHECK(mpz_scan1(t, 0) == 32); /* two-adicity 32 */
    mpz_fdiv_q_2exp(t, t, 32);
    mpz_set_ui(seven, 7);
    mpz_powm(c.want, seven, t, c.m);
    EXPECT(&c, &w, c.want);
    /* Order exactly 2^32: w^(2^31) = -1, w^(2^32) = 1, by cuzk squarings. */
    elem x = w, one;
    for (int i = 0; i < 31; i++)
        cuzk_fr_sqr(&x.fr, &x.fr);
    mpz_sub_ui(c.want, c.m, 1);
    EXPECT(&c, &x, c.want);
    cuzk_fr_sqr(&x.fr, &x.fr);
    cuzk_fr_set_one(&one.fr);
    CHECK(cuzk_fr_eq(&x.fr, &one.fr));
    /* 7 (the coset generator) and 5 are non-residues, by GMP and by cuzk. */
    CHECK(mpz_legendre(seven, c.m) == -1);
    elem e7;
    cuzk_fr_set_u64(&e7.fr, 7);
    CHECK(cuzk_fr_legendre(&e7.fr) == -1);
    mpz_set_ui(t, 5);
    CHECK(mpz_legendre(t, c.m) == -1);
    cuzk_fr_set_u64(&e7.fr, 5);
    CHECK(cuzk_fr_legendre(&e7.fr) == -1);
    mpz_clears(t, seven, NULL);
    ctx_clear(&c);
}

/* ---- Fp2 against a GMP model of (a0 + a1 u) mod p, u^2 = -1 -------------------------------- */

typedef struct {
    mpz_t c0, c1;
} zfp2;

static void zfp2_init(zfp2 *z)
{
    mpz_inits(z->c0, z->c1, NULL);
}
static void zfp2_clear(zfp2 *z)
{
    mpz_clears(z->c0, z->c1, NULL);
}

/* o = a * b (o may alias a or b). */
static void zfp2_mul(const ctx *c, zfp2 *o, const zfp2 *a, const zfp2 *b)
{
    mpz_t r0, r1, t;
    mpz_inits(r0, r1, t, NULL);
    mpz_mul(r0, a->c0, b->c0);
    mpz_mul(t, a->c1, b->c1);
    mpz_sub(r0, r0, t);
    mpz_mul(r1, a->c0, b->c1);
    mpz_mul(t, a->c1, b->c0);
    mpz_add(r1, r1, t);
    mpz_mod(o->c0, r0, c->m);
    mpz_mod(o->c1, r1, c->m);
    mpz_clears(r0, r1, t, NULL);
}

static void zfp2_pow(const ctx *c, zfp2 *o, const zfp2 *a, const mpz_t e)
{
    zfp2 acc, base;
    zfp2_init(&acc);
    zfp2_init(&base);
    mpz_set_ui(acc.c0, 1);
    mpz_set(base.c0, a->c0);
    mpz_set(base.c1, a->c1);
    for (size_t i = mpz_sizeinbase(e, 2); i-- > 0;) {
        zfp2_mul(c, &acc, &acc, &acc);
        if (mpz_tstbit(e, i))
            zfp2_mul(c, &acc, &acc, &base);
    }
    mpz_set(o->c0, acc.c0);
    mpz_set(o->c1, acc.c1);
    zfp2_clear(&acc);
    zfp2_clear(&base);
}

static void fp2_load(ctx *c, cuzk_fp2_t *e, const zfp2 *z)
{
    elem t;
    load(c, &t, z->c0);
    e->c0 = t.fp;
    load(c, &t, z->c1);
    e->c1 = t.fp;
}

static void fp2_expect_at(ctx *c, int line, const cuzk_fp2_t *got, const zfp2 *want)
{
    elem t;
    t.fp = got->c0;
    expect_at(c, line, &t, want->c0);
    t.fp = got->c1;
    expect_at(c, line, &t, want->c1);
}
#define EXPECT2(c, got, want) fp2_expect_at((c), __LINE__, (got), (want))

static void fp2_pick(ctx *c, zfp2 *z)
{
    pick(c, z->c0);
    pick(c, z->c1);
    if ((test_rand_u64() & 15) == 0) /* pure Fp or pure imaginary elements */
        mpz_set_ui((test_rand_u64() & 1) ? z->c0 : z->c1, 0);
}

#define FP2_ITERS (test_iters(10000) / 5) /* 2,000 by default */

/* mul, sqr, mul_by_nonresidue, conj, add, sub, neg, dbl, mul_fp. */
CUZK_TEST(field_gmp_fp2_arith)
{
    ctx c;
    ctx_init(&c, &FP);
    c.op = "fp2 arith";
    zfp2 a, b, w, nr;
    zfp2_init(&a);
    zfp2_init(&b);
    zfp2_init(&w);
    zfp2_init(&nr);
    mpz_set_ui(nr.c0, 1);
    mpz_set_ui(nr.c1, 1);
    for (c.it = 0; c.it < FP2_ITERS; c.it++) {
        fp2_pick(&c, &a);
        fp2_pick(&c, &b);
        mpz_set(c.in0, a.c0);
        mpz_set(c.in1, a.c1);
        cuzk_fp2_t ea, eb, out, x;
        fp2_load(&c, &ea, &a);
        fp2_load(&c, &eb, &b);
        c.op = "fp2 mul";
        zfp2_mul(&c, &w, &a, &b);
        cuzk_fp2_mul(&out, &ea, &eb);
        EXPECT2(&c, &out, &w);
        x = ea;
        cuzk_fp2_mul(&x, &x, &eb);
        CHECK(cuzk_fp2_eq(&x, &out));
        x = eb;
        cuzk_fp2_mul(&x, &ea, &x);
        CHECK(cuzk_fp2_eq(&x, &out));
        c.op = "fp2 sqr";
        zfp2_mul(&c, &w, &a, &a);
        cuzk_fp2_sqr(&out, &ea);
        EXPECT2(&c, &out, &w);
        x = ea;
        cuzk_fp2_sqr(&x, &x);
        CHECK(cuzk_fp2_eq(&x, &out));
        c.op = "fp2 mul_by_nonresidue";
        zfp2_mul(&c, &w, &a, &nr);
        cuzk_fp2_mul_by_nonresidue(&out, &ea);
        EXPECT2(&c, &out, &w);
        x = ea;
        cuzk_fp2_mul_by_nonresidue(&x, &x);
        CHECK(cuzk_fp2_eq(&x, &out));
        c.op = "fp2 conj";
        mpz_set(w.c0, a.c0);
        mpz_neg(w.c1, a.c1);
        mpz_mod(w.c1, w.c1, c.m);
        cuzk_fp2_conj(&out, &ea);
        EXPECT2(&c, &out, &w);
        x = ea;
        cuzk_fp2_conj(&x, &x);
        CHECK(cuzk_fp2_eq(&x, &out));
        c.op = "fp2 add/sub";
        mpz_add(w.c0, a.c0, b.c0);
        mpz_add(w.c1, a.c1, b.c1);
        mpz_mod(w.c0, w.c0, c.m);
        mpz_mod(w.c1, w.c1, c.m);
        cuzk_fp2_add(&out, &ea, &eb);
        EXPECT2(&c, &out, &w);
        mpz_sub(w.c0, a.c0, b.c0);
        mpz_sub(w.c1, a.c1, b.c1);
        mpz_mod(w.c0, w.c0, c.m);
        mpz_mod(w.c1, w.c1, c.m);
        cuzk_fp2_sub(&out, &ea, &eb);
        EXPECT2(&c, &out, &w);
        c.op = "fp2 neg/dbl";
        mpz_neg(w.c0, a.c0);
        mpz_neg(w.c1, a.c1);
        mpz_mod(w.c0, w.c0, c.m);
        mpz_mod(w.c1, w.c1, c.m);
        cuzk_fp2_neg(&out, &ea);
        EXPECT2(&c, &out, &w);
        mpz_mul_2exp(w.c0, a.c0, 1);
        mpz_mul_2exp(w.c1, a.c1, 1);
        mpz_mod(w.c0, w.c0, c.m);
        mpz_mod(w.c1, w.c1, c.m);
        cuzk_fp2_dbl(&out, &ea);
        EXPECT2(&c, &out, &w);
        c.op = "fp2 mul_fp";
        mpz_mul(w.c0, a.c0, b.c0);
        mpz_mul(w.c1, a.c1, b.c0);
        mpz_mod(w.c0, w.c0, c.m);
        mpz_mod(w.c1, w.c1, c.m);
        cuzk_fp2_mul_fp(&out, &ea, &eb.c0);
        EXPECT2(&c, &out, &w);
        c.op = "fp2 is_lexicographically_largest";
        bool want = mpz_sgn(a.c1) ? mpz_cmp(a.c1, c.half) > 0 : mpz_cmp(a.c0, c.half) > 0;
        CHECK(cuzk_fp2_is_lexicographically_largest(&ea) == want);
    }
    zfp2_clear(&a);
    zfp2_clear(&b);
    zfp2_clear(&w);
    zfp2_clear(&nr);
    ctx_clear(&c);
}

CUZK_TEST(field_gmp_fp2_inv)
{
    ctx c;
    ctx_init(&c, &FP);
    c.op = "fp2 inv";
    zfp2 a, w;
    zfp2_init(&a);
    zfp2_init(&w);
    mpz_t nrm;
    mpz_init(nrm);
    unsigned long iters = FP2_ITERS / HEAVY_DIV;
    for (c.it = 0; c.it < iters + 1; c.it++) {
        if (c.it == 0) {
            mpz_set_ui(a.c0, 0); /* 1/0 = 0 */
            mpz_set_ui(a.c1, 0);
        } else {
            fp2_pick(&c, &a);
        }
        mpz_set(c.in0, a.c0);
        mpz_set(c.in1, a.c1);
        /* 1/(a0 + a1 u) = (a0 - a1 u) / (a0^2 + a1^2) */
        mpz_mul(nrm, a.c0, a.c0);
        mpz_addmul(nrm, a.c1, a.c1);
        if (!mpz_invert(nrm, nrm, c.m))
            mpz_set_ui(nrm, 0);
        mpz_mul(w.c0, a.c0, nrm);
        mpz_mul(w.c1, a.c1, nrm);
        mpz_neg(w.c1, w.c1);
        mpz_mod(w.c0, w.c0, c.m);
        mpz_mod(w.c1, w.c1, c.m);
        cuzk_fp2_t ea, out;
        fp2_load(&c, &ea, &a);
        cuzk_fp2_inv(&out, &ea);
        EXPECT2(&c, &out, &w);
        cuzk_fp2_inv_vartime(&out, &ea);
        EXPECT2(&c, &out, &w);
        cuzk_fp2_inv(&ea, &ea); /* aliased */
        EXPECT2(&c, &ea, &w);
    }
    mpz_clear(nrm);
    zfp2_clear(&a);
    zfp2_clear(&w);
    ctx_clear(&c);
}

CUZK_TEST(field_gmp_fp2_sqrt)
{
    ctx c;
    ctx_init(&c, &FP);
    c.op = "fp2 sqrt";
    zfp2 a, r, w;
    zfp2_init(&a);
    zfp2_init(&r);
    zfp2_init(&w);
    mpz_t nrm;
    mpz_init(nrm);
    unsigned long iters = FP2_ITERS / HEAVY_DIV, squares = 0, non_squares = 0;
    for (c.it = 0; c.it < iters; c.it++) {
        fp2_pick(&c, &a);
        if (c.it == 0) {
            mpz_set_ui(a.c0, 0);
            mpz_set_ui(a.c1, 0);
        } else if (c.it % 3 == 1) {
            /* A guaranteed square. */
            zfp2_mul(&c, &a, &a, &a);
        }
        mpz_set(c.in0, a.c0);
        mpz_set(c.in1, a.c1);
        /* a != 0 is a square in Fp2 iff its norm a0^2 + a1^2 is a square in Fp. */
        mpz_mul(nrm, a.c0, a.c0);
        mpz_addmul(nrm, a.c1, a.c1);
        mpz_mod(nrm, nrm, c.m);
        bool is_square = mpz_legendre(nrm, c.m) != -1;
        cuzk_fp2_t ea, out, poison;
        fp2_load(&c, &ea, &a);
        memset(&poison, 0xa5, sizeof poison);
        out = poison;
        bool ok = cuzk_fp2_sqrt(&out, &ea);
        CHECK_MSG(ok == is_square, "fp2 sqrt returned %d, square = %d (iteration %lu)", ok,
                  is_square, c.it);
        if (!ok) {
            CHECK(memcmp(&out, &poison, sizeof out) == 0);
            non_squares++;
            continue;
        }
        squares++;
        elem t;
        uint64_t l[6];
        t.fp = out.c0;
        cuzk_fp_to_canonical(l, &t.fp);
        z_from_limbs(r.c0, l, 6);
        t.fp = out.c1;
        cuzk_fp_to_canonical(l, &t.fp);
        z_from_limbs(r.c1, l, 6);
        EXPECT2(&c, &out, &r); /* canonical limbs */
        zfp2_mul(&c, &w, &r, &r);
        EXPECT2(&c, &ea, &w); /* root^2 == a */
    }
    CHECK(squares > iters / 4 && non_squares > iters / 8);
    mpz_clear(nrm);
    zfp2_clear(&a);
    zfp2_clear(&r);
    zfp2_clear(&w);
    ctx_clear(&c);
}

CUZK_TEST(field_gmp_fp2_frobenius)
{
    ctx c;
    ctx_init(&c, &FP);
    c.op = "fp2 frobenius";
    zfp2 a, w;
    zfp2_init(&a);
    zfp2_init(&w);
    unsigned long iters = FP2_ITERS / HEAVY_DIV;
    for (c.it = 0; c.it < iters; c.it++) {
        fp2_pick(&c, &a);
        unsigned k = (unsigned)(test_rand_u64() % 4);
        mpz_set(c.in0, a.c0);
        mpz_set(c.in1, a.c1);
        /* a^(p^k) by k powerings with exponent p in the GMP model. */
        mpz_set(w.c0, a.c0);
        mpz_set(w.c1, a.c1);
        for (unsigned j = 0; j < k; j++)
            zfp2_pow(&c, &w, &w, c.m);
        cuzk_fp2_t ea, out;
        fp2_load(&c, &ea, &a);
        cuzk_fp2_frobenius(&out, &ea, k);
        EXPECT2(&c, &out, &w);
        cuzk_fp2_frobenius(&ea, &ea, k); /* aliased */
        EXPECT2(&c, &ea, &w);
    }
    zfp2_clear(&a);
    zfp2_clear(&w);
    ctx_clear(&c);
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Fp, Fr and Fp2 checked against GMP, an independent big-integer oracle (STYLE.md section 8).
 *
 * Every operation of include/cuzk/field.h runs on >= 10,000 fresh inputs by default
 * (test_iters(10000), so --iters / CUZK_TEST_ITERS scale it), Fp2 on >= 2,000. Inputs are
 * uniformly random canonical values with edge values (0, 1, 2, m-1, m-2, (m-1)/2, (m+1)/2,
 * 2^64-1, all-ones limbs below m, ...) mixed in, and every pair of edge values for binary ops.
 * All randomness comes from test_rand_*, so the printed seed replays a run.
 *
 * Values cross between cuzk and GMP only through cuzk_*_to_canonical / cuzk_*_from_canonical
 * and mpz_import / mpz_export (64-bit words, least significant first). Results are checked
 * twice: the canonical value against GMP, and the raw Montgomery limbs against v * R mod m
 * (R = 2^384 or 2^256 computed by GMP), which also proves every output is fully reduced.
 * The moduli and R come from the published hex constants (facts/formats.md section 1), not from
 * the library.
 */
#include "test_field_gmp_util.h"

CUZK_TEST(field_gmp_fp_add)
{
    run_bin(&FP, OP_ADD, "add");
}
CUZK_TEST(field_gmp_fp_sub)
{
    run_bin(&FP, OP_SUB, "sub");
}
CUZK_TEST(field_gmp_fp_mul)
{
    run_bin(&FP, OP_MUL, "mul");
}
CUZK_TEST(field_gmp_fp_neg)
{
    run_un(&FP, OP_NEG, "neg", test_iters(10000));
}
CUZK_TEST(field_gmp_fp_dbl)
{
    run_un(&FP, OP_DBL, "dbl", test_iters(10000));
}
CUZK_TEST(field_gmp_fp_sqr)
{
    run_un(&FP, OP_SQR, "sqr", test_iters(10000));
}
CUZK_TEST(field_gmp_fp_inv)
{
    run_un(&FP, OP_INV, "inv", test_iters(10000) / HEAVY_DIV);
}
CUZK_TEST(field_gmp_fp_inv_vartime)
{
    run_un(&FP, OP_INV_VARTIME, "inv_vartime", test_iters(10000) / HEAVY_DIV);
}
CUZK_TEST(field_gmp_fr_add)
{
    run_bin(&FR, OP_ADD, "add");
}
CUZK_TEST(field_gmp_fr_sub)
{
    run_bin(&FR, OP_SUB, "sub");
}
CUZK_TEST(field_gmp_fr_mul)
{
    run_bin(&FR, OP_MUL, "mul");
}
CUZK_TEST(field_gmp_fr_neg)
{
    run_un(&FR, OP_NEG, "neg", test_iters(10000));
}
CUZK_TEST(field_gmp_fr_dbl)
{
    run_un(&FR, OP_DBL, "dbl", test_iters(10000));
}
CUZK_TEST(field_gmp_fr_sqr)
{
    run_un(&FR, OP_SQR, "sqr", test_iters(10000));
}
CUZK_TEST(field_gmp_fr_inv)
{
    run_un(&FR, OP_INV, "inv", test_iters(10000) / HEAVY_DIV);
}
CUZK_TEST(field_gmp_fr_inv_vartime)
{
    run_un(&FR, OP_INV_VARTIME, "inv_vartime", test_iters(10000) / HEAVY_DIV);
}

/* ---- pow, batch inversion, legendre, sqrt ------------------------------------------------- */

static void run_pow(const field *f)
{
    ctx c;
    ctx_init(&c, f);
    c.op = "pow";
    mpz_t a, e;
    mpz_inits(a, e, NULL);
    unsigned long iters = test_iters(10000) / HEAVY_DIV;
    for (c.it = 0; c.it < iters + c.nedge; c.it++) {
        uint64_t el[6] = {0};
        size_t ne = 1 + test_rand_u64() % 6;
        test_rand_bytes(el, ne * sizeof el[0]);
        switch (test_rand_u64() % 8) {
        case 0: /* tiny exponents: 0, 1, 2, 3 */
            memset(el, 0, sizeof el);
            el[0] = test_rand_u64() % 4;
            break;
        case 1: /* m - 1 and m - 2 (Fermat) */
            mpz_sub_ui(e, c.m, 1 + (test_rand_u64() & 1));
            z_to_limbs(el, f->n, e);
            ne = f->n;
            break;
        default:
            break;
        }
        z_from_limbs(e, el, ne);
        if (c.it < c.nedge)
            mpz_set(a, c.edge[c.it]);
        else
            pick(&c, a);
        mpz_set(c.in0, a);
        mpz_set(c.in1, e);
        mpz_powm(c.want, a, e, c.m); /* 0^0 = 1 in both */
        elem ea, out;
        load(&c, &ea, a);
        memset(&out, 0xa5, sizeof out);
        f->pow(&out, &ea, el, ne);
        EXPECT(&c, &out, c.want);
        f->pow(&ea, &ea, el, ne);
        CHECK(elem_eq(&c, &ea, &out));
    }
    mpz_clears(a, e, NULL);
    ctx_clear(&c);
}

CUZK_TEST(field_gmp_fp_pow)
{
    run_pow(&FP);
}
CUZK_TEST(field_gmp_fr_pow)
{
    run_pow(&FR);
}

static void run_batch_inv(const field *f)
{
    ctx c;
    ctx_init(&c, f);
    c.op = "batch_inv";
    elem in[BATCH_MAX], copy[BATCH_MAX], out[BATCH_MAX];
    mpz_t v[BATCH_MAX];
    for (size_t i = 0; i < BATCH_MAX; i++)
        mpz_init(v[i]);
    /* n = 0 must touch nothing. */
    memset(out, 0xa5, sizeof out);
    memcpy(copy, out, sizeof out);
    f->batch_inv(out, in, 0);
    CHECK(memcmp(out, copy, sizeof out) == 0);
    unsigned long total = 0;
    for (c.it = 0; total < test_iters(10000); c.it++) {
        size_t n = 1 + test_rand_u64() % BATCH_MAX;
        unsigned zero_odds = (unsigned)(test_rand_u64() % 4); /* 0: no zeros ... 3: many */
        for (size_t i = 0; i < n; i++) {
            if (zero_odds && test_rand_u64() % 8 < zero_odds)
                mpz_set_ui(v[i], 0);
            else
                pick(&c, v[i]);
            load(&c, &in[i], v[i]);
        }
        memcpy(copy, in, sizeof in);
        memset(out, 0xa5, sizeof out);
        f->batch_inv(out, in, n);
        CHECK(memcmp(in, copy, n * sizeof in[0]) == 0);
        for (size_t i = 0; i < n; i++) {
            mpz_set(c.in0, v[i]);
            mpz_set_ui(c.in1, i);
            if (!mpz_invert(c.want, v[i], c.m))
                mpz_set_ui(c.want, 0); /* zeros map to zeros */
            EXPECT(&c, &out[i], c.want);
        }
        total += n;
    }
    for (size_t i = 0; i < BATCH_MAX; i++)
        mpz_clear(v[i]);
    ctx_clear(&c);
}

CUZK_TEST(field_gmp_fp_batch_inv)
{
    run_batch_inv(&FP);
}
CUZK_TEST(field_gmp_fr_batch_inv)
{
    run_batch_inv(&FR);
}

static void run_legendre(const field *f)
{
    ctx c;
    ctx_init(&c, f);
    c.op = "legendre";
    mpz_t a;
    mpz_init(a);
    unsigned long iters = test_iters(10000) / HEAVY_DIV;
    for (c.it = 0; c.it < iters + c.nedge; c.it++) {
        if (c.it < c.nedge)
            mpz_set(a, c.edge[c.it]);
        else
            pick(&c, a);
        elem ea;
        load(&c, &ea, a);
        int want = mpz_legendre(a, c.m), got = f->legendre(&ea);
        CHECK_MSG(want == got, "%s legendre(%s) = %d, GMP says %d", f->name,
                  mpz_get_str(NULL, 16, a), got, want);
    }
    mpz_clear(a);
    ctx_clear(&c);
}

CUZK_TEST(field_gmp_fp_legendre)
{
    run_legendre(&FP);
}
CUZK_TEST(field_gmp_fr_legendre)
{
    run_legendre(&FR);
}

static void run_sqrt(const field *f)
{
    ctx c;
    ctx_init(&c, f);
    c.op = "sqrt";
    mpz_t a, q, root;
    mpz_inits(a, q, root, NULL);
    /* Fp documents which root it returns: a^((p+1)/4). */
    mpz_add_ui(q, c.m, 1);
    mpz_fdiv_q_2exp(q, q, 2);
    unsigned long iters = test_iters(10000) / HEAVY_DIV, squares = 0, non_squares = 0;
    for (c.it = 0; c.it < iters + c.nedge; c.it++) {
        if (c.it < c.nedge)
            mpz_set(a, c.edge[c.it]);
        else
            pick(&c, a);
        mpz_set(c.in0, a);
        elem ea, out, poison;
        load(&c, &ea, a);
        memset(&poison, 0xa5, sizeof poison);
        out = poison;
        bool ok = f->sqrt(&out, &ea);
        if (mpz_legendre(a, c.m) == -1) {
            CHECK_MSG(!ok, "%s sqrt claims a root of a non-residue (iteration %lu)", f->name, c.it);
            CHECK(memcmp(&out, &poison, sizeof out) == 0); /* out unchanged */
            non_squares++;
            continue;
        }
        CHECK_MSG(ok, "%s sqrt found no root of a residue (iteration %lu)", f->name, c.it);
        squares++;
        uint64_t l[CUZK_FP_LIMBS];
        f->to_canonical(l, &out);
        z_from_limbs(root, l, f->n);
        mpz_set(c.in1, root);
        mpz_mul(c.want, root, root);
        mpz_mod(c.want, c.want, c.m);
        if (mpz_cmp(c.want, a) != 0)
            fail_value(&c, __LINE__, "root squared differs from the input", a, c.want);
        EXPECT(&c, &out, root); /* the raw limbs are root*R mod m: fully reduced */
        if (f == &FP) {
            mpz_powm(c.want, a, q, c.m);
            EXPECT(&c, &out, c.want);
        }
        elem x = ea; /* aliased */
        CHECK(f->sqrt(&x, &x));
        CHECK(elem_eq(&c, &x, &out));
    }
    /* Random inputs are squares half the time; make sure both branches ran. */
    CHECK(squares > iters / 4 && non_squares > iters / 4);
    mpz_clears(a, q, root, NULL);
    ctx_clear(&c);
}

CUZK_TEST(field_gmp_fp_sqrt)
{
    run_sqrt(&FP);
}
CUZK_TEST(field_gmp_fr_sqrt)
{
    run_sqrt(&FR);
}

/* ---- encodings, canonical form, rejection ------------------------------------------------- */

/* Serialise |v| the way the field's byte format says, independently of the library. */
static void ref_bytes(const ctx *c, uint8_t *out, const mpz_t v)
{
    size_t cnt = 0, nb = c->f->nbytes;
    uint8_t tmp[64];
    CHECK(mpz_sizeinbase(v, 256) <= nb);
    memset(tmp, 0, sizeof tmp);
    mpz_export(tmp, &cnt, -1, 1, 0, 0, v); /* least significant byte first */
    for (size_t i = 0; i < nb; i++)
        out[i] = c->f->be ? tmp[nb - 1 - i] : tmp[i];
}

static void run_bytes(const field *f)
{
    ctx c;
    ctx_init(&c, f);
    c.op = "from/to bytes";
    mpz_t a;
    mpz_init(a);
    for (c.it = 0; c.it < test_iters(10000) + c.nedge; c.it++) {
        if (c.it < c.nedge)
            mpz_set(a, c.edge[c.it]);
        else
            pick(&c, a);
        mpz_set(c.in0, a);
        uint8_t want[48], got[48];
        ref_bytes(&c, want, a);
        elem e, viac;
        memset(&e, 0xa5, sizeof e);
        CHECK(f->from_bytes(&e, want) == CUZK_OK);
        EXPECT(&c, &e, a);
        load(&c, &viac, a);
        CHECK(elem_eq(&c, &e, &viac));
        memset(got, 0x5a, sizeof got);
        f->to_bytes(got, &e);
        CHECK(memcmp(got, want, f->nbytes) == 0);
        if (f->nbytes < sizeof got)
            CHECK(got[f->nbytes] == 0x5a); /* no overrun */
    }
    mpz_clear(a);
    ctx_clear(&c);
}

CUZK_TEST(field_gmp_fp_bytes)
{
    run_bytes(&FP);
}
CUZK_TEST(field_gmp_fr_bytes)
{
    run_bytes(&FR);
}

static void run_canonical(const field *f)
{
    ctx c;
    ctx_init(&c, f);
    c.op = "from/to canonical";
    mpz_t a;
    mpz_init(a);
    for (c.it = 0; c.it < test_iters(10000) + c.nedge; c.it++) {
        if (c.it < c.nedge)
            mpz_set(a, c.edge[c.it]);
        else
            pick(&c, a);
        mpz_set(c.in0, a);
        uint64_t l[CUZK_FP_LIMBS], back[CUZK_FP_LIMBS];
        z_to_limbs(l, f->n, a);
        elem e;
        memset(&e, 0xa5, sizeof e);
        CHECK(f->from_canonical(&e, l));
        /* Raw limbs must be a*R mod m (EXPECT checks it), and to_canonical must invert. */
        EXPECT(&c, &e, a);
        f->to_canonical(back, &e);
        CHECK(memcmp(back, l, f->n * sizeof l[0]) == 0);
        /* to_canonical of a raw value built by GMP: (a*R mod m) -> a. */
        mpz_mul(c.t1, a, c.r);
        mpz_mod(c.t1, c.t1, c.m);
        elem raw;
        memset(&raw, 0, sizeof raw);
        z_to_limbs(raw.l, f->n, c.t1);
        f->to_canonical(back, &raw);
        z_from_limbs(c.t0, back, f->n);
        CHECK(mpz_cmp(c.t0, a) == 0);
    }
    mpz_clear(a);
    ctx_clear(&c);
}

CUZK_TEST(field_gmp_fp_canonical)
{
    run_canonical(&FP);
}
CUZK_TEST(field_gmp_fr_canonical)
{
    run_canonical(&FR);
}

/* |v| (>= m, < 2^(64n)) must be rejected by both entry points with the output untouched. */
static void expect_rejected(ctx *c, const mpz_t v)
{
    const field *f = c->f;
    uint64_t l[CUZK_FP_LIMBS];
    uint8_t b[48];
    z_to_limbs(l, f->n, v);
    ref_bytes(c, b, v);
    elem e, poison;
    memset(&poison, 0xa5, sizeof poison);
    e = poison;
    CHECK_MSG(!f->from_canonical(&e, l), "%s from_canonical accepted %s", f->name,
              mpz_get_str(NULL, 16, v));
    CHECK(memcmp(&e, &poison, sizeof e) == 0);
    cuzk_status s = f->from_bytes(&e, b);
    CHECK_MSG(s == CUZK_ERR_NOT_CANONICAL, "%s from_bytes of %s returned %s", f->name,
              mpz_get_str(NULL, 16, v), cuzk_status_name(s));
    CHECK(memcmp(&e, &poison, sizeof e) == 0);
}

static void run_reject(const field *f, unsigned named_bits)
{
    ctx c;
    ctx_init(&c, f);
    c.op = "reject";
    mpz_t v, top;
    mpz_inits(v, top, NULL);
    mpz_ui_pow_ui(top, 2, 64 * f->n); /* 2^(64n): one past the largest encodable value */
    mpz_set(v, c.m);                  /* m */
    expect_rejected(&c, v);
    mpz_add_ui(v, c.m, 1); /* m + 1 */
    expect_rejected(&c, v);
    mpz_ui_pow_ui(v, 2, named_bits); /* 2^381 - 1 (Fp), 2^256 - 1 (Fr) */
    mpz_sub_ui(v, v, 1);
    expect_rejected(&c, v);
    mpz_sub_ui(v, top, 1); /* all ones */
    expect_rejected(&c, v);
    mpz_mul_2exp(v, c.m, 1); /* 2m and 2m - 1, when they fit */
    if (mpz_cmp(v, top) < 0) {
        expect_rejected(&c, v);
        mpz_sub_ui(v, v, 1);
        expect_rejected(&c, v);
    }
    mpz_t span;
    mpz_init(span);
    mpz_sub(span, top, c.m);
    for (c.it = 0; c.it < test_iters(10000); c.it++) {
        if (c.it & 1) { /* just above m */
            mpz_set_ui(v, test_rand_u64() & 0xffff);
            mpz_add(v, v, c.m);
        } else { /* uniform in [m, 2^(64n)) */
            rand_below(v, span);
            mpz_add(v, v, c.m);
        }
        expect_rejected(&c, v);
    }
    mpz_clears(v, top, span, NULL);
    ctx_clear(&c);
}

CUZK_TEST(field_gmp_fp_reject_non_canonical)
{
    run_reject(&FP, 381);
}
CUZK_TEST(field_gmp_fr_reject_non_canonical)
{
    run_reject(&FR, 256);
}

/* ---- small predicates and helpers --------------------------------------------------------- */

CUZK_TEST(field_gmp_fp_lexicographically_largest)
{
    ctx c;
    ctx_init(&c, &FP);
    c.op = "is_lexicographically_largest";
    mpz_t a;
    mpz_init(a);
    for (c.it = 0; c.it < test_iters(10000) + c.nedge; c.it++) {
        if (c.it < c.nedge)
            mpz_set(a, c.edge[c.it]);
        else
            pick(&c, a);
        elem e;
        load(&c, &e, a);
        bool want = mpz_cmp(a, c.half) > 0;
        CHECK_MSG(cuzk_fp_is_lexicographically_largest(&e.fp) == want,
                  "is_lexicographically_largest(%s) != %d", mpz_get_str(NULL, 16, a), want);
    }
    mpz_clear(a);
    ctx_clear(&c);
}

static void run_cmov(const field *f)
{
    ctx c;
    ctx_init(&c, f);
    c.op = "cmov";
    mpz_t a, b;
    mpz_inits(a, b, NULL);
    for (c.it = 0; c.it < test_iters(10000); c.it++) {
        pick(&c, a);
        pick(&c, b);
        mpz_set(c.in0, a);
        mpz_set(c.in1, b);
        elem ea, eb;
        load(&c, &ea, a);
        load(&c, &eb, b);
        bool flag = test_rand_u64() & 1;
        f->cmov(&ea, &eb, flag);
        EXPECT(&c, &ea, flag ? b : a);
    }
    mpz_clears(a, b, NULL);
    ctx_clear(&c);
}

CUZK_TEST(field_gmp_fp_cmov)
{
    run_cmov(&FP);
}
CUZK_TEST(field_gmp_fr_cmov)
{
    run_cmov(&FR);
}

static void run_set_u64(const field *f)
{
    ctx c;
    ctx_init(&c, f);
    c.op = "set_u64";
    static const uint64_t fixed[] = {0,
                                     1,
                                     2,
                                     0xffffffffULL,
                                     1ULL << 32,
                                     1ULL << 63,
                                     0xffffffffffffffffULL,
                                     0xfffffffffffffffeULL};
    size_t nf = sizeof fixed / sizeof fixed[0];
    for (c.it = 0; c.it < test_iters(10000) + nf; c.it++) {
        uint64_t v = c.it < nf ? fixed[c.it] : test_rand_u64() >> (test_rand_u64() % 64);
        mpz_import(c.want, 1, -1, sizeof v, 0, 0, &v);
        mpz_set(c.in0, c.want);
        elem e;
        memset(&e, 0xa5, sizeof e);
        f->set_u64(&e, v);
        EXPECT(&c, &e, c.want);
    }
    ctx_clear(&c);
}

CUZK_TEST(field_gmp_fp_set_u64)
{
    run_set_u64(&FP);
}
CUZK_TEST(field_gmp_fr_set_u64)
{
    run_set_u64(&FR);
}


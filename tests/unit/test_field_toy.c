/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The production Montgomery code (src/field/mont.h) instantiated over toy moduli, the way
 * STYLE.md section 8 asks: every pair of a few small primes exhaustively, 1-limb primes up to
 * the no-carry bound (2^63 - 25, the largest 63-bit prime) against unsigned __int128
 * arithmetic, and 2-limb primes (just above 2^64, near 2^125, and with top limb 2^63 - 2, the
 * largest mont_mul accepts) against GMP. The limb count is a literal at each call, as in
 * fp.c / fr.c, so the same unrolled bodies are exercised.
 *
 * In Montgomery form x is stored as xR mod m, so for raw limb values a, b:
 *   mont_mul(a, b) = a b R^-1,  mont_inv_vartime(a) = a^-1 R^2,
 *   mont_pow(a, e) = (a R^-1)^e R  (with one = R mod m),  all mod m.
 */
#include "test.h"
#include "field/mont.h"

#include <gmp.h>

typedef unsigned __int128 u128;

/* ---- one limb, unsigned __int128 reference ----------------------------------------------- */

typedef struct {
    uint64_t m, n0, rmod, rinv, r2, r3;
} toy1;

static uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m)
{
    return (uint64_t)((u128)a * b % m);
}

static uint64_t powmod(uint64_t a, uint64_t e, uint64_t m)
{
    uint64_t r = 1 % m;
    for (a %= m; e; e >>= 1) {
        if (e & 1)
            r = mulmod(r, a, m);
        a = mulmod(a, a, m);
    }
    return r;
}

/* -m^-1 mod 2^64 by Newton's iteration (each step doubles the correct low bits). */
static uint64_t neg_inv64(uint64_t m0)
{
    uint64_t inv = 1;
    for (int i = 0; i < 7; i++)
        inv *= 2 - m0 * inv;
    CHECK(inv * m0 == 1);
    return 0 - inv;
}

static void toy1_init(toy1 *t, uint64_t m)
{
    /* The references use Fermat inversion: catch a composite "prime" here, not as a
     * confusing mul mismatch later. */
    CHECK_MSG(powmod(2, m - 1, m) == 1 && (m == 3 || powmod(3, m - 1, m) == 1),
              "toy modulus %llu is not prime", (unsigned long long)m);
    t->m = m;
    t->n0 = neg_inv64(m);
    t->rmod = (uint64_t)(((u128)1 << 64) % m);
    t->rinv = powmod(t->rmod, m - 2, m); /* m prime */
    t->r2 = mulmod(t->rmod, t->rmod, m);
    t->r3 = mulmod(t->r2, t->rmod, m);
}

static void toy1_check_pair(const toy1 *t, uint64_t x, uint64_t y)
{
    uint64_t m = t->m, r;
    mont_add(&r, &x, &y, &m, 1);
    CHECK_MSG(r == (x + y) % m, "m=%llu add(%llu, %llu) = %llu", (unsigned long long)m,
              (unsigned long long)x, (unsigned long long)y, (unsigned long long)r);
    mont_sub(&r, &x, &y, &m, 1);
    CHECK_MSG(r == (x + (m - y)) % m, "m=%llu sub(%llu, %llu) = %llu", (unsigned long long)m,
              (unsigned long long)x, (unsigned long long)y, (unsigned long long)r);
    mont_mul(&r, &x, &y, &m, t->n0, 1);
    CHECK_MSG(r == mulmod(mulmod(x, y, m), t->rinv, m), "m=%llu mul(%llu, %llu) = %llu",
              (unsigned long long)m, (unsigned long long)x, (unsigned long long)y,
              (unsigned long long)r);
}

static void toy1_check_one(const toy1 *t, uint64_t x, uint64_t e)
{
    uint64_t m = t->m, r;
    mont_neg(&r, &x, &m, 1);
    CHECK(r == (m - x) % m);
    mont_inv_vartime(&r, &x, &m, &t->r3, t->n0, 1);
    uint64_t want = x ? mulmod(powmod(x, m - 2, m), t->r2, m) : 0;
    CHECK_MSG(r == want, "m=%llu inv_vartime(%llu) = %llu, want %llu", (unsigned long long)m,
              (unsigned long long)x, (unsigned long long)r, (unsigned long long)want);
    mont_pow(&r, &x, &e, 1, &t->rmod, &m, t->n0, 1);
    want = mulmod(powmod(mulmod(x, t->rinv, m), e, m), t->rmod, m);
    CHECK_MSG(r == want, "m=%llu pow(%llu, %llu) = %llu, want %llu", (unsigned long long)m,
              (unsigned long long)x, (unsigned long long)e, (unsigned long long)r,
              (unsigned long long)want);
    /* reduce_once on [0, 2m), geq, eq, cmov, is_zero */
    uint64_t t2 = x + m;
    mont_reduce_once(&r, &t2, &m, 1);
    CHECK(r == x);
    mont_reduce_once(&r, &x, &m, 1);
    CHECK(r == x);
    CHECK(mont_geq_vartime(&t2, &m, 1) && !mont_geq_vartime(&x, &m, 1));
    CHECK(mont_is_zero(&x, 1) == (x == 0));
    r = x ^ 1;
    CHECK(!mont_eq(&r, &x, 1) && mont_eq(&x, &x, 1));
    mont_cmov(&r, &x, false, 1);
    CHECK(r == (x ^ 1));
    mont_cmov(&r, &x, true, 1);
    CHECK(r == x);
}

/* Every pair (x, y) and every x for small primes. */
CUZK_TEST(field_toy_mont_exhaustive_small_primes)
{
    static const uint64_t primes[] = {3,  5,  7,  11, 13, 17, 19, 23, 29, 31, 37,  41,  43,  47,
                                      53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 251, 257, 1021};
    for (size_t k = 0; k < sizeof primes / sizeof primes[0]; k++) {
        toy1 t;
        toy1_init(&t, primes[k]);
        for (uint64_t x = 0; x < t.m; x++) {
            for (uint64_t y = 0; y < t.m; y++)
                toy1_check_pair(&t, x, y);
            for (uint64_t e = 0; e < 4; e++)
                toy1_check_one(&t, x, e);
            toy1_check_one(&t, x, t.m - 1);
        }
    }
}

/* 1-limb primes up to the largest mont_mul allows, random values plus edges. */
CUZK_TEST(field_toy_mont_one_limb)
{
    static const uint64_t moduli[] = {
        1000003ULL, (1ULL << 61) - 1, /* Mersenne prime 2^61 - 1 */
        0x7fffffffffffffe7ULL,        /* 2^63 - 25, the largest prime below 2^63 */
        0x7fffffffffffff5bULL,        /* 2^63 - 165, the next prime down */
    };
    for (size_t k = 0; k < sizeof moduli / sizeof moduli[0]; k++) {
        toy1 t;
        toy1_init(&t, moduli[k]);
        uint64_t m = t.m;
        const uint64_t edges[] = {0,
                                  1,
                                  2,
                                  m - 1,
                                  m - 2,
                                  (m - 1) / 2,
                                  (m + 1) / 2,
                                  t.rmod,
                                  t.rinv,
                                  0xffffffffULL % m,
                                  (1ULL << 62) % m};
        size_t ne = sizeof edges / sizeof edges[0];
        for (size_t i = 0; i < ne; i++) {
            for (size_t j = 0; j < ne; j++)
                toy1_check_pair(&t, edges[i], edges[j]);
            toy1_check_one(&t, edges[i], test_rand_u64());
        }
        for (unsigned long it = 0; it < test_iters(10000) * 5; it++) {
            uint64_t x = test_rand_u64() % m, y = test_rand_u64() % m;
            if ((it & 7) == 0)
                x = edges[test_rand_u64() % ne];
            toy1_check_pair(&t, x, y);
            if ((it & 3) == 0)
                toy1_check_one(&t, x, test_rand_u64());
        }
    }
}

/* MONT_BATCH_INV over the 1-limb toy field, with zeros mixed in. */
typedef struct {
    uint64_t l[1];
} toy1_elem;

static const toy1 *g_toy1;

static void toy1_mul_e(toy1_elem *o, const toy1_elem *a, const toy1_elem *b)
{
    mont_mul(o->l, a->l, b->l, &g_toy1->m, g_toy1->n0, 1);
}
static void toy1_inv_e(toy1_elem *o, const toy1_elem *a)
{
    mont_inv_vartime(o->l, a->l, &g_toy1->m, &g_toy1->r3, g_toy1->n0, 1);
}
static bool toy1_is_zero_e(const toy1_elem *a)
{
    return mont_is_zero(a->l, 1);
}
static void toy1_set_one_e(toy1_elem *o)
{
    o->l[0] = g_toy1->rmod;
}

CUZK_TEST(field_toy_mont_batch_inv)
{
    static const uint64_t moduli[] = {1021, (1ULL << 61) - 1, 0x7fffffffffffffe7ULL};
    for (size_t k = 0; k < sizeof moduli / sizeof moduli[0]; k++) {
        toy1 t;
        toy1_init(&t, moduli[k]);
        g_toy1 = &t;
        for (unsigned long it = 0; it < test_iters(10000) / 10; it++) {
            toy1_elem in[40], out[40];
            size_t n = test_rand_u64() % 40;
            for (size_t i = 0; i < n; i++) {
                in[i].l[0] = (test_rand_u64() & 3) == 0 ? 0 : test_rand_u64() % t.m;
                out[i].l[0] = 0xa5a5a5a5a5a5a5a5ULL;
            }
            MONT_BATCH_INV(toy1_elem, toy1_mul_e, toy1_inv_e, toy1_is_zero_e, toy1_set_one_e, out,
                           in, n);
            for (size_t i = 0; i < n; i++) {
                uint64_t x = in[i].l[0];
                uint64_t want = x ? mulmod(powmod(x, t.m - 2, t.m), t.r2, t.m) : 0;
                CHECK_MSG(out[i].l[0] == want, "m=%llu batch[%zu/%zu] of %llu = %llu, want %llu",
                          (unsigned long long)t.m, i, n, (unsigned long long)x,
                          (unsigned long long)out[i].l[0], (unsigned long long)want);
            }
        }
    }
}

/* ---- two limbs, GMP reference ------------------------------------------------------------ */

typedef struct {
    uint64_t m[2], one[2], r3[2], n0;
    mpz_t zm, zr, zrinv, t, w;
} toy2;

static void z2(mpz_t out, const uint64_t *l)
{
    mpz_import(out, 2, -1, sizeof l[0], 0, 0, l);
}

static void l2(uint64_t *out, const mpz_t v)
{
    size_t cnt = 0;
    CHECK(mpz_sgn(v) >= 0 && mpz_sizeinbase(v, 2) <= 128);
    out[0] = out[1] = 0;
    mpz_export(out, &cnt, -1, sizeof out[0], 0, 0, v);
}

static void toy2_init(toy2 *t, const mpz_t m)
{
    mpz_inits(t->zm, t->zr, t->zrinv, t->t, t->w, NULL);
    mpz_set(t->zm, m);
    l2(t->m, m);
    CHECK(t->m[1] < (1ULL << 63) - 1); /* mont_mul's precondition */
    t->n0 = neg_inv64(t->m[0]);
    mpz_ui_pow_ui(t->zr, 2, 128);
    mpz_mod(t->zr, t->zr, m);
    CHECK(mpz_invert(t->zrinv, t->zr, m));
    l2(t->one, t->zr);
    mpz_powm_ui(t->t, t->zr, 3, m);
    l2(t->r3, t->t);
}

static void toy2_clear(toy2 *t)
{
    mpz_clears(t->zm, t->zr, t->zrinv, t->t, t->w, NULL);
}

static void toy2_expect(toy2 *t, const uint64_t *got, const mpz_t want, const char *op,
                        const uint64_t *x, const uint64_t *y)
{
    z2(t->t, got);
    if (mpz_cmp(t->t, want) != 0) {
        char *s = NULL;
        gmp_asprintf(&s, "m=%#Zx %s(x=%#llx:%016llx, y=%#llx:%016llx) = %#Zx, want %#Zx", t->zm, op,
                     (unsigned long long)x[1], (unsigned long long)x[0], (unsigned long long)y[1],
                     (unsigned long long)y[0], t->t, want);
        test_fail_at(__FILE__, __LINE__, "%s", s);
    }
}

static void toy2_check(toy2 *t, const mpz_t zx, const mpz_t zy)
{
    uint64_t x[2], y[2], r[2], e[3];
    l2(x, zx);
    l2(y, zy);
    mont_add(r, x, y, t->m, 2);
    mpz_add(t->w, zx, zy);
    mpz_mod(t->w, t->w, t->zm);
    toy2_expect(t, r, t->w, "add", x, y);
    mont_sub(r, x, y, t->m, 2);
    mpz_sub(t->w, zx, zy);
    mpz_mod(t->w, t->w, t->zm);
    toy2_expect(t, r, t->w, "sub", x, y);
    mont_neg(r, x, t->m, 2);
    mpz_neg(t->w, zx);
    mpz_mod(t->w, t->w, t->zm);
    toy2_expect(t, r, t->w, "neg", x, y);
    mont_mul(r, x, y, t->m, t->n0, 2);
    mpz_mul(t->w, zx, zy);
    mpz_mul(t->w, t->w, t->zrinv);
    mpz_mod(t->w, t->w, t->zm);
    toy2_expect(t, r, t->w, "mul", x, y);
    mont_inv_vartime(r, x, t->m, t->r3, t->n0, 2);
    if (mpz_invert(t->w, zx, t->zm)) {
        mpz_mul(t->w, t->w, t->zr);
        mpz_mul(t->w, t->w, t->zr);
        mpz_mod(t->w, t->w, t->zm);
    } else {
        mpz_set_ui(t->w, 0);
    }
    toy2_expect(t, r, t->w, "inv_vartime", x, y);
    /* pow with a 1..3-limb exponent taken from y's stream */
    size_t ne = 1 + test_rand_u64() % 3;
    test_rand_bytes(e, sizeof e);
    mont_pow(r, x, e, ne, t->one, t->m, t->n0, 2);
    mpz_t ze;
    mpz_init(ze);
    mpz_import(ze, ne, -1, sizeof e[0], 0, 0, e);
    mpz_mul(t->w, zx, t->zrinv);
    mpz_powm(t->w, t->w, ze, t->zm);
    mpz_mul(t->w, t->w, t->zr);
    mpz_mod(t->w, t->w, t->zm);
    mpz_clear(ze);
    toy2_expect(t, r, t->w, "pow", x, y);
}

CUZK_TEST(field_toy_mont_two_limbs)
{
    mpz_t m, v, x, y;
    mpz_inits(m, v, x, y, NULL);
    for (int k = 0; k < 3; k++) {
        if (k == 0) { /* just above 2^64: top limb 1 */
            mpz_ui_pow_ui(v, 2, 64);
        } else if (k == 1) { /* a 126-bit prime */
            mpz_ui_pow_ui(v, 2, 125);
            mpz_add_ui(v, v, 0x1234567);
        } else { /* top limb 2^63 - 2, the largest mont_mul accepts: above 2^127 - 2^65 */
            mpz_ui_pow_ui(v, 2, 127);
            mpz_ui_pow_ui(x, 2, 65);
            mpz_sub(v, v, x);
        }
        mpz_nextprime(m, v);
        toy2 t;
        toy2_init(&t, m);
        mpz_t edges[10];
        for (int i = 0; i < 10; i++)
            mpz_init(edges[i]);
        mpz_set_ui(edges[1], 1);
        mpz_set_ui(edges[2], 2);
        mpz_sub_ui(edges[3], m, 1);
        mpz_sub_ui(edges[4], m, 2);
        mpz_fdiv_q_2exp(edges[5], edges[3], 1);
        mpz_add_ui(edges[6], edges[5], 1);
        mpz_set(edges[7], t.zr);
        mpz_ui_pow_ui(edges[8], 2, 64);
        mpz_sub_ui(edges[8], edges[8], 1);
        mpz_mod(edges[8], edges[8], m);
        mpz_ui_pow_ui(edges[9], 2, 64);
        mpz_sub(edges[9], m, edges[9]);
        for (int i = 0; i < 10; i++)
            for (int j = 0; j < 10; j++)
                toy2_check(&t, edges[i], edges[j]);
        for (unsigned long it = 0; it < test_iters(10000); it++) {
            uint64_t l[2];
            test_rand_bytes(l, sizeof l);
            mpz_import(x, 2, -1, sizeof l[0], 0, 0, l);
            mpz_mod(x, x, m);
            test_rand_bytes(l, sizeof l);
            mpz_import(y, 2, -1, sizeof l[0], 0, 0, l);
            mpz_mod(y, y, m);
            if ((it & 7) == 0)
                mpz_set(x, edges[test_rand_u64() % 10]);
            toy2_check(&t, x, y);
        }
        for (int i = 0; i < 10; i++)
            mpz_clear(edges[i]);
        toy2_clear(&t);
    }
    mpz_clears(m, v, x, y, NULL);
}

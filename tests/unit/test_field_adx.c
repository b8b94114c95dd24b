/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The two Fp multiplication back ends side by side: the x86-64 mulx/adcx/adox assembly
 * (src/field/fp_x86_64.c) must agree bit for bit with the portable C CIOS on random and edge
 * inputs, especially values close to p where the final conditional subtraction and the carry
 * words matter; and each back end is checked against GMP on raw limbs (a*b*2^-384 mod p),
 * whichever one the library uses by default. The same for Fr's two back ends
 * (src/field/fr_x86_64.c against the portable code and GMP, a*b*2^-256 mod r) at the end.
 */
#include "test.h"
#include "cuzk/field.h"
#include "field/fp_internal.h"
#include "field/fr_internal.h"
#include "field/mont.h"

#include <gmp.h>

#define P_HEX                                                                                      \
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffff" \
    "aaab"

/* A canonical limb vector below the |n|-limb modulus |m| of |bits| bits: uniform values mixed
 * with the shapes that stress carries: m - k, single bits, limbs of 0 / 1 / all ones. */
static void rand_below(uint64_t *out, const uint64_t *m, int n, unsigned bits)
{
    const uint64_t top_mask = (1ULL << (bits - 64 * (unsigned)(n - 1))) - 1;
    for (;;) {
        unsigned kind = (unsigned)(test_rand_u64() % 8);
        uint64_t k[6] = {0};
        memset(out, 0, (size_t)n * sizeof out[0]);
        switch (kind) {
        case 0: /* m - k for small k */
            k[0] = 1 + test_rand_u64() % 65536;
            mont_sub_raw(out, m, k, (size_t)n);
            break;
        case 1: /* m - (random 64-bit) */
            k[0] = test_rand_u64() | 1;
            mont_sub_raw(out, m, k, (size_t)n);
            break;
        case 2: { /* m - 2^j - 1 */
            unsigned j = (unsigned)(test_rand_u64() % (bits - 1));
            k[j / 64] = 1ULL << (j % 64);
            mont_sub_raw(out, m, k, (size_t)n);
            uint64_t one[6] = {1};
            mont_sub_raw(out, out, one, (size_t)n);
            break;
        }
        case 3: /* 2^j */
            out[(test_rand_u64() % bits) / 64] |= 1ULL << (test_rand_u64() % 64);
            break;
        case 4: /* limbs drawn from {0, 1, all ones, 2^63, random} */
            for (int i = 0; i < n; i++) {
                static const uint64_t pat[] = {0, 1, ~0ULL, 1ULL << 63};
                uint64_t r = test_rand_u64();
                out[i] = r % 5 < 4 ? pat[r % 5] : test_rand_u64();
            }
            out[n - 1] &= top_mask;
            break;
        default: /* uniform below 2^bits (rejection below) */
            test_rand_bytes(out, (size_t)n * sizeof out[0]);
            out[n - 1] &= top_mask;
            break;
        }
        if (!mont_geq_vartime(out, m, (size_t)n))
            return;
    }
}

static void rand_raw(uint64_t out[6])
{
    rand_below(out, cuzk_fp_modulus, 6, 381);
}

static void check_below_p(const uint64_t r[6])
{
    CHECK(!mont_geq_vartime(r, cuzk_fp_modulus, 6));
}

#if CUZK_FP_HAVE_ADX /* the Fp and Fr asm are built together */
/* A back end's product and squaring against the portable product on n-limb values: every pair
 * of |fixed| values, then |iters| random pairs from |rnd|; outputs below the modulus, aliased
 * outputs, and mul(a, a) = sqr(a). */
typedef void (*limb_mul_fn)(uint64_t *out, const uint64_t *a, const uint64_t *b);
typedef void (*limb_sqr_fn)(uint64_t *out, const uint64_t *a);
typedef struct {
    int n;
    const uint64_t *modulus;
    limb_mul_fn mul, portable;
    limb_sqr_fn sqr;
    void (*rnd)(uint64_t *out);
} limb_backend;

static void check_vs_portable(const limb_backend *bk, const uint64_t *fixed, size_t nf,
                              unsigned long iters)
{
    size_t n = (size_t)bk->n, sz = n * sizeof(uint64_t);
    uint64_t a[6], b[6], r1[6], r2[6], x[6];
    for (size_t i = 0; i < nf; i++) {
        const uint64_t *fi = fixed + i * n;
        CHECK(!mont_geq_vartime(fi, bk->modulus, n));
        for (size_t j = 0; j < nf; j++) {
            bk->mul(r1, fi, fixed + j * n);
            bk->portable(r2, fi, fixed + j * n);
            CHECK_MSG(memcmp(r1, r2, sz) == 0, "mul fixed[%zu] * fixed[%zu]", i, j);
        }
        bk->sqr(r1, fi);
        bk->portable(r2, fi, fi);
        CHECK_MSG(memcmp(r1, r2, sz) == 0, "sqr fixed[%zu]", i);
    }
    for (unsigned long it = 0; it < iters; it++) {
        bk->rnd(a);
        bk->rnd(b);
        bk->mul(r1, a, b);
        bk->portable(r2, a, b);
        CHECK_MSG(memcmp(r1, r2, sz) == 0,
                  "mul differs at iteration %lu: a[0]=%016llx b[0]=%016llx", it,
                  (unsigned long long)a[0], (unsigned long long)b[0]);
        CHECK(!mont_geq_vartime(r1, bk->modulus, n));
        memcpy(x, a, sz); /* out aliases a */
        bk->mul(x, x, b);
        CHECK(memcmp(x, r2, sz) == 0);
        memcpy(x, b, sz); /* out aliases b */
        bk->mul(x, a, x);
        CHECK(memcmp(x, r2, sz) == 0);
        bk->sqr(r1, a);
        bk->portable(r2, a, a);
        CHECK_MSG(memcmp(r1, r2, sz) == 0, "sqr differs at iteration %lu: a[0]=%016llx", it,
                  (unsigned long long)a[0]);
        CHECK(!mont_geq_vartime(r1, bk->modulus, n));
        memcpy(x, a, sz);
        bk->sqr(x, x);
        CHECK(memcmp(x, r2, sz) == 0);
        bk->mul(x, a, a); /* mul with a == b equals sqr */
        CHECK(memcmp(x, r2, sz) == 0);
    }
}

#endif

CUZK_TEST(field_fp_adx_vs_portable)
{
#if !CUZK_FP_HAVE_ADX
    test_skip("the x86-64 mulx/adx back end is not built (needs x86-64 with -mbmi2 -madx)");
#else
    static const uint64_t fixed[][6] = {
        {0},
        {1},
        {2},
        {0xb9feffffffffaaaaULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
         0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL}, /* p - 1 */
        {0xb9feffffffffaaa9ULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
         0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL}, /* p - 2 */
        {0xdcff7fffffffd555ULL, 0x0f55ffff58a9ffffULL, 0xb39869507b587b12ULL, 0xb23ba5c279c2895fULL,
         0x258dd3db21a5d66bULL, 0x0d0088f51cbff34dULL}, /* (p-1)/2 */
        {0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL,
         0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}, /* R mod p */
        {~0ULL, ~0ULL, ~0ULL, ~0ULL, ~0ULL, 0x1a0111ea397fe699ULL},
        {~0ULL, 0, ~0ULL, 0, ~0ULL, 0},
    };
    const limb_backend bk = {
        6, cuzk_fp_modulus, cuzk__fp_mul_adx, cuzk_fp_mul_portable, cuzk__fp_sqr_adx, rand_raw};
    check_vs_portable(&bk, fixed[0], sizeof fixed / sizeof fixed[0], test_iters(10000) * 20);
#endif
}

/* Each back end against GMP on raw limbs: out = a * b * 2^-384 mod p. */
typedef void (*mul_fn)(uint64_t out[6], const uint64_t a[6], const uint64_t b[6]);

#if CUZK_FP_HAVE_ADX
static void sqr_adx_as_mul(uint64_t out[6], const uint64_t a[6], const uint64_t b[6])
{
    (void)b;
    cuzk__fp_sqr_adx(out, a);
}
#endif

static void check_backend_vs_gmp(mul_fn fn, bool square, const char *name)
{
    mpz_t p, rinv, za, zb, want, got;
    mpz_inits(p, rinv, za, zb, want, got, NULL);
    CHECK(mpz_set_str(p, P_HEX, 16) == 0);
    mpz_ui_pow_ui(rinv, 2, 384);
    CHECK(mpz_invert(rinv, rinv, p));
    for (unsigned long it = 0; it < test_iters(10000); it++) {
        uint64_t a[6], b[6], r[6];
        rand_raw(a);
        if (square)
            memcpy(b, a, sizeof b);
        else
            rand_raw(b);
        fn(r, a, b);
        check_below_p(r);
        mpz_import(za, 6, -1, 8, 0, 0, a);
        mpz_import(zb, 6, -1, 8, 0, 0, b);
        mpz_import(got, 6, -1, 8, 0, 0, r);
        mpz_mul(want, za, zb);
        mpz_mul(want, want, rinv);
        mpz_mod(want, want, p);
        if (mpz_cmp(want, got) != 0) {
            char *s = NULL;
            gmp_asprintf(&s, "%s iteration %lu: a=%#Zx b=%#Zx want %#Zx got %#Zx", name, it, za, zb,
                         want, got);
            test_fail_at(__FILE__, __LINE__, "%s", s);
        }
    }
    mpz_clears(p, rinv, za, zb, want, got, NULL);
}

CUZK_TEST(field_fp_mul_backends_vs_gmp)
{
    check_backend_vs_gmp(cuzk_fp_mul_portable, false, "portable mul");
    check_backend_vs_gmp(cuzk_fp_mul_portable, true, "portable mul (a == b)");
#if CUZK_FP_HAVE_ADX
    check_backend_vs_gmp(cuzk__fp_mul_adx, false, "adx mul");
    check_backend_vs_gmp(sqr_adx_as_mul, true, "adx sqr");
#endif
}

/*
 * The late-reduction pieces (cuzk__fp_mul_wide_adx, cuzk__fp_redc_adx) against GMP, and the Fp2
 * product built from them (cuzk__fp2_mul_adx) against GMP's (a0 + a1 u)(b0 + b1 u) with u^2 = -1
 * on raw Montgomery limbs. The edge shapes of rand_raw make a0 b0 - a1 b1 negative and positive,
 * and bring both coordinates close to the 2 p^2 bound the REDC relies on.
 */
#if CUZK_FP_HAVE_ADX
/* c0 in words 0..5, c1 in 6..11: the layout of cuzk_fp2_t. */
static void fp2_lazy(uint64_t out[12], const uint64_t a[12], const uint64_t b[12])
{
    cuzk_fp2_t x, y, r;
    memcpy(&x, a, sizeof x);
    memcpy(&y, b, sizeof y);
    cuzk__fp2_mul_adx(&r, &x, &y);
    memcpy(out, &r, sizeof r);
}
#endif

CUZK_TEST(field_fp2_mul_lazy_adx)
{
#if !CUZK_FP_HAVE_ADX
    test_skip("the x86-64 mulx/adx back end is not built (needs x86-64 with -mbmi2 -madx)");
#else
    mpz_t p, rinv, a0, a1, b0, b1, t, u, want0, want1, got;
    mpz_inits(p, rinv, a0, a1, b0, b1, t, u, want0, want1, got, NULL);
    CHECK(mpz_set_str(p, P_HEX, 16) == 0);
    mpz_ui_pow_ui(rinv, 2, 384);
    CHECK(mpz_invert(rinv, rinv, p));
    unsigned long bad = 0;
    for (unsigned long it = 0; it < test_iters(10000) * 4; it++) {
        uint64_t a[12], b[12], r[12], w[12], x[12];
        rand_raw(a);
        rand_raw(a + 6);
        rand_raw(b);
        rand_raw(b + 6);
        if (it % 16 == 0) /* a coordinate equal to the other, or zero */
            memcpy(a + 6, it % 32 ? a : (const uint64_t[6]){0}, 6 * sizeof a[0]);
        mpz_import(a0, 6, -1, 8, 0, 0, a);
        mpz_import(a1, 6, -1, 8, 0, 0, a + 6);
        mpz_import(b0, 6, -1, 8, 0, 0, b);
        mpz_import(b1, 6, -1, 8, 0, 0, b + 6);

        /* wide product: exact */
        cuzk__fp_mul_wide_adx(w, a, b);
        mpz_import(got, 12, -1, 8, 0, 0, w);
        mpz_mul(t, a0, b0);
        CHECK(mpz_cmp(got, t) == 0);
        /* REDC of that product (< p^2 < p 2^384) */
        uint64_t m1[6], m2[6];
        cuzk__fp_redc_adx(m1, w);
        cuzk_fp_mul_portable(m2, a, b);
        CHECK(memcmp(m1, m2, sizeof m1) == 0);

        /* c0 = (a0 b0 - a1 b1) R^-1, c1 = (a0 b1 + a1 b0) R^-1 mod p */
        mpz_mul(t, a0, b0);
        mpz_mul(u, a1, b1);
        mpz_sub(want0, t, u);
        mpz_mul(want0, want0, rinv);
        mpz_mod(want0, want0, p);
        mpz_mul(t, a0, b1);
        mpz_mul(u, a1, b0);
        mpz_add(want1, t, u);
        mpz_mul(want1, want1, rinv);
        mpz_mod(want1, want1, p);
        fp2_lazy(r, a, b);
        mpz_import(got, 6, -1, 8, 0, 0, r);
        bool ok = mpz_cmp(got, want0) == 0;
        mpz_import(got, 6, -1, 8, 0, 0, r + 6);
        ok = ok && mpz_cmp(got, want1) == 0;
        if (!ok && bad++ < 3)
            test_fail_at(__FILE__, __LINE__, "fp2 mul differs at iteration %lu", it);
        check_below_p(r);
        check_below_p(r + 6);
        memcpy(x, a, sizeof x); /* out aliases a, then b */
        fp2_lazy(x, x, b);
        CHECK(memcmp(x, r, sizeof x) == 0);
        memcpy(x, b, sizeof x);
        fp2_lazy(x, a, x);
        CHECK(memcmp(x, r, sizeof x) == 0);
        /* the public Fp2 product is this one */
        cuzk_fp2_t fa, fb, fr;
        memcpy(&fa, a, sizeof fa);
        memcpy(&fb, b, sizeof fb);
        cuzk_fp2_mul(&fr, &fa, &fb);
        CHECK(memcmp(&fr, r, sizeof fr) == 0);
    }
    /* The largest inputs: every coordinate p - 1 (c1 = 2 (p-1)^2 sits at the REDC bound). */
    uint64_t pm1[6], a[12], r[12];
    uint64_t one[6] = {1};
    mont_sub_raw(pm1, cuzk_fp_modulus, one, 6);
    memcpy(a, pm1, sizeof pm1);
    memcpy(a + 6, pm1, sizeof pm1);
    fp2_lazy(r, a, a);
    mpz_import(t, 6, -1, 8, 0, 0, pm1);
    mpz_mul(want1, t, t);
    mpz_mul_ui(want1, want1, 2);
    mpz_mul(want1, want1, rinv);
    mpz_mod(want1, want1, p);
    mpz_import(got, 6, -1, 8, 0, 0, r + 6);
    CHECK(mpz_cmp(got, want1) == 0);
    mpz_import(got, 6, -1, 8, 0, 0, r);
    CHECK(mpz_sgn(got) == 0); /* (p-1)^2 - (p-1)^2 */
    mpz_clears(p, rinv, a0, a1, b0, b1, t, u, want0, want1, got, NULL);
#endif
}

/* ---- Fr: cuzk__fr_mul_adx / cuzk__fr_sqr_adx against the portable code and GMP ------------ */

#define FR_R_HEX "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001"

static void fr_rand_raw(uint64_t out[4])
{
    rand_below(out, cuzk_fr_modulus, 4, 255);
}

static void check_below_r(const uint64_t v[4])
{
    CHECK(!mont_geq_vartime(v, cuzk_fr_modulus, 4));
}

/* Edge values: 0, 1, 2, (r - 1) / 2, R mod r (Montgomery one), R^2 mod r, the largest value with
 * r's top limb minus one, alternating limbs, 2^254, then r - 1, r - 2, r - 2^32 - 1 (r's low limb
 * is 2^64 - 2^32 + 1) and r - 2^64. */
enum { FR_NFIXED = 13 };
static void fr_fixed(uint64_t fixed[FR_NFIXED][4])
{
    static const uint64_t consts[][4] = {
        {0},
        {1},
        {2},
        {0x7fffffff80000000ULL, 0xa9ded2017fff2dffULL, 0x199cec0404d0ec02ULL,
         0x39f6d3a994cebea4ULL}, /* (r - 1) / 2 */
        {0x00000001fffffffeULL, 0x5884b7fa00034802ULL, 0x998c4fefecbc4ff5ULL,
         0x1824b159acc5056fULL}, /* R mod r */
        {0xc999e990f3f29c6dULL, 0x2b6cedcb87925c23ULL, 0x05d314967254398fULL,
         0x0748d9d99f59ff11ULL}, /* R^2 mod r */
        {~0ULL, ~0ULL, ~0ULL, 0x73eda753299d7d47ULL},
        {~0ULL, 0, ~0ULL, 0},
        {0, 0, 0, 1ULL << 62},
    };
    static const uint64_t below[][4] = {{1}, {2}, {0x100000001ULL}, {0, 1}};
    size_t k = 0;
    for (size_t i = 0; i < sizeof consts / sizeof consts[0]; i++)
        memcpy(fixed[k++], consts[i], sizeof consts[i]);
    for (size_t i = 0; i < sizeof below / sizeof below[0]; i++)
        mont_sub_raw(fixed[k++], cuzk_fr_modulus, below[i], 4);
    CHECK(k == FR_NFIXED);
}

CUZK_TEST(field_fr_adx_vs_portable)
{
#if !CUZK_FR_HAVE_ADX
    test_skip("the x86-64 mulx/adx back end is not built (needs x86-64 with -mbmi2 -madx)");
#else
    uint64_t fixed[FR_NFIXED][4];
    fr_fixed(fixed);
    const limb_backend bk = {
        4, cuzk_fr_modulus, cuzk__fr_mul_adx, cuzk_fr_mul_portable, cuzk__fr_sqr_adx, fr_rand_raw};
    check_vs_portable(&bk, fixed[0], FR_NFIXED, test_iters(10000) * 20);
#endif
}

/* Each Fr back end against GMP on raw limbs, out = a * b * 2^-256 mod r, on the edge values
 * (every pair) and on random ones; and the public cuzk_fr_mul / cuzk_fr_sqr, whichever back end
 * they use. */
#if CUZK_FR_HAVE_ADX
static void fr_sqr_adx_as_mul(uint64_t out[4], const uint64_t a[4], const uint64_t b[4])
{
    (void)b;
    cuzk__fr_sqr_adx(out, a);
}
#endif

static void fr_lib_mul(uint64_t out[4], const uint64_t a[4], const uint64_t b[4])
{
    cuzk_fr_t x, y, z;
    memcpy(x.l, a, sizeof x.l);
    memcpy(y.l, b, sizeof y.l);
    cuzk_fr_mul(&z, &x, &y);
    memcpy(out, z.l, sizeof z.l);
}

static void fr_lib_sqr(uint64_t out[4], const uint64_t a[4], const uint64_t b[4])
{
    (void)b;
    cuzk_fr_t x, z;
    memcpy(x.l, a, sizeof x.l);
    cuzk_fr_sqr(&z, &x);
    memcpy(out, z.l, sizeof z.l);
}

typedef void (*fr_mul_fn)(uint64_t out[4], const uint64_t a[4], const uint64_t b[4]);

static void fr_check_one(fr_mul_fn fn, const char *name, const uint64_t a[4], const uint64_t b[4],
                         mpz_t rmod, mpz_t rinv, unsigned long it)
{
    mpz_t za, zb, want, got;
    mpz_inits(za, zb, want, got, NULL);
    uint64_t out[4];
    memset(out, 0xa5, sizeof out); /* poisoned */
    fn(out, a, b);
    check_below_r(out);
    mpz_import(za, 4, -1, 8, 0, 0, a);
    mpz_import(zb, 4, -1, 8, 0, 0, b);
    mpz_import(got, 4, -1, 8, 0, 0, out);
    mpz_mul(want, za, zb);
    mpz_mul(want, want, rinv);
    mpz_mod(want, want, rmod);
    if (mpz_cmp(want, got) != 0) {
        char *s = NULL;
        gmp_asprintf(&s, "%s case %lu: a=%#Zx b=%#Zx want %#Zx got %#Zx", name, it, za, zb, want,
                     got);
        test_fail_at(__FILE__, __LINE__, "%s", s);
    }
    mpz_clears(za, zb, want, got, NULL);
}

static void fr_check_backend_vs_gmp(fr_mul_fn fn, bool square, const char *name)
{
    mpz_t rmod, rinv;
    mpz_inits(rmod, rinv, NULL);
    CHECK(mpz_set_str(rmod, FR_R_HEX, 16) == 0);
    mpz_ui_pow_ui(rinv, 2, 256);
    CHECK(mpz_invert(rinv, rinv, rmod));
    uint64_t fixed[FR_NFIXED][4];
    fr_fixed(fixed);
    for (size_t i = 0; i < FR_NFIXED; i++)
        for (size_t j = 0; j < FR_NFIXED; j++)
            if (!square || i == j)
                fr_check_one(fn, name, fixed[i], fixed[j], rmod, rinv, i * FR_NFIXED + j);
    for (unsigned long it = 0; it < test_iters(10000); it++) {
        uint64_t a[4], b[4];
        fr_rand_raw(a);
        if (square)
            memcpy(b, a, sizeof b);
        else
            fr_rand_raw(b);
        fr_check_one(fn, name, a, b, rmod, rinv, it);
    }
    mpz_clears(rmod, rinv, NULL);
}

CUZK_TEST(field_fr_mul_backends_vs_gmp)
{
    fr_check_backend_vs_gmp(cuzk_fr_mul_portable, false, "portable mul");
    fr_check_backend_vs_gmp(cuzk_fr_mul_portable, true, "portable mul (a == b)");
    fr_check_backend_vs_gmp(fr_lib_mul, false, "cuzk_fr_mul");
    fr_check_backend_vs_gmp(fr_lib_sqr, true, "cuzk_fr_sqr");
#if CUZK_FR_HAVE_ADX
    fr_check_backend_vs_gmp(cuzk__fr_mul_adx, false, "adx mul");
    fr_check_backend_vs_gmp(fr_sqr_adx_as_mul, true, "adx sqr");
#endif
}

/* cuzk_fr_add / cuzk_fr_sub / cuzk_fr_dbl (field/fr_inline.h's add/sub chains where built)
 * against GMP on the edge values (every pair) and random canonical ones; outputs poisoned. */
static void fr_check_addsub(const uint64_t a[4], const uint64_t b[4], mpz_t rmod, unsigned long it)
{
    cuzk_fr_t x, y, s, d, w;
    memcpy(x.l, a, sizeof x.l);
    memcpy(y.l, b, sizeof y.l);
    memset(&s, 0xa5, sizeof s);
    memset(&d, 0xa5, sizeof d);
    memset(&w, 0xa5, sizeof w);
    cuzk_fr_add(&s, &x, &y);
    cuzk_fr_sub(&d, &x, &y);
    cuzk_fr_dbl(&w, &x);
    mpz_t za, zb, want, got;
    mpz_inits(za, zb, want, got, NULL);
    mpz_import(za, 4, -1, 8, 0, 0, a);
    mpz_import(zb, 4, -1, 8, 0, 0, b);
    const cuzk_fr_t *outs[3] = {&s, &d, &w};
    for (int k = 0; k < 3; k++) {
        if (k == 0)
            mpz_add(want, za, zb);
        else if (k == 1)
            mpz_sub(want, za, zb);
        else
            mpz_add(want, za, za);
        mpz_mod(want, want, rmod); /* non-negative */
        mpz_import(got, 4, -1, 8, 0, 0, outs[k]->l);
        if (mpz_cmp(want, got) != 0) {
            char *m = NULL;
            static const char *const op[3] = {"add", "sub", "dbl"};
            gmp_asprintf(&m, "%s case %lu: a=%#Zx b=%#Zx want %#Zx got %#Zx", op[k], it, za, zb,
                         want, got);
            test_fail_at(__FILE__, __LINE__, "%s", m);
        }
    }
    mpz_clears(za, zb, want, got, NULL);
}

CUZK_TEST(field_fr_add_sub_vs_gmp)
{
    mpz_t rmod;
    mpz_init(rmod);
    CHECK(mpz_set_str(rmod, FR_R_HEX, 16) == 0);
    uint64_t fixed[FR_NFIXED][4];
    fr_fixed(fixed);
    for (size_t i = 0; i < FR_NFIXED; i++)
        for (size_t j = 0; j < FR_NFIXED; j++)
            fr_check_addsub(fixed[i], fixed[j], rmod, i * FR_NFIXED + j);
    for (unsigned long it = 0; it < test_iters(20000); it++) {
        uint64_t a[4], b[4];
        fr_rand_raw(a);
        fr_rand_raw(b);
        fr_check_addsub(a, b, rmod, it);
    }
    mpz_clear(rmod);
}

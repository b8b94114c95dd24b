/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * mont.cuh's even/odd squaring (sqr_eo) and its sums of two products with one reduction
 * (mul_sum, mul_diff) run on the host (tests/unit/gpu_sqr_eo_host*.cu, nvcc's host build with the
 * carry chains emulated), row loops unrolled and rolled, against a GMP Montgomery reduction: every
 * REDC of the same W gives the same (W + Q m) / R (Q is the unique value below R = 2^(32N) with
 * W + Q m = 0 mod R), so the lazy outputs must equal it bit for bit, which also checks the bound
 * comments (the value is below 2m); reduced outputs must equal it reduced mod m, and agree with
 * cuzk_fp_sqr / cuzk_fr_sqr / cuzk_fp_mul. Inputs: edge values (0, 1, m - 1, the lazy range
 * [m, 2m) up to 2m - 1, 2m for mul_sum's b and d, words of all ones) and fresh random ones (the
 * runner prints the seed). Needs no GPU; skipped without nvcc.
 */
#include "cuzk/alloc.h"
#include "cuzk/field.h"
#include "test.h"

#include <gmp.h>

/* Defined only when nvcc built tests/unit/gpu_sqr_eo_host*.cu (weak: absent in CUDA=0 builds). */
void cuzk__test_sqr_eo_host(int field, int op, int red, void *out, const void *a, const void *b,
                            const void *c, const void *d, size_t n) __attribute__((weak));
void cuzk__test_sqr_eo_host_roll(int field, int op, int red, void *out, const void *a,
                                 const void *b, const void *c, const void *d, size_t n)
    __attribute__((weak));

typedef void sq_fn(int, int, int, void *, const void *, const void *, const void *, const void *,
                   size_t);

static const uint64_t P[6] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,
                              0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
static const uint64_t R[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL,
                              0x73eda753299d7d48ULL};

/* The field under test: |n| limbs, modulus |m|, GMP copies of m, m^-1 mod 2^(64n) and 2^(64n). */
typedef struct {
    int n;
    const uint64_t *m;
    mpz_t zm, zminv, zr;
} fld;

static void fld_init(fld *f, const uint64_t *m, int n)
{
    f->n = n;
    f->m = m;
    mpz_inits(f->zm, f->zminv, f->zr, NULL);
    mpz_import(f->zm, n, -1, 8, 0, 0, m);
    mpz_setbit(f->zr, 64 * n);
    CHECK(mpz_invert(f->zminv, f->zm, f->zr));
}

static void fld_clear(fld *f)
{
    mpz_clears(f->zm, f->zminv, f->zr, NULL);
}

static void to_z(mpz_t z, const uint64_t *a, int n)
{
    mpz_import(z, n, -1, 8, 0, 0, a);
}

/* The n limbs of z (0 <= z < 2^(64n)). */
static void from_z(uint64_t *a, const mpz_t z, int n)
{
    size_t cnt = 0;
    CHECK(mpz_sizeinbase(z, 2) <= (size_t)64 * n);
    memset(a, 0, n * sizeof *a);
    mpz_export(a, &cnt, -1, 8, 0, 0, z);
}

/* out = (W + Q m) / R with Q = -W m^-1 mod R: what every Montgomery reduction of W returns
 * before its final subtraction. */
static void redc_ref(mpz_t out, const mpz_t w, const fld *f)
{
    mpz_t t;
    mpz_init(t);
    mpz_neg(t, w);
    mpz_mul(t, t, f->zminv);
    mpz_fdiv_r(t, t, f->zr); /* Q, in [0, R) */
    mpz_mul(t, t, f->zm);
    mpz_add(t, t, w);
    CHECK(mpz_divisible_2exp_p(t, 64 * f->n));
    mpz_fdiv_q_2exp(out, t, 64 * f->n);
    mpz_clear(t);
}

/* a < b on raw limbs */
static bool below(const uint64_t *a, const uint64_t *b, int n)
{
    for (int i = n - 1; i >= 0; i--)
        if (a[i] != b[i])
            return a[i] < b[i];
    return false;
}

/* out = a + b on raw limbs (no overflow by the caller's choice); returns out. */
static uint64_t *add_raw(uint64_t *out, const uint64_t *a, const uint64_t *b, int n)
{
    unsigned __int128 c = 0;
    for (int i = 0; i < n; i++) {
        c += (unsigned __int128)a[i] + b[i];
        out[i] = (uint64_t)c;
        c >>= 64;
    }
    return out;
}

/* out = a - b on raw limbs (a >= b). */
static void sub_raw(uint64_t *out, const uint64_t *a, const uint64_t *b, int n)
{
    uint64_t borrow = 0;
    for (int i = 0; i < n; i++) {
        unsigned __int128 d = (unsigned __int128)a[i] - b[i] - borrow;
        out[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
}

/* A raw value below |lim| (both n limbs). */
static void rand_below(uint64_t *out, const uint64_t *lim, int n)
{
    do {
        for (int i = 0; i < n; i++)
            out[i] = test_rand_u64();
        out[n - 1] &= ((uint64_t)1 << (64 - __builtin_clzll(lim[n - 1]))) - 1;
    } while (!below(out, lim, n));
}

/* Edge values of the field, |n| limbs each, into v (room for 96): 0, 1, 2, m - 1, m - 2,
 * m - 2^32, m - 2^64 + 1, R mod m and m minus it, the largest top limb with all ones below, and
 * random values with one 32-bit word all ones; with |lazy| also m, m + 1, 2m - 1, 2m - 2,
 * 2m - 2^32, m + (R mod m), 2m - (R mod m) and random values in [m, 2m) with a word of all ones. */
static size_t edge_values(uint64_t *v, const fld *f, const uint64_t *one, bool lazy)
{
    const int n = f->n;
    const uint64_t *m = f->m;
    uint64_t m2[6], t[6];
    add_raw(m2, m, m, n);
    size_t k = 0;
#define NEXT (v + (k++) * n)
    for (uint64_t s = 0; s < 3; s++) {
        uint64_t *x = NEXT;
        memset(x, 0, n * sizeof *x);
        x[0] = s;
    }
    static const uint64_t subs[] = {1, 2, (uint64_t)1 << 32, ~(uint64_t)0};
    for (size_t s = 0; s < sizeof subs / sizeof *subs; s++) {
        memset(t, 0, sizeof t);
        t[0] = subs[s];
        sub_raw(NEXT, m, t, n);
        if (lazy)
            sub_raw(NEXT, m2, t, n);
    }
    memcpy(NEXT, one, n * sizeof *one);
    sub_raw(NEXT, m, one, n);
    uint64_t *x = NEXT;
    for (int i = 0; i < n - 1; i++)
        x[i] = ~(uint64_t)0;
    x[n - 1] = m[n - 1] - 1;
    if (lazy) {
        memcpy(NEXT, m, n * sizeof *m);
        memset(t, 0, sizeof t);
        t[0] = 1;
        add_raw(NEXT, m, t, n);
        add_raw(NEXT, m, one, n);
        sub_raw(NEXT, m2, one, n);
    }
    for (int w = 0; w < 2 * n; w++) {
        x = NEXT;
        rand_below(x, m, n);
        x[w / 2] |= (uint64_t)0xffffffff << (32 * (w % 2));
        if (!below(x, m, n))
            x[n - 1] = 0;
        if (lazy) {
            x = NEXT;
            rand_below(t, m, n);
            add_raw(x, m, t, n);
            x[w / 2] |= (uint64_t)0xffffffff << (32 * (w % 2));
            if (!below(x, m2, n))
                x[n - 1] = m[n - 1]; /* a top word of all ones: in [2^(64(n-1)), 2m) instead */
        }
    }
#undef NEXT
    CHECK(k <= 96);
    return k;
}

/* The canonical value of a raw a <= 2m. */
static void canon(uint64_t *out, const uint64_t *a, const fld *f)
{
    memcpy(out, a, f->n * sizeof *a);
    while (!below(out, f->m, f->n))
        sub_raw(out, out, f->m, f->n);
}

/* Checks fn's op (0 sqr_eo, 1 mul_sum, 2 mul_diff, 3 mul_ka, 4 mul_sum_ka, 5 mul_diff_ka) at
 * both RED settings on the |cnt| inputs a, b, c, d (|f->n| limbs each) against the GMP reduction
 * of W (a^2, a b + c d, a b + c (2m - d) or a b), and the reduced output against |lib| (the
 * library's value, or NULL). */
static void check_op(sq_fn *fn, const char *name, const fld *f, int op, const uint64_t *a,
                     const uint64_t *b, const uint64_t *c, const uint64_t *d, size_t cnt,
                     const uint64_t *lib, uint64_t *got)
{
    const int n = f->n, field = n == 6;
    static const char *const ops[] = {"sqr_eo", "mul_sum",    "mul_diff",
                                      "mul_ka", "mul_sum_ka", "mul_diff_ka"};
    mpz_t w, t, u, ref;
    mpz_inits(w, t, u, ref, NULL);
    for (int red = 0; red <= 1; red++) {
        memset(got, 0xa5, cnt * n * sizeof *got);
        fn(field, op, red, got, a, b, c, d, cnt);
        for (size_t i = 0; i < cnt; i++) {
            const uint64_t *x = a + i * n, *y = b + i * n, *z = c + i * n, *v = d + i * n;
            to_z(t, x, n);
            if (op == 0) {
                mpz_mul(w, t, t);
            } else if (op == 3) {
                to_z(u, y, n);
                mpz_mul(w, t, u);
            } else {
                to_z(u, y, n);
                mpz_mul(w, t, u);
                to_z(t, z, n);
                to_z(u, v, n);
                if (op == 2 || op == 5) {
                    mpz_mul_2exp(ref, f->zm, 1);
                    mpz_sub(u, ref, u);
                }
                mpz_addmul(w, t, u);
            }
            redc_ref(ref, w, f);
            mpz_mul_2exp(t, f->zm, 1);
            CHECK_MSG(mpz_cmp(ref, t) < 0, "%s: %s input %zu: W R^-1 not below 2m (bound)", name,
                      ops[op], i);
            if (red && mpz_cmp(ref, f->zm) >= 0)
                mpz_sub(ref, ref, f->zm);
            uint64_t want[6];
            from_z(want, ref, n);
            CHECK_MSG(memcmp(want, got + i * n, n * sizeof *want) == 0,
                      "%s: %s (%s, %s) differs at input %zu: a = %016llx.. got %016llx.. want "
                      "%016llx..",
                      name, ops[op], field ? "Fp" : "Fr", red ? "reduced" : "lazy", i,
                      (unsigned long long)x[n - 1], (unsigned long long)got[i * n + n - 1],
                      (unsigned long long)want[n - 1]);
            if (red && lib)
                CHECK_MSG(memcmp(lib + i * n, got + i * n, n * sizeof *got) == 0,
                          "%s: %s differs from the library at input %zu", name, ops[op], i);
        }
    }
    mpz_clears(w, t, u, ref, NULL);
}

/* Inputs of a product test into a, b (n limbs each, below |lim|): every pair of the |ne| edge
 * values e, |nr| random pairs, and |nr| / 4 pairs whose first value has equal halves (the
 * Karatsuba difference a0 - a1 is 0) or halves one word apart; returns the count. */
static size_t pairs(uint64_t *a, uint64_t *b, const uint64_t *e, size_t ne, const uint64_t *lim,
                    int n, size_t nr, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < ne; i++)
        for (size_t j = 0; j < ne; j++, k++) {
            memcpy(a + n * k, e + n * i, n * sizeof *a);
            memcpy(b + n * k, e + n * j, n * sizeof *b);
        }
    for (size_t i = 0; i < nr; i++, k++) {
        rand_below(a + n * k, lim, n);
        rand_below(b + n * k, lim, n);
    }
    for (size_t i = 0; i < nr / 4; i++, k++) {
        uint64_t *x = a + n * k;
        rand_below(x, lim, n);
        memcpy(x, x + n / 2, n / 2 * sizeof *x); /* low half = high half (below lim: smaller) */
        if (i % 2)
            x[i / 2 % (n / 2)] ^= (uint64_t)1 << (i % 64);
        if (!below(x, lim, n))
            x[n - 1] = 0;
        rand_below(b + n * k, lim, n);
        if (i % 3 == 0)
            memcpy(b + n * k, x, n * sizeof *x);
    }
    CHECK(k <= cap);
    return k;
}

static void check_fn(sq_fn *fn, const char *name)
{
    enum { E = 96 };
    const size_t nr = test_iters(1) * 20000, cap = E * E * 4 + 2 * nr;
    uint64_t *a = cuzk_alloc_array(6 * 6 * cap, sizeof *a), *b = a + 6 * cap, *c = b + 6 * cap,
             *d = c + 6 * cap, *lib = d + 6 * cap, *got = lib + 6 * cap;
    uint64_t *e = cuzk_alloc_array(6 * E, sizeof *e);
    CHECK(a && e);
    fld fr, fp;
    fld_init(&fr, R, 4);
    fld_init(&fp, P, 6);

    /* Fr squaring: inputs below r (Fr has no lazy form: 4r > 2^256). */
    cuzk_fr_t one_r;
    cuzk_fr_set_one(&one_r);
    size_t ne = edge_values(e, &fr, one_r.l, false), k = 0;
    for (size_t i = 0; i < ne; i++, k++)
        memcpy(a + 4 * k, e + 4 * i, 4 * sizeof *a);
    for (size_t i = 0; i < nr; i++, k++)
        rand_below(a + 4 * k, R, 4);
    for (size_t i = 0; i < k; i++)
        cuzk_fr_sqr((cuzk_fr_t *)(lib + 4 * i), (const cuzk_fr_t *)(a + 4 * i));
    check_op(fn, name, &fr, 0, a, a, a, a, k, lib, got);
    /* Fr Karatsuba product: every pair of edge values, then random pairs and values whose two
     * halves are equal (|a0 - a1| = 0) or differ in one word only */
    k = pairs(a, b, e, ne, R, 4, nr, cap);
    for (size_t i = 0; i < k; i++)
        cuzk_fr_mul((cuzk_fr_t *)(lib + 4 * i), (const cuzk_fr_t *)(a + 4 * i),
                    (const cuzk_fr_t *)(b + 4 * i));
    check_op(fn, name, &fr, 3, a, b, a, a, k, lib, got);

    /* Fp squaring: inputs below 2p (the lazy form), half of the random ones below p. */
    cuzk_fp_t one_p;
    cuzk_fp_set_one(&one_p);
    uint64_t p2[6];
    add_raw(p2, P, P, 6);
    ne = edge_values(e, &fp, one_p.l, true);
    k = 0;
    for (size_t i = 0; i < ne; i++, k++)
        memcpy(a + 6 * k, e + 6 * i, 6 * sizeof *a);
    for (size_t i = 0; i < nr; i++, k++)
        rand_below(a + 6 * k, i % 2 ? P : p2, 6);
    for (size_t i = 0; i < k; i++) {
        uint64_t x[6];
        canon(x, a + 6 * i, &fp);
        cuzk_fp_sqr((cuzk_fp_t *)(lib + 6 * i), (const cuzk_fp_t *)x);
    }
    check_op(fn, name, &fp, 0, a, a, a, a, k, lib, got);
    /* Fp Karatsuba product: lazy inputs below 2p, as pairs() makes them */
    k = pairs(a, b, e, ne, p2, 6, nr, cap);
    for (size_t i = 0; i < k; i++) {
        cuzk_fp_t x, y;
        canon(x.l, a + 6 * i, &fp);
        canon(y.l, b + 6 * i, &fp);
        cuzk_fp_mul((cuzk_fp_t *)(lib + 6 * i), &x, &y);
    }
    check_op(fn, name, &fp, 3, a, b, a, a, k, lib, got);

    /* Fp sums: every pair (x, y) of edge values as (x, y, y, x), (x, y, random, random) and
     * (random, random, x, y); b and d also 2p (mul_sum allows it); then random quadruples. */
    k = 0;
    for (size_t i = 0; i < ne; i++)
        for (size_t j = 0; j < ne; j++)
            for (int s = 0; s < 3; s++, k++) {
                const uint64_t *x = e + 6 * i, *y = e + 6 * j;
                uint64_t *q[4] = {a + 6 * k, b + 6 * k, c + 6 * k, d + 6 * k};
                for (int t = 0; t < 4; t++)
                    rand_below(q[t], p2, 6);
                if (s == 0) {
                    memcpy(q[0], x, 48);
                    memcpy(q[1], y, 48);
                    memcpy(q[2], y, 48);
                    memcpy(q[3], x, 48);
                } else {
                    memcpy(q[s == 1 ? 0 : 2], x, 48);
                    memcpy(q[s == 1 ? 1 : 3], y, 48);
                }
            }
    for (size_t i = 0; i < ne; i++, k++) {
        memcpy(a + 6 * k, e + 6 * i, 48);
        memcpy(b + 6 * k, p2, 48);
        memcpy(c + 6 * k, e + 6 * (ne - 1 - i), 48);
        memcpy(d + 6 * k, p2, 48);
    }
    for (size_t i = 0; i < nr; i++, k++) {
        rand_below(a + 6 * k, p2, 6);
        rand_below(b + 6 * k, p2, 6);
        rand_below(c + 6 * k, p2, 6);
        rand_below(d + 6 * k, p2, 6);
    }
    CHECK(k <= cap);
    /* mul_sum: the library's a b + c d on the canonical values */
    for (size_t i = 0; i < k; i++) {
        cuzk_fp_t x, y, z, w;
        canon(x.l, a + 6 * i, &fp);
        canon(y.l, b + 6 * i, &fp);
        canon(z.l, c + 6 * i, &fp);
        canon(w.l, d + 6 * i, &fp);
        cuzk_fp_mul(&x, &x, &y);
        cuzk_fp_mul(&z, &z, &w);
        cuzk_fp_add((cuzk_fp_t *)(lib + 6 * i), &x, &z);
    }
    bool has_2p = false;
    for (size_t i = 0; i < k && !has_2p; i++)
        has_2p = !below(b + 6 * i, p2, 6) || !below(d + 6 * i, p2, 6);
    CHECK(has_2p);
    check_op(fn, name, &fp, 1, a, b, c, d, k, lib, got);
    check_op(fn, name, &fp, 4, a, b, c, d, k, lib, got);
    /* mul_diff: d < 2p (d = 2p, mul_sum's extra case, becomes 0) */
    for (size_t i = 0; i < k; i++) {
        if (!below(d + 6 * i, p2, 6))
            memset(d + 6 * i, 0, 48);
        cuzk_fp_t x, y, z, w;
        canon(x.l, a + 6 * i, &fp);
        canon(y.l, b + 6 * i, &fp);
        canon(z.l, c + 6 * i, &fp);
        canon(w.l, d + 6 * i, &fp);
        cuzk_fp_mul(&x, &x, &y);
        cuzk_fp_mul(&z, &z, &w);
        cuzk_fp_sub((cuzk_fp_t *)(lib + 6 * i), &x, &z);
    }
    check_op(fn, name, &fp, 2, a, b, c, d, k, lib, got);
    check_op(fn, name, &fp, 5, a, b, c, d, k, lib, got);

    fld_clear(&fr);
    fld_clear(&fp);
    cuzk_free(e);
    cuzk_free(a);
}

CUZK_TEST(gpu_sqr_eo_host)
{
    if (!cuzk__test_sqr_eo_host || !cuzk__test_sqr_eo_host_roll)
        test_skip("built without nvcc (CUDA=0): no host build of the device field code");
    check_fn(cuzk__test_sqr_eo_host, "unrolled");
    check_fn(cuzk__test_sqr_eo_host_roll, "rolled");
}

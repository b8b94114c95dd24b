/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * mont.cuh's even/odd multiplication (variant 7, mul_eo) run on the host (tests/unit/
 * gpu_mul_eo_host*.cu, nvcc's host build with the carry chains emulated) against cuzk_fp_mul and
 * cuzk_fr_mul, limb for limb, with the row loop unrolled and rolled. The lazy form (Fp, inputs and
 * output in [0, 2p)) must also equal the carry-chain variant 3's lazy output bit for bit: both
 * are the same CIOS, so they pick the same quotient words. Needs no GPU; skipped without nvcc.
 */
#include "cuzk/alloc.h"
#include "cuzk/field.h"
#include "test.h"

/* Defined only when nvcc built tests/unit/gpu_mul_eo_host*.cu (weak: absent in CUDA=0 builds). */
void cuzk__test_mul_eo_host(int field, int eo, int red, void *out, const void *a, const void *b,
                            size_t n) __attribute__((weak));
void cuzk__test_mul_eo_host_roll(int field, int eo, int red, void *out, const void *a,
                                 const void *b, size_t n) __attribute__((weak));

typedef void mul_fn(int, int, int, void *, const void *, const void *, size_t);

static const uint64_t P[6] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,
                              0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
static const uint64_t R[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL,
                              0x73eda753299d7d48ULL};

/* a < m on raw limbs */
static bool below(const uint64_t *a, const uint64_t *m, int n)
{
    for (int i = n - 1; i >= 0; i--)
        if (a[i] != m[i])
            return a[i] < m[i];
    return false;
}

/* out = a + k m (k = 1) or a - m (k = -1) on raw limbs, no overflow by the caller's choice. */
static void add_m(uint64_t *out, const uint64_t *a, const uint64_t *m, int n, int k)
{
    unsigned __int128 c = 0;
    uint64_t borrow = 0;
    for (int i = 0; i < n; i++) {
        if (k > 0) {
            c += (unsigned __int128)a[i] + m[i];
            out[i] = (uint64_t)c;
            c >>= 64;
        } else {
            unsigned __int128 d = (unsigned __int128)a[i] - m[i] - borrow;
            out[i] = (uint64_t)d;
            borrow = (uint64_t)(d >> 64) & 1;
        }
    }
}

/* A raw value < m (any value < m is a Montgomery form). */
static void rand_below(uint64_t *out, const uint64_t *m, int n)
{
    do {
        for (int i = 0; i < n; i++)
            out[i] = test_rand_u64();
        out[n - 1] &= ((uint64_t)1 << (64 - __builtin_clzll(m[n - 1]))) - 1;
    } while (!below(out, m, n));
}

/* Edge values below m: 0, 1, 2, m - 1 .. m - 4, m - 2^32, m - 2^64 + 1, R mod m and its negation,
 * low limbs of all ones / 2^32 / m's own, the largest top limb with the rest all ones, and
 * random values with word patterns that make a row's quotient word 0 or 2^32 - 1. */
static size_t edge_values(uint64_t *v, const uint64_t *m, int n, const uint64_t *one)
{
    size_t k = 0;
#define NEXT (v + (k++) * n)
    static const uint64_t small[] = {0, 1, 2};
    for (size_t s = 0; s < 3; s++) {
        uint64_t *x = NEXT;
        memset(x, 0, n * sizeof *x);
        x[0] = small[s];
    }
    static const uint64_t sub[] = {1, 2, 3, 4, (uint64_t)1 << 32, ~(uint64_t)0};
    for (size_t s = 0; s < sizeof sub / sizeof *sub; s++) {
        uint64_t *x = NEXT, t[6] = {0};
        t[0] = sub[s];
        add_m(x, m, t, n, -1);
    }
    memcpy(NEXT, one, n * sizeof *one);
    add_m(NEXT, m, one, n, -1);
    static const uint64_t lows[] = {~(uint64_t)0, 0xffffffffULL, 0x100000000ULL,
                                    0xffffffff00000000ULL, 0x8000000000000000ULL};
    for (size_t s = 0; s < sizeof lows / sizeof *lows; s++) {
        uint64_t *x = NEXT;
        rand_below(x, m, n);
        x[0] = lows[s];
    }
    uint64_t *x = NEXT;
    memcpy(x, m, n * sizeof *x);
    x[0] = 0;
    x = NEXT;
    for (int i = 0; i < n - 1; i++)
        x[i] = ~(uint64_t)0;
    x[n - 1] = m[n - 1] - 1;
    x = NEXT;
    memset(x, 0, n * sizeof *x);
    x[n - 1] = m[n - 1] - 1;
    for (int w = 0; w < 2 * n; w++) { /* one 32-bit word all ones, the rest random */
        x = NEXT;
        rand_below(x, m, n);
        x[w / 2] |= (uint64_t)0xffffffff << (32 * (w % 2));
        if (!below(x, m, n))
            x[n - 1] = 0;
    }
#undef NEXT
    return k;
}

/* Every pair of the |ne| edge values, each edge value against 16 random ones both ways, then
 * |nr| random pairs; |n| limbs per value. Returns the count, fills a and b. */
static size_t inputs(uint64_t *a, uint64_t *b, const uint64_t *e, size_t ne, size_t nr,
                     const uint64_t *m, int n)
{
    size_t k = 0;
    for (size_t i = 0; i < ne; i++)
        for (size_t j = 0; j < ne; j++, k++) {
            memcpy(a + k * n, e + i * n, n * sizeof *a);
            memcpy(b + k * n, e + j * n, n * sizeof *b);
        }
    for (size_t i = 0; i < ne; i++)
        for (int j = 0; j < 16; j++, k += 2) {
            memcpy(a + k * n, e + i * n, n * sizeof *a);
            memcpy(b + (k + 1) * n, e + i * n, n * sizeof *b);
            rand_below(b + k * n, m, n);
            rand_below(a + (k + 1) * n, m, n);
        }
    for (size_t i = 0; i < nr; i++, k++) {
        rand_below(a + k * n, m, n);
        rand_below(b + k * n, m, n);
    }
    return k;
}

static void check_fn(mul_fn *fn, const char *name)
{
    enum { E = 48 };
    const size_t nr = test_iters(1) * 20000, cap = E * E + 2 * 16 * E + nr;
    uint64_t *a = cuzk_alloc_array(5 * 6 * cap, sizeof *a), *b = a + 6 * cap, *want = b + 6 * cap,
             *got = want + 6 * cap, *ref = got + 6 * cap;
    uint64_t *e = cuzk_alloc_array(6 * E, sizeof *e);
    CHECK(a && e);

    /* Fr: inputs below r, result canonical. */
    cuzk_fr_t one_r;
    cuzk_fr_set_one(&one_r);
    size_t ne = edge_values(e, R, 4, one_r.l);
    CHECK(ne <= E);
    size_t n = inputs(a, b, e, ne, nr, R, 4);
    CHECK(n <= cap);
    for (size_t i = 0; i < n; i++)
        cuzk_fr_mul((cuzk_fr_t *)(want + 4 * i), (const cuzk_fr_t *)(a + 4 * i),
                    (const cuzk_fr_t *)(b + 4 * i));
    memset(got, 0xa5, n * 4 * sizeof *got);
    fn(0, 1, 1, got, a, b, n);
    for (size_t i = 0; i < n; i++)
        CHECK_MSG(memcmp(want + 4 * i, got + 4 * i, 4 * sizeof *got) == 0,
                  "%s: Fr mul_eo differs at input %zu: a = %016llx.. b = %016llx..", name, i,
                  (unsigned long long)a[4 * i + 3], (unsigned long long)b[4 * i + 3]);

    /* Fp, reduced: inputs below p, result canonical. */
    cuzk_fp_t one_p;
    cuzk_fp_set_one(&one_p);
    ne = edge_values(e, P, 6, one_p.l);
    CHECK(ne <= E);
    n = inputs(a, b, e, ne, nr, P, 6);
    CHECK(n <= cap);
    for (size_t i = 0; i < n; i++)
        cuzk_fp_mul((cuzk_fp_t *)(want + 6 * i), (const cuzk_fp_t *)(a + 6 * i),
                    (const cuzk_fp_t *)(b + 6 * i));
    memset(got, 0xa5, n * 6 * sizeof *got);
    fn(1, 1, 1, got, a, b, n);
    for (size_t i = 0; i < n; i++)
        CHECK_MSG(memcmp(want + 6 * i, got + 6 * i, 6 * sizeof *got) == 0,
                  "%s: Fp mul_eo differs at input %zu: a = %016llx.. b = %016llx..", name, i,
                  (unsigned long long)a[6 * i + 5], (unsigned long long)b[6 * i + 5]);

    /* Fp, lazy: the same pairs with p added to a, to b or to both by input index (values in
     * [p, 2p), up to 2p - 1); output below 2p, congruent to the product, equal to mul_chain's. */
    for (size_t i = 0; i < n; i++) {
        if (i % 4 == 1 || i % 4 == 3)
            add_m(a + 6 * i, a + 6 * i, P, 6, 1);
        if (i % 4 >= 2)
            add_m(b + 6 * i, b + 6 * i, P, 6, 1);
    }
    uint64_t p2[6];
    add_m(p2, P, P, 6, 1);
    memset(got, 0xa5, n * 6 * sizeof *got);
    memset(ref, 0x5a, n * 6 * sizeof *ref);
    fn(1, 1, 0, got, a, b, n);
    fn(1, 0, 0, ref, a, b, n);
    for (size_t i = 0; i < n; i++) {
        uint64_t *g = got + 6 * i, c[6];
        CHECK_MSG(memcmp(g, ref + 6 * i, 6 * sizeof *g) == 0,
                  "%s: lazy Fp mul_eo differs from mul_chain at input %zu", name, i);
        CHECK_MSG(below(g, p2, 6), "%s: lazy Fp mul_eo output %zu not below 2p", name, i);
        memcpy(c, g, sizeof c);
        if (!below(c, P, 6))
            add_m(c, c, P, 6, -1);
        CHECK_MSG(memcmp(want + 6 * i, c, sizeof c) == 0,
                  "%s: lazy Fp mul_eo differs at input %zu: a = %016llx.. b = %016llx..", name, i,
                  (unsigned long long)a[6 * i + 5], (unsigned long long)b[6 * i + 5]);
    }
    cuzk_free(e);
    cuzk_free(a);
}

CUZK_TEST(gpu_mul_eo_host)
{
    if (!cuzk__test_mul_eo_host || !cuzk__test_mul_eo_host_roll)
        test_skip("built without nvcc (CUDA=0): no host build of the device multiplications");
    check_fn(cuzk__test_mul_eo_host, "unrolled");
    check_fn(cuzk__test_mul_eo_host_roll, "rolled");
}

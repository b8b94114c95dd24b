/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Evaluation domains, NTTs and the H step (src/poly): published roots (formats.md 1), a naive
 * O(n^2) DFT for every size up to 2^10, every four-step split against the direct path, round
 * trips, threads, satisfied random systems, and snarkjs's own h scalars (fixtures/snarkjs). */
#include "test.h"
#include "test_fr.h"
#include "cuzk/alloc.h"
#include "cuzk/poly.h"
#include "poly/poly_internal.h"

#include <time.h>

/* ---- helpers ------------------------------------------------------------------------------- */

static void rand_vec(cuzk_fr_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        test_rand_fr(&v[i]);
}

static cuzk_fr_t *vec_alloc(size_t n)
{
    cuzk_fr_t *v = cuzk_alloc_array(n ? n : 1, sizeof *v);
    CHECK(v != NULL);
    return v;
}

/* A big-endian hex constant of formats.md as an Fr element. */
static void fr_from_hex(cuzk_fr_t *out, const char *hex)
{
    uint8_t be[32], le[32];
    CHECK(test_unhex(be, 32, hex));
    for (int i = 0; i < 32; i++)
        le[i] = be[31 - i];
    CHECK(cuzk_fr_from_bytes_le(out, le) == CUZK_OK);
}

static void fr_pow_u64(cuzk_fr_t *out, const cuzk_fr_t *a, uint64_t e)
{
    cuzk_fr_pow(out, a, &e, 1);
}

/* p(x) for coefficients p[0..n). */
static void horner(cuzk_fr_t *out, const cuzk_fr_t *p, size_t n, const cuzk_fr_t *x)
{
    cuzk_fr_set_zero(out);
    for (size_t i = n; i-- > 0;) {
        cuzk_fr_mul(out, out, x);
        cuzk_fr_add(out, out, &p[i]);
    }
}

/* out[i] = sum_k in[k] * (shift * w^i)^k: the definition of the (coset) DFT. */
static void naive_dft(cuzk_fr_t *out, const cuzk_fr_t *in, size_t n, const cuzk_fr_t *w,
                      const cuzk_fr_t *shift)
{
    cuzk_fr_t x = *shift;
    for (size_t i = 0; i < n; i++) {
        horner(&out[i], in, n, &x);
        cuzk_fr_mul(&x, &x, w);
    }
}

static bool vec_eq(const cuzk_fr_t *a, const cuzk_fr_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!cuzk_fr_eq(&a[i], &b[i]))
            return false;
    return true;
}

static cuzk_domain *domain(size_t n, cuzk_roots roots)
{
    cuzk_domain *d = NULL;
    CHECK(cuzk_domain_create(&d, n, roots) == CUZK_OK);
    CHECK(d != NULL);
    return d;
}

static const cuzk_roots families[2] = {CUZK_ROOTS_BELLPERSON, CUZK_ROOTS_SNARKJS};

/* ---- the inlined Fr arithmetic of src/poly against the library's ------------------------- */

CUZK_TEST(poly_inline_fr_matches_field)
{
    /* Edge values (0, 1, 2, r - 1, r - 2, 2^64 - 1, values with all-ones or all-zero limbs below
     * r) and random ones; every pair, both orders, outputs aliasing inputs. */
    enum { E = 12 };
    cuzk_fr_t v[E + 64];
    static const uint64_t raw[E][4] = {
        {0, 0, 0, 0},
        {1, 0, 0, 0},
        {2, 0, 0, 0},
        {0xffffffff00000000ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL,
         0x73eda753299d7d48ULL},
        {0xfffffffeffffffffULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL,
         0x73eda753299d7d48ULL},
        {~0ULL, 0, 0, 0},
        {~0ULL, ~0ULL, ~0ULL, 0},
        {0, 0, 0, 0x7000000000000000ULL},
        {~0ULL, ~0ULL, ~0ULL, 0x73eda753299d7d47ULL},
        {0, 0, 0, 1},
        {0xffffffff00000001ULL, 0, 0, 0},
        {0x00000000ffffffffULL, 0x53bda402fffe5bfeULL, 0, 0x73eda753299d7d48ULL},
    };
    for (int i = 0; i < E; i++)
        CHECK(cuzk_fr_from_canonical(&v[i], raw[i]));
    for (int i = E; i < E + 64; i++)
        test_rand_fr(&v[i]);
    for (int i = 0; i < E + 64; i++) {
        for (int j = 0; j < E + 64; j++) {
            cuzk_fr_t want, got, t;
            cuzk_fr_mul(&want, &v[i], &v[j]);
            poly_mul(&got, &v[i], &v[j]);
            CHECK_MSG(cuzk_fr_eq(&got, &want), "mul %d %d", i, j);
            t = v[i];
            poly_mul(&t, &t, &v[j]);
            CHECK(cuzk_fr_eq(&t, &want));
            t = v[j];
            poly_mul(&t, &v[i], &t);
            CHECK(cuzk_fr_eq(&t, &want));
            cuzk_fr_add(&want, &v[i], &v[j]);
            poly_add(&got, &v[i], &v[j]);
            CHECK_MSG(cuzk_fr_eq(&got, &want), "add %d %d", i, j);
            t = v[j];
            poly_add(&t, &v[i], &t);
            CHECK(cuzk_fr_eq(&t, &want));
            cuzk_fr_sub(&want, &v[i], &v[j]);
            poly_sub(&got, &v[i], &v[j]);
            CHECK_MSG(cuzk_fr_eq(&got, &want), "sub %d %d", i, j);
            t = v[j];
            poly_sub(&t, &v[i], &t);
            CHECK(cuzk_fr_eq(&t, &want));
        }
    }
    printf("# inline Fr arithmetic: %s\n", CUZK_POLY_FR_ASM ? "x86-64 asm" : "portable");
}

/* ---- domains ------------------------------------------------------------------------------- */

CUZK_TEST(poly_domain_published_roots)
{
    static const struct {
        cuzk_roots roots;
        unsigned log_n;
        const char *omega;
    } known[] = {
        {CUZK_ROOTS_BELLPERSON, 12,
         "564c0a11a0f704f4fc3e8acfe0f8245f0ad1347b378fbf96e206da11a5d36306"},
        {CUZK_ROOTS_BELLPERSON, 16,
         "2155379d12180caa88f39a78f1aeb57867a665ae1fcadc91d7118f85cd96b8ad"},
        {CUZK_ROOTS_BELLPERSON, 27,
         "23397a9300f8f98bece8ea224f31d25db94f1101b1d7a628e2d0a7869f0319ed"},
        {CUZK_ROOTS_SNARKJS, 12,
         "110cebd0c8e9101be155cb4893f9e9ac565af17137d56fc0450d9f977ea8ee05"},
        {CUZK_ROOTS_SNARKJS, 13,
         "0ac00eb8b3f7f8da70491431cab3c3cc87d188ce7a02775923c9159959a0be92"},
        {CUZK_ROOTS_SNARKJS, 16,
         "6709c6cd56aa725b0409ee987a02402c0caba63a29c01b06137b458acfc35f7a"},
        {CUZK_ROOTS_SNARKJS, 17,
         "05deb333f8727901ebe905bd4fb9ac5c77d85a937ff858ec10251f7d8831e03e"},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        cuzk_domain *d = domain((size_t)1 << known[i].log_n, known[i].roots);
        CHECK(cuzk_domain_log_size(d) == known[i].log_n);
        cuzk_fr_t w, want;
        cuzk_domain_omega(d, &w);
        fr_from_hex(&want, known[i].omega);
        CHECK_MSG(cuzk_fr_eq(&w, &want), "family %d, 2^%u", (int)known[i].roots, known[i].log_n);
        cuzk_domain_destroy(d);
    }

    /* The 2^32-th roots of both families: squared four times they give omega of 2^28. */
    static const char *root32[2] = {
        "16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b",
        "0212d79e5b416b6f0fd56dc8d168d6c0c4024ff270b3e0941b788f500b912f1f"};
    for (int f = 0; f < 2; f++) {
        cuzk_domain *d = domain((size_t)1 << 28, families[f]);
        cuzk_fr_t r, w;
        fr_from_hex(&r, root32[f]);
        for (int k = 0; k < 4; k++)
            cuzk_fr_sqr(&r, &r);
        cuzk_domain_omega(d, &w);
        CHECK(cuzk_fr_eq(&r, &w));
        cuzk_domain_destroy(d);
    }

    /* Z on bellperson's coset for n = 2^27: 7^(2^27) - 1; creating that domain is fast. */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cuzk_domain *d = domain((size_t)1 << 27, CUZK_ROOTS_BELLPERSON);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    printf("# 2^27 domain created in %.2f ms\n", ms);
    CHECK_MSG(ms < 1000, "creating a 2^27 domain took %.0f ms", ms);
    cuzk_fr_t z, want;
    cuzk_domain_coset_z(d, &z);
    fr_from_hex(&want, "2a98b3de1e8d05396c576a792ed0dd3cafe4f76895ae53bfade986863f8b7152");
    CHECK(cuzk_fr_eq(&z, &want));
    cuzk_domain_destroy(d);
}

CUZK_TEST(poly_domain_orders_and_cosets)
{
    cuzk_fr_t one, minus_one, seven, minus_two;
    cuzk_fr_set_one(&one);
    cuzk_fr_neg(&minus_one, &one);
    cuzk_fr_set_u64(&seven, 7);
    cuzk_fr_set_u64(&minus_two, 2);
    cuzk_fr_neg(&minus_two, &minus_two);
    for (int f = 0; f < 2; f++) {
        for (unsigned l = 0; l <= CUZK_DOMAIN_MAX_LOG; l++) {
            cuzk_domain *d = domain((size_t)1 << l, families[f]);
            CHECK(cuzk_domain_size(d) == (size_t)1 << l);
            cuzk_fr_t w, g, z, t;
            cuzk_domain_omega(d, &w);
            cuzk_domain_coset_gen(d, &g);
            cuzk_domain_coset_z(d, &z);
            /* omega has order exactly 2^l */
            t = w;
            for (unsigned k = 0; k + 1 < l; k++)
                cuzk_fr_sqr(&t, &t);
            if (l > 0) {
                CHECK_MSG(cuzk_fr_eq(&t, &minus_one), "family %d 2^%u", f, l);
                cuzk_fr_sqr(&t, &t);
            }
            CHECK(cuzk_fr_is_one(&t));
            if (families[f] == CUZK_ROOTS_BELLPERSON) {
                CHECK(cuzk_fr_eq(&g, &seven));
            } else {
                /* omega_2n: its square is omega and Z = g^n - 1 = -2 (formats.md 4.6) */
                cuzk_fr_sqr(&t, &g);
                CHECK(cuzk_fr_eq(&t, &w));
                CHECK(cuzk_fr_eq(&z, &minus_two));
            }
            /* z = g^n - 1 */
            fr_pow_u64(&t, &g, (uint64_t)1 << l);
            cuzk_fr_sub(&t, &t, &one);
            CHECK(cuzk_fr_eq(&t, &z));
            cuzk_domain_destroy(d);
        }
    }
    /* sizes round up; bad arguments fail and leave *out NULL */
    static const size_t sizes[][2] = {{0, 1}, {1, 1}, {2, 2}, {3, 4}, {5, 8}, {1025, 2048}};
    for (size_t i = 0; i < 6; i++) {
        cuzk_domain *d = domain(sizes[i][0], CUZK_ROOTS_SNARKJS);
        CHECK(cuzk_domain_size(d) == sizes[i][1]);
        cuzk_domain_destroy(d);
    }
    cuzk_domain *d = (cuzk_domain *)&one;
    CHECK(cuzk_domain_create(&d, ((size_t)1 << 28) + 1, CUZK_ROOTS_BELLPERSON) ==
          CUZK_ERR_INVALID_ARG);
    CHECK(d == NULL);
    d = (cuzk_domain *)&one;
    CHECK(cuzk_domain_create(&d, 16, (cuzk_roots)7) == CUZK_ERR_INVALID_ARG);
    CHECK(d == NULL);
    CHECK(cuzk__domain_create_split(&d, 10, CUZK_ROOTS_SNARKJS, 10, 1) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk__domain_create_split(&d, 10, CUZK_ROOTS_SNARKJS, 4, 3) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk__domain_create_split(&d, 10, CUZK_ROOTS_SNARKJS, 0, 2) == CUZK_ERR_INVALID_ARG);
    cuzk_domain_destroy(NULL);
}

/* ---- transforms against the definition ----------------------------------------------------- */

CUZK_TEST(poly_ntt_matches_naive_dft_every_size)
{
    for (int f = 0; f < 2; f++) {
        for (unsigned l = 0; l <= 10; l++) {
            size_t n = (size_t)1 << l;
            cuzk_domain *d = domain(n, families[f]);
            cuzk_fr_t *a = vec_alloc(n), *x = vec_alloc(n), *want = vec_alloc(n);
            cuzk_fr_t w, w_inv, g, one, n_inv;
            cuzk_domain_omega(d, &w);
            cuzk_fr_inv(&w_inv, &w);
            cuzk_domain_coset_gen(d, &g);
            cuzk_fr_set_one(&one);
            cuzk_fr_set_u64(&n_inv, n);
            cuzk_fr_inv(&n_inv, &n_inv);
            rand_vec(a, n);

            memcpy(x, a, n * sizeof *x);
            cuzk_ntt(d, x, NULL);
            naive_dft(want, a, n, &w, &one);
            CHECK_MSG(vec_eq(x, want, n), "ntt, family %d, 2^%u", f, l);
            cuzk_intt(d, x, NULL);
            CHECK_MSG(vec_eq(x, a, n), "intt(ntt), family %d, 2^%u", f, l);

            /* intt = (1/n) * DFT with omega^-1 */
            cuzk_intt(d, x, NULL);
            naive_dft(want, a, n, &w_inv, &one);
            for (size_t i = 0; i < n; i++)
                cuzk_fr_mul(&want[i], &want[i], &n_inv);
            CHECK_MSG(vec_eq(x, want, n), "intt, family %d, 2^%u", f, l);

            /* coset_ntt evaluates the polynomial at g * omega^i */
            memcpy(x, a, n * sizeof *x);
            cuzk_coset_ntt(d, x, NULL);
            naive_dft(want, a, n, &w, &g);
            CHECK_MSG(vec_eq(x, want, n), "coset_ntt, family %d, 2^%u", f, l);
            cuzk_coset_intt(d, x, NULL);
            CHECK_MSG(vec_eq(x, a, n), "coset_intt(coset_ntt), family %d, 2^%u", f, l);

            cuzk_free(a);
            cuzk_free(x);
            cuzk_free(want);
            cuzk_domain_destroy(d);
        }
    }
}

/* One vector through every public transform and the H step; |out| gets 6 vectors of n. */
static void all_transforms(cuzk_fr_t *out, const cuzk_domain *d, const cuzk_fr_t *in,
                           cuzk_pool *pool)
{
    size_t n = cuzk_domain_size(d);
    void (*fn[4])(const cuzk_domain *, cuzk_fr_t *,
                  cuzk_pool *) = {cuzk_ntt, cuzk_intt, cuzk_coset_ntt, cuzk_coset_intt};
    for (int k = 0; k < 4; k++) {
        memcpy(out + k * n, in, n * sizeof *in);
        fn[k](d, out + k * n, pool);
    }
    /* H with a = in, b = reversed in, c = in shifted by one (not a satisfied system: this only
     * compares implementations). */
    cuzk_fr_t *b = vec_alloc(n), *c = vec_alloc(n);
    for (size_t i = 0; i < n; i++) {
        b[i] = in[n - 1 - i];
        c[i] = in[(i + 1) % n];
    }
    memcpy(out + 4 * n, in, n * sizeof *in);
    cuzk_poly_h(d, out + 4 * n, b, c, pool);
    memcpy(out + 5 * n, in, n * sizeof *in);
    cuzk__ntt_to_coset(d, out + 5 * n, pool);
    cuzk_free(b);
    cuzk_free(c);
}

CUZK_TEST(poly_four_step_splits_match_direct)
{
    /* Every split (rows x columns) and several column-group widths give the same result as the
     * direct radix-2 path, which the naive DFT test pins down. Sizes past the direct limit
     * (2^13, 2^14) also run with a pool, through the default split. */
    cuzk_pool *pool;
    CHECK(cuzk_pool_create(&pool, 2) == CUZK_OK);
    for (int f = 0; f < 2; f++) {
        for (unsigned l = 2; l <= 11; l++) {
            size_t n = (size_t)1 << l;
            cuzk_domain *direct;
            CHECK(cuzk__domain_create_split(&direct, l, families[f], 0, 1) == CUZK_OK);
            cuzk_fr_t *a = vec_alloc(n), *want = vec_alloc(6 * n), *got = vec_alloc(6 * n);
            rand_vec(a, n);
            all_transforms(want, direct, a, NULL);
            for (unsigned lo = 1; lo < l; lo++) {
                size_t widths[3] = {1, 2, (size_t)1 << (l - lo)};
                for (int wi = 0; wi < 3; wi++) {
                    if (widths[wi] > ((size_t)1 << (l - lo)))
                        continue;
                    cuzk_domain *d;
                    CHECK(cuzk__domain_create_split(&d, l, families[f], lo, widths[wi]) == CUZK_OK);
                    /* the column pass in place (what runs when its scratch cannot be had) */
                    d->col_in_place = wi == 1;
                    all_transforms(got, d, a, (lo + wi) & 1 ? pool : NULL);
                    for (int k = 0; k < 6; k++)
                        CHECK_MSG(vec_eq(got + k * n, want + k * n, n),
                                  "family %d 2^%u = 2^%u rows x 2^%u, %zu cols%s: transform %d", f,
                                  l, lo, l - lo, widths[wi], d->col_in_place ? " in place" : "", k);
                    cuzk_domain_destroy(d);
                }
            }
            cuzk_free(a);
            cuzk_free(want);
            cuzk_free(got);
            cuzk_domain_destroy(direct);
        }
    }
    cuzk_pool_destroy(pool);
}

CUZK_TEST(poly_ntt_roundtrip_large)
{
    cuzk_pool *pool;
    CHECK(cuzk_pool_create(&pool, 2) == CUZK_OK);
    static const unsigned logs[] = {11, 12, 13, 14, 15, 16, 20};
    for (size_t li = 0; li < sizeof logs / sizeof logs[0]; li++) {
        unsigned l = logs[li];
        size_t n = (size_t)1 << l;
        cuzk_roots roots = families[li & 1];
        cuzk_domain *d = domain(n, roots);
        cuzk_fr_t *a = vec_alloc(n), *x = vec_alloc(n);
        rand_vec(a, n);
        memcpy(x, a, n * sizeof *x);
        cuzk_ntt(d, x, pool);
        CHECK(!vec_eq(x, a, n));
        cuzk_intt(d, x, pool);
        CHECK_MSG(vec_eq(x, a, n), "intt(ntt) at 2^%u", l);
        if (l > 16) { /* the biggest size only once, and only forward and back */
            cuzk_free(a);
            cuzk_free(x);
            cuzk_domain_destroy(d);
            continue;
        }
        cuzk_coset_ntt(d, x, pool);
        cuzk_coset_intt(d, x, pool);
        CHECK_MSG(vec_eq(x, a, n), "coset_intt(coset_ntt) at 2^%u", l);
        /* spot-check one value of each forward transform against Horner */
        size_t i = (size_t)(test_rand_u64() % n);
        cuzk_fr_t w, g, pt, v;
        cuzk_domain_omega(d, &w);
        cuzk_domain_coset_gen(d, &g);
        fr_pow_u64(&pt, &w, i);
        horner(&v, a, n, &pt);
        cuzk_ntt(d, x, pool);
        CHECK(cuzk_fr_eq(&x[i], &v));
        memcpy(x, a, n * sizeof *x);
        cuzk_coset_ntt(d, x, pool);
        cuzk_fr_mul(&pt, &pt, &g);
        horner(&v, a, n, &pt);
        CHECK(cuzk_fr_eq(&x[i], &v));
        cuzk_free(a);
        cuzk_free(x);
        cuzk_domain_destroy(d);
    }
    cuzk_pool_destroy(pool);
}

CUZK_TEST(poly_threads_bit_exact)
{
    static const unsigned logs[] = {9, 13, 14, 15};
    static const unsigned threads[] = {2, 3};
    for (size_t li = 0; li < 4; li++) {
        size_t n = (size_t)1 << logs[li];
        cuzk_domain *d = domain(n, families[li & 1]);
        cuzk_fr_t *a = vec_alloc(n), *want = vec_alloc(6 * n), *got = vec_alloc(6 * n);
        rand_vec(a, n);
        all_transforms(want, d, a, NULL);
        for (int t = 0; t < 2; t++) {
            cuzk_pool *pool;
            CHECK(cuzk_pool_create(&pool, threads[t]) == CUZK_OK);
            memset(got, 0xa5, 6 * n * sizeof *got);
            all_transforms(got, d, a, pool);
            CHECK_MSG(memcmp(got, want, 6 * n * sizeof *got) == 0, "2^%u, %u threads", logs[li],
                      threads[t]);
            cuzk_pool_destroy(pool);
        }
        cuzk_free(a);
        cuzk_free(want);
        cuzk_free(got);
        cuzk_domain_destroy(d);
    }
}

/* The 8-lane IFMA passes (src/poly/ntt.c, field/fr_ifma.h) against the scalar passes on the
 * same split, bit for bit: sizes from the smallest split that runs 8 lanes wide up to 2^16, both
 * families, every public transform, the fused coset transform and the H step, splits whose
 * passes are all vector, mixed (rows or columns scalar: fewer than 8 rows, groups of fewer than
 * 8 columns) and the default; inputs with 0, 1 and r - 1 sprinkled in; a pool of 2 threads on
 * some. (Where IFMA is not built both runs take the scalar path and the test passes trivially.) */
CUZK_TEST(poly_x8_matches_scalar)
{
    cuzk_pool *pool;
    CHECK(cuzk_pool_create(&pool, 2) == CUZK_OK);
    static const struct {
        unsigned l, lo;
        size_t cols;
    } sp[] = {{6, 3, 8},   {7, 3, 16},  {7, 4, 8},   {8, 4, 16},  {8, 2, 16},  {8, 5, 4},
              {9, 3, 32},  {10, 5, 16}, {10, 6, 8},  {11, 8, 8},  {12, 6, 16}, {12, 4, 256},
              {13, 6, 16}, {14, 7, 16}, {14, 9, 32}, {16, 8, 16}, {0, 0, 0}};
    cuzk_fr_t rm1, one;
    cuzk_fr_set_one(&one);
    cuzk_fr_set_zero(&rm1);
    cuzk_fr_sub(&rm1, &rm1, &one);
    for (int f = 0; f < 2; f++)
        for (int i = 0; sp[i].l; i++) {
            unsigned l = sp[i].l;
            size_t n = (size_t)1 << l;
            cuzk_domain *d;
            /* the listed split, then (for the sizes up to 2^12) the default one */
            for (int def = 0; def < 2; def++) {
                if (def)
                    CHECK(cuzk_domain_create(&d, n, families[f]) == CUZK_OK);
                else
                    CHECK(cuzk__domain_create_split(&d, l, families[f], sp[i].lo, sp[i].cols) ==
                          CUZK_OK);
                cuzk_fr_t *a = vec_alloc(n), *want = vec_alloc(6 * n), *got = vec_alloc(6 * n);
                rand_vec(a, n);
                for (size_t k = 0; k < n; k += 1 + test_rand_u64() % 7) {
                    uint64_t e = test_rand_u64() % 3;
                    if (e == 0)
                        cuzk_fr_set_zero(&a[k]);
                    else
                        a[k] = e == 1 ? one : rm1;
                }
                cuzk_pool *p = (i + f + def) & 1 ? pool : NULL;
                d->scalar_only = true;
                all_transforms(want, d, a, p);
                d->scalar_only = false;
                memset(got, 0xa5, 6 * n * sizeof *got);
                all_transforms(got, d, a, p);
                for (int k = 0; k < 6; k++)
                    CHECK_MSG(memcmp(got + k * n, want + k * n, n * sizeof *got) == 0,
                              "family %d 2^%u = 2^%u rows x 2^%u, %zu cols%s: transform %d", f, l,
                              d->l_out, d->l_in, d->cols, def ? " (default)" : "", k);
                cuzk_free(a);
                cuzk_free(want);
                cuzk_free(got);
                cuzk_domain_destroy(d);
                if (l > 12)
                    break;
            }
        }
    cuzk_pool_destroy(pool);
}

/* ---- the H step ---------------------------------------------------------------------------- */

/* A satisfied system: random a, b on the first |m| rows, zero padding, c = a * b pointwise. */
static void satisfied(cuzk_fr_t *a, cuzk_fr_t *b, cuzk_fr_t *c, size_t n, size_t m)
{
    memset(a, 0, n * sizeof *a);
    memset(b, 0, n * sizeof *b);
    rand_vec(a, m);
    rand_vec(b, m);
    for (size_t i = 0; i < n; i++)
        cuzk_fr_mul(&c[i], &a[i], &b[i]);
}

CUZK_TEST(poly_h_bellperson_satisfied)
{
    cuzk_pool *pool;
    CHECK(cuzk_pool_create(&pool, 2) == CUZK_OK);
    static const unsigned logs[] = {0, 1, 2, 3, 5, 8, 12, 13, 15};
    for (size_t li = 0; li < sizeof logs / sizeof logs[0]; li++) {
        size_t n = (size_t)1 << logs[li];
        size_t m = n > 4 ? n - (size_t)(test_rand_u64() % (n / 4)) : n;
        cuzk_domain *d = domain(n, CUZK_ROOTS_BELLPERSON);
        cuzk_fr_t *a = vec_alloc(n), *b = vec_alloc(n), *c = vec_alloc(n);
        cuzk_fr_t *pa = vec_alloc(n), *pb = vec_alloc(n), *pc = vec_alloc(n);
        satisfied(a, b, c, n, m);
        /* A, B, C as polynomials (coefficients) for the identity check below */
        memcpy(pa, a, n * sizeof *a);
        memcpy(pb, b, n * sizeof *b);
        memcpy(pc, c, n * sizeof *c);
        cuzk_intt(d, pa, NULL);
        cuzk_intt(d, pb, NULL);
        cuzk_intt(d, pc, NULL);

        cuzk_poly_h(d, a, b, c, logs[li] & 1 ? pool : NULL);
        /* deg h < n - 1 */
        CHECK_MSG(cuzk_fr_is_zero(&a[n - 1]), "2^%u: h[n-1] != 0", logs[li]);
        /* h(x) * (x^n - 1) = A(x) B(x) - C(x) at random points */
        for (int k = 0; k < 3; k++) {
            cuzk_fr_t x, h, va, vb, vc, z, one, lhs, rhs;
            test_rand_fr(&x);
            horner(&h, a, n, &x);
            horner(&va, pa, n, &x);
            horner(&vb, pb, n, &x);
            horner(&vc, pc, n, &x);
            fr_pow_u64(&z, &x, n);
            cuzk_fr_set_one(&one);
            cuzk_fr_sub(&z, &z, &one);
            cuzk_fr_mul(&lhs, &h, &z);
            cuzk_fr_mul(&rhs, &va, &vb);
            cuzk_fr_sub(&rhs, &rhs, &vc);
            CHECK_MSG(cuzk_fr_eq(&lhs, &rhs), "2^%u: h Z != A B - C", logs[li]);
        }
        cuzk_free(a);
        cuzk_free(b);
        cuzk_free(c);
        cuzk_free(pa);
        cuzk_free(pb);
        cuzk_free(pc);
        cuzk_domain_destroy(d);
    }
    cuzk_pool_destroy(pool);
}

/* x[k] *= s^k for k < n. */
static void scale_powers(cuzk_fr_t *x, size_t n, const cuzk_fr_t *s)
{
    cuzk_fr_t p;
    cuzk_fr_set_one(&p);
    for (size_t k = 0; k < n; k++) {
        cuzk_fr_mul(&x[k], &x[k], &p);
        cuzk_fr_mul(&p, &p, s);
    }
}

/* The bellperson H step as cuzk/poly.h states it for any a, b, c: h = (C - N) / 2 with
 * C = iNTT(c) and N = A B mod (X^n + 1), computed here as a negacyclic product through the
 * public transforms (A(s X), B(s X) with s = omega_2n, s^n = -1, make it cyclic). */
static void h_negacyclic(const cuzk_domain *d, cuzk_fr_t *w[3])
{
    size_t n = cuzk_domain_size(d);
    cuzk_fr_t s, si, half;
    cuzk_domain_omega_2n(d, &s);
    cuzk_fr_inv(&si, &s);
    cuzk_fr_set_u64(&half, 2);
    cuzk_fr_inv(&half, &half);
    for (int k = 0; k < 3; k++)
        cuzk_intt(d, w[k], NULL);
    for (int k = 0; k < 2; k++) {
        scale_powers(w[k], n, &s);
        cuzk_ntt(d, w[k], NULL);
    }
    for (size_t i = 0; i < n; i++)
        cuzk_fr_mul(&w[0][i], &w[0][i], &w[1][i]);
    cuzk_intt(d, w[0], NULL);
    scale_powers(w[0], n, &si);
    for (size_t i = 0; i < n; i++) {
        cuzk_fr_sub(&w[0][i], &w[2][i], &w[0][i]);
        cuzk_fr_mul(&w[0][i], &w[0][i], &half);
    }
}

CUZK_TEST(poly_h_matches_step_by_step)
{
    /* cuzk_poly_h against the recipe of formats.md 3.4 / 4.6 spelled out with the public
     * transforms, on a satisfied system and on random (unsatisfied) vectors; for bellperson the
     * recipe holds on satisfied systems only, and the unsatisfied ones are checked against the
     * negacyclic form of cuzk/poly.h (which the satisfied ones must match too). */
    cuzk_pool *pool;
    CHECK(cuzk_pool_create(&pool, 2) == CUZK_OK);
    static const unsigned logs[] = {1, 4, 10, 13, 14};
    for (int f = 0; f < 2; f++) {
        for (size_t li = 0; li < sizeof logs / sizeof logs[0]; li++) {
            size_t n = (size_t)1 << logs[li];
            cuzk_domain *d = domain(n, families[f]);
            cuzk_fr_t *v[3], *w[3];
            for (int k = 0; k < 3; k++) {
                v[k] = vec_alloc(n);
                w[k] = vec_alloc(n);
            }
            for (int sat = 0; sat < 2; sat++) {
                if (sat)
                    satisfied(v[0], v[1], v[2], n, n);
                else
                    for (int k = 0; k < 3; k++)
                        rand_vec(v[k], n);
                if (families[f] == CUZK_ROOTS_BELLPERSON) {
                    cuzk_fr_t *u[3];
                    for (int k = 0; k < 3; k++) {
                        u[k] = vec_alloc(n);
                        memcpy(u[k], v[k], n * sizeof *u[k]);
                    }
                    h_negacyclic(d, u);
                    cuzk_fr_t *got = vec_alloc(n);
                    memcpy(got, v[0], n * sizeof *got);
                    cuzk_fr_t *b2 = vec_alloc(n), *c2 = vec_alloc(n);
                    memcpy(b2, v[1], n * sizeof *b2);
                    memcpy(c2, v[2], n * sizeof *c2);
                    cuzk_poly_h(d, got, b2, c2, logs[li] > 10 ? pool : NULL);
                    CHECK_MSG(vec_eq(got, u[0], n), "negacyclic form, 2^%u satisfied=%d", logs[li],
                              sat);
                    for (int k = 0; k < 3; k++)
                        cuzk_free(u[k]);
                    cuzk_free(got), cuzk_free(b2), cuzk_free(c2);
                    if (!sat)
                        continue;
                }
                for (int k = 0; k < 3; k++) {
                    memcpy(w[k], v[k], n * sizeof *w[k]);
                    cuzk_intt(d, w[k], NULL);
                    cuzk_coset_ntt(d, w[k], NULL);
                }
                cuzk_fr_t zi;
                cuzk_domain_coset_z(d, &zi);
                cuzk_fr_inv(&zi, &zi);
                for (size_t i = 0; i < n; i++) {
                    cuzk_fr_mul(&w[0][i], &w[0][i], &w[1][i]);
                    cuzk_fr_sub(&w[0][i], &w[0][i], &w[2][i]);
                    if (families[f] == CUZK_ROOTS_BELLPERSON)
                        cuzk_fr_mul(&w[0][i], &w[0][i], &zi);
                }
                if (families[f] == CUZK_ROOTS_BELLPERSON)
                    cuzk_coset_intt(d, w[0], NULL);
                cuzk_poly_h(d, v[0], v[1], v[2], logs[li] > 10 ? pool : NULL);
                CHECK_MSG(vec_eq(v[0], w[0], n), "family %d 2^%u satisfied=%d", f, logs[li], sat);
            }
            for (int k = 0; k < 3; k++) {
                cuzk_free(v[k]);
                cuzk_free(w[k]);
            }
            cuzk_domain_destroy(d);
        }
    }
    cuzk_pool_destroy(pool);
}

CUZK_TEST(poly_h_snarkjs_odd_coset_values)
{
    /* snarkjs: h_i = A(x_i) B(x_i) - C(x_i) at x_i = omega_2n * omega_n^i, evaluated naively. */
    for (unsigned l = 0; l <= 7; l++) {
        size_t n = (size_t)1 << l;
        cuzk_domain *d = domain(n, CUZK_ROOTS_SNARKJS);
        cuzk_fr_t *a = vec_alloc(n), *b = vec_alloc(n), *c = vec_alloc(n), *p[3];
        satisfied(a, b, c, n, n);
        cuzk_fr_t *src[3] = {a, b, c};
        for (int k = 0; k < 3; k++) {
            p[k] = vec_alloc(n);
            memcpy(p[k], src[k], n * sizeof *a);
            cuzk_intt(d, p[k], NULL);
        }
        cuzk_poly_h(d, a, b, c, NULL);
        cuzk_fr_t w, x;
        cuzk_domain_omega(d, &w);
        cuzk_domain_coset_gen(d, &x);
        for (size_t i = 0; i < n; i++) {
            cuzk_fr_t va, vb, vc;
            horner(&va, p[0], n, &x);
            horner(&vb, p[1], n, &x);
            horner(&vc, p[2], n, &x);
            cuzk_fr_mul(&va, &va, &vb);
            cuzk_fr_sub(&va, &va, &vc);
            CHECK_MSG(cuzk_fr_eq(&a[i], &va), "2^%u, i = %zu", l, i);
            cuzk_fr_mul(&x, &x, &w);
        }
        for (int k = 0; k < 3; k++)
            cuzk_free(p[k]);
        cuzk_free(a);
        cuzk_free(b);
        cuzk_free(c);
        cuzk_domain_destroy(d);
    }
}

/* ---- snarkjs fixtures: a test-local reader of just what the H step needs --------------------
 * binfile (formats.md 4.1): magic, u32 version, u32 nSections, then {u32 type, u64 size, body}. */

static uint8_t *read_file(const char *name, size_t *len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/snarkjs/%s", test_fixtures_dir(), name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(sz > 0 ? (size_t)sz : 1);
    CHECK(buf != NULL);
    CHECK(fread(buf, 1, (size_t)sz, f) == (size_t)sz);
    fclose(f);
    *len = (size_t)sz;
    return buf;
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p)
{
    return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static const uint8_t *section(const uint8_t *buf, size_t len, const char *magic, uint32_t type,
                              uint64_t *size)
{
    CHECK(len >= 12 && memcmp(buf, magic, 4) == 0);
    uint32_t ns = rd32(buf + 8);
    size_t off = 12;
    for (uint32_t i = 0; i < ns; i++) {
        CHECK(off + 12 <= len);
        uint32_t t = rd32(buf + off);
        uint64_t sz = rd64(buf + off + 4);
        CHECK(sz <= len - off - 12);
        if (t == type) {
            *size = sz;
            return buf + off + 12;
        }
        off += 12 + (size_t)sz;
    }
    test_fail_at(__FILE__, __LINE__, "%s section %u missing", magic, type);
}

static void check_hscalars(const char *circuit)
{
    char name[128];
    size_t zlen, wlen, hlen;
    snprintf(name, sizeof name, "%s.zkey", circuit);
    uint8_t *zkey = read_file(name, &zlen);
    snprintf(name, sizeof name, "%s.wtns", circuit);
    uint8_t *wtns = read_file(name, &wlen);
    snprintf(name, sizeof name, "%s.hscalars.bin", circuit);
    uint8_t *hs = read_file(name, &hlen);
    if (!zkey || !wtns || !hs)
        test_skip("snarkjs fixtures not found (set CUZK_FIXTURES)");

    uint64_t sz;
    const uint8_t *hdr = section(zkey, zlen, "zkey", 2, &sz);
    CHECK(sz >= 100 && rd32(hdr + 52) == 32);
    uint32_t n_vars = rd32(hdr + 88), n_public = rd32(hdr + 92), n = rd32(hdr + 96);
    CHECK(hlen == (size_t)n * 32);
    const uint8_t *ws = section(wtns, wlen, "wtns", 2, &sz);
    CHECK(sz == (uint64_t)n_vars * 32);
    cuzk_fr_t *w = vec_alloc(n_vars);
    for (uint32_t i = 0; i < n_vars; i++)
        CHECK(cuzk_fr_from_bytes_le(&w[i], ws + 32 * (size_t)i) == CUZK_OK);

    cuzk_domain *d = domain(n, CUZK_ROOTS_SNARKJS);
    CHECK(cuzk_domain_size(d) == n);
    cuzk_fr_t *a = vec_alloc(n), *b = vec_alloc(n), *c = vec_alloc(n);
    memset(a, 0, n * sizeof *a);
    memset(b, 0, n * sizeof *b);
    /* Section 4: a[row] += (v R^-2) w[s] (matrix 0), b likewise (matrix 1). v = coef R^2 read as
     * raw limbs, Montgomery-reduced once (v R^-1 = coef R), is coef in Montgomery form. */
    const uint8_t *co = section(zkey, zlen, "zkey", 4, &sz);
    uint32_t nc = rd32(co);
    CHECK(sz == 4 + (uint64_t)nc * 44);
    for (uint32_t i = 0; i < nc; i++) {
        const uint8_t *e = co + 4 + 44 * (size_t)i;
        uint32_t mat = rd32(e), row = rd32(e + 4), sig = rd32(e + 8);
        CHECK(mat <= 1 && row < n && sig < n_vars);
        cuzk_fr_t raw, coef, t;
        for (int k = 0; k < 4; k++)
            raw.l[k] = rd64(e + 12 + 8 * k);
        cuzk_fr_to_canonical(coef.l, &raw);
        cuzk_fr_mul(&t, &coef, &w[sig]);
        cuzk_fr_t *v = mat == 0 ? a : b;
        cuzk_fr_add(&v[row], &v[row], &t);
    }
    for (uint32_t i = 0; i < n; i++)
        cuzk_fr_mul(&c[i], &a[i], &b[i]);
    (void)n_public;
    cuzk_poly_h(d, a, b, c, NULL);
    for (uint32_t i = 0; i < n; i++) {
        uint8_t out[32];
        cuzk_fr_to_bytes_le(out, &a[i]);
        CHECK_MSG(memcmp(out, hs + 32 * (size_t)i, 32) == 0, "%s: h[%u] differs", circuit, i);
    }
    printf("# %s: %u h scalars match snarkjs (N = %u, nVars = %u, %u coefficients)\n", circuit, n,
           n, n_vars, nc);
    cuzk_free(a);
    cuzk_free(b);
    cuzk_free(c);
    cuzk_free(w);
    cuzk_domain_destroy(d);
    free(zkey);
    free(wtns);
    free(hs);
}

CUZK_TEST(poly_h_snarkjs_fixture_multiplier)
{
    check_hscalars("multiplier");
}

CUZK_TEST(poly_h_snarkjs_fixture_poseidon)
{
    check_hscalars("poseidon");
}

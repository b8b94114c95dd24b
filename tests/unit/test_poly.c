/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Evaluation domains and NTTs (src/poly): published roots (formats.md 1), a naive O(n^2) DFT for
 * every size up to 2^10, every four-step split against the direct path, round trips, threads.
 * The H step's tests are in test_poly_h.c. */
#include "test_poly_util.h"
#include "field/fr_internal.h"
#include "poly/poly_internal.h"

#include <time.h>

/* ---- helpers ------------------------------------------------------------------------------- */

/* A big-endian hex constant of formats.md as an Fr element. */
static void fr_from_hex(cuzk_fr_t *out, const char *hex)
{
    uint8_t be[32], le[32];
    CHECK(test_unhex(be, 32, hex));
    for (int i = 0; i < 32; i++)
        le[i] = be[31 - i];
    CHECK(cuzk_fr_from_bytes_le(out, le) == CUZK_OK);
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

/* ---- the inlined Fr arithmetic (field/fr_inline.h) against the generic code of field/mont.h -
 * (cuzk_fr_add/sub/mul are the inline code now, so the reference is the portable code). */

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
            cuzk_fr_mul_portable(want.l, v[i].l, v[j].l);
            fri_mul(&got, &v[i], &v[j]);
            CHECK_MSG(cuzk_fr_eq(&got, &want), "mul %d %d", i, j);
            t = v[i];
            fri_mul(&t, &t, &v[j]);
            CHECK(cuzk_fr_eq(&t, &want));
            t = v[j];
            fri_mul(&t, &v[i], &t);
            CHECK(cuzk_fr_eq(&t, &want));
            mont_add(want.l, v[i].l, v[j].l, cuzk_fr_modulus, 4);
            fri_add(&got, &v[i], &v[j]);
            CHECK_MSG(cuzk_fr_eq(&got, &want), "add %d %d", i, j);
            t = v[j];
            fri_add(&t, &v[i], &t);
            CHECK(cuzk_fr_eq(&t, &want));
            mont_sub(want.l, v[i].l, v[j].l, cuzk_fr_modulus, 4);
            fri_sub(&got, &v[i], &v[j]);
            CHECK_MSG(cuzk_fr_eq(&got, &want), "sub %d %d", i, j);
            t = v[j];
            fri_sub(&t, &v[i], &t);
            CHECK(cuzk_fr_eq(&t, &want));
        }
    }
    printf("# inline Fr arithmetic: %s\n", CUZK_FR_INLINE_ASM ? "x86-64 asm" : "portable");
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

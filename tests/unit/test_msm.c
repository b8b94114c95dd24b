/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * CPU MSM and bitmap batch addition against the plain definitions: sums of cuzk_gX_mul_vartime
 * products, and subset sums with Jacobian additions. Every strategy (XYZZ and batch-affine
 * buckets), small and large windows, forced point chunks and several thread counts are compared
 * on random and edge inputs (zero, one and r-1 scalars, 0/1-heavy mixes, small scalars, one base
 * repeated, bases at infinity, P next to -P).
 */
#include "test.h"
#include "cuzk/alloc.h"
#include "cuzk/msm.h"

#include "msm/msm_slices.h"
#include "test_msm_util.h"

/* ---- G1 MSM ------------------------------------------------------------------------------ */

static const size_t G1_SIZES[] = {0, 1, 2, 3, 7, 64, 255, 1000, 4097};
#define G1_MAXN 4097

CUZK_TEST(msm_g1_matches_naive)
{
    cuzk_g1_affine_t *pts = g1_points(G1_MAXN);
    cuzk_fr_t *k = cuzk_alloc_array(G1_MAXN, sizeof *k);
    CHECK(k);
    uint64_t live = cuzk_alloc_live_bytes();
    for (int sk = 0; sk < SC_COUNT; sk++) {
        if (sk == SC_PAIRS)
            continue; /* with the base layouts below */
        for (size_t si = 0; si < sizeof G1_SIZES / sizeof G1_SIZES[0]; si++) {
            size_t n = G1_SIZES[si];
            /* The full-width naive sums are the slow part: skip the largest size for the
             * second full-width kind. */
            if ((sk == SC_MIXED_WIDTH || (SLOW_BUILD && sk != SC_RANDOM)) && n > 1000)
                continue;
            make_scalars(k, n, sk);
            cuzk_g1_jac_t want, got;
            g1_naive(&want, pts, k, n);
            for (size_t v = 0; v < NVAR(n); v++) {
                got = poisoned_g1();
                CHECK(cuzk_g1_msm_ex(&got, pts, k, n, NULL, &VARIANTS[v]) == CUZK_OK);
                CHECK_MSG(cuzk_g1_eq(&got, &want), "n=%zu scalars=%s variant=%zu", n, SC_NAME[sk],
                          v);
            }
            got = poisoned_g1();
            CHECK(cuzk_g1_msm(&got, pts, k, n, NULL) == CUZK_OK);
            CHECK_MSG(cuzk_g1_eq(&got, &want), "n=%zu scalars=%s (plain entry)", n, SC_NAME[sk]);
        }
    }
    CHECK(cuzk_alloc_live_bytes() == live); /* nothing leaked */
    cuzk_free(k);
    cuzk_free(pts);
}

CUZK_TEST(msm_g1_edge_bases)
{
    enum { N = 600 };
    static const size_t sizes[] = {1, 2, 3, 64, 255, N};
    static const int scalar_kinds[] = {SC_RANDOM, SC_PAIRS, SC_SMALL, SC_ONE};
    cuzk_g1_affine_t *pts = g1_points(N);
    cuzk_g1_affine_t *bases = cuzk_alloc_array(N, sizeof *bases);
    cuzk_fr_t *k = cuzk_alloc_array(N, sizeof *k);
    CHECK(bases && k);
    for (int bk = BASES_SAME; bk < BASES_COUNT; bk++) {
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            for (size_t ki = 0; ki < sizeof scalar_kinds / sizeof scalar_kinds[0]; ki++) {
                size_t n = sizes[si];
                int sk = scalar_kinds[ki];
                if (sk == SC_RANDOM && bk != BASES_SAME && n == N)
                    continue; /* keep the naive sums short */
                g1_layout(bases, pts, n, bk);
                make_scalars(k, n, sk);
                cuzk_g1_jac_t want, got;
                g1_naive(&want, bases, k, n);
                for (size_t v = 0; v < NVAR(n); v++) {
                    got = poisoned_g1();
                    CHECK(cuzk_g1_msm_ex(&got, bases, k, n, NULL, &VARIANTS[v]) == CUZK_OK);
                    CHECK_MSG(cuzk_g1_eq(&got, &want), "n=%zu bases=%s scalars=%s variant=%zu", n,
                              BASES_NAME[bk], SC_NAME[sk], v);
                }
            }
        }
    }
    cuzk_free(k);
    cuzk_free(bases);
    cuzk_free(pts);
}

/* Every window width the automatic choice might not pick, both strategies. */
CUZK_TEST(msm_g1_windows)
{
    enum { N = 300 };
    cuzk_g1_affine_t *pts = g1_points(N);
    cuzk_fr_t k[N];
    make_scalars(k, N, SC_RANDOM);
    k[7] = k[3]; /* a repeated scalar */
    cuzk_g1_jac_t want, got;
    g1_naive(&want, pts, k, N);
    /* Batch-affine with windows of 1..4 bits pays an inversion every few points: a prefix. */
    enum { NS = 60 };
    cuzk_g1_jac_t want_small;
    g1_naive(&want_small, pts, k, NS);
    for (unsigned c = 1; c <= 13; c++) {
        for (int a = CUZK_MSM_ACCUM_XYZZ; a <= CUZK_MSM_ACCUM_AFFINE; a++) {
            cuzk_msm_opts o = {.window = c, .accum = (cuzk_msm_accum)a};
            size_t n = a == CUZK_MSM_ACCUM_AFFINE && c <= 4 ? NS : N;
            got = poisoned_g1();
            CHECK(cuzk_g1_msm_ex(&got, pts, k, n, NULL, &o) == CUZK_OK);
            CHECK_MSG(cuzk_g1_eq(&got, n == N ? &want : &want_small), "window=%u accum=%d", c, a);
        }
    }
    cuzk_msm_opts big = {.window = 15, .accum = CUZK_MSM_ACCUM_AFFINE};
    CHECK(cuzk_g1_msm_ex(&got, pts, k, N, NULL, &big) == CUZK_OK);
    CHECK(cuzk_g1_eq(&got, &want));
    cuzk_free(pts);
}

/* Raw (canonical) scalars give what Montgomery ones give, and any 256-bit value is taken as
 * the integer it is (no reduction mod r). */
CUZK_TEST(msm_g1_raw_matches_montgomery)
{
    enum { N = 600 };
    cuzk_g1_affine_t *pts = g1_points(N);
    cuzk_fr_t k[N];
    static uint64_t raw[4 * N];
    for (int sk = 0; sk < SC_COUNT; sk++) {
        make_scalars(k, N, sk);
        for (size_t i = 0; i < N; i++)
            cuzk_fr_to_canonical(raw + 4 * i, &k[i]);
        for (size_t v = 0; v < NVAR(N); v++) {
            cuzk_g1_jac_t a = poisoned_g1(), b = poisoned_g1();
            CHECK(cuzk_g1_msm_ex(&a, pts, k, N, NULL, &VARIANTS[v]) == CUZK_OK);
            CHECK(cuzk_g1_msm_raw_ex(&b, pts, raw, N, NULL, &VARIANTS[v]) == CUZK_OK);
            CHECK_MSG(cuzk_g1_eq(&a, &b), "scalars=%s variant=%zu", SC_NAME[sk], v);
        }
        cuzk_g1_jac_t a, b;
        CHECK(cuzk_g1_msm_raw(&b, pts, raw, N, NULL) == CUZK_OK);
        CHECK(cuzk_g1_msm(&a, pts, k, N, NULL) == CUZK_OK);
        CHECK(cuzk_g1_eq(&a, &b));
    }
    /* Values at and above r, up to 2^256 - 1, against mul_raw_vartime. */
    enum { M = 40 };
    cuzk_g1_jac_t want, got, p;
    cuzk_g1_jac_set_infinity(&want);
    for (size_t i = 0; i < M; i++) {
        uint64_t *l = raw + 4 * i;
        switch (i % 4) {
        case 0:
            memset(l, 0xff, 32);
            break;
        case 1:
            memcpy(l, R_LIMBS, 32);
            l[0] += i;
            break;
        default:
            test_rand_bytes(l, 32);
        }
        cuzk_g1_from_affine(&p, &pts[i]);
        cuzk_g1_mul_raw_vartime(&p, &p, l, 4);
        cuzk_g1_add(&want, &want, &p);
    }
    for (size_t v = 0; v < NVARIANTS; v++) {
        got = poisoned_g1();
        CHECK(cuzk_g1_msm_raw_ex(&got, pts, raw, M, NULL, &VARIANTS[v]) == CUZK_OK);
        CHECK_MSG(cuzk_g1_eq(&got, &want), "wide raw scalars, variant=%zu", v);
    }
    cuzk_free(pts);
}

/* Threaded results equal the one-thread result bit for bit once normalised to affine. */
CUZK_TEST(msm_g1_threads_match_single)
{
    enum { N = SLOW_BUILD ? 1000 : 4097 };
    static const unsigned threads[] = {2, 3};
    static const unsigned chunks[] = {0, 1, 5};
    cuzk_g1_affine_t *pts = g1_points(N);
    cuzk_fr_t *k = cuzk_alloc_array(N, sizeof *k);
    CHECK(k);
    static const int kinds[] = {SC_RANDOM, SC_BINARY_HEAVY};
    for (size_t ki = 0; ki < sizeof kinds / sizeof kinds[0]; ki++) {
        make_scalars(k, N, kinds[ki]);
        for (int a = CUZK_MSM_ACCUM_XYZZ; a <= CUZK_MSM_ACCUM_AFFINE; a++) {
            cuzk_msm_opts one = {.accum = (cuzk_msm_accum)a};
            cuzk_g1_jac_t ref;
            cuzk_g1_affine_t ref_aff;
            CHECK(cuzk_g1_msm_ex(&ref, pts, k, N, NULL, &one) == CUZK_OK);
            cuzk_g1_to_affine(&ref_aff, &ref);
            for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
                cuzk_pool *pool;
                CHECK(cuzk_pool_create(&pool, threads[t]) == CUZK_OK);
                for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
                    cuzk_msm_opts o = {.chunks = chunks[c], .accum = (cuzk_msm_accum)a};
                    cuzk_g1_jac_t got = poisoned_g1();
                    cuzk_g1_affine_t got_aff;
                    CHECK(cuzk_g1_msm_ex(&got, pts, k, N, pool, &o) == CUZK_OK);
                    cuzk_g1_to_affine(&got_aff, &got);
                    CHECK_MSG(cuzk_g1_eq(&got, &ref) && got_aff.infinity == ref_aff.infinity &&
                                  memcmp(&got_aff.x, &ref_aff.x, sizeof got_aff.x) == 0 &&
                                  memcmp(&got_aff.y, &ref_aff.y, sizeof got_aff.y) == 0,
                              "threads=%u chunks=%u accum=%d scalars=%s", threads[t], chunks[c], a,
                              SC_NAME[kinds[ki]]);
                }
                cuzk_pool_destroy(pool);
            }
        }
    }
    cuzk_free(k);
    cuzk_free(pts);
}

CUZK_TEST(msm_g1_rejects_bad_arguments)
{
    enum { N = 100 };
    cuzk_g1_affine_t *pts = g1_points(N);
    cuzk_fr_t k[N];
    make_scalars(k, N, SC_RANDOM);
    cuzk_g1_jac_t out = poisoned_g1(), p0 = poisoned_g1();
    CHECK(cuzk_g1_msm(NULL, pts, k, N, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_g1_msm(&out, NULL, k, N, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_g1_msm(&out, pts, NULL, N, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_g1_msm_raw(&out, pts, NULL, N, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_g1_batch_add(&out, pts, NULL, N, NULL) == CUZK_ERR_INVALID_ARG);
    cuzk_msm_opts wide = {.window = CUZK_MSM_MAX_WINDOW + 1};
    CHECK(cuzk_g1_msm_ex(&out, pts, k, N, NULL, &wide) == CUZK_ERR_INVALID_ARG);
    cuzk_msm_opts bad_accum = {.accum = (cuzk_msm_accum)7};
    CHECK(cuzk_g1_msm_ex(&out, pts, k, N, NULL, &bad_accum) == CUZK_ERR_INVALID_ARG);
    CHECK(memcmp(&out, &p0, sizeof out) == 0); /* untouched on failure */
    /* NULL arrays are fine with n = 0. */
    CHECK(cuzk_g1_msm(&out, NULL, NULL, 0, NULL) == CUZK_OK && cuzk_g1_jac_is_infinity(&out));
    CHECK(cuzk_g1_batch_add(&out, NULL, NULL, 0, NULL) == CUZK_OK);
    CHECK(cuzk_g1_jac_is_infinity(&out));

    /* Caller-provided scratch: too small is rejected, the advertised size works without any
     * allocation. */
    cuzk_g1_jac_t want;
    g1_naive(&want, pts, k, N);
    for (int a = CUZK_MSM_ACCUM_AUTO; a <= CUZK_MSM_ACCUM_AFFINE; a++) {
        cuzk_msm_opts o = {.accum = (cuzk_msm_accum)a};
        size_t need = cuzk_g1_msm_scratch_size(N, NULL, &o);
        CHECK(need > 0 && need < ((size_t)1 << 30));
        void *buf = cuzk_alloc(need);
        CHECK(buf);
        o.scratch = buf;
        o.scratch_bytes = 10;
        out = poisoned_g1();
        CHECK(cuzk_g1_msm_ex(&out, pts, k, N, NULL, &o) == CUZK_ERR_INVALID_ARG);
        CHECK(memcmp(&out, &p0, sizeof out) == 0);
        o.scratch_bytes = need;
        uint64_t live = cuzk_alloc_live_bytes();
        CHECK(cuzk_g1_msm_ex(&out, pts, k, N, NULL, &o) == CUZK_OK);
        CHECK(cuzk_g1_eq(&out, &want));
        CHECK(cuzk_alloc_live_bytes() == live);
        size_t bneed = cuzk_g1_batch_add_scratch_size(N, NULL, &o);
        CHECK(bneed <= need || bneed < ((size_t)1 << 30));
        cuzk_free(buf);
    }
    cuzk_free(pts);
}

/* ---- G2 MSM -------------------------------------------------------------------------------- */

CUZK_TEST(msm_g2_matches_naive)
{
    enum { MAXN = 300 };
    static const size_t sizes[] = {0, 1, 5, 64, MAXN};
    static const int kinds[] = {SC_RANDOM,    SC_ZERO,         SC_ONE,
                                SC_R_MINUS_1, SC_BINARY_HEAVY, SC_SMALL};
    cuzk_g2_affine_t *pts = g2_points(MAXN);
    cuzk_g2_affine_t *bases = cuzk_alloc_array(MAXN, sizeof *bases);
    static cuzk_fr_t k[MAXN];
    static uint64_t raw[4 * MAXN];
    CHECK(bases);
    for (size_t ki = 0; ki < sizeof kinds / sizeof kinds[0]; ki++) {
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            size_t n = sizes[si];
            if (kinds[ki] == SC_R_MINUS_1 && n == MAXN)
                continue;
            make_scalars(k, n, kinds[ki]);
            cuzk_g2_jac_t want, got;
            g2_naive(&want, pts, k, n);
            for (size_t v = 0; v < NVAR(n); v++) {
                got = poisoned_g2();
                CHECK(cuzk_g2_msm_ex(&got, pts, k, n, NULL, &VARIANTS[v]) == CUZK_OK);
                CHECK_MSG(cuzk_g2_eq(&got, &want), "n=%zu scalars=%s variant=%zu", n,
                          SC_NAME[kinds[ki]], v);
            }
            for (size_t i = 0; i < n; i++)
                cuzk_fr_to_canonical(raw + 4 * i, &k[i]);
            got = poisoned_g2();
            CHECK(cuzk_g2_msm_raw(&got, pts, raw, n, NULL) == CUZK_OK);
            CHECK_MSG(cuzk_g2_eq(&got, &want), "raw n=%zu scalars=%s", n, SC_NAME[kinds[ki]]);
        }
    }
    /* Edge base layouts, and threads. */
    cuzk_pool *pool;
    CHECK(cuzk_pool_create(&pool, 3) == CUZK_OK);
    for (int bk = BASES_SAME; bk < BASES_COUNT; bk++) {
        size_t n = 64;
        g2_layout(bases, pts, n, bk);
        make_scalars(k, n, bk == BASES_PLUS_MINUS ? SC_PAIRS : SC_SMALL);
        cuzk_g2_jac_t want, got;
        g2_naive(&want, bases, k, n);
        for (size_t v = 0; v < NVARIANTS; v++) {
            got = poisoned_g2();
            CHECK(cuzk_g2_msm_ex(&got, bases, k, n, pool, &VARIANTS[v]) == CUZK_OK);
            CHECK_MSG(cuzk_g2_eq(&got, &want), "bases=%s variant=%zu", BASES_NAME[bk], v);
        }
    }
    make_scalars(k, MAXN, SC_RANDOM);
    cuzk_g2_jac_t ref, got;
    CHECK(cuzk_g2_msm(&ref, pts, k, MAXN, NULL) == CUZK_OK);
    for (unsigned chunks = 0; chunks <= 4; chunks++) {
        cuzk_msm_opts o = {.chunks = chunks};
        CHECK(cuzk_g2_msm_ex(&got, pts, k, MAXN, pool, &o) == CUZK_OK);
        CHECK_MSG(cuzk_g2_eq(&got, &ref), "threads=3 chunks=%u", chunks);
    }
    cuzk_pool_destroy(pool);
    cuzk_free(bases);
    cuzk_free(pts);
}

/* ---- endomorphism split at its boundaries --------------------------------------------------- */

/* Raw scalars around the split's boundaries (0, 1, (r-1)/2 and (r+1)/2 where the fold flips,
 * r-1, values >= r, G1's z = x^2 and G2's c = |x| powers, random) against a reference that
 * does not use the endomorphism (mul_raw_vartime: plain wNAF on the integer). */
enum { EDGE_N = 40 };
static void edge_scalars(uint64_t *raw)
{
    static const uint64_t z[2] = {0x0000000100000000ULL, 0xac45a4010001a402ULL};
    static const uint64_t half[4] = {0x7fffffff80000000ULL, 0xa9ded2017fff2dffULL,
                                     0x199cec0404d0ec02ULL, 0x39f6d3a994cebea4ULL};
    const uint64_t c = 0xd201000000010000ULL;
    for (size_t i = 0; i < EDGE_N; i++) {
        uint64_t *l = raw + 4 * i;
        memset(l, 0, 32);
        switch (i) {
        case 0: /* zero */
            break;
        case 1:
            l[0] = 1;
            break;
        case 2: /* r - 1 */
        case 3: /* r */
        case 4: /* r + 1 */
            memcpy(l, R_LIMBS, 32);
            if (i == 2)
                l[0] -= 1;
            else if (i == 4)
                l[0] += 1;
            break;
        case 5: /* (r - 1) / 2 and (r + 1) / 2 */
        case 6:
            memcpy(l, half, 32);
            l[0] += i - 5;
            break;
        case 7: /* 2^256 - 1 */
            memset(l, 0xff, 32);
            break;
        case 8: /* z - 1, z, z + 1, z^2 + 1 - z (= r) is case 3 */
        case 9:
        case 10:
            l[0] = z[0] + (i - 9);
            l[1] = z[1];
            break;
        case 11: /* c - 1, c, c^2, c^3 */
            l[0] = c - 1;
            break;
        case 12:
            l[0] = c;
            break;
        case 13: {
            unsigned __int128 c2 = (unsigned __int128)c * c;
            l[0] = (uint64_t)c2;
            l[1] = (uint64_t)(c2 >> 64);
            break;
        }
        case 14: { /* c^3 = c^2 * c over three limbs */
            unsigned __int128 c2 = (unsigned __int128)c * c;
            unsigned __int128 lo = (unsigned __int128)(uint64_t)c2 * c;
            unsigned __int128 hi = (unsigned __int128)(uint64_t)(c2 >> 64) * c + (lo >> 64);
            l[0] = (uint64_t)lo;
            l[1] = (uint64_t)hi;
            l[2] = (uint64_t)(hi >> 64);
            break;
        }
        default:
            test_rand_bytes(l, 32);
            if (i % 3 == 0)
                l[3] &= 0x3fffffffffffffffULL; /* below r */
        }
    }
}

#define DEFINE_EDGE_REF(G, AFF, JAC)                                                               \
    static void G##_ref_raw(JAC *out, const AFF *bases, const uint64_t *raw, size_t n)             \
    {                                                                                              \
        cuzk_##G##_jac_set_infinity(out);                                                          \
        for (size_t i = 0; i < n; i++) {                                                           \
            JAC p;                                                                                 \
            cuzk_##G##_from_affine(&p, &bases[i]);                                                 \
            cuzk_##G##_mul_raw_vartime(&p, &p, raw + 4 * i, 4);                                    \
            cuzk_##G##_add(out, out, &p);                                                          \
        }                                                                                          \
    }
DEFINE_EDGE_REF(g1, cuzk_g1_affine_t, cuzk_g1_jac_t)
DEFINE_EDGE_REF(g2, cuzk_g2_affine_t, cuzk_g2_jac_t)

CUZK_TEST(msm_endo_edges)
{
    static uint64_t raw[4 * EDGE_N];
    static const cuzk_msm_opts modes[] = {
        {.endo = CUZK_MSM_ENDO_ON},
        {.endo = CUZK_MSM_ENDO_OFF},
        {.endo = CUZK_MSM_ENDO_ON, .accum = CUZK_MSM_ACCUM_AFFINE, .window = 4},
        {.endo = CUZK_MSM_ENDO_ON, .accum = CUZK_MSM_ACCUM_XYZZ, .chunks = 3},
    };
    cuzk_g1_affine_t *p1 = g1_points(EDGE_N);
    cuzk_g2_affine_t *p2 = g2_points(EDGE_N);
    cuzk_pool *pool;
    CHECK(cuzk_pool_create(&pool, 2) == CUZK_OK);
    edge_scalars(raw);
    /* Each scalar alone (n = 1), in pairs (n = 2), all together, and with one base at infinity. */
    for (size_t i = 0; i < EDGE_N; i++) {
        for (size_t len = 1; len <= 2 && i + len <= EDGE_N; len++) {
            cuzk_g1_jac_t w1, g1;
            cuzk_g2_jac_t w2, g2;
            g1_ref_raw(&w1, p1 + i, raw + 4 * i, len);
            g2_ref_raw(&w2, p2 + i, raw + 4 * i, len);
            for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
                g1 = poisoned_g1();
                g2 = poisoned_g2();
                CHECK(cuzk_g1_msm_raw_ex(&g1, p1 + i, raw + 4 * i, len, NULL, &modes[m]) ==
                      CUZK_OK);
                CHECK(cuzk_g2_msm_raw_ex(&g2, p2 + i, raw + 4 * i, len, NULL, &modes[m]) ==
                      CUZK_OK);
                CHECK_MSG(cuzk_g1_eq(&g1, &w1), "G1 scalar %zu n=%zu mode %zu", i, len, m);
                CHECK_MSG(cuzk_g2_eq(&g2, &w2), "G2 scalar %zu n=%zu mode %zu", i, len, m);
            }
        }
    }
    cuzk_g1_affine_set_infinity(&p1[5]);
    cuzk_g2_affine_set_infinity(&p2[5]);
    cuzk_g1_jac_t w1, g1;
    cuzk_g2_jac_t w2, g2;
    g1_ref_raw(&w1, p1, raw, EDGE_N);
    g2_ref_raw(&w2, p2, raw, EDGE_N);
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        for (int threaded = 0; threaded < 2; threaded++) {
            CHECK(cuzk_g1_msm_raw_ex(&g1, p1, raw, EDGE_N, threaded ? pool : NULL, &modes[m]) ==
                  CUZK_OK);
            CHECK(cuzk_g2_msm_raw_ex(&g2, p2, raw, EDGE_N, threaded ? pool : NULL, &modes[m]) ==
                  CUZK_OK);
            CHECK_MSG(cuzk_g1_eq(&g1, &w1), "G1 all, mode %zu threads %d", m, threaded + 1);
            CHECK_MSG(cuzk_g2_eq(&g2, &w2), "G2 all, mode %zu threads %d", m, threaded + 1);
        }
    }
    /* The plan reports the split; an unknown mode is rejected. */
    cuzk_msm_opts plan;
    cuzk_g1_msm_plan(&plan, 4096, NULL, NULL);
    CHECK(plan.endo == CUZK_MSM_ENDO_ON);
    cuzk_msm_opts off = {.endo = CUZK_MSM_ENDO_OFF};
    cuzk_g2_msm_plan(&plan, 4096, NULL, &off);
    CHECK(plan.endo == CUZK_MSM_ENDO_OFF);
    cuzk_msm_opts bad = {.endo = (cuzk_msm_endo)9};
    g1 = poisoned_g1();
    cuzk_g1_jac_t p0 = poisoned_g1();
    CHECK(cuzk_g1_msm_raw_ex(&g1, p1, raw, EDGE_N, NULL, &bad) == CUZK_ERR_INVALID_ARG);
    CHECK(memcmp(&g1, &p0, sizeof g1) == 0);
    cuzk_pool_destroy(pool);
    cuzk_free(p2);
    cuzk_free(p1);
}

/* |n| points of G2 (or G1) fast: a random start plus multiples of a random step (one addition
 * each), with bases at infinity at |inf_at| (SIZE_MAX: none). */
#define DEFINE_STEP_POINTS(G, AFF, JAC)                                                            \
    static AFF *G##_step_points(size_t n, size_t inf_at)                                           \
    {                                                                                              \
        AFF *out = cuzk_alloc_array(n, sizeof *out), g;                                            \
        JAC *tmp = cuzk_alloc_array(n, sizeof *tmp), gj, step;                                     \
        CHECK(out &&tmp);                                                                          \
        cuzk_##G##_generator(&g);                                                                  \
        cuzk_##G##_from_affine(&gj, &g);                                                           \
        cuzk_fr_t k;                                                                               \
        rand_fr(&k);                                                                               \
        cuzk_##G##_mul_vartime(&tmp[0], &gj, &k);                                                  \
        rand_fr(&k);                                                                               \
        cuzk_##G##_mul_vartime(&step, &gj, &k);                                                    \
        for (size_t i = 1; i < n; i++)                                                             \
            cuzk_##G##_add(&tmp[i], &tmp[i - 1], &step);                                           \
        cuzk_##G##_batch_to_affine(out, tmp, n);                                                   \
        for (size_t i = inf_at; i < n; i += 4099)                                                  \
            cuzk_##G##_affine_set_infinity(&out[i]);                                               \
        cuzk_free(tmp);                                                                            \
        return out;                                                                                \
    }
DEFINE_STEP_POINTS(g1, cuzk_g1_affine_t, cuzk_g1_jac_t)
DEFINE_STEP_POINTS(g2, cuzk_g2_affine_t, cuzk_g2_jac_t)

/*
 * One-thread MSMs large enough to make their endomorphism images slice by slice (msm_plan_slice),
 * against the two-thread MSM (all images at once) and the MSM without the split: a length that
 * leaves a short last slice, bases at infinity in several slices, scalars 0, 1 and r - 1, the
 * same point twice with one scalar (a doubling inside a batch) and with opposite scalars (a
 * cancellation), both accumulations and a forced window.
 */
static void slices_scalars(uint64_t *raw, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        cuzk_fr_t k;
        rand_fr(&k);
        cuzk_fr_to_canonical(raw + 4 * i, &k);
    }
    memset(raw + 4 * 3, 0, 32); /* 0 */
    memset(raw + 4 * 3500, 0, 32);
    raw[4 * 3500] = 1;
    memcpy(raw + 4 * 7000, R_LIMBS, 32); /* r - 1 */
    raw[4 * 7000] -= 1;
    memcpy(raw + 4 * 10, raw + 4 * 3600, 32); /* point 10 = point 3600, same scalar */
    cuzk_fr_t k;                              /* point 9000 = point 3600, opposite scalar */
    CHECK(cuzk_fr_from_canonical(&k, raw + 4 * 3600));
    cuzk_fr_neg(&k, &k);
    cuzk_fr_to_canonical(raw + 4 * 9000, &k);
}

#define DEFINE_SLICES_CHECK(G, AFF, JAC)                                                           \
    static void G##_slices_check(const AFF *p, const uint64_t *raw, size_t n,                      \
                                 const cuzk_msm_opts *modes, size_t nmodes, cuzk_pool *pool)       \
    {                                                                                              \
        JAC want, off, got;                                                                        \
        const cuzk_msm_opts no_split = {.endo = CUZK_MSM_ENDO_OFF};                                \
        CHECK(cuzk__##G##_msm_slices(n, pool, NULL, false) == 1);                                  \
        CHECK(cuzk_##G##_msm_raw_ex(&want, p, raw, n, pool, NULL) == CUZK_OK);                     \
        CHECK(cuzk_##G##_msm_raw_ex(&off, p, raw, n, NULL, &no_split) == CUZK_OK);                 \
        CHECK_MSG(cuzk_##G##_eq(&want, &off), #G " split and not, n = %zu", n);                    \
        for (size_t m = 0; m < nmodes; m++) {                                                      \
            CHECK_MSG(cuzk__##G##_msm_slices(n, NULL, &modes[m], false) > 1, #G " mode %zu", m);   \
            got = poisoned_##G();                                                                  \
            CHECK(cuzk_##G##_msm_raw_ex(&got, p, raw, n, NULL, &modes[m]) == CUZK_OK);             \
            CHECK_MSG(cuzk_##G##_eq(&got, &want), #G " sliced, mode %zu", m);                      \
        }                                                                                          \
    }
DEFINE_SLICES_CHECK(g1, cuzk_g1_affine_t, cuzk_g1_jac_t)
DEFINE_SLICES_CHECK(g2, cuzk_g2_affine_t, cuzk_g2_jac_t)

CUZK_TEST(msm_images_in_slices)
{
    const size_t n2 = 20037, n1 = 80037;
    static const cuzk_msm_opts modes2[] = {
        {0},
        {.endo = CUZK_MSM_ENDO_ON, .accum = CUZK_MSM_ACCUM_XYZZ},
        {.endo = CUZK_MSM_ENDO_ON, .accum = CUZK_MSM_ACCUM_AFFINE, .window = 14},
    };
    cuzk_pool *pool;
    CHECK(cuzk_pool_create(&pool, 2) == CUZK_OK);
    uint64_t *raw = cuzk_alloc_array(4 * n1, sizeof *raw);
    CHECK(raw != NULL);
    slices_scalars(raw, n1);
    cuzk_g2_affine_t *p2 = g2_step_points(n2, 1000);
    p2[10] = p2[9000] = p2[3600];
    g2_slices_check(p2, raw, n2, modes2, 3, pool);
    cuzk_free(p2);
    if (!SLOW_BUILD) {
        cuzk_g1_affine_t *p1 = g1_step_points(n1, 2000);
        p1[10] = p1[9000] = p1[3600];
        g1_slices_check(p1, raw, n1, modes2, 2, pool);
        cuzk_free(p1);
    }
    cuzk_pool_destroy(pool);
    cuzk_free(raw);
}

/* ---- batch addition ------------------------------------------------------------------------ */

static void random_bitmap(uint64_t *bm, size_t n, unsigned percent)
{
    size_t words = (n + 63) / 64;
    for (size_t w = 0; w < words; w++)
        bm[w] = 0;
    for (size_t i = 0; i < n; i++)
        if (test_rand_u64() % 100 < percent)
            bm[i / 64] |= (uint64_t)1 << (i % 64);
    /* Garbage past n must be ignored. */
    if (n % 64)
        bm[words - 1] |= ~(uint64_t)0 << (n % 64);
}

static const cuzk_msm_opts BADD_VARIANTS[] = {
    {0},
    {.accum = CUZK_MSM_ACCUM_XYZZ},
    {.accum = CUZK_MSM_ACCUM_AFFINE},
};
#define NBADD (sizeof BADD_VARIANTS / sizeof BADD_VARIANTS[0])

CUZK_TEST(msm_g1_batch_add_matches_subset_sum)
{
    enum { MAXN = 4097 };
    static const size_t sizes[] = {1, 63, 64, 65, 1000, MAXN};
    static const unsigned density[] = {0, 1, 50, 100};
    static uint64_t bm[(MAXN + 63) / 64];
    cuzk_g1_affine_t *pts = g1_points(MAXN);
    cuzk_g1_affine_t *bases = cuzk_alloc_array(MAXN, sizeof *bases);
    CHECK(bases);
    cuzk_pool *pool;
    CHECK(cuzk_pool_create(&pool, 3) == CUZK_OK);
    for (int bk = BASES_DISTINCT; bk < BASES_COUNT; bk++) {
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            size_t n = sizes[si];
            g1_layout(bases, pts, n, bk);
            for (size_t di = 0; di < sizeof density / sizeof density[0]; di++) {
                random_bitmap(bm, n, density[di]);
                cuzk_g1_jac_t want, got;
                g1_naive_subset(&want, bases, bm, n);
                for (size_t v = 0; v < NBADD; v++) {
                    for (int threaded = 0; threaded < 2; threaded++) {
                        got = poisoned_g1();
                        CHECK(cuzk_g1_batch_add_ex(&got, bases, bm, n, threaded ? pool : NULL,
                                                   &BADD_VARIANTS[v]) == CUZK_OK);
                        CHECK_MSG(cuzk_g1_eq(&got, &want),
                                  "n=%zu density=%u%% bases=%s variant=%zu threads=%d", n,
                                  density[di], BASES_NAME[bk], v, threaded ? 3 : 1);
                    }
                }
                got = poisoned_g1();
                CHECK(cuzk_g1_batch_add(&got, bases, bm, n, pool) == CUZK_OK);
                CHECK(cuzk_g1_eq(&got, &want));
            }
        }
    }
    cuzk_pool_destroy(pool);
    cuzk_free(bases);
    cuzk_free(pts);
}

CUZK_TEST(msm_g2_batch_add_matches_subset_sum)
{
    enum { MAXN = 700 };
    static const size_t sizes[] = {1, 64, 100, MAXN};
    static const unsigned density[] = {0, 1, 50, 100};
    static uint64_t bm[(MAXN + 63) / 64];
    cuzk_g2_affine_t *pts = g2_points(MAXN);
    cuzk_g2_affine_t *bases = cuzk_alloc_array(MAXN, sizeof *bases);
    CHECK(bases);
    cuzk_pool *pool;
    CHECK(cuzk_pool_create(&pool, 2) == CUZK_OK);
    for (int bk = BASES_DISTINCT; bk < BASES_COUNT; bk++) {
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            size_t n = sizes[si];
            g2_layout(bases, pts, n, bk);
            for (size_t di = 0; di < sizeof density / sizeof density[0]; di++) {
                random_bitmap(bm, n, density[di]);
                cuzk_g2_jac_t want, got;
                g2_naive_subset(&want, bases, bm, n);
                for (size_t v = 0; v < NBADD; v++) {
                    got = poisoned_g2();
                    CHECK(cuzk_g2_batch_add_ex(&got, bases, bm, n, (v & 1) ? pool : NULL,
                                               &BADD_VARIANTS[v]) == CUZK_OK);
                    CHECK_MSG(cuzk_g2_eq(&got, &want), "n=%zu density=%u%% bases=%s variant=%zu", n,
                              density[di], BASES_NAME[bk], v);
                }
            }
        }
    }
    cuzk_pool_destroy(pool);
    cuzk_free(bases);
    cuzk_free(pts);
}

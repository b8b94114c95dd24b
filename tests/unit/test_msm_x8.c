/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The 8-lane IFMA batch-affine path of the G1 and G2 MSM (src/msm/batch_affine_x8.h) against the
 * scalar batch-affine path (cuzk__msm_use_ifma cleared) on the same inputs: random points and
 * the bucket-conflict cases (one base repeated, so buckets double; P next to -P with equal
 * scalars, so buckets cancel; bases at infinity; 0/1 and small scalars), MSM and bitmap batch
 * addition, several windows, one and three threads. A smaller size is also checked against the
 * plain sum of products; G2 (Fp2 coordinates) the same on fewer cases. Skipped when the library was
 * built without IFMA.
 */
#include "test.h"
#include "cuzk/alloc.h"
#include "cuzk/msm.h"
#include "msm/msm_ifma.h"
#include "field/fp_ifma_fp2.h"
#include "field/fp_internal.h"
#include "field/mont.h"

/* Instrumented (ASan) builds run about five times slower: they skip the larger sizes. */
#if defined(__SANITIZE_ADDRESS__)
#define SLOW_BUILD 1
#else
#define SLOW_BUILD 0
#endif

#if CUZK_FP_HAVE_IFMA
static void rand_fr(cuzk_fr_t *out)
{
    uint64_t l[4];
    do {
        test_rand_bytes(l, sizeof l);
        l[3] &= 0x7fffffffffffffffULL;
    } while (!cuzk_fr_from_canonical(out, l));
}

enum { LAYOUT_DISTINCT, LAYOUT_SAME, LAYOUT_PLUS_MINUS, LAYOUT_SOME_INFINITY, LAYOUT_COUNT };
static const char *const LAYOUT_NAME[] = {"distinct", "same", "plus-minus", "some-infinity"};
enum { SCAL_RANDOM, SCAL_PAIRS, SCAL_BINARY, SCAL_SMALL, SCAL_COUNT };
static const char *const SCAL_NAME[] = {"random", "pairs", "0/1", "small"};

/* n bases: random multiples of the generator, arranged by |layout|. */
static void make_bases(cuzk_g1_affine_t *out, size_t n, int layout)
{
    cuzk_g1_jac_t *tmp = cuzk_alloc_array(n, sizeof *tmp);
    CHECK(tmp);
    cuzk_g1_affine_t g;
    cuzk_g1_jac_t gj;
    cuzk_g1_generator(&g);
    cuzk_g1_from_affine(&gj, &g);
    for (size_t i = 0; i < n; i++) {
        cuzk_fr_t k;
        rand_fr(&k);
        cuzk_g1_mul_vartime(&tmp[i], &gj, &k);
    }
    cuzk_g1_batch_to_affine(out, tmp, n);
    cuzk_free(tmp);
    for (size_t i = 0; i < n; i++) {
        if (layout == LAYOUT_SAME)
            out[i] = out[0];
        else if (layout == LAYOUT_PLUS_MINUS && (i & 1))
            cuzk_g1_affine_neg(&out[i], &out[i - 1]);
        else if (layout == LAYOUT_SOME_INFINITY && i % 7 == 3)
            cuzk_g1_affine_set_infinity(&out[i]);
    }
}

static void make_scalars(cuzk_fr_t *k, size_t n, int kind)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t l[4] = {0, 0, 0, 0};
        switch (kind) {
        case SCAL_RANDOM:
            rand_fr(&k[i]);
            continue;
        case SCAL_PAIRS: /* k[i] = k[i - 1] for odd i: cancels against plus-minus bases */
            if (i & 1)
                k[i] = k[i - 1];
            else
                rand_fr(&k[i]);
            continue;
        case SCAL_BINARY:
            l[0] = test_rand_u64() & 1;
            break;
        default:
            l[0] = test_rand_u64() & 0xfff;
        }
        CHECK(cuzk_fr_from_canonical(&k[i], l));
    }
}

static void make_bases_g2(cuzk_g2_affine_t *out, size_t n, int layout)
{
    cuzk_g2_jac_t *tmp = cuzk_alloc_array(n, sizeof *tmp);
    CHECK(tmp);
    cuzk_g2_affine_t g;
    cuzk_g2_jac_t gj;
    cuzk_g2_generator(&g);
    cuzk_g2_from_affine(&gj, &g);
    for (size_t i = 0; i < n; i++) {
        cuzk_fr_t k;
        rand_fr(&k);
        cuzk_g2_mul_vartime(&tmp[i], &gj, &k);
    }
    cuzk_g2_batch_to_affine(out, tmp, n);
    cuzk_free(tmp);
    for (size_t i = 0; i < n; i++) {
        if (layout == LAYOUT_SAME)
            out[i] = out[0];
        else if (layout == LAYOUT_PLUS_MINUS && (i & 1))
            cuzk_g2_affine_neg(&out[i], &out[i - 1]);
        else if (layout == LAYOUT_SOME_INFINITY && i % 7 == 3)
            cuzk_g2_affine_set_infinity(&out[i]);
    }
}

static void naive(cuzk_g1_jac_t *out, const cuzk_g1_affine_t *b, const cuzk_fr_t *k, size_t n)
{
    cuzk_g1_jac_set_infinity(out);
    for (size_t i = 0; i < n; i++) {
        if (b[i].infinity)
            continue;
        cuzk_g1_jac_t p;
        cuzk_g1_from_affine(&p, &b[i]);
        cuzk_g1_mul_vartime(&p, &p, &k[i]);
        cuzk_g1_add(out, out, &p);
    }
}
#endif

CUZK_TEST(msm_g1_x8_matches_scalar_path)
{
#if !CUZK_FP_HAVE_IFMA
    test_skip("the AVX-512 IFMA back end is not built (needs -mavx512f -mavx512ifma)");
#else
    enum { N = 2000, NAIVE_N = 200 };
    static const size_t sizes[] = {20, NAIVE_N, 1000, N};
    static const cuzk_msm_opts opts[] = {
        {.accum = CUZK_MSM_ACCUM_AFFINE},
        {.accum = CUZK_MSM_ACCUM_AFFINE, .endo = CUZK_MSM_ENDO_OFF},
        {.accum = CUZK_MSM_ACCUM_AFFINE, .window = 6},
        {.accum = CUZK_MSM_ACCUM_AFFINE, .window = 9, .chunks = 2},
    };
    cuzk_g1_affine_t *bases = cuzk_alloc_array(N, sizeof *bases);
    cuzk_fr_t *k = cuzk_alloc_array(N, sizeof *k);
    CHECK(bases && k);
    cuzk_pool *pool;
    CHECK(cuzk_pool_create(&pool, 3) == CUZK_OK);
    for (int lay = 0; lay < LAYOUT_COUNT; lay++) {
        make_bases(bases, N, lay);
        for (int sk = 0; sk < SCAL_COUNT; sk++) {
            make_scalars(k, N, sk);
            for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
                size_t n = sizes[si];
                if (SLOW_BUILD && n > NAIVE_N)
                    continue;
                cuzk_g1_jac_t want;
                if (n == NAIVE_N)
                    naive(&want, bases, k, n);
                /* The largest size (the slow part) with the first option set only. */
                size_t nv = n == N ? 1 : sizeof opts / sizeof opts[0];
                for (size_t v = 0; v < nv; v++) {
                    for (int threaded = 0; threaded < (v == 0 ? 2 : 1); threaded++) {
                        cuzk_g1_jac_t scalar, x8;
                        cuzk_pool *pl = threaded ? pool : NULL;
                        cuzk__msm_use_ifma = false;
                        CHECK(cuzk_g1_msm_ex(&scalar, bases, k, n, pl, &opts[v]) == CUZK_OK);
                        cuzk__msm_use_ifma = true;
                        CHECK(cuzk_g1_msm_ex(&x8, bases, k, n, pl, &opts[v]) == CUZK_OK);
                        CHECK_MSG(cuzk_g1_eq(&scalar, &x8),
                                  "n=%zu bases=%s scalars=%s opts=%zu threads=%d", n,
                                  LAYOUT_NAME[lay], SCAL_NAME[sk], v, threaded ? 3 : 1);
                        if (n == NAIVE_N)
                            CHECK_MSG(cuzk_g1_eq(&x8, &want), "naive: n=%zu bases=%s scalars=%s", n,
                                      LAYOUT_NAME[lay], SCAL_NAME[sk]);
                    }
                }
            }
        }
    }
    cuzk__msm_use_ifma = true;
    cuzk_pool_destroy(pool);
    cuzk_free(k);
    cuzk_free(bases);
#endif
}

/* Bitmap batch addition: lanes of affine accumulators, every round one batch. */
CUZK_TEST(msm_g1_x8_batch_add_matches_scalar_path)
{
#if !CUZK_FP_HAVE_IFMA
    test_skip("the AVX-512 IFMA back end is not built (needs -mavx512f -mavx512ifma)");
#else
    enum { N = 2000 };
    static uint64_t bm[(N + 63) / 64];
    cuzk_g1_affine_t *bases = cuzk_alloc_array(N, sizeof *bases);
    CHECK(bases);
    cuzk_msm_opts o = {.accum = CUZK_MSM_ACCUM_AFFINE};
    for (int lay = 0; lay < LAYOUT_COUNT; lay++) {
        make_bases(bases, N, lay);
        for (unsigned pct = 10; pct <= 100; pct += 45) {
            for (size_t w = 0; w < sizeof bm / sizeof bm[0]; w++) {
                uint64_t x = 0;
                for (int b = 0; b < 64; b++)
                    if (test_rand_u64() % 100 < pct)
                        x |= (uint64_t)1 << b;
                bm[w] = x;
            }
            cuzk_g1_jac_t scalar, x8, want;
            cuzk_g1_jac_set_infinity(&want);
            for (size_t i = 0; i < N; i++)
                if ((bm[i / 64] >> (i % 64)) & 1)
                    cuzk_g1_add_affine(&want, &want, &bases[i]);
            cuzk__msm_use_ifma = false;
            CHECK(cuzk_g1_batch_add_ex(&scalar, bases, bm, N, NULL, &o) == CUZK_OK);
            cuzk__msm_use_ifma = true;
            CHECK(cuzk_g1_batch_add_ex(&x8, bases, bm, N, NULL, &o) == CUZK_OK);
            CHECK_MSG(cuzk_g1_eq(&scalar, &x8), "bases=%s density=%u%%", LAYOUT_NAME[lay], pct);
            CHECK_MSG(cuzk_g1_eq(&x8, &want), "subset sum: bases=%s density=%u%%", LAYOUT_NAME[lay],
                      pct);
        }
    }
    cuzk_free(bases);
#endif
}

/* G2 (coordinates in Fp2, inversions through the Fp norm), fewer and smaller cases. */
CUZK_TEST(msm_g2_x8_matches_scalar_path)
{
#if !CUZK_FP_HAVE_IFMA
    test_skip("the AVX-512 IFMA back end is not built (needs -mavx512f -mavx512ifma)");
#else
    enum { N = 800 };
    static const size_t sizes[] = {20, 300, N};
    static const cuzk_msm_opts opts[] = {
        {.accum = CUZK_MSM_ACCUM_AFFINE},
        {.accum = CUZK_MSM_ACCUM_AFFINE, .window = 7, .endo = CUZK_MSM_ENDO_OFF},
    };
    static uint64_t bm[(N + 63) / 64];
    cuzk_g2_affine_t *bases = cuzk_alloc_array(N, sizeof *bases);
    cuzk_fr_t *k = cuzk_alloc_array(N, sizeof *k);
    CHECK(bases && k);
    for (int lay = 0; lay < LAYOUT_COUNT; lay++) {
        make_bases_g2(bases, N, lay);
        for (int sk = 0; sk < SCAL_COUNT; sk++) {
            make_scalars(k, N, sk);
            for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
                size_t n = sizes[si];
                if (SLOW_BUILD && n > 20)
                    continue;
                for (size_t v = 0; v < sizeof opts / sizeof opts[0]; v++) {
                    cuzk_g2_jac_t scalar, x8;
                    cuzk__msm_use_ifma = false;
                    CHECK(cuzk_g2_msm_ex(&scalar, bases, k, n, NULL, &opts[v]) == CUZK_OK);
                    cuzk__msm_use_ifma = true;
                    CHECK(cuzk_g2_msm_ex(&x8, bases, k, n, NULL, &opts[v]) == CUZK_OK);
                    CHECK_MSG(cuzk_g2_eq(&scalar, &x8), "n=%zu bases=%s scalars=%s opts=%zu", n,
                              LAYOUT_NAME[lay], SCAL_NAME[sk], v);
                }
            }
        }
        for (size_t w = 0; w < sizeof bm / sizeof bm[0]; w++)
            bm[w] = test_rand_u64() | test_rand_u64(); /* ~75 % density */
        cuzk_g2_jac_t scalar, x8, want;
        cuzk_g2_jac_set_infinity(&want);
        for (size_t i = 0; i < N; i++)
            if ((bm[i / 64] >> (i % 64)) & 1)
                cuzk_g2_add_affine(&want, &want, &bases[i]);
        cuzk_msm_opts o = {.accum = CUZK_MSM_ACCUM_AFFINE};
        cuzk__msm_use_ifma = false;
        CHECK(cuzk_g2_batch_add_ex(&scalar, bases, bm, N, NULL, &o) == CUZK_OK);
        cuzk__msm_use_ifma = true;
        CHECK(cuzk_g2_batch_add_ex(&x8, bases, bm, N, NULL, &o) == CUZK_OK);
        CHECK_MSG(cuzk_g2_eq(&scalar, &x8), "batch add: bases=%s", LAYOUT_NAME[lay]);
        CHECK_MSG(cuzk_g2_eq(&x8, &want), "batch add subset sum: bases=%s", LAYOUT_NAME[lay]);
    }
    cuzk_free(k);
    cuzk_free(bases);
#endif
}

#if CUZK_FP_HAVE_IFMA
/* A canonical element: uniform below p, or 0, 1, p - 1. */
static void rand_fp(cuzk_fp_t *out)
{
    const uint64_t *p = cuzk_fp_modulus;
    memset(out, 0, sizeof *out);
    switch (test_rand_u64() % 8) {
    case 0:
        return;
    case 1:
        out->l[0] = 1;
        return;
    case 2: {
        uint64_t one[6] = {1};
        mont_sub_raw(out->l, p, one, 6);
        return;
    }
    default:
        do {
            test_rand_bytes(out->l, sizeof out->l);
            out->l[5] &= 0x1fffffffffffffffULL;
        } while (mont_geq_vartime(out->l, p, 6));
    }
}

/* Eight Fp2 lanes; each coordinate is loaded either as x or, half the time, as the lazy x + p
 * (the [p, 2p) half of the range the 8-lane code keeps values in). */
/* One component, plus p at random, and 0 sometimes as 2p (the top of the lazy operands'
 * range [0, 2p], src/field/fp_ifma.h). */
static void lazy_component(cuzk_fp_t *c)
{
    bool zero = true;
    for (int i = 0; i < 6; i++)
        zero = zero && c->l[i] == 0;
    if (test_rand_u64() & 1)
        mont_add_raw(c->l, c->l, cuzk_fp_modulus, 6);
    if (zero && (test_rand_u64() & 1))
        mont_add_raw(c->l, c->l, cuzk_fp_modulus, 6);
}

static void load_lazy(fp2x8 *r, const cuzk_fp2_t v[8])
{
    cuzk_fp_t c0[8], c1[8];
    for (int k = 0; k < 8; k++) {
        c0[k] = v[k].c0;
        c1[k] = v[k].c1;
        lazy_component(&c0[k]);
        lazy_component(&c1[k]);
    }
    fp52x8_load(&r->c0, c0);
    fp52x8_load(&r->c1, c1);
}

/* A raw result (signed limbs) to canonical: + p with one carry pass, then reduce from [0, 4p). */
static void raw_to_canonical(fp52x8 *r, const fp52x8 *raw)
{
    fp52x8 zero;
    memset(&zero, 0, sizeof zero);
    fp52x8_sub_lazy_(r, raw, &zero, fp52_p);
    fp52x8_reduce_4p_(r, r);
}

static void check_fp2_lanes(const fp2x8 *x, bool raw, const cuzk_fp2_t want[8], const char *what,
                            int it, int step)
{
    cuzk_fp_t c0[8], c1[8];
    fp2x8 v = *x;
    if (raw) {
        raw_to_canonical(&v.c0, &x->c0);
        raw_to_canonical(&v.c1, &x->c1);
    }
    fp52x8_store(c0, &v.c0);
    fp52x8_store(c1, &v.c1);
    for (int k = 0; k < 8; k++)
        CHECK_MSG(memcmp(&c0[k], &want[k].c0, sizeof c0[k]) == 0 &&
                      memcmp(&c1[k], &want[k].c1, sizeof c1[k]) == 0,
                  "%s: iteration %d, step %d, lane %d", what, it, step, k);
}
#endif

/* fp2x8_mul (three products, one reduction per coordinate, unreduced sums) against
 * cuzk_fp2_mul, and fp2x8_norm (two squares, one reduction) against c0^2 + c1^2: lazy and edge
 * inputs, and chains that feed the lazy outputs back in. */
CUZK_TEST(msm_fp2x8_mul_vs_scalar)
{
#if !CUZK_FP_HAVE_IFMA
    test_skip("the AVX-512 IFMA back end is not built");
#else
    for (int it = 0; it < 3000; it++) {
        cuzk_fp2_t a[8], b[8], want[8], got[8];
        for (int k = 0; k < 8; k++) {
            rand_fp(&a[k].c0);
            rand_fp(&a[k].c1);
            rand_fp(&b[k].c0);
            rand_fp(&b[k].c1);
        }
        fp2x8 x, y;
        load_lazy(&x, a);
        load_lazy(&y, b);
        for (int step = 0; step < 8; step++) { /* x = x y, then x = x x, ... */
            fp2x8 *rhs = step & 1 ? &x : &y;
            for (int k = 0; k < 8; k++)
                cuzk_fp2_mul(&want[k], &a[k], step & 1 ? &a[k] : &b[k]);
            /* the raw and squaring forms on the same operands first */
            fp2x8 r;
            fp2x8_mul_raw_(&r, &x, rhs);
            check_fp2_lanes(&r, true, want, "mul_raw", it, step);
            if (step & 1) {
                fp2x8_sqr(&r, &x);
                check_fp2_lanes(&r, false, want, "sqr", it, step);
                fp2x8_sqr_raw_(&r, &x);
                check_fp2_lanes(&r, true, want, "sqr_raw", it, step);
            }
            fp2x8_mul(&x, &x, rhs);
            cuzk_fp_t c0[8], c1[8];
            fp52x8_store(c0, &x.c0);
            fp52x8_store(c1, &x.c1);
            for (int k = 0; k < 8; k++) {
                got[k].c0 = c0[k];
                got[k].c1 = c1[k];
                CHECK_MSG(memcmp(&got[k], &want[k], sizeof got[k]) == 0,
                          "iteration %d, step %d, lane %d", it, step, k);
                a[k] = want[k];
            }
            fp52x8 nrm;
            cuzk_fp_t n8[8];
            fp2x8_norm(&nrm, &x);
            fp52x8_store(n8, &nrm);
            for (int k = 0; k < 8; k++) {
                cuzk_fp_t n, t;
                cuzk_fp_sqr(&n, &a[k].c0);
                cuzk_fp_sqr(&t, &a[k].c1);
                cuzk_fp_add(&n, &n, &t);
                CHECK_MSG(memcmp(&n8[k], &n, sizeof n) == 0, "norm: iteration %d, step %d, lane %d",
                          it, step, k);
            }
        }
    }
#endif
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Device MSM and batch addition (src/gpu/msm_*.cu, batch_add.cu) against the CPU functions of
 * include/cuzk/msm.h: results are normalised to affine and compared byte for byte. Random
 * scalars at sizes up to 2^20 (G1) and 2^16 (G2) (env CUZK_TEST_NPOW sets the largest power of
 * both; scripts/gpu-check.sh uses 22), and the edge inputs of tests/unit/test_msm.c: zero, one and
 * r-1 scalars, 0/1-heavy mixes, sparse (95 % zero) scalars, small scalars, n not a power of two, n
 * = 1, bases at infinity, one base repeated, P next to -P; bitmaps empty, full, random, with bits
 * set past n; resident bases over sub-ranges. Without a device (or in the stub build) every test
 * reports SKIP.
 */
#include "test.h"
#include "cuzk/alloc.h"
#include "cuzk/backend.h"
#include "cuzk/msm.h"
#include "cuzk/poly.h"
#include "cuzk/threadpool.h"
#include "gpu/gpu_msm.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

static void need_device(void)
{
    if (!cuzk_gpu_available())
        test_skip("no CUDA device");
}

static unsigned max_pow(unsigned dflt)
{
    const char *e = getenv("CUZK_TEST_NPOW");
    if (e && *e) {
        unsigned v = (unsigned)strtoul(e, NULL, 10);
        if (v >= 1 && v <= 26)
            return v;
    }
    return dflt;
}

static cuzk_pool *pool_all(void)
{
    cuzk_pool *p = NULL;
    CHECK(cuzk_pool_create(&p, 0) == CUZK_OK);
    return p;
}

static void rand_fr(cuzk_fr_t *out)
{
    uint64_t l[4];
    do {
        test_rand_bytes(l, sizeof l);
        l[3] &= 0x7fffffffffffffffULL;
    } while (!cuzk_fr_from_canonical(out, l));
}

/* ---- inputs ------------------------------------------------------------------------------ */

/* bases[i] = P + i Q for random P, Q (cheap at 2^20, as good as random here), then the layout. */
enum { BASES_DISTINCT, BASES_SAME, BASES_SOME_INFINITY, BASES_PLUS_MINUS, BASES_COUNT };
static const char *const BASES_NAME[] = {"distinct", "same", "some-infinity", "plus-minus"};

#define GEN_BATCH 4096
#define DEFINE_BASES(G, AFF, JAC)                                                                  \
    static AFF *G##_bases(size_t n, int layout)                                                    \
    {                                                                                              \
        AFF *out = cuzk_alloc_array(n ? n : 1, sizeof *out);                                       \
        JAC *tmp = cuzk_alloc_array(GEN_BATCH, sizeof *tmp);                                       \
        CHECK(out &&tmp);                                                                          \
        AFF g;                                                                                     \
        JAC gj, p, q;                                                                              \
        cuzk_fr_t k;                                                                               \
        cuzk_##G##_generator(&g);                                                                  \
        cuzk_##G##_from_affine(&gj, &g);                                                           \
        rand_fr(&k);                                                                               \
        cuzk_##G##_mul_vartime(&p, &gj, &k);                                                       \
        rand_fr(&k);                                                                               \
        cuzk_##G##_mul_vartime(&q, &gj, &k);                                                       \
        for (size_t i = 0; i < n; i += GEN_BATCH) {                                                \
            size_t m = n - i < GEN_BATCH ? n - i : GEN_BATCH;                                      \
            for (size_t j = 0; j < m; j++) {                                                       \
                tmp[j] = p;                                                                        \
                cuzk_##G##_add(&p, &p, &q);                                                        \
            }                                                                                      \
            cuzk_##G##_batch_to_affine(out + i, tmp, m);                                           \
        }                                                                                          \
        cuzk_free(tmp);                                                                            \
        for (size_t i = 0; i < n; i++) {                                                           \
            if (layout == BASES_SAME)                                                              \
                out[i] = out[0];                                                                   \
            else if (layout == BASES_SOME_INFINITY && i % 5 == 2)                                  \
                cuzk_##G##_affine_set_infinity(&out[i]);                                           \
            else if (layout == BASES_PLUS_MINUS && (i & 1))                                        \
                cuzk_##G##_affine_neg(&out[i], &out[i - 1]);                                       \
        }                                                                                          \
        return out;                                                                                \
    }
DEFINE_BASES(g1, cuzk_g1_affine_t, cuzk_g1_jac_t)
DEFINE_BASES(g2, cuzk_g2_affine_t, cuzk_g2_jac_t)

enum {
    SC_RANDOM,
    SC_ZERO,
    SC_ONE,
    SC_R_MINUS_1,
    SC_BINARY_HEAVY, /* 45 % zero, 45 % one, 10 % random */
    SC_SMALL,        /* below 2^16 */
    SC_PAIRS,        /* scalar i equals scalar i - 1 for odd i (cancels with BASES_PLUS_MINUS) */
    SC_SPARSE,       /* 95 % zero, 5 % random: the device selects the non-zero ones first */
    SC_COUNT
};
static const char *const SC_NAME[] = {"random", "zero",  "one",   "r-1",
                                      "0/1",    "small", "pairs", "sparse"};

static cuzk_fr_t *make_scalars(size_t n, int kind)
{
    cuzk_fr_t *k = cuzk_alloc_array(n ? n : 1, sizeof *k);
    CHECK(k != NULL);
    for (size_t i = 0; i < n; i++) {
        uint64_t u = test_rand_u64() % 100;
        switch (kind) {
        case SC_RANDOM:
            rand_fr(&k[i]);
            break;
        case SC_ZERO:
            cuzk_fr_set_zero(&k[i]);
            break;
        case SC_ONE:
            cuzk_fr_set_one(&k[i]);
            break;
        case SC_R_MINUS_1:
            cuzk_fr_set_one(&k[i]);
            cuzk_fr_neg(&k[i], &k[i]);
            break;
        case SC_BINARY_HEAVY:
            if (u >= 90)
                rand_fr(&k[i]);
            else
                cuzk_fr_set_u64(&k[i], u < 45 ? 0 : 1);
            break;
        case SC_SMALL:
            cuzk_fr_set_u64(&k[i], test_rand_u64() & 0xffff);
            break;
        case SC_SPARSE:
            if (u >= 95)
                rand_fr(&k[i]);
            else
                cuzk_fr_set_zero(&k[i]);
            break;
        case SC_PAIRS:
            if (i & 1)
                k[i] = k[i - 1];
            else
                rand_fr(&k[i]);
            break;
        }
    }
    return k;
}

/* |kind| 0: empty, 1: full (bits past n set too), 2: random. */
static uint64_t *make_bitmap(size_t n, int kind)
{
    size_t w = (n + 63) / 64;
    uint64_t *bm = cuzk_alloc_array(w ? w : 1, sizeof *bm);
    CHECK(bm != NULL);
    for (size_t i = 0; i < w; i++)
        bm[i] = kind == 0 ? 0 : kind == 1 ? ~0ULL : test_rand_u64();
    return bm;
}

/* ---- comparison -------------------------------------------------------------------------- */

#define DEFINE_SAME(G, AFF, JAC)                                                                   \
    static bool G##_same(const JAC *a, const JAC *b)                                               \
    {                                                                                              \
        AFF x, y;                                                                                  \
        cuzk_##G##_to_affine(&x, a);                                                               \
        cuzk_##G##_to_affine(&y, b);                                                               \
        if (x.infinity || y.infinity)                                                              \
            return x.infinity == y.infinity;                                                       \
        return memcmp(&x.x, &y.x, sizeof x.x) == 0 && memcmp(&x.y, &y.y, sizeof x.y) == 0;         \
    }
DEFINE_SAME(g1, cuzk_g1_affine_t, cuzk_g1_jac_t)
DEFINE_SAME(g2, cuzk_g2_affine_t, cuzk_g2_jac_t)

#define CHECK_OK(expr)                                                                             \
    do {                                                                                           \
        cuzk_status s_ = (expr);                                                                   \
        CHECK_MSG(s_ == CUZK_OK, "%s: %s: %s", #expr, cuzk_status_name(s_), cuzk_last_error());    \
    } while (0)

/* One MSM on the device and on the CPU over the same inputs. */
#define DEFINE_ONE(G, AFF, JAC)                                                                    \
    static void G##_msm_case(cuzk_pool *pool, size_t n, int layout, int sk)                        \
    {                                                                                              \
        AFF *b = G##_bases(n, layout);                                                             \
        cuzk_fr_t *k = make_scalars(n, sk);                                                        \
        JAC got, want;                                                                             \
        memset(&got, 0xa5, sizeof got);                                                            \
        cuzk_gpu_timing t;                                                                         \
        CHECK_OK(cuzk_gpu_msm_##G(-1, &got, b, k, n, &t));                                         \
        CHECK_OK(cuzk_##G##_msm(&want, b, k, n, pool));                                            \
        CHECK_MSG(G##_same(&got, &want), #G " msm n=%zu bases=%s scalars=%s: device != CPU", n,    \
                  BASES_NAME[layout], SC_NAME[sk]);                                                \
        CHECK(t.total_ms >= t.compute_ms && t.compute_ms > 0);                                     \
        cuzk_free(b);                                                                              \
        cuzk_free(k);                                                                              \
    }                                                                                              \
    static void G##_badd_case(cuzk_pool *pool, size_t n, int layout, int bk)                       \
    {                                                                                              \
        AFF *b = G##_bases(n, layout);                                                             \
        uint64_t *bm = make_bitmap(n, bk);                                                         \
        JAC got, want;                                                                             \
        memset(&got, 0xa5, sizeof got);                                                            \
        CHECK_OK(cuzk_gpu_batch_add_##G(-1, &got, b, bm, n, NULL));                                \
        CHECK_OK(cuzk_##G##_batch_add(&want, b, bm, n, pool));                                     \
        CHECK_MSG(G##_same(&got, &want), #G " batch add n=%zu bases=%s bitmap=%d: device != CPU",  \
                  n, BASES_NAME[layout], bk);                                                      \
        cuzk_free(b);                                                                              \
        cuzk_free(bm);                                                                             \
    }
DEFINE_ONE(g1, cuzk_g1_affine_t, cuzk_g1_jac_t)
DEFINE_ONE(g2, cuzk_g2_affine_t, cuzk_g2_jac_t)

/* ---- tests ------------------------------------------------------------------------------- */

CUZK_TEST(gpu_msm_g1_random)
{
    need_device();
    cuzk_pool *pool = pool_all();
    unsigned top = max_pow(20);
    static const size_t odd[] = {1, 2, 3, 100, 1000, 4097, 12345};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
        g1_msm_case(pool, odd[i], BASES_DISTINCT, SC_RANDOM);
    for (unsigned p = 10; p <= top; p += 2)
        g1_msm_case(pool, (size_t)1 << p, BASES_DISTINCT, SC_RANDOM);
    cuzk_pool_destroy(pool);
}

CUZK_TEST(gpu_msm_g1_edges)
{
    need_device();
    cuzk_pool *pool = pool_all();
    static const size_t sizes[] = {1, 5, 777, 5000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int layout = 0; layout < BASES_COUNT; layout++)
            for (int sk = 0; sk < SC_COUNT; sk++)
                g1_msm_case(pool, sizes[i], layout, sk);
    /* 0/1-heavy, all-one and repeated bases at a size where buckets hold many points */
    size_t big = (size_t)1 << (max_pow(20) < 18 ? max_pow(20) : 18);
    g1_msm_case(pool, big, BASES_DISTINCT, SC_BINARY_HEAVY);
    g1_msm_case(pool, big, BASES_DISTINCT, SC_SPARSE);
    g1_msm_case(pool, big, BASES_SOME_INFINITY, SC_SPARSE);
    g1_msm_case(pool, big, BASES_DISTINCT, SC_ZERO);
    g1_msm_case(pool, big, BASES_DISTINCT, SC_ONE);
    g1_msm_case(pool, big, BASES_SAME, SC_SMALL);
    g1_msm_case(pool, big, BASES_SOME_INFINITY, SC_RANDOM);
    if (max_pow(20) > 18) /* 0/1-heavy at the largest size too */
        g1_msm_case(pool, (size_t)1 << max_pow(20), BASES_DISTINCT, SC_BINARY_HEAVY);
    cuzk_pool_destroy(pool);
}

CUZK_TEST(gpu_msm_g2)
{
    need_device();
    cuzk_pool *pool = pool_all();
    unsigned top = max_pow(16); /* CUZK_TEST_NPOW=22 for the 2^22 */
    static const size_t sizes[] = {1, 3, 600};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int layout = 0; layout < BASES_COUNT; layout++)
            for (int sk = 0; sk < SC_COUNT; sk++)
                g2_msm_case(pool, sizes[i], layout, sk);
    for (unsigned p = 10; p <= top; p += 3)
        g2_msm_case(pool, (size_t)1 << p, BASES_DISTINCT, SC_RANDOM);
    g2_msm_case(pool, (size_t)1 << top, BASES_DISTINCT, SC_RANDOM);
    g2_msm_case(pool, (size_t)1 << top, BASES_DISTINCT, SC_BINARY_HEAVY);
    g2_msm_case(pool, (size_t)1 << top, BASES_DISTINCT, SC_SPARSE);
    cuzk_pool_destroy(pool);
}

CUZK_TEST(gpu_msm_batch_add)
{
    need_device();
    cuzk_pool *pool = pool_all();
    static const size_t sizes[] = {1, 63, 64, 65, 1000, 4099};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int layout = 0; layout < BASES_COUNT; layout++)
            for (int bk = 0; bk < 3; bk++) {
                g1_badd_case(pool, sizes[i], layout, bk);
                if (sizes[i] <= 1000)
                    g2_badd_case(pool, sizes[i], layout, bk);
            }
    g1_badd_case(pool, (size_t)1 << max_pow(20), BASES_DISTINCT, 2);
    g1_badd_case(pool, ((size_t)1 << max_pow(20)) - 17, BASES_DISTINCT, 1);
    g2_badd_case(pool, (size_t)1 << (max_pow(20) < 16 ? max_pow(20) : 16), BASES_DISTINCT, 2);
    cuzk_pool_destroy(pool);
}

/* MSMs and batch additions over host bases streamed in chunks (src/gpu/msm_stream.cuh), chunk
 * sizes forced small through CUZK_GPU_MSM_STREAM: sizes with a partial last chunk, one point
 * past a chunk, scalar kinds whose chunks differ (sparse: some chunks select nothing), bitmaps
 * with bits past n; each against the CPU, and the chunks counted so the streamed path is known
 * to have run. */
static size_t streamed_since(size_t before)
{
    return cuzk__gpu_msm_streamed_chunks() - before;
}

CUZK_TEST(gpu_msm_stream)
{
    need_device();
    cuzk_pool *pool = pool_all();
    size_t c0 = cuzk__gpu_msm_streamed_chunks();
    CHECK(setenv("CUZK_GPU_MSM_STREAM", "4096", 1) == 0);
    g1_msm_case(pool, 3 * 4096 + 777, BASES_DISTINCT, SC_RANDOM); /* 4 chunks */
    CHECK_MSG(streamed_since(c0) == 4, "g1 msm: %zu chunks streamed, 4 expected",
              streamed_since(c0));
    g1_msm_case(pool, 4097, BASES_DISTINCT, SC_RANDOM);
    g1_msm_case(pool, 5 * 4096, BASES_DISTINCT, SC_SPARSE);
    g1_msm_case(pool, 3 * 4096 + 1, BASES_SOME_INFINITY, SC_BINARY_HEAVY);
    g1_msm_case(pool, 2 * 4096 + 64, BASES_PLUS_MINUS, SC_PAIRS);
    g1_msm_case(pool, 4 * 4096, BASES_DISTINCT, SC_ZERO);
    g1_msm_case(pool, 4096, BASES_DISTINCT, SC_RANDOM); /* one chunk: the plain call */
    size_t c1 = cuzk__gpu_msm_streamed_chunks();
    CHECK_MSG(streamed_since(c0) == 4 + 2 + 5 + 4 + 3 + 4, "g1: %zu chunks", streamed_since(c0));
    g2_msm_case(pool, 2 * 4096 + 300, BASES_DISTINCT, SC_RANDOM);
    g2_msm_case(pool, 3 * 4096, BASES_DISTINCT, SC_SPARSE);
    CHECK_MSG(streamed_since(c1) == 3 + 3, "g2: %zu chunks", streamed_since(c1));
    /* ramped: 128, 256, ..., 4096, 4096, 905 points; G2: 128 ... 2048, then the last 228 */
    CHECK(setenv("CUZK_GPU_MSM_RAMP", "1", 1) == 0);
    size_t cr = cuzk__gpu_msm_streamed_chunks();
    g1_msm_case(pool, 3 * 4096 + 777, BASES_DISTINCT, SC_RANDOM);
    CHECK_MSG(streamed_since(cr) == 8, "g1 ramped: %zu chunks", streamed_since(cr));
    g2_msm_case(pool, 4096 + 100, BASES_DISTINCT, SC_BINARY_HEAVY);
    CHECK_MSG(streamed_since(cr) == 8 + 6, "g2 ramped: %zu chunks", streamed_since(cr));
    CHECK(unsetenv("CUZK_GPU_MSM_RAMP") == 0);
    /* chunks of 100 points are rounded up to 128 (whole bitmap words) */
    CHECK(setenv("CUZK_GPU_MSM_STREAM", "100", 1) == 0);
    size_t c2 = cuzk__gpu_msm_streamed_chunks();
    g1_badd_case(pool, 1000, BASES_DISTINCT, 2);     /* 8 chunks */
    g1_badd_case(pool, 128 * 3, BASES_DISTINCT, 1);  /* 3 chunks, bits past n: none here */
    g1_badd_case(pool, 128 * 3 - 5, BASES_SAME, 1);  /* bits past n in the last word */
    g1_badd_case(pool, 640, BASES_SOME_INFINITY, 0); /* 5 chunks, nothing selected */
    g2_badd_case(pool, 700, BASES_PLUS_MINUS, 2);    /* 6 chunks */
    CHECK_MSG(streamed_since(c2) == 8 + 3 + 3 + 5 + 6, "batch additions: %zu chunks",
              streamed_since(c2));
    /* 0: never streamed */
    CHECK(setenv("CUZK_GPU_MSM_STREAM", "0", 1) == 0);
    size_t c3 = cuzk__gpu_msm_streamed_chunks();
    g1_msm_case(pool, 3 * 4096 + 777, BASES_DISTINCT, SC_RANDOM);
    g1_badd_case(pool, 1000, BASES_DISTINCT, 2);
    CHECK(streamed_since(c3) == 0);
    CHECK(unsetenv("CUZK_GPU_MSM_STREAM") == 0);
    cuzk_pool_destroy(pool);
}

/* Resident bases: sub-ranges of one upload, repeated calls, the wrong group rejected. */
CUZK_TEST(gpu_msm_resident)
{
    need_device();
    cuzk_pool *pool = pool_all();
    size_t n = 20000;
    cuzk_g1_affine_t *b1 = g1_bases(n, BASES_SOME_INFINITY);
    cuzk_g2_affine_t *b2 = g2_bases(2000, BASES_DISTINCT);
    cuzk_fr_t *k = make_scalars(n, SC_BINARY_HEAVY);
    uint64_t *bm = make_bitmap(n, 2);
    cuzk_gpu_bases *r1 = NULL, *r2 = NULL;
    CHECK_OK(cuzk_gpu_bases_upload_g1(&r1, -1, b1, n));
    CHECK_OK(cuzk_gpu_bases_upload_g2(&r2, -1, b2, 2000));
    CHECK(cuzk_gpu_bases_count(r1) == n && cuzk_gpu_bases_count(r2) == 2000);
    static const size_t ranges[][2] = {{0, 20000}, {0, 1}, {3, 9000}, {12345, 7655}, {19999, 1}};
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        size_t first = ranges[i][0], m = ranges[i][1];
        cuzk_g1_jac_t got, want;
        CHECK_OK(cuzk_gpu_msm_g1_resident(&got, r1, first, k, m, NULL));
        CHECK_OK(cuzk_g1_msm(&want, b1 + first, k, m, pool));
        CHECK_MSG(g1_same(&got, &want), "resident g1 msm [%zu, +%zu)", first, m);
        if (first % 64 == 0) {
            CHECK_OK(cuzk_gpu_batch_add_g1_resident(&got, r1, first, bm + first / 64, m, NULL));
            CHECK_OK(cuzk_g1_batch_add(&want, b1 + first, bm + first / 64, m, pool));
            CHECK_MSG(g1_same(&got, &want), "resident g1 batch add [%zu, +%zu)", first, m);
        }
    }
    {
        /* sparse scalars over a sub-range (the non-zero selection with an offset base array) */
        cuzk_fr_t *ks = make_scalars(n, SC_SPARSE);
        cuzk_g1_jac_t got, want;
        CHECK_OK(cuzk_gpu_msm_g1_resident(&got, r1, 3, ks, 9000, NULL));
        CHECK_OK(cuzk_g1_msm(&want, b1 + 3, ks, 9000, pool));
        CHECK_MSG(g1_same(&got, &want), "resident sparse g1 msm");
        cuzk_free(ks);
    }
    cuzk_g2_jac_t got2, want2;
    CHECK_OK(cuzk_gpu_msm_g2_resident(&got2, r2, 100, k, 1900, NULL));
    CHECK_OK(cuzk_g2_msm(&want2, b2 + 100, k, 1900, pool));
    CHECK(g2_same(&got2, &want2));
    CHECK_OK(cuzk_gpu_batch_add_g2_resident(&got2, r2, 0, bm, 2000, NULL));
    CHECK_OK(cuzk_g2_batch_add(&want2, b2, bm, 2000, pool));
    CHECK(g2_same(&got2, &want2));
    cuzk_g1_jac_t j;
    CHECK(cuzk_gpu_msm_g1_resident(&j, r2, 0, k, 10, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_gpu_msm_g1_resident(&j, r1, n - 5, k, 6, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_gpu_msm_g2_resident(&got2, r1, 0, k, 10, NULL) == CUZK_ERR_INVALID_ARG);
    cuzk_gpu_bases_free(r1);
    cuzk_gpu_bases_free(r2);
    cuzk_gpu_bases_free(NULL);
    cuzk_free(b1);
    cuzk_free(b2);
    cuzk_free(k);
    cuzk_free(bm);
    cuzk_pool_destroy(pool);
}

/* Precomputed multiples of resident G1 bases (cuzk_gpu_bases_precompute): the one-window MSM
 * over them, for sub-ranges, every scalar kind, sparse scalars and (index, scalar) pairs, with
 * c = 8 (32 rows), 13 and the automatic width, equals the CPU; G2 bases and a bad width are
 * refused; each call replaces the tables of the one before. */
CUZK_TEST(gpu_msm_precompute)
{
    need_device();
    cuzk_pool *pool = pool_all();
    const size_t n = 20000;
    cuzk_g1_affine_t *b1 = g1_bases(n, BASES_SOME_INFINITY);
    cuzk_g2_affine_t *b2 = g2_bases(16, BASES_DISTINCT);
    cuzk_gpu_bases *r1 = NULL, *r2 = NULL;
    CHECK_OK(cuzk_gpu_bases_upload_g1(&r1, -1, b1, n));
    CHECK_OK(cuzk_gpu_bases_upload_g2(&r2, -1, b2, 16));
    CHECK(cuzk_gpu_bases_precomputed(r1) == 0);
    CHECK(cuzk_gpu_bases_precompute(r2, 0) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_gpu_bases_precompute(r1, 7) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_gpu_bases_precompute(r1, 24) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_gpu_bases_precompute(NULL, 8) == CUZK_ERR_INVALID_ARG);
    static const unsigned widths[] = {8, 13, 0};
    static const size_t ranges[][2] = {{0, 20000}, {0, 1}, {3, 9000}, {12345, 7655}, {19999, 1}};
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
        CHECK_OK(cuzk_gpu_bases_precompute(r1, widths[w]));
        const unsigned c = cuzk_gpu_bases_precomputed(r1);
        CHECK(c >= 8 && c <= 23 && (!widths[w] || c == widths[w]));
        for (int sk = 0; sk < SC_COUNT; sk++) {
            cuzk_fr_t *k = make_scalars(n, sk);
            const size_t *rg = ranges[(w + (size_t)sk) % 5];
            cuzk_g1_jac_t got, want;
            CHECK_OK(cuzk_gpu_msm_g1_resident(&got, r1, rg[0], k, rg[1], NULL));
            CHECK_OK(cuzk_g1_msm(&want, b1 + rg[0], k, rg[1], pool));
            CHECK_MSG(g1_same(&got, &want), "precomputed (c = %u) g1 msm [%zu, +%zu), %s", c, rg[0],
                      rg[1], SC_NAME[sk]);
            cuzk_free(k);
        }
        /* (index, scalar) pairs from base 100 on: every third base, some twice */
        const size_t m = 4000;
        uint32_t *idx = cuzk_alloc_array(m, sizeof *idx);
        cuzk_g1_affine_t *g = cuzk_alloc_array(m, sizeof *g);
        cuzk_fr_t *k = make_scalars(m, SC_RANDOM);
        CHECK(idx && g);
        for (size_t j = 0; j < m; j++) {
            idx[j] = (uint32_t)((j % 7 == 0 ? j / 2 : 3 * j) % (n - 100));
            g[j] = b1[100 + idx[j]];
        }
        cuzk_g1_jac_t got, want;
        CHECK_OK(cuzk_gpu_msm_g1_resident_idx(&got, r1, 100, idx, k, m, NULL));
        CHECK_OK(cuzk_g1_msm(&want, g, k, m, pool));
        CHECK_MSG(g1_same(&got, &want), "precomputed (c = %u) g1 msm of index pairs", c);
        cuzk_free(idx);
        cuzk_free(g);
        cuzk_free(k);
    }
    cuzk_gpu_bases_free(r1);
    cuzk_gpu_bases_free(r2);
    cuzk_free(b1);
    cuzk_free(b2);
    cuzk_pool_destroy(pool);
}

CUZK_TEST(gpu_msm_args)
{
    need_device();
    cuzk_g1_jac_t j;
    cuzk_g2_jac_t j2;
    cuzk_fr_t k;
    cuzk_fr_set_one(&k);
    uint64_t bm = 1;
    CHECK(cuzk_gpu_msm_g1(-1, NULL, NULL, NULL, 0, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_gpu_msm_g1(-1, &j, NULL, &k, 1, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_gpu_msm_g2(-1, &j2, NULL, &k, 1, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_gpu_batch_add_g1(-1, &j, NULL, &bm, 1, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_gpu_batch_add_g2(-1, NULL, NULL, &bm, 0, NULL) == CUZK_ERR_INVALID_ARG);
    /* n = 0 is the identity */
    CHECK_OK(cuzk_gpu_msm_g1(-1, &j, NULL, NULL, 0, NULL));
    CHECK(cuzk_g1_jac_is_infinity(&j));
    CHECK_OK(cuzk_gpu_batch_add_g2(-1, &j2, NULL, NULL, 0, NULL));
    CHECK(cuzk_g2_jac_is_infinity(&j2));
    /* an ordinal without a device */
    CHECK(cuzk_gpu_msm_g1(4096, &j, NULL, NULL, 0, NULL) == CUZK_ERR_NO_DEVICE);
}

/* The backend's residency (cuzk_backend_keep_resident): calls whose bases lie inside a resident
 * array use the device copy — sub-ranges, both groups, batch additions — and give the CPU
 * result; after the drop the same calls upload again and still agree. */
CUZK_TEST(gpu_backend_resident)
{
    need_device();
    cuzk_pool *pool = pool_all();
    cuzk_backend *be = NULL, *cpu = NULL;
    CHECK_OK(cuzk_backend_create(&be, CUZK_BACKEND_CUDA, 0));
    CHECK_OK(cuzk_backend_create(&cpu, CUZK_BACKEND_CPU, 0));
    size_t n = 30000, n2 = 3000;
    cuzk_g1_affine_t *b1 = g1_bases(n, BASES_DISTINCT);
    cuzk_g2_affine_t *b2 = g2_bases(n2, BASES_DISTINCT);
    cuzk_fr_t *k = make_scalars(n, SC_RANDOM);
    uint64_t *bm = make_bitmap(n, 2);
    /* the CPU backend accepts and ignores residency */
    CHECK_OK(cuzk_backend_keep_resident(cpu, b1, n, false));
    CHECK(cuzk_backend_resident_bytes(cpu) == 0);
    CHECK(cuzk_backend_keep_resident(be, NULL, 1, false) == CUZK_ERR_INVALID_ARG);
    CHECK_OK(cuzk_backend_keep_resident(be, b1, n, false));
    CHECK_OK(cuzk_backend_keep_resident(be, b1, n, false)); /* idempotent */
    CHECK_OK(cuzk_backend_keep_resident(be, b2, n2, true));
    CHECK(cuzk_backend_resident_bytes(be) ==
          n * sizeof(cuzk_g1_affine_t) + n2 * sizeof(cuzk_g2_affine_t));
    for (int pass = 0; pass < 2; pass++) {
        static const size_t r1[][2] = {{0, 30000}, {7, 12000}, {29999, 1}, {640, 29360}};
        for (size_t i = 0; i < sizeof r1 / sizeof r1[0]; i++) {
            size_t f = r1[i][0], m = r1[i][1];
            cuzk_g1_jac_t got, want;
            CHECK_OK(cuzk_backend_msm_g1(be, &got, b1 + f, k, m));
            CHECK_OK(cuzk_g1_msm(&want, b1 + f, k, m, pool));
            CHECK_MSG(g1_same(&got, &want), "pass %d backend g1 msm [%zu, +%zu)", pass, f, m);
            if (f % 64 == 0) {
                CHECK_OK(cuzk_backend_batch_add_g1(be, &got, b1 + f, bm + f / 64, m));
                CHECK_OK(cuzk_g1_batch_add(&want, b1 + f, bm + f / 64, m, pool));
                CHECK_MSG(g1_same(&got, &want), "pass %d backend g1 batch add [%zu, +%zu)", pass, f,
                          m);
            }
        }
        cuzk_g2_jac_t got2, want2;
        CHECK_OK(cuzk_backend_msm_g2(be, &got2, b2 + 5, k, n2 - 5));
        CHECK_OK(cuzk_g2_msm(&want2, b2 + 5, k, n2 - 5, pool));
        CHECK_MSG(g2_same(&got2, &want2), "pass %d backend g2 msm", pass);
        CHECK_OK(cuzk_backend_batch_add_g2(be, &got2, b2, bm, n2));
        CHECK_OK(cuzk_g2_batch_add(&want2, b2, bm, n2, pool));
        CHECK_MSG(g2_same(&got2, &want2), "pass %d backend g2 batch add", pass);
        cuzk_backend_drop_resident(be, b1);
        cuzk_backend_drop_resident(be, b2);
        cuzk_backend_drop_resident(be, b2); /* not held: no-op */
        CHECK(cuzk_backend_resident_bytes(be) == 0);
    }
    cuzk_backend_destroy(be);
    cuzk_backend_destroy(cpu);
    cuzk_free(b1);
    cuzk_free(b2);
    cuzk_free(k);
    cuzk_free(bm);
    cuzk_pool_destroy(pool);
}

/* cuzk_backend_h_msm_g1: the H step feeding the H MSM on the device, against cuzk_poly_h and the
 * CPU MSM, for a, b, c of |rows| below and at the domain size, with c given and with c = NULL
 * (a * b on the device); and when it declines. */
CUZK_TEST(gpu_backend_h_msm)
{
    need_device();
    cuzk_pool *pool = pool_all();
    cuzk_backend *be = NULL, *cpu = NULL;
    CHECK_OK(cuzk_backend_create(&be, CUZK_BACKEND_CUDA, 0));
    CHECK_OK(cuzk_backend_create(&cpu, CUZK_BACKEND_CPU, 0));
    for (unsigned lg = 10; lg <= 13; lg += 3) {
        size_t n = (size_t)1 << lg;
        cuzk_domain *d = NULL;
        CHECK_OK(cuzk_domain_create(&d, n, CUZK_ROOTS_BELLPERSON));
        cuzk_g1_affine_t *hb = g1_bases(n + 2, BASES_DISTINCT);
        const size_t rows_list[] = {n, n - 1, n / 2 + 3, 1};
        for (size_t ri = 0; ri < 4; ri++) {
            size_t rows = rows_list[ri];
            cuzk_fr_t *v[3], *w[3];
            for (int i = 0; i < 3; i++) {
                v[i] = make_scalars(rows, SC_RANDOM);
                w[i] = cuzk_alloc_array(n, sizeof(cuzk_fr_t));
                CHECK(w[i] != NULL);
                memcpy(w[i], v[i], rows * sizeof(cuzk_fr_t));
                memset(w[i] + rows, 0, (n - rows) * sizeof(cuzk_fr_t));
            }
            cuzk_poly_h(d, w[0], w[1], w[2], pool);
            cuzk_g1_jac_t want, got;
            CHECK_OK(cuzk_g1_msm(&want, hb + 2, w[0], n - 1, pool));
            double ms[2];
            /* declined: CPU backend */
            CHECK(cuzk_backend_h_msm_g1(cpu, d, v[0], v[1], v[2], rows, hb + 2, &got, ms) ==
                  CUZK_ERR_UNSUPPORTED);
            CHECK(cuzk_backend_h_msm_g1(be, d, v[0], v[1], v[2], n + 1, hb + 2, &got, ms) ==
                  CUZK_ERR_INVALID_ARG);
            cuzk_fr_t *keep = cuzk_alloc_array(rows, sizeof(cuzk_fr_t));
            CHECK(keep != NULL);
            memcpy(keep, v[0], rows * sizeof(cuzk_fr_t));
            /* bases not resident: streamed (in one chunk, then in chunks of 256 points) */
            memset(&got, 0xa5, sizeof got);
            CHECK_OK(cuzk_backend_h_msm_g1(be, d, v[0], v[1], v[2], rows, hb + 2, &got, ms));
            CHECK_MSG(g1_same(&got, &want), "h msm 2^%u rows %zu, host bases", lg, rows);
            size_t c0 = cuzk__gpu_msm_streamed_chunks();
            CHECK(setenv("CUZK_GPU_MSM_STREAM", "256", 1) == 0);
            memset(&got, 0xa5, sizeof got);
            CHECK_OK(cuzk_backend_h_msm_g1(be, d, v[0], v[1], v[2], rows, hb + 2, &got, ms));
            CHECK(unsetenv("CUZK_GPU_MSM_STREAM") == 0);
            CHECK_MSG(g1_same(&got, &want), "h msm 2^%u rows %zu, host bases in chunks", lg, rows);
            CHECK_MSG(cuzk__gpu_msm_streamed_chunks() - c0 == (n - 1 + 255) / 256,
                      "h msm 2^%u: %zu chunks", lg, cuzk__gpu_msm_streamed_chunks() - c0);
            CHECK(memcmp(keep, v[0], rows * sizeof(cuzk_fr_t)) == 0); /* a is left as it was */
            CHECK_OK(cuzk_backend_keep_resident(be, hb, n + 2, false));
            CHECK_OK(cuzk_backend_h_msm_g1(be, d, v[0], v[1], v[2], rows, hb + 2, &got, ms));
            CHECK_MSG(g1_same(&got, &want), "h msm 2^%u rows %zu", lg, rows);
            CHECK(ms[0] >= 0 && ms[1] >= 0);
            CHECK(memcmp(keep, v[0], rows * sizeof(cuzk_fr_t)) == 0); /* a is left as it was */
            cuzk_free(keep);
            /* c = NULL: the device takes c as a * b; the reference gets that c. */
            for (size_t i = 0; i < rows; i++)
                cuzk_fr_mul(&v[2][i], &v[0][i], &v[1][i]);
            for (int i = 0; i < 3; i++) {
                memcpy(w[i], v[i], rows * sizeof(cuzk_fr_t));
                memset(w[i] + rows, 0, (n - rows) * sizeof(cuzk_fr_t));
            }
            cuzk_poly_h(d, w[0], w[1], w[2], pool);
            CHECK_OK(cuzk_g1_msm(&want, hb + 2, w[0], n - 1, pool));
            CHECK_OK(cuzk_backend_h_msm_g1(be, d, v[0], v[1], NULL, rows, hb + 2, &got, ms));
            CHECK_MSG(g1_same(&got, &want), "h msm 2^%u rows %zu, c = a * b", lg, rows);
            cuzk_backend_drop_resident(be, hb);
            for (int i = 0; i < 3; i++) {
                cuzk_free(v[i]);
                cuzk_free(w[i]);
            }
        }
        cuzk_free(hb);
        cuzk_domain_destroy(d);
    }
    cuzk_backend_destroy(be);
    cuzk_backend_destroy(cpu);
    cuzk_pool_destroy(pool);
}

/* The side lane (cuzk_gpu_side_lane_on): while one thread holds the device's main lane with a
 * long MSM over host bases (streamed in chunks of 256 points), another runs batch additions and
 * MSMs over host bases, G1 and G2, over and over; every result equals the CPU's, and the side
 * lane took calls (the counter). With CUZK_GPU_LANES=1 the same calls wait for the main lane
 * and no call takes the side lane. */
typedef struct {
    const cuzk_g1_affine_t *b;
    const cuzk_fr_t *k;
    size_t n;
    cuzk_g1_jac_t out;
    cuzk_status s;
    atomic_bool done;
} long_call;

static void *long_call_run(void *arg)
{
    long_call *c = arg;
    c->s = cuzk_gpu_msm_g1(-1, &c->out, c->b, c->k, c->n, NULL);
    atomic_store(&c->done, true);
    return NULL;
}

CUZK_TEST(gpu_side_lane)
{
    need_device();
    cuzk_pool *pool = pool_all();
    const size_t nl = (size_t)1 << 16, n1 = 5000, n2 = 700;
    cuzk_g1_affine_t *bl = g1_bases(nl, BASES_DISTINCT), *b1 = g1_bases(n1, BASES_SOME_INFINITY);
    cuzk_g2_affine_t *b2 = g2_bases(n2, BASES_PLUS_MINUS);
    cuzk_fr_t *kl = make_scalars(nl, SC_RANDOM), *k1 = make_scalars(n1, SC_BINARY_HEAVY);
    uint64_t *m1 = make_bitmap(n1, 2), *m2 = make_bitmap(n2, 2);
    cuzk_g1_jac_t wl, wb1, wm1, got;
    cuzk_g2_jac_t wb2, got2;
    CHECK_OK(cuzk_g1_msm(&wl, bl, kl, nl, pool));
    CHECK_OK(cuzk_g1_batch_add(&wb1, b1, m1, n1, pool));
    CHECK_OK(cuzk_g1_msm(&wm1, b1, k1, n1, pool));
    CHECK_OK(cuzk_g2_batch_add(&wb2, b2, m2, n2, pool));
    CHECK(setenv("CUZK_GPU_MSM_STREAM", "256", 1) == 0);
    for (int lanes = 2; lanes >= 1; lanes--) {
        CHECK(lanes == 2 ? unsetenv("CUZK_GPU_LANES") == 0
                         : setenv("CUZK_GPU_LANES", "1", 1) == 0);
        CHECK(cuzk_gpu_side_lane_on() == (lanes == 2));
        size_t side0 = cuzk__gpu_side_lane_calls(), rounds = 0, wrong = 0;
        long_call lc = {.b = bl, .k = kl, .n = nl, .s = CUZK_ERR_INTERNAL};
        atomic_init(&lc.done, false);
        pthread_t th;
        CHECK(pthread_create(&th, NULL, long_call_run, &lc) == 0);
        usleep(50000); /* the long call holds the main lane by now (it runs for ~1 s) */
        do {
            memset(&got, 0xa5, sizeof got);
            CHECK_OK(cuzk_gpu_batch_add_g1(-1, &got, b1, m1, n1, NULL));
            wrong += !g1_same(&got, &wb1);
            memset(&got2, 0xa5, sizeof got2);
            CHECK_OK(cuzk_gpu_batch_add_g2(-1, &got2, b2, m2, n2, NULL));
            wrong += !g2_same(&got2, &wb2);
            memset(&got, 0xa5, sizeof got);
            CHECK_OK(cuzk_gpu_msm_g1(-1, &got, b1, k1, n1, NULL));
            wrong += !g1_same(&got, &wm1);
            rounds++;
        } while (!atomic_load(&lc.done));
        CHECK(pthread_join(th, NULL) == 0);
        size_t side = cuzk__gpu_side_lane_calls() - side0;
        printf("# lanes %d: %zu rounds beside the long call, %zu calls on the side lane\n", lanes,
               rounds, side);
        CHECK_OK(lc.s);
        CHECK_MSG(g1_same(&lc.out, &wl), "lanes %d: the main lane's MSM", lanes);
        CHECK_MSG(wrong == 0, "lanes %d: %zu of %zu results differ from the CPU", lanes, wrong,
                  3 * rounds);
        /* Every call that started while the long one ran took the side lane (the last round's
         * may have found the main lane free). */
        CHECK_MSG(lanes == 2 ? side >= 1 && side >= 3 * (rounds - 1) : side == 0,
                  "lanes %d: %zu side-lane calls in %zu rounds", lanes, side, rounds);
    }
    CHECK(unsetenv("CUZK_GPU_LANES") == 0);
    CHECK(unsetenv("CUZK_GPU_MSM_STREAM") == 0);
    cuzk_free(bl);
    cuzk_free(b1);
    cuzk_free(b2);
    cuzk_free(kl);
    cuzk_free(k1);
    cuzk_free(m1);
    cuzk_free(m2);
    cuzk_pool_destroy(pool);
}

/* (base index, scalar) pairs over bases in pinned host memory (cuzk_gpu_msm_gX_host_idx): the
 * device gathers the selected points; against the CPU MSM of the equivalent dense scalars, with
 * repeated indices, m = 0 and 1, also through cuzk_backend_msm_gX_idx; pageable bases and env
 * CUZK_GPU_DEVICE_GATHER=0 are declined (UNSUPPORTED), an index past n refused. Then streamed
 * batch additions over the same pinned bases (the device gathers each chunk's selected points). */
CUZK_TEST(gpu_msm_host_idx)
{
    need_device();
    cuzk_pool *pool = pool_all();
    cuzk_backend *be = NULL;
    CHECK_OK(cuzk_backend_create(&be, CUZK_BACKEND_CUDA, 0));
    const size_t n = 20000, n2 = 2000;
    cuzk_g1_affine_t *p1 = g1_bases(n, BASES_SOME_INFINITY), *h1 = NULL;
    cuzk_g2_affine_t *p2 = g2_bases(n2, BASES_PLUS_MINUS), *h2 = NULL;
    CHECK_OK(cuzk_gpu_host_alloc((void **)&h1, n * sizeof *h1));
    CHECK_OK(cuzk_gpu_host_alloc((void **)&h2, n2 * sizeof *h2));
    memcpy(h1, p1, n * sizeof *h1);
    memcpy(h2, p2, n2 * sizeof *h2);
    const size_t ms[] = {0, 1, 777, 30000};
    for (size_t mi = 0; mi < sizeof ms / sizeof ms[0]; mi++) {
        size_t m = ms[mi];
        for (int g = 0; g < 2; g++) {
            size_t nb = g ? n2 : n;
            uint32_t *idx = cuzk_alloc_array(m ? m : 1, sizeof *idx);
            cuzk_fr_t *sc = make_scalars(m ? m : 1, mi & 1 ? SC_RANDOM : SC_BINARY_HEAVY);
            cuzk_fr_t *dense = cuzk_calloc_array(nb, sizeof *dense);
            CHECK(idx && dense);
            for (size_t j = 0; j < m; j++) {
                idx[j] = (uint32_t)(j % 5 == 4 ? idx[j - 1] : test_rand_u64() % nb);
                cuzk_fr_add(&dense[idx[j]], &dense[idx[j]], &sc[j]);
            }
            if (g == 0) {
                cuzk_g1_jac_t want, got;
                CHECK_OK(cuzk_g1_msm(&want, p1, dense, nb, pool));
                memset(&got, 0xa5, sizeof got);
                CHECK_OK(cuzk_gpu_msm_g1_host_idx(-1, &got, h1, nb, idx, sc, m, NULL));
                CHECK_MSG(g1_same(&got, &want), "g1 host idx m=%zu", m);
                memset(&got, 0xa5, sizeof got);
                CHECK_OK(cuzk_backend_msm_g1_idx(be, &got, h1, nb, idx, sc, m));
                CHECK_MSG(g1_same(&got, &want), "g1 backend idx, pinned bases, m=%zu", m);
                if (m) {
                    CHECK(cuzk_gpu_msm_g1_host_idx(-1, &got, p1, nb, idx, sc, m, NULL) ==
                          CUZK_ERR_UNSUPPORTED);
                    CHECK(setenv("CUZK_GPU_DEVICE_GATHER", "0", 1) == 0);
                    CHECK(cuzk_gpu_msm_g1_host_idx(-1, &got, h1, nb, idx, sc, m, NULL) ==
                          CUZK_ERR_UNSUPPORTED);
                    CHECK(unsetenv("CUZK_GPU_DEVICE_GATHER") == 0);
                    idx[m - 1] = (uint32_t)nb;
                    CHECK(cuzk_gpu_msm_g1_host_idx(-1, &got, h1, nb, idx, sc, m, NULL) ==
                          CUZK_ERR_INVALID_ARG);
                }
            } else {
                cuzk_g2_jac_t want, got;
                CHECK_OK(cuzk_g2_msm(&want, p2, dense, nb, pool));
                memset(&got, 0xa5, sizeof got);
                CHECK_OK(cuzk_gpu_msm_g2_host_idx(-1, &got, h2, nb, idx, sc, m, NULL));
                CHECK_MSG(g2_same(&got, &want), "g2 host idx m=%zu", m);
                memset(&got, 0xa5, sizeof got);
                CHECK_OK(cuzk_backend_msm_g2_idx(be, &got, h2, nb, idx, sc, m));
                CHECK_MSG(g2_same(&got, &want), "g2 backend idx, pinned bases, m=%zu", m);
                if (m) {
                    CHECK(cuzk_gpu_msm_g2_host_idx(-1, &got, p2, nb, idx, sc, m, NULL) ==
                          CUZK_ERR_UNSUPPORTED);
                    idx[0] = (uint32_t)nb + 7;
                    CHECK(cuzk_gpu_msm_g2_host_idx(-1, &got, h2, nb, idx, sc, m, NULL) ==
                          CUZK_ERR_INVALID_ARG);
                }
            }
            cuzk_free(idx);
            cuzk_free(sc);
            cuzk_free(dense);
        }
    }
    /* Streamed batch additions over the pinned bases, chunks of 128 points: each chunk's
     * selected points gathered by the device into a slot that holds the previous chunk's points
     * elsewhere (never read); bitmaps random, full (bits past n), empty; with
     * CUZK_GPU_DEVICE_GATHER=0 the whole chunks are copied as before. */
    CHECK(setenv("CUZK_GPU_MSM_STREAM", "100", 1) == 0);
    for (int gather = 1; gather >= 0; gather--) {
        CHECK(gather ? unsetenv("CUZK_GPU_DEVICE_GATHER") == 0
                     : setenv("CUZK_GPU_DEVICE_GATHER", "0", 1) == 0);
        for (int kind = 2; kind >= 0; kind--) {
            uint64_t *bm = make_bitmap(n, kind);
            size_t c0 = cuzk__gpu_msm_streamed_chunks();
            cuzk_g1_jac_t want, got;
            CHECK_OK(cuzk_g1_batch_add(&want, p1, bm, n - 5, pool));
            memset(&got, 0xa5, sizeof got);
            CHECK_OK(cuzk_gpu_batch_add_g1(-1, &got, h1, bm, n - 5, NULL));
            CHECK_MSG(g1_same(&got, &want), "g1 batch add, pinned bases, bitmap %d, gather %d",
                      kind, gather);
            cuzk_g2_jac_t want2, got2;
            CHECK_OK(cuzk_g2_batch_add(&want2, p2, bm, n2 - 3, pool));
            memset(&got2, 0xa5, sizeof got2);
            CHECK_OK(cuzk_gpu_batch_add_g2(-1, &got2, h2, bm, n2 - 3, NULL));
            CHECK_MSG(g2_same(&got2, &want2), "g2 batch add, pinned bases, bitmap %d, gather %d",
                      kind, gather);
            CHECK(cuzk__gpu_msm_streamed_chunks() - c0 ==
                  (n - 5 + 127) / 128 + (n2 - 3 + 127) / 128);
            cuzk_free(bm);
        }
    }
    CHECK(unsetenv("CUZK_GPU_DEVICE_GATHER") == 0);
    CHECK(unsetenv("CUZK_GPU_MSM_STREAM") == 0);
    cuzk_gpu_host_free(h1);
    cuzk_gpu_host_free(h2);
    cuzk_free(p1);
    cuzk_free(p2);
    cuzk_backend_destroy(be);
    cuzk_pool_destroy(pool);
}

/* cuzk_backend_msm_gX_idx: (base index, scalar) pairs, on resident bases (device), on bases not
 * resident (gathered, device) and on the CPU backend, against the CPU MSM of the equivalent dense
 * scalars (repeated indices add up); indices in any order, with repeats, m = 0 and 1; an index
 * outside the bases is refused. */
CUZK_TEST(gpu_backend_msm_idx)
{
    need_device();
    cuzk_pool *pool = pool_all();
    cuzk_backend *be = NULL, *cpu = NULL;
    CHECK_OK(cuzk_backend_create(&be, CUZK_BACKEND_CUDA, 0));
    CHECK_OK(cuzk_backend_create(&cpu, CUZK_BACKEND_CPU, 0));
    const size_t n = 20000, n2 = 2000;
    cuzk_g1_affine_t *b1 = g1_bases(n, BASES_SOME_INFINITY);
    cuzk_g2_affine_t *b2 = g2_bases(n2, BASES_DISTINCT);
    CHECK_OK(cuzk_backend_keep_resident(be, b1, n, false));
    CHECK_OK(cuzk_backend_keep_resident(be, b2, n2, true));
    const size_t ms[] = {0, 1, 777, 5000, 30000};
    for (size_t mi = 0; mi < sizeof ms / sizeof ms[0]; mi++) {
        size_t m = ms[mi];
        for (int g = 0; g < 2; g++) {
            size_t nb = g ? n2 : n, first = g ? 3 : 5, range = nb - first;
            uint32_t *idx = cuzk_alloc_array(m ? m : 1, sizeof *idx);
            cuzk_fr_t *sc = make_scalars(m ? m : 1, SC_RANDOM);
            cuzk_fr_t *dense = cuzk_calloc_array(range, sizeof *dense);
            CHECK(idx && dense);
            for (size_t j = 0; j < m; j++) {
                idx[j] = (uint32_t)(test_rand_u64() % range);
                cuzk_fr_add(&dense[idx[j]], &dense[idx[j]], &sc[j]);
            }
            if (g == 0) {
                cuzk_g1_jac_t want, got;
                CHECK_OK(cuzk_g1_msm(&want, b1 + first, dense, range, pool));
                CHECK_OK(cuzk_backend_msm_g1_idx(be, &got, b1 + first, range, idx, sc, m));
                CHECK_MSG(g1_same(&got, &want), "g1 idx resident m=%zu", m);
                CHECK_OK(cuzk_backend_msm_g1_idx(cpu, &got, b1 + first, range, idx, sc, m));
                CHECK_MSG(g1_same(&got, &want), "g1 idx cpu m=%zu", m);
                if (m) {
                    idx[m / 2] = (uint32_t)range;
                    CHECK(cuzk_backend_msm_g1_idx(be, &got, b1 + first, range, idx, sc, m) ==
                          CUZK_ERR_INVALID_ARG);
                    CHECK(cuzk_backend_msm_g1_idx(cpu, &got, b1 + first, range, idx, sc, m) ==
                          CUZK_ERR_INVALID_ARG);
                }
            } else {
                cuzk_g2_jac_t want, got;
                CHECK_OK(cuzk_g2_msm(&want, b2 + first, dense, range, pool));
                CHECK_OK(cuzk_backend_msm_g2_idx(be, &got, b2 + first, range, idx, sc, m));
                CHECK_MSG(g2_same(&got, &want), "g2 idx resident m=%zu", m);
                CHECK_OK(cuzk_backend_msm_g2_idx(cpu, &got, b2 + first, range, idx, sc, m));
                CHECK_MSG(g2_same(&got, &want), "g2 idx cpu m=%zu", m);
            }
            cuzk_free(idx);
            cuzk_free(sc);
            cuzk_free(dense);
        }
    }
    /* Bases not resident: gathered and uploaded for the call. */
    cuzk_backend_drop_resident(be, b1);
    {
        size_t m = 999;
        uint32_t *idx = cuzk_alloc_array(m, sizeof *idx);
        cuzk_fr_t *sc = make_scalars(m, SC_RANDOM);
        cuzk_fr_t *dense = cuzk_calloc_array(n, sizeof *dense);
        CHECK(idx && dense);
        for (size_t j = 0; j < m; j++) {
            idx[j] = (uint32_t)(test_rand_u64() % n);
            cuzk_fr_add(&dense[idx[j]], &dense[idx[j]], &sc[j]);
        }
        cuzk_g1_jac_t want, got;
        CHECK_OK(cuzk_g1_msm(&want, b1, dense, n, pool));
        CHECK_OK(cuzk_backend_msm_g1_idx(be, &got, b1, n, idx, sc, m));
        CHECK_MSG(g1_same(&got, &want), "g1 idx not resident");
        cuzk_free(idx);
        cuzk_free(sc);
        cuzk_free(dense);
    }
    cuzk_backend_drop_resident(be, b2);
    cuzk_backend_destroy(be);
    cuzk_backend_destroy(cpu);
    cuzk_free(b1);
    cuzk_free(b2);
    cuzk_pool_destroy(pool);
}

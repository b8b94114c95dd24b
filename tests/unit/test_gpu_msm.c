/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Device MSM and batch addition (src/gpu/msm_*.cu, batch_add.cu) against the CPU functions of
 * include/cuzk/msm.h: results are normalised to affine and compared byte for byte. Random
 * scalars at sizes up to 2^20 (G1) and 2^16 (G2) (env CUZK_TEST_NPOW sets the largest power of
 * both; scripts/gpu-check.sh uses 22), and the edge inputs of tests/unit/test_msm.c: zero, one and
 * r-1 scalars, 0/1-heavy mixes, sparse (95 % zero) scalars, small scalars, n not a power of two, n
 * = 1, bases at infinity, one base repeated, P next to -P; bitmaps empty, full, random, with bits
 * set past n; streamed calls, resident and precomputed bases over sub-ranges. Calls through the
 * backend and over pinned host bases: test_gpu_msm_host.c. Without a device (or in the stub
 * build) every test reports SKIP.
 */
#include "test_gpu_msm_util.h"

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
    return cuzk__gpu_event_count(CUZK__GPU_EV_MSM_STREAMED_CHUNK, -1) - before;
}

CUZK_TEST(gpu_msm_stream)
{
    need_device();
    cuzk_pool *pool = pool_all();
    size_t c0 = cuzk__gpu_event_count(CUZK__GPU_EV_MSM_STREAMED_CHUNK, -1);
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
    size_t c1 = cuzk__gpu_event_count(CUZK__GPU_EV_MSM_STREAMED_CHUNK, -1);
    CHECK_MSG(streamed_since(c0) == 4 + 2 + 5 + 4 + 3 + 4, "g1: %zu chunks", streamed_since(c0));
    g2_msm_case(pool, 2 * 4096 + 300, BASES_DISTINCT, SC_RANDOM);
    g2_msm_case(pool, 3 * 4096, BASES_DISTINCT, SC_SPARSE);
    CHECK_MSG(streamed_since(c1) == 3 + 3, "g2: %zu chunks", streamed_since(c1));
    /* ramped: 128, 256, ..., 4096, 4096, 905 points; G2: 128 ... 2048, then the last 228 */
    CHECK(setenv("CUZK_GPU_MSM_RAMP", "1", 1) == 0);
    size_t cr = cuzk__gpu_event_count(CUZK__GPU_EV_MSM_STREAMED_CHUNK, -1);
    g1_msm_case(pool, 3 * 4096 + 777, BASES_DISTINCT, SC_RANDOM);
    CHECK_MSG(streamed_since(cr) == 8, "g1 ramped: %zu chunks", streamed_since(cr));
    g2_msm_case(pool, 4096 + 100, BASES_DISTINCT, SC_BINARY_HEAVY);
    CHECK_MSG(streamed_since(cr) == 8 + 6, "g2 ramped: %zu chunks", streamed_since(cr));
    CHECK(unsetenv("CUZK_GPU_MSM_RAMP") == 0);
    /* chunks of 100 points are rounded up to 128 (whole bitmap words) */
    CHECK(setenv("CUZK_GPU_MSM_STREAM", "100", 1) == 0);
    size_t c2 = cuzk__gpu_event_count(CUZK__GPU_EV_MSM_STREAMED_CHUNK, -1);
    g1_badd_case(pool, 1000, BASES_DISTINCT, 2);     /* 8 chunks */
    g1_badd_case(pool, 128 * 3, BASES_DISTINCT, 1);  /* 3 chunks, bits past n: none here */
    g1_badd_case(pool, 128 * 3 - 5, BASES_SAME, 1);  /* bits past n in the last word */
    g1_badd_case(pool, 640, BASES_SOME_INFINITY, 0); /* 5 chunks, nothing selected */
    g2_badd_case(pool, 700, BASES_PLUS_MINUS, 2);    /* 6 chunks */
    CHECK_MSG(streamed_since(c2) == 8 + 3 + 3 + 5 + 6, "batch additions: %zu chunks",
              streamed_since(c2));
    /* 0: never streamed */
    CHECK(setenv("CUZK_GPU_MSM_STREAM", "0", 1) == 0);
    size_t c3 = cuzk__gpu_event_count(CUZK__GPU_EV_MSM_STREAMED_CHUNK, -1);
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
 * c = 8 (32 rows), 13 and the automatic width, equals the CPU; so do the MSMs over the first
 * rows only (cuzk_gpu_bases_precompute_rows: groups of rows windows, the last one shorter or
 * not), and batch additions over the set (whose bases now live in the table's row 0); G2 bases
 * and a bad width are refused; each call replaces the tables of the one before. */
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
    CHECK(cuzk_gpu_bases_precompute(r1, 27) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_gpu_bases_precompute(NULL, 8) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_gpu_bases_precompute_rows(r2, 0, 2) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_gpu_bases_precomputed_rows(r1) == 0);
    /* rows that fit: none below 2, for G2 bases or beside a reserve larger than any device;
     * else 2 .. asked, a count that is its own answer, and one the table takes */
    CHECK(cuzk_gpu_bases_rows_that_fit(r1, 1, 0) == 0);
    CHECK(cuzk_gpu_bases_rows_that_fit(r2, 4, 0) == 0);
    CHECK(cuzk_gpu_bases_rows_that_fit(NULL, 4, 0) == 0);
    CHECK(cuzk_gpu_bases_rows_that_fit(r1, 16, (size_t)1 << 50) == 0);
    const unsigned fit = cuzk_gpu_bases_rows_that_fit(r1, 16, 0);
    CHECK_MSG(fit >= 2 && fit <= 16, "%u rows fit", fit);
    CHECK(cuzk_gpu_bases_rows_that_fit(r1, fit, 0) == fit);
    CHECK_OK(cuzk_gpu_bases_precompute_rows(r1, 0, fit));
    CHECK(cuzk_gpu_bases_precomputed_rows(r1) == fit);
    /* {c, rows}: all rows (0), then 3 of ceil(255 / 13) = 20 (a short last group), 5 of 32, 2
     * of 11 at c = 24, and 4 at the automatic width */
    static const unsigned widths[][2] = {{8, 0}, {13, 0}, {0, 0}, {13, 3}, {8, 5}, {24, 2}, {0, 4}};
    static const size_t ranges[][2] = {{0, 20000}, {0, 1}, {3, 9000}, {12345, 7655}, {19999, 1}};
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
        CHECK_OK(cuzk_gpu_bases_precompute_rows(r1, widths[w][0], widths[w][1]));
        const unsigned c = cuzk_gpu_bases_precomputed(r1), nw = (255 + c - 1) / c;
        const unsigned rows = cuzk_gpu_bases_precomputed_rows(r1);
        CHECK(c >= 8 && c <= 26 && (!widths[w][0] || c == widths[w][0]));
        CHECK_MSG(rows == (widths[w][1] ? widths[w][1] : nw), "c = %u: %u rows", c, rows);
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
        /* a batch addition over the same set: every fifth base from 7 */
        uint64_t *bm = cuzk_alloc_array((n + 63) / 64, 8);
        CHECK(bm != NULL);
        for (size_t i = 0; i + 7 < n; i += 5)
            bm[i / 64] |= 1ULL << (i % 64);
        CHECK_OK(cuzk_gpu_batch_add_g1_resident(&got, r1, 7, bm, n - 7, NULL));
        CHECK_OK(cuzk_g1_batch_add(&want, b1 + 7, bm, n - 7, pool));
        CHECK_MSG(g1_same(&got, &want), "batch addition over precomputed bases (c = %u)", c);
        cuzk_free(bm);
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

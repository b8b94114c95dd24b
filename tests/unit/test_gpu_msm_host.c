/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Device MSMs and batch additions through the backend (residency, the fused H MSM, (index,
 * scalar) pairs) and over host bases (the side lane, device gathers from pinned host memory),
 * against the CPU functions of include/cuzk/msm.h (helpers: test_gpu_msm_util.h). Without a
 * device (or in the stub build) every test reports SKIP.
 */
#include "test_gpu_msm_util.h"
#include "cuzk/backend.h"
#include "cuzk/poly.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

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
            size_t c0 = cuzk__gpu_event_count(CUZK__GPU_EV_MSM_STREAMED_CHUNK, -1);
            CHECK(setenv("CUZK_GPU_MSM_STREAM", "256", 1) == 0);
            memset(&got, 0xa5, sizeof got);
            CHECK_OK(cuzk_backend_h_msm_g1(be, d, v[0], v[1], v[2], rows, hb + 2, &got, ms));
            CHECK(unsetenv("CUZK_GPU_MSM_STREAM") == 0);
            CHECK_MSG(g1_same(&got, &want), "h msm 2^%u rows %zu, host bases in chunks", lg, rows);
            CHECK_MSG(cuzk__gpu_event_count(CUZK__GPU_EV_MSM_STREAMED_CHUNK, -1) - c0 ==
                          (n - 1 + 255) / 256,
                      "h msm 2^%u: %zu chunks", lg,
                      cuzk__gpu_event_count(CUZK__GPU_EV_MSM_STREAMED_CHUNK, -1) - c0);
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

/* Whether the long call has streamed a chunk (up to 20 s): it then holds the main lane and,
 * with a side share, has settled. A fixed 50 ms sleep was too short on a slow host: the other
 * calls took the free main lane first and the side lane saw one of them. */
static bool long_call_started(size_t chunks0, long_call *lc)
{
    for (int i = 0; i < 20000; i++) {
        if (cuzk__gpu_event_count(CUZK__GPU_EV_MSM_STREAMED_CHUNK, -1) > chunks0)
            return true;
        if (atomic_load(&lc->done))
            return false;
        usleep(1000);
    }
    return false;
}

/* The side lane (cuzk_gpu_side_lane_on): while one thread holds the device's main lane with a
 * long MSM over host bases (streamed in chunks of 256 points), another runs batch additions and
 * MSMs over host bases, G1 and G2, and the same over resident bases (MSM, batch additions,
 * (index, scalar) pairs), over and over; every result equals the CPU's, and the side lane took
 * calls (the counter). With CUZK_GPU_LANES=1 the same calls wait for the main lane and no call
 * takes the side lane. */
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
    /* Pairs over the G2 bases, against the dense MSM of the same sums. */
    const size_t mp = 900;
    uint32_t *ip = cuzk_alloc_array(mp, sizeof *ip);
    cuzk_fr_t *kp = make_scalars(mp, SC_RANDOM), *kd = cuzk_calloc_array(n2, sizeof *kd);
    CHECK(ip && kd);
    for (size_t j = 0; j < mp; j++) {
        ip[j] = (uint32_t)(test_rand_u64() % n2);
        cuzk_fr_add(&kd[ip[j]], &kd[ip[j]], &kp[j]);
    }
    cuzk_g2_jac_t wp2;
    CHECK_OK(cuzk_g2_msm(&wp2, b2, kd, n2, pool));
    cuzk_gpu_bases *r1 = NULL, *r2 = NULL;
    CHECK_OK(cuzk_gpu_bases_upload_g1(&r1, -1, b1, n1));
    CHECK_OK(cuzk_gpu_bases_upload_g2(&r2, -1, b2, n2));
    CHECK(setenv("CUZK_GPU_MSM_STREAM", "256", 1) == 0);
    for (int lanes = 2; lanes >= 1; lanes--) {
        CHECK(lanes == 2 ? unsetenv("CUZK_GPU_LANES") == 0 : setenv("CUZK_GPU_LANES", "1", 1) == 0);
        CHECK(cuzk_gpu_side_lane_on() == (lanes == 2));
        size_t side0 = cuzk__gpu_event_count(CUZK__GPU_EV_SIDE_LANE_CALL, -1), rounds = 0,
               wrong = 0;
        long_call lc = {.b = bl, .k = kl, .n = nl, .s = CUZK_ERR_INTERNAL};
        atomic_init(&lc.done, false);
        pthread_t th;
        size_t chunks0 = cuzk__gpu_event_count(CUZK__GPU_EV_MSM_STREAMED_CHUNK, -1);
        CHECK(pthread_create(&th, NULL, long_call_run, &lc) == 0);
        CHECK_MSG(long_call_started(chunks0, &lc), "the long call streamed no chunk");
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
            memset(&got, 0xa5, sizeof got);
            CHECK_OK(cuzk_gpu_batch_add_g1_resident(&got, r1, 0, m1, n1, NULL));
            wrong += !g1_same(&got, &wb1);
            memset(&got, 0xa5, sizeof got);
            CHECK_OK(cuzk_gpu_msm_g1_resident(&got, r1, 0, k1, n1, NULL));
            wrong += !g1_same(&got, &wm1);
            memset(&got2, 0xa5, sizeof got2);
            CHECK_OK(cuzk_gpu_batch_add_g2_resident(&got2, r2, 0, m2, n2, NULL));
            wrong += !g2_same(&got2, &wb2);
            memset(&got2, 0xa5, sizeof got2);
            CHECK_OK(cuzk_gpu_msm_g2_resident_idx(&got2, r2, 0, ip, kp, mp, NULL));
            wrong += !g2_same(&got2, &wp2);
            rounds++;
        } while (!atomic_load(&lc.done));
        CHECK(pthread_join(th, NULL) == 0);
        size_t side = cuzk__gpu_event_count(CUZK__GPU_EV_SIDE_LANE_CALL, -1) - side0;
        printf("# lanes %d: %zu rounds beside the long call, %zu calls on the side lane\n", lanes,
               rounds, side);
        CHECK_OK(lc.s);
        CHECK_MSG(g1_same(&lc.out, &wl), "lanes %d: the main lane's MSM", lanes);
        CHECK_MSG(wrong == 0, "lanes %d: %zu of %zu results differ from the CPU", lanes, wrong,
                  7 * rounds);
        /* Every call that started while the long one ran took the side lane (the last round's
         * may have found the main lane free). */
        CHECK_MSG(lanes == 2 ? side >= 1 && side >= 7 * (rounds - 1) : side == 0,
                  "lanes %d: %zu side-lane calls in %zu rounds", lanes, side, rounds);
    }
    CHECK(unsetenv("CUZK_GPU_LANES") == 0);
    CHECK(unsetenv("CUZK_GPU_MSM_STREAM") == 0);
    cuzk_gpu_bases_free(r1);
    cuzk_gpu_bases_free(r2);
    cuzk_free(ip);
    cuzk_free(kp);
    cuzk_free(kd);
    cuzk_free(bl);
    cuzk_free(b1);
    cuzk_free(b2);
    cuzk_free(kl);
    cuzk_free(k1);
    cuzk_free(m1);
    cuzk_free(m2);
    cuzk_pool_destroy(pool);
}

/* A settled main lane (src/gpu/msm_stream.cuh): with env CUZK_GPU_SIDE_MIN_FREE above the
 * device's memory, a side call is admitted only beside a main call that has reserved all it will
 * use. The long streamed MSM on the main lane settles after its reservations, so the batch
 * additions and MSMs over host bases that start beside it take the side lane; with
 * CUZK_GPU_SIDE_SHARE=0 it never settles and they all wait for the main lane. Every result
 * equals the CPU's either way. */
CUZK_TEST(gpu_side_lane_settled)
{
    need_device();
    cuzk_pool *pool = pool_all();
    const size_t nl = (size_t)1 << 16, n1 = 3000;
    cuzk_g1_affine_t *bl = g1_bases(nl, BASES_DISTINCT), *b1 = g1_bases(n1, BASES_SOME_INFINITY);
    cuzk_fr_t *kl = make_scalars(nl, SC_RANDOM), *k1 = make_scalars(n1, SC_RANDOM);
    uint64_t *m1 = make_bitmap(n1, 2);
    cuzk_g1_jac_t wl, wb1, wm1, got;
    CHECK_OK(cuzk_g1_msm(&wl, bl, kl, nl, pool));
    CHECK_OK(cuzk_g1_batch_add(&wb1, b1, m1, n1, pool));
    CHECK_OK(cuzk_g1_msm(&wm1, b1, k1, n1, pool));
    CHECK(unsetenv("CUZK_GPU_LANES") == 0);
    CHECK(setenv("CUZK_GPU_MSM_STREAM", "256", 1) == 0);
    CHECK(setenv("CUZK_GPU_SIDE_MIN_FREE", "1000000G", 1) == 0);
    for (int share = 1; share >= 0; share--) {
        CHECK(share ? unsetenv("CUZK_GPU_SIDE_SHARE") == 0
                    : setenv("CUZK_GPU_SIDE_SHARE", "0", 1) == 0);
        size_t side0 = cuzk__gpu_event_count(CUZK__GPU_EV_SIDE_LANE_CALL, -1), rounds = 0,
               wrong = 0;
        long_call lc = {.b = bl, .k = kl, .n = nl, .s = CUZK_ERR_INTERNAL};
        atomic_init(&lc.done, false);
        pthread_t th;
        size_t chunks0 = cuzk__gpu_event_count(CUZK__GPU_EV_MSM_STREAMED_CHUNK, -1);
        CHECK(pthread_create(&th, NULL, long_call_run, &lc) == 0);
        CHECK_MSG(long_call_started(chunks0, &lc), "the long call streamed no chunk");
        do {
            memset(&got, 0xa5, sizeof got);
            CHECK_OK(cuzk_gpu_batch_add_g1(-1, &got, b1, m1, n1, NULL));
            wrong += !g1_same(&got, &wb1);
            memset(&got, 0xa5, sizeof got);
            CHECK_OK(cuzk_gpu_msm_g1(-1, &got, b1, k1, n1, NULL));
            wrong += !g1_same(&got, &wm1);
            rounds++;
        } while (!atomic_load(&lc.done));
        CHECK(pthread_join(th, NULL) == 0);
        size_t side = cuzk__gpu_event_count(CUZK__GPU_EV_SIDE_LANE_CALL, -1) - side0;
        printf("# share %d: %zu rounds beside the long call, %zu calls on the side lane\n", share,
               rounds, side);
        CHECK_OK(lc.s);
        CHECK_MSG(g1_same(&lc.out, &wl), "share %d: the main lane's MSM", share);
        CHECK_MSG(wrong == 0, "share %d: %zu of %zu results differ from the CPU", share, wrong,
                  2 * rounds);
        CHECK_MSG(share ? side >= 1 && side >= 2 * (rounds - 1) : side == 0,
                  "share %d: %zu side-lane calls in %zu rounds", share, side, rounds);
    }
    CHECK(unsetenv("CUZK_GPU_SIDE_SHARE") == 0);
    CHECK(unsetenv("CUZK_GPU_SIDE_MIN_FREE") == 0);
    CHECK(unsetenv("CUZK_GPU_MSM_STREAM") == 0);
    cuzk_free(bl);
    cuzk_free(b1);
    cuzk_free(kl);
    cuzk_free(k1);
    cuzk_free(m1);
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
            size_t c0 = cuzk__gpu_event_count(CUZK__GPU_EV_MSM_STREAMED_CHUNK, -1);
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
            CHECK(cuzk__gpu_event_count(CUZK__GPU_EV_MSM_STREAMED_CHUNK, -1) - c0 ==
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

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * A fused H call over resident bases whose a and b go up while another call holds the device's
 * main lane (cuzk_gpu_h_stage_): the result is the same as without staging. Without a device
 * (or in the stub build) the test reports SKIP.
 */
#include "test_gpu_msm_util.h"
#include "cuzk/alloc.h"
#include "cuzk/backend.h"
#include "cuzk/poly.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

/* The H MSM the CPU computes for rows entries of a and b (c = a * b), h over |hb|. */
static void h_msm_cpu(cuzk_g1_jac_t *out, const cuzk_domain *d, const cuzk_g1_affine_t *hb,
                      const cuzk_fr_t *a, const cuzk_fr_t *b, size_t rows, cuzk_pool *pool)
{
    const size_t n = cuzk_domain_size(d);
    cuzk_fr_t *w[3];
    for (int i = 0; i < 3; i++) {
        w[i] = cuzk_calloc_array(n, sizeof(cuzk_fr_t));
        CHECK(w[i] != NULL);
    }
    memcpy(w[0], a, rows * sizeof *a);
    memcpy(w[1], b, rows * sizeof *b);
    for (size_t i = 0; i < rows; i++)
        cuzk_fr_mul(&w[2][i], &a[i], &b[i]);
    cuzk_poly_h(d, w[0], w[1], w[2], pool);
    CHECK_OK(cuzk_g1_msm(out, hb, w[0], n - 1, pool));
    for (int i = 0; i < 3; i++)
        cuzk_free(w[i]);
}

/* The fused H MSM over resident bases with a and b in pinned memory, c = a * b, rows short of
 * the domain: while a long call holds the main lane, a and b are staged (the counter) and the
 * result equals the CPU's H step and MSM; with CUZK_GPU_H_STAGE=0, or a pageable a, nothing is
 * staged and the result is the same. */
CUZK_TEST(gpu_h_stage)
{
    need_device();
    cuzk_pool *pool = pool_all();
    cuzk_backend *be = NULL;
    CHECK_OK(cuzk_backend_create(&be, CUZK_BACKEND_CUDA, 0));
    const size_t n = (size_t)1 << 13, rows = n - 5, nl = (size_t)1 << 16;
    cuzk_domain *d = NULL;
    CHECK_OK(cuzk_domain_create(&d, n, CUZK_ROOTS_BELLPERSON));
    cuzk_g1_affine_t *hb = g1_bases(n - 1, BASES_DISTINCT), *bl = g1_bases(nl, BASES_DISTINCT);
    cuzk_fr_t *kl = make_scalars(nl, SC_RANDOM), *ra = make_scalars(rows, SC_RANDOM),
              *rb = make_scalars(rows, SC_RANDOM);
    cuzk_fr_t *pa = NULL, *pb = NULL;
    CHECK_OK(cuzk_gpu_host_alloc((void **)&pa, rows * sizeof *pa));
    CHECK_OK(cuzk_gpu_host_alloc((void **)&pb, rows * sizeof *pb));
    memcpy(pa, ra, rows * sizeof *pa);
    memcpy(pb, rb, rows * sizeof *pb);
    cuzk_g1_jac_t want, got;
    h_msm_cpu(&want, d, hb, ra, rb, rows, pool);
    CHECK_OK(cuzk_backend_keep_resident(be, hb, n - 1, false));
    CHECK(setenv("CUZK_GPU_MSM_STREAM", "256", 1) == 0);
    for (int v = 0; v < 3; v++) { /* staged; CUZK_GPU_H_STAGE=0; pageable a */
        CHECK(v == 1 ? setenv("CUZK_GPU_H_STAGE", "0", 1) == 0 : unsetenv("CUZK_GPU_H_STAGE") == 0);
        const cuzk_fr_t *a = v == 2 ? ra : pa;
        size_t st0 = cuzk__gpu_event_count(CUZK__GPU_EV_H_STAGED, -1);
        long_call lc = {.b = bl, .k = kl, .n = nl, .s = CUZK_ERR_INTERNAL};
        atomic_init(&lc.done, false);
        pthread_t th;
        CHECK(pthread_create(&th, NULL, long_call_run, &lc) == 0);
        usleep(50000); /* the long call holds the main lane by now (it runs for ~1 s) */
        bool during = !atomic_load(&lc.done);
        double ms[2];
        memset(&got, 0xa5, sizeof got);
        CHECK_OK(cuzk_backend_h_msm_g1(be, d, a, pb, NULL, rows, hb, &got, ms));
        CHECK(pthread_join(th, NULL) == 0);
        CHECK_OK(lc.s);
        size_t staged = cuzk__gpu_event_count(CUZK__GPU_EV_H_STAGED, -1) - st0;
        printf("# variant %d: %zu staged (long call still running at the H call: %d)\n", v, staged,
               (int)during);
        CHECK_MSG(g1_same(&got, &want), "variant %d: the H MSM", v);
        CHECK_MSG(v == 0 ? staged == (size_t)during : staged == 0, "variant %d: %zu staged", v,
                  staged);
        CHECK(memcmp(pa, ra, rows * sizeof *pa) == 0 && memcmp(pb, rb, rows * sizeof *pb) == 0);
    }
    CHECK(unsetenv("CUZK_GPU_H_STAGE") == 0);
    CHECK(unsetenv("CUZK_GPU_MSM_STREAM") == 0);
    /* Without another call on the device: nothing staged, the same result. */
    size_t st0 = cuzk__gpu_event_count(CUZK__GPU_EV_H_STAGED, -1);
    memset(&got, 0xa5, sizeof got);
    double ms[2];
    CHECK_OK(cuzk_backend_h_msm_g1(be, d, pa, pb, NULL, rows, hb, &got, ms));
    CHECK(g1_same(&got, &want) && cuzk__gpu_event_count(CUZK__GPU_EV_H_STAGED, -1) == st0);
    cuzk_backend_destroy(be);
    cuzk_gpu_host_free(pa);
    cuzk_gpu_host_free(pb);
    cuzk_free(hb);
    cuzk_free(bl);
    cuzk_free(kl);
    cuzk_free(ra);
    cuzk_free(rb);
    cuzk_domain_destroy(d);
    cuzk_pool_destroy(pool);
}

/* A prefetch (cuzk_backend_h_prefetch) is taken by the fused call that names its a and b, and
 * only by that one: a call over other vectors leaves it (and gets its own result), a second
 * prefetch finds the vectors taken, a dropped one is not used after a and b changed (the result
 * is the new vectors' H MSM, not the stale copy's), and the refusals change nothing. */
CUZK_TEST(gpu_h_prefetch)
{
    need_device();
    cuzk_pool *pool = pool_all();
    cuzk_backend *be = NULL, *cpu = NULL;
    CHECK_OK(cuzk_backend_create(&be, CUZK_BACKEND_CUDA, 0));
    CHECK_OK(cuzk_backend_create(&cpu, CUZK_BACKEND_CPU, 1));
    const size_t n = (size_t)1 << 12, rows = n - 3;
    cuzk_domain *d = NULL;
    CHECK_OK(cuzk_domain_create(&d, n, CUZK_ROOTS_BELLPERSON));
    cuzk_g1_affine_t *hb = g1_bases(n - 1, BASES_DISTINCT),
                     *other = g1_bases(n - 1, BASES_DISTINCT);
    cuzk_fr_t *r[4], *pin[4]; /* a, b; a2, b2: host copies and pinned vectors */
    for (int i = 0; i < 4; i++) {
        r[i] = make_scalars(rows, SC_RANDOM);
        CHECK_OK(cuzk_gpu_host_alloc((void **)&pin[i], rows * sizeof(cuzk_fr_t)));
        memcpy(pin[i], r[i], rows * sizeof(cuzk_fr_t));
    }
    cuzk_g1_jac_t want, want2, got;
    h_msm_cpu(&want, d, hb, r[0], r[1], rows, pool);
    h_msm_cpu(&want2, d, hb, r[2], r[3], rows, pool);
    CHECK_OK(cuzk_backend_keep_resident(be, hb, n - 1, false));
    double ms[2];
#define H_CALL(A, B, WANT, WHAT)                                                                   \
    do {                                                                                           \
        memset(&got, 0xa5, sizeof got);                                                            \
        CHECK_OK(cuzk_backend_h_msm_g1(be, d, A, B, NULL, rows, hb, &got, ms));                    \
        CHECK_MSG(g1_same(&got, WANT), "%s: the H MSM", WHAT);                                     \
    } while (0)

    /* taken by its call */
    size_t st0 = cuzk__gpu_event_count(CUZK__GPU_EV_H_STAGED, -1),
           pf0 = cuzk__gpu_event_count(CUZK__GPU_EV_H_PREFETCHED, -1);
    CHECK_OK(cuzk_backend_h_prefetch(be, hb, n, pin[0], pin[1], rows));
    CHECK(cuzk__gpu_event_count(CUZK__GPU_EV_H_PREFETCHED, -1) == pf0 + 1);
    H_CALL(pin[0], pin[1], &want, "prefetched");
    CHECK(cuzk__gpu_event_count(CUZK__GPU_EV_H_STAGED, -1) == st0 + 1);

    /* left by a call over other vectors; a second prefetch refused; then taken */
    CHECK_OK(cuzk_backend_h_prefetch(be, hb, n, pin[0], pin[1], rows));
    H_CALL(pin[2], pin[3], &want2, "another call");
    CHECK(cuzk__gpu_event_count(CUZK__GPU_EV_H_STAGED, -1) == st0 + 1);
    CHECK(cuzk_backend_h_prefetch(be, hb, n, pin[2], pin[3], rows) == CUZK_ERR_UNSUPPORTED);
    CHECK_OK(cuzk_backend_h_prefetch(be, hb, n, pin[0], pin[1], rows)); /* already there */
    CHECK(cuzk__gpu_event_count(CUZK__GPU_EV_H_PREFETCHED, -1) == pf0 + 2);
    H_CALL(pin[0], pin[1], &want, "prefetched, after another call");
    CHECK(cuzk__gpu_event_count(CUZK__GPU_EV_H_STAGED, -1) == st0 + 2);

    /* dropped, then a and b change: the call uploads them (a stale copy would give |want|) */
    CHECK_OK(cuzk_backend_h_prefetch(be, hb, n, pin[0], pin[1], rows));
    size_t dr0 = cuzk__gpu_event_count(CUZK__GPU_EV_H_PREFETCH_DROPPED, -1);
    cuzk_backend_h_prefetch_drop(be, pin[1]); /* not a prefetch's a: nothing */
    CHECK(cuzk__gpu_event_count(CUZK__GPU_EV_H_PREFETCH_DROPPED, -1) == dr0);
    cuzk_backend_h_prefetch_drop(be, pin[0]);
    CHECK(cuzk__gpu_event_count(CUZK__GPU_EV_H_PREFETCH_DROPPED, -1) == dr0 + 1);
    memcpy(pin[0], r[2], rows * sizeof(cuzk_fr_t));
    memcpy(pin[1], r[3], rows * sizeof(cuzk_fr_t));
    H_CALL(pin[0], pin[1], &want2, "dropped");
    CHECK(cuzk__gpu_event_count(CUZK__GPU_EV_H_STAGED, -1) == st0 + 2);
    memcpy(pin[0], r[0], rows * sizeof(cuzk_fr_t));
    memcpy(pin[1], r[1], rows * sizeof(cuzk_fr_t));
    cuzk_backend_h_prefetch_drop(be, pin[0]); /* none: nothing happens */
    CHECK(cuzk__gpu_event_count(CUZK__GPU_EV_H_PREFETCH_DROPPED, -1) == dr0 + 1);

    /* refused, nothing staged: switched off, pageable, bases not resident, CPU backend, bad
     * sizes */
    CHECK(setenv("CUZK_GPU_H_STAGE", "0", 1) == 0);
    CHECK(cuzk_backend_h_prefetch(be, hb, n, pin[0], pin[1], rows) == CUZK_ERR_UNSUPPORTED);
    CHECK(unsetenv("CUZK_GPU_H_STAGE") == 0);
    CHECK(cuzk_backend_h_prefetch(be, hb, n, r[0], pin[1], rows) == CUZK_ERR_UNSUPPORTED);
    CHECK(cuzk_backend_h_prefetch(be, other, n, pin[0], pin[1], rows) == CUZK_ERR_UNSUPPORTED);
    CHECK(cuzk_backend_h_prefetch(cpu, hb, n, pin[0], pin[1], rows) == CUZK_ERR_UNSUPPORTED);
    CHECK(cuzk_backend_h_prefetch(be, hb, n - 1, pin[0], pin[1], rows) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_backend_h_prefetch(be, hb, n, pin[0], pin[1], n + 1) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk__gpu_event_count(CUZK__GPU_EV_H_PREFETCHED, -1) ==
          pf0 + 3); /* the two above and the dropped one */
    H_CALL(pin[0], pin[1], &want, "after the refusals");
    CHECK(cuzk__gpu_event_count(CUZK__GPU_EV_H_STAGED, -1) == st0 + 2);
#undef H_CALL
    cuzk_backend_destroy(be);
    cuzk_backend_destroy(cpu);
    for (int i = 0; i < 4; i++) {
        cuzk_gpu_host_free(pin[i]);
        cuzk_free(r[i]);
    }
    cuzk_free(hb);
    cuzk_free(other);
    cuzk_domain_destroy(d);
    cuzk_pool_destroy(pool);
}

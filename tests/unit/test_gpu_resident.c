/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Resident parameter arrays shared by the backends of one device (src/backend/resident.c):
 * one device copy per array however many backends keep it, uploaded once when several ask at
 * the same time, freed with its last holder; calls through every holder equal the CPU's. And a
 * fused H call over resident bases whose a and b go up while another call holds the device
 * (cuzk_gpu_h_stage_). Without a device (or in the stub build) the tests report SKIP.
 */
#include "test_gpu_msm_util.h"
#include "backend/resident.h"
#include "cuzk/alloc.h"
#include "cuzk/backend.h"
#include "cuzk/poly.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

typedef struct {
    cuzk_backend *be;
    const void *bases;
    size_t n;
    bool g2;
    cuzk_status s;
} keep_job;

static void *keep_run(void *arg)
{
    keep_job *j = arg;
    j->s = cuzk_backend_keep_resident(j->be, j->bases, j->n, j->g2);
    return NULL;
}

/* |want| = the CPU MSM; the MSM through |be| over |b| must equal it. */
static bool msm_ok(cuzk_backend *be, const cuzk_g1_affine_t *b, const cuzk_fr_t *k, size_t n,
                   const cuzk_g1_jac_t *want)
{
    cuzk_g1_jac_t got;
    memset(&got, 0xa5, sizeof got);
    return cuzk_backend_msm_g1(be, &got, b, k, n) == CUZK_OK && g1_same(&got, want);
}

CUZK_TEST(gpu_resident_shared)
{
    need_device();
    cuzk_pool *pool = pool_all();
    enum { NB = 4 };
    cuzk_backend *be[NB] = {NULL};
    for (int i = 0; i < NB; i++)
        CHECK_OK(cuzk_backend_create(&be[i], CUZK_BACKEND_CUDA, 1));
    const size_t n = 6000, n2 = 900;
    cuzk_g1_affine_t *b1 = g1_bases(n, BASES_SOME_INFINITY), *b3 = g1_bases(n, BASES_DISTINCT);
    cuzk_g2_affine_t *b2 = g2_bases(n2, BASES_PLUS_MINUS);
    cuzk_fr_t *k = make_scalars(n, SC_RANDOM);
    cuzk_g1_jac_t w1, w3;
    CHECK_OK(cuzk_g1_msm(&w1, b1, k, n, pool));
    CHECK_OK(cuzk_g1_msm(&w3, b3, k, n, pool));
    uint64_t bytes0 = 0, bytes = 0;
    const size_t copies0 = cuzk__resident_copies(&bytes0);

    /* Two backends keep b1 and b2 one after the other: one copy of each. */
    for (int i = 0; i < 2; i++) {
        CHECK_OK(cuzk_backend_keep_resident(be[i], b1, n, false));
        CHECK_OK(cuzk_backend_keep_resident(be[i], b2, n2, true));
        CHECK(cuzk_backend_resident_bytes(be[i]) ==
              n * sizeof(cuzk_g1_affine_t) + n2 * sizeof(cuzk_g2_affine_t));
    }
    CHECK(cuzk__resident_copies(&bytes) == copies0 + 2);
    CHECK(bytes - bytes0 == n * sizeof(cuzk_g1_affine_t) + n2 * sizeof(cuzk_g2_affine_t));
    /* A prefix of b1 is another array (another count): a copy of its own. */
    CHECK_OK(cuzk_backend_keep_resident(be[2], b1, n / 2, false));
    CHECK(cuzk__resident_copies(NULL) == copies0 + 3);
    cuzk_backend_drop_resident(be[2], b1);
    CHECK(cuzk__resident_copies(NULL) == copies0 + 2);

    /* Every backend at once keeps b3: one upload, one copy. */
    keep_job j[NB];
    pthread_t th[NB];
    for (int i = 0; i < NB; i++) {
        j[i] = (keep_job){be[i], b3, n, false, CUZK_ERR_INTERNAL};
        CHECK(pthread_create(&th[i], NULL, keep_run, &j[i]) == 0);
    }
    for (int i = 0; i < NB; i++) {
        CHECK(pthread_join(th[i], NULL) == 0);
        CHECK_OK(j[i].s);
    }
    CHECK(cuzk__resident_copies(NULL) == copies0 + 3);
    for (int i = 0; i < NB; i++) {
        CHECK_MSG(msm_ok(be[i], b3, k, n, &w3), "backend %d over the shared b3", i);
        CHECK_MSG(msm_ok(be[i], b1, k, n, &w1), "backend %d over b1", i);
    }

    /* Dropped by one holder, the copy stays for the other, whose calls still read it. */
    cuzk_backend_drop_resident(be[0], b1);
    cuzk_backend_drop_resident(be[0], b1); /* not held any more: no-op */
    CHECK(cuzk__resident_copies(NULL) == copies0 + 3);
    CHECK(cuzk_backend_resident_bytes(be[0]) ==
          n2 * sizeof(cuzk_g2_affine_t) + n * sizeof(cuzk_g1_affine_t));
    CHECK(msm_ok(be[1], b1, k, n, &w1));
    cuzk_backend_drop_resident(be[1], b1);
    CHECK(cuzk__resident_copies(NULL) == copies0 + 2);
    CHECK(msm_ok(be[1], b1, k, n, &w1)); /* uploads its bases again */

    /* Destroying the holders lets go of the rest. */
    for (int i = 0; i < NB; i++) {
        cuzk_backend_destroy(be[i]);
        if (i < NB - 1)
            CHECK_MSG(cuzk__resident_copies(NULL) > copies0, "after destroying backend %d", i);
    }
    CHECK(cuzk__resident_copies(&bytes) == copies0 && bytes == bytes0);
    cuzk_free(b1);
    cuzk_free(b2);
    cuzk_free(b3);
    cuzk_free(k);
    cuzk_pool_destroy(pool);
}

/* A long MSM over host bases in chunks of 256 points, which holds the device's main lane. */
typedef struct {
    const cuzk_g1_affine_t *b;
    const cuzk_fr_t *k;
    size_t n;
    cuzk_status s;
    atomic_bool done;
} long_msm;

static void *long_msm_run(void *arg)
{
    long_msm *c = arg;
    c->s = cuzk_gpu_msm_g1(-1, &(cuzk_g1_jac_t){0}, c->b, c->k, c->n, NULL);
    atomic_store(&c->done, true);
    return NULL;
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
    cuzk_fr_t *pa = NULL, *pb = NULL, *w[3];
    CHECK_OK(cuzk_gpu_host_alloc((void **)&pa, rows * sizeof *pa));
    CHECK_OK(cuzk_gpu_host_alloc((void **)&pb, rows * sizeof *pb));
    memcpy(pa, ra, rows * sizeof *pa);
    memcpy(pb, rb, rows * sizeof *pb);
    for (int i = 0; i < 3; i++) {
        w[i] = cuzk_calloc_array(n, sizeof(cuzk_fr_t));
        CHECK(w[i] != NULL);
    }
    memcpy(w[0], ra, rows * sizeof *ra);
    memcpy(w[1], rb, rows * sizeof *rb);
    for (size_t i = 0; i < rows; i++)
        cuzk_fr_mul(&w[2][i], &ra[i], &rb[i]);
    cuzk_poly_h(d, w[0], w[1], w[2], pool);
    cuzk_g1_jac_t want, got;
    CHECK_OK(cuzk_g1_msm(&want, hb, w[0], n - 1, pool));
    CHECK_OK(cuzk_backend_keep_resident(be, hb, n - 1, false));
    CHECK(setenv("CUZK_GPU_MSM_STREAM", "256", 1) == 0);
    for (int v = 0; v < 3; v++) { /* staged; CUZK_GPU_H_STAGE=0; pageable a */
        CHECK(v == 1 ? setenv("CUZK_GPU_H_STAGE", "0", 1) == 0 : unsetenv("CUZK_GPU_H_STAGE") == 0);
        const cuzk_fr_t *a = v == 2 ? ra : pa;
        size_t st0 = cuzk__gpu_h_staged();
        long_msm lc = {.b = bl, .k = kl, .n = nl, .s = CUZK_ERR_INTERNAL};
        atomic_init(&lc.done, false);
        pthread_t th;
        CHECK(pthread_create(&th, NULL, long_msm_run, &lc) == 0);
        usleep(50000); /* the long call holds the main lane by now (it runs for ~1 s) */
        bool during = !atomic_load(&lc.done);
        double ms[2];
        memset(&got, 0xa5, sizeof got);
        CHECK_OK(cuzk_backend_h_msm_g1(be, d, a, pb, NULL, rows, hb, &got, ms));
        CHECK(pthread_join(th, NULL) == 0);
        CHECK_OK(lc.s);
        size_t staged = cuzk__gpu_h_staged() - st0;
        printf("# variant %d: %zu staged (long call still running at the H call: %d)\n", v,
               staged, (int)during);
        CHECK_MSG(g1_same(&got, &want), "variant %d: the H MSM", v);
        CHECK_MSG(v == 0 ? staged == (size_t)during : staged == 0, "variant %d: %zu staged", v,
                  staged);
        CHECK(memcmp(pa, ra, rows * sizeof *pa) == 0 && memcmp(pb, rb, rows * sizeof *pb) == 0);
    }
    CHECK(unsetenv("CUZK_GPU_H_STAGE") == 0);
    CHECK(unsetenv("CUZK_GPU_MSM_STREAM") == 0);
    /* Without another call on the device: nothing staged, the same result. */
    size_t st0 = cuzk__gpu_h_staged();
    memset(&got, 0xa5, sizeof got);
    double ms[2];
    CHECK_OK(cuzk_backend_h_msm_g1(be, d, pa, pb, NULL, rows, hb, &got, ms));
    CHECK(g1_same(&got, &want) && cuzk__gpu_h_staged() == st0);
    cuzk_backend_destroy(be);
    cuzk_gpu_host_free(pa);
    cuzk_gpu_host_free(pb);
    for (int i = 0; i < 3; i++)
        cuzk_free(w[i]);
    cuzk_free(hb);
    cuzk_free(bl);
    cuzk_free(kl);
    cuzk_free(ra);
    cuzk_free(rb);
    cuzk_domain_destroy(d);
    cuzk_pool_destroy(pool);
}

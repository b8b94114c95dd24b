/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Resident parameter arrays shared by the backends of one device (src/backend/resident.c):
 * one device copy per array however many backends keep it, uploaded once when several ask at
 * the same time, freed with its last holder; calls through every holder equal the CPU's, also
 * after one holder has replaced a copy by precomputed rows.
 * Without a device (or in the stub build) the test reports SKIP.
 */
#include "test_gpu_msm_util.h"
#include "backend/resident.h"
#include "cuzk/backend.h"

#include <pthread.h>

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
    /* the device's own account of the same (one device here: the backends' default); the CPU
     * holds nothing */
    uint64_t dbytes = 0;
    unsigned drows = 7;
    CHECK(cuzk_backend_device_resident(cuzk_backend_device(be[0]), &dbytes, &drows) == copies0 + 2);
    CHECK(dbytes == bytes && drows == 0);
    CHECK(cuzk_backend_device_resident(-1, &dbytes, &drows) == 0 && dbytes == 0 && drows == 0);
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

    /* A copy with precomputed rows (cuzk_backend_keep_resident_rows): made by its first holder,
     * shared as it is by the next (which asked for none), counted with its rows by both; their
     * MSMs equal the CPU's. Rows asked for a G2 array are ignored. */
    cuzk_g1_affine_t *b4 = g1_bases(n, BASES_SOME_INFINITY);
    cuzk_g1_jac_t w4;
    CHECK_OK(cuzk_g1_msm(&w4, b4, k, n, pool));
    uint64_t before2 = cuzk_backend_resident_bytes(be[2]),
             before3 = cuzk_backend_resident_bytes(be[3]);
    CHECK_OK(cuzk_backend_keep_resident_rows(be[2], b4, n, false, 3));
    CHECK_OK(cuzk_backend_keep_resident(be[3], b4, n, false));
    CHECK(cuzk_backend_resident_bytes(be[2]) == before2 + 3 * n * sizeof(cuzk_g1_affine_t));
    CHECK(cuzk_backend_resident_bytes(be[3]) == before3 + 3 * n * sizeof(cuzk_g1_affine_t));
    CHECK(cuzk__resident_copies(NULL) == copies0 + 3);
    CHECK(cuzk_backend_device_resident(cuzk_backend_device(be[3]), NULL, &drows) == copies0 + 3 &&
          drows == 3);
    CHECK_MSG(msm_ok(be[2], b4, k, n, &w4), "backend 2 over b4 with 3 precomputed rows");
    CHECK_MSG(msm_ok(be[3], b4, k, n, &w4), "backend 3 over the shared rows of b4");
    CHECK_OK(cuzk_backend_keep_resident_rows(be[2], b2, n2, true, 2));
    CHECK(cuzk_backend_resident_bytes(be[2]) ==
          before2 + 3 * n * sizeof(cuzk_g1_affine_t) + n2 * sizeof(cuzk_g2_affine_t));
    cuzk_backend_set_h_rows(be[2], 4);
    CHECK(cuzk_backend_h_rows(be[2]) == 4 && cuzk_backend_h_rows(be[3]) == 0);

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
    cuzk_free(b4);
    cuzk_free(k);
    cuzk_pool_destroy(pool);
}

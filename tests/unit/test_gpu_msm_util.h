/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Inputs, comparisons and one-call cases shared by the device MSM tests (test_gpu_msm.c: the
 * kernels; test_gpu_msm_host.c: calls over host and resident bases through the backend). */
#ifndef CUZK_TEST_GPU_MSM_UTIL_H
#define CUZK_TEST_GPU_MSM_UTIL_H

#include "test.h"
#include "cuzk/alloc.h"
#include "cuzk/msm.h"
#include "cuzk/threadpool.h"
#include "gpu/gpu_msm.h"

#include <stdatomic.h>
#include <string.h>

static inline void need_device(void)
{
    if (!cuzk_gpu_available())
        test_skip("no CUDA device");
}

static inline unsigned max_pow(unsigned dflt)
{
    const char *e = getenv("CUZK_TEST_NPOW");
    if (e && *e) {
        unsigned v = (unsigned)strtoul(e, NULL, 10);
        if (v >= 1 && v <= 26)
            return v;
    }
    return dflt;
}

static inline cuzk_pool *pool_all(void)
{
    cuzk_pool *p = NULL;
    CHECK(cuzk_pool_create(&p, 0) == CUZK_OK);
    return p;
}

static inline void rand_fr(cuzk_fr_t *out)
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
    static inline AFF *G##_bases(size_t n, int layout)                                             \
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

static inline cuzk_fr_t *make_scalars(size_t n, int kind)
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
static inline uint64_t *make_bitmap(size_t n, int kind)
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
    static inline bool G##_same(const JAC *a, const JAC *b)                                        \
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
    static inline void G##_msm_case(cuzk_pool *pool, size_t n, int layout, int sk)                 \
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
    static inline void G##_badd_case(cuzk_pool *pool, size_t n, int layout, int bk)                \
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

/* A long MSM over host bases on a thread of its own (long_call_run), which holds the device's
 * main lane while other calls are tried beside it (the side lane, staging). */
typedef struct {
    const cuzk_g1_affine_t *b;
    const cuzk_fr_t *k;
    size_t n;
    cuzk_g1_jac_t out;
    cuzk_status s;
    atomic_bool done;
} long_call;

static inline void *long_call_run(void *arg)
{
    long_call *c = arg;
    c->s = cuzk_gpu_msm_g1(-1, &c->out, c->b, c->k, c->n, NULL);
    atomic_store(&c->done, true);
    return NULL;
}

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "test.h"
#include "cuzk/threadpool.h"

#include <stdatomic.h>

typedef struct {
    _Atomic unsigned *hits;
    cuzk_pool *pool;
    _Atomic unsigned long sum;
} ctx_t;

static void touch(void *c, size_t i)
{
    ctx_t *x = c;
    atomic_fetch_add(&x->hits[i], 1);
    atomic_fetch_add(&x->sum, i);
}

static void nested(void *c, size_t i)
{
    ctx_t *x = c;
    (void)i;
    /* A loop started from inside a task runs serially instead of deadlocking. */
    ctx_t inner = {x->hits, x->pool, 0};
    cuzk_pool_run(x->pool, 4, touch, &inner);
}

CUZK_TEST(common_threadpool_every_index_once)
{
    static _Atomic unsigned hits[10000];
    static const unsigned threads[] = {1, 2, 3, 8};
    for (size_t t = 0; t < 4; t++) {
        cuzk_pool *p;
        CHECK(cuzk_pool_create(&p, threads[t]) == CUZK_OK);
        CHECK(cuzk_pool_threads(p) == threads[t]);
        for (unsigned round = 0; round < 50; round++) {
            size_t n = (size_t)(test_rand_u64() % 10000);
            for (size_t i = 0; i < n; i++)
                atomic_store(&hits[i], 0);
            ctx_t c = {hits, p, 0};
            cuzk_pool_run(p, n, touch, &c);
            for (size_t i = 0; i < n; i++)
                CHECK_MSG(atomic_load(&hits[i]) == 1, "threads=%u n=%zu i=%zu", threads[t], n, i);
            CHECK(atomic_load(&c.sum) == (unsigned long)(n ? n * (n - 1) / 2 : 0));
        }
        for (size_t i = 0; i < 4; i++)
            atomic_store(&hits[i], 0);
        ctx_t c = {hits, p, 0};
        cuzk_pool_run(p, 3, nested, &c);
        for (size_t i = 0; i < 4; i++)
            CHECK(atomic_load(&hits[i]) == 3);
        cuzk_pool_destroy(p);
    }
    cuzk_pool_destroy(NULL);
    CHECK(cuzk_pool_default() != NULL);
}

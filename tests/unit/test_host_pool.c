/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The a/b/c host pool (include/cuzk/hostpool.h): reuse by size, the byte limit, small requests
 * and fallbacks, dropping kept buffers for a request that fits none, concurrent use; the pinned
 * kind on a device (skipped without one). Buffers of the large sizes are mapped, not touched,
 * except the bytes a test writes. */
#include "test.h"
#include "cuzk/hostpool.h"
#include "gpu/gpu.h"

#include <pthread.h>

#define MiB ((size_t)1 << 20)

static cuzk_host_pool_stats stats(cuzk_host_pool *hp)
{
    cuzk_host_pool_stats s;
    cuzk_host_pool_get_stats(hp, &s);
    return s;
}

CUZK_TEST(host_pool_reuse_and_limits)
{
    cuzk_host_pool *hp;
    CHECK(cuzk_host_pool_create(NULL, 1, 0, false) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_host_pool_create(&hp, 200 * MiB, 16 * MiB, false) == CUZK_OK);
    cuzk_vec_alloc va = cuzk_host_pool_allocator(hp);

    /* Below min_bytes: plain memory, not counted. */
    void *small = cuzk_vec_alloc_bytes(&va, 1000);
    CHECK(small != NULL && stats(hp).requests == 0);
    cuzk_vec_free(&va, small);

    uint8_t *a = cuzk_vec_alloc_bytes(&va, 64 * MiB);
    uint8_t *b = cuzk_vec_alloc_bytes(&va, 64 * MiB);
    CHECK(a && b && a != b);
    a[0] = 1, a[64 * MiB - 1] = 2, b[0] = 3;
    cuzk_host_pool_stats s = stats(hp);
    CHECK(s.requests == 2 && s.reused == 0 && s.buffers == 2 && s.bytes_in_use == 128 * MiB);
    /* Freed buffers come back for requests of [size / 2, size]. */
    cuzk_vec_free(&va, a);
    uint8_t *c = cuzk_vec_alloc_bytes(&va, 40 * MiB);
    CHECK(c == a && stats(hp).reused == 1);
    cuzk_vec_free(&va, c);
    /* Too small for it (a 64 MiB buffer is not spent on 20 MiB): a new buffer. */
    uint8_t *d = cuzk_vec_alloc_bytes(&va, 20 * MiB);
    CHECK(d && d != a && stats(hp).buffers == 3 && stats(hp).reused == 1);
    /* 64 + 64 + 20 held; 100 more exceeds 200: the kept 64 MiB buffer is dropped first. */
    uint8_t *e = cuzk_vec_alloc_bytes(&va, 100 * MiB);
    s = stats(hp);
    CHECK(e && s.buffers == 3 && s.bytes_held == 184 * MiB && s.fallback == 0);
    /* Nothing kept, nothing fits: plain memory (a fallback), freed as such. */
    uint8_t *f = cuzk_vec_alloc_bytes(&va, 50 * MiB);
    CHECK(f && stats(hp).fallback == 1 && stats(hp).buffers == 3);
    f[50 * MiB - 1] = 7;
    cuzk_vec_free(&va, f);
    /* A kept buffer is not dropped for a request that would not fit without it either. */
    cuzk_vec_free(&va, d);
    uint8_t *h = cuzk_vec_alloc_bytes(&va, 90 * MiB); /* 164 in use + 90 > 200 even without d */
    CHECK(h && stats(hp).fallback == 2 && stats(hp).buffers == 3);
    cuzk_vec_free(&va, h);
    d = cuzk_vec_alloc_bytes(&va, 20 * MiB);
    CHECK(d && stats(hp).reused == 2);
    cuzk_vec_free(&va, b);
    cuzk_vec_free(&va, d);
    cuzk_vec_free(&va, e);
    s = stats(hp);
    CHECK(s.bytes_in_use == 0 && s.bytes_held == 184 * MiB && s.requests == 8);
    /* Every kept buffer is still there to be reused. */
    void *g = cuzk_vec_alloc_bytes(&va, 100 * MiB);
    CHECK(g == e);
    cuzk_vec_free(&va, g);
    cuzk_vec_free(&va, NULL);
    cuzk_host_pool_destroy(hp);
    cuzk_host_pool_destroy(NULL);
    cuzk_host_pool_get_stats(NULL, &s);
    CHECK(s.requests == 0 && s.max_bytes == 0);
}

/* cuzk_host_pool_prefill: buffers made ahead up to the count or the byte limit, counting those
 * that exist (in use or kept) and only those a request of the size would take; later requests
 * of the size reuse them; below min_bytes nothing happens; bad arguments are refused. */
CUZK_TEST(host_pool_prefill)
{
    cuzk_host_pool *hp;
    unsigned made = 99;
    CHECK(cuzk_host_pool_prefill(NULL, 32 * MiB, 1, &made) == CUZK_ERR_INVALID_ARG && made == 0);
    CHECK(cuzk_host_pool_create(&hp, 150 * MiB, 16 * MiB, false) == CUZK_OK);
    CHECK(cuzk_host_pool_prefill(hp, 0, 1, &made) == CUZK_ERR_INVALID_ARG);
    cuzk_vec_alloc va = cuzk_host_pool_allocator(hp);
    /* One 32 MiB buffer in use already counts; a 100 MiB one does not (too large for 32). */
    void *x = cuzk_vec_alloc_bytes(&va, 32 * MiB);
    void *big = cuzk_vec_alloc_bytes(&va, 100 * MiB);
    CHECK(x && big && stats(hp).buffers == 2);
    cuzk_vec_free(&va, big);
    /* 3 wanted, 1 there: one more would pass 150 (32 + 100 + 32) unless the kept 100 MiB buffer
     * were dropped, which a prefill never does: 0 made. */
    CHECK(cuzk_host_pool_prefill(hp, 32 * MiB, 3, &made) == CUZK_OK && made == 0);
    cuzk_host_pool_destroy(hp);
    /* Again without the large buffer. */
    CHECK(cuzk_host_pool_create(&hp, 150 * MiB, 16 * MiB, false) == CUZK_OK);
    va = cuzk_host_pool_allocator(hp);
    x = cuzk_vec_alloc_bytes(&va, 32 * MiB);
    CHECK(cuzk_host_pool_prefill(hp, 32 * MiB, 3, &made) == CUZK_OK && made == 2);
    cuzk_host_pool_stats s = stats(hp);
    CHECK(s.buffers == 3 && s.bytes_held == 96 * MiB && s.bytes_in_use == 32 * MiB);
    CHECK(cuzk_host_pool_prefill(hp, 32 * MiB, 3, &made) == CUZK_OK && made == 0);
    /* The byte limit stops it: 96 held, one more 32 MiB fits (128), the next does not. */
    CHECK(cuzk_host_pool_prefill(hp, 32 * MiB, 10, &made) == CUZK_OK && made == 1);
    CHECK(stats(hp).bytes_held == 128 * MiB);
    /* Below min_bytes: nothing. */
    CHECK(cuzk_host_pool_prefill(hp, MiB, 4, &made) == CUZK_OK && made == 0);
    /* Requests of the size take the prefilled buffers, written with zeros ahead. */
    uint8_t *y[3];
    for (int i = 0; i < 3; i++) {
        y[i] = cuzk_vec_alloc_bytes(&va, 30 * MiB);
        CHECK(y[i] && y[i][0] == 0 && y[i][30 * MiB - 1] == 0);
    }
    s = stats(hp);
    CHECK(s.reused == 3 && s.requests == 4 && s.buffers == 4 && s.fallback == 0);
    for (int i = 0; i < 3; i++)
        cuzk_vec_free(&va, y[i]);
    cuzk_vec_free(&va, x);
    cuzk_host_pool_destroy(hp);
}

typedef struct {
    cuzk_host_pool *hp;
    unsigned id;
    bool bad;
} worker;

/* Each round takes two buffers, fills them with its own tag, checks no other thread wrote them. */
static void *churn(void *arg)
{
    worker *w = arg;
    cuzk_vec_alloc va = cuzk_host_pool_allocator(w->hp);
    for (unsigned r = 0; r < 200; r++) {
        size_t n1 = (1 + (r + w->id) % 3) * 64 * 1024, n2 = 100 * 1024;
        uint32_t *x = cuzk_vec_alloc_bytes(&va, n1), *y = cuzk_vec_alloc_bytes(&va, n2);
        if (!x || !y) {
            w->bad = true;
            return NULL;
        }
        uint32_t tag = w->id << 16 | r;
        for (size_t i = 0; i < n1 / 4; i += 97)
            x[i] = tag;
        for (size_t i = 0; i < n2 / 4; i += 89)
            y[i] = ~tag;
        for (size_t i = 0; i < n1 / 4; i += 97)
            w->bad |= x[i] != tag;
        for (size_t i = 0; i < n2 / 4; i += 89)
            w->bad |= y[i] != ~tag;
        cuzk_vec_free(&va, x);
        cuzk_vec_free(&va, y);
    }
    return NULL;
}

CUZK_TEST(host_pool_threads)
{
    cuzk_host_pool *hp;
    /* A limit below what the threads want at once: reuse, new buffers, drops and fallbacks mix. */
    CHECK(cuzk_host_pool_create(&hp, 2 * MiB, 32 * 1024, false) == CUZK_OK);
    enum { T = 6 };
    pthread_t th[T];
    worker w[T];
    for (unsigned i = 0; i < T; i++) {
        w[i] = (worker){hp, i, false};
        CHECK(pthread_create(&th[i], NULL, churn, &w[i]) == 0);
    }
    for (unsigned i = 0; i < T; i++) {
        pthread_join(th[i], NULL);
        CHECK_MSG(!w[i].bad, "thread %u saw another thread's data or no memory", i);
    }
    cuzk_host_pool_stats s = stats(hp);
    CHECK(s.requests == T * 400 && s.bytes_in_use == 0 && s.bytes_held <= 2 * MiB);
    CHECK(s.reused > 0);
    cuzk_host_pool_destroy(hp);
}

CUZK_TEST(gpu_host_pool_pinned)
{
    cuzk_host_pool *hp;
    if (!cuzk_gpu_available()) {
        CHECK(cuzk_host_pool_create(&hp, 64 * MiB, 0, true) == CUZK_ERR_NO_DEVICE);
        test_skip("no CUDA device");
    }
    CHECK(cuzk_host_pool_create(&hp, 64 * MiB, 0, true) == CUZK_OK);
    cuzk_vec_alloc va = cuzk_host_pool_allocator(hp);
    uint8_t *a = cuzk_vec_alloc_bytes(&va, 8 * MiB);
    CHECK(a != NULL && stats(hp).pinned && stats(hp).fallback == 0);
    memset(a, 0x5a, 8 * MiB);
    cuzk_vec_free(&va, a);
    CHECK(cuzk_vec_alloc_bytes(&va, 8 * MiB) == a);
    cuzk_vec_free(&va, a);
    cuzk_host_pool_destroy(hp);
}

#include "cuzk/backend.h"

static bool all_zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return false;
    return true;
}

/* Deferred scratch wipes: ranges of several pieces (threads) and of one (the caller's thread
 * alone) are zero once the next scratch request returns; bytes outside the ranges are kept; a
 * backend destroyed with a wipe in flight waits for it (ASan sees a use after free otherwise). */
CUZK_TEST(backend_scratch_wipe_async)
{
    cuzk_backend *be;
    CHECK(cuzk_backend_create(&be, CUZK_BACKEND_CPU, 2) == CUZK_OK);
    const size_t big = 300 * MiB + 12345, small = 4096 + 7;
    uint8_t *a = cuzk_backend_scratch(be, 0, big), *b = cuzk_backend_scratch(be, 1, small + 100);
    CHECK(a && b);
    uint8_t fill = (uint8_t)(test_rand_u64() | 1);
    memset(a, fill, big);
    memset(b, fill, small + 100);
    void *p[3] = {a, NULL, b};
    size_t bytes[3] = {big, 77, small};
    cuzk_backend_scratch_wipe_async(be, p, bytes, 3);
    CHECK(cuzk_backend_scratch(be, 0, big) == a); /* waits for the wipe */
    CHECK(all_zero(a, big) && all_zero(b, small));
    for (size_t i = small; i < small + 100; i++)
        CHECK(b[i] == fill);
    /* One small range: wiped by the caller's thread or one helper thread; then destroy. */
    memset(b, fill, small);
    cuzk_backend_scratch_wipe_async(be, p + 2, bytes + 2, 1);
    CHECK(cuzk_backend_scratch(be, 1, 1) == b && all_zero(b, small));
    memset(a, fill, big);
    cuzk_backend_scratch_wipe_async(be, p, bytes, 1);
    cuzk_backend_destroy(be);
    cuzk_backend_scratch_wipe_async(NULL, p, bytes, 1);
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The host buffer pool (include/cuzk/hostpool.h): a table of buffers, each in use or kept. A
 * request takes the smallest kept buffer of at least its size and at most twice it (a 4 GiB
 * buffer is not spent on a 100 MiB vector), else allocates one; new buffers are allocated and
 * pinned outside the lock (~0.5 s/GiB), with their bytes reserved first so that concurrent
 * requests respect max_bytes.
 */
#include "cuzk/hostpool.h"

#include "gpu/gpu.h"

#include <pthread.h>
#include <string.h>
#include <time.h>

typedef struct {
    void *p;
    size_t bytes;
    bool used;
} hp_buf;

struct cuzk_host_pool {
    pthread_mutex_t mu;
    hp_buf *b;
    size_t n, cap;
    uint64_t max_bytes, held; /* held: kept + in use + reserved for allocations in progress */
    size_t min_bytes;
    bool pinned;
    cuzk_host_pool_stats st;
};

static double ms_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* One more table slot. */
static bool table_room_locked(cuzk_host_pool *hp)
{
    if (hp->n < hp->cap)
        return true;
    size_t ncap = hp->cap ? 2 * hp->cap : 8;
    hp_buf *nb = cuzk_alloc_array(ncap, sizeof *nb);
    if (!nb)
        return false;
    if (hp->n)
        memcpy(nb, hp->b, hp->n * sizeof *nb);
    cuzk_free(hp->b);
    hp->b = nb;
    hp->cap = ncap;
    return true;
}

static void *raw_alloc(const cuzk_host_pool *hp, size_t bytes)
{
    if (!hp->pinned)
        return cuzk_alloc(bytes);
    void *p = NULL;
    return cuzk_gpu_host_alloc(&p, bytes) == CUZK_OK ? p : NULL;
}

static void raw_free(const cuzk_host_pool *hp, void *p)
{
    if (hp->pinned)
        cuzk_gpu_host_free(p);
    else
        cuzk_free(p);
}

cuzk_status cuzk_host_pool_create(cuzk_host_pool **out, uint64_t max_bytes, size_t min_bytes,
                                  bool pinned)
{
    if (!out)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "host pool: NULL output");
    *out = NULL;
    if (pinned && !cuzk_gpu_available())
        return cuzk_fail(CUZK_ERR_NO_DEVICE, "host pool: pinned buffers need a CUDA device");
    cuzk_host_pool *hp = cuzk_calloc_array(1, sizeof *hp);
    if (!hp)
        return cuzk_fail(CUZK_ERR_NOMEM, "host pool: out of memory");
    pthread_mutex_init(&hp->mu, NULL);
    hp->max_bytes = max_bytes;
    hp->min_bytes = min_bytes;
    hp->pinned = pinned;
    *out = hp;
    return CUZK_OK;
}

void cuzk_host_pool_destroy(cuzk_host_pool *hp)
{
    if (!hp)
        return;
    for (size_t i = 0; i < hp->n; i++)
        raw_free(hp, hp->b[i].p);
    cuzk_free(hp->b);
    pthread_mutex_destroy(&hp->mu);
    cuzk_free(hp);
}

/* Index of the smallest kept buffer in [bytes, 2 bytes], or hp->n. */
static size_t best_fit_locked(const cuzk_host_pool *hp, size_t bytes)
{
    size_t best = hp->n;
    for (size_t i = 0; i < hp->n; i++) {
        const hp_buf *x = &hp->b[i];
        if (x->used || x->bytes < bytes || x->bytes / 2 > bytes)
            continue;
        if (best == hp->n || x->bytes < hp->b[best].bytes)
            best = i;
    }
    return best;
}

static void remove_locked(cuzk_host_pool *hp, size_t i)
{
    hp->held -= hp->b[i].bytes;
    hp->b[i] = hp->b[--hp->n];
}

static void *pool_alloc(void *ctx, size_t bytes)
{
    cuzk_host_pool *hp = ctx;
    if (bytes < hp->min_bytes || bytes == 0)
        return cuzk_alloc(bytes);
    pthread_mutex_lock(&hp->mu);
    hp->st.requests++;
    size_t i = best_fit_locked(hp, bytes);
    if (i < hp->n) {
        hp->b[i].used = true;
        hp->st.reused++;
        void *p = hp->b[i].p;
        pthread_mutex_unlock(&hp->mu);
        return p;
    }
    /* Room for a new buffer: drop kept ones (they did not fit this request) first, but only
     * when that makes room; otherwise they stay for requests they fit. */
    uint64_t kept = 0;
    for (size_t k = 0; k < hp->n; k++)
        kept += hp->b[k].used ? 0 : hp->b[k].bytes;
    const bool can = hp->held - kept + bytes <= hp->max_bytes;
    void *drop[64];
    size_t nd = 0;
    for (size_t k = 0; can && k < hp->n && hp->held + bytes > hp->max_bytes && nd < 64;) {
        if (hp->b[k].used) {
            k++;
            continue;
        }
        drop[nd++] = hp->b[k].p;
        remove_locked(hp, k);
    }
    bool fits = hp->held + bytes <= hp->max_bytes && table_room_locked(hp);
    if (fits)
        hp->held += bytes; /* reserved while the buffer is made */
    else
        hp->st.fallback++;
    pthread_mutex_unlock(&hp->mu);
    for (size_t k = 0; k < nd; k++)
        raw_free(hp, drop[k]);
    if (!fits)
        return cuzk_alloc(bytes);

    const double t0 = ms_now();
    void *p = raw_alloc(hp, bytes);
    const double dt = ms_now() - t0;
    pthread_mutex_lock(&hp->mu);
    hp->st.new_ms += dt;
    void *lost = NULL;
    if (p && !table_room_locked(hp)) /* (another new buffer took the slot meanwhile) */
        lost = p, p = NULL;
    if (!p) {
        hp->held -= bytes;
        hp->st.fallback++;
    } else {
        hp->b[hp->n++] = (hp_buf){.p = p, .bytes = bytes, .used = true};
    }
    pthread_mutex_unlock(&hp->mu);
    if (lost)
        raw_free(hp, lost);
    return p ? p : cuzk_alloc(bytes);
}

/* Buffers a request of |bytes| would take (best_fit_locked's size rule), in use or not. */
static unsigned fitting_locked(const cuzk_host_pool *hp, size_t bytes)
{
    unsigned k = 0;
    for (size_t i = 0; i < hp->n; i++)
        k += hp->b[i].bytes >= bytes && hp->b[i].bytes / 2 <= bytes;
    return k;
}

cuzk_status cuzk_host_pool_prefill(cuzk_host_pool *hp, size_t bytes, unsigned count,
                                   unsigned *made)
{
    unsigned k = 0;
    if (made)
        *made = 0;
    if (!hp || !bytes)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "host pool prefill: NULL pool or 0 bytes");
    cuzk_status s = CUZK_OK;
    while (bytes >= hp->min_bytes) {
        pthread_mutex_lock(&hp->mu);
        bool go = fitting_locked(hp, bytes) < count && hp->held + bytes <= hp->max_bytes &&
                  table_room_locked(hp);
        if (go)
            hp->held += bytes; /* reserved while the buffer is made, as in pool_alloc */
        pthread_mutex_unlock(&hp->mu);
        if (!go)
            break;
        const double t0 = ms_now();
        void *p = raw_alloc(hp, bytes);
        if (p && !hp->pinned)
            memset(p, 0, bytes); /* the pages now, not in the first partition's synthesis */
        const double dt = ms_now() - t0;
        pthread_mutex_lock(&hp->mu);
        hp->st.new_ms += dt;
        void *lost = NULL;
        if (p && !table_room_locked(hp))
            lost = p, p = NULL;
        if (p)
            hp->b[hp->n++] = (hp_buf){.p = p, .bytes = bytes, .used = false};
        else
            hp->held -= bytes;
        pthread_mutex_unlock(&hp->mu);
        if (lost)
            raw_free(hp, lost);
        if (!p) {
            s = cuzk_fail(CUZK_ERR_NOMEM, "host pool prefill: cannot allocate %zu MiB%s",
                          bytes >> 20, hp->pinned ? " of pinned memory" : "");
            break;
        }
        k++;
    }
    if (made)
        *made = k;
    return s;
}

static void pool_free(void *ctx, void *p)
{
    cuzk_host_pool *hp = ctx;
    if (!p)
        return;
    pthread_mutex_lock(&hp->mu);
    for (size_t i = 0; i < hp->n; i++) {
        if (hp->b[i].p == p) {
            hp->b[i].used = false;
            pthread_mutex_unlock(&hp->mu);
            return;
        }
    }
    pthread_mutex_unlock(&hp->mu);
    cuzk_free(p); /* a small request or a fallback */
}

cuzk_vec_alloc cuzk_host_pool_allocator(cuzk_host_pool *hp)
{
    return (cuzk_vec_alloc){.alloc = pool_alloc, .free = pool_free, .ctx = hp};
}

void cuzk_host_pool_get_stats(cuzk_host_pool *hp, cuzk_host_pool_stats *out)
{
    memset(out, 0, sizeof *out);
    if (!hp)
        return;
    pthread_mutex_lock(&hp->mu);
    *out = hp->st;
    out->max_bytes = hp->max_bytes;
    out->pinned = hp->pinned;
    out->buffers = hp->n;
    for (size_t i = 0; i < hp->n; i++) {
        out->bytes_held += hp->b[i].bytes;
        if (hp->b[i].used)
            out->bytes_in_use += hp->b[i].bytes;
    }
    pthread_mutex_unlock(&hp->mu);
}

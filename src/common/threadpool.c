/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "cuzk/threadpool.h"
#include "cuzk/alloc.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

struct cuzk_pool {
    pthread_mutex_t mu;      /* guards the job fields and generation */
    pthread_cond_t wake;     /* a new job or shutdown */
    pthread_cond_t done;     /* a worker finished its part */
    pthread_mutex_t callers; /* one loop at a time */
    pthread_t *threads;
    unsigned nthreads; /* worker threads (the caller is extra) */
    unsigned long generation;
    bool stop;
    /* the current job */
    cuzk_pool_fn fn;
    void *ctx;
    size_t n;
    _Atomic size_t next;
    unsigned busy; /* workers still inside the current job */
};

static _Thread_local bool in_pool_task;

static void drain(cuzk_pool *p, cuzk_pool_fn fn, void *ctx, size_t n)
{
    in_pool_task = true;
    for (;;) {
        size_t i = atomic_fetch_add(&p->next, 1);
        if (i >= n)
            break;
        fn(ctx, i);
    }
    in_pool_task = false;
}

static void *worker(void *arg)
{
    cuzk_pool *p = arg;
    unsigned long seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && p->generation == seen)
            pthread_cond_wait(&p->wake, &p->mu);
        if (p->stop)
            break;
        seen = p->generation;
        cuzk_pool_fn fn = p->fn;
        void *ctx = p->ctx;
        size_t n = p->n;
        pthread_mutex_unlock(&p->mu);
        drain(p, fn, ctx, n);
        pthread_mutex_lock(&p->mu);
        if (--p->busy == 0)
            pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static unsigned default_threads(void)
{
    const char *e = getenv("CUZK_THREADS");
    if (e && atoi(e) > 0)
        return (unsigned)atoi(e);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

cuzk_status cuzk_pool_create(cuzk_pool **out, unsigned threads)
{
    *out = NULL;
    if (threads == 0)
        threads = default_threads();
    if (threads > 1024)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "thread count %u is above 1024", threads);
    cuzk_pool *p = cuzk_alloc(sizeof *p);
    if (!p)
        return cuzk_fail(CUZK_ERR_NOMEM, "cannot allocate a thread pool");
    *p = (cuzk_pool){0};
    p->nthreads = threads - 1;
    pthread_mutex_init(&p->mu, NULL);
    pthread_mutex_init(&p->callers, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    p->threads = p->nthreads ? cuzk_alloc_array(p->nthreads, sizeof *p->threads) : NULL;
    if (p->nthreads && !p->threads) {
        cuzk_free(p);
        return cuzk_fail(CUZK_ERR_NOMEM, "cannot allocate %u thread handles", p->nthreads);
    }
    for (unsigned i = 0; i < p->nthreads; i++) {
        if (pthread_create(&p->threads[i], NULL, worker, p) != 0) {
            p->nthreads = i;
            cuzk_pool_destroy(p);
            return cuzk_fail(CUZK_ERR_INTERNAL, "cannot start worker thread %u", i);
        }
    }
    *out = p;
    return CUZK_OK;
}

void cuzk_pool_destroy(cuzk_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; i < p->nthreads; i++)
        pthread_join(p->threads[i], NULL);
    cuzk_free(p->threads);
    pthread_mutex_destroy(&p->mu);
    pthread_mutex_destroy(&p->callers);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->done);
    cuzk_free(p);
}

unsigned cuzk_pool_threads(const cuzk_pool *p)
{
    return p ? p->nthreads + 1 : 1;
}

void cuzk_pool_run(cuzk_pool *p, size_t n, cuzk_pool_fn fn, void *ctx)
{
    if (!p || p->nthreads == 0 || n <= 1 || in_pool_task) {
        for (size_t i = 0; i < n; i++)
            fn(ctx, i);
        return;
    }
    pthread_mutex_lock(&p->callers);
    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->ctx = ctx;
    p->n = n;
    atomic_store(&p->next, 0);
    p->busy = p->nthreads;
    p->generation++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    drain(p, fn, ctx, n);
    pthread_mutex_lock(&p->mu);
    while (p->busy > 0)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
    pthread_mutex_unlock(&p->callers);
}

static pthread_once_t default_once = PTHREAD_ONCE_INIT;
static cuzk_pool *default_pool;

static void make_default(void)
{
    if (cuzk_pool_create(&default_pool, 0) != CUZK_OK)
        default_pool = NULL;
}

cuzk_pool *cuzk_pool_default(void)
{
    pthread_once(&default_once, make_default);
    return default_pool;
}

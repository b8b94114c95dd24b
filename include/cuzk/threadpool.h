/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_THREADPOOL_H
#define CUZK_THREADPOOL_H

#include <stddef.h>

#include "cuzk/status.h"

/*
 * A fixed pool of worker threads for data-parallel loops. cuzk_pool_run splits [0, n) into
 * tasks that the workers and the calling thread take in turn, and returns when all are done.
 * Calls from inside a task run serially on the calling thread (no nested parallelism, so no
 * deadlock). One pool may serve one caller at a time; concurrent callers serialise.
 */
typedef struct cuzk_pool cuzk_pool;

/* |threads| = 0 means the number of online CPUs (or env CUZK_THREADS when set). */
cuzk_status cuzk_pool_create(cuzk_pool **out, unsigned threads) CUZK_WARN_UNUSED_RESULT;
void cuzk_pool_destroy(cuzk_pool *pool);
/* Threads that work on a loop, the caller included. */
unsigned cuzk_pool_threads(const cuzk_pool *pool);

/* fn(ctx, i) for every i in [0, n); any order, any thread. |pool| NULL runs serially. */
typedef void (*cuzk_pool_fn)(void *ctx, size_t i);
void cuzk_pool_run(cuzk_pool *pool, size_t n, cuzk_pool_fn fn, void *ctx);

/* A process-wide pool created on first use with cuzk_pool_create(.., 0); NULL if that failed. */
cuzk_pool *cuzk_pool_default(void);

#endif

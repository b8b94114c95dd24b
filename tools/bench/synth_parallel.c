/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * cuzk-bench synth-only --parallel P: P partitions synthesised at once, as an engine with P
 * synthesis workers does, each on T / P threads (its own pool for the PCE products) and all
 * sharing one PCE. Reports the wall time of P x K partitions and the time per partition it
 * amounts to: the rate at which the CPU can feed a prover, which one partition on all threads
 * does not show (the witness synthesis and the products each leave cores idle).
 * --shared: the products of every worker on one pool of T threads (calls serialise), as the
 * engine's synthesis workers run them; --witness-all: every worker's witness synthesis on all T
 * threads instead of T / P (both: the engine's workers before they divided the threads).
 */
#include "bench_synth.h"

#include "cuzk/threadpool.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct {
    cuzk_circuit c;
    cuzk_cs_mode mode;
    const cuzk_pce *pce;
    bool pce_ab;
    unsigned repeat, threads;
    size_t aux_hint, rows_hint;
    cuzk_host_pool *abc;
    cuzk_pool *shared; /* --shared: every worker's products on this pool */
    cuzk_status s;
} worker;

static void *run(void *arg)
{
    worker *w = arg;
    cuzk_pool *own = NULL;
    if (w->pce && !w->shared && (w->s = cuzk_pool_create(&own, w->threads)) != CUZK_OK)
        return NULL;
    cuzk_pool *pool = w->shared ? w->shared : own;
    for (unsigned r = 0; r < w->repeat && w->s == CUZK_OK; r++) {
        w->c.params.seed += 1000003;
        cuzk_cs *cs;
        if ((w->s = cuzk_cs_create(&cs, w->mode, w->aux_hint, w->rows_hint)) != CUZK_OK)
            break;
        cuzk_vec_alloc va = w->abc ? cuzk_host_pool_allocator(w->abc) : (cuzk_vec_alloc){0};
        if (w->abc && w->mode != CUZK_CS_WITNESS)
            w->s = cuzk_cs_set_vec_alloc(cs, &va);
        if (w->s == CUZK_OK)
            w->s = cuzk_circuit_synthesize(cs, &w->c);
        cuzk_prover_data pd;
        if (w->s == CUZK_OK)
            w->s = cuzk_cs_take_prover_data(cs, &pd);
        cuzk_cs_destroy(cs);
        if (w->s != CUZK_OK)
            break;
        if (w->pce) {
            if (w->abc) /* the products' a, b, c (a PROVE system's came from |va| already) */
                pd.abc_alloc = va;
            w->s = w->pce_ab ? cuzk_pce_eval_ab_into(w->pce, pool, &pd)
                             : cuzk_pce_eval_into(w->pce, pool, &pd);
        }
        cuzk_prover_data_free(&pd);
    }
    cuzk_pool_destroy(own);
    return NULL;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

cuzk_status bench_synth_parallel(const cuzk_circuit *c, cuzk_cs_mode mode, const cuzk_pce *pce,
                                 bool pce_ab, unsigned parallel, unsigned repeat, unsigned threads,
                                 size_t aux_hint, size_t rows_hint, cuzk_host_pool *abc,
                                 bool shared, bool witness_all, double *wall_s)
{
    worker *w = calloc(parallel, sizeof *w);
    pthread_t *th = calloc(parallel, sizeof *th);
    if (!w || !th) {
        free(w);
        free(th);
        return cuzk_fail(CUZK_ERR_NOMEM, "synth-only --parallel: out of memory");
    }
    unsigned each = threads / parallel ? threads / parallel : 1;
    cuzk_pool *sp = NULL;
    if (shared && pce) {
        cuzk_status ps = cuzk_pool_create(&sp, threads);
        if (ps != CUZK_OK) {
            free(w);
            free(th);
            return ps;
        }
    }
    double t0 = now_s();
    unsigned started = 0;
    cuzk_status s = CUZK_OK;
    for (unsigned i = 0; i < parallel; i++) {
        w[i] = (worker){.c = *c,
                        .mode = mode,
                        .pce = pce,
                        .pce_ab = pce_ab,
                        .repeat = repeat,
                        .threads = each,
                        .aux_hint = aux_hint,
                        .rows_hint = rows_hint,
                        .abc = abc,
                        .shared = sp};
        w[i].c.params.seed += i;
        w[i].c.params.threads = witness_all ? threads : each;
        if (pthread_create(&th[i], NULL, run, &w[i]) != 0) {
            s = cuzk_fail(CUZK_ERR_INTERNAL, "synth-only --parallel: cannot start a thread");
            break;
        }
        started++;
    }
    for (unsigned i = 0; i < started; i++) {
        pthread_join(th[i], NULL);
        if (s == CUZK_OK && w[i].s != CUZK_OK)
            s = w[i].s;
    }
    *wall_s = now_s() - t0;
    cuzk_pool_destroy(sp);
    free(w);
    free(th);
    return s;
}

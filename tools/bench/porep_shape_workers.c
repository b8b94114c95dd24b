/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * cuzk-bench porep-shape --workers W: W prover threads, each with a backend of its own on the
 * same device, as the engine runs engine.prover_workers (Curio's gpu_workers_per_device) per
 * GPU. Each round makes W witnesses (untimed), then the W threads prove one partition each at
 * the same moment; the round's wall time over W is the time per partition when partitions
 * follow each other on the device (one worker's uploads, split and L/A/B sums beside another's
 * H step and H MSM). With --keep-resident every backend keeps the parameter set, which the
 * device holds once (src/backend/resident.c), with --h-rows precomputed rows of its H query.
 *
 * Rounds start their W partitions together, so the first partition's upload of a in each round
 * has nothing to hide under. --continuous is the engine's steady state instead: each thread
 * proves --repeat partitions back to back from one witness of its own, never waiting for the
 * others; the rate is taken between the first and the last completion. Its witnesses keep a and
 * b between proofs (the device H step only reads them; a no-op allocator takes the prover's
 * release of a, b and c), so no host work but the prover's own runs between a thread's proofs;
 * like the engine's workers, each prefetches its next partition's a and b under its current
 * H MSM (--no-prefetch: not).
 */
#include "porep_shape.h"

#include "cuzk/alloc.h"
#include "cuzk/backend.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    cuzk_backend *be;
    const cuzk_groth16_params *p;
    cuzk_prover_data pd;
    const cuzk_prove_opts *opts;
    cuzk_groth16_proof proof;
    cuzk_prove_timings t;
    double end_ms;
    cuzk_status s;
    char msg[512];
    /* --continuous: |count| proofs, their timings and completion times */
    unsigned count, done;
    cuzk_prove_timings *ts;
    double *ends;
    bool differ; /* a later proof differs from the first */
    cuzk_prove_opts own; /* opts with the prefetch below */
    unsigned prefetched; /* next partitions' a and b prefetched (cuzk_backend_h_prefetch) */
} ps_worker;

static void *worker_run(void *arg)
{
    ps_worker *w = arg;
    memset(&w->t, 0, sizeof w->t);
    w->s = cuzk_groth16_prove(&w->proof, w->p, &w->pd, w->be, w->opts, &w->t);
    w->end_ms = now_ms();
    if (w->s != CUZK_OK)
        snprintf(w->msg, sizeof w->msg, "%s", cuzk_last_error());
    return NULL;
}

/* The allocator of a continuous worker's per-proof copy of its witness: the prover's release of
 * a, b and c leaves them to the witness (cuzk_vec_free calls |free| only when |alloc| is set). */
static void *keep_alloc(void *ctx, size_t bytes)
{
    (void)ctx;
    (void)bytes;
    return NULL;
}

static void keep_free(void *ctx, void *p)
{
    (void)ctx;
    (void)p;
}

/* cuzk_prove_opts.h_running of a continuous worker, as the engine's workers do it: while this
 * proof's H MSM runs, its next partition's a and b (the same vectors here) go up. */
static void worker_prefetch(void *arg)
{
    ps_worker *w = arg;
    if (w->done + 1 < w->count && cuzk_backend_h_prefetch(w->be, w->p->h, w->p->n_h + 1, w->pd.a,
                                                          w->pd.b, w->pd.n_rows) == CUZK_OK)
        w->prefetched++;
}

static void *worker_loop(void *arg)
{
    ps_worker *w = arg;
    w->s = CUZK_OK;
    for (w->done = 0; w->done < w->count; w->done++) { /* |done|: proofs completed */
        cuzk_prover_data pd = w->pd;
        pd.abc_alloc = (cuzk_vec_alloc){keep_alloc, keep_free, NULL};
        cuzk_groth16_proof proof;
        cuzk_prove_timings *t = &w->ts[w->done];
        memset(t, 0, sizeof *t);
        w->s = cuzk_groth16_prove(w->done ? &proof : &w->proof, w->p, &pd, w->be, &w->own, t);
        if (w->s != CUZK_OK) {
            snprintf(w->msg, sizeof w->msg, "%s", cuzk_last_error());
            break;
        }
        w->ends[w->done] = now_ms();
        if (w->done && !ps_proof_eq(&proof, &w->proof))
            w->differ = true;
    }
    return NULL;
}

/* --continuous: every worker proves a->repeat partitions from its witness; prints each proof's
 * phases, then the wall time and the rate between the first and the last completion. */
static cuzk_status continuous_run(const ps_args *a, ps_worker *w, unsigned W, unsigned log_n,
                                  cuzk_groth16_proof *ref, bool *have_ref, bool *mismatch)
{
    const unsigned K = a->repeat;
    cuzk_status s = CUZK_OK;
    for (unsigned i = 0; i < W; i++) {
        w[i].count = K;
        w[i].ts = cuzk_calloc_array(K, sizeof *w[i].ts);
        w[i].ends = cuzk_calloc_array(K, sizeof *w[i].ends);
        if (!w[i].ts || !w[i].ends)
            s = CUZK_ERR_NOMEM;
    }
    if (s != CUZK_OK)
        return cuzk_fail(CUZK_ERR_NOMEM, "porep-shape: cannot allocate the timings");
    pthread_t th[64];
    unsigned started = 0;
    double t0 = now_ms();
    for (; started < W; started++)
        if (pthread_create(&th[started], NULL, worker_loop, &w[started]) != 0) {
            s = cuzk_fail(CUZK_ERR_INTERNAL, "porep-shape: cannot start worker %u", started);
            break;
        }
    size_t n = 0; /* completions, the first and the last at |first|, |last| */
    double first = 0, last = 0;
    for (unsigned i = 0; i < started; i++) {
        pthread_join(th[i], NULL);
        if (w[i].s != CUZK_OK && s == CUZK_OK)
            s = cuzk_fail(w[i].s, "worker %u: %s", i, w[i].msg);
        for (unsigned k = 0; k < w[i].done; k++, n++) {
            first = !n || w[i].ends[k] < first ? w[i].ends[k] : first;
            last = !n || w[i].ends[k] > last ? w[i].ends[k] : last;
        }
    }
    for (unsigned i = 0; i < started && s == CUZK_OK; i++) {
        for (unsigned k = 0; k < K; k++) {
            printf("worker %u ", i);
            ps_print_prove(a, cuzk_backend_name(w[i].be), k, &w[i].ts[k], log_n);
        }
        if (!*have_ref) {
            *ref = w[i].proof;
            *have_ref = true;
        } else if (!ps_proof_eq(ref, &w[i].proof)) {
            *mismatch = true;
        }
        *mismatch = *mismatch || w[i].differ;
    }
    if (s == CUZK_OK && n >= 2) {
        printf("workers continuous: %u x %u partitions in %.1f ms (wall); first completion at "
               "%.1f ms, then %.1f ms per partition\n",
               W, K, last - t0, first - t0, (last - first) / (double)(n - 1));
        unsigned pf = 0;
        for (unsigned i = 0; i < started; i++)
            pf += w[i].prefetched;
        printf("fused H calls whose a and b were staged on the device: %zu (prefetched under "
               "the previous proof: %u)\n",
               cuzk__gpu_event_count(CUZK__GPU_EV_H_STAGED, -1), pf);
    }
    fflush(stdout);
    return s;
}

cuzk_status ps_workers_run(const ps_args *a, cuzk_backend *be0, const cuzk_groth16_params *p,
                           cuzk_prover_data *pd0, size_t rows, size_t aux, size_t domain,
                           unsigned log_n, const cuzk_vec_alloc *va, const cuzk_prove_opts *opts,
                           cuzk_groth16_proof *ref, bool *have_ref, bool *mismatch)
{
    const unsigned W = a->workers;
    ps_worker *w = cuzk_calloc_array(W, sizeof *w);
    if (!w)
        return cuzk_fail(CUZK_ERR_NOMEM, "porep-shape: cannot allocate %u workers", W);
    cuzk_status s = CUZK_OK;
    w[0].be = be0; /* borrowed; the others are made here */
    for (unsigned i = 1; i < W && s == CUZK_OK; i++)
        s = cuzk_backend_create_on(&w[i].be, CUZK_BACKEND_CUDA, a->threads,
                                   cuzk_backend_device(be0));
    if (s != CUZK_OK)
        goto out;
    if (a->keep_resident) {
        double u0 = now_ms();
        for (unsigned i = 0; i < W && s == CUZK_OK; i++) {
            cuzk_backend_set_h_rows(w[i].be, a->h_rows);
            s = cuzk_groth16_params_keep_resident(w[i].be, p);
        }
        if (s != CUZK_OK)
            goto out;
        uint64_t bytes = 0;
        unsigned built = 0;
        size_t copies = cuzk_backend_device_resident(cuzk_backend_device(be0), &bytes, &built);
        printf("workers: %u backends keep the parameter set in %.0f ms: %zu device arrays, "
               "%.1f GiB held once (H query: %u precomputed rows asked, %u built)\n",
               W, now_ms() - u0, copies, (double)bytes / 1073741824.0, a->h_rows, built);
    }
    if (a->continuous) {
        w[0].pd = *pd0;
        memset(pd0, 0, sizeof *pd0);
        for (unsigned i = 1; i < W && s == CUZK_OK; i++)
            s = ps_witness_make(&w[i].pd, a, rows, aux, domain, va, cuzk_backend_pool(be0));
        for (unsigned i = 0; i < W; i++) {
            w[i].p = p;
            w[i].opts = opts;
            w[i].own = *opts;
            if (a->prefetch) {
                w[i].own.h_running = worker_prefetch;
                w[i].own.h_running_ctx = &w[i];
            }
        }
        if (s == CUZK_OK)
            s = continuous_run(a, w, W, log_n, ref, have_ref, mismatch);
        for (unsigned i = 0; i < W; i++) {
            cuzk_prover_data_free(&w[i].pd);
            cuzk_free(w[i].ts);
            cuzk_free(w[i].ends);
        }
        if (s == CUZK_OK)
            s = ps_witness_make(pd0, a, rows, aux, domain, va, cuzk_backend_pool(be0));
        goto out;
    }
    for (unsigned round = 0; round < a->repeat && s == CUZK_OK; round++) {
        /* Rounds of W partitions started together. Witnesses (untimed): worker 0 takes the
         * caller's, the others make the same one. */
        w[0].pd = *pd0;
        memset(pd0, 0, sizeof *pd0);
        unsigned have = 1;
        for (; have < W && s == CUZK_OK; have++)
            s = ps_witness_make(&w[have].pd, a, rows, aux, domain, va, cuzk_backend_pool(be0));
        if (s != CUZK_OK)
            have--;
        pthread_t th[64];
        unsigned started = 0;
        double t0 = now_ms();
        for (; s == CUZK_OK && started < W; started++) {
            w[started].p = p;
            w[started].opts = opts;
            if (pthread_create(&th[started], NULL, worker_run, &w[started]) != 0)
                s = cuzk_fail(CUZK_ERR_INTERNAL, "porep-shape: cannot start worker %u", started);
        }
        if (s != CUZK_OK && started)
            started--;
        double last = t0;
        for (unsigned i = 0; i < started; i++) {
            pthread_join(th[i], NULL);
            if (w[i].s != CUZK_OK && s == CUZK_OK)
                s = cuzk_fail(w[i].s, "worker %u: %s", i, w[i].msg);
            last = w[i].end_ms > last ? w[i].end_ms : last;
        }
        for (unsigned i = 0; i < started && s == CUZK_OK; i++) {
            ps_print_prove(a, cuzk_backend_name(w[i].be), round * W + i, &w[i].t, log_n);
            if (!*have_ref) {
                *ref = w[i].proof;
                *have_ref = true;
            } else if (!ps_proof_eq(ref, &w[i].proof)) {
                *mismatch = true;
            }
        }
        if (s == CUZK_OK)
            printf("workers round %u: %u partitions in %.1f ms (wall), %.1f ms per partition\n",
                   round, W, last - t0, (last - t0) / W);
        fflush(stdout);
        for (unsigned i = 0; i < have; i++)
            cuzk_prover_data_free(&w[i].pd);
        if (s == CUZK_OK)
            s = ps_witness_make(pd0, a, rows, aux, domain, va, cuzk_backend_pool(be0));
    }
out:
    for (unsigned i = 0; i < W; i++)
        if (w[i].be)
            cuzk_groth16_params_drop_resident(w[i].be, p);
    for (unsigned i = 1; i < W; i++)
        cuzk_backend_destroy(w[i].be);
    cuzk_free(w);
    return s;
}

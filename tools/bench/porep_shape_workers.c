/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * cuzk-bench porep-shape --workers W: W prover threads, each with a backend of its own on the
 * same device, as the engine runs engine.prover_workers (Curio's gpu_workers_per_device) per
 * GPU. Each round makes W witnesses (untimed), then the W threads prove one partition each at
 * the same moment; the round's wall time over W is the time per partition when partitions
 * follow each other on the device (one worker's uploads, split and L/A/B sums beside another's
 * H step and H MSM). With --keep-resident every backend keeps the parameter set, which the
 * device holds once (src/backend/resident.c).
 */
#include "porep_shape.h"

#include "backend/resident.h"
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
        for (unsigned i = 0; i < W && s == CUZK_OK; i++)
            s = cuzk_groth16_params_keep_resident(w[i].be, p);
        if (s != CUZK_OK)
            goto out;
        uint64_t bytes = 0;
        size_t copies = cuzk__resident_copies(&bytes);
        printf("workers: %u backends keep the parameter set in %.0f ms: %zu device arrays, "
               "%.1f GiB held once\n",
               W, now_ms() - u0, copies, (double)bytes / 1073741824.0);
    }
    for (unsigned round = 0; round < a->repeat && s == CUZK_OK; round++) {
        /* Witnesses (untimed): worker 0 takes the caller's, the others make the same one. */
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

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Prover workers made ready for a HOT set before its first partition: the set's device copies
 * (at load, srs.c) and each worker's split scratch (while it is idle, pipeline.c), so that the
 * first partition waits for neither upload nor allocation.
 */
#include "engine/engine_internal.h"

#include "groth16/prover_internal.h"

#include <stdio.h>
#include <string.h>

/* A parameter set (or a snarkjs key the GPU workers prove on their devices) that has just become
 * HOT on a CUDA engine goes to its GPU workers' devices now (one copy per device, shared by its
 * workers: src/backend/resident.c), so that the first partition does not wait for the upload
 * (~10-14 s for a 32 GiB PoRep set on an H200). A device that cannot hold it is left alone: its
 * workers send the points per proof and say so at their first. The entry is busy, so nothing
 * can drop the set meanwhile. */
void cuzk__device_warm(cuzk_engine *e, const srs_entry *c, const cuzk_groth16_params *p,
                       const cuzk_snarkjs_zkey *zk)
{
    if (zk && zk->domain_size < cuzk__zkey_gpu_min_domain())
        zk = NULL; /* proved on the workers' CPU pools */
    if ((!p && !zk) || e->kind != CUZK_BACKEND_CUDA)
        return;
    double t0 = cuzk__engine_now_ms();
    unsigned kept = 0, workers = 0;
    for (unsigned i = 0; i < e->n_provers; i++) {
        cuzk_backend *be = e->provers[i].be;
        if (!be || cuzk_backend_device(be) < 0)
            continue;
        workers++;
        /* Device copies only: the worker may be proving on |be| now, and its scratch is its own
         * to reserve (cuzk__scratch_reserve_locked, below). */
        kept += (p ? cuzk__groth16_params_keep_arrays(be, p)
                   : cuzk_snarkjs_zkey_keep_resident(be, zk)) == CUZK_OK;
    }
    if (workers)
        fprintf(stderr,
                "cuzk: circuit %s: parameter set kept on the device for %u of %u GPU prover "
                "workers (%.0f ms)\n",
                c->id, kept, workers, cuzk__engine_now_ms() - t0);
}

/* An idle worker takes the backend scratch the HOT sets charge it for (e->scratch_max, charged
 * when a set becomes HOT and never released) before a partition needs it: pinned host memory on
 * a GPU, ~14.8 GB and ~3 s for a 32 GiB PoRep set, which the first partition would otherwise
 * wait for. Called with e->mu held; drops it while allocating. True when it did something. */
bool cuzk__scratch_reserve_locked(cuzk_engine *e, prover_worker *w)
{
    uint64_t want[CUZK_BACKEND_SCRATCH_SLOTS];
    bool short_ = false;
    for (unsigned i = 0; i < CUZK_BACKEND_SCRATCH_SLOTS; i++) {
        want[i] = e->scratch_max[i];
        short_ |= want[i] > w->scratch_have[i];
    }
    if (!w->be || !short_)
        return false;
    pthread_mutex_unlock(&e->mu);
    for (unsigned i = 0; i < CUZK_BACKEND_SCRATCH_SLOTS; i++)
        if (want[i] > w->scratch_have[i] && !cuzk_backend_scratch(w->be, i, want[i]) &&
            !w->said_scratch) {
            /* Not retried while idle: the proofs ask again and fail with this if it persists. */
            w->said_scratch = true;
            fprintf(stderr, "cuzk: prover %s: scratch not reserved ahead: %s\n", w->name,
                    cuzk_last_error());
        }
    uint64_t held = cuzk_backend_scratch_bytes(w->be);
    pthread_mutex_lock(&e->mu);
    memcpy(w->scratch_have, want, sizeof want);
    w->scratch_held = held;
    return true;
}

/* The bytes of each of a, b and c that a partition of |p| asks the pool for: synthesize()
 * (pipeline.c) reserves n_h + 1 rows, which the constraint system rounds up to a power of two
 * (cuzk__grow_va, from 16). */
static size_t abc_bytes(const cuzk_groth16_params *p)
{
    size_t rows = (size_t)p->n_h + 1, cap = 16;
    while (cap < rows)
        cap *= 2;
    return cap * sizeof(cuzk_fr_t);
}

void cuzk__abc_want_locked(cuzk_engine *e, const cuzk_groth16_params *p)
{
    size_t b = abc_bytes(p);
    if (!e->abc_pool || b <= e->abc_want)
        return;
    e->abc_want = b;
    pthread_cond_broadcast(&e->queue_cv); /* an idle prover worker prefills (below) */
}

/* One idle worker makes the a, b (and c) of one partition per prover worker ahead (the pool's
 * budget permitting), so that the first partitions after a set becomes HOT do not allocate
 * them: a PoRep partition's 12 GiB of pinned a/b/c took 4.4-6.8 s of the first proof on the
 * H200 (porep-shape, runs Y2 and Y3). Not retried for a size it failed at. */
bool cuzk__abc_prefill_locked(cuzk_engine *e)
{
    const size_t want = e->abc_want;
    if (!e->abc_pool || e->abc_filling || want <= e->abc_done)
        return false;
    e->abc_filling = true;
    pthread_mutex_unlock(&e->mu);
    unsigned made = 0;
    const double t0 = cuzk__engine_now_ms();
    cuzk_status s = cuzk_host_pool_prefill(e->abc_pool, want, cuzk__abc_vectors(e) * e->n_provers,
                                          &made);
    if (s != CUZK_OK)
        fprintf(stderr, "cuzk: a/b/c pool not filled ahead: %s\n", cuzk_last_error());
    else if (made)
        fprintf(stderr, "cuzk: a/b/c pool: %u buffers of %.1f MiB made ahead (%.0f ms)\n", made,
                (double)want / 1048576.0, cuzk__engine_now_ms() - t0);
    pthread_mutex_lock(&e->mu);
    e->abc_done = want;
    e->abc_filling = false;
    return true;
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The per-partition pipeline: synthesis workers take the next partition from the scheduler
 * (highest priority first, FIFO inside a level; decided at every partition boundary), make the
 * parameter set HOT, wait for memory budget, synthesise, and hand the partition to the bounded
 * queue; prover workers (one per backend) prove it and the result is stored at the partition's
 * index. a/b/c are consumed by the prover, the assignment freed right after.
 */
#include "engine/engine_internal.h"

#include "common/trace.h"
#include "common/verify.h"
#include "cuzk/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cuzk__item_discard_locked(cuzk_engine *e, item *it)
{
    job *j = it->j;
    part_track *pt = &j->parts[it->part];
    if (pt->state != CUZK_PART_DONE)
        pt->state = j->outcome == CUZK_JOB_CANCELLED ? CUZK_PART_CANCELLED : CUZK_PART_FAILED;
    /* The prover data (up to ~17 GB for a PoRep partition, wiped before it is freed) goes
     * without the engine lock, so that no other engine call waits seconds for a cancelled or
     * failed partition. The item keeps its memory budget, its key reference and its job's
     * in-flight count (which keeps the job alive) until the free is done. */
    if (it->prefetched && it->pd.a)
        cuzk_backend_h_prefetch_drop(NULL, it->pd.a);
    it->prefetched = false;
    if (it->pd.a || it->pd.b || it->pd.c || it->pd.aux || it->pd.input) {
        cuzk_prover_data pd = it->pd;
        memset(&it->pd, 0, sizeof it->pd);
        pthread_mutex_unlock(&e->mu);
        cuzk_prover_data_free(&pd);
        pthread_mutex_lock(&e->mu);
    }
    if (it->budget) {
        e->mem_in_use -= it->budget;
        it->budget = 0;
        pthread_cond_broadcast(&e->space_cv);
    }
    if (it->holds_ref)
        cuzk__srs_release_locked(e, it->circ);
    cuzk_prover_data_free(&it->pd);
    j->in_flight--;
    e->partitions_in_flight--;
    if (j->outcome != CUZK_JOB_UNKNOWN && j->in_flight == 0)
        cuzk__job_inputs_free(j);
    pthread_cond_broadcast(&e->done_cv);
    cuzk_free(it);
}

/* CUZK_SNARKJS_GPU_MIN_LOG, or env CUZK_ZKEY_GPU_MIN_LOG (0 .. 28). */
uint32_t cuzk__zkey_gpu_min_domain(void)
{
    const char *e = getenv("CUZK_ZKEY_GPU_MIN_LOG");
    char *end = NULL;
    long v = e && *e ? strtol(e, &end, 10) : -1;
    return (uint32_t)1 << (v >= 0 && v <= 28 && end && *end == 0 ? v : CUZK_SNARKJS_GPU_MIN_LOG);
}

/* Builtin circuits: a PROVE-mode synthesis with the partition's seed, or a PoSt job's partition,
 * or a SnapDeals job's partition |data| (PROVE_AB on a CUDA engine: no c, which the device forms
 * as a b). */
static cuzk_status synthesize(cuzk_engine *e, const srs_entry *c, uint64_t seed, const void *data,
                              unsigned threads, item *it)
{
    cuzk_prover_data *pd = &it->pd;
    cuzk_circuit circ = c->circuit;
    circ.params.seed = seed;
    circ.params.data = data;
    /* PoSt sector ranges, SnapDeals and PoRep challenges: synthesised in parallel. */
    circ.params.threads = threads;
    const cuzk_groth16_params *p = c->params;
    cuzk_status s;
    /* Rows reserved for the whole domain (n_h + 1), so that a, b (and c) are padded in place. */
    if (it->pce) {
        /* READY under e->mu when the partition started; the reference it holds on the set
         * keeps the PCE (dropped only with an unused set). */
        s = cuzk__pce_synthesize(e, c->pce, &circ, p->n_l, p->n_h + 1, pd, &it->witness_ms,
                                 &it->matvec_ms);
    } else {
        cuzk_cs *cs = NULL;
        cuzk_cs_mode mode = cuzk__abc_vectors(e) == 2 ? CUZK_CS_PROVE_AB : CUZK_CS_PROVE;
        s = cuzk_cs_create(&cs, mode, p->n_l, p->n_h + 1);
        if (s == CUZK_OK && e->abc_pool) {
            cuzk_vec_alloc va = cuzk_host_pool_allocator(e->abc_pool);
            s = cuzk_cs_set_vec_alloc(cs, &va);
        }
        if (s == CUZK_OK)
            s = cuzk_circuit_synthesize(cs, &circ);
        if (s == CUZK_OK)
            s = cuzk_cs_take_prover_data(cs, pd);
        cuzk_cs_destroy(cs);
    }
    if (s == CUZK_OK && (pd->n_inputs != p->vk->ic_len || pd->n_aux != p->n_l))
        s = cuzk_fail(CUZK_ERR_INVALID_ARG,
                      "circuit %s synthesised %zu inputs and %zu aux "
                      "variables but its parameters (%s) are for %zu and %zu",
                      c->id, pd->n_inputs, pd->n_aux, c->path, p->vk->ic_len, p->n_l);
    return s;
}

void *cuzk__synth_main(void *arg)
{
    cuzk_engine *e = arg;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        if (e->stopping)
            break;
        job *j = cuzk__job_pick_locked(e);
        if (!j) {
            pthread_cond_wait(&e->work_cv, &e->mu);
            continue;
        }
        item *it = cuzk_calloc_array(1, sizeof *it);
        if (!it) {
            cuzk__job_finish_locked(e, j, CUZK_JOB_FAILED, "out of memory for a partition");
            continue;
        }
        double now = cuzk__engine_now_ms();
        it->j = j;
        it->part = j->next_part++;
        j->parts[it->part].state = CUZK_PART_SYNTHESIZING;
        it->circ = j->circ;
        it->t_start = now;
        it->queue_wait_ms = now - j->t_submit;
        j->in_flight++;
        e->partitions_in_flight++;
        if (!j->started) {
            j->started = true;
            j->t_start = now;
            j->phase_ms[CUZK_PHASE_QUEUE_WAIT] = now - j->t_submit;
        }
        srs_entry *c = it->circ;
        pthread_mutex_unlock(&e->mu);

        cuzk_status s = cuzk__srs_acquire(e, c);
        double t1 = cuzk__engine_now_ms();
        it->srs_wait_ms = t1 - now;
        pthread_mutex_lock(&e->mu);
        if (s != CUZK_OK) {
            cuzk__job_finish_locked(e, j, CUZK_JOB_FAILED, "circuit %s: %s", c->id,
                                    cuzk_last_error());
            cuzk__item_discard_locked(e, it);
            continue;
        }
        it->holds_ref = true;
        if (!j->srs_load_seen) {
            j->srs_load_seen = true;
            j->phase_ms[CUZK_PHASE_SRS_LOAD] = it->srs_wait_ms;
        }
        /* The total budget is shared with the HOT parameter sets (this partition's own is held
         * already) and the prover workers' scratch (never released): idle sets of other
         * circuits are evicted to make room. */
        uint64_t need = c->part_bytes;
        if (need + c->held_bytes + e->scratch_in_use > e->mem_budget) {
            cuzk__job_finish_locked(
                e, j, CUZK_JOB_FAILED,
                "a partition of circuit %s needs about %llu bytes in flight "
                "besides its %llu bytes of parameters and the prover "
                "workers' %llu bytes of scratch, more than the whole total "
                "memory budget (%llu bytes)",
                c->id, (unsigned long long)need, (unsigned long long)c->held_bytes,
                (unsigned long long)e->scratch_in_use, (unsigned long long)e->mem_budget);
            cuzk__item_discard_locked(e, it);
            continue;
        }
        while (j->outcome == CUZK_JOB_UNKNOWN && !e->stopping &&
               e->mem_in_use + e->pinned_in_use + e->scratch_in_use + need > e->mem_budget) {
            if (cuzk__srs_evict_idle_locked(e, c))
                continue;
            /* timed: an idle set becomes evictable when eviction_min_idle_ms runs out */
            cuzk__engine_wait_ms(&e->space_cv, &e->mu, 50);
        }
        if (j->outcome != CUZK_JOB_UNKNOWN || e->stopping) {
            cuzk__item_discard_locked(e, it);
            continue;
        }
        e->mem_in_use += need;
        it->budget = need;
        uint64_t seed = j->seed + it->part;
        const void *data = j->snap    ? (const void *)j->snap[it->part]
                           : j->porep ? (const void *)j->porep[it->part]
                                      : (const void *)j->post;
        it->pce = c->pce_state == PCE_READY;
        /* The CPUs are divided among the workers synthesising now (rounded up) instead of each
         * taking them all: a witness synthesis is a set of single-threaded ranges, so several on
         * all threads at once only oversubscribe the cores (docs/PERFORMANCE.md "Synthesis
         * workers sharing the CPUs"). A worker alone still gets them all. */
        const bool builtin = c->source == CUZK_CIRCUIT_BUILTIN;
        unsigned all = cuzk_pool_threads(e->load_pool), busy = builtin ? ++e->synth_busy : 1;
        unsigned threads = (all + busy - 1) / busy;
        pthread_mutex_unlock(&e->mu);

        /* ZKEY: cuzk_snarkjs_prove builds a, b, c itself, in the prover stage. */
        double t2 = cuzk__engine_now_ms();
        s = builtin ? synthesize(e, c, seed, data, threads, it) : CUZK_OK;
        it->synth_ms = builtin ? cuzk__engine_now_ms() - t2 : 0;

        pthread_mutex_lock(&e->mu);
        if (builtin)
            e->synth_busy--;
        if (s != CUZK_OK) {
            cuzk__job_finish_locked(e, j, CUZK_JOB_FAILED, "partition %u synthesis: %s", it->part,
                                    cuzk_last_error());
            cuzk__item_discard_locked(e, it);
            continue;
        }
        if (c->source == CUZK_CIRCUIT_BUILTIN && !c->n_constraints)
            c->n_constraints = it->pd.n_constraints;
        if (it->pce)
            c->pce_partitions++;
        else if (c->source == CUZK_CIRCUIT_BUILTIN)
            cuzk__pce_kick_locked(e, c, it->pd.n_rows);
        while (j->outcome == CUZK_JOB_UNKNOWN && !e->stopping && e->q_len >= e->cfg.queue_depth)
            pthread_cond_wait(&e->space_cv, &e->mu);
        if (j->outcome != CUZK_JOB_UNKNOWN || e->stopping) {
            cuzk__item_discard_locked(e, it);
            continue;
        }
        item **tail = &e->q_head;
        while (*tail)
            tail = &(*tail)->next;
        *tail = it;
        it->t_queued = cuzk__engine_now_ms();
        j->parts[it->part].state = CUZK_PART_SYNTH_DONE;
        j->parts[it->part].synth_ms = (float)it->synth_ms;
        e->q_len++;
        pthread_cond_signal(&e->queue_cv);
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

/* The queued partition to prove next: highest job priority, then job order, then index. */
static item **best_locked(cuzk_engine *e)
{
    item **best = NULL;
    for (item **p = &e->q_head; *p; p = &(*p)->next) {
        const job *a = (*p)->j;
        if (!best) {
            best = p;
            continue;
        }
        const job *b = (*best)->j;
        if (a->prio > b->prio ||
            (a->prio == b->prio &&
             (a->seq < b->seq || (a->seq == b->seq && (*p)->part < (*best)->part))))
            best = p;
    }
    return best;
}

static item *pop_best_locked(cuzk_engine *e)
{
    item **best = best_locked(e);
    item *it = *best;
    *best = it->next;
    it->next = NULL;
    e->q_len--;
    return it;
}

typedef struct {
    cuzk_phase phase;
    double ms;
} phase_ms;

/* cuzk_prove_opts.h_running of a GPU worker: while its proof's H MSM runs, the a and b of the
 * partition it will most likely take next go up to the device (cuzk_backend_h_prefetch), so
 * that one worker's next H step does not wait ~78 ms for its upload at a PoRep partition (two
 * workers per device stage each other's instead). Under e->mu, so that the item stays queued,
 * and alive, while its prefetch starts. */
static void prefetch_next(void *arg)
{
    prover_worker *w = arg;
    cuzk_engine *e = w->e;
    pthread_mutex_lock(&e->mu);
    item **best = best_locked(e); /* NULL: nothing queued */
    item *it = best ? *best : NULL;
    if (it && !it->prefetched && it->j->outcome == CUZK_JOB_UNKNOWN &&
        it->circ->source == CUZK_CIRCUIT_BUILTIN && it->pd.a && it->pd.b) {
        const cuzk_groth16_params *p = it->circ->params;
        it->prefetched = cuzk_backend_h_prefetch(w->be, p->h, p->n_h + 1, it->pd.a, it->pd.b,
                                                 it->pd.n_rows) == CUZK_OK;
    }
    pthread_mutex_unlock(&e->mu);
}

void *cuzk__prover_main(void *arg)
{
    prover_worker *w = arg;
    cuzk_engine *e = w->e;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        if (!e->q_head) {
            if (e->stopping)
                break;
            if (!cuzk__scratch_reserve_locked(e, w) && !cuzk__abc_prefill_locked(e))
                pthread_cond_wait(&e->queue_cv, &e->mu);
            continue;
        }
        item *it = pop_best_locked(e);
        it->prover_wait_ms = cuzk__engine_now_ms() - it->t_queued;
        pthread_cond_broadcast(&e->space_cv);
        job *j = it->j;
        if (j->outcome != CUZK_JOB_UNKNOWN) {
            cuzk__item_discard_locked(e, it);
            continue;
        }
        w->current = j;
        w->current_part = it->part;
        w->t_busy = cuzk__engine_now_ms();
        j->parts[it->part].state = CUZK_PART_PROVING;
        snprintf(j->backend, sizeof j->backend, "%s", w->name);
        srs_entry *c = it->circ;
        cuzk_snarkjs_wtns *wtns = j->wtns;
        uint32_t n_pub = c->n_public;
        char job_id[CUZK_ENGINE_ID_MAX];
        snprintf(job_id, sizeof job_id, "%s", j->id);
        bool self_verify = e->cfg.self_verify;
        pthread_mutex_unlock(&e->mu);

        double t0 = cuzk__engine_now_ms();
        cuzk_groth16_proof proof;
        cuzk_prove_timings t;
        memset(&t, 0, sizeof t);
        uint8_t proof_bytes[CUZK_GROTH16_PROOF_BYTES];
        uint8_t *pub = cuzk_alloc(n_pub ? (size_t)n_pub * 32 : 1);
        cuzk_status s;
        if (!pub) {
            s = cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
        } else if (c->source == CUZK_CIRCUIT_BUILTIN) {
            cuzk_prove_opts o = {.verify = self_verify};
            if (w->be && cuzk_backend_device(w->be) >= 0) {
                o.h_running = prefetch_next;
                o.h_running_ctx = w;
            }
            /* On a GPU the HOT set stays on the device between proofs (dropped with the HOT
             * tier, srs.c); when it does not fit, each call uploads its bases instead. */
            if (w->be && cuzk_backend_device(w->be) >= 0 &&
                cuzk_groth16_params_keep_resident(w->be, c->params) != CUZK_OK && !w->said_vram) {
                w->said_vram = true;
                fprintf(stderr,
                        "cuzk: prover %s: parameter set %s not kept on the device (%s); its "
                        "points are streamed from host memory per proof\n",
                        w->name, c->id, cuzk_last_error());
            }
            s = cuzk_groth16_prove(&proof, c->params, &it->pd, w->be, &o, &t);
            for (uint32_t i = 0; s == CUZK_OK && i < n_pub; i++)
                cuzk_fr_to_bytes_le(pub + 32 * (size_t)i, &it->pd.input[i + 1]);
        } else {
            cuzk_fr_t *fr = cuzk_alloc_array(n_pub ? n_pub : 1, sizeof *fr);
            /* A GPU worker proves snarkjs keys from CUZK_SNARKJS_GPU_MIN_LOG up on its device,
             * with the key's points held there like a HOT parameter set (dropped with the HOT
             * tier, srs.c); smaller keys on its CPU pool. */
            bool dev = w->be && cuzk_backend_device(w->be) >= 0 &&
                       c->zkey->domain_size >= cuzk__zkey_gpu_min_domain();
            if (fr && dev && cuzk_snarkjs_zkey_keep_resident(w->be, c->zkey) != CUZK_OK &&
                !w->said_vram) {
                w->said_vram = true;
                fprintf(stderr,
                        "cuzk: prover %s: key %s not kept on the device (%s); its points are "
                        "uploaded per proof\n",
                        w->name, c->id, cuzk_last_error());
            }
            cuzk_pool *cpu = w->be ? cuzk_backend_pool(w->be) : NULL;
            s = !fr   ? cuzk_fail(CUZK_ERR_NOMEM, "out of memory")
                : dev ? cuzk_snarkjs_prove_on(&proof, fr, c->zkey, wtns, w->be, &t)
                      : cuzk_snarkjs_prove(&proof, fr, c->zkey, wtns, cpu, &t);
            for (uint32_t i = 0; s == CUZK_OK && i < n_pub; i++)
                cuzk_fr_to_bytes_le(pub + 32 * (size_t)i, &fr[i]);
            cuzk_free(fr);
        }
        double t1 = cuzk__engine_now_ms();
        cuzk_prover_data_free_on(&it->pd, w->be ? cuzk_backend_pool(w->be) : NULL);
        if (s == CUZK_OK)
            cuzk_groth16_proof_serialize(proof_bytes, &proof);
        phase_ms ph[] = {
            {CUZK_PHASE_QUEUE_WAIT, it->queue_wait_ms + it->prover_wait_ms},
            {CUZK_PHASE_SRS_LOAD, it->srs_wait_ms},
            {CUZK_PHASE_SYNTHESIS, it->synth_ms + t.synthesis},
            {CUZK_PHASE_NTT_H, t.ntt_h},
            {CUZK_PHASE_MSM_H, t.msm_h},
            {CUZK_PHASE_BATCH_ADD, t.batch_add},
            {CUZK_PHASE_TAIL_MSM, t.tail_msm},
            {CUZK_PHASE_MSM_B_G2, t.msm_b_g2},
            {CUZK_PHASE_ASSEMBLE, t.assemble},
            {CUZK_PHASE_VERIFY, t.verify},
            {CUZK_PHASE_GPU_COMPUTE, t1 - t0},
            {CUZK_PHASE_TOTAL, t1 - it->t_start},
        };
        size_t n_ph = sizeof ph / sizeof ph[0];
        if (s == CUZK_OK && cuzk__trace_enabled()) {
            for (size_t i = 0; i < n_ph; i++)
                cuzk__trace_phase(job_id, it->part, cuzk_phase_name(ph[i].phase), ph[i].ms,
                                  w->name);
            if (it->pce) { /* synthesis = witness + matvec (DESIGN.md section 5) */
                cuzk__trace_phase(job_id, it->part, "witness", it->witness_ms, w->name);
                cuzk__trace_phase(job_id, it->part, "matvec", it->matvec_ms, w->name);
            }
        }

        uint64_t held = w->be ? cuzk_backend_scratch_bytes(w->be) : 0;
        pthread_mutex_lock(&e->mu);
        w->current = NULL;
        /* What the worker holds stays within what srs.c charged for it (status shows both). */
        w->scratch_held = held;
        CUZK_VERIFY_CHECK(held <= e->scratch_in_use / (e->n_provers ? e->n_provers : 1));
        if (s == CUZK_OK && j->outcome == CUZK_JOB_UNKNOWN) {
            if (!j->proof) {
                j->n_public = n_pub;
                j->proof = cuzk_calloc_array(j->n_parts, CUZK_GROTH16_PROOF_BYTES);
                j->pub = cuzk_calloc_array((size_t)j->n_parts * (n_pub ? n_pub : 1), 32);
            }
            if (!j->proof || !j->pub) {
                cuzk__job_finish_locked(e, j, CUZK_JOB_FAILED, "out of memory for the result");
            } else {
                memcpy(j->proof + (size_t)it->part * CUZK_GROTH16_PROOF_BYTES, proof_bytes,
                       CUZK_GROTH16_PROOF_BYTES);
                part_track *pt = &j->parts[it->part];
                pt->state = CUZK_PART_DONE;
                pt->synth_ms += (float)t.synthesis; /* zkey circuits: a, b, c in the prover */
                pt->prove_ms = (float)(t1 - t0);
                if (n_pub)
                    memcpy(j->pub + (size_t)it->part * n_pub * 32, pub, (size_t)n_pub * 32);
                for (size_t i = 0; i < n_ph; i++) {
                    /* queue_wait: the first partition's wait to start plus every partition's
                     * wait for a prover; srs_load: per job (first partition); total: submit ->
                     * done */
                    if (ph[i].phase > CUZK_PHASE_SRS_LOAD && ph[i].phase != CUZK_PHASE_TOTAL)
                        j->phase_ms[ph[i].phase] += ph[i].ms;
                    cuzk__engine_hist_observe(&e->phase_hist[ph[i].phase], ph[i].ms / 1e3);
                }
                j->phase_ms[CUZK_PHASE_QUEUE_WAIT] += it->prover_wait_ms;
                if (++j->parts_done == j->n_parts) {
                    j->verified = c->source == CUZK_CIRCUIT_ZKEY || self_verify;
                    cuzk__job_finish_locked(e, j, CUZK_JOB_COMPLETED, NULL);
                }
            }
        } else if (s != CUZK_OK) {
            cuzk__job_finish_locked(e, j, CUZK_JOB_FAILED, "partition %u proving on %s: %s",
                                    it->part, w->name, cuzk_last_error());
            if (it->pce && s == CUZK_ERR_VERIFY_FAILED)
                cuzk__pce_distrust_locked(e, c);
        }
        cuzk_free(pub);
        cuzk__item_discard_locked(e, it);
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

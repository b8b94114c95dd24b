/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_ENGINE_ENGINE_INTERNAL_H
#define CUZK_ENGINE_ENGINE_INTERNAL_H

/*
 * Engine internals. Locking is deliberately simple: ONE mutex (e->mu) guards every shared field
 * below (jobs, scheduler state, the work queue, SRS entries' tiers and reference counts, budgets,
 * counters, histograms). Heavy work — synthesis, proving, parameter generation and decoding — runs
 * with the mutex released; an SRS entry being loaded is marked |busy| so that others wait on
 * srs_cv instead of loading it twice. Condition variables:
 *   work_cv   synthesis workers: a partition became schedulable, or stop;
 *   queue_cv  prover workers: an item entered the queue, a HOT set raised the scratch, or stop;
 *   space_cv  synthesis workers: queue space, budget released, or a job finished;
 *   srs_cv    an SRS load finished, an entry became idle;
 *   done_cv   awaiters and shutdown: a job finished.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "cuzk/backend.h"
#include "cuzk/engine.h"
#include "cuzk/groth16.h"
#include "cuzk/hostpool.h"
#include "cuzk/r1cs.h"
#include "cuzk/snarkjs.h"
#include "filecoin/porep_circuit.h"
#include "filecoin/post_circuit.h"
#include "filecoin/snap_circuit.h"

/* ---- SRS (parameter set) entries; never removed once registered ---------------------------- */

typedef struct srs_entry {
    char id[CUZK_ENGINE_ID_MAX];
    cuzk_circuit_source source;
    char *spec;        /* BUILTIN */
    cuzk_circuit circuit;
    char *path;        /* .params (BUILTIN) or .zkey (ZKEY) */
    bool generated;    /* BUILTIN without params_path: test setup into cache_dir on first use */

    cuzk_srs_tier tier;
    bool busy;           /* a load runs outside the lock */
    bool drop_when_idle; /* evicted while in use: drop to COLD when ref_count reaches 0 */
    uint32_t ref_count;  /* partitions in flight holding the HOT parameters */
    uint64_t last_used_ms;

    /* WARM: mapped file, key, sizes */
    uint8_t *map;
    size_t map_len;
    uint8_t *vk_image; /* bellperson .vk bytes (cuzk_alloc) */
    size_t vk_len;
    uint32_t n_public;      /* without ONE */
    uint64_t n_constraints; /* 0 until known */
    uint64_t hot_bytes;     /* memory the decoded set needs */
    uint64_t part_bytes;    /* memory-budget estimate of one partition in flight */
    /* bytes per backend scratch slot a prover worker holds after proving this set (the L/A/B
     * split, cuzk__prover_scratch_sizes; 0 for snarkjs keys, whose prover uses none) */
    uint64_t scratch[CUZK_BACKEND_SCRATCH_SLOTS];

    /* HOT */
    cuzk_groth16_params *params;
    cuzk_snarkjs_zkey *zkey;
    uint64_t held_bytes; /* charged to the pinned budget */
    cuzk_subgroups subgroups; /* how the last load established the bulk points' subgroups */
    bool loaded_once;         /* |subgroups| is meaningful */

    /* PCE (builtin circuits, engine pce on; src/engine/pce.c): the matrices extracted in the
     * background after the first partition; while READY, partitions are a WITNESS synthesis
     * plus the PCE's sparse products. pce_bytes are charged to e->mem_in_use (and
     * e->pce_in_use) while READY, pce_reserve while BUILDING. */
    uint8_t pce_state; /* cuzk__pce_state */
    bool pce_thread;   /* pce_th started and not joined yet */
    pthread_t pce_th;
    cuzk_pce *pce;
    uint64_t pce_bytes, pce_reserve, pce_partitions;
    double pce_extract_ms, pce_retry_ms;
    bool pce_from_file;
    char pce_error[256];

    uint64_t completed, failed, cancelled;
} srs_entry;

enum cuzk__pce_state { PCE_NONE = 0, PCE_BUILDING, PCE_READY, PCE_FAILED };

/* ---- jobs ---------------------------------------------------------------------------------- */

/* A partition's progress, for the status pipelines (e->mu). */
typedef struct {
    uint8_t state; /* cuzk_partition_state */
    float synth_ms, prove_ms;
} part_track;

typedef struct job {
    char id[CUZK_ENGINE_ID_MAX];
    srs_entry *circ;
    cuzk_proof_kind kind;
    int prio;
    uint64_t seq;
    uint64_t seed;            /* BUILTIN: partition p uses seed + p */
    cuzk_snarkjs_wtns *wtns;  /* ZKEY */
    cuzk_fil_post_partition *post; /* PoSt: the partition from the vanilla proofs */
    cuzk_fil_snap_partition **snap; /* SnapDeals: n_parts partitions from the vanilla proofs */
    cuzk_fil_porep_partition **porep; /* PoRep: n_parts partitions from the C1 output */
    uint32_t n_parts, next_part, parts_done, in_flight;
    cuzk_job_outcome outcome; /* UNKNOWN while pending or running */
    bool started, superseded;
    char error[512];
    uint8_t *proof, *pub;
    uint32_t n_public;
    char backend[16];
    bool verified;
    double phase_ms[CUZK_PHASE_COUNT];
    part_track *parts;               /* n_parts entries */
    double t_submit, t_start, t_end; /* ms, monotonic */
    bool srs_load_seen;
    uint32_t waiters;
    struct job *prev, *next;
} job;

/* One partition between the synthesis and prover stages. */
typedef struct item {
    job *j;
    uint32_t part;
    srs_entry *circ;
    cuzk_prover_data pd;
    uint64_t budget;
    bool holds_ref;
    double synth_ms, srs_wait_ms, queue_wait_ms, t_start;
    double t_queued, prover_wait_ms; /* synthesised -> taken by a prover (queue_wait too) */
    /* Its a and b were prefetched to a device (cuzk_backend_h_prefetch) while it was queued:
     * dropped before they are freed unless its proof took them. */
    bool prefetched;
    bool pce;                     /* synthesised as a witness + the circuit's PCE */
    double witness_ms, matvec_ms; /* its two parts (pce) */
    struct item *next;
} item;

typedef struct {
    struct cuzk_engine *e;
    cuzk_backend *be;
    pthread_t th;
    bool started;
    int device;       /* -1 for the CPU */
    char name[16];    /* "cpu" or "cuda:N" */
    job *current;
    uint32_t current_part;
    double t_busy;    /* when it took the current partition */
    uint64_t scratch_held; /* its backend's scratch after its last proof or reservation (e->mu) */
    uint64_t scratch_have[CUZK_BACKEND_SCRATCH_SLOTS]; /* reserved while idle (warm.c) */
    bool said_vram;    /* warned once that a parameter set did not fit on the device */
    bool said_scratch; /* warned once that the idle reservation failed */
} prover_worker;

#define ENGINE_HIST_BUCKETS 18
typedef struct {
    uint64_t bucket[ENGINE_HIST_BUCKETS + 1]; /* non-cumulative; last = +Inf */
    uint64_t count;
    double sum; /* seconds */
} engine_hist;
extern const double cuzk__engine_hist_bounds[ENGINE_HIST_BUCKETS];

struct cuzk_engine {
    cuzk_engine_config cfg;
    char *cache_dir;
    int *devices;
    cuzk_backend_kind kind; /* resolved: CPU or CUDA */

    pthread_mutex_t mu;
    pthread_cond_t work_cv, queue_cv, space_cv, srs_cv, done_cv;
    bool accepting, shutdown_done, stopping;

    job *jobs_head, *jobs_tail;
    uint64_t next_seq;

    srs_entry **circs;
    size_t n_circs, cap_circs;

    item *q_head;
    size_t q_len;

    uint64_t mem_in_use, mem_budget;
    uint64_t pce_in_use; /* the PCEs' bytes, part of mem_in_use */
    char pce_tag[64];    /* cfg.pce_cache_tag; "" = no PCE files */
    int pce_cancel;      /* set (atomically) at shutdown: extractions give up */
    uint64_t pinned_in_use, pinned_budget;
    /* The prover workers' backend scratch, charged to the total budget from the reservation of
     * the first HOT set that needs it and never released (backends keep their scratch): every
     * worker may hold the per-slot maximum over the sets made HOT (srs.c scratch_growth). */
    uint64_t scratch_max[CUZK_BACKEND_SCRATCH_SLOTS];
    uint64_t scratch_in_use; /* n_provers x sum of scratch_max */

    cuzk_host_pool *abc_pool; /* a/b/c of builtin partitions; NULL: none */
    /* The largest a/b/c vector of the builtin sets made HOT so far (bytes), and the size an idle
     * prover worker last prefilled the pool for (warm.c cuzk__abc_prefill_locked). */
    size_t abc_want, abc_done;
    bool abc_filling;
    pthread_t *synth;
    unsigned n_synth, n_synth_started;
    /* Synthesis workers inside a builtin synthesis now: each new one takes its share of the
     * load pool's thread count for its parallel parts (pipeline.c). */
    unsigned synth_busy;
    prover_worker *provers;
    unsigned n_provers;
    cuzk_pool *load_pool;

    uint64_t completed, failed, cancelled;
    uint64_t partitions_in_flight;
    engine_hist phase_hist[CUZK_PHASE_COUNT];
    engine_hist proof_hist;
    double t_created;
};

/* engine.c */
/* The smallest snarkjs domain a GPU worker proves on its device (env CUZK_ZKEY_GPU_MIN_LOG,
 * default CUZK_SNARKJS_GPU_MIN_LOG; pipeline.c). */
uint32_t cuzk__zkey_gpu_min_domain(void);
/* warm.c: a set that has just become HOT (|p| or |zk|) goes to the GPU workers' devices (called
 * by srs.c with the entry busy, e->mu not held); an idle worker reserves the scratch the HOT
 * sets charge it for (called with e->mu held, which it drops while allocating; true when it
 * did something). */
void cuzk__device_warm(cuzk_engine *e, const srs_entry *c, const cuzk_groth16_params *p,
                       const cuzk_snarkjs_zkey *zk);
bool cuzk__scratch_reserve_locked(cuzk_engine *e, prover_worker *w);
/* warm.c: a builtin set |p| made HOT raises e->abc_want to its a/b/c size; an idle worker
 * prefills the a/b/c pool for it (e->mu held; dropped while allocating; true when it did). */
void cuzk__abc_want_locked(cuzk_engine *e, const cuzk_groth16_params *p);
bool cuzk__abc_prefill_locked(cuzk_engine *e);
/* Vectors of rows a partition's synthesis keeps: a and b on a CUDA engine (PROVE_AB: the device
 * forms c = a b), a, b and c on the CPU (where forming c costs what evaluating C does). */
static inline unsigned cuzk__abc_vectors(const cuzk_engine *e)
{
    return e->kind == CUZK_BACKEND_CUDA ? 2 : 3;
}
double cuzk__engine_now_ms(void);
/* pthread_cond_timedwait for at most |ms| milliseconds (waits that poll a condition no one
 * signals, such as an idle time running out). */
void cuzk__engine_wait_ms(pthread_cond_t *cv, pthread_mutex_t *mu, unsigned ms);
void cuzk__engine_hist_observe(engine_hist *h, double seconds);
const char *cuzk__engine_kind_name(cuzk_proof_kind k);

/* srs.c (e->mu NOT held unless the name ends in _locked) */
srs_entry *cuzk__srs_find_locked(cuzk_engine *e, const char *id);
/* Makes |c| HOT and takes a reference (jobs: waits for pinned space that in-use entries hold). */
cuzk_status cuzk__srs_acquire(cuzk_engine *e, srs_entry *c) CUZK_WARN_UNUSED_RESULT;
/* "checked", "checked-before" or "not-checked" for the entry's last load; "" before one (e->mu). */
const char *cuzk__srs_subgroups_word(const srs_entry *c);
/* Drops a reference taken by cuzk__srs_acquire. */
void cuzk__srs_release_locked(cuzk_engine *e, srs_entry *c);
/* Makes |c| at least WARM (generating test parameters if configured so). */
cuzk_status cuzk__srs_warm(cuzk_engine *e, srs_entry *c) CUZK_WARN_UNUSED_RESULT;
/* Makes |c| HOT without taking a reference (describing a zkey circuit). */
cuzk_status cuzk__srs_load(cuzk_engine *e, srs_entry *c) CUZK_WARN_UNUSED_RESULT;
void cuzk__srs_entry_free(srs_entry *c);

/* jobs.c */
/* Frees what a job's partitions are synthesised from (witness, PoSt / SnapDeals partitions). */
void cuzk__job_inputs_free(job *j);
/* PoRep at submit (porep_job.c): the C1 output of |req| read and checked, its partitions as
 * witnesses (*nparts of them) and its RegisteredSealProof. INVALID_ARG with the reason (the
 * C1's message) for anything refused; UNSUPPORTED for an unknown proof; NOMEM. */
cuzk_status cuzk__porep_decode(const cuzk_job_request *req, unsigned threads,
                               cuzk_fil_porep_partition ***out, uint32_t *nparts,
                               uint64_t *seal_proof_type) CUZK_WARN_UNUSED_RESULT;
void cuzk__porep_parts_free(cuzk_fil_porep_partition **v, size_t n);
void cuzk__job_finish_locked(cuzk_engine *e, job *j, cuzk_job_outcome o, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void cuzk__jobs_reap_locked(cuzk_engine *e, bool all);
job *cuzk__job_pick_locked(cuzk_engine *e);

/* srs.c: drops the least recently used HOT entry that no partition holds and that has been idle
 * for eviction_min_idle_ms, other than |keep|; false when there is none. */
bool cuzk__srs_evict_idle_locked(cuzk_engine *e, const srs_entry *keep);
/* Tests: called while a dropped parameter set is being freed, with e->mu released. */
extern void (*cuzk__srs_drop_hook)(cuzk_engine *e, const char *circuit_id);

/* pce.c. cuzk__pce_kick_locked: after a builtin partition of |c| was synthesised directly
 * (|rows| = its rows), starts the background extraction when the engine has pce on, none is
 * built, failed or building, and the memory budget has room for it now (else a later partition
 * tries again). cuzk__pce_synthesize: a WITNESS synthesis of |circ| and |pce|'s products into
 * |pd| (PROVE_AB-like on a CUDA engine: no c), a/b/c with room for |rows_reserved| entries in
 * the engine's a/b/c pool. cuzk__pce_drop_locked: the PCE leaves with its set (the caller frees
 * *out with e->mu released and uncharges pce_bytes). cuzk__pce_join: waits for every extraction
 * (shutdown). */
void cuzk__pce_kick_locked(cuzk_engine *e, srs_entry *c, size_t rows);
cuzk_status cuzk__pce_synthesize(cuzk_engine *e, const cuzk_pce *pce, const cuzk_circuit *circ,
                                 size_t aux_hint, size_t rows_reserved, cuzk_prover_data *pd,
                                 double *witness_ms, double *matvec_ms) CUZK_WARN_UNUSED_RESULT;
void cuzk__pce_drop_locked(srs_entry *c, cuzk_pce **out);
/* A proof of a partition synthesised through |c|'s PCE failed self-verification: later
 * partitions go the direct way (FAILED, the PCE kept until its set is dropped, since partitions
 * in flight may use it) and its file is removed. */
void cuzk__pce_distrust_locked(cuzk_engine *e, srs_entry *c);
void cuzk__pce_join(cuzk_engine *e);
const char *cuzk__pce_state_word(const srs_entry *c);

/* pipeline.c */
void *cuzk__synth_main(void *arg);
void *cuzk__prover_main(void *arg);
/* Frees a partition that leaves the pipeline (proved, cancelled or failed) and does its
 * accounting. Called with e->mu held; drops it while the prover data is wiped and freed. */
void cuzk__item_discard_locked(cuzk_engine *e, item *it);

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_ENGINE_H
#define CUZK_ENGINE_H

/*
 * The proving engine behind the daemon (DESIGN.md sections 1 and 4): jobs (idempotent by request
 * id), a priority scheduler, the SRS (parameter) manager with HOT / WARM / COLD tiers, the
 * per-partition pipeline (synthesis workers -> bounded queue -> prover workers -> finalizer),
 * cancellation, status and metrics. Pure C + pthreads; no gRPC types. Every function is
 * thread-safe unless it says otherwise; strings passed in are copied.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/backend.h"
#include "cuzk/check_cache.h"
#include "cuzk/status.h"

typedef struct cuzk_engine cuzk_engine;

/* Values equal to cuzk.v1 Priority. 0 = the kind's default (WinningPoSt CRITICAL, WindowPoSt
 * HIGH, the rest NORMAL); any other unknown value is treated as NORMAL. */
typedef enum {
    CUZK_PRIORITY_DEFAULT = 0,
    CUZK_PRIORITY_LOW = 1,
    CUZK_PRIORITY_NORMAL = 2,
    CUZK_PRIORITY_HIGH = 3,
    CUZK_PRIORITY_CRITICAL = 4,
} cuzk_priority;

/* Values equal to cuzk.v1 ProofKind; GENERIC (0) = a circuit named by circuit_id. */
typedef enum {
    CUZK_PROOF_GENERIC = 0,
    CUZK_PROOF_POREP = 1,
    CUZK_PROOF_SNAP = 2,
    CUZK_PROOF_WINDOW_POST = 3,
    CUZK_PROOF_WINNING_POST = 4,
} cuzk_proof_kind;

/* Values equal to cuzk.v1 AwaitProofResponse.Status. */
typedef enum {
    CUZK_JOB_UNKNOWN = 0,
    CUZK_JOB_COMPLETED = 1,
    CUZK_JOB_FAILED = 2,
    CUZK_JOB_CANCELLED = 3,
    CUZK_JOB_TIMEOUT = 4,
} cuzk_job_outcome;

/* Values equal to cuzk.v1 SRSStatus.Tier. HOT: points decoded in memory (pinned host memory when
 * a CUDA backend is in use) and charged to the pinned budget; WARM: file mapped, header and key
 * checked; COLD: registered, on disk only. */
typedef enum {
    CUZK_TIER_HOT = 0,
    CUZK_TIER_WARM = 1,
    CUZK_TIER_COLD = 2,
} cuzk_srs_tier;

/* Phase names of DESIGN.md section 5, in this order (index = enum value). */
typedef enum {
    CUZK_PHASE_QUEUE_WAIT,
    CUZK_PHASE_SRS_LOAD,
    CUZK_PHASE_SYNTHESIS,
    CUZK_PHASE_NTT_H,
    CUZK_PHASE_MSM_H,
    CUZK_PHASE_BATCH_ADD,
    CUZK_PHASE_TAIL_MSM,
    CUZK_PHASE_MSM_B_G2,
    CUZK_PHASE_ASSEMBLE,
    CUZK_PHASE_VERIFY,
    CUZK_PHASE_GPU_COMPUTE,
    CUZK_PHASE_TOTAL,
    CUZK_PHASE_COUNT
} cuzk_phase;
/* "queue_wait", "srs_load", ... ; NULL past the end. */
const char *cuzk_phase_name(cuzk_phase p);

#define CUZK_ENGINE_ID_MAX 128 /* bytes of a job / request / circuit id, NUL included */

/* ---- configuration ------------------------------------------------------------------------- */

typedef struct {
    cuzk_backend_kind backend;   /* AUTO: CUDA workers per device when present, else CPU */
    const int *devices;          /* GPU ordinals; NULL/0 = every device present */
    size_t n_devices;
    unsigned prover_workers;     /* CPU backend: prover workers; CUDA: workers per device. 0 = 1 */
    unsigned synthesis_workers;  /* 0 = auto: 2 per prover worker, at most the CPU count */
    unsigned threads;            /* CPU threads per worker pool; 0 = all CPUs (or CUZK_THREADS) */
    unsigned queue_depth;        /* synthesised partitions waiting for a prover; 0 = 2 */
    uint64_t memory_budget;      /* total host bytes for HOT parameter sets plus partitions in
                                    flight (a/b/c, witness); 0 = auto (MemTotal - 5 GiB, at
                                    least 1 GiB) */
    uint64_t pinned_budget;      /* bytes of HOT parameter sets (also counted in memory_budget);
                                    0 = auto (half of MemTotal) */
    bool no_host_pool;           /* a/b/c in fresh memory per partition (default: a pool) */
    uint64_t host_pool_budget;   /* most bytes the a/b/c pool keeps (include/cuzk/hostpool.h;
                                    pinned on CUDA engines); 0 = auto: memory_budget -
                                    pinned_budget (memory_budget / 4 if that is not positive) */
    uint64_t host_pool_min_bytes; /* smaller a/b/c vectors are not pooled; 0 = 16 MiB */
    uint64_t eviction_min_idle_ms; /* idle time before a HOT entry may be evicted for space */
    uint64_t result_ttl_ms;      /* finished jobs are kept (and Await-able) this long; 0 = 10 min */
    bool self_verify;            /* verify every proof before returning it (default true) */
    unsigned h_precompute_rows;  /* CUDA: precomputed rows of the H query of parameter sets kept
                                    on a device (cuzk_backend_set_h_rows; <= 16); 0 = none */
    const char *cache_dir;       /* where generated test parameters live; NULL = ./cuzk-cache */
    bool zkey_unchecked;         /* load snarkjs keys without the subgroup tests of their bulk
                                    points (trusted files); default false: tested at each load,
                                    or once per key through |check_cache| */
    cuzk_check_cache *check_cache; /* keys already tested (include/cuzk/check_cache.h; the caller
                                      keeps it open while the engine lives); NULL = none */
    bool pce;                      /* builtin circuits: after a circuit's first partition its
                                      matrices are extracted (PCE, include/cuzk/r1cs.h) on a
                                      thread of their own and kept in memory (charged to the
                                      budget); later partitions are a witness-only synthesis plus
                                      sparse products, with the same a/b/c. Default false */
    const char *pce_cache_tag;     /* with pce: each PCE extracted is also written to
                                      <cache_dir>/pce/<spec>.<tag>.pce and read back from there
                                      by a later engine with the same tag instead of extracted
                                      again ([A-Za-z0-9._-], at most 63 bytes; the daemon uses its
                                      build's commit, none for a modified tree). NULL = no files */
} cuzk_engine_config;

/* Fills |c| with the defaults above. */
void cuzk_engine_config_default(cuzk_engine_config *c);

/* Creates the engine and starts its workers. Returns CUZK_OK; CUZK_ERR_INVALID_ARG; NOMEM;
 * NO_DEVICE when CUDA was demanded and is unusable. */
cuzk_status cuzk_engine_create(cuzk_engine **out,
                               const cuzk_engine_config *cfg) CUZK_WARN_UNUSED_RESULT;

/* Stops accepting work (submit then returns CUZK_ERR_UNAVAILABLE), lets accepted jobs (pending and
 * running) finish for up to |grace_ms|, then cancels what is left; waiting cuzk_engine_await
 * calls return with the final outcomes. Idempotent. */
void cuzk_engine_shutdown(cuzk_engine *e, uint64_t grace_ms);
/* cuzk_engine_shutdown(e, 0) if not done, joins the workers and frees everything. NULL: no-op. */
void cuzk_engine_destroy(cuzk_engine *e);

/* ---- circuits and parameter sets ----------------------------------------------------------- */

typedef enum {
    CUZK_CIRCUIT_BUILTIN = 0, /* a built-in circuit (cuzk_circuit_find spec) + bellperson .params */
    CUZK_CIRCUIT_ZKEY = 1,    /* a snarkjs .zkey; witnesses arrive as .wtns files */
} cuzk_circuit_source;

typedef struct {
    const char *id;              /* unique, e.g. "demo", "sha256-chain-64"; [A-Za-z0-9._:-]+ */
    cuzk_circuit_source source;
    const char *spec;            /* BUILTIN: "sha256-chain:4" */
    const char *params_path;     /* BUILTIN: .params file; NULL = <cache_dir>/<id>.params, made
                                    by a test setup on first use (with <id>.vk beside it) */
    const char *zkey_path;       /* ZKEY */
} cuzk_engine_circuit;

/* Registers a circuit (COLD tier). Files are only opened at preload or first use, where a
 * missing or corrupt file gives a clear error. Returns CUZK_OK; INVALID_ARG (bad id, duplicate,
 * unknown built-in spec). */
cuzk_status cuzk_engine_add_circuit(cuzk_engine *e,
                                    const cuzk_engine_circuit *c) CUZK_WARN_UNUSED_RESULT;

/* Loads |circuit_id| into the HOT tier (generating test parameters first when configured so).
 * *already = it was HOT before; *load_ms = time spent. Returns CUZK_OK; NOT_FOUND; IO / FORMAT /
 * NOT_ON_CURVE ... for bad files (the entry stays COLD); NOMEM when the pinned budget cannot be
 * met even after evicting idle entries. */
cuzk_status cuzk_engine_preload(cuzk_engine *e, const char *circuit_id, bool *already,
                                uint64_t *load_ms) CUZK_WARN_UNUSED_RESULT;

/* Drops |circuit_id| from the HOT tier (to COLD). An entry in use by running jobs is dropped when
 * its last user finishes (*was_loaded = true, *freed = 0 then). Returns CUZK_OK; NOT_FOUND. */
cuzk_status cuzk_engine_evict(cuzk_engine *e, const char *circuit_id, bool *was_loaded,
                              uint64_t *freed) CUZK_WARN_UNUSED_RESULT;

typedef struct {
    char id[CUZK_ENGINE_ID_MAX];
    char source[CUZK_ENGINE_ID_MAX]; /* "builtin:<spec>" or "zkey" */
    uint8_t *vk;                     /* bellperson .vk image, cuzk_alloc'd; free with _info_clear */
    size_t vk_len;
    uint32_t n_public_inputs;        /* without the constant one */
    uint64_t n_constraints;
    /* the bulk points' subgroups at the key's last load: "checked", "checked-before" (found in
     * the check cache) or "not-checked" (builtin .params, trusted as rust-fil-proofs trusts
     * them, or engine zkey_unchecked) */
    char subgroups[16];
} cuzk_engine_circuit_info;

/* Describes a registered circuit; loads its key (and makes test parameters) if needed.
 * Returns CUZK_OK; NOT_FOUND; file errors as cuzk_engine_preload. */
cuzk_status cuzk_engine_circuit_info_get(cuzk_engine *e, const char *circuit_id,
                                         cuzk_engine_circuit_info *out) CUZK_WARN_UNUSED_RESULT;
void cuzk_engine_circuit_info_clear(cuzk_engine_circuit_info *info);

/* ---- jobs ---------------------------------------------------------------------------------- */

typedef struct {
    const char *request_id;   /* idempotency key; NULL or "" = a fresh UUIDv4 */
    cuzk_proof_kind kind;
    const char *circuit_id; /* GENERIC: a registered circuit; PoSt / SnapDeals / PoRep: NULL =
                               the circuit registered as builtin "fil-post:<registered_proof>" /
                               "fil-snap:<registered_proof>" / "fil-porep:<id>" */
    cuzk_priority priority;
    const uint8_t *witness;   /* ZKEY: .wtns bytes (copied); BUILTIN: NULL or 8-byte LE seed */
    size_t witness_len;
    uint32_t partitions;      /* 0 = 1; each partition is one proof, returned concatenated */
    /* WINNING_POST / WINDOW_POST (one partition): the RegisteredPoStProof, the 32-byte
     * randomness, the WindowPoSt partition index and the bincode FallbackPoStSectorProofs (one
     * per sector; parsed and checked at submit, not kept). */
    uint64_t registered_proof;
    const uint8_t *randomness;
    size_t randomness_len;
    uint32_t partition_index;
    const uint8_t *const *vanilla_proofs;
    const size_t *vanilla_lens;
    size_t n_vanilla;
    /* SNAP: registered_proof is the RegisteredUpdateProof (0 .. 4), vanilla_proofs the bincode
     * PartitionProofs (one per partition, in order; parsed and checked at submit, not kept),
     * and the public comms (32-byte LE reprs); partitions 0 = the shape's. */
    const uint8_t *comm_r_old, *comm_d_new, *comm_r_new;
    size_t comm_r_old_len, comm_d_new_len, comm_r_new_len;
    /* POREP: vanilla_proofs[0] (n_vanilla 1) is the C1 output: Curio's wrapper JSON, serde JSON
     * (both name their RegisteredSealProof; registered_proof is then ignored, as Curio's daemon
     * ignores it), or bincode raw C1 of RegisteredSealProof registered_proof. Parsed and checked
     * at submit (graph, challenges, every opening; not kept); partitions 0 = the C1's. With
     * miner_id non-zero, replica_id must be the one of (miner_id, sector_number). Proved on the
     * circuit registered as builtin "fil-porep:<id>" of the C1's sector size. */
    uint64_t miner_id, sector_number;
} cuzk_job_request;

typedef struct {
    char job_id[CUZK_ENGINE_ID_MAX];
    uint32_t queue_position;  /* partitions queued ahead of this job's first one */
    char assigned_gpu[32];    /* "" until a prover worker takes it */
    bool existing;            /* request_id named a job already known (not re-run) */
} cuzk_submit_info;

/*
 * Accepts a job. The same request_id again returns the same job while it is pending, running or
 * kept as a finished COMPLETED result (never a second proof); an id whose job FAILED or was
 * CANCELLED starts a new job. Returns CUZK_OK; INVALID_ARG (unknown circuit, malformed witness,
 * id too long, partitions > 1024, PoRep C1 output, PoSt or SnapDeals vanilla proofs that fail
 * their checks); UNSUPPORTED (a PoRep, PoSt or SnapDeals proof type no circuit is registered
 * for); UNAVAILABLE (shutting down). Nothing is queued on error.
 */
cuzk_status cuzk_engine_submit(cuzk_engine *e, const cuzk_job_request *req,
                               cuzk_submit_info *out) CUZK_WARN_UNUSED_RESULT;

typedef struct {
    char job_id[CUZK_ENGINE_ID_MAX];
    char circuit_id[CUZK_ENGINE_ID_MAX];
    cuzk_job_outcome status;
    char error[512];          /* FAILED / CANCELLED: why */
    uint8_t *proof;           /* COMPLETED: partitions x 192 bytes (cuzk_alloc'd) */
    size_t proof_len;
    uint8_t *public_inputs;   /* COMPLETED: partitions x n_public x 32 bytes, canonical LE */
    size_t public_inputs_len;
    uint32_t n_public;        /* per partition, without the constant one */
    uint32_t partitions;
    char backend[16];         /* "cpu" or "cuda:N" (the last partition's) */
    bool verified;            /* every partition passed the self-check */
    /* Milliseconds; phase sums over partitions. queue_wait = submit -> first partition started,
     * plus the time every synthesised partition waited for a prover. */
    double phase_ms[CUZK_PHASE_COUNT];
    uint64_t queue_wait_ms, srs_load_ms, synthesis_ms, gpu_compute_ms, total_ms;
} cuzk_job_result;

/*
 * Waits for |job_id| to finish, at most |timeout_ms| (0 = forever). Returns CUZK_OK with
 * out->status COMPLETED / FAILED / CANCELLED, or TIMEOUT when the time ran out (the job goes on);
 * CUZK_ERR_NOT_FOUND for an unknown (or expired) job. |out| must be released with
 * cuzk_job_result_clear.
 */
cuzk_status cuzk_engine_await(cuzk_engine *e, const char *job_id, uint64_t timeout_ms,
                              cuzk_job_result *out) CUZK_WARN_UNUSED_RESULT;
void cuzk_job_result_clear(cuzk_job_result *r);

/* Cancels |job_id|: a pending job is removed at once, a running one stops at its next partition
 * boundary; awaiting callers get CANCELLED. *was_running = a partition was being worked on;
 * *cancelled = false when the job had already finished. Returns CUZK_OK; NOT_FOUND. */
cuzk_status cuzk_engine_cancel(cuzk_engine *e, const char *job_id, bool *was_running,
                               bool *cancelled) CUZK_WARN_UNUSED_RESULT;

/* ---- observability ------------------------------------------------------------------------- */

typedef struct {
    uint32_t ordinal;
    char name[96];
    uint64_t vram_total, vram_free;
    /* Parameter arrays resident on the device for this process's workers (one per shared copy)
     * and their bytes, precomputed rows included; h_rows: the most precomputed rows a copy
     * holds (gpus.h_precompute_rows as built: fewer when the rest did not fit; 0: none). */
    uint32_t resident_copies, h_rows;
    uint64_t resident_bytes;
    char current_job[CUZK_ENGINE_ID_MAX];
    char current_kind[32];
} cuzk_engine_gpu_status;

typedef struct {
    char circuit_id[CUZK_ENGINE_ID_MAX];
    cuzk_srs_tier tier;
    uint64_t size_bytes;      /* bytes the tier holds (HOT: decoded points; WARM: file size) */
    uint32_t ref_count;       /* partitions in flight using it */
    uint64_t partition_bytes; /* host memory one partition in flight is charged (0 until the
                                 file has been read) */
    uint64_t scratch_bytes;   /* prover scratch one worker holds after proving it (0 until the
                                 file has been read; 0 for snarkjs keys) */
    char subgroups[16];       /* as cuzk_engine_circuit_info's; "" until first loaded */
    /* PCE of a builtin circuit (engine pce on): "" (none yet), "building", "ready" or
     * "failed" (pce_error says why); its bytes while ready, the extraction's time, and the
     * partitions synthesised through it */
    char pce[12];
    char pce_error[256];
    uint64_t pce_bytes, pce_partitions;
    double pce_extract_ms; /* extraction, or reading the file */
    bool pce_from_file;    /* read from the PCE cache (pce_cache_tag), not extracted */
} cuzk_engine_srs_status;

typedef struct {
    char kind[CUZK_ENGINE_ID_MAX]; /* "porep-c2", ... or "circuit:<id>" for generic circuits */
    uint32_t pending, in_progress; /* jobs */
} cuzk_engine_queue_status;

/* One prover worker (CUDA: engine.prover_workers per device; CPU: one). */
typedef struct {
    uint32_t worker_id;
    int32_t device;                       /* GPU ordinal; -1: the CPU */
    char current_job[CUZK_ENGINE_ID_MAX]; /* "" when idle */
    char current_kind[32];
    uint32_t current_partition;
    double busy_secs;       /* since it took the current partition */
    uint64_t scratch_bytes; /* its backend's scratch (L/A/B split): reserved while idle for
                               the HOT sets, or grown by its last proof */
} cuzk_engine_worker_status;

/* Where a partition of a job is (Curio's pipeline states, plus CANCELLED). */
typedef enum {
    CUZK_PART_PENDING = 0,  /* not taken by a synthesis worker yet */
    CUZK_PART_SYNTHESIZING, /* parameter set, memory budget, synthesis */
    CUZK_PART_SYNTH_DONE,   /* queued for a prover */
    CUZK_PART_PROVING,      /* on a prover worker ("gpu" in Curio's status, CPU too here) */
    CUZK_PART_DONE,
    CUZK_PART_FAILED,
    CUZK_PART_CANCELLED
} cuzk_partition_state;

const char *cuzk_partition_state_name(cuzk_partition_state s);
/* A pipeline's outcome as the status reports it: running (UNKNOWN), completed, failed,
 * cancelled. */
const char *cuzk_pipeline_outcome_name(cuzk_job_outcome o);

typedef struct {
    cuzk_partition_state state;
    double synth_ms, prove_ms; /* 0 until known */
} cuzk_engine_partition_status;

/* A job of more than one partition that is running or finished less than
 * CUZK_ENGINE_PIPELINE_KEEP_S ago (Curio lists partitioned jobs only, for 30 s after the end). */
#define CUZK_ENGINE_PIPELINE_KEEP_S 30
typedef struct {
    char job_id[CUZK_ENGINE_ID_MAX];
    char kind[CUZK_ENGINE_ID_MAX];
    cuzk_job_outcome outcome; /* UNKNOWN while running */
    double started_secs_ago;
    uint32_t total_partitions, partitions_done;
    cuzk_engine_partition_status *partitions; /* total_partitions entries */
} cuzk_engine_pipeline_status;

typedef struct {
    cuzk_engine_gpu_status *gpus;
    size_t n_gpus;
    cuzk_engine_srs_status *srs; /* every registered circuit, whatever its tier */
    size_t n_srs;
    cuzk_engine_queue_status *queues;
    size_t n_queues;
    uint64_t completed, failed, cancelled;
    uint64_t uptime_s;
    uint64_t pinned_bytes, pinned_limit;
    /* memory.total_budget is one budget for HOT parameter sets, partitions in flight, the
     * prover workers' scratch and the PCEs: memory_in_use = pinned_bytes + memory_in_flight +
     * memory_scratch + memory_pce is what is charged to it now. memory_scratch is charged when a
     * HOT set first needs more (every worker may hold the per-slot maximum of the sets made HOT;
     * the workers' own scratch_bytes are what they hold) and is never released. */
    uint64_t memory_in_use, memory_in_flight, memory_scratch, memory_budget;
    uint64_t memory_pce; /* the ready PCEs (also in memory_in_use, not in memory_in_flight) */
    cuzk_engine_worker_status *workers;
    size_t n_workers;
    cuzk_engine_pipeline_status *pipelines;
    size_t n_pipelines;
} cuzk_engine_status;

cuzk_status cuzk_engine_status_get(cuzk_engine *e,
                                   cuzk_engine_status *out) CUZK_WARN_UNUSED_RESULT;
void cuzk_engine_status_clear(cuzk_engine_status *s);

/* Prometheus text exposition (counters, gauges, per-phase histograms); *out is cuzk_alloc'd. */
cuzk_status cuzk_engine_metrics(cuzk_engine *e, char **out) CUZK_WARN_UNUSED_RESULT;

/* Names the registered circuits (cuzk_alloc'd array of cuzk_alloc'd strings, freed by the
 * caller with cuzk_free on each and on the array). */
cuzk_status cuzk_engine_circuits(cuzk_engine *e, char ***ids, size_t *n) CUZK_WARN_UNUSED_RESULT;

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk-bench porep-shape (cmd_porep_shape.c): the pieces shared by its four files —
 * porep_shape_gen.c (synthetic parameters and witness of the PoRep shape),
 * porep_shape_workers.c (concurrent prover workers) and porep_shape_resident.c (the
 * SRS-resident CUDA partition). */
#ifndef CUZK_BENCH_POREP_SHAPE_H
#define CUZK_BENCH_POREP_SHAPE_H

#include "cuzk/groth16.h"
#include "cuzk/r1cs.h"
#include "cuzk/threadpool.h"
#include "gpu/gpu_msm.h"

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#define PS_CHUNK ((size_t)1 << 16) /* elements per generation task (a multiple of 64) */
#define PS_POOL1_LOG 20
#define PS_POOL2_LOG 16

typedef struct {
    unsigned log_domain, inputs, threads, repeat;
    unsigned workers; /* prove mode: concurrent prover threads, a backend each (1: none) */
    bool continuous;  /* workers prove --repeat partitions each, back to back (no rounds) */
    bool prefetch;    /* --continuous: the next partition's a, b go up under the H MSM */
    size_t rows, aux;
    double a_density, b_density, binary_frac;
    int log_scale; /* scale = 2^log_scale, log_scale <= 0 */
    const char *backend, *mode;
    bool keep_resident; /* prove mode: parameter set kept on the device (backend residency) */
    unsigned h_rows;    /* with keep_resident: precomputed rows of the H query (0: none) */
    bool no_abc_pool;   /* a/b/c in fresh memory per proof instead of the engine's pool */
    bool pinned_params; /* queries in pinned host memory (cuzk_gpu_host_alloc) */
    bool compare, json;
    uint64_t seed;
} ps_args;

static inline double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ---- synthetic inputs (porep_shape_gen.c) ---------------------------------------------------- */

/* a, b, c in |va|'s memory (NULL: cuzk_alloc) with room for |cap| >= rows entries. */
cuzk_status ps_witness_make(cuzk_prover_data *pd, const ps_args *a, size_t rows, size_t aux,
                            size_t cap, const cuzk_vec_alloc *va, cuzk_pool *tp);
cuzk_status ps_params_make(cuzk_groth16_params *p, const ps_args *a, size_t domain,
                           const cuzk_prover_data *pd, cuzk_pool *tp);
/* |pinned|: the queries came from cuzk_gpu_host_alloc (ps_args.pinned_params). */
void ps_params_free(cuzk_groth16_params *p, bool pinned);
/* The fixed r, s of --compare runs (derived from the seed). */
void ps_fixed_rs(const ps_args *a, cuzk_fr_t *r, cuzk_fr_t *s);
bool ps_proof_eq(const cuzk_groth16_proof *x, const cuzk_groth16_proof *y);

/* One prove's phase line (or JSON object), as cmd_porep_shape.c prints it. */
void ps_print_prove(const ps_args *a, const char *backend, unsigned rep,
                    const cuzk_prove_timings *t, unsigned log_n);

/* ---- concurrent prover workers (porep_shape_workers.c) -------------------------------------- */

/* a->workers threads prove a->repeat rounds, one partition each per round (a->continuous:
 * a->repeat partitions each, back to back); |be0| is worker 0's backend and |pd0| its witness
 * (remade after each round). */
cuzk_status ps_workers_run(const ps_args *a, struct cuzk_backend *be0,
                           const cuzk_groth16_params *p, cuzk_prover_data *pd0, size_t rows,
                           size_t aux, size_t domain, unsigned log_n, const cuzk_vec_alloc *va,
                           const cuzk_prove_opts *opts, cuzk_groth16_proof *ref, bool *have_ref,
                           bool *mismatch);

/* ---- the resident partition (porep_shape_resident.c) ---------------------------------------- */

enum { PH_H, PH_MSM_H, PH_L, PH_A, PH_B1, PH_B2, PH_COUNT };

typedef struct {
    double upload_ms;         /* bases upload, once */
    double gpu_ms[PH_COUNT];  /* CUDA-event totals of the phase's device calls */
    double kern_ms[PH_COUNT]; /* kernels only */
    double wall_ms[PH_COUNT]; /* host wall time of the phase, host preparation included */
    double batch_ms, tail_ms; /* G1 L/A/B device time split (events) */
    double prep_ms;           /* host: 0/1 split and density gathers */
    double gpu_total, wall_total;
} res_times;

typedef struct {
    cuzk_gpu_bases *h, *l, *a, *b1, *b2;
} res_bases;

void ps_res_bases_free(res_bases *b);
cuzk_status ps_res_bases_upload(res_bases *rb, int dev, const cuzk_groth16_params *p);
cuzk_status ps_resident_prove(cuzk_groth16_proof *out, const cuzk_groth16_params *p,
                              const res_bases *rb, cuzk_prover_data *pd, size_t domain, int dev,
                              const ps_args *args, cuzk_pool *tp, res_times *t);
void ps_print_resident(const ps_args *a, unsigned rep, const res_times *t, unsigned log_n);

#endif

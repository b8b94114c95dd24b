/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GROTH16_H
#define CUZK_GROTH16_H

/* Groth16 over BLS12-381 in bellperson's formats (facts/formats.md section 3). */

#include "cuzk/check_cache.h"
#include "cuzk/curve.h"
#include "cuzk/r1cs.h"
#include "cuzk/threadpool.h"

#define CUZK_GROTH16_PROOF_BYTES 192

/* A verifying key, parsed and prepared (e(alpha, beta) and the negated G2 points are
 * precomputed at load so that each verification costs three Miller loops). */
typedef struct {
    cuzk_g1_affine_t alpha_g1, beta_g1, delta_g1;
    cuzk_g2_affine_t beta_g2, gamma_g2, delta_g2;
    size_t ic_len; /* number of public inputs + 1 */
    cuzk_g1_affine_t *ic;
    /* prepared */
    cuzk_fp12_t alpha_beta; /* e(alpha_g1, beta_g2) */
    cuzk_g2_affine_t neg_gamma_g2, neg_delta_g2;
} cuzk_groth16_vk;

typedef struct {
    cuzk_g1_affine_t a;
    cuzk_g2_affine_t b;
    cuzk_g1_affine_t c;
} cuzk_groth16_proof;

/*
 * Parses a bellperson .vk image of |len| bytes (868 + 96 * ic_len; uncompressed points, all
 * checked for curve and subgroup membership; alpha, beta, gamma, delta must not be the identity).
 * On success *|out| is a new key the caller frees with cuzk_groth16_vk_free; on failure *|out| is
 * NULL and cuzk_last_error() says what and where.
 */
cuzk_status cuzk_groth16_vk_parse(cuzk_groth16_vk **out, const uint8_t *buf,
                                  size_t len) CUZK_WARN_UNUSED_RESULT;
/* Reads and parses the .vk file at |path|. */
cuzk_status cuzk_groth16_vk_load(cuzk_groth16_vk **out, const char *path) CUZK_WARN_UNUSED_RESULT;
void cuzk_groth16_vk_free(cuzk_groth16_vk *vk);

/* One 192-byte proof: A (G1 compressed) || B (G2 compressed) || C (G1 compressed). Points are
 * fully checked; the identity is rejected like bellperson does. */
cuzk_status cuzk_groth16_proof_parse(cuzk_groth16_proof *out,
                                     const uint8_t in[CUZK_GROTH16_PROOF_BYTES])
    CUZK_WARN_UNUSED_RESULT;
void cuzk_groth16_proof_serialize(uint8_t out[CUZK_GROTH16_PROOF_BYTES],
                                  const cuzk_groth16_proof *p);
/* |len| must be a non-zero multiple of 192; proofs are written to out[0 .. len/192 - 1]
 * (|max| entries available). */
cuzk_status cuzk_groth16_proofs_parse(cuzk_groth16_proof *out, size_t max, size_t *count,
                                      const uint8_t *buf, size_t len) CUZK_WARN_UNUSED_RESULT;

/*
 * Verifies |proof| for public inputs |inputs| (|n_inputs| = vk->ic_len - 1, ONE excluded):
 * e(A, B) = e(alpha, beta) * e(IC_0 + sum x_i IC_{i+1}, gamma) * e(C, delta).
 * Returns CUZK_OK when valid, CUZK_ERR_VERIFY_FAILED when not, CUZK_ERR_INVALID_ARG on a wrong
 * input count.
 */
cuzk_status cuzk_groth16_verify(const cuzk_groth16_vk *vk, const cuzk_groth16_proof *proof,
                                const cuzk_fr_t *inputs, size_t n_inputs) CUZK_WARN_UNUSED_RESULT;

/*
 * Verifies |n_proofs| proofs at once by a random linear combination (n + 3 Miller loops, one
 * final exponentiation). inputs[i * n_inputs + j] is input j of proof i. The 128-bit random
 * weights come from the operating system. CUZK_OK only if every proof is valid (except with
 * probability about 2^-128); CUZK_ERR_VERIFY_FAILED otherwise.
 */
cuzk_status cuzk_groth16_verify_batch(const cuzk_groth16_vk *vk, const cuzk_groth16_proof *proofs,
                                      size_t n_proofs, const cuzk_fr_t *inputs,
                                      size_t n_inputs) CUZK_WARN_UNUSED_RESULT;


/* ---- bellperson parameters (.params) ------------------------------------------------------ */

/*
 * A full bellperson parameter set: the verifying key followed by the proving queries
 * (formats.md section 3.1). A/B queries hold only the variables whose polynomial is non-zero
 * (density order: inputs, then aux), which the prover walks with its density bitmaps.
 */
typedef struct {
    cuzk_groth16_vk *vk;
    size_t n_h, n_l, n_a, n_b_g1, n_b_g2;
    cuzk_g1_affine_t *h;    /* n_h = domain size - 1: tau^i Z(tau) / delta */
    cuzk_g1_affine_t *l;    /* one per aux variable */
    cuzk_g1_affine_t *a;    /* inputs (all) then A-dense aux */
    cuzk_g1_affine_t *b_g1; /* B-dense inputs then B-dense aux */
    cuzk_g2_affine_t *b_g2;
    /* How the five point arrays are freed: NULL = cuzk_free; otherwise the |free_points| given
     * to cuzk_groth16_params_parse_ex (e.g. pinned host memory for a GPU backend). */
    void (*free_points)(void *p);
    /* How the queries' subgroups were established at load; with a check cache, the digest of
     * the queries' bytes, whether this load added it, and if it could not, why. */
    cuzk_subgroups subgroups;
    uint8_t points_digest[CUZK_CHECK_CACHE_DIGEST_BYTES];
    bool subgroups_recorded;
    char cache_error[256];
} cuzk_groth16_params;

typedef enum {
    CUZK_PARAMS_CHECKED = 0,   /* every point on the curve and in the subgroup */
    CUZK_PARAMS_UNCHECKED = 1, /* bulk queries checked on the curve only (trusted files) */
} cuzk_params_check;

/* Parses a .params image (the vk part is always fully checked; points at infinity are refused
 * in every query, like bellperson). |pool| spreads point decoding over threads (may be NULL).
 * *|out| is NULL on failure. */
cuzk_status cuzk_groth16_params_parse(cuzk_groth16_params **out, const uint8_t *buf, size_t len,
                                      cuzk_params_check check,
                                      cuzk_pool *pool) CUZK_WARN_UNUSED_RESULT;
/* The same, with the point arrays (the bulk of a parameter set) taken from |alloc_points| and
 * released by cuzk_groth16_params_free through |free_points| (both NULL: cuzk_alloc/cuzk_free).
 * The engine uses it to put HOT parameter sets in pinned host memory when a CUDA backend runs. */
cuzk_status cuzk_groth16_params_parse_ex(cuzk_groth16_params **out, const uint8_t *buf, size_t len,
                                         cuzk_params_check check, cuzk_pool *pool,
                                         void *(*alloc_points)(size_t bytes),
                                         void (*free_points)(void *p)) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_groth16_params_load(cuzk_groth16_params **out, const char *path,
                                     cuzk_params_check check,
                                     cuzk_pool *pool) CUZK_WARN_UNUSED_RESULT;
/* cuzk_groth16_params_load with a check cache (include/cuzk/check_cache.h; NULL: none): in
 * CUZK_PARAMS_CHECKED mode the queries are hashed as they are decoded, their subgroup tests
 * skipped if the digest is recorded (|subgroups| = CUZK_SUBGROUPS_CHECKED_BEFORE), else run and
 * the digest recorded once every check has passed. */
cuzk_status cuzk_groth16_params_load_cached(cuzk_groth16_params **out, const char *path,
                                            cuzk_params_check check, cuzk_pool *pool,
                                            cuzk_check_cache *cache) CUZK_WARN_UNUSED_RESULT;
void cuzk_groth16_params_free(cuzk_groth16_params *p);
/* Writes the bellperson image (.params) or only its vk part (.vk) to |path| atomically
 * (temporary file, fsync, rename): on failure no file is left behind. */
cuzk_status cuzk_groth16_params_write(const cuzk_groth16_params *p,
                                      const char *path) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_groth16_vk_write(const cuzk_groth16_vk *vk, const char *path) CUZK_WARN_UNUSED_RESULT;

/*
 * Test setup from random toxic waste (tau, alpha, beta, gamma, delta from the OS), like
 * bellperson's generate_random_parameters, for the finalised matrices |m| (KEYGEN synthesis).
 * The toxic waste is wiped before return. The domain is the smallest power of two >= m->n_rows.
 */
cuzk_status cuzk_groth16_setup(cuzk_groth16_params **out, const cuzk_r1cs_matrices *m,
                               cuzk_pool *pool) CUZK_WARN_UNUSED_RESULT;

/* ---- proving (bellperson-compatible) ------------------------------------------------------ */

/* Per-phase wall times in milliseconds (DESIGN.md section 5 names). */
typedef struct {
    double synthesis; /* filled by the caller that synthesised */
    double ntt_h, msm_h, batch_add, tail_msm, msm_b_g2, assemble, verify, total;
    /* The host's split of the L, A and B scalars into 0/1 bitmaps and tails: part of total; on
     * a device backend it runs while the device does the H step, so it is not one of the phases
     * above (not in DESIGN.md section 5's list). 0 where there is no split (snarkjs keys). */
    double split;
    /* The L/A/B sums ran beside the H step and H MSM (a device backend with a side lane:
     * cuzk_backend_side_lane_on): batch_add, tail_msm and msm_b_g2 then overlap ntt_h and
     * msm_h, and the phases add up to more than total. */
    bool overlapped;
} cuzk_prove_timings;

typedef struct {
    /* Verify the proof before returning it (CUZK_ERR_VERIFY_FAILED if it does not verify, e.g.
     * for an unsatisfied witness). Off only for benchmarks. */
    bool verify;
    /* Fixed prover randomness for tests; NULL: fresh random r, s from the OS for each proof. */
    const cuzk_fr_t *r, *s;
    /* Called once, on the calling thread, while the device still runs this proof's fused H call
     * (after the L/A/B split, and the sums where they run beside it): when its a and b are on
     * the device and the rest of its H step and H MSM take hundreds of ms at a PoRep partition,
     * the time to start the next partition's upload (cuzk_backend_h_prefetch). NULL: none. */
    void (*h_running)(void *ctx);
    void *h_running_ctx;
} cuzk_prove_opts;

struct cuzk_backend;

/*
 * Proves with |params| for the synthesised |pd| (cuzk_cs_take_prover_data or cuzk_pce_eval),
 * on |be| (formats.md 3.4: H from a, b, c; MSMs for H, L, A, B in G1 and G2, the 0/1 scalars of
 * L/A/B as bitmap batch additions and the rest as tail MSMs; then A, B, C with random r, s).
 * pd->a, b, c are consumed (freed and set to NULL) as soon as H is computed. |t| may be NULL.
 * Returns CUZK_OK; CUZK_ERR_INVALID_ARG when sizes of |pd| and |params| disagree;
 * CUZK_ERR_VERIFY_FAILED (self-check); CUZK_ERR_NOMEM; backend errors. |out| is written only on
 * success.
 */
cuzk_status cuzk_groth16_prove(cuzk_groth16_proof *out, const cuzk_groth16_params *params,
                               cuzk_prover_data *pd, struct cuzk_backend *be,
                               const cuzk_prove_opts *opts,
                               cuzk_prove_timings *t) CUZK_WARN_UNUSED_RESULT;

/* Keeps the five point arrays of |p| resident on the device of |be| (all or none), so proofs on
 * |be| move only scalars and bitmaps (cuzk_backend_keep_resident: a no-op on the CPU backend;
 * CUZK_ERR_NOMEM when the device cannot hold them). On a GPU backend it also allocates the
 * prover's pinned host scratch for |p|'s sizes, which the first proof would otherwise pay for.
 * Drop before freeing |p|, and never while a proof on |be| uses it. */
cuzk_status cuzk_groth16_params_keep_resident(struct cuzk_backend *be,
                                              const cuzk_groth16_params *p) CUZK_WARN_UNUSED_RESULT;
void cuzk_groth16_params_drop_resident(struct cuzk_backend *be, const cuzk_groth16_params *p);

/*
 * Test and benchmark aid: builds a random verifying key with |n_inputs| public inputs, random
 * inputs and a valid proof for them, directly from trapdoors chosen from |seed| (no circuit).
 * The caller frees *|vk|. Never use such a key for anything but testing the verifier.
 */
cuzk_status cuzk_groth16_simulate(cuzk_groth16_vk **vk, cuzk_groth16_proof *proof,
                                  cuzk_fr_t *inputs, size_t n_inputs,
                                  uint64_t seed) CUZK_WARN_UNUSED_RESULT;

#endif

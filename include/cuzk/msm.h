/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_MSM_H
#define CUZK_MSM_H

/*
 * Multi-scalar multiplication on the CPU (Pippenger with signed digits, threads from a pool).
 * Bases are affine (infinity allowed), scalars cuzk_fr_t in Montgomery form unless a function
 * says "raw" (canonical little-endian limbs, e.g. snarkjs's standard-form witness).
 * Public data: variable time.
 *
 * The bases must lie in the prime-order subgroup (as parameter-file points do): a scalar k
 * above (r-1)/2 is applied as r - k to the negated base. Raw scalars may be any 256-bit value;
 * those >= r are applied as the integers they are (no reduction mod r). Every function
 * allocates its working memory once per call through cuzk_alloc (or takes it from the caller,
 * see cuzk_msm_opts) and returns CUZK_ERR_NOMEM, with |out| untouched, when that fails.
 * The algorithm and its measured choices are described in src/msm/pippenger_impl.h and
 * docs/PERFORMANCE.md ("CPU MSM (issue 3)").
 */

#include "cuzk/curve.h"
#include "cuzk/threadpool.h"

/* out = sum_{i<n} scalars[i] * bases[i]. |pool| may be NULL (one thread). */
cuzk_status cuzk_g1_msm(cuzk_g1_jac_t *out, const cuzk_g1_affine_t *bases, const cuzk_fr_t *scalars,
                        size_t n, cuzk_pool *pool) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_g2_msm(cuzk_g2_jac_t *out, const cuzk_g2_affine_t *bases, const cuzk_fr_t *scalars,
                        size_t n, cuzk_pool *pool) CUZK_WARN_UNUSED_RESULT;
/* Same with canonical scalars: scalars[4*i .. 4*i+3] little-endian 64-bit limbs. */
cuzk_status cuzk_g1_msm_raw(cuzk_g1_jac_t *out, const cuzk_g1_affine_t *bases,
                            const uint64_t *scalars, size_t n,
                            cuzk_pool *pool) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_g2_msm_raw(cuzk_g2_jac_t *out, const cuzk_g2_affine_t *bases,
                            const uint64_t *scalars, size_t n,
                            cuzk_pool *pool) CUZK_WARN_UNUSED_RESULT;

/* out = sum of bases[i] over the i < n whose bit is set in |bitmap| (bit i = word i/64, bit i%64):
 * the 0/1-scalar part of a Filecoin witness. Bits at positions >= n are ignored. */
cuzk_status cuzk_g1_batch_add(cuzk_g1_jac_t *out, const cuzk_g1_affine_t *bases,
                              const uint64_t *bitmap, size_t n,
                              cuzk_pool *pool) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_g2_batch_add(cuzk_g2_jac_t *out, const cuzk_g2_affine_t *bases,
                              const uint64_t *bitmap, size_t n,
                              cuzk_pool *pool) CUZK_WARN_UNUSED_RESULT;

/* ---- tuning, benchmarking and caller-provided memory ------------------------------------- */

/* How bucket additions are done. */
typedef enum {
    /* The measured default: AFFINE where it has enough buckets to batch, XYZZ otherwise. */
    CUZK_MSM_ACCUM_AUTO = 0,
    /* XYZZ buckets, one mixed addition per point (madd-2008-s, 8M + 2S). */
    CUZK_MSM_ACCUM_XYZZ = 1,
    /* Affine buckets; independent additions are batched so that they share one field
     * inversion (Montgomery's trick), about 5M + 1S per point. */
    CUZK_MSM_ACCUM_AFFINE = 2,
} cuzk_msm_accum;

/* Whether scalars are split by the curve endomorphism (G1: GLV with phi = [-x^2], two 128-bit
 * halves; G2: GLS with psi = [x], four 64-bit digits): the MSM then runs over 2n (4n) points
 * with scalars a half (a quarter) as long, so the running sums of half (a quarter) as many
 * windows. Needs bases in the prime-order subgroup, as every MSM here does. */
typedef enum {
    /* The measured default: split up to 2^22 points in G1, 2^17 in G2, when some scalar is
     * wider than a piece (128 bits in G1, 64 in G2). */
    CUZK_MSM_ENDO_AUTO = 0,
    CUZK_MSM_ENDO_OFF = 1,
    CUZK_MSM_ENDO_ON = 2,
} cuzk_msm_endo;

/* Largest window the MSM accepts (2^(c-1) buckets per worker). */
#define CUZK_MSM_MAX_WINDOW 24

typedef struct {
    /* Window width c in bits, 1..CUZK_MSM_MAX_WINDOW; 0 lets the cost model choose. */
    unsigned window;
    /* Point chunks per window (the tasks are window x chunk); 0 lets the cost model choose. */
    unsigned chunks;
    cuzk_msm_accum accum;
    /* Optional working memory owned by the caller (any alignment): when |scratch| is not NULL
     * it must hold at least cuzk_gX_msm_scratch_size() (or cuzk_gX_batch_add_scratch_size())
     * bytes for the same n, pool and options, and nothing is allocated. */
    void *scratch;
    size_t scratch_bytes;
    /* MSMs only (not batch additions). */
    cuzk_msm_endo endo;
} cuzk_msm_opts;

/* The same operations with explicit options; |opts| NULL means all defaults.
 * Returns: CUZK_ERR_INVALID_ARG for a NULL |out|, a NULL array with n > 0, a window above
 * CUZK_MSM_MAX_WINDOW, an unknown accumulation or a scratch buffer that is too small;
 * CUZK_ERR_NOMEM when the working memory cannot be allocated. |out| is written only on
 * success. */
cuzk_status cuzk_g1_msm_ex(cuzk_g1_jac_t *out, const cuzk_g1_affine_t *bases,
                           const cuzk_fr_t *scalars, size_t n, cuzk_pool *pool,
                           const cuzk_msm_opts *opts) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_g1_msm_raw_ex(cuzk_g1_jac_t *out, const cuzk_g1_affine_t *bases,
                               const uint64_t *scalars, size_t n, cuzk_pool *pool,
                               const cuzk_msm_opts *opts) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_g2_msm_ex(cuzk_g2_jac_t *out, const cuzk_g2_affine_t *bases,
                           const cuzk_fr_t *scalars, size_t n, cuzk_pool *pool,
                           const cuzk_msm_opts *opts) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_g2_msm_raw_ex(cuzk_g2_jac_t *out, const cuzk_g2_affine_t *bases,
                               const uint64_t *scalars, size_t n, cuzk_pool *pool,
                               const cuzk_msm_opts *opts) CUZK_WARN_UNUSED_RESULT;
/* Only |accum| and the scratch fields of |opts| apply to batch additions. */
cuzk_status cuzk_g1_batch_add_ex(cuzk_g1_jac_t *out, const cuzk_g1_affine_t *bases,
                                 const uint64_t *bitmap, size_t n, cuzk_pool *pool,
                                 const cuzk_msm_opts *opts) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_g2_batch_add_ex(cuzk_g2_jac_t *out, const cuzk_g2_affine_t *bases,
                                 const uint64_t *bitmap, size_t n, cuzk_pool *pool,
                                 const cuzk_msm_opts *opts) CUZK_WARN_UNUSED_RESULT;

/* Bytes of working memory an MSM / batch addition of |n| points on |pool| with |opts| needs
 * (an upper bound over all scalar values); SIZE_MAX if that does not fit in a size_t. */
size_t cuzk_g1_msm_scratch_size(size_t n, const cuzk_pool *pool, const cuzk_msm_opts *opts);
size_t cuzk_g2_msm_scratch_size(size_t n, const cuzk_pool *pool, const cuzk_msm_opts *opts);
size_t cuzk_g1_batch_add_scratch_size(size_t n, const cuzk_pool *pool, const cuzk_msm_opts *opts);
size_t cuzk_g2_batch_add_scratch_size(size_t n, const cuzk_pool *pool, const cuzk_msm_opts *opts);

/* The window, chunk count and accumulation an MSM of |n| random scalars below r on |pool|
 * with |opts| would use (fields of |opts| that are set are kept), for benchmark reports. */
void cuzk_g1_msm_plan(cuzk_msm_opts *out, size_t n, const cuzk_pool *pool,
                      const cuzk_msm_opts *opts);
void cuzk_g2_msm_plan(cuzk_msm_opts *out, size_t n, const cuzk_pool *pool,
                      const cuzk_msm_opts *opts);

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_SNARKJS_H
#define CUZK_SNARKJS_H

/*
 * snarkjs / circom interoperability (facts/formats.md section 4): readers of the iden3 binary
 * files (.zkey Groth16 v1, .r1cs v1, .wtns v2), a prover that reproduces `snarkjs groth16 prove`
 * bit for bit (given the same prover randomness), the JSON files snarkjs writes (proof.json,
 * public.json, verification_key.json) and their readers, so that cuzk verifies snarkjs proofs.
 *
 * Only BLS12-381 is supported: a file for another curve (bn128, ...) is rejected with a message
 * naming that curve. Every reader bounds every count by the size of the file, so a corrupt count
 * cannot make it allocate more than a small multiple of the file size; failures return a status
 * and cuzk_last_error() says what is wrong and at which file offset.
 */

#include "cuzk/backend.h"
#include "cuzk/check_cache.h"
#include "cuzk/groth16.h"
#include "cuzk/threadpool.h"

/* ---- .zkey (Groth16, version 1) ----------------------------------------------------------- */

/* One entry of zkey section 4: |value| * w[|signal|] is added to row |constraint| of A
 * (matrix 0) or B (matrix 1). |value| is the plain coefficient (the file stores it times R^2). */
typedef struct {
    uint32_t matrix;
    uint32_t constraint;
    uint32_t signal;
    cuzk_fr_t value;
} cuzk_snarkjs_coef;

typedef struct {
    const uint8_t *buf;
    size_t len;
    bool mapped; /* else from cuzk_alloc */
    int fd;      /* when mapped: the file, open, which the prover's MSMs read (not the mapping) */
} cuzk_snarkjs_zkey_file;

typedef struct {
    uint32_t n_vars;      /* wires, ONE included */
    uint32_t n_public;    /* public outputs + public inputs, ONE excluded */
    uint32_t domain_size; /* N, a power of two */
    cuzk_g1_affine_t alpha_g1, beta_g1, delta_g1;
    cuzk_g2_affine_t beta_g2, gamma_g2, delta_g2;
    cuzk_g1_affine_t *ic; /* n_public + 1 points (gamma = 1: not divided) */
    size_t n_coefs;
    cuzk_snarkjs_coef *coefs;
    cuzk_g1_affine_t *a;  /* n_vars points (infinity where a wire is absent from A) */
    cuzk_g1_affine_t *b1; /* n_vars */
    cuzk_g2_affine_t *b2; /* n_vars */
    cuzk_g1_affine_t *c;  /* n_vars - n_public - 1, for wires n_public + 1 .. n_vars - 1 */
    cuzk_g1_affine_t *h;  /* domain_size */
    /* With CUZK_SNARKJS_PACKED_POINTS: the same five sections as the file holds them (a .. h
     * are NULL then), checked at load like decoded points: 96 bytes a G1 point, 192 a G2 point,
     * coordinates as Montgomery little-endian limbs (G2 c0 first), all zero for infinity. */
    const uint8_t *a_packed, *b1_packed, *b2_packed, *c_packed, *h_packed;
    /* The verifying key in cuzk's form (prepared; IC as in the file since gamma = 1, see
     * formats.md 4.9), built at load so that the prover can check every proof it makes. */
    cuzk_groth16_vk *vk;
    /* How the subgroups of A, B1, B2, C and H were established at load; with a check cache,
     * the digest of those sections' bytes, whether this load added it to the cache, and if it
     * could not, why (the key itself loaded fine). */
    cuzk_subgroups subgroups;
    uint8_t points_digest[CUZK_CHECK_CACHE_DIGEST_BYTES];
    bool subgroups_recorded;
    char cache_error[256];
    /* Internal: the file image a packed key loaded by cuzk_snarkjs_zkey_load* holds. */
    cuzk_snarkjs_zkey_file held_;
} cuzk_snarkjs_zkey;

/* Reader flags. */
enum {
    /*
     * Skip the prime-order subgroup check of the bulk point sections (A, B1, B2, C, H); points
     * are still checked to be on the curve, and the header points and IC are always fully
     * checked. The subgroup checks cost about one 64-bit (G2) or 128-bit (G1) scalar
     * multiplication per point: ~4 nVars + N multiplications, spread over the pool's threads.
     * For a 2^12-constraint key on two cores that is a few hundred milliseconds, more than the
     * proof itself; use this flag only for keys from a trusted source (as snarkjs, which never
     * checks subgroups, assumes).
     */
    CUZK_SNARKJS_UNCHECKED_SUBGROUP = 1u << 0,
    /*
     * Keep the bulk point sections (A, B1, B2, C, H) as the file's bytes (zk->a_packed ..)
     * instead of decoded arrays: checked at load all the same (through per-chunk temporaries),
     * decoded by each proof's MSMs into their own working memory, which the prover recycles: a
     * one-shot proof no longer touches a decoded copy of every point (~40 MB of fresh pages at
     * 2^16; docs/PERFORMANCE.md, "Packed zkey points"). The key holds the file
     * until cuzk_snarkjs_zkey_free: loaded with cuzk_snarkjs_zkey_load*, mapped and open, its
     * points read with pread (a file cut short meanwhile gives CUZK_ERR_IO, one rewritten
     * meanwhile proofs that fail their self-verification, never a wrong proof); parsed,
     * |buf| must outlive the key. cuzk_snarkjs_zkey_unpack turns it into a decoded key, which
     * device residency needs.
     */
    CUZK_SNARKJS_PACKED_POINTS = 1u << 1,
};

/*
 * Parses the .zkey image |buf| of |len| bytes: protocol 1 (Groth16), BLS12-381 field sizes and
 * moduli, header points, IC, section 4 coefficients, A, B1, B2, C, H; every point is checked on
 * the curve (and in the subgroup, see CUZK_SNARKJS_UNCHECKED_SUBGROUP); every count must agree
 * with nVars, nPublic and domainSize. |pool| (may be NULL) spreads the point checks over threads.
 * On success *|out| is a new key the caller frees with cuzk_snarkjs_zkey_free; on failure it
 * is NULL. Section 10 (MPC contributions) is not read.
 */
cuzk_status cuzk_snarkjs_zkey_parse(cuzk_snarkjs_zkey **out, const uint8_t *buf, size_t len,
                                    unsigned flags, cuzk_pool *pool) CUZK_WARN_UNUSED_RESULT;
/* Reads and parses the file at |path|; messages are prefixed with the path. */
cuzk_status cuzk_snarkjs_zkey_load(cuzk_snarkjs_zkey **out, const char *path, unsigned flags,
                                   cuzk_pool *pool) CUZK_WARN_UNUSED_RESULT;
/*
 * The same with a check cache (check_cache.h; NULL: none): when the subgroups are to be checked,
 * the bulk sections are hashed as they are decoded, and their subgroup tests are skipped if the
 * digest is recorded (|subgroups| = CUZK_SUBGROUPS_CHECKED_BEFORE), else run, and the digest
 * recorded once the whole key has been accepted. A key that fails any check is never recorded.
 */
cuzk_status cuzk_snarkjs_zkey_parse_ex(cuzk_snarkjs_zkey **out, const uint8_t *buf, size_t len,
                                       unsigned flags, cuzk_pool *pool,
                                       cuzk_check_cache *cache) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_snarkjs_zkey_load_ex(cuzk_snarkjs_zkey **out, const char *path, unsigned flags,
                                      cuzk_pool *pool,
                                      cuzk_check_cache *cache) CUZK_WARN_UNUSED_RESULT;
void cuzk_snarkjs_zkey_free(cuzk_snarkjs_zkey *zk);
/*
 * Decodes a packed key's sections into zk->a .. zk->h and releases the file it held (nothing to
 * do for a decoded key). Coordinates are range-checked again (CUZK_ERR_FORMAT if the file
 * changed since the load); on failure, or CUZK_ERR_NOMEM, the key is unchanged. Not while a
 * proof uses the key.
 */
cuzk_status cuzk_snarkjs_zkey_unpack(cuzk_snarkjs_zkey *zk) CUZK_WARN_UNUSED_RESULT;

/* ---- .r1cs (version 1) -------------------------------------------------------------------- */

typedef struct {
    uint32_t n_wires; /* ONE included */
    uint32_t n_pub_out, n_pub_in, n_prv_in;
    uint64_t n_labels;
    uint32_t n_constraints;
    /* Linear combination k = 3 * constraint + m (m = 0 for A, 1 for B, 2 for C) holds the terms
     * lc_start[k] .. lc_start[k + 1] - 1 of term_wire / term_coef (plain coefficients). */
    uint64_t *lc_start; /* 3 * n_constraints + 1 */
    uint32_t *term_wire;
    cuzk_fr_t *term_coef;
    uint64_t *wire_label; /* n_wires: section 3, the label id of each wire */
} cuzk_snarkjs_r1cs;

/* Parses a circom .r1cs image (sections 1, 2, 3; custom-gate sections are rejected). Every wire
 * id must be < nWires and every coefficient < r. The caller frees *|out|. */
cuzk_status cuzk_snarkjs_r1cs_parse(cuzk_snarkjs_r1cs **out, const uint8_t *buf,
                                    size_t len) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_snarkjs_r1cs_load(cuzk_snarkjs_r1cs **out,
                                   const char *path) CUZK_WARN_UNUSED_RESULT;
void cuzk_snarkjs_r1cs_free(cuzk_snarkjs_r1cs *cs);

/* ---- .wtns (version 2) -------------------------------------------------------------------- */

typedef struct {
    uint32_t n; /* number of values, = nWires of the circuit */
    /* value i as canonical (standard-form) little-endian 64-bit limbs: values[4i .. 4i + 3];
     * every value is < r. A witness is a secret: cuzk_snarkjs_wtns_free wipes it. */
    uint64_t *values;
} cuzk_snarkjs_wtns;

cuzk_status cuzk_snarkjs_wtns_parse(cuzk_snarkjs_wtns **out, const uint8_t *buf,
                                    size_t len) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_snarkjs_wtns_load(cuzk_snarkjs_wtns **out,
                                   const char *path) CUZK_WARN_UNUSED_RESULT;
void cuzk_snarkjs_wtns_free(cuzk_snarkjs_wtns *w);

/* ---- .ptau (powers of tau) for tests and benchmarks -------------------------------------- */

#define CUZK_SNARKJS_PTAU_MAX_POWER 27

/*
 * Writes to |path| a prepared ("phase 2") powers-of-tau file of power |power| (1 ..
 * CUZK_SNARKJS_PTAU_MAX_POWER) for BLS12-381 made from the toxic waste |tau|, |alpha|, |beta|
 * (Montgomery form, non-zero; tau must not be a 2^(power+1)-th root of unity): the sections
 * `snarkjs powersoftau new` + `prepare phase2` write (formats.md 4.7), with no contribution
 * records, accepted by `snarkjs groth16 setup` for circuits with N <= 2^power. The file takes
 * about 1,728 * 2^power bytes and 12 * 2^power G1 + 3 * 2^power G2 fixed-base multiplications
 * (|pool| may be NULL). Written atomically (temporary file next to |path|, fsync, rename); on
 * failure nothing is left behind.
 *
 * FOR TESTS AND BENCHMARKS ONLY: whoever knows tau can forge proofs for every key made from
 * this file. Real keys need a real ceremony.
 */
cuzk_status cuzk_snarkjs_ptau_write(const char *path, unsigned power, const cuzk_fr_t *tau,
                                    const cuzk_fr_t *alpha, const cuzk_fr_t *beta,
                                    cuzk_pool *pool) CUZK_WARN_UNUSED_RESULT;

/* ---- checking and proving ----------------------------------------------------------------- */

/*
 * Evaluates every constraint of |cs| at the witness |w|: <A,w> * <B,w> = <C,w>. Returns CUZK_OK
 * when all hold; CUZK_ERR_INVALID_ARG when the witness has the wrong length, w[0] != 1 or a
 * constraint fails (*|bad| = its index, else UINT32_MAX; the message names the constraint and
 * its wires).
 */
cuzk_status cuzk_snarkjs_check(const cuzk_snarkjs_r1cs *cs, const cuzk_snarkjs_wtns *w,
                               uint32_t *bad) CUZK_WARN_UNUSED_RESULT;

/* Checks that |cs| is the circuit of |zk| (wire and public counts, domain large enough). */
cuzk_status cuzk_snarkjs_r1cs_matches_zkey(const cuzk_snarkjs_r1cs *cs,
                                           const cuzk_snarkjs_zkey *zk) CUZK_WARN_UNUSED_RESULT;

/*
 * Proves with the key |zk| and the witness |w| exactly as `snarkjs groth16 prove` does
 * (formats.md 4.6, 5-based domain, odd coset), with fresh random r, s from the operating system.
 * Writes the proof to *|proof| and the public signals w[1 .. n_public] (Montgomery form) to
 * |public_inputs| (room for zk->n_public; may be NULL when that is 0). The proof is then
 * verified with zk->vk: a witness that does not satisfy the circuit gives
 * CUZK_ERR_VERIFY_FAILED and no proof. |pool| may be NULL; |timings| (may be NULL) receives the
 * phase times: synthesis = building a, b, c from section 4, ntt_h, msm_h, tail_msm = the A, B1 and
 * C MSMs, msm_b_g2, assemble, verify, total (batch_add stays 0). Outputs are zeroed on failure.
 */
cuzk_status cuzk_snarkjs_prove(cuzk_groth16_proof *proof, cuzk_fr_t *public_inputs,
                               const cuzk_snarkjs_zkey *zk, const cuzk_snarkjs_wtns *w,
                               cuzk_pool *pool,
                               cuzk_prove_timings *timings) CUZK_WARN_UNUSED_RESULT;
/*
 * The same on a backend: a CUDA backend runs the H step (domains of 2^10 and up) and the five
 * MSMs on its device, with the bases uploaded per call; a CPU backend is cuzk_snarkjs_prove on
 * the backend's pool. The device proof is the same group elements as the CPU one for the same
 * r, s (tests/unit/test_gpu_snarkjs.c). Like every backend call, for one thread at a time.
 */
/*
 * Keeps the key's five point arrays on the device of |be| (a no-op on the CPU backend), so that
 * cuzk_snarkjs_prove_on with this key uploads only the witness and the H scalars. All or nothing:
 * CUZK_ERR_NOMEM (nothing held) when the device cannot hold them. |zk| must outlive the residency:
 * call cuzk_snarkjs_zkey_drop_resident before freeing it, while no proof uses it.
 */
cuzk_status cuzk_snarkjs_zkey_keep_resident(cuzk_backend *be,
                                            const cuzk_snarkjs_zkey *zk) CUZK_WARN_UNUSED_RESULT;
void cuzk_snarkjs_zkey_drop_resident(cuzk_backend *be, const cuzk_snarkjs_zkey *zk);
/*
 * Below this domain a device proof costs about as much as the CPU's or more (a device G2 MSM
 * takes ~2.8 ms of kernels even at 2^9 on an H200; the poseidon key, 2^10, proves in 13.4 ms on
 * the device and 10 ms on 16 CPU threads): the engine proves such keys on its GPU workers' CPU
 * pools. Env CUZK_ZKEY_GPU_MIN_LOG overrides its log there (docs/PERFORMANCE.md, "snarkjs keys on
 * the GPU" and "Small device MSMs").
 */
#define CUZK_SNARKJS_GPU_MIN_LOG 12
cuzk_status cuzk_snarkjs_prove_on(cuzk_groth16_proof *proof, cuzk_fr_t *public_inputs,
                                  const cuzk_snarkjs_zkey *zk, const cuzk_snarkjs_wtns *w,
                                  cuzk_backend *be,
                                  cuzk_prove_timings *timings) CUZK_WARN_UNUSED_RESULT;

/* ---- snarkjs JSON ------------------------------------------------------------------------- */

/*
 * Writers produce exactly the bytes snarkjs writes (bfj with one-space indentation, no final
 * newline, an empty array as "[\n]"; decimal strings, affine points with z = "1"). *|out| is a
 * NUL-terminated string from cuzk_alloc; the caller frees it with cuzk_free.
 */
cuzk_status cuzk_snarkjs_proof_to_json(char **out,
                                       const cuzk_groth16_proof *proof) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_snarkjs_public_to_json(char **out, const cuzk_fr_t *inputs,
                                        size_t n) CUZK_WARN_UNUSED_RESULT;
/* verification_key.json of |zk|, with vk_alphabeta_12 = e(alpha, beta). */
cuzk_status cuzk_snarkjs_vk_to_json(char **out,
                                    const cuzk_snarkjs_zkey *zk) CUZK_WARN_UNUSED_RESULT;

/*
 * Readers of the same files (any JSON layout). Points may be affine (z = 1), infinity (z = 0)
 * or Jacobian (any other z, as ffjavascript reads them); coordinates must be canonical decimal
 * integers < q, public values < r. Proof points must be on the curve, in the subgroup and not
 * the identity (CUZK_ERR_NOT_ON_CURVE / CUZK_ERR_NOT_IN_SUBGROUP / CUZK_ERR_BAD_ENCODING); other
 * problems are CUZK_ERR_FORMAT or CUZK_ERR_NOT_CANONICAL.
 */
cuzk_status cuzk_snarkjs_proof_from_json(cuzk_groth16_proof *out, const char *text,
                                         size_t len) CUZK_WARN_UNUSED_RESULT;
/* *|out| (cuzk_alloc, caller frees; NULL when *|n| = 0) receives the values in Montgomery form. */
cuzk_status cuzk_snarkjs_public_from_json(cuzk_fr_t **out, size_t *n, const char *text,
                                          size_t len) CUZK_WARN_UNUSED_RESULT;
/* protocol "groth16", curve "bls12381"; the caller frees *|out| with cuzk_groth16_vk_free. */
cuzk_status cuzk_snarkjs_vk_from_json(cuzk_groth16_vk **out, const char *text,
                                      size_t len) CUZK_WARN_UNUSED_RESULT;

#endif

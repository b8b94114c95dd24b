/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GROTH16_SNARKJS_INTERNAL_H
#define CUZK_GROTH16_SNARKJS_INTERNAL_H

/* Shared by the snarkjs readers, prover and JSON code; not part of the public API. */

#include "cuzk/snarkjs.h"
#include "msm/msm_packed.h"

/* ---- the iden3 binfile container (formats.md 4.1) ------------------------------------------ */

typedef struct {
    uint32_t type;
    uint64_t offset; /* file offset of the section body */
    uint64_t size;
} cuzk__bin_section;

typedef struct {
    const uint8_t *buf;
    size_t len;
    const char *what; /* "zkey", "r1cs", "wtns": prefixes every message */
    size_t n_sections;
    cuzk__bin_section *sections;
} cuzk__binfile;

/*
 * Checks the magic and the version (exactly |version|) and scans the section table: every
 * section header and body must lie inside the file and the file must end exactly after the last
 * section. Section order is free. On success the caller releases |bf| with
 * cuzk__binfile_close; |buf| is borrowed and must outlive |bf|.
 */
cuzk_status cuzk__binfile_open(cuzk__binfile *bf, const uint8_t *buf, size_t len,
                               const char magic[4], uint32_t version,
                               const char *what) CUZK_WARN_UNUSED_RESULT;
void cuzk__binfile_close(cuzk__binfile *bf);
/* The only section of |type| (|name| is used in messages): CUZK_ERR_FORMAT if it is missing or
 * appears more than once. */
cuzk_status cuzk__binfile_section(const cuzk__binfile *bf, uint32_t type, const char *name,
                                  const cuzk__bin_section **out) CUZK_WARN_UNUSED_RESULT;
/* True when a section of |type| exists. */
bool cuzk__binfile_has(const cuzk__binfile *bf, uint32_t type);
/* Fails unless section |sec| is exactly |want| bytes (computed by the caller from counts). */
cuzk_status cuzk__binfile_expect_size(const cuzk__binfile *bf, const cuzk__bin_section *sec,
                                      const char *name, uint64_t want) CUZK_WARN_UNUSED_RESULT;

/* Little-endian loads (no bounds checks: callers check sizes first). */
uint32_t cuzk__le32(const uint8_t *p);
uint64_t cuzk__le64(const uint8_t *p);

/* Where the MSMs read packed section |sec| of |zk| (one of zk->a_packed .. h_packed, or NULL):
 * from the file a key loaded by path holds open, else from memory (zkey.c says why). */
cuzk__packed_bases cuzk__snarkjs_packed_src(const cuzk_snarkjs_zkey *zk, const uint8_t *sec);

/* Decodes |n| packed zkey points (CUZK_SNARKJS_PACKED_POINTS, 96 or 192 bytes each) from |src|
 * into |dst| (cuzk_g1_affine_t or, |g2|, cuzk_g2_affine_t), coordinates range-checked only
 * (the load checked the rest; CUZK_ERR_FORMAT when the file has changed since, CUZK_ERR_IO when
 * it cannot be read or ends first). */
cuzk_status cuzk__snarkjs_unpack(void *dst, const cuzk__packed_bases *src, size_t n,
                                 bool g2) CUZK_WARN_UNUSED_RESULT;

/* ---- field constants and element checks -------------------------------------------------- */

extern const uint64_t cuzk__bls_q[6];   /* BLS12-381 base field modulus, LE limbs */
extern const uint64_t cuzk__bls_r[4];   /* BLS12-381 scalar field modulus */
extern const uint64_t cuzk__bn128_q[4]; /* alt_bn128, only to name it in messages */
extern const uint64_t cuzk__bn128_r[4];

/* Loads |n| little-endian limbs from |n| * 8 bytes. */
void cuzk__load_limbs(uint64_t *out, const uint8_t *in, size_t n);
/* a < m for |n|-limb little-endian integers. */
bool cuzk__limbs_lt(const uint64_t *a, const uint64_t *m, size_t n);
/*
 * Checks a field description (n8 followed by the prime, |off| = its file offset) against
 * BLS12-381's |expect| modulus of |expect_limbs| limbs. Names bn128 (or "an unsupported prime")
 * when it differs. |field| is "q" or "r" for the message.
 */
cuzk_status cuzk__check_prime(const cuzk__binfile *bf, uint64_t off, uint32_t n8,
                              const uint8_t *prime, const uint64_t *expect, size_t expect_limbs,
                              const char *field) CUZK_WARN_UNUSED_RESULT;

/* Decodes a snarkjs LEM point (formats.md 2.2: Montgomery LE, G2 c0 first, all zeros =
 * infinity): coordinates < q, on the curve, and in the subgroup when |subgroup|. The message
 * names the failure but not the position (callers add it). */
cuzk_status cuzk__lem_g1(cuzk_g1_affine_t *out, const uint8_t in[96],
                         bool subgroup) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk__lem_g2(cuzk_g2_affine_t *out, const uint8_t in[192],
                         bool subgroup) CUZK_WARN_UNUSED_RESULT;

/* Builds a prepared verifying key (e(alpha, beta), negated gamma and delta) from points and
 * |ic_len| IC points (copied). The caller frees *|out| with cuzk_groth16_vk_free. */
cuzk_status cuzk__snarkjs_make_vk(cuzk_groth16_vk **out, const cuzk_g1_affine_t *alpha_g1,
                                  const cuzk_g1_affine_t *beta_g1, const cuzk_g2_affine_t *beta_g2,
                                  const cuzk_g2_affine_t *gamma_g2,
                                  const cuzk_g1_affine_t *delta_g1,
                                  const cuzk_g2_affine_t *delta_g2, const cuzk_g1_affine_t *ic,
                                  size_t ic_len) CUZK_WARN_UNUSED_RESULT;

/* ---- decimal strings (snarkjs JSON) ------------------------------------------------------ */

/* Writes the decimal form of the |n|-limb integer |v| (n <= 6) to |out| (room for 120 chars). */
void cuzk__dec_from_limbs(char *out, const uint64_t *v, size_t n);
/* Parses a canonical decimal integer (digits only, no sign, no leading zero except "0") that
 * fits in |n| limbs and is < |mod|; false otherwise. */
bool cuzk__dec_to_limbs(uint64_t *out, size_t n, const char *s, const uint64_t *mod);

/* ---- prover -------------------------------------------------------------------------------- */

/*
 * cuzk_snarkjs_prove with given prover randomness |r|, |s| (Montgomery form), for tests that
 * reproduce snarkjs's proofs byte for byte. When |h_out| is not NULL it receives the
 * domain_size H scalars (Montgomery form). The proof is verified like in cuzk_snarkjs_prove.
 * With a backend |be| (then |pool| is ignored) a CUDA backend runs the H step and the MSMs on its
 * device; a CPU backend, or |be| = NULL, runs the CPU prover on the pool.
 */
cuzk_status cuzk__snarkjs_prove_rs(cuzk_groth16_proof *proof, cuzk_fr_t *public_inputs,
                                   cuzk_fr_t *h_out, const cuzk_snarkjs_zkey *zk,
                                   const cuzk_snarkjs_wtns *w, const cuzk_fr_t *r,
                                   const cuzk_fr_t *s, cuzk_backend *be, cuzk_pool *pool,
                                   cuzk_prove_timings *timings) CUZK_WARN_UNUSED_RESULT;

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_FIELD_H
#define CUZK_FIELD_H

/*
 * BLS12-381 fields. Elements are stored in Montgomery form with 64-bit limbs, least significant
 * limb first; the same layout is used on the GPU. Arithmetic never allocates and returns void;
 * outputs may alias inputs unless a comment says otherwise. Functions whose running time depends
 * on the value of an input carry the suffix _vartime.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

#define CUZK_FP_LIMBS 6
#define CUZK_FR_LIMBS 4

typedef struct {
    uint64_t l[CUZK_FP_LIMBS];
} cuzk_fp_t;

typedef struct {
    uint64_t l[CUZK_FR_LIMBS];
} cuzk_fr_t;

/* Fp2 = Fp[u] / (u^2 + 1); element c0 + c1*u. */
typedef struct {
    cuzk_fp_t c0, c1;
} cuzk_fp2_t;

/* Fp6 = Fp2[v] / (v^3 - (1 + u)); element c0 + c1*v + c2*v^2. */
typedef struct {
    cuzk_fp2_t c0, c1, c2;
} cuzk_fp6_t;

/* Fp12 = Fp6[w] / (w^2 - v); element c0 + c1*w. */
typedef struct {
    cuzk_fp6_t c0, c1;
} cuzk_fp12_t;

/* ---- Fp: the 381-bit base field ---------------------------------------------------------- */
void cuzk_fp_set_zero(cuzk_fp_t *out);
void cuzk_fp_set_one(cuzk_fp_t *out);
void cuzk_fp_set_u64(cuzk_fp_t *out, uint64_t v);
bool cuzk_fp_is_zero(const cuzk_fp_t *a);
bool cuzk_fp_is_one(const cuzk_fp_t *a);
bool cuzk_fp_eq(const cuzk_fp_t *a, const cuzk_fp_t *b);
void cuzk_fp_add(cuzk_fp_t *out, const cuzk_fp_t *a, const cuzk_fp_t *b);
void cuzk_fp_sub(cuzk_fp_t *out, const cuzk_fp_t *a, const cuzk_fp_t *b);
void cuzk_fp_neg(cuzk_fp_t *out, const cuzk_fp_t *a);
void cuzk_fp_dbl(cuzk_fp_t *out, const cuzk_fp_t *a);
void cuzk_fp_mul(cuzk_fp_t *out, const cuzk_fp_t *a, const cuzk_fp_t *b);
void cuzk_fp_sqr(cuzk_fp_t *out, const cuzk_fp_t *a);
/* out = a^e, e given as |n| 64-bit limbs (least significant first). Constant time in |a|. */
void cuzk_fp_pow(cuzk_fp_t *out, const cuzk_fp_t *a, const uint64_t *e, size_t n);
/* out = 1/a (0 maps to 0). Constant time (Fermat). */
void cuzk_fp_inv(cuzk_fp_t *out, const cuzk_fp_t *a);
/* out = 1/a (0 maps to 0). Binary extended Euclid: timing depends on |a|. */
void cuzk_fp_inv_vartime(cuzk_fp_t *out, const cuzk_fp_t *a);
/* Inverts |n| elements with one inversion (Montgomery's trick); zeros map to zeros.
 * |out| and |in| must not overlap. */
void cuzk_fp_batch_inv(cuzk_fp_t *out, const cuzk_fp_t *in, size_t n);
/* Legendre symbol: 1 for a non-zero square, -1 for a non-square, 0 for zero. */
int cuzk_fp_legendre(const cuzk_fp_t *a);
/* out = a square root of |a| (the one computed as a^((p+1)/4)); false if none (out unchanged). */
bool cuzk_fp_sqrt(cuzk_fp_t *out, const cuzk_fp_t *a);
/* True when the canonical value of |a| exceeds (p-1)/2 (ZCash sign rule). */
bool cuzk_fp_is_lexicographically_largest(const cuzk_fp_t *a);
/* Conditional move: out = flag ? a : out, without branching on |flag|. */
void cuzk_fp_cmov(cuzk_fp_t *out, const cuzk_fp_t *a, bool flag);
/* 48 big-endian bytes (canonical value, not Montgomery). Rejects values >= p. */
cuzk_status cuzk_fp_from_bytes_be(cuzk_fp_t *out, const uint8_t in[48]) CUZK_WARN_UNUSED_RESULT;
void cuzk_fp_to_bytes_be(uint8_t out[48], const cuzk_fp_t *a);
/* Canonical little-endian limbs <-> Montgomery form. from_ fails (false) on a value >= p. */
bool cuzk_fp_from_canonical(cuzk_fp_t *out, const uint64_t in[CUZK_FP_LIMBS]);
void cuzk_fp_to_canonical(uint64_t out[CUZK_FP_LIMBS], const cuzk_fp_t *a);

/* ---- Fr: the 255-bit scalar field --------------------------------------------------------- */
void cuzk_fr_set_zero(cuzk_fr_t *out);
void cuzk_fr_set_one(cuzk_fr_t *out);
void cuzk_fr_set_u64(cuzk_fr_t *out, uint64_t v);
bool cuzk_fr_is_zero(const cuzk_fr_t *a);
bool cuzk_fr_is_one(const cuzk_fr_t *a);
bool cuzk_fr_eq(const cuzk_fr_t *a, const cuzk_fr_t *b);
void cuzk_fr_add(cuzk_fr_t *out, const cuzk_fr_t *a, const cuzk_fr_t *b);
void cuzk_fr_sub(cuzk_fr_t *out, const cuzk_fr_t *a, const cuzk_fr_t *b);
void cuzk_fr_neg(cuzk_fr_t *out, const cuzk_fr_t *a);
void cuzk_fr_dbl(cuzk_fr_t *out, const cuzk_fr_t *a);
void cuzk_fr_mul(cuzk_fr_t *out, const cuzk_fr_t *a, const cuzk_fr_t *b);
void cuzk_fr_sqr(cuzk_fr_t *out, const cuzk_fr_t *a);
void cuzk_fr_pow(cuzk_fr_t *out, const cuzk_fr_t *a, const uint64_t *e, size_t n);
void cuzk_fr_inv(cuzk_fr_t *out, const cuzk_fr_t *a);
void cuzk_fr_inv_vartime(cuzk_fr_t *out, const cuzk_fr_t *a);
void cuzk_fr_batch_inv(cuzk_fr_t *out, const cuzk_fr_t *in, size_t n);
int cuzk_fr_legendre(const cuzk_fr_t *a);
/* Tonelli-Shanks (two-adicity 32). false if |a| is not a square (out unchanged). */
bool cuzk_fr_sqrt(cuzk_fr_t *out, const cuzk_fr_t *a);
void cuzk_fr_cmov(cuzk_fr_t *out, const cuzk_fr_t *a, bool flag);
/* 32 little-endian bytes, the repr Filecoin uses. Rejects values >= r. */
cuzk_status cuzk_fr_from_bytes_le(cuzk_fr_t *out, const uint8_t in[32]) CUZK_WARN_UNUSED_RESULT;
void cuzk_fr_to_bytes_le(uint8_t out[32], const cuzk_fr_t *a);
bool cuzk_fr_from_canonical(cuzk_fr_t *out, const uint64_t in[CUZK_FR_LIMBS]);
void cuzk_fr_to_canonical(uint64_t out[CUZK_FR_LIMBS], const cuzk_fr_t *a);
/* The primitive 2^32-th root of unity 7^((r-1)/2^32) used by bellperson domains. */
void cuzk_fr_root_of_unity(cuzk_fr_t *out);

/* ---- Fp2 ---------------------------------------------------------------------------------- */
void cuzk_fp2_set_zero(cuzk_fp2_t *out);
void cuzk_fp2_set_one(cuzk_fp2_t *out);
bool cuzk_fp2_is_zero(const cuzk_fp2_t *a);
bool cuzk_fp2_eq(const cuzk_fp2_t *a, const cuzk_fp2_t *b);
void cuzk_fp2_add(cuzk_fp2_t *out, const cuzk_fp2_t *a, const cuzk_fp2_t *b);
void cuzk_fp2_sub(cuzk_fp2_t *out, const cuzk_fp2_t *a, const cuzk_fp2_t *b);
void cuzk_fp2_neg(cuzk_fp2_t *out, const cuzk_fp2_t *a);
void cuzk_fp2_dbl(cuzk_fp2_t *out, const cuzk_fp2_t *a);
void cuzk_fp2_conj(cuzk_fp2_t *out, const cuzk_fp2_t *a);
void cuzk_fp2_mul(cuzk_fp2_t *out, const cuzk_fp2_t *a, const cuzk_fp2_t *b);
void cuzk_fp2_mul_fp(cuzk_fp2_t *out, const cuzk_fp2_t *a, const cuzk_fp_t *b);
void cuzk_fp2_sqr(cuzk_fp2_t *out, const cuzk_fp2_t *a);
/* out = a * (1 + u), the Fp6 non-residue. */
void cuzk_fp2_mul_by_nonresidue(cuzk_fp2_t *out, const cuzk_fp2_t *a);
void cuzk_fp2_inv(cuzk_fp2_t *out, const cuzk_fp2_t *a);
void cuzk_fp2_inv_vartime(cuzk_fp2_t *out, const cuzk_fp2_t *a);
void cuzk_fp2_pow(cuzk_fp2_t *out, const cuzk_fp2_t *a, const uint64_t *e, size_t n);
/* Frobenius a^(p^k): conjugation for odd k. */
void cuzk_fp2_frobenius(cuzk_fp2_t *out, const cuzk_fp2_t *a, unsigned k);
bool cuzk_fp2_sqrt(cuzk_fp2_t *out, const cuzk_fp2_t *a);
/* ZCash sign rule for Fp2: compare c1, and c0 only when c1 = 0. */
bool cuzk_fp2_is_lexicographically_largest(const cuzk_fp2_t *a);
void cuzk_fp2_cmov(cuzk_fp2_t *out, const cuzk_fp2_t *a, bool flag);

/* ---- Fp6 and Fp12 (pairing target group arithmetic) -------------------------------------- */
/* Sources: Karatsuba / CH-SQR2 (Devegili et al., eprint 2006/471), Granger-Scott cyclotomic
 * squaring (eprint 2009/565); see src/field/fp6.c and fp12.c. Inverses map 0 to 0. Frobenius
 * maps take any k and compute a^(p^k) with precomputed coefficients
 * (scripts/gen_field_constants.py). pow takes a public exponent of |n| little-endian limbs. */
void cuzk_fp6_set_zero(cuzk_fp6_t *out);
void cuzk_fp6_set_one(cuzk_fp6_t *out);
bool cuzk_fp6_is_zero(const cuzk_fp6_t *a);
bool cuzk_fp6_eq(const cuzk_fp6_t *a, const cuzk_fp6_t *b);
void cuzk_fp6_add(cuzk_fp6_t *out, const cuzk_fp6_t *a, const cuzk_fp6_t *b);
void cuzk_fp6_sub(cuzk_fp6_t *out, const cuzk_fp6_t *a, const cuzk_fp6_t *b);
void cuzk_fp6_neg(cuzk_fp6_t *out, const cuzk_fp6_t *a);
void cuzk_fp6_mul(cuzk_fp6_t *out, const cuzk_fp6_t *a, const cuzk_fp6_t *b);
void cuzk_fp6_sqr(cuzk_fp6_t *out, const cuzk_fp6_t *a);
/* out = a * v. */
void cuzk_fp6_mul_by_nonresidue(cuzk_fp6_t *out, const cuzk_fp6_t *a);
void cuzk_fp6_inv(cuzk_fp6_t *out, const cuzk_fp6_t *a);
void cuzk_fp6_frobenius(cuzk_fp6_t *out, const cuzk_fp6_t *a, unsigned k);

void cuzk_fp12_set_one(cuzk_fp12_t *out);
bool cuzk_fp12_is_one(const cuzk_fp12_t *a);
bool cuzk_fp12_eq(const cuzk_fp12_t *a, const cuzk_fp12_t *b);
void cuzk_fp12_mul(cuzk_fp12_t *out, const cuzk_fp12_t *a, const cuzk_fp12_t *b);
void cuzk_fp12_sqr(cuzk_fp12_t *out, const cuzk_fp12_t *a);
void cuzk_fp12_inv(cuzk_fp12_t *out, const cuzk_fp12_t *a);
/* out = c0 - c1*w: the inverse of a unitary element (norm 1), e.g. anything in GT. */
void cuzk_fp12_conj(cuzk_fp12_t *out, const cuzk_fp12_t *a);
void cuzk_fp12_frobenius(cuzk_fp12_t *out, const cuzk_fp12_t *a, unsigned k);
/* Squaring valid only in the cyclotomic subgroup, e.g. on GT or after the easy part of the final
 * exponentiation (Granger-Scott, 9 Fp2 squarings); other inputs give a wrong result. */
void cuzk_fp12_cyclotomic_sqr(cuzk_fp12_t *out, const cuzk_fp12_t *a);
void cuzk_fp12_pow(cuzk_fp12_t *out, const cuzk_fp12_t *a, const uint64_t *e, size_t n);

#endif

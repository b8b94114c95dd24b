/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_CURVE_H
#define CUZK_CURVE_H

/*
 * BLS12-381 groups. G1: y^2 = x^3 + 4 over Fp. G2: y^2 = x^3 + 4(1 + u) over Fp2 (the M-twist).
 * The group law is written once (src/curve/point_impl.h) and instantiated for both groups.
 *
 * Coordinates: affine (x, y, infinity flag); Jacobian (X, Y, Z) with x = X/Z^2, y = Y/Z^3 and
 * Z = 0 for infinity; XYZZ (X, Y, ZZ, ZZZ) with x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2, ZZ = 0 for
 * infinity (cheap mixed additions for bucket accumulation in MSM).
 *
 * Scalars are cuzk_fr_t (Montgomery form) or raw little-endian 64-bit limbs where a function
 * says so. Arithmetic is void; decoding returns a status.
 */

#include "cuzk/field.h"

typedef struct {
    cuzk_fp_t x, y;
    bool infinity;
} cuzk_g1_affine_t;

typedef struct {
    cuzk_fp_t x, y, z;
} cuzk_g1_jac_t;

typedef struct {
    cuzk_fp_t x, y, zz, zzz;
} cuzk_g1_xyzz_t;

typedef struct {
    cuzk_fp2_t x, y;
    bool infinity;
} cuzk_g2_affine_t;

typedef struct {
    cuzk_fp2_t x, y, z;
} cuzk_g2_jac_t;

typedef struct {
    cuzk_fp2_t x, y, zz, zzz;
} cuzk_g2_xyzz_t;

/* The same set of functions exists for g1 (Fp) and g2 (Fp2); shown here once per group. */
#define CUZK_CURVE_DECLARE_(G, F, AFF, JAC, XYZZ)                                                  \
    /* Fixed generator (formats.md section 1) and identity. */                                     \
    void cuzk_##G##_generator(AFF *out);                                                           \
    void cuzk_##G##_affine_set_infinity(AFF *out);                                                 \
    void cuzk_##G##_jac_set_infinity(JAC *out);                                                    \
    bool cuzk_##G##_jac_is_infinity(const JAC *p);                                                 \
    void cuzk_##G##_xyzz_set_infinity(XYZZ *out);                                                  \
    bool cuzk_##G##_xyzz_is_infinity(const XYZZ *p);                                               \
    /* Conversions. to_affine costs one inversion; batch_to_affine one for all |n| points. */      \
    void cuzk_##G##_from_affine(JAC *out, const AFF *p);                                           \
    void cuzk_##G##_to_affine(AFF *out, const JAC *p);                                             \
    void cuzk_##G##_batch_to_affine(AFF *out, const JAC *in, size_t n);                            \
    void cuzk_##G##_xyzz_from_affine(XYZZ *out, const AFF *p);                                     \
    void cuzk_##G##_xyzz_to_jac(JAC *out, const XYZZ *p);                                          \
    /* Group law in Jacobian coordinates (complete: any input may be infinity or equal). */        \
    void cuzk_##G##_add(JAC *out, const JAC *p, const JAC *q);                                     \
    void cuzk_##G##_add_affine(JAC *out, const JAC *p, const AFF *q);                              \
    void cuzk_##G##_dbl(JAC *out, const JAC *p);                                                   \
    void cuzk_##G##_neg(JAC *out, const JAC *p);                                                   \
    void cuzk_##G##_affine_neg(AFF *out, const AFF *p);                                            \
    /* XYZZ accumulation (add-2008-s / madd-2008-s, dbl-2008-s). */                                \
    void cuzk_##G##_xyzz_add(XYZZ *out, const XYZZ *p, const XYZZ *q);                             \
    void cuzk_##G##_xyzz_add_affine(XYZZ *out, const XYZZ *p, const AFF *q);                       \
    void cuzk_##G##_xyzz_dbl(XYZZ *out, const XYZZ *p);                                            \
    /* Equality of the represented points (projective coordinates compared by cross-multiplying).  \
     */                                                                                            \
    bool cuzk_##G##_eq(const JAC *p, const JAC *q);                                                \
    bool cuzk_##G##_affine_eq(const AFF *p, const AFF *q);                                         \
    /* out = k * p for an Fr element k (any value), multiplied as its canonical integer.           \
     * mul: fixed 4-bit window over all 256 bits, table entries selected by a constant-time scan;  \
     * valid for any point of the curve. mul_vartime: endomorphism-split wNAF (G1: GLV with        \
     * phi = [-x^2]; G2: GLS with psi = [x], four 64-bit pieces); |p| MUST be in the prime-order   \
     * subgroup (G1/G2), otherwise the result is wrong: use mul_raw_vartime for other points. */   \
    void cuzk_##G##_mul(JAC *out, const JAC *p, const cuzk_fr_t *k);                               \
    void cuzk_##G##_mul_vartime(JAC *out, const JAC *p, const cuzk_fr_t *k);                       \
    /* out = k * p for a raw little-endian scalar of |nlimbs| 64-bit limbs (any size, e.g. the     \
     * group order or a cofactor). Variable time. */                                               \
    void cuzk_##G##_mul_raw_vartime(JAC *out, const JAC *p, const uint64_t *k, size_t nlimbs);     \
    /* Checks. in_subgroup also requires |p| on the curve (false otherwise); it uses Scott's       \
     * endomorphism tests (eprint 2021/1130), cross-checked in tests against r * p == O. */        \
    bool cuzk_##G##_affine_is_on_curve(const AFF *p);                                              \
    bool cuzk_##G##_is_on_curve(const JAC *p);                                                     \
    bool cuzk_##G##_affine_in_subgroup(const AFF *p);                                              \
    bool cuzk_##G##_in_subgroup(const JAC *p);

CUZK_CURVE_DECLARE_(g1, cuzk_fp_t, cuzk_g1_affine_t, cuzk_g1_jac_t, cuzk_g1_xyzz_t)
CUZK_CURVE_DECLARE_(g2, cuzk_fp2_t, cuzk_g2_affine_t, cuzk_g2_jac_t, cuzk_g2_xyzz_t)

/*
 * ZCash / IETF serialisation (formats.md section 2.1). Serialisers write canonical bytes.
 * Deserialisers check, in this order: length-independent flag sanity (compression bit matches
 * the form, sign bit only when compressed, infinity encodings all zero after the flags),
 * coordinates < p, on-curve, and (unless *_unchecked) prime-order subgroup membership. Each
 * failure returns its own status with a message; |out| is unchanged on failure.
 */
void cuzk_g1_serialize(uint8_t out[96], const cuzk_g1_affine_t *p);
void cuzk_g1_compress(uint8_t out[48], const cuzk_g1_affine_t *p);
cuzk_status cuzk_g1_deserialize(cuzk_g1_affine_t *out,
                                const uint8_t in[96]) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_g1_uncompress(cuzk_g1_affine_t *out, const uint8_t in[48]) CUZK_WARN_UNUSED_RESULT;
/* Same checks except subgroup membership (trusted parameter files). */
cuzk_status cuzk_g1_deserialize_unchecked(cuzk_g1_affine_t *out,
                                          const uint8_t in[96]) CUZK_WARN_UNUSED_RESULT;
void cuzk_g2_serialize(uint8_t out[192], const cuzk_g2_affine_t *p);
void cuzk_g2_compress(uint8_t out[96], const cuzk_g2_affine_t *p);
cuzk_status cuzk_g2_deserialize(cuzk_g2_affine_t *out,
                                const uint8_t in[192]) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_g2_uncompress(cuzk_g2_affine_t *out, const uint8_t in[96]) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_g2_deserialize_unchecked(cuzk_g2_affine_t *out,
                                          const uint8_t in[192]) CUZK_WARN_UNUSED_RESULT;
/* Decode by length: 48/96 for G1, 96/192 for G2; any other length is CUZK_ERR_BAD_ENCODING. */
cuzk_status cuzk_g1_decode(cuzk_g1_affine_t *out, const uint8_t *in,
                           size_t len) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_g2_decode(cuzk_g2_affine_t *out, const uint8_t *in,
                           size_t len) CUZK_WARN_UNUSED_RESULT;

#endif

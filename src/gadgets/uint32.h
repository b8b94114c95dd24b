/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GADGETS_UINT32_H
#define CUZK_GADGETS_UINT32_H

/*
 * 32-bit words as 32 booleans, least significant first (bellperson src/gadgets/uint32.rs).
 * |value| is the witness value (meaningless in KEYGEN mode).
 */

#include "gadgets/boolean.h"
#include "gadgets/multieq.h"

typedef struct {
    cuzk_bool bits[32]; /* bits[0] = least significant */
    uint32_t value;
} cuzk_u32;

void cuzk_u32_constant(cuzk_u32 *out, uint32_t value);
/* 32 allocated bits, LSB first, each with booleanity (32 constraints). */
cuzk_status cuzk_u32_alloc(cuzk_cs *cs, cuzk_u32 *out, uint32_t value) CUZK_WARN_UNUSED_RESULT;
/* From / to 32 booleans, most significant first (SHA-256 word order). */
void cuzk_u32_from_bits_be(cuzk_u32 *out, const cuzk_bool bits[32]);
void cuzk_u32_into_bits_be(cuzk_bool bits[32], const cuzk_u32 *x);
/* From 32 booleans, least significant first. */
void cuzk_u32_from_bits(cuzk_u32 *out, const cuzk_bool bits[32]);
/* Rotation / shift right by |by| (mod 32): no constraint. */
void cuzk_u32_rotr(cuzk_u32 *out, const cuzk_u32 *x, unsigned by);
void cuzk_u32_shr(cuzk_u32 *out, const cuzk_u32 *x, unsigned by);
/* Bitwise xor (Boolean::xor per bit, constants fold). */
cuzk_status cuzk_u32_xor(cuzk_cs *cs, cuzk_u32 *out, const cuzk_u32 *a,
                         const cuzk_u32 *b) CUZK_WARN_UNUSED_RESULT;
/* Bitwise SHA-256 ch and maj (Boolean::sha256_ch / sha256_maj per bit). */
cuzk_status cuzk_u32_sha256_ch(cuzk_cs *cs, cuzk_u32 *out, const cuzk_u32 *a, const cuzk_u32 *b,
                               const cuzk_u32 *c) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_u32_sha256_maj(cuzk_cs *cs, cuzk_u32 *out, const cuzk_u32 *a, const cuzk_u32 *b,
                                const cuzk_u32 *c) CUZK_WARN_UNUSED_RESULT;
/* Sum of |n| (2..10) operands mod 2^32: allocates the bits of the full sum (33..36 bits, each
 * with booleanity), then one MultiEq equality sum(operands) = sum(result bits); all-constant
 * operands give a constant and no constraint. |out| may alias an operand. */
cuzk_status cuzk_u32_addmany(cuzk_cs *cs, cuzk_multieq *m, cuzk_u32 *out, const cuzk_u32 *ops,
                             size_t n) CUZK_WARN_UNUSED_RESULT;

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GADGETS_NUM_H
#define CUZK_GADGETS_NUM_H

/*
 * Allocated field elements (bellperson src/gadgets/num.rs, AllocatedNum). |value| is the
 * witness value (zero in KEYGEN mode).
 */

#include "gadgets/boolean.h"

typedef struct {
    cuzk_var var;
    cuzk_fr_t value;
} cuzk_num;

/* Number of bits of to_bits_le (Fr::NUM_BITS). */
#define CUZK_FR_NUM_BITS 255
/* Bits packed per field element by multipack (Fr::CAPACITY). */
#define CUZK_FR_CAPACITY 254

/* AllocatedNum::alloc / alloc_input: no constraint. |value| may be NULL in KEYGEN mode. */
cuzk_status cuzk_num_alloc(cuzk_cs *cs, cuzk_num *out,
                           const cuzk_fr_t *value) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_num_alloc_input(cuzk_cs *cs, cuzk_num *out,
                                 const cuzk_fr_t *value) CUZK_WARN_UNUSED_RESULT;
/* inputize: a new input x and x * 1 = n (1 constraint). */
cuzk_status cuzk_num_inputize(cuzk_cs *cs, const cuzk_num *n) CUZK_WARN_UNUSED_RESULT;
/* a * b = out;  a * a = out  (1 constraint each). */
cuzk_status cuzk_num_mul(cuzk_cs *cs, cuzk_num *out, const cuzk_num *a,
                         const cuzk_num *b) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_num_square(cuzk_cs *cs, cuzk_num *out, const cuzk_num *a) CUZK_WARN_UNUSED_RESULT;
/* a = b as a * 1 = b (1 constraint; the shape rust-fil-proofs' constraint::equal uses). */
cuzk_status cuzk_num_enforce_equal(cuzk_cs *cs, const cuzk_num *a,
                                   const cuzk_num *b) CUZK_WARN_UNUSED_RESULT;
/* AllocatedNum::to_bits_le (bellperson into_bits_le_nonstrict): 255 allocated bits, little
 * endian, each with booleanity, then 0 * 0 = sum 2^i b_i - n (256 constraints). No range
 * check: a value and value + r share a decomposition when both fit. */
cuzk_status cuzk_num_to_bits_le(cuzk_cs *cs, cuzk_bool bits[CUZK_FR_NUM_BITS],
                                const cuzk_num *n) CUZK_WARN_UNUSED_RESULT;
/* conditionally_reverse: (c, d) = cond ? (b, a) : (a, b) (2 allocations, 2 constraints). */
cuzk_status cuzk_num_conditionally_reverse(cuzk_cs *cs, cuzk_num *c, cuzk_num *d, const cuzk_num *a,
                                           const cuzk_num *b,
                                           cuzk_bool cond) CUZK_WARN_UNUSED_RESULT;

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GADGETS_BOOLEAN_H
#define CUZK_GADGETS_BOOLEAN_H

/*
 * Boolean gadgets with bellperson's constraint shapes (bellperson src/gadgets/boolean.rs).
 * A cuzk_bool is a constant, an allocated bit (IS) or the negation of one (NOT), like
 * bellperson's Boolean enum; negation and constants cost no constraint. |value| is the witness
 * value of the boolean itself (false in KEYGEN mode, where gadgets still emit the same
 * constraints).
 */

#include "cuzk/r1cs.h"

typedef enum {
    CUZK_BOOL_CONST = 0,
    CUZK_BOOL_IS = 1,
    CUZK_BOOL_NOT = 2,
} cuzk_bool_kind;

typedef struct {
    cuzk_var var; /* the allocated bit (IS, NOT) */
    uint8_t kind; /* cuzk_bool_kind */
    bool value;   /* value of this boolean (already negated for NOT) */
} cuzk_bool;

static inline cuzk_bool cuzk_bool_const(bool v)
{
    cuzk_bool b = {{0}, CUZK_BOOL_CONST, v};
    return b;
}
static inline cuzk_bool cuzk_bool_not(cuzk_bool b)
{
    if (b.kind == CUZK_BOOL_IS)
        b.kind = CUZK_BOOL_NOT;
    else if (b.kind == CUZK_BOOL_NOT)
        b.kind = CUZK_BOOL_IS;
    b.value = !b.value;
    return b;
}
static inline bool cuzk_bool_is_const(cuzk_bool b)
{
    return b.kind == CUZK_BOOL_CONST;
}

/* AllocatedBit::alloc: a new aux bit with booleanity (1 - a) * a = 0 (1 constraint). */
cuzk_status cuzk_bit_alloc(cuzk_cs *cs, cuzk_bool *out, bool value) CUZK_WARN_UNUSED_RESULT;
/* AllocatedBit::alloc_conditionally: (1 - must_be_false - a) * a = 0. |must_be_false| is an
 * allocated bit (IS). */
cuzk_status cuzk_bit_alloc_conditionally(cuzk_cs *cs, cuzk_bool *out, bool value,
                                         cuzk_bool must_be_false) CUZK_WARN_UNUSED_RESULT;

/* AllocatedBit operations on two allocated bits (kind IS), 1 constraint each:
 * xor: (a + a) * b = a + b - c;  and: a * b = c;  and_not: a * (1 - b) = c;
 * nor: (1 - a) * (1 - b) = c. */
cuzk_status cuzk_bit_xor(cuzk_cs *cs, cuzk_bool *out, cuzk_bool a,
                         cuzk_bool b) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_bit_and(cuzk_cs *cs, cuzk_bool *out, cuzk_bool a,
                         cuzk_bool b) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_bit_and_not(cuzk_cs *cs, cuzk_bool *out, cuzk_bool a,
                             cuzk_bool b) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_bit_nor(cuzk_cs *cs, cuzk_bool *out, cuzk_bool a,
                         cuzk_bool b) CUZK_WARN_UNUSED_RESULT;

/* Boolean operations with constant folding exactly as bellperson's Boolean::{xor, and, or,
 * sha256_ch, sha256_maj}; 0 or 1 constraint (maj: up to 2). */
cuzk_status cuzk_bool_xor(cuzk_cs *cs, cuzk_bool *out, cuzk_bool a,
                          cuzk_bool b) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_bool_and(cuzk_cs *cs, cuzk_bool *out, cuzk_bool a,
                          cuzk_bool b) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_bool_or(cuzk_cs *cs, cuzk_bool *out, cuzk_bool a,
                         cuzk_bool b) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_bool_sha256_ch(cuzk_cs *cs, cuzk_bool *out, cuzk_bool a, cuzk_bool b,
                                cuzk_bool c) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_bool_sha256_maj(cuzk_cs *cs, cuzk_bool *out, cuzk_bool a, cuzk_bool b,
                                 cuzk_bool c) CUZK_WARN_UNUSED_RESULT;
/* Boolean::enforce_equal: 0 constraints for two constants (CUZK_ERR_INVALID_ARG when they
 * differ: unsatisfiable), else 1 constraint 0 * 0 = a - b. */
cuzk_status cuzk_bool_enforce_equal(cuzk_cs *cs, cuzk_bool a, cuzk_bool b) CUZK_WARN_UNUSED_RESULT;

/* lc += coeff * b, with Boolean::lc's terms: constant true -> coeff*ONE; IS -> coeff*var;
 * NOT -> coeff*ONE - coeff*var. |coeff| NULL means 1 (the +-1 fast path). */
void cuzk_bool_lc_add(cuzk_lc *lc, cuzk_bool b, const cuzk_fr_t *coeff);
/* lc -= b (coefficient 1). */
void cuzk_bool_lc_sub(cuzk_lc *lc, cuzk_bool b);
/* lc += 2^k * b. */
void cuzk_bool_lc_add_pow2(cuzk_lc *lc, cuzk_bool b, unsigned k);

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Boolean gadgets. Constraint shapes, allocation order and constant folding follow bellperson
 * src/gadgets/boolean.rs (AllocatedBit::{alloc, alloc_conditionally, xor, and, and_not, nor},
 * Boolean::{xor, and, sha256_ch, sha256_maj, enforce_equal, lc}) and bellpepper's Boolean::or.
 */
#include "gadgets/boolean.h"

static cuzk_status alloc_bit(cuzk_cs *cs, cuzk_bool *out, bool value)
{
    CUZK_TRY(cuzk_cs_alloc_aux_bit(cs, &out->var, value));
    out->kind = CUZK_BOOL_IS;
    out->value = value;
    return CUZK_OK;
}

/* A witness-only system keeps no constraints: the bit gadgets below, most of SHA-256's
 * constraints, count theirs without building the LCs (eight calls a constraint fewer). */
#define COUNT_ONLY(cs)                                                                             \
    do {                                                                                           \
        if (!cuzk_cs_has_constraints(cs))                                                          \
            return cuzk_cs_enforce_none(cs);                                                       \
    } while (0)

cuzk_status cuzk_bit_alloc(cuzk_cs *cs, cuzk_bool *out, bool value)
{
    CUZK_TRY(alloc_bit(cs, out, value));
    COUNT_ONLY(cs);
    /* (1 - a) * a = 0 */
    cuzk_lc *a, *b, *c;
    cuzk_cs_lcs(cs, &a, &b, &c);
    cuzk_lc_add_one(a);
    cuzk_lc_sub_var(a, out->var);
    cuzk_lc_add_var(b, out->var);
    return cuzk_cs_enforce(cs, a, b, c);
}

cuzk_status cuzk_bit_alloc_conditionally(cuzk_cs *cs, cuzk_bool *out, bool value,
                                         cuzk_bool must_be_false)
{
    CUZK_TRY(alloc_bit(cs, out, value));
    COUNT_ONLY(cs);
    /* (1 - must_be_false - a) * a = 0 */
    cuzk_lc *a, *b, *c;
    cuzk_cs_lcs(cs, &a, &b, &c);
    cuzk_lc_add_one(a);
    cuzk_lc_sub_var(a, must_be_false.var);
    cuzk_lc_sub_var(a, out->var);
    cuzk_lc_add_var(b, out->var);
    return cuzk_cs_enforce(cs, a, b, c);
}

cuzk_status cuzk_bit_xor(cuzk_cs *cs, cuzk_bool *out, cuzk_bool x, cuzk_bool y)
{
    CUZK_TRY(alloc_bit(cs, out, x.value ^ y.value));
    COUNT_ONLY(cs);
    /* (a + a) * b = a + b - c */
    cuzk_lc *a, *b, *c;
    cuzk_cs_lcs(cs, &a, &b, &c);
    cuzk_lc_add_var(a, x.var);
    cuzk_lc_add_var(a, x.var);
    cuzk_lc_add_var(b, y.var);
    cuzk_lc_add_var(c, x.var);
    cuzk_lc_add_var(c, y.var);
    cuzk_lc_sub_var(c, out->var);
    return cuzk_cs_enforce(cs, a, b, c);
}

cuzk_status cuzk_bit_and(cuzk_cs *cs, cuzk_bool *out, cuzk_bool x, cuzk_bool y)
{
    CUZK_TRY(alloc_bit(cs, out, x.value & y.value));
    COUNT_ONLY(cs);
    /* a * b = c */
    cuzk_lc *a, *b, *c;
    cuzk_cs_lcs(cs, &a, &b, &c);
    cuzk_lc_add_var(a, x.var);
    cuzk_lc_add_var(b, y.var);
    cuzk_lc_add_var(c, out->var);
    return cuzk_cs_enforce(cs, a, b, c);
}

/* |x| and |y| are allocated bits given by their own value (the IS view). */
cuzk_status cuzk_bit_and_not(cuzk_cs *cs, cuzk_bool *out, cuzk_bool x, cuzk_bool y)
{
    CUZK_TRY(alloc_bit(cs, out, x.value & !y.value));
    COUNT_ONLY(cs);
    /* a * (1 - b) = c */
    cuzk_lc *a, *b, *c;
    cuzk_cs_lcs(cs, &a, &b, &c);
    cuzk_lc_add_var(a, x.var);
    cuzk_lc_add_one(b);
    cuzk_lc_sub_var(b, y.var);
    cuzk_lc_add_var(c, out->var);
    return cuzk_cs_enforce(cs, a, b, c);
}

cuzk_status cuzk_bit_nor(cuzk_cs *cs, cuzk_bool *out, cuzk_bool x, cuzk_bool y)
{
    CUZK_TRY(alloc_bit(cs, out, !x.value & !y.value));
    COUNT_ONLY(cs);
    /* (1 - a) * (1 - b) = c */
    cuzk_lc *a, *b, *c;
    cuzk_cs_lcs(cs, &a, &b, &c);
    cuzk_lc_add_one(a);
    cuzk_lc_sub_var(a, x.var);
    cuzk_lc_add_one(b);
    cuzk_lc_sub_var(b, y.var);
    cuzk_lc_add_var(c, out->var);
    return cuzk_cs_enforce(cs, a, b, c);
}

/* The allocated bit behind a NOT view, as an IS boolean with its own value. */
static cuzk_bool underlying(cuzk_bool b)
{
    return b.kind == CUZK_BOOL_NOT ? cuzk_bool_not(b) : b;
}

cuzk_status cuzk_bool_xor(cuzk_cs *cs, cuzk_bool *out, cuzk_bool a, cuzk_bool b)
{
    if (a.kind == CUZK_BOOL_CONST || b.kind == CUZK_BOOL_CONST) {
        cuzk_bool k = a.kind == CUZK_BOOL_CONST ? a : b;
        cuzk_bool x = a.kind == CUZK_BOOL_CONST ? b : a;
        /* false ^ x = x; true ^ x = !x */
        *out = k.value ? cuzk_bool_not(x) : x;
        return CUZK_OK;
    }
    if (a.kind != b.kind) {
        /* a ^ !b = !(a ^ b) */
        cuzk_bool is = a.kind == CUZK_BOOL_IS ? a : b;
        cuzk_bool notb = a.kind == CUZK_BOOL_IS ? b : a;
        CUZK_TRY(cuzk_bit_xor(cs, out, is, cuzk_bool_not(notb)));
        *out = cuzk_bool_not(*out);
        return CUZK_OK;
    }
    /* a ^ b = !a ^ !b: xor of the underlying bits. */
    return cuzk_bit_xor(cs, out, underlying(a), underlying(b));
}

cuzk_status cuzk_bool_and(cuzk_cs *cs, cuzk_bool *out, cuzk_bool a, cuzk_bool b)
{
    if ((a.kind == CUZK_BOOL_CONST && !a.value) || (b.kind == CUZK_BOOL_CONST && !b.value)) {
        *out = cuzk_bool_const(false);
        return CUZK_OK;
    }
    if (a.kind == CUZK_BOOL_CONST) {
        *out = b;
        return CUZK_OK;
    }
    if (b.kind == CUZK_BOOL_CONST) {
        *out = a;
        return CUZK_OK;
    }
    if (a.kind == CUZK_BOOL_IS && b.kind == CUZK_BOOL_NOT)
        return cuzk_bit_and_not(cs, out, a, underlying(b));
    if (a.kind == CUZK_BOOL_NOT && b.kind == CUZK_BOOL_IS)
        return cuzk_bit_and_not(cs, out, b, underlying(a));
    if (a.kind == CUZK_BOOL_NOT)
        return cuzk_bit_nor(cs, out, underlying(a), underlying(b));
    return cuzk_bit_and(cs, out, a, b);
}

cuzk_status cuzk_bool_or(cuzk_cs *cs, cuzk_bool *out, cuzk_bool a, cuzk_bool b)
{
    /* a | b = !(!a & !b) */
    CUZK_TRY(cuzk_bool_and(cs, out, cuzk_bool_not(a), cuzk_bool_not(b)));
    *out = cuzk_bool_not(*out);
    return CUZK_OK;
}

void cuzk_bool_lc_add(cuzk_lc *lc, cuzk_bool b, const cuzk_fr_t *coeff)
{
    switch (b.kind) {
    case CUZK_BOOL_CONST:
        if (b.value) {
            if (coeff)
                cuzk_lc_add_const(lc, coeff);
            else
                cuzk_lc_add_one(lc);
        }
        break;
    case CUZK_BOOL_IS:
        if (coeff)
            cuzk_lc_add(lc, b.var, coeff);
        else
            cuzk_lc_add_var(lc, b.var);
        break;
    default:
        if (coeff) {
            cuzk_fr_t neg;
            cuzk_fr_neg(&neg, coeff);
            cuzk_lc_add_const(lc, coeff);
            cuzk_lc_add(lc, b.var, &neg);
        } else {
            cuzk_lc_add_one(lc);
            cuzk_lc_sub_var(lc, b.var);
        }
        break;
    }
}

void cuzk_bool_lc_sub(cuzk_lc *lc, cuzk_bool b)
{
    switch (b.kind) {
    case CUZK_BOOL_CONST:
        if (b.value)
            cuzk_lc_sub_var(lc, cuzk_var_one());
        break;
    case CUZK_BOOL_IS:
        cuzk_lc_sub_var(lc, b.var);
        break;
    default:
        cuzk_lc_sub_var(lc, cuzk_var_one());
        cuzk_lc_add_var(lc, b.var);
        break;
    }
}

void cuzk_bool_lc_add_pow2(cuzk_lc *lc, cuzk_bool b, unsigned k)
{
    cuzk_bool_lc_add(lc, b, k ? cuzk_r1cs_pow2(k) : NULL);
}

/* Shapes of sha256_ch / sha256_maj when no constant folds: 1 allocation, 1 constraint (maj
 * also allocates bc = b AND c first). */
cuzk_status cuzk_bool_sha256_ch(cuzk_cs *cs, cuzk_bool *out, cuzk_bool a, cuzk_bool b, cuzk_bool c)
{
    bool v = (a.value & b.value) ^ (!a.value & c.value);
    bool ka = a.kind == CUZK_BOOL_CONST, kb = b.kind == CUZK_BOOL_CONST,
         kc = c.kind == CUZK_BOOL_CONST;
    if (ka && kb && kc) {
        *out = cuzk_bool_const(v);
        return CUZK_OK;
    }
    if (ka && !a.value) { /* c */
        *out = c;
        return CUZK_OK;
    }
    if (kb && !b.value) /* !a & c */
        return cuzk_bool_and(cs, out, cuzk_bool_not(a), c);
    if (kc && !c.value) /* a & b */
        return cuzk_bool_and(cs, out, a, b);
    if (kc && c.value) { /* !(a & !b) */
        CUZK_TRY(cuzk_bool_and(cs, out, a, cuzk_bool_not(b)));
        *out = cuzk_bool_not(*out);
        return CUZK_OK;
    }
    if (kb && b.value) { /* !(!a & !c) */
        CUZK_TRY(cuzk_bool_and(cs, out, cuzk_bool_not(a), cuzk_bool_not(c)));
        *out = cuzk_bool_not(*out);
        return CUZK_OK;
    }
    /* a true (constant) falls through, as in bellperson. */
    cuzk_bool ch;
    CUZK_TRY(alloc_bit(cs, &ch, v));
    if (!cuzk_cs_has_constraints(cs)) {
        *out = ch;
        return cuzk_cs_enforce_none(cs);
    }
    /* a * (b - c) = ch - c;  written as (b - c) * a = ch - c */
    cuzk_lc *la, *lb, *lc;
    cuzk_cs_lcs(cs, &la, &lb, &lc);
    cuzk_bool_lc_add(la, b, NULL);
    cuzk_bool_lc_sub(la, c);
    cuzk_bool_lc_add(lb, a, NULL);
    cuzk_lc_add_var(lc, ch.var);
    cuzk_bool_lc_sub(lc, c);
    CUZK_TRY(cuzk_cs_enforce(cs, la, lb, lc));
    *out = ch;
    return CUZK_OK;
}

cuzk_status cuzk_bool_sha256_maj(cuzk_cs *cs, cuzk_bool *out, cuzk_bool a, cuzk_bool b, cuzk_bool c)
{
    bool v = (a.value & b.value) ^ (a.value & c.value) ^ (b.value & c.value);
    bool ka = a.kind == CUZK_BOOL_CONST, kb = b.kind == CUZK_BOOL_CONST,
         kc = c.kind == CUZK_BOOL_CONST;
    if (ka && kb && kc) {
        *out = cuzk_bool_const(v);
        return CUZK_OK;
    }
    if (ka && !a.value)
        return cuzk_bool_and(cs, out, b, c);
    if (kb && !b.value)
        return cuzk_bool_and(cs, out, a, c);
    if (kc && !c.value)
        return cuzk_bool_and(cs, out, a, b);
    if (kc && c.value) {
        CUZK_TRY(cuzk_bool_and(cs, out, cuzk_bool_not(a), cuzk_bool_not(b)));
        *out = cuzk_bool_not(*out);
        return CUZK_OK;
    }
    if (kb && b.value) {
        CUZK_TRY(cuzk_bool_and(cs, out, cuzk_bool_not(a), cuzk_bool_not(c)));
        *out = cuzk_bool_not(*out);
        return CUZK_OK;
    }
    if (ka && a.value) {
        CUZK_TRY(cuzk_bool_and(cs, out, cuzk_bool_not(b), cuzk_bool_not(c)));
        *out = cuzk_bool_not(*out);
        return CUZK_OK;
    }
    cuzk_bool maj;
    CUZK_TRY(alloc_bit(cs, &maj, v));
    cuzk_bool bc;
    CUZK_TRY(cuzk_bool_and(cs, &bc, b, c));
    if (!cuzk_cs_has_constraints(cs)) {
        *out = maj;
        return cuzk_cs_enforce_none(cs);
    }
    /* (2bc - b - c) * a = bc - maj */
    cuzk_lc *la, *lb, *lc;
    cuzk_cs_lcs(cs, &la, &lb, &lc);
    cuzk_bool_lc_add(la, bc, NULL);
    cuzk_bool_lc_add(la, bc, NULL);
    cuzk_bool_lc_sub(la, b);
    cuzk_bool_lc_sub(la, c);
    cuzk_bool_lc_add(lb, a, NULL);
    cuzk_bool_lc_add(lc, bc, NULL);
    cuzk_lc_sub_var(lc, maj.var);
    CUZK_TRY(cuzk_cs_enforce(cs, la, lb, lc));
    *out = maj;
    return CUZK_OK;
}

cuzk_status cuzk_bool_enforce_equal(cuzk_cs *cs, cuzk_bool a, cuzk_bool b)
{
    bool ka = a.kind == CUZK_BOOL_CONST, kb = b.kind == CUZK_BOOL_CONST;
    if (ka && kb) {
        if (a.value == b.value)
            return CUZK_OK;
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "enforce_equal: constants differ (unsatisfiable)");
    }
    cuzk_lc *la, *lb, *lc;
    cuzk_cs_lcs(cs, &la, &lb, &lc);
    if (ka || kb) {
        cuzk_bool k = ka ? a : b, x = ka ? b : a;
        if (k.value) { /* 0 * 0 = 1 - x */
            cuzk_lc_add_one(lc);
            cuzk_bool_lc_sub(lc, x);
        } else { /* 0 * 0 = x */
            cuzk_bool_lc_add(lc, x, NULL);
        }
    } else { /* 0 * 0 = a - b */
        cuzk_bool_lc_add(lc, a, NULL);
        cuzk_bool_lc_sub(lc, b);
    }
    return cuzk_cs_enforce(cs, la, lb, lc);
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Allocated numbers: bellperson src/gadgets/num.rs (AllocatedNum). */
#include "gadgets/num.h"

#include <string.h>

static const cuzk_fr_t *val_or_null(const cuzk_cs *cs, const cuzk_fr_t *v)
{
    return cuzk_cs_has_values(cs) ? v : NULL;
}

cuzk_status cuzk_num_alloc(cuzk_cs *cs, cuzk_num *out, const cuzk_fr_t *value)
{
    CUZK_TRY(cuzk_cs_alloc_aux(cs, &out->var, value));
    if (value && cuzk_cs_has_values(cs))
        out->value = *value;
    else
        cuzk_fr_set_zero(&out->value);
    return CUZK_OK;
}

cuzk_status cuzk_num_alloc_input(cuzk_cs *cs, cuzk_num *out, const cuzk_fr_t *value)
{
    CUZK_TRY(cuzk_cs_alloc_input(cs, &out->var, value));
    if (value && cuzk_cs_has_values(cs))
        out->value = *value;
    else
        cuzk_fr_set_zero(&out->value);
    return CUZK_OK;
}

cuzk_status cuzk_num_inputize(cuzk_cs *cs, const cuzk_num *n)
{
    cuzk_var in;
    CUZK_TRY(cuzk_cs_alloc_input(cs, &in, val_or_null(cs, &n->value)));
    /* input * 1 = n */
    cuzk_lc *a, *b, *c;
    cuzk_cs_lcs(cs, &a, &b, &c);
    cuzk_lc_add_var(a, in);
    cuzk_lc_add_one(b);
    cuzk_lc_add_var(c, n->var);
    return cuzk_cs_enforce(cs, a, b, c);
}

cuzk_status cuzk_num_mul(cuzk_cs *cs, cuzk_num *out, const cuzk_num *x, const cuzk_num *y)
{
    cuzk_fr_t v;
    cuzk_fr_mul(&v, &x->value, &y->value);
    cuzk_var xv = x->var, yv = y->var;
    CUZK_TRY(cuzk_num_alloc(cs, out, val_or_null(cs, &v)));
    cuzk_lc *a, *b, *c;
    cuzk_cs_lcs(cs, &a, &b, &c);
    cuzk_lc_add_var(a, xv);
    cuzk_lc_add_var(b, yv);
    cuzk_lc_add_var(c, out->var);
    return cuzk_cs_enforce(cs, a, b, c);
}

cuzk_status cuzk_num_square(cuzk_cs *cs, cuzk_num *out, const cuzk_num *x)
{
    cuzk_fr_t v;
    cuzk_fr_sqr(&v, &x->value);
    cuzk_var xv = x->var;
    CUZK_TRY(cuzk_num_alloc(cs, out, val_or_null(cs, &v)));
    cuzk_lc *a, *b, *c;
    cuzk_cs_lcs(cs, &a, &b, &c);
    cuzk_lc_add_var(a, xv);
    cuzk_lc_add_var(b, xv);
    cuzk_lc_add_var(c, out->var);
    return cuzk_cs_enforce(cs, a, b, c);
}

cuzk_status cuzk_num_enforce_equal(cuzk_cs *cs, const cuzk_num *x, const cuzk_num *y)
{
    cuzk_lc *a, *b, *c;
    cuzk_cs_lcs(cs, &a, &b, &c);
    cuzk_lc_add_var(a, x->var);
    cuzk_lc_add_one(b);
    cuzk_lc_add_var(c, y->var);
    return cuzk_cs_enforce(cs, a, b, c);
}

cuzk_status cuzk_num_to_bits_le(cuzk_cs *cs, cuzk_bool bits[CUZK_FR_NUM_BITS], const cuzk_num *n)
{
    /* field_into_allocated_bits_le: the canonical value's 255 low bits, allocated LSB first. */
    uint64_t limbs[CUZK_FR_LIMBS] = {0};
    if (cuzk_cs_has_values(cs))
        cuzk_fr_to_canonical(limbs, &n->value);
    cuzk_var nv = n->var;
    for (unsigned i = 0; i < CUZK_FR_NUM_BITS; i++)
        CUZK_TRY(cuzk_bit_alloc(cs, &bits[i], (limbs[i / 64] >> (i % 64)) & 1));
    /* 0 * 0 = sum 2^i b_i - n */
    cuzk_lc *a, *b, *c;
    cuzk_cs_lcs(cs, &a, &b, &c);
    if (cuzk_cs_has_constraints(cs)) {
        for (unsigned i = 0; i < CUZK_FR_NUM_BITS; i++)
            cuzk_lc_add_pow2(c, bits[i].var, i);
        cuzk_lc_sub_var(c, nv);
    }
    return cuzk_cs_enforce(cs, a, b, c);
}

cuzk_status cuzk_num_conditionally_reverse(cuzk_cs *cs, cuzk_num *c_out, cuzk_num *d_out,
                                           const cuzk_num *x, const cuzk_num *y, cuzk_bool cond)
{
    cuzk_num xa = *x, yb = *y; /* outputs may alias inputs */
    cuzk_num cn, dn;
    CUZK_TRY(cuzk_num_alloc(cs, &cn, val_or_null(cs, cond.value ? &yb.value : &xa.value)));
    /* (a - b) * cond = a - c */
    cuzk_lc *a, *b, *c;
    cuzk_cs_lcs(cs, &a, &b, &c);
    cuzk_lc_add_var(a, xa.var);
    cuzk_lc_sub_var(a, yb.var);
    cuzk_bool_lc_add(b, cond, NULL);
    cuzk_lc_add_var(c, xa.var);
    cuzk_lc_sub_var(c, cn.var);
    CUZK_TRY(cuzk_cs_enforce(cs, a, b, c));
    CUZK_TRY(cuzk_num_alloc(cs, &dn, val_or_null(cs, cond.value ? &xa.value : &yb.value)));
    /* (b - a) * cond = b - d */
    cuzk_cs_lcs(cs, &a, &b, &c);
    cuzk_lc_add_var(a, yb.var);
    cuzk_lc_sub_var(a, xa.var);
    cuzk_bool_lc_add(b, cond, NULL);
    cuzk_lc_add_var(c, yb.var);
    cuzk_lc_sub_var(c, dn.var);
    CUZK_TRY(cuzk_cs_enforce(cs, a, b, c));
    *c_out = cn;
    *d_out = dn;
    return CUZK_OK;
}

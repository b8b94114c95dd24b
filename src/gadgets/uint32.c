/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* UInt32 gadgets (bellperson src/gadgets/uint32.rs). */
#include "gadgets/uint32.h"

#include <string.h>

static uint32_t value_of_bits(const cuzk_bool bits[32])
{
    uint32_t v = 0;
    for (unsigned i = 0; i < 32; i++)
        v |= (uint32_t)bits[i].value << i;
    return v;
}

void cuzk_u32_constant(cuzk_u32 *out, uint32_t value)
{
    for (unsigned i = 0; i < 32; i++)
        out->bits[i] = cuzk_bool_const((value >> i) & 1);
    out->value = value;
}

cuzk_status cuzk_u32_alloc(cuzk_cs *cs, cuzk_u32 *out, uint32_t value)
{
    for (unsigned i = 0; i < 32; i++)
        CUZK_TRY(cuzk_bit_alloc(cs, &out->bits[i], (value >> i) & 1));
    out->value = value;
    return CUZK_OK;
}

void cuzk_u32_from_bits_be(cuzk_u32 *out, const cuzk_bool bits[32])
{
    cuzk_bool tmp[32];
    for (unsigned i = 0; i < 32; i++)
        tmp[i] = bits[31 - i];
    memcpy(out->bits, tmp, sizeof tmp);
    out->value = value_of_bits(out->bits);
}

void cuzk_u32_into_bits_be(cuzk_bool bits[32], const cuzk_u32 *x)
{
    cuzk_bool tmp[32];
    for (unsigned i = 0; i < 32; i++)
        tmp[i] = x->bits[31 - i];
    memcpy(bits, tmp, sizeof tmp);
}

void cuzk_u32_from_bits(cuzk_u32 *out, const cuzk_bool bits[32])
{
    memmove(out->bits, bits, 32 * sizeof *bits);
    out->value = value_of_bits(out->bits);
}

void cuzk_u32_rotr(cuzk_u32 *out, const cuzk_u32 *x, unsigned by)
{
    by %= 32;
    cuzk_u32 t;
    for (unsigned i = 0; i < 32; i++)
        t.bits[i] = x->bits[(i + by) % 32];
    t.value = by ? (x->value >> by) | (x->value << (32 - by)) : x->value;
    *out = t;
}

void cuzk_u32_shr(cuzk_u32 *out, const cuzk_u32 *x, unsigned by)
{
    by %= 32;
    cuzk_u32 t;
    for (unsigned i = 0; i < 32; i++)
        t.bits[i] = i + by < 32 ? x->bits[i + by] : cuzk_bool_const(false);
    t.value = x->value >> by;
    *out = t;
}

/* Per-bit names matter only to CHECK mode's messages: the other modes skip the two calls a bit
 * (a WITNESS synthesis of SHA-256 made 64 of them a word operation). */
static bool named(cuzk_cs *cs)
{
    return cuzk_cs_get_mode(cs) == CUZK_CS_CHECK;
}

cuzk_status cuzk_u32_xor(cuzk_cs *cs, cuzk_u32 *out, const cuzk_u32 *a, const cuzk_u32 *b)
{
    const bool nm = named(cs);
    cuzk_u32 t;
    for (unsigned i = 0; i < 32; i++) {
        if (nm)
            cuzk_cs_push_nsf(cs, "xor of bit %u", i);
        cuzk_status s = cuzk_bool_xor(cs, &t.bits[i], a->bits[i], b->bits[i]);
        if (nm)
            cuzk_cs_pop_ns(cs);
        CUZK_TRY(s);
    }
    t.value = a->value ^ b->value;
    *out = t;
    return CUZK_OK;
}

cuzk_status cuzk_u32_sha256_ch(cuzk_cs *cs, cuzk_u32 *out, const cuzk_u32 *a, const cuzk_u32 *b,
                               const cuzk_u32 *c)
{
    const bool nm = named(cs);
    cuzk_u32 t;
    for (unsigned i = 0; i < 32; i++) {
        if (nm)
            cuzk_cs_push_nsf(cs, "ch %u", i);
        cuzk_status s = cuzk_bool_sha256_ch(cs, &t.bits[i], a->bits[i], b->bits[i], c->bits[i]);
        if (nm)
            cuzk_cs_pop_ns(cs);
        CUZK_TRY(s);
    }
    t.value = (a->value & b->value) ^ (~a->value & c->value);
    *out = t;
    return CUZK_OK;
}

cuzk_status cuzk_u32_sha256_maj(cuzk_cs *cs, cuzk_u32 *out, const cuzk_u32 *a, const cuzk_u32 *b,
                                const cuzk_u32 *c)
{
    const bool nm = named(cs);
    cuzk_u32 t;
    for (unsigned i = 0; i < 32; i++) {
        if (nm)
            cuzk_cs_push_nsf(cs, "maj %u", i);
        cuzk_status s = cuzk_bool_sha256_maj(cs, &t.bits[i], a->bits[i], b->bits[i], c->bits[i]);
        if (nm)
            cuzk_cs_pop_ns(cs);
        CUZK_TRY(s);
    }
    t.value = (a->value & b->value) ^ (a->value & c->value) ^ (b->value & c->value);
    *out = t;
    return CUZK_OK;
}

cuzk_status cuzk_u32_addmany(cuzk_cs *cs, cuzk_multieq *m, cuzk_u32 *out, const cuzk_u32 *ops,
                             size_t n)
{
    if (n < 2 || n > 10)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "u32 addmany: %zu operands (2..10)", n);
    uint64_t max_value = (uint64_t)n * UINT32_MAX;
    uint64_t sum = 0;
    bool all_constants = true;
    for (size_t k = 0; k < n; k++) {
        sum += ops[k].value;
        for (unsigned i = 0; i < 32; i++)
            all_constants &= ops[k].bits[i].kind == CUZK_BOOL_CONST;
    }
    if (all_constants) {
        cuzk_u32_constant(out, (uint32_t)sum);
        return CUZK_OK;
    }
    /* Result bits of the full sum: as many as max_value has. */
    cuzk_bool res[64];
    unsigned nbits = 0;
    const bool nm = named(cs);
    for (uint64_t mv = max_value; mv; mv >>= 1, nbits++) {
        if (nm)
            cuzk_cs_push_nsf(cs, "result bit %u", nbits);
        cuzk_status s = cuzk_bit_alloc(cs, &res[nbits], (sum >> nbits) & 1);
        if (nm)
            cuzk_cs_pop_ns(cs);
        CUZK_TRY(s);
    }
    /* sum of operands (coefficients 2^i per bit) = sum of result bits, shifted into the
     * MultiEq batch without building a separate LC (the merged coefficients equal
     * bellperson's scaled LCs exactly). */
    unsigned shift = 0;
    CUZK_TRY(cuzk_multieq_reserve(m, nbits, &shift));
    if (cuzk_cs_has_constraints(cs)) {
        for (size_t k = 0; k < n; k++)
            for (unsigned i = 0; i < 32; i++)
                cuzk_bool_lc_add_pow2(m->lhs, ops[k].bits[i], shift + i);
        for (unsigned i = 0; i < nbits; i++)
            cuzk_lc_add_pow2(m->rhs, res[i].var, shift + i);
    }
    cuzk_multieq_commit(m, nbits);
    memcpy(out->bits, res, 32 * sizeof res[0]);
    out->value = (uint32_t)sum;
    return CUZK_OK;
}

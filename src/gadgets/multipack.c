/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Multipacking (bellperson src/gadgets/multipack.rs). */
#include "gadgets/multipack.h"

cuzk_status cuzk_multipack_pack_into_inputs(cuzk_cs *cs, const cuzk_bool *bits, size_t n_bits)
{
    for (size_t i = 0, chunk = 0; i < n_bits; i += CUZK_FR_CAPACITY, chunk++) {
        size_t n = n_bits - i < CUZK_FR_CAPACITY ? n_bits - i : CUZK_FR_CAPACITY;
        cuzk_fr_t value;
        cuzk_fr_set_zero(&value);
        for (size_t k = 0; k < n; k++)
            if (bits[i + k].value)
                cuzk_fr_add(&value, &value, cuzk_r1cs_pow2((unsigned)k));
        cuzk_var input;
        CUZK_TRY(cuzk_cs_alloc_input(cs, &input, cuzk_cs_has_values(cs) ? &value : NULL));
        /* num * 1 = input */
        cuzk_lc *a, *b, *c;
        cuzk_cs_lcs(cs, &a, &b, &c);
        if (cuzk_cs_has_constraints(cs))
            for (size_t k = 0; k < n; k++)
                cuzk_bool_lc_add_pow2(a, bits[i + k], (unsigned)k);
        cuzk_lc_add_one(b);
        cuzk_lc_add_var(c, input);
        cuzk_cs_push_nsf(cs, "packing constraint %zu", chunk);
        cuzk_status s = cuzk_cs_enforce(cs, a, b, c);
        cuzk_cs_pop_ns(cs);
        CUZK_TRY(s);
    }
    return CUZK_OK;
}

cuzk_status cuzk_multipack_pack_bits(cuzk_cs *cs, cuzk_num *out, const cuzk_bool *bits,
                                     size_t n_bits)
{
    if (n_bits > CUZK_FR_CAPACITY)
        n_bits = CUZK_FR_CAPACITY;
    cuzk_fr_t v;
    cuzk_fr_set_zero(&v);
    for (size_t i = 0; i < n_bits; i++)
        if (bits[i].value)
            cuzk_fr_add(&v, &v, cuzk_r1cs_pow2((unsigned)i));
    CUZK_TRY(cuzk_num_alloc(cs, out, &v));
    return cuzk_multipack_enforce_sum(cs, bits, n_bits, out->var);
}

cuzk_status cuzk_multipack_enforce_sum(cuzk_cs *cs, const cuzk_bool *bits, size_t n_bits,
                                       cuzk_var var)
{
    cuzk_lc *a, *b, *c;
    cuzk_cs_lcs(cs, &a, &b, &c);
    for (size_t i = 0; i < n_bits; i++)
        cuzk_bool_lc_add_pow2(a, bits[i], (unsigned)i);
    cuzk_lc_add_one(b);
    cuzk_lc_add_var(c, var);
    return cuzk_cs_enforce(cs, a, b, c);
}

void cuzk_multipack_compute(cuzk_fr_t *out, const bool *bits, size_t n_bits)
{
    for (size_t i = 0, chunk = 0; i < n_bits; i += CUZK_FR_CAPACITY, chunk++) {
        size_t n = n_bits - i < CUZK_FR_CAPACITY ? n_bits - i : CUZK_FR_CAPACITY;
        cuzk_fr_set_zero(&out[chunk]);
        for (size_t k = 0; k < n; k++)
            if (bits[i + k])
                cuzk_fr_add(&out[chunk], &out[chunk], cuzk_r1cs_pow2((unsigned)k));
    }
}

void cuzk_multipack_bytes_to_bits(bool *out, const uint8_t *bytes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < 8; b++)
            out[8 * i + (size_t)b] = (bytes[i] >> (7 - b)) & 1;
}

void cuzk_multipack_bytes_to_bits_le(bool *out, const uint8_t *bytes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < 8; b++)
            out[8 * i + (size_t)b] = (bytes[i] >> b) & 1;
}

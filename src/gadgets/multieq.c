/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* MultiEq batching (bellperson src/gadgets/multieq.rs). */
#include "gadgets/multieq.h"

#include "gadgets/num.h"

void cuzk_multieq_init(cuzk_multieq *m, cuzk_cs *cs)
{
    m->cs = cs;
    m->lhs = cuzk_cs_lc_new(cs);
    m->rhs = cuzk_cs_lc_new(cs);
    m->bits_used = 0;
    m->ops = 0;
}

/* accumulate(): lhs * ONE = rhs, then start a new batch. */
static cuzk_status accumulate(cuzk_multieq *m)
{
    cuzk_lc *one = cuzk_cs_lc_new(m->cs);
    cuzk_lc_add_one(one);
    cuzk_cs_push_nsf(m->cs, "multieq %zu", m->ops);
    cuzk_status s = cuzk_cs_enforce(m->cs, m->lhs, one, m->rhs);
    cuzk_cs_pop_ns(m->cs);
    cuzk_cs_lc_free(m->cs, one);
    cuzk_lc_clear(m->lhs);
    cuzk_lc_clear(m->rhs);
    m->bits_used = 0;
    m->ops++;
    return s;
}

cuzk_status cuzk_multieq_reserve(cuzk_multieq *m, unsigned num_bits, unsigned *shift)
{
    if (CUZK_FR_CAPACITY <= m->bits_used + num_bits)
        CUZK_TRY(accumulate(m));
    if (CUZK_FR_CAPACITY <= m->bits_used + num_bits)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "multieq: %u bits exceed the field capacity",
                         num_bits);
    *shift = m->bits_used;
    return CUZK_OK;
}

void cuzk_multieq_commit(cuzk_multieq *m, unsigned num_bits)
{
    m->bits_used += num_bits;
}

cuzk_status cuzk_multieq_enforce_equal(cuzk_multieq *m, unsigned num_bits, const cuzk_lc *lhs,
                                       const cuzk_lc *rhs)
{
    unsigned shift = 0;
    CUZK_TRY(cuzk_multieq_reserve(m, num_bits, &shift));
    cuzk_lc_add_lc_scaled(m->lhs, lhs, cuzk_r1cs_pow2(shift));
    cuzk_lc_add_lc_scaled(m->rhs, rhs, cuzk_r1cs_pow2(shift));
    cuzk_multieq_commit(m, num_bits);
    return CUZK_OK;
}

cuzk_status cuzk_multieq_finish(cuzk_multieq *m)
{
    cuzk_status s = CUZK_OK;
    if (m->bits_used > 0)
        s = accumulate(m);
    cuzk_cs_lc_free(m->cs, m->lhs);
    cuzk_cs_lc_free(m->cs, m->rhs);
    m->lhs = m->rhs = NULL;
    return s;
}

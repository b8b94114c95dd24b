/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GADGETS_MULTIEQ_H
#define CUZK_GADGETS_MULTIEQ_H

/*
 * MultiEq (bellperson src/gadgets/multieq.rs): batches equalities lhs_k = rhs_k of small
 * bit widths into one constraint (sum 2^s_k lhs_k) * 1 = (sum 2^s_k rhs_k), flushing whenever
 * the accumulated width would reach Fr::CAPACITY = 254 bits, and once more at the end. The
 * flush points fix where these constraints land in the R1CS.
 */

#include "cuzk/r1cs.h"

typedef struct {
    cuzk_cs *cs;
    cuzk_lc *lhs, *rhs;
    unsigned bits_used;
    size_t ops;
} cuzk_multieq;

void cuzk_multieq_init(cuzk_multieq *m, cuzk_cs *cs);
/* Makes room for an equality of |num_bits| bits: flushes the batch first when it would reach
 * the capacity (bellperson: before adding, after the caller's allocations). *shift receives
 * the bit offset at which the caller adds its terms (coefficients 2^(shift + i)) to m->lhs and
 * m->rhs; the caller must then call cuzk_multieq_commit(m, num_bits). */
cuzk_status cuzk_multieq_reserve(cuzk_multieq *m, unsigned num_bits,
                                 unsigned *shift) CUZK_WARN_UNUSED_RESULT;
void cuzk_multieq_commit(cuzk_multieq *m, unsigned num_bits);
/* The generic form: lhs = rhs over |num_bits| bits (scaled copies of the two LCs). */
cuzk_status cuzk_multieq_enforce_equal(cuzk_multieq *m, unsigned num_bits, const cuzk_lc *lhs,
                                       const cuzk_lc *rhs) CUZK_WARN_UNUSED_RESULT;
/* Flushes what is left (bellperson's Drop) and releases the LCs. Call exactly once. */
cuzk_status cuzk_multieq_finish(cuzk_multieq *m) CUZK_WARN_UNUSED_RESULT;

#endif

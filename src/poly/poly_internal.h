/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_POLY_POLY_INTERNAL_H
#define CUZK_POLY_POLY_INTERNAL_H

/*
 * Internals of src/poly: the domain layout and the four-step NTT passes shared by domain.c,
 * ntt.c and h.c.
 *
 * Layout. A vector of n = 2^l elements is viewed as n1 = 2^l_out rows of B = 2^l_in elements:
 * x[c + B*t], c < B (position in the row), t < n1 (row). A natural -> bit-reversed DFT is
 * (Bailey's four-step, in the bit-reversed form of a radix-2 DIF):
 *   1. a DIF of length n1 down every column c (stride B; done on a copy of |cols| adjacent
 *      columns so that the work stays in cache),
 *   2. x[c + B*t] *= w^(c * bitrev(t)) (the "diagonal"),
 *   3. a DIF of length B along every row.
 * Position c + B*t then holds X[bitrev_l(c + B*t)] = X[bitrev(t) + n1 * bitrev(c)], exactly the
 * order of a plain radix-2 DIF. The bit-reversed -> natural DIT is the transpose: rows, diagonal,
 * columns. Scalings by K * s^k at natural index k (coset shifts, 1/n) fold into these passes:
 * s^(B*t) per column row, K * s^c merges into the diagonal (same cost as the diagonal alone).
 * Small domains (l <= POLY_DIRECT_LOG, or l < POLY_X8_SPLIT_LOG where the 8-lane IFMA passes of
 * ntt.c are built) use one row (l_out = 0): a plain radix-2 transform.
 *
 * Twiddle tables are O(sqrt n) (tw[h + j] = w_2h^j serves every sub-transform of length <= 2^l_tw),
 * so creating even a 2^28 domain costs about a millisecond and a few MiB.
 */

#include "cuzk/poly.h"
#include "field/fr_inline.h"
#include "field/fr_ifma.h"

#include <stdbool.h>

/* Domains up to this size use the direct radix-2 path (one row); above, the four-step split. */
#define POLY_DIRECT_LOG 12
/* Where the 8-lane IFMA passes are built (CUZK_FR_HAVE_IFMA), the split from this size on:
 * 2^l_out >= 8 rows and rows of >= 16 columns, so both passes run 8 lanes wide. */
#define POLY_X8_SPLIT_LOG 7

enum { POLY_FWD = 0, POLY_INV = 1 };

struct cuzk_domain {
    unsigned log_n;
    size_t n;
    cuzk_roots roots;
    cuzk_fr_t omega, omega_inv; /* generator of the size-n subgroup and its inverse */
    cuzk_fr_t n_inv;
    cuzk_fr_t g, g_inv;   /* coset shift: 7 (bellperson) or omega_2n (snarkjs) */
    cuzk_fr_t z, z_inv;   /* g^n - 1 (the constant value of Z on the coset) and its inverse */
    cuzk_fr_t s, s_inv;   /* omega_2n (s^n = -1): the H step's coset, both families (h.c) */
    unsigned l_in, l_out; /* row length B = 2^l_in, rows n1 = 2^l_out */
    unsigned l_tw;        /* tw tables cover sub-transforms of length <= 2^l_tw */
    size_t cols;          /* columns per group in the column pass */
    cuzk_fr_t *tw[2];     /* [POLY_FWD/INV] tw[h + j] = w_2h^(+-j), 1 <= h < 2^l_tw, j < h */
    cuzk_fr_t *diag[2];   /* [dir][t] = omega^(+-bitrev_l_out(t)), t < n1 */
    cuzk_fr_t *row_s;     /* [t] = s^bitrev_l_out(t), t < n1 (cuzk__ntt_to_coset) */
    cuzk_fr_t *col_s;     /* [c] = (s^n1)^bitrev_l_in(c), c < B */
    /* The 8-lane IFMA passes (CUZK_FR_HAVE_IFMA): 16 tw and 16 col_s (factors of
     * fr52x8_mul_p) in radix 2^52, element i at [5 i .. 5 i + 4] (field/fr_ifma.h), broadcast as
     * the factor of 8 lanes. NULL otherwise. */
    uint64_t *tw52[2];
    uint64_t *col_s52;
    void *mem;         /* one allocation holding every table */
    bool col_in_place; /* tests: column pass without its scratch (the no-memory path) */
    bool scalar_only;  /* tests and benchmarks: the scalar passes even where IFMA is built */
};

/* Creates a domain of size 2^log_n with a forced split (tests and benchmarks): l_out rows
 * exponent (0 = direct radix-2, else 1 <= l_out < log_n) and |cols| columns per group
 * (a power of two <= 2^(log_n - l_out)). */
cuzk_status cuzk__domain_create_split(cuzk_domain **out, unsigned log_n, cuzk_roots roots,
                                      unsigned l_out, size_t cols) CUZK_WARN_UNUSED_RESULT;

/* A scaling by K * s^k at natural index k; |on| false means none. */
typedef struct {
    bool on;
    cuzk_fr_t k, s;
} poly_scale;

/* Natural -> bit-reversed DFT in direction |dir|, input first multiplied by |in| (natural index).
 */
void cuzk__ntt_dif(const cuzk_domain *d, cuzk_fr_t *x, int dir, const poly_scale *in,
                   cuzk_pool *pool);
/* Bit-reversed -> natural DFT in direction |dir|, output then multiplied by |out| (natural
 * index). */
void cuzk__ntt_dit(const cuzk_domain *d, cuzk_fr_t *x, int dir, const poly_scale *out,
                   cuzk_pool *pool);
/* Values on the domain -> values on the coset s * <omega> with s = omega_2n (iNTT, coefficient k
 * times s^k, NTT), natural order in and out, with no bit reversal: DIF(inverse), then
 * (1/n) * s^bitrev(p) at position p, then DIT(forward); the row passes of both transforms are
 * fused. For snarkjs domains s is the coset shift g; for bellperson domains it is not (g = 7):
 * the H step of h.c uses this coset for both. */
void cuzk__ntt_to_coset(const cuzk_domain *d, cuzk_fr_t *x, cuzk_pool *pool);
/* In-place bit-reversal permutation of the domain's n elements (an involution). */
void cuzk__bitrev_permute(const cuzk_domain *d, cuzk_fr_t *x, cuzk_pool *pool);

/* o = 16 a: a factor for fr52x8_mul_p (field/fr_ifma.h), whose Montgomery radix is 2^260. */
static inline void poly_x16(cuzk_fr_t *o, const cuzk_fr_t *a)
{
    fri_add(o, a, a);
    for (int i = 0; i < 3; i++)
        fri_add(o, o, o);
}

/* Reverses the low |bits| bits of |i|. */
static inline size_t poly_bitrev(size_t i, unsigned bits)
{
    uint64_t v = (uint64_t)i;
    v = ((v >> 1) & 0x5555555555555555ULL) | ((v & 0x5555555555555555ULL) << 1);
    v = ((v >> 2) & 0x3333333333333333ULL) | ((v & 0x3333333333333333ULL) << 2);
    v = ((v >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((v & 0x0f0f0f0f0f0f0f0fULL) << 4);
    v = __builtin_bswap64(v);
    return bits ? (size_t)(v >> (64 - bits)) : 0;
}

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_POLY_H
#define CUZK_POLY_H

/*
 * Evaluation domains over Fr and the NTT (CPU). Two root families exist (formats.md section 1):
 * bellperson/blst use 7-based roots of unity (omega_n = 7^(t * 2^(32-k))) and the coset
 * generator g = 7; snarkjs uses 5-based roots and evaluates on the "odd coset" omega_2n *
 * <omega_n>. Vectors are cuzk_fr_t in Montgomery form, natural order in and out.
 */

#include "cuzk/field.h"
#include "cuzk/threadpool.h"

#define CUZK_DOMAIN_MAX_LOG 28

typedef enum {
    CUZK_ROOTS_BELLPERSON = 0, /* 7-based roots, coset generator 7 */
    CUZK_ROOTS_SNARKJS = 1,    /* 5-based roots, odd coset omega_2n */
} cuzk_roots;

/* A domain of size n = 2^log_n with its twiddle tables (created once, reused; read-only
 * afterwards, so one domain may serve several threads at once). The tables take O(sqrt n)
 * memory (6.4 MiB at 2^28) and creation takes milliseconds at any size. */
typedef struct cuzk_domain cuzk_domain;

/* Smallest power-of-two domain with n >= |min_size| (log_n <= CUZK_DOMAIN_MAX_LOG; 0 and 1 give
 * n = 1). Returns: CUZK_OK; CUZK_ERR_INVALID_ARG for a size above 2^CUZK_DOMAIN_MAX_LOG or an
 * unknown |roots|; CUZK_ERR_NOMEM. *out is NULL on failure. Free with cuzk_domain_destroy. */
cuzk_status cuzk_domain_create(cuzk_domain **out, size_t min_size,
                               cuzk_roots roots) CUZK_WARN_UNUSED_RESULT;
/* NULL is a no-op. */
void cuzk_domain_destroy(cuzk_domain *d);
size_t cuzk_domain_size(const cuzk_domain *d);
unsigned cuzk_domain_log_size(const cuzk_domain *d);
/* The generator omega of the domain (order n). */
void cuzk_domain_omega(const cuzk_domain *d, cuzk_fr_t *out);
/* The coset shift g: 7 for bellperson, omega_2n for snarkjs. */
void cuzk_domain_coset_gen(const cuzk_domain *d, cuzk_fr_t *out);
/* g^n - 1, the constant value of Z(X) = X^n - 1 on the coset (-2 for snarkjs). */
void cuzk_domain_coset_z(const cuzk_domain *d, cuzk_fr_t *out);
/* omega_2n, the square root of omega of the domain's family (omega_2n^n = -1): the coset on which
 * cuzk_poly_h evaluates A and B for both families (for snarkjs it is the coset shift g). */
void cuzk_domain_omega_2n(const cuzk_domain *d, cuzk_fr_t *out);

/* In place, |a| has cuzk_domain_size(d) entries. |pool| may be NULL (one thread). The result
 * does not depend on the pool (exact arithmetic). Transforms above 2^12 allocate a scratch of
 * up to 2 MiB per thread per call; if that fails they work in place, slower, with the same
 * result. */
void cuzk_ntt(const cuzk_domain *d, cuzk_fr_t *a, cuzk_pool *pool);  /* coefficients -> values */
void cuzk_intt(const cuzk_domain *d, cuzk_fr_t *a, cuzk_pool *pool); /* values -> coefficients */
/* Evaluate on / interpolate from the domain's coset (g * omega^i for bellperson, omega_2n *
 * omega^i for snarkjs). */
void cuzk_coset_ntt(const cuzk_domain *d, cuzk_fr_t *a, cuzk_pool *pool);
void cuzk_coset_intt(const cuzk_domain *d, cuzk_fr_t *a, cuzk_pool *pool);

/*
 * The H step of a Groth16 prover. a, b, c hold the constraint evaluations (zero-padded to n).
 * BELLPERSON domain (formats.md 3.4): on return a[0 .. n-2] are the coefficients of
 * h = (A B - C) / (X^n - 1), A, B, C interpolating a, b, c on the domain (a[n-1] is 0 for a
 * satisfied system). For a satisfied system (c = a * b entrywise) C = A B mod (X^n - 1), so h is
 * the high half of the product A B, which this computes with one transform fewer than formats.md's
 * recipe (iNTT, coset NTT of a, b, c; (a b - c) / (g^n - 1); coset iNTT): with s = omega_2n,
 * N = A B mod (X^n + 1) is the coset-s iNTT of (A B)(s omega^i), and h = (C - N) / 2, C = iNTT(c).
 * The result equals the recipe's for every satisfied system; for an unsatisfied one (no valid
 * proof exists) it is (C - N) / 2, which differs from the recipe's (whose value depends on g).
 * SNARKJS domain (formats.md 4.6): iNTT, coset NTT of a, b, c, then a := a*b - c (values on the
 * odd coset, no division, no final iNTT): the n scalars of the zkey H points (Montgomery form;
 * convert to standard form for the MSM).
 * b and c are clobbered. Costs 6 transforms' worth of passes for both families, with two
 * bit-reversal permutations (bellperson) or none (snarkjs).
 */
void cuzk_poly_h(const cuzk_domain *d, cuzk_fr_t *a, cuzk_fr_t *b, cuzk_fr_t *c, cuzk_pool *pool);

#endif

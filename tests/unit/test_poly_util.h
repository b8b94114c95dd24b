/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_TESTS_POLY_UTIL_H
#define CUZK_TESTS_POLY_UTIL_H

/* Helpers for the src/poly tests (test_poly.c, test_poly_h.c). */

#include "test.h"
#include "test_fr.h"
#include "cuzk/alloc.h"
#include "cuzk/poly.h"

static inline void rand_vec(cuzk_fr_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        test_rand_fr(&v[i]);
}

static inline cuzk_fr_t *vec_alloc(size_t n)
{
    cuzk_fr_t *v = cuzk_alloc_array(n ? n : 1, sizeof *v);
    CHECK(v != NULL);
    return v;
}

static inline void fr_pow_u64(cuzk_fr_t *out, const cuzk_fr_t *a, uint64_t e)
{
    cuzk_fr_pow(out, a, &e, 1);
}

/* p(x) for coefficients p[0..n). */
static inline void horner(cuzk_fr_t *out, const cuzk_fr_t *p, size_t n, const cuzk_fr_t *x)
{
    cuzk_fr_set_zero(out);
    for (size_t i = n; i-- > 0;) {
        cuzk_fr_mul(out, out, x);
        cuzk_fr_add(out, out, &p[i]);
    }
}

static inline bool vec_eq(const cuzk_fr_t *a, const cuzk_fr_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!cuzk_fr_eq(&a[i], &b[i]))
            return false;
    return true;
}

static inline cuzk_domain *domain(size_t n, cuzk_roots roots)
{
    cuzk_domain *d = NULL;
    CHECK(cuzk_domain_create(&d, n, roots) == CUZK_OK);
    CHECK(d != NULL);
    return d;
}

static const cuzk_roots families[2] = {CUZK_ROOTS_BELLPERSON, CUZK_ROOTS_SNARKJS};

#endif

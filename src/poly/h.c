/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The H step of a Groth16 prover for both root families (formats.md 3.4 and 4.6). */
#include "poly/poly_internal.h"

#define POLY_H_CHUNK ((size_t)1 << 13)

typedef struct {
    cuzk_fr_t *a;
    const cuzk_fr_t *b, *c;
    size_t n;
    bool scalar_only;
} abc_ctx;

/* a := a * b - c on one chunk. */
static void abc_task(void *p, size_t i)
{
    const abc_ctx *x = p;
    size_t lo = i * POLY_H_CHUNK, hi = lo + POLY_H_CHUNK < x->n ? lo + POLY_H_CHUNK : x->n;
#if CUZK_FR_HAVE_IFMA
    /* 8 at a time: a, b canonical, so a b < r R and the product is < 2r (field/fr_ifma.h); the
     * subtraction keeps [0, 2r) and the store makes it canonical. */
    for (; lo + 8 <= hi && !x->scalar_only; lo += 8) {
        fr52x8 va, vb, vc;
        fr52x8_load(&va, x->a + lo);
        fr52x8_load(&vb, x->b + lo);
        fr52x8_load(&vc, x->c + lo);
        fr52x8_mul(&va, &va, &vb);
        fr52x8_sub(&va, &va, &vc);
        fr52x8_store(x->a + lo, &va);
    }
#endif
    for (size_t k = lo; k < hi; k++) {
        poly_mul(&x->a[k], &x->a[k], &x->b[k]);
        poly_sub(&x->a[k], &x->a[k], &x->c[k]);
    }
}

void cuzk_poly_h(const cuzk_domain *d, cuzk_fr_t *a, cuzk_fr_t *b, cuzk_fr_t *c, cuzk_pool *pool)
{
    /* iNTT then coset NTT of each vector, as one fused transform with no bit reversal. */
    cuzk__ntt_to_coset(d, a, pool);
    cuzk__ntt_to_coset(d, b, pool);
    cuzk__ntt_to_coset(d, c, pool);
    abc_ctx x = {a, b, c, d->n, d->scalar_only};
    cuzk_pool_run(pool, (d->n + POLY_H_CHUNK - 1) / POLY_H_CHUNK, abc_task, &x);
    if (d->roots == CUZK_ROOTS_SNARKJS)
        return; /* snarkjs keeps the coset values (formats.md 4.6 step 4) */
    /* bellperson: divide by Z = g^n - 1 (a constant on the coset) and interpolate back from the
     * coset; the division rides on the coset iNTT's 1/n factor. */
    poly_scale sc = {true, d->n_inv, d->g_inv};
    poly_mul(&sc.k, &sc.k, &d->z_inv);
    cuzk__bitrev_permute(d, a, pool);
    cuzk__ntt_dit(d, a, POLY_INV, &sc, pool);
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The H step of a Groth16 prover for both root families (formats.md 3.4 and 4.6). */
#include "poly/poly_internal.h"

#define POLY_H_CHUNK ((size_t)1 << 13)

/* The entrywise steps of the H step. */
typedef enum {
    H_MUL_SUB, /* a := a * b - c (snarkjs: the values on the odd coset) */
    H_MUL,     /* a := a * b */
    H_ADD,     /* a := a + b */
} h_op;

typedef struct {
    cuzk_fr_t *a;
    const cuzk_fr_t *b, *c;
    size_t n;
    h_op op;
    bool scalar_only;
} abc_ctx;

static void abc_task(void *p, size_t i)
{
    const abc_ctx *x = p;
    size_t lo = i * POLY_H_CHUNK, hi = lo + POLY_H_CHUNK < x->n ? lo + POLY_H_CHUNK : x->n;
#if CUZK_FR_HAVE_IFMA
    /* 8 at a time: a, b canonical, so a b < r R and the product is < 2r (field/fr_ifma.h); the
     * sum or difference keeps [0, 2r) and the store makes it canonical. */
    for (; lo + 8 <= hi && !x->scalar_only; lo += 8) {
        fr52x8 va, vb, vc;
        fr52x8_load(&va, x->a + lo);
        fr52x8_load(&vb, x->b + lo);
        if (x->op == H_ADD) {
            fr52x8_add(&va, &va, &vb);
        } else {
            fr52x8_mul(&va, &va, &vb);
            if (x->op == H_MUL_SUB) {
                fr52x8_load(&vc, x->c + lo);
                fr52x8_sub(&va, &va, &vc);
            }
        }
        fr52x8_store(x->a + lo, &va);
    }
#endif
    for (size_t k = lo; k < hi; k++) {
        if (x->op == H_ADD) {
            fri_add(&x->a[k], &x->a[k], &x->b[k]);
            continue;
        }
        fri_mul(&x->a[k], &x->a[k], &x->b[k]);
        if (x->op == H_MUL_SUB)
            fri_sub(&x->a[k], &x->a[k], &x->c[k]);
    }
}

static void entrywise(const cuzk_domain *d, h_op op, cuzk_fr_t *a, const cuzk_fr_t *b,
                      const cuzk_fr_t *c, cuzk_pool *pool)
{
    abc_ctx x = {a, b, c, d->n, op, d->scalar_only};
    cuzk_pool_run(pool, (d->n + POLY_H_CHUNK - 1) / POLY_H_CHUNK, abc_task, &x);
}

void cuzk_poly_h(const cuzk_domain *d, cuzk_fr_t *a, cuzk_fr_t *b, cuzk_fr_t *c, cuzk_pool *pool)
{
    /* A and B on the coset s<omega>, s = omega_2n: iNTT then coset NTT as one fused transform
     * with no bit reversal. */
    cuzk__ntt_to_coset(d, a, pool);
    cuzk__ntt_to_coset(d, b, pool);
    if (d->roots == CUZK_ROOTS_SNARKJS) {
        /* snarkjs keeps the values of A B - C on the coset (formats.md 4.6 step 4) */
        cuzk__ntt_to_coset(d, c, pool);
        entrywise(d, H_MUL_SUB, a, b, c, pool);
        return;
    }
    /* bellperson (cuzk/poly.h): A B = L + X^n U with deg L < n, deg U < n - 1; on the coset
     * X^n = -1, so the coset iNTT of A B's values there is N = L - U, while C = L + U and
     * h = U = (C - N) / 2. The halving and the 1/n ride on the two inverse transforms. */
    entrywise(d, H_MUL, a, b, NULL, pool);
    cuzk_fr_t two, half;
    cuzk_fr_set_u64(&two, 2);
    cuzk_fr_inv_vartime(&half, &two);
    poly_scale sn = {true, {{0}}, d->s_inv}; /* -N / 2 */
    fri_mul(&sn.k, &d->n_inv, &half);
    cuzk_fr_neg(&sn.k, &sn.k);
    cuzk__bitrev_permute(d, a, pool);
    cuzk__ntt_dit(d, a, POLY_INV, &sn, pool);
    poly_scale sc = {true, {{0}}, {{0}}}; /* C / 2 */
    fri_mul(&sc.k, &d->n_inv, &half);
    cuzk_fr_set_one(&sc.s);
    cuzk__bitrev_permute(d, c, pool);
    cuzk__ntt_dit(d, c, POLY_INV, &sc, pool);
    entrywise(d, H_ADD, a, c, NULL, pool);
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* `cuzk-bench pairing`: tower arithmetic, Miller loop, final exponentiation, pairings. */
#include "bench.h"

#include <stdio.h>

#include "cuzk/pairing.h"

/* Deterministic inputs (xorshift64*; any values below p do). */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rng_next(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dULL;
}

static void rand_fp(cuzk_fp_t *out)
{
    uint64_t l[6];
    for (int i = 0; i < 6; i++)
        l[i] = rng_next();
    l[5] &= 0x0fffffffffffffffULL;
    if (!cuzk_fp_from_canonical(out, l))
        cuzk_fp_set_one(out);
}

static void rand_fp2(cuzk_fp2_t *out)
{
    rand_fp(&out->c0);
    rand_fp(&out->c1);
}

static void rand_fp12(cuzk_fp12_t *out)
{
    cuzk_fp2_t *c[6] = {&out->c0.c0, &out->c0.c1, &out->c0.c2,
                        &out->c1.c0, &out->c1.c1, &out->c1.c2};
    for (int i = 0; i < 6; i++)
        rand_fp2(c[i]);
}

static void rand_fr(cuzk_fr_t *out)
{
    uint64_t l[4];
    for (int i = 0; i < 4; i++)
        l[i] = rng_next();
    l[3] &= 0x3fffffffffffffffULL;
    if (!cuzk_fr_from_canonical(out, l))
        cuzk_fr_set_one(out);
}

typedef struct {
    cuzk_fp2_t a2, b2;
    cuzk_fp12_t a, b, cyc, f;
    cuzk_g1_affine_t p[4];
    cuzk_g2_affine_t q[4];
} ctx_t;

static void b_fp2_mul(void *c_, uint64_t reps)
{
    ctx_t *c = c_;
    for (uint64_t i = 0; i < reps; i++)
        cuzk_fp2_mul(&c->a2, &c->a2, &c->b2);
    bench_sink(&c->a2, sizeof c->a2);
}

static void b_fp2_sqr(void *c_, uint64_t reps)
{
    ctx_t *c = c_;
    for (uint64_t i = 0; i < reps; i++)
        cuzk_fp2_sqr(&c->a2, &c->a2);
    bench_sink(&c->a2, sizeof c->a2);
}

static void b_fp12_mul(void *c_, uint64_t reps)
{
    ctx_t *c = c_;
    for (uint64_t i = 0; i < reps; i++)
        cuzk_fp12_mul(&c->a, &c->a, &c->b);
    bench_sink(&c->a, sizeof c->a);
}

static void b_fp12_sqr(void *c_, uint64_t reps)
{
    ctx_t *c = c_;
    for (uint64_t i = 0; i < reps; i++)
        cuzk_fp12_sqr(&c->a, &c->a);
    bench_sink(&c->a, sizeof c->a);
}

static void b_fp12_cyclotomic_sqr(void *c_, uint64_t reps)
{
    ctx_t *c = c_;
    for (uint64_t i = 0; i < reps; i++)
        cuzk_fp12_cyclotomic_sqr(&c->cyc, &c->cyc);
    bench_sink(&c->cyc, sizeof c->cyc);
}

static void b_fp12_inv(void *c_, uint64_t reps)
{
    ctx_t *c = c_;
    for (uint64_t i = 0; i < reps; i++)
        cuzk_fp12_inv(&c->a, &c->a);
    bench_sink(&c->a, sizeof c->a);
}

static void b_miller_loop(void *c_, uint64_t reps)
{
    ctx_t *c = c_;
    for (uint64_t i = 0; i < reps; i++)
        cuzk_miller_loop(&c->f, &c->p[0], &c->q[0]);
    bench_sink(&c->f, sizeof c->f);
}

static void b_final_exp(void *c_, uint64_t reps)
{
    ctx_t *c = c_;
    cuzk_fp12_t out;
    for (uint64_t i = 0; i < reps; i++)
        cuzk_final_exp(&out, &c->f);
    bench_sink(&out, sizeof out);
}

static void b_pairing(void *c_, uint64_t reps)
{
    ctx_t *c = c_;
    cuzk_fp12_t out;
    for (uint64_t i = 0; i < reps; i++)
        cuzk_pairing(&out, &c->p[0], &c->q[0]);
    bench_sink(&out, sizeof out);
}

static void b_multi_pairing_4(void *c_, uint64_t reps)
{
    ctx_t *c = c_;
    cuzk_fp12_t out;
    for (uint64_t i = 0; i < reps; i++)
        cuzk_multi_pairing(&out, c->p, c->q, 4);
    bench_sink(&out, sizeof out);
}

int bench_pairing_main(const bench_opts *o)
{
    static ctx_t c;
    rand_fp2(&c.a2);
    rand_fp2(&c.b2);
    rand_fp12(&c.a);
    rand_fp12(&c.b);
    /* A cyclotomic-subgroup element: the easy part of the final exponentiation of a. */
    cuzk_fp12_t t;
    cuzk_fp12_inv(&t, &c.a);
    cuzk_fp12_conj(&c.cyc, &c.a);
    cuzk_fp12_mul(&c.cyc, &c.cyc, &t);
    cuzk_fp12_frobenius(&t, &c.cyc, 2);
    cuzk_fp12_mul(&c.cyc, &t, &c.cyc);
    /* Pairing inputs: random multiples of the generators. */
    cuzk_g1_affine_t g1;
    cuzk_g2_affine_t g2;
    cuzk_g1_generator(&g1);
    cuzk_g2_generator(&g2);
    for (int i = 0; i < 4; i++) {
        cuzk_fr_t k;
        cuzk_g1_jac_t j1;
        cuzk_g2_jac_t j2;
        rand_fr(&k);
        cuzk_g1_from_affine(&j1, &g1);
        cuzk_g1_mul(&j1, &j1, &k);
        cuzk_g1_to_affine(&c.p[i], &j1);
        rand_fr(&k);
        cuzk_g2_from_affine(&j2, &g2);
        cuzk_g2_mul(&j2, &j2, &k);
        cuzk_g2_to_affine(&c.q[i], &j2);
    }
    cuzk_miller_loop(&c.f, &c.p[0], &c.q[0]);

    bench_run(o, "fp2_mul", 0, b_fp2_mul, &c);
    bench_run(o, "fp2_sqr", 0, b_fp2_sqr, &c);
    bench_run(o, "fp12_mul", 0, b_fp12_mul, &c);
    bench_run(o, "fp12_sqr", 0, b_fp12_sqr, &c);
    bench_run(o, "fp12_cyclotomic_sqr", 0, b_fp12_cyclotomic_sqr, &c);
    bench_run(o, "fp12_inv", 0, b_fp12_inv, &c);
    bench_run(o, "miller_loop", 1, b_miller_loop, &c);
    bench_run(o, "final_exp", 0, b_final_exp, &c);
    bench_run(o, "pairing", 1, b_pairing, &c);
    bench_run(o, "multi_pairing_4", 4, b_multi_pairing_4, &c);

    /* Groth16 verification benchmarks (groth16_verify) go here. */
    return 0;
}

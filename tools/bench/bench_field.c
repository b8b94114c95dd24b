/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Field micro-benchmarks (cuzk-bench field). Every body is a dependency chain: the output of
 * one operation is the input of the next, so the figures are latencies and nothing can be
 * optimised away or overlapped. Operations that would cycle (inv(inv(x)) = x) or stall
 * (sqrt of a non-square) add one, which costs a few ns next to microseconds.
 * fp_mul_portable / fp_mul_asm (and the sqr pair) run both Fp back ends in the same process
 * for an A/B comparison; fp_mul / fp_sqr are whatever the library uses by default, and
 * fp_sqr_asm_mul is the asm multiplication with a == b, the alternative to the dedicated
 * asm squaring.
 * The *_t32 rows are throughput, not latency: each repetition is 32 independent products (32
 * scalar chains, or 4 chains of 8-lane IFMA vectors), so the figure is ns per 32 products.
 * fp_mul_asm_t32 is the scalar asm; fp_mul_x8_t32 the IFMA entry point with its 6x64 <-> 8x52
 * conversion per call; fp52_mul_t32 the IFMA multiplication on operands kept in radix 2^52.
 * fp52_mul_chain is one dependency chain of 8-lane multiplications (latency per 8 products).
 * fp2_mul is the library's Fp2 product (with the x86-64 back end: two reductions,
 * cuzk__fp2_mul_adx), fp2_mul_3red the Karatsuba over three Montgomery products it replaced;
 * the _t16 rows are 16 independent chains of each.
 * fr_mul_portable / fr_mul_asm and fr_sqr_portable / fr_sqr_asm are the same A/B pair for Fr's
 * back ends (src/field/fr_x86_64.c); fr_sqr_asm_mul is the Fr asm multiplication with a == b.
 */
#include "bench.h"
#include "cuzk/field.h"
#include "field/fp_ifma.h"
#include "field/fp_internal.h"
#include "field/fr_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH 1024

typedef struct {
    cuzk_fp_t fx, fy, fone, ftwo;
    cuzk_fr_t rx, ry, rone;
    cuzk_fp2_t x2, y2;
    cuzk_fp_t *bin, *bout;
    cuzk_fp_t tv[32], tw[32];
    cuzk_fp2_t t2[16], u2[16];
#if CUZK_FP_HAVE_IFMA
    fp52x8 v52[4], w52;
#endif
} state;

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Fixed pseudo-random elements so that runs are comparable. */
static void fp_random(cuzk_fp_t *out, uint64_t *seed)
{
    uint64_t l[CUZK_FP_LIMBS];
    do {
        for (int i = 0; i < CUZK_FP_LIMBS; i++)
            l[i] = splitmix(seed);
        l[5] &= 0x1fffffffffffffffULL;
    } while (!cuzk_fp_from_canonical(out, l));
}

static void fr_random(cuzk_fr_t *out, uint64_t *seed)
{
    uint64_t l[CUZK_FR_LIMBS];
    do {
        for (int i = 0; i < CUZK_FR_LIMBS; i++)
            l[i] = splitmix(seed);
        l[3] &= 0x7fffffffffffffffULL;
    } while (!cuzk_fr_from_canonical(out, l));
}

/* One benchmark body: |stmt| runs |reps| times with |s| the state. */
#define BENCH(name, stmt)                                                                          \
    static void name(void *ctx, uint64_t reps)                                                     \
    {                                                                                              \
        state *s = ctx;                                                                            \
        for (uint64_t i = 0; i < reps; i++) {                                                      \
            stmt;                                                                                  \
        }                                                                                          \
        bench_sink(s, sizeof *s);                                                                  \
    }

BENCH(b_fp_mul, cuzk_fp_mul(&s->fx, &s->fx, &s->fy))
BENCH(b_fp_mul_portable, cuzk_fp_mul_portable(s->fx.l, s->fx.l, s->fy.l))
BENCH(b_fp_sqr, cuzk_fp_sqr(&s->fx, &s->fx))
BENCH(b_fp_sqr_portable, cuzk_fp_mul_portable(s->fx.l, s->fx.l, s->fx.l))
#if CUZK_FP_HAVE_ADX
BENCH(b_fp_mul_asm, cuzk__fp_mul_adx(s->fx.l, s->fx.l, s->fy.l))
BENCH(b_fp_sqr_asm, cuzk__fp_sqr_adx(s->fx.l, s->fx.l))
BENCH(b_fp_sqr_asm_mul, cuzk__fp_mul_adx(s->fx.l, s->fx.l, s->fx.l))
#endif
#if CUZK_FP_HAVE_ADX
BENCH(b_fp_mul_asm_t32,
      for (int k = 0; k < 32; k++) cuzk__fp_mul_adx(s->tv[k].l, s->tv[k].l, s->tw[k].l))
BENCH(b_fp_sqr_asm_t32, for (int k = 0; k < 32; k++) cuzk__fp_sqr_adx(s->tv[k].l, s->tv[k].l))
#endif
#if CUZK_FP_HAVE_IFMA
BENCH(b_fp_mul_x8_t32,
      for (int k = 0; k < 32; k += 8) cuzk__fp_mul_x8(&s->tv[k], &s->tv[k], &s->tw[k]))
BENCH(b_fp_sqr_x8_t32, for (int k = 0; k < 32; k += 8) cuzk__fp_sqr_x8(&s->tv[k], &s->tv[k]))
BENCH(b_fp52_mul_t32, for (int k = 0; k < 4; k++) fp52x8_mul(&s->v52[k], &s->v52[k], &s->w52))
BENCH(b_fp52_sqr_t32, for (int k = 0; k < 4; k++) fp52x8_sqr(&s->v52[k], &s->v52[k]))
BENCH(b_fp52_mul_chain, fp52x8_mul(&s->v52[0], &s->v52[0], &s->w52))
#endif
BENCH(b_fp_add, cuzk_fp_add(&s->fx, &s->fx, &s->fy))
BENCH(b_fp_sub, cuzk_fp_sub(&s->fx, &s->fx, &s->fy))
BENCH(b_fp_inv, cuzk_fp_inv(&s->fx, &s->fx); cuzk_fp_add(&s->fx, &s->fx, &s->fone))
BENCH(b_fp_inv_vartime, cuzk_fp_inv_vartime(&s->fx, &s->fx); cuzk_fp_add(&s->fx, &s->fx, &s->fone))
BENCH(b_fp_sqrt, cuzk_fp_t t = s->fx; (void)cuzk_fp_sqrt(&t, &s->fx);
      cuzk_fp_add(&s->fx, &t, &s->fone))
BENCH(b_fp_legendre, int l = cuzk_fp_legendre(&s->fx);
      cuzk_fp_add(&s->fx, &s->fx, l == 1 ? &s->fone : &s->ftwo))
BENCH(b_fr_mul, cuzk_fr_mul(&s->rx, &s->rx, &s->ry))
BENCH(b_fr_sqr, cuzk_fr_sqr(&s->rx, &s->rx))
BENCH(b_fr_mul_portable, cuzk_fr_mul_portable(s->rx.l, s->rx.l, s->ry.l))
BENCH(b_fr_sqr_portable, cuzk_fr_mul_portable(s->rx.l, s->rx.l, s->rx.l))
#if CUZK_FR_HAVE_ADX
BENCH(b_fr_mul_asm, cuzk__fr_mul_adx(s->rx.l, s->rx.l, s->ry.l))
BENCH(b_fr_sqr_asm, cuzk__fr_sqr_adx(s->rx.l, s->rx.l))
BENCH(b_fr_sqr_asm_mul, cuzk__fr_mul_adx(s->rx.l, s->rx.l, s->rx.l))
#endif
BENCH(b_fr_add, cuzk_fr_add(&s->rx, &s->rx, &s->ry))
BENCH(b_fr_inv, cuzk_fr_inv(&s->rx, &s->rx); cuzk_fr_add(&s->rx, &s->rx, &s->rone))
BENCH(b_fr_inv_vartime, cuzk_fr_inv_vartime(&s->rx, &s->rx); cuzk_fr_add(&s->rx, &s->rx, &s->rone))
BENCH(b_fr_sqrt, cuzk_fr_t t = s->rx; (void)cuzk_fr_sqrt(&t, &s->rx);
      cuzk_fr_add(&s->rx, &t, &s->rone))
BENCH(b_fp2_mul, cuzk_fp2_mul(&s->x2, &s->x2, &s->y2))
BENCH(b_fp2_mul_t16, for (int k = 0; k < 16; k++) cuzk_fp2_mul(&s->t2[k], &s->t2[k], &s->u2[k]))
#if CUZK_FP_HAVE_ADX
/* The Fp2 product before cuzk__fp2_mul_adx: Karatsuba over three Montgomery products. */
static void fp2_mul_3red(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    cuzk_fp_t t0, t1, s0, s1;
    cuzk__fp_mul_adx(t0.l, a->c0.l, b->c0.l);
    cuzk__fp_mul_adx(t1.l, a->c1.l, b->c1.l);
    cuzk_fp_add(&s0, &a->c0, &a->c1);
    cuzk_fp_add(&s1, &b->c0, &b->c1);
    cuzk__fp_mul_adx(s0.l, s0.l, s1.l);
    cuzk_fp_sub(&r->c0, &t0, &t1);
    cuzk_fp_sub(&s0, &s0, &t0);
    cuzk_fp_sub(&r->c1, &s0, &t1);
}
BENCH(b_fp2_mul_3red, fp2_mul_3red(&s->x2, &s->x2, &s->y2))
BENCH(b_fp2_mul_3red_t16,
      for (int k = 0; k < 16; k++) fp2_mul_3red(&s->t2[k], &s->t2[k], &s->u2[k]))
#endif
BENCH(b_fp2_sqr, cuzk_fp2_sqr(&s->x2, &s->x2))

/* Per element: |reps| elements in batches of BATCH (a final partial batch only while the
 * harness calibrates), each batch inverting the previous batch's output. */
static void b_fp_batch_inv(void *ctx, uint64_t reps)
{
    state *s = ctx;
    while (reps > 0) {
        size_t n = reps < BATCH ? (size_t)reps : BATCH;
        cuzk_fp_batch_inv(s->bout, s->bin, n);
        cuzk_fp_t *t = s->bin;
        s->bin = s->bout;
        s->bout = t;
        reps -= n;
    }
    bench_sink(s->bin, BATCH * sizeof *s->bin);
}

int bench_field_main(const bench_opts *o)
{
    /* 64-byte aligned: the state holds AVX-512 vectors. */
    state *s = aligned_alloc(64, (sizeof(state) + 63) / 64 * 64);
    if (s)
        memset(s, 0, sizeof *s);
    cuzk_fp_t *bufs = calloc(2 * BATCH, sizeof *bufs);
    if (!s || !bufs) {
        fprintf(stderr, "cuzk-bench field: out of memory\n");
        free(s);
        free(bufs);
        return 2;
    }
    uint64_t seed = 0x637a6b2d6669656cULL;
    fp_random(&s->fx, &seed);
    fp_random(&s->fy, &seed);
    cuzk_fp_set_one(&s->fone);
    cuzk_fp_set_u64(&s->ftwo, 2);
    fr_random(&s->rx, &seed);
    fr_random(&s->ry, &seed);
    cuzk_fr_set_one(&s->rone);
    fp_random(&s->x2.c0, &seed);
    fp_random(&s->x2.c1, &seed);
    fp_random(&s->y2.c0, &seed);
    fp_random(&s->y2.c1, &seed);
    s->bin = bufs;
    s->bout = bufs + BATCH;
    for (size_t i = 0; i < BATCH; i++)
        fp_random(&s->bin[i], &seed);
    for (size_t i = 0; i < 32; i++) {
        fp_random(&s->tv[i], &seed);
        fp_random(&s->tw[i], &seed);
    }
    for (size_t i = 0; i < 16; i++) {
        s->t2[i].c0 = s->tv[2 * i];
        s->t2[i].c1 = s->tv[2 * i + 1];
        s->u2[i].c0 = s->tw[2 * i];
        s->u2[i].c1 = s->tw[2 * i + 1];
    }
#if CUZK_FP_HAVE_IFMA
    for (size_t i = 0; i < 4; i++)
        fp52x8_load(&s->v52[i], &s->tv[8 * i]);
    fp52x8_load(&s->w52, s->tw);
#endif

    if (!o->json)
        printf("# fp_mul/fp_sqr back end: %s\n", cuzk__fp_mul_impl_name());
    static const struct {
        const char *name;
        uint64_t size;
        bench_fn fn;
    } list[] = {
        {"fp_mul", 0, b_fp_mul},
        {"fp_mul_portable", 0, b_fp_mul_portable},
#if CUZK_FP_HAVE_ADX
        {"fp_mul_asm", 0, b_fp_mul_asm},
#endif
        {"fp_sqr", 0, b_fp_sqr},
        {"fp_sqr_portable", 0, b_fp_sqr_portable},
#if CUZK_FP_HAVE_ADX
        {"fp_sqr_asm", 0, b_fp_sqr_asm},
        {"fp_sqr_asm_mul", 0, b_fp_sqr_asm_mul},
#endif
#if CUZK_FP_HAVE_ADX
        {"fp_mul_asm_t32", 32, b_fp_mul_asm_t32},
        {"fp_sqr_asm_t32", 32, b_fp_sqr_asm_t32},
#endif
#if CUZK_FP_HAVE_IFMA
        {"fp_mul_x8_t32", 32, b_fp_mul_x8_t32},
        {"fp_sqr_x8_t32", 32, b_fp_sqr_x8_t32},
        {"fp52_mul_t32", 32, b_fp52_mul_t32},
        {"fp52_sqr_t32", 32, b_fp52_sqr_t32},
        {"fp52_mul_chain", 8, b_fp52_mul_chain},
#endif
        {"fp_add", 0, b_fp_add},
        {"fp_sub", 0, b_fp_sub},
        {"fp_inv", 0, b_fp_inv},
        {"fp_inv_vartime", 0, b_fp_inv_vartime},
        {"fp_sqrt", 0, b_fp_sqrt},
        {"fp_legendre", 0, b_fp_legendre},
        {"fp_batch_inv", BATCH, b_fp_batch_inv},
        {"fr_mul", 0, b_fr_mul},
        {"fr_mul_portable", 0, b_fr_mul_portable},
#if CUZK_FR_HAVE_ADX
        {"fr_mul_asm", 0, b_fr_mul_asm},
#endif
        {"fr_sqr", 0, b_fr_sqr},
        {"fr_sqr_portable", 0, b_fr_sqr_portable},
#if CUZK_FR_HAVE_ADX
        {"fr_sqr_asm", 0, b_fr_sqr_asm},
        {"fr_sqr_asm_mul", 0, b_fr_sqr_asm_mul},
#endif
        {"fr_add", 0, b_fr_add},
        {"fr_inv", 0, b_fr_inv},
        {"fr_inv_vartime", 0, b_fr_inv_vartime},
        {"fr_sqrt", 0, b_fr_sqrt},
        {"fp2_mul", 0, b_fp2_mul},
        {"fp2_mul_t16", 16, b_fp2_mul_t16},
#if CUZK_FP_HAVE_ADX
        {"fp2_mul_3red", 0, b_fp2_mul_3red},
        {"fp2_mul_3red_t16", 16, b_fp2_mul_3red_t16},
#endif
        {"fp2_sqr", 0, b_fp2_sqr},
    };
    for (size_t i = 0; i < sizeof list / sizeof list[0]; i++)
        bench_run(o, list[i].name, list[i].size, list[i].fn, s);
    free(bufs);
    free(s);
    return 0;
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Inputs and edge cases shared by the CPU MSM tests (test_msm.c, test_msm_job.c). */
#ifndef CUZK_TEST_MSM_UTIL_H
#define CUZK_TEST_MSM_UTIL_H

#include "test.h"
#include "cuzk/alloc.h"
#include "cuzk/msm.h"

#include <string.h>

/* Instrumented (ASan) builds run about five times slower: they skip the largest cases of the
 * slowest tests, which exercise no code path the smaller ones miss. */
#if defined(__SANITIZE_ADDRESS__)
#define SLOW_BUILD 1
#else
#define SLOW_BUILD 0
#endif

/* The group order r, little-endian limbs. */
static const uint64_t R_LIMBS[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                    0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};

static inline void rand_fr(cuzk_fr_t *out)
{
    uint64_t l[4];
    do {
        test_rand_bytes(l, sizeof l);
        l[3] &= 0x7fffffffffffffffULL;
    } while (!cuzk_fr_from_canonical(out, l));
}

/* ---- points ------------------------------------------------------------------------------ */

/* |n| random points of G1: the generator times random scalars, batch-normalised. */
static inline cuzk_g1_affine_t *g1_points(size_t n)
{
    cuzk_g1_affine_t *out = cuzk_alloc_array(n ? n : 1, sizeof *out);
    cuzk_g1_jac_t *tmp = cuzk_alloc_array(n ? n : 1, sizeof *tmp);
    CHECK(out && tmp);
    cuzk_g1_affine_t g;
    cuzk_g1_jac_t gj;
    cuzk_g1_generator(&g);
    cuzk_g1_from_affine(&gj, &g);
    for (size_t i = 0; i < n; i++) {
        cuzk_fr_t k;
        rand_fr(&k);
        cuzk_g1_mul_vartime(&tmp[i], &gj, &k);
    }
    cuzk_g1_batch_to_affine(out, tmp, n);
    cuzk_free(tmp);
    return out;
}

static inline cuzk_g2_affine_t *g2_points(size_t n)
{
    cuzk_g2_affine_t *out = cuzk_alloc_array(n ? n : 1, sizeof *out);
    cuzk_g2_jac_t *tmp = cuzk_alloc_array(n ? n : 1, sizeof *tmp);
    CHECK(out && tmp);
    cuzk_g2_affine_t g;
    cuzk_g2_jac_t gj;
    cuzk_g2_generator(&g);
    cuzk_g2_from_affine(&gj, &g);
    for (size_t i = 0; i < n; i++) {
        cuzk_fr_t k;
        rand_fr(&k);
        cuzk_g2_mul_vartime(&tmp[i], &gj, &k);
    }
    cuzk_g2_batch_to_affine(out, tmp, n);
    cuzk_free(tmp);
    return out;
}

/* Base layouts derived from a table of distinct points. */
enum { BASES_DISTINCT, BASES_SAME, BASES_SOME_INFINITY, BASES_PLUS_MINUS, BASES_COUNT };
static const char *const BASES_NAME[] = {"distinct", "same", "some-infinity", "plus-minus"};

#define DEFINE_LAYOUT(G, AFF)                                                                      \
    static inline void G##_layout(AFF *out, const AFF *pts, size_t n, int kind)                    \
    {                                                                                              \
        for (size_t i = 0; i < n; i++) {                                                           \
            out[i] = pts[i];                                                                       \
            if (kind == BASES_SAME)                                                                \
                out[i] = pts[0];                                                                   \
            else if (kind == BASES_SOME_INFINITY && i % 5 == 2)                                    \
                cuzk_##G##_affine_set_infinity(&out[i]);                                           \
            else if (kind == BASES_PLUS_MINUS && (i & 1))                                          \
                cuzk_##G##_affine_neg(&out[i], &out[i - 1]);                                       \
        }                                                                                          \
    }
DEFINE_LAYOUT(g1, cuzk_g1_affine_t)
DEFINE_LAYOUT(g2, cuzk_g2_affine_t)

/* ---- scalars ----------------------------------------------------------------------------- */

enum {
    SC_RANDOM,
    SC_ZERO,
    SC_ONE,
    SC_R_MINUS_1,
    SC_BINARY_HEAVY, /* 45 % zero, 45 % one, 10 % random */
    SC_SMALL,        /* below 2^16 */
    SC_MIXED_WIDTH,  /* random bit lengths */
    SC_PAIRS,        /* scalar i equals scalar i - 1 for odd i (cancels with BASES_PLUS_MINUS) */
    SC_COUNT
};
static const char *const SC_NAME[] = {"random", "zero",  "one",   "r-1",
                                      "0/1",    "small", "mixed", "pairs"};

static inline void make_scalar(cuzk_fr_t *k, int kind, size_t i, const cuzk_fr_t *prev)
{
    uint64_t l[4] = {0, 0, 0, 0};
    switch (kind) {
    case SC_RANDOM:
        rand_fr(k);
        return;
    case SC_ZERO:
        break;
    case SC_ONE:
        l[0] = 1;
        break;
    case SC_R_MINUS_1:
        memcpy(l, R_LIMBS, sizeof l);
        l[0] -= 1;
        break;
    case SC_BINARY_HEAVY: {
        uint64_t u = test_rand_u64() % 100;
        if (u >= 90) {
            rand_fr(k);
            return;
        }
        l[0] = u < 45 ? 0 : 1;
        break;
    }
    case SC_SMALL:
        l[0] = test_rand_u64() & 0xffff;
        break;
    case SC_MIXED_WIDTH: {
        unsigned bits = (unsigned)(test_rand_u64() % 254) + 1;
        test_rand_bytes(l, sizeof l);
        for (unsigned b = bits; b < 256; b++)
            l[b / 64] &= ~((uint64_t)1 << (b % 64));
        break;
    }
    case SC_PAIRS:
        if ((i & 1) && prev) {
            *k = *prev;
            return;
        }
        rand_fr(k);
        return;
    }
    CHECK(cuzk_fr_from_canonical(k, l));
}

static inline void make_scalars(cuzk_fr_t *k, size_t n, int kind)
{
    for (size_t i = 0; i < n; i++)
        make_scalar(&k[i], kind, i, i ? &k[i - 1] : NULL);
}

/* ---- naive references ---------------------------------------------------------------------- */

#define DEFINE_NAIVE(G, AFF, JAC)                                                                  \
    static inline void G##_naive(JAC *out, const AFF *bases, const cuzk_fr_t *k, size_t n)         \
    {                                                                                              \
        cuzk_fr_t one;                                                                             \
        cuzk_fr_set_one(&one);                                                                     \
        cuzk_##G##_jac_set_infinity(out);                                                          \
        for (size_t i = 0; i < n; i++) {                                                           \
            if (bases[i].infinity || cuzk_fr_is_zero(&k[i]))                                       \
                continue;                                                                          \
            JAC p;                                                                                 \
            cuzk_##G##_from_affine(&p, &bases[i]);                                                 \
            if (!cuzk_fr_eq(&k[i], &one))                                                          \
                cuzk_##G##_mul_vartime(&p, &p, &k[i]);                                             \
            cuzk_##G##_add(out, out, &p);                                                          \
        }                                                                                          \
    }                                                                                              \
    static inline void G##_naive_subset(JAC *out, const AFF *bases, const uint64_t *bm, size_t n)  \
    {                                                                                              \
        cuzk_##G##_jac_set_infinity(out);                                                          \
        for (size_t i = 0; i < n; i++)                                                             \
            if ((bm[i / 64] >> (i % 64)) & 1)                                                      \
                cuzk_##G##_add_affine(out, out, &bases[i]);                                        \
    }
DEFINE_NAIVE(g1, cuzk_g1_affine_t, cuzk_g1_jac_t)
DEFINE_NAIVE(g2, cuzk_g2_affine_t, cuzk_g2_jac_t)

/* Option sets every MSM comparison runs: the default (endomorphism split for wide scalars), no
 * split, each strategy with the automatic window, forced chunks, and batch-affine with small
 * windows (many bucket conflicts, so the queue and the side buckets are used). The last ones
 * pay an inversion every few points: they run only up to SMALL_N points. */
static const cuzk_msm_opts VARIANTS[] = {
    {0},
    {.endo = CUZK_MSM_ENDO_OFF},
    {.accum = CUZK_MSM_ACCUM_XYZZ},
    {.accum = CUZK_MSM_ACCUM_AFFINE, .endo = CUZK_MSM_ENDO_OFF},
    {.accum = CUZK_MSM_ACCUM_AFFINE, .endo = CUZK_MSM_ENDO_ON},
    {.window = 7, .chunks = 3, .accum = CUZK_MSM_ACCUM_XYZZ},
    {.window = 9, .accum = CUZK_MSM_ACCUM_AFFINE},
    {.window = 4, .accum = CUZK_MSM_ACCUM_AFFINE},
    {.window = 6, .chunks = 2, .accum = CUZK_MSM_ACCUM_AFFINE},
    {.window = 5, .chunks = 2, .accum = CUZK_MSM_ACCUM_XYZZ, .endo = CUZK_MSM_ENDO_ON},
};
#define NVARIANTS (sizeof VARIANTS / sizeof VARIANTS[0])
#define SMALL_N 300
/* The variants to run for |n| points: all up to SMALL_N, then fewer as n grows. */
#define NVAR(n) ((n) <= SMALL_N ? NVARIANTS : (n) <= 1000 ? 5 : 3)

static inline cuzk_g1_jac_t poisoned_g1(void)
{
    cuzk_g1_jac_t p;
    memset(&p, 0xa5, sizeof p);
    return p;
}

static inline cuzk_g2_jac_t poisoned_g2(void)
{
    cuzk_g2_jac_t p;
    memset(&p, 0xa5, sizeof p);
    return p;
}

#endif

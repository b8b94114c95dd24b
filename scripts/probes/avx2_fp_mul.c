/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Probe (not part of the library): is a 4-lane AVX2 Montgomery product over the BLS12-381 base
 * field faster per lane than the scalar mulx/adx one on a CPU without AVX-512 IFMA? Radix 2^29,
 * 14 limbs (products < 2^58, 28 of them fit a 64-bit lane), R = 2^406, operand scanning; the
 * first product is checked against GMP. Prints ns per lane-product for 16 independent products
 * in flight and for one dependent chain; compare with `cuzk-bench field --filter='fp_mul*'` in
 * the same minute (docs/PERFORMANCE.md, "4-lane AVX2 products").
 *   gcc -O3 -march=native scripts/probes/avx2_fp_mul.c -lgmp -o /tmp/avx2_fp_mul && /tmp/avx2_fp_mul
 */
#include <gmp.h>
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define L 14
#define M29 ((1ULL << 29) - 1)

static uint64_t P[L], MP; /* p in radix 2^29; -1/p mod 2^29 */

typedef struct {
    __m256i l[L];
} f4;

static inline __attribute__((always_inline)) void mul4(f4 *r, const f4 *a, const f4 *b)
{
    __m256i t[L + 1];
    for (int j = 0; j <= L; j++)
        t[j] = _mm256_setzero_si256();
    const __m256i mask = _mm256_set1_epi64x(M29), mp = _mm256_set1_epi64x((long long)MP);
    for (int i = 0; i < L; i++) {
        for (int j = 0; j < L; j++)
            t[j] = _mm256_add_epi64(t[j], _mm256_mul_epu32(a->l[i], b->l[j]));
        __m256i q = _mm256_and_si256(_mm256_mul_epu32(t[0], mp), mask);
        for (int j = 0; j < L; j++)
            t[j] = _mm256_add_epi64(t[j],
                                    _mm256_mul_epu32(q, _mm256_set1_epi64x((long long)P[j])));
        __m256i c = _mm256_srli_epi64(t[0], 29); /* t[0] + q p_0 = 0 mod 2^29 */
        for (int j = 0; j < L - 1; j++)
            t[j] = t[j + 1];
        t[0] = _mm256_add_epi64(t[0], c);
        t[L - 1] = _mm256_setzero_si256();
    }
    __m256i c = _mm256_setzero_si256();
    for (int j = 0; j < L; j++) {
        __m256i v = _mm256_add_epi64(t[j], c);
        r->l[j] = _mm256_and_si256(v, mask);
        c = _mm256_srli_epi64(v, 29);
    }
}

static void lane(mpz_t z, const f4 *a, int k)
{
    mpz_set_ui(z, 0);
    for (int j = L - 1; j >= 0; j--) {
        uint64_t v[4];
        _mm256_storeu_si256((__m256i *)v, a->l[j]);
        mpz_mul_2exp(z, z, 29);
        mpz_add_ui(z, z, v[k]);
    }
}

static void load(f4 *a, mpz_t *x)
{
    mpz_t z;
    mpz_init(z);
    for (int j = 0; j < L; j++) {
        uint64_t v[4];
        for (int k = 0; k < 4; k++) {
            mpz_tdiv_q_2exp(z, x[k], 29 * j);
            v[k] = mpz_get_ui(z) & M29;
        }
        a->l[j] = _mm256_loadu_si256((const __m256i *)v);
    }
    mpz_clear(z);
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(void)
{
    mpz_t p, z, x, y, ri, a[4], b[4];
    mpz_inits(p, z, x, y, ri, NULL);
    mpz_set_str(p, "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ff"
                   "ffb9feffffffffaaab", 16);
    for (int j = 0; j < L; j++) {
        mpz_tdiv_q_2exp(z, p, 29 * j);
        P[j] = mpz_get_ui(z) & M29;
    }
    mpz_set_ui(z, 1);
    mpz_mul_2exp(z, z, 29);
    mpz_invert(x, p, z);
    mpz_sub(x, z, x);
    MP = mpz_get_ui(x);
    mpz_set_ui(z, 1);
    mpz_mul_2exp(z, z, 29 * L);
    mpz_invert(ri, z, p);
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    unsigned long seed = (unsigned long)now_ns();
    gmp_randseed_ui(rs, seed);
    printf("seed %lu\n", seed);
    for (int k = 0; k < 4; k++) {
        mpz_inits(a[k], b[k], NULL);
        mpz_urandomm(a[k], rs, p);
        mpz_urandomm(b[k], rs, p);
    }
    f4 fa, fb, fc;
    load(&fa, a);
    load(&fb, b);
    mul4(&fc, &fa, &fb);
    for (int k = 0; k < 4; k++) { /* c = a b / R mod p, lazily reduced */
        lane(z, &fc, k);
        mpz_mul(x, a[k], b[k]);
        mpz_mul(x, x, ri);
        mpz_mod(x, x, p);
        mpz_mod(y, z, p);
        if (mpz_cmp(x, y) != 0) {
            printf("lane %d: wrong product\n", k);
            return 1;
        }
    }
    printf("product checked against GMP\n");
    enum { N = 200000 };
    f4 s[4] = {fa, fb, fc, fa};
    for (int rep = 0; rep < 3; rep++) {
        double t0 = now_ns();
        for (int i = 0; i < N; i++)
            for (int k = 0; k < 4; k++)
                mul4(&s[k], &s[k], &fb);
        double t1 = now_ns();
        for (int i = 0; i < N; i++)
            mul4(&s[0], &s[0], &fb);
        double t2 = now_ns();
        printf("16 in flight: %.1f ns per lane-product; one chain: %.1f ns\n",
               (t1 - t0) / (N * 16.0), (t2 - t1) / (N * 4.0));
    }
    uint64_t v[4];
    _mm256_storeu_si256((__m256i *)v, s[0].l[0]);
    return v[0] == 42; /* keeps the loops alive */
}

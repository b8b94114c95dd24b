/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * blst (supranational's BLS12-381 library, built by scripts/blst-oracle.sh from the sources in
 * an npm package) as an outside oracle and as the reference of issue 3's MSM target, in one
 * process with cuzk so that both see the same inputs and the same machine minute.
 *
 *   cuzk-blst-oracle check [--seed HEX]
 *       G1 and G2 MSMs (cuzk_gX_msm on one thread and on the process pool against blst's
 *       Pippenger) over several sizes and scalar kinds, and pairings (cuzk_pairing against
 *       blst_miller_loop + blst_final_exp), compared byte for byte in canonical encodings;
 *       and subgroup membership of points outside the subgroup of three kinds (cuzk's one-point
 *       test and its batch test, 8 lanes with IFMA, against blst_pX_affine_in_gX). Each MSM
 *       case is then run once more with one cuzk scalar changed, which must differ (a
 *       comparison that cannot fail is no check). Exit 0 only if every case agrees.
 *   cuzk-blst-oracle bench [--group g1|g2] [--log-n 16,18,20] [--rounds R] [--seed HEX]
 *       One-thread MSM times, cuzk then blst in turn within each round (same points, same
 *       scalars); prints min / median per side and the ratio of the medians. The results of
 *       the first round are compared as in check.
 *
 * Inputs are drawn from a xorshift generator seeded by --seed or by /dev/urandom; the seed is
 * printed so that a failure can be replayed. Public API on both sides, plus cuzk's internal
 * batch subgroup test (src/msm/subgroup.h); points cross between the libraries as uncompressed
 * ZCash encodings and scalars as 32-byte little-endian integers.
 */
#include "cuzk/alloc.h"
#include "cuzk/cpu.h"
#include "cuzk/curve.h"
#include "cuzk/msm.h"
#include "cuzk/pairing.h"
#include "cuzk/threadpool.h"
#include "msm/subgroup.h" /* internal: the batch subgroup test */

#include <blst.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- inputs ---------------------------------------------------------------------------- */

static uint64_t rng_state;

static uint64_t rng_u64(void)
{
    /* xorshift64*: enough for test inputs; the seed is what makes a run reproducible. */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dULL;
}

static void seed_rng(const char *hex)
{
    uint64_t s = 0;
    if (hex) {
        s = strtoull(hex, NULL, 16);
    } else {
        FILE *f = fopen("/dev/urandom", "rb");
        if (!f || fread(&s, sizeof s, 1, f) != 1)
            s = (uint64_t)time(NULL);
        if (f)
            fclose(f);
    }
    if (s == 0)
        s = 1;
    rng_state = s;
    printf("seed %016" PRIx64 " (replay with --seed %016" PRIx64 ")\n", s, s);
}

/* A uniform Fr element: 256 random bits reduced through the little-endian reader's range
 * check (values >= r are redrawn). */
/* |n| (a multiple of 8) random bytes. */
static void rng_bytes(uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i += 8) {
        uint64_t w = rng_u64();
        memcpy(b + i, &w, 8);
    }
}

static void rand_fr(cuzk_fr_t *out)
{
    for (;;) {
        uint8_t b[32];
        rng_bytes(b, sizeof b);
        b[31] &= 0x7f;
        if (cuzk_fr_from_bytes_le(out, b) == CUZK_OK)
            return;
    }
}

enum { SC_RANDOM, SC_SMALL, SC_SPARSE, SC_EXTREME, SC_KINDS };
static const char *const SC_NAME[SC_KINDS] = {"random", "small", "sparse-0/1", "0/1/r-1"};

static void make_scalars(cuzk_fr_t *k, size_t n, int kind)
{
    cuzk_fr_t one, minus_one;
    cuzk_fr_set_u64(&one, 1);
    cuzk_fr_neg(&minus_one, &one);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = rng_u64();
        switch (kind) {
        case SC_RANDOM:
            rand_fr(&k[i]);
            break;
        case SC_SMALL:
            cuzk_fr_set_u64(&k[i], r >> (64 - 20));
            break;
        case SC_SPARSE: /* mostly 0 and 1, some full-width: a Filecoin witness */
            if (r % 8 == 0)
                rand_fr(&k[i]);
            else
                cuzk_fr_set_u64(&k[i], r % 3 == 0);
            break;
        default: /* 0, 1 and r - 1 (the largest scalar) */
            if (r % 3 == 0)
                cuzk_fr_set_u64(&k[i], 0);
            else
                k[i] = r % 3 == 1 ? one : minus_one;
            break;
        }
    }
}

static void scalars_le(uint8_t *out, const cuzk_fr_t *k, size_t n)
{
    for (size_t i = 0; i < n; i++)
        cuzk_fr_to_bytes_le(out + 32 * i, &k[i]);
}

/*
 * n subgroup points: a few random multiples of the generator, then a running sum through them
 * (one addition per point, so 2^20 points take about a second), in affine form.
 */
#define TABLE 64
#define POINTS_FN(G, JAC, AFF)                                                                     \
    static AFF *G##_points(size_t n)                                                               \
    {                                                                                              \
        AFF gen, *out = cuzk_alloc_array(n ? n : 1, sizeof *out);                                  \
        JAC *jac = cuzk_alloc_array(n ? n : 1, sizeof *jac), tab[TABLE], g, acc;                   \
        if (!out || !jac) {                                                                        \
            fprintf(stderr, "out of memory for %zu points\n", n);                                  \
            exit(2);                                                                               \
        }                                                                                          \
        cuzk_##G##_generator(&gen);                                                                \
        cuzk_##G##_from_affine(&g, &gen);                                                          \
        for (int t = 0; t < TABLE; t++) {                                                          \
            cuzk_fr_t k;                                                                           \
            rand_fr(&k);                                                                           \
            cuzk_##G##_mul_vartime(&tab[t], &g, &k);                                               \
        }                                                                                          \
        acc = tab[0];                                                                              \
        for (size_t i = 0; i < n; i++) {                                                           \
            cuzk_##G##_add(&acc, &acc, &tab[rng_u64() % TABLE]);                                   \
            jac[i] = acc;                                                                          \
        }                                                                                          \
        cuzk_##G##_batch_to_affine(out, jac, n);                                                   \
        cuzk_free(jac);                                                                            \
        return out;                                                                                \
    }
POINTS_FN(g1, cuzk_g1_jac_t, cuzk_g1_affine_t)
POINTS_FN(g2, cuzk_g2_jac_t, cuzk_g2_affine_t)

/* ---- the two sides ---------------------------------------------------------------------- */

/* blst's copies of cuzk's points, through the uncompressed encoding. */
#define TO_BLST_FN(G, AFF, BAFF, BYTES, DESER, SER)                                                \
    static BAFF *G##_to_blst(const AFF *p, size_t n)                                               \
    {                                                                                              \
        BAFF *out = cuzk_alloc_array(n ? n : 1, sizeof *out);                                      \
        if (!out) {                                                                                \
            fprintf(stderr, "out of memory for %zu points\n", n);                                  \
            exit(2);                                                                               \
        }                                                                                          \
        for (size_t i = 0; i < n; i++) {                                                           \
            uint8_t b[BYTES];                                                                      \
            SER(b, &p[i]);                                                                         \
            if (DESER(&out[i], b) != BLST_SUCCESS) {                                               \
                fprintf(stderr, "blst refused point %zu of cuzk's encoding\n", i);                 \
                exit(2);                                                                           \
            }                                                                                      \
        }                                                                                          \
        return out;                                                                                \
    }
TO_BLST_FN(g1, cuzk_g1_affine_t, blst_p1_affine, 96, blst_p1_deserialize, cuzk_g1_serialize)
TO_BLST_FN(g2, cuzk_g2_affine_t, blst_p2_affine, 192, blst_p2_deserialize, cuzk_g2_serialize)

static void *xalloc(size_t bytes)
{
    void *p = cuzk_alloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
        exit(2);
    }
    return p;
}

/* The MSM on each side, written as the canonical uncompressed encoding of the affine result
 * (infinity as its flag byte and zeros). The cuzk side's result is poisoned first, so that a
 * result left unwritten shows. */
#define CUZK_SIDE_FN(G, AFF, JAC, BYTES)                                                           \
    static int cuzk_##G##_side(uint8_t out[BYTES], const AFF *p, const cuzk_fr_t *k, size_t n,     \
                               cuzk_pool *pool)                                                    \
    {                                                                                              \
        JAC r;                                                                                     \
        memset(&r, 0xa5, sizeof r);                                                                \
        if (cuzk_##G##_msm(&r, p, k, n, pool) != CUZK_OK) {                                        \
            fprintf(stderr, "cuzk_%s_msm failed: %s\n", #G, cuzk_last_error());                    \
            return -1;                                                                             \
        }                                                                                          \
        AFF a;                                                                                     \
        cuzk_##G##_to_affine(&a, &r);                                                              \
        cuzk_##G##_serialize(out, &a);                                                             \
        return 0;                                                                                  \
    }
CUZK_SIDE_FN(g1, cuzk_g1_affine_t, cuzk_g1_jac_t, 96)
CUZK_SIDE_FN(g2, cuzk_g2_affine_t, cuzk_g2_jac_t, 192)

/* blst's Pippenger (n = 0 and 1 apart: its Pippenger reads a second point and scalar). */
#define BLST_SIDE_FN(G, P, BYTES)                                                                  \
    static void blst_##G##_side(uint8_t out[BYTES], const blst_##P##_affine *p, const uint8_t *k,  \
                                size_t n, limb_t *scratch)                                         \
    {                                                                                              \
        blst_##P r;                                                                                \
        const blst_##P##_affine *pts[2] = {p, NULL}; /* one contiguous array */                    \
        const byte *sc[2] = {k, NULL};                                                             \
        if (n == 0) {                                                                              \
            memset(&r, 0, sizeof r); /* blst's identity: Z = 0 */                                  \
        } else if (n == 1) {                                                                       \
            blst_##P##_from_affine(&r, p);                                                         \
            blst_##P##_mult(&r, &r, k, 255);                                                       \
        } else {                                                                                   \
            blst_##P##s_mult_pippenger(&r, pts, n, sc, 255, scratch);                              \
        }                                                                                          \
        blst_##P##_serialize(out, &r);                                                             \
    }
BLST_SIDE_FN(g1, p1, 96)
BLST_SIDE_FN(g2, p2, 192)

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void hex_line(const char *what, const uint8_t *b, size_t n)
{
    fprintf(stderr, "  %s ", what);
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "%02x", b[i]);
    fprintf(stderr, "\n");
}

/* ---- check ---------------------------------------------------------------------------- */

static int failures, cases;

/* One MSM case in group G of n points: cuzk (one thread and pool) against blst, then the same
 * with one cuzk scalar changed, which must disagree. */
#define CASE_FN(G, AFF, BAFF, BYTES, SCRATCH_SIZEOF)                                               \
    static void G##_case(size_t n, int kind, cuzk_pool *pool)                                      \
    {                                                                                              \
        AFF *p = G##_points(n);                                                                    \
        BAFF *bp = G##_to_blst(p, n);                                                              \
        cuzk_fr_t *k = xalloc((n ? n : 1) * sizeof *k);                                            \
        uint8_t *kb = xalloc((n ? n : 1) * 32);                                                    \
        limb_t *scratch = xalloc(SCRATCH_SIZEOF(n ? n : 1));                                       \
        make_scalars(k, n, kind);                                                                  \
        scalars_le(kb, k, n);                                                                      \
        uint8_t want[BYTES], got[BYTES], got_pool[BYTES];                                          \
        blst_##G##_side(want, bp, kb, n, scratch);                                                 \
        int bad = cuzk_##G##_side(got, p, k, n, NULL) || cuzk_##G##_side(got_pool, p, k, n, pool); \
        cases++;                                                                                   \
        if (bad || memcmp(got, want, BYTES) || memcmp(got_pool, want, BYTES)) {                    \
            failures++;                                                                            \
            fprintf(stderr, "FAIL %s n=%zu scalars=%s: cuzk and blst differ\n", #G, n,             \
                    SC_NAME[kind]);                                                                \
            hex_line("blst       ", want, BYTES);                                                  \
            hex_line("cuzk 1 thr ", got, BYTES);                                                   \
            hex_line("cuzk pool  ", got_pool, BYTES);                                              \
        } else if (n > 0) {                                                                        \
            /* k[j] + 1 for one j: the sum moves by p[j], never to the same point. */              \
            size_t j = (size_t)(rng_u64() % n);                                                    \
            cuzk_fr_t one;                                                                         \
            cuzk_fr_set_u64(&one, 1);                                                              \
            cuzk_fr_add(&k[j], &k[j], &one);                                                       \
            cases++;                                                                               \
            if (cuzk_##G##_side(got, p, k, n, NULL) || !memcmp(got, want, BYTES)) {                \
                failures++;                                                                        \
                fprintf(stderr, "FAIL %s n=%zu scalars=%s: a changed scalar went unnoticed\n", #G, \
                        n, SC_NAME[kind]);                                                         \
            }                                                                                      \
        }                                                                                          \
        cuzk_free(scratch);                                                                        \
        cuzk_free(kb);                                                                             \
        cuzk_free(k);                                                                              \
        cuzk_free(bp);                                                                             \
        cuzk_free(p);                                                                              \
    }
CASE_FN(g1, cuzk_g1_affine_t, blst_p1_affine, 96, blst_p1s_mult_pippenger_scratch_sizeof)
CASE_FN(g2, cuzk_g2_affine_t, blst_p2_affine, 192, blst_p2s_mult_pippenger_scratch_sizeof)

/* An Fp12 element as 12 big-endian coordinates in tower order (c0.c0.c0 ... c1.c2.c1); both
 * libraries use Fp2 = Fp[u]/(u^2+1), Fp6 = Fp2[v]/(v^3-(1+u)), Fp12 = Fp6[w]/(w^2-v). */
static void cuzk_fp12_bytes(uint8_t out[576], const cuzk_fp12_t *f)
{
    const cuzk_fp6_t *six[2] = {&f->c0, &f->c1};
    for (int a = 0; a < 2; a++) {
        const cuzk_fp2_t *two[3] = {&six[a]->c0, &six[a]->c1, &six[a]->c2};
        for (int b = 0; b < 3; b++) {
            cuzk_fp_to_bytes_be(out + 48 * (6 * a + 2 * b), &two[b]->c0);
            cuzk_fp_to_bytes_be(out + 48 * (6 * a + 2 * b + 1), &two[b]->c1);
        }
    }
}

static void blst_fp12_bytes(uint8_t out[576], const blst_fp12 *f)
{
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 3; b++)
            for (int c = 0; c < 2; c++)
                blst_bendian_from_fp(out + 48 * (6 * a + 2 * b + c), &f->fp6[a].fp2[b].fp[c]);
}

static void pairing_cases(int count)
{
    cuzk_g1_affine_t *p = g1_points((size_t)count);
    cuzk_g2_affine_t *q = g2_points((size_t)count);
    blst_p1_affine *bp = g1_to_blst(p, (size_t)count);
    blst_p2_affine *bq = g2_to_blst(q, (size_t)count);
    for (int i = 0; i < count; i++) {
        cuzk_fp12_t f;
        blst_fp12 bf;
        uint8_t want[576], got[576];
        memset(&f, 0xa5, sizeof f);
        cuzk_pairing(&f, &p[i], &q[i]);
        blst_miller_loop(&bf, &bq[i], &bp[i]);
        blst_final_exp(&bf, &bf);
        cuzk_fp12_bytes(got, &f);
        blst_fp12_bytes(want, &bf);
        cases++;
        if (memcmp(got, want, sizeof got)) {
            failures++;
            fprintf(stderr, "FAIL pairing %d: cuzk and blst differ\n", i);
        }
        /* e(P, Q) against e(P, Q') for the next Q': must differ. */
        if (i + 1 < count) {
            cuzk_pairing(&f, &p[i], &q[i + 1]);
            cuzk_fp12_bytes(got, &f);
            cases++;
            if (!memcmp(got, want, sizeof got)) {
                failures++;
                fprintf(stderr, "FAIL pairing %d: another Q gave the same value\n", i);
            }
        }
    }
    cuzk_free(bq);
    cuzk_free(bp);
    cuzk_free(q);
    cuzk_free(p);
}

/* ---- subgroup membership ------------------------------------------------------------------ */

/* The group order r, little-endian limbs (formats.md section 1). */
static const uint64_t R_LIMBS[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                    0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};

static void rand_fp(cuzk_fp_t *out)
{
    for (;;) {
        uint8_t b[48];
        rng_bytes(b, sizeof b);
        b[0] &= 0x1f; /* below 2^381; values >= p are redrawn */
        if (cuzk_fp_from_bytes_be(out, b) == CUZK_OK)
            return;
    }
}

/* A point of the curve y^2 = x^3 + 4 from a random x: almost surely outside G1 (the cofactor
 * has small prime factors, so it has components of several orders). */
static void g1_curve_point(cuzk_g1_affine_t *out)
{
    cuzk_fp_t x, t, b;
    cuzk_fp_set_u64(&b, 4);
    do {
        rand_fp(&x);
        cuzk_fp_sqr(&t, &x);
        cuzk_fp_mul(&t, &t, &x);
        cuzk_fp_add(&t, &t, &b);
    } while (!cuzk_fp_sqrt(&out->y, &t));
    out->x = x;
    out->infinity = false;
}

/* The same on y^2 = x^3 + 4(1 + u) over Fp2: almost surely outside G2. */
static void g2_curve_point(cuzk_g2_affine_t *out)
{
    cuzk_fp2_t x, t, b;
    cuzk_fp_set_u64(&b.c0, 4);
    cuzk_fp_set_u64(&b.c1, 4);
    do {
        rand_fp(&x.c0);
        rand_fp(&x.c1);
        cuzk_fp2_sqr(&t, &x);
        cuzk_fp2_mul(&t, &t, &x);
        cuzk_fp2_add(&t, &t, &b);
    } while (!cuzk_fp2_sqrt(&out->y, &t));
    out->x = x;
    out->infinity = false;
}

/*
 * Points outside the subgroup of three kinds, by |kind|: a random curve point R; its torsion
 * part r R (order dividing the cofactor); a subgroup point plus that torsion. Each case takes
 * a subgroup point |p| and writes the off-subgroup point to |out|; kinds whose point falls
 * into the subgroup by chance (r R = O) are left as |p|.
 */
#define OFF_FN(G, AFF, JAC)                                                                        \
    static void G##_off_subgroup(AFF *out, const AFF *p, int kind)                                 \
    {                                                                                              \
        AFF rpt;                                                                                   \
        JAC rj, tj, pj;                                                                            \
        G##_curve_point(&rpt);                                                                     \
        *out = rpt;                                                                                \
        if (kind == 0)                                                                             \
            return;                                                                                \
        cuzk_##G##_from_affine(&rj, &rpt);                                                         \
        cuzk_##G##_mul_raw_vartime(&tj, &rj, R_LIMBS, 4);                                          \
        if (cuzk_##G##_jac_is_infinity(&tj)) {                                                     \
            *out = *p;                                                                             \
            return;                                                                                \
        }                                                                                          \
        if (kind == 2) {                                                                           \
            cuzk_##G##_from_affine(&pj, p);                                                        \
            cuzk_##G##_add(&tj, &tj, &pj);                                                         \
        }                                                                                          \
        cuzk_##G##_to_affine(out, &tj);                                                            \
    }
OFF_FN(g1, cuzk_g1_affine_t, cuzk_g1_jac_t)
OFF_FN(g2, cuzk_g2_affine_t, cuzk_g2_jac_t)

/*
 * n points, subgroup points with off-subgroup ones of every kind at a few places (in the first
 * lane block, at a block edge, in the tail, last): every point's verdict against blst's
 * in_gX, and the batch test's first index (src/msm/subgroup.h: 8 lanes with IFMA) against the
 * first point blst refuses, for every prefix ending just after each off-subgroup point and for
 * the whole array without them.
 */
#define SUBGROUP_FN(G, AFF, BAFF, IN_G)                                                            \
    static void G##_subgroup_cases(size_t n)                                                       \
    {                                                                                              \
        AFF *p = G##_points(n);                                                                    \
        size_t first = n;                                                                          \
        cases++;                                                                                   \
        if (cuzk__##G##_first_outside_subgroup(p, n) != n) {                                       \
            failures++;                                                                            \
            fprintf(stderr, "FAIL %s subgroup: %zu subgroup points not all passed\n", #G, n);      \
        }                                                                                          \
        const size_t at[] = {3, 8, n / 2 + 1, n - 2, n - 1};                                       \
        for (size_t j = 0; j < sizeof at / sizeof at[0]; j++)                                      \
            G##_off_subgroup(&p[at[j]], &p[at[j]], (int)(j % 3));                                  \
        BAFF *bp = G##_to_blst(p, n);                                                              \
        for (size_t i = 0; i < n; i++) {                                                           \
            bool want = IN_G(&bp[i]), got = cuzk_##G##_affine_in_subgroup(&p[i]);                  \
            cases++;                                                                               \
            if (want != got) {                                                                     \
                failures++;                                                                        \
                fprintf(stderr, "FAIL %s subgroup: point %zu: blst %d, cuzk %d\n", #G, i, want,    \
                        got);                                                                      \
            }                                                                                      \
            if (!want && first == n)                                                               \
                first = i;                                                                         \
        }                                                                                          \
        for (size_t j = 0; j < sizeof at / sizeof at[0]; j++) {                                    \
            size_t len = at[j] + 1, want = len, got;                                               \
            for (size_t i = 0; i < len && want == len; i++)                                        \
                if (!IN_G(&bp[i]))                                                                 \
                    want = i;                                                                      \
            got = cuzk__##G##_first_outside_subgroup(p, len);                                      \
            cases++;                                                                               \
            if (got != want) {                                                                     \
                failures++;                                                                        \
                fprintf(stderr, "FAIL %s subgroup batch of %zu: first outside %zu, blst %zu\n",    \
                        #G, len, got, want);                                                       \
            }                                                                                      \
        }                                                                                          \
        cases++;                                                                                   \
        if (first == n) { /* all three kinds fell into the subgroup: not a test */                 \
            failures++;                                                                            \
            fprintf(stderr, "FAIL %s subgroup: no point outside the subgroup was made\n", #G);     \
        }                                                                                          \
        cuzk_free(bp);                                                                             \
        cuzk_free(p);                                                                              \
    }
SUBGROUP_FN(g1, cuzk_g1_affine_t, blst_p1_affine, blst_p1_affine_in_g1)
SUBGROUP_FN(g2, cuzk_g2_affine_t, blst_p2_affine, blst_p2_affine_in_g2)

static int run_check(void)
{
    cuzk_pool *pool = cuzk_pool_default();
    static const size_t g1_sizes[] = {0, 1, 2, 3, 17, 255, 1024, 4099, 20000};
    static const size_t g2_sizes[] = {0, 1, 2, 3, 17, 255, 1024, 4099};
    for (int kind = 0; kind < SC_KINDS; kind++) {
        for (size_t i = 0; i < sizeof g1_sizes / sizeof g1_sizes[0]; i++)
            g1_case(g1_sizes[i], kind, pool);
        for (size_t i = 0; i < sizeof g2_sizes / sizeof g2_sizes[0]; i++)
            g2_case(g2_sizes[i], kind, pool);
    }
    pairing_cases(6);
    for (int rep = 0; rep < 4; rep++) {
        g1_subgroup_cases(203);
        g2_subgroup_cases(203);
    }
    printf("blst-oracle check: %d of %d comparisons agree (G1 and G2 MSMs on 1 thread and on %u, "
           "pairings, subgroup membership)\n",
           cases - failures, cases, pool ? cuzk_pool_threads(pool) : 1);
    return failures ? 1 : 0;
}

/* ---- bench ---------------------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#define BENCH_FN(G, AFF, BAFF, BYTES, SCRATCH_SIZEOF)                                              \
    static int G##_bench(unsigned log_n, int rounds)                                               \
    {                                                                                              \
        size_t n = (size_t)1 << log_n;                                                             \
        AFF *p = G##_points(n);                                                                    \
        BAFF *bp = G##_to_blst(p, n);                                                              \
        cuzk_fr_t *k = xalloc(n * sizeof *k);                                                      \
        uint8_t *kb = xalloc(n * 32);                                                              \
        limb_t *scratch = xalloc(SCRATCH_SIZEOF(n));                                               \
        make_scalars(k, n, SC_RANDOM);                                                             \
        scalars_le(kb, k, n);                                                                      \
        double tc[64], tb[64];                                                                     \
        int rc = 0;                                                                                \
        for (int r = 0; r < rounds; r++) {                                                         \
            uint8_t a[BYTES], b[BYTES];                                                            \
            double t0 = now_s();                                                                   \
            if (cuzk_##G##_side(a, p, k, n, NULL))                                                 \
                rc = 1;                                                                            \
            double t1 = now_s();                                                                   \
            blst_##G##_side(b, bp, kb, n, scratch);                                                \
            double t2 = now_s();                                                                   \
            tc[r] = t1 - t0;                                                                       \
            tb[r] = t2 - t1;                                                                       \
            if (r == 0 && memcmp(a, b, BYTES)) {                                                   \
                fprintf(stderr, "FAIL %s 2^%u: cuzk and blst differ\n", #G, log_n);                \
                rc = 1;                                                                            \
            }                                                                                      \
        }                                                                                          \
        double minc = tc[0], minb = tb[0];                                                         \
        for (int r = 1; r < rounds; r++) {                                                         \
            minc = tc[r] < minc ? tc[r] : minc;                                                    \
            minb = tb[r] < minb ? tb[r] : minb;                                                    \
        }                                                                                          \
        double mc = median(tc, rounds), mb = median(tb, rounds);                                   \
        printf("| %s | 2^%u | %.3f / %.3f | %.3f / %.3f | %.2f |\n", #G, log_n, minc, mc, minb,    \
               mb, mc / mb);                                                                       \
        fflush(stdout);                                                                            \
        cuzk_free(scratch);                                                                        \
        cuzk_free(kb);                                                                             \
        cuzk_free(k);                                                                              \
        cuzk_free(bp);                                                                             \
        cuzk_free(p);                                                                              \
        return rc;                                                                                 \
    }
BENCH_FN(g1, cuzk_g1_affine_t, blst_p1_affine, 96, blst_p1s_mult_pippenger_scratch_sizeof)
BENCH_FN(g2, cuzk_g2_affine_t, blst_p2_affine, 192, blst_p2s_mult_pippenger_scratch_sizeof)

static int run_bench(const char *group, const char *sizes, int rounds)
{
    printf("one thread each; times in seconds, min / median of %d rounds (cuzk, then blst, in "
           "each round)\n",
           rounds);
    printf("| group | n | cuzk_%s_msm | blst_p%ss_mult_pippenger | cuzk / blst (medians) |\n",
           group, group[1] == '1' ? "1" : "2");
    printf("|---|---|---:|---:|---:|\n");
    int rc = 0;
    char *list = strdup(sizes), *save = NULL;
    for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        unsigned log_n = (unsigned)strtoul(t, NULL, 10);
        if (log_n < 1 || log_n > 24) {
            fprintf(stderr, "--log-n: %s is not in 1..24\n", t);
            rc = 2;
            break;
        }
        rc |= strcmp(group, "g1") == 0 ? g1_bench(log_n, rounds) : g2_bench(log_n, rounds);
    }
    free(list);
    return rc;
}

/* A clear message instead of SIGILL when this binary was built for another CPU. */
CUZK_CPU_GUARD("cuzk-blst-oracle")

static int usage(void)
{
    fprintf(stderr, "usage: cuzk-blst-oracle check [--seed HEX]\n"
                    "       cuzk-blst-oracle bench [--group g1|g2] [--log-n 16,18,20] "
                    "[--rounds R] [--seed HEX]\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    const char *seed = NULL, *group = "g1", *sizes = "16,18,20";
    int rounds = 3;
    for (int i = 2; i < argc; i++) {
        if (i + 1 >= argc)
            return usage();
        if (strcmp(argv[i], "--seed") == 0)
            seed = argv[++i];
        else if (strcmp(argv[i], "--group") == 0)
            group = argv[++i];
        else if (strcmp(argv[i], "--log-n") == 0)
            sizes = argv[++i];
        else if (strcmp(argv[i], "--rounds") == 0)
            rounds = atoi(argv[++i]);
        else
            return usage();
    }
    if (strcmp(group, "g1") && strcmp(group, "g2"))
        return usage();
    if (rounds < 1 || rounds > 64) {
        fprintf(stderr, "--rounds must be 1..64\n");
        return 2;
    }
    seed_rng(seed);
    if (strcmp(argv[1], "check") == 0)
        return run_check();
    if (strcmp(argv[1], "bench") == 0)
        return run_bench(group, sizes, rounds);
    return usage();
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The 8-lane AVX-512 IFMA Fr arithmetic (src/field/fr_ifma.h, used by the NTT passes of
 * src/poly) against GMP and the scalar library: every lane differs, lanes mix uniform values
 * with the edge shapes (0, 1, r - 1, r - k, 2^j, limbs of all ones), lazy operands take the
 * range ends ([0, 2r): r, 2r - 1, r + 2^j), and every result is checked against its stated range
 * as well as its value. The random values come from the runner's seed (printed at the end of
 * the run; --seed repeats it). Skipped when the library was built without IFMA.
 */
#include "test.h"
#include "cuzk/field.h"
#include "field/fr_ifma.h"
#include "field/mont.h"

#include <gmp.h>
#include <string.h>

#define R_HEX "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001"

#if CUZK_FR_HAVE_IFMA
/* Values as 5 words (W = 5): word 4 holds bit 256, which [0, 4r) operands need (4r = 1.81 R). */
enum { W = 5 };
static const uint64_t r_words[W] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                    0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL, 0};

/* A canonical value (below r) with an edge shape now and then. */
static void rand_canon(uint64_t o[W])
{
    for (;;) {
        memset(o, 0, W * sizeof o[0]);
        switch (test_rand_u64() % 10) {
        case 0: /* 0, 1, r - 1 */
            switch (test_rand_u64() % 3) {
            case 0:
                break;
            case 1:
                o[0] = 1;
                break;
            default: {
                uint64_t one[W] = {1};
                mont_sub_raw(o, r_words, one, W);
            }
            }
            break;
        case 1: { /* r - k for small k */
            uint64_t k[W] = {1 + test_rand_u64() % 65536};
            mont_sub_raw(o, r_words, k, W);
            break;
        }
        case 2: /* 2^j, j < 255 */
            o[(test_rand_u64() % 255) / 64] |= 1ULL << (test_rand_u64() % 64);
            break;
        case 3: /* limbs from {0, 1, all ones, 2^63, 2^52 - 1, random} */
            for (int i = 0; i < 4; i++) {
                static const uint64_t pat[] = {0, 1, ~0ULL, 1ULL << 63, (1ULL << 52) - 1};
                uint64_t v = test_rand_u64();
                o[i] = v % 6 < 5 ? pat[v % 6] : test_rand_u64();
            }
            o[3] &= 0x7fffffffffffffffULL;
            break;
        default: /* uniform below 2^255, rejected at or above r */
            test_rand_bytes(o, 4 * sizeof o[0]);
            o[3] &= 0x7fffffffffffffffULL;
            break;
        }
        if (!mont_geq_vartime(o, r_words, W))
            return;
    }
}

/* A lazy value in [0, 2r): canonical, or canonical + r (so r, 2r - 1, r + 2^j appear). */
static void rand_lazy(uint64_t o[W])
{
    rand_canon(o);
    if (test_rand_u64() & 1)
        mont_add_raw(o, o, r_words, W);
}

/* A value in [0, 4r): canonical plus 0, r, 2r or 3r. */
static void rand_4r(uint64_t o[W])
{
    rand_canon(o);
    for (uint64_t k = test_rand_u64() % 4; k > 0; k--)
        mont_add_raw(o, o, r_words, W);
}

/* 8 lanes of 5 words each (w[k][i]: word i of lane k; value < 2^260) into an fr52x8. */
static void pack(fr52x8 *o, uint64_t w[8][W])
{
    __m512i v[4];
    uint64_t top[8];
    for (int i = 0; i < 4; i++) {
        uint64_t t[8];
        for (int k = 0; k < 8; k++)
            t[k] = w[k][i];
        v[i] = _mm512_loadu_si512((const void *)t);
    }
    for (int k = 0; k < 8; k++)
        top[k] = w[k][4] << 48; /* bits 256..259: limb 4's top bits */
    fr52x8_from_words_(o, v);
    o->l[4] = _mm512_or_si512(o->l[4], _mm512_loadu_si512((const void *)top));
}

/* Lane k of a as an integer, checking that every limb is normalised (< 2^52). */
static void lane_to_mpz(mpz_t out, const fr52x8 *a, int k)
{
    mpz_set_ui(out, 0);
    for (int j = 4; j >= 0; j--) {
        uint64_t v[8];
        _mm512_storeu_si512((void *)v, a->l[j]);
        CHECK_MSG(v[k] < (1ULL << 52), "lane %d limb %d not normalised: %#llx", k, j,
                  (unsigned long long)v[k]);
        mpz_mul_2exp(out, out, 52);
        mpz_add_ui(out, out, v[k]);
    }
}

static void words_to_mpz(mpz_t out, const uint64_t w[W])
{
    mpz_import(out, W, -1, 8, 0, 0, w);
}

enum {
    OP_MUL,
    OP_ADD,
    OP_SUB,
    OP_REDUCE,
    OP_MUL_P,
    OP_ADD_LAZY,
    OP_SUB_LAZY,
    OP_CSUB2R,
    OP_REDUCE4,
    OP_COUNT
};
static const char *const op_name[OP_COUNT] = {"mul",      "add",      "sub",    "reduce", "mul_p",
                                              "add_lazy", "sub_lazy", "csub2r", "reduce4"};
/* Operations whose first operand may be anywhere in [0, 4r). */
static bool takes_4r(int op)
{
    return op == OP_MUL_P || op == OP_CSUB2R || op == OP_REDUCE4;
}

/* The lazy forms' results are exact integers, not only values mod r. */
static bool op_exact(int op)
{
    return op == OP_ADD_LAZY || op == OP_SUB_LAZY || op == OP_CSUB2R;
}

/* One operation on 8 lanes against GMP: the value mod r and the stated range of the result. */
static void check_op(int op, uint64_t a[8][W], uint64_t b[8][W], mpz_t r, mpz_t rinv, mpz_t rinv260,
                     unsigned long it)
{
    fr52x8 va, vb, vo;
    pack(&va, a);
    pack(&vb, b);
    switch (op) {
    case OP_MUL:
        fr52x8_mul(&vo, &va, &vb);
        break;
    case OP_ADD:
        fr52x8_add(&vo, &va, &vb);
        break;
    case OP_SUB:
        fr52x8_sub(&vo, &va, &vb);
        break;
    case OP_REDUCE:
        fr52x8_reduce(&vo, &va);
        break;
    case OP_MUL_P:
        fr52x8_mul_p(&vo, &va, &vb);
        break;
    case OP_ADD_LAZY:
        fr52x8_add_lazy_(&vo, &va, &vb);
        break;
    case OP_SUB_LAZY:
        fr52x8_sub_lazy_(&vo, &va, &vb);
        break;
    case OP_CSUB2R:
        fr52x8_csub2r_(&vo, &va);
        break;
    default:
        fr52x8_reduce4_(&vo, &va);
        break;
    }
    mpz_t za, zb, want, got, bound;
    mpz_inits(za, zb, want, got, bound, NULL);
    /* results: the reductions canonical, add_lazy's and sub_lazy's below 4r (for the operands
     * each is given: a + b with a, b < 2r; a - b + 2r with a < 2r), the others in [0, 2r) */
    mpz_mul_ui(bound, r,
               op == OP_REDUCE || op == OP_REDUCE4      ? 1
               : op == OP_ADD_LAZY || op == OP_SUB_LAZY ? 4
                                                        : 2);
    for (int k = 0; k < 8; k++) {
        words_to_mpz(za, a[k]);
        words_to_mpz(zb, b[k]);
        lane_to_mpz(got, &vo, k);
        switch (op) {
        case OP_MUL:
            mpz_mul(want, za, zb);
            mpz_mul(want, want, rinv);
            break;
        case OP_ADD:
            mpz_add(want, za, zb);
            break;
        case OP_SUB:
            mpz_sub(want, za, zb);
            break;
        case OP_MUL_P:
            mpz_mul(want, za, zb);
            mpz_mul(want, want, rinv260);
            break;
        case OP_ADD_LAZY:
            mpz_add(want, za, zb);
            break;
        case OP_SUB_LAZY:
            mpz_sub(want, za, zb);
            mpz_addmul_ui(want, r, 2);
            break;
        case OP_CSUB2R:
            mpz_set(want, za);
            if (mpz_cmp(want, bound) >= 0)
                mpz_sub(want, want, bound);
            break;
        default:
            mpz_set(want, za);
            break;
        }
        if (!op_exact(op))
            mpz_mod(want, want, r);
        if (op_exact(op))
            mpz_set(za, got);
        else
            mpz_mod(za, got, r); /* za: got mod r */
        if (mpz_cmp(za, want) != 0 || mpz_cmp(got, bound) >= 0) {
            char *m = NULL;
            words_to_mpz(za, a[k]);
            gmp_asprintf(&m, "%s iteration %lu lane %d: a=%#Zx b=%#Zx want %#Zx (mod r) got %#Zx",
                         op_name[op], it, k, za, zb, want, got);
            test_fail_at(__FILE__, __LINE__, "%s", m);
        }
    }
    mpz_clears(za, zb, want, got, bound, NULL);
}
#endif

CUZK_TEST(field_fr_ifma_vs_gmp)
{
#if !CUZK_FR_HAVE_IFMA
    test_skip("the AVX-512 IFMA back end is not built (needs -mavx512f -mavx512ifma)");
#else
    mpz_t r, rinv, rinv260;
    mpz_inits(r, rinv, rinv260, NULL);
    CHECK(mpz_set_str(r, R_HEX, 16) == 0);
    mpz_ui_pow_ui(rinv, 2, 256);
    CHECK(mpz_invert(rinv, rinv, r));
    mpz_ui_pow_ui(rinv260, 2, 260);
    CHECK(mpz_invert(rinv260, rinv260, r));
    /* The range ends first: lane k of a from {0, 1, r - 1, r, r + 1, 2r - 1, 2^255 - ..., 2^j},
     * b from {0, 1, r - 1, 2^j}, so that every pair meets in some iteration. */
    uint64_t edges_a[8][W], edges_b[4][W];
    memset(edges_a, 0, sizeof edges_a);
    memset(edges_b, 0, sizeof edges_b);
    uint64_t one[W] = {1}, r2[W];
    mont_add_raw(r2, r_words, r_words, W);
    edges_a[1][0] = 1;
    mont_sub_raw(edges_a[2], r_words, one, W);   /* r - 1 */
    memcpy(edges_a[3], r_words, sizeof r_words); /* r (lazy) */
    mont_add_raw(edges_a[4], r_words, one, W);   /* r + 1 */
    mont_sub_raw(edges_a[5], r2, one, W);        /* 2r - 1 */
    edges_a[6][3] = 1ULL << 62;                  /* 2^254 */
    edges_a[7][0] = (1ULL << 52) - 1;            /* a full low limb */
    edges_b[1][0] = 1;
    mont_sub_raw(edges_b[2], r_words, one, W); /* r - 1 */
    edges_b[3][1] = 1ULL << 40;                /* 2^104: limb 2 of radix 2^52 */
    /* the [0, 4r) operands: 0, 1, 2r - 1, 2r, 2r + 1, 4r - 1, 3r, 2^256 */
    uint64_t edges_4r[8][W], r4[W];
    memset(edges_4r, 0, sizeof edges_4r);
    mont_add_raw(r4, r2, r2, W);
    edges_4r[1][0] = 1;
    mont_sub_raw(edges_4r[2], r2, one, W);
    memcpy(edges_4r[3], r2, sizeof r2);
    mont_add_raw(edges_4r[4], r2, one, W);
    mont_sub_raw(edges_4r[5], r4, one, W);
    mont_add_raw(edges_4r[6], r2, r_words, W); /* 3r */
    edges_4r[7][4] = 1;                        /* 2^256 */
    for (int op = 0; op < OP_COUNT; op++)
        for (int sh = 0; sh < 8; sh++) {
            uint64_t a[8][W], b[8][W];
            for (int k = 0; k < 8; k++) {
                memcpy(a[k], takes_4r(op) ? edges_4r[k] : edges_a[k], sizeof a[k]);
                /* mul wants b canonical; the others take lazy b; mul_p b up to 4r */
                if (op == OP_MUL)
                    memcpy(b[k], edges_b[(k + sh) % 4], sizeof b[k]);
                else if (op == OP_MUL_P)
                    memcpy(b[k], edges_4r[(k + sh) % 8], sizeof b[k]);
                else
                    memcpy(b[k], edges_a[(k + sh) % 8], sizeof b[k]);
            }
            check_op(op, a, b, r, rinv, rinv260, (unsigned long)sh);
        }
    /* Random lanes in each operation's input ranges: a in [0, 2r) or [0, 4r), b canonical for
     * mul, up to 4r for mul_p, [0, 2r) for the others. */
    for (unsigned long it = 0; it < test_iters(10000) / 4 + 1; it++) {
        uint64_t a[8][W], b[8][W];
        int op = (int)(it % OP_COUNT);
        for (int k = 0; k < 8; k++) {
            if (takes_4r(op))
                rand_4r(a[k]);
            else
                rand_lazy(a[k]);
            if (op == OP_MUL)
                rand_canon(b[k]);
            else if (op == OP_MUL_P)
                rand_4r(b[k]);
            else
                rand_lazy(b[k]);
        }
        check_op(op, a, b, r, rinv, rinv260, it);
    }
    mpz_clears(r, rinv, rinv260, NULL);
#endif
}

/* Canonical in and out: load, mul, add, sub, store against cuzk_fr_*, bit for bit, with the
 * transposing (consecutive) and the gathering (strided) loads and stores. */
CUZK_TEST(field_fr_ifma_vs_scalar)
{
#if !CUZK_FR_HAVE_IFMA
    test_skip("the AVX-512 IFMA back end is not built (needs -mavx512f -mavx512ifma)");
#else
    enum { STRIDE = 3 };
    for (unsigned long it = 0; it < test_iters(10000) / 8 + 1; it++) {
        cuzk_fr_t a[8], b[8], want[4][8], got[8], sa[8 * STRIDE], sg[8 * STRIDE];
        for (int k = 0; k < 8; k++) {
            uint64_t w[W];
            rand_canon(w);
            memcpy(a[k].l, w, sizeof a[k].l); /* any value below r is a Montgomery element */
            rand_canon(w);
            memcpy(b[k].l, w, sizeof b[k].l);
            cuzk_fr_mul(&want[0][k], &a[k], &b[k]);
            cuzk_fr_add(&want[1][k], &a[k], &b[k]);
            cuzk_fr_sub(&want[2][k], &a[k], &b[k]);
            /* (a b - a) b: a chain through lazy values */
            cuzk_fr_sub(&want[3][k], &want[0][k], &a[k]);
            cuzk_fr_mul(&want[3][k], &want[3][k], &b[k]);
            sa[k * STRIDE] = a[k];
        }
        fr52x8 va, vb, vs, vo;
        fr52x8_load(&va, a);
        fr52x8_load_strided(&vs, sa, STRIDE);
        fr52x8_load(&vb, b);
        for (int j = 0; j < 5; j++)
            CHECK(_mm512_cmpeq_epi64_mask(va.l[j], vs.l[j]) == 0xff);
        fr52x8_mul(&vo, &va, &vb);
        fr52x8_store(got, &vo);
        CHECK_MSG(memcmp(got, want[0], sizeof got) == 0, "mul, iteration %lu", it);
        fr52x8_add(&vo, &va, &vb);
        fr52x8_store(got, &vo);
        CHECK_MSG(memcmp(got, want[1], sizeof got) == 0, "add, iteration %lu", it);
        fr52x8_sub(&vo, &va, &vb);
        memset(sg, 0xa5, sizeof sg);
        fr52x8_store_strided(sg, STRIDE, &vo);
        for (int k = 0; k < 8; k++) {
            CHECK_MSG(memcmp(&sg[k * STRIDE], &want[2][k], sizeof sg[0]) == 0,
                      "sub (strided store), iteration %lu lane %d", it, k);
            if (STRIDE > 1)
                CHECK(sg[k * STRIDE + 1].l[0] == 0xa5a5a5a5a5a5a5a5ULL);
        }
        fr52x8_mul(&vo, &va, &vb);
        fr52x8_sub(&vo, &vo, &va);
        fr52x8_mul(&vo, &vo, &vb);
        fr52x8_store(got, &vo);
        CHECK_MSG(memcmp(got, want[3], sizeof got) == 0, "(a b - a) b, iteration %lu", it);
    }
#endif
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * src/gpu/point.cuh's mixed addition, full addition and doubling built with the even/odd squaring
 * (CUZK_GPU_MONT_SQR = 2) and the fused Y3 = A B - C D (CUZK_GPU_PT_FUSED = 1) over the G1 MSM's
 * field settings, run on the host (tests/unit/gpu_pt_fused_host.cu), against the host's XYZZ
 * formulas (cuzk_g1_xyzz_*, cuzk_g2_xyzz_*), coordinate for coordinate: both sides use the same
 * formulas, so canonical outputs are equal, not just the same point. Inputs are random points with
 * random ZZ / ZZZ, their coordinates lifted at random into [p, 2p) (the lazy form the MSM keeps),
 * and the special cases P == Q, P == -Q and infinity. G2 runs the same formulas over Fp2, whose
 * a b - c d stays two products. Needs no GPU; skipped without nvcc.
 */
#include "cuzk/alloc.h"
#include "cuzk/curve.h"
#include "test.h"
#include "test_curve_util.h"

/* Defined only when nvcc built tests/unit/gpu_pt_fused_host.cu (weak: absent in CUDA=0 builds). */
void cuzk__test_pt_fused_host(int group, int op, void *out, const void *p, const void *q, size_t n)
    __attribute__((weak));
/* The same built with CUZK_GPU_FP2_KA (tests/unit/gpu_fp2_ka_host.cu). */
void cuzk__test_pt_fp2_ka_host(int group, int op, void *out, const void *p, const void *q, size_t n)
    __attribute__((weak));
typedef void (*pt_impl)(int group, int op, void *out, const void *p, const void *q, size_t n);

static const uint64_t P[6] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,
                              0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};

/* Adds p to a random half of the |n| canonical Fp values at |v| (raw limbs): still below 2p. */
static void lazify(void *v, size_t n)
{
    uint64_t *l = v;
    for (size_t i = 0; i < n; i++, l += 6) {
        if (test_rand_u64() & 1)
            continue;
        unsigned __int128 c = 0;
        for (int k = 0; k < 6; k++) {
            c += (unsigned __int128)l[k] + P[k];
            l[k] = (uint64_t)c;
            c >>= 64;
        }
    }
}

/* One group behind byte pointers: sizes, random points and the host formulas. */
typedef struct {
    int group;
    size_t xyzz, aff; /* struct sizes; an XYZZ point is xyzz / 48 Fp values */
    void (*rand_aff)(void *out);
    void (*neg_aff)(void *out, const void *in);
    void (*to_xyzz)(void *out, const void *aff); /* random ZZ, ZZZ */
    void (*set_inf)(void *out);
    void (*add_aff)(void *out, const void *p, const void *q);
    void (*add)(void *out, const void *p, const void *q);
    void (*dbl)(void *out, const void *p);
} grp;

static void g1_rand_aff(void *out)
{
    cuzk_g1_jac_t j;
    tc_g1_rand(&j);
    cuzk_g1_to_affine(out, &j);
}
static void g1_neg_aff(void *out, const void *in)
{
    cuzk_g1_affine_neg(out, in);
}
static void g1_to_xyzz(void *out, const void *aff)
{
    const cuzk_g1_affine_t *a = aff;
    cuzk_g1_xyzz_t *o = out;
    cuzk_fp_t z;
    tc_rand_fp(&z);
    cuzk_fp_sqr(&o->zz, &z);
    cuzk_fp_mul(&o->zzz, &o->zz, &z);
    cuzk_fp_mul(&o->x, &a->x, &o->zz);
    cuzk_fp_mul(&o->y, &a->y, &o->zzz);
}
static void g1_set_inf(void *out)
{
    cuzk_g1_xyzz_set_infinity(out);
}
static void g1_add_aff(void *out, const void *p, const void *q)
{
    cuzk_g1_xyzz_add_affine(out, p, q);
}
static void g1_add(void *out, const void *p, const void *q)
{
    cuzk_g1_xyzz_add(out, p, q);
}
static void g1_dbl(void *out, const void *p)
{
    cuzk_g1_xyzz_dbl(out, p);
}

static void g2_rand_aff(void *out)
{
    cuzk_g2_jac_t j;
    tc_g2_rand(&j);
    cuzk_g2_to_affine(out, &j);
}
static void g2_neg_aff(void *out, const void *in)
{
    cuzk_g2_affine_neg(out, in);
}
static void g2_to_xyzz(void *out, const void *aff)
{
    const cuzk_g2_affine_t *a = aff;
    cuzk_g2_xyzz_t *o = out;
    cuzk_fp2_t z;
    tc_rand_fp2(&z);
    cuzk_fp2_sqr(&o->zz, &z);
    cuzk_fp2_mul(&o->zzz, &o->zz, &z);
    cuzk_fp2_mul(&o->x, &a->x, &o->zz);
    cuzk_fp2_mul(&o->y, &a->y, &o->zzz);
}
static void g2_set_inf(void *out)
{
    cuzk_g2_xyzz_set_infinity(out);
}
static void g2_add_aff(void *out, const void *p, const void *q)
{
    cuzk_g2_xyzz_add_affine(out, p, q);
}
static void g2_add(void *out, const void *p, const void *q)
{
    cuzk_g2_xyzz_add(out, p, q);
}
static void g2_dbl(void *out, const void *p)
{
    cuzk_g2_xyzz_dbl(out, p);
}

static const grp G1 = {.group = 1,
                       .xyzz = sizeof(cuzk_g1_xyzz_t),
                       .aff = sizeof(cuzk_g1_affine_t),
                       .rand_aff = g1_rand_aff,
                       .neg_aff = g1_neg_aff,
                       .to_xyzz = g1_to_xyzz,
                       .set_inf = g1_set_inf,
                       .add_aff = g1_add_aff,
                       .add = g1_add,
                       .dbl = g1_dbl};
static const grp G2 = {.group = 2,
                       .xyzz = sizeof(cuzk_g2_xyzz_t),
                       .aff = sizeof(cuzk_g2_affine_t),
                       .rand_aff = g2_rand_aff,
                       .neg_aff = g2_neg_aff,
                       .to_xyzz = g2_to_xyzz,
                       .set_inf = g2_set_inf,
                       .add_aff = g2_add_aff,
                       .add = g2_add,
                       .dbl = g2_dbl};

/* Runs |op| on the n cases (p[i], q[i]): host formulas on the canonical inputs, the device code
 * on lazified copies; outputs must be equal limb for limb. */
static void check_op(pt_impl impl, const grp *g, int op, const uint8_t *p, const uint8_t *q,
                     size_t n)
{
    static const char *const names[] = {"add_aff", "add", "dbl"};
    const size_t qs = op == 0 ? g->aff : g->xyzz;
    uint8_t *lp = cuzk_alloc_array(n, g->xyzz), *lq = cuzk_alloc_array(n, qs),
            *want = cuzk_alloc_array(n, g->xyzz), *got = cuzk_alloc_array(n, g->xyzz);
    CHECK(lp && lq && want && got);
    memcpy(lp, p, n * g->xyzz);
    memcpy(lq, q, n * qs);
    lazify(lp, n * g->xyzz / 48);
    for (size_t i = 0; op != 0 && i < n; i++)
        lazify(lq + i * qs, qs / 48);
    for (size_t i = 0; op == 0 && i < n; i++)
        lazify(lq + i * qs, 2 * (g->group == 1 ? 1 : 2)); /* x and y, not the flag */
    for (size_t i = 0; i < n; i++) {
        if (op == 0)
            g->add_aff(want + i * g->xyzz, p + i * g->xyzz, q + i * qs);
        else if (op == 1)
            g->add(want + i * g->xyzz, p + i * g->xyzz, q + i * qs);
        else
            g->dbl(want + i * g->xyzz, p + i * g->xyzz);
    }
    memset(got, 0xa5, n * g->xyzz);
    impl(g->group, op, got, lp, lq, n);
    for (size_t i = 0; i < n; i++)
        CHECK_MSG(memcmp(want + i * g->xyzz, got + i * g->xyzz, g->xyzz) == 0,
                  "G%d %s differs from the host at case %zu", g->group, names[op], i);
    cuzk_free(got);
    cuzk_free(want);
    cuzk_free(lq);
    cuzk_free(lp);
}

static void check_group(pt_impl impl, const grp *g, size_t k)
{
    const size_t xs = g->xyzz, as = g->aff;
    uint8_t *a = cuzk_alloc_array(k, as), *na = cuzk_alloc_array(k, as);
    uint8_t *p = cuzk_alloc_array(6 * k, xs), *q = cuzk_alloc_array(6 * k, xs),
            *qa = cuzk_alloc_array(6 * k, as);
    CHECK(a && na && p && q && qa);
    for (size_t i = 0; i < k; i++) {
        g->rand_aff(a + i * as);
        g->neg_aff(na + i * as, a + i * as);
    }
    /* Mixed addition, four cases per point: P + Q (random), P + P, P + (-P), O + P. */
    size_t n = 0;
    for (size_t i = 0; i < k; i++)
        for (int c = 0; c < 4; c++, n++) {
            uint8_t *pp = p + n * xs, *qq = qa + n * as;
            g->to_xyzz(pp, a + i * as);
            if (c == 3)
                g->set_inf(pp);
            memcpy(qq, (c == 2 ? na : a) + (c == 0 ? (i + 1) % k : i) * as, as);
        }
    check_op(impl, g, 0, p, qa, n);
    /* Full addition, six cases per point: P + Q, P + P (other ZZ), P + (-P), O + P, P + O,
     * O + O. */
    n = 0;
    for (size_t i = 0; i < k; i++)
        for (int c = 0; c < 6; c++, n++) {
            uint8_t *pp = p + n * xs, *qq = q + n * xs;
            g->to_xyzz(pp, a + i * as);
            g->to_xyzz(qq, (c == 2 ? na : a) + (c == 0 ? (i + 1) % k : i) * as);
            if (c == 3 || c == 5)
                g->set_inf(pp);
            if (c >= 4)
                g->set_inf(qq);
        }
    check_op(impl, g, 1, p, q, n);
    /* Doubling: random points and infinity. */
    n = 0;
    for (size_t i = 0; i < k; i++, n += 2) {
        g->to_xyzz(p + n * xs, a + i * as);
        g->set_inf(p + (n + 1) * xs);
    }
    check_op(impl, g, 2, p, p, n);
    cuzk_free(qa);
    cuzk_free(q);
    cuzk_free(p);
    cuzk_free(na);
    cuzk_free(a);
}

CUZK_TEST(gpu_pt_fused_host)
{
    if (!cuzk__test_pt_fused_host)
        test_skip("built without nvcc (CUDA=0): no host build of the device point formulas");
    check_group(cuzk__test_pt_fused_host, &G1, test_iters(1) * 64);
    check_group(cuzk__test_pt_fused_host, &G2, test_iters(1) * 16);
}

/* G2's formulas over the Fp2 products of CUZK_GPU_FP2_KA (wide Karatsuba terms, two reductions):
 * the same cases, inputs lifted into [p, 2p) as the MSM keeps them, outputs equal to the host's. */
CUZK_TEST(gpu_fp2_ka_host)
{
    if (!cuzk__test_pt_fp2_ka_host)
        test_skip("built without nvcc (CUDA=0): no host build of the device Fp2 products");
    check_group(cuzk__test_pt_fp2_ka_host, &G2, test_iters(1) * 32);
}

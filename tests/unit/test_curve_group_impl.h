/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Group-law and scalar-multiplication checks written once for G1 and G2 (like
 * src/curve/point_impl.h). The including file defines P_(name) (library prefix), T_(name)
 * (helper prefix: tc_g1_ / tc_g2_), AFF_T, JAC_T, XYZZ_T, and registers CUZK_TEST wrappers.
 */

/* r - 1 as a raw scalar, and as an Fr element (= -1). */
static void T_(set_minus_one)(cuzk_fr_t *k)
{
    cuzk_fr_set_one(k);
    cuzk_fr_neg(k, k);
}

static void T_(check_generator)(void)
{
    AFF_T g, a;
    JAC_T gj, t, u;
    P_(generator)(&g);
    CHECK(!g.infinity);
    CHECK(P_(affine_is_on_curve)(&g));
    P_(from_affine)(&gj, &g);
    CHECK(P_(is_on_curve)(&gj));
    CHECK(P_(affine_in_subgroup)(&g));
    CHECK(P_(in_subgroup)(&gj));
    /* r G = O with the plain definition. */
    P_(mul_raw_vartime)(&t, &gj, TC_R, 4);
    CHECK(P_(jac_is_infinity)(&t));
    /* (r - 1) G = -G with every multiplication. */
    uint64_t rm1[4] = {TC_R[0] - 1, TC_R[1], TC_R[2], TC_R[3]};
    cuzk_fr_t m1;
    T_(set_minus_one)(&m1);
    P_(neg)(&u, &gj);
    P_(mul_raw_vartime)(&t, &gj, rm1, 4);
    CHECK(P_(eq)(&t, &u));
    P_(mul)(&t, &gj, &m1);
    CHECK(P_(eq)(&t, &u));
    P_(mul_vartime)(&t, &gj, &m1);
    CHECK(P_(eq)(&t, &u));
    P_(to_affine)(&a, &t);
    P_(affine_neg)(&a, &a);
    CHECK(P_(affine_eq)(&a, &g));
    /* Infinity is on the curve and in the subgroup. */
    P_(affine_set_infinity)(&a);
    CHECK(P_(affine_is_on_curve)(&a) && P_(affine_in_subgroup)(&a));
    P_(jac_set_infinity)(&t);
    CHECK(P_(is_on_curve)(&t) && P_(in_subgroup)(&t));
}

static void T_(check_group_law)(void)
{
    JAC_T inf, p, q, s, t, u, v, w;
    AFF_T pa, qa, na, ia;
    P_(jac_set_infinity)(&inf);
    P_(affine_set_infinity)(&ia);
    for (unsigned long it = 0; it < test_iters(20); it++) {
        T_(rand)(&p);
        T_(rand)(&q);
        T_(rand)(&s);
        T_(rerand)(&q);
        CHECK(P_(is_on_curve)(&p) && P_(is_on_curve)(&q));
        CHECK(!P_(eq)(&p, &q));
        /* commutativity, associativity */
        P_(add)(&t, &p, &q);
        P_(add)(&u, &q, &p);
        CHECK(P_(eq)(&t, &u));
        CHECK(P_(is_on_curve)(&t));
        P_(add)(&t, &t, &s);
        P_(add)(&u, &q, &s);
        P_(add)(&u, &p, &u);
        CHECK(P_(eq)(&t, &u));
        /* P + P == 2P, also with a different representation of P */
        P_(dbl)(&t, &p);
        P_(add)(&u, &p, &p);
        CHECK(P_(eq)(&t, &u));
        v = p;
        T_(rerand)(&v);
        CHECK(P_(eq)(&v, &p));
        P_(add)(&u, &p, &v);
        CHECK(P_(eq)(&t, &u));
        CHECK(P_(is_on_curve)(&t));
        /* P + (-P) == O */
        P_(neg)(&w, &v);
        P_(add)(&u, &p, &w);
        CHECK(P_(jac_is_infinity)(&u));
        CHECK(!P_(eq)(&w, &p));
        /* identity */
        P_(add)(&u, &p, &inf);
        CHECK(P_(eq)(&u, &p));
        P_(add)(&u, &inf, &p);
        CHECK(P_(eq)(&u, &p));
        P_(add)(&u, &inf, &inf);
        CHECK(P_(jac_is_infinity)(&u));
        P_(dbl)(&u, &inf);
        CHECK(P_(jac_is_infinity)(&u));
        CHECK(!P_(eq)(&p, &inf) && !P_(eq)(&inf, &p) && P_(eq)(&inf, &inf));
        /* mixed addition against full addition, all special cases */
        P_(to_affine)(&qa, &q);
        P_(to_affine)(&pa, &p);
        CHECK(P_(affine_is_on_curve)(&qa));
        P_(add)(&t, &p, &q);
        P_(add_affine)(&u, &p, &qa);
        CHECK(P_(eq)(&t, &u));
        P_(add_affine)(&u, &v, &pa); /* v == p, another Z */
        P_(dbl)(&t, &p);
        CHECK(P_(eq)(&t, &u));
        P_(affine_neg)(&na, &pa);
        P_(add_affine)(&u, &v, &na);
        CHECK(P_(jac_is_infinity)(&u));
        P_(add_affine)(&u, &inf, &qa);
        CHECK(P_(eq)(&u, &q));
        P_(add_affine)(&u, &p, &ia);
        CHECK(P_(eq)(&u, &p));
        /* outputs aliasing inputs */
        P_(add)(&t, &p, &q);
        u = p;
        P_(add)(&u, &u, &q);
        CHECK(P_(eq)(&t, &u));
        u = q;
        P_(add)(&u, &p, &u);
        CHECK(P_(eq)(&t, &u));
        u = p;
        P_(add_affine)(&u, &u, &qa);
        CHECK(P_(eq)(&t, &u));
        u = p;
        P_(add)(&u, &u, &u);
        P_(dbl)(&t, &p);
        CHECK(P_(eq)(&t, &u));
        u = p;
        P_(dbl)(&u, &u);
        CHECK(P_(eq)(&t, &u));
        /* affine round trip and equality */
        P_(from_affine)(&u, &pa);
        CHECK(P_(eq)(&u, &p));
        CHECK(P_(affine_eq)(&pa, &pa) && !P_(affine_eq)(&pa, &qa) && !P_(affine_eq)(&pa, &na));
        CHECK(!P_(affine_eq)(&pa, &ia) && !P_(affine_eq)(&ia, &pa) && P_(affine_eq)(&ia, &ia));
        P_(to_affine)(&na, &inf);
        CHECK(na.infinity);
        P_(from_affine)(&u, &ia);
        CHECK(P_(jac_is_infinity)(&u));
    }
}

/* XYZZ results agree with the Jacobian ones, special cases included. */
static void T_(check_xyzz)(void)
{
    JAC_T p, q, t, u;
    AFF_T pa, qa, na, ia;
    XYZZ_T x, y, z, inf;
    P_(xyzz_set_infinity)(&inf);
    P_(affine_set_infinity)(&ia);
    CHECK(P_(xyzz_is_infinity)(&inf));
    P_(xyzz_to_jac)(&t, &inf);
    CHECK(P_(jac_is_infinity)(&t));
    for (unsigned long it = 0; it < test_iters(20); it++) {
        T_(rand)(&p);
        T_(rand)(&q);
        P_(to_affine)(&pa, &p);
        P_(to_affine)(&qa, &q);
        P_(affine_neg)(&na, &pa);
        /* madd */
        P_(xyzz_from_affine)(&x, &pa);
        P_(xyzz_add_affine)(&y, &x, &qa);
        P_(xyzz_to_jac)(&t, &y);
        P_(add)(&u, &p, &q);
        CHECK(P_(eq)(&t, &u));
        CHECK(P_(is_on_curve)(&t));
        /* add of two non-normalised XYZZ points */
        P_(xyzz_add_affine)(&z, &y, &pa); /* 2P + Q */
        P_(xyzz_add)(&x, &y, &z);         /* 3P + 2Q */
        P_(xyzz_to_jac)(&t, &x);
        P_(dbl)(&u, &u);
        P_(add)(&u, &u, &p);
        CHECK(P_(eq)(&t, &u));
        /* dbl */
        P_(xyzz_dbl)(&z, &y);
        P_(xyzz_to_jac)(&t, &z);
        P_(add)(&u, &p, &q);
        P_(dbl)(&u, &u);
        CHECK(P_(eq)(&t, &u));
        /* special cases: P + P, P + (-P), identity */
        P_(xyzz_from_affine)(&x, &pa);
        P_(xyzz_dbl)(&x, &x); /* non-trivial ZZ */
        P_(xyzz_dbl)(&y, &x);
        P_(xyzz_add)(&z, &x, &x);
        P_(xyzz_to_jac)(&t, &z);
        P_(xyzz_to_jac)(&u, &y);
        CHECK(P_(eq)(&t, &u));
        P_(xyzz_from_affine)(&x, &pa);
        P_(xyzz_add_affine)(&y, &x, &qa);
        P_(xyzz_add_affine)(&y, &y, &na); /* back to Q, non-trivial ZZ */
        P_(xyzz_to_jac)(&t, &y);
        CHECK(P_(eq)(&t, &q));
        P_(xyzz_add_affine)(&z, &y, &qa); /* Q + Q through madd */
        P_(xyzz_to_jac)(&t, &z);
        P_(dbl)(&u, &q);
        CHECK(P_(eq)(&t, &u));
        P_(xyzz_from_affine)(&x, &na);
        P_(xyzz_add)(&z, &y, &x); /* still Q - P */
        P_(xyzz_from_affine)(&x, &qa);
        P_(affine_neg)(&qa, &qa);
        P_(xyzz_add_affine)(&z, &y, &qa); /* Q + (-Q) */
        CHECK(P_(xyzz_is_infinity)(&z));
        P_(xyzz_from_affine)(&x, &qa);
        P_(xyzz_add)(&z, &y, &x); /* Q + (-Q) through add */
        CHECK(P_(xyzz_is_infinity)(&z));
        P_(xyzz_add)(&z, &inf, &y);
        P_(xyzz_to_jac)(&t, &z);
        CHECK(P_(eq)(&t, &q));
        P_(xyzz_add)(&z, &y, &inf);
        P_(xyzz_to_jac)(&t, &z);
        CHECK(P_(eq)(&t, &q));
        P_(xyzz_add_affine)(&z, &inf, &pa);
        P_(xyzz_to_jac)(&t, &z);
        CHECK(P_(eq)(&t, &p));
        P_(xyzz_add_affine)(&z, &y, &ia);
        P_(xyzz_to_jac)(&t, &z);
        CHECK(P_(eq)(&t, &q));
        P_(xyzz_dbl)(&z, &inf);
        CHECK(P_(xyzz_is_infinity)(&z));
        P_(xyzz_from_affine)(&z, &ia);
        CHECK(P_(xyzz_is_infinity)(&z));
    }
}

static void T_(check_scalar)(void)
{
    JAC_T p, t, u, v, inf;
    P_(jac_set_infinity)(&inf);
    for (unsigned long it = 0; it < test_iters(10); it++) {
        cuzk_fr_t k1, k2, k3;
        uint64_t raw[4];
        T_(rand)(&p);
        T_(rerand)(&p);
        tc_rand_fr(&k1);
        tc_rand_fr(&k2);
        cuzk_fr_add(&k3, &k1, &k2);
        /* k1 P + k2 P == (k1 + k2) P */
        P_(mul)(&t, &p, &k1);
        P_(mul)(&u, &p, &k2);
        P_(add)(&t, &t, &u);
        P_(mul)(&u, &p, &k3);
        CHECK(P_(eq)(&t, &u));
        P_(mul_vartime)(&t, &p, &k1);
        P_(mul_vartime)(&v, &p, &k2);
        P_(add)(&t, &t, &v);
        CHECK(P_(eq)(&t, &u));
        /* mul == mul_vartime == mul_raw_vartime */
        P_(mul)(&t, &p, &k1);
        P_(mul_vartime)(&u, &p, &k1);
        cuzk_fr_to_canonical(raw, &k1);
        P_(mul_raw_vartime)(&v, &p, raw, 4);
        CHECK(P_(eq)(&t, &u));
        CHECK(P_(eq)(&t, &v));
        /* k (l P) == (k l) P */
        cuzk_fr_mul(&k3, &k1, &k2);
        P_(mul_vartime)(&t, &p, &k2);
        P_(mul)(&t, &t, &k1);
        P_(mul_vartime)(&u, &p, &k3);
        CHECK(P_(eq)(&t, &u));
        /* aliasing */
        u = p;
        P_(mul)(&u, &u, &k1);
        P_(mul)(&t, &p, &k1);
        CHECK(P_(eq)(&t, &u));
        u = p;
        P_(mul_vartime)(&u, &u, &k1);
        CHECK(P_(eq)(&t, &u));
        /* k * O == O */
        P_(mul)(&t, &inf, &k1);
        CHECK(P_(jac_is_infinity)(&t));
        P_(mul_vartime)(&t, &inf, &k1);
        CHECK(P_(jac_is_infinity)(&t));
        P_(mul_raw_vartime)(&t, &inf, raw, 4);
        CHECK(P_(jac_is_infinity)(&t));
    }
    /* Small scalars against repeated addition, and r - 1 - j. */
    T_(rand)(&p);
    P_(jac_set_infinity)(&v);
    for (uint64_t j = 0; j < 40; j++) {
        cuzk_fr_t k;
        uint64_t raw = j;
        cuzk_fr_set_u64(&k, j);
        P_(mul)(&t, &p, &k);
        CHECK(P_(eq)(&t, &v));
        P_(mul_vartime)(&t, &p, &k);
        CHECK(P_(eq)(&t, &v));
        P_(mul_raw_vartime)(&t, &p, &raw, 1);
        CHECK(P_(eq)(&t, &v));
        cuzk_fr_neg(&k, &k);
        P_(neg)(&u, &v);
        P_(mul)(&t, &p, &k);
        CHECK(P_(eq)(&t, &u));
        P_(mul_vartime)(&t, &p, &k);
        CHECK(P_(eq)(&t, &u));
        P_(add)(&v, &v, &p);
    }
    /* Scalars with long runs of ones/zeros (wNAF carries). */
    static const uint64_t pat[][4] = {
        {~0ULL, ~0ULL, ~0ULL, 0x3fffffffffffffffULL},
        {0, 0, 0, 0x4000000000000000ULL},
        {~0ULL, 0, ~0ULL, 0},
        {0x5555555555555555ULL, 0xaaaaaaaaaaaaaaaaULL, 0xf0f0f0f0f0f0f0f0ULL,
         0x0f0f0f0f0f0f0f0fULL},
        {0xffffffff00000000ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL,
         0x73eda753299d7d48ULL},
    };
    for (size_t i = 0; i < sizeof pat / sizeof pat[0]; i++) {
        cuzk_fr_t k;
        CHECK(cuzk_fr_from_canonical(&k, pat[i]));
        P_(mul)(&t, &p, &k);
        P_(mul_vartime)(&u, &p, &k);
        P_(mul_raw_vartime)(&v, &p, pat[i], 4);
        CHECK(P_(eq)(&t, &u));
        CHECK(P_(eq)(&t, &v));
    }
}

/* mul (fixed window, any point) agrees with mul_raw_vartime on points outside the subgroup. */
static void T_(check_mul_full_curve)(void)
{
    for (unsigned long it = 0; it < test_iters(5); it++) {
        AFF_T a;
        JAC_T p, t, u;
        cuzk_fr_t k;
        uint64_t raw[4];
        T_(rand_curve)(&a);
        P_(from_affine)(&p, &a);
        tc_rand_fr(&k);
        cuzk_fr_to_canonical(raw, &k);
        P_(mul)(&t, &p, &k);
        P_(mul_raw_vartime)(&u, &p, raw, 4);
        CHECK(P_(eq)(&t, &u));
        CHECK(P_(is_on_curve)(&t));
    }
}

static void T_(check_batch_to_affine)(void)
{
    enum { N = 37 };
    JAC_T in[N];
    AFF_T out[N], one;
    for (size_t i = 0; i < N; i++) {
        if (i % 5 == 3 || i == 0 || i == N - 1)
            P_(jac_set_infinity)(&in[i]);
        else
            T_(rand)(&in[i]);
    }
    for (size_t n = 0; n <= N; n += (n < 3 ? 1 : 17)) {
        memset(out, 0xa5, sizeof out);
        P_(batch_to_affine)(out, in, n);
        for (size_t i = 0; i < n; i++) {
            P_(to_affine)(&one, &in[i]);
            CHECK(P_(affine_eq)(&one, &out[i]));
            CHECK(one.infinity == out[i].infinity);
        }
        for (size_t i = n; i < N; i++)
            CHECK(((const uint8_t *)&out[i])[0] == 0xa5);
    }
    P_(batch_to_affine)(out, in + 1, N - 1);
    for (size_t i = 1; i < N; i++) {
        P_(to_affine)(&one, &in[i]);
        CHECK(P_(affine_eq)(&one, &out[i - 1]));
    }
}

/* r Q = O on points of the full curve: the cofactor h maps them into the subgroup, and the
 * endomorphism-based subgroup check agrees with the plain definition. */
static void T_(check_subgroup)(const uint64_t *h, size_t hn)
{
    unsigned long outside = 0;
    for (unsigned long it = 0; it < test_iters(16); it++) {
        AFF_T a;
        JAC_T p, t;
        T_(rand_curve)(&a);
        P_(from_affine)(&p, &a);
        CHECK(P_(is_on_curve)(&p));
        P_(mul_raw_vartime)(&t, &p, TC_R, 4);
        bool plain = P_(jac_is_infinity)(&t);
        outside += !plain;
        CHECK(P_(in_subgroup)(&p) == plain);
        CHECK(P_(affine_in_subgroup)(&a) == plain);
        T_(rerand)(&p);
        CHECK(P_(in_subgroup)(&p) == plain);
        /* h Q is in the subgroup */
        P_(mul_raw_vartime)(&t, &p, h, hn);
        JAC_T u;
        P_(mul_raw_vartime)(&u, &t, TC_R, 4);
        CHECK(P_(jac_is_infinity)(&u));
        CHECK(P_(in_subgroup)(&t));
        /* random subgroup points, and subgroup point + non-subgroup point */
        T_(rand)(&t);
        CHECK(P_(in_subgroup)(&t));
        P_(add)(&u, &t, &p);
        P_(mul_raw_vartime)(&t, &u, TC_R, 4);
        CHECK(P_(in_subgroup)(&u) == P_(jac_is_infinity)(&t));
    }
    CHECK(outside > 0);
    /* An off-curve point is never reported as a subgroup member. */
    JAC_T p;
    T_(rand)(&p);
    P_(dbl)(&p, &p);
    p.y = p.x;
    CHECK(!P_(is_on_curve)(&p));
    CHECK(!P_(in_subgroup)(&p));
}

/* out = h / d for the |n|-limb h; returns the remainder. */
static uint64_t T_(div_small)(uint64_t *out, const uint64_t *h, size_t n, uint64_t d)
{
    unsigned __int128 rem = 0;
    for (size_t i = n; i-- > 0;) {
        unsigned __int128 cur = (rem << 64) | h[i];
        out[i] = (uint64_t)(cur / d);
        rem = cur % d;
    }
    return (uint64_t)rem;
}

/*
 * Points of small order: T = [r][h/d] Q has order dividing d for d | h. The endomorphism
 * subgroup check must reject every T != O and every subgroup point plus such a T; this is the
 * case an eigenvalue coincidence on a torsion component would break. |mults| are extra
 * multipliers c (T = [r][c] Q) for prime factors of h too large for a u64 divisor.
 */
static void T_(check_torsion)(const uint64_t *h, size_t hn, const uint64_t *divs, size_t ndivs,
                              const uint64_t *mults, size_t nmults)
{
    uint64_t c[16];
    size_t nonzero = 0;
    for (size_t i = 0; i < ndivs + nmults; i++) {
        size_t cn = 1;
        if (i < ndivs) {
            CHECK(T_(div_small)(c, h, hn, divs[i]) == 0);
            cn = hn;
        } else {
            c[0] = mults[i - ndivs];
        }
        for (int rep = 0; rep < 3; rep++) {
            AFF_T a;
            JAC_T q, t, g, u;
            T_(rand_curve)(&a);
            P_(from_affine)(&q, &a);
            P_(mul_raw_vartime)(&t, &q, TC_R, 4);
            P_(mul_raw_vartime)(&t, &t, c, cn);
            if (P_(jac_is_infinity)(&t))
                continue;
            nonzero++;
            CHECK(P_(is_on_curve)(&t));
            P_(mul_raw_vartime)(&u, &t, TC_R, 4);
            CHECK(!P_(jac_is_infinity)(&u));
            CHECK(!P_(in_subgroup)(&t));
            T_(rand)(&g);
            P_(add)(&u, &g, &t);
            CHECK(!P_(in_subgroup)(&u));
        }
    }
    CHECK(nonzero >= ndivs + nmults);
}

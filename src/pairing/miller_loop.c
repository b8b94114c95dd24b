/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Optimal ate Miller loop for BLS12-381: f_{|x|,Q}(P) with |x| = 0xd201000000010000, conjugated at
 * the end because x is negative (after the final exponentiation conjugation equals inversion, and
 * f_{-|x|,Q} = 1 / f_{|x|,Q} up to factors the final exponentiation removes).
 *
 * Q lives on the M-twist E': y^2 = x^3 + 4 xi over Fp2 and maps into E(Fp12) by
 * (x, y) -> (x / w^2, y / w^3). A line through points of E' with slope lambda, evaluated at
 * P = (xP, yP) and multiplied by w^3 (which lies in Fp4, a subfield the final exponentiation
 * kills), is (lambda xT - yT) - lambda xP w^2 + yP w^3: coefficients at positions 0, 1, 4 of the
 * basis (1, v, v^2, w, v w, v^2 w), hence cuzk__fp12_mul_by_014. Every line is further scaled by
 * an element of Fp2, also killed by the final exponentiation.
 *
 * T is kept in homogeneous projective coordinates (x = X/Z, y = Y/Z) with the doubling and mixed
 * addition formulas of Costello, Lange and Naehrig, "Faster Pairing Computations on Curves with
 * High-Degree Twists", eprint 2009/615, in the form of Aranha, Karabina, Longa, Gebotys and Lopez,
 * "Faster Explicit Formulas for Computing Pairings over Ordinary Curves", eprint 2010/354,
 * section 4 (adapted to the M-twist b' = 4 xi and with the doubling scaled by 4 to avoid halving).
 *
 * No heap use: pairs are processed in chunks of CHUNK on the stack, each chunk sharing one
 * squaring of f per step; the chunk results are multiplied together.
 */
#include "cuzk/pairing.h"
#include "field/fp12_internal.h"
#include "field/tower_ops.h"

#define BLS_X_ABS 0xd201000000010000ULL
#define CHUNK 16

typedef struct {
    cuzk_fp2_t x, y, z;
} g2_proj;

/* Per-pair loop state: the accumulator T, the affine Q and the precomputed P coordinates. */
typedef struct {
    g2_proj t;
    const cuzk_g2_affine_t *q;
    cuzk_fp_t xp_neg, yp, yp_neg;
} pair_state;

/*
 * T = 2T and f = f * l_{T,T}(P). With B = Y^2, C = Z^2, E = 3 b' C = 12 xi C, F = 3E,
 * H = (Y + Z)^2 - B - C = 2YZ (eprint 2010/354, eq. (10), the doubled coordinates scaled by 4):
 *   X3 = 2XY(B - F), Y3 = (B + F)^2 - 12 E^2, Z3 = 4BH,
 *   l = (E - B) + 3X^2 xP w^2 - H yP w^3   (the tangent line times -2YZ w^3).
 * 3M + 6S (Fp2) + 4 Fp multiplications.
 */
static void dbl_step(cuzk_fp12_t *f, pair_state *s)
{
    g2_proj *t = &s->t;
    cuzk_fp2_t xx, b, c, e, ff, h, l0, l1, l4, xy, u;

    fp2_sqr(&xx, &t->x);
    fp2_sqr(&b, &t->y);
    fp2_sqr(&c, &t->z);
    fp2_add(&h, &t->y, &t->z);
    fp2_sqr(&h, &h);
    fp2_sub(&h, &h, &b);
    fp2_sub(&h, &h, &c);
    /* E = 12 xi C. */
    fp2_mul_by_nonresidue(&u, &c);
    fp2_dbl(&u, &u);
    fp2_dbl(&u, &u);
    fp2_dbl(&e, &u);
    fp2_add(&e, &e, &u);
    fp2_dbl(&ff, &e);
    fp2_add(&ff, &ff, &e);

    /* Line coefficients. */
    fp2_sub(&l0, &e, &b);
    fp2_dbl(&l1, &xx);
    fp2_add(&l1, &l1, &xx);
    fp2_mul_fp(&l1, &l1, &s->xp_neg);
    fp2_neg(&l1, &l1);
    fp2_mul_fp(&l4, &h, &s->yp_neg);

    /* X3 = 2XY(B - F). */
    fp2_mul(&xy, &t->x, &t->y);
    fp2_sub(&u, &b, &ff);
    fp2_mul(&t->x, &xy, &u);
    fp2_dbl(&t->x, &t->x);
    /* Y3 = (B + F)^2 - 12 E^2. */
    fp2_add(&u, &b, &ff);
    fp2_sqr(&u, &u);
    fp2_sqr(&e, &e);
    fp2_dbl(&e, &e);
    fp2_dbl(&e, &e);
    fp2_sub(&u, &u, &e);
    fp2_dbl(&e, &e);
    fp2_sub(&t->y, &u, &e);
    /* Z3 = 4BH. */
    fp2_mul(&t->z, &b, &h);
    fp2_dbl(&t->z, &t->z);
    fp2_dbl(&t->z, &t->z);

    cuzk__fp12_mul_by_014(f, &l0, &l1, &l4);
}

/*
 * T = T + Q (Q affine, T != +-Q) and f = f * l_{T,Q}(P). With theta = Y - yQ Z,
 * lambda = X - xQ Z, C = theta^2, D = lambda^2, E = lambda D, F = Z C, G = X D,
 * H = E + F - 2G (eprint 2010/354, eq. (13)):
 *   X3 = lambda H, Y3 = theta (G - H) - Y E, Z3 = Z E,
 *   l = (theta xQ - lambda yQ) - theta xP w^2 + lambda yP w^3   (the chord times lambda w^3).
 * 11M + 2S (Fp2) + 4 Fp multiplications.
 */
static void add_step(cuzk_fp12_t *f, pair_state *s)
{
    g2_proj *t = &s->t;
    const cuzk_g2_affine_t *q = s->q;
    cuzk_fp2_t theta, lambda, c, d, e, ff, g, h, l0, l1, l4, u;

    fp2_mul(&theta, &q->y, &t->z);
    fp2_sub(&theta, &t->y, &theta);
    fp2_mul(&lambda, &q->x, &t->z);
    fp2_sub(&lambda, &t->x, &lambda);

    /* Line coefficients. */
    fp2_mul(&l0, &theta, &q->x);
    fp2_mul(&u, &lambda, &q->y);
    fp2_sub(&l0, &l0, &u);
    fp2_mul_fp(&l1, &theta, &s->xp_neg);
    fp2_mul_fp(&l4, &lambda, &s->yp);

    fp2_sqr(&c, &theta);
    fp2_sqr(&d, &lambda);
    fp2_mul(&e, &lambda, &d);
    fp2_mul(&ff, &t->z, &c);
    fp2_mul(&g, &t->x, &d);
    fp2_add(&h, &e, &ff);
    fp2_sub(&h, &h, &g);
    fp2_sub(&h, &h, &g);

    fp2_mul(&t->x, &lambda, &h);
    fp2_sub(&u, &g, &h);
    fp2_mul(&u, &theta, &u);
    fp2_mul(&g, &t->y, &e);
    fp2_sub(&t->y, &u, &g);
    fp2_mul(&t->z, &t->z, &e);

    cuzk__fp12_mul_by_014(f, &l0, &l1, &l4);
}

/* f = prod_j f_{|x|,Q_j}(P_j) over the |n| prepared pairs (n >= 1), not conjugated. */
static void miller_chunk(cuzk_fp12_t *f, pair_state *st, size_t n)
{
    cuzk_fp12_set_one(f);
    /* The top bit of |x| is the initial T = Q; walk the remaining 63 bits. */
    for (int i = 62; i >= 0; i--) {
        if (i != 62)
            cuzk_fp12_sqr(f, f);
        for (size_t j = 0; j < n; j++)
            dbl_step(f, &st[j]);
        if ((BLS_X_ABS >> i) & 1) {
            for (size_t j = 0; j < n; j++)
                add_step(f, &st[j]);
        }
    }
}

static void prepare(pair_state *s, const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q)
{
    s->t.x = q->x;
    s->t.y = q->y;
    cuzk_fp2_set_one(&s->t.z);
    s->q = q;
    fp_neg(&s->xp_neg, &p->x);
    s->yp = p->y;
    fp_neg(&s->yp_neg, &p->y);
}

void cuzk_miller_loop_multi(cuzk_fp12_t *out, const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q,
                            size_t n)
{
    pair_state st[CHUNK];
    size_t k = 0;
    bool any = false;
    cuzk_fp12_t acc, f;
    cuzk_fp12_set_one(&acc);
    for (size_t i = 0; i < n; i++) {
        /* Points at infinity contribute 1 (public data: branching is fine). */
        if (p[i].infinity || q[i].infinity)
            continue;
        prepare(&st[k++], &p[i], &q[i]);
        if (k == CHUNK) {
            miller_chunk(&f, st, k);
            if (any)
                cuzk_fp12_mul(&acc, &acc, &f);
            else
                acc = f;
            any = true;
            k = 0;
        }
    }
    if (k > 0) {
        miller_chunk(&f, st, k);
        if (any)
            cuzk_fp12_mul(&acc, &acc, &f);
        else
            acc = f;
    }
    /* x < 0. */
    cuzk_fp12_conj(out, &acc);
}

void cuzk_miller_loop(cuzk_fp12_t *out, const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q)
{
    cuzk_miller_loop_multi(out, p, q, 1);
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The subgroup tests of src/curve (Scott, eprint 2021/1130: G1 by phi(P) = [-x^2] P, g1.c; G2
 * by psi(P) = [x] P, g2.c) for 8 points at once: the scalar multiplication by the fixed,
 * sparse constant as an 8-lane XYZZ double-and-add over the affine point, then one comparison
 * with the endomorphism's image. Loading a snarkjs key with its subgroups checked was ~14 s of
 * a 2^16 proof's 14.7 s, all in these one-point tests. Included by src/msm/reduce_x8.h (its
 * F8_* macros and M_(xyzz8_)); no include guard.
 */

/* dbl-2008-s-1 (a = 0) on every lane (o may alias p). A lane at Y = 0 ends with ZZ = 0, which
 * stays 0 through later steps: the caller's end check catches it. */
static inline void M_(xyzz8_dbl_)(M_(xyzz8_) *o, const M_(xyzz8_) *p)
{
    F8_T u, v, w, s, m, t, x3, y3;
    F8_(add)(&u, &p->y, &p->y);
    F8_CALL(sqr)(&v, &u);
    F8_CALL(mul)(&w, &u, &v);
    F8_CALL(mul)(&s, &p->x, &v);
    F8_CALL(sqr)(&t, &p->x);
    F8_(add)(&m, &t, &t);
    F8_(add)(&m, &m, &t); /* 3 X^2 */
    F8_CALL(sqr)(&x3, &m);
    F8_(sub)(&x3, &x3, &s);
    F8_(sub)(&x3, &x3, &s);
    F8_(sub)(&t, &s, &x3);
    F8_CALL(mul)(&y3, &m, &t);
    F8_CALL(mul)(&t, &w, &p->y);
    F8_(sub)(&y3, &y3, &t);
    F8_CALL(mul)(&o->zz, &v, &p->zz);
    F8_CALL(mul)(&o->zzz, &w, &p->zzz);
    o->x = x3;
    o->y = y3;
}

/*
 * Lanes where -[k] P = (ex, ey), for the affine points P = (px, py) (on the curve, none at
 * infinity) and k = khi 2^64 + klo >= 2. *|unsure| receives the lanes whose chain met a case
 * the vector formulas do not cover (the accumulator at +-P or at infinity on the way; for a
 * point of prime order above k + 1 that cannot happen); their result says nothing, and the
 * caller decides them with the scalar test.
 */
static __mmask8 M_(x8_neg_mul_eq_)(const F8_T *px, const F8_T *py, uint64_t khi, uint64_t klo,
                                   const F8_T *ex, const F8_T *ey, __mmask8 *unsure)
{
    M_(xyzz8_) acc, t;
    acc.x = *px;
    acc.y = *py;
    F8_SET_ONE(&acc.zz);
    F8_SET_ONE(&acc.zzz);
    int top = khi ? 127 - __builtin_clzll(khi) : 63 - __builtin_clzll(klo);
    __mmask8 bad = 0;
    for (int b = top - 1; b >= 0; b--) {
        M_(xyzz8_dbl_)(&acc, &acc);
        if ((b >= 64 ? khi >> (b - 64) : klo >> b) & 1) {
            bad |= M_(xyzz8_madd_)(&t, &acc, px, py);
            acc = t;
        }
    }
    bad |= F8_(is_zero_mask)(&acc.zz);
    /* -[k] P = (X / ZZ, -Y / ZZZ): equal to (ex, ey) iff X - ex ZZ = 0 and Y + ey ZZZ = 0. */
    F8_T dx, dy;
    F8_CALL(mul)(&dx, ex, &acc.zz);
    F8_(sub)(&dx, &acc.x, &dx);
    F8_CALL(mul)(&dy, ey, &acc.zzz);
    F8_(add)(&dy, &acc.y, &dy);
    *unsure = bad;
    return F8_(is_zero_mask)(&dx) & F8_(is_zero_mask)(&dy) & (__mmask8)~bad;
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The short-Weierstrass a = 0 group law, written once and instantiated per group: a .c file
 * defines the parameter macros below and then includes this file, which defines the functions
 * of include/cuzk/curve.h for that group (blst's habit of one type-generic body for G1 and G2).
 * No include guard on purpose.
 *
 * Parameters (all required):
 *   G_(name)          public name for the group, e.g. cuzk_g1_##name
 *   F_T               field element type
 *   F_ZERO F_ONE F_IS_ZERO F_EQ F_ADD F_SUB F_NEG F_DBL F_MUL F_SQR F_INV F_CMOV
 *                     field operations with the cuzk_fp_* signatures
 *   AFF_T JAC_T XYZZ_T  point types
 *   CURVE_B           pointer to the curve constant b (Montgomery form)
 *
 * Every function accepts outputs aliasing inputs: inputs are read into locals first where the
 * formulas would otherwise overwrite them early.
 *
 * Cost notes use M (multiplication) and S (squaring) in the base field of the group. Formulas
 * are from the Explicit-Formulas Database (hyperelliptic.org/EFD/g1p/auto-shortw-jacobian-0.html
 * and auto-shortw-xyzz.html).
 */

/* Window of the variable-time multiplications: 2^(w-2) = 8 precomputed odd multiples. */
#ifndef CURVE_WNAF_W
#define CURVE_WNAF_W 5
#define CURVE_WNAF_TABLE (1 << (CURVE_WNAF_W - 2))
#endif

/* ---- identity and predicates ------------------------------------------------------------- */

void G_(affine_set_infinity)(AFF_T *out)
{
    F_ZERO(&out->x);
    F_ZERO(&out->y);
    out->infinity = true;
}

void G_(jac_set_infinity)(JAC_T *out)
{
    F_ONE(&out->x);
    F_ONE(&out->y);
    F_ZERO(&out->z);
}

bool G_(jac_is_infinity)(const JAC_T *p)
{
    return F_IS_ZERO(&p->z);
}

void G_(xyzz_set_infinity)(XYZZ_T *out)
{
    F_ONE(&out->x);
    F_ONE(&out->y);
    F_ZERO(&out->zz);
    F_ZERO(&out->zzz);
}

bool G_(xyzz_is_infinity)(const XYZZ_T *p)
{
    return F_IS_ZERO(&p->zz);
}

/* ---- conversions -------------------------------------------------------------------------- */

void G_(from_affine)(JAC_T *out, const AFF_T *p)
{
    if (p->infinity) {
        G_(jac_set_infinity)(out);
        return;
    }
    out->x = p->x;
    out->y = p->y;
    F_ONE(&out->z);
}

/* (X/Z^2, Y/Z^3) given zinv = 1/Z: 1S + 3M. */
static void G_(jac_normalize_)(AFF_T *out, const JAC_T *p, const F_T *zinv)
{
    F_T z2, z3;
    F_SQR(&z2, zinv);
    F_MUL(&z3, &z2, zinv);
    F_MUL(&out->x, &p->x, &z2);
    F_MUL(&out->y, &p->y, &z3);
    out->infinity = false;
}

void G_(to_affine)(AFF_T *out, const JAC_T *p)
{
    if (G_(jac_is_infinity)(p)) {
        G_(affine_set_infinity)(out);
        return;
    }
    F_T zinv;
    F_INV(&zinv, &p->z);
    G_(jac_normalize_)(out, p, &zinv);
}

/*
 * Montgomery's trick with one inversion and no scratch: the forward pass stores the prefix
 * product of the non-zero Z before entry i in out[i].x, the backward pass turns it into 1/Z_i and
 * overwrites the entry. Cost: one inversion + 3(n-1) M + n (1S + 3M).
 */
void G_(batch_to_affine)(AFF_T *out, const JAC_T *in, size_t n)
{
    F_T acc;
    F_ONE(&acc);
    for (size_t i = 0; i < n; i++) {
        out[i].x = acc;
        if (!F_IS_ZERO(&in[i].z))
            F_MUL(&acc, &acc, &in[i].z);
    }
    F_INV(&acc, &acc);
    for (size_t i = n; i-- > 0;) {
        if (F_IS_ZERO(&in[i].z)) {
            G_(affine_set_infinity)(&out[i]);
            continue;
        }
        F_T zinv;
        F_MUL(&zinv, &acc, &out[i].x);
        F_MUL(&acc, &acc, &in[i].z);
        G_(jac_normalize_)(&out[i], &in[i], &zinv);
    }
}

void G_(xyzz_from_affine)(XYZZ_T *out, const AFF_T *p)
{
    if (p->infinity) {
        G_(xyzz_set_infinity)(out);
        return;
    }
    out->x = p->x;
    out->y = p->y;
    F_ONE(&out->zz);
    F_ONE(&out->zzz);
}

/* With Z = ZZZ: Z^2 = ZZZ^2 = ZZ^3 and Z^3 = ZZZ^3, so (X ZZ^2, Y ZZZ^2, ZZZ). 2S + 2M. */
void G_(xyzz_to_jac)(JAC_T *out, const XYZZ_T *p)
{
    if (G_(xyzz_is_infinity)(p)) {
        G_(jac_set_infinity)(out);
        return;
    }
    F_T t;
    JAC_T r;
    F_SQR(&t, &p->zz);
    F_MUL(&r.x, &p->x, &t);
    F_SQR(&t, &p->zzz);
    F_MUL(&r.y, &p->y, &t);
    r.z = p->zzz;
    *out = r;
}

/* ---- Jacobian group law --------------------------------------------------------------------- */

/* dbl-2009-l (a = 0): 2M + 5S. Infinity (Z = 0) maps to Z3 = 0. */
void G_(dbl)(JAC_T *out, const JAC_T *p)
{
    F_T a, b, c, d, e, f, t;
    F_SQR(&a, &p->x);
    F_SQR(&b, &p->y);
    F_SQR(&c, &b);
    F_ADD(&d, &p->x, &b);
    F_SQR(&d, &d);
    F_SUB(&d, &d, &a);
    F_SUB(&d, &d, &c);
    F_DBL(&d, &d); /* D = 2((X1 + B)^2 - A - C) */
    F_DBL(&e, &a);
    F_ADD(&e, &e, &a); /* E = 3A */
    F_SQR(&f, &e);
    F_MUL(&t, &p->y, &p->z);
    F_DBL(&out->z, &t); /* Z3 = 2 Y1 Z1; p is not read after this (out may alias p) */
    F_DBL(&t, &d);
    F_SUB(&out->x, &f, &t); /* X3 = F - 2D */
    F_SUB(&t, &d, &out->x);
    F_MUL(&t, &e, &t);
    F_DBL(&c, &c);
    F_DBL(&c, &c);
    F_DBL(&c, &c);
    F_SUB(&out->y, &t, &c); /* Y3 = E (D - X3) - 8C */
}

/*
 * add-2007-bl without the special cases: 11M + 5S. Sets *h_zero and *r_zero when U1 = U2
 * (respectively S1 = S2), i.e. P = +-Q, where the result is not valid and the caller must
 * substitute. Inputs must not be infinity for the result to be meaningful.
 */
static void G_(add_generic_)(JAC_T *out, const JAC_T *p, const JAC_T *q, bool *h_zero, bool *r_zero)
{
    F_T z1z1, z2z2, u1, u2, s1, s2, h, i, j, r, v, t;
    F_SQR(&z1z1, &p->z);
    F_SQR(&z2z2, &q->z);
    F_MUL(&u1, &p->x, &z2z2);
    F_MUL(&u2, &q->x, &z1z1);
    F_MUL(&s1, &p->y, &q->z);
    F_MUL(&s1, &s1, &z2z2);
    F_MUL(&s2, &q->y, &p->z);
    F_MUL(&s2, &s2, &z1z1);
    F_SUB(&h, &u2, &u1);
    F_SUB(&r, &s2, &s1);
    *h_zero = F_IS_ZERO(&h);
    *r_zero = F_IS_ZERO(&r);
    F_DBL(&i, &h);
    F_SQR(&i, &i); /* I = (2H)^2 */
    F_MUL(&j, &h, &i);
    F_DBL(&r, &r);
    F_MUL(&v, &u1, &i);
    JAC_T o;
    F_ADD(&t, &p->z, &q->z);
    F_SQR(&t, &t);
    F_SUB(&t, &t, &z1z1);
    F_SUB(&t, &t, &z2z2);
    F_MUL(&o.z, &t, &h); /* Z3 = ((Z1 + Z2)^2 - Z1Z1 - Z2Z2) H */
    F_SQR(&o.x, &r);
    F_SUB(&o.x, &o.x, &j);
    F_DBL(&t, &v);
    F_SUB(&o.x, &o.x, &t); /* X3 = r^2 - J - 2V */
    F_SUB(&t, &v, &o.x);
    F_MUL(&t, &r, &t);
    F_MUL(&s1, &s1, &j);
    F_DBL(&s1, &s1);
    F_SUB(&o.y, &t, &s1); /* Y3 = r (V - X3) - 2 S1 J */
    *out = o;
}

void G_(add)(JAC_T *out, const JAC_T *p, const JAC_T *q)
{
    if (G_(jac_is_infinity)(p)) {
        *out = *q;
        return;
    }
    if (G_(jac_is_infinity)(q)) {
        *out = *p;
        return;
    }
    bool h_zero, r_zero;
    JAC_T pp = *p;
    G_(add_generic_)(out, p, q, &h_zero, &r_zero);
    if (h_zero) {
        if (r_zero)
            G_(dbl)(out, &pp); /* P == Q */
        else
            G_(jac_set_infinity)(out); /* P == -Q */
    }
}

/*
 * The addition used by the fixed-window multiplication: infinity on either side is handled by
 * conditional moves instead of branches, so a zero window costs the same as any other. The
 * P == +-Q branch cannot be taken for a scalar below r and a point of order r (the running
 * prefix is then a non-zero multiple below r); it stays as a correctness fallback for points
 * outside the subgroup.
 */
static void G_(add_ct_)(JAC_T *out, const JAC_T *p, const JAC_T *q)
{
    bool p_inf = G_(jac_is_infinity)(p), q_inf = G_(jac_is_infinity)(q);
    bool h_zero, r_zero;
    JAC_T o;
    G_(add_generic_)(&o, p, q, &h_zero, &r_zero);
    if (h_zero & !p_inf & !q_inf) {
        if (r_zero)
            G_(dbl)(&o, p);
        else
            G_(jac_set_infinity)(&o);
    }
    F_CMOV(&o.x, &q->x, p_inf);
    F_CMOV(&o.y, &q->y, p_inf);
    F_CMOV(&o.z, &q->z, p_inf);
    F_CMOV(&o.x, &p->x, q_inf);
    F_CMOV(&o.y, &p->y, q_inf);
    F_CMOV(&o.z, &p->z, q_inf);
    *out = o;
}

/* madd-2007-bl (Z2 = 1): 7M + 4S, with the same special cases as add. */
void G_(add_affine)(JAC_T *out, const JAC_T *p, const AFF_T *q)
{
    if (q->infinity) {
        *out = *p;
        return;
    }
    if (G_(jac_is_infinity)(p)) {
        G_(from_affine)(out, q);
        return;
    }
    F_T z1z1, u2, s2, h, hh, i, j, r, v, t;
    F_SQR(&z1z1, &p->z);
    F_MUL(&u2, &q->x, &z1z1);
    F_MUL(&s2, &q->y, &p->z);
    F_MUL(&s2, &s2, &z1z1);
    F_SUB(&h, &u2, &p->x);
    F_SUB(&r, &s2, &p->y);
    if (F_IS_ZERO(&h)) {
        if (F_IS_ZERO(&r))
            G_(dbl)(out, p);
        else
            G_(jac_set_infinity)(out);
        return;
    }
    F_SQR(&hh, &h);
    F_DBL(&i, &hh);
    F_DBL(&i, &i); /* I = 4 HH */
    F_MUL(&j, &h, &i);
    F_DBL(&r, &r);
    F_MUL(&v, &p->x, &i);
    JAC_T o;
    F_ADD(&t, &p->z, &h);
    F_SQR(&t, &t);
    F_SUB(&t, &t, &z1z1);
    F_SUB(&o.z, &t, &hh); /* Z3 = (Z1 + H)^2 - Z1Z1 - HH */
    F_SQR(&o.x, &r);
    F_SUB(&o.x, &o.x, &j);
    F_DBL(&t, &v);
    F_SUB(&o.x, &o.x, &t); /* X3 = r^2 - J - 2V */
    F_SUB(&t, &v, &o.x);
    F_MUL(&t, &r, &t);
    F_MUL(&v, &p->y, &j);
    F_DBL(&v, &v);
    F_SUB(&o.y, &t, &v); /* Y3 = r (V - X3) - 2 Y1 J */
    *out = o;
}

void G_(neg)(JAC_T *out, const JAC_T *p)
{
    out->x = p->x;
    F_NEG(&out->y, &p->y);
    out->z = p->z;
}

void G_(affine_neg)(AFF_T *out, const AFF_T *p)
{
    out->x = p->x;
    F_NEG(&out->y, &p->y);
    out->infinity = p->infinity;
}

/* ---- XYZZ ------------------------------------------------------------------------------------ */

#define XF_(name) G_(xyzz_##name)
#define XF_LINK
#define XF_IS_INF(p) G_(xyzz_is_infinity)(p)
#define XF_SET_INF(out) G_(xyzz_set_infinity)(out)
#include "curve/xyzz_formulas.h"

void G_(xyzz_add_affine)(XYZZ_T *out, const XYZZ_T *p, const AFF_T *q)
{
    if (q->infinity) {
        *out = *p;
        return;
    }
    if (G_(xyzz_is_infinity)(p)) {
        G_(xyzz_from_affine)(out, q);
        return;
    }
    G_(xyzz_madd_core)(out, p, q);
}

/* ---- equality and curve membership --------------------------------------------------------- */

/* X1 Z2^2 == X2 Z1^2 and Y1 Z2^3 == Y2 Z1^3. */
bool G_(eq)(const JAC_T *p, const JAC_T *q)
{
    bool pi = G_(jac_is_infinity)(p), qi = G_(jac_is_infinity)(q);
    if (pi || qi)
        return pi && qi;
    F_T z1z1, z2z2, a, b;
    F_SQR(&z1z1, &p->z);
    F_SQR(&z2z2, &q->z);
    F_MUL(&a, &p->x, &z2z2);
    F_MUL(&b, &q->x, &z1z1);
    if (!F_EQ(&a, &b))
        return false;
    F_MUL(&z1z1, &z1z1, &p->z);
    F_MUL(&z2z2, &z2z2, &q->z);
    F_MUL(&a, &p->y, &z2z2);
    F_MUL(&b, &q->y, &z1z1);
    return F_EQ(&a, &b);
}

bool G_(affine_eq)(const AFF_T *p, const AFF_T *q)
{
    if (p->infinity || q->infinity)
        return p->infinity && q->infinity;
    return F_EQ(&p->x, &q->x) && F_EQ(&p->y, &q->y);
}

bool G_(affine_is_on_curve)(const AFF_T *p)
{
    if (p->infinity)
        return true;
    F_T l, r;
    F_SQR(&l, &p->y);
    F_SQR(&r, &p->x);
    F_MUL(&r, &r, &p->x);
    F_ADD(&r, &r, CURVE_B);
    return F_EQ(&l, &r);
}

/* Y^2 == X^3 + b Z^6. */
bool G_(is_on_curve)(const JAC_T *p)
{
    if (G_(jac_is_infinity)(p))
        return true;
    F_T l, r, z6;
    F_SQR(&l, &p->y);
    F_SQR(&r, &p->x);
    F_MUL(&r, &r, &p->x);
    F_SQR(&z6, &p->z);
    F_MUL(&z6, &z6, &p->z);
    F_SQR(&z6, &z6);
    F_MUL(&z6, &z6, CURVE_B);
    F_ADD(&r, &r, &z6);
    return F_EQ(&l, &r);
}

/* ---- scalar multiplication ------------------------------------------------------------------ */

/*
 * Fixed 4-bit window over all 256 bits of the canonical scalar: 64 windows, each 4 doublings and
 * one addition of a table entry selected by scanning all 16 entries with conditional moves.
 * The sequence of field operations does not depend on |k| (see add_ct_ for the one exception,
 * which cannot occur for points of order r).
 */
void G_(mul)(JAC_T *out, const JAC_T *p, const cuzk_fr_t *k)
{
    JAC_T table[16], acc, sel;
    uint64_t s[CUZK_FR_LIMBS];
    cuzk_fr_to_canonical(s, k);
    G_(jac_set_infinity)(&table[0]);
    table[1] = *p;
    for (size_t i = 2; i < 16; i++) {
        if (i & 1)
            G_(add)(&table[i], &table[i - 1], p);
        else
            G_(dbl)(&table[i], &table[i / 2]);
    }
    G_(jac_set_infinity)(&acc);
    for (int w = 63; w >= 0; w--) {
        if (w != 63) {
            G_(dbl)(&acc, &acc);
            G_(dbl)(&acc, &acc);
            G_(dbl)(&acc, &acc);
            G_(dbl)(&acc, &acc);
        }
        uint64_t nib = (s[w / 16] >> (4 * (w % 16))) & 15;
        sel = table[0];
        for (uint64_t j = 1; j < 16; j++) {
            /* flag = (nib == j) without a data-dependent branch. */
            uint64_t d = nib ^ j;
            bool flag = (bool)(((d | (0 - d)) >> 63) ^ 1);
            F_CMOV(&sel.x, &table[j].x, flag);
            F_CMOV(&sel.y, &table[j].y, flag);
            F_CMOV(&sel.z, &table[j].z, flag);
        }
        G_(add_ct_)(&acc, &acc, &sel);
    }
    *out = acc;
    /* Best-effort wipe of values derived from a possibly secret scalar. */
    volatile uint64_t *vs = s;
    for (size_t i = 0; i < CUZK_FR_LIMBS; i++)
        vs[i] = 0;
}

/*
 * Width-w NAF of the |n|-limb little-endian |k|: digits[i] in {0, +-1, +-3, ..., +-(2^(w-1)-1)},
 * k = sum digits[i] 2^i. |digits| holds 64 n + 1 entries; returns the number used. Variable time.
 */
static size_t G_(wnaf_)(int8_t *digits, const uint64_t *k, size_t n, unsigned w)
{
    uint64_t t[CURVE_RAW_MAX_LIMBS + 1];
    for (size_t i = 0; i < n; i++)
        t[i] = k[i];
    t[n] = 0;
    size_t len = 0, top = n + 1;
    const int64_t half = (int64_t)1 << (w - 1), full = (int64_t)1 << w;
    for (;;) {
        while (top > 0 && t[top - 1] == 0)
            top--;
        if (top == 0)
            break;
        int64_t d = 0;
        if (t[0] & 1) {
            d = (int64_t)(t[0] & (uint64_t)(full - 1));
            if (d >= half)
                d -= full;
            /* t -= d: subtract a small positive value, or add one when d < 0. */
            if (d > 0) {
                uint64_t b = (uint64_t)d;
                for (size_t i = 0; i < top && b; i++) {
                    uint64_t o = t[i];
                    t[i] = o - b;
                    b = o < b;
                }
            } else {
                uint64_t c = (uint64_t)(-d);
                for (size_t i = 0; i <= n && c; i++) {
                    uint64_t o = t[i];
                    t[i] = o + c;
                    c = t[i] < o;
                }
                if (top <= n && t[top] != 0)
                    top++;
            }
        }
        digits[len++] = (int8_t)d;
        for (size_t i = 0; i + 1 < top; i++)
            t[i] = (t[i] >> 1) | (t[i + 1] << 63);
        t[top - 1] >>= 1;
    }
    return len;
}

/* Odd multiples P, 3P, ..., (2m - 1)P. */
static void G_(odd_multiples_)(JAC_T *table, const JAC_T *p, size_t m)
{
    JAC_T p2;
    table[0] = *p;
    G_(dbl)(&p2, p);
    for (size_t i = 1; i < m; i++)
        G_(add)(&table[i], &table[i - 1], &p2);
}

/* acc += d * P with |table| the odd multiples of P. */
static void G_(add_digit_)(JAC_T *acc, const JAC_T *table, int d)
{
    if (d > 0) {
        G_(add)(acc, acc, &table[(d - 1) / 2]);
    } else if (d < 0) {
        JAC_T t;
        G_(neg)(&t, &table[(-d - 1) / 2]);
        G_(add)(acc, acc, &t);
    }
}

/* wNAF (w = 5) over any number of limbs up to CURVE_RAW_MAX_LIMBS; double-and-add beyond. */
void G_(mul_raw_vartime)(JAC_T *out, const JAC_T *p, const uint64_t *k, size_t nlimbs)
{
    JAC_T acc;
    G_(jac_set_infinity)(&acc);
    if (nlimbs > CURVE_RAW_MAX_LIMBS) {
        JAC_T base = *p;
        for (size_t i = nlimbs * 64; i-- > 0;) {
            G_(dbl)(&acc, &acc);
            if ((k[i / 64] >> (i % 64)) & 1)
                G_(add)(&acc, &acc, &base);
        }
        *out = acc;
        return;
    }
    int8_t digits[64 * CURVE_RAW_MAX_LIMBS + 1];
    JAC_T table[CURVE_WNAF_TABLE];
    size_t len = G_(wnaf_)(digits, k, nlimbs, CURVE_WNAF_W);
    G_(odd_multiples_)(table, p, CURVE_WNAF_TABLE);
    for (size_t i = len; i-- > 0;) {
        G_(dbl)(&acc, &acc);
        G_(add_digit_)(&acc, table, digits[i]);
    }
    *out = acc;
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The XYZZ formulas for short Weierstrass a = 0 (Explicit-Formulas Database, auto-shortw-xyzz),
 * written once for both places that need them: the curve library (src/curve/point_impl.h, field
 * operations through the library) and the MSM buckets (src/msm/pippenger_impl.h, inline field
 * helpers, where out-of-line field additions cost 18-40 % of a small MSM). Outputs may alias
 * inputs. No include guard on purpose: included once per instantiation.
 *
 * Parameters: F_T F_ADD F_SUB F_DBL F_MUL F_SQR F_IS_ZERO (field), XYZZ_T AFF_T (points), and
 *   XF_(name)       the name of each function (XF_(dbl), XF_(add), XF_(madd_core))
 *   XF_LINK         linkage of dbl and add (empty for the library's exported functions)
 *   XF_IS_INF(p)    whether an XYZZ point is the identity
 *   XF_SET_INF(out) sets the identity
 * They are #undef'd at the end.
 */

/* dbl-2008-s-1 (a = 0): 6M + 3S. Y1 = 0 or ZZ1 = 0 give ZZ3 = 0 (infinity). */
XF_LINK void XF_(dbl)(XYZZ_T *out, const XYZZ_T *p)
{
    F_T u, v, w, s, m, t;
    F_DBL(&u, &p->y);
    F_SQR(&v, &u);
    F_MUL(&w, &u, &v);
    F_MUL(&s, &p->x, &v);
    F_SQR(&m, &p->x);
    F_DBL(&t, &m);
    F_ADD(&m, &m, &t); /* M = 3 X1^2 */
    XYZZ_T o;
    F_SQR(&o.x, &m);
    F_DBL(&t, &s);
    F_SUB(&o.x, &o.x, &t); /* X3 = M^2 - 2S */
    F_SUB(&t, &s, &o.x);
    F_MUL(&t, &m, &t);
    F_MUL(&s, &w, &p->y);
    F_SUB(&o.y, &t, &s); /* Y3 = M (S - X3) - W Y1 */
    F_MUL(&o.zz, &v, &p->zz);
    F_MUL(&o.zzz, &w, &p->zzz);
    *out = o;
}

/* add-2008-s: 12M + 2S. P == Q goes to dbl-2008-s-1, P == -Q to infinity. */
XF_LINK void XF_(add)(XYZZ_T *out, const XYZZ_T *p, const XYZZ_T *q)
{
    if (XF_IS_INF(p)) {
        *out = *q;
        return;
    }
    if (XF_IS_INF(q)) {
        *out = *p;
        return;
    }
    F_T u1, u2, s1, s2, pd, r, pp, ppp, qq, t;
    F_MUL(&u1, &p->x, &q->zz);
    F_MUL(&u2, &q->x, &p->zz);
    F_MUL(&s1, &p->y, &q->zzz);
    F_MUL(&s2, &q->y, &p->zzz);
    F_SUB(&pd, &u2, &u1);
    F_SUB(&r, &s2, &s1);
    if (F_IS_ZERO(&pd)) {
        if (F_IS_ZERO(&r))
            XF_(dbl)(out, p);
        else
            XF_SET_INF(out);
        return;
    }
    F_SQR(&pp, &pd);
    F_MUL(&ppp, &pd, &pp);
    F_MUL(&qq, &u1, &pp);
    XYZZ_T o;
    F_SQR(&o.x, &r);
    F_SUB(&o.x, &o.x, &ppp);
    F_DBL(&t, &qq);
    F_SUB(&o.x, &o.x, &t); /* X3 = R^2 - PPP - 2Q */
    F_SUB(&t, &qq, &o.x);
    F_MUL(&t, &r, &t);
    F_MUL(&s1, &s1, &ppp);
    F_SUB(&o.y, &t, &s1); /* Y3 = R (Q - X3) - S1 PPP */
    F_MUL(&o.zz, &p->zz, &q->zz);
    F_MUL(&o.zz, &o.zz, &pp);
    F_MUL(&o.zzz, &p->zzz, &q->zzz);
    F_MUL(&o.zzz, &o.zzz, &ppp);
    *out = o;
}

/* madd-2008-s (ZZ2 = ZZZ2 = 1): 8M + 2S, for p and affine q both not at infinity (callers
 * handle those cases their own way); P == Q goes to dbl-2008-s-1, P == -Q to infinity. */
static inline void XF_(madd_core)(XYZZ_T *out, const XYZZ_T *p, const AFF_T *q)
{
    F_T u2, s2, pd, r, pp, ppp, qq, t;
    F_MUL(&u2, &q->x, &p->zz);
    F_MUL(&s2, &q->y, &p->zzz);
    F_SUB(&pd, &u2, &p->x);
    F_SUB(&r, &s2, &p->y);
    if (F_IS_ZERO(&pd)) {
        if (F_IS_ZERO(&r))
            XF_(dbl)(out, p);
        else
            XF_SET_INF(out);
        return;
    }
    F_SQR(&pp, &pd);
    F_MUL(&ppp, &pd, &pp);
    F_MUL(&qq, &p->x, &pp);
    XYZZ_T o;
    F_SQR(&o.x, &r);
    F_SUB(&o.x, &o.x, &ppp);
    F_DBL(&t, &qq);
    F_SUB(&o.x, &o.x, &t); /* X3 = R^2 - PPP - 2Q */
    F_SUB(&t, &qq, &o.x);
    F_MUL(&t, &r, &t);
    F_MUL(&s2, &p->y, &ppp);
    F_SUB(&o.y, &t, &s2); /* Y3 = R (Q - X3) - Y1 PPP */
    F_MUL(&o.zz, &p->zz, &pp);
    F_MUL(&o.zzz, &p->zzz, &ppp);
    *out = o;
}

#undef XF_
#undef XF_LINK
#undef XF_IS_INF
#undef XF_SET_INF

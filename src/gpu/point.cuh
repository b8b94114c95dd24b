/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GPU_POINT_CUH
#define CUZK_GPU_POINT_CUH

/*
 * Short-Weierstrass a = 0 points for the device MSM, over any field "ops" type F (see
 * src/gpu/fp2.cuh for what F provides): G1 over Fp, G2 over Fp2. Affine (x, y) and XYZZ
 * (X, Y, ZZ, ZZZ with x = X/ZZ, y = Y/ZZZ, ZZ = 0 for infinity). The formulas and their special
 * cases are those of the host's src/curve/point_impl.h (EFD auto-shortw-xyzz), so a device sum
 * equals the host's as a point. Cost notes in multiplications M and squarings S of F.
 *
 * CUZK_GPU_PT_FUSED = 1 (a compile-time knob like mont.cuh's): each formula's Y3 = A B - C D
 * becomes one F::mulsub, which G1's Fp computes with one Montgomery reduction for both products
 * (mont.cuh mul_diff: saves a reduction, about half a multiplication, per addition); the ops
 * type then needs mulsub (Fp2 does it as two products). 0 (the default): two F::mul and an
 * F::sub, as the host does.
 */

#include <stdint.h>

#ifndef GM_HD
#define GM_HD __host__ __device__ __forceinline__
#endif
/* Doublings and full additions are called, not inlined: they are off the hot path (the mixed
 * addition of the accumulation), and inlining them everywhere cost registers, spills and minutes
 * of ptxas time. */
#ifndef GM_HD_CALL
#define GM_HD_CALL __host__ __device__ __noinline__
#endif
#ifndef CUZK_GPU_PT_FUSED
#define CUZK_GPU_PT_FUSED 0
#endif

template <class F> struct gm_aff {
    typename F::T x, y;
};

template <class F> struct gm_xyzz {
    typename F::T x, y, zz, zzz;
};

template <class F> struct gm_pt {
    typedef typename F::T E;
    typedef gm_aff<F> A;
    typedef gm_xyzz<F> X;

    static GM_HD bool is_inf(const X &p)
    {
        return F::is_zero(p.zz);
    }
    static GM_HD void set_inf(X &p)
    {
        F::one(p.x);
        F::one(p.y);
        F::zero(p.zz);
        F::zero(p.zzz);
    }
    static GM_HD void from_aff(X &r, const A &a)
    {
        r.x = a.x;
        r.y = a.y;
        F::one(r.zz);
        F::one(r.zzz);
    }

    /* dbl-2008-s-1 (a = 0): 6M + 3S. ZZ = 0 (infinity) stays infinity. */
    static GM_HD_CALL void dbl(X &r, const X &p)
    {
        dbl_inline(r, p);
    }
    /* The same, inlined into the mixed addition so that its accumulator never needs an address
     * (a call would move it to the stack in the hottest loop). */
    static GM_HD void dbl_inline(X &r, const X &p)
    {
        E u, v, w, s, m, t, x3;
        F::dbl(u, p.y);
        F::sqr(v, u);
        F::mul(w, u, v);
        F::mul(s, p.x, v);
        F::sqr(m, p.x);
        F::dbl(t, m);
        F::add(m, m, t); /* M = 3 X1^2 */
        F::sqr(x3, m);
        F::dbl(t, s);
        F::sub(x3, x3, t); /* X3 = M^2 - 2S */
        F::sub(t, s, x3);
#if CUZK_GPU_PT_FUSED
        /* r may be p: p.y is read before r.y is written, and not after. */
        F::mulsub(r.y, m, t, w, p.y); /* Y3 = M (S - X3) - W Y1 */
        F::mul(r.zz, v, p.zz);
        F::mul(r.zzz, w, p.zzz);
#else
        F::mul(t, m, t);
        F::mul(s, w, p.y);
        F::mul(r.zz, v, p.zz);
        F::mul(r.zzz, w, p.zzz);
        F::sub(r.y, t, s); /* Y3 = M (S - X3) - W Y1 */
#endif
        r.x = x3;
    }

    /* r += p (add-2008-s, 12M + 2S); P == Q doubles, P == -Q gives infinity. */
    static GM_HD_CALL void add(X &r, const X &p)
    {
        if (is_inf(p))
            return;
        if (is_inf(r)) {
            r = p;
            return;
        }
        E u1, u2, s1, s2, pd, rr, pp, ppp, qq, t;
        F::mul(u1, r.x, p.zz);
        F::mul(u2, p.x, r.zz);
        F::mul(s1, r.y, p.zzz);
        F::mul(s2, p.y, r.zzz);
        F::sub(pd, u2, u1);
        F::sub(rr, s2, s1);
        if (F::is_zero(pd)) {
            if (F::is_zero(rr))
                dbl(r, r);
            else
                set_inf(r);
            return;
        }
        F::sqr(pp, pd);
        F::mul(ppp, pd, pp);
        F::mul(qq, u1, pp);
        F::sqr(u2, rr);
        F::sub(u2, u2, ppp);
        F::dbl(t, qq);
        F::sub(u2, u2, t); /* X3 = R^2 - PPP - 2Q */
        F::sub(t, qq, u2);
#if CUZK_GPU_PT_FUSED
        F::mulsub(r.y, rr, t, s1, ppp); /* Y3 = R (Q - X3) - S1 PPP */
#else
        F::mul(t, rr, t);
        F::mul(s1, s1, ppp);
        F::sub(r.y, t, s1); /* Y3 = R (Q - X3) - S1 PPP */
#endif
        r.x = u2;
        F::mul(r.zz, r.zz, p.zz);
        F::mul(r.zz, r.zz, pp);
        F::mul(r.zzz, r.zzz, p.zzz);
        F::mul(r.zzz, r.zzz, ppp);
    }

    /* r += q for an affine q that is not infinity (madd-2008-s, 8M + 2S). */
    static GM_HD void add_aff(X &r, const A &q)
    {
        if (is_inf(r)) {
            from_aff(r, q);
            return;
        }
        E u2, s2, pd, rr, pp, ppp, qq, t;
        F::mul(u2, q.x, r.zz);
        F::mul(s2, q.y, r.zzz);
        F::sub(pd, u2, r.x);
        F::sub(rr, s2, r.y);
        if (F::is_zero(pd)) {
            if (F::is_zero(rr))
                dbl_inline(r, r);
            else
                set_inf(r);
            return;
        }
        F::sqr(pp, pd);
        F::mul(ppp, pd, pp);
        F::mul(qq, r.x, pp);
        F::sqr(u2, rr);
        F::sub(u2, u2, ppp);
        F::dbl(t, qq);
        F::sub(u2, u2, t); /* X3 = R^2 - PPP - 2Q */
        F::sub(t, qq, u2);
#if CUZK_GPU_PT_FUSED
        F::mulsub(r.y, rr, t, r.y, ppp); /* Y3 = R (Q - X3) - Y1 PPP */
#else
        F::mul(t, rr, t);
        F::mul(s2, r.y, ppp);
        F::sub(r.y, t, s2); /* Y3 = R (Q - X3) - Y1 PPP */
#endif
        r.x = u2;
        F::mul(r.zz, r.zz, pp);
        F::mul(r.zzz, r.zzz, ppp);
    }

    /* r = k p for a small k (double-and-add from the top bit): at most 31 doublings. */
    static GM_HD_CALL void mul_small(X &r, const X &p, uint32_t k)
    {
        set_inf(r);
        for (int b = 31; b >= 0; b--) {
            if (!is_inf(r))
                dbl(r, r);
            if ((k >> b) & 1)
                add(r, p);
        }
    }
};

#endif

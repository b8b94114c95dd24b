/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The window sums (running sums) of src/msm/pippenger_impl.h for affine buckets, 8 lanes at once
 * with the IFMA Fp arithmetic. A lane is a window, or a segment of one when a task holds fewer
 * than 5 windows (8, 4 or 2 equal segments per window, so all or most lanes work; a segment
 * [s0, s0 + L) contributes sum_b (b + 1) B_b = tot + s0 run). Each bucket step is the same XYZZ
 * madd (run += bucket) and add (tot += run) as M_(reduce_), as 8-lane vector formulas. Lanes at
 * infinity are tracked as masks; the rare cases the vector formulas do not cover (P == +-Q in a
 * lane, a side bucket) run the scalar M_(x_madd_) / M_(x_add_) on that lane after a round trip
 * through memory. Included by pippenger_impl.h before M_(reduce_) when MSM_BATCH_X8 is defined
 * (after src/msm/batch_affine_x8.h, whose F8_* macros it uses and #undefs); no include guard.
 * The multiplications are calls (src/field/fp_ifma.c: code size).
 */

typedef struct {
    F8_T x, y, zz, zzz;
} M_(xyzz8_);

static inline void M_(xyzz8_load_)(M_(xyzz8_) *v, const XYZZ_T sc[8])
{
    F8_(load_ptrs)(&v->x, msm_x8_ptrs(sc, sizeof(XYZZ_T), offsetof(XYZZ_T, x)));
    F8_(load_ptrs)(&v->y, msm_x8_ptrs(sc, sizeof(XYZZ_T), offsetof(XYZZ_T, y)));
    F8_(load_ptrs)(&v->zz, msm_x8_ptrs(sc, sizeof(XYZZ_T), offsetof(XYZZ_T, zz)));
    F8_(load_ptrs)(&v->zzz, msm_x8_ptrs(sc, sizeof(XYZZ_T), offsetof(XYZZ_T, zzz)));
}

static inline void M_(xyzz8_store_)(XYZZ_T sc[8], const M_(xyzz8_) *v)
{
    F8_(store_ptrs)(msm_x8_ptrs(sc, sizeof(XYZZ_T), offsetof(XYZZ_T, x)), 0xff, &v->x);
    F8_(store_ptrs)(msm_x8_ptrs(sc, sizeof(XYZZ_T), offsetof(XYZZ_T, y)), 0xff, &v->y);
    F8_(store_ptrs)(msm_x8_ptrs(sc, sizeof(XYZZ_T), offsetof(XYZZ_T, zz)), 0xff, &v->zz);
    F8_(store_ptrs)(msm_x8_ptrs(sc, sizeof(XYZZ_T), offsetof(XYZZ_T, zzz)), 0xff, &v->zzz);
}

static inline void M_(xyzz8_blend_)(M_(xyzz8_) *r, __mmask8 m, const M_(xyzz8_) *a,
                                    const M_(xyzz8_) *b)
{
    F8_(blend)(&r->x, m, &a->x, &b->x);
    F8_(blend)(&r->y, m, &a->y, &b->y);
    F8_(blend)(&r->zz, m, &a->zz, &b->zz);
    F8_(blend)(&r->zzz, m, &a->zzz, &b->zzz);
}

/* madd-2008-s on every lane, as XF_(madd_core) without its special cases; returns the lanes
 * where PD = 0 (P == +-Q), whose output is not valid. */
static inline __mmask8 M_(xyzz8_madd_)(M_(xyzz8_) *o, const M_(xyzz8_) *p, const F8_T *qx,
                                       const F8_T *qy)
{
    F8_T u2, s2, pd, r, pp, ppp, qq, t;
    F8_CALL(mul)(&u2, qx, &p->zz);
    F8_CALL(mul)(&s2, qy, &p->zzz);
    F8_(sub)(&pd, &u2, &p->x);
    F8_(sub)(&r, &s2, &p->y);
    __mmask8 z = F8_(is_zero_mask)(&pd);
    F8_CALL(sqr)(&pp, &pd);
    F8_CALL(mul)(&ppp, &pd, &pp);
    F8_CALL(mul)(&qq, &p->x, &pp);
    F8_CALL(sqr)(&o->x, &r);
    F8_(sub)(&o->x, &o->x, &ppp);
    F8_(add)(&t, &qq, &qq);
    F8_(sub)(&o->x, &o->x, &t);
    F8_(sub)(&t, &qq, &o->x);
    F8_CALL(mul)(&t, &r, &t);
    F8_CALL(mul)(&s2, &p->y, &ppp);
    F8_(sub)(&o->y, &t, &s2);
    F8_CALL(mul)(&o->zz, &p->zz, &pp);
    F8_CALL(mul)(&o->zzz, &p->zzz, &ppp);
    return z;
}

/* add-2008-s on every lane, as XF_(add) without its special cases (o must not alias p or q). */
static inline __mmask8 M_(xyzz8_add_)(M_(xyzz8_) *o, const M_(xyzz8_) *p,
                                      const M_(xyzz8_) *q)
{
    F8_T u1, u2, s1, s2, pd, r, pp, ppp, qq, t;
    F8_CALL(mul)(&u1, &p->x, &q->zz);
    F8_CALL(mul)(&u2, &q->x, &p->zz);
    F8_CALL(mul)(&s1, &p->y, &q->zzz);
    F8_CALL(mul)(&s2, &q->y, &p->zzz);
    F8_(sub)(&pd, &u2, &u1);
    F8_(sub)(&r, &s2, &s1);
    __mmask8 z = F8_(is_zero_mask)(&pd);
    F8_CALL(sqr)(&pp, &pd);
    F8_CALL(mul)(&ppp, &pd, &pp);
    F8_CALL(mul)(&qq, &u1, &pp);
    F8_CALL(sqr)(&o->x, &r);
    F8_(sub)(&o->x, &o->x, &ppp);
    F8_(add)(&t, &qq, &qq);
    F8_(sub)(&o->x, &o->x, &t);
    F8_(sub)(&t, &qq, &o->x);
    F8_CALL(mul)(&t, &r, &t);
    F8_CALL(mul)(&s1, &s1, &ppp);
    F8_(sub)(&o->y, &t, &s1);
    F8_CALL(mul)(&o->zz, &p->zz, &q->zz);
    F8_CALL(mul)(&o->zz, &o->zz, &pp);
    F8_CALL(mul)(&o->zzz, &p->zzz, &q->zzz);
    F8_CALL(mul)(&o->zzz, &o->zzz, &ppp);
    return z;
}

/* Running sums of |nw| <= 8 lanes, lane i over the buckets [base[i], base[i] + len): its tot
 * (sum_b (b - base[i] + 1) B_b) and run (sum_b B_b) in tot_out[i] and run_out[i]. */
static void M_(reduce_x8_)(XYZZ_T tot_out[8], XYZZ_T run_out[8], const MSM_WORKER_T *s,
                           const size_t base[8], size_t len, unsigned nw)
{
    const AFF_T *bk = (const AFF_T *)s->bk;
    const __m512i off_y = _mm512_set1_epi64((long long)offsetof(AFF_T, y));
    __mmask8 lanes = (__mmask8)((1u << nw) - 1), run_inf = 0xff, tot_inf = 0xff;
    M_(xyzz8_) run, tot, nv;
    XYZZ_T sc[8], sr[8];
    F8_T qx, qy, one;
    F8_SET_ONE(&one);
    memset(&run, 0, sizeof run);
    memset(&tot, 0, sizeof tot);
    for (size_t b = len; b-- > 0;) {
        __mmask8 used = 0, side = 0;
        uint64_t bp[8];
        for (unsigned i = 0; i < 8; i++) {
            size_t idx = base[i < nw ? i : 0] + b;
            bp[i] = (uint64_t)(uintptr_t)(bk + idx);
            if (i < nw && msm_bit_get(s->used, idx))
                used |= (__mmask8)(1u << i);
            if (i < nw && msm_bit_get(s->side_used, idx))
                side |= (__mmask8)(1u << i);
        }
        if (used) {
            __m512i ptr = _mm512_loadu_si512((const void *)bp);
            F8_(load_ptrs)(&qx, ptr);
            F8_(load_ptrs)(&qy, _mm512_add_epi64(ptr, off_y));
            __mmask8 gen = used & (__mmask8)~run_inf, slow = 0;
            if (gen) {
                slow = gen & M_(xyzz8_madd_)(&nv, &run, &qx, &qy);
                M_(xyzz8_blend_)(&run, gen & (__mmask8)~slow, &run, &nv);
            }
            __mmask8 fresh = used & run_inf; /* run = the bucket */
            F8_(blend)(&run.x, fresh, &run.x, &qx);
            F8_(blend)(&run.y, fresh, &run.y, &qy);
            F8_(blend)(&run.zz, fresh, &run.zz, &one);
            F8_(blend)(&run.zzz, fresh, &run.zzz, &one);
            run_inf &= (__mmask8)~used;
            if (slow) {
                M_(xyzz8_store_)(sc, &run);
                for (unsigned i = 0; i < nw; i++)
                    if ((slow >> i) & 1) {
                        M_(x_madd_)(&sc[i], &sc[i], bk + base[i] + b);
                        if (M_(x_inf_)(&sc[i]))
                            run_inf |= (__mmask8)(1u << i);
                    }
                M_(xyzz8_load_)(&run, sc);
            }
        }
        if (side) {
            M_(xyzz8_store_)(sc, &run);
            for (unsigned i = 0; i < nw; i++)
                if ((side >> i) & 1) {
                    /* x_add_ takes a run at infinity (ZZ = 0 in its lane) as the identity */
                    M_(x_add_)(&sc[i], &sc[i], &s->side[base[i] + b]);
                    run_inf =
                        (__mmask8)((run_inf & ~(1u << i)) | (M_(x_inf_)(&sc[i]) ? 1u << i : 0));
                }
            M_(xyzz8_load_)(&run, sc);
        }
        __mmask8 live = lanes & (__mmask8)~run_inf;
        if (!live)
            continue;
        __mmask8 gen = live & (__mmask8)~tot_inf, slow = 0;
        if (gen) {
            slow = gen & M_(xyzz8_add_)(&nv, &tot, &run);
            M_(xyzz8_blend_)(&tot, gen & (__mmask8)~slow, &tot, &nv);
        }
        M_(xyzz8_blend_)(&tot, live & tot_inf, &tot, &run);
        tot_inf &= (__mmask8)~live;
        if (slow) {
            M_(xyzz8_store_)(sc, &tot);
            M_(xyzz8_store_)(sr, &run);
            for (unsigned i = 0; i < nw; i++)
                if ((slow >> i) & 1) {
                    M_(x_add_)(&sc[i], &sc[i], &sr[i]);
                    if (M_(x_inf_)(&sc[i]))
                        tot_inf |= (__mmask8)(1u << i);
                }
            M_(xyzz8_load_)(&tot, sc);
        }
    }
    M_(xyzz8_store_)(tot_out, &tot);
    M_(xyzz8_store_)(run_out, &run);
    for (unsigned i = 0; i < 8; i++) {
        if ((tot_inf >> i) & 1)
            M_(xyzz_set_infinity)(&tot_out[i]);
        if ((run_inf >> i) & 1)
            M_(xyzz_set_infinity)(&run_out[i]);
    }
}

/* out = k p for a small k >= 0 (double and add). */
static void M_(x_mul_small_)(XYZZ_T *out, const XYZZ_T *p, size_t k)
{
    XYZZ_T acc;
    M_(xyzz_set_infinity)(&acc);
    if (k == 0) {
        *out = acc;
        return;
    }
    acc = *p;
    for (int bit = 62 - __builtin_clzll((unsigned long long)k); bit >= 0; bit--) {
        M_(x_dbl_)(&acc, &acc);
        if ((k >> bit) & 1)
            M_(x_add_)(&acc, &acc, p);
    }
    *out = acc;
}

/*
 * Window sums of the |nw| windows from window index |wi0| of the task (window i's buckets start
 * at (wi0 + i) nb) into out[i * stride]. The 8 lanes take the windows whole (5 to 8 windows) or
 * in 2, 4 or 8 equal segments (1 to 4 windows); a segment [s0, s0 + L) of a window contributes
 * sum_b (b + 1) B_b = tot + s0 run, with tot and run its own running sums.
 */
static void M_(reduce_windows_x8_)(JAC_T *out, size_t stride, const MSM_WORKER_T *s, size_t wi0,
                                   size_t nb, unsigned nw)
{
    unsigned segs = nw == 1 ? 8 : nw == 2 ? 4 : nw <= 4 ? 2 : 1;
    while (nb % segs)
        segs /= 2;
    size_t len = nb / segs, base[8];
    for (unsigned l = 0; l < nw * segs; l++)
        base[l] = (wi0 + l / segs) * nb + (l % segs) * len;
    XYZZ_T tot[8], run[8];
    M_(reduce_x8_)(tot, run, s, base, len, nw * segs);
    for (unsigned i = 0; i < nw; i++) {
        XYZZ_T acc = tot[i * segs], t;
        for (unsigned g = 1; g < segs; g++) {
            M_(x_mul_small_)(&t, &run[i * segs + g], g * len);
            M_(x_add_)(&acc, &acc, &t);
            M_(x_add_)(&acc, &acc, &tot[i * segs + g]);
        }
        M_(xyzz_to_jac)(&out[i * stride], &acc);
    }
}

#include "msm/subgroup_x8.h" /* uses the F8_* macros and M_(xyzz8_) */

#undef F8_T
#undef F8_
#undef F8_CALL
#undef F8_NORM
#undef F8_INV_FROM_NORM
#undef F8_SET_ONE

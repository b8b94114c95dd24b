/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GPU_MSM_ACCUM_BA_CUH
#define CUZK_GPU_MSM_ACCUM_BA_CUH

/*
 * Level 0 of the G1 bucket accumulation with affine accumulators and batched inversions
 * (facts/gpu-techniques.md section 6, item 5; env CUZK_GPU_MSM_BA = K, src/gpu/msm_run.cuh).
 *
 * gm_accum (src/gpu/msm_kernels.cuh) adds a chunk's entries into an XYZZ accumulator, one mixed
 * addition (8M + 2S) after another. Here a thread walks K chunks side by side ("slots": chunk
 * tK + k of K nch, so the slot lists are those of gm_accum over K nch chunks): at each step
 * every slot takes its next entry, and the slots that add (entry in the same run as their
 * accumulator) do it in affine coordinates, lambda = dy / dx, with the K denominators inverted
 * together by Montgomery's trick and one inversion (src/gpu/fp_inv.cuh, ~50 M): per addition
 * 5M + 1S + 50M / K instead of 8M + 2S. The accumulators and prefix products live in local
 * memory (K x 144 bytes); the base of an addition is read twice (forward for dx, backward for
 * the sum), which keeps it out of local memory. P == acc doubles (denominator 2y), P == -acc
 * empties the accumulator. Flushes, slots and bucket writes are gm_accum's, with the affine
 * accumulator written as XYZZ (ZZ = ZZZ = 1).
 */

#include "gpu/fp_inv.cuh"
#include "gpu/msm_kernels.cuh"

template <class G, unsigned K> struct gm_accum_ba {
    typedef typename G::F F;
    typedef typename F::T E;
    typedef gm_pt<F> P;
    typedef typename P::X X;
    static_assert(sizeof(E) == 48, "gm_accum_ba: G1 only (the inversion is Fp's)");
    typedef typename gm_accum<G, true>::Args Args; /* nch = chunks, K per thread */

    enum { M_NONE = 0, M_ADD = 1, M_DBL = 2, M_INF = 3 };

    struct Slot {
        E x, y, pre; /* accumulator (when !emp), exclusive prefix product of the step */
        size_t lo, hi, s;
        uint32_t cur, prev, next;
        uint8_t emp, mode, done, wrote0, wrote1;
    };

    static GM_HD void to_xyzz(X &o, const Slot &sl)
    {
        if (sl.emp) {
            P::set_inf(o);
            return;
        }
        o.x = sl.x;
        o.y = sl.y;
        F::one(o.zz);
        F::one(o.zzz);
    }

    /* The run [sl.s, j) of key sl.cur ends (gm_accum's flush). */
    static GM_HD void flush(const Args &a, unsigned row, size_t v, Slot &sl, size_t j)
    {
        bool head = sl.s == sl.lo, tail = j == sl.hi;
        bool complete = (!head || sl.prev != sl.cur) && (!tail || sl.next != sl.cur);
        X o;
        to_xyzz(o, sl);
        if (complete) {
            if (sl.cur != 0 && !sl.emp)
                a.buckets[row * a.nb + sl.cur - 1] = o;
        } else if (head) {
            gm_accum<G, true>::slot(a, row, 2 * v, sl.cur, o);
            sl.wrote0 = 1;
        } else {
            gm_accum<G, true>::slot(a, row, 2 * v + 1, sl.cur, o);
            sl.wrote1 = 1;
        }
    }

    static GM_HD void load(gm_aff<F> &q, const Args &a, unsigned row, size_t j)
    {
        uint32_t v = a.vals[row * a.m + j];
        gm_load_base<G>(q, a.bases, v & 0x7fffffffu, v >> 31);
    }

    static GM_HD void run(const Args &a, size_t t, unsigned row)
    {
        const uint32_t *keys = a.keys + row * a.m;
        const size_t nv = a.nch * K;
        Slot sl[K]; /* chunks are never empty: K nch <= m (gm_level0_ba) */
        size_t steps = 0;
#pragma unroll 1
        for (unsigned k = 0; k < K; k++) {
            size_t v = t * K + k;
            Slot &s = sl[k];
            s.lo = v * a.m / nv;
            s.hi = (v + 1) * a.m / nv;
            s.prev = s.lo ? keys[s.lo - 1] : GM_NONE;
            s.next = s.hi < a.m ? keys[s.hi] : GM_NONE;
            s.s = s.lo;
            s.cur = s.lo < s.hi ? keys[s.lo] : GM_NONE;
            s.emp = 1;
            s.done = s.lo >= s.hi;
            s.wrote0 = s.wrote1 = 0;
            s.mode = M_NONE;
            if (s.hi - s.lo > steps)
                steps = s.hi - s.lo;
        }
        /* step st takes entry lo + st of every slot; entry hi (one past) flushes the last run */
#pragma unroll 1
        for (size_t st = 0; st <= steps; st++) {
            E run;
            F::one(run);
            bool any = false;
#pragma unroll 1
            for (unsigned k = 0; k < K; k++) {
                Slot &s = sl[k];
                s.mode = M_NONE;
                if (s.done)
                    continue;
                size_t j = s.lo + st;
                uint32_t key = j < s.hi ? keys[j] : GM_NONE;
                if (key != s.cur || st == 0) {
                    if (st > 0)
                        flush(a, row, t * K + k, s, j);
                    if (j >= s.hi) {
                        s.done = 1;
                        continue;
                    }
                    s.cur = key;
                    s.s = j;
                    s.emp = 1;
                    if (key != 0) {
                        gm_aff<F> q;
                        load(q, a, row, j);
                        s.x = q.x;
                        s.y = q.y;
                        s.emp = 0;
                    }
                    continue;
                }
                if (key == 0)
                    continue;
                gm_aff<F> q;
                load(q, a, row, j);
                if (s.emp) {
                    s.x = q.x;
                    s.y = q.y;
                    s.emp = 0;
                    continue;
                }
                E d;
                F::sub(d, q.x, s.x);
                s.mode = M_ADD;
                if (F::is_zero(d)) {
                    E e;
                    F::sub(e, q.y, s.y);
                    if (F::is_zero(e)) {
                        s.mode = M_DBL;
                        F::dbl(d, s.y);
                    } else {
                        s.mode = M_INF;
                        F::one(d);
                    }
                }
                s.pre = run;
                F::mul(run, run, d);
                any = true;
            }
            if (!any)
                continue;
            E inv;
            gm_fp_inv::inv(inv, run);
#pragma unroll 1
            for (unsigned k = K; k-- > 0;) {
                Slot &s = sl[k];
                if (s.mode == M_NONE)
                    continue;
                if (s.mode == M_INF) { /* d = 1: inv unchanged */
                    s.emp = 1;
                    continue;
                }
                gm_aff<F> q;
                load(q, a, row, s.lo + st);
                E d, di, lam, x3, t2;
                if (s.mode == M_ADD)
                    F::sub(d, q.x, s.x);
                else
                    F::dbl(d, s.y);
                F::mul(di, inv, s.pre); /* 1 / d */
                F::mul(inv, inv, d);
                if (s.mode == M_ADD) {
                    F::sub(t2, q.y, s.y);
                    F::mul(lam, t2, di); /* (y2 - y1) / (x2 - x1) */
                    F::sqr(x3, lam);
                    F::sub(x3, x3, s.x);
                    F::sub(x3, x3, q.x);
                } else {
                    F::sqr(t2, s.x);
                    F::add(lam, t2, t2);
                    F::add(lam, lam, t2);
                    F::mul(lam, lam, di); /* 3 x^2 / (2 y) */
                    F::sqr(x3, lam);
                    F::sub(x3, x3, s.x);
                    F::sub(x3, x3, s.x);
                }
                F::sub(t2, s.x, x3);
                F::mul(t2, lam, t2);
                F::sub(s.y, t2, s.y);
                s.x = x3;
            }
        }
        if (a.okeys) {
#pragma unroll 1
            for (unsigned k = 0; k < K; k++) {
                const Slot &s = sl[k];
                size_t v = t * K + k;
                if (!s.wrote0)
                    gm_accum<G, true>::slot_inf(a, row, 2 * v, keys[s.lo]);
                if (!s.wrote1)
                    gm_accum<G, true>::slot_inf(a, row, 2 * v + 1, keys[s.hi - 1]);
            }
        }
    }
};

#endif

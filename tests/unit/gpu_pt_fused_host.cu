/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * src/gpu/point.cuh's XYZZ formulas compiled for the host (nvcc; carry chains emulated) with the
 * G1 MSM's field settings (src/gpu/msm_dev.cuh: even/odd multiplication, 3 rows per loop
 * iteration, lazy Fp) and both knobs of the fewer-products work on: the even/odd squaring
 * (CUZK_GPU_MONT_SQR = 2) and Y3 as one fused a b - c d (CUZK_GPU_PT_FUSED = 1), so that
 * tests/unit/test_gpu_pt_fused_host.c can check them against the host curve code without a GPU.
 * The ops types are local to this file (anonymous namespace), so these instantiations of gm_pt
 * cannot be merged with another file's built with other knobs.
 */
#define CUZK_GPU_MONT_MUL 7
#define CUZK_GPU_MONT_ROLL 3
#define CUZK_GPU_FP_LAZY 1
#define CUZK_GPU_MONT_SQR 2
#define CUZK_GPU_PT_FUSED 1
#include "gpu/msm_groups.cuh"

#include <stddef.h>
#include <string.h>

namespace
{
struct t_fp : gm_fp_ops {
};
struct t_fp2 : gm_fp2_ops<t_fp> {
};

/* One coordinate from / to host layout (the device ops' load and store: store canonicalises). */
template <class F> void get(typename F::T &r, const void *p, size_t k)
{
    F::load(r, (const uint64_t *)p + k * F::LIMBS);
}
template <class F> void put(void *p, size_t k, const typename F::T &a)
{
    F::store((uint64_t *)p + k * F::LIMBS, a);
}

/* |aff| is the host affine struct's size: x, y, then the flag (not read: q is never infinity). */
template <class F> void run(int op, void *out, const void *p, const void *q, size_t n, size_t aff)
{
    typedef gm_pt<F> P;
    const size_t xb = 4 * F::LIMBS * 8;
    for (size_t i = 0; i < n; i++) {
        typename P::X r, s;
        const uint8_t *pi = (const uint8_t *)p + i * xb;
        get<F>(r.x, pi, 0);
        get<F>(r.y, pi, 1);
        get<F>(r.zz, pi, 2);
        get<F>(r.zzz, pi, 3);
        if (op == 0) {
            typename P::A a;
            get<F>(a.x, (const uint8_t *)q + i * aff, 0);
            get<F>(a.y, (const uint8_t *)q + i * aff, 1);
            P::add_aff(r, a);
        } else if (op == 1) {
            const uint8_t *qi = (const uint8_t *)q + i * xb;
            get<F>(s.x, qi, 0);
            get<F>(s.y, qi, 1);
            get<F>(s.zz, qi, 2);
            get<F>(s.zzz, qi, 3);
            P::add(r, s);
        } else {
            P::dbl(r, r);
        }
        uint8_t *o = (uint8_t *)out + i * xb;
        put<F>(o, 0, r.x);
        put<F>(o, 1, r.y);
        put<F>(o, 2, r.zz);
        put<F>(o, 3, r.zzz);
    }
}
} // namespace

/* out[i] = p[i] + q[i] (|op| 0: add_aff, q affine, not infinity; 1: add, q XYZZ) or 2 p[i] (2:
 * dbl) in G1 (|group| 1) or G2 (2); host XYZZ / affine layouts, coordinates in [0, 2p) in,
 * canonical out. */
extern "C" void cuzk__test_pt_fused_host(int group, int op, void *out, const void *p, const void *q,
                                         size_t n)
{
    if (group == 1)
        run<t_fp>(op, out, p, q, n, sizeof(cuzk_g1_affine_t));
    else
        run<t_fp2>(op, out, p, q, n, sizeof(cuzk_g2_affine_t));
}

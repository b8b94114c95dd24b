/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * G2 MSM on the device (gpu.h, gpu_msm.h): the G1 pipeline of src/gpu/msm_kernels.cuh over
 * Fp2 (src/gpu/fp2.cuh), about three times the G1 work per point.
 */
/* 4 rows per multiplication loop iteration: G2 2^20 33.7 ms against 34.1 with msm_dev.cuh's 3
 * (docs/PERFORMANCE.md, "Even/odd multiplication"). */
#ifndef CUZK_GPU_MONT_ROLL
#define CUZK_GPU_MONT_ROLL 4
#endif
/* Y3 as two products and a subtraction (msm_dev.cuh: the fused form is slower for G2). */
#ifndef CUZK_GPU_PT_FUSED
#define CUZK_GPU_PT_FUSED 0
#endif
#include "gpu/msm_stream.cuh"

#include <string.h>

static void g2_combine(cuzk_g2_jac_t *out, const uint64_t *wins, const gm_plan *p)
{
    gm_combine<cuzk_g2_jac_t, cuzk_g2_xyzz_t>(out, wins, p, cuzk_g2_xyzz_to_jac, cuzk_g2_dbl,
                                              cuzk_g2_add, cuzk_g2_jac_set_infinity,
                                              cuzk_g2_jac_is_infinity);
}

extern "C" cuzk_status cuzk_gpu_msm_g2(int device, cuzk_g2_jac_t *out,
                                       const cuzk_g2_affine_t *bases, const cuzk_fr_t *scalars,
                                       size_t n, cuzk_gpu_timing *timing)
{
    if (!out || (n && (!bases || !scalars)))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu msm g2: NULL output, bases or scalars");
    if (n >= GM_MAX_N)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu msm g2: %zu points is above 2^31 - 1", n);
    cuzk_g2_jac_t r;
    cuzk_status s = cuzk_gpu_guard_("gpu msm g2", [&] {
        if (n == 0) {
            (void)cuzk_gpu_device_get_(device);
            cuzk_g2_jac_set_infinity(&r);
            if (timing)
                memset(timing, 0, sizeof *timing);
            return;
        }
        gm_msm_host_call<gm_g2>(device, &r, bases, scalars, n, timing, g2_combine, cuzk_g2_add);
    });
    if (s == CUZK_OK)
        *out = r;
    return s;
}

extern "C" cuzk_status cuzk_gpu_bases_upload_g2(cuzk_gpu_bases **out, int device,
                                                const cuzk_g2_affine_t *bases, size_t n)
{
    if (!out || !bases || n == 0 || n >= GM_MAX_N)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu bases g2: NULL argument or bad count %zu", n);
    *out = NULL;
    return cuzk_gpu_guard_("gpu bases g2", [&] {
        gm_bases_upload(out, device, bases, n, sizeof(cuzk_g2_affine_t), 2);
    });
}

extern "C" cuzk_status cuzk_gpu_msm_g2_resident(cuzk_g2_jac_t *out, const cuzk_gpu_bases *b,
                                                size_t first, const cuzk_fr_t *scalars, size_t n,
                                                cuzk_gpu_timing *timing)
{
    if (!out || !b || (n && !scalars) || b->group != 2 || first > b->n || n > b->n - first)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "gpu msm g2: NULL argument, G1 bases or range outside the bases");
    cuzk_g2_jac_t r;
    cuzk_status s = cuzk_gpu_guard_("gpu msm g2", [&] {
        if (n == 0) {
            cuzk_g2_jac_set_infinity(&r);
            if (timing)
                memset(timing, 0, sizeof *timing);
            return;
        }
        gm_msm_call<gm_g2>(b->device, &r, b->bases() + first * gm_g2::AFF_BYTES,
                           scalars, n, timing, g2_combine);
    });
    if (s == CUZK_OK)
        *out = r;
    return s;
}

/* ---- (base index, scalar) pairs over resident bases ---------------------------------------- */

extern "C" cuzk_status cuzk_gpu_msm_g2_resident_idx(cuzk_g2_jac_t *out, const cuzk_gpu_bases *b,
                                                    size_t first, const uint32_t *idx,
                                                    const cuzk_fr_t *scalars, size_t m,
                                                    cuzk_gpu_timing *timing)
{
    if (!out || !b || (m && (!idx || !scalars)) || b->group != 2 || first > b->n || m >= GM_MAX_N)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "gpu msm g2 idx: NULL argument, G1 bases or bad range");
    for (size_t j = 0; j < m; j++)
        if (idx[j] >= b->n - first)
            return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu msm g2 idx: entry %zu names base %u of %zu",
                             j, idx[j], b->n - first);
    cuzk_g2_jac_t r;
    cuzk_status s = cuzk_gpu_guard_("gpu msm g2 idx", [&] {
        if (m == 0) {
            cuzk_g2_jac_set_infinity(&r);
            if (timing)
                memset(timing, 0, sizeof *timing);
            return;
        }
        gm_msm_idx_call<gm_g2>(b->device, &r, b->bases() + first * gm_g2::AFF_BYTES, idx,
                               scalars, m, timing, g2_combine);
    });
    if (s == CUZK_OK)
        *out = r;
    return s;
}

extern "C" cuzk_status cuzk_gpu_msm_g2_host_idx(int device, cuzk_g2_jac_t *out,
                                                const cuzk_g2_affine_t *bases, size_t n,
                                                const uint32_t *idx, const cuzk_fr_t *scalars,
                                                size_t m, cuzk_gpu_timing *timing)
{
    return gm_host_idx_entry<gm_g2>("gpu msm g2 host idx", device, out, bases, n, idx, scalars, m,
                                    timing, cuzk_g2_jac_set_infinity, g2_combine);
}

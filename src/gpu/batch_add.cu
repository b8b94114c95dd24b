/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Bitmap batch addition on the device (gpu.h, gpu_msm.h): the sum of the bases whose bit is set,
 * the 0/1-scalar part of a Filecoin witness (facts/gpu-techniques.md section 6 item 7). Each
 * thread adds the selected bases of a few bitmap words into an XYZZ accumulator (madd-2008-s),
 * then the thread sums are added K at a time until one is left (src/gpu/msm_kernels.cuh).
 */
#include "gpu/msm_stream.cuh"

#include <string.h>

template <class G, class HJ>
static cuzk_status
badd_entry(const char *what, int device, HJ *out, const void *h_bases, const uint8_t *d_bases,
           const uint64_t *bitmap, size_t n, cuzk_gpu_timing *timing,
           void (*to_jac)(HJ *, const typename G::host_xyzz *), void (*set_inf)(HJ *),
           void (*add)(HJ *, const HJ *, const HJ *))
{
    HJ r;
    cuzk_status s = cuzk_gpu_guard_(what, [&] {
        if (n == 0) {
            (void)cuzk_gpu_device_get_(device);
            set_inf(&r);
            if (timing)
                memset(timing, 0, sizeof *timing);
            return;
        }
        if (h_bases)
            gm_badd_host_call<G>(device, &r, h_bases, bitmap, n, timing, to_jac, add);
        else
            gm_badd_call<G>(device, &r, d_bases, bitmap, n, timing, to_jac);
    });
    if (s == CUZK_OK)
        *out = r;
    return s;
}

extern "C" cuzk_status cuzk_gpu_batch_add_g1(int device, cuzk_g1_jac_t *out,
                                             const cuzk_g1_affine_t *bases, const uint64_t *bitmap,
                                             size_t n, cuzk_gpu_timing *timing)
{
    if (!out || (n && (!bases || !bitmap)))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu batch add g1: NULL output, bases or bitmap");
    return badd_entry<gm_g1>("gpu batch add g1", device, out, bases, NULL, bitmap, n, timing,
                             cuzk_g1_xyzz_to_jac, cuzk_g1_jac_set_infinity, cuzk_g1_add);
}

extern "C" cuzk_status cuzk_gpu_batch_add_g2(int device, cuzk_g2_jac_t *out,
                                             const cuzk_g2_affine_t *bases, const uint64_t *bitmap,
                                             size_t n, cuzk_gpu_timing *timing)
{
    if (!out || (n && (!bases || !bitmap)))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu batch add g2: NULL output, bases or bitmap");
    return badd_entry<gm_g2>("gpu batch add g2", device, out, bases, NULL, bitmap, n, timing,
                             cuzk_g2_xyzz_to_jac, cuzk_g2_jac_set_infinity, cuzk_g2_add);
}

extern "C" cuzk_status cuzk_gpu_batch_add_g1_resident(cuzk_g1_jac_t *out, const cuzk_gpu_bases *b,
                                                      size_t first, const uint64_t *bitmap,
                                                      size_t n, cuzk_gpu_timing *timing)
{
    if (!out || !b || (n && !bitmap) || b->group != 1 || first > b->n || n > b->n - first)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "gpu batch add g1: NULL argument, G2 bases or range outside the bases");
    return badd_entry<gm_g1>("gpu batch add g1", b->device, out, NULL,
                             b->bases() + first * gm_g1::AFF_BYTES, bitmap, n, timing,
                             cuzk_g1_xyzz_to_jac, cuzk_g1_jac_set_infinity, cuzk_g1_add);
}

extern "C" cuzk_status cuzk_gpu_batch_add_g2_resident(cuzk_g2_jac_t *out, const cuzk_gpu_bases *b,
                                                      size_t first, const uint64_t *bitmap,
                                                      size_t n, cuzk_gpu_timing *timing)
{
    if (!out || !b || (n && !bitmap) || b->group != 2 || first > b->n || n > b->n - first)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "gpu batch add g2: NULL argument, G1 bases or range outside the bases");
    return badd_entry<gm_g2>("gpu batch add g2", b->device, out, NULL,
                             b->bases() + first * gm_g2::AFF_BYTES, bitmap, n, timing,
                             cuzk_g2_xyzz_to_jac, cuzk_g2_jac_set_infinity, cuzk_g2_add);
}

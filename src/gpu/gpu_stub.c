/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The CUDA backend's symbols when CUDA is not compiled in (no nvcc, or CUDA=0): queries report no
 * device and every operation returns CUZK_ERR_NO_DEVICE with a message (STYLE.md section 6). */
#include "gpu/gpu.h"
#include "gpu/gpu_msm.h"

#include <string.h>

#define NO_DEVICE_(what)                                                                           \
    cuzk_fail(CUZK_ERR_NO_DEVICE,                                                                  \
              "%s: the CUDA backend is not compiled into this binary "                             \
              "(build with nvcc on the PATH and CUDA=1)",                                          \
              what)

bool cuzk_gpu_compiled(void)
{
    return false;
}

int cuzk_gpu_device_count(void)
{
    return 0;
}

bool cuzk_gpu_available(void)
{
    return false;
}

int cuzk_gpu_default_device(void)
{
    return 0;
}

bool cuzk_gpu_side_lane_on(void)
{
    return false;
}

cuzk_status cuzk_gpu_get_device_info(int device, cuzk_gpu_device_info *out)
{
    (void)device;
    if (out)
        memset(out, 0, sizeof *out);
    return NO_DEVICE_("gpu device info");
}

void cuzk_gpu_release(int device)
{
    (void)device;
}

cuzk_status cuzk_gpu_host_alloc(void **out, size_t bytes)
{
    (void)bytes;
    if (out)
        *out = NULL;
    return NO_DEVICE_("gpu host alloc");
}

void cuzk_gpu_host_free(void *p)
{
    (void)p;
}

cuzk_status cuzk__gpu_pin_bench(int device, size_t bytes, int method, cuzk_gpu_pin_result *out)
{
    (void)device;
    (void)bytes;
    (void)method;
    (void)out;
    return NO_DEVICE_("gpu pin bench");
}

cuzk_status cuzk_gpu_ntt(int device, const cuzk_domain *d, cuzk_fr_t *a, cuzk_gpu_ntt_op op,
                         cuzk_gpu_timing *timing)
{
    (void)device, (void)d, (void)a, (void)op, (void)timing;
    return NO_DEVICE_("gpu ntt");
}

cuzk_status cuzk_gpu_h(int device, const cuzk_domain *d, cuzk_fr_t *a, cuzk_fr_t *b, cuzk_fr_t *c,
                       cuzk_gpu_timing *timing)
{
    (void)device, (void)d, (void)a, (void)b, (void)c, (void)timing;
    return NO_DEVICE_("gpu h");
}

cuzk_status cuzk_gpu_frvec_alloc(cuzk_gpu_frvec **out, int device, size_t n)
{
    (void)device, (void)n;
    if (out)
        *out = NULL;
    return NO_DEVICE_("gpu frvec alloc");
}

void cuzk_gpu_frvec_free(cuzk_gpu_frvec *v)
{
    (void)v;
}

cuzk_status cuzk_gpu_frvec_upload(cuzk_gpu_frvec *v, size_t off, const cuzk_fr_t *src, size_t n)
{
    (void)v, (void)off, (void)src, (void)n;
    return NO_DEVICE_("gpu frvec upload");
}

cuzk_status cuzk_gpu_frvec_download(const cuzk_gpu_frvec *v, size_t off, cuzk_fr_t *dst, size_t n)
{
    (void)v, (void)off, (void)dst, (void)n;
    return NO_DEVICE_("gpu frvec download");
}

cuzk_status cuzk_gpu_frvec_ntt(cuzk_gpu_frvec *v, const cuzk_domain *d, cuzk_gpu_ntt_op op,
                               cuzk_gpu_timing *timing)
{
    (void)v, (void)d, (void)op, (void)timing;
    return NO_DEVICE_("gpu frvec ntt");
}

cuzk_status cuzk_gpu_frvec_h(cuzk_gpu_frvec *a, cuzk_gpu_frvec *b, cuzk_gpu_frvec *c,
                             const cuzk_domain *d, cuzk_gpu_timing *timing)
{
    (void)a, (void)b, (void)c, (void)d, (void)timing;
    return NO_DEVICE_("gpu frvec h");
}

cuzk_status cuzk_gpu_msm_g1(int device, cuzk_g1_jac_t *out, const cuzk_g1_affine_t *bases,
                            const cuzk_fr_t *scalars, size_t n, cuzk_gpu_timing *timing)
{
    (void)device, (void)out, (void)bases, (void)scalars, (void)n, (void)timing;
    return NO_DEVICE_("gpu msm g1");
}

cuzk_status cuzk_gpu_msm_g2(int device, cuzk_g2_jac_t *out, const cuzk_g2_affine_t *bases,
                            const cuzk_fr_t *scalars, size_t n, cuzk_gpu_timing *timing)
{
    (void)device, (void)out, (void)bases, (void)scalars, (void)n, (void)timing;
    return NO_DEVICE_("gpu msm g2");
}

cuzk_status cuzk_gpu_batch_add_g1(int device, cuzk_g1_jac_t *out, const cuzk_g1_affine_t *bases,
                                  const uint64_t *bitmap, size_t n, cuzk_gpu_timing *timing)
{
    (void)device, (void)out, (void)bases, (void)bitmap, (void)n, (void)timing;
    return NO_DEVICE_("gpu batch add g1");
}

cuzk_status cuzk_gpu_batch_add_g2(int device, cuzk_g2_jac_t *out, const cuzk_g2_affine_t *bases,
                                  const uint64_t *bitmap, size_t n, cuzk_gpu_timing *timing)
{
    (void)device, (void)out, (void)bases, (void)bitmap, (void)n, (void)timing;
    return NO_DEVICE_("gpu batch add g2");
}

/* Resident MSM bases (src/gpu/gpu_msm.h). */
cuzk_status cuzk_gpu_bases_upload_g1(cuzk_gpu_bases **out, int device,
                                     const cuzk_g1_affine_t *bases, size_t n)
{
    (void)device, (void)bases, (void)n;
    if (out)
        *out = NULL;
    return NO_DEVICE_("gpu bases g1");
}

cuzk_status cuzk_gpu_bases_upload_g2(cuzk_gpu_bases **out, int device,
                                     const cuzk_g2_affine_t *bases, size_t n)
{
    (void)device, (void)bases, (void)n;
    if (out)
        *out = NULL;
    return NO_DEVICE_("gpu bases g2");
}

cuzk_status cuzk_gpu_bases_precompute(cuzk_gpu_bases *b, unsigned c)
{
    (void)b, (void)c;
    return NO_DEVICE_("gpu bases precompute");
}

cuzk_status cuzk_gpu_bases_precompute_rows(cuzk_gpu_bases *b, unsigned c, unsigned rows)
{
    (void)b, (void)c, (void)rows;
    return NO_DEVICE_("gpu bases precompute");
}

unsigned cuzk_gpu_bases_precomputed(const cuzk_gpu_bases *b)
{
    (void)b;
    return 0;
}

unsigned cuzk_gpu_bases_precomputed_rows(const cuzk_gpu_bases *b)
{
    (void)b;
    return 0;
}

void cuzk_gpu_bases_free(cuzk_gpu_bases *b)
{
    (void)b;
}

size_t cuzk_gpu_bases_count(const cuzk_gpu_bases *b)
{
    (void)b;
    return 0;
}

cuzk_status cuzk_gpu_msm_g1_resident(cuzk_g1_jac_t *out, const cuzk_gpu_bases *b, size_t first,
                                     const cuzk_fr_t *scalars, size_t n, cuzk_gpu_timing *timing)
{
    (void)out, (void)b, (void)first, (void)scalars, (void)n, (void)timing;
    return NO_DEVICE_("gpu msm g1");
}

cuzk_status cuzk_gpu_msm_g1_resident_idx(cuzk_g1_jac_t *out, const cuzk_gpu_bases *b, size_t first,
                                         const uint32_t *idx, const cuzk_fr_t *scalars, size_t m,
                                         cuzk_gpu_timing *timing)
{
    (void)out, (void)b, (void)first, (void)idx, (void)scalars, (void)m, (void)timing;
    return NO_DEVICE_("gpu msm g1 idx");
}

cuzk_status cuzk_gpu_msm_g2_resident_idx(cuzk_g2_jac_t *out, const cuzk_gpu_bases *b, size_t first,
                                         const uint32_t *idx, const cuzk_fr_t *scalars, size_t m,
                                         cuzk_gpu_timing *timing)
{
    (void)out, (void)b, (void)first, (void)idx, (void)scalars, (void)m, (void)timing;
    return NO_DEVICE_("gpu msm g2 idx");
}

cuzk_status cuzk_gpu_h_msm_g1_resident(cuzk_g1_jac_t *out, const cuzk_gpu_bases *b, size_t first,
                                       const cuzk_domain *d, const cuzk_fr_t *a,
                                       const cuzk_fr_t *bv, const cuzk_fr_t *c, size_t rows,
                                       cuzk_gpu_timing *h_timing, cuzk_gpu_timing *msm_timing)
{
    (void)out, (void)b, (void)first, (void)d, (void)a, (void)bv, (void)c, (void)rows;
    (void)h_timing, (void)msm_timing;
    return NO_DEVICE_("gpu h msm g1");
}

cuzk_status cuzk_gpu_msm_g2_resident(cuzk_g2_jac_t *out, const cuzk_gpu_bases *b, size_t first,
                                     const cuzk_fr_t *scalars, size_t n, cuzk_gpu_timing *timing)
{
    (void)out, (void)b, (void)first, (void)scalars, (void)n, (void)timing;
    return NO_DEVICE_("gpu msm g2");
}

cuzk_status cuzk_gpu_batch_add_g1_resident(cuzk_g1_jac_t *out, const cuzk_gpu_bases *b,
                                           size_t first, const uint64_t *bitmap, size_t n,
                                           cuzk_gpu_timing *timing)
{
    (void)out, (void)b, (void)first, (void)bitmap, (void)n, (void)timing;
    return NO_DEVICE_("gpu batch add g1");
}

cuzk_status cuzk_gpu_batch_add_g2_resident(cuzk_g2_jac_t *out, const cuzk_gpu_bases *b,
                                           size_t first, const uint64_t *bitmap, size_t n,
                                           cuzk_gpu_timing *timing)
{
    (void)out, (void)b, (void)first, (void)bitmap, (void)n, (void)timing;
    return NO_DEVICE_("gpu batch add g2");
}

cuzk_status cuzk_gpu_h_msm_g1(int device, cuzk_g1_jac_t *out, const cuzk_g1_affine_t *h_bases,
                              const cuzk_domain *d, const cuzk_fr_t *a, const cuzk_fr_t *bv,
                              const cuzk_fr_t *c, size_t rows, cuzk_gpu_timing *h_timing,
                              cuzk_gpu_timing *msm_timing)
{
    (void)device, (void)out, (void)h_bases, (void)d, (void)a, (void)bv, (void)c, (void)rows;
    (void)h_timing, (void)msm_timing;
    return NO_DEVICE_("gpu h msm g1");
}

void cuzk__gpu_msm_release(int device, int lane)
{
    (void)device;
    (void)lane;
}

unsigned cuzk_gpu_bases_rows_that_fit(const cuzk_gpu_bases *b, unsigned rows, size_t reserve)
{
    (void)b, (void)rows, (void)reserve;
    return 0;
}

size_t cuzk__gpu_event_count(cuzk__gpu_event ev, int device)
{
    (void)ev;
    (void)device;
    return 0;
}

cuzk_status cuzk_gpu_h_prefetch(int device, size_t n, const cuzk_fr_t *a, const cuzk_fr_t *bv,
                                size_t rows)
{
    (void)device, (void)n, (void)a, (void)bv, (void)rows;
    return NO_DEVICE_("gpu h prefetch");
}

void cuzk_gpu_h_prefetch_drop(int device, const cuzk_fr_t *a)
{
    (void)device, (void)a;
}

void cuzk_gpu_timing_line(const char *phase, double ms, int device, const char *extra_json)
{
    (void)phase, (void)ms, (void)device, (void)extra_json;
}

cuzk_status cuzk__gpu_field_op(int device, int field, int op, int variant, void *out, const void *a,
                               const void *b, size_t n)
{
    (void)device, (void)field, (void)op, (void)variant, (void)out, (void)a, (void)b, (void)n;
    return NO_DEVICE_("gpu field op");
}

cuzk_status cuzk__gpu_field_bench(int device, int field, int variant, double *gmul_per_s)
{
    (void)device, (void)field, (void)variant;
    if (gmul_per_s)
        *gmul_per_s = 0;
    return NO_DEVICE_("gpu field bench");
}

cuzk_status cuzk__gpu_pipe_bench(int device, int kind, int fmas, double *ms, double *threads_iters)
{
    (void)device, (void)kind, (void)fmas, (void)ms, (void)threads_iters;
    return NO_DEVICE_("gpu pipe bench");
}

cuzk_status cuzk_gpu_msm_g1_host_idx(int device, cuzk_g1_jac_t *out, const cuzk_g1_affine_t *bases,
                                     size_t n, const uint32_t *idx, const cuzk_fr_t *scalars,
                                     size_t m, cuzk_gpu_timing *timing)
{
    (void)device, (void)out, (void)bases, (void)n, (void)idx, (void)scalars, (void)m, (void)timing;
    return NO_DEVICE_("gpu msm g1 host idx");
}

cuzk_status cuzk_gpu_msm_g2_host_idx(int device, cuzk_g2_jac_t *out, const cuzk_g2_affine_t *bases,
                                     size_t n, const uint32_t *idx, const cuzk_fr_t *scalars,
                                     size_t m, cuzk_gpu_timing *timing)
{
    (void)device, (void)out, (void)bases, (void)n, (void)idx, (void)scalars, (void)m, (void)timing;
    return NO_DEVICE_("gpu msm g2 host idx");
}

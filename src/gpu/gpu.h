/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GPU_GPU_H
#define CUZK_GPU_GPU_H

/*
 * The CUDA backend as host C code sees it (STYLE.md section 6): plain C types and cuzk_status
 * returns, no CUDA header. With CUDA compiled in these are defined in src/gpu/ (the extern "C"
 * shim src/gpu/shim.cu for devices, NTT and H; src/gpu/msm*.cu for MSM and batch additions);
 * without it src/gpu/gpu_stub.c defines every symbol: queries say "no device" and every
 * operation returns CUZK_ERR_NO_DEVICE.
 *
 * Common conventions:
 *  - |device| is a CUDA device ordinal; -1 means the default device (env CUZK_GPU, else 0).
 *  - Host arrays in, host arrays out, same limb layout as the host (Montgomery form, 64-bit
 *    limbs, least significant first): buffers are copied unchanged. Device memory is managed
 *    inside (cached per device and reused across calls, grown on demand; cuzk_gpu_release frees
 *    it). Calls on one device serialise; calls on different devices run in parallel.
 *  - Every CUDA error becomes a status with CUDA's message in cuzk_last_error(): device
 *    out-of-memory is CUZK_ERR_NOMEM with "device out of memory" in the message (the caller may
 *    fall back to the CPU); other CUDA failures are CUZK_ERR_DEVICE; no device is
 *    CUZK_ERR_NO_DEVICE; a size the device code does not handle is CUZK_ERR_INVALID_ARG. On any
 *    failure the output arrays are unspecified (in-place inputs may be half transformed).
 *  - |timing| may be NULL. When given it receives CUDA-event times of the call's phases; when env
 *    CUZK_TIMING=1 the call also prints one JSON line per phase on stderr (one write(2) each).
 */

#ifdef __cplusplus
extern "C" {
#endif

#include "cuzk/curve.h"
#include "cuzk/poly.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- devices ------------------------------------------------------------------------------- */

/* True when this binary has the CUDA backend compiled in (false in the stub). */
bool cuzk_gpu_compiled(void);
/* Number of usable CUDA devices (0 in the stub, with no driver or with no device). */
int cuzk_gpu_device_count(void);
/* cuzk_gpu_device_count() > 0. */
bool cuzk_gpu_available(void);
/* The ordinal -1 resolves to: env CUZK_GPU when set (a number), else 0. */
int cuzk_gpu_default_device(void);
/* Whether calls over host bases (MSMs, batch additions) may run on a device's side lane while its
 * main lane is busy, e.g. a partition's L/A/B sums beside the H MSM when the parameters are not
 * resident: their transfers then share the time of the main lane's kernels. False in the stub
 * and with env CUZK_GPU_LANES=1. */
bool cuzk_gpu_side_lane_on(void);

typedef struct {
    char name[256];
    size_t total_mem; /* bytes of device memory */
    size_t free_mem;  /* bytes free at the time of the call */
    int sm_count;
    int cc_major, cc_minor;
    size_t l2_bytes;
} cuzk_gpu_device_info;

/* Fills |out| for |device|. Returns: CUZK_ERR_NO_DEVICE (stub, no device, ordinal out of range). */
cuzk_status cuzk_gpu_get_device_info(int device, cuzk_gpu_device_info *out) CUZK_WARN_UNUSED_RESULT;
/* Frees the device buffers cached for |device| (-1: the default; every device with -2). */
void cuzk_gpu_release(int device);

/* Page-locked (pinned) host memory: copies to and from it run at the PCIe rate (about 55 GB/s on
 * the H200 host) instead of through the driver's pageable staging (about 8 GB/s measured). Meant
 * for buffers allocated once and reused (a/b/c of a prover); pinning is slow (tens of ms per GiB).
 * Returns: CUZK_ERR_NOMEM when the memory cannot be pinned; CUZK_ERR_NO_DEVICE without CUDA. */
cuzk_status cuzk_gpu_host_alloc(void **out, size_t bytes) CUZK_WARN_UNUSED_RESULT;
/* NULL is a no-op. */
void cuzk_gpu_host_free(void *p);

/* ---- timing -------------------------------------------------------------------------------- */

/* Times of one call in milliseconds (CUDA events on the call's stream); 0 where not measured.
 * total_ms spans the whole call on the device, transfers included. */
typedef struct {
    int device;
    double h2d_ms;     /* host -> device copies */
    double compute_ms; /* kernels */
    double d2h_ms;     /* device -> host copies */
    double total_ms;
} cuzk_gpu_timing;

/* ---- NTT and the H step (src/gpu/ntt.cu) --------------------------------------------------- */

typedef enum {
    CUZK_GPU_NTT = 0,        /* cuzk_ntt: coefficients -> values */
    CUZK_GPU_INTT = 1,       /* cuzk_intt */
    CUZK_GPU_COSET_NTT = 2,  /* cuzk_coset_ntt */
    CUZK_GPU_COSET_INTT = 3, /* cuzk_coset_intt */
} cuzk_gpu_ntt_op;

/* Largest domain the device NTT handles. */
#define CUZK_GPU_NTT_MAX_LOG 27

/* In place on the host array |a| of cuzk_domain_size(d) entries, bit-exact with the CPU
 * function named above for the same domain (either root family).
 * Returns: CUZK_ERR_INVALID_ARG for NULL arguments, an unknown |op| or a domain above
 * 2^CUZK_GPU_NTT_MAX_LOG; see the conventions at the top for the rest. */
cuzk_status cuzk_gpu_ntt(int device, const cuzk_domain *d, cuzk_fr_t *a, cuzk_gpu_ntt_op op,
                         cuzk_gpu_timing *timing) CUZK_WARN_UNUSED_RESULT;

/* cuzk_poly_h on the device, bit-exact (a receives h for a bellperson domain, the coset values
 * a*b - c for a snarkjs domain; b and c are left unchanged here, but callers must not rely on
 * that: the CPU version clobbers them). Uploads a, b, c once and downloads a once; no host
 * round trip in between. Needs 3 * n * 32 bytes of device memory (12 GiB at 2^27), kept cached
 * for the next call (cuzk_gpu_release frees it). Returns: as cuzk_gpu_ntt; a 1-element domain is
 * CUZK_ERR_INVALID_ARG (the backend runs domains below 2^10 on the CPU). */
cuzk_status cuzk_gpu_h(int device, const cuzk_domain *d, cuzk_fr_t *a, cuzk_fr_t *b, cuzk_fr_t *c,
                       cuzk_gpu_timing *timing) CUZK_WARN_UNUSED_RESULT;

/* ---- resident vectors: keep Fr data on the device across calls ------------------------------ */

/* A vector of Fr elements in device memory on one device. */
typedef struct cuzk_gpu_frvec cuzk_gpu_frvec;

/* Allocates |n| elements on |device| (contents undefined). Free with cuzk_gpu_frvec_free. */
cuzk_status cuzk_gpu_frvec_alloc(cuzk_gpu_frvec **out, int device,
                                 size_t n) CUZK_WARN_UNUSED_RESULT;
/* NULL is a no-op. */
void cuzk_gpu_frvec_free(cuzk_gpu_frvec *v);
/* Copies |n| elements between host and device, starting at element |off| of |v|. */
cuzk_status cuzk_gpu_frvec_upload(cuzk_gpu_frvec *v, size_t off, const cuzk_fr_t *src,
                                  size_t n) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_gpu_frvec_download(const cuzk_gpu_frvec *v, size_t off, cuzk_fr_t *dst,
                                    size_t n) CUZK_WARN_UNUSED_RESULT;
/* The transform of cuzk_gpu_ntt on the first cuzk_domain_size(d) elements of |v|, in place on
 * the device (no transfer). */
cuzk_status cuzk_gpu_frvec_ntt(cuzk_gpu_frvec *v, const cuzk_domain *d, cuzk_gpu_ntt_op op,
                               cuzk_gpu_timing *timing) CUZK_WARN_UNUSED_RESULT;
/* The H step on resident vectors (same device, each at least the domain size): a receives the
 * result, b and c are clobbered. */
cuzk_status cuzk_gpu_frvec_h(cuzk_gpu_frvec *a, cuzk_gpu_frvec *b, cuzk_gpu_frvec *c,
                             const cuzk_domain *d, cuzk_gpu_timing *timing) CUZK_WARN_UNUSED_RESULT;

/* ---- MSM and batch addition (src/gpu/msm*.cu) ---------------------------------------------
 * The same meaning as the CPU functions of include/cuzk/msm.h (cuzk_g1_msm, cuzk_g2_msm,
 * cuzk_g1_batch_add, cuzk_g2_batch_add): bases affine (infinity allowed) in the prime-order
 * subgroup, scalars Montgomery-form Fr, results Jacobian and equal (as points) to the CPU's.
 * |out| is written only on success. Returns: CUZK_ERR_INVALID_ARG for a NULL |out| or a NULL
 * array with n > 0; CUZK_ERR_UNSUPPORTED when the device path is not implemented (the backend
 * then falls back to the CPU); see the conventions at the top for the rest. */
cuzk_status cuzk_gpu_msm_g1(int device, cuzk_g1_jac_t *out, const cuzk_g1_affine_t *bases,
                            const cuzk_fr_t *scalars, size_t n,
                            cuzk_gpu_timing *timing) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_gpu_msm_g2(int device, cuzk_g2_jac_t *out, const cuzk_g2_affine_t *bases,
                            const cuzk_fr_t *scalars, size_t n,
                            cuzk_gpu_timing *timing) CUZK_WARN_UNUSED_RESULT;
/* out = sum of bases[i] over the i < n whose bit is set in |bitmap| (bit i = word i/64, bit
 * i%64); bits at positions >= n are ignored. */
cuzk_status cuzk_gpu_batch_add_g1(int device, cuzk_g1_jac_t *out, const cuzk_g1_affine_t *bases,
                                  const uint64_t *bitmap, size_t n,
                                  cuzk_gpu_timing *timing) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_gpu_batch_add_g2(int device, cuzk_g2_jac_t *out, const cuzk_g2_affine_t *bases,
                                  const uint64_t *bitmap, size_t n,
                                  cuzk_gpu_timing *timing) CUZK_WARN_UNUSED_RESULT;

/* ---- timing lines (shared by every GPU entry point) ----------------------------------------- */

/* When env CUZK_TIMING=1: writes {"phase":"<phase>","ms":<ms>,"device":<d>,...extra} plus a
 * newline to stderr with a single write(2). |extra_json| is NULL or more members without braces,
 * starting with a comma (e.g. ",\"log_n\":27"). */
void cuzk_gpu_timing_line(const char *phase, double ms, int device, const char *extra_json);

/* ---- internal: tests and benchmarks ------------------------------------------------------ */

/* Element-wise out[i] = a[i] op b[i] on the device for i < n, in Fr (|field| 0, 32-byte elements)
 * or Fp (1, 48 bytes); |op| 0 mul, 1 add, 2 sub; |variant| the multiplication (1..3, see
 * src/gpu/mont.cuh; 0 the compiled default), 4 the dedicated squaring (op 0 only: a^2), 5 the
 * lazy forms (Fp only: inputs in [0, 2p), the result made canonical), 6 the multiplication
 * specialised to r (Fr only: src/gpu/fr_mul_r.cuh; add and sub as variant 0), 7 mont.cuh's
 * even/odd multiplication (mul_eo; add and sub as variant 0), 8 its lazy form (Fp only, as 5),
 * 9 the even/odd form of 6 (Fr only: fr_mul_r_eo), 10 the even/odd squaring (sqr_eo, op 0 only:
 * a^2), 11 its lazy form (Fp only, as 5), 12 a b - b^2 by the fused mul_diff (Fp only, lazy as 5,
 * op 0 only), 13 Shoup's product by b (Fr only, op 0 only), 14 the Karatsuba multiplication
 * (mont_ka.cuh mul_ka, op 0 only), 15 its lazy form (Fp only, as 5), 16 a b - b^2 by mul_sum_ka
 * (Fp only, lazy as 5, op 0 only). Host arrays. */
cuzk_status cuzk__gpu_field_op(int device, int field, int op, int variant, void *out, const void *a,
                               const void *b, size_t n) CUZK_WARN_UNUSED_RESULT;
/* Whether cuzk__gpu_field_op takes |field|, |op|, |variant| (op -1: any op, for the benchmark). */
static inline int cuzk__gpu_field_variant_ok(int field, int op, int variant)
{
    const int lazy = variant == 5 || variant == 8 || variant == 11 || variant == 12 ||
                     variant == 15 || variant == 16;
    const int fr_only = variant == 6 || variant == 9 || variant == 13;
    const int mul_only = variant == 4 || variant >= 10;
    if (field < 0 || field > 1 || op < -1 || op > 2 || variant < 0 || variant > 16)
        return 0;
    if ((lazy && field == 0) || (fr_only && field == 1))
        return 0;
    return op <= 0 || !mul_only;
}

/* Multiplication throughput of |field| / |variant| on |device| in 10^9 products per second (a
 * kernel of long dependent chains over every SM). */
cuzk_status cuzk__gpu_field_bench(int device, int field, int variant,
                                  double *gmul_per_s) CUZK_WARN_UNUSED_RESULT;

/* Whether the FP64 pipe adds throughput beside the integer one (`cuzk-bench ntt --backend cuda
 * --filter='pipe*'`): |kind| 0 IMAD.WIDE chains, 1 FP64 FMA chains, 2 both, 3 two Fp products of
 * the MSM's multiplication plus |fmas| (0, 64, 128, 256, 512) FP64 FMAs per iteration. *ms: the
 * kernel's time; *threads_iters: threads x iterations (8 operations of each kind per iteration
 * for kinds 0-2). */
cuzk_status cuzk__gpu_pipe_bench(int device, int kind, int fmas, double *ms,
                                 double *threads_iters) CUZK_WARN_UNUSED_RESULT;

/* Host memory for transfers, measured (`cuzk-bench msm --pin-gib G,...`): |method| 0
 * cudaHostAlloc, 1 malloc + first touch + cudaHostRegister, 2 pageable malloc (first touch only).
 * Times in ms (wall); copy rates in GB/s over the whole buffer (CUDA events). */
typedef struct {
    double alloc_ms, touch_ms, pin_ms, free_ms, h2d_gbs, d2h_gbs;
} cuzk_gpu_pin_result;
cuzk_status cuzk__gpu_pin_bench(int device, size_t bytes, int method,
                                cuzk_gpu_pin_result *out) CUZK_WARN_UNUSED_RESULT;

#ifdef __cplusplus
}
#endif

#endif

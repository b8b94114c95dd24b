/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GPU_GPU_MSM_H
#define CUZK_GPU_GPU_MSM_H

/*
 * Resident MSM bases (the SRS case): points uploaded once to one device and used by any number
 * of MSMs / batch additions over any sub-range, so a call moves only its scalars or bitmap.
 * Plain C like src/gpu/gpu.h (whose conventions apply: |device| -1 = default, statuses, timing);
 * the stub build (src/gpu/gpu_stub.c) returns CUZK_ERR_NO_DEVICE from every function.
 */

#include "gpu/gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A copy of |n| affine bases (G1 or G2) in the memory of one device. */
typedef struct cuzk_gpu_bases cuzk_gpu_bases;

/* Uploads |n| bases (host layout, infinity allowed). Free with cuzk_gpu_bases_free.
 * Returns: CUZK_ERR_INVALID_ARG for NULL arguments or n = 0; CUZK_ERR_NOMEM when the device is
 * out of memory; see gpu.h for the rest. */
cuzk_status cuzk_gpu_bases_upload_g1(cuzk_gpu_bases **out, int device,
                                     const cuzk_g1_affine_t *bases,
                                     size_t n) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_gpu_bases_upload_g2(cuzk_gpu_bases **out, int device,
                                     const cuzk_g2_affine_t *bases,
                                     size_t n) CUZK_WARN_UNUSED_RESULT;
/* Precomputes, on the device, 2^(c j) P for every G1 base P of |b| and j < ceil(255 / c) (the
 * fixed-base technique of facts/gpu-techniques.md section 6, item 2): every later
 * cuzk_gpu_msm_g1_resident(_idx) and H MSM over any range of |b| then runs as one window of c
 * bits over ceil(255 / c) entries per scalar: one sort, one bucket set, one reduction, no
 * doublings between windows. The tables take ceil(255 / c) times the bases' device memory (12 x
 * at c = 22; they replace the plain copy, which is their row 0) and about a second per 2^24
 * bases to build. |c| 0 picks the width for |b|'s size (22 at 2^24, 20 at 2^20). A second call
 * replaces the tables. No other call over |b| may run during this one. Returns
 * CUZK_ERR_INVALID_ARG for NULL, G2 bases, c outside 8..26 or more than 2^31 table entries;
 * CUZK_ERR_NOMEM when the tables do not fit on the device (|b| is then unchanged). An MSM whose
 * sorted entries do not fit beside the tables runs its plain windows over row 0. */
cuzk_status cuzk_gpu_bases_precompute(cuzk_gpu_bases *b, unsigned c) CUZK_WARN_UNUSED_RESULT;
/* The same with only the first |rows| rows (0: all) when memory is short of all of them (a
 * PoRep H query of 2^27 points takes 12.9 GB a row): an MSM then runs ceil(nw / rows) windows,
 * window k one bucket set over the digit windows k rows .. k rows + rows - 1, with c rows
 * doublings between them. |c| 0 picks the width for |b|'s size and |rows| (24 at 2^27 with 4
 * rows: 11 windows in 3 sets instead of 12 windows of 22 bits in 12). */
cuzk_status cuzk_gpu_bases_precompute_rows(cuzk_gpu_bases *b, unsigned c,
                                           unsigned rows) CUZK_WARN_UNUSED_RESULT;
/* The most rows, up to |rows|, whose table can be built beside what the device holds now and
 * whose MSM over all of |b| then still fits beside |reserve| bytes of other device memory (the
 * caller's: a prover's H step, say). A count that leaves as many windows and bucket sets as a
 * smaller one is not taken (5 rows at 2^27 make the 3 sets of 4). 0: not even 2 rows fit (or
 * an error, or no CUDA); the plain copy then serves. */
unsigned cuzk_gpu_bases_rows_that_fit(const cuzk_gpu_bases *b, unsigned rows, size_t reserve);
/* The window width of |b|'s precomputed tables, 0 when it has none; their rows. */
unsigned cuzk_gpu_bases_precomputed(const cuzk_gpu_bases *b);
unsigned cuzk_gpu_bases_precomputed_rows(const cuzk_gpu_bases *b);
/* NULL is a no-op. */
void cuzk_gpu_bases_free(cuzk_gpu_bases *b);
/* Number of bases held. */
size_t cuzk_gpu_bases_count(const cuzk_gpu_bases *b);

/* cuzk_gpu_msm_gX / cuzk_gpu_batch_add_gX over bases[first .. first + n) of |b|.
 * Returns: CUZK_ERR_INVALID_ARG for NULL arguments, a range outside |b| or the wrong group. */
cuzk_status cuzk_gpu_msm_g1_resident(cuzk_g1_jac_t *out, const cuzk_gpu_bases *b, size_t first,
                                     const cuzk_fr_t *scalars, size_t n,
                                     cuzk_gpu_timing *timing) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_gpu_msm_g2_resident(cuzk_g2_jac_t *out, const cuzk_gpu_bases *b, size_t first,
                                     const cuzk_fr_t *scalars, size_t n,
                                     cuzk_gpu_timing *timing) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_gpu_batch_add_g1_resident(cuzk_g1_jac_t *out, const cuzk_gpu_bases *b,
                                           size_t first, const uint64_t *bitmap, size_t n,
                                           cuzk_gpu_timing *timing) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_gpu_batch_add_g2_resident(cuzk_g2_jac_t *out, const cuzk_gpu_bases *b,
                                           size_t first, const uint64_t *bitmap, size_t n,
                                           cuzk_gpu_timing *timing) CUZK_WARN_UNUSED_RESULT;

/* sum over j < m of scalars[j] bases[first + idx[j]] over resident bases |b| (the tail of a
 * 0/1 split: only the entries that are neither 0 nor 1 travel). Returns CUZK_ERR_INVALID_ARG
 * for NULL arguments, the wrong group, or an idx[j] outside the bases from |first|. */
cuzk_status cuzk_gpu_msm_g1_resident_idx(cuzk_g1_jac_t *out, const cuzk_gpu_bases *b, size_t first,
                                         const uint32_t *idx, const cuzk_fr_t *scalars, size_t m,
                                         cuzk_gpu_timing *timing) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_gpu_msm_g2_resident_idx(cuzk_g2_jac_t *out, const cuzk_gpu_bases *b, size_t first,
                                         const uint32_t *idx, const cuzk_fr_t *scalars, size_t m,
                                         cuzk_gpu_timing *timing) CUZK_WARN_UNUSED_RESULT;

/* The MSM of |m| (base index, scalar) pairs over |n| bases in host memory that the device can
 * read (pinned and mapped, as cuzk_gpu_host_alloc's memory is): the device gathers the
 * selected points itself, so only they cross PCIe, then runs the MSM over them. Returns
 * CUZK_ERR_UNSUPPORTED, having done nothing, for bases the device cannot read (pageable memory)
 * and with env CUZK_GPU_DEVICE_GATHER=0 (the caller then gathers on the host);
 * CUZK_ERR_INVALID_ARG for an index >= n. */
cuzk_status cuzk_gpu_msm_g1_host_idx(int device, cuzk_g1_jac_t *out, const cuzk_g1_affine_t *bases,
                                     size_t n, const uint32_t *idx, const cuzk_fr_t *scalars,
                                     size_t m, cuzk_gpu_timing *timing) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_gpu_msm_g2_host_idx(int device, cuzk_g2_jac_t *out, const cuzk_g2_affine_t *bases,
                                     size_t n, const uint32_t *idx, const cuzk_fr_t *scalars,
                                     size_t m, cuzk_gpu_timing *timing) CUZK_WARN_UNUSED_RESULT;

/* The H step of |d| on host arrays a, bv, c of |rows| <= domain entries (zero above them, no
 * padding needed) and the G1 MSM of the resulting h (domain - 1 terms) over bases[first ..) of
 * |b|, h never leaving the device: what cuzk_gpu_h then cuzk_gpu_msm_g1_resident compute,
 * without h's download and upload. The device is |b|'s. Timings: the H step (h2d the exposed
 * upload of a, compute the transforms) and the MSM. |c| may be NULL: then c = a * b pointwise,
 * computed on the device (true of every row of a satisfied constraint system), and only a and bv
 * are uploaded. Returns CUZK_ERR_INVALID_ARG for NULL arguments, G2 bases, rows above the domain,
 * or too few bases. */
cuzk_status cuzk_gpu_h_msm_g1_resident(cuzk_g1_jac_t *out, const cuzk_gpu_bases *b, size_t first,
                                       const cuzk_domain *d, const cuzk_fr_t *a,
                                       const cuzk_fr_t *bv, const cuzk_fr_t *c, size_t rows,
                                       cuzk_gpu_timing *h_timing,
                                       cuzk_gpu_timing *msm_timing) CUZK_WARN_UNUSED_RESULT;

/* cuzk_gpu_h_msm_g1_resident over host bases h_bases[0 .. domain - 1) on |device| (parameters
 * not resident on it): the points are streamed to the device in chunks under the MSM's kernels
 * while h stays there (src/gpu/msm_stream.cuh). Returns CUZK_ERR_INVALID_ARG for NULL
 * arguments or a domain below 2; CUZK_ERR_NOMEM when even small chunks do not fit. */
cuzk_status cuzk_gpu_h_msm_g1(int device, cuzk_g1_jac_t *out, const cuzk_g1_affine_t *h_bases,
                              const cuzk_domain *d, const cuzk_fr_t *a, const cuzk_fr_t *bv,
                              const cuzk_fr_t *c, size_t rows, cuzk_gpu_timing *h_timing,
                              cuzk_gpu_timing *msm_timing) CUZK_WARN_UNUSED_RESULT;

/* Starts copying a and bv (|rows| entries each, pinned host memory: cuzk_gpu_host_alloc or a
 * pinned pool's buffer) to |device| for the fused H call on a domain of |n| that will name them
 * next (cuzk_gpu_h_msm_g1_resident), on a stream of its own, so that the copies run under the
 * device's current work (the previous partition's H MSM) and that call starts its transforms at
 * once. Returns without waiting: CUZK_OK once the copies are enqueued (or these vectors are
 * already staged); CUZK_ERR_UNSUPPORTED, having done nothing, when env CUZK_GPU_H_STAGE=0, a or
 * bv is pageable, the staging vectors are taken (another partition's), or the device lacks room
 * for them and 8 GiB besides; CUZK_ERR_INVALID_ARG for NULL vectors, rows above n or n not a
 * power of two >= 2. The caller must neither change nor free a and bv until their call has
 * run or cuzk_gpu_h_prefetch_drop(device, a) has returned. */
cuzk_status cuzk_gpu_h_prefetch(int device, size_t n, const cuzk_fr_t *a, const cuzk_fr_t *bv,
                                size_t rows);
/* Forgets a prefetch of |a| on |device| (-1: on every device) that no call has taken, once its
 * copies are done; nothing when there is none. */
void cuzk_gpu_h_prefetch_drop(int device, const cuzk_fr_t *a);

/* Frees the MSM's cached device memory of |device| (-1: every device) on |lane| (0: main, 1:
 * side, -1: both); cuzk_gpu_release calls it. Internal. */
void cuzk__gpu_msm_release(int device, int lane);
/* Device paths worth watching, counted per device ordinal since the process started (tests;
 * metrics: cuzk_gpu_events_total{gpu,event}). Internal. */
typedef enum {
    CUZK__GPU_EV_SIDE_LANE_CALL,     /* a call over host bases ran on a device's side lane */
    CUZK__GPU_EV_H_STAGED,           /* a fused H call found its a and b staged on the device */
    CUZK__GPU_EV_H_PREFETCHED,       /* cuzk_gpu_h_prefetch enqueued a and b */
    CUZK__GPU_EV_H_PREFETCH_DROPPED, /* cuzk_gpu_h_prefetch_drop forgot a prefetch untaken */
    CUZK__GPU_EV_MSM_STREAMED_CHUNK, /* an MSM or batch-addition chunk streamed from the host */
    CUZK__GPU_EV_MSM_ROWS_FALLBACK,  /* an MSM over precomputed rows ran plain windows (no room) */
    CUZK__GPU_EV_COUNT
} cuzk__gpu_event;
/* The count of |ev| on |device|, or on every device when |device| is -1 (0 for an ordinal out
 * of range, and always 0 without CUDA). */
size_t cuzk__gpu_event_count(cuzk__gpu_event ev, int device);
/* The metrics name of |ev| ("side_lane_call", ...). */
const char *cuzk__gpu_event_name(cuzk__gpu_event ev);

#ifdef __cplusplus
}
#endif

#endif

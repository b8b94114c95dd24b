/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_BACKEND_H
#define CUZK_BACKEND_H

/*
 * What the prover asks of a device (DESIGN.md section 3): the H polynomial from a, b, c, MSMs in
 * G1 and G2, and batch additions of 0/1-scalar bases. The prover is written once against this
 * interface; the CPU backend is the reference every other backend is tested against.
 */

#include "cuzk/curve.h"
#include "cuzk/poly.h"
#include "cuzk/threadpool.h"

typedef enum {
    CUZK_BACKEND_AUTO = 0, /* CUDA when compiled in and a device is present, else CPU */
    CUZK_BACKEND_CPU = 1,
    CUZK_BACKEND_CUDA = 2,
} cuzk_backend_kind;

typedef struct cuzk_backend cuzk_backend;

/* "auto", "cpu" or "cuda" -> kind; CUZK_ERR_INVALID_ARG otherwise. */
cuzk_status cuzk_backend_parse_kind(const char *name,
                                    cuzk_backend_kind *out) CUZK_WARN_UNUSED_RESULT;
/* Creates a backend. |threads| = 0: all CPUs (or CUZK_THREADS). CUDA when not compiled in, or
 * with no device: CUZK_ERR_NO_DEVICE with a message (AUTO then falls back to the CPU). A CUDA
 * backend works on the default device: env CUZK_GPU (an ordinal), else device 0. */
cuzk_status cuzk_backend_create(cuzk_backend **out, cuzk_backend_kind kind,
                                unsigned threads) CUZK_WARN_UNUSED_RESULT;
/* The same on CUDA device |device| (-1: the default above; ignored by the CPU backend; run one
 * backend per device to use several). Returns CUZK_ERR_NO_DEVICE for an ordinal without a
 * device when |kind| is CUDA (AUTO then uses the CPU). */
cuzk_status cuzk_backend_create_on(cuzk_backend **out, cuzk_backend_kind kind, unsigned threads,
                                   int device) CUZK_WARN_UNUSED_RESULT;
/* The CUDA device ordinal of |be|, or -1 for the CPU backend. */
int cuzk_backend_device(const cuzk_backend *be);
void cuzk_backend_destroy(cuzk_backend *be);
/* "cpu" or "cuda". */
const char *cuzk_backend_name(const cuzk_backend *be);
/* The host thread pool of the backend (CPU work around device calls). */
cuzk_pool *cuzk_backend_pool(const cuzk_backend *be);
unsigned cuzk_backend_threads(const cuzk_backend *be);
/* Whether a CUDA backend is compiled into this binary, and whether a device is usable. */
bool cuzk_backend_cuda_compiled(void);
bool cuzk_backend_cuda_usable(void);

/* Scratch buffers owned by |be| and kept between calls, so that a prover does not allocate (and
 * first-touch) gigabytes per proof; on a CUDA backend they are pinned host memory, from which
 * uploads run at the full PCIe rate. Slot |slot| (< CUZK_BACKEND_SCRATCH_SLOTS) grows to at least
 * |bytes|; its contents are undefined. Valid until the next request for the same slot or
 * cuzk_backend_destroy; like every backend call, for one thread at a time. NULL on failure
 * (cuzk_last_error says why). */
#define CUZK_BACKEND_SCRATCH_SLOTS 12
void *cuzk_backend_scratch(cuzk_backend *be, unsigned slot, size_t bytes);
/* Bytes |be| holds in scratch slots now (their sizes, not their use); slots only grow, until
 * cuzk_backend_destroy. Same thread rule as cuzk_backend_scratch. */
uint64_t cuzk_backend_scratch_bytes(const cuzk_backend *be);
/* Wipes (cuzk_memclear) up to CUZK_BACKEND_SCRATCH_SLOTS byte ranges of |be|'s scratch (a
 * prover's copies of witness values) on threads of their own after the call returns, so that a
 * proof does not end waiting for gigabytes of wipes; the next cuzk_backend_scratch call and
 * cuzk_backend_destroy wait for them. NULL entries and empty ranges are skipped; where no thread
 * can be started the wipe runs before the call returns. */
void cuzk_backend_scratch_wipe_async(cuzk_backend *be, void *const *p, const size_t *bytes,
                                     unsigned n);

/* Device residency (DESIGN.md section 3): keeps a copy of bases[0 .. n) (G1 or G2 affine points)
 * in the backend's device memory, so every later MSM / batch addition whose bases lie inside that
 * array moves only its scalars or bitmap. Backends of the same device share one copy of the same
 * array (one upload; freed when the last of them drops it or is destroyed). Idempotent for the
 * same array; a no-op returning CUZK_OK on the CPU backend. Returns CUZK_ERR_NOMEM when the device
 * cannot hold it (calls then upload their bases as before). The host array must stay valid,
 * unchanged and at the same address until every backend that keeps it has called
 * cuzk_backend_drop_resident, which must not run while a call of that backend uses it. */
cuzk_status cuzk_backend_keep_resident(cuzk_backend *be, const void *bases, size_t n,
                                       bool g2) CUZK_WARN_UNUSED_RESULT;
/* Lets go of the device copy of the array that starts at |bases| (none held: no-op); the copy
 * is freed when no other backend of the device keeps it. */
void cuzk_backend_drop_resident(cuzk_backend *be, const void *bases);
/* cuzk_backend_keep_resident for a G1 array whose new device copy holds its first |rows|
 * precomputed rows 2^(c j) P (the window width c from the array's size and |rows|) instead of
 * the plain points: each row costs the array's size again, and every MSM over the array then
 * runs fewer windows or bucket sets (src/gpu/gpu_msm.h cuzk_gpu_bases_precompute_rows; the H
 * query of a PoRep partition, 12.9 GB a row: 4 rows took its MSM from 720 to 676 ms on an
 * H200). Rows that do not fit are left out with a note on stderr (the plain copy serves); an
 * array another backend of the device already keeps is shared as it is. |rows| 0 = plain. */
cuzk_status cuzk_backend_keep_resident_rows(cuzk_backend *be, const void *bases, size_t n, bool g2,
                                            unsigned rows) CUZK_WARN_UNUSED_RESULT;
/* Precomputed rows for the H query of the parameter sets |be| keeps resident from now on
 * (cuzk_groth16_params_keep_resident; engine config gpus.h_precompute_rows); 0 (the default):
 * none. */
void cuzk_backend_set_h_rows(cuzk_backend *be, unsigned rows);
unsigned cuzk_backend_h_rows(const cuzk_backend *be);
/* Device bytes of the resident arrays |be| keeps, precomputed rows included (shared copies
 * counted in full by each backend). */
uint64_t cuzk_backend_resident_bytes(cuzk_backend *be);
/* What device |device| holds for all the backends of this process (each shared copy once):
 * returns the count of resident copies, and sets *bytes to their device bytes and *rows to the
 * most precomputed rows one of them was built with (0: none; fewer than asked when the rest did
 * not fit, see cuzk_backend_keep_resident_rows). Either pointer may be NULL. Safe from any
 * thread, beside calls of the backends; 0 without CUDA. */
size_t cuzk_backend_device_resident(int device, uint64_t *bytes, unsigned *rows);
/* Whether a call of |be| may run beside another call of |be| in progress on a second lane of
 * the device (resident bases included): a CUDA backend whose side lane is on. */
bool cuzk_backend_side_lane_on(const cuzk_backend *be);

/* See cuzk_poly_h (a receives h; b, c clobbered). The CUDA backend runs domains of 2^10 .. 2^27 on
 * the device (smaller ones on the CPU, where transfers would dominate) and falls back to the CPU,
 * with one note on stderr, when the device runs out of memory. |c| may be NULL for c = a * b
 * (a PROVE_AB synthesis), which the device forms itself; where the step would run on the CPU
 * instead, that returns CUZK_ERR_UNSUPPORTED with nothing changed, and the caller supplies c.
 * MSMs and batch additions go to the device when it implements them (otherwise the CPU, with one
 * note on stderr). */
cuzk_status cuzk_backend_h(cuzk_backend *be, const cuzk_domain *d, cuzk_fr_t *a, cuzk_fr_t *b,
                           cuzk_fr_t *c) CUZK_WARN_UNUSED_RESULT;
/* The H step, then the MSM of h over |h_bases| (domain - 1 points), fused where h can stay on the
 * device: a CUDA backend, on a domain it runs, with |h_bases| resident or (when not) streamed
 * from the host in chunks under the MSM's kernels. a, b, c hold
 * |rows| <= domain entries each (zero above them: no padding needed) and are left unchanged.
 * |c| may be NULL: then c = a * b pointwise, which holds for every row of a satisfied constraint
 * system (for an unsatisfied one the proof fails its verification either way); the device then
 * computes c and only a and b are uploaded.
 * ms[0] and ms[1] receive the wall time of the H step and of the MSM. Returns
 * CUZK_ERR_UNSUPPORTED, having done nothing, where it cannot fuse them (CPU backend, device
 * memory short): the caller then pads and uses cuzk_backend_h and
 * cuzk_backend_msm_g1. CUZK_ERR_INVALID_ARG when |rows| exceeds the domain. It uses neither the
 * backend's pool nor its scratch, so another thread may use those meanwhile (the prover splits
 * the L/A/B scalars while the device computes H). */
cuzk_status cuzk_backend_h_msm_g1(cuzk_backend *be, const cuzk_domain *d, const cuzk_fr_t *a,
                                  const cuzk_fr_t *b, const cuzk_fr_t *c, size_t rows,
                                  const cuzk_g1_affine_t *h_bases, cuzk_g1_jac_t *out,
                                  double ms[2]) CUZK_WARN_UNUSED_RESULT;
/* Starts the upload of the next partition's a and b (|rows| entries, pinned host memory) for
 * its cuzk_backend_h_msm_g1 over |h_bases| (domain |n|, resident on |be|'s device), under the
 * device's current work, without waiting; that call then finds them there and starts its H
 * step at once (a PoRep partition's a takes ~78 ms to go up). CUZK_OK when enqueued;
 * CUZK_ERR_UNSUPPORTED, having done nothing, on the CPU backend, for bases that are not
 * resident, a domain the device does not run, pageable vectors, or when the device's staging
 * vectors are taken or lack room. Until that call has run, or cuzk_backend_h_prefetch_drop has
 * returned, the caller must neither change nor free a and b. */
cuzk_status cuzk_backend_h_prefetch(cuzk_backend *be, const cuzk_g1_affine_t *h_bases, size_t n,
                                    const cuzk_fr_t *a, const cuzk_fr_t *b, size_t rows);
/* Forgets a prefetch of |a| that no call took, on whichever device made it (its copies waited
 * for): before a and b are freed or reused. Nothing when there is none. */
void cuzk_backend_h_prefetch_drop(cuzk_backend *be, const cuzk_fr_t *a);
cuzk_status cuzk_backend_msm_g1(cuzk_backend *be, cuzk_g1_jac_t *out,
                                const cuzk_g1_affine_t *bases, const cuzk_fr_t *scalars,
                                size_t n) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_backend_msm_g2(cuzk_backend *be, cuzk_g2_jac_t *out,
                                const cuzk_g2_affine_t *bases, const cuzk_fr_t *scalars,
                                size_t n) CUZK_WARN_UNUSED_RESULT;
/* sum over j < m of scalars[j] bases[idx[j]], with every idx[j] < n: the tail of a 0/1 split as
 * (index, scalar) pairs, so that only the entries that are neither 0 nor 1 travel to a device
 * holding |bases| resident. Elsewhere the selected bases are gathered and summed like
 * cuzk_backend_msm_g1/g2. CUZK_ERR_INVALID_ARG for an index outside [0, n). */
cuzk_status cuzk_backend_msm_g1_idx(cuzk_backend *be, cuzk_g1_jac_t *out,
                                    const cuzk_g1_affine_t *bases, size_t n, const uint32_t *idx,
                                    const cuzk_fr_t *scalars, size_t m) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_backend_msm_g2_idx(cuzk_backend *be, cuzk_g2_jac_t *out,
                                    const cuzk_g2_affine_t *bases, size_t n, const uint32_t *idx,
                                    const cuzk_fr_t *scalars, size_t m) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_backend_batch_add_g1(cuzk_backend *be, cuzk_g1_jac_t *out,
                                      const cuzk_g1_affine_t *bases, const uint64_t *bitmap,
                                      size_t n) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk_backend_batch_add_g2(cuzk_backend *be, cuzk_g2_jac_t *out,
                                      const cuzk_g2_affine_t *bases, const uint64_t *bitmap,
                                      size_t n) CUZK_WARN_UNUSED_RESULT;

#endif

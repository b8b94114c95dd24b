/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_MSM_MSM_PACKED_H
#define CUZK_MSM_MSM_PACKED_H
/*
 * Internal: MSMs whose bases are packed points, the layout of a snarkjs zkey's point sections
 * (formats.md 4.5): per point the Montgomery limbs of x then y as little-endian 64-bit words
 * (G2: x.c0, x.c1, y.c0, y.c1), 96 (G1) or 192 (G2) bytes, all zero for the point at infinity.
 * A caller that keeps a key's points as the file holds them (CUZK_SNARKJS_PACKED_POINTS) then
 * needs no decoded copy of all of them: each MSM decodes its bases into its own working memory
 * (all at once, or a slice at a time where it makes its endomorphism images in slices), which
 * for a one-shot proof is memory recycled from MSM to MSM instead of fresh pages.
 *
 * Nothing is checked: the caller vouches that every point is on the curve and in the subgroup
 * (a key reader checks them at load). Otherwise as the affine entry points of cuzk/msm.h, with
 * exactly one of |mont| (Montgomery-form scalars) and |raw| (canonical 4-limb integers).
 *
 * The points are in memory or in a file (cuzk__packed_bases). From a file they are read with
 * pread straight into the MSM's working memory, never through a mapping (src/groth16/zkey.c
 * says why); a file that ends before the points do, or fails to read, gives CUZK_ERR_IO.
 */
#include <stddef.h>
#include <stdint.h>

#include "cuzk/msm.h"
#include "msm/msm_job.h"

#define CUZK__G1_PACKED_BYTES 96
#define CUZK__G2_PACKED_BYTES 192

/* Where packed points are: |mem|, or (mem NULL) the file |fd| from byte |off| on. */
typedef struct {
    const uint8_t *mem;
    int fd;
    uint64_t off;
} cuzk__packed_bases;

static inline cuzk__packed_bases cuzk__packed_in_memory(const uint8_t *p)
{
    return (cuzk__packed_bases){p, -1, 0};
}

cuzk_status cuzk__g1_msm_packed(cuzk_g1_jac_t *out, const cuzk__packed_bases *bases,
                                const cuzk_fr_t *mont, const uint64_t *raw, size_t n,
                                cuzk_pool *pool, const cuzk_msm_opts *opts) CUZK_WARN_UNUSED_RESULT;
cuzk_status cuzk__g2_msm_packed(cuzk_g2_jac_t *out, const cuzk__packed_bases *bases,
                                const cuzk_fr_t *mont, const uint64_t *raw, size_t n,
                                cuzk_pool *pool, const cuzk_msm_opts *opts) CUZK_WARN_UNUSED_RESULT;
/* The working memory they may need (as cuzk_g1_msm_scratch_size: the decoded bases included). */
size_t cuzk__g1_msm_packed_scratch_size(size_t n, const cuzk_pool *pool, const cuzk_msm_opts *opts);
size_t cuzk__g2_msm_packed_scratch_size(size_t n, const cuzk_pool *pool, const cuzk_msm_opts *opts);

/* An MSM job (msm/msm_job.h) over packed bases; its working memory holds their decoded copy. */
cuzk_status cuzk__g1_msm_job_new_packed(cuzk__g1_msm_job **job, const cuzk__packed_bases *bases,
                                        const cuzk_fr_t *mont, const uint64_t *raw, size_t n,
                                        unsigned workers, unsigned split, void *scratch,
                                        size_t scratch_bytes) CUZK_WARN_UNUSED_RESULT;
size_t cuzk__g1_msm_job_scratch_size_packed(size_t n, unsigned workers, unsigned split);

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_MSM_MSM_IFMA_H
#define CUZK_MSM_MSM_IFMA_H

#include <stdbool.h>

#include "field/fp_ifma.h"

/*
 * Whether the G1 and G2 batch-affine additions and running sums use the 8-lane IFMA paths
 * (src/msm/batch_affine_x8.h, src/msm/reduce_x8.h) when the library was built with them
 * (CUZK_FP_HAVE_IFMA). On by default; tests and cuzk-bench
 * clear it to run the scalar reference path in the same process. Set it only while no MSM runs.
 */
extern bool cuzk__msm_use_ifma; /* defined in src/msm/msm_g1.c */

#if CUZK_FP_HAVE_IFMA
#include <stddef.h>
#include <stdint.h>

/* The 8 points at |p| (|stride| bytes apart, a bool at |inf_off| that marks infinity) as a
 * vector of pointers in *|ptrs|, the lanes at infinity pointing at the first live point; returns
 * the live lanes (0: all at infinity, *|ptrs| unset). For the subgroup checks (src/msm/
 * subgroup.h), where a lane at infinity is in the subgroup and computes a copy. */
static inline __mmask8 msm_x8_live_ptrs(const void *p, size_t stride, size_t inf_off, __m512i *ptrs)
{
    const unsigned char *b = p;
    __mmask8 live = 0;
    for (int k = 0; k < 8; k++)
        live |= (__mmask8)((unsigned)!*(const bool *)(b + k * stride + inf_off) << k);
    if (!live)
        return 0;
    size_t f = (size_t)__builtin_ctz(live);
    uint64_t src[8];
    for (int k = 0; k < 8; k++)
        src[k] = (uint64_t)(uintptr_t)(b + (live >> k & 1 ? (size_t)k : f) * stride);
    *ptrs = _mm512_loadu_si512((const void *)src);
    return live;
}
#endif

#endif

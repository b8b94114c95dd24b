/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Names of the per-device event counters (gpu_msm.h); built with and without CUDA, so the
 * metrics name the same events either way. */
#include "gpu/gpu_msm.h"

const char *cuzk__gpu_event_name(cuzk__gpu_event ev)
{
    static const char *const names[CUZK__GPU_EV_COUNT] = {
        [CUZK__GPU_EV_SIDE_LANE_CALL] = "side_lane_call",
        [CUZK__GPU_EV_H_STAGED] = "h_staged",
        [CUZK__GPU_EV_H_PREFETCHED] = "h_prefetched",
        [CUZK__GPU_EV_H_PREFETCH_DROPPED] = "h_prefetch_dropped",
        [CUZK__GPU_EV_MSM_STREAMED_CHUNK] = "msm_streamed_chunk",
        [CUZK__GPU_EV_MSM_ROWS_FALLBACK] = "msm_rows_fallback",
    };
    return (unsigned)ev < CUZK__GPU_EV_COUNT ? names[ev] : "unknown";
}

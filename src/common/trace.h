/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_COMMON_TRACE_H
#define CUZK_COMMON_TRACE_H

/*
 * Timing lines (DESIGN.md section 5): with env CUZK_TIMING=1 every phase of every partition is
 * written to stderr as one JSON line, e.g.
 *   {"job":"ID","partition":0,"phase":"msm_h","ms":1.234,"backend":"cpu"}
 * Each line is built in a buffer and written by a single write(2), so lines from concurrent
 * workers never interleave and are never lost to stdio buffering.
 */

#include <stdbool.h>
#include <stdint.h>

/* True when env CUZK_TIMING is "1" (read once). */
bool cuzk__trace_enabled(void);
/* Writes one timing line when tracing is enabled; strings are JSON-escaped. */
void cuzk__trace_phase(const char *job, uint32_t partition, const char *phase, double ms,
                       const char *backend);

#endif

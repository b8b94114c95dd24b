/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GROTH16_PROVE_ZKEY_INTERNAL_H
#define CUZK_GROTH16_PROVE_ZKEY_INTERNAL_H

/* Shared by the snarkjs prover's files (prove_zkey.c, prove_zkey_device.c); not public. */

#include <time.h>

#include "cuzk/backend.h"
#include "cuzk/groth16.h"
#include "cuzk/poly.h"
#include "groth16/snarkjs_internal.h"

static inline double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The prover's vectors: a, b, c over the domain (n), the witness in Montgomery form (nv). */
typedef struct {
    cuzk_fr_t *a, *b, *c, *wm;
    size_t n, nv;
} prove_bufs;

/* The five MSMs' sums. */
typedef struct {
    cuzk_g1_jac_t h, a, b1, c;
    cuzk_g2_jac_t b2;
} msm_sums;

/* The H step and the five MSMs on device backend |be|, one after another on its stream. */
cuzk_status cuzk__snarkjs_device_msms(cuzk_backend *be, const cuzk_domain *dom, const prove_bufs *p,
                                      const cuzk_snarkjs_zkey *zk, msm_sums *o,
                                      cuzk_prove_timings *tm) CUZK_WARN_UNUSED_RESULT;

#endif

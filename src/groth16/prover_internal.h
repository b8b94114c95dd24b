/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GROTH16_PROVER_INTERNAL_H
#define CUZK_GROTH16_PROVER_INTERNAL_H

#include "cuzk/backend.h"
#include "cuzk/groth16.h"

/* Allocates the backend scratch the prover uses for proofs with |p| (pinned host memory on a GPU
 * backend: ~14.8 GB for a 32 GiB PoRep partition, seconds to allocate), so that the first proof
 * does not pay for it. */
cuzk_status cuzk__prover_reserve(cuzk_backend *be, const cuzk_groth16_params *p);

#endif

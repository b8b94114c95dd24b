/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GROTH16_PROVER_INTERNAL_H
#define CUZK_GROTH16_PROVER_INTERNAL_H

#include "cuzk/backend.h"
#include "cuzk/groth16.h"

#include <stdbool.h>
#include <stdint.h>

/* Allocates the backend scratch the prover uses for proofs with |p| (pinned host memory on a GPU
 * backend: ~14.8 GB for a 32 GiB PoRep partition, seconds to allocate), so that the first proof
 * does not pay for it. */
cuzk_status cuzk__prover_reserve(cuzk_backend *be, const cuzk_groth16_params *p);
/* cuzk_groth16_params_keep_resident without the scratch reservation: the device copies only,
 * so that another thread than the one proving on |be| may call it (the engine's load,
 * src/engine/srs.c), since the scratch slots may be in use by a proof. */
cuzk_status cuzk__groth16_params_keep_arrays(cuzk_backend *be, const cuzk_groth16_params *p);

/* The bytes the prover's L/A/B split asks of each backend scratch slot for a parameter set whose
 * L, A and B_G1 queries hold n_l, n_a and n_b_g1 points, on a device backend or the CPU (0: slot
 * unused). A backend's slots keep the largest size asked, so a prover worker holds at most the
 * per-slot maximum over the sets it proved (the engine charges that to its memory budget). */
void cuzk__prover_scratch_sizes(bool device, uint64_t n_l, uint64_t n_a, uint64_t n_b_g1,
                                uint64_t bytes[CUZK_BACKEND_SCRATCH_SLOTS]);

#endif

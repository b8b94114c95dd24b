/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* libFuzzer driver (make fuzz): see fuzz_targets.h. */
#include "fuzz_targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cuzk_fuzz_post_vanilla(data, size);
    return 0;
}

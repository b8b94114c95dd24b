/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "commands.h"
#include "field/fp_internal.h"

#include <stdio.h>

int cmd_info(int argc, char **argv)
{
    (void)argv;
    if (argc != 0) {
        fprintf(stderr, "cuzk-bench info: takes no arguments\n");
        return 2;
    }
    printf("cuzk %s\n", CUZK_VERSION);
    printf("commit: %s\n", CUZK_GIT_COMMIT);
    /* Asked of the library, which may have been built with other flags than this tool. */
    printf("fp_mul: %s\n", cuzk__fp_mul_impl_name());
    printf("backend cpu: compiled, usable\n");
    printf("backend cuda: not compiled (the CUDA backend is issue 4)\n");
    return 0;
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "commands.h"

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
#if defined(__ADX__) && defined(__BMI2__)
    printf("fp_mul: x86-64 mulx/adx\n");
#else
    printf("fp_mul: portable\n");
#endif
    printf("backend cpu: compiled, usable\n");
    printf("backend cuda: not compiled (the CUDA backend is issue 4)\n");
    return 0;
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "commands.h"

#include <stdio.h>

/* Placeholder until the snarkjs prover command lands (issue 3, in progress). */
int cmd_prove_zkey(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "cuzk-bench prove --zkey: not built yet (issue 3, in progress)\n");
    return 2;
}

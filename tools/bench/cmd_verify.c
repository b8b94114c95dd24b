/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "commands.h"

#include <stdio.h>

int cmd_verify(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "cuzk-bench verify: not built yet\n");
    return 2;
}

int cmd_verify_winning_post(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "cuzk-bench verify-winning-post: not built yet\n");
    return 2;
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk daemon entry point (being built: see issue 5). */
#include <stdio.h>

int main(void)
{
    fprintf(stderr, "cuzk: the daemon is not built yet (issue 5)\n");
    return 2;
}

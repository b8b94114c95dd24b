/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "bench.h"

#include <stdio.h>

int bench_field_main(const bench_opts *o)
{
    (void)o;
    fprintf(stderr, "cuzk-bench field: not built yet\n");
    return 2;
}

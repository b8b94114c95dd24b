/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "commands.h"
#include "version.h"
#include "field/fp_internal.h"
#include "gpu/gpu.h"
#include "cuzk/cpu.h"

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
    char cpu[512];
    cuzk_cpu_describe(cpu, sizeof cpu);
    printf("cpu: %s\n", cpu);
    printf("backend cpu: compiled, usable\n");
    if (!cuzk_gpu_compiled()) {
        printf("backend cuda: not compiled\n");
        return 0;
    }
    int n = cuzk_gpu_device_count();
    if (n == 0) {
        printf("backend cuda: compiled, no device\n");
        return 0;
    }
    cuzk_gpu_device_info info;
    if (cuzk_gpu_get_device_info(0, &info) != CUZK_OK) {
        printf("backend cuda: compiled, %d device(s): (%s)\n", n, cuzk_last_error());
        return 0;
    }
    printf("backend cuda: compiled, %d device(s): %s\n", n, info.name);
    for (int i = 0; i < n; i++) {
        if (cuzk_gpu_get_device_info(i, &info) != CUZK_OK)
            continue;
        printf("  device %d: %s, %d SMs, compute %d.%d, %.1f GiB (%.1f GiB free), L2 %zu KiB%s\n",
               i, info.name, info.sm_count, info.cc_major, info.cc_minor,
               (double)info.total_mem / (1 << 30), (double)info.free_mem / (1 << 30),
               info.l2_bytes >> 10, i == cuzk_gpu_default_device() ? " (default)" : "");
    }
    return 0;
}

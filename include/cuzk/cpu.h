/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_CPU_H
#define CUZK_CPU_H

/*
 * The instruction-set extensions this build of cuzk was compiled for (the default build uses
 * -march=native, so a binary carries its build machine's extensions, e.g. AVX-512 IFMA for the
 * 8-lane field arithmetic) against the CPU it runs on. A binary moved to a CPU without one of
 * them would stop at the first such instruction with SIGILL, anywhere; the programs call
 * cuzk_cpu_check before anything else instead and exit with its message.
 */
#include <stddef.h>

#include "cuzk/status.h"

/* CUZK_OK, or CUZK_ERR_UNSUPPORTED with |msg| (of |len| bytes; may be NULL) naming the
 * extensions this CPU lacks and how to rebuild. Safe on any x86-64 CPU: it is compiled for the
 * baseline instruction set and, for that reason, leaves cuzk_last_error alone (the library's
 * error code is compiled for the build machine). */
cuzk_status cuzk_cpu_check(char *msg, size_t len);

/* "compiled for: avx2 bmi2 adx avx512f ... ; this CPU: all present" (or the missing ones), for
 * `cuzk-bench info`. */
void cuzk_cpu_describe(char *buf, size_t len);

/* For programs, once at file scope: a constructor that runs the check before main and exits 2
 * with its message (a library does not exit; a binary on the wrong CPU had better stop here than
 * at a SIGILL somewhere later). Needs <stdio.h> and <unistd.h>. */
#define CUZK_CPU_GUARD(prog)                                                                       \
    __attribute__((constructor)) static void cuzk_cpu_guard_(void)                                 \
    {                                                                                              \
        char msg_[512];                                                                            \
        if (cuzk_cpu_check(msg_, sizeof msg_) != CUZK_OK) {                                        \
            fprintf(stderr, "%s: %s\n", prog, msg_);                                               \
            _exit(2);                                                                              \
        }                                                                                          \
    }

#endif

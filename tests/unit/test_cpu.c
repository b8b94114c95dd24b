/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* include/cuzk/cpu.h: the build's instruction-set extensions against the CPU's. */
#include "test.h"
#include "common/isa.h"
#include "cuzk/cpu.h"

#include <string.h>

/* The tests run where they were built, so nothing is missing here. */
CUZK_TEST(cpu_check_here)
{
    char msg[512] = "poison";
    CHECK_MSG(cuzk_cpu_check(msg, sizeof msg) == CUZK_OK, "%s", msg);
    CHECK(msg[0] == '\0');
    CHECK((cuzk__isa_built & ~cuzk__isa_cpu()) == 0);
    CHECK(cuzk_cpu_check(NULL, 0) == CUZK_OK);
    char d[512];
    cuzk_cpu_describe(d, sizeof d);
    CHECK_MSG(strncmp(d, "compiled for: ", 14) == 0 && strstr(d, "this CPU: all present"), "%s", d);
#if defined(__x86_64__) && defined(__AVX2__)
    CHECK(cuzk__isa_built & CUZK_ISA_AVX2);
#endif
#ifdef __AVX512IFMA__
    CHECK(cuzk__isa_built & CUZK_ISA_AVX512IFMA);
#endif
}

/* On a CPU without some of the build's extensions: an error naming exactly those. */
CUZK_TEST(cpu_check_missing)
{
    char msg[512];
    CHECK(cuzk__cpu_check_with(cuzk__isa_built, msg, sizeof msg) == CUZK_OK && msg[0] == '\0');
    if (!cuzk__isa_built) { /* a baseline build: nothing can be missing */
        CHECK(cuzk__cpu_check_with(0, msg, sizeof msg) == CUZK_OK);
        return;
    }
    CHECK(cuzk__cpu_check_with(0, msg, sizeof msg) == CUZK_ERR_UNSUPPORTED);
    CHECK_MSG(strstr(msg, "lacks") && strstr(msg, "make OPT="), "%s", msg);
    /* the highest extension built in, alone missing */
    unsigned top = 1u << (31 - __builtin_clz(cuzk__isa_built));
    CHECK(cuzk__cpu_check_with(cuzk__isa_built & ~top, msg, sizeof msg) == CUZK_ERR_UNSUPPORTED);
    const char *names[] = {"sse4.2",     "avx2",       "bmi2",       "adx",
                           "avx512f",    "avx512dq",   "avx512bw",   "avx512vl",
                           "avx512ifma", "avx512vbmi", "avx512vbmi2"};
    const char *want = names[__builtin_ctz(top)];
    char paren[64];
    snprintf(paren, sizeof paren, "(%s)", want);
    CHECK_MSG(strstr(msg, paren), "want only %s missing: %s", want, msg);
    /* a short buffer is cut, never overrun */
    char small[16];
    memset(small, 'x', sizeof small);
    CHECK(cuzk__cpu_check_with(0, small, 8) == CUZK_ERR_UNSUPPORTED);
    CHECK(strlen(small) == 7 && small[8] == 'x');
}

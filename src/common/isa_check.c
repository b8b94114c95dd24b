/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * include/cuzk/cpu.h. Compiled for the x86-64 baseline (the Makefile overrides OPT for this
 * object), so that it runs on the CPU it is asked about; it reads only cuzk__isa_built (data)
 * from code built with the library's flags.
 */
#include "cuzk/cpu.h"

#include "common/isa.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif
#include <stdio.h>
#include <string.h>

static const char *const isa_name[CUZK_ISA_COUNT] = {
    "sse4.2",   "avx2",     "bmi2",       "adx",        "avx512f",     "avx512dq",
    "avx512bw", "avx512vl", "avx512ifma", "avx512vbmi", "avx512vbmi2",
};

unsigned cuzk__isa_cpu(void)
{
    unsigned have = 0;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    have |= __builtin_cpu_supports("sse4.2") ? CUZK_ISA_SSE42 : 0;
    have |= __builtin_cpu_supports("avx2") ? CUZK_ISA_AVX2 : 0;
    have |= __builtin_cpu_supports("bmi2") ? CUZK_ISA_BMI2 : 0;
    /* ADX from CPUID leaf 7 (EBX bit 19): clang (14) has no "adx" for __builtin_cpu_supports. */
    unsigned a, b, c, d;
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 19)))
        have |= CUZK_ISA_ADX;
    have |= __builtin_cpu_supports("avx512f") ? CUZK_ISA_AVX512F : 0;
    have |= __builtin_cpu_supports("avx512dq") ? CUZK_ISA_AVX512DQ : 0;
    have |= __builtin_cpu_supports("avx512bw") ? CUZK_ISA_AVX512BW : 0;
    have |= __builtin_cpu_supports("avx512vl") ? CUZK_ISA_AVX512VL : 0;
    have |= __builtin_cpu_supports("avx512ifma") ? CUZK_ISA_AVX512IFMA : 0;
    have |= __builtin_cpu_supports("avx512vbmi") ? CUZK_ISA_AVX512VBMI : 0;
    have |= __builtin_cpu_supports("avx512vbmi2") ? CUZK_ISA_AVX512VBMI2 : 0;
#else
    have = cuzk__isa_built; /* not x86-64: nothing to compare */
#endif
    return have;
}

/* The names of the bits of |set| into |buf|, space-separated ("none" for none). */
static void isa_names(char *buf, size_t len, unsigned set)
{
    size_t n = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < CUZK_ISA_COUNT; i++)
        if (set & (1u << i)) {
            int w = snprintf(buf + n, len - n, "%s%s", n ? " " : "", isa_name[i]);
            if (w < 0 || (size_t)w >= len - n)
                return;
            n += (size_t)w;
        }
    if (!n)
        snprintf(buf, len, "none");
}

cuzk_status cuzk__cpu_check_with(unsigned have, char *msg, size_t len)
{
    unsigned missing = cuzk__isa_built & ~have;
    if (msg && len)
        msg[0] = '\0';
    if (!missing)
        return CUZK_OK;
    char names[256];
    isa_names(names, sizeof names, missing);
    if (msg && len)
        snprintf(msg, len,
                 "this build of cuzk uses CPU instructions this CPU lacks (%s): it was compiled "
                 "for its build machine (-march=native); rebuild on this machine with make, or "
                 "for a portable binary with make OPT='-O3 -march=x86-64-v3 -madx'",
                 names);
    return CUZK_ERR_UNSUPPORTED;
}

cuzk_status cuzk_cpu_check(char *msg, size_t len)
{
    return cuzk__cpu_check_with(cuzk__isa_cpu(), msg, len);
}

void cuzk_cpu_describe(char *buf, size_t len)
{
    if (!buf || !len)
        return;
    char built[256], miss[256];
    unsigned missing = cuzk__isa_built & ~cuzk__isa_cpu();
    isa_names(built, sizeof built, cuzk__isa_built);
    isa_names(miss, sizeof miss, missing);
    snprintf(buf, len, "compiled for: %s; this CPU: %s%s", built,
             missing ? "lacks " : "all present", missing ? miss : "");
}

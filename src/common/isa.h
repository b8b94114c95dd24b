/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_COMMON_ISA_H
#define CUZK_COMMON_ISA_H

#include <stddef.h>

#include "cuzk/status.h"

/* Instruction-set extensions cuzk's code may be compiled to use (include/cuzk/cpu.h). */
enum {
    CUZK_ISA_SSE42 = 1u << 0,
    CUZK_ISA_AVX2 = 1u << 1,
    CUZK_ISA_BMI2 = 1u << 2,
    CUZK_ISA_ADX = 1u << 3,
    CUZK_ISA_AVX512F = 1u << 4,
    CUZK_ISA_AVX512DQ = 1u << 5,
    CUZK_ISA_AVX512BW = 1u << 6,
    CUZK_ISA_AVX512VL = 1u << 7,
    CUZK_ISA_AVX512IFMA = 1u << 8,
    CUZK_ISA_AVX512VBMI = 1u << 9,
    CUZK_ISA_AVX512VBMI2 = 1u << 10,
    CUZK_ISA_COUNT = 11
};

/* The extensions the library was compiled for (src/common/isa_built.c). */
extern const unsigned cuzk__isa_built;

/* The extensions this CPU has, of those above (src/common/isa_check.c). */
unsigned cuzk__isa_cpu(void);
/* cuzk_cpu_check against a CPU that has |have| (tests). */
cuzk_status cuzk__cpu_check_with(unsigned have, char *msg, size_t len);

#endif

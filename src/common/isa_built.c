/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* What the library was compiled for: this file takes the library's flags (-march=native by
 * default), so the predefined macros say which extensions its code may use. Read by
 * src/common/isa_check.c, which is compiled for the baseline and runs the comparison. */
#include "common/isa.h"

const unsigned cuzk__isa_built = 0
#ifdef __SSE4_2__
                                 | CUZK_ISA_SSE42
#endif
#ifdef __AVX2__
                                 | CUZK_ISA_AVX2
#endif
#ifdef __BMI2__
                                 | CUZK_ISA_BMI2
#endif
#ifdef __ADX__
                                 | CUZK_ISA_ADX
#endif
#ifdef __AVX512F__
                                 | CUZK_ISA_AVX512F
#endif
#ifdef __AVX512DQ__
                                 | CUZK_ISA_AVX512DQ
#endif
#ifdef __AVX512BW__
                                 | CUZK_ISA_AVX512BW
#endif
#ifdef __AVX512VL__
                                 | CUZK_ISA_AVX512VL
#endif
#ifdef __AVX512IFMA__
                                 | CUZK_ISA_AVX512IFMA
#endif
#ifdef __AVX512VBMI__
                                 | CUZK_ISA_AVX512VBMI
#endif
#ifdef __AVX512VBMI2__
                                 | CUZK_ISA_AVX512VBMI2
#endif
    ;

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_FIELD_FP_ADDSUB_H
#define CUZK_FIELD_FP_ADDSUB_H

/*
 * Fp addition and subtraction for canonical operands (< p), inline, shared by cuzk_fp_add/sub
 * (src/field/fp.c) and the MSM's batch-affine loop (src/msm/msm_common.h). Outputs may alias
 * inputs (every load precedes the stores).
 *
 * x86-64: the add/sub-with-carry chains in asm. Written with carry intrinsics the compiler kept
 * both candidate results in stack arrays and chose between them with masks or branches (perf:
 * the scalar batch-affine loop spent about a third of its time outside the multiplications on a
 * CPU without IFMA); here both stay in twelve registers and a cmov chooses. Operands are read
 * through memory operands, so each needs at most fourteen general registers (twelve plus two
 * addresses), which leaves the frame pointer free for sanitizer builds. Elsewhere: the generic
 * code of field/mont.h.
 */
#include <stdint.h>

#include "field/fp_internal.h"
#include "field/mont.h"

/* -DCUZK_FP_ADDSUB_NO_ASM selects the generic code: clang's AddressSanitizer (make fuzz) keeps
 * too few registers free for these operands. */
#if defined(__x86_64__) && !defined(CUZK_FP_ADDSUB_NO_ASM)
/* clang-format off */
#define FPAS_NL "\n\t"
/* Both functions: t0..t5 and u0..u5 in registers (the result in u), a, b and p in memory.
 * Where the compiler prints a memory operand as "(%reg)", "8+(%reg)" makes GNU as warn "missing
 * operand; zero assumed" and encode 8(%reg), which is what is meant (objdump shows it). Address
 * registers for a and b instead would need dummy "m" operands or a "memory" clobber: the first
 * runs out of registers at -O0 (tried), the second makes every caller reload what it holds in
 * registers around each call (not tried). */
#define FPAS_OPERANDS                                                                              \
    : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),              \
      [t5] "=&r"(t5), [u0] "=&r"(u0), [u1] "=&r"(u1), [u2] "=&r"(u2), [u3] "=&r"(u3),              \
      [u4] "=&r"(u4), [u5] "=&r"(u5)                                                               \
    : [a] "m"(*(const uint64_t(*)[6])a), [b] "m"(*(const uint64_t(*)[6])b),                        \
      [p] "m"(*(const uint64_t(*)[6])cuzk_fp_modulus)                                              \
    : "cc"
/*
 * r = a - b mod p: t = a - b, u = t + p. The carry out of t + p is the borrow of a - b (after a
 * borrow t + p = a - b + p + 2^384 >= 2^384; otherwise t + p < 2p < 2^384), so it picks u.
 */
static inline void cuzk__fp_sub_inline(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
    uint64_t t0, t1, t2, t3, t4, t5, u0, u1, u2, u3, u4, u5;
    __asm__("movq 0+%[a], %[t0]" FPAS_NL "movq 8+%[a], %[t1]" FPAS_NL "movq 16+%[a], %[t2]" FPAS_NL
            "movq 24+%[a], %[t3]" FPAS_NL "movq 32+%[a], %[t4]" FPAS_NL "movq 40+%[a], %[t5]" FPAS_NL
            "subq 0+%[b], %[t0]" FPAS_NL "sbbq 8+%[b], %[t1]" FPAS_NL "sbbq 16+%[b], %[t2]" FPAS_NL
            "sbbq 24+%[b], %[t3]" FPAS_NL "sbbq 32+%[b], %[t4]" FPAS_NL "sbbq 40+%[b], %[t5]" FPAS_NL
            "movq %[t0], %[u0]" FPAS_NL "movq %[t1], %[u1]" FPAS_NL "movq %[t2], %[u2]" FPAS_NL
            "movq %[t3], %[u3]" FPAS_NL "movq %[t4], %[u4]" FPAS_NL "movq %[t5], %[u5]" FPAS_NL
            "addq 0+%[p], %[u0]" FPAS_NL "adcq 8+%[p], %[u1]" FPAS_NL "adcq 16+%[p], %[u2]" FPAS_NL
            "adcq 24+%[p], %[u3]" FPAS_NL "adcq 32+%[p], %[u4]" FPAS_NL "adcq 40+%[p], %[u5]" FPAS_NL
            "cmovncq %[t0], %[u0]" FPAS_NL "cmovncq %[t1], %[u1]" FPAS_NL "cmovncq %[t2], %[u2]" FPAS_NL
            "cmovncq %[t3], %[u3]" FPAS_NL "cmovncq %[t4], %[u4]" FPAS_NL "cmovncq %[t5], %[u5]"
            FPAS_OPERANDS);
    r[0] = u0; r[1] = u1; r[2] = u2; r[3] = u3; r[4] = u4; r[5] = u5;
}

/* r = a + b mod p: t = a + b (< 2p < 2^384: no carry out); u = t - p; keep t if that borrowed. */
static inline void cuzk__fp_add_inline(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
    uint64_t t0, t1, t2, t3, t4, t5, u0, u1, u2, u3, u4, u5;
    __asm__("movq 0+%[a], %[t0]" FPAS_NL "movq 8+%[a], %[t1]" FPAS_NL "movq 16+%[a], %[t2]" FPAS_NL
            "movq 24+%[a], %[t3]" FPAS_NL "movq 32+%[a], %[t4]" FPAS_NL "movq 40+%[a], %[t5]" FPAS_NL
            "addq 0+%[b], %[t0]" FPAS_NL "adcq 8+%[b], %[t1]" FPAS_NL "adcq 16+%[b], %[t2]" FPAS_NL
            "adcq 24+%[b], %[t3]" FPAS_NL "adcq 32+%[b], %[t4]" FPAS_NL "adcq 40+%[b], %[t5]" FPAS_NL
            "movq %[t0], %[u0]" FPAS_NL "movq %[t1], %[u1]" FPAS_NL "movq %[t2], %[u2]" FPAS_NL
            "movq %[t3], %[u3]" FPAS_NL "movq %[t4], %[u4]" FPAS_NL "movq %[t5], %[u5]" FPAS_NL
            "subq 0+%[p], %[u0]" FPAS_NL "sbbq 8+%[p], %[u1]" FPAS_NL "sbbq 16+%[p], %[u2]" FPAS_NL
            "sbbq 24+%[p], %[u3]" FPAS_NL "sbbq 32+%[p], %[u4]" FPAS_NL "sbbq 40+%[p], %[u5]" FPAS_NL
            "cmovcq %[t0], %[u0]" FPAS_NL "cmovcq %[t1], %[u1]" FPAS_NL "cmovcq %[t2], %[u2]" FPAS_NL
            "cmovcq %[t3], %[u3]" FPAS_NL "cmovcq %[t4], %[u4]" FPAS_NL "cmovcq %[t5], %[u5]"
            FPAS_OPERANDS);
    r[0] = u0; r[1] = u1; r[2] = u2; r[3] = u3; r[4] = u4; r[5] = u5;
}
#undef FPAS_NL
#undef FPAS_OPERANDS
/* clang-format on */
#else
static inline void cuzk__fp_add_inline(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
    mont_add(r, a, b, cuzk_fp_modulus, 6);
}

static inline void cuzk__fp_sub_inline(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
    mont_sub(r, a, b, cuzk_fp_modulus, 6);
}
#endif

#endif

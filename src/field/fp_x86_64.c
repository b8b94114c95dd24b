/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Fp Montgomery multiplication and squaring for x86-64 with BMI2 (mulx) and ADX (adcx/adox).
 *
 * mulx multiplies without touching the flags, and adcx/adox add with carry through CF and OF
 * respectively, so one row of a 6x1-limb product runs two independent carry chains at once: the
 * low halves of the partial products go down the CF chain, the high halves down the OF chain.
 *
 * Multiplication: CIOS (Koc, Acar, Kaliski, "Analyzing and comparing Montgomery multiplication
 * algorithms", 1996), one row t += a*b[i] followed by one reduction step t = (t + q*p) / 2^64
 * with q = t[0] * (-p^-1 mod 2^64), six times. The accumulator lives in seven registers that
 * rotate instead of shifting: after a reduction step the low word is exactly zero, so that
 * register becomes the new (zero) top word of the next row.
 *
 * Bounds (a, b < p < 2^381): the accumulator stays below 2p before each row, so
 * t + a*b[i] + q*p < 2p + 2^65 p < 2^447 fits in seven words and the carry out of the top word
 * of either chain is always zero; the result is below 2p and one conditional subtraction makes
 * it canonical. This is why p's top limb (0x1a01...) matters; the code is Fp-specific.
 *
 * Squaring: SOS (separated operand scanning). The 15 cross products a[i]*a[j], i < j, are summed
 * once, doubled, and the 6 squares added (21 mulx instead of 36); the low half w[0..5] of the
 * 12-word square is Montgomery-reduced in place, (w_lo + Q*p) / 2^384 <= p, and the high half
 * w[6..11] < p is added; the sum is below 2p, again one conditional subtraction.
 *
 * Register use is fixed (rdi = out, rsi = a, rcx = b, rdx = mulx source, rax/rbx = product
 * halves, r15 = zero, r8..r14 = accumulator); rbp is left alone so frame-pointer builds work.
 */
#include "field/fp_internal.h"

#if CUZK_FP_HAVE_ADX

/* Local copies so the asm addresses them %rip-relative in any code model (PIC or not). */
static const uint64_t FP_P[6] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL,
                                 0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
                                 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
static const uint64_t FP_N0 = 0x89f3fffcfffcfffdULL; /* -p^-1 mod 2^64 */

#define NL "\n\t"

/* t[0..6] += a[0..5] * rdx, t6 zero on entry, CF = OF = 0 on entry. */
#define ROW_ACC(T0, T1, T2, T3, T4, T5, T6)                                                        \
    "mulxq 0(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, " T0 NL "adoxq %%rbx, " T1 NL                 \
    "mulxq 8(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, " T1 NL "adoxq %%rbx, " T2 NL                 \
    "mulxq 16(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, " T2 NL "adoxq %%rbx, " T3 NL                \
    "mulxq 24(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, " T3 NL "adoxq %%rbx, " T4 NL                \
    "mulxq 32(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, " T4 NL "adoxq %%rbx, " T5 NL                \
    "mulxq 40(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, " T5 NL "adoxq %%rbx, " T6 NL                \
    "adcxq %%r15, " T6 NL

/* Row i >= 1 of the product: rdx = b[i], then t += a * b[i]. */
#define ROW(BOFF, T0, T1, T2, T3, T4, T5, T6)                                                      \
    "movq " BOFF "(%%rcx), %%rdx" NL "xorl %%eax, %%eax" NL ROW_ACC(T0, T1, T2, T3, T4, T5, T6)

/*
 * One reduction step: q = t0 * n0, t += q * p. Afterwards T0 = 0 and the value sits in T1..T6.
 * The carry out of T6 on either chain is zero by the bound in the header comment.
 */
#define REDUCE(T0, T1, T2, T3, T4, T5, T6)                                                         \
    "movq " T0 ", %%rdx" NL "imulq %[n0], %%rdx" NL "xorl %%eax, %%eax" NL                         \
    "mulxq 0+%[p], %%rax, %%rbx" NL "adcxq %%rax, " T0 NL "adoxq %%rbx, " T1 NL                   \
    "mulxq 8+%[p], %%rax, %%rbx" NL "adcxq %%rax, " T1 NL "adoxq %%rbx, " T2 NL                   \
    "mulxq 16+%[p], %%rax, %%rbx" NL "adcxq %%rax, " T2 NL "adoxq %%rbx, " T3 NL                  \
    "mulxq 24+%[p], %%rax, %%rbx" NL "adcxq %%rax, " T3 NL "adoxq %%rbx, " T4 NL                  \
    "mulxq 32+%[p], %%rax, %%rbx" NL "adcxq %%rax, " T4 NL "adoxq %%rbx, " T5 NL                  \
    "mulxq 40+%[p], %%rax, %%rbx" NL "adcxq %%rax, " T5 NL "adoxq %%rbx, " T6 NL                  \
    "adcxq %%r15, " T6 NL

/*
 * out = (R0..R5) mod p for a value below 2p: subtract p into R0..R5 keeping a copy in
 * rax, rbx, rdx, rsi, rcx, S5, and move the copy back when the subtraction borrowed.
 */
#define FINAL_SUB(R0, R1, R2, R3, R4, R5, S5)                                                      \
    "movq " R0 ", %%rax" NL "movq " R1 ", %%rbx" NL "movq " R2 ", %%rdx" NL                         \
    "movq " R3 ", %%rsi" NL "movq " R4 ", %%rcx" NL "movq " R5 ", " S5 NL                           \
    "subq 0+%[p], " R0 NL "sbbq 8+%[p], " R1 NL "sbbq 16+%[p], " R2 NL                              \
    "sbbq 24+%[p], " R3 NL "sbbq 32+%[p], " R4 NL "sbbq 40+%[p], " R5 NL                            \
    "cmovcq %%rax, " R0 NL "cmovcq %%rbx, " R1 NL "cmovcq %%rdx, " R2 NL                            \
    "cmovcq %%rsi, " R3 NL "cmovcq %%rcx, " R4 NL "cmovcq " S5 ", " R5 NL                           \
    "movq " R0 ", 0(%%rdi)" NL "movq " R1 ", 8(%%rdi)" NL "movq " R2 ", 16(%%rdi)" NL               \
    "movq " R3 ", 24(%%rdi)" NL "movq " R4 ", 32(%%rdi)" NL "movq " R5 ", 40(%%rdi)" NL

#define X8 "%%r8"
#define X9 "%%r9"
#define X10 "%%r10"
#define X11 "%%r11"
#define X12 "%%r12"
#define X13 "%%r13"
#define X14 "%%r14"

void cuzk__fp_mul_adx(uint64_t out[6], const uint64_t a[6], const uint64_t b[6])
{
    const uint64_t *ap = a, *bp = b;
    __asm__ volatile(
        /* Row 0: t = a * b[0] on a single carry chain (nothing to accumulate yet). */
        "xorl %%r15d, %%r15d" NL
        "movq 0(%%rcx), %%rdx" NL
        "mulxq 0(%%rsi), %%r8, %%r9" NL
        "mulxq 8(%%rsi), %%rax, %%r10" NL "addq %%rax, %%r9" NL
        "mulxq 16(%%rsi), %%rax, %%r11" NL "adcq %%rax, %%r10" NL
        "mulxq 24(%%rsi), %%rax, %%r12" NL "adcq %%rax, %%r11" NL
        "mulxq 32(%%rsi), %%rax, %%r13" NL "adcq %%rax, %%r12" NL
        "mulxq 40(%%rsi), %%rax, %%r14" NL "adcq %%rax, %%r13" NL
        "adcq %%r15, %%r14" NL
        REDUCE(X8, X9, X10, X11, X12, X13, X14)
        ROW("8", X9, X10, X11, X12, X13, X14, X8)
        REDUCE(X9, X10, X11, X12, X13, X14, X8)
        ROW("16", X10, X11, X12, X13, X14, X8, X9)
        REDUCE(X10, X11, X12, X13, X14, X8, X9)
        ROW("24", X11, X12, X13, X14, X8, X9, X10)
        REDUCE(X11, X12, X13, X14, X8, X9, X10)
        ROW("32", X12, X13, X14, X8, X9, X10, X11)
        REDUCE(X12, X13, X14, X8, X9, X10, X11)
        ROW("40", X13, X14, X8, X9, X10, X11, X12)
        REDUCE(X13, X14, X8, X9, X10, X11, X12)
        /* Result in r14, r8, r9, r10, r11, r12; r13 is free. */
        FINAL_SUB(X14, X8, X9, X10, X11, X12, X13)
        : "+S"(ap), "+c"(bp)
        : "D"(out), [p] "m"(FP_P), [n0] "m"(FP_N0)
        : "rax", "rbx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "cc",
          "memory");
}

/*
 * Squaring. Phase 1 sums the cross products into w1..w10 (row k multiplies a[k] by a[k+1..5]):
 *   w1..w6 <- a0*(a1..a5); w3..w7 += a1*(a2..a5); w5..w8 += a2*(a3..a5); w7..w9 += a3*(a4, a5);
 *   w9..w10 += a4*a5.
 * w1, w2 are final after row 1 and are parked in |spill| to free registers. Phase 2 doubles
 * and adds the squares a[k]^2 at words 2k, 2k+1 (CF chain doubles, OF chain adds), producing
 * w0..w11; the high half goes to |spill| and the low half stays in r8..r13. Phase 3 reduces
 * the low half (six REDUCE steps on rotating registers), adds the high half and subtracts p
 * once if needed.
 *
 * Register map of phase 1: w1 r8, w2 r9, w3 r10, w4 r11, w5 r12, w6 r13, w7 r14, w8 rcx,
 * w9 r8 (after w1 is parked), w10 r9 (after w2 is parked).
 */
void cuzk__fp_sqr_adx(uint64_t out[6], const uint64_t a[6])
{
    const uint64_t *ap = a;
    uint64_t spill[8];
    uint64_t dummy_c;
    __asm__ volatile(
        "xorl %%r15d, %%r15d" NL
        /* Row 0: a0 * (a1..a5) -> w1..w6, single chain. */
        "movq 0(%%rsi), %%rdx" NL
        "mulxq 8(%%rsi), %%r8, %%r9" NL
        "mulxq 16(%%rsi), %%rax, %%r10" NL "addq %%rax, %%r9" NL
        "mulxq 24(%%rsi), %%rax, %%r11" NL "adcq %%rax, %%r10" NL
        "mulxq 32(%%rsi), %%rax, %%r12" NL "adcq %%rax, %%r11" NL
        "mulxq 40(%%rsi), %%rax, %%r13" NL "adcq %%rax, %%r12" NL
        "adcq %%r15, %%r13" NL
        /* Row 1: a1 * (a2..a5) -> w3..w7. */
        "movq 8(%%rsi), %%rdx" NL "xorl %%r14d, %%r14d" NL
        "mulxq 16(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, %%r10" NL "adoxq %%rbx, %%r11" NL
        "mulxq 24(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, %%r11" NL "adoxq %%rbx, %%r12" NL
        "mulxq 32(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, %%r12" NL "adoxq %%rbx, %%r13" NL
        "mulxq 40(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, %%r13" NL "adoxq %%rbx, %%r14" NL
        "adcxq %%r15, %%r14" NL
        "movq %%r8, 8+%[s]" NL "movq %%r9, 16+%[s]" NL
        /* Row 2: a2 * (a3..a5) -> w5..w8. */
        "movq 16(%%rsi), %%rdx" NL "xorl %%ecx, %%ecx" NL
        "mulxq 24(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, %%r12" NL "adoxq %%rbx, %%r13" NL
        "mulxq 32(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, %%r13" NL "adoxq %%rbx, %%r14" NL
        "mulxq 40(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, %%r14" NL "adoxq %%rbx, %%rcx" NL
        "adcxq %%r15, %%rcx" NL
        /* Row 3: a3 * (a4, a5) -> w7..w9 (w9 in r8). */
        "movq 24(%%rsi), %%rdx" NL "xorl %%r8d, %%r8d" NL
        "mulxq 32(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, %%r14" NL "adoxq %%rbx, %%rcx" NL
        "mulxq 40(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, %%rcx" NL "adoxq %%rbx, %%r8" NL
        "adcxq %%r15, %%r8" NL
        /* Row 4: a4 * a5 -> w9..w10 (w10 in r9). */
        "movq 32(%%rsi), %%rdx" NL
        "mulxq 40(%%rsi), %%rax, %%r9" NL "addq %%rax, %%r8" NL "adcq %%r15, %%r9" NL
        /* Phase 2, high half first (w6..w11) so its registers free up for the low half.
         * The doubling carries run from w1 upwards, so first compute the carry into w6:
         * it is the top bit of w5 after doubling w1..w5 - simpler to do the full chain in
         * order. Park w5..w10 so that the low words can be loaded into r8..r13. */
        "movq %%r12, 40+%[s]" NL "movq %%r13, 48+%[s]" NL "movq %%r14, 56+%[s]" NL
        /* w8 rcx, w9 r8, w10 r9 -> rax-free layout: w8 -> r14, w9 -> r12, w10 -> r13. */
        "movq %%rcx, %%r14" NL "movq %%r8, %%r12" NL "movq %%r9, %%r13" NL
        /* Now: w3 r10, w4 r11, w8 r14, w9 r12, w10 r13; w1, w2, w5, w6, w7 in spill. */
        "movq %%r10, 24+%[s]" NL "movq %%r11, 32+%[s]" NL
        /* Low half: w0 = lo(a0^2), w1 = 2 w1 + hi(a0^2), w2..w5 with a1^2, a2^2. */
        "xorl %%r15d, %%r15d" NL
        "movq 0(%%rsi), %%rdx" NL "mulxq %%rdx, %%r8, %%rbx" NL
        "movq 8+%[s], %%r9" NL "adcxq %%r9, %%r9" NL "adoxq %%rbx, %%r9" NL
        "movq 8(%%rsi), %%rdx" NL "mulxq %%rdx, %%rax, %%rbx" NL
        "movq 16+%[s], %%r10" NL "adcxq %%r10, %%r10" NL "adoxq %%rax, %%r10" NL
        "movq 24+%[s], %%r11" NL "adcxq %%r11, %%r11" NL "adoxq %%rbx, %%r11" NL
        "movq 16(%%rsi), %%rdx" NL "mulxq %%rdx, %%rax, %%rbx" NL
        "movq 32+%[s], %%rcx" NL "adcxq %%rcx, %%rcx" NL "adoxq %%rax, %%rcx" NL
        "movq %%rcx, 0+%[s]" NL
        "movq 40+%[s], %%rcx" NL "adcxq %%rcx, %%rcx" NL "adoxq %%rbx, %%rcx" NL
        "movq %%rcx, 8+%[s]" NL
        /* High half: w6..w11 with a3^2, a4^2, a5^2. */
        "movq 24(%%rsi), %%rdx" NL "mulxq %%rdx, %%rax, %%rbx" NL
        "movq 48+%[s], %%rcx" NL "adcxq %%rcx, %%rcx" NL "adoxq %%rax, %%rcx" NL
        "movq %%rcx, 16+%[s]" NL
        "movq 56+%[s], %%rcx" NL "adcxq %%rcx, %%rcx" NL "adoxq %%rbx, %%rcx" NL
        "movq %%rcx, 24+%[s]" NL
        "movq 32(%%rsi), %%rdx" NL "mulxq %%rdx, %%rax, %%rbx" NL
        "adcxq %%r14, %%r14" NL "adoxq %%rax, %%r14" NL
        "adcxq %%r12, %%r12" NL "adoxq %%rbx, %%r12" NL
        "movq 40(%%rsi), %%rdx" NL "mulxq %%rdx, %%rax, %%rbx" NL
        "adcxq %%r13, %%r13" NL "adoxq %%rax, %%r13" NL
        "movq $0, %%rcx" NL "adcxq %%r15, %%rcx" NL "adoxq %%rbx, %%rcx" NL
        /* w0..w3 in r8..r11, w4, w5 in spill[0..1], w6, w7 in spill[2..3], w8 r14, w9 r12,
         * w10 r13, w11 rcx. Park the high half in spill[2..7], load w4, w5 into r12, r13. */
        "movq %%r14, 32+%[s]" NL "movq %%r12, 40+%[s]" NL "movq %%r13, 48+%[s]" NL
        "movq %%rcx, 56+%[s]" NL
        "movq 0+%[s], %%r12" NL "movq 8+%[s], %%r13" NL
        "xorl %%r14d, %%r14d" NL
        /* Phase 3: REDC of the low half w0..w5 (r8..r13, r14 = 0 top word). */
        REDUCE(X8, X9, X10, X11, X12, X13, X14)
        REDUCE(X9, X10, X11, X12, X13, X14, X8)
        REDUCE(X10, X11, X12, X13, X14, X8, X9)
        REDUCE(X11, X12, X13, X14, X8, X9, X10)
        REDUCE(X12, X13, X14, X8, X9, X10, X11)
        REDUCE(X13, X14, X8, X9, X10, X11, X12)
        /* Low part (<= p) in r14, r8, r9, r10, r11, r12; add the high half (< p). */
        "addq 16+%[s], %%r14" NL "adcq 24+%[s], %%r8" NL "adcq 32+%[s], %%r9" NL
        "adcq 40+%[s], %%r10" NL "adcq 48+%[s], %%r11" NL "adcq 56+%[s], %%r12" NL
        FINAL_SUB(X14, X8, X9, X10, X11, X12, X13)
        : "+S"(ap), "=c"(dummy_c), [s] "=m"(spill)
        : "D"(out), [p] "m"(FP_P), [n0] "m"(FP_N0)
        : "rax", "rbx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "cc",
          "memory");
}

#endif

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
 * Fp2 multiplication with one reduction per coordinate (cuzk__fp2_mul_adx): Karatsuba on
 * unreduced 12-word products, c0 = a0 b0 - a1 b1 + p^2, c1 = (a0 + a1)(b0 + b1)
 * - a0 b0 - a1 b1 = a0 b1 + a1 b0, then one REDC each: 3 x 36 + 2 x 36 = 180 mulx instead of
 * the 216 of three Montgomery products. Both coordinates stay below 2 p^2 < p 2^384 (2p < 2^384),
 * which is what the REDC of the squaring's phase 3 needs (high half below p).
 *
 * Register use is fixed (rdi = out, rsi = a, rcx = b, rdx = mulx source, rax/rbx = product
 * halves, r8..r14 = accumulator); the carry left over at the end of a chain is added with a
 * plain adc $0. rbp and r15 are not clobbered: rbp may be the frame pointer (sanitizer builds),
 * and the compiler puts the squaring's scratch pointer in whichever of the two is free.
 */
#include "field/fp_internal.h"

#if CUZK_FP_HAVE_ADX

/* Local copies so the asm addresses them %rip-relative in any code model (PIC or not). */
static const uint64_t FP_P[6] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL,
                                 0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
                                 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
static const uint64_t FP_N0 = 0x89f3fffcfffcfffdULL; /* -p^-1 mod 2^64 */

/* The asm below is laid out by hand, one instruction group per line; keep the formatter off. */
/* clang-format off */
#define NL "\n\t"

/* t[0..6] += a[0..5] * rdx, t6 zero on entry, CF = OF = 0 on entry. */
#define ROW_ACC(T0, T1, T2, T3, T4, T5, T6)                                                        \
    "mulxq 0(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, " T0 NL "adoxq %%rbx, " T1 NL                 \
    "mulxq 8(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, " T1 NL "adoxq %%rbx, " T2 NL                 \
    "mulxq 16(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, " T2 NL "adoxq %%rbx, " T3 NL                \
    "mulxq 24(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, " T3 NL "adoxq %%rbx, " T4 NL                \
    "mulxq 32(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, " T4 NL "adoxq %%rbx, " T5 NL                \
    "mulxq 40(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, " T5 NL "adoxq %%rbx, " T6 NL                \
    "adcq $0, " T6 NL

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
    "adcq $0, " T6 NL

/*
 * out = (R0..R5) mod p for a value below 2p: subtract p into R0..R5 keeping a copy in
 * rax, rbx, rdx, rsi, rcx, S5, and move the copy back when the subtraction borrowed.
 */
#define FINAL_SUB(R0, R1, R2, R3, R4, R5, S5)                                                      \
    "movq " R0 ", %%rax" NL "movq " R1 ", %%rbx" NL "movq " R2 ", %%rdx" NL                        \
    "movq " R3 ", %%rsi" NL "movq " R4 ", %%rcx" NL "movq " R5 ", " S5 NL                          \
    "subq 0+%[p], " R0 NL "sbbq 8+%[p], " R1 NL "sbbq 16+%[p], " R2 NL                             \
    "sbbq 24+%[p], " R3 NL "sbbq 32+%[p], " R4 NL "sbbq 40+%[p], " R5 NL                           \
    "cmovcq %%rax, " R0 NL "cmovcq %%rbx, " R1 NL "cmovcq %%rdx, " R2 NL                           \
    "cmovcq %%rsi, " R3 NL "cmovcq %%rcx, " R4 NL "cmovcq " S5 ", " R5 NL                          \
    "movq " R0 ", 0(%%rdi)" NL "movq " R1 ", 8(%%rdi)" NL "movq " R2 ", 16(%%rdi)" NL              \
    "movq " R3 ", 24(%%rdi)" NL "movq " R4 ", 32(%%rdi)" NL "movq " R5 ", 40(%%rdi)" NL

#define X8 "%%r8"
#define X9 "%%r9"
#define X10 "%%r10"
#define X11 "%%r11"
#define X12 "%%r12"
#define X13 "%%r13"
#define X14 "%%r14"

/* Montgomery reduction of the 6 words in r8..r13 (r14 = 0 as the top word): six REDUCE steps,
 * the value (<= p) left in r14, r8, r9, r10, r11, r12. */
#define REDC6                                                                                      \
    "xorl %%r14d, %%r14d" NL                                                                       \
    REDUCE(X8, X9, X10, X11, X12, X13, X14)                                                        \
    REDUCE(X9, X10, X11, X12, X13, X14, X8)                                                        \
    REDUCE(X10, X11, X12, X13, X14, X8, X9)                                                        \
    REDUCE(X11, X12, X13, X14, X8, X9, X10)                                                        \
    REDUCE(X12, X13, X14, X8, X9, X10, X11)                                                        \
    REDUCE(X13, X14, X8, X9, X10, X11, X12)

/* Row 0 of a product: r8..r14 = a * b[0] on a single carry chain (nothing to accumulate yet). */
#define ROW0                                                                                       \
    "movq 0(%%rcx), %%rdx" NL                                                                      \
    "mulxq 0(%%rsi), %%r8, %%r9" NL                                                                \
    "mulxq 8(%%rsi), %%rax, %%r10" NL "addq %%rax, %%r9" NL                                        \
    "mulxq 16(%%rsi), %%rax, %%r11" NL "adcq %%rax, %%r10" NL                                      \
    "mulxq 24(%%rsi), %%rax, %%r12" NL "adcq %%rax, %%r11" NL                                      \
    "mulxq 32(%%rsi), %%rax, %%r13" NL "adcq %%rax, %%r12" NL                                      \
    "mulxq 40(%%rsi), %%rax, %%r14" NL "adcq %%rax, %%r13" NL                                      \
    "adcq $0, %%r14" NL

void cuzk__fp_mul_adx(uint64_t out[6], const uint64_t a[6], const uint64_t b[6])
{
    const uint64_t *ap = a, *bp = b;
    __asm__ volatile(
        ROW0
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
        : "rax", "rbx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "cc", "memory");
}

/*
 * Squaring, w = a^2 as 12 words, then REDC. Phase 1 sums the cross products into w1..w10
 * (row k multiplies a[k] by a[k+1..5]): w1..w6 = a0*(a1..a5); w3..w7 += a1*(a2..a5);
 * w5..w8 += a2*(a3..a5); w7..w9 += a3*(a4, a5); w9..w10 += a4*a5. Word placement:
 *   row 0: w1 r9, w2 r10, w3 r11, w4 r12, w5 r13, w6 r14;  row 1: w7 r8;
 *   then w1, w2 are final and parked in spill[1..2];  row 2: w8 rcx;  row 3: w9 r9;
 *   row 4: w10 r10.
 * Phase 2 doubles (CF chain: adcx x, x) and adds the squares a[k]^2 at words 2k, 2k+1 (OF
 * chain), bottom up, leaving w0..w5 in r8..r13 and w6..w11 in spill[6..11]. Phase 3 reduces
 * the low half with six REDUCE steps on r8..r14 (r14 = 0 as the top word), adds the high half
 * and subtracts p once if needed.
 */
void cuzk__fp_sqr_adx(uint64_t out[6], const uint64_t a[6])
{
    const uint64_t *ap = a;
    uint64_t spill[12];
    uint64_t *sp = spill;
    uint64_t dummy_c;
    __asm__ volatile(
        /* Row 0: a0 * (a1..a5) -> w1..w6, single chain. */
        "movq 0(%%rsi), %%rdx" NL
        "mulxq 8(%%rsi), %%r9, %%r10" NL
        "mulxq 16(%%rsi), %%rax, %%r11" NL "addq %%rax, %%r10" NL
        "mulxq 24(%%rsi), %%rax, %%r12" NL "adcq %%rax, %%r11" NL
        "mulxq 32(%%rsi), %%rax, %%r13" NL "adcq %%rax, %%r12" NL
        "mulxq 40(%%rsi), %%rax, %%r14" NL "adcq %%rax, %%r13" NL
        "adcq $0, %%r14" NL
        /* Row 1: a1 * (a2..a5) -> w3..w7. */
        "movq 8(%%rsi), %%rdx" NL "xorl %%r8d, %%r8d" NL
        "mulxq 16(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, %%r11" NL "adoxq %%rbx, %%r12" NL
        "mulxq 24(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, %%r12" NL "adoxq %%rbx, %%r13" NL
        "mulxq 32(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, %%r13" NL "adoxq %%rbx, %%r14" NL
        "mulxq 40(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, %%r14" NL "adoxq %%rbx, %%r8" NL
        "adcq $0, %%r8" NL
        "movq %%r9, 8(%[sp])" NL "movq %%r10, 16(%[sp])" NL
        /* Row 2: a2 * (a3..a5) -> w5..w8. */
        "movq 16(%%rsi), %%rdx" NL "xorl %%ecx, %%ecx" NL
        "mulxq 24(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, %%r13" NL "adoxq %%rbx, %%r14" NL
        "mulxq 32(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, %%r14" NL "adoxq %%rbx, %%r8" NL
        "mulxq 40(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, %%r8" NL "adoxq %%rbx, %%rcx" NL
        "adcq $0, %%rcx" NL
        /* Row 3: a3 * (a4, a5) -> w7..w9. */
        "movq 24(%%rsi), %%rdx" NL "xorl %%r9d, %%r9d" NL
        "mulxq 32(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, %%r8" NL "adoxq %%rbx, %%rcx" NL
        "mulxq 40(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, %%rcx" NL "adoxq %%rbx, %%r9" NL
        "adcq $0, %%r9" NL
        /* Row 4: a4 * a5 -> w9..w10. */
        "movq 32(%%rsi), %%rdx" NL
        "mulxq 40(%%rsi), %%rax, %%r10" NL "addq %%rax, %%r9" NL "adcq $0, %%r10" NL
        /* Phase 2. Park w7, w9, w10 (their registers are needed for w0..w2). */
        "movq %%r8, 56(%[sp])" NL "movq %%r9, 72(%[sp])" NL "movq %%r10, 80(%[sp])" NL
        "xorl %%eax, %%eax" NL
        "movq 0(%%rsi), %%rdx" NL "mulxq %%rdx, %%r8, %%rbx" NL
        "movq 8(%[sp]), %%r9" NL "adcxq %%r9, %%r9" NL "adoxq %%rbx, %%r9" NL
        "movq 8(%%rsi), %%rdx" NL "mulxq %%rdx, %%rax, %%rbx" NL
        "movq 16(%[sp]), %%r10" NL "adcxq %%r10, %%r10" NL "adoxq %%rax, %%r10" NL
        "adcxq %%r11, %%r11" NL "adoxq %%rbx, %%r11" NL
        "movq 16(%%rsi), %%rdx" NL "mulxq %%rdx, %%rax, %%rbx" NL
        "adcxq %%r12, %%r12" NL "adoxq %%rax, %%r12" NL
        "adcxq %%r13, %%r13" NL "adoxq %%rbx, %%r13" NL
        "movq 24(%%rsi), %%rdx" NL "mulxq %%rdx, %%rax, %%rbx" NL
        "adcxq %%r14, %%r14" NL "adoxq %%rax, %%r14" NL "movq %%r14, 48(%[sp])" NL
        "movq 56(%[sp]), %%r14" NL "adcxq %%r14, %%r14" NL "adoxq %%rbx, %%r14" NL
        "movq %%r14, 56(%[sp])" NL
        "movq 32(%%rsi), %%rdx" NL "mulxq %%rdx, %%rax, %%rbx" NL
        "adcxq %%rcx, %%rcx" NL "adoxq %%rax, %%rcx" NL "movq %%rcx, 64(%[sp])" NL
        "movq 72(%[sp]), %%rcx" NL "adcxq %%rcx, %%rcx" NL "adoxq %%rbx, %%rcx" NL
        "movq %%rcx, 72(%[sp])" NL
        "movq 40(%%rsi), %%rdx" NL "mulxq %%rdx, %%rax, %%rbx" NL
        "movq 80(%[sp]), %%rcx" NL "adcxq %%rcx, %%rcx" NL "adoxq %%rax, %%rcx" NL
        "movq %%rcx, 80(%[sp])" NL
        /* w11 = CF + hi(a5^2) + OF; mov leaves the flags alone. */
        "movl $0, %%ecx" NL "adcxq %%rcx, %%rcx" NL "adoxq %%rbx, %%rcx" NL
        "movq %%rcx, 88(%[sp])" NL
        /* Phase 3: REDC of w0..w5 (r8..r13) with r14 = 0 as the top word. */
        REDC6
        /* Low part (<= p) in r14, r8, r9, r10, r11, r12; add the high half (< p). */
        "addq 48(%[sp]), %%r14" NL "adcq 56(%[sp]), %%r8" NL "adcq 64(%[sp]), %%r9" NL
        "adcq 72(%[sp]), %%r10" NL "adcq 80(%[sp]), %%r11" NL "adcq 88(%[sp]), %%r12" NL
        FINAL_SUB(X14, X8, X9, X10, X11, X12, X13)
        : "+S"(ap), "=&c"(dummy_c)
        : "D"(out), [sp] "r"(sp), [p] "m"(FP_P), [n0] "m"(FP_N0)
        : "rax", "rbx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "cc", "memory");
}

/*
 * w = a * b as 12 words (schoolbook, no reduction), for any 6-word a and b. Row i adds a * b[i]
 * into the seven-register window holding words i..i+6; its low word is then final and stored,
 * and its register is zeroed to become the window's new top word (the bound of ROW_ACC: window
 * < 2^384 plus a * b[i] < 2^448 - 2^384 fits seven words).
 */
#define WROW(OFF, T0, T1, T2, T3, T4, T5, T6)                                                      \
    "movq " OFF "(%%rcx), %%rdx" NL "xorl %%eax, %%eax" NL "movq %%rax, " T6 NL                    \
    ROW_ACC(T0, T1, T2, T3, T4, T5, T6) "movq " T0 ", " OFF "(%%rdi)" NL

void cuzk__fp_mul_wide_adx(uint64_t w[12], const uint64_t a[6], const uint64_t b[6])
{
    const uint64_t *ap = a, *bp = b;
    __asm__ volatile(
        ROW0
        "movq %%r8, 0(%%rdi)" NL
        WROW("8", X9, X10, X11, X12, X13, X14, X8)
        WROW("16", X10, X11, X12, X13, X14, X8, X9)
        WROW("24", X11, X12, X13, X14, X8, X9, X10)
        WROW("32", X12, X13, X14, X8, X9, X10, X11)
        WROW("40", X13, X14, X8, X9, X10, X11, X12)
        "movq %%r14, 48(%%rdi)" NL "movq %%r8, 56(%%rdi)" NL "movq %%r9, 64(%%rdi)" NL
        "movq %%r10, 72(%%rdi)" NL "movq %%r11, 80(%%rdi)" NL "movq %%r12, 88(%%rdi)" NL
        : "+S"(ap), "+c"(bp)
        : "D"(w)
        : "rax", "rbx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "cc", "memory");
}

/* out = w 2^-384 mod p for w < p 2^384: six REDUCE steps on the low half, then the high half
 * (below p) added; the sum is below 2p, one conditional subtraction (as the squaring's phase 3). */
void cuzk__fp_redc_adx(uint64_t out[6], const uint64_t w[12])
{
    const uint64_t *wp = w;
    uint64_t dummy_c;
    __asm__ volatile(
        "movq 0(%%rsi), %%r8" NL "movq 8(%%rsi), %%r9" NL "movq 16(%%rsi), %%r10" NL
        "movq 24(%%rsi), %%r11" NL "movq 32(%%rsi), %%r12" NL "movq 40(%%rsi), %%r13" NL
        REDC6
        "addq 48(%%rsi), %%r14" NL "adcq 56(%%rsi), %%r8" NL "adcq 64(%%rsi), %%r9" NL
        "adcq 72(%%rsi), %%r10" NL "adcq 80(%%rsi), %%r11" NL "adcq 88(%%rsi), %%r12" NL
        FINAL_SUB(X14, X8, X9, X10, X11, X12, X13)
        : "+S"(wp), "=&c"(dummy_c)
        : "D"(out), [p] "m"(FP_P), [n0] "m"(FP_N0), "m"(*(const uint64_t(*)[12])w)
        : "rax", "rbx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "cc", "memory");
}

/* p^2 as 12 words: added to a0 b0 - a1 b1, which keeps it positive and below 2 p^2. */
static const uint64_t FP_P2[12] = {
    0x26aa00001c718e39ULL, 0x7ced6b1d76382eabULL, 0x162c338362113cfdULL, 0x66bf91ed3e71b743ULL,
    0x292e85a87091a049ULL, 0x1d68619c86185c7bULL, 0xf53149330978ef01ULL, 0x50a62cfd16ddca6eULL,
    0x66e59e49349e8bd0ULL, 0xe2dc90e50e7046b4ULL, 0x4bd278eaa22f25e9ULL, 0x02a437a4b8c35fc7ULL};

/*
 * The helpers below write through pointers: volatile, or their asm would be dropped wherever
 * the register output is unused. Each keeps one 6-word half in registers and runs its two carry
 * chains one after the other on that half, parking the carry of each chain in a register
 * between the halves (bt restores it to CF), so every word is loaded and stored once.
 */

#define H6_LOAD(SRC, OFF)                                                                          \
    "movq " OFF "+0(%[" SRC "]), %%r8" NL "movq " OFF "+8(%[" SRC "]), %%r9" NL                    \
    "movq " OFF "+16(%[" SRC "]), %%r10" NL "movq " OFF "+24(%[" SRC "]), %%r11" NL                \
    "movq " OFF "+32(%[" SRC "]), %%r12" NL "movq " OFF "+40(%[" SRC "]), %%r13" NL
#define H6_STORE(DST, OFF)                                                                         \
    "movq %%r8, " OFF "+0(%[" DST "])" NL "movq %%r9, " OFF "+8(%[" DST "])" NL                    \
    "movq %%r10, " OFF "+16(%[" DST "])" NL "movq %%r11, " OFF "+24(%[" DST "])" NL                \
    "movq %%r12, " OFF "+32(%[" DST "])" NL "movq %%r13, " OFF "+40(%[" DST "])" NL
/* OP0 on word 0, OP on words 1..5: r8..r13 OP= SRC[OFF..OFF+5]. */
#define H6_CHAIN(OP0, OP, SRC, OFF)                                                                \
    OP0 " " OFF "+0(%[" SRC "]), %%r8" NL OP " " OFF "+8(%[" SRC "]), %%r9" NL                     \
    OP " " OFF "+16(%[" SRC "]), %%r10" NL OP " " OFF "+24(%[" SRC "]), %%r11" NL                  \
    OP " " OFF "+32(%[" SRC "]), %%r12" NL OP " " OFF "+40(%[" SRC "]), %%r13" NL

/* x = x - y, then x OP= z (OP0 / OP: the instructions of the second chain), 12 words; the
 * caller's bounds keep the result in range. */
#define SUB_THEN12(OP0, OP)                                                                        \
    H6_LOAD("x", "0") H6_CHAIN("subq", "sbbq", "y", "0") "sbbq %[c1], %[c1]" NL                    \
    H6_CHAIN(OP0, OP, "z", "0") "sbbq %[c2], %[c2]" NL H6_STORE("x", "0")                          \
    H6_LOAD("x", "48") "btq $0, %[c1]" NL H6_CHAIN("sbbq", "sbbq", "y", "48")                      \
    "btq $0, %[c2]" NL H6_CHAIN(OP, OP, "z", "48") H6_STORE("x", "48")
#define SUB_THEN12_OPERANDS                                                                        \
    : [c1] "=&r"(c1), [c2] "=&r"(c2)                                                               \
    : [x] "r"(x), [y] "r"(y), [z] "r"(z)                                                           \
    : "r8", "r9", "r10", "r11", "r12", "r13", "cc", "memory"

/* x = x - y - z (no final borrow by the caller's bound). */
static inline void sub12_twice(uint64_t x[12], const uint64_t y[12], const uint64_t z[12])
{
    uint64_t c1, c2;
    __asm__ volatile(SUB_THEN12("subq", "sbbq") SUB_THEN12_OPERANDS);
}

/* x = x - y + z (never negative by the caller's bound). */
static inline void sub_add12(uint64_t x[12], const uint64_t y[12], const uint64_t z[12])
{
    uint64_t c1, c2;
    __asm__ volatile(SUB_THEN12("addq", "adcq") SUB_THEN12_OPERANDS);
}

/* 6-word r = x + y without reduction (x, y < p < 2^381: no carry out). */
static inline void add6_raw(uint64_t r[6], const uint64_t x[6], const uint64_t y[6])
{
    uint64_t t;
    __asm__ volatile("movq 0(%[x]), %[t]" NL "addq 0(%[y]), %[t]" NL "movq %[t], 0(%[r])" NL
            "movq 8(%[x]), %[t]" NL "adcq 8(%[y]), %[t]" NL "movq %[t], 8(%[r])" NL
            "movq 16(%[x]), %[t]" NL "adcq 16(%[y]), %[t]" NL "movq %[t], 16(%[r])" NL
            "movq 24(%[x]), %[t]" NL "adcq 24(%[y]), %[t]" NL "movq %[t], 24(%[r])" NL
            "movq 32(%[x]), %[t]" NL "adcq 32(%[y]), %[t]" NL "movq %[t], 32(%[r])" NL
            "movq 40(%[x]), %[t]" NL "adcq 40(%[y]), %[t]" NL "movq %[t], 40(%[r])" NL
            : [t] "=&r"(t)
            : [r] "r"(r), [x] "r"(x), [y] "r"(y)
            : "cc", "memory");
}

/* out = a * b in Fp2; a, b canonical; out may alias either. */
void cuzk__fp2_mul_adx(cuzk_fp2_t *out, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    uint64_t t0[12], t1[12], s[12], sa[6], sb[6];
    add6_raw(sa, a->c0.l, a->c1.l);
    add6_raw(sb, b->c0.l, b->c1.l);
    cuzk__fp_mul_wide_adx(t0, a->c0.l, b->c0.l);
    cuzk__fp_mul_wide_adx(t1, a->c1.l, b->c1.l);
    cuzk__fp_mul_wide_adx(s, sa, sb); /* < 4 p^2 < 2^764 */
    sub12_twice(s, t0, t1);    /* a0 b1 + a1 b0 < 2 p^2: never negative */
    sub_add12(t0, t1, FP_P2); /* a0 b0 - a1 b1 + p^2, in (0, 2 p^2) */
    cuzk__fp_redc_adx(out->c0.l, t0);
    cuzk__fp_redc_adx(out->c1.l, s);
}

/* clang-format on */

#endif

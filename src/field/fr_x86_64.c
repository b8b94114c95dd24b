/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Fr Montgomery multiplication and squaring for x86-64 with BMI2 (mulx) and ADX (adcx/adox).
 *
 * Multiplication: field/fr_inline.h's CIOS product (fri_mul, which cuzk_fr_mul, the NTT and the
 * synthesis loops inline), out of line here for fr.c's conversions, the tests and the bench.
 *
 * Squaring: SOS. The 6 cross products a[i]*a[j], i < j, are summed once, doubled, and the 4
 * squares added (10 mulx instead of 16), all 8 words of a^2 in registers; the low half w[0..3] is
 * Montgomery-reduced with fr_inline.h's reduction step, (w_lo + Q*r) / 2^256 <= r, and the high
 * half w[4..7] = floor(a^2 / 2^256) < r^2 / 2^256 < r is added: the sum is below 2r, one
 * conditional subtraction. Outputs are canonical, so bit-identical to the portable product.
 *
 * Registers: rdi = out, rsi = a, rdx = mulx source, rax/rbx = product halves, r8..r14 and rcx =
 * the square. rbp and r15 are left alone, as in Fp.
 */
#include "field/fr_internal.h"
#include "field/fr_inline.h"

#if CUZK_FR_HAVE_ADX

/* The asm below is laid out by hand, one instruction group per line; keep the formatter off. */
/* clang-format off */
#define NL "\n\t"

/* One reduction step of the squaring: field/fr_inline.h's, shared with the product. */
#define REDUCE PFR_RED

/* out = (R0..R3) mod r for a value below 2r: subtract r, keeping a copy in rax, rbx, rdx, rsi,
 * and move the copy back when the subtraction borrowed. */
#define FINAL_SUB(R0, R1, R2, R3)                                                                  \
    "movq " R0 ", %%rax" NL "movq " R1 ", %%rbx" NL "movq " R2 ", %%rdx" NL                        \
    "movq " R3 ", %%rsi" NL                                                                        \
    "subq 0+%[p], " R0 NL "sbbq 8+%[p], " R1 NL "sbbq 16+%[p], " R2 NL "sbbq 24+%[p], " R3 NL      \
    "cmovcq %%rax, " R0 NL "cmovcq %%rbx, " R1 NL "cmovcq %%rdx, " R2 NL "cmovcq %%rsi, " R3 NL    \
    "movq " R0 ", 0(%%rdi)" NL "movq " R1 ", 8(%%rdi)" NL "movq " R2 ", 16(%%rdi)" NL              \
    "movq " R3 ", 24(%%rdi)" NL

#define X8 "%%r8"
#define X9 "%%r9"
#define X10 "%%r10"
#define X11 "%%r11"
#define X12 "%%r12"

/*
 * Squaring, w = a^2 as 8 words in r8..r14, rcx, then REDC. Phase 1 sums the cross products:
 * w1..w4 = a0*(a1..a3) in r9..r12; w3..w5 += a1*(a2, a3), w5 in r13; w5..w6 += a2*a3, w6 in
 * r14. Phase 2 doubles them (CF chain: adcx x, x) and adds the squares a[k]^2 at words 2k, 2k+1
 * (OF chain), bottom up; w0 lands in r8 and w7 in rcx. Phase 3 parks w4 in rsi, reduces w0..w3
 * with four REDUCE steps on r8..r12 (r12 = 0 as the top word), adds w4..w7 (rsi, r13, r14, rcx)
 * and subtracts r once if needed.
 */
void cuzk__fr_sqr_adx(uint64_t out[4], const uint64_t a[4])
{
    const uint64_t *ap = a;
    uint64_t dummy_c;
    __asm__ volatile(
        /* Row 0: a0 * (a1..a3) -> w1..w4, single chain. */
        "movq 0(%%rsi), %%rdx" NL
        "mulxq 8(%%rsi), %%r9, %%r10" NL
        "mulxq 16(%%rsi), %%rax, %%r11" NL "addq %%rax, %%r10" NL
        "mulxq 24(%%rsi), %%rax, %%r12" NL "adcq %%rax, %%r11" NL
        "adcq $0, %%r12" NL
        /* Row 1: a1 * (a2, a3) -> w3..w5. */
        "movq 8(%%rsi), %%rdx" NL "xorl %%r13d, %%r13d" NL
        "mulxq 16(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, %%r11" NL "adoxq %%rbx, %%r12" NL
        "mulxq 24(%%rsi), %%rax, %%rbx" NL "adcxq %%rax, %%r12" NL "adoxq %%rbx, %%r13" NL
        "adcq $0, %%r13" NL
        /* Row 2: a2 * a3 -> w5..w6. */
        "movq 16(%%rsi), %%rdx" NL
        "mulxq 24(%%rsi), %%rax, %%r14" NL "addq %%rax, %%r13" NL "adcq $0, %%r14" NL
        /* Phase 2: double the cross products, add the squares. */
        "xorl %%eax, %%eax" NL
        "movq 0(%%rsi), %%rdx" NL "mulxq %%rdx, %%r8, %%rbx" NL
        "adcxq %%r9, %%r9" NL "adoxq %%rbx, %%r9" NL
        "movq 8(%%rsi), %%rdx" NL "mulxq %%rdx, %%rax, %%rbx" NL
        "adcxq %%r10, %%r10" NL "adoxq %%rax, %%r10" NL
        "adcxq %%r11, %%r11" NL "adoxq %%rbx, %%r11" NL
        "movq 16(%%rsi), %%rdx" NL "mulxq %%rdx, %%rax, %%rbx" NL
        "adcxq %%r12, %%r12" NL "adoxq %%rax, %%r12" NL
        "adcxq %%r13, %%r13" NL "adoxq %%rbx, %%r13" NL
        "movq 24(%%rsi), %%rdx" NL "mulxq %%rdx, %%rax, %%rbx" NL
        "adcxq %%r14, %%r14" NL "adoxq %%rax, %%r14" NL
        /* w7 = CF + hi(a3^2) + OF; mov leaves the flags alone. For a < r the CF term is
         * zero (the cross sum is below 0.91 * 2^447, r's top limb being 0.91 * 2^63), kept
         * so that phases 1-2 give the exact square of any 4-word a. */
        "movl $0, %%ecx" NL "adcxq %%rcx, %%rcx" NL "adoxq %%rbx, %%rcx" NL
        /* Phase 3: REDC of w0..w3 (r8..r11) with r12 = 0 as the top word; w4 parked in rsi. */
        "movq %%r12, %%rsi" NL "xorl %%r12d, %%r12d" NL
        REDUCE(X8, X9, X10, X11, X12)
        REDUCE(X9, X10, X11, X12, X8)
        REDUCE(X10, X11, X12, X8, X9)
        REDUCE(X11, X12, X8, X9, X10)
        /* Low part (<= r) in r12, r8, r9, r10; add the high half (< r). */
        "addq %%rsi, %%r12" NL "adcq %%r13, %%r8" NL "adcq %%r14, %%r9" NL "adcq %%rcx, %%r10" NL
        FINAL_SUB(X12, X8, X9, X10)
        : "+S"(ap), "=&c"(dummy_c)
        : "D"(out), [p] "m"(*(const uint64_t(*)[4])fri_r), [n0] "m"(fri_n0)
        : "rax", "rbx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "cc", "memory");
}

/* clang-format on */

void cuzk__fr_mul_adx(uint64_t out[4], const uint64_t a[4], const uint64_t b[4])
{
    fri_mul((cuzk_fr_t *)out, (const cuzk_fr_t *)a, (const cuzk_fr_t *)b);
}

#endif

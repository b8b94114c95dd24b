/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_FIELD_FR_INLINE_H
#define CUZK_FIELD_FR_INLINE_H

/*
 * Fr add / sub / Montgomery multiplication inlined into hot loops: the NTT (src/poly), the
 * synthesis accumulators (src/r1cs/fr_fast.h), native Poseidon, and behind cuzk_fr_add / sub /
 * mul (src/field/fr.c) and cuzk__fr_mul_adx (src/field/fr_x86_64.c).
 * Same values as the portable code of field/mont.h (tests/unit/test_poly.c and
 * test_field_adx.c check them against it and GMP). A butterfly made of out-of-line generic calls
 * costs about twice as much as one made of the x86-64 versions below (`cuzk-bench ntt
 * --filter='butterfly*'`; docs/PERFORMANCE.md, "NTT (issue 3)").
 *
 * Multiplication: CIOS with mulx and two carry chains (adcx low halves, adox high halves), as in
 * src/field/fp_x86_64.c but for four limbs; the accumulator rotates through r8..r12. r's top limb
 * (0x73ed...) is below 2^63 - 1, so t stays below 2r between rows and fits five words (the
 * "no-carry" bound of field/mont.h), and one conditional subtraction ends it.
 * Addition: a + b < 2r < 2^256, then subtract r and keep the sum if that borrowed.
 * Subtraction: a - b, then add r masked by the borrow.
 */

#include "cuzk/field.h"
#include "field/mont.h"

#include <stdint.h>

static const uint64_t fri_r[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                  0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
static const uint64_t fri_n0 = 0xfffffffeffffffffULL; /* -r^-1 mod 2^64 */

#if defined(__x86_64__) && defined(__ADX__) && defined(__BMI2__)
#define CUZK_FR_INLINE_ASM 1

/* clang-format off */
#define PFR_NL "\n\t"
/* t[0..4] += a * rdx; t4 zero on entry; CF = OF = 0 on entry (xor). */
#define PFR_ROW(BOFF, T0, T1, T2, T3, T4)                                                          \
    "movq " BOFF "(%[b]), %%rdx" PFR_NL "xorl %%eax, %%eax" PFR_NL                                 \
    "mulxq 0(%[a]), %%rax, %%rbx" PFR_NL "adcxq %%rax, " T0 PFR_NL "adoxq %%rbx, " T1 PFR_NL        \
    "mulxq 8(%[a]), %%rax, %%rbx" PFR_NL "adcxq %%rax, " T1 PFR_NL "adoxq %%rbx, " T2 PFR_NL        \
    "mulxq 16(%[a]), %%rax, %%rbx" PFR_NL "adcxq %%rax, " T2 PFR_NL "adoxq %%rbx, " T3 PFR_NL       \
    "mulxq 24(%[a]), %%rax, %%rbx" PFR_NL "adcxq %%rax, " T3 PFR_NL "adoxq %%rbx, " T4 PFR_NL       \
    "adcq $0, " T4 PFR_NL
/* q = t0 * n0; t += q * r: afterwards T0 = 0 and the value sits in T1..T4. */
#define PFR_RED(T0, T1, T2, T3, T4)                                                                \
    "movq " T0 ", %%rdx" PFR_NL "imulq %[n0], %%rdx" PFR_NL "xorl %%eax, %%eax" PFR_NL             \
    "mulxq 0+%[p], %%rax, %%rbx" PFR_NL "adcxq %%rax, " T0 PFR_NL "adoxq %%rbx, " T1 PFR_NL         \
    "mulxq 8+%[p], %%rax, %%rbx" PFR_NL "adcxq %%rax, " T1 PFR_NL "adoxq %%rbx, " T2 PFR_NL         \
    "mulxq 16+%[p], %%rax, %%rbx" PFR_NL "adcxq %%rax, " T2 PFR_NL "adoxq %%rbx, " T3 PFR_NL        \
    "mulxq 24+%[p], %%rax, %%rbx" PFR_NL "adcxq %%rax, " T3 PFR_NL "adoxq %%rbx, " T4 PFR_NL        \
    "adcq $0, " T4 PFR_NL

/* o = a * b / 2^256 mod r; o may alias a or b (every load precedes the stores). */
MONT_INLINE void fri_mul(cuzk_fr_t *o, const cuzk_fr_t *a, const cuzk_fr_t *b)
{
    __asm__("movq 0(%[b]), %%rdx" PFR_NL "xorl %%eax, %%eax" PFR_NL
            "mulxq 0(%[a]), %%r8, %%r9" PFR_NL
            "mulxq 8(%[a]), %%rax, %%r10" PFR_NL "adcxq %%rax, %%r9" PFR_NL
            "mulxq 16(%[a]), %%rax, %%r11" PFR_NL "adcxq %%rax, %%r10" PFR_NL
            "mulxq 24(%[a]), %%rax, %%r12" PFR_NL "adcxq %%rax, %%r11" PFR_NL
            "adcq $0, %%r12" PFR_NL
            PFR_RED("%%r8", "%%r9", "%%r10", "%%r11", "%%r12")
            PFR_ROW("8", "%%r9", "%%r10", "%%r11", "%%r12", "%%r8")
            PFR_RED("%%r9", "%%r10", "%%r11", "%%r12", "%%r8")
            PFR_ROW("16", "%%r10", "%%r11", "%%r12", "%%r8", "%%r9")
            PFR_RED("%%r10", "%%r11", "%%r12", "%%r8", "%%r9")
            PFR_ROW("24", "%%r11", "%%r12", "%%r8", "%%r9", "%%r10")
            PFR_RED("%%r11", "%%r12", "%%r8", "%%r9", "%%r10")
            /* value in r12, r8, r9, r10 (< 2r): subtract r unless that borrows */
            "movq %%r12, %%rax" PFR_NL "movq %%r8, %%rbx" PFR_NL "movq %%r9, %%rdx" PFR_NL
            "movq %%r10, %%r11" PFR_NL
            "subq 0+%[p], %%r12" PFR_NL "sbbq 8+%[p], %%r8" PFR_NL "sbbq 16+%[p], %%r9" PFR_NL
            "sbbq 24+%[p], %%r10" PFR_NL
            "cmovcq %%rax, %%r12" PFR_NL "cmovcq %%rbx, %%r8" PFR_NL "cmovcq %%rdx, %%r9" PFR_NL
            "cmovcq %%r11, %%r10" PFR_NL
            "movq %%r12, 0(%[o])" PFR_NL "movq %%r8, 8(%[o])" PFR_NL "movq %%r9, 16(%[o])" PFR_NL
            "movq %%r10, 24(%[o])"
            : "=m"(*(uint64_t(*)[4])o->l)
            : [o] "r"(o->l), [a] "r"(a->l), [b] "r"(b->l), "m"(*(const uint64_t(*)[4])a->l),
              "m"(*(const uint64_t(*)[4])b->l), [p] "m"(*(const uint64_t(*)[4])fri_r),
              [n0] "m"(fri_n0)
            : "rax", "rbx", "rdx", "r8", "r9", "r10", "r11", "r12", "cc");
}

MONT_INLINE void fri_add(cuzk_fr_t *o, const cuzk_fr_t *a, const cuzk_fr_t *b)
{
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3], s0, s1, s2, s3;
    __asm__("addq %[b0], %[t0]" PFR_NL "adcq %[b1], %[t1]" PFR_NL "adcq %[b2], %[t2]" PFR_NL
            "adcq %[b3], %[t3]" PFR_NL
            "movq %[t0], %[s0]" PFR_NL "movq %[t1], %[s1]" PFR_NL "movq %[t2], %[s2]" PFR_NL
            "movq %[t3], %[s3]" PFR_NL
            "subq %[p0], %[s0]" PFR_NL "sbbq %[p1], %[s1]" PFR_NL "sbbq %[p2], %[s2]" PFR_NL
            "sbbq %[p3], %[s3]" PFR_NL
            "cmovcq %[t0], %[s0]" PFR_NL "cmovcq %[t1], %[s1]" PFR_NL "cmovcq %[t2], %[s2]" PFR_NL
            "cmovcq %[t3], %[s3]"
            : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [s0] "=&r"(s0),
              [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3)
            : [b0] "m"(b->l[0]), [b1] "m"(b->l[1]), [b2] "m"(b->l[2]), [b3] "m"(b->l[3]),
              [p0] "m"(fri_r[0]), [p1] "m"(fri_r[1]), [p2] "m"(fri_r[2]),
              [p3] "m"(fri_r[3])
            : "cc");
    o->l[0] = s0;
    o->l[1] = s1;
    o->l[2] = s2;
    o->l[3] = s3;
}

MONT_INLINE void fri_sub(cuzk_fr_t *o, const cuzk_fr_t *a, const cuzk_fr_t *b)
{
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3], m, u0, u1, u2, u3;
    __asm__("subq %[b0], %[t0]" PFR_NL "sbbq %[b1], %[t1]" PFR_NL "sbbq %[b2], %[t2]" PFR_NL
            "sbbq %[b3], %[t3]" PFR_NL
            "sbbq %[m], %[m]" PFR_NL
            "movq %[p0], %[u0]" PFR_NL "movq %[p1], %[u1]" PFR_NL "movq %[p2], %[u2]" PFR_NL
            "movq %[p3], %[u3]" PFR_NL
            "andq %[m], %[u0]" PFR_NL "andq %[m], %[u1]" PFR_NL "andq %[m], %[u2]" PFR_NL
            "andq %[m], %[u3]" PFR_NL
            "addq %[u0], %[t0]" PFR_NL "adcq %[u1], %[t1]" PFR_NL "adcq %[u2], %[t2]" PFR_NL
            "adcq %[u3], %[t3]"
            : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [m] "=&r"(m),
              [u0] "=&r"(u0), [u1] "=&r"(u1), [u2] "=&r"(u2), [u3] "=&r"(u3)
            : [b0] "m"(b->l[0]), [b1] "m"(b->l[1]), [b2] "m"(b->l[2]), [b3] "m"(b->l[3]),
              [p0] "m"(fri_r[0]), [p1] "m"(fri_r[1]), [p2] "m"(fri_r[2]),
              [p3] "m"(fri_r[3])
            : "cc");
    o->l[0] = t0;
    o->l[1] = t1;
    o->l[2] = t2;
    o->l[3] = t3;
}

/* clang-format on */

#else /* portable: the generic code of field/mont.h, inlined */
#define CUZK_FR_INLINE_ASM 0

MONT_INLINE void fri_mul(cuzk_fr_t *o, const cuzk_fr_t *a, const cuzk_fr_t *b)
{
    mont_mul(o->l, a->l, b->l, fri_r, fri_n0, 4);
}

MONT_INLINE void fri_add(cuzk_fr_t *o, const cuzk_fr_t *a, const cuzk_fr_t *b)
{
    mont_add(o->l, a->l, b->l, fri_r, 4);
}

MONT_INLINE void fri_sub(cuzk_fr_t *o, const cuzk_fr_t *a, const cuzk_fr_t *b)
{
    mont_sub(o->l, a->l, b->l, fri_r, 4);
}
#endif

#endif

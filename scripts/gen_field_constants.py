#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Prints the derived BLS12-381 field constants used in src/field/*.c as 64-bit limb arrays
(least significant limb first). Inputs are the moduli from shared/facts/formats.md section 1."""

P = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001


def limbs(x, n):
    return "{" + ", ".join("0x%016xULL" % ((x >> (64 * i)) & (2**64 - 1)) for i in range(n)) + "}"


def emit(name, x, n):
    print("/* %s */ %s" % (name, limbs(x, n)))


def field(tag, m, n):
    mont = 1 << (64 * n)
    emit(tag + " modulus", m, n)
    emit(tag + " R mod m", mont % m, n)
    emit(tag + " R^2 mod m", mont * mont % m, n)
    emit(tag + " R^3 mod m", mont**3 % m, n)
    print("/* %s n0 = -m^-1 mod 2^64 */ 0x%016xULL" % (tag, (-pow(m, -1, 2**64)) % 2**64))
    emit(tag + " m - 2", m - 2, n)
    emit(tag + " (m - 1) / 2", (m - 1) // 2, n)
    return mont


mp = field("Fp", P, 6)
emit("Fp (p + 1) / 4", (P + 1) // 4, 6)
# Fp2 sqrt (p = 3 mod 4), Algorithm 9 of eprint 2012/685: exponents (p - 3) / 4 and (p - 1) / 2.
emit("Fp (p - 3) / 4", (P - 3) // 4, 6)
mr = field("Fr", R, 4)
t = (R - 1) >> 32
assert t & 1
emit("Fr t = (r - 1) / 2^32", t, 4)
emit("Fr (t - 1) / 2", (t - 1) // 2, 4)
root = pow(7, t, R)
emit("Fr 7^t (Montgomery)", root * mr % R, 4)
# Frobenius coefficients for the tower Fp2 = Fp[u]/(u^2+1), Fp6 = Fp2[v]/(v^3 - (u+1)),
# Fp12 = Fp6[w]/(w^2 - v). Each is an Fp2 element (c0, c1) in Montgomery form.
def fp2_mul(a, b):
    return ((a[0] * b[0] - a[1] * b[1]) % P, (a[0] * b[1] + a[1] * b[0]) % P)


def fp2_pow(a, e):
    r = (1, 0)
    while e:
        if e & 1:
            r = fp2_mul(r, a)
        a = fp2_mul(a, a)
        e >>= 1
    return r


xi = (1, 1)
for name, num, den in [("fp6_c1", 1, 3), ("fp6_c2", 2, 3), ("fp12_c1", 1, 6)]:
    for k in range(1, 12):
        c = fp2_pow(xi, num * (P**k - 1) // den) if (P**k - 1) % den == 0 else None
        if c is None:
            continue
        print("/* frob %s k=%d */ {%s, %s}" % (name, k, limbs(c[0] * mp % P, 6), limbs(c[1] * mp % P, 6)))


# The same coefficients as C tables indexed by k mod 6 (Fp6) or k mod 12 (Fp12), k = 0 giving 1,
# ready to paste into src/field/fp6.c and src/field/fp12.c:
#   v^(p^k) = FROB6_C1[k] * v, (v^2)^(p^k) = FROB6_C2[k] * v^2, w^(p^k) = FROB12_C1[k] * w.
def c_table(name, num, den, count):
    print("static const cuzk_fp2_t %s[%d] = {" % (name, count))
    for k in range(count):
        c = fp2_pow(xi, num * (P**k - 1) // den)
        print("    /* k = %d */" % k)
        for i, part in enumerate((c[0], c[1])):
            v = part * mp % P
            ls = ["0x%016xULL" % ((v >> (64 * j)) & (2**64 - 1)) for j in range(6)]
            print("    %s{{%s,\n       %s}}%s" % ("{" if i == 0 else " ", ", ".join(ls[:4]),
                                              ", ".join(ls[4:]), "," if i == 0 else "},"))
    print("};")


c_table("FROB6_C1", 1, 3, 6)
c_table("FROB6_C2", 2, 3, 6)
c_table("FROB12_C1", 1, 6, 12)

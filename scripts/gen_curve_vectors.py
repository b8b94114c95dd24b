#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Independent BLS12-381 reference for the curve tests.

A deliberately naive pure-Python model (affine coordinates, Python integers, Fp2 as pairs) that
shares no code with the C implementation. It prints ZCash encodings (formats.md section 2.1) of
k*G1 and k*G2 for a fixed list of scalars, one line per point:

    g1 <k hex> <compressed hex> <uncompressed hex>
    g2 <k hex> <compressed hex> <uncompressed hex>

Usage: scripts/gen_curve_vectors.py --c-header > tests/vectors/curve_vectors.h
(without --c-header the same data is printed as plain text lines). With --constants it prints the derived curve constants used by src/curve (cube root of unity,
psi coefficients, cofactors) instead.
"""
import random
import sys

P = 0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB
R = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
X = -0xD201000000010000  # the BLS parameter

G1 = (
    0x17F1D3A73197D7942695638C4FA9AC0FC3688C4F9774B905A14E3A3F171BAC586C55E83FF97A1AEFFB3AF00ADB22C6BB,
    0x08B3F481E3AAA0F1A09E30ED741D8AE4FCF5E095D5D00AF600DB18CB2C04B3EDD03CC744A2888AE40CAA232946C5E7E1,
)
G2 = (
    (0x024AA2B2F08F0A91260805272DC51051C6E47AD4FA403B02B4510B647AE3D1770BAC0326A805BBEFD48056C8C121BDB8,
     0x13E02B6052719F607DACD3A088274F65596BD0D09920B61AB5DA61BBDC7F5049334CF11213945D57E5AC7D055D042B7E),
    (0x0CE5D527727D6E118CC9CDC6DA2E351AADFD9BAA8CBDD3A76D429A695160D12C923AC9CC3BACA289E193548608B82801,
     0x0606C4A02EA734CC32ACD2B02BC28B99CB3E287E85A763AF267492AB572E99AB3F370D275CEC1DA1AAA9075FF05F79BE),
)


# ---- fields: Fp as int, Fp2 as (c0, c1) with u^2 = -1 -------------------------------------
class Fp:
    zero, one = 0, 1

    @staticmethod
    def add(a, b): return (a + b) % P
    @staticmethod
    def sub(a, b): return (a - b) % P
    @staticmethod
    def mul(a, b): return a * b % P
    @staticmethod
    def inv(a): return pow(a, P - 2, P)
    @staticmethod
    def small(n): return n % P
    @staticmethod
    def is_zero(a): return a == 0


class Fp2:
    zero, one = (0, 0), (1, 0)

    @staticmethod
    def add(a, b): return ((a[0] + b[0]) % P, (a[1] + b[1]) % P)
    @staticmethod
    def sub(a, b): return ((a[0] - b[0]) % P, (a[1] - b[1]) % P)
    @staticmethod
    def mul(a, b):
        return ((a[0] * b[0] - a[1] * b[1]) % P, (a[0] * b[1] + a[1] * b[0]) % P)
    @staticmethod
    def inv(a):
        n = pow(a[0] * a[0] + a[1] * a[1], P - 2, P)
        return (a[0] * n % P, -a[1] * n % P)
    @staticmethod
    def small(n): return (n % P, 0)
    @staticmethod
    def is_zero(a): return a == (0, 0)


def fp2_pow(a, e):
    r, b = Fp2.one, a
    while e:
        if e & 1:
            r = Fp2.mul(r, b)
        b = Fp2.mul(b, b)
        e >>= 1
    return r


# ---- affine group law (None = point at infinity) -----------------------------------------------
def ec_add(F, p, q):
    if p is None:
        return q
    if q is None:
        return p
    if p[0] == q[0]:
        if p[1] != q[1] or F.is_zero(p[1]):
            return None
        lam = F.mul(F.mul(F.small(3), F.mul(p[0], p[0])), F.inv(F.add(p[1], p[1])))
    else:
        lam = F.mul(F.sub(q[1], p[1]), F.inv(F.sub(q[0], p[0])))
    x3 = F.sub(F.sub(F.mul(lam, lam), p[0]), q[0])
    return (x3, F.sub(F.mul(lam, F.sub(p[0], x3)), p[1]))


def ec_neg(F, p):
    return None if p is None else (p[0], F.sub(F.zero, p[1]))


def ec_mul(F, p, k):
    if k < 0:
        return ec_mul(F, ec_neg(F, p), -k)
    acc = None
    for bit in bin(k)[2:] if k else "":
        acc = ec_add(F, acc, acc)
        if bit == "1":
            acc = ec_add(F, acc, p)
    return acc


def on_curve(F, p, b):
    if p is None:
        return True
    x, y = p
    return F.mul(y, y) == F.add(F.mul(F.mul(x, x), x), b)


# ---- ZCash encodings ---------------------------------------------------------------------------
def be48(v):
    return v.to_bytes(48, "big")


def fp_largest(y):
    return y > (P - 1) // 2


def fp2_largest(y):
    return fp_largest(y[1]) if y[1] else fp_largest(y[0])


def enc_g1(p):
    if p is None:
        c = bytearray(48); c[0] = 0xC0
        u = bytearray(96); u[0] = 0x40
        return bytes(c), bytes(u)
    c = bytearray(be48(p[0]))
    c[0] |= 0x80 | (0x20 if fp_largest(p[1]) else 0)
    return bytes(c), be48(p[0]) + be48(p[1])


def enc_g2(p):
    if p is None:
        c = bytearray(96); c[0] = 0xC0
        u = bytearray(192); u[0] = 0x40
        return bytes(c), bytes(u)
    (x0, x1), (y0, y1) = p
    c = bytearray(be48(x1) + be48(x0))
    c[0] |= 0x80 | (0x20 if fp2_largest(p[1]) else 0)
    return bytes(c), be48(x1) + be48(x0) + be48(y1) + be48(y0)


def scalars():
    ks = [0, 1, 2, 3, 5, 7, 16, 255, (1 << 64) + 1, (1 << 128) - 1, R - 2, R - 1]
    rng = random.Random(0x637572766531)  # fixed seed: "curve1"
    ks += [rng.getrandbits(255) % R for _ in range(6)]
    return ks


def constants():
    B1, B2 = 4, (4, 4)
    assert on_curve(Fp, G1, B1) and on_curve(Fp2, G2, B2)
    assert ec_mul(Fp, G1, R) is None and ec_mul(Fp2, G2, R) is None
    x = X
    h1 = (x - 1) ** 2 // 3
    h2 = (x**8 - 4 * x**7 + 5 * x**6 - 4 * x**4 + 6 * x**3 - 4 * x**2 - 4 * x + 13) // 9
    t = x + 1  # Frobenius trace of E(Fp)
    assert h1 * R == P + 1 - t
    # #E'(Fp2) for the M-twist: p^2 + 1 - t2' where the twist order is h2 * r; check via trace.
    print("h1 = 0x%x" % h1)
    print("h2 = 0x%x" % h2)
    # Cube roots of unity in Fp: phi(x, y) = (beta x, y) acts on G1 as some lambda.
    g = 2
    while pow(g, (P - 1) // 3, P) == 1:
        g += 1
    b = pow(g, (P - 1) // 3, P)
    for beta in (b, b * b % P):
        phi_g = (beta * G1[0] % P, G1[1])
        if phi_g == ec_mul(Fp, G1, -(x * x)):
            print("beta (phi = [-x^2] on G1) = 0x%x" % beta)
        if phi_g == ec_mul(Fp, G1, x * x - 1):
            print("beta (phi = [x^2-1] on G1) = 0x%x" % beta)
    # psi(x, y) = (conj(x) * cx, conj(y) * cy), cx = 1/(1+u)^((p-1)/3), cy = 1/(1+u)^((p-1)/2).
    cx = Fp2.inv(fp2_pow((1, 1), (P - 1) // 3))
    cy = Fp2.inv(fp2_pow((1, 1), (P - 1) // 2))
    conj = lambda a: (a[0], -a[1] % P)
    psi_g = (Fp2.mul(conj(G2[0]), cx), Fp2.mul(conj(G2[1]), cy))
    assert on_curve(Fp2, psi_g, B2)
    print("psi(G2) == [x]G2:", psi_g == ec_mul(Fp2, G2, x))
    print("psi cx = (0x%x, 0x%x)" % cx)
    print("psi cy = (0x%x, 0x%x)" % cy)
    print("x^2 = 0x%x" % (x * x))


def c_header():
    print("/* SPDX-License-Identifier: Apache-2.0 OR MIT */")
    print("/* Generated by scripts/gen_curve_vectors.py --c-header (independent pure-Python")
    print(" * BLS12-381 reference). Do not edit. k*G1 and k*G2 in ZCash encodings. */")
    print("#ifndef CUZK_TESTS_VECTORS_CURVE_VECTORS_H")
    print("#define CUZK_TESTS_VECTORS_CURVE_VECTORS_H")
    print()
    print("typedef struct {")
    print("    const char *k;            /* scalar, big-endian hex */")
    print("    const char *compressed;   /* hex */")
    print("    const char *uncompressed; /* hex */")
    print("} curve_vector;")
    for name, F, G, enc in (("g1", Fp, G1, enc_g1), ("g2", Fp2, G2, enc_g2)):
        print()
        print("static const curve_vector curve_vectors_%s[] = {" % name)
        for k in scalars():
            c, u = enc(ec_mul(F, G, k))
            print('    {"%x",' % k)
            print('     "%s",' % c.hex())
            print('     "%s"},' % u.hex())
        print("};")
    print()
    print("#endif")


def main():
    if "--constants" in sys.argv:
        constants()
        return
    if "--c-header" in sys.argv:
        c_header()
        return
    print("# k*G1 and k*G2 ZCash encodings from scripts/gen_curve_vectors.py (pure Python reference)")
    print("# group k(hex) compressed uncompressed")
    for k in scalars():
        c, u = enc_g1(ec_mul(Fp, G1, k))
        print("g1 %x %s %s" % (k, c.hex(), u.hex()))
    for k in scalars():
        c, u = enc_g2(ec_mul(Fp2, G2, k))
        print("g2 %x %s %s" % (k, c.hex(), u.hex()))


if __name__ == "__main__":
    main()

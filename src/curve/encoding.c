/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * ZCash / IETF BLS12-381 point encodings (formats.md section 2.1): big-endian coordinates, G2
 * with c1 before c0, flags in the three top bits of byte 0 (0x80 compressed, 0x40 infinity,
 * 0x20 sign of y, compressed only).
 */
#include "cuzk/curve.h"

#include <string.h>

#define FLAG_COMPRESSED 0x80u
#define FLAG_INFINITY 0x40u
#define FLAG_SIGN 0x20u
#define FLAG_MASK 0xe0u

/*
 * Checks the flag bits of an encoding of |len| bytes that is expected to be |compressed|.
 * Sets *infinity (the encoding is a valid identity encoding) and *sign.
 */
static cuzk_status check_flags(const char *grp, const uint8_t *in, size_t len, bool compressed,
                               bool *infinity, bool *sign)
{
    unsigned f = in[0] & FLAG_MASK;
    const char *form = compressed ? "compressed" : "uncompressed";
    if (((f & FLAG_COMPRESSED) != 0) != compressed)
        return cuzk_fail(CUZK_ERR_BAD_ENCODING, "%s %s encoding: compression flag is %s", grp, form,
                         compressed ? "clear" : "set");
    if (!compressed && (f & FLAG_SIGN))
        return cuzk_fail(CUZK_ERR_BAD_ENCODING,
                         "%s uncompressed encoding: sign flag set (allowed only when compressed)",
                         grp);
    *infinity = (f & FLAG_INFINITY) != 0;
    *sign = (f & FLAG_SIGN) != 0;
    if (*infinity) {
        if (*sign)
            return cuzk_fail(CUZK_ERR_BAD_ENCODING,
                             "%s %s encoding: sign flag set on the point at infinity", grp, form);
        uint8_t acc = in[0] & (uint8_t)~FLAG_MASK;
        for (size_t i = 1; i < len; i++)
            acc |= in[i];
        if (acc != 0)
            return cuzk_fail(CUZK_ERR_BAD_ENCODING,
                             "%s %s encoding: infinity flag set but the coordinates are not zero",
                             grp, form);
    }
    return CUZK_OK;
}

/* Parses 48 big-endian bytes, ignoring the flag bits when |strip| (the first coordinate). */
static cuzk_status parse_fp(cuzk_fp_t *out, const uint8_t in[48], bool strip, const char *grp,
                            const char *what)
{
    uint8_t b[48];
    memcpy(b, in, 48);
    if (strip)
        b[0] &= (uint8_t)~FLAG_MASK;
    if (cuzk_fp_from_bytes_be(out, b) != CUZK_OK)
        return cuzk_fail(CUZK_ERR_NOT_CANONICAL, "%s encoding: coordinate %s is not below p", grp,
                         what);
    return CUZK_OK;
}

/* ---- G1 ----------------------------------------------------------------------------------- */

void cuzk_g1_serialize(uint8_t out[96], const cuzk_g1_affine_t *p)
{
    if (p->infinity) {
        memset(out, 0, 96);
        out[0] = FLAG_INFINITY;
        return;
    }
    cuzk_fp_to_bytes_be(out, &p->x);
    cuzk_fp_to_bytes_be(out + 48, &p->y);
}

void cuzk_g1_compress(uint8_t out[48], const cuzk_g1_affine_t *p)
{
    if (p->infinity) {
        memset(out, 0, 48);
        out[0] = FLAG_COMPRESSED | FLAG_INFINITY;
        return;
    }
    cuzk_fp_to_bytes_be(out, &p->x);
    out[0] |= FLAG_COMPRESSED;
    if (cuzk_fp_is_lexicographically_largest(&p->y))
        out[0] |= FLAG_SIGN;
}

static cuzk_status g1_deserialize(cuzk_g1_affine_t *out, const uint8_t in[96], bool check_group)
{
    bool inf = false, sign = false;
    cuzk_status st = check_flags("G1", in, 96, false, &inf, &sign);
    if (st != CUZK_OK)
        return st;
    cuzk_g1_affine_t p;
    if (inf) {
        cuzk_g1_affine_set_infinity(out);
        return CUZK_OK;
    }
    p.infinity = false;
    if ((st = parse_fp(&p.x, in, true, "G1", "x")) != CUZK_OK ||
        (st = parse_fp(&p.y, in + 48, false, "G1", "y")) != CUZK_OK)
        return st;
    if (!cuzk_g1_affine_is_on_curve(&p))
        return cuzk_fail(CUZK_ERR_NOT_ON_CURVE, "G1 uncompressed encoding: (x, y) is not on the "
                                                "curve y^2 = x^3 + 4");
    if (check_group && !cuzk_g1_affine_in_subgroup(&p))
        return cuzk_fail(CUZK_ERR_NOT_IN_SUBGROUP,
                         "G1 encoding: point is not in the prime-order subgroup");
    *out = p;
    return CUZK_OK;
}

cuzk_status cuzk_g1_deserialize(cuzk_g1_affine_t *out, const uint8_t in[96])
{
    return g1_deserialize(out, in, true);
}

cuzk_status cuzk_g1_deserialize_unchecked(cuzk_g1_affine_t *out, const uint8_t in[96])
{
    return g1_deserialize(out, in, false);
}

cuzk_status cuzk_g1_uncompress(cuzk_g1_affine_t *out, const uint8_t in[48])
{
    bool inf = false, sign = false;
    cuzk_status st = check_flags("G1", in, 48, true, &inf, &sign);
    if (st != CUZK_OK)
        return st;
    if (inf) {
        cuzk_g1_affine_set_infinity(out);
        return CUZK_OK;
    }
    cuzk_g1_affine_t p;
    p.infinity = false;
    if ((st = parse_fp(&p.x, in, true, "G1", "x")) != CUZK_OK)
        return st;
    /* y^2 = x^3 + 4; E(Fp) has odd order, so y != 0 and the sign bit always picks one root. */
    cuzk_fp_t rhs, four;
    cuzk_fp_sqr(&rhs, &p.x);
    cuzk_fp_mul(&rhs, &rhs, &p.x);
    cuzk_fp_set_u64(&four, 4);
    cuzk_fp_add(&rhs, &rhs, &four);
    if (!cuzk_fp_sqrt(&p.y, &rhs))
        return cuzk_fail(CUZK_ERR_NOT_ON_CURVE,
                         "G1 compressed encoding: x^3 + 4 has no square root (x not on curve)");
    if (cuzk_fp_is_lexicographically_largest(&p.y) != sign)
        cuzk_fp_neg(&p.y, &p.y);
    if (!cuzk_g1_affine_in_subgroup(&p))
        return cuzk_fail(CUZK_ERR_NOT_IN_SUBGROUP,
                         "G1 encoding: point is not in the prime-order subgroup");
    *out = p;
    return CUZK_OK;
}

cuzk_status cuzk_g1_decode(cuzk_g1_affine_t *out, const uint8_t *in, size_t len)
{
    if (len == 48)
        return cuzk_g1_uncompress(out, in);
    if (len == 96)
        return cuzk_g1_deserialize(out, in);
    return cuzk_fail(CUZK_ERR_BAD_ENCODING,
                     "G1 encoding: length %zu is neither 48 (compressed) nor 96 (uncompressed)",
                     len);
}

/* ---- G2 ----------------------------------------------------------------------------------- */

void cuzk_g2_serialize(uint8_t out[192], const cuzk_g2_affine_t *p)
{
    if (p->infinity) {
        memset(out, 0, 192);
        out[0] = FLAG_INFINITY;
        return;
    }
    cuzk_fp_to_bytes_be(out, &p->x.c1);
    cuzk_fp_to_bytes_be(out + 48, &p->x.c0);
    cuzk_fp_to_bytes_be(out + 96, &p->y.c1);
    cuzk_fp_to_bytes_be(out + 144, &p->y.c0);
}

void cuzk_g2_compress(uint8_t out[96], const cuzk_g2_affine_t *p)
{
    if (p->infinity) {
        memset(out, 0, 96);
        out[0] = FLAG_COMPRESSED | FLAG_INFINITY;
        return;
    }
    cuzk_fp_to_bytes_be(out, &p->x.c1);
    cuzk_fp_to_bytes_be(out + 48, &p->x.c0);
    out[0] |= FLAG_COMPRESSED;
    if (cuzk_fp2_is_lexicographically_largest(&p->y))
        out[0] |= FLAG_SIGN;
}

static cuzk_status parse_fp2_x(cuzk_fp2_t *x, const uint8_t in[96])
{
    cuzk_status st = parse_fp(&x->c1, in, true, "G2", "x.c1");
    if (st == CUZK_OK)
        st = parse_fp(&x->c0, in + 48, false, "G2", "x.c0");
    return st;
}

static cuzk_status g2_deserialize(cuzk_g2_affine_t *out, const uint8_t in[192], bool check_group)
{
    bool inf = false, sign = false;
    cuzk_status st = check_flags("G2", in, 192, false, &inf, &sign);
    if (st != CUZK_OK)
        return st;
    if (inf) {
        cuzk_g2_affine_set_infinity(out);
        return CUZK_OK;
    }
    cuzk_g2_affine_t p;
    p.infinity = false;
    if ((st = parse_fp2_x(&p.x, in)) != CUZK_OK ||
        (st = parse_fp(&p.y.c1, in + 96, false, "G2", "y.c1")) != CUZK_OK ||
        (st = parse_fp(&p.y.c0, in + 144, false, "G2", "y.c0")) != CUZK_OK)
        return st;
    if (!cuzk_g2_affine_is_on_curve(&p))
        return cuzk_fail(CUZK_ERR_NOT_ON_CURVE, "G2 uncompressed encoding: (x, y) is not on the "
                                                "curve y^2 = x^3 + 4(1 + u)");
    if (check_group && !cuzk_g2_affine_in_subgroup(&p))
        return cuzk_fail(CUZK_ERR_NOT_IN_SUBGROUP,
                         "G2 encoding: point is not in the prime-order subgroup");
    *out = p;
    return CUZK_OK;
}

cuzk_status cuzk_g2_deserialize(cuzk_g2_affine_t *out, const uint8_t in[192])
{
    return g2_deserialize(out, in, true);
}

cuzk_status cuzk_g2_deserialize_unchecked(cuzk_g2_affine_t *out, const uint8_t in[192])
{
    return g2_deserialize(out, in, false);
}

cuzk_status cuzk_g2_uncompress(cuzk_g2_affine_t *out, const uint8_t in[96])
{
    bool inf = false, sign = false;
    cuzk_status st = check_flags("G2", in, 96, true, &inf, &sign);
    if (st != CUZK_OK)
        return st;
    if (inf) {
        cuzk_g2_affine_set_infinity(out);
        return CUZK_OK;
    }
    cuzk_g2_affine_t p;
    p.infinity = false;
    if ((st = parse_fp2_x(&p.x, in)) != CUZK_OK)
        return st;
    /* y^2 = x^3 + 4(1 + u); E'(Fp2) has odd order, so y != 0. */
    cuzk_fp2_t rhs, b;
    cuzk_fp_set_u64(&b.c0, 4);
    b.c1 = b.c0;
    cuzk_fp2_sqr(&rhs, &p.x);
    cuzk_fp2_mul(&rhs, &rhs, &p.x);
    cuzk_fp2_add(&rhs, &rhs, &b);
    if (!cuzk_fp2_sqrt(&p.y, &rhs))
        return cuzk_fail(CUZK_ERR_NOT_ON_CURVE, "G2 compressed encoding: x^3 + 4(1 + u) has no "
                                                "square root (x not on curve)");
    if (cuzk_fp2_is_lexicographically_largest(&p.y) != sign)
        cuzk_fp2_neg(&p.y, &p.y);
    if (!cuzk_g2_affine_in_subgroup(&p))
        return cuzk_fail(CUZK_ERR_NOT_IN_SUBGROUP,
                         "G2 encoding: point is not in the prime-order subgroup");
    *out = p;
    return CUZK_OK;
}

cuzk_status cuzk_g2_decode(cuzk_g2_affine_t *out, const uint8_t *in, size_t len)
{
    if (len == 96)
        return cuzk_g2_uncompress(out, in);
    if (len == 192)
        return cuzk_g2_deserialize(out, in);
    return cuzk_fail(CUZK_ERR_BAD_ENCODING,
                     "G2 encoding: length %zu is neither 96 (compressed) nor 192 (uncompressed)",
                     len);
}

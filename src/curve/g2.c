/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* G2: y^2 = x^3 + 4(1 + u) over Fp2 (M-twist). The group law comes from point_impl.h. */
#include "cuzk/curve.h"
#include "curve/curve_internal.h"

/* clang-format off */
#define FP_(a, b, c, d, e, f) {{a##ULL, b##ULL, c##ULL, d##ULL, e##ULL, f##ULL}}
/* clang-format on */

/* Montgomery-form constants; scripts/gen_curve_vectors.py --constants prints the derived ones. */
static const cuzk_fp2_t G2_B = {FP_(0xaa270000000cfff3, 0x53cc0032fc34000a, 0x478fe97a6b0a807f,
                                    0xb1d37ebee6ba24d7, 0x8ec9733bbf78ab2f, 0x09d645513d83de7e),
                                FP_(0xaa270000000cfff3, 0x53cc0032fc34000a, 0x478fe97a6b0a807f,
                                    0xb1d37ebee6ba24d7, 0x8ec9733bbf78ab2f, 0x09d645513d83de7e)};
static const cuzk_fp2_t G2_GEN_X = {FP_(0xf5f28fa202940a10, 0xb3f5fb2687b4961a, 0xa1a893b53e2ae580,
                                        0x9894999d1a3caee9, 0x6f67b7631863366b, 0x058191924350bcd7),
                                    FP_(0xa5a9c0759e23f606, 0xaaa0c59dbccd60c3, 0x3bb17e18e2867806,
                                        0x1b1ab6cc8541b367, 0xc2b6ed0ef2158547,
                                        0x11922a097360edf3)};
static const cuzk_fp2_t G2_GEN_Y = {FP_(0x4c730af860494c4a, 0x597cfa1f5e369c5a, 0xe7e6856caa0a635a,
                                        0xbbefb5e96e0d495f, 0x07d3a975f0ef25a2, 0x0083fd8e7e80dae5),
                                    FP_(0xadc0fc92df64b05d, 0x18aa270a2b1461dc, 0x86adac6a3be4eba0,
                                        0x79495c4ec93da33a, 0xe7175850a43ccaed,
                                        0x0b2bc2a163de1bf2)};
/* psi(x, y) = (conj(x) cx, conj(y) cy) with cx = 1/(1+u)^((p-1)/3), cy = 1/(1+u)^((p-1)/2). */
static const cuzk_fp2_t G2_PSI_CX = {
    FP_(0, 0, 0, 0, 0, 0), FP_(0x890dc9e4867545c3, 0x2af322533285a5d5, 0x50880866309b7e2c,
                               0xa20d1b8c7e881024, 0x14e4f04fe2db9068, 0x14e56d3f1564853a)};
static const cuzk_fp2_t G2_PSI_CY = {
    FP_(0x3e2f585da55c9ad1, 0x4294213d86c18183, 0x382844c88b623732, 0x92ad2afd19103e18,
        0x1d794e4fac7cf0b9, 0x0bd592fc7d825ec8),
    FP_(0x7bcfa7a25aa30fda, 0xdc17dec12a927e7c, 0x2f088dd86b4ebef1, 0xd1ca2087da74d4a7,
        0x2da2596696cebc1d, 0x0e2b7eedbbfd87d2)};

#define G_(name) cuzk_g2_##name
#define F_T cuzk_fp2_t
#define F_ZERO cuzk_fp2_set_zero
#define F_ONE cuzk_fp2_set_one
#define F_IS_ZERO cuzk_fp2_is_zero
#define F_EQ cuzk_fp2_eq
#define F_ADD cuzk_fp2_add
#define F_SUB cuzk_fp2_sub
#define F_NEG cuzk_fp2_neg
#define F_DBL cuzk_fp2_dbl
#define F_MUL cuzk_fp2_mul
#define F_SQR cuzk_fp2_sqr
#define F_INV cuzk_fp2_inv
#define F_CMOV cuzk_fp2_cmov
#define AFF_T cuzk_g2_affine_t
#define JAC_T cuzk_g2_jac_t
#define XYZZ_T cuzk_g2_xyzz_t
#define CURVE_B (&G2_B)
#include "curve/point_impl.h"

void cuzk_g2_generator(cuzk_g2_affine_t *out)
{
    out->x = G2_GEN_X;
    out->y = G2_GEN_Y;
    out->infinity = false;
}

void cuzk__g2_psi(cuzk_g2_jac_t *out, const cuzk_g2_jac_t *p)
{
    /* Frobenius commutes with the projective quotients: (X^p cx, Y^p cy, Z^p). */
    cuzk_fp2_conj(&out->x, &p->x);
    cuzk_fp2_mul(&out->x, &out->x, &G2_PSI_CX);
    cuzk_fp2_conj(&out->y, &p->y);
    cuzk_fp2_mul(&out->y, &out->y, &G2_PSI_CY);
    cuzk_fp2_conj(&out->z, &p->z);
}

/*
 * GLS with psi = [x] on G2, x = -c, c = 0xd201000000010000. Since r < c^4, the canonical k has
 * four base-c digits: k = d0 + d1 c + d2 c^2 + d3 c^3 = sum d_i (-x)^i, so
 * k P = sum d_i ((-1)^i psi^i(P)): four 64-bit scalars, evaluated jointly with width-5 wNAF.
 * Valid only for P in G2 (psi acts as x there only).
 */
void cuzk_g2_mul_vartime(cuzk_g2_jac_t *out, const cuzk_g2_jac_t *p, const cuzk_fr_t *k)
{
    uint64_t t[CUZK_FR_LIMBS], d[4];
    cuzk_fr_to_canonical(t, k);
    for (size_t i = 0; i < 4; i++) {
        unsigned __int128 rem = 0;
        for (size_t j = CUZK_FR_LIMBS; j-- > 0;) {
            unsigned __int128 cur = (rem << 64) | t[j];
            t[j] = (uint64_t)(cur / CUZK_BLS_X_ABS);
            rem = cur % CUZK_BLS_X_ABS;
        }
        d[i] = (uint64_t)rem;
    }
    int8_t digits[4][65];
    size_t len[4], maxlen = 0;
    cuzk_g2_jac_t table[4][CURVE_WNAF_TABLE], acc;
    cuzk_g2_odd_multiples_(table[0], p, CURVE_WNAF_TABLE);
    for (size_t i = 0; i < 4; i++) {
        len[i] = cuzk_g2_wnaf_(digits[i], &d[i], 1, CURVE_WNAF_W);
        if (len[i] > maxlen)
            maxlen = len[i];
        if (i == 0)
            continue;
        for (size_t j = 0; j < CURVE_WNAF_TABLE; j++) {
            /* table[i] = -psi(table[i-1]) = (-1)^i psi^i(table[0]) */
            cuzk__g2_psi(&table[i][j], &table[i - 1][j]);
            cuzk_g2_neg(&table[i][j], &table[i][j]);
        }
    }
    cuzk_g2_jac_set_infinity(&acc);
    for (size_t b = maxlen; b-- > 0;) {
        cuzk_g2_dbl(&acc, &acc);
        for (size_t i = 0; i < 4; i++)
            if (b < len[i])
                cuzk_g2_add_digit_(&acc, table[i], digits[i][b]);
    }
    *out = acc;
}

/* Scott (eprint 2021/1130): a point P of E'(Fp2) lies in G2 iff psi(P) = [x] P. */
bool cuzk_g2_in_subgroup(const cuzk_g2_jac_t *p)
{
    if (!cuzk_g2_is_on_curve(p))
        return false;
    if (cuzk_g2_jac_is_infinity(p))
        return true;
    cuzk_g2_jac_t psi, acc = *p;
    for (int i = 62; i >= 0; i--) {
        cuzk_g2_dbl(&acc, &acc);
        if ((CUZK_BLS_X_ABS >> i) & 1)
            cuzk_g2_add(&acc, &acc, p);
    }
    cuzk_g2_neg(&acc, &acc); /* [x] P, x < 0 */
    cuzk__g2_psi(&psi, p);
    return cuzk_g2_eq(&psi, &acc);
}

bool cuzk_g2_affine_in_subgroup(const cuzk_g2_affine_t *p)
{
    cuzk_g2_jac_t j;
    cuzk_g2_from_affine(&j, p);
    return cuzk_g2_in_subgroup(&j);
}

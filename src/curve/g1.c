/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* G1: y^2 = x^3 + 4 over Fp. The group law comes from point_impl.h. */
#include "cuzk/curve.h"
#include "curve/curve_internal.h"
#include "field/fp_addsub.h"

/* Montgomery-form constants; scripts/gen_curve_vectors.py --constants prints the derived
 * canonical values. Tests check them through their effects: the generator against the
 * independent vectors, b through random curve points, beta in curve_g1_endomorphism. */
static const cuzk_fp_t G1_B = {{0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL,
                                0xb1d37ebee6ba24d7ULL, 0x8ec9733bbf78ab2fULL,
                                0x09d645513d83de7eULL}};
static const cuzk_fp_t G1_GEN_X = {{0x5cb38790fd530c16ULL, 0x7817fc679976fff5ULL,
                                    0x154f95c7143ba1c1ULL, 0xf0ae6acdf3d0e747ULL,
                                    0xedce6ecc21dbf440ULL, 0x120177419e0bfb75ULL}};
static const cuzk_fp_t G1_GEN_Y = {{0xbaac93d50ce72271ULL, 0x8c22631a7918fd8eULL,
                                    0xdd595f13570725ceULL, 0x51ac582950405194ULL,
                                    0x0e1c8c3fad0059c0ULL, 0x0bbc3efc5008a26aULL}};
/* beta = 0x5f19672f...fffefffe, the primitive cube root of unity for which phi = [-x^2] on G1
 * (the other root gives [x^2 - 1]). */
static const cuzk_fp_t G1_BETA = {{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL,
                                   0x16a8ca3ac61577f7ULL, 0xc26a2ff874fd029bULL,
                                   0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}};

/* The group law's additions inline (src/field/fp_addsub.h), not calls. */
static inline void g1_fp_add(cuzk_fp_t *r, const cuzk_fp_t *a, const cuzk_fp_t *b)
{
    cuzk__fp_add_inline(r->l, a->l, b->l);
}

static inline void g1_fp_sub(cuzk_fp_t *r, const cuzk_fp_t *a, const cuzk_fp_t *b)
{
    cuzk__fp_sub_inline(r->l, a->l, b->l);
}

#define G_(name) cuzk_g1_##name
#define F_T cuzk_fp_t
#define F_ZERO cuzk_fp_set_zero
#define F_ONE cuzk_fp_set_one
#define F_IS_ZERO cuzk_fp_is_zero
#define F_EQ cuzk_fp_eq
#define F_ADD g1_fp_add
#define F_SUB g1_fp_sub
#define F_NEG cuzk_fp_neg
#define F_DBL cuzk_fp_dbl
#define F_MUL cuzk_fp_mul
#define F_SQR cuzk_fp_sqr
#define F_INV cuzk_fp_inv
#define F_CMOV cuzk_fp_cmov
#define AFF_T cuzk_g1_affine_t
#define JAC_T cuzk_g1_jac_t
#define XYZZ_T cuzk_g1_xyzz_t
#define CURVE_B (&G1_B)
#include "curve/point_impl.h"

void cuzk_g1_generator(cuzk_g1_affine_t *out)
{
    out->x = G1_GEN_X;
    out->y = G1_GEN_Y;
    out->infinity = false;
}

void cuzk__g1_phi(cuzk_g1_jac_t *out, const cuzk_g1_jac_t *p)
{
    /* x = X/Z^2, so (beta X, Y, Z) represents (beta x, y). */
    cuzk_fp_mul(&out->x, &p->x, &G1_BETA);
    out->y = p->y;
    out->z = p->z;
}

/*
 * GLV (Gallant-Lambert-Vanstone) with phi = [lambda], lambda = -z, z = x^2 (128 bits). Since
 * r = z^2 - z + 1, dividing the canonical k < r by z gives k = q z + s with q, s < z, and
 * k P = s P + q (-phi(P)): two 128-bit scalars, evaluated jointly with width-5 wNAF (Straus).
 * Valid only for P in G1 (phi acts as lambda there only).
 */
void cuzk_g1_mul_vartime(cuzk_g1_jac_t *out, const cuzk_g1_jac_t *p, const cuzk_fr_t *k)
{
    static const unsigned __int128 z =
        ((unsigned __int128)0xac45a4010001a402ULL << 64) | 0x0000000100000000ULL;
    uint64_t kc[CUZK_FR_LIMBS];
    cuzk_fr_to_canonical(kc, k);
    unsigned __int128 q = 0, s = 0;
    for (int i = 255; i >= 0; i--) {
        unsigned carry = (unsigned)(s >> 127);
        s = (s << 1) | ((kc[i / 64] >> (i % 64)) & 1);
        q <<= 1;
        if (carry || s >= z) {
            s -= z; /* true value < 2z, so the wrapped difference is exact */
            q |= 1;
        }
    }
    uint64_t sl[2] = {(uint64_t)s, (uint64_t)(s >> 64)};
    uint64_t ql[2] = {(uint64_t)q, (uint64_t)(q >> 64)};
    int8_t ds[129], dq[129];
    size_t ls = cuzk_g1_wnaf_(ds, sl, 2, CURVE_WNAF_W);
    size_t lq = cuzk_g1_wnaf_(dq, ql, 2, CURVE_WNAF_W);
    cuzk_g1_jac_t tp[CURVE_WNAF_TABLE], tq[CURVE_WNAF_TABLE], acc;
    cuzk_g1_odd_multiples_(tp, p, CURVE_WNAF_TABLE);
    for (size_t i = 0; i < CURVE_WNAF_TABLE; i++) {
        cuzk__g1_phi(&tq[i], &tp[i]);
        cuzk_g1_neg(&tq[i], &tq[i]);
    }
    cuzk_g1_jac_set_infinity(&acc);
    for (size_t i = ls > lq ? ls : lq; i-- > 0;) {
        cuzk_g1_dbl(&acc, &acc);
        if (i < ls)
            cuzk_g1_add_digit_(&acc, tp, ds[i]);
        if (i < lq)
            cuzk_g1_add_digit_(&acc, tq, dq[i]);
    }
    *out = acc;
}

/* out = [|x|] p by the fixed chain of |x| = 0xd201000000010000 (63 doublings, 5 additions). */
static void g1_mul_by_x_abs(cuzk_g1_jac_t *out, const cuzk_g1_jac_t *p)
{
    cuzk_g1_jac_t acc = *p;
    for (int i = 62; i >= 0; i--) {
        cuzk_g1_dbl(&acc, &acc);
        if ((CUZK_BLS_X_ABS >> i) & 1)
            cuzk_g1_add(&acc, &acc, p);
    }
    *out = acc;
}

/*
 * Scott, "A note on group membership tests for G1, G2 and GT on BLS pairing-friendly curves"
 * (eprint 2021/1130): a point P of E(Fp) lies in G1 iff phi(P) = [-x^2] P, with phi the
 * endomorphism whose eigenvalue on G1 is -x^2. Tests cross-check this against r P = O.
 */
bool cuzk_g1_in_subgroup(const cuzk_g1_jac_t *p)
{
    if (!cuzk_g1_is_on_curve(p))
        return false;
    if (cuzk_g1_jac_is_infinity(p))
        return true;
    cuzk_g1_jac_t phi, t;
    cuzk__g1_phi(&phi, p);
    g1_mul_by_x_abs(&t, p);
    g1_mul_by_x_abs(&t, &t); /* [x^2] P */
    cuzk_g1_neg(&t, &t);
    return cuzk_g1_eq(&phi, &t);
}

bool cuzk_g1_affine_in_subgroup(const cuzk_g1_affine_t *p)
{
    cuzk_g1_jac_t j;
    cuzk_g1_from_affine(&j, p);
    return cuzk_g1_in_subgroup(&j);
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Readers of snarkjs's proof.json, public.json and verification_key.json (formats.md 4.8) into
 * cuzk's Groth16 types, so that cuzk verifies snarkjs proofs. Points are read the way
 * ffjavascript's fromObject reads them (z = 1 affine, z = 0 infinity, otherwise Jacobian) and
 * then checked more strictly than snarkjs does: on the curve and in the prime-order subgroup.
 */
#include "groth16/snarkjs_internal.h"
#include "cuzk/alloc.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

static cuzk_status parse_root(cJSON **root, const char *text, size_t len, const char *what)
{
    *root = cJSON_ParseWithLength(text, len);
    if (!*root) {
        const char *at = cJSON_GetErrorPtr();
        size_t off = at && at >= text && at <= text + len ? (size_t)(at - text) : 0;
        return cuzk_fail(CUZK_ERR_FORMAT, "%s: not valid JSON (error near byte %zu)", what, off);
    }
    return CUZK_OK;
}

static cuzk_status read_fp(cuzk_fp_t *out, const cJSON *v, const char *what)
{
    uint64_t l[6];
    if (!cJSON_IsString(v))
        return cuzk_fail(CUZK_ERR_FORMAT, "%s: expected a decimal string", what);
    if (!cuzk__dec_to_limbs(l, 6, v->valuestring, cuzk__bls_q))
        return cuzk_fail(CUZK_ERR_NOT_CANONICAL,
                         "%s: \"%.40s\" is not a canonical decimal integer below q", what,
                         v->valuestring);
    (void)cuzk_fp_from_canonical(out, l);
    return CUZK_OK;
}

static cuzk_status read_fp2(cuzk_fp2_t *out, const cJSON *v, const char *what)
{
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 2)
        return cuzk_fail(CUZK_ERR_FORMAT, "%s: expected [c0, c1]", what);
    cuzk_status s = read_fp(&out->c0, cJSON_GetArrayItem(v, 0), what);
    return s != CUZK_OK ? s : read_fp(&out->c1, cJSON_GetArrayItem(v, 1), what);
}

/* Checks a decoded point: on the curve, in the subgroup, and (if |no_identity|) not infinity. */
#define DEFINE_READ_POINT(G, F, AFF, JAC, READ_F, IS_ZERO, SET_ONE, INV, MUL, SQR)                 \
    static cuzk_status read_##G(AFF *out, const cJSON *v, const char *what, bool no_identity)      \
    {                                                                                              \
        int n = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : -1;                                     \
        if (n != 2 && n != 3)                                                                      \
            return cuzk_fail(CUZK_ERR_FORMAT, "%s: expected an array of 2 or 3 coordinates",       \
                             what);                                                                \
        F x, y, z;                                                                                 \
        cuzk_status s;                                                                             \
        if ((s = READ_F(&x, cJSON_GetArrayItem(v, 0), what)) != CUZK_OK ||                         \
            (s = READ_F(&y, cJSON_GetArrayItem(v, 1), what)) != CUZK_OK)                           \
            return s;                                                                              \
        if (n == 3) {                                                                              \
            if ((s = READ_F(&z, cJSON_GetArrayItem(v, 2), what)) != CUZK_OK)                       \
                return s;                                                                          \
        } else {                                                                                   \
            SET_ONE(&z);                                                                           \
        }                                                                                          \
        AFF p;                                                                                     \
        memset(&p, 0, sizeof p);                                                                   \
        if (IS_ZERO(&z)) {                                                                         \
            cuzk_##G##_affine_set_infinity(&p);                                                    \
        } else {                                                                                   \
            /* Jacobian (X, Y, Z) -> (X / Z^2, Y / Z^3); z = 1 leaves the point unchanged. */      \
            F zi, zi2;                                                                             \
            INV(&zi, &z);                                                                          \
            SQR(&zi2, &zi);                                                                        \
            MUL(&p.x, &x, &zi2);                                                                   \
            MUL(&zi2, &zi2, &zi);                                                                  \
            MUL(&p.y, &y, &zi2);                                                                   \
            p.infinity = false;                                                                    \
            if (!cuzk_##G##_affine_is_on_curve(&p))                                                \
                return cuzk_fail(CUZK_ERR_NOT_ON_CURVE, "%s: the point is not on the curve",       \
                                 what);                                                            \
            if (!cuzk_##G##_affine_in_subgroup(&p))                                                \
                return cuzk_fail(CUZK_ERR_NOT_IN_SUBGROUP,                                         \
                                 "%s: the point is not in the prime-order subgroup", what);        \
        }                                                                                          \
        if (p.infinity && no_identity)                                                             \
            return cuzk_fail(CUZK_ERR_BAD_ENCODING, "%s: the point at infinity", what);            \
        *out = p;                                                                                  \
        return CUZK_OK;                                                                            \
    }

DEFINE_READ_POINT(g1, cuzk_fp_t, cuzk_g1_affine_t, cuzk_g1_jac_t, read_fp, cuzk_fp_is_zero,
                  cuzk_fp_set_one, cuzk_fp_inv_vartime, cuzk_fp_mul, cuzk_fp_sqr)
DEFINE_READ_POINT(g2, cuzk_fp2_t, cuzk_g2_affine_t, cuzk_g2_jac_t, read_fp2, cuzk_fp2_is_zero,
                  cuzk_fp2_set_one, cuzk_fp2_inv_vartime, cuzk_fp2_mul, cuzk_fp2_sqr)

static const cJSON *member(const cJSON *root, const char *k)
{
    return cJSON_GetObjectItemCaseSensitive(root, k);
}

cuzk_status cuzk_snarkjs_proof_from_json(cuzk_groth16_proof *out, const char *text, size_t len)
{
    cJSON *root;
    memset(out, 0, sizeof *out);
    cuzk_status s = parse_root(&root, text, len, "proof.json");
    if (s != CUZK_OK)
        return s;
    cuzk_groth16_proof p;
    const cJSON *proto = member(root, "protocol"), *curve = member(root, "curve");
    if (!cJSON_IsObject(root)) {
        s = cuzk_fail(CUZK_ERR_FORMAT, "proof.json: not a JSON object");
    } else if (proto && (!cJSON_IsString(proto) || strcmp(proto->valuestring, "groth16") != 0)) {
        s = cuzk_fail(CUZK_ERR_UNSUPPORTED, "proof.json: protocol is not \"groth16\"");
    } else if (curve && (!cJSON_IsString(curve) || strcmp(curve->valuestring, "bls12381") != 0)) {
        s = cuzk_fail(CUZK_ERR_UNSUPPORTED, "proof.json: curve \"%.20s\" is not \"bls12381\"",
                      cJSON_IsString(curve) ? curve->valuestring : "?");
    } else if ((s = read_g1(&p.a, member(root, "pi_a"), "proof.json pi_a", true)) == CUZK_OK &&
               (s = read_g2(&p.b, member(root, "pi_b"), "proof.json pi_b", true)) == CUZK_OK &&
               (s = read_g1(&p.c, member(root, "pi_c"), "proof.json pi_c", true)) == CUZK_OK) {
        *out = p;
    }
    cJSON_Delete(root);
    return s;
}

cuzk_status cuzk_snarkjs_public_from_json(cuzk_fr_t **out, size_t *n, const char *text, size_t len)
{
    *out = NULL;
    *n = 0;
    cJSON *root;
    cuzk_status s = parse_root(&root, text, len, "public.json");
    if (s != CUZK_OK)
        return s;
    if (!cJSON_IsArray(root)) {
        cJSON_Delete(root);
        return cuzk_fail(CUZK_ERR_FORMAT, "public.json: not a JSON array");
    }
    size_t cnt = (size_t)cJSON_GetArraySize(root);
    cuzk_fr_t *v = NULL;
    if (cnt) {
        v = cuzk_alloc_array(cnt, sizeof *v);
        if (!v) {
            cJSON_Delete(root);
            return cuzk_fail(CUZK_ERR_NOMEM, "public.json: cannot allocate %zu values", cnt);
        }
    }
    size_t i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, root)
    {
        uint64_t l[4];
        if (!cJSON_IsString(e)) {
            s = cuzk_fail(CUZK_ERR_FORMAT, "public.json: entry %zu is not a string", i);
            break;
        }
        if (!cuzk__dec_to_limbs(l, 4, e->valuestring, cuzk__bls_r)) {
            s = cuzk_fail(CUZK_ERR_NOT_CANONICAL,
                          "public.json: entry %zu \"%.40s\" is not a canonical decimal integer "
                          "below r",
                          i, e->valuestring);
            break;
        }
        (void)cuzk_fr_from_canonical(&v[i++], l);
    }
    cJSON_Delete(root);
    if (s != CUZK_OK) {
        cuzk_free(v);
        return s;
    }
    *out = v;
    *n = cnt;
    return CUZK_OK;
}

cuzk_status cuzk_snarkjs_vk_from_json(cuzk_groth16_vk **out, const char *text, size_t len)
{
    *out = NULL;
    cJSON *root;
    cuzk_status s = parse_root(&root, text, len, "verification_key.json");
    if (s != CUZK_OK)
        return s;
    const cJSON *proto = member(root, "protocol"), *curve = member(root, "curve"),
                *npub = member(root, "nPublic"), *ic = member(root, "IC");
    cuzk_g1_affine_t alpha, inf1, *icp = NULL;
    cuzk_g2_affine_t beta, gamma, delta;
    cuzk_g1_affine_set_infinity(&inf1);
    size_t nic = 0;
    if (!cJSON_IsObject(root)) {
        s = cuzk_fail(CUZK_ERR_FORMAT, "verification_key.json: not a JSON object");
        goto out;
    }
    if (!cJSON_IsString(proto) || strcmp(proto->valuestring, "groth16") != 0) {
        s = cuzk_fail(CUZK_ERR_UNSUPPORTED,
                      "verification_key.json: protocol \"%.20s\" is not \"groth16\"",
                      cJSON_IsString(proto) ? proto->valuestring : "(missing)");
        goto out;
    }
    if (!cJSON_IsString(curve) || strcmp(curve->valuestring, "bls12381") != 0) {
        s = cuzk_fail(CUZK_ERR_UNSUPPORTED,
                      "verification_key.json: curve \"%.20s\" is not \"bls12381\" (cuzk supports "
                      "only BLS12-381)",
                      cJSON_IsString(curve) ? curve->valuestring : "(missing)");
        goto out;
    }
    if (!cJSON_IsArray(ic) || cJSON_GetArraySize(ic) < 1) {
        s = cuzk_fail(CUZK_ERR_FORMAT, "verification_key.json: IC is not a non-empty array");
        goto out;
    }
    nic = (size_t)cJSON_GetArraySize(ic);
    if (!cJSON_IsNumber(npub) || npub->valuedouble != (double)(nic - 1)) {
        s = cuzk_fail(CUZK_ERR_FORMAT,
                      "verification_key.json: nPublic must be a number equal to the %zu IC "
                      "points minus one",
                      nic);
        goto out;
    }
    if ((s = read_g1(&alpha, member(root, "vk_alpha_1"), "verification_key.json vk_alpha_1",
                     true)) != CUZK_OK ||
        (s = read_g2(&beta, member(root, "vk_beta_2"), "verification_key.json vk_beta_2", true)) !=
            CUZK_OK ||
        (s = read_g2(&gamma, member(root, "vk_gamma_2"), "verification_key.json vk_gamma_2",
                     true)) != CUZK_OK ||
        (s = read_g2(&delta, member(root, "vk_delta_2"), "verification_key.json vk_delta_2",
                     true)) != CUZK_OK)
        goto out;
    icp = cuzk_alloc_array(nic, sizeof *icp);
    if (!icp) {
        s = cuzk_fail(CUZK_ERR_NOMEM, "verification_key.json: cannot allocate %zu IC points", nic);
        goto out;
    }
    size_t i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, ic)
    {
        char what[48];
        snprintf(what, sizeof what, "verification_key.json IC[%zu]", i);
        if ((s = read_g1(&icp[i++], e, what, false)) != CUZK_OK)
            goto out;
    }
    /* beta_1 and delta_1 are not in the file and not needed to verify. */
    s = cuzk__snarkjs_make_vk(out, &alpha, &inf1, &beta, &gamma, &inf1, &delta, icp, nic);
out:
    cuzk_free(icp);
    cJSON_Delete(root);
    return s;
}

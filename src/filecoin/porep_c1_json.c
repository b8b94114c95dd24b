/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * PoRep C1 as serde_json (SealCommitPhase1Output, filecoin-circuits.md 7.1; field names as
 * curio lib/proof/porep_vproof_types.go mirrors them) and Curio's wrapper around it
 * ({"SectorNum", "Phase1Out": base64, "SectorSize"}). Domains are arrays of 32 integers; the
 * vanilla proofs sit under the V1 size name for every API version.
 */
#include "filecoin/porep_vanilla.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/alloc.h"
#include "cuzk/r1cs.h"

static const char *const V1_NAMES[5] = {"StackedDrg2KiBV1", "StackedDrg8MiBV1",
                                        "StackedDrg512MiBV1", "StackedDrg32GiBV1",
                                        "StackedDrg64GiBV1"};

/* ---- reading ------------------------------------------------------------------------------- */

typedef struct {
    char where[96];
} jctx;

static cuzk_status jbad(const jctx *x, const char *what, const char *why)
{
    return cuzk_fail(CUZK_ERR_FORMAT, "%s: %s %s", x->where, what, why);
}

static cuzk_status j_get(const jctx *x, const cJSON **out, const cJSON *obj, const char *key)
{
    *out = cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
    if (!*out)
        return jbad(x, key, "is missing");
    return CUZK_OK;
}

static cuzk_status j_u64(const jctx *x, uint64_t *v, const cJSON *obj, const char *key,
                         uint64_t max)
{
    const cJSON *it;
    CUZK_TRY(j_get(x, &it, obj, key));
    double d = cJSON_IsNumber(it) ? it->valuedouble : -1;
    if (d < 0 || d > (double)max || d != floor(d))
        return jbad(x, key, "is not an integer in range");
    *v = (uint64_t)d;
    return CUZK_OK;
}

static cuzk_status j_bytes(const jctx *x, uint8_t out[32], const cJSON *a, const char *what)
{
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != 32)
        return jbad(x, what, "is not an array of 32 bytes");
    size_t i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, a)
    {
        double d = cJSON_IsNumber(e) ? e->valuedouble : -1;
        if (d < 0 || d > 255 || d != floor(d))
            return jbad(x, what, "has an element that is not a byte");
        out[i++] = (uint8_t)d;
    }
    return CUZK_OK;
}

static cuzk_status j_fr(const jctx *x, cuzk_fr_t *v, const cJSON *a, const char *what)
{
    uint8_t b[32];
    CUZK_TRY(j_bytes(x, b, a, what));
    if (cuzk_fr_from_bytes_le(v, b) != CUZK_OK)
        return cuzk_fail(CUZK_ERR_NOT_CANONICAL, "%s: %s is not a canonical field element",
                         x->where, what);
    return CUZK_OK;
}

static cuzk_status j_array(const jctx *x, const cJSON **out, const cJSON *obj, const char *key,
                           size_t want)
{
    CUZK_TRY(j_get(x, out, obj, key));
    if (!cJSON_IsArray(*out))
        return jbad(x, key, "is not an array");
    if ((size_t)cJSON_GetArraySize(*out) != want) {
        char why[64];
        snprintf(why, sizeof why, "has %d elements, the shape has %zu", cJSON_GetArraySize(*out),
                 want);
        return jbad(x, key, why);
    }
    return CUZK_OK;
}

/* InclusionPath {"path": [{"hashes": [...], "index": n}]} of |nlev| levels. */
static cuzk_status j_path(const jctx *x, const cJSON *ip, const size_t *arities, size_t nlev,
                          cuzk_fr_t **sib, uint64_t *index, unsigned *shift, const char *tree)
{
    const cJSON *levels, *e;
    CUZK_TRY(j_array(x, &levels, ip, "path", nlev));
    size_t l = 0;
    cJSON_ArrayForEach(e, levels)
    {
        size_t a = arities[l++];
        const cJSON *hs, *h;
        CUZK_TRY(j_array(x, &hs, e, "hashes", a - 1));
        cJSON_ArrayForEach(h, hs) CUZK_TRY(j_fr(x, (*sib)++, h, tree));
        uint64_t pos;
        CUZK_TRY(j_u64(x, &pos, e, "index", a - 1));
        *index |= pos << *shift;
        *shift += (unsigned)__builtin_ctzll(a);
    }
    return CUZK_OK;
}

static cuzk_status j_merkle(const jctx *x, const cJSON *mp, const size_t *arities, size_t depth,
                            unsigned variant, cuzk_fil_porep_opening *o, const char *tree)
{
    static const char *const VARIANTS[3] = {"Single", "Sub", "Top"};
    static const char *const PATHS[3] = {"base_proof", "sub_proof", "top_proof"};
    const cJSON *data, *v;
    CUZK_TRY(j_get(x, &data, mp, "data"));
    if (!cJSON_IsObject(data) || cJSON_GetArraySize(data) != 1)
        return jbad(x, tree, "proof data is not one variant");
    CUZK_TRY(j_get(x, &v, data, VARIANTS[variant]));
    const cJSON *root, *leaf, *ip;
    CUZK_TRY(j_get(x, &root, v, "root"));
    CUZK_TRY(j_get(x, &leaf, v, "leaf"));
    CUZK_TRY(j_fr(x, &o->root, root, tree));
    CUZK_TRY(j_fr(x, &o->leaf, leaf, tree));
    o->index = 0;
    unsigned shift = 0;
    cuzk_fr_t *sib = o->siblings;
    if (variant == 0) {
        CUZK_TRY(j_get(x, &ip, v, "path"));
        return j_path(x, ip, arities, depth, &sib, &o->index, &shift, tree);
    }
    size_t base = depth - variant;
    for (unsigned k = 0; k <= variant; k++) {
        CUZK_TRY(j_get(x, &ip, v, PATHS[k]));
        size_t lev = k == 0 ? 0 : base + k - 1;
        CUZK_TRY(j_path(x, ip, &arities[lev], k == 0 ? base : 1, &sib, &o->index, &shift, tree));
    }
    return CUZK_OK;
}

static cuzk_status j_column(const jctx *x, const cJSON *cp, const cuzk_fil_porep_c1_shape *sh,
                            cuzk_fil_porep_column *c)
{
    const cJSON *col, *rows, *r, *ip;
    CUZK_TRY(j_get(x, &col, cp, "column"));
    uint64_t idx;
    CUZK_TRY(j_u64(x, &idx, col, "index", UINT32_MAX));
    c->index = (uint32_t)idx;
    CUZK_TRY(j_array(x, &rows, col, "rows", sh->layers));
    size_t l = 0;
    cJSON_ArrayForEach(r, rows) CUZK_TRY(j_fr(x, &c->rows[l++], r, "a column row"));
    CUZK_TRY(j_get(x, &ip, cp, "inclusion_proof"));
    return j_merkle(x, ip, sh->arities, sh->depth, sh->variant, &c->proof, "tree C");
}

static cuzk_status j_labeling(const jctx *x, const cJSON *lp, cuzk_fr_t *parents, size_t np,
                              uint32_t *layer, uint64_t *node)
{
    const cJSON *ps, *p;
    CUZK_TRY(j_array(x, &ps, lp, "parents", np));
    size_t j = 0;
    cJSON_ArrayForEach(p, ps) CUZK_TRY(j_fr(x, &parents[j++], p, "a labeling parent"));
    uint64_t li;
    CUZK_TRY(j_u64(x, &li, lp, "layer_index", UINT32_MAX));
    *layer = (uint32_t)li;
    return j_u64(x, node, lp, "node", UINT64_MAX >> 11);
}

static cuzk_status j_proof(const jctx *x, const cJSON *pr, const cuzk_fil_porep_c1_shape *sh,
                           cuzk_fil_porep_challenge_proof *cp)
{
    size_t twos[64];
    for (size_t i = 0; i < 64; i++)
        twos[i] = 2;
    const cJSON *it, *rc, *e;
    CUZK_TRY(j_get(x, &it, pr, "comm_d_proofs"));
    CUZK_TRY(j_merkle(x, it, twos, sh->depth_d, 0, &cp->comm_d, "tree D"));
    CUZK_TRY(j_get(x, &it, pr, "comm_r_last_proof"));
    CUZK_TRY(j_merkle(x, it, sh->arities, sh->depth, sh->variant, &cp->comm_r_last, "tree R_last"));
    CUZK_TRY(j_get(x, &rc, pr, "replica_column_proofs"));
    CUZK_TRY(j_get(x, &it, rc, "c_x"));
    CUZK_TRY(j_column(x, it, sh, &cp->c_x));
    size_t j = 0;
    CUZK_TRY(j_array(x, &it, rc, "drg_parents", CUZK_FIL_POREP_DRG_PARENTS));
    cJSON_ArrayForEach(e, it) CUZK_TRY(j_column(x, e, sh, &cp->drg[j++]));
    j = 0;
    CUZK_TRY(j_array(x, &it, rc, "exp_parents", CUZK_FIL_POREP_EXP_PARENTS));
    cJSON_ArrayForEach(e, it) CUZK_TRY(j_column(x, e, sh, &cp->exp[j++]));
    size_t l = 0;
    CUZK_TRY(j_array(x, &it, pr, "labeling_proofs", sh->layers));
    cJSON_ArrayForEach(e, it)
    {
        CUZK_TRY(j_labeling(x, e, &cp->label_parents[l * CUZK_FIL_POREP_PARENTS],
                            l ? CUZK_FIL_POREP_PARENTS : CUZK_FIL_POREP_DRG_PARENTS,
                            &cp->label_layer[l], &cp->label_node[l]));
        l++;
    }
    CUZK_TRY(j_get(x, &it, pr, "encoding_proof"));
    return j_labeling(x, it, cp->enc_parents,
                      sh->layers > 1 ? CUZK_FIL_POREP_PARENTS : CUZK_FIL_POREP_DRG_PARENTS,
                      &cp->enc_layer, &cp->enc_node);
}

static cuzk_status j_c1(const cJSON *root, cuzk_fil_porep_c1 **out, bool check)
{
    jctx x = {"PoRep C1"};
    const cJSON *rp, *vp, *parts, *part, *pr;
    CUZK_TRY(j_get(&x, &rp, root, "registered_proof"));
    if (!cJSON_IsString(rp))
        return jbad(&x, "registered_proof", "is not a string");
    uint64_t id;
    CUZK_TRY(cuzk_fil_seal_proof_from_name(&id, rp->valuestring));
    cuzk_fil_porep_c1_shape sh;
    CUZK_TRY(cuzk_fil_porep_c1_shape_get(&sh, id));
    CUZK_TRY(j_get(&x, &vp, root, "vanilla_proofs"));
    size_t np = sh.partitions;
    if (!check) { /* tests: any count of whole partitions */
        CUZK_TRY(j_get(&x, &parts, vp, V1_NAMES[id % 5]));
        np = cJSON_IsArray(parts) ? (size_t)cJSON_GetArraySize(parts) : 0;
    }
    CUZK_TRY(j_array(&x, &parts, vp, V1_NAMES[id % 5], np));
    cuzk_fil_porep_c1 *c1;
    CUZK_TRY(cuzk_fil_porep_c1_alloc(&c1, &sh, np));
    static const char *const KEYS[5] = {"comm_r", "comm_d", "replica_id", "seed", "ticket"};
    uint8_t *dst[5] = {c1->comm_r, c1->comm_d, c1->replica_id, c1->seed, c1->ticket};
    cuzk_status s = CUZK_OK;
    for (int k = 0; k < 5 && s == CUZK_OK; k++) {
        const cJSON *it;
        s = j_get(&x, &it, root, KEYS[k]);
        if (s == CUZK_OK)
            s = j_bytes(&x, dst[k], it, KEYS[k]);
    }
    size_t p = 0;
    cJSON_ArrayForEach(part, parts)
    {
        if (s != CUZK_OK)
            break;
        snprintf(x.where, sizeof x.where, "PoRep C1 partition %zu", p);
        if (!cJSON_IsArray(part) || (size_t)cJSON_GetArraySize(part) != sh.challenges) {
            s = jbad(&x, "the partition", "is not an array of the shape's challenge proofs");
            break;
        }
        size_t i = 0;
        cJSON_ArrayForEach(pr, part)
        {
            snprintf(x.where, sizeof x.where, "PoRep C1 partition %zu, challenge %zu", p, i);
            s = j_proof(&x, pr, &sh, &c1->proofs[p * sh.challenges + i]);
            if (s != CUZK_OK)
                break;
            i++;
        }
        p++;
    }
    if (s == CUZK_OK && check)
        s = cuzk_fil_porep_c1_check(c1);
    if (s != CUZK_OK) {
        cuzk_fil_porep_c1_destroy(c1);
        return s;
    }
    *out = c1;
    return CUZK_OK;
}

/* The whole of |json| as one value: trailing bytes other than white space are refused. (cJSON
 * reports running out of memory as a parse error: the message says both.) */
static cJSON *parse_all(const char *json, size_t len)
{
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(json, len, &end, false);
    for (const char *p = end; root && p && p < json + len; p++) {
        if (*p != ' ' && *p != '\n' && *p != '\r' && *p != '\t' && *p != '\0') {
            cJSON_Delete(root);
            root = NULL;
        }
    }
    return root;
}

cuzk_status cuzk_fil_porep_c1_from_json(cuzk_fil_porep_c1 **out, const char *json, size_t len)
{
    return cuzk__fil_porep_c1_decode_json(out, json, len, true);
}

cuzk_status cuzk__fil_porep_c1_decode_json(cuzk_fil_porep_c1 **out, const char *json, size_t len,
                                           bool check)
{
    *out = NULL;
    cJSON *root = parse_all(json, len);
    if (!root)
        return cuzk_fail(CUZK_ERR_FORMAT, "PoRep C1: not valid JSON (or no memory to parse it)");
    cuzk_status s = j_c1(root, out, check);
    cJSON_Delete(root);
    return s;
}

cuzk_status cuzk_fil_porep_c1_from_curio(cuzk_fil_porep_c1 **out, uint64_t *sector_num,
                                         const char *json, size_t len)
{
    *out = NULL;
    jctx x = {"Curio C1 wrapper"};
    cJSON *root = parse_all(json, len);
    if (!root)
        return cuzk_fail(CUZK_ERR_FORMAT,
                         "Curio C1 wrapper: not valid JSON (or no memory to parse it)");
    const cJSON *b64;
    uint64_t num = 0, size = 0;
    uint8_t *raw = NULL;
    cuzk_status s = j_u64(&x, &num, root, "SectorNum", UINT64_MAX >> 11);
    if (s == CUZK_OK)
        s = j_u64(&x, &size, root, "SectorSize", UINT64_MAX >> 11);
    if (s == CUZK_OK)
        s = j_get(&x, &b64, root, "Phase1Out");
    if (s == CUZK_OK && !cJSON_IsString(b64))
        s = jbad(&x, "Phase1Out", "is not a base64 string");
    int n = 0;
    if (s == CUZK_OK) {
        size_t blen = strlen(b64->valuestring);
        raw = blen < INT32_MAX ? cuzk_alloc(blen / 4 * 3 + 4) : NULL;
        EVP_ENCODE_CTX *ctx = EVP_ENCODE_CTX_new();
        int m = 0;
        if (!raw || !ctx)
            s = cuzk_fail(CUZK_ERR_NOMEM, "Curio C1 wrapper: decoding %zu base64 bytes", blen);
        else {
            EVP_DecodeInit(ctx);
            if (EVP_DecodeUpdate(ctx, raw, &n, (const unsigned char *)b64->valuestring, (int)blen) <
                    0 ||
                EVP_DecodeFinal(ctx, raw + n, &m) != 1)
                s = jbad(&x, "Phase1Out", "is not valid base64");
            n += m;
        }
        EVP_ENCODE_CTX_free(ctx);
    }
    cuzk_fil_porep_c1 *c1 = NULL;
    if (s == CUZK_OK)
        s = cuzk_fil_porep_c1_from_json(&c1, (const char *)raw, (size_t)n);
    if (s == CUZK_OK && c1->shape.sector_size != size) {
        s = cuzk_fail(CUZK_ERR_INVALID_ARG,
                      "Curio C1 wrapper: SectorSize %llu, the C1's proof is of %llu-byte sectors",
                      (unsigned long long)size, (unsigned long long)c1->shape.sector_size);
        cuzk_fil_porep_c1_destroy(c1);
        c1 = NULL;
    }
    cuzk_free(raw);
    cJSON_Delete(root);
    if (s == CUZK_OK) {
        *out = c1;
        if (sector_num)
            *sector_num = num;
    }
    return s;
}

/* ---- writing ------------------------------------------------------------------------------- */

/* Every cJSON_Create* may return NULL: the builders below skip work once |nomem| is set and the
 * caller checks it once. */
typedef struct {
    bool nomem;
} jw;

static cJSON *add(jw *w, cJSON *parent, const char *key, cJSON *item)
{
    if (!item) {
        w->nomem = true;
        return NULL;
    }
    if (!parent)
        return item;
    if (!(key ? cJSON_AddItemToObject(parent, key, item) : cJSON_AddItemToArray(parent, item))) {
        cJSON_Delete(item);
        w->nomem = true;
        return NULL;
    }
    return item;
}

static cJSON *w_bytes(jw *w, cJSON *parent, const char *key, const uint8_t b[32])
{
    cJSON *a = add(w, parent, key, cJSON_CreateArray());
    for (int i = 0; a && i < 32; i++)
        add(w, a, NULL, cJSON_CreateNumber(b[i]));
    return a;
}

static void w_fr(jw *w, cJSON *parent, const char *key, const cuzk_fr_t *v)
{
    uint8_t b[32];
    cuzk_fr_to_bytes_le(b, v);
    w_bytes(w, parent, key, b);
}

static void w_path(jw *w, cJSON *parent, const char *key, const size_t *arities, size_t nlev,
                   const cuzk_fr_t **sib, uint64_t *index)
{
    cJSON *ip = add(w, parent, key, cJSON_CreateObject());
    cJSON *levels = ip ? add(w, ip, "path", cJSON_CreateArray()) : NULL;
    for (size_t l = 0; levels && l < nlev; l++) {
        size_t a = arities[l];
        cJSON *e = add(w, levels, NULL, cJSON_CreateObject());
        cJSON *hs = e ? add(w, e, "hashes", cJSON_CreateArray()) : NULL;
        for (size_t j = 0; hs && j + 1 < a; j++)
            w_fr(w, hs, NULL, (*sib)++);
        if (e)
            add(w, e, "index", cJSON_CreateNumber((double)(*index % a)));
        *index /= a;
    }
}

static void w_merkle(jw *w, cJSON *parent, const char *key, const size_t *arities, size_t depth,
                     unsigned variant, const cuzk_fil_porep_opening *o)
{
    static const char *const VARIANTS[3] = {"Single", "Sub", "Top"};
    static const char *const PATHS[3] = {"base_proof", "sub_proof", "top_proof"};
    cJSON *mp = add(w, parent, key, cJSON_CreateObject());
    cJSON *data = mp ? add(w, mp, "data", cJSON_CreateObject()) : NULL;
    cJSON *v = data ? add(w, data, VARIANTS[variant], cJSON_CreateObject()) : NULL;
    if (!v)
        return;
    uint64_t index = o->index;
    const cuzk_fr_t *sib = o->siblings;
    if (variant == 0) {
        w_fr(w, v, "root", &o->root);
        w_fr(w, v, "leaf", &o->leaf);
        w_path(w, v, "path", arities, depth, &sib, &index);
        return;
    }
    size_t base = depth - variant;
    for (unsigned k = 0; k <= variant; k++)
        w_path(w, v, PATHS[k], &arities[k == 0 ? 0 : base + k - 1], k == 0 ? base : 1, &sib,
               &index);
    w_fr(w, v, "root", &o->root);
    w_fr(w, v, "leaf", &o->leaf);
}

static void w_column(jw *w, cJSON *parent, const char *key, const cuzk_fil_porep_c1_shape *sh,
                     const cuzk_fil_porep_column *c)
{
    cJSON *cp = add(w, parent, key, cJSON_CreateObject());
    cJSON *col = cp ? add(w, cp, "column", cJSON_CreateObject()) : NULL;
    if (!col)
        return;
    add(w, col, "index", cJSON_CreateNumber(c->index));
    cJSON *rows = add(w, col, "rows", cJSON_CreateArray());
    for (size_t l = 0; rows && l < sh->layers; l++)
        w_fr(w, rows, NULL, &c->rows[l]);
    add(w, col, "_h", cJSON_CreateNull());
    w_merkle(w, cp, "inclusion_proof", sh->arities, sh->depth, sh->variant, &c->proof);
}

static void w_labeling(jw *w, cJSON *parent, const char *key, const cuzk_fr_t *parents, size_t np,
                       uint32_t layer, uint64_t node)
{
    cJSON *lp = add(w, parent, key, cJSON_CreateObject());
    cJSON *ps = lp ? add(w, lp, "parents", cJSON_CreateArray()) : NULL;
    for (size_t j = 0; ps && j < np; j++)
        w_fr(w, ps, NULL, &parents[j]);
    if (lp) {
        add(w, lp, "layer_index", cJSON_CreateNumber(layer));
        add(w, lp, "node", cJSON_CreateNumber((double)node));
    }
}

static void w_proof(jw *w, cJSON *parent, const cuzk_fil_porep_c1_shape *sh,
                    const cuzk_fil_porep_challenge_proof *cp)
{
    size_t twos[64];
    for (size_t i = 0; i < 64; i++)
        twos[i] = 2;
    cJSON *pr = add(w, parent, NULL, cJSON_CreateObject());
    if (!pr)
        return;
    w_merkle(w, pr, "comm_d_proofs", twos, sh->depth_d, 0, &cp->comm_d);
    w_merkle(w, pr, "comm_r_last_proof", sh->arities, sh->depth, sh->variant, &cp->comm_r_last);
    cJSON *rc = add(w, pr, "replica_column_proofs", cJSON_CreateObject());
    if (rc) {
        w_column(w, rc, "c_x", sh, &cp->c_x);
        cJSON *a = add(w, rc, "drg_parents", cJSON_CreateArray());
        for (size_t j = 0; a && j < CUZK_FIL_POREP_DRG_PARENTS; j++)
            w_column(w, a, NULL, sh, &cp->drg[j]);
        a = add(w, rc, "exp_parents", cJSON_CreateArray());
        for (size_t j = 0; a && j < CUZK_FIL_POREP_EXP_PARENTS; j++)
            w_column(w, a, NULL, sh, &cp->exp[j]);
    }
    cJSON *ls = add(w, pr, "labeling_proofs", cJSON_CreateArray());
    for (size_t l = 0; ls && l < sh->layers; l++)
        w_labeling(w, ls, NULL, &cp->label_parents[l * CUZK_FIL_POREP_PARENTS],
                   l ? CUZK_FIL_POREP_PARENTS : CUZK_FIL_POREP_DRG_PARENTS, cp->label_layer[l],
                   cp->label_node[l]);
    w_labeling(w, pr, "encoding_proof", cp->enc_parents,
               sh->layers > 1 ? CUZK_FIL_POREP_PARENTS : CUZK_FIL_POREP_DRG_PARENTS, cp->enc_layer,
               cp->enc_node);
}

static cuzk_status print(cJSON *root, bool nomem, char **out, size_t *len)
{
    char *text = nomem ? NULL : cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    if (!text)
        return cuzk_fail(CUZK_ERR_NOMEM, "writing a PoRep C1 as JSON");
    size_t n = strlen(text);
    *out = cuzk_alloc(n + 1);
    if (*out) {
        memcpy(*out, text, n + 1);
        *len = n;
    }
    cJSON_free(text);
    return *out ? CUZK_OK : cuzk_fail(CUZK_ERR_NOMEM, "writing a PoRep C1 as JSON");
}

cuzk_status cuzk_fil_porep_c1_to_json(const cuzk_fil_porep_c1 *c1, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    const cuzk_fil_porep_c1_shape *sh = &c1->shape;
    jw w = {false};
    cJSON *root = add(&w, NULL, NULL, cJSON_CreateObject());
    if (!root)
        return cuzk_fail(CUZK_ERR_NOMEM, "writing a PoRep C1 as JSON");
    add(&w, root, "registered_proof",
        cJSON_CreateString(cuzk_fil_seal_proof_name(sh->seal_proof_type)));
    cJSON *vp = add(&w, root, "vanilla_proofs", cJSON_CreateObject());
    cJSON *parts = vp ? add(&w, vp, V1_NAMES[sh->seal_proof_type % 5], cJSON_CreateArray()) : NULL;
    for (size_t k = 0; parts && k < c1->npartitions; k++) {
        cJSON *part = add(&w, parts, NULL, cJSON_CreateArray());
        for (size_t i = 0; part && i < sh->challenges; i++)
            w_proof(&w, part, sh, &c1->proofs[k * sh->challenges + i]);
    }
    w_bytes(&w, root, "comm_r", c1->comm_r);
    w_bytes(&w, root, "comm_d", c1->comm_d);
    w_bytes(&w, root, "replica_id", c1->replica_id);
    w_bytes(&w, root, "seed", c1->seed);
    w_bytes(&w, root, "ticket", c1->ticket);
    return print(root, w.nomem, out, len);
}

cuzk_status cuzk_fil_porep_c1_to_curio(const cuzk_fil_porep_c1 *c1, uint64_t sector_num, char **out,
                                       size_t *len)
{
    *out = NULL;
    *len = 0;
    char *inner;
    size_t n;
    CUZK_TRY(cuzk_fil_porep_c1_to_json(c1, &inner, &n));
    char *b64 = n < INT32_MAX / 2 ? cuzk_alloc((n + 2) / 3 * 4 + 1) : NULL;
    if (!b64) {
        cuzk_free(inner);
        return cuzk_fail(CUZK_ERR_NOMEM, "writing Curio's C1 wrapper");
    }
    EVP_EncodeBlock((unsigned char *)b64, (const unsigned char *)inner, (int)n);
    cuzk_free(inner);
    jw w = {false};
    cJSON *root = add(&w, NULL, NULL, cJSON_CreateObject());
    if (root) {
        add(&w, root, "SectorNum", cJSON_CreateNumber((double)sector_num));
        add(&w, root, "Phase1Out", cJSON_CreateString(b64));
        add(&w, root, "SectorSize", cJSON_CreateNumber((double)c1->shape.sector_size));
    }
    cuzk_free(b64);
    if (!root)
        return cuzk_fail(CUZK_ERR_NOMEM, "writing Curio's C1 wrapper");
    return print(root, w.nomem, out, len);
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * snarkjs JSON writers (formats.md 4.8): proof.json, public.json and verification_key.json,
 * byte for byte as snarkjs writes them (bfj with space = 1, the same as JSON.stringify(value, null,
 * 1) except that an empty array is "[\n]"; one space per level, no final newline), plus decimal
 * conversion of field elements shared with the readers.
 */
#include "groth16/snarkjs_internal.h"
#include "cuzk/alloc.h"

#include <string.h>

/* ---- decimal integers ----------------------------------------------------------------------- */

void cuzk__dec_from_limbs(char *out, const uint64_t *v, size_t n)
{
    uint64_t t[6] = {0, 0, 0, 0, 0, 0};
    memcpy(t, v, n * sizeof *v);
    char rev[120];
    size_t len = 0;
    bool nonzero;
    do {
        /* t /= 10^19, the remainder gives 19 digits (fewer for the most significant group). */
        const uint64_t d = 10000000000000000000ULL;
        unsigned __int128 rem = 0;
        nonzero = false;
        for (size_t i = n; i-- > 0;) {
            unsigned __int128 cur = rem << 64 | t[i];
            t[i] = (uint64_t)(cur / d);
            rem = cur % d;
            nonzero = nonzero || t[i];
        }
        uint64_t r = (uint64_t)rem;
        for (int k = 0; k < 19 && (nonzero || r || k == 0); k++) {
            rev[len++] = (char)('0' + r % 10);
            r /= 10;
        }
    } while (nonzero);
    for (size_t i = 0; i < len; i++)
        out[i] = rev[len - 1 - i];
    out[len] = 0;
}

bool cuzk__dec_to_limbs(uint64_t *out, size_t n, const char *s, const uint64_t *mod)
{
    size_t len = strlen(s);
    if (len == 0 || len > 116 || (s[0] == '0' && len > 1))
        return false;
    uint64_t t[6] = {0, 0, 0, 0, 0, 0};
    for (size_t k = 0; k < len; k++) {
        if (s[k] < '0' || s[k] > '9')
            return false;
        unsigned __int128 carry = (unsigned)(s[k] - '0');
        for (size_t i = 0; i < n; i++) {
            unsigned __int128 cur = (unsigned __int128)t[i] * 10 + carry;
            t[i] = (uint64_t)cur;
            carry = cur >> 64;
        }
        if (carry)
            return false;
    }
    if (!cuzk__limbs_lt(t, mod, n))
        return false;
    memcpy(out, t, n * sizeof *t);
    return true;
}

/* ---- a JSON.stringify(x, null, 1) emitter -----------------------------------------------------
 */

#define JW_MAX_DEPTH 8

typedef struct {
    char *buf;
    size_t len, cap;
    bool oom;
    int depth;
    int count[JW_MAX_DEPTH];
} jw;

static void put(jw *w, const char *s, size_t n)
{
    if (w->oom)
        return;
    if (w->len + n + 1 > w->cap) {
        size_t cap = w->cap ? w->cap : 1024;
        while (cap < w->len + n + 1)
            cap *= 2;
        char *nb = cuzk_alloc(cap);
        if (!nb) {
            w->oom = true;
            return;
        }
        if (w->buf)
            memcpy(nb, w->buf, w->len);
        cuzk_free(w->buf);
        w->buf = nb;
        w->cap = cap;
    }
    memcpy(w->buf + w->len, s, n);
    w->len += n;
    w->buf[w->len] = 0;
}

static void puts_(jw *w, const char *s)
{
    put(w, s, strlen(s));
}

/* Newline and indentation before the next member of the open container. */
static void sep(jw *w)
{
    if (w->count[w->depth]++)
        puts_(w, ",");
    puts_(w, "\n");
    for (int i = 0; i < w->depth; i++)
        puts_(w, " ");
}

static void open_(jw *w, const char *c)
{
    puts_(w, c);
    w->depth++;
    w->count[w->depth] = 0;
}

/* Closes the open container on a new line, also when it is empty: snarkjs writes its JSON with
 * bfj (space = 1), which prints an empty public.json as "[\n]" where JSON.stringify prints "[]". */
static void close_(jw *w, const char *c)
{
    puts_(w, "\n");
    for (int i = 1; i < w->depth; i++)
        puts_(w, " ");
    w->depth--;
    puts_(w, c);
}

static void key(jw *w, const char *k)
{
    sep(w);
    puts_(w, "\"");
    puts_(w, k);
    puts_(w, "\": ");
}

static void str_item(jw *w, const char *s)
{
    sep(w);
    puts_(w, "\"");
    puts_(w, s);
    puts_(w, "\"");
}

static void fp_item(jw *w, const cuzk_fp_t *x)
{
    uint64_t l[6];
    char d[120];
    cuzk_fp_to_canonical(l, x);
    cuzk__dec_from_limbs(d, l, 6);
    str_item(w, d);
}

static void fr_item(jw *w, const cuzk_fr_t *x)
{
    uint64_t l[4];
    char d[120];
    cuzk_fr_to_canonical(l, x);
    cuzk__dec_from_limbs(d, l, 4);
    str_item(w, d);
}

/* [x, y, "1"]; infinity as ["0", "1", "0"] (ffjavascript's toObject of the zero point). */
static void g1_value(jw *w, const cuzk_g1_affine_t *p)
{
    open_(w, "[");
    if (p->infinity) {
        str_item(w, "0");
        str_item(w, "1");
        str_item(w, "0");
    } else {
        fp_item(w, &p->x);
        fp_item(w, &p->y);
        str_item(w, "1");
    }
    close_(w, "]");
}

static void fp2_value(jw *w, const cuzk_fp2_t *x)
{
    open_(w, "[");
    fp_item(w, &x->c0);
    fp_item(w, &x->c1);
    close_(w, "]");
}

static void const_fp2(jw *w, const char *c0)
{
    open_(w, "[");
    str_item(w, c0);
    str_item(w, "0");
    close_(w, "]");
}

/* [[x.c0, x.c1], [y.c0, y.c1], ["1", "0"]]; infinity as [["0","0"], ["1","0"], ["0","0"]]. */
static void g2_value(jw *w, const cuzk_g2_affine_t *p)
{
    open_(w, "[");
    if (p->infinity) {
        sep(w);
        const_fp2(w, "0");
        sep(w);
        const_fp2(w, "1");
        sep(w);
        const_fp2(w, "0");
    } else {
        sep(w);
        fp2_value(w, &p->x);
        sep(w);
        fp2_value(w, &p->y);
        sep(w);
        const_fp2(w, "1");
    }
    close_(w, "]");
}

static cuzk_status finish(jw *w, char **out, const char *what)
{
    if (w->oom || w->depth != 0) {
        cuzk_free(w->buf);
        return cuzk_fail(w->oom ? CUZK_ERR_NOMEM : CUZK_ERR_INTERNAL, "cannot build %s", what);
    }
    *out = w->buf;
    return CUZK_OK;
}

cuzk_status cuzk_snarkjs_proof_to_json(char **out, const cuzk_groth16_proof *proof)
{
    jw w;
    memset(&w, 0, sizeof w);
    *out = NULL;
    open_(&w, "{");
    key(&w, "pi_a");
    g1_value(&w, &proof->a);
    key(&w, "pi_b");
    g2_value(&w, &proof->b);
    key(&w, "pi_c");
    g1_value(&w, &proof->c);
    key(&w, "protocol");
    puts_(&w, "\"groth16\"");
    key(&w, "curve");
    puts_(&w, "\"bls12381\"");
    close_(&w, "}");
    return finish(&w, out, "proof.json");
}

cuzk_status cuzk_snarkjs_public_to_json(char **out, const cuzk_fr_t *inputs, size_t n)
{
    jw w;
    memset(&w, 0, sizeof w);
    *out = NULL;
    open_(&w, "[");
    for (size_t i = 0; i < n; i++)
        fr_item(&w, &inputs[i]);
    close_(&w, "]");
    return finish(&w, out, "public.json");
}

static void fp6_value(jw *w, const cuzk_fp6_t *x)
{
    open_(w, "[");
    sep(w);
    fp2_value(w, &x->c0);
    sep(w);
    fp2_value(w, &x->c1);
    sep(w);
    fp2_value(w, &x->c2);
    close_(w, "]");
}

cuzk_status cuzk_snarkjs_vk_to_json(char **out, const cuzk_snarkjs_zkey *zk)
{
    jw w;
    memset(&w, 0, sizeof w);
    *out = NULL;
    char num[120];
    open_(&w, "{");
    key(&w, "protocol");
    puts_(&w, "\"groth16\"");
    key(&w, "curve");
    puts_(&w, "\"bls12381\"");
    key(&w, "nPublic");
    uint64_t np = zk->n_public;
    cuzk__dec_from_limbs(num, &np, 1);
    puts_(&w, num);
    key(&w, "vk_alpha_1");
    g1_value(&w, &zk->alpha_g1);
    key(&w, "vk_beta_2");
    g2_value(&w, &zk->beta_g2);
    key(&w, "vk_gamma_2");
    g2_value(&w, &zk->gamma_g2);
    key(&w, "vk_delta_2");
    g2_value(&w, &zk->delta_g2);
    /* Fp12 = c0 + c1 w, each an Fp6 of three Fp2: the 2 x 3 x 2 nesting of ffjavascript. */
    key(&w, "vk_alphabeta_12");
    open_(&w, "[");
    sep(&w);
    fp6_value(&w, &zk->vk->alpha_beta.c0);
    sep(&w);
    fp6_value(&w, &zk->vk->alpha_beta.c1);
    close_(&w, "]");
    key(&w, "IC");
    open_(&w, "[");
    for (size_t i = 0; i <= zk->n_public; i++) {
        sep(&w);
        g1_value(&w, &zk->ic[i]);
    }
    close_(&w, "]");
    close_(&w, "}");
    return finish(&w, out, "verification_key.json");
}

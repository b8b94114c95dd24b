/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * circom .r1cs reader, version 1 (formats.md 4.2; iden3/r1csfile): section 1 header, section 2
 * constraints (three linear combinations each, standard-form coefficients), section 3 wire ->
 * label map. Also the witness check <A,w> * <B,w> = <C,w> used by `prove --check` and tests.
 */
#include "groth16/snarkjs_internal.h"
#include "cuzk/alloc.h"
#include "common/file.h"

#include <stdio.h>
#include <string.h>

#define R1CS_MAX_FILE ((size_t)1 << 40)
#define TERM_BYTES 36 /* u32 wire id + 32-byte coefficient */

void cuzk_snarkjs_r1cs_free(cuzk_snarkjs_r1cs *cs)
{
    if (!cs)
        return;
    cuzk_free(cs->lc_start);
    cuzk_free(cs->term_wire);
    cuzk_free(cs->term_coef);
    cuzk_free(cs->wire_label);
    cuzk_free(cs);
}

static cuzk_status read_header(cuzk_snarkjs_r1cs *cs, const cuzk__binfile *bf)
{
    const cuzk__bin_section *sec;
    cuzk_status s = cuzk__binfile_section(bf, 1, "header", &sec);
    if (s != CUZK_OK)
        return s;
    const uint8_t *h = bf->buf + sec->offset;
    if (sec->size < 4)
        return cuzk__binfile_expect_size(bf, sec, "header", 64);
    uint32_t n8 = cuzk__le32(h);
    if (n8 > 64 || sec->size < 4 + (uint64_t)n8)
        return cuzk_fail(CUZK_ERR_UNSUPPORTED, "r1cs: n8 = %u at offset %llu; BLS12-381 needs 32",
                         n8, (unsigned long long)sec->offset);
    if ((s = cuzk__check_prime(bf, sec->offset, n8, h + 4, cuzk__bls_r, 4, "r")) != CUZK_OK)
        return s;
    if ((s = cuzk__binfile_expect_size(bf, sec, "header", 64)) != CUZK_OK)
        return s;
    cs->n_wires = cuzk__le32(h + 36);
    cs->n_pub_out = cuzk__le32(h + 40);
    cs->n_pub_in = cuzk__le32(h + 44);
    cs->n_prv_in = cuzk__le32(h + 48);
    cs->n_labels = cuzk__le64(h + 52);
    cs->n_constraints = cuzk__le32(h + 60);
    uint64_t io = (uint64_t)cs->n_pub_out + cs->n_pub_in + cs->n_prv_in;
    if (cs->n_wires == 0 || io >= cs->n_wires)
        return cuzk_fail(CUZK_ERR_FORMAT,
                         "r1cs: nWires = %u (offset %llu) must exceed the %llu inputs and outputs "
                         "(ONE is wire 0)",
                         cs->n_wires, (unsigned long long)sec->offset + 36, (unsigned long long)io);
    return CUZK_OK;
}

/*
 * Walks section 2. With |cs->term_wire| NULL it only validates and counts the terms into
 * *|n_terms|; otherwise it fills lc_start, term_wire and term_coef.
 */
static cuzk_status walk_constraints(cuzk_snarkjs_r1cs *cs, const cuzk__binfile *bf,
                                    const cuzk__bin_section *sec, uint64_t *n_terms)
{
    static const char abc[3] = {'A', 'B', 'C'};
    uint64_t off = sec->offset, end = sec->offset + sec->size, t = 0;
    const uint8_t *b = bf->buf;
    for (uint32_t c = 0; c < cs->n_constraints; c++) {
        for (int m = 0; m < 3; m++) {
            if (end - off < 4)
                return cuzk_fail(CUZK_ERR_FORMAT,
                                 "r1cs: section 2 ends (offset %llu) inside constraint %u of %u "
                                 "(term count of %c)",
                                 (unsigned long long)end, c, cs->n_constraints, abc[m]);
            uint32_t nt = cuzk__le32(b + off);
            if (nt > (end - off - 4) / TERM_BYTES)
                return cuzk_fail(CUZK_ERR_FORMAT,
                                 "r1cs: constraint %u: %c has %u terms (offset %llu) but section "
                                 "2 ends at offset %llu",
                                 c, abc[m], nt, (unsigned long long)off, (unsigned long long)end);
            off += 4;
            if (cs->term_wire)
                cs->lc_start[3 * (uint64_t)c + m] = t;
            for (uint32_t k = 0; k < nt; k++, t++, off += TERM_BYTES) {
                uint32_t wire = cuzk__le32(b + off);
                uint64_t v[4];
                cuzk__load_limbs(v, b + off + 4, 4);
                if (wire >= cs->n_wires)
                    return cuzk_fail(CUZK_ERR_FORMAT,
                                     "r1cs: constraint %u: %c term %u at offset %llu names wire "
                                     "%u; nWires is %u",
                                     c, abc[m], k, (unsigned long long)off, wire, cs->n_wires);
                if (!cuzk__limbs_lt(v, cuzk__bls_r, 4))
                    return cuzk_fail(CUZK_ERR_NOT_CANONICAL,
                                     "r1cs: constraint %u: %c term %u: coefficient at offset %llu "
                                     "is >= r",
                                     c, abc[m], k, (unsigned long long)off + 4);
                if (cs->term_wire) {
                    cs->term_wire[t] = wire;
                    if (!cuzk_fr_from_canonical(&cs->term_coef[t], v))
                        return cuzk_fail(CUZK_ERR_INTERNAL, "r1cs: coefficient conversion");
                }
            }
        }
    }
    if (off != end)
        return cuzk_fail(CUZK_ERR_FORMAT,
                         "r1cs: section 2 has %llu bytes left after its %u constraints (offset "
                         "%llu): nConstraints or a term count is wrong",
                         (unsigned long long)(end - off), cs->n_constraints,
                         (unsigned long long)off);
    if (cs->term_wire)
        cs->lc_start[3 * (uint64_t)cs->n_constraints] = t;
    *n_terms = t;
    return CUZK_OK;
}

cuzk_status cuzk_snarkjs_r1cs_parse(cuzk_snarkjs_r1cs **out, const uint8_t *buf, size_t len)
{
    *out = NULL;
    cuzk__binfile bf;
    cuzk_status s = cuzk__binfile_open(&bf, buf, len, "r1cs", 1, "r1cs");
    if (s != CUZK_OK)
        return s;
    cuzk_snarkjs_r1cs *cs = cuzk_alloc(sizeof *cs);
    if (!cs) {
        cuzk__binfile_close(&bf);
        return cuzk_fail(CUZK_ERR_NOMEM, "r1cs: cannot allocate the constraint system");
    }
    memset(cs, 0, sizeof *cs);
    const cuzk__bin_section *cons, *map;
    uint64_t n_terms = 0;
    if ((s = read_header(cs, &bf)) != CUZK_OK)
        goto fail;
    if (cuzk__binfile_has(&bf, 4) || cuzk__binfile_has(&bf, 5)) {
        s = cuzk_fail(CUZK_ERR_UNSUPPORTED,
                      "r1cs: custom gate sections (4, 5) are present; they are PLONK-only and not "
                      "supported for Groth16");
        goto fail;
    }
    if ((s = cuzk__binfile_section(&bf, 2, "constraints", &cons)) != CUZK_OK ||
        (s = cuzk__binfile_section(&bf, 3, "wire map", &map)) != CUZK_OK ||
        (s = cuzk__binfile_expect_size(&bf, map, "wire map", (uint64_t)cs->n_wires * 8)) != CUZK_OK)
        goto fail;
    /* Each constraint takes at least three 4-byte term counts: bound the count by the size. */
    if ((uint64_t)cs->n_constraints * 12 > cons->size) {
        s = cuzk_fail(CUZK_ERR_FORMAT,
                      "r1cs: %u constraints (header) cannot fit in the %llu bytes of section 2 at "
                      "offset %llu",
                      cs->n_constraints, (unsigned long long)cons->size,
                      (unsigned long long)cons->offset);
        goto fail;
    }
    if ((s = walk_constraints(cs, &bf, cons, &n_terms)) != CUZK_OK)
        goto fail;
    cs->lc_start = cuzk_alloc_array(3 * (size_t)cs->n_constraints + 1, sizeof *cs->lc_start);
    cs->term_wire = cuzk_alloc_array(n_terms ? n_terms : 1, sizeof *cs->term_wire);
    cs->term_coef = cuzk_alloc_array(n_terms ? n_terms : 1, sizeof *cs->term_coef);
    cs->wire_label = cuzk_alloc_array(cs->n_wires, sizeof *cs->wire_label);
    if (!cs->lc_start || !cs->term_wire || !cs->term_coef || !cs->wire_label) {
        s = cuzk_fail(CUZK_ERR_NOMEM, "r1cs: cannot allocate %llu terms",
                      (unsigned long long)n_terms);
        goto fail;
    }
    if ((s = walk_constraints(cs, &bf, cons, &n_terms)) != CUZK_OK)
        goto fail;
    for (uint32_t i = 0; i < cs->n_wires; i++)
        cs->wire_label[i] = cuzk__le64(buf + map->offset + 8 * (uint64_t)i);
    cuzk__binfile_close(&bf);
    *out = cs;
    return CUZK_OK;
fail:
    cuzk__binfile_close(&bf);
    cuzk_snarkjs_r1cs_free(cs);
    return s;
}

cuzk_status cuzk_snarkjs_r1cs_load(cuzk_snarkjs_r1cs **out, const char *path)
{
    uint8_t *buf;
    size_t len;
    *out = NULL;
    cuzk_status s = cuzk_read_file(path, &buf, &len, R1CS_MAX_FILE);
    if (s != CUZK_OK)
        return s;
    s = cuzk_snarkjs_r1cs_parse(out, buf, len);
    cuzk_free(buf);
    if (s != CUZK_OK)
        return cuzk_fail(s, "%s: %s", path, cuzk_last_error());
    return CUZK_OK;
}

cuzk_status cuzk_snarkjs_r1cs_matches_zkey(const cuzk_snarkjs_r1cs *cs, const cuzk_snarkjs_zkey *zk)
{
    uint64_t pub = (uint64_t)cs->n_pub_out + cs->n_pub_in;
    if (cs->n_wires != zk->n_vars || pub != zk->n_public)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "the r1cs (%u wires, %llu public) is not the circuit of the zkey (%u "
                         "wires, %u public)",
                         cs->n_wires, (unsigned long long)pub, zk->n_vars, zk->n_public);
    if ((uint64_t)cs->n_constraints + zk->n_public + 1 > zk->domain_size)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "the r1cs has %u constraints; with %u public signals they do not fit "
                         "the zkey's domain of %u",
                         cs->n_constraints, zk->n_public, zk->domain_size);
    return CUZK_OK;
}

/* Appends " w<id>" for up to 4 wires of linear combination |k| to |buf|. */
static void list_wires(char *buf, size_t cap, const cuzk_snarkjs_r1cs *cs, uint64_t k)
{
    size_t used = strlen(buf);
    uint64_t b = cs->lc_start[k], e = cs->lc_start[k + 1];
    if (b == e)
        used += (size_t)snprintf(buf + used, used < cap ? cap - used : 0, " (empty)");
    for (uint64_t t = b; t < e && t < b + 4 && used < cap; t++)
        used += (size_t)snprintf(buf + used, cap - used, " w%u", cs->term_wire[t]);
    if (e - b > 4 && used < cap)
        snprintf(buf + used, cap - used, " ...");
}

cuzk_status cuzk_snarkjs_check(const cuzk_snarkjs_r1cs *cs, const cuzk_snarkjs_wtns *w,
                               uint32_t *bad)
{
    *bad = UINT32_MAX;
    if (w->n != cs->n_wires)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "the witness has %u values; the r1cs has %u wires",
                         w->n, cs->n_wires);
    cuzk_fr_t *wm = cuzk_alloc_array(w->n, sizeof *wm);
    if (!wm)
        return cuzk_fail(CUZK_ERR_NOMEM, "cannot allocate %u witness values", w->n);
    for (uint32_t i = 0; i < w->n; i++)
        (void)cuzk_fr_from_canonical(&wm[i], &w->values[4 * (size_t)i]); /* < r: checked */
    cuzk_status s = CUZK_OK;
    if (!cuzk_fr_is_one(&wm[0])) {
        s = cuzk_fail(CUZK_ERR_INVALID_ARG, "witness value 0 (the constant ONE) is not 1");
        goto out;
    }
    for (uint32_t c = 0; c < cs->n_constraints; c++) {
        cuzk_fr_t v[3];
        for (int m = 0; m < 3; m++) {
            uint64_t k = 3 * (uint64_t)c + m;
            cuzk_fr_set_zero(&v[m]);
            for (uint64_t t = cs->lc_start[k]; t < cs->lc_start[k + 1]; t++) {
                cuzk_fr_t p;
                cuzk_fr_mul(&p, &cs->term_coef[t], &wm[cs->term_wire[t]]);
                cuzk_fr_add(&v[m], &v[m], &p);
            }
        }
        cuzk_fr_mul(&v[0], &v[0], &v[1]);
        if (!cuzk_fr_eq(&v[0], &v[2])) {
            char wires[200] = "A:";
            list_wires(wires, sizeof wires, cs, 3 * (uint64_t)c);
            strncat(wires, "; B:", sizeof wires - strlen(wires) - 1);
            list_wires(wires, sizeof wires, cs, 3 * (uint64_t)c + 1);
            strncat(wires, "; C:", sizeof wires - strlen(wires) - 1);
            list_wires(wires, sizeof wires, cs, 3 * (uint64_t)c + 2);
            *bad = c;
            s = cuzk_fail(CUZK_ERR_INVALID_ARG,
                          "the witness does not satisfy constraint %u of %u: <A,w>*<B,w> != "
                          "<C,w> (%s)",
                          c, cs->n_constraints, wires);
            goto out;
        }
    }
out:
    cuzk_memclear(wm, (size_t)w->n * sizeof *wm);
    cuzk_free(wm);
    return s;
}

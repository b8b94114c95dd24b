/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_TESTS_SNARKJS_UTIL_H
#define CUZK_TESTS_SNARKJS_UTIL_H

/* Helpers for the snarkjs tests: fixture files and a tiny independent binfile section walker
 * used to build corrupted and reordered copies. */

#include "test.h"
#include "cuzk/alloc.h"
#include "cuzk/curve.h"
#include "cuzk/snarkjs.h"
#include "common/file.h"

/* Reads fixtures/snarkjs/|name| (the caller cuzk_free()s it). */
static inline uint8_t *snark_fixture(const char *name, size_t *len)
{
    char path[512];
    uint8_t *buf;
    snprintf(path, sizeof path, "%s/snarkjs/%s", test_fixtures_dir(), name);
    CHECK_MSG(cuzk_read_file(path, &buf, len, (size_t)1 << 30) == CUZK_OK, "%s", cuzk_last_error());
    return buf;
}

static inline uint8_t *snark_copy(const uint8_t *buf, size_t len)
{
    uint8_t *c = cuzk_alloc(len ? len : 1);
    CHECK(c);
    memcpy(c, buf, len);
    return c;
}

static inline uint32_t snark_get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void snark_put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline void snark_put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* An Fp element in the LEM layout of snarkjs files (6 little-endian 64-bit Montgomery limbs). */
static inline void snark_put_fp(uint8_t *out, const cuzk_fp_t *a)
{
    for (int i = 0; i < 6; i++)
        snark_put64(out + 8 * i, a->l[i]);
}

/* A G1 point on the curve but outside the prime-order subgroup, in LEM form: the first x from
 * |x0| up with x^3 + 4 a square (the cofactor is large, so almost every curve point qualifies). */
static inline void snark_off_subgroup_g1(uint8_t out[96], uint64_t x0)
{
    cuzk_fp_t four;
    cuzk_fp_set_u64(&four, 4);
    for (uint64_t xv = x0;; xv++) {
        cuzk_g1_affine_t p;
        cuzk_fp_t t;
        cuzk_fp_set_u64(&p.x, xv);
        cuzk_fp_sqr(&t, &p.x);
        cuzk_fp_mul(&t, &t, &p.x);
        cuzk_fp_add(&t, &t, &four);
        if (!cuzk_fp_sqrt(&p.y, &t))
            continue;
        p.infinity = false;
        CHECK(cuzk_g1_affine_is_on_curve(&p));
        if (cuzk_g1_affine_in_subgroup(&p))
            continue;
        snark_put_fp(out, &p.x);
        snark_put_fp(out + 48, &p.y);
        return;
    }
}

typedef struct {
    uint32_t type;
    size_t hdr; /* offset of the 12-byte section header */
    size_t body;
    size_t size;
} snark_sec;

/* Walks the section table of a well-formed fixture; returns the number of sections. */
static inline size_t snark_sections(snark_sec *out, size_t max, const uint8_t *buf, size_t len)
{
    size_t n = snark_get32(buf + 8), off = 12;
    CHECK(n <= max);
    for (size_t i = 0; i < n; i++) {
        CHECK(off + 12 <= len);
        out[i].type = snark_get32(buf + off);
        out[i].hdr = off;
        out[i].body = off + 12;
        out[i].size =
            (size_t)(snark_get32(buf + off + 4) | (uint64_t)snark_get32(buf + off + 8) << 32);
        off = out[i].body + out[i].size;
    }
    CHECK(off == len);
    return n;
}

/* The section of |type| (must exist). */
static inline snark_sec snark_find(const uint8_t *buf, size_t len, uint32_t type)
{
    snark_sec s[32];
    size_t n = snark_sections(s, 32, buf, len);
    for (size_t i = 0; i < n; i++)
        if (s[i].type == type)
            return s[i];
    test_fail_at(__FILE__, __LINE__, "section %u not found", type);
}

/* Rebuilds the file with the sections in the order |order| (indices into the original table,
 * repeats allowed), |n| of them, and section types optionally replaced by |types| (NULL: keep). */
static inline uint8_t *snark_rebuild(size_t *out_len, const uint8_t *buf, size_t len,
                                     const size_t *order, size_t n, const uint32_t *types)
{
    snark_sec s[32];
    snark_sections(s, 32, buf, len);
    size_t total = 12;
    for (size_t i = 0; i < n; i++)
        total += 12 + s[order[i]].size;
    uint8_t *o = cuzk_alloc(total);
    CHECK(o);
    memcpy(o, buf, 8);
    snark_put32(o + 8, (uint32_t)n);
    size_t off = 12;
    for (size_t i = 0; i < n; i++) {
        const snark_sec *x = &s[order[i]];
        snark_put32(o + off, types ? types[i] : x->type);
        snark_put64(o + off + 4, x->size);
        memcpy(o + off + 12, buf + x->body, x->size);
        off += 12 + x->size;
    }
    *out_len = total;
    return o;
}

/* w[wire] += delta (mod r). */
static inline void snark_bump(cuzk_snarkjs_wtns *w, uint32_t wire, int64_t delta)
{
    cuzk_fr_t v, d;
    CHECK(cuzk_fr_from_canonical(&v, &w->values[4 * (size_t)wire]));
    cuzk_fr_set_u64(&d, (uint64_t)(delta < 0 ? -delta : delta));
    if (delta < 0)
        cuzk_fr_sub(&v, &v, &d);
    else
        cuzk_fr_add(&v, &v, &d);
    cuzk_fr_to_canonical(&w->values[4 * (size_t)wire], &v);
}

/* Fixture witness and key for |name| ("multiplier", "poseidon"). */
static inline cuzk_snarkjs_zkey *snark_load_zkey(const char *name)
{
    char f[64];
    size_t len;
    snprintf(f, sizeof f, "%s.zkey", name);
    uint8_t *b = snark_fixture(f, &len);
    cuzk_snarkjs_zkey *zk;
    CHECK_MSG(cuzk_snarkjs_zkey_parse(&zk, b, len, 0, NULL) == CUZK_OK, "%s", cuzk_last_error());
    cuzk_free(b);
    return zk;
}

/* Fixture key |name| loaded from its file with |flags| (a packed key holds the file itself). */
static inline cuzk_snarkjs_zkey *snark_load_zkey_flags(const char *name, unsigned flags)
{
    char path[512];
    snprintf(path, sizeof path, "%s/snarkjs/%s.zkey", test_fixtures_dir(), name);
    cuzk_snarkjs_zkey *zk;
    CHECK_MSG(cuzk_snarkjs_zkey_load(&zk, path, flags, NULL) == CUZK_OK, "%s", cuzk_last_error());
    return zk;
}

static inline cuzk_snarkjs_wtns *snark_load_wtns(const char *name)
{
    char f[64];
    size_t len;
    snprintf(f, sizeof f, "%s.wtns", name);
    uint8_t *b = snark_fixture(f, &len);
    cuzk_snarkjs_wtns *w;
    CHECK_MSG(cuzk_snarkjs_wtns_parse(&w, b, len) == CUZK_OK, "%s", cuzk_last_error());
    cuzk_free(b);
    return w;
}

static inline cuzk_snarkjs_r1cs *snark_load_r1cs(const char *name)
{
    char f[64];
    size_t len;
    snprintf(f, sizeof f, "%s.r1cs", name);
    uint8_t *b = snark_fixture(f, &len);
    cuzk_snarkjs_r1cs *cs;
    CHECK_MSG(cuzk_snarkjs_r1cs_parse(&cs, b, len) == CUZK_OK, "%s", cuzk_last_error());
    cuzk_free(b);
    return cs;
}

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * snarkjs/circom binary readers (.zkey, .r1cs, .wtns) on the fixtures, and every rejection
 * path: truncation at every offset, wrong magic/version/curve, section sizes and counts that
 * disagree, duplicate and missing sections, out-of-range ids, non-canonical field elements,
 * points off the curve or outside the subgroup.
 */
#include "test_snarkjs_util.h"

#include <stdio.h>
#include <unistd.h>

/* Fails unless parsing |buf| gives |want| with a message that contains |needle|. */
/* Both with decoded and with packed points (CUZK_SNARKJS_PACKED_POINTS): the same error. */
#define EXPECT_ZKEY(buf, len, flags, want, needle)                                                 \
    do {                                                                                           \
        for (int pk_ = 0; pk_ < 2; pk_++) {                                                        \
            cuzk_snarkjs_zkey *zk_ = (cuzk_snarkjs_zkey *)1;                                       \
            cuzk_status s_ = cuzk_snarkjs_zkey_parse(                                              \
                &zk_, buf, len, (flags) | (pk_ ? CUZK_SNARKJS_PACKED_POINTS : 0), NULL);           \
            CHECK_MSG(s_ == (want) && zk_ == NULL && strstr(cuzk_last_error(), needle),            \
                      "zkey%s: got %s '%s', want %s with '%s'", pk_ ? " (packed)" : "",            \
                      cuzk_status_name(s_), cuzk_last_error(), cuzk_status_name(want), needle);    \
        }                                                                                          \
    } while (0)

#define EXPECT_R1CS(buf, len, want, needle)                                                        \
    do {                                                                                           \
        cuzk_snarkjs_r1cs *cs_ = (cuzk_snarkjs_r1cs *)1;                                           \
        cuzk_status s_ = cuzk_snarkjs_r1cs_parse(&cs_, buf, len);                                  \
        CHECK_MSG(s_ == (want) && cs_ == NULL && strstr(cuzk_last_error(), needle),                \
                  "r1cs: got %s '%s', want %s with '%s'", cuzk_status_name(s_), cuzk_last_error(), \
                  cuzk_status_name(want), needle);                                                 \
    } while (0)

#define EXPECT_WTNS(buf, len, want, needle)                                                        \
    do {                                                                                           \
        cuzk_snarkjs_wtns *w_ = (cuzk_snarkjs_wtns *)1;                                            \
        cuzk_status s_ = cuzk_snarkjs_wtns_parse(&w_, buf, len);                                   \
        CHECK_MSG(s_ == (want) && w_ == NULL && strstr(cuzk_last_error(), needle),                 \
                  "wtns: got %s '%s', want %s with '%s'", cuzk_status_name(s_), cuzk_last_error(), \
                  cuzk_status_name(want), needle);                                                 \
    } while (0)

/* alt_bn128's moduli, to check that such files are named as such. */
static const uint64_t bn128_q[4] = {0x3c208c16d87cfd47ULL, 0x97816a916871ca8dULL,
                                    0xb85045b68181585dULL, 0x30644e72e131a029ULL};
static const uint64_t bn128_r[4] = {0x43e1f593f0000001ULL, 0x2833e84879b97091ULL,
                                    0xb85045b68181585dULL, 0x30644e72e131a029ULL};

static void put_limbs(uint8_t *p, const uint64_t l[4])
{
    for (int i = 0; i < 4; i++)
        snark_put64(p + 8 * i, l[i]);
}

static bool fr_is_u64(const cuzk_fr_t *a, uint64_t v)
{
    uint64_t l[4];
    cuzk_fr_to_canonical(l, a);
    return l[0] == v && l[1] == 0 && l[2] == 0 && l[3] == 0;
}

static bool fr_is_minus_one(const cuzk_fr_t *a)
{
    cuzk_fr_t m;
    cuzk_fr_set_one(&m);
    cuzk_fr_neg(&m, &m);
    return cuzk_fr_eq(a, &m);
}

CUZK_TEST(snarkjs_zkey_fixtures)
{
    cuzk_snarkjs_zkey *zk = snark_load_zkey("multiplier");
    CHECK(zk->n_vars == 4 && zk->n_public == 1 && zk->domain_size == 4);
    /* One A term, one B term, nPublic + 1 extra rows. */
    CHECK(zk->n_coefs == 4);
    cuzk_g2_affine_t g2;
    cuzk_g2_generator(&g2);
    CHECK(cuzk_g2_affine_eq(&zk->gamma_g2, &g2));
    CHECK(!zk->alpha_g1.infinity && !zk->delta_g2.infinity);
    CHECK(zk->vk && zk->vk->ic_len == 2);
    /* Section 4 values are the r1cs coefficients (file: times R^2): A = {2: -1}, B = {3: 1}. */
    CHECK(zk->coefs[0].matrix == 0 && zk->coefs[0].constraint == 0 && zk->coefs[0].signal == 2);
    CHECK(fr_is_minus_one(&zk->coefs[0].value));
    CHECK(zk->coefs[1].matrix == 1 && zk->coefs[1].signal == 3 &&
          fr_is_u64(&zk->coefs[1].value, 1));
    for (uint32_t s = 0; s <= 1; s++) {
        const cuzk_snarkjs_coef *c = &zk->coefs[2 + s];
        CHECK(c->matrix == 0 && c->constraint == 1 + s && c->signal == s);
        CHECK(fr_is_u64(&c->value, 1));
    }
    /* Wire 3 (b) is in B only: its A point is infinity, its B points are not. */
    CHECK(zk->a[3].infinity && !zk->b1[3].infinity && !zk->b2[3].infinity);
    CHECK(!zk->a[2].infinity && zk->b1[2].infinity);
    cuzk_snarkjs_zkey_free(zk);

    zk = snark_load_zkey("poseidon");
    CHECK(zk->n_vars == 520 && zk->n_public == 1 && zk->domain_size == 1024);
    CHECK(zk->n_coefs == (21476 - 4) / 44);
    /* Every section-4 entry matches the r1cs: per constraint, its A terms then its B terms. */
    cuzk_snarkjs_r1cs *cs = snark_load_r1cs("poseidon");
    CHECK(cuzk_snarkjs_r1cs_matches_zkey(cs, zk) == CUZK_OK);
    size_t k = 0;
    for (uint32_t c = 0; c < cs->n_constraints; c++) {
        for (uint32_t m = 0; m < 2; m++) {
            for (uint64_t t = cs->lc_start[3 * c + m]; t < cs->lc_start[3 * c + m + 1]; t++) {
                CHECK(k < zk->n_coefs);
                const cuzk_snarkjs_coef *e = &zk->coefs[k++];
                CHECK_MSG(e->matrix == m && e->constraint == c && e->signal == cs->term_wire[t] &&
                              cuzk_fr_eq(&e->value, &cs->term_coef[t]),
                          "coefficient %zu", k - 1);
            }
        }
    }
    CHECK(k + zk->n_public + 1 == zk->n_coefs);
    cuzk_snarkjs_r1cs_free(cs);
    cuzk_snarkjs_zkey_free(zk);
    cuzk_snarkjs_zkey_free(NULL);
}

CUZK_TEST(snarkjs_r1cs_wtns_fixtures)
{
    cuzk_snarkjs_r1cs *cs = snark_load_r1cs("multiplier");
    CHECK(cs->n_wires == 4 && cs->n_pub_out == 1 && cs->n_pub_in == 0 && cs->n_prv_in == 2);
    CHECK(cs->n_constraints == 1 && cs->n_labels == 4);
    CHECK(cs->lc_start[0] == 0 && cs->lc_start[1] == 1 && cs->lc_start[2] == 2 &&
          cs->lc_start[3] == 3);
    CHECK(cs->term_wire[0] == 2 && fr_is_minus_one(&cs->term_coef[0]));
    CHECK(cs->term_wire[1] == 3 && fr_is_u64(&cs->term_coef[1], 1));
    CHECK(cs->term_wire[2] == 1 && fr_is_minus_one(&cs->term_coef[2]));
    for (uint32_t i = 0; i < 4; i++)
        CHECK(cs->wire_label[i] == i);
    cuzk_snarkjs_wtns *w = snark_load_wtns("multiplier");
    CHECK(w->n == 4);
    static const uint64_t want[4] = {1, 33, 3, 11};
    for (int i = 0; i < 4; i++)
        CHECK(w->values[4 * i] == want[i] && w->values[4 * i + 1] == 0 &&
              w->values[4 * i + 3] == 0);
    uint32_t bad;
    CHECK(cuzk_snarkjs_check(cs, w, &bad) == CUZK_OK && bad == UINT32_MAX);
    /* c = 34 instead of 33: constraint 0 fails and is named. */
    w->values[4] = 34;
    CHECK(cuzk_snarkjs_check(cs, w, &bad) == CUZK_ERR_INVALID_ARG && bad == 0);
    CHECK(strstr(cuzk_last_error(), "constraint 0 of 1") && strstr(cuzk_last_error(), "w2"));
    w->values[4] = 33;
    w->values[0] = 2;
    CHECK(cuzk_snarkjs_check(cs, w, &bad) == CUZK_ERR_INVALID_ARG && bad == UINT32_MAX);
    w->values[0] = 1;
    /* Wrong length. */
    w->n = 3;
    CHECK(cuzk_snarkjs_check(cs, w, &bad) == CUZK_ERR_INVALID_ARG && bad == UINT32_MAX);
    CHECK(strstr(cuzk_last_error(), "3 values"));
    w->n = 4;
    cuzk_snarkjs_wtns_free(w);
    cuzk_snarkjs_r1cs_free(cs);

    cs = snark_load_r1cs("poseidon");
    w = snark_load_wtns("poseidon");
    CHECK(cs->n_wires == 520 && cs->n_constraints == 517 && w->n == 520);
    CHECK(cuzk_snarkjs_check(cs, w, &bad) == CUZK_OK);
    /* Change one internal wire: some constraint fails, the first one that uses it. */
    snark_bump(w, 300, 1);
    CHECK(cuzk_snarkjs_check(cs, w, &bad) == CUZK_ERR_INVALID_ARG && bad < 517);
    uint32_t first = UINT32_MAX;
    for (uint32_t c = 0; c < cs->n_constraints && first == UINT32_MAX; c++)
        for (uint64_t t = cs->lc_start[3 * c]; t < cs->lc_start[3 * c + 3]; t++)
            if (cs->term_wire[t] == 300)
                first = c;
    CHECK_MSG(bad == first, "bad %u, first use of wire 300 in constraint %u", bad, first);
    cuzk_snarkjs_wtns_free(w);
    cuzk_snarkjs_r1cs_free(cs);
}

/* Truncation anywhere and one extra byte are container errors with the offset named. */
static void truncations(const char *name, size_t step)
{
    size_t len;
    uint8_t *b = snark_fixture(name, &len);
    const char *ext = strrchr(name, '.') + 1;
    for (size_t cut = 0; cut < len; cut += (cut < 64 ? 1 : step)) {
        uint8_t *c = snark_copy(b, cut);
        cuzk_status s;
        if (strcmp(ext, "zkey") == 0) {
            cuzk_snarkjs_zkey *zk;
            s = cuzk_snarkjs_zkey_parse(&zk, c, cut, 0, NULL);
            CHECK(!zk);
        } else if (strcmp(ext, "r1cs") == 0) {
            cuzk_snarkjs_r1cs *cs;
            s = cuzk_snarkjs_r1cs_parse(&cs, c, cut);
            CHECK(!cs);
        } else {
            cuzk_snarkjs_wtns *w;
            s = cuzk_snarkjs_wtns_parse(&w, c, cut);
            CHECK(!w);
        }
        CHECK_MSG(s == CUZK_ERR_FORMAT, "%s cut at %zu: %s %s", name, cut, cuzk_status_name(s),
                  cuzk_last_error());
        CHECK_MSG(strstr(cuzk_last_error(), ext), "%s", cuzk_last_error());
        CHECK_MSG(cut < 12 || strstr(cuzk_last_error(), "offset") ||
                      strstr(cuzk_last_error(), "room"),
                  "%s cut at %zu: %s", name, cut, cuzk_last_error());
        cuzk_free(c);
    }
    uint8_t *c = cuzk_alloc(len + 1);
    memcpy(c, b, len);
    c[len] = 0;
    cuzk_snarkjs_zkey *zk;
    cuzk_snarkjs_r1cs *cs;
    cuzk_snarkjs_wtns *w;
    cuzk_status s = strcmp(ext, "zkey") == 0   ? cuzk_snarkjs_zkey_parse(&zk, c, len + 1, 0, NULL)
                    : strcmp(ext, "r1cs") == 0 ? cuzk_snarkjs_r1cs_parse(&cs, c, len + 1)
                                               : cuzk_snarkjs_wtns_parse(&w, c, len + 1);
    CHECK(s == CUZK_ERR_FORMAT && strstr(cuzk_last_error(), "after the last"));
    cuzk_free(c);
    cuzk_free(b);
}

CUZK_TEST(snarkjs_truncated_files)
{
    truncations("multiplier.zkey", 1);
    truncations("multiplier.r1cs", 1);
    truncations("multiplier.wtns", 1);
    truncations("poseidon.zkey", 997);
    truncations("poseidon.r1cs", 101);
    truncations("poseidon.wtns", 37);
}

CUZK_TEST(snarkjs_zkey_rejections)
{
    size_t len, n2;
    uint8_t *b = snark_fixture("multiplier.zkey", &len), *c;
    snark_sec hdr = snark_find(b, len, 2), coef = snark_find(b, len, 4), a = snark_find(b, len, 5);
    snark_sec pro = snark_find(b, len, 1);
#define MUTATE(stmt, flags, want, needle)                                                          \
    do {                                                                                           \
        c = snark_copy(b, len);                                                                    \
        stmt;                                                                                      \
        EXPECT_ZKEY(c, len, flags, want, needle);                                                  \
        cuzk_free(c);                                                                              \
    } while (0)
    MUTATE(c[3] = 'z', 0, CUZK_ERR_FORMAT, "magic 'zkez'");
    MUTATE(snark_put32(c + 4, 2), 0, CUZK_ERR_UNSUPPORTED, "version 2");
    MUTATE(snark_put32(c + 8, 11), 0, CUZK_ERR_FORMAT, "section");
    MUTATE(snark_put32(c + 8, 9), 0, CUZK_ERR_FORMAT, "after the last");
    MUTATE(snark_put32(c + 8, 0xffffffffu), 0, CUZK_ERR_FORMAT, "room for at most");
    /* A section size one too big or too small breaks the container walk. */
    MUTATE(snark_put64(c + coef.hdr + 4, coef.size + 1), 0, CUZK_ERR_FORMAT, "offset");
    MUTATE(snark_put64(c + coef.hdr + 4, coef.size - 1), 0, CUZK_ERR_FORMAT, "offset");
    MUTATE(snark_put64(c + coef.hdr + 4, UINT64_MAX), 0, CUZK_ERR_FORMAT, "truncated");
    MUTATE(snark_put32(c + pro.body, 2), 0, CUZK_ERR_UNSUPPORTED, "plonk");
    /* Wrong curve: a bn128 base field, and a changed prime. */
    MUTATE((snark_put32(c + hdr.body, 32), put_limbs(c + hdr.body + 4, bn128_q)), 0,
           CUZK_ERR_UNSUPPORTED, "bn128");
    MUTATE(snark_put32(c + hdr.body, 40), 0, CUZK_ERR_UNSUPPORTED, "n8 = 40");
    MUTATE(c[hdr.body + 4] ^= 2, 0, CUZK_ERR_UNSUPPORTED, "prime q");
    MUTATE(c[hdr.body + 60] ^= 2, 0, CUZK_ERR_UNSUPPORTED, "prime r");
    MUTATE(snark_put32(c + hdr.body + 52, 48), 0, CUZK_ERR_UNSUPPORTED, "n8 = 48");
    /* Counts that disagree with the section sizes. */
    MUTATE(snark_put32(c + hdr.body + 88, 5), 0, CUZK_ERR_FORMAT, "counts imply");
    MUTATE(snark_put32(c + hdr.body + 88, 1), 0, CUZK_ERR_FORMAT, "nVars");
    MUTATE(snark_put32(c + hdr.body + 92, 2), 0, CUZK_ERR_FORMAT, "section 3 (IC)");
    MUTATE(snark_put32(c + hdr.body + 96, 8), 0, CUZK_ERR_FORMAT, "section 9 (H)");
    MUTATE(snark_put32(c + hdr.body + 96, 6), 0, CUZK_ERR_FORMAT, "power of two");
    MUTATE(snark_put32(c + hdr.body + 96, 0), 0, CUZK_ERR_FORMAT, "power of two");
    MUTATE(snark_put32(c + coef.body, 5), 0, CUZK_ERR_FORMAT, "section 4");
    MUTATE(snark_put32(c + coef.body, 0xffffffffu), 0, CUZK_ERR_FORMAT, "counts imply");
    /* Section 4 entries out of range. */
    MUTATE(snark_put32(c + coef.body + 4, 2), 0, CUZK_ERR_FORMAT, "matrix 2");
    MUTATE(snark_put32(c + coef.body + 8, 4), 0, CUZK_ERR_FORMAT, "constraint 4");
    MUTATE(snark_put32(c + coef.body + 12, 4), 0, CUZK_ERR_FORMAT, "signal 4");
    MUTATE(memset(c + coef.body + 4 + 44 + 12, 0xff, 32), 0, CUZK_ERR_NOT_CANONICAL,
           "coefficient 1: value at offset");
    /* Points: header infinity, off-curve, coordinate >= q, outside the subgroup. */
    MUTATE(memset(c + hdr.body + 100, 0, 96), 0, CUZK_ERR_BAD_ENCODING, "alpha_1");
    MUTATE(c[hdr.body + 292 + 7] ^= 1, 0, CUZK_ERR_NOT_ON_CURVE, "beta_2 at offset");
    MUTATE(c[hdr.body + 772 + 100] ^= 1, 0, CUZK_ERR_NOT_ON_CURVE, "delta_2");
    MUTATE(c[a.body + 2 * 96 + 5] ^= 1, 0, CUZK_ERR_NOT_ON_CURVE, "section 5 (A) point 2");
    MUTATE(memset(c + a.body + 96, 0xff, 48), 0, CUZK_ERR_NOT_CANONICAL, "point 1 at offset");
    MUTATE(c[snark_find(b, len, 7).body + 3 * 192 + 150] ^= 1, 0, CUZK_ERR_NOT_ON_CURVE,
           "section 7 (B2) point 3");
    MUTATE(c[snark_find(b, len, 9).body + 3 * 96 + 1] ^= 1, 0, CUZK_ERR_NOT_ON_CURVE,
           "section 9 (H) point 3");
    uint8_t bad_pt[96];
    snark_off_subgroup_g1(bad_pt, 1);
    MUTATE(memcpy(c + a.body + 96, bad_pt, 96), 0, CUZK_ERR_NOT_IN_SUBGROUP,
           "section 5 (A) point 1");
    MUTATE(memcpy(c + snark_find(b, len, 3).body, bad_pt, 96), CUZK_SNARKJS_UNCHECKED_SUBGROUP,
           CUZK_ERR_NOT_IN_SUBGROUP, "section 3 (IC) point 0");
    /* With the subgroup checks off, the same bulk point is accepted (still on the curve). */
    c = snark_copy(b, len);
    memcpy(c + a.body + 96, bad_pt, 96);
    cuzk_snarkjs_zkey *zk;
    CHECK(cuzk_snarkjs_zkey_parse(&zk, c, len, CUZK_SNARKJS_UNCHECKED_SUBGROUP, NULL) == CUZK_OK);
    cuzk_snarkjs_zkey_free(zk);
    cuzk_free(c);

    /* Sections in another order parse to the same key; duplicates and gaps are rejected. */
    size_t rev[10] = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
    c = snark_rebuild(&n2, b, len, rev, 10, NULL);
    CHECK_MSG(cuzk_snarkjs_zkey_parse(&zk, c, n2, 0, NULL) == CUZK_OK, "%s", cuzk_last_error());
    cuzk_snarkjs_zkey *ref = snark_load_zkey("multiplier");
    CHECK(zk->n_coefs == ref->n_coefs && cuzk_g1_affine_eq(&zk->h[3], &ref->h[3]) &&
          cuzk_g2_affine_eq(&zk->b2[3], &ref->b2[3]) &&
          cuzk_fp12_eq(&zk->vk->alpha_beta, &ref->vk->alpha_beta));
    cuzk_snarkjs_zkey_free(ref);
    cuzk_snarkjs_zkey_free(zk);
    cuzk_free(c);
    size_t dup[11] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 2};
    c = snark_rebuild(&n2, b, len, dup, 11, NULL);
    EXPECT_ZKEY(c, n2, 0, CUZK_ERR_FORMAT, "section 3 (IC) appears twice");
    cuzk_free(c);
    uint32_t types[10] = {1, 2, 3, 4, 5, 6, 7, 8, 11, 10};
    size_t ord[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    c = snark_rebuild(&n2, b, len, ord, 10, types);
    EXPECT_ZKEY(c, n2, 0, CUZK_ERR_FORMAT, "section 9 (H) is missing");
    cuzk_free(c);
    c = snark_rebuild(&n2, b, len, ord, 9, NULL);
    CHECK_MSG(cuzk_snarkjs_zkey_parse(&zk, c, n2, 0, NULL) == CUZK_OK,
              "section 10 is not needed: %s", cuzk_last_error());
    cuzk_snarkjs_zkey_free(zk);
    cuzk_free(c);
    c = snark_rebuild(&n2, b, len, ord + 1, 9, NULL);
    EXPECT_ZKEY(c, n2, 0, CUZK_ERR_FORMAT, "section 1 (protocol) is missing");
    cuzk_free(c);
    /* Not a zkey at all. */
    size_t rl;
    uint8_t *r1 = snark_fixture("multiplier.r1cs", &rl);
    EXPECT_ZKEY(r1, rl, 0, CUZK_ERR_FORMAT, "magic 'r1cs'");
    cuzk_free(r1);
#undef MUTATE
    cuzk_free(b);
}

CUZK_TEST(snarkjs_r1cs_rejections)
{
    size_t len, n2;
    uint8_t *b = snark_fixture("multiplier.r1cs", &len), *c;
    snark_sec hdr = snark_find(b, len, 1), cons = snark_find(b, len, 2);
#define MUTATE(stmt, want, needle)                                                                 \
    do {                                                                                           \
        c = snark_copy(b, len);                                                                    \
        stmt;                                                                                      \
        EXPECT_R1CS(c, len, want, needle);                                                         \
        cuzk_free(c);                                                                              \
    } while (0)
    MUTATE(snark_put32(c + 4, 2), CUZK_ERR_UNSUPPORTED, "version 2");
    MUTATE(c[hdr.body + 4] ^= 1, CUZK_ERR_UNSUPPORTED, "prime r");
    MUTATE(put_limbs(c + hdr.body + 4, bn128_r), CUZK_ERR_UNSUPPORTED, "bn128");
    MUTATE(snark_put32(c + hdr.body, 48), CUZK_ERR_UNSUPPORTED, "n8 = 48");
    /* nWires 5: the wire map no longer fits; 3: I/O counts exceed it. */
    MUTATE(snark_put32(c + hdr.body + 36, 5), CUZK_ERR_FORMAT, "section 3 (wire map)");
    MUTATE(snark_put32(c + hdr.body + 36, 3), CUZK_ERR_FORMAT, "nWires");
    MUTATE(snark_put32(c + hdr.body + 60, 2), CUZK_ERR_FORMAT, "inside constraint 1");
    MUTATE(snark_put32(c + hdr.body + 60, 0), CUZK_ERR_FORMAT, "bytes left after");
    MUTATE(snark_put32(c + hdr.body + 60, 0x7fffffff), CUZK_ERR_FORMAT, "cannot fit");
    /* Term count of A too large; a wire id out of range; a coefficient >= r. */
    MUTATE(snark_put32(c + cons.body, 9), CUZK_ERR_FORMAT, "A has 9 terms");
    MUTATE(snark_put32(c + cons.body, 0xffffffffu), CUZK_ERR_FORMAT, "terms (offset");
    MUTATE(snark_put32(c + cons.body + 4, 4), CUZK_ERR_FORMAT, "names wire 4");
    MUTATE(memset(c + cons.body + 4 + 36 + 4 + 4, 0xff, 32), CUZK_ERR_NOT_CANONICAL,
           "B term 0: coefficient");
    /* Custom-gate sections, missing sections. */
    size_t ord[4] = {0, 1, 2, 0};
    uint32_t types[4] = {2, 1, 3, 4};
    c = snark_rebuild(&n2, b, len, ord, 4, types);
    EXPECT_R1CS(c, n2, CUZK_ERR_UNSUPPORTED, "custom gate");
    cuzk_free(c);
    c = snark_rebuild(&n2, b, len, ord, 2, NULL);
    EXPECT_R1CS(c, n2, CUZK_ERR_FORMAT, "section 3 (wire map) is missing");
    cuzk_free(c);
    c = snark_rebuild(&n2, b, len, ord + 1, 2, NULL);
    EXPECT_R1CS(c, n2, CUZK_ERR_FORMAT, "section 2 (constraints) is missing");
    cuzk_free(c);
#undef MUTATE
    cuzk_free(b);
}

CUZK_TEST(snarkjs_wtns_rejections)
{
    size_t len;
    uint8_t *b = snark_fixture("multiplier.wtns", &len), *c;
    snark_sec hdr = snark_find(b, len, 1), val = snark_find(b, len, 2);
#define MUTATE(stmt, want, needle)                                                                 \
    do {                                                                                           \
        c = snark_copy(b, len);                                                                    \
        stmt;                                                                                      \
        EXPECT_WTNS(c, len, want, needle);                                                         \
        cuzk_free(c);                                                                              \
    } while (0)
    MUTATE(snark_put32(c + 4, 1), CUZK_ERR_UNSUPPORTED, "version 1");
    MUTATE(c[0] = 'x', CUZK_ERR_FORMAT, "magic");
    MUTATE(c[hdr.body + 35] ^= 0x80, CUZK_ERR_UNSUPPORTED, "prime r");
    MUTATE(snark_put32(c + hdr.body + 36, 5), CUZK_ERR_FORMAT, "section 2 (values)");
    MUTATE(snark_put32(c + hdr.body + 36, 3), CUZK_ERR_FORMAT, "counts imply 96");
    MUTATE(snark_put32(c + hdr.body + 36, 0), CUZK_ERR_FORMAT, "nWitness = 0");
    MUTATE(memset(c + val.body + 64, 0xff, 32), CUZK_ERR_NOT_CANONICAL, "value 2 at offset 140");
    MUTATE(snark_put32(c + hdr.body, 8), CUZK_ERR_UNSUPPORTED, "n8 = 8");
#undef MUTATE
    cuzk_free(b);
}

CUZK_TEST(snarkjs_load_paths)
{
    cuzk_snarkjs_zkey *zk;
    cuzk_snarkjs_r1cs *cs;
    cuzk_snarkjs_wtns *w;
    CHECK(cuzk_snarkjs_zkey_load(&zk, "/nonexistent/x.zkey", 0, NULL) == CUZK_ERR_IO && !zk);
    CHECK(cuzk_snarkjs_r1cs_load(&cs, "/nonexistent/x.r1cs") == CUZK_ERR_IO && !cs);
    CHECK(cuzk_snarkjs_wtns_load(&w, "/nonexistent/x.wtns") == CUZK_ERR_IO && !w);
    char path[512];
    snprintf(path, sizeof path, "%s/snarkjs/multiplier.wtns", test_fixtures_dir());
    /* The wrong kind of file through the path API: the message names the path. */
    CHECK(cuzk_snarkjs_zkey_load(&zk, path, 0, NULL) == CUZK_ERR_FORMAT);
    CHECK(strstr(cuzk_last_error(), "multiplier.wtns") && strstr(cuzk_last_error(), "magic"));
    CHECK(cuzk_snarkjs_wtns_load(&w, path) == CUZK_OK && w->n == 4);
    cuzk_snarkjs_wtns_free(w);
    snprintf(path, sizeof path, "%s/snarkjs/poseidon.r1cs", test_fixtures_dir());
    CHECK(cuzk_snarkjs_r1cs_load(&cs, path) == CUZK_OK && cs->n_constraints == 517);
    cuzk_snarkjs_r1cs_free(cs);
    /* A thread pool gives the same key (points are checked in parallel). */
    cuzk_pool *pool;
    CHECK(cuzk_pool_create(&pool, 2) == CUZK_OK);
    snprintf(path, sizeof path, "%s/snarkjs/poseidon.zkey", test_fixtures_dir());
    CHECK(cuzk_snarkjs_zkey_load(&zk, path, 0, pool) == CUZK_OK);
    cuzk_snarkjs_zkey *ref = snark_load_zkey("poseidon");
    for (uint32_t i = 0; i < zk->domain_size; i++)
        CHECK(cuzk_g1_affine_eq(&zk->h[i], &ref->h[i]));
    for (uint32_t i = 0; i < zk->n_vars; i++)
        CHECK(cuzk_g2_affine_eq(&zk->b2[i], &ref->b2[i]));
    cuzk_snarkjs_zkey_free(ref);
    cuzk_snarkjs_zkey_free(zk);
    cuzk_pool_destroy(pool);
}

/* BLS12-381's base field modulus, little-endian limbs (independent of the library's copy). */
static const uint64_t bls_q[6] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL,
                                  0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
                                  0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};

static uint64_t get64(const uint8_t *p)
{
    return (uint64_t)snark_get32(p) | (uint64_t)snark_get32(p + 4) << 32;
}

/*
 * The bulk decode's range check and infinity test (src/groth16/zkey.c decode_range, a word at a
 * time) at their edges, on poseidon.zkey whose sections fill the 8-point curve checks: every
 * coordinate of a G1 (A) and a G2 (B2) point set to q, q + 1, q + 2^320 (rejected as >= q) and to
 * q - 1, q - 2^320 (in range: off the curve instead); a point whose only nonzero byte is its
 * first or its last is not the point at infinity. Then every decoded point against the file's
 * bytes: limbs copied as they are, infinity exactly where all bytes are zero. Crafted points: x = q
 * with y = 2 (on the curve mod p), x = q - k (valid).
 */
CUZK_TEST(snarkjs_zkey_point_bounds)
{
    size_t len;
    uint8_t *b = snark_fixture("poseidon.zkey", &len), *c;
    static const struct {
        uint32_t type;
        const char *name;
        size_t psize;
    } secs[2] = {{5, "section 5 (A)", 96}, {7, "section 7 (B2)", 192}};
    static const struct {
        int limb;
        int64_t delta; /* added to that limb of q */
        bool canonical;
    } edits[5] = {{0, 0, false}, {0, 1, false}, {5, 1, false}, {0, -1, true}, {5, -1, true}};
    char needle[96];
    for (int si = 0; si < 2; si++) {
        snark_sec s = snark_find(b, len, secs[si].type);
        size_t n = s.size / secs[si].psize;
        CHECK(n > 16);
        size_t idx[2] = {9, n - 1 - test_rand_u64() % 8};
        for (int ii = 0; ii < 2; ii++) {
            uint8_t *pt = NULL;
            snprintf(needle, sizeof needle, "%s point %zu at offset", secs[si].name, idx[ii]);
            for (size_t coord = 0; coord < secs[si].psize / 48; coord++)
                for (int e = 0; e < 5; e++) {
                    c = snark_copy(b, len);
                    pt = c + s.body + idx[ii] * secs[si].psize;
                    for (int k = 0; k < 6; k++)
                        snark_put64(pt + 48 * coord + 8 * k,
                                    bls_q[k] + (uint64_t)(k == edits[e].limb ? edits[e].delta : 0));
                    EXPECT_ZKEY(c, len, CUZK_SNARKJS_UNCHECKED_SUBGROUP,
                                edits[e].canonical ? CUZK_ERR_NOT_ON_CURVE : CUZK_ERR_NOT_CANONICAL,
                                needle);
                    cuzk_free(c);
                }
            for (int end = 0; end < 2; end++) {
                c = snark_copy(b, len);
                pt = c + s.body + idx[ii] * secs[si].psize;
                memset(pt, 0, secs[si].psize);
                pt[end ? secs[si].psize - 1 : 0] = 1;
                EXPECT_ZKEY(c, len, CUZK_SNARKJS_UNCHECKED_SUBGROUP, CUZK_ERR_NOT_ON_CURVE, needle);
                cuzk_free(c);
            }
        }
    }
    /* Crafted G1 points in A. x = q with y = 2: x is 0 mod p and (0, 2) is on the curve, so only
     * the range check refuses it. */
    snark_sec a = snark_find(b, len, 5);
    cuzk_fp_t x, y, t, four;
    cuzk_fp_set_u64(&four, 4);
    c = snark_copy(b, len);
    memcpy(x.l, bls_q, sizeof x.l);
    cuzk_fp_set_u64(&y, 2);
    snark_put_fp(c + a.body + 9 * 96, &x);
    snark_put_fp(c + a.body + 9 * 96 + 48, &y);
    EXPECT_ZKEY(c, len, CUZK_SNARKJS_UNCHECKED_SUBGROUP, CUZK_ERR_NOT_CANONICAL,
                "section 5 (A) point 9 at offset");
    cuzk_free(c);
    /* x = q - k, among the largest canonical values (the first k with x^3 + 4 a square), is a
     * valid point (the subgroup is not checked); an all-zero point in the same group of 8 decodes
     * as infinity; both are checked below with every other point. */
    c = snark_copy(b, len);
    for (uint64_t k = 1;; k++) {
        memcpy(x.l, bls_q, sizeof x.l);
        x.l[0] -= k;
        cuzk_fp_sqr(&t, &x);
        cuzk_fp_mul(&t, &t, &x);
        cuzk_fp_add(&t, &t, &four);
        if (cuzk_fp_sqrt(&y, &t))
            break;
    }
    snark_put_fp(c + a.body + 9 * 96, &x);
    snark_put_fp(c + a.body + 9 * 96 + 48, &y);
    memset(c + a.body + 13 * 96, 0, 96);
    cuzk_snarkjs_zkey *zk;
    CHECK_MSG(cuzk_snarkjs_zkey_parse(&zk, c, len, CUZK_SNARKJS_UNCHECKED_SUBGROUP, NULL) ==
                  CUZK_OK,
              "%s", cuzk_last_error());
    const struct {
        uint32_t type;
        const void *pts;
        size_t n, psize;
    } all[6] = {{3, zk->ic, zk->n_public + 1, 96},
                {5, zk->a, zk->n_vars, 96},
                {6, zk->b1, zk->n_vars, 96},
                {7, zk->b2, zk->n_vars, 192},
                {8, zk->c, zk->n_vars - zk->n_public - 1, 96},
                {9, zk->h, zk->domain_size, 96}};
    size_t bad = 0, inf = 0;
    for (int k = 0; k < 6; k++) {
        const uint8_t *body = c + snark_find(c, len, all[k].type).body;
        for (size_t i = 0; i < all[k].n; i++) {
            const uint8_t *in = body + i * all[k].psize;
            bool zero = true;
            for (size_t j = 0; j < all[k].psize; j++)
                zero = zero && in[j] == 0;
            uint64_t l[24]; /* x then y (G2: x.c0, x.c1, y.c0, y.c1), as the file orders them */
            bool is_inf;
            if (all[k].psize == 192) {
                const cuzk_g2_affine_t *p = (const cuzk_g2_affine_t *)all[k].pts + i;
                memcpy(l, &p->x, 96);
                memcpy(l + 12, &p->y, 96);
                is_inf = p->infinity;
            } else {
                const cuzk_g1_affine_t *p = (const cuzk_g1_affine_t *)all[k].pts + i;
                memcpy(l, &p->x, 48);
                memcpy(l + 6, &p->y, 48);
                is_inf = p->infinity;
            }
            inf += is_inf;
            if (is_inf != zero) {
                bad++;
                continue;
            }
            for (size_t j = 0; !zero && j < all[k].psize / 8; j++)
                bad += l[j] != get64(in + 8 * j);
        }
    }
    CHECK_MSG(bad == 0, "%zu decoded points or limbs differ from the file", bad);
    CHECK(inf > 1 && zk->a[13].infinity && !zk->a[9].infinity && cuzk_fp_eq(&zk->a[9].x, &x));
    cuzk_snarkjs_zkey_free(zk);
    cuzk_free(c);
    cuzk_free(b);
}

/* Writes |len| bytes of |buf| to a new temporary file named into |path| (at least 32 bytes). */
static void write_temp(char *path, const uint8_t *buf, size_t len)
{
    strcpy(path, "/tmp/cuzk-snarkjs-XXXXXX");
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    CHECK(f != NULL);
    CHECK(len == 0 || fwrite(buf, 1, len, f) == len);
    CHECK(fclose(f) == 0);
}

/* Loads the first |len| bytes of fixture |name| through the path API (mapped, or read when the
 * file cannot be mapped) and through the buffer API: same status, and the path's message is the
 * buffer's with the path in front. Returns the status. */
static cuzk_status load_both(const char *name, size_t len)
{
    size_t full;
    uint8_t *b = snark_fixture(name, &full);
    CHECK(len <= full);
    char path[64], want[512];
    write_temp(path, b, len);
    bool zkey = strstr(name, ".zkey") != NULL;
    cuzk_snarkjs_zkey *zk = NULL, *zk2 = NULL;
    cuzk_snarkjs_wtns *w = NULL, *w2 = NULL;
    cuzk_status sb = zkey ? cuzk_snarkjs_zkey_parse(&zk2, b, len, 0, NULL)
                          : cuzk_snarkjs_wtns_parse(&w2, b, len);
    snprintf(want, sizeof want, "%s: %s", path, cuzk_last_error());
    cuzk_status sp =
        zkey ? cuzk_snarkjs_zkey_load(&zk, path, 0, NULL) : cuzk_snarkjs_wtns_load(&w, path);
    CHECK_MSG(sp == sb, "%s, %zu bytes: %s by path, %s from a buffer", name, len,
              cuzk_status_name(sp), cuzk_status_name(sb));
    if (sb != CUZK_OK)
        CHECK_MSG(strcmp(cuzk_last_error(), want) == 0, "'%s', want '%s'", cuzk_last_error(), want);
    else if (zkey)
        CHECK(zk->n_vars == zk2->n_vars && cuzk_g2_affine_eq(&zk->b2[1], &zk2->b2[1]) &&
              cuzk_fp12_eq(&zk->vk->alpha_beta, &zk2->vk->alpha_beta));
    else
        CHECK(w->n == w2->n && memcmp(w->values, w2->values, (size_t)w->n * 32) == 0);
    cuzk_snarkjs_zkey_free(zk);
    cuzk_snarkjs_zkey_free(zk2);
    cuzk_snarkjs_wtns_free(w);
    cuzk_snarkjs_wtns_free(w2);
    unlink(path);
    cuzk_free(b);
    return sp;
}

/* The path loaders map the file (src/groth16/binfile_map.h): whole, truncated and empty files
 * give the buffer parser's result, and what cannot be mapped (empty, a directory) falls back to
 * the read path's errors. */
CUZK_TEST(snarkjs_load_mapped_files)
{
    static const char *names[2] = {"poseidon.wtns", "multiplier.zkey"};
    for (int k = 0; k < 2; k++) {
        size_t full;
        uint8_t *b = snark_fixture(names[k], &full);
        cuzk_free(b);
        CHECK(load_both(names[k], full) == CUZK_OK);
        CHECK(load_both(names[k], full - 1) == CUZK_ERR_FORMAT);
        CHECK(load_both(names[k], full / 2) == CUZK_ERR_FORMAT);
        CHECK(load_both(names[k], 11) == CUZK_ERR_FORMAT);
        CHECK(load_both(names[k], 0) == CUZK_ERR_FORMAT);
        CHECK(strstr(cuzk_last_error(), "shorter than the 12-byte binfile header"));
    }
    cuzk_snarkjs_wtns *w;
    cuzk_snarkjs_zkey *zk;
    CHECK(cuzk_snarkjs_wtns_load(&w, "/tmp") == CUZK_ERR_IO && !w);
    CHECK(strstr(cuzk_last_error(), "not a regular file"));
    CHECK(cuzk_snarkjs_zkey_load(&zk, "/tmp", 0, NULL) == CUZK_ERR_IO && !zk);
}

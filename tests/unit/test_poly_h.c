/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The H step (src/poly/h.c): satisfied random systems against h Z = A B - C, the formats.md
 * recipes and the negacyclic form step by step, snarkjs's odd-coset values and its own h scalars
 * (fixtures/snarkjs). */
#include "test_poly_util.h"
#include "cuzk/backend.h"

#include <stdio.h>
#include <string.h>

/* A satisfied system: random a, b on the first |m| rows, zero padding, c = a * b pointwise. */
static void satisfied(cuzk_fr_t *a, cuzk_fr_t *b, cuzk_fr_t *c, size_t n, size_t m)
{
    memset(a, 0, n * sizeof *a);
    memset(b, 0, n * sizeof *b);
    rand_vec(a, m);
    rand_vec(b, m);
    for (size_t i = 0; i < n; i++)
        cuzk_fr_mul(&c[i], &a[i], &b[i]);
}

CUZK_TEST(poly_h_bellperson_satisfied)
{
    cuzk_pool *pool;
    CHECK(cuzk_pool_create(&pool, 2) == CUZK_OK);
    static const unsigned logs[] = {0, 1, 2, 3, 5, 8, 12, 13, 15};
    for (size_t li = 0; li < sizeof logs / sizeof logs[0]; li++) {
        size_t n = (size_t)1 << logs[li];
        size_t m = n > 4 ? n - (size_t)(test_rand_u64() % (n / 4)) : n;
        cuzk_domain *d = domain(n, CUZK_ROOTS_BELLPERSON);
        cuzk_fr_t *a = vec_alloc(n), *b = vec_alloc(n), *c = vec_alloc(n);
        cuzk_fr_t *pa = vec_alloc(n), *pb = vec_alloc(n), *pc = vec_alloc(n);
        satisfied(a, b, c, n, m);
        /* A, B, C as polynomials (coefficients) for the identity check below */
        memcpy(pa, a, n * sizeof *a);
        memcpy(pb, b, n * sizeof *b);
        memcpy(pc, c, n * sizeof *c);
        cuzk_intt(d, pa, NULL);
        cuzk_intt(d, pb, NULL);
        cuzk_intt(d, pc, NULL);

        cuzk_poly_h(d, a, b, c, logs[li] & 1 ? pool : NULL);
        /* deg h < n - 1 */
        CHECK_MSG(cuzk_fr_is_zero(&a[n - 1]), "2^%u: h[n-1] != 0", logs[li]);
        /* h(x) * (x^n - 1) = A(x) B(x) - C(x) at random points */
        for (int k = 0; k < 3; k++) {
            cuzk_fr_t x, h, va, vb, vc, z, one, lhs, rhs;
            test_rand_fr(&x);
            horner(&h, a, n, &x);
            horner(&va, pa, n, &x);
            horner(&vb, pb, n, &x);
            horner(&vc, pc, n, &x);
            fr_pow_u64(&z, &x, n);
            cuzk_fr_set_one(&one);
            cuzk_fr_sub(&z, &z, &one);
            cuzk_fr_mul(&lhs, &h, &z);
            cuzk_fr_mul(&rhs, &va, &vb);
            cuzk_fr_sub(&rhs, &rhs, &vc);
            CHECK_MSG(cuzk_fr_eq(&lhs, &rhs), "2^%u: h Z != A B - C", logs[li]);
        }
        cuzk_free(a);
        cuzk_free(b);
        cuzk_free(c);
        cuzk_free(pa);
        cuzk_free(pb);
        cuzk_free(pc);
        cuzk_domain_destroy(d);
    }
    cuzk_pool_destroy(pool);
}

/* x[k] *= s^k for k < n. */
static void scale_powers(cuzk_fr_t *x, size_t n, const cuzk_fr_t *s)
{
    cuzk_fr_t p;
    cuzk_fr_set_one(&p);
    for (size_t k = 0; k < n; k++) {
        cuzk_fr_mul(&x[k], &x[k], &p);
        cuzk_fr_mul(&p, &p, s);
    }
}

/* The bellperson H step as cuzk/poly.h states it for any a, b, c: h = (C - N) / 2 with
 * C = iNTT(c) and N = A B mod (X^n + 1), computed here as a negacyclic product through the
 * public transforms (A(s X), B(s X) with s = omega_2n, s^n = -1, make it cyclic). */
static void h_negacyclic(const cuzk_domain *d, cuzk_fr_t *w[3])
{
    size_t n = cuzk_domain_size(d);
    cuzk_fr_t s, si, half;
    cuzk_domain_omega_2n(d, &s);
    cuzk_fr_inv(&si, &s);
    cuzk_fr_set_u64(&half, 2);
    cuzk_fr_inv(&half, &half);
    for (int k = 0; k < 3; k++)
        cuzk_intt(d, w[k], NULL);
    for (int k = 0; k < 2; k++) {
        scale_powers(w[k], n, &s);
        cuzk_ntt(d, w[k], NULL);
    }
    for (size_t i = 0; i < n; i++)
        cuzk_fr_mul(&w[0][i], &w[0][i], &w[1][i]);
    cuzk_intt(d, w[0], NULL);
    scale_powers(w[0], n, &si);
    for (size_t i = 0; i < n; i++) {
        cuzk_fr_sub(&w[0][i], &w[2][i], &w[0][i]);
        cuzk_fr_mul(&w[0][i], &w[0][i], &half);
    }
}

CUZK_TEST(poly_h_matches_step_by_step)
{
    /* cuzk_poly_h against the recipe of formats.md 3.4 / 4.6 spelled out with the public
     * transforms, on a satisfied system and on random (unsatisfied) vectors; for bellperson the
     * recipe holds on satisfied systems only, and the unsatisfied ones are checked against the
     * negacyclic form of cuzk/poly.h (which the satisfied ones must match too). */
    cuzk_pool *pool;
    CHECK(cuzk_pool_create(&pool, 2) == CUZK_OK);
    static const unsigned logs[] = {1, 4, 10, 13, 14};
    for (int f = 0; f < 2; f++) {
        for (size_t li = 0; li < sizeof logs / sizeof logs[0]; li++) {
            size_t n = (size_t)1 << logs[li];
            cuzk_domain *d = domain(n, families[f]);
            cuzk_fr_t *v[3], *w[3];
            for (int k = 0; k < 3; k++) {
                v[k] = vec_alloc(n);
                w[k] = vec_alloc(n);
            }
            for (int sat = 0; sat < 2; sat++) {
                if (sat)
                    satisfied(v[0], v[1], v[2], n, n);
                else
                    for (int k = 0; k < 3; k++)
                        rand_vec(v[k], n);
                if (families[f] == CUZK_ROOTS_BELLPERSON) {
                    cuzk_fr_t *u[3];
                    for (int k = 0; k < 3; k++) {
                        u[k] = vec_alloc(n);
                        memcpy(u[k], v[k], n * sizeof *u[k]);
                    }
                    h_negacyclic(d, u);
                    cuzk_fr_t *got = vec_alloc(n);
                    memcpy(got, v[0], n * sizeof *got);
                    cuzk_fr_t *b2 = vec_alloc(n), *c2 = vec_alloc(n);
                    memcpy(b2, v[1], n * sizeof *b2);
                    memcpy(c2, v[2], n * sizeof *c2);
                    cuzk_poly_h(d, got, b2, c2, logs[li] > 10 ? pool : NULL);
                    CHECK_MSG(vec_eq(got, u[0], n), "negacyclic form, 2^%u satisfied=%d", logs[li],
                              sat);
                    for (int k = 0; k < 3; k++)
                        cuzk_free(u[k]);
                    cuzk_free(got), cuzk_free(b2), cuzk_free(c2);
                    if (!sat)
                        continue;
                }
                for (int k = 0; k < 3; k++) {
                    memcpy(w[k], v[k], n * sizeof *w[k]);
                    cuzk_intt(d, w[k], NULL);
                    cuzk_coset_ntt(d, w[k], NULL);
                }
                cuzk_fr_t zi;
                cuzk_domain_coset_z(d, &zi);
                cuzk_fr_inv(&zi, &zi);
                for (size_t i = 0; i < n; i++) {
                    cuzk_fr_mul(&w[0][i], &w[0][i], &w[1][i]);
                    cuzk_fr_sub(&w[0][i], &w[0][i], &w[2][i]);
                    if (families[f] == CUZK_ROOTS_BELLPERSON)
                        cuzk_fr_mul(&w[0][i], &w[0][i], &zi);
                }
                if (families[f] == CUZK_ROOTS_BELLPERSON)
                    cuzk_coset_intt(d, w[0], NULL);
                cuzk_poly_h(d, v[0], v[1], v[2], logs[li] > 10 ? pool : NULL);
                CHECK_MSG(vec_eq(v[0], w[0], n), "family %d 2^%u satisfied=%d", f, logs[li], sat);
            }
            for (int k = 0; k < 3; k++) {
                cuzk_free(v[k]);
                cuzk_free(w[k]);
            }
            cuzk_domain_destroy(d);
        }
    }
    cuzk_pool_destroy(pool);
}

CUZK_TEST(poly_h_snarkjs_odd_coset_values)
{
    /* snarkjs: h_i = A(x_i) B(x_i) - C(x_i) at x_i = omega_2n * omega_n^i, evaluated naively. */
    for (unsigned l = 0; l <= 7; l++) {
        size_t n = (size_t)1 << l;
        cuzk_domain *d = domain(n, CUZK_ROOTS_SNARKJS);
        cuzk_fr_t *a = vec_alloc(n), *b = vec_alloc(n), *c = vec_alloc(n), *p[3];
        satisfied(a, b, c, n, n);
        cuzk_fr_t *src[3] = {a, b, c};
        for (int k = 0; k < 3; k++) {
            p[k] = vec_alloc(n);
            memcpy(p[k], src[k], n * sizeof *a);
            cuzk_intt(d, p[k], NULL);
        }
        cuzk_poly_h(d, a, b, c, NULL);
        cuzk_fr_t w, x;
        cuzk_domain_omega(d, &w);
        cuzk_domain_coset_gen(d, &x);
        for (size_t i = 0; i < n; i++) {
            cuzk_fr_t va, vb, vc;
            horner(&va, p[0], n, &x);
            horner(&vb, p[1], n, &x);
            horner(&vc, p[2], n, &x);
            cuzk_fr_mul(&va, &va, &vb);
            cuzk_fr_sub(&va, &va, &vc);
            CHECK_MSG(cuzk_fr_eq(&a[i], &va), "2^%u, i = %zu", l, i);
            cuzk_fr_mul(&x, &x, &w);
        }
        for (int k = 0; k < 3; k++)
            cuzk_free(p[k]);
        cuzk_free(a);
        cuzk_free(b);
        cuzk_free(c);
        cuzk_domain_destroy(d);
    }
}

/* ---- snarkjs fixtures: a test-local reader of just what the H step needs --------------------
 * binfile (formats.md 4.1): magic, u32 version, u32 nSections, then {u32 type, u64 size, body}. */

static uint8_t *read_file(const char *name, size_t *len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/snarkjs/%s", test_fixtures_dir(), name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(sz > 0 ? (size_t)sz : 1);
    CHECK(buf != NULL);
    CHECK(fread(buf, 1, (size_t)sz, f) == (size_t)sz);
    fclose(f);
    *len = (size_t)sz;
    return buf;
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p)
{
    return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static const uint8_t *section(const uint8_t *buf, size_t len, const char *magic, uint32_t type,
                              uint64_t *size)
{
    CHECK(len >= 12 && memcmp(buf, magic, 4) == 0);
    uint32_t ns = rd32(buf + 8);
    size_t off = 12;
    for (uint32_t i = 0; i < ns; i++) {
        CHECK(off + 12 <= len);
        uint32_t t = rd32(buf + off);
        uint64_t sz = rd64(buf + off + 4);
        CHECK(sz <= len - off - 12);
        if (t == type) {
            *size = sz;
            return buf + off + 12;
        }
        off += 12 + (size_t)sz;
    }
    test_fail_at(__FILE__, __LINE__, "%s section %u missing", magic, type);
}

static void check_hscalars(const char *circuit)
{
    char name[128];
    size_t zlen, wlen, hlen;
    snprintf(name, sizeof name, "%s.zkey", circuit);
    uint8_t *zkey = read_file(name, &zlen);
    snprintf(name, sizeof name, "%s.wtns", circuit);
    uint8_t *wtns = read_file(name, &wlen);
    snprintf(name, sizeof name, "%s.hscalars.bin", circuit);
    uint8_t *hs = read_file(name, &hlen);
    if (!zkey || !wtns || !hs)
        test_skip("snarkjs fixtures not found (set CUZK_FIXTURES)");

    uint64_t sz;
    const uint8_t *hdr = section(zkey, zlen, "zkey", 2, &sz);
    CHECK(sz >= 100 && rd32(hdr + 52) == 32);
    uint32_t n_vars = rd32(hdr + 88), n_public = rd32(hdr + 92), n = rd32(hdr + 96);
    CHECK(hlen == (size_t)n * 32);
    const uint8_t *ws = section(wtns, wlen, "wtns", 2, &sz);
    CHECK(sz == (uint64_t)n_vars * 32);
    cuzk_fr_t *w = vec_alloc(n_vars);
    for (uint32_t i = 0; i < n_vars; i++)
        CHECK(cuzk_fr_from_bytes_le(&w[i], ws + 32 * (size_t)i) == CUZK_OK);

    cuzk_domain *d = domain(n, CUZK_ROOTS_SNARKJS);
    CHECK(cuzk_domain_size(d) == n);
    cuzk_fr_t *a = vec_alloc(n), *b = vec_alloc(n), *c = vec_alloc(n);
    memset(a, 0, n * sizeof *a);
    memset(b, 0, n * sizeof *b);
    /* Section 4: a[row] += (v R^-2) w[s] (matrix 0), b likewise (matrix 1). v = coef R^2 read as
     * raw limbs, Montgomery-reduced once (v R^-1 = coef R), is coef in Montgomery form. */
    const uint8_t *co = section(zkey, zlen, "zkey", 4, &sz);
    uint32_t nc = rd32(co);
    CHECK(sz == 4 + (uint64_t)nc * 44);
    for (uint32_t i = 0; i < nc; i++) {
        const uint8_t *e = co + 4 + 44 * (size_t)i;
        uint32_t mat = rd32(e), row = rd32(e + 4), sig = rd32(e + 8);
        CHECK(mat <= 1 && row < n && sig < n_vars);
        cuzk_fr_t raw, coef, t;
        for (int k = 0; k < 4; k++)
            raw.l[k] = rd64(e + 12 + 8 * k);
        cuzk_fr_to_canonical(coef.l, &raw);
        cuzk_fr_mul(&t, &coef, &w[sig]);
        cuzk_fr_t *v = mat == 0 ? a : b;
        cuzk_fr_add(&v[row], &v[row], &t);
    }
    for (uint32_t i = 0; i < n; i++)
        cuzk_fr_mul(&c[i], &a[i], &b[i]);
    (void)n_public;
    cuzk_poly_h(d, a, b, c, NULL);
    for (uint32_t i = 0; i < n; i++) {
        uint8_t out[32];
        cuzk_fr_to_bytes_le(out, &a[i]);
        CHECK_MSG(memcmp(out, hs + 32 * (size_t)i, 32) == 0, "%s: h[%u] differs", circuit, i);
    }
    printf("# %s: %u h scalars match snarkjs (N = %u, nVars = %u, %u coefficients)\n", circuit, n,
           n, n_vars, nc);
    cuzk_free(a);
    cuzk_free(b);
    cuzk_free(c);
    cuzk_free(w);
    cuzk_domain_destroy(d);
    free(zkey);
    free(wtns);
    free(hs);
}

CUZK_TEST(poly_h_snarkjs_fixture_multiplier)
{
    check_hscalars("multiplier");
}

CUZK_TEST(poly_h_snarkjs_fixture_poseidon)
{
    check_hscalars("poseidon");
}

/* cuzk_backend_h without c (c = a b, a PROVE_AB synthesis): the CPU backend has no way to form
 * it without a third vector, so it refuses with CUZK_ERR_UNSUPPORTED and leaves a and b as they
 * were (the prover then forms c); with c it gives cuzk_poly_h's h. */
CUZK_TEST(backend_h_without_c_on_the_cpu)
{
    cuzk_backend *be;
    CHECK(cuzk_backend_create(&be, CUZK_BACKEND_CPU, 2) == CUZK_OK);
    const size_t n = 256;
    cuzk_domain *d = domain(n, CUZK_ROOTS_BELLPERSON);
    cuzk_fr_t *a = vec_alloc(n), *b = vec_alloc(n), *c = vec_alloc(n);
    cuzk_fr_t *a0 = vec_alloc(n), *b0 = vec_alloc(n), *c0 = vec_alloc(n);
    satisfied(a, b, c, n, n - 3);
    memcpy(a0, a, n * sizeof *a);
    memcpy(b0, b, n * sizeof *b);
    memcpy(c0, c, n * sizeof *c);
    CHECK(cuzk_backend_h(be, d, a, b, NULL) == CUZK_ERR_UNSUPPORTED);
    CHECK(memcmp(a, a0, n * sizeof *a) == 0 && memcmp(b, b0, n * sizeof *b) == 0);
    CHECK(cuzk_backend_h(be, d, a, b, c) == CUZK_OK);
    cuzk_poly_h(d, a0, b0, c0, NULL);
    CHECK(memcmp(a, a0, n * sizeof *a) == 0);
    cuzk_free(a), cuzk_free(b), cuzk_free(c);
    cuzk_free(a0), cuzk_free(b0), cuzk_free(c0);
    cuzk_domain_destroy(d);
    cuzk_backend_destroy(be);
}

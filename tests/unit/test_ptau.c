/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * cuzk_snarkjs_ptau_write: the file is read back with cuzk's binfile reader and checked
 * against facts that do not depend on how the writer computes its points: every monomial point
 * equals tau^i * G computed by a plain scalar multiplication; the pairing relations a ptau
 * verifier checks without knowing tau hold; every Lagrange block transforms back (forward FFT
 * with snarkjs's 5-based roots, formats.md section 1) to the monomial points; bad arguments
 * leave nothing behind. (Byte-identity with `snarkjs powersoftau prepare phase2` is checked by
 * scripts, since it needs node: see docs/PERFORMANCE.md, "cuzk vs snarkjs prove".)
 */
#include "test.h"
#include "cuzk/alloc.h"
#include "cuzk/msm.h"
#include "cuzk/pairing.h"
#include "cuzk/poly.h"
#include "cuzk/snarkjs.h"
#include "common/file.h"
#include "groth16/snarkjs_internal.h"

#include <dirent.h>
#include <unistd.h>

#define G1B 96
#define G2B 192

static void rand_fr(cuzk_fr_t *out)
{
    uint64_t l[4];
    do {
        test_rand_bytes(l, sizeof l);
        l[3] &= 0x7fffffffffffffffULL;
    } while (!cuzk_fr_from_canonical(out, l) || cuzk_fr_is_zero(out));
}

static void fr_hex(cuzk_fr_t *out, const char *hex)
{
    uint8_t be[32];
    uint64_t l[4];
    CHECK(test_unhex(be, 32, hex));
    for (int i = 0; i < 4; i++) {
        l[i] = 0;
        for (int b = 0; b < 8; b++)
            l[i] |= (uint64_t)be[31 - 8 * i - b] << (8 * b);
    }
    CHECK(cuzk_fr_from_canonical(out, l));
}

static void omega_snarkjs(cuzk_fr_t *out, unsigned log_n)
{
    cuzk_domain *d;
    CHECK(cuzk_domain_create(&d, (size_t)1 << log_n, CUZK_ROOTS_SNARKJS) == CUZK_OK);
    cuzk_domain_omega(d, out);
    cuzk_domain_destroy(d);
}

/* A fresh empty directory; the caller removes it (it must be empty again by then). */
static void temp_dir(char path[64])
{
    strcpy(path, "/tmp/cuzk-test-ptau-XXXXXX");
    CHECK(mkdtemp(path) != NULL);
}

static size_t dir_entries(const char *path)
{
    DIR *d = opendir(path);
    CHECK(d);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

typedef struct {
    uint8_t *buf;
    size_t len;
    cuzk__binfile bf;
    const cuzk__bin_section *sec[16];
} ptau_file;

static void open_file(ptau_file *f, const char *path, unsigned power)
{
    CHECK_MSG(cuzk_read_file(path, &f->buf, &f->len, (size_t)1 << 31) == CUZK_OK, "%s",
              cuzk_last_error());
    CHECK_MSG(cuzk__binfile_open(&f->bf, f->buf, f->len, "ptau", 1, "ptau") == CUZK_OK, "%s",
              cuzk_last_error());
    /* snarkjs's order (powersoftau new, then prepare phase2) and sizes (formats.md 4.7). */
    static const uint32_t order[11] = {1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15};
    uint64_t m = (uint64_t)1 << power;
    const uint64_t size[11] = {
        60, (2 * m - 1) * G1B, m * G2B,           m * G1B,           m * G1B,          G2B,
        4,  (4 * m - 1) * G1B, (2 * m - 1) * G2B, (2 * m - 1) * G1B, (2 * m - 1) * G1B};
    CHECK(f->bf.n_sections == 11);
    memset(f->sec, 0, sizeof f->sec);
    for (int i = 0; i < 11; i++) {
        CHECK_MSG(f->bf.sections[i].type == order[i] && f->bf.sections[i].size == size[i],
                  "section %d: type %u size %llu, want type %u size %llu", i,
                  f->bf.sections[i].type, (unsigned long long)f->bf.sections[i].size, order[i],
                  (unsigned long long)size[i]);
        f->sec[order[i]] = &f->bf.sections[i];
    }
    const uint8_t *h = f->buf + f->sec[1]->offset;
    uint64_t q[6];
    cuzk__load_limbs(q, h + 4, 6);
    CHECK(cuzk__le32(h) == 48 && memcmp(q, cuzk__bls_q, sizeof q) == 0);
    CHECK(cuzk__le32(h + 52) == power && cuzk__le32(h + 56) == power);
    CHECK(cuzk__le32(f->buf + f->sec[7]->offset) == 0); /* no contribution records */
}

static void close_file(ptau_file *f)
{
    cuzk__binfile_close(&f->bf);
    cuzk_free(f->buf);
}

static cuzk_g1_affine_t *g1s(const ptau_file *f, uint32_t type)
{
    size_t n = f->sec[type]->size / G1B;
    cuzk_g1_affine_t *p = cuzk_alloc_array(n, sizeof *p);
    CHECK(p);
    for (size_t i = 0; i < n; i++)
        CHECK_MSG(cuzk__lem_g1(&p[i], f->buf + f->sec[type]->offset + i * G1B, true) == CUZK_OK,
                  "section %u point %zu: %s", type, i, cuzk_last_error());
    return p;
}

static cuzk_g2_affine_t *g2s(const ptau_file *f, uint32_t type)
{
    size_t n = f->sec[type]->size / G2B;
    cuzk_g2_affine_t *p = cuzk_alloc_array(n, sizeof *p);
    CHECK(p);
    for (size_t i = 0; i < n; i++)
        CHECK_MSG(cuzk__lem_g2(&p[i], f->buf + f->sec[type]->offset + i * G2B, true) == CUZK_OK,
                  "section %u point %zu: %s", type, i, cuzk_last_error());
    return p;
}

/* want[i] = factor * tau^i * G by the constant-time ladder (not the writer's fixed-base code). */
static void check_powers_g1(const cuzk_g1_affine_t *got, size_t n, const cuzk_fr_t *tau,
                            const cuzk_fr_t *factor, const char *what)
{
    cuzk_g1_affine_t g;
    cuzk_g1_jac_t gj, w, gotj;
    cuzk_g1_generator(&g);
    cuzk_g1_from_affine(&gj, &g);
    cuzk_fr_t k = *factor;
    for (size_t i = 0; i < n; i++) {
        cuzk_g1_mul(&w, &gj, &k);
        cuzk_g1_from_affine(&gotj, &got[i]);
        CHECK_MSG(cuzk_g1_eq(&w, &gotj), "%s[%zu] != factor * tau^%zu * G1", what, i, i);
        cuzk_fr_mul(&k, &k, tau);
    }
}

static void check_powers_g2(const cuzk_g2_affine_t *got, size_t n, const cuzk_fr_t *tau,
                            const cuzk_fr_t *factor, const char *what)
{
    cuzk_g2_affine_t g;
    cuzk_g2_jac_t gj, w, gotj;
    cuzk_g2_generator(&g);
    cuzk_g2_from_affine(&gj, &g);
    cuzk_fr_t k = *factor;
    for (size_t i = 0; i < n; i++) {
        cuzk_g2_mul(&w, &gj, &k);
        cuzk_g2_from_affine(&gotj, &got[i]);
        CHECK_MSG(cuzk_g2_eq(&w, &gotj), "%s[%zu] != factor * tau^%zu * G2", what, i, i);
        cuzk_fr_mul(&k, &k, tau);
    }
}

/* e(a, b) == e(c, d) */
static bool same_pairing(const cuzk_g1_affine_t *a, const cuzk_g2_affine_t *b,
                         const cuzk_g1_affine_t *c, const cuzk_g2_affine_t *d)
{
    cuzk_g1_affine_t p[2] = {*a, *c};
    cuzk_g2_affine_t q[2] = {*b, *d};
    cuzk_g1_affine_neg(&p[1], &p[1]);
    return cuzk_pairing_product_is_one(p, q, 2);
}

/*
 * Lagrange section |lag| (blocks 2^0 .. 2^top) against the monomial points |mono|: for every
 * block M and every k < M, sum_i omega_M^(ik) L_i = mono[k] (the forward FFT undoes the
 * inverse FFT snarkjs's prepare phase2 applies). In the truncated top block of section 12 the
 * monomial tau^(M-1) is absent and the sum is the identity.
 */
#define CHECK_LAGRANGE(G, JAC, AFF)                                                                \
    static void check_lagrange_##G(const AFF *lag, const AFF *mono, size_t n_mono, unsigned top,   \
                                   const char *what)                                               \
    {                                                                                              \
        size_t at = 0;                                                                             \
        for (unsigned p = 0; p <= top; p++) {                                                      \
            size_t m = (size_t)1 << p;                                                             \
            cuzk_fr_t w, wk, *s = cuzk_alloc_array(m, sizeof *s);                                  \
            CHECK(s);                                                                              \
            if (p == 0)                                                                            \
                cuzk_fr_set_one(&w);                                                               \
            else                                                                                   \
                omega_snarkjs(&w, p);                                                              \
            cuzk_fr_set_one(&wk);                                                                  \
            for (size_t k = 0; k < m; k++) {                                                       \
                cuzk_fr_set_one(&s[0]);                                                            \
                for (size_t i = 1; i < m; i++)                                                     \
                    cuzk_fr_mul(&s[i], &s[i - 1], &wk);                                            \
                JAC sum, want;                                                                     \
                CHECK(cuzk_##G##_msm(&sum, lag + at, s, m, NULL) == CUZK_OK);                      \
                if (k < n_mono)                                                                    \
                    cuzk_##G##_from_affine(&want, &mono[k]);                                       \
                else                                                                               \
                    cuzk_##G##_jac_set_infinity(&want);                                            \
                CHECK_MSG(cuzk_##G##_eq(&sum, &want), "%s: block 2^%u, k = %zu", what, p, k);      \
                cuzk_fr_mul(&wk, &wk, &w);                                                         \
            }                                                                                      \
            cuzk_free(s);                                                                          \
            at += m;                                                                               \
        }                                                                                          \
    }
CHECK_LAGRANGE(g1, cuzk_g1_jac_t, cuzk_g1_affine_t)
CHECK_LAGRANGE(g2, cuzk_g2_jac_t, cuzk_g2_affine_t)

static void check_ptau(unsigned power, cuzk_pool *pool)
{
    cuzk_fr_t tau, alpha, beta, one;
    rand_fr(&tau);
    rand_fr(&alpha);
    rand_fr(&beta);
    cuzk_fr_set_one(&one);
    char dir[64], path[96];
    temp_dir(dir);
    snprintf(path, sizeof path, "%s/t.ptau", dir);
    CHECK_MSG(cuzk_snarkjs_ptau_write(path, power, &tau, &alpha, &beta, pool) == CUZK_OK, "%s",
              cuzk_last_error());
    CHECK(dir_entries(dir) == 1); /* no temporary file left */
    ptau_file f;
    open_file(&f, path, power);
    size_t m = (size_t)1 << power;
    cuzk_g1_affine_t *tau_g1 = g1s(&f, 2), *alpha_g1 = g1s(&f, 4), *beta_g1 = g1s(&f, 5);
    cuzk_g2_affine_t *tau_g2 = g2s(&f, 3), *beta_g2 = g2s(&f, 6);
    cuzk_g1_affine_t *l_tau = g1s(&f, 12), *l_alpha = g1s(&f, 14), *l_beta = g1s(&f, 15);
    cuzk_g2_affine_t *l_tau2 = g2s(&f, 13);

    /* Monomial sections from the secrets. */
    check_powers_g1(tau_g1, 2 * m - 1, &tau, &one, "tauG1");
    check_powers_g2(tau_g2, m, &tau, &one, "tauG2");
    check_powers_g1(alpha_g1, m, &tau, &alpha, "alphaTauG1");
    check_powers_g1(beta_g1, m, &tau, &beta, "betaTauG1");
    check_powers_g2(beta_g2, 1, &tau, &beta, "betaG2");

    /* What a verifier without the secrets can check. */
    cuzk_g1_affine_t g1;
    cuzk_g2_affine_t g2;
    cuzk_g1_generator(&g1);
    cuzk_g2_generator(&g2);
    for (size_t i = 0; i + 1 < m; i++) {
        CHECK_MSG(same_pairing(&tau_g1[i], &g2, &g1, &tau_g2[i]), "e(tau^%zu G1, G2)", i);
        CHECK(same_pairing(&tau_g1[i + 1], &g2, &tau_g1[i], &tau_g2[1]));
        CHECK(same_pairing(&alpha_g1[i + 1], &g2, &alpha_g1[i], &tau_g2[1]));
        CHECK(same_pairing(&beta_g1[i + 1], &g2, &beta_g1[i], &tau_g2[1]));
    }
    CHECK(same_pairing(&tau_g1[2 * m - 2], &g2, &tau_g1[m - 1], &tau_g2[m - 1]));
    CHECK(same_pairing(&beta_g1[0], &g2, &g1, &beta_g2[0]));

    /* Lagrange sections against the monomial ones. */
    check_lagrange_g1(l_tau, tau_g1, 2 * m - 1, power + 1, "section 12");
    check_lagrange_g2(l_tau2, tau_g2, m, power, "section 13");
    check_lagrange_g1(l_alpha, alpha_g1, m, power, "section 14");
    check_lagrange_g1(l_beta, beta_g1, m, power, "section 15");

    /* The same secrets give the same bytes, with or without threads. */
    char path2[96];
    snprintf(path2, sizeof path2, "%s/u.ptau", dir);
    CHECK(cuzk_snarkjs_ptau_write(path2, power, &tau, &alpha, &beta, NULL) == CUZK_OK);
    uint8_t *b2;
    size_t len2;
    CHECK(cuzk_read_file(path2, &b2, &len2, (size_t)1 << 31) == CUZK_OK);
    CHECK(len2 == f.len && memcmp(b2, f.buf, len2) == 0);
    cuzk_free(b2);

    cuzk_free(tau_g1);
    cuzk_free(alpha_g1);
    cuzk_free(beta_g1);
    cuzk_free(tau_g2);
    cuzk_free(beta_g2);
    cuzk_free(l_tau);
    cuzk_free(l_alpha);
    cuzk_free(l_beta);
    cuzk_free(l_tau2);
    close_file(&f);
    CHECK(unlink(path) == 0 && unlink(path2) == 0 && rmdir(dir) == 0);
}

CUZK_TEST(ptau_write_power1)
{
    check_ptau(1, NULL);
}

CUZK_TEST(ptau_write_power4_threads)
{
    cuzk_pool *pool;
    CHECK(cuzk_pool_create(&pool, 2) == CUZK_OK);
    check_ptau(4, pool);
    cuzk_pool_destroy(pool);
}

/* The writer's root family must be snarkjs's (formats.md section 1 constants). */
CUZK_TEST(ptau_snarkjs_roots)
{
    cuzk_fr_t w, want;
    omega_snarkjs(&w, 16);
    fr_hex(&want, "6709c6cd56aa725b0409ee987a02402c0caba63a29c01b06137b458acfc35f7a");
    CHECK(cuzk_fr_eq(&w, &want));
    omega_snarkjs(&w, 17);
    fr_hex(&want, "05deb333f8727901ebe905bd4fb9ac5c77d85a937ff858ec10251f7d8831e03e");
    CHECK(cuzk_fr_eq(&w, &want));
}

CUZK_TEST(ptau_write_rejects)
{
    cuzk_fr_t tau, alpha, beta, zero, bad;
    rand_fr(&tau);
    rand_fr(&alpha);
    rand_fr(&beta);
    cuzk_fr_set_zero(&zero);
    char dir[64], path[96];
    temp_dir(dir);
    snprintf(path, sizeof path, "%s/t.ptau", dir);
    CHECK(cuzk_snarkjs_ptau_write(NULL, 3, &tau, &alpha, &beta, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_snarkjs_ptau_write(path, 3, &tau, &alpha, NULL, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_snarkjs_ptau_write(path, 0, &tau, &alpha, &beta, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(strstr(cuzk_last_error(), "power 0"));
    CHECK(cuzk_snarkjs_ptau_write(path, CUZK_SNARKJS_PTAU_MAX_POWER + 1, &tau, &alpha, &beta,
                                  NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_snarkjs_ptau_write(path, 3, &tau, &zero, &beta, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_snarkjs_ptau_write(path, 3, &zero, &alpha, &beta, NULL) == CUZK_ERR_INVALID_ARG);
    /* tau on an evaluation domain: 1, and a root of unity of order 2^(power+1). */
    cuzk_fr_set_one(&bad);
    CHECK(cuzk_snarkjs_ptau_write(path, 3, &bad, &alpha, &beta, NULL) == CUZK_ERR_INVALID_ARG);
    omega_snarkjs(&bad, 4);
    CHECK(cuzk_snarkjs_ptau_write(path, 3, &bad, &alpha, &beta, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(strstr(cuzk_last_error(), "root of unity"));
    /* ... but one of higher order is a valid (if odd) tau. */
    omega_snarkjs(&bad, 5);
    CHECK(cuzk_snarkjs_ptau_write(path, 3, &bad, &alpha, &beta, NULL) == CUZK_OK);
    CHECK(unlink(path) == 0);
    CHECK(dir_entries(dir) == 0);
    /* A directory that does not exist: an I/O error naming the path. */
    char missing[128];
    snprintf(missing, sizeof missing, "%s/no/such/dir/t.ptau", dir);
    CHECK(cuzk_snarkjs_ptau_write(missing, 2, &tau, &alpha, &beta, NULL) == CUZK_ERR_IO);
    CHECK(strstr(cuzk_last_error(), missing));
    CHECK(dir_entries(dir) == 0);
    CHECK(rmdir(dir) == 0);
}

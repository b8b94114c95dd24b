/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * A prepared ("phase 2") snarkjs powers-of-tau file for BLS12-381 from known toxic waste
 * (formats.md 4.7; snarkjs src/powersoftau_new.js, src/powersoftau_preparephase2.js,
 * src/zkey_new.js). The file has the sections `powersoftau new` + `prepare phase2` write, in
 * their order: 1 header, 2 tauG1, 3 tauG2, 4 alphaTauG1, 5 betaTauG1, 6 betaG2,
 * 7 contributions (none), 12..15 the Lagrange forms of 2..5. Points are LEM (formats.md 2.2).
 *
 * snarkjs makes section 12..15 by an inverse FFT of the monomial points for every size
 * M = 2^p. Since tau is known here each point is one fixed-base multiplication by the scalar
 * L_i(tau) = omega^i (tau^M - 1) / (M (tau - omega^i)) with snarkjs's 5-based omega_M: the
 * inverse FFT of (tau^k)_{k<M} is exactly that. One special case is copied on purpose:
 * section 12 also holds the size 2^(P+1) block although tauG1 stops at tau^(2^(P+1) - 2);
 * snarkjs puts a zero in place of the missing tau^(M-1), so its block is
 * L_i(tau) - omega^i tau^(M-1) / M. (Provers never notice: they pair that block with values of
 * a polynomial of degree <= M - 2, for which the extra term sums to zero.)
 *
 * Cost: 12 * 2^P G1 and 3 * 2^P G2 fixed-base multiplications (src/groth16/fixed_base.c).
 */
#include "cuzk/snarkjs.h"
#include "cuzk/alloc.h"
#include "cuzk/poly.h"
#include "groth16/fixed_base.h"
#include "groth16/snarkjs_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define G1_BYTES 96
#define G2_BYTES 192
#define HEADER_BYTES 60 /* u32 n8, 48-byte q, u32 power, u32 ceremony power */
#define N_SECTIONS 11
/* Points per fixed-base call: each call rebuilds its 8,160-entry table (a few ms), so chunks
 * are large; the buffers of one chunk take ~30 MB for G2. */
#define CHUNK ((size_t)1 << 16)

/* The scalars of one section, in file order. Powers: factor * tau^i for i < n. Lagrange:
 * blocks p = 0 .. top one after the other, block p holding factor * L_i(tau), i < 2^p, over the
 * snarkjs domain of size 2^p; n = 2^(top + 1) - 1. */
typedef struct {
    const cuzk_fr_t *tau, *factor;
    bool lagrange;
    unsigned top;
    bool truncated_top;     /* the top block lacks tau^(M-1) (section 12, see above) */
    const cuzk_fr_t *omega; /* generator of the size-2^log_omega domain */
    unsigned log_omega;     /* >= top */
    size_t n;
} sequence;

typedef struct {
    cuzk_fr_t *k;   /* CHUNK scalars */
    cuzk_fr_t *tmp; /* 2 * CHUNK: denominators and their inverses */
    void *pts;      /* CHUNK affine points */
    uint8_t *bytes; /* CHUNK encoded points */
} buffers;

static void put32(uint8_t *o, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        o[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *o, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        o[i] = (uint8_t)(v >> (8 * i));
}

/* A Montgomery-form coordinate as snarkjs stores it: the limbs themselves (R = 2^384 on both
 * sides), little-endian. */
static void put_fp(uint8_t *o, const cuzk_fp_t *a)
{
    for (int i = 0; i < CUZK_FP_LIMBS; i++)
        put64(o + 8 * i, a->l[i]);
}

static void lem_g1(uint8_t o[G1_BYTES], const cuzk_g1_affine_t *p)
{
    if (p->infinity) {
        memset(o, 0, G1_BYTES);
        return;
    }
    put_fp(o, &p->x);
    put_fp(o + 48, &p->y);
}

static void lem_g2(uint8_t o[G2_BYTES], const cuzk_g2_affine_t *p)
{
    if (p->infinity) {
        memset(o, 0, G2_BYTES);
        return;
    }
    put_fp(o, &p->x.c0);
    put_fp(o + 48, &p->x.c1);
    put_fp(o + 96, &p->y.c0);
    put_fp(o + 144, &p->y.c1);
}

static void sqr_n(cuzk_fr_t *out, const cuzk_fr_t *a, unsigned k)
{
    *out = *a;
    for (unsigned i = 0; i < k; i++)
        cuzk_fr_sqr(out, out);
}

/* k[0 .. cnt) = factor * L_i(tau) for i = i0 .. i0 + cnt - 1 of the block of size 2^p. */
static void fill_lagrange_run(const sequence *s, cuzk_fr_t *k, cuzk_fr_t *tmp, unsigned p,
                              size_t i0, size_t cnt)
{
    cuzk_fr_t omega, w, tm, scale, corr, m_inv;
    sqr_n(&omega, s->omega, s->log_omega - p);
    sqr_n(&tm, s->tau, p); /* tau^M */
    cuzk_fr_set_u64(&m_inv, (uint64_t)1 << p);
    cuzk_fr_inv(&m_inv, &m_inv);
    cuzk_fr_set_one(&scale);
    cuzk_fr_sub(&scale, &tm, &scale);
    cuzk_fr_mul(&scale, &scale, &m_inv);
    cuzk_fr_mul(&scale, &scale, s->factor); /* factor (tau^M - 1) / M */
    cuzk_fr_set_zero(&corr);
    if (s->truncated_top && p == s->top) {
        /* factor tau^(M-1) / M = factor tau^M / (tau M) */
        cuzk_fr_inv(&corr, s->tau);
        cuzk_fr_mul(&corr, &corr, &tm);
        cuzk_fr_mul(&corr, &corr, &m_inv);
        cuzk_fr_mul(&corr, &corr, s->factor);
    }
    uint64_t e = i0;
    cuzk_fr_pow(&w, &omega, &e, 1);
    for (size_t j = 0; j < cnt; j++) {
        k[j] = w; /* omega^i, kept until the inverses are known */
        cuzk_fr_sub(&tmp[j], s->tau, &w);
        cuzk_fr_mul(&w, &w, &omega);
    }
    /* tau is no root of unity of these domains (checked by the caller): no zero denominators. */
    cuzk_fr_batch_inv(tmp + cnt, tmp, cnt);
    for (size_t j = 0; j < cnt; j++) {
        cuzk_fr_t t;
        cuzk_fr_mul(&t, &scale, &tmp[cnt + j]);
        cuzk_fr_sub(&t, &t, &corr);
        cuzk_fr_mul(&k[j], &k[j], &t);
    }
}

/* k[0 .. cnt) = scalars lo .. lo + cnt - 1 of |s|; |tmp| has room for 2 * CHUNK scalars. */
static void fill(const sequence *s, cuzk_fr_t *k, cuzk_fr_t *tmp, size_t lo, size_t cnt)
{
    if (!s->lagrange) {
        cuzk_fr_t t;
        uint64_t e = lo;
        cuzk_fr_pow(&t, s->tau, &e, 1);
        cuzk_fr_mul(&t, &t, s->factor);
        for (size_t j = 0; j < cnt; j++) {
            k[j] = t;
            cuzk_fr_mul(&t, &t, s->tau);
        }
        return;
    }
    /* Position lo lies in block p = floor(log2(lo + 1)) at index lo + 1 - 2^p. */
    size_t done = 0;
    while (done < cnt) {
        size_t pos = lo + done;
        unsigned p = 0;
        while (((size_t)2 << p) <= pos + 1)
            p++;
        size_t i0 = pos + 1 - ((size_t)1 << p);
        size_t run = ((size_t)1 << p) - i0;
        if (run > cnt - done)
            run = cnt - done;
        fill_lagrange_run(s, k + done, tmp, p, i0, run);
        done += run;
    }
}

static cuzk_status put_bytes(FILE *f, const void *b, size_t n, const char *path)
{
    if (fwrite(b, 1, n, f) != n)
        return cuzk_fail(CUZK_ERR_IO, "ptau: cannot write %s: %s", path, strerror(errno));
    return CUZK_OK;
}

static cuzk_status section_header(FILE *f, uint32_t type, uint64_t size, const char *path)
{
    uint8_t h[12];
    put32(h, type);
    put64(h + 4, size);
    return put_bytes(f, h, sizeof h, path);
}

/* Writes section |type| holding the points of |s| in group G1 (|g2| false) or G2. */
static cuzk_status emit(FILE *f, uint32_t type, const sequence *s, bool g2, buffers *b,
                        cuzk_pool *pool, const char *path)
{
    size_t psize = g2 ? G2_BYTES : G1_BYTES;
    cuzk_status st = section_header(f, type, (uint64_t)s->n * psize, path);
    for (size_t lo = 0; st == CUZK_OK && lo < s->n; lo += CHUNK) {
        size_t cnt = s->n - lo < CHUNK ? s->n - lo : CHUNK;
        fill(s, b->k, b->tmp, lo, cnt);
        if (g2) {
            cuzk_g2_affine_t *p = b->pts;
            st = cuzk_fixed_base_g2(p, b->k, cnt, pool);
            for (size_t j = 0; st == CUZK_OK && j < cnt; j++)
                lem_g2(b->bytes + j * G2_BYTES, &p[j]);
        } else {
            cuzk_g1_affine_t *p = b->pts;
            st = cuzk_fixed_base_g1(p, b->k, cnt, pool);
            for (size_t j = 0; st == CUZK_OK && j < cnt; j++)
                lem_g1(b->bytes + j * G1_BYTES, &p[j]);
        }
        if (st == CUZK_OK)
            st = put_bytes(f, b->bytes, cnt * psize, path);
    }
    return st;
}

static cuzk_status write_body(FILE *f, unsigned power, const cuzk_fr_t *tau, const cuzk_fr_t *alpha,
                              const cuzk_fr_t *beta, const cuzk_fr_t *omega, buffers *b,
                              cuzk_pool *pool, const char *path)
{
    size_t m = (size_t)1 << power;
    cuzk_fr_t one;
    cuzk_fr_set_one(&one);
    uint8_t head[12 + 12 + HEADER_BYTES];
    memcpy(head, "ptau", 4);
    put32(head + 4, 1);          /* version */
    put32(head + 8, N_SECTIONS); /* nSections */
    put32(head + 12, 1);         /* section 1: the header */
    put64(head + 16, HEADER_BYTES);
    put32(head + 24, 48); /* n8 of q */
    for (int i = 0; i < 6; i++)
        put64(head + 28 + 8 * i, cuzk__bls_q[i]);
    put32(head + 76, power); /* power */
    put32(head + 80, power); /* ceremony power */
    cuzk_status st = put_bytes(f, head, sizeof head, path);

    sequence tau_g1 = {tau, &one, false, 0, false, omega, power + 1, 2 * m - 1};
    sequence tau_g2 = {tau, &one, false, 0, false, omega, power + 1, m};
    sequence alpha_g1 = {tau, alpha, false, 0, false, omega, power + 1, m};
    sequence beta_g1 = {tau, beta, false, 0, false, omega, power + 1, m};
    sequence beta_g2 = {tau, beta, false, 0, false, omega, power + 1, 1};
    if (st == CUZK_OK)
        st = emit(f, 2, &tau_g1, false, b, pool, path);
    if (st == CUZK_OK)
        st = emit(f, 3, &tau_g2, true, b, pool, path);
    if (st == CUZK_OK)
        st = emit(f, 4, &alpha_g1, false, b, pool, path);
    if (st == CUZK_OK)
        st = emit(f, 5, &beta_g1, false, b, pool, path);
    if (st == CUZK_OK)
        st = emit(f, 6, &beta_g2, true, b, pool, path);
    if (st == CUZK_OK) {
        uint8_t none[4] = {0, 0, 0, 0}; /* u32 0: no contributions */
        st = section_header(f, 7, sizeof none, path);
        if (st == CUZK_OK)
            st = put_bytes(f, none, sizeof none, path);
    }
    /* Lagrange blocks 2^0 .. 2^power; section 12 also 2^(power + 1). */
    sequence lag_g1 = {tau, &one, true, power + 1, true, omega, power + 1, 4 * m - 1};
    sequence lag_g2 = {tau, &one, true, power, false, omega, power + 1, 2 * m - 1};
    sequence lag_alpha = {tau, alpha, true, power, false, omega, power + 1, 2 * m - 1};
    sequence lag_beta = {tau, beta, true, power, false, omega, power + 1, 2 * m - 1};
    if (st == CUZK_OK)
        st = emit(f, 12, &lag_g1, false, b, pool, path);
    if (st == CUZK_OK)
        st = emit(f, 13, &lag_g2, true, b, pool, path);
    if (st == CUZK_OK)
        st = emit(f, 14, &lag_alpha, false, b, pool, path);
    if (st == CUZK_OK)
        st = emit(f, 15, &lag_beta, false, b, pool, path);
    return st;
}

cuzk_status cuzk_snarkjs_ptau_write(const char *path, unsigned power, const cuzk_fr_t *tau,
                                    const cuzk_fr_t *alpha, const cuzk_fr_t *beta, cuzk_pool *pool)
{
    if (!path || !tau || !alpha || !beta)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "ptau: NULL argument");
    if (power < 1 || power > CUZK_SNARKJS_PTAU_MAX_POWER)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "ptau: power %u is outside 1 .. %u", power,
                         CUZK_SNARKJS_PTAU_MAX_POWER);
    if (cuzk_fr_is_zero(tau) || cuzk_fr_is_zero(alpha) || cuzk_fr_is_zero(beta))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "ptau: tau, alpha and beta must be non-zero");
    /* Every omega^i of the domains 2^0 .. 2^(power+1) has order dividing 2^(power+1): tau must
     * not be one of them, or the Lagrange formula divides by zero (and the file would be
     * degenerate). */
    cuzk_fr_t t;
    sqr_n(&t, tau, power + 1);
    if (cuzk_fr_is_one(&t))
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "ptau: tau is a 2^%u-th root of unity (a point of the evaluation domain)",
                         power + 1);
    cuzk_domain *d;
    cuzk_status st = cuzk_domain_create(&d, (size_t)2 << power, CUZK_ROOTS_SNARKJS);
    if (st != CUZK_OK)
        return st;
    cuzk_fr_t omega;
    cuzk_domain_omega(d, &omega);
    cuzk_domain_destroy(d);

    buffers b;
    b.k = cuzk_alloc_array(CHUNK, sizeof *b.k);
    b.tmp = cuzk_alloc_array(2 * CHUNK, sizeof *b.tmp);
    b.pts = cuzk_alloc_array(CHUNK, sizeof(cuzk_g2_affine_t));
    b.bytes = cuzk_alloc_array(CHUNK, G2_BYTES);
    size_t plen = strlen(path);
    char *tmp = cuzk_alloc(plen + 16);
    if (!b.k || !b.tmp || !b.pts || !b.bytes || !tmp) {
        st = cuzk_fail(CUZK_ERR_NOMEM, "ptau: out of memory for the %zu-point buffers", CHUNK);
        goto out;
    }
    snprintf(tmp, plen + 16, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        st = cuzk_fail(CUZK_ERR_IO, "ptau: cannot create a temporary file next to %s: %s", path,
                       strerror(errno));
        goto out;
    }
    /* mkstemp makes the file private; a ptau holds no secret. */
    (void)fchmod(fd, 0644);
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        st = cuzk_fail(CUZK_ERR_IO, "ptau: cannot open %s: %s", tmp, strerror(errno));
        close(fd);
    } else {
        st = write_body(f, power, tau, alpha, beta, &omega, &b, pool, path);
        if (st == CUZK_OK && (fflush(f) != 0 || fsync(fileno(f)) != 0))
            st = cuzk_fail(CUZK_ERR_IO, "ptau: cannot write %s: %s", path, strerror(errno));
        if (fclose(f) != 0 && st == CUZK_OK)
            st = cuzk_fail(CUZK_ERR_IO, "ptau: cannot write %s: %s", path, strerror(errno));
    }
    if (st == CUZK_OK && rename(tmp, path) != 0)
        st = cuzk_fail(CUZK_ERR_IO, "ptau: cannot rename %s to %s: %s", tmp, path, strerror(errno));
    if (st != CUZK_OK)
        unlink(tmp);
out:
    /* The scalars are multiples of the toxic waste. */
    if (b.k)
        cuzk_memclear(b.k, CHUNK * sizeof *b.k);
    if (b.tmp)
        cuzk_memclear(b.tmp, 2 * CHUNK * sizeof *b.tmp);
    cuzk_memclear(&t, sizeof t);
    cuzk_free(b.k);
    cuzk_free(b.tmp);
    cuzk_free(b.pts);
    cuzk_free(b.bytes);
    cuzk_free(tmp);
    return st;
}

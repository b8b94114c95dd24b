/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * snarkjs .zkey reader, Groth16 version 1 (formats.md 4.5; snarkjs src/zkey_utils.js). Sections:
 * 1 protocol, 2 header (field sizes and moduli, nVars, nPublic, domainSize, alpha..delta),
 * 3 IC, 4 A/B coefficients, 5 A, 6 B1, 7 B2, 8 C, 9 H, 10 contributions (not read).
 * Points are LEM: affine, Montgomery little-endian coordinates, G2 c0 first, infinity all zeros.
 */
#include "groth16/snarkjs_internal.h"
#include "groth16/binfile_map.h"
#include "groth16/zkey_points.h"
#include "cuzk/alloc.h"
#include "cuzk/check_cache.h"
#include "cuzk/pairing.h"
#include "common/check_digest.h"
#include "common/file.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define G1_BYTES 96
#define G2_BYTES 192
#define HEADER_BYTES 964 /* section 2 for n8q = 48, n8r = 32 */
#define COEF_BYTES 44    /* u32 matrix, u32 constraint, u32 signal, 32-byte value */
#define CHUNK CUZK__ZKEY_CHUNK
/* No zkey loaded whole into memory is bigger than this; a bound for cuzk_read_file only. */
#define ZKEY_MAX_FILE ((size_t)1 << 40)

static bool all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

/* A Montgomery LE coordinate: the stored limbs are the Montgomery form itself (R = 2^384 for
 * both snarkjs and cuzk), so they are copied after the range check. */
static bool lem_fp(cuzk_fp_t *out, const uint8_t in[48])
{
    uint64_t l[6];
    cuzk__load_limbs(l, in, 6);
    if (!cuzk__limbs_lt(l, cuzk__bls_q, 6))
        return false;
    memcpy(out->l, l, sizeof l);
    return true;
}

cuzk_status cuzk__lem_g1(cuzk_g1_affine_t *out, const uint8_t in[96], bool subgroup)
{
    cuzk_g1_affine_t p;
    memset(&p, 0, sizeof p);
    if (all_zero(in, G1_BYTES)) {
        cuzk_g1_affine_set_infinity(out);
        return CUZK_OK;
    }
    if (!lem_fp(&p.x, in) || !lem_fp(&p.y, in + 48))
        return cuzk_fail(CUZK_ERR_NOT_CANONICAL, "G1 coordinate >= q");
    p.infinity = false;
    if (!cuzk_g1_affine_is_on_curve(&p))
        return cuzk_fail(CUZK_ERR_NOT_ON_CURVE, "G1 point not on the curve");
    if (subgroup && !cuzk_g1_affine_in_subgroup(&p))
        return cuzk_fail(CUZK_ERR_NOT_IN_SUBGROUP, "G1 point not in the prime-order subgroup");
    *out = p;
    return CUZK_OK;
}

cuzk_status cuzk__lem_g2(cuzk_g2_affine_t *out, const uint8_t in[192], bool subgroup)
{
    cuzk_g2_affine_t p;
    memset(&p, 0, sizeof p);
    if (all_zero(in, G2_BYTES)) {
        cuzk_g2_affine_set_infinity(out);
        return CUZK_OK;
    }
    if (!lem_fp(&p.x.c0, in) || !lem_fp(&p.x.c1, in + 48) || !lem_fp(&p.y.c0, in + 96) ||
        !lem_fp(&p.y.c1, in + 144))
        return cuzk_fail(CUZK_ERR_NOT_CANONICAL, "G2 coordinate >= q");
    p.infinity = false;
    if (!cuzk_g2_affine_is_on_curve(&p))
        return cuzk_fail(CUZK_ERR_NOT_ON_CURVE, "G2 point not on the curve");
    if (subgroup && !cuzk_g2_affine_in_subgroup(&p))
        return cuzk_fail(CUZK_ERR_NOT_IN_SUBGROUP, "G2 point not in the prime-order subgroup");
    *out = p;
    return CUZK_OK;
}

/* cuzk__snarkjs_make_vk with e(alpha, beta) already computed (the zkey load computes it in
 * parallel with the point checks). */
static cuzk_status make_vk_prepared(cuzk_groth16_vk **out, const cuzk_g1_affine_t *alpha_g1,
                                    const cuzk_g1_affine_t *beta_g1,
                                    const cuzk_g2_affine_t *beta_g2,
                                    const cuzk_g2_affine_t *gamma_g2,
                                    const cuzk_g1_affine_t *delta_g1,
                                    const cuzk_g2_affine_t *delta_g2, const cuzk_g1_affine_t *ic,
                                    size_t ic_len, const cuzk_fp12_t *alpha_beta)
{
    *out = NULL;
    cuzk_groth16_vk *vk = cuzk_alloc(sizeof *vk);
    if (!vk)
        return cuzk_fail(CUZK_ERR_NOMEM, "cannot allocate a verifying key");
    memset(vk, 0, sizeof *vk);
    vk->ic = cuzk_alloc_array(ic_len, sizeof *vk->ic);
    if (!vk->ic) {
        cuzk_free(vk);
        return cuzk_fail(CUZK_ERR_NOMEM, "cannot allocate %zu IC points", ic_len);
    }
    memcpy(vk->ic, ic, ic_len * sizeof *ic);
    vk->ic_len = ic_len;
    vk->alpha_g1 = *alpha_g1;
    vk->beta_g1 = *beta_g1;
    vk->beta_g2 = *beta_g2;
    vk->gamma_g2 = *gamma_g2;
    vk->delta_g1 = *delta_g1;
    vk->delta_g2 = *delta_g2;
    /* Prepared like cuzk_groth16_vk_parse does (groth16/vk.c). */
    vk->alpha_beta = *alpha_beta;
    vk->neg_gamma_g2 = vk->gamma_g2;
    cuzk_fp2_neg(&vk->neg_gamma_g2.y, &vk->gamma_g2.y);
    vk->neg_delta_g2 = vk->delta_g2;
    cuzk_fp2_neg(&vk->neg_delta_g2.y, &vk->delta_g2.y);
    *out = vk;
    return CUZK_OK;
}

cuzk_status cuzk__snarkjs_make_vk(cuzk_groth16_vk **out, const cuzk_g1_affine_t *alpha_g1,
                                  const cuzk_g1_affine_t *beta_g1, const cuzk_g2_affine_t *beta_g2,
                                  const cuzk_g2_affine_t *gamma_g2,
                                  const cuzk_g1_affine_t *delta_g1,
                                  const cuzk_g2_affine_t *delta_g2, const cuzk_g1_affine_t *ic,
                                  size_t ic_len)
{
    cuzk_fp12_t ab;
    cuzk_pairing(&ab, alpha_g1, beta_g2);
    return make_vk_prepared(out, alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2, ic,
                            ic_len, &ab);
}

/* The file image a packed key holds (none: nothing to do). */
static void release_file(cuzk_snarkjs_zkey *zk)
{
    if (zk->held_.mapped) {
        cuzk__unmap_file(zk->held_.buf, zk->held_.len);
        close(zk->held_.fd);
    } else
        cuzk_free((void *)zk->held_.buf);
    memset(&zk->held_, 0, sizeof zk->held_);
}

void cuzk_snarkjs_zkey_free(cuzk_snarkjs_zkey *zk)
{
    if (!zk)
        return;
    cuzk_free(zk->ic);
    cuzk_free(zk->coefs);
    cuzk_free(zk->a);
    cuzk_free(zk->b1);
    cuzk_free(zk->b2);
    cuzk_free(zk->c);
    cuzk_free(zk->h);
    cuzk_groth16_vk_free(zk->vk);
    release_file(zk);
    cuzk_free(zk);
}

/* ---- packed keys (CUZK_SNARKJS_PACKED_POINTS): sections decoded on demand, for the callers
 * that need arrays of affine points (device uploads, residency); the CPU prover's MSMs decode
 * packed bases themselves (src/msm/msm_packed.h). ---------------------------------------- */

/* Points [i0, i0 + n) of a packed section whose bytes are |src| decoded into dst[i0 ..]. */
static cuzk_status unpack_mem(void *dst, const uint8_t *src, size_t i0, size_t n, bool g2)
{
    size_t ps = g2 ? 192 : 96;
    for (size_t i = i0; i < i0 + n; i++) {
        const uint8_t *in = src + (i - i0) * ps;
        bool ok = true;
        if (g2) {
            cuzk_g2_affine_t *o = (cuzk_g2_affine_t *)dst + i;
            memset(o, 0, sizeof *o);
            o->infinity = all_zero(in, ps);
            if (!o->infinity)
                ok = lem_fp(&o->x.c0, in) && lem_fp(&o->x.c1, in + 48) &&
                     lem_fp(&o->y.c0, in + 96) && lem_fp(&o->y.c1, in + 144);
        } else {
            cuzk_g1_affine_t *o = (cuzk_g1_affine_t *)dst + i;
            memset(o, 0, sizeof *o);
            o->infinity = all_zero(in, ps);
            if (!o->infinity)
                ok = lem_fp(&o->x, in) && lem_fp(&o->y, in + 48);
        }
        if (!ok)
            return cuzk_fail(CUZK_ERR_FORMAT,
                             "zkey: packed point %zu has a coordinate >= q: the file changed "
                             "after the key was loaded",
                             i);
    }
    return CUZK_OK;
}

cuzk_status cuzk__snarkjs_unpack(void *dst, const cuzk__packed_bases *src, size_t n, bool g2)
{
    if (src->mem)
        return unpack_mem(dst, src->mem, 0, n, g2);
    enum { CH = 256 }; /* points per read */
    size_t ps = g2 ? 192 : 96;
    uint8_t buf[CH * 192];
    cuzk_status s = CUZK_OK;
    for (size_t i = 0; i < n && s == CUZK_OK; i += CH) {
        size_t m = n - i < CH ? n - i : CH;
        int e = cuzk__pread_all(src->fd, buf, m * ps, src->off + (uint64_t)i * ps);
        s = e ? cuzk_fail(CUZK_ERR_IO, "zkey: cannot read packed points %zu ..: %s", i,
                          cuzk__pread_error(e))
              : unpack_mem(dst, buf, i, m, g2);
    }
    return s;
}

cuzk__packed_bases cuzk__snarkjs_packed_src(const cuzk_snarkjs_zkey *zk, const uint8_t *sec)
{
    const cuzk_snarkjs_zkey_file *f = &zk->held_;
    if (sec && f->mapped && sec >= f->buf && sec < f->buf + f->len)
        return (cuzk__packed_bases){NULL, f->fd, (uint64_t)(sec - f->buf)};
    return cuzk__packed_in_memory(sec);
}

cuzk_status cuzk_snarkjs_zkey_unpack(cuzk_snarkjs_zkey *zk)
{
    if (!zk->a_packed)
        return CUZK_OK;
    size_t nv = zk->n_vars, np = zk->n_public;
    const uint8_t *src[5] = {zk->a_packed, zk->b1_packed, zk->b2_packed, zk->c_packed,
                             zk->h_packed};
    size_t n[5] = {nv, nv, nv, nv - np - 1, zk->domain_size};
    void *arr[5] = {NULL};
    cuzk_status s = CUZK_OK;
    for (int k = 0; k < 5 && s == CUZK_OK; k++) {
        bool g2 = k == 2;
        /* at least one element, as the loader allocates: an empty section is a valid pointer */
        arr[k] = cuzk_alloc_array(n[k] ? n[k] : 1,
                                  g2 ? sizeof(cuzk_g2_affine_t) : sizeof(cuzk_g1_affine_t));
        cuzk__packed_bases from = cuzk__snarkjs_packed_src(zk, src[k]);
        s = arr[k] ? cuzk__snarkjs_unpack(arr[k], &from, n[k], g2)
                   : cuzk_fail(CUZK_ERR_NOMEM, "zkey: cannot allocate %zu points to unpack", n[k]);
    }
    if (s != CUZK_OK) {
        for (int k = 0; k < 5; k++)
            cuzk_free(arr[k]);
        return s;
    }
    zk->a = arr[0];
    zk->b1 = arr[1];
    zk->b2 = arr[2];
    zk->c = arr[3];
    zk->h = arr[4];
    zk->a_packed = zk->b1_packed = zk->b2_packed = zk->c_packed = zk->h_packed = NULL;
    release_file(zk);
    return CUZK_OK;
}

/* ---- header ---------------------------------------------------------------------------------- */

/* The six points of the header (section 2), by offset in the section. */
static const struct {
    const char *name;
    size_t at;
    bool g2;
} header_pts[6] = {{"alpha_1", 100, false}, {"beta_1", 196, false},  {"beta_2", 292, true},
                   {"gamma_2", 484, true},  {"delta_1", 676, false}, {"delta_2", 772, true}};

static void *header_point(cuzk_snarkjs_zkey *zk, int i)
{
    void *dst[6] = {&zk->alpha_g1, &zk->beta_g1,  &zk->beta_g2,
                    &zk->gamma_g2, &zk->delta_g1, &zk->delta_g2};
    return dst[i];
}

/* Decodes header point |i| from the section body |h|; the point at infinity is refused. */
static cuzk_status header_decode(cuzk_snarkjs_zkey *zk, const uint8_t *h, int i, bool subgroup)
{
    void *dst = header_point(zk, i);
    cuzk_status s = header_pts[i].g2 ? cuzk__lem_g2(dst, h + header_pts[i].at, subgroup)
                                     : cuzk__lem_g1(dst, h + header_pts[i].at, subgroup);
    bool inf = header_pts[i].g2 ? ((cuzk_g2_affine_t *)dst)->infinity
                                : ((cuzk_g1_affine_t *)dst)->infinity;
    if (s == CUZK_OK && inf)
        s = cuzk_fail(CUZK_ERR_BAD_ENCODING, "the point at infinity");
    return s;
}

/* The index of the first decoded header point outside its prime-order subgroup, or -1. */
static int header_subgroup_bad(cuzk_snarkjs_zkey *zk)
{
    for (int i = 0; i < 6; i++) {
        const void *p = header_point(zk, i);
        if (header_pts[i].g2 ? !cuzk_g2_affine_in_subgroup(p) : !cuzk_g1_affine_in_subgroup(p))
            return i;
    }
    return -1;
}

static cuzk_status read_header(cuzk_snarkjs_zkey *zk, const cuzk__binfile *bf)
{
    const cuzk__bin_section *sec;
    cuzk_status s;
    if ((s = cuzk__binfile_section(bf, 1, "protocol", &sec)) != CUZK_OK)
        return s;
    if ((s = cuzk__binfile_expect_size(bf, sec, "protocol", 4)) != CUZK_OK)
        return s;
    uint32_t protocol = cuzk__le32(bf->buf + sec->offset);
    if (protocol != 1)
        return cuzk_fail(CUZK_ERR_UNSUPPORTED,
                         "zkey: protocol %u (%s) at offset %llu; only Groth16 (1) is supported",
                         protocol,
                         protocol == 2    ? "plonk"
                         : protocol == 10 ? "fflonk"
                                          : "unknown",
                         (unsigned long long)sec->offset);
    if ((s = cuzk__binfile_section(bf, 2, "header", &sec)) != CUZK_OK)
        return s;
    const uint8_t *h = bf->buf + sec->offset;
    uint64_t off = sec->offset, size = sec->size;
    if (size < 4)
        return cuzk__binfile_expect_size(bf, sec, "header", HEADER_BYTES);
    uint32_t n8q = cuzk__le32(h);
    if (n8q <= 64 && size >= 4 + (uint64_t)n8q) {
        if ((s = cuzk__check_prime(bf, off, n8q, h + 4, cuzk__bls_q, 6, "q")) != CUZK_OK)
            return s;
    } else if (n8q != 48) {
        return cuzk_fail(CUZK_ERR_UNSUPPORTED, "zkey: n8q = %u at offset %llu; BLS12-381 needs 48",
                         n8q, (unsigned long long)off);
    }
    if (size < 88)
        return cuzk__binfile_expect_size(bf, sec, "header", HEADER_BYTES);
    uint32_t n8r = cuzk__le32(h + 52);
    if ((s = cuzk__check_prime(bf, off + 52, n8r, h + 56, cuzk__bls_r, 4, "r")) != CUZK_OK)
        return s;
    if ((s = cuzk__binfile_expect_size(bf, sec, "header", HEADER_BYTES)) != CUZK_OK)
        return s;
    zk->n_vars = cuzk__le32(h + 88);
    zk->n_public = cuzk__le32(h + 92);
    zk->domain_size = cuzk__le32(h + 96);
    if (zk->n_vars == 0 || zk->n_public >= zk->n_vars)
        return cuzk_fail(CUZK_ERR_FORMAT,
                         "zkey: nVars = %u (offset %llu) must exceed nPublic = %u (offset %llu)",
                         zk->n_vars, (unsigned long long)off + 88, zk->n_public,
                         (unsigned long long)off + 92);
    uint32_t n = zk->domain_size;
    if (n == 0 || (n & (n - 1)) != 0 || n > (1u << 28) || n < zk->n_public + 1)
        return cuzk_fail(CUZK_ERR_FORMAT,
                         "zkey: domainSize = %u at offset %llu must be a power of two between "
                         "nPublic + 1 = %u and 2^28",
                         n, (unsigned long long)off + 96, zk->n_public + 1);
    /* Subgroup membership is checked later, in parallel (header_subgroup_bad). */
    for (int i = 0; i < 6; i++) {
        s = header_decode(zk, h, i, false);
        if (s != CUZK_OK)
            return cuzk_fail(s, "zkey: header %s at offset %llu: %s", header_pts[i].name,
                             (unsigned long long)(off + header_pts[i].at), cuzk_last_error());
    }
    return CUZK_OK;
}

/* ---- section 4 ------------------------------------------------------------------------------- */

static cuzk_status read_coefs(cuzk_snarkjs_zkey *zk, const cuzk__binfile *bf,
                              const cuzk__bin_section *sec, int fd)
{
    const uint8_t *p = bf->buf + sec->offset;
    enum { BLOCK = 1024 }; /* coefficients per read from |fd| */
    uint8_t blk[BLOCK * COEF_BYTES];
    for (size_t i = 0; i < zk->n_coefs; i++) {
        const uint8_t *e = p + 4 + i * COEF_BYTES;
        if (fd >= 0) { /* read, not touched through the mapping (zkey.c's loader explains) */
            if (i % BLOCK == 0) {
                size_t m = zk->n_coefs - i < BLOCK ? zk->n_coefs - i : BLOCK;
                int err = cuzk__pread_all(fd, blk, m * COEF_BYTES,
                                          sec->offset + 4 + (uint64_t)i * COEF_BYTES);
                if (err)
                    return cuzk_fail(CUZK_ERR_IO,
                                     "zkey: section 4: cannot read coefficients "
                                     "%zu ..: %s",
                                     i, cuzk__pread_error(err));
            }
            e = blk + (i % BLOCK) * COEF_BYTES;
        }
        unsigned long long at = (unsigned long long)(sec->offset + 4 + i * COEF_BYTES);
        cuzk_snarkjs_coef *c = &zk->coefs[i];
        c->matrix = cuzk__le32(e);
        c->constraint = cuzk__le32(e + 4);
        c->signal = cuzk__le32(e + 8);
        if (c->matrix > 1)
            return cuzk_fail(CUZK_ERR_FORMAT,
                             "zkey: section 4 coefficient %zu at offset %llu: matrix %u (only 0 = "
                             "A and 1 = B exist)",
                             i, at, c->matrix);
        if (c->constraint >= zk->domain_size)
            return cuzk_fail(CUZK_ERR_FORMAT,
                             "zkey: section 4 coefficient %zu at offset %llu: constraint %u is "
                             "outside the domain of %u rows",
                             i, at, c->constraint, zk->domain_size);
        if (c->signal >= zk->n_vars)
            return cuzk_fail(CUZK_ERR_FORMAT,
                             "zkey: section 4 coefficient %zu at offset %llu: signal %u >= nVars "
                             "%u",
                             i, at, c->signal, zk->n_vars);
        uint64_t v[4];
        cuzk__load_limbs(v, e + 12, 4);
        if (!cuzk__limbs_lt(v, cuzk__bls_r, 4))
            return cuzk_fail(CUZK_ERR_NOT_CANONICAL,
                             "zkey: section 4 coefficient %zu: value at offset %llu is >= r", i,
                             at + 12);
        /*
         * The file holds coef * R^2 mod r. Read as a Montgomery element those limbs stand for
         * coef * R; converting that to canonical form (one Montgomery reduction) yields the
         * integer coef * R mod r, which is exactly the Montgomery form of coef.
         */
        cuzk_fr_t t;
        memcpy(t.l, v, sizeof v);
        cuzk_fr_to_canonical(c->value.l, &t);
    }
    return CUZK_OK;
}

/*
 * Everything after the header and the size checks, as one parallel loop: task 0 checks the
 * header points' subgroups and computes e(alpha, beta) for the verifying key, task 1 reads the
 * coefficients, and the rest decode the point sections (IC, A, B1, B2, C, H) by chunks. The
 * pairing and the coefficients were serial before, about 1 ms of a 2^12 key's ~5 ms load.
 * Errors are reported afterwards in the order a serial load would meet them.
 */
#define LOAD_POINT_TASKS 2 /* tasks before the point chunks */

typedef struct {
    cuzk_snarkjs_zkey *zk;
    const cuzk__binfile *bf;
    const cuzk__bin_section *coef_sec;
    cuzk__points_job sec[6]; /* IC, A, B1, B2, C, H */
    size_t first_chunk[7];   /* task of section k's first chunk, less LOAD_POINT_TASKS */
    cuzk_fp12_t alpha_beta;  /* task 0 */
    int header_bad;          /* task 0: first header point outside its subgroup, or -1 */
    cuzk_status coef_st;     /* task 1 */
    char coef_err[256];
    int fd; /* >= 0: the bulk of the file is read from it, not through bf->buf */
} load_job;

static void load_task(void *ctx, size_t t)
{
    load_job *j = ctx;
    if (t == 0) {
        j->header_bad = header_subgroup_bad(j->zk);
        cuzk_pairing(&j->alpha_beta, &j->zk->alpha_g1, &j->zk->beta_g2);
    } else if (t == 1) {
        j->coef_st = read_coefs(j->zk, j->bf, j->coef_sec, j->fd);
        if (j->coef_st != CUZK_OK)
            snprintf(j->coef_err, sizeof j->coef_err, "%s", cuzk_last_error());
    } else {
        t -= LOAD_POINT_TASKS;
        int k = 0;
        while (t >= j->first_chunk[k + 1])
            k++;
        cuzk__zkey_points_task(&j->sec[k], t - j->first_chunk[k]);
    }
}

/* The bulk sections' digest (common/check_digest.h); false if a chunk could not be hashed. */
static bool key_digest(uint8_t out[CUZK_CHECK_CACHE_DIGEST_BYTES], const load_job *lj)
{
    size_t n[5];
    const cuzk__chunk_digest *d[5];
    for (int k = 0; k < 5; k++) {
        n[k] = lj->sec[k + 1].n;
        d[k] = lj->sec[k + 1].digest;
    }
    return cuzk__check_digest_key(out, "cuzk snarkjs zkey A B1 B2 C H v1", 5, n, d, CHUNK);
}

/* The subgroup tests of the bulk sections after a cache miss: chunk t of sections 1 .. 5. */
static void subgroup_task(void *ctx, size_t t)
{
    const load_job *j = ctx;
    t += j->first_chunk[1];
    int k = 1;
    while (t >= j->first_chunk[k + 1])
        k++;
    cuzk__zkey_points_subgroup_task(&j->sec[k], t - j->first_chunk[k]);
}

/* A key whose bulk subgroups were just tested goes into the cache; a failure is only noted. */
static void record(cuzk_snarkjs_zkey *zk, cuzk_check_cache *cache, bool have_digest)
{
    char what[160];
    snprintf(what, sizeof what, "snarkjs zkey: %u wires, domain %u (A, B1, B2, C, H)", zk->n_vars,
             zk->domain_size);
    if (!have_digest)
        snprintf(zk->cache_error, sizeof zk->cache_error, "the points could not be hashed");
    else if (cuzk_check_cache_add(cache, zk->points_digest, what) != CUZK_OK)
        snprintf(zk->cache_error, sizeof zk->cache_error, "%s", cuzk_last_error());
    else
        zk->subgroups_recorded = true;
}

/*
 * |buf| of |len| bytes is the key; with |fd| >= 0 it is a mapping of that file, and the bulk of it
 * (coefficients, point sections) is read from the file with pread instead of through the
 * mapping. On the 2-vCPU development VM the first touch of each 4 KiB page of a file mapping
 * costs ~2 us even when populated (a page cache of small folios; docs/PERFORMANCE.md, "Packed
 * points read, not mapped"): the 2^16 key's load takes 18 instead of 28 ms. A packed key's
 * MSMs read the file the same way (cuzk__snarkjs_packed_src), so a file cut short under a
 * loaded key gives CUZK_ERR_IO, not SIGBUS.
 */
static cuzk_status zkey_parse(cuzk_snarkjs_zkey **out, const uint8_t *buf, size_t len, int fd,
                              unsigned flags, cuzk_pool *pool, cuzk_check_cache *cache)
{
    *out = NULL;
    cuzk__binfile bf;
    cuzk_status s = cuzk__binfile_open(&bf, buf, len, "zkey", 1, "zkey");
    if (s != CUZK_OK)
        return s;
    cuzk_snarkjs_zkey *zk = cuzk_alloc(sizeof *zk);
    if (!zk) {
        cuzk__binfile_close(&bf);
        return cuzk_fail(CUZK_ERR_NOMEM, "zkey: cannot allocate the key");
    }
    memset(zk, 0, sizeof *zk);
    const cuzk__bin_section *sec[10];
    static const char *names[10] = {"protocol", "header", "IC", "coefficients", "A", "B1",
                                    "B2",       "C",      "H",  "contributions"};
    if ((s = read_header(zk, &bf)) != CUZK_OK)
        goto fail;
    for (uint32_t t = 2; t <= 9; t++)
        if ((s = cuzk__binfile_section(&bf, t, names[t - 1], &sec[t - 1])) != CUZK_OK)
            goto fail;
    /* Every size is checked against the counts before anything is allocated, so allocations
     * stay within a small multiple of the file size. */
    uint64_t nv = zk->n_vars, np = zk->n_public, nd = zk->domain_size;
    if (sec[3]->size < 4) {
        s = cuzk__binfile_expect_size(&bf, sec[3], names[3], 4);
        goto fail;
    }
    zk->n_coefs = cuzk__le32(bf.buf + sec[3]->offset);
    if ((s = cuzk__binfile_expect_size(&bf, sec[2], names[2], (np + 1) * G1_BYTES)) != CUZK_OK ||
        (s = cuzk__binfile_expect_size(&bf, sec[3], names[3],
                                       4 + (uint64_t)zk->n_coefs * COEF_BYTES)) != CUZK_OK ||
        (s = cuzk__binfile_expect_size(&bf, sec[4], names[4], nv * G1_BYTES)) != CUZK_OK ||
        (s = cuzk__binfile_expect_size(&bf, sec[5], names[5], nv * G1_BYTES)) != CUZK_OK ||
        (s = cuzk__binfile_expect_size(&bf, sec[6], names[6], nv * G2_BYTES)) != CUZK_OK ||
        (s = cuzk__binfile_expect_size(&bf, sec[7], names[7], (nv - np - 1) * G1_BYTES)) !=
            CUZK_OK ||
        (s = cuzk__binfile_expect_size(&bf, sec[8], names[8], nd * G1_BYTES)) != CUZK_OK)
        goto fail;
    zk->coefs = cuzk_alloc_array(zk->n_coefs ? zk->n_coefs : 1, sizeof *zk->coefs);
    if (!zk->coefs) {
        s = cuzk_fail(CUZK_ERR_NOMEM, "zkey: cannot allocate %zu coefficients", zk->n_coefs);
        goto fail;
    }
    bool sub = !(flags & CUZK_SNARKJS_UNCHECKED_SUBGROUP), cached = sub && cache;
    bool packed = flags & CUZK_SNARKJS_PACKED_POINTS;
    load_job lj = {
        .zk = zk, .bf = &bf, .coef_sec = sec[3], .coef_st = CUZK_OK, .header_bad = -1, .fd = fd};
    void **dst[6] = {(void **)&zk->ic, (void **)&zk->a, (void **)&zk->b1,
                     (void **)&zk->b2, (void **)&zk->c, (void **)&zk->h};
    static const int sec_of[6] = {2, 4, 5, 6, 7, 8};
    size_t count[6] = {np + 1, nv, nv, nv, nv - np - 1, nd};
    for (int k = 0; k < 6; k++) {
        /* IC is always checked in full, like the header. */
        s = cuzk__zkey_points_prepare(&lj.sec[k], dst[k], &bf, sec[sec_of[k]], names[sec_of[k]],
                                      count[k], k == 3, k == 0 || (sub && !cached), k > 0 && packed,
                                      fd);
        size_t chunks = (count[k] + CHUNK - 1) / CHUNK;
        lj.first_chunk[k + 1] = lj.first_chunk[k] + chunks;
        /* With a cache the bulk sections are hashed as they are decoded and their subgroups
         * tested afterwards, only if the digest is not recorded. */
        if (s == CUZK_OK && cached && k > 0 &&
            !(lj.sec[k].digest = cuzk_alloc_array(chunks ? chunks : 1, sizeof *lj.sec[k].digest)))
            s = cuzk_fail(CUZK_ERR_NOMEM, "zkey: cannot allocate the point digests");
        if (s != CUZK_OK)
            break;
    }
    if (s == CUZK_OK)
        cuzk_pool_run(pool, LOAD_POINT_TASKS + lj.first_chunk[6], load_task, &lj);
    if (s == CUZK_OK && lj.header_bad >= 0) { /* decoded again here for the message */
        int i = lj.header_bad;
        s = header_decode(zk, bf.buf + sec[1]->offset, i, true);
        s = cuzk_fail(s, "zkey: header %s at offset %llu: %s", header_pts[i].name,
                      (unsigned long long)(sec[1]->offset + header_pts[i].at), cuzk_last_error());
    }
    if (s == CUZK_OK && lj.coef_st != CUZK_OK)
        s = cuzk_fail(lj.coef_st, "%s", lj.coef_err);
    for (int k = 0; k < 6 && s == CUZK_OK; k++)
        s = cuzk__zkey_points_result(&lj.sec[k], &bf, sec[sec_of[k]], names[sec_of[k]]);
    zk->subgroups = sub ? CUZK_SUBGROUPS_CHECKED : CUZK_SUBGROUPS_NOT_CHECKED;
    bool have_digest = false;
    if (s == CUZK_OK && cached) {
        have_digest = key_digest(zk->points_digest, &lj);
        if (have_digest && cuzk_check_cache_has(cache, zk->points_digest)) {
            zk->subgroups = CUZK_SUBGROUPS_CHECKED_BEFORE;
        } else {
            cuzk_pool_run(pool, lj.first_chunk[6] - lj.first_chunk[1], subgroup_task, &lj);
            for (int k = 1; k < 6 && s == CUZK_OK; k++) {
                lj.sec[k].subgroup = true; /* for the message of points_result */
                s = cuzk__zkey_points_result(&lj.sec[k], &bf, sec[sec_of[k]], names[sec_of[k]]);
            }
        }
    }
    for (int k = 0; k < 6; k++) {
        cuzk_free(lj.sec[k].first_bad);
        cuzk_free(lj.sec[k].digest);
    }
    if (s != CUZK_OK)
        goto fail;
    if ((s = make_vk_prepared(&zk->vk, &zk->alpha_g1, &zk->beta_g1, &zk->beta_g2, &zk->gamma_g2,
                              &zk->delta_g1, &zk->delta_g2, zk->ic, np + 1, &lj.alpha_beta)) !=
        CUZK_OK)
        goto fail;
    if (packed) { /* the sections as the file holds them, checked above */
        const uint8_t **pk[5] = {&zk->a_packed, &zk->b1_packed, &zk->b2_packed, &zk->c_packed,
                                 &zk->h_packed};
        for (int k = 0; k < 5; k++)
            *pk[k] = bf.buf + sec[sec_of[k + 1]]->offset;
    }
    cuzk__binfile_close(&bf);
    if (cached && zk->subgroups == CUZK_SUBGROUPS_CHECKED)
        record(zk, cache, have_digest);
    *out = zk;
    return CUZK_OK;
fail:
    cuzk__binfile_close(&bf);
    cuzk_snarkjs_zkey_free(zk);
    return s;
}

cuzk_status cuzk_snarkjs_zkey_parse_ex(cuzk_snarkjs_zkey **out, const uint8_t *buf, size_t len,
                                       unsigned flags, cuzk_pool *pool, cuzk_check_cache *cache)
{
    return zkey_parse(out, buf, len, -1, flags, pool, cache);
}

cuzk_status cuzk_snarkjs_zkey_parse(cuzk_snarkjs_zkey **out, const uint8_t *buf, size_t len,
                                    unsigned flags, cuzk_pool *pool)
{
    return cuzk_snarkjs_zkey_parse_ex(out, buf, len, flags, pool, NULL);
}

cuzk_status cuzk_snarkjs_zkey_load(cuzk_snarkjs_zkey **out, const char *path, unsigned flags,
                                   cuzk_pool *pool)
{
    return cuzk_snarkjs_zkey_load_ex(out, path, flags, pool, NULL);
}

cuzk_status cuzk_snarkjs_zkey_load_ex(cuzk_snarkjs_zkey **out, const char *path, unsigned flags,
                                      cuzk_pool *pool, cuzk_check_cache *cache)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    *out = NULL;
    cuzk_status s;
    int fd = -1;
    const uint8_t *map = cuzk__map_file(path, &len, ZKEY_MAX_FILE, &fd);
    /* A packed key keeps the file's image, mapped or read, until it is freed (mapped: and the
     * file open, which its MSMs read). */
    bool keep = flags & CUZK_SNARKJS_PACKED_POINTS;
    if (map) {
        s = zkey_parse(out, map, len, fd, flags, pool, cache);
        if (s == CUZK_OK && keep) {
            (*out)->held_ = (cuzk_snarkjs_zkey_file){map, len, true, fd};
        } else {
            cuzk__unmap_file(map, len);
            close(fd);
        }
    } else {
        if ((s = cuzk_read_file(path, &buf, &len, ZKEY_MAX_FILE)) != CUZK_OK)
            return s;
        s = cuzk_snarkjs_zkey_parse_ex(out, buf, len, flags, pool, cache);
        if (s == CUZK_OK && keep)
            (*out)->held_ = (cuzk_snarkjs_zkey_file){buf, len, false, -1};
        else
            cuzk_free(buf);
    }
    if (s != CUZK_OK)
        return cuzk_fail(s, "%s: %s", path, cuzk_last_error());
    return CUZK_OK;
}

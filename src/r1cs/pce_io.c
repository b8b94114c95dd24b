/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * PCE disk format, version 1. Little-endian throughout.
 *
 *   offset  size  field
 *   0       8     magic "CUZKPCE1"
 *   8       4     version (1)
 *   12      4     header size in bytes (120)
 *   16      8     n_inputs
 *   24      8     n_aux
 *   32      8     n_constraints (without input constraints)
 *   40      8     n_rows (= n_constraints + n_inputs)
 *   48      48    per matrix A, B, C: unit_nnz (8), gen_nnz (8)
 *   96      8     total file size in bytes
 *   104     8     n_coeffs: entries of the coefficient table
 *   112     8     reserved, zero
 *   120           body: coefficient table, 32 bytes x n_coeffs (Montgomery form, 4 x u64 LE
 *                 limbs), then per matrix A, B, C:
 *                   unit_ptr  u32 x (n_rows + 1)
 *                   unit_col  u32 x unit_nnz       (bit 31 set: coefficient -1, else +1)
 *                   gen_ptr   u32 x (n_rows + 1)
 *                   gen_col   u32 x gen_nnz
 *                   gen_cidx  u32 x gen_nnz        (index into the coefficient table)
 *   end-32  32    SHA-256 of every preceding byte
 *
 * Loading checks, before trusting anything: the magic, version, header size, that the sizes
 * imply exactly the file's length (so truncation is caught before any large allocation), the
 * checksum, then the structure (row pointers monotone and matching nnz, columns and coefficient
 * indices in range, coefficients canonical). Densities are recomputed from the structure.
 */
#include "r1cs/pce_internal.h"
#include "r1cs/fr_fast.h"

#include "cuzk/alloc.h"

#include <errno.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define PCE_MAGIC "CUZKPCE1"
#define PCE_VERSION 1u
#define PCE_HEADER 120u
#define PCE_TRAILER 32u

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "pce_io.c writes arrays in host order and assumes a little-endian host"
#endif

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}
static uint32_t get32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v |= (uint32_t)p[i] << (8 * i);
    return v;
}

/* Body size for the given sizes; false on overflow. */
static bool body_size(uint64_t rows, const uint64_t nnz[6], uint64_t n_coeffs, uint64_t *out)
{
    if (rows >= UINT32_MAX || n_coeffs >= UINT32_MAX)
        return false;
    uint64_t total = n_coeffs * 32;
    for (int i = 0; i < 3; i++) {
        uint64_t unit = nnz[2 * i], gen = nnz[2 * i + 1];
        if (unit > UINT32_MAX || gen > UINT32_MAX)
            return false;
        /* every term is below 2^35, so the sum of 1 + 15 of them cannot overflow 64 bits */
        total += 2 * (rows + 1) * 4 + unit * 4 + gen * 8;
    }
    *out = total;
    return true;
}

typedef struct {
    FILE *f;
    EVP_MD_CTX *md;
    const char *path;
} pce_file;

static cuzk_status wr(pce_file *pf, const void *p, size_t n)
{
    if (n && fwrite(p, 1, n, pf->f) != n)
        return cuzk_fail(CUZK_ERR_IO, "pce save %s: write failed: %s", pf->path, strerror(errno));
    if (n && EVP_DigestUpdate(pf->md, p, n) != 1)
        return cuzk_fail(CUZK_ERR_INTERNAL, "pce save: SHA-256 failed");
    return CUZK_OK;
}

static cuzk_status rd(pce_file *pf, void *p, size_t n, const char *what)
{
    if (n && fread(p, 1, n, pf->f) != n)
        return cuzk_fail(CUZK_ERR_FORMAT, "pce load %s: truncated while reading %s", pf->path,
                         what);
    if (n && EVP_DigestUpdate(pf->md, p, n) != 1)
        return cuzk_fail(CUZK_ERR_INTERNAL, "pce load: SHA-256 failed");
    return CUZK_OK;
}

cuzk_status cuzk_pce_save(const cuzk_pce *pce, const char *path)
{
    if (!pce || !path)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_pce_save: NULL argument");
    uint64_t nnz[6];
    for (int i = 0; i < 3; i++) {
        nnz[2 * i] = pce->m[i].unit_nnz;
        nnz[2 * i + 1] = pce->m[i].gen_nnz;
    }
    uint64_t body;
    if (!body_size(pce->n_rows, nnz, pce->n_coeffs, &body))
        return cuzk_fail(CUZK_ERR_INTERNAL, "pce save: size overflow");
    uint8_t h[PCE_HEADER] = {0};
    memcpy(h, PCE_MAGIC, 8);
    put32(h + 8, PCE_VERSION);
    put32(h + 12, PCE_HEADER);
    put64(h + 16, pce->n_inputs);
    put64(h + 24, pce->n_aux);
    put64(h + 32, pce->n_constraints);
    put64(h + 40, pce->n_rows);
    for (int i = 0; i < 6; i++)
        put64(h + 48 + 8 * i, nnz[i]);
    put64(h + 96, PCE_HEADER + body + PCE_TRAILER);
    put64(h + 104, pce->n_coeffs);

    pce_file pf = {fopen(path, "wb"), EVP_MD_CTX_new(), path};
    if (!pf.f) {
        EVP_MD_CTX_free(pf.md);
        return cuzk_fail(CUZK_ERR_IO, "pce save %s: %s", path, strerror(errno));
    }
    cuzk_status s = CUZK_OK;
    if (!pf.md || EVP_DigestInit_ex(pf.md, EVP_sha256(), NULL) != 1)
        s = cuzk_fail(CUZK_ERR_INTERNAL, "pce save: SHA-256 unavailable");
    if (s == CUZK_OK)
        s = wr(&pf, h, sizeof h);
    if (s == CUZK_OK)
        s = wr(&pf, pce->coeffs, pce->n_coeffs * sizeof(cuzk_fr_t));
    size_t rp = (pce->n_rows + 1) * sizeof(uint32_t);
    for (int i = 0; i < 3 && s == CUZK_OK; i++) {
        const pce_matrix *m = &pce->m[i];
        s = wr(&pf, m->unit_ptr, rp);
        if (s == CUZK_OK)
            s = wr(&pf, m->unit_col, m->unit_nnz * sizeof(uint32_t));
        if (s == CUZK_OK)
            s = wr(&pf, m->gen_ptr, rp);
        if (s == CUZK_OK)
            s = wr(&pf, m->gen_col, m->gen_nnz * sizeof(uint32_t));
        if (s == CUZK_OK)
            s = wr(&pf, m->gen_cidx, m->gen_nnz * sizeof(uint32_t));
    }
    uint8_t digest[32];
    unsigned dlen = 0;
    if (s == CUZK_OK && (EVP_DigestFinal_ex(pf.md, digest, &dlen) != 1 || dlen != 32))
        s = cuzk_fail(CUZK_ERR_INTERNAL, "pce save: SHA-256 failed");
    if (s == CUZK_OK && fwrite(digest, 1, 32, pf.f) != 32)
        s = cuzk_fail(CUZK_ERR_IO, "pce save %s: write failed: %s", path, strerror(errno));
    if (fclose(pf.f) != 0 && s == CUZK_OK)
        s = cuzk_fail(CUZK_ERR_IO, "pce save %s: close failed: %s", path, strerror(errno));
    EVP_MD_CTX_free(pf.md);
    if (s != CUZK_OK)
        remove(path);
    return s;
}

static cuzk_status check_ptr(const char *path, const char *what, const uint32_t *ptr, uint64_t rows,
                             uint64_t nnz)
{
    if (ptr[0] != 0 || ptr[rows] != nnz)
        return cuzk_fail(CUZK_ERR_FORMAT, "pce load %s: %s does not span its entries", path, what);
    for (uint64_t r = 0; r < rows; r++)
        if (ptr[r] > ptr[r + 1])
            return cuzk_fail(CUZK_ERR_FORMAT, "pce load %s: %s decreases at row %llu", path, what,
                             (unsigned long long)r);
    return CUZK_OK;
}

static cuzk_status validate(const cuzk_pce *p, const char *path)
{
    uint64_t ncols = (uint64_t)p->n_inputs + p->n_aux;
    static const char *const names[3] = {"A", "B", "C"};
    for (int i = 0; i < 3; i++) {
        const pce_matrix *m = &p->m[i];
        char what[32];
        snprintf(what, sizeof what, "%s unit rows", names[i]);
        CUZK_TRY(check_ptr(path, what, m->unit_ptr, p->n_rows, m->unit_nnz));
        snprintf(what, sizeof what, "%s general rows", names[i]);
        CUZK_TRY(check_ptr(path, what, m->gen_ptr, p->n_rows, m->gen_nnz));
        for (uint64_t k = 0; k < m->unit_nnz; k++)
            if ((m->unit_col[k] & ~PCE_NEG_BIT) >= ncols)
                return cuzk_fail(CUZK_ERR_FORMAT, "pce load %s: %s column out of range", path,
                                 names[i]);
        for (uint64_t k = 0; k < m->gen_nnz; k++) {
            if (m->gen_col[k] >= ncols)
                return cuzk_fail(CUZK_ERR_FORMAT, "pce load %s: %s column out of range", path,
                                 names[i]);
            if (m->gen_cidx[k] >= p->n_coeffs)
                return cuzk_fail(CUZK_ERR_FORMAT, "pce load %s: %s coefficient index out of range",
                                 path, names[i]);
        }
    }
    for (size_t k = 0; k < p->n_coeffs; k++)
        if (mont_geq_vartime(p->coeffs[k].l, cuzk_fr_modulus, CUZK_FR_LIMBS))
            return cuzk_fail(CUZK_ERR_FORMAT, "pce load %s: coefficient %zu not canonical", path,
                             k);
    return CUZK_OK;
}

cuzk_status cuzk_pce_load(cuzk_pce **out, const char *path)
{
    if (!out || !path)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_pce_load: NULL argument");
    *out = NULL;
    pce_file pf = {fopen(path, "rb"), NULL, path};
    if (!pf.f)
        return cuzk_fail(CUZK_ERR_IO, "pce load %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(pf.f), &st) != 0) {
        fclose(pf.f);
        return cuzk_fail(CUZK_ERR_IO, "pce load %s: %s", path, strerror(errno));
    }
    uint64_t fsize = (uint64_t)st.st_size;
    uint8_t h[PCE_HEADER];
    cuzk_pce *p = NULL;
    cuzk_status s = CUZK_OK;
    pf.md = EVP_MD_CTX_new();
    if (!pf.md || EVP_DigestInit_ex(pf.md, EVP_sha256(), NULL) != 1)
        s = cuzk_fail(CUZK_ERR_INTERNAL, "pce load: SHA-256 unavailable");
    if (s == CUZK_OK && fsize < PCE_HEADER + PCE_TRAILER)
        s = cuzk_fail(CUZK_ERR_FORMAT, "pce load %s: file of %llu bytes is too short", path,
                      (unsigned long long)fsize);
    if (s == CUZK_OK)
        s = rd(&pf, h, sizeof h, "header");
    if (s == CUZK_OK && memcmp(h, PCE_MAGIC, 8) != 0)
        s = cuzk_fail(CUZK_ERR_FORMAT, "pce load %s: bad magic (not a cuzk PCE file)", path);
    if (s == CUZK_OK && get32(h + 8) != PCE_VERSION)
        s = cuzk_fail(CUZK_ERR_FORMAT, "pce load %s: version %u, expected %u", path, get32(h + 8),
                      PCE_VERSION);
    if (s == CUZK_OK && get32(h + 12) != PCE_HEADER)
        s = cuzk_fail(CUZK_ERR_FORMAT, "pce load %s: header size %u, expected %u", path,
                      get32(h + 12), PCE_HEADER);
    uint64_t ni = get64(h + 16), na = get64(h + 24), nc = get64(h + 32), nr = get64(h + 40);
    uint64_t nnz[6];
    for (int i = 0; i < 6; i++)
        nnz[i] = get64(h + 48 + 8 * i);
    uint64_t ncoef = get64(h + 104);
    uint64_t body = 0;
    if (s == CUZK_OK && (ni == 0 || ni + na >= PCE_NEG_BIT || nr != nc + ni ||
                         get64(h + 112) != 0 || !body_size(nr, nnz, ncoef, &body)))
        s = cuzk_fail(CUZK_ERR_FORMAT, "pce load %s: inconsistent sizes in header", path);
    if (s == CUZK_OK && (get64(h + 96) != PCE_HEADER + body + PCE_TRAILER ||
                         fsize != PCE_HEADER + body + PCE_TRAILER))
        s = cuzk_fail(CUZK_ERR_FORMAT,
                      "pce load %s: file is %llu bytes, header implies %llu (truncated or "
                      "corrupt)",
                      path, (unsigned long long)fsize,
                      (unsigned long long)(PCE_HEADER + body + PCE_TRAILER));
    if (s == CUZK_OK)
        s = cuzk__pce_new(&p, ni, na, nc, nr);
    if (s == CUZK_OK) {
        p->n_coeffs = ncoef;
        p->coeffs = cuzk_alloc_array(ncoef ? ncoef : 1, sizeof(cuzk_fr_t));
        s = p->coeffs ? rd(&pf, p->coeffs, ncoef * sizeof(cuzk_fr_t), "coefficient table")
                      : cuzk_fail(CUZK_ERR_NOMEM, "pce load %s: out of memory", path);
    }
    for (int i = 0; i < 3 && s == CUZK_OK; i++) {
        pce_matrix *m = &p->m[i];
        m->unit_nnz = nnz[2 * i];
        m->gen_nnz = nnz[2 * i + 1];
        m->unit_ptr = cuzk_alloc_array(nr + 1, sizeof(uint32_t));
        m->gen_ptr = cuzk_alloc_array(nr + 1, sizeof(uint32_t));
        m->unit_col = cuzk_alloc_array(m->unit_nnz ? m->unit_nnz : 1, sizeof(uint32_t));
        m->gen_col = cuzk_alloc_array(m->gen_nnz ? m->gen_nnz : 1, sizeof(uint32_t));
        m->gen_cidx = cuzk_alloc_array(m->gen_nnz ? m->gen_nnz : 1, sizeof(uint32_t));
        if (!m->unit_ptr || !m->gen_ptr || !m->unit_col || !m->gen_col || !m->gen_cidx) {
            s = cuzk_fail(CUZK_ERR_NOMEM, "pce load %s: out of memory", path);
            break;
        }
        size_t rp = (nr + 1) * sizeof(uint32_t);
        s = rd(&pf, m->unit_ptr, rp, "row pointers");
        if (s == CUZK_OK)
            s = rd(&pf, m->unit_col, m->unit_nnz * sizeof(uint32_t), "columns");
        if (s == CUZK_OK)
            s = rd(&pf, m->gen_ptr, rp, "row pointers");
        if (s == CUZK_OK)
            s = rd(&pf, m->gen_col, m->gen_nnz * sizeof(uint32_t), "columns");
        if (s == CUZK_OK)
            s = rd(&pf, m->gen_cidx, m->gen_nnz * sizeof(uint32_t), "coefficient indices");
    }
    if (s == CUZK_OK) {
        uint8_t want[32], got[32];
        unsigned dlen = 0;
        if (fread(want, 1, 32, pf.f) != 32)
            s = cuzk_fail(CUZK_ERR_FORMAT, "pce load %s: truncated checksum", path);
        else if (EVP_DigestFinal_ex(pf.md, got, &dlen) != 1 || dlen != 32)
            s = cuzk_fail(CUZK_ERR_INTERNAL, "pce load: SHA-256 failed");
        else if (memcmp(want, got, 32) != 0)
            s = cuzk_fail(CUZK_ERR_FORMAT, "pce load %s: checksum mismatch (corrupt file)", path);
    }
    fclose(pf.f);
    EVP_MD_CTX_free(pf.md);
    if (s == CUZK_OK)
        s = validate(p, path);
    if (s != CUZK_OK) {
        cuzk_pce_destroy(p);
        return s;
    }
    cuzk__pce_compute_density(p);
    *out = p;
    return CUZK_OK;
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* bellperson .params reader (formats.md section 3.1): vk, then h, l, a, b_g1, b_g2 queries, each
 * a u32 big-endian count followed by uncompressed points. */
#include "cuzk/groth16.h"
#include "cuzk/alloc.h"
#include "cuzk/check_cache.h"
#include "common/check_digest.h"
#include "common/file.h"
#include "msm/subgroup.h"

#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK 256 /* points per decoding task */

typedef struct {
    const uint8_t *src;
    void *dst;
    size_t n;
    bool g2;
    cuzk_params_check check;
    _Atomic size_t bad; /* smallest failing index + 1 (0: none) */
    _Atomic int bad_status;
    cuzk__chunk_digest *digest; /* per chunk, or NULL: not hashed */
} decode_job;

static void note_bad(decode_job *j, size_t i, cuzk_status s)
{
    size_t cur = atomic_load(&j->bad);
    while ((cur == 0 || i + 1 < cur) && !atomic_compare_exchange_weak(&j->bad, &cur, i + 1))
        ;
    if (atomic_load(&j->bad) == i + 1)
        atomic_store(&j->bad_status, (int)s);
}

/* Decodes points [lo, hi) of the chunk (curve and encoding checks); in checked mode the
 * subgroups of the points before the chunk's first bad one follow, 8 at a time
 * (src/msm/subgroup.h), with the status cuzk_gX_deserialize would give. */
static void decode_chunk(void *ctx, size_t task)
{
    decode_job *j = ctx;
    size_t lo = task * CHUNK, hi = lo + CHUNK < j->n ? lo + CHUNK : j->n, first = hi;
    size_t psz = j->g2 ? 192 : 96;
    /* With a check cache the chunk is copied, and the digest and the decode both read the copy
     * (include/cuzk/check_cache.h): a file changed meanwhile cannot slip past the record. */
    uint8_t snap[CHUNK * 192];
    const uint8_t *in = j->src + lo * psz;
    if (j->digest) {
        memcpy(snap, in, (hi - lo) * psz);
        in = snap;
        cuzk__check_digest_chunk(j->digest[task], snap, (hi - lo) * psz);
    }
    for (size_t i = lo; i < hi; i++) {
        cuzk_status s;
        bool inf;
        if (j->g2) {
            cuzk_g2_affine_t *o = (cuzk_g2_affine_t *)j->dst + i;
            s = cuzk_g2_deserialize_unchecked(o, in + 192 * (i - lo));
            inf = s == CUZK_OK && o->infinity;
        } else {
            cuzk_g1_affine_t *o = (cuzk_g1_affine_t *)j->dst + i;
            s = cuzk_g1_deserialize_unchecked(o, in + 96 * (i - lo));
            inf = s == CUZK_OK && o->infinity;
        }
        if (s == CUZK_OK && inf)
            s = CUZK_ERR_BAD_ENCODING;
        if (s != CUZK_OK) {
            note_bad(j, i, s);
            first = i;
            break;
        }
    }
    if (j->check != CUZK_PARAMS_CHECKED || first == lo)
        return;
    size_t k =
        j->g2 ? cuzk__g2_first_outside_subgroup((const cuzk_g2_affine_t *)j->dst + lo, first - lo)
              : cuzk__g1_first_outside_subgroup((const cuzk_g1_affine_t *)j->dst + lo, first - lo);
    if (k < first - lo)
        note_bad(j, lo + k, CUZK_ERR_NOT_IN_SUBGROUP);
}

/* Where the point arrays of the queries come from (cuzk_groth16_params_parse_ex). */
typedef struct {
    void *(*alloc)(size_t bytes);
    void (*free)(void *p);
} point_mem;

static void points_free(void (*fn)(void *), void *p)
{
    if (!p)
        return;
    if (fn)
        fn(p);
    else
        cuzk_free(p);
}

/* The message of point |i| of query |name| (its first point at byte |start|) failing with |s|. */
static cuzk_status query_fail(cuzk_status s, const char *name, size_t i, size_t start, bool g2)
{
    size_t at = start + i * (g2 ? 192 : 96);
    if (s == CUZK_ERR_BAD_ENCODING)
        return cuzk_fail(s, "params: %s[%zu] at byte %zu is the point at infinity or badly encoded",
                         name, i, at);
    return cuzk_fail(s, "params: %s[%zu] at byte %zu: %s", name, i, at, cuzk_status_str(s));
}

/* One query as read with a check cache: its first byte, its chunks' digests. */
typedef struct {
    size_t start;
    cuzk__chunk_digest *digest;
} query_hash;

/* Reads one query at *|off|: count, then points. With |qh| its chunks are hashed (and |check|
 * is then the curve check only: the subgroups come after the cache lookup). */
static cuzk_status read_query(const uint8_t *buf, size_t len, size_t *off, const char *name,
                              bool g2, cuzk_params_check check, cuzk_pool *pool,
                              const point_mem *mem, void **out, size_t *count, query_hash *qh)
{
    size_t psz = g2 ? 192 : 96;
    if (len - *off < 4)
        return cuzk_fail(CUZK_ERR_FORMAT, "params: truncated before the %s length at byte %zu",
                         name, *off);
    const uint8_t *p = buf + *off;
    uint32_t n = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    *off += 4;
    if ((uint64_t)n * psz > len - *off)
        return cuzk_fail(CUZK_ERR_FORMAT,
                         "params: %s query claims %u points (%llu bytes) but %zu bytes remain "
                         "at byte %zu",
                         name, n, (unsigned long long)n * psz, len - *off, *off);
    size_t esz = g2 ? sizeof(cuzk_g2_affine_t) : sizeof(cuzk_g1_affine_t);
    void *dst = !n ? NULL : mem->alloc ? mem->alloc((size_t)n * esz) : cuzk_alloc_array(n, esz);
    if (n && !dst)
        return cuzk_fail(CUZK_ERR_NOMEM, "params: cannot allocate the %s query (%u points)", name,
                         n);
    decode_job j = {.src = buf + *off, .dst = dst, .n = n, .g2 = g2, .check = check};
    size_t chunks = (n + CHUNK - 1) / CHUNK;
    if (qh) {
        qh->start = *off;
        if (!(qh->digest = cuzk_alloc_array(chunks ? chunks : 1, sizeof *qh->digest))) {
            points_free(mem->free, dst);
            return cuzk_fail(CUZK_ERR_NOMEM, "params: cannot allocate the point digests");
        }
        j.digest = qh->digest;
        j.check = CUZK_PARAMS_UNCHECKED;
    }
    cuzk_pool_run(pool, chunks, decode_chunk, &j);
    size_t bad = atomic_load(&j.bad);
    if (bad) {
        points_free(mem->free, dst);
        return query_fail((cuzk_status)atomic_load(&j.bad_status), name, bad - 1, *off, g2);
    }
    *off += (size_t)n * psz;
    *out = dst;
    *count = n;
    return CUZK_OK;
}

/* The subgroup tests alone, over chunk |task| of a decoded query (a cache miss). */
static void subgroup_chunk(void *ctx, size_t task)
{
    decode_job *j = ctx;
    size_t lo = task * CHUNK, hi = lo + CHUNK < j->n ? lo + CHUNK : j->n;
    size_t k = j->g2 ? cuzk__g2_first_outside_subgroup((const cuzk_g2_affine_t *)j->dst + lo, hi - lo)
                     : cuzk__g1_first_outside_subgroup((const cuzk_g1_affine_t *)j->dst + lo, hi - lo);
    if (k < hi - lo)
        note_bad(j, lo + k, CUZK_ERR_NOT_IN_SUBGROUP);
}

static const char *const QUERY_NAME[5] = {"h", "l", "a", "b_g1", "b_g2"};

/* After a read with a check cache: the subgroup tests unless the digest is recorded, then the
 * record of a set that passed them. */
static cuzk_status subgroups_cached(cuzk_groth16_params *p, const query_hash qh[5],
                                    cuzk_pool *pool, cuzk_check_cache *cache)
{
    const size_t n[5] = {p->n_h, p->n_l, p->n_a, p->n_b_g1, p->n_b_g2};
    void *pts[5] = {p->h, p->l, p->a, p->b_g1, p->b_g2};
    const cuzk__chunk_digest *d[5] = {qh[0].digest, qh[1].digest, qh[2].digest, qh[3].digest,
                                      qh[4].digest};
    bool have = cuzk__check_digest_key(p->points_digest, "cuzk bellperson params h l a b_g1 b_g2 v1",
                                       5, n, d, CHUNK);
    if (have && cuzk_check_cache_has(cache, p->points_digest)) {
        p->subgroups = CUZK_SUBGROUPS_CHECKED_BEFORE;
        return CUZK_OK;
    }
    for (int k = 0; k < 5; k++) {
        decode_job j = {.dst = pts[k], .n = n[k], .g2 = k == 4, .check = CUZK_PARAMS_CHECKED};
        cuzk_pool_run(pool, (n[k] + CHUNK - 1) / CHUNK, subgroup_chunk, &j);
        size_t bad = atomic_load(&j.bad);
        if (bad)
            return query_fail(CUZK_ERR_NOT_IN_SUBGROUP, QUERY_NAME[k], bad - 1, qh[k].start,
                              k == 4);
    }
    p->subgroups = CUZK_SUBGROUPS_CHECKED;
    char what[160];
    snprintf(what, sizeof what, "bellperson params: %zu h, %zu l, %zu a, %zu b_g1, %zu b_g2",
             n[0], n[1], n[2], n[3], n[4]);
    if (!have)
        snprintf(p->cache_error, sizeof p->cache_error, "the points could not be hashed");
    else if (cuzk_check_cache_add(cache, p->points_digest, what) != CUZK_OK)
        snprintf(p->cache_error, sizeof p->cache_error, "%s", cuzk_last_error());
    else
        p->subgroups_recorded = true;
    return CUZK_OK;
}

void cuzk_groth16_params_free(cuzk_groth16_params *p)
{
    if (!p)
        return;
    cuzk_groth16_vk_free(p->vk);
    points_free(p->free_points, p->h);
    points_free(p->free_points, p->l);
    points_free(p->free_points, p->a);
    points_free(p->free_points, p->b_g1);
    points_free(p->free_points, p->b_g2);
    cuzk_free(p);
}

cuzk_status cuzk_groth16_params_parse(cuzk_groth16_params **out, const uint8_t *buf, size_t len,
                                      cuzk_params_check check, cuzk_pool *pool)
{
    return cuzk_groth16_params_parse_ex(out, buf, len, check, pool, NULL, NULL);
}

static cuzk_status parse(cuzk_groth16_params **out, const uint8_t *buf, size_t len,
                         cuzk_params_check check, cuzk_pool *pool,
                         void *(*alloc_points)(size_t bytes), void (*free_points)(void *p),
                         cuzk_check_cache *cache);

cuzk_status cuzk_groth16_params_parse_ex(cuzk_groth16_params **out, const uint8_t *buf, size_t len,
                                         cuzk_params_check check, cuzk_pool *pool,
                                         void *(*alloc_points)(size_t bytes),
                                         void (*free_points)(void *p))
{
    return parse(out, buf, len, check, pool, alloc_points, free_points, NULL);
}

static cuzk_status parse(cuzk_groth16_params **out, const uint8_t *buf, size_t len,
                         cuzk_params_check check, cuzk_pool *pool,
                         void *(*alloc_points)(size_t bytes), void (*free_points)(void *p),
                         cuzk_check_cache *cache)
{
    *out = NULL;
    if (!alloc_points != !free_points)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "params: give both point allocators or neither");
    point_mem mem = {alloc_points, free_points};
    if (len < 868)
        return cuzk_fail(CUZK_ERR_FORMAT, "params: %zu bytes is shorter than a verifying key", len);
    uint32_t ic_len =
        (uint32_t)buf[864] << 24 | (uint32_t)buf[865] << 16 | (uint32_t)buf[866] << 8 | buf[867];
    if ((uint64_t)ic_len * 96 > len - 868)
        return cuzk_fail(CUZK_ERR_FORMAT, "params: ic_len %u does not fit in %zu bytes", ic_len,
                         len);
    size_t off = 868 + (size_t)96 * ic_len;
    cuzk_groth16_params *p = cuzk_alloc(sizeof *p);
    if (!p)
        return cuzk_fail(CUZK_ERR_NOMEM, "params: out of memory");
    memset(p, 0, sizeof *p);
    p->free_points = free_points;
    cuzk_status s = cuzk_groth16_vk_parse(&p->vk, buf, off);
    if (s != CUZK_OK) {
        cuzk_free(p);
        return cuzk_fail(s, "params: %s", cuzk_last_error());
    }
    bool cached = check == CUZK_PARAMS_CHECKED && cache;
    query_hash qh[5];
    memset(qh, 0, sizeof qh);
    void **dst[5] = {(void **)&p->h, (void **)&p->l, (void **)&p->a, (void **)&p->b_g1,
                     (void **)&p->b_g2};
    size_t *cnt[5] = {&p->n_h, &p->n_l, &p->n_a, &p->n_b_g1, &p->n_b_g2};
    for (int k = 0; k < 5 && s == CUZK_OK; k++)
        s = read_query(buf, len, &off, QUERY_NAME[k], k == 4, check, pool, &mem, dst[k], cnt[k],
                       cached ? &qh[k] : NULL);
    if (s == CUZK_OK && off != len)
        s = cuzk_fail(CUZK_ERR_FORMAT, "params: %zu trailing bytes after the b_g2 query",
                      len - off);
    /* h holds n - 1 points for a power-of-two domain n. */
    if (s == CUZK_OK && ((p->n_h + 1) & p->n_h))
        s = cuzk_fail(CUZK_ERR_FORMAT, "params: h query has %zu points, not 2^k - 1", p->n_h);
    p->subgroups = check == CUZK_PARAMS_CHECKED ? CUZK_SUBGROUPS_CHECKED : CUZK_SUBGROUPS_NOT_CHECKED;
    if (s == CUZK_OK && cached)
        s = subgroups_cached(p, qh, pool, cache);
    for (int k = 0; k < 5; k++)
        cuzk_free(qh[k].digest);
    if (s != CUZK_OK) {
        cuzk_groth16_params_free(p);
        return s;
    }
    *out = p;
    return CUZK_OK;
}

cuzk_status cuzk_groth16_params_load(cuzk_groth16_params **out, const char *path,
                                     cuzk_params_check check, cuzk_pool *pool)
{
    return cuzk_groth16_params_load_cached(out, path, check, pool, NULL);
}

cuzk_status cuzk_groth16_params_load_cached(cuzk_groth16_params **out, const char *path,
                                            cuzk_params_check check, cuzk_pool *pool,
                                            cuzk_check_cache *cache)
{
    *out = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return cuzk_fail(CUZK_ERR_IO, "cannot open %s: %m", path);
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
        close(fd);
        return cuzk_fail(CUZK_ERR_IO, "%s is not a non-empty regular file", path);
    }
    /* mmap: the file is read once, page by page, by the decoding threads. */
    size_t len = (size_t)st.st_size;
    void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return cuzk_fail(CUZK_ERR_IO, "cannot map %s: %m", path);
    madvise(map, len, MADV_SEQUENTIAL);
    cuzk_status s = parse(out, map, len, check, pool, NULL, NULL, cache);
    munmap(map, len);
    if (s != CUZK_OK)
        return cuzk_fail(s, "%s: %s", path, cuzk_last_error());
    return CUZK_OK;
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* bellperson .params reader (formats.md section 3.1): vk, then h, l, a, b_g1, b_g2 queries, each
 * a u32 big-endian count followed by uncompressed points. */
#include "cuzk/groth16.h"
#include "cuzk/alloc.h"
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
    for (size_t i = lo; i < hi; i++) {
        cuzk_status s;
        bool inf;
        if (j->g2) {
            cuzk_g2_affine_t *o = (cuzk_g2_affine_t *)j->dst + i;
            s = cuzk_g2_deserialize_unchecked(o, j->src + 192 * i);
            inf = s == CUZK_OK && o->infinity;
        } else {
            cuzk_g1_affine_t *o = (cuzk_g1_affine_t *)j->dst + i;
            s = cuzk_g1_deserialize_unchecked(o, j->src + 96 * i);
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

/* Reads one query at *|off|: count, then points. */
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

static cuzk_status read_query(const uint8_t *buf, size_t len, size_t *off, const char *name,
                              bool g2, cuzk_params_check check, cuzk_pool *pool,
                              const point_mem *mem, void **out, size_t *count)
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
    cuzk_pool_run(pool, (n + CHUNK - 1) / CHUNK, decode_chunk, &j);
    size_t bad = atomic_load(&j.bad);
    if (bad) {
        points_free(mem->free, dst);
        cuzk_status s = (cuzk_status)atomic_load(&j.bad_status);
        size_t at = *off + (bad - 1) * psz;
        if (s == CUZK_ERR_BAD_ENCODING)
            return cuzk_fail(s,
                             "params: %s[%zu] at byte %zu is the point at infinity or badly "
                             "encoded",
                             name, bad - 1, at);
        return cuzk_fail(s, "params: %s[%zu] at byte %zu: %s", name, bad - 1, at,
                         cuzk_status_str(s));
    }
    *off += (size_t)n * psz;
    *out = dst;
    *count = n;
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

cuzk_status cuzk_groth16_params_parse_ex(cuzk_groth16_params **out, const uint8_t *buf, size_t len,
                                         cuzk_params_check check, cuzk_pool *pool,
                                         void *(*alloc_points)(size_t bytes),
                                         void (*free_points)(void *p))
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
    if ((s = read_query(buf, len, &off, "h", false, check, pool, &mem, (void **)&p->h, &p->n_h)) ||
        (s = read_query(buf, len, &off, "l", false, check, pool, &mem, (void **)&p->l, &p->n_l)) ||
        (s = read_query(buf, len, &off, "a", false, check, pool, &mem, (void **)&p->a, &p->n_a)) ||
        (s = read_query(buf, len, &off, "b_g1", false, check, pool, &mem, (void **)&p->b_g1,
                        &p->n_b_g1)) ||
        (s = read_query(buf, len, &off, "b_g2", true, check, pool, &mem, (void **)&p->b_g2,
                        &p->n_b_g2))) {
        cuzk_groth16_params_free(p);
        return s;
    }
    if (off != len) {
        cuzk_groth16_params_free(p);
        return cuzk_fail(CUZK_ERR_FORMAT, "params: %zu trailing bytes after the b_g2 query",
                         len - off);
    }
    /* h holds n - 1 points for a power-of-two domain n. */
    if ((p->n_h + 1) & p->n_h) {
        size_t nh = p->n_h;
        cuzk_groth16_params_free(p);
        return cuzk_fail(CUZK_ERR_FORMAT, "params: h query has %zu points, not 2^k - 1", nh);
    }
    *out = p;
    return CUZK_OK;
}

cuzk_status cuzk_groth16_params_load(cuzk_groth16_params **out, const char *path,
                                     cuzk_params_check check, cuzk_pool *pool)
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
    cuzk_status s = cuzk_groth16_params_parse(out, map, len, check, pool);
    munmap(map, len);
    if (s != CUZK_OK)
        return cuzk_fail(s, "%s: %s", path, cuzk_last_error());
    return CUZK_OK;
}

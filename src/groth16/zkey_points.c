/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The zkey reader's bulk point sections, checked in parallel (src/groth16/zkey_points.h). Points
 * are LEM: affine, Montgomery little-endian coordinates, G2 c0 first, infinity all zeros.
 */
#include "groth16/zkey_points.h"
#include "cuzk/alloc.h"
#include "common/file.h"
#include "field/fp_ifma_fp2.h"
#include "msm/subgroup.h"

#include <stdio.h>
#include <string.h>

#define G1_BYTES 96
#define G2_BYTES 192
#define CHUNK CUZK__ZKEY_CHUNK

/* first_bad of a packed chunk whose bytes differ between its two passes (points_subgroup_task):
 * the file changed under the load; of a chunk that could not be read from the file. */
#define CHANGED (SIZE_MAX - 1)
#define UNREADABLE (SIZE_MAX - 2)

/* Point i of |j|, whose bytes are |in|. */
static cuzk_status decode_one_at(const cuzk__points_job *j, size_t i, const uint8_t *in)
{
    cuzk_g2_affine_t tmp; /* a packed section's point is decoded only to be checked */
    if (j->g2)
        return cuzk__lem_g2(j->dst ? (cuzk_g2_affine_t *)j->dst + i : &tmp, in, j->subgroup);
    return cuzk__lem_g1(j->dst ? (cuzk_g1_affine_t *)j->dst + i : (cuzk_g1_affine_t *)&tmp, in,
                        j->subgroup);
}

static cuzk_status decode_one(const cuzk__points_job *j, size_t i)
{
    return decode_one_at(j, i, j->src + i * (j->g2 ? G2_BYTES : G1_BYTES));
}

/* Points [begin, end) of |j| read from its file into |snap| (0, or the errno of the read). */
static int read_points(const cuzk__points_job *j, size_t begin, size_t end, uint8_t *snap)
{
    size_t ps = j->g2 ? G2_BYTES : G1_BYTES;
    return cuzk__pread_all(j->fd, snap, (end - begin) * ps, j->off + (uint64_t)begin * ps);
}

#if CUZK_FP_HAVE_IFMA
/*
 * The curve equations of 8 decoded points at once (y^2 = x^3 + b with the 8-lane IFMA
 * arithmetic: the scalar checks were most of an unchecked zkey load). Returns the mask of lanes
 * that fail; lanes at infinity pass. |b| is the Montgomery form of 4 (G1: b = 4, G2: b = 4 + 4u).
 */
static unsigned g1_off_curve_lanes(const cuzk_fp_t x[8], const cuzk_fp_t y[8], __mmask8 inf,
                                   const cuzk_fp_t *b)
{
    cuzk_fp_t bb[8];
    for (int k = 0; k < 8; k++)
        bb[k] = *b;
    fp52x8 vx, vy, vb, l, r;
    fp52x8_load(&vx, x);
    fp52x8_load(&vy, y);
    fp52x8_load(&vb, bb);
    fp52x8_sqr(&l, &vy);
    fp52x8_sqr(&r, &vx);
    fp52x8_mul(&r, &r, &vx);
    fp52x8_add(&r, &r, &vb);
    fp52x8_reduce(&l, &l);
    fp52x8_reduce(&r, &r);
    return (unsigned)(__mmask8)(~fp52x8_eq_mask(&l, &r) & ~inf);
}

/* x0 + x1 u, y0 + y1 u: G2's coordinates by component. */
static unsigned g2_off_curve_lanes(const cuzk_fp_t x0[8], const cuzk_fp_t x1[8],
                                   const cuzk_fp_t y0[8], const cuzk_fp_t y1[8], __mmask8 inf,
                                   const cuzk_fp_t *b)
{
    cuzk_fp_t bb[8];
    for (int k = 0; k < 8; k++)
        bb[k] = *b;
    fp2x8 vx, vy, l, r;
    fp52x8 vb;
    fp52x8_load(&vx.c0, x0);
    fp52x8_load(&vx.c1, x1);
    fp52x8_load(&vy.c0, y0);
    fp52x8_load(&vy.c1, y1);
    fp52x8_load(&vb, bb);
    fp2x8_sqr(&l, &vy);
    fp2x8_sqr(&r, &vx);
    fp2x8_mul(&r, &r, &vx);
    fp52x8_add(&r.c0, &r.c0, &vb);
    fp52x8_add(&r.c1, &r.c1, &vb);
    fp52x8_reduce(&l.c0, &l.c0);
    fp52x8_reduce(&l.c1, &l.c1);
    fp52x8_reduce(&r.c0, &r.c0);
    fp52x8_reduce(&r.c1, &r.c1);
    __mmask8 eq = fp52x8_eq_mask(&l.c0, &r.c0) & fp52x8_eq_mask(&l.c1, &r.c1);
    return (unsigned)(__mmask8)(~eq & ~inf);
}

/* The lanes of 8 decoded points. */
static unsigned g1_off_curve_x8(const cuzk_g1_affine_t *p, const cuzk_fp_t *b)
{
    cuzk_fp_t x[8], y[8];
    __mmask8 inf = 0;
    for (int k = 0; k < 8; k++) {
        x[k] = p[k].x;
        y[k] = p[k].y;
        inf |= (__mmask8)((unsigned)p[k].infinity << k);
    }
    return g1_off_curve_lanes(x, y, inf, b);
}

static unsigned g2_off_curve_x8(const cuzk_g2_affine_t *p, const cuzk_fp_t *b)
{
    cuzk_fp_t x0[8], x1[8], y0[8], y1[8];
    __mmask8 inf = 0;
    for (int k = 0; k < 8; k++) {
        x0[k] = p[k].x.c0;
        x1[k] = p[k].x.c1;
        y0[k] = p[k].y.c0;
        y1[k] = p[k].y.c1;
        inf |= (__mmask8)((unsigned)p[k].infinity << k);
    }
    return g2_off_curve_lanes(x0, x1, y0, y1, inf, b);
}

/* A coordinate's 48 bytes as limbs, range-checked: lem_fp with the bytes copied as they are and
 * the compare inlined (its calls into binfile.c, per limb, were ~3 ms of CPU of a 2^16 key's
 * ~40 ms load). */
static inline bool lem_fp_fast(uint64_t out[6], const uint8_t in[48])
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(out, in, 48);
#else
    cuzk__load_limbs(out, in, 6);
#endif
    for (int i = 5; i >= 0; i--)
        if (out[i] != cuzk__bls_q[i])
            return out[i] < cuzk__bls_q[i];
    return false;
}

/* all_zero for a whole point, a word at a time. */
static inline bool point_zero(const uint8_t *in, size_t n)
{
    uint64_t acc = 0, w;
    for (size_t i = 0; i < n; i += 8) {
        memcpy(&w, in + i, 8);
        acc |= w;
    }
    return acc == 0;
}

/* The lanes of 8 packed points straight from the file's bytes (IFMA builds are little-endian:
 * the bytes are the limbs), the caller having range-checked them; all zero is infinity. */
static unsigned packed_off_curve_x8(const uint8_t *in, bool g2, const cuzk_fp_t *b)
{
    cuzk_fp_t c[4][8]; /* G1: x, y; G2: x.c0, x.c1, y.c0, y.c1 */
    size_t ps = g2 ? G2_BYTES : G1_BYTES, nc = ps / 48;
    __mmask8 inf = 0;
    for (int k = 0; k < 8; k++) {
        const uint8_t *p = in + (size_t)k * ps;
        for (size_t m = 0; m < nc; m++)
            memcpy(c[m][k].l, p + 48 * m, 48);
        inf |= (__mmask8)((unsigned)point_zero(p, ps) << k);
    }
    return g2 ? g2_off_curve_lanes(c[0], c[1], c[2], c[3], inf, b)
              : g1_off_curve_lanes(c[0], c[1], inf, b);
}

/* A packed point's coordinates all below q (infinity passes), nothing stored. */
static inline bool packed_in_range(const uint8_t *in, size_t ps)
{
    if (point_zero(in, ps))
        return true;
    uint64_t l[6];
    bool ok = true;
    for (size_t m = 0; m < ps; m += 48)
        ok &= lem_fp_fast(l, in + m);
    return ok;
}

/* points_task_x8 for a packed section without subgroup tests (|j|->dst NULL): the same checks
 * and the same first_bad, read from the file's bytes with no decoded copy (the copy into a
 * temporary and from it into the lanes was most of a packed load). */
static void packed_task_x8(const cuzk__points_job *j, size_t t, size_t begin, size_t end,
                           const cuzk_fp_t *b)
{
    size_t ps = j->g2 ? G2_BYTES : G1_BYTES, bad = end, i = begin;
    for (size_t k = begin; k < end; k++)
        if (!packed_in_range(j->src + k * ps, ps)) {
            bad = k;
            break;
        }
    for (; i + 8 <= bad; i += 8) {
        unsigned off = packed_off_curve_x8(j->src + i * ps, j->g2, b);
        if (off) {
            bad = i + (size_t)__builtin_ctz(off);
            break;
        }
    }
    for (; i < bad; i++) { /* a short last group: in range, so only the curve can refuse it */
        cuzk_g2_affine_t tmp;
        cuzk_status s = j->g2 ? cuzk__lem_g2(&tmp, j->src + i * ps, false)
                              : cuzk__lem_g1((cuzk_g1_affine_t *)&tmp, j->src + i * ps, false);
        if (s != CUZK_OK)
            bad = i;
    }
    j->first_bad[t] = bad < end ? bad : SIZE_MAX;
}

/* Decodes one point of a chunk without the curve check: false if a coordinate is >= q. */
static inline bool decode_range(const cuzk__points_job *j, size_t i)
{
    if (j->g2) {
        const uint8_t *in = j->src + i * G2_BYTES;
        cuzk_g2_affine_t o;
        memset(&o, 0, sizeof o);
        bool ok = true;
        if (point_zero(in, G2_BYTES))
            o.infinity = true;
        else
            ok = lem_fp_fast(o.x.c0.l, in) & lem_fp_fast(o.x.c1.l, in + 48) &
                 lem_fp_fast(o.y.c0.l, in + 96) & lem_fp_fast(o.y.c1.l, in + 144);
        ((cuzk_g2_affine_t *)j->dst)[i] = o;
        return ok;
    }
    const uint8_t *in = j->src + i * G1_BYTES;
    cuzk_g1_affine_t o;
    memset(&o, 0, sizeof o);
    bool ok = true;
    if (point_zero(in, G1_BYTES))
        o.infinity = true;
    else
        ok = lem_fp_fast(o.x.l, in) & lem_fp_fast(o.y.l, in + 48);
    ((cuzk_g1_affine_t *)j->dst)[i] = o;
    return ok;
}

/* Decodes without the curve check (coordinates range-checked), then checks the equations 8 at
 * a time and, when asked, the subgroups (8 at a time too). Sets first_bad to the first point that
 * the one-by-one decode_one would reject; points_result decodes that one again for the message. */
static void points_task_x8(const cuzk__points_job *j, size_t t, size_t begin, size_t end)
{
    uint64_t four[6] = {4};
    cuzk_fp_t b;
    (void)cuzk_fp_from_canonical(&b, four);
    if (!j->dst && !j->subgroup) {
        packed_task_x8(j, t, begin, end, &b);
        return;
    }
    size_t bad = end;
    for (size_t i = begin; i < end; i++)
        if (!decode_range(j, i)) {
            bad = i;
            break;
        }
    /* Groups of 8 up to the first range failure; a short last group is checked one by one. */
    size_t i = begin;
    for (; i + 8 <= bad; i += 8) {
        unsigned off = j->g2 ? g2_off_curve_x8((const cuzk_g2_affine_t *)j->dst + i, &b)
                             : g1_off_curve_x8((const cuzk_g1_affine_t *)j->dst + i, &b);
        if (off) {
            bad = i + (size_t)__builtin_ctz(off);
            break;
        }
    }
    for (; i < bad; i++) {
        bool on = j->g2 ? cuzk_g2_affine_is_on_curve((const cuzk_g2_affine_t *)j->dst + i)
                        : cuzk_g1_affine_is_on_curve((const cuzk_g1_affine_t *)j->dst + i);
        if (!on)
            bad = i;
    }
    if (j->subgroup) /* 8 at a time (src/msm/subgroup.h) */
        bad = begin + (j->g2 ? cuzk__g2_first_outside_subgroup(
                                   (const cuzk_g2_affine_t *)j->dst + begin, bad - begin)
                             : cuzk__g1_first_outside_subgroup(
                                   (const cuzk_g1_affine_t *)j->dst + begin, bad - begin));
    j->first_bad[t] = bad < end ? bad : SIZE_MAX;
}
#endif

/* Decodes (and checks) points begin .. end of |j| as its chunk t. */
static void points_range(const cuzk__points_job *j, size_t t, size_t begin, size_t end)
{
#if CUZK_FP_HAVE_IFMA
    points_task_x8(j, t, begin, end);
#else
    j->first_bad[t] = SIZE_MAX;
    for (size_t i = begin; i < end; i++) {
        if (decode_one(j, i) != CUZK_OK) {
            j->first_bad[t] = i;
            return;
        }
    }
#endif
}

/* Chunk t (points begin .. end) of |j| checked from the bytes |src| into |dst| (the chunk's
 * own places, or a temporary for a packed section); |subgroup| as asked. */
static void points_chunk(const cuzk__points_job *j, size_t t, size_t begin, size_t end,
                         const uint8_t *src, void *dst, bool subgroup)
{
    size_t bad = SIZE_MAX;
    cuzk__points_job local = *j;
    local.src = src;
    local.dst = dst;
    local.n = end - begin;
    local.subgroup = subgroup;
    local.first_bad = &bad;
    points_range(&local, 0, 0, end - begin);
    j->first_bad[t] = bad == SIZE_MAX ? SIZE_MAX : begin + bad;
}

/* Where chunk t's points are decoded: their places in the section, or for a packed section
 * |tmp| when the subgroup tests need decoded points, else nowhere (NULL: checked in place). */
static void *chunk_dst(const cuzk__points_job *j, size_t begin, void *tmp)
{
    size_t es = j->g2 ? sizeof(cuzk_g2_affine_t) : sizeof(cuzk_g1_affine_t);
    if (!j->dst)
        return j->subgroup ? tmp : NULL;
    return (uint8_t *)j->dst + begin * es;
}

/*
 * The bytes of points [begin, end) of |j| into |snap| (a copy of the mapped bytes, or read from
 * the file): 0 or the read's errno. A hashed chunk is always copied first, and the digest and the
 * checks both read the copy, so that what a cache entry vouches for is exactly what was checked
 * even if the mapped file changes meanwhile.
 */
static int chunk_copy(const cuzk__points_job *j, size_t begin, size_t end, uint8_t *snap)
{
    if (j->fd >= 0)
        return read_points(j, begin, end, snap);
    size_t ps = j->g2 ? G2_BYTES : G1_BYTES;
    memcpy(snap, j->src + begin * ps, (end - begin) * ps);
    return 0;
}

void cuzk__zkey_points_task(void *ctx, size_t t)
{
    const cuzk__points_job *j = ctx;
    size_t begin = t * CHUNK, end = (t + 1) * CHUNK < j->n ? (t + 1) * CHUNK : j->n;
    size_t ps = j->g2 ? G2_BYTES : G1_BYTES;
    uint8_t snap[CHUNK * G2_BYTES];
    cuzk_g2_affine_t tmp[CHUNK];
    const uint8_t *src = j->src + begin * ps;
    if (j->fd >= 0 || j->digest) {
        if (chunk_copy(j, begin, end, snap) != 0) {
            j->first_bad[t] = UNREADABLE;
            return;
        }
        src = snap;
    }
    if (j->digest)
        cuzk__check_digest_chunk(j->digest[t], snap, (end - begin) * ps);
    points_chunk(j, t, begin, end, src, chunk_dst(j, begin, tmp), j->subgroup);
}

/* The subgroup tests alone, over chunk t (a cache miss): of the points decoded by the first
 * pass, or for a packed section of the chunk's bytes read again, which must still be those the
 * first pass hashed (else the cache would vouch for bytes other than those tested). */
void cuzk__zkey_points_subgroup_task(const cuzk__points_job *j, size_t t)
{
    size_t begin = t * CHUNK, end = (t + 1) * CHUNK < j->n ? (t + 1) * CHUNK : j->n;
    if (!j->dst) {
        size_t ps = j->g2 ? G2_BYTES : G1_BYTES;
        uint8_t snap[CHUNK * G2_BYTES];
        cuzk_g2_affine_t tmp[CHUNK];
        cuzk__chunk_digest again;
        if (chunk_copy(j, begin, end, snap) != 0) {
            j->first_bad[t] = UNREADABLE;
            return;
        }
        cuzk__check_digest_chunk(again, snap, (end - begin) * ps);
        if (memcmp(again, j->digest[t], sizeof again) != 0) {
            j->first_bad[t] = CHANGED;
            return;
        }
        points_chunk(j, t, begin, end, snap, tmp, true);
        return;
    }
    size_t bad = j->g2 ? cuzk__g2_first_outside_subgroup((const cuzk_g2_affine_t *)j->dst + begin,
                                                         end - begin)
                       : cuzk__g1_first_outside_subgroup((const cuzk_g1_affine_t *)j->dst + begin,
                                                         end - begin);
    j->first_bad[t] = begin + bad < end ? begin + bad : SIZE_MAX;
}

/* Allocates the destination of |n| points of section |sec| into *|out| (none when |packed|:
 * *|out| stays NULL) and the per-chunk results, and fills |j| (the decoding itself is
 * load_task's). */
cuzk_status cuzk__zkey_points_prepare(cuzk__points_job *j, void **out, const cuzk__binfile *bf,
                                      const cuzk__bin_section *sec, const char *name, size_t n,
                                      bool g2, bool subgroup, bool packed, int fd)
{
    /* Allocate at least one element so that an empty section still yields a valid pointer. */
    if (!packed)
        *out =
            cuzk_alloc_array(n ? n : 1, g2 ? sizeof(cuzk_g2_affine_t) : sizeof(cuzk_g1_affine_t));
    size_t nchunks = (n + CHUNK - 1) / CHUNK;
    size_t *bad = cuzk_alloc_array(nchunks ? nchunks : 1, sizeof *bad);
    *j = (cuzk__points_job){bf->buf + sec->offset, fd,  sec->offset, n, g2, subgroup,
                            packed ? NULL : *out,  bad, NULL};
    if ((!packed && !*out) || !bad)
        return cuzk_fail(CUZK_ERR_NOMEM, "%s: cannot allocate %zu points of section %u (%s)",
                         bf->what, n, sec->type, name);
    return CUZK_OK;
}

/* The first bad point of a decoded section, named with its index and offset. */
cuzk_status cuzk__zkey_points_result(const cuzk__points_job *j, const cuzk__binfile *bf,
                                     const cuzk__bin_section *sec, const char *name)
{
    size_t psize = j->g2 ? G2_BYTES : G1_BYTES;
    for (size_t t = 0; t < (j->n + CHUNK - 1) / CHUNK; t++) {
        if (j->first_bad[t] == SIZE_MAX)
            continue;
        /* Decode the culprit again on this thread: the message is thread-local. The one-by-one
         * decode must agree that the point is bad: the bulk decode stopped its chunk there, so
         * the points after it were never written. */
        size_t i = j->first_bad[t];
        if (i == CHANGED)
            return cuzk_fail(CUZK_ERR_FORMAT,
                             "%s: section %u (%s) points %zu .. %zu changed while the file was "
                             "being loaded",
                             bf->what, sec->type, name, t * CHUNK,
                             (t + 1) * CHUNK < j->n ? (t + 1) * CHUNK - 1 : j->n - 1);
        size_t end = (t + 1) * CHUNK < j->n ? (t + 1) * CHUNK : j->n;
        uint8_t snap[CHUNK * G2_BYTES];
        if (i == UNREADABLE) { /* read again for the reason */
            int e = read_points(j, t * CHUNK, end, snap);
            return cuzk_fail(CUZK_ERR_IO,
                             "%s: section %u (%s) points %zu .. %zu: cannot read them: %s",
                             bf->what, sec->type, name, t * CHUNK, end - 1,
                             e ? cuzk__pread_error(e) : "the read failed once");
        }
        cuzk_status s;
        if (j->fd < 0)
            s = decode_one(j, i);
        else if (read_points(j, i, i + 1, snap) != 0)
            s = cuzk_fail(CUZK_ERR_IO, "cannot read it again");
        else
            s = decode_one_at(j, i, snap);
        if (s == CUZK_OK)
            s = cuzk_fail(CUZK_ERR_INTERNAL, "the bulk point check rejects it, the one-by-one "
                                             "check accepts it");
        return cuzk_fail(s, "%s: section %u (%s) point %zu at offset %llu: %s", bf->what, sec->type,
                         name, i, (unsigned long long)(sec->offset + i * psize), cuzk_last_error());
    }
    return CUZK_OK;
}

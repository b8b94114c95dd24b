/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * G1 MSM on the device (gpu.h, gpu_msm.h): host or resident bases, Montgomery scalars, window
 * sums combined on the host. Also the per-device MSM cache and the resident-bases object, shared
 * with src/gpu/msm_g2.cu and src/gpu/batch_add.cu. The algorithm: src/gpu/msm_kernels.cuh.
 */
#include "gpu/msm_stream.cuh"

#include <string.h>

#define GM_MAX_DEVICES 16

static gm_cache g_caches[2][GM_MAX_DEVICES]; /* [lane][device] */

gm_cache &gm_cache_of(const cuzk_gpu_device &dev)
{
    if (dev.id < 0 || dev.id >= GM_MAX_DEVICES || dev.lane < 0 || dev.lane > 1)
        cuzk_gpu_throw_(CUZK_ERR_INVALID_ARG, "device %d is beyond the %d the MSM serves", dev.id,
                        GM_MAX_DEVICES);
    gm_cache &c = g_caches[dev.lane][dev.id];
    /* The side lane's buffers in its stream's order (cuzk_gpu_buf::ordered): a call there
     * resizes them without waiting for the main lane's kernels. Env CUZK_GPU_SIDE_POOL=0: with
     * cudaMalloc as on the main lane (A/B runs). */
    if (dev.lane == 1) {
        static const bool pool = gm_env_uint("CUZK_GPU_SIDE_POOL", 1) != 0;
        cudaStream_t st = pool ? dev.stream : nullptr;
        c.ws.ordered = c.bases.ordered = c.scalars.ordered = c.sel.ordered = st;
    }
    return c;
}

extern "C" void cuzk__gpu_msm_release(int device, int lane)
{
    for (int l = 0; l < 2; l++)
        for (int i = 0; i < GM_MAX_DEVICES; i++) {
            if ((device >= 0 && i != device) || (lane >= 0 && l != lane))
                continue;
            gm_cache &c = g_caches[l][i];
            c.ws.release();
            c.bases.release();
            c.scalars.release();
            c.sel.release();
        }
}

static void g1_combine(cuzk_g1_jac_t *out, const uint64_t *wins, const gm_plan *p)
{
    gm_combine<cuzk_g1_jac_t, cuzk_g1_xyzz_t>(out, wins, p, cuzk_g1_xyzz_to_jac, cuzk_g1_dbl,
                                              cuzk_g1_add, cuzk_g1_jac_set_infinity,
                                              cuzk_g1_jac_is_infinity);
}

extern "C" cuzk_status cuzk_gpu_msm_g1(int device, cuzk_g1_jac_t *out,
                                       const cuzk_g1_affine_t *bases, const cuzk_fr_t *scalars,
                                       size_t n, cuzk_gpu_timing *timing)
{
    if (!out || (n && (!bases || !scalars)))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu msm g1: NULL output, bases or scalars");
    if (n >= GM_MAX_N)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu msm g1: %zu points is above 2^31 - 1", n);
    cuzk_g1_jac_t r;
    cuzk_status s = cuzk_gpu_guard_("gpu msm g1", [&] {
        if (n == 0) {
            (void)cuzk_gpu_device_get_(device);
            cuzk_g1_jac_set_infinity(&r);
            if (timing)
                memset(timing, 0, sizeof *timing);
            return;
        }
        gm_msm_host_call<gm_g1>(device, &r, bases, scalars, n, timing, g1_combine, cuzk_g1_add);
    });
    if (s == CUZK_OK)
        *out = r;
    return s;
}

/* ---- resident bases ------------------------------------------------------------------------ */

/* Base |first| of resident set |b|: in the precomputed table when there is one (its row 0 is
 * the bases; row j of entry i at i + j n). */
static const uint8_t *g1_resident_bases(const cuzk_gpu_bases *b, size_t first)
{
    return b->bases() + first * gm_g1::AFF_BYTES;
}

/* |b|'s tables as the MSM driver takes them (in |pre|), or NULL when it has none. */
static const gm_pre *g1_resident_pre(const cuzk_gpu_bases *b, gm_pre *pre)
{
    *pre = {b->n, b->pre_c, b->pre_rows};
    return b->pre_rows ? pre : NULL;
}

extern "C" cuzk_status cuzk_gpu_bases_upload_g1(cuzk_gpu_bases **out, int device,
                                                const cuzk_g1_affine_t *bases, size_t n)
{
    if (!out || !bases || n == 0 || n >= GM_MAX_N)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu bases g1: NULL argument or bad count %zu", n);
    *out = NULL;
    return cuzk_gpu_guard_("gpu bases g1", [&] {
        gm_bases_upload(out, device, bases, n, sizeof(cuzk_g1_affine_t), 1);
    });
}

extern "C" cuzk_status cuzk_gpu_bases_precompute_rows(cuzk_gpu_bases *b, unsigned c, unsigned rows)
{
    if (!b || b->group != 1 || (c && (c < 8 || c > GM_MAX_PRE_WINDOW)))
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "gpu bases precompute: NULL argument, G2 bases or c = %u outside 8..%d", c,
                         GM_MAX_PRE_WINDOW);
    if (!c)
        c = gm_window_rows(b->n, rows, rows ? GM_MAX_PRE_WINDOW : GM_MAX_WINDOW);
    const unsigned nw = (255 + c - 1) / c;
    if (!rows || rows > nw)
        rows = nw;
    if ((double)rows * (double)b->n >= (double)GM_MAX_N)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "gpu bases precompute: %u rows of %zu bases exceed 2^31 entries", rows,
                         b->n);
    return cuzk_gpu_guard_("gpu bases precompute", [&] {
        cuzk_gpu_device &dev = cuzk_gpu_device_get_(b->device);
        std::lock_guard<std::mutex> lock(dev.mu);
        cuzk_gpu_device_enter_(dev);
        /* The new table is built from the bases (row 0 of an earlier table, which this one
         * replaces) and then holds them as its row 0: the plain copy is released. */
        cuzk_gpu_buf table;
        table.reserve((size_t)rows * b->n * gm_g1::AFF_BYTES);
        gm_dev_exec ex = {dev.stream, NULL, 0, 0, NULL, 0, NULL, false, {}};
        typename gm_precompute<gm_g1>::Args a = {b->bases(), table.as<uint8_t>(), b->n, c, rows};
        ex.launch<gm_precompute<gm_g1>>(a, b->n, 1);
        CUZK_CUDA(cudaStreamSynchronize(dev.stream));
        /* field by field: cuzk_gpu_buf frees in its destructor, so no copies */
        std::swap(b->pre.p, table.p);
        std::swap(b->pre.bytes, table.bytes);
        std::swap(b->pre.device, table.device);
        std::swap(b->pre.ordered, table.ordered);
        std::swap(b->pre.from_pool, table.from_pool);
        b->pre_c = c;
        b->pre_rows = rows;
        b->buf.release();
    });
}

extern "C" unsigned cuzk_gpu_bases_rows_that_fit(const cuzk_gpu_bases *b, unsigned rows,
                                                 size_t reserve)
{
    if (!b || b->group != 1 || rows < 2)
        return 0;
    unsigned best = 0;
    cuzk_status s = cuzk_gpu_guard_("gpu bases rows", [&] {
        cuzk_gpu_device &dev = cuzk_gpu_device_get_(b->device);
        cuzk_gpu_device_enter_(dev);
        size_t fr = 0, tot = 0;
        CUZK_CUDA(cudaMemGetInfo(&fr, &tot));
        /* |row|: the plain copy, released once the table holds it */
        const size_t margin = GM_MEM_MARGIN, row = b->n * gm_g1::AFF_BYTES;
        unsigned best_sets = 0, best_nw = 0;
        for (unsigned r = 2; r <= rows; r++) {
            const unsigned c = gm_window_rows(b->n, r, GM_MAX_PRE_WINDOW), nw = (255 + c - 1) / c;
            const unsigned rr = std::min(r, nw), sets = (nw + rr - 1) / rr;
            if ((double)rr * (double)b->n >= (double)GM_MAX_N)
                break;
            gm_plan p;
            gm_plan_merged<gm_g1>(&p, c, rr);
            const size_t ne = (size_t)std::min(rr, p.dwin) * b->n, table = (size_t)rr * row;
            const size_t ws = gm_msm_ws_bytes<gm_g1>(&p, ne, gm_sort_bytes(ne, p.c));
            if (table + margin > fr || table + ws + reserve + margin > fr + row)
                break; /* more rows need more of both */
            if (!best || sets < best_sets || nw < best_nw) {
                best = rr;
                best_sets = sets;
                best_nw = nw;
            }
            if (rr == nw)
                break;
        }
    });
    return s == CUZK_OK ? best : 0;
}

extern "C" cuzk_status cuzk_gpu_bases_precompute(cuzk_gpu_bases *b, unsigned c)
{
    return cuzk_gpu_bases_precompute_rows(b, c, 0);
}

extern "C" unsigned cuzk_gpu_bases_precomputed(const cuzk_gpu_bases *b)
{
    return b ? b->pre_c : 0;
}

extern "C" unsigned cuzk_gpu_bases_precomputed_rows(const cuzk_gpu_bases *b)
{
    return b ? b->pre_rows : 0;
}

extern "C" void cuzk_gpu_bases_free(cuzk_gpu_bases *b)
{
    if (!b)
        return;
    int cur = -1;
    if (cudaGetDevice(&cur) == cudaSuccess && cur != b->device)
        (void)cudaSetDevice(b->device);
    b->buf.release();
    b->pre.release();
    if (cur >= 0 && cur != b->device)
        (void)cudaSetDevice(cur);
    delete b;
}

extern "C" size_t cuzk_gpu_bases_count(const cuzk_gpu_bases *b)
{
    return b ? b->n : 0;
}

extern "C" cuzk_status cuzk_gpu_msm_g1_resident(cuzk_g1_jac_t *out, const cuzk_gpu_bases *b,
                                                size_t first, const cuzk_fr_t *scalars, size_t n,
                                                cuzk_gpu_timing *timing)
{
    if (!out || !b || (n && !scalars) || b->group != 1 || first > b->n || n > b->n - first)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "gpu msm g1: NULL argument, G2 bases or range outside the bases");
    cuzk_g1_jac_t r;
    cuzk_status s = cuzk_gpu_guard_("gpu msm g1", [&] {
        if (n == 0) {
            cuzk_g1_jac_set_infinity(&r);
            if (timing)
                memset(timing, 0, sizeof *timing);
            return;
        }
        gm_pre pre;
        gm_msm_call<gm_g1>(b->device, &r, g1_resident_bases(b, first), scalars, n, timing,
                           g1_combine, g1_resident_pre(b, &pre));
    });
    if (s == CUZK_OK)
        *out = r;
    return s;
}

/* ---- (base index, scalar) pairs over resident bases ---------------------------------------- */

extern "C" cuzk_status cuzk_gpu_msm_g1_resident_idx(cuzk_g1_jac_t *out, const cuzk_gpu_bases *b,
                                                    size_t first, const uint32_t *idx,
                                                    const cuzk_fr_t *scalars, size_t m,
                                                    cuzk_gpu_timing *timing)
{
    if (!out || !b || (m && (!idx || !scalars)) || b->group != 1 || first > b->n || m >= GM_MAX_N)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "gpu msm g1 idx: NULL argument, G2 bases or bad range");
    for (size_t j = 0; j < m; j++)
        if (idx[j] >= b->n - first)
            return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu msm g1 idx: entry %zu names base %u of %zu",
                             j, idx[j], b->n - first);
    cuzk_g1_jac_t r;
    cuzk_status s = cuzk_gpu_guard_("gpu msm g1 idx", [&] {
        if (m == 0) {
            cuzk_g1_jac_set_infinity(&r);
            if (timing)
                memset(timing, 0, sizeof *timing);
            return;
        }
        gm_pre pre;
        gm_msm_idx_call<gm_g1>(b->device, &r, g1_resident_bases(b, first), idx, scalars, m, timing,
                               g1_combine, g1_resident_pre(b, &pre));
    });
    if (s == CUZK_OK)
        *out = r;
    return s;
}

extern "C" cuzk_status cuzk_gpu_msm_g1_host_idx(int device, cuzk_g1_jac_t *out,
                                                const cuzk_g1_affine_t *bases, size_t n,
                                                const uint32_t *idx, const cuzk_fr_t *scalars,
                                                size_t m, cuzk_gpu_timing *timing)
{
    return gm_host_idx_entry<gm_g1>("gpu msm g1 host idx", device, out, bases, n, idx, scalars, m,
                                    timing, cuzk_g1_jac_set_infinity, g1_combine);
}

/* ---- the H step feeding the H MSM on the device -------------------------------------------- */

/* The H step of the fused calls below: h left on the device (dev.vec[0]), its timing reported.
 * The host arrays are unpinned on another thread once their uploads are done, under the H
 * kernels (only the copy stream reads them), and joined before the MSM starts. Out of device
 * memory, the step runs again after freeing what earlier calls keep cached (h is not written
 * before). The caller holds dev.mu, and |staged| its hold on the a and b it staged
 * (cuzk_gpu_h_stage_; released as soon as they are swapped in). */
static fr_dev *g1_fused_h(cuzk_gpu_device &dev, cuzk_gpu_timer &tm, const cuzk_domain *d,
                          const cuzk_fr_t *a, const cuzk_fr_t *bv, const cuzk_fr_t *c, size_t rows,
                          cuzk_gpu_timing *h_timing, std::unique_lock<std::mutex> *staged = nullptr)
{
    cuzk_gpu_call_pins pins(dev.stream, dev.copy);
    fr_dev *h = nullptr;
    cuzk_gpu_retry_trimmed_(dev,
                            [&] { h = cuzk_gpu_h_dev_(dev, tm, pins, d, a, bv, c, rows, staged); });
    tm.mark(3);
    pins.release_async(dev.id, dev.copy);
    CUZK_CUDA(cudaEventSynchronize(dev.ev[3]));
    pins.join_release();
    cuzk_gpu_timing ht;
    ht.device = dev.id;
    ht.h2d_ms = tm.ms(0, 1);
    ht.compute_ms = tm.ms(1, 3);
    ht.d2h_ms = 0;
    ht.total_ms = tm.ms(0, 3);
    if (h_timing)
        *h_timing = ht;
    cuzk_gpu_report_("ntt_h", ht, cuzk_domain_log_size(d));
    return h;
}

extern "C" cuzk_status cuzk_gpu_h_msm_g1_resident(cuzk_g1_jac_t *out, const cuzk_gpu_bases *b,
                                                  size_t first, const cuzk_domain *d,
                                                  const cuzk_fr_t *a, const cuzk_fr_t *bv,
                                                  const cuzk_fr_t *c, size_t rows,
                                                  cuzk_gpu_timing *h_timing,
                                                  cuzk_gpu_timing *msm_timing)
{
    if (!out || !b || !d || !a || !bv || b->group != 1) /* c NULL: c = a * b */
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu h msm g1: NULL argument or G2 bases");
    size_t n = cuzk_domain_size(d);
    if (n < 2 || first > b->n || n - 1 > b->n - first)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "gpu h msm g1: %zu h terms outside %zu bases from %zu", n - 1, b->n,
                         first);
    cuzk_g1_jac_t r;
    cuzk_status s = cuzk_gpu_guard_("gpu h msm g1", [&] {
        cuzk_gpu_device &dev = cuzk_gpu_device_get_(b->device);
        /* Another partition on the lane: this one's a and b go up under its kernels; or they
         * were prefetched under an earlier call's (cuzk_gpu_h_prefetch). */
        std::unique_lock<std::mutex> lock(dev.mu, std::try_to_lock), staging;
        const bool busy = !lock.owns_lock();
        (void)cuzk_gpu_h_stage_(dev, staging, d, a, bv, c, rows, busy);
        if (busy)
            lock.lock();
        cuzk_gpu_device_enter_(dev);
        cuzk_gpu_timer tm(dev);
        fr_dev *h = g1_fused_h(dev, tm, d, a, bv, c, rows, h_timing, &staging);
        /* h never leaves the device: it is the MSM's scalar vector (same limb layout). */
        tm.mark(0);
        tm.mark(1);
        gm_pre pre;
        gm_msm_run<gm_g1>(dev, tm, &r, g1_resident_bases(b, first),
                          reinterpret_cast<const uint64_t *>(h), n - 1, msm_timing, g1_combine,
                          NULL, g1_resident_pre(b, &pre));
    });
    if (s == CUZK_OK)
        *out = r;
    return s;
}

/* The same over host bases (not resident): h stays on the device as the scalars of a streamed
 * MSM (msm_stream.cuh) whose chunks carry only points. b's and c's device vectors are freed
 * first when the chunks would otherwise come out smaller than the default (a small card). */
extern "C" cuzk_status cuzk_gpu_h_msm_g1(int device, cuzk_g1_jac_t *out,
                                         const cuzk_g1_affine_t *h_bases, const cuzk_domain *d,
                                         const cuzk_fr_t *a, const cuzk_fr_t *bv,
                                         const cuzk_fr_t *c, size_t rows, cuzk_gpu_timing *h_timing,
                                         cuzk_gpu_timing *msm_timing)
{
    if (!out || !h_bases || !d || !a || !bv) /* c NULL: c = a * b */
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu h msm g1: NULL argument");
    size_t n = cuzk_domain_size(d);
    if (n < 2)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu h msm g1: a domain of %zu", n);
    cuzk_g1_jac_t r;
    cuzk_status s = cuzk_gpu_guard_("gpu h msm g1", [&] {
        cuzk_gpu_device &dev = cuzk_gpu_device_get_(device);
        std::lock_guard<std::mutex> lock(dev.mu);
        cuzk_gpu_device_enter_(dev);
        cuzk_gpu_timer tm(dev);
        fr_dev *h = g1_fused_h(dev, tm, d, a, bv, c, rows, h_timing);
        gm_cache &cc = gm_cache_of(dev);
        size_t m = gm_stream_roomy_chunk<gm_g1>(
            cc, n - 1, GM_ST_DEV_SCALARS,
            [&] {
                dev.vec[1].release(); /* dev.vec[0] holds h */
                dev.vec[2].release();
            },
            gm_side_share(dev));
        if (!m)
            m = gm_div_up(n - 1, 64) * 64;
        gm_msm_stream<gm_g1>(dev, cc, &r, h_bases, NULL, reinterpret_cast<const uint64_t *>(h),
                             n - 1, m, msm_timing, g1_combine, cuzk_g1_add);
    });
    if (s == CUZK_OK)
        *out = r;
    return s;
}

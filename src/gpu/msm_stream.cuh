/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GPU_MSM_STREAM_CUH
#define CUZK_GPU_MSM_STREAM_CUH

/*
 * MSMs and batch additions over host bases (parameters that are not resident on the device),
 * streamed: the points (and their scalars or bitmap) go up in chunks through two device slots,
 * chunk k + 1's transfer on the copy stream while chunk k's kernels run, so the device needs
 * room for two chunks instead of the whole query and the transfers hide under the kernels
 * (issue 4 item 4: parameters that do not fit are streamed from pinned host memory). Each chunk
 * is a whole MSM (or batch addition) of its own; the chunks' results are added on the host.
 *
 * The uploads run on a thread of their own: a copy from pageable memory blocks the thread that
 * issues it until the driver has staged it, which must not hold back the next chunk's kernels.
 *
 * Chunks: env CUZK_GPU_MSM_STREAM = 0 turns streaming off (one upload of the whole query, the
 * path before it; for A/B runs), N > 0 streams in chunks of N points (rounded up to 64). Unset:
 * queries above 2^24 points are streamed, MSMs in chunks that start at 1/32 of the largest and
 * double up to it (gm_stream_starts; env CUZK_GPU_MSM_RAMP=0: all of the largest), batch
 * additions in equal chunks; the largest is 2^26 G1 / 2^24 G2 points for MSMs, 2^24 / 2^23 for
 * batch additions, halved while two of it and the working memory do not fit in what the device
 * has free. Smaller queries go up in one piece when they fit.
 */

#include "gpu/msm_dev.cuh"

#include <time.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

static inline double gm_now_ms()
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Host queries above this many points are streamed (automatic mode): below it, one upload
 * (~0.04 s pinned, registered for the call when pageable) costs less than smaller MSMs would.
 * A ramp never starts below GM_STREAM_FIRST points (2^22 G1 points: 31.6 ms of kernels, 10 ms
 * of transfer). */
#define GM_STREAM_MIN ((size_t)1 << 24)
#define GM_STREAM_FIRST ((size_t)1 << 22)

/* The largest chunk of an automatic stream: MSMs 2^26 G1 / 2^24 G2 points (7.0 / 3.4 GB; an MSM
 * costs less per point the larger it is: G1 2^24 / 2^26 / 2^27 at 6.3 / 5.7 / 5.4 ns a point on
 * the H200), batch additions (bound by the transfer) 2^24 / 2^23. */
template <class G> static size_t gm_stream_default(bool badd)
{
    bool g2 = sizeof(typename G::host_aff) > 128;
    return (size_t)1 << (badd ? (g2 ? 23 : 24) : (g2 ? 24 : 26));
}

/* Device bytes an MSM of |n| points needs beyond its inputs (one window per pass: the least). */
template <class G> static size_t gm_msm_min_ws(size_t n)
{
    gm_plan p;
    gm_plan_window<G>(&p, gm_window(n), n <= GM_SMALL_N);
    p.nwin = (255 + p.c - 1) / p.c;
    p.group = 1;
    /* + the sparse selection's index list (cc.sel) */
    return gm_msm_ws_bytes<G>(&p, n, gm_sort_bytes(n, p.c)) + n * 4 + ((size_t)1 << 20);
}

/* What travels with a chunk's points. */
enum gm_stream_kind { GM_ST_SCALARS, GM_ST_DEV_SCALARS, GM_ST_BITMAP };

/* Device bytes of one chunk slot of |m| points: the points and their scalars or bitmap. */
template <class G> static size_t gm_slot_bytes(size_t m, gm_stream_kind k)
{
    return m * G::AFF_BYTES + (k == GM_ST_BITMAP    ? gm_div_up(m, 64) * 8
                               : k == GM_ST_SCALARS ? m * sizeof(cuzk_fr_t)
                                                    : 0);
}

/* Device memory a streamed MSM on the main lane leaves free for the side lane, where there is
 * one (env CUZK_GPU_SIDE_SHARE, default 2 GiB; 0: none, and the call is never settled). On a
 * 16-32 GB card the H MSM would otherwise take all of it, and a partition's L/A/B sums, bound
 * by PCIe, would wait for it instead of running beside its kernels (docs/PERFORMANCE.md, run
 * X1). 2 GiB holds a batch addition's two 2^22-point slots or a PoRep partition's tail. */
static inline size_t gm_side_share(const cuzk_gpu_device &dev)
{
    if (dev.lane != 0 || !cuzk_gpu_side_lane_on())
        return 0;
    return cuzk_gpu_env_bytes_("CUZK_GPU_SIDE_SHARE", (size_t)2 << 30);
}

/* The largest chunk for a call over |n| host points, 0 for one upload of the whole query;
 * |leave| bytes of the device's free memory stay out of the call's reach. */
template <class G>
static size_t gm_stream_chunk(const gm_cache &cc, size_t n, gm_stream_kind kind, size_t leave = 0)
{
    const char *e = getenv("CUZK_GPU_MSM_STREAM");
    if (e && *e) {
        size_t m = (size_t)strtoull(e, NULL, 10);
        if (m == 0)
            return 0;
        m = gm_div_up(m, 64) * 64;
        return m < n || kind == GM_ST_DEV_SCALARS ? m : 0;
    }
    /* What the call may use: free memory plus the MSM's own caches, which it reuses. */
    size_t avail = gm_budget(cc) + cc.bases.bytes + cc.scalars.bytes;
    avail = avail > leave ? avail - leave : 0;
    auto need = [&](size_t m, unsigned slots) {
        return slots * gm_slot_bytes<G>(m, kind) +
               (kind == GM_ST_BITMAP ? gm_badd_ws<G>(m) : gm_msm_min_ws<G>(m));
    };
    if (n <= GM_STREAM_MIN && kind != GM_ST_DEV_SCALARS && need(n, 1) <= avail)
        return 0;
    size_t m0 = gm_stream_default<G>(kind == GM_ST_BITMAP);
    size_t m = n < m0 ? gm_div_up(n, 64) * 64 : m0;
    while (m > ((size_t)1 << 16) && need(m, 2) > avail)
        m /= 2;
    return m;
}

/* Chunk starts of a stream of |n| points with chunks of at most |m| (and n at the end). With
 * |ramp| the chunks start at m / 32 (at least GM_STREAM_FIRST) and double up to m: the first
 * transfer, which nothing hides, is short, and each later one (~2.5 ns a G1 point with its
 * scalar, pinned) hides under the kernels of the chunk before (~5.4-7.5 ns a point).
 * CUZK_GPU_MSM_STREAM = N: chunks of N (ramped only with CUZK_GPU_MSM_RAMP=1). */
static inline std::vector<size_t> gm_stream_starts(size_t n, size_t m, bool ramp)
{
    const char *e = getenv("CUZK_GPU_MSM_STREAM"), *r = getenv("CUZK_GPU_MSM_RAMP");
    if (r && *r)
        ramp = *r != '0'; /* CUZK_GPU_MSM_RAMP=1 ramps forced chunks too (tests) */
    else if (e && *e)
        ramp = false;
    size_t c = m;
    if (ramp) {
        c = gm_div_up(m / 32, 64) * 64;
        size_t least = e && *e ? 64 : GM_STREAM_FIRST; /* forced chunks: any size (tests) */
        c = c < least ? (least < m ? least : m) : c;
    }
    std::vector<size_t> lo;
    for (size_t at = 0; at < n;) {
        lo.push_back(at);
        at += c < n - at ? c : n - at;
        c = 2 * c < m ? 2 * c : m;
    }
    lo.push_back(n);
    return lo;
}

/* gm_stream_chunk, after |make_room|() when the chunks came out smaller than the default for
 * want of memory: a card that cannot hold the H step's vectors beside the MSM's chunks gives
 * the memory to the phase that runs (cuzk_gpu_trim_, or less where some of it is in use). */
template <class G, class MakeRoom>
static size_t gm_stream_roomy_chunk(const gm_cache &cc, size_t n, gm_stream_kind kind,
                                    MakeRoom make_room, size_t leave = 0)
{
    size_t m = gm_stream_chunk<G>(cc, n, kind, leave);
    size_t m0 = gm_stream_default<G>(kind == GM_ST_BITMAP);
    const char *e = getenv("CUZK_GPU_MSM_STREAM");
    if (m && m < m0 && m < n && !(e && *e)) {
        make_room();
        m = gm_stream_chunk<G>(cc, n, kind, leave);
    }
    return m;
}

/* A main-lane call that has everything it will allocate, marked settled until it ends (see
 * cuzk_gpu_device::settled): its cache keeps the plans within the reserved workspace. */
struct gm_settled {
    cuzk_gpu_device &dev;
    gm_cache &cc;
    bool on = false;
    gm_settled(cuzk_gpu_device &d, gm_cache &c) : dev(d), cc(c)
    {
    }
    void settle()
    {
        cc.hold = true;
        dev.settled.store(true);
        on = true;
    }
    ~gm_settled()
    {
        if (on) {
            dev.settled.store(false);
            cc.hold = false;
        }
    }
};

/* The uploading thread of a streamed call: chunk k into slot k & 1 once chunk k - 2's kernels are
 * done (the slot is free), one chunk ahead of the kernels. */
struct gm_uploader {
    std::mutex mu;
    std::condition_variable cv;
    size_t ready = 0, freed = 0; /* chunks uploaded; chunks whose kernels are done */
    bool stop = false;
    cudaError_t err = cudaSuccess;
    std::thread th;

    /* |copy|(k) copies chunk k on dev.copy and waits for it (gm_chunk_h2d). */
    template <class Copy> void start(cuzk_gpu_device &dev, size_t chunks, Copy copy)
    {
        th = std::thread([this, &dev, chunks, copy] {
            cudaError_t e = cudaSetDevice(dev.id);
            for (size_t k = 0; k < chunks; k++) {
                if (e == cudaSuccess) {
                    std::unique_lock<std::mutex> l(mu);
                    cv.wait(l, [&] { return stop || k < freed + 2; });
                    if (stop)
                        return;
                    l.unlock();
                    e = copy(k);
                }
                std::lock_guard<std::mutex> l(mu);
                if (e != cudaSuccess) { /* the waiting caller throws it */
                    err = e;
                    cv.notify_all();
                    return;
                }
                ready = k + 1;
                cv.notify_all();
            }
        });
    }
    /* Waits until chunk |k| is on the device; returns the host ms spent waiting. */
    double wait_ready(size_t k)
    {
        const double t0 = gm_now_ms();
        std::unique_lock<std::mutex> l(mu);
        cv.wait(l, [&] { return ready > k || err != cudaSuccess; });
        if (err != cudaSuccess) {
            cudaError_t e = err;
            l.unlock();
            cuzk_gpu_throw_cuda_(e, "cudaMemcpyAsync of a streamed chunk", __FILE__, __LINE__);
        }
        return gm_now_ms() - t0;
    }
    void done(size_t k)
    {
        std::lock_guard<std::mutex> l(mu);
        freed = k + 1;
        cv.notify_all();
    }
    ~gm_uploader()
    {
        {
            std::lock_guard<std::mutex> l(mu);
            stop = true;
            cv.notify_all();
        }
        if (th.joinable())
            th.join();
    }
};

/* One chunk's host-to-device copy on |st|, waited for. A pageable source is registered for the
 * copy (~23 GB/s, then the copy at the PCIe rate: ~16 GB/s in all, against ~7 GB/s for the
 * driver's staged copy of pageable memory; docs/PERFORMANCE.md, host memory) and unregistered
 * after it by |pins|; one that cannot be registered is copied as it is. */
static inline cudaError_t gm_chunk_h2d(void *dst, const void *src, size_t bytes, cudaStream_t st)
{
    cuzk_gpu_call_pins pins(st);
    pins.pin(src, bytes, (size_t)16 << 20);
    cudaError_t e = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, st);
    return e == cudaSuccess ? cudaStreamSynchronize(st) : e;
}

/* Timing of a streamed call: compute = the chunks' kernels (events), h2d = the time the kernels
 * waited for transfers (host clock), total = the call's host wall time. */
static inline void gm_stream_report(const char *phase, cuzk_gpu_timing *timing, int device,
                                    double total, double compute, double waited, size_t n)
{
    cuzk_gpu_timing t;
    t.device = device;
    t.compute_ms = compute;
    t.h2d_ms = waited;
    t.d2h_ms = total > compute + waited ? total - compute - waited : 0;
    t.total_ms = total;
    if (timing)
        *timing = t;
    cuzk_gpu_report_(phase, t, gm_log2_up(n));
}

/* The MSM over |n| host bases in chunks of at most |m| points (gm_stream_chunk, ramped), with
 * host scalars, or with |d_scalars| already on the device (then only the points travel). */
template <class G>
static void gm_msm_stream(cuzk_gpu_device &dev, gm_cache &cc, typename G::host_jac *out,
                          const void *h_bases, const cuzk_fr_t *scalars, const uint64_t *d_scalars,
                          size_t n, size_t m, cuzk_gpu_timing *timing,
                          void (*combine)(typename G::host_jac *, const uint64_t *,
                                          const gm_plan *),
                          void (*add)(typename G::host_jac *, const typename G::host_jac *,
                                      const typename G::host_jac *))
{
    const double t0 = gm_now_ms();
    const std::vector<size_t> lo = gm_stream_starts(n, m, n > GM_STREAM_MIN);
    const size_t chunks = lo.size() - 1, slots = chunks > 1 ? 2 : 1;
    cc.bases.reserve(slots * m * G::AFF_BYTES);
    if (!d_scalars)
        cc.scalars.reserve(slots * m * sizeof(cuzk_fr_t));
    /* On the main lane, the largest chunk's selection list and workspace are reserved now, within
     * all but the side lane's share, and the lane is settled: side calls may start beside the
     * kernels, on memory this call will not ask for (the ramp's plans grow otherwise). */
    gm_settled settled(dev, cc);
    if (const size_t leave = chunks > 1 ? gm_side_share(dev) : 0) {
        if (m >= GM_SPARSE_MIN)
            cc.sel.reserve(gm_select_bytes(m));
        gm_plan p;
        size_t b = gm_budget(cc);
        gm_plan_fit<G>(&p, m, b > leave ? b - leave : 0);
        cc.ws.reserve(gm_msm_ws_bytes<G>(&p, m, gm_sort_bytes(m, p.c)));
        settled.settle();
    }
    uint8_t *db = cc.bases.as<uint8_t>();
    uint8_t *ds = d_scalars ? NULL : cc.scalars.as<uint8_t>();
    const uint8_t *hb = static_cast<const uint8_t *>(h_bases);
    gm_uploader up;
    up.start(dev, chunks, [&, db, ds, hb](size_t k) {
        size_t cnt = lo[k + 1] - lo[k], s = k & 1;
        cudaError_t e = gm_chunk_h2d(db + s * m * G::AFF_BYTES, hb + lo[k] * G::AFF_BYTES,
                                     cnt * G::AFF_BYTES, dev.copy);
        if (e == cudaSuccess && ds)
            e = gm_chunk_h2d(ds + s * m * sizeof(cuzk_fr_t), scalars + lo[k],
                             cnt * sizeof(cuzk_fr_t), dev.copy);
        return e;
    });
    double compute = 0, waited = 0;
    cuzk_gpu_timer tm(dev);
    typename G::host_jac acc, part;
    for (size_t k = 0; k < chunks; k++) {
        size_t cnt = lo[k + 1] - lo[k], s = k & 1;
        waited += up.wait_ready(k);
        const uint64_t *sc =
            d_scalars ? d_scalars + 4 * lo[k]
                      : reinterpret_cast<const uint64_t *>(ds + s * m * sizeof(cuzk_fr_t));
        tm.mark(0);
        tm.mark(1);
        gm_msm_run<G>(dev, tm, &part, db + s * m * G::AFF_BYTES, sc, cnt, NULL, combine, NULL, NULL,
                      false);
        compute += tm.ms(1, 2);
        up.done(k);
        cuzk_gpu_event_(dev, CUZK__GPU_EV_MSM_STREAMED_CHUNK);
        if (k == 0)
            acc = part;
        else
            add(&acc, &acc, &part);
    }
    *out = acc;
    gm_stream_report(gm_phase<G>(), timing, dev.id, gm_now_ms() - t0, compute, waited, n);
}

/* cuzk_gpu_host_mapped_ where the device should gather from host memory itself: always for a tail
 * (|badd| false; the alternative is a host gather); for a batch addition's chunks only on the
 * main lane: the gather's threads hold SM slots while they wait on PCIe, and beside the other
 * lane's kernels (the H step, the H MSM) that cost more than the halved transfer saved (run U4:
 * partition 1618-1639 -> 1713-1733 ms), while a DMA copy holds none. Env
 * CUZK_GPU_DEVICE_GATHER = 0: never (as before the device gathered), tails: tails only, all:
 * batch additions on either lane too (A/B runs). NULL where no gather. */
static inline const uint8_t *gm_gather_src(const void *p, bool badd, int lane)
{
    const char *e = getenv("CUZK_GPU_DEVICE_GATHER");
    bool off = e && *e ? strcmp(e, "0") == 0 || (badd && strcmp(e, "tails") == 0) ||
                             (badd && lane != 0 && strcmp(e, "all") != 0)
                       : badd && lane != 0;
    return off ? NULL : static_cast<const uint8_t *>(cuzk_gpu_host_mapped_(p));
}

/* dst[j] = src[j] for the points j < cnt whose bit is set, |words| 8-byte words a point, one
 * word a thread (a warp reads runs of whole points: full PCIe requests where points are
 * selected next to each other); the others stay as they were, which the batch addition never
 * reads. A grid of two blocks an SM: enough loads in flight to fill PCIe, while a kernel of the
 * other lane keeps most of each SM. */
__global__ static void k_gm_gather_selected(uint64_t *dst, const uint64_t *src,
                                            const uint64_t *bitmap, size_t cnt, unsigned words)
{
    const size_t total = cnt * words, step = (size_t)gridDim.x * blockDim.x;
    for (size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x; t < total; t += step) {
        size_t j = t / words;
        if ((bitmap[j >> 6] >> (j & 63)) & 1)
            dst[t] = src[t];
    }
}

/* The selected points of a chunk (bitmap already on the device) read from mapped host memory
 * into the chunk's slot on |st|, waited for: about half of a 0/1 query crosses PCIe instead of
 * all of it. */
static inline cudaError_t gm_chunk_gather(uint8_t *dst, const uint8_t *d_src,
                                          const uint64_t *d_bitmap, size_t cnt, size_t aff_bytes,
                                          cudaStream_t st)
{
    int dev = 0, sms = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e != cudaSuccess)
        return e;
    k_gm_gather_selected<<<2 * (unsigned)sms, 256, 0, st>>>(
        reinterpret_cast<uint64_t *>(dst), reinterpret_cast<const uint64_t *>(d_src), d_bitmap, cnt,
        (unsigned)(aff_bytes / 8));
    e = cudaGetLastError();
    return e == cudaSuccess ? cudaStreamSynchronize(st) : e;
}

/* The batch addition over |n| host bases and a host bitmap in chunks of |m| points (m a
 * multiple of 64, so every chunk but the last has whole bitmap words). */
template <class G>
static void gm_badd_stream(cuzk_gpu_device &dev, gm_cache &cc, typename G::host_jac *out,
                           const void *h_bases, const uint64_t *bitmap, size_t n, size_t m,
                           cuzk_gpu_timing *timing,
                           void (*to_jac)(typename G::host_jac *, const typename G::host_xyzz *),
                           void (*add)(typename G::host_jac *, const typename G::host_jac *,
                                       const typename G::host_jac *))
{
    typedef typename G::F F;
    const double t0 = gm_now_ms();
    const size_t chunks = gm_div_up(n, m), mw = m / 64;
    cc.bases.reserve(2 * m * G::AFF_BYTES);
    cc.scalars.reserve(2 * mw * 8);
    cc.ws.reserve(gm_badd_ws<G>(m));
    uint8_t *db = cc.bases.as<uint8_t>();
    uint64_t *dm = cc.scalars.as<uint64_t>();
    const uint8_t *hb = static_cast<const uint8_t *>(h_bases);
    /* Pinned bases: the device reads the selected points itself (gm_chunk_gather). */
    static_assert(G::AFF_BYTES % 8 == 0, "points are gathered in 8-byte words");
    const uint8_t *d_src = gm_gather_src(h_bases, true, dev.lane);
    gm_uploader up;
    up.start(dev, chunks, [&, db, dm, hb, d_src](size_t k) {
        size_t lo = k * m, cnt = n - lo < m ? n - lo : m, s = k & 1;
        cudaError_t e =
            gm_chunk_h2d(dm + s * mw, bitmap + lo / 64, gm_div_up(cnt, 64) * 8, dev.copy);
        if (e == cudaSuccess)
            e = d_src ? gm_chunk_gather(db + s * m * G::AFF_BYTES, d_src + lo * G::AFF_BYTES,
                                        dm + s * mw, cnt, G::AFF_BYTES, dev.copy)
                      : gm_chunk_h2d(db + s * m * G::AFF_BYTES, hb + lo * G::AFF_BYTES,
                                     cnt * G::AFF_BYTES, dev.copy);
        return e;
    });
    double compute = 0, waited = 0;
    cuzk_gpu_timer tm(dev);
    typename G::host_jac acc, part;
    uint64_t h[4 * F::LIMBS];
    for (size_t k = 0; k < chunks; k++) {
        size_t lo = k * m, cnt = n - lo < m ? n - lo : m, s = k & 1;
        waited += up.wait_ready(k);
        gm_dev_exec ex = {dev.stream, cc.ws.as<uint8_t>(), cc.ws.bytes, 0, NULL, 0, &tm, false, {}};
        tm.mark(1);
        gm_batch_add<G>(ex, h, db + s * m * G::AFF_BYTES, dm + s * mw, cnt);
        CUZK_CUDA(cudaStreamSynchronize(dev.stream));
        compute += tm.ms(1, 2);
        up.done(k);
        cuzk_gpu_event_(dev, CUZK__GPU_EV_MSM_STREAMED_CHUNK);
        typename G::host_xyzz x;
        memcpy(&x, h, sizeof x);
        to_jac(&part, &x);
        if (k == 0)
            acc = part;
        else
            add(&acc, &acc, &part);
    }
    *out = acc;
    gm_stream_report(sizeof(typename G::host_aff) == sizeof(cuzk_g1_affine_t) ? "gpu_batch_add_g1"
                                                                              : "gpu_batch_add_g2",
                     timing, dev.id, gm_now_ms() - t0, compute, waited, n);
}

/* The side lane takes a call while the device has this much memory free (env
 * CUZK_GPU_SIDE_MIN_FREE): its slots and workspace (~5 GB for a PoRep partition's batch
 * additions and tails at full size) must not squeeze the main lane's call (an H step, which
 * allocates as it goes) into smaller chunks or out of memory. Beside a settled main call
 * (cuzk_gpu_device::settled), which will allocate nothing more, GM_SIDE_MIN_SETTLED is enough:
 * the side call sizes its chunks to what is free. */
#define GM_SIDE_MIN_FREE ((size_t)8 << 30)
#define GM_SIDE_MIN_SETTLED ((size_t)1 << 30)

/* |own|: what the side lane's cache holds (its call reuses it). */
static inline bool gm_side_admits(const cuzk_gpu_device &main, size_t own)
{
    size_t fr = 0, tot = 0;
    if (cudaSetDevice(main.id) != cudaSuccess || cudaMemGetInfo(&fr, &tot) != cudaSuccess) {
        (void)cudaGetLastError();
        return false;
    }
    fr += own;
    return fr >= cuzk_gpu_env_bytes_("CUZK_GPU_SIDE_MIN_FREE", GM_SIDE_MIN_FREE) ||
           (main.settled.load() && fr >= GM_SIDE_MIN_SETTLED);
}

/* |fn|(dev) on a lane of |device| (current, run again after cuzk_gpu_trim_ when the device runs
 * out of memory; |fn| must be able to start over). While another call holds the main lane (a
 * partition's fused H step and H MSM), on whichever lane can take it first: the side lane when
 * it is free and the device has room for it (gm_side_admits), its transfers beside the main
 * call's kernels, or the main lane once that is free; both are re-checked every 0.5 ms, so a
 * call that waits through an H step takes the side lane when the H MSM settles. A call that
 * runs out of memory on the side lane frees what it took there and waits for the main lane. */
template <class Fn> static void gm_lane_call(int device, Fn fn)
{
    auto run = [&](cuzk_gpu_device &dev) {
        cuzk_gpu_device_enter_(dev);
        cuzk_gpu_retry_trimmed_(dev, [&] { fn(dev); });
    };
    cuzk_gpu_device &dev = cuzk_gpu_device_get_(device);
    std::unique_lock<std::mutex> lock(dev.mu, std::try_to_lock);
    cuzk_gpu_device *side = lock.owns_lock() ? NULL : cuzk_gpu_side_lane_(device);
    while (side && !lock.owns_lock()) {
        {
            std::unique_lock<std::mutex> sl(side->mu, std::try_to_lock);
            if (sl.owns_lock() && gm_side_admits(dev, gm_cache_of(*side).bytes())) {
                try {
                    run(*side);
                    cuzk_gpu_event_(*side, CUZK__GPU_EV_SIDE_LANE_CALL);
                    return;
                } catch (const cuzk_gpu_error &e) {
                    if (e.status != CUZK_ERR_NOMEM)
                        throw;
                    /* Nothing of this call may still run on the side lane's buffers, which
                     * go back to the device for the main lane. */
                    (void)cudaStreamSynchronize(side->stream);
                    (void)cudaStreamSynchronize(side->copy);
                    (void)cudaGetLastError();
                    cuzk__gpu_msm_release(dev.id, 1);
                    side = NULL;
                    continue;
                }
            }
        }
        if (!lock.try_lock())
            std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
    if (!lock.owns_lock())
        lock.lock();
    run(dev);
}

/* Calls over resident bases, on a lane (gm_lane_call): a partition's L/A/B sums run on the side
 * lane beside the H step that holds the main lane. */
template <class G>
static void gm_msm_call(int device, typename G::host_jac *out, const uint8_t *d_bases,
                        const cuzk_fr_t *scalars, size_t n, cuzk_gpu_timing *timing,
                        void (*combine)(typename G::host_jac *, const uint64_t *, const gm_plan *),
                        const gm_pre *pre = NULL)
{
    gm_lane_call(device, [&](cuzk_gpu_device &dev) {
        gm_msm_call_on<G>(dev, out, NULL, d_bases, scalars, n, timing, combine, pre);
    });
}

template <class G>
static void
gm_msm_idx_call(int device, typename G::host_jac *out, const uint8_t *d_bases, const uint32_t *idx,
                const cuzk_fr_t *scalars, size_t m, cuzk_gpu_timing *timing,
                void (*combine)(typename G::host_jac *, const uint64_t *, const gm_plan *),
                const gm_pre *pre = NULL)
{
    gm_lane_call(device, [&](cuzk_gpu_device &dev) {
        gm_msm_idx_call_on<G>(dev, out, d_bases, idx, scalars, m, timing, combine, pre);
    });
}

template <class G>
static void gm_badd_call(int device, typename G::host_jac *out, const uint8_t *d_bases,
                         const uint64_t *bitmap, size_t n, cuzk_gpu_timing *timing,
                         void (*to_jac)(typename G::host_jac *, const typename G::host_xyzz *))
{
    gm_lane_call(device, [&](cuzk_gpu_device &dev) {
        gm_badd_call_on<G>(dev, out, NULL, d_bases, bitmap, n, timing, to_jac);
    });
}

/* A call over |n| host points of |kind|: streamed in chunks (|stream|(dev, cc, m)) or uploaded
 * whole (|whole|(dev)), on a lane (gm_lane_call). */
template <class G, class Stream, class Whole>
static void gm_host_call(int device, size_t n, gm_stream_kind kind, Stream stream, Whole whole)
{
    gm_lane_call(device, [&](cuzk_gpu_device &dev) {
        gm_cache &cc = gm_cache_of(dev);
        size_t m = gm_stream_roomy_chunk<G>(
            cc, n, kind, [&] { cuzk_gpu_trim_(dev); },
            kind == GM_ST_BITMAP ? 0 : gm_side_share(dev));
        if (m)
            stream(dev, cc, m);
        else
            whole(dev);
    });
}

/* dst[j] = src[idx[j]] for points of |words| 8-byte words, one word a thread: a warp reads whole
 * points, so each point crosses PCIe in a few full sectors when |src| is host memory. */
__global__ static void k_gm_gather_points(uint64_t *dst, const uint64_t *src, const uint32_t *idx,
                                          size_t m, unsigned words)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= m * words)
        return;
    size_t j = t / words, w = t - j * words;
    dst[t] = src[(size_t)idx[j] * words + w];
}

/* The MSM of |m| (base index, scalar) pairs over bases in mapped host memory (|d_src|, the
 * device address of the host array): only the selected points cross PCIe, read by the device
 * itself (no host gather, no temporary registration), then an MSM over the gathered points. On
 * a lane (gm_lane_call), so a partition's tails run beside its H MSM. */
template <class G>
static void gm_msm_host_idx_call(int device, typename G::host_jac *out, const uint8_t *d_src,
                                 const uint32_t *idx, const cuzk_fr_t *scalars, size_t m,
                                 cuzk_gpu_timing *timing,
                                 void (*combine)(typename G::host_jac *, const uint64_t *,
                                                 const gm_plan *))
{
    static_assert(G::AFF_BYTES % 8 == 0, "points are gathered in 8-byte words");
    gm_lane_call(device, [&](cuzk_gpu_device &dev) {
        gm_cache &cc = gm_cache_of(dev);
        cc.bases.reserve(m * G::AFF_BYTES);
        cc.scalars.reserve(m * sizeof(cuzk_fr_t));
        cc.sel.reserve(m * sizeof(uint32_t));
        cuzk_gpu_timer tm(dev);
        cuzk_gpu_call_pins pins(dev.stream);
        pins.pin(scalars, m * sizeof(cuzk_fr_t));
        pins.pin(idx, m * sizeof(uint32_t));
        tm.mark(0);
        CUZK_CUDA(cudaMemcpyAsync(cc.sel.p, idx, m * sizeof(uint32_t), cudaMemcpyHostToDevice,
                                  dev.stream));
        CUZK_CUDA(cudaMemcpyAsync(cc.scalars.p, scalars, m * sizeof(cuzk_fr_t),
                                  cudaMemcpyHostToDevice, dev.stream));
        const unsigned words = (unsigned)(G::AFF_BYTES / 8), tpb = 256;
        k_gm_gather_points<<<(unsigned)gm_div_up(m * words, tpb), tpb, 0, dev.stream>>>(
            cc.bases.as<uint64_t>(), reinterpret_cast<const uint64_t *>(d_src),
            cc.sel.as<uint32_t>(), m, words);
        CUZK_CUDA_LAUNCHED();
        tm.mark(1); /* h2d: the index and scalar uploads and the gather over PCIe */
        gm_msm_run<G>(dev, tm, out, cc.bases.as<uint8_t>(), cc.scalars.as<uint64_t>(), m, timing,
                      combine);
    });
}

/* The body of cuzk_gpu_msm_gX_host_idx. */
template <class G>
static cuzk_status
gm_host_idx_entry(const char *what, int device, typename G::host_jac *out, const void *bases,
                  size_t n, const uint32_t *idx, const cuzk_fr_t *scalars, size_t m,
                  cuzk_gpu_timing *timing, void (*set_inf)(typename G::host_jac *),
                  void (*combine)(typename G::host_jac *, const uint64_t *, const gm_plan *))
{
    if (!out || (n && !bases) || (m && (!idx || !scalars)) || m >= GM_MAX_N)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "%s: NULL argument or %zu pairs", what, m);
    for (size_t j = 0; j < m; j++)
        if (idx[j] >= n)
            return cuzk_fail(CUZK_ERR_INVALID_ARG, "%s: entry %zu names base %u of %zu", what, j,
                             idx[j], n);
    typename G::host_jac r;
    bool mapped = true;
    cuzk_status s = cuzk_gpu_guard_(what, [&] {
        cuzk_gpu_device &dev = cuzk_gpu_device_get_(device);
        const uint8_t *d_src = NULL;
        if (m) {
            cuzk_gpu_device_enter_(dev);
            d_src = gm_gather_src(bases, false, 0);
            mapped = d_src != NULL;
        }
        if (m == 0) {
            set_inf(&r);
            if (timing)
                memset(timing, 0, sizeof *timing);
        } else if (mapped) {
            gm_msm_host_idx_call<G>(device, &r, d_src, idx, scalars, m, timing, combine);
        }
    });
    if (s == CUZK_OK && !mapped)
        return CUZK_ERR_UNSUPPORTED;
    if (s == CUZK_OK)
        *out = r;
    return s;
}

/* An MSM over host bases. */
template <class G>
static void gm_msm_host_call(int device, typename G::host_jac *out, const void *h_bases,
                             const cuzk_fr_t *scalars, size_t n, cuzk_gpu_timing *timing,
                             void (*combine)(typename G::host_jac *, const uint64_t *,
                                             const gm_plan *),
                             void (*add)(typename G::host_jac *, const typename G::host_jac *,
                                         const typename G::host_jac *))
{
    gm_host_call<G>(
        device, n, GM_ST_SCALARS,
        [&](cuzk_gpu_device &dev, gm_cache &cc, size_t m) {
            gm_msm_stream<G>(dev, cc, out, h_bases, scalars, NULL, n, m, timing, combine, add);
        },
        [&](cuzk_gpu_device &dev) {
            gm_msm_call_on<G>(dev, out, h_bases, NULL, scalars, n, timing, combine);
        });
}

/* A batch addition over host bases. */
template <class G>
static void gm_badd_host_call(int device, typename G::host_jac *out, const void *h_bases,
                              const uint64_t *bitmap, size_t n, cuzk_gpu_timing *timing,
                              void (*to_jac)(typename G::host_jac *, const typename G::host_xyzz *),
                              void (*add)(typename G::host_jac *, const typename G::host_jac *,
                                          const typename G::host_jac *))
{
    gm_host_call<G>(
        device, n, GM_ST_BITMAP,
        [&](cuzk_gpu_device &dev, gm_cache &cc, size_t m) {
            gm_badd_stream<G>(dev, cc, out, h_bases, bitmap, n, m, timing, to_jac, add);
        },
        [&](cuzk_gpu_device &dev) {
            gm_badd_call_on<G>(dev, out, h_bases, NULL, bitmap, n, timing, to_jac);
        });
}

#endif

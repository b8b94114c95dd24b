/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The H step's host side (cuzk_gpu_h_dev_, gpu_internal.cuh): a, b (and c) registered and
 * uploaded in page-aligned pieces, each vector just before the transforms reach it, so that the
 * copies and the pinning run under the device work; and h's download in the same pieces.
 */
#include "gpu/gpu_internal.cuh"
#include "gpu/gpu_msm.h"

#include <stdlib.h>
#include <time.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <utility>
#include <thread>
#include <vector>

static double host_ms()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

struct h_pinner;

/* The uploads of cuzk_gpu_h_dev_, enqueued vector by vector as the transforms reach them. */
struct h_uploads {
    cuzk_gpu_device &dev;
    cuzk_gpu_timer &tm;
    cuzk_gpu_call_pins &pins;
    fr_dev *x[3];
    const cuzk_fr_t *src[3];
    size_t rows, n;
    double pin_ms;  /* host time the uploads waited for their pieces */
    h_pinner *pz;   /* the pieces of a, b (and c) in upload order */
    size_t piece;   /* the next upload's piece */
    bool pinned[3]; /* already page-locked: no pieces in pz */
    bool staged[3]; /* on the device already (cuzk_gpu_h_stage_) */
};

/* Pins and copies in pieces of about this size, so the copy of one piece runs while the next is
 * being pinned (pinning 4 GiB of pageable memory takes longer than copying it). */
#define H_UP_CHUNK ((size_t)256 << 20)

/* End (offset from |base|) of the piece that starts at |off| of |total| bytes: on a page
 * boundary, so that no two registrations share a page (a second one would be refused), and
 * the same for the upload and the download, since a copy must not span two registrations. */
static size_t h_piece_end(const char *base, size_t off, size_t total)
{
    if (total - off <= H_UP_CHUNK)
        return total;
    uintptr_t e = ((uintptr_t)(base + off + H_UP_CHUNK) + 4095) & ~(uintptr_t)4095;
    size_t end = (size_t)(e - (uintptr_t)base);
    return end < total ? end : total;
}

/*
 * Registers the upload pieces of the H step's host vectors on a thread of its own, in upload
 * order and ahead of the uploads (which wait for their piece), so that the host thread goes on
 * enqueueing transforms. Env CUZK_GPU_PIN_THREADS (1 .. 16, default 1): more threads made it
 * slower on the H200 (the driver serialises registrations, and 4 threads spent 1.2-1.4 s of
 * thread time on the 8 GiB that one thread pins in 0.27-0.31 s; run R5 in docs/PERFORMANCE.md).
 * Pieces the driver refuses (already registered, not pinnable) go up as they are. Joined by its
 * destructor; the registrations are |pins|'s.
 */
struct h_pinner {
    struct piece {
        const char *p;
        size_t len;
    };
    std::vector<piece> pieces;
    std::vector<char> done;
    std::mutex mu;
    std::condition_variable cv;
    size_t next = 0;
    std::vector<std::thread> th;
    cuzk_gpu_call_pins &pins;
    double pin_ms = 0; /* summed over the threads */

    explicit h_pinner(cuzk_gpu_call_pins &pc) : pins(pc)
    {
    }
    void add(const void *src, size_t bytes)
    {
        const char *b = static_cast<const char *>(src);
        for (size_t off = 0, end; off < bytes; off = end) {
            end = h_piece_end(b, off, bytes);
            pieces.push_back({b + off, end - off});
        }
    }
    void start(int device)
    {
        done.assign(pieces.size(), 0);
        const char *e = getenv("CUZK_GPU_PIN_THREADS");
        long t = e && *e ? strtol(e, nullptr, 10) : 1;
        t = t < 1 ? 1 : t > 16 ? 16 : t;
        for (long k = 0; k < t; k++)
            th.emplace_back([this, device] { run(device); });
    }
    void run(int device)
    {
        (void)cudaSetDevice(device);
        for (;;) {
            size_t k;
            {
                std::lock_guard<std::mutex> lk(mu);
                if (next >= pieces.size())
                    return;
                k = next++;
            }
            const double t0 = host_ms();
            bool ok = cudaHostRegister(const_cast<char *>(pieces[k].p), pieces[k].len,
                                       cudaHostRegisterDefault) == cudaSuccess;
            if (!ok)
                (void)cudaGetLastError();
            {
                std::lock_guard<std::mutex> lk(mu);
                if (ok)
                    pins.p.push_back(const_cast<char *>(pieces[k].p));
                done[k] = 1;
                pin_ms += host_ms() - t0;
            }
            cv.notify_all();
        }
    }
    /* Blocks until piece |k| has been tried. */
    void wait(size_t k)
    {
        std::unique_lock<std::mutex> lk(mu);
        cv.wait(lk, [&] { return done[k] != 0; });
    }
    ~h_pinner()
    {
        for (auto &t : th)
            t.join();
    }
};

static void h_upload(void *ctx, int i)
{
    h_uploads &u = *static_cast<h_uploads *>(ctx);
    const size_t rbytes = u.rows * sizeof(fr_dev), bytes = u.n * sizeof(fr_dev);
    /* c = a * b (no host c): a goes up into c's vector and is copied to a's on the device, b
     * multiplies it in once it is up, before either is transformed; nothing travels for c. */
    const bool ab = !u.src[2];
    if (ab && i == 2)
        return;
    const char *src = reinterpret_cast<const char *>(u.src[i]);
    char *dst = reinterpret_cast<char *>(u.x[ab && i == 0 ? 2 : i]);
    for (size_t off = 0, end; !u.staged[i] && off < rbytes; off = end) {
        end = h_piece_end(src, off, rbytes);
        size_t len = end - off;
        if (!u.pinned[i]) {
            const double t0 = host_ms();
            u.pz->wait(u.piece++);
            u.pin_ms += host_ms() - t0;
        }
        CUZK_CUDA(cudaMemcpyAsync(dst + off, src + off, len, cudaMemcpyHostToDevice, u.dev.copy));
    }
    if (!u.staged[i] && rbytes < bytes)
        CUZK_CUDA(cudaMemsetAsync(dst + rbytes, 0, bytes - rbytes, u.dev.copy));
    CUZK_CUDA(cudaEventRecord(u.dev.up[i], u.dev.copy));
    CUZK_CUDA(cudaStreamWaitEvent(u.dev.stream, u.dev.up[i], 0));
    if (ab && i == 0)
        CUZK_CUDA(cudaMemcpyAsync(u.x[0], u.x[2], bytes, cudaMemcpyDeviceToDevice, u.dev.stream));
    if (ab && i == 1)
        cuzk_gpu_fr_mul_into_(u.dev, u.x[2], u.x[1], u.n);
    if (i == 0)
        u.tm.mark(1);
}

/* Uploads rows entries of a, b, c into the device's vectors (the rest of each domain-sized
 * vector zeroed on the device, so callers need not pad), and runs the H step; h is left in
 * dev.vec[0]. The uploads go on the copy stream, vector i just before the host enqueues its
 * transforms, so b and c are pinned and copied while a (then b) is transformed. Events: tm 0
 * before the uploads, 1 when the kernels may start (a is up: the exposed part), 2 after the
 * kernels. The arrays are registered in |pins| (which unpins them, after the copies, when it
 * goes). */
static void buf_swap(cuzk_gpu_buf &x, cuzk_gpu_buf &y)
{
    std::swap(x.p, y.p);
    std::swap(x.bytes, y.bytes);
    std::swap(x.device, y.device);
}

/* Room the staged vectors leave the device besides themselves: the side lane's margin
 * (msm_stream.cuh), so that staging never squeezes the running call's MSM. */
#define H_STAGE_MIN_FREE ((size_t)8 << 30)

static bool stage_off()
{
    const char *e = getenv("CUZK_GPU_H_STAGE");
    return e && *e == '0';
}

static bool stage_matches(const cuzk_gpu_device &dev, const void *a, const void *b, size_t rows,
                          size_t n)
{
    return dev.stage_src[0] == a && dev.stage_src[1] == b && dev.stage_rows == rows &&
           dev.stage_n == n;
}

/* Enqueues the copies of a and b (rows entries, pinned) into dev.stage, zero up to n, on the
 * staging stream; the caller holds dev.stage_mu. False, with the buffers freed, when the device
 * lacks room for them and H_STAGE_MIN_FREE besides. */
static bool stage_enqueue(cuzk_gpu_device &dev, const cuzk_fr_t *a, const cuzk_fr_t *b, size_t rows,
                          size_t n)
{
    const size_t bytes = n * sizeof(fr_dev), rbytes = rows * sizeof(fr_dev);
    size_t need = 0, fr = 0, tot = 0;
    for (auto &v : dev.stage)
        need += v.bytes < bytes ? bytes : 0;
    if (need && (cudaMemGetInfo(&fr, &tot) != cudaSuccess || fr < need + H_STAGE_MIN_FREE)) {
        (void)cudaGetLastError();
        return false;
    }
    const cuzk_fr_t *src[2] = {a, b};
    try {
        if (!dev.stage_st)
            CUZK_CUDA(cudaStreamCreateWithFlags(&dev.stage_st, cudaStreamNonBlocking));
        for (int k = 0; k < 2; k++) {
            dev.stage[k].reserve(bytes);
            char *dst = dev.stage[k].as<char>();
            CUZK_CUDA(cudaMemcpyAsync(dst, src[k], rbytes, cudaMemcpyHostToDevice, dev.stage_st));
            if (rbytes < bytes)
                CUZK_CUDA(cudaMemsetAsync(dst + rbytes, 0, bytes - rbytes, dev.stage_st));
        }
    } catch (const cuzk_gpu_error &err) {
        if (err.status != CUZK_ERR_NOMEM)
            throw;
        if (dev.stage_st)
            (void)cudaStreamSynchronize(dev.stage_st);
        (void)cudaGetLastError();
        for (auto &v : dev.stage)
            v.release();
        return false;
    }
    dev.stage_src[0] = a;
    dev.stage_src[1] = b;
    dev.stage_rows = rows;
    dev.stage_n = n;
    return true;
}

/* Forgets the staged vectors once no copy into them is in flight; caller holds dev.stage_mu. */
static void stage_forget(cuzk_gpu_device &dev)
{
    if (dev.stage_st)
        (void)cudaStreamSynchronize(dev.stage_st);
    dev.stage_src[0] = dev.stage_src[1] = nullptr;
    dev.stage_held = false;
}

bool cuzk_gpu_h_stage_(cuzk_gpu_device &dev, std::unique_lock<std::mutex> &sl, const cuzk_domain *d,
                       const cuzk_fr_t *a, const cuzk_fr_t *b, const cuzk_fr_t *c, size_t rows,
                       bool upload)
{
    if (stage_off() || c || !a || !b || !d || cuzk_domain_size(d) < rows)
        return false;
    /* try_lock: the holder may be a call that staged its own vectors and now waits for dev.mu,
     * which this caller may hold. */
    std::unique_lock<std::mutex> l(dev.stage_mu, std::try_to_lock);
    if (!l.owns_lock())
        return false;
    const size_t n = cuzk_domain_size(d);
    cuzk_gpu_device_enter_(dev);
    if (dev.stage_held) { /* a prefetch: ours to take, or another partition's to leave */
        if (!stage_matches(dev, a, b, rows, n))
            return false;
        CUZK_CUDA(cudaStreamSynchronize(dev.stage_st));
        sl = std::move(l);
        return true;
    }
    if (!upload || !cuzk_gpu_host_pinned_(a) || !cuzk_gpu_host_pinned_(b) ||
        !stage_enqueue(dev, a, b, rows, n))
        return false;
    try {
        CUZK_CUDA(cudaStreamSynchronize(dev.stage_st));
    } catch (...) {
        dev.stage_src[0] = dev.stage_src[1] = nullptr;
        throw;
    }
    sl = std::move(l);
    return true;
}

void cuzk_gpu_h_stage_trim_(cuzk_gpu_device &dev)
{
    std::unique_lock<std::mutex> l(dev.stage_mu, std::try_to_lock);
    if (!l.owns_lock())
        return;
    if (dev.stage_held)
        stage_forget(dev); /* a prefetch: its call uploads from the host instead */
    for (auto &v : dev.stage)
        v.release();
}


extern "C" cuzk_status cuzk_gpu_h_prefetch(int device, size_t n, const cuzk_fr_t *a,
                                           const cuzk_fr_t *b, size_t rows)
{
    if (!a || !b || n < 2 || (n & (n - 1)) || rows > n)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "gpu h prefetch: NULL vector, or a domain of %zu for %zu rows", n, rows);
    if (stage_off() || !cuzk_gpu_host_pinned_(a) || !cuzk_gpu_host_pinned_(b))
        return CUZK_ERR_UNSUPPORTED;
    bool done = false;
    cuzk_status s = cuzk_gpu_guard_("gpu h prefetch", [&] {
        cuzk_gpu_device &dev = cuzk_gpu_device_get_(device);
        std::unique_lock<std::mutex> l(dev.stage_mu, std::try_to_lock);
        if (!l.owns_lock() || dev.stage_held) {
            done = l.owns_lock() && stage_matches(dev, a, b, rows, n);
            return;
        }
        cuzk_gpu_device_enter_(dev);
        done = stage_enqueue(dev, a, b, rows, n);
        dev.stage_held = done;
        if (done)
            cuzk_gpu_event_(dev, CUZK__GPU_EV_H_PREFETCHED);
    });
    return s != CUZK_OK ? s : done ? CUZK_OK : CUZK_ERR_UNSUPPORTED;
}

extern "C" void cuzk_gpu_h_prefetch_drop(int device, const cuzk_fr_t *a)
{
    (void)cuzk_gpu_guard_("gpu h prefetch drop", [&] {
        for (int id = 0; id < CUZK_GPU_MAX_DEVICES; id++) {
            cuzk_gpu_device *dev = cuzk_gpu_device_if_ready_(id);
            if (!dev || (device >= 0 && id != device))
                continue;
            /* Held by a call that is taking its own staged vectors: not |a|'s (one set is
             * staged at a time), so there is nothing of |a|'s to forget. */
            std::unique_lock<std::mutex> l(dev->stage_mu, std::try_to_lock);
            if (l.owns_lock() && dev->stage_held && dev->stage_src[0] == a) {
                cuzk_gpu_device_enter_(*dev);
                stage_forget(*dev);
                cuzk_gpu_event_(*dev, CUZK__GPU_EV_H_PREFETCH_DROPPED);
            }
        }
    });
}

fr_dev *cuzk_gpu_h_dev_(cuzk_gpu_device &dev, cuzk_gpu_timer &tm, cuzk_gpu_call_pins &pins,
                        const cuzk_domain *d, const cuzk_fr_t *a, const cuzk_fr_t *b,
                        const cuzk_fr_t *c, size_t rows, std::unique_lock<std::mutex> *staged)
{
    cuzk_gpu_check_domain_(d);
    size_t n = cuzk_domain_size(d), bytes = n * sizeof(fr_dev);
    if (rows > n)
        cuzk_gpu_throw_(CUZK_ERR_INVALID_ARG, "%zu rows exceed the domain of %zu", rows, n);
    /* Staged a and b become c's and b's vectors (a goes up into c's, see h_upload); taken once:
     * a run again after a trim uploads them from the host. The buffers swapped out held the
     * previous call's vectors, which it no longer reads (it ended before this call got dev.mu),
     * so the next call may stage into them now, under this call's kernels. */
    const bool pre = staged && staged->owns_lock() && !c && dev.stage_src[0] == a &&
                     dev.stage_src[1] == b && dev.stage_rows == rows && dev.stage_n == n;
    if (pre) {
        buf_swap(dev.vec[2], dev.stage[0]);
        buf_swap(dev.vec[1], dev.stage[1]);
        cuzk_gpu_event_(dev, CUZK__GPU_EV_H_STAGED);
    }
    if (staged && staged->owns_lock()) {
        dev.stage_src[0] = dev.stage_src[1] = nullptr;
        dev.stage_held = false;
        staged->unlock();
    }
    for (auto &v : dev.vec)
        v.reserve(bytes);
    cuzk_gpu_ntt_tables_(dev, d);
    h_pinner pz(pins);
    h_uploads u = {dev,
                   tm,
                   pins,
                   {dev.vec[0].as<fr_dev>(), dev.vec[1].as<fr_dev>(), dev.vec[2].as<fr_dev>()},
                   {a, b, c},
                   rows,
                   n,
                   0.0,
                   &pz,
                   0,
                   {false, false, false},
                   {pre, pre, false}};
    for (int i = 0; i < 3; i++) {
        /* a pinned pool's buffer (include/cuzk/hostpool.h) is neither registered nor waited for */
        u.pinned[i] = u.src[i] && (u.staged[i] || cuzk_gpu_host_pinned_(u.src[i]));
        if (u.src[i] && !u.pinned[i])
            pz.add(u.src[i], rows * sizeof(fr_dev));
    }
    tm.mark(0);
    CUZK_CUDA(cudaStreamWaitEvent(dev.copy, dev.ev[0], 0)); /* the vectors are free */
    const double h0 = host_ms();
    pz.start(dev.id);
    cuzk_gpu_h_run_(dev, d, u.x[0], u.x[1], u.x[2], h_upload, &u);
    tm.mark(2);
    if (getenv("CUZK_GPU_H_TRACE"))
        fprintf(stderr,
                "gpu h: host enqueue %.1f ms, of which waiting for pinned pieces %.1f ms "
                "(pinning %.1f ms of thread time)\n",
                host_ms() - h0, u.pin_ms, pz.pin_ms);
    return u.x[0];
}

void cuzk_gpu_h_download_(cuzk_gpu_device &dev, cuzk_fr_t *a, const fr_dev *h, size_t n)
{
    char *dst = reinterpret_cast<char *>(a);
    for (size_t off = 0, end, total = n * sizeof(fr_dev); off < total; off = end) {
        end = h_piece_end(dst, off, total); /* a's pieces, as pinned for the upload */
        CUZK_CUDA(cudaMemcpyAsync(dst + off, reinterpret_cast<const char *>(h) + off, end - off,
                                  cudaMemcpyDeviceToHost, dev.stream));
    }
}

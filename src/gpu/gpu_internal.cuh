/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GPU_GPU_INTERNAL_CUH
#define CUZK_GPU_GPU_INTERNAL_CUH

/*
 * C++ internals shared by the .cu files of src/gpu: the error type that every CUDA failure becomes
 * (thrown inside src/gpu, caught at the extern "C" edge by cuzk_gpu_guard_), the per-device state
 * (stream, events, cached buffers and root tables) and the event timer.
 *
 * Nothing here crosses the C boundary: entry points wrap their bodies in cuzk_gpu_guard_, which
 * turns a cuzk_gpu_error or any other C++ exception into a cuzk_status + cuzk_fail message.
 */

#include "gpu/fr.cuh"
#include "gpu/gpu.h"
#include "gpu/gpu_msm.h"

#include <cuda_runtime.h>
#include <stdlib.h>

#include <atomic>
#include <exception>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

struct cuzk_gpu_error {
    cuzk_status status;
    char msg[448];
};

/* Throws the cuzk_gpu_error for a failed CUDA call: out-of-memory -> CUZK_ERR_NOMEM ("device out
 * of memory"), no device / no driver -> CUZK_ERR_NO_DEVICE, anything else -> CUZK_ERR_DEVICE. */
[[noreturn]] void cuzk_gpu_throw_cuda_(cudaError_t e, const char *what, const char *file, int line);
/* Throws a cuzk_gpu_error with |st| and a printf-style message. */
[[noreturn]] void cuzk_gpu_throw_(cuzk_status st, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#define CUZK_CUDA(call)                                                                            \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess)                                                                     \
            cuzk_gpu_throw_cuda_(e_, #call, __FILE__, __LINE__);                                   \
    } while (0)
/* After a kernel launch: launch errors (bad configuration, no kernel image for the device). */
#define CUZK_CUDA_LAUNCHED() CUZK_CUDA(cudaGetLastError())

/* Runs |fn| and converts any exception into a status with the message set (cuzk_fail). */
template <class Fn> cuzk_status cuzk_gpu_guard_(const char *what, Fn &&fn)
{
    try {
        fn();
        return CUZK_OK;
    } catch (const cuzk_gpu_error &e) {
        return cuzk_fail(e.status, "%s: %s", what, e.msg);
    } catch (const std::bad_alloc &) {
        return cuzk_fail(CUZK_ERR_NOMEM, "%s: host out of memory", what);
    } catch (const std::exception &e) {
        return cuzk_fail(CUZK_ERR_INTERNAL, "%s: %s", what, e.what());
    } catch (...) {
        return cuzk_fail(CUZK_ERR_INTERNAL, "%s: unknown C++ exception", what);
    }
}

/* Device-memory buffer that frees itself. */
struct cuzk_gpu_buf {
    void *p = nullptr;
    size_t bytes = 0;
    int device = -1; /* where p lives (release makes it current first) */
    /* Set: allocated and freed in the order of this stream (cudaMallocAsync), which does not wait
     * for the device's other streams as cudaMalloc and cudaFree do: the side lane's buffers,
     * which change size between calls while the main lane runs an H MSM. */
    cudaStream_t ordered = nullptr;
    bool from_pool = false; /* p came from cudaMallocAsync */
    /* Makes the buffer at least |want| bytes (contents lost when it grows). */
    void reserve(size_t want);
    void release();
    ~cuzk_gpu_buf()
    {
        release();
    }
    template <class T> T *as() const
    {
        return static_cast<T *>(p);
    }
};

/* Root and scaling tables of one domain (one family, one size), on one device. */
struct cuzk_gpu_domain_tables {
    int roots = -1; /* cuzk_roots, -1: empty */
    unsigned log_n = 0;
    cuzk_gpu_buf half;   /* omega^i, i < n/2 */
    cuzk_gpu_buf scales; /* lo/hi power tables, see ntt.cu */
    cuzk_gpu_buf shoup;  /* the pass twiddles of NTT variant 6, see ntt.cu */
};

#define CUZK_GPU_EVENTS 8
#define CUZK_GPU_MAX_DEVICES 16 /* ordinals a process drives */

struct cuzk_gpu_device {
    std::mutex mu; /* one caller at a time per lane */
    int id = -1;
    /* 0: the device's main lane, which every call takes; 1: its side lane (cuzk_gpu_side_lane_),
     * which a call over host bases takes while the main lane is busy, with streams, events and
     * an MSM cache of its own (vec, tabs and ballast stay unused there). */
    int lane = 0;
    bool ready = false;
    cudaStream_t stream = nullptr;
    cudaEvent_t ev[CUZK_GPU_EVENTS] = {};
    /* Uploads that overlap kernels on |stream| (the H step): a second stream and an event per
     * vector, which |stream| waits for. */
    cudaStream_t copy = nullptr;
    cudaEvent_t up[3] = {};
    cuzk_gpu_buf vec[3];            /* a, b, c of host-array calls */
    /* Main lane: a fused H call's a and b, uploaded while another call held |mu|
     * (cuzk_gpu_h_stage_), swapped into vec[2] and vec[1] when the call gets the lane. */
    std::mutex stage_mu;
    cuzk_gpu_buf stage[2];
    cudaStream_t stage_st = nullptr;
    const void *stage_src[2] = {};
    size_t stage_rows = 0, stage_n = 0;
    /* The staged vectors are a prefetch's (cuzk_gpu_h_prefetch): they wait, under stage_mu but
     * without it held, for the call whose a and b they are, or for cuzk_gpu_h_prefetch_drop. */
    bool stage_held = false;
    cuzk_gpu_domain_tables tabs[2]; /* per root family: the last domain used */
    int smem_configured = 0;        /* ntt.cu: dynamic shared memory limits raised */
    void *ballast = nullptr;        /* env CUZK_GPU_MEM_LIMIT: memory held back (shim.cu) */
    /* Main lane: its call holds all the device memory it will use until it ends and leaves the
     * rest to the side lane (a streamed MSM after its reservations, msm_stream.cuh), so a side
     * call may start beside it on less free memory than otherwise (gm_side_admits). */
    std::atomic<bool> settled{false};
};

/* The state of |device| (-1: default), created on first use (stream, events). Throws
 * CUZK_ERR_NO_DEVICE for an ordinal without a device. The caller locks ->mu. */
cuzk_gpu_device &cuzk_gpu_device_get_(int device);
/* The main lane of device |id| if a call has set it up, else NULL (nothing is created). */
cuzk_gpu_device *cuzk_gpu_device_if_ready_(int id);
/* The side lane of |device| (created on first use): MSMs and batch additions that find the main
 * lane busy run there beside its work: over host bases (bound by their transfers) the PCIe link
 * and the multipliers are then busy at once; over resident bases they fill the main lane's
 * gaps (a partition's L/A/B sums beside its H step). NULL when env
 * CUZK_GPU_LANES=1 turns the side lane off. The caller locks ->mu. */
cuzk_gpu_device *cuzk_gpu_side_lane_(int device);
/* Counts one event |ev| on |dev|'s ordinal (either lane: cuzk__gpu_event_count). */
void cuzk_gpu_event_(const cuzk_gpu_device &dev, cuzk__gpu_event ev);
/* Makes |dev| current on this thread (cudaSetDevice). */
void cuzk_gpu_device_enter_(cuzk_gpu_device &dev);
/* Frees what calls over host arrays keep cached on |dev| between calls (the H step's vectors, the
 * MSM's buffers), so that another phase can have the memory: the lane's own, and on the main
 * lane the side lane's MSM buffers too when no call holds them. The caller holds dev.mu. */
void cuzk_gpu_trim_(cuzk_gpu_device &dev);
/* On the main lane: waits for the side lane's call in progress, if any, to end and frees the
 * side lane's MSM buffers; false (nothing waited for nor freed) on the side lane, or where the
 * device has no side lane. The caller holds dev.mu and no side-lane mutex. */
bool cuzk_gpu_drain_side_(cuzk_gpu_device &dev);

/*
 * Runs |fn| (a call over host arrays only, so it can start again) and, when the device is out of
 * memory, once more after cuzk_gpu_trim_. On a device that holds only part of a partition's
 * working set (a 16-24 GB card at a 2^27 domain) the H step and the MSMs then take turns with
 * the memory instead of the later one falling back to the CPU. On the main lane, out of memory
 * again, a third time once the side lane's call has ended and its buffers are freed
 * (cuzk_gpu_drain_side_): a side call admitted beside the previous partition's H MSM may still
 * hold them when the next partition's H step starts. The caller holds dev.mu.
 */
template <class Fn> void cuzk_gpu_retry_trimmed_(cuzk_gpu_device &dev, Fn &&fn)
{
    auto quiesce = [&] {
        (void)cudaStreamSynchronize(dev.stream);
        (void)cudaStreamSynchronize(dev.copy);
        (void)cudaGetLastError();
    };
    for (int attempt = 0;; attempt++) {
        try {
            fn();
            return;
        } catch (const cuzk_gpu_error &e) {
            if (e.status != CUZK_ERR_NOMEM || attempt == 2)
                throw;
            quiesce();
            if (attempt == 1 && !cuzk_gpu_drain_side_(dev))
                throw;
            cuzk_gpu_trim_(dev);
        }
    }
}

/* Env |name| = N[K|M|G] bytes; |dflt| when unset, empty or not a number >= 0. */
static inline size_t cuzk_gpu_env_bytes_(const char *name, size_t dflt)
{
    const char *e = getenv(name);
    if (!e || !*e)
        return dflt;
    char *end = nullptr;
    double v = strtod(e, &end);
    if (end == e || v < 0)
        return dflt;
    double mul = *end == 'G' || *end == 'g'   ? 1073741824.0
                 : *end == 'M' || *end == 'm' ? 1048576.0
                 : *end == 'K' || *end == 'k' ? 1024.0
                                              : 1.0;
    return (size_t)(v * mul);
}

/* Event timing of one call: mark(i) records event i on the stream; ms(i, j) after a sync. */
struct cuzk_gpu_timer {
    cuzk_gpu_device &dev;
    explicit cuzk_gpu_timer(cuzk_gpu_device &d) : dev(d)
    {
    }
    void mark(int i)
    {
        CUZK_CUDA(cudaEventRecord(dev.ev[i], dev.stream));
    }
    double ms(int i, int j) const
    {
        float f = 0;
        CUZK_CUDA(cudaEventElapsedTime(&f, dev.ev[i], dev.ev[j]));
        return f;
    }
};

/* Emits the CUZK_TIMING line of a call (gpu.h) with the phase breakdown in extra members. */
void cuzk_gpu_report_(const char *phase, const cuzk_gpu_timing &t, unsigned log_n);

/* ---- NTT (ntt.cu), on device data; the caller holds dev.mu and has entered the device ------- */

/* Prepares (or reuses) the tables of |d| on |dev|. */
cuzk_gpu_domain_tables &cuzk_gpu_ntt_tables_(cuzk_gpu_device &dev, const cuzk_domain *d);
/* One transform in place on device vector |x| (cuzk_domain_size(d) elements). */
void cuzk_gpu_ntt_run_(cuzk_gpu_device &dev, const cuzk_domain *d, fr_dev *x, cuzk_gpu_ntt_op op);
/* The H step on device vectors: a receives the result, b and c are clobbered. |before|, when
 * given, is called with |ctx| and i on the host before the kernels of vector i are enqueued
 * (there the caller enqueues that vector's upload and makes dev.stream wait for it). */
/* c[i] = c[i] * b[i] for i < n, on dev.stream. */
void cuzk_gpu_fr_mul_into_(cuzk_gpu_device &dev, fr_dev *c, const fr_dev *b, size_t n);
void cuzk_gpu_h_run_(cuzk_gpu_device &dev, const cuzk_domain *d, fr_dev *a, fr_dev *b, fr_dev *c,
                     void (*before)(void *, int) = nullptr, void *ctx = nullptr);

/* ---- host arrays in device calls (shim.cu, h_upload.cu) -------------------------------------- */

/* The device address of pinned host memory |p| (allocated or registered with CUDA) that kernels
 * may read: non-NULL where it is mapped (cudaHostAlloc's memory is), NULL where it is not
 * mapped; |pinned| tells whether |p| is pinned at all. */
static inline const void *cuzk_gpu_host_mapped_(const void *p, bool *pinned = nullptr)
{
    cudaPointerAttributes at;
    bool pin = cudaPointerGetAttributes(&at, p) == cudaSuccess && at.type == cudaMemoryTypeHost;
    if (!pin)
        (void)cudaGetLastError();
    if (pinned)
        *pinned = pin;
    return pin ? at.devicePointer : nullptr;
}

/* Whether host memory at |p| is pinned (allocated or registered with CUDA). */
static inline bool cuzk_gpu_host_pinned_(const void *p)
{
    bool pinned = false;
    (void)cuzk_gpu_host_mapped_(p, &pinned);
    return pinned;
}

/* Pins caller arrays for the length of one call. Pageable copies run at ~7 GB/s against ~55 GB/s
 * pinned, and pinning pages that are already written costs ~0.045 s/GiB (docs/PERFORMANCE.md,
 * host memory), so for the 4 GiB vectors of a PoRep partition a temporary registration wins.
 * Arrays that are already pinned (or that cannot be) are copied as they are. */
struct cuzk_gpu_call_pins {
    cudaStream_t stream, stream2;
    std::vector<void *> p;
    std::thread releaser;
    explicit cuzk_gpu_call_pins(cudaStream_t s, cudaStream_t s2 = nullptr) : stream(s), stream2(s2)
    {
    }
    /* Unregisters on a thread of its own once |copies| (the only stream that reads the pages) is
     * done, while the device still runs the H step's transforms: unregistering 8 GiB takes ~0.1 s
     * of host time. join_release() (or the destructor) waits for it; the caller joins before it
     * starts the H MSM, which slowed by 0.1-0.2 s when unregistering ran beside it (its host-side
     * synchronisations waited on the driver). */
    void release_async(int device, cudaStream_t copies)
    {
        if (p.empty())
            return;
        std::vector<void *> q;
        q.swap(p);
        try {
            releaser = std::thread([device, copies, q] {
                (void)cudaSetDevice(device);
                (void)cudaStreamSynchronize(copies);
                for (void *x : q)
                    (void)cudaHostUnregister(x);
                (void)cudaGetLastError();
            });
        } catch (...) {
            p.swap(q); /* no thread: the destructor unregisters them */
        }
    }
    /* Whether [ptr, ptr + bytes) is now pinned by this object (small ranges are not worth it). */
    bool pin(const void *ptr, size_t bytes, size_t min_bytes = (size_t)256 << 20)
    {
        if (bytes < min_bytes || cuzk_gpu_host_pinned_(ptr))
            return false;
        if (cudaHostRegister(const_cast<void *>(ptr), bytes, cudaHostRegisterDefault) !=
            cudaSuccess) {
            (void)cudaGetLastError(); /* already registered, or not pinnable: copy as is */
            return false;
        }
        p.push_back(const_cast<void *>(ptr));
        return true;
    }
    void join_release()
    {
        if (releaser.joinable())
            releaser.join();
    }
    ~cuzk_gpu_call_pins()
    {
        join_release();
        if (p.empty())
            return;
        (void)cudaStreamSynchronize(stream); /* no copy may still read the pages */
        if (stream2)
            (void)cudaStreamSynchronize(stream2);
        for (void *q : p)
            (void)cudaHostUnregister(q);
        (void)cudaGetLastError();
    }
};

/* The H step on host arrays of |rows| <= domain entries (h_upload.cu): uploads them (padding on the
 * device), runs the transforms; returns dev.vec[0], which holds h when the stream gets there.
 * |c| NULL: c = a * b pointwise, computed on the device (a satisfied system), so only a and b
 * travel.
 * Timer events 0 (before the uploads), 1 (kernels start) and 2 (kernels enqueued) are marked. */
fr_dev *cuzk_gpu_h_dev_(cuzk_gpu_device &dev, cuzk_gpu_timer &tm, cuzk_gpu_call_pins &pins,
                        const cuzk_domain *d, const cuzk_fr_t *a, const cuzk_fr_t *b,
                        const cuzk_fr_t *c, size_t rows,
                        std::unique_lock<std::mutex> *staged = nullptr);
/* The H step's a and b (c NULL) in dev.stage for a fused call: returns true with |sl| holding
 * dev.stage_mu, which the caller passes to its cuzk_gpu_h_dev_ (|staged|): that swaps the staged
 * vectors in and unlocks it at once, so the next call can stage while this one's H step runs.
 * Either a prefetch of these a and b is there (cuzk_gpu_h_prefetch; its copies are waited for),
 * or, with |upload| (a call that found dev.mu held), they go up now (pinned host arrays) on a
 * stream of their own. False, with nothing staged, when env CUZK_GPU_H_STAGE=0, c is given, a or
 * b is pageable, another call's or a prefetch's vectors are staged, or the device lacks room for
 * the buffers and 8 GiB besides. The next partition's upload then runs under this one's H MSM
 * instead of before its own H step. */
bool cuzk_gpu_h_stage_(cuzk_gpu_device &dev, std::unique_lock<std::mutex> &sl, const cuzk_domain *d,
                       const cuzk_fr_t *a, const cuzk_fr_t *b, const cuzk_fr_t *c, size_t rows,
                       bool upload);
/* Frees dev.stage unless a call is taking its vectors (a prefetch waiting in them is forgotten,
 * its call then uploads from the host): cuzk_gpu_trim_'s part. */
void cuzk_gpu_h_stage_trim_(cuzk_gpu_device &dev);
/* h (n elements on the device) into the host array a, in the pieces cuzk_gpu_h_dev_ pinned a in
 * (a copy must not span two registrations), on dev.stream (src/gpu/h_upload.cu). */
void cuzk_gpu_h_download_(cuzk_gpu_device &dev, cuzk_fr_t *a, const fr_dev *h, size_t n);
/* Throws CUZK_ERR_INVALID_ARG for a NULL domain or one above CUZK_GPU_NTT_MAX_LOG (shim.cu). */
void cuzk_gpu_check_domain_(const cuzk_domain *d);

/* ---- field micro-kernels (field.cu) ---------------------------------------------------------- */
void cuzk_gpu_field_op_run_(cuzk_gpu_device &dev, int field, int op, int variant, void *out,
                            const void *a, const void *b, size_t n);
double cuzk_gpu_field_bench_run_(cuzk_gpu_device &dev, int field, int variant);
/* The pipe co-issue probe (field.cu): kernel ms; *threads_iters = threads x iterations. */
double cuzk_gpu_pipe_bench_run_(cuzk_gpu_device &dev, int kind, int d, double *threads_iters);

#endif

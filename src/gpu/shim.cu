/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The extern "C" edge of the CUDA backend (STYLE.md section 6): device queries, the NTT / H entry
 * points with their host <-> device transfers and timing, resident vectors and the field
 * micro-kernels. Every entry point runs its body inside cuzk_gpu_guard_, so each CUDA error and
 * C++ exception becomes a cuzk_status with a message (cuzk_last_error) and nothing throws across.
 */
#include "gpu/gpu_internal.cuh"
#include "gpu/gpu_msm.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <mutex>

/* ---- errors -------------------------------------------------------------------------------- */

void cuzk_gpu_throw_cuda_(cudaError_t e, const char *what, const char *file, int line)
{
    cuzk_gpu_error err;
    (void)cudaGetLastError(); /* clear a non-sticky error so later calls start clean */
    if (e == cudaErrorMemoryAllocation)
        err.status = CUZK_ERR_NOMEM;
    else if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ||
             e == cudaErrorInvalidDevice)
        err.status = CUZK_ERR_NO_DEVICE;
    else
        err.status = CUZK_ERR_DEVICE;
    const char *base = strrchr(file, '/');
    snprintf(err.msg, sizeof err.msg, "%s%s (%s, %s at %s:%d)",
             e == cudaErrorMemoryAllocation ? "device out of memory: " : "", cudaGetErrorString(e),
             cudaGetErrorName(e), what, base ? base + 1 : file, line);
    throw err;
}

void cuzk_gpu_throw_(cuzk_status st, const char *fmt, ...)
{
    cuzk_gpu_error err;
    err.status = st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err.msg, sizeof err.msg, fmt, ap);
    va_end(ap);
    throw err;
}

/* ---- buffers and devices ------------------------------------------------------------------- */

void cuzk_gpu_buf::reserve(size_t want)
{
    int cur = -1;
    CUZK_CUDA(cudaGetDevice(&cur));
    if (p && bytes >= want && device == cur)
        return;
    release();
    CUZK_CUDA(cudaSetDevice(cur));
    void *q = nullptr;
    cudaStream_t st = ordered;
    cudaError_t e = st ? cudaMallocAsync(&q, want, st) : cudaMalloc(&q, want);
    /* Valid on every stream (the lane's copy stream too) once its own stream has reached it;
     * that stream is idle when a call reserves, so this waits for nothing else. */
    if (e == cudaSuccess && st && (e = cudaStreamSynchronize(st)) != cudaSuccess)
        (void)cudaFreeAsync(q, st);
    if (e != cudaSuccess) {
        char what[96];
        snprintf(what, sizeof what, "%s of %zu MiB", st ? "cudaMallocAsync" : "cudaMalloc",
                 want >> 20);
        cuzk_gpu_throw_cuda_(e, what, __FILE__, __LINE__);
    }
    p = q;
    bytes = want;
    device = cur;
    from_pool = st != nullptr;
}

void cuzk_gpu_buf::release()
{
    if (!p)
        return;
    int cur = -1;
    if (cudaGetDevice(&cur) == cudaSuccess && cur != device)
        (void)cudaSetDevice(device);
    if (from_pool && ordered) {
        /* Back to the device at once (the pool keeps nothing: release threshold 0, trimmed),
         * where the main lane's cudaMalloc may need it. */
        cudaMemPool_t pool;
        (void)cudaFreeAsync(p, ordered);
        (void)cudaStreamSynchronize(ordered);
        if (cudaDeviceGetDefaultMemPool(&pool, device) == cudaSuccess)
            (void)cudaMemPoolTrimTo(pool, 0);
    } else {
        (void)cudaFree(p);
    }
    (void)cudaGetLastError();
    if (cur >= 0 && cur != device)
        (void)cudaSetDevice(cur);
    p = nullptr;
    bytes = 0;
}

static cuzk_gpu_device g_devices[CUZK_GPU_MAX_DEVICES];
static cuzk_gpu_device g_side[CUZK_GPU_MAX_DEVICES]; /* side lanes (cuzk_gpu_side_lane_) */
static std::mutex g_devices_mu;

/* Every CUDA call of the library starts here, so this runs before the runtime initialises.
 * Kernels are loaded eagerly unless the user chose otherwise: with CUDA's default lazy loading
 * the first launch of each kernel loads its module and waits for the whole device, which
 * serialised the first H step's uploads behind its kernels (a 2^27 partition's ntt_h took 712.7
 * ms instead of ~560; docs/PERFORMANCE.md "H step: uploads under the transforms"). */
static void set_eager_loading()
{
    (void)setenv("CUDA_MODULE_LOADING", "EAGER", 0);
}
/* At program start, while the process has one thread: setenv() racing with another thread's
 * getenv() (the engine reads CUZK_* variables on its workers) is undefined behaviour. */
__attribute__((constructor)) static void load_modules_eagerly_at_start()
{
    set_eager_loading();
}
/* For a library loaded after start-up (dlopen), where constructors run then: still before any
 * CUDA call of this library, and setenv does nothing once the variable exists. */
static void load_modules_eagerly()
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, set_eager_loading);
}

static int device_count_raw()
{
    int n = 0;
    load_modules_eagerly();
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return n < CUZK_GPU_MAX_DEVICES ? n : CUZK_GPU_MAX_DEVICES;
}

/* Env CUZK_GPU_MEM_LIMIT = N[K|M|G]: each device, when first used, sets aside all but N bytes
 * of its memory for the life of the process, so that a large device behaves like a smaller one
 * (tests and benchmarks of the streamed MSMs and of the CPU fallback; docs/OPERATIONS.md). */
static size_t mem_limit_env()
{
    return cuzk_gpu_env_bytes_("CUZK_GPU_MEM_LIMIT", 0);
}

static void hold_ballast(cuzk_gpu_device &dev)
{
    size_t limit = mem_limit_env(), fr = 0, tot = 0;
    if (!limit || cudaMemGetInfo(&fr, &tot) != cudaSuccess || fr <= limit) {
        (void)cudaGetLastError();
        return;
    }
    if (cudaMalloc(&dev.ballast, fr - limit) != cudaSuccess) {
        (void)cudaGetLastError();
        dev.ballast = nullptr;
        fprintf(stderr, "cuzk: CUZK_GPU_MEM_LIMIT: could not set aside %zu MiB on device %d\n",
                (fr - limit) >> 20, dev.id);
        return;
    }
    fprintf(stderr, "cuzk: CUZK_GPU_MEM_LIMIT: device %d limited to %zu MiB of its %zu MiB free\n",
            dev.id, limit >> 20, fr >> 20);
}

static int resolve_device(int device)
{
    return device == -1 ? cuzk_gpu_default_device() : device;
}

/* Streams and events of |dev|, a lane of device |id|; the caller holds g_devices_mu. */
static void lane_init(cuzk_gpu_device &dev, int id, int lane)
{
    CUZK_CUDA(cudaSetDevice(id));
    /* The side lane's kernels first when blocks of both lanes wait for an SM: they are short
     * (batch additions, tails) and their transfers, which bound them, wait on them; the main
     * lane's long MSM takes the SMs back between them. Env CUZK_GPU_SIDE_EQUAL=1 gives both
     * lanes the same priority (A/B runs). */
    int least = 0, greatest = 0;
    CUZK_CUDA(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    const char *eq = getenv("CUZK_GPU_SIDE_EQUAL");
    bool equal = eq && *eq && strcmp(eq, "0") != 0;
    CUZK_CUDA(cudaStreamCreateWithPriority(&dev.stream, cudaStreamNonBlocking,
                                           lane && !equal ? greatest : least));
    for (int i = 0; i < CUZK_GPU_EVENTS; i++)
        CUZK_CUDA(cudaEventCreate(&dev.ev[i]));
    CUZK_CUDA(cudaStreamCreateWithFlags(&dev.copy, cudaStreamNonBlocking));
    for (int i = 0; i < 3; i++)
        CUZK_CUDA(cudaEventCreateWithFlags(&dev.up[i], cudaEventDisableTiming));
    dev.id = id;
    dev.lane = lane;
    dev.ready = true;
}

cuzk_gpu_device &cuzk_gpu_device_get_(int device)
{
    int id = resolve_device(device);
    int n = device_count_raw();
    if (n == 0)
        cuzk_gpu_throw_(CUZK_ERR_NO_DEVICE, "no CUDA device (or no driver) on this machine");
    if (id < 0 || id >= n)
        cuzk_gpu_throw_(CUZK_ERR_NO_DEVICE, "CUDA device %d does not exist (%d device%s)", id, n,
                        n == 1 ? "" : "s");
    cuzk_gpu_device &dev = g_devices[id];
    std::lock_guard<std::mutex> lock(g_devices_mu);
    if (!dev.ready) {
        lane_init(dev, id, 0);
        hold_ballast(dev);
    }
    return dev;
}

cuzk_gpu_device *cuzk_gpu_device_if_ready_(int id)
{
    if (id < 0 || id >= CUZK_GPU_MAX_DEVICES)
        return nullptr;
    std::lock_guard<std::mutex> lock(g_devices_mu);
    return g_devices[id].ready ? &g_devices[id] : nullptr;
}

extern "C" bool cuzk_gpu_side_lane_on(void)
{
    const char *e = getenv("CUZK_GPU_LANES");
    return !(e && strcmp(e, "1") == 0);
}

/* Zero-initialised (static storage); relaxed: counters, read by metrics and tests only. */
static std::atomic<size_t> g_events[CUZK_GPU_MAX_DEVICES][CUZK__GPU_EV_COUNT];

void cuzk_gpu_event_(const cuzk_gpu_device &dev, cuzk__gpu_event ev)
{
    if (dev.id >= 0 && dev.id < CUZK_GPU_MAX_DEVICES && (unsigned)ev < CUZK__GPU_EV_COUNT)
        g_events[dev.id][ev].fetch_add(1, std::memory_order_relaxed);
}

extern "C" size_t cuzk__gpu_event_count(cuzk__gpu_event ev, int device)
{
    if ((unsigned)ev >= CUZK__GPU_EV_COUNT || device < -1 || device >= CUZK_GPU_MAX_DEVICES)
        return 0;
    const int lo = device < 0 ? 0 : device, hi = device < 0 ? CUZK_GPU_MAX_DEVICES : device + 1;
    size_t sum = 0;
    for (int d = lo; d < hi; d++)
        sum += g_events[d][ev].load(std::memory_order_relaxed);
    return sum;
}

cuzk_gpu_device *cuzk_gpu_side_lane_(int device)
{
    if (!cuzk_gpu_side_lane_on())
        return nullptr;
    cuzk_gpu_device &main = cuzk_gpu_device_get_(device);
    cuzk_gpu_device &side = g_side[main.id];
    std::lock_guard<std::mutex> lock(g_devices_mu);
    if (!side.ready)
        lane_init(side, main.id, 1);
    return &side;
}

/* The lane of the call this thread is in, for its timing lines (a timeline of both lanes). */
static thread_local int t_lane = 0;

void cuzk_gpu_device_enter_(cuzk_gpu_device &dev)
{
    t_lane = dev.lane;
    CUZK_CUDA(cudaSetDevice(dev.id));
}

void cuzk_gpu_trim_(cuzk_gpu_device &dev)
{
    for (auto &v : dev.vec)
        v.release();
    /* Staging buffers only while no call's vectors wait in them. */
    if (dev.lane == 0)
        cuzk_gpu_h_stage_trim_(dev);
    cuzk__gpu_msm_release(dev.id, dev.lane);
    /* The side lane's buffers only between its calls: one in progress is using them. */
    cuzk_gpu_device &side = g_side[dev.id];
    if (dev.lane == 0 && side.ready) {
        std::unique_lock<std::mutex> l(side.mu, std::try_to_lock);
        if (l.owns_lock())
            cuzk__gpu_msm_release(dev.id, 1);
    }
}

bool cuzk_gpu_drain_side_(cuzk_gpu_device &dev)
{
    if (dev.lane != 0 || dev.id < 0 || dev.id >= CUZK_GPU_MAX_DEVICES || !g_side[dev.id].ready)
        return false;
    std::lock_guard<std::mutex> l(g_side[dev.id].mu); /* the side call in progress ends */
    cuzk__gpu_msm_release(dev.id, 1);
    return true;
}

/* ---- timing lines -------------------------------------------------------------------------- */

static bool timing_on()
{
    const char *e = getenv("CUZK_TIMING");
    return e && strcmp(e, "1") == 0;
}

extern "C" void cuzk_gpu_timing_line(const char *phase, double ms, int device,
                                     const char *extra_json)
{
    if (!timing_on())
        return;
    char line[512];
    int len = snprintf(line, sizeof line, "{\"phase\":\"%s\",\"ms\":%.3f,\"device\":%d%s}\n", phase,
                       ms, device, extra_json ? extra_json : "");
    if (len <= 0)
        return;
    if ((size_t)len >= sizeof line) {
        len = sizeof line - 1;
        line[len - 1] = '\n';
    }
    /* One write(2): the line is never split by buffering nor interleaved with other writers. */
    ssize_t w;
    do {
        w = write(2, line, (size_t)len);
    } while (w < 0 && errno == EINTR);
}

void cuzk_gpu_report_(const char *phase, const cuzk_gpu_timing &t, unsigned log_n)
{
    if (!timing_on()) /* every device call reports: nothing to format when no one reads it */
        return;
    /* end_s (CLOCK_MONOTONIC) and lane place the call on a timeline: it began total_ms before. */
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    char extra[256];
    snprintf(extra, sizeof extra,
             ",\"backend\":\"cuda\",\"log_n\":%u,\"h2d_ms\":%.3f,\"compute_ms\":%.3f,"
             "\"d2h_ms\":%.3f,\"lane\":%d,\"end_s\":%.6f",
             log_n, t.h2d_ms, t.compute_ms, t.d2h_ms, t_lane,
             (double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
    cuzk_gpu_timing_line(phase, t.total_ms, t.device, extra);
}

/* ---- devices (extern "C") ------------------------------------------------------------------ */

extern "C" bool cuzk_gpu_compiled(void)
{
    return true;
}

extern "C" int cuzk_gpu_device_count(void)
{
    return device_count_raw();
}

extern "C" bool cuzk_gpu_available(void)
{
    return device_count_raw() > 0;
}

extern "C" int cuzk_gpu_default_device(void)
{
    const char *e = getenv("CUZK_GPU");
    if (!e || !*e)
        return 0;
    char *end = nullptr;
    long v = strtol(e, &end, 10);
    return (end && *end == 0 && v >= 0 && v < CUZK_GPU_MAX_DEVICES) ? (int)v : 0;
}

extern "C" cuzk_status cuzk_gpu_get_device_info(int device, cuzk_gpu_device_info *out)
{
    if (!out)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu device info: NULL output");
    memset(out, 0, sizeof *out);
    return cuzk_gpu_guard_("gpu device info", [&] {
        cuzk_gpu_device &dev = cuzk_gpu_device_get_(device);
        cudaDeviceProp prop;
        CUZK_CUDA(cudaGetDeviceProperties(&prop, dev.id));
        snprintf(out->name, sizeof out->name, "%s", prop.name);
        out->total_mem = prop.totalGlobalMem;
        out->sm_count = prop.multiProcessorCount;
        out->cc_major = prop.major;
        out->cc_minor = prop.minor;
        out->l2_bytes = (size_t)prop.l2CacheSize;
        size_t fr = 0, tot = 0;
        CUZK_CUDA(cudaSetDevice(dev.id));
        CUZK_CUDA(cudaMemGetInfo(&fr, &tot));
        out->free_mem = fr;
    });
}

extern "C" void cuzk_gpu_release(int device)
{
    int n = device_count_raw();
    for (int i = 0; i < n; i++) {
        if (device != -2 && i != resolve_device(device))
            continue;
        cuzk_gpu_device &dev = g_devices[i], &side = g_side[i];
        std::lock_guard<std::mutex> lock(dev.mu);
        if (!dev.ready)
            continue;
        {
            std::lock_guard<std::mutex> l(side.mu); /* waits for a side call in progress */
            cuzk__gpu_msm_release(i, 1);
        }
        cuzk_gpu_trim_(dev);
        for (auto &t : dev.tabs) {
            t.half.release();
            t.scales.release();
            t.roots = -1;
        }
    }
}

/* ---- pinned host memory -------------------------------------------------------------------- */

extern "C" cuzk_status cuzk_gpu_host_alloc(void **out, size_t bytes)
{
    if (!out)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu host alloc: NULL output");
    *out = nullptr;
    return cuzk_gpu_guard_("gpu host alloc", [&] {
        (void)cuzk_gpu_device_get_(-1); /* a clear "no device" first */
        void *p = nullptr;
        cudaError_t e = cudaHostAlloc(&p, bytes ? bytes : 1, cudaHostAllocPortable);
        if (e != cudaSuccess) {
            (void)cudaGetLastError();
            cuzk_gpu_throw_(CUZK_ERR_NOMEM, "cannot pin %zu MiB of host memory: %s", bytes >> 20,
                            cudaGetErrorString(e));
        }
        *out = p;
    });
}

extern "C" void cuzk_gpu_host_free(void *p)
{
    if (p)
        (void)cudaFreeHost(p);
}

/* Host memory of |bytes| by |method| (gpu.h), its setup and free costs, and the copy rates to and
 * from one device buffer of at most 2 GiB (the host buffer is copied through it in turn). */
extern "C" cuzk_status cuzk__gpu_pin_bench(int device, size_t bytes, int method,
                                           cuzk_gpu_pin_result *out)
{
    if (!out || bytes == 0 || method < 0 || method > 2)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu pin bench: bad arguments");
    memset(out, 0, sizeof *out);
    return cuzk_gpu_guard_("gpu pin bench", [&] {
        cuzk_gpu_device &dev = cuzk_gpu_device_get_(device);
        std::lock_guard<std::mutex> lock(dev.mu);
        cuzk_gpu_device_enter_(dev);
        auto wall = [] {
            struct timespec ts;
            clock_gettime(CLOCK_MONOTONIC, &ts);
            return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
        };
        char *h = nullptr;
        double t0 = wall();
        if (method == 0) {
            cudaError_t e = cudaHostAlloc((void **)&h, bytes, cudaHostAllocPortable);
            if (e != cudaSuccess) {
                (void)cudaGetLastError();
                cuzk_gpu_throw_(CUZK_ERR_NOMEM, "cudaHostAlloc of %zu MiB: %s", bytes >> 20,
                                cudaGetErrorString(e));
            }
        } else {
            h = (char *)malloc(bytes);
            if (!h)
                cuzk_gpu_throw_(CUZK_ERR_NOMEM, "malloc of %zu MiB failed", bytes >> 20);
        }
        out->alloc_ms = wall() - t0;
        t0 = wall();
        memset(h, 0x5a, bytes); /* first touch (pageable, registered) or a write (host alloc) */
        out->touch_ms = wall() - t0;
        if (method == 1) {
            t0 = wall();
            cudaError_t e = cudaHostRegister(h, bytes, cudaHostRegisterPortable);
            out->pin_ms = wall() - t0;
            if (e != cudaSuccess) {
                (void)cudaGetLastError();
                free(h);
                cuzk_gpu_throw_(CUZK_ERR_NOMEM, "cudaHostRegister of %zu MiB: %s", bytes >> 20,
                                cudaGetErrorString(e));
            }
        }
        size_t chunk = bytes < ((size_t)2 << 30) ? bytes : ((size_t)2 << 30);
        void *d = nullptr;
        cudaError_t e = cudaMalloc(&d, chunk);
        if (e == cudaSuccess) {
            cuzk_gpu_timer tm(dev);
            for (int dir = 0; dir < 2; dir++) {
                tm.mark(0);
                for (size_t off = 0; off < bytes && e == cudaSuccess; off += chunk) {
                    size_t len = bytes - off < chunk ? bytes - off : chunk;
                    e = dir == 0
                            ? cudaMemcpyAsync(d, h + off, len, cudaMemcpyHostToDevice, dev.stream)
                            : cudaMemcpyAsync(h + off, d, len, cudaMemcpyDeviceToHost, dev.stream);
                }
                tm.mark(1);
                if (e == cudaSuccess)
                    e = cudaStreamSynchronize(dev.stream);
                if (e == cudaSuccess)
                    (dir == 0 ? out->h2d_gbs : out->d2h_gbs) = (double)bytes / tm.ms(0, 1) / 1e6;
            }
            (void)cudaFree(d);
        }
        t0 = wall();
        if (method == 0) {
            (void)cudaFreeHost(h);
        } else {
            if (method == 1)
                (void)cudaHostUnregister(h);
            free(h);
        }
        out->free_ms = wall() - t0;
        if (e != cudaSuccess) {
            (void)cudaGetLastError();
            cuzk_gpu_throw_cuda_(e, "pin bench copy", __FILE__, __LINE__);
        }
    });
}

/* ---- NTT and H on host arrays -------------------------------------------------------------- */

void cuzk_gpu_check_domain_(const cuzk_domain *d)
{
    if (!d)
        cuzk_gpu_throw_(CUZK_ERR_INVALID_ARG, "NULL domain");
    unsigned l = cuzk_domain_log_size(d);
    if (l > CUZK_GPU_NTT_MAX_LOG)
        cuzk_gpu_throw_(CUZK_ERR_INVALID_ARG,
                        "a domain of 2^%u is above the device NTT maximum 2^%u", l,
                        CUZK_GPU_NTT_MAX_LOG);
}

static void finish_timing(cuzk_gpu_timer &tm, cuzk_gpu_timing *out, const char *phase,
                          unsigned log_n, int device)
{
    CUZK_CUDA(cudaEventSynchronize(tm.dev.ev[3]));
    cuzk_gpu_timing t;
    t.device = device;
    t.h2d_ms = tm.ms(0, 1);
    t.compute_ms = tm.ms(1, 2);
    t.d2h_ms = tm.ms(2, 3);
    t.total_ms = tm.ms(0, 3);
    if (out)
        *out = t;
    cuzk_gpu_report_(phase, t, log_n);
}

extern "C" cuzk_status cuzk_gpu_ntt(int device, const cuzk_domain *d, cuzk_fr_t *a,
                                    cuzk_gpu_ntt_op op, cuzk_gpu_timing *timing)
{
    if (!a || (unsigned)op > CUZK_GPU_COSET_INTT)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu ntt: NULL vector or unknown operation %d",
                         (int)op);
    return cuzk_gpu_guard_("gpu ntt", [&] {
        cuzk_gpu_check_domain_(d);
        cuzk_gpu_device &dev = cuzk_gpu_device_get_(device);
        std::lock_guard<std::mutex> lock(dev.mu);
        cuzk_gpu_device_enter_(dev);
        size_t n = cuzk_domain_size(d), bytes = n * sizeof(fr_dev);
        dev.vec[0].reserve(bytes);
        fr_dev *x = dev.vec[0].as<fr_dev>();
        cuzk_gpu_ntt_tables_(dev, d);
        cuzk_gpu_timer tm(dev);
        tm.mark(0);
        CUZK_CUDA(cudaMemcpyAsync(x, a, bytes, cudaMemcpyHostToDevice, dev.stream));
        tm.mark(1);
        cuzk_gpu_ntt_run_(dev, d, x, op);
        tm.mark(2);
        CUZK_CUDA(cudaMemcpyAsync(a, x, bytes, cudaMemcpyDeviceToHost, dev.stream));
        tm.mark(3);
        finish_timing(tm, timing, "ntt", cuzk_domain_log_size(d), dev.id);
    });
}

extern "C" cuzk_status cuzk_gpu_h(int device, const cuzk_domain *d, cuzk_fr_t *a, cuzk_fr_t *b,
                                  cuzk_fr_t *c, cuzk_gpu_timing *timing)
{
    if (!a || !b) /* c NULL: c = a * b, formed on the device */
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu h: NULL vector");
    return cuzk_gpu_guard_("gpu h", [&] {
        cuzk_gpu_check_domain_(d);
        cuzk_gpu_device &dev = cuzk_gpu_device_get_(device);
        std::lock_guard<std::mutex> lock(dev.mu);
        cuzk_gpu_device_enter_(dev);
        size_t n = cuzk_domain_size(d);
        cuzk_gpu_timer tm(dev);
        cuzk_gpu_call_pins pins(dev.stream, dev.copy); /* also speeds up h's download into a */
        /* a is written only by the download at the end, after every allocation */
        cuzk_gpu_retry_trimmed_(dev, [&] {
            fr_dev *h = cuzk_gpu_h_dev_(dev, tm, pins, d, a, b, c, n);
            cuzk_gpu_h_download_(dev, a, h, n);
        });
        tm.mark(3);
        finish_timing(tm, timing, "ntt_h", cuzk_domain_log_size(d), dev.id);
    });
}

/* ---- resident vectors ---------------------------------------------------------------------- */

struct cuzk_gpu_frvec {
    int device;
    size_t n;
    cuzk_gpu_buf buf;
};

extern "C" cuzk_status cuzk_gpu_frvec_alloc(cuzk_gpu_frvec **out, int device, size_t n)
{
    if (!out)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu frvec: NULL output");
    *out = nullptr;
    if (n == 0 || n > ((size_t)1 << 40))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu frvec: bad length %zu", n);
    return cuzk_gpu_guard_("gpu frvec alloc", [&] {
        cuzk_gpu_device &dev = cuzk_gpu_device_get_(device);
        std::lock_guard<std::mutex> lock(dev.mu);
        cuzk_gpu_device_enter_(dev);
        cuzk_gpu_frvec *v = new cuzk_gpu_frvec();
        v->device = dev.id;
        v->n = n;
        try {
            v->buf.reserve(n * sizeof(fr_dev));
        } catch (...) {
            delete v;
            throw;
        }
        *out = v;
    });
}

extern "C" void cuzk_gpu_frvec_free(cuzk_gpu_frvec *v)
{
    delete v; /* the buffer frees itself on its device */
}

static void check_range(const cuzk_gpu_frvec *v, size_t off, size_t n)
{
    if (off > v->n || n > v->n - off)
        cuzk_gpu_throw_(CUZK_ERR_INVALID_ARG, "elements [%zu, %zu) outside a vector of %zu", off,
                        off + n, v->n);
}

extern "C" cuzk_status cuzk_gpu_frvec_upload(cuzk_gpu_frvec *v, size_t off, const cuzk_fr_t *src,
                                             size_t n)
{
    if (!v || (!src && n))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu frvec upload: NULL argument");
    return cuzk_gpu_guard_("gpu frvec upload", [&] {
        check_range(v, off, n);
        cuzk_gpu_device &dev = cuzk_gpu_device_get_(v->device);
        std::lock_guard<std::mutex> lock(dev.mu);
        cuzk_gpu_device_enter_(dev);
        CUZK_CUDA(cudaMemcpyAsync(v->buf.as<fr_dev>() + off, src, n * sizeof(fr_dev),
                                  cudaMemcpyHostToDevice, dev.stream));
        CUZK_CUDA(cudaStreamSynchronize(dev.stream));
    });
}

extern "C" cuzk_status cuzk_gpu_frvec_download(const cuzk_gpu_frvec *v, size_t off, cuzk_fr_t *dst,
                                               size_t n)
{
    if (!v || (!dst && n))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu frvec download: NULL argument");
    return cuzk_gpu_guard_("gpu frvec download", [&] {
        check_range(v, off, n);
        cuzk_gpu_device &dev = cuzk_gpu_device_get_(v->device);
        std::lock_guard<std::mutex> lock(dev.mu);
        cuzk_gpu_device_enter_(dev);
        CUZK_CUDA(cudaMemcpyAsync(dst, v->buf.as<fr_dev>() + off, n * sizeof(fr_dev),
                                  cudaMemcpyDeviceToHost, dev.stream));
        CUZK_CUDA(cudaStreamSynchronize(dev.stream));
    });
}

/* Runs |body| between events 1 and 2 of a resident call and reports it (no transfers). */
template <class Fn>
static void resident_call(cuzk_gpu_device &dev, cuzk_gpu_timing *timing, const char *phase,
                          unsigned log_n, Fn &&body)
{
    cuzk_gpu_timer tm(dev);
    tm.mark(0);
    tm.mark(1);
    body();
    tm.mark(2);
    tm.mark(3);
    finish_timing(tm, timing, phase, log_n, dev.id);
}

extern "C" cuzk_status cuzk_gpu_frvec_ntt(cuzk_gpu_frvec *v, const cuzk_domain *d,
                                          cuzk_gpu_ntt_op op, cuzk_gpu_timing *timing)
{
    if (!v || (unsigned)op > CUZK_GPU_COSET_INTT)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu frvec ntt: NULL vector or unknown operation");
    return cuzk_gpu_guard_("gpu frvec ntt", [&] {
        cuzk_gpu_check_domain_(d);
        check_range(v, 0, cuzk_domain_size(d));
        cuzk_gpu_device &dev = cuzk_gpu_device_get_(v->device);
        std::lock_guard<std::mutex> lock(dev.mu);
        cuzk_gpu_device_enter_(dev);
        cuzk_gpu_ntt_tables_(dev, d);
        resident_call(dev, timing, "ntt", cuzk_domain_log_size(d),
                      [&] { cuzk_gpu_ntt_run_(dev, d, v->buf.as<fr_dev>(), op); });
    });
}

extern "C" cuzk_status cuzk_gpu_frvec_h(cuzk_gpu_frvec *a, cuzk_gpu_frvec *b, cuzk_gpu_frvec *c,
                                        const cuzk_domain *d, cuzk_gpu_timing *timing)
{
    if (!a || !b || !c)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu frvec h: NULL vector");
    return cuzk_gpu_guard_("gpu frvec h", [&] {
        cuzk_gpu_check_domain_(d);
        size_t n = cuzk_domain_size(d);
        check_range(a, 0, n);
        check_range(b, 0, n);
        check_range(c, 0, n);
        if (a->device != b->device || a->device != c->device)
            cuzk_gpu_throw_(CUZK_ERR_INVALID_ARG, "vectors on different devices");
        cuzk_gpu_device &dev = cuzk_gpu_device_get_(a->device);
        std::lock_guard<std::mutex> lock(dev.mu);
        cuzk_gpu_device_enter_(dev);
        cuzk_gpu_ntt_tables_(dev, d);
        resident_call(dev, timing, "ntt_h", cuzk_domain_log_size(d), [&] {
            cuzk_gpu_h_run_(dev, d, a->buf.as<fr_dev>(), b->buf.as<fr_dev>(), c->buf.as<fr_dev>());
        });
    });
}

/* ---- field micro-kernels ------------------------------------------------------------------- */

extern "C" cuzk_status cuzk__gpu_field_op(int device, int field, int op, int variant, void *out,
                                          const void *a, const void *b, size_t n)
{
    if (!out || !a || !b || op < 0 || !cuzk__gpu_field_variant_ok(field, op, variant))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu field op: bad argument");
    return cuzk_gpu_guard_("gpu field op", [&] {
        cuzk_gpu_device &dev = cuzk_gpu_device_get_(device);
        std::lock_guard<std::mutex> lock(dev.mu);
        cuzk_gpu_device_enter_(dev);
        cuzk_gpu_field_op_run_(dev, field, op, variant, out, a, b, n);
    });
}

extern "C" cuzk_status cuzk__gpu_field_bench(int device, int field, int variant, double *gmul_per_s)
{
    if (!gmul_per_s || !cuzk__gpu_field_variant_ok(field, -1, variant))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu field bench: bad argument");
    return cuzk_gpu_guard_("gpu field bench", [&] {
        cuzk_gpu_device &dev = cuzk_gpu_device_get_(device);
        std::lock_guard<std::mutex> lock(dev.mu);
        cuzk_gpu_device_enter_(dev);
        *gmul_per_s = cuzk_gpu_field_bench_run_(dev, field, variant);
    });
}

extern "C" cuzk_status cuzk__gpu_pipe_bench(int device, int kind, int fmas, double *ms,
                                            double *threads_iters)
{
    if (!ms || !threads_iters)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "gpu pipe bench: NULL argument");
    return cuzk_gpu_guard_("gpu pipe bench", [&] {
        cuzk_gpu_device &dev = cuzk_gpu_device_get_(device);
        std::lock_guard<std::mutex> lock(dev.mu);
        cuzk_gpu_device_enter_(dev);
        *ms = cuzk_gpu_pipe_bench_run_(dev, kind, fmas, threads_iters);
    });
}

/* ---- MSM stand-ins until src/gpu/msm*.cu exists (the Makefile sets CUZK_GPU_HAVE_MSM) -------- */
#if !defined(CUZK_GPU_HAVE_MSM)
#define CUZK_GPU_MSM_MISSING_(name, ...)                                                           \
    extern "C" cuzk_status name(__VA_ARGS__)                                                       \
    {                                                                                              \
        return cuzk_fail(CUZK_ERR_UNSUPPORTED, #name ": the device MSM is not built in yet");      \
    }
CUZK_GPU_MSM_MISSING_(cuzk_gpu_msm_g1, int, cuzk_g1_jac_t *, const cuzk_g1_affine_t *,
                      const cuzk_fr_t *, size_t, cuzk_gpu_timing *)
CUZK_GPU_MSM_MISSING_(cuzk_gpu_msm_g2, int, cuzk_g2_jac_t *, const cuzk_g2_affine_t *,
                      const cuzk_fr_t *, size_t, cuzk_gpu_timing *)
CUZK_GPU_MSM_MISSING_(cuzk_gpu_batch_add_g1, int, cuzk_g1_jac_t *, const cuzk_g1_affine_t *,
                      const uint64_t *, size_t, cuzk_gpu_timing *)
CUZK_GPU_MSM_MISSING_(cuzk_gpu_batch_add_g2, int, cuzk_g2_jac_t *, const cuzk_g2_affine_t *,
                      const uint64_t *, size_t, cuzk_gpu_timing *)
#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GPU_MSM_DEV_CUH
#define CUZK_GPU_MSM_DEV_CUH

/*
 * Device side of the MSM entry points (src/gpu/msm_g1.cu, msm_g2.cu, batch_add.cu): the
 * executor that runs src/gpu/msm_run.cuh on a device (kernels, CUB radix sort, one cached
 * workspace per device carved by a bump allocator), the resident-bases object, and the generic
 * call bodies with transfers and CUDA-event timing. Callers wrap these in cuzk_gpu_guard_.
 */

/*
 * Field arithmetic of the MSM compilation units (msm_g1.cu, msm_g2.cu, batch_add.cu), set before
 * any field header; each is a -D knob for variant builds (`make msm-variant`). Measured on the H200
 * (docs/PERFORMANCE.md "GPU MSM": "Rolled multiplication, lazy reduction, occupancy" and
 * "Even/odd multiplication"): G1 2^24 resident 295.6 ms (unrolled variant 3) -> 176.9 (rolled)
 * -> 113.9 ms (even/odd, 3 rows per iteration); G2 2^20 90.2 -> 48.7 -> 33.7 ms (4 rows). The
 * unrolled G1 accumulation kernel was 21,640 instructions, too large for the instruction cache.
 *   - the even/odd multiplication (variant 7: ptxas fuses each product's halves into one
 *     IMAD.WIDE) with its row loop rolled by 3 rows (msm_g2.cu: 4);
 *   - Fp values kept in [0, 2p) (no final subtraction in multiplications);
 *   - no prefetch of the next base in the G1 accumulation (its registers buy a third block per
 *     SM);
 *   - the even/odd squaring (mont.cuh sqr_eo) and Y3 = A B - C D with one reduction (point.cuh
 *     CUZK_GPU_PT_FUSED; runs D2b, D3): G1 2^24 114.0 -> 105.7 ms, G1 batch addition 2^24
 *     5.26 -> 4.84 ms, G2 batch addition unchanged. msm_g2.cu turns the fused form off (G2 2^20
 *     33.8 -> 34.1 ms with it); the squaring changes no G2 code (Fp2 squares are Fp products).
 */
#ifndef CUZK_GPU_MONT_MUL
#define CUZK_GPU_MONT_MUL 7
#endif
#ifndef CUZK_GPU_MONT_ROLL
#define CUZK_GPU_MONT_ROLL 3
#endif
#ifndef CUZK_GPU_FP_LAZY
#define CUZK_GPU_FP_LAZY 1
#endif
#ifndef GM_PREFETCH
#define GM_PREFETCH 0
#endif
#ifndef CUZK_GPU_MONT_SQR
#define CUZK_GPU_MONT_SQR 2
#endif
#ifndef CUZK_GPU_PT_FUSED
#define CUZK_GPU_PT_FUSED 1
#endif

#include "gpu/gpu_msm.h"

#include "gpu/gpu_internal.cuh"
#include "gpu/msm_groups.cuh"
#include "gpu/msm_run.cuh"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <utility>
#include <vector>

/* Threads per block of every MSM kernel (registers: up to ~230 per thread for G2). */
#define GM_TPB 128
/* Scalars are indexed with 31 bits (the top bit of a sorted value is the sign). */
#define GM_MAX_N ((size_t)1 << 31)

/* Blocks per SM the compiler must allow (caps registers at 65536 / (GM_TPB * n)); a variant
 * knob for the MSM's compilation unit. */
#ifndef GM_MIN_BLOCKS
#define GM_MIN_BLOCKS 1
#endif

template <class Body>
__global__ void __launch_bounds__(GM_TPB, GM_MIN_BLOCKS)
    k_gm_body(const typename Body::Args a, size_t count)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < count)
        Body::run(a, t, blockIdx.y);
}

/* Per-lane cached memory of the MSM: working space, uploaded bases, uploaded scalars or
 * bitmap. Guarded by the lane's mutex; freed by cuzk__gpu_msm_release (cuzk_gpu_release). */
struct gm_cache {
    cuzk_gpu_buf ws, bases, scalars, sel;
    /* Set by a streamed MSM that reserved its largest chunk's buffers up front (gm_msm_stream):
     * its plans then fit in ws as it is, so it allocates nothing while the side lane runs. */
    bool hold = false;
    size_t bytes() const
    {
        return ws.bytes + bases.bytes + scalars.bytes + sel.bytes;
    }
};
gm_cache &gm_cache_of(const cuzk_gpu_device &dev);

struct cuzk_gpu_bases {
    int device;
    int group; /* 1 or 2 */
    size_t n;
    cuzk_gpu_buf buf; /* the bases; released once |pre| holds them as its row 0 */
    /* cuzk_gpu_bases_precompute: pre_rows rows of n bases (row j: 2^(pre_c j) P), else empty */
    cuzk_gpu_buf pre;
    unsigned pre_c = 0, pre_rows = 0;
    const uint8_t *bases() const
    {
        return pre_rows ? pre.as<uint8_t>() : buf.as<uint8_t>();
    }
};

struct gm_dev_exec {
    cudaStream_t st;
    uint8_t *base;
    size_t cap, used;
    void *sort_tmp;
    size_t sort_bytes;
    cuzk_gpu_timer *tm; /* event 2 marks the end of the kernels */
    /* Profile (env CUZK_GPU_MSM_PROFILE=1): an event per phase mark, summed per phase. */
    bool prof;
    std::vector<std::pair<int, cudaEvent_t>> marks;

    bool ok() const
    {
        return true; /* failures throw */
    }
    template <class T> T *alloc(size_t count)
    {
        if (!count)
            return NULL;
        size_t bytes = (count * sizeof(T) + 255) & ~(size_t)255;
        if (used + bytes > cap)
            cuzk_gpu_throw_(CUZK_ERR_INTERNAL, "msm workspace overflow (%zu + %zu > %zu bytes)",
                            used, bytes, cap);
        T *p = (T *)(base + used);
        used += bytes;
        return p;
    }
    void release(void *)
    {
    }
    void compute_done()
    {
        tm->mark(2);
    }
    void mark(int phase)
    {
        if (!prof)
            return;
        cudaEvent_t e;
        CUZK_CUDA(cudaEventCreate(&e));
        marks.push_back(std::make_pair(phase, e));
        CUZK_CUDA(cudaEventRecord(e, st));
    }
    /* After the stream's sync: one stderr line with the time of each phase, events freed. */
    void profile_report(const gm_plan *p, size_t n)
    {
        static const char *const names[GM_PH_COUNT] = {"digits", "sort",   "accum0",
                                                       "accum1", "reduce", "end"};
        double ms[GM_PH_COUNT] = {0};
        for (size_t i = 0; i + 1 < marks.size(); i++) {
            float f = 0;
            if (cudaEventElapsedTime(&f, marks[i].second, marks[i + 1].second) == cudaSuccess)
                ms[marks[i].first] += f;
        }
        if (prof && !marks.empty()) {
            char line[512];
            int k = snprintf(line, sizeof line,
                             "msm profile n=%zu c=%u nwin=%u group=%u L0=%u S=%u seg2=%zu:", n,
                             p->c, p->nwin, p->group, p->L0, p->S, p->nseg2);
            for (int i = 0; i < GM_PH_END && k > 0 && k < (int)sizeof line; i++)
                k += snprintf(line + k, sizeof line - k, " %s=%.3f", names[i], ms[i]);
            fprintf(stderr, "%s ms\n", line);
        }
        for (auto &m : marks)
            (void)cudaEventDestroy(m.second);
        marks.clear();
    }
    void zero(void *p, size_t bytes)
    {
        if (bytes)
            CUZK_CUDA(cudaMemsetAsync(p, 0, bytes, st));
    }
    void copy(void *d, const void *s, size_t bytes)
    {
        CUZK_CUDA(cudaMemcpyAsync(d, s, bytes, cudaMemcpyDeviceToDevice, st));
    }
    void d2h(void *d, const void *s, size_t bytes)
    {
        CUZK_CUDA(cudaMemcpyAsync(d, s, bytes, cudaMemcpyDeviceToHost, st));
    }
    template <class B> void launch(const typename B::Args &a, size_t count, unsigned rows)
    {
        if (!count || !rows)
            return;
        dim3 grid((unsigned)gm_div_up(count, GM_TPB), rows);
        k_gm_body<B><<<grid, GM_TPB, 0, st>>>(a, count);
        CUZK_CUDA_LAUNCHED();
    }
    /* Threads of body B that the current device runs at once (resident blocks per SM x SMs x
     * GM_TPB): the drivers size their grids to whole waves of it (gm_chunks). */
    template <class B> size_t wave() const
    {
        int dev = 0, sms = 0, per = 0;
        CUZK_CUDA(cudaGetDevice(&dev));
        CUZK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        CUZK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, k_gm_body<B>, GM_TPB, 0));
        return (size_t)sms * (size_t)per * GM_TPB;
    }
    size_t block() const
    {
        return GM_TPB;
    }
    int sort_pairs(uint32_t *k0, uint32_t *k1, uint32_t *v0, uint32_t *v1, size_t n, unsigned bits)
    {
        cub::DoubleBuffer<uint32_t> dk(k0, k1), dv(v0, v1);
        size_t bytes = sort_bytes;
        CUZK_CUDA(
            cub::DeviceRadixSort::SortPairs(sort_tmp, bytes, dk, dv, (int)n, 0, (int)bits, st));
        return dk.selector;
    }
};

/* Temporary bytes of one window's sort of |n| pairs. */
static inline size_t gm_sort_bytes(size_t n, unsigned bits)
{
    cub::DoubleBuffer<uint32_t> dk(NULL, NULL), dv(NULL, NULL);
    size_t bytes = 0;
    CUZK_CUDA(cub::DeviceRadixSort::SortPairs(NULL, bytes, dk, dv, (int)n, 0, (int)bits));
    return bytes;
}

#define GM_MEM_MARGIN ((size_t)512 << 20) /* device memory a workspace plan leaves free */

/* Device memory the call may use: the cache it may reuse plus what is free now less 512 MiB (the
 * margin is for new allocations; the cache is already allocated). */
static inline size_t gm_budget(const gm_cache &c)
{
    size_t fr = 0, tot = 0;
    CUZK_CUDA(cudaMemGetInfo(&fr, &tot));
    return c.ws.bytes + (fr > GM_MEM_MARGIN ? fr - GM_MEM_MARGIN : 0);
}

/* Workspace of an MSM with plan |p| (the allocations of gm_msm_windows, each 256-aligned). */
template <class G> static size_t gm_msm_ws_bytes(const gm_plan *p, size_t n, size_t sortb)
{
    typedef typename gm_pt<typename G::F>::X X;
    return gm_pass_bytes<G>(p, n, p->group) + p->nwin * (sizeof(X) + 4 * G::F::LIMBS * 8) + sortb +
           20 * 256;
}

/* gm_plan_make for |n| entries whose whole workspace (gm_msm_ws_bytes) stays within |cap|
 * where one window per pass does. */
template <class G> static void gm_plan_fit(gm_plan *p, size_t n, size_t cap)
{
    gm_plan_make<G>(p, n, cap);
    while (p->group > 1 && gm_msm_ws_bytes<G>(p, n, gm_sort_bytes(n, p->c)) > cap)
        p->group--;
}

template <class G> static const char *gm_phase()
{
    return sizeof(typename G::host_aff) == sizeof(cuzk_g1_affine_t) ? "gpu_msm_g1" : "gpu_msm_g2";
}

static inline unsigned gm_log2_up(size_t n)
{
    unsigned l = 0;
    while (((size_t)1 << l) < n)
        l++;
    return l;
}

static inline void gm_fill_timing(cuzk_gpu_timing *t, cuzk_gpu_timer &tm, int device)
{
    t->device = device;
    t->h2d_ms = tm.ms(0, 1);
    t->compute_ms = tm.ms(1, 2);
    t->d2h_ms = tm.ms(2, 3);
    t->total_ms = tm.ms(0, 3);
}

/* Sparse scalars (the tail MSMs of a prover, where most scalars are 0 after the 0/1 split):
 * from this many points on, the indices of the non-zero scalars are selected on the device and,
 * when they are at most half of n, the MSM runs over them alone (window, sort and accumulation
 * sized by that count). Env CUZK_GPU_MSM_SPARSE=0 turns it off. */
#define GM_SPARSE_MIN 4096

struct gm_nonzero {
    const uint64_t *s;
    __device__ bool operator()(uint32_t i) const
    {
        return (s[4 * (size_t)i] | s[4 * (size_t)i + 1] | s[4 * (size_t)i + 2] |
                s[4 * (size_t)i + 3]) != 0;
    }
};

/* Selects the non-zero scalars of the |n| on the device (into cc.sel); returns their count and
 * sets *|idx| to the index list. Synchronises the stream (the plan needs the count). */
static inline size_t gm_select_tmp(size_t n)
{
    thrust::counting_iterator<uint32_t> first(0);
    gm_nonzero pred = {NULL};
    size_t tmp = 0;
    CUZK_CUDA(cub::DeviceSelect::If(NULL, tmp, first, (uint32_t *)NULL, (uint32_t *)NULL, (int)n,
                                    pred));
    return tmp;
}

/* Bytes of cc.sel that gm_select_nonzero uses for |n| scalars. */
static inline size_t gm_select_bytes(size_t n)
{
    return ((n * 4 + 255) & ~(size_t)255) + 256 + gm_select_tmp(n);
}

static inline size_t gm_select_nonzero(gm_cache &cc, cudaStream_t st, const uint64_t *d_scalars,
                                       size_t n, const uint32_t **idx)
{
    thrust::counting_iterator<uint32_t> first(0);
    gm_nonzero pred = {d_scalars};
    size_t tmp = gm_select_tmp(n);
    size_t off = (n * 4 + 255) & ~(size_t)255;
    cc.sel.reserve(off + 256 + tmp);
    uint32_t *out = cc.sel.as<uint32_t>(), *cnt = (uint32_t *)(cc.sel.as<uint8_t>() + off);
    CUZK_CUDA(cub::DeviceSelect::If(cc.sel.as<uint8_t>() + off + 256, tmp, first, out, cnt, (int)n,
                                    pred, st));
    uint32_t m = 0;
    CUZK_CUDA(cudaMemcpyAsync(&m, cnt, sizeof m, cudaMemcpyDeviceToHost, st));
    CUZK_CUDA(cudaStreamSynchronize(st));
    *idx = out;
    return m;
}

/*
 * One MSM over device bases and |n| device (Montgomery) scalars, the stream's work so far
 * included in the timing from event 0 (which the caller marked, and event 1 after its uploads).
 * The caller holds dev.mu. The window sums come back and are combined on the host. |report|
 * false: no timing filled nor reported (the caller times a call of several of these).
 */
template <class G>
static void gm_msm_run(cuzk_gpu_device &dev, cuzk_gpu_timer &tm, typename G::host_jac *out,
                       const uint8_t *d_bases, const uint64_t *d_scalars, size_t n,
                       cuzk_gpu_timing *timing,
                       void (*combine)(typename G::host_jac *, const uint64_t *, const gm_plan *),
                       const uint32_t *d_idx = NULL, const gm_pre *pre = NULL, bool report = true)
{
    typedef typename G::F F;
    gm_cache &cc = gm_cache_of(dev);
    /* With |d_idx| the caller's entries are (base index, scalar) pairs. Else, sparse scalars:
     * the MSM over the non-zero ones (all zero: still one entry, index 0, whose zero scalar adds
     * nothing, so the path below needs no special case). */
    const uint32_t *idx = d_idx;
    size_t m = n;
    if (!d_idx && n >= GM_SPARSE_MIN && gm_env_uint("CUZK_GPU_MSM_SPARSE", 1) != 0) {
        const uint32_t *sel = NULL;
        size_t nz = gm_select_nonzero(cc, dev.stream, d_scalars, n, &sel);
        if (nz <= n / 2) {
            idx = nz ? sel : NULL;
            m = nz ? nz : 1;
        }
    }
    /* Precomputed bases: windows of up to pre->rows entries per scalar (gm_msm_windows). When
     * their workspace does not fit, the plain windows over row 0 (the bases themselves). */
    gm_plan p;
    size_t ne = m, sortb = 0, need = 0;
    if (pre) {
        gm_plan_merged<G>(&p, pre->c, pre->rows);
        ne = (size_t)std::min(pre->rows, p.dwin) * m;
        sortb = gm_sort_bytes(ne, p.c);
        need = gm_msm_ws_bytes<G>(&p, ne, sortb);
        if (need > gm_budget(cc)) {
            /* Said once per process (and each time when profiling): the rows then cost memory
             * for nothing, which an operator should know (gpus.h_precompute_rows). */
            static std::atomic<bool> said{false};
            if (!said.exchange(true) || gm_env_uint("CUZK_GPU_MSM_PROFILE", 0))
                fprintf(stderr,
                        "cuzk: msm over %u precomputed rows: %zu entries need %zu MiB of device "
                        "memory, %zu MiB free: plain windows over row 0 (fewer rows would fit)\n",
                        pre->rows, ne, need >> 20, gm_budget(cc) >> 20);
            cuzk_gpu_event_(dev, CUZK__GPU_EV_MSM_ROWS_FALLBACK);
            pre = NULL;
            ne = m;
        }
    }
    if (!pre) {
        if (cc.hold)
            gm_plan_fit<G>(&p, m, cc.ws.bytes);
        else
            gm_plan_make<G>(&p, m, gm_budget(cc));
        sortb = gm_sort_bytes(ne, p.c);
        need = gm_msm_ws_bytes<G>(&p, ne, sortb);
    }
    cc.ws.reserve(need);
    std::vector<uint64_t> wins((size_t)p.nwin * 4 * F::LIMBS);
    gm_dev_exec ex = {dev.stream,  cc.ws.as<uint8_t>(),
                      cc.ws.bytes, 0,
                      NULL,        sortb,
                      &tm,         gm_env_uint("CUZK_GPU_MSM_PROFILE", 0) != 0,
                      {}};
    ex.sort_tmp = ex.alloc<uint8_t>(sortb);
    gm_msm_windows<G>(ex, wins.data(), &p, d_bases, d_scalars, m, idx, d_idx != NULL,
                      pre ? pre->rows : 0, pre ? pre->stride : 0);
    tm.mark(3);
    CUZK_CUDA(cudaStreamSynchronize(dev.stream));
    ex.profile_report(&p, m);
    if (report) { /* else the caller (a streamed call, msm_stream.cuh) times the whole call */
        cuzk_gpu_timing t;
        gm_fill_timing(&t, tm, dev.id);
        if (timing)
            *timing = t;
        cuzk_gpu_report_(gm_phase<G>(), t, gm_log2_up(n));
    }
    combine(out, wins.data(), &p);
}

/* One MSM: bases either on the host (|h_bases|, uploaded into the cache) or resident
 * (|d_bases|), scalars on the host. */
template <class G>
static void
gm_msm_call_on(cuzk_gpu_device &dev, typename G::host_jac *out, const void *h_bases,
               const uint8_t *d_bases, const cuzk_fr_t *scalars, size_t n, cuzk_gpu_timing *timing,
               void (*combine)(typename G::host_jac *, const uint64_t *, const gm_plan *),
               const gm_pre *pre = NULL)
{
    gm_cache &cc = gm_cache_of(dev);
    size_t bbytes = h_bases ? n * G::AFF_BYTES : 0, sbytes = n * sizeof(cuzk_fr_t);
    if (h_bases)
        cc.bases.reserve(bbytes);
    cc.scalars.reserve(sbytes);
    cuzk_gpu_timer tm(dev);
    /* Pageable host arrays of 256 MiB and more are registered for the call (gm_chunk_h2d). */
    cuzk_gpu_call_pins pins(dev.stream);
    if (h_bases) {
        d_bases = cc.bases.as<uint8_t>();
        pins.pin(h_bases, bbytes);
        pins.pin(scalars, sbytes);
    }
    tm.mark(0);
    if (h_bases)
        CUZK_CUDA(cudaMemcpyAsync(cc.bases.p, h_bases, bbytes, cudaMemcpyHostToDevice, dev.stream));
    CUZK_CUDA(cudaMemcpyAsync(cc.scalars.p, scalars, sbytes, cudaMemcpyHostToDevice, dev.stream));
    tm.mark(1);
    gm_msm_run<G>(dev, tm, out, d_bases, cc.scalars.as<uint64_t>(), n, timing, combine, NULL, pre);
}

/* One MSM of |m| (base index, scalar) pairs over resident bases on lane |dev|: idx and scalars
 * on the host, idx[j] < the bases' range (checked by the caller). */
template <class G>
static void gm_msm_idx_call_on(cuzk_gpu_device &dev, typename G::host_jac *out,
                               const uint8_t *d_bases, const uint32_t *idx,
                               const cuzk_fr_t *scalars, size_t m, cuzk_gpu_timing *timing,
                               void (*combine)(typename G::host_jac *, const uint64_t *,
                                               const gm_plan *),
                               const gm_pre *pre = NULL)
{
    gm_cache &cc = gm_cache_of(dev);
    cc.scalars.reserve(m * sizeof(cuzk_fr_t));
    cc.sel.reserve(m * sizeof(uint32_t));
    cuzk_gpu_timer tm(dev);
    tm.mark(0);
    CUZK_CUDA(cudaMemcpyAsync(cc.scalars.p, scalars, m * sizeof(cuzk_fr_t), cudaMemcpyHostToDevice,
                              dev.stream));
    CUZK_CUDA(
        cudaMemcpyAsync(cc.sel.p, idx, m * sizeof(uint32_t), cudaMemcpyHostToDevice, dev.stream));
    tm.mark(1);
    gm_msm_run<G>(dev, tm, out, d_bases, cc.scalars.as<uint64_t>(), m, timing, combine,
                  cc.sel.as<uint32_t>(), pre);
}

/* Workspace of a batch addition of |m| points (gm_batch_add): the thread sums, their partial
 * sums, the balanced kernel's prefix counts. */
template <class G> static size_t gm_badd_ws(size_t m)
{
    typedef typename gm_pt<typename G::F>::X X;
    const size_t nw = gm_div_up(m, 64);
    return 2 * nw * sizeof(X) + 4 * (nw + 1) + 4 * gm_div_up(nw, GM_POPC_BLK) + 8192;
}

/* One batch addition over host or resident bases on lane |dev|, bitmap on the host; the caller
 * holds the lane's mutex. */
template <class G>
static void gm_badd_call_on(cuzk_gpu_device &dev, typename G::host_jac *out, const void *h_bases,
                            const uint8_t *d_bases, const uint64_t *bitmap, size_t n,
                            cuzk_gpu_timing *timing,
                            void (*to_jac)(typename G::host_jac *, const typename G::host_xyzz *))
{
    typedef typename G::F F;
    gm_cache &cc = gm_cache_of(dev);
    size_t nwords = gm_div_up(n, 64);
    size_t bbytes = h_bases ? n * G::AFF_BYTES : 0, mbytes = nwords * 8;
    if (h_bases)
        cc.bases.reserve(bbytes);
    cc.scalars.reserve(mbytes);
    cc.ws.reserve(gm_badd_ws<G>(n));
    uint64_t h[4 * F::LIMBS];
    cuzk_gpu_timer tm(dev);
    gm_dev_exec ex = {dev.stream, cc.ws.as<uint8_t>(), cc.ws.bytes, 0, NULL, 0, &tm, false, {}};
    cuzk_gpu_call_pins pins(dev.stream);
    if (h_bases) {
        d_bases = cc.bases.as<uint8_t>();
        pins.pin(h_bases, bbytes);
    }
    tm.mark(0);
    if (h_bases)
        CUZK_CUDA(cudaMemcpyAsync(cc.bases.p, h_bases, bbytes, cudaMemcpyHostToDevice, dev.stream));
    CUZK_CUDA(cudaMemcpyAsync(cc.scalars.p, bitmap, mbytes, cudaMemcpyHostToDevice, dev.stream));
    tm.mark(1);
    gm_batch_add<G>(ex, h, d_bases, cc.scalars.as<uint64_t>(), n);
    tm.mark(3);
    CUZK_CUDA(cudaStreamSynchronize(dev.stream));
    cuzk_gpu_timing t;
    gm_fill_timing(&t, tm, dev.id);
    if (timing)
        *timing = t;
    cuzk_gpu_report_(sizeof(typename G::host_aff) == sizeof(cuzk_g1_affine_t) ? "gpu_batch_add_g1"
                                                                              : "gpu_batch_add_g2",
                     t, gm_log2_up(n));
    typename G::host_xyzz x;
    memcpy(&x, h, sizeof x);
    to_jac(out, &x);
}

/* Uploads resident bases of group |group| (element size |size|). */
static inline void gm_bases_upload(cuzk_gpu_bases **out, int device, const void *bases, size_t n,
                                   size_t size, int group)
{
    cuzk_gpu_device &dev = cuzk_gpu_device_get_(device);
    std::lock_guard<std::mutex> lock(dev.mu);
    cuzk_gpu_device_enter_(dev);
    cuzk_gpu_bases *b = new cuzk_gpu_bases();
    b->device = dev.id;
    b->group = group;
    b->n = n;
    try {
        b->buf.reserve(n * size);
        CUZK_CUDA(cudaMemcpyAsync(b->buf.p, bases, n * size, cudaMemcpyHostToDevice, dev.stream));
        CUZK_CUDA(cudaStreamSynchronize(dev.stream));
    } catch (...) {
        delete b;
        throw;
    }
    *out = b;
}

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The CUDA NTT against the CPU (src/poly), bit-exact on fresh random inputs: device field
 * arithmetic (every multiplication variant), NTT / iNTT / coset transforms of both root families
 * at every size 2^1 .. 2^max (max = env CUZK_TEST_NPOW, default 24), the H step, the backend and
 * the error paths. Without a device (or with the stub build) every test reports SKIP. */
#include "test.h"
#include "test_fr.h"
#include "cuzk/alloc.h"
#include "cuzk/backend.h"
#include "cuzk/poly.h"
#include "gpu/gpu.h"

#include <string.h>

static void need_device(void)
{
    if (!cuzk_gpu_available())
        test_skip("no CUDA device");
}

static unsigned max_log(void)
{
    const char *e = getenv("CUZK_TEST_NPOW");
    unsigned v = e ? (unsigned)strtoul(e, NULL, 10) : 24;
    return v >= 1 && v <= CUZK_GPU_NTT_MAX_LOG ? v : 24;
}

static void rand_fp(cuzk_fp_t *out)
{
    for (;;) {
        uint64_t l[6];
        for (int i = 0; i < 6; i++)
            l[i] = test_rand_u64();
        l[5] &= 0x1fffffffffffffffULL;
        if (cuzk_fp_from_canonical(out, l))
            return;
    }
}

/* Random vector with a few edge values (0, 1, -1) at the front. */
static cuzk_fr_t *rand_vec(size_t n)
{
    cuzk_fr_t *v = cuzk_alloc_array(n, sizeof *v);
    CHECK(v != NULL);
    for (size_t i = 0; i < n; i++)
        test_rand_fr(&v[i]);
    if (n > 3) {
        cuzk_fr_set_zero(&v[0]);
        cuzk_fr_set_one(&v[1]);
        cuzk_fr_neg(&v[2], &v[1]);
    }
    return v;
}

static cuzk_fr_t *copy_vec(const cuzk_fr_t *v, size_t n)
{
    cuzk_fr_t *c = cuzk_alloc_array(n, sizeof *c);
    CHECK(c != NULL);
    memcpy(c, v, n * sizeof *c);
    return c;
}

/* Index of the first difference, or n. */
static size_t first_diff(const cuzk_fr_t *a, const cuzk_fr_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (memcmp(&a[i], &b[i], sizeof *a) != 0)
            return i;
    return n;
}

static const cuzk_roots families[2] = {CUZK_ROOTS_BELLPERSON, CUZK_ROOTS_SNARKJS};
static const char *const family_names[2] = {"bellperson", "snarkjs"};
static void (*const cpu_ops[4])(const cuzk_domain *, cuzk_fr_t *, cuzk_pool *) = {
    cuzk_ntt, cuzk_intt, cuzk_coset_ntt, cuzk_coset_intt};
static const char *const op_names[4] = {"ntt", "intt", "coset_ntt", "coset_intt"};

/* Every op of both families at 2^lo .. 2^hi: host-array calls on even sizes, resident vectors on
 * odd ones. */
static void check_sizes(unsigned lo, unsigned hi)
{
    cuzk_pool *pool = cuzk_pool_default();
    for (unsigned l = lo; l <= hi; l++) {
        size_t n = (size_t)1 << l;
        for (int f = 0; f < 2; f++) {
            cuzk_domain *d;
            CHECK(cuzk_domain_create(&d, n, families[f]) == CUZK_OK);
            cuzk_gpu_frvec *v = NULL;
            if (l & 1)
                CHECK(cuzk_gpu_frvec_alloc(&v, -1, n) == CUZK_OK);
            for (int op = 0; op < 4; op++) {
                cuzk_fr_t *x = rand_vec(n), *y = copy_vec(x, n);
                cpu_ops[op](d, x, pool);
                if (v) {
                    CHECK(cuzk_gpu_frvec_upload(v, 0, y, n) == CUZK_OK);
                    CHECK_MSG(cuzk_gpu_frvec_ntt(v, d, (cuzk_gpu_ntt_op)op, NULL) == CUZK_OK, "%s",
                              cuzk_last_error());
                    memset(y, 0xa5, n * sizeof *y);
                    CHECK(cuzk_gpu_frvec_download(v, 0, y, n) == CUZK_OK);
                } else {
                    CHECK_MSG(cuzk_gpu_ntt(-1, d, y, (cuzk_gpu_ntt_op)op, NULL) == CUZK_OK, "%s",
                              cuzk_last_error());
                }
                size_t i = first_diff(x, y, n);
                CHECK_MSG(i == n, "%s %s 2^%u: first difference at %zu", op_names[op],
                          family_names[f], l, i);
                cuzk_free(x);
                cuzk_free(y);
            }
            cuzk_gpu_frvec_free(v);
            cuzk_domain_destroy(d);
        }
    }
}

/* x += p on the raw limbs (x < p): another representative of the same residue, below 2p. */
static void add_p(cuzk_fp_t *x)
{
    static const uint64_t P[6] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL,
                                  0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
                                  0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
    uint64_t *l = x->l, c = 0;
    for (int i = 0; i < 6; i++) {
        unsigned __int128 s = (unsigned __int128)l[i] + P[i] + c;
        l[i] = (uint64_t)s;
        c = (uint64_t)(s >> 64);
    }
}

CUZK_TEST(gpu_field_ops)
{
    need_device();
    enum { N = 4096 };
    cuzk_fr_t *ra = cuzk_alloc_array(4 * N, sizeof *ra), *rb = ra + N, *ro = rb + N, *rw = ro + N;
    cuzk_fp_t *pa = cuzk_alloc_array(4 * N, sizeof *pa), *pb = pa + N, *po = pb + N, *pw = po + N;
    CHECK(ra && pa);
    for (size_t i = 0; i < N; i++) {
        test_rand_fr(&ra[i]);
        test_rand_fr(&rb[i]);
        rand_fp(&pa[i]);
        rand_fp(&pb[i]);
    }
    /* Edge values: 0, 1, -1, a = b, a = -b. */
    cuzk_fr_set_zero(&ra[0]);
    cuzk_fr_set_one(&rb[1]);
    cuzk_fr_neg(&rb[2], &rb[1]);
    rb[3] = ra[3];
    cuzk_fr_neg(&rb[4], &ra[4]);
    cuzk_fp_set_zero(&pa[0]);
    cuzk_fp_set_one(&pb[1]);
    cuzk_fp_neg(&pb[2], &pb[1]);
    pb[3] = pa[3];
    cuzk_fp_neg(&pb[4], &pa[4]);
    /* Lazy inputs for variants 5, 8, 11, 12, 15 and 16: every third element of each Fp operand
     * is a + p (< 2p). */
    cuzk_fp_t *la = cuzk_alloc_array(2 * N, sizeof *la), *lb = la + N;
    CHECK(la);
    for (size_t i = 0; i < N; i++) {
        la[i] = pa[i];
        lb[i] = pb[i];
        if (i % 3 == 1)
            add_p(&la[i]);
        if (i % 3 != 0)
            add_p(&lb[i]);
    }
    for (int op = 0; op < 3; op++)
        for (int variant = 0; variant <= 16; variant++) {
            /* 7 (even/odd) and 8 (its lazy form) add and subtract as 0 and 5 do; 10..16 (the
             * even/odd squaring, its lazy form, the fused a b - b^2, Shoup's product, the
             * Karatsuba product, its lazy form, a b - b^2 with it) have op 0 only. */
            if ((variant >= 1 && variant <= 4 && op != 0) || (variant >= 6 && op != 0))
                continue;
            const bool lazy = variant == 5 || variant == 8 || variant == 11 || variant == 12 ||
                              variant == 15 || variant == 16;
            if (!lazy)
                CHECK_MSG(cuzk__gpu_field_op(-1, 0, op, variant, rw, ra, rb, N) == CUZK_OK, "%s",
                          cuzk_last_error());
            /* 6 and 9 (the multiplications specialised to r) and 13 (Shoup's) are Fr only. */
            const bool fr_only = variant == 6 || variant == 9 || variant == 13;
            if (!fr_only)
                CHECK_MSG(cuzk__gpu_field_op(-1, 1, op, variant, pw, lazy ? la : pa, lazy ? lb : pb,
                                             N) == CUZK_OK,
                          "%s", cuzk_last_error());
            for (size_t i = 0; i < N; i++) {
                if (variant == 4 || variant == 10 || variant == 11) {
                    cuzk_fr_sqr(&ro[i], &ra[i]);
                    cuzk_fp_sqr(&po[i], &pa[i]);
                } else if (variant == 12 || variant == 16) {
                    cuzk_fp_t t;
                    cuzk_fp_mul(&po[i], &pa[i], &pb[i]);
                    cuzk_fp_sqr(&t, &pb[i]);
                    cuzk_fp_sub(&po[i], &po[i], &t);
                } else if (op == 0) {
                    cuzk_fr_mul(&ro[i], &ra[i], &rb[i]);
                    cuzk_fp_mul(&po[i], &pa[i], &pb[i]);
                } else if (op == 1) {
                    cuzk_fr_add(&ro[i], &ra[i], &rb[i]);
                    cuzk_fp_add(&po[i], &pa[i], &pb[i]);
                } else {
                    cuzk_fr_sub(&ro[i], &ra[i], &rb[i]);
                    cuzk_fp_sub(&po[i], &pa[i], &pb[i]);
                }
                if (!lazy)
                    CHECK_MSG(cuzk_fr_eq(&ro[i], &rw[i]), "Fr op %d variant %d differs at %zu", op,
                              variant, i);
                /* Limb equality: the device result must be canonical too. */
                CHECK_MSG(fr_only || memcmp(&po[i], &pw[i], sizeof po[i]) == 0,
                          "Fp op %d variant %d differs at %zu", op, variant, i);
            }
        }
    cuzk_free(la);
    cuzk_free(ra);
    cuzk_free(pa);
}

CUZK_TEST(gpu_ntt_small)
{
    need_device();
    unsigned hi = max_log() < 16 ? max_log() : 16;
    check_sizes(1, hi);
}

CUZK_TEST(gpu_ntt_large)
{
    need_device();
    if (max_log() >= 17)
        check_sizes(17, max_log());
}

/* The H step against cuzk_poly_h for both families; the resident path at odd sizes. */
CUZK_TEST(gpu_h)
{
    need_device();
    static const unsigned sizes[] = {1, 2, 3, 10, 11, 13, 16, 17, 20, 21, 22, 24};
    cuzk_pool *pool = cuzk_pool_default();
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        unsigned l = sizes[si];
        if (l > max_log())
            break;
        size_t n = (size_t)1 << l;
        for (int f = 0; f < 2; f++) {
            cuzk_domain *d;
            CHECK(cuzk_domain_create(&d, n, families[f]) == CUZK_OK);
            cuzk_fr_t *a = rand_vec(n), *b = rand_vec(n), *c = rand_vec(n);
            cuzk_fr_t *ga = copy_vec(a, n), *gb = copy_vec(b, n), *gc = copy_vec(c, n);
            cuzk_poly_h(d, a, b, c, pool);
            if (l & 1) {
                cuzk_gpu_frvec *va, *vb, *vc;
                CHECK(cuzk_gpu_frvec_alloc(&va, -1, n) == CUZK_OK);
                CHECK(cuzk_gpu_frvec_alloc(&vb, -1, n) == CUZK_OK);
                CHECK(cuzk_gpu_frvec_alloc(&vc, -1, n) == CUZK_OK);
                CHECK(cuzk_gpu_frvec_upload(va, 0, ga, n) == CUZK_OK);
                CHECK(cuzk_gpu_frvec_upload(vb, 0, gb, n) == CUZK_OK);
                CHECK(cuzk_gpu_frvec_upload(vc, 0, gc, n) == CUZK_OK);
                CHECK_MSG(cuzk_gpu_frvec_h(va, vb, vc, d, NULL) == CUZK_OK, "%s",
                          cuzk_last_error());
                CHECK(cuzk_gpu_frvec_download(va, 0, ga, n) == CUZK_OK);
                cuzk_gpu_frvec_free(va);
                cuzk_gpu_frvec_free(vb);
                cuzk_gpu_frvec_free(vc);
            } else {
                cuzk_gpu_timing t;
                CHECK_MSG(cuzk_gpu_h(-1, d, ga, gb, gc, &t) == CUZK_OK, "%s", cuzk_last_error());
                CHECK(t.total_ms > 0 && t.total_ms >= t.compute_ms);
            }
            size_t i = first_diff(a, ga, n);
            CHECK_MSG(i == n, "h %s 2^%u: first difference at %zu", family_names[f], l, i);
            cuzk_free(a), cuzk_free(b), cuzk_free(c);
            cuzk_free(ga), cuzk_free(gb), cuzk_free(gc);
            cuzk_domain_destroy(d);
        }
    }
}

/* The CUDA backend: H on the device (2^12) and on the CPU (2^5) gives cuzk_poly_h's result; without
 * c (c = a b) the device forms it, and the CPU size is refused with a and b left alone. */
CUZK_TEST(gpu_backend_h)
{
    need_device();
    cuzk_backend *be;
    CHECK_MSG(cuzk_backend_create(&be, CUZK_BACKEND_CUDA, 0) == CUZK_OK, "%s", cuzk_last_error());
    CHECK(strcmp(cuzk_backend_name(be), "cuda") == 0);
    CHECK(cuzk_backend_device(be) == cuzk_gpu_default_device());
    cuzk_backend *au;
    CHECK(cuzk_backend_create(&au, CUZK_BACKEND_AUTO, 1) == CUZK_OK);
    CHECK(strcmp(cuzk_backend_name(au), "cuda") == 0);
    cuzk_backend_destroy(au);
    static const unsigned sizes[] = {5, 12};
    for (int si = 0; si < 2; si++)
        for (int f = 0; f < 2; f++) {
            size_t n = (size_t)1 << sizes[si];
            cuzk_domain *d;
            CHECK(cuzk_domain_create(&d, n, families[f]) == CUZK_OK);
            cuzk_fr_t *a = rand_vec(n), *b = rand_vec(n), *c = rand_vec(n);
            cuzk_fr_t *ga = copy_vec(a, n), *gb = copy_vec(b, n), *gc = copy_vec(c, n);
            /* c = a b without c: formed on the device; refused where the CPU would run it */
            cuzk_fr_t *xa = copy_vec(a, n), *xb = copy_vec(b, n), *xc = copy_vec(a, n);
            for (size_t i = 0; i < n; i++)
                cuzk_fr_mul(&xc[i], &a[i], &b[i]);
            cuzk_fr_t *ya = copy_vec(xa, n), *yb = copy_vec(xb, n);
            cuzk_poly_h(d, xa, xb, xc, NULL);
            cuzk_status sab = cuzk_backend_h(be, d, ya, yb, NULL);
            if (sizes[si] == 5)
                CHECK(sab == CUZK_ERR_UNSUPPORTED && first_diff(a, ya, n) == n);
            else
                CHECK_MSG(sab == CUZK_OK && first_diff(xa, ya, n) == n, "h without c: %s",
                          cuzk_last_error());
            cuzk_free(xa), cuzk_free(xb), cuzk_free(xc), cuzk_free(ya), cuzk_free(yb);
            cuzk_poly_h(d, a, b, c, NULL);
            CHECK(cuzk_backend_h(be, d, ga, gb, gc) == CUZK_OK);
            CHECK(first_diff(a, ga, n) == n);
            cuzk_free(a), cuzk_free(b), cuzk_free(c);
            cuzk_free(ga), cuzk_free(gb), cuzk_free(gc);
            cuzk_domain_destroy(d);
        }
    cuzk_backend_destroy(be);
}

/* Rejections: each gives a clear status and message and leaves the input alone. */
CUZK_TEST(gpu_errors)
{
    need_device();
    cuzk_domain *big, *d;
    CHECK(cuzk_domain_create(&big, (size_t)1 << 28, CUZK_ROOTS_BELLPERSON) == CUZK_OK);
    CHECK(cuzk_domain_create(&d, 1024, CUZK_ROOTS_BELLPERSON) == CUZK_OK);
    cuzk_fr_t x[4];
    memset(x, 0x5a, sizeof x);
    CHECK(cuzk_gpu_ntt(-1, big, x, CUZK_GPU_NTT, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(strstr(cuzk_last_error(), "2^28") != NULL);
    CHECK(cuzk_gpu_h(-1, big, x, x, x, NULL) == CUZK_ERR_INVALID_ARG);
    for (size_t i = 0; i < sizeof x; i++)
        CHECK(((uint8_t *)x)[i] == 0x5a);
    CHECK(cuzk_gpu_ntt(-1, d, NULL, CUZK_GPU_NTT, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_gpu_ntt(-1, d, x, (cuzk_gpu_ntt_op)7, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_gpu_ntt(-1, NULL, x, CUZK_GPU_NTT, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_gpu_ntt(cuzk_gpu_device_count() + 3, d, x, CUZK_GPU_NTT, NULL) ==
          CUZK_ERR_NO_DEVICE);
    CHECK(strstr(cuzk_last_error(), "does not exist") != NULL);
    cuzk_backend *be;
    CHECK(cuzk_backend_create_on(&be, CUZK_BACKEND_CUDA, 1, 99) == CUZK_ERR_NO_DEVICE);
    CHECK(be == NULL);
    cuzk_gpu_frvec *v;
    CHECK(cuzk_gpu_frvec_alloc(&v, -1, 16) == CUZK_OK);
    CHECK(cuzk_gpu_frvec_upload(v, 10, x, 8) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_gpu_frvec_ntt(v, d, CUZK_GPU_NTT, NULL) == CUZK_ERR_INVALID_ARG);
    cuzk_gpu_frvec_free(v);
    /* More than the device holds: a clean out-of-memory status naming the device. */
    cuzk_gpu_device_info info;
    CHECK(cuzk_gpu_get_device_info(-1, &info) == CUZK_OK);
    CHECK(cuzk_gpu_frvec_alloc(&v, -1, info.total_mem / 32 * 2) == CUZK_ERR_NOMEM);
    CHECK(v == NULL);
    CHECK(strstr(cuzk_last_error(), "device out of memory") != NULL);
    cuzk_domain_destroy(big);
    cuzk_domain_destroy(d);
}

/* The tuning knobs of src/gpu/ntt.cu (multiplication variant, bits per pass, block size, threads,
 * butterfly order) change the schedule, never the result: every op of both families at a spread
 * of sizes under each setting (the tiled bit reversal starts at 2^8, so sizes 11, 12 and 17 cover
 * it; sizes 1 to 6 the naive one). */
CUZK_TEST(gpu_ntt_configs)
{
    need_device();
    /* variant, kmax, loge, threads, jmajor, radix (stages per register round), bit reversal (0
     * naive, 1 tiled) */
    static const char *const cfg[][7] = {
        {"1", "10", "11", "512", "1", "1", "1"}, {"2", "8", "10", "256", "1", "1", "0"},
        {"3", "7", "9", "128", "0", "1", "1"},   {"1", "3", "9", "64", "1", "1", "0"},
        {"3", "11", "12", "512", "1", "1", "1"}, {"2", "1", "9", "32", "0", "1", "1"},
        {"4", "8", "10", "128", "1", "1", "1"},  {"4", "5", "9", "64", "0", "1", "0"},
        {"5", "8", "10", "128", "1", "1", "1"},  {"5", "11", "12", "512", "0", "1", "0"},
        {"5", "8", "10", "128", "1", "3", "1"},  {"5", "7", "9", "128", "1", "3", "0"},
        {"5", "8", "10", "64", "1", "2", "1"},   {"5", "11", "12", "512", "1", "3", "1"},
        {"1", "4", "9", "32", "0", "3", "1"},    {"3", "2", "10", "256", "1", "2", "1"},
        {"5", "7", "9", "128", "1", "2", "1"},   {"5", "11", "12", "256", "0", "2", "0"},
        {"5", "1", "9", "32", "1", "2", "1"},    {"5", "3", "10", "128", "1", "3", "1"},
        /* variant 6 (Shoup's twiddle products): kmax 12 is capped at 11, radix 3 at 2 */
        {"6", "8", "10", "128", "1", "2", "1"},  {"6", "7", "9", "128", "1", "1", "0"},
        {"6", "12", "12", "512", "0", "3", "1"}, {"6", "1", "9", "32", "1", "2", "1"}};
    static const char *const envs[7] = {
        "CUZK_GPU_MONT",       "CUZK_GPU_NTT_KMAX",  "CUZK_GPU_NTT_LOGE",  "CUZK_GPU_NTT_THREADS",
        "CUZK_GPU_NTT_JMAJOR", "CUZK_GPU_NTT_RADIX", "CUZK_GPU_NTT_BITREV"};
    for (size_t c = 0; c < sizeof cfg / sizeof *cfg; c++) {
        for (int e = 0; e < 7; e++)
            setenv(envs[e], cfg[c][e], 1);
        check_sizes(1, 6);
        check_sizes(11, 12);
        if (max_log() >= 17)
            check_sizes(17, 17);
    }
    for (int e = 0; e < 7; e++)
        unsetenv(envs[e]);
}

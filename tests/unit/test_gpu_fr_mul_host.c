/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The device Fr multiplications run on the host (tests/unit/gpu_fr_mul_host.cu, compiled by nvcc
 * for the host only) against cuzk_fr_mul, limb for limb: above all fr_mul_r.cuh (the NTT's
 * variant 4, whose reduction rows are worked out by hand for r), and mont.cuh's variants 1..3
 * through its host emulation of the carry chains. Needs no GPU; skipped when nvcc was absent.
 */
#include "cuzk/alloc.h"
#include "cuzk/field.h"
#include "test.h"
#include "test_fr.h"

/* Defined only when nvcc built tests/unit/gpu_fr_mul_host.cu (weak: absent in CUDA=0 builds). */
void cuzk__test_fr_mul_host(int variant, cuzk_fr_t *out, const cuzk_fr_t *a, const cuzk_fr_t *b,
                            size_t n) __attribute__((weak));
void cuzk__test_fr_shoup_companion_host(cuzk_fr_t *w, cuzk_fr_t *wq, const cuzk_fr_t *m)
    __attribute__((weak));

static const uint64_t R_LIMBS[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                    0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};

/* out = r - k for a small k (raw limbs; any value < r is a Montgomery form). */
static void r_minus(cuzk_fr_t *out, uint64_t k)
{
    uint64_t borrow = k;
    for (int i = 0; i < 4; i++) {
        out->l[i] = R_LIMBS[i] - borrow;
        borrow = R_LIMBS[i] < borrow;
    }
}

/* A raw value < r with chosen low limb |lo| and the rest random (top limb kept below r's). */
static void with_low(cuzk_fr_t *out, uint64_t lo)
{
    out->l[0] = lo;
    out->l[1] = test_rand_u64();
    out->l[2] = test_rand_u64();
    out->l[3] = test_rand_u64() % R_LIMBS[3];
}

/* Values where the no-carry bounds are tightest (r - 1 and neighbours: the largest a * b_i and
 * q * r), where a reduction row's t0 is 0 (q = 0, no carry) or makes q's carry term flip (low
 * limbs 2^32 - 1, 2^32, r0, 2^64 - 1), and the usual 0, 1, R mod r, -R mod r. */
static size_t edge_values(cuzk_fr_t *v)
{
    size_t n = 0;
    cuzk_fr_set_zero(&v[n++]);
    memset(&v[n], 0, sizeof v[n]);
    v[n++].l[0] = 1;
    memset(&v[n], 0, sizeof v[n]);
    v[n++].l[0] = 2;
    for (uint64_t k = 1; k <= 4; k++)
        r_minus(&v[n++], k);
    r_minus(&v[n++], (uint64_t)1 << 32);
    r_minus(&v[n++], ~(uint64_t)0);
    cuzk_fr_set_one(&v[n++]);      /* R mod r */
    cuzk_fr_neg(&v[n], &v[n - 1]); /* r - (R mod r) */
    n++;
    memset(&v[n], 0, sizeof v[n]);
    v[n++].l[0] = ~(uint64_t)0;
    memset(&v[n], 0, sizeof v[n]);
    v[n++].l[0] = R_LIMBS[0];
    for (int i = 0; i < 3; i++)
        v[n].l[i] = ~(uint64_t)0; /* 2^192 - 1 + (r's top limb - 1) 2^192 */
    v[n++].l[3] = R_LIMBS[3] - 1;
    memset(&v[n], 0, sizeof v[n]);
    v[n++].l[3] = R_LIMBS[3] - 1; /* only the top limb */
    static const uint64_t lows[] = {0,
                                    1,
                                    0xffffffffULL,
                                    0x100000000ULL,
                                    0x100000001ULL,
                                    0xffffffff00000001ULL,
                                    0xffffffff00000000ULL,
                                    0xfffffffeffffffffULL,
                                    0x8000000000000000ULL,
                                    ~(uint64_t)0};
    for (size_t i = 0; i < sizeof lows / sizeof *lows; i++)
        with_low(&v[n++], lows[i]);
    return n;
}

struct hex {
    char s[68];
};
static struct hex hex4(const cuzk_fr_t *a)
{
    struct hex h;
    snprintf(h.s, sizeof h.s, "%016llx%016llx%016llx%016llx", (unsigned long long)a->l[3],
             (unsigned long long)a->l[2], (unsigned long long)a->l[1], (unsigned long long)a->l[0]);
    return h;
}

static void check_all(const cuzk_fr_t *a, const cuzk_fr_t *b, size_t n, const char *what)
{
    cuzk_fr_t *want = cuzk_alloc_array(2 * n, sizeof *want), *got = want + n;
    CHECK(want != NULL);
    for (size_t i = 0; i < n; i++)
        cuzk_fr_mul(&want[i], &a[i], &b[i]);
    static const int variants[] = {4, 5, 6, 1, 2, 3};
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
        memset(got, 0xa5, n * sizeof *got);
        cuzk__test_fr_mul_host(variants[v], got, a, b, n);
        for (size_t i = 0; i < n; i++)
            CHECK_MSG(memcmp(&want[i], &got[i], sizeof got[i]) == 0,
                      "%s: variant %d differs at %zu: a = %s, b = %s (raw limbs, top first)", what,
                      variants[v], i, hex4(&a[i]).s, hex4(&b[i]).s);
    }
    cuzk_free(want);
}

CUZK_TEST(gpu_fr_mul_host)
{
    if (!cuzk__test_fr_mul_host)
        test_skip("built without nvcc (CUDA=0): no host build of the device multiplications");
    enum { E = 32 };
    cuzk_fr_t e[E];
    const size_t ne = edge_values(e);
    CHECK(ne <= E);
    /* every pair of edge values, and each edge value against random ones */
    const size_t nr = test_iters(1) * 100000, n = ne * ne + 2 * ne * 64 + nr;
    cuzk_fr_t *a = cuzk_alloc_array(2 * n, sizeof *a), *b = a + n;
    CHECK(a != NULL);
    size_t k = 0;
    for (size_t i = 0; i < ne; i++)
        for (size_t j = 0; j < ne; j++, k++) {
            a[k] = e[i];
            b[k] = e[j];
        }
    for (size_t i = 0; i < ne; i++)
        for (int j = 0; j < 64; j++, k += 2) {
            a[k] = b[k + 1] = e[i];
            test_rand_fr(&b[k]);
            test_rand_fr(&a[k + 1]);
        }
    const size_t nedge = k;
    for (; k < n; k++) {
        test_rand_fr(&a[k]);
        test_rand_fr(&b[k]);
    }
    check_all(a, b, nedge, "edge inputs");
    check_all(a + nedge, b + nedge, n - nedge, "random inputs");
    cuzk_free(a);
}

/* a + k r as a raw 256-bit value (no reduction; the caller keeps it below 2^256). */
static void add_kr(cuzk_fr_t *out, const cuzk_fr_t *a, int k)
{
    *out = *a;
    for (int t = 0; t < k; t++) {
        uint64_t carry = 0;
        for (int i = 0; i < 4; i++) {
            uint64_t s = out->l[i] + R_LIMBS[i];
            uint64_t c1 = s < R_LIMBS[i];
            out->l[i] = s + carry;
            carry = c1 | (out->l[i] < s);
        }
    }
}

/* fr_shoup.cuh: the companion (the plain w and ceil(w 2^256 / r)) at known points, and the
 * product for first factors in [r, 2^256) too, which the method allows (lazy inputs): a + r and
 * a + 2r, where they fit, give the product of a. The canonical-input cases are variant 6 of
 * gpu_fr_mul_host. */
CUZK_TEST(gpu_fr_shoup_host)
{
    if (!cuzk__test_fr_shoup_companion_host)
        test_skip("built without nvcc (CUDA=0): no host build of the device multiplications");
    cuzk_fr_t m, w, wq, want;
    /* w = 1 (m = R mod r): wq = ceil(2^256 / r) = 3 */
    cuzk_fr_set_one(&m);
    cuzk__test_fr_shoup_companion_host(&w, &wq, &m);
    CHECK(w.l[0] == 1 && !w.l[1] && !w.l[2] && !w.l[3]);
    CHECK(wq.l[0] == 3 && !wq.l[1] && !wq.l[2] && !wq.l[3]);
    /* w = 0: wq = 0 */
    cuzk_fr_set_zero(&m);
    cuzk__test_fr_shoup_companion_host(&w, &wq, &m);
    CHECK(!(w.l[0] | w.l[1] | w.l[2] | w.l[3]) && !(wq.l[0] | wq.l[1] | wq.l[2] | wq.l[3]));
    /* w = r - 1 (m = -R mod r): wq = ceil((r - 1) 2^256 / r) = 2^256 - floor(2^256 / r) */
    cuzk_fr_set_one(&m);
    cuzk_fr_neg(&m, &m);
    cuzk__test_fr_shoup_companion_host(&w, &wq, &m);
    CHECK(w.l[0] == R_LIMBS[0] - 1 && w.l[1] == R_LIMBS[1] && w.l[3] == R_LIMBS[3]);
    CHECK(wq.l[0] == ~(uint64_t)1 && wq.l[1] == ~(uint64_t)0 && wq.l[2] == ~(uint64_t)0 &&
          wq.l[3] == ~(uint64_t)0);

    enum { E = 32 };
    cuzk_fr_t e[E];
    const size_t ne = edge_values(e), nr = test_iters(1) * 20000, n = 2 * (ne * ne + nr) + 1;
    cuzk_fr_t *a = cuzk_alloc_array(4 * n, sizeof *a), *b = a + n, *got = b + n, *exp = got + n;
    CHECK(a != NULL);
    size_t k = 0;
    for (size_t i = 0; i < ne + nr; i++) {
        cuzk_fr_t x, y;
        if (i < ne) {
            x = e[i];
        } else {
            test_rand_fr(&x);
        }
        for (size_t j = 0; j < (i < ne ? ne : 1); j++) {
            if (i < ne)
                y = e[j];
            else
                test_rand_fr(&y);
            cuzk_fr_mul(&want, &x, &y);
            /* a + r always fits (r < 2^255); a + 2r when a < 2^256 - 2r */
            for (int kr = 1; kr <= 2 && k < n; kr++) {
                if (kr == 2 && x.l[3] >= 0x1824b159acc5056fULL) /* 2^256 - 2r's top limb */
                    continue;
                add_kr(&a[k], &x, kr);
                b[k] = y;
                exp[k++] = want;
            }
        }
    }
    /* the top of the range: 2^256 - 1 = (2^256 - 1) mod r + 2r */
    for (int i = 0; i < 4; i++)
        a[k].l[i] = ~(uint64_t)0;
    test_rand_fr(&b[k]);
    {
        /* (2^256 - 1) - 2r, below r */
        const cuzk_fr_t top = {{0x00000001fffffffdULL, 0x5884b7fa00034802ULL, 0x998c4fefecbc4ff5ULL,
                                0x1824b159acc5056fULL}};
        cuzk_fr_mul(&exp[k], &top, &b[k]);
        k++;
    }
    cuzk__test_fr_mul_host(6, got, a, b, k);
    for (size_t i = 0; i < k; i++)
        CHECK_MSG(memcmp(&exp[i], &got[i], sizeof got[i]) == 0,
                  "shoup, lazy first factor: differs at %zu: a = %s, b = %s (raw limbs, top first)",
                  i, hex4(&a[i]).s, hex4(&b[i]).s);
    cuzk_free(a);
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Shared harness of the GMP field tests (test_field_gmp.c, test_field_gmp_more.c): a field
 * behind one interface so that Fp and Fr share every check, GMP reference values, edge values. */
#ifndef CUZK_TEST_FIELD_GMP_UTIL_H
#define CUZK_TEST_FIELD_GMP_UTIL_H

/* Each including test file uses a subset of these helpers. */
#pragma GCC diagnostic ignored "-Wunused-function"

#include "test.h"
#include "cuzk/field.h"

#include <gmp.h>

/* Pow-based operations (pow, inv, legendre, sqrt; Fp2 inv, sqrt, frobenius) cost ~600
 * multiplications each, and inv_vartime's binary Euclid is as slow under UBSan. With ASan + UBSan
 * at -O1 the field tests would take ~30 s on an idle 2-core machine at full count, so the
 * sanitizer build runs a quarter of those (~11 s idle); the normal build keeps >= 10,000 per
 * operation (2,000 for Fp2). */
#if defined(__SANITIZE_ADDRESS__)
#define HEAVY_DIV 4
#else
#define HEAVY_DIV 1
#endif

#define P_HEX                                                                                      \
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffff" \
    "aaab"
#define R_HEX "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001"
#define FP_MONT_R_HEX                                                                              \
    "15f65ec3fa80e4935c071a97a256ec6d77ce5853705257455f48985753c758baebf4000bc40c0002760900000002" \
    "fffd"
#define FR_MONT_R_HEX "1824b159acc5056f998c4fefecbc4ff55884b7fa0003480200000001fffffffe"
#define FR_ROOT_HEX "16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b"

/* ---- a field behind one interface, so Fp and Fr share every check ------------------------ */

typedef union {
    cuzk_fp_t fp;
    cuzk_fr_t fr;
    uint64_t l[CUZK_FP_LIMBS];
} elem;

typedef struct {
    const char *name;
    size_t n;          /* limbs */
    size_t nbytes;     /* serialised size */
    bool be;           /* big-endian bytes (Fp) or little-endian (Fr) */
    const char *m_hex; /* modulus */
    const char *mont_r_hex;
    void (*add)(elem *, const elem *, const elem *);
    void (*sub)(elem *, const elem *, const elem *);
    void (*mul)(elem *, const elem *, const elem *);
    void (*neg)(elem *, const elem *);
    void (*dbl)(elem *, const elem *);
    void (*sqr)(elem *, const elem *);
    void (*inv)(elem *, const elem *);
    void (*inv_vartime)(elem *, const elem *);
    void (*pow)(elem *, const elem *, const uint64_t *, size_t);
    void (*batch_inv)(elem *, const elem *, size_t);
    int (*legendre)(const elem *);
    bool (*sqrt)(elem *, const elem *);
    bool (*from_canonical)(elem *, const uint64_t *);
    void (*to_canonical)(uint64_t *, const elem *);
    cuzk_status (*from_bytes)(elem *, const uint8_t *);
    void (*to_bytes)(uint8_t *, const elem *);
    void (*cmov)(elem *, const elem *, bool);
    void (*set_u64)(elem *, uint64_t);
} field;

#define BATCH_MAX 64

#define WRAP_FIELD(F)                                                                              \
    static void F##_add_w(elem *o, const elem *a, const elem *b)                                   \
    {                                                                                              \
        cuzk_##F##_add(&o->F, &a->F, &b->F);                                                       \
    }                                                                                              \
    static void F##_sub_w(elem *o, const elem *a, const elem *b)                                   \
    {                                                                                              \
        cuzk_##F##_sub(&o->F, &a->F, &b->F);                                                       \
    }                                                                                              \
    static void F##_mul_w(elem *o, const elem *a, const elem *b)                                   \
    {                                                                                              \
        cuzk_##F##_mul(&o->F, &a->F, &b->F);                                                       \
    }                                                                                              \
    static void F##_neg_w(elem *o, const elem *a)                                                  \
    {                                                                                              \
        cuzk_##F##_neg(&o->F, &a->F);                                                              \
    }                                                                                              \
    static void F##_dbl_w(elem *o, const elem *a)                                                  \
    {                                                                                              \
        cuzk_##F##_dbl(&o->F, &a->F);                                                              \
    }                                                                                              \
    static void F##_sqr_w(elem *o, const elem *a)                                                  \
    {                                                                                              \
        cuzk_##F##_sqr(&o->F, &a->F);                                                              \
    }                                                                                              \
    static void F##_inv_w(elem *o, const elem *a)                                                  \
    {                                                                                              \
        cuzk_##F##_inv(&o->F, &a->F);                                                              \
    }                                                                                              \
    static void F##_inv_vartime_w(elem *o, const elem *a)                                          \
    {                                                                                              \
        cuzk_##F##_inv_vartime(&o->F, &a->F);                                                      \
    }                                                                                              \
    static void F##_pow_w(elem *o, const elem *a, const uint64_t *e, size_t n)                     \
    {                                                                                              \
        cuzk_##F##_pow(&o->F, &a->F, e, n);                                                        \
    }                                                                                              \
    /* Copies through arrays of the real type (elem is wider than cuzk_fr_t). */                   \
    static void F##_batch_inv_w(elem *o, const elem *in, size_t n)                                 \
    {                                                                                              \
        cuzk_##F##_t x[BATCH_MAX], y[BATCH_MAX];                                                   \
        memset(x, 0, sizeof x); /* silences -Wmaybe-uninitialized on the unused tail */            \
        for (size_t i = 0; i < n; i++) {                                                           \
            x[i] = in[i].F;                                                                        \
            y[i] = o[i].F;                                                                         \
        }                                                                                          \
        cuzk_##F##_batch_inv(y, x, n);                                                             \
        for (size_t i = 0; i < n; i++)                                                             \
            o[i].F = y[i];                                                                         \
    }                                                                                              \
    static int F##_legendre_w(const elem *a)                                                       \
    {                                                                                              \
        return cuzk_##F##_legendre(&a->F);                                                         \
    }                                                                                              \
    static bool F##_sqrt_w(elem *o, const elem *a)                                                 \
    {                                                                                              \
        return cuzk_##F##_sqrt(&o->F, &a->F);                                                      \
    }                                                                                              \
    static bool F##_from_canonical_w(elem *o, const uint64_t *in)                                  \
    {                                                                                              \
        return cuzk_##F##_from_canonical(&o->F, in);                                               \
    }                                                                                              \
    static void F##_to_canonical_w(uint64_t *o, const elem *a)                                     \
    {                                                                                              \
        cuzk_##F##_to_canonical(o, &a->F);                                                         \
    }                                                                                              \
    static void F##_cmov_w(elem *o, const elem *a, bool flag)                                      \
    {                                                                                              \
        cuzk_##F##_cmov(&o->F, &a->F, flag);                                                       \
    }                                                                                              \
    static void F##_set_u64_w(elem *o, uint64_t v)                                                 \
    {                                                                                              \
        cuzk_##F##_set_u64(&o->F, v);                                                              \
    }

WRAP_FIELD(fp)
WRAP_FIELD(fr)

static cuzk_status fp_from_bytes_w(elem *o, const uint8_t *in)
{
    return cuzk_fp_from_bytes_be(&o->fp, in);
}
static void fp_to_bytes_w(uint8_t *o, const elem *a)
{
    cuzk_fp_to_bytes_be(o, &a->fp);
}
static cuzk_status fr_from_bytes_w(elem *o, const uint8_t *in)
{
    return cuzk_fr_from_bytes_le(&o->fr, in);
}
static void fr_to_bytes_w(uint8_t *o, const elem *a)
{
    cuzk_fr_to_bytes_le(o, &a->fr);
}

#define FIELD_OPS(F)                                                                               \
    .add = F##_add_w, .sub = F##_sub_w, .mul = F##_mul_w, .neg = F##_neg_w, .dbl = F##_dbl_w,      \
    .sqr = F##_sqr_w, .inv = F##_inv_w, .inv_vartime = F##_inv_vartime_w, .pow = F##_pow_w,        \
    .batch_inv = F##_batch_inv_w, .legendre = F##_legendre_w, .sqrt = F##_sqrt_w,                  \
    .from_canonical = F##_from_canonical_w, .to_canonical = F##_to_canonical_w,                    \
    .from_bytes = F##_from_bytes_w, .to_bytes = F##_to_bytes_w, .cmov = F##_cmov_w,                \
    .set_u64 = F##_set_u64_w

static const field FP = {.name = "fp",
                         .n = 6,
                         .nbytes = 48,
                         .be = true,
                         .m_hex = P_HEX,
                         .mont_r_hex = FP_MONT_R_HEX,
                         FIELD_OPS(fp)};
static const field FR = {.name = "fr",
                         .n = 4,
                         .nbytes = 32,
                         .be = false,
                         .m_hex = R_HEX,
                         .mont_r_hex = FR_MONT_R_HEX,
                         FIELD_OPS(fr)};

/* ---- per-test context: modulus, R, edge values, GMP scratch ------------------------------- */

#define MAX_EDGES 32

typedef struct {
    const field *f;
    mpz_t m, r, half; /* modulus, R = 2^(64n) mod m, (m-1)/2 */
    mpz_t edge[MAX_EDGES];
    size_t nedge;
    mpz_t t0, t1, want, in0, in1; /* scratch; in0/in1 are printed on failure */
    const char *op;
    unsigned long it;
} ctx;

static void ctx_add_edge(ctx *c, const mpz_t v)
{
    CHECK(c->nedge < MAX_EDGES);
    CHECK(mpz_sgn(v) >= 0 && mpz_cmp(v, c->m) < 0);
    mpz_init_set(c->edge[c->nedge++], v);
}

static void ctx_init(ctx *c, const field *f)
{
    memset(c, 0, sizeof *c);
    c->f = f;
    mpz_inits(c->m, c->r, c->half, c->t0, c->t1, c->want, c->in0, c->in1, NULL);
    CHECK(mpz_set_str(c->m, f->m_hex, 16) == 0);
    mpz_ui_pow_ui(c->r, 2, 64 * f->n);
    mpz_mod(c->r, c->r, c->m);
    mpz_sub_ui(c->half, c->m, 1);
    mpz_fdiv_q_2exp(c->half, c->half, 1);

    mpz_t v;
    mpz_init(v);
    for (unsigned k = 0; k <= 2; k++) {
        mpz_set_ui(v, k); /* 0, 1, 2 */
        ctx_add_edge(c, v);
    }
    for (unsigned k = 1; k <= 2; k++) {
        mpz_sub_ui(v, c->m, k); /* m-1, m-2 */
        ctx_add_edge(c, v);
    }
    ctx_add_edge(c, c->half);  /* (m-1)/2 */
    mpz_add_ui(v, c->half, 1); /* (m+1)/2 */
    ctx_add_edge(c, v);
    for (size_t k = 1; k < f->n; k++) { /* 2^64-1, 2^128-1, ...: all-ones limbs below m */
        mpz_ui_pow_ui(v, 2, 64 * k);
        mpz_sub_ui(v, v, 1);
        ctx_add_edge(c, v);
    }
    /* Top limb of m minus one over all-ones lower limbs: the largest all-ones pattern < m. */
    mpz_fdiv_q_2exp(v, c->m, 64 * (f->n - 1));
    mpz_sub_ui(v, v, 1);
    mpz_mul_2exp(v, v, 64 * (f->n - 1));
    mpz_t ones;
    mpz_init(ones);
    mpz_ui_pow_ui(ones, 2, 64 * (f->n - 1));
    mpz_sub_ui(ones, ones, 1);
    mpz_add(v, v, ones);
    ctx_add_edge(c, v);
    mpz_clear(ones);
    ctx_add_edge(c, c->r); /* the Montgomery one's raw value */
    mpz_ui_pow_ui(v, 2, 64);
    mpz_sub(v, c->m, v); /* m - 2^64 */
    ctx_add_edge(c, v);
    mpz_ui_pow_ui(v, 2, mpz_sizeinbase(c->m, 2) - 1); /* the top bit of m alone */
    ctx_add_edge(c, v);
    mpz_set_ui(v, 3);
    ctx_add_edge(c, v);
    mpz_clear(v);
}

static void ctx_clear(ctx *c)
{
    for (size_t i = 0; i < c->nedge; i++)
        mpz_clear(c->edge[i]);
    mpz_clears(c->m, c->r, c->half, c->t0, c->t1, c->want, c->in0, c->in1, NULL);
}

static void z_to_limbs(uint64_t *out, size_t n, const mpz_t v)
{
    CHECK(mpz_sgn(v) >= 0 && mpz_sizeinbase(v, 2) <= 64 * n);
    size_t cnt = 0;
    memset(out, 0, n * sizeof *out);
    mpz_export(out, &cnt, -1, sizeof *out, 0, 0, v);
    CHECK(cnt <= n);
}

static void z_from_limbs(mpz_t out, const uint64_t *in, size_t n)
{
    mpz_import(out, n, -1, sizeof *in, 0, 0, in);
}

/* Uniform in [0, m): rejection sampling on the bit length of m. */
static void rand_below(mpz_t out, const mpz_t m)
{
    size_t bits = mpz_sizeinbase(m, 2), n = (bits + 63) / 64;
    uint64_t l[8];
    CHECK(n <= 8);
    do {
        test_rand_bytes(l, n * sizeof l[0]);
        if (bits % 64)
            l[n - 1] &= (1ULL << (bits % 64)) - 1;
        z_from_limbs(out, l, n);
    } while (mpz_cmp(out, m) >= 0);
}

/* An operand: an edge value one time in eight, otherwise uniformly random. */
static void pick(ctx *c, mpz_t out)
{
    if ((test_rand_u64() & 7) == 0)
        mpz_set(out, c->edge[test_rand_u64() % c->nedge]);
    else
        rand_below(out, c->m);
}

static void load(ctx *c, elem *e, const mpz_t v)
{
    uint64_t l[CUZK_FP_LIMBS];
    z_to_limbs(l, c->f->n, v);
    memset(e, 0, sizeof *e);
    CHECK(c->f->from_canonical(e, l));
}

static void fail_value(ctx *c, int line, const char *what, const mpz_t want, const mpz_t got)
{
    char *s = NULL;
    gmp_asprintf(&s,
                 "%s %s (iteration %lu): %s\n#   in0  = %#Zx\n#   in1  = %#Zx\n"
                 "#   want = %#Zx\n#   got  = %#Zx",
                 c->f->name, c->op, c->it, what, c->in0, c->in1, want, got);
    test_fail_at(__FILE__, line, "%s", s);
}

/* |got| holds the value |want| (0 <= want < m): canonical value and raw Montgomery limbs. */
static void expect_at(ctx *c, int line, const elem *got, const mpz_t want)
{
    uint64_t l[CUZK_FP_LIMBS];
    c->f->to_canonical(l, got);
    z_from_limbs(c->t0, l, c->f->n);
    if (mpz_cmp(c->t0, want) != 0)
        fail_value(c, line, "canonical value", want, c->t0);
    z_from_limbs(c->t0, got->l, c->f->n);
    mpz_mul(c->t1, want, c->r);
    mpz_mod(c->t1, c->t1, c->m);
    if (mpz_cmp(c->t0, c->t1) != 0)
        fail_value(c, line, "raw Montgomery limbs (want v*R mod m)", c->t1, c->t0);
}
#define EXPECT(c, got, want) expect_at((c), __LINE__, (got), (want))

static bool elem_eq(const ctx *c, const elem *a, const elem *b)
{
    return memcmp(a->l, b->l, c->f->n * sizeof a->l[0]) == 0;
}

/* ---- binary and unary operations ---------------------------------------------------------- */

typedef enum { OP_ADD, OP_SUB, OP_MUL } binop;
typedef enum { OP_NEG, OP_DBL, OP_SQR, OP_INV, OP_INV_VARTIME } unop;

static void ref_bin(ctx *c, binop op, mpz_t out, const mpz_t a, const mpz_t b)
{
    if (op == OP_ADD)
        mpz_add(out, a, b);
    else if (op == OP_SUB)
        mpz_sub(out, a, b);
    else
        mpz_mul(out, a, b);
    mpz_mod(out, out, c->m);
}

static void check_bin_one(ctx *c, binop op, const mpz_t a, const mpz_t b)
{
    void (*fn)(elem *, const elem *, const elem *) = op == OP_ADD   ? c->f->add
                                                     : op == OP_SUB ? c->f->sub
                                                                    : c->f->mul;
    elem ea, eb, out, x;
    mpz_set(c->in0, a);
    mpz_set(c->in1, b);
    load(c, &ea, a);
    load(c, &eb, b);
    ref_bin(c, op, c->want, a, b);
    memset(&out, 0xa5, sizeof out);
    fn(&out, &ea, &eb);
    EXPECT(c, &out, c->want);
    x = ea; /* out aliases a */
    fn(&x, &x, &eb);
    CHECK(elem_eq(c, &x, &out));
    x = eb; /* out aliases b */
    fn(&x, &ea, &x);
    CHECK(elem_eq(c, &x, &out));
    x = ea; /* everything aliased: a op a */
    fn(&x, &x, &x);
    ref_bin(c, op, c->want, a, a);
    EXPECT(c, &x, c->want);
}

static void run_bin(const field *f, binop op, const char *name)
{
    ctx c;
    ctx_init(&c, f);
    c.op = name;
    mpz_t a, b;
    mpz_inits(a, b, NULL);
    for (size_t i = 0; i < c.nedge; i++)
        for (size_t j = 0; j < c.nedge; j++)
            check_bin_one(&c, op, c.edge[i], c.edge[j]);
    for (c.it = 0; c.it < test_iters(10000); c.it++) {
        pick(&c, a);
        pick(&c, b);
        check_bin_one(&c, op, a, b);
    }
    mpz_clears(a, b, NULL);
    ctx_clear(&c);
}

static void run_un(const field *f, unop op, const char *name, unsigned long iters)
{
    void (*fn)(elem *, const elem *) = op == OP_NEG   ? f->neg
                                       : op == OP_DBL ? f->dbl
                                       : op == OP_SQR ? f->sqr
                                       : op == OP_INV ? f->inv
                                                      : f->inv_vartime;
    ctx c;
    ctx_init(&c, f);
    c.op = name;
    mpz_t a;
    mpz_init(a);
    mpz_set_ui(c.in1, 0);
    for (c.it = 0; c.it < iters + c.nedge; c.it++) {
        if (c.it < c.nedge)
            mpz_set(a, c.edge[c.it]);
        else
            pick(&c, a);
        mpz_set(c.in0, a);
        switch (op) {
        case OP_NEG:
            mpz_neg(c.want, a);
            break;
        case OP_DBL:
            mpz_mul_2exp(c.want, a, 1);
            break;
        case OP_SQR:
            mpz_mul(c.want, a, a);
            break;
        default:
            /* 1/0 is defined as 0 by the API. */
            if (!mpz_invert(c.want, a, c.m))
                mpz_set_ui(c.want, 0);
            break;
        }
        mpz_mod(c.want, c.want, c.m);
        elem ea, out;
        load(&c, &ea, a);
        memset(&out, 0xa5, sizeof out);
        fn(&out, &ea);
        EXPECT(&c, &out, c.want);
        fn(&ea, &ea); /* aliased */
        CHECK(elem_eq(&c, &ea, &out));
    }
    mpz_clear(a);
    ctx_clear(&c);
}


#endif

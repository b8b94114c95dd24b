/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Fp, Fr and Fp2 checked against GMP, an independent big-integer oracle (STYLE.md section 8).
 *
 * Every operation of include/cuzk/field.h runs on >= 10,000 fresh inputs by default
 * (test_iters(10000), so --iters / CUZK_TEST_ITERS scale it), Fp2 on >= 2,000. Inputs are
 * uniformly random canonical values with edge values (0, 1, 2, m-1, m-2, (m-1)/2, (m+1)/2,
 * 2^64-1, all-ones limbs below m, ...) mixed in, and every pair of edge values for binary ops.
 * All randomness comes from test_rand_*, so the printed seed replays a run.
 *
 * Values cross between cuzk and GMP only through cuzk_*_to_canonical / cuzk_*_from_canonical
 * and mpz_import / mpz_export (64-bit words, least significant first). Results are checked
 * twice: the canonical value against GMP, and the raw Montgomery limbs against v * R mod m
 * (R = 2^384 or 2^256 computed by GMP), which also proves every output is fully reduced.
 * The moduli and R come from the published hex constants (facts/formats.md section 1), not from
 * the library.
 */
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

CUZK_TEST(field_gmp_fp_add)
{
    run_bin(&FP, OP_ADD, "add");
}
CUZK_TEST(field_gmp_fp_sub)
{
    run_bin(&FP, OP_SUB, "sub");
}
CUZK_TEST(field_gmp_fp_mul)
{
    run_bin(&FP, OP_MUL, "mul");
}
CUZK_TEST(field_gmp_fp_neg)
{
    run_un(&FP, OP_NEG, "neg", test_iters(10000));
}
CUZK_TEST(field_gmp_fp_dbl)
{
    run_un(&FP, OP_DBL, "dbl", test_iters(10000));
}
CUZK_TEST(field_gmp_fp_sqr)
{
    run_un(&FP, OP_SQR, "sqr", test_iters(10000));
}
CUZK_TEST(field_gmp_fp_inv)
{
    run_un(&FP, OP_INV, "inv", test_iters(10000) / HEAVY_DIV);
}
CUZK_TEST(field_gmp_fp_inv_vartime)
{
    run_un(&FP, OP_INV_VARTIME, "inv_vartime", test_iters(10000) / HEAVY_DIV);
}
CUZK_TEST(field_gmp_fr_add)
{
    run_bin(&FR, OP_ADD, "add");
}
CUZK_TEST(field_gmp_fr_sub)
{
    run_bin(&FR, OP_SUB, "sub");
}
CUZK_TEST(field_gmp_fr_mul)
{
    run_bin(&FR, OP_MUL, "mul");
}
CUZK_TEST(field_gmp_fr_neg)
{
    run_un(&FR, OP_NEG, "neg", test_iters(10000));
}
CUZK_TEST(field_gmp_fr_dbl)
{
    run_un(&FR, OP_DBL, "dbl", test_iters(10000));
}
CUZK_TEST(field_gmp_fr_sqr)
{
    run_un(&FR, OP_SQR, "sqr", test_iters(10000));
}
CUZK_TEST(field_gmp_fr_inv)
{
    run_un(&FR, OP_INV, "inv", test_iters(10000) / HEAVY_DIV);
}
CUZK_TEST(field_gmp_fr_inv_vartime)
{
    run_un(&FR, OP_INV_VARTIME, "inv_vartime", test_iters(10000) / HEAVY_DIV);
}

/* ---- pow, batch inversion, legendre, sqrt ------------------------------------------------- */

static void run_pow(const field *f)
{
    ctx c;
    ctx_init(&c, f);
    c.op = "pow";
    mpz_t a, e;
    mpz_inits(a, e, NULL);
    unsigned long iters = test_iters(10000) / HEAVY_DIV;
    for (c.it = 0; c.it < iters + c.nedge; c.it++) {
        uint64_t el[6] = {0};
        size_t ne = 1 + test_rand_u64() % 6;
        test_rand_bytes(el, ne * sizeof el[0]);
        switch (test_rand_u64() % 8) {
        case 0: /* tiny exponents: 0, 1, 2, 3 */
            memset(el, 0, sizeof el);
            el[0] = test_rand_u64() % 4;
            break;
        case 1: /* m - 1 and m - 2 (Fermat) */
            mpz_sub_ui(e, c.m, 1 + (test_rand_u64() & 1));
            z_to_limbs(el, f->n, e);
            ne = f->n;
            break;
        default:
            break;
        }
        z_from_limbs(e, el, ne);
        if (c.it < c.nedge)
            mpz_set(a, c.edge[c.it]);
        else
            pick(&c, a);
        mpz_set(c.in0, a);
        mpz_set(c.in1, e);
        mpz_powm(c.want, a, e, c.m); /* 0^0 = 1 in both */
        elem ea, out;
        load(&c, &ea, a);
        memset(&out, 0xa5, sizeof out);
        f->pow(&out, &ea, el, ne);
        EXPECT(&c, &out, c.want);
        f->pow(&ea, &ea, el, ne);
        CHECK(elem_eq(&c, &ea, &out));
    }
    mpz_clears(a, e, NULL);
    ctx_clear(&c);
}

CUZK_TEST(field_gmp_fp_pow)
{
    run_pow(&FP);
}
CUZK_TEST(field_gmp_fr_pow)
{
    run_pow(&FR);
}

static void run_batch_inv(const field *f)
{
    ctx c;
    ctx_init(&c, f);
    c.op = "batch_inv";
    elem in[BATCH_MAX], copy[BATCH_MAX], out[BATCH_MAX];
    mpz_t v[BATCH_MAX];
    for (size_t i = 0; i < BATCH_MAX; i++)
        mpz_init(v[i]);
    /* n = 0 must touch nothing. */
    memset(out, 0xa5, sizeof out);
    memcpy(copy, out, sizeof out);
    f->batch_inv(out, in, 0);
    CHECK(memcmp(out, copy, sizeof out) == 0);
    unsigned long total = 0;
    for (c.it = 0; total < test_iters(10000); c.it++) {
        size_t n = 1 + test_rand_u64() % BATCH_MAX;
        unsigned zero_odds = (unsigned)(test_rand_u64() % 4); /* 0: no zeros ... 3: many */
        for (size_t i = 0; i < n; i++) {
            if (zero_odds && test_rand_u64() % 8 < zero_odds)
                mpz_set_ui(v[i], 0);
            else
                pick(&c, v[i]);
            load(&c, &in[i], v[i]);
        }
        memcpy(copy, in, sizeof in);
        memset(out, 0xa5, sizeof out);
        f->batch_inv(out, in, n);
        CHECK(memcmp(in, copy, n * sizeof in[0]) == 0);
        for (size_t i = 0; i < n; i++) {
            mpz_set(c.in0, v[i]);
            mpz_set_ui(c.in1, i);
            if (!mpz_invert(c.want, v[i], c.m))
                mpz_set_ui(c.want, 0); /* zeros map to zeros */
            EXPECT(&c, &out[i], c.want);
        }
        total += n;
    }
    for (size_t i = 0; i < BATCH_MAX; i++)
        mpz_clear(v[i]);
    ctx_clear(&c);
}

CUZK_TEST(field_gmp_fp_batch_inv)
{
    run_batch_inv(&FP);
}
CUZK_TEST(field_gmp_fr_batch_inv)
{
    run_batch_inv(&FR);
}

static void run_legendre(const field *f)
{
    ctx c;
    ctx_init(&c, f);
    c.op = "legendre";
    mpz_t a;
    mpz_init(a);
    unsigned long iters = test_iters(10000) / HEAVY_DIV;
    for (c.it = 0; c.it < iters + c.nedge; c.it++) {
        if (c.it < c.nedge)
            mpz_set(a, c.edge[c.it]);
        else
            pick(&c, a);
        elem ea;
        load(&c, &ea, a);
        int want = mpz_legendre(a, c.m), got = f->legendre(&ea);
        CHECK_MSG(want == got, "%s legendre(%s) = %d, GMP says %d", f->name,
                  mpz_get_str(NULL, 16, a), got, want);
    }
    mpz_clear(a);
    ctx_clear(&c);
}

CUZK_TEST(field_gmp_fp_legendre)
{
    run_legendre(&FP);
}
CUZK_TEST(field_gmp_fr_legendre)
{
    run_legendre(&FR);
}

static void run_sqrt(const field *f)
{
    ctx c;
    ctx_init(&c, f);
    c.op = "sqrt";
    mpz_t a, q, root;
    mpz_inits(a, q, root, NULL);
    /* Fp documents which root it returns: a^((p+1)/4). */
    mpz_add_ui(q, c.m, 1);
    mpz_fdiv_q_2exp(q, q, 2);
    unsigned long iters = test_iters(10000) / HEAVY_DIV, squares = 0, non_squares = 0;
    for (c.it = 0; c.it < iters + c.nedge; c.it++) {
        if (c.it < c.nedge)
            mpz_set(a, c.edge[c.it]);
        else
            pick(&c, a);
        mpz_set(c.in0, a);
        elem ea, out, poison;
        load(&c, &ea, a);
        memset(&poison, 0xa5, sizeof poison);
        out = poison;
        bool ok = f->sqrt(&out, &ea);
        if (mpz_legendre(a, c.m) == -1) {
            CHECK_MSG(!ok, "%s sqrt claims a root of a non-residue (iteration %lu)", f->name, c.it);
            CHECK(memcmp(&out, &poison, sizeof out) == 0); /* out unchanged */
            non_squares++;
            continue;
        }
        CHECK_MSG(ok, "%s sqrt found no root of a residue (iteration %lu)", f->name, c.it);
        squares++;
        uint64_t l[CUZK_FP_LIMBS];
        f->to_canonical(l, &out);
        z_from_limbs(root, l, f->n);
        mpz_set(c.in1, root);
        mpz_mul(c.want, root, root);
        mpz_mod(c.want, c.want, c.m);
        if (mpz_cmp(c.want, a) != 0)
            fail_value(&c, __LINE__, "root squared differs from the input", a, c.want);
        EXPECT(&c, &out, root); /* the raw limbs are root*R mod m: fully reduced */
        if (f == &FP) {
            mpz_powm(c.want, a, q, c.m);
            EXPECT(&c, &out, c.want);
        }
        elem x = ea; /* aliased */
        CHECK(f->sqrt(&x, &x));
        CHECK(elem_eq(&c, &x, &out));
    }
    /* Random inputs are squares half the time; make sure both branches ran. */
    CHECK(squares > iters / 4 && non_squares > iters / 4);
    mpz_clears(a, q, root, NULL);
    ctx_clear(&c);
}

CUZK_TEST(field_gmp_fp_sqrt)
{
    run_sqrt(&FP);
}
CUZK_TEST(field_gmp_fr_sqrt)
{
    run_sqrt(&FR);
}

/* ---- encodings, canonical form, rejection ------------------------------------------------- */

/* Serialise |v| the way the field's byte format says, independently of the library. */
static void ref_bytes(const ctx *c, uint8_t *out, const mpz_t v)
{
    size_t cnt = 0, nb = c->f->nbytes;
    uint8_t tmp[64];
    CHECK(mpz_sizeinbase(v, 256) <= nb);
    memset(tmp, 0, sizeof tmp);
    mpz_export(tmp, &cnt, -1, 1, 0, 0, v); /* least significant byte first */
    for (size_t i = 0; i < nb; i++)
        out[i] = c->f->be ? tmp[nb - 1 - i] : tmp[i];
}

static void run_bytes(const field *f)
{
    ctx c;
    ctx_init(&c, f);
    c.op = "from/to bytes";
    mpz_t a;
    mpz_init(a);
    for (c.it = 0; c.it < test_iters(10000) + c.nedge; c.it++) {
        if (c.it < c.nedge)
            mpz_set(a, c.edge[c.it]);
        else
            pick(&c, a);
        mpz_set(c.in0, a);
        uint8_t want[48], got[48];
        ref_bytes(&c, want, a);
        elem e, viac;
        memset(&e, 0xa5, sizeof e);
        CHECK(f->from_bytes(&e, want) == CUZK_OK);
        EXPECT(&c, &e, a);
        load(&c, &viac, a);
        CHECK(elem_eq(&c, &e, &viac));
        memset(got, 0x5a, sizeof got);
        f->to_bytes(got, &e);
        CHECK(memcmp(got, want, f->nbytes) == 0);
        if (f->nbytes < sizeof got)
            CHECK(got[f->nbytes] == 0x5a); /* no overrun */
    }
    mpz_clear(a);
    ctx_clear(&c);
}

CUZK_TEST(field_gmp_fp_bytes)
{
    run_bytes(&FP);
}
CUZK_TEST(field_gmp_fr_bytes)
{
    run_bytes(&FR);
}

static void run_canonical(const field *f)
{
    ctx c;
    ctx_init(&c, f);
    c.op = "from/to canonical";
    mpz_t a;
    mpz_init(a);
    for (c.it = 0; c.it < test_iters(10000) + c.nedge; c.it++) {
        if (c.it < c.nedge)
            mpz_set(a, c.edge[c.it]);
        else
            pick(&c, a);
        mpz_set(c.in0, a);
        uint64_t l[CUZK_FP_LIMBS], back[CUZK_FP_LIMBS];
        z_to_limbs(l, f->n, a);
        elem e;
        memset(&e, 0xa5, sizeof e);
        CHECK(f->from_canonical(&e, l));
        /* Raw limbs must be a*R mod m (EXPECT checks it), and to_canonical must invert. */
        EXPECT(&c, &e, a);
        f->to_canonical(back, &e);
        CHECK(memcmp(back, l, f->n * sizeof l[0]) == 0);
        /* to_canonical of a raw value built by GMP: (a*R mod m) -> a. */
        mpz_mul(c.t1, a, c.r);
        mpz_mod(c.t1, c.t1, c.m);
        elem raw;
        memset(&raw, 0, sizeof raw);
        z_to_limbs(raw.l, f->n, c.t1);
        f->to_canonical(back, &raw);
        z_from_limbs(c.t0, back, f->n);
        CHECK(mpz_cmp(c.t0, a) == 0);
    }
    mpz_clear(a);
    ctx_clear(&c);
}

CUZK_TEST(field_gmp_fp_canonical)
{
    run_canonical(&FP);
}
CUZK_TEST(field_gmp_fr_canonical)
{
    run_canonical(&FR);
}

/* |v| (>= m, < 2^(64n)) must be rejected by both entry points with the output untouched. */
static void expect_rejected(ctx *c, const mpz_t v)
{
    const field *f = c->f;
    uint64_t l[CUZK_FP_LIMBS];
    uint8_t b[48];
    z_to_limbs(l, f->n, v);
    ref_bytes(c, b, v);
    elem e, poison;
    memset(&poison, 0xa5, sizeof poison);
    e = poison;
    CHECK_MSG(!f->from_canonical(&e, l), "%s from_canonical accepted %s", f->name,
              mpz_get_str(NULL, 16, v));
    CHECK(memcmp(&e, &poison, sizeof e) == 0);
    cuzk_status s = f->from_bytes(&e, b);
    CHECK_MSG(s == CUZK_ERR_NOT_CANONICAL, "%s from_bytes of %s returned %s", f->name,
              mpz_get_str(NULL, 16, v), cuzk_status_name(s));
    CHECK(memcmp(&e, &poison, sizeof e) == 0);
}

static void run_reject(const field *f, unsigned named_bits)
{
    ctx c;
    ctx_init(&c, f);
    c.op = "reject";
    mpz_t v, top;
    mpz_inits(v, top, NULL);
    mpz_ui_pow_ui(top, 2, 64 * f->n); /* 2^(64n): one past the largest encodable value */
    mpz_set(v, c.m);                  /* m */
    expect_rejected(&c, v);
    mpz_add_ui(v, c.m, 1); /* m + 1 */
    expect_rejected(&c, v);
    mpz_ui_pow_ui(v, 2, named_bits); /* 2^381 - 1 (Fp), 2^256 - 1 (Fr) */
    mpz_sub_ui(v, v, 1);
    expect_rejected(&c, v);
    mpz_sub_ui(v, top, 1); /* all ones */
    expect_rejected(&c, v);
    mpz_mul_2exp(v, c.m, 1); /* 2m and 2m - 1, when they fit */
    if (mpz_cmp(v, top) < 0) {
        expect_rejected(&c, v);
        mpz_sub_ui(v, v, 1);
        expect_rejected(&c, v);
    }
    mpz_t span;
    mpz_init(span);
    mpz_sub(span, top, c.m);
    for (c.it = 0; c.it < test_iters(10000); c.it++) {
        if (c.it & 1) { /* just above m */
            mpz_set_ui(v, test_rand_u64() & 0xffff);
            mpz_add(v, v, c.m);
        } else { /* uniform in [m, 2^(64n)) */
            rand_below(v, span);
            mpz_add(v, v, c.m);
        }
        expect_rejected(&c, v);
    }
    mpz_clears(v, top, span, NULL);
    ctx_clear(&c);
}

CUZK_TEST(field_gmp_fp_reject_non_canonical)
{
    run_reject(&FP, 381);
}
CUZK_TEST(field_gmp_fr_reject_non_canonical)
{
    run_reject(&FR, 256);
}

/* ---- small predicates and helpers --------------------------------------------------------- */

CUZK_TEST(field_gmp_fp_lexicographically_largest)
{
    ctx c;
    ctx_init(&c, &FP);
    c.op = "is_lexicographically_largest";
    mpz_t a;
    mpz_init(a);
    for (c.it = 0; c.it < test_iters(10000) + c.nedge; c.it++) {
        if (c.it < c.nedge)
            mpz_set(a, c.edge[c.it]);
        else
            pick(&c, a);
        elem e;
        load(&c, &e, a);
        bool want = mpz_cmp(a, c.half) > 0;
        CHECK_MSG(cuzk_fp_is_lexicographically_largest(&e.fp) == want,
                  "is_lexicographically_largest(%s) != %d", mpz_get_str(NULL, 16, a), want);
    }
    mpz_clear(a);
    ctx_clear(&c);
}

static void run_cmov(const field *f)
{
    ctx c;
    ctx_init(&c, f);
    c.op = "cmov";
    mpz_t a, b;
    mpz_inits(a, b, NULL);
    for (c.it = 0; c.it < test_iters(10000); c.it++) {
        pick(&c, a);
        pick(&c, b);
        mpz_set(c.in0, a);
        mpz_set(c.in1, b);
        elem ea, eb;
        load(&c, &ea, a);
        load(&c, &eb, b);
        bool flag = test_rand_u64() & 1;
        f->cmov(&ea, &eb, flag);
        EXPECT(&c, &ea, flag ? b : a);
    }
    mpz_clears(a, b, NULL);
    ctx_clear(&c);
}

CUZK_TEST(field_gmp_fp_cmov)
{
    run_cmov(&FP);
}
CUZK_TEST(field_gmp_fr_cmov)
{
    run_cmov(&FR);
}

static void run_set_u64(const field *f)
{
    ctx c;
    ctx_init(&c, f);
    c.op = "set_u64";
    static const uint64_t fixed[] = {0,
                                     1,
                                     2,
                                     0xffffffffULL,
                                     1ULL << 32,
                                     1ULL << 63,
                                     0xffffffffffffffffULL,
                                     0xfffffffffffffffeULL};
    size_t nf = sizeof fixed / sizeof fixed[0];
    for (c.it = 0; c.it < test_iters(10000) + nf; c.it++) {
        uint64_t v = c.it < nf ? fixed[c.it] : test_rand_u64() >> (test_rand_u64() % 64);
        mpz_import(c.want, 1, -1, sizeof v, 0, 0, &v);
        mpz_set(c.in0, c.want);
        elem e;
        memset(&e, 0xa5, sizeof e);
        f->set_u64(&e, v);
        EXPECT(&c, &e, c.want);
    }
    ctx_clear(&c);
}

CUZK_TEST(field_gmp_fp_set_u64)
{
    run_set_u64(&FP);
}
CUZK_TEST(field_gmp_fr_set_u64)
{
    run_set_u64(&FR);
}

/* ---- Montgomery form and published constants ---------------------------------------------- */

static void run_montgomery_form(const field *f)
{
    ctx c;
    ctx_init(&c, f);
    c.op = "montgomery form";
    /* GMP's R = 2^(64n) mod m equals the published constant. */
    mpz_t pub;
    mpz_init_set_str(pub, f->mont_r_hex, 16);
    CHECK(mpz_cmp(pub, c.r) == 0);
    mpz_clear(pub);
    /* one: raw limbs = R mod m; zero: raw zero. */
    elem e;
    memset(&e, 0xa5, sizeof e);
    if (f == &FP)
        cuzk_fp_set_one(&e.fp);
    else
        cuzk_fr_set_one(&e.fr);
    z_from_limbs(c.t0, e.l, f->n);
    CHECK(mpz_cmp(c.t0, c.r) == 0);
    mpz_set_ui(c.want, 1);
    EXPECT(&c, &e, c.want);
    CHECK(f == &FP ? cuzk_fp_is_one(&e.fp) : cuzk_fr_is_one(&e.fr));
    memset(&e, 0xa5, sizeof e);
    if (f == &FP)
        cuzk_fp_set_zero(&e.fp);
    else
        cuzk_fr_set_zero(&e.fr);
    mpz_set_ui(c.want, 0);
    EXPECT(&c, &e, c.want);
    CHECK(f == &FP ? cuzk_fp_is_zero(&e.fp) : cuzk_fr_is_zero(&e.fr));
    /* A few elements: the raw limbs written by from_canonical are exactly a*R mod m. */
    for (c.it = 0; c.it < c.nedge + 64; c.it++) {
        mpz_t a;
        mpz_init(a);
        if (c.it < c.nedge)
            mpz_set(a, c.edge[c.it]);
        else
            rand_below(a, c.m);
        mpz_set(c.in0, a);
        load(&c, &e, a);
        mpz_mul(c.t1, a, c.r);
        mpz_mod(c.t1, c.t1, c.m);
        z_from_limbs(c.t0, e.l, f->n);
        if (mpz_cmp(c.t0, c.t1) != 0)
            fail_value(&c, __LINE__, "raw limbs", c.t1, c.t0);
        mpz_clear(a);
    }
    ctx_clear(&c);
}

CUZK_TEST(field_gmp_fp_montgomery_form)
{
    run_montgomery_form(&FP);
}
CUZK_TEST(field_gmp_fr_montgomery_form)
{
    run_montgomery_form(&FR);
}

CUZK_TEST(field_gmp_fr_root_of_unity)
{
    ctx c;
    ctx_init(&c, &FR);
    c.op = "root of unity";
    elem w;
    cuzk_fr_root_of_unity(&w.fr);
    /* Published value, and 7^((r-1)/2^32) by GMP. */
    mpz_set_str(c.want, FR_ROOT_HEX, 16);
    EXPECT(&c, &w, c.want);
    mpz_t t, seven;
    mpz_inits(t, seven, NULL);
    mpz_sub_ui(t, c.m, 1);
    CHECK(mpz_scan1(t, 0) == 32); /* two-adicity 32 */
    mpz_fdiv_q_2exp(t, t, 32);
    mpz_set_ui(seven, 7);
    mpz_powm(c.want, seven, t, c.m);
    EXPECT(&c, &w, c.want);
    /* Order exactly 2^32: w^(2^31) = -1, w^(2^32) = 1, by cuzk squarings. */
    elem x = w, one;
    for (int i = 0; i < 31; i++)
        cuzk_fr_sqr(&x.fr, &x.fr);
    mpz_sub_ui(c.want, c.m, 1);
    EXPECT(&c, &x, c.want);
    cuzk_fr_sqr(&x.fr, &x.fr);
    cuzk_fr_set_one(&one.fr);
    CHECK(cuzk_fr_eq(&x.fr, &one.fr));
    /* 7 (the coset generator) and 5 are non-residues, by GMP and by cuzk. */
    CHECK(mpz_legendre(seven, c.m) == -1);
    elem e7;
    cuzk_fr_set_u64(&e7.fr, 7);
    CHECK(cuzk_fr_legendre(&e7.fr) == -1);
    mpz_set_ui(t, 5);
    CHECK(mpz_legendre(t, c.m) == -1);
    cuzk_fr_set_u64(&e7.fr, 5);
    CHECK(cuzk_fr_legendre(&e7.fr) == -1);
    mpz_clears(t, seven, NULL);
    ctx_clear(&c);
}

/* ---- Fp2 against a GMP model of (a0 + a1 u) mod p, u^2 = -1 -------------------------------- */

typedef struct {
    mpz_t c0, c1;
} zfp2;

static void zfp2_init(zfp2 *z)
{
    mpz_inits(z->c0, z->c1, NULL);
}
static void zfp2_clear(zfp2 *z)
{
    mpz_clears(z->c0, z->c1, NULL);
}

/* o = a * b (o may alias a or b). */
static void zfp2_mul(const ctx *c, zfp2 *o, const zfp2 *a, const zfp2 *b)
{
    mpz_t r0, r1, t;
    mpz_inits(r0, r1, t, NULL);
    mpz_mul(r0, a->c0, b->c0);
    mpz_mul(t, a->c1, b->c1);
    mpz_sub(r0, r0, t);
    mpz_mul(r1, a->c0, b->c1);
    mpz_mul(t, a->c1, b->c0);
    mpz_add(r1, r1, t);
    mpz_mod(o->c0, r0, c->m);
    mpz_mod(o->c1, r1, c->m);
    mpz_clears(r0, r1, t, NULL);
}

static void zfp2_pow(const ctx *c, zfp2 *o, const zfp2 *a, const mpz_t e)
{
    zfp2 acc, base;
    zfp2_init(&acc);
    zfp2_init(&base);
    mpz_set_ui(acc.c0, 1);
    mpz_set(base.c0, a->c0);
    mpz_set(base.c1, a->c1);
    for (size_t i = mpz_sizeinbase(e, 2); i-- > 0;) {
        zfp2_mul(c, &acc, &acc, &acc);
        if (mpz_tstbit(e, i))
            zfp2_mul(c, &acc, &acc, &base);
    }
    mpz_set(o->c0, acc.c0);
    mpz_set(o->c1, acc.c1);
    zfp2_clear(&acc);
    zfp2_clear(&base);
}

static void fp2_load(ctx *c, cuzk_fp2_t *e, const zfp2 *z)
{
    elem t;
    load(c, &t, z->c0);
    e->c0 = t.fp;
    load(c, &t, z->c1);
    e->c1 = t.fp;
}

static void fp2_expect_at(ctx *c, int line, const cuzk_fp2_t *got, const zfp2 *want)
{
    elem t;
    t.fp = got->c0;
    expect_at(c, line, &t, want->c0);
    t.fp = got->c1;
    expect_at(c, line, &t, want->c1);
}
#define EXPECT2(c, got, want) fp2_expect_at((c), __LINE__, (got), (want))

static void fp2_pick(ctx *c, zfp2 *z)
{
    pick(c, z->c0);
    pick(c, z->c1);
    if ((test_rand_u64() & 15) == 0) /* pure Fp or pure imaginary elements */
        mpz_set_ui((test_rand_u64() & 1) ? z->c0 : z->c1, 0);
}

#define FP2_ITERS (test_iters(10000) / 5) /* 2,000 by default */

/* mul, sqr, mul_by_nonresidue, conj, add, sub, neg, dbl, mul_fp. */
CUZK_TEST(field_gmp_fp2_arith)
{
    ctx c;
    ctx_init(&c, &FP);
    c.op = "fp2 arith";
    zfp2 a, b, w, nr;
    zfp2_init(&a);
    zfp2_init(&b);
    zfp2_init(&w);
    zfp2_init(&nr);
    mpz_set_ui(nr.c0, 1);
    mpz_set_ui(nr.c1, 1);
    for (c.it = 0; c.it < FP2_ITERS; c.it++) {
        fp2_pick(&c, &a);
        fp2_pick(&c, &b);
        mpz_set(c.in0, a.c0);
        mpz_set(c.in1, a.c1);
        cuzk_fp2_t ea, eb, out, x;
        fp2_load(&c, &ea, &a);
        fp2_load(&c, &eb, &b);
        c.op = "fp2 mul";
        zfp2_mul(&c, &w, &a, &b);
        cuzk_fp2_mul(&out, &ea, &eb);
        EXPECT2(&c, &out, &w);
        x = ea;
        cuzk_fp2_mul(&x, &x, &eb);
        CHECK(cuzk_fp2_eq(&x, &out));
        x = eb;
        cuzk_fp2_mul(&x, &ea, &x);
        CHECK(cuzk_fp2_eq(&x, &out));
        c.op = "fp2 sqr";
        zfp2_mul(&c, &w, &a, &a);
        cuzk_fp2_sqr(&out, &ea);
        EXPECT2(&c, &out, &w);
        x = ea;
        cuzk_fp2_sqr(&x, &x);
        CHECK(cuzk_fp2_eq(&x, &out));
        c.op = "fp2 mul_by_nonresidue";
        zfp2_mul(&c, &w, &a, &nr);
        cuzk_fp2_mul_by_nonresidue(&out, &ea);
        EXPECT2(&c, &out, &w);
        x = ea;
        cuzk_fp2_mul_by_nonresidue(&x, &x);
        CHECK(cuzk_fp2_eq(&x, &out));
        c.op = "fp2 conj";
        mpz_set(w.c0, a.c0);
        mpz_neg(w.c1, a.c1);
        mpz_mod(w.c1, w.c1, c.m);
        cuzk_fp2_conj(&out, &ea);
        EXPECT2(&c, &out, &w);
        x = ea;
        cuzk_fp2_conj(&x, &x);
        CHECK(cuzk_fp2_eq(&x, &out));
        c.op = "fp2 add/sub";
        mpz_add(w.c0, a.c0, b.c0);
        mpz_add(w.c1, a.c1, b.c1);
        mpz_mod(w.c0, w.c0, c.m);
        mpz_mod(w.c1, w.c1, c.m);
        cuzk_fp2_add(&out, &ea, &eb);
        EXPECT2(&c, &out, &w);
        mpz_sub(w.c0, a.c0, b.c0);
        mpz_sub(w.c1, a.c1, b.c1);
        mpz_mod(w.c0, w.c0, c.m);
        mpz_mod(w.c1, w.c1, c.m);
        cuzk_fp2_sub(&out, &ea, &eb);
        EXPECT2(&c, &out, &w);
        c.op = "fp2 neg/dbl";
        mpz_neg(w.c0, a.c0);
        mpz_neg(w.c1, a.c1);
        mpz_mod(w.c0, w.c0, c.m);
        mpz_mod(w.c1, w.c1, c.m);
        cuzk_fp2_neg(&out, &ea);
        EXPECT2(&c, &out, &w);
        mpz_mul_2exp(w.c0, a.c0, 1);
        mpz_mul_2exp(w.c1, a.c1, 1);
        mpz_mod(w.c0, w.c0, c.m);
        mpz_mod(w.c1, w.c1, c.m);
        cuzk_fp2_dbl(&out, &ea);
        EXPECT2(&c, &out, &w);
        c.op = "fp2 mul_fp";
        mpz_mul(w.c0, a.c0, b.c0);
        mpz_mul(w.c1, a.c1, b.c0);
        mpz_mod(w.c0, w.c0, c.m);
        mpz_mod(w.c1, w.c1, c.m);
        cuzk_fp2_mul_fp(&out, &ea, &eb.c0);
        EXPECT2(&c, &out, &w);
        c.op = "fp2 is_lexicographically_largest";
        bool want = mpz_sgn(a.c1) ? mpz_cmp(a.c1, c.half) > 0 : mpz_cmp(a.c0, c.half) > 0;
        CHECK(cuzk_fp2_is_lexicographically_largest(&ea) == want);
    }
    zfp2_clear(&a);
    zfp2_clear(&b);
    zfp2_clear(&w);
    zfp2_clear(&nr);
    ctx_clear(&c);
}

CUZK_TEST(field_gmp_fp2_inv)
{
    ctx c;
    ctx_init(&c, &FP);
    c.op = "fp2 inv";
    zfp2 a, w;
    zfp2_init(&a);
    zfp2_init(&w);
    mpz_t nrm;
    mpz_init(nrm);
    unsigned long iters = FP2_ITERS / HEAVY_DIV;
    for (c.it = 0; c.it < iters + 1; c.it++) {
        if (c.it == 0) {
            mpz_set_ui(a.c0, 0); /* 1/0 = 0 */
            mpz_set_ui(a.c1, 0);
        } else {
            fp2_pick(&c, &a);
        }
        mpz_set(c.in0, a.c0);
        mpz_set(c.in1, a.c1);
        /* 1/(a0 + a1 u) = (a0 - a1 u) / (a0^2 + a1^2) */
        mpz_mul(nrm, a.c0, a.c0);
        mpz_addmul(nrm, a.c1, a.c1);
        if (!mpz_invert(nrm, nrm, c.m))
            mpz_set_ui(nrm, 0);
        mpz_mul(w.c0, a.c0, nrm);
        mpz_mul(w.c1, a.c1, nrm);
        mpz_neg(w.c1, w.c1);
        mpz_mod(w.c0, w.c0, c.m);
        mpz_mod(w.c1, w.c1, c.m);
        cuzk_fp2_t ea, out;
        fp2_load(&c, &ea, &a);
        cuzk_fp2_inv(&out, &ea);
        EXPECT2(&c, &out, &w);
        cuzk_fp2_inv_vartime(&out, &ea);
        EXPECT2(&c, &out, &w);
        cuzk_fp2_inv(&ea, &ea); /* aliased */
        EXPECT2(&c, &ea, &w);
    }
    mpz_clear(nrm);
    zfp2_clear(&a);
    zfp2_clear(&w);
    ctx_clear(&c);
}

CUZK_TEST(field_gmp_fp2_sqrt)
{
    ctx c;
    ctx_init(&c, &FP);
    c.op = "fp2 sqrt";
    zfp2 a, r, w;
    zfp2_init(&a);
    zfp2_init(&r);
    zfp2_init(&w);
    mpz_t nrm;
    mpz_init(nrm);
    unsigned long iters = FP2_ITERS / HEAVY_DIV, squares = 0, non_squares = 0;
    for (c.it = 0; c.it < iters; c.it++) {
        fp2_pick(&c, &a);
        if (c.it == 0) {
            mpz_set_ui(a.c0, 0);
            mpz_set_ui(a.c1, 0);
        } else if (c.it % 3 == 1) {
            /* A guaranteed square. */
            zfp2_mul(&c, &a, &a, &a);
        }
        mpz_set(c.in0, a.c0);
        mpz_set(c.in1, a.c1);
        /* a != 0 is a square in Fp2 iff its norm a0^2 + a1^2 is a square in Fp. */
        mpz_mul(nrm, a.c0, a.c0);
        mpz_addmul(nrm, a.c1, a.c1);
        mpz_mod(nrm, nrm, c.m);
        bool is_square = mpz_legendre(nrm, c.m) != -1;
        cuzk_fp2_t ea, out, poison;
        fp2_load(&c, &ea, &a);
        memset(&poison, 0xa5, sizeof poison);
        out = poison;
        bool ok = cuzk_fp2_sqrt(&out, &ea);
        CHECK_MSG(ok == is_square, "fp2 sqrt returned %d, square = %d (iteration %lu)", ok,
                  is_square, c.it);
        if (!ok) {
            CHECK(memcmp(&out, &poison, sizeof out) == 0);
            non_squares++;
            continue;
        }
        squares++;
        elem t;
        uint64_t l[6];
        t.fp = out.c0;
        cuzk_fp_to_canonical(l, &t.fp);
        z_from_limbs(r.c0, l, 6);
        t.fp = out.c1;
        cuzk_fp_to_canonical(l, &t.fp);
        z_from_limbs(r.c1, l, 6);
        EXPECT2(&c, &out, &r); /* canonical limbs */
        zfp2_mul(&c, &w, &r, &r);
        EXPECT2(&c, &ea, &w); /* root^2 == a */
    }
    CHECK(squares > iters / 4 && non_squares > iters / 8);
    mpz_clear(nrm);
    zfp2_clear(&a);
    zfp2_clear(&r);
    zfp2_clear(&w);
    ctx_clear(&c);
}

CUZK_TEST(field_gmp_fp2_frobenius)
{
    ctx c;
    ctx_init(&c, &FP);
    c.op = "fp2 frobenius";
    zfp2 a, w;
    zfp2_init(&a);
    zfp2_init(&w);
    unsigned long iters = FP2_ITERS / HEAVY_DIV;
    for (c.it = 0; c.it < iters; c.it++) {
        fp2_pick(&c, &a);
        unsigned k = (unsigned)(test_rand_u64() % 4);
        mpz_set(c.in0, a.c0);
        mpz_set(c.in1, a.c1);
        /* a^(p^k) by k powerings with exponent p in the GMP model. */
        mpz_set(w.c0, a.c0);
        mpz_set(w.c1, a.c1);
        for (unsigned j = 0; j < k; j++)
            zfp2_pow(&c, &w, &w, c.m);
        cuzk_fp2_t ea, out;
        fp2_load(&c, &ea, &a);
        cuzk_fp2_frobenius(&out, &ea, k);
        EXPECT2(&c, &out, &w);
        cuzk_fp2_frobenius(&ea, &ea, k); /* aliased */
        EXPECT2(&c, &ea, &w);
    }
    zfp2_clear(&a);
    zfp2_clear(&w);
    ctx_clear(&c);
}

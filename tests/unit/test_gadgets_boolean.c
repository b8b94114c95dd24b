/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Boolean gadgets, exhaustively: for every combination of operand kinds (constant false,
 * constant true, allocated bit, negated bit) the gadget is synthesised in KEYGEN mode and every
 * witness over {0, 1, 2} is tried; the witnesses that satisfy the R1CS must be exactly the
 * honest ones (one per assignment of the allocated inputs) and give the right output.
 */
#include "test_r1cs_util.h"

#include "gadgets/boolean.h"

typedef cuzk_status (*op_fn)(cuzk_cs *, cuzk_bool *, cuzk_bool, cuzk_bool, cuzk_bool);
typedef bool (*ref_fn)(bool, bool, bool);

static cuzk_status op_xor(cuzk_cs *cs, cuzk_bool *o, cuzk_bool a, cuzk_bool b, cuzk_bool c)
{
    (void)c;
    return cuzk_bool_xor(cs, o, a, b);
}
static cuzk_status op_and(cuzk_cs *cs, cuzk_bool *o, cuzk_bool a, cuzk_bool b, cuzk_bool c)
{
    (void)c;
    return cuzk_bool_and(cs, o, a, b);
}
static cuzk_status op_or(cuzk_cs *cs, cuzk_bool *o, cuzk_bool a, cuzk_bool b, cuzk_bool c)
{
    (void)c;
    return cuzk_bool_or(cs, o, a, b);
}
static cuzk_status op_ch(cuzk_cs *cs, cuzk_bool *o, cuzk_bool a, cuzk_bool b, cuzk_bool c)
{
    return cuzk_bool_sha256_ch(cs, o, a, b, c);
}
static cuzk_status op_maj(cuzk_cs *cs, cuzk_bool *o, cuzk_bool a, cuzk_bool b, cuzk_bool c)
{
    return cuzk_bool_sha256_maj(cs, o, a, b, c);
}
static bool r_xor(bool a, bool b, bool c)
{
    (void)c;
    return a ^ b;
}
static bool r_and(bool a, bool b, bool c)
{
    (void)c;
    return a & b;
}
static bool r_or(bool a, bool b, bool c)
{
    (void)c;
    return a | b;
}
static bool r_ch(bool a, bool b, bool c)
{
    return (a & b) ^ (!a & c);
}
static bool r_maj(bool a, bool b, bool c)
{
    return (a & b) ^ (a & c) ^ (b & c);
}

enum { K_F, K_T, K_IS, K_NOT };

static bool zbit(const cuzk_fr_t *z, size_t n_inputs, cuzk_bool b, bool *ok)
{
    if (b.kind == CUZK_BOOL_CONST)
        return b.value;
    cuzk_fr_t zero, one;
    cuzk_fr_set_zero(&zero);
    cuzk_fr_set_one(&one);
    const cuzk_fr_t *v = &z[n_inputs + cuzk_var_index(b.var)];
    bool bit = cuzk_fr_eq(v, &one);
    if (!bit && !cuzk_fr_eq(v, &zero))
        *ok = false;
    return b.kind == CUZK_BOOL_NOT ? !bit : bit;
}

static cuzk_bool make_operand(cuzk_cs *cs, int kind, bool value)
{
    cuzk_bool b;
    if (kind == K_F || kind == K_T)
        return cuzk_bool_const(kind == K_T);
    /* The allocated bit holds value (IS) or !value (NOT), so the view reads |value|. */
    CHECK_OK(cuzk_bit_alloc(cs, &b, kind == K_NOT ? !value : value));
    return kind == K_NOT ? cuzk_bool_not(b) : b;
}

static void exhaustive(const char *name, op_fn fn, ref_fn ref, unsigned arity)
{
    unsigned combos = 1;
    for (unsigned i = 0; i < arity; i++)
        combos *= 4;
    for (unsigned kc = 0; kc < combos; kc++) {
        int kinds[3] = {(int)(kc % 4), (int)(kc / 4 % 4), (int)(kc / 16 % 4)};
        /* 1. honest values in CHECK mode */
        unsigned nalloc = 0;
        for (unsigned i = 0; i < arity; i++)
            nalloc += kinds[i] >= K_IS;
        for (unsigned vals = 0; vals < 8; vals++) {
            cuzk_cs *cs = tu_cs(CUZK_CS_CHECK);
            cuzk_bool in[3] = {cuzk_bool_const(false), cuzk_bool_const(false),
                               cuzk_bool_const(false)};
            bool v[3] = {false, false, false};
            for (unsigned i = 0; i < arity; i++) {
                v[i] = kinds[i] == K_T || (kinds[i] >= K_IS && ((vals >> i) & 1));
                in[i] = make_operand(cs, kinds[i], v[i]);
            }
            cuzk_bool out;
            CHECK_OK(fn(cs, &out, in[0], in[1], in[2]));
            CHECK_MSG(out.value == ref(v[0], v[1], v[2]), "%s kinds %u values %u", name, kc, vals);
            CHECK_MSG(cuzk_cs_is_satisfied(cs, NULL, NULL), "%s kinds %u values %u unsat", name, kc,
                      vals);
            cuzk_cs_destroy(cs);
        }
        /* 2. every witness over {0,1,2} against the recorded matrices */
        cuzk_cs *cs = tu_cs(CUZK_CS_KEYGEN);
        cuzk_bool in[3] = {cuzk_bool_const(false), cuzk_bool_const(false), cuzk_bool_const(false)};
        for (unsigned i = 0; i < arity; i++)
            in[i] = make_operand(cs, kinds[i], kinds[i] == K_T);
        cuzk_bool out;
        CHECK_OK(fn(cs, &out, in[0], in[1], in[2]));
        CHECK_OK(cuzk_cs_finalize(cs));
        cuzk_r1cs_matrices m;
        CHECK_OK(cuzk_cs_take_matrices(cs, &m));
        cuzk_cs_destroy(cs);
        CHECK(m.n_aux <= 6);
        size_t total = 1;
        for (size_t i = 0; i < m.n_aux; i++)
            total *= 3;
        cuzk_fr_t z[8];
        cuzk_fr_set_one(&z[0]);
        unsigned sat = 0;
        for (size_t w = 0; w < total; w++) {
            size_t t = w;
            for (size_t i = 0; i < m.n_aux; i++, t /= 3)
                z[1 + i] = tu_fr(t % 3);
            if (tu_first_unsat(&m, z) != SIZE_MAX)
                continue;
            sat++;
            bool ok = true;
            bool iv[3];
            for (unsigned i = 0; i < 3; i++)
                iv[i] = zbit(z, 1, in[i], &ok);
            bool ov = zbit(z, 1, out, &ok);
            CHECK_MSG(ok, "%s kinds %u: non-boolean witness %zu satisfies", name, kc, w);
            CHECK_MSG(ov == ref(iv[0], iv[1], iv[2]), "%s kinds %u: wrong output accepted", name,
                      kc);
        }
        CHECK_MSG(sat == 1u << nalloc, "%s kinds %u: %u satisfying witnesses, want %u", name, kc,
                  sat, 1u << nalloc);
        cuzk_r1cs_matrices_free(&m);
    }
}

CUZK_TEST(gadgets_boolean_xor_exhaustive)
{
    exhaustive("xor", op_xor, r_xor, 2);
}

CUZK_TEST(gadgets_boolean_and_or_exhaustive)
{
    exhaustive("and", op_and, r_and, 2);
    exhaustive("or", op_or, r_or, 2);
}

CUZK_TEST(gadgets_boolean_ch_maj_exhaustive)
{
    exhaustive("ch", op_ch, r_ch, 3);
    exhaustive("maj", op_maj, r_maj, 3);
}

/* AllocatedBit primitives directly (including nor and and_not on their own) and
 * alloc_conditionally. */
typedef cuzk_status (*bit_fn)(cuzk_cs *, cuzk_bool *, cuzk_bool, cuzk_bool);

static void bit_table(bit_fn fn, ref_fn ref, const char *name)
{
    cuzk_cs *cs = tu_cs(CUZK_CS_KEYGEN);
    cuzk_bool a, b, c;
    CHECK_OK(cuzk_bit_alloc(cs, &a, false));
    CHECK_OK(cuzk_bit_alloc(cs, &b, false));
    CHECK_OK(fn(cs, &c, a, b));
    CHECK(cuzk_cs_num_constraints(cs) == 3);
    CHECK_OK(cuzk_cs_finalize(cs));
    cuzk_r1cs_matrices m;
    CHECK_OK(cuzk_cs_take_matrices(cs, &m));
    cuzk_cs_destroy(cs);
    const uint64_t vals[4] = {0, 1, 2, 5};
    unsigned sat = 0;
    for (int x = 0; x < 4; x++)
        for (int y = 0; y < 4; y++)
            for (int w = 0; w < 4; w++) {
                cuzk_fr_t z[4] = {tu_fr(1), tu_fr(vals[x]), tu_fr(vals[y]), tu_fr(vals[w])};
                bool want = x < 2 && y < 2 && w < 2 && (w == 1) == ref(x == 1, y == 1, false);
                bool got = tu_first_unsat(&m, z) == SIZE_MAX;
                CHECK_MSG(got == want, "%s a=%llu b=%llu c=%llu: satisfied=%d", name,
                          (unsigned long long)vals[x], (unsigned long long)vals[y],
                          (unsigned long long)vals[w], got);
                sat += got;
            }
    CHECK(sat == 4);
    cuzk_r1cs_matrices_free(&m);
}

static bool r_and_not(bool a, bool b, bool c)
{
    (void)c;
    return a & !b;
}
static bool r_nor(bool a, bool b, bool c)
{
    (void)c;
    return !a & !b;
}

CUZK_TEST(gadgets_bit_primitives_truth_tables)
{
    bit_table(cuzk_bit_xor, r_xor, "bit xor");
    bit_table(cuzk_bit_and, r_and, "bit and");
    bit_table(cuzk_bit_and_not, r_and_not, "bit and_not");
    bit_table(cuzk_bit_nor, r_nor, "bit nor");
    /* Values computed by the gadgets in PROVE mode. */
    for (int x = 0; x < 2; x++)
        for (int y = 0; y < 2; y++) {
            cuzk_cs *cs = tu_cs(CUZK_CS_CHECK);
            cuzk_bool a, b, r[4];
            CHECK_OK(cuzk_bit_alloc(cs, &a, x));
            CHECK_OK(cuzk_bit_alloc(cs, &b, y));
            CHECK_OK(cuzk_bit_xor(cs, &r[0], a, b));
            CHECK_OK(cuzk_bit_and(cs, &r[1], a, b));
            CHECK_OK(cuzk_bit_and_not(cs, &r[2], a, b));
            CHECK_OK(cuzk_bit_nor(cs, &r[3], a, b));
            CHECK(r[0].value == (x ^ y) && r[1].value == (x & y));
            CHECK(r[2].value == (x & !y) && r[3].value == (!x & !y));
            CHECK(cuzk_cs_is_satisfied(cs, NULL, NULL));
            cuzk_cs_destroy(cs);
        }
}

CUZK_TEST(gadgets_bit_alloc_and_conditionally)
{
    /* alloc: (1 - a) a = 0 holds for 0 and 1 only. */
    cuzk_cs *cs = tu_cs(CUZK_CS_KEYGEN);
    cuzk_bool a, f, c;
    CHECK_OK(cuzk_bit_alloc(cs, &a, false));
    CHECK_OK(cuzk_bit_alloc(cs, &f, false));
    CHECK_OK(cuzk_bit_alloc_conditionally(cs, &c, false, f));
    CHECK_OK(cuzk_cs_finalize(cs));
    cuzk_r1cs_matrices m;
    CHECK_OK(cuzk_cs_take_matrices(cs, &m));
    cuzk_cs_destroy(cs);
    const uint64_t vals[3] = {0, 1, 2};
    for (int x = 0; x < 3; x++)
        for (int y = 0; y < 3; y++)
            for (int w = 0; w < 3; w++) {
                cuzk_fr_t z[4] = {tu_fr(1), tu_fr(vals[x]), tu_fr(vals[y]), tu_fr(vals[w])};
                /* c may be 1 only when must_be_false is 0 */
                bool want = x < 2 && y < 2 && w < 2 && !(y == 1 && w == 1);
                CHECK_MSG((tu_first_unsat(&m, z) == SIZE_MAX) == want, "a=%d f=%d c=%d", x, y, w);
            }
    cuzk_r1cs_matrices_free(&m);
}

CUZK_TEST(gadgets_boolean_enforce_equal)
{
    for (unsigned kc = 0; kc < 16; kc++) {
        int ka = (int)(kc % 4), kb = (int)(kc / 4);
        for (unsigned vals = 0; vals < 4; vals++) {
            cuzk_cs *cs = tu_cs(CUZK_CS_CHECK);
            bool va = ka == K_T || (ka >= K_IS && (vals & 1));
            bool vb = kb == K_T || (kb >= K_IS && (vals & 2));
            cuzk_bool a = make_operand(cs, ka, va), b = make_operand(cs, kb, vb);
            cuzk_status s = cuzk_bool_enforce_equal(cs, a, b);
            if (ka < K_IS && kb < K_IS) {
                CHECK(s == (va == vb ? CUZK_OK : CUZK_ERR_INVALID_ARG));
            } else {
                CHECK_OK(s);
                CHECK_MSG(cuzk_cs_is_satisfied(cs, NULL, NULL) == (va == vb), "kinds %u vals %u",
                          kc, vals);
            }
            cuzk_cs_destroy(cs);
        }
    }
}

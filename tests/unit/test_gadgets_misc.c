/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* uint32 (xor, rotations, addmany + MultiEq batching), multipack, num. */
#include "test_r1cs_util.h"

#include "gadgets/multipack.h"
#include "gadgets/num.h"
#include "gadgets/uint32.h"

static uint32_t u32_bits_value(const cuzk_u32 *x)
{
    uint32_t v = 0;
    for (int i = 0; i < 32; i++)
        v |= (uint32_t)x->bits[i].value << i;
    return v;
}

/* An operand of kind 0 = constant, 1 = allocated, 2 = allocated then negated (NOT views). */
static void make_u32(cuzk_cs *cs, cuzk_u32 *out, uint32_t v, int kind)
{
    if (kind == 0) {
        cuzk_u32_constant(out, v);
        return;
    }
    if (kind == 1) {
        CHECK_OK(cuzk_u32_alloc(cs, out, v));
        return;
    }
    cuzk_u32 t, ones;
    CHECK_OK(cuzk_u32_alloc(cs, &t, ~v));
    cuzk_u32_constant(&ones, 0xffffffffu);
    CHECK_OK(cuzk_u32_xor(cs, out, &t, &ones)); /* constant true folds into NOT views */
    for (int i = 0; i < 32; i++)
        CHECK(out->bits[i].kind == CUZK_BOOL_NOT);
}

CUZK_TEST(gadgets_uint32_addmany)
{
    for (unsigned it = 0; it < test_iters(40); it++) {
        cuzk_cs *cs = tu_cs(CUZK_CS_CHECK);
        size_t n = 2 + (size_t)(test_rand_u64() % 9);
        cuzk_u32 ops[10];
        uint32_t want = 0;
        bool all_const = true;
        for (size_t k = 0; k < n; k++) {
            uint32_t v = (uint32_t)test_rand_u64();
            int kind = (int)(test_rand_u64() % 3);
            if (it % 8 == 0)
                kind = 0;
            all_const &= kind == 0;
            make_u32(cs, &ops[k], v, kind);
            want += v;
        }
        size_t before = cuzk_cs_num_constraints(cs);
        cuzk_multieq m;
        cuzk_multieq_init(&m, cs);
        cuzk_u32 r;
        CHECK_OK(cuzk_u32_addmany(cs, &m, &r, ops, n));
        CHECK_OK(cuzk_multieq_finish(&m));
        CHECK(r.value == want && u32_bits_value(&r) == want);
        unsigned nbits = 0;
        for (uint64_t mv = (uint64_t)n * UINT32_MAX; mv; mv >>= 1)
            nbits++;
        size_t added = cuzk_cs_num_constraints(cs) - before;
        if (all_const)
            CHECK(added == 0);
        else
            CHECK_MSG(added == nbits + 1, "n=%zu: %zu constraints, want %u", n, added, nbits + 1);
        size_t row;
        const char *where;
        CHECK_MSG(cuzk_cs_is_satisfied(cs, &row, &where), "row %zu %s", row, where ? where : "");
        cuzk_cs_destroy(cs);
    }
}

/* MultiEq flushes when the next equality would reach 254 bits: 2-operand sums have 33 bits,
 * so 7 fit per constraint; 10 sums give 2 batch constraints. A wrong result bit breaks it. */
CUZK_TEST(gadgets_multieq_batching)
{
    cuzk_cs *cs = tu_cs(CUZK_CS_KEYGEN);
    cuzk_multieq m;
    cuzk_multieq_init(&m, cs);
    for (int i = 0; i < 10; i++) {
        cuzk_u32 ops[2];
        CHECK_OK(cuzk_u32_alloc(cs, &ops[0], 0));
        CHECK_OK(cuzk_u32_alloc(cs, &ops[1], 0));
        size_t before = cuzk_cs_num_constraints(cs);
        cuzk_u32 r;
        CHECK_OK(cuzk_u32_addmany(cs, &m, &r, ops, 2));
        /* The 8th addition flushes the first batch after its own 33 result bits. */
        CHECK(cuzk_cs_num_constraints(cs) - before == (i == 7 ? 34u : 33u));
    }
    CHECK_OK(cuzk_multieq_finish(&m));
    CHECK(cuzk_cs_num_constraints(cs) == 10 * (64 + 33) + 2);
    cuzk_cs_destroy(cs);

    /* Values: random sums satisfied; then one result bit flipped in the witness fails the
     * batch constraint. */
    cuzk_cs *ks = tu_cs(CUZK_CS_KEYGEN);
    cuzk_cs *ps = tu_cs(CUZK_CS_PROVE);
    cuzk_multieq mk, mp;
    cuzk_multieq_init(&mk, ks);
    cuzk_multieq_init(&mp, ps);
    for (int i = 0; i < 9; i++) {
        uint32_t x = (uint32_t)test_rand_u64(), y = (uint32_t)test_rand_u64();
        cuzk_u32 ok[2], op[2], r;
        CHECK_OK(cuzk_u32_alloc(ks, &ok[0], x));
        CHECK_OK(cuzk_u32_alloc(ks, &ok[1], y));
        CHECK_OK(cuzk_u32_alloc(ps, &op[0], x));
        CHECK_OK(cuzk_u32_alloc(ps, &op[1], y));
        CHECK_OK(cuzk_u32_addmany(ks, &mk, &r, ok, 2));
        CHECK_OK(cuzk_u32_addmany(ps, &mp, &r, op, 2));
        CHECK(r.value == x + y);
    }
    CHECK_OK(cuzk_multieq_finish(&mk));
    CHECK_OK(cuzk_multieq_finish(&mp));
    CHECK_OK(cuzk_cs_finalize(ks));
    CHECK_OK(cuzk_cs_finalize(ps));
    cuzk_r1cs_matrices mat;
    CHECK_OK(cuzk_cs_take_matrices(ks, &mat));
    cuzk_prover_data pd;
    CHECK_OK(cuzk_cs_take_prover_data(ps, &pd));
    cuzk_fr_t *z = cuzk_alloc_array(pd.n_inputs + pd.n_aux, sizeof(cuzk_fr_t));
    CHECK(z);
    memcpy(z, pd.input, pd.n_inputs * sizeof *z);
    memcpy(z + pd.n_inputs, pd.aux, pd.n_aux * sizeof *z);
    CHECK(tu_first_unsat(&mat, z) == SIZE_MAX);
    /* aux layout per addition: 64 operand bits then 33 result bits; flip result bit 5 of the
     * first addition and the matching operand bit so booleanity holds but the sum is wrong. */
    cuzk_fr_t one = tu_fr(1), zero = tu_fr(0);
    cuzk_fr_t *rb = &z[pd.n_inputs + 64 + 5];
    *rb = cuzk_fr_eq(rb, &one) ? zero : one;
    size_t bad = tu_first_unsat(&mat, z);
    /* The first batch constraint follows the 8th addition's allocations. */
    CHECK_MSG(bad == 8 * (64 + 33), "first unsatisfied row %zu (the first batch constraint)", bad);
    cuzk_free(z);
    cuzk_prover_data_free(&pd);
    cuzk_r1cs_matrices_free(&mat);
    cuzk_cs_destroy(ks);
    cuzk_cs_destroy(ps);
}

CUZK_TEST(gadgets_uint32_xor_rotr_shr)
{
    for (unsigned it = 0; it < test_iters(30); it++) {
        cuzk_cs *cs = tu_cs(CUZK_CS_CHECK);
        uint32_t x = (uint32_t)test_rand_u64(), y = (uint32_t)test_rand_u64();
        cuzk_u32 a, b, r;
        make_u32(cs, &a, x, (int)(it % 3));
        make_u32(cs, &b, y, (int)(it / 3 % 3));
        CHECK_OK(cuzk_u32_xor(cs, &r, &a, &b));
        CHECK(r.value == (x ^ y) && u32_bits_value(&r) == (x ^ y));
        unsigned by = (unsigned)(test_rand_u64() % 32);
        cuzk_u32_rotr(&r, &a, by);
        uint32_t rot = by ? (x >> by) | (x << (32 - by)) : x;
        CHECK(r.value == rot && u32_bits_value(&r) == rot);
        cuzk_u32_shr(&r, &a, by);
        CHECK(r.value == (x >> by) && u32_bits_value(&r) == (x >> by));
        cuzk_bool be[32];
        cuzk_u32_into_bits_be(be, &a);
        cuzk_u32_from_bits_be(&r, be);
        CHECK(r.value == x);
        CHECK(cuzk_cs_is_satisfied(cs, NULL, NULL));
        cuzk_cs_destroy(cs);
    }
}

CUZK_TEST(gadgets_multipack_vs_native)
{
    const size_t lens[] = {0, 1, 2, 253, 254, 255, 300, 508, 509, 600};
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        size_t n = lens[li];
        bool bits[600];
        cuzk_bool cb[600];
        cuzk_cs *cs = tu_cs(CUZK_CS_CHECK);
        for (size_t i = 0; i < n; i++) {
            bits[i] = test_rand_u64() & 1;
            if (i % 5 == 4)
                cb[i] = cuzk_bool_const(bits[i]);
            else
                CHECK_OK(cuzk_bit_alloc(cs, &cb[i], bits[i]));
        }
        CHECK_OK(cuzk_multipack_pack_into_inputs(cs, cb, n));
        size_t chunks = cuzk_multipack_len(n);
        CHECK(cuzk_cs_num_inputs(cs) == 1 + chunks);
        CHECK(cuzk_cs_is_satisfied(cs, NULL, NULL));
        CHECK_OK(cuzk_cs_finalize(cs));
        cuzk_prover_data pd;
        CHECK_OK(cuzk_cs_take_prover_data(cs, &pd));
        cuzk_fr_t want[3];
        cuzk_multipack_compute(want, bits, n);
        for (size_t k = 0; k < chunks; k++)
            CHECK_MSG(cuzk_fr_eq(&pd.input[1 + k], &want[k]), "len %zu chunk %zu", n, k);
        cuzk_prover_data_free(&pd);
        cuzk_cs_destroy(cs);
    }
    /* Native packing of known bytes: bytes_to_bits is MSB first, _le LSB first. */
    const uint8_t bytes[2] = {0x80, 0x01};
    bool b[16];
    cuzk_multipack_bytes_to_bits(b, bytes, 2);
    CHECK(b[0] && !b[7] && b[15]);
    cuzk_multipack_bytes_to_bits_le(b, bytes, 2);
    CHECK(b[7] && b[8] && !b[0]);
    cuzk_fr_t v;
    cuzk_multipack_compute(&v, b, 16); /* 2^7 + 2^8 */
    cuzk_fr_t want = tu_fr(384);
    CHECK(cuzk_fr_eq(&v, &want));
}

CUZK_TEST(gadgets_num_to_bits_le)
{
    for (unsigned it = 0; it < test_iters(6); it++) {
        cuzk_cs *cs = tu_cs(CUZK_CS_CHECK);
        cuzk_fr_t x = tu_fr_rand();
        if (it == 0)
            cuzk_fr_set_zero(&x);
        if (it == 1) { /* r - 1: the largest value, 255 bits */
            cuzk_fr_set_one(&x);
            cuzk_fr_neg(&x, &x);
        }
        cuzk_num n;
        CHECK_OK(cuzk_num_alloc(cs, &n, &x));
        cuzk_bool bits[CUZK_FR_NUM_BITS];
        CHECK_OK(cuzk_num_to_bits_le(cs, bits, &n));
        CHECK(cuzk_cs_num_constraints(cs) == 256);
        CHECK(cuzk_cs_num_aux(cs) == 256);
        uint64_t l[4];
        cuzk_fr_to_canonical(l, &x);
        for (int i = 0; i < CUZK_FR_NUM_BITS; i++)
            CHECK(bits[i].value == ((l[i / 64] >> (i % 64)) & 1));
        CHECK(cuzk_cs_is_satisfied(cs, NULL, NULL));
        cuzk_cs_destroy(cs);
    }
    /* A wrong decomposition is rejected: flip one bit of the witness. */
    cuzk_cs *ks = tu_cs(CUZK_CS_KEYGEN);
    cuzk_num n;
    CHECK_OK(cuzk_num_alloc(ks, &n, NULL));
    cuzk_bool bits[CUZK_FR_NUM_BITS];
    CHECK_OK(cuzk_num_to_bits_le(ks, bits, &n));
    CHECK_OK(cuzk_cs_finalize(ks));
    cuzk_r1cs_matrices m;
    CHECK_OK(cuzk_cs_take_matrices(ks, &m));
    cuzk_fr_t z[1 + 256];
    cuzk_fr_set_one(&z[0]);
    z[1] = tu_fr(0x1234);
    for (int i = 0; i < 255; i++)
        z[2 + i] = tu_fr((0x1234u >> (i < 32 ? i : 31)) & (i < 32));
    CHECK(tu_first_unsat(&m, z) == SIZE_MAX);
    z[2 + 3] = tu_fr(1 - ((0x1234u >> 3) & 1));
    CHECK(tu_first_unsat(&m, z) == 255); /* the unpacking constraint */
    cuzk_r1cs_matrices_free(&m);
    cuzk_cs_destroy(ks);
}

CUZK_TEST(gadgets_num_ops)
{
    cuzk_cs *cs = tu_cs(CUZK_CS_CHECK);
    cuzk_fr_t x = tu_fr_rand(), y = tu_fr_rand(), t;
    cuzk_num a, b, p, s, c, d;
    CHECK_OK(cuzk_num_alloc(cs, &a, &x));
    CHECK_OK(cuzk_num_alloc(cs, &b, &y));
    CHECK_OK(cuzk_num_mul(cs, &p, &a, &b));
    cuzk_fr_mul(&t, &x, &y);
    CHECK(cuzk_fr_eq(&p.value, &t));
    CHECK_OK(cuzk_num_square(cs, &s, &a));
    cuzk_fr_sqr(&t, &x);
    CHECK(cuzk_fr_eq(&s.value, &t));
    CHECK_OK(cuzk_num_inputize(cs, &p));
    CHECK(cuzk_cs_num_inputs(cs) == 2);
    for (int cond = 0; cond < 2; cond++) {
        cuzk_bool bit;
        CHECK_OK(cuzk_bit_alloc(cs, &bit, cond));
        CHECK_OK(cuzk_num_conditionally_reverse(cs, &c, &d, &a, &b, bit));
        CHECK(cuzk_fr_eq(&c.value, cond ? &y : &x) && cuzk_fr_eq(&d.value, cond ? &x : &y));
    }
    CHECK_OK(cuzk_num_enforce_equal(cs, &a, &a));
    CHECK(cuzk_cs_is_satisfied(cs, NULL, NULL));
    CHECK_OK(cuzk_num_enforce_equal(cs, &a, &b)); /* x != y: now unsatisfied, named */
    size_t row;
    CHECK(!cuzk_cs_is_satisfied(cs, &row, NULL));
    CHECK(row == cuzk_cs_num_constraints(cs) - 1);
    cuzk_cs_destroy(cs);
}

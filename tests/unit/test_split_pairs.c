/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The one-pass L/A/B split (src/groth16/split_pairs.c) against a plain serial construction of
 * each query's scalar vector, on random witnesses, densities and sizes around word and task
 * boundaries; outputs poisoned before each call. */
#include "test.h"
#include "cuzk/alloc.h"
#include "cuzk/field.h"
#include "cuzk/threadpool.h"
#include "groth16/split_pairs.h"

/* 0, 1 or a random value: |p01| percent are 0 or 1 (half each). */
static void rand_value(cuzk_fr_t *v, unsigned p01)
{
    uint64_t r = test_rand_u64() % 200;
    if (r < 2 * p01) {
        if (r & 1)
            cuzk_fr_set_one(v);
        else
            memset(v, 0, sizeof *v);
        return;
    }
    uint64_t l[4];
    do {
        test_rand_bytes(l, sizeof l);
        l[3] &= 0x1fffffffffffffffULL;
    } while (!cuzk_fr_from_canonical(v, l));
}

static void rand_bits(uint64_t *bm, size_t n, unsigned permille, size_t *pop)
{
    memset(bm, 0, (n + 63) / 64 * sizeof *bm);
    *pop = 0;
    for (size_t i = 0; i < n; i++)
        if (test_rand_u64() % 1000 < permille) {
            bm[i / 64] |= 1ULL << (i % 64);
            ++*pop;
        }
}

static bool bit(const uint64_t *bm, size_t i)
{
    return (bm[i / 64] >> (i % 64)) & 1;
}

/* Query k's scalar vector, built plainly. */
static size_t query_vector(const cuzk_prover_data *pd, unsigned k, cuzk_fr_t *out)
{
    size_t n = 0;
    if (k == CUZK__SPLIT_L) {
        for (size_t j = 0; j < pd->n_aux; j++)
            out[n++] = pd->aux[j];
        return n;
    }
    for (size_t i = 0; i < pd->n_inputs; i++)
        if (k == CUZK__SPLIT_A || bit(pd->b_input_density, i))
            out[n++] = pd->input[i];
    const uint64_t *d = k == CUZK__SPLIT_A ? pd->a_aux_density : pd->b_aux_density;
    for (size_t j = 0; j < pd->n_aux; j++)
        if (bit(d, j))
            out[n++] = pd->aux[j];
    return n;
}

static void check_case(cuzk_pool *pool, size_t n_inputs, size_t n_aux, unsigned p01,
                       unsigned dens_a, unsigned dens_b)
{
    cuzk_prover_data pd;
    memset(&pd, 0, sizeof pd);
    pd.n_inputs = n_inputs;
    pd.n_aux = n_aux;
    size_t aw = (n_aux + 63) / 64 + 1, iw = (n_inputs + 63) / 64 + 1;
    pd.input = cuzk_alloc_array(n_inputs, sizeof(cuzk_fr_t));
    pd.aux = cuzk_alloc_array(n_aux + 1, sizeof(cuzk_fr_t));
    pd.a_aux_density = cuzk_alloc_array(aw, 8);
    pd.b_aux_density = cuzk_alloc_array(aw, 8);
    pd.b_input_density = cuzk_alloc_array(iw, 8);
    CHECK(pd.input && pd.aux && pd.a_aux_density && pd.b_aux_density && pd.b_input_density);
    for (size_t i = 0; i < n_inputs; i++)
        rand_value(&pd.input[i], i ? p01 : 100);
    for (size_t j = 0; j < n_aux; j++)
        rand_value(&pd.aux[j], p01);
    rand_bits(pd.a_aux_density, n_aux, dens_a, &pd.a_aux_popcount);
    rand_bits(pd.b_aux_density, n_aux, dens_b, &pd.b_aux_popcount);
    rand_bits(pd.b_input_density, n_inputs, 500, &pd.b_input_popcount);
    if (n_aux % 64) /* bits past n_aux must not count (the split masks them) */
        pd.a_aux_density[n_aux / 64] |= ~0ULL << (n_aux % 64);

    cuzk__split_query q[CUZK__SPLIT_Q];
    cuzk_fr_t *want = cuzk_alloc_array(n_inputs + n_aux + 1, sizeof *want);
    uint64_t *other = cuzk_alloc_array(1, cuzk__split_pairs_scratch(n_aux) + 8);
    CHECK(want && other);
    memset(other, 0xa5, cuzk__split_pairs_scratch(n_aux));
    const size_t qn[CUZK__SPLIT_Q] = {n_aux, n_inputs + pd.a_aux_popcount,
                                      pd.b_input_popcount + pd.b_aux_popcount};
    for (unsigned k = 0; k < CUZK__SPLIT_Q; k++) {
        size_t w = (qn[k] + 63) / 64 + 1;
        q[k].n = qn[k];
        q[k].ones = cuzk_alloc_array(w, 8);
        q[k].vals = cuzk_alloc_array(qn[k] + 1, sizeof(cuzk_fr_t));
        q[k].idx = cuzk_alloc_array(qn[k] + 1, sizeof(uint32_t));
        q[k].m = 12345;
        CHECK(q[k].ones && q[k].vals && q[k].idx);
        /* poison, including one word past the bitmap (must stay untouched) */
        memset(q[k].ones, 0x5a, w * 8);
        memset(q[k].vals, 0xc3, (qn[k] + 1) * sizeof(cuzk_fr_t));
        memset(q[k].idx, 0xc3, (qn[k] + 1) * sizeof(uint32_t));
    }
    cuzk_status s = cuzk__split_pairs(pool, &pd, other, q);
    CHECK_MSG(s == CUZK_OK, "split: %s", cuzk_last_error());
    cuzk_fr_t one;
    cuzk_fr_set_one(&one);
    for (unsigned k = 0; k < CUZK__SPLIT_Q; k++) {
        size_t n = query_vector(&pd, k, want), m = 0;
        CHECK(n == qn[k]);
        for (size_t i = 0; i < n; i++) {
            bool is1 = memcmp(&want[i], &one, sizeof one) == 0;
            bool is0 = cuzk_fr_is_zero(&want[i]);
            CHECK_MSG(bit(q[k].ones, i) == is1, "query %u position %zu of %zu: ones bit %d", k, i,
                      n, (int)bit(q[k].ones, i));
            if (is0 || is1)
                continue;
            CHECK_MSG(m < q[k].m, "query %u: only %zu pairs", k, q[k].m);
            CHECK_MSG(q[k].idx[m] == i, "query %u pair %zu: index %u, want %zu", k, m, q[k].idx[m],
                      i);
            CHECK(memcmp(&q[k].vals[m], &want[i], sizeof want[i]) == 0);
            m++;
        }
        CHECK_MSG(q[k].m == m, "query %u: %zu pairs, want %zu", k, q[k].m, m);
        size_t w = (n + 63) / 64;
        if (n % 64)
            CHECK_MSG((q[k].ones[w - 1] >> (n % 64)) == 0, "query %u: bits past %zu", k, n);
        CHECK(q[k].ones[w] == 0x5a5a5a5a5a5a5a5aULL);
        CHECK(q[k].idx[n] == 0xc3c3c3c3u);
    }

    /* A wrong position count is refused. */
    q[CUZK__SPLIT_A].n++;
    CHECK(cuzk__split_pairs(pool, &pd, other, q) == CUZK_ERR_INVALID_ARG);
    q[CUZK__SPLIT_A].n--;

    for (unsigned k = 0; k < CUZK__SPLIT_Q; k++) {
        cuzk_free(q[k].ones);
        cuzk_free(q[k].vals);
        cuzk_free(q[k].idx);
    }
    cuzk_free(other);
    cuzk_free(want);
    cuzk_free(pd.input);
    cuzk_free(pd.aux);
    cuzk_free(pd.a_aux_density);
    cuzk_free(pd.b_aux_density);
    cuzk_free(pd.b_input_density);
}

CUZK_TEST(split_pairs_matches_plain_queries)
{
    cuzk_pool *pool = NULL;
    CHECK(cuzk_pool_create(&pool, 3) == CUZK_OK);
    /* sizes around words (64) and tasks (65,536 aux) */
    static const size_t aux[] = {0, 1, 63, 64, 65, 1000, 65536, 65537, 3 * 65536 + 129};
    static const size_t inputs[] = {1, 2, 63, 65, 130};
    static const unsigned dens[][2] = {{997, 254}, {1000, 1000}, {0, 0}, {500, 30}, {1000, 0}};
    static const unsigned p01[] = {95, 100, 0, 50};
    for (size_t a = 0; a < sizeof aux / sizeof aux[0]; a++)
        for (unsigned r = 0; r < 3; r++) {
            size_t ni = inputs[test_rand_u64() % 5];
            unsigned dk = (unsigned)(test_rand_u64() % 5), pk = (unsigned)(test_rand_u64() % 4);
            check_case(r == 2 ? NULL : pool, ni, aux[a], p01[pk], dens[dk][0], dens[dk][1]);
        }
    check_case(pool, 328, 300000, 95, 997, 254); /* the partition's mix */
    cuzk_pool_destroy(pool);
}

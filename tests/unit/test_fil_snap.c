/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The SnapDeals circuit (src/filecoin/snap_circuit.c): shapes of every RegisteredUpdateProof id
 * (filecoin-circuits.md 1.4), constraint counts against the model of 4.8 and the published
 * anchors (2 KiB 1,705,039 and 32 GiB 81,049,499 [test]; 8 MiB 10,007,508 and 512 MiB 57,450,484
 * rows [fork]); synthetic partitions satisfy the circuit and their public inputs are the
 * circuit's; a wrong sibling, leaf, apex leaf, comm value or h is caught.
 */
#include "test.h"
#include "test_fil_snap_util.h"
#include "test_r1cs_util.h"

#include "filecoin/snap_circuit.h"
#include "gadgets/merkle.h"

#include <string.h>

CUZK_TEST(fil_snap_shapes)
{
    static const struct {
        size_t parts, chal, apex, depth;
        unsigned cb, h;
    } W[] = {
        {1, 10, 8, 2, 6, 1},       {4, 10, 128, 6, 18, 10},   {16, 86, 128, 8, 24, 10},
        {16, 86, 128, 10, 30, 10}, {16, 86, 128, 11, 31, 10},
    };
    for (uint64_t id = 0; id < 5; id++) {
        cuzk_fil_snap_shape sh;
        CHECK_OK(cuzk_fil_snap_shape_get(&sh, id));
        CHECK(sh.partitions == W[id].parts && sh.challenge_count == W[id].chal);
        CHECK(sh.apex_leaves == W[id].apex && sh.depth == W[id].depth);
        CHECK(sh.challenge_bits == W[id].cb && sh.h_default == W[id].h);
    }
    cuzk_fil_snap_shape sh;
    CHECK(cuzk_fil_snap_shape_get(&sh, 5) == CUZK_ERR_UNSUPPORTED);
    CHECK_OK(cuzk_fil_snap_shape_get(&sh, 4));
    CHECK(sh.arities[9] == 8 && sh.arities[10] == 2);
    /* gen_challenge_bits per partition (gadgets.rs test): 568 per digest; 8 digests at 512 MiB,
     * 10 at 32 / 64 GiB. */
    CHECK(cuzk_fil_snap_digests(&sh) == 10);
    CHECK_OK(cuzk_fil_snap_shape_get(&sh, 2));
    CHECK(cuzk_fil_snap_digests(&sh) == 8);
}

/* The model of filecoin-circuits.md 4.8 written out again from its formula, independently of
 * cuzk_fil_snap_model_constraints. */
static size_t model(uint64_t id)
{
    cuzk_fil_snap_shape sh;
    CHECK_OK(cuzk_fil_snap_shape_get(&sh, id));
    size_t nodes_log = sh.challenge_bits, pb = sh.partition_bits, ab = sh.apex_bits;
    size_t apex = sh.apex_leaves, chal = sh.challenge_count;
    size_t digests = (chal + 254 / (nodes_log - pb) - 1) / (254 / (nodes_log - pb));
    size_t fixed = (1 + (pb + 6) + 1) + 1 + 3 + 311 + 312 + 312 + (apex - 1) * 45379 +
                   (pb * 45381 + 1) + digests * 568;
    size_t rpath = 1;
    for (size_t l = 0; l < sh.depth; l++)
        rpath += sh.arities[l] == 8 ? 22 + 505 : 2 + 311;
    size_t per = 13 + 311 + 2 + 2 * rpath + (apex - 1) + ((nodes_log - pb - ab) * 45381 + 1);
    return fixed + chal * per;
}

CUZK_TEST(fil_snap_model_counts)
{
    /* Published totals without the 5 input constraints (filecoin-circuits.md 1.3). */
    static const size_t published[] = {1705039, 10007503, 57450479, 81049499, 85006101};
    CHECK(model(0) == 1705039);
    CHECK(model(3) == 81049499);
    for (uint64_t id = 0; id < 5; id++) {
        cuzk_fil_snap_shape sh;
        CHECK_OK(cuzk_fil_snap_shape_get(&sh, id));
        CHECK_MSG(model(id) == published[id], "id %llu: model %zu", (unsigned long long)id,
                  model(id));
        CHECK(cuzk_fil_snap_model_constraints(&sh) == published[id]);
    }
}

/* Synthesised counts (KEYGEN) for 2 KiB and 8 MiB; 32 GiB (81 M) is a CLI check. */
CUZK_TEST(fil_snap_synth_counts)
{
    for (uint64_t id = 0; id < 2; id++) {
        cuzk_fil_snap_shape sh;
        CHECK_OK(cuzk_fil_snap_shape_get(&sh, id));
        cuzk_cs *cs = tu_cs(id == 0 ? CUZK_CS_KEYGEN : CUZK_CS_WITNESS);
        cuzk_fil_snap_partition *p = NULL;
        if (id == 0) {
            CHECK_MSG(cuzk_fil_snap_circuit(cs, &sh, 0, NULL) == CUZK_OK, "%s", cuzk_last_error());
        } else {
            /* WITNESS mode keeps no matrices: the cheapest count of 10 M constraints. */
            CHECK_OK(cuzk_fil_snap_partition_synthetic(&p, id, 3, test_rand_u64(), 1));
            CHECK_MSG(cuzk_fil_snap_circuit(cs, &sh, p->k, &p->w) == CUZK_OK, "%s",
                      cuzk_last_error());
        }
        CHECK_MSG(cuzk_cs_num_constraints(cs) == model(id), "id %llu: %zu, want %zu",
                  (unsigned long long)id, cuzk_cs_num_constraints(cs), model(id));
        CHECK(cuzk_cs_num_inputs(cs) == 5);
        if (id == 0)
            CHECK(cuzk_cs_num_constraints(cs) == 1705039);
        cuzk_fil_snap_partition_destroy(p);
        cuzk_cs_destroy(cs);
    }
    /* KEYGEN refuses a partition index outside the shape. */
    cuzk_fil_snap_shape sh;
    CHECK_OK(cuzk_fil_snap_shape_get(&sh, 0));
    cuzk_cs *cs = tu_cs(CUZK_CS_KEYGEN);
    CHECK(cuzk_fil_snap_circuit(cs, &sh, 1, NULL) == CUZK_ERR_INVALID_ARG);
    cuzk_cs_destroy(cs);
    cs = tu_cs(CUZK_CS_CHECK);
    CHECK(cuzk_fil_snap_circuit(cs, &sh, 0, NULL) == CUZK_ERR_INVALID_ARG);
    cuzk_cs_destroy(cs);
}

enum {
    T_NONE,
    T_SIB_R_OLD,
    T_SIB_R_NEW,
    T_SIB_D,
    T_LEAF_D,
    T_APEX,
    T_COMM_R_NEW,
    T_COMM_D,
    T_H,
    T_PARTITION_PATH,
    T_COUNT
};

static cuzk_fr_t *dup(const cuzk_fr_t *a, size_t n)
{
    cuzk_fr_t *b = malloc((n ? n : 1) * sizeof *b);
    CHECK(b);
    if (n)
        memcpy(b, a, n * sizeof *b);
    return b;
}

/* Synthesises |p| in CHECK mode with one value poisoned (|t|); returns satisfaction. */
static bool check_partition(const cuzk_fil_snap_partition *p, int t)
{
    const cuzk_fil_snap_shape *sh = &p->shape;
    size_t nc = sh->challenge_count, lr = cuzk_fil_snap_path_len_r(sh),
           ld = cuzk_fil_snap_path_len_d(sh);
    cuzk_fil_snap_witness w = p->w;
    /* Private copies of the arrays, one of which may be poisoned. */
    cuzk_fr_t *apex = dup(w.apex_leaves, sh->apex_leaves);
    cuzk_fr_t *pp = dup(w.partition_path, sh->partition_bits);
    cuzk_fr_t *lro = dup(w.leaves_r_old, nc), *ldn = dup(w.leaves_d_new, nc);
    cuzk_fr_t *pro = dup(w.paths_r_old, nc * lr), *prn = dup(w.paths_r_new, nc * lr);
    cuzk_fr_t *pd = dup(w.paths_d, nc * ld);
    w.apex_leaves = apex;
    w.partition_path = pp;
    w.leaves_r_old = lro;
    w.leaves_d_new = ldn;
    w.paths_r_old = pro;
    w.paths_r_new = prn;
    w.paths_d = pd;
    const cuzk_fr_t *one = cuzk_r1cs_pow2(0);
    size_t c = nc - 1; /* the last challenge */
    cuzk_fr_t *x = NULL;
    switch (t) {
    case T_SIB_R_OLD:
        x = &pro[c * lr + lr - 1];
        break;
    case T_SIB_R_NEW:
        x = &prn[c * lr];
        break;
    case T_SIB_D:
        x = &pd[c * ld + ld / 2];
        break;
    case T_LEAF_D:
        x = &ldn[c];
        break;
    case T_APEX:
        x = &apex[sh->apex_leaves - 1];
        break;
    case T_COMM_R_NEW:
        x = &w.comm_r_new;
        break;
    case T_COMM_D:
        x = &w.comm_d_new;
        break;
    case T_H:
        w.h = sh->hs[0] == w.h ? sh->hs[1] : sh->hs[0];
        break;
    case T_PARTITION_PATH:
        if (sh->partition_bits)
            x = &pp[0];
        break;
    }
    if (x)
        cuzk_fr_add(x, x, one);
    cuzk_cs *cs = tu_cs(CUZK_CS_CHECK);
    CHECK_MSG(cuzk_fil_snap_circuit(cs, sh, p->k, &w) == CUZK_OK, "%s", cuzk_last_error());
    CHECK_OK(cuzk_cs_finalize(cs));
    CHECK(cuzk_cs_num_constraints(cs) == cuzk_fil_snap_model_constraints(sh) + 5);
    size_t row = 0;
    const char *where = NULL;
    bool ok = cuzk_cs_is_satisfied(cs, &row, &where);
    if (t == T_NONE) {
        CHECK_MSG(ok, "row %zu (%s) unsatisfied", row, where ? where : "-");
        /* The circuit's public inputs are the partition's. */
        cuzk_fr_t want[4], got;
        cuzk_fil_snap_public_inputs(want, p);
        for (uint32_t i = 0; i < 4; i++) {
            cuzk_cs_value(cs, &got, cuzk_var_input(i + 1));
            CHECK_MSG(cuzk_fr_eq(&got, &want[i]), "public input %u", i);
        }
    }
    cuzk_cs_destroy(cs);
    free(apex);
    free(pp);
    free(lro);
    free(ldn);
    free(pro);
    free(prn);
    free(pd);
    return ok;
}

CUZK_TEST(fil_snap_synthetic_satisfies)
{
    /* 2 KiB: every node holds new data. */
    uint64_t seed = test_rand_u64();
    cuzk_fil_snap_partition *p;
    CHECK_OK(cuzk_fil_snap_partition_synthetic(&p, 0, 0, seed, 1));
    CHECK(check_partition(p, T_NONE));
    CHECK(!check_partition(p, T_LEAF_D));
    CHECK(!check_partition(p, T_COMM_D));
    /* The challenges are those of challenges.rs: inside partition k, derived from comm_r_new. */
    uint64_t ch[10];
    cuzk_fil_snap_challenges(ch, &p->shape, &p->w.comm_r_new, p->k);
    CHECK(memcmp(ch, p->challenges, sizeof ch) == 0);
    /* An h outside hs is refused. */
    cuzk_fil_snap_witness w = p->w;
    w.h = 2;
    cuzk_cs *cs = tu_cs(CUZK_CS_CHECK);
    CHECK(cuzk_fil_snap_circuit(cs, &p->shape, 0, &w) == CUZK_ERR_INVALID_ARG);
    cuzk_cs_destroy(cs);
    cuzk_fil_snap_partition_destroy(p);
}

/* A small shape with two partitions and six distinct h (512 nodes, all with new data; tree R
 * 8-8-8, 8 apex leaves, 3 challenges): partition 1 satisfied, every poisoned value caught,
 * including another allowed h (a different rho). */
CUZK_TEST(fil_snap_small_shape_poisoned)
{
    cuzk_fil_snap_shape sh = test_snap_small_shape();
    cuzk_fil_snap_partition *p;
    CHECK_OK(cuzk__fil_snap_partition_synthetic_shape(&p, &sh, 1, test_rand_u64()));
    CHECK(p->k == 1);
    for (size_t i = 0; i < sh.challenge_count; i++)
        CHECK(p->challenges[i] >> 8 == 1);
    CHECK(check_partition(p, T_NONE));
    for (int t = T_NONE + 1; t < T_COUNT; t++)
        CHECK_MSG(!check_partition(p, t), "poison %d went unnoticed", t);
    cuzk_fil_snap_partition_destroy(p);
    sh.h_default = 7;
    CHECK(cuzk__fil_snap_partition_synthetic_shape(&p, &sh, 0, 1) == CUZK_ERR_INVALID_ARG);
    CHECK(p == NULL);
}

/* Sparse trees (8 MiB, partition 3 of 4: a partition path, apex leaves from sparse paths, 16
 * nodes of new data): satisfied. ~10 M constraints in CHECK mode (~8 s), so only this once. */
CUZK_TEST(fil_snap_synthetic_sparse_partition)
{
    uint64_t seed = test_rand_u64();
    cuzk_fil_snap_partition *p;
    CHECK_OK(cuzk_fil_snap_partition_synthetic(&p, 1, 3, seed, 1));
    CHECK(p->k == 3);
    for (size_t i = 0; i < p->shape.challenge_count; i++)
        CHECK(p->challenges[i] >> 16 == 3);
    CHECK(check_partition(p, T_NONE));
    cuzk_fil_snap_partition_destroy(p);
}

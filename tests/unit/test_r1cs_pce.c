/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* PCE: bit-identical to the PROVE path, save/load round trip, rejection of damaged files. */
#include "test_r1cs_util.h"

#include "cuzk/threadpool.h"

#include <openssl/evp.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static cuzk_prover_data prove_direct(const cuzk_circuit *c)
{
    cuzk_cs *cs = tu_cs(CUZK_CS_PROVE);
    CHECK_OK(cuzk_circuit_synthesize(cs, c));
    CHECK(cuzk_cs_is_satisfied(cs, NULL, NULL));
    cuzk_prover_data pd;
    CHECK_OK(cuzk_cs_take_prover_data(cs, &pd));
    cuzk_cs_destroy(cs);
    return pd;
}

static cuzk_prover_data prove_pce(const cuzk_pce *pce, const cuzk_circuit *c, cuzk_pool *pool)
{
    cuzk_cs *cs = tu_cs(CUZK_CS_WITNESS);
    CHECK_OK(cuzk_circuit_synthesize(cs, c));
    cuzk_prover_data w;
    CHECK_OK(cuzk_cs_take_prover_data(cs, &w));
    cuzk_cs_destroy(cs);
    CHECK_OK(cuzk_pce_eval_into(pce, pool, &w));
    return w;
}

static void check_identical(const cuzk_prover_data *x, const cuzk_prover_data *y)
{
    CHECK(x->n_inputs == y->n_inputs && x->n_aux == y->n_aux && x->n_rows == y->n_rows &&
          x->n_constraints == y->n_constraints);
    CHECK(memcmp(x->input, y->input, x->n_inputs * sizeof(cuzk_fr_t)) == 0);
    CHECK(memcmp(x->aux, y->aux, x->n_aux * sizeof(cuzk_fr_t)) == 0);
    for (size_t r = 0; r < x->n_rows; r++) {
        CHECK_MSG(memcmp(&x->a[r], &y->a[r], sizeof(cuzk_fr_t)) == 0, "a[%zu]", r);
        CHECK_MSG(memcmp(&x->b[r], &y->b[r], sizeof(cuzk_fr_t)) == 0, "b[%zu]", r);
        CHECK_MSG(memcmp(&x->c[r], &y->c[r], sizeof(cuzk_fr_t)) == 0, "c[%zu]", r);
    }
    CHECK(tu_bits_eq(x->a_aux_density, y->a_aux_density, x->n_aux));
    CHECK(tu_bits_eq(x->b_aux_density, y->b_aux_density, x->n_aux));
    CHECK(tu_bits_eq(x->b_input_density, y->b_input_density, x->n_inputs));
    CHECK(x->a_aux_popcount == y->a_aux_popcount);
    CHECK(x->b_aux_popcount == y->b_aux_popcount);
    CHECK(x->b_input_popcount == y->b_input_popcount);
}

CUZK_TEST(r1cs_pce_matches_prove_sha256_chain2)
{
    cuzk_circuit c;
    CHECK_OK(cuzk_circuit_find("sha256-chain:2", &c));
    cuzk_pce *pce;
    CHECK_OK(cuzk_pce_extract(&pce, &c));
    cuzk_pool *pool;
    CHECK_OK(cuzk_pool_create(&pool, 2));
    for (int it = 0; it < 2; it++) {
        c.params.seed = test_rand_u64();
        cuzk_prover_data d = prove_direct(&c);
        cuzk_prover_data p = prove_pce(pce, &c, it ? pool : NULL);
        CHECK(d.n_rows == cuzk_pce_num_rows(pce) && d.n_aux == cuzk_pce_num_aux(pce));
        check_identical(&d, &p);
        /* without C: the same a, b and densities, no c */
        cuzk_cs *cs = tu_cs(CUZK_CS_WITNESS);
        CHECK_OK(cuzk_circuit_synthesize(cs, &c));
        cuzk_prover_data q;
        CHECK_OK(cuzk_cs_take_prover_data(cs, &q));
        cuzk_cs_destroy(cs);
        CHECK_OK(cuzk_pce_eval_ab_into(pce, it ? pool : NULL, &q));
        CHECK(q.c == NULL && q.a && q.b);
        /* a second evaluation is refused and names the call; the vectors stay */
        const cuzk_fr_t *qa = q.a;
        CHECK(cuzk_pce_eval_ab_into(pce, NULL, &q) == CUZK_ERR_INVALID_ARG);
        CHECK(strstr(cuzk_last_error(), "cuzk_pce_eval_ab_into: a/b/c already present") != NULL);
        CHECK(q.a == qa && q.c == NULL);
        q.c = d.c;
        check_identical(&d, &q);
        q.c = NULL;
        cuzk_prover_data_free(&q);
        /* Sanity of the counts: 512 message bits + 2 compressions + 2 packings; ONE + 2. */
        CHECK(d.n_inputs == 3);
        cuzk_prover_data_free(&d);
        cuzk_prover_data_free(&p);
    }
    cuzk_pool_destroy(pool);
    cuzk_pce_destroy(pce);
}

/* The WindowPoSt 2 KiB circuit (Poseidon, PoR with a shared root, inputized comm_r): the PCE
 * path gives the direct path's a, b, c and densities bit for bit, two synthetic partitions. */
CUZK_TEST(r1cs_pce_matches_prove_fil_post)
{
    cuzk_circuit c;
    CHECK_OK(cuzk_circuit_find("fil-post:5", &c));
    cuzk_pce *pce;
    CHECK_OK(cuzk_pce_extract(&pce, &c));
    for (int it = 0; it < 2; it++) {
        c.params.seed = test_rand_u64();
        cuzk_prover_data d = prove_direct(&c);
        cuzk_prover_data p = prove_pce(pce, &c, NULL);
        CHECK(d.n_rows == 21889 && d.n_inputs == 23);
        check_identical(&d, &p);
        cuzk_prover_data_free(&d);
        cuzk_prover_data_free(&p);
    }
    cuzk_pce_destroy(pce);
}

/* The PoRep 2 KiB circuit (SHA-256 and Poseidon trees, create_label, encodings): its witness
 * synthesised on 3 threads (forked systems) plus the PCE gives the sequential PROVE path's a,
 * b, c and densities bit for bit; with abc_cap asked above the rows (as the engine asks for its
 * domain) the vectors have that room and the same rows. */
CUZK_TEST(r1cs_pce_matches_prove_fil_porep)
{
    cuzk_circuit c;
    CHECK_OK(cuzk_circuit_find("fil-porep:0", &c));
    cuzk_pce *pce;
    CHECK_OK(cuzk_pce_extract(&pce, &c));
    cuzk_pool *pool;
    CHECK_OK(cuzk_pool_create(&pool, 2));
    c.params.seed = test_rand_u64();
    cuzk_prover_data d = prove_direct(&c);
    c.params.threads = 3;
    cuzk_cs *cs = tu_cs(CUZK_CS_WITNESS);
    CHECK_OK(cuzk_circuit_synthesize(cs, &c));
    cuzk_prover_data w;
    CHECK_OK(cuzk_cs_take_prover_data(cs, &w));
    cuzk_cs_destroy(cs);
    const size_t cap = d.n_rows + 1000;
    w.abc_cap = cap;
    CHECK_OK(cuzk_pce_eval_into(pce, pool, &w));
    CHECK(w.abc_cap == cap && d.n_rows == 2687961);
    /* the reserved tail is writable memory of the same vectors (ASan / a fault would say) */
    memset(w.a + w.n_rows, 0, (cap - w.n_rows) * sizeof(cuzk_fr_t));
    memset(w.c + w.n_rows, 0, (cap - w.n_rows) * sizeof(cuzk_fr_t));
    check_identical(&d, &w);
    cuzk_prover_data_free(&w);
    cuzk_prover_data_free(&d);
    cuzk_pool_destroy(pool);
    cuzk_pce_destroy(pce);
}

/* An extraction whose cancel flag is set gives up with CANCELLED and no PCE; clear, it is the
 * plain extraction's PCE. */
CUZK_TEST(r1cs_pce_extract_cancellable)
{
    cuzk_circuit c;
    CHECK_OK(cuzk_circuit_find("sha256-chain:2", &c));
    int cancel = 1;
    cuzk_pce *pce = (cuzk_pce *)&cancel; /* poisoned: must come back NULL */
    CHECK(cuzk_pce_extract_cancellable(&pce, &c, &cancel) == CUZK_ERR_CANCELLED && !pce);
    CHECK(strstr(cuzk_last_error(), "cancelled") != NULL);
    cancel = 0;
    CHECK_OK(cuzk_pce_extract_cancellable(&pce, &c, &cancel));
    cuzk_pce *ref;
    CHECK_OK(cuzk_pce_extract(&ref, &c));
    CHECK(cuzk_pce_num_rows(pce) == cuzk_pce_num_rows(ref));
    for (unsigned m = 0; m < 3; m++)
        CHECK(cuzk_pce_nnz(pce, m) == cuzk_pce_nnz(ref, m) && cuzk_pce_nnz(pce, m) > 0);
    cuzk_pce_destroy(pce);
    cuzk_pce_destroy(ref);
}

/* PROVE_AB: the PROVE path's a, b and bitmaps, no c (and no satisfaction verdict: it keeps no c),
 * through the default allocator and a vector allocator. */
CUZK_TEST(r1cs_prove_ab_matches_prove)
{
    static const char *const names[] = {"sha256-chain:1", "poseidon-merkle:1", "fil-post:10"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        cuzk_circuit c;
        CHECK_OK(cuzk_circuit_find(names[k], &c));
        c.params.seed = test_rand_u64();
        cuzk_prover_data d = prove_direct(&c);
        for (int hinted = 0; hinted < 2; hinted++) {
            cuzk_cs *cs;
            CHECK_OK(
                cuzk_cs_create(&cs, CUZK_CS_PROVE_AB, hinted ? d.n_aux : 0, hinted ? d.n_rows : 0));
            CHECK(cuzk_cs_get_mode(cs) == CUZK_CS_PROVE_AB);
            CHECK_OK(cuzk_circuit_synthesize(cs, &c));
            CHECK(!cuzk_cs_is_satisfied(cs, NULL, NULL));
            cuzk_prover_data p;
            CHECK_OK(cuzk_cs_take_prover_data(cs, &p));
            cuzk_cs_destroy(cs);
            CHECK_MSG(p.c == NULL && p.a && p.b, "%s", names[k]);
            CHECK(p.abc_cap >= p.n_rows);
            /* compare a, b and the rest through check_identical with d's c borrowed */
            p.c = d.c;
            check_identical(&d, &p);
            p.c = NULL;
            cuzk_prover_data_free(&p);
        }
        cuzk_prover_data_free(&d);
    }
}

/* The copying entry point and its size check. */
CUZK_TEST(r1cs_pce_eval_copy_and_mismatch)
{
    cuzk_circuit c;
    CHECK_OK(cuzk_circuit_find("sha256-chain:1", &c));
    c.params.seed = test_rand_u64();
    cuzk_pce *pce;
    CHECK_OK(cuzk_pce_extract(&pce, &c));
    cuzk_prover_data d = prove_direct(&c);
    cuzk_prover_data p;
    CHECK_OK(cuzk_pce_eval(pce, NULL, d.input, d.n_inputs, d.aux, d.n_aux, &p));
    check_identical(&d, &p);
    cuzk_prover_data_free(&p);
    CHECK(cuzk_pce_eval(pce, NULL, d.input, d.n_inputs, d.aux, d.n_aux - 1, &p) ==
          CUZK_ERR_INVALID_ARG);
    cuzk_prover_data_free(&d);
    cuzk_pce_destroy(pce);
}

static void tmp_path(char *buf, size_t n, const char *tag)
{
    snprintf(buf, n, "/tmp/cuzk-test-pce-%ld-%s.bin", (long)getpid(), tag);
}

static uint8_t *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    CHECK(f);
    fseek(f, 0, SEEK_END);
    long l = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)l);
    CHECK(b && fread(b, 1, (size_t)l, f) == (size_t)l);
    fclose(f);
    *len = (size_t)l;
    return b;
}

static void write_all(const char *path, const uint8_t *b, size_t len)
{
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(b, 1, len, f) == len);
    fclose(f);
}

static cuzk_status load_status(const char *path)
{
    cuzk_pce *p = (cuzk_pce *)(uintptr_t)1;
    cuzk_status s = cuzk_pce_load(&p, path);
    if (s == CUZK_OK)
        cuzk_pce_destroy(p);
    else
        CHECK(p == NULL);
    return s;
}

CUZK_TEST(r1cs_pce_save_load_roundtrip_and_rejects)
{
    cuzk_circuit c;
    CHECK_OK(cuzk_circuit_find("sha256-chain:1", &c));
    cuzk_pce *pce;
    CHECK_OK(cuzk_pce_extract(&pce, &c));
    char path[256], bad[256];
    tmp_path(path, sizeof path, "good");
    tmp_path(bad, sizeof bad, "bad");
    CHECK_OK(cuzk_pce_save(pce, path));
    cuzk_pce *back;
    CHECK_OK(cuzk_pce_load(&back, path));
    CHECK(cuzk_pce_num_rows(back) == cuzk_pce_num_rows(pce));
    for (unsigned m = 0; m < 3; m++)
        CHECK(cuzk_pce_nnz(back, m) == cuzk_pce_nnz(pce, m));
    /* The loaded PCE evaluates identically. */
    c.params.seed = test_rand_u64();
    cuzk_prover_data d = prove_direct(&c);
    cuzk_prover_data p;
    CHECK_OK(cuzk_pce_eval(back, NULL, d.input, d.n_inputs, d.aux, d.n_aux, &p));
    check_identical(&d, &p);
    cuzk_prover_data_free(&p);
    cuzk_prover_data_free(&d);
    cuzk_pce_destroy(back);

    size_t len;
    uint8_t *img = read_all(path, &len);
    uint8_t *mut = malloc(len);
    CHECK(mut);
    /* Truncations: inside the header, inside the body, the checksum cut short. */
    const size_t cuts[] = {0, 7, 60, 119, 120, len / 2, len - 33, len - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        write_all(bad, img, cuts[i]);
        cuzk_status s = load_status(bad);
        CHECK_MSG(s == CUZK_ERR_FORMAT, "cut at %zu -> %s", cuts[i], cuzk_status_name(s));
    }
    /* Trailing garbage. */
    memcpy(mut, img, len);
    write_all(bad, mut, len);
    FILE *f = fopen(bad, "ab");
    fputc(0, f);
    fclose(f);
    CHECK(load_status(bad) == CUZK_ERR_FORMAT);
    /* Single flipped bytes: magic, version, a size, body, checksum. */
    const size_t flips[] = {0, 8, 12, 16, 48, 96, 104, 112, 200, len / 2, len - 40, len - 1};
    for (size_t i = 0; i < sizeof flips / sizeof flips[0]; i++) {
        memcpy(mut, img, len);
        mut[flips[i]] ^= 0x20;
        write_all(bad, mut, len);
        cuzk_status s = load_status(bad);
        CHECK_MSG(s == CUZK_ERR_FORMAT, "flip at %zu -> %s", flips[i], cuzk_status_name(s));
    }
    /* Structural checks behind a valid checksum: the last 4 body bytes are the last coefficient
     * index of C; point it past the table and re-sign the file. */
    memcpy(mut, img, len);
    memset(mut + len - 36, 0xff, 4);
    unsigned dl;
    CHECK(EVP_Digest(mut, len - 32, mut + len - 32, &dl, EVP_sha256(), NULL) == 1);
    write_all(bad, mut, len);
    CHECK(load_status(bad) == CUZK_ERR_FORMAT);
    CHECK(strstr(cuzk_last_error(), "index out of range") != NULL);
    CHECK(load_status("/nonexistent/dir/x.pce") == CUZK_ERR_IO);
    CHECK(cuzk_pce_save(pce, "/nonexistent/dir/x.pce") == CUZK_ERR_IO);
    free(mut);
    free(img);
    remove(path);
    remove(bad);
    cuzk_pce_destroy(pce);
}

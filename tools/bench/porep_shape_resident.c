/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk-bench porep-shape, mode resident: the partition with the five queries uploaded to the
 * device once, pinned buffers, and CUDA-event times per phase. */
#include "porep_shape.h"
#include "cuzk/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const ph_names[PH_COUNT] = {"ntt_h", "msm_h", "l", "a", "b_g1", "b_g2"};
/* ---- the resident partition (CUDA) ---------------------------------------------------------- */

typedef struct {
    const cuzk_fr_t *sc;
    uint64_t *ones;
    cuzk_fr_t *tail;
    size_t n;
    cuzk_fr_t one;
} split_ctx;

static void split_task(void *vc, size_t t)
{
    split_ctx *c = vc;
    size_t lo = t * PS_CHUNK, hi = lo + PS_CHUNK < c->n ? lo + PS_CHUNK : c->n;
    for (size_t i = lo; i < hi; i++) {
        if (i % 64 == 0)
            c->ones[i / 64] = 0;
        if (memcmp(&c->sc[i], &c->one, sizeof c->one) == 0) {
            c->ones[i / 64] |= 1ULL << (i % 64);
            cuzk_fr_set_zero(&c->tail[i]);
        } else {
            c->tail[i] = c->sc[i];
        }
    }
}

static void add_t(res_times *t, int ph, const cuzk_gpu_timing *g, double *split)
{
    t->gpu_ms[ph] += g->total_ms;
    t->kern_ms[ph] += g->compute_ms;
    if (split)
        *split += g->total_ms;
}

/* Proof assembly, the same formula as src/groth16/prover.c. */
static void assemble(cuzk_groth16_proof *out, const cuzk_groth16_vk *vk, const cuzk_fr_t *r,
                     const cuzk_fr_t *sr, const cuzk_g1_jac_t *h_sum, const cuzk_g1_jac_t *l_sum,
                     const cuzk_g1_jac_t *a_sum, const cuzk_g1_jac_t *b1_sum,
                     const cuzk_g2_jac_t *b2_sum)
{
    cuzk_g1_jac_t pa, pc, alpha, beta1, delta1, tmp, u;
    cuzk_g2_jac_t pb, delta2, tmp2;
    cuzk_g1_from_affine(&alpha, &vk->alpha_g1);
    cuzk_g1_from_affine(&beta1, &vk->beta_g1);
    cuzk_g1_from_affine(&delta1, &vk->delta_g1);
    cuzk_g2_from_affine(&delta2, &vk->delta_g2);
    cuzk_g1_mul(&tmp, &delta1, r);
    cuzk_g1_add(&pa, &alpha, a_sum);
    cuzk_g1_add(&pa, &pa, &tmp);
    cuzk_g2_mul(&tmp2, &delta2, sr);
    cuzk_g2_from_affine(&pb, &vk->beta_g2);
    cuzk_g2_add(&pb, &pb, b2_sum);
    cuzk_g2_add(&pb, &pb, &tmp2);
    cuzk_g1_add(&u, a_sum, &alpha);
    cuzk_g1_mul(&pc, &u, sr);
    cuzk_g1_mul(&tmp, &delta1, sr);
    cuzk_g1_add(&u, b1_sum, &beta1);
    cuzk_g1_add(&u, &u, &tmp);
    cuzk_g1_mul(&tmp, &u, r);
    cuzk_g1_add(&pc, &pc, &tmp);
    cuzk_g1_add(&pc, &pc, h_sum);
    cuzk_g1_add(&pc, &pc, l_sum);
    cuzk_g1_to_affine(&out->a, &pa);
    cuzk_g2_to_affine(&out->b, &pb);
    cuzk_g1_to_affine(&out->c, &pc);
}

void ps_res_bases_free(res_bases *b)
{
    cuzk_gpu_bases_free(b->h);
    cuzk_gpu_bases_free(b->l);
    cuzk_gpu_bases_free(b->a);
    cuzk_gpu_bases_free(b->b1);
    cuzk_gpu_bases_free(b->b2);
    memset(b, 0, sizeof *b);
}

cuzk_status ps_res_bases_upload(res_bases *rb, int dev, const cuzk_groth16_params *p)
{
    memset(rb, 0, sizeof *rb);
    cuzk_status s = cuzk_gpu_bases_upload_g1(&rb->h, dev, p->h, p->n_h);
    if (s == CUZK_OK)
        s = cuzk_gpu_bases_upload_g1(&rb->l, dev, p->l, p->n_l);
    if (s == CUZK_OK)
        s = cuzk_gpu_bases_upload_g1(&rb->a, dev, p->a, p->n_a);
    if (s == CUZK_OK)
        s = cuzk_gpu_bases_upload_g1(&rb->b1, dev, p->b_g1, p->n_b_g1);
    if (s == CUZK_OK)
        s = cuzk_gpu_bases_upload_g2(&rb->b2, dev, p->b_g2, p->n_b_g2);
    if (s != CUZK_OK)
        ps_res_bases_free(rb);
    return s;
}

/* One G1 query: split, batch addition and tail MSM over resident bases. */
static cuzk_status res_g1(cuzk_g1_jac_t *out, const cuzk_gpu_bases *b, const cuzk_fr_t *sc,
                          size_t n, split_ctx *sp, cuzk_pool *tp, res_times *t, int ph)
{
    double w0 = now_ms();
    sp->sc = sc;
    sp->n = n;
    cuzk_pool_run(tp, (n + PS_CHUNK - 1) / PS_CHUNK, split_task, sp);
    t->prep_ms += now_ms() - w0;
    cuzk_gpu_timing g;
    cuzk_g1_jac_t part;
    cuzk_status s = cuzk_gpu_batch_add_g1_resident(out, b, 0, sp->ones, n, &g);
    if (s != CUZK_OK)
        return s;
    add_t(t, ph, &g, &t->batch_ms);
    if ((s = cuzk_gpu_msm_g1_resident(&part, b, 0, sp->tail, n, &g)) != CUZK_OK)
        return s;
    add_t(t, ph, &g, &t->tail_ms);
    cuzk_g1_add(out, out, &part);
    t->wall_ms[ph] += now_ms() - w0;
    return CUZK_OK;
}

static cuzk_status res_gather(cuzk_fr_t *dst, size_t *k, const cuzk_prover_data *pd, bool b)
{
    size_t m = 0;
    for (size_t i = 0; i < pd->n_inputs; i++)
        if (!b || (pd->b_input_density[i / 64] >> (i % 64)) & 1)
            dst[m++] = pd->input[i];
    const uint64_t *dens = b ? pd->b_aux_density : pd->a_aux_density;
    for (size_t i = 0; i < pd->n_aux; i++)
        if ((dens[i / 64] >> (i % 64)) & 1)
            dst[m++] = pd->aux[i];
    *k = m;
    return CUZK_OK;
}

/* The partition with resident bases: pd's a/b/c are copied into pinned buffers (not timed: a
 * prover would build them there) and freed. */
cuzk_status ps_resident_prove(cuzk_groth16_proof *out, const cuzk_groth16_params *p,
                              const res_bases *rb, cuzk_prover_data *pd, size_t domain, int dev,
                              const ps_args *args, cuzk_pool *tp, res_times *t)
{
    cuzk_status s;
    cuzk_fr_t *a = NULL, *b = NULL, *c = NULL, *sc = NULL, *tail = NULL;
    uint64_t *ones = NULL;
    cuzk_domain *d = NULL;
    size_t cap = pd->n_aux;
    cap = p->n_a > cap ? p->n_a : cap;
    cap = p->n_b_g1 > cap ? p->n_b_g1 : cap;
    if ((s = cuzk_gpu_host_alloc((void **)&a, domain * sizeof *a)) != CUZK_OK ||
        (s = cuzk_gpu_host_alloc((void **)&b, domain * sizeof *b)) != CUZK_OK ||
        (s = cuzk_gpu_host_alloc((void **)&c, domain * sizeof *c)) != CUZK_OK ||
        (s = cuzk_gpu_host_alloc((void **)&sc, cap * sizeof *sc)) != CUZK_OK ||
        (s = cuzk_gpu_host_alloc((void **)&tail, cap * sizeof *tail)) != CUZK_OK ||
        (s = cuzk_gpu_host_alloc((void **)&ones, (cap + 63) / 64 * 8)) != CUZK_OK)
        goto done;
    if ((s = cuzk_domain_create(&d, domain, CUZK_ROOTS_BELLPERSON)) != CUZK_OK)
        goto done;
    cuzk_fr_t *src[3] = {pd->a, pd->b, pd->c}, *dst[3] = {a, b, c};
    for (int i = 0; i < 3; i++) {
        memcpy(dst[i], src[i], pd->n_rows * sizeof *a);
        memset(dst[i] + pd->n_rows, 0, (domain - pd->n_rows) * sizeof *a);
    }
    cuzk_prover_data_release_abc(pd);

    memset(t, 0, sizeof *t);
    double t_start = now_ms(), w0 = now_ms();
    cuzk_gpu_timing g;
    if ((s = cuzk_gpu_h(dev, d, a, b, c, &g)) != CUZK_OK)
        goto done;
    add_t(t, PH_H, &g, NULL);
    t->wall_ms[PH_H] = now_ms() - w0;

    cuzk_g1_jac_t h_sum, l_sum, a_sum, b1_sum, part;
    cuzk_g2_jac_t b2_sum, part2;
    w0 = now_ms();
    if ((s = cuzk_gpu_msm_g1_resident(&h_sum, rb->h, 0, a, domain - 1, &g)) != CUZK_OK)
        goto done;
    add_t(t, PH_MSM_H, &g, NULL);
    t->wall_ms[PH_MSM_H] = now_ms() - w0;

    split_ctx sp = {.ones = ones, .tail = tail};
    cuzk_fr_set_one(&sp.one);
    if ((s = res_g1(&l_sum, rb->l, pd->aux, pd->n_aux, &sp, tp, t, PH_L)) != CUZK_OK)
        goto done;
    size_t k;
    w0 = now_ms();
    (void)res_gather(sc, &k, pd, false);
    t->prep_ms += now_ms() - w0;
    t->wall_ms[PH_A] += now_ms() - w0;
    if ((s = res_g1(&a_sum, rb->a, sc, k, &sp, tp, t, PH_A)) != CUZK_OK)
        goto done;
    w0 = now_ms();
    (void)res_gather(sc, &k, pd, true);
    t->prep_ms += now_ms() - w0;
    t->wall_ms[PH_B1] += now_ms() - w0;
    if ((s = res_g1(&b1_sum, rb->b1, sc, k, &sp, tp, t, PH_B1)) != CUZK_OK)
        goto done;
    w0 = now_ms();
    if ((s = cuzk_gpu_batch_add_g2_resident(&b2_sum, rb->b2, 0, ones, k, &g)) != CUZK_OK)
        goto done;
    add_t(t, PH_B2, &g, NULL);
    if ((s = cuzk_gpu_msm_g2_resident(&part2, rb->b2, 0, tail, k, &g)) != CUZK_OK)
        goto done;
    add_t(t, PH_B2, &g, NULL);
    cuzk_g2_add(&b2_sum, &b2_sum, &part2);
    t->wall_ms[PH_B2] = now_ms() - w0;
    (void)part;

    cuzk_fr_t r, sr;
    ps_fixed_rs(args, &r, &sr);
    assemble(out, p->vk, &r, &sr, &h_sum, &l_sum, &a_sum, &b1_sum, &b2_sum);
    t->wall_total = now_ms() - t_start;
    for (int i = 0; i < PH_COUNT; i++)
        t->gpu_total += t->gpu_ms[i];
done:
    cuzk_domain_destroy(d);
    cuzk_gpu_host_free(a);
    cuzk_gpu_host_free(b);
    cuzk_gpu_host_free(c);
    cuzk_gpu_host_free(sc);
    cuzk_gpu_host_free(tail);
    cuzk_gpu_host_free(ones);
    return s;
}

void ps_print_resident(const ps_args *a, unsigned rep, const res_times *t, unsigned log_n)
{
    if (a->json) {
        printf("{\"bench\":\"porep_shape\",\"mode\":\"resident\",\"backend\":\"cuda\","
               "\"log_domain\":%u,\"rep\":%u,\"upload_ms\":%.3f",
               log_n, rep, t->upload_ms);
        for (int i = 0; i < PH_COUNT; i++)
            printf(",\"%s_gpu_ms\":%.3f,\"%s_kernels_ms\":%.3f,\"%s_wall_ms\":%.3f", ph_names[i],
                   t->gpu_ms[i], ph_names[i], t->kern_ms[i], ph_names[i], t->wall_ms[i]);
        printf(",\"batch_add_g1_ms\":%.3f,\"tail_msm_g1_ms\":%.3f,\"prep_ms\":%.3f,"
               "\"gpu_total_ms\":%.3f,\"wall_total_ms\":%.3f}\n",
               t->batch_ms, t->tail_ms, t->prep_ms, t->gpu_total, t->wall_total);
    } else {
        printf("resident cuda 2^%u rep %u (bases uploaded once in %.1f ms): device events "
               "(kernels) per phase:",
               log_n, rep, t->upload_ms);
        for (int i = 0; i < PH_COUNT; i++)
            printf(" %s %.1f (%.1f)", ph_names[i], t->gpu_ms[i], t->kern_ms[i]);
        printf("\n    G1 batch_add %.1f  G1 tail_msm %.1f  host prep %.1f | GPU total %.1f  "
               "wall %.1f ms\n",
               t->batch_ms, t->tail_ms, t->prep_ms, t->gpu_total, t->wall_total);
    }
    fflush(stdout);
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Builds a verifying key and a valid proof directly from known trapdoors, without a circuit:
 * with alpha, beta, gamma, delta, u_i (IC_i = u_i G1) and a, b chosen at random, the proof
 * A = aG1, B = bG2, C = cG1 with c = (ab - alpha beta - gamma sum x_i u_i) / delta satisfies the
 * verification equation. Used by tests and benchmarks of the verifier; never by the prover.
 */
#include "cuzk/groth16.h"
#include "cuzk/alloc.h"

#include <string.h>

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void rand_fr(cuzk_fr_t *out, uint64_t *state)
{
    uint64_t l[4];
    do {
        for (int i = 0; i < 4; i++)
            l[i] = splitmix(state);
        l[3] &= 0x7fffffffffffffffULL;
    } while (!cuzk_fr_from_canonical(out, l) || cuzk_fr_is_zero(out));
}

static void g1_times(uint8_t out[96], const cuzk_fr_t *k)
{
    cuzk_g1_affine_t g;
    cuzk_g1_jac_t p;
    cuzk_g1_generator(&g);
    cuzk_g1_from_affine(&p, &g);
    cuzk_g1_mul_vartime(&p, &p, k);
    cuzk_g1_to_affine(&g, &p);
    cuzk_g1_serialize(out, &g);
}

static void g2_times(uint8_t out[192], const cuzk_fr_t *k)
{
    cuzk_g2_affine_t g;
    cuzk_g2_jac_t p;
    cuzk_g2_generator(&g);
    cuzk_g2_from_affine(&p, &g);
    cuzk_g2_mul_vartime(&p, &p, k);
    cuzk_g2_to_affine(&g, &p);
    cuzk_g2_serialize(out, &g);
}

cuzk_status cuzk_groth16_simulate(cuzk_groth16_vk **vk, cuzk_groth16_proof *proof,
                                  cuzk_fr_t *inputs, size_t n_inputs, uint64_t seed)
{
    *vk = NULL;
    if (n_inputs >= (1u << 20))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "too many inputs to simulate (%zu)", n_inputs);
    size_t len = 868 + 96 * (n_inputs + 1);
    uint8_t *buf = cuzk_alloc(len);
    if (!buf)
        return cuzk_fail(CUZK_ERR_NOMEM, "cannot allocate a %zu-byte key image", len);
    uint64_t st = seed;
    cuzk_fr_t alpha, beta, gamma, delta, a, b, c, acc, t;
    rand_fr(&alpha, &st);
    rand_fr(&beta, &st);
    rand_fr(&gamma, &st);
    rand_fr(&delta, &st);
    g1_times(buf, &alpha);
    g1_times(buf + 96, &beta);
    g2_times(buf + 192, &beta);
    g2_times(buf + 384, &gamma);
    g1_times(buf + 576, &delta);
    g2_times(buf + 672, &delta);
    uint32_t ic_len = (uint32_t)(n_inputs + 1);
    buf[864] = (uint8_t)(ic_len >> 24);
    buf[865] = (uint8_t)(ic_len >> 16);
    buf[866] = (uint8_t)(ic_len >> 8);
    buf[867] = (uint8_t)ic_len;
    cuzk_fr_set_zero(&acc);
    for (size_t i = 0; i <= n_inputs; i++) {
        cuzk_fr_t u;
        rand_fr(&u, &st);
        g1_times(buf + 868 + 96 * i, &u);
        if (i == 0) {
            acc = u;
        } else {
            rand_fr(&inputs[i - 1], &st);
            cuzk_fr_mul(&t, &u, &inputs[i - 1]);
            cuzk_fr_add(&acc, &acc, &t);
        }
    }
    rand_fr(&a, &st);
    rand_fr(&b, &st);
    cuzk_fr_mul(&c, &a, &b);
    cuzk_fr_mul(&t, &alpha, &beta);
    cuzk_fr_sub(&c, &c, &t);
    cuzk_fr_mul(&t, &gamma, &acc);
    cuzk_fr_sub(&c, &c, &t);
    cuzk_fr_inv(&t, &delta);
    cuzk_fr_mul(&c, &c, &t);
    uint8_t enc[192];
    cuzk_status s = cuzk_groth16_vk_parse(vk, buf, len);
    cuzk_free(buf);
    if (s != CUZK_OK)
        return s;
    g1_times(enc, &a);
    s = cuzk_g1_deserialize(&proof->a, enc);
    g2_times(enc, &b);
    if (s == CUZK_OK)
        s = cuzk_g2_deserialize(&proof->b, enc);
    g1_times(enc, &c);
    if (s == CUZK_OK)
        s = cuzk_g1_deserialize(&proof->c, enc);
    if (s != CUZK_OK) {
        cuzk_groth16_vk_free(*vk);
        *vk = NULL;
    }
    return s;
}

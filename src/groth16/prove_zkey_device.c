/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The snarkjs prover's H step and MSMs on a device backend (src/groth16/prove_zkey.c). */
#include "groth16/prove_zkey_internal.h"
#include "cuzk/alloc.h"

/* The bases of one device MSM: the key's array, or for a packed key its section decoded into
 * *|tmp| (the caller frees it). */
static cuzk_status dev_bases(const void **out, void **tmp, const cuzk_snarkjs_zkey *zk,
                             const void *arr, const uint8_t *packed, size_t n, bool g2)
{
    *tmp = NULL;
    *out = arr;
    if (!packed)
        return CUZK_OK;
    *tmp = cuzk_alloc_array(n ? n : 1, g2 ? sizeof(cuzk_g2_affine_t) : sizeof(cuzk_g1_affine_t));
    if (!*tmp)
        return cuzk_fail(CUZK_ERR_NOMEM, "cannot allocate %zu points to unpack for the device", n);
    *out = *tmp;
    cuzk__packed_bases src = cuzk__snarkjs_packed_src(zk, packed);
    return cuzk__snarkjs_unpack(*tmp, &src, n, g2);
}

static cuzk_status dev_g1(cuzk_backend *be, cuzk_g1_jac_t *out, const cuzk_snarkjs_zkey *zk,
                          const cuzk_g1_affine_t *bases, const uint8_t *packed,
                          const cuzk_fr_t *scalars, size_t n)
{
    if (n == 0) {
        cuzk_g1_jac_set_infinity(out);
        return CUZK_OK;
    }
    const void *b;
    void *tmp;
    cuzk_status s = dev_bases(&b, &tmp, zk, bases, packed, n, false);
    if (s == CUZK_OK)
        s = cuzk_backend_msm_g1(be, out, b, scalars, n);
    cuzk_free(tmp);
    return s;
}

/*
 * The H step and the five MSMs through a device backend, one after another on its stream: at the
 * sizes circom produces (up to 2^20 or so) each device MSM takes milliseconds, against hundreds on
 * the CPU, so overlapping the G2 MSM on the host would not pay. The witness goes in Montgomery
 * form (|wm|), as cuzk_backend_msm_* take it. The bases are uploaded per call unless the key is
 * resident (cuzk_snarkjs_zkey_keep_resident).
 */

cuzk_status cuzk__snarkjs_device_msms(cuzk_backend *be, const cuzk_domain *dom, const prove_bufs *p,
                                      const cuzk_snarkjs_zkey *zk, msm_sums *o,
                                      cuzk_prove_timings *tm)
{
    size_t n = p->n, nv = p->nv, np = zk->n_public;
    double t0 = now_ms();
    cuzk_status s = cuzk_backend_h(be, dom, p->a, p->b, p->c);
    tm->ntt_h = now_ms() - t0;
    if (s != CUZK_OK)
        return s;
    t0 = now_ms();
    if ((s = dev_g1(be, &o->h, zk, zk->h, zk->h_packed, p->a, n)) != CUZK_OK)
        return s;
    tm->msm_h = now_ms() - t0;
    t0 = now_ms();
    if ((s = dev_g1(be, &o->a, zk, zk->a, zk->a_packed, p->wm, nv)) != CUZK_OK ||
        (s = dev_g1(be, &o->b1, zk, zk->b1, zk->b1_packed, p->wm, nv)) != CUZK_OK ||
        (s = dev_g1(be, &o->c, zk, zk->c, zk->c_packed, p->wm + np + 1, nv - np - 1)) != CUZK_OK)
        return s;
    tm->tail_msm = now_ms() - t0;
    t0 = now_ms();
    const void *b2;
    void *tmp;
    if ((s = dev_bases(&b2, &tmp, zk, zk->b2, zk->b2_packed, nv, true)) == CUZK_OK)
        s = cuzk_backend_msm_g2(be, &o->b2, b2, p->wm, nv);
    cuzk_free(tmp);
    if (s != CUZK_OK)
        return s;
    tm->msm_b_g2 = now_ms() - t0;
    return CUZK_OK;
}

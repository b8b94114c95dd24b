/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Packed snarkjs keys (CUZK_SNARKJS_PACKED_POINTS): their point sections decoded on demand, for
 * the callers that need arrays of affine points (device uploads, residency). The CPU prover
 * does not come here: its MSMs decode packed bases themselves (src/msm/msm_packed.h).
 */
#include "groth16/binfile_map.h"
#include "groth16/snarkjs_internal.h"
#include "cuzk/alloc.h"

#include <string.h>

/* One coordinate's 48 bytes as limbs, false unless < q. */
static bool coord(cuzk_fp_t *out, const uint8_t in[48])
{
    cuzk__load_limbs(out->l, in, 6);
    return cuzk__limbs_lt(out->l, cuzk__bls_q, 6);
}

static bool zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

cuzk_status cuzk__snarkjs_unpack(void *dst, const uint8_t *src, size_t n, bool g2)
{
    size_t ps = g2 ? 192 : 96;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *in = src + i * ps;
        bool ok = true;
        if (g2) {
            cuzk_g2_affine_t *o = (cuzk_g2_affine_t *)dst + i;
            memset(o, 0, sizeof *o);
            o->infinity = zero(in, ps);
            if (!o->infinity)
                ok = coord(&o->x.c0, in) && coord(&o->x.c1, in + 48) && coord(&o->y.c0, in + 96) &&
                     coord(&o->y.c1, in + 144);
        } else {
            cuzk_g1_affine_t *o = (cuzk_g1_affine_t *)dst + i;
            memset(o, 0, sizeof *o);
            o->infinity = zero(in, ps);
            if (!o->infinity)
                ok = coord(&o->x, in) && coord(&o->y, in + 48);
        }
        if (!ok)
            return cuzk_fail(CUZK_ERR_FORMAT,
                             "zkey: packed point %zu has a coordinate >= q: the file changed "
                             "after the key was loaded",
                             i);
    }
    return CUZK_OK;
}

cuzk_status cuzk_snarkjs_zkey_unpack(cuzk_snarkjs_zkey *zk)
{
    if (!zk->a_packed)
        return CUZK_OK;
    size_t nv = zk->n_vars, np = zk->n_public;
    const uint8_t *src[5] = {zk->a_packed, zk->b1_packed, zk->b2_packed, zk->c_packed,
                             zk->h_packed};
    size_t n[5] = {nv, nv, nv, nv - np - 1, zk->domain_size};
    void *arr[5] = {NULL};
    cuzk_status s = CUZK_OK;
    for (int k = 0; k < 5 && s == CUZK_OK; k++) {
        bool g2 = k == 2;
        /* at least one element, as the loader allocates: an empty section is a valid pointer */
        arr[k] = cuzk_alloc_array(n[k] ? n[k] : 1,
                                  g2 ? sizeof(cuzk_g2_affine_t) : sizeof(cuzk_g1_affine_t));
        s = arr[k] ? cuzk__snarkjs_unpack(arr[k], src[k], n[k], g2)
                   : cuzk_fail(CUZK_ERR_NOMEM, "zkey: cannot allocate %zu points to unpack", n[k]);
    }
    if (s != CUZK_OK) {
        for (int k = 0; k < 5; k++)
            cuzk_free(arr[k]);
        return s;
    }
    zk->a = arr[0];
    zk->b1 = arr[1];
    zk->b2 = arr[2];
    zk->c = arr[3];
    zk->h = arr[4];
    zk->a_packed = zk->b1_packed = zk->b2_packed = zk->c_packed = zk->h_packed = NULL;
    if (zk->held_.mapped)
        cuzk__unmap_file(zk->held_.buf, zk->held_.len);
    else
        cuzk_free((void *)zk->held_.buf);
    memset(&zk->held_, 0, sizeof zk->held_);
    return CUZK_OK;
}

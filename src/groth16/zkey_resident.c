/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Device residency of a snarkjs key: the five point arrays of its MSMs (cuzk_backend_keep_resident
 * does the work), so that repeated proofs of one key on a GPU move only their scalars. */
#include "cuzk/backend.h"
#include "cuzk/snarkjs.h"
#include "cuzk/status.h"

static void arrays(const cuzk_snarkjs_zkey *zk, const void *arr[5], size_t n[5])
{
    size_t nv = zk->n_vars, np = zk->n_public;
    arr[0] = zk->h, n[0] = zk->domain_size;
    arr[1] = zk->a, n[1] = nv;
    arr[2] = zk->b1, n[2] = nv;
    arr[3] = zk->c, n[3] = nv > np + 1 ? nv - np - 1 : 0;
    arr[4] = zk->b2, n[4] = nv; /* G2 */
}

cuzk_status cuzk_snarkjs_zkey_keep_resident(cuzk_backend *be, const cuzk_snarkjs_zkey *zk)
{
    /* Residency is keyed by the arrays the proofs pass; a packed key has none. */
    if (zk->a_packed && cuzk_backend_device(be) >= 0)
        return cuzk_fail(CUZK_ERR_UNSUPPORTED, "a packed zkey (CUZK_SNARKJS_PACKED_POINTS) cannot "
                                               "be kept on a device: cuzk_snarkjs_zkey_unpack it "
                                               "first");
    const void *arr[5];
    size_t n[5];
    arrays(zk, arr, n);
    for (int i = 0; i < 5; i++) {
        if (!arr[i] || !n[i])
            continue;
        cuzk_status s = cuzk_backend_keep_resident(be, arr[i], n[i], i == 4);
        if (s != CUZK_OK) {
            cuzk_snarkjs_zkey_drop_resident(be, zk); /* all or nothing, like a parameter set */
            return s;
        }
    }
    return CUZK_OK;
}

void cuzk_snarkjs_zkey_drop_resident(cuzk_backend *be, const cuzk_snarkjs_zkey *zk)
{
    const void *arr[5];
    size_t n[5];
    arrays(zk, arr, n);
    for (int i = 0; i < 5; i++)
        if (arr[i])
            cuzk_backend_drop_resident(be, arr[i]);
}

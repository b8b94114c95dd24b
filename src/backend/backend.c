/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Backend selection and the CPU implementation (src/poly + src/msm over a thread pool). The
 * CUDA backend arrives with issue 4; until then asking for it fails with a clear message. */
#include "cuzk/backend.h"
#include "cuzk/alloc.h"
#include "cuzk/msm.h"

#include <string.h>

struct cuzk_backend {
    cuzk_backend_kind kind;
    cuzk_pool *pool;
};

cuzk_status cuzk_backend_parse_kind(const char *name, cuzk_backend_kind *out)
{
    if (strcmp(name, "auto") == 0)
        *out = CUZK_BACKEND_AUTO;
    else if (strcmp(name, "cpu") == 0)
        *out = CUZK_BACKEND_CPU;
    else if (strcmp(name, "cuda") == 0)
        *out = CUZK_BACKEND_CUDA;
    else
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "unknown backend '%s' (auto, cpu or cuda)", name);
    return CUZK_OK;
}

bool cuzk_backend_cuda_compiled(void)
{
    return false;
}

bool cuzk_backend_cuda_usable(void)
{
    return false;
}

cuzk_status cuzk_backend_create(cuzk_backend **out, cuzk_backend_kind kind, unsigned threads)
{
    *out = NULL;
    if (kind == CUZK_BACKEND_CUDA)
        return cuzk_fail(CUZK_ERR_NO_DEVICE,
                         "the CUDA backend is not built into this binary yet (issue 4); use "
                         "--backend cpu or auto");
    cuzk_backend *be = cuzk_alloc(sizeof *be);
    if (!be)
        return cuzk_fail(CUZK_ERR_NOMEM, "cannot allocate a backend");
    be->kind = CUZK_BACKEND_CPU;
    cuzk_status s = cuzk_pool_create(&be->pool, threads);
    if (s != CUZK_OK) {
        cuzk_free(be);
        return s;
    }
    *out = be;
    return CUZK_OK;
}

void cuzk_backend_destroy(cuzk_backend *be)
{
    if (!be)
        return;
    cuzk_pool_destroy(be->pool);
    cuzk_free(be);
}

const char *cuzk_backend_name(const cuzk_backend *be)
{
    return be->kind == CUZK_BACKEND_CUDA ? "cuda" : "cpu";
}

cuzk_pool *cuzk_backend_pool(const cuzk_backend *be)
{
    return be->pool;
}

unsigned cuzk_backend_threads(const cuzk_backend *be)
{
    return cuzk_pool_threads(be->pool);
}

cuzk_status cuzk_backend_h(cuzk_backend *be, const cuzk_domain *d, cuzk_fr_t *a, cuzk_fr_t *b,
                           cuzk_fr_t *c)
{
    cuzk_poly_h(d, a, b, c, be->pool);
    return CUZK_OK;
}

cuzk_status cuzk_backend_msm_g1(cuzk_backend *be, cuzk_g1_jac_t *out,
                                const cuzk_g1_affine_t *bases, const cuzk_fr_t *scalars, size_t n)
{
    return cuzk_g1_msm(out, bases, scalars, n, be->pool);
}

cuzk_status cuzk_backend_msm_g2(cuzk_backend *be, cuzk_g2_jac_t *out,
                                const cuzk_g2_affine_t *bases, const cuzk_fr_t *scalars, size_t n)
{
    return cuzk_g2_msm(out, bases, scalars, n, be->pool);
}

cuzk_status cuzk_backend_batch_add_g1(cuzk_backend *be, cuzk_g1_jac_t *out,
                                      const cuzk_g1_affine_t *bases, const uint64_t *bitmap,
                                      size_t n)
{
    return cuzk_g1_batch_add(out, bases, bitmap, n, be->pool);
}

cuzk_status cuzk_backend_batch_add_g2(cuzk_backend *be, cuzk_g2_jac_t *out,
                                      const cuzk_g2_affine_t *bases, const uint64_t *bitmap,
                                      size_t n)
{
    return cuzk_g2_batch_add(out, bases, bitmap, n, be->pool);
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The snarkjs prover's pool of MSM working memory (src/groth16/scratch_pool.h). */
#include "groth16/scratch_pool.h"
#include "cuzk/alloc.h"

#include <stdint.h>
#include <string.h>

void *cuzk__scratch_take(cuzk__scratch_pool *sp, size_t need, size_t *got)
{
    int best = -1, empty = -1;
    for (int i = 0; i < CUZK__SCRATCH_SLOTS; i++) {
        if (!sp->p[i]) {
            empty = empty < 0 ? i : empty;
        } else if (!sp->busy[i] && sp->bytes[i] >= need &&
                   (best < 0 || sp->bytes[i] < sp->bytes[best])) {
            best = i;
        }
    }
    if (best < 0 && empty >= 0 && need != SIZE_MAX && (sp->p[empty] = cuzk_alloc(need)))
        best = empty, sp->bytes[empty] = need;
    if (best < 0) {
        *got = 0;
        return NULL;
    }
    sp->busy[best] = true;
    *got = sp->bytes[best];
    return sp->p[best];
}

void cuzk__scratch_give(cuzk__scratch_pool *sp, const void *p)
{
    for (int i = 0; p && i < CUZK__SCRATCH_SLOTS; i++)
        if (sp->p[i] == p)
            sp->busy[i] = false;
}

void cuzk__scratch_free(cuzk__scratch_pool *sp)
{
    for (int i = 0; i < CUZK__SCRATCH_SLOTS; i++)
        cuzk_free(sp->p[i]);
    memset(sp, 0, sizeof *sp);
}

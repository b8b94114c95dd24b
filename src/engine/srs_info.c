/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Registered circuits described: their keys, sizes and how their points were checked (the SRS
 * manager's tiers are src/engine/srs.c's). */
#include "engine/engine_internal.h"

#include "cuzk/alloc.h"

#include <stdio.h>
#include <string.h>

const char *cuzk__srs_subgroups_word(const srs_entry *c)
{
    return c->loaded_once ? cuzk_subgroups_name(c->subgroups) : "";
}

cuzk_status cuzk_engine_circuit_info_get(cuzk_engine *e, const char *circuit_id,
                                         cuzk_engine_circuit_info *out)
{
    if (!e || !circuit_id || !out)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "circuit_info: arguments are required");
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(&e->mu);
    srs_entry *c = cuzk__srs_find_locked(e, circuit_id);
    pthread_mutex_unlock(&e->mu);
    if (!c)
        return cuzk_fail(CUZK_ERR_NOT_FOUND, "circuit %.128s is not registered", circuit_id);
    /* A zkey's key in bellperson form comes out of the full decode. */
    cuzk_status s =
        c->source == CUZK_CIRCUIT_ZKEY ? cuzk__srs_load(e, c) : cuzk__srs_warm(e, c);
    if (s != CUZK_OK)
        return s;
    uint64_t nc;
    pthread_mutex_lock(&e->mu);
    nc = c->n_constraints;
    pthread_mutex_unlock(&e->mu);
    if (nc == 0 && c->source == CUZK_CIRCUIT_BUILTIN) {
        /* Parameters from elsewhere: count by a witness-only synthesis. */
        cuzk_cs *cs = NULL;
        if ((s = cuzk_cs_create(&cs, CUZK_CS_WITNESS, 0, 0)) == CUZK_OK &&
            (s = cuzk_circuit_synthesize(cs, &c->circuit)) == CUZK_OK) {
            nc = cuzk_cs_num_constraints(cs) - cuzk_cs_num_inputs(cs);
        }
        cuzk_cs_destroy(cs);
        if (s != CUZK_OK)
            return s;
    }
    pthread_mutex_lock(&e->mu);
    if (nc && !c->n_constraints)
        c->n_constraints = nc;
    if (!c->vk_image) { /* evicted meanwhile */
        pthread_mutex_unlock(&e->mu);
        return cuzk_fail(CUZK_ERR_UNAVAILABLE,
                         "circuit %s was evicted while being described; "
                         "try again",
                         c->id);
    }
    out->vk = cuzk_alloc(c->vk_len);
    if (!out->vk) {
        pthread_mutex_unlock(&e->mu);
        return cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
    }
    memcpy(out->vk, c->vk_image, c->vk_len);
    out->vk_len = c->vk_len;
    snprintf(out->id, sizeof out->id, "%s", c->id);
    if (c->source == CUZK_CIRCUIT_BUILTIN)
        snprintf(out->source, sizeof out->source, "builtin:%s", c->spec);
    else
        snprintf(out->source, sizeof out->source, "zkey");
    out->n_public_inputs = c->n_public;
    out->n_constraints = nc;
    snprintf(out->subgroups, sizeof out->subgroups, "%s", cuzk__srs_subgroups_word(c));
    pthread_mutex_unlock(&e->mu);
    return CUZK_OK;
}

void cuzk_engine_circuit_info_clear(cuzk_engine_circuit_info *info)
{
    if (!info)
        return;
    cuzk_free(info->vk);
    memset(info, 0, sizeof *info);
}

cuzk_status cuzk_engine_circuits(cuzk_engine *e, char ***ids, size_t *n)
{
    if (!e || !ids || !n)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "circuits: arguments are required");
    pthread_mutex_lock(&e->mu);
    size_t k = e->n_circs;
    char **v = cuzk_calloc_array(k ? k : 1, sizeof *v);
    bool ok = v != NULL;
    for (size_t i = 0; ok && i < k; i++)
        ok = (v[i] = cuzk_strdup(e->circs[i]->id)) != NULL;
    pthread_mutex_unlock(&e->mu);
    if (!ok) {
        for (size_t i = 0; v && i < k; i++)
            cuzk_free(v[i]);
        cuzk_free(v);
        return cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
    }
    *ids = v;
    *n = k;
    return CUZK_OK;
}

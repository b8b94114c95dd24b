/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * PCE in the engine (engine config pce). A builtin circuit's first partition is synthesised
 * directly (PROVE or PROVE_AB: a, b, c evaluated constraint by constraint); then its matrices
 * are extracted on a thread of their own (a KEYGEN synthesis compiled to CSR, src/r1cs/pce.c)
 * while partitions go on the direct way. Once the PCE is ready, a partition is a WITNESS
 * synthesis (assignments only) plus the sparse products A z, B z (and C z on the CPU) over the
 * load pool: the same a, b, c and densities, in less time, because evaluating the linear
 * combinations is most of a direct synthesis (docs/PERFORMANCE.md "The PCE in the engine").
 *
 * Memory: the extraction is charged an estimate while it runs (the compact KEYGEN record, then
 * the compiled matrices) and starts only when the budget has room; the compiled PCE stays
 * charged while it is kept. It goes when its parameter set leaves the HOT tier (eviction; a
 * FAILED state is reset then, so an eviction retries).
 *
 * Files (cfg.pce_cache_tag): a PCE extracted is written under the cache directory and the next
 * engine with the same tag reads it instead of extracting (about 45-60 s for a 32 GiB PoRep
 * partition). Should a proof of a partition synthesised through a PCE fail self-verification,
 * the PCE is distrusted: later partitions go the direct way and its file is removed.
 */
#include "engine/engine_internal.h"

#include "cuzk/alloc.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bytes per row an extraction may use at its peak: the compact KEYGEN record (a u32 id and a u32
 * coefficient index per non-zero, arrays grown by doubling; u64 row pointers) and the compiled
 * matrices. Measured: at most ~180 bytes a row at 32 GiB (docs/PERFORMANCE.md "The PCE in the
 * engine"). */
#define PCE_EXTRACT_BYTES_PER_ROW 256u

/* A partition that found no room for an extraction lets the next ones try again, but not more
 * often than this. */
#define PCE_RETRY_MS 1000.0

typedef struct {
    cuzk_engine *e;
    srs_entry *c;
    size_t n_constraints, n_inputs, n_aux;
} pce_job;

/* <cache_dir>/pce/<spec, ':' as '_'>.<tag>.pce, or false without a tag (no PCE files). The tag
 * names the code that extracted it (the daemon's build commit): a file from other code is never
 * read. */
static bool pce_path(const cuzk_engine *e, const srs_entry *c, char *out, size_t n)
{
    if (!e->pce_tag[0] || !c->spec)
        return false;
    int k = snprintf(out, n, "%s/pce/", e->cache_dir);
    for (const char *p = c->spec; k > 0 && (size_t)k + 1 < n && *p; p++)
        out[k++] = *p == ':' ? '_' : *p;
    if (k <= 0 || (size_t)k >= n)
        return false;
    int m = snprintf(out + k, n - (size_t)k, ".%s.pce", e->pce_tag);
    return m > 0 && (size_t)m < n - (size_t)k;
}

static bool dims_ok(const cuzk_pce *p, const pce_job *pj)
{
    return cuzk_pce_num_constraints(p) == pj->n_constraints &&
           cuzk_pce_num_inputs(p) == pj->n_inputs && cuzk_pce_num_aux(p) == pj->n_aux;
}

/* The PCE from its file, or NULL (none, or unusable: said, and removed). */
static cuzk_pce *pce_read(const char *path, const srs_entry *c, const pce_job *pj)
{
    if (access(path, F_OK) != 0)
        return NULL;
    cuzk_pce *p = NULL;
    cuzk_status s = cuzk_pce_load(&p, path);
    if (s == CUZK_OK && !dims_ok(p, pj))
        s = cuzk_fail(CUZK_ERR_FORMAT, "its sizes are not the circuit's");
    if (s == CUZK_OK)
        return p;
    fprintf(stderr, "cuzk: PCE file %s of circuit %s unusable (%s); extracting it again\n", path,
            c->id, cuzk_last_error());
    cuzk_pce_destroy(p);
    remove(path);
    return NULL;
}

/* Written beside and renamed, so that a reader never sees half a file; a failure is only said. */
static void pce_write(const char *path, const cuzk_pce *p, const srs_entry *c)
{
    char dir[1200], tmp[1300];
    snprintf(dir, sizeof dir, "%.1199s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "cuzk: PCE of circuit %s not written: %s: %s\n", c->id, dir,
                strerror(errno));
        return;
    }
    if (snprintf(tmp, sizeof tmp, "%.1200s.tmp.%d", path, (int)getpid()) >= (int)sizeof tmp)
        return;
    cuzk_status s = cuzk_pce_save(p, tmp);
    if (s == CUZK_OK && rename(tmp, path) != 0)
        s = cuzk_fail(CUZK_ERR_IO, "rename to %s: %s", path, strerror(errno));
    if (s != CUZK_OK) {
        fprintf(stderr, "cuzk: PCE of circuit %s not written (%s)\n", c->id, cuzk_last_error());
        remove(tmp);
    }
}

const char *cuzk__pce_state_word(const srs_entry *c)
{
    switch (c->pce_state) {
    case PCE_BUILDING:
        return "building";
    case PCE_READY:
        return "ready";
    case PCE_FAILED:
        return "failed";
    default:
        return "";
    }
}

static void *extract_main(void *arg)
{
    pce_job pj = *(pce_job *)arg;
    cuzk_free(arg);
    cuzk_engine *e = pj.e;
    srs_entry *c = pj.c;
    /* The structure of a builtin circuit does not depend on its witness: a synthetic
     * partition (seed 0, no data) records the same matrices as every real one. KEYGEN runs on
     * this thread alone, beside the synthesis workers. */
    cuzk_circuit circ = c->circuit;
    circ.params.seed = 0;
    circ.params.data = NULL;
    circ.params.threads = 1;
    double t0 = cuzk__engine_now_ms();
    char path[1200];
    bool file = pce_path(e, c, path, sizeof path);
    cuzk_pce *pce = file ? pce_read(path, c, &pj) : NULL;
    bool from_file = pce != NULL;
    cuzk_status s = pce ? CUZK_OK : cuzk_pce_extract_cancellable(&pce, &circ, &e->pce_cancel);
    if (s == CUZK_OK && !dims_ok(pce, &pj))
        s = cuzk_fail(CUZK_ERR_INTERNAL,
                      "the extracted matrices have %zu constraints, %zu inputs and %zu aux "
                      "variables, a partition had %zu, %zu and %zu",
                      cuzk_pce_num_constraints(pce), cuzk_pce_num_inputs(pce),
                      cuzk_pce_num_aux(pce), pj.n_constraints, pj.n_inputs, pj.n_aux);
    char why[256] = "";
    if (s != CUZK_OK) {
        snprintf(why, sizeof why, "%s", cuzk_last_error());
        cuzk_pce_destroy(pce);
        pce = NULL;
    }
    double ms = cuzk__engine_now_ms() - t0;
    if (pce && file && !from_file)
        pce_write(path, pce, c);

    pthread_mutex_lock(&e->mu);
    e->mem_in_use -= c->pce_reserve;
    c->pce_reserve = 0;
    c->pce_extract_ms = ms;
    c->pce_from_file = from_file;
    cuzk_pce *unused = NULL;
    if (pce && !c->params) { /* its set was evicted meanwhile: the PCE goes too (the file stays) */
        unused = pce;
        pce = NULL;
        c->pce_state = PCE_NONE;
    } else if (pce) {
        c->pce = pce;
        c->pce_bytes = cuzk_pce_memory_bytes(pce);
        c->pce_state = PCE_READY;
        c->pce_error[0] = 0;
        e->mem_in_use += c->pce_bytes;
        e->pce_in_use += c->pce_bytes;
    } else {
        c->pce_state = PCE_FAILED;
        snprintf(c->pce_error, sizeof c->pce_error, "%s", why);
    }
    pthread_cond_broadcast(&e->space_cv);
    pthread_mutex_unlock(&e->mu);
    cuzk_pce_destroy(unused);
    if (!pce && !unused && s != CUZK_ERR_CANCELLED)
        fprintf(stderr,
                "cuzk: PCE of circuit %s not built (%s); its partitions are synthesised "
                "directly\n",
                c->id, why);
    return NULL;
}

void cuzk__pce_kick_locked(cuzk_engine *e, srs_entry *c, size_t rows)
{
    if (!e->cfg.pce || c->source != CUZK_CIRCUIT_BUILTIN || c->pce_state != PCE_NONE ||
        e->stopping || !c->params)
        return;
    double now = cuzk__engine_now_ms();
    if (now < c->pce_retry_ms)
        return;
    if (c->pce_thread) { /* the last extraction ended (its PCE since dropped): reap it */
        pthread_join(c->pce_th, NULL);
        c->pce_thread = false;
    }
    uint64_t est = (uint64_t)rows * PCE_EXTRACT_BYTES_PER_ROW;
    if (e->mem_in_use + e->pinned_in_use + e->scratch_in_use + est > e->mem_budget) {
        c->pce_retry_ms = now + PCE_RETRY_MS;
        snprintf(c->pce_error, sizeof c->pce_error,
                 "waiting for %llu bytes of memory budget to extract it", (unsigned long long)est);
        return;
    }
    pce_job *pj = cuzk_alloc(sizeof *pj);
    if (!pj)
        return;
    pj->e = e;
    pj->c = c;
    pj->n_inputs = c->params->vk->ic_len;
    pj->n_aux = c->params->n_l;
    pj->n_constraints = rows - pj->n_inputs;
    c->pce_state = PCE_BUILDING;
    c->pce_reserve = est;
    c->pce_error[0] = 0;
    e->mem_in_use += est;
    if (pthread_create(&c->pce_th, NULL, extract_main, pj) != 0) {
        cuzk_free(pj);
        e->mem_in_use -= est;
        c->pce_reserve = 0;
        c->pce_state = PCE_FAILED;
        snprintf(c->pce_error, sizeof c->pce_error, "could not start the extraction thread");
        return;
    }
    c->pce_thread = true;
}

cuzk_status cuzk__pce_synthesize(cuzk_engine *e, const cuzk_pce *pce, const cuzk_circuit *circ,
                                 size_t aux_hint, size_t rows_reserved, cuzk_prover_data *pd,
                                 double *witness_ms, double *matvec_ms)
{
    double t0 = cuzk__engine_now_ms();
    cuzk_cs *cs = NULL;
    cuzk_status s = cuzk_cs_create(&cs, CUZK_CS_WITNESS, aux_hint, 0);
    if (s == CUZK_OK)
        s = cuzk_circuit_synthesize(cs, circ);
    if (s == CUZK_OK)
        s = cuzk_cs_take_prover_data(cs, pd);
    cuzk_cs_destroy(cs);
    double t1 = cuzk__engine_now_ms();
    *witness_ms = t1 - t0;
    *matvec_ms = 0;
    if (s != CUZK_OK)
        return s;
    if (e->abc_pool)
        pd->abc_alloc = cuzk_host_pool_allocator(e->abc_pool);
    pd->abc_cap = rows_reserved;
    s = cuzk__abc_vectors(e) == 2 ? cuzk_pce_eval_ab_into(pce, e->load_pool, pd)
                                  : cuzk_pce_eval_into(pce, e->load_pool, pd);
    *matvec_ms = cuzk__engine_now_ms() - t1;
    if (s != CUZK_OK)
        cuzk_prover_data_free(pd);
    return s;
}

void cuzk__pce_drop_locked(srs_entry *c, cuzk_pce **out)
{
    *out = NULL;
    if (c->pce_state == PCE_BUILDING) /* its thread sets the outcome */
        return;
    *out = c->pce; /* READY, or FAILED after a proof through it failed */
    c->pce = NULL;
    c->pce_state = PCE_NONE;
    /* The caller uncharges pce_bytes once the PCE is freed. */
}

void cuzk__pce_distrust_locked(cuzk_engine *e, srs_entry *c)
{
    if (c->pce_state != PCE_READY)
        return;
    c->pce_state = PCE_FAILED;
    snprintf(c->pce_error, sizeof c->pce_error,
             "a proof of a partition synthesised through it failed self-verification%s",
             c->pce_from_file ? " (it was read from its file, now removed)" : "");
    char path[1200];
    if (pce_path(e, c, path, sizeof path))
        remove(path);
    fprintf(stderr, "cuzk: PCE of circuit %s: %s; later partitions are synthesised directly\n",
            c->id, c->pce_error);
}

void cuzk__pce_join(cuzk_engine *e)
{
    __atomic_store_n(&e->pce_cancel, 1, __ATOMIC_RELAXED);
    pthread_mutex_lock(&e->mu);
    for (size_t i = 0; i < e->n_circs; i++) {
        srs_entry *c = e->circs[i];
        if (!c->pce_thread)
            continue;
        c->pce_thread = false;
        pthread_mutex_unlock(&e->mu);
        pthread_join(c->pce_th, NULL);
        pthread_mutex_lock(&e->mu);
    }
    pthread_mutex_unlock(&e->mu);
}

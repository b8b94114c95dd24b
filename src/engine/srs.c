/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * SRS manager: per registered circuit COLD (on disk) -> WARM (file mapped, key parsed, sizes
 * known) -> HOT (points decoded in memory, charged to the pinned budget). A load that needs room
 * evicts idle HOT entries, least recently used first; reference counts (partitions in flight)
 * keep an entry HOT while it is used.
 */
#include "engine/engine_internal.h"

#include "common/file.h"
#include "cuzk/alloc.h"
#include "groth16/prover_internal.h"
#include "gpu/gpu.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define G1_FILE 96u
#define G2_FILE 192u

srs_entry *cuzk__srs_find_locked(cuzk_engine *e, const char *id)
{
    for (size_t i = 0; i < e->n_circs; i++)
        if (strcmp(e->circs[i]->id, id) == 0)
            return e->circs[i];
    return NULL;
}

static bool id_ok(const char *id)
{
    size_t n = strlen(id);
    if (n == 0 || n >= CUZK_ENGINE_ID_MAX)
        return false;
    for (const char *p = id; *p; p++) {
        char c = *p;
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == ':' || c == '-'))
            return false;
    }
    return true;
}

cuzk_status cuzk_engine_add_circuit(cuzk_engine *e, const cuzk_engine_circuit *c)
{
    if (!e || !c || !c->id)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "add_circuit: engine, circuit and id are required");
    if (!id_ok(c->id))
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "circuit id \"%.64s\" is invalid: 1..%d characters of [A-Za-z0-9._:-]",
                         c->id, CUZK_ENGINE_ID_MAX - 1);
    srs_entry *x = cuzk_calloc_array(1, sizeof *x);
    if (!x)
        return cuzk_fail(CUZK_ERR_NOMEM, "add_circuit: out of memory");
    snprintf(x->id, sizeof x->id, "%s", c->id);
    x->source = c->source;
    x->tier = CUZK_TIER_COLD;
    cuzk_status s = CUZK_OK;
    if (c->source == CUZK_CIRCUIT_BUILTIN) {
        if (!c->spec)
            s = cuzk_fail(CUZK_ERR_INVALID_ARG, "circuit %s: a built-in circuit needs a spec",
                          c->id);
        else if ((s = cuzk_circuit_find(c->spec, &x->circuit)) != CUZK_OK)
            s = cuzk_fail(s, "circuit %s: %s", c->id, cuzk_last_error());
        else if (!(x->spec = cuzk_strdup(c->spec)))
            s = cuzk_fail(CUZK_ERR_NOMEM, "add_circuit: out of memory");
        if (s == CUZK_OK) {
            if (c->params_path && c->params_path[0]) {
                x->path = cuzk_strdup(c->params_path);
            } else {
                char buf[4096];
                snprintf(buf, sizeof buf, "%s/%s.params", e->cache_dir, c->id);
                x->path = cuzk_strdup(buf);
                x->generated = true;
            }
            if (!x->path)
                s = cuzk_fail(CUZK_ERR_NOMEM, "add_circuit: out of memory");
        }
    } else if (c->source == CUZK_CIRCUIT_ZKEY) {
        if (!c->zkey_path || !c->zkey_path[0])
            s = cuzk_fail(CUZK_ERR_INVALID_ARG, "circuit %s: a zkey circuit needs zkey_path",
                          c->id);
        else if (!(x->path = cuzk_strdup(c->zkey_path)))
            s = cuzk_fail(CUZK_ERR_NOMEM, "add_circuit: out of memory");
    } else {
        s = cuzk_fail(CUZK_ERR_INVALID_ARG, "circuit %s: unknown source %d", c->id, (int)c->source);
    }
    if (s != CUZK_OK) {
        cuzk__srs_entry_free(x);
        return s;
    }
    pthread_mutex_lock(&e->mu);
    if (cuzk__srs_find_locked(e, x->id)) {
        pthread_mutex_unlock(&e->mu);
        s = cuzk_fail(CUZK_ERR_INVALID_ARG, "circuit %s is already registered", x->id);
        cuzk__srs_entry_free(x);
        return s;
    }
    if (e->n_circs == e->cap_circs) {
        size_t cap = e->cap_circs ? 2 * e->cap_circs : 8;
        srs_entry **n = cuzk_alloc_array(cap, sizeof *n);
        if (!n) {
            pthread_mutex_unlock(&e->mu);
            cuzk__srs_entry_free(x);
            return cuzk_fail(CUZK_ERR_NOMEM, "add_circuit: out of memory");
        }
        if (e->n_circs)
            memcpy(n, e->circs, e->n_circs * sizeof *n);
        cuzk_free(e->circs);
        e->circs = n;
        e->cap_circs = cap;
    }
    e->circs[e->n_circs++] = x;
    pthread_mutex_unlock(&e->mu);
    return CUZK_OK;
}

/* ---- tier changes (e->mu held) ------------------------------------------------------------- */

void (*cuzk__srs_drop_hook)(cuzk_engine *e, const char *circuit_id);

/*
 * Drops |c|'s HOT set (and, |cold|, its WARM mapping too). A set is tens of GB on a PoRep
 * host: unpinning and unmapping it takes long enough that other engine calls (status,
 * submissions, the provers' hand-offs) must not wait for it, so the freeing runs with e->mu
 * released. Meanwhile the entry is busy (loads and EvictSRS wait for it, eviction skips it)
 * and its bytes stay charged to the budgets, so nothing is admitted into memory not yet
 * returned. Called and returns with e->mu held; callers re-check their state afterwards.
 */
static void drop_locked(cuzk_engine *e, srs_entry *c, bool cold)
{
    cuzk_groth16_params *p = c->params;
    cuzk_snarkjs_zkey *zk = c->zkey;
    uint8_t *map = cold ? c->map : NULL;
    size_t map_len = c->map_len;
    uint64_t held = c->held_bytes;
    cuzk_pce *pce;
    uint64_t pce_bytes = c->pce_bytes;
    cuzk__pce_drop_locked(c, &pce); /* the circuit's PCE goes with its set */
    c->params = NULL;
    c->zkey = NULL;
    if (c->tier == CUZK_TIER_HOT)
        c->tier = CUZK_TIER_WARM;
    if (cold) {
        c->map = NULL;
        c->map_len = 0;
        cuzk_free(c->vk_image);
        c->vk_image = NULL;
        c->vk_len = 0;
        c->tier = CUZK_TIER_COLD;
        c->drop_when_idle = false;
    }
    if (p || zk || map || pce) {
        bool was_busy = c->busy;
        c->busy = true;
        pthread_mutex_unlock(&e->mu);
        /* Unused now (ref_count 0), so no prover reads the device copies being freed. */
        for (unsigned i = 0; i < e->n_provers; i++) {
            if (!e->provers[i].be)
                continue;
            if (p)
                cuzk_groth16_params_drop_resident(e->provers[i].be, p);
            if (zk)
                cuzk_snarkjs_zkey_drop_resident(e->provers[i].be, zk);
        }
        if (cuzk__srs_drop_hook)
            cuzk__srs_drop_hook(e, c->id);
        cuzk_groth16_params_free(p);
        cuzk_snarkjs_zkey_free(zk);
        if (map)
            munmap(map, map_len);
        cuzk_pce_destroy(pce);
        pthread_mutex_lock(&e->mu);
        c->busy = was_busy;
        pthread_cond_broadcast(&e->srs_cv);
    }
    e->pinned_in_use -= held;
    c->held_bytes = 0;
    if (pce) {
        e->mem_in_use -= pce_bytes;
        e->pce_in_use -= pce_bytes;
        c->pce_bytes = 0;
        pthread_cond_broadcast(&e->space_cv);
    }
}

void cuzk__srs_entry_free(srs_entry *c)
{
    if (!c)
        return;
    cuzk_groth16_params_free(c->params);
    cuzk_snarkjs_zkey_free(c->zkey);
    cuzk_pce_destroy(c->pce);
    if (c->map)
        munmap(c->map, c->map_len);
    cuzk_free(c->vk_image);
    cuzk_free(c->spec);
    cuzk_free(c->path);
    cuzk_free(c);
}

void cuzk__srs_release_locked(cuzk_engine *e, srs_entry *c)
{
    if (c->ref_count > 0)
        c->ref_count--;
    c->last_used_ms = (uint64_t)cuzk__engine_now_ms();
    if (c->ref_count == 0 && c->drop_when_idle)
        drop_locked(e, c, true);
    pthread_cond_broadcast(&e->srs_cv);
}

bool cuzk__srs_evict_idle_locked(cuzk_engine *e, const srs_entry *keep)
{
    uint64_t now = (uint64_t)cuzk__engine_now_ms();
    srs_entry *victim = NULL;
    for (size_t i = 0; i < e->n_circs; i++) {
        srs_entry *x = e->circs[i];
        if (x == keep || x->tier != CUZK_TIER_HOT || x->busy || x->ref_count > 0 ||
            now - x->last_used_ms < e->cfg.eviction_min_idle_ms)
            continue;
        if (!victim || x->last_used_ms < victim->last_used_ms)
            victim = x;
    }
    if (!victim)
        return false;
    drop_locked(e, victim, false);
    pthread_cond_broadcast(&e->space_cv); /* partitions waiting for the total budget */
    return true;
}

/* What the prover workers' scratch charge grows by once |c| is HOT: each worker may then hold
 * the per-slot maximum over the HOT sets so far (a backend's slots keep their largest size), so
 * the charge is n_provers x that sum. An upper bound: a worker that never proves the set never
 * grows its slots. */
static uint64_t scratch_growth(const cuzk_engine *e, const srs_entry *c)
{
    uint64_t g = 0;
    for (unsigned i = 0; i < CUZK_BACKEND_SCRATCH_SLOTS; i++)
        if (c->scratch[i] > e->scratch_max[i])
            g += c->scratch[i] - e->scratch_max[i];
    return g * e->n_provers;
}

static void scratch_charge_locked(cuzk_engine *e, const srs_entry *c)
{
    const uint64_t grow = scratch_growth(e, c);
    if (grow)
        pthread_cond_broadcast(&e->queue_cv); /* idle prover workers reserve it (warm.c) */
    e->scratch_in_use += grow;
    for (unsigned i = 0; i < CUZK_BACKEND_SCRATCH_SLOTS; i++)
        if (c->scratch[i] > e->scratch_max[i])
            e->scratch_max[i] = c->scratch[i];
}

/* Reserves c->hot_bytes of the pinned budget and of the total memory budget (which HOT sets share
 * with the partitions in flight and the prover workers' scratch: memory.total_budget is one
 * budget for the host, as in Curio's cuzk), with the growth of the scratch charge |c| brings,
 * evicting idle HOT entries (LRU). |wait|: jobs wait for space held by entries in use and by
 * partitions in flight (both are released at partition boundaries). */
static cuzk_status reserve_pinned_locked(cuzk_engine *e, srs_entry *c, bool wait)
{
    uint64_t need = c->hot_bytes;
    if (need > e->pinned_budget)
        return cuzk_fail(CUZK_ERR_NOMEM,
                         "circuit %s needs %llu bytes of decoded parameters, more than the whole "
                         "pinned budget (%llu bytes)",
                         c->id, (unsigned long long)need, (unsigned long long)e->pinned_budget);
    /* The workers' scratch is never released, so it counts against a set and one partition. */
    uint64_t scratch = e->scratch_in_use + scratch_growth(e, c);
    if (need + c->part_bytes + scratch > e->mem_budget)
        return cuzk_fail(CUZK_ERR_NOMEM,
                         "circuit %s needs %llu bytes of decoded parameters and about %llu bytes "
                         "per partition in flight, and the %u prover workers' scratch would hold "
                         "%llu bytes: more than the whole total memory budget (%llu bytes)",
                         c->id, (unsigned long long)need, (unsigned long long)c->part_bytes,
                         e->n_provers, (unsigned long long)scratch,
                         (unsigned long long)e->mem_budget);
    for (;;) {
        const bool pinned_ok = e->pinned_in_use + need <= e->pinned_budget;
        /* recomputed per round: another set's reservation may have raised the scratch */
        const uint64_t grow = scratch_growth(e, c);
        if (pinned_ok &&
            e->pinned_in_use + e->mem_in_use + e->scratch_in_use + grow + need <= e->mem_budget) {
            e->pinned_in_use += need;
            c->held_bytes = need;
            scratch_charge_locked(e, c);
            return CUZK_OK;
        }
        if (cuzk__srs_evict_idle_locked(e, c))
            continue;
        if ((!wait || e->stopping) && !pinned_ok)
            return cuzk_fail(
                CUZK_ERR_NOMEM,
                "pinned budget of %llu bytes is full (%llu bytes held by parameter "
                "sets in use or used less than %llu ms ago); circuit %s needs %llu "
                "bytes",
                (unsigned long long)e->pinned_budget, (unsigned long long)e->pinned_in_use,
                (unsigned long long)e->cfg.eviction_min_idle_ms, c->id, (unsigned long long)need);
        if (!wait || e->stopping)
            return cuzk_fail(
                CUZK_ERR_NOMEM,
                "total memory budget of %llu bytes is full (%llu bytes of parameter sets in use "
                "or used less than %llu ms ago, %llu bytes of partitions in flight, %llu bytes of "
                "prover scratch); circuit %s needs %llu bytes and %llu more of scratch",
                (unsigned long long)e->mem_budget, (unsigned long long)e->pinned_in_use,
                (unsigned long long)e->cfg.eviction_min_idle_ms, (unsigned long long)e->mem_in_use,
                (unsigned long long)e->scratch_in_use, c->id, (unsigned long long)need,
                (unsigned long long)scratch_growth(e, c));
        cuzk__engine_wait_ms(&e->srs_cv, &e->mu, 50);
    }
}

/* ---- loading (c->busy held, e->mu NOT held) ------------------------------------------------- */

typedef struct {
    uint8_t *map;
    size_t map_len;
    uint8_t *vk_image;
    size_t vk_len;
    uint32_t n_public;
    uint64_t n_constraints, hot_bytes, part_bytes;
    uint64_t scratch[CUZK_BACKEND_SCRATCH_SLOTS];
} warm_info;

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static cuzk_status map_file(const char *path, uint8_t **map, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return cuzk_fail(CUZK_ERR_IO, "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int err = errno;
        close(fd);
        return cuzk_fail(CUZK_ERR_IO, "cannot stat %s: %s", path, strerror(err));
    }
    if (st.st_size <= 0) {
        close(fd);
        return cuzk_fail(CUZK_ERR_FORMAT, "%s is empty", path);
    }
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int err = errno;
    close(fd);
    if (m == MAP_FAILED)
        return cuzk_fail(CUZK_ERR_IO, "cannot map %s: %s", path, strerror(err));
    *map = m;
    *len = (size_t)st.st_size;
    return CUZK_OK;
}

/* Test setup for a built-in circuit: <cache>/<id>.vk then <id>.params, each written atomically
 * (the .params file appearing last marks a complete pair). */
static cuzk_status generate_params(cuzk_engine *e, srs_entry *c, uint64_t *n_constraints)
{
    if (mkdir(e->cache_dir, 0755) != 0 && errno != EEXIST)
        return cuzk_fail(CUZK_ERR_IO, "cannot create cache directory %s: %s", e->cache_dir,
                         strerror(errno));
    cuzk_cs *cs = NULL;
    cuzk_r1cs_matrices m;
    memset(&m, 0, sizeof m);
    cuzk_groth16_params *p = NULL;
    cuzk_status s = cuzk_cs_create(&cs, CUZK_CS_KEYGEN, 0, 0);
    if (s == CUZK_OK)
        s = cuzk_circuit_synthesize(cs, &c->circuit);
    if (s == CUZK_OK)
        s = cuzk_cs_take_matrices(cs, &m);
    if (s == CUZK_OK)
        s = cuzk_groth16_setup(&p, &m, e->load_pool);
    if (s == CUZK_OK) {
        char vk_path[4200];
        snprintf(vk_path, sizeof vk_path, "%s/%s.vk", e->cache_dir, c->id);
        s = cuzk_groth16_vk_write(p->vk, vk_path);
    }
    if (s == CUZK_OK)
        s = cuzk_groth16_params_write(p, c->path);
    if (s == CUZK_OK)
        *n_constraints = m.n_constraints;
    else
        s = cuzk_fail(s, "test setup of circuit %s failed: %s", c->id, cuzk_last_error());
    cuzk_groth16_params_free(p);
    cuzk_r1cs_matrices_free(&m);
    cuzk_cs_destroy(cs);
    return s;
}

static cuzk_status warm_params(cuzk_engine *e, srs_entry *c, warm_info *w)
{
    cuzk_status s;
    if (c->generated && access(c->path, F_OK) != 0 &&
        (s = generate_params(e, c, &w->n_constraints)) != CUZK_OK)
        return s;
    if ((s = map_file(c->path, &w->map, &w->map_len)) != CUZK_OK)
        return s;
    const uint8_t *b = w->map;
    size_t len = w->map_len;
    if (len < 868)
        return cuzk_fail(CUZK_ERR_FORMAT,
                         "%s: truncated parameter file (%zu bytes, the key alone "
                         "needs at least 868)",
                         c->path, len);
    uint64_t ic = be32(b + 864);
    uint64_t vk_len = 868 + 96 * ic;
    if (ic == 0 || vk_len > len)
        return cuzk_fail(CUZK_ERR_FORMAT,
                         "%s: truncated or corrupt parameter file (ic_len %llu, "
                         "%zu bytes)",
                         c->path, (unsigned long long)ic, len);
    cuzk_groth16_vk *vk = NULL;
    if ((s = cuzk_groth16_vk_parse(&vk, b, vk_len)) != CUZK_OK)
        return cuzk_fail(s, "%s: %s", c->path, cuzk_last_error());
    cuzk_groth16_vk_free(vk);
    static const char *const names[5] = {"H", "L", "A", "B_G1", "B_G2"};
    uint64_t n[5], off = vk_len;
    for (int q = 0; q < 5; q++) {
        if (off + 4 > len)
            return cuzk_fail(CUZK_ERR_FORMAT,
                             "%s: truncated parameter file: the %s query length "
                             "at offset %llu is past the end (%zu bytes)",
                             c->path, names[q], (unsigned long long)off, len);
        n[q] = be32(b + off);
        uint64_t sz = n[q] * (q == 4 ? G2_FILE : G1_FILE);
        off += 4;
        if (sz > len - off)
            return cuzk_fail(CUZK_ERR_FORMAT,
                             "%s: truncated parameter file: the %s query "
                             "declares %llu points at offset %llu but the file has %zu bytes",
                             c->path, names[q], (unsigned long long)n[q], (unsigned long long)off,
                             len);
        off += sz;
    }
    if (!(w->vk_image = cuzk_alloc(vk_len)))
        return cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
    memcpy(w->vk_image, b, vk_len);
    w->vk_len = vk_len;
    w->n_public = (uint32_t)(ic - 1);
    uint64_t domain = n[0] + 1, words_aux = (n[1] + 63) / 64, words_in = (ic + 63) / 64;
    w->hot_bytes = (n[0] + n[1] + n[2] + n[3] + ic) * sizeof(cuzk_g1_affine_t) +
                   n[4] * sizeof(cuzk_g2_affine_t) + sizeof(cuzk_groth16_params) +
                   sizeof(cuzk_groth16_vk);
    w->part_bytes =
        cuzk__abc_vectors(e) * domain * 32 + (ic + n[1]) * 32 + (2 * words_aux + words_in) * 8;
    cuzk__prover_scratch_sizes(e->kind == CUZK_BACKEND_CUDA, n[1], n[2], n[3], w->scratch);
    return CUZK_OK;
}

static cuzk_status warm_zkey(srs_entry *c, warm_info *w)
{
    cuzk_status s;
    if ((s = map_file(c->path, &w->map, &w->map_len)) != CUZK_OK)
        return s;
    const uint8_t *b = w->map;
    size_t len = w->map_len;
    if (len < 12 || memcmp(b, "zkey", 4) != 0)
        return cuzk_fail(CUZK_ERR_FORMAT, "%s: not a .zkey file (bad magic)", c->path);
    uint32_t nsec = le32(b + 8);
    size_t off = 12;
    const uint8_t *hdr = NULL;
    uint64_t n_coefs = 0;
    bool have_coefs = false;
    for (uint32_t i = 0; i < nsec; i++) {
        if (off + 12 > len)
            return cuzk_fail(CUZK_ERR_FORMAT, "%s: truncated section table at offset %zu", c->path,
                             off);
        uint32_t type = le32(b + off);
        uint64_t size = le32(b + off + 4) | (uint64_t)le32(b + off + 8) << 32;
        off += 12;
        if (size > len - off)
            return cuzk_fail(CUZK_ERR_FORMAT,
                             "%s: section %u at offset %zu runs past the end "
                             "of the file",
                             c->path, type, off - 12);
        if (type == 2 && size >= 100)
            hdr = b + off;
        if (type == 4 && size >= 4) {
            n_coefs = le32(b + off);
            have_coefs = true;
        }
        off += size;
    }
    if (!hdr || !have_coefs)
        return cuzk_fail(CUZK_ERR_FORMAT, "%s: missing Groth16 header or coefficient section",
                         c->path);
    uint64_t n_vars = le32(hdr + 88), n_pub = le32(hdr + 92), domain = le32(hdr + 96);
    if (n_vars == 0 || n_pub + 1 > n_vars || domain == 0)
        return cuzk_fail(CUZK_ERR_FORMAT,
                         "%s: inconsistent header (nVars %llu, nPublic %llu, "
                         "domain %llu)",
                         c->path, (unsigned long long)n_vars, (unsigned long long)n_pub,
                         (unsigned long long)domain);
    w->n_public = (uint32_t)n_pub;
    uint64_t g1 = sizeof(cuzk_g1_affine_t), g2 = sizeof(cuzk_g2_affine_t);
    w->hot_bytes = n_vars * (3 * g1 + g2) + domain * g1 + 2 * (n_pub + 1) * g1 +
                   n_coefs * sizeof(cuzk_snarkjs_coef) + sizeof(cuzk_snarkjs_zkey) +
                   sizeof(cuzk_groth16_vk);
    w->part_bytes = 3 * domain * 32 + n_vars * 32;
    return CUZK_OK;
}

/* HOT sets of a CUDA engine live in pinned host memory, so the device reads them at the PCIe
 * rate instead of through the driver's pageable staging (gpu.h). */
static void *pinned_points_alloc(size_t bytes)
{
    void *p = NULL;
    return cuzk_gpu_host_alloc(&p, bytes) == CUZK_OK ? p : NULL;
}

/* Decodes the mapped file; ZKEY also writes <cache>/<id>.vk (bellperson form) the first time. */
static cuzk_status decode(cuzk_engine *e, srs_entry *c, cuzk_groth16_params **pp,
                          cuzk_snarkjs_zkey **zp, warm_info *w)
{
    cuzk_status s;
    if (c->source == CUZK_CIRCUIT_BUILTIN) {
        bool pin = e->kind == CUZK_BACKEND_CUDA;
        if ((s = cuzk_groth16_params_parse_ex(pp, c->map, c->map_len, CUZK_PARAMS_UNCHECKED,
                                              e->load_pool, pin ? pinned_points_alloc : NULL,
                                              pin ? cuzk_gpu_host_free : NULL)) != CUZK_OK)
            return cuzk_fail(s, "%s: %s", c->path, cuzk_last_error());
        if ((*pp)->vk->ic_len != (size_t)c->n_public + 1)
            return cuzk_fail(CUZK_ERR_FORMAT, "%s: key changed while loading", c->path);
        return CUZK_OK;
    }
    /* The bulk points' subgroups are tested unless the operator trusts the files; with a check
     * cache once per key (a re-load after an eviction or a restart finds it). */
    bool unchecked = e->cfg.zkey_unchecked;
    if ((s = cuzk_snarkjs_zkey_parse_ex(zp, c->map, c->map_len,
                                        unchecked ? CUZK_SNARKJS_UNCHECKED_SUBGROUP : 0,
                                        e->load_pool, unchecked ? NULL : e->cfg.check_cache)) !=
        CUZK_OK)
        return cuzk_fail(s, "%s: %s", c->path, cuzk_last_error());
    const cuzk_snarkjs_zkey *zk = *zp;
    if (zk->n_public != c->n_public)
        return cuzk_fail(CUZK_ERR_FORMAT, "%s: key changed while loading", c->path);
    uint32_t max_row = 0;
    for (size_t i = 0; i < zk->n_coefs; i++)
        if (zk->coefs[i].constraint > max_row)
            max_row = zk->coefs[i].constraint;
    w->n_constraints = max_row + 1 > zk->n_public + 1 ? max_row + 1 - (zk->n_public + 1) : 0;
    if (!c->vk_image) {
        if (mkdir(e->cache_dir, 0755) != 0 && errno != EEXIST)
            return cuzk_fail(CUZK_ERR_IO, "cannot create cache directory %s: %s", e->cache_dir,
                             strerror(errno));
        char vk_path[4200];
        snprintf(vk_path, sizeof vk_path, "%s/%s.vk", e->cache_dir, c->id);
        if ((s = cuzk_groth16_vk_write(zk->vk, vk_path)) != CUZK_OK ||
            (s = cuzk_read_file(vk_path, &w->vk_image, &w->vk_len, (size_t)1 << 30)) != CUZK_OK)
            return s;
    }
    return CUZK_OK;
}

/*
 * Brings |c| to HOT (|hot|) or at least WARM. |job|: waits for pinned space held by entries in
 * use, and takes a reference. |already| (may be NULL): it was HOT before. On failure the entry
 * goes back to COLD and the message names the file and the problem.
 */
static cuzk_status srs_ensure(cuzk_engine *e, srs_entry *c, bool hot, bool job, bool *already)
{
    pthread_mutex_lock(&e->mu);
    bool first = true;
    for (;;) {
        if (job && e->stopping) {
            pthread_mutex_unlock(&e->mu);
            return cuzk_fail(CUZK_ERR_UNAVAILABLE, "the engine is shutting down");
        }
        if (c->busy) {
            pthread_cond_wait(&e->srs_cv, &e->mu);
            first = false;
            continue;
        }
        if (c->tier == CUZK_TIER_HOT || (!hot && c->tier == CUZK_TIER_WARM)) {
            if (already)
                *already = first && c->tier == CUZK_TIER_HOT;
            if (job)
                c->ref_count++;
            c->last_used_ms = (uint64_t)cuzk__engine_now_ms();
            pthread_mutex_unlock(&e->mu);
            return CUZK_OK;
        }
        first = false;
        c->busy = true;
        cuzk_srs_tier from = c->tier;
        pthread_mutex_unlock(&e->mu);

        cuzk_status s = CUZK_OK;
        warm_info w;
        memset(&w, 0, sizeof w);
        if (from == CUZK_TIER_COLD) {
            s = c->source == CUZK_CIRCUIT_BUILTIN ? warm_params(e, c, &w) : warm_zkey(c, &w);
            pthread_mutex_lock(&e->mu);
            if (s == CUZK_OK) {
                c->map = w.map;
                c->map_len = w.map_len;
                c->vk_image = w.vk_image;
                c->vk_len = w.vk_len;
                c->n_public = w.n_public;
                c->hot_bytes = w.hot_bytes;
                c->part_bytes = w.part_bytes;
                memcpy(c->scratch, w.scratch, sizeof c->scratch);
                if (w.n_constraints)
                    c->n_constraints = w.n_constraints;
                c->tier = CUZK_TIER_WARM;
            } else {
                if (w.map)
                    munmap(w.map, w.map_len);
                cuzk_free(w.vk_image);
            }
            pthread_mutex_unlock(&e->mu);
        }
        cuzk_groth16_params *p = NULL;
        cuzk_snarkjs_zkey *zk = NULL;
        bool reserved = false;
        if (s == CUZK_OK && hot) {
            pthread_mutex_lock(&e->mu);
            s = reserve_pinned_locked(e, c, job);
            reserved = s == CUZK_OK;
            pthread_mutex_unlock(&e->mu);
            memset(&w, 0, sizeof w);
            if (s == CUZK_OK)
                s = decode(e, c, &p, &zk, &w);
            if (s == CUZK_OK)
                cuzk__device_warm(e, c, p, zk);
        }
        pthread_mutex_lock(&e->mu);
        c->busy = false;
        pthread_cond_broadcast(&e->srs_cv);
        if (s != CUZK_OK) {
            /* keep this thread's message: nothing below calls cuzk_fail */
            cuzk_groth16_params_free(p);
            cuzk_snarkjs_zkey_free(zk);
            cuzk_free(w.vk_image);
            if (reserved)
                e->pinned_in_use -= c->held_bytes;
            c->held_bytes = 0;
            drop_locked(e, c, true);
            pthread_mutex_unlock(&e->mu);
            return s;
        }
        if (hot) {
            c->params = p;
            c->zkey = zk;
            c->subgroups = zk ? zk->subgroups : CUZK_SUBGROUPS_NOT_CHECKED;
            c->loaded_once = true;
            if (w.vk_image) {
                c->vk_image = w.vk_image;
                c->vk_len = w.vk_len;
            }
            if (w.n_constraints)
                c->n_constraints = w.n_constraints;
            c->tier = CUZK_TIER_HOT;
            if (p)
                cuzk__abc_want_locked(e, p);
        }
    }
}

cuzk_status cuzk__srs_acquire(cuzk_engine *e, srs_entry *c)
{
    return srs_ensure(e, c, true, true, NULL);
}

cuzk_status cuzk__srs_load(cuzk_engine *e, srs_entry *c)
{
    return srs_ensure(e, c, true, false, NULL);
}

cuzk_status cuzk__srs_warm(cuzk_engine *e, srs_entry *c)
{
    return srs_ensure(e, c, false, false, NULL);
}

cuzk_status cuzk_engine_preload(cuzk_engine *e, const char *circuit_id, bool *already,
                                uint64_t *load_ms)
{
    if (!e || !circuit_id)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "preload: engine and circuit id are required");
    pthread_mutex_lock(&e->mu);
    srs_entry *c = cuzk__srs_find_locked(e, circuit_id);
    pthread_mutex_unlock(&e->mu);
    if (!c)
        return cuzk_fail(CUZK_ERR_NOT_FOUND, "circuit %.128s is not registered", circuit_id);
    double t0 = cuzk__engine_now_ms();
    bool was = false;
    cuzk_status s = srs_ensure(e, c, true, false, &was);
    if (already)
        *already = s == CUZK_OK && was;
    if (load_ms)
        *load_ms = (uint64_t)(cuzk__engine_now_ms() - t0 + 0.5);
    return s;
}

cuzk_status cuzk_engine_evict(cuzk_engine *e, const char *circuit_id, bool *was_loaded,
                              uint64_t *freed)
{
    if (!e || !circuit_id)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "evict: engine and circuit id are required");
    pthread_mutex_lock(&e->mu);
    srs_entry *c = cuzk__srs_find_locked(e, circuit_id);
    if (!c) {
        pthread_mutex_unlock(&e->mu);
        return cuzk_fail(CUZK_ERR_NOT_FOUND, "circuit %.128s is not registered", circuit_id);
    }
    while (c->busy)
        pthread_cond_wait(&e->srs_cv, &e->mu);
    bool was = c->tier == CUZK_TIER_HOT;
    uint64_t f = 0;
    if (c->ref_count > 0) {
        c->drop_when_idle = true;
    } else {
        f = c->held_bytes;
        drop_locked(e, c, true);
    }
    pthread_mutex_unlock(&e->mu);
    if (was_loaded)
        *was_loaded = was;
    if (freed)
        *freed = f;
    return CUZK_OK;
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Jobs: submit (idempotent by request id), await, cancel, the scheduler's choice of the next
 * partition, and the reaper of finished jobs.
 */
#include "engine/engine_internal.h"

#include "cuzk/alloc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include <openssl/rand.h>

static void make_uuid(char out[37])
{
    uint8_t b[16];
    ssize_t got = getrandom(b, sizeof b, 0);
    if (got != (ssize_t)sizeof b && RAND_bytes(b, sizeof b) != 1) {
        /* Last resort: time and address entropy; ids only need to be unique, not secret. */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t x = (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 30 ^ (uint64_t)(uintptr_t)b;
        for (int i = 0; i < 16; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            b[i] = (uint8_t)x;
        }
    }
    b[6] = (uint8_t)((b[6] & 0x0f) | 0x40);
    b[8] = (uint8_t)((b[8] & 0x3f) | 0x80);
    snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
             b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
             b[14], b[15]);
}

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
    return h;
}

/* The live (not superseded) job named |id|. */
static job *find_locked(cuzk_engine *e, const char *id)
{
    for (job *j = e->jobs_tail; j; j = j->prev)
        if (!j->superseded && strcmp(j->id, id) == 0)
            return j;
    return NULL;
}

static void snap_parts_free(cuzk_fil_snap_partition **v, size_t n)
{
    for (size_t i = 0; v && i < n; i++)
        cuzk_fil_snap_partition_destroy(v[i]);
    cuzk_free(v);
}

void cuzk__job_inputs_free(job *j)
{
    cuzk_snarkjs_wtns_free(j->wtns);
    j->wtns = NULL;
    cuzk_fil_post_partition_destroy(j->post);
    j->post = NULL;
    snap_parts_free(j->snap, j->n_parts);
    j->snap = NULL;
    cuzk__porep_parts_free(j->porep, j->n_parts);
    j->porep = NULL;
}

static void job_free(job *j)
{
    cuzk__job_inputs_free(j);
    cuzk_free(j->proof);
    cuzk_free(j->pub);
    cuzk_free(j->parts);
    cuzk_free(j);
}

void cuzk__jobs_reap_locked(cuzk_engine *e, bool all)
{
    double now = cuzk__engine_now_ms();
    job *j = e->jobs_head;
    while (j) {
        job *next = j->next;
        bool done = j->outcome != CUZK_JOB_UNKNOWN && j->in_flight == 0 && j->waiters == 0;
        if (all || (done && now - j->t_end >= (double)e->cfg.result_ttl_ms)) {
            if (j->prev)
                j->prev->next = j->next;
            else
                e->jobs_head = j->next;
            if (j->next)
                j->next->prev = j->prev;
            else
                e->jobs_tail = j->prev;
            job_free(j);
        }
        j = next;
    }
}

void cuzk__job_finish_locked(cuzk_engine *e, job *j, cuzk_job_outcome o, const char *fmt, ...)
{
    if (j->outcome != CUZK_JOB_UNKNOWN)
        return;
    j->outcome = o;
    j->t_end = cuzk__engine_now_ms();
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(j->error, sizeof j->error, fmt, ap);
        va_end(ap);
    }
    if (o == CUZK_JOB_COMPLETED) {
        e->completed++;
        j->circ->completed++;
        j->phase_ms[CUZK_PHASE_TOTAL] = j->t_end - j->t_submit;
        cuzk__engine_hist_observe(&e->proof_hist, (j->t_end - j->t_submit) / 1e3);
    } else if (o == CUZK_JOB_FAILED) {
        e->failed++;
        j->circ->failed++;
    } else {
        e->cancelled++;
        j->circ->cancelled++;
    }
    /* The witness is not needed any more once no partition holds it. */
    if (j->in_flight == 0)
        cuzk__job_inputs_free(j);
    pthread_cond_broadcast(&e->done_cv);
    pthread_cond_broadcast(&e->space_cv);
}

job *cuzk__job_pick_locked(cuzk_engine *e)
{
    job *best = NULL;
    for (job *j = e->jobs_head; j; j = j->next) {
        if (j->outcome != CUZK_JOB_UNKNOWN || j->next_part >= j->n_parts)
            continue;
        if (!best || j->prio > best->prio || (j->prio == best->prio && j->seq < best->seq))
            best = j;
    }
    return best;
}

static int kind_default_priority(cuzk_proof_kind k)
{
    return k == CUZK_PROOF_WINNING_POST  ? CUZK_PRIORITY_CRITICAL
           : k == CUZK_PROOF_WINDOW_POST ? CUZK_PRIORITY_HIGH
                                         : CUZK_PRIORITY_NORMAL;
}

static bool request_id_ok(const char *id)
{
    size_t n = strlen(id);
    if (n >= CUZK_ENGINE_ID_MAX)
        return false;
    for (const char *p = id; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return false;
    return true;
}

static const char *kind_label(cuzk_proof_kind k)
{
    return k == CUZK_PROOF_WINNING_POST ? "WinningPoSt"
           : k == CUZK_PROOF_SNAP       ? "SnapDeals"
           : k == CUZK_PROOF_POREP      ? "PoRep"
                                        : "WindowPoSt";
}

/* A PoSt request's own fields; |spec| = the builtin circuit that proves it, "fil-post:<id>". */
static cuzk_status post_request_check(const cuzk_job_request *req, char *spec, size_t len)
{
    cuzk_fil_post_info info;
    if (cuzk_fil_post_info_get(&info, req->registered_proof) != CUZK_OK)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "%s: unknown RegisteredPoStProof %llu",
                         kind_label(req->kind), (unsigned long long)req->registered_proof);
    bool winning = req->kind == CUZK_PROOF_WINNING_POST;
    if (winning != (info.kind == CUZK_FIL_POST_WINNING))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "a %s request with registered proof %llu (%s)",
                         kind_label(req->kind), (unsigned long long)req->registered_proof,
                         info.name);
    if (req->randomness_len != 32 || !req->randomness)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "%s needs 32 bytes of randomness (got %zu)",
                         kind_label(req->kind), req->randomness_len);
    if (req->partitions > 1)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "a %s request proves one partition (got %u)",
                         kind_label(req->kind), req->partitions);
    if (req->n_vanilla == 0 || !req->vanilla_proofs || !req->vanilla_lens)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "%s needs its vanilla proofs",
                         kind_label(req->kind));
    snprintf(spec, len, "fil-post:%llu", (unsigned long long)req->registered_proof);
    return CUZK_OK;
}

/* A SnapDeals request's own fields (one vanilla proof per partition of the RegisteredUpdateProof's
 * shape, the three comms); |spec| = "fil-snap:<id>", |*parts| = the shape's partitions. */
static cuzk_status snap_request_check(const cuzk_job_request *req, char *spec, size_t len,
                                      uint32_t *parts)
{
    cuzk_fil_snap_shape sh;
    if (cuzk_fil_snap_shape_get(&sh, req->registered_proof) != CUZK_OK)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "SnapDeals: unknown RegisteredUpdateProof %llu",
                         (unsigned long long)req->registered_proof);
    const struct {
        const char *name;
        const uint8_t *p;
        size_t len;
    } comms[3] = {{"comm_r_old", req->comm_r_old, req->comm_r_old_len},
                  {"comm_d_new", req->comm_d_new, req->comm_d_new_len},
                  {"comm_r_new", req->comm_r_new, req->comm_r_new_len}};
    for (int i = 0; i < 3; i++)
        if (!comms[i].p || comms[i].len != 32)
            return cuzk_fail(CUZK_ERR_INVALID_ARG, "SnapDeals needs %s of 32 bytes (got %zu)",
                             comms[i].name, comms[i].p ? comms[i].len : 0);
    if (req->partitions && req->partitions != sh.partitions)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "a SnapDeals proof of RegisteredUpdateProof %llu has %zu partitions "
                         "(got %u)",
                         (unsigned long long)req->registered_proof, sh.partitions, req->partitions);
    if (req->n_vanilla != sh.partitions || !req->vanilla_proofs || !req->vanilla_lens)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "SnapDeals of RegisteredUpdateProof %llu needs %zu vanilla partition "
                         "proofs (got %zu)",
                         (unsigned long long)req->registered_proof, sh.partitions,
                         req->vanilla_proofs ? req->n_vanilla : 0);
    snprintf(spec, len, "fil-snap:%llu", (unsigned long long)req->registered_proof);
    *parts = (uint32_t)sh.partitions;
    return CUZK_OK;
}

/* Whether |c| is the builtin circuit |fn| of |registered_proof| ("fil-post:<id>",
 * "fil-snap:<id>"; "fil-porep:<id>" of any id of the same sector size: every API version of a
 * size has one circuit and one parameter set). */
static bool proves(const srs_entry *c, cuzk_circuit_fn fn, uint64_t registered_proof)
{
    if (c->source != CUZK_CIRCUIT_BUILTIN || c->circuit.synth != fn)
        return false;
    if (fn != cuzk_circuit_fil_porep)
        return c->circuit.params.arg == registered_proof;
    cuzk_fil_porep_shape a, b;
    return cuzk_fil_porep_shape_get(&a, c->circuit.params.arg) == CUZK_OK &&
           cuzk_fil_porep_shape_get(&b, registered_proof) == CUZK_OK &&
           a.sector_size == b.sector_size;
}

/* The registered circuit for a PoSt, SnapDeals or PoRep request of |registered_proof|: the one
 * named (which must prove it), else the first that does. */
static srs_entry *filecoin_circuit_locked(cuzk_engine *e, const cuzk_job_request *req,
                                          uint64_t registered_proof)
{
    cuzk_circuit_fn fn = req->kind == CUZK_PROOF_SNAP    ? cuzk_circuit_fil_snap
                         : req->kind == CUZK_PROOF_POREP ? cuzk_circuit_fil_porep
                                                         : cuzk_circuit_fil_post;
    if (req->circuit_id && req->circuit_id[0]) {
        srs_entry *c = cuzk__srs_find_locked(e, req->circuit_id);
        return c && proves(c, fn, registered_proof) ? c : NULL;
    }
    for (size_t i = 0; i < e->n_circs; i++)
        if (proves(e->circs[i], fn, registered_proof))
            return e->circs[i];
    return NULL;
}

/* Each partition of a SnapDeals request decoded and checked (partition k from vanilla proof k),
 * the partitions on |threads| threads (32 GiB: 16 x 86 challenges, ~2.2 s on one core of the
 * development VM); |*out| has |n| entries. */
typedef struct {
    const cuzk_job_request *req;
    cuzk_fil_snap_partition **v;
} snap_decode_ctx;

static cuzk_status snap_decode_one(void *ctx, size_t k)
{
    const snap_decode_ctx *x = ctx;
    const cuzk_job_request *req = x->req;
    return cuzk_fil_snap_partition_from_vanilla(&x->v[k], req->registered_proof, k, req->comm_r_old,
                                                req->comm_d_new, req->comm_r_new, 0,
                                                req->vanilla_proofs[k], req->vanilla_lens[k]);
}

static cuzk_status snap_decode(cuzk_fil_snap_partition ***out, const cuzk_job_request *req,
                               size_t n, unsigned threads)
{
    *out = NULL;
    snap_decode_ctx x = {.req = req, .v = cuzk_calloc_array(n, sizeof *x.v)};
    if (!x.v)
        return cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
    cuzk_status s = cuzk__fil_par_for(n, threads, snap_decode_one, &x);
    if (s != CUZK_OK) {
        snap_parts_free(x.v, n);
        return cuzk_fail(s == CUZK_ERR_NOMEM ? s : CUZK_ERR_INVALID_ARG, "vanilla proofs: %s",
                         cuzk_last_error());
    }
    *out = x.v;
    return CUZK_OK;
}

cuzk_status cuzk_engine_submit(cuzk_engine *e, const cuzk_job_request *req, cuzk_submit_info *out)
{
    if (!e || !req || !out)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "submit: engine, request and output are required");
    memset(out, 0, sizeof *out);
    bool post = false; /* PoSt or SnapDeals: a builtin circuit chosen by the registered proof */
    switch (req->kind) {
    case CUZK_PROOF_GENERIC:
        break;
    case CUZK_PROOF_POREP:
    case CUZK_PROOF_SNAP:
    case CUZK_PROOF_WINDOW_POST:
    case CUZK_PROOF_WINNING_POST:
        post = true;
        break;
    default:
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "unknown proof kind %d", (int)req->kind);
    }
    const char *rid = req->request_id ? req->request_id : "";
    if (!request_id_ok(rid))
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "request id must be at most %d bytes without "
                         "control characters", CUZK_ENGINE_ID_MAX - 1);
    char post_spec[32] = "";
    bool snap = req->kind == CUZK_PROOF_SNAP, porep = req->kind == CUZK_PROOF_POREP;
    uint32_t parts = req->partitions ? req->partitions : 1;
    uint64_t registered = req->registered_proof;
    /* PoRep: the C1 names its proof, so it is read (and checked) before the circuit is chosen. */
    cuzk_fil_porep_partition **rp = NULL;
    if (porep) {
        CUZK_TRY(
            cuzk__porep_decode(req, cuzk_pool_threads(e->load_pool), &rp, &parts, &registered));
        snprintf(post_spec, sizeof post_spec, "fil-porep:%llu", (unsigned long long)registered);
    } else if (snap)
        CUZK_TRY(snap_request_check(req, post_spec, sizeof post_spec, &parts));
    else if (post)
        CUZK_TRY(post_request_check(req, post_spec, sizeof post_spec));
    else if (!req->circuit_id || !req->circuit_id[0])
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "a generic proof needs a circuit id");
    if (parts > 1024) {
        cuzk__porep_parts_free(rp, parts);
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "%u partitions requested; at most 1024", parts);
    }
    int prio = req->priority == CUZK_PRIORITY_DEFAULT ? kind_default_priority(req->kind)
               : (req->priority >= CUZK_PRIORITY_LOW && req->priority <= CUZK_PRIORITY_CRITICAL)
                   ? (int)req->priority
                   : CUZK_PRIORITY_NORMAL;

    pthread_mutex_lock(&e->mu);
    cuzk__jobs_reap_locked(e, false);
    if (!e->accepting) {
        pthread_mutex_unlock(&e->mu);
        cuzk__porep_parts_free(rp, parts);
        return cuzk_fail(CUZK_ERR_UNAVAILABLE, "the engine is shutting down");
    }
    srs_entry *c = post ? filecoin_circuit_locked(e, req, registered)
                        : cuzk__srs_find_locked(e, req->circuit_id);
    if (!c) {
        pthread_mutex_unlock(&e->mu);
        cuzk__porep_parts_free(rp, parts);
        if (post && (!req->circuit_id || !req->circuit_id[0]))
            return cuzk_fail(CUZK_ERR_UNSUPPORTED,
                             "no circuit is registered for %s proofs "
                             "(%s %llu): add a [[circuits]] entry with builtin "
                             "= \"%s\" and its v28 parameters",
                             kind_label(req->kind),
                             snap    ? "RegisteredUpdateProof"
                             : porep ? "RegisteredSealProof"
                                     : "RegisteredPoStProof",
                             (unsigned long long)registered, post_spec);
        if (post)
            return cuzk_fail(CUZK_ERR_INVALID_ARG,
                             "circuit %.128s is not registered as builtin "
                             "%s",
                             req->circuit_id, post_spec);
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "circuit %.128s is not registered",
                         req->circuit_id);
    }
    if (rid[0]) {
        job *old = find_locked(e, rid);
        if (old && (old->outcome == CUZK_JOB_UNKNOWN || old->outcome == CUZK_JOB_COMPLETED)) {
            if (old->circ != c) {
                pthread_mutex_unlock(&e->mu);
                cuzk__porep_parts_free(rp, parts);
                return cuzk_fail(CUZK_ERR_INVALID_ARG, "request id %s already names a job for "
                                 "circuit %s", rid, old->circ->id);
            }
            snprintf(out->job_id, sizeof out->job_id, "%s", old->id);
            snprintf(out->assigned_gpu, sizeof out->assigned_gpu, "%s", old->backend);
            out->existing = true;
            pthread_mutex_unlock(&e->mu);
            cuzk__porep_parts_free(rp, parts);
            return CUZK_OK;
        }
    }
    pthread_mutex_unlock(&e->mu);

    /* Validate the witness outside the lock (a zkey's header may have to be read first). */
    cuzk_snarkjs_wtns *w = NULL;
    cuzk_fil_post_partition *pp = NULL;
    cuzk_fil_snap_partition **sp = NULL;
    uint64_t seed = 0;
    bool have_seed = false;
    cuzk_status s;
    if (c->source == CUZK_CIRCUIT_ZKEY) {
        if (parts != 1)
            return cuzk_fail(CUZK_ERR_INVALID_ARG, "circuit %s is a zkey circuit: one witness, "
                             "one partition (got %u)", c->id, parts);
        if (!req->witness || req->witness_len == 0)
            return cuzk_fail(CUZK_ERR_INVALID_ARG, "circuit %s needs a .wtns witness", c->id);
        if ((s = cuzk__srs_warm(e, c)) != CUZK_OK)
            return s;
        if ((s = cuzk_snarkjs_wtns_parse(&w, req->witness, req->witness_len)) != CUZK_OK)
            return cuzk_fail(CUZK_ERR_INVALID_ARG, "witness: %s", cuzk_last_error());
        pthread_mutex_lock(&e->mu);
        bool ok = c->tier != CUZK_TIER_COLD;
        uint64_t n_vars = 0;
        /* nVars from the mapped header (section 2) is what the key was made for. */
        if (ok) {
            const uint8_t *b = c->map;
            size_t off = 12, len = c->map_len;
            uint32_t nsec = (uint32_t)b[8] | (uint32_t)b[9] << 8 | (uint32_t)b[10] << 16 |
                            (uint32_t)b[11] << 24;
            for (uint32_t i = 0; i < nsec && off + 12 <= len; i++) {
                uint32_t type = (uint32_t)b[off] | (uint32_t)b[off + 1] << 8 |
                                (uint32_t)b[off + 2] << 16 | (uint32_t)b[off + 3] << 24;
                uint64_t size = 0;
                for (int k = 7; k >= 0; k--)
                    size = size << 8 | b[off + 4 + k];
                if (type == 2 && size >= 100 && off + 12 + 92 <= len) {
                    const uint8_t *h = b + off + 12 + 88;
                    n_vars = (uint32_t)h[0] | (uint32_t)h[1] << 8 | (uint32_t)h[2] << 16 |
                             (uint32_t)h[3] << 24;
                }
                off += 12 + size;
            }
        }
        pthread_mutex_unlock(&e->mu);
        if (!ok) {
            cuzk_snarkjs_wtns_free(w);
            return cuzk_fail(CUZK_ERR_UNAVAILABLE, "circuit %s was evicted while the witness "
                             "was checked; try again", c->id);
        }
        if (w->n != n_vars) {
            uint32_t got = w->n;
            cuzk_snarkjs_wtns_free(w);
            return cuzk_fail(CUZK_ERR_INVALID_ARG, "witness has %u values but circuit %s has %llu "
                             "wires", got, c->id, (unsigned long long)n_vars);
        }
        if (w->values[0] != 1 || w->values[1] || w->values[2] || w->values[3]) {
            cuzk_snarkjs_wtns_free(w);
            return cuzk_fail(CUZK_ERR_INVALID_ARG, "witness value 0 (the constant wire) is not 1");
        }
    } else if (porep) {
        /* decoded above */
    } else if (snap) {
        if ((s = snap_decode(&sp, req, parts, cuzk_pool_threads(e->load_pool))) != CUZK_OK)
            return s;
    } else if (post) {
        if ((s = cuzk_fil_post_partition_from_vanilla(&pp, req->registered_proof, req->randomness,
                                                      req->partition_index, req->vanilla_proofs,
                                                      req->vanilla_lens, req->n_vanilla,
                                                      cuzk_pool_threads(e->load_pool))) != CUZK_OK)
            return cuzk_fail(s == CUZK_ERR_NOMEM ? s : CUZK_ERR_INVALID_ARG, "vanilla proofs: %s",
                             cuzk_last_error());
    } else if (req->witness && req->witness_len) {
        if (req->witness_len != 8)
            return cuzk_fail(CUZK_ERR_INVALID_ARG, "a built-in circuit takes an 8-byte seed as "
                             "witness (got %zu bytes)", req->witness_len);
        for (int i = 7; i >= 0; i--)
            seed = seed << 8 | req->witness[i];
        have_seed = true;
    }

    job *j = cuzk_calloc_array(1, sizeof *j);
    part_track *pt = cuzk_calloc_array(parts, sizeof *pt); /* all PENDING */
    if (!j || !pt) {
        cuzk_free(j);
        cuzk_free(pt);
        cuzk_snarkjs_wtns_free(w);
        cuzk_fil_post_partition_destroy(pp);
        snap_parts_free(sp, parts);
        cuzk__porep_parts_free(rp, parts);
        return cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
    }
    j->parts = pt;
    if (rid[0])
        snprintf(j->id, sizeof j->id, "%s", rid);
    else
        make_uuid(j->id);
    j->circ = c;
    j->kind = req->kind;
    j->prio = prio;
    j->wtns = w;
    j->post = pp;
    j->snap = sp;
    j->porep = rp;
    j->seed = have_seed ? seed : fnv1a(j->id);
    j->n_parts = parts;
    j->outcome = CUZK_JOB_UNKNOWN;

    pthread_mutex_lock(&e->mu);
    if (!e->accepting) {
        pthread_mutex_unlock(&e->mu);
        job_free(j);
        return cuzk_fail(CUZK_ERR_UNAVAILABLE, "the engine is shutting down");
    }
    /* A request with the same id may have raced in while the witness was checked. */
    job *old = rid[0] ? find_locked(e, rid) : NULL;
    if (old && (old->outcome == CUZK_JOB_UNKNOWN || old->outcome == CUZK_JOB_COMPLETED)) {
        snprintf(out->job_id, sizeof out->job_id, "%s", old->id);
        snprintf(out->assigned_gpu, sizeof out->assigned_gpu, "%s", old->backend);
        out->existing = true;
        pthread_mutex_unlock(&e->mu);
        job_free(j);
        return CUZK_OK;
    }
    if (old)
        old->superseded = true; /* FAILED or CANCELLED: this id starts over */
    uint64_t ahead = 0;
    for (job *x = e->jobs_head; x; x = x->next)
        if (x->outcome == CUZK_JOB_UNKNOWN && x->prio >= prio)
            ahead += x->n_parts - x->next_part;
    j->seq = e->next_seq++;
    j->t_submit = cuzk__engine_now_ms();
    j->prev = e->jobs_tail;
    if (e->jobs_tail)
        e->jobs_tail->next = j;
    else
        e->jobs_head = j;
    e->jobs_tail = j;
    snprintf(out->job_id, sizeof out->job_id, "%s", j->id);
    out->queue_position = ahead > UINT32_MAX ? UINT32_MAX : (uint32_t)ahead;
    pthread_cond_broadcast(&e->work_cv);
    pthread_mutex_unlock(&e->mu);
    return CUZK_OK;
}

static void fill_result(cuzk_job_result *out, const job *j)
{
    snprintf(out->job_id, sizeof out->job_id, "%s", j->id);
    snprintf(out->circuit_id, sizeof out->circuit_id, "%s", j->circ->id);
    out->partitions = j->n_parts;
    out->n_public = j->n_public;
    snprintf(out->backend, sizeof out->backend, "%s", j->backend);
}

cuzk_status cuzk_engine_await(cuzk_engine *e, const char *job_id, uint64_t timeout_ms,
                              cuzk_job_result *out)
{
    if (!e || !job_id || !out)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "await: engine, job id and output are required");
    memset(out, 0, sizeof *out);
    if (timeout_ms > (uint64_t)1 << 40) /* ~35 years: as good as forever, and no overflow */
        timeout_ms = 0;
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    uint64_t ns = (uint64_t)dl.tv_nsec + (timeout_ms % 1000) * 1000000ull;
    dl.tv_sec += (time_t)(timeout_ms / 1000 + ns / 1000000000ull);
    dl.tv_nsec = (long)(ns % 1000000000ull);

    pthread_mutex_lock(&e->mu);
    cuzk__jobs_reap_locked(e, false);
    job *j = find_locked(e, job_id);
    if (!j) {
        pthread_mutex_unlock(&e->mu);
        return cuzk_fail(CUZK_ERR_NOT_FOUND, "job %.128s is not known (or its result expired)",
                         job_id);
    }
    j->waiters++;
    bool timed_out = false;
    while (j->outcome == CUZK_JOB_UNKNOWN && !timed_out) {
        if (timeout_ms == 0)
            pthread_cond_wait(&e->done_cv, &e->mu);
        else if (pthread_cond_timedwait(&e->done_cv, &e->mu, &dl) == ETIMEDOUT)
            timed_out = j->outcome == CUZK_JOB_UNKNOWN;
    }
    j->waiters--;
    if (j->waiters == 0)
        pthread_cond_broadcast(&e->done_cv); /* teardown waits for awaiters to leave */
    fill_result(out, j);
    if (timed_out) {
        out->status = CUZK_JOB_TIMEOUT;
        pthread_mutex_unlock(&e->mu);
        return CUZK_OK;
    }
    out->status = j->outcome;
    snprintf(out->error, sizeof out->error, "%s", j->error);
    memcpy(out->phase_ms, j->phase_ms, sizeof out->phase_ms);
    out->verified = j->verified;
    cuzk_status s = CUZK_OK;
    if (j->outcome == CUZK_JOB_COMPLETED) {
        size_t plen = (size_t)j->n_parts * CUZK_GROTH16_PROOF_BYTES;
        size_t ilen = (size_t)j->n_parts * j->n_public * 32;
        out->proof = cuzk_alloc(plen);
        out->public_inputs = ilen ? cuzk_alloc(ilen) : NULL;
        if (!out->proof || (ilen && !out->public_inputs)) {
            s = cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
        } else {
            memcpy(out->proof, j->proof, plen);
            out->proof_len = plen;
            if (ilen)
                memcpy(out->public_inputs, j->pub, ilen);
            out->public_inputs_len = ilen;
        }
        out->queue_wait_ms = (uint64_t)(j->phase_ms[CUZK_PHASE_QUEUE_WAIT] + 0.5);
        out->srs_load_ms = (uint64_t)(j->phase_ms[CUZK_PHASE_SRS_LOAD] + 0.5);
        out->synthesis_ms = (uint64_t)(j->phase_ms[CUZK_PHASE_SYNTHESIS] + 0.5);
        out->gpu_compute_ms = (uint64_t)(j->phase_ms[CUZK_PHASE_GPU_COMPUTE] + 0.5);
        out->total_ms = (uint64_t)(j->phase_ms[CUZK_PHASE_TOTAL] + 0.5);
    }
    pthread_mutex_unlock(&e->mu);
    if (s != CUZK_OK)
        cuzk_job_result_clear(out);
    return s;
}

void cuzk_job_result_clear(cuzk_job_result *r)
{
    if (!r)
        return;
    cuzk_free(r->proof);
    cuzk_free(r->public_inputs);
    memset(r, 0, sizeof *r);
}

cuzk_status cuzk_engine_cancel(cuzk_engine *e, const char *job_id, bool *was_running,
                               bool *cancelled)
{
    if (!e || !job_id)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cancel: engine and job id are required");
    pthread_mutex_lock(&e->mu);
    cuzk__jobs_reap_locked(e, false);
    job *j = find_locked(e, job_id);
    if (!j) {
        pthread_mutex_unlock(&e->mu);
        return cuzk_fail(CUZK_ERR_NOT_FOUND, "job %.128s is not known (or its result expired)",
                         job_id);
    }
    bool running = j->outcome == CUZK_JOB_UNKNOWN && j->in_flight > 0;
    bool did = j->outcome == CUZK_JOB_UNKNOWN;
    if (did)
        cuzk__job_finish_locked(e, j, CUZK_JOB_CANCELLED, "cancelled by request%s",
                                running ? " (stopped at a partition boundary)" : "");
    pthread_mutex_unlock(&e->mu);
    if (was_running)
        *was_running = running;
    if (cancelled)
        *cancelled = did;
    return CUZK_OK;
}

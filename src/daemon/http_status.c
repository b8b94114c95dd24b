/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The HTTP `GET /status` server of daemon.status_listen (http_status.h). */
#include "daemon/http_status.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cuzk/alloc.h"
#include "daemon/addr.h"
#include "daemon/log.h"

#define KEY "daemon.status_listen"
/* Connections served at once and how long an idle one is kept: a status page needs few, and a
 * client that stalls must not hold the single polling thread's slots for long. */
#define MAX_CONNECTIONS 32u
#define IDLE_TIMEOUT_S 10u
#define BACKLOG 64

struct cuzk_http_status {
    int fd; /* the listening socket until libmicrohttpd owns it */
    struct MHD_Daemon *mhd;
    cuzk_engine *engine;
    char address[NI_MAXHOST + NI_MAXSERV + 4]; /* [host]:port */
};

/* ---- addresses ----------------------------------------------------------------------------- */

/* |text| parsed as daemon.listen would be, then split into a host for getaddrinfo (brackets of
 * an IPv6 literal removed) and a port. Unix sockets are refused: Curio's clients (a browser, the
 * web UI) speak HTTP over TCP. */
static cuzk_status split_addr(const char *text, char *host, size_t host_len, int *port)
{
    cuzk_listen_addr a;
    if (cuzk__addr_parse(&a, text) != CUZK_OK)
        return CUZK_ERR_INVALID_ARG; /* the message is addr.c's */
    if (a.is_unix)
        return cuzk_fail(CUZK_ERR_INVALID_ARG,
                         "'%s': the status server listens on TCP (host:port), not a unix socket",
                         text);
    const char *h = a.target;
    size_t n = (size_t)(strrchr(h, ':') - h);
    if (h[0] == '[') {
        h++;
        n -= 2;
    }
    if (n >= host_len)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "'%.40s...': host name too long", text);
    memcpy(host, h, n);
    host[n] = '\0';
    *port = a.port;
    return CUZK_OK;
}

cuzk_status cuzk__http_status_addr_check(const char *text)
{
    char host[300];
    int port = 0;
    return split_addr(text, host, sizeof host, &port);
}

/* A non-blocking listening socket on the first address |host| resolves to that binds. */
static cuzk_status listen_on(int *fd_out, const char *text, const char *host, int port)
{
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    char port_s[8];
    snprintf(port_s, sizeof port_s, "%d", port);
    int rc = getaddrinfo(host, port_s, &hints, &res);
    if (rc != 0)
        return cuzk_fail(CUZK_ERR_IO, KEY " '%s': cannot resolve '%s': %s", text, host,
                         gai_strerror(rc));
    int err = EADDRNOTAVAIL;
    for (const struct addrinfo *ai = res; ai; ai = ai->ai_next) {
        int fd =
            socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, ai->ai_protocol);
        if (fd < 0) {
            err = errno;
            continue;
        }
        int one = 1; /* a restart must not wait out TIME_WAIT connections of the last run */
        (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, BACKLOG) == 0) {
            freeaddrinfo(res);
            *fd_out = fd;
            return CUZK_OK;
        }
        err = errno;
        close(fd);
    }
    freeaddrinfo(res);
    return cuzk_fail(CUZK_ERR_IO, KEY " '%s': cannot listen: %s", text, strerror(err));
}

/* host:port of the bound socket ([v6]:port), the port being the real one when 0 was asked. */
static void describe_bound(cuzk_http_status *s, const char *text)
{
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    char host[NI_MAXHOST], port[NI_MAXSERV];
    if (getsockname(s->fd, (struct sockaddr *)&ss, &len) != 0 ||
        getnameinfo((struct sockaddr *)&ss, len, host, sizeof host, port, sizeof port,
                    NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
        snprintf(s->address, sizeof s->address, "%s", text);
        return;
    }
    bool v6 = ss.ss_family == AF_INET6;
    snprintf(s->address, sizeof s->address, "%s%s%s:%s", v6 ? "[" : "", host, v6 ? "]" : "", port);
}

cuzk_status cuzk__http_status_bind(cuzk_http_status **out, const char *text)
{
    *out = NULL;
    char host[300];
    int port = 0;
    if (split_addr(text, host, sizeof host, &port) != CUZK_OK)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, KEY ": %s", cuzk_last_error());
    cuzk_http_status *s = cuzk_calloc_array(1, sizeof *s);
    if (!s)
        return cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
    cuzk_status st = listen_on(&s->fd, text, host, port);
    if (st != CUZK_OK) {
        cuzk_free(s);
        return st;
    }
    describe_bound(s, text);
    *out = s;
    return CUZK_OK;
}

const char *cuzk__http_status_address(const cuzk_http_status *s)
{
    return s->address;
}

/* ---- the JSON body ------------------------------------------------------------------------- */

/* cJSON calls that track running out of memory once instead of at every line. */
typedef struct {
    bool oom;
} builder;

static cJSON *obj_in(builder *b, cJSON *parent, const char *key)
{
    cJSON *o = key ? cJSON_AddObjectToObject(parent, key) : cJSON_CreateObject();
    if (!key && o && !cJSON_AddItemToArray(parent, o)) {
        cJSON_Delete(o);
        o = NULL;
    }
    b->oom |= !o;
    return o;
}

static cJSON *arr_in(builder *b, cJSON *parent, const char *key)
{
    cJSON *a = cJSON_AddArrayToObject(parent, key);
    b->oom |= !a;
    return a;
}

/* Numbers travel as JSON doubles: exact up to 2^53, far above any byte count or counter here. */
static void num(builder *b, cJSON *o, const char *key, double v)
{
    b->oom |= o && !cJSON_AddNumberToObject(o, key, v);
}

static void str(builder *b, cJSON *o, const char *key, const char *v)
{
    b->oom |= o && !(v ? cJSON_AddStringToObject(o, key, v) : cJSON_AddNullToObject(o, key));
}

static void boolean(builder *b, cJSON *o, const char *key, bool v)
{
    b->oom |= o && !cJSON_AddBoolToObject(o, key, v);
}

/* MemTotal and MemAvailable (bytes) from /proc/meminfo; false when either is missing. */
static bool read_meminfo(uint64_t *total, uint64_t *avail)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return false;
    char line[256];
    unsigned long long kb;
    int found = 0;
    while (found != 3 && fgets(line, sizeof line, f)) {
        if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) {
            *total = (uint64_t)kb * 1024;
            found |= 1;
        } else if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
            *avail = (uint64_t)kb * 1024;
            found |= 2;
        }
    }
    fclose(f);
    return found == 3;
}

/* Host memory as Curio reports it, then cuzk's own budget accounting: the budget is charged
 * with HOT parameter sets (pinned_bytes), partitions in flight (in_flight_bytes) and the prover
 * workers' scratch (scratch_bytes), so in_use_bytes is their sum, the number to compare with
 * budget_bytes. */
static void add_memory(builder *b, cJSON *root, const cuzk_engine_status *st)
{
    cJSON *m = obj_in(b, root, "memory");
    uint64_t total = 0, avail = 0;
    if (read_meminfo(&total, &avail)) {
        num(b, m, "total_bytes", (double)total);
        num(b, m, "used_bytes", (double)(total > avail ? total - avail : 0));
        num(b, m, "available_bytes", (double)avail);
    } else { /* unknown, not zero */
        str(b, m, "total_bytes", NULL);
        str(b, m, "used_bytes", NULL);
        str(b, m, "available_bytes", NULL);
    }
    num(b, m, "budget_bytes", (double)st->memory_budget);
    num(b, m, "in_use_bytes", (double)st->memory_in_use);
    num(b, m, "in_flight_bytes", (double)st->memory_in_flight);
    num(b, m, "scratch_bytes", (double)st->memory_scratch);
    num(b, m, "pce_bytes", (double)st->memory_pce);
    num(b, m, "pinned_bytes", (double)st->pinned_bytes);
    num(b, m, "pinned_limit_bytes", (double)st->pinned_limit);
}

/* One entry per GPU prover worker (engine.prover_workers per device; none on the CPU backend),
 * with its device's name and memory. */
static void add_gpu_workers(builder *b, cJSON *root, const cuzk_engine_status *st)
{
    cJSON *a = arr_in(b, root, "gpu_workers");
    for (size_t i = 0; a && i < st->n_workers; i++) {
        const cuzk_engine_worker_status *x = &st->workers[i];
        if (x->device < 0)
            continue;
        const cuzk_engine_gpu_status *g = NULL;
        for (size_t d = 0; d < st->n_gpus && !g; d++)
            if (st->gpus[d].ordinal == (uint32_t)x->device)
                g = &st->gpus[d];
        bool busy = x->current_job[0] != '\0';
        cJSON *w = obj_in(b, a, NULL);
        num(b, w, "worker_id", x->worker_id);
        num(b, w, "gpu_ordinal", x->device);
        str(b, w, "name", g ? g->name : NULL);
        str(b, w, "state", busy ? "proving" : "idle");
        str(b, w, "current_job", busy ? x->current_job : NULL);
        str(b, w, "current_kind", busy ? x->current_kind : NULL);
        if (busy) {
            num(b, w, "current_partition", x->current_partition);
            num(b, w, "busy_secs", x->busy_secs);
        } else {
            str(b, w, "current_partition", NULL);
            str(b, w, "busy_secs", NULL);
        }
        num(b, w, "scratch_bytes", (double)x->scratch_bytes);
        num(b, w, "vram_total_bytes", g ? (double)g->vram_total : 0);
        num(b, w, "vram_free_bytes", g ? (double)g->vram_free : 0);
        num(b, w, "resident_bytes", g ? (double)g->resident_bytes : 0);
        num(b, w, "h_precompute_rows", g ? g->h_rows : 0);
    }
}

/* Partitioned jobs, running or finished in the last CUZK_ENGINE_PIPELINE_KEEP_S seconds, each
 * partition's state and times (Curio's shape; "outcome" is cuzk's). */
static void add_pipelines(builder *b, cJSON *root, const cuzk_engine_status *st)
{
    cJSON *a = arr_in(b, root, "pipelines");
    for (size_t i = 0; a && i < st->n_pipelines; i++) {
        const cuzk_engine_pipeline_status *p = &st->pipelines[i];
        cJSON *o = obj_in(b, a, NULL);
        str(b, o, "job_id", p->job_id);
        str(b, o, "proof_kind", p->kind);
        str(b, o, "outcome", cuzk_pipeline_outcome_name(p->outcome));
        num(b, o, "started_secs_ago", p->started_secs_ago);
        num(b, o, "total_partitions", p->total_partitions);
        num(b, o, "partitions_done", p->partitions_done);
        cJSON *parts = o ? arr_in(b, o, "partitions") : NULL;
        for (uint32_t k = 0; parts && k < p->total_partitions; k++) {
            const cuzk_engine_partition_status *x = &p->partitions[k];
            cJSON *q = obj_in(b, parts, NULL);
            num(b, q, "index", k);
            str(b, q, "state", cuzk_partition_state_name(x->state));
            num(b, q, "synth_ms", x->synth_ms);
            num(b, q, "gpu_ms", x->prove_ms);
        }
    }
}

static const char *tier_name(cuzk_srs_tier t)
{
    return t == CUZK_TIER_HOT ? "hot" : t == CUZK_TIER_WARM ? "warm" : "cold";
}

/* Every registered circuit's parameter set. evictable: EvictSRS would free it at once (loaded
 * and no partition in flight uses it). */
static void add_allocations(builder *b, cJSON *root, const cuzk_engine_status *st)
{
    cJSON *al = obj_in(b, root, "allocations");
    cJSON *a = al ? arr_in(b, al, "srs") : NULL;
    for (size_t i = 0; a && i < st->n_srs; i++) {
        const cuzk_engine_srs_status *s = &st->srs[i];
        cJSON *o = obj_in(b, a, NULL);
        str(b, o, "circuit_id", s->circuit_id);
        str(b, o, "tier", tier_name(s->tier));
        num(b, o, "bytes", (double)s->size_bytes);
        num(b, o, "ref_count", s->ref_count);
        boolean(b, o, "evictable", s->tier != CUZK_TIER_COLD && s->ref_count == 0);
        str(b, o, "subgroups", s->subgroups);
    }
    /* PCEs of builtin circuits (synthesis.pce) that exist, are being built or failed. */
    cJSON *pa = al ? arr_in(b, al, "pce") : NULL;
    for (size_t i = 0; pa && i < st->n_srs; i++) {
        const cuzk_engine_srs_status *s = &st->srs[i];
        if (!s->pce[0] && !s->pce_error[0])
            continue;
        cJSON *o = obj_in(b, pa, NULL);
        str(b, o, "circuit_id", s->circuit_id);
        str(b, o, "state", s->pce[0] ? s->pce : "waiting"); /* for budget, pce_error says */
        num(b, o, "bytes", (double)s->pce_bytes);
        num(b, o, "partitions", (double)s->pce_partitions);
        num(b, o, "extract_ms", s->pce_extract_ms);
        boolean(b, o, "from_file", s->pce_from_file);
        str(b, o, "error", s->pce_error[0] ? s->pce_error : NULL);
    }
}

/* Counters since start-up; queue_depth = jobs accepted and not yet started, all kinds. */
static void add_counters_and_queues(builder *b, cJSON *root, const cuzk_engine_status *st)
{
    cJSON *q = arr_in(b, root, "queues");
    uint64_t pending = 0;
    for (size_t i = 0; i < st->n_queues; i++) {
        const cuzk_engine_queue_status *s = &st->queues[i];
        pending += s->pending;
        cJSON *o = q ? obj_in(b, q, NULL) : NULL;
        str(b, o, "kind", s->kind);
        num(b, o, "pending", s->pending);
        num(b, o, "in_progress", s->in_progress);
    }
    cJSON *c = obj_in(b, root, "counters");
    num(b, c, "total_completed", (double)st->completed);
    num(b, c, "total_failed", (double)st->failed);
    num(b, c, "total_cancelled", (double)st->cancelled);
    num(b, c, "queue_depth", (double)pending);
}

cuzk_status cuzk__http_status_json(cuzk_engine *e, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    cuzk_engine_status st;
    cuzk_status rc = cuzk_engine_status_get(e, &st);
    if (rc != CUZK_OK)
        return rc;
    builder b = {false};
    cJSON *root = cJSON_CreateObject();
    b.oom = !root;
    if (root) {
        num(&b, root, "uptime_secs", (double)st.uptime_s);
        add_memory(&b, root, &st);
        add_gpu_workers(&b, root, &st);
        add_pipelines(&b, root, &st);
        add_allocations(&b, root, &st);
        add_counters_and_queues(&b, root, &st);
    }
    cuzk_engine_status_clear(&st);
    char *text = b.oom ? NULL : cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    if (!text)
        return cuzk_fail(CUZK_ERR_NOMEM, "out of memory building the status");
    *out = text;
    *len = strlen(text);
    return CUZK_OK;
}

/* ---- HTTP ---------------------------------------------------------------------------------- */

/* Queues |body| (copied) with |code|; every answer may be read from any origin, as Curio's. */
static enum MHD_Result reply(struct MHD_Connection *c, unsigned code, const char *type,
                             const char *body, size_t len, bool allow)
{
    struct MHD_Response *r =
        MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_MUST_COPY);
    if (!r)
        return MHD_NO; /* out of memory: libmicrohttpd closes the connection */
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(r, MHD_HTTP_HEADER_ACCESS_CONTROL_ALLOW_ORIGIN, "*");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    if (allow)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
    enum MHD_Result ok = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result reply_text(struct MHD_Connection *c, unsigned code, const char *text,
                                  bool allow)
{
    return reply(c, code, "text/plain; charset=utf-8", text, strlen(text), allow);
}

static enum MHD_Result reply_status(struct MHD_Connection *c, cuzk_engine *e)
{
    char *body;
    size_t len;
    if (cuzk__http_status_json(e, &body, &len) != CUZK_OK) {
        cuzk__log_warn("status server: %s", cuzk_last_error());
        return reply_text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "cannot read the engine status\n",
                          false);
    }
    enum MHD_Result ok = reply(c, MHD_HTTP_OK, "application/json", body, len, false);
    cJSON_free(body);
    return ok;
}

/* Called when a request's headers are in, then again for each piece of its body and once at its
 * end. A method we do not serve is answered at once (libmicrohttpd then closes the connection
 * rather than read the body); GET and HEAD are answered at the end, which keeps the connection
 * alive for a page that polls. HEAD gets GET's headers without the body (the library drops it).
 * The URL comes without its query string. */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *upload,
                                  size_t *upload_size, void **req_cls)
{
    static int seen; /* marks a request whose headers were already handled */
    (void)version;
    (void)upload;
    const cuzk_http_status *s = cls;
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
        return reply_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD\n", true);
    if (*req_cls == NULL) {
        *req_cls = &seen;
        return MHD_YES;
    }
    if (*upload_size != 0) { /* a GET with a body: ignored */
        *upload_size = 0;
        return MHD_YES;
    }
    if (strcmp(url, "/status") != 0)
        return reply_text(c, MHD_HTTP_NOT_FOUND, "not found: the status is at /status\n", false);
    return reply_status(c, s->engine);
}

/* libmicrohttpd's own errors (accept failures, bad requests) as daemon log lines. */
static void on_mhd_log(void *cls, const char *fmt, va_list ap)
{
    (void)cls;
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    size_t n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == '\r'))
        msg[--n] = '\0';
    cuzk__log_warn("status server: %s", msg);
}

cuzk_status cuzk__http_status_start(cuzk_http_status *s, cuzk_engine *e)
{
    s->engine = e;
    /* The logger first: libmicrohttpd logs option errors as it reads them. Port 0 with
     * LISTEN_SOCKET: the library takes our socket instead of binding its own. ITC
     * lets MHD_stop_daemon wake the polling thread at once on shutdown. */
    unsigned flags =
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_USE_ITC | MHD_USE_ERROR_LOG;
    s->mhd = MHD_start_daemon(flags, 0, NULL, NULL, on_request, s, MHD_OPTION_EXTERNAL_LOGGER,
                              on_mhd_log, NULL, MHD_OPTION_LISTEN_SOCKET, s->fd,
                              MHD_OPTION_CONNECTION_LIMIT, MAX_CONNECTIONS,
                              MHD_OPTION_CONNECTION_TIMEOUT, IDLE_TIMEOUT_S, MHD_OPTION_END);
    if (!s->mhd)
        return cuzk_fail(CUZK_ERR_INTERNAL, KEY " %s: libmicrohttpd did not start", s->address);
    s->fd = -1; /* MHD_stop_daemon closes it */
    return CUZK_OK;
}

void cuzk__http_status_destroy(cuzk_http_status *s)
{
    if (!s)
        return;
    if (s->mhd)
        MHD_stop_daemon(s->mhd);
    if (s->fd >= 0)
        close(s->fd);
    cuzk_free(s);
}

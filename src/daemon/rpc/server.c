/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The gRPC C core server. Threads:
 *   main    grpc_completion_queue_next on the server queue: new-call notifications, the shutdown
 *           tag, rejected calls; it also keeps gRPC's I/O moving while workers wait in the engine.
 *   worker  one per call (at most max_concurrent_calls): each call gets its own pluck queue, so a
 *           worker only ever waits for its own call's operations.
 * A call beyond the limit is answered RESOURCE_EXHAUSTED from the main thread without blocking it
 * (the reply batch is polled each loop). Every call starts RECV_CLOSE_ON_SERVER first; it
 * completes only when the stream is closed (after our status, or on cancellation / deadline /
 * disconnect), so polling it tells a waiting handler that its client is gone.
 */
#include <errno.h>
#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/slice.h>
#include <grpc/status.h>
#include <grpc/support/alloc.h>
#include <grpc/support/log.h>
#include <grpc/support/time.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/alloc.h"
#include "daemon/log.h"
#include "daemon/rpc/rpc.h"
#include "daemon/unix_socket.h"

#define N_PENDING 8            /* request_call slots armed at once */
#define N_REJECT 64            /* rejections being answered at once */
#define POLL_MS 100            /* main loop wake-up: signals, rejections, shutdown steps */
#define REJECT_TIMEOUT_MS 5000 /* a rejection the client does not read is cancelled */
#define REPLY_DRAIN_MS 5000    /* after the engine stopped: time for calls to send replies */
/* After the first signal the engine refuses new work at once, while gRPC's shutdown waits this
 * long: a call that arrives meanwhile is still matched to a request slot and answered
 * UNAVAILABLE by the engine, where the shutdown would cancel it unseen (CANCELLED, no reply). */
#define REFUSE_WINDOW_MS 300
#define MAX_SOCKETS 16
#define N_CODES 17             /* gRPC status codes 0..16 */

typedef struct {
    grpc_call *call;
    grpc_completion_queue *cq; /* pluck queue bound to the call */
    grpc_call_details details;
    grpc_metadata_array md;
} call_handle;

typedef enum { SLOT_FREE, SLOT_RUNNING, SLOT_DONE } slot_state;

struct cuzk_rpc_call {
    cuzk_rpc_server *srv;
    pthread_t thread;
    slot_state state; /* under srv->mu */
    bool quick;       /* counted in srv->running_quick, not srv->running_slow */
    call_handle h;
    int cancelled;
    bool close_started, close_seen;
    char tag_close, tag_recv, tag_send; /* addresses used as tags */
};

typedef struct {
    call_handle h;
    bool armed;
} pending_req;

typedef struct {
    call_handle h;
    bool active, cancel_sent;
    int cancelled;
    uint64_t t0;
    grpc_slice details;
} rejection;

struct cuzk_rpc_server {
    cuzk_engine *engine;
    cuzk_rpc_options opt;
    grpc_server *server;
    grpc_completion_queue *cq;
    bool started, shutdown_called, shutdown_seen;
    char shutdown_tag;
    pending_req pend[N_PENDING];
    rejection rej[N_REJECT];
    cuzk_rpc_call *slots;
    size_t n_slots;
    pthread_mutex_t mu; /* slot states, counters */
    size_t running;     /* calls with a worker */
    size_t running_slow; /* of which not quick: at most max_concurrent_calls */
    char sockets[MAX_SOCKETS][CUZK_ADDR_UNIX_MAX];
    size_t n_sockets;
    /* counters, under mu: [method index or n_methods for unknown][gRPC code] */
    uint64_t (*calls)[N_CODES];
    size_t n_methods;
    uint64_t rejected;
};

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static gpr_timespec in_ms(int64_t ms)
{
    return gpr_time_add(gpr_now(GPR_CLOCK_MONOTONIC), gpr_time_from_millis(ms, GPR_TIMESPAN));
}

static const char *code_name(int code)
{
    static const char *const names[N_CODES] = {
        "OK",        "CANCELLED",         "UNKNOWN",          "INVALID_ARGUMENT",
        "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",   "PERMISSION_DENIED",
        "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
        "UNIMPLEMENTED", "INTERNAL",      "UNAVAILABLE",      "DATA_LOSS",
        "UNAUTHENTICATED"};
    return code >= 0 && code < N_CODES ? names[code] : "?";
}

/* gRPC's own log lines go through ours (same format, one write per line). */
static void grpc_log_hook(gpr_log_func_args *a)
{
    /* gRPC's errors are about one connection or precede an error of ours: WARN, not ERROR. */
    cuzk_log_level lv = a->severity == GPR_LOG_SEVERITY_ERROR ? CUZK_LOG_WARN : CUZK_LOG_DEBUG;
    cuzk__log(lv, "grpc: %s (%s:%d)", a->message, a->file, a->line);
}

/* ---- call handles -------------------------------------------------------------------------- */

static void handle_init(call_handle *h)
{
    h->call = NULL;
    h->cq = grpc_completion_queue_create_for_pluck(NULL);
    grpc_call_details_init(&h->details);
    grpc_metadata_array_init(&h->md);
}

/* Every batch started on the call must have been plucked before this. */
static void handle_destroy(call_handle *h)
{
    if (h->call)
        grpc_call_unref(h->call);
    h->call = NULL;
    if (h->cq) {
        grpc_completion_queue_shutdown(h->cq);
        while (grpc_completion_queue_pluck(h->cq, NULL, gpr_inf_future(GPR_CLOCK_REALTIME), NULL)
                   .type != GRPC_QUEUE_SHUTDOWN)
            ;
        grpc_completion_queue_destroy(h->cq);
        h->cq = NULL;
    }
    grpc_call_details_destroy(&h->details);
    grpc_metadata_array_destroy(&h->md);
}

static bool pluck(grpc_completion_queue *cq, void *tag)
{
    for (;;) {
        grpc_event ev = grpc_completion_queue_pluck(cq, tag, gpr_inf_future(GPR_CLOCK_REALTIME),
                                                    NULL);
        if (ev.type == GRPC_OP_COMPLETE)
            return ev.success != 0;
        if (ev.type == GRPC_QUEUE_SHUTDOWN)
            return false;
    }
}

/* ---- the reply ----------------------------------------------------------------------------- */

/* Sends initial metadata, the message (OK only) and the status; takes |r->body|. */
static void send_reply(cuzk_rpc_call *c, cuzk_rpc_reply *r)
{
    grpc_op ops[3];
    memset(ops, 0, sizeof ops);
    size_t n = 0;
    ops[n++].op = GRPC_OP_SEND_INITIAL_METADATA;
    grpc_byte_buffer *out = NULL;
    if (r->code == GRPC_STATUS_OK) {
        grpc_slice s = r->body_len ? grpc_slice_new(r->body, r->body_len, cuzk_free)
                                   : grpc_empty_slice();
        if (!r->body_len)
            cuzk_free(r->body);
        r->body = NULL;
        out = grpc_raw_byte_buffer_create(&s, 1);
        grpc_slice_unref(s);
        ops[n].op = GRPC_OP_SEND_MESSAGE;
        ops[n++].data.send_message.send_message = out;
    }
    grpc_slice details = grpc_slice_from_copied_string(r->message);
    ops[n].op = GRPC_OP_SEND_STATUS_FROM_SERVER;
    ops[n].data.send_status_from_server.status = (grpc_status_code)r->code;
    ops[n++].data.send_status_from_server.status_details =
        r->code == GRPC_STATUS_OK ? NULL : &details;
    grpc_call_error err = grpc_call_start_batch(c->h.call, ops, n, &c->tag_send, NULL);
    if (err == GRPC_CALL_OK)
        pluck(c->h.cq, &c->tag_send);
    else
        cuzk__log_warn("cannot send a reply: %s", grpc_call_error_to_string(err));
    grpc_slice_unref(details);
    if (out)
        grpc_byte_buffer_destroy(out);
}

bool cuzk__rpc_call_gone(cuzk_rpc_call *c)
{
    if (!c->close_started)
        return false;
    if (!c->close_seen) {
        grpc_event ev = grpc_completion_queue_pluck(c->h.cq, &c->tag_close,
                                                    gpr_inf_past(GPR_CLOCK_MONOTONIC), NULL);
        if (ev.type == GRPC_OP_COMPLETE)
            c->close_seen = true;
    }
    return c->close_seen;
}

static void count_call(cuzk_rpc_server *s, const cuzk_rpc_method *m, int code)
{
    size_t all;
    const cuzk_rpc_method *ms = cuzk__rpc_methods(&all);
    size_t i = m ? (size_t)(m - ms) : s->n_methods;
    pthread_mutex_lock(&s->mu);
    if (code >= 0 && code < N_CODES)
        s->calls[i][code]++;
    pthread_mutex_unlock(&s->mu);
}

static void *worker_main(void *arg)
{
    cuzk_rpc_call *c = arg;
    cuzk_rpc_server *s = c->srv;
    uint64_t t0 = now_ms();
    const char *path = (const char *)GRPC_SLICE_START_PTR(c->h.details.method);
    size_t path_len = GRPC_SLICE_LENGTH(c->h.details.method);
    const cuzk_rpc_method *m = cuzk__rpc_method_find(path, path_len);

    grpc_op op;
    memset(&op, 0, sizeof op);
    op.op = GRPC_OP_RECV_CLOSE_ON_SERVER;
    op.data.recv_close_on_server.cancelled = &c->cancelled;
    c->close_started = grpc_call_start_batch(c->h.call, &op, 1, &c->tag_close, NULL) ==
                       GRPC_CALL_OK;

    grpc_byte_buffer *in = NULL;
    memset(&op, 0, sizeof op);
    op.op = GRPC_OP_RECV_MESSAGE;
    op.data.recv_message.recv_message = &in;
    bool got = grpc_call_start_batch(c->h.call, &op, 1, &c->tag_recv, NULL) == GRPC_CALL_OK &&
               pluck(c->h.cq, &c->tag_recv);

    cuzk_rpc_reply reply;
    memset(&reply, 0, sizeof reply);
    if (!m) {
        reply.code = GRPC_STATUS_UNIMPLEMENTED;
        snprintf(reply.message, sizeof reply.message, "unknown method %.*s (this is %s)",
                 (int)(path_len > 200 ? 200 : path_len), path, "cuzk.v1.ProvingEngine");
    } else if (!got || !in) {
        reply.code = GRPC_STATUS_INVALID_ARGUMENT;
        snprintf(reply.message, sizeof reply.message, "no request message received");
    } else {
        grpc_byte_buffer_reader rd;
        if (!grpc_byte_buffer_reader_init(&rd, in)) {
            reply.code = GRPC_STATUS_INVALID_ARGUMENT;
            snprintf(reply.message, sizeof reply.message,
                     "cannot read the request (unsupported compression?)");
        } else {
            grpc_slice body = grpc_byte_buffer_reader_readall(&rd);
            grpc_byte_buffer_reader_destroy(&rd);
            m->fn(s->engine, c, GRPC_SLICE_START_PTR(body), GRPC_SLICE_LENGTH(body), &reply);
            grpc_slice_unref(body);
        }
    }
    if (in)
        grpc_byte_buffer_destroy(in);

    send_reply(c, &reply);
    if (c->close_started && !c->close_seen) {
        pluck(c->h.cq, &c->tag_close);
        c->close_seen = true;
    }
    count_call(s, m, reply.code);
    if (cuzk__log_enabled(CUZK_LOG_DEBUG)) {
        char *peer = grpc_call_get_peer(c->h.call);
        cuzk__log_debug("rpc %.*s from %s: %s%s%s (%llu ms)%s",
                        (int)(path_len > 200 ? 200 : path_len), path, peer ? peer : "?",
                        code_name(reply.code), reply.code ? ": " : "",
                        reply.code ? reply.message : "", (unsigned long long)(now_ms() - t0),
                        c->cancelled ? " [client cancelled]" : "");
        gpr_free(peer);
    }
    cuzk_free(reply.body);
    handle_destroy(&c->h);

    pthread_mutex_lock(&s->mu);
    c->state = SLOT_DONE;
    s->running--;
    if (!c->quick)
        s->running_slow--;
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* ---- accepting ----------------------------------------------------------------------------- */

static bool arm(cuzk_rpc_server *s, pending_req *p)
{
    handle_init(&p->h);
    grpc_call_error err = grpc_server_request_call(s->server, &p->h.call, &p->h.details,
                                                   &p->h.md, p->h.cq, s->cq, p);
    if (err != GRPC_CALL_OK) {
        cuzk__log_error("grpc_server_request_call: %s", grpc_call_error_to_string(err));
        handle_destroy(&p->h);
        return false;
    }
    p->armed = true;
    return true;
}

/* Answers |h| with |code| without waiting: the batch is polled by poll_rejections. */
static void reject(cuzk_rpc_server *s, call_handle *h, int code, const char *msg)
{
    pthread_mutex_lock(&s->mu);
    s->rejected++;
    pthread_mutex_unlock(&s->mu);
    rejection *r = NULL;
    for (size_t i = 0; i < N_REJECT && !r; i++)
        if (!s->rej[i].active)
            r = &s->rej[i];
    if (!r) {
        /* Too many unanswered rejections: drop the call (the client sees CANCELLED). */
        grpc_call_cancel(h->call, NULL);
        handle_destroy(h);
        return;
    }
    memset(r, 0, sizeof *r);
    r->h = *h;
    r->details = grpc_slice_from_copied_string(msg);
    grpc_op ops[3];
    memset(ops, 0, sizeof ops);
    ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
    ops[1].op = GRPC_OP_SEND_STATUS_FROM_SERVER;
    ops[1].data.send_status_from_server.status = (grpc_status_code)code;
    ops[1].data.send_status_from_server.status_details = &r->details;
    ops[2].op = GRPC_OP_RECV_CLOSE_ON_SERVER;
    ops[2].data.recv_close_on_server.cancelled = &r->cancelled;
    if (grpc_call_start_batch(r->h.call, ops, 3, r, NULL) != GRPC_CALL_OK) {
        grpc_slice_unref(r->details);
        handle_destroy(&r->h);
        return;
    }
    r->active = true;
    r->t0 = now_ms();
}

static void poll_rejections(cuzk_rpc_server *s, bool force)
{
    for (size_t i = 0; i < N_REJECT; i++) {
        rejection *r = &s->rej[i];
        if (!r->active)
            continue;
        grpc_event ev = grpc_completion_queue_pluck(r->h.cq, r, gpr_inf_past(GPR_CLOCK_MONOTONIC),
                                                    NULL);
        if (ev.type != GRPC_OP_COMPLETE) {
            if (!r->cancel_sent && (force || now_ms() - r->t0 > REJECT_TIMEOUT_MS)) {
                grpc_call_cancel(r->h.call, NULL);
                r->cancel_sent = true;
            }
            if (!force)
                continue;
            pluck(r->h.cq, r); /* cancelled: completes promptly */
        }
        grpc_slice_unref(r->details);
        handle_destroy(&r->h);
        r->active = false;
    }
}

/* A free slot, joining finished workers on the way; NULL when the call's limit is reached:
 * max_concurrent_calls for calls that wait, that plus CUZK_RPC_QUICK_RESERVE for quick ones. */
static cuzk_rpc_call *take_slot(cuzk_rpc_server *s, bool quick)
{
    cuzk_rpc_call *free_slot = NULL;
    pthread_mutex_lock(&s->mu);
    if (!quick && s->running_slow >= s->opt.max_concurrent_calls) {
        pthread_mutex_unlock(&s->mu);
        return NULL;
    }
    for (size_t i = 0; i < s->n_slots; i++) {
        cuzk_rpc_call *c = &s->slots[i];
        if (c->state == SLOT_DONE) {
            pthread_join(c->thread, NULL); /* it has returned or is returning */
            c->state = SLOT_FREE;
        }
        if (c->state == SLOT_FREE && !free_slot) {
            free_slot = c;
            free_slot->state = SLOT_RUNNING;
            free_slot->quick = quick;
            s->running++;
            if (!quick)
                s->running_slow++;
        }
    }
    pthread_mutex_unlock(&s->mu);
    return free_slot;
}

static void dispatch(cuzk_rpc_server *s, pending_req *p)
{
    call_handle h = p->h;
    memset(&p->h, 0, sizeof p->h);
    const cuzk_rpc_method *m = cuzk__rpc_method_find(
        (const char *)GRPC_SLICE_START_PTR(h.details.method), GRPC_SLICE_LENGTH(h.details.method));
    cuzk_rpc_call *c = take_slot(s, !m || m->quick);
    if (!c) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "too many concurrent calls (daemon.max_concurrent_calls = %u); retry later",
                 s->opt.max_concurrent_calls);
        cuzk__log_warn("%s", msg);
        reject(s, &h, GRPC_STATUS_RESOURCE_EXHAUSTED, msg);
        return;
    }
    c->srv = s;
    c->h = h;
    c->cancelled = 0;
    c->close_started = c->close_seen = false;
    int err = pthread_create(&c->thread, NULL, worker_main, c);
    if (err != 0) {
        pthread_mutex_lock(&s->mu);
        c->state = SLOT_FREE;
        s->running--;
        if (!c->quick)
            s->running_slow--;
        pthread_mutex_unlock(&s->mu);
        cuzk__log_error("cannot start a call thread: %s", strerror(err));
        reject(s, &c->h, GRPC_STATUS_RESOURCE_EXHAUSTED, "cannot start a thread for the call");
        memset(&c->h, 0, sizeof c->h);
    }
}

/* ---- lifecycle ----------------------------------------------------------------------------- */

cuzk_status cuzk__rpc_server_create(cuzk_rpc_server **out, const cuzk_rpc_options *opt)
{
    *out = NULL;
    if (!opt || opt->max_concurrent_calls == 0 || opt->max_message_size < 1024 ||
        opt->max_message_size > 0x7fffffff)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "rpc server: bad options");
    cuzk_rpc_server *s = cuzk_alloc(sizeof *s);
    if (!s)
        return cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
    memset(s, 0, sizeof *s);
    s->opt = *opt;
    cuzk__rpc_methods(&s->n_methods);
    s->slots = cuzk_calloc_array((size_t)opt->max_concurrent_calls + CUZK_RPC_QUICK_RESERVE,
                                 sizeof *s->slots);
    s->calls = cuzk_calloc_array(s->n_methods + 1, sizeof *s->calls);
    if (!s->slots || !s->calls) {
        cuzk_free(s->slots);
        cuzk_free(s->calls);
        cuzk_free(s);
        return cuzk_fail(CUZK_ERR_NOMEM, "out of memory");
    }
    s->n_slots = (size_t)opt->max_concurrent_calls + CUZK_RPC_QUICK_RESERVE;
    pthread_mutex_init(&s->mu, NULL);

    gpr_set_log_function(grpc_log_hook);
    grpc_init();
    grpc_arg args[3];
    memset(args, 0, sizeof args);
    args[0].type = GRPC_ARG_INTEGER;
    args[0].key = (char *)GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH;
    args[0].value.integer = (int)opt->max_message_size;
    args[1].type = GRPC_ARG_INTEGER;
    args[1].key = (char *)GRPC_ARG_MAX_SEND_MESSAGE_LENGTH;
    args[1].value.integer = (int)opt->max_message_size;
    /* gRPC sets SO_REUSEPORT by default, which would let a second daemon bind our port. */
    args[2].type = GRPC_ARG_INTEGER;
    args[2].key = (char *)GRPC_ARG_ALLOW_REUSEPORT;
    args[2].value.integer = 0;
    grpc_channel_args ca = {3, args};
    s->server = grpc_server_create(&ca, NULL);
    s->cq = grpc_completion_queue_create_for_next(NULL);
    grpc_server_register_completion_queue(s->server, s->cq, NULL);
    *out = s;
    return CUZK_OK;
}

cuzk_status cuzk__rpc_server_listen(cuzk_rpc_server *s, const cuzk_listen_addr *a, char *bound,
                                    size_t bound_len)
{
    if (s->started)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "listen after start");
    if (a->is_unix && s->n_sockets == MAX_SOCKETS)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "at most %d unix sockets", MAX_SOCKETS);
    cuzk_status st;
    if (a->is_unix && (st = cuzk__unix_socket_prepare(a->path)) != CUZK_OK)
        return st;
    grpc_server_credentials *creds = grpc_insecure_server_credentials_create();
    /* The socket is created by bind() inside this call: the umask keeps it private from the
     * start; the chmod below makes that explicit and is checked. */
    mode_t old = 0;
    if (a->is_unix)
        old = umask(0177);
    int port = grpc_server_add_http2_port(s->server, a->target, creds);
    if (a->is_unix)
        umask(old);
    grpc_server_credentials_release(creds);
    if (port == 0)
        return cuzk_fail(CUZK_ERR_IO, "cannot listen on %s (address in use, not local, or not "
                         "permitted)", a->display);
    if (!a->is_unix) {
        const char *colon = strrchr(a->target, ':');
        snprintf(bound, bound_len, "%.*s:%d", (int)(colon - a->target), a->target, port);
        return CUZK_OK;
    }
    snprintf(s->sockets[s->n_sockets++], CUZK_ADDR_UNIX_MAX, "%s", a->path);
    struct stat sb;
    if (chmod(a->path, 0600) != 0)
        return cuzk_fail(CUZK_ERR_IO, "chmod 0600 %s: %s", a->path, strerror(errno));
    if (lstat(a->path, &sb) != 0 || !S_ISSOCK(sb.st_mode) || (sb.st_mode & 0777) != 0600 ||
        sb.st_uid != geteuid())
        return cuzk_fail(CUZK_ERR_IO, "%s is not a socket of ours with mode 0600 after bind",
                         a->path);
    snprintf(bound, bound_len, "%s", a->display);
    return CUZK_OK;
}

cuzk_status cuzk__rpc_server_start(cuzk_rpc_server *s, cuzk_engine *engine)
{
    if (!engine)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "rpc server: no engine");
    s->engine = engine;
    grpc_server_start(s->server);
    s->started = true;
    for (size_t i = 0; i < N_PENDING; i++)
        if (!arm(s, &s->pend[i]))
            return cuzk_fail(CUZK_ERR_INTERNAL, "cannot wait for calls");
    return CUZK_OK;
}

typedef struct {
    cuzk_engine *e;
    uint64_t grace_ms;
    pthread_t th;
    bool started;
    atomic_bool done;
} engine_stopper;

static void *stopper_main(void *arg)
{
    engine_stopper *st = arg;
    cuzk_engine_shutdown(st->e, st->grace_ms);
    atomic_store(&st->done, true);
    return NULL;
}

/* cuzk_engine_shutdown on its own thread, so that the main loop keeps serving I/O meanwhile. */
static void stopper_start(engine_stopper *st, cuzk_engine *e, uint64_t grace_ms)
{
    st->e = e;
    st->grace_ms = grace_ms;
    atomic_store(&st->done, false);
    st->started = pthread_create(&st->th, NULL, stopper_main, st) == 0;
    if (!st->started)
        stopper_main(st);
}

static void stopper_join(engine_stopper *st)
{
    if (st->started)
        pthread_join(st->th, NULL);
    st->started = false;
}

static void handle_main_event(cuzk_rpc_server *s, grpc_event ev, bool rearm)
{
    if (ev.type != GRPC_OP_COMPLETE)
        return;
    if (ev.tag == &s->shutdown_tag) {
        s->shutdown_seen = true;
        return;
    }
    pending_req *p = ev.tag;
    p->armed = false;
    if (ev.success)
        dispatch(s, p);
    else
        handle_destroy(&p->h);
    if (rearm)
        arm(s, p);
}

static size_t running_calls(cuzk_rpc_server *s)
{
    pthread_mutex_lock(&s->mu);
    size_t n = s->running;
    pthread_mutex_unlock(&s->mu);
    return n;
}

int cuzk__rpc_server_run(cuzk_rpc_server *s, volatile sig_atomic_t *signals, uint64_t grace_ms)
{
    engine_stopper first, second;
    memset(&first, 0, sizeof first);
    memset(&second, 0, sizeof second);
    bool draining = false, hurried = false, cancelled_all = false;
    uint64_t t_engine_done = 0, t_drain = 0;
    for (;;) {
        grpc_event ev = grpc_completion_queue_next(s->cq, in_ms(POLL_MS), NULL);
        handle_main_event(s, ev, !s->shutdown_called);
        poll_rejections(s, false);
        int sig = *signals;
        if (!draining && sig >= 1) {
            draining = true;
            t_drain = now_ms();
            cuzk__log_info("shutting down: new work is refused; running jobs get %llu ms to "
                           "finish (a second signal cancels them now)",
                           (unsigned long long)grace_ms);
            stopper_start(&first, s->engine, sig >= 2 ? 0 : grace_ms);
        }
        if (!draining)
            continue;
        if (!s->shutdown_called && (sig >= 2 || now_ms() - t_drain >= REFUSE_WINDOW_MS)) {
            grpc_server_shutdown_and_notify(s->server, s->cq, &s->shutdown_tag);
            s->shutdown_called = true;
        }
        if (sig >= 2 && !hurried) {
            hurried = true;
            cuzk__log_warn("second signal: cancelling every job now");
            stopper_start(&second, s->engine, 0);
        }
        if (sig >= 3) {
            cuzk__log_error("third signal: exiting without waiting for %zu call(s)",
                            running_calls(s));
            return 1;
        }
        if (!t_engine_done && atomic_load(&first.done)) {
            t_engine_done = now_ms();
            size_t n = running_calls(s);
            if (n)
                cuzk__log_info("engine stopped; %zu call(s) are sending their replies", n);
        }
        if (t_engine_done && !cancelled_all && now_ms() - t_engine_done > REPLY_DRAIN_MS) {
            cuzk__log_warn("cancelling %zu call(s) that did not finish", running_calls(s));
            grpc_server_cancel_all_calls(s->server);
            cancelled_all = true;
        }
        if (s->shutdown_seen && t_engine_done && running_calls(s) == 0)
            break;
    }
    stopper_join(&first);
    stopper_join(&second);
    /* Workers have all decremented |running|; join them. */
    for (size_t i = 0; i < s->n_slots; i++) {
        if (s->slots[i].state == SLOT_DONE) {
            pthread_join(s->slots[i].thread, NULL);
            s->slots[i].state = SLOT_FREE;
        }
    }
    poll_rejections(s, true);
    return 0;
}

void cuzk__rpc_server_destroy(cuzk_rpc_server *s)
{
    if (!s)
        return;
    if (!s->shutdown_called) {
        grpc_server_shutdown_and_notify(s->server, s->cq, &s->shutdown_tag);
        s->shutdown_called = true;
        grpc_server_cancel_all_calls(s->server);
    }
    /* Drain: the shutdown tag, and the armed request_call slots (they fail after shutdown). */
    for (;;) {
        bool armed = false;
        for (size_t i = 0; i < N_PENDING; i++)
            armed |= s->pend[i].armed;
        if (s->shutdown_seen && !armed)
            break;
        grpc_event ev = grpc_completion_queue_next(s->cq, in_ms(POLL_MS), NULL);
        handle_main_event(s, ev, false);
        poll_rejections(s, true);
    }
    for (size_t i = 0; i < s->n_slots; i++) {
        if (s->slots[i].state != SLOT_FREE) {
            pthread_join(s->slots[i].thread, NULL); /* only after a forced exit path */
            s->slots[i].state = SLOT_FREE;
        }
    }
    grpc_server_destroy(s->server);
    grpc_completion_queue_shutdown(s->cq);
    while (grpc_completion_queue_next(s->cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL).type !=
           GRPC_QUEUE_SHUTDOWN)
        ;
    grpc_completion_queue_destroy(s->cq);
    for (size_t i = 0; i < s->n_sockets; i++) {
        struct stat sb;
        if (lstat(s->sockets[i], &sb) == 0 && S_ISSOCK(sb.st_mode) && unlink(s->sockets[i]) != 0)
            cuzk__log_warn("cannot remove %s: %s", s->sockets[i], strerror(errno));
    }
    grpc_shutdown_blocking();
    pthread_mutex_destroy(&s->mu);
    cuzk_free(s->slots);
    cuzk_free(s->calls);
    cuzk_free(s);
}

char *cuzk__rpc_call_server_metrics(cuzk_rpc_call *c)
{
    cuzk_rpc_server *s = c->srv;
    size_t nm;
    const cuzk_rpc_method *ms = cuzk__rpc_methods(&nm);
    size_t cap = 1024 + (nm + 1) * N_CODES * 96;
    char *buf = cuzk_alloc(cap);
    if (!buf)
        return NULL;
    size_t off = 0;
#define PUT(...) off += (size_t)snprintf(buf + off, off < cap ? cap - off : 0, __VA_ARGS__)
    pthread_mutex_lock(&s->mu);
    PUT("# HELP cuzk_rpc_calls_total RPCs answered, by method and gRPC status code.\n"
        "# TYPE cuzk_rpc_calls_total counter\n");
    for (size_t i = 0; i <= nm; i++)
        for (int code = 0; code < N_CODES; code++)
            if (s->calls[i][code])
                PUT("cuzk_rpc_calls_total{method=\"%s\",code=\"%s\"} %llu\n",
                    i < nm ? ms[i].name : "unknown", code_name(code),
                    (unsigned long long)s->calls[i][code]);
    PUT("# HELP cuzk_rpc_calls_in_flight RPCs being handled now (this one included).\n"
        "# TYPE cuzk_rpc_calls_in_flight gauge\ncuzk_rpc_calls_in_flight %zu\n",
        s->running);
    PUT("# HELP cuzk_rpc_calls_rejected_total RPCs refused with RESOURCE_EXHAUSTED because "
        "daemon.max_concurrent_calls (plus the reserve for quick calls) were running.\n"
        "# TYPE cuzk_rpc_calls_rejected_total counter\ncuzk_rpc_calls_rejected_total %llu\n",
        (unsigned long long)s->rejected);
    pthread_mutex_unlock(&s->mu);
#undef PUT
    if (off >= cap)
        buf[cap - 1] = '\0';
    return buf;
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Unary calls to the daemon; see client.h. The gRPC side lives in the module that
 * client_transport.h describes, loaded here on the first connection. */
#include "client.h"
#include "client_transport.h"
#include "cuzk/alloc.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MODULE_NAME "cuzk-bench-grpc.so"

struct bench_client {
    void *channel;
    char target[512];
};

static const char *const status_names[] = {
    "OK",
    "CANCELLED",
    "UNKNOWN",
    "INVALID_ARGUMENT",
    "DEADLINE_EXCEEDED",
    "NOT_FOUND",
    "ALREADY_EXISTS",
    "PERMISSION_DENIED",
    "RESOURCE_EXHAUSTED",
    "FAILED_PRECONDITION",
    "ABORTED",
    "OUT_OF_RANGE",
    "UNIMPLEMENTED",
    "INTERNAL",
    "UNAVAILABLE",
    "DATA_LOSS",
    "UNAUTHENTICATED",
};

const char *client_status_name(int code)
{
    static __thread char buf[24];
    if (code >= 0 && (size_t)code < sizeof status_names / sizeof status_names[0])
        return status_names[code];
    snprintf(buf, sizeof buf, "CODE_%d", code);
    return buf;
}

const char *client_default_addr(char *buf, size_t n)
{
    const char *env = getenv("CUZK_ADDR");
    const char *xdg = getenv("XDG_RUNTIME_DIR");
    if (env && *env)
        snprintf(buf, n, "%s", env);
    else if (xdg && *xdg)
        snprintf(buf, n, "unix://%s/cuzk.sock", xdg);
    else
        snprintf(buf, n, "unix:///tmp/cuzk-%u/cuzk.sock", (unsigned)getuid());
    return buf;
}

static void fail(rpc_status *st, int code, const char *msg)
{
    st->code = code;
    snprintf(st->details, sizeof st->details, "%.*s", (int)sizeof st->details - 1, msg);
}

/* The module, loaded once per process; a failure is remembered with its message. */
static pthread_once_t module_once = PTHREAD_ONCE_INIT;
static const client_transport *module;
static char module_error[2 * PATH_MAX + 256];

/* Tries |path|; true when it loaded (or failed in a way worth reporting rather than trying the
 * next place). */
static bool module_try(const char *path)
{
    if (access(path, F_OK) != 0)
        return false;
    /* RTLD_LOCAL: gRPC's symbols stay out of the process's global scope. */
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(module_error, sizeof module_error, "cannot load the gRPC client module: %s",
                 dlerror());
        return true;
    }
    const client_transport *t = dlsym(h, CLIENT_TRANSPORT_SYMBOL);
    if (!t || t->abi != CLIENT_TRANSPORT_ABI) {
        snprintf(module_error, sizeof module_error,
                 "the gRPC client module %s does not match this cuzk-bench (rebuild both)", path);
        dlclose(h);
        return true;
    }
    module = t;
    return true;
}

/* $CUZK_BENCH_GRPC_MODULE, else lib/ beside the binary's bin/ (the build layout), else the
 * binary's own folder (a copied binary with its module beside it). */
static void module_load(void)
{
    const char *env = getenv("CUZK_BENCH_GRPC_MODULE");
    if (env && *env) {
        if (!module_try(env))
            snprintf(module_error, sizeof module_error, "CUZK_BENCH_GRPC_MODULE=%s: no such file",
                     env);
        return;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        snprintf(module_error, sizeof module_error,
                 "cannot find the gRPC client module: /proc/self/exe is unreadable "
                 "(set CUZK_BENCH_GRPC_MODULE)");
        return;
    }
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = 0;
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/../lib/%s", exe, MODULE_NAME);
    if (module_try(path))
        return;
    snprintf(path, sizeof path, "%s/%s", exe, MODULE_NAME);
    if (module_try(path))
        return;
    snprintf(module_error, sizeof module_error,
             "the gRPC client module %s is neither in %s/../lib nor in %s (build it with make, or "
             "set CUZK_BENCH_GRPC_MODULE)",
             MODULE_NAME, exe, exe);
}

bool client_open(bench_client **out, const char *addr, rpc_status *st)
{
    *out = NULL;
    memset(st, 0, sizeof *st);
    char target[512];
    if (!addr || !*addr) {
        fail(st, 3, "empty daemon address");
        return false;
    }
    /* Curio's tools write TCP addresses as http://host:port; gRPC wants host:port. */
    if (strncmp(addr, "http://", 7) == 0)
        addr += 7;
    int w;
    if (addr[0] == '/')
        w = snprintf(target, sizeof target, "unix://%s", addr);
    else
        w = snprintf(target, sizeof target, "%s", addr);
    if (w < 0 || (size_t)w >= sizeof target || !*addr) {
        fail(st, 3, "daemon address too long or empty");
        return false;
    }
    if (strncmp(target, "unix:", 5) == 0) {
        const char *path = target + 5;
        if (strncmp(path, "//", 2) == 0)
            path += 2;
        /* sun_path holds 108 bytes; gRPC would only say "failed to connect". */
        if (!*path || strlen(path) >= 108) {
            fail(st, 3, "unix socket path is empty or longer than 107 bytes");
            return false;
        }
    }
    pthread_once(&module_once, module_load);
    if (!module) {
        fail(st, 13, module_error);
        return false;
    }
    bench_client *c = cuzk_alloc(sizeof *c);
    if (!c) {
        fail(st, 8, "out of memory");
        return false;
    }
    memset(c, 0, sizeof *c);
    snprintf(c->target, sizeof c->target, "%s", target);
    c->channel = module->open(c->target, st);
    if (!c->channel) {
        cuzk_free(c);
        return false;
    }
    *out = c;
    return true;
}

void client_close(bench_client *c)
{
    if (!c)
        return;
    module->close(c->channel);
    cuzk_free(c);
}

const char *client_target(const bench_client *c)
{
    return c->target;
}

/* protobuf-c allocations go through the counting allocator like everything else. */
static void *pb_alloc(void *data, size_t size)
{
    (void)data;
    return cuzk_alloc(size ? size : 1);
}

static void pb_free(void *data, void *p)
{
    (void)data;
    cuzk_free(p);
}

static ProtobufCAllocator pb_allocator = {pb_alloc, pb_free, NULL};

void client_free_msg(ProtobufCMessage *m)
{
    if (m)
        protobuf_c_message_free_unpacked(m, &pb_allocator);
}

typedef struct {
    const ProtobufCMessageDescriptor *desc;
    ProtobufCMessage *msg;
} unpack_ctx;

static bool unpack_reply(void *arg, const uint8_t *data, size_t len)
{
    unpack_ctx *u = arg;
    u->msg = protobuf_c_message_unpack(u->desc, &pb_allocator, len, data);
    return u->msg != NULL;
}

bool client_call(bench_client *c, const char *method, const ProtobufCMessage *req,
                 const ProtobufCMessageDescriptor *resp_desc, ProtobufCMessage **resp,
                 uint64_t deadline_ms, client_tick_fn tick, void *tick_arg, rpc_status *st)
{
    *resp = NULL;
    memset(st, 0, sizeof *st);
    char path[128];
    snprintf(path, sizeof path, "/cuzk.v1.ProvingEngine/%s", method);
    size_t n = protobuf_c_message_get_packed_size(req);
    uint8_t *buf = cuzk_alloc(n ? n : 1);
    if (!buf) {
        fail(st, 8, "out of memory");
        return false;
    }
    protobuf_c_message_pack(req, buf);
    unpack_ctx u = {resp_desc, NULL};
    bool ok =
        module->call(c->channel, path, buf, n, deadline_ms, tick, tick_arg, unpack_reply, &u, st);
    cuzk_free(buf);
    if (!ok) {
        client_free_msg(u.msg);
        return false;
    }
    *resp = u.msg;
    return true;
}

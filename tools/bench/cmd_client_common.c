/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Options, connection and error reporting shared by the daemon client commands. */
#include "cmd_client.h"
#include "cuzk/alloc.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double cli_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

double cli_r3(double x)
{
    return floor(x * 1e3 + 0.5) / 1e3;
}

void cli_common_init(cli_common *c, const char *cmd, uint64_t default_deadline_ms)
{
    memset(c, 0, sizeof *c);
    c->cmd = cmd;
    c->addr = client_default_addr(c->addr_buf, sizeof c->addr_buf);
    c->deadline_ms = default_deadline_ms;
}

const char *cli_value(const char *cmd, int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "cuzk-bench %s: missing value for %s\n", cmd, argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

bool cli_u64(const char *cmd, const char *flag, const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!s || !*s || *s == '-') {
        fprintf(stderr, "cuzk-bench %s: %s needs a non-negative integer\n", cmd, flag);
        return false;
    }
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end) {
        fprintf(stderr, "cuzk-bench %s: %s: '%s' is not a non-negative integer\n", cmd, flag, s);
        return false;
    }
    *out = v;
    return true;
}

int cli_unknown(const char *cmd, const char *arg)
{
    fprintf(stderr, "cuzk-bench %s: unknown option '%s' (see cuzk-bench --help)\n", cmd, arg);
    return CLI_ERR;
}

int cli_common_opt(cli_common *c, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (strcmp(a, "--json") == 0) {
        c->json = true;
        return 1;
    }
    if (strcmp(a, "--addr") == 0 || strcmp(a, "-a") == 0) {
        const char *v = cli_value(c->cmd, argc, argv, i);
        if (!v)
            return -1;
        c->addr = v;
        return 1;
    }
    if (strcmp(a, "--deadline-ms") == 0) {
        const char *v = cli_value(c->cmd, argc, argv, i);
        return v && cli_u64(c->cmd, a, v, &c->deadline_ms) ? 1 : -1;
    }
    return 0;
}

bool cli_connect(const cli_common *c, bench_client **out)
{
    rpc_status st;
    if (!client_open(out, c->addr, &st)) {
        if (st.code == 3) /* INVALID_ARGUMENT: the address itself */
            fprintf(stderr, "cuzk-bench %s: daemon address '%s': %s\n", c->cmd, c->addr,
                    st.details);
        else
            fprintf(stderr, "cuzk-bench %s: %s\n", c->cmd, st.details);
        return false;
    }
    return true;
}

int cli_rpc_error(const cli_common *c, const char *method, const rpc_status *st)
{
    const char *name = client_status_name(st->code);
    fprintf(stderr, "error: %s RPC failed: %s: %s\n", method, name, st->details);
    if (st->code == CLIENT_UNAVAILABLE)
        fprintf(stderr,
                "hint: is the daemon running at %s? (start it with: cuzk --listen %s; "
                "or pass --addr / set CUZK_ADDR)\n",
                c->addr, c->addr);
    if (c->json) {
        cJSON *o = cJSON_CreateObject();
        cJSON *e = cJSON_AddObjectToObject(o, "error");
        cJSON_AddStringToObject(e, "rpc", method);
        cJSON_AddStringToObject(e, "code", name);
        cJSON_AddStringToObject(e, "message", st->details);
        char *s = cJSON_PrintUnformatted(o);
        if (s)
            printf("%s\n", s);
        cJSON_free(s);
        cJSON_Delete(o);
    }
    return CLI_ERR;
}

const char *cli_bytes(char *buf, size_t n, uint64_t b)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)b;
    int u = 0;
    while (v >= 1024.0 && u < 4) {
        v /= 1024.0;
        u++;
    }
    if (u == 0)
        snprintf(buf, n, "%llu B", (unsigned long long)b);
    else
        snprintf(buf, n, "%.1f %s", v, unit[u]);
    return buf;
}

bool cli_write_file(const char *cmd, const char *path, const void *data, size_t len)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof tmp) {
        fprintf(stderr, "cuzk-bench %s: path too long: %s\n", cmd, path);
        return false;
    }
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        fprintf(stderr, "cuzk-bench %s: cannot write %s: %s\n", cmd, path, strerror(errno));
        return false;
    }
    bool ok = fwrite(data, 1, len, f) == len;
    ok = (fflush(f) == 0) && ok;
    ok = (fsync(fileno(f)) == 0) && ok;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        fprintf(stderr, "cuzk-bench %s: cannot write %s: %s\n", cmd, path, strerror(errno));
        unlink(tmp);
        return false;
    }
    return true;
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Test runner: registry, --list, --filter, --seed, --iters, per-test timeout, TAP output. */

#include "test.h"

#include <fnmatch.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/cpu.h"

#define X(name) CUZK_TEST(name);
#include "test_list.h"
#undef X

typedef struct {
    const char *name;
    void (*fn)(void);
} test_entry;

static const test_entry tests[] = {
#define X(name) {#name, cuzk_test_##name},
#include "test_list.h"
#undef X
};

static uint64_t rng_state[4];
static unsigned long iters_override;

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t test_rand_u64(void)
{
    uint64_t *s = rng_state;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

void test_rand_bytes(void *out, size_t n)
{
    uint8_t *p = out;
    while (n > 0) {
        uint64_t v = test_rand_u64();
        size_t k = n < 8 ? n : 8;
        memcpy(p, &v, k);
        p += k;
        n -= k;
    }
}

unsigned long test_iters(unsigned long dflt)
{
    return iters_override ? iters_override : dflt;
}

const char *test_fixtures_dir(void)
{
    const char *e = getenv("CUZK_FIXTURES");
    return e ? e : "../shared/fixtures";
}

bool test_unhex(uint8_t *out, size_t n, const char *hex)
{
    if (strlen(hex) != 2 * n)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1)
            return false;
        out[i] = (uint8_t)v;
    }
    return true;
}

static const char *current_test;
static uint64_t current_seed;

void test_fail_at(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "# FAIL %s (%s:%d, seed=%016llx): ", current_test, file, line,
            (unsigned long long)current_seed);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    _exit(1);
}

void test_skip(const char *why)
{
    printf("# skip reason: %s\n", why);
    fflush(stdout);
    _exit(CUZK_TEST_SKIP_CODE);
}

static void seed_for(const char *name, uint64_t seed)
{
    /* Mix the test name in so that tests draw independent streams from one printed seed. */
    uint64_t x = seed;
    for (const char *c = name; *c; c++)
        x = x * 131 + (uint8_t)*c;
    for (int i = 0; i < 4; i++)
        rng_state[i] = splitmix(&x);
}

static int run_one(const test_entry *t, uint64_t seed, unsigned timeout_s)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        current_test = t->name;
        current_seed = seed;
        seed_for(t->name, seed);
        alarm(timeout_s);
        t->fn();
        fflush(stdout);
        _exit(0);
    }
    int st;
    if (waitpid(pid, &st, 0) < 0)
        return 1;
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    fprintf(stderr, "# %s: killed by signal %d%s (seed=%016llx)\n", t->name, WTERMSIG(st),
            WTERMSIG(st) == SIGALRM ? " (timeout)" : "", (unsigned long long)seed);
    return 1;
}

CUZK_CPU_GUARD("cuzk-test")

int main(int argc, char **argv)
{
    const char *filter = NULL;
    uint64_t seed = 0;
    bool have_seed = false, list = false;
    unsigned timeout_s = 600;
    const char *env_iters = getenv("CUZK_TEST_ITERS");
    if (env_iters)
        iters_override = strtoul(env_iters, NULL, 10);
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--filter=", 9) == 0)
            filter = argv[i] + 9;
        else if (strncmp(argv[i], "--seed=", 7) == 0) {
            seed = strtoull(argv[i] + 7, NULL, 16);
            have_seed = true;
        } else if (strncmp(argv[i], "--iters=", 8) == 0)
            iters_override = strtoul(argv[i] + 8, NULL, 10);
        else if (strncmp(argv[i], "--timeout=", 10) == 0)
            timeout_s = (unsigned)strtoul(argv[i] + 10, NULL, 10);
        else if (strcmp(argv[i], "--list") == 0)
            list = true;
        else {
            fprintf(stderr,
                    "usage: %s [--list] [--filter=GLOB] [--seed=HEX] [--iters=N] [--timeout=S]\n",
                    argv[0]);
            return 2;
        }
    }
    size_t n = sizeof tests / sizeof tests[0];
    if (list) {
        for (size_t i = 0; i < n; i++)
            printf("%s\n", tests[i].name);
        return 0;
    }
    if (!have_seed) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)getpid();
        seed = splitmix(&x);
    }
    size_t selected = 0;
    for (size_t i = 0; i < n; i++)
        if (!filter || fnmatch(filter, tests[i].name, 0) == 0)
            selected++;
    printf("TAP version 13\n# seed=%016llx (replay with --seed=%016llx)\n1..%zu\n",
           (unsigned long long)seed, (unsigned long long)seed, selected);
    size_t k = 0, failed = 0, skipped = 0;
    for (size_t i = 0; i < n; i++) {
        if (filter && fnmatch(filter, tests[i].name, 0) != 0)
            continue;
        k++;
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        int rc = run_one(&tests[i], seed, timeout_s);
        clock_gettime(CLOCK_MONOTONIC, &b);
        double ms = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
        if (rc == 0)
            printf("ok %zu - %s # %.1f ms\n", k, tests[i].name, ms);
        else if (rc == CUZK_TEST_SKIP_CODE) {
            printf("ok %zu - %s # SKIP\n", k, tests[i].name);
            skipped++;
        } else {
            printf("not ok %zu - %s\n", k, tests[i].name);
            failed++;
        }
    }
    printf("# %zu tests, %zu failed, %zu skipped, seed=%016llx\n", k, failed, skipped,
           (unsigned long long)seed);
    return failed ? 1 : 0;
}

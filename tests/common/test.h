/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_TESTS_TEST_H
#define CUZK_TESTS_TEST_H

/*
 * Minimal test framework. A test is `CUZK_TEST(name) { ... }` in any file under tests/unit or
 * tests/vectors; the build collects the names into a registry. Each test runs in its own child
 * process with a timeout, so a crash or a failed CHECK fails that test only. Randomness comes
 * from test_rand_*(), seeded from --seed (printed) and the test name, so any run replays.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CUZK_TEST(name) void cuzk_test_##name(void)

/* Exit code that reports a skip (libuv / automake convention). */
#define CUZK_TEST_SKIP_CODE 77

void test_fail_at(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));
void test_skip(const char *why) __attribute__((noreturn));

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond))                                                                               \
            test_fail_at(__FILE__, __LINE__, "CHECK(%s) failed", #cond);                           \
    } while (0)

#define CHECK_MSG(cond, ...)                                                                       \
    do {                                                                                           \
        if (!(cond))                                                                               \
            test_fail_at(__FILE__, __LINE__, __VA_ARGS__);                                         \
    } while (0)

/* Fills |n| bytes from the per-test generator (xoshiro256**). */
void test_rand_bytes(void *out, size_t n);
uint64_t test_rand_u64(void);
/* Number of random iterations a test should run (--iters or CUZK_TEST_ITERS; default |dflt|). */
unsigned long test_iters(unsigned long dflt);
/* Path of the shared fixtures directory (CUZK_FIXTURES or ../shared/fixtures). */
const char *test_fixtures_dir(void);
/* Hex helpers: parse |hex| into |out| (exactly |n| bytes), returns false on bad input. */
bool test_unhex(uint8_t *out, size_t n, const char *hex);

#endif

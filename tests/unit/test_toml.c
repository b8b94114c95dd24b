/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The TOML subset of src/common/toml.c: values, tables, line numbers, every rejection, random
 * integers and strings read back, and mutated documents that must fail cleanly (no leak). */
#include "test.h"

#include <inttypes.h>

#include "common/toml.h"
#include "cuzk/alloc.h"

static const char doc[] = "# comment\n"
                          "\xef\xbb\xbf"
                          "top = 1\n"
                          "[daemon]\n"
                          "listen = [\"unix:///a\", 'b:1',  # trailing comment\n"
                          "          ]\n"
                          "max = 0x1F\n"
                          "neg = -42  # c\n"
                          "big = 9_223_372_036_854_775_807\n"
                          "on = true\n"
                          "\"quoted key\" = \"t\\u00e9\\t\\\"x\\\"\"\n"
                          "[a.b]\n"
                          "c = 0b101\n"
                          "[[circuits]]\n"
                          "id = \"one\"\n"
                          "[[circuits]]\n"
                          "id = 'two'\n"
                          "nested = [[1, 2], [], [\"x\"]]\r\n";

static const cuzk_toml_value *get(const cuzk_toml_value *t, const char *k, cuzk_toml_type type)
{
    const cuzk_toml_value *v = cuzk_toml_get(t, k);
    CHECK_MSG(v != NULL, "key %s missing", k);
    CHECK_MSG(v->type == type, "key %s is a %s", k, cuzk_toml_type_name(v->type));
    return v;
}

CUZK_TEST(toml_values)
{
    uint64_t live = cuzk_alloc_live_bytes();
    cuzk_toml_value *root;
    /* The BOM is only skipped at the very start: here it sits after a comment line and is an
     * error; the document proper starts after it. */
    CHECK(cuzk_toml_parse(&root, doc, sizeof doc - 1, "t.toml") == CUZK_ERR_FORMAT);
    const char *body = strstr(doc, "top");
    CHECK(cuzk_toml_parse(&root, body, strlen(body), "t.toml") == CUZK_OK);
    CHECK(get(root, "top", CUZK_TOML_INT)->u.i == 1);
    const cuzk_toml_value *d = get(root, "daemon", CUZK_TOML_TABLE);
    const cuzk_toml_value *l = get(d, "listen", CUZK_TOML_ARRAY);
    CHECK(l->u.array.n == 2 && l->line == 3);
    CHECK(!strcmp(l->u.array.items[0]->u.str, "unix:///a"));
    CHECK(!strcmp(l->u.array.items[1]->u.str, "b:1"));
    CHECK(get(d, "max", CUZK_TOML_INT)->u.i == 31);
    CHECK(get(d, "neg", CUZK_TOML_INT)->u.i == -42);
    CHECK(get(d, "big", CUZK_TOML_INT)->u.i == INT64_MAX);
    CHECK(get(d, "big", CUZK_TOML_INT)->line == 7);
    CHECK(get(d, "on", CUZK_TOML_BOOL)->u.b);
    CHECK(!strcmp(get(d, "quoted key", CUZK_TOML_STRING)->u.str, "t\xc3\xa9\t\"x\""));
    const cuzk_toml_value *b = get(get(root, "a", CUZK_TOML_TABLE), "b", CUZK_TOML_TABLE);
    CHECK(get(b, "c", CUZK_TOML_INT)->u.i == 5);
    const cuzk_toml_value *c = get(root, "circuits", CUZK_TOML_ARRAY);
    CHECK(c->table_array && c->u.array.n == 2);
    CHECK(!strcmp(get(c->u.array.items[0], "id", CUZK_TOML_STRING)->u.str, "one"));
    CHECK(c->u.array.items[1]->line == 14);
    const cuzk_toml_value *n = get(c->u.array.items[1], "nested", CUZK_TOML_ARRAY);
    CHECK(n->u.array.n == 3 && n->u.array.items[1]->u.array.n == 0);
    cuzk_toml_free(root);
    CHECK(cuzk_alloc_live_bytes() == live);
}

CUZK_TEST(toml_rejects)
{
    static const struct {
        const char *text;
        const char *msg; /* part of the error */
    } bad[] = {
        {"a = 1\na = 2\n", "t:2: key 'a' is defined twice"},
        {"[x]\n[x]\n", "t:2: table [x] is defined twice"},
        {"a = 1\n[a]\n", "not a table"},
        {"a = [1]\n[[a]]\n", "not an array of tables"},
        {"a.b = 1\n", "dotted keys"},
        {"a = 1.5\n", "floating-point"},
        {"a = 1e3\n", "floating-point"},
        {"a = inf\n", "floating-point"},
        {"a = 1979-05-27\n", "dates"},
        {"a = {b = 1}\n", "inline tables"},
        {"a = \"\"\"x\"\"\"\n", "multi-line"},
        {"a = \"x\n", "unterminated string"},
        {"a = \"\\q\"\n", "unknown escape"},
        {"a = \"\\u0000\"\n", "U+0000"},
        {"a = \"\\ud800\"\n", "not allowed"},
        {"a = 01\n", "leading zeros"},
        {"a = 1__0\n", "between digits"},
        {"a = 9223372036854775808\n", "out of range"},
        {"a = +0x10\n", "sign"},
        {"a = 0x\n", "expected a value"},
        {"a = 1 2\n", "unexpected text '2'"},
        {"a = [1 2]\n", "expected ',' or ']'"},
        {"a = [1,\n", "unterminated array"},
        {"a = yes\n", "strings need quotes"},
        {"a =\n", "expected a value"},
        {"= 1\n", "expected a key"},
        {"a 1\n", "expected '='"},
        {"[a\n", "expected ']'"},
        {"[[a]\n", "expected ']]'"},
        {"\"\" = 1\n", "empty keys"},
        {"a = \"x\x01\"\n", "control character"},
        {"# \x01\n", "control character"},
    };
    uint64_t live = cuzk_alloc_live_bytes();
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cuzk_toml_value *root = (cuzk_toml_value *)&root; /* poisoned: must become NULL */
        cuzk_status st = cuzk_toml_parse(&root, bad[i].text, strlen(bad[i].text), "t");
        CHECK_MSG(st == CUZK_ERR_FORMAT, "case %zu (%s) gave %s", i, bad[i].text,
                  cuzk_status_name(st));
        CHECK(root == NULL);
        CHECK_MSG(strstr(cuzk_last_error(), bad[i].msg) != NULL, "case %zu: message '%s'", i,
                  cuzk_last_error());
        CHECK_MSG(!strncmp(cuzk_last_error(), "t:", 2), "case %zu: no file:line", i);
    }
    /* Arrays nested past the limit fail instead of recursing without bound. */
    char deep[200];
    memset(deep, '[', sizeof deep);
    memcpy(deep, "a = ", 4);
    cuzk_toml_value *root;
    CHECK(cuzk_toml_parse(&root, deep, sizeof deep, "t") == CUZK_ERR_FORMAT);
    CHECK(strstr(cuzk_last_error(), "nested deeper"));
    const char nul[] = "a = 1\0";
    CHECK(cuzk_toml_parse(&root, nul, sizeof nul, "t") == CUZK_ERR_FORMAT);
    CHECK(cuzk_alloc_live_bytes() == live);
}

/* Random integers and strings written as TOML read back unchanged. */
CUZK_TEST(toml_random_values)
{
    unsigned long iters = test_iters(2000);
    for (unsigned long it = 0; it < iters; it++) {
        int64_t v = (int64_t)test_rand_u64() >> (test_rand_u64() % 64);
        if (v == INT64_MIN)
            v++;
        char s[64];
        uint8_t raw[24];
        test_rand_bytes(raw, sizeof raw);
        /* A basic string: printable bytes as they are, the rest as \u escapes. */
        char text[512];
        size_t off = (size_t)snprintf(text, sizeof text, "i = %" PRId64 "\ns = \"", v);
        char want[128];
        size_t wn = 0;
        for (size_t i = 0; i < sizeof raw; i++) {
            unsigned char ch = raw[i] & 0x7f;
            if (ch == 0)
                ch = 'z';
            if (ch < 0x20 || ch == 0x7f || ch == '"' || ch == '\\')
                off += (size_t)snprintf(text + off, sizeof text - off, "\\u%04X", ch);
            else
                text[off++] = (char)ch;
            want[wn++] = (char)ch;
        }
        want[wn] = '\0';
        off += (size_t)snprintf(text + off, sizeof text - off, "\"\n");
        snprintf(s, sizeof s, "%" PRId64, v);
        cuzk_toml_value *root;
        CHECK_MSG(cuzk_toml_parse(&root, text, off, "r") == CUZK_OK, "%s: %s", text,
                  cuzk_last_error());
        CHECK_MSG(get(root, "i", CUZK_TOML_INT)->u.i == v, "integer %s", s);
        CHECK_MSG(!strcmp(get(root, "s", CUZK_TOML_STRING)->u.str, want), "string %s", text);
        cuzk_toml_free(root);
    }
}

/* Mutated documents: each parse either succeeds or fails with FORMAT and a message, and frees
 * everything either way. */
CUZK_TEST(toml_mutations)
{
    const char *body = strstr(doc, "top");
    size_t n = strlen(body);
    char *buf = malloc(n + 64);
    CHECK(buf);
    uint64_t live = cuzk_alloc_live_bytes();
    unsigned long iters = test_iters(3000);
    static const char alphabet[] = "[]{}\"'=#.,\n\r\\ _-+0x1aeZ\t\x01\xff";
    for (unsigned long it = 0; it < iters; it++) {
        memcpy(buf, body, n);
        size_t len = n;
        unsigned edits = 1 + (unsigned)(test_rand_u64() % 4);
        for (unsigned e = 0; e < edits && len > 1; e++) {
            size_t at = (size_t)(test_rand_u64() % len);
            uint64_t r = test_rand_u64();
            switch (r % 3) {
            case 0: /* replace */
                buf[at] = alphabet[(r >> 8) % (sizeof alphabet - 1)];
                break;
            case 1: /* delete */
                memmove(buf + at, buf + at + 1, len - at - 1);
                len--;
                break;
            default: /* truncate */
                len = at + 1;
                break;
            }
        }
        cuzk_toml_value *root;
        cuzk_status st = cuzk_toml_parse(&root, buf, len, "m");
        CHECK_MSG(st == CUZK_OK || st == CUZK_ERR_FORMAT, "status %s", cuzk_status_name(st));
        if (st == CUZK_OK)
            cuzk_toml_free(root);
        else
            CHECK(root == NULL && !strncmp(cuzk_last_error(), "m:", 2));
        CHECK(cuzk_alloc_live_bytes() == live);
    }
    free(buf);
}

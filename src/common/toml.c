/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The TOML subset of toml.h: a single-pass recursive-descent parser over a byte range (no NUL
 * termination assumed), following the TOML 1.0 grammar for the parts it accepts. */
#include "common/toml.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/file.h"
#include "cuzk/alloc.h"

#define TOML_MAX_FILE (1u << 20)
#define TOML_MAX_DEPTH 32 /* nested arrays; keeps recursion bounded on hostile input */

typedef struct {
    const char *p, *end;
    unsigned line;
    const char *name;
} parser;

static cuzk_status perr(const parser *ps, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static cuzk_status perr(const parser *ps, const char *fmt, ...)
{
    char msg[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cuzk_fail(CUZK_ERR_FORMAT, "%s:%u: %s", ps->name, ps->line, msg);
}

static cuzk_status nomem(void)
{
    return cuzk_fail(CUZK_ERR_NOMEM, "out of memory while parsing TOML");
}

const char *cuzk_toml_type_name(cuzk_toml_type t)
{
    switch (t) {
    case CUZK_TOML_STRING:
        return "string";
    case CUZK_TOML_INT:
        return "integer";
    case CUZK_TOML_BOOL:
        return "boolean";
    case CUZK_TOML_ARRAY:
        return "array";
    case CUZK_TOML_TABLE:
        return "table";
    }
    return "?";
}

/* ---- tree ---------------------------------------------------------------------------------- */

static cuzk_toml_value *value_new(cuzk_toml_type t, unsigned line)
{
    cuzk_toml_value *v = cuzk_alloc(sizeof *v);
    if (v) {
        memset(v, 0, sizeof *v);
        v->type = t;
        v->line = line;
    }
    return v;
}

void cuzk_toml_free(cuzk_toml_value *v)
{
    if (!v)
        return;
    switch (v->type) {
    case CUZK_TOML_STRING:
        cuzk_free(v->u.str);
        break;
    case CUZK_TOML_ARRAY:
        for (size_t i = 0; i < v->u.array.n; i++)
            cuzk_toml_free(v->u.array.items[i]);
        cuzk_free(v->u.array.items);
        break;
    case CUZK_TOML_TABLE:
        for (size_t i = 0; i < v->u.table.n; i++) {
            cuzk_free(v->u.table.entries[i].key);
            cuzk_toml_free(v->u.table.entries[i].value);
        }
        cuzk_free(v->u.table.entries);
        break;
    default:
        break;
    }
    cuzk_free(v);
}

static cuzk_toml_entry *table_find(cuzk_toml_value *t, const char *key)
{
    for (size_t i = 0; i < t->u.table.n; i++)
        if (strcmp(t->u.table.entries[i].key, key) == 0)
            return &t->u.table.entries[i];
    return NULL;
}

const cuzk_toml_value *cuzk_toml_get(const cuzk_toml_value *table, const char *key)
{
    if (!table || table->type != CUZK_TOML_TABLE || !key)
        return NULL;
    cuzk_toml_entry *e = table_find((cuzk_toml_value *)table, key);
    return e ? e->value : NULL;
}

/* Takes ownership of |key| and |v| on success. */
static cuzk_status table_add(cuzk_toml_value *t, char *key, cuzk_toml_value *v)
{
    if (t->u.table.n == t->u.table.cap) {
        size_t cap = t->u.table.cap ? 2 * t->u.table.cap : 8;
        cuzk_toml_entry *e = cuzk_alloc_array(cap, sizeof *e);
        if (!e)
            return nomem();
        if (t->u.table.n)
            memcpy(e, t->u.table.entries, t->u.table.n * sizeof *e);
        cuzk_free(t->u.table.entries);
        t->u.table.entries = e;
        t->u.table.cap = cap;
    }
    t->u.table.entries[t->u.table.n].key = key;
    t->u.table.entries[t->u.table.n].value = v;
    t->u.table.n++;
    return CUZK_OK;
}

static cuzk_status array_push(cuzk_toml_value *a, cuzk_toml_value *v)
{
    if (a->u.array.n == a->u.array.cap) {
        size_t cap = a->u.array.cap ? 2 * a->u.array.cap : 4;
        cuzk_toml_value **items = cuzk_alloc_array(cap, sizeof *items);
        if (!items)
            return nomem();
        if (a->u.array.n)
            memcpy(items, a->u.array.items, a->u.array.n * sizeof *items);
        cuzk_free(a->u.array.items);
        a->u.array.items = items;
        a->u.array.cap = cap;
    }
    a->u.array.items[a->u.array.n++] = v;
    return CUZK_OK;
}

/* ---- growable byte buffer for strings ------------------------------------------------------ */

typedef struct {
    char *s;
    size_t n, cap;
} sbuf;

static bool sbuf_put(sbuf *b, const char *src, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 32;
        while (cap < b->n + n + 1)
            cap *= 2;
        char *s = cuzk_alloc(cap);
        if (!s)
            return false;
        if (b->n)
            memcpy(s, b->s, b->n);
        cuzk_free(b->s);
        b->s = s;
        b->cap = cap;
    }
    memcpy(b->s + b->n, src, n);
    b->n += n;
    b->s[b->n] = '\0';
    return true;
}

/* ---- lexical helpers ----------------------------------------------------------------------- */

static void skip_ws(parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t'))
        ps->p++;
}

static bool at_newline(const parser *ps)
{
    return ps->p < ps->end &&
           (*ps->p == '\n' || (*ps->p == '\r' && ps->p + 1 < ps->end && ps->p[1] == '\n'));
}

static void eat_newline(parser *ps)
{
    ps->p += (*ps->p == '\r') ? 2 : 1;
    ps->line++;
}

/* A comment runs to the end of the line; control characters other than tab are not allowed. */
static cuzk_status skip_comment(parser *ps)
{
    if (ps->p >= ps->end || *ps->p != '#')
        return CUZK_OK;
    while (ps->p < ps->end && *ps->p != '\n') {
        unsigned char c = (unsigned char)*ps->p;
        if ((c < 0x20 && c != '\t' && !(c == '\r' && at_newline(ps))) || c == 0x7f)
            return perr(ps, "control character 0x%02x in a comment", c);
        ps->p++;
    }
    return CUZK_OK;
}

/* After a complete statement: spaces, an optional comment, then a newline or the end. */
static cuzk_status expect_eol(parser *ps)
{
    skip_ws(ps);
    cuzk_status st = skip_comment(ps);
    if (st != CUZK_OK)
        return st;
    if (ps->p >= ps->end)
        return CUZK_OK;
    if (!at_newline(ps)) {
        size_t n = 0;
        while (n < 40 && ps->p + n < ps->end && ps->p[n] != '\n' && ps->p[n] != '\r')
            n++;
        return perr(ps, "unexpected text '%.*s' at the end of the line", (int)n, ps->p);
    }
    eat_newline(ps);
    return CUZK_OK;
}

/* Whitespace, comments and newlines (inside arrays). */
static cuzk_status skip_space_all(parser *ps)
{
    for (;;) {
        skip_ws(ps);
        cuzk_status st = skip_comment(ps);
        if (st != CUZK_OK)
            return st;
        if (!at_newline(ps))
            return CUZK_OK;
        eat_newline(ps);
    }
}

static bool is_bare_key_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-';
}

/* True when the value ends here: whitespace, ',', ']', '#', newline or end. */
static bool at_delim(const parser *ps)
{
    if (ps->p >= ps->end)
        return true;
    char c = *ps->p;
    return c == ' ' || c == '\t' || c == ',' || c == ']' || c == '#' || c == '\n' || c == '\r';
}

/* ---- strings ------------------------------------------------------------------------------- */

static size_t utf8_encode(char out[4], uint32_t cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xc0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xe0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        out[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    out[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

static cuzk_status parse_escape(parser *ps, sbuf *b)
{
    if (ps->p >= ps->end)
        return perr(ps, "unterminated escape sequence");
    char c = *ps->p++;
    const char *simple = NULL;
    switch (c) {
    case 'b':
        simple = "\b";
        break;
    case 't':
        simple = "\t";
        break;
    case 'n':
        simple = "\n";
        break;
    case 'f':
        simple = "\f";
        break;
    case 'r':
        simple = "\r";
        break;
    case '"':
        simple = "\"";
        break;
    case '\\':
        simple = "\\";
        break;
    case 'u':
    case 'U': {
        int digits = c == 'u' ? 4 : 8;
        uint32_t cp = 0;
        for (int i = 0; i < digits; i++) {
            if (ps->p >= ps->end)
                return perr(ps, "truncated \\%c escape", c);
            char h = *ps->p++;
            uint32_t d;
            if (h >= '0' && h <= '9')
                d = (uint32_t)(h - '0');
            else if (h >= 'a' && h <= 'f')
                d = (uint32_t)(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F')
                d = (uint32_t)(h - 'A' + 10);
            else
                return perr(ps, "bad hex digit '%c' in \\%c escape", h, c);
            cp = cp << 4 | d;
        }
        if (cp == 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return perr(ps, "escape \\%c names code point U+%04X, which is not allowed", c,
                        (unsigned)cp);
        char u[4];
        size_t n = utf8_encode(u, cp);
        return sbuf_put(b, u, n) ? CUZK_OK : nomem();
    }
    default:
        return perr(ps, "unknown escape sequence '\\%c'", c);
    }
    return sbuf_put(b, simple, 1) ? CUZK_OK : nomem();
}

/* At the opening quote of a basic ("...") or literal ('...') string. */
static cuzk_status parse_string(parser *ps, char **out)
{
    char q = *ps->p++;
    if (ps->end - ps->p >= 2 && ps->p[0] == q && ps->p[1] == q)
        return perr(ps, "multi-line strings are not supported");
    sbuf b = {0};
    if (!sbuf_put(&b, "", 0))
        return nomem();
    cuzk_status st = CUZK_OK;
    for (;;) {
        if (ps->p >= ps->end || *ps->p == '\n' || *ps->p == '\r') {
            st = perr(ps, "unterminated string");
            break;
        }
        char c = *ps->p;
        if (c == q) {
            ps->p++;
            break;
        }
        unsigned char uc = (unsigned char)c;
        if ((uc < 0x20 && c != '\t') || uc == 0x7f) {
            st = perr(ps, "control character 0x%02x in a string (use an escape)", uc);
            break;
        }
        if (c == '\\' && q == '"') {
            ps->p++;
            st = parse_escape(ps, &b);
            if (st != CUZK_OK)
                break;
            continue;
        }
        if (!sbuf_put(&b, &c, 1)) {
            st = nomem();
            break;
        }
        ps->p++;
    }
    if (st != CUZK_OK) {
        cuzk_free(b.s);
        return st;
    }
    *out = b.s;
    return CUZK_OK;
}

/* A bare or quoted key. */
static cuzk_status parse_key(parser *ps, char **out)
{
    *out = NULL;
    if (ps->p < ps->end && (*ps->p == '"' || *ps->p == '\'')) {
        cuzk_status st = parse_string(ps, out);
        if (st == CUZK_OK && (*out)[0] == '\0') {
            cuzk_free(*out);
            *out = NULL;
            return perr(ps, "empty keys are not allowed");
        }
        return st;
    }
    const char *s = ps->p;
    while (ps->p < ps->end && is_bare_key_char(*ps->p))
        ps->p++;
    size_t n = (size_t)(ps->p - s);
    if (n == 0) {
        if (ps->p >= ps->end || at_newline(ps))
            return perr(ps, "expected a key");
        return perr(ps, "expected a key, found '%c'", *ps->p);
    }
    char *k = cuzk_alloc(n + 1);
    if (!k)
        return nomem();
    memcpy(k, s, n);
    k[n] = '\0';
    *out = k;
    return CUZK_OK;
}

/* ---- scalars ------------------------------------------------------------------------------- */

static cuzk_status parse_integer(parser *ps, int64_t *out)
{
    bool neg = false, had_sign = false;
    if (*ps->p == '+' || *ps->p == '-') {
        neg = *ps->p == '-';
        had_sign = true;
        ps->p++;
    }
    if (ps->end - ps->p >= 3 && (memcmp(ps->p, "inf", 3) == 0 || memcmp(ps->p, "nan", 3) == 0))
        return perr(ps, "floating-point values are not supported");
    unsigned base = 10;
    if (ps->end - ps->p >= 2 && ps->p[0] == '0' &&
        (ps->p[1] == 'x' || ps->p[1] == 'o' || ps->p[1] == 'b')) {
        if (had_sign)
            return perr(ps, "a sign is not allowed on hexadecimal, octal or binary integers");
        base = ps->p[1] == 'x' ? 16 : ps->p[1] == 'o' ? 8 : 2;
        ps->p += 2;
    }
    const char *start = ps->p;
    uint64_t v = 0;
    uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    bool prev_digit = false;
    size_t ndigits = 0;
    while (ps->p < ps->end) {
        char c = *ps->p;
        unsigned d;
        if (c == '_') {
            if (!prev_digit || ps->p + 1 >= ps->end)
                return perr(ps, "'_' in an integer must sit between digits");
            prev_digit = false;
            ps->p++;
            continue;
        }
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (base == 16 && c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (base == 16 && c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else
            break;
        if (d >= base)
            return perr(ps, "digit '%c' is not valid in base %u", c, base);
        if (v > (limit - d) / base)
            return perr(ps, "integer out of range (64-bit signed)");
        v = v * base + d;
        prev_digit = true;
        ndigits++;
        ps->p++;
    }
    if (ndigits == 0)
        return perr(ps, "expected a value");
    if (!prev_digit)
        return perr(ps, "'_' in an integer must sit between digits");
    if (base == 10 && start[0] == '0' && ndigits > 1)
        return perr(ps, "leading zeros are not allowed in integers");
    if (ps->p < ps->end && (*ps->p == '.' || *ps->p == 'e' || *ps->p == 'E'))
        return perr(ps, "floating-point values are not supported");
    if (ps->p < ps->end && (*ps->p == '-' || *ps->p == ':'))
        return perr(ps, "dates and times are not supported");
    if (!at_delim(ps))
        return perr(ps, "invalid character '%c' after an integer", *ps->p);
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return CUZK_OK;
}

static cuzk_status parse_value(parser *ps, cuzk_toml_value **out, int depth);

static cuzk_status parse_array(parser *ps, cuzk_toml_value *arr, int depth)
{
    ps->p++; /* '[' */
    for (;;) {
        cuzk_status st = skip_space_all(ps);
        if (st != CUZK_OK)
            return st;
        if (ps->p >= ps->end)
            return perr(ps, "unterminated array");
        if (*ps->p == ']') {
            ps->p++;
            return CUZK_OK;
        }
        cuzk_toml_value *item = NULL;
        st = parse_value(ps, &item, depth + 1);
        if (st == CUZK_OK && (st = array_push(arr, item)) != CUZK_OK)
            cuzk_toml_free(item);
        if (st != CUZK_OK)
            return st;
        if ((st = skip_space_all(ps)) != CUZK_OK)
            return st;
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == ']') {
            ps->p++;
            return CUZK_OK;
        }
        return perr(ps, "expected ',' or ']' in an array");
    }
}

static cuzk_status parse_value(parser *ps, cuzk_toml_value **out, int depth)
{
    *out = NULL;
    if (depth > TOML_MAX_DEPTH)
        return perr(ps, "arrays nested deeper than %d levels", TOML_MAX_DEPTH);
    if (ps->p >= ps->end || at_newline(ps))
        return perr(ps, "expected a value");
    char c = *ps->p;
    cuzk_status st;
    cuzk_toml_value *v;
    if (c == '"' || c == '\'') {
        if (!(v = value_new(CUZK_TOML_STRING, ps->line)))
            return nomem();
        if ((st = parse_string(ps, &v->u.str)) != CUZK_OK) {
            cuzk_free(v);
            return st;
        }
    } else if (c == '[') {
        if (!(v = value_new(CUZK_TOML_ARRAY, ps->line)))
            return nomem();
        if ((st = parse_array(ps, v, depth)) != CUZK_OK) {
            cuzk_toml_free(v);
            return st;
        }
    } else if (c == '{') {
        return perr(ps, "inline tables are not supported (use a [table] header)");
    } else if (c == 't' || c == 'f') {
        bool t = c == 't';
        const char *word = t ? "true" : "false";
        size_t n = strlen(word);
        if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
            return perr(ps, "expected a value (strings need quotes)");
        ps->p += n;
        if (!at_delim(ps))
            return perr(ps, "expected a value (strings need quotes)");
        if (!(v = value_new(CUZK_TOML_BOOL, ps->line)))
            return nomem();
        v->u.b = t;
    } else if ((c >= '0' && c <= '9') || c == '+' || c == '-') {
        int64_t i = 0;
        unsigned line = ps->line;
        if ((st = parse_integer(ps, &i)) != CUZK_OK)
            return st;
        if (!(v = value_new(CUZK_TOML_INT, line)))
            return nomem();
        v->u.i = i;
    } else if (c == 'i' || c == 'n') {
        return perr(ps, "floating-point values are not supported");
    } else {
        return perr(ps, "expected a value, found '%c' (strings need quotes)", c);
    }
    *out = v;
    return CUZK_OK;
}

/* ---- statements ---------------------------------------------------------------------------- */

/* `[a.b]` or `[[a.b]]`: makes the named table current. */
static cuzk_status parse_header(parser *ps, cuzk_toml_value *root, cuzk_toml_value **current)
{
    bool is_array = ps->end - ps->p >= 2 && ps->p[1] == '[';
    ps->p += is_array ? 2 : 1;
    cuzk_toml_value *cur = root;
    cuzk_status st;
    for (;;) {
        skip_ws(ps);
        char *key;
        if ((st = parse_key(ps, &key)) != CUZK_OK)
            return st;
        skip_ws(ps);
        bool last = !(ps->p < ps->end && *ps->p == '.');
        cuzk_toml_entry *e = table_find(cur, key);
        if (!last) {
            ps->p++; /* '.' */
            if (!e) {
                cuzk_toml_value *t = value_new(CUZK_TOML_TABLE, ps->line);
                if (!t || (st = table_add(cur, key, t)) != CUZK_OK) {
                    cuzk_free(key);
                    cuzk_free(t);
                    return t ? st : nomem();
                }
                cur = t;
                continue;
            }
            cuzk_free(key);
            if (e->value->type == CUZK_TOML_TABLE) {
                cur = e->value;
            } else if (e->value->type == CUZK_TOML_ARRAY && e->value->table_array) {
                cur = e->value->u.array.items[e->value->u.array.n - 1];
            } else {
                return perr(ps, "'%s' is already defined as a %s (line %u), not a table", e->key,
                            cuzk_toml_type_name(e->value->type), e->value->line);
            }
            continue;
        }
        /* The last key of the header. */
        const char *close = is_array ? "]]" : "]";
        size_t nclose = strlen(close);
        if ((size_t)(ps->end - ps->p) < nclose || memcmp(ps->p, close, nclose) != 0) {
            cuzk_free(key);
            return perr(ps, "expected '%s' to close the table header", close);
        }
        ps->p += nclose;
        cuzk_toml_value *t = value_new(CUZK_TOML_TABLE, ps->line);
        if (!t) {
            cuzk_free(key);
            return nomem();
        }
        t->header_defined = true;
        if (is_array) {
            cuzk_toml_value *arr;
            if (!e) {
                arr = value_new(CUZK_TOML_ARRAY, ps->line);
                if (!arr || (st = table_add(cur, key, arr)) != CUZK_OK) {
                    cuzk_free(key);
                    cuzk_free(arr);
                    cuzk_free(t);
                    return arr ? st : nomem();
                }
                arr->table_array = true;
            } else {
                arr = e->value;
                if (arr->type != CUZK_TOML_ARRAY || !arr->table_array) {
                    cuzk_free(t);
                    st = perr(ps, "'%s' is already defined as a %s (line %u), not an array of "
                                  "tables", key, cuzk_toml_type_name(arr->type), arr->line);
                    cuzk_free(key);
                    return st;
                }
                cuzk_free(key);
            }
            if ((st = array_push(arr, t)) != CUZK_OK) {
                cuzk_free(t);
                return st;
            }
        } else if (!e) {
            if ((st = table_add(cur, key, t)) != CUZK_OK) {
                cuzk_free(key);
                cuzk_free(t);
                return st;
            }
        } else {
            cuzk_free(t);
            t = e->value;
            if (t->type != CUZK_TOML_TABLE) {
                st = perr(ps, "'%s' is already defined as a %s (line %u), not a table", key,
                          cuzk_toml_type_name(t->type), t->line);
                cuzk_free(key);
                return st;
            }
            if (t->header_defined) {
                st = perr(ps, "table [%s] is defined twice (first at line %u)", key, t->line);
                cuzk_free(key);
                return st;
            }
            cuzk_free(key);
            t->header_defined = true;
            t->line = ps->line;
        }
        *current = t;
        return expect_eol(ps);
    }
}

static cuzk_status parse_keyval(parser *ps, cuzk_toml_value *table)
{
    char *key;
    cuzk_status st = parse_key(ps, &key);
    if (st != CUZK_OK)
        return st;
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == '.') {
        st = perr(ps, "dotted keys (%s.<name> = ...) are not supported; use a [%s] header", key,
                  key);
        cuzk_free(key);
        return st;
    }
    if (ps->p >= ps->end || *ps->p != '=') {
        st = perr(ps, "expected '=' after key '%s'", key);
        cuzk_free(key);
        return st;
    }
    ps->p++;
    skip_ws(ps);
    cuzk_toml_entry *e = table_find(table, key);
    if (e) {
        st = perr(ps, "key '%s' is defined twice (first at line %u)", key, e->value->line);
        cuzk_free(key);
        return st;
    }
    cuzk_toml_value *v;
    if ((st = parse_value(ps, &v, 0)) != CUZK_OK) {
        cuzk_free(key);
        return st;
    }
    if ((st = table_add(table, key, v)) != CUZK_OK) {
        cuzk_free(key);
        cuzk_toml_free(v);
        return st;
    }
    return expect_eol(ps);
}

cuzk_status cuzk_toml_parse(cuzk_toml_value **out, const char *text, size_t len, const char *name)
{
    if (!out)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_toml_parse: NULL output");
    *out = NULL;
    if (!text && len)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_toml_parse: NULL text");
    parser ps = {text, text + len, 1, name ? name : "<toml>"};
    if (len && memchr(text, '\0', len))
        return cuzk_fail(CUZK_ERR_FORMAT, "%s: contains a NUL byte (not a text file?)", ps.name);
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
        ps.p += 3;
    cuzk_toml_value *root = value_new(CUZK_TOML_TABLE, 0);
    if (!root)
        return nomem();
    cuzk_toml_value *cur = root;
    cuzk_status st = CUZK_OK;
    while (st == CUZK_OK && ps.p < ps.end) {
        skip_ws(&ps);
        if (ps.p >= ps.end)
            break;
        if (*ps.p == '#' || at_newline(&ps))
            st = expect_eol(&ps);
        else if (*ps.p == '[')
            st = parse_header(&ps, root, &cur);
        else
            st = parse_keyval(&ps, cur);
    }
    if (st != CUZK_OK) {
        cuzk_toml_free(root);
        return st;
    }
    *out = root;
    return CUZK_OK;
}

cuzk_status cuzk_toml_parse_file(cuzk_toml_value **out, const char *path)
{
    if (!out || !path)
        return cuzk_fail(CUZK_ERR_INVALID_ARG, "cuzk_toml_parse_file: NULL argument");
    *out = NULL;
    uint8_t *buf;
    size_t len;
    cuzk_status st = cuzk_read_file(path, &buf, &len, TOML_MAX_FILE);
    if (st != CUZK_OK)
        return st;
    st = cuzk_toml_parse(out, (const char *)buf, len, path);
    cuzk_free(buf);
    return st;
}

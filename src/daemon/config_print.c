/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The effective configuration as TOML (--print-config, --check-config) and --help-config. */
#include <stdio.h>
#include <string.h>

#include "cuzk/r1cs.h"
#include "daemon/config.h"
#include "daemon/config_keys.h"

static const void *cfield(const cuzk_daemon_config *c, const key_def *k)
{
    return (const char *)c + k->off;
}

/* ---- printing ------------------------------------------------------------------------------ */

static void print_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20 || ch == 0x7f)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

static void print_size(FILE *f, uint64_t v)
{
    static const char *const u[] = {"TiB", "GiB", "MiB", "KiB"};
    for (int i = 0; i < 4; i++) {
        uint64_t m = 1ull << (10 * (4 - i));
        if (v && v % m == 0) {
            fprintf(f, "\"%llu%s\"", (unsigned long long)(v / m), u[i]);
            return;
        }
    }
    fprintf(f, "%llu", (unsigned long long)v);
}

static void print_duration(FILE *f, uint64_t ms)
{
    if (ms && ms % (3600 * 1000) == 0)
        fprintf(f, "\"%lluh\"", (unsigned long long)(ms / (3600 * 1000)));
    else if (ms && ms % 60000 == 0)
        fprintf(f, "\"%llum\"", (unsigned long long)(ms / 60000));
    else if (ms % 1000 == 0)
        fprintf(f, "\"%llus\"", (unsigned long long)(ms / 1000));
    else
        fprintf(f, "\"%llums\"", (unsigned long long)ms);
}

static void print_value(FILE *f, const cuzk_daemon_config *c, const key_def *k)
{
    const void *p = cfield(c, k);
    switch (k->type) {
    case K_STRING: {
        const char *s = *(char *const *)p;
        print_string(f, s ? s : "");
        break;
    }
    case K_STRINGS: {
        const cuzk_strlist *l = p;
        fputc('[', f);
        for (size_t i = 0; i < l->n; i++) {
            if (i)
                fputs(", ", f);
            print_string(f, l->v[i]);
        }
        fputc(']', f);
        break;
    }
    case K_INTS: {
        const cuzk_intlist *l = p;
        fputc('[', f);
        for (size_t i = 0; i < l->n; i++)
            fprintf(f, "%s%d", i ? ", " : "", l->v[i]);
        fputc(']', f);
        break;
    }
    case K_UINT:
        fprintf(f, "%llu", (unsigned long long)*(const uint64_t *)p);
        break;
    case K_BOOL:
        fputs(*(const bool *)p ? "true" : "false", f);
        break;
    case K_SIZE: {
        uint64_t v = *(const uint64_t *)p;
        if (v == 0 && (k->flags & F_AUTO))
            fputs("\"auto\"", f);
        else
            print_size(f, v);
        break;
    }
    case K_DURATION:
        print_duration(f, *(const uint64_t *)p);
        break;
    case K_ENUM:
        fprintf(f, "\"%s\"", k->choices[*(const int *)p]);
        break;
    case K_IGNORED:
        break;
    }
}

void cuzk__config_print(const cuzk_daemon_config *c, FILE *f)
{
    fprintf(f, "# effective cuzk configuration (%s)\n",
            c->file ? c->file : "no config file: built-in defaults");
    for (size_t s = 0; cuzk__config_sections[s]; s++) {
        bool header = false;
        for (size_t i = 0; i < cuzk__config_n_keys; i++) {
            const key_def *k = &cuzk__config_keys[i];
            size_t sl = strlen(cuzk__config_sections[s]);
            if (strncmp(k->name, cuzk__config_sections[s], sl) != 0 || k->name[sl] != '.')
                continue;
            if (k->type == K_IGNORED || (k->flags & F_ALIAS))
                continue;
            if (!header) {
                fprintf(f, "\n[%s]\n", cuzk__config_sections[s]);
                header = true;
            }
            fprintf(f, "%s = ", k->name + sl + 1);
            print_value(f, c, k);
            /* Where the value came from, when not the default. */
            for (size_t j = 0; j < cuzk__config_n_keys; j++) {
                if (cuzk__config_canonical(j) != i)
                    continue;
                if (c->set_cli[j])
                    fprintf(f, "  # command line");
                else if (c->set_line[j])
                    fprintf(f, "  # %s:%u%s%s", c->file ? c->file : "?", c->set_line[j],
                            j != i ? " as " : "", j != i ? cuzk__config_keys[j].name : "");
            }
            fputc('\n', f);
        }
    }
    for (size_t i = 0; i < c->n_circuits; i++) {
        const cuzk_daemon_circuit *ci = &c->circuits[i];
        fprintf(f, "\n[[circuits]]\nid = ");
        print_string(f, ci->id);
        if (ci->spec) {
            fprintf(f, "\nbuiltin = ");
            print_string(f, ci->spec);
        }
        if (ci->params) {
            fprintf(f, "\nparams = ");
            print_string(f, ci->params);
        }
        if (ci->zkey) {
            fprintf(f, "\nzkey = ");
            print_string(f, ci->zkey);
        }
        fputc('\n', f);
    }
    if (c->n_circuits == 0)
        fprintf(f, "\n# no [[circuits]]: the built-in demo circuit is served "
                   "(id \"demo\" = builtin \"sha256-chain:1\")\n");
}

/* |text| in lines of at most |width| columns, each indented by |indent|. */
static void print_wrapped(FILE *f, const char *text, int indent, int width)
{
    const char *p = text;
    while (*p) {
        int room = width - indent;
        int n = (int)strlen(p);
        if (n > room) {
            n = room;
            while (n > 0 && p[n] != ' ')
                n--;
            if (n == 0)
                n = room;
        }
        fprintf(f, "%*s%.*s\n", indent, "", n, p);
        p += n;
        while (*p == ' ')
            p++;
    }
}

static const char *type_name(const key_def *k)
{
    switch (k->type) {
    case K_STRING:
        return "string";
    case K_STRINGS:
        return "string or [strings]";
    case K_UINT:
        return "integer";
    case K_BOOL:
        return "boolean";
    case K_SIZE:
        return (k->flags & F_AUTO) ? "\"auto\" or size" : "size";
    case K_DURATION:
        return "duration";
    case K_ENUM:
        return "string";
    case K_INTS:
        return "[integers]";
    case K_IGNORED:
        return "any";
    }
    return "?";
}

void cuzk__config_help(FILE *f)
{
    fprintf(f, "cuzk configuration keys (TOML; sizes: 4096, \"512MiB\", \"5GiB\", \"64GB\"; "
               "durations: seconds, \"250ms\", \"30s\", \"5m\", \"1h\")\n\n");
    for (size_t i = 0; i < cuzk__config_n_keys; i++) {
        const key_def *k = &cuzk__config_keys[i];
        const char *compat = (k->type == K_IGNORED)  ? "Curio key, ignored"
                             : (k->flags & F_DIFFERS) ? "Curio key, different meaning"
                             : (k->flags & F_CURIO)   ? "Curio key"
                                                      : "cuzk";
        const char *empty = k->type == K_INTS ? "[]" : "\"\"";
        const char *def = k->def ? (!k->def[0] ? empty : k->def)
                                 : (k->type == K_IGNORED ? "-" : "(computed)");
        fprintf(f, "%-32s %-20s default %-12s [%s]\n", k->name, type_name(k), def, compat);
        print_wrapped(f, k->help, 4, 96);
    }
    fprintf(f, "\n[[circuits]]  (repeatable)\n"
               "    id = \"name\"               the circuit id clients send as circuit_id\n"
               "    builtin = \"sha256-chain:4\" a built-in circuit, with\n"
               "    params = \"/path/x.params\"  bellperson parameters (default "
               "<srs.param_cache>/<id>.params,\n"
               "                                generated as test parameters on first use)\n"
               "    zkey = \"/path/x.zkey\"      or a snarkjs circuit (witnesses arrive as .wtns)\n"
               "\nbuilt-in circuits (builtin = \"NAME\" or \"NAME:ARG\"):\n");
    for (size_t i = 0; cuzk_circuit_registry_name(i); i++) {
        fprintf(f, "  %-20s\n", cuzk_circuit_registry_name(i));
        print_wrapped(f, cuzk_circuit_registry_description(i), 4, 96);
    }
}


/*
 * jsonq.c - test helper: a strict JSON Lines validator with a tiny query
 * language, so the CLI tests need no Python package, jq or json-glib.
 *
 *   csc-jsonq [-f KEY=VALUE]... [-p PATH]... [-c] < lines.jsonl
 *
 * Every input line must be exactly one JSON value (RFC 8259: strict
 * numbers, escapes, valid UTF-8, no control characters in strings) and no
 * object may repeat a key; otherwise it exits 1 naming the line. -f keeps
 * the lines whose top-level KEY equals VALUE (a string, or the JSON text
 * of another value); each -p prints the value at PATH for the kept lines,
 * tab-separated, one line per input line: PATH is dot-separated keys and
 * array indexes, "#" gives the number of members; a string prints decoded,
 * anything else as compact JSON, a missing value as <missing>. -c prints
 * the number of kept lines.
 */
#include <glib.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum jt { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jv {
    enum jt t;
    char *s;            /* J_STR decoded; J_NUM text; J_BOOL "true"/"false" */
    GPtrArray *items;   /* J_ARR values; J_OBJ values */
    GPtrArray *keys;    /* J_OBJ keys (char *) */
};

struct parser {
    const char *p, *end;
    const char *err;
};

static void jv_free(struct jv *v)
{
    if (!v)
        return;
    g_free(v->s);
    if (v->items) {
        for (unsigned i = 0; i < v->items->len; i++)
            jv_free(v->items->pdata[i]);
        g_ptr_array_free(v->items, TRUE);
    }
    if (v->keys)
        g_ptr_array_free(v->keys, TRUE);
    g_free(v);
}

static void ws(struct parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\r' || *ps->p == '\n'))
        ps->p++;
}

static struct jv *value(struct parser *ps, int depth);

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static bool hex4(struct parser *ps, unsigned *out)
{
    unsigned v = 0;
    if (ps->end - ps->p < 4)
        return false;
    for (int i = 0; i < 4; i++) {
        int h = hexval(ps->p[i]);
        if (h < 0)
            return false;
        v = v << 4 | (unsigned)h;
    }
    ps->p += 4;
    *out = v;
    return true;
}

static char *string(struct parser *ps)
{
    GString *g = g_string_new(NULL);
    ps->p++;   /* opening quote */
    while (ps->p < ps->end) {
        unsigned char c = (unsigned char)*ps->p;
        if (c == '"') {
            ps->p++;
            if (!g_utf8_validate(g->str, (gssize)g->len, NULL)) {
                ps->err = "string is not valid UTF-8";
                break;
            }
            return g_string_free(g, FALSE);
        }
        if (c < 0x20) {
            ps->err = "control character in a string";
            break;
        }
        if (c != '\\') {
            g_string_append_c(g, (char)c);
            ps->p++;
            continue;
        }
        ps->p++;
        if (ps->p >= ps->end) {
            ps->err = "unterminated escape";
            break;
        }
        char e = *ps->p++;
        unsigned u;
        switch (e) {
        case '"': g_string_append_c(g, '"'); break;
        case '\\': g_string_append_c(g, '\\'); break;
        case '/': g_string_append_c(g, '/'); break;
        case 'b': g_string_append_c(g, '\b'); break;
        case 'f': g_string_append_c(g, '\f'); break;
        case 'n': g_string_append_c(g, '\n'); break;
        case 'r': g_string_append_c(g, '\r'); break;
        case 't': g_string_append_c(g, '\t'); break;
        case 'u':
            if (!hex4(ps, &u)) {
                ps->err = "bad \\u escape";
                goto fail;
            }
            if (u >= 0xd800 && u <= 0xdbff) {
                unsigned lo;
                if (ps->end - ps->p < 2 || ps->p[0] != '\\' || ps->p[1] != 'u') {
                    ps->err = "lone high surrogate";
                    goto fail;
                }
                ps->p += 2;
                if (!hex4(ps, &lo) || lo < 0xdc00 || lo > 0xdfff) {
                    ps->err = "bad low surrogate";
                    goto fail;
                }
                u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
            } else if (u >= 0xdc00 && u <= 0xdfff) {
                ps->err = "lone low surrogate";
                goto fail;
            }
            g_string_append_unichar(g, u);
            break;
        default:
            ps->err = "unknown escape";
            goto fail;
        }
    }
    if (!ps->err)
        ps->err = "unterminated string";
fail:
    g_string_free(g, TRUE);
    return NULL;
}

static struct jv *number(struct parser *ps)
{
    const char *s = ps->p;
    if (ps->p < ps->end && *ps->p == '-')
        ps->p++;
    if (ps->p >= ps->end || !g_ascii_isdigit(*ps->p))
        goto bad;
    if (*ps->p == '0')
        ps->p++;
    else
        while (ps->p < ps->end && g_ascii_isdigit(*ps->p))
            ps->p++;
    if (ps->p < ps->end && *ps->p == '.') {
        ps->p++;
        if (ps->p >= ps->end || !g_ascii_isdigit(*ps->p))
            goto bad;
        while (ps->p < ps->end && g_ascii_isdigit(*ps->p))
            ps->p++;
    }
    if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
        ps->p++;
        if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
            ps->p++;
        if (ps->p >= ps->end || !g_ascii_isdigit(*ps->p))
            goto bad;
        while (ps->p < ps->end && g_ascii_isdigit(*ps->p))
            ps->p++;
    }
    struct jv *v = g_new0(struct jv, 1);
    v->t = J_NUM;
    v->s = g_strndup(s, (gsize)(ps->p - s));
    return v;
bad:
    ps->err = "bad number";
    return NULL;
}

static bool lit(struct parser *ps, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, w, n))
        return false;
    ps->p += n;
    return true;
}

static struct jv *value(struct parser *ps, int depth)
{
    struct jv *v;
    if (depth > 64) {
        ps->err = "nested too deep";
        return NULL;
    }
    ws(ps);
    if (ps->p >= ps->end) {
        ps->err = "value expected";
        return NULL;
    }
    switch (*ps->p) {
    case '"': {
        char *s = string(ps);
        if (!s)
            return NULL;
        v = g_new0(struct jv, 1);
        v->t = J_STR;
        v->s = s;
        return v;
    }
    case '[':
        ps->p++;
        v = g_new0(struct jv, 1);
        v->t = J_ARR;
        v->items = g_ptr_array_new();
        ws(ps);
        if (ps->p < ps->end && *ps->p == ']') {
            ps->p++;
            return v;
        }
        for (;;) {
            struct jv *it = value(ps, depth + 1);
            if (!it)
                goto fail;
            g_ptr_array_add(v->items, it);
            ws(ps);
            if (ps->p < ps->end && *ps->p == ',') {
                ps->p++;
                continue;
            }
            if (ps->p < ps->end && *ps->p == ']') {
                ps->p++;
                return v;
            }
            ps->err = "',' or ']' expected";
            goto fail;
        }
    case '{':
        ps->p++;
        v = g_new0(struct jv, 1);
        v->t = J_OBJ;
        v->items = g_ptr_array_new();
        v->keys = g_ptr_array_new_with_free_func(g_free);
        ws(ps);
        if (ps->p < ps->end && *ps->p == '}') {
            ps->p++;
            return v;
        }
        for (;;) {
            ws(ps);
            if (ps->p >= ps->end || *ps->p != '"') {
                ps->err = "object key expected";
                goto fail;
            }
            char *k = string(ps);
            if (!k)
                goto fail;
            for (unsigned i = 0; i < v->keys->len; i++)
                if (!strcmp(v->keys->pdata[i], k)) {
                    g_free(k);
                    ps->err = "duplicate object key";
                    goto fail;
                }
            g_ptr_array_add(v->keys, k);
            ws(ps);
            if (ps->p >= ps->end || *ps->p != ':') {
                ps->err = "':' expected";
                goto fail;
            }
            ps->p++;
            struct jv *it = value(ps, depth + 1);
            if (!it)
                goto fail;
            g_ptr_array_add(v->items, it);
            ws(ps);
            if (ps->p < ps->end && *ps->p == ',') {
                ps->p++;
                continue;
            }
            if (ps->p < ps->end && *ps->p == '}') {
                ps->p++;
                return v;
            }
            ps->err = "',' or '}' expected";
            goto fail;
        }
    case 't':
    case 'f':
    case 'n':
        if (lit(ps, "true") || lit(ps, "false")) {
            v = g_new0(struct jv, 1);
            v->t = J_BOOL;
            v->s = g_strdup(ps->p[-2] == 'u' ? "true" : "false");   /* tr"u"e, fal"s"e */
            return v;
        }
        if (lit(ps, "null")) {
            v = g_new0(struct jv, 1);
            v->t = J_NULL;
            return v;
        }
        ps->err = "bad literal";
        return NULL;
    default:
        return number(ps);
    }
fail:
    jv_free(v);
    return NULL;
}

static void dump(GString *g, const struct jv *v, bool raw_str)
{
    switch (v->t) {
    case J_NULL: g_string_append(g, "null"); break;
    case J_BOOL:
    case J_NUM: g_string_append(g, v->s); break;
    case J_STR:
        if (raw_str) {
            g_string_append(g, v->s);
        } else {
            g_string_append_c(g, '"');
            for (const char *s = v->s; *s; s++) {
                if (*s == '"' || *s == '\\')
                    g_string_append_c(g, '\\');
                if ((unsigned char)*s < 0x20)
                    g_string_append_printf(g, "\\u%04x", (unsigned char)*s);
                else
                    g_string_append_c(g, *s);
            }
            g_string_append_c(g, '"');
        }
        break;
    case J_ARR:
    case J_OBJ:
        g_string_append_c(g, v->t == J_ARR ? '[' : '{');
        for (unsigned i = 0; i < v->items->len; i++) {
            if (i)
                g_string_append_c(g, ',');
            if (v->t == J_OBJ) {
                struct jv k = { J_STR, v->keys->pdata[i], NULL, NULL };
                dump(g, &k, false);
                g_string_append_c(g, ':');
            }
            dump(g, v->items->pdata[i], false);
        }
        g_string_append_c(g, v->t == J_ARR ? ']' : '}');
        break;
    }
}

static const struct jv *member(const struct jv *v, const char *k)
{
    if (!v)
        return NULL;
    if (v->t == J_OBJ) {
        for (unsigned i = 0; i < v->keys->len; i++)
            if (!strcmp(v->keys->pdata[i], k))
                return v->items->pdata[i];
        return NULL;
    }
    if (v->t == J_ARR) {
        char *end;
        unsigned long i = strtoul(k, &end, 10);
        if (*k && !*end && i < v->items->len)
            return v->items->pdata[i];
    }
    return NULL;
}

static void query(GString *out, const struct jv *root, const char *path)
{
    gchar **parts = g_strsplit(path, ".", -1);
    const struct jv *v = root;
    for (gchar **p = parts; *p && v; p++) {
        if (!strcmp(*p, "#") && !p[1] && (v->t == J_ARR || v->t == J_OBJ)) {
            g_string_append_printf(out, "%u", v->items->len);
            g_strfreev(parts);
            return;
        }
        v = member(v, *p);
    }
    g_strfreev(parts);
    if (v)
        dump(out, v, true);
    else
        g_string_append(out, "<missing>");
}

int main(int argc, char **argv)
{
    gchar **filters = NULL, **paths = NULL;
    gboolean count = FALSE;
    GOptionEntry entries[] = {
        { "filter", 'f', 0, G_OPTION_ARG_STRING_ARRAY, &filters, "Keep lines with KEY=VALUE", "KEY=VALUE" },
        { "path", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &paths, "Print the value at PATH", "PATH" },
        { "count", 'c', 0, G_OPTION_ARG_NONE, &count, "Print the number of kept lines", NULL },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    GOptionContext *ctx = g_option_context_new("< JSON-LINES");
    g_option_context_add_main_entries(ctx, entries, NULL);
    GError *err = NULL;
    if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
        fprintf(stderr, "csc-jsonq: %s\n", err->message);
        return 2;
    }
    g_option_context_free(ctx);

    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    unsigned long lineno = 0, kept = 0;
    int rc = 0;
    while ((n = getline(&line, &cap, stdin)) >= 0) {
        lineno++;
        if (n > 0 && line[n - 1] == '\n')
            n--;
        struct parser ps = { line, line + n, NULL };
        if (memchr(line, 0, (size_t)n)) {
            fprintf(stderr, "csc-jsonq: line %lu: NUL byte\n", lineno);
            rc = 1;
            break;
        }
        struct jv *v = value(&ps, 0);
        if (v) {
            ws(&ps);
            if (ps.p != ps.end) {
                ps.err = "trailing characters after the value";
                jv_free(v);
                v = NULL;
            }
        }
        if (!v) {
            fprintf(stderr, "csc-jsonq: line %lu: invalid JSON: %s at column %ld\n", lineno,
                    ps.err ? ps.err : "?", (long)(ps.p - line) + 1);
            rc = 1;
            break;
        }
        bool keep = true;
        for (gchar **f = filters; f && *f && keep; f++) {
            const char *eq = strchr(*f, '=');
            if (!eq) {
                fprintf(stderr, "csc-jsonq: -f needs KEY=VALUE\n");
                return 2;
            }
            gchar *k = g_strndup(*f, (gsize)(eq - *f));
            const struct jv *m = member(v, k);
            g_free(k);
            if (!m) {
                keep = false;
            } else {
                GString *g = g_string_new(NULL);
                dump(g, m, true);
                keep = !strcmp(g->str, eq + 1);
                g_string_free(g, TRUE);
            }
        }
        if (keep) {
            kept++;
            if (paths) {
                GString *g = g_string_new(NULL);
                for (gchar **p = paths; *p; p++) {
                    if (p != paths)
                        g_string_append_c(g, '\t');
                    query(g, v, *p);
                }
                puts(g->str);
                g_string_free(g, TRUE);
            }
        }
        jv_free(v);
    }
    free(line);
    if (count)
        printf("%lu\n", kept);
    g_strfreev(filters);
    g_strfreev(paths);
    return rc;
}

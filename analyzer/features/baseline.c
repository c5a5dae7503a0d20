/*
 * baseline.c - csumcheck --baseline PREVIOUS.json: each frame's outcome
 * compared with the one a previous run wrote (baseline.h).
 *
 * An outcome is said in words, built the same way from a csc_result (this
 * run) and from a packet record (the previous run): the worst verdict,
 * every checksummed layer's verdict (and reason), the replay's verdict (and
 * drop reason) and the counters the frame bumps. Two runs agree on a frame
 * when the words are equal; a difference is reported with both. The
 * previous run is read with the bounds of jsonline.h and every member
 * checked for its type, as --merge reads a summary.
 */
#include "baseline.h"

#include "jsonline.h"
#include "out.h"

#include <glib.h>
#include <json-glib/json-glib.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define BASELINE_MAX_LINE (16u << 20)
#define BASELINE_MAX_KEYS 1000000u

struct bframe {
    uint64_t frame;
    char *was;
    bool seen;
};

struct baseline {
    GHashTable *files;         /* file name -> GArray of struct bframe, by frame */
};

/* ---- the outcome in words ---------------------------------------------------------- */

static void layer_words(struct wbuf *w, bool *first, const char *proto, uint64_t off,
                        const char *verdict, const char *reason)
{
    wb_puts(w, *first ? "; " : ", ");
    *first = false;
    wb_printf(w, "%s@%ju %s", proto, (uintmax_t)off, verdict);
    if (reason)
        wb_printf(w, " (%s)", reason);
}

static void kernel_words(struct wbuf *w, bool ran, const char *verdict, const char *drop)
{
    wb_puts(w, "; kernel ");
    wb_puts(w, ran || !strcmp(verdict, "sent") ? verdict : "not run");   /* sent: not replayed */
    if (ran && drop)
        wb_printf(w, " %s", drop);
    wb_puts(w, "; counters");
}

void baseline_outcome(struct wbuf *w, const struct csc_result *r)
{
    const struct csc_kernel *k = &r->kernel;
    bool first = true;
    wb_printf(w, "worst %s", csc_verdict_name(r->worst));
    for (unsigned i = 0; i < out_nlayers(r); i++) {
        const struct csc_layer *l = &r->layers[i];
        if (out_has_csum(l))
            layer_words(w, &first, csc_proto_name(l->proto), l->off, csc_verdict_name(l->verdict),
                        l->reason ? csc_reason_name(l->reason) : NULL);
    }
    kernel_words(w, k->ran, csc_kverdict_name(k->verdict),
                 k->ran && k->verdict == CSC_K_DROP ? csc_drop_name(k->drop_reason) : NULL);
    for (uint32_t b = k->ran ? k->counters : 0; b; b &= b - 1) {
        wb_putc(w, ' ');
        wb_puts(w, csc_counter_name((unsigned)__builtin_ctz(b)));
    }
}

/* ---- a packet record read back --------------------------------------------------- */

static const char *str_member(JsonObject *o, const char *k)
{
    JsonNode *n = o ? json_object_get_member(o, k) : NULL;
    return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING
               ? json_node_get_string(n)
               : NULL;
}

static JsonObject *obj_member(JsonObject *o, const char *k)
{
    JsonNode *n = o ? json_object_get_member(o, k) : NULL;
    return n && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

static JsonArray *arr_member(JsonObject *o, const char *k)
{
    JsonNode *n = o ? json_object_get_member(o, k) : NULL;
    return n && JSON_NODE_HOLDS_ARRAY(n) ? json_node_get_array(n) : NULL;
}

static bool count_member(JsonObject *o, const char *k, uint64_t *v)
{
    JsonNode *n = o ? json_object_get_member(o, k) : NULL;
    if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_INT64 ||
        json_node_get_int(n) < 0)
        return false;
    *v = (uint64_t)json_node_get_int(n);
    return true;
}

/* The outcome of a packet record in words; NULL and *why when a member is
 * missing or of another type */
static char *record_outcome(JsonObject *p, const char **why)
{
    char tmp[4096];
    struct wbuf w = { tmp, 0, sizeof tmp - 1, NULL, NULL };
    const char *worst = str_member(p, "worst");
    JsonArray *layers = arr_member(p, "layers");
    JsonObject *k = obj_member(p, "kernel");
    JsonArray *counters = arr_member(k, "counters");
    JsonNode *ran = k ? json_object_get_member(k, "ran") : NULL;
    const char *kv = str_member(k, "verdict");
    if (!worst || !layers || !k || !counters || !kv || !ran || !JSON_NODE_HOLDS_VALUE(ran) ||
        json_node_get_value_type(ran) != G_TYPE_BOOLEAN) {
        *why = "a packet record without worst, layers or kernel (verdict, ran, counters)";
        return NULL;
    }
    bool first = true;
    wb_printf(&w, "worst %s", worst);
    for (unsigned i = 0; i < json_array_get_length(layers); i++) {
        JsonNode *ln = json_array_get_element(layers, i);
        JsonObject *l = ln && JSON_NODE_HOLDS_OBJECT(ln) ? json_node_get_object(ln) : NULL;
        JsonObject *cs = obj_member(l, "csum");
        uint64_t off;
        if (!l) {
            *why = "a layer that is not an object";
            return NULL;
        }
        if (!cs)
            continue;
        const char *proto = str_member(l, "proto"), *verdict = str_member(cs, "verdict");
        if (!proto || !verdict || !count_member(l, "offset", &off)) {
            *why = "a layer without proto, offset or csum.verdict";
            return NULL;
        }
        layer_words(&w, &first, proto, off, verdict, str_member(cs, "reason"));
    }
    bool r = json_node_get_boolean(ran);
    kernel_words(&w, r, kv, r && !strcmp(kv, "drop") ? str_member(obj_member(k, "drop"), "reason")
                                                     : NULL);
    for (unsigned i = 0; r && i < json_array_get_length(counters); i++) {
        JsonNode *c = json_array_get_element(counters, i);
        if (!c || !JSON_NODE_HOLDS_VALUE(c) || json_node_get_value_type(c) != G_TYPE_STRING) {
            *why = "a counter that is not a name";
            return NULL;
        }
        wb_putc(&w, ' ');
        wb_puts(&w, json_node_get_string(c));
    }
    tmp[w.len] = 0;
    return g_strdup(tmp);
}

static int by_frame(gconstpointer a, gconstpointer b)
{
    uint64_t x = ((const struct bframe *)a)->frame, y = ((const struct bframe *)b)->frame;
    return x < y ? -1 : x > y;
}

static void free_frames(gpointer p)
{
    GArray *a = p;
    for (unsigned i = 0; i < a->len; i++)
        g_free(g_array_index(a, struct bframe, i).was);
    g_array_free(a, TRUE);
}

/* one line of PREVIOUS: a packet record is kept, the other types are not */
static bool take_line(struct baseline *b, const char *line, size_t len, const char **why)
{
    static const char head[] = "{\"type\":\"packet\"";
    if (len < sizeof head - 1 || memcmp(line, head, sizeof head - 1))
        return true;
    if ((*why = jl_unbounded(line, len, JL_MAX_DEPTH, BASELINE_MAX_KEYS)))
        return false;
    JsonParser *p = json_parser_new();
    bool ok = json_parser_load_from_data(p, line, (gssize)len, NULL);
    JsonNode *root = ok ? json_parser_get_root(p) : NULL;
    JsonObject *o = root && JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL;
    const char *file = str_member(o, "file");
    struct bframe f = { 0, NULL, false };
    if (!o || !file || !count_member(o, "frame", &f.frame)) {
        *why = o ? "a packet record without file or frame" : "not JSON";
        ok = false;
    } else if ((f.was = record_outcome(o, why))) {
        GArray *a = g_hash_table_lookup(b->files, file);
        if (!a) {
            a = g_array_new(FALSE, FALSE, sizeof(struct bframe));
            g_hash_table_insert(b->files, g_strdup(file), a);
        }
        g_array_append_val(a, f);
    } else {
        ok = false;
    }
    g_object_unref(p);
    return ok;
}

struct baseline *baseline_load(const char *path, char **err)
{
    FILE *fp = fopen(path, "r");
    if (!fp) {
        *err = g_strdup_printf("%s: %s", path, g_strerror(errno));
        return NULL;
    }
    struct baseline *b = g_new0(struct baseline, 1);
    b->files = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, free_frames);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    uint64_t no = 0;
    const char *why = NULL;
    while ((n = getline(&line, &cap, fp)) > 0) {
        no++;
        if ((size_t)n > BASELINE_MAX_LINE) {
            why = "a line longer than 16 MiB";
            break;
        }
        if (line[n - 1] == '\n')
            n--;
        if (!take_line(b, line, (size_t)n, &why))
            break;
        why = NULL;
    }
    free(line);
    if (!why && ferror(fp))
        why = "read error";
    fclose(fp);
    if (why) {
        *err = g_strdup_printf("%s:%ju: %s", path, (uintmax_t)no, why);
        baseline_free(b);
        return NULL;
    }
    if (!g_hash_table_size(b->files)) {
        *err = g_strdup_printf("%s: no packet record (csumcheck -F json output is expected)", path);
        baseline_free(b);
        return NULL;
    }
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, b->files);
    while (g_hash_table_iter_next(&it, &k, &v))
        g_array_sort(v, by_frame);
    return b;
}

void baseline_free(struct baseline *b)
{
    if (!b)
        return;
    g_hash_table_destroy(b->files);
    g_free(b);
}

bool baseline_has_file(const struct baseline *b, const char *file)
{
    return g_hash_table_lookup(b->files, file) != NULL;
}

const char *baseline_of(struct baseline *b, const char *file, uint64_t frame)
{
    GArray *a = g_hash_table_lookup(b->files, file);
    struct bframe key = { frame, NULL, false };
    guint at;
    if (!a || !g_array_binary_search(a, &key, by_frame, &at))
        return NULL;
    struct bframe *f = &g_array_index(a, struct bframe, at);
    f->seen = true;
    return f->was;
}

uint64_t baseline_gone(struct baseline *b, const char *file,
                       void (*fn)(void *ctx, uint64_t frame, const char *was), void *ctx)
{
    GArray *a = g_hash_table_lookup(b->files, file);
    uint64_t n = 0;
    for (unsigned i = 0; a && i < a->len; i++) {
        struct bframe *f = &g_array_index(a, struct bframe, i);
        if (!f->seen) {
            fn(ctx, f->frame, f->was);
            n++;
        }
    }
    return n;
}

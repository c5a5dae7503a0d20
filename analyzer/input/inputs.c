/*
 * inputs.c - FILE|DIR|- arguments -> the ordered list of jobs.
 *
 * A FILE is taken as given (the reader says whether it is a capture). A DIR
 * is walked recursively in byte order of the names; a file in it is a
 * capture when its first four bytes are a pcap, pcapng or snoop magic
 * number, whatever its extension; a gzip, zstd or lz4 file when libwiretap
 * finds a capture inside. Other files (the reference .tsv/.txt files next
 * to the corpus) are skipped, never silently: one line per directory on
 * stderr says how many and names the first. Symbolic links are followed; a
 * directory seen twice is not.
 *
 * An argument that cannot be expanded (a missing path, a directory without
 * a capture) becomes a job with an error: it keeps its place in the order,
 * so its error record (JSON: {"type":"error"}) comes where it was given.
 */
#include "job.h"
#include "opts.h"
#include "wtr.h"

#include <glib.h>
#include <stdio.h>

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

struct expand {
    GArray *jobs;          /* struct job */
    GHashTable *seen_dirs; /* "dev:ino" */
    bool stdin_used;
    bool quiet;
};

enum { NOT_CAPTURE, CAPTURE, COMPRESSED };

static int magic_kind(const unsigned char m[4])
{
    static const unsigned char magics[][4] = {
        { 0xa1, 0xb2, 0xc3, 0xd4 }, { 0xd4, 0xc3, 0xb2, 0xa1 },   /* pcap, microseconds */
        { 0xa1, 0xb2, 0x3c, 0x4d }, { 0x4d, 0x3c, 0xb2, 0xa1 },   /* pcap, nanoseconds */
        { 0xa1, 0xb2, 0xcd, 0x34 }, { 0x34, 0xcd, 0xb2, 0xa1 },   /* Kuznetzov pcap */
        { 0x0a, 0x0d, 0x0d, 0x0a },                               /* pcapng SHB */
        { 's', 'n', 'o', 'o' },                                   /* snoop */
    };
    static const unsigned char packed[][4] = {
        { 0x1f, 0x8b, 0x08, 0x00 },                               /* gzip (3 bytes) */
        { 0x28, 0xb5, 0x2f, 0xfd },                               /* zstd */
        { 0x04, 0x22, 0x4d, 0x18 },                               /* lz4 frame */
    };
    for (size_t i = 0; i < G_N_ELEMENTS(magics); i++)
        if (!memcmp(m, magics[i], 4))
            return CAPTURE;
    for (size_t i = 0; i < G_N_ELEMENTS(packed); i++)
        if (!memcmp(m, packed[i], i ? 4 : 3))
            return COMPRESSED;
    return NOT_CAPTURE;
}

static void add_job(struct expand *x, const char *path, uint64_t size)
{
    struct job j;
    memset(&j, 0, sizeof j);
    j.path = g_strdup(path);
    j.size = size;
    j.linktype = -1;
    g_array_append_val(x->jobs, j);
}

/* an input that cannot be expanded: a job that only says so, in its place */
static void err(struct expand *x, const char *path, const char *what)
{
    add_job(x, path, 0);
    g_array_index(x->jobs, struct job, x->jobs->len - 1).error = g_strdup(what);
}

/* the files of a directory that are not captures: one line for them */
struct skipped {
    unsigned n;
    char *first;
};

static void say_skipped(const struct expand *x, const char *dir, struct skipped *sk)
{
    if (sk->n == 1 && !x->quiet)
        fprintf(stderr, CLI_NAME ": %s: 1 file is not a capture (by its first bytes), skipped: "
                        "%s\n", dir, sk->first);
    else if (sk->n && !x->quiet)
        fprintf(stderr, CLI_NAME ": %s: %u files are not captures (by their first bytes), "
                        "skipped: %s, ...\n", dir, sk->n, sk->first);
    g_free(sk->first);
}

/* a file found in a directory: a job, or counted as skipped */
static bool walk_file(struct expand *x, const char *p, const struct stat *st, struct skipped *sk)
{
    FILE *f = fopen(p, "rb");
    unsigned char m[4];
    if (!f) {
        err(x, p, g_strerror(errno));
        return false;
    }
    int kind = fread(m, 1, 4, f) == 4 ? magic_kind(m) : NOT_CAPTURE;
    fclose(f);
    if (kind == COMPRESSED && !wtr_is_capture(p))
        kind = NOT_CAPTURE;
    if (kind != NOT_CAPTURE) {
        add_job(x, p, (uint64_t)st->st_size);
        return true;
    }
    if (!sk->n++)
        sk->first = g_path_get_basename(p);
    return false;
}

static gint cmp_str(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static unsigned walk(struct expand *x, const char *dir, const struct stat *dst)
{
    char *key = g_strdup_printf("%ju:%ju", (uintmax_t)dst->st_dev, (uintmax_t)dst->st_ino);
    if (g_hash_table_contains(x->seen_dirs, key)) {
        g_free(key);
        return 0;
    }
    g_hash_table_add(x->seen_dirs, key);

    GError *e = NULL;
    GDir *d = g_dir_open(dir, 0, &e);
    if (!d) {
        err(x, dir, e->message);
        g_error_free(e);
        return 0;
    }
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    const char *n;
    while ((n = g_dir_read_name(d)))
        g_ptr_array_add(names, g_strdup(n));
    g_dir_close(d);
    g_ptr_array_sort(names, cmp_str);

    unsigned found = 0;
    struct skipped sk = { 0, NULL };
    for (unsigned i = 0; i < names->len; i++) {
        char *p = g_build_filename(dir, (const char *)names->pdata[i], NULL);
        struct stat st;
        if (stat(p, &st) != 0) {
            if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode))   /* dangling links: skip */
                err(x, p, g_strerror(errno));
        } else if (S_ISDIR(st.st_mode)) {
            found += walk(x, p, &st);
        } else if (S_ISREG(st.st_mode)) {
            found += walk_file(x, p, &st, &sk);
        }
        g_free(p);
    }
    say_skipped(x, dir, &sk);
    g_ptr_array_free(names, TRUE);
    return found;
}

struct job *inputs_expand(char **args, unsigned *njobs, bool quiet)
{
    struct expand x = { g_array_new(FALSE, TRUE, sizeof(struct job)),
                        g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL), false,
                        quiet };
    for (char **a = args; a && *a; a++) {
        struct stat st;
        if (!strcmp(*a, "-")) {
            if (x.stdin_used)
                err(&x, "-", "standard input given more than once");
            else
                add_job(&x, "-", 0);
            x.stdin_used = true;
        } else if (stat(*a, &st) != 0) {
            err(&x, *a, g_strerror(errno));
        } else if (S_ISDIR(st.st_mode)) {
            if (walk(&x, *a, &st) == 0)
                err(&x, *a, "no capture files in this directory");
        } else {
            add_job(&x, *a, S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0);
        }
    }
    g_hash_table_destroy(x.seen_dirs);
    *njobs = x.jobs->len;
    struct job *jobs = (struct job *)(void *)g_array_free(x.jobs, x.jobs->len == 0);
    for (unsigned i = 0; jobs && i < *njobs; i++)
        jobs[i].index = i;
    return jobs;
}

/*
 * inputs.c - FILE|DIR|- arguments -> the ordered list of jobs.
 *
 * A FILE is taken as given (libpcap says whether it is a capture). A DIR is
 * walked recursively in byte order of the names; a file in it is a capture
 * when its first four bytes are a pcap or pcapng magic number, whatever its
 * extension (the reference .tsv/.txt files next to the corpus are skipped
 * that way). Symbolic links are followed; a directory seen twice is not.
 */
#include "job.h"
#include "opts.h"

#include <glib.h>
#include <stdio.h>

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

struct expand {
    GArray *jobs;          /* struct job */
    GHashTable *seen_dirs; /* "dev:ino" */
    unsigned errors;
    bool stdin_used;
};

static bool is_capture_magic(const unsigned char m[4])
{
    static const unsigned char magics[][4] = {
        { 0xa1, 0xb2, 0xc3, 0xd4 }, { 0xd4, 0xc3, 0xb2, 0xa1 },   /* pcap, microseconds */
        { 0xa1, 0xb2, 0x3c, 0x4d }, { 0x4d, 0x3c, 0xb2, 0xa1 },   /* pcap, nanoseconds */
        { 0xa1, 0xb2, 0xcd, 0x34 }, { 0x34, 0xcd, 0xb2, 0xa1 },   /* Kuznetzov pcap */
        { 0x0a, 0x0d, 0x0d, 0x0a },                               /* pcapng SHB */
    };
    for (size_t i = 0; i < G_N_ELEMENTS(magics); i++)
        if (!memcmp(m, magics[i], 4))
            return true;
    return false;
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

static void err(struct expand *x, const char *path, const char *what)
{
    fprintf(stderr, CLI_NAME ": %s: %s\n", path, what);
    x->errors++;
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
    for (unsigned i = 0; i < names->len; i++) {
        char *p = g_build_filename(dir, (const char *)names->pdata[i], NULL);
        struct stat st;
        if (stat(p, &st) != 0) {
            if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode))   /* dangling links: skip */
                err(x, p, g_strerror(errno));
        } else if (S_ISDIR(st.st_mode)) {
            found += walk(x, p, &st);
        } else if (S_ISREG(st.st_mode)) {
            FILE *f = fopen(p, "rb");
            unsigned char m[4];
            if (!f) {
                err(x, p, g_strerror(errno));
            } else {
                if (fread(m, 1, 4, f) == 4 && is_capture_magic(m)) {
                    add_job(x, p, (uint64_t)st.st_size);
                    found++;
                }
                fclose(f);
            }
        }
        g_free(p);
    }
    g_ptr_array_free(names, TRUE);
    return found;
}

struct job *inputs_expand(char **args, unsigned *njobs, unsigned *nerrors)
{
    struct expand x = { g_array_new(FALSE, TRUE, sizeof(struct job)),
                        g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL), 0, false };
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
                err(&x, *a, "no pcap or pcapng files in this directory");
        } else {
            add_job(&x, *a, S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0);
        }
    }
    g_hash_table_destroy(x.seen_dirs);
    *njobs = x.jobs->len;
    *nerrors = x.errors;
    struct job *jobs = (struct job *)(void *)g_array_free(x.jobs, x.jobs->len == 0);
    for (unsigned i = 0; jobs && i < *njobs; i++)
        jobs[i].index = i;
    return jobs;
}

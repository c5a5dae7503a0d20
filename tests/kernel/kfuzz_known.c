/*
 * kfuzz_known.c - the known-disagreement list of the differential fuzzer
 * (tests/kernel/kfuzz-known.txt): signature patterns with the finding that
 * explains each, matched per kernel; and --classify, which explains a
 * finished run's disagreements again with the list as it is now.
 */
#define _GNU_SOURCE             /* fnmatch FNM_EXTMATCH: @(a|b) in the patterns */
#include "kfuzz.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct known {
    char kernels[64], pattern[400], why[300];
    unsigned seen;
};

static struct known *KNOWN;
static size_t NKNOWN;

/* "KERNELS | PATTERN | explanation": KERNELS a comma list (host, bullseye,
 * bookworm, trixie, sid) or "*"; PATTERN matched (fnmatch) against the
 * signature of a disagreement; '#' comments */
int kf_known_load(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return errno == ENOENT ? 0 : -1;
    char line[1024];
    size_t cap = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (!line[0] || line[0] == '#')
            continue;
        char *a = strstr(line, " | "), *b = a ? strstr(a + 3, " | ") : NULL;
        if (!a || !b) {
            fprintf(stderr, "known list %s: not \"KERNELS | PATTERN | explanation\": %s\n", path, line);
            fclose(f);
            return -1;
        }
        if (NKNOWN == cap) {
            cap = cap ? cap * 2 : 64;
            struct known *k = realloc(KNOWN, cap * sizeof *k);
            if (!k) {
                fclose(f);
                return -1;
            }
            KNOWN = k;
        }
        struct known *k = &KNOWN[NKNOWN++];
        memset(k, 0, sizeof *k);
        snprintf(k->kernels, sizeof k->kernels, "%.*s", (int)(a - line), line);
        snprintf(k->pattern, sizeof k->pattern, "%.*s", (int)(b - a - 3), a + 3);
        snprintf(k->why, sizeof k->why, "%s", b + 3);
    }
    fclose(f);
    return 0;
}

static int kernel_listed(const char *list, const char *kernel)
{
    if (!strcmp(list, "*"))
        return 1;
    size_t kl = strlen(kernel);
    for (const char *p = list; *p;) {
        while (*p == ',' || *p == ' ')
            p++;
        size_t n = strcspn(p, ", ");
        if (n == kl && !strncmp(p, kernel, n))
            return 1;
        p += n;
    }
    return 0;
}

int kf_known_match(const char *kernel, const char *sig)
{
    for (size_t i = 0; i < NKNOWN; i++)
        if (kernel_listed(KNOWN[i].kernels, kernel) && !fnmatch(KNOWN[i].pattern, sig, FNM_EXTMATCH))
            return (int)i;
    return -1;
}

void kf_known_seen(int i)
{
    if (i >= 0 && (size_t)i < NKNOWN)
        KNOWN[i].seen++;
}

const char *kf_known_why(int i)
{
    return i >= 0 && (size_t)i < NKNOWN ? KNOWN[i].why : "";
}

void kf_known_report_unseen(const char *kernel)
{
    for (size_t i = 0; i < NKNOWN; i++)
        if (!KNOWN[i].seen && kernel_listed(KNOWN[i].kernels, kernel))
            printf("known entry not met in this run: %s\n", KNOWN[i].pattern);
}

void kf_known_free(void)
{
    free(KNOWN);
    KNOWN = NULL;
    NKNOWN = 0;
}

/* csc-kfuzz --classify LOG --known FILE: the distinct disagreements a run
 * printed ("NEW|known  N x SIGNATURE"), explained again by the known list
 * as it is now (a long run outlives the list it started with). Prints the
 * unexplained ones; exit 1 when there are any. */
int kf_classify(const struct kf_opts *o, const char *log)
{
    static struct kf_opts opts;
    opts = *o;
    if (o->known && kf_known_load(o->known))
        return 2;
    FILE *f = fopen(log, "r");
    if (!f) {
        perror(log);
        return 2;
    }
    static char kernel[64] = "host";
    char line[2048];
    unsigned sigs = 0, frames = 0, unexplained = 0, unexplained_frames = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (sscanf(line, "csc-kfuzz on %63s", kernel) == 1) {
            opts.kernel = kernel;
            continue;
        }
        char *x = strstr(line, " x ");
        unsigned n;
        if (!x || (strncmp(line, "  NEW ", 6) && strncmp(line, "  known ", 8)) ||
            sscanf(line + 8, "%u", &n) != 1)
            continue;
        char *sig = x + 3;
        char *nm = strstr(sig, " (not minimised)");
        if (nm)
            *nm = 0;
        sigs++;
        frames += n;
        int k = kf_known_match(opts.kernel, sig);
        if (k >= 0)
            KNOWN[k].seen += n;
        if (k < 0) {
            unexplained++;
            unexplained_frames += n;
            printf("UNEXPLAINED %5u x %s\n", n, sig);
        }
    }
    fclose(f);
    if (o->verbose)                    /* frames per line of the list */
        for (size_t i = 0; i < NKNOWN; i++)
            if (KNOWN[i].seen)
                printf("%7u  %s | %s\n", KNOWN[i].seen, KNOWN[i].pattern, KNOWN[i].why);
    printf("%s: %u distinct disagreements (%u frames) on %s, %u (%u frames) not explained by %s\n", log, sigs,
           frames, opts.kernel, unexplained, unexplained_frames, o->known ? o->known : "no list");
    kf_known_free();
    return unexplained ? 1 : 0;
}


/*
 * kfuzz_main.c - csc-kfuzz, the differential fuzzer (docs/kernel-diff.md,
 * "The differential fuzzer").
 *
 *   csc-kfuzz --kernel host|bullseye|bookworm|trixie|sid [--seed S] [--count N]
 *             [--first I | --frame I | --frames I,J,..] [--bpf OBJ] [--vm RUNNER] [--known FILE]
 *             [--out DIR] [--summary FILE] [--max-saved N] [--no-minimise | --minimise-all] [--trace] [-v]
 *
 * On the host it runs in-process (libcsclive's namespaces, as root). For a
 * Debian kernel it boots that kernel with the VM runner and runs itself in
 * it (`--kernel here`): generation, the model, the comparison and the
 * minimisation all happen inside the guest, next to the kernel they ask,
 * and the reports come back over the runner's 9p share.
 *
 * Exit status: 0 every frame agreed or disagreed as the known list says,
 * 1 a disagreement not in the list or a harness error, 77 skipped (not
 * root, no namespaces, no qemu...; the reason is printed).
 */
#include "kfuzz.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

struct args {
    struct kf_opts o;
    const char *vm, *tunnels;
    int here;
    int with_cases;          /* --with-cases: the fixed cases, then the seed's frames */
};

static int usage(void)
{
    fprintf(stderr, "usage: csc-kfuzz --kernel host|bullseye|bookworm|trixie|sid [--seed S] [--count N] "
                    "[--first I | --frame I | --frames I,J,..] [--bpf OBJ] [--vm RUNNER] [--known FILE] [--out DIR] "
                    "[--summary FILE] [--max-saved N] [--no-minimise | --minimise-all] [--trace] [--no-fast-path] [-v]\n"
                    "       csc-kfuzz --kernel K --cases FILE [...]   (fixed recipes: each must agree)\n"
                    "       csc-kfuzz --kernel K --with-cases FILE --seed S --count N [...]   (both in one run)\n"
                    "       csc-kfuzz --classify LOG --known FILE   (a run's disagreements against the list now)\n"
                    "       csc-kfuzz --kernel K --model-only [--era E] --seed S --count N [-v]   (no kernel; -v: each frame's recipe)\n");
    return 2;
}

static int copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb"), *b = a ? fopen(to, "wb") : NULL;
    char buf[8192];
    size_t n;
    int rc = a && b ? 0 : -1;
    while (!rc && (n = fread(buf, 1, sizeof buf, a)) > 0)
        rc = fwrite(buf, 1, n, b) == n ? 0 : -1;
    if (a)
        fclose(a);
    if (b && fclose(b) != 0)
        rc = -1;
    return rc;
}

/* The recipes of a cases file: its lines that are neither blank nor comments */
static unsigned count_recipes(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[4096];
    unsigned n = 0;
    while (f && fgets(line, sizeof line, f)) {
        const char *p = line + strspn(line, " \t");
        n += *p && *p != '#' && *p != '\n';
    }
    if (f)
        fclose(f);
    return n;
}

/* Boot the kernel and run this program in it on the same frames */
static int run_vm(const struct args *a)
{
    const struct kf_opts *o = &a->o;
    char self[PATH_MAX], dir[PATH_MAX], cmd[32768];
    ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
    if (sl <= 0) {
        perror("/proc/self/exe");
        return 1;
    }
    self[sl] = 0;
    if (!a->vm || access(a->vm, X_OK)) {
        printf("*** SKIP: csc-kfuzz on %s NOT RUN: no VM runner (--vm) ***\n", o->kernel);
        return 77;
    }
    int tmp = !o->out;
    if (tmp) {
        snprintf(dir, sizeof dir, "/tmp/csc-kfuzz.XXXXXX");
        if (!mkdtemp(dir)) {
            perror("mkdtemp");
            return 1;
        }
    } else {
        mkdir(o->out, 0755);
        if (!realpath(o->out, dir)) {
            perror(o->out);
            return 1;
        }
    }
    char bpf[PATH_MAX + 32], known[PATH_MAX + 32], sum[PATH_MAX + 32];
    snprintf(bpf, sizeof bpf, "%s/csum_level.bpf.o", dir);
    snprintf(known, sizeof known, "%s/known.txt", dir);
    snprintf(sum, sizeof sum, "%s/summary.txt", dir);
    int have_bpf = o->bpf && !copy_file(o->bpf, bpf);
    int have_known = o->known && !copy_file(o->known, known);
    char cases[PATH_MAX + 32];
    snprintf(cases, sizeof cases, "%s/cases.txt", dir);
    int have_cases = o->cases_path && !copy_file(o->cases_path, cases);
    if (o->cases_path && !have_cases) {
        perror(o->cases_path);
        return 1;
    }
    unlink(sum);
    char env[1024] = "";
    size_t eo = 0;
    static const char *const pass[] = { "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "CSC_LIVE_PROFILE" };
    for (size_t i = 0; i < sizeof pass / sizeof *pass; i++) {
        const char *v = getenv(pass[i]);
        if (v && !strchr(v, '\'') && eo < sizeof env)
            eo += (size_t)snprintf(env + eo, sizeof env - eo, " '%s=%s'", pass[i], v);
    }
    char range[128], range2[4200];
    if (have_cases && !a->with_cases) {
        snprintf(range, sizeof range, "--cases");
        snprintf(range2, sizeof range2, "/mnt/host/cases.txt");
    } else if (o->list) {
        snprintf(range, sizeof range, "%s--frames", have_cases ? "--with-cases /mnt/host/cases.txt " : "");
        snprintf(range2, sizeof range2, "%.4100s", o->list_text);
    } else {
        snprintf(range, sizeof range, "%s--first %u", have_cases ? "--with-cases /mnt/host/cases.txt " : "",
                 o->first);
        snprintf(range2, sizeof range2, "--count %u", o->count);
    }
    /* a frame or case costs a few ms of guest time under TCG, minimisation
     * more, and a loaded host several times that: at load 15 on 2 CPUs the
     * smoke's 400 frames and 355 cases outran 300 s + 0.1 s a frame (CI
     * trial of 2026-12-03), the cases uncounted */
    unsigned limit = 300 + (o->count + (have_cases ? count_recipes(cases) : 0)) / 4;
    snprintf(cmd, sizeof cmd,
             "'%s' -s '%s' -f '%s' -T %u %s -- env%s '%s' --kernel here --name %s --tunnels all --seed %llu "
             "%s %s --summary /mnt/host/summary.txt --max-saved %u --trace%s%s%s%s%s%s%s 2>&1",
             a->vm, dir, self, limit, o->kernel, env, self, o->kernel, (unsigned long long)o->seed, range, range2,
             o->max_saved, have_bpf ? " --bpf /mnt/host/csum_level.bpf.o" : "",
             have_known ? " --known /mnt/host/known.txt" : "", tmp ? "" : " --out /mnt/host",
             o->no_minimise ? " --no-minimise" : o->minimise_all ? " --minimise-all" : "", o->no_fast_path ? " --no-fast-path" : "",
             o->verbose ? " -v" : "", o->verbose > 1 ? " -v" : "");
    printf("csc-kfuzz: %u frames of seed %llu in Debian's %s kernel (%s)\n", o->count, (unsigned long long)o->seed,
           o->kernel, a->vm);
    fflush(stdout);
    char why[400] = "the VM runner cannot run this kernel here";
    FILE *p = popen(cmd, "r");
    int st = -1;
    if (p) {
        char line[2048];
        while (fgets(line, sizeof line, p)) {
            fputs(line, stdout);
            if (!strncmp(line, "csc-vm: UNAVAILABLE: ", 21)) {
                line[strcspn(line, "\n")] = 0;
                snprintf(why, sizeof why, "%.399s", line + 21);
            }
        }
        st = pclose(p);
    }
    int rc = st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : 125;
    if (o->summary && access(sum, R_OK) == 0)
        copy_file(sum, o->summary);
    if (have_cases)
        unlink(cases);
    if (tmp) {
        unlink(bpf);
        unlink(known);
        unlink(sum);
        rmdir(dir);
    } else {
        unlink(bpf);
        unlink(known);
    }
    if (rc == 123) {
        printf("\n*** SKIP: csc-kfuzz on %s NOT RUN: %s ***\n", o->kernel, why);
        return 77;
    }
    if (rc == 0 || rc == 1 || rc == 77)
        return rc;
    printf("*** HARNESS ERROR: the VM run for %s ended with status %d%s ***\n", o->kernel, rc,
           rc == 124 ? " (timeout)" : "");
    return 1;
}

/* --frames 3,17,40 */
static int parse_list(const char *text, struct kf_opts *o)
{
    static uint32_t list[4096];
    uint32_t n = 0;
    for (const char *p = text; *p && n < 4096;) {
        char *end;
        unsigned long v = strtoul(p, &end, 0);
        if (end == p)
            return -1;
        list[n++] = (uint32_t)v;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return -1;
    }
    o->list = list;
    o->count = n;
    return n ? 0 : -1;
}

int main(int argc, char **argv)
{
    struct args a;
    memset(&a, 0, sizeof a);
    a.o.kernel = "host";
    a.o.seed = 1;
    a.o.count = 1000;
    a.o.max_saved = 200;
    const char *name = NULL, *classify = NULL;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(s, "--kernel") && v) a.o.kernel = argv[++i];
        else if (!strcmp(s, "--name") && v) name = argv[++i];
        else if (!strcmp(s, "--seed") && v) a.o.seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(s, "--count") && v) a.o.count = (uint32_t)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(s, "--first") && v) a.o.first = (uint32_t)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(s, "--frame") && v) {
            a.o.first = (uint32_t)strtoul(argv[++i], NULL, 0);
            a.o.count = 1;
        } else if (!strcmp(s, "--bpf") && v) a.o.bpf = argv[++i];
        else if (!strcmp(s, "--vm") && v) a.vm = argv[++i];
        else if (!strcmp(s, "--known") && v) a.o.known = argv[++i];
        else if (!strcmp(s, "--out") && v) a.o.out = argv[++i];
        else if (!strcmp(s, "--summary") && v) a.o.summary = argv[++i];
        else if (!strcmp(s, "--max-saved") && v) a.o.max_saved = (unsigned)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(s, "--tunnels") && v) a.tunnels = argv[++i];
        else if (!strcmp(s, "--no-minimise")) a.o.no_minimise = 1;
        else if (!strcmp(s, "--minimise-all")) a.o.minimise_all = 1;
        else if (!strcmp(s, "--trace")) a.o.trace = 1;
        else if (!strcmp(s, "--model-only")) a.o.model_only = 1;
        else if (!strcmp(s, "--era") && v) a.o.model_era = argv[++i];
        else if (!strcmp(s, "--no-fast-path")) a.o.no_fast_path = 1;
        else if (!strcmp(s, "--classify") && v) classify = argv[++i];
        else if (!strcmp(s, "--cases") && v) a.o.cases_path = argv[++i];
        else if (!strcmp(s, "--with-cases") && v) {
            a.o.cases_path = argv[++i];
            a.with_cases = 1;
        }
        else if (!strcmp(s, "--frames") && v) {
            a.o.list_text = argv[++i];
            if (parse_list(a.o.list_text, &a.o))
                return usage();
        }
        else if (!strcmp(s, "-v")) a.o.verbose++;
        else return usage();
    }
    kf_fast_path = !a.o.no_fast_path;  /* the model's frames on csumcheck's fast path */
    kd_analyze = kf_analyze;
    if (a.o.bpf && access(a.o.bpf, R_OK) != 0)
        a.o.bpf = NULL;
    if (a.o.summary)
        unlink(a.o.summary);
    setvbuf(stdout, NULL, _IOLBF, 0);
    signal(SIGPIPE, SIG_IGN);
    if (classify)
        return kf_classify(&a.o, classify);
    struct kf_opts co = a.o;           /* the fixed cases: no seed, every one must agree */
    static struct kf_case *cases;      /* freed at exit (kf_cases_free) */
    if (a.o.cases_path) {
        uint32_t n;
        if (kf_cases_load(a.o.cases_path, &cases, &n))
            return 1;
        atexit(kf_cases_free);
        co = a.o;
        co.cases = cases;
        co.first = 0;
        co.count = n;
        co.list = NULL;
        co.list_text = NULL;
        co.no_minimise = 1;
        co.known = NULL;
        if (a.with_cases)
            co.summary = NULL;         /* the seed's run writes it */
        else
            a.o = co;
    }
    a.here = !strcmp(a.o.kernel, "here") || !strcmp(a.o.kernel, "host") || a.o.model_only;
    if (!a.here)
        return run_vm(&a);
    if (!a.o.model_only || !strcmp(a.o.kernel, "host")) {   /* the kernel it runs on */
        struct utsname u;
        kd_kernel_mip6 = uname(&u) || live_kernel_mip6(u.release);
        kd_kernel_llc = !uname(&u) && live_kernel_llc(u.release);
        kd_kernel_vlan_8021q = uname(&u) || live_kernel_vlan_8021q(u.release);
    }
    if (name)
        a.o.kernel = name;
    else if (!strcmp(a.o.kernel, "here"))
        a.o.kernel = "host";
    a.o.host_tunnels = a.tunnels ? !strcmp(a.tunnels, "host") : !strcmp(a.o.kernel, "host");
    if (!a.with_cases)
        return kf_run_here(&a.o);
    co.kernel = a.o.kernel;
    int rc1 = kf_run_here(&co);
    int rc2 = kf_run_here(&a.o);
    printf("csc-kfuzz: fixed cases %s, seed %llu %s\n", rc1 == 0 ? "passed" : rc1 == 77 ? "skipped" : "FAILED",
           (unsigned long long)a.o.seed, rc2 == 0 ? "passed" : rc2 == 77 ? "skipped" : "FAILED");
    return rc1 == 1 || rc2 == 1 ? 1 : rc1 == 77 && rc2 == 77 ? 77 : 0;
}

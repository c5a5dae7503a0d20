/*
 * kdiff_main.c - csc-kdiff: the live-kernel differential test
 * (docs/kernel-diff.md).
 *
 *   csc-kdiff [--kernel host|bullseye|bookworm|trixie|sid] [--bpf OBJ]
 *             [--vm RUNNER --agent AGENT] [--pending FILE] [--summary FILE]
 *             [--log FILE] [--filter TEXT] [--list] [--strict-gro] [-v]
 *             [--results FILE]  (compare a kept agent result again, no kernel run)
 *
 * The cases (kdiff_cases.c) are grouped by receiver setup. On the host each
 * setup runs in a child in its own network namespace (libcsclive); for
 * another kernel the whole job goes to csc-live-agent inside a VM booted by
 * the runner (live/vm/csc-vm) and the observations come back over 9p. Every
 * case is then compared with the model under the era preset that claims the
 * kernel that ran it, and a table tunnel x report shows cases and agreement.
 *
 * Exit 0 when every case agrees (or disagrees exactly as a --pending entry
 * says, each of them printed and counted as a failure in the table), 1 on
 * any other disagreement, a pending entry that now agrees or a harness
 * error, 77 (skipped, never passed) where the kernel cannot run here: not
 * root, no /dev/net/tun or namespaces; for a VM kernel no qemu, or no
 * archive and nothing cached. The reason is printed loudly either way.
 */
#include "kdiff.h"
#include "vm.h"

#include "csumcheck/csumcheck.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_CASES 6144
#define SKIP_CODE 77

static struct kd_case CASES[MAX_CASES];
static struct live_obs *OBS;            /* [MAX_CASES] */
static uint8_t HAVE[MAX_CASES];
static uint8_t SELECTED[MAX_CASES];

struct opts {
    const char *kernel, *bpf, *vm, *agent, *pending, *summary, *log, *filter, *results;
    int list, strict_gro, verbose;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int skip(const struct opts *o, const char *why)
{
    printf("\n*** SKIP: kernel differential test on %s NOT RUN: %s ***\n\n", o->kernel, why);
    if (o->summary) {
        FILE *f = fopen(o->summary, "w");
        if (f) {
            fprintf(f, "kernel %s\nskipped %s\n", o->kernel, why);
            fclose(f);
        }
    }
    fflush(stdout);
    return SKIP_CODE;
}

/* ---- running the kernel side ---- */

static void store(void *ctx, const struct live_obs *o)
{
    (void)ctx;
    if (o->id >= 0 && o->id < MAX_CASES) {
        OBS[o->id] = *o;
        HAVE[o->id] = 1;
    }
}

/* Groups of selected cases with one namespace: calls fn(ctx, idx, n). */
static size_t for_each_group(size_t ncases, void (*fn)(void *ctx, const size_t *idx, size_t n), void *ctx)
{
    static size_t idx[MAX_CASES];
    static uint8_t done[MAX_CASES];
    memset(done, 0, sizeof done);
    size_t groups = 0;
    for (size_t i = 0; i < ncases; i++) {
        if (!SELECTED[i] || done[i])
            continue;
        size_t n = 0;
        for (size_t j = i; j < ncases; j++)
            if (SELECTED[j] && !done[j] && kd_ns_eq(&CASES[i].g, &CASES[j].g)) {
                idx[n++] = j;
                done[j] = 1;
            }
        groups++;
        fn(ctx, idx, n);
    }
    return groups;
}

/* The namespace of a group of cases with every device they use; dev[i] is
 * case idx[i]'s device. */
static void setup_of(const size_t *idx, size_t n, struct live_setup *s, int *dev)
{
    kd_setup_of(&CASES[idx[0]].g, s);
    for (size_t i = 0; i < n; i++) {
        dev[i] = -1;
        for (size_t j = 0; j < i && dev[i] < 0; j++)
            if (kd_dev_eq(&CASES[idx[j]].g, &CASES[idx[i]].g))
                dev[i] = dev[j];
        if (dev[i] < 0)
            dev[i] = kd_setup_add_dev(s, &CASES[idx[i]].g);
    }
}

static void host_group(void *ctx, const size_t *idx, size_t n)
{
    const struct live_tools *t = ctx;
    static struct live_setup s;
    static int dev[MAX_CASES];
    setup_of(idx, n, &s, dev);
    struct live_case *lc = calloc(n, sizeof *lc);
    struct live_obs *obs = calloc(n, sizeof *obs);
    if (!lc || !obs) {
        perror("calloc");
        exit(1);
    }
    for (size_t i = 0; i < n; i++)
        if (dev[i] < 0 || kd_live_case(&CASES[idx[i]], dev[i], &lc[i]))
            lc[i].nframes = 0;
    live_run_setup(t, &s, lc, n, obs, 600);
    for (size_t i = 0; i < n; i++)
        store(NULL, &obs[i]);
    free(lc);
    free(obs);
}

static void job_group(void *ctx, const size_t *idx, size_t n)
{
    FILE *f = ctx;
    static struct live_setup s;
    static struct live_case lc;
    static int dev[MAX_CASES];
    setup_of(idx, n, &s, dev);
    live_job_setup(f, &s);
    for (size_t i = 0; i < n; i++) {
        if (dev[i] < 0 || kd_live_case(&CASES[idx[i]], dev[i], &lc))
            lc.nframes = 0;
        live_job_case(f, &lc);
    }
}

static int run_host(const struct opts *o, size_t ncases, char *release, size_t rn, size_t *groups)
{
    struct live_tools t;
    memset(&t, 0, sizeof t);
    t.bpf_obj = o->bpf;
    char err[200];
    if (geteuid() != 0)
        return skip(o, "not root");
    if (access("/dev/net/tun", R_OK | W_OK) != 0)
        return skip(o, "/dev/net/tun missing");
    if (live_find_tools(&t))
        return skip(o, "iproute2 (ip) not found");
    if (live_preflight(&t, err, sizeof err))
        return skip(o, err[0] ? err : "namespace/TAP setup failed");
    struct utsname u;
    uname(&u);
    snprintf(release, rn, "%s", u.release);
    *groups = for_each_group(ncases, host_group, &t);
    return 0;
}

/* Each line of the runner's output goes on as it comes */
static void vm_line(void *ctx, int idx, const char *line)
{
    (void)ctx, (void)idx;
    printf("%s\n", line);
}

/* The whole job through csc-live-agent in a VM booted by the runner (vm.h). */
static int run_vm(const struct opts *o, size_t ncases, char *release, size_t rn, size_t *groups)
{
    if (!o->vm || !o->agent || access(o->vm, X_OK) || access(o->agent, X_OK))
        return skip(o, "no VM runner or agent given (--vm, --agent)");
    char dir[512], job[600];
    if (live_vm_mkdir("csc-kdiff", dir, sizeof dir)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(job, sizeof job, "%s/job.txt", dir);
    FILE *f = fopen(job, "w");
    if (!f) {
        perror(job);
        return 1;
    }
    live_job_begin(f);
    *groups = for_each_group(ncases, job_group, f);
    if (fclose(f) != 0) {
        perror(job);
        return 1;
    }
    printf("kernel differential on %s: %zu setups in one VM (%s)\n", o->kernel, *groups, o->vm);
    fflush(stdout);
    struct live_vm_cmd c = { vm_line, NULL, NULL, NULL };
    struct live_vm_job j = { .runner = o->vm, .agent = o->agent, .bpf_obj = o->bpf, .kernel = o->kernel,
                             .dir = dir, .limit_s = 1500, .agent_timeout_s = 1200, .obs = store };
    char why[400];
    int status, out = 0;
    switch (live_vm_run_job(&c, &j, release, rn, &status, why, sizeof why)) {
    case LIVE_VM_OK: break;
    case LIVE_VM_SKIP:
        out = skip(o, status == 77 ? "the agent cannot run setups in the guest (its reason is above)"
                      : why[0] ? why : "the VM runner cannot run this kernel here");
        break;
    case LIVE_VM_NO_RESULT:
        printf("*** HARNESS ERROR: no readable result from the agent in %s/result.txt ***\n", dir);
        out = 1;
        break;
    default:
        printf("*** HARNESS ERROR: the VM run for %s ended with status %d%s%s ***\n", o->kernel, status,
               why[0] ? ": " : "", why);
        out = 1;
        break;
    }
    if (getenv("CSC_KDIFF_KEEP"))
        printf("kept the job and the result in %s\n", dir);
    else
        live_vm_clean(dir);
    return out;
}

/* ---- pending model fixes ---- */

struct pending {
    char series[16];                /* the kernel: host, bullseye, ... */
    char label[200];
    char finding[120];
    int seen, agreed;
};
static struct pending *PENDING;
static size_t NPENDING, CAPPENDING;

/* Lines "KERNEL | case label | finding" (KERNEL as --kernel names it:
 * host, bullseye, bookworm, trixie, sid); '#' comments. */
static int load_pending(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return errno == ENOENT ? 0 : -1;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (!line[0] || line[0] == '#')
            continue;
        char *a = strstr(line, " | "), *b = a ? strstr(a + 3, " | ") : NULL;
        if (!a || !b) {
            fprintf(stderr, "pending list: not \"SERIES | label | finding\": %s\n", line);
            fclose(f);
            return -1;
        }
        if (NPENDING == CAPPENDING) {
            size_t cap = CAPPENDING ? CAPPENDING * 2 : 1024;
            struct pending *p = realloc(PENDING, cap * sizeof *p);
            if (!p) {
                fclose(f);
                return -1;
            }
            PENDING = p;
            CAPPENDING = cap;
        }
        struct pending *p = &PENDING[NPENDING++];
        memset(p, 0, sizeof *p);
        snprintf(p->series, sizeof p->series, "%.*s", (int)(a - line), line);
        snprintf(p->label, sizeof p->label, "%.*s", (int)(b - a - 3), a + 3);
        snprintf(p->finding, sizeof p->finding, "%s", b + 3);
    }
    fclose(f);
    return 0;
}

static struct pending *pending_for(const char *series, const char *label)
{
    for (size_t i = 0; i < NPENDING; i++)
        if (!strcmp(PENDING[i].series, series) && !strcmp(PENDING[i].label, label))
            return &PENDING[i];
    return NULL;
}

/* ---- the table ---- */

#define NCOL (KR__COUNT + 1)         /* the reports, then GRO runs */

struct cell {
    int cases, agree, pending, errors, skipped;
};
static struct cell TABLE[64][NCOL];
static char ROWS[64][24];
static int NROWS;

static struct cell *cell_of(const struct kd_case *c)
{
    const char *name = kd_tun_name(&c->g);
    int r = 0;
    while (r < NROWS && strcmp(ROWS[r], name))
        r++;
    if (r == NROWS && NROWS < 64)
        snprintf(ROWS[NROWS++], sizeof ROWS[0], "%s", name);
    return &TABLE[r < 64 ? r : 63][c->nseg > 1 ? KR__COUNT : c->report];
}

static void cell_text(const struct cell *c, char *buf, size_t n)
{
    if (!c->cases && !c->skipped)
        snprintf(buf, n, "-");
    else if (!c->cases)
        snprintf(buf, n, "skip %d", c->skipped);
    else
        snprintf(buf, n, "%d/%d%s%s", c->agree, c->cases, c->pending ? "P" : "", c->errors ? "E" : "");
}

static void print_table(FILE *f, const char *kernel, const char *release)
{
    static const char *const cols[NCOL] = { "none", "partial:outer", "partial:inner", "unnecessary:0",
                                            "unnecessary:1", "GRO runs" };
    fprintf(f, "\nkernel %s (%s): agreeing/cases per tunnel and device report "
               "(P: pending model fixes among the disagreements, E: harness errors)\n", kernel, release);
    fprintf(f, "%-14s", "tunnel");
    for (int c = 0; c < NCOL; c++)
        fprintf(f, " %14s", cols[c]);
    fprintf(f, " %14s\n", "total");
    struct cell tot[NCOL + 1];
    memset(tot, 0, sizeof tot);
    for (int r = 0; r < NROWS; r++) {
        struct cell row = { 0, 0, 0, 0, 0 };
        fprintf(f, "%-14s", ROWS[r]);
        for (int c = 0; c < NCOL; c++) {
            char t[32];
            const struct cell *x = &TABLE[r][c];
            cell_text(x, t, sizeof t);
            fprintf(f, " %14s", t);
            row.cases += x->cases, row.agree += x->agree, row.pending += x->pending;
            row.errors += x->errors, row.skipped += x->skipped;
            tot[c].cases += x->cases, tot[c].agree += x->agree, tot[c].pending += x->pending;
            tot[c].errors += x->errors, tot[c].skipped += x->skipped;
        }
        char t[32];
        cell_text(&row, t, sizeof t);
        fprintf(f, " %14s\n", t);
        tot[NCOL].cases += row.cases, tot[NCOL].agree += row.agree, tot[NCOL].pending += row.pending;
        tot[NCOL].errors += row.errors, tot[NCOL].skipped += row.skipped;
    }
    fprintf(f, "%-14s", "all");
    for (int c = 0; c <= NCOL; c++) {
        char t[32];
        cell_text(&tot[c], t, sizeof t);
        fprintf(f, " %14s", t);
    }
    fprintf(f, "\n");
}

static void write_summary(const char *path, const char *kernel, const char *release, const char *era)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "kernel %s\nrelease %s\nera %s\n", kernel, release, era);
    for (int r = 0; r < NROWS; r++)
        for (int c = 0; c < NCOL; c++) {
            const struct cell *x = &TABLE[r][c];
            if (x->cases || x->skipped)
                fprintf(f, "cell %s %d %d %d %d %d %d\n", ROWS[r], c, x->cases, x->agree, x->pending,
                        x->errors, x->skipped);
        }
    fclose(f);
}

/* ---- the whole matrix: kernel x tunnel x report ---- */

/* csc-kdiff --matrix OUT SUMMARY...: the tables of every kernel test, one
 * after the other, and a line per kernel; exit 0 when every kernel ran and
 * agreed, 1 when one disagreed or a summary is missing, 77 when one was
 * skipped (named, with its reason). */
static int matrix(int argc, char **argv)
{
    FILE *out = fopen(argv[0], "w");
    if (!out) {
        perror(argv[0]);
        return 1;
    }
    int failed = 0, skipped = 0, pending = 0, pending_kernels = 0;
    char lines[16][320];
    int nlines = 0;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "r");
        char kernel[64] = "?", release[128] = "?", era[32] = "?", line[512];
        struct cell tot = { 0, 0, 0, 0, 0 };
        NROWS = 0;
        memset(TABLE, 0, sizeof TABLE);
        if (!f) {
            snprintf(lines[nlines++ & 15], sizeof lines[0], "%-10s MISSING: %s was not written (the test did not run)",
                     "?", argv[i]);
            failed = 1;
            continue;
        }
        int skip = 0;
        while (fgets(line, sizeof line, f)) {
            line[strcspn(line, "\n")] = 0;
            char tun[24];
            int col;
            struct cell c;
            if (sscanf(line, "kernel %63s", kernel) == 1 || sscanf(line, "release %127s", release) == 1 ||
                sscanf(line, "era %31s", era) == 1)
                continue;
            if (!strncmp(line, "skipped ", 8)) {
                snprintf(lines[nlines++ & 15], sizeof lines[0], "%-10s SKIPPED, NOT PASSED: %.200s", kernel, line + 8);
                skip = 1;
            } else if (sscanf(line, "cell %23s %d %d %d %d %d %d", tun, &col, &c.cases, &c.agree, &c.pending,
                              &c.errors, &c.skipped) == 7 && col >= 0 && col < NCOL) {
                int r = 0;
                while (r < NROWS && strcmp(ROWS[r], tun))
                    r++;
                if (r == NROWS && NROWS < 64)
                    snprintf(ROWS[NROWS++], sizeof ROWS[0], "%s", tun);
                TABLE[r < 64 ? r : 63][col] = c;
                tot.cases += c.cases, tot.agree += c.agree, tot.pending += c.pending;
                tot.errors += c.errors, tot.skipped += c.skipped;
            }
        }
        fclose(f);
        if (skip) {
            skipped = 1;
            continue;
        }
        print_table(out, kernel, release);
        print_table(stdout, kernel, release);
        int ok = tot.cases && tot.agree + tot.pending == tot.cases && !tot.errors;
        failed |= !ok;
        pending += tot.pending;
        pending_kernels += tot.pending > 0;
        snprintf(lines[nlines++ & 15], sizeof lines[0],
                 "%-10s %-26s era %-7s %5d cases, %5d agree (%.1f%%), %d pending model fixes, %d errors, %d skipped%s",
                 kernel, release, era, tot.cases, tot.agree, tot.cases ? 100.0 * tot.agree / tot.cases : 0.0,
                 tot.pending, tot.errors, tot.skipped, ok ? "" : "  FAIL");
    }
    for (FILE *f = out;; f = stdout) {
        fprintf(f, "\nkernel differential matrix:\n");
        for (int i = 0; i < nlines && i < 16; i++)
            fprintf(f, "  %s\n", lines[i]);
        if (pending)
            fprintf(f, "*** NOT 100%%: %d disagreements on %d kernels wait for model fixes (each listed with its "
                       "finding in tests/kernel/pending.txt and printed by its kernel's test) ***\n",
                    pending, pending_kernels);
        if (f == stdout)
            break;
    }
    fclose(out);
    return failed ? 1 : skipped ? SKIP_CODE : 0;
}

/* ---- main ---- */

static int usage(void)
{
    fprintf(stderr, "usage: csc-kdiff [--kernel host|bullseye|bookworm|trixie|sid] [--bpf OBJ] "
                    "[--vm RUNNER --agent AGENT] [--pending FILE] [--summary FILE] [--log FILE] "
                    "[--filter TEXT] [--list] [--strict-gro] [-v] [--results FILE]\n");
    return 2;
}

int main(int argc, char **argv)
{
    struct opts o;
    memset(&o, 0, sizeof o);
    o.kernel = "host";
    if (argc >= 3 && !strcmp(argv[1], "--matrix"))
        return matrix(argc - 2, argv + 2);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--kernel") && v) o.kernel = argv[++i];
        else if (!strcmp(a, "--bpf") && v) o.bpf = argv[++i];
        else if (!strcmp(a, "--vm") && v) o.vm = argv[++i];
        else if (!strcmp(a, "--agent") && v) o.agent = argv[++i];
        else if (!strcmp(a, "--pending") && v) o.pending = argv[++i];
        else if (!strcmp(a, "--summary") && v) o.summary = argv[++i];
        else if (!strcmp(a, "--log") && v) o.log = argv[++i];
        else if (!strcmp(a, "--filter") && v) o.filter = argv[++i];
        else if (!strcmp(a, "--results") && v) o.results = argv[++i];
        else if (!strcmp(a, "--list")) o.list = 1;
        else if (!strcmp(a, "--strict-gro")) o.strict_gro = 1;
        else if (!strcmp(a, "-v")) o.verbose = 1;
        else return usage();
    }
    if (o.bpf && access(o.bpf, R_OK) != 0)
        o.bpf = NULL;
    if (o.summary)
        unlink(o.summary);           /* never a stale result for the matrix */
    setvbuf(stdout, NULL, _IOLBF, 0);
    signal(SIGPIPE, SIG_IGN);

    size_t ncases = kd_make_cases(CASES, MAX_CASES);
    if (ncases > MAX_CASES) {
        fprintf(stderr, "case table too small (%zu)\n", ncases);
        return 1;
    }
    size_t nsel = 0;
    for (size_t i = 0; i < ncases; i++) {
        char label[200];
        kd_case_label(&CASES[i], label, sizeof label);
        SELECTED[i] = !o.filter || strstr(label, o.filter) != NULL;
        nsel += SELECTED[i];
        if (o.list && SELECTED[i])
            printf("[%4zu] %s\n", i, label);
    }
    if (o.list) {
        printf("%zu cases\n", nsel);
        return 0;
    }
    if (o.pending && load_pending(o.pending)) {
        perror(o.pending);
        return 1;
    }
    OBS = calloc(MAX_CASES, sizeof *OBS);
    if (!OBS) {
        perror("calloc");
        return 1;
    }

    double t0 = now_s();
    char release[128] = "";
    size_t groups = 0;
    int rc;
    if (o.results) {                 /* a kept agent result (CSC_KDIFF_KEEP) compared again */
        FILE *r = fopen(o.results, "r");
        rc = !r || live_result_read(r, release, sizeof release, store, NULL) < 0;
        if (r)
            fclose(r);
        if (rc)
            fprintf(stderr, "%s: not a readable agent result\n", o.results);
    } else {
        rc = !strcmp(o.kernel, "host") ? run_host(&o, ncases, release, sizeof release, &groups)
                                       : run_vm(&o, ncases, release, sizeof release, &groups);
    }
    if (rc)
        return rc;
    double t_kernel = now_s() - t0;
    const char *era = live_era_for_release(release);
    const char *series = o.kernel;   /* pending entries are per kernel (suite) */
    kd_kernel_mip6 = live_kernel_mip6(release);   /* this machine's, or a VM's: Debian */
    kd_kernel_llc = live_kernel_llc(release);
    kd_kernel_vlan_8021q = live_kernel_vlan_8021q(release);
    if (!o.bpf)
        printf("*** no BPF object: the unnecessary:L cases are skipped ***\n");
    FILE *log = o.log ? fopen(o.log, "w") : NULL;

    size_t compared = 0, agree = 0, skipped = 0, errors = 0, pend = 0, gro_runs = 0, gro_agree = 0;
    size_t coalesced = 0, retried = 0, disputed = 0, wrong_disagree = 0;
    static char skipmsg[32][200];
    int nskipmsg = 0;
    for (size_t i = 0; i < ncases; i++) {
        if (!SELECTED[i])
            continue;
        const struct kd_case *c = &CASES[i];
        const struct live_obs *ob = &OBS[i];
        struct cell *cl = cell_of(c);
        char label[200], ktxt[320], mtxt[320], why[200];
        kd_case_label(c, label, sizeof label);
        if (!HAVE[i] || ob->status == LIVE_ERROR) {
            printf("[%4zu] %s | HARNESS ERROR: %s\n", i, label, HAVE[i] ? ob->msg : "no observation");
            errors++;
            cl->cases++;
            cl->errors++;
            compared++;
            continue;
        }
        if (ob->status == LIVE_SKIPPED) {
            skipped++;
            cl->skipped++;
            /* one line per tunnel and reason: "tNN (geneve): why" -> "geneve: why" */
            char m[200];
            const char *open = strchr(ob->msg, '('), *close = open ? strstr(open, "): ") : NULL;
            if (open && close)
                snprintf(m, sizeof m, "%.*s: %s", (int)(close - open - 1), open + 1, close + 3);
            else
                snprintf(m, sizeof m, "%s", ob->msg);
            int known = 0;
            for (int k = 0; k < nskipmsg; k++)
                known |= !strcmp(skipmsg[k], m);
            if (!known && nskipmsg < 32)
                snprintf(skipmsg[nskipmsg++], sizeof skipmsg[0], "%s", m);
            continue;
        }
        compared++;
        cl->cases++;
        struct kd_outcome m, k, pm;
        kd_model(c, era, &m, 0);
        kd_kernel(c, ob, &k);
        int ok = kd_compare(c, &m, &k, o.strict_gro, why, sizeof why);
        kd_model(c, era, &pm, 1);
        char pwhy[200];
        if (ok && !kd_compare(c, &pm, &k, 0, pwhy, sizeof pwhy))
            wrong_disagree++;
        kd_outcome_text(c, &k, ktxt, sizeof ktxt);
        kd_outcome_text(c, &m, mtxt, sizeof mtxt);
        char gro[200] = "";
        if (c->nseg > 1) {
            char lostx[64] = "";
            if (k.lost_merges)
                snprintf(lostx, sizeof lostx, ", %d merge%s lost at the UDP socket", k.lost_merges,
                         k.lost_merges == 1 ? "" : "s");
            snprintf(gro, sizeof gro, " | the device got %d skb%s for %d segment%s%s%s; engine %d merge%s%s",
                     k.skbs_dev, k.skbs_dev == 1 ? "" : "s", k.at_dev, k.at_dev == 1 ? "" : "s",
                     k.merges > k.lost_merges ? " (coalesced)" : "", lostx, m.merges, m.merges == 1 ? "" : "s",
                     ob->disputed ? " (written 3 times: the first two differed)" : "");
            if (c->g.gro) {
                gro_runs++;
                retried += ob->retries;
                disputed += ob->disputed != 0;
                gro_agree += m.merges == k.merges;
            }
            coalesced += k.merges > 0;
        }
        struct pending *p = pending_for(series, label);
        const char *verdict = ok ? "agree" : "DISAGREE: ";
        if (p) {
            p->seen = 1;
            if (ok) {
                p->agreed = 1;
                verdict = "AGREES BUT LISTED AS PENDING (remove it from the pending list)";
                ok = 0;
                why[0] = 0;
            } else {
                pend++;
                cl->pending++;
                verdict = "DISAGREE (pending model fix): ";
            }
        }
        agree += ok;
        cl->agree += ok;
        char line[2048];
        snprintf(line, sizeof line, "[%4zu] %s | kernel: %s | model: %s%s | %s%s%s%s\n", i, label, ktxt, mtxt, gro,
                 verdict, ok ? "" : why, p && !p->agreed ? " -- " : "", p && !p->agreed ? p->finding : "");
        if (log)
            fputs(line, log);
        int pending_disagreement = p && !p->agreed;
        if (!ok || o.verbose) {
            fputs(line, stdout);
            if (k.note[0])
                printf("        note: %s\n", k.note);
            if (!pending_disagreement || o.verbose) {   /* its finding explains it */
                kd_dump_kernel(ob);
                kd_dump_model(c, era);
            }
        }
    }
    size_t stale = 0;
    for (size_t i = 0; i < NPENDING; i++)
        if (!strcmp(PENDING[i].series, series) && !PENDING[i].seen && !o.filter) {
            printf("*** pending entry not found among the cases: %s | %s ***\n", PENDING[i].series, PENDING[i].label);
            stale++;
        }
    double total = now_s() - t0;
    print_table(stdout, o.kernel, release);
    if (log) {
        print_table(log, o.kernel, release);
        fclose(log);
    }
    if (o.summary)
        write_summary(o.summary, o.kernel, release, era);
    printf("\n%zu device setups (one namespace each), kernel side %.1f s, total %.1f s; era preset %s\n", groups,
           t_kernel, total, era);
    if (gro_runs)
        printf("GRO runs (IFF_NAPI + gro_flush_timeout): %zu, each written twice, %zu with coalescing seen; GRO "
               "engine merge count matches the kernel on %zu (%s); %zu writes repeated because the writer "
               "stalled over half gro_flush_timeout or the run straddled a tick; %zu runs whose two writes "
               "differed, decided by a third\n", gro_runs, coalesced, gro_agree,
               o.strict_gro ? "enforced: --strict-gro" : "informational", retried, disputed);
    printf("specificity: with a wrong configuration (report swapped, remcsumrx and udp6zerocsumrx inverted) "
           "the model would disagree on %zu of the %zu agreeing cases\n", wrong_disagree, agree);
    for (int k = 0; k < nskipmsg; k++)
        printf("*** SKIPPED (not in this kernel): %s ***\n", skipmsg[k]);
    if (skipped)
        printf("*** %zu cases skipped: their setups need what this kernel does not have (above) ***\n", skipped);
    if (errors)
        printf("*** %zu harness errors ***\n", errors);
    if (pend)
        printf("*** NOT 100%%: %zu disagreements wait for model fixes (pending list %s, each printed above) ***\n",
               pend, o.pending);
    printf("kernel differential on %s (%s): %zu cases, %zu agree, %zu pending model fixes, %zu skipped\n",
           o.kernel, release, compared, agree, pend, skipped);
    if (compared == 0)
        return skip(&o, "no case could run");
    return agree + pend == compared && !errors && !stale ? 0 : 1;
}

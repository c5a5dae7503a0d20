/*
 * kfuzz_run.c - the fuzzer against the kernel it runs on: frames grouped by
 * namespace (underlay, TAP mode, BPF level), one libcsclive session each
 * with every receiving device its frames need, each frame written, observed
 * and compared with the model; a disagreement is written again (a kernel
 * that answers differently the second time is noise, counted as such),
 * then minimised in the same session - each mutation undone in turn, kept
 * undone while the frame still disagrees the same way - and saved: a pcap
 * of the frame as written and a report (receiver, report, mutations, both
 * outcomes, the model's trace, the command that reproduces it).
 */
#include "kfuzz.h"

#include "capw.h"
#include "csumcheck/csumcheck.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define MAX_ROWS 48
#define MINIMISE_BUDGET 40       /* minimisations per raw disagreement key and tunnel */
#define KNOWN_MINIMISED 3        /* minimisations a known line gets before the frames it explains
                                    as they come are counted so (--minimise-all: every frame) */
#define PROGRESS_EVERY 10000     /* frames between two progress lines */

struct sig {
    char text[600];              /* tunnel report mutations : model X, kernel Y (why) */
    unsigned count;
    uint64_t seed;
    uint32_t index;              /* the first frame that showed it */
    int known;                   /* index into the known list, -1 */
    int minimised;
    char file[360];
    uint64_t hash;
};

struct row {
    char name[24];
    unsigned frames, agree, unknown, disagree, known, noise, errors, skipped;
};

static struct {
    const struct kf_opts *o;
    const char *era;
    char release[128];
    struct live_tools tools;
    struct sig *sigs;            /* every distinct signature, in the order met */
    size_t nsigs, capsigs;
    uint32_t *sigix;             /* open addressing by hash: index + 1 into sigs, 0 empty */
    size_t capix;
    /* minimisations that ended on each known line: after KNOWN_MINIMISED a
     * frame the line explains unminimised is counted as it comes */
    unsigned *kmin;
    size_t nkmin;
    unsigned counted_unminimised;
    unsigned frames_done, frames_total;
    unsigned oops_skipped;       /* frames not written: the kernel would crash (kfuzz_oops.c) */
    char oops_why[200];
    double t_start, t_progress;
    struct row rows[MAX_ROWS];
    int nrows;
    unsigned runs_total, runs_minimise, saved;
    double t_kernel;
    struct { char key[240]; unsigned n; } budget[512];
    int nbudget;
    char skipmsg[16][200];
    int nskipmsg;
} R;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- the table ---- */

static struct row *row_of(const struct kf_case *c)
{
    const char *name = kf_tun_name(&c->g);
    int r = 0;
    while (r < R.nrows && strcmp(R.rows[r].name, name))
        r++;
    if (r == R.nrows && R.nrows < MAX_ROWS)
        snprintf(R.rows[R.nrows++].name, sizeof R.rows[0].name, "%s", name);
    return &R.rows[r < MAX_ROWS ? r : MAX_ROWS - 1];
}

/* ---- one frame through the session ---- */

struct ns {
    struct live_session ss;
    struct live_setup s;
    int up;
    int ndev;
    struct { uint8_t tun, payload; uint16_t opts; } dev[LIVE_MAX_DEVS];
};

static int dev_index(const struct ns *n, const struct kf_case *c)
{
    for (int i = 0; i < n->ndev; i++)
        if (n->dev[i].tun == c->g.tun && n->dev[i].payload == c->g.payload && n->dev[i].opts == c->g.opts)
            return i;
    return -1;
}

static int nseg_of(const struct kf_case *c)
{
    return c->nseg > 1 && c->nseg <= KD_MAX_SEGS ? c->nseg : 1;
}

/* Write the frames of c (one, or a run) and observe them; 0 ok (o filled),
 * 1 skipped (the kernel lacks its device), -1 error */
static int run_frame(struct ns *n, const struct kf_case *c, const struct kf_frame *fr, struct live_obs *o)
{
    int d = dev_index(n, c);
    if (d < 0 || !n->up) {
        memset(o, 0, sizeof *o);
        o->status = LIVE_ERROR;
        snprintf(o->msg, sizeof o->msg, "%s", d < 0 ? "its device is not in the namespace" : "the namespace is gone");
        return -1;
    }
    struct live_batch b;
    memset(&b, 0, sizeof b);
    b.id = (int32_t)(c->index & 0x7fffffff);
    b.dev = (uint8_t)d;
    b.nframes = (uint16_t)nseg_of(c);
    b.flags = LIVE_BATCH_ONCE;         /* a run that disagrees is written again (noise) */
    for (int s = 0; s < b.nframes; s++)
        b.frames[s] = &fr[s].lf;
    R.runs_total++;
    if (live_session_run(&n->ss, &b, o, 5000) < 0) {
        n->up = 0;
        return -1;
    }
    if (o->status == LIVE_SKIPPED)
        return 1;
    return o->status == LIVE_OK ? 0 : -1;
}

/* Run and judge: 1 agree, 0 disagree, 2 model unknown, -1 error, -2
 * skipped, -3 not written: the kernel would crash on it (kfuzz_oops.c;
 * minimisation can uncover such a frame too). fr: room for KD_MAX_SEGS
 * frames. */
/* A stack of VLAN tags (a listed case's "oeth.vlan=...*N") through the
 * TAP's GRO (the recursion limit's cases) needs the 802.1Q GRO handler: a
 * kernel without CONFIG_VLAN_8021Q (the host's 6.18) has no receiver for
 * them. */
static int needs_vlan_gro(const struct kf_case *c)
{
    for (int i = 0; i < c->nmut; i++)
        if (c->mut[i].kind == MK_VLAN && c->mut[i].rep > 1 && c->g.napi)
            return 1;
    return 0;
}

static int judge(struct ns *n, const struct kf_case *c, struct kf_frame *fr, struct live_obs *o,
                 struct kf_outcome *m, struct kf_outcome *k, char *why, size_t wn)
{
    int nseg = nseg_of(c);
    if (!kd_kernel_vlan_8021q && needs_vlan_gro(c)) {
        memset(o, 0, sizeof *o);
        snprintf(o->msg, sizeof o->msg, "a stack of VLAN tags: no CONFIG_VLAN_8021Q (vlan_gro_receive)");
        return -2;
    }
    for (int s = 0; s < nseg; s++) {
        kf_build(c, s, &fr[s]);
        if (!fr[s].ok)
            return -1;
        const char *oops = kf_oops(c, &fr[s], R.release);
        if (oops) {
            snprintf(R.oops_why, sizeof R.oops_why, "%s", oops);
            snprintf(why, wn, "not written: %s", oops);
            return -3;
        }
    }
    int rc = run_frame(n, c, fr, o);
    if (rc)
        return rc > 0 ? -2 : -1;
    if (nseg == 1) {
        kf_model(c, fr, R.era, m);
        kf_kernel(c, m, o, k);
    } else {
        kf_model_run(c, fr, R.era, m);
        kf_kernel_run(c, fr, m, o, k);
    }
    return kf_compare(m, k, nseg, why, wn);
}

static void key_of(const struct kf_case *c, const struct kf_outcome *m, const struct kf_outcome *k, char *buf,
                   size_t n)
{
    kf_disagreement_key(m, k, nseg_of(c), buf, n);
}

/* ---- minimisation and the record of a disagreement ---- */

static int chains(const char *name)
{
    return strstr(name, ".v6ext=") || strstr(name, ".ipopt=") || strstr(name, ".tcpopt=");
}

/* By "role.kind", then (but for headers that chain) by value */
static int mut_name_cmp(const char *a, const char *b)
{
    size_t la = strcspn(a, "="), lb = strcspn(b, "=");
    int c = strncmp(a, b, la < lb ? la : lb);
    if (c || la != lb)
        return c ? c : la < lb ? -1 : 1;
    return chains(a) ? 0 : strcmp(a, b);
}

static void signature(const struct kf_case *c, const struct kf_frame *fr, const char *key, char *buf, size_t n)
{
    char rep[40];
    kf_report_name(c, fr, rep, sizeof rep);
    if (!strncmp(rep, "partial:", 8))
        snprintf(rep, sizeof rep, "partial");
    static const char *const l4[KL__COUNT] = { "tcp", "udp", "icmp", "raw" };
    char runs[12] = "";
    if (c->nseg > 1)
        snprintf(runs, sizeof runs, " run%u", c->nseg);
    char tun[96];
    kf_receiver_name(c, tun, sizeof tun);
    size_t at = (size_t)snprintf(buf, n, "%s %s %s%c%s rx=%s%s", tun, c->g.v6 ? "ip6" : "ip4",
                                 l4[c->l4 % KL__COUNT], (c->g.tun == KT_PLAIN ? c->g.v6 : c->inner6) ? '6' : '4',
                                 runs, rep, c->g.napi && c->nseg <= 1 ? " napi" : c->sysctl ? " sysctl1" : "");
    /* mutations sorted by name - the same set reads the same - but headers
     * and options that chain keep their order (a hop-by-hop header after a
     * routing header is not the same frame as one before it) */
    char names[KF_MAX_MUT][80];
    int nm = c->nmut;
    for (int i = 0; i < nm; i++)
        kf_mut_name(c, &c->mut[i], names[i], sizeof names[i]);
    for (int i = 1; i < nm; i++)
        for (int j = i; j > 0 && mut_name_cmp(names[j - 1], names[j]) > 0; j--) {
            char t[80];
            memcpy(t, names[j], sizeof t);
            memcpy(names[j], names[j - 1], sizeof t);
            memcpy(names[j - 1], t, sizeof t);
        }
    for (int i = 0; i < nm && at < n; i++)
        at += (size_t)snprintf(buf + at, n - at, " %s", names[i]);
    if (at < n)
        snprintf(buf + at, n - at, " : %s", key);
}

static int budget_left(const struct kf_case *c, const char *key)
{
    char k[240];
    snprintf(k, sizeof k, "%s %s", kf_tun_name(&c->g), key);
    for (int i = 0; i < R.nbudget; i++)
        if (!strcmp(R.budget[i].key, k))
            return R.budget[i].n++ < MINIMISE_BUDGET;
    if (R.nbudget < 512) {
        snprintf(R.budget[R.nbudget].key, sizeof R.budget[0].key, "%s", k);
        R.budget[R.nbudget++].n = 1;
    }
    return 1;
}

/* Undo mutations one at a time while the frame disagrees with the same key;
 * a partial report that is not needed becomes none. */
static void minimise(struct ns *n, struct kf_case *c, const char *key)
{
    static struct kf_frame fr[KD_MAX_SEGS];
    struct live_obs o;
    struct kf_outcome m, k;
    char why[200], key2[200];
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int i = c->nmut - 1; i >= 0; i--) {
            struct kf_case t = *c;
            memmove(&t.mut[i], &t.mut[i + 1], sizeof t.mut[0] * (size_t)(t.nmut - i - 1));
            t.nmut--;
            R.runs_minimise++;
            if (judge(n, &t, fr, &o, &m, &k, why, sizeof why) != 0)
                continue;
            key_of(&t, &m, &k, key2, sizeof key2);
            if (strcmp(key, key2))
                continue;
            *c = t;
            changed = 1;
        }
        if (c->report == KFR_PARTIAL) {
            struct kf_case t = *c;
            t.report = KFR_NONE;
            R.runs_minimise++;
            if (judge(n, &t, fr, &o, &m, &k, why, sizeof why) == 0) {
                key_of(&t, &m, &k, key2, sizeof key2);
                if (!strcmp(key, key2)) {
                    *c = t;
                    changed = 1;
                }
            }
        }
    }
}

static void dump_obs(FILE *f, const struct live_obs *o)
{
    fprintf(f, "  kernel: every counter that moved:");
    for (int i = 0; i < o->n; i++)
        fprintf(f, " %s=%lld", o->v[i].name, (long long)o->v[i].delta);
    fprintf(f, "%s\n", o->n ? "" : " none");
}

static void hexdump(FILE *f, const struct live_frame *lf)
{
    for (unsigned i = 0; i < lf->len; i++)
        fprintf(f, "%s%02x", i % 32 ? (i % 2 ? "" : " ") : "\n    ", lf->data[i]);
    fprintf(f, "\n");
}

static void receiver_text(FILE *f, const struct ns *n, const struct kf_case *c)
{
    int d = dev_index(n, c);
    fprintf(f, "  receiver: namespace \"%s\"\n", n->s.name);
    for (int i = 0; i < n->s.ncmds; i++)
        fprintf(f, "    %s\n", n->s.cmds[i]);
    if (d >= 0) {
        fprintf(f, "  device %s:\n", n->s.devs[d].name);
        for (int i = 0; i < n->s.devs[d].ncmds; i++)
            fprintf(f, "    %s\n", n->s.devs[d].cmds[i]);
    }
}

/* The report of a disagreement and its frame as a pcap, in the output directory */
static void save(struct ns *n, const struct kf_case *orig, const struct kf_case *c, struct sig *sg)
{
    static struct kf_frame fr[KD_MAX_SEGS];
    struct live_obs o;
    struct kf_outcome m, k;
    char why[200], base[300], path[340], label[1024];
    if (!R.o->out)
        return;
    mkdir(R.o->out, 0755);
    snprintf(base, sizeof base, "%s/kfuzz-%s-s%llu-f%u", R.o->out, R.o->kernel, (unsigned long long)c->seed,
             c->index);
    int rc = judge(n, c, fr, &o, &m, &k, why, sizeof why);
    snprintf(path, sizeof path, "%s.pcap", base);
    struct capw w;
    if (!capw_open(&w, path, CAPW_PCAP, 1, 65535)) {
        for (int s = 0; s < nseg_of(c); s++)
            capw_write(&w, (uint64_t)s * 10, fr[s].lf.data, fr[s].lf.len, CAPW_DIR_IN);
        capw_close(&w);
    }
    snprintf(sg->file, sizeof sg->file, "%s", path);
    snprintf(path, sizeof path, "%s.txt", base);
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    char rep[40];
    kf_report_name(c, &fr[0], rep, sizeof rep);
    fprintf(f, "csc-kfuzz disagreement on %s (kernel %s, model era %s)\n", R.o->kernel, R.release, R.era);
    fprintf(f, "  signature: %s\n", sg->text);
    fprintf(f, "  %s\n", rc == 0 ? "disagrees" : rc == 1 ? "AGREES NOW (was a disagreement)" : "did not run again");
    kf_case_label(orig, label, sizeof label);
    fprintf(f, "  frame %u of seed %llu as generated: %s\n", orig->index, (unsigned long long)orig->seed, label);
    kf_case_label(c, label, sizeof label);
    fprintf(f, "  minimised: %s\n", label);
    fprintf(f, "  report: %s (virtio-net flags %u, csum_start %u, csum_offset %u; BPF level %d)\n", rep,
            fr[0].lf.vnet[0], fr[0].pstart, fr[0].poff, c->g.level);
    receiver_text(f, n, c);
    char mt[320], kt[320];
    struct kd_case one;
    memset(&one, 0, sizeof one);
    one.nseg = (uint8_t)nseg_of(c);
    kd_outcome_text(&one, &m.o, mt, sizeof mt);
    kd_outcome_text(&one, &k.o, kt, sizeof kt);
    fprintf(f, "  kernel: %s | model: %s | %s\n", kt, mt, why);
    if (one.nseg > 1)
        fprintf(f, "  GRO: kernel %d merges (%d skbs at the device), engine %d merges\n", k.o.merges,
                k.o.skbs_dev, m.o.merges);
    dump_obs(f, &o);
    if (R.o->trace && kf_trace_available() == 1) {
        char tr[2048];
        struct live_obs o2;
        struct kf_outcome m2, k2;
        kf_trace_begin();
        judge(n, c, fr, &o2, &m2, &k2, why, sizeof why);
        kf_trace_end(tr, sizeof tr);
        fprintf(f, "  kernel drops (skb:kfree_skb, one more write):%s%s\n", tr[0] ? "\n" : " none", tr);
    }
    for (int s = 0; s < nseg_of(c); s++) {
        if (one.nseg > 1)
            fprintf(f, "  segment %d:\n", s);
        kf_dump_model(c, &fr[s], R.era, f);
        fprintf(f, "  frame (%u bytes):", fr[s].lf.len);
        hexdump(f, &fr[s].lf);
    }
    fprintf(f, "  reproduce: csc-kfuzz --kernel %s --seed %llu --frame %u -v\n", R.o->kernel,
            (unsigned long long)c->seed, c->index);
    fclose(f);
    R.saved++;
}

static uint64_t hash_text(const char *t)
{
    uint64_t h = 0xcbf29ce484222325ull;        /* FNV-1a */
    while (*t)
        h = (h ^ (uint8_t)*t++) * 0x100000001b3ull;
    return h;
}

/* Put sigs[i] into the index (capix a power of two, never more than half full) */
static void sig_index_put(size_t i)
{
    size_t m = R.capix - 1;
    for (size_t j = (size_t)R.sigs[i].hash & m;; j = (j + 1) & m)
        if (!R.sigix[j]) {
            R.sigix[j] = (uint32_t)(i + 1);
            return;
        }
}

/* The signature's line in the table, added when new; a long run meets tens
 * of thousands of distinct ones (the unminimised ones above all), so the
 * table grows and is found by hash. NULL: out of memory (counted in the
 * row all the same). */
static struct sig *sig_find(const char *text)
{
    uint64_t h = hash_text(text);
    if (R.capix) {
        size_t m = R.capix - 1;
        for (size_t j = (size_t)h & m; R.sigix[j]; j = (j + 1) & m) {
            struct sig *s = &R.sigs[R.sigix[j] - 1];
            if (s->hash == h && !strcmp(s->text, text))
                return s;
        }
    }
    if (R.nsigs == R.capsigs) {
        size_t cap = R.capsigs ? R.capsigs * 2 : 256;
        struct sig *n = realloc(R.sigs, cap * sizeof *n);
        if (!n)
            return NULL;
        R.sigs = n;
        R.capsigs = cap;
    }
    if (2 * (R.nsigs + 1) > R.capix) {
        size_t cap = R.capix ? R.capix * 2 : 1024;
        uint32_t *ix = calloc(cap, sizeof *ix);
        if (!ix)
            return NULL;
        free(R.sigix);
        R.sigix = ix;
        R.capix = cap;
        for (size_t i = 0; i < R.nsigs; i++)
            sig_index_put(i);
    }
    struct sig *s = &R.sigs[R.nsigs];
    memset(s, 0, sizeof *s);
    snprintf(s->text, sizeof s->text, "%s", text);
    s->hash = h;
    s->known = -1;
    sig_index_put(R.nsigs++);
    return s;
}

/* The count of minimisations that ended on known line kn */
static unsigned *kmin_of(int kn)
{
    if (kn < 0)
        return NULL;
    if ((size_t)kn >= R.nkmin) {
        size_t cap = (size_t)kn + 64;
        unsigned *n = realloc(R.kmin, cap * sizeof *n);
        if (!n)
            return NULL;
        memset(n + R.nkmin, 0, (cap - R.nkmin) * sizeof *n);
        R.kmin = n;
        R.nkmin = cap;
    }
    return &R.kmin[kn];
}

/* A frame that disagreed: again (noise?), then minimised and recorded */
static void disagreement(struct ns *n, const struct kf_case *c, struct row *row, const struct kf_outcome *m0,
                         const struct kf_outcome *k0, const struct live_obs *o0)
{
    static struct kf_frame fr[KD_MAX_SEGS];
    struct live_obs o;
    struct kf_outcome m, k;
    char why[200], key[200], key2[200], text[600];
    key_of(c, m0, k0, key, sizeof key);
    /* a run is written twice more: whether GRO merges depends on timing a
     * loaded machine can upset (docs/kernel-diff.md, "GRO runs") */
    int rc = 0;
    for (int rep = 0; rep < (nseg_of(c) > 1 ? 3 : 1) && rc == 0; rep++) {
        rc = judge(n, c, fr, &o, &m, &k, why, sizeof why);
        if (rc == 0) {
            key_of(c, &m, &k, key2, sizeof key2);
            if (strcmp(key, key2))
                break;
        }
    }
    if (rc != 0 || strcmp(key, key2)) {
        row->noise++;
        if (R.o->verbose)
            printf("  noise: frame %u disagreed (%s), then %s\n", c->index, key,
                   rc == 0 ? key2 : rc == 1 ? "agreed" : "did not run");
        return;
    }
    /* The frame as it came: a known line that has had its minimisations
     * explains it without more (the minimisation is most of the cost of a
     * disagreement; the line's pattern is matched against every mutation
     * of the frame, so one of them must be the line's) */
    kf_build(c, 0, &fr[0]);
    signature(c, &fr[0], key, text, sizeof text);
    int kn = kf_known_match(R.o->kernel, text);
    unsigned *km = R.o->minimise_all ? NULL : kmin_of(kn);
    struct kf_case mc = *c;
    int minimised = 0;
    if (km && *km >= KNOWN_MINIMISED) {
        R.counted_unminimised++;
    } else {
        if (!R.o->no_minimise && budget_left(c, key)) {
            minimise(n, &mc, key);
            minimised = 1;
        }
        kf_build(&mc, 0, &fr[0]);
        signature(&mc, &fr[0], key, text, sizeof text);
        kn = kf_known_match(R.o->kernel, text);
        if (minimised && (km = kmin_of(kn)))
            ++*km;
    }
    struct sig *sg = sig_find(text);
    if (kn >= 0) {
        row->known++;
        kf_known_seen(kn);
    } else {
        row->disagree++;
    }
    if (!sg)
        return;
    if (!sg->count++) {
        sg->seed = c->seed;
        sg->index = c->index;
        sg->known = kn;
        sg->minimised = minimised;
        if (kn < 0 || R.saved < R.o->max_saved || R.o->count == 1)   /* every unexplained one */
            save(n, c, &mc, sg);
        if (kn < 0 || R.o->verbose) {
            char label[1024];
            kf_case_label(c, label, sizeof label);
            printf("%s frame %u: %s\n    %s\n", kn >= 0 ? "known" : "DISAGREE", c->index, text, label);
            if (R.o->verbose) {
                dump_obs(stdout, o0);
                kf_dump_model(&mc, &fr[0], R.era, stdout);
            }
        }
    }
}

/* ---- namespaces ---- */

#define NS_KEYS 64
static unsigned ns_key(const struct kf_case *c)
{
    const struct kd_group *g = &c->g;
    return (unsigned)(g->v6 ? 1 : 0) | (g->napi ? 2u : 0) | (g->gro ? 4u : 0) | (unsigned)(g->level + 1) << 3 |
           (c->sysctl ? 32u : 0);
}

/* The sysctl profile 1: the ones the receive path decides by that a stock
 * namespace leaves at their defaults (and the model assumes): 127/8 routed
 * locally, a source that is one of the host's addresses accepted, segment
 * routing headers processed, ICMP echo to a broadcast or multicast
 * address answered */
static const char *const SYSCTL1[] = {
    "@sysctl net.ipv4.conf.all.route_localnet=1 net.ipv4.conf.all.accept_local=1 "
    "net.ipv4.icmp_echo_ignore_broadcasts=0",
    "@sysctl net.ipv6.conf.all.seg6_enabled=1 net.ipv6.conf.default.seg6_enabled=1 "
    "net.ipv6.conf." LIVE_TAP_NAME ".seg6_enabled=1",
};

static int ns_start(struct ns *n, const struct kf_case *first, const uint32_t *idx, size_t cnt)
{
    memset(n, 0, sizeof *n);
    kd_setup_of(&first->g, &n->s);
    n->s.pin = 1;
    /* the TAP's address of the other family too (an inner packet to it is
     * for this host whatever the underlay), and an own address on lo */
    if (first->g.v6)
        snprintf(n->s.cmds[n->s.ncmds++], LIVE_CMD_LEN, "ip addr add 10.0.0.2/24 dev " LIVE_TAP_NAME);
    else
        snprintf(n->s.cmds[n->s.ncmds++], LIVE_CMD_LEN, "ip addr add 2001:db8::2/64 dev " LIVE_TAP_NAME " nodad");
    /* the network of the peers of devices with their GRO off (KO_NOGRO) */
    snprintf(n->s.cmds[n->s.ncmds++], LIVE_CMD_LEN, "ip addr add 10.0.3.2/24 dev " LIVE_TAP_NAME);
    if (first->sysctl)
        for (size_t i = 0; i < sizeof SYSCTL1 / sizeof *SYSCTL1; i++)
            snprintf(n->s.cmds[n->s.ncmds++], LIVE_CMD_LEN, "%s", SYSCTL1[i]);
    snprintf(n->s.cmds[n->s.ncmds++], LIVE_CMD_LEN, "ip addr add 10.0.9.9/32 dev lo");
    snprintf(n->s.cmds[n->s.ncmds++], LIVE_CMD_LEN, "ip addr add 2001:db8:9::9/128 dev lo nodad");
    for (size_t i = 0; i < cnt; i++) {
        struct kf_case c;
        kf_case_of(R.o, idx[i], &c);
        if (dev_index(n, &c) >= 0 || n->ndev >= LIVE_MAX_DEVS)
            continue;
        if (kd_setup_add_dev(&n->s, &c.g) < 0)
            break;
        n->dev[n->ndev].tun = c.g.tun;
        n->dev[n->ndev].payload = c.g.payload;
        n->dev[n->ndev].opts = c.g.opts;
        n->ndev++;
    }
    int rc = live_session_start(&n->ss, &R.tools, &n->s, 24 * 3600);
    n->up = rc == 0;
    if (rc)
        printf("*** namespace \"%s\" %s: %s ***\n", n->s.name, rc > 0 ? "skipped" : "FAILED", n->ss.msg);
    return rc;
}

static void note_skip(const struct live_obs *o)
{
    for (int k = 0; k < R.nskipmsg; k++)
        if (!strcmp(R.skipmsg[k], o->msg))
            return;
    if (R.nskipmsg < 16)
        snprintf(R.skipmsg[R.nskipmsg++], sizeof R.skipmsg[0], "%s", o->msg);
}

static void run_ns(const uint32_t *idx, size_t cnt)
{
    static struct ns n;
    static struct kf_frame fr[KD_MAX_SEGS];
    struct kf_case c;
    kf_case_of(R.o, idx[0], &c);
    int rc = ns_start(&n, &c, idx, cnt);
    double t0 = now_s();
    for (size_t i = 0; i < cnt; i++) {
        kf_case_of(R.o, idx[i], &c);
        struct row *row = row_of(&c);
        row->frames++;
        if (rc) {
            if (rc > 0)
                row->skipped++;
            else
                row->errors++;
            continue;
        }
        struct live_obs o;
        struct kf_outcome m, k;
        char why[200];
        int j = judge(&n, &c, fr, &o, &m, &k, why, sizeof why);
        if (j == -1 && n.up)           /* once more: a loaded machine can miss one */
            j = judge(&n, &c, fr, &o, &m, &k, why, sizeof why);
        if (R.o->cases)                /* a listed case: every line says how it went */
            printf("[%3u] %s | %s\n", c.index, kf_case_text(c.index),
                   j == 1 ? "agree" : j == 2 ? "MODEL UNKNOWN" : j == 0 || j == -3 ? why : j == -2 ? "skipped" : "error");
        else if (R.o->verbose > 1 || (R.o->verbose && R.o->count <= 4)) {
            char label[1024];
            kf_case_label(&c, label, sizeof label);
            printf("[%u] %s | %s\n", c.index, label, j == 1 ? "agree" : j == 2 ? "model unknown" : why);
        }
        if (++R.frames_done % PROGRESS_EVERY == 0 && !R.o->cases) {
            double t = now_s() - R.t_start;
            unsigned dis = 0, kn = 0;
            for (int r = 0; r < R.nrows; r++)
                dis += R.rows[r].disagree, kn += R.rows[r].known;
            printf("progress: %u of %u frames in %.0f s (%.1f frames/s; the last %d: %.1f/s), %u known, %u "
                   "unexplained\n", R.frames_done, R.frames_total, t, t > 0 ? R.frames_done / t : 0.0,
                   PROGRESS_EVERY, PROGRESS_EVERY / (now_s() - R.t_progress), kn, dis);
            R.t_progress = now_s();
        }
        switch (j) {
        case 1: row->agree++; break;
        case 2: row->unknown++; break;
        case 0: disagreement(&n, &c, row, &m, &k, &o); break;
        case -2: row->skipped++; note_skip(&o); break;
        case -3: row->skipped++; R.oops_skipped++; break;
        default:
            row->errors++;
            printf("*** HARNESS ERROR frame %u: %s ***\n", c.index, o.msg[0] ? o.msg : n.ss.msg);
            if (!n.up) {
                live_session_end(&n.ss);
                if ((rc = ns_start(&n, &c, idx + i, cnt - i)))
                    printf("*** namespace could not be made again ***\n");
            }
            break;
        }
    }
    R.t_kernel += now_s() - t0;
    if (n.up || n.ss.pid)
        live_session_end(&n.ss);
}

/* ---- the run ---- */

static void print_table(FILE *f)
{
    fprintf(f, "%-14s %8s %8s %8s %9s %9s %7s %7s %8s\n", "receiver", "frames", "agree", "unknown", "disagree",
            "known", "noise", "errors", "skipped");
    struct row t;
    memset(&t, 0, sizeof t);
    for (int r = 0; r < R.nrows; r++) {
        const struct row *x = &R.rows[r];
        fprintf(f, "%-14s %8u %8u %8u %9u %9u %7u %7u %8u\n", x->name, x->frames, x->agree, x->unknown,
                x->disagree, x->known, x->noise, x->errors, x->skipped);
        t.frames += x->frames, t.agree += x->agree, t.unknown += x->unknown, t.disagree += x->disagree;
        t.known += x->known, t.noise += x->noise, t.errors += x->errors, t.skipped += x->skipped;
    }
    fprintf(f, "%-14s %8u %8u %8u %9u %9u %7u %7u %8u\n", "all", t.frames, t.agree, t.unknown, t.disagree, t.known,
            t.noise, t.errors, t.skipped);
}

/* The frames of a namespace by device, in index order within each */
static void sort_by_device(const struct kf_opts *o, uint32_t *idx, size_t n)
{
    uint32_t *dk = malloc(sizeof *dk * n);
    if (!dk)
        return;
    for (size_t i = 0; i < n; i++) {
        struct kf_case c;
        kf_case_of(o, idx[i], &c);
        dk[i] = (uint32_t)c.g.tun << 24 | (uint32_t)c.g.payload << 16 | c.g.opts;
    }
    for (size_t i = 1; i < n; i++)      /* stable: an insertion sort by runs of equal keys is cheap */
        for (size_t j = i; j > 0 && dk[j - 1] > dk[j]; j--) {
            uint32_t t = dk[j];
            dk[j] = dk[j - 1];
            dk[j - 1] = t;
            t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    free(dk);
}

/* How many of these frames (sorted by device) use at most maxdev devices */
static size_t devices_prefix(const struct kf_opts *o, const uint32_t *idx, size_t n, int maxdev)
{
    uint32_t last = 0;
    int devs = 0;
    for (size_t i = 0; i < n; i++) {
        struct kf_case c;
        kf_case_of(o, idx[i], &c);
        uint32_t k = (uint32_t)c.g.tun << 24 | (uint32_t)c.g.payload << 16 | c.g.opts;
        if (!i || k != last) {
            if (devs == maxdev)
                return i;
            devs++;
            last = k;
        }
    }
    return n;
}

void kf_case_of(const struct kf_opts *o, uint32_t i, struct kf_case *c)
{
    if (o->cases)
        *c = o->cases[i];
    else
        kf_generate(o->seed, i, o->host_tunnels, c);
}

/* Frame i of the run: from the list, or first + i */
static uint32_t frame_at(const struct kf_opts *o, uint32_t i)
{
    return o->list ? o->list[i] : o->first + i;
}

/* A digest of the model's outcomes, frame after frame (the fast and the
 * general path must give the same: kfuzz-fast-same) */
static uint64_t digest_add(uint64_t h, int64_t v)
{
    return (h ^ (uint64_t)v) * 0x100000001b3ull;
}

static uint64_t outcome_digest(uint64_t h, const struct kf_outcome *m)
{
    const struct kd_outcome *o = &m->o;
    const int64_t f[] = { o->frames, o->delivered, o->at_dev, o->cls, o->merges, o->merges_all,
                          m->unknown, m->in6, m->nosock, m->l4proto, m->bytes };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        h = digest_add(h, f[i]);
    for (int i = 0; i < LIVE_N_CNT; i++)
        h = digest_add(h, o->cnt[i]);
    return h;
}

/* --model-only: generate, build and model every frame, no kernel (the
 * cost of the fuzzer's own side, and a check that every recipe builds) */
static int model_only(const struct kf_opts *o)
{
    static struct kf_frame fr[KD_MAX_SEGS];
    unsigned built = 0, unknown = 0, runs = 0;
    uint64_t digest = 0xcbf29ce484222325ull;
    struct { const char *why; unsigned n; } why[32];
    int nwhy = 0;
    double t0 = now_s();
    for (uint32_t i = 0; i < o->count; i++) {
        struct kf_case c;
        struct kf_outcome m;
        kf_case_of(o, frame_at(o, i), &c);
        int nseg = c.nseg > 1 ? c.nseg : 1, ok = 1;
        for (int s = 0; s < nseg; s++) {
            kf_build(&c, s, &fr[s]);
            ok &= fr[s].ok;
        }
        if (!ok)
            continue;
        built++;
        runs += nseg > 1;
        if (nseg > 1) {
            kf_model_run(&c, fr, o->model_era ? o->model_era : "6.12", &m);
        } else {
            kf_model(&c, fr, o->model_era ? o->model_era : "6.12", &m);
            if (m.unknown) {               /* where the model stopped knowing */
                const char *w = kf_model_why_unknown();
                int j = 0;
                while (j < nwhy && strcmp(why[j].why, w))
                    j++;
                if (j == nwhy && nwhy < 32) {
                    why[nwhy].why = w;
                    why[nwhy++].n = 0;
                }
                if (j < 32)
                    why[j].n++;
            }
        }
        unknown += m.unknown != 0;
        digest = outcome_digest(digest_add(digest, i), &m);
        if (o->verbose && !o->cases) {   /* each frame's recipe, to find one by its label */
            char lab[512];
            kf_case_label(&c, lab, sizeof lab);
            printf("[%u] %s\n", frame_at(o, i), lab);
        }
        if (o->verbose && o->cases) {  /* what the model does with each listed case */
            char out[300];
            struct kd_case one;
            memset(&one, 0, sizeof one);
            one.nseg = (uint8_t)nseg_of(&c);
            kd_outcome_text(&one, &m.o, out, sizeof out);
            printf("[%3u] %s : %s\n", i, kf_case_text(i), m.unknown ? "unknown" : out);
            kf_dump_model(&c, &fr[0], o->model_era ? o->model_era : "6.12", stdout);
        }
    }
    double t = now_s() - t0;
    printf("model only: %u frames of seed %llu, %u built (%u runs), %u unknown to the model, %.2f s: %.0f frames/s\n",
           o->count, (unsigned long long)o->seed, built, runs, unknown, t, t > 0 ? built / t : 0.0);
    printf("model outcomes: digest %016llx\n", (unsigned long long)digest);
    kf_fast_report(stdout);
    for (int j = 0; j < nwhy && o->verbose; j++)
        printf("  unknown at %-28s %u single frames\n", why[j].why, why[j].n);
    if (o->cases && unknown)           /* a listed case stands for a branch the model decides */
        printf("kfuzz cases: %u of them unknown to the model: FAILED\n", unknown);
    return built == o->count && !(o->cases && unknown) ? 0 : 1;
}

int kf_run_here(const struct kf_opts *o)
{
    if (o->model_only)
        return model_only(o);
    memset(&R, 0, sizeof R);
    R.o = o;
    R.tools.bpf_obj = o->bpf;
    if (o->known && kf_known_load(o->known)) {
        perror(o->known);
        return 1;
    }
    char err[200];
    if (geteuid() != 0) {
        printf("*** SKIP: csc-kfuzz on %s NOT RUN: not root ***\n", o->kernel);
        return 77;
    }
    if (live_find_tools(&R.tools) || live_preflight(&R.tools, err, sizeof err)) {
        printf("*** SKIP: csc-kfuzz on %s NOT RUN: %s ***\n", o->kernel, err);
        return 77;
    }
    struct utsname u;
    uname(&u);
    snprintf(R.release, sizeof R.release, "%s", u.release);
    R.era = live_era_for_release(R.release);
    if (o->cases)
        printf("csc-kfuzz on %s (kernel %s, model era %s): %u listed cases\n", o->kernel, R.release, R.era,
               o->count);
    else if (o->list)
        printf("csc-kfuzz on %s (kernel %s, model era %s): seed %llu, %u frames from a list\n", o->kernel, R.release,
               R.era, (unsigned long long)o->seed, o->count);
    else
        printf("csc-kfuzz on %s (kernel %s, model era %s): seed %llu, frames %u..%u\n", o->kernel, R.release, R.era,
               (unsigned long long)o->seed, o->first, o->first + o->count - 1);
    fflush(stdout);
    /* the frames of each namespace, in index order */
    uint8_t *key = malloc(o->count ? o->count : 1);
    uint32_t *idx = malloc(sizeof *idx * (o->count ? o->count : 1));
    if (!key || !idx)
        return 1;
    for (uint32_t i = 0; i < o->count; i++) {
        struct kf_case c;
        kf_case_of(o, frame_at(o, i), &c);
        key[i] = (uint8_t)ns_key(&c);
    }
    double t0 = now_s();
    R.t_start = R.t_progress = t0;
    R.frames_total = o->count;
    for (unsigned k = 0; k < NS_KEYS; k++) {
        size_t n = 0;
        for (uint32_t i = 0; i < o->count; i++)
            if (key[i] == k)
                idx[n++] = frame_at(o, i);
        /* a namespace holds at most LIVE_MAX_DEVS devices: the generator's
         * receivers stay well under it. Each device's frames go together
         * (libcsclive reads the counters of the case's device only, and a
         * change of device costs a snapshot) */
        if (n) {
            sort_by_device(o, idx, n);
            /* a namespace holds LIVE_MAX_DEVS devices: more, and the frames
             * of the next devices (they come together) go to another */
            size_t at = 0;
            while (at < n) {
                size_t end = devices_prefix(o, idx + at, n - at, LIVE_MAX_DEVS);
                run_ns(idx + at, end);
                at += end;
            }
        }
    }
    double total = now_s() - t0;
    free(key);
    free(idx);
    printf("\ncsc-kfuzz on %s (kernel %s, model era %s), seed %llu, %u frames:\n", o->kernel, R.release, R.era,
           (unsigned long long)o->seed, o->count);
    print_table(stdout);
    if (o->summary) {
        FILE *f = fopen(o->summary, "w");
        if (f) {
            fprintf(f, "kernel %s\nrelease %s\nera %s\nseed %llu\nframes %u\nseconds %.1f\n", o->kernel, R.release,
                    R.era, (unsigned long long)o->seed, o->count, total);
            print_table(f);
            fclose(f);
        }
    }
    unsigned newsigs = 0;
    for (size_t i = 0; i < R.nsigs; i++)
        newsigs += R.sigs[i].known < 0;
    printf("\n%zu distinct disagreements (%u not in the known list)", R.nsigs, newsigs);
    if (R.counted_unminimised)
        printf(", %u frames counted unminimised by a known line already minimised %d times",
               R.counted_unminimised, KNOWN_MINIMISED);
    printf(":\n");
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < R.nsigs; i++) {
            const struct sig *s = &R.sigs[i];
            if ((s->known < 0) != (pass == 0))
                continue;
            printf("  %s %5u x %s%s\n        first: --seed %llu --frame %u%s%s%s%s\n", s->known < 0 ? "NEW  " : "known",
                   s->count, s->text, s->minimised ? "" : " (not minimised)", (unsigned long long)s->seed, s->index,
                   s->file[0] ? "  " : "", s->file, s->known >= 0 ? "\n        " : "",
                   s->known >= 0 ? kf_known_why(s->known) : "");
        }
    for (int k = 0; k < R.nskipmsg; k++)
        printf("*** SKIPPED (not in this kernel): %s ***\n", R.skipmsg[k]);
    if (R.oops_skipped)
        printf("*** SKIPPED %u frames, not written (the kernel would crash): %s ***\n", R.oops_skipped, R.oops_why);
    unsigned ran = 0, errors = 0, unknown = 0;
    for (int r = 0; r < R.nrows; r++) {
        ran += R.rows[r].frames - R.rows[r].skipped - R.rows[r].errors;
        errors += R.rows[r].errors;
        unknown += R.rows[r].unknown;
    }
    kf_known_report_unseen(o->kernel);
    printf("\n%u frames written (%u runs with the repeats and %u minimisation runs) in %.1f s: %.0f frames/s "
           "(kernel side %.1f s); %u reports saved%s%s\n", ran, R.runs_total, R.runs_minimise, total,
           total > 0 ? ran / total : 0.0, R.t_kernel, R.saved, o->out ? " in " : "", o->out ? o->out : "");
    kf_fast_report(stdout);            /* the model's frames: from plans, by the general path */
    if (!o->cases)
        printf("time: %u frames in %.1f s: %.1f frames/s\n", o->count, total, total > 0 ? o->count / total : 0.0);
    free(R.sigs);
    free(R.sigix);
    free(R.kmin);
    kf_known_free();
    if (!ran)
        return 77;
    if (o->cases)                      /* listed cases: each must agree, unknown included */
        printf("kfuzz cases on %s: %u run, %u unknown to the model, %zu disagreements, %u errors: %s\n",
               o->kernel, ran, unknown, R.nsigs, errors,
               unknown || R.nsigs || errors ? "NOT ALL AGREE" : "all agree");
    return newsigs || errors || (o->cases && (unknown || R.nsigs)) ? 1 : 0;
}

/*
 * kdiff_main.c - csc-kdiff: the live-kernel differential test
 * (docs/kernel-diff.md).
 *
 *   csc-kdiff [--bpf OBJ] [--filter TEXT] [--list] [--strict-gro] [-v]
 *
 * For every device setup of the case table, a child process enters a
 * private network namespace, builds the setup (kdiff_ns.c), writes each
 * case's frames to the TAP and sends back the counter deltas. The driver
 * runs the same frames through csc_analyze() with the matching
 * configuration and compares: delivered or dropped, the layer class of the
 * drop, the frames that reached vx0, and every counter the model names
 * against the kernel's deltas. One line per case, then
 * "kernel differential: N cases, M agree". Exit 0 when all agree, 1 on any
 * disagreement or harness error, 77 (skipped) where it cannot run: not
 * root, no /dev/net/tun, no iproute2, no namespaces or no VXLAN.
 */
#include "kdiff.h"

#include "csumcheck/csumcheck.h"
#include "csumcheck/gro.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_CASES 2048
#define SKIP_CODE 77

static struct kd_case CASES[MAX_CASES];
static struct kd_rec RECS[MAX_CASES];
static uint8_t HAVE[MAX_CASES];
static uint8_t SELECTED[MAX_CASES];

/* ---- model side ---- */

enum kd_class {
    KC_DELIVERED = 0, KC_OUTER_IP, KC_OUTER_UDP, KC_VXLAN, KC_INNER_IP, KC_INNER_L4,
    KC_INNER_SILENT, KC_SILENT, KC_UNKNOWN, KC_MIXED
};

static const char *class_name(int k)
{
    static const char *const t[] = { "delivered", "outer-ip", "outer-udp", "vxlan", "inner-ip",
                                     "inner-l4", "silent-after-vx0", "silent", "unknown", "mixed" };
    return k >= 0 && k <= KC_MIXED ? t[k] : "?";
}

/* csc_counter -> the observation that carries it */
static const int COUNTER_OBS[CSC_C__COUNT] = {
    [CSC_C_IP_IN_CSUM_ERRORS] = O_IP_CSUM, [CSC_C_IP_IN_HDR_ERRORS] = O_IP_INHDR,
    [CSC_C_IP_IN_TRUNCATED] = O_IP_TRUNC, [CSC_C_UDP_IN_CSUM_ERRORS] = O_UDP_CSUM,
    [CSC_C_UDP_IN_ERRORS] = O_UDP_INERR, [CSC_C_UDP_NO_PORTS] = O_UDP_NOPORTS,
    [CSC_C_UDP6_IN_CSUM_ERRORS] = O_UDP6_CSUM, [CSC_C_UDP6_IN_ERRORS] = O_UDP6_INERR,
    [CSC_C_UDP6_NO_PORTS] = O_UDP6_NOPORTS, [CSC_C_TCP_IN_CSUM_ERRORS] = O_TCP_CSUM,
    [CSC_C_TCP_IN_ERRS] = O_TCP_INERRS, [CSC_C_ICMP_IN_CSUM_ERRORS] = O_ICMP_CSUM,
    [CSC_C_ICMP_IN_ERRORS] = O_ICMP_INERR, [CSC_C_ICMP6_IN_CSUM_ERRORS] = O_ICMP6_CSUM,
    [CSC_C_ICMP6_IN_ERRORS] = O_ICMP6_INERR, [CSC_C_IP6_IN_HDR_ERRORS] = O_IP6_INHDR,
    [CSC_C_IP6_IN_TRUNCATED] = O_IP6_TRUNC, [CSC_C_DEV_RX_ERRORS] = O_VX_RXERR,
    [CSC_C_DEV_RX_CRC_ERRORS] = O_VX_RXCRC, [CSC_C_DEV_RX_FRAME_ERRORS] = O_VX_RXFRAME,
};

struct outcome {
    int frames;
    int delivered;            /* frames delivered to the inner socket */
    int at_vx0;               /* frames (segments) that entered vx0 */
    int cls;                  /* single frame: enum kd_class */
    int64_t cnt[O__COUNT];    /* counter deltas (only the compared ones) */
    int skbs_vx0;             /* kernel: vx0 rx_packets */
    int merges;               /* kernel: segments merged before vx0; model: engine */
    char note[160];
};

/* perturb: a deliberately wrong configuration (report swapped, remcsumrx
 * and udp6zerocsumrx inverted), for the specificity figure: how many
 * agreeing cases would disagree had the model been asked the wrong
 * question. */
static void model_config(const struct kd_case *c, struct csc_config *cfg, int perturb)
{
    static const char *const rep[] = { "none", "partial:outer", "partial:inner", "unnecessary:0",
                                       "unnecessary:1" };
    static const char *const wrong[] = { "unnecessary:1", "none", "none", "none", "unnecessary:0" };
    csc_config_default(cfg);
    csc_report_parse(perturb ? wrong[c->report] : rep[c->report], &cfg->rx);
    csc_era_by_name("modern", &cfg->era);
    cfg->gro_nic = c->g.napi != 0;      /* the TAP runs GRO only with IFF_NAPI */
    cfg->gro_tunnel = true;             /* vx0 receives through gro_cells */
    cfg->remcsum_rx = c->g.remcsum != 0;
    cfg->remcsum_rx_given = c->g.remcsum != 0 || c->g.rcsum_off_explicit != 0;
    cfg->remcsum_nopartial = c->g.nopartial != 0;
    cfg->udp6_zero_csum_rx = c->g.u6z != 0;
    cfg->inner_socket = !c->nosock;
    if (perturb) {
        cfg->remcsum_rx = !cfg->remcsum_rx;
        cfg->udp6_zero_csum_rx = !cfg->udp6_zero_csum_rx;
    }
}

static int model_class(const struct csc_result *r)
{
    const struct csc_kernel *k = &r->kernel;
    if (k->verdict == CSC_K_ACCEPT)
        return KC_DELIVERED;
    if (k->verdict != CSC_K_DROP || k->drop_layer >= r->nlayers)
        return KC_UNKNOWN;
    int vx = -1;
    for (int i = 0; i < r->nlayers; i++)
        if (r->layers[i].proto == CSC_P_VXLAN) {
            vx = i;
            break;
        }
    int d = k->drop_layer;
    uint8_t p = r->layers[d].proto;
    if (vx < 0)
        return KC_UNKNOWN;
    if (d == vx)
        return KC_VXLAN;
    if (d < vx)
        return p == CSC_P_UDP ? KC_OUTER_UDP : (p == CSC_P_IPV4 || p == CSC_P_IPV6) ? KC_OUTER_IP : KC_UNKNOWN;
    if (p == CSC_P_TCP || p == CSC_P_UDP)
        return KC_INNER_L4;
    return KC_INNER_IP;
}

static void model_run(const struct kd_case *c, struct outcome *m, int perturb)
{
    static struct csc_result r;
    static struct csc_gro gro;
    struct csc_config cfg;
    struct csc_gro_cfg gcfg;
    uint8_t buf[2048];
    memset(m, 0, sizeof *m);
    model_config(c, &cfg, perturb);
    csc_gro_cfg_default(&gcfg);
    gcfg.flush_timeout_us = c->g.gro ? KD_GRO_TIMEOUT_NS / 1000 : 0;
    gcfg.poll_gap_us = 10;              /* every write is a NAPI poll of its own */
    csc_gro_init(&gro, &gcfg);
    m->frames = c->nseg;
    m->cls = -1;
    for (int s = 0; s < c->nseg; s++) {
        struct kd_frame_info fi;
        size_t n = kd_build(c, s, buf, sizeof buf, &fi);
        struct csc_frame f = { buf, (uint32_t)n, (uint32_t)n, CSC_LINK_ETHERNET, CSC_DIR_IN };
        csc_analyze(&cfg, &f, &r);
        int cls = model_class(&r);
        if (cls == KC_DELIVERED)
            m->delivered++;
        if (r.kernel.ndevs >= 2)
            m->at_vx0++;
        m->cls = m->cls < 0 || m->cls == cls ? cls : KC_MIXED;
        for (unsigned k = 0; k < CSC_C__COUNT; k++)
            if (r.kernel.counters & (1u << k))
                m->cnt[COUNTER_OBS[k]]++;
        struct csc_gro_decision d;
        csc_gro_feed(&gro, &f, &r, (uint64_t)s, (uint64_t)s * 50, &d);
        for (int i = 0; i < d.n; i++)
            if (d.fate[i].kind == CSC_P_NONE && d.fate[i].merged)
                m->merges++;
    }
    csc_gro_finish(&gro);
}

/* ---- kernel side ---- */

static int kernel_class(const struct kd_case *c, const int64_t *d, int delivered)
{
    if (delivered)
        return KC_DELIVERED;
    int vx = d[O_VX_RXP] > 0;
    int v6 = c->g.v6;
    if (d[O_IP_INHDR] || d[O_IP_CSUM] || d[O_IP6_INHDR])
        return vx ? KC_INNER_IP : KC_OUTER_IP;
    if (!vx && (d[O_UDP_INERR] || d[O_UDP_CSUM] || d[O_UDP6_INERR] || d[O_UDP6_CSUM]))
        return KC_OUTER_UDP;
    if (d[O_VX_RXERR] || d[O_VX_RXFRAME] || d[O_VX_RXDROP])
        return KC_VXLAN;
    if (!vx && d[v6 ? O_UDP6_INDG : O_UDP_INDG] > 0)
        return KC_VXLAN;                 /* consumed by the VXLAN socket, no vx0 packet */
    if (vx && c->nosock && (d[O_UDP_NOPORTS] || d[O_UDP6_NOPORTS] || d[O_TCP_INSEGS]))
        return KC_INNER_L4;              /* no listener: NoPorts, or TCP answers with a reset */
    if (vx && (d[O_TCP_INERRS] || d[O_TCP_CSUM] ||
               d[c->inner6 ? O_UDP6_INERR : O_UDP_INERR] || d[c->inner6 ? O_UDP6_CSUM : O_UDP_CSUM]))
        return KC_INNER_L4;
    return vx ? KC_INNER_SILENT : KC_SILENT;
}

static void kernel_outcome(const struct kd_case *c, const struct kd_rec *rec, struct outcome *k)
{
    const int64_t *d = rec->d;
    struct kd_frame_info fi;
    uint8_t buf[2048];
    memset(k, 0, sizeof *k);
    kd_build(c, 0, buf, sizeof buf, &fi);
    k->frames = c->nseg;
    for (unsigned i = 0; i < CSC_C__COUNT; i++)
        k->cnt[COUNTER_OBS[i]] = d[COUNTER_OBS[i]];
    /* Segments through vx0 from its byte counter: a merged super-packet is
     * one rx_packet carrying the payload of all its segments. */
    int64_t payload = c->tcp ? KD_TCP_PAYLOAD : KD_UDP_PAYLOAD;
    int64_t hdr = (int64_t)fi.inner_l3_len - payload;
    k->skbs_vx0 = (int)d[O_VX_RXP];
    int64_t segs = d[O_VX_RXP] > 0 ? (d[O_VX_RXB] - d[O_VX_RXP] * hdr) / payload : 0;
    if (d[O_VX_RXP] > 0 && (d[O_VX_RXB] - d[O_VX_RXP] * hdr) % payload)
        snprintf(k->note, sizeof k->note, "vx0 rx_bytes %lld not a whole number of segments",
                 (long long)d[O_VX_RXB]);
    k->at_vx0 = (int)segs;
    k->merges = (int)(segs - d[O_VX_RXP]);
    if (c->tcp) {
        /* A segment that reached TCP and was not counted in InErrs passed
         * the checksum and met the listener. Each TCP drop is one segment
         * (a segment that fails a check is never merged). */
        int64_t ok = segs - d[O_TCP_INERRS];
        if (d[O_TCP_INSEGS] < d[O_VX_RXP] && !k->note[0])
            snprintf(k->note, sizeof k->note, "TcpInSegs %lld < vx0 rx_packets %lld (merged at vx0)",
                     (long long)d[O_TCP_INSEGS], (long long)d[O_VX_RXP]);
        if (c->nseg == 1)
            ok = d[O_TCP_INSEGS] == 1 && d[O_TCP_INERRS] == 0 && segs == 1;
        k->delivered = (int)(ok < 0 || c->nosock ? 0 : ok);
    } else {
        k->delivered = (int)d[c->inner6 ? O_SOCK_UDP6 : O_SOCK_UDP];
    }
    k->cls = c->nseg == 1 ? kernel_class(c, d, k->delivered) : -1;
}

/* ---- comparison and printing ---- */

static void counters_text(const int64_t *cnt, char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < CSC_C__COUNT && o < n; i++) {
        int ob = COUNTER_OBS[i];
        if (!cnt[ob])
            continue;
        if (cnt[ob] == 1)
            o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? "," : "", csc_counter_name(i));
        else
            o += (size_t)snprintf(buf + o, n - o, "%s%lldx%s", o ? "," : "", (long long)cnt[ob],
                                  csc_counter_name(i));
    }
    if (!o)
        snprintf(buf, n, "-");
}

static void outcome_text(const struct kd_case *c, const struct outcome *x, char *buf, size_t n)
{
    char cnt[200];
    counters_text(x->cnt, cnt, sizeof cnt);
    if (c->nseg == 1) {
        snprintf(buf, n, "%s {%s}", x->cls == KC_DELIVERED ? "accept" : class_name(x->cls), cnt);
        return;
    }
    snprintf(buf, n, "%d/%d delivered, %d at vx0 {%s}", x->delivered, x->frames, x->at_vx0, cnt);
}

static int compare(const struct kd_case *c, const struct outcome *m, const struct outcome *k,
                   char *why, size_t n)
{
    why[0] = 0;
    if (m->delivered != k->delivered)
        snprintf(why, n, "delivered: model %d, kernel %d", m->delivered, k->delivered);
    else if (c->nseg == 1 && m->cls != k->cls)
        snprintf(why, n, "drop layer: model %s, kernel %s", class_name(m->cls), class_name(k->cls));
    else if (m->at_vx0 != k->at_vx0)
        snprintf(why, n, "segments at vx0: model %d, kernel %d", m->at_vx0, k->at_vx0);
    else {
        for (unsigned i = 0; i < CSC_C__COUNT; i++) {
            int ob = COUNTER_OBS[i];
            if (m->cnt[ob] != k->cnt[ob]) {
                snprintf(why, n, "%s: model %lld, kernel %lld", csc_counter_name(i),
                         (long long)m->cnt[ob], (long long)k->cnt[ob]);
                break;
            }
        }
    }
    return why[0] == 0;
}

static void dump_model(const struct kd_case *c, int seg)
{
    static struct csc_result r;
    struct csc_config cfg;
    uint8_t buf[2048];
    model_config(c, &cfg, 0);
    size_t n = kd_build(c, seg, buf, sizeof buf, NULL);
    struct csc_frame f = { buf, (uint32_t)n, (uint32_t)n, CSC_LINK_ETHERNET, CSC_DIR_IN };
    csc_analyze(&cfg, &f, &r);
    const struct csc_kernel *k = &r.kernel;
    printf("        model seg %d: %s", seg, csc_kverdict_name(k->verdict));
    if (k->drop_layer < r.nlayers)
        printf(" at layer %u (%s) %s", k->drop_layer, csc_proto_name(r.layers[k->drop_layer].proto),
               csc_drop_name(k->drop_reason));
    printf("\n");
    for (int i = 0; i < k->ndevs; i++)
        printf("          dev %s entry %s/%u gro %s\n", csc_dev_name(k->devs[i].kind),
               csc_ip_summed_name(k->devs[i].entry.ip_summed), k->devs[i].entry.csum_level,
               k->devs[i].gro_ran ? csc_gro_reason_name(k->devs[i].gro_reason) : "not run");
    for (int i = 0; i < r.nlayers; i++) {
        const struct csc_layer *l = &r.layers[i];
        if (l->verdict == CSC_V_NA)
            continue;
        printf("          L%d %-5s %-8s k:%s/%s ok=%u\n", i, csc_proto_name(l->proto),
               csc_verdict_name(l->verdict), csc_method_name(l->k.method), csc_path_name(l->k.path),
               l->k.ok);
    }
}

static void dump_kernel(const struct kd_rec *rec)
{
    printf("        kernel deltas:");
    int any = 0;
    for (int i = 0; i < O__COUNT; i++)
        if (rec->d[i]) {
            printf(" %s=%lld", kd_obs_name((unsigned)i), (long long)rec->d[i]);
            any = 1;
        }
    printf("%s (settled in %u us)\n", any ? "" : " none", rec->settle_us);
}

/* ---- running the groups ---- */

static void run_group(const struct kd_tools *t, const size_t *idx, size_t n, int *errors)
{
    int pfd[2];
    if (pipe(pfd) < 0) {
        perror("pipe");
        exit(1);
    }
    fflush(stdout);
    fflush(stderr);
    pid_t p = fork();
    if (p < 0) {
        perror("fork");
        exit(1);
    }
    if (p == 0) {
        close(pfd[0]);
        alarm(90);                      /* a stuck setup ends as harness errors, not a hang */
        char err[200];
        int st = kd_setup(t, &CASES[idx[0]].g, err, sizeof err);
        for (size_t i = 0; i < n; i++) {
            struct kd_rec rec;
            if (st) {
                memset(&rec, 0, sizeof rec);
                rec.idx = CASES[idx[i]].id;
                rec.status = st > 0 ? KD_SKIPPED : KD_ERROR;
                snprintf(rec.msg, sizeof rec.msg, "%s", err);
            } else {
                kd_run(&CASES[idx[i]], &rec);
            }
            if (write(pfd[1], &rec, sizeof rec) != (ssize_t)sizeof rec)
                _exit(3);
        }
        _exit(0);
    }
    close(pfd[1]);
    struct kd_rec rec;
    ssize_t r;
    while ((r = read(pfd[0], &rec, sizeof rec)) == (ssize_t)sizeof rec)
        if (rec.idx >= 0 && rec.idx < MAX_CASES) {
            RECS[rec.idx] = rec;
            HAVE[rec.idx] = 1;
        }
    close(pfd[0]);
    int st = 0;
    while (waitpid(p, &st, 0) < 0 && errno == EINTR) {
    }
    for (size_t i = 0; i < n; i++)
        if (!HAVE[idx[i]]) {
            RECS[idx[i]].status = KD_ERROR;
            snprintf(RECS[idx[i]].msg, sizeof RECS[idx[i]].msg, "namespace child ended (status 0x%x)", st);
            HAVE[idx[i]] = 1;
            (*errors)++;
        }
}

static int preflight(const struct kd_tools *t, char *err, size_t n)
{
    int pfd[2];
    if (pipe(pfd) < 0)
        return -1;
    fflush(stdout);
    pid_t p = fork();
    if (p == 0) {
        close(pfd[0]);
        char e[200] = "";
        int r = kd_preflight(t, e, sizeof e);
        if (write(pfd[1], e, sizeof e) < 0)
            _exit(2);
        _exit(r ? 1 : 0);
    }
    close(pfd[1]);
    memset(err, 0, n);
    if (read(pfd[0], err, n - 1) < 0)
        err[0] = 0;
    close(pfd[0]);
    int st = 0;
    waitpid(p, &st, 0);
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int skip(const char *why)
{
    printf("\n*** SKIP: kernel differential test NOT RUN: %s ***\n", why);
    printf("*** (needs root, /dev/net/tun, iproute2, network namespaces and the vxlan module) ***\n\n");
    fflush(stdout);
    return SKIP_CODE;
}

int main(int argc, char **argv)
{
    struct kd_tools tools;
    memset(&tools, 0, sizeof tools);
    const char *filter = NULL;
    int list = 0, strict_gro = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--bpf") && i + 1 < argc)
            tools.bpf_obj = argv[++i];
        else if (!strcmp(argv[i], "--filter") && i + 1 < argc)
            filter = argv[++i];
        else if (!strcmp(argv[i], "--list"))
            list = 1;
        else if (!strcmp(argv[i], "-v"))
            tools.verbose = 1;
        else if (!strcmp(argv[i], "--strict-gro"))
            strict_gro = 1;
        else {
            fprintf(stderr, "usage: csc-kdiff [--bpf OBJ] [--filter TEXT] [--list] [--strict-gro] [-v]\n");
            return 2;
        }
    }
    if (tools.bpf_obj && access(tools.bpf_obj, R_OK) != 0)
        tools.bpf_obj = NULL;
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
        SELECTED[i] = !filter || strstr(label, filter) != NULL;
        nsel += SELECTED[i];
        if (list && SELECTED[i])
            printf("[%4zu] %s\n", i, label);
    }
    if (list) {
        printf("%zu cases\n", nsel);
        return 0;
    }

    if (geteuid() != 0)
        return skip("not root");
    if (access("/dev/net/tun", R_OK | W_OK) != 0)
        return skip("/dev/net/tun missing");
    if (kd_find_tools(&tools))
        return skip("iproute2 (ip) not found");
    char err[200];
    if (preflight(&tools, err, sizeof err))
        return skip(err[0] ? err : "namespace/TAP/VXLAN setup failed");
    if (!tools.bpf_obj)
        printf("*** SKIP (partial): no BPF object: the unnecessary:L cases will be skipped ***\n");

    double t0 = now_s();
    int errors = 0;
    size_t idx[MAX_CASES];
    static uint8_t done[MAX_CASES];
    size_t ngroups = 0;
    for (size_t i = 0; i < ncases; i++) {
        if (!SELECTED[i] || done[i])
            continue;
        size_t n = 0;
        for (size_t j = i; j < ncases; j++)
            if (SELECTED[j] && !done[j] && kd_group_eq(&CASES[i].g, &CASES[j].g)) {
                idx[n++] = j;
                done[j] = 1;
            }
        ngroups++;
        run_group(&tools, idx, n, &errors);
    }
    double t_kernel = now_s() - t0;

    size_t compared = 0, agree = 0, skipped = 0, gro_runs = 0, gro_agree = 0, coalesced = 0, gro_retried = 0;
    size_t wrong_disagree = 0;
    char skipmsg[200] = "";
    for (size_t i = 0; i < ncases; i++) {
        if (!SELECTED[i])
            continue;
        const struct kd_case *c = &CASES[i];
        const struct kd_rec *rec = &RECS[i];
        char label[200], ktxt[300], mtxt[300], why[200];
        kd_case_label(c, label, sizeof label);
        if (rec->status == KD_SKIPPED) {
            skipped++;
            snprintf(skipmsg, sizeof skipmsg, "%s", rec->msg);
            if (tools.verbose)
                printf("[%4zu] %s | SKIP %s\n", i, label, rec->msg);
            continue;
        }
        compared++;
        if (rec->status != KD_OK) {
            printf("[%4zu] %s | HARNESS ERROR: %s\n", i, label, rec->msg);
            errors++;
            continue;
        }
        struct outcome m, k, pm;
        model_run(c, &m, 0);
        kernel_outcome(c, rec, &k);
        int ok = compare(c, &m, &k, why, sizeof why);
        /* Specificity: would the model, asked the wrong question (report
         * swapped, remcsumrx and udp6zerocsumrx inverted), still agree? The
         * fewer such cases, the more the agreement says about the harness
         * really producing the configuration it claims. */
        char pwhy[200];
        model_run(c, &pm, 1);
        if (ok && !compare(c, &pm, &k, pwhy, sizeof pwhy))
            wrong_disagree++;
        outcome_text(c, &k, ktxt, sizeof ktxt);
        outcome_text(c, &m, mtxt, sizeof mtxt);
        agree += ok;
        char gro[120] = "";
        if (c->nseg > 1) {
            snprintf(gro, sizeof gro, " | vx0 got %d skb%s for %d segment%s%s; engine %d merge%s",
                     k.skbs_vx0, k.skbs_vx0 == 1 ? "" : "s", k.at_vx0, k.at_vx0 == 1 ? "" : "s",
                     k.merges > 0 ? " (coalesced)" : "", m.merges, m.merges == 1 ? "" : "s");
            if (c->g.gro) {
                gro_runs++;
                gro_retried += rec->retries;
                gro_agree += m.merges == k.merges;
                if (strict_gro && ok && m.merges != k.merges) {
                    ok = 0;
                    agree--;
                    snprintf(why, sizeof why, "GRO merges: engine %d, kernel %d", m.merges, k.merges);
                }
            }
            coalesced += k.merges > 0;
        }
        printf("[%4zu] %s | kernel: %s | model: %s%s | %s%s\n", i, label, ktxt, mtxt, gro,
               ok ? "agree" : "DISAGREE: ", ok ? "" : why);
        if (k.note[0])
            printf("        note: %s\n", k.note);
        if (!ok || tools.verbose) {
            dump_kernel(rec);
            for (int s = 0; s < c->nseg; s++)
                dump_model(c, s);
        }
    }
    double total = now_s() - t0;
    printf("\n%zu device setups (one namespace each), kernel side %.1f s, total %.1f s\n", ngroups,
           t_kernel, total);
    if (gro_runs)
        printf("GRO runs (IFF_NAPI + gro_flush_timeout): %zu, %zu with coalescing seen; "
               "GRO engine merge count matches the kernel on %zu (%s); %zu repeated because "
               "the writer stalled over half gro_flush_timeout\n",
               gro_runs, coalesced, gro_agree, strict_gro ? "enforced: --strict-gro" : "informational",
               gro_retried);
    printf("specificity: with a wrong configuration (report swapped, remcsumrx and "
           "udp6zerocsumrx inverted) the model would disagree on %zu of the %zu agreeing cases\n",
           wrong_disagree, agree);
    if (skipped)
        printf("*** SKIP (partial): %zu cases not run: %s ***\n", skipped, skipmsg);
    if (errors)
        printf("*** %d harness errors ***\n", errors);
    printf("kernel differential: %zu cases, %zu agree\n", compared, agree);
    if (compared == 0)
        return skip("no case could run");
    return agree == compared && !errors ? 0 : 1;
}

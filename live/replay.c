/*
 * replay.c - a run of `--live` (replay.h): the kernels, the passes over the
 * inputs, each chunk through each kernel, every frame judged. Frames are
 * written one at a time, in capture order; each is observed until its
 * effects came through and the counters held still (libcsclive). Both
 * outcomes are put in the same words by judge.c.
 *
 * --kernel: the VM machinery of the live-kernel differential test
 * (vm.c): live/vm/csc-vm boots the kernel under qemu and runs
 * csc-live-agent on a job (job.c) shared over 9p. The first pass plans
 * every chunk exactly as on this machine and writes its setup and frames to
 * the job; the VM runs the whole job in one boot; the second pass plans
 * again (the same chunks, the same case ids) and judges each frame from its
 * observation, with the model set to the VM kernel's era.
 */
#define _GNU_SOURCE
#include "replay_int.h"

#include "broker.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

const char *live_rk_name(unsigned k)
{
    static const char *const t[LIVE_RK__COUNT] = { "plain", "vxlan",  "vxlan-gpe", "geneve", "gre",
                                                   "gretap", "ip6gre", "ip6gretap", "ipip", "sit",
                                                   "ip6tnl", "fou", "gue", "erspan", "l2tp" };
    return k < LIVE_RK__COUNT ? t[k] : "?";
}

const char *live_tp_name(unsigned t)
{
    static const char *const n[] = { "udp", "tcp", "icmp" };
    return t < 3 ? n[t] : "?";
}

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void why(struct live_outcome *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void why(struct live_outcome *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->why, sizeof o->why, fmt, ap);
    va_end(ap);
}

static bool stopped(const struct live_replay *lr)
{
    return lr->stop && *lr->stop;
}

/* ---- the configuration and the kernels ---- */

/* The device reports a TAP can make; else the reason */
static const char *report_refused(const struct csc_report *r)
{
    switch (r->kind) {
    case CSC_RX_NONE: return NULL;
    case CSC_RX_UNNECESSARY:
        return r->level <= 2 ? NULL : "unnecessary:L with L > 2 (the BPF object has levels 0-2)";
    case CSC_RX_PARTIAL:
        return r->where == CSC_PARTIAL_EXPLICIT ? "partial:START:OFFSET (use partial:outer or partial:inner)"
                                                : NULL;
    default: return "this report (a TAP makes none, partial:outer, partial:inner; BPF unnecessary:0-2)";
    }
}

/* A kernel's release known: its era, the model's configuration at it */
void live_kernel_release(struct live_replay *lr, struct live_kernel *k, const char *release)
{
    snprintf(k->release, sizeof k->release, "%s", release);
    k->era = live_era_for_release(release);
    k->cfg = lr->cfg;
    csc_era_by_name(k->era, &k->cfg.era);
    k->cfg.ipv6_mip6 = live_kernel_mip6(release);
    k->cfg.rx_llc = live_kernel_llc(release);
    k->cfg.vlan_8021q = live_kernel_vlan_8021q(release);
}

/* The receiver as the TAP makes it, whatever the options said of the NIC */
static const char *receiver_config(struct live_replay *lr, const struct csc_config *cfg, char *err, size_t n)
{
    lr->cfg = *cfg;
    lr->janitor_fd = -1;
    const char *no = report_refused(&lr->cfg.rx);
    if (no) {
        snprintf(err, n, "--live cannot make %s", no);
        return err;
    }
    lr->cfg.gro_nic = false;         /* the TAP has no IFF_NAPI: no GRO before the stack */
    lr->cfg.gro_tunnel = true;       /* a tunnel device's gro_cells always run */
    lr->cfg.route_localnet = true;   /* plan.c: route_localnet=1 takes 127/8 from the TAP */
    lr->cfg.trace_steps = false;
    lr->cfg.replay_sent = true;      /* the TAP receives every frame it is given, sent or not */
    return NULL;
}

/* The next name of a comma list into buf; NULL at its end */
static const char *next_name(const char *at, char *buf, size_t n)
{
    if (!at || !*at)
        return NULL;
    size_t l = strcspn(at, ",");
    snprintf(buf, n, "%.*s", (int)(l < n ? l : n - 1), at);
    return at[l] ? at + l + 1 : at + l;
}

int live_replay_init(struct live_replay *lr, const struct csc_config *cfg, const char *kernels, char *err,
                     size_t n)
{
    if (receiver_config(lr, cfg, err, n))
        return 2;
    struct utsname u;
    uname(&u);
    char name[64];
    const char *at = kernels ? kernels : "host";
    lr->nk = 0;
    while ((at = next_name(at, name, sizeof name))) {
        if (lr->nk == LIVE_MAX_KERNELS) {
            snprintf(err, n, "--kernel %s: at most %d kernels", kernels, LIVE_MAX_KERNELS);
            return 2;
        }
        struct live_kernel *k = &lr->k[lr->nk];
        memset(k, 0, sizeof *k);
        snprintf(k->name, sizeof k->name, "%s", name);
        live_kernel_release(lr, k, u.release);
        if (strcmp(name, "host")) {
            k->vm = live_vm_kernel_of(name);
            if (!k->vm) {
                snprintf(err, n, "--kernel %s: not a VM kernel; they are %s, and host (this machine's)", name,
                         live_vm_kernel_names());
                return 2;
            }
        }
        for (int i = 0; i < lr->nk; i++)
            if (lr->k[i].vm == k->vm) {
                snprintf(err, n, "--kernel %s: %s twice", kernels, name);
                return 2;
            }
        lr->nk++;
    }
    if (!lr->nk) {
        snprintf(err, n, "--kernel: no kernel named");
        return 2;
    }
    lr->cfg = lr->k[0].cfg;
    return 0;
}

int live_replay_init_eras(struct live_replay *lr, const struct csc_config *cfg, const char *eras, char *err,
                          size_t n)
{
    receiver_config(lr, cfg, err, n);    /* the model's view of the same receiver; any report */
    lr->cfg.rx = cfg->rx;
    char name[64];
    const char *at = eras;
    lr->nk = 0;
    while ((at = next_name(at, name, sizeof name))) {
        struct live_kernel *k = &lr->k[lr->nk];
        if (lr->nk == LIVE_MAX_KERNELS) {
            snprintf(err, n, "--era %s: at most %d eras to compare", eras, LIVE_MAX_KERNELS);
            return 2;
        }
        memset(k, 0, sizeof *k);
        k->model_only = true;
        snprintf(k->name, sizeof k->name, "%s", name);
        k->cfg = lr->cfg;
        if (!csc_era_by_name(name, &k->cfg.era)) {
            snprintf(err, n, "--era %s: unknown era '%s' ('--era list' describes them)", eras, name);
            return 2;
        }
        k->era = k->cfg.era.name;
        snprintf(k->release, sizeof k->release, "the model at %s", k->era);
        lr->nk++;
    }
    if (lr->nk < 2) {
        snprintf(err, n, "--era %s: name two eras or more to compare", eras);
        return 2;
    }
    lr->cfg = lr->k[0].cfg;
    return 0;
}

bool live_replay_needs_job(const struct live_replay *lr)
{
    for (int i = 0; i < lr->nk; i++)
        if (lr->k[i].vm)
            return true;
    return false;
}

bool live_replay_has_host(const struct live_replay *lr)
{
    for (int i = 0; i < lr->nk; i++)
        if (!lr->k[i].vm && !lr->k[i].model_only)
            return true;
    return false;
}

void live_bpf_object(struct live_replay *lr)
{
    const char *env = getenv("CSC_LIVE_BPF");
    if (env && *env)
        snprintf(lr->bpf, sizeof lr->bpf, "%s", env);
    else
        snprintf(lr->bpf, sizeof lr->bpf, "%s", CSC_LIVE_BPF_OBJ);
    lr->tools.bpf_obj = lr->bpf[0] && access(lr->bpf, R_OK) == 0 ? lr->bpf : NULL;
}

/* This machine: 0, or the reason it cannot run in why */
int live_host_preflight(struct live_replay *lr, char *why, size_t n)
{
    if (!lr->brk && geteuid() != 0 && !live_privsep_capable()) {
        snprintf(why, n, "needs root, or CAP_NET_ADMIN and CAP_SYS_ADMIN (a private network namespace and a TAP)");
        return -1;
    }
    if (!lr->brk && access("/dev/net/tun", R_OK | W_OK) != 0) {   /* the helper's preflight opens it */
        snprintf(why, n, "/dev/net/tun is missing");
        return -1;
    }
    if (live_find_tools(&lr->tools)) {
        snprintf(why, n, "iproute2 (ip) not found");
        return -1;
    }
    live_bpf_object(lr);
    if (lr->brk ? live_broker_preflight(lr->brk, why, n) : live_preflight(&lr->tools, why, n)) {
        if (!why[0])
            snprintf(why, n, "cannot make a network namespace with a TAP here");
        return -1;
    }
    return 0;
}

/* ---- judging ---- */

/* The model's side, from csc_analyze over the written bytes */
void live_judge_model(const struct csc_result *r, struct live_outcome *o)
{
    /* "not modelled" is unknown, whatever verdict it left (model finding KF0) */
    o->mclass = (r->kernel.warnings & CSC_W_NOT_MODELLED) ? LIVE_C_UNKNOWN : live_model_class(r);
    memset(o->mcnt, 0, sizeof o->mcnt);
    live_model_counts(r->kernel.counters, o->mcnt);
    live_model_counts_finish(o->mcnt);
    snprintf(o->mdrop, sizeof o->mdrop, "%s",
             r->kernel.verdict == CSC_K_DROP ? csc_drop_name(r->kernel.drop_reason) : "");
}

/* Did the frame reach its socket? UDP: the socket read it. TCP: it was
 * counted in and not as an error (a listener answers; nothing is read). */
static int kernel_delivered(const struct live_fr *f, const struct live_obs *o)
{
    if (f->l4 == LIVE_TP_ICMP)       /* taken in (an echo is answered), not counted as an error */
        return f->in6 ? live_obs_get(o, "Icmp6InMsgs") >= 1 && !live_obs_get(o, "Icmp6InErrors")
                      : live_obs_get(o, "IcmpInMsgs") >= 1 && !live_obs_get(o, "IcmpInErrors");
    if (f->sock < 0)
        return 0;
    if (f->l4 == LIVE_TP_TCP)
        return live_obs_get(o, "TcpInSegs") >= 1 && !live_obs_get(o, "TcpInErrs");
    char name[16];
    snprintf(name, sizeof name, "sock:%d", f->sock);
    return live_obs_get(o, name) > 0;
}

static int live_counts_any(const int64_t *cnt)
{
    for (unsigned i = 0; i < LIVE_N_CNT; i++)
        if (cnt[i])
            return 1;
    return 0;
}

/* A device's refusal without its label, the tool's path and the noise:
 * "gre1 (gre): Error: Unknown device type. " -> "Unknown device type" */
static const char *refusal_text(const char *msg)
{
    static char buf[200];
    const char *p = strstr(msg, "): ");
    p = p ? p + 3 : msg;
    const char *a = strstr(p, "answers: ");
    if (a)
        p = a + 9;
    if (!strncmp(p, "Error: ", 7))
        p += 7;
    snprintf(buf, sizeof buf, "%s", p);
    buf[strcspn(buf, ".\n")] = 0;
    char *e = strstr(buf, " Error talking");
    if (e)
        *e = 0;
    return buf;
}

void live_judge_kernel(const struct live_chunk *ch, const struct live_fr *f, struct live_outcome *out,
                       const struct live_obs *o)
{
    if (o->status != LIVE_OK) {
        out->result = o->status == LIVE_SKIPPED ? LIVE_RES_SKIPPED : LIVE_RES_ERROR;
        const char *mod = o->status == LIVE_SKIPPED && f->dev > 0
                              ? live_receiver_missing(&ch->dev_recv[f->dev], o->msg) : NULL;
        if (mod && (strstr(o->msg, " fou add") || strstr(o->msg, " l2tp add")))
            why(out, "this kernel has no %s module (no generic netlink family for it)", mod);
        else if (mod)
            why(out, "this kernel has no %s module (%s)", mod, refusal_text(o->msg));
        else
            why(out, "%s", o->msg[0] ? o->msg : "no observation");
        return;
    }
    const char *dev = f->kind == LIVE_RK_PLAIN ? NULL : ch->s.devs[f->dev].ifname;
    size_t at = 0;
    out->deltas[0] = 0;
    for (int i = 0; i < o->n && at < sizeof out->deltas; i++)
        at += (size_t)snprintf(out->deltas + at, sizeof out->deltas - at, "%s%s=%lld", i ? " " : "", o->v[i].name,
                               (long long)o->v[i].delta);
    if (dev) {
        char name[LIVE_NAME_LEN];
        snprintf(name, sizeof name, "dev:%s:rx_packets", dev);
        out->at_dev = live_obs_get(o, name);
    }
    int delivered = kernel_delivered(f, o);
    out->kclass = live_kernel_class(o, dev, f->sock < 0, f->in6, delivered);
    live_kernel_counts(o, dev, out->kcnt);
    out->result = LIVE_RES_AGREE;
    out->why[0] = 0;
    if (out->mclass == LIVE_C_UNKNOWN) {
        why(out, "the model does not say (not modelled); the kernel: %s", live_class_name(out->kclass));
        out->result = LIVE_RES_DISAGREE;
        return;
    }
    /* a drop at the outer IP that counts nothing shows in the kernel only
     * as nothing at all (class silent) */
    int mclass = out->mclass == LIVE_C_OUTER_IP && out->kclass == LIVE_C_SILENT && !live_counts_any(out->mcnt)
                     ? LIVE_C_SILENT : out->mclass;
    if (mclass != out->kclass) {
        why(out, "%s: model %s, kernel %s", out->mclass == LIVE_C_DELIVERED || out->kclass == LIVE_C_DELIVERED
                                                ? "delivered"
                                                : "drop layer",
            live_class_name(out->mclass), live_class_name(out->kclass));
        out->result = LIVE_RES_DISAGREE;
        return;
    }
    int i = live_counts_diff(out->mcnt, out->kcnt);
    if (i >= 0) {
        why(out, "%s: model %lld, kernel %lld", live_count_name((unsigned)i), (long long)out->mcnt[i],
            (long long)out->kcnt[i]);
        out->result = LIVE_RES_DISAGREE;
    }
}

/* ---- running a chunk ---- */

static void account(struct live_replay *lr, const struct live_fr *f)
{
    if (stopped(lr))
        lr->interrupted = (int)*lr->stop;
    for (int i = 0; i < lr->nk; i++) {
        struct live_kernel *k = &lr->k[i];
        const struct live_outcome *o = &f->k[i];
        k->tot[f->kind][o->result]++;
        if (o->result == LIVE_RES_DISAGREE)
            k->disagreements++;
        if (o->result == LIVE_RES_ERROR)
            k->errors++;
    }
    lr->frames++;
    if (lr->fates)
        live_fates_add(lr->fates, lr, f);
    if (lr->face.frame)
        lr->face.frame(lr->face.ctx, f);
}

/* The namespace's calls: through the helper when there is one */
static int ss_start(struct live_replay *lr, const struct live_setup *s)
{
    return lr->brk ? live_broker_start(lr->brk, &lr->ss, s, LIVE_CHUNK_S)
                   : live_session_start(&lr->ss, &lr->tools, s, LIVE_CHUNK_S);
}

static int ss_extend(struct live_replay *lr, const struct live_setup *s)
{
    return lr->brk ? live_broker_extend(lr->brk, &lr->ss, s, LIVE_CHUNK_S)
                   : live_session_extend(&lr->ss, s, LIVE_CHUNK_S);
}

static int ss_run(struct live_replay *lr, const struct live_batch *b, struct live_obs *o)
{
    return lr->brk ? live_broker_run(lr->brk, &lr->ss, b, o, LIVE_FRAME_MS)
                   : live_session_run(&lr->ss, b, o, LIVE_FRAME_MS);
}

static void replay_session_end(struct live_replay *lr)
{
    if (lr->ss_up && lr->brk)
        live_broker_end(lr->brk, &lr->ss);
    else if (lr->ss_up)
        live_session_end(&lr->ss);
    lr->ss_up = false;
}

static void chunk_end(struct live_replay *lr, struct live_chunk *ch)
{
    ch->n = 0;
    if (lr->face.chunk_end)
        lr->face.chunk_end(lr->face.ctx);
}

/* First pass: the chunk's setup and its replayable frames, one case each */
static void chunk_to_job(struct live_replay *lr, struct live_chunk *ch)
{
    bool setup = false;
    for (int i = 0; i < ch->n; i++) {
        struct live_fr *f = &ch->f[i];
        if (f->dev < 0)
            continue;
        if (!setup) {
            live_job_setup(lr->job, &ch->s);
            lr->setups += !ch->s.extends;    /* a namespace grown is not a new one */
            setup = true;
        }
        struct live_batch b = { lr->seq++, (uint8_t)f->dev, 1, { &f->fr }, 0 };
        live_job_batch(lr->job, &b);
    }
    ch->n = 0;
}

static void chunk_run(struct live_replay *lr, struct live_chunk *ch)
{
    if (lr->pass == LIVE_PASS_JOB) {
        chunk_to_job(lr, ch);
        return;
    }
    static struct live_obs o;
    struct live_session *ss = &lr->ss;
    int replayable = 0;
    for (int i = 0; i < ch->n; i++)
        replayable += ch->f[i].dev >= 0;
    int rc = 1;
    int64_t t = now_us();
    bool host = live_replay_has_host(lr), live = host && replayable && !stopped(lr);
    if (lr->ss_up && (!ch->s.extends || stopped(lr)))
        replay_session_end(lr);     /* a new namespace begins */
    if (live && lr->ss_up) {         /* the namespace goes on, grown to what this chunk needs */
        rc = ss_extend(lr, &ch->s);
        lr->ss_up = rc == 0;
    }
    if (live && !lr->ss_up) {
        rc = ss_start(lr, &ch->s);
        lr->ss_up = rc == 0;
        if (lr->pass == LIVE_PASS_HERE)
            lr->setups++;
    }
    for (int i = 0; i < ch->n; i++) {
        struct live_fr *f = &ch->f[i];
        int32_t id = f->dev >= 0 ? lr->seq++ : -1;
        for (int k = 0; k < lr->nk && f->dev >= 0; k++) {
            struct live_outcome *out = &f->k[k];
            if (lr->k[k].model_only) {   /* the model's own fate, nothing to compare */
                out->result = LIVE_RES_MODEL;
                out->kclass = out->mclass;
                memcpy(out->kcnt, out->mcnt, sizeof out->kcnt);
            } else if (lr->k[k].vm) {
                const struct live_obs *vo = live_vm_obs_get(&lr->k[k], id);
                if (vo) {
                    live_judge_kernel(ch, f, out, vo);
                } else {
                    out->result = LIVE_RES_ERROR;
                    why(out, "the VM sent no observation of it (the agent stopped before it: see -v)");
                }
            } else if (rc == 0 && !stopped(lr)) {
                struct live_batch b = { (int32_t)i, (uint8_t)f->dev, 1, { &f->fr }, 0 };
                int64_t tf = now_us();
                if (ss_run(lr, &b, &o))
                    lr->ss_up = false;   /* it ended: the chunk's other frames say so */
                lr->frame_seconds += (double)(now_us() - tf) / 1e6;
                live_judge_kernel(ch, f, out, &o);
            } else if (stopped(lr)) {    /* a signal: the frame in flight ended, the rest waits no more */
                out->result = LIVE_RES_NOT_RUN;
                why(out, "not replayed: the run was interrupted (signal %d)", (int)*lr->stop);
            } else {
                out->result = rc > 0 ? LIVE_RES_SKIPPED : LIVE_RES_ERROR;
                why(out, "%s", ss->msg);
            }
        }
        account(lr, f);
    }
    if (stopped(lr) && lr->ss_up)
        replay_session_end(lr);
    if (host)
        lr->seconds += (double)(now_us() - t) / 1e6;
    chunk_end(lr, ch);
}

/* ---- a pass over the inputs ---- */

int live_replay_pass(struct live_replay *lr, enum live_pass pass, char *err, size_t n)
{
    if (!lr->ch) {
        lr->ch = calloc(1, sizeof *lr->ch);
        if (!lr->ch) {
            snprintf(err, n, "out of memory");
            return 2;
        }
    }
    lr->pass = pass;
    lr->seq = 0;
    lr->ch->ns_frames = 0;           /* every pass plans the same namespaces from the first */
    if (pass != LIVE_PASS_JOB && lr->nk > 1 && !lr->fates && !(lr->fates = calloc(1, sizeof *lr->fates))) {
        snprintf(err, n, "out of memory");
        return 2;
    }
    if (pass != LIVE_PASS_JOB)
        return 0;
    if (live_vm_mkdir("csc-live-vm", lr->vm_dir, sizeof lr->vm_dir)) {
        snprintf(err, n, "mkdtemp: %s", strerror(errno));
        return 2;
    }
    lr->janitor_fd = live_vm_janitor(lr->vm_dir, &lr->janitor_pid);
    char job[600];
    snprintf(job, sizeof job, "%s/job.txt", lr->vm_dir);
    lr->job = fopen(job, "w");
    if (!lr->job) {
        snprintf(err, n, "%s: %s", job, strerror(errno));
        return 2;
    }
    live_job_begin(lr->job);
    return 0;
}

void live_replay_file_begin(struct live_replay *lr, const char *name)
{
    lr->file = name;
    live_chunk_begin(lr, lr->ch, 1);    /* the namespace of the file before goes on */
}

/* Plan frame f (in its chunk's slot): the bytes written, its needs, the
 * model's outcome for every kernel. NULL, or why it cannot be replayed. */
static const char *plan_frame(struct live_replay *lr, struct live_fr *f, const uint8_t *data, uint32_t caplen,
                              uint32_t len, uint8_t link, struct live_need *nd)
{
    static struct csc_result r;
    const char *no = live_plan_written(&lr->cfg, data, caplen, len, link, f);
    if (no)
        return no;
    struct csc_frame cf = { f->fr.data, f->fr.len, f->fr.len, CSC_LINK_ETHERNET, CSC_DIR_IN };
    csc_analyze(&lr->k[0].cfg, &cf, &r);
    if ((no = live_plan_stack(&lr->cfg, &r, f, nd)))
        return no;
    if (lr->pass == LIVE_PASS_JOB)
        return NULL;                 /* judged in the second pass */
    for (int k = 0; k < lr->nk; k++) {
        if (k && strcmp(lr->k[k].era, lr->k[k - 1].era))
            csc_analyze(&lr->k[k].cfg, &cf, &r);
        live_judge_model(&r, &f->k[k]);
    }
    return NULL;
}

struct live_fr *live_replay_frame(struct live_replay *lr, const uint8_t *data, uint32_t caplen, uint32_t len,
                                  uint8_t link, uint64_t no)
{
    struct live_chunk *ch = lr->ch;
    if (ch->n >= LIVE_CHUNK) {       /* the chunk is full: it runs before this frame is read */
        chunk_run(lr, ch);
        live_chunk_begin(lr, ch, 1);
    }
    struct live_fr *f = &ch->f[ch->n];
    memset(f, 0, offsetof(struct live_fr, fr));
    f->no = no;
    f->dev = f->sock = -1;
    struct live_need nd;
    const char *no_why = plan_frame(lr, f, data, caplen, len, link, &nd);
    if (no_why) {
        for (int k = 0; k < lr->nk; k++) {
            f->k[k].result = LIVE_RES_NOT_REPLAYABLE;
            why(&f->k[k], "%s", no_why);
        }
    } else if (live_chunk_take(lr, ch, &nd, f) < 0) {
        static struct live_fr keep;  /* the setup is full: run it, then this frame opens the next */
        keep = *f;
        chunk_run(lr, ch);
        live_chunk_begin(lr, ch, 0);
        f = &ch->f[0];
        *f = keep;
        live_chunk_take(lr, ch, &nd, f);
    }
    ch->n++;
    return f;
}

void live_replay_file_end(struct live_replay *lr)
{
    chunk_run(lr, lr->ch);
}

void live_replay_end(struct live_replay *lr)
{
    replay_session_end(lr);
    if (lr->vm_dir[0]) {             /* stopped before the VMs ran: the job goes */
        if (lr->job)
            fclose(lr->job), lr->job = NULL;
        live_vm_clean(lr->vm_dir);
        lr->vm_dir[0] = 0;
    }
    live_vm_janitor_end(lr->janitor_fd, lr->janitor_pid, 0);
    lr->janitor_fd = -1;
    for (int i = 0; i < lr->nk; i++)
        live_vm_obs_drop(&lr->k[i]);
    if (lr->job)
        fclose(lr->job), lr->job = NULL;
    free(lr->ch);
    lr->ch = NULL;
    free(lr->fates);
    lr->fates = NULL;
}

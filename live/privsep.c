/*
 * privsep.c - csumcheck --live's privileged helper and the analyser's drop
 * of privilege (broker.h, issue 26: the dumpcap model).
 *
 * live_privsep_start forks. The child is the helper: it keeps
 * CAP_NET_ADMIN and CAP_SYS_ADMIN only (permitted, effective, inheritable
 * and ambient, so that the ip and tc it runs in the namespace keep them
 * when it runs from a file-capability binary as a user), sets NO_NEW_PRIVS,
 * installs its seccomp allow-list (sandbox.c) and answers requests
 * (broker.c) until its socket closes; it dies with the analyser
 * (PR_SET_PDEATHSIG). The parent is the analyser: it gives up every
 * capability (the bounding set too when it may), becomes SUDO_UID/SUDO_GID
 * or nobody when it was root, sets NO_NEW_PRIVS and its own seccomp filter,
 * and then reads the captures. The parent stays the parent so that it sees
 * how the helper ended (waitpid: a seccomp kill is SIGSYS).
 */
#define _GNU_SOURCE
#include "broker.h"
#include "live_int.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#if defined(__SANITIZE_ADDRESS__)
#define CSC_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CSC_LSAN 1
#endif
#endif
#ifdef CSC_LSAN
#include <sanitizer/lsan_interface.h>
#endif
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int capget_(struct __user_cap_data_struct d[2])
{
    struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
    return (int)syscall(SYS_capget, &h, d);
}

static int capset_(struct __user_cap_data_struct d[2])
{
    struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
    return (int)syscall(SYS_capset, &h, d);
}

static bool has_cap(const struct __user_cap_data_struct d[2], int cap, bool permitted)
{
    uint32_t set = permitted ? d[cap / 32].permitted : d[cap / 32].effective;
    return (set >> (cap % 32)) & 1u;
}

bool live_privsep_capable(void)
{
    struct __user_cap_data_struct d[2];
    if (capget_(d))
        return false;
    return has_cap(d, CAP_NET_ADMIN, true) && has_cap(d, CAP_SYS_ADMIN, true);
}

void live_privsep_drop_file_caps(void)
{
    struct __user_cap_data_struct d[2];
    if (getuid() == 0 || geteuid() == 0 || capget_(d) || !(d[0].permitted | d[1].permitted | d[0].inheritable |
                                                           d[1].inheritable))
        return;
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    memset(d, 0, sizeof d);
    if (capset_(d)) {                /* cannot fail when lowering; if it did, stop */
        fprintf(stderr, "csumcheck: cannot give up the file capabilities: %s\n", strerror(errno));
        _exit(2);
    }
}

static int last_cap(void)
{
    int last = CAP_LAST_CAP;
    FILE *f = fopen("/proc/sys/kernel/cap_last_cap", "r");
    if (f) {
        if (fscanf(f, "%d", &last) != 1 || last < 0 || last > 63)
            last = CAP_LAST_CAP;
        fclose(f);
    }
    return last;
}

/* ---- the helper ---- */

struct helper {
    int fd;
    const char *const *paths;
    unsigned npaths;
    struct live_tools tools;
    char bpf[512];
    struct live_session ss;
    bool up;
    bool test_violation;             /* CSC_LIVE_TEST_SECCOMP=helper: the test's forced violation */
};

/* Keep CAP_NET_ADMIN and CAP_SYS_ADMIN: in every set, and ambient so that
 * ip and tc (exec'd in the namespace) keep them under a non-root uid */
static int helper_caps(char *err, size_t n)
{
    struct __user_cap_data_struct d[2];
    memset(d, 0, sizeof d);
    _Static_assert(CAP_NET_ADMIN < 32 && CAP_SYS_ADMIN < 32, "both in the first word");
    d[0].permitted = d[0].effective = d[0].inheritable = (1u << CAP_NET_ADMIN) | (1u << CAP_SYS_ADMIN);
    if (getuid() == 0 || geteuid() == 0) {
        /* root: the bounding set too, so that no exec regains the rest */
        for (int c = 0; c <= last_cap(); c++)
            if (c != CAP_NET_ADMIN && c != CAP_SYS_ADMIN && prctl(PR_CAPBSET_DROP, c, 0, 0, 0) && errno != EINVAL) {
                snprintf(err, n, "helper: PR_CAPBSET_DROP %d: %s", c, strerror(errno));
                return -1;
            }
    }
    if (capset_(d)) {
        snprintf(err, n, "helper: capset: %s", strerror(errno));
        return -1;
    }
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_NET_ADMIN, 0, 0) ||
        prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_SYS_ADMIN, 0, 0)) {
        snprintf(err, n, "helper: ambient capabilities: %s", strerror(errno));
        return -1;
    }
    return 0;
}

static void reply(struct helper *h, const struct brk_hdr *q, int32_t rc, const struct live_obs *o, int fd)
{
    static struct brk_reply r;
    memset(&r, 0, sizeof r);
    r.magic = BRK_MAGIC;
    r.type = q->type;
    r.seq = q->seq;
    r.rc = rc;
    if (o)
        r.o = *o;
    r.o.msg[sizeof r.o.msg - 1] = 0;
    if (brk_send_fd(h->fd, &r, sizeof r, fd))
        _exit(3);
}

static void reply_msg(struct helper *h, const struct brk_hdr *q, int32_t rc, int status, const char *msg)
{
    static struct live_obs o;
    memset(&o, 0, sizeof o);
    o.id = -1;
    o.status = status;
    snprintf(o.msg, sizeof o.msg, "%.199s", msg);
    reply(h, q, rc, &o, -1);
}

/* An input the user named, opened with the helper's rights: a regular file
 * or a FIFO, nothing else */
static void do_open(struct helper *h, const struct brk_hdr *q, const struct brk_open *op)
{
    char msg[300];
    if (op->index >= h->npaths) {
        reply_msg(h, q, -EINVAL, LIVE_ERROR, "no such input");
        return;
    }
    const char *p = h->paths[op->index];
    int fd = open(p, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    struct stat sb;
    int e = fd < 0 ? errno : fstat(fd, &sb) ? errno : (!S_ISREG(sb.st_mode) && !S_ISFIFO(sb.st_mode)) ? EINVAL : 0;
    if (!e && fcntl(fd, F_SETFL, 0) < 0)   /* blocking reads from here on */
        e = errno;
    if (e) {
        if (fd >= 0)
            close(fd);
        snprintf(msg, sizeof msg, "%s", e == EINVAL ? "not a regular file or a FIFO" : strerror(e));
        reply_msg(h, q, -e, LIVE_ERROR, msg);
        return;
    }
    static struct live_obs o;
    memset(&o, 0, sizeof o);
    o.id = -1;
    reply(h, q, 0, &o, fd);
    close(fd);
}

static void do_session(struct helper *h, const struct brk_hdr *q, const struct brk_setup *bs)
{
    const char *bad = brk_setup_check(&bs->s);
    if (bad) {                       /* a hostile analyser: said, and the helper ends */
        fprintf(stderr, "csumcheck: --live helper: refused a setup: %s\n", bad);
        _exit(4);
    }
    if (h->test_violation)
        syscall(SYS_swapoff, "/nonexistent");   /* outside the allow-list: SIGSYS */
    int rc;
    if (q->type == BRK_START) {
        if (h->up)
            live_session_end(&h->ss);
        rc = live_session_start(&h->ss, &h->tools, &bs->s, bs->timeout_s);
    } else {
        rc = h->up ? live_session_extend(&h->ss, &bs->s, bs->timeout_s) : -1;
        if (!h->up)
            snprintf(h->ss.msg, sizeof h->ss.msg, "the namespace is gone");
    }
    h->up = rc == 0;
    reply_msg(h, q, rc, rc ? h->ss.status : LIVE_OK, h->ss.msg);
}

static void do_run(struct helper *h, const struct brk_hdr *q, const struct brk_frame *f)
{
    static struct live_obs o;
    static struct live_frame fr;
    const char *bad = brk_frame_check(f);
    if (bad) {
        fprintf(stderr, "csumcheck: --live helper: refused a frame: %s\n", bad);
        _exit(4);
    }
    fr = f->fr;
    struct live_batch b = { f->id, (uint8_t)f->dev, 1, { &fr }, f->flags };
    if (!h->up) {
        memset(&o, 0, sizeof o);
        o.id = f->id;
        o.status = LIVE_ERROR;
        snprintf(o.msg, sizeof o.msg, "%s", h->ss.msg[0] ? h->ss.msg : "the namespace is gone");
        reply(h, q, -1, &o, -1);
        return;
    }
    int rc = live_session_run(&h->ss, &b, &o, f->timeout_ms);
    if (rc)
        h->up = false;
    reply(h, q, rc, &o, -1);
}

static void helper_loop(struct helper *h)
{
    static union {
        struct brk_setup s;
        struct brk_frame f;
        struct brk_open o;
    } pl;
    for (;;) {
        struct brk_hdr q;
        if (brk_read_full(h->fd, &q, sizeof q))
            break;                   /* the analyser is done */
        size_t want = brk_payload_size(q.type);
        if (q.magic != BRK_MAGIC || want == SIZE_MAX || q.len != want) {
            fprintf(stderr, "csumcheck: --live helper: a malformed request (type %u, %u bytes)\n", q.type, q.len);
            _exit(4);
        }
        if (want && brk_read_full(h->fd, &pl, want))
            break;
        switch (q.type) {
        case BRK_PREFLIGHT: {
            char why[200] = "";
            int rc = live_preflight(&h->tools, why, sizeof why);
            reply_msg(h, &q, rc, rc ? LIVE_ERROR : LIVE_OK, rc && !why[0] ? "cannot make a network namespace with a TAP here" : why);
            break;
        }
        case BRK_START:
        case BRK_EXTEND: do_session(h, &q, &pl.s); break;
        case BRK_RUN: do_run(h, &q, &pl.f); break;
        case BRK_END:
            if (h->up)
                live_session_end(&h->ss);
            h->up = false;
            reply_msg(h, &q, 0, LIVE_OK, "");
            break;
        case BRK_OPEN: do_open(h, &q, &pl.o); break;
        }
    }
    if (h->up)
        live_session_end(&h->ss);
    _exit(0);
}

static void helper_main(int fd, pid_t parent, const char *const *paths, unsigned npaths)
{
    static struct helper h;
    char err[300] = "";
    h.fd = fd;
    h.paths = paths;
    h.npaths = npaths;
    const char *t = getenv("CSC_LIVE_TEST_SECCOMP");
    h.test_violation = t && !strcmp(t, "helper");
    signal(SIGINT, SIG_IGN);         /* the analyser decides when the run ends */
    signal(SIGHUP, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    live_find_tools(&h.tools);
    /* the BPF object is the build's or the installed one; CSC_LIVE_BPF is
     * taken only from a caller who is root anyway */
    const char *env = getuid() == 0 ? getenv("CSC_LIVE_BPF") : NULL;
    snprintf(h.bpf, sizeof h.bpf, "%s", env && *env ? env : CSC_LIVE_BPF_OBJ);
    h.tools.bpf_obj = h.bpf[0] && access(h.bpf, R_OK) == 0 ? h.bpf : NULL;
    if (helper_caps(err, sizeof err) || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
        live_sandbox_helper(err, sizeof err)) {
        fprintf(stderr, "csumcheck: --live helper: %s\n", err[0] ? err : strerror(errno));
        _exit(5);
    }
    /* after the credential changes, which clear it */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(3);
    helper_loop(&h);
}

/* ---- the analyser ---- */

static int drop_all(char *err, size_t n)
{
#ifdef CSC_LSAN
    /* LeakSanitizer's exit check stops the world by ptrace from /proc/PID/task,
     * which the dropped, non-dumpable, seccomp-confined analyser cannot do
     * (it aborted every sanitizer --live run): check now, while it can, which
     * also turns the exit check off */
    __lsan_do_leak_check();
#endif
    struct __user_cap_data_struct d[2];
    bool root = geteuid() == 0;
    if (!capget_(d) && has_cap(d, CAP_SETPCAP, false))
        for (int c = 0; c <= last_cap(); c++)
            prctl(PR_CAPBSET_DROP, c, 0, 0, 0);
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    if (root) {
        uid_t uid = 65534;
        gid_t gid = 65534;
        const char *su = getenv("SUDO_UID"), *sg = getenv("SUDO_GID");
        if (su && *su && atol(su) > 0)
            uid = (uid_t)atol(su), gid = sg && *sg ? (gid_t)atol(sg) : uid;
        else {
            struct passwd *pw = getpwnam("nobody");
            if (pw)
                uid = pw->pw_uid, gid = pw->pw_gid;
        }
        if (setgroups(0, NULL) || setresgid(gid, gid, gid) || setresuid(uid, uid, uid)) {
            snprintf(err, n, "cannot become uid %u: %s", (unsigned)uid, strerror(errno));
            return -1;
        }
        if (setuid(0) == 0) {        /* must not be able to come back */
            snprintf(err, n, "uid 0 could be regained");
            return -1;
        }
    }
    memset(d, 0, sizeof d);
    if (capset_(d)) {
        snprintf(err, n, "capset: %s", strerror(errno));
        return -1;
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
        snprintf(err, n, "PR_SET_NO_NEW_PRIVS: %s", strerror(errno));
        return -1;
    }
    return 0;
}

int live_privsep_start(struct live_broker *b, const char *const *paths, unsigned npaths, char *err, size_t n)
{
    memset(b, 0, sizeof *b);
    b->fd = -1;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
        snprintf(err, n, "socketpair: %s", strerror(errno));
        return -1;
    }
    pid_t parent = getpid();
    fflush(NULL);
    pid_t p = live_fork_pair(sv, err, n);
    if (p < 0)
        return -1;
    if (p == 0) {
        close(sv[0]);
        helper_main(sv[1], parent, paths, npaths);
        _exit(0);
    }
    close(sv[1]);
    b->fd = sv[0];
    b->pid = p;
    if (drop_all(err, n) || live_sandbox_analyser(err, n)) {
        live_broker_close(b);
        return -1;
    }
    return 0;
}
